//! Input: files or standard input, decompressed when gzip or zstd magic bytes
//! say so; the chunks the reader (`reader.rs`) cuts them into; and the
//! per-record classification every subcommand shares (empty, text, or a bad
//! record with its reason).
//!
//! A chunk holds whole records only (a record longer than the chunk size
//! grows its chunk, up to `--max-line-bytes`), so workers never see half a
//! record.

use std::fmt;
use std::io;
use std::path::Path;
use std::sync::{Arc, Mutex};

use urlsift::ParseError;
use urlsift::simd::{Kernel, Runtime};

use crate::mmap::MapSlice;
use crate::records::{Format, warc};

/// Where a chunk's records came from, as shown in messages, and their format.
#[derive(Debug)]
pub struct Source {
    /// The path as the user gave it, or `<stdin>`.
    pub name: String,
    /// The format, resolved when the source opened (the CSV header read).
    pub format: Format,
}

/// A run of whole records from one source.
pub struct Chunk {
    /// The source of these records.
    pub source: Arc<Source>,
    /// 1-based number of the chunk's first line within its source (or
    /// within the chunk, with `relative_lines`).
    pub first_line: u64,
    /// Lines are numbered from the chunk's start: the writer adds the
    /// lines of the source's earlier chunks (see `pipeline::LineBase`).
    pub relative_lines: bool,
    /// Where `data` starts in the source (after decompression).
    pub offset: u64,
    /// The bytes, each line ending in `\n` except perhaps the source's last.
    pub data: Data,
    /// Bytes at the start of `data` that are not records: a byte-order mark
    /// and a CSV header row (only in a source's first chunk).
    pub head: usize,
    /// Whether `head` holds a header to write (the first source's, not a
    /// later source's repeat of it).
    pub write_head: bool,
    /// The source ended with a read error right after this chunk: a last
    /// record without its terminator was cut off.
    pub truncated: bool,
    /// WARC chunks: each record's header block in `data`, and its place.
    pub index: Vec<warc::Entry>,
    /// A piece of a line too long to hold (see [`Oversize`]).
    pub oversize: Option<Oversize>,
    /// Every line of the chunk is a bad record for this reason, whatever
    /// its format: bytes a damaged member or frame decoded to
    /// ([`Reason::Damaged`]), or the rest of a line whose start a gap in
    /// the decoded input took ([`Reason::Truncated`]).
    pub bad: Option<Reason>,
    /// A recycled buffer for the worker's output (see [`BufPool`]).
    pub spare: Mutex<Vec<u8>>,
}

/// A line over `--max-line-bytes` comes in pieces, never held whole: the
/// workers pass them on untouched and the writer counts the line once,
/// streams it through under `--keep-invalid` and into `--rejects`.
#[derive(Clone, Copy, Debug)]
pub struct Oversize {
    /// The first piece (where the line starts).
    pub first: bool,
    /// The last piece (the line's terminator, if any, follows it).
    pub last: bool,
}

/// A chunk's bytes: read into a buffer of ours, or a slice of a mapped
/// file.
pub enum Data {
    Owned(Vec<u8>),
    Mapped(MapSlice),
}

impl std::ops::Deref for Data {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        match self {
            Data::Owned(v) => v,
            Data::Mapped(m) => m.bytes(),
        }
    }
}

impl Data {
    /// Gives an owned buffer back to `pool` (a mapped slice just goes).
    pub fn recycle(self, pool: &BufPool) {
        if let Data::Owned(v) = self {
            pool.put(v);
        }
    }
}

impl Chunk {
    /// A chunk of `data` from `source` with no head, index or flags.
    pub fn plain(source: Arc<Source>, first_line: u64, offset: u64, data: Vec<u8>) -> Chunk {
        Chunk::with_data(source, first_line, offset, Data::Owned(data))
    }

    /// [`Chunk::plain`] for any [`Data`].
    pub fn with_data(source: Arc<Source>, first_line: u64, offset: u64, data: Data) -> Chunk {
        Chunk {
            source,
            first_line,
            relative_lines: false,
            offset,
            data,
            head: 0,
            write_head: false,
            truncated: false,
            index: Vec::new(),
            oversize: None,
            bad: None,
            spare: Mutex::new(Vec::new()),
        }
    }

    /// The records' bytes (after the head).
    pub fn body(&self) -> &[u8] {
        &self.data[self.head..]
    }
}

/// Recycled byte buffers: chunk and output buffers are allocated (and their
/// pages faulted in) once per run instead of once per chunk.
pub struct BufPool {
    bufs: Mutex<Vec<Vec<u8>>>,
    keep: usize,
    common: usize,
    max_capacity: usize,
}

impl BufPool {
    /// Keeps at most `keep` buffers for chunks of `chunk_size` bytes.
    pub fn new(keep: usize, chunk_size: usize) -> BufPool {
        BufPool {
            bufs: Mutex::new(Vec::new()),
            keep,
            // What either role needs for a usual chunk (output may grow),
            // and the reader's slack.
            common: output_capacity(chunk_size).saturating_add(4096),
            max_capacity: chunk_size.saturating_mul(2).max(1 << 16),
        }
    }

    /// An empty buffer with at least `capacity` bytes reserved. Requests
    /// are rounded up to one common size, so a recycled buffer of one role
    /// fits the other without growing: growing a buffer of megabytes moves
    /// it to fresh pages the kernel must clear.
    pub fn get(&self, capacity: usize) -> Vec<u8> {
        let recycled = self.bufs.lock().map(|mut b| b.pop()).unwrap_or(None);
        let mut buf = recycled.unwrap_or_default();
        buf.reserve_exact(capacity.max(self.common));
        buf
    }

    /// Returns a buffer for reuse.
    pub fn put(&self, mut buf: Vec<u8>) {
        if buf.capacity() > self.max_capacity {
            return;
        }
        buf.clear();
        if let Ok(mut bufs) = self.bufs.lock()
            && bufs.len() < self.keep
        {
            bufs.push(buf);
        }
    }
}

/// Room for a chunk's output: its input and an eighth (hrefs can grow).
pub fn output_capacity(input_len: usize) -> usize {
    input_len.saturating_add(input_len / 8)
}

impl Chunk {
    /// The chunk's lines with their 1-based numbers, `\n` and a final `\r` removed
    /// (newlines found by [`LineEnds`]).
    pub fn lines(&self) -> impl Iterator<Item = (u64, &[u8])> {
        self.lines_in(Runtime)
    }

    /// [`Chunk::lines`] with a given SIMD kernel.
    #[inline(always)]
    pub fn lines_in<K: Kernel>(&self, k: K) -> impl Iterator<Item = (u64, &[u8])> {
        let data = &self.data[..];
        let head = self.head.min(data.len());
        let mut start = head;
        let mut number = self.first_line;
        let mut ends = LineEnds::new(k, &data[head..]);
        std::iter::from_fn(move || {
            if start >= data.len() {
                return None;
            }
            let end = ends.next().map_or(data.len(), |i| head + i);
            let mut line = &data[start..end];
            if let [rest @ .., b'\r'] = line {
                line = rest;
            }
            start = end + 1;
            number += 1;
            Some((number - 1, line))
        })
    }
}

/// The positions of `\n` in a byte string, found 64 bytes at a time as a
/// position mask: one SIMD pass per block rather than one search call per
/// line (URLs and header lines are short, and a search's set-up would cost
/// more than the scan).
pub struct LineEnds<'a, K> {
    kernel: K,
    bytes: &'a [u8],
    /// Where the block of `mask` starts.
    base: usize,
    /// Line ends in that block not yet handed out.
    mask: u64,
}

impl<'a, K: Kernel> LineEnds<'a, K> {
    #[inline(always)]
    pub fn new(kernel: K, bytes: &'a [u8]) -> LineEnds<'a, K> {
        let first = &bytes[..bytes.len().min(64)];
        LineEnds {
            kernel,
            bytes,
            base: 0,
            mask: kernel.positions_of::<b'\n'>(first),
        }
    }
}

impl<K: Kernel> Iterator for LineEnds<'_, K> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.mask == 0 {
            self.base += 64;
            if self.base >= self.bytes.len() {
                return None;
            }
            let end = self.bytes.len().min(self.base + 64);
            self.mask = self
                .kernel
                .positions_of::<b'\n'>(&self.bytes[self.base..end]);
        }
        let i = self.base + self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some(i)
    }
}

/// Why a line is bad. Bad lines are never parsed further and never lost:
/// they are counted, and rejected, kept or fatal according to the policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The line is not UTF-8.
    InvalidUtf8,
    /// The line contains a NUL byte (binary data, not a URL).
    NulByte,
    /// The line is longer than `--max-line-bytes`.
    TooLong,
    /// The URL parser returned failure.
    Url(ParseError),
    /// The input ended with a read error inside this record.
    Truncated,
    /// Decoded from a gzip member or zstd frame that failed its check: its
    /// bytes are wrong somewhere, so none is read as a record.
    Damaged,
    /// A CSV row has no such column.
    MissingField,
    /// A CSV quote not closed where its field ends (or never closed).
    BadQuote,
    /// A JSON line that is not valid JSON.
    InvalidJson,
    /// Valid JSON, but not an object.
    NotAnObject,
    /// The field's value is not a JSON string.
    NotAString,
    /// A CDXJ line without `SURT TIMESTAMP {json}`.
    NotCdxj,
    /// Not a WARC record header, or one without a usable Content-Length.
    BadWarcHeader,
    /// A WARC record whose Content-Length runs past the end of the input.
    WarcTruncated,
    /// The payload of a WARC record whose Content-Length does not end it
    /// (a damaged length): read up to the next record header instead.
    WarcBadLength,
    /// Not a common or combined log format line.
    NotALogLine,
    /// A log line whose request line has no target.
    NoRequestTarget,
}

impl Reason {
    /// A short stable key for tables and JSON: the spec's error name for
    /// parse failures, our own names for the rest.
    pub fn key(self) -> &'static str {
        match self {
            Reason::InvalidUtf8 => "invalid-UTF-8",
            Reason::NulByte => "NUL-byte",
            Reason::TooLong => "line-too-long",
            Reason::Url(e) => match e.validation_error() {
                Some(v) => v.name(),
                None => "URL-too-long",
            },
            Reason::Truncated => "truncated-input",
            Reason::Damaged => "damaged-input",
            Reason::MissingField => "missing-field",
            Reason::BadQuote => "bad-CSV-quote",
            Reason::InvalidJson => "invalid-JSON",
            Reason::NotAnObject => "not-a-JSON-object",
            Reason::NotAString => "field-not-a-string",
            Reason::NotCdxj => "not-a-CDXJ-line",
            Reason::BadWarcHeader => "bad-WARC-header",
            Reason::WarcTruncated => "WARC-record-truncated",
            Reason::WarcBadLength => "bad-WARC-length",
            Reason::NotALogLine => "not-a-log-line",
            Reason::NoRequestTarget => "no-request-target",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::InvalidUtf8 => f.write_str("invalid UTF-8"),
            Reason::NulByte => f.write_str("NUL byte"),
            Reason::TooLong => f.write_str("line longer than --max-line-bytes"),
            Reason::Url(e) => e.fmt(f),
            Reason::Truncated => f.write_str("cut off by a read error (the input ended, or decoding skipped damaged data there)"),
            Reason::Damaged => f.write_str(
                "decoded from a damaged gzip member or zstd frame (its check failed): set aside, not read",
            ),
            Reason::MissingField => f.write_str("the row has no URL column"),
            Reason::BadQuote => f.write_str("quote not closed where its field ends"),
            Reason::InvalidJson => f.write_str("not valid JSON"),
            Reason::NotAnObject => f.write_str("not a JSON object"),
            Reason::NotAString => f.write_str("the URL field is not a JSON string"),
            Reason::NotCdxj => f.write_str("not a CDXJ line (SURT TIMESTAMP {json})"),
            Reason::BadWarcHeader => f.write_str("not a WARC record header (or no Content-Length)"),
            Reason::WarcTruncated => {
                f.write_str("WARC record cut short: Content-Length past the end")
            }
            Reason::WarcBadLength => f.write_str(
                "WARC record payload that its Content-Length does not end (read up to the next record)",
            ),
            Reason::NotALogLine => f.write_str("not a common or combined log format line"),
            Reason::NoRequestTarget => f.write_str("no request target in the request line"),
        }
    }
}

/// One line, classified before any URL parsing.
pub enum Line<'a> {
    /// Empty (or only `\r`): counted, never parsed.
    Empty,
    /// Valid UTF-8 without NUL, within the length limit.
    Text(&'a str),
    /// Unusable as text.
    Bad(Reason),
}

/// What a chunk is known to be as a whole, so clean chunks skip per-line checks.
pub struct ChunkFacts<'a> {
    /// The whole chunk as text, when it is valid UTF-8 without NUL.
    text: Option<&'a str>,
    base: usize,
    max_line: usize,
}

impl<'a> ChunkFacts<'a> {
    /// Checks the whole chunk once: valid UTF-8 and no NUL means no line of
    /// it can be bad for those reasons, and lines are sliced without
    /// validating again.
    pub fn of(chunk: &'a Chunk, max_line: usize) -> ChunkFacts<'a> {
        let text = if memchr::memchr(0, &chunk.data).is_none() {
            simdutf8::basic::from_utf8(&chunk.data).ok()
        } else {
            None
        };
        ChunkFacts {
            text,
            base: chunk.data.as_ptr() as usize,
            max_line,
        }
    }

    /// The chunk's bytes as text, when they are UTF-8 (NUL bytes allowed:
    /// the fused line scan finds them in the lines that need it).
    pub fn utf8(chunk: &'a Chunk) -> Option<&'a str> {
        simdutf8::basic::from_utf8(&chunk.data).ok()
    }

    /// Classifies one line, which must be a slice of this chunk's data.
    #[inline(always)]
    pub fn classify(&self, line: &'a [u8]) -> Line<'a> {
        if line.is_empty() {
            return Line::Empty;
        }
        if line.len() > self.max_line {
            return Line::Bad(Reason::TooLong);
        }
        if let Some(text) = self.text {
            // Lines are cut at ASCII bytes, so they are char boundaries.
            let start = line.as_ptr() as usize - self.base;
            if let Some(s) = text.get(start..start + line.len()) {
                return Line::Text(s);
            }
        }
        Self::classify_alone(line)
    }

    /// A line of a chunk that is not clean text as a whole.
    #[inline(never)]
    fn classify_alone(line: &'a [u8]) -> Line<'a> {
        if memchr::memchr(0, line).is_some() {
            return Line::Bad(Reason::NulByte);
        }
        match simdutf8::basic::from_utf8(line) {
            Ok(s) => Line::Text(s),
            Err(_) => Line::Bad(Reason::InvalidUtf8),
        }
    }
}

/// An input that could not be opened or read.
#[derive(Debug)]
pub struct InputError {
    /// The source as the user named it.
    pub name: String,
    /// What went wrong.
    pub error: io::Error,
    /// A problem with the flags for this input (the CSV has no such
    /// column, say) rather than with reading it: it ends the run.
    pub usage: bool,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.error)
    }
}

/// The first of `files` (other than `-`) that is not there: a typo, said
/// before anything runs or is written.
pub fn missing(files: &[std::path::PathBuf]) -> Option<InputError> {
    files.iter().find_map(|f| {
        let error = (f.as_os_str() != "-").then(|| std::fs::metadata(f).err())??;
        Some(InputError {
            name: display_name(f),
            error,
            usage: false,
        })
    })
}

/// The source's display name: `<stdin>` for `-`.
pub fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(data: &[u8]) -> Vec<(u64, Vec<u8>)> {
        let source = Arc::new(Source {
            name: "t".into(),
            format: Format::Lines,
        });
        let chunk = Chunk::plain(source, 7, 0, data.to_vec());
        chunk.lines().map(|(n, l)| (n, l.to_vec())).collect()
    }

    fn reference(data: &[u8]) -> Vec<(u64, Vec<u8>)> {
        let mut lines: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
        if data.is_empty() || data.ends_with(b"\n") {
            lines.pop();
        }
        lines
            .into_iter()
            .zip(7..)
            .map(|(l, n)| (n, l.strip_suffix(b"\r").unwrap_or(l).to_vec()))
            .collect()
    }

    /// Lines of every length around the 64-byte blocks' edges, with and
    /// without CR, with and without a final newline, blank runs included.
    #[test]
    fn lines_match_a_plain_split() {
        let mut cases: Vec<Vec<u8>> = vec![Vec::new(), b"\n".to_vec(), b"\n\n\n".to_vec()];
        for len in (0..200).chain([255, 256, 257, 1000]) {
            for crlf in [false, true] {
                let mut one = vec![b'a'; len];
                if crlf {
                    one.push(b'\r');
                }
                one.push(b'\n');
                cases.push(one.repeat(5));
                let mut unterminated = one.repeat(3);
                unterminated.extend_from_slice(&vec![b'z'; len]);
                cases.push(unterminated);
                let mut mixed = Vec::new();
                for k in 0..20 {
                    mixed.extend_from_slice(&vec![b'x'; (len * k) % 131]);
                    mixed.extend_from_slice(if k % 3 == 0 { b"\r\n" } else { b"\n" });
                }
                cases.push(mixed);
            }
        }
        for data in &cases {
            assert_eq!(
                lines_of(data),
                reference(data),
                "{:?}",
                String::from_utf8_lossy(data)
            );
        }
    }
}

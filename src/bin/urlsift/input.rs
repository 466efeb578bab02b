//! Input: files or standard input, decompressed when gzip or zstd magic bytes
//! say so, cut into newline-aligned chunks, and the per-line classification
//! every subcommand shares (empty, text, or a bad line with its reason).
//!
//! Files are read with large buffered reads rather than mmap: the binary
//! stays free of `unsafe`, and compressed input and pipes take the same
//! path. A chunk holds whole lines only (a line longer than the chunk size
//! grows its chunk), so workers never see half a line.

use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::decode;
use urlsift::ParseError;
use urlsift::simd::{Kernel, Runtime};

/// Where a chunk's lines came from, as shown in messages.
#[derive(Debug)]
pub struct Source {
    /// The path as the user gave it, or `<stdin>`.
    pub name: String,
}

/// A run of whole lines from one source.
pub struct Chunk {
    /// The source of these lines.
    pub source: Arc<Source>,
    /// 1-based number of the chunk's first line within its source.
    pub first_line: u64,
    /// The bytes, each line ending in `\n` except perhaps the source's last.
    pub data: Vec<u8>,
    /// A recycled buffer for the worker's output (see [`BufPool`]).
    pub spare: Mutex<Vec<u8>>,
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
    /// The chunk's lines with their 1-based numbers, `\n` and a final `\r` removed.
    ///
    /// Newlines are found 64 bytes at a time as a position mask (one SIMD
    /// pass per block rather than one search call per line: URLs are
    /// short, and a search's set-up would cost more than the scan).
    pub fn lines(&self) -> impl Iterator<Item = (u64, &[u8])> {
        self.lines_in(Runtime)
    }

    /// [`Chunk::lines`] with a given SIMD kernel.
    #[inline(always)]
    pub fn lines_in<K: Kernel>(&self, k: K) -> impl Iterator<Item = (u64, &[u8])> {
        let data = &self.data[..];
        let mut start = 0;
        let mut number = self.first_line;
        // `mask` holds the newlines of data[block..block + 64] not yet used.
        let mut block = 0;
        let mut mask = newlines(k, data, 0);
        std::iter::from_fn(move || {
            if start >= data.len() {
                return None;
            }
            while mask == 0 && block + 64 < data.len() {
                block += 64;
                mask = newlines(k, data, block);
            }
            let end = if mask == 0 {
                data.len()
            } else {
                let at = block + mask.trailing_zeros() as usize;
                mask &= mask - 1;
                at
            };
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

/// The newline positions of the (up to) 64 bytes from `at`.
#[inline(always)]
fn newlines<K: Kernel>(k: K, data: &[u8], at: usize) -> u64 {
    match data.get(at..) {
        Some(rest) => k.positions_of::<b'\n'>(&rest[..rest.len().min(64)]),
        None => 0,
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

    /// The whole chunk as text, when it is valid UTF-8 without NUL: then
    /// a line is bad only if it is too long.
    pub fn text(&self) -> Option<&'a str> {
        self.text
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
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.error)
    }
}

/// The source's display name: `<stdin>` for `-`.
pub fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// Opens a file or stdin as one byte stream, decompressed when gzip or
/// zstd magic bytes say so (see [`decode::open`]).
pub fn open(path: &Path) -> io::Result<Box<dyn Read + Send>> {
    decode::open(path).map(decode::Input::into_reader)
}

/// Reads the sources in order and cuts them into newline-aligned chunks,
/// numbering their lines. The workers share one behind a lock: whoever
/// needs work reads the next chunk (so reading is part of each worker's
/// share, and `-j N` means N threads read and parse).
pub struct ChunkReader {
    paths: std::vec::IntoIter<PathBuf>,
    chunk_size: usize,
    current: Option<Current>,
    /// Set after an error or the end of the last source.
    done: bool,
    /// How many chunks (and errors) have been handed out.
    handed_out: u64,
}

/// The source being read.
struct Current {
    source: Arc<Source>,
    reader: Box<dyn Read + Send>,
    next_line: u64,
    /// The start of a line that the previous chunk cut off.
    carry: Vec<u8>,
}

impl ChunkReader {
    /// A reader of `paths` (`-` is stdin) in chunks of about `chunk_size` bytes.
    pub fn new(paths: Vec<PathBuf>, chunk_size: usize) -> ChunkReader {
        ChunkReader {
            paths: paths.into_iter(),
            chunk_size: chunk_size.max(1),
            current: None,
            done: false,
            handed_out: 0,
        }
    }

    /// The next chunk (in a buffer from `pool`) or an error that ends the
    /// reading, numbered from 0 in input order; `None` at the end of the
    /// last source.
    pub fn next_numbered(&mut self, pool: &BufPool) -> Option<(u64, Result<Chunk, InputError>)> {
        let next = self.next_chunk(pool)?;
        self.handed_out += 1;
        Some((self.handed_out - 1, next))
    }

    /// The next chunk, an error that ends the reading, or `None` at the
    /// end of the last source.
    fn next_chunk(&mut self, pool: &BufPool) -> Option<Result<Chunk, InputError>> {
        while !self.done {
            let Some(current) = &mut self.current else {
                let Some(path) = self.paths.next() else {
                    self.done = true;
                    return None;
                };
                let name = display_name(&path);
                match open(&path) {
                    Ok(reader) => {
                        self.current = Some(Current {
                            source: Arc::new(Source { name }),
                            reader,
                            next_line: 1,
                            carry: Vec::new(),
                        });
                    }
                    Err(error) => {
                        self.done = true;
                        return Some(Err(InputError { name, error }));
                    }
                }
                continue;
            };
            match current.read_chunk(self.chunk_size, pool) {
                Ok((chunk, eof)) => {
                    if eof {
                        self.current = None;
                    }
                    if let Some(chunk) = chunk {
                        return Some(Ok(chunk));
                    }
                }
                Err(error) => {
                    self.done = true;
                    let name = current.source.name.clone();
                    return Some(Err(InputError { name, error }));
                }
            }
        }
        None
    }
}

impl Current {
    /// Reads the source's next chunk (`None` if nothing is left) and
    /// whether the source has ended.
    fn read_chunk(
        &mut self,
        chunk_size: usize,
        pool: &BufPool,
    ) -> io::Result<(Option<Chunk>, bool)> {
        // Pooled buffers hold a chunk; a line longer than that carried
        // over needs room for itself and more.
        let mut buf = pool.get(self.carry.len() * 2);
        buf.append(&mut self.carry);
        let mut eof = false;
        // Fill to the chunk size, then keep going until a newline shows
        // up (a line longer than a chunk) or the input ends.
        loop {
            let want = if buf.len() < chunk_size {
                chunk_size - buf.len()
            } else {
                chunk_size
            };
            let before = buf.len();
            match (&mut self.reader).take(want as u64).read_to_end(&mut buf) {
                Ok(0) => {
                    eof = true;
                    break;
                }
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
            if buf.len() >= chunk_size && memchr::memchr(b'\n', &buf[before..]).is_some() {
                break;
            }
        }
        let cut = if eof {
            buf.len()
        } else {
            memchr::memrchr(b'\n', &buf).map_or(buf.len(), |i| i + 1)
        };
        self.carry = buf.split_off(cut);
        if buf.is_empty() {
            pool.put(buf);
            return Ok((None, eof));
        }
        let lines =
            memchr::memchr_iter(b'\n', &buf).count() as u64 + u64::from(!buf.ends_with(b"\n"));
        let chunk = Chunk {
            source: Arc::clone(&self.source),
            first_line: self.next_line,
            spare: Mutex::new(Vec::new()),
            data: buf,
        };
        self.next_line += lines;
        Ok((Some(chunk), eof))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(data: &[u8]) -> Vec<(u64, Vec<u8>)> {
        let chunk = Chunk {
            source: Arc::new(Source { name: "t".into() }),
            first_line: 7,
            data: data.to_vec(),
            spare: Mutex::new(Vec::new()),
        };
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

//! Chunks: the runs of whole records the reader ([`reader`](super::reader))
//! cuts a source into and the workers take in turn, the recycled buffers
//! they live in, and the checks a chunk of URL lines gets as a whole
//! (valid UTF-8, no NUL byte) so that its lines skip them one by one.
//!
//! A chunk holds whole records only (a record longer than the chunk size
//! grows its chunk, up to the longest record allowed; a longer one comes
//! in pieces, [`Oversize`]), so a worker never sees half a record.
//!
//! ```
//! use std::sync::Arc;
//! use urlsift_records::{Chunk, Format, Source};
//!
//! let source = Arc::new(Source { name: "urls.txt".into(), format: Format::Lines });
//! let chunk = Chunk::plain(source, 1, 0, b"https://a.example/\r\nhttps://b.example/".to_vec());
//! let lines: Vec<_> = chunk.lines().collect();
//! assert_eq!(lines, [(1, &b"https://a.example/"[..]), (2, &b"https://b.example/"[..])]);
//! ```

use std::sync::{Arc, Mutex};

use urlsift_simd::{Kernel, Runtime};

#[cfg(feature = "parquet")]
use super::format::parquet::Rows;
use super::format::{Format, View};
use super::input::mmap::MapSlice;
use super::reason::Reason;
use urlsift_warc::Entry;

/// A chunk's place in input order: its source, and its number there.
pub(crate) type Place = (usize, u64);

/// Where a chunk's records came from, as shown in messages, and their format.
#[derive(Debug)]
pub struct Source {
    /// The path as the user gave it, or `<stdin>`.
    pub name: String,
    /// The format, resolved when the source opened (the CSV header read).
    pub format: Format,
}

/// A run of whole records from one source: what the reader hands the
/// workers. Its parts are read through its methods.
pub struct Chunk {
    /// The source of these records.
    pub(crate) source: Arc<Source>,
    /// 1-based number of the chunk's first line within its source (or
    /// within the chunk, with `relative_lines`).
    pub(crate) first_line: u64,
    /// Lines are numbered from the chunk's start: the writer adds the
    /// lines of the source's earlier chunks (see [`LineBase`](super::LineBase)).
    pub(crate) relative_lines: bool,
    /// Where `data` starts in the source (after decompression).
    pub(crate) offset: u64,
    /// The bytes, each line ending in `\n` except perhaps the source's last.
    pub(crate) data: Data,
    /// Bytes at the start of `data` that are not records: a byte-order mark
    /// and a CSV header row (only in a source's first chunk).
    pub(crate) head: usize,
    /// Whether `head` holds a header to write (the first source's, not a
    /// later source's repeat of it).
    pub(crate) write_head: bool,
    /// The source ended with a read error right after this chunk: a last
    /// record without its terminator was cut off.
    pub(crate) truncated: bool,
    /// Chunks whose records are not one per line (WARC, ARC): each
    /// record's place in `data`.
    pub(crate) index: Vec<Entry>,
    /// A piece of a line too long to hold (see [`Oversize`]).
    pub(crate) oversize: Option<Oversize>,
    /// Every line of the chunk is a bad record for this reason, whatever
    /// its format: bytes a damaged member or frame decoded to
    /// ([`Reason::Damaged`]), or the rest of a line whose start a gap in
    /// the decoded input took ([`Reason::Truncated`]).
    pub(crate) bad: Option<Reason>,
    /// A recycled buffer for the worker's output (see [`BufPool`]).
    pub(crate) spare: Mutex<Vec<u8>>,
    /// A Parquet chunk's rows as Arrow read them ([`Chunk::rows`]: its
    /// data holds a frame per row, its number and URL).
    #[cfg(feature = "parquet")]
    pub(crate) rows: Option<Arc<Rows>>,
    /// Where the engine's run has it: its source, and its number there
    /// (`(0, 0)` for a chunk made outside a run).
    pub(crate) place: Place,
    /// `data` is decoded bytes of whole WARC records, not yet walked into
    /// an index (`reader::walk`).
    pub(crate) raw: Option<Raw>,
}

/// What a worker needs to index a chunk of whole WARC records as they
/// were decoded (`reader::walk`): where each starts and its header block
/// ends ([`urlsift_warc::whole_records`]), the longest header block, the
/// blocks to keep, and where the buffer goes back to.
pub(crate) struct Raw {
    pub(crate) marks: Vec<usize>,
    pub(crate) max_header: usize,
    /// The blocks kept beside the header blocks, if any.
    pub(crate) keep: Option<urlsift_warc::Keeping>,
    pub(crate) home: super::input::decode::Home,
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
    /// A last piece the line's newline followed (not part of its data):
    /// one more byte read.
    pub newline: bool,
}

/// A chunk's bytes: read into a buffer of ours, or a slice of a mapped
/// file.
pub enum Data {
    /// Read into a buffer (from the pool).
    Owned(Vec<u8>),
    /// A slice of a mapped file.
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
            #[cfg(feature = "parquet")]
            rows: None,
            place: (0, 0),
            raw: None,
        }
    }

    /// A Parquet chunk's rows as Arrow read them (the operations that
    /// write rows back or read their other columns take them from here);
    /// `None` for a chunk of any other format.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use urlsift_records::{Chunk, Format, Source};
    ///
    /// let source = Arc::new(Source { name: "t".into(), format: Format::Lines });
    /// assert!(Chunk::plain(source, 1, 0, Vec::new()).rows().is_none());
    /// ```
    #[cfg(feature = "parquet")]
    pub fn rows(&self) -> Option<&Rows> {
        self.rows.as_deref()
    }

    /// The records' bytes (after the head).
    pub fn body(&self) -> &[u8] {
        &self.data[self.head..]
    }

    /// The source of these records.
    pub fn source(&self) -> &Arc<Source> {
        &self.source
    }

    /// The 1-based number of the chunk's first line within its source (or
    /// within the chunk, where lines are numbered from its start).
    pub fn first_line(&self) -> u64 {
        self.first_line
    }

    /// Where the chunk's bytes start in the source (after decompression).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The chunk's bytes: its head, then its records.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// How many bytes at the start of [`Chunk::data`] are not records: a
    /// byte-order mark and a CSV header row (a source's first chunk).
    pub fn head(&self) -> usize {
        self.head
    }

    /// Whether the head holds a header to write (the first source's, not
    /// a later source's repeat of it).
    pub fn writes_head(&self) -> bool {
        self.write_head
    }

    /// Whether the source ended with a read error right after this chunk
    /// (a last record without its terminator was cut off).
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// Each record's place in [`Chunk::data`], for chunks whose records are
    /// not one per line (WARC, ARC).
    pub fn index(&self) -> &[Entry] {
        &self.index
    }

    /// The piece of a line too long to hold, if the chunk is one.
    pub fn oversize(&self) -> Option<Oversize> {
        self.oversize
    }

    /// The reason every line of the chunk is bad, if one is (bytes a
    /// damaged member or frame decoded to, the rest of a cut line).
    pub fn bad(&self) -> Option<Reason> {
        self.bad
    }

    /// Gives the chunk's buffer back to `pool`.
    pub fn recycle(self, pool: &BufPool) {
        self.data.recycle(pool);
    }
}

/// Recycled byte buffers: chunk and output buffers are allocated (and their
/// pages faulted in) once per run instead of once per chunk.
///
/// ```
/// use urlsift_records::BufPool;
///
/// let pool = BufPool::new(2, 1 << 16);
/// let mut buf = pool.get(100);
/// assert!(buf.capacity() >= 1 << 16); // one common size for every role
/// buf.extend_from_slice(b"bytes");
/// pool.put(buf);
/// assert!(pool.get(0).is_empty()); // recycled, cleared
/// ```
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
    /// (newlines found by [`LineEnds`](urlsift_simd::LineEnds)).
    pub fn lines(&self) -> impl Iterator<Item = (u64, &[u8])> {
        self.lines_in(Runtime)
    }

    /// [`Chunk::lines`] with a given SIMD kernel.
    #[inline(always)]
    pub fn lines_in<K: Kernel>(&self, k: K) -> impl Iterator<Item = (u64, &[u8])> {
        self.view().lines_in(k)
    }

    /// The chunk as a format walks it.
    #[inline(always)]
    pub(crate) fn view(&self) -> View<'_> {
        View {
            data: &self.data,
            head: self.head,
            first_line: self.first_line,
            offset: self.offset,
            truncated: self.truncated,
            index: &self.index,
        }
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

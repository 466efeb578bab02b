//! The reader: sources in order, each opened, its format resolved (a CSV
//! header read, a default field checked), and cut into record-aligned
//! chunks that the workers take in turn.
//!
//! Nothing decodable is lost: a read error (a truncated gzip file, say)
//! ends its source after the records read before it, which are handed out
//! with the cut-off last record marked; the error follows in order, and
//! reading goes on with the next source. A damaged gzip member is not an
//! end: the decoder resumes at the next member ([`decode::resumes`]), so
//! the records before the gap go out (the one it cut marked), then the
//! bytes a damaged member or frame decoded to, as bad records of their own
//! (never read as URLs), then the error, then the records after it, from
//! the same source, the first line marked when it may be the rest of one
//! the gap cut (`gaps.rs`). A line longer than `--max-line-bytes` is never
//! held whole: past the limit it is handed out in pieces ([`Oversize`]),
//! so memory stays bounded by the limit plus a chunk. How a source's
//! format is resolved from its first bytes is `start.rs`.
//!
//! ```
//! use urlsift_records::BufPool;
//! use urlsift_records::format::Spec;
//! use urlsift_records::reader::{ChunkReader, Settings};
//!
//! # let tmp = tempfile::Builder::new().prefix("urlsift-doc-reader-").tempdir()?;
//! # let dir = tmp.path();
//! let path = dir.join("urls.txt");
//! std::fs::write(&path, "https://a.example/\nhttps://b.example/\nhttps://c.example/\n")?;
//! // Chunks of about 20 bytes: each ends at a line end.
//! let settings = Settings {
//!     chunk_size: 20,
//!     max_record: 1 << 20,
//!     spec: Spec::default(),
//!     writes_records: false,
//!     count_lines: true,
//!     keep: None,
//!     cores: 1,
//!     decoding_clock: Default::default(),
//! };
//! let mut reader = ChunkReader::new(vec![path], settings);
//! let pool = BufPool::new(4, 20);
//! let mut lines = Vec::new();
//! while let Some((_number, chunk)) = reader.next_numbered(&pool) {
//!     let chunk = chunk?;
//!     assert!(chunk.data().ends_with(b"\n"));
//!     lines.extend(chunk.lines().map(|(n, l)| (n, String::from_utf8_lossy(l).into_owned())));
//! }
//! assert_eq!(lines[2], (3, "https://c.example/".to_string()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::VecDeque;
use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::Arc;

use crate::chunk::{BufPool, Chunk, Data, Oversize};
use crate::format::{Cut, Format};
use crate::input::{InputError, Location, decode};
use crate::reason::Reason;
use crate::setting::SettingError;
use urlsift_warc as warc;

mod current;
mod gaps;
mod start;

pub use current::Settings;
use current::{Current, Failed, Failure, Feed, Gap};
use gaps::{headless_error, warc_set_aside};

/// Reads the sources in order and cuts them into record-aligned chunks,
/// numbering their lines. The workers share one behind a lock: whoever
/// needs work reads the next chunk (so reading is part of each worker's
/// share, and `-j N` means N threads read and parse).
pub struct ChunkReader {
    inputs: std::vec::IntoIter<Location>,
    settings: Settings,
    current: Option<Current>,
    /// What to hand out next, before reading on: after a read error, the
    /// chunk of damaged bytes it set aside (if any), then the error.
    pending: VecDeque<Result<Chunk, InputError>>,
    /// Set after a usage error or the end of the last source.
    done: bool,
    /// How many chunks (and errors) have been handed out.
    handed_out: u64,
    /// The first CSV source's header row, which later ones must repeat.
    first_header: Option<Vec<u8>>,
    /// The Parquet source being read.
    #[cfg(feature = "parquet")]
    parquet: Option<crate::parquet::Cursor>,
}

impl ChunkReader {
    /// How its inputs are decoded: on the run's cores, timed by its clock.
    fn decoding(&self) -> decode::Decoding {
        decode::Decoding {
            cores: self.settings.cores,
            clock: self.settings.decoding_clock.clone(),
        }
    }

    /// A reader of `paths` (`-` is stdin).
    pub fn new(paths: Vec<PathBuf>, settings: Settings) -> ChunkReader {
        ChunkReader::of(paths.into_iter().map(Location::File).collect(), settings)
    }

    /// A reader of `inputs`: files, and entries of WACZ files
    /// ([`crate::input::wacz::expand`]).
    pub fn of(inputs: Vec<Location>, settings: Settings) -> ChunkReader {
        ChunkReader {
            inputs: inputs.into_iter(),
            settings,
            current: None,
            pending: VecDeque::new(),
            done: false,
            handed_out: 0,
            first_header: None,
            #[cfg(feature = "parquet")]
            parquet: None,
        }
    }

    /// The next chunk (in a buffer from `pool`) or an input error,
    /// numbered from 0 in input order; `None` at the end of the last
    /// source (or after a usage error).
    pub fn next_numbered(&mut self, pool: &BufPool) -> Option<(u64, Result<Chunk, InputError>)> {
        let next = self.next_chunk(pool)?;
        self.handed_out += 1;
        Some((self.handed_out - 1, next))
    }

    fn next_chunk(&mut self, pool: &BufPool) -> Option<Result<Chunk, InputError>> {
        if let Some(next) = self.pending.pop_front() {
            if matches!(&next, Err(e) if e.usage) {
                self.done = true;
            }
            return Some(next);
        }
        while !self.done {
            #[cfg(feature = "parquet")]
            if let Some(cursor) = &mut self.parquet {
                match cursor.next_chunk(pool) {
                    Some(Ok(chunk)) => return Some(Ok(chunk)),
                    Some(Err(error)) => {
                        self.parquet = None;
                        return Some(Err(error));
                    }
                    None => {
                        self.parquet = None;
                        continue;
                    }
                }
            }
            let Some(current) = &mut self.current else {
                let location = self.inputs.next()?;
                let name = location.name();
                let path = location.path();
                let kind = self.settings.spec.kind_for(path);
                if !kind.reads_bytes() {
                    match self.open_parquet(&location, name) {
                        Ok(()) => continue,
                        Err(error) => {
                            self.done |= error.usage;
                            return Some(Err(error));
                        }
                    }
                }
                match Current::open(&location, name.clone(), kind, self.decoding()) {
                    Ok(mut current) => {
                        current.sniff_log = self.settings.spec.sniffs_log(path);
                        self.current = Some(current);
                    }
                    Err(error) => {
                        return Some(Err(InputError {
                            name,
                            error,
                            usage: false,
                        }));
                    }
                }
                continue;
            };
            let result = current.read_chunk(&self.settings, &mut self.first_header, pool);
            match result {
                Ok((chunk, ended)) => {
                    if ended {
                        self.current = None;
                    }
                    if let Some(chunk) = chunk {
                        return Some(Ok(chunk));
                    }
                }
                Err(Failure(failed)) => {
                    let Failed {
                        chunk,
                        set_aside,
                        error,
                        resumes,
                    } = *failed;
                    if !resumes {
                        self.current = None;
                    }
                    self.pending.extend(set_aside.into_iter().map(Ok));
                    self.pending.push_back(Err(error));
                    if let Some(chunk) = chunk {
                        return Some(Ok(chunk));
                    }
                    return self.next_chunk(pool);
                }
            }
        }
        None
    }
}

impl ChunkReader {
    /// Opens a Parquet source (the reader of this build permitting).
    fn open_parquet(&mut self, location: &Location, name: String) -> Result<(), InputError> {
        let usage = |message: &str| InputError {
            name: name.clone(),
            error: io::Error::other(message.to_string()),
            usage: true,
        };
        if self.settings.spec.delimiter.is_some() {
            return Err(InputError {
                name: name.clone(),
                error: io::Error::other(SettingError::DelimiterOfParquet),
                usage: true,
            });
        }
        let Location::File(path) = location else {
            return Err(usage(
                "a Parquet file inside a ZIP is not read: unzip it first",
            ));
        };
        #[cfg(feature = "parquet")]
        {
            use crate::parquet::{Cursor, rows_per_chunk};
            let rows = rows_per_chunk(self.settings.chunk_size);
            let field = self.settings.spec.field.as_deref();
            let cursor = Cursor::open(path, name.clone(), field, rows, self.settings.cores)?;
            for named in &self.settings.spec.named {
                if let Some(Err(m)) = cursor.source().format.knows_field(named) {
                    return Err(usage(&format!("@{named}: {m}")));
                }
            }
            self.parquet = Some(cursor);
            Ok(())
        }
        #[cfg(not(feature = "parquet"))]
        {
            let _ = path;
            Err(usage(
                "this build reads no Parquet (it was built without the `parquet` feature)",
            ))
        }
    }
}

/// The most an over-long line's later pieces hold.
const PIECE: usize = 256 << 10;

impl Current {
    /// Reads the source's next chunk (`None` if nothing is left) and
    /// whether the source has ended.
    fn read_chunk(
        &mut self,
        settings: &Settings,
        first_header: &mut Option<Vec<u8>>,
        pool: &BufPool,
    ) -> Result<(Option<Chunk>, bool), Failure> {
        if let Some(warc) = &mut self.warc {
            let source = Arc::clone(self.source.as_ref().expect("started"));
            let mut nothing = io::empty();
            let reader: &mut dyn Read = match &mut self.feed {
                Feed::Read { reader, .. } => reader,
                // The WARC reader walks the map itself.
                Feed::Map { .. } => &mut nothing,
            };
            let mut data = pool.get(settings.chunk_size);
            // Room for the records of a chunk of short header blocks, so the
            // index does not grow (and copy itself into fresh pages) as it
            // fills.
            let mut index = Vec::with_capacity(settings.chunk_size / 128);
            let (size, max) = (settings.chunk_size, settings.max_record);
            let read = match settings.keep {
                Some(k) => {
                    let blocks = pool.get(size);
                    let (read, spare) = warc
                        .read_chunk_keeping(reader, size, max, &mut data, &mut index, k, blocks);
                    pool.put(spare);
                    read
                }
                None => warc.read_chunk(reader, size, max, &mut data, &mut index),
            };
            let chunk = (!index.is_empty()).then(|| Chunk {
                index,
                ..Chunk::plain(source, 0, 0, data)
            });
            return match read {
                Ok(ended) => Ok((chunk, ended)),
                Err(e) => {
                    // Bytes a damaged member or frame decoded to: one bad
                    // record, where they start.
                    let at = warc.read_to();
                    let damaged = decode::decode_error(&e)
                        .and_then(|d| d.damaged.as_ref())
                        .map(|d| {
                            let source = Arc::clone(self.source.as_ref().expect("started"));
                            warc_set_aside(source, &d.bytes, at)
                        });
                    let len = damaged.as_ref().map_or(0, |(_, len)| *len);
                    if decode::resumes(&e) {
                        // Records start again after the gap, with a reader
                        // of their own (the old one ended at the gap).
                        let dialect = warc.format();
                        self.warc = Some(warc::Reader::new(Vec::new(), at + len).dialect(dialect));
                    }
                    let failure = Failure::new(chunk, self.error(e, false));
                    Err(failure
                        .with_set_aside(damaged.map(|(chunk, _)| chunk).into_iter().collect()))
                }
            };
        }
        if self.streaming {
            return self.next_piece(settings, pool);
        }
        let mut want = settings.chunk_size.max(1);
        let mut head = 0;
        let mut write_head = false;
        let (take, ends) = loop {
            if let Err(e) = self.fill(want, pool) {
                // Everything read so far goes out; the error follows.
                let resumes = decode::resumes(&e);
                if self.source.is_none() {
                    self.eof = true;
                    let started = self.with_window(|c, w| c.start(w, settings, first_header));
                    if let Ok(Some((h, w))) = started {
                        (head, write_head) = (h, w);
                    }
                    // A WARC source that failed in its first read: its
                    // reader takes what was read, then reports the error.
                    if self.warc.is_some()
                        && self.source.is_some()
                        && let Feed::Read { buf, .. } = &mut self.feed
                    {
                        let rest = buf.split_off(head);
                        let dialect = self.warc.as_ref().map(warc::Reader::format);
                        let reader = warc::Reader::new(rest, head as u64).failed(e);
                        self.warc = Some(reader.dialect(dialect.unwrap_or_default()));
                        return self.read_chunk(settings, first_header, pool);
                    }
                    self.warc = None;
                }
                // A CSV whose header row the gap took (or set aside as
                // damaged) cannot be read on: a row after the gap would be
                // taken for the header.
                let headless = self.source.is_none() && self.kind.has_header(&settings.spec);
                let mut failure = self.fail(head, write_head, e, pool, settings.count_lines);
                if resumes && !headless && (self.source.is_some() || self.window().is_empty()) {
                    // The bytes after the gap are still to come.
                    self.eof = false;
                } else {
                    // (A source whose start the gap cut: its first bytes
                    // cannot be told from what follows the gap.)
                    if failure.0.resumes && headless {
                        failure.0.error.error = headless_error(&failure.0.error.error);
                    }
                    failure.0.resumes = false;
                }
                return Err(failure);
            }
            if self.source.is_none() {
                match self.with_window(|c, w| c.start(w, settings, first_header))? {
                    Some((h, w)) => (head, write_head) = (h, w),
                    None if self.eof => return Ok((None, true)),
                    None => {
                        want += settings.chunk_size;
                        continue;
                    }
                }
                if let Some(dialect) = self.warc.as_ref().map(warc::Reader::format) {
                    let reader = match &mut self.feed {
                        Feed::Read { buf, .. } => {
                            warc::Reader::new(buf.split_off(head), head as u64)
                        }
                        Feed::Map { map, pos, .. } => {
                            warc::Reader::mapped(Arc::clone(map), *pos + head)
                        }
                    };
                    self.warc = Some(reader.dialect(dialect));
                    return self.read_chunk(settings, first_header, pool);
                }
            }
            let have = self.window().len();
            match self.cut(head, settings) {
                Cut::Records(n, ends) => break (head + n, ends),
                Cut::None if !self.eof && have - head <= settings.max_record => {
                    want = have + settings.chunk_size;
                    // A record longer than a chunk: make room for the
                    // longest one allowed at once, rather than growing
                    // (and reallocating) chunk by chunk.
                    if let Feed::Read { buf, .. } = &mut self.feed {
                        // (With no limit to speak of, the buffer grows as
                        // it reads instead.)
                        let most = head
                            .saturating_add(settings.max_record)
                            .saturating_add(settings.chunk_size);
                        let _ = buf.try_reserve_exact(most.saturating_sub(buf.len()));
                    }
                }
                Cut::None if self.eof => {
                    if have == 0 {
                        return Ok((self.carried_alone(settings.count_lines), true));
                    }
                    break (have, None);
                }
                Cut::None | Cut::Oversize => {
                    if head > 0 {
                        // The head goes out alone first.
                        break (head, None);
                    }
                    // (A line over the limit is bad as it is, even the
                    // rest of one a gap cut.)
                    if let Some(chunk) = self.carried_alone(settings.count_lines) {
                        return Ok((Some(chunk), false));
                    }
                    self.streaming = true;
                    let data = self.take(have, pool);
                    return Ok((Some(self.piece(data, true, false)), false));
                }
            }
        };
        // After a gap: its first line goes out alone, as a bad record (with
        // the set-aside bytes it finishes, if any).
        let first_line =
            |window: &[u8]| memchr::memchr(b'\n', &window[..take]).map_or(take, |i| i + 1);
        let (take, ends, bad) = match self.gap.take() {
            Some(Gap::Continues(mut carry)) => {
                let end = first_line(self.window());
                carry.extend_from_slice(&self.window()[..end]);
                self.skip(end);
                let ended = self.eof && self.window().is_empty();
                let chunk = self.bad_chunk(carry, Reason::Damaged, settings.count_lines);
                return Ok((Some(chunk), ended));
            }
            Some(Gap::Fragment) if head == 0 => {
                (first_line(self.window()), None, Some(Reason::Truncated))
            }
            _ => (take, ends, None),
        };
        let data = self.take(take, pool);
        let ended = self.eof && self.window().is_empty();
        let chunk = Chunk {
            bad,
            ..self.chunk(data, head, write_head, false, settings.count_lines, ends)
        };
        Ok((Some(chunk), ended))
    }

    /// A chunk of `data` (whose first `head` bytes are not records), and
    /// the line and offset bookkeeping past it. `ends`: the line ends in
    /// the records, when the cut counted them (else they are counted here).
    fn chunk(
        &mut self,
        data: Data,
        head: usize,
        write_head: bool,
        truncated: bool,
        count_lines: bool,
        ends: Option<u64>,
    ) -> Chunk {
        let source = Arc::clone(self.source.as_ref().expect("started"));
        // (Formats where a record is a line: the writer can number them.)
        if !count_lines && source.format.one_per_line() {
            self.counting_off = true;
            let offset = self.offset;
            self.offset += data.len() as u64;
            return Chunk {
                head,
                write_head,
                truncated,
                relative_lines: true,
                ..Chunk::with_data(source, 1, offset, data)
            };
        }
        // A last line without an end (at the end of a source) counts too.
        let format = &source.format;
        let first_line = self.next_line + format.line_ends(&data[..head]);
        let body = &data[head..];
        let ended = format.ends_line(body);
        let lines =
            ends.unwrap_or_else(|| format.line_ends(body)) + u64::from(!body.is_empty() && !ended);
        self.next_line = first_line + lines;
        let offset = self.offset;
        self.offset += data.len() as u64;
        Chunk {
            head,
            write_head,
            truncated,
            ..Chunk::with_data(source, first_line, offset, data)
        }
    }

    /// Where the records of the window (after its `head` bytes) may be
    /// cut.
    fn cut(&mut self, head: usize, settings: &Settings) -> Cut {
        let source = Arc::clone(self.source.as_ref().expect("started"));
        if !self.eof
            && let Some((n, ends)) = self.cut_ahead(head, &source.format, settings)
        {
            return Cut::Records(n, Some(ends));
        }
        source
            .format
            .cut(&self.window()[head..], self.eof, settings.max_record)
    }

    /// A mapped window's cut from the boundaries its format found ahead on
    /// several threads ([`Format::ahead`]), where they answer.
    fn cut_ahead(
        &mut self,
        head: usize,
        format: &Format,
        settings: &Settings,
    ) -> Option<(usize, u64)> {
        let Feed::Map { map, pos, end } = &self.feed else {
            return None;
        };
        let (map, at, len) = (Arc::clone(map), pos + head, end - pos - head);
        let ahead = self
            .ahead
            .get_or_insert_with(|| format.ahead(settings.chunk_size, settings.cores))
            .as_mut()?;
        ahead.cut(map.bytes(), at, len)
    }

    /// One piece of an over-long line (numbered as the source's line, or
    /// 0 when lines are numbered by the writer).
    fn piece(&mut self, data: Data, first: bool, last: bool) -> Chunk {
        let source = Arc::clone(self.source.as_ref().expect("started"));
        let offset = self.offset;
        self.offset += data.len() as u64;
        let line = self.next_line;
        if last {
            self.next_line += 1;
            self.streaming = false;
        }
        // Without counting, `next_line` stays 1: the piece is "the next
        // line", which the writer knows.
        let relative_lines = self.counting_off;
        Chunk {
            oversize: Some(Oversize {
                first,
                last,
                newline: false,
            }),
            relative_lines,
            ..Chunk::with_data(source, if relative_lines { 1 } else { line }, offset, data)
        }
    }

    /// The next piece of the over-long line being handed out: up to a
    /// chunk, or to its end (the newline is not part of it).
    fn next_piece(
        &mut self,
        settings: &Settings,
        pool: &BufPool,
    ) -> Result<(Option<Chunk>, bool), Failure> {
        // Small pieces: however many are in flight, they hold little.
        if let Err(e) = self.fill(settings.chunk_size.clamp(1, PIECE), pool) {
            let have = self.window().len();
            let data = self.take(have, pool);
            let chunk = self.piece(data, false, true);
            let set_aside = self.after_gap(&e, Vec::new(), settings.count_lines);
            return Err(Failure::new(Some(chunk), self.error(e, false)).with_set_aside(set_aside));
        }
        if let Some(i) = memchr::memchr(b'\n', self.window()) {
            let data = self.take(i, pool);
            let mut piece = self.piece(data, false, true);
            // The newline ends the line.
            if let Some(o) = &mut piece.oversize {
                o.newline = true;
            }
            self.skip(1);
            self.offset += 1;
            return Ok((Some(piece), self.eof && self.window().is_empty()));
        }
        let have = self.window().len();
        let data = self.take(have, pool);
        let last = self.eof;
        Ok((Some(self.piece(data, false, last)), last))
    }
}

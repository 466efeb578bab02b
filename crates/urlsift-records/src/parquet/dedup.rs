//! `dedup` of Parquet rows ([`FirstRows`]): the seen-set ([`Seen`]) over
//! the keys the workers made, deciding which rows go on. Past `--memory`
//! the seen-set spills its keys to disk as `dedup`'s does, and the rows
//! of the chunks whose keys went there are kept on disk too (an Arrow IPC
//! stream per input, uncompressed) until the spill is merged: then the
//! first rows come out in input order, written back like the others.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_ipc::reader::StreamReader;
use arrow_ipc::writer::StreamWriter;
use xxhash_rust::xxh3::xxh3_64;

use super::{ParquetLayout, Rows, WriteBack};
use crate::chunk::Source;
use crate::dedup::{Ahead, Keys, Seen, push_frame_key, spill_dir};
use crate::error::Error;
use crate::format::frame::Frames;
use crate::order::ChunkOrder;
use crate::{Chunk, Processed};

/// How many rows ahead the seen-set's slots are prefetched.
const AHEAD: usize = 16;

/// `dedup` of Parquet rows: the first row of each key (or the first N,
/// `samples`), in input order, spilling past the budget like `dedup`.
///
/// ```
/// use urlsift_records::parquet::FirstRows;
///
/// let first = FirstRows::new(1 << 30, 1, None);
/// assert_eq!(first.records(), 0);
/// ```
pub struct FirstRows {
    seen: Seen,
    /// Rows kept per key.
    pub samples: u32,
    tmp_dir: Option<PathBuf>,
    raw: Vec<u8>,
    line: Vec<u8>,
    /// Past the budget: the rows of the chunks whose keys went to disk.
    stored: Option<Stored>,
}

/// A row offered with its chunk ([`FirstRows::take`]): its key's hash,
/// its key (the workers', or a bad row's span of raw bytes) and its frame.
type Row<'p> = (u64, Result<&'p [u8], (usize, usize)>, &'p [u8]);

/// Chunks' rows kept on disk until the spill is merged: numbered in input
/// order, an IPC stream per source.
struct Stored {
    dir: tempfile::TempDir,
    /// Each stored chunk's source, first line and row group.
    chunks: Vec<(Arc<Source>, u64, usize)>,
    /// Each stream's path and the number of its first chunk.
    files: Vec<(PathBuf, u32)>,
    writer: Option<StreamWriter<BufWriter<File>>>,
    /// The chunk being offered, once stored: its number.
    current: Option<u32>,
}

impl FirstRows {
    /// Up to `samples` rows of each key, keys held in up to `budget`
    /// bytes, then spilled (with the rows they need) to a directory made
    /// in `tmp_dir` (default: the system's temp directory).
    pub fn new(budget: u64, samples: u32, tmp_dir: Option<PathBuf>) -> FirstRows {
        FirstRows {
            seen: Seen::new(budget, false, tmp_dir.clone(), b'\n').samples(samples),
            samples: samples.max(1),
            tmp_dir,
            raw: Vec::new(),
            line: Vec::new(),
            stored: None,
        }
    }

    /// The seen-set in `n` hash partitions looked up at once
    /// ([`Seen::threads`]).
    pub fn threads(mut self, n: usize) -> Result<FirstRows, Error> {
        self.seen = self.seen.threads(n)?;
        Ok(self)
    }

    /// Has the workers of an engine's run look the seen-set up
    /// ([`Seen::ahead`]: from three workers on, one sample per key), the
    /// run's `work` feeding [`FirstRows::lookups_ahead`]'s
    /// [`Ahead::deal`]; the rows that go out are the same.
    ///
    /// ```
    /// use urlsift_records::parquet::FirstRows;
    /// use urlsift_records::{Engine, Options};
    ///
    /// let engine = Engine::new(Vec::new(), &Options { threads: Some(4), ..Options::default() })?;
    /// let first = FirstRows::new(1 << 30, 1, None).ahead(engine.threads(), engine.chunk_order());
    /// assert!(first.lookups_ahead().is_some());
    /// # Ok::<(), urlsift_records::Error>(())
    /// ```
    pub fn ahead(mut self, workers: usize, order: ChunkOrder) -> FirstRows {
        self.seen = self.seen.ahead(workers, order);
        self
    }

    /// What the workers feed when the seen-set looks up ahead
    /// ([`FirstRows::ahead`]): `None` otherwise.
    pub fn lookups_ahead(&self) -> Option<Arc<Ahead>> {
        self.seen.lookups_ahead()
    }

    /// Adds the time its partitions are looked up at once to `clock`
    /// ([`Seen::clocked`]).
    pub fn clocked(mut self, clock: crate::timings::BusyClock) -> FirstRows {
        self.seen = self.seen.clocked(clock);
        self
    }

    /// Rows offered so far.
    pub fn records(&self) -> u64 {
        self.seen.records()
    }

    /// The frames of `chunk`'s rows that go out now, in input order: the
    /// keyed rows and the bad rows passed through (`--keep-invalid`).
    /// Rows offered past the budget are decided at the end
    /// ([`FirstRows::finish`]).
    pub fn chunk<'p>(
        &mut self,
        chunk: &'p Chunk,
        p: &'p Processed<Keys>,
    ) -> Result<Vec<&'p [u8]>, Error> {
        if let Some(stored) = &mut self.stored {
            stored.current = None;
        }
        if let Some(taken) = self.seen.take_ahead(chunk, p)? {
            let rows = rows_in_order(chunk, p).zip(taken);
            return Ok(rows.filter(|(_, t)| *t).map(|(frame, _)| frame).collect());
        }
        if self.seen.partitions() > 1
            && self.stored.is_none()
            && let Some(first) = self.take(chunk, p)?
        {
            return Ok(first);
        }
        let mut first = Vec::new();
        let mut kept = p.passed_through.iter().peekable();
        let records = || p.extra.records(&p.out, &chunk.data);
        let mut ahead = records().map(|k| k.hash);
        for hash in ahead.by_ref().take(AHEAD) {
            self.seen.prefetch(hash);
        }
        for k in records() {
            while let Some(&(start, end)) = kept.next_if(|&&(_, end)| end <= k.at) {
                self.offer_raw(chunk, &p.out[start..end], &mut first)?;
            }
            if let Some(hash) = ahead.next() {
                self.seen.prefetch(hash);
            }
            if self.offer(chunk, k.hash, k.key, k.record)? {
                first.push(k.record);
            }
        }
        for &(start, end) in kept {
            self.offer_raw(chunk, &p.out[start..end], &mut first)?;
        }
        Ok(first)
    }

    /// The chunk's rows offered at once, their partitions of the
    /// seen-set looked up on threads of their own ([`Seen::take`]);
    /// `None` when the seen-set leaves them to be offered one by one.
    fn take<'p>(
        &mut self,
        chunk: &'p Chunk,
        p: &'p Processed<Keys>,
    ) -> Result<Option<Vec<&'p [u8]>>, Error> {
        // Every row in input order: its key's hash, where its key is (in
        // the workers' buffers, or a bad row's in `raw`), and its frame.
        let mut raw = std::mem::take(&mut self.raw);
        raw.clear();
        let mut rows: Vec<Row<'p>> = Vec::new();
        let mut kept = p.passed_through.iter().peekable();
        let bad = |frame: &'p [u8], raw: &mut Vec<u8>| {
            let start = raw.len();
            let hash = raw_key(frame, raw);
            (hash, Err((start, raw.len())), frame)
        };
        for k in p.extra.records(&p.out, &chunk.data) {
            while let Some(&(start, end)) = kept.next_if(|&&(_, end)| end <= k.at) {
                rows.push(bad(&p.out[start..end], &mut raw));
            }
            rows.push((k.hash, Ok(k.key), k.record));
        }
        for &(start, end) in kept {
            rows.push(bad(&p.out[start..end], &mut raw));
        }
        let keys: Vec<(u64, &[u8])> = rows
            .iter()
            .map(|(hash, key, _)| (*hash, key.unwrap_or_else(|(a, b)| &raw[a..b])))
            .collect();
        let taken = self.seen.take(&keys)?;
        drop(keys);
        self.raw = raw;
        Ok(taken.map(|taken| {
            let rows = rows.into_iter().zip(taken);
            rows.filter(|(_, t)| *t)
                .map(|((_, _, frame), _)| frame)
                .collect()
        }))
    }

    /// A bad row's frame, keyed by its value.
    fn offer_raw<'p>(
        &mut self,
        chunk: &Chunk,
        frame: &'p [u8],
        first: &mut Vec<&'p [u8]>,
    ) -> Result<(), Error> {
        let mut raw = std::mem::take(&mut self.raw);
        raw.clear();
        let hash = raw_key(frame, &mut raw);
        let new = self.offer(chunk, hash, &raw, frame);
        self.raw = raw;
        if new? {
            first.push(frame);
        }
        Ok(())
    }

    /// Whether the row of `key` (its output `frame`) goes out now. Once
    /// the seen-set is on disk, the row goes there as its chunk's number
    /// and its frame, and its chunk's rows are stored.
    fn offer(&mut self, chunk: &Chunk, hash: u64, key: &[u8], frame: &[u8]) -> Result<bool, Error> {
        if !self.seen.spills(hash, key)? {
            return self.seen.offer(hash, key, &[]);
        }
        let number = self.store(chunk)?;
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        line.extend_from_slice(&number.to_le_bytes());
        line.extend_from_slice(frame);
        let now = self.seen.offer(hash, key, &line);
        self.line = line;
        now
    }

    /// The number of `chunk` among the stored chunks, storing its rows
    /// the first time.
    fn store(&mut self, chunk: &Chunk) -> Result<u32, Error> {
        if let Some(number) = self.stored.as_ref().and_then(|s| s.current) {
            return Ok(number);
        }
        let stored = match &mut self.stored {
            Some(stored) => stored,
            None => {
                let dir = spill_dir(self.tmp_dir.as_deref(), "urlsift-dedup-rows-")?;
                self.stored.insert(Stored {
                    dir,
                    chunks: Vec::new(),
                    files: Vec::new(),
                    writer: None,
                    current: None,
                })
            }
        };
        let rows = chunk.rows().expect("a Parquet chunk");
        let number = stored.chunks.len() as u32;
        let same_source = stored
            .chunks
            .last()
            .is_some_and(|(source, ..)| Arc::ptr_eq(source, &chunk.source));
        if !same_source || stored.writer.is_none() {
            stored.end_file()?;
            let path = stored
                .dir
                .path()
                .join(format!("rows-{}", stored.files.len()));
            let file = File::create(&path).map_err(rows_err)?;
            let writer =
                StreamWriter::try_new_buffered(file, &rows.batch.schema()).map_err(arrow_err)?;
            stored.writer = Some(writer);
            stored.files.push((path, number));
        }
        let writer = stored.writer.as_mut().expect("a stream");
        writer.write(&rows.batch).map_err(arrow_err)?;
        let source = Arc::clone(&chunk.source);
        stored
            .chunks
            .push((source, rows.first_line, rows.row_group));
        stored.current = Some(number);
        Ok(number)
    }

    /// Writes the rows decided at the end (those offered past the budget)
    /// through `write_back` to `out`, in input order; returns the rows
    /// offered and the rows kept in all.
    pub fn finish(
        self,
        write_back: &mut WriteBack,
        out: &mut impl Write,
    ) -> Result<(u64, u64), Error> {
        let offered = self.seen.records();
        let mut stored = self.stored;
        let mut batches = Batches::default();
        if let Some(stored) = &mut stored {
            stored.end_file()?;
            batches.files = std::mem::take(&mut stored.files);
        }
        let mut pending: (Option<u32>, Vec<u8>) = (None, Vec::new());
        let mut write = |number: u32, frames: &[u8]| -> Result<(), Error> {
            let stored = stored.as_ref().expect("rows stored for what was spilled");
            let (source, first_line, row_group) = &stored.chunks[number as usize];
            let batch = batches.get(number)?;
            let layout = ParquetLayout::of(&source.format).expect("a Parquet source");
            let rows = Rows::new(batch, *first_line, *row_group);
            write_back.rows(out, source, &rows, layout, Frames::new(frames))
        };
        let kept = self.seen.finish_with(|_, line| {
            let number = u32::from_le_bytes(line[..4].try_into().expect("a chunk number"));
            if pending.0 != Some(number) {
                if let Some(done) = pending.0 {
                    write(done, &pending.1)?;
                }
                pending = (Some(number), Vec::new());
            }
            pending.1.extend_from_slice(&line[4..]);
            Ok(())
        })?;
        if let Some(done) = pending.0 {
            write(done, &pending.1)?;
        }
        Ok((offered, kept))
    }
}

impl Stored {
    /// Ends the stream being written, if any.
    fn end_file(&mut self) -> Result<(), Error> {
        if let Some(mut writer) = self.writer.take() {
            writer.finish().map_err(arrow_err)?;
            writer
                .into_inner()
                .and_then(|mut w| w.flush().map_err(Into::into))
                .map_err(arrow_err)?;
        }
        Ok(())
    }
}

/// The stored chunks read back in order (each asked for at most once, in
/// increasing numbers).
#[derive(Default)]
struct Batches {
    files: Vec<(PathBuf, u32)>,
    /// The stream being read, its file's index and the number of its
    /// next chunk.
    reader: Option<(StreamReader<BufReader<File>>, usize, u32)>,
}

impl Batches {
    /// Stored chunk `number`'s rows.
    fn get(&mut self, number: u32) -> Result<RecordBatch, Error> {
        let file = self.files.partition_point(|&(_, first)| first <= number) - 1;
        if self.reader.as_ref().is_none_or(|r| r.1 != file) {
            let (path, first) = &self.files[file];
            let reader = File::open(path).map_err(rows_err)?;
            let reader = StreamReader::try_new_buffered(reader, None).map_err(arrow_err)?;
            self.reader = Some((reader, file, *first));
        }
        let (reader, _, next) = self.reader.as_mut().expect("a stream");
        loop {
            let batch = reader
                .next()
                .ok_or_else(|| rows_err(std::io::Error::other("a stored chunk is missing")))?
                .map_err(arrow_err)?;
            *next += 1;
            if *next - 1 == number {
                return Ok(batch);
            }
        }
    }
}

/// The frames of `chunk`'s rows in input order: the keyed rows and the
/// bad rows passed through among them.
fn rows_in_order<'p>(chunk: &'p Chunk, p: &'p Processed<Keys>) -> impl Iterator<Item = &'p [u8]> {
    let mut kept = p.passed_through.iter().peekable();
    let mut keyed = p.extra.records(&p.out, &chunk.data).peekable();
    std::iter::from_fn(move || {
        let before = |&&(_, end): &&(usize, usize)| keyed.peek().is_none_or(|k| end <= k.at);
        if let Some(&(start, end)) = kept.next_if(before) {
            return Some(&p.out[start..end]);
        }
        keyed.next().map(|k| k.record)
    })
}

/// Appends the key of a bad row passed through ([`push_frame_key`]) to
/// `raw`; returns the key's hash.
fn raw_key(frame: &[u8], raw: &mut Vec<u8>) -> u64 {
    let start = raw.len();
    push_frame_key(frame, raw);
    xxh3_64(&raw[start..])
}

fn rows_err(error: std::io::Error) -> Error {
    Error::Spill {
        what: "dedup rows spill file".to_string(),
        error,
    }
}

fn arrow_err(e: arrow_schema::ArrowError) -> Error {
    rows_err(std::io::Error::other(e.to_string()))
}

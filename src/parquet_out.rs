//! Parquet output: the rows of Parquet input written back (`normalize`,
//! `dedup`), each chunk's output frames turned into an Arrow batch of the
//! input's schema, and `--compression`.
//!
//! The workers write frames (a row as it was, or with a new URL: see
//! `urlsift_records::format::frame`); this thread builds each chunk's
//! output batch from them and the chunk's own batch, in input order, and
//! hands it to the writer, which gathers row groups of 128Ki rows and
//! encodes them on the thread pool.

use std::io::IsTerminal;
use std::sync::Arc;

use arrow_schema::SchemaRef;
use parquet::basic::Compression;
use urlsift_records::dedup::{KeySet, Keys};
use urlsift_records::fields::Field;
use urlsift_records::format::frame::Frames;
use urlsift_records::parquet::{Columns, Cursor, Layout, Rows, Writer, compression};
use urlsift_records::{self, Chunk, Processed};

use crate::error::CliError;
use crate::output::Sink;

/// `--compression` as given, for a run whose output is Parquet (`None`:
/// zstd).
pub fn codec(flag: Option<&str>) -> Result<Compression, CliError> {
    compression(flag.unwrap_or("zstd")).map_err(|e| CliError::Usage(format!("--compression {e}")))
}

/// The schema and key-value metadata of the first input, when the run
/// reads Parquet (for the output's schema before any row is read, and the
/// types of `extract`'s `@NAME` columns); `None` otherwise, or when it
/// cannot be opened (the run will say why).
pub fn input_schema(
    engine: &urlsift_records::Engine,
    spec: &urlsift_records::Spec,
) -> Option<InputSchema> {
    if engine.kind() != urlsift_records::Kind::Parquet {
        return None;
    }
    let first = engine.files.first()?;
    let cursor = Cursor::open(first, String::new(), spec.field.as_deref(), 1).ok()?;
    let layout = Layout::of(&cursor.source().format)?;
    Some((Arc::clone(&layout.schema), layout.metadata.clone()))
}

/// A Parquet input's schema and key-value metadata.
pub type InputSchema = (SchemaRef, Vec<(String, Option<String>)>);

/// Parquet to a terminal is refused: it is binary.
pub fn check_target(output: Option<&std::path::Path>) -> Result<(), CliError> {
    if output.is_none() && std::io::stdout().is_terminal() {
        return Err(CliError::Usage(
            "the output is Parquet (binary): name a file with -o FILE, or redirect standard \
             output"
                .into(),
        ));
    }
    Ok(())
}

fn output_error(e: impl std::fmt::Display) -> urlsift_records::Error {
    urlsift_records::Error::Output(std::io::Error::other(e.to_string()))
}

/// The rows of Parquet input, written back as Parquet.
pub struct WriteBack {
    compression: Compression,
    writer: Option<Writer>,
    schema: Option<SchemaRef>,
    /// Row groups encoded at once.
    jobs: usize,
}

impl WriteBack {
    /// Rows written back with `compression`; `first` is the first input's
    /// schema, when it could be read before the run (so that an input
    /// without rows still gives a Parquet file of its schema).
    pub fn new(compression: Compression, first: Option<InputSchema>, jobs: usize) -> WriteBack {
        let mut back = WriteBack {
            compression,
            writer: None,
            schema: None,
            jobs,
        };
        if let Some((schema, metadata)) = first
            && let Ok(writer) = Writer::new(Arc::clone(&schema), compression, &metadata)
        {
            back.writer = Some(writer.parallel(jobs));
            back.schema = Some(schema);
        }
        back
    }

    /// Writes the rows of `chunk` that its output `p` names (its frames).
    pub fn chunk<X>(
        &mut self,
        out: &mut Sink,
        chunk: &Chunk,
        p: &Processed<X>,
    ) -> Result<(), urlsift_records::Error> {
        let (Some(rows), Some(layout)) = (&chunk.rows, Layout::of(&chunk.source.format)) else {
            return Ok(());
        };
        let frames = p.output(&chunk.data).flat_map(Frames::new);
        self.rows(out, chunk, rows, layout, frames)
    }

    /// Writes the rows `frames` name of `rows`, from `chunk`.
    pub fn rows<'a>(
        &mut self,
        out: &mut Sink,
        chunk: &Chunk,
        rows: &Rows,
        layout: &Layout,
        frames: impl Iterator<Item = urlsift_records::format::frame::Frame<'a>>,
    ) -> Result<(), urlsift_records::Error> {
        self.start(chunk, layout)?;
        let batch = rows.write_back(layout, frames).map_err(output_error)?;
        let writer = self.writer.as_mut().expect("started");
        writer
            .write(&batch, out)
            .map_err(urlsift_records::Error::Output)
    }

    /// The writer made (from the first source's schema), a later source's
    /// schema checked against it.
    fn start(&mut self, chunk: &Chunk, layout: &Layout) -> Result<(), urlsift_records::Error> {
        match &self.schema {
            None => {
                let writer = Writer::new(
                    Arc::clone(&layout.schema),
                    self.compression,
                    &layout.metadata,
                )
                .map_err(output_error)?;
                self.writer = Some(writer.parallel(self.jobs));
                self.schema = Some(Arc::clone(&layout.schema));
            }
            Some(schema) if schema.fields() != layout.schema.fields() => {
                return Err(urlsift_records::Error::Usage(format!(
                    "{}: its schema differs from the first input's; rows written back share one \
                     schema (run the files separately)",
                    chunk.source.name
                )));
            }
            Some(_) => {}
        }
        Ok(())
    }

    /// Ends the file (nothing is written when no input had rows to read:
    /// its schema was never seen).
    pub fn finish(self, out: &mut Sink) -> Result<(), urlsift_records::Error> {
        match self.writer {
            Some(w) => w.finish(out).map_err(urlsift_records::Error::Output),
            None => Ok(()),
        }
    }
}

/// `dedup` of Parquet rows: the first row of each key, in input order. The
/// keys are held in memory (exact bytes; the hash only picks a slot), up
/// to the `--memory` budget: Parquet rows are not spilled.
pub struct FirstRows {
    seen: KeySet,
    budget: u64,
    /// Rows kept per key.
    pub samples: u32,
    /// Rows offered, and rows kept.
    pub offered: u64,
    pub kept: u64,
    raw: Vec<u8>,
}

/// Marks the keys of bad rows passed through (keyed by their value):
/// 0xFF never starts UTF-8, so they never meet a URL's key.
const RAW_KEY: u8 = 0xFF;

/// How many rows ahead the key set's slots are prefetched.
const AHEAD: usize = 16;

impl FirstRows {
    /// Up to `samples` rows of each key, keys held in up to `budget` bytes.
    pub fn new(budget: u64, samples: u32) -> FirstRows {
        FirstRows {
            seen: KeySet::with_samples(samples),
            budget,
            samples,
            offered: 0,
            kept: 0,
            raw: Vec::new(),
        }
    }

    /// The frames of `chunk`'s first occurrences, in input order: the
    /// keyed rows and the bad rows passed through (`--keep-invalid`).
    pub fn chunk<'p>(
        &mut self,
        chunk: &'p Chunk,
        p: &'p Processed<Keys>,
    ) -> Result<Vec<&'p [u8]>, urlsift_records::Error> {
        let mut first = Vec::new();
        let mut kept = p.kept.iter().peekable();
        let records = || p.extra.records(&p.out, &chunk.data);
        let mut ahead = records().map(|k| k.hash);
        for hash in ahead.by_ref().take(AHEAD) {
            self.seen.prefetch(hash);
        }
        for k in records() {
            while let Some(&(start, end)) = kept.next_if(|&&(_, end)| end <= k.at) {
                self.offer_raw(&p.out[start..end], &mut first)?;
            }
            if let Some(hash) = ahead.next() {
                self.seen.prefetch(hash);
            }
            if self.offer(k.hash, k.key)? {
                first.push(k.record);
            }
        }
        for &(start, end) in kept {
            self.offer_raw(&p.out[start..end], &mut first)?;
        }
        Ok(first)
    }

    /// A bad row's frame, keyed by its value.
    fn offer_raw<'p>(
        &mut self,
        frame: &'p [u8],
        first: &mut Vec<&'p [u8]>,
    ) -> Result<(), urlsift_records::Error> {
        let mut raw = std::mem::take(&mut self.raw);
        raw.clear();
        raw.push(RAW_KEY);
        raw.extend(Frames::new(frame).flat_map(|f| f.value.iter().copied()));
        let new = self.offer(xxhash_rust::xxh3::xxh3_64(&raw), &raw);
        self.raw = raw;
        if new? {
            first.push(frame);
        }
        Ok(())
    }

    /// Whether `key` is new (and now seen).
    fn offer(&mut self, hash: u64, key: &[u8]) -> Result<bool, urlsift_records::Error> {
        self.offered += 1;
        let over = |set: &KeySet, budget: u64| {
            urlsift_records::Error::Usage(format!(
                "dedup of Parquet rows holds its keys in memory, and {} keys ({} MiB) are over \
                 --memory {} MiB: raise --memory (Parquet rows are not spilled to disk)",
                set.len(),
                set.bytes() >> 20,
                budget >> 20
            ))
        };
        let new = self
            .seen
            .insert(hash, key)
            .ok_or_else(|| over(&self.seen, self.budget))?;
        if new {
            self.kept += 1;
            if self.seen.bytes() > self.budget {
                return Err(over(&self.seen, self.budget));
            }
        }
        Ok(new)
    }
}

/// `extract`'s fields written as a Parquet file (the columns are the
/// library's `Columns`: typed, nullable).
pub struct Extracted {
    columns: Arc<Columns>,
    writer: Writer,
}

impl Extracted {
    /// The columns of `fields`; `input` is a Parquet input's schema (for
    /// the `@NAME` columns' types), if the input is Parquet.
    pub fn new(
        fields: &[Field],
        input: Option<&arrow_schema::Schema>,
        compression: Compression,
        jobs: usize,
    ) -> Result<Extracted, CliError> {
        let columns = Columns::new(fields, input, false, false).map_err(CliError::Usage)?;
        let writer = Writer::new(Arc::clone(columns.schema()), compression, &[])
            .map_err(|e| CliError::Usage(format!("Parquet output: {e}")))?
            .parallel(jobs);
        Ok(Extracted {
            columns: Arc::new(columns),
            writer,
        })
    }

    /// The columns, for the workers to write rows with.
    pub fn columns(&self) -> Arc<Columns> {
        Arc::clone(&self.columns)
    }

    /// Writes one chunk's rows (a frame per row, see `Columns::push_row`).
    pub fn chunk<X>(
        &mut self,
        out: &mut Sink,
        chunk: &Chunk,
        p: &Processed<X>,
    ) -> Result<(), urlsift_records::Error> {
        let frames = p.output(&chunk.data).flat_map(Frames::new);
        let batch = self
            .columns
            .batch(chunk.rows.as_deref(), frames)
            .map_err(|e| urlsift_records::Error::Usage(format!("{}: {e}", chunk.source.name)))?;
        self.writer
            .write(&batch, out)
            .map_err(urlsift_records::Error::Output)
    }

    /// Ends the file.
    pub fn finish(self, out: &mut Sink) -> Result<(), urlsift_records::Error> {
        self.writer
            .finish(out)
            .map_err(urlsift_records::Error::Output)
    }
}

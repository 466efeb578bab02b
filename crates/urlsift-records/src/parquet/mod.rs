//! Parquet files as records (feature `parquet`, on by default): each row is
//! a record, a string column is its URL field, and a run that writes
//! records back writes Parquet with the same schema, every other column as
//! it was and the URL column replaced.
//!
//! The reader ([`Cursor`]) reads a file's rows in input order through
//! arrow-rs, in batches of at most a chunk's rows, and hands each batch out
//! as a [`Chunk`] whose data is one [frame] per row (the row's
//! number and its URL value) and whose [`Rows`] hold the Arrow batch. The
//! workers walk the frames like any other records (the same policy, the
//! same operations); the writer builds each output batch from the frames
//! the workers wrote and the chunk's batch ([`Rows::write_back`]) and
//! writes it with a [`Writer`].
//!
//! The URL column is `--field` (a top-level column, or a dotted path into
//! a struct column), by default the column named `url` in any case; it may
//! be a string or binary column, plain, large, view or dictionary-encoded.
//! A null URL is an empty record. Standard input and compressed files are
//! refused: a Parquet file is read from its footer, at its end. An
//! object (`s3://`, `gs://`, `az://`, `http(s)://`; feature `remote`) is
//! read by ranges: its footer, then each row group's column chunks as its
//! decoder comes to it.
//!
//! ```
//! use std::sync::Arc;
//! use arrow_array::{Int64Array, RecordBatch, StringArray};
//! use arrow_schema::{DataType, Field, Schema};
//! use urlsift_records::parquet::{Cursor, ParquetLayout, Writer};
//!
//! # let tmp = tempfile::Builder::new().prefix("urlsift-doc-parquet-").tempdir()?;
//! # let dir = tmp.path();
//! // A small Parquet file: an id and a URL per row.
//! let schema = Arc::new(Schema::new(vec![
//!     Field::new("id", DataType::Int64, false),
//!     Field::new("URL", DataType::Utf8, true),
//! ]));
//! let batch = RecordBatch::try_new(schema.clone(), vec![
//!     Arc::new(Int64Array::from(vec![1, 2])),
//!     Arc::new(StringArray::from(vec![Some("HTTPS://A.example/x"), None])),
//! ])?;
//! let mut writer = Writer::new(schema, parquet::basic::Compression::SNAPPY, &[])?;
//! let mut bytes = Vec::new();
//! writer.write(&batch, &mut bytes)?;
//! writer.finish(&mut bytes)?;
//! let path = dir.join("urls.parquet");
//! std::fs::write(&path, &bytes)?;
//!
//! // Read back: the column named `url` in any case, a chunk of rows.
//! let mut cursor = Cursor::open(&path, "urls.parquet".into(), None, 1024, 1)?;
//! assert_eq!(ParquetLayout::of(&cursor.source().format).unwrap().name, "URL");
//! let chunk = cursor.next_chunk().unwrap()?;
//! let rows = chunk.rows().unwrap();
//! assert_eq!((chunk.first_line(), rows.batch.num_rows()), (1, 2));
//! assert!(cursor.next_chunk().is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fs::File;
use std::io;
use std::path::Path;
use std::sync::Arc;

use super::format::Format;
use arrow_array::RecordBatch;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions};

use super::chunk::{Chunk, Data, Source};
use super::input::InputError;
use super::input::mmap::Map;
use bytes::FileBytes;
use decode::Decoders;

mod bytes;
mod columns;
mod decode;
mod dedup;
mod out;
pub use super::format::frame;
pub use super::format::parquet::{ParquetLayout, Rows, Strings};
mod write;

pub use columns::Columns;
pub use dedup::FirstRows;
pub use out::{Extracted, InputSchema, WriteBack, input_schema};
pub use write::{Writer, compression};

/// The rows a chunk holds, from the chunk size in bytes: a row for every
/// 256 bytes, at most 16Ki rows (a row holds all its columns, not only
/// its URL: smaller chunks keep memory down, and arrow-rs decodes 16Ki
/// rows as fast a row as more).
pub fn rows_per_chunk(chunk_size: usize) -> usize {
    (chunk_size / 256).clamp(16, 1 << 14)
}

/// Reads one Parquet file's rows in order, a row group at a time, in
/// chunks of at most so many rows.
pub struct Cursor {
    source: Arc<Source>,
    /// The row groups' batches, decoded in parallel.
    decoders: Decoders,
    /// The 0-based number of the next row.
    next_row: u64,
    done: bool,
}

impl Cursor {
    /// Opens the Parquet file at `path` (named `name` in messages), its URL
    /// column `field` (see [`ParquetLayout::new`]), to read `rows` rows a chunk.
    /// Refused (a usage error) for standard input, compressed files and
    /// files without the column; an error for what is not Parquet or is
    /// cut short (its footer is at its end).
    pub fn open(
        path: &Path,
        name: String,
        field: Option<&str>,
        rows: usize,
        cores: usize,
    ) -> Result<Cursor, InputError> {
        let fail = |error: io::Error, usage: bool| InputError {
            name: name.clone(),
            error,
            usage,
        };
        let usage = |m: String| fail(io::Error::other(m), true);
        if path == Path::new("-") {
            return Err(usage(
                "Parquet is read from a file, from its footer at the end: not from standard \
                 input (save it to a file first)"
                    .into(),
            ));
        }
        let not_parquet = || {
            fail(
                io::Error::other("not a Parquet file (it does not start with PAR1)"),
                false,
            )
        };
        let file = match path.to_str().filter(|n| super::input::is_remote(n)) {
            #[cfg(feature = "remote")]
            Some(url) => bytes::Object::open(url).map_err(|e| fail(e, false))?,
            #[cfg(not(feature = "remote"))]
            Some(_) => {
                return Err(usage(
                    "this build reads no objects (it was built without the `remote` feature)"
                        .into(),
                ));
            }
            None => {
                let file = File::open(path).map_err(|e| fail(e, false))?;
                let map = Map::new(&file)
                    .map_err(|e| fail(e, false))?
                    .ok_or_else(not_parquet)?;
                FileBytes::Mapped(map)
            }
        };
        let magic: [u8; 4] = file
            .head(4)
            .map_err(|e| fail(e, false))?
            .try_into()
            .unwrap_or_default();
        if magic[..2] == [0x1f, 0x8b] || magic == [0x28, 0xb5, 0x2f, 0xfd] {
            return Err(usage(
                "a compressed Parquet file: Parquet compresses its own pages, so urlsift reads \
                 it uncompressed (decompress it first)"
                    .into(),
            ));
        }
        if &magic != b"PAR1" {
            return Err(not_parquet());
        }
        let meta =
            ArrowReaderMetadata::load(&file, ArrowReaderOptions::default()).map_err(|e| {
                fail(
                    io::Error::other(format!(
                        "not a readable Parquet file (cut short, or its footer is damaged): {e}"
                    )),
                    false,
                )
            })?;
        let mut layout = ParquetLayout::new(Arc::clone(meta.schema()), field)
            .map_err(|e| fail(io::Error::other(e), true))?;
        let parquet = meta.metadata();
        layout.row_groups = parquet
            .row_groups()
            .iter()
            .map(|g| g.num_rows() as u64)
            .collect();
        layout.metadata = parquet
            .file_metadata()
            .key_value_metadata()
            .into_iter()
            .flatten()
            .filter(|kv| kv.key != "ARROW:schema")
            .map(|kv| (kv.key.clone(), kv.value.clone()))
            .collect();
        let groups = layout.row_groups.len();
        let source = Arc::new(Source {
            name,
            format: Format::Parquet(layout),
        });
        let decoders = Decoders::start(file, meta, &source, groups, rows.max(1), cores);
        Ok(Cursor {
            source,
            decoders,
            next_row: 0,
            done: false,
        })
    }

    /// The source the chunks come from (its format holds the [`ParquetLayout`]).
    pub fn source(&self) -> &Arc<Source> {
        &self.source
    }

    /// The next chunk of rows, in order; an error ends the file (it names
    /// the row group, after every row before it).
    /// (Each chunk was cut on its row group's decoding lane.)
    pub fn next_chunk(&mut self) -> Option<Result<Chunk, InputError>> {
        while !self.done {
            let layout = ParquetLayout::of(&self.source.format).expect("a Parquet source");
            let group_start = |g: usize| layout.row_groups[..g].iter().sum::<u64>();
            let fail = |g: usize, message: String| {
                let start = group_start(g);
                let rows = layout.row_groups.get(g).copied().unwrap_or(0);
                InputError {
                    name: self.source.name.clone(),
                    error: io::Error::other(format!(
                        "row group {g} (rows {}-{}): {message}",
                        start + 1,
                        start + rows
                    )),
                    usage: false,
                }
            };
            let Some((g, item)) = self.decoders.next() else {
                self.done = true;
                return None;
            };
            match item {
                Some(Ok(chunk)) => {
                    // (The lane numbered the rows from its group's start,
                    // so the groups before it ended where the metadata
                    // says: an earlier one that did not was reported.)
                    debug_assert_eq!(chunk.first_line, self.next_row + 1);
                    self.next_row += chunk.rows.as_ref().map_or(0, |r| r.batch.num_rows()) as u64;
                    return Some(Ok(chunk));
                }
                Some(Err(e)) => {
                    self.done = true;
                    return Some(Err(fail(g, e)));
                }
                None => {
                    let end = group_start(g + 1);
                    if self.next_row != end {
                        self.done = true;
                        let message =
                            format!("ended after {} of its rows", self.next_row - group_start(g));
                        return Some(Err(fail(g, message)));
                    }
                }
            }
        }
        None
    }
}

/// The chunk of `batch`, whose first row is line `first_line`: a frame per
/// row with its URL value, and the batch. (Made on the lane that decoded
/// the batch: the reader only takes chunks in order.)
fn chunk_of(source: &Arc<Source>, batch: RecordBatch, first_line: u64, row_group: usize) -> Chunk {
    let layout = ParquetLayout::of(&source.format).expect("a Parquet source");
    let rows = Rows::new(batch, first_line, row_group);
    let urls = rows.urls(layout);
    let mut data = Vec::with_capacity(urls.value_bytes() + rows.batch.num_rows() * frame::HEAD);
    for i in 0..rows.batch.num_rows() {
        let value = urls.get(i).unwrap_or_default();
        frame::push(&mut data, frame::UNCHANGED, first_line + i as u64, value);
    }
    Chunk {
        rows: Some(Arc::new(rows)),
        ..Chunk::with_data(Arc::clone(source), first_line, 0, Data::Owned(data))
    }
}

//! Writing Parquet: batches gathered into row groups, each row group's
//! columns encoded and compressed on the thread pool (the costly part: a
//! writer thread alone could not keep up with the workers), the encoded
//! column chunks appended to the file in order, and the file's bytes handed
//! on to any output (a pipe too: Parquet is written front to back). Also
//! the `--compression` names.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, sync_channel};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::{ArrowColumnChunk, ArrowRowGroupWriterFactory, compute_leaves};
use parquet::basic::{BrotliLevel, Compression, GzipLevel, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;

/// Rows gathered into one row group (fewer at the end of the file).
pub const ROW_GROUP_ROWS: usize = 1 << 16;

/// An encoded row group: its column chunks, or why encoding failed.
type Encoded = Result<Vec<ArrowColumnChunk>, ParquetError>;

/// A Parquet file being written: batches in, the file's bytes out to a
/// writer the caller gives at each step.
pub struct Writer {
    file: SerializedFileWriter<Vec<u8>>,
    factory: Arc<ArrowRowGroupWriterFactory>,
    schema: SchemaRef,
    /// Batches not yet in a row group, and their rows.
    pending: Vec<RecordBatch>,
    pending_rows: usize,
    /// Row groups being encoded on the pool, in file order.
    in_flight: VecDeque<Receiver<Encoded>>,
    /// How many row groups may be encoded at once (0: on this thread).
    jobs: usize,
}

fn io_error(e: ParquetError) -> io::Error {
    io::Error::other(e.to_string())
}

impl Writer {
    /// A file of `schema`, its pages compressed with `compression`, with
    /// `metadata` as its key-value metadata; row groups encoded on this
    /// thread (see [`Writer::parallel`]).
    pub fn new(
        schema: SchemaRef,
        compression: Compression,
        metadata: &[(String, Option<String>)],
    ) -> Result<Writer, ParquetError> {
        let kv: Vec<KeyValue> = metadata
            .iter()
            .map(|(k, v)| KeyValue {
                key: k.clone(),
                value: v.clone(),
            })
            .collect();
        let props = WriterProperties::builder()
            .set_compression(compression)
            .set_key_value_metadata((!kv.is_empty()).then_some(kv))
            .build();
        let writer = ArrowWriter::try_new(Vec::new(), Arc::clone(&schema), Some(props))?;
        let (file, factory) = writer.into_serialized_writer()?;
        Ok(Writer {
            file,
            factory: Arc::new(factory),
            schema,
            pending: Vec::new(),
            pending_rows: 0,
            in_flight: VecDeque::new(),
            jobs: 0,
        })
    }

    /// Encodes up to `jobs` row groups at once on rayon's global pool
    /// (`0`: on the calling thread). The file is the same either way.
    pub fn parallel(mut self, jobs: usize) -> Writer {
        self.jobs = jobs;
        self
    }

    /// Adds `batch`'s rows; what is ready of the file goes to `out`.
    pub fn write(&mut self, batch: &RecordBatch, out: &mut impl Write) -> io::Result<()> {
        if batch.num_rows() == 0 {
            return Ok(());
        }
        self.pending.push(batch.clone());
        self.pending_rows += batch.num_rows();
        if self.pending_rows >= ROW_GROUP_ROWS {
            self.end_row_group(out)?;
        }
        Ok(())
    }

    /// Ends the row group being gathered (if it has rows): it is encoded,
    /// and what is ready of the file goes to `out`.
    pub fn end_row_group(&mut self, out: &mut impl Write) -> io::Result<()> {
        if self.pending_rows == 0 {
            return Ok(());
        }
        let batches = std::mem::take(&mut self.pending);
        self.pending_rows = 0;
        let (factory, schema) = (Arc::clone(&self.factory), Arc::clone(&self.schema));
        let (tx, rx) = sync_channel(1);
        let job = move || {
            let _ = tx.send(encode(&factory, &schema, &batches));
        };
        if self.jobs == 0 {
            job();
        } else {
            rayon::spawn(job);
        }
        self.in_flight.push_back(rx);
        // Append what is done, in order; wait for the oldest when too many
        // are in flight.
        while let Some(rx) = self.in_flight.front() {
            let encoded = if self.in_flight.len() > self.jobs {
                rx.recv().ok()
            } else {
                rx.try_recv().ok()
            };
            let Some(encoded) = encoded else { break };
            self.in_flight.pop_front();
            self.append(encoded, out)?;
        }
        Ok(())
    }

    /// Appends an encoded row group to the file.
    fn append(&mut self, encoded: Encoded, out: &mut impl Write) -> io::Result<()> {
        let chunks = encoded.map_err(io_error)?;
        let mut group = self.file.next_row_group().map_err(io_error)?;
        for chunk in chunks {
            chunk.append_to_row_group(&mut group).map_err(io_error)?;
        }
        group.close().map_err(io_error)?;
        self.drain(out)
    }

    /// Ends the file: the last row groups and the footer go to `out`.
    pub fn finish(mut self, out: &mut impl Write) -> io::Result<()> {
        self.end_row_group(out)?;
        while let Some(rx) = self.in_flight.pop_front() {
            let encoded = rx.recv().map_err(|_| {
                io::Error::other("a Parquet encoding job ended without its row group")
            })?;
            self.append(encoded, out)?;
        }
        self.file.finish().map_err(io_error)?;
        self.drain(out)
    }

    /// Hands the bytes written so far to `out` (the writer counts its own
    /// offsets: taking bytes out of its buffer does not move them).
    fn drain(&mut self, out: &mut impl Write) -> io::Result<()> {
        let buf = self.file.inner_mut();
        let written = out.write_all(buf);
        buf.clear();
        written
    }
}

/// Encodes `batches` (of `schema`) as one row group's column chunks.
fn encode(
    factory: &ArrowRowGroupWriterFactory,
    schema: &SchemaRef,
    batches: &[RecordBatch],
) -> Encoded {
    // (The row group's index only matters to encryption, which is off.)
    let mut writers = factory.create_column_writers(0)?;
    for batch in batches {
        let mut column_writers = writers.iter_mut();
        for (field, column) in schema.fields().iter().zip(batch.columns()) {
            for leaf in compute_leaves(field, column)? {
                column_writers
                    .next()
                    .expect("a writer per leaf")
                    .write(&leaf)?;
            }
        }
    }
    writers.into_iter().map(|w| w.close()).collect()
}

/// The compression `--compression` names: `zstd` (the default; `zstd:N`
/// for level N, 1 to 22), `snappy`, `gzip` (`gzip:N`, 0 to 10), `lz4`
/// (LZ4_RAW), `brotli` (`brotli:N`, 0 to 11) or `none`.
///
/// ```
/// use urlsift_records::parquet::compression;
///
/// assert!(compression("zstd:9").is_ok());
/// assert!(compression("snappy").is_ok());
/// assert!(compression("zip").unwrap_err().contains("zstd"));
/// ```
pub fn compression(name: &str) -> Result<Compression, String> {
    let (codec, level) = match name.split_once(':') {
        Some((c, l)) => (
            c,
            Some(
                l.parse::<u32>()
                    .map_err(|_| format!("{name:?}: the level after ':' is a number"))?,
            ),
        ),
        None => (name, None),
    };
    let bad_level = |e: ParquetError| format!("{name:?}: {e}");
    Ok(match (codec.to_ascii_lowercase().as_str(), level) {
        ("zstd", l) => {
            Compression::ZSTD(ZstdLevel::try_new(l.map_or(1, |l| l as i32)).map_err(bad_level)?)
        }
        ("gzip", l) => Compression::GZIP(GzipLevel::try_new(l.unwrap_or(6)).map_err(bad_level)?),
        ("brotli", l) => {
            Compression::BROTLI(BrotliLevel::try_new(l.unwrap_or(1)).map_err(bad_level)?)
        }
        ("snappy", None) => Compression::SNAPPY,
        ("lz4", None) => Compression::LZ4_RAW,
        ("none" | "uncompressed", None) => Compression::UNCOMPRESSED,
        ("snappy" | "lz4" | "none" | "uncompressed", Some(_)) => {
            return Err(format!("{name:?}: {codec} takes no level"));
        }
        _ => {
            return Err(format!(
                "{name:?}: not a Parquet compression (zstd, zstd:LEVEL, snappy, gzip, lz4, \
                 brotli, none)"
            ));
        }
    })
}

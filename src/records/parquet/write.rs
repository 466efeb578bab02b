//! Writing Parquet: arrow-rs's writer into a buffer that is handed on to
//! any output (a pipe too: Parquet is written front to back), row group by
//! row group, and the `--compression` names.

use std::io::{self, Write};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::basic::{BrotliLevel, Compression, GzipLevel, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;

/// A Parquet file being written: batches in, the file's bytes out to a
/// writer the caller gives at each step.
pub struct Writer {
    inner: ArrowWriter<Vec<u8>>,
}

fn io_error(e: ParquetError) -> io::Error {
    io::Error::other(e.to_string())
}

impl Writer {
    /// A file of `schema`, its pages compressed with `compression`, with
    /// `metadata` as its key-value metadata.
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
        let inner = ArrowWriter::try_new(Vec::new(), schema, Some(props))?;
        Ok(Writer { inner })
    }

    /// Adds `batch`'s rows; what is ready of the file goes to `out`.
    pub fn write(&mut self, batch: &RecordBatch, out: &mut impl Write) -> io::Result<()> {
        if batch.num_rows() > 0 {
            self.inner.write(batch).map_err(io_error)?;
        }
        self.drain(out)
    }

    /// Ends the row group being written (if it has rows).
    pub fn end_row_group(&mut self, out: &mut impl Write) -> io::Result<()> {
        self.inner.flush().map_err(io_error)?;
        self.drain(out)
    }

    /// Ends the file: the last row group and the footer go to `out`.
    pub fn finish(mut self, out: &mut impl Write) -> io::Result<()> {
        self.inner.finish().map_err(io_error)?;
        self.drain(out)
    }

    /// Hands the bytes written so far to `out` (the writer counts its own
    /// offsets: taking bytes out of its buffer does not move them).
    fn drain(&mut self, out: &mut impl Write) -> io::Result<()> {
        let bytes = std::mem::take(self.inner.inner_mut());
        out.write_all(&bytes)
    }
}

/// The compression `--compression` names: `zstd` (the default; `zstd:N`
/// for level N, 1 to 22), `snappy`, `gzip` (`gzip:N`, 0 to 10), `lz4`
/// (LZ4_RAW), `brotli` (`brotli:N`, 0 to 11) or `none`.
///
/// ```
/// use urlsift::records::parquet::compression;
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
            Compression::ZSTD(ZstdLevel::try_new(l.map_or(3, |l| l as i32)).map_err(bad_level)?)
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

//! Where a Parquet file's bytes come from, as arrow-rs asks for them
//! ([`ChunkReader`]): a mapped local file, or (feature `remote`) an
//! object read by ranges: its footer by two small requests, then each
//! row group's column chunks at once, by its decoder lane, in pieces
//! fetched side by side.

use std::io::{self, Read};
use std::sync::Arc;

use bytes::Bytes;
use parquet::file::metadata::ParquetMetaData;
use parquet::file::reader::{ChunkReader, Length};

use super::super::input::mmap::{Map, MapSlice};

/// A Parquet file's bytes.
#[derive(Clone)]
pub(super) enum FileBytes {
    /// A mapped file: the column chunks arrow-rs asks for are slices of
    /// the page cache (nothing copied, nothing zeroed), each released
    /// from the process once decoded, so resident memory stays at the
    /// row groups in flight however large the file is.
    Mapped(Arc<Map>),
    /// An object, each piece asked for when needed.
    #[cfg(feature = "remote")]
    Object(Arc<Object>),
    /// One row group's bytes of an object, fetched before it is decoded.
    #[cfg(feature = "remote")]
    Fetched(Arc<Fetched>),
}

impl FileBytes {
    /// The bytes a decoder of row group `group` reads from: for an
    /// object, the group's column chunks fetched now; otherwise the same.
    pub(super) fn for_group(
        &self,
        meta: &ParquetMetaData,
        group: usize,
    ) -> Result<FileBytes, String> {
        match self {
            #[cfg(feature = "remote")]
            FileBytes::Object(object) => object.fetch_group(meta, group),
            _ => {
                let _ = (meta, group);
                Ok(self.clone())
            }
        }
    }

    /// The first bytes of the file (at most `n`).
    pub(super) fn head(&self, n: usize) -> io::Result<Vec<u8>> {
        let n = (n as u64).min(self.len());
        let bytes = self.get_bytes(0, n as usize).map_err(io::Error::other)?;
        Ok(bytes.to_vec())
    }

    /// The most row-group decoders of this file to run at once with `cores`
    /// cores: an object's lanes each hold a row group's bytes, 1 GiB at
    /// most together.
    pub(super) fn lanes(&self, meta: &ParquetMetaData, cores: usize) -> usize {
        match self {
            #[cfg(feature = "remote")]
            FileBytes::Object(_) => {
                let largest = (0..meta.num_row_groups())
                    .map(|g| group_span(meta, g).map_or(0, |r| r.end - r.start))
                    .max()
                    .unwrap_or(0)
                    .max(1);
                cores.min((READ_AHEAD / largest).max(1) as usize)
            }
            _ => {
                let _ = meta;
                cores
            }
        }
    }
}

impl Length for FileBytes {
    fn len(&self) -> u64 {
        match self {
            FileBytes::Mapped(map) => map.bytes().len() as u64,
            #[cfg(feature = "remote")]
            FileBytes::Object(object) => object.size,
            #[cfg(feature = "remote")]
            FileBytes::Fetched(fetched) => fetched.object.size,
        }
    }
}

/// A reader of a file's bytes from an offset on (a page header's).
pub(super) enum PageRead {
    Mapped(io::Cursor<MapSlice>),
    #[cfg(feature = "remote")]
    Bytes(io::Cursor<Bytes>),
}

impl Read for PageRead {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        match self {
            PageRead::Mapped(r) => r.read(out),
            #[cfg(feature = "remote")]
            PageRead::Bytes(r) => r.read(out),
        }
    }
}

impl ChunkReader for FileBytes {
    type T = PageRead;

    fn get_read(&self, start: u64) -> parquet::errors::Result<PageRead> {
        match self {
            FileBytes::Mapped(map) => {
                let len = map.bytes().len();
                let start = (start as usize).min(len);
                let slice = MapSlice::new(Arc::clone(map), start..len);
                Ok(PageRead::Mapped(io::Cursor::new(slice)))
            }
            #[cfg(feature = "remote")]
            FileBytes::Object(object) => object.read_from(start),
            #[cfg(feature = "remote")]
            FileBytes::Fetched(fetched) => {
                let end = fetched.start + fetched.bytes.len() as u64;
                if (fetched.start..end).contains(&start) {
                    let from = (start - fetched.start) as usize;
                    Ok(PageRead::Bytes(io::Cursor::new(
                        fetched.bytes.slice(from..),
                    )))
                } else {
                    fetched.object.read_from(start)
                }
            }
        }
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<Bytes> {
        let end = start
            .checked_add(length as u64)
            .filter(|&e| e <= self.len());
        let Some(end) = end else {
            return Err(parquet::errors::ParquetError::EOF(format!(
                "bytes {start}..{} of a file of {}",
                start.saturating_add(length as u64),
                self.len()
            )));
        };
        match self {
            FileBytes::Mapped(map) => Ok(Bytes::from_owner(MapSlice::new(
                Arc::clone(map),
                start as usize..end as usize,
            ))),
            #[cfg(feature = "remote")]
            FileBytes::Object(object) => object.fetch(start..end),
            #[cfg(feature = "remote")]
            FileBytes::Fetched(fetched) => {
                let held = fetched.start..fetched.start + fetched.bytes.len() as u64;
                if held.start <= start && end <= held.end {
                    let from = (start - held.start) as usize;
                    Ok(fetched.bytes.slice(from..from + length))
                } else {
                    fetched.object.fetch(start..end)
                }
            }
        }
    }
}

/// The bytes of an object's row groups held at once, over its decoder
/// lanes: a lane holds its row group's column chunks while it decodes
/// them, so an object of row groups this large or larger is decoded by
/// one lane.
#[cfg(feature = "remote")]
const READ_AHEAD: u64 = 1 << 30;

/// The pieces a row group's bytes are asked for in (requests in flight
/// side by side: one connection alone is slower than the network).
#[cfg(feature = "remote")]
const PIECE: u64 = 8 << 20;

/// A page header read from an object outside a fetched row group: at most
/// this many bytes are asked for (a header is a few hundred).
#[cfg(feature = "remote")]
const HEADER_READ: u64 = 64 << 10;

/// The bytes row group `group`'s column chunks span in the file.
#[cfg(feature = "remote")]
fn group_span(meta: &ParquetMetaData, group: usize) -> Option<std::ops::Range<u64>> {
    let columns = meta.row_group(group).columns();
    let start = columns.iter().map(|c| c.byte_range().0).min()?;
    let end = columns
        .iter()
        .map(|c| c.byte_range().0 + c.byte_range().1)
        .max()?;
    Some(start..end)
}

/// A Parquet object: its URL and size.
#[cfg(feature = "remote")]
pub(super) struct Object {
    pub(super) url: String,
    pub(super) size: u64,
}

/// Row group bytes of an object, from byte `start`.
#[cfg(feature = "remote")]
pub(super) struct Fetched {
    object: Arc<Object>,
    start: u64,
    bytes: Bytes,
}

#[cfg(feature = "remote")]
impl Object {
    /// The object `url` names, its size asked (or known from the run's
    /// check).
    pub(super) fn open(url: &str) -> io::Result<FileBytes> {
        let size = urlsift_input::remote::sizes(&[url])
            .pop()
            .expect("one size")?;
        Ok(FileBytes::Object(Arc::new(Object {
            url: url.to_string(),
            size,
        })))
    }

    /// The bytes `range`, asked for in pieces side by side.
    fn fetch(&self, range: std::ops::Range<u64>) -> parquet::errors::Result<Bytes> {
        let pieces: Vec<(&str, std::ops::Range<u64>)> = (range.start..range.end)
            .step_by(PIECE as usize)
            .map(|s| (self.url.as_str(), s..(s + PIECE).min(range.end)))
            .collect();
        let mut bytes = Vec::with_capacity((range.end - range.start) as usize);
        for piece in urlsift_input::remote::read_ranges(&pieces) {
            let piece = piece.map_err(|e| {
                parquet::errors::ParquetError::External(Box::new(io::Error::new(
                    e.kind(),
                    format!("bytes {}..{}: {e}", range.start, range.end),
                )))
            })?;
            bytes.extend_from_slice(&piece);
        }
        Ok(Bytes::from(bytes))
    }

    /// A reader from `start`: a page header, or the footer's last bytes.
    fn read_from(&self, start: u64) -> parquet::errors::Result<PageRead> {
        let start = start.min(self.size);
        let bytes = self.fetch(start..(start + HEADER_READ).min(self.size))?;
        Ok(PageRead::Bytes(io::Cursor::new(bytes)))
    }

    /// Row group `group`'s column chunks, fetched.
    fn fetch_group(
        self: &Arc<Self>,
        meta: &ParquetMetaData,
        group: usize,
    ) -> Result<FileBytes, String> {
        let span = group_span(meta, group).unwrap_or(0..0);
        let bytes = self
            .fetch(span.clone())
            .map_err(|e| format!("cannot be read: {e}"))?;
        Ok(FileBytes::Fetched(Arc::new(Fetched {
            object: Arc::clone(self),
            start: span.start,
            bytes,
        })))
    }
}

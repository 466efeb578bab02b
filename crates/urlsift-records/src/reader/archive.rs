//! A WARC or ARC source past its start: the archive reader
//! ([`warc::Reader`]) walks its records, in the map or from the decoded
//! stream, and each chunk is an index of their header blocks (and the
//! blocks kept beside them). A gap in the decoded bytes is one bad record
//! where it starts (the bytes a damaged member or frame decoded to), and
//! the records start again after it.

use std::io::{self, Read};
use std::sync::Arc;

use super::current::{Failure, Settings};
use crate::chunk::{BufPool, Chunk, Source};
use crate::input::mmap::Map;
use crate::input::{InputError, decode};
use urlsift_warc::{self as warc, Body, Entry, RecordFault};

/// A started WARC or ARC source.
pub(super) struct Archive {
    source: Arc<Source>,
    /// The decoded stream past what `warc` was handed (`None`: the
    /// reader walks a map).
    stream: Option<Box<dyn Read + Send>>,
    warc: warc::Reader,
}

impl Archive {
    /// The records of a stream from its byte `offset` on: `read` holds
    /// the bytes already read past the start, `stream` the rest.
    pub(super) fn read(
        source: Arc<Source>,
        read: Vec<u8>,
        offset: u64,
        stream: Box<dyn Read + Send>,
    ) -> Archive {
        Archive::with(source, Some(stream), warc::Reader::new(read, offset))
    }

    /// The records of a mapped file from byte `start` on.
    pub(super) fn mapped(source: Arc<Source>, map: Arc<Map>, start: usize) -> Archive {
        Archive::with(source, None, warc::Reader::mapped(map, start))
    }

    /// The records of `read` (from byte `offset`), the stream having
    /// failed with `error` after it: they go out, then the error (and the
    /// records after it, where decoding resumes past a gap).
    pub(super) fn failed(
        source: Arc<Source>,
        read: Vec<u8>,
        offset: u64,
        stream: Box<dyn Read + Send>,
        error: io::Error,
    ) -> Archive {
        let warc = warc::Reader::new(read, offset).failed(error);
        Archive::with(source, Some(stream), warc)
    }

    fn with(
        source: Arc<Source>,
        stream: Option<Box<dyn Read + Send>>,
        warc: warc::Reader,
    ) -> Archive {
        let dialect = source.format.archive().unwrap_or_default();
        Archive {
            source,
            stream,
            warc: warc.dialect(dialect),
        }
    }

    /// Reads the next chunk of records (`None` if nothing is left) and
    /// whether the source has ended.
    pub(super) fn read_chunk(
        &mut self,
        settings: &Settings,
        pool: &BufPool,
    ) -> Result<(Option<Chunk>, bool), Failure> {
        let mut nothing = io::empty();
        let stream: &mut dyn Read = match &mut self.stream {
            Some(stream) => stream,
            None => &mut nothing,
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
                let (read, spare) = self
                    .warc
                    .read_chunk_keeping(stream, size, max, &mut data, &mut index, k, blocks);
                pool.put(spare);
                read
            }
            None => self
                .warc
                .read_chunk(stream, size, max, &mut data, &mut index),
        };
        let chunk = (!index.is_empty()).then(|| Chunk {
            index,
            ..Chunk::plain(Arc::clone(&self.source), 0, 0, data)
        });
        let e = match read {
            Ok(ended) => return Ok((chunk, ended)),
            Err(e) => e,
        };
        // Bytes a damaged member or frame decoded to: one bad record,
        // where they start.
        let at = self.warc.read_to();
        let damaged = decode::decode_error(&e)
            .and_then(|d| d.damaged.as_ref())
            .map(|d| set_aside(Arc::clone(&self.source), &d.bytes, at));
        let len = damaged.as_ref().map_or(0, |(_, len)| *len);
        if decode::resumes(&e) {
            // Records start again after the gap, with a reader of their
            // own (the old one ended at the gap).
            let dialect = self.warc.format();
            self.warc = warc::Reader::new(Vec::new(), at + len).dialect(dialect);
        }
        let error = InputError {
            name: self.source.name.clone(),
            error: e,
            usage: false,
        };
        let failure = Failure::new(chunk, error);
        Err(failure.with_set_aside(damaged.map(|(chunk, _)| chunk).into_iter().collect()))
    }
}

/// The bytes a damaged gzip member or zstd frame of a WARC source decoded
/// to, found where the reader stood at `offset`: a chunk of one bad record
/// (its first [`warc::SHOWN`] bytes kept to show), and how many bytes it
/// stands for.
fn set_aside(source: Arc<Source>, bytes: &[u8], offset: u64) -> (Chunk, u64) {
    let mut data = bytes[..bytes.len().min(warc::SHOWN)].to_vec();
    if bytes.len() > warc::SHOWN {
        data.extend_from_slice(b"...");
    }
    let index = vec![Entry {
        start: 0,
        end: data.len(),
        offset,
        bad: Some(RecordFault::Damaged),
        body: Body::None,
    }];
    let chunk = Chunk {
        index,
        ..Chunk::plain(source, 0, 0, data)
    };
    (chunk, bytes.len() as u64)
}

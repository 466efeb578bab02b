//! A WARC or ARC source past its start: the archive reader
//! ([`warc::Reader`]) walks its records, in the map or from the decoded
//! stream, and each chunk is an index of their header blocks (and the
//! blocks kept beside them). A gap in the decoded bytes is one bad record
//! where it starts (the bytes a damaged member or frame decoded to), and
//! the records start again after it.
//!
//! Records cut where they are decoded: a `.warc.gz` (`.warc.zst`) whose
//! members hold whole records is decoded in batches, and each batch
//! job's bytes that are whole records ([`warc::whole_records`], checked
//! on the job's thread) may go to the workers as they are, a raw chunk
//! the worker walks ([`walk`]) instead of this reader. That happens when
//! the walk here has reached the end of the bytes before them exactly
//! (only blank bytes left, and the bytes read ahead all the buffer's:
//! [`decode::Decoded::take_whole`]) and the bytes after them start a
//! record (`WARC/`) or end the input cleanly. Walking them alone then
//! finds what walking them here would: no step of the walk looks past
//! their end (see `whole.rs` of urlsift-warc). Anything else (a member
//! ending inside a record, damage, a fault next) is walked here, as
//! before; a buffer taken and then found unfit is walked here too, where
//! it is (not copied).

use std::io;
use std::sync::Arc;

use super::current::{Failure, Settings, Stream};
use crate::chunk::{BufPool, Chunk, Data, Raw, Source};
use crate::input::mmap::Map;
use crate::input::{InputError, decode};
use urlsift_warc::{self as warc, Body, Entry, RecordFault};

/// A started WARC or ARC source.
pub(super) struct Archive {
    source: Arc<Source>,
    /// The decoded stream past what `warc` was handed (`None`: the
    /// reader walks a map).
    stream: Option<Stream>,
    warc: warc::Reader,
}

/// Indexes a chunk of whole WARC records handed on as they were decoded:
/// their header blocks copied into a buffer from `pool`, each a whole
/// record, where the check of their bytes marked them (the index
/// [`Archive::read_chunk`] would have made: `whole.rs` of urlsift-warc;
/// debug builds walk them again to be sure). Where blocks are kept, the
/// records are walked as the reader walks them, alone: the walk does not
/// look past their end. Their buffer goes back to the decoder. Any other
/// chunk stays as it is.
pub(crate) fn walk(chunk: &mut Chunk, pool: &BufPool) {
    let Some(raw) = chunk.raw.take() else {
        return;
    };
    let Data::Owned(bytes) = std::mem::replace(&mut chunk.data, Data::Owned(Vec::new())) else {
        unreachable!("a raw chunk owns its bytes");
    };
    let headers: usize = raw.marks.chunks_exact(2).map(|m| m[1] - m[0]).sum();
    let mut data = pool.get(headers);
    let mut index = Vec::with_capacity(raw.marks.len() / 2);
    let bytes = match raw.keep {
        Some(keep) => {
            let mut reader = warc::Reader::new(bytes, chunk.offset).ended();
            let blocks = pool.get(0);
            let (read, spare) = reader.read_chunk_keeping(
                &mut io::empty(),
                usize::MAX,
                raw.max_header,
                &mut data,
                &mut index,
                keep,
                blocks,
            );
            debug_assert!(matches!(read, Ok(true)), "whole records end cleanly");
            pool.put(spare);
            reader.into_buffer()
        }
        None => {
            for m in raw.marks.chunks_exact(2) {
                let start = data.len();
                data.extend_from_slice(&bytes[m[0]..m[1]]);
                index.push(Entry {
                    start,
                    end: data.len(),
                    offset: chunk.offset + m[0] as u64,
                    bad: None,
                    body: Body::None,
                });
            }
            bytes
        }
    };
    #[cfg(debug_assertions)]
    {
        let (mut walked, mut walked_index) = (Vec::new(), Vec::new());
        let mut reader = warc::Reader::new(bytes.clone(), chunk.offset).ended();
        let read = reader.read_chunk(
            &mut io::empty(),
            usize::MAX,
            raw.max_header,
            &mut walked,
            &mut walked_index,
        );
        assert!(matches!(read, Ok(true)), "whole records end cleanly");
        let places = |i: &[Entry]| i.iter().map(|e| (e.offset, e.bad)).collect::<Vec<_>>();
        assert_eq!(places(&walked_index), places(&index));
        let marked = raw.marks.chunks_exact(2);
        for ((e, m), w) in index.iter().zip(marked).zip(&walked_index) {
            assert_eq!(e.offset, chunk.offset + m[0] as u64, "marked where walked");
            assert_eq!(data[e.start..e.end], walked[w.start..w.end]);
            assert_eq!(data[e.start..e.end], bytes[m[0]..m[1]]);
        }
    }
    raw.home.give_back(bytes);
    chunk.data = Data::Owned(data);
    chunk.index = index;
}

impl Archive {
    /// The records of a stream from its byte `offset` on: `read` holds
    /// the bytes already read past the start, `stream` the rest.
    pub(super) fn read(source: Arc<Source>, read: Vec<u8>, offset: u64, stream: Stream) -> Archive {
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
        stream: Stream,
        error: io::Error,
    ) -> Archive {
        let warc = warc::Reader::new(read, offset).failed(error);
        Archive::with(source, Some(stream), warc)
    }

    fn with(source: Arc<Source>, stream: Option<Stream>, warc: warc::Reader) -> Archive {
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
        let mut data = pool.get(settings.chunk_size);
        // Room for the records of a chunk of short header blocks, so the
        // index does not grow (and copy itself into fresh pages) as it
        // fills.
        let mut index = Vec::with_capacity(settings.chunk_size / 128);
        let (size, max) = (settings.chunk_size, settings.max_record);
        let keep = settings.keep;
        let read = match (keep, &mut self.stream) {
            (_, Some(Stream::Decoded(d)))
                if d.takes_whole() && self.warc.format() == warc::Dialect::Warc =>
            {
                if let Some(chunk) = self.hand_on(max, keep) {
                    pool.put(data);
                    return Ok((Some(chunk), false));
                }
                self.read_watching(size, max, keep, &mut data, &mut index, pool)
            }
            (Some(k), stream) => {
                let mut nothing = Stream::Plain(Box::new(io::empty()));
                let stream = stream.as_mut().unwrap_or(&mut nothing);
                let blocks = pool.get(size);
                let (read, spare) = self
                    .warc
                    .read_chunk_keeping(stream, size, max, &mut data, &mut index, k, blocks);
                pool.put(spare);
                read
            }
            (None, Some(stream)) => self
                .warc
                .read_chunk(stream, size, max, &mut data, &mut index),
            (None, None) => {
                self.warc
                    .read_chunk(&mut io::empty(), size, max, &mut data, &mut index)
            }
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

    /// [`warc::Reader::read_chunk`] (keeping the blocks `keep` names) one
    /// record at a time, stopping early when the records read end where a
    /// buffer of whole records starts (the next chunk is that buffer:
    /// [`Archive::hand_on`]).
    fn read_watching(
        &mut self,
        size: usize,
        max: usize,
        keep: Option<warc::Keeping>,
        data: &mut Vec<u8>,
        index: &mut Vec<Entry>,
        pool: &BufPool,
    ) -> io::Result<bool> {
        let Some(stream) = &mut self.stream else {
            unreachable!("read from a stream");
        };
        let mut blocks = Vec::new();
        let mut read = Ok(false);
        while data.len() < size {
            let one = data.len() + 1;
            read = match keep {
                None => self.warc.read_chunk(stream, one, max, data, index),
                Some(k) => {
                    let (read, spare) = self
                        .warc
                        .read_chunk_keeping(stream, one, max, data, index, k, blocks);
                    blocks = spare;
                    read
                }
            };
            if !matches!(read, Ok(false)) || at_whole(&self.warc, stream) {
                break;
            }
        }
        pool.put(blocks);
        read
    }

    /// The next chunk as the decoder's buffer of whole records, raw, when
    /// the walk stands where it starts and what follows it starts a
    /// record (see the module notes); `None` otherwise, and nothing read
    /// is lost.
    fn hand_on(&mut self, max_header: usize, keep: Option<warc::Keeping>) -> Option<Chunk> {
        let Some(Stream::Decoded(decoded)) = &mut self.stream else {
            return None;
        };
        if !self.warc.going() {
            return None;
        }
        let ahead = read_ahead(self.warc.unread());
        let whole = decoded.take_whole(ahead)?;
        self.warc.hand_back(ahead);
        let follows = decoded
            .peek()
            .is_some_and(|next| next.is_empty() || next.starts_with(b"WARC/"));
        let (buf, marks, home) = whole.into_parts();
        if !follows {
            // (Walked here, where it is; the bytes after it follow. The
            // decoder gets the buffer it replaces, or it would run short.)
            home.give_back(self.warc.take_up(buf));
            return None;
        }
        let offset = self.warc.read_to();
        self.warc.skip_taken(buf.len() as u64);
        Some(Chunk {
            raw: Some(Raw {
                marks,
                max_header,
                keep,
                home,
            }),
            ..Chunk::plain(Arc::clone(&self.source), 0, offset, buf)
        })
    }
}

/// How many of the bytes a reader read and has not walked may have been
/// read ahead of the records walked: those after the blank bytes that
/// end the last record.
fn read_ahead(unread: &[u8]) -> usize {
    let blank = unread
        .iter()
        .take_while(|b| matches!(b, b'\r' | b'\n'))
        .count();
    unread.len() - blank
}

/// Whether the walk stands where the decoder's buffer being read starts,
/// and that buffer is whole records (cheap: no buffer is taken).
fn at_whole(warc: &warc::Reader, stream: &Stream) -> bool {
    let Stream::Decoded(decoded) = stream else {
        return false;
    };
    warc.going() && decoded.whole_from(read_ahead(warc.unread()))
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

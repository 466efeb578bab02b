//! The source being read: where its bytes come from (a map or a read
//! window), where the reader stands in it, and how a read failed.

use std::io::{self, Read};
use std::sync::Arc;

use crate::chunk::{BufPool, Chunk, Data, Source};
use crate::format::{Kind, Spec};
use crate::input::mmap::{Map, MapSlice};
use crate::input::timings::BusyClock;
use crate::input::{InputError, Location, Opened, decode};
use crate::setting::SettingError;
use urlsift_warc as warc;

/// How the reader cuts and checks its sources.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Bytes per chunk (a longer record grows its chunk).
    pub chunk_size: usize,
    /// `--max-line-bytes`: the longest record held whole.
    pub max_record: usize,
    /// The format flags.
    pub spec: Spec,
    /// The run writes records back: CSV inputs must share one header.
    pub writes_records: bool,
    /// Number the lines of `lines` input here, under the lock. Off, chunks
    /// number their lines from 1 (`Chunk::relative_lines`) and the writer,
    /// which sees every chunk in order, turns the numbers it prints into
    /// the source's: a pass over every byte saved from the reader.
    pub count_lines: bool,
    /// WARC and ARC input: the blocks kept beside the header blocks (the
    /// records' pages, for `links`); `None`: headers only.
    pub keep: Option<warc::Keeping>,
    /// The cores the run's other pools may use (a compressed input's
    /// decoders, a mapped CSV file's boundary finders, Parquet's row-group
    /// lanes): [`cores::capped`](crate::cores::capped) of `-j`.
    pub cores: usize,
    /// Where the inputs' decoding threads add their busy time (the run's
    /// `--timings`).
    pub decoding_clock: BusyClock,
}

/// The source being read.
pub(super) struct Current {
    pub(super) name: String,
    pub(super) kind: Kind,
    pub(super) source: Option<Arc<Source>>,
    pub(super) feed: Feed,
    /// The line of the first byte not yet handed out.
    pub(super) next_line: u64,
    /// The input offset of the first byte not yet handed out.
    pub(super) offset: u64,
    /// The window holds the rest of the source.
    pub(super) eof: bool,
    /// Handing out an over-long line in pieces.
    pub(super) streaming: bool,
    /// Lines are numbered by the writer (`Settings::count_lines` off).
    pub(super) counting_off: bool,
    /// A `.log` file read with `auto`: its first lines pick `log` or
    /// `lines`.
    pub(super) sniff_log: bool,
    /// After a gap in the decoded bytes: how the first line after it
    /// reads.
    pub(super) gap: Option<Gap>,
    /// A mapped CSV source's row boundaries, found ahead on several
    /// threads (made at the first cut; `None` inside where there is no
    /// point).
    pub(super) ahead: Option<Option<crate::format::csv::Ahead>>,
}

/// Where a source's bytes come from: read into our buffer (pipes, stdin,
/// compressed files), or mapped (plain regular files: chunks are slices
/// of the page cache, nothing is copied; a WARC file's records are walked
/// in the map and only their header blocks copied).
pub(super) enum Feed {
    Read {
        reader: Stream,
        /// Bytes read but not yet handed out: the window.
        buf: Vec<u8>,
    },
    Map {
        map: Arc<Map>,
        /// The window: `map[pos..end]`.
        pos: usize,
        end: usize,
    },
}

/// The bytes a read source gives, in order: a compressed input's
/// decoded bytes (whose buffers of whole records the archive reader may
/// take whole: `archive.rs`), or any other stream.
pub(super) enum Stream {
    Plain(Box<dyn Read + Send>),
    Decoded(decode::Decoded),
}

impl Read for Stream {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(r) => r.read(out),
            Stream::Decoded(d) => d.read(out),
        }
    }
}

impl Feed {
    /// The feed, leaving an ended one in its place.
    pub(super) fn take(&mut self) -> Feed {
        let ended = Feed::Read {
            reader: Stream::Plain(Box::new(io::empty())),
            buf: Vec::new(),
        };
        std::mem::replace(self, ended)
    }
}

impl Current {
    /// The started source, when its format is an archive's (WARC, ARC):
    /// its records are read by the archive reader.
    pub(super) fn archive(&self) -> Option<Arc<Source>> {
        self.source
            .as_ref()
            .filter(|s| s.format.archive().is_some())
            .map(Arc::clone)
    }

    pub(super) fn error(&self, error: io::Error, usage: bool) -> InputError {
        InputError {
            name: self.name.clone(),
            error,
            usage,
        }
    }

    pub(super) fn usage(&self, message: String) -> Failure {
        Failure::new(None, self.error(io::Error::other(message), true))
    }

    /// The usage error of a setting that does not fit this source.
    pub(super) fn setting(&self, error: SettingError) -> Failure {
        Failure::new(None, self.error(io::Error::other(error), true))
    }

    /// Opens `path` (`-` is stdin): mapped when it is a plain regular file
    /// (not compressed).
    /// A compressed input is decoded as `decoding` says.
    pub(super) fn open(
        location: &Location,
        name: String,
        kind: Kind,
        decoding: decode::Decoding,
    ) -> io::Result<Current> {
        let feed = match location.open_with(decoding)? {
            Opened::Mapped(map) => Feed::Map {
                map,
                pos: 0,
                end: 0,
            },
            Opened::Read(reader) => Feed::Read {
                reader: Stream::Plain(reader),
                buf: Vec::new(),
            },
            Opened::Decoded(decoded) => Feed::Read {
                reader: Stream::Decoded(decoded),
                buf: Vec::new(),
            },
        };
        Ok(Current {
            name,
            kind,
            source: None,
            feed,
            next_line: 1,
            offset: 0,
            eof: false,
            streaming: false,
            counting_off: false,
            sniff_log: false,
            gap: None,
            ahead: None,
        })
    }

    /// The bytes not yet handed out that are at hand.
    pub(super) fn window(&self) -> &[u8] {
        match &self.feed {
            Feed::Read { buf, .. } => buf,
            Feed::Map { map, pos, end } => &map.bytes()[*pos..*end],
        }
    }

    /// Makes the window hold `want` bytes, or the rest of the source.
    pub(super) fn fill(&mut self, want: usize, pool: &BufPool) -> io::Result<()> {
        match &mut self.feed {
            Feed::Map { map, pos, end } => {
                let len = map.bytes().len();
                *end = pos.saturating_add(want).min(len).max(*end);
                self.eof = *end == len;
                Ok(())
            }
            Feed::Read { reader, buf } => {
                if buf.capacity() == 0 {
                    *buf = pool.get(want);
                }
                // Exactly: a buffer that doubled past a long line's limit
                // would hold twice the memory the limit allows.
                buf.reserve_exact(want.saturating_sub(buf.len()));
                while !self.eof && buf.len() < want {
                    let before = buf.len();
                    match reader.take((want - buf.len()) as u64).read_to_end(buf) {
                        Ok(_) if buf.len() == before => self.eof = true,
                        Ok(_) => {}
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(e),
                    }
                }
                Ok(())
            }
        }
    }

    /// Drops the first `n` bytes of the window.
    pub(super) fn skip(&mut self, n: usize) {
        match &mut self.feed {
            Feed::Map { pos, end, .. } => {
                *pos += n;
                *end = (*end).max(*pos);
            }
            Feed::Read { buf, .. } => {
                buf.drain(..n);
            }
        }
    }

    /// Runs `f` with the window (`f` must not touch the feed).
    pub(super) fn with_window<R>(&mut self, f: impl FnOnce(&mut Current, &[u8]) -> R) -> R {
        match &mut self.feed {
            Feed::Map { map, pos, end } => {
                let (map, range) = (Arc::clone(map), *pos..*end);
                f(self, &map.bytes()[range])
            }
            Feed::Read { buf, .. } => {
                let window = std::mem::take(buf);
                let r = f(self, &window);
                if let Feed::Read { buf, .. } = &mut self.feed {
                    *buf = window;
                }
                r
            }
        }
    }

    /// Hands out the first `n` bytes of the window.
    pub(super) fn take(&mut self, n: usize, pool: &BufPool) -> Data {
        match &mut self.feed {
            Feed::Map { map, pos, end } => {
                let slice = MapSlice::new(Arc::clone(map), *pos..*pos + n);
                *pos += n;
                *end = (*end).max(*pos);
                Data::Mapped(slice)
            }
            Feed::Read { buf, .. } => {
                let rest = buf.len() - n;
                let mut next = pool.get(rest * 2);
                next.extend_from_slice(&buf[n..]);
                buf.truncate(n);
                Data::Owned(std::mem::replace(buf, next))
            }
        }
    }
}

/// A read that failed: the records read before the error, then the error
/// (boxed: failures are rare, and results stay small).
pub(super) struct Failure(pub(super) Box<Failed>);

pub(super) struct Failed {
    pub(super) chunk: Option<Chunk>,
    /// Bytes damaged members or frames decoded to, set aside
    /// (`Chunk::bad`): handed out after `chunk`, before the error.
    pub(super) set_aside: Vec<Chunk>,
    pub(super) error: InputError,
    /// The source goes on after the error (a gap in its decoded bytes).
    pub(super) resumes: bool,
}

impl Failure {
    pub(super) fn new(chunk: Option<Chunk>, error: InputError) -> Failure {
        let resumes = decode::resumes(&error.error);
        Failure(Box::new(Failed {
            chunk,
            set_aside: Vec::new(),
            error,
            resumes,
        }))
    }

    pub(super) fn with_set_aside(mut self, set_aside: Vec<Chunk>) -> Failure {
        self.0.set_aside = set_aside;
        self
    }
}

/// The first line after a gap in the decoded bytes, when it is not a line
/// of its own.
pub(super) enum Gap {
    /// The rest of a line whose start the gap took: a `truncated-input`
    /// record.
    Fragment,
    /// The rest of the last line of bytes set aside as damaged, whose unit
    /// is all there: joined to them (one line, numbered as `zcat` counts),
    /// they are handed out with it.
    Continues(Vec<u8>),
}

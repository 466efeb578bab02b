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
//! held whole: past the limit it is handed out in pieces ([`Oversize`](crate::chunk::Oversize)),
//! so memory stays bounded by the limit plus a chunk.
//!
//! Each source is read by the reader its format reads with (`Reading`):
//! a window on its bytes, started (`start.rs`: its format resolved from
//! its first bytes) and cut where its format says records end
//! (`bytes.rs`); past a WARC or ARC source's start, the archive reader
//! walking its records (`archive.rs`); a Parquet file's row groups. The
//! loop here knows none of them.
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
use std::io;
use std::path::PathBuf;

use crate::chunk::{BufPool, Chunk};
use crate::input::{InputError, Location, decode};
use crate::setting::SettingError;

mod archive;
#[cfg(test)]
mod archive_tests;
mod bytes;
mod current;
mod gaps;
mod start;

use archive::Archive;
pub(crate) use archive::walk;
pub use current::Settings;
use current::{Current, Failed, Failure};

/// Reads the sources in order and cuts them into record-aligned chunks,
/// numbering their lines. The workers share one behind a lock: whoever
/// needs work reads the next chunk (so reading is part of each worker's
/// share, and `-j N` means N threads read and parse).
pub struct ChunkReader {
    inputs: std::vec::IntoIter<Location>,
    settings: Settings,
    current: Option<Reading>,
    /// What to hand out next, before reading on: after a read error, the
    /// chunk of damaged bytes it set aside (if any), then the error.
    pending: VecDeque<Result<Chunk, InputError>>,
    /// Set after a usage error or the end of the last source.
    done: bool,
    /// How many chunks (and errors) have been handed out.
    handed_out: u64,
    /// The first CSV source's header row, which later ones must repeat.
    first_header: Option<Vec<u8>>,
    /// The run's cores (`settings.cores` is this source's share of them
    /// while others are read beside it).
    run_cores: usize,
}

impl ChunkReader {
    /// How its inputs are decoded: on the run's cores, this source's
    /// share of them beside the others read at once, timed by the run's
    /// clock.
    fn decoding(&self) -> decode::Decoding {
        // Batch jobs check their bytes for whole WARC records, which
        // workers may then index (`archive.rs`).
        let max_header = self.settings.max_record;
        let whole = Some(decode::WholeCheck::new(move |bytes| {
            urlsift_warc::whole_records(bytes, max_header)
        }));
        decode::Decoding {
            cores: self.run_cores,
            share: self.settings.cores,
            clock: self.settings.decoding_clock.clone(),
            whole,
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
            run_cores: settings.cores,
            settings,
            current: None,
            pending: VecDeque::new(),
            done: false,
            handed_out: 0,
            first_header: None,
        }
    }

    /// A reader of one source at a time, each given by
    /// [`ChunkReader::begin`]: a lane of a run that reads several sources
    /// side by side.
    pub(crate) fn lane(settings: Settings) -> ChunkReader {
        ChunkReader::of(Vec::new(), settings)
    }

    /// Reads `location` next (the source before it has ended), its chunks
    /// numbered from 0, its decoders and lanes on `cores` cores, a CSV
    /// header checked against `first_header` (the first CSV source's
    /// header row, if one was read).
    pub(crate) fn begin(
        &mut self,
        location: Location,
        cores: usize,
        first_header: Option<Vec<u8>>,
    ) {
        debug_assert!(self.current.is_none() && self.pending.is_empty());
        self.inputs = vec![location].into_iter();
        self.handed_out = 0;
        self.settings.cores = cores;
        self.first_header = first_header;
    }

    /// The first CSV source's header row, once read.
    pub(crate) fn first_header(&self) -> Option<&Vec<u8>> {
        self.first_header.as_ref()
    }

    /// How many chunks (and errors) have been handed out (of this source,
    /// after [`ChunkReader::begin`]).
    pub(crate) fn handed_out(&self) -> u64 {
        self.handed_out
    }

    /// The next chunk (in a buffer from `pool`) or an input error,
    /// numbered from 0 in input order; `None` at the end of the last
    /// source (or after a usage error).
    pub fn next_numbered(&mut self, pool: &BufPool) -> Option<(u64, Result<Chunk, InputError>)> {
        let (number, mut next) = self.next_unwalked(pool)?;
        if let Ok(chunk) = &mut next {
            walk(chunk, pool);
        }
        Some((number, next))
    }

    /// [`ChunkReader::next_numbered`], a chunk of whole records as they
    /// were decoded left for the caller to walk ([`walk`]), off the
    /// reader's lock.
    pub(crate) fn next_unwalked(
        &mut self,
        pool: &BufPool,
    ) -> Option<(u64, Result<Chunk, InputError>)> {
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
            let Some(reading) = &mut self.current else {
                let location = self.inputs.next()?;
                match self.open(&location) {
                    Ok(reading) => self.current = Some(reading),
                    Err(error) => {
                        self.done |= error.usage;
                        return Some(Err(error));
                    }
                }
                continue;
            };
            match reading.read_chunk(&self.settings, &mut self.first_header, pool) {
                Ok(Step::Chunk(chunk, ended)) => {
                    if ended {
                        self.current = None;
                    }
                    if let Some(chunk) = chunk {
                        return Some(Ok(chunk));
                    }
                }
                Ok(Step::Hand(next)) => self.current = Some(next),
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

    /// Opens `location` for the reader its format reads with: a window on
    /// its bytes, or (Parquet) a cursor on its row groups.
    fn open(&self, location: &Location) -> Result<Reading, InputError> {
        let name = location.name();
        let path = location.path();
        let kind = self.settings.spec.kind_for(path);
        if !kind.reads_bytes() {
            return self.open_rows(location, name);
        }
        match Current::open(location, name.clone(), kind, self.decoding()) {
            Ok(mut current) => {
                current.sniff_log = self.settings.spec.sniffs_log(path);
                Ok(Reading::Bytes(current))
            }
            Err(error) => Err(InputError {
                name,
                error,
                usage: false,
            }),
        }
    }
}

/// How the source being read is read, as its format says.
enum Reading {
    /// Its bytes, in a window: its start read, then cut into chunks where
    /// records end.
    Bytes(Current),
    /// A WARC or ARC source past its start: its records walked by the
    /// archive reader.
    Archive(Archive),
    /// A Parquet file's row groups.
    #[cfg(feature = "parquet")]
    Rows(crate::parquet::Cursor),
}

/// What a source's reader gave.
enum Step {
    /// A chunk (`None`: nothing this time), and whether the source ended.
    Chunk(Option<Chunk>, bool),
    /// The source's start is read: the rest is read by this reader.
    Hand(Reading),
}

impl Reading {
    /// The source's next step.
    fn read_chunk(
        &mut self,
        settings: &Settings,
        first_header: &mut Option<Vec<u8>>,
        pool: &BufPool,
    ) -> Result<Step, Failure> {
        match self {
            Reading::Bytes(current) => current.read_chunk(settings, first_header, pool),
            Reading::Archive(archive) => archive
                .read_chunk(settings, pool)
                .map(|(chunk, ended)| Step::Chunk(chunk, ended)),
            #[cfg(feature = "parquet")]
            Reading::Rows(cursor) => match cursor.next_chunk() {
                Some(Ok(chunk)) => Ok(Step::Chunk(Some(chunk), false)),
                // (An error ends the file.)
                Some(Err(error)) => Err(Failure::new(None, error)),
                None => Ok(Step::Chunk(None, true)),
            },
        }
    }
}

impl ChunkReader {
    /// Opens a Parquet source (the reader of this build permitting).
    fn open_rows(&self, location: &Location, name: String) -> Result<Reading, InputError> {
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
        #[cfg(not(feature = "remote"))]
        if path.to_str().is_some_and(crate::input::is_remote) {
            return Err(InputError {
                name,
                error: io::Error::other(
                    "this build reads no objects (it was built without the `remote` feature)",
                ),
                usage: false,
            });
        }
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
            Ok(Reading::Rows(cursor))
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

//! The ledger: the policy's other half, on the thread that sees every
//! chunk in input order. It writes each chunk's output, numbers its bad
//! records within their source, writes them to the rejects file, ends the
//! run at a `--strict` stop, streams the pieces of over-long lines, and
//! adds up the tally, so that every record read is accounted for once.
//!
//! A rejects record is `source<TAB>line<TAB>byte offset<TAB>reason<TAB>raw
//! record`, the raw record with backslash, tab, CR and LF escaped as `\\`,
//! `\t`, `\r`, `\n` (the line is `-` where lines are not counted: WARC).
//!
//! ```
//! use std::sync::Arc;
//! use urlsift_records::{Chunk, Format, Job, Ledger, Policy, Reason, Source};
//!
//! let policy = Policy { record_rejects: true, ..Policy::default() };
//! let source = Arc::new(Source { name: "t.txt".into(), format: Format::Lines });
//! let chunk = Chunk::plain(source, 1, 0, b"https://e.com/\nbad\0\tline\n".to_vec());
//! let job = Job { policy, ..Job::default() };
//! let mut p = job.run::<()>(&chunk, |p, _rec, url| {
//!     let url = urlsift::Url::parse(url).map_err(Reason::Url)?;
//!     p.flush();
//!     p.out.extend_from_slice(url.href().as_bytes());
//!     p.out.push(b'\n');
//!     Ok(())
//! });
//! let mut ledger = Ledger::new(Vec::new(), Some(Vec::new()), policy, b'\n');
//! ledger.consume(&chunk, &mut p)?;
//! let (out, rejects, tally) = ledger.into_parts();
//! assert_eq!(out, b"https://e.com/\n");
//! assert_eq!(rejects.unwrap(), b"t.txt\t2\t15\tNUL byte\tbad\0\\tline\n");
//! assert_eq!(
//!     tally.summary(1, "lines", false),
//!     "2 lines from 1 input: 1 valid, 0 empty, 1 bad (1 NUL-byte; skipped)"
//! );
//! # Ok::<(), urlsift_records::Error>(())
//! ```

use std::io::{self, IoSlice, Write};
use std::sync::Arc;

use super::chunk::{Chunk, Source};
use super::error::{Error, Stop};
use super::format::quote::write_escaped;
use super::policy::Policy;
use super::processed::{Processed, Rejected};
use super::reason::Reason;
use super::tally::Tally;

/// Numbers lines in their source for chunks that number them from their
/// own start (`Chunk::relative_lines`): the ledger sees every chunk of a
/// source in order, so it adds up their lines.
#[derive(Default)]
pub struct LineBase {
    source: Option<Arc<Source>>,
    /// The source line of the next chunk's first line.
    next: u64,
}

impl LineBase {
    /// What to add to `chunk`'s line numbers to make them the source's.
    pub fn offset(&mut self, chunk: &Chunk) -> u64 {
        if !chunk.relative_lines {
            return 0;
        }
        let same = self
            .source
            .as_ref()
            .is_some_and(|s| Arc::ptr_eq(s, &chunk.source));
        if !same {
            self.source = Some(Arc::clone(&chunk.source));
            self.next = 1;
        }
        self.next - 1
    }

    /// Moves past `chunk`, which held `lines` lines (a piece of an
    /// over-long line moves one line on at the line's end).
    pub fn advance(&mut self, chunk: &Chunk, lines: u64) {
        if chunk.relative_lines {
            self.next += match chunk.oversize {
                Some(piece) => u64::from(piece.last),
                None => lines,
            };
        }
    }

    /// Makes the numbers of `p`'s rejects the source's, and moves past
    /// the chunk.
    pub fn fix<X>(&mut self, chunk: &Chunk, p: &mut Processed<X>) {
        let add = self.offset(chunk);
        if add > 0 {
            for rej in p.rejects.iter_mut().chain(p.stopped.as_mut()) {
                rej.line += add;
            }
        }
        self.advance(chunk, p.tally.lines);
    }
}

/// What an operation counts, each worker for its share, added up in input
/// order by the [`Ledger`]: the engine's [`Tally`] for the URL jobs; a
/// link reader's pages and links for `links`.
pub trait Count: Default {
    /// Adds `other`'s counts to these.
    fn merge(&mut self, other: &Self);
}

impl Count for Tally {
    fn merge(&mut self, other: &Tally) {
        Tally::merge(self, other);
    }
}

/// Writes the per-chunk results in input order: output, rejects, the
/// strict stop, the pieces of over-long lines; and adds up the counts.
/// `W` takes the output, `R` the rejects records, `T` counts (the
/// engine's [`Tally`], or an operation's own [`Count`]).
pub struct Ledger<W, R = io::Sink, T = Tally> {
    out: W,
    rejects: Option<R>,
    tally: T,
    policy: Policy,
    terminator: u8,
    lines: LineBase,
}

impl<W: Write, R: Write> Ledger<W, R> {
    /// A ledger writing output to `out` and, when given, rejects records to
    /// `rejects`; `terminator` ends URL lines (`\n`, or NUL with `-0`).
    pub fn new(out: W, rejects: Option<R>, policy: Policy, terminator: u8) -> Ledger<W, R> {
        Ledger {
            policy,
            terminator,
            ..Ledger::counting(out, rejects)
        }
    }

    /// Takes one chunk's results: writes its output and settles its bad
    /// records ([`Ledger::settle`]); a piece of an over-long line goes to
    /// [`Ledger::oversize`]. `Ok(true)`: go on.
    pub fn consume<X>(&mut self, chunk: &Chunk, p: &mut Processed<X>) -> Result<bool, Error> {
        if chunk.oversize.is_some() {
            let pass = self.policy.keep_invalid;
            self.oversize(chunk, pass)?;
            return Ok(true);
        }
        self.tally.merge(&p.tally);
        write_pieces(&mut self.out, p.output(&chunk.data)).map_err(Error::Output)?;
        self.settle(chunk, p)
    }

    /// Numbers a chunk's bad records in their source, writes them to the
    /// rejects, and ends the run with [`Error::Strict`] if the chunk
    /// stopped at one (its record is the rejects' last). The chunk's tally
    /// is not added: [`Ledger::consume`] does that, or the caller.
    pub fn settle<X>(&mut self, chunk: &Chunk, p: &mut Processed<X>) -> Result<bool, Error> {
        self.lines.fix(chunk, p);
        if let Some(r) = &mut self.rejects {
            for rej in p.rejects.iter().chain(&p.stopped) {
                write_reject(r, &chunk.source.name, rej).map_err(Error::Rejects)?;
            }
        }
        if let Some(stop) = &p.stopped {
            return Err(self.stop(&chunk.source.name, stop));
        }
        Ok(true)
    }

    /// A piece of a line over the record limit: counted once (as a bad
    /// record), streamed to the output when `pass` (`--keep-invalid`) and
    /// to the rejects, a stop under `--strict`.
    pub fn oversize(&mut self, chunk: &Chunk, pass: bool) -> Result<(), Error> {
        let piece = chunk.oversize.expect("an over-long line's piece");
        let reason = Reason::TooLong;
        let line = chunk.first_line + self.lines.offset(chunk);
        self.lines.advance(chunk, 0);
        self.tally.bytes += chunk.data.len() as u64 + u64::from(piece.newline);
        let name = &chunk.source.name;
        if piece.first {
            self.tally.lines += 1;
            self.tally.add_bad(reason);
            if let Some(r) = &mut self.rejects {
                write_reject_head(r, name, line, chunk.offset, reason).map_err(Error::Rejects)?;
            }
            if self.policy.strict {
                if let Some(r) = &mut self.rejects {
                    write_escaped(r, &chunk.data)
                        .and_then(|()| r.write_all(b"\n"))
                        .map_err(Error::Rejects)?;
                }
                let stop = Rejected {
                    line,
                    offset: chunk.offset,
                    reason,
                    raw: Vec::new(),
                };
                return Err(self.stop(name, &stop));
            }
        }
        if let Some(r) = &mut self.rejects {
            write_escaped(r, &chunk.data)
                .and_then(|()| {
                    if piece.last {
                        r.write_all(b"\n")
                    } else {
                        Ok(())
                    }
                })
                .map_err(Error::Rejects)?;
        }
        if pass {
            self.out.write_all(&chunk.data).map_err(Error::Output)?;
            if piece.last {
                self.out
                    .write_all(&[self.terminator])
                    .map_err(Error::Output)?;
            }
        }
        Ok(())
    }

    /// The `--strict` error for `stop`; the rejects, which end with its
    /// record, are flushed first.
    fn stop(&mut self, source: &str, stop: &Rejected) -> Error {
        if let Some(Err(e)) = self.rejects.as_mut().map(Write::flush) {
            return Error::Rejects(e);
        }
        Error::Strict(Stop {
            source: source.to_string(),
            line: stop.line,
            offset: stop.offset,
            reason: stop.reason,
        })
    }
}

impl<W, R: Write, T: Count> Ledger<W, R, T> {
    /// A ledger of an operation that counts in `T` and writes its own
    /// output through [`Ledger::out`] (`links`: text rows, or Parquet
    /// columns); rejects records go to `rejects`, when given.
    ///
    /// ```
    /// use urlsift_records::{Count, Ledger};
    ///
    /// #[derive(Default)]
    /// struct Pages(u64);
    /// impl Count for Pages {
    ///     fn merge(&mut self, other: &Pages) {
    ///         self.0 += other.0;
    ///     }
    /// }
    ///
    /// let mut ledger: Ledger<Vec<u8>, Vec<u8>, Pages> = Ledger::counting(Vec::new(), Some(Vec::new()));
    /// ledger.add(&Pages(2), b"a.warc\t-\t0\tbad-xml\t<\n")?;
    /// ledger.add(&Pages(1), b"")?;
    /// let (_, rejects, pages) = ledger.into_parts();
    /// assert_eq!((pages.0, rejects.unwrap()), (3, b"a.warc\t-\t0\tbad-xml\t<\n".to_vec()));
    /// # Ok::<(), urlsift_records::Error>(())
    /// ```
    pub fn counting(out: W, rejects: Option<R>) -> Ledger<W, R, T> {
        Ledger {
            out,
            rejects,
            tally: T::default(),
            policy: Policy::default(),
            terminator: b'\n',
            lines: LineBase::default(),
        }
    }

    /// Settles one record's (or chunk's) share, in input order: adds its
    /// counts and writes its rejects records (written by the worker, as
    /// [`write_reject_line`] writes them).
    pub fn add(&mut self, counts: &T, rejects: &[u8]) -> Result<(), Error> {
        self.tally.merge(counts);
        match &mut self.rejects {
            Some(r) if !rejects.is_empty() => r.write_all(rejects).map_err(Error::Rejects),
            _ => Ok(()),
        }
    }

    /// The output, for work that writes in order itself (`dedup`).
    pub fn out(&mut self) -> &mut W {
        &mut self.out
    }

    /// The counts so far.
    pub fn tally(&self) -> &T {
        &self.tally
    }

    /// The counts so far, for work that adds to them itself.
    pub fn tally_mut(&mut self) -> &mut T {
        &mut self.tally
    }

    /// The output, the rejects and the counts, for the caller to finish
    /// (flush, commit a file) as the run ended.
    pub fn into_parts(self) -> (W, Option<R>, T) {
        (self.out, self.rejects, self.tally)
    }
}

impl<W: Write, R, T> Ledger<W, R, T> {
    /// Writes `bytes` to the output (a header, say).
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.out.write_all(bytes).map_err(Error::Output)
    }
}

/// Writes `pieces` in order, many to a system call (`write_vectored`,
/// which a writer may take straight to its target): a chunk's output is
/// runs of its input between rewritten records, and copying each run into
/// a buffer first would cost a pass over every byte.
pub fn write_pieces<'a, W: Write + ?Sized>(
    out: &mut W,
    pieces: impl Iterator<Item = &'a [u8]>,
) -> io::Result<()> {
    /// Pieces gathered into one call (Linux's `writev` takes up to 1024).
    const PIECES: usize = 1024;
    let mut batch: Vec<IoSlice<'a>> = Vec::with_capacity(PIECES);
    for piece in pieces.filter(|p| !p.is_empty()) {
        batch.push(IoSlice::new(piece));
        if batch.len() == PIECES {
            write_batch(out, &mut batch)?;
        }
    }
    write_batch(out, &mut batch)
}

/// Writes all of `batch`, which it empties.
fn write_batch<W: Write + ?Sized>(out: &mut W, batch: &mut Vec<IoSlice<'_>>) -> io::Result<()> {
    let mut rest = &mut batch[..];
    while !rest.is_empty() {
        match out.write_vectored(rest) {
            Ok(0) => return Err(io::Error::new(io::ErrorKind::WriteZero, "wrote nothing")),
            Ok(n) => IoSlice::advance_slices(&mut rest, n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    batch.clear();
    Ok(())
}

/// One rejects record for `rej` of `source` (see the module's docs).
pub fn write_reject<W: Write + ?Sized>(
    out: &mut W,
    source: &str,
    rej: &Rejected,
) -> io::Result<()> {
    write_reject_head(out, source, rej.line, rej.offset, rej.reason)?;
    write_escaped(out, &rej.raw)?;
    out.write_all(b"\n")
}

/// One rejects record of any reader (as `urlsift links` writes its bad
/// records and links): `source`, `line` (`-` for 0), `offset`, `reason`
/// and `raw` escaped, tab-separated (see the module's docs).
///
/// ```
/// let mut out = Vec::new();
/// urlsift_records::write_reject_line(&mut out, "a.warc", 0, 42, "bad-xml", b"x\ty")?;
/// assert_eq!(out, b"a.warc\t-\t42\tbad-xml\tx\\ty\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_reject_line<W: Write + ?Sized>(
    out: &mut W,
    source: &str,
    line: u64,
    offset: u64,
    reason: impl std::fmt::Display,
    raw: &[u8],
) -> io::Result<()> {
    write_reject_head(out, source, line, offset, reason)?;
    write_escaped(out, raw)?;
    out.write_all(b"\n")
}

fn write_reject_head<W: Write + ?Sized>(
    out: &mut W,
    source: &str,
    line: u64,
    offset: u64,
    reason: impl std::fmt::Display,
) -> io::Result<()> {
    let line = if line > 0 {
        line.to_string()
    } else {
        "-".to_string()
    };
    out.write_all(format!("{source}\t{line}\t{offset}\t{reason}\t").as_bytes())
}

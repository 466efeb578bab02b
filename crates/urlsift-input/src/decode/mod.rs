//! Decoding compressed input: which format a source is in (magic bytes),
//! gzip members and zstd frames decoded on a thread of their own into a
//! small ring of reused buffers, and faults that say what and where.
//!
//! The promises, each tested in `tests.rs`:
//!
//! - **Nothing decoded is lost.** Every byte decoded before a fault is
//!   handed out by `read` before the error. The decoders are driven so
//!   that a failing call cannot have decoded bytes it does not report
//!   (`gzip.rs`: the inflater's counters are exact even on error;
//!   `zstd.rs`: the input is fed one block at a time, because libzstd does
//!   not report the output of a call that fails).
//! - **Faults name what and where**: truncated or corrupt at byte N of the
//!   compressed input, in member (gzip) or frame (zstd) K that started at
//!   byte M ([`DecodeError`]).
//! - **Nothing damaged is handed out as data.** A member's or frame's
//!   bytes are held until its check (CRC-32, zstd checksum) passes, up to
//!   `hold::LIMIT` of them (`hold.rs`); a unit that fails it hands its
//!   bytes out with the fault instead ([`Damaged`]), for the reader to set
//!   aside. A cut unit's bytes are data: they are exact as far as they go.
//! - **A damaged member or frame does not take the rest with it.** After
//!   a corrupt gzip member or zstd frame (or bytes between two that are
//!   neither), the decoder searches on for the next member header or
//!   frame magic number and goes on from there (`fault.rs`,
//!   `Source::skip_to`). The fault is handed out in order, between the
//!   bytes before and after the gap, marked as resumed
//!   ([`DecodeError::resumed`], [`resumes`]), and the stream goes on. Only
//!   a cut, a read error, or a fault after which nothing follows ends the
//!   stream.
//! - **Trailing bytes after the last complete member or frame are not an
//!   ordinary error**: every member is decoded and handed out, then a
//!   [`Fault::TrailingGarbage`] error follows, which the caller can tell
//!   apart ([`is_trailing_garbage`]) and treat as `gzip -d` does: a warning
//!   and exit status 2, all data kept. Trailing zero bytes (padding, as
//!   tapes and some tools add) are ignored, as `gzip -d` ignores them.
//!
//! Uncompressed input is not touched here: a regular file comes back as
//! the [`File`] itself so the caller can map it, and a pipe as a reader.
//!
//! A gzip file of many small members is decoded on several threads at
//! once (`parallel.rs`), and so is one whose first member is big, with
//! three cores or more (`big_member.rs`): both with the same output and
//! faults as in order. One zstd frame is decoded by one thread: where
//! its blocks start is known only by decoding the ones before them
//! (`pzstd` writes many frames, which are decoded side by side).
//!
//! ```
//! use std::io::{Read, Write};
//! use urlsift_input::decode::{self, Fault, Compression};
//!
//! # let tmp = tempfile::Builder::new().prefix("urlsift-doc-decode-").tempdir()?;
//! # let dir = tmp.path();
//! let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
//! gz.write_all(b"https://e.com/a\nhttps://e.com/b\n")?;
//! let gz = gz.finish()?;
//! let path = dir.join("urls.txt.gz");
//! std::fs::write(&path, &gz)?;
//! let input = decode::open(&path)?;
//! assert_eq!(input.format(), Some(Compression::Gzip));
//! let mut text = String::new();
//! input.into_reader().read_to_string(&mut text)?;
//! assert_eq!(text, "https://e.com/a\nhttps://e.com/b\n");
//!
//! // Cut short: what was decoded comes first, then the fault, named.
//! std::fs::write(&path, &gz[..gz.len() - 6])?;
//! let mut cut = Vec::new();
//! let err = decode::open(&path)?.into_reader().read_to_end(&mut cut).unwrap_err();
//! let fault = decode::decode_error(&err).expect("a decoding fault");
//! assert_eq!(fault.fault, Fault::Truncated);
//! assert!(err.to_string().starts_with("gzip data is truncated at byte"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod big_member;
mod compression;
mod fault;
mod gzip;
mod hold;
mod parallel;
mod ring;
mod source;
mod unit;
mod zstd;

#[cfg(test)]
mod big_member_tests;
#[cfg(test)]
mod parallel_tests;
#[cfg(test)]
mod ring_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod zstd_tests;

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use crate::timings::BusyClock;
pub use compression::Compression;
pub use fault::{Damaged, DecodeError, Fault, decode_error, is_trailing_garbage, resumes};
pub use ring::{Decoded, Home, Whole};
use source::Source;
pub use zstd::{DICTIONARY_MAX, dictionary_of};
#[cfg(test)]
use {fault::Decode, ring::decoder};

/// An opened input, in the form the reader should take it.
pub enum Input {
    /// An uncompressed regular file, positioned at its start: the caller
    /// may read it or map it.
    File(File),
    /// Uncompressed bytes from standard input, a pipe or a device, to be
    /// read in order (the bytes peeked to detect the format come first).
    Pipe(Box<dyn Read + Send>),
    /// A compressed input's decoded bytes, decoded on a thread of its own.
    Decoded(Decoded),
}

impl Input {
    /// The input's compressed format, `None` when it is plain.
    pub fn format(&self) -> Option<Compression> {
        match self {
            Input::File(_) | Input::Pipe(_) => None,
            Input::Decoded(d) => Some(d.format()),
        }
    }
}

impl Input {
    /// The input as one byte stream, whatever its form.
    pub fn into_reader(self) -> Box<dyn Read + Send> {
        match self {
            Input::File(file) => Box::new(file),
            Input::Pipe(reader) => reader,
            Input::Decoded(decoded) => Box::new(decoded),
        }
    }
}

/// How a compressed input is decoded: on up to `cores` threads
/// ([`crate::cores::capped`]; one: as the input is read, on the reader's
/// thread), the decoding's busy time added to `clock`. When several
/// sources are read side by side, `share` is this one's part of the
/// cores: one big gzip member and zstd frames are decoded on the share
/// (a big member on that many threads from three, `big_member.rs`; zstd
/// frames in order below three), gzip member batches on every core, since their threads wait,
/// taking no core, while the source is ahead of the one being written
/// (its share of the chunk budget full). A number of cores alone is one
/// source's, with a clock nobody reads.
///
/// ```
/// use urlsift_input::decode::Decoding;
/// use urlsift_input::timings::BusyClock;
///
/// let clock = BusyClock::default();
/// let decoding = Decoding { cores: 2, share: 1, clock: clock.clone(), whole: None };
/// assert_eq!(Decoding::from(4).cores, 4);
/// assert_eq!(Decoding::from(4).share, 4);
/// # let _ = decoding;
/// ```
#[derive(Clone, Debug)]
pub struct Decoding {
    /// The most threads decoding may use.
    pub cores: usize,
    /// This source's part of `cores` while others are read beside it
    /// (`cores` when it is read alone).
    pub share: usize,
    /// Where the decoding threads add their busy time.
    pub clock: BusyClock,
    /// What says a batch job's bytes are whole records, so that they may
    /// be handed on whole ([`Decoded::take_whole`]); `None`: never asked.
    pub whole: Option<WholeCheck>,
}

impl From<usize> for Decoding {
    fn from(cores: usize) -> Decoding {
        Decoding {
            cores,
            share: cores,
            clock: BusyClock::default(),
            whole: None,
        }
    }
}

/// A check the threads that decode gzip members and zstd frames in
/// batches run on each job's bytes (whole members or frames, from a
/// boundary known to follow the bytes before): whether they are whole
/// records of the reader's format, each starting and ending inside them,
/// and if so the places the format marks in them (where its records
/// start, say), so that nobody needs to look for them again. Such a
/// buffer may be taken whole ([`Decoded::take_whole`]) and its records
/// cut by whoever takes it, on any thread.
///
/// ```
/// use urlsift_input::decode::WholeCheck;
///
/// // Whole lines, marked where each ends.
/// let lines = WholeCheck::new(|bytes| {
///     bytes.ends_with(b"\n").then(|| memchr::memchr_iter(b'\n', bytes).collect())
/// });
/// assert_eq!(lines.check(b"https://a.example/\nhttps://b.example/\n"), Some(vec![18, 37]));
/// assert_eq!(lines.check(b"https://a.exa"), None);
/// ```
#[derive(Clone)]
pub struct WholeCheck(std::sync::Arc<Check>);

/// The function a [`WholeCheck`] runs.
type Check = dyn Fn(&[u8]) -> Option<Vec<usize>> + Send + Sync;

impl WholeCheck {
    /// The check `f`.
    pub fn new(f: impl Fn(&[u8]) -> Option<Vec<usize>> + Send + Sync + 'static) -> WholeCheck {
        WholeCheck(std::sync::Arc::new(f))
    }

    /// The marks of `bytes` if they are whole records; `None` if not.
    pub fn check(&self, bytes: &[u8]) -> Option<Vec<usize>> {
        (self.0)(bytes)
    }
}

impl std::fmt::Debug for WholeCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WholeCheck")
    }
}

/// Opens a file, or standard input for `-`, and picks its form by magic
/// bytes: gzip and zstd start decoding at once on a thread of their own.
pub fn open(path: &Path) -> io::Result<Input> {
    open_with(path, crate::cores::machine())
}

/// [`open`], decoding as `decoding` says ([`Decoding`]: a number of
/// cores will do).
pub fn open_with(path: &Path, decoding: impl Into<Decoding>) -> io::Result<Input> {
    let decoding = decoding.into();
    if path == Path::new("-") {
        return from_stream(Box::new(io::stdin()), decoding);
    }
    let mut file = File::open(path)?;
    if !file.metadata()?.is_file() {
        // A FIFO or device: it cannot seek back over the peeked bytes.
        return from_stream(Box::new(file), decoding);
    }
    let mut head = [0u8; 4];
    let got = read_up_to(&mut file, &mut head)?;
    file.seek(SeekFrom::Start(0))?;
    // A `.gz` or `.zst` file whose first bytes are not the magic number is
    // taken as damaged there, not as text: read as text, its compressed
    // bytes would pass for lines (some even for URLs), where decoding
    // reports the bad header and goes on at the next member or frame.
    let format = Compression::detect(&head[..got])
        .or_else(|| (got > 0).then(|| Compression::named(path))?);
    let share = decoding.share.min(decoding.cores);
    Ok(match format {
        None => Input::File(file),
        Some(Compression::Gzip) if big_member::worth_it(&mut file, share)? => {
            Input::Decoded(Decoded::big_member(file, decoding))
        }
        Some(format) => Input::Decoded(Decoded::start(
            format,
            Source::new(Box::new(file)),
            decoding,
        )),
    })
}

/// A stream (a pipe, a ZIP entry), its form picked by its first bytes as
/// [`open`] picks a file's: gzip and zstd decoded as `decoding` says (a
/// number of cores will do), anything else read as it is.
///
/// ```
/// use std::io::Read;
/// use urlsift_input::decode;
///
/// let mut text = String::new();
/// decode::open_stream(Box::new(&b"https://e.com/\n"[..]), 1)?
///     .into_reader()
///     .read_to_string(&mut text)?;
/// assert_eq!(text, "https://e.com/\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn open_stream(
    inner: Box<dyn Read + Send>,
    decoding: impl Into<Decoding>,
) -> io::Result<Input> {
    from_stream(inner, decoding.into())
}

/// A stream that cannot seek: its first bytes stay in the source's buffer.
fn from_stream(inner: Box<dyn Read + Send>, decoding: Decoding) -> io::Result<Input> {
    let mut source = Source::new(inner);
    let head = source.peek(4)?;
    Ok(match Compression::detect(head) {
        None => Input::Pipe(source.into_reader()),
        Some(format) => Input::Decoded(Decoded::start(format, source, decoding)),
    })
}

/// Reads until `buf` is full or the input ends; returns the count.
fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

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
//!   frame magic number and goes on from there ([`resume`],
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
//! once (`parallel.rs`), with the same output and faults as in order.

mod gzip;
mod hold;
mod parallel;
mod ring;
mod source;
mod zstd;

#[cfg(test)]
mod parallel_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod zstd_tests;

use std::fmt;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::Arc;

pub use ring::Decoded;
use source::Source;

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// Whether `head` starts a zstd skippable frame (magic `0x184D2A5?`, little endian).
fn is_skippable_magic(head: &[u8]) -> bool {
    matches!(head, [b, 0x2a, 0x4d, 0x18, ..] if b & 0xf0 == 0x50)
}

/// A compressed format urlsift decodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One or more gzip members (RFC 1952).
    Gzip,
    /// One or more zstd frames, skippable frames included (RFC 8878).
    Zstd,
}

impl Format {
    /// The format whose magic bytes start `head`, if any. `head` holds the
    /// source's first four bytes (fewer if it is shorter).
    pub fn detect(head: &[u8]) -> Option<Format> {
        if head.starts_with(&GZIP_MAGIC) {
            Some(Format::Gzip)
        } else if head.starts_with(&ZSTD_MAGIC) || is_skippable_magic(head) {
            Some(Format::Zstd)
        } else {
            None
        }
    }

    /// The format a file name ends in: `.gz` or `.zst` (in any case).
    pub fn named(path: &Path) -> Option<Format> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        if name.ends_with(".gz") {
            Some(Format::Gzip)
        } else if name.ends_with(".zst") {
            Some(Format::Zstd)
        } else {
            None
        }
    }

    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Gzip => "gzip",
            Format::Zstd => "zstd",
        }
    }

    /// What the format calls one self-contained unit.
    fn unit(self) -> &'static str {
        match self {
            Format::Gzip => "member",
            Format::Zstd => "frame",
        }
    }
}

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

#[allow(dead_code)] // The chunk reader's mmap path will ask (issue 17).
impl Input {
    /// The input's compressed format, `None` when it is plain.
    pub fn format(&self) -> Option<Format> {
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

/// Opens a file, or standard input for `-`, and picks its form by magic
/// bytes: gzip and zstd start decoding at once on a thread of their own.
pub fn open(path: &Path) -> io::Result<Input> {
    if path == Path::new("-") {
        return from_stream(Box::new(io::stdin()));
    }
    let mut file = File::open(path)?;
    if !file.metadata()?.is_file() {
        // A FIFO or device: it cannot seek back over the peeked bytes.
        return from_stream(Box::new(file));
    }
    let mut head = [0u8; 4];
    let got = read_up_to(&mut file, &mut head)?;
    file.seek(SeekFrom::Start(0))?;
    // A `.gz` or `.zst` file whose first bytes are not the magic number is
    // taken as damaged there, not as text: read as text, its compressed
    // bytes would pass for lines (some even for URLs), where decoding
    // reports the bad header and goes on at the next member or frame.
    let format = Format::detect(&head[..got]).or_else(|| (got > 0).then(|| Format::named(path))?);
    Ok(match format {
        None => Input::File(file),
        Some(format) => Input::Decoded(Decoded::start(format, Source::new(Box::new(file)))),
    })
}

/// A stream that cannot seek: its first bytes stay in the source's buffer.
fn from_stream(inner: Box<dyn Read + Send>) -> io::Result<Input> {
    let mut source = Source::new(inner);
    let head = source.peek(4)?;
    Ok(match Format::detect(head) {
        None => Input::Pipe(source.into_reader()),
        Some(format) => Input::Decoded(Decoded::start(format, source)),
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

/// What went wrong in a compressed input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The input ended inside a member or frame.
    Truncated,
    /// The data breaks the format; the reason as the decoder gave it.
    Corrupt(String),
    /// Bytes that are neither a member/frame nor zero padding follow the
    /// last complete member or frame. Everything before them was decoded.
    TrailingGarbage,
}

/// A fault in a compressed input, where it was found.
///
/// `offset` counts bytes of the compressed input. Its precision: for
/// truncation it is the input's length; for trailing garbage, the first
/// byte after the last member or frame; for a bad gzip header or trailer,
/// the offending field; for damaged gzip data, how far the inflater had
/// read when it stopped (it reads a few bytes ahead, and damage it cannot
/// see is caught only by the member's CRC at its end); for damaged zstd
/// data, the start of the block in which libzstd found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// The input's compression.
    pub format: Format,
    /// What went wrong.
    pub fault: Fault,
    /// Where, in bytes of the compressed input.
    pub offset: u64,
    /// The 1-based number of the member (gzip) or frame (zstd) the fault
    /// is in, and the byte where it started; `None` for trailing garbage.
    pub unit: Option<(u64, u64)>,
    /// Where decoding went on after the fault (the next member's first
    /// byte), when it did: the stream continues after this error.
    pub resumed: Option<u64>,
    /// What the member or frame decoded to before its check failed: bytes
    /// not handed out as data (see `hold.rs`), but not lost either.
    pub damaged: Option<Damaged>,
    /// When decoding resumed: every member or frame decoded before the
    /// fault ended with a line feed (and there was one), so the input was
    /// cut into them at line ends and the one decoding resumes at starts a
    /// line. Otherwise the bytes after the gap may begin inside a line
    /// ([`UnitEnds`]).
    pub aligned: bool,
}

/// The decoded bytes of a member or frame that failed its check (a CRC-32
/// or checksum mismatch, or data the decoder could not go on with): they
/// follow the bytes handed out before the fault, and precede those after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damaged {
    /// What the unit decoded to.
    pub bytes: Arc<Vec<u8>>,
    /// Every byte of the unit is there, only wrong somewhere (its check
    /// failed, its length is right): what follows the fault continues
    /// right after them. Otherwise the unit's end was lost.
    pub whole: bool,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, unit) = (self.format.name(), self.format.unit());
        match &self.fault {
            Fault::Truncated => write!(f, "{name} data is truncated at byte {}", self.offset)?,
            Fault::Corrupt(_) => write!(f, "{name} data is corrupt at byte {}", self.offset)?,
            Fault::TrailingGarbage => write!(
                f,
                "{name} data is followed by trailing garbage at byte {} \
                 (every {unit} before it was decoded)",
                self.offset
            )?,
        }
        if let Some((number, start)) = self.unit {
            write!(f, " ({unit} {number} started at byte {start})")?;
        }
        if let Fault::Corrupt(reason) = &self.fault {
            write!(f, ": {reason}")?;
        }
        if let Some(d) = &self.damaged {
            let n = d.bytes.len();
            let s = if n == 1 { "" } else { "s" };
            write!(
                f,
                "; the {n} byte{s} it decoded to are set aside as damaged"
            )?;
        }
        if let Some(at) = self.resumed {
            write!(
                f,
                "; decoding went on with the next {unit} found, at byte {at}"
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for DecodeError {}

impl From<DecodeError> for io::Error {
    fn from(e: DecodeError) -> io::Error {
        let kind = match e.fault {
            Fault::Truncated => io::ErrorKind::UnexpectedEof,
            Fault::Corrupt(_) | Fault::TrailingGarbage => io::ErrorKind::InvalidData,
        };
        io::Error::new(kind, e)
    }
}

/// The decoding fault an I/O error carries, if it is one.
pub fn decode_error(e: &io::Error) -> Option<&DecodeError> {
    e.get_ref()?.downcast_ref::<DecodeError>()
}

/// Fault `e` as decoding resumes after it: `Ok`, marked resumed at the
/// offset `next` finds (the next member or frame, where the caller goes
/// on; `aligned`: units so far ended at line ends, see [`UnitEnds`]), or
/// `Err(e)` as it was when `e` is a cut or a read error, or when nothing
/// follows (or the input fails while `next` searches).
fn resume(
    e: io::Error,
    aligned: bool,
    next: impl FnOnce() -> io::Result<Option<u64>>,
) -> Result<io::Error, io::Error> {
    let Some(fault) = decode_error(&e).filter(|d| d.fault != Fault::Truncated) else {
        return Err(e);
    };
    let mut fault = fault.clone();
    let Ok(Some(at)) = next() else {
        return Err(e);
    };
    if fault.fault == Fault::TrailingGarbage {
        // Not trailing after all: a member or frame follows.
        let (name, unit) = (fault.format.name(), fault.format.unit());
        fault.fault = Fault::Corrupt(format!("bytes that are not a {name} {unit}"));
    }
    fault.resumed = Some(at);
    fault.aligned = aligned;
    Ok(fault.into())
}

/// How the members or frames decoded so far ended: with a line feed, or
/// not. Inputs cut into members at line ends (`cat a.gz b.gz` of text
/// files, Common Crawl's index shards) end every one with a line feed; a
/// file cut by size (`split -b`, bgzip's blocks) mostly does not.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct UnitEnds {
    at_lines: u64,
    elsewhere: bool,
}

impl UnitEnds {
    /// A unit ended; `last` is its last decoded byte (`None`: it was empty).
    pub fn add(&mut self, last: Option<u8>) {
        match last {
            None => {}
            Some(b'\n') => self.at_lines += 1,
            Some(_) => self.elsewhere = true,
        }
    }

    /// Whether every unit that ended so far (at least one) ended a line.
    pub fn at_lines(&self) -> bool {
        self.at_lines > 0 && !self.elsewhere
    }
}

/// Whether `e` reports a fault after which decoding went on: the bytes
/// read after it follow a gap, and the stream is not over.
pub fn resumes(e: &io::Error) -> bool {
    decode_error(e).is_some_and(|d| d.resumed.is_some())
}

/// Whether `e` reports trailing garbage after complete data: a warning
/// (exit status 2, as `gzip -d` gives), not lost data.
#[allow(dead_code)] // The chunk reader will ask (issue 17).
pub fn is_trailing_garbage(e: &io::Error) -> bool {
    decode_error(e).is_some_and(|d| d.fault == Fault::TrailingGarbage)
}

/// An equal error, for a stream that keeps failing once it has failed.
fn again(e: &io::Error) -> io::Error {
    match decode_error(e) {
        Some(d) => d.clone().into(),
        None => io::Error::new(e.kind(), e.to_string()),
    }
}

/// How a decoder's stream stands. A fault, once met, is returned on every
/// later call; a fault that decoding resumed after is returned once.
enum Progress {
    Going,
    Done,
    Failed(io::Error),
    /// A fault after which decoding went on ([`resumes`]).
    Resumed(io::Error),
}

impl Progress {
    /// What a decode call with `n` of `room` bytes written must return now,
    /// if it must: the bytes decoded before a fault come first.
    fn ended(&mut self, n: usize, room: usize) -> Option<io::Result<usize>> {
        match self {
            Progress::Failed(e) if n == 0 => Some(Err(again(e))),
            Progress::Resumed(_) if n == 0 => {
                let Progress::Resumed(e) = std::mem::replace(self, Progress::Going) else {
                    unreachable!("matched above")
                };
                Some(Err(e))
            }
            Progress::Failed(_) | Progress::Resumed(_) | Progress::Done => Some(Ok(n)),
            Progress::Going => (n == room).then_some(Ok(n)),
        }
    }
}

/// A compressed stream's decoder, as the ring thread drives it.
trait Decode: Send {
    /// Decodes into `out` and returns how many bytes it wrote; `Ok(0)`
    /// (with `out` non-empty) at the clean end. After a fault, the bytes
    /// decoded before it come first (`Ok(n)`), then the fault on this and
    /// every later call.
    fn decode(&mut self, out: &mut [u8]) -> io::Result<usize>;
}

/// The decoder for `format` over `source`.
fn decoder(format: Format, source: Source) -> Box<dyn Decode> {
    match format {
        Format::Gzip => parallel::decoder(source),
        Format::Zstd => Box::new(zstd::Zstd::new(source)),
    }
}

/// How a decoder ends after its last member or frame: nothing more,
/// zero padding (ignored), or trailing garbage (an error). Consumes any
/// zero bytes.
fn check_end(source: &mut Source, format: Format) -> io::Result<()> {
    let at = source.offset();
    loop {
        let bytes = source.fill_buf()?;
        if bytes.is_empty() {
            return Ok(());
        }
        match bytes.iter().position(|&b| b != 0) {
            Some(_) => {
                return Err(DecodeError {
                    format,
                    fault: Fault::TrailingGarbage,
                    offset: at,
                    unit: None,
                    resumed: None,
                    damaged: None,
                    aligned: false,
                }
                .into());
            }
            None => {
                let n = bytes.len();
                source.take(n);
            }
        }
    }
}

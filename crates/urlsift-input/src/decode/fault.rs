//! What the decoders share: faults and where they were found, the bytes
//! a damaged unit decoded to, how decoding resumes after a fault, and the
//! decoder trait the ring thread drives.

use std::fmt;
use std::io;
use std::sync::Arc;

use super::compression::Compression;
use super::source::Source;

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
    pub format: Compression,
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
    /// (`UnitEnds`).
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
pub(super) fn resume(
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

    /// Adds how the units `later` counted ended (a parallel job's).
    pub fn merge(&mut self, later: UnitEnds) {
        self.at_lines += later.at_lines;
        self.elsewhere |= later.elsewhere;
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
pub fn is_trailing_garbage(e: &io::Error) -> bool {
    decode_error(e).is_some_and(|d| d.fault == Fault::TrailingGarbage)
}

/// An equal error, for a stream that keeps failing once it has failed.
pub(super) fn again(e: &io::Error) -> io::Error {
    match decode_error(e) {
        Some(d) => d.clone().into(),
        None => io::Error::new(e.kind(), e.to_string()),
    }
}

/// How a decoder's stream stands. A fault, once met, is returned on every
/// later call; a fault that decoding resumed after is returned once.
pub(super) enum Progress {
    Going,
    Done,
    Failed(io::Error),
    /// A fault after which decoding went on ([`resumes`]).
    Resumed(io::Error),
}

impl Progress {
    /// What a decode call with `n` of `room` bytes written must return now,
    /// if it must: the bytes decoded before a fault come first.
    pub(super) fn ended(&mut self, n: usize, room: usize) -> Option<io::Result<usize>> {
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
pub(super) trait Decode: Send {
    /// Decodes into `out` and returns how many bytes it wrote; `Ok(0)`
    /// (with `out` non-empty) at the clean end. After a fault, the bytes
    /// decoded before it come first (`Ok(n)`), then the fault on this and
    /// every later call.
    fn decode(&mut self, out: &mut [u8]) -> io::Result<usize>;

    /// The next decoded bytes as a whole buffer (`buf[..len]`, what
    /// [`Decode::decode`] would copy out next), handed over instead of
    /// copied, when the decoder has one at hand (the parallel decoder's
    /// batches), and the marks of the decoder's
    /// [`WholeCheck`](super::WholeCheck) if they passed it; `None`
    /// otherwise: then call `decode`.
    #[allow(clippy::type_complexity)]
    fn take_ready(&mut self) -> Option<(Vec<u8>, usize, Option<Vec<usize>>)> {
        None
    }

    /// A spent buffer the decoder may reuse (one given back for each
    /// taken by [`Decode::take_ready`]).
    fn recycle(&mut self, _buf: Vec<u8>) {}
}

/// How a decoder ends after its last member or frame: nothing more,
/// zero padding (ignored), or trailing garbage (an error). Consumes any
/// zero bytes.
pub(super) fn check_end(source: &mut Source, format: Compression) -> io::Result<()> {
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

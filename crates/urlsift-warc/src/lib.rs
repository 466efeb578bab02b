//! urlsift's WARC and ARC reader: records of web archives (WARC 1.0/1.1,
//! and ARC, the format before WARC), the HTTP messages their blocks hold
//! ([`http`]), and the CDXJ index of their files ([`index`]). The record
//! engine (`urlsift-records`), link extraction (`urlsift-links`) and the
//! command's `index` and `get` read archives through it.
//!
//! A file is plain, or gzip per record as `.warc.gz` files are (the input
//! crate's decoder reads it as one stream). ARC files are read by the same
//! reader in their own dialect ([`arc`]): a record's header is one line.
//!
//! The reader delimits records itself: it reads a record's header block,
//! keeps it, and skips the block's `Content-Length` bytes of payload
//! without parsing them (payloads are not held in memory beyond the
//! bounded look-ahead that checks a length, so a gigabyte video record
//! costs no more than a small one). A plain file is mapped, so a payload
//! is not even read: skipping it is an addition, and only the header
//! blocks are copied out. A record whose header is not a WARC header, or
//! has no usable Content-Length, is a bad record ([`RecordFault`]); reading
//! resumes at the next line that starts a WARC header. A Content-Length
//! past the end of the input is a bad record too.
//!
//! ```
//! use urlsift_simd::Runtime;
//! use urlsift_warc::{WarcField, named};
//!
//! let header = b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: <http://e.com/a>\r\nContent-Length: 0\r\n";
//! let field = WarcField::new(None); // WARC-Target-URI
//! let text = std::str::from_utf8(header).unwrap();
//! assert_eq!(field.value_in(Runtime, text), Ok(Some("http://e.com/a")));
//! assert_eq!(named(header, "warc-type").as_deref(), Some("response"));
//! ```

use std::borrow::Cow;

use urlsift_simd::Kernel;

pub mod arc;
mod entry;
mod header;
pub mod http;
pub mod index;
mod keeping;
mod reader;
mod record_fault;
mod records;
mod whole;

pub use entry::{Body, Entry};
pub use header::{fields, named};
pub use keeping::Keeping;
pub(crate) use reader::Keep;
pub use reader::Reader;
pub use record_fault::RecordFault;
pub use records::{Block, Record, Records};
pub use whole::whole_records;

/// A WARC file's first bytes: its first record's version line.
const WARC_START: &[u8] = b"WARC/1.";
/// An ARC file's first bytes: its `filedesc://` record (any case).
const ARC_START: &[u8] = b"filedesc://";

/// The archive a file (or stream) whose decoded bytes begin with `bytes`
/// is: WARC (`WARC/1.`) or ARC (`filedesc://`, which no WARC file can
/// start with); `None` for anything else, or for too few bytes to tell
/// ([`may_start_archive`]).
///
/// ```
/// use urlsift_warc::{Dialect, archive_start, may_start_archive};
///
/// assert_eq!(archive_start(b"WARC/1.1\r\nWARC-Type: warcinfo"), Some(Dialect::Warc));
/// assert_eq!(archive_start(b"FILEDESC://crawl.arc 0.0.0.0"), Some(Dialect::Arc));
/// assert_eq!(archive_start(b"https://example.com/"), None);
/// assert!(may_start_archive(b"WAR") && !may_start_archive(b"http"));
/// ```
pub fn archive_start(bytes: &[u8]) -> Option<Dialect> {
    let starts = |start: &[u8]| {
        bytes
            .get(..start.len())
            .is_some_and(|b| b.eq_ignore_ascii_case(start))
    };
    if bytes.starts_with(WARC_START) {
        Some(Dialect::Warc)
    } else if starts(ARC_START) {
        Some(Dialect::Arc)
    } else {
        None
    }
}

/// Whether `bytes` are too few to tell, and may still start an archive
/// (a WARC or ARC file's first bytes, cut short).
pub fn may_start_archive(bytes: &[u8]) -> bool {
    let prefix = |start: &[u8]| {
        bytes.len() < start.len() && start[..bytes.len()].eq_ignore_ascii_case(bytes)
    };
    (bytes.len() < WARC_START.len() && WARC_START.starts_with(bytes)) || prefix(ARC_START)
}

/// Which archive format a file's records are in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// WARC 1.0/1.1: `WARC/` header blocks ending in an empty line, with a
    /// `Content-Length`.
    #[default]
    Warc,
    /// ARC version 1 or 2: a header line ending in the record's length.
    Arc,
}

impl Dialect {
    /// The reason for a stretch that is not a record header.
    fn bad_header(self) -> RecordFault {
        match self {
            Dialect::Warc => RecordFault::BadWarcHeader,
            Dialect::Arc => RecordFault::BadArcHeader,
        }
    }

    /// The reason for a record that the input's end cuts.
    fn truncated(self) -> RecordFault {
        match self {
            Dialect::Warc => RecordFault::WarcTruncated,
            Dialect::Arc => RecordFault::ArcTruncated,
        }
    }

    /// Whether `rest`, at a line start, may begin a record header (the
    /// header is then read whole and checked).
    fn may_start(self, rest: &[u8]) -> bool {
        match self {
            Dialect::Warc => rest.starts_with(b"WARC/"),
            Dialect::Arc => rest.first().is_some_and(u8::is_ascii_alphabetic),
        }
    }
}

/// The header that holds the URL.
#[derive(Clone, Debug)]
pub struct WarcField {
    name: String,
    dialect: Dialect,
}

impl WarcField {
    /// `--field`, or `WARC-Target-URI`.
    pub fn new(field: Option<&str>) -> WarcField {
        WarcField {
            name: field.unwrap_or("WARC-Target-URI").to_string(),
            dialect: Dialect::Warc,
        }
    }

    /// An ARC file's field: `--field` (a header line field's name, as
    /// [`arc::Header::field`] takes it), or `url`.
    pub fn arc(field: Option<&str>) -> WarcField {
        WarcField {
            name: field.unwrap_or("url").to_string(),
            dialect: Dialect::Arc,
        }
    }

    /// The records' format.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The field's value in the header block `text` of one record:
    /// `None` when the record has no such field, or an empty one (a
    /// `warcinfo` record; an ARC file's `filedesc://` record for its
    /// `url`); WARC 1.0's angle brackets around a URI taken off. An ARC
    /// header line that does not read as one is [`RecordFault::BadArcHeader`].
    #[inline(always)]
    pub fn value_in<'a, K: Kernel>(
        &self,
        k: K,
        text: &'a str,
    ) -> Result<Option<&'a str>, RecordFault> {
        if self.dialect == Dialect::Arc {
            return self.arc_value(text);
        }
        Ok(match header::header_value_in(k, text, &self.name) {
            None | Some("") => None,
            // WARC 1.0 examples wrap the URI in angle brackets.
            Some(v) => Some(
                v.strip_prefix('<')
                    .and_then(|v| v.strip_suffix('>'))
                    .unwrap_or(v),
            ),
        })
    }

    /// [`WarcField::value_in`] of an ARC record: its header line's field
    /// (the URL by default); the file's `filedesc://` record holds none.
    fn arc_value<'a>(&self, text: &'a str) -> Result<Option<&'a str>, RecordFault> {
        let header = arc::Header::parse(text.as_bytes()).ok_or(RecordFault::BadArcHeader)?;
        if header.is_filedesc() && self.name.eq_ignore_ascii_case("url") {
            return Ok(None);
        }
        Ok(match header.field(&self.name) {
            None | Some([]) | Some(b"-") => None,
            // The line is text, and the field lies between its spaces.
            Some(v) => Some(std::str::from_utf8(v).expect("a slice of text at spaces")),
        })
    }

    /// Field `name` of the record whose header is `header` (`extract
    /// --fields @WARC-Date`, `@archive-date`).
    pub fn named<'a>(&self, header: &'a [u8], name: &str) -> Option<Cow<'a, str>> {
        match self.dialect {
            Dialect::Warc => named(header, name),
            Dialect::Arc => {
                let value = arc::Header::parse(header)?.field(name)?;
                Some(String::from_utf8_lossy(value))
            }
        }
    }
}

/// Where a reader hands the blocks of the records it reads, for callers
/// that read blocks too ([`Records`]): each block is handed over in pieces
/// as the reader skips it, so none need be held whole.
///
/// ```
/// use urlsift_warc::{Blocks, Dialect, Records};
///
/// /// Counts the bytes of every block.
/// struct Count(u64);
/// impl Blocks for Count {
///     fn start(&mut self, _: Dialect, _: &[u8], _: u64) -> bool {
///         true
///     }
///     fn take(&mut self, bytes: &[u8]) {
///         self.0 += bytes.len() as u64;
///     }
/// }
///
/// let warc = b"WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 5\r\n\r\nHELLO\r\n\r\n";
/// let mut records = Records::new(&warc[..]);
/// let mut count = Count(0);
/// let record = records.next_into(&mut count).unwrap();
/// assert_eq!((record.offset, record.bad, count.0), (0, None, 5));
/// assert!(records.next_into(&mut count).is_none());
/// ```
pub trait Blocks {
    /// A record's header block was read (`header`, of `dialect`), and its
    /// block is `length` bytes long: whether to take the block (handed to
    /// [`Blocks::take`] as it is read).
    fn start(&mut self, dialect: Dialect, header: &[u8], length: u64) -> bool;
    /// The next bytes of the block taken.
    fn take(&mut self, bytes: &[u8]);
    /// How many bytes of blocks it holds: a chunk's reader counts them
    /// toward the chunk's size.
    fn held(&self) -> usize {
        0
    }
}

/// How much of a bad stretch is kept to show in `--rejects`.
pub const SHOWN: usize = 4096;

#[cfg(test)]
mod tests;

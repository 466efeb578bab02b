//! Why a record of an archive is bad: what the reader found where a
//! record should be, each with a stable key and a message (the record
//! engine counts them among its bad records' reasons).
//!
//! ```
//! use urlsift_warc::RecordFault;
//!
//! assert_eq!(RecordFault::WarcTruncated.key(), "WARC-record-truncated");
//! assert_eq!(RecordFault::BadArcHeader.to_string().split(' ').next(), Some("not"));
//! ```

use std::fmt;

/// Why a record is bad.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordFault {
    /// The input ended with a read error inside this record.
    Truncated,
    /// Decoded from a gzip member or zstd frame that failed its check: its
    /// bytes are wrong somewhere, so none is read as a record.
    Damaged,
    /// Not a WARC record header, or one without a usable Content-Length.
    BadWarcHeader,
    /// A WARC record whose Content-Length runs past the end of the input.
    WarcTruncated,
    /// The payload of a WARC record whose Content-Length does not end it
    /// (a damaged length): read up to the next record header instead.
    WarcBadLength,
    /// Not an ARC record header line (`URL IP-address Archive-date
    /// Content-type Archive-length`).
    BadArcHeader,
    /// An ARC record whose Archive-length runs past the end of the input.
    ArcTruncated,
}

impl RecordFault {
    /// A short stable key for tables and JSON.
    pub fn key(self) -> &'static str {
        match self {
            RecordFault::Truncated => "truncated-input",
            RecordFault::Damaged => "damaged-input",
            RecordFault::BadWarcHeader => "bad-WARC-header",
            RecordFault::WarcTruncated => "WARC-record-truncated",
            RecordFault::WarcBadLength => "bad-WARC-length",
            RecordFault::BadArcHeader => "bad-ARC-header",
            RecordFault::ArcTruncated => "ARC-record-truncated",
        }
    }
}

impl fmt::Display for RecordFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RecordFault::Truncated => {
                "cut off by a read error (the input ended, or decoding skipped damaged data there)"
            }
            RecordFault::Damaged => {
                "decoded from a damaged gzip member or zstd frame (its check failed): set aside, not read"
            }
            RecordFault::BadWarcHeader => "not a WARC record header (or no Content-Length)",
            RecordFault::WarcTruncated => "WARC record cut short: Content-Length past the end",
            RecordFault::WarcBadLength => {
                "WARC record payload that its Content-Length does not end (read up to the next record)"
            }
            RecordFault::BadArcHeader => {
                "not an ARC record header line (URL IP-address Archive-date Content-type Archive-length)"
            }
            RecordFault::ArcTruncated => "ARC record cut short: Archive-length past the end",
        })
    }
}

//! Why a record is bad: the reasons the bad-record policy counts, writes
//! to `--rejects` and reports, each with a stable key (for tables, JSON
//! and the summary) and a message.
//!
//! ```
//! use urlsift_records::Reason;
//!
//! assert_eq!(Reason::NulByte.key(), "NUL-byte");
//! assert_eq!(Reason::InvalidJson.to_string(), "not valid JSON");
//! let url = urlsift::Url::parse("no scheme").unwrap_err();
//! assert_eq!(Reason::Url(url).key(), "missing-scheme-non-relative-URL");
//! ```

use std::fmt;

use urlsift::ParseError;
use urlsift_warc::RecordFault;

/// Why a line is bad. Bad lines are never parsed further and never lost:
/// they are counted, and rejected, kept or fatal according to the policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The line is not UTF-8.
    InvalidUtf8,
    /// The line contains a NUL byte (binary data, not a URL).
    NulByte,
    /// The line is longer than `--max-line-bytes`.
    TooLong,
    /// The URL parser returned failure.
    Url(ParseError),
    /// The input ended with a read error inside this record.
    Truncated,
    /// Decoded from a gzip member or zstd frame that failed its check: its
    /// bytes are wrong somewhere, so none is read as a record.
    Damaged,
    /// A CSV row has no such column.
    MissingField,
    /// A CSV quote not closed where its field ends (or never closed).
    BadQuote,
    /// A JSON line that is not valid JSON.
    InvalidJson,
    /// Valid JSON, but not an object.
    NotAnObject,
    /// The field's value is not a JSON string.
    NotAString,
    /// A CDXJ line without `SURT TIMESTAMP {json}`.
    NotCdxj,
    /// A WARC or ARC record the archive reader found bad (its header, or
    /// its length).
    Archive(RecordFault),
    /// Not a common or combined log format line.
    NotALogLine,
    /// A log line whose request line has no target.
    NoRequestTarget,
    /// A request target in asterisk-form (`OPTIONS *`, RFC 9112): the
    /// server as a whole, no resource, so no URL.
    AsteriskForm,
    /// A `CONNECT` request whose target is not `host:port` (RFC 9112's
    /// authority-form).
    BadConnectTarget,
    /// A text the canonical form's tool refuses (`--canonical w3lib`:
    /// w3lib raises on it), so it has no such form.
    Canonical(urlsift::canon::Refused),
}

impl Reason {
    /// A short stable key for tables and JSON: the spec's error name for
    /// parse failures, our own names for the rest.
    pub fn key(self) -> &'static str {
        match self {
            Reason::InvalidUtf8 => "invalid-UTF-8",
            Reason::NulByte => "NUL-byte",
            Reason::TooLong => "line-too-long",
            Reason::Url(e) => match e.validation_error() {
                Some(v) => v.name(),
                None => "URL-too-long",
            },
            Reason::Truncated => RecordFault::Truncated.key(),
            Reason::Damaged => RecordFault::Damaged.key(),
            Reason::MissingField => "missing-field",
            Reason::BadQuote => "bad-CSV-quote",
            Reason::InvalidJson => "invalid-JSON",
            Reason::NotAnObject => "not-a-JSON-object",
            Reason::NotAString => "field-not-a-string",
            Reason::NotCdxj => "not-a-CDXJ-line",
            Reason::Archive(fault) => fault.key(),
            Reason::NotALogLine => "not-a-log-line",
            Reason::NoRequestTarget => "no-request-target",
            Reason::AsteriskForm => "asterisk-form-target",
            Reason::BadConnectTarget => "bad-CONNECT-target",
            Reason::Canonical(_) => "refused-by-canonical-form",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::InvalidUtf8 => f.write_str("invalid UTF-8"),
            Reason::NulByte => f.write_str("NUL byte"),
            Reason::TooLong => f.write_str("line longer than --max-line-bytes"),
            Reason::Url(e) => e.fmt(f),
            Reason::Truncated => RecordFault::Truncated.fmt(f),
            Reason::Damaged => RecordFault::Damaged.fmt(f),
            Reason::MissingField => f.write_str("the row has no URL column"),
            Reason::BadQuote => f.write_str("quote not closed where its field ends"),
            Reason::InvalidJson => f.write_str("not valid JSON"),
            Reason::NotAnObject => f.write_str("not a JSON object"),
            Reason::NotAString => f.write_str("the URL field is not a JSON string"),
            Reason::NotCdxj => f.write_str("not a CDXJ line (SURT TIMESTAMP {json})"),
            Reason::Archive(fault) => fault.fmt(f),
            Reason::NotALogLine => f.write_str("not a common or combined log format line"),
            Reason::NoRequestTarget => f.write_str("no request target in the request line"),
            Reason::AsteriskForm => {
                f.write_str("request target `*` (asterisk-form: the server, not a resource)")
            }
            Reason::BadConnectTarget => {
                f.write_str("CONNECT request whose target is not host:port")
            }
            Reason::Canonical(why) => why.fmt(f),
        }
    }
}

/// An archive record's fault is a bad record's reason; a read error or
/// damage inside a record is the reason it is for every format.
impl From<RecordFault> for Reason {
    fn from(fault: RecordFault) -> Reason {
        match fault {
            RecordFault::Truncated => Reason::Truncated,
            RecordFault::Damaged => Reason::Damaged,
            other => Reason::Archive(other),
        }
    }
}

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
    /// A page (a record's block, or its decoded body) larger than the
    /// limit (`links --max-page-size`): skipped, unread.
    PageTooLarge,
    /// A WARC response whose block is not an HTTP response (no status
    /// line, or headers without their end).
    BadHttpResponse,
    /// A chunked body whose chunk sizes do not add up.
    BadChunkedBody,
    /// A gzip, deflate or brotli body that does not decode.
    BadContentCoding,
    /// A content coding other than gzip, deflate, br or identity.
    UnknownContentCoding,
    /// A WAT record whose JSON cannot be read.
    BadWatJson,
    /// A sitemap or feed that is not well-formed XML.
    BadXml,
    /// A `javascript:` link (links leave them out unless `--javascript`).
    JavascriptUrl,
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
            Reason::Truncated => "truncated-input",
            Reason::Damaged => "damaged-input",
            Reason::MissingField => "missing-field",
            Reason::BadQuote => "bad-CSV-quote",
            Reason::InvalidJson => "invalid-JSON",
            Reason::NotAnObject => "not-a-JSON-object",
            Reason::NotAString => "field-not-a-string",
            Reason::NotCdxj => "not-a-CDXJ-line",
            Reason::BadWarcHeader => "bad-WARC-header",
            Reason::WarcTruncated => "WARC-record-truncated",
            Reason::WarcBadLength => "bad-WARC-length",
            Reason::BadArcHeader => "bad-ARC-header",
            Reason::ArcTruncated => "ARC-record-truncated",
            Reason::NotALogLine => "not-a-log-line",
            Reason::NoRequestTarget => "no-request-target",
            Reason::AsteriskForm => "asterisk-form-target",
            Reason::BadConnectTarget => "bad-CONNECT-target",
            Reason::PageTooLarge => "page-too-large",
            Reason::BadHttpResponse => "bad-http-response",
            Reason::BadChunkedBody => "bad-chunked-body",
            Reason::BadContentCoding => "bad-content-coding",
            Reason::UnknownContentCoding => "unknown-content-coding",
            Reason::BadWatJson => "bad-wat-json",
            Reason::BadXml => "bad-xml",
            Reason::JavascriptUrl => "javascript-url",
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
            Reason::Truncated => f.write_str("cut off by a read error (the input ended, or decoding skipped damaged data there)"),
            Reason::Damaged => f.write_str(
                "decoded from a damaged gzip member or zstd frame (its check failed): set aside, not read",
            ),
            Reason::MissingField => f.write_str("the row has no URL column"),
            Reason::BadQuote => f.write_str("quote not closed where its field ends"),
            Reason::InvalidJson => f.write_str("not valid JSON"),
            Reason::NotAnObject => f.write_str("not a JSON object"),
            Reason::NotAString => f.write_str("the URL field is not a JSON string"),
            Reason::NotCdxj => f.write_str("not a CDXJ line (SURT TIMESTAMP {json})"),
            Reason::BadWarcHeader => f.write_str("not a WARC record header (or no Content-Length)"),
            Reason::WarcTruncated => {
                f.write_str("WARC record cut short: Content-Length past the end")
            }
            Reason::WarcBadLength => f.write_str(
                "WARC record payload that its Content-Length does not end (read up to the next record)",
            ),
            Reason::BadArcHeader => f.write_str(
                "not an ARC record header line (URL IP-address Archive-date Content-type Archive-length)",
            ),
            Reason::ArcTruncated => {
                f.write_str("ARC record cut short: Archive-length past the end")
            }
            Reason::NotALogLine => f.write_str("not a common or combined log format line"),
            Reason::NoRequestTarget => f.write_str("no request target in the request line"),
            Reason::AsteriskForm => {
                f.write_str("request target `*` (asterisk-form: the server, not a resource)")
            }
            Reason::BadConnectTarget => {
                f.write_str("CONNECT request whose target is not host:port")
            }
            Reason::PageTooLarge => f.write_str("page larger than the limit (--max-page-size)"),
            Reason::BadHttpResponse => f.write_str("not an HTTP response (status line and headers)"),
            Reason::BadChunkedBody => f.write_str("chunked body whose chunk sizes do not add up"),
            Reason::BadContentCoding => f.write_str("gzip, deflate or br body that does not decode"),
            Reason::UnknownContentCoding => {
                f.write_str("content coding other than gzip, deflate, br or identity")
            }
            Reason::BadWatJson => f.write_str("WAT record whose JSON cannot be read"),
            Reason::BadXml => f.write_str("not well-formed XML"),
            Reason::JavascriptUrl => f.write_str("javascript: link"),
            Reason::Canonical(why) => why.fmt(f),
        }
    }
}

//! Why a record is not read as a page, or a link is not written: links'
//! own reasons beside the engine's ([`Reason`]: a damaged or truncated
//! record, a bad WARC header, a link that is not a URL), each with a
//! stable key (for the summary and `--rejects`) and a message.
//!
//! ```
//! use urlsift_links::LinkReason;
//! use urlsift_records::Reason;
//! use urlsift_warc::http::HttpError;
//!
//! assert_eq!(LinkReason::BadXml.key(), "bad-xml");
//! assert_eq!(LinkReason::from(HttpError::TooLarge), LinkReason::PageTooLarge);
//! assert_eq!(LinkReason::from(Reason::Truncated).key(), "truncated-input");
//! assert_eq!(LinkReason::JavascriptUrl.to_string(), "javascript: link");
//! ```

use std::fmt;

use urlsift_records::Reason;
use urlsift_warc::RecordFault;
use urlsift_warc::http::HttpError;

/// Why links reject a record or a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinkReason {
    /// A reason of the engine's: the record as read (damaged, truncated, a
    /// bad WARC or ARC header), or a link that is not a URL.
    Record(Reason),
    /// A page (a record's block, or its decoded body) larger than the
    /// limit (`links --max-page-size`): skipped, unread.
    PageTooLarge,
    /// A WARC response whose block cannot be read as HTTP (no status
    /// line, a chunked body that does not add up, a content coding that
    /// does not decode or is unknown).
    Http(HttpError),
    /// A WAT record whose JSON cannot be read.
    BadWatJson,
    /// A sitemap or feed that is not well-formed XML.
    BadXml,
    /// A `javascript:` link (links leave them out unless `--javascript`).
    JavascriptUrl,
}

impl LinkReason {
    /// A short stable key for the summary and `--rejects` (the engine's
    /// own for [`LinkReason::Record`]).
    pub fn key(self) -> &'static str {
        match self {
            LinkReason::Record(reason) => reason.key(),
            LinkReason::PageTooLarge => HttpError::TooLarge.key(),
            LinkReason::Http(e) => e.key(),
            LinkReason::BadWatJson => "bad-wat-json",
            LinkReason::BadXml => "bad-xml",
            LinkReason::JavascriptUrl => "javascript-url",
        }
    }
}

impl fmt::Display for LinkReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkReason::Record(reason) => reason.fmt(f),
            LinkReason::PageTooLarge => HttpError::TooLarge.fmt(f),
            LinkReason::Http(e) => e.fmt(f),
            LinkReason::BadWatJson => f.write_str("WAT record whose JSON cannot be read"),
            LinkReason::BadXml => f.write_str("not well-formed XML"),
            LinkReason::JavascriptUrl => f.write_str("javascript: link"),
        }
    }
}

impl From<Reason> for LinkReason {
    fn from(reason: Reason) -> LinkReason {
        LinkReason::Record(reason)
    }
}

/// An archive record's fault, as the engine names it.
impl From<RecordFault> for LinkReason {
    fn from(fault: RecordFault) -> LinkReason {
        LinkReason::Record(fault.into())
    }
}

/// A page whose HTTP message cannot be read is a bad record; one too
/// large is [`LinkReason::PageTooLarge`], as a block too large is.
impl From<HttpError> for LinkReason {
    fn from(e: HttpError) -> LinkReason {
        match e {
            HttpError::TooLarge => LinkReason::PageTooLarge,
            other => LinkReason::Http(other),
        }
    }
}

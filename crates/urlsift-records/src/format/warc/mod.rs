//! WARC and ARC files as records of the engine: the reader itself is the
//! `urlsift-warc` crate's ([`urlsift_warc::Reader`]); here, a record's
//! header block is walked to its URL field ([`find`]), its faults named as
//! the engine's [`Reason`]s.
//!
//! ```
//! use urlsift_records::format::{Found, warc};
//! use urlsift_simd::Runtime;
//! use urlsift_warc::WarcField;
//!
//! let header = b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: <http://e.com/a>\r\nContent-Length: 0\r\n";
//! let field = WarcField::new(None); // WARC-Target-URI
//! assert!(matches!(warc::find(Runtime, &field, header), Found::Url(u) if u == "http://e.com/a"));
//! ```

use std::borrow::Cow;

use urlsift_simd::Kernel;
use urlsift_warc::WarcField;

use crate::format::record::Found;
use crate::reason::Reason;

/// The URL field of the record whose header block is `header`: empty
/// when the record has no such header (a `warcinfo` record, say).
#[inline(always)]
pub fn find<'a, K: Kernel>(k: K, field: &WarcField, header: &'a [u8]) -> Found<'a> {
    match simdutf8::basic::from_utf8(header) {
        Ok(text) => find_in(k, field, text),
        Err(_) => Found::Bad(Reason::InvalidUtf8),
    }
}

/// [`find`] in a header block already known to be text.
#[inline(always)]
pub fn find_in<'a, K: Kernel>(k: K, field: &WarcField, text: &'a str) -> Found<'a> {
    match field.value_in(k, text) {
        Ok(None) => Found::Empty,
        Ok(Some(v)) => Found::Url(Cow::Borrowed(v)),
        Err(fault) => Found::Bad(fault.into()),
    }
}

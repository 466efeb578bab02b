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

use super::record::{Found, Rec, Shape};
use super::{Begun, Format, Opening, RecordFormat, StartError, View, Visit};

/// The start of a WARC (`arc`: an ARC) file. An ARC file always starts
/// with its `filedesc://` record, which no WARC file can: a file read as
/// WARC that starts so is read as ARC.
pub(crate) fn start(arc: bool, opening: &Opening<'_>) -> Result<Begun, StartError> {
    let field = opening.field();
    if arc {
        return Ok(Begun::at(Format::Warc(WarcField::arc(field)), opening));
    }
    let body = opening.body();
    if opening.more && urlsift_warc::may_start_archive(body) {
        return Ok(Begun::More);
    }
    let field = match urlsift_warc::archive_start(body) {
        Some(urlsift_warc::Dialect::Arc) => WarcField::arc(field),
        _ => WarcField::new(field),
    };
    Ok(Begun::at(Format::Warc(field), opening))
}
use crate::reason::Reason;

impl RecordFormat for WarcField {
    #[inline(always)]
    fn walk<K: Kernel, V: Visit>(&self, k: K, view: View<'_>, v: &mut V) -> u64 {
        // The chunk holds header blocks only: one UTF-8 check for them all
        // (per block only if one of them fails it).
        let text = simdutf8::basic::from_utf8(view.data).ok();
        let mut count = 0;
        for e in view.index {
            count += 1;
            let rec = Rec {
                data: view.data,
                start: e.start,
                end: e.end,
                next: e.end,
                line: 0,
                offset: e.offset,
                field: (e.start, e.end),
                shape: Shape::ReadOnly,
            };
            let found = match e.bad {
                Some(fault) => Found::Bad(fault.into()),
                None => match text.and_then(|t| t.get(e.start..e.end)) {
                    Some(header) => find_in(k, self, header),
                    None => find(k, self, rec.raw()),
                },
            };
            if !v.record(&rec, found) {
                break;
            }
        }
        count
    }

    fn named<'a>(&self, rec: &Rec<'a>, name: &str) -> Option<Cow<'a, str>> {
        WarcField::named(self, rec.raw(), name)
    }

    /// A record spans many lines.
    fn one_per_line(&self) -> bool {
        false
    }
}

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

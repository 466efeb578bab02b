//! JSON Lines and the JSON block of CDXJ lines: find the URL field's value
//! (a key or a dotted path), decode it, and write a new value in its place
//! with every other byte of the line untouched.
//!
//! `serde_json` validates the whole line and finds the field: a visitor
//! walks the object, skips other values with `IgnoredAny`, and takes the
//! field as a `&RawValue`, a slice of the line, which gives its byte span.
//! Nothing is re-serialized: key order, spacing and numbers stay as they
//! were. When a key occurs twice, the last one counts (as in `JSON.parse`).
//! A hand-written scan (`fast.rs`) takes the lines it can prove valid
//! first, and declines the rest to `serde_json` (`full.rs`).
//!
//! ```
//! use urlsift_records::format::{Found, json};
//!
//! let line = r#"{"ts":1.50, "request":{"url":"https:\/\/e.com\/a"}}"#;
//! let hit = json::find(&json::Path::new(Some("request.url")), line).unwrap();
//! assert!(matches!(hit.value, Found::Url(ref u) if u == "https://e.com/a"));
//! assert_eq!(&line[hit.span.0..hit.span.1], r#""https:\/\/e.com\/a""#);
//! assert_eq!(json::named(line.as_bytes(), "ts").as_deref(), Some("1.50"));
//!
//! let cdxj = r#"com,e)/a 20240101000000 {"url": "https://e.com/a", "status": "200"}"#;
//! let hit = json::find_cdxj(&json::Path::new(None), cdxj).unwrap();
//! assert_eq!(&cdxj[hit.span.0..hit.span.1], r#""https://e.com/a""#);
//! ```

mod fast;
mod full;
mod path;

pub use full::named;
pub(crate) use full::{find_with_serde, keys_of};
pub use path::{Hit, Path};

use std::borrow::Cow;

use urlsift_simd::Kernel;

use super::lines::each_line;
use super::record::{Found, Rec, Shape};
use super::{Begun, Format, Opening, RecordFormat, StartError, View, Visit};
use crate::reason::Reason;
use crate::setting::SettingError;

/// The start of JSON lines (`cdxj`: CDXJ lines): with the default field,
/// the first record must have it, or the user is told which fields there
/// are.
pub(crate) fn start(cdxj: bool, opening: &Opening<'_>) -> Result<Begun, StartError> {
    let path = Path::new(opening.field());
    if path.is_default() {
        let body = opening.body();
        let line_end = memchr::memchr(b'\n', body);
        if line_end.is_none() && opening.more {
            return Ok(Begun::More);
        }
        check_default_key(&body[..line_end.unwrap_or(body.len())], cdxj)?;
    }
    let format = if cdxj {
        Format::Cdxj(path)
    } else {
        Format::Jsonl(path)
    };
    Ok(Begun::at(format, opening))
}

/// The start of a WACZ's page list: its header line (`{"format":
/// "json-pages-1.0", ...}`: a format and no url) is not a page.
pub(crate) fn start_pages(opening: &Opening<'_>) -> Result<Begun, StartError> {
    let body = opening.body();
    let line_end = memchr::memchr(b'\n', body);
    if line_end.is_none() && opening.more {
        return Ok(Begun::More);
    }
    let first = &body[..line_end.unwrap_or(body.len())];
    let header = std::str::from_utf8(first).is_ok_and(|l| {
        let keys = keys_of(l.trim_end_matches('\r'));
        keys.iter().any(|k| k == "format") && !keys.iter().any(|k| k == "url")
    });
    let bom = opening.bom;
    let head = match (header, line_end) {
        (false, _) => bom,
        (true, Some(end)) => bom + end + 1,
        (true, None) => opening.buf.len(),
    };
    Ok(Begun::Format {
        format: Format::Jsonl(Path::new(opening.field())),
        head,
        write_head: false,
    })
}

/// The error for a first record without the default `url` key.
fn check_default_key(line: &[u8], cdxj: bool) -> Result<(), SettingError> {
    let line = match std::str::from_utf8(line) {
        Ok(l) => l.trim_end_matches('\r'),
        Err(_) => return Ok(()),
    };
    let json = if cdxj {
        match cdxj_json_start(line.as_bytes()) {
            Some(s) => &line[s..],
            None => return Ok(()),
        }
    } else {
        line
    };
    if json.trim().is_empty() {
        return Ok(());
    }
    let keys = keys_of(json);
    if keys.is_empty() || keys.iter().any(|k| k.eq_ignore_ascii_case("url")) {
        return Ok(());
    }
    let shown: Vec<String> = keys.iter().map(|k| format!("{k:?}")).collect();
    Err(SettingError::NoUrlKey {
        keys: shown.join(", "),
    })
}

/// The `jsonl` format: a JSON object per line, the URL at `Path`.
pub(crate) struct Jsonl<'a>(pub &'a Path);

/// The `cdxj` format: `SURT TIMESTAMP {json}` lines, the URL at `Path`
/// in the JSON block.
pub(crate) struct Cdxj<'a>(pub &'a Path);

impl RecordFormat for Jsonl<'_> {
    #[inline(never)]
    fn walk<K: Kernel, V: Visit>(&self, _k: K, view: View<'_>, v: &mut V) -> u64 {
        walk(self.0, false, view, v)
    }

    fn named<'a>(&self, rec: &Rec<'a>, name: &str) -> Option<Cow<'a, str>> {
        named(rec.raw(), name)
    }
}

impl RecordFormat for Cdxj<'_> {
    #[inline(never)]
    fn walk<K: Kernel, V: Visit>(&self, _k: K, view: View<'_>, v: &mut V) -> u64 {
        walk(self.0, true, view, v)
    }

    fn named<'a>(&self, rec: &Rec<'a>, name: &str) -> Option<Cow<'a, str>> {
        let raw = rec.raw();
        named(&raw[cdxj_json_start(raw)?..], name)
    }
}

/// Walks the JSON lines (CDXJ lines: `cdxj`) of `view` to the value at
/// `path`.
fn walk<V: Visit>(path: &Path, cdxj: bool, view: View<'_>, v: &mut V) -> u64 {
    // The chunk's UTF-8 is checked once: lines are cut at ASCII bytes (a
    // line is checked on its own only in a chunk that fails).
    let chunk_text = simdutf8::basic::from_utf8(view.data).ok();
    each_line(view, |rec, raw| {
        // A line of a format written back: under --keep-invalid, a bad or
        // empty one goes out as it came (the shape's `close` serves only a
        // found field, which a bad line has not).
        let rec = Rec {
            shape: Shape::Json { close: rec.end },
            ..rec
        };
        let raw = match raw {
            Ok(raw) => raw,
            Err(found) => return v.record(&rec, found),
        };
        let text = chunk_text
            .and_then(|t| t.get(rec.start..rec.end))
            .or_else(|| simdutf8::basic::from_utf8(raw).ok());
        let Some(text) = text else {
            return v.record(&rec, Found::Bad(Reason::InvalidUtf8));
        };
        let found = if cdxj {
            find_cdxj(path, text)
        } else {
            find(path, text)
        };
        match found {
            Ok(Hit { value, span, close }) => {
                let rec = Rec {
                    field: (rec.start + span.0, rec.start + span.1),
                    shape: Shape::Json {
                        close: rec.start + close,
                    },
                    ..rec
                };
                v.record(&rec, value)
            }
            Err(reason) => v.record(&rec, Found::Bad(reason)),
        }
    })
}

/// Finds `path` in `line`, which must be one JSON object: the fast path
/// when it can prove the line valid, `serde_json` otherwise.
#[inline]
pub fn find<'a>(path: &Path, line: &'a str) -> Result<Hit<'a>, Reason> {
    match fast::find(path, line) {
        Some(result) => result,
        None => find_with_serde(path, line),
    }
}

/// Finds `path` in the JSON block of a CDXJ line (`SURT TIMESTAMP {json}`);
/// offsets are the line's.
pub fn find_cdxj<'a>(path: &Path, line: &'a str) -> Result<Hit<'a>, Reason> {
    let start = cdxj_json_start(line.as_bytes()).ok_or(Reason::NotCdxj)?;
    let mut hit = find(path, &line[start..])?;
    hit.span = (hit.span.0 + start, hit.span.1 + start);
    hit.close += start;
    Ok(hit)
}

/// Where a CDXJ line's JSON block starts: after the SURT key and the
/// timestamp, each followed by one space.
pub(crate) fn cdxj_json_start(line: &[u8]) -> Option<usize> {
    let first = memchr::memchr(b' ', line)?;
    let second = first + 1 + memchr::memchr(b' ', &line[first + 1..])?;
    (line.get(second + 1) == Some(&b'{')).then_some(second + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Found;

    fn url_of(path: &Path, line: &str) -> Result<(String, (usize, usize)), Reason> {
        let hit = find(path, line)?;
        match hit.value {
            Found::Url(u) => Ok((u.into_owned(), hit.span)),
            Found::Empty => Ok((String::new(), hit.span)),
            Found::Bad(r) => Err(r),
        }
    }

    #[test]
    fn finds_keys_paths_and_spans() {
        let d = Path::new(None);
        let line = r#"{"a":1, "URL" : "http://x/" ,"b":[{"url":2}]}"#;
        let (u, span) = url_of(&d, line).unwrap();
        assert_eq!(u, "http://x/");
        assert_eq!(&line[span.0..span.1], r#""http://x/""#);
        let p = Path::new(Some("request.url"));
        let line = r#"{"request": {"method":"GET","url":"http:\/\/a\u00e9.com\/"}, "n": 1.50}"#;
        assert_eq!(url_of(&p, line).unwrap().0, "http://a\u{e9}.com/");
        assert_eq!(url_of(&p, r#"{"request":"x"}"#), Err(Reason::MissingField));
        assert_eq!(url_of(&d, r#"{"url":null}"#), Err(Reason::NotAString));
        assert_eq!(url_of(&d, r#"[1]"#), Err(Reason::NotAnObject));
        assert_eq!(url_of(&d, r#"{"url":"a""#), Err(Reason::InvalidJson));
        assert_eq!(url_of(&d, r#"{"url":"a"} x"#), Err(Reason::InvalidJson));
        assert_eq!(
            url_of(&d, r#"{"url":"\ud83d\ude00"}"#).unwrap().0,
            "\u{1F600}"
        );
        // The last of repeated keys counts.
        assert_eq!(url_of(&d, r#"{"url":"a","url":"b"}"#).unwrap().0, "b");
    }

    #[test]
    fn cdxj_json_block() {
        let line =
            r#"com,example)/ 20240101000000 {"url": "http://example.com/", "status": "200"}"#;
        let hit = find_cdxj(&Path::new(None), line).unwrap();
        assert_eq!(&line[hit.span.0..hit.span.1], r#""http://example.com/""#);
        assert_eq!(line.as_bytes()[hit.close], b'}');
        assert!(find_cdxj(&Path::new(None), "no json here").is_err());
    }
}

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

use crate::reason::Reason;

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

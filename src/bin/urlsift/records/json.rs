//! JSON Lines and the JSON block of CDXJ lines: find the URL field's value
//! (a key or a dotted path), decode it, and write a new value in its place
//! with every other byte of the line untouched.
//!
//! `serde_json` validates the whole line and finds the field: a visitor
//! walks the object, skips other values with `IgnoredAny`, and takes the
//! field as a `&RawValue`, a slice of the line, which gives its byte span.
//! Nothing is re-serialized: key order, spacing and numbers stay as they
//! were. When a key occurs twice, the last one counts (as in `JSON.parse`).
//! A hand-written scan (`json_fast.rs`) takes the lines it can prove valid
//! first, and declines the rest to `serde_json`.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::Found;
use crate::input::Reason;

/// Where the URL sits in each object: a key, or a dotted path of keys.
#[derive(Clone, Debug)]
pub struct Path {
    keys: Vec<String>,
    /// The default field: the key `url` in any letter case.
    any_case: bool,
}

impl Path {
    /// `--field` as given (`request.url`), or the default `url`.
    pub fn new(field: Option<&str>) -> Path {
        match field {
            Some(f) => Path {
                keys: f.split('.').map(str::to_string).collect(),
                any_case: false,
            },
            None => Path {
                keys: vec!["url".to_string()],
                any_case: true,
            },
        }
    }

    /// Whether `--field` was left to its default.
    pub fn is_default(&self) -> bool {
        self.any_case
    }

    /// The keys, outermost first.
    pub fn keys(&self) -> &[String] {
        &self.keys
    }

    /// Whether keys match in any letter case (the default field).
    pub fn any_case(&self) -> bool {
        self.any_case
    }
}

/// The URL field of one object.
pub struct Hit<'a> {
    /// Its text, or why there is none to parse.
    pub value: Found<'a>,
    /// The raw value's bytes in the line (quotes included).
    pub span: (usize, usize),
    /// Where the top-level object's closing `}` is.
    pub close: usize,
}

/// Finds `path` in `line`, which must be one JSON object: the fast path
/// when it can prove the line valid, `serde_json` otherwise.
#[inline]
pub fn find<'a>(path: &Path, line: &'a str) -> Result<Hit<'a>, Reason> {
    match super::json_fast::find(path, line) {
        Some(result) => result,
        None => find_with_serde(path, line),
    }
}

/// [`find`] by `serde_json` alone.
pub fn find_with_serde<'a>(path: &Path, line: &'a str) -> Result<Hit<'a>, Reason> {
    let mut de = serde_json::Deserializer::from_str(line);
    let found = Top(path).deserialize(&mut de).map_err(|e| classify(&e))?;
    de.end().map_err(|e| classify(&e))?;
    let raw = match found {
        Some(Some(raw)) => raw,
        Some(None) => return Err(Reason::MissingField),
        None => return Err(Reason::NotAnObject),
    };
    let text = raw.get();
    let start = text.as_ptr() as usize - line.as_ptr() as usize;
    let span = (start, start + text.len());
    let close = line.trim_end_matches([' ', '\t', '\n', '\r']).len() - 1;
    let value = decode_string(text)?;
    Ok(Hit { value, span, close })
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
pub fn cdxj_json_start(line: &[u8]) -> Option<usize> {
    let first = memchr::memchr(b' ', line)?;
    let second = first + 1 + memchr::memchr(b' ', &line[first + 1..])?;
    (line.get(second + 1) == Some(&b'{')).then_some(second + 1)
}

/// The value at dotted path `name` in the object `raw`, as text: strings
/// decoded, other values as their JSON text.
pub fn named<'a>(raw: &'a [u8], name: &str) -> Option<Cow<'a, str>> {
    let line = std::str::from_utf8(raw).ok()?;
    let path = Path::new(Some(name));
    let mut de = serde_json::Deserializer::from_str(line);
    let raw = Top(&path).deserialize(&mut de).ok()???;
    let text = raw.get();
    match decode_string(text) {
        Ok(Found::Url(v)) => Some(v),
        Ok(_) => Some(Cow::Borrowed("")),
        Err(_) => Some(Cow::Borrowed(text)),
    }
}

/// A raw JSON value that should be a string: its text (borrowed when it
/// has no escapes), empty, or not a string.
pub(super) fn decode_string(text: &str) -> Result<Found<'_>, Reason> {
    if !text.starts_with('"') {
        return Err(Reason::NotAString);
    }
    let inner = &text[1..text.len() - 1];
    if inner.is_empty() {
        return Ok(Found::Empty);
    }
    if memchr::memchr(b'\\', inner.as_bytes()).is_none() {
        return Ok(Found::Url(Cow::Borrowed(inner)));
    }
    let decoded: String = serde_json::from_str(text).map_err(|_| Reason::InvalidJson)?;
    Ok(if decoded.is_empty() {
        Found::Empty
    } else {
        Found::Url(Cow::Owned(decoded))
    })
}

fn classify(e: &serde_json::Error) -> Reason {
    match e.classify() {
        serde_json::error::Category::Data => Reason::NotAnObject,
        _ => Reason::InvalidJson,
    }
}

/// Appends `s` as a JSON string (escaping `"`, `\` and control characters).
pub fn write_string(out: &mut Vec<u8>, s: &str) {
    serde_json::to_writer(&mut *out, s).expect("strings serialize into a Vec");
}

/// Whether `before_close` (an object up to, not including, its `}`) has
/// no members.
pub fn object_is_empty(before_close: &[u8]) -> bool {
    before_close
        .iter()
        .rev()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'{')
}

/// The top-level value: `None` if it is not an object, else what the
/// path found in it.
struct Top<'p>(&'p Path);

impl<'de, 'p> DeserializeSeed<'de> for Top<'p> {
    type Value = Option<Option<&'de RawValue>>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(Seek {
            keys: &self.0.keys,
            any_case: self.0.any_case,
        })
    }
}

/// Walks a value for `keys`: in an object, the first key's value (the
/// rest of the path below it); any other value holds nothing.
struct Seek<'p> {
    keys: &'p [String],
    any_case: bool,
}

impl<'de, 'p> DeserializeSeed<'de> for Seek<'p> {
    type Value = Option<Option<&'de RawValue>>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

macro_rules! not_an_object {
    ($($name:ident: $t:ty),*) => {
        $(fn $name<E: de::Error>(self, _: $t) -> Result<Self::Value, E> {
            Ok(None)
        })*
    };
}

impl<'de, 'p> Visitor<'de> for Seek<'p> {
    type Value = Option<Option<&'de RawValue>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    not_an_object!(visit_bool: bool, visit_i64: i64, visit_u64: u64, visit_f64: f64,
        visit_str: &str, visit_i128: i128, visit_u128: u128);

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found = None;
        let (key, rest) = self.keys.split_first().expect("a path has a key");
        while let Some(is_key) = map.next_key_seed(KeyIs {
            key,
            any_case: self.any_case,
        })? {
            if !is_key {
                map.next_value::<IgnoredAny>()?;
            } else if rest.is_empty() {
                found = Some(map.next_value::<&RawValue>()?);
            } else {
                found = map
                    .next_value_seed(Seek {
                        keys: rest,
                        any_case: self.any_case,
                    })?
                    .flatten();
            }
        }
        Ok(Some(found))
    }
}

/// A key compared with the one sought, without allocating.
struct KeyIs<'k> {
    key: &'k str,
    any_case: bool,
}

impl<'de, 'k> DeserializeSeed<'de> for KeyIs<'k> {
    type Value = bool;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de, 'k> Visitor<'de> for KeyIs<'k> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<bool, E> {
        Ok(if self.any_case {
            v.eq_ignore_ascii_case(self.key)
        } else {
            v == self.key
        })
    }
}

/// The top-level keys of the object `line`, for the message that lists
/// what a file has when the default field is missing.
pub fn keys_of(line: &str) -> Vec<String> {
    serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(line)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

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

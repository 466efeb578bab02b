//! What the JSON finders share: the path to the URL field, what they
//! found there, and a raw string value decoded.

use std::borrow::Cow;

use super::super::record::Found;
use crate::reason::Reason;

/// Where the URL sits in each object: a key, or a dotted path of keys.
#[derive(Clone, Debug)]
pub struct Path {
    pub(super) keys: Vec<String>,
    /// The default field: the key `url` in any letter case.
    pub(super) any_case: bool,
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

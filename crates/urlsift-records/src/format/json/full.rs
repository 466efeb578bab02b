//! The URL field of a JSON object by `serde_json`: a visitor walks the
//! object, skips other values with `IgnoredAny`, and takes the field as a
//! `&RawValue`, a slice of the line, which gives its byte span. It decides
//! every line the fast scan (`fast.rs`) declines.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::super::record::Found;
use super::path::{Hit, Path, decode_string};
use crate::reason::Reason;

/// [`find`] by `serde_json` alone.
pub(crate) fn find_with_serde<'a>(path: &Path, line: &'a str) -> Result<Hit<'a>, Reason> {
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

fn classify(e: &serde_json::Error) -> Reason {
    match e.classify() {
        serde_json::error::Category::Data => Reason::NotAnObject,
        _ => Reason::InvalidJson,
    }
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
pub(crate) fn keys_of(line: &str) -> Vec<String> {
    serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(line)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

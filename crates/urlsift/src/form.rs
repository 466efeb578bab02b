//! [`application/x-www-form-urlencoded`](https://url.spec.whatwg.org/#application/x-www-form-urlencoded)
//! parsing and serializing, and [`UrlSearchParams`].
//!
//! Parsing borrows every name and value that needs no decoding.

use std::borrow::Cow;
use std::fmt;
use std::ops::{Deref, DerefMut};

use crate::percent::{self, FORM_URLENCODED};
use crate::url::Url;

/// Decodes one name or value: '+' to space, percent-decode, UTF-8 decode
/// without BOM (invalid sequences become U+FFFD).
fn decode(input: &[u8]) -> Cow<'_, str> {
    let plus = memchr::memchr(b'+', input).is_some();
    let percent = memchr::memchr(b'%', input).is_some();
    if !plus && !percent {
        return String::from_utf8_lossy(input);
    }
    let replaced: Cow<'_, [u8]> = if plus {
        Cow::Owned(
            input
                .iter()
                .map(|&b| if b == b'+' { b' ' } else { b })
                .collect(),
        )
    } else {
        Cow::Borrowed(input)
    };
    let decoded = percent::percent_decode(&replaced).into_owned();
    match String::from_utf8(decoded) {
        Ok(s) => Cow::Owned(s),
        Err(e) => Cow::Owned(String::from_utf8_lossy(e.as_bytes()).into_owned()),
    }
}

/// The [`application/x-www-form-urlencoded` parser](https://url.spec.whatwg.org/#concept-urlencoded-parser):
/// the name-value pairs of `input`, in order.
pub fn parse(input: &[u8]) -> impl Iterator<Item = (Cow<'_, str>, Cow<'_, str>)> {
    input
        .split(|&b| b == b'&')
        .filter(|sequence| !sequence.is_empty())
        .map(|sequence| match memchr::memchr(b'=', sequence) {
            Some(eq) => (decode(&sequence[..eq]), decode(&sequence[eq + 1..])),
            None => (decode(sequence), Cow::Borrowed("")),
        })
}

/// Appends the [urlencoded byte serialization](https://url.spec.whatwg.org/#concept-urlencoded-byte-serializer)
/// of `input`: the form set percent-encoded, space as '+'.
pub fn byte_serialize_into(input: &str, out: &mut String) {
    percent::encode_into(input, &FORM_URLENCODED, out);
}

/// The [`application/x-www-form-urlencoded` serializer](https://url.spec.whatwg.org/#concept-urlencoded-serializer).
pub fn serialize<I, K, V>(pairs: I) -> String
where
    I: IntoIterator<Item = (K, V)>,
    K: AsRef<str>,
    V: AsRef<str>,
{
    let mut out = String::new();
    for (name, value) in pairs {
        if !out.is_empty() {
            out.push('&');
        }
        byte_serialize_into(name.as_ref(), &mut out);
        out.push('=');
        byte_serialize_into(value.as_ref(), &mut out);
    }
    out
}

/// A [`URLSearchParams`](https://url.spec.whatwg.org/#interface-urlsearchparams)
/// list of name-value pairs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct UrlSearchParams {
    list: Vec<(String, String)>,
}

impl UrlSearchParams {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses a query string; a leading '?' is dropped, as the constructor does.
    pub fn parse(init: &str) -> Self {
        let init = init.strip_prefix('?').unwrap_or(init);
        UrlSearchParams {
            list: parse(init.as_bytes())
                .map(|(n, v)| (n.into_owned(), v.into_owned()))
                .collect(),
        }
    }

    /// Builds the list from pairs.
    pub fn from_pairs<I, K, V>(pairs: I) -> Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        UrlSearchParams {
            list: pairs
                .into_iter()
                .map(|(n, v)| (n.into(), v.into()))
                .collect(),
        }
    }

    /// The pairs of `url`'s query (empty when the query is null).
    pub fn from_url(url: &Url) -> Self {
        // A URL's query object is initialized with the query as it is
        // (no leading '?' is dropped, unlike the constructor).
        UrlSearchParams {
            list: parse(url.query().unwrap_or("").as_bytes())
                .map(|(n, v)| (n.into_owned(), v.into_owned()))
                .collect(),
        }
    }

    /// The [size](https://url.spec.whatwg.org/#dom-urlsearchparams-size): the number of pairs.
    pub fn size(&self) -> usize {
        self.list.len()
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// [append(name, value)](https://url.spec.whatwg.org/#dom-urlsearchparams-append).
    pub fn append(&mut self, name: &str, value: &str) {
        self.list.push((name.to_string(), value.to_string()));
    }

    /// [delete(name, value)](https://url.spec.whatwg.org/#dom-urlsearchparams-delete):
    /// removes the pairs named `name` (and, if given, with value `value`).
    pub fn delete(&mut self, name: &str, value: Option<&str>) {
        self.list
            .retain(|(n, v)| !(n == name && value.is_none_or(|value| v == value)));
    }

    /// [get(name)](https://url.spec.whatwg.org/#dom-urlsearchparams-get): the first value named `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.list
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// [getAll(name)](https://url.spec.whatwg.org/#dom-urlsearchparams-getall): every value named `name`.
    pub fn get_all(&self, name: &str) -> Vec<&str> {
        self.list
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// [has(name, value)](https://url.spec.whatwg.org/#dom-urlsearchparams-has).
    pub fn has(&self, name: &str, value: Option<&str>) -> bool {
        self.list
            .iter()
            .any(|(n, v)| n == name && value.is_none_or(|value| v == value))
    }

    /// [set(name, value)](https://url.spec.whatwg.org/#dom-urlsearchparams-set):
    /// the first pair named `name` takes `value` and the others go; or append.
    pub fn set(&mut self, name: &str, value: &str) {
        match self.list.iter().position(|(n, _)| n == name) {
            Some(first) => {
                self.list[first].1 = value.to_string();
                let mut i = 0;
                self.list.retain(|(n, _)| {
                    i += 1;
                    i - 1 == first || n != name
                });
            }
            None => self.append(name, value),
        }
    }

    /// [sort()](https://url.spec.whatwg.org/#dom-urlsearchparams-sort): a
    /// stable sort by name, comparing UTF-16 code units.
    pub fn sort(&mut self) {
        self.list
            .sort_by(|(a, _), (b, _)| a.encode_utf16().cmp(b.encode_utf16()));
    }

    /// The pairs, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.list.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }
}

impl fmt::Display for UrlSearchParams {
    /// The [stringification](https://url.spec.whatwg.org/#urlsearchparams-stringification-behavior).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&serialize(self.iter()))
    }
}

impl<'a> IntoIterator for &'a UrlSearchParams {
    type Item = (&'a str, &'a str);
    type IntoIter = Box<dyn Iterator<Item = (&'a str, &'a str)> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

/// A URL's search params, borrowed mutably: changes made through it are
/// written back to the URL's query (the [update steps](https://url.spec.whatwg.org/#concept-urlsearchparams-update))
/// when it is dropped. Reading alone leaves the URL untouched.
pub struct SearchParamsMut<'a> {
    url: &'a mut Url,
    params: UrlSearchParams,
    changed: bool,
}

impl Deref for SearchParamsMut<'_> {
    type Target = UrlSearchParams;
    fn deref(&self) -> &UrlSearchParams {
        &self.params
    }
}

impl DerefMut for SearchParamsMut<'_> {
    fn deref_mut(&mut self) -> &mut UrlSearchParams {
        self.changed = true;
        &mut self.params
    }
}

impl Drop for SearchParamsMut<'_> {
    fn drop(&mut self) {
        if self.changed {
            let serialized = self.params.to_string();
            let query = (!serialized.is_empty()).then_some(serialized.as_str());
            self.url.set_query_serialized(query);
        }
    }
}

impl Url {
    /// The URL's query as a [`UrlSearchParams`] (a copy).
    pub fn search_params(&self) -> UrlSearchParams {
        UrlSearchParams::from_url(self)
    }

    /// The URL's search params, for changes that update its query.
    pub fn search_params_mut(&mut self) -> SearchParamsMut<'_> {
        let params = UrlSearchParams::from_url(self);
        SearchParamsMut {
            url: self,
            params,
            changed: false,
        }
    }
}

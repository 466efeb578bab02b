//! `urllib.parse` as Python 3.11.7 runs it, the parts courlan reads
//! through: `urlsplit` (with its checks of brackets and of NFKC hosts),
//! `SplitResult.port`, `unquote`, `quote`/`quote_plus`, `parse_qs`,
//! `urlencode(doseq=True)` and `urlunsplit`.

use std::borrow::Cow;

use super::{IpAddress, Safe, nfkc, quote_into, unquote, uses_netloc};
use crate::canon::Refused;

/// `urlsplit`'s five parts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SplitResult {
    /// The scheme, lower-cased; empty when the text has none.
    pub scheme: String,
    /// The authority after `//`, as written.
    pub netloc: String,
    /// The path, as written.
    pub path: String,
    /// The query, without `?`.
    pub query: String,
    /// The fragment, without `#`.
    pub fragment: String,
}

impl SplitResult {
    /// `SplitResult.port`: the port after the host, `None` when there is
    /// none; an error where Python raises (not ASCII digits, past 65535).
    ///
    /// ```
    /// use urlsift::canon::python::urlsplit;
    /// assert_eq!(urlsplit("http://[::1]:0080/").unwrap().port(), Ok(Some(80)));
    /// assert!(urlsplit("http://a:x/").unwrap().port().is_err());
    /// ```
    pub fn port(&self) -> Result<Option<u16>, Refused> {
        let hostinfo = self
            .netloc
            .rsplit_once('@')
            .map_or(self.netloc.as_str(), |(_, h)| h);
        let port = match hostinfo.split_once('[') {
            Some((_, bracketed)) => {
                let after = bracketed.split_once(']').map_or("", |(_, a)| a);
                after.split_once(':').map_or("", |(_, p)| p)
            }
            None => hostinfo.split_once(':').map_or("", |(_, p)| p),
        };
        if port.is_empty() {
            return Ok(None);
        }
        if !port.bytes().all(|b| b.is_ascii_digit()) {
            return Err(Refused::Port);
        }
        let digits = port.trim_start_matches('0');
        if digits.len() > 5 {
            return Err(Refused::Port);
        }
        let n: u32 = digits.parse().unwrap_or(0);
        u16::try_from(n).map(Some).map_err(|_| Refused::Port)
    }
}

/// The delimiters CPython's `_checknetloc` refuses a host to gain.
pub(crate) const NFKC_DELIMITERS: &[char] = &['/', '?', '#', '@', ':'];

/// `urllib.parse.urlsplit(url)` (no default scheme, fragments allowed).
///
/// ```
/// use urlsift::canon::python::urlsplit;
/// let s = urlsplit(" HTTP://Example.com:80/a?b#c").unwrap();
/// assert_eq!((s.scheme.as_str(), s.netloc.as_str(), s.path.as_str()), ("http", "Example.com:80", "/a"));
/// assert!(urlsplit("http://[::1/").is_err());
/// ```
pub fn urlsplit(url: &str) -> Result<SplitResult, Refused> {
    let url = url.trim_start_matches(|c: char| c <= ' ');
    let cleaned: Cow<'_, str> = if memchr::memchr3(b'\t', b'\r', b'\n', url.as_bytes()).is_some() {
        Cow::Owned(url.replace(['\t', '\r', '\n'], ""))
    } else {
        Cow::Borrowed(url)
    };
    let mut url: &str = &cleaned;
    let mut split = SplitResult::default();
    if let Some(colon) = memchr::memchr(b':', url.as_bytes())
        && colon > 0
        && url.as_bytes()[0].is_ascii_alphabetic()
        && url[..colon]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
    {
        split.scheme = url[..colon].to_ascii_lowercase();
        url = &url[colon + 1..];
    }
    if url.starts_with("//") {
        let delim =
            memchr::memchr3(b'/', b'?', b'#', &url.as_bytes()[2..]).map_or(url.len(), |i| i + 2);
        let netloc = &url[2..delim];
        let has = |b: u8| memchr::memchr(b, netloc.as_bytes()).is_some();
        let (open, close) = (has(b'['), has(b']'));
        if open != close {
            return Err(Refused::Brackets);
        }
        if open {
            let bracketed = netloc.split_once('[').map_or("", |(_, b)| b);
            check_bracketed_host(bracketed.split_once(']').map_or(bracketed, |(h, _)| h))?;
        }
        split.netloc = netloc.to_string();
        url = &url[delim..];
    }
    if let Some(hash) = memchr::memchr(b'#', url.as_bytes()) {
        split.fragment = url[hash + 1..].to_string();
        url = &url[..hash];
    }
    if let Some(question) = memchr::memchr(b'?', url.as_bytes()) {
        split.query = url[question + 1..].to_string();
        url = &url[..question];
    }
    check_netloc(&split.netloc, NFKC_DELIMITERS)?;
    split.path = url.to_string();
    Ok(split)
}

/// `_check_bracketed_host`: an IPvFuture (`v` hex digits `.` more) or an
/// IPv6 address (w3lib's own `urlsplit` checks its hosts the same way).
pub(crate) fn check_bracketed_host(host: &str) -> Result<(), Refused> {
    if let Some(rest) = host.strip_prefix('v') {
        let digits = rest.bytes().take_while(u8::is_ascii_hexdigit).count();
        let ok = digits > 0
            && rest[digits..]
                .strip_prefix('.')
                .is_some_and(|r| !r.is_empty());
        return if ok { Ok(()) } else { Err(Refused::Brackets) };
    }
    match IpAddress::parse(host) {
        Some(IpAddress::V6(_)) => Ok(()),
        _ => Err(Refused::Brackets),
    }
}

/// `_checknetloc`: a non-ASCII authority must not gain one of
/// `delimiters` under NFKC (CPython's are [`NFKC_DELIMITERS`]; w3lib adds
/// `\`).
pub(crate) fn check_netloc(netloc: &str, delimiters: &[char]) -> Result<(), Refused> {
    if netloc.is_ascii() {
        return Ok(());
    }
    let n: String = netloc
        .chars()
        .filter(|c| !matches!(c, '@' | ':' | '#' | '?'))
        .collect();
    let normalized = nfkc(&n);
    if n != normalized && normalized.contains(delimiters) {
        return Err(Refused::Nfkc);
    }
    Ok(())
}

/// `unquote(text)` (UTF-8, errors replaced): each run of ASCII characters
/// percent-decoded and decoded as UTF-8 on its own, invalid bytes as
/// U+FFFD (maximal subparts, as CPython's decoder), other characters kept.
///
/// ```
/// use urlsift::canon::python::unquote_str;
/// assert_eq!(unquote_str("a%20b%C3%A9%ZZ"), "a bé%ZZ");
/// assert_eq!(unquote_str("%C3é%A9"), "\u{FFFD}é\u{FFFD}");
/// ```
pub fn unquote_str(text: &str) -> Cow<'_, str> {
    if !text.contains('%') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let ascii = rest.bytes().take_while(u8::is_ascii).count();
        if ascii > 0 {
            out.push_str(&String::from_utf8_lossy(&unquote(
                &rest.as_bytes()[..ascii],
                false,
            )));
            rest = &rest[ascii..];
        }
        let other = rest
            .char_indices()
            .find(|(_, c)| c.is_ascii())
            .map_or(rest.len(), |(i, _)| i);
        out.push_str(&rest[..other]);
        rest = &rest[other..];
    }
    Cow::Owned(out)
}

/// `quote(text, safe)` (`quote_plus` when `plus`) of the UTF-8 bytes.
///
/// ```
/// use urlsift::canon::python::{quote, Safe};
/// assert_eq!(quote("a b/é", &Safe::new(b"/"), false), "a%20b/%C3%A9");
/// assert_eq!(quote("a b", &Safe::new(b""), true), "a+b");
/// ```
pub fn quote(text: &str, safe: &Safe, plus: bool) -> String {
    let mut out = Vec::with_capacity(text.len());
    quote_into(text.as_bytes(), safe, plus, &mut out);
    String::from_utf8(out).expect("quoting leaves ASCII")
}

/// `parse_qs(query)`: `&`-separated pairs with a value (blank values and
/// names without `=` dropped), `+` read as a space, each part unquoted;
/// the names in the order they first come, each with its values.
///
/// ```
/// use urlsift::canon::python::parse_qs;
/// let q = parse_qs("b=2&a=1&b=3&c=&d&e+f=%20");
/// assert_eq!(q, vec![("b".into(), vec!["2".into(), "3".into()]), ("a".into(), vec!["1".into()]), ("e f".into(), vec![" ".into()])]);
/// ```
pub fn parse_qs(query: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for pair in query.split('&') {
        let Some((name, value)) = pair.split_once('=') else {
            continue;
        };
        if value.is_empty() {
            continue;
        }
        let name = unquote_str(&name.replace('+', " ")).into_owned();
        let value = unquote_str(&value.replace('+', " ")).into_owned();
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some((_, values)) => values.push(value),
            None => out.push((name, vec![value])),
        }
    }
    out
}

/// `urlencode(pairs, doseq=True)`: `name=value` for each value, both
/// `quote_plus`ed, joined by `&`.
///
/// ```
/// use urlsift::canon::python::urlencode;
/// assert_eq!(urlencode(&[("a b".into(), vec!["1".into(), "é".into()])]), "a+b=1&a+b=%C3%A9");
/// ```
pub fn urlencode(pairs: &[(String, Vec<String>)]) -> String {
    const NONE: Safe = Safe::new(b"");
    let mut out = Vec::new();
    for (name, values) in pairs {
        for value in values {
            if !out.is_empty() {
                out.push(b'&');
            }
            quote_into(name.as_bytes(), &NONE, true, &mut out);
            out.push(b'=');
            quote_into(value.as_bytes(), &NONE, true, &mut out);
        }
    }
    String::from_utf8(out).expect("quoting leaves ASCII")
}

/// `urlunsplit((scheme, netloc, path, query, fragment))`.
///
/// ```
/// use urlsift::canon::python::urlunsplit;
/// assert_eq!(urlunsplit("http", "e.com", "a", "q", ""), "http://e.com/a?q");
/// assert_eq!(urlunsplit("mailto", "", "x@e.com", "", "f"), "mailto:x@e.com#f");
/// ```
pub fn urlunsplit(scheme: &str, netloc: &str, path: &str, query: &str, fragment: &str) -> String {
    let mut url = String::with_capacity(
        scheme.len() + netloc.len() + path.len() + query.len() + fragment.len() + 6,
    );
    if !netloc.is_empty() || (!scheme.is_empty() && uses_netloc(scheme) && !path.starts_with("//"))
    {
        url.push_str("//");
        url.push_str(netloc);
        if !path.is_empty() && !path.starts_with('/') {
            url.push('/');
        }
    }
    url.push_str(path);
    let mut whole = String::with_capacity(url.len() + scheme.len() + 1);
    if !scheme.is_empty() {
        whole.push_str(scheme);
        whole.push(':');
    }
    whole.push_str(&url);
    if !query.is_empty() {
        whole.push('?');
        whole.push_str(query);
    }
    if !fragment.is_empty() {
        whole.push('#');
        whole.push_str(fragment);
    }
    whole
}

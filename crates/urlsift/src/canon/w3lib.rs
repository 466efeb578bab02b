//! w3lib 2.5.0's `canonicalize_url`: the form Scrapy fingerprints and
//! deduplicates requests by.
//!
//! The text is split as w3lib's `urlsplit` does (not the URL Standard's
//! parse): C0 controls and spaces trimmed, tabs and newlines removed, a
//! scheme of `[A-Za-z][A-Za-z0-9+.-]*:` lower-cased, `\` read as `/` before
//! the query in the special schemes. Then each part is made safe and
//! canonical:
//! - user information and path percent-decoded and re-encoded, the host
//!   lower-cased and IDNA 2003-encoded (Python's `idna` codec, as w3lib
//!   calls it; a host it refuses stays as written), the port as a number;
//! - the query split at `&`, each name and value decoded (`+` a space),
//!   the pairs sorted by name, then value (as bytes), re-encoded as
//!   `quote_plus` does; blank values kept unless
//!   [`Options::keep_blank_values`] is off;
//! - the path's `%2F`, `%3B`, `%3F` and `%25` kept escaped, the rest
//!   decoded and re-encoded (upper-case hex), dot segments resolved; an
//!   empty path written `/`; `;params` of the last segment kept apart;
//! - a bracketed IPv6 host written as Python writes it (`[::1]`);
//! - the fragment dropped unless [`Options::keep_fragments`].
//!
//! Text w3lib refuses (a bracket that does not close an IPv6 host, a port
//! that is not a number of at most 65535, a host whose NFKC form holds a
//! delimiter) is an error, [`Refused`].
//!
//! ```
//! use urlsift::canon::w3lib::{canonicalize, Options};
//! let c = |s| canonicalize(s, Options::default()).unwrap();
//! assert_eq!(c("http://www.example.com/r\u{e9}sum\u{e9}"), "http://www.example.com/r%C3%A9sum%C3%A9");
//! assert_eq!(c("http://[::0:1]/a/../b"), "http://[::1]/b");
//! assert_eq!(c("HTTP://Example.COM:8080/a b?q=a+b&p#frag"), "http://example.com:8080/a%20b?p=&q=a+b");
//! assert!(canonicalize("http://example.com:x/", Options::default()).is_err());
//! ```

use std::borrow::Cow;

pub use super::Refused;
use super::python::{self, IpAddress, Safe};

/// `canonicalize_url`'s options, as w3lib names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// Keep query pairs with an empty value or no `=` (w3lib's default:
    /// on); off drops them.
    pub keep_blank_values: bool,
    /// Keep the fragment (w3lib's default: off).
    pub keep_fragments: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            keep_blank_values: true,
            keep_fragments: false,
        }
    }
}

/// `_PATH_SAFEST_CHARS` (and the query's and fragment's).
const PATH_SAFEST: Safe = Safe::new(b":/?@!$&'()*+,;=%");
/// The query's in the special schemes: no `'`.
const SPECIAL_QUERY_SAFEST: Safe = Safe::new(b":/?@!$&()*+,;=%");
/// `_USERINFO_SAFEST_CHARS`.
const USERINFO_SAFEST: Safe = Safe::new(b"!$&'()*+,");
/// `_PATH_SAFE_CHARS`: what the canonical path keeps.
const PATH_SAFE: Safe = Safe::new(b":/?[]@!$&'()*+,;=|%");
/// `quote_plus`'s.
const UNRESERVED: Safe = Safe::new(b"");

fn is_special(scheme: &str) -> bool {
    matches!(scheme, "ftp" | "file" | "http" | "https" | "ws" | "wss")
}

/// The text with C0 controls and spaces trimmed from both ends and tabs
/// and newlines removed (`_strip`, then `urlsplit`'s own removal).
fn strip(text: &str) -> Cow<'_, str> {
    let text = text.trim_matches(|c: char| c <= ' ');
    if text.contains(['\t', '\n', '\r']) {
        Cow::Owned(text.replace(['\t', '\n', '\r'], ""))
    } else {
        Cow::Borrowed(text)
    }
}

/// Python's `str.find(needle, start)` as an index, or `None`.
fn find(s: &str, needle: u8, start: usize) -> Option<usize> {
    memchr::memchr(needle, s.as_bytes().get(start..)?).map(|i| i + start)
}

/// `url[..at]` and `url[at + 1..]` with Python's clamping.
fn cut_at(s: &str, at: usize) -> (&str, &str) {
    (&s[..at.min(s.len())], s.get(at + 1..).unwrap_or(""))
}

/// w3lib's `urlsplit`, less what `canonicalize_url` does not read.
struct Split<'a> {
    scheme: String,
    path: &'a str,
    query: &'a str,
    fragment: &'a str,
    username: Option<&'a str>,
    password: Option<&'a str>,
    hostname: String,
    port: Option<u16>,
}

/// The scheme (lower-cased) and the rest of `url`, `\\` read as `/`
/// before the query in the special schemes.
fn scheme_and_rest(url: &str) -> (String, Cow<'_, str>) {
    let mut url = url.trim_start_matches(|c: char| c <= ' ');
    let mut scheme = String::new();
    let b = url.as_bytes();
    if b.first().is_some_and(u8::is_ascii_alphabetic) {
        let end = b
            .iter()
            .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')))
            .unwrap_or(b.len());
        if b.get(end) == Some(&b':') {
            scheme = url[..end].to_ascii_lowercase();
            url = &url[end + 1..];
        }
    }
    if !(is_special(&scheme) && url.contains('\\')) {
        return (scheme, Cow::Borrowed(url));
    }
    let mut cut = url.len();
    if let Some(q) = url.find('?') {
        cut = q;
    }
    if let Some(h) = url.find('#') {
        cut = cut.min(h);
    }
    let replaced = url[..cut].replace('\\', "/") + &url[cut..];
    (scheme, Cow::Owned(replaced))
}

fn split_rest(scheme: String, mut url: &str) -> Result<Split<'_>, Refused> {
    let authority = url.starts_with("//");
    let scan = if authority { 2 } else { 0 };
    let slash = find(url, b'/', scan);
    let mut question = find(url, b'?', scan);
    let mut hash = find(url, b'#', scan);
    let mut netloc = "";
    if authority {
        let delim = [slash, question, hash]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(url.len());
        let open = find(url, b'[', 2).filter(|&p| p < delim);
        let close = find(url, b']', 2).filter(|&p| p < delim);
        if open.is_some() != close.is_some() {
            return Err(Refused::Brackets);
        }
        netloc = &url[2..delim];
        if open.is_some() {
            check_bracketed_netloc(netloc)?;
        }
        url = &url[delim..];
        question = question.map(|q| q - delim);
        hash = hash.map(|h| h - delim);
    }
    check_netloc(netloc)?;
    let mut fragment = "";
    let mut query = "";
    if let Some(h) = hash {
        (url, fragment) = cut_at(url, h);
    }
    if let Some(q) = question {
        (url, query) = cut_at(url, q);
    }
    let (username, password, hostinfo) = match netloc.rsplit_once('@') {
        Some((userinfo, hostinfo)) => match userinfo.split_once(':') {
            Some((user, password)) => (Some(user), Some(password), hostinfo),
            None => (Some(userinfo), None, hostinfo),
        },
        None => (None, None, netloc),
    };
    let (hostname, port) = if netloc.contains('[') {
        let bracketed = hostinfo.split_once('[').map_or("", |(_, b)| b);
        let (host, after) = bracketed.split_once(']').unwrap_or((bracketed, ""));
        (host, after.split_once(':').map_or("", |(_, p)| p))
    } else {
        hostinfo.split_once(':').unwrap_or((hostinfo, ""))
    };
    let hostname = match hostname.split_once('%') {
        Some((host, zone)) => format!("{}%{zone}", host.to_lowercase()),
        None => hostname.to_lowercase(),
    };
    let port = match port {
        "" => None,
        digits if digits.bytes().all(|b| b.is_ascii_digit()) => {
            let digits = digits.trim_start_matches('0');
            if digits.len() > 5 {
                return Err(Refused::Port);
            }
            Some(u16::try_from(digits.parse::<u32>().unwrap_or(0)).map_err(|_| Refused::Port)?)
        }
        _ => return Err(Refused::Port),
    };
    Ok(Split {
        scheme,
        path: url,
        query,
        fragment,
        username,
        password,
        hostname,
        port,
    })
}

/// `_check_bracketed_netloc`.
fn check_bracketed_netloc(netloc: &str) -> Result<(), Refused> {
    let host_and_port = netloc.rsplit_once('@').map_or(netloc, |(_, h)| h);
    let host = match host_and_port.split_once('[') {
        Some((before, bracketed)) => {
            if !before.is_empty() {
                return Err(Refused::Brackets);
            }
            let (host, port) = bracketed.split_once(']').unwrap_or((bracketed, ""));
            if !port.is_empty() && !port.starts_with(':') {
                return Err(Refused::Brackets);
            }
            host
        }
        None => host_and_port
            .split_once(':')
            .map_or(host_and_port, |(h, _)| h),
    };
    python::check_bracketed_host(host)
}

/// `_checknetloc`: a non-ASCII authority must not gain a delimiter under
/// NFKC.
fn check_netloc(netloc: &str) -> Result<(), Refused> {
    python::check_netloc(netloc, &['/', '?', '#', '@', ':', '\\'])
}

/// w3lib's `_idna_bytes`, less its fallback: the host IDNA 2003-encoded
/// after NFKC (with `@:#?` removed).
fn idna_host(hostname: &str) -> Option<String> {
    if hostname.is_ascii() {
        return Some(hostname.to_string());
    }
    let cleaned: String = hostname.chars().filter(|c| !"@:#?".contains(*c)).collect();
    python::idna_encode(&python::nfkc(&cleaned)).ok()
}

/// The parts `_safe_url_split` gives.
struct Safe5 {
    scheme: String,
    netloc: String,
    path: Vec<u8>,
    query: Vec<u8>,
    fragment: Vec<u8>,
}

fn safe_split(text: &str) -> Result<Safe5, Refused> {
    let text = strip(text);
    let (scheme, rest) = scheme_and_rest(&text);
    let parts = split_rest(scheme, &rest)?;
    let mut netloc = Vec::new();
    if let Some(user) = parts.username {
        python::quote_into(
            &python::unquote(user.as_bytes(), false),
            &USERINFO_SAFEST,
            false,
            &mut netloc,
        );
        if let Some(password) = parts.password {
            netloc.push(b':');
            python::quote_into(
                &python::unquote(password.as_bytes(), false),
                &USERINFO_SAFEST,
                false,
                &mut netloc,
            );
        }
        netloc.push(b'@');
    }
    if parts.hostname.contains(':') {
        if !parts.hostname.is_ascii() {
            // `encode("ascii")` raises.
            return Err(Refused::Brackets);
        }
        netloc.push(b'[');
        netloc.extend_from_slice(parts.hostname.as_bytes());
        netloc.push(b']');
    } else {
        match idna_host(&parts.hostname) {
            Some(host) => netloc.extend_from_slice(host.as_bytes()),
            None => netloc.extend_from_slice(parts.hostname.as_bytes()),
        }
    }
    if let Some(port) = parts.port {
        netloc.push(b':');
        netloc.extend_from_slice(port.to_string().as_bytes());
    }
    let mut path = Vec::new();
    python::quote_into(parts.path.as_bytes(), &PATH_SAFEST, false, &mut path);
    let mut query = Vec::new();
    let query_safe = if is_special(&parts.scheme) {
        &SPECIAL_QUERY_SAFEST
    } else {
        &PATH_SAFEST
    };
    python::quote_into(parts.query.as_bytes(), query_safe, false, &mut query);
    let mut fragment = Vec::new();
    python::quote_into(
        parts.fragment.as_bytes(),
        &PATH_SAFEST,
        false,
        &mut fragment,
    );
    if path.is_empty() && !query.is_empty() && is_special(&parts.scheme) {
        path.push(b'/');
    }
    Ok(Safe5 {
        scheme: parts.scheme,
        netloc: String::from_utf8(netloc).expect("quoted ASCII and a str host"),
        path,
        query,
        fragment,
    })
}

/// `_unquotepath`: `%25`, `%2F`, `%3B`, `%3F` kept escaped (as w3lib does
/// it, by replacing them in turn), the rest decoded.
fn unquote_path(path: &[u8]) -> Vec<u8> {
    if !path.contains(&b'%') {
        return path.to_vec();
    }
    let mut p = std::str::from_utf8(path).expect("quoted ASCII").to_string();
    for (from, to) in [
        ("%25", "%2525"),
        ("%2f", "%252F"),
        ("%2F", "%252F"),
        ("%3b", "%253B"),
        ("%3B", "%253B"),
        ("%3f", "%253F"),
        ("%3F", "%253F"),
    ] {
        if p.contains(from) {
            p = p.replace(from, to);
        }
    }
    python::unquote(p.as_bytes(), false)
}

/// `_remove_dot_segments` of a path that starts with `/`.
fn remove_dot_segments(path: &str) -> Cow<'_, str> {
    if !path.contains("/.") {
        return Cow::Borrowed(path);
    }
    let segments: Vec<&str> = path[1..].split('/').collect();
    let (last, rest) = segments.split_last().expect("split gives one");
    let mut output: Vec<&str> = Vec::with_capacity(segments.len());
    for &segment in rest {
        match segment {
            ".." => {
                output.pop();
            }
            "." => {}
            s => output.push(s),
        }
    }
    match *last {
        ".." => {
            output.pop();
            output.push("");
        }
        "." => output.push(""),
        s => output.push(s),
    }
    Cow::Owned(format!("/{}", output.join("/")))
}

/// The query's pairs, sorted, re-encoded (steps of `canonicalize_url`).
fn canonical_query(query: &[u8], keep_blank_values: bool) -> Vec<u8> {
    let mut pairs: Vec<(Vec<u8>, Vec<u8>)> = query
        .split(|&b| b == b'&')
        .filter(|field| !field.is_empty())
        .filter_map(|field| {
            let (key, value, has_sep) = match memchr::memchr(b'=', field) {
                Some(at) => (&field[..at], &field[at + 1..], true),
                None => (field, &field[field.len()..], false),
            };
            if !keep_blank_values && (!has_sep || value.is_empty()) {
                return None;
            }
            Some((python::unquote(key, true), python::unquote(value, true)))
        })
        .collect();
    pairs.sort();
    let mut out = Vec::with_capacity(query.len());
    for (i, (key, value)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push(b'&');
        }
        python::quote_into(key, &UNRESERVED, true, &mut out);
        out.push(b'=');
        python::quote_into(value, &UNRESERVED, true, &mut out);
    }
    out
}

/// `_normalize_ipv6_host`: the first bracketed IPv6 address written as
/// Python writes it.
fn normalize_ipv6_host(netloc: String) -> String {
    let Some(start) = netloc.find('[') else {
        return netloc;
    };
    let Some(end) = netloc[start..].find(']').map(|e| e + start) else {
        return netloc;
    };
    match IpAddress::parse(&netloc[start + 1..end]) {
        Some(IpAddress::V6(v6)) => format!(
            "{}[{}]{}",
            &netloc[..start],
            python::ipv6_text(&v6),
            &netloc[end + 1..]
        ),
        _ => netloc,
    }
}

/// w3lib 2.5.0's `canonicalize_url(text, keep_blank_values,
/// keep_fragments)`, byte for byte (see the module docs).
pub fn canonicalize(text: &str, options: Options) -> Result<String, Refused> {
    let Safe5 {
        scheme,
        netloc,
        path,
        query,
        fragment,
    } = safe_split(text)?;
    // `;params` of the last segment, for the schemes that have them.
    let (path, params) = match uses_params_cut(&scheme, &path) {
        Some(at) => (&path[..at], &path[at + 1..]),
        None => (&path[..], &path[path.len()..]),
    };
    let query = if query.is_empty() {
        query
    } else {
        canonical_query(&query, options.keep_blank_values)
    };
    let path = if path.is_empty() {
        "/".to_string()
    } else {
        let mut quoted = Vec::with_capacity(path.len());
        python::quote_into(&unquote_path(path), &PATH_SAFE, false, &mut quoted);
        String::from_utf8(quoted).expect("quoted ASCII")
    };
    let path = if path.starts_with('/') {
        remove_dot_segments(&path).into_owned()
    } else {
        path
    };
    let fragment: &[u8] = if options.keep_fragments {
        &fragment
    } else {
        b""
    };
    // The host lower-cased again (after IDNA), a `:` with no port dropped.
    let at = netloc.rfind('@').map_or(0, |at| at + 1);
    let host = &netloc[at..];
    let lowered = if host.is_ascii() && !host.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Borrowed(host)
    } else {
        Cow::Owned(host.to_lowercase())
    };
    let host = lowered.strip_suffix(':').unwrap_or(&lowered);
    let unchanged = matches!(lowered, Cow::Borrowed(_)) && host.len() == lowered.len();
    let netloc = if unchanged {
        netloc
    } else {
        format!("{}{host}", &netloc[..at])
    };
    let netloc = normalize_ipv6_host(netloc);
    Ok(unsplit(&scheme, &netloc, &path, params, &query, fragment))
}

fn uses_params_cut(scheme: &str, path: &[u8]) -> Option<usize> {
    if !python::uses_params(scheme) {
        return None;
    }
    let last = path.iter().rposition(|&b| b == b'/').map_or(0, |s| s + 1);
    memchr::memchr(b';', &path[last..]).map(|i| i + last)
}

/// `urlunparse`.
fn unsplit(
    scheme: &str,
    netloc: &str,
    path: &str,
    params: &[u8],
    query: &[u8],
    fragment: &[u8],
) -> String {
    let ascii = |b| std::str::from_utf8(b).expect("quoted ASCII");
    let mut url = String::with_capacity(
        scheme.len() + netloc.len() + path.len() + params.len() + query.len() + fragment.len() + 8,
    );
    if !scheme.is_empty() {
        url.push_str(scheme);
        url.push(':');
    }
    // The path is never empty (an empty one is written `/`): it and its
    // params are the tail `urlunsplit` joins.
    debug_assert!(!path.is_empty());
    if !netloc.is_empty() {
        url.push_str("//");
        url.push_str(netloc);
        if !path.starts_with('/') {
            url.push('/');
        }
    } else if path.starts_with("//")
        || (!scheme.is_empty() && python::uses_netloc(scheme) && path.starts_with('/'))
    {
        url.push_str("//");
    }
    url.push_str(path);
    if !params.is_empty() {
        url.push(';');
        url.push_str(ascii(params));
    }
    if !query.is_empty() {
        url.push('?');
        url.push_str(ascii(query));
    }
    if !fragment.is_empty() {
        url.push('#');
        url.push_str(ascii(fragment));
    }
    url
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(text: &str) -> String {
        canonicalize(text, Options::default()).unwrap()
    }

    // w3lib's documented behavior (its docstring's and changelog's
    // examples), as facts about its output.
    #[test]
    fn documented_examples() {
        assert_eq!(
            c("http://www.example.com/do?c=3&b=5&b=2&a=50"),
            "http://www.example.com/do?a=50&b=2&b=5&c=3"
        );
        assert_eq!(
            c("http://www.example.com/r\u{e9}sum\u{e9}"),
            "http://www.example.com/r%C3%A9sum%C3%A9"
        );
        assert_eq!(c("http://[::0:1]/a/../b"), "http://[::1]/b");
        assert_eq!(c("mailto:a/../b"), "mailto:a/../b");
        assert_eq!(c("foo:/a/../b"), "foo:/b");
    }

    #[test]
    fn query_path_and_fragment() {
        assert_eq!(
            c("http://a.com/p%2fq%3b%3F%25?b=%7e&a"),
            "http://a.com/p%2Fq%3B%3F%25?a=&b=~"
        );
        assert_eq!(c("http://a.com?x=1"), "http://a.com/?x=1");
        assert_eq!(c("http://a.com/a;p=1?x#f"), "http://a.com/a;p=1?x=");
        let keep = Options {
            keep_blank_values: false,
            keep_fragments: true,
        };
        assert_eq!(
            canonicalize("http://a.com/?a&b=&c=1#f g", keep).unwrap(),
            "http://a.com/?c=1#f%20g"
        );
        assert_eq!(c("  http://a.com/a\tb  "), "http://a.com/ab");
        assert_eq!(c("http:\\\\a.com\\b?c\\d"), "http://a.com/b?c%5Cd=");
    }

    #[test]
    fn hosts_and_ports() {
        assert_eq!(
            c("http://User:P%41ss@WWW.Ex.com:080/"),
            "http://User:PAss@www.ex.com:80/"
        );
        assert_eq!(c("http://bücher.de/"), "http://xn--bcher-kva.de/");
        assert_eq!(c("http://a.com:/"), "http://a.com/");
        // Python reads `%C5...` as an empty host and a zone, which its
        // first lower-casing leaves; the second lower-cases it all.
        assert_eq!(
            c("https://%C5%A1ime.eu/feed.xml"),
            "https://%c5%a1ime.eu/feed.xml"
        );
        assert_eq!(
            canonicalize("http://a.com:99999/", Options::default()),
            Err(Refused::Port)
        );
        assert_eq!(
            canonicalize("http://[1.2.3.4]/", Options::default()),
            Err(Refused::Brackets)
        );
        assert_eq!(
            canonicalize("http://[::1/", Options::default()),
            Err(Refused::Brackets)
        );
        assert_eq!(c("www.example.com/a"), "www.example.com/a");
        assert_eq!(c("example.com:8080/a"), "example.com:8080/a");
    }
}

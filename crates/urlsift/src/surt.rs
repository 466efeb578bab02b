//! SURT keys as web archives write them: the `urlkey` of Wayback, pywb and
//! Common Crawl indexes, byte for byte the key of the `surt` package
//! (`surt.surt(url)`, version 0.3.1, default options), computed from the
//! URL as the URL Standard parses it.
//!
//! The key is the Internet Archive's canonicalization of a URL, then its
//! host reversed: `https://www.Example.com/A/b/?B=2&a=1#top` has the key
//! `com,example)/a/b?a=1&b=2`. Its steps, in the order the archives apply
//! them:
//!
//! 1. The fragment and the userinfo go; so does a default port.
//! 2. The host: percent-decoded, lowercased, runs of `..` made one `.`,
//!    leading and trailing dots dropped, a leading `www.` (or `www2.`, any
//!    digits) dropped, the labels reversed and joined by `,`. An IPv4
//!    address is reversed too; an IPv6 address keeps its brackets.
//! 3. The path: percent-decoded until nothing changes, `.` and `..`
//!    segments resolved, empty segments dropped but the last, escaped
//!    again once (bytes outside printable ASCII, space, `#` and `%`),
//!    lowercased, ASP.NET session segments (`/(S(...))/x.aspx`) dropped,
//!    a trailing `/` dropped (but the root's).
//! 4. The query: decoded and escaped as the path, session parameters
//!    (`jsessionid`, `phpsessid`, `sid`, `ASPSESSIONID...`, `cfid` with
//!    `cftoken`) dropped, lowercased, its `&`-separated pairs sorted as
//!    (name, value) byte strings; an empty query goes with its `?`.
//! 5. The key: host, `:port`, `)`, path, `?query`; a URL without a host
//!    gives `scheme:` then its path and query.
//!
//! Where the `surt` package reads a URL otherwise than the URL Standard,
//! the key follows the standard's reading, on purpose: hosts the standard
//! reads as IPv4 addresses in other notations (`0x7f.1` is `127.0.0.1`),
//! IPv6 addresses (the brackets stay: `[::1]`, which surt drops), `%2F`
//! inside a path segment (it stays a byte of that segment, `%2f`, where
//! surt makes it a `/` between two), internationalized hosts (UTS #46, as
//! browsers map them; surt uses IDNA 2003), and every input the standard
//! rejects (no key; surt guesses one).
//!
//! [`SurtOptions`] holds the `surt` package's options: the scheme in front
//! (`http://(com,example,)/`), the trailing comma, IP addresses in their
//! order, `www` kept, the query in its order.
//!
//! ```
//! use urlsift::Url;
//! use urlsift::surt::{SurtOptions, key};
//!
//! let url = Url::parse("https://www.Example.com/A/b/?B=2&a=1#top").unwrap();
//! assert_eq!(key(&url, &SurtOptions::default()), "com,example)/a/b?a=1&b=2");
//! let heritrix = SurtOptions { scheme: true, trailing_comma: true, ..SurtOptions::default() };
//! assert_eq!(key(&url, &heritrix), "https://(com,example,)/a/b?a=1&b=2");
//! ```

use crate::percent::{decode_repeatedly, escape_unsafe};
use crate::{HostKind, Url};

/// The `surt` package's options; `Default` is its default key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SurtOptions {
    /// The scheme in front: `https://(com,example)/` (`with_scheme`).
    pub scheme: bool,
    /// A comma after the host: `com,example,)/` (`trailing_comma`).
    pub trailing_comma: bool,
    /// IPv4 addresses in their own order (`reverse_ipaddr=False`).
    pub keep_ip_order: bool,
    /// A leading `www.` kept (`host_massage=False`).
    pub keep_www: bool,
    /// The query's pairs in their order (`query_alpha_reorder=False`).
    pub keep_query_order: bool,
}

/// The SURT key of `url` (see the module docs).
///
/// ```
/// use urlsift::{Url, surt::{SurtOptions, key}};
/// let url = Url::parse("http://192.168.0.1:8080/x/").unwrap();
/// assert_eq!(key(&url, &SurtOptions::default()), "1,0,168,192:8080)/x");
/// ```
pub fn key(url: &Url, options: &SurtOptions) -> String {
    let mut out = Vec::new();
    write_key(url, url.query().map(str::as_bytes), options, &mut out);
    String::from_utf8(out).expect("keys are ASCII")
}

/// Writes the SURT key of `url` to `out`, with `query` in place of the
/// URL's own (a profile may have dropped some of its parameters; `None`:
/// no query).
///
/// ```
/// use urlsift::{Url, surt::{SurtOptions, write_key}};
/// let url = Url::parse("https://example.com/?utm_source=x&id=3").unwrap();
/// let mut key = Vec::new();
/// write_key(&url, Some(b"id=3"), &SurtOptions::default(), &mut key);
/// assert_eq!(key, b"com,example)/?id=3");
/// ```
pub fn write_key(url: &Url, query: Option<&[u8]>, options: &SurtOptions, out: &mut Vec<u8>) {
    let start = out.len();
    let has_host = match url.host_kind() {
        Some(HostKind::Empty) | None => false,
        Some(kind) => write_host(url, kind, options, out),
    };
    if has_host {
        let host = out.split_off(start);
        if options.scheme {
            out.extend_from_slice(url.scheme().as_bytes());
            out.push(b':');
            if url.scheme() != "dns" {
                out.extend_from_slice(b"//");
            }
            out.push(b'(');
        }
        out.extend_from_slice(&host);
        if !url.port().is_empty() {
            out.push(b':');
            out.extend_from_slice(url.port().as_bytes());
        }
        if options.trailing_comma {
            out.push(b',');
        }
        out.push(b')');
        let path = out.len();
        write_host_path(url.pathname().as_bytes(), out);
        finish_path(out, path);
    } else {
        out.truncate(start);
        out.extend_from_slice(url.scheme().as_bytes());
        out.push(b':');
        let path = out.len();
        escape_unsafe(&decode_repeatedly(url.pathname().as_bytes()), out);
        finish_path(out, path);
        if out.len() == path && query.is_some_and(|q| !q.is_empty()) {
            out.push(b'/');
        }
    }
    if let Some(query) = query {
        write_query(query, options, out);
    }
}

/// The host, canonicalized and reversed; false when nothing is left of it
/// (a host of dots).
fn write_host(url: &Url, kind: HostKind, options: &SurtOptions, out: &mut Vec<u8>) -> bool {
    let hostname = url.hostname().as_bytes();
    match kind {
        HostKind::Ipv6 => {
            out.extend_from_slice(hostname);
            return true;
        }
        HostKind::Ipv4 => {
            if options.keep_ip_order {
                out.extend_from_slice(hostname);
            } else {
                reverse_labels(hostname, out);
            }
            return true;
        }
        _ => {}
    }
    let mut host = decode_repeatedly(hostname);
    host.make_ascii_lowercase();
    // `..` made `.` (one pass, as a string replace does), then the dots
    // at either end dropped.
    let mut once = Vec::with_capacity(host.len());
    let mut i = 0;
    while i < host.len() {
        once.push(host[i]);
        i += if host[i..].starts_with(b"..") { 2 } else { 1 };
    }
    let trimmed = trim_dots(&once);
    let mut escaped = Vec::with_capacity(trimmed.len());
    escape_unsafe(trimmed, &mut escaped);
    let host = match options.keep_www || url.scheme() == "dns" {
        true => &escaped[..],
        false => strip_www(&escaped),
    };
    if host.is_empty() {
        return false;
    }
    // The `surt` package keeps a dotted quad in order under
    // `reverse_ipaddr=False` even where it is a domain's last labels.
    if options.keep_ip_order && is_dotted_quad(host) {
        out.extend_from_slice(host);
    } else {
        reverse_labels(host, out);
    }
    true
}

fn trim_dots(host: &[u8]) -> &[u8] {
    let start = host.iter().position(|&b| b != b'.').unwrap_or(host.len());
    let end = host
        .iter()
        .rposition(|&b| b != b'.')
        .map_or(start, |e| e + 1);
    &host[start..end]
}

/// `www.`, `www2.`, `www123.`: dropped from the front.
fn strip_www(host: &[u8]) -> &[u8] {
    let Some(rest) = host.strip_prefix(b"www") else {
        return host;
    };
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    match rest[digits..].strip_prefix(b".") {
        Some(rest) => rest,
        None => host,
    }
}

/// `(\d{1,3}\.){3}\d{1,3}` at the start and to the end.
fn is_dotted_quad(host: &[u8]) -> bool {
    let parts: Vec<&[u8]> = host.split(|&b| b == b'.').collect();
    parts.len() == 4
        && parts
            .iter()
            .all(|p| (1..=3).contains(&p.len()) && p.iter().all(u8::is_ascii_digit))
}

fn reverse_labels(host: &[u8], out: &mut Vec<u8>) {
    for (i, label) in host.rsplit(|&b| b == b'.').enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(label);
    }
}

/// The path of a URL with a host: each segment decoded until it stays
/// the same, `.` and `..` resolved, empty segments dropped but the last,
/// each escaped once. A `/` that was `%2F` stays inside its segment.
fn write_host_path(path: &[u8], out: &mut Vec<u8>) {
    let mut kept: Vec<Vec<u8>> = Vec::new();
    for segment in path.split(|&b| b == b'/').skip(1) {
        let segment = decode_repeatedly(segment);
        match &segment[..] {
            b"." => {}
            b".." => {
                if kept.pop().is_none() {
                    kept.push(segment);
                }
            }
            _ => kept.push(segment),
        }
    }
    out.push(b'/');
    let Some((last, rest)) = kept.split_last() else {
        return;
    };
    for segment in rest.iter().filter(|s| !s.is_empty()) {
        escape_segment(segment, out);
        out.push(b'/');
    }
    escape_segment(last, out);
}

fn escape_segment(segment: &[u8], out: &mut Vec<u8>) {
    for piece in segment.split_inclusive(|&b| b == b'/') {
        match piece.strip_suffix(b"/") {
            Some(bytes) => {
                escape_unsafe(bytes, out);
                out.extend_from_slice(b"%2F");
            }
            None => escape_unsafe(piece, out),
        }
    }
}

/// The path's last steps, on what `out` holds from `path` on: lowercased,
/// ASP.NET session segments dropped, a trailing `/` dropped unless the
/// path is only that.
fn finish_path(out: &mut Vec<u8>, path: usize) {
    out[path..].make_ascii_lowercase();
    let stripped = strip_path_session_ids(&out[path..]);
    if let Some(stripped) = stripped {
        out.truncate(path);
        out.extend_from_slice(&stripped);
    }
    if out.len() - path > 1 && out.ends_with(b"/") {
        out.pop();
    }
}

/// `^(.*/)(\((?:[a-z]\([0-9a-z]{24}\))+\)/)([^?]+\.aspx.*)$`, then
/// `^(.*/)(\([0-9a-z]{24}\)/)([^?]+\.aspx.*)$`, each taking out its middle
/// group (the path is lowercase already).
fn strip_path_session_ids(path: &[u8]) -> Option<Vec<u8>> {
    let mut path = path.to_vec();
    let mut changed = false;
    for middle in [
        cookieless_session as fn(&[u8]) -> Option<usize>,
        plain_session,
    ] {
        // The greedy `(.*/)`: the last `/` after which the rest matches.
        let found = (1..=path.len()).rev().find_map(|i| {
            if path[i - 1] != b'/' {
                return None;
            }
            let len = middle(&path[i..])?;
            let rest = &path[i + len..];
            let aspx = rest.windows(5).position(|w| w == b".aspx")?;
            (aspx >= 1 && !rest[..aspx].contains(&b'?')).then_some((i, len))
        });
        if let Some((i, len)) = found {
            path.drain(i..i + len);
            changed = true;
        }
    }
    changed.then_some(path)
}

/// `\((?:[a-z]\([0-9a-z]{24}\))+\)/`: its length at the start of `s`.
fn cookieless_session(s: &[u8]) -> Option<usize> {
    let mut i = 1;
    if s.first() != Some(&b'(') {
        return None;
    }
    let mut groups = 0;
    while s.len() >= i + 28
        && s[i].is_ascii_lowercase()
        && s[i + 1] == b'('
        && s[i + 2..i + 26]
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && s[i + 26] == b')'
    {
        i += 27;
        groups += 1;
    }
    (groups > 0 && s[i..].starts_with(b")/")).then_some(i + 2)
}

/// `\([0-9a-z]{24}\)/`: its length at the start of `s`.
fn plain_session(s: &[u8]) -> Option<usize> {
    (s.len() >= 27
        && s[0] == b'('
        && s[1..25]
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && s[25] == b')'
        && s[26] == b'/')
        .then_some(27)
}

/// `?query`, canonicalized: decoded and escaped, session parameters
/// dropped, lowercased, pairs sorted; nothing for an empty query.
fn write_query(query: &[u8], options: &SurtOptions, out: &mut Vec<u8>) {
    if query.is_empty() {
        return;
    }
    let mut q = Vec::with_capacity(query.len());
    escape_unsafe(&decode_repeatedly(query), &mut q);
    let mut q = strip_query_session_ids(q);
    q.make_ascii_lowercase();
    if q.is_empty() {
        return;
    }
    out.push(b'?');
    if options.keep_query_order || q.len() <= 1 {
        out.extend_from_slice(&q);
        return;
    }
    // Sorted as (name,) or (name, value) tuples: a pair without `=` comes
    // before the same name with one.
    let mut pairs: Vec<(&[u8], Option<&[u8]>)> = q
        .split(|&b| b == b'&')
        .map(|pair| match pair.iter().position(|&b| b == b'=') {
            Some(i) => (&pair[..i], Some(&pair[i + 1..])),
            None => (pair, None),
        })
        .collect();
    pairs.sort();
    for (i, (name, value)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push(b'&');
        }
        out.extend_from_slice(name);
        if let Some(value) = value {
            out.push(b'=');
            out.extend_from_slice(value);
        }
    }
}

/// The archives' session parameters, each pattern in turn:
/// `^(.*)(?:PATTERN)(?:&(.*))?$`, ASCII case-insensitive, keeping the two
/// groups.
fn strip_query_session_ids(mut q: Vec<u8>) -> Vec<u8> {
    type Matcher = fn(&[u8]) -> Option<usize>;
    let patterns: [Matcher; 5] = [
        |s| named_run(s, b"jsessionid=", 32, u8::is_ascii_alphanumeric),
        |s| named_run(s, b"phpsessid=", 32, u8::is_ascii_alphanumeric),
        |s| named_run(s, b"sid=", 32, u8::is_ascii_alphanumeric),
        asp_session,
        cf_session,
    ];
    for pattern in patterns {
        // The greedy `(.*)`: the last start where the pattern matches and
        // is followed by the end or `&`.
        let found = (0..=q.len()).rev().find_map(|i| {
            let len = pattern(&q[i..])?;
            match q.get(i + len) {
                None | Some(b'&') => Some((i, len)),
                _ => None,
            }
        });
        if let Some((i, len)) = found {
            let rest = q.get(i + len + 1..).unwrap_or_default().to_vec();
            q.truncate(i);
            q.extend_from_slice(&rest);
        }
    }
    q
}

/// `NAME` (any case) then exactly `n` bytes of `class`.
fn named_run(s: &[u8], name: &[u8], n: usize, class: fn(&u8) -> bool) -> Option<usize> {
    let body = s.get(name.len()..name.len() + n)?;
    (s[..name.len()].eq_ignore_ascii_case(name) && body.iter().all(class)).then_some(name.len() + n)
}

/// `ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24}`.
fn asp_session(s: &[u8]) -> Option<usize> {
    let head = named_run(s, b"aspsessionid", 8, u8::is_ascii_alphabetic)?;
    (s.get(head) == Some(&b'='))
        .then(|| named_run(&s[head..], b"=", 24, u8::is_ascii_alphabetic))
        .flatten()
        .map(|tail| head + tail)
}

/// `cfid=[^&]+&cftoken=[^&]+`.
fn cf_session(s: &[u8]) -> Option<usize> {
    let run = |s: &[u8]| s.iter().take_while(|&&b| b != b'&').count();
    if !s.get(..5)?.eq_ignore_ascii_case(b"cfid=") {
        return None;
    }
    let id = run(&s[5..]);
    let token = 5 + id;
    if id == 0 || !s.get(token..token + 9)?.eq_ignore_ascii_case(b"&cftoken=") {
        return None;
    }
    let value = run(&s[token + 9..]);
    (value > 0).then_some(token + 9 + value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(input: &str) -> String {
        key(&Url::parse(input).unwrap(), &SurtOptions::default())
    }

    /// The `surt` package's own examples (its test suite's expectations),
    /// as far as the URL Standard reads the inputs alike.
    #[test]
    fn keys_as_the_archives_write_them() {
        for (input, want) in [
            (
                "http://www.archive.org/index.html",
                "org,archive)/index.html",
            ),
            (
                "http://archive.org/goo/?a=2&b&a=1",
                "org,archive)/goo?a=1&a=2&b",
            ),
            ("http://archive.org/goo/", "org,archive)/goo"),
            ("http://archive.org/goo/?", "org,archive)/goo"),
            ("http://archive.org/", "org,archive)/"),
            ("http://archive.org/?", "org,archive)/"),
            ("http://archive.org:80/", "org,archive)/"),
            ("http://archive.org:8080/", "org,archive:8080)/"),
            ("https://archive.org:443/", "org,archive)/"),
            ("http://www2.archive.org/x", "org,archive)/x"),
            ("http://www.com/", "com)/"),
            ("http://user:pass@archive.org/", "org,archive)/"),
            ("http://archive.org/A/B?C=D#E", "org,archive)/a/b?c=d"),
            ("http://archive.org//a//b///c", "org,archive)/a/b/c"),
            ("http://archive.org/a/%252e%252e/b", "org,archive)/b"),
            ("http://archive.org/%7Ea%20b", "org,archive)/~a%20b"),
            ("http://archive.org/?q=%25%2541", "org,archive)/?q=%25a"),
            ("http://archive.org/?q=%zz", "org,archive)/?q=%25zz"),
            ("http://example.com./x", "com,example)/x"),
            ("http://192.168.1.254/info/", "254,1,168,192)/info"),
            ("http://[::1]:8080/", "[::1]:8080)/"),
            ("http://archive.org/a%2Fb", "org,archive)/a%2fb"),
            ("http://archive.org/x?b&a=", "org,archive)/x?a=&b"),
            ("http://archive.org/x?a=&a", "org,archive)/x?a&a="),
            ("mailto:Foo@Example.COM", "mailto:foo@example.com"),
            ("file:///etc/Passwd", "file:/etc/passwd"),
            ("gemini://Example.com/x", "com,example)/x"),
            ("ftp://ftp.example.org/pub/", "org,example,ftp)/pub"),
        ] {
            assert_eq!(k(input), want, "{input}");
        }
    }

    #[test]
    fn session_ids_go() {
        let id = "0123456789abcdef0123456789ABCDEF";
        assert_eq!(
            k(&format!("http://a.com/x?jsessionid={id}&b=1")),
            "com,a)/x?b=1"
        );
        // The parameter's `&` before it stays, as the archives keep it.
        assert_eq!(
            k(&format!("http://a.com/x?b=1&jsessionid={id}")),
            "com,a)/x?&b=1"
        );
        assert_eq!(k(&format!("http://a.com/x?phpsessid={id}")), "com,a)/x");
        assert_eq!(
            k(&format!("http://a.com/x?sid={id}x")),
            format!("com,a)/x?sid={}x", id.to_lowercase())
        );
        assert_eq!(
            k("http://a.com/x?ASPSESSIONIDABCDEFGH=ABCDEFGHIJKLMNOPQRSTUVWX&y=1"),
            "com,a)/x?y=1"
        );
        assert_eq!(k("http://a.com/x?cfid=12&cftoken=34&z=9"), "com,a)/x?z=9");
        assert_eq!(
            k("http://a.com/p/(S(0123456789abcdefghijklmn))/page.aspx?x=1"),
            "com,a)/p/page.aspx?x=1"
        );
        assert_eq!(
            k("http://a.com/p/(0123456789abcdefghijklmn)/page.aspx"),
            "com,a)/p/page.aspx"
        );
    }

    #[test]
    fn options_as_the_package_names_them() {
        let url = Url::parse("http://www.example.com:8080/b/?z=1&a=2").unwrap();
        let o = |f: fn(&mut SurtOptions)| {
            let mut options = SurtOptions::default();
            f(&mut options);
            key(&url, &options)
        };
        assert_eq!(
            o(|o| o.scheme = true),
            "http://(com,example:8080)/b?a=2&z=1"
        );
        assert_eq!(
            o(|o| o.trailing_comma = true),
            "com,example:8080,)/b?a=2&z=1"
        );
        assert_eq!(o(|o| o.keep_www = true), "com,example,www:8080)/b?a=2&z=1");
        assert_eq!(
            o(|o| o.keep_query_order = true),
            "com,example:8080)/b?z=1&a=2"
        );
        let ip = Url::parse("http://10.0.0.1/").unwrap();
        let keep = SurtOptions {
            keep_ip_order: true,
            ..SurtOptions::default()
        };
        assert_eq!(key(&ip, &keep), "10.0.0.1)/");
    }
}

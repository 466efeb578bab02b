//! The canonical form of Google Safe Browsing ("URLs and Hashing" in the
//! Safe Browsing API documentation; Web Risk uses the same), which
//! phishing and blocklist teams key URLs by, and the host-suffix /
//! path-prefix expressions looked up for a URL.
//!
//! The form is computed from the URL as the URL Standard parses it (tabs
//! and newlines removed, leading and trailing spaces dropped, the host
//! percent-decoded, IPv4 addresses in every notation made dotted decimal,
//! `.` and `..` resolved), then Safe Browsing's steps:
//!
//! 1. The fragment, the userinfo and the port go.
//! 2. Each part is percent-decoded until nothing changes.
//! 3. The host: leading and trailing dots dropped, runs of dots made one,
//!    lowercased.
//! 4. The path: `.` and `..` resolved (a decoded `%2E%2E` too) and runs of
//!    slashes made one; an empty path is `/`. The query is left as it is
//!    (a `?` with nothing after it stays).
//! 5. Bytes up to and including the space, from 0x7F on, `#` and `%` are
//!    escaped again, once, as `%XX` in upper case.
//!
//! An input the URL Standard rejects (no scheme, a space or a control
//! character in the host) has no canonical form: it stays a bad record.
//!
//! ```
//! use urlsift::Url;
//! use urlsift::safe_browsing::{canonical, expressions};
//!
//! let url = Url::parse("http://host/%25%32%35").unwrap();
//! assert_eq!(canonical(&url), "http://host/%25");
//! let url = Url::parse("http://a.b.c/1/2.html?param=1").unwrap();
//! assert_eq!(
//!     expressions(&url),
//!     [
//!         "a.b.c/1/2.html?param=1",
//!         "a.b.c/1/2.html",
//!         "a.b.c/",
//!         "a.b.c/1/",
//!         "b.c/1/2.html?param=1",
//!         "b.c/1/2.html",
//!         "b.c/",
//!         "b.c/1/",
//!     ]
//! );
//! ```

use crate::percent::{decode_repeatedly, escape_unsafe};
use crate::{HostKind, Url};

/// The Safe Browsing canonical form of `url`.
pub fn canonical(url: &Url) -> String {
    let mut out = Vec::new();
    write_canonical(url, url.query().map(str::as_bytes), &mut out);
    String::from_utf8(out).expect("the form is ASCII")
}

/// Writes the canonical form of `url` to `out`, with `query` in place of
/// its own (`None`: no query).
pub fn write_canonical(url: &Url, query: Option<&[u8]>, out: &mut Vec<u8>) {
    out.extend_from_slice(url.scheme().as_bytes());
    out.push(b':');
    let host = host(url);
    if url.host_kind().is_some() {
        out.extend_from_slice(b"//");
        escape_unsafe(&host, out);
    }
    let path = path(url);
    escape_unsafe(&path, out);
    if let Some(query) = query {
        out.push(b'?');
        escape_unsafe(&decode_repeatedly(query), out);
    }
}

/// The host, decoded, its dots trimmed and collapsed, lowercased.
fn host(url: &Url) -> Vec<u8> {
    let decoded = decode_repeatedly(url.hostname().as_bytes());
    let mut host = Vec::with_capacity(decoded.len());
    for &b in decoded.iter() {
        if b == b'.' && (host.is_empty() || host.last() == Some(&b'.')) {
            continue;
        }
        host.push(b.to_ascii_lowercase());
    }
    while host.last() == Some(&b'.') {
        host.pop();
    }
    host
}

/// The path, decoded, dot segments resolved and slash runs collapsed. A
/// URL with an opaque path (`mailto:x`) keeps it as it is, decoded.
fn path(url: &Url) -> Vec<u8> {
    let decoded = decode_repeatedly(url.pathname().as_bytes());
    if url.host_kind().is_none() {
        return decoded;
    }
    let mut segments: Vec<&[u8]> = Vec::new();
    let mut trailing = false;
    for segment in decoded.split(|&b| b == b'/') {
        trailing = false;
        match segment {
            b"" => trailing = true,
            b"." => trailing = true,
            b".." => {
                segments.pop();
                trailing = true;
            }
            s => segments.push(s),
        }
    }
    let mut path = Vec::with_capacity(decoded.len() + 1);
    for s in &segments {
        path.push(b'/');
        path.extend_from_slice(s);
    }
    if trailing || segments.is_empty() {
        path.push(b'/');
    }
    path
}

/// The host-suffix / path-prefix expressions Safe Browsing looks `url` up
/// by, most specific first: hosts, the exact one then up to four formed
/// from its last five labels (not the top-level label alone; an IP address
/// only itself), each with paths, the exact path with its query, without
/// it, then up to four directory prefixes from `/`. Scheme-less, as the
/// lists hash them.
pub fn expressions(url: &Url) -> Vec<String> {
    let mut form = Vec::new();
    write_canonical(url, url.query().map(str::as_bytes), &mut form);
    let form = String::from_utf8(form).expect("the form is ASCII");
    expressions_of(url, &form)
}

/// [`expressions`] from a canonical form already made.
pub(crate) fn expressions_of(url: &Url, form: &str) -> Vec<String> {
    let Some(rest) = form.split_once("://").map(|(_, rest)| rest) else {
        return Vec::new();
    };
    let slash = rest.find('/').unwrap_or(rest.len());
    let (host, path_and_query) = rest.split_at(slash);
    let path = path_and_query.split('?').next().unwrap_or("");
    let mut hosts = vec![host.to_string()];
    if !matches!(url.host_kind(), Some(HostKind::Ipv4 | HostKind::Ipv6)) {
        let labels: Vec<&str> = host.split('.').collect();
        let start = labels.len().saturating_sub(5);
        for i in start.max(1)..labels.len().saturating_sub(1) {
            hosts.push(labels[i..].join("."));
        }
    }
    let mut paths = vec![path_and_query.to_string()];
    let mut add = |p: String| {
        if !paths.contains(&p) {
            paths.push(p);
        }
    };
    add(path.to_string());
    let mut prefix = String::from("/");
    add(prefix.clone());
    let directories: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let last_is_file = !path.ends_with('/');
    let dirs = directories.len() - usize::from(last_is_file && !directories.is_empty());
    for directory in directories.iter().take(dirs.min(3)) {
        prefix.push_str(directory);
        prefix.push('/');
        add(prefix.clone());
    }
    hosts
        .iter()
        .flat_map(|h| paths.iter().map(move |p| format!("{h}{p}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The documentation's examples whose input the URL Standard accepts.
    #[test]
    fn canonical_forms_of_the_published_examples() {
        for (input, want) in [
            ("http://host/%25%32%35", "http://host/%25"),
            ("http://host/%25%32%35%25%32%35", "http://host/%25%25"),
            ("http://host/%2525252525252525", "http://host/%25"),
            ("http://host/asdf%25%32%35asd", "http://host/asdf%25asd"),
            (
                "http://host/%%%25%32%35asd%%",
                "http://host/%25%25%25asd%25%25",
            ),
            ("http://www.google.com/", "http://www.google.com/"),
            (
                "http://%31%36%38%2e%31%38%38%2e%39%39%2e%32%36/%2E%73%65%63%75%72%65/%77%77%77%2E%65%62%61%79%2E%63%6F%6D/",
                "http://168.188.99.26/.secure/www.ebay.com/",
            ),
            (
                "http://195.127.0.11/uploads/%20%20%20%20/.verify/.eBaysecure=updateuserdataxplimnbqmn-xplmvalidateinfoswqpcmlx=hgplmcx/",
                "http://195.127.0.11/uploads/%20%20%20%20/.verify/.eBaysecure=updateuserdataxplimnbqmn-xplmvalidateinfoswqpcmlx=hgplmcx/",
            ),
            ("http://3279880203/blah", "http://195.127.0.11/blah"),
            ("http://www.google.com/blah/..", "http://www.google.com/"),
            ("http://www.evil.com/blah#frag", "http://www.evil.com/blah"),
            ("http://www.GOOgle.com/", "http://www.google.com/"),
            ("http://www.google.com.../", "http://www.google.com/"),
            (
                "http://www.google.com/foo\tbar\rbaz\n2",
                "http://www.google.com/foobarbaz2",
            ),
            ("http://www.google.com/q?", "http://www.google.com/q?"),
            ("http://www.google.com/q?r?", "http://www.google.com/q?r?"),
            ("http://www.google.com/q?r?s", "http://www.google.com/q?r?s"),
            ("http://evil.com/foo#bar#baz", "http://evil.com/foo"),
            ("http://evil.com/foo;", "http://evil.com/foo;"),
            ("http://evil.com/foo?bar;", "http://evil.com/foo?bar;"),
            ("http://notrailingslash.com", "http://notrailingslash.com/"),
            ("http://www.gotaport.com:1234/", "http://www.gotaport.com/"),
            ("  http://www.google.com/  ", "http://www.google.com/"),
            ("https://www.securesite.com/", "https://www.securesite.com/"),
            ("http://host.com/ab%23cd", "http://host.com/ab%23cd"),
            (
                "http://host.com//twoslashes?more//slashes",
                "http://host.com/twoslashes?more//slashes",
            ),
        ] {
            assert_eq!(canonical(&Url::parse(input).unwrap()), want, "{input:?}");
        }
    }

    /// The published examples the URL Standard rejects: no form, as for
    /// every input it rejects.
    #[test]
    fn inputs_the_standard_rejects_have_no_form() {
        for input in [
            "http://host%23.com/%257Ea%2521b%2540c%2523d%2524e%25f%255E00%252611%252A22%252833%252944_55%252B",
            "www.google.com/",
            "www.google.com",
            "http://\x01\u{80}.com/",
            "http:// leadingspace.com/",
            "http://%20leadingspace.com/",
            "%20leadingspace.com/",
        ] {
            assert!(Url::parse(input).is_err(), "{input:?}");
        }
    }

    /// The documentation's expression lists.
    #[test]
    fn expressions_of_the_published_examples() {
        let e = |input: &str| expressions(&Url::parse(input).unwrap());
        assert_eq!(
            e("http://a.b.c.d.e.f.g/1.html"),
            [
                "a.b.c.d.e.f.g/1.html",
                "a.b.c.d.e.f.g/",
                "c.d.e.f.g/1.html",
                "c.d.e.f.g/",
                "d.e.f.g/1.html",
                "d.e.f.g/",
                "e.f.g/1.html",
                "e.f.g/",
                "f.g/1.html",
                "f.g/",
            ]
        );
        assert_eq!(e("http://1.2.3.4/1/"), ["1.2.3.4/1/", "1.2.3.4/"]);
        assert_eq!(
            e("http://a.b/1/2/3/4/5/6.html"),
            [
                "a.b/1/2/3/4/5/6.html",
                "a.b/",
                "a.b/1/",
                "a.b/1/2/",
                "a.b/1/2/3/",
            ]
        );
    }
}

//! Dedup keys of a URL: what makes two URLs duplicates ([`Key`]: the
//! href, the origin, the host, the site, a pattern of the path and the
//! parameter names), written by [`write_key`]. `urlsift dedup --key`,
//! `links --dedup` and `extract`'s `pattern` field use them.
//!
//! ```
//! use urlsift::key::{Key, write_key};
//! use urlsift::site::List;
//!
//! let url = urlsift::Url::parse("https://www.bbc.co.uk/news/123?b=1&a=2")?;
//! let key = |kind| {
//!     let mut out = Vec::new();
//!     write_key(kind, &url, url.href().as_bytes(), &mut out, &mut Vec::new(), &List::builtin());
//!     String::from_utf8(out).unwrap()
//! };
//! assert_eq!(key(Key::Site), "bbc.co.uk");
//! assert_eq!(key(Key::Origin), "https://www.bbc.co.uk");
//! assert_eq!(key(Key::Pattern(Default::default())), "www.bbc.co.uk/news/{n}?a&b");
//! # Ok::<(), urlsift::ParseError>(())
//! ```

use crate::site::List;
use crate::{HostKind, Url};

/// What makes two records duplicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// The URL as written out (after any profile).
    Href,
    /// The URL as written out, without its fragment.
    NoFragment,
    /// The URL's origin (`https://example.com:8443`).
    Origin,
    /// The host (with port).
    Host,
    /// Host + path with numeric, hex and UUID segments collapsed + the
    /// sorted parameter names ([`write_pattern`]), read as the options say.
    Pattern(PatternKeyOptions),
    /// The site: the registrable domain (eTLD+1, from the Public Suffix
    /// List); a host without one is its own site.
    Site,
    /// The URL in the profile's canonical form (or SURT key), while the
    /// record is written as it came: Scrapy's fingerprint dedup.
    Canonical,
}

impl Key {
    /// Every key, in the order `--help` lists them (`pattern` with the
    /// default options).
    pub const ALL: [Key; 7] = [
        Key::Href,
        Key::NoFragment,
        Key::Origin,
        Key::Host,
        Key::Pattern(PatternKeyOptions {
            scheme: false,
            ignore_trailing_slash: false,
            exact_path: false,
        }),
        Key::Site,
        Key::Canonical,
    ];

    /// The name `--key` takes.
    ///
    /// ```
    /// use urlsift::key::Key;
    ///
    /// assert_eq!(Key::NoFragment.name(), "no-fragment");
    /// assert_eq!(Key::named("pattern"), Some(Key::Pattern(Default::default())));
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Key::Href => "href",
            Key::NoFragment => "no-fragment",
            Key::Origin => "origin",
            Key::Host => "host",
            Key::Pattern(_) => "pattern",
            Key::Site => "site",
            Key::Canonical => "canonical",
        }
    }

    /// The key named `name` (`pattern` with the default options).
    pub fn named(name: &str) -> Option<Key> {
        Key::ALL.into_iter().find(|k| k.name() == name)
    }

    /// What the key is, in a line (`--help`'s).
    pub fn about(self) -> &'static str {
        match self {
            Key::Href => "The normalized URL (after any profile flags)",
            Key::NoFragment => "The normalized URL without its fragment",
            Key::Origin => "The URL's origin (`https://example.com:8443`)",
            Key::Host => "The host (with port)",
            Key::Pattern(_) => {
                "Host + path with numeric, hex and UUID segments collapsed + sorted parameter \
                 names (the --pattern-* flags change it)"
            }
            Key::Site => "The site: the registrable domain (eTLD+1, from the Public Suffix List)",
            Key::Canonical => {
                "The URL in the --canonical form (or --surt key), the record written as it came \
                 (e.g. --canonical w3lib --key canonical: Scrapy's fingerprint)"
            }
        }
    }
}

/// `--key`'s values ([`Key::ALL`], by [`Key::name`]); a `pattern` key
/// parsed so has the default options, which the caller then sets.
#[cfg(feature = "clap")]
impl clap::ValueEnum for Key {
    fn value_variants<'a>() -> &'a [Self] {
        &Key::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()).help(self.about()))
    }
}

/// How the `pattern` key reads a URL ([`write_pattern`]). The default is
/// the scheme left out, a trailing slash kept, numeric, hex and UUID
/// segments collapsed.
///
/// ```
/// use urlsift::key::{PatternKeyOptions, write_pattern};
///
/// let pattern = |s: &str, o: PatternKeyOptions| {
///     let mut out = Vec::new();
///     write_pattern(&urlsift::Url::parse(s).unwrap(), o, &mut out, &mut Vec::new());
///     String::from_utf8(out).unwrap()
/// };
/// let url = "http://e.com/user/42/?tab=1&id=7";
/// assert_eq!(pattern(url, PatternKeyOptions::default()), "e.com/user/{n}/?id&tab");
/// let o = PatternKeyOptions { scheme: true, ignore_trailing_slash: true, exact_path: true };
/// assert_eq!(pattern(url, o), "http://e.com/user/42?id&tab");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PatternKeyOptions {
    /// The scheme is part of the key: `http:` and `https:` URLs are apart.
    pub scheme: bool,
    /// `/docs/` and `/docs` are one pattern: a path's final empty segment
    /// is left out (the root path `/` stays).
    pub ignore_trailing_slash: bool,
    /// A key of parameter names only: the path as written (no `{n}`,
    /// `{hex}`, `{uuid}`), only the query reduced to its names.
    pub exact_path: bool,
}

/// Parameter names as ranges of a query string (reused from URL to URL).
pub type Names = Vec<(usize, usize)>;

/// Appends the dedup key of `url` (whose profile form is `line`) to `out`.
/// A URL without a host (or with an opaque origin) is keyed by its whole
/// href. `names` is scratch space; `list` finds sites.
pub fn write_key(
    kind: Key,
    url: &Url,
    line: &[u8],
    out: &mut Vec<u8>,
    names: &mut Names,
    list: &List,
) {
    let whole = |out: &mut Vec<u8>| out.extend_from_slice(url.href().as_bytes());
    match kind {
        Key::Href | Key::NoFragment | Key::Canonical => {
            out.extend_from_slice(&line[..href_key_len(kind, line)]);
        }
        Key::Origin => {
            let origin = url.origin();
            if origin.is_opaque() {
                whole(out);
            } else {
                out.extend_from_slice(origin.to_string().as_bytes());
            }
        }
        Key::Host => match url.host_kind() {
            None | Some(HostKind::Empty) => whole(out),
            Some(_) => out.extend_from_slice(url.host().as_bytes()),
        },
        // A host without a site (an IP address, a public suffix) is its
        // own site.
        // `example.com.` is the site `example.com`.
        Key::Site => match list.url_parts(url).and_then(|p| p.registrable_domain()) {
            Some(site) => out.extend_from_slice(site.strip_suffix('.').unwrap_or(site).as_bytes()),
            None => write_key(Key::Host, url, line, out, names, list),
        },
        Key::Pattern(options) => write_pattern_key(url, options, out, names),
    }
}

/// The key `--key pattern` gives `url`: its pattern ([`write_pattern`]),
/// or its whole href where it has none (no host, an opaque path).
/// `names` is scratch space.
///
/// ```
/// use urlsift::key::{PatternKeyOptions, write_pattern_key};
///
/// let key = |s: &str| {
///     let mut out = Vec::new();
///     let url = urlsift::Url::parse(s).unwrap();
///     write_pattern_key(&url, PatternKeyOptions::default(), &mut out, &mut Vec::new());
///     String::from_utf8(out).unwrap()
/// };
/// assert_eq!(key("https://e.com/user/42?id=7"), "e.com/user/{n}?id");
/// assert_eq!(key("mailto:a@b.example"), "mailto:a@b.example");
/// ```
pub fn write_pattern_key(
    url: &Url,
    options: PatternKeyOptions,
    out: &mut Vec<u8>,
    names: &mut Names,
) {
    if !write_pattern(url, options, out, names) {
        out.extend_from_slice(url.href().as_bytes());
    }
}

/// Host + path with numeric, hex and UUID segments collapsed + the sorted,
/// distinct parameter names: `example.com/user/{n}/edit?id&tab`, or as
/// `options` say ([`PatternKeyOptions`]). False (and nothing written) for a
/// URL without a host or with an opaque path. `names` is scratch space.
pub fn write_pattern(
    url: &Url,
    options: PatternKeyOptions,
    out: &mut Vec<u8>,
    names: &mut Names,
) -> bool {
    let segments = match (url.host_kind(), url.path_segments()) {
        (Some(HostKind::Empty) | None, _) | (_, None) => return false,
        (Some(_), Some(s)) => s,
    };
    if options.scheme {
        out.extend_from_slice(url.protocol().as_bytes());
        out.extend_from_slice(b"//");
    }
    out.extend_from_slice(url.host().as_bytes());
    let path_start = out.len();
    for seg in segments {
        out.push(b'/');
        let seg = if options.exact_path {
            seg
        } else {
            collapse(seg)
        };
        out.extend_from_slice(seg.as_bytes());
    }
    if options.ignore_trailing_slash && out.len() > path_start + 1 && out.ends_with(b"/") {
        out.pop();
    }
    if let Some(q) = url.query() {
        names.clear();
        let mut start = 0;
        for param in q.split('&') {
            let name = param.split_once('=').map_or(param, |(n, _)| n);
            if !param.is_empty() {
                names.push((start, start + name.len()));
            }
            start += param.len() + 1;
        }
        let name = |&(s, e): &(usize, usize)| &q.as_bytes()[s..e];
        names.sort_unstable_by(|a, b| name(a).cmp(name(b)));
        names.dedup_by(|a, b| name(a) == name(b));
        out.push(b'?');
        for (i, n) in names.iter().enumerate() {
            if i > 0 {
                out.push(b'&');
            }
            out.extend_from_slice(name(n));
        }
    }
    true
}

fn collapse(seg: &str) -> &str {
    let b = seg.as_bytes();
    if !b.is_empty() && b.iter().all(u8::is_ascii_digit) {
        "{n}"
    } else if is_uuid(b) {
        "{uuid}"
    } else if b.len() >= 8
        && b.iter().all(u8::is_ascii_hexdigit)
        && b.iter().any(u8::is_ascii_digit)
    {
        "{hex}"
    } else {
        seg
    }
}

fn is_uuid(b: &[u8]) -> bool {
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// How much of `line`, a URL in output form, the `href` or `no-fragment`
/// key is.
#[inline]
pub fn href_key_len(kind: Key, line: &[u8]) -> usize {
    match kind {
        Key::NoFragment => memchr::memchr(b'#', line).unwrap_or(line.len()),
        _ => line.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(s: &str) -> String {
        let mut out = Vec::new();
        assert!(write_pattern(
            &Url::parse(s).unwrap(),
            PatternKeyOptions::default(),
            &mut out,
            &mut Vec::new()
        ));
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn patterns_collapse_ids() {
        assert_eq!(
            pattern("https://e.com/user/123/post/5f2b9c1d/?b=1&a=2&b=3"),
            "e.com/user/{n}/post/{hex}/?a&b"
        );
        assert_eq!(
            pattern("https://e.com:8080/i/123e4567-e89b-12d3-a456-426614174000"),
            "e.com:8080/i/{uuid}"
        );
        assert_eq!(pattern("https://e.com/deadbeef"), "e.com/deadbeef");
        // Empty parameters are skipped, an empty name is a name, names
        // sort bytewise and repeat once.
        assert_eq!(pattern("https://e.com/?=x&&b&a=1&b=2&B"), "e.com/?&B&a&b");
        assert_eq!(pattern("https://e.com/p?"), "e.com/p?");
    }

    fn with(s: &str, options: PatternKeyOptions) -> String {
        let mut out = Vec::new();
        assert!(write_pattern(
            &Url::parse(s).unwrap(),
            options,
            &mut out,
            &mut Vec::new()
        ));
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn pattern_options_change_only_their_part() {
        let scheme = PatternKeyOptions {
            scheme: true,
            ..Default::default()
        };
        assert_eq!(with("http://e.com/a/1", scheme), "http://e.com/a/{n}");
        assert_eq!(with("wss://e.com:9/a", scheme), "wss://e.com:9/a");
        assert_eq!(with("foo://e.com/a/", scheme), "foo://e.com/a/");
        let slash = PatternKeyOptions {
            ignore_trailing_slash: true,
            ..Default::default()
        };
        assert_eq!(with("https://e.com/a/", slash), "e.com/a");
        assert_eq!(with("https://e.com/a/12/?x=1", slash), "e.com/a/{n}?x");
        // Only one slash goes: `/a//` is `/a/`, and the root path stays.
        assert_eq!(with("https://e.com/a//", slash), "e.com/a/");
        assert_eq!(with("https://e.com/", slash), "e.com/");
        assert_eq!(with("https://e.com", slash), "e.com/");
        let exact = PatternKeyOptions {
            exact_path: true,
            ..Default::default()
        };
        assert_eq!(
            with("https://e.com/u/123/deadbeef99/?b=2&a=1", exact),
            "e.com/u/123/deadbeef99/?a&b"
        );
    }
}

//! Normalization profiles beyond the standard: the forms crawl pipelines
//! key and deduplicate URLs by.
//!
//! A [`Profile`] rewrites a parsed URL's serialization and keeps every byte
//! it does not remove, so each one is idempotent (apply, re-parse, apply
//! again gives the same string):
//! - [`Profile::strip_params`] removes query pairs whose name matches a glob
//!   (`*`, `?`, ASCII case-insensitive, matched against the name as written,
//!   before percent-decoding); a query left empty loses its `?`.
//! - [`Profile::sort_query`] orders the pairs stably by name bytes.
//! - [`Profile::strip_fragment`] drops `#...`.
//! - [`Profile::surt`] gives the SURT key web archives use, as the
//!   `surt` package and the archives' indexes write it
//!   ([`crate::surt`]: `com,example)/a?b`), and [`Profile::surt_form`]
//!   its options or [`SurtForm::Plain`], the key without the archives'
//!   canonicalization: scheme, userinfo and fragment dropped, a leading
//!   `www` label dropped, host labels reversed and comma-joined, then the
//!   non-default port, `)`, and the path and query as the URL Standard
//!   serializes them; other schemes with a host keep their scheme
//!   (`ftp://(org,example)/`), URLs without a host give their href. A
//!   SURT key is not a URL: it is stable (the key of a normalized URL is
//!   the key of the original) rather than re-parsable.
//!
//! ```
//! use urlsift::{Url, profile::{Profile, SurtForm}};
//!
//! let url = Url::parse("https://www.Example.com/p?utm_source=x&b=2&a=1#top").unwrap();
//! let clean = Profile::new().strip_params(["utm_*"]).unwrap().sort_query(true);
//! assert_eq!(clean.apply_to_string(&url), "https://www.example.com/p?a=1&b=2#top");
//! assert_eq!(Profile::new().surt(true).apply_to_string(&url), "com,example)/p?a=1&b=2&utm_source=x");
//! let plain = Profile::new().surt_form(Some(SurtForm::Plain));
//! assert_eq!(plain.apply_to_string(&url), "com,example)/p?utm_source=x&b=2&a=1");
//! ```

use std::borrow::Cow;
use std::fmt;

use crate::canon::urlcanon::Canonicalizer as Urlcanon;
use crate::surt::SurtOptions;
use crate::{HostKind, Url};

/// A set of normalization steps applied to a parsed URL's serialization.
/// `Profile::new()` applies none: its output is the href.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    strip_fragment: bool,
    sort_query: bool,
    strip: Vec<Vec<u8>>,
    surt: Option<SurtForm>,
    canonical: Option<Canonical>,
}

/// A canonical form of the URL other than the href.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Canonical {
    /// Google Safe Browsing's canonical form ([`crate::safe_browsing`]).
    SafeBrowsing,
    /// w3lib's `canonicalize_url`, Scrapy's request fingerprint
    /// ([`crate::canon::w3lib`]), with its options. It reads the raw text
    /// ([`Profile::apply_text`]), not the parsed URL.
    W3lib(crate::canon::w3lib::Options),
    /// One of the IIPC urlcanon's canonicalizers, as warcprox and brozzler
    /// dedup by ([`crate::canon::urlcanon`]). It reads the raw text.
    Urlcanon(crate::canon::urlcanon::Canonicalizer),
    /// courlan's `normalize_url`, trafilatura's crawler
    /// ([`crate::canon::courlan`]), plain or strict. It reads the raw text.
    Courlan(crate::canon::courlan::CourlanOptions),
}

impl Canonical {
    /// The form named `name` (`safe-browsing`, `w3lib` with w3lib's
    /// default options).
    ///
    /// ```
    /// use urlsift::profile::Canonical;
    /// assert_eq!(Canonical::from_name("safe-browsing"), Some(Canonical::SafeBrowsing));
    /// assert!(Canonical::from_name("w3lib").is_some_and(|c| c.reads_text()));
    /// ```
    pub fn from_name(name: &str) -> Option<Canonical> {
        match name {
            "safe-browsing" => Some(Canonical::SafeBrowsing),
            "w3lib" => Some(Canonical::W3lib(Default::default())),
            "urlcanon-whatwg" => Some(Canonical::Urlcanon(Urlcanon::Whatwg)),
            "urlcanon-google" => Some(Canonical::Urlcanon(Urlcanon::Google)),
            "urlcanon-semantic-precise" => Some(Canonical::Urlcanon(Urlcanon::SemanticPrecise)),
            "urlcanon-semantic" => Some(Canonical::Urlcanon(Urlcanon::Semantic)),
            "urlcanon-aggressive" => Some(Canonical::Urlcanon(Urlcanon::Aggressive)),
            "courlan" => Some(Canonical::Courlan(Default::default())),
            "courlan-strict" => Some(Canonical::Courlan(crate::canon::courlan::CourlanOptions {
                strict: true,
            })),
            _ => None,
        }
    }

    /// The names [`Canonical::from_name`] knows.
    pub const NAMES: &[&str] = &[
        "safe-browsing",
        "w3lib",
        "urlcanon-whatwg",
        "urlcanon-google",
        "urlcanon-semantic-precise",
        "urlcanon-semantic",
        "urlcanon-aggressive",
        "courlan",
        "courlan-strict",
    ];

    /// True for a form that reads the raw text as its tool does, not the
    /// URL the standard parses: a text the standard rejects still has one.
    pub fn reads_text(self) -> bool {
        matches!(
            self,
            Canonical::W3lib(_) | Canonical::Urlcanon(_) | Canonical::Courlan(_)
        )
    }
}

/// Which SURT key a profile gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SurtForm {
    /// The archives' key ([`crate::surt`]), with the `surt` package's
    /// options.
    Archive(SurtOptions),
    /// The key without the archives' canonicalization (see the module
    /// docs).
    Plain,
    /// urlcanon's SSURT form (IIPC urlcanon, as warcprox and brozzler
    /// key by it): the host's labels reversed, each followed by a comma
    /// (an IP address as it is; a non-special URL's opaque host as a
    /// domain, unless it is a dotted IPv4 address), then `//`, the port and
    /// `:` if any, the
    /// scheme, `@` and the user information if any, `:`, then the path,
    /// query and fragment; a URL without a host as its href.
    ///
    /// ```
    /// use urlsift::{Url, profile::{Profile, SurtForm}};
    /// let ssurt = Profile::new().surt_form(Some(SurtForm::Ssurt));
    /// let url = Url::parse("http://user@foo.example.org:81/path?query#frag").unwrap();
    /// assert_eq!(ssurt.apply_to_string(&url), "org,example,foo,//81:http@user:/path?query#frag");
    /// ```
    Ssurt,
}

/// Why a profile could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProfileError {
    /// A parameter glob was empty (it would match nothing, which is never
    /// what a caller meant).
    EmptyGlob,
}

impl fmt::Display for ProfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProfileError::EmptyGlob => f.write_str("empty parameter glob"),
        }
    }
}

impl std::error::Error for ProfileError {}

impl Profile {
    /// The identity profile (the href).
    pub fn new() -> Profile {
        Profile::default()
    }

    /// Drop the fragment.
    pub fn strip_fragment(mut self, on: bool) -> Profile {
        self.strip_fragment = on;
        self
    }

    /// Sort query pairs stably by name bytes (values and order of equal
    /// names kept).
    pub fn sort_query(mut self, on: bool) -> Profile {
        self.sort_query = on;
        self
    }

    /// Also remove query pairs whose name matches one of these globs
    /// (`*` any run, `?` one byte, ASCII case-insensitive).
    pub fn strip_params<I, S>(mut self, globs: I) -> Result<Profile, ProfileError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        for g in globs {
            let g = g.as_ref();
            if g.is_empty() {
                return Err(ProfileError::EmptyGlob);
            }
            self.strip.push(g.as_bytes().to_ascii_lowercase());
        }
        Ok(self)
    }

    /// Give the archives' SURT key instead of a URL (implies no
    /// fragment): [`crate::surt`] with the default options.
    pub fn surt(mut self, on: bool) -> Profile {
        self.surt = on.then_some(SurtForm::Archive(SurtOptions::default()));
        self
    }

    /// Give this SURT key instead of a URL (`None`: the URL); it takes
    /// the place of a [`Profile::canonical`] form, but for
    /// [`SurtForm::Ssurt`] with a urlcanon form, which gives urlcanon's
    /// SSURT of that form.
    ///
    /// ```
    /// use urlsift::canon::urlcanon::Canonicalizer;
    /// use urlsift::profile::{Canonical, Profile, SurtForm};
    /// let p = Profile::new()
    ///     .canonical(Some(Canonical::Urlcanon(Canonicalizer::Semantic)))
    ///     .surt_form(Some(SurtForm::Ssurt));
    /// let key = p.apply_text("http://www.Example.com/a/../b?z&a#f").unwrap().unwrap();
    /// assert_eq!(key, "com,example,www,//http:/b?a&z");
    /// ```
    pub fn surt_form(mut self, form: Option<SurtForm>) -> Profile {
        self.surt = form;
        if form.is_some() && !self.urlcanon_ssurt() {
            self.canonical = None;
        }
        self
    }

    /// Whether this is `--surt=ssurt` with a urlcanon form.
    fn urlcanon_ssurt(&self) -> bool {
        self.surt == Some(SurtForm::Ssurt) && matches!(self.canonical, Some(Canonical::Urlcanon(_)))
    }

    /// Give this canonical form instead of the href (`None`: the href),
    /// after the query steps; it takes the place of a SURT key.
    ///
    /// ```
    /// use urlsift::{Url, profile::{Canonical, Profile}};
    /// let sb = Profile::new().canonical(Some(Canonical::SafeBrowsing));
    /// let url = Url::parse("http://www.GOOgle.com:8080//a/%2525/b/../c#f").unwrap();
    /// assert_eq!(sb.apply_to_string(&url), "http://www.google.com/a/%25/c");
    /// ```
    pub fn canonical(mut self, form: Option<Canonical>) -> Profile {
        self.canonical = form;
        if form.is_some() && !self.urlcanon_ssurt() {
            self.surt = None;
        }
        self
    }

    /// True when the output needs the parsed URL (a SURT key or a
    /// canonical form); every other form can be made from the href alone
    /// ([`Profile::apply_href`]).
    pub fn needs_url(&self) -> bool {
        self.surt.is_some() || self.canonical.is_some()
    }

    /// True when the output is a form read from the raw text
    /// ([`Canonical::reads_text`]): use [`Profile::apply_text`].
    pub fn reads_text(&self) -> bool {
        self.canonical.is_some_and(Canonical::reads_text)
    }

    /// True when this profile has steps besides its canonical form (query
    /// and fragment steps), which a form read from the raw text does not
    /// take.
    pub fn has_steps(&self) -> bool {
        self.strip_fragment || !self.plain_query()
    }

    /// The form of the raw `text` for a profile that reads text
    /// ([`Profile::reads_text`]), or an error when the form's tool refuses
    /// it; `None` for the other profiles.
    ///
    /// ```
    /// use urlsift::profile::{Canonical, Profile};
    /// let scrapy = Profile::new().canonical(Canonical::from_name("w3lib"));
    /// let key = scrapy.apply_text("http://Example.com/b c?z=1&a=2#top");
    /// assert_eq!(key.unwrap().unwrap(), "http://example.com/b%20c?a=2&z=1");
    /// assert!(Profile::new().apply_text("http://example.com/").is_none());
    /// ```
    pub fn apply_text(&self, text: &str) -> Option<Result<String, crate::canon::Refused>> {
        match self.canonical? {
            Canonical::W3lib(options) => Some(crate::canon::w3lib::canonicalize(text, options)),
            // `--surt=ssurt` with a urlcanon form: urlcanon's SSURT of it.
            Canonical::Urlcanon(profile) if self.surt == Some(SurtForm::Ssurt) => {
                Some(crate::canon::urlcanon::ssurt(text, profile))
            }
            Canonical::Urlcanon(profile) => {
                Some(crate::canon::urlcanon::canonicalize(text, profile))
            }
            Canonical::Courlan(options) => {
                Some(crate::canon::courlan::normalize_url(text, options))
            }
            Canonical::SafeBrowsing => None,
        }
    }

    /// True when the output is the plain href.
    #[inline]
    pub fn is_identity(&self) -> bool {
        !self.needs_url() && !self.strip_fragment && self.plain_query()
    }

    /// True when the output is the SURT key, which needs the parsed URL
    /// (every other form can be made from the href alone:
    /// [`Profile::apply_href`]).
    pub fn is_surt(&self) -> bool {
        self.surt.is_some()
    }

    #[inline]
    fn plain_query(&self) -> bool {
        !self.sort_query && self.strip.is_empty()
    }

    /// The URL in this profile's form.
    pub fn apply_to_string(&self, url: &Url) -> String {
        let mut out = Vec::with_capacity(url.href().len());
        self.apply(url, &mut out);
        // Every byte written is a slice of the href cut at an ASCII
        // delimiter, or ASCII punctuation.
        String::from_utf8(out).expect("profile output is UTF-8")
    }

    /// Appends the URL in this profile's form to `out` (always UTF-8).
    pub fn apply(&self, url: &Url, out: &mut Vec<u8>) {
        let Some(form) = self.apply_href(url.href()) else {
            self.write_surt(url, out);
            return;
        };
        out.extend_from_slice(form.as_bytes());
    }

    /// The profile form of the URL whose serialization is `href` (as this
    /// crate serializes: the first `#` starts the fragment, the first `?`
    /// before it the query), borrowed from `href` when the profile removes
    /// at most a suffix, which is most URLs: a query is copied only when a
    /// parameter is stripped or out of order. `None` for the SURT form,
    /// which needs the parsed host: use [`Profile::apply`].
    // Inlined, so that the plain href costs its callers two tests (per
    // URL, in the command's hot loop); the work is out of line.
    #[inline]
    pub fn apply_href<'a>(&self, href: &'a str) -> Option<Cow<'a, str>> {
        if self.needs_url() {
            None
        } else if self.is_identity() {
            Some(Cow::Borrowed(href))
        } else {
            Some(self.rewrite_href(href))
        }
    }

    /// [`Profile::apply_href`] for a profile with query or fragment steps.
    fn rewrite_href<'a>(&self, href: &'a str) -> Cow<'a, str> {
        let bytes = href.as_bytes();
        // One search finds the query or, without one, the fragment.
        let (question, hash) = match memchr::memchr2(b'?', b'#', bytes) {
            Some(q) if bytes[q] == b'?' => {
                (Some(q), memchr::memchr(b'#', &bytes[q..]).map(|h| q + h))
            }
            found => (None, found),
        };
        let hash = hash.unwrap_or(href.len());
        let end = if self.strip_fragment {
            hash
        } else {
            href.len()
        };
        let query = match question {
            Some(q) if !self.query_unchanged(&href[q + 1..hash]) => q,
            _ => return Cow::Borrowed(&href[..end]),
        };
        let mut out = Vec::with_capacity(end);
        out.extend_from_slice(&href.as_bytes()[..query]);
        self.write_query(&href[query + 1..hash], &mut out);
        out.extend_from_slice(&href.as_bytes()[hash..end]);
        Cow::Owned(String::from_utf8(out).expect("cut at ASCII delimiters"))
    }

    /// The query after this profile's query steps, without its `?`;
    /// `None` when there is none (or none is left).
    fn kept_query(&self, url: &Url) -> Option<Vec<u8>> {
        let q = url.query()?;
        if self.query_unchanged(q) {
            return Some(q.as_bytes().to_vec());
        }
        let mut kept = Vec::with_capacity(q.len() + 1);
        self.write_query(q, &mut kept);
        // (Without its `?`; none when every pair went.)
        (!kept.is_empty()).then(|| kept.split_off(1))
    }

    /// The SURT form (see the module docs), or the canonical form.
    fn write_surt(&self, url: &Url, out: &mut Vec<u8>) {
        if self.canonical == Some(Canonical::SafeBrowsing) {
            let query = self.kept_query(url);
            crate::safe_browsing::write_canonical(url, query.as_deref(), out);
            return;
        }
        if let Some(Ok(form)) = self.apply_text(url.href()) {
            // A form of the raw text, given the href (what callers with
            // only the parsed URL have).
            out.extend_from_slice(form.as_bytes());
            return;
        }
        if let Some(SurtForm::Archive(options)) = &self.surt {
            let query = self.kept_query(url);
            crate::surt::write_key(url, query.as_deref(), options, out);
            return;
        }
        if self.surt == Some(SurtForm::Ssurt) {
            self.write_ssurt(url, out);
            return;
        }
        if !write_surt_head(url, out) {
            // No host: the href, less its query and fragment, is the key.
            let href = url.href();
            let tail =
                url.query().map_or(0, |q| q.len() + 1) + url.fragment().map_or(0, |f| f.len() + 1);
            out.extend_from_slice(&href.as_bytes()[..href.len() - tail]);
        }
        if let Some(q) = url.query() {
            if self.query_unchanged(q) {
                out.push(b'?');
                out.extend_from_slice(q.as_bytes());
            } else {
                self.write_query(q, out);
            }
        }
    }

    /// urlcanon's SSURT form ([`SurtForm::Ssurt`]), after the query steps
    /// (and without the fragment when it is stripped).
    fn write_ssurt(&self, url: &Url, out: &mut Vec<u8>) {
        let fragment = url.fragment().filter(|_| !self.strip_fragment);
        let query = match url.query() {
            Some(q) if !self.query_unchanged(q) => {
                let mut kept = Vec::new();
                self.write_query(q, &mut kept);
                kept
            }
            Some(q) => [b"?", q.as_bytes()].concat(),
            None => Vec::new(),
        };
        match url.host_kind() {
            Some(HostKind::Empty) | None => {
                // No host: the href, its query and fragment as the steps
                // leave them.
                let href = url.href();
                let tail = url.query().map_or(0, |q| q.len() + 1)
                    + url.fragment().map_or(0, |f| f.len() + 1);
                out.extend_from_slice(&href.as_bytes()[..href.len() - tail]);
            }
            Some(kind) => {
                let host = url.hostname().as_bytes();
                // (A non-special URL's opaque host reads as a domain to
                // urlcanon, unless it is a dotted IPv4 address.)
                let dotted_ipv4 = host.split(|&b| b == b'.').count() == 4
                    && host.iter().all(|b| b.is_ascii_digit() || *b == b'.');
                if kind == HostKind::Domain || (kind == HostKind::Opaque && !dotted_ipv4) {
                    for label in host.rsplit(|&b| b == b'.') {
                        out.extend_from_slice(label);
                        out.push(b',');
                    }
                } else {
                    out.extend_from_slice(host);
                }
                out.extend_from_slice(b"//");
                if !url.port().is_empty() {
                    out.extend_from_slice(url.port().as_bytes());
                    out.push(b':');
                }
                out.extend_from_slice(url.scheme().as_bytes());
                if !url.username().is_empty() || !url.password().is_empty() {
                    out.push(b'@');
                    out.extend_from_slice(url.username().as_bytes());
                    if !url.password().is_empty() {
                        out.push(b':');
                        out.extend_from_slice(url.password().as_bytes());
                    }
                }
                out.push(b':');
                out.extend_from_slice(url.pathname().as_bytes());
            }
        }
        out.extend_from_slice(&query);
        if let Some(f) = fragment {
            out.push(b'#');
            out.extend_from_slice(f.as_bytes());
        }
    }

    /// Whether the query steps leave `query` as it is: no parameter
    /// stripped, and (when sorting) the names already in order.
    fn query_unchanged(&self, query: &str) -> bool {
        if self.plain_query() {
            return true;
        }
        let mut previous: &[u8] = &[];
        for pair in pairs(query) {
            let name = name_of(pair);
            if self.stripped(name) || (self.sort_query && name < previous) {
                return false;
            }
            previous = name;
        }
        true
    }

    fn write_query(&self, query: &str, out: &mut Vec<u8>) {
        let mut pairs: Vec<&[u8]> = pairs(query)
            .filter(|pair| !self.stripped(name_of(pair)))
            .collect();
        if self.sort_query {
            pairs.sort_by(|a, b| name_of(a).cmp(name_of(b)));
        }
        if pairs.is_empty() {
            return;
        }
        out.push(b'?');
        for (i, pair) in pairs.iter().enumerate() {
            if i > 0 {
                out.push(b'&');
            }
            out.extend_from_slice(pair);
        }
    }

    pub(crate) fn stripped(&self, name: &[u8]) -> bool {
        self.strip.iter().any(|g| glob_match(g, name))
    }
}

/// The archives' SURT key of `url` ([`crate::surt`], default options).
pub fn surt(url: &Url) -> String {
    Profile::new().surt(true).apply_to_string(url)
}

// Queries hold a few short pairs: plain byte loops, as a search call's
// set-up would cost more than the scan.

/// A query's `&`-separated pairs.
pub(crate) fn pairs(query: &str) -> impl Iterator<Item = &[u8]> {
    query.as_bytes().split(|&b| b == b'&')
}

/// A pair's name: what comes before its first `=`.
pub(crate) fn name_of(pair: &[u8]) -> &[u8] {
    pair.iter()
        .position(|&b| b == b'=')
        .map_or(pair, |i| &pair[..i])
}

/// Writes the SURT form up to and including the path; false when the URL
/// has no host (nothing written).
fn write_surt_head(url: &Url, out: &mut Vec<u8>) -> bool {
    let kind = match url.host_kind() {
        Some(HostKind::Empty) | None => return false,
        Some(k) => k,
    };
    let scheme = url.scheme();
    if scheme != "http" && scheme != "https" {
        out.extend_from_slice(scheme.as_bytes());
        out.extend_from_slice(b"://(");
    }
    let hostname = url.hostname();
    if kind == HostKind::Domain {
        let trimmed = hostname.strip_suffix('.').unwrap_or(hostname);
        // A leading "www" label goes when two or more labels follow it.
        let host = match trimmed.strip_prefix("www.") {
            Some(rest) if rest.contains('.') => rest,
            _ => trimmed,
        };
        // Labels last to first (a byte loop: hosts are short, and a
        // reverse string search costs more in set-up than in scanning).
        let host = host.as_bytes();
        let mut end = host.len();
        for i in (0..host.len()).rev() {
            if host[i] == b'.' {
                out.extend_from_slice(&host[i + 1..end]);
                out.push(b',');
                end = i;
            }
        }
        out.extend_from_slice(&host[..end]);
    } else {
        out.extend_from_slice(hostname.as_bytes());
    }
    if !url.port().is_empty() {
        out.push(b':');
        out.extend_from_slice(url.port().as_bytes());
    }
    out.push(b')');
    out.extend_from_slice(url.pathname().as_bytes());
    true
}

/// A query parameter name glob, as the strip-params globs match: `*` any
/// run of bytes, `?` one byte, ASCII case-insensitive.
///
/// ```
/// use urlsift::profile::ParamGlob;
/// assert!(ParamGlob::new("utm_*").matches("UTM_source"));
/// assert!(!ParamGlob::new("utm_?").matches("utm_id"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamGlob(Vec<u8>);

impl ParamGlob {
    /// The glob `glob`.
    pub fn new(glob: &str) -> ParamGlob {
        ParamGlob(glob.to_ascii_lowercase().into_bytes())
    }

    /// Whether the parameter name `name` (as it appears in a query)
    /// matches.
    pub fn matches(&self, name: &str) -> bool {
        glob_match(&self.0, name.as_bytes())
    }
}

/// `*` matches any run of bytes, `?` one byte; ASCII case-insensitive.
/// `glob` is already lowercase.
pub(crate) fn glob_match(glob: &[u8], name: &[u8]) -> bool {
    let (mut g, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        if g < glob.len() && (glob[g] == b'?' || glob[g] == name[n].to_ascii_lowercase()) {
            g += 1;
            n += 1;
        } else if g < glob.len() && glob[g] == b'*' {
            star = Some((g, n));
            g += 1;
        } else if let Some((sg, sn)) = star {
            g = sg + 1;
            n = sn + 1;
            star = Some((sg, sn + 1));
        } else {
            return false;
        }
    }
    glob[g..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(p: &Profile, input: &str) -> String {
        p.apply_to_string(&Url::parse(input).unwrap())
    }

    #[test]
    fn globs() {
        assert!(glob_match(b"utm_*", b"utm_source"));
        assert!(glob_match(b"utm_*", b"UTM_Medium"));
        assert!(glob_match(b"utm_*", b"utm_"));
        assert!(!glob_match(b"utm_*", b"xutm_a"));
        assert!(glob_match(b"*id", b"fbclid"));
        assert!(glob_match(b"f?clid", b"fbclid"));
        assert!(!glob_match(b"fbclid", b"fbclid2"));
        assert!(glob_match(b"a*b*c", b"aXXbYYc"));
        assert!(!glob_match(b"a*b*c", b"aXXbYY"));
    }

    #[test]
    fn empty_glob_is_an_error() {
        assert_eq!(
            Profile::new().strip_params(["utm_*", ""]),
            Err(ProfileError::EmptyGlob)
        );
    }

    #[test]
    fn identity_is_the_href() {
        let p = Profile::new();
        assert!(p.is_identity());
        assert_eq!(apply(&p, "HTTPS://E.com/a/../b?x#y"), "https://e.com/b?x#y");
    }

    #[test]
    fn query_profiles() {
        let p = Profile::new()
            .sort_query(true)
            .strip_params(["utm_*", "fbclid"])
            .unwrap();
        assert_eq!(
            apply(&p, "https://e.com/p?b=2&utm_source=x&a=1&b=1&fbclid=z#frag"),
            "https://e.com/p?a=1&b=2&b=1#frag"
        );
        assert_eq!(
            apply(&p, "https://e.com/p?utm_a=1&fbclid=2#f"),
            "https://e.com/p#f"
        );
        assert_eq!(apply(&p, "https://e.com/p?"), "https://e.com/p?");
        let p = Profile::new().strip_fragment(true);
        assert_eq!(apply(&p, "https://e.com/p?q#f"), "https://e.com/p?q");
    }

    #[test]
    fn href_forms_borrow_unless_the_query_changes() {
        let p = Profile::new()
            .sort_query(true)
            .strip_fragment(true)
            .strip_params(["utm_*"])
            .unwrap();
        let cases = [
            // (href, form, borrowed)
            ("https://e.com/p", "https://e.com/p", true),
            ("https://e.com/p#f?b=2&a=1", "https://e.com/p", true),
            ("https://e.com/p?a=1&b=2#f", "https://e.com/p?a=1&b=2", true),
            (
                "https://e.com/p?a=1&a=0&b",
                "https://e.com/p?a=1&a=0&b",
                true,
            ),
            ("https://e.com/p?", "https://e.com/p?", true),
            (
                "https://e.com/p?b=2&a=1#f",
                "https://e.com/p?a=1&b=2",
                false,
            ),
            ("https://e.com/p?utm_x=1#f", "https://e.com/p", false),
            ("https://e.com/p?a&utm_x=1&c", "https://e.com/p?a&c", false),
            ("mailto:x?b&a#f", "mailto:x?a&b", false),
        ];
        for (href, form, borrowed) in cases {
            let url = Url::parse(href).unwrap();
            assert_eq!(url.href(), href, "test inputs are hrefs");
            let got = p.apply_href(href).unwrap();
            assert_eq!(got, form, "{href}");
            assert_eq!(matches!(got, Cow::Borrowed(_)), borrowed, "{href}");
            assert_eq!(p.apply_to_string(&url), form, "{href}");
        }
        let keep_fragment = Profile::new().sort_query(true);
        assert_eq!(
            keep_fragment
                .apply_href("https://e.com/?b&a#x?z&y")
                .unwrap(),
            "https://e.com/?a&b#x?z&y"
        );
        assert_eq!(Profile::new().surt(true).apply_href("https://e.com/"), None);
    }

    #[test]
    fn plain_surt_keys() {
        let plain = Profile::new().surt_form(Some(SurtForm::Plain));
        let s = |input: &str| plain.apply_to_string(&Url::parse(input).unwrap());
        assert_eq!(
            s("https://www.Example.com/Path?q=1#f"),
            "com,example)/Path?q=1"
        );
        assert_eq!(
            s("http://user:pw@a.b.example.org:8080/"),
            "org,example,b,a:8080)/"
        );
        assert_eq!(s("http://www.com/"), "com,www)/");
        assert_eq!(s("http://10.0.0.1/x"), "10.0.0.1)/x");
        assert_eq!(s("ftp://example.org/f"), "ftp://(org,example)/f");
        assert_eq!(s("mailto:a@b.c"), "mailto:a@b.c");
        // The archives' key canonicalizes where the plain one does not.
        let archive = surt(&Url::parse("https://www.Example.com/Path/?b=1&a=2").unwrap());
        assert_eq!(archive, "com,example)/path?a=2&b=1");
    }

    #[test]
    fn profiles_are_idempotent() {
        let p = Profile::new()
            .sort_query(true)
            .strip_fragment(true)
            .strip_params(["utm_*"])
            .unwrap();
        for input in [
            "https://e.com/p?b=2&utm_x=1&a=1#f",
            "http://h/?&&a&utm_=",
            "file:///C:/x?z=1&a=2",
            "mailto:x?b&a",
        ] {
            let once = apply(&p, input);
            assert_eq!(apply(&p, &once), once, "{input}");
        }
    }
}

//! Sites: public suffixes and registrable domains from the
//! [Public Suffix List](https://publicsuffix.org/list/), and [`SuffixSet`],
//! the set of sites or host suffixes that filters match URLs against.
//!
//! `news.bbc.co.uk` and `www.bbc.co.uk` are one site, `bbc.co.uk`;
//! `a.github.io` and `b.github.io` are two. For a host,
//! [`List::parts`] gives its [public suffix](Parts::public_suffix)
//! (`co.uk`), [registrable domain](Parts::registrable_domain) (`bbc.co.uk`,
//! "eTLD+1", what the command calls the *site*), [domain](Parts::domain)
//! (`bbc`, the label before the suffix) and [subdomain](Parts::subdomain)
//! (`news`), each a slice of the host given (nothing is allocated for a
//! lowercase host).
//!
//! ```
//! use urlsift::site::List;
//!
//! let list = List::builtin();
//! let parts = list.parts("news.bbc.co.uk").unwrap();
//! assert_eq!(parts.public_suffix(), "co.uk");
//! assert_eq!(parts.registrable_domain(), Some("bbc.co.uk"));
//! assert_eq!((parts.domain(), parts.subdomain()), (Some("bbc"), Some("news")));
//! assert_eq!(list.registrable_domain("a.github.io"), Some("a.github.io"));
//! assert_eq!(list.icann_only().registrable_domain("a.github.io"), Some("github.io"));
//! ```
//!
//! # The algorithm
//!
//! Exactly [publicsuffix.org's](https://publicsuffix.org/list/): a rule
//! matches when its labels equal the host's last labels (`*` matching any
//! one label); an exception rule (`!www.ck`) prevails over every other,
//! and stands for itself less its leftmost label; otherwise the matching
//! rule with the most labels prevails; no match means the implicit rule
//! `*` (the last label: `example.unknowntld` is a site). The registrable
//! domain is the public suffix plus one label. Rules come from the list's
//! ICANN and PRIVATE sections; private rules (`github.io`, `blogspot.com`)
//! count unless [`List::icann_only`] leaves them out. Rules in Unicode
//! are matched in their A-label form (`xn--...`), the form in which
//! [`Url::hostname`](crate::Url::hostname) gives every domain.
//!
//! # Hosts
//!
//! The input is a host as [`Url::hostname`](crate::Url::hostname) gives it:
//! ASCII, a domain in A-label form. Then:
//! - ASCII letters match in any case; the slices keep the case given
//!   (`WwW.Example.COM` has the site `Example.COM`). A host with capitals
//!   costs one copy; hostnames of a [`Url`] are lowercase.
//! - A host that is itself a public suffix (`com`, `co.uk`, `github.io`)
//!   has that suffix and no registrable domain, domain or subdomain.
//! - A single trailing dot (a fully qualified name, `example.com.`) is
//!   ignored for matching and kept in the public suffix and registrable
//!   domain (`com.`, `example.com.`), so they stay slices of the host.
//! - Not domains, so [`List::parts`] gives `None`: the empty host, `.`, a
//!   host with an empty label (`.example.com`, `a..example.com`), one with
//!   non-ASCII bytes (convert it to A-labels first), an IPv6 address
//!   (`[::1]`) and an IPv4 address: any host whose last label is a number
//!   (decimal or `0x` hex), as the URL Standard's
//!   [ends-in-a-number checker](https://url.spec.whatwg.org/#ends-in-a-number-checker)
//!   decides.
//!
//! [`List::url_parts`] and [`registrable_domain`] take a [`Url`]: URLs
//! whose host is not a domain (IP addresses, opaque hosts of non-special
//! URLs, the empty host, no host) have none.
//!
//! # Which list
//!
//! [`List::builtin`] is compiled in: the [`psl`] crate (version in
//! [`List::provenance`]), which compiles the upstream list into Rust code
//! and is republished whenever the list changes, so `cargo update -p psl`
//! brings a newer list. It is the source because a crate can only reach
//! another crate's compiled code, not the files in its package; committing
//! the list here is not an option (the project keeps others' data out of
//! its repository). [`List::parse`] and [`List::from_file`] load a
//! `public_suffix_list.dat` at run time (Debian and Ubuntu ship one in
//! `/usr/share/publicsuffix/`) into a hash table of our own; both answer
//! alike on the same rules, which `tests/sites.rs` proves host by host on
//! every corpus host, and both run this module's algorithm around their
//! rule lookup.
//!
//! # Speed
//!
//! No lookup allocates (a host with capitals is lowered into one copy).
//! One SIMD pass classifies the host's bytes (`name.rs`); a loaded table
//! then walks the host from its last label leftwards, hashing each label
//! once into the hash of the suffix seen so far, and probes one hash table
//! per label until no rule ends with that suffix (`map.rs`, `table.rs`):
//! two probes for most hosts, the second mostly answered by a bit filter.
//! `examples/sites.rs` measures it against the `psl` and `publicsuffix`
//! crates; the README gives figures.

mod builtin;
mod map;
mod name;
mod part;
mod set;
mod table;

use std::path::Path;
use std::sync::Arc;

use crate::{HostKind, Url, UrlRef};

pub use part::Part;
pub use set::{SetError, SuffixSet};
pub use table::ListError;

/// The section of the list a rule comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// `===BEGIN ICANN DOMAINS===`: suffixes run by registries.
    Icann,
    /// `===BEGIN PRIVATE DOMAINS===`: suffixes that companies hand out
    /// (`github.io`, `blogspot.com`).
    Private,
}

/// The prevailing rule of a host: where its public suffix starts in the
/// name, and the rule's section (`None`: the implicit `*` rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Match {
    pub(crate) start: usize,
    pub(crate) section: Option<Section>,
}

#[derive(Clone)]
enum Rules {
    Builtin,
    Table(Arc<table::Table>),
}

/// A Public Suffix List, with or without its private rules. Cloning is
/// cheap (a loaded list is shared).
#[derive(Clone)]
pub struct List {
    rules: Rules,
    include_private: bool,
}

impl std::fmt::Debug for List {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("List")
            .field("provenance", &self.provenance())
            .field("include_private", &self.include_private)
            .finish()
    }
}

impl List {
    /// The compiled-in list (private rules included).
    pub fn builtin() -> List {
        List {
            rules: Rules::Builtin,
            include_private: true,
        }
    }

    /// Loads a list from the text of a `public_suffix_list.dat` (private
    /// rules included). Errors name the line and the rule.
    pub fn parse(text: &str) -> Result<List, ListError> {
        Ok(List {
            rules: Rules::Table(Arc::new(table::Table::parse(text)?)),
            include_private: true,
        })
    }

    /// Loads a list from a `public_suffix_list.dat` file. The error names
    /// the file.
    pub fn from_file(
        path: impl AsRef<Path>,
    ) -> Result<List, Box<dyn std::error::Error + Send + Sync>> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let text =
            String::from_utf8(bytes).map_err(|e| format!("{}: not UTF-8 ({e})", path.display()))?;
        List::parse(&text).map_err(|e| format!("{}: {e}", path.display()).into())
    }

    /// The same list without its private rules (`--icann-only`).
    pub fn icann_only(&self) -> List {
        self.with_private(false)
    }

    /// The same list with or without its private rules.
    pub fn with_private(&self, include_private: bool) -> List {
        List {
            rules: self.rules.clone(),
            include_private,
        }
    }

    /// Whether private rules count.
    pub fn includes_private(&self) -> bool {
        self.include_private
    }

    /// Where the rules come from: `"builtin (psl crate 2.1.247)"`, or
    /// `"loaded (N rules)"` with the file's `VERSION` and `COMMIT` header
    /// lines where it has them (`"loaded (9680 rules; VERSION
    /// 2026-11-20_10-04-11_UTC; COMMIT 6f1e...)"`).
    ///
    /// ```
    /// use urlsift::site::List;
    /// assert!(List::builtin().provenance().starts_with("builtin (psl crate "));
    /// let list = List::parse("// VERSION: 2026-01-01_00-00-00_UTC\n// COMMIT: abc123\ncom\n").unwrap();
    /// assert_eq!(list.provenance(), "loaded (1 rules; VERSION 2026-01-01_00-00-00_UTC; COMMIT abc123)");
    /// ```
    pub fn provenance(&self) -> String {
        match &self.rules {
            Rules::Builtin => format!("builtin (psl crate {})", builtin::PSL_VERSION),
            Rules::Table(t) => {
                let mut s = format!("loaded ({} rules", t.rules());
                if let Some(v) = &t.version {
                    s.push_str(&format!("; VERSION {v}"));
                }
                if let Some(c) = &t.commit {
                    s.push_str(&format!("; COMMIT {c}"));
                }
                s.push(')');
                s
            }
        }
    }

    /// The public suffix, registrable domain, domain and subdomain of
    /// `host`; `None` when it is not a domain (see the module docs).
    #[inline]
    pub fn parts<'a>(&self, host: &'a str) -> Option<Parts<'a>> {
        let shape = name::check(host.as_bytes())?;
        let name = &host.as_bytes()[..shape.len];
        let found = if shape.upper {
            self.find(&name.to_ascii_lowercase(), shape)
        } else {
            self.find(name, shape)
        };
        let registrable = shape.label_before(name, found.start);
        Some(Parts {
            host,
            name_len: shape.len,
            suffix: found.start,
            registrable,
            section: found.section,
        })
    }

    #[inline]
    fn find(&self, name: &[u8], shape: name::Shape) -> Match {
        match &self.rules {
            Rules::Builtin => builtin::find(name, shape, self.include_private),
            Rules::Table(t) => t.find(shape.labels(name), self.include_private),
        }
    }

    /// The public suffix of `host` (`co.uk` for `news.bbc.co.uk`).
    pub fn public_suffix<'a>(&self, host: &'a str) -> Option<&'a str> {
        self.parts(host).map(|p| p.public_suffix())
    }

    /// The registrable domain of `host` (`bbc.co.uk` for `news.bbc.co.uk`):
    /// its site.
    pub fn registrable_domain<'a>(&self, host: &'a str) -> Option<&'a str> {
        self.parts(host)?.registrable_domain()
    }

    /// The label before the public suffix (`bbc` for `news.bbc.co.uk`).
    pub fn domain<'a>(&self, host: &'a str) -> Option<&'a str> {
        self.parts(host)?.domain()
    }

    /// The labels before the registrable domain (`news` for
    /// `news.bbc.co.uk`, `""` for `bbc.co.uk`).
    pub fn subdomain<'a>(&self, host: &'a str) -> Option<&'a str> {
        self.parts(host)?.subdomain()
    }

    /// [`List::parts`] of a URL's host when it is a domain; `None` for IP
    /// addresses, opaque and empty hosts and URLs without a host.
    #[inline]
    pub fn url_parts<'a>(&self, url: &'a Url) -> Option<Parts<'a>> {
        self.view_parts(url.view())
    }

    /// [`List::url_parts`] of a borrowed URL.
    #[inline]
    pub fn view_parts<'a>(&self, url: UrlRef<'a>) -> Option<Parts<'a>> {
        match url.host_kind() {
            Some(HostKind::Domain) => self.parts(url.hostname()),
            _ => None,
        }
    }
}

/// The site (registrable domain) of a URL, by the compiled-in list with
/// private rules.
///
/// ```
/// let url = urlsift::Url::parse("https://news.bbc.co.uk/sport").unwrap();
/// assert_eq!(urlsift::site::registrable_domain(&url), Some("bbc.co.uk"));
/// ```
pub fn registrable_domain(url: &Url) -> Option<&str> {
    List::builtin().url_parts(url)?.registrable_domain()
}

/// A host split at its public suffix: slices of the host given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parts<'a> {
    host: &'a str,
    /// The host's length less a trailing dot.
    name_len: usize,
    suffix: usize,
    registrable: Option<usize>,
    section: Option<Section>,
}

impl<'a> Parts<'a> {
    /// The host these parts are of.
    pub fn host(&self) -> &'a str {
        self.host
    }

    /// The public suffix (with the host's trailing dot, if any).
    pub fn public_suffix(&self) -> &'a str {
        &self.host[self.suffix..]
    }

    /// The registrable domain (with the host's trailing dot, if any);
    /// `None` when the host is a public suffix.
    pub fn registrable_domain(&self) -> Option<&'a str> {
        self.registrable.map(|r| &self.host[r..])
    }

    /// The label before the public suffix; `None` when the host is a
    /// public suffix.
    pub fn domain(&self) -> Option<&'a str> {
        self.registrable.map(|r| &self.host[r..self.suffix - 1])
    }

    /// The labels before the registrable domain, `""` when there are none;
    /// `None` when the host is a public suffix.
    pub fn subdomain(&self) -> Option<&'a str> {
        self.registrable.map(|r| &self.host[..r.saturating_sub(1)])
    }

    /// Whether the public suffix came from a rule of the list (`false`:
    /// the implicit `*` rule, as for `example.unknowntld`).
    pub fn is_listed(&self) -> bool {
        self.section.is_some()
    }

    /// The section of the prevailing rule; `None` for the implicit rule.
    pub fn section(&self) -> Option<Section> {
        self.section
    }

    /// Whether the prevailing rule is in the list's private section
    /// (`github.io`, `blogspot.com`): the site is a customer's of a
    /// provider, not a registrant's.
    ///
    /// ```
    /// let list = urlsift::site::List::builtin();
    /// assert!(list.parts("user.github.io").unwrap().is_private());
    /// assert!(!list.parts("www.bbc.co.uk").unwrap().is_private());
    /// ```
    pub fn is_private(&self) -> bool {
        self.section == Some(Section::Private)
    }

    /// Whether the host had a trailing dot.
    pub fn is_fqdn(&self) -> bool {
        self.name_len < self.host.len()
    }
}

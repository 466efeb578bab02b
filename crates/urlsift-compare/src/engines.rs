//! The parsers `compare` runs, behind one [`Engine`] trait: urlsift's own
//! paths, the `ada-url` and `url` crates (Cargo feature `compare-peers`),
//! each in a Node.js child process (`node.rs`), Node.js's own `new URL`
//! and `whatwg-url`, the standard's reference implementation; and the
//! parsers of other families, compared by what they mean (`meaning.rs`):
//! Python's `urllib.parse` and Java's `java.net.URI` in child processes
//! (`python.rs`, `java.rs`), libcurl's URL API loaded at run time
//! (`curl.rs`).
//!
//! Each engine answers two questions: what it makes of one URL (all the
//! `URL` getters, for the differential), and how long one pass over all
//! URLs takes. A timed pass does what `examples/profile.rs` (and so
//! `scripts/bench/ratios`) does per URL: parse, then read the href's
//! length; it also counts the valid URLs, so the work can be checked.

use std::borrow::Cow;
use std::time::Instant;

use urlsift::{Getter, Url};

use crate::Error;

/// The parsers by name, in the order `all` lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ParserId {
    /// `Url::parse`: the fast path, then the state machine if it declines.
    Urlsift,
    /// The state machine alone.
    UrlsiftMachine,
    /// `BatchParser::parse`: the fast path and the machine into a reused buffer.
    UrlsiftBatch,
    /// The `ada-url` crate (ada, C++).
    Ada,
    /// The `url` crate (rust-url).
    RustUrl,
    /// `new URL(input, base)` in Node.js.
    Node,
    /// The `whatwg-url` npm package (the URL Standard's reference
    /// implementation, kept by its editors) in Node.js.
    WhatwgUrl,
    /// CPython's `urllib.parse.urlsplit`.
    Python,
    /// Java's `java.net.URI`.
    Java,
    /// libcurl's URL API.
    Curl,
}

impl ParserId {
    /// Every parser, in display order.
    pub const ALL: [ParserId; 10] = [
        ParserId::Urlsift,
        ParserId::UrlsiftMachine,
        ParserId::UrlsiftBatch,
        ParserId::Ada,
        ParserId::RustUrl,
        ParserId::Node,
        ParserId::WhatwgUrl,
        ParserId::Python,
        ParserId::Java,
        ParserId::Curl,
    ];

    /// The name used by `--parsers` and in reports.
    pub fn name(self) -> &'static str {
        match self {
            ParserId::Urlsift => "urlsift",
            ParserId::UrlsiftMachine => "urlsift-machine",
            ParserId::UrlsiftBatch => "urlsift-batch",
            ParserId::Ada => "ada",
            ParserId::RustUrl => "rust-url",
            ParserId::Node => "node",
            ParserId::WhatwgUrl => "whatwg-url",
            ParserId::Python => "python",
            ParserId::Java => "java",
            ParserId::Curl => "curl",
        }
    }

    /// Whether this parser runs outside this binary (a child process or a
    /// library found at run time): it may be missing from a machine.
    pub fn is_external(self) -> bool {
        matches!(
            self,
            ParserId::Node
                | ParserId::WhatwgUrl
                | ParserId::Python
                | ParserId::Java
                | ParserId::Curl
        )
    }

    /// Whether this parser follows another standard than the WHATWG one
    /// (RFC 3986 or its own rules): compared by what it means (scheme,
    /// userinfo, host, port, then path, query, fragment), not by getters.
    pub fn reads_meaning(self) -> bool {
        matches!(self, ParserId::Python | ParserId::Java | ParserId::Curl)
    }

    /// Whether this is urlsift's own parser on another path: any
    /// difference from `urlsift` is then a urlsift bug.
    pub fn is_urlsift(self) -> bool {
        matches!(
            self,
            ParserId::Urlsift | ParserId::UrlsiftMachine | ParserId::UrlsiftBatch
        )
    }

    fn is_compiled_peer(self) -> bool {
        matches!(self, ParserId::Ada | ParserId::RustUrl)
    }
}

/// The parsers compared when `--parsers` is not given.
pub const DEFAULT_PARSERS: &str = "urlsift,urlsift-machine,ada,rust-url";

/// The parsers chosen, and the ones `all` left out because this machine
/// lacks them (with why), for the report.
#[derive(Debug, Default)]
pub struct Selection {
    /// The parsers, urlsift first.
    pub ids: Vec<ParserId>,
    /// The parsers `all` left out, with why.
    pub missing: Vec<(ParserId, String)>,
}

/// The comma-separated `--parsers` list (or `all`) as parsers, `urlsift`
/// first (the others are diffed against it), each once.
/// `peers_compiled`: whether the `compare-peers` feature is on;
/// `available(parser, named)`: whether an external parser can run here,
/// or why not (`named`: it was named, not taken in by `all`). A parser
/// named but missing is an error; one `all` would take but cannot is
/// listed in [`Selection::missing`], never passed over in silence.
pub fn select(
    list: &str,
    peers_compiled: bool,
    mut available: impl FnMut(ParserId, bool) -> Result<(), String>,
) -> Result<Selection, String> {
    let mut chosen = vec![ParserId::Urlsift];
    let mut missing = Vec::new();
    // External parsers `all` found here, not to be asked about again.
    let mut verified = Vec::new();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        if name == "all" {
            for p in ParserId::ALL {
                if p.is_compiled_peer() && !peers_compiled {
                    continue;
                }
                if p.is_external() && !verified.contains(&p) {
                    if let Err(why) = available(p, false) {
                        missing.push((p, why));
                        continue;
                    }
                    verified.push(p);
                }
                chosen.push(p);
            }
            continue;
        }
        match ParserId::ALL.into_iter().find(|p| p.name() == name) {
            Some(p) => chosen.push(p),
            None => {
                let known: Vec<&str> = ParserId::ALL.iter().map(|p| p.name()).collect();
                return Err(format!(
                    "--parsers: unknown parser {name:?} (known: {}, or all)",
                    known.join(", ")
                ));
            }
        }
    }
    let mut seen = Vec::new();
    chosen.retain(|p| {
        let first = !seen.contains(p);
        seen.push(*p);
        first
    });
    missing.retain(|(p, _)| !chosen.contains(p));
    missing.dedup_by_key(|(p, _)| *p);
    let uncompiled: Vec<&str> = chosen
        .iter()
        .filter(|p| p.is_compiled_peer() && !peers_compiled)
        .map(|p| p.name())
        .collect();
    if !uncompiled.is_empty() {
        return Err(format!(
            "--parsers: {} not compiled into this urlsift: build it with the Cargo feature \
             `compare-peers` (on by default; `cargo build --release --features compare-peers`), \
             or choose from urlsift, urlsift-machine, urlsift-batch, node, whatwg-url, python, \
             java, curl",
            uncompiled.join(" and ") + if uncompiled.len() == 1 { " is" } else { " are" }
        ));
    }
    for &p in &chosen {
        if p.is_external()
            && !verified.contains(&p)
            && let Err(why) = available(p, true)
        {
            return Err(format!("--parsers: {why}"));
        }
    }
    Ok(Selection {
        ids: chosen,
        missing,
    })
}

/// The getters compared, in the order [`Parsed::field`] numbers them.
pub const FIELDS: [&str; 11] = Getter::NAMES;

/// One parser's result for one input.
pub enum Parsed {
    /// A urlsift URL.
    Urlsift(Url),
    /// An ada URL.
    #[cfg(feature = "peers")]
    Ada(ada_url::Url),
    /// A rust-url URL.
    #[cfg(feature = "peers")]
    RustUrl(url::Url),
    /// The getters' values in [`FIELDS`] order (from Node.js).
    Values(Box<[String; 11]>),
    /// What a parser of another family means by the URL.
    Parts(Box<Parts>),
    /// urlsift's failure.
    Invalid(urlsift::ParseError),
    /// Another parser's failure, with its message.
    Failed(String),
}

impl From<Result<Url, urlsift::ParseError>> for Parsed {
    /// urlsift's reading: the URL, or the error that rejected it.
    fn from(r: Result<Url, urlsift::ParseError>) -> Self {
        match r {
            Ok(u) => Parsed::Urlsift(u),
            Err(e) => Parsed::Invalid(e),
        }
    }
}

impl Parsed {
    /// Whether the parser accepted the input.
    pub fn is_ok(&self) -> bool {
        !matches!(self, Parsed::Failed(_) | Parsed::Invalid(_))
    }

    /// The failure message, if it failed.
    pub fn error(&self) -> Option<Cow<'_, str>> {
        match self {
            Parsed::Failed(m) => Some(Cow::Borrowed(m)),
            Parsed::Invalid(e) => Some(Cow::Owned(e.to_string())),
            _ => None,
        }
    }

    /// The getter `FIELDS[i]`; empty for a failure.
    pub fn field(&self, i: usize) -> Cow<'_, str> {
        match self {
            Parsed::Urlsift(u) => Getter::ALL[i].of(u),
            #[cfg(feature = "peers")]
            Parsed::Ada(u) => Cow::Borrowed(match i {
                0 => u.href(),
                1 => u.protocol(),
                2 => u.username(),
                3 => u.password(),
                4 => u.host(),
                5 => u.hostname(),
                6 => u.port(),
                7 => u.pathname(),
                8 => u.search(),
                9 => u.hash(),
                _ => return Cow::Owned(u.origin()),
            }),
            #[cfg(feature = "peers")]
            Parsed::RustUrl(u) => {
                use url::quirks as q;
                Cow::Borrowed(match i {
                    0 => q::href(u),
                    1 => q::protocol(u),
                    2 => q::username(u),
                    3 => q::password(u),
                    4 => q::host(u),
                    5 => q::hostname(u),
                    6 => q::port(u),
                    7 => q::pathname(u),
                    8 => q::search(u),
                    9 => q::hash(u),
                    _ => return Cow::Owned(q::origin(u)),
                })
            }
            Parsed::Values(v) => Cow::Borrowed(&v[i]),
            Parsed::Parts(p) => p.field(i),
            Parsed::Failed(_) | Parsed::Invalid(_) => Cow::Borrowed(""),
        }
    }

    /// The href's length in bytes, or `None` for a failure: the work a
    /// timed pass adds up.
    pub fn href_len(&self) -> Option<usize> {
        self.is_ok().then(|| self.field(0).len())
    }
}

/// What a parser of another family (RFC 3986, or its own rules) means by
/// a URL: each part as it reads it, `None` where it sees none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parts {
    /// The scheme, without its `:`.
    pub scheme: Option<String>,
    /// The username, as the parser gives it.
    pub username: Option<String>,
    /// The password, as the parser gives it.
    pub password: Option<String>,
    /// The host as the parser gives it (some lowercase it, some do not;
    /// IPv6 with or without brackets).
    pub host: Option<String>,
    /// An explicit port, as written.
    pub port: Option<String>,
    /// The path.
    pub path: Option<String>,
    /// The query, without its `?`.
    pub query: Option<String>,
    /// The fragment, without its `#`.
    pub fragment: Option<String>,
    /// The parser's own serialization of the URL: the work a timed pass
    /// counts.
    pub url: String,
}

impl Parts {
    /// The parts in the places of the `URL` getters ([`FIELDS`]), for
    /// display: `protocol` is the scheme and a colon, `host` the host and
    /// any port, `search` and `hash` their part after `?` and `#`; no
    /// origin.
    pub fn field(&self, i: usize) -> Cow<'_, str> {
        fn part(p: &Option<String>) -> Cow<'_, str> {
            Cow::Borrowed(p.as_deref().unwrap_or(""))
        }
        let prefixed = |c: char, p: &Option<String>| match p {
            Some(v) if !v.is_empty() => Cow::Owned(format!("{c}{v}")),
            _ => Cow::Borrowed(""),
        };
        match i {
            0 => Cow::Borrowed(&self.url),
            1 => match &self.scheme {
                Some(s) => Cow::Owned(format!("{s}:")),
                None => Cow::Borrowed(""),
            },
            2 => part(&self.username),
            3 => part(&self.password),
            4 => match (&self.host, &self.port) {
                (Some(h), Some(p)) => Cow::Owned(format!("{h}:{p}")),
                (h, _) => part(h),
            },
            5 => part(&self.host),
            6 => part(&self.port),
            7 => part(&self.path),
            8 => prefixed('?', &self.query),
            9 => prefixed('#', &self.fragment),
            _ => Cow::Borrowed(""),
        }
    }
}

/// What one pass over the URLs did: how many parsed, and the total
/// length of their hrefs. Equal work means the same URLs were parsed to
/// hrefs of the same total size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// URLs parsed to a valid result.
    pub valid: u64,
    /// The total length of their hrefs.
    pub href_bytes: u64,
}

impl Work {
    /// Counts one result.
    pub fn add(&mut self, href_len: Option<usize>) {
        if let Some(n) = href_len {
            self.valid += 1;
            self.href_bytes += n as u64;
        }
    }

    fn merge(mut self, other: Work) -> Work {
        self.valid += other.valid;
        self.href_bytes += other.href_bytes;
        self
    }
}

/// One timed pass: wall-clock nanoseconds and the work done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    /// Wall-clock nanoseconds of the pass.
    pub nanos: u64,
    /// What the pass parsed.
    pub work: Work,
}

/// A parser as `compare` drives it.
pub trait Engine {
    /// What the parser makes of the `index`th URL, `input`. Called for
    /// every URL in corpus order, once per run, before any timing.
    fn parse(&mut self, index: usize, input: &str) -> Result<Parsed, Error>;

    /// One timed pass over `urls`, on the threads of `pool` (split into
    /// one contiguous share per thread) or on this thread.
    fn round(&mut self, urls: &[&str], pool: Option<&rayon::ThreadPool>) -> Result<Round, Error>;
}

/// The base URL as each compiled-in parser takes it.
pub struct Base {
    ours: Option<Url>,
    #[cfg(feature = "peers")]
    text: Option<String>,
    #[cfg(feature = "peers")]
    rust: Option<url::Url>,
}

impl Base {
    /// Parses `--base` for every compiled-in parser; a base one of them
    /// rejects is a usage error (every URL would fail there).
    pub fn new(text: Option<&str>) -> Result<Base, Error> {
        let Some(text) = text else {
            return Ok(Base {
                ours: None,
                #[cfg(feature = "peers")]
                text: None,
                #[cfg(feature = "peers")]
                rust: None,
            });
        };
        let bad = |who: &str, why: String| {
            Error::Usage(format!("--base {text:?}: {who} rejects it: {why}"))
        };
        let ours = Url::parse(text).map_err(|e| bad("urlsift", e.to_string()))?;
        #[cfg(feature = "peers")]
        {
            let rust = url::Url::parse(text).map_err(|e| bad("rust-url", e.to_string()))?;
            if ada_url::Url::parse(text, None).is_err() {
                return Err(bad("ada", "invalid URL".to_string()));
            }
            Ok(Base {
                ours: Some(ours),
                text: Some(text.to_string()),
                rust: Some(rust),
            })
        }
        #[cfg(not(feature = "peers"))]
        Ok(Base { ours: Some(ours) })
    }
}

/// A parser compiled into this binary.
pub struct Native<'b> {
    id: ParserId,
    base: &'b Base,
    batch: urlsift::BatchParser,
}

impl<'b> Native<'b> {
    /// `id` must not be [`ParserId::Node`].
    pub fn new(id: ParserId, base: &'b Base) -> Native<'b> {
        assert!(!id.is_external(), "{} runs outside this binary", id.name());
        Native {
            id,
            base,
            batch: urlsift::BatchParser::new(),
        }
    }
}

impl Engine for Native<'_> {
    fn parse(&mut self, _: usize, input: &str) -> Result<Parsed, Error> {
        let base = self.base.ours.as_ref();
        let ours = Parsed::from;
        Ok(match self.id {
            ParserId::Urlsift => ours(Url::parse_with_base(input, base)),
            ParserId::UrlsiftMachine => ours(urlsift::paths::machine(input, base)),
            ParserId::UrlsiftBatch => ours(self.batch.parse(input, base).cloned()),
            #[cfg(feature = "peers")]
            ParserId::Ada => match ada_url::Url::parse(input, self.base.text.as_deref()) {
                Ok(u) => Parsed::Ada(u),
                Err(_) => Parsed::Failed("invalid URL".to_string()),
            },
            #[cfg(feature = "peers")]
            ParserId::RustUrl => match rust_url(self.base, input) {
                Ok(u) => Parsed::RustUrl(u),
                Err(e) => Parsed::Failed(e.to_string()),
            },
            other => unreachable!("{} is not compiled in", other.name()),
        })
    }

    fn round(&mut self, urls: &[&str], pool: Option<&rayon::ThreadPool>) -> Result<Round, Error> {
        let (id, base) = (self.id, self.base);
        Ok(timed(urls, pool, |share| pass(id, base, share)))
    }
}

#[cfg(feature = "peers")]
#[inline(always)]
fn rust_url(base: &Base, input: &str) -> Result<url::Url, url::ParseError> {
    url::Url::options()
        .base_url(base.rust.as_ref())
        .parse(input)
}

/// One untimed pass of parser `id` over `urls`: the per-URL work of
/// `examples/profile.rs` (parse, read the href's length), plus the valid
/// count. The match is outside the loops, so each parser's loop is its own.
fn pass(id: ParserId, base: &Base, urls: &[&str]) -> Work {
    let ours = base.ours.as_ref();
    match id {
        ParserId::Urlsift => count(urls, |s| {
            Url::parse_with_base(s, ours).ok().map(|u| u.href().len())
        }),
        ParserId::UrlsiftMachine => count(urls, |s| {
            urlsift::paths::machine(s, ours)
                .ok()
                .map(|u| u.href().len())
        }),
        ParserId::UrlsiftBatch => {
            let mut batch = urlsift::BatchParser::new();
            count(urls, |s| batch.parse(s, ours).ok().map(|u| u.href().len()))
        }
        #[cfg(feature = "peers")]
        ParserId::Ada => {
            let text = base.text.as_deref();
            count(urls, |s| {
                ada_url::Url::parse(s, text).ok().map(|u| u.href().len())
            })
        }
        #[cfg(feature = "peers")]
        ParserId::RustUrl => count(urls, |s| rust_url(base, s).ok().map(|u| u.as_str().len())),
        other => unreachable!("{} is not compiled in", other.name()),
    }
}

/// The work of `href_len` over `urls`. Each parser's closure makes its
/// own copy of this loop, compiled on its own (not inlined into the
/// `match` of [`pass`], where the parsers' code would share one function).
#[inline(never)]
fn count(urls: &[&str], mut href_len: impl FnMut(&str) -> Option<usize>) -> Work {
    let mut work = Work::default();
    for url in urls {
        work.add(href_len(url));
    }
    work
}

/// Times `pass` over all of `urls`: on this thread, or with each of
/// `pool`'s threads taking one contiguous share (wall-clock time).
pub fn timed(
    urls: &[&str],
    pool: Option<&rayon::ThreadPool>,
    pass: impl Fn(&[&str]) -> Work + Sync,
) -> Round {
    let Some(pool) = pool else {
        let start = Instant::now();
        let work = pass(urls);
        return Round {
            nanos: nanos(start),
            work,
        };
    };
    let share = urls.len().div_ceil(pool.current_num_threads()).max(1);
    let start = Instant::now();
    let works = pool.broadcast(|ctx| {
        urls.chunks(share)
            .nth(ctx.index())
            .map_or_else(Work::default, &pass)
    });
    let nanos = nanos(start);
    let work = works.into_iter().fold(Work::default(), Work::merge);
    Round { nanos, work }
}

fn nanos(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A machine with the given external parsers (and whatwg-url found by
    /// Node.js when `reference`).
    fn machine(
        present: &[ParserId],
        reference: bool,
    ) -> impl FnMut(ParserId, bool) -> Result<(), String> {
        let present = present.to_vec();
        move |p, named| {
            let here = present.contains(&p) && (p != ParserId::WhatwgUrl || reference || named);
            if here {
                Ok(())
            } else {
                Err(format!("{} is not here", p.name()))
            }
        }
    }

    #[test]
    fn selection_puts_urlsift_first_once_and_explains_what_is_missing() {
        use ParserId::*;
        let names = |v: Selection| v.ids.into_iter().map(ParserId::name).collect::<Vec<_>>();
        let none = || machine(&[], false);
        assert_eq!(
            names(select("ada,urlsift,ada, rust-url", true, none()).unwrap()),
            ["urlsift", "ada", "rust-url"]
        );
        assert_eq!(
            names(select("all", true, machine(&[Node], false)).unwrap()),
            [
                "urlsift",
                "urlsift-machine",
                "urlsift-batch",
                "ada",
                "rust-url",
                "node"
            ]
        );
        let everything = [Node, WhatwgUrl, Python, Java, Curl];
        assert_eq!(
            names(select("all,node", true, machine(&everything, true)).unwrap()),
            [
                "urlsift",
                "urlsift-machine",
                "urlsift-batch",
                "ada",
                "rust-url",
                "node",
                "whatwg-url",
                "python",
                "java",
                "curl"
            ]
        );
        // `all` names what it left out, and why.
        let some = select("all", false, machine(&[Python], false)).unwrap();
        assert_eq!(
            some.ids.iter().map(|p| p.name()).collect::<Vec<_>>(),
            ["urlsift", "urlsift-machine", "urlsift-batch", "python"]
        );
        let missing: Vec<&str> = some.missing.iter().map(|(p, _)| p.name()).collect();
        assert_eq!(missing, ["node", "whatwg-url", "java", "curl"]);
        assert_eq!(some.missing[2].1, "java is not here");
        // A parser named but missing is an error, with the reason.
        let err = select("urlsift,ada", false, none()).unwrap_err();
        assert!(err.contains("ada is not compiled in"), "{err}");
        assert!(err.contains("feature `compare-peers`"), "{err}");
        let err = select(DEFAULT_PARSERS, false, none()).unwrap_err();
        assert!(
            err.contains("ada and rust-url are not compiled in"),
            "{err}"
        );
        let err = select("java", true, none()).unwrap_err();
        assert_eq!(err, "--parsers: java is not here");
        let err = select("all,curl", true, machine(&[Node], false)).unwrap_err();
        assert_eq!(err, "--parsers: curl is not here");
        let err = select("chrome", true, none()).unwrap_err();
        assert!(err.contains("unknown parser \"chrome\""), "{err}");
    }

    /// A timed pass on several threads does the same work as on one.
    #[test]
    fn threads_split_the_work_without_losing_any() {
        let base = Base::new(None).unwrap();
        let urls = [
            "https://a.example/",
            "nope",
            "HTTP://B.example",
            "x:y",
            "a:b",
        ];
        let one = timed(&urls, None, |s| pass(ParserId::Urlsift, &base, s));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let three = timed(&urls, Some(&pool), |s| pass(ParserId::Urlsift, &base, s));
        assert_eq!(one.work, three.work);
        assert_eq!(
            one.work,
            Work {
                valid: 4,
                href_bytes: (18 + 17 + 3 + 3) as u64
            }
        );
    }

    #[test]
    fn getters_in_field_order() {
        let base = Base::new(Some("https://u:p@example.com:8080/a/b")).unwrap();
        let mut engine = Native::new(ParserId::UrlsiftMachine, &base);
        let parsed = engine.parse(0, "../c?q#f").unwrap();
        let values: Vec<String> = (0..FIELDS.len()).map(|i| parsed.field(i).into()).collect();
        assert_eq!(
            values,
            [
                "https://u:p@example.com:8080/c?q#f",
                "https:",
                "u",
                "p",
                "example.com:8080",
                "example.com",
                "8080",
                "/c",
                "?q",
                "#f",
                "https://example.com:8080"
            ]
        );
        let failed = engine.parse(1, "http://[").unwrap();
        assert_eq!(failed.href_len(), None);
        assert!(
            failed.error().unwrap().contains("IPv6"),
            "{:?}",
            failed.error()
        );
    }
}

//! [URL Pattern](https://urlpattern.spec.whatwg.org/) (the `urlpattern`
//! feature): patterns such as `https://*.example.com/products/:id` that
//! match URLs and name their parts, as the standard's `URLPattern` class
//! does, on [`Url`]s already parsed.
//!
//! ```
//! use urlsift::pattern::{UrlPattern, PatternComponent, PatternOptions};
//! use urlsift::Url;
//!
//! let pattern = UrlPattern::parse("https://*.example.com/products/:id", None, PatternOptions::default())?;
//! let url = Url::parse("https://shop.example.com/products/42?ref=a").unwrap();
//! assert!(pattern.test_url(&url));
//! let found = pattern.exec_url(&url).unwrap();
//! assert_eq!(found.get(PatternComponent::Pathname).group("id"), Some("42"));
//! assert_eq!(found.get(PatternComponent::Hostname).group("0"), Some("shop"));
//! assert_eq!(pattern.pathname(), "/products/:id");
//! # Ok::<(), urlsift::pattern::PatternError>(())
//! ```
//!
//! Each component compiles to a regular expression as the standard says,
//! written in JavaScript's syntax and run by the `regex` crate (see
//! `regexp.rs` for how the syntaxes are reconciled): custom groups such as
//! `:id(\d+)` that use lookaround or backreferences do not compile
//! ([`PatternError::RegexpFeature`]); the `regex` crate's matching is the
//! leftmost-first matching of a backtracking engine, so groups capture what
//! JavaScript's would.
//!
//! Beyond the standard's text, [`UrlPattern::generate`] and
//! [`UrlPattern::compare_component`] follow the `generate()` and
//! `compareComponent()` proposals as web-platform-tests' data pins them.

mod canon;
mod compiled;
mod constructor;
mod error;
mod init;
mod list;
mod matched;
mod parts;
mod regexp;
mod tokenize;

use std::cmp::Ordering;

use crate::url::{Url, UrlRef};
use canon::InitType;
use compiled::{Compiled, Encode, compile_component};
use parts::{Modifier, Options, Part, PartKind};

pub use error::PatternError;
pub use init::{Init, PatternComponent, PatternOptions};
pub use list::PatternList;
pub use matched::{ComponentMatch, Input, PatternMatch};

/// A compiled [URL pattern](https://urlpattern.spec.whatwg.org/#url-pattern).
#[derive(Clone, Debug)]
pub struct UrlPattern {
    components: Vec<Compiled>,
}

impl UrlPattern {
    /// A pattern from a constructor string (`new URLPattern(input, baseURL,
    /// options)`); relative patterns need `base_url`.
    ///
    /// ```
    /// use urlsift::pattern::{PatternOptions, UrlPattern};
    /// let p = UrlPattern::parse("/api/:version/*", Some("https://e.com"), PatternOptions::default())?;
    /// assert!(p.test("https://e.com/api/v2/users", None)?);
    /// assert!(UrlPattern::parse("/api", None, PatternOptions::default()).is_err());
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn parse(
        input: &str,
        base_url: Option<&str>,
        options: PatternOptions,
    ) -> Result<UrlPattern, PatternError> {
        let mut init = constructor::parse_constructor_string(input)?;
        if base_url.is_none() && init.protocol.is_none() {
            return Err(PatternError::NoProtocol);
        }
        init.base_url = base_url.map(str::to_string);
        UrlPattern::new(&init, options)
    }

    /// A pattern from components (`new URLPattern(init, options)`).
    ///
    /// ```
    /// use urlsift::pattern::{Init, PatternOptions, UrlPattern};
    /// let init = Init { hostname: Some("{*.}?example.com".into()), ..Init::default() };
    /// let p = UrlPattern::new(&init, PatternOptions::default())?;
    /// assert!(p.test("http://a.b.example.com/x", None)?);
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn new(init: &Init, options: PatternOptions) -> Result<UrlPattern, PatternError> {
        let mut processed = canon::process_init(init, InitType::Pattern, Init::default())?;
        for c in PatternComponent::ALL {
            processed.slot_mut(c).get_or_insert_with(|| "*".to_string());
        }
        let value = |c: PatternComponent| processed.get(c).unwrap_or_default().to_string();
        let protocol = value(PatternComponent::Protocol);
        let mut port = value(PatternComponent::Port);
        let scheme = crate::components::SchemeType::from_scheme(protocol.as_bytes());
        if scheme.is_special() && scheme.default_port().map(|p| p.to_string()) == Some(port.clone())
        {
            port.clear();
        }
        let compile = |text: &str, encode: Encode, o: Options| compile_component(text, encode, o);
        let protocol = compile(&protocol, canon::protocol, Options::DEFAULT)?;
        let username = compile(
            &value(PatternComponent::Username),
            canon::username,
            Options::DEFAULT,
        )?;
        let password = compile(
            &value(PatternComponent::Password),
            canon::password,
            Options::DEFAULT,
        )?;
        let host_text = value(PatternComponent::Hostname);
        let host_encode: Encode = if is_ipv6_pattern(&host_text) {
            canon::ipv6_hostname
        } else {
            canon::hostname
        };
        let hostname = compile(&host_text, host_encode, Options::HOSTNAME)?;
        let port = compile(&port, |v| canon::port(v, None), Options::DEFAULT)?;
        let ignore_case = options.ignore_case;
        let case = |o: Options| Options { ignore_case, ..o };
        let pathname = if protocol.matches_special_scheme() {
            compile(
                &value(PatternComponent::Pathname),
                canon::pathname,
                case(Options::PATHNAME),
            )?
        } else {
            compile(
                &value(PatternComponent::Pathname),
                canon::opaque_pathname,
                case(Options::DEFAULT),
            )?
        };
        let search = compile(
            &value(PatternComponent::Search),
            canon::search,
            case(Options::DEFAULT),
        )?;
        let hash = compile(
            &value(PatternComponent::Hash),
            canon::hash,
            case(Options::DEFAULT),
        )?;
        Ok(UrlPattern {
            components: vec![
                protocol, username, password, hostname, port, pathname, search, hash,
            ],
        })
    }

    /// The component's normalized pattern string (the standard's getters).
    ///
    /// ```
    /// use urlsift::pattern::{PatternComponent, PatternOptions, UrlPattern};
    /// let p = UrlPattern::parse("https://e.com:443/a{/:b}", None, PatternOptions::default())?;
    /// assert_eq!(p.component(PatternComponent::Port), "");
    /// assert_eq!(p.component(PatternComponent::Pathname), "/a/:b");
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn component(&self, component: PatternComponent) -> &str {
        &self.components[component as usize].pattern
    }

    /// The protocol pattern string.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternOptions, UrlPattern};
    /// assert_eq!(UrlPattern::parse("http{s}?://e.com", None, PatternOptions::default())?.protocol(), "http{s}?");
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn protocol(&self) -> &str {
        self.component(PatternComponent::Protocol)
    }

    /// The username pattern string.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternOptions, UrlPattern};
    /// assert_eq!(UrlPattern::parse("https://e.com", None, PatternOptions::default())?.username(), "*");
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn username(&self) -> &str {
        self.component(PatternComponent::Username)
    }

    /// The password pattern string.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternOptions, UrlPattern};
    /// assert_eq!(UrlPattern::parse("https://u::p@e.com", None, PatternOptions::default())?.password(), ":p");
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn password(&self) -> &str {
        self.component(PatternComponent::Password)
    }

    /// The hostname pattern string.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternOptions, UrlPattern};
    /// assert_eq!(UrlPattern::parse("https://*.EXAMPLE.com", None, PatternOptions::default())?.hostname(), "*.example.com");
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn hostname(&self) -> &str {
        self.component(PatternComponent::Hostname)
    }

    /// The port pattern string.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternOptions, UrlPattern};
    /// assert_eq!(UrlPattern::parse("https://e.com:8080", None, PatternOptions::default())?.port(), "8080");
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn port(&self) -> &str {
        self.component(PatternComponent::Port)
    }

    /// The pathname pattern string.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternOptions, UrlPattern};
    /// assert_eq!(UrlPattern::parse("https://e.com/a b/:c", None, PatternOptions::default())?.pathname(), "/a%20b/:c");
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn pathname(&self) -> &str {
        self.component(PatternComponent::Pathname)
    }

    /// The search pattern string.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternOptions, UrlPattern};
    /// assert_eq!(UrlPattern::parse("https://e.com/?q=:term", None, PatternOptions::default())?.search(), "q=:term");
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn search(&self) -> &str {
        self.component(PatternComponent::Search)
    }

    /// The hash pattern string.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternOptions, UrlPattern};
    /// assert_eq!(UrlPattern::parse("https://e.com/#top", None, PatternOptions::default())?.hash(), "top");
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn hash(&self) -> &str {
        self.component(PatternComponent::Hash)
    }

    /// The names of the pattern's groups, each once, in URL order (what
    /// [`PatternMatch::group`] can be asked for).
    ///
    /// ```
    /// # use urlsift::pattern::{PatternOptions, UrlPattern};
    /// let p = UrlPattern::parse("https://:sub.e.com/:id/*", None, PatternOptions::default())?;
    /// assert_eq!(p.group_names(), ["0", "sub", "id"]);
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn group_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for name in self.components.iter().flat_map(|c| &c.names) {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
        names
    }

    /// Whether any component uses a custom regular expression group.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternOptions, UrlPattern};
    /// let o = PatternOptions::default();
    /// assert!(UrlPattern::parse("https://e.com/:id(\\d+)", None, o)?.has_regexp_groups());
    /// assert!(!UrlPattern::parse("https://e.com/:id", None, o)?.has_regexp_groups());
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn has_regexp_groups(&self) -> bool {
        self.components.iter().any(|c| c.has_regexp_groups)
    }

    /// Whether the parsed `url` matches (no second parse).
    ///
    /// ```
    /// # use urlsift::pattern::{PatternOptions, UrlPattern};
    /// let p = UrlPattern::parse("https://e.com/a/*", None, PatternOptions::default())?;
    /// assert!(p.test_url(&urlsift::Url::parse("https://e.com/a/b").unwrap()));
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn test_url(&self, url: &Url) -> bool {
        self.test_view(url.view())
    }

    /// [`UrlPattern::test_url`] on a borrowed URL (what the batch parser's
    /// views and the record engine give).
    ///
    /// ```
    /// # use urlsift::pattern::{PatternOptions, UrlPattern};
    /// let p = UrlPattern::parse("https://e.com/a/*", None, PatternOptions::default())?;
    /// let url = urlsift::Url::parse("https://e.com/a/b").unwrap();
    /// assert!(p.test_view(url.view()));
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn test_view(&self, url: UrlRef<'_>) -> bool {
        let values = url_ref_values(url);
        self.components
            .iter()
            .zip(values)
            .all(|(c, v)| c.is_match(v))
    }

    /// The match of the parsed `url`, or `None`.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternComponent, PatternOptions, UrlPattern};
    /// let p = UrlPattern::parse("https://e.com/:a", None, PatternOptions::default())?;
    /// let m = p.exec_url(&urlsift::Url::parse("https://e.com/b").unwrap()).unwrap();
    /// assert_eq!(m.get(PatternComponent::Pathname).group("a"), Some("b"));
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn exec_url(&self, url: &Url) -> Option<PatternMatch> {
        self.exec_view(url.view())
    }

    /// [`UrlPattern::exec_url`] on a borrowed URL.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternOptions, UrlPattern};
    /// let p = UrlPattern::parse("https://e.com/:a", None, PatternOptions::default())?;
    /// let url = urlsift::Url::parse("https://e.com/b").unwrap();
    /// assert_eq!(p.exec_view(url.view()).unwrap().group("a"), Some("b"));
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn exec_view(&self, url: UrlRef<'_>) -> Option<PatternMatch> {
        self.exec_values(url_ref_values(url))
    }

    /// The standard's `test(input, baseURL)`: an input that does not parse
    /// does not match; a base URL beside an [`Input::Init`] is an error.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternOptions, UrlPattern};
    /// let p = UrlPattern::parse("https://e.com/*", None, PatternOptions::default())?;
    /// assert!(p.test("x", Some("https://e.com/"))?);
    /// assert!(!p.test("not a url", None)?);
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn test(&self, input: &str, base_url: Option<&str>) -> Result<bool, PatternError> {
        Ok(self.exec(input, base_url)?.is_some())
    }

    /// The standard's `exec(input, baseURL)` on a URL string.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternComponent, PatternOptions, UrlPattern};
    /// let p = UrlPattern::parse("https://:sub.e.com/*", None, PatternOptions::default())?;
    /// let m = p.exec("https://api.e.com/", None)?.unwrap();
    /// assert_eq!(m.get(PatternComponent::Hostname).group("sub"), Some("api"));
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn exec(
        &self,
        input: &str,
        base_url: Option<&str>,
    ) -> Result<Option<PatternMatch>, PatternError> {
        self.exec_input(Input::Url(input), base_url)
    }

    /// `exec` on either kind of [`Input`].
    ///
    /// ```
    /// # use urlsift::pattern::{Init, Input, PatternOptions, UrlPattern};
    /// let p = UrlPattern::parse("https://e.com/:a", None, PatternOptions::default())?;
    /// let init = Init { protocol: Some("https".into()), hostname: Some("e.com".into()),
    ///     pathname: Some("/x".into()), ..Init::default() };
    /// assert!(p.exec_input(Input::Init(&init), None)?.is_some());
    /// assert!(p.exec_input(Input::Init(&init), Some("https://e.com")).is_err());
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn exec_input(
        &self,
        input: Input<'_>,
        base_url: Option<&str>,
    ) -> Result<Option<PatternMatch>, PatternError> {
        match input {
            Input::Init(init) => {
                if base_url.is_some() {
                    return Err(PatternError::InitWithBase);
                }
                let empty = || Some(String::new());
                let defaults = Init {
                    protocol: empty(),
                    username: empty(),
                    password: empty(),
                    hostname: empty(),
                    port: empty(),
                    pathname: empty(),
                    search: empty(),
                    hash: empty(),
                    base_url: None,
                };
                let Ok(applied) = canon::process_init(init, InitType::Url, defaults) else {
                    return Ok(None);
                };
                let values = PatternComponent::ALL.map(|c| applied.get(c).unwrap_or_default());
                Ok(self.exec_values(values))
            }
            Input::Url(text) => {
                let base = match base_url {
                    Some(b) => match Url::parse(b) {
                        Ok(base) => Some(base),
                        Err(_) => return Ok(None),
                    },
                    None => None,
                };
                match Url::parse_with_base(text, base.as_ref()) {
                    Ok(url) => Ok(self.exec_url(&url)),
                    Err(_) => Ok(None),
                }
            }
        }
    }

    fn exec_values(&self, values: [&str; 8]) -> Option<PatternMatch> {
        if !self
            .components
            .iter()
            .zip(values)
            .all(|(c, v)| c.is_match(v))
        {
            return None;
        }
        let components = self
            .components
            .iter()
            .zip(values)
            .map(|(c, v)| c.exec(v))
            .collect::<Option<_>>()?;
        Some(PatternMatch { components })
    }

    /// Fills the component's named groups with `groups` (the `generate()`
    /// proposal): every part must be fixed text or a `:name` group without a
    /// modifier, and each value, canonicalized as the component's fixed text
    /// is, must be one segment (no `/` in a pathname, no `.` in a hostname).
    ///
    /// ```
    /// # use urlsift::pattern::{PatternComponent, PatternOptions, UrlPattern};
    /// let p = UrlPattern::parse("https://e.com/users/:id", None, PatternOptions::default())?;
    /// assert_eq!(p.generate(PatternComponent::Pathname, &[("id", "a b")])?, "/users/a%20b");
    /// assert!(p.generate(PatternComponent::Pathname, &[("id", "a/b")]).is_err());
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn generate(
        &self,
        component: PatternComponent,
        groups: &[(&str, &str)],
    ) -> Result<String, PatternError> {
        let compiled = &self.components[component as usize];
        let mut result = String::new();
        for part in &compiled.parts {
            if part.modifier != Modifier::None {
                return Err(PatternError::Generate(format!(
                    "a part with a modifier cannot be generated ({})",
                    compiled.pattern
                )));
            }
            match part.kind {
                PartKind::FixedText => result.push_str(&part.value),
                PartKind::SegmentWildcard => {
                    let Some((_, value)) = groups.iter().find(|(n, _)| *n == part.name) else {
                        return Err(PatternError::Generate(format!(
                            "no value for the group {:?}",
                            part.name
                        )));
                    };
                    let encoded = (compiled.encode)(value)?;
                    let splits = compiled
                        .options
                        .delimiter
                        .is_some_and(|d| encoded.contains(d));
                    if encoded.is_empty() || splits {
                        return Err(PatternError::Generate(format!(
                            "{value:?} is not one segment of {}",
                            component.name()
                        )));
                    }
                    result.push_str(&part.prefix);
                    result.push_str(&encoded);
                    result.push_str(&part.suffix);
                }
                PartKind::FullWildcard | PartKind::Regexp => {
                    return Err(PatternError::Generate(format!(
                        "a wildcard or regexp group cannot be generated ({})",
                        compiled.pattern
                    )));
                }
            }
        }
        Ok(result)
    }

    /// Orders two patterns' component from the least to the most specific
    /// (the `compareComponent()` proposal): part by part, fixed text above a
    /// regexp above a segment wildcard above a full wildcard, then by
    /// modifier (none, `+`, `?`, `*`), then by prefix, value and suffix as
    /// JavaScript compares strings; a missing part is empty fixed text.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternComponent, PatternOptions, UrlPattern};
    /// use std::cmp::Ordering;
    /// let o = PatternOptions::default();
    /// let exact = UrlPattern::parse("https://e.com/a/b", None, o)?;
    /// let any = UrlPattern::parse("https://e.com/a/*", None, o)?;
    /// assert_eq!(UrlPattern::compare_component(PatternComponent::Pathname, &exact, &any), Ordering::Greater);
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn compare_component(
        component: PatternComponent,
        left: &UrlPattern,
        right: &UrlPattern,
    ) -> Ordering {
        let (l, r) = (
            &left.components[component as usize].parts,
            &right.components[component as usize].parts,
        );
        let empty = Part::fixed(String::new(), Modifier::None);
        for i in 0..l.len().max(r.len()) {
            let ordering = compare_part(l.get(i).unwrap_or(&empty), r.get(i).unwrap_or(&empty));
            if ordering != Ordering::Equal || i >= l.len().min(r.len()) {
                return ordering;
            }
        }
        Ordering::Equal
    }
}

fn compare_part(l: &Part, r: &Part) -> Ordering {
    let utf16 = |a: &str, b: &str| a.encode_utf16().cmp(b.encode_utf16());
    l.kind
        .cmp(&r.kind)
        .then(l.modifier.cmp(&r.modifier))
        .then_with(|| utf16(&l.prefix, &r.prefix))
        .then_with(|| utf16(&l.value, &r.value))
        .then_with(|| utf16(&l.suffix, &r.suffix))
}

/// [Hostname pattern is an IPv6 address](https://urlpattern.spec.whatwg.org/#hostname-pattern-is-an-ipv6-address).
fn is_ipv6_pattern(input: &str) -> bool {
    let mut chars = input.chars();
    matches!(
        (chars.next(), chars.next()),
        (Some('['), Some(_)) | (Some('{' | '\\'), Some('['))
    )
}

/// A URL's eight component values as [match](https://urlpattern.spec.whatwg.org/#url-pattern-match) reads them.
fn url_ref_values(url: UrlRef<'_>) -> [&str; 8] {
    [
        url.scheme(),
        url.username(),
        url.password(),
        url.hostname(),
        url.port(),
        url.pathname(),
        url.query().unwrap_or(""),
        url.fragment().unwrap_or(""),
    ]
}

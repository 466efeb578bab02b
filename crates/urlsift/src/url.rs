//! [`Url`]: one `String` holding the href plus `u32` component offsets.
//! Getters are slices of the href and return exactly what the JavaScript
//! `URL` getters return.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use crate::components::{Components, SchemeType};
use crate::error::{NoReporter, ParseError, Reporter};
use crate::host::{Host, HostKind};
use crate::parser;

/// A parsed, serialized [URL](https://url.spec.whatwg.org/#concept-url).
#[derive(Clone)]
pub struct Url {
    pub(crate) serialization: String,
    pub(crate) c: Components,
}

impl Url {
    /// Parses `input` without a base ([API URL parser](https://url.spec.whatwg.org/#api-url-parser)).
    pub fn parse(input: &str) -> Result<Url, ParseError> {
        parser::parse(input, None, &mut NoReporter)
    }

    /// Parses `input` against an optional `base`, resolving relative references.
    pub fn parse_with_base(input: &str, base: Option<&Url>) -> Result<Url, ParseError> {
        parser::parse(input, base, &mut NoReporter)
    }

    /// Parses like [`Url::parse_with_base`], reporting every validation
    /// error to `reporter` (for example a `Vec<ValidationError>`).
    pub fn parse_with_reporter<R: Reporter>(
        input: &str,
        base: Option<&Url>,
        reporter: &mut R,
    ) -> Result<Url, ParseError> {
        parser::parse(input, base, reporter)
    }

    /// [`URL.canParse(url, base)`](https://url.spec.whatwg.org/#dom-url-canparse):
    /// whether `input` parses, against `base` if given (which must parse too).
    pub fn can_parse(input: &str, base: Option<&str>) -> bool {
        match base {
            None => Url::parse(input).is_ok(),
            Some(base) => match Url::parse(base) {
                Ok(base) => Url::parse_with_base(input, Some(&base)).is_ok(),
                Err(_) => false,
            },
        }
    }

    #[inline]
    fn slice(&self, start: u32, end: u32) -> &str {
        &self.serialization[start as usize..end as usize]
    }

    #[inline]
    fn len(&self) -> u32 {
        self.serialization.len() as u32
    }

    /// The [href](https://url.spec.whatwg.org/#dom-url-href): the URL's serialization.
    #[inline]
    pub fn href(&self) -> &str {
        &self.serialization
    }

    /// The serialization, as `href`.
    #[inline]
    pub fn as_str(&self) -> &str {
        &self.serialization
    }

    /// Consumes the URL, returning its serialization.
    pub fn into_string(self) -> String {
        self.serialization
    }

    /// The serialization without the fragment ("exclude fragment" set).
    pub fn href_without_fragment(&self) -> &str {
        &self.serialization[..self.c.fragment_start.unwrap_or(self.len()) as usize]
    }

    /// The [protocol](https://url.spec.whatwg.org/#dom-url-protocol): the scheme and ':'.
    pub fn protocol(&self) -> &str {
        self.slice(0, self.c.scheme_end + 1)
    }

    /// The [scheme](https://url.spec.whatwg.org/#concept-url-scheme), without ':'.
    pub fn scheme(&self) -> &str {
        self.view().scheme()
    }

    /// The scheme's classification.
    pub fn scheme_type(&self) -> SchemeType {
        self.c.scheme
    }

    /// Whether the URL [is special](https://url.spec.whatwg.org/#is-special).
    pub fn is_special(&self) -> bool {
        self.c.scheme.is_special()
    }

    /// The [username](https://url.spec.whatwg.org/#dom-url-username).
    pub fn username(&self) -> &str {
        self.view().username()
    }

    /// The [password](https://url.spec.whatwg.org/#dom-url-password).
    pub fn password(&self) -> &str {
        self.view().password()
    }

    /// Whether the URL [includes credentials](https://url.spec.whatwg.org/#include-credentials).
    pub fn includes_credentials(&self) -> bool {
        self.c.host_kind.is_some() && self.c.host_start > self.c.scheme_end + 3
    }

    /// The [host](https://url.spec.whatwg.org/#dom-url-host): hostname and ":port", if any.
    pub fn host(&self) -> &str {
        self.slice(self.c.host_start, self.c.port_end(&self.serialization))
    }

    /// The [hostname](https://url.spec.whatwg.org/#dom-url-hostname): the serialized host.
    pub fn hostname(&self) -> &str {
        self.view().hostname()
    }

    /// What kind of host the URL has; `None` when its host is null.
    pub fn host_kind(&self) -> Option<HostKind> {
        self.c.host_kind
    }

    /// The parsed host; `None` when the URL's host is null.
    pub fn host_parsed(&self) -> Option<Host> {
        self.c
            .host_kind
            .map(|kind| Host::from_serialized(kind, self.hostname().to_string()))
    }

    /// The [port](https://url.spec.whatwg.org/#dom-url-port) as text; empty for none or the default.
    pub fn port(&self) -> &str {
        self.view().port()
    }

    /// The port as a number; `None` for none or the scheme's default.
    pub fn port_number(&self) -> Option<u16> {
        self.c.port
    }

    /// The port, or the scheme's default port.
    pub fn port_or_default(&self) -> Option<u16> {
        self.c.port.or(self.c.scheme.default_port())
    }

    /// The [pathname](https://url.spec.whatwg.org/#dom-url-pathname): the serialized path.
    pub fn pathname(&self) -> &str {
        self.view().pathname()
    }

    /// Whether the URL [has an opaque path](https://url.spec.whatwg.org/#url-opaque-path).
    pub fn has_opaque_path(&self) -> bool {
        self.view().has_opaque_path()
    }

    /// The path segments, or `None` for an opaque path.
    pub fn path_segments(&self) -> Option<std::str::Split<'_, char>> {
        self.view().path_segments()
    }

    /// The [search](https://url.spec.whatwg.org/#dom-url-search): "" or "?" and a non-empty query.
    pub fn search(&self) -> &str {
        match self.c.query_start {
            Some(q) if self.c.query_end(self.len()) > q + 1 => {
                self.slice(q, self.c.query_end(self.len()))
            }
            _ => "",
        }
    }

    /// The [query](https://url.spec.whatwg.org/#concept-url-query), without '?'; `None` when null.
    pub fn query(&self) -> Option<&str> {
        self.view().query()
    }

    /// The [hash](https://url.spec.whatwg.org/#dom-url-hash): "" or "#" and a non-empty fragment.
    pub fn hash(&self) -> &str {
        match self.c.fragment_start {
            Some(f) if self.len() > f + 1 => self.slice(f, self.len()),
            _ => "",
        }
    }

    /// The [fragment](https://url.spec.whatwg.org/#concept-url-fragment), without '#'; `None` when null.
    pub fn fragment(&self) -> Option<&str> {
        self.view().fragment()
    }

    /// The URL's [origin](https://url.spec.whatwg.org/#concept-url-origin).
    pub fn origin(&self) -> Origin {
        match self.c.scheme {
            SchemeType::Http
            | SchemeType::Https
            | SchemeType::Ws
            | SchemeType::Wss
            | SchemeType::Ftp => Origin::Tuple {
                scheme: self.scheme().to_string(),
                host: self.hostname().to_string(),
                port: self.c.port,
            },
            SchemeType::File => Origin::Opaque,
            SchemeType::NotSpecial if self.scheme() == "blob" => {
                match Url::parse(self.pathname()) {
                    Ok(inner)
                        if matches!(
                            inner.c.scheme,
                            SchemeType::Http | SchemeType::Https | SchemeType::File
                        ) =>
                    {
                        inner.origin()
                    }
                    _ => Origin::Opaque,
                }
            }
            SchemeType::NotSpecial => Origin::Opaque,
        }
    }

    /// The URL as a [`UrlRef`], the borrowed form that
    /// [`BatchParser::view_of_line`](crate::BatchParser::view_of_line) gives.
    #[inline]
    pub fn view(&self) -> UrlRef<'_> {
        UrlRef {
            serialization: &self.serialization,
            c: self.c,
        }
    }

    /// Checks the component offsets against the serialization (for tests and fuzzing).
    pub fn check_invariants(&self) -> Result<(), String> {
        self.c.check(&self.serialization)
    }
}

/// A parsed URL borrowed: an href and its component offsets. It is what
/// [`BatchParser::view_of_line`](crate::BatchParser::view_of_line) gives,
/// without a copy when the input is already its own serialization, for
/// callers that only read components (filters, keys). Its getters return
/// what [`Url`]'s of the same name return.
///
/// ```
/// let url = urlsift::Url::parse("HTTPS://Example.com/a/b.pdf?x=1").unwrap();
/// let view = url.view();
/// assert_eq!(view.href(), "https://example.com/a/b.pdf?x=1");
/// assert_eq!((view.scheme(), view.hostname()), ("https", "example.com"));
/// assert_eq!(view.path_segments().unwrap().last(), Some("b.pdf"));
/// assert_eq!(view.query(), Some("x=1"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct UrlRef<'a> {
    serialization: &'a str,
    c: Components,
}

impl<'a> UrlRef<'a> {
    /// A view of `serialization`, whose components `c` are.
    #[inline(always)]
    pub(crate) fn new(serialization: &'a str, c: Components) -> UrlRef<'a> {
        UrlRef { serialization, c }
    }

    #[inline]
    fn slice(&self, start: u32, end: u32) -> &'a str {
        &self.serialization[start as usize..end as usize]
    }

    #[inline]
    fn len(&self) -> u32 {
        self.serialization.len() as u32
    }

    /// The serialization ([`Url::href`]).
    #[inline]
    pub fn href(&self) -> &'a str {
        self.serialization
    }

    /// [`Url::scheme`].
    #[inline]
    pub fn scheme(&self) -> &'a str {
        self.slice(0, self.c.scheme_end)
    }

    /// [`Url::hostname`].
    #[inline]
    pub fn hostname(&self) -> &'a str {
        self.slice(self.c.host_start, self.c.host_end)
    }

    /// [`Url::host_kind`].
    #[inline]
    pub fn host_kind(&self) -> Option<HostKind> {
        self.c.host_kind
    }

    /// [`Url::pathname`].
    #[inline]
    pub fn pathname(&self) -> &'a str {
        self.slice(self.c.path_start, self.c.path_end(self.len()))
    }

    /// [`Url::has_opaque_path`].
    #[inline]
    pub fn has_opaque_path(&self) -> bool {
        self.c.host_kind.is_none() && !self.pathname().starts_with('/')
    }

    /// [`Url::path_segments`].
    #[inline]
    pub fn path_segments(&self) -> Option<std::str::Split<'a, char>> {
        if self.has_opaque_path() {
            return None;
        }
        let path = self.pathname();
        Some(path.get(1..).unwrap_or("").split('/'))
    }

    /// [`Url::query`].
    #[inline]
    pub fn query(&self) -> Option<&'a str> {
        self.c
            .query_start
            .map(|q| self.slice(q + 1, self.c.query_end(self.len())))
    }

    /// [`Url::username`].
    #[inline]
    pub fn username(&self) -> &'a str {
        if self.c.host_kind.is_none() {
            return "";
        }
        self.slice(self.c.scheme_end + 3, self.c.username_end)
    }

    /// [`Url::password`].
    #[inline]
    pub fn password(&self) -> &'a str {
        let c = &self.c;
        if c.host_kind.is_some()
            && c.username_end < c.host_start
            && self.serialization.as_bytes()[c.username_end as usize] == b':'
        {
            self.slice(c.username_end + 1, c.host_start - 1)
        } else {
            ""
        }
    }

    /// [`Url::port`].
    #[inline]
    pub fn port(&self) -> &'a str {
        if self.c.port.is_none() {
            return "";
        }
        self.slice(self.c.host_end + 1, self.c.path_start)
    }

    /// [`Url::fragment`].
    #[inline]
    pub fn fragment(&self) -> Option<&'a str> {
        self.c.fragment_start.map(|f| self.slice(f + 1, self.len()))
    }
}

/// A URL's [origin](https://html.spec.whatwg.org/multipage/browsers.html#concept-origin).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// An opaque origin (serialized as "null").
    Opaque,
    /// A tuple origin: scheme, serialized host, port (`None` for the default).
    Tuple {
        /// The scheme.
        scheme: String,
        /// The serialized host.
        host: String,
        /// The port, if not the scheme's default.
        port: Option<u16>,
    },
}

impl Origin {
    /// Whether this is an opaque origin.
    pub fn is_opaque(&self) -> bool {
        matches!(self, Origin::Opaque)
    }

    /// The [ASCII serialization](https://html.spec.whatwg.org/multipage/browsers.html#ascii-serialisation-of-an-origin).
    pub fn ascii_serialization(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Opaque => f.write_str("null"),
            Origin::Tuple { scheme, host, port } => {
                write!(f, "{scheme}://{host}")?;
                if let Some(port) = port {
                    write!(f, ":{port}")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.serialization)
    }
}

impl fmt::Debug for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Url")
            .field("href", &self.serialization)
            .field("protocol", &self.protocol())
            .field("username", &self.username())
            .field("password", &self.password())
            .field("host", &self.host())
            .field("pathname", &self.pathname())
            .field("search", &self.search())
            .field("hash", &self.hash())
            .finish()
    }
}

impl FromStr for Url {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Url, ParseError> {
        Url::parse(s)
    }
}

impl PartialEq for Url {
    fn eq(&self, other: &Url) -> bool {
        self.serialization == other.serialization
    }
}

impl Eq for Url {}

impl Hash for Url {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.serialization.hash(state)
    }
}

impl PartialOrd for Url {
    fn partial_cmp(&self, other: &Url) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Url {
    fn cmp(&self, other: &Url) -> Ordering {
        self.serialization.cmp(&other.serialization)
    }
}

impl AsRef<str> for Url {
    fn as_ref(&self) -> &str {
        &self.serialization
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Url {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.serialization)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Url {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Url, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Url::parse(&s).map_err(serde::de::Error::custom)
    }
}

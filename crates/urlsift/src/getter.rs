//! The URL API's getters as one table: their names (as JavaScript's `URL`
//! names them, and as `urlsift extract --fields`, edits, Python and
//! `compare` take them) and their values.
//!
//! ```
//! use urlsift::{Getter, Url};
//!
//! let url = Url::parse("https://user@example.com:8080/a?q#f")?;
//! let values: Vec<String> = Getter::ALL.iter().map(|g| g.of(&url).into_owned()).collect();
//! assert_eq!(values[Getter::Hostname as usize], "example.com");
//! assert_eq!(Getter::named("origin").unwrap().of(&url), "https://example.com:8080");
//! assert_eq!(Getter::NAMES[4], "host");
//! # Ok::<(), urlsift::ParseError>(())
//! ```

use std::borrow::Cow;

use crate::Url;

/// One of the URL API's getters, in the order the standard lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Getter {
    /// [`Url::href`]: the whole URL.
    Href,
    /// [`Url::protocol`]: the scheme and `:`.
    Protocol,
    /// [`Url::username`].
    Username,
    /// [`Url::password`].
    Password,
    /// [`Url::host`]: the hostname and `:port`, if any.
    Host,
    /// [`Url::hostname`].
    Hostname,
    /// [`Url::port`]: empty for the scheme's default.
    Port,
    /// [`Url::pathname`].
    Pathname,
    /// [`Url::search`]: `?` and the query, or empty.
    Search,
    /// [`Url::hash`]: `#` and the fragment, or empty.
    Hash,
    /// [`Url::origin`], serialized (`null` for an opaque origin).
    Origin,
}

impl Getter {
    /// Every getter, in the order above (`Getter::X as usize` is its index).
    pub const ALL: [Getter; 11] = [
        Getter::Href,
        Getter::Protocol,
        Getter::Username,
        Getter::Password,
        Getter::Host,
        Getter::Hostname,
        Getter::Port,
        Getter::Pathname,
        Getter::Search,
        Getter::Hash,
        Getter::Origin,
    ];

    /// Every getter's name, in the order of [`Getter::ALL`].
    pub const NAMES: [&'static str; 11] = [
        "href", "protocol", "username", "password", "host", "hostname", "port", "pathname",
        "search", "hash", "origin",
    ];

    /// The getter's name, as the URL API spells it.
    pub fn name(self) -> &'static str {
        Getter::NAMES[self as usize]
    }

    /// The getter named `name`.
    pub fn named(name: &str) -> Option<Getter> {
        let i = Getter::NAMES.iter().position(|n| *n == name)?;
        Some(Getter::ALL[i])
    }

    /// The getter as a function returning a slice of the href; `None` for
    /// [`Getter::Origin`], which is serialized anew.
    pub fn slice(self) -> Option<for<'a> fn(&'a Url) -> &'a str> {
        Some(match self {
            Getter::Href => Url::href,
            Getter::Protocol => Url::protocol,
            Getter::Username => Url::username,
            Getter::Password => Url::password,
            Getter::Host => Url::host,
            Getter::Hostname => Url::hostname,
            Getter::Port => Url::port,
            Getter::Pathname => Url::pathname,
            Getter::Search => Url::search,
            Getter::Hash => Url::hash,
            Getter::Origin => return None,
        })
    }

    /// The getter's value for `url` (a direct call per getter: this is
    /// `extract`'s per-field path, where a call through [`Getter::slice`]'s
    /// pointer cost a few percent).
    #[inline]
    pub fn of(self, url: &Url) -> Cow<'_, str> {
        Cow::Borrowed(match self {
            Getter::Href => url.href(),
            Getter::Protocol => url.protocol(),
            Getter::Username => url.username(),
            Getter::Password => url.password(),
            Getter::Host => url.host(),
            Getter::Hostname => url.hostname(),
            Getter::Port => url.port(),
            Getter::Pathname => url.pathname(),
            Getter::Search => url.search(),
            Getter::Hash => url.hash(),
            Getter::Origin => return Cow::Owned(url.origin().to_string()),
        })
    }
}

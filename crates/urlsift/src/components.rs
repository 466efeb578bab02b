//! Where each component lives inside a URL's serialization.
//!
//! A [`crate::Url`] is one `String` (its href) plus these `u32` offsets:
//!
//! ```text
//!   https://user:pass@example.com:8080/a/b?q=1#frag
//!        |  |   |    |          |    |   |   |
//!        |  |   |    host_start |    |   |   fragment_start (the '#')
//!        |  |   username_end    |    |   query_start (the '?')
//!        |  username start =    |    path_start
//!        |  scheme_end + 3      host_end (then ":" port, if any)
//!        scheme_end (the ':')
//! ```
//!
//! * Without credentials `username_end == host_start == scheme_end + 3`; with a
//!   username only, `username_end` is the '@'; with a password it is the ':'
//!   and the password runs to the '@' just before `host_start`.
//! * Without a host (`host_kind` is `None`), `username_end == host_start ==
//!   host_end == scheme_end + 1`. If the path then starts with "//", the
//!   serializer's "/." sits between `host_end` and `path_start`.
//! * `port` is `None` for no port or the scheme's default port.
//!
//! [`Components::check`] verifies all of this against a serialization; tests
//! run it on every URL they build.

use crate::host::HostKind;

/// The scheme, classified: [special schemes](https://url.spec.whatwg.org/#special-scheme) by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SchemeType {
    /// Any scheme that is not special.
    NotSpecial,
    /// `file`
    File,
    /// `ftp`
    Ftp,
    /// `http`
    Http,
    /// `https`
    Https,
    /// `ws`
    Ws,
    /// `wss`
    Wss,
}

impl SchemeType {
    /// Classifies a lowercase scheme.
    #[inline]
    pub fn from_scheme(scheme: &[u8]) -> SchemeType {
        match scheme {
            b"http" => SchemeType::Http,
            b"https" => SchemeType::Https,
            b"file" => SchemeType::File,
            b"ws" => SchemeType::Ws,
            b"wss" => SchemeType::Wss,
            b"ftp" => SchemeType::Ftp,
            _ => SchemeType::NotSpecial,
        }
    }

    /// Whether this is a [special scheme](https://url.spec.whatwg.org/#special-scheme).
    #[inline]
    pub fn is_special(self) -> bool {
        self != SchemeType::NotSpecial
    }

    /// The scheme's [default port](https://url.spec.whatwg.org/#default-port).
    #[inline]
    pub fn default_port(self) -> Option<u16> {
        match self {
            SchemeType::Http | SchemeType::Ws => Some(80),
            SchemeType::Https | SchemeType::Wss => Some(443),
            SchemeType::Ftp => Some(21),
            SchemeType::File | SchemeType::NotSpecial => None,
        }
    }
}

/// The component offsets of a serialized URL (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Components {
    pub scheme_end: u32,
    pub username_end: u32,
    pub host_start: u32,
    pub host_end: u32,
    pub path_start: u32,
    pub query_start: Option<u32>,
    pub fragment_start: Option<u32>,
    pub port: Option<u16>,
    pub host_kind: Option<HostKind>,
    pub scheme: SchemeType,
}

impl Components {
    /// End of the path: the '?', the '#', or the end.
    #[inline]
    pub fn path_end(&self, len: u32) -> u32 {
        self.query_start.or(self.fragment_start).unwrap_or(len)
    }

    /// End of the query: the '#' or the end.
    #[inline]
    pub fn query_end(&self, len: u32) -> u32 {
        self.fragment_start.unwrap_or(len)
    }

    /// End of the port (or of the host when there is no port), before any "/.".
    #[inline]
    pub fn port_end(&self, s: &str) -> u32 {
        if self.host_kind.is_none() && s[self.host_end as usize..].starts_with("/.//") {
            self.path_start - 2
        } else {
            self.path_start
        }
    }

    /// Checks every documented invariant against `s`, the serialization.
    pub fn check(&self, s: &str) -> Result<(), String> {
        let len = u32::try_from(s.len()).map_err(|_| "serialization over u32".to_string())?;
        let b = s.as_bytes();
        let at = |i: u32| b.get(i as usize).copied();
        let fail = |what: &str| Err(format!("{what} in {s:?} ({self:?})"));
        if at(self.scheme_end) != Some(b':') {
            return fail("no ':' at scheme_end");
        }
        let scheme = &s[..self.scheme_end as usize];
        if scheme.is_empty()
            || !scheme.as_bytes()[0].is_ascii_lowercase()
            || !scheme
                .bytes()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || b"+-.".contains(&c))
        {
            return fail("bad scheme");
        }
        if SchemeType::from_scheme(scheme.as_bytes()) != self.scheme {
            return fail("scheme type mismatch");
        }
        let ordered = self.scheme_end < self.username_end
            && self.username_end <= self.host_start
            && self.host_start <= self.host_end
            && self.host_end <= self.path_start
            && self.path_start <= self.path_end(len)
            && self.fragment_start.unwrap_or(len) <= len
            && self.query_start.unwrap_or(0) <= self.fragment_start.unwrap_or(len);
        if !ordered {
            return fail("offsets out of order");
        }
        match self.host_kind {
            None => {
                if self.username_end != self.scheme_end + 1
                    || self.host_start != self.username_end
                    || self.host_end != self.host_start
                    || self.port.is_some()
                {
                    return fail("hostless URL with authority offsets");
                }
                let dot = s[self.host_end as usize..].starts_with("/.//");
                let expected = self.host_end + if dot { 2 } else { 0 };
                if self.path_start != expected {
                    return fail("path_start not after scheme (and \"/.\")");
                }
            }
            Some(kind) => {
                if &s[self.scheme_end as usize..self.scheme_end as usize + 3] != "://" {
                    return fail("host without \"//\"");
                }
                let user_start = self.scheme_end + 3;
                if self.username_end > user_start || self.host_start > self.username_end {
                    let sep = at(self.username_end);
                    if sep != Some(b'@') && sep != Some(b':') {
                        return fail("credentials not ended by ':' or '@'");
                    }
                    if at(self.host_start - 1) != Some(b'@') {
                        return fail("no '@' before host");
                    }
                } else if self.username_end != user_start || self.host_start != user_start {
                    return fail("empty credentials with offsets");
                }
                let host = &s[self.host_start as usize..self.host_end as usize];
                if (kind == HostKind::Empty) != host.is_empty() {
                    return fail("empty host mismatch");
                }
                let port_text = &s[self.host_end as usize..self.path_start as usize];
                match self.port {
                    None if !port_text.is_empty() => return fail("port text without port"),
                    Some(p) if port_text != format!(":{p}") => return fail("port text mismatch"),
                    _ => {}
                }
                if self.port.is_some() && self.port == self.scheme.default_port() {
                    return fail("default port kept");
                }
            }
        }
        let path = &s[self.path_start as usize..self.path_end(len) as usize];
        if self.scheme.is_special() && !path.starts_with('/') {
            return fail("special URL path without '/'");
        }
        if let Some(q) = self.query_start
            && at(q) != Some(b'?')
        {
            return fail("no '?' at query_start");
        }
        if let Some(f) = self.fragment_start
            && at(f) != Some(b'#')
        {
            return fail("no '#' at fragment_start");
        }
        let before_fragment = &s[..self.fragment_start.unwrap_or(len) as usize];
        if before_fragment.contains('#') {
            return fail("'#' before the fragment");
        }
        if self.query_start.is_none() && path.contains('?') {
            return fail("'?' in path");
        }
        Ok(())
    }
}

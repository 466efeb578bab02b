//! The [`URL` API setters](https://url.spec.whatwg.org/#urlutils-members):
//! each runs the standard's state-override steps on the new value alone and
//! splices the result into the serialization, shifting the later offsets.
//! Nothing re-parses the rest of the URL.

use std::borrow::Cow;

use crate::components::SchemeType;
use crate::error::{NoReporter, ParseError};
use crate::host::{HostKind, parse_host_into};
use crate::parser::machine::Machine;
use crate::parser::remove_tab_and_newline;
use crate::percent::{self, FRAGMENT, QUERY, SPECIAL_QUERY, USERINFO};
use crate::url::Url;

/// The first offset, in component order, that a splice moves.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Moving {
    UsernameEnd,
    HostEnd,
    PathStart,
    QueryStart,
    FragmentStart,
    Nothing,
}

fn clean(value: &str) -> Cow<'_, str> {
    remove_tab_and_newline(value, &mut NoReporter)
}

impl Url {
    /// Replaces `start..end` of the serialization with `text` and shifts the
    /// offsets from `first` on (in component order) by the length change.
    /// The caller sets the offsets of the component it replaced.
    fn splice(&mut self, start: u32, end: u32, text: &str, first: Moving) {
        self.serialization
            .replace_range(start as usize..end as usize, text);
        let delta = text.len() as i64 - i64::from(end - start);
        let shift = |o: &mut u32| *o = (i64::from(*o) + delta) as u32;
        let c = &mut self.c;
        if first <= Moving::UsernameEnd {
            shift(&mut c.username_end);
            shift(&mut c.host_start);
        }
        if first <= Moving::HostEnd {
            shift(&mut c.host_end);
        }
        if first <= Moving::PathStart {
            shift(&mut c.path_start);
        }
        if first <= Moving::QueryStart
            && let Some(q) = c.query_start.as_mut()
        {
            shift(q);
        }
        if first <= Moving::FragmentStart
            && let Some(f) = c.fragment_start.as_mut()
        {
            shift(f);
        }
    }

    /// Whether the URL [cannot have a username/password/port](https://url.spec.whatwg.org/#cannot-have-a-username-password-port).
    pub fn cannot_have_username_password_port(&self) -> bool {
        matches!(self.c.host_kind, None | Some(HostKind::Empty))
            || self.c.scheme == SchemeType::File
    }

    /// The [href setter](https://url.spec.whatwg.org/#dom-url-href): parses
    /// `value` and replaces this URL with it; on failure the URL is unchanged.
    pub fn set_href(&mut self, value: &str) -> Result<(), ParseError> {
        *self = Url::parse(value)?;
        Ok(())
    }

    /// The [protocol setter](https://url.spec.whatwg.org/#dom-url-protocol).
    pub fn set_protocol(&mut self, value: &str) {
        self.try_set_protocol(value);
    }

    /// The protocol setter; false when the standard's steps return before
    /// setting anything (the URL is then unchanged).
    pub(crate) fn try_set_protocol(&mut self, value: &str) -> bool {
        let value = clean(value);
        // scheme start state / scheme state with state override, on value + ":".
        let bytes = value.as_bytes();
        if !bytes.first().is_some_and(u8::is_ascii_alphabetic) {
            return false;
        }
        let len = bytes
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
            .unwrap_or(bytes.len());
        if len < bytes.len() && bytes[len] != b':' {
            return false;
        }
        let scheme = value[..len].to_ascii_lowercase();
        let new_type = SchemeType::from_scheme(scheme.as_bytes());
        if self.c.scheme.is_special() != new_type.is_special() {
            return false;
        }
        if (self.includes_credentials() || self.c.port.is_some()) && new_type == SchemeType::File {
            return false;
        }
        if self.c.scheme == SchemeType::File && self.c.host_kind == Some(HostKind::Empty) {
            return false;
        }
        let old_end = self.c.scheme_end;
        self.splice(0, old_end, &scheme, Moving::UsernameEnd);
        self.c.scheme_end = scheme.len() as u32;
        self.c.scheme = new_type;
        if self.c.port.is_some() && self.c.port == new_type.default_port() {
            self.remove_port();
        }
        true
    }

    fn remove_port(&mut self) {
        let end = self.c.port_end(&self.serialization);
        self.splice(self.c.host_end, end, "", Moving::PathStart);
        self.c.port = None;
    }

    /// Rewrites the credentials from a new username and password (already encoded).
    fn set_credentials(&mut self, username: &str, password: &str) {
        let mut text = String::with_capacity(username.len() + password.len() + 2);
        text.push_str(username);
        if !password.is_empty() {
            text.push(':');
            text.push_str(password);
        }
        if !text.is_empty() {
            text.push('@');
        }
        let start = self.c.scheme_end + 3;
        self.splice(start, self.c.host_start, &text, Moving::HostEnd);
        self.c.username_end = start + username.len() as u32;
        self.c.host_start = start + text.len() as u32;
    }

    /// The [username setter](https://url.spec.whatwg.org/#dom-url-username).
    pub fn set_username(&mut self, value: &str) {
        self.try_set_username(value);
    }

    /// The username setter; false when the standard's steps return before
    /// setting anything (the URL is then unchanged).
    pub(crate) fn try_set_username(&mut self, value: &str) -> bool {
        if self.cannot_have_username_password_port() {
            return false;
        }
        let username = percent::utf8_percent_encode(value, &USERINFO);
        let password = self.password().to_string();
        self.set_credentials(&username, &password);
        true
    }

    /// The [password setter](https://url.spec.whatwg.org/#dom-url-password).
    pub fn set_password(&mut self, value: &str) {
        self.try_set_password(value);
    }

    /// The password setter; false when the standard's steps return before
    /// setting anything (the URL is then unchanged).
    pub(crate) fn try_set_password(&mut self, value: &str) -> bool {
        if self.cannot_have_username_password_port() {
            return false;
        }
        let password = percent::utf8_percent_encode(value, &USERINFO);
        let username = self.username().to_string();
        self.set_credentials(&username, &password);
        true
    }

    /// Replaces the host with `host` (serialized) of `kind`.
    fn replace_host(&mut self, host: &str, kind: HostKind) {
        if self.c.host_kind.is_none() {
            // A hostless URL gains "//" (and loses any "/." before its path).
            let start = self.c.scheme_end + 1;
            let text = format!("//{host}");
            self.splice(start, self.c.path_start, &text, Moving::PathStart);
            self.c.username_end = start + 2;
            self.c.host_start = start + 2;
            self.c.host_end = start + text.len() as u32;
        } else {
            let (start, end) = (self.c.host_start, self.c.host_end);
            self.splice(start, end, host, Moving::HostEnd);
        }
        self.c.host_kind = Some(kind);
    }

    /// The [host setter](https://url.spec.whatwg.org/#dom-url-host).
    pub fn set_host(&mut self, value: &str) {
        self.set_host_or_hostname(value, false);
    }

    /// The host setter; false when the standard's steps return before
    /// setting the host (the URL is then unchanged), or refuse the port
    /// that follows it (the new host stays, as the standard says).
    pub(crate) fn try_set_host(&mut self, value: &str) -> bool {
        self.set_host_or_hostname(value, false)
    }

    /// The hostname setter; false when the standard's steps return before
    /// setting the host (the URL is then unchanged).
    pub(crate) fn try_set_hostname(&mut self, value: &str) -> bool {
        self.set_host_or_hostname(value, true)
    }

    /// The [hostname setter](https://url.spec.whatwg.org/#dom-url-hostname).
    pub fn set_hostname(&mut self, value: &str) {
        self.set_host_or_hostname(value, true);
    }

    fn set_host_or_hostname(&mut self, value: &str, hostname_only: bool) -> bool {
        if self.has_opaque_path() {
            return false;
        }
        let input = clean(value);
        let special = self.c.scheme.is_special();
        let bytes = input.as_bytes();
        let is_end = |b: u8| matches!(b, b'/' | b'?' | b'#') || (special && b == b'\\');
        if self.c.scheme == SchemeType::File {
            // file host state with state override
            let end = bytes.iter().position(|&b| is_end(b)).unwrap_or(bytes.len());
            let buffer = &input[..end];
            if buffer.is_empty() {
                self.replace_host("", HostKind::Empty);
                return true;
            }
            let mut host = String::new();
            let Ok(mut kind) = parse_host_into(buffer, false, &mut host, &mut NoReporter) else {
                return false;
            };
            if host == "localhost" {
                host.clear();
                kind = HostKind::Empty;
            }
            self.replace_host(&host, kind);
            return true;
        }
        // host state / hostname state with state override
        let mut inside_brackets = false;
        let mut stop = bytes.len();
        let mut colon = false;
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b':' if !inside_brackets => {
                    stop = i;
                    colon = true;
                    break;
                }
                b if is_end(b) => {
                    stop = i;
                    break;
                }
                b'[' => inside_brackets = true,
                b']' => inside_brackets = false,
                _ => {}
            }
        }
        let buffer = &input[..stop];
        if colon {
            if buffer.is_empty() || hostname_only {
                return false;
            }
        } else if buffer.is_empty()
            && (special || self.includes_credentials() || self.c.port.is_some())
        {
            return false;
        }
        let mut host = String::new();
        let kind = if buffer.is_empty() {
            HostKind::Empty
        } else {
            match parse_host_into(buffer, !special, &mut host, &mut NoReporter) {
                Ok(kind) => kind,
                Err(_) => return false,
            }
        };
        self.replace_host(&host, kind);
        // The host is set; a port after it may still be refused.
        !colon || self.port_state_override(&input[stop + 1..])
    }

    /// The [port setter](https://url.spec.whatwg.org/#dom-url-port).
    pub fn set_port(&mut self, value: &str) {
        self.try_set_port(value);
    }

    /// The port setter; false when the standard's steps return before
    /// setting anything (the URL is then unchanged).
    pub(crate) fn try_set_port(&mut self, value: &str) -> bool {
        if self.cannot_have_username_password_port() {
            return false;
        }
        if value.is_empty() {
            if self.c.port.is_some() {
                self.remove_port();
            }
            return true;
        }
        let input = clean(value);
        self.port_state_override(&input)
    }

    /// [Port state](https://url.spec.whatwg.org/#port-state) with state
    /// override: leading digits set the port; anything after them is ignored.
    fn port_state_override(&mut self, input: &str) -> bool {
        let digits = input.bytes().take_while(u8::is_ascii_digit);
        let mut port: u32 = 0;
        let mut any = false;
        for d in digits {
            any = true;
            port = port * 10 + u32::from(d - b'0');
            if port > 0xFFFF {
                return false;
            }
        }
        if !any {
            return false;
        }
        let port = port as u16;
        let end = self.c.port_end(&self.serialization);
        if Some(port) == self.c.scheme.default_port() {
            self.splice(self.c.host_end, end, "", Moving::PathStart);
            self.c.port = None;
        } else {
            self.splice(self.c.host_end, end, &format!(":{port}"), Moving::PathStart);
            self.c.port = Some(port);
        }
        true
    }

    /// The [pathname setter](https://url.spec.whatwg.org/#dom-url-pathname).
    pub fn set_pathname(&mut self, value: &str) {
        self.try_set_pathname(value);
    }

    /// The pathname setter; false when the standard's steps return before
    /// setting anything (the URL is then unchanged).
    pub(crate) fn try_set_pathname(&mut self, value: &str) -> bool {
        if self.has_opaque_path() {
            return false;
        }
        let input = clean(value);
        let mut path = Machine::path_with_override(&input, self.c.scheme, &mut NoReporter);
        if path.is_empty() && self.c.host_kind.is_none() {
            // "If state override is given and url's host is null, append the
            // empty string to url's path."
            path.push('/');
        }
        let start = self.c.port_end(&self.serialization);
        let end = self.c.path_end(self.serialization.len() as u32);
        // The serializer's "/." for a hostless path starting with "//".
        let dot = self.c.host_kind.is_none() && path.starts_with("//");
        let text = if dot { format!("/.{path}") } else { path };
        self.splice(start, end, &text, Moving::QueryStart);
        self.c.path_start = start + if dot { 2 } else { 0 };
        true
    }

    /// The [search setter](https://url.spec.whatwg.org/#dom-url-search).
    pub fn set_search(&mut self, value: &str) {
        let len = self.serialization.len() as u32;
        let start = self.c.path_end(len);
        let end = self.c.query_end(len);
        if value.is_empty() {
            self.splice(start, end, "", Moving::FragmentStart);
            self.c.query_start = None;
            return;
        }
        let input = value.strip_prefix('?').unwrap_or(value);
        let input = clean(input);
        let set = if self.c.scheme.is_special() {
            &SPECIAL_QUERY
        } else {
            &QUERY
        };
        let mut text = String::with_capacity(input.len() + 1);
        text.push('?');
        percent::encode_into(&input, set, &mut text);
        self.splice(start, end, &text, Moving::FragmentStart);
        self.c.query_start = Some(start);
    }

    /// Sets the query to an already-serialized value (`None` removes it),
    /// as the URLSearchParams update steps do.
    pub(crate) fn set_query_serialized(&mut self, query: Option<&str>) {
        let len = self.serialization.len() as u32;
        let start = self.c.path_end(len);
        let end = self.c.query_end(len);
        match query {
            None => {
                self.splice(start, end, "", Moving::FragmentStart);
                self.c.query_start = None;
            }
            Some(q) => {
                self.splice(start, end, &format!("?{q}"), Moving::FragmentStart);
                self.c.query_start = Some(start);
            }
        }
    }

    /// The [hash setter](https://url.spec.whatwg.org/#dom-url-hash).
    pub fn set_hash(&mut self, value: &str) {
        let len = self.serialization.len() as u32;
        let start = self.c.fragment_start.unwrap_or(len);
        if value.is_empty() {
            self.splice(start, len, "", Moving::Nothing);
            self.c.fragment_start = None;
            return;
        }
        let input = value.strip_prefix('#').unwrap_or(value);
        let input = clean(input);
        let mut text = String::with_capacity(input.len() + 1);
        text.push('#');
        percent::encode_into(&input, &FRAGMENT, &mut text);
        self.splice(start, len, &text, Moving::Nothing);
        self.c.fragment_start = Some(start);
    }
}

//! Web-server access logs in the Common or Combined Log Format (Apache's
//! `%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i"`, nginx's
//! `combined`): the URL is the request line's target (resolved against
//! `--base`, as most targets are paths) or the referer.
//!
//! Quoted fields may hold `\"` (Apache) or `\x22` (nginx) escapes; both
//! servers write other unusual bytes as `\xHH`, which are decoded in the
//! URL field before parsing. Read-only: records go out as URL lines.

use std::borrow::Cow;

use super::Found;
use crate::input::Reason;

/// Which field of a log line holds the URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The request line's target (`/path?q` or an absolute URL).
    Request,
    /// The Referer header (`-` means none).
    Referer,
}

impl Field {
    /// `--field` for logs: `request` (also `target`, the default) or `referer`.
    pub fn new(field: Option<&str>) -> Result<Field, String> {
        match field.map(str::to_ascii_lowercase).as_deref() {
            None | Some("request" | "target") => Ok(Field::Request),
            Some("referer" | "referrer") => Ok(Field::Referer),
            Some(other) => Err(format!(
                "--field {other:?}: a log's URL field is `request` or `referer`"
            )),
        }
    }
}

/// One log line cut into its fields (raw, escapes still in place).
struct Parsed<'a> {
    remote: &'a str,
    ident: &'a str,
    user: &'a str,
    time: &'a str,
    request: &'a str,
    status: &'a str,
    bytes: &'a str,
    referer: Option<&'a str>,
    /// What follows the referer: the user agent, if it is quoted (cut
    /// only when asked for: most runs want the request or the referer).
    after_referer: &'a str,
}

impl<'a> Parsed<'a> {
    fn user_agent(&self) -> Option<&'a str> {
        self.after_referer
            .strip_prefix(' ')
            .and_then(quoted)
            .map(|(u, _)| u)
    }
}

/// `s.split_once(c)` for an ASCII `c`, by a plain loop: log fields are a
/// few bytes long, shorter than a search call takes to set up.
#[inline]
fn split_at_byte(s: &str, c: u8) -> Option<(&str, &str)> {
    let i = s.bytes().position(|b| b == c)?;
    Some((&s[..i], &s[i + 1..]))
}

/// Cuts a log line; `None` if it is not in the common or combined format.
fn parse(line: &str) -> Option<Parsed<'_>> {
    let (remote, rest) = split_at_byte(line, b' ')?;
    let (ident, rest) = split_at_byte(rest, b' ')?;
    // The user may be quoted by some servers; it holds no spaces otherwise.
    let (user, rest) = split_at_byte(rest, b' ')?;
    let rest = rest.strip_prefix('[')?;
    // The time runs to the first "] ".
    let close = memchr::memchr_iter(b']', rest.as_bytes())
        .find(|&i| rest.as_bytes().get(i + 1) == Some(&b' '))?;
    let (time, rest) = (&rest[..close], &rest[close + 2..]);
    let (request, rest) = quoted(rest)?;
    let rest = rest.strip_prefix(' ')?;
    let (status, rest) = split_at_byte(rest, b' ').unwrap_or((rest, ""));
    let (bytes, rest) = split_at_byte(rest, b' ').unwrap_or((rest, ""));
    let (referer, after_referer) = match rest.strip_prefix(' ').unwrap_or(rest) {
        "" => (None, ""),
        rest => {
            let (referer, rest) = quoted(rest)?;
            (Some(referer), rest)
        }
    };
    Some(Parsed {
        remote,
        ident,
        user,
        time,
        request,
        status,
        bytes,
        referer,
        after_referer,
    })
}

/// A `"`-quoted field at the start of `s` (with `\"` and `\\` escapes):
/// its raw inner text and what follows it.
fn quoted(s: &str) -> Option<(&str, &str)> {
    let b = s.as_bytes();
    if b.first() != Some(&b'"') {
        return None;
    }
    let mut i = 1;
    while i < b.len() {
        i += memchr::memchr2(b'\\', b'"', &b[i..])?;
        match b[i] {
            b'\\' => i += 2,
            _ => return Some((&s[1..i], &s[i + 1..])),
        }
    }
    None
}

/// The request line's parts: method, target, protocol (HTTP/0.9 lines
/// have no protocol).
fn request_parts(request: &str) -> Option<(&str, &str, &str)> {
    // (A byte loop for the method, as for the short fields.)
    let (method, rest) = split_at_byte(request, b' ')?;
    // (The target can be long: a search call pays off there.)
    let (target, protocol) = match memchr::memchr(b' ', rest.as_bytes()) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, ""),
    };
    if method.is_empty() || target.is_empty() || protocol.as_bytes().contains(&b' ') {
        return None;
    }
    Some((method, target, protocol))
}

/// Decodes a logged field's escapes (`\"`, `\\`, `\xHH`); `None` if the
/// bytes they stand for are not UTF-8.
fn unescape(raw: &str) -> Option<Cow<'_, str>> {
    if memchr::memchr(b'\\', raw.as_bytes()).is_none() {
        return Some(Cow::Borrowed(raw));
    }
    let b = raw.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            match b[i + 1] {
                b'x' if i + 4 <= b.len() => {
                    let hex = std::str::from_utf8(&b[i + 2..i + 4]).ok();
                    match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                        Some(v) => {
                            out.push(v);
                            i += 4;
                            continue;
                        }
                        None => out.push(b'\\'),
                    }
                }
                c @ (b'"' | b'\\') => {
                    out.push(c);
                    i += 2;
                    continue;
                }
                _ => out.push(b'\\'),
            }
            i += 1;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).ok().map(Cow::Owned)
}

/// Finds the URL field of one log line.
pub fn find(field: Field, line: &str) -> Found<'_> {
    let Some(parsed) = parse(line) else {
        return Found::Bad(Reason::NotALogLine);
    };
    let raw = match field {
        Field::Request => match request_parts(parsed.request) {
            Some((_, target, _)) => target,
            None => return Found::Bad(Reason::NoRequestTarget),
        },
        Field::Referer => match parsed.referer {
            None | Some("-" | "") => return Found::Empty,
            Some(r) => r,
        },
    };
    match unescape(raw) {
        Some(text) => Found::Url(text),
        None => Found::Bad(Reason::InvalidUtf8),
    }
}

/// Field `name` of a log line, escapes decoded: `remote`, `ident`,
/// `user`, `time`, `request`, `method`, `target`, `protocol`, `status`,
/// `bytes`, `referer`, `user_agent`.
pub fn named<'a>(raw: &'a [u8], name: &str) -> Option<Cow<'a, str>> {
    let line = std::str::from_utf8(raw).ok()?;
    let p = parse(line)?;
    let parts = request_parts(p.request);
    let value = match name.to_ascii_lowercase().as_str() {
        "remote" | "host" => p.remote,
        "ident" => p.ident,
        "user" => p.user,
        "time" => p.time,
        "request" => p.request,
        "method" => parts?.0,
        "target" => parts?.1,
        "protocol" => parts?.2,
        "status" => p.status,
        "bytes" | "size" => p.bytes,
        "referer" | "referrer" => p.referer?,
        "user_agent" | "user-agent" => p.user_agent()?,
        _ => return None,
    };
    unescape(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The plain reading `parse` must agree with, field for field.
    fn parse_plain(line: &str) -> Option<[Option<&str>; 9]> {
        fn quoted_plain(s: &str) -> Option<(&str, &str)> {
            let b = s.as_bytes();
            if b.first() != Some(&b'"') {
                return None;
            }
            let mut i = 1;
            while i < b.len() {
                match b[i] {
                    b'\\' => i += 2,
                    b'"' => return Some((&s[1..i], &s[i + 1..])),
                    _ => i += 1,
                }
            }
            None
        }
        let (remote, rest) = line.split_once(' ')?;
        let (ident, rest) = rest.split_once(' ')?;
        let (user, rest) = rest.split_once(' ')?;
        let rest = rest.strip_prefix('[')?;
        let (time, rest) = rest.split_once("] ")?;
        let (request, rest) = quoted_plain(rest)?;
        let rest = rest.strip_prefix(' ')?;
        let (status, rest) = rest.split_once(' ').unwrap_or((rest, ""));
        let (bytes, rest) = rest.split_once(' ').unwrap_or((rest, ""));
        let (referer, user_agent) = match rest.strip_prefix(' ').unwrap_or(rest) {
            "" => (None, None),
            rest => {
                let (referer, rest) = quoted_plain(rest)?;
                let ua = rest
                    .strip_prefix(' ')
                    .and_then(quoted_plain)
                    .map(|(u, _)| u);
                (Some(referer), ua)
            }
        };
        Some([
            Some(remote),
            Some(ident),
            Some(user),
            Some(time),
            Some(request),
            Some(status),
            Some(bytes),
            referer,
            user_agent,
        ])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5000))]

        #[test]
        fn parse_agrees_with_the_plain_reading(
            parts in proptest::collection::vec(
                prop_oneof![
                    Just(" "), Just("\""), Just("\\"), Just("["), Just("]"), Just("] "),
                    Just("a"), Just("GET /x HTTP/1.1"), Just("-"), Just("é"),
                    Just("1.2.3.4 - - [t] "), Just("\"GET / HTTP/1.0\" 200 5 "),
                ],
                0..24,
            ),
        ) {
            let line = parts.concat();
            let ours = parse(&line).map(|p| {
                [
                    Some(p.remote),
                    Some(p.ident),
                    Some(p.user),
                    Some(p.time),
                    Some(p.request),
                    Some(p.status),
                    Some(p.bytes),
                    p.referer,
                    p.user_agent(),
                ]
            });
            prop_assert_eq!(ours, parse_plain(&line));
        }
    }

    /// The plain reading `request_parts` must agree with.
    fn request_parts_plain(request: &str) -> Option<(&str, &str, &str)> {
        let parts: Vec<&str> = request.split(' ').collect();
        match parts[..] {
            [method, target] => Some((method, target, "")),
            [method, target, protocol] => Some((method, target, protocol)),
            _ => None,
        }
        .filter(|(method, target, _)| !method.is_empty() && !target.is_empty())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn request_parts_agree_with_the_plain_reading(
            parts in proptest::collection::vec(
                prop_oneof![
                    Just(" "), Just("GET"), Just("/x?a=b"), Just("HTTP/1.1"), Just("é"),
                    Just("\\x20"), Just("-"),
                ],
                0..8,
            ),
        ) {
            let request = parts.concat();
            prop_assert_eq!(request_parts(&request), request_parts_plain(&request));
        }
    }

    const COMBINED: &str = r#"203.0.113.9 - frank [10/Oct/2000:13:55:36 -0700] "GET /a%20b?q=\"x\" HTTP/1.0" 200 2326 "http://www.example.com/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav)""#;

    fn url(f: Found<'_>) -> String {
        match f {
            Found::Url(u) => u.into_owned(),
            Found::Empty => "<empty>".into(),
            Found::Bad(r) => format!("<bad {}>", r.key()),
        }
    }

    #[test]
    fn combined_and_common_lines() {
        assert_eq!(url(find(Field::Request, COMBINED)), "/a%20b?q=\"x\"");
        assert_eq!(
            url(find(Field::Referer, COMBINED)),
            "http://www.example.com/start.html"
        );
        let common = r#"127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /x HTTP/1.1" 404 -"#;
        assert_eq!(url(find(Field::Request, common)), "/x");
        assert_eq!(url(find(Field::Referer, common)), "<empty>");
        let nginx =
            r#"1.2.3.4 - - [01/Jan/2024:00:00:00 +0000] "GET /\x22q HTTP/1.1" 200 5 "-" "curl""#;
        assert_eq!(url(find(Field::Request, nginx)), "/\"q");
        assert_eq!(url(find(Field::Referer, nginx)), "<empty>");
        let junk = r#"1.2.3.4 - - [01/Jan/2024:00:00:00 +0000] "\x16\x03\x01" 400 0 "-" "-""#;
        assert_eq!(url(find(Field::Request, junk)), "<bad no-request-target>");
        assert_eq!(url(find(Field::Request, "garbage")), "<bad not-a-log-line>");
        assert_eq!(named(COMBINED.as_bytes(), "status").unwrap(), "200");
        assert_eq!(named(COMBINED.as_bytes(), "method").unwrap(), "GET");
        assert_eq!(
            named(COMBINED.as_bytes(), "user_agent").unwrap(),
            "Mozilla/4.08 [en] (Win98; I ;Nav)"
        );
        assert_eq!(
            named(COMBINED.as_bytes(), "time").unwrap(),
            "10/Oct/2000:13:55:36 -0700"
        );
    }
}

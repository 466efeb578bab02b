//! Web-server access logs in the Common or Combined Log Format (Apache's
//! `%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i"`, nginx's
//! `combined`): the URL is the request line's target (resolved against
//! `--base`, as most targets are paths) or the referer.
//!
//! Quoted fields may hold `\"` (Apache) or `\x22` (nginx) escapes; both
//! servers write other unusual bytes as `\xHH`, which are decoded in the
//! URL field before parsing. Read-only: records go out as URL lines.
//!
//! ```
//! use urlsift_records::format::{Found, log};
//!
//! let line = br#"203.0.113.7 - - [01/Jan/2024:00:00:01 +0000] "GET /cart?id=7 HTTP/1.1" 200 512 "https://www.example.com/" "Mozilla/5.0""#;
//! assert!(log::is_log_line(line));
//! assert!(matches!(log::find(log::LogField::Request, line), Found::Url(t) if t == "/cart?id=7"));
//! assert!(matches!(log::find(log::LogField::Referer, line), Found::Url(t) if t == "https://www.example.com/"));
//! assert_eq!(log::named(line, "status").as_deref(), Some("200"));
//! assert!(!log::is_log_line(b"https://example.com/"));
//! ```

use std::borrow::Cow;

use urlsift_simd::Kernel;

use super::lines::each_line;
use super::record::{Found, Rec};
use super::{Begun, Format, Opening, RecordFormat, StartError, View, Visit};

/// The start of an access log: the field `--field` names.
pub(crate) fn start(opening: &Opening<'_>) -> Result<Begun, StartError> {
    let field = LogField::new(opening.field())?;
    Ok(Begun::at(Format::Log(field), opening))
}
use crate::reason::Reason;
use crate::setting::SettingError;

/// Which field of a log line holds the URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogField {
    /// The request line's target (`/path?q` or an absolute URL).
    Request,
    /// The Referer header (`-` means none).
    Referer,
}

impl RecordFormat for LogField {
    #[inline(never)]
    fn walk<K: Kernel, V: Visit>(&self, _k: K, view: View<'_>, v: &mut V) -> u64 {
        each_line(view, |rec, raw| match raw {
            // (Only the URL field must be UTF-8: `find` checks it.)
            Ok(raw) => v.record(&rec, find(*self, raw)),
            Err(found) => v.record(&rec, found),
        })
    }

    fn knows_field(&self, name: &str) -> Option<Result<(), String>> {
        Some(match FIELDS.contains(&name.to_ascii_lowercase().as_str()) {
            true => Ok(()),
            false => Err(format!(
                "no log field {name:?} (fields: {})",
                FIELDS.join(", ")
            )),
        })
    }

    fn named<'a>(&self, rec: &Rec<'a>, name: &str) -> Option<Cow<'a, str>> {
        named(rec.raw(), name)
    }
}

impl LogField {
    /// `--field` for logs: `request` (also `target`, the default) or `referer`.
    pub fn new(field: Option<&str>) -> Result<LogField, SettingError> {
        match field.map(str::to_ascii_lowercase).as_deref() {
            None | Some("request" | "target") => Ok(LogField::Request),
            Some("referer" | "referrer") => Ok(LogField::Referer),
            Some(other) => Err(SettingError::LogField {
                field: other.to_string(),
            }),
        }
    }
}

/// One log line cut into its fields (raw bytes, escapes still in place:
/// only the field asked for must be UTF-8, so a stray byte in a user
/// agent costs no URL).
struct Parsed<'a> {
    remote: &'a [u8],
    ident: &'a [u8],
    user: &'a [u8],
    time: &'a [u8],
    request: &'a [u8],
    status: &'a [u8],
    bytes: &'a [u8],
    referer: Option<&'a [u8]>,
    /// What follows the referer: the user agent, if it is quoted (cut
    /// only when asked for: most runs want the request or the referer).
    after_referer: &'a [u8],
}

impl<'a> Parsed<'a> {
    fn user_agent(&self) -> Option<&'a [u8]> {
        self.after_referer
            .strip_prefix(b" ")
            .and_then(quoted)
            .map(|(u, _)| u)
    }
}

/// `s.split_once(c)` for a byte `c`, by a plain loop: log fields are a
/// few bytes long, shorter than a search call takes to set up.
#[inline]
fn split_at_byte(s: &[u8], c: u8) -> Option<(&[u8], &[u8])> {
    let i = s.iter().position(|&b| b == c)?;
    Some((&s[..i], &s[i + 1..]))
}

/// Cuts a log line; `None` if it is not in the common or combined format.
fn parse(line: &[u8]) -> Option<Parsed<'_>> {
    let (remote, rest) = split_at_byte(line, b' ')?;
    let (ident, rest) = split_at_byte(rest, b' ')?;
    // The user may be quoted by some servers; it holds no spaces otherwise.
    let (user, rest) = split_at_byte(rest, b' ')?;
    let rest = rest.strip_prefix(b"[")?;
    // The time runs to the first "] ".
    let close = memchr::memchr_iter(b']', rest).find(|&i| rest.get(i + 1) == Some(&b' '))?;
    let (time, rest) = (&rest[..close], &rest[close + 2..]);
    let (request, rest) = quoted(rest)?;
    let rest = rest.strip_prefix(b" ")?;
    let (status, rest) = split_at_byte(rest, b' ').unwrap_or((rest, b""));
    let (bytes, rest) = split_at_byte(rest, b' ').unwrap_or((rest, b""));
    let (referer, after_referer) = match rest.strip_prefix(b" ").unwrap_or(rest) {
        [] => (None, &b""[..]),
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
/// its raw inner bytes and what follows it.
fn quoted(s: &[u8]) -> Option<(&[u8], &[u8])> {
    if s.first() != Some(&b'"') {
        return None;
    }
    let mut i = 1;
    while i < s.len() {
        i += memchr::memchr2(b'\\', b'"', &s[i..])?;
        match s[i] {
            b'\\' => i += 2,
            _ => return Some((&s[1..i], &s[i + 1..])),
        }
    }
    None
}

/// The request line's parts: method, target, protocol (HTTP/0.9 lines
/// have no protocol).
fn request_parts(request: &[u8]) -> Option<(&[u8], &[u8], &[u8])> {
    // (A byte loop for the method, as for the short fields.)
    let (method, rest) = split_at_byte(request, b' ')?;
    // (The target can be long: a search call pays off there.)
    let (target, protocol) = match memchr::memchr(b' ', rest) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &b""[..]),
    };
    if method.is_empty() || target.is_empty() || protocol.contains(&b' ') {
        return None;
    }
    Some((method, target, protocol))
}

/// Decodes a logged field's escapes (`\"`, `\\`, `\xHH`); `None` if the
/// bytes it holds or its escapes stand for are not UTF-8.
fn unescape(b: &[u8]) -> Option<Cow<'_, str>> {
    if memchr::memchr(b'\\', b).is_none() {
        return simdutf8::basic::from_utf8(b).ok().map(Cow::Borrowed);
    }
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

/// Whether `line` is in the common or combined log format (its request
/// may be anything quoted, such as `"-"`): `auto` reads a `.log` file
/// with such a line among its first 16 as a log, else as URL lines.
pub fn is_log_line(line: &[u8]) -> bool {
    parse(line).is_some()
}

/// Finds the URL field of one log line.
pub fn find(field: LogField, line: &[u8]) -> Found<'_> {
    let Some(parsed) = parse(line) else {
        return Found::Bad(Reason::NotALogLine);
    };
    let raw = match field {
        LogField::Request => match request_parts(parsed.request) {
            Some((_, b"*", _)) => return Found::Bad(Reason::AsteriskForm),
            Some((b"CONNECT", target, _)) => return connect_url(target),
            Some((_, target, _)) => target,
            None => return Found::Bad(Reason::NoRequestTarget),
        },
        LogField::Referer => match parsed.referer {
            None | Some(b"-" | b"") => return Found::Empty,
            Some(r) => r,
        },
    };
    match unescape(raw) {
        Some(text) => Found::Url(text),
        None => Found::Bad(Reason::InvalidUtf8),
    }
}

/// The URL of a `CONNECT` request's authority-form target (`host:port`,
/// RFC 9112): `https://host:port/` for port 443, `http://host:port/`
/// otherwise (a tunnel's scheme is not logged; 443 is TLS by convention).
fn connect_url(target: &[u8]) -> Found<'_> {
    let Some(target) = unescape(target) else {
        return Found::Bad(Reason::InvalidUtf8);
    };
    let authority = target.rsplit_once(':').filter(|(host, port)| {
        !host.is_empty()
            && !host.contains(['/', '?', '#', '@', '\\'])
            && !port.is_empty()
            && port.bytes().all(|b| b.is_ascii_digit())
    });
    match authority {
        Some((host, port)) => {
            let scheme = if port == "443" { "https" } else { "http" };
            Found::Url(Cow::Owned(format!("{scheme}://{host}:{port}/")))
        }
        None => Found::Bad(Reason::BadConnectTarget),
    }
}

/// Whether `prefix`, the start of a line too long to read whole, begins
/// as a log line does: remote, ident and user, a `[time]`, and a quoted
/// request line's method.
///
/// ```
/// use urlsift_records::format::log;
///
/// let start = b"203.0.113.7 - - [01/Jan/2024:00:00:01 +0000] \"GET /aaaaaaaa";
/// assert!(log::starts_like_log_line(start));
/// assert!(!log::starts_like_log_line(b"https://example.com/aaaaaaaa"));
/// ```
pub fn starts_like_log_line(prefix: &[u8]) -> bool {
    let request = || {
        let (_, rest) = split_at_byte(prefix, b' ')?;
        let (_, rest) = split_at_byte(rest, b' ')?;
        let (_, rest) = split_at_byte(rest, b' ')?;
        let rest = rest.strip_prefix(b"[")?;
        let close = memchr::memchr_iter(b']', rest).find(|&i| rest.get(i + 1) == Some(&b' '))?;
        rest[close + 2..].strip_prefix(b"\"")
    };
    request()
        .and_then(|r| split_at_byte(r, b' '))
        .is_some_and(|(method, _)| !method.is_empty() && method.iter().all(u8::is_ascii_uppercase))
}

/// The names of a log line's fields ([`named`]), with their aliases.
pub const FIELDS: [&str; 16] = [
    "remote",
    "host",
    "ident",
    "user",
    "time",
    "request",
    "method",
    "target",
    "protocol",
    "status",
    "bytes",
    "size",
    "referer",
    "referrer",
    "user_agent",
    "user-agent",
];

/// Field `name` of a log line, escapes decoded: `remote`, `ident`,
/// `user`, `time`, `request`, `method`, `target`, `protocol`, `status`,
/// `bytes`, `referer`, `user_agent` (any of [`FIELDS`], in any case).
pub fn named<'a>(raw: &'a [u8], name: &str) -> Option<Cow<'a, str>> {
    let p = parse(raw)?;
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

/// The most of a `.log` file's start read to judge it by (see [`sniff`]).
const SNIFF_BYTES: usize = 64 * 1024;

/// What the start of a `.log` file shows.
pub(crate) enum Sniff {
    /// An access-log line among its first lines.
    Log,
    /// None among them (or an empty file).
    Lines,
    /// Read more to see them.
    More,
}

/// How many non-empty lines at the start of a `.log` file are looked at:
/// a log line among them makes it a log (one damaged line at the top does
/// not turn a log into URL lines, and a URL line is never a log line).
const SNIFF_LINES: usize = 16;

/// Looks for a log line among the first [`SNIFF_LINES`] non-empty lines of
/// `buf`; `more`: the source goes on. Lines are judged whole: a line not
/// yet ended is waited for, up to `max_record` bytes (`--max-line-bytes`);
/// one longer than that (a bad line, whatever the format) is judged by its
/// start ([`starts_like_log_line`]). Past [`SNIFF_BYTES`] of whole
/// lines, no log line among them means URL lines.
pub(crate) fn sniff(buf: &[u8], more: bool, max_record: usize) -> Sniff {
    let mut rest = buf;
    let mut seen = 0;
    while seen < SNIFF_LINES {
        let (line, next) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None if more && rest.len() > max_record => {
                return if starts_like_log_line(rest) {
                    Sniff::Log
                } else {
                    Sniff::Lines
                };
            }
            None if more && buf.len() - rest.len() >= SNIFF_BYTES => return Sniff::Lines,
            None if more => return Sniff::More,
            None => (rest, None),
        };
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if !line.is_empty() {
            if is_log_line(line) {
                return Sniff::Log;
            }
            seen += 1;
        }
        match next {
            Some(next) => rest = next,
            None => break,
        }
    }
    Sniff::Lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const LOG: &[u8] = b"1.2.3.4 - - [01/Jan/2024:00:00:00 +0000] \"GET /x HTTP/1.1\" 200 5\n";

    #[test]
    fn a_long_first_line_is_waited_for_then_judged_whole_or_by_its_start() {
        let mut long = b"1.2.3.4 - - [01/Jan/2024:00:00:00 +0000] \"GET /".to_vec();
        long.resize(200_000, b'a');
        // Not ended yet: read on, past the 64 KiB that whole lines get.
        assert!(matches!(sniff(&long, true, 1 << 20), Sniff::More));
        // Longer than --max-line-bytes: its start decides.
        assert!(matches!(sniff(&long, true, 100_000), Sniff::Log));
        let mut urls = b"https://example.com/".to_vec();
        urls.resize(200_000, b'a');
        assert!(matches!(sniff(&urls, true, 100_000), Sniff::Lines));
        // Ended: the whole line decides.
        long.extend_from_slice(b" HTTP/1.1\" 414 0\n");
        assert!(matches!(sniff(&long, true, 1 << 20), Sniff::Log));
        // Many URL lines, then a log line past the window: URL lines.
        let mut many = b"https://example.com/\n".repeat(4000);
        assert!(matches!(sniff(&many, true, 1 << 20), Sniff::Lines));
        many.truncate(40);
        assert!(matches!(sniff(&many, true, 1 << 20), Sniff::More));
        assert!(matches!(sniff(LOG, false, 1 << 20), Sniff::Log));
    }

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
            let text = |b: &[u8]| std::str::from_utf8(b).unwrap().to_string();
            let plain = parse_plain(&line).map(|f| f.map(|f| f.map(str::to_string)));
            let ours = parse(line.as_bytes()).map(|p| {
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
                .map(|f| f.map(text))
            });
            prop_assert_eq!(ours, plain);
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
            let ours = request_parts(request.as_bytes()).map(|(m, t, p)| {
                let text = |b| std::str::from_utf8(b).unwrap();
                (text(m), text(t), text(p))
            });
            prop_assert_eq!(ours, request_parts_plain(&request));
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
        assert_eq!(
            url(find(LogField::Request, COMBINED.as_bytes())),
            "/a%20b?q=\"x\""
        );
        assert_eq!(
            url(find(LogField::Referer, COMBINED.as_bytes())),
            "http://www.example.com/start.html"
        );
        let common = r#"127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /x HTTP/1.1" 404 -"#;
        assert_eq!(url(find(LogField::Request, common.as_bytes())), "/x");
        assert_eq!(url(find(LogField::Referer, common.as_bytes())), "<empty>");
        let nginx =
            r#"1.2.3.4 - - [01/Jan/2024:00:00:00 +0000] "GET /\x22q HTTP/1.1" 200 5 "-" "curl""#;
        assert_eq!(url(find(LogField::Request, nginx.as_bytes())), "/\"q");
        assert_eq!(url(find(LogField::Referer, nginx.as_bytes())), "<empty>");
        let junk = r#"1.2.3.4 - - [01/Jan/2024:00:00:00 +0000] "\x16\x03\x01" 400 0 "-" "-""#;
        assert_eq!(
            url(find(LogField::Request, junk.as_bytes())),
            "<bad no-request-target>"
        );
        assert_eq!(
            url(find(LogField::Request, b"garbage")),
            "<bad not-a-log-line>"
        );
        // RFC 9112's other request-target forms: a CONNECT's authority
        // (host:port) becomes a URL; `*` names no resource.
        let line = |request: &str| {
            format!(r#"1.2.3.4 - - [01/Jan/2024:00:00:00 +0000] "{request}" 200 0 "-" "-""#)
        };
        for (request, want) in [
            (
                "CONNECT api.example.com:443 HTTP/1.1",
                "https://api.example.com:443/",
            ),
            ("CONNECT 10.0.0.1:8080 HTTP/1.1", "http://10.0.0.1:8080/"),
            (
                "CONNECT [2001:db8::1]:443 HTTP/1.1",
                "https://[2001:db8::1]:443/",
            ),
            (
                "CONNECT api.example.com HTTP/1.1",
                "<bad bad-CONNECT-target>",
            ),
            ("CONNECT /x:443 HTTP/1.1", "<bad bad-CONNECT-target>"),
            ("CONNECT :443 HTTP/1.1", "<bad bad-CONNECT-target>"),
            ("OPTIONS * HTTP/1.1", "<bad asterisk-form-target>"),
            ("OPTIONS /* HTTP/1.1", "/*"),
            ("GET api.example.com:443 HTTP/1.1", "api.example.com:443"),
        ] {
            assert_eq!(
                url(find(LogField::Request, line(request).as_bytes())),
                want,
                "{request}"
            );
        }
        assert!(starts_like_log_line(line("GET /").as_bytes()));
        assert!(starts_like_log_line(&line("GET /x").as_bytes()[..50]));
        assert!(!starts_like_log_line(&line("GET /x").as_bytes()[..44]));
        assert!(!starts_like_log_line(
            b"1.2.3.4 - - [01/Jan/2024:00:00:00 +0000] \"get /"
        ));
        // Only the URL field must be UTF-8: a stray byte elsewhere (here a
        // Latin-1 user agent) costs no URL; in the field, it is the reason.
        let latin1 = b"1.2.3.4 - - [01/Jan/2024:00:00:00 +0000] \"GET /ok HTTP/1.1\" 200 5 \"-\" \"caf\xe9\"";
        assert_eq!(url(find(LogField::Request, latin1)), "/ok");
        assert_eq!(named(latin1, "status").unwrap(), "200");
        assert_eq!(named(latin1, "user_agent"), None);
        let bad_target = b"1.2.3.4 - - [01/Jan/2024:00:00:00 +0000] \"GET /\xe9 HTTP/1.1\" 200 5";
        assert_eq!(
            url(find(LogField::Request, bad_target)),
            "<bad invalid-UTF-8>"
        );
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

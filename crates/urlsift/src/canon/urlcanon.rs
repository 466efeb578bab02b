//! The IIPC urlcanon's (0.3.1) canonicalizers `whatwg`, `google`,
//! `semantic_precise`, `semantic` and `aggressive`: the forms warcprox and
//! brozzler dedup by (`whatwg` and `google` run their own step lists,
//! from the same steps).
//!
//! urlcanon reads text with its own lenient parser (every byte kept in
//! some part: a scheme is whatever precedes the first `:` after a letter,
//! the authority whatever follows the slashes), then runs a list of steps
//! on the parts. This module does the same, step by step:
//! - `semantic_precise`: `http:` when there is no scheme, default ports
//!   and userinfo dropped, every part but the query percent-decoded until
//!   it stays the same, IPv4 addresses in any notation written dotted,
//!   IPv6 as Python writes them, dots around and doubled in the host
//!   dropped, the host IDNA-encoded, each part re-encoded (`%`, `#`,
//!   controls, spaces and non-ASCII bytes, and `?` in the path; in the
//!   query, each name and value decoded then `&` and `=` kept escaped),
//!   backslashes read as `/`, dot segments resolved, slashes collapsed,
//!   the query's pairs sorted as bytes;
//! - `semantic`: the same, the fragment dropped;
//! - `aggressive`: the same, then `https` as `http`, `www`, `www1.`...
//!   dropped, path and query lower-cased, session ids (`jsessionid=`,
//!   `phpsessid=`, `sid=`, ...) dropped, a trailing `/` dropped, `&`s
//!   tidied, the query sorted again.
//!
//! ```
//! use urlsift::canon::urlcanon::{canonicalize, Canonicalizer};
//! assert_eq!(canonicalize("  https://www.google.com/  ", Canonicalizer::Aggressive).unwrap(), "http://google.com/");
//! assert_eq!(canonicalize("HTTP://user@Example.com:80/a/./b/../c?b=2&a=1#f", Canonicalizer::SemanticPrecise).unwrap(),
//!            "http://example.com/a/c?a=1&b=2#f");
//! ```

use super::Refused;
use super::python::{self, IpAddress};

/// Which of urlcanon's canonicalizers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Canonicalizer {
    /// `urlcanon.whatwg`: urlcanon's reading of the URL Standard's
    /// serialization (its parser, not the standard's: no text fails).
    Whatwg,
    /// `urlcanon.google`: Google Safe Browsing's rules as urlcanon has
    /// them (the port kept, unlike `--canonical safe-browsing`).
    Google,
    /// `urlcanon.semantic_precise`.
    SemanticPrecise,
    /// `urlcanon.semantic`: `semantic_precise` less the fragment.
    Semantic,
    /// `urlcanon.aggressive`.
    Aggressive,
}

const SPECIAL: [(&[u8], Option<&[u8]>); 7] = [
    (b"ftp", Some(b"21")),
    (b"gopher", Some(b"70")),
    (b"http", Some(b"80")),
    (b"https", Some(b"443")),
    (b"ws", Some(b"80")),
    (b"wss", Some(b"443")),
    (b"file", None),
];

fn special(scheme: &[u8]) -> Option<Option<&'static [u8]>> {
    SPECIAL
        .iter()
        .find(|(s, _)| *s == scheme)
        .map(|(_, port)| *port)
}

/// urlcanon's `ParsedUrl`: every byte of the text in one of its parts.
#[derive(Default)]
struct Parsed {
    scheme: Vec<u8>,
    colon_after_scheme: Vec<u8>,
    slashes: Vec<u8>,
    username: Vec<u8>,
    colon_before_password: Vec<u8>,
    password: Vec<u8>,
    at_sign: Vec<u8>,
    host: Vec<u8>,
    colon_before_port: Vec<u8>,
    port: Vec<u8>,
    path: Vec<u8>,
    question_mark: Vec<u8>,
    query: Vec<u8>,
    hash_sign: Vec<u8>,
    fragment: Vec<u8>,
}

fn is_tab_or_newline(b: &u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\r')
}

fn without_tabs(b: &[u8]) -> Vec<u8> {
    b.iter()
        .copied()
        .filter(|b| !is_tab_or_newline(b))
        .collect()
}

impl Parsed {
    fn is_special(&self) -> bool {
        special(&self.scheme).is_some()
    }

    fn authority_empty(&self) -> bool {
        self.username.is_empty()
            && self.colon_before_password.is_empty()
            && self.password.is_empty()
            && self.at_sign.is_empty()
            && self.host.is_empty()
            && self.colon_before_port.is_empty()
            && self.port.is_empty()
    }

    fn text(&self) -> Vec<u8> {
        [
            &self.scheme[..],
            &self.colon_after_scheme,
            &self.slashes,
            &self.username,
            &self.colon_before_password,
            &self.password,
            &self.at_sign,
            &self.host,
            &self.colon_before_port,
            &self.port,
            &self.path,
            &self.question_mark,
            &self.query,
            &self.hash_sign,
            &self.fragment,
        ]
        .concat()
    }
}

/// `parse_url`, less the leading and trailing junk (C0 controls and
/// spaces), which every profile here removes first.
fn parse(text: &[u8]) -> Parsed {
    let start = text.iter().position(|&b| b > b' ').unwrap_or(text.len());
    let end = text
        .iter()
        .rposition(|&b| b > b' ')
        .map_or(start, |e| e + 1);
    let text = &text[start..end.max(start)];
    let mut url = Parsed::default();
    let mut rest = text;
    if text.first().is_some_and(u8::is_ascii_alphabetic)
        && let Some(colon) = memchr::memchr(b':', text)
    {
        url.scheme = text[..colon].to_vec();
        url.colon_after_scheme = b":".to_vec();
        rest = &text[colon + 1..];
    }
    let pathish_end = memchr::memchr2(b'?', b'#', rest).unwrap_or(rest.len());
    let (pathish, mut after) = rest.split_at(pathish_end);
    if after.first() == Some(&b'?') {
        let hash = memchr::memchr(b'#', after).unwrap_or(after.len());
        url.question_mark = b"?".to_vec();
        url.query = after[1..hash].to_vec();
        after = &after[hash..];
    }
    if after.first() == Some(&b'#') {
        url.hash_sign = b"#".to_vec();
        url.fragment = after[1..].to_vec();
    }
    if !pathish.is_empty() {
        parse_pathish(&mut url, pathish);
    }
    url
}

/// Leading `[\r\n\t]*` then `n` times a slash (`/`, or `\` too when
/// `backslash`) followed by `[\r\n\t]*`: its length, if there.
fn two_slashes_prefix(pathish: &[u8], backslash: bool) -> Option<usize> {
    let mut i = pathish.iter().take_while(|b| is_tab_or_newline(b)).count();
    for _ in 0..2 {
        match pathish.get(i) {
            Some(b'/') => {}
            Some(b'\\') if backslash => {}
            _ => return None,
        }
        i += 1;
        i += pathish[i..]
            .iter()
            .take_while(|b| is_tab_or_newline(b))
            .count();
    }
    Some(i)
}

/// `parse_pathish`: the slashes, authority and path after the scheme.
fn parse_pathish(url: &mut Parsed, pathish: &[u8]) {
    let scheme = without_tabs(&url.scheme).to_ascii_lowercase();
    let is_slash = |b: &u8, backslash: bool| *b == b'/' || (backslash && *b == b'\\');
    if scheme == b"file" {
        match two_slashes_prefix(pathish, true) {
            Some(s) => {
                let host_end = pathish[s..]
                    .iter()
                    .position(|b| is_slash(b, true))
                    .map_or(pathish.len(), |e| e + s);
                url.slashes = pathish[..s].to_vec();
                url.host = pathish[s..host_end].to_vec();
                url.path = pathish[host_end..].to_vec();
            }
            None => url.path = pathish.to_vec(),
        }
        return;
    }
    let backslash = special(&scheme).is_some();
    let slashes = if backslash {
        pathish
            .iter()
            .take_while(|b| matches!(b, b'/' | b'\\' | b'\r' | b'\n' | b'\t'))
            .count()
    } else {
        match two_slashes_prefix(pathish, false) {
            Some(s) => s,
            None => {
                url.path = pathish.to_vec();
                return;
            }
        }
    };
    let authority_end = pathish[slashes..]
        .iter()
        .position(|b| is_slash(b, backslash))
        .map_or(pathish.len(), |e| e + slashes);
    url.slashes = pathish[..slashes].to_vec();
    url.path = pathish[authority_end..].to_vec();
    parse_authority(url, &pathish[slashes..authority_end]);
}

/// `AUTHORITY_REGEX`, as its backtracking decides.
fn parse_authority(url: &mut Parsed, authority: &[u8]) {
    let colon = memchr::memchr(b':', authority);
    let rest = match memchr::memrchr(b'@', authority) {
        None => {
            url.username.clear();
            url.colon_before_password.clear();
            url.password.clear();
            url.at_sign.clear();
            authority
        }
        Some(at) => {
            match colon {
                Some(c) if c < at => {
                    url.username = authority[..c].to_vec();
                    url.colon_before_password = b":".to_vec();
                    url.password = authority[c + 1..at].to_vec();
                }
                _ => {
                    url.username = authority[..at].to_vec();
                    url.colon_before_password.clear();
                    url.password.clear();
                }
            }
            url.at_sign = b"@".to_vec();
            &authority[at + 1..]
        }
    };
    // `\[[^]]*\]` when it ends the host (at the end or before `:`), else
    // everything up to the first `:`.
    let bracketed = match (rest.first(), memchr::memchr(b']', rest)) {
        (Some(b'['), Some(close)) if matches!(rest.get(close + 1), None | Some(b':')) => {
            Some(close + 1)
        }
        _ => None,
    };
    let host_end = bracketed.unwrap_or_else(|| memchr::memchr(b':', rest).unwrap_or(rest.len()));
    url.host = rest[..host_end].to_vec();
    if host_end < rest.len() {
        url.colon_before_port = b":".to_vec();
        url.port = rest[host_end + 1..].to_vec();
    } else {
        url.colon_before_port.clear();
        url.port.clear();
    }
}

/// Python's `int(text, base)` on bytes (ASCII whitespace around, a sign,
/// `_` between digits, the base's own prefix allowed), or `None`.
fn py_int(text: &[u8], base: u32) -> Option<i128> {
    let t = text.trim_ascii();
    let (negative, t) = match t.first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let prefix: &[u8] = match base {
        16 => b"0x",
        8 => b"0o",
        _ => b"",
    };
    let t = if !prefix.is_empty() && t.len() >= 2 && t[..2].eq_ignore_ascii_case(prefix) {
        // The prefix may be followed by `_`.
        let rest = &t[2..];
        rest.strip_prefix(b"_").unwrap_or(rest)
    } else {
        t
    };
    if t.is_empty() || t.starts_with(b"_") || t.ends_with(b"_") || t.windows(2).any(|w| w == b"__")
    {
        return None;
    }
    let mut value: i128 = 0;
    for &b in t.iter().filter(|&&b| b != b'_') {
        let digit = (b as char).to_digit(base)?;
        value = value
            .checked_mul(i128::from(base))?
            .checked_add(i128::from(digit))?;
    }
    Some(if negative { -value } else { value })
}

/// `parse_ipv4`: the host as a number in the URL Standard's notations (as
/// urlcanon reads them), or `None`.
fn parse_ipv4(host: &[u8]) -> Option<i128> {
    let num = |s: &[u8]| -> Option<i128> {
        if s.len() >= 2 && (s[..2] == *b"0x" || s[..2] == *b"0X") {
            if s.len() >= 3 {
                py_int(&s[2..], 16)
            } else {
                Some(0)
            }
        } else if s.len() >= 2 && s[0] == b'0' {
            py_int(&s[1..], 8)
        } else if s.is_empty() {
            Some(0)
        } else {
            py_int(s, 10)
        }
    };
    let mut parts: Vec<&[u8]> = host.split(|&b| b == b'.').collect();
    if parts.last() == Some(&&b""[..]) {
        parts.pop();
    }
    let ip4 = match parts[..] {
        [a] => num(a)?,
        [a, b] => {
            let b = num(b)?;
            if b >= 1 << 24 {
                return None;
            }
            num(a)? * (1 << 24) + b
        }
        [a, b, c] => {
            let b = num(b)?;
            if b >= 1 << 8 {
                return None;
            }
            let c = num(c)?;
            if c >= 1 << 16 {
                return None;
            }
            num(a)? * (1 << 24) + b * (1 << 16) + c
        }
        [a, b, c, d] => {
            let (b, c, d) = (num(b)?, num(c)?, num(d)?);
            if b >= 1 << 8 || c >= 1 << 8 || d >= 1 << 8 {
                return None;
            }
            num(a)? * (1 << 24) + b * (1 << 16) + c * (1 << 8) + d
        }
        _ => return None,
    };
    (ip4 < 1 << 32).then_some(ip4)
}

/// `reparse_host` then `normalize_ip_address`: an IPv4 address written
/// dotted, an IPv6 one as Python writes it.
fn normalize_ip_address(url: &mut Parsed) -> Result<(), Refused> {
    let host = &url.host;
    if host.first() == Some(&b'[') && host.last() == Some(&b']') && host.len() >= 2 {
        let inner = std::str::from_utf8(&host[1..host.len() - 1]).ok();
        if let Some(IpAddress::V6(mut v6)) = inner.and_then(IpAddress::parse) {
            // urlcanon keeps the address as a number: no scope id.
            v6.scope = None;
            url.host = format!("[{}]", python::ipv6_text(&v6)).into_bytes();
        }
        return Ok(());
    }
    if let Some(ip4) = parse_ipv4(host) {
        // A negative number: `IPv4Address` raises.
        let ip4 = u32::try_from(ip4).map_err(|_| Refused::Host)?;
        url.host = std::net::Ipv4Addr::from(ip4).to_string().into_bytes();
    }
    Ok(())
}

/// `unquote_to_bytes` until it changes nothing.
fn pct_decode_repeatedly(bytes: &mut Vec<u8>) {
    loop {
        let decoded = python::unquote(bytes, false);
        if decoded == *bytes {
            return;
        }
        *bytes = decoded;
    }
}

/// Appends `bytes`, each one `encode` says `%XX`.
fn pct_encode(bytes: &[u8], encode: impl Fn(u8) -> bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for &b in bytes {
        if encode(b) {
            out.extend_from_slice(format!("%{b:02X}").as_bytes());
        } else {
            out.push(b);
        }
    }
    out
}

fn google_set(b: u8) -> bool {
    b <= 0x20 || b >= 0x7f || b == b'#' || b == b'%'
}

/// `fix_host_dots`.
fn fix_host_dots(host: &mut Vec<u8>) {
    if host.is_empty() {
        return;
    }
    let mut out = Vec::with_capacity(host.len());
    for &b in host.iter() {
        if b == b'.' && (out.is_empty() || out.last() == Some(&b'.')) {
            continue;
        }
        out.push(b);
    }
    while out.last() == Some(&b'.') {
        out.pop();
    }
    *host = out;
}

/// `punycode_special_host`: the `idna` package's `encode(host,
/// uts46=True)`, else its UTS #46 mapping with IDNA 2003's ToASCII per
/// label, else the host as it was.
fn punycode_host(host: &[u8]) -> Vec<u8> {
    let Ok(text) = std::str::from_utf8(host) else {
        return host.to_vec();
    };
    if text.is_ascii() {
        let lower = text.to_ascii_lowercase();
        if !lower
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-')
        {
            // IDNA 2008 refuses the code point; STD3 rules refuse it in
            // the fallback.
            return host.to_vec();
        }
        if idna2008_ascii_ok(&lower) {
            return lower.into_bytes();
        }
        // The fallback: each label (split at `.`, a trailing empty one
        // included) must be 1 to 63 bytes.
        if lower.split('.').all(|l| !l.is_empty() && l.len() < 64) {
            return lower.into_bytes();
        }
        return host.to_vec();
    }
    let uts46 = idna::uts46::Uts46::new();
    match uts46.to_ascii(
        host,
        idna::uts46::AsciiDenyList::STD3,
        idna::uts46::Hyphens::Check,
        idna::uts46::DnsLength::Ignore,
    ) {
        // The `idna` package refuses an empty name or label (but a last
        // one), which UTS #46 here lets through.
        Ok(ascii) if !has_empty_label(&ascii) => ascii.into_owned().into_bytes(),
        _ => idna2003_fallback(text).unwrap_or_else(|| host.to_vec()),
    }
}

fn has_empty_label(name: &str) -> bool {
    let name = name.strip_suffix('.').unwrap_or(name);
    name.is_empty() || name.split('.').any(str::is_empty)
}

/// The `idna` package refused the host: urlcanon maps it by UTS #46
/// (STD3 rules) and gives each label, split at `.`, to Python's IDNA 2003
/// ToASCII; `None` where either raises.
fn idna2003_fallback(text: &str) -> Option<Vec<u8>> {
    if text.contains("xn--") {
        // UTS #46 here would decode the punycode the mapping keeps.
        return None;
    }
    let (mapped, _) = idna::uts46::Uts46::new().to_unicode(
        text.as_bytes(),
        idna::uts46::AsciiDenyList::STD3,
        idna::uts46::Hyphens::Allow,
    );
    if mapped.contains('\u{FFFD}') && !text.contains('\u{FFFD}') {
        // A code point the mapping disallows: it raises.
        return None;
    }
    let mut out = Vec::with_capacity(mapped.len() + 8);
    for (i, label) in mapped.split('.').enumerate() {
        if i > 0 {
            out.push(b'.');
        }
        out.extend_from_slice(python::label_to_ascii(label).ok()?.as_bytes());
    }
    Some(out)
}

/// Whether the `idna` package encodes an ASCII host of lower-case
/// letters, digits, `-` and `.` as it is: no empty label (but a last
/// one), labels of at most 63 bytes without a hyphen first, last or in
/// the third and fourth places (an `xn--` label must decode), the name at
/// most 253 bytes (254 with the trailing dot).
fn idna2008_ascii_ok(host: &str) -> bool {
    let (labels, trailing_dot) = match host.strip_suffix('.') {
        Some(h) => (h, true),
        None => (host, false),
    };
    if labels.is_empty() || host.len() > if trailing_dot { 254 } else { 253 } {
        return false;
    }
    labels.split('.').all(|label| {
        if label.is_empty() || label.len() > 63 {
            return false;
        }
        if let Some(puny) = label.strip_prefix("xn--") {
            if puny.is_empty() || puny.ends_with('-') {
                return false;
            }
            return match idna::punycode::decode_to_string(puny) {
                Some(u) => hyphens_ok(&u) && !u.is_empty(),
                None => false,
            };
        }
        hyphens_ok(label)
    })
}

fn hyphens_ok(label: &str) -> bool {
    let chars: Vec<char> = label.chars().collect();
    !(chars.get(2) == Some(&'-') && chars.get(3) == Some(&'-'))
        && chars.first() != Some(&'-')
        && chars.last() != Some(&'-')
}

/// `resolve_path_dots` of a path.
fn resolve_path_dots(path: &[u8], special: bool) -> Vec<u8> {
    let is_sep = |b: u8| b == b'/' || (special && b == b'\\');
    if !path.first().is_some_and(|&b| is_sep(b)) {
        return path.to_vec();
    }
    // Separators and segments, interleaved: sep seg sep seg ...
    let mut old: Vec<&[u8]> = Vec::new();
    let mut seg_start = 1;
    old.push(&path[..1]);
    for i in 1..path.len() {
        if is_sep(path[i]) {
            old.push(&path[seg_start..i]);
            old.push(&path[i..i + 1]);
            seg_start = i + 1;
        }
    }
    old.push(&path[seg_start..]);
    let dots = |s: &[u8]| -> Option<bool> {
        // `.` or `%2e` once (false) or twice (true).
        let one = |s: &[u8]| -> Option<usize> {
            if s.first() == Some(&b'.') {
                Some(1)
            } else if s.len() >= 3 && s[..3].eq_ignore_ascii_case(b"%2e") {
                Some(3)
            } else {
                None
            }
        };
        let first = one(s)?;
        if first == s.len() {
            return Some(false);
        }
        let second = one(&s[first..])?;
        (first + second == s.len()).then_some(true)
    };
    let mut new: Vec<&[u8]> = Vec::new();
    let mut i = 0;
    while i < old.len() {
        match dots(old[i]) {
            Some(double) => {
                if double {
                    if new.len() > 1 {
                        new.pop();
                    }
                    if new.len() > 1 {
                        new.pop();
                    }
                }
                i += 1;
            }
            None => new.push(old[i]),
        }
        i += 1;
    }
    new.concat()
}

/// `less_dumb_pct_recode_query` then (later) `alpha_reorder_query`.
fn recode_query(query: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(query.len());
    for (i, part) in query.split(|&b| b == b'&').enumerate() {
        if i > 0 {
            out.push(b'&');
        }
        let (key, value) = match memchr::memchr(b'=', part) {
            Some(e) => (&part[..e], Some(&part[e + 1..])),
            None => (part, None),
        };
        for (j, token) in std::iter::once(key).chain(value).enumerate() {
            if j > 0 {
                out.push(b'=');
            }
            let mut t = token.to_vec();
            pct_decode_repeatedly(&mut t);
            out.extend(pct_encode(&t, |b| google_set(b) || b == b'&' || b == b'='));
        }
    }
    out
}

fn sort_query(query: &mut Vec<u8>) {
    if query.is_empty() {
        return;
    }
    let mut parts: Vec<&[u8]> = query.split(|&b| b == b'&').collect();
    parts.sort();
    *query = parts.join(&b'&');
}

/// urlcanon's form of `text` under `profile` (see the module docs), or
/// an error where urlcanon raises.
pub fn canonicalize(text: &str, profile: Canonicalizer) -> Result<String, Refused> {
    canonicalize_bytes(text.as_bytes(), profile)
}

/// [`canonicalize`] of bytes, as urlcanon takes them (its parts are
/// bytes; what is not ASCII comes out percent-encoded).
///
/// ```
/// use urlsift::canon::urlcanon::{canonicalize_bytes, Canonicalizer};
/// assert_eq!(canonicalize_bytes(b"http://example.com/\xff", Canonicalizer::Semantic).unwrap(), "http://example.com/%FF");
/// ```
pub fn canonicalize_bytes(text: &[u8], profile: Canonicalizer) -> Result<String, Refused> {
    let mut url = parse(text);
    let steps: &[Step] = match profile {
        Canonicalizer::Whatwg => WHATWG,
        Canonicalizer::Google => GOOGLE,
        Canonicalizer::SemanticPrecise | Canonicalizer::Semantic | Canonicalizer::Aggressive => {
            SEMANTIC_PRECISE
        }
    };
    for &step in steps {
        apply(step, &mut url)?;
    }
    if matches!(profile, Canonicalizer::Semantic | Canonicalizer::Aggressive) {
        apply(Step::RemoveFragment, &mut url)?;
    }
    if profile == Canonicalizer::Aggressive {
        aggressive(&mut url);
    }
    Ok(String::from_utf8(url.text()).expect("every byte past ASCII is percent-encoded"))
}

/// One of urlcanon's steps (its functions of the same names).
#[derive(Clone, Copy, Debug)]
enum Step {
    DefaultSchemeHttp,
    RemoveTabsAndNewlines,
    LowercaseScheme,
    ElideDefaultPort,
    CleanUpUserinfo,
    TwoSlashes,
    PctDecodeHost,
    PctDecodeRepeatedly,
    PctDecodeRepeatedlyExceptQuery,
    ReparseAndNormalizeIpAddress,
    FixHostDots,
    PunycodeSpecialHost,
    PctEncodeHost,
    FixBackslashes,
    PctEncodePath,
    LeadingSlash,
    NormalizePathDots,
    CollapseConsecutiveSlashes,
    EmptyPathToSlash,
    PctEncodeUserinfo,
    PctEncodeQuery,
    PctEncodeFragment,
    RemoveFragment,
    RemoveUserinfo,
    GooglePctEncode,
    LessDumbPctEncode,
    LessDumbPctRecodeQuery,
    AlphaReorderQuery,
}

use Step::*;

/// `urlcanon.whatwg` (after removing the leading and trailing junk).
const WHATWG: &[Step] = &[
    RemoveTabsAndNewlines,
    LowercaseScheme,
    ElideDefaultPort,
    CleanUpUserinfo,
    TwoSlashes,
    PctDecodeHost,
    ReparseAndNormalizeIpAddress,
    PunycodeSpecialHost,
    PctEncodeHost,
    FixBackslashes,
    PctEncodePath,
    LeadingSlash,
    NormalizePathDots,
    EmptyPathToSlash,
    PctEncodeUserinfo,
    PctEncodeQuery,
    PctEncodeFragment,
];

/// `urlcanon.google`.
const GOOGLE: &[Step] = &[
    DefaultSchemeHttp,
    RemoveTabsAndNewlines,
    LowercaseScheme,
    FixBackslashes,
    PctEncodePath,
    EmptyPathToSlash,
    ElideDefaultPort,
    CleanUpUserinfo,
    LeadingSlash,
    TwoSlashes,
    RemoveFragment,
    PctDecodeRepeatedly,
    NormalizePathDots,
    FixHostDots,
    CollapseConsecutiveSlashes,
    PunycodeSpecialHost,
    ReparseAndNormalizeIpAddress,
    GooglePctEncode,
];

/// `urlcanon.semantic_precise`.
const SEMANTIC_PRECISE: &[Step] = &[
    DefaultSchemeHttp,
    RemoveTabsAndNewlines,
    LowercaseScheme,
    ElideDefaultPort,
    CleanUpUserinfo,
    TwoSlashes,
    PctDecodeRepeatedlyExceptQuery,
    ReparseAndNormalizeIpAddress,
    FixHostDots,
    PunycodeSpecialHost,
    RemoveUserinfo,
    LessDumbPctEncode,
    LessDumbPctRecodeQuery,
    FixBackslashes,
    LeadingSlash,
    NormalizePathDots,
    CollapseConsecutiveSlashes,
    EmptyPathToSlash,
    AlphaReorderQuery,
];

/// The WHATWG-style percent-encode sets urlcanon writes.
fn c0_set(b: u8) -> bool {
    b <= 0x1f || b >= 0x7f
}

fn path_set(b: u8) -> bool {
    b <= 0x20 || b >= 0x7f || b"\"#<>?`{}".contains(&b)
}

fn query_set(b: u8) -> bool {
    b <= 0x20 || b >= 0x7f || matches!(b, b'"' | b'#' | b'<' | b'>')
}

fn userinfo_set(b: u8) -> bool {
    path_set(b) || b"/:;=@[\\]^|".contains(&b)
}

/// `pct_encode_query`: each name and value of the `&`-separated pairs
/// encoded by `set` (`=` and `&` kept).
fn pct_encode_query(query: &[u8], set: fn(u8) -> bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(query.len());
    for (i, part) in query.split(|&b| b == b'&').enumerate() {
        if i > 0 {
            out.push(b'&');
        }
        let (key, value) = match memchr::memchr(b'=', part) {
            Some(e) => (&part[..e], Some(&part[e + 1..])),
            None => (part, None),
        };
        out.extend(pct_encode(key, set));
        if let Some(value) = value {
            out.push(b'=');
            out.extend(pct_encode(value, set));
        }
    }
    out
}

fn apply(step: Step, url: &mut Parsed) -> Result<(), Refused> {
    let is_special = url.is_special();
    match step {
        DefaultSchemeHttp => {
            if url.scheme.is_empty() {
                url.scheme = b"http".to_vec();
                url.colon_after_scheme = b":".to_vec();
                if !url.path.is_empty() {
                    let path = std::mem::take(&mut url.path);
                    parse_pathish(url, &path);
                }
            }
        }
        RemoveTabsAndNewlines => {
            for part in [
                &mut url.scheme,
                &mut url.colon_after_scheme,
                &mut url.slashes,
                &mut url.username,
                &mut url.colon_before_password,
                &mut url.password,
                &mut url.at_sign,
                &mut url.host,
                &mut url.colon_before_port,
                &mut url.port,
                &mut url.path,
                &mut url.question_mark,
                &mut url.query,
                &mut url.hash_sign,
                &mut url.fragment,
            ] {
                if part.iter().any(is_tab_or_newline) {
                    *part = without_tabs(part);
                }
            }
        }
        LowercaseScheme => url.scheme.make_ascii_lowercase(),
        ElideDefaultPort => {
            if let Some(Some(default)) = special(&url.scheme)
                && url.port == default
            {
                url.colon_before_port.clear();
                url.port.clear();
            }
        }
        CleanUpUserinfo => {
            if url.password.is_empty() {
                url.colon_before_password.clear();
                if url.username.is_empty() {
                    url.at_sign.clear();
                }
            }
        }
        TwoSlashes => {
            if !url.slashes.is_empty() || !url.authority_empty() || url.scheme == b"file" {
                url.slashes = b"//".to_vec();
            }
        }
        PctDecodeHost => {
            if !url.host.is_empty() && is_special {
                url.host = python::unquote(&url.host, false);
            }
        }
        PctDecodeRepeatedly | PctDecodeRepeatedlyExceptQuery => {
            for part in [
                &mut url.scheme,
                &mut url.username,
                &mut url.password,
                &mut url.host,
                &mut url.port,
                &mut url.path,
            ] {
                pct_decode_repeatedly(part);
            }
            if matches!(step, PctDecodeRepeatedly) {
                pct_decode_repeatedly(&mut url.query);
            }
            pct_decode_repeatedly(&mut url.fragment);
        }
        ReparseAndNormalizeIpAddress => normalize_ip_address(url)?,
        FixHostDots => fix_host_dots(&mut url.host),
        PunycodeSpecialHost => {
            if !url.host.is_empty() && is_special {
                url.host = punycode_host(&url.host);
            }
        }
        PctEncodeHost => url.host = pct_encode(&url.host, |b| b <= 0x20 || b >= 0x7f),
        FixBackslashes => {
            if is_special {
                url.slashes = vec![b'/'; url.slashes.len()];
                for b in &mut url.path {
                    if *b == b'\\' {
                        *b = b'/';
                    }
                }
            }
        }
        PctEncodePath => {
            let set = if url.path.first() == Some(&b'/') || is_special {
                path_set
            } else {
                c0_set
            };
            url.path = pct_encode(&url.path, set);
        }
        LeadingSlash => {
            if is_special && url.path.first() != Some(&b'/') {
                url.path.insert(0, b'/');
            }
        }
        NormalizePathDots => url.path = resolve_path_dots(&url.path, is_special),
        CollapseConsecutiveSlashes => {
            if is_special {
                url.path.dedup_by(|b, a| *a == b'/' && *b == b'/');
            }
        }
        EmptyPathToSlash => {
            if url.path.is_empty() && !url.authority_empty() && is_special {
                url.path = b"/".to_vec();
            }
        }
        PctEncodeUserinfo => {
            url.username = pct_encode(&url.username, userinfo_set);
            url.password = pct_encode(&url.password, userinfo_set);
        }
        PctEncodeQuery => {
            if !url.query.is_empty() {
                url.query = pct_encode_query(&url.query, query_set);
            }
        }
        PctEncodeFragment => url.fragment = pct_encode(&url.fragment, c0_set),
        RemoveFragment => {
            url.hash_sign.clear();
            url.fragment.clear();
        }
        RemoveUserinfo => {
            url.username.clear();
            url.colon_before_password.clear();
            url.password.clear();
            url.at_sign.clear();
        }
        GooglePctEncode => {
            for part in [
                &mut url.scheme,
                &mut url.username,
                &mut url.password,
                &mut url.host,
                &mut url.port,
                &mut url.path,
            ] {
                *part = pct_encode(part, google_set);
            }
            if !url.query.is_empty() {
                url.query = pct_encode_query(&url.query, google_set);
            }
            url.fragment = pct_encode(&url.fragment, google_set);
        }
        LessDumbPctEncode => {
            url.scheme = pct_encode(&url.scheme, google_set);
            let userinfo = |b| google_set(b) || b == b':' || b == b'@';
            url.username = pct_encode(&url.username, userinfo);
            url.password = pct_encode(&url.password, userinfo);
            url.host = pct_encode(&url.host, google_set);
            url.port = pct_encode(&url.port, google_set);
            url.path = pct_encode(&url.path, |b| google_set(b) || b == b'?');
            url.fragment = pct_encode(&url.fragment, google_set);
        }
        LessDumbPctRecodeQuery => {
            if !url.query.is_empty() {
                url.query = recode_query(&url.query);
            }
        }
        AlphaReorderQuery => sort_query(&mut url.query),
    }
    Ok(())
}

/// The steps `aggressive` adds to `semantic`.
fn aggressive(url: &mut Parsed) {
    if url.scheme == b"https" {
        url.scheme = b"http".to_vec();
    }
    // strip_www: `^www\d*\.`
    if url.host.starts_with(b"www") {
        let digits = url.host[3..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if url.host.get(3 + digits) == Some(&b'.') {
            url.host.drain(..4 + digits);
        }
    }
    url.path.make_ascii_lowercase();
    url.query.make_ascii_lowercase();
    url.query = strip_query_session_ids(&url.query);
    strip_path_session_ids(&mut url.path);
    // strip_trailing_slash_unless_empty
    if url.path != b"/" && url.path.ends_with(b"/") {
        url.path.pop();
    }
    // remove_redundant_ampersands_from_query
    let mut tidy = Vec::with_capacity(url.query.len());
    for &b in &url.query {
        if b == b'&' && (tidy.is_empty() || tidy.last() == Some(&b'&')) {
            continue;
        }
        tidy.push(b);
    }
    while tidy.last() == Some(&b'&') {
        tidy.pop();
    }
    url.query = tidy;
    if url.query.is_empty() {
        url.question_mark.clear();
    }
    sort_query(&mut url.query);
}

/// The length of a session id pair at the start of `s` (the query is
/// lower-cased), as `QUERY_SESSIONID_RE`'s alternatives match it, if it
/// ends at `&` or the end.
fn session_id_len(s: &[u8]) -> Option<usize> {
    let run = |s: &[u8], ok: &dyn Fn(u8) -> bool| s.iter().take_while(|&&b| ok(b)).count();
    let alnum = |b: u8| b.is_ascii_digit() || b.is_ascii_lowercase();
    let ends = |n: usize| matches!(s.get(n), None | Some(b'&'));
    for (name, min, dollar) in [
        (&b"jsessionid="[..], 10, true),
        (b"sessionid=", 16, false),
        (b"phpsessid=", 16, false),
        (b"sid=", 16, false),
    ] {
        if let Some(rest) = s.strip_prefix(name) {
            let n = run(rest, &|b| alnum(b) || (dollar && b == b'$'));
            return (n >= min && ends(name.len() + n)).then_some(name.len() + n);
        }
    }
    if let Some(rest) = s.strip_prefix(b"aspsessionid") {
        let letters = run(rest, &|b: u8| b.is_ascii_lowercase());
        // `[a-z]{8}=`: exactly eight letters, then `=`.
        if letters >= 8 && rest.get(8) == Some(&b'=') {
            let n = run(&rest[9..], &alnum);
            let len = 12 + 9 + n;
            return (n >= 16 && ends(len)).then_some(len);
        }
        return None;
    }
    if let Some(rest) = s.strip_prefix(b"cfid=") {
        let digits = run(rest, &|b: u8| b.is_ascii_digit());
        let after = &rest[digits..];
        if digits > 0
            && let Some(token) = after.strip_prefix(b"&cftoken=")
        {
            let n = run(token, &|b: u8| alnum(b) || b == b'-');
            let len = 5 + digits + 9 + n;
            return (n > 0 && ends(len)).then_some(len);
        }
    }
    None
}

/// `strip_session_ids_from_query`: `(&|^)ID(&|$)` replaced by the two
/// delimiters, left to right, matches not overlapping.
fn strip_query_session_ids(query: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(query.len());
    let mut i = 0;
    while i <= query.len() {
        let lead = if query.get(i) == Some(&b'&') {
            Some(1)
        } else if i == 0 {
            Some(0)
        } else {
            None
        };
        let matched = lead.and_then(|lead| {
            // `&` first, then `^` at the start.
            let try_at = |l: usize| session_id_len(&query[i + l..]).map(|n| (l, n));
            try_at(lead).or_else(|| if lead == 1 && i == 0 { try_at(0) } else { None })
        });
        match matched {
            Some((lead, n)) => {
                out.extend_from_slice(&query[i..i + lead]);
                let end = i + lead + n;
                if query.get(end) == Some(&b'&') {
                    out.push(b'&');
                    i = end + 1;
                } else {
                    i = end;
                }
                if i >= query.len() {
                    break;
                }
            }
            None => {
                if let Some(&b) = query.get(i) {
                    out.push(b);
                }
                i += 1;
            }
        }
    }
    out
}

/// `strip_session_ids_from_path`.
fn strip_path_session_ids(path: &mut Vec<u8>) {
    let alnum = |b: &u8| b.is_ascii_digit() || b.is_ascii_lowercase();
    if path.ends_with(b".aspx") && !path.contains(&b'\n') {
        let mut out = Vec::with_capacity(path.len());
        let mut i = 0;
        while i < path.len() {
            if i > 0 && path[i - 1] == b'/' && path[i] == b'(' {
                // `(` 24 alnum `)/`
                let simple = path.len() >= i + 27
                    && path[i + 1..i + 25].iter().all(alnum)
                    && &path[i + 25..i + 27] == b")/";
                if simple {
                    i += 27;
                    continue;
                }
                // `(` then one or more `x(` 24 alnum `)`, then `)/`
                let mut j = i + 1;
                let mut groups = 0;
                while path.len() >= j + 27
                    && path[j].is_ascii_lowercase()
                    && path[j + 1] == b'('
                    && path[j + 2..j + 26].iter().all(alnum)
                    && path[j + 26] == b')'
                {
                    j += 27;
                    groups += 1;
                }
                if groups > 0 && path.get(j..j + 2) == Some(b")/") {
                    i = j + 2;
                    continue;
                }
            }
            out.push(path[i]);
            i += 1;
        }
        *path = out;
    }
    // `;jsessionid=` 32 alnum at the end (or before a final newline).
    let body = path.strip_suffix(b"\n").unwrap_or(path);
    if body.len() >= 44 {
        let at = body.len() - 44;
        if &body[at..at + 12] == b";jsessionid=" && body[at + 12..].iter().all(alnum) {
            path.drain(at..at + 44);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv4_notations() {
        assert_eq!(parse_ipv4(b"0x7f.1"), Some(0x7f00_0001));
        assert_eq!(parse_ipv4(b"017.0.0.1"), Some(0x0f00_0001));
        assert_eq!(parse_ipv4(b"1.2.3.4."), Some(0x0102_0304));
        assert_eq!(parse_ipv4(b"1.256.3.4"), None);
        assert_eq!(parse_ipv4(b"example.com"), None);
        assert_eq!(parse_ipv4(b"4294967296"), None);
    }

    #[test]
    fn session_ids_and_dots() {
        assert_eq!(
            strip_query_session_ids(b"a=1&sid=0123456789abcdef&b=2"),
            b"a=1&&b=2"
        );
        assert_eq!(strip_query_session_ids(b"sid=0123456789abcdef"), b"");
        assert_eq!(resolve_path_dots(b"/a/./b/../c", true), b"/a/c");
        assert_eq!(resolve_path_dots(b"/..//", true), b"//");
    }
}

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

mod host;
mod parse;
mod sessions;

use super::Refused;
use super::python::{self, IpAddress};
use host::punycode_host;
use parse::{Parsed, is_tab_or_newline, parse, parse_ipv4, parse_pathish, special, without_tabs};
use sessions::{strip_path_session_ids, strip_query_session_ids};

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

/// `less_dumb_pct_recode_query`: each name and value decoded until it
/// stays the same, then encoded with `&` and `=` kept escaped.
fn recode_query(query: &[u8]) -> Vec<u8> {
    each_query_token(query, |token, out| {
        let mut t = token.to_vec();
        pct_decode_repeatedly(&mut t);
        out.extend(pct_encode(&t, |b| google_set(b) || b == b'&' || b == b'='));
    })
}

/// The query rewritten token by token: each name and value of its
/// `&`-separated pairs (split at the first `=`) given to `write`.
fn each_query_token(query: &[u8], mut write: impl FnMut(&[u8], &mut Vec<u8>)) -> Vec<u8> {
    let mut out = Vec::with_capacity(query.len());
    for (i, part) in query.split(|&b| b == b'&').enumerate() {
        if i > 0 {
            out.push(b'&');
        }
        match memchr::memchr(b'=', part) {
            Some(e) => {
                write(&part[..e], &mut out);
                out.push(b'=');
                write(&part[e + 1..], &mut out);
            }
            None => write(part, &mut out),
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
    let url = canonical_parse(text, profile)?;
    Ok(String::from_utf8(url.text()).expect("every byte past ASCII is percent-encoded"))
}

/// urlcanon's SSURT form (`ParsedUrl.ssurt()`) of `text` canonicalized by
/// `profile`: the host reversed (unless an IP address), `//`, the port
/// and `:`, the scheme, `@` and the userinfo, `:`, then path, query and
/// fragment (`urlcanon.semantic(text).ssurt()`).
///
/// ```
/// use urlsift::canon::urlcanon::{ssurt, Canonicalizer};
/// let key = ssurt("HTTP://www.Example.com:8080/a/../b?z=1&a=2#f", Canonicalizer::Semantic).unwrap();
/// assert_eq!(key, "com,example,www,//8080:http:/b?a=2&z=1");
/// ```
pub fn ssurt(text: &str, profile: Canonicalizer) -> Result<String, Refused> {
    let url = canonical_parse(text.as_bytes(), profile)?;
    let host: &[u8] = &url.host;
    let numeric = parse::parse_ipv4(host).is_some_and(|n| n != 0);
    let mut out = Vec::with_capacity(url.text().len() + 8);
    if host.is_empty() || host.starts_with(b"[") || numeric {
        out.extend_from_slice(host);
    } else {
        for label in host.rsplit(|&b| b == b'.') {
            out.extend(label.iter().map(|&b| if b == b',' { b'.' } else { b }));
            out.push(b',');
        }
    }
    for part in [
        &url.slashes,
        &url.port,
        &url.colon_before_port,
        &url.scheme,
        &url.at_sign,
        &url.username,
        &url.colon_before_password,
        &url.password,
        &url.colon_after_scheme,
        &url.path,
        &url.question_mark,
        &url.query,
        &url.hash_sign,
        &url.fragment,
    ] {
        out.extend_from_slice(part);
    }
    Ok(String::from_utf8(out).expect("every byte past ASCII is percent-encoded"))
}

/// `text` parsed and canonicalized by `profile`.
fn canonical_parse(text: &[u8], profile: Canonicalizer) -> Result<Parsed, Refused> {
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
    Ok(url)
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
    each_query_token(query, |token, out| out.extend(pct_encode(token, set)))
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

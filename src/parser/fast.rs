//! The fast path: special-scheme URLs that are already (nearly) in normal
//! form. It declines, it never decides: any doubt returns `None` and the
//! state machine parses the input.
//!
//! One SIMD pass ([`crate::simd`]) proves that no byte needs encoding in any
//! component and that there is no control, space, backslash or non-ASCII
//! byte; short scalar scans then find the component boundaries and check
//! the rest (no credentials, a plain ASCII domain that is not an IPv4
//! address, a canonical port, no dot segments). The only rewrites done here
//! are the cheap ones the standard makes for such input: lowercasing the
//! scheme and host, dropping a default port, adding the root "/". Accepted
//! inputs have no validation errors worth reporting, but the dispatcher still
//! sends every parse with a listening reporter to the state machine.

use crate::components::{Components, SchemeType};
use crate::host::HostKind;
use crate::host::ipv4::ends_in_a_number;
use crate::parser::path::{is_double_dot, is_single_dot};
use crate::simd::{ByteSet, find_in_set};
use crate::url::Url;

/// Bytes that make the fast path decline, wherever they are: C0 controls,
/// space, DEL and non-ASCII, plus every printable byte some component of a
/// special URL would percent-encode or treat specially ('"', '\'', '<',
/// '>', '\\', '^', '`', '{', '}').
pub(crate) const DECLINE: ByteSet = ByteSet::outside_range_or(0x21, 0x7E, b"\"'<>\\^`{}");

/// Host bytes (beyond [`DECLINE`]) the fast path leaves to the machine:
/// credentials, IPv6 brackets, percent-escapes, '|' (forbidden in hosts).
static HOST_DECLINE: [bool; 256] = {
    let mut t = [false; 256];
    let bad = b"@[]%|";
    let mut i = 0;
    while i < bad.len() {
        t[bad[i] as usize] = true;
        i += 1;
    }
    t
};

/// Parses `input` into `out` (cleared first) if the fast path can prove the
/// result; `None` leaves the decision to the state machine.
pub(crate) fn parse_into(input: &str, mut out: String) -> Result<Url, String> {
    out.clear();
    match try_parse(input, &mut out) {
        Some(c) => Ok(Url {
            serialization: out,
            c,
        }),
        None => Err(out),
    }
}

/// Parses `input` if the fast path accepts it.
#[inline]
pub(crate) fn parse(input: &str) -> Option<Url> {
    let mut out = String::new();
    let c = try_parse(input, &mut out)?;
    Some(Url {
        serialization: out,
        c,
    })
}

#[inline]
fn try_parse(input: &str, out: &mut String) -> Option<Components> {
    let bytes = input.as_bytes();
    if bytes.len() > u32::MAX as usize - 1 || find_in_set(bytes, &DECLINE).is_some() {
        return None;
    }
    // Scheme: letters only, then "://".
    let colon = bytes.iter().take(6).position(|&b| b == b':')?;
    if bytes.get(colon + 1..colon + 3) != Some(b"//") {
        return None;
    }
    let mut scheme_buf = [0u8; 5];
    for (d, s) in scheme_buf.iter_mut().zip(&bytes[..colon]) {
        *d = s.to_ascii_lowercase();
    }
    let scheme = SchemeType::from_scheme(&scheme_buf[..colon]);
    match scheme {
        SchemeType::NotSpecial => None,
        SchemeType::File if bytes.get(colon + 3) == Some(&b'/') => file(input, colon, out),
        _ => network(input, colon, scheme, out),
    }
}

/// "http", "https", "ws", "wss" and "ftp" URLs with a plain host, and
/// "file://host/..." (no port; "localhost" is left to the machine, which
/// makes it the empty host).
fn network(input: &str, colon: usize, scheme: SchemeType, out: &mut String) -> Option<Components> {
    let bytes = input.as_bytes();
    let host_start = colon + 3;
    // The authority runs to the first '/', '?' or '#'.
    let auth_end = bytes[host_start..]
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .map_or(bytes.len(), |i| host_start + i);
    let authority = &bytes[host_start..auth_end];
    let mut upper = false;
    let mut port_colon = None;
    for (i, &b) in authority.iter().enumerate() {
        if HOST_DECLINE[b as usize] {
            return None;
        }
        if b == b':' {
            port_colon = Some(i);
            break;
        }
        upper |= b.is_ascii_uppercase();
    }
    let host_end = host_start + port_colon.unwrap_or(authority.len());
    let host = &bytes[host_start..host_end];
    // An empty host fails; a number-like host is an IPv4 address to
    // serialize: both are the machine's.
    if host.is_empty() || ends_in_a_number(host) {
        return None;
    }
    // A file host cannot have a port; "localhost" becomes the empty host;
    // a '|' may be a Windows drive letter to rewrite.
    if scheme == SchemeType::File
        && (port_colon.is_some()
            || host.eq_ignore_ascii_case(b"localhost")
            || memchr::memchr(b'|', bytes).is_some())
    {
        return None;
    }
    let port = match port_colon {
        None => None,
        Some(i) => {
            let digits = &authority[i + 1..];
            if digits.is_empty()
                || digits.len() > 5
                || digits[0] == b'0'
                || !digits.iter().all(u8::is_ascii_digit)
            {
                return None;
            }
            let value = digits
                .iter()
                .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'));
            if value > 0xFFFF {
                return None;
            }
            Some(value as u16)
        }
    };
    let rest = &input[auth_end..];
    let (path_len, query, fragment) = split_rest(rest)?;
    check_path(&rest.as_bytes()[..path_len])?;

    out.reserve(input.len() + 1);
    out.push_str(&input[..host_end]);
    out[..colon].make_ascii_lowercase();
    if upper {
        out[host_start..host_end].make_ascii_lowercase();
    }
    let port = port.filter(|&p| Some(p) != scheme.default_port());
    if port.is_some() {
        out.push_str(&input[host_end..auth_end]);
    }
    let path_start = out.len();
    if path_len == 0 {
        // "http://host?q" gets its root path.
        out.push('/');
    }
    let rest_start = out.len();
    out.push_str(rest);
    Some(Components {
        scheme_end: colon as u32,
        username_end: host_start as u32,
        host_start: host_start as u32,
        host_end: host_end as u32,
        path_start: path_start as u32,
        query_start: query.map(|q| (rest_start + q) as u32),
        fragment_start: fragment.map(|f| (rest_start + f) as u32),
        port,
        host_kind: Some(HostKind::Domain),
        scheme,
    })
}

/// "file:///path" URLs: empty host, a path with no dot segments and no '|'
/// (which could be a Windows drive letter to rewrite).
fn file(input: &str, colon: usize, out: &mut String) -> Option<Components> {
    let bytes = input.as_bytes();
    let path_start = colon + 3;
    if bytes.get(path_start) != Some(&b'/') || memchr::memchr(b'|', bytes).is_some() {
        return None;
    }
    let rest = &input[path_start..];
    let (path_len, query, fragment) = split_rest(rest)?;
    check_path(&rest.as_bytes()[..path_len])?;
    out.reserve(input.len());
    out.push_str(input);
    out[..colon].make_ascii_lowercase();
    Some(Components {
        scheme_end: colon as u32,
        username_end: path_start as u32,
        host_start: path_start as u32,
        host_end: path_start as u32,
        path_start: path_start as u32,
        query_start: query.map(|q| (path_start + q) as u32),
        fragment_start: fragment.map(|f| (path_start + f) as u32),
        port: None,
        host_kind: Some(HostKind::Empty),
        scheme: SchemeType::File,
    })
}

/// Splits what follows the authority into the path's length and the
/// positions of '?' and '#' (relative to `rest`).
#[inline]
fn split_rest(rest: &str) -> Option<(usize, Option<usize>, Option<usize>)> {
    let bytes = rest.as_bytes();
    let fragment = memchr::memchr(b'#', bytes);
    let before_fragment = &bytes[..fragment.unwrap_or(bytes.len())];
    let query = memchr::memchr(b'?', before_fragment);
    let path_len = query.or(fragment).unwrap_or(bytes.len());
    Some((path_len, query, fragment))
}

/// Declines paths with a dot segment ("." or "..", also as %2e).
#[inline]
fn check_path(path: &[u8]) -> Option<()> {
    for slash in memchr::memchr_iter(b'/', path) {
        let segment = &path[slash + 1..];
        if !matches!(segment.first(), Some(b'.' | b'%')) {
            continue;
        }
        let end = memchr::memchr(b'/', segment).unwrap_or(segment.len());
        let segment = &segment[..end];
        if is_single_dot(segment) || is_double_dot(segment) {
            return None;
        }
    }
    Some(())
}

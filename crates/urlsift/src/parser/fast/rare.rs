//! The fast path's rare shapes, out of the common path's way: an
//! authority that runs past the first 64-byte block (a second look, taken
//! before the machine), ports, file hosts, IPv4 hosts, and the byte check
//! of dot-segment candidates.

use super::plan::Plan;
use super::{
    COLON, HASH, PERCENT_AND_HOST_DECLINE, QUESTION, SLASH, UrlBytes, after_authority,
    below_lowest, may_be_special, scan_rest, scheme_and_slashes, tz,
};
use crate::components::SchemeType;
use crate::host::HostKind;
use crate::host::ipv4::{ends_in_a_number, is_serialized_ipv4};
use crate::parser::path::{is_double_dot, is_single_dot};
use crate::simd::{BlockMasks, Kernel, Runtime, low_bits};

/// A second look at an input the fast path declined, for the machine's
/// callers to take before the machine: an authority that runs past the
/// first block into the second (long host names are common in phishing
/// URLs). Out of line, away from the common path: a plan that could come
/// from two places there would be assembled in memory and copied.
#[cold]
#[inline(never)]
pub(crate) fn long_authority_plan(input: &str) -> Option<Plan> {
    let bytes = input.as_bytes();
    if bytes.len() <= 64 || !may_be_special(bytes) {
        return None;
    }
    let m = Runtime.block_masks::<UrlBytes>(&bytes[..64]);
    if m.in_set != 0 {
        return None;
    }
    let (colon, scheme) = scheme_and_slashes(bytes, &m)?;
    let enders = (m.groups[SLASH] | m.groups[QUESTION] | m.groups[HASH]) & !low_bits(colon + 3);
    if enders != 0 {
        return None;
    }
    long_authority(Runtime, bytes, &m, colon, scheme)
}

/// The plan of an input whose authority runs past the first block into
/// the second (long host names are common in phishing URLs), given the
/// first block's masks `m` and where the scheme ends: as in the first
/// block's case, a plain domain or IPv4 host, here without credentials or
/// port. File URLs and longer authorities go to the machine.
#[inline(always)]
fn long_authority<K: Kernel>(
    k: K,
    bytes: &[u8],
    m: &BlockMasks,
    colon: usize,
    scheme: SchemeType,
) -> Option<Plan> {
    let n = bytes.len();
    let host_start = colon + 3;
    let in_first = !low_bits(host_start);
    if scheme == SchemeType::File
        || (m.groups[PERCENT_AND_HOST_DECLINE] | m.groups[COLON]) & in_first != 0
    {
        return None;
    }
    let m2 = k.block_masks::<UrlBytes>(&bytes[64..n.min(128)]);
    if m2.in_set != 0 {
        return None;
    }
    let enders = m2.groups[SLASH] | m2.groups[QUESTION] | m2.groups[HASH];
    let auth_end = 64 + tz(enders).min(n - 64);
    if auth_end == 128 && n > 128 {
        return None;
    }
    let before_auth_end = below_lowest(enders);
    if (m2.groups[PERCENT_AND_HOST_DECLINE] | m2.groups[COLON]) & before_auth_end != 0 {
        return None;
    }
    // The rest of the second block, as in the first block's case.
    let (mut query, mut fragment) = after_authority(bytes, 64, &m2, !before_auth_end)?;
    if n > 128 {
        (query, fragment) =
            scan_rest(k, bytes, 128, None, query, fragment, m2.groups[SLASH] >> 63)?;
    }
    let host = &bytes[host_start..auth_end];
    let host_kind = if ends_in_a_number(host) {
        ipv4_host(host)?
    } else {
        HostKind::Domain
    };
    let has_path = enders & enders.wrapping_neg() & m2.groups[SLASH] != 0;
    let mut plan = Plan::new(
        scheme,
        host_kind,
        colon,
        auth_end,
        auth_end,
        None,
        has_path,
        (query, fragment),
    );
    plan.scheme_upper = m.in_range & low_bits(colon) != 0;
    plan.host_upper = m.in_range & in_first != 0 || m2.in_range & before_auth_end != 0;
    Some(plan)
}

/// A port the fast path writes as it is: 1 to 5 digits without a leading
/// zero, at most 65535.
#[cold]
pub(super) fn port_number(digits: &[u8]) -> Option<u16> {
    if digits.is_empty()
        || digits.len() > 5
        || digits[0] == b'0'
        || !digits.iter().all(u8::is_ascii_digit)
    {
        return None;
    }
    let value = digits
        .iter()
        .fold(0u32, |v, &d| v * 10 + u32::from(d - b'0'));
    u16::try_from(value).ok()
}

/// The kind of host of a "file:" URL the fast path can take, from the
/// boundaries [`analyze_masked`] found: empty ("file:///path"), or a plain
/// domain without a port that is not "localhost" (which becomes empty).
/// A '|' anywhere may be a Windows drive letter to rewrite: the machine's,
/// as are "file://", "file://?q" and "file://#f" (they get a root path).
#[cold]
pub(super) fn file_host(
    bytes: &[u8],
    host_start: usize,
    host_end: usize,
    auth_end: usize,
    has_port: bool,
    has_path: bool,
) -> Option<HostKind> {
    let host = &bytes[host_start..host_end];
    if memchr::memchr(b'|', bytes).is_some()
        || has_port
        || host.eq_ignore_ascii_case(b"localhost")
        || (host.is_empty() && (!has_path || auth_end != host_start))
        || ends_in_a_number(host)
    {
        return None;
    }
    Some(if host.is_empty() {
        HostKind::Empty
    } else {
        HostKind::Domain
    })
}

/// An IPv4 host the fast path can keep: already serialized
/// ("192.168.0.1", not "0x7f.1" nor "010.0.0.1").
#[cold]
pub(super) fn ipv4_host(host: &[u8]) -> Option<HostKind> {
    is_serialized_ipv4(host).then_some(HostKind::Ipv4)
}

/// Whether one of the path segments starting at `off` plus each bit of
/// `candidates` is a dot segment.
#[cold]
pub(super) fn has_dot_segment(bytes: &[u8], off: usize, mut candidates: u64) -> bool {
    while candidates != 0 {
        if is_dot_segment(bytes, off + tz(candidates)) {
            return true;
        }
        candidates &= candidates - 1;
    }
    false
}

/// Whether the path segment starting at `start` is "." or ".." (also as %2e).
fn is_dot_segment(bytes: &[u8], start: usize) -> bool {
    // A dot segment is at most 6 bytes ("%2e%2e"): 7 bytes without an end
    // settle it (candidates such as "%20..." are common).
    let rest = &bytes[start..bytes.len().min(start + 7)];
    let end = rest
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let segment = &rest[..end];
    is_single_dot(segment) || is_double_dot(segment)
}

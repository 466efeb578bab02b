//! The fast path: special-scheme URLs that are already (nearly) in normal
//! form. It declines, it never decides: any doubt returns `None` and the
//! state machine parses the input.
//!
//! One SIMD pass ([`crate::simd::block_masks`], 64 bytes at a time) proves
//! that no byte needs encoding in any component and that there is no
//! control, space, backslash or non-ASCII byte, and at the same time marks
//! where ':', '/', '?', '#', '.', '%' and the bytes a plain host may not
//! hold are. Component boundaries then come from bit arithmetic on those
//! masks; only rare candidates (a segment starting with '.' or '%') are
//! looked at byte by byte. It checks: no credentials, a plain ASCII domain
//! that is not an IPv4 address (or an IPv4 address already in its
//! serialized form), a canonical port, no dot segments. The only
//! rewrites done here are the cheap ones the standard makes for such input:
//! lowercasing the scheme and host, dropping a default port, adding the root
//! "/". The dispatcher sends every parse with a listening reporter to the
//! state machine, which reports validation errors.

use crate::components::{Components, SchemeType};
use crate::host::HostKind;
use crate::host::ipv4::{ends_in_a_number, is_serialized_ipv4};
use crate::parser::path::{is_double_dot, is_single_dot};
use crate::simd::{BlockMasks, ByteSet, Classes, Groups, Kernel, Runtime, low_bits};
use crate::url::Url;

/// Bytes that make the fast path decline, wherever they are: C0 controls,
/// space, DEL and non-ASCII, plus every printable byte some component of a
/// special URL would percent-encode or treat specially ('"', '\'', '<',
/// '>', '\\', '^', '`', '{', '}').
pub(crate) const DECLINE: ByteSet = ByteSet::outside_range_or(0x21, 0x7E, b"\"'<>\\^`{}");

/// The fast path's byte classes: [`DECLINE`], and the bytes whose
/// positions it needs, by group.
struct UrlBytes;

impl Classes for UrlBytes {
    const SET: ByteSet = DECLINE;
    const GROUPS: Groups = Groups::new(&[b"/", b"?", b"#", b".", b":", b"%@[]|"]);
    /// Upper-case letters, to lowercase in the scheme and host.
    const RANGE: (u8, u8) = (b'A', b'Z');
}

/// [`UrlBytes`] plus line ends, for [`scan_line`] (the same groups in the
/// same order, then '\n').
struct LineBytes;

impl Classes for LineBytes {
    const SET: ByteSet = DECLINE;
    const GROUPS: Groups = Groups::new(&[b"/", b"?", b"#", b".", b":", b"%@[]|", b"\n"]);
    const RANGE: (u8, u8) = UrlBytes::RANGE;
}

/// The classes of the blocks after the first: only what the path, query
/// and fragment need (the first four groups of [`UrlBytes`], same order,
/// with '%' added to the fourth).
struct RestBytes;

impl Classes for RestBytes {
    const SET: ByteSet = DECLINE;
    const GROUPS: Groups = Groups::new(&[b"/", b"?", b"#", b".%"]);
    /// Unused; the full range costs the kernels nothing.
    const RANGE: (u8, u8) = (0, 255);
}

const SLASH: usize = 0;
const QUESTION: usize = 1;
const HASH: usize = 2;
/// A '.' (in [`RestBytes`], a '.' or '%'): right after a '/' it may start
/// a dot segment.
const DOT: usize = 3;
const COLON: usize = 4;
/// Percent-escapes, credentials, IPv6 brackets and '|' (forbidden in
/// hosts) leave the host to the machine; a '%' after a '/' may start a
/// dot segment.
const PERCENT_AND_HOST_DECLINE: usize = 5;
/// Line ends, in [`LineBytes`] (a URL with one is declined by [`DECLINE`]).
const NEWLINE: usize = 6;

#[inline(always)]
fn tz(mask: u64) -> usize {
    mask.trailing_zeros() as usize
}

/// Parses `input` into `out` (cleared first) if the fast path can prove the
/// result; otherwise hands the buffer back for the state machine.
#[inline(always)]
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

/// What the fast path proved about an input: the components of its
/// serialization and the cheap rewrites that turn the input into it.
#[derive(Clone, Copy)]
pub(crate) struct Plan {
    c: Components,
    /// Where the input's authority ends (the serialization's path starts
    /// earlier when a default port is dropped).
    auth_end: u32,
    /// The scheme has upper-case letters.
    scheme_upper: bool,
    /// The host has upper-case letters.
    host_upper: bool,
    /// A port equal to the scheme's default is written (and dropped), or
    /// the authority is not followed by a path ("http://host?q" gets its
    /// root path): the serialization is not one copy of the input.
    rebuild: bool,
}

impl Plan {
    /// The plan of a special URL whose scheme ends at `colon`, whose
    /// authority (from `colon + 3`) ends at `auth_end` and has a host up to
    /// `host_end`, then a port if `host_end < auth_end`; `port` is the port
    /// the serialization keeps, `has_path` whether a '/' ends the
    /// authority, and the query and fragment start where given.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn new(
        scheme: SchemeType,
        host_kind: HostKind,
        colon: usize,
        host_end: usize,
        auth_end: usize,
        port: Option<u16>,
        has_path: bool,
        (query, fragment): (Option<usize>, Option<usize>),
    ) -> Plan {
        let host_start = colon + 3;
        // A dropped default port takes its bytes with it; a root path
        // adds one: positions past the authority move by the difference.
        let dropped = if port.is_none() {
            auth_end - host_end
        } else {
            0
        };
        let moved = |p: usize| (p - dropped + usize::from(!has_path)) as u32;
        Plan {
            c: Components {
                scheme_end: colon as u32,
                username_end: host_start as u32,
                host_start: host_start as u32,
                host_end: host_end as u32,
                path_start: (auth_end - dropped) as u32,
                query_start: query.map(moved),
                fragment_start: fragment.map(moved),
                port,
                host_kind: Some(host_kind),
                scheme,
            },
            auth_end: auth_end as u32,
            scheme_upper: false,
            host_upper: false,
            rebuild: dropped != 0 || !has_path,
        }
    }

    /// Whether the input is already its own serialization.
    #[inline(always)]
    pub(crate) fn unchanged(&self) -> bool {
        !self.scheme_upper && !self.host_upper && !self.rebuild
    }

    /// [`Plan::write`] for an `out` that holds the input if it is at most
    /// 64 bytes long, else nothing (see [`analyze_appending`]).
    #[inline(always)]
    pub(crate) fn write_over_short(self, input: &str, out: &mut String) -> Components {
        let c = self.c;
        if input.len() > 64 {
            out.push_str(input);
        }
        if self.rebuild {
            // `out` holds the input.
            rewrite(
                input,
                out,
                (c.host_end, c.path_start, c.port.is_some()),
                self.auth_end,
            );
        }
        if self.scheme_upper {
            lowercase(out, 0, c.scheme_end as usize);
        }
        if self.host_upper {
            lowercase(out, c.host_start as usize, c.host_end as usize);
        }
        c
    }

    /// Writes the serialization to `out` (cleared by the caller) and
    /// returns its components.
    // Inlined, and the rare rewrites get scalars, not the plan: the
    // components stay in registers and are stored once, into the result
    // (a struct kept in memory and copied whole stalls store forwarding).
    #[inline(always)]
    pub(crate) fn write(self, input: &str, out: &mut String) -> Components {
        let c = self.c;
        // The input as it is, in one copy: the serialization, but for a
        // rare default port or missing root path.
        out.push_str(input);
        if self.rebuild {
            rewrite(
                input,
                out,
                (c.host_end, c.path_start, c.port.is_some()),
                self.auth_end,
            );
        }
        if self.scheme_upper {
            lowercase(out, 0, c.scheme_end as usize);
        }
        if self.host_upper {
            lowercase(out, c.host_start as usize, c.host_end as usize);
        }
        c
    }
}

/// Turns `out`, a copy of `input`, into the serialization of an input
/// that drops a default port or gets a root path, given the plan's
/// offsets (scalars: a plan passed whole out of line would be kept in
/// memory on the common path).
// Out of line (13% of jpcert's URLs have no path, most corpora none).
#[inline(never)]
fn rewrite(input: &str, out: &mut String, c: (u32, u32, bool), auth_end: u32) {
    let (host_end, path_start, keeps_port) = c;
    let auth_end = auth_end as usize;
    if path_start as usize == auth_end {
        // No port dropped: only the root path to insert ("http://host" and
        // "http://host?q", common in phishing feeds).
        insert_root(out, auth_end);
    } else {
        let port_end = if keeps_port {
            auth_end
        } else {
            host_end as usize
        };
        rebuild(input, out, port_end, auth_end);
    }
}

/// Inserts the root path '/' at `at` (the end of the authority) of `out`.
#[inline(always)]
fn insert_root(out: &mut String, at: usize) {
    if at == out.len() {
        out.push('/');
    } else {
        out.insert(at, '/');
    }
}

/// Rewrites `out`, a copy of `input`, into the serialization of an input
/// that drops a default port (and may get a root path): the input up to
/// the end of the port it keeps (or of the host), a root path if the
/// authority (ending at `auth_end`) is not followed by one, then the rest.
#[cold]
fn rebuild(input: &str, out: &mut String, port_end: usize, auth_end: usize) {
    out.truncate(port_end);
    if !input[auth_end..].starts_with('/') {
        out.push('/');
    }
    out.push_str(&input[auth_end..]);
}

/// Lowercases `out[start..end]`.
#[cold]
fn lowercase(out: &mut str, start: usize, end: usize) {
    out[start..end].make_ascii_lowercase();
}

/// Parses `input` into `out` (which the caller cleared) if the fast path
/// accepts it.
#[inline(always)]
pub(crate) fn try_parse(input: &str, out: &mut String) -> Option<Components> {
    Some(analyze(input)?.write(input, out))
}

/// Proves `input` is a special URL the fast path can serialize, or declines.
#[inline(always)]
pub(crate) fn analyze(input: &str) -> Option<Plan> {
    analyze_with(Runtime, input)
}

/// [`analyze`] with a given SIMD kernel (see [`crate::simd::with_kernel`]).
#[inline(always)]
pub(crate) fn analyze_with<K: Kernel>(k: K, input: &str) -> Option<Plan> {
    let bytes = input.as_bytes();
    if !may_be_special(bytes) {
        return None;
    }
    let m = k.block_masks::<UrlBytes>(&bytes[..bytes.len().min(64)]);
    analyze_masked(k, input, &m, None)
}

/// [`analyze`] for a caller that copies the input: an input of up to 64
/// bytes is appended to the empty `out` by the call that classifies it
/// (one pass, no separate copy, on the AVX-512 backend). On `Some`, finish
/// with [`Plan::write_over_short`]; on `None`, clear `out`.
// (Longer inputs are copied as usual: there the fused store was measured
// slower, 32 -> 38 ns/URL on mdn's long URLs.)
#[inline(always)]
pub(crate) fn analyze_appending(input: &str, out: &mut String) -> Option<Plan> {
    let bytes = input.as_bytes();
    if !may_be_special(bytes) {
        return None;
    }
    let n = bytes.len();
    if n <= 64 {
        let m = crate::simd::block_masks_appending::<UrlBytes>(input, out);
        analyze_masked(Runtime, input, &m, None)
    } else {
        // Most long inputs have two blocks: their masks in one call.
        let [m, m2] = crate::simd::block_masks_pair::<UrlBytes, RestBytes>(
            &bytes[..64],
            &bytes[64..n.min(128)],
        );
        analyze_masked(Runtime, input, &m, Some(&m2))
    }
}

/// A special scheme is 2 to 5 letters: no ':' at 2..=5 means no fast path
/// (relative references, bare hosts), before any vector work. Offsets are
/// `u32`, hence the upper bound.
#[inline(always)]
pub(crate) fn may_be_special(bytes: &[u8]) -> bool {
    let n = bytes.len();
    if !(6..u32::MAX as usize).contains(&n) {
        return false;
    }
    // Bytes 2 to 5 as a word: one is ':' when the XOR has a zero byte.
    let w = u32::from_le_bytes([bytes[2], bytes[3], bytes[4], bytes[5]]) ^ 0x3A3A_3A3A;
    w.wrapping_sub(0x0101_0101) & !w & 0x8080_8080 != 0
}

/// The next line of `text` from `start` (ending at '\n', which is not
/// part of it, nor is a '\r' before it), where the line after it starts,
/// and what [`analyze`] says of the line: one SIMD pass finds the line's
/// end and classifies its bytes (URLs are usually one block long). `start`
/// must be less than `text.len()`.
#[inline(always)]
pub(crate) fn scan_line<K: Kernel>(k: K, text: &str, start: usize) -> (&str, usize, Option<Plan>) {
    let rest = &text.as_bytes()[start..];
    let mut m = k.block_masks::<LineBytes>(&rest[..rest.len().min(64)]);
    let newlines = m.groups[NEWLINE];
    let (end, next) = if newlines != 0 {
        let end = tz(newlines);
        (end, end + 1)
    } else if rest.len() <= 64 {
        (rest.len(), rest.len())
    } else {
        // A long line: its end, 64 bytes at a time (inlined, unlike a
        // search call, which costs more to set up than such lines take).
        let mut at = 64;
        loop {
            let block = &rest[at..rest.len().min(at + 64)];
            let found = k.positions_of::<b'\n'>(block);
            if found != 0 {
                let end = at + tz(found);
                break (end, end + 1);
            }
            at += 64;
            if at >= rest.len() {
                break (rest.len(), rest.len());
            }
        }
    };
    let len = match rest[..end].last() {
        Some(b'\r') => end - 1,
        _ => end,
    };
    // Lines end at ASCII bytes, which are char boundaries.
    let line = &text[start..start + len];
    if len < 64 {
        // The block ran past the line: keep the line's bits only.
        let keep = low_bits(len);
        m.in_set &= keep;
        m.in_range &= keep;
        for g in &mut m.groups {
            *g &= keep;
        }
    }
    let plan = if may_be_special(line.as_bytes()) {
        analyze_masked(k, line, &m, None)
    } else {
        None
    };
    (line, start + next, plan)
}

/// [`analyze`] given the masks of the first (up to) 64 bytes of `input`.
///
/// Straight-line mask arithmetic for the common case (every boundary in
/// the first block); the rare shapes (a port, a dot-segment candidate, a
/// file URL, more blocks) branch off to out-of-line code.
#[inline(always)]
fn analyze_masked<K: Kernel>(
    k: K,
    input: &str,
    m: &BlockMasks,
    second: Option<&BlockMasks>,
) -> Option<Plan> {
    let bytes = input.as_bytes();
    let n = bytes.len();
    let m = *m;
    if m.in_set != 0 {
        return None;
    }
    let (colon, scheme) = scheme_and_slashes(bytes, &m)?;
    let host_start = colon + 3;
    // Bits from the host on (host_start is at most 8).
    let after_scheme = u64::MAX << host_start;
    // The authority runs to the first '/', '?' or '#' (within this block,
    // or to the end of an input that fits in it).
    let enders = (m.groups[SLASH] | m.groups[QUESTION] | m.groups[HASH]) & after_scheme;
    let auth_end = tz(enders).min(n);
    if auth_end == 64 && n > 64 {
        // (See `long_authority_plan`.)
        return None;
    }
    let before_auth_end = below_lowest(enders);
    let authority = before_auth_end & after_scheme;
    if m.groups[PERCENT_AND_HOST_DECLINE] & authority != 0 {
        return None;
    }
    let port_colon = m.groups[COLON] & authority;
    let host_end = tz(port_colon).min(auth_end);
    // The authority ends the input or is followed by '/', '?' or '#'.
    let has_path = enders & enders.wrapping_neg() & m.groups[SLASH] != 0;
    // The rest of the first block: query and fragment starts, and path
    // segments that start with '.' or '%' (dot-segment candidates).
    let rest = !before_auth_end;
    let hash = m.groups[HASH] & rest;
    let question = m.groups[QUESTION] & rest & below_lowest(hash);
    let path = rest & below_lowest(question | hash);
    // ('@', '[', ']' and '|' after a '/' are candidates too, rare and
    // settled by the check.)
    let candidates =
        (m.groups[SLASH] << 1) & (m.groups[DOT] | m.groups[PERCENT_AND_HOST_DECLINE]) & path;
    if candidates != 0 && has_dot_segment(bytes, 0, candidates) {
        return None;
    }
    let mut query = (question != 0).then(|| tz(question));
    let mut fragment = (hash != 0).then(|| tz(hash));
    if n > 64 {
        (query, fragment) =
            scan_rest(k, bytes, 64, second, query, fragment, m.groups[SLASH] >> 63)?;
    }
    let host = &bytes[host_start..host_end];
    let host_kind = if scheme == SchemeType::File {
        file_host(
            bytes,
            host_start,
            host_end,
            auth_end,
            port_colon != 0,
            has_path,
        )?
    } else if host.is_empty() {
        return None;
    } else if ends_in_a_number_quick(host, &m, host_start, host_end) {
        // A number-like host is an IPv4 address: taken as it is when it
        // is already in the serializer's form.
        ipv4_host(host)?
    } else {
        HostKind::Domain
    };
    let port = if port_colon == 0 {
        None
    } else {
        Some(port_number(&bytes[host_end + 1..auth_end])?)
            .filter(|&p| Some(p) != scheme.default_port())
    };
    let mut plan = Plan::new(
        scheme,
        host_kind,
        colon,
        host_end,
        auth_end,
        port,
        has_path,
        (query, fragment),
    );
    plan.scheme_upper = m.in_range & low_bits(colon) != 0;
    plan.host_upper = m.in_range & low_bits(host_end) & after_scheme != 0;
    Some(plan)
}

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
    let rest = !before_auth_end;
    let hash = m2.groups[HASH] & rest;
    let question = m2.groups[QUESTION] & rest & below_lowest(hash);
    let path = rest & below_lowest(question | hash);
    let candidates =
        (m2.groups[SLASH] << 1) & (m2.groups[DOT] | m2.groups[PERCENT_AND_HOST_DECLINE]) & path;
    if candidates != 0 && has_dot_segment(bytes, 64, candidates) {
        return None;
    }
    let mut query = (question != 0).then(|| 64 + tz(question));
    let mut fragment = (hash != 0).then(|| 64 + tz(hash));
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

/// The bits below the lowest set bit of `mask` (all of them when it is 0).
#[inline(always)]
fn below_lowest(mask: u64) -> u64 {
    mask.wrapping_sub(1) & !mask
}

/// A port the fast path writes as it is: 1 to 5 digits without a leading
/// zero, at most 65535.
#[cold]
fn port_number(digits: &[u8]) -> Option<u16> {
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
fn file_host(
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
fn ipv4_host(host: &[u8]) -> Option<HostKind> {
    is_serialized_ipv4(host).then_some(HostKind::Ipv4)
}

/// [`ends_in_a_number`] for the host at `start..end` of the first block,
/// whose masks `m` mark its dots: a number (decimal, or "0x" hex) starts
/// with a digit, so a last label that does not is settled without a scan.
#[inline(always)]
fn ends_in_a_number_quick(host: &[u8], m: &BlockMasks, start: usize, end: usize) -> bool {
    let mut dots = m.groups[DOT] & low_bits(end) & !low_bits(start);
    if host.last() == Some(&b'.') {
        dots &= !(1 << (end - 1));
    }
    let label = if dots == 0 {
        start
    } else {
        64 - dots.leading_zeros() as usize
    };
    host[label - start..]
        .first()
        .is_some_and(u8::is_ascii_digit)
        && ends_in_a_number(host)
}

/// The special scheme that `bytes` starts with, followed by ':' and "//",
/// and the position of that ':'. "http://" and "https://" are settled
/// from the first eight bytes alone (no wait for the masks); other
/// schemes from the masks of the first block, `m`.
#[inline(always)]
fn scheme_and_slashes(bytes: &[u8], m: &BlockMasks) -> Option<(usize, SchemeType)> {
    if let Some(head) = bytes.first_chunk::<8>() {
        // OR-ing 0x20 lowercases letters and keeps ':' and '/'; the bytes
        // that OR to them are controls, which the masks decline.
        let w = u64::from_le_bytes(*head) | 0x2020_2020_2020_2020;
        if w == u64::from_le_bytes(*b"https://") {
            return Some((5, SchemeType::Https));
        }
        if w << 8 == u64::from_le_bytes(*b"\0http://") {
            return Some((4, SchemeType::Http));
        }
    }
    // Scheme: "ws" to "https", then "//".
    let colon = tz(m.groups[COLON]);
    if colon.wrapping_sub(2) > 3 || (m.groups[SLASH] >> (colon + 1)) & 3 != 3 {
        return None;
    }
    Some((colon, special_scheme(bytes, colon)?))
}

/// The special scheme spelled by the first `len` bytes of `bytes` (at
/// least 6 bytes; `len` is 2 to 5, the position of the first ':').
/// Compares whole words: OR-ing 0x20 lowercases letters, and no other
/// printable byte ORs to these letters (nor does the space padding).
#[inline(always)]
fn special_scheme(bytes: &[u8], len: usize) -> Option<SchemeType> {
    debug_assert!(bytes.len() >= 6 && (2..=5).contains(&len));
    // The first four bytes as one word, the bytes past the scheme cleared
    // (they become spaces with the 0x20s).
    let head = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    let keep = if len >= 4 {
        u32::MAX
    } else {
        (1 << (8 * len)) - 1
    };
    let w = (head & keep) | 0x2020_2020;
    let kind = match len {
        2 if w == const { word(b"ws") } => SchemeType::Ws,
        3 if w == const { word(b"wss") } => SchemeType::Wss,
        3 if w == const { word(b"ftp") } => SchemeType::Ftp,
        4 if w == const { word(b"http") } => SchemeType::Http,
        4 if w == const { word(b"file") } => SchemeType::File,
        5 if w == const { word(b"http") } && bytes[4] | 0x20 == b's' => SchemeType::Https,
        _ => return None,
    };
    Some(kind)
}

/// Up to four bytes as a little-endian word, padded with spaces (for the
/// constants [`special_scheme`] compares with).
const fn word(b: &[u8]) -> u32 {
    let mut w = 0x2020_2020u32;
    let mut i = 0;
    while i < b.len() && i < 4 {
        w = (w & !(0xFF << (8 * i))) | ((b[i] as u32) << (8 * i));
        i += 1;
    }
    w
}

/// Scans the 64-byte blocks of `bytes` from `from` (a multiple of 64) to
/// the end (the first one's [`RestBytes`] masks may be given), given the
/// query and fragment starts found before `from` and
/// whether the block before ended with '/': finds the '?' and '#' that
/// start the query and fragment, declines a path with a dot segment or a
/// declined byte. Past the '#' too, each block is classified: one kernel
/// call costs less than a byte search that goes scalar on a short tail.
#[inline]
fn scan_rest<K: Kernel>(
    k: K,
    bytes: &[u8],
    from: usize,
    masks_at_from: Option<&BlockMasks>,
    mut query: Option<usize>,
    mut fragment: Option<usize>,
    mut slash_carry: u64,
) -> Option<(Option<usize>, Option<usize>)> {
    let n = bytes.len();
    let mut off = from;
    while off < n {
        let m = match masks_at_from {
            Some(m) if off == from => *m,
            _ => k.block_masks::<RestBytes>(&bytes[off..n.min(off + 64)]),
        };
        if m.in_set != 0 {
            return None;
        }
        // Past the '#', only the declined bytes matter.
        let hash = if fragment.is_some() {
            0
        } else {
            m.groups[HASH]
        };
        if query.is_none() && fragment.is_none() {
            let question = m.groups[QUESTION] & below_lowest(hash);
            let path = below_lowest(question | hash);
            let segment_starts = ((m.groups[SLASH] << 1) | slash_carry) & m.groups[DOT] & path;
            if segment_starts != 0 && has_dot_segment(bytes, off, segment_starts) {
                return None;
            }
            if question != 0 {
                query = Some(off + tz(question));
            }
        }
        if hash != 0 {
            fragment = Some(off + tz(hash));
        }
        slash_carry = m.groups[SLASH] >> 63;
        off += 64;
    }
    Some((query, fragment))
}

/// Whether one of the path segments starting at `off` plus each bit of
/// `candidates` is a dot segment.
#[cold]
fn has_dot_segment(bytes: &[u8], off: usize, mut candidates: u64) -> bool {
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

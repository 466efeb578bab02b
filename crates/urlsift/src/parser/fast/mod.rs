//! The fast path: special-scheme URLs that are already (nearly) in normal
//! form. It declines, it never decides: any doubt returns `None` and the
//! state machine parses the input.
//!
//! One SIMD pass ([`urlsift_simd::block_masks`], 64 bytes at a time) proves
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
//!
//! This file holds the analysis of the common shapes; [`plan`] the plan
//! and the writing of the serialization; `rare` the rare shapes (an
//! authority past the first block, ports, file and IPv4 hosts, dot-segment
//! candidates).

mod clean;
mod plan;
mod rare;

pub(crate) use clean::is_clean;
pub(crate) use plan::Plan;
pub(crate) use rare::long_authority_plan;

use crate::components::{Components, SchemeType};
use crate::host::HostKind;
use crate::host::ipv4::ends_in_a_number;
use crate::simd::{BlockMasks, ByteSet, Classes, Groups, Kernel, Runtime, low_bits};
use crate::url::Url;
use rare::{file_host, has_dot_segment, ipv4_host, port_number};

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

/// [`analyze`] with a given SIMD kernel (see [`urlsift_simd::with_kernel`]).
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
    let (mut query, mut fragment) = after_authority(bytes, 0, &m, !before_auth_end)?;
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

/// The query and fragment starts in the bits `rest` (from the authority's
/// end on) of the block at `off` whose [`UrlBytes`] masks are `m`, after
/// checking the path's segments that start with '.' or '%' (dot-segment
/// candidates; '@', '[', ']' and '|' after a '/' are candidates too, rare
/// and settled by the byte check).
#[inline(always)]
fn after_authority(
    bytes: &[u8],
    off: usize,
    m: &BlockMasks,
    rest: u64,
) -> Option<(Option<usize>, Option<usize>)> {
    let hash = m.groups[HASH] & rest;
    let question = m.groups[QUESTION] & rest & below_lowest(hash);
    let path = rest & below_lowest(question | hash);
    let candidates =
        (m.groups[SLASH] << 1) & (m.groups[DOT] | m.groups[PERCENT_AND_HOST_DECLINE]) & path;
    if candidates != 0 && has_dot_segment(bytes, off, candidates) {
        return None;
    }
    Some((
        (question != 0).then(|| off + tz(question)),
        (hash != 0).then(|| off + tz(hash)),
    ))
}

/// The bits below the lowest set bit of `mask` (all of them when it is 0).
#[inline(always)]
fn below_lowest(mask: u64) -> u64 {
    mask.wrapping_sub(1) & !mask
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

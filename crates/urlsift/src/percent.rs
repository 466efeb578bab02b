//! Percent-encoding and -decoding, with the encode sets named as in the
//! standard (<https://url.spec.whatwg.org/#percent-encoded-bytes>).
//!
//! Every set contains all code points above U+007E, so UTF-8 percent-encoding
//! a string is the same as percent-encoding each of its bytes that is in the
//! set: the encoders here work on bytes and copy unencoded runs whole.

use std::borrow::Cow;

use crate::units::{hex_value, scan_until, starts_with_two_hex};

/// A percent-encode set, as a 256-entry byte table (every byte of 0x7F and
/// above is in every set).
#[derive(Clone, Copy)]
pub struct EncodeSet {
    table: [bool; 256],
    /// Only the `application/x-www-form-urlencoded` set writes a space as '+'.
    space_as_plus: bool,
}

impl std::fmt::Debug for EncodeSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ascii: String = (0x20u8..0x7F)
            .filter(|&b| self.contains(b))
            .map(char::from)
            .collect();
        write!(f, "EncodeSet(C0, {ascii:?}, non-ASCII)")
    }
}

impl EncodeSet {
    /// The set of C0 controls and every byte above U+007E, plus `extra`.
    const fn c0_plus(extra: &[u8]) -> EncodeSet {
        let mut table = [false; 256];
        let mut b = 0;
        while b < 256 {
            table[b] = b < 0x20 || b > 0x7E;
            b += 1;
        }
        let mut i = 0;
        while i < extra.len() {
            table[extra[i] as usize] = true;
            i += 1;
        }
        EncodeSet {
            table,
            space_as_plus: false,
        }
    }

    /// This set plus the bytes in `extra`.
    const fn plus(self, extra: &[u8]) -> EncodeSet {
        let mut table = self.table;
        let mut i = 0;
        while i < extra.len() {
            table[extra[i] as usize] = true;
            i += 1;
        }
        EncodeSet {
            table,
            space_as_plus: self.space_as_plus,
        }
    }

    /// Whether `byte` is percent-encoded by this set.
    #[inline(always)]
    pub const fn contains(&self, byte: u8) -> bool {
        self.table[byte as usize]
    }
}

/// The [C0 control percent-encode set](https://url.spec.whatwg.org/#c0-control-percent-encode-set).
pub const C0_CONTROL: EncodeSet = EncodeSet::c0_plus(b"");
/// The [fragment percent-encode set](https://url.spec.whatwg.org/#fragment-percent-encode-set).
pub const FRAGMENT: EncodeSet = C0_CONTROL.plus(b" \"<>`");
/// The [query percent-encode set](https://url.spec.whatwg.org/#query-percent-encode-set).
pub const QUERY: EncodeSet = C0_CONTROL.plus(b" \"#<>");
/// The [special-query percent-encode set](https://url.spec.whatwg.org/#special-query-percent-encode-set).
pub const SPECIAL_QUERY: EncodeSet = QUERY.plus(b"'");
/// The [path percent-encode set](https://url.spec.whatwg.org/#path-percent-encode-set).
pub const PATH: EncodeSet = QUERY.plus(b"?^`{}");
/// The [userinfo percent-encode set](https://url.spec.whatwg.org/#userinfo-percent-encode-set).
pub const USERINFO: EncodeSet = PATH.plus(b"/:;=@[\\]|");
/// The [component percent-encode set](https://url.spec.whatwg.org/#component-percent-encode-set).
pub const COMPONENT: EncodeSet = USERINFO.plus(b"$%&+,");
/// The [`application/x-www-form-urlencoded` percent-encode set](https://url.spec.whatwg.org/#application-x-www-form-urlencoded-percent-encode-set).
/// Encoding with it writes U+0020 SPACE as '+' ("spaceAsPlus").
pub const FORM_URLENCODED: EncodeSet = {
    let set = COMPONENT.plus(b"!'()~");
    EncodeSet {
        table: set.table,
        space_as_plus: true,
    }
};

const UPPER_HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends [percent-encode](https://url.spec.whatwg.org/#percent-encode) of `byte` ("%XX", upper hex).
#[inline]
pub fn push_encoded_byte(byte: u8, out: &mut String) {
    out.push('%');
    out.push(char::from(UPPER_HEX[(byte >> 4) as usize]));
    out.push(char::from(UPPER_HEX[(byte & 0xF) as usize]));
}

/// Length of the longest prefix of `bytes` that `set` leaves unchanged.
#[inline]
pub fn unencoded_prefix_len(bytes: &[u8], set: &EncodeSet) -> usize {
    bytes
        .iter()
        .position(|&b| set.contains(b))
        .unwrap_or(bytes.len())
}

/// [UTF-8 percent-encodes](https://url.spec.whatwg.org/#string-utf-8-percent-encode)
/// `input` with `set`, appending to `out`. Unencoded runs are copied whole.
pub fn encode_into(input: &str, set: &EncodeSet, out: &mut String) {
    let bytes = input.as_bytes();
    let mut start = 0;
    while start < bytes.len() {
        let run = unencoded_prefix_len(&bytes[start..], set);
        if run > 0 {
            // A run holds only ASCII bytes (every non-ASCII byte is in the
            // set), so both of its ends are char boundaries.
            out.push_str(&input[start..start + run]);
        }
        start += run;
        if start < bytes.len() {
            if set.space_as_plus && bytes[start] == b' ' {
                out.push('+');
            } else {
                push_encoded_byte(bytes[start], out);
            }
            start += 1;
        }
    }
}

/// [UTF-8 percent-encodes](https://url.spec.whatwg.org/#string-utf-8-percent-encode)
/// `input` with `set`; borrows when nothing needs encoding.
pub fn utf8_percent_encode<'a>(input: &'a str, set: &EncodeSet) -> Cow<'a, str> {
    let run = unencoded_prefix_len(input.as_bytes(), set);
    if run == input.len() {
        return Cow::Borrowed(input);
    }
    let mut out = String::with_capacity(input.len() + 16);
    out.push_str(&input[..run]);
    encode_into(&input[run..], set, &mut out);
    Cow::Owned(out)
}

/// A byte table for [`encode_until`]: each byte is copied, percent-encoded,
/// or ends the run.
pub(crate) struct StopTable([u8; 256]);

const COPY: u8 = 0;
const ENCODE: u8 = 1;
const STOP: u8 = 2;

impl StopTable {
    /// `set`'s bytes are encoded and `stop`'s bytes end the run.
    pub(crate) const fn new(set: &EncodeSet, stop: &[u8]) -> StopTable {
        let mut t = [COPY; 256];
        let mut b = 0;
        while b < 256 {
            if set.contains(b as u8) {
                t[b] = ENCODE;
            }
            b += 1;
        }
        let mut i = 0;
        while i < stop.len() {
            t[stop[i] as usize] = STOP;
            i += 1;
        }
        StopTable(t)
    }
}

/// Percent-encodes `input[pos..]` into `out` up to the first stop byte (or
/// the end), copying unencoded runs whole; returns the stop byte's index.
#[inline]
pub(crate) fn encode_until(
    input: &str,
    mut pos: usize,
    table: &StopTable,
    out: &mut String,
) -> usize {
    let bytes = input.as_bytes();
    loop {
        let run_start = pos;
        let t = &table.0;
        pos = scan_until(bytes, pos, |b| t[b as usize] != COPY);
        if pos > run_start {
            // Runs hold only ASCII bytes (non-ASCII ones are always
            // encoded), so both ends are char boundaries.
            out.push_str(&input[run_start..pos]);
        }
        if pos == bytes.len() || table.0[bytes[pos] as usize] == STOP {
            return pos;
        }
        push_encoded_byte(bytes[pos], out);
        pos += 1;
    }
}

/// [Percent-decodes](https://url.spec.whatwg.org/#percent-decode) `input`;
/// borrows when it holds no percent-encoded byte.
pub fn percent_decode(input: &[u8]) -> Cow<'_, [u8]> {
    let Some(first) = memchr::memchr(b'%', input) else {
        return Cow::Borrowed(input);
    };
    let mut out = Vec::with_capacity(input.len());
    out.extend_from_slice(&input[..first]);
    let mut i = first;
    while i < input.len() {
        let b = input[i];
        if b == b'%' && starts_with_two_hex(&input[i + 1..]) {
            let hi = hex_value(input[i + 1]).unwrap_or(0);
            let lo = hex_value(input[i + 2]).unwrap_or(0);
            out.push(hi << 4 | lo);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    if out.len() == input.len() {
        // Only lone '%' signs: nothing was decoded.
        return Cow::Borrowed(input);
    }
    Cow::Owned(out)
}

/// Percent-decodes `input` until nothing changes (`%2541` is `A`): how web
/// archives and Safe Browsing read a URL's parts before escaping them
/// once ([`escape_unsafe`]).
pub(crate) fn decode_repeatedly(input: &[u8]) -> Vec<u8> {
    let mut current = input.to_vec();
    while let Cow::Owned(next) = percent_decode(&current) {
        current = next;
    }
    current
}

/// Escapes, as `%XX` in upper case, the bytes web archives' keys and Safe
/// Browsing's canonical form escape: up to and including the space, from
/// 0x7F on, `#` and `%`.
pub(crate) fn escape_unsafe(input: &[u8], out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in input {
        if b <= b' ' || b >= 0x7f || b == b'#' || b == b'%' {
            out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
        } else {
            out.push(b);
        }
    }
}

/// Percent-decodes `input` and decodes the bytes as UTF-8 with replacement
/// ("UTF-8 decode without BOM").
pub fn percent_decode_str(input: &str) -> Cow<'_, str> {
    match percent_decode(input.as_bytes()) {
        Cow::Borrowed(_) => Cow::Borrowed(input),
        Cow::Owned(bytes) => match String::from_utf8(bytes) {
            Ok(s) => Cow::Owned(s),
            Err(e) => Cow::Owned(String::from_utf8_lossy(e.as_bytes()).into_owned()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_match_the_standard_text() {
        // Each set is its parent plus exactly the listed code points.
        let ascii = |set: &EncodeSet| -> String {
            (0x20u8..0x7F)
                .filter(|&b| set.contains(b))
                .map(char::from)
                .collect()
        };
        assert_eq!(ascii(&C0_CONTROL), "");
        assert!((0..0x20).all(|b| C0_CONTROL.contains(b)));
        assert!((0x7F..=0xFF).all(|b| C0_CONTROL.contains(b)));
        assert_eq!(ascii(&FRAGMENT), " \"<>`");
        assert_eq!(ascii(&QUERY), " \"#<>");
        assert_eq!(ascii(&SPECIAL_QUERY), " \"#'<>");
        assert_eq!(ascii(&PATH), " \"#<>?^`{}");
        assert_eq!(ascii(&USERINFO), " \"#/:;<=>?@[\\]^`{|}");
        assert_eq!(ascii(&COMPONENT), " \"#$%&+,/:;<=>?@[\\]^`{|}");
        // The form set leaves only alphanumerics and *-._ alone.
        let kept: String = (0x20u8..0x7F)
            .filter(|&b| !FORM_URLENCODED.contains(b))
            .map(char::from)
            .collect();
        assert_eq!(
            kept,
            "*-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"
        );
    }

    #[test]
    fn component_set_matches_encode_uri_component() {
        // encodeURIComponent leaves A-Z a-z 0-9 - _ . ! ~ * ' ( ) alone.
        let kept: String = (0x20u8..0x7F)
            .filter(|&b| !COMPONENT.contains(b))
            .map(char::from)
            .collect();
        assert_eq!(
            kept,
            "!'()*-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"
        );
    }

    #[test]
    fn encode_copies_runs_and_encodes_utf8_bytes() {
        assert_eq!(utf8_percent_encode("a b", &FRAGMENT), "a%20b");
        assert_eq!(utf8_percent_encode("‽", &C0_CONTROL), "%E2%80%BD");
        assert_eq!(utf8_percent_encode("plain", &PATH), "plain");
        assert!(matches!(
            utf8_percent_encode("plain", &PATH),
            Cow::Borrowed(_)
        ));
        assert_eq!(utf8_percent_encode("\x7F", &C0_CONTROL), "%7F");
    }

    #[test]
    fn decode_follows_the_standard_examples() {
        assert_eq!(&*percent_decode(b"%25%s%1G"), b"%%s%1G");
        assert_eq!(
            &*percent_decode("‽%25%2E".as_bytes()),
            &[0xE2, 0x80, 0xBD, 0x25, 0x2E]
        );
        assert_eq!(&*percent_decode(b"%"), b"%");
        assert_eq!(&*percent_decode(b"%4"), b"%4");
        assert_eq!(&*percent_decode(b"%41%61"), b"Aa");
        assert_eq!(percent_decode_str("%FF"), "\u{FFFD}");
    }
}

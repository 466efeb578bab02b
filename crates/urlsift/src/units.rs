//! Code point classes the standard names: URL code points, C0 control or
//! space, ASCII tab or newline, Windows drive letters, and the check that
//! reports invalid-URL-unit validation errors.

use crate::error::{Reporter, ValidationError};

/// A [C0 control or space](https://infra.spec.whatwg.org/#c0-control-or-space).
#[inline]
pub const fn is_c0_control_or_space(b: u8) -> bool {
    b <= 0x20
}

/// An [ASCII tab or newline](https://infra.spec.whatwg.org/#ascii-tab-or-newline).
#[inline]
pub const fn is_ascii_tab_or_newline(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\r')
}

/// A [URL code point](https://url.spec.whatwg.org/#url-code-points).
pub fn is_url_code_point(c: char) -> bool {
    match c {
        'a'..='z' | 'A'..='Z' | '0'..='9' => true,
        '!' | '$' | '&' | '\'' | '(' | ')' | '*' | '+' | ',' | '-' | '.' | '/' | ':' | ';'
        | '=' | '?' | '@' | '_' | '~' => true,
        '\u{A0}'..='\u{10FFFD}' => {
            let n = c as u32;
            // Noncharacters: U+FDD0..U+FDEF and every U+xxFFFE/U+xxFFFF.
            !((0xFDD0..=0xFDEF).contains(&n) || n & 0xFFFE == 0xFFFE)
        }
        _ => false,
    }
}

/// Reports one invalid-URL-unit for each code point of `text` that is not a
/// URL code point and not '%', and for each '%' not followed by two hex digits.
pub fn report_invalid_url_units<R: Reporter>(text: &str, reporter: &mut R) {
    if !R::ENABLED {
        return;
    }
    for (i, c) in text.char_indices() {
        if c == '%' {
            if !starts_with_two_hex(&text.as_bytes()[i + 1..]) {
                reporter.report(ValidationError::InvalidUrlUnit);
            }
        } else if !is_url_code_point(c) {
            reporter.report(ValidationError::InvalidUrlUnit);
        }
    }
}

/// The opaque-host parser's checks: at most one invalid-URL-unit for any
/// code point that is not a URL code point (nor '%'), and one for any '%'
/// not followed by two hex digits.
pub fn report_invalid_url_units_once<R: Reporter>(text: &str, reporter: &mut R) {
    if !R::ENABLED {
        return;
    }
    if text.chars().any(|c| c != '%' && !is_url_code_point(c)) {
        reporter.report(ValidationError::InvalidUrlUnit);
    }
    let bytes = text.as_bytes();
    if memchr::memchr_iter(b'%', bytes).any(|i| !starts_with_two_hex(&bytes[i + 1..])) {
        reporter.report(ValidationError::InvalidUrlUnit);
    }
}

/// The index of the first byte at or after `from` for which `stop` holds,
/// or the end. Four bytes a step; the position inside the step that stops
/// comes from a bitmask, not from a second, unpredictable loop. Every
/// table-driven scan of the parser goes through here.
#[inline(always)]
pub fn scan_until(bytes: &[u8], from: usize, stop: impl Fn(u8) -> bool) -> usize {
    let mut i = from;
    while let Some(chunk) = bytes.get(i..i + 4) {
        let hits = u32::from(stop(chunk[0]))
            | u32::from(stop(chunk[1])) << 1
            | u32::from(stop(chunk[2])) << 2
            | u32::from(stop(chunk[3])) << 3;
        if hits != 0 {
            return i + hits.trailing_zeros() as usize;
        }
        i += 4;
    }
    while i < bytes.len() && !stop(bytes[i]) {
        i += 1;
    }
    i
}

/// A [Windows drive letter](https://url.spec.whatwg.org/#windows-drive-letter):
/// an ASCII alpha then ':' or '|'.
#[inline]
pub fn is_windows_drive_letter(s: &[u8]) -> bool {
    s.len() == 2 && s[0].is_ascii_alphabetic() && (s[1] == b':' || s[1] == b'|')
}

/// A [normalized Windows drive letter](https://url.spec.whatwg.org/#normalized-windows-drive-letter).
#[inline]
pub fn is_normalized_windows_drive_letter(s: &[u8]) -> bool {
    s.len() == 2 && s[0].is_ascii_alphabetic() && s[1] == b':'
}

/// Whether `s` [starts with a Windows drive letter](https://url.spec.whatwg.org/#start-with-a-windows-drive-letter).
pub fn starts_with_windows_drive_letter(s: &[u8]) -> bool {
    s.len() >= 2
        && is_windows_drive_letter(&s[..2])
        && (s.len() == 2 || matches!(s[2], b'/' | b'\\' | b'?' | b'#'))
}

/// The value of an ASCII hex digit, or `None`.
#[inline]
pub(crate) fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Whether `bytes` starts with two ASCII hex digits.
#[inline]
pub(crate) fn starts_with_two_hex(bytes: &[u8]) -> bool {
    bytes.len() >= 2 && bytes[0].is_ascii_hexdigit() && bytes[1].is_ascii_hexdigit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_code_points() {
        assert!(is_url_code_point('a'));
        assert!(is_url_code_point('~'));
        assert!(!is_url_code_point(' '));
        assert!(!is_url_code_point('%'));
        assert!(!is_url_code_point('"'));
        assert!(!is_url_code_point('\u{7F}'));
        assert!(is_url_code_point('\u{A0}'));
        assert!(!is_url_code_point('\u{FDD0}'));
        assert!(!is_url_code_point('\u{FFFF}'));
        assert!(!is_url_code_point('\u{1FFFE}'));
        assert!(is_url_code_point('\u{10FFFD}'));
    }

    #[test]
    fn scan_until_finds_the_first_stop_at_any_offset() {
        let bytes = b"abcdefghij/klm";
        for from in 0..bytes.len() {
            let expected = if from <= 10 { 10 } else { bytes.len() };
            assert_eq!(
                scan_until(bytes, from, |b| b == b'/'),
                expected,
                "from {from}"
            );
        }
        assert_eq!(scan_until(b"", 0, |_| true), 0);
        assert_eq!(scan_until(b"abc", 0, |_| false), 3);
    }

    #[test]
    fn windows_drive_letters() {
        assert!(starts_with_windows_drive_letter(b"c:"));
        assert!(starts_with_windows_drive_letter(b"c:/"));
        assert!(starts_with_windows_drive_letter(b"C|#"));
        assert!(!starts_with_windows_drive_letter(b"c:a"));
        assert!(!starts_with_windows_drive_letter(b"1:"));
        assert!(is_normalized_windows_drive_letter(b"c:"));
        assert!(!is_normalized_windows_drive_letter(b"c|"));
    }
}

//! The [IPv4 parser](https://url.spec.whatwg.org/#concept-ipv4-parser), the
//! [ends in a number checker](https://url.spec.whatwg.org/#ends-in-a-number-checker)
//! and the [IPv4 serializer](https://url.spec.whatwg.org/#concept-ipv4-serializer).

use crate::error::{ParseError, Reporter, ValidationError};

/// The [ends in a number checker](https://url.spec.whatwg.org/#ends-in-a-number-checker):
/// whether the last label of `input` (ignoring one trailing dot) is all
/// digits or a `0x`-prefixed hex number, making the host an IPv4 address.
#[inline]
pub fn ends_in_a_number(input: &[u8]) -> bool {
    let input = input.strip_suffix(b".").unwrap_or(input);
    // Quick reject: a number ends in a digit, a hex digit or the 'x' of "0x".
    match input.last() {
        Some(b) if b.is_ascii_hexdigit() || *b | 0x20 == b'x' => {}
        _ => return false,
    }
    let last = match input.iter().rposition(|&b| b == b'.') {
        Some(dot) => &input[dot + 1..],
        None => input,
    };
    if !last.is_empty() && last.iter().all(u8::is_ascii_digit) {
        return true;
    }
    // "parsing last as an IPv4 number does not return failure": equivalent
    // to "0x"/"0X" followed by zero or more hex digits.
    last.len() >= 2
        && last[0] == b'0'
        && (last[1] | 0x20) == b'x'
        && last[2..].iter().all(u8::is_ascii_hexdigit)
}

/// The [IPv4 number parser](https://url.spec.whatwg.org/#ipv4-number-parser):
/// the value (saturated at `u64::MAX`) and whether it was non-decimal.
fn parse_ipv4_number(mut input: &[u8]) -> Option<(u64, bool)> {
    if input.is_empty() {
        return None;
    }
    let mut radix = 10;
    let mut non_decimal = false;
    if input.len() >= 2 && input[0] == b'0' && (input[1] | 0x20) == b'x' {
        non_decimal = true;
        input = &input[2..];
        radix = 16;
    } else if input.len() >= 2 && input[0] == b'0' {
        non_decimal = true;
        input = &input[1..];
        radix = 8;
    }
    if input.is_empty() {
        return Some((0, true));
    }
    let mut value: u64 = 0;
    for &b in input {
        let digit = match (radix, b) {
            (16, _) => crate::units::hex_value(b)?,
            (_, b'0'..=b'9') if b - b'0' < radix => b - b'0',
            _ => return None,
        };
        value = value
            .saturating_mul(u64::from(radix))
            .saturating_add(u64::from(digit));
    }
    Some((value, non_decimal))
}

/// The [IPv4 parser](https://url.spec.whatwg.org/#concept-ipv4-parser).
/// `input` is an ASCII domain that ends in a number.
pub fn parse_ipv4<R: Reporter>(input: &[u8], reporter: &mut R) -> Result<u32, ParseError> {
    let mut input = input;
    if input.last() == Some(&b'.') {
        reporter.report(ValidationError::Ipv4EmptyPart);
        if input.len() > 1 {
            input = &input[..input.len() - 1];
        }
    }
    // "Let parts be the result of strictly splitting input on U+002E (.)."
    // The part count is checked before any part is parsed.
    let count = input.iter().filter(|&&b| b == b'.').count() + 1;
    if count < 4 {
        reporter.report(ValidationError::Ipv4TooFewParts);
    }
    if count > 4 {
        reporter.report(ValidationError::Ipv4TooManyParts);
        return Err(ValidationError::Ipv4TooManyParts.into());
    }
    let mut numbers = [0u64; 4];
    for (i, part) in input.split(|&b| b == b'.').enumerate() {
        let Some((n, non_decimal)) = parse_ipv4_number(part) else {
            reporter.report(ValidationError::Ipv4NonNumericPart);
            return Err(ValidationError::Ipv4NonNumericPart.into());
        };
        if non_decimal {
            reporter.report(ValidationError::Ipv4NonDecimalPart);
        }
        numbers[i] = n;
    }
    let numbers = &numbers[..count];
    if numbers.iter().any(|&n| n > 255) {
        reporter.report(ValidationError::Ipv4OutOfRangePart);
    }
    let (last, init) = numbers
        .split_last()
        .expect("split yields at least one part");
    if init.iter().any(|&n| n > 255) {
        return Err(ValidationError::Ipv4OutOfRangePart.into());
    }
    if *last >= 256u64.pow(5 - count as u32) {
        return Err(ValidationError::Ipv4OutOfRangePart.into());
    }
    let mut ipv4 = *last;
    for (counter, &n) in init.iter().enumerate() {
        ipv4 += n << (8 * (3 - counter));
    }
    Ok(ipv4 as u32)
}

/// Whether `host` is already an IPv4 address's serialization: four
/// decimal numbers from 0 to 255 without leading zeros, dot-separated
/// (then the IPv4 parser and serializer give `host` back unchanged, with
/// no validation error). Other number-like hosts need rewriting.
pub fn is_serialized_ipv4(host: &[u8]) -> bool {
    let mut parts = 0;
    for part in host.split(|&b| b == b'.') {
        parts += 1;
        let canonical = match part {
            [d] => d.is_ascii_digit(),
            [b'1'..=b'9', d] => d.is_ascii_digit(),
            [b'1', d, e] => d.is_ascii_digit() && e.is_ascii_digit(),
            [b'2', b'0'..=b'4', e] => e.is_ascii_digit(),
            [b'2', b'5', b'0'..=b'5'] => true,
            _ => false,
        };
        if !canonical || parts > 4 {
            return false;
        }
    }
    parts == 4
}

/// The [IPv4 serializer](https://url.spec.whatwg.org/#concept-ipv4-serializer).
pub fn serialize_ipv4(address: u32, out: &mut String) {
    use std::fmt::Write;
    let [a, b, c, d] = address.to_be_bytes();
    let _ = write!(out, "{a}.{b}.{c}.{d}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::NoReporter;

    fn ipv4(s: &str) -> Result<String, ParseError> {
        let n = parse_ipv4(s.as_bytes(), &mut NoReporter)?;
        let mut out = String::new();
        serialize_ipv4(n, &mut out);
        Ok(out)
    }

    /// Whether `host` parses and serializes to itself without a
    /// validation error (what `is_serialized_ipv4` must answer).
    fn round_trips(host: &[u8]) -> bool {
        let mut errors = Vec::new();
        let again = parse_ipv4(host, &mut errors).ok().map(|n| {
            let mut out = String::new();
            serialize_ipv4(n, &mut out);
            out
        });
        ends_in_a_number(host)
            && errors.is_empty()
            && again.as_deref().map(str::as_bytes) == Some(host)
    }

    /// Exactly the hosts that round-trip: every string of up to 7 digits
    /// and dots (of a few digits), and every four-part host of parts that
    /// probe leading zeros and the 255 limit.
    #[test]
    fn serialized_ipv4_is_exact() {
        fn all(prefix: &mut Vec<u8>, accepted: &mut usize) {
            let host = prefix.as_slice();
            assert_eq!(
                is_serialized_ipv4(host),
                round_trips(host),
                "{:?}",
                String::from_utf8_lossy(host)
            );
            *accepted += usize::from(round_trips(host));
            if prefix.len() == 7 {
                return;
            }
            for b in [b'0', b'1', b'2', b'5', b'6', b'.'] {
                prefix.push(b);
                all(prefix, accepted);
                prefix.pop();
            }
        }
        let mut accepted = 0;
        all(&mut Vec::new(), &mut accepted);
        assert!(accepted > 100, "{accepted}");
        let parts = [
            "0", "00", "1", "01", "9", "10", "99", "100", "199", "200", "249", "250", "255", "256",
            "300", "1000",
        ];
        for a in parts {
            for b in parts {
                for c in parts {
                    for d in parts {
                        let host = format!("{a}.{b}.{c}.{d}");
                        assert_eq!(
                            is_serialized_ipv4(host.as_bytes()),
                            round_trips(host.as_bytes()),
                            "{host}"
                        );
                    }
                }
            }
        }
        assert!(is_serialized_ipv4(b"255.255.255.255") && !is_serialized_ipv4(b"1.2.3.4."));
    }

    #[test]
    fn shortened_octal_and_hex_forms() {
        assert_eq!(ipv4("192.168.0.1").unwrap(), "192.168.0.1");
        assert_eq!(ipv4("0x7f.1").unwrap(), "127.0.0.1");
        assert_eq!(ipv4("0300.0250.0.1").unwrap(), "192.168.0.1");
        assert_eq!(ipv4("3232235521").unwrap(), "192.168.0.1");
        assert_eq!(ipv4("1.2.3.4.").unwrap(), "1.2.3.4");
        assert_eq!(ipv4("0x").unwrap(), "0.0.0.0");
        assert_eq!(ipv4("4294967295").unwrap(), "255.255.255.255");
    }

    #[test]
    fn out_of_range_and_overflow_fail() {
        assert!(ipv4("4294967296").is_err());
        assert!(ipv4("256.0.0.1").is_err());
        assert!(ipv4("1.2.3.256").is_err());
        assert!(ipv4("1.2.3.4.5").is_err());
        assert!(ipv4("99999999999999999999999999").is_err());
        assert!(ipv4("09.1").is_err());
        assert!(ipv4("1..2").is_err());
    }

    #[test]
    fn reports_non_decimal_and_too_few_parts() {
        let mut errors = Vec::new();
        parse_ipv4(b"0x7f.1", &mut errors).unwrap();
        assert_eq!(
            errors,
            [
                ValidationError::Ipv4TooFewParts,
                ValidationError::Ipv4NonDecimalPart
            ]
        );
    }

    #[test]
    fn ends_in_a_number_cases() {
        assert!(ends_in_a_number(b"a.1"));
        assert!(ends_in_a_number(b"a.1."));
        assert!(ends_in_a_number(b"a.0x"));
        assert!(ends_in_a_number(b"a.0xAF"));
        assert!(ends_in_a_number(b"09"));
        assert!(!ends_in_a_number(b"a.0xg"));
        assert!(!ends_in_a_number(b"1.a"));
        assert!(!ends_in_a_number(b"a.."));
        assert!(!ends_in_a_number(b"example.com"));
    }
}

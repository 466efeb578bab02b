//! The [IPv6 parser](https://url.spec.whatwg.org/#concept-ipv6-parser) and
//! [serializer](https://url.spec.whatwg.org/#concept-ipv6-serializer).

use crate::error::{ParseError, Reporter, ValidationError};

fn fail<R: Reporter>(reporter: &mut R, e: ValidationError) -> Result<[u16; 8], ParseError> {
    reporter.report(e);
    Err(e.into())
}

/// The [IPv6 parser](https://url.spec.whatwg.org/#concept-ipv6-parser), on
/// the text between the brackets.
pub fn parse_ipv6<R: Reporter>(input: &[u8], reporter: &mut R) -> Result<[u16; 8], ParseError> {
    use ValidationError::*;
    let mut address = [0u16; 8];
    let mut piece_index = 0usize;
    let mut compress: Option<usize> = None;
    let mut p = 0usize;
    let at = |p: usize| input.get(p).copied();

    if at(p) == Some(b':') {
        if at(p + 1) != Some(b':') {
            return fail(reporter, Ipv6InvalidCompression);
        }
        p += 2;
        piece_index += 1;
        compress = Some(piece_index);
    }
    while let Some(c) = at(p) {
        if piece_index == 8 {
            return fail(reporter, Ipv6TooManyPieces);
        }
        if c == b':' {
            if compress.is_some() {
                return fail(reporter, Ipv6MultipleCompression);
            }
            p += 1;
            piece_index += 1;
            compress = Some(piece_index);
            continue;
        }
        let mut value: u32 = 0;
        let mut length = 0;
        while length < 4 {
            match at(p).and_then(crate::units::hex_value) {
                Some(d) => {
                    value = value * 0x10 + u32::from(d);
                    p += 1;
                    length += 1;
                }
                None => break,
            }
        }
        match at(p) {
            Some(b'.') => {
                if length == 0 {
                    return fail(reporter, Ipv4InIpv6InvalidCodePoint);
                }
                p -= length;
                if piece_index > 6 {
                    return fail(reporter, Ipv4InIpv6TooManyPieces);
                }
                let mut numbers_seen = 0;
                while let Some(mut c) = at(p) {
                    let mut ipv4_piece: Option<u32> = None;
                    if numbers_seen > 0 {
                        if c == b'.' && numbers_seen < 4 {
                            p += 1;
                            c = at(p).unwrap_or(0);
                        } else {
                            return fail(reporter, Ipv4InIpv6InvalidCodePoint);
                        }
                    }
                    if !c.is_ascii_digit() {
                        return fail(reporter, Ipv4InIpv6InvalidCodePoint);
                    }
                    while let Some(d @ b'0'..=b'9') = at(p) {
                        let number = u32::from(d - b'0');
                        ipv4_piece = match ipv4_piece {
                            None => Some(number),
                            Some(0) => return fail(reporter, Ipv4InIpv6InvalidCodePoint),
                            Some(v) => Some(v * 10 + number),
                        };
                        if ipv4_piece > Some(255) {
                            return fail(reporter, Ipv4InIpv6OutOfRangePart);
                        }
                        p += 1;
                    }
                    let piece = ipv4_piece.unwrap_or(0);
                    address[piece_index] = address[piece_index].wrapping_mul(0x100) + piece as u16;
                    numbers_seen += 1;
                    if numbers_seen == 2 || numbers_seen == 4 {
                        piece_index += 1;
                    }
                }
                if numbers_seen != 4 {
                    return fail(reporter, Ipv4InIpv6TooFewParts);
                }
                break;
            }
            Some(b':') => {
                p += 1;
                if at(p).is_none() {
                    return fail(reporter, Ipv6InvalidCodePoint);
                }
            }
            Some(_) => return fail(reporter, Ipv6InvalidCodePoint),
            None => {}
        }
        if length > 1 && value < 1 << (4 * (length - 1)) {
            reporter.report(Ipv6PieceLeadingZero);
        }
        address[piece_index] = value as u16;
        piece_index += 1;
    }
    if let Some(compress) = compress {
        let mut swaps = piece_index - compress;
        piece_index = 7;
        while piece_index != 0 && swaps > 0 {
            address.swap(piece_index, compress + swaps - 1);
            piece_index -= 1;
            swaps -= 1;
        }
    } else if piece_index != 8 {
        return fail(reporter, Ipv6TooFewPieces);
    }
    Ok(address)
}

/// [Finds the IPv6 address compressed piece index](https://url.spec.whatwg.org/#find-the-ipv6-address-compressed-piece-index):
/// the first longest run of two or more zero pieces.
fn compressed_piece_index(address: &[u16; 8]) -> Option<usize> {
    let mut longest: Option<usize> = None;
    let mut longest_size = 1;
    let mut found: Option<usize> = None;
    let mut found_size = 0;
    for (i, &piece) in address.iter().enumerate() {
        if piece != 0 {
            if found_size > longest_size {
                longest = found;
                longest_size = found_size;
            }
            found = None;
            found_size = 0;
        } else {
            if found.is_none() {
                found = Some(i);
            }
            found_size += 1;
        }
    }
    if found_size > longest_size {
        return found;
    }
    longest
}

/// The [IPv6 serializer](https://url.spec.whatwg.org/#concept-ipv6-serializer),
/// without the brackets.
pub fn serialize_ipv6(address: &[u16; 8], out: &mut String) {
    use std::fmt::Write;
    let compress = compressed_piece_index(address);
    let mut ignore0 = false;
    for (i, &piece) in address.iter().enumerate() {
        if ignore0 && piece == 0 {
            continue;
        }
        ignore0 = false;
        if compress == Some(i) {
            out.push_str(if i == 0 { "::" } else { ":" });
            ignore0 = true;
            continue;
        }
        let _ = write!(out, "{piece:x}");
        if i != 7 {
            out.push(':');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::NoReporter;

    fn round(s: &str) -> Result<String, ParseError> {
        let a = parse_ipv6(s.as_bytes(), &mut NoReporter)?;
        let mut out = String::new();
        serialize_ipv6(&a, &mut out);
        Ok(out)
    }

    #[test]
    fn compression_picks_first_longest_zero_run() {
        assert_eq!(round("0:f:0:0:f:f:0:0").unwrap(), "0:f::f:f:0:0");
        assert_eq!(round("1:0:0:2:0:0:0:3").unwrap(), "1:0:0:2::3");
        assert_eq!(round("::").unwrap(), "::");
        assert_eq!(round("::1").unwrap(), "::1");
        assert_eq!(round("1::").unwrap(), "1::");
        assert_eq!(round("1:0:1:0:1:0:1:0").unwrap(), "1:0:1:0:1:0:1:0");
    }

    #[test]
    fn embedded_ipv4() {
        assert_eq!(round("::127.0.0.1").unwrap(), "::7f00:1");
        assert_eq!(round("::ffff:192.168.0.1").unwrap(), "::ffff:c0a8:1");
        assert!(round("::1.2.3").is_err());
        assert!(round("::1.2.3.4.5").is_err());
        assert!(round("::01.2.3.4").is_err());
        assert!(round("::256.2.3.4").is_err());
        assert!(round("1:2:3:4:5:6:7:1.2.3.4").is_err());
    }

    #[test]
    fn malformed() {
        for bad in [
            ":1",
            "1:::2",
            "1:2:3:4:5:6:7:8:9",
            "1:2",
            "12345::",
            "1:",
            "::g",
            "1::2::3",
        ] {
            assert!(round(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn reports_leading_zero() {
        let mut errors = Vec::new();
        parse_ipv6(b"::0001", &mut errors).unwrap();
        assert_eq!(errors, [ValidationError::Ipv6PieceLeadingZero]);
    }
}

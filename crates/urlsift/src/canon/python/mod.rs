//! What the canonical forms of Python tools inherit from Python 3.11's
//! standard library, as it behaves: percent-quoting with a safe set,
//! `ipaddress`'s reading and writing of addresses, the `idna` codec
//! (IDNA 2003: nameprep, then punycode, label by label), and `urllib`'s
//! scheme lists.
//!
//! ```
//! use urlsift::canon::python::{idna_encode, ipv6_text, IpAddress};
//! assert_eq!(idna_encode("bücher.de").unwrap(), "xn--bcher-kva.de");
//! assert_eq!(idna_encode("straße.de").unwrap(), "strasse.de"); // IDNA 2003
//! let Some(IpAddress::V6(v6)) = IpAddress::parse("2001:DB8:0:0:0::1") else { panic!() };
//! assert_eq!(ipv6_text(&v6), "2001:db8::1");
//! ```

mod html;
mod urllib;

pub use html::html_unescape;
pub use urllib::{SplitResult, parse_qs, quote, unquote_str, urlencode, urlsplit, urlunsplit};
pub(crate) use urllib::{check_bracketed_host, check_netloc};

use unicode_normalization::UnicodeNormalization;

/// A set of bytes quoting leaves as they are: RFC 3986's unreserved
/// characters and `extra`.
pub struct Safe([bool; 256]);

impl Safe {
    /// The unreserved characters (`A-Za-z0-9-._~`) and `extra`.
    pub const fn new(extra: &[u8]) -> Safe {
        let mut set = [false; 256];
        let mut b = 0;
        while b < 256 {
            let c = b as u8;
            set[b] = c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'~');
            b += 1;
        }
        let mut i = 0;
        while i < extra.len() {
            set[extra[i] as usize] = true;
            i += 1;
        }
        Safe(set)
    }

    /// Whether `b` is left as it is.
    pub fn has(&self, b: u8) -> bool {
        self.0[b as usize]
    }
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `data` to `out`, each byte outside `safe` as `%XX` (upper-case
/// hex), and a space as `+` when `plus` (`quote_plus`).
pub fn quote_into(data: &[u8], safe: &Safe, plus: bool, out: &mut Vec<u8>) {
    for &b in data {
        if safe.has(b) {
            out.push(b);
        } else if plus && b == b' ' {
            out.push(b'+');
        } else {
            out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
        }
    }
}

fn hex_value(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// `data` with each `%XX` (two hex digits) decoded, and each `+` a space
/// when `plus` (`unquote_plus`); a `%` not followed by two hex digits stays.
pub fn unquote(data: &[u8], plus: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    let mut i = 0;
    while i < data.len() {
        let b = data[i];
        if b == b'%'
            && i + 2 < data.len()
            && let (Some(hi), Some(lo)) = (hex_value(data[i + 1]), hex_value(data[i + 2]))
        {
            out.push(hi << 4 | lo);
            i += 3;
            continue;
        }
        out.push(if plus && b == b'+' { b' ' } else { b });
        i += 1;
    }
    out
}

/// `urllib.parse.uses_netloc`: the schemes whose URLs are written with
/// `//` even when the authority is empty.
pub fn uses_netloc(scheme: &str) -> bool {
    matches!(
        scheme,
        "" | "ftp"
            | "http"
            | "gopher"
            | "nntp"
            | "telnet"
            | "imap"
            | "wais"
            | "file"
            | "mms"
            | "https"
            | "shttp"
            | "snews"
            | "prospero"
            | "rtsp"
            | "rtsps"
            | "rtspu"
            | "rsync"
            | "svn"
            | "svn+ssh"
            | "sftp"
            | "nfs"
            | "git"
            | "git+ssh"
            | "ws"
            | "wss"
    )
}

/// `urllib.parse.uses_params`: the schemes whose last path segment may
/// carry `;params`.
pub fn uses_params(scheme: &str) -> bool {
    matches!(
        scheme,
        "" | "ftp"
            | "hdl"
            | "prospero"
            | "http"
            | "imap"
            | "https"
            | "shttp"
            | "rtsp"
            | "rtsps"
            | "rtspu"
            | "sip"
            | "sips"
            | "mms"
            | "sftp"
            | "tel"
    )
}

/// An address as `ipaddress.ip_address` reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IpAddress<'a> {
    /// A dotted-quad IPv4 address (four decimal octets, no leading zeros).
    V4([u8; 4]),
    /// An IPv6 address and its scope id (after `%`), if any.
    V6(Ipv6<'a>),
}

/// An IPv6 address as `ipaddress.IPv6Address` holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ipv6<'a> {
    /// The eight 16-bit pieces.
    pub pieces: [u16; 8],
    /// The scope id after `%`, if any.
    pub scope: Option<&'a str>,
}

impl<'a> IpAddress<'a> {
    /// `ip_address(text)`: an IPv4 address, else an IPv6 one, else `None`.
    pub fn parse(text: &'a str) -> Option<IpAddress<'a>> {
        if let Some(v4) = ipv4(text) {
            return Some(IpAddress::V4(v4));
        }
        let (address, scope) = match text.split_once('%') {
            Some((_, scope)) if scope.is_empty() || scope.contains('%') => return None,
            Some((address, scope)) => (address, Some(scope)),
            None => (text, None),
        };
        Some(IpAddress::V6(Ipv6 {
            pieces: ipv6(address)?,
            scope,
        }))
    }
}

fn ipv4(text: &str) -> Option<[u8; 4]> {
    let mut octets = [0u8; 4];
    let mut parts = text.split('.');
    for octet in &mut octets {
        let part = parts.next()?;
        if part.is_empty() || part.len() > 3 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if part.len() > 1 && part.starts_with('0') {
            return None;
        }
        *octet = part
            .parse::<u16>()
            .ok()
            .and_then(|v| u8::try_from(v).ok())?;
    }
    parts.next().is_none().then_some(octets)
}

fn ipv6(text: &str) -> Option<[u16; 8]> {
    let mut parts: Vec<std::borrow::Cow<'_, str>> = text.split(':').map(Into::into).collect();
    if text.is_empty() || parts.len() < 3 {
        return None;
    }
    if parts.last()?.contains('.') {
        let v4 = ipv4(&parts.pop()?)?;
        parts.push(format!("{:x}", u16::from_be_bytes([v4[0], v4[1]])).into());
        parts.push(format!("{:x}", u16::from_be_bytes([v4[2], v4[3]])).into());
    }
    if parts.len() > 9 {
        return None;
    }
    let mut skip = None;
    for (i, part) in parts.iter().enumerate().take(parts.len() - 1).skip(1) {
        if part.is_empty() {
            if skip.is_some() {
                return None;
            }
            skip = Some(i);
        }
    }
    let (hi, lo) = match skip {
        Some(at) => {
            let mut hi = at;
            let mut lo = parts.len() - at - 1;
            if parts[0].is_empty() {
                hi -= 1;
                if hi != 0 {
                    return None;
                }
            }
            if parts[parts.len() - 1].is_empty() {
                lo -= 1;
                if lo != 0 {
                    return None;
                }
            }
            if hi + lo >= 8 {
                return None;
            }
            (hi, lo)
        }
        None => {
            if parts.len() != 8 || parts[0].is_empty() || parts[7].is_empty() {
                return None;
            }
            (8, 0)
        }
    };
    let hextet = |s: &str| -> Option<u16> {
        if s.is_empty() || s.len() > 4 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u16::from_str_radix(s, 16).ok()
    };
    let mut pieces = [0u16; 8];
    for i in 0..hi {
        pieces[i] = hextet(&parts[i])?;
    }
    for i in 0..lo {
        pieces[8 - lo + i] = hextet(&parts[parts.len() - lo + i])?;
    }
    Some(pieces)
}

/// `str(IPv6Address)` in Python 3.11: lower-case hex pieces, the first
/// longest run of two or more zero pieces written `::`, an IPv4-mapped
/// address as pieces too, then `%` and the scope id.
pub fn ipv6_text(address: &Ipv6<'_>) -> String {
    let p = &address.pieces;
    let (mut best, mut best_len, mut run, mut run_len) = (0, 0, 0, 0);
    for (i, &piece) in p.iter().enumerate() {
        if piece == 0 {
            if run_len == 0 {
                run = i;
            }
            run_len += 1;
            if run_len > best_len {
                best = run;
                best_len = run_len;
            }
        } else {
            run_len = 0;
        }
    }
    let hex = |range: &[u16]| range.iter().map(|x| format!("{x:x}")).collect::<Vec<_>>();
    let mut text = if best_len > 1 {
        format!(
            "{}::{}",
            hex(&p[..best]).join(":"),
            hex(&p[best + best_len..]).join(":")
        )
    } else {
        hex(p).join(":")
    };
    if let Some(scope) = address.scope {
        text.push('%');
        text.push_str(scope);
    }
    text
}

/// The `idna` codec's ToUnicode of one label given as UTF-8 bytes, as
/// `label.encode("utf8").decode("idna")` runs it: a label without the
/// `xn--` prefix comes back as it is; one with it is punycode-decoded, and
/// the result must encode back (ToASCII) to the label, lower-cased.
///
/// ```
/// use urlsift::canon::python::idna_label_to_unicode;
/// assert_eq!(idna_label_to_unicode("xn--bcher-kva").unwrap(), "bücher");
/// assert!(idna_label_to_unicode("xn--abc-").is_err()); // "abc" encodes to "abc"
/// assert!(idna_label_to_unicode("xn--ab c").is_err());
/// ```
pub fn idna_label_to_unicode(label: &str) -> Result<String, IdnaError> {
    if label.len() > 1024 {
        return Err(IdnaError);
    }
    let Some(encoded) = label.strip_prefix("xn--") else {
        return Ok(label.to_string());
    };
    let decoded = punycode_decode(encoded)?;
    let again = to_ascii(&decoded)?;
    if label.to_ascii_lowercase() != again {
        return Err(IdnaError);
    }
    Ok(decoded)
}

/// Python's `punycode` codec, strict: the basic code points before the
/// last `-`, then the deltas in either case; any error (a digit that is
/// not one, a number cut short, a code point past U+10FFFF) refuses it.
fn punycode_decode(text: &str) -> Result<String, IdnaError> {
    if !text.is_ascii() {
        return Err(IdnaError);
    }
    let (base, extended) = match text.rfind('-') {
        Some(pos) => (&text[..pos], &text[pos + 1..]),
        None => ("", text),
    };
    let mut out: Vec<u32> = base.chars().map(u32::from).collect();
    let (mut code, mut pos, mut bias) = (0x80u64, -1i64, 72u64);
    let digits = extended.as_bytes();
    let mut at = 0;
    let mut first = true;
    while at < digits.len() {
        // A generalized variable-length integer.
        let (mut delta, mut w, mut j) = (0u64, 1u64, 0u64);
        loop {
            let c = *digits.get(at).ok_or(IdnaError)?;
            at += 1;
            let digit = match c.to_ascii_uppercase() {
                d @ b'A'..=b'Z' => u64::from(d - b'A'),
                d @ b'0'..=b'9' => u64::from(d) - 22,
                _ => return Err(IdnaError),
            };
            let t = (36 * (j + 1)).saturating_sub(bias).clamp(1, 26);
            delta = digit
                .checked_mul(w)
                .and_then(|d| d.checked_add(delta))
                .ok_or(IdnaError)?;
            if digit < t {
                break;
            }
            w = w.checked_mul(36 - t).ok_or(IdnaError)?;
            j += 1;
        }
        pos = pos
            .checked_add(i64::try_from(delta).map_err(|_| IdnaError)? + 1)
            .ok_or(IdnaError)?;
        let len = out.len() as i64 + 1;
        code = code.checked_add((pos / len) as u64).ok_or(IdnaError)?;
        if code > 0x10FFFF {
            return Err(IdnaError);
        }
        pos %= len;
        out.insert(pos as usize, code as u32);
        // adapt(delta, first, len(base))
        let mut d = if first { delta / 700 } else { delta / 2 };
        d += d / out.len() as u64;
        let mut k = 0;
        while d > 455 {
            d /= 35;
            k += 36;
        }
        bias = k + 36 * d / (d + 38);
        first = false;
    }
    // A surrogate decodes in Python and fails nameprep after: refused too.
    out.into_iter()
        .map(|c| char::from_u32(c).ok_or(IdnaError))
        .collect()
}

/// Unicode NFKC, as `unicodedata.normalize("NFKC", text)`.
pub fn nfkc(text: &str) -> String {
    text.nfkc().collect()
}

/// Why the `idna` codec refused a host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdnaError;

/// `text.encode("idna")`: IDNA 2003 (RFC 3490 ToASCII with nameprep, RFC
/// 3491, unassigned code points allowed), label by label, labels split at
/// `.` and its three ideographic and full-width forms; an empty label
/// (but a last one) or one of 64 bytes or more is an error.
pub fn idna_encode(text: &str) -> Result<String, IdnaError> {
    if text.is_empty() {
        return Ok(String::new());
    }
    if text.is_ascii() {
        let labels: Vec<&str> = text.split('.').collect();
        let (last, rest) = labels.split_last().expect("split gives one");
        if rest.iter().any(|l| l.is_empty() || l.len() >= 64) || last.len() >= 64 {
            return Err(IdnaError);
        }
        return Ok(text.to_string());
    }
    let mut labels: Vec<&str> = text
        .split(['.', '\u{3002}', '\u{FF0E}', '\u{FF61}'])
        .collect();
    let trailing_dot = labels.last().is_some_and(|l| l.is_empty());
    if trailing_dot {
        labels.pop();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for label in labels {
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(&to_ascii(label)?);
    }
    if trailing_dot {
        out.push('.');
    }
    Ok(out)
}

fn checked(label: String) -> Result<String, IdnaError> {
    if label.is_empty() || label.len() >= 64 {
        Err(IdnaError)
    } else {
        Ok(label)
    }
}

/// RFC 3490's ToASCII of one label, as the `idna` codec does it
/// (`encodings.idna.ToASCII`): an empty label, or one of 64 bytes or
/// more, is an error.
pub fn label_to_ascii(label: &str) -> Result<String, IdnaError> {
    to_ascii(label)
}

fn to_ascii(label: &str) -> Result<String, IdnaError> {
    if label.is_ascii() {
        return checked(label.to_string());
    }
    let label = nameprep(label)?;
    if label.is_ascii() {
        return checked(label);
    }
    if label.starts_with("xn--") {
        return Err(IdnaError);
    }
    let encoded = idna::punycode::encode_str(&label).ok_or(IdnaError)?;
    checked(format!("xn--{encoded}"))
}

/// Table B.2 as Python's `stringprep.map_table_b2` computes it: from the
/// exceptions and `str.lower()` of Python's own Unicode version, so a
/// character cased since Unicode 3.2 (Cherokee, Georgian capitals, any
/// character then unassigned) is lower-cased where RFC 3454's table
/// leaves it.
fn map_b2(c: char, out: &mut String) {
    use stringprep::tables as t;
    let lower = || c.to_lowercase();
    if t::unassigned_code_point(c) {
        out.extend(lower());
        return;
    }
    let mut folded = t::case_fold_for_nfkc(c).peekable();
    let first = folded.next();
    if first == Some(c) && folded.peek().is_none() && lower().ne([c]) {
        out.extend(lower());
    } else {
        out.extend(first.into_iter().chain(folded));
    }
}

/// NFKC as Unicode 3.2 has it (`unicodedata.ucd_3_2_0`, what the `idna`
/// codec normalizes by): a character unassigned in 3.2 is left as it is
/// (and, a starter with nothing to compose, splits the text), the rest
/// normalized (decompositions of assigned characters are stable).
fn nfkc_3_2(text: &str) -> String {
    use stringprep::tables as t;
    if !text.chars().any(t::unassigned_code_point) {
        return nfkc(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut piece = String::new();
    for c in text.chars() {
        if t::unassigned_code_point(c) {
            out.push_str(&nfkc(&piece));
            piece.clear();
            out.push(c);
        } else {
            piece.push(c);
        }
    }
    out.push_str(&nfkc(&piece));
    out
}

/// RFC 3491 nameprep as the `idna` codec runs it: mapped (B.1, B.2),
/// NFKC, prohibited output (C.1.2, C.2.2, C.3 to C.9) and the bidi rule
/// checked; unassigned code points allowed.
fn nameprep(label: &str) -> Result<String, IdnaError> {
    use stringprep::tables as t;
    let mut mapped = String::with_capacity(label.len());
    for c in label.chars().filter(|&c| !t::commonly_mapped_to_nothing(c)) {
        map_b2(c, &mut mapped);
    }
    let label = nfkc_3_2(&mapped);
    let prohibited = |c: char| {
        t::non_ascii_space_character(c)
            || t::non_ascii_control_character(c)
            || t::private_use(c)
            || t::non_character_code_point(c)
            || t::surrogate_code(c)
            || t::inappropriate_for_plain_text(c)
            || t::inappropriate_for_canonical_representation(c)
            || t::change_display_properties_or_deprecated(c)
            || t::tagging_character(c)
    };
    if label.chars().any(prohibited) {
        return Err(IdnaError);
    }
    if label.chars().any(t::bidi_r_or_al) {
        let first = label.chars().next().is_some_and(t::bidi_r_or_al);
        let last = label.chars().next_back().is_some_and(t::bidi_r_or_al);
        if label.chars().any(t::bidi_l) || !first || !last {
            return Err(IdnaError);
        }
    }
    Ok(label)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v6(text: &str) -> Option<String> {
        match IpAddress::parse(text)? {
            IpAddress::V6(v6) => Some(ipv6_text(&v6)),
            IpAddress::V4(_) => None,
        }
    }

    #[test]
    fn ipv6_as_python_reads_and_writes_it() {
        assert_eq!(v6("::").as_deref(), Some("::"));
        assert_eq!(v6("::1").as_deref(), Some("::1"));
        assert_eq!(v6("1::").as_deref(), Some("1::"));
        assert_eq!(v6("0:0:1:0:0:0:1:0").as_deref(), Some("0:0:1::1:0"));
        assert_eq!(v6("1:0:2:3:4:5:6:7").as_deref(), Some("1:0:2:3:4:5:6:7"));
        assert_eq!(v6("::ffff:1.2.3.4").as_deref(), Some("::ffff:102:304"));
        assert_eq!(v6("FE80::1%eth0").as_deref(), Some("fe80::1%eth0"));
        for bad in [
            "",
            ":",
            "1:2",
            "1::2::3",
            ":1::2",
            "1::2:",
            "12345::",
            "1:2:3:4:5:6:7:8:9",
            "::1.2.3.04",
            "fe80::1%",
            "g::",
        ] {
            assert_eq!(IpAddress::parse(bad), None, "{bad}");
        }
        assert_eq!(
            IpAddress::parse("10.0.0.1"),
            Some(IpAddress::V4([10, 0, 0, 1]))
        );
        assert_eq!(IpAddress::parse("010.0.0.1"), None);
    }

    #[test]
    fn idna_2003_as_the_codec_writes_it() {
        assert_eq!(idna_encode("münchen.de").unwrap(), "xn--mnchen-3ya.de");
        assert_eq!(idna_encode("ＥＸＡＭＰＬＥ。com").unwrap(), "example.com");
        assert_eq!(idna_encode("☃.net").unwrap(), "xn--n3h.net");
        assert_eq!(idna_encode("ü.de.").unwrap(), "xn--tda.de.");
        assert_eq!(idna_encode("a..b"), Err(IdnaError));
        assert_eq!(idna_encode("ü..b"), Err(IdnaError));
        assert_eq!(idna_encode(&"a".repeat(64)), Err(IdnaError));
        assert_eq!(idna_encode("xn--ü.de"), Err(IdnaError));
    }

    #[test]
    fn quoting_as_urllib_does() {
        let mut out = Vec::new();
        quote_into("a b/é".as_bytes(), &Safe::new(b"/"), true, &mut out);
        assert_eq!(out, b"a+b/%C3%A9");
        assert_eq!(unquote(b"%41%4g%+%2", true), b"A%4g% %2");
        assert_eq!(unquote(b"%41+", false), b"A+");
    }
}

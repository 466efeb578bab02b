//! urlcanon's `punycode_special_host`: the `idna` package's chain, as
//! it behaves.

use super::super::python;

/// `punycode_special_host`: the `idna` package's `encode(host,
/// uts46=True)`, else its UTS #46 mapping with IDNA 2003's ToASCII per
/// label, else the host as it was.
pub(super) fn punycode_host(host: &[u8]) -> Vec<u8> {
    let Ok(text) = std::str::from_utf8(host) else {
        return host.to_vec();
    };
    if text.is_ascii() {
        let lower = text.to_ascii_lowercase();
        if !lower
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-')
        {
            // IDNA 2008 refuses the code point; STD3 rules refuse it in
            // the fallback.
            return host.to_vec();
        }
        if idna2008_ascii_ok(&lower) {
            return lower.into_bytes();
        }
        // The fallback: each label (split at `.`, a trailing empty one
        // included) must be 1 to 63 bytes.
        if lower.split('.').all(|l| !l.is_empty() && l.len() < 64) {
            return lower.into_bytes();
        }
        return host.to_vec();
    }
    let uts46 = idna::uts46::Uts46::new();
    match uts46.to_ascii(
        host,
        idna::uts46::AsciiDenyList::STD3,
        idna::uts46::Hyphens::Check,
        idna::uts46::DnsLength::Ignore,
    ) {
        // The `idna` package refuses an empty name or label (but a last
        // one), which UTS #46 here lets through.
        Ok(ascii) if !has_empty_label(&ascii) => ascii.into_owned().into_bytes(),
        _ => idna2003_fallback(text).unwrap_or_else(|| host.to_vec()),
    }
}

fn has_empty_label(name: &str) -> bool {
    let name = name.strip_suffix('.').unwrap_or(name);
    name.is_empty() || name.split('.').any(str::is_empty)
}

/// The `idna` package refused the host: urlcanon maps it by UTS #46
/// (STD3 rules) and gives each label, split at `.`, to Python's IDNA 2003
/// ToASCII; `None` where either raises.
fn idna2003_fallback(text: &str) -> Option<Vec<u8>> {
    if text.contains("xn--") {
        // UTS #46 here would decode the punycode the mapping keeps.
        return None;
    }
    let (mapped, _) = idna::uts46::Uts46::new().to_unicode(
        text.as_bytes(),
        idna::uts46::AsciiDenyList::STD3,
        idna::uts46::Hyphens::Allow,
    );
    if mapped.contains('\u{FFFD}') && !text.contains('\u{FFFD}') {
        // A code point the mapping disallows: it raises.
        return None;
    }
    let mut out = Vec::with_capacity(mapped.len() + 8);
    for (i, label) in mapped.split('.').enumerate() {
        if i > 0 {
            out.push(b'.');
        }
        out.extend_from_slice(python::label_to_ascii(label).ok()?.as_bytes());
    }
    Some(out)
}

/// Whether the `idna` package encodes an ASCII host of lower-case
/// letters, digits, `-` and `.` as it is: no empty label (but a last
/// one), labels of at most 63 bytes without a hyphen first, last or in
/// the third and fourth places (an `xn--` label must decode), the name at
/// most 253 bytes (254 with the trailing dot).
fn idna2008_ascii_ok(host: &str) -> bool {
    let (labels, trailing_dot) = match host.strip_suffix('.') {
        Some(h) => (h, true),
        None => (host, false),
    };
    if labels.is_empty() || host.len() > if trailing_dot { 254 } else { 253 } {
        return false;
    }
    labels.split('.').all(|label| {
        if label.is_empty() || label.len() > 63 {
            return false;
        }
        if let Some(puny) = label.strip_prefix("xn--") {
            if puny.is_empty() || puny.ends_with('-') {
                return false;
            }
            return match idna::punycode::decode_to_string(puny) {
                Some(u) => hyphens_ok(&u) && !u.is_empty(),
                None => false,
            };
        }
        hyphens_ok(label)
    })
}

fn hyphens_ok(label: &str) -> bool {
    let chars: Vec<char> = label.chars().collect();
    !(chars.get(2) == Some(&'-') && chars.get(3) == Some(&'-'))
        && chars.first() != Some(&'-')
        && chars.last() != Some(&'-')
}

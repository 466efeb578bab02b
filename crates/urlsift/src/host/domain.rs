//! The [domain parser](https://url.spec.whatwg.org/#concept-domain-parser):
//! ASCII domains are lowercased (the standard's web-compatibility rule);
//! other domains go through UTS #46 ToASCII (the `idna` crate) with the
//! standard's flags.

use std::borrow::Cow;

use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};

use crate::error::{ParseError, Reporter, ValidationError};

/// A [forbidden host code point](https://url.spec.whatwg.org/#forbidden-host-code-point).
#[inline]
pub const fn is_forbidden_host(b: u8) -> bool {
    matches!(
        b,
        0 | b'\t'
            | b'\n'
            | b'\r'
            | b' '
            | b'#'
            | b'/'
            | b':'
            | b'<'
            | b'>'
            | b'?'
            | b'@'
            | b'['
            | b'\\'
            | b']'
            | b'^'
            | b'|'
    )
}

/// A [forbidden domain code point](https://url.spec.whatwg.org/#forbidden-domain-code-point).
#[inline]
pub const fn is_forbidden_domain(b: u8) -> bool {
    is_forbidden_host(b) || b <= 0x1F || b == b'%' || b == 0x7F
}

static FORBIDDEN_DOMAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 128 {
        t[i] = is_forbidden_domain(i as u8);
        i += 1;
    }
    t
};

/// [Domain parser ToASCII](https://url.spec.whatwg.org/#concept-domain-parser-toascii).
fn to_ascii(domain: &str, be_strict: bool) -> Result<Cow<'_, str>, idna::Errors> {
    let uts46 = Uts46::new();
    if be_strict {
        uts46.to_ascii(
            domain.as_bytes(),
            AsciiDenyList::STD3,
            Hyphens::Check,
            DnsLength::Verify,
        )
    } else {
        uts46.to_ascii(
            domain.as_bytes(),
            AsciiDenyList::EMPTY,
            Hyphens::Allow,
            DnsLength::Ignore,
        )
    }
}

/// The domain parser's first step: a domain-to-ASCII validation error when
/// strict ToASCII fails. Runs only for reporters that listen.
#[inline]
pub fn report_strict_failure<R: Reporter>(domain: &str, reporter: &mut R) {
    if R::ENABLED && to_ascii(domain, true).is_err() {
        reporter.report(ValidationError::DomainToAscii);
    }
}

/// The [domain parser](https://url.spec.whatwg.org/#concept-domain-parser)
/// with beStrict false, appending the ASCII result to `out`.
pub fn parse_domain_into<R: Reporter>(
    domain: &str,
    out: &mut String,
    reporter: &mut R,
) -> Result<(), ParseError> {
    report_strict_failure(domain, reporter);
    let start = out.len();
    if domain.is_ascii() {
        // Lowercase and check forbidden domain code points in one pass.
        let bytes = domain.as_bytes();
        let mut forbidden = false;
        for &b in bytes {
            forbidden |= FORBIDDEN_DOMAIN[b as usize];
        }
        if forbidden || bytes.is_empty() {
            return Err(ValidationError::DomainToAscii.into());
        }
        out.push_str(domain);
        out[start..].make_ascii_lowercase();
        return Ok(());
    }
    let Ok(ascii) = to_ascii(domain, false) else {
        return Err(ValidationError::DomainToAscii.into());
    };
    if ascii.is_empty() || ascii.bytes().any(|b| FORBIDDEN_DOMAIN[b as usize]) {
        return Err(ValidationError::DomainToAscii.into());
    }
    out.push_str(&ascii);
    Ok(())
}

/// The [domain to Unicode](https://url.spec.whatwg.org/#concept-domain-to-unicode)
/// algorithm: the domain itself when ToUnicode records an error.
pub fn domain_to_unicode(domain: &str) -> Cow<'_, str> {
    let uts46 = Uts46::new();
    let (result, errors) =
        uts46.to_unicode(domain.as_bytes(), AsciiDenyList::EMPTY, Hyphens::Allow);
    if errors.is_err() {
        return Cow::Borrowed(domain);
    }
    match result {
        Cow::Borrowed(_) => Cow::Borrowed(domain),
        Cow::Owned(s) => Cow::Owned(s),
    }
}

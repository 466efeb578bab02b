//! The [host parser](https://url.spec.whatwg.org/#concept-host-parser) and
//! [serializer](https://url.spec.whatwg.org/#concept-host-serializer).
//!
//! Hosts know nothing of URLs: the parser takes the host's text and writes
//! its serialization to a buffer, returning which kind of host it was.

pub mod domain;
pub mod ipv4;
pub mod ipv6;

use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr};

use crate::error::{NoReporter, ParseError, Reporter, ValidationError};
use crate::percent::{self, C0_CONTROL};
use crate::units::report_invalid_url_units_once;

/// Which kind of [host](https://url.spec.whatwg.org/#concept-host) a URL has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HostKind {
    /// A [domain](https://url.spec.whatwg.org/#concept-domain) (ASCII, lowercase).
    Domain,
    /// An [IPv4 address](https://url.spec.whatwg.org/#concept-ipv4).
    Ipv4,
    /// An [IPv6 address](https://url.spec.whatwg.org/#concept-ipv6), serialized in brackets.
    Ipv6,
    /// An [opaque host](https://url.spec.whatwg.org/#opaque-host) of a non-special URL.
    Opaque,
    /// The [empty host](https://url.spec.whatwg.org/#empty-host).
    Empty,
}

/// A parsed [host](https://url.spec.whatwg.org/#concept-host).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Host {
    /// A domain, ASCII and lowercase.
    Domain(String),
    /// An IPv4 address.
    Ipv4(Ipv4Addr),
    /// An IPv6 address.
    Ipv6(Ipv6Addr),
    /// An opaque host.
    Opaque(String),
    /// The empty host.
    Empty,
}

impl Host {
    /// [Host-parses](https://url.spec.whatwg.org/#concept-host-parser) `input`
    /// as for a special URL (`is_opaque` false) or a non-special one.
    pub fn parse(input: &str, is_opaque: bool) -> Result<Host, ParseError> {
        if input.is_empty() && !is_opaque {
            return Err(ValidationError::HostMissing.into());
        }
        let mut out = String::new();
        let kind = parse_host_into(input, is_opaque, &mut out, &mut NoReporter)?;
        Ok(Host::from_serialized(kind, out))
    }

    pub(crate) fn from_serialized(kind: HostKind, text: String) -> Host {
        match kind {
            HostKind::Domain => Host::Domain(text),
            HostKind::Opaque => Host::Opaque(text),
            HostKind::Empty => Host::Empty,
            HostKind::Ipv4 => Host::Ipv4(text.parse().unwrap_or(Ipv4Addr::UNSPECIFIED)),
            HostKind::Ipv6 => Host::Ipv6(
                text.trim_start_matches('[')
                    .trim_end_matches(']')
                    .parse()
                    .unwrap_or(Ipv6Addr::UNSPECIFIED),
            ),
        }
    }
}

impl fmt::Display for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Host::Domain(s) | Host::Opaque(s) => f.write_str(s),
            Host::Empty => Ok(()),
            Host::Ipv4(a) => write!(f, "{a}"),
            Host::Ipv6(a) => {
                let mut out = String::with_capacity(41);
                out.push('[');
                ipv6::serialize_ipv6(&a.segments(), &mut out);
                out.push(']');
                f.write_str(&out)
            }
        }
    }
}

/// [`DOMAIN_CLASS`] bit: an ASCII upper alpha, to be lowercased.
const UPPER: u8 = 1;
/// [`DOMAIN_CLASS`] bit: '%', a forbidden domain code point or a non-ASCII
/// byte, for the general domain parser to decide.
const SLOW: u8 = 2;

static DOMAIN_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = if b >= 0x80 || domain::is_forbidden_domain(b as u8) {
            SLOW
        } else if (b as u8).is_ascii_uppercase() {
            UPPER
        } else {
            0
        };
        b += 1;
    }
    t
};

/// The OR of the [`DOMAIN_CLASS`] bits of `bytes`: eight lookups a step
/// and an overlapping last step, so the loop's length varies little.
#[inline]
fn domain_class(bytes: &[u8]) -> u8 {
    let of8 = |c: &[u8]| {
        c.iter()
            .take(8)
            .fold(0, |acc, &b| acc | DOMAIN_CLASS[b as usize])
    };
    if bytes.len() < 8 {
        return bytes
            .iter()
            .fold(0, |acc, &b| acc | DOMAIN_CLASS[b as usize]);
    }
    let mut class = 0;
    for chunk in bytes.chunks_exact(8) {
        class |= of8(chunk);
    }
    class | of8(&bytes[bytes.len() - 8..])
}

/// The [host parser](https://url.spec.whatwg.org/#concept-host-parser):
/// appends the serialized host of `input` to `out`. The caller handles the
/// empty input (a host-missing failure or the empty host, by context).
pub(crate) fn parse_host_into<R: Reporter>(
    input: &str,
    is_opaque: bool,
    out: &mut String,
    reporter: &mut R,
) -> Result<HostKind, ParseError> {
    let bytes = input.as_bytes();
    if bytes.first() == Some(&b'[') {
        if bytes.len() < 2 || bytes[bytes.len() - 1] != b']' {
            reporter.report(ValidationError::Ipv6Unclosed);
            return Err(ValidationError::Ipv6Unclosed.into());
        }
        let address = ipv6::parse_ipv6(&bytes[1..bytes.len() - 1], reporter)?;
        out.push('[');
        ipv6::serialize_ipv6(&address, out);
        out.push(']');
        return Ok(HostKind::Ipv6);
    }
    if is_opaque {
        return parse_opaque_host_into(input, out, reporter);
    }
    let start = out.len();
    // One pass classifies the bytes: a plain ASCII domain (the common case)
    // is copied and lowercased without the general domain parser.
    let class = domain_class(bytes);
    if class & SLOW == 0 {
        domain::report_strict_failure(input, reporter);
        out.push_str(input);
        if class & UPPER != 0 {
            out[start..].make_ascii_lowercase();
        }
    } else if memchr::memchr(b'%', bytes).is_some() {
        if R::ENABLED
            && bytes
                .windows(3)
                .any(|w| w[0] == b'%' && crate::units::starts_with_two_hex(&w[1..]))
        {
            reporter.report(ValidationError::DomainPercentEncoded);
        }
        let decoded = percent::percent_decode_str(input);
        domain::parse_domain_into(&decoded, out, reporter)?;
    } else {
        domain::parse_domain_into(input, out, reporter)?;
    }
    if ipv4::ends_in_a_number(&out.as_bytes()[start..]) {
        let address = ipv4::parse_ipv4(&out.as_bytes()[start..], reporter)?;
        out.truncate(start);
        ipv4::serialize_ipv4(address, out);
        return Ok(HostKind::Ipv4);
    }
    Ok(HostKind::Domain)
}

/// The [opaque-host parser](https://url.spec.whatwg.org/#concept-opaque-host-parser).
fn parse_opaque_host_into<R: Reporter>(
    input: &str,
    out: &mut String,
    reporter: &mut R,
) -> Result<HostKind, ParseError> {
    if input.bytes().any(domain::is_forbidden_host) {
        reporter.report(ValidationError::HostInvalidCodePoint);
        return Err(ValidationError::HostInvalidCodePoint.into());
    }
    report_invalid_url_units_once(input, reporter);
    percent::encode_into(input, &C0_CONTROL, out);
    Ok(if input.is_empty() {
        HostKind::Empty
    } else {
        HostKind::Opaque
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(s: &str) -> Result<String, ParseError> {
        Host::parse(s, false).map(|h| h.to_string())
    }

    #[test]
    fn domains_ipv4_ipv6() {
        assert_eq!(host("EXAMPLE.com").unwrap(), "example.com");
        assert_eq!(host("0x7f.1").unwrap(), "127.0.0.1");
        assert_eq!(host("[::1]").unwrap(), "[::1]");
        assert_eq!(host("faß.de").unwrap(), "xn--fa-hia.de");
        assert_eq!(host("%41.com").unwrap(), "a.com");
        assert_eq!(host("XN--A").unwrap(), "xn--a");
        assert!(host("a b").is_err());
        assert!(host("a%").is_err());
        assert!(host("[::1").is_err());
        assert!(host("1.2.3.999").is_err());
    }

    #[test]
    fn opaque_hosts() {
        assert_eq!(Host::parse("ÿ", true).unwrap().to_string(), "%C3%BF");
        assert_eq!(Host::parse("EX", true).unwrap().to_string(), "EX");
        assert!(Host::parse("a b", true).is_err());
        assert_eq!(Host::parse("", true).unwrap(), Host::Empty);
    }

    #[test]
    fn reports_percent_encoded_domain() {
        let mut errors = Vec::new();
        let mut out = String::new();
        parse_host_into("%61.com", false, &mut out, &mut errors).unwrap();
        assert_eq!(out, "a.com");
        assert_eq!(errors, [ValidationError::DomainPercentEncoded]);
    }
}

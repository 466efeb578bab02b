//! Which URLs proved by the fast path the state machine would also find
//! free of validation errors, so that `urlsift check` need not run it on
//! them.
//!
//! The fast path proves a URL in normal form (its serialization is the
//! input itself) and tells where its host is. Such a URL can still carry
//! validation errors the parser reports without changing a byte: a
//! character that is not a URL code point (`|`, a second `#`), a bad or
//! any percent escape (`%zz`; `%41` in a host), credentials, and a domain
//! that Unicode ToASCII with the strict flags rejects (`a_b.example`,
//! `-x.example`, `ab--c.example`, `xn--` labels, labels over 63 bytes),
//! which the domain parser reports before it lowercases an ASCII domain
//! and goes on. A URL is *clean* when it avoids every one of those by
//! construction:
//! - its bytes are ASCII letters and digits and `!$&'()*+,-./:;=?_~`, all
//!   URL code points, with at most one `#` (the one that starts the
//!   fragment), and no `%` and no `@`;
//! - its host, when it has one, is labels of ASCII lowercase letters,
//!   digits and hyphens, 1 to 63 bytes each, not starting or ending with a
//!   hyphen nor with hyphens in their third and fourth places (which also
//!   rules out `xn--`), 253 bytes at most in all: what the strict ToASCII
//!   accepts as it is (a canonical IPv4 address passes too).
//!
//! The remaining errors of the standard's list cannot arise from such an
//! input: the others need a byte outside that set (IPv6 and its pieces
//! need `[`, `invalid-reverse-solidus` a `\`), or a rewrite (a missing
//! solidus after a special scheme, an IPv4 part that is empty or not
//! decimal, a drive letter as a `file:` host), or a failure (a missing
//! host, a bad port), or a base (a relative reference). `tests/clean.rs`
//! checks every clean line of the corpora and the web-platform tests
//! against the state machine's reporter.

use super::Plan;

/// Bytes a clean URL may hold (besides one `#`): ASCII letters and
/// digits, and these URL code points.
const SAFE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).is_ascii_alphanumeric();
        b += 1;
    }
    let others = b"!$&'()*+,-./:;=?_~";
    let mut i = 0;
    while i < others.len() {
        t[others[i] as usize] = true;
        i += 1;
    }
    t
};

/// Whether `input`, which the fast path planned as `plan`, is clean (see
/// the module docs).
pub(crate) fn is_clean(input: &str, plan: &Plan) -> bool {
    if !plan.unchanged() {
        return false;
    }
    let bytes = input.as_bytes();
    // (No early exit: the loop vectorizes, and most lines are clean.)
    let (unsafe_bytes, hashes) = bytes.iter().fold((0usize, 0usize), |(u, h), &b| {
        (
            u + usize::from(!SAFE[b as usize] && b != b'#'),
            h + usize::from(b == b'#'),
        )
    });
    if unsafe_bytes != 0 || hashes > 1 {
        return false;
    }
    let c = plan.components();
    strict_host(&bytes[c.host_start as usize..c.host_end as usize])
}

/// Whether the strict ToASCII takes `host` as it is (see the module docs).
fn strict_host(host: &[u8]) -> bool {
    if host.len() > 253 {
        return false;
    }
    host.is_empty()
        || host.split(|&b| b == b'.').all(|label| {
            let n = label.len();
            (1..=63).contains(&n)
                && label
                    .iter()
                    .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && label[0] != b'-'
                && label[n - 1] != b'-'
                && !(n >= 4 && label[2] == b'-' && label[3] == b'-')
        })
}

#[cfg(test)]
mod tests {
    use super::strict_host;

    #[test]
    fn strict_hosts() {
        for ok in ["", "example.com", "a-b.c", "1.2.3.4", "x", "ab-c.d"] {
            assert!(strict_host(ok.as_bytes()), "{ok}");
        }
        let long = "a".repeat(64);
        for bad in [
            "a_b.com",
            "-a.com",
            "a-.com",
            "ab--c.com",
            "xn--abc.com",
            "a..b",
            ".a",
            "a.",
            "Ex.com",
            long.as_str(),
        ] {
            assert!(!strict_host(bad.as_bytes()), "{bad}");
        }
        let many = ["abcdefghi"; 26].join(".");
        assert!(many.len() > 253 && !strict_host(many.as_bytes()));
    }
}

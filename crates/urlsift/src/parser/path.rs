//! Path segment helpers: [single-dot and double-dot URL path
//! segments](https://url.spec.whatwg.org/#single-dot-path-segment).

/// A [single-dot URL path segment](https://url.spec.whatwg.org/#single-dot-path-segment):
/// "." or "%2e", ASCII case-insensitive.
#[inline]
pub(crate) fn is_single_dot(seg: &[u8]) -> bool {
    match seg.len() {
        1 => seg[0] == b'.',
        3 => seg[0] == b'%' && seg[1] == b'2' && (seg[2] | 0x20) == b'e',
        _ => false,
    }
}

/// A [double-dot URL path segment](https://url.spec.whatwg.org/#double-dot-path-segment):
/// "..", ".%2e", "%2e." or "%2e%2e", ASCII case-insensitive.
#[inline]
pub(crate) fn is_double_dot(seg: &[u8]) -> bool {
    match seg.len() {
        2 => seg == b"..",
        4 => {
            (seg[0] == b'.' && is_single_dot(&seg[1..]))
                || (seg[3] == b'.' && is_single_dot(&seg[..3]))
        }
        6 => is_single_dot(&seg[..3]) && is_single_dot(&seg[3..]),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_segments() {
        for s in [".", "%2e", "%2E"] {
            assert!(is_single_dot(s.as_bytes()), "{s}");
        }
        for s in ["..", ".%2e", "%2E.", "%2e%2E"] {
            assert!(is_double_dot(s.as_bytes()), "{s}");
        }
        for s in ["", "...", "%2f", ".a", "%2e%2", "%%2e", "a."] {
            assert!(
                !is_single_dot(s.as_bytes()) && !is_double_dot(s.as_bytes()),
                "{s}"
            );
        }
    }
}

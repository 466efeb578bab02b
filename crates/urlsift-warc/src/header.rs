//! Reading a record's header block: where it ends, its fields, the URL
//! field a job reads.

use std::borrow::Cow;

use urlsift_simd::{self as simd, Kernel, LineEnds, Runtime, WithKernel};

/// Where a header block ends: just past its first empty line ("\n\n" or
/// "\n\r\n"), found in one pass over the line ends (stopping there, not
/// searching the whole read-ahead window per record), or `None` if no
/// such line ends in `window` (or one may, at its very end).
pub(crate) struct BlockEnd<'a>(pub(crate) &'a [u8]);

impl WithKernel for BlockEnd<'_> {
    type Output = Option<usize>;

    #[inline(always)]
    fn run<K: Kernel>(self, k: K) -> Option<usize> {
        let window = self.0;
        for i in LineEnds::new(k, window) {
            match &window[i + 1..] {
                [b'\n', ..] => return Some(i + 2),
                [b'\r', b'\n', ..] => return Some(i + 3),
                [] | [b'\r'] => return None,
                // A blank line of several CRs (`\r\r\n` line ends, as some
                // writers doubled them; warcio reads those records too).
                [b'\r', b'\r', rest @ ..] => {
                    let crs = rest.iter().take_while(|&&b| b == b'\r').count();
                    match rest.get(crs) {
                        Some(b'\n') => return Some(i + 4 + crs),
                        None => return None,
                        Some(_) => {}
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// Whether `after`, the bytes after a payload's claimed end (as far as
/// they are at hand), shows a record's end there: blank lines, then the
/// next record's `WARC/` or nothing.
pub(crate) fn ends_a_record(after: &[u8]) -> bool {
    let blank = after
        .iter()
        .take_while(|b| matches!(b, b'\r' | b'\n'))
        .count();
    after[blank..].is_empty() || after[blank..].starts_with(b"WARC/")
}

/// Whether `window` (from a line start, at most a header block's limit
/// long) begins a whole record header: a block, through its blank line,
/// with a Content-Length.
pub(crate) fn starts_a_header(window: &[u8]) -> bool {
    simd::with_kernel(BlockEnd(window))
        .is_some_and(|block| content_length(&window[..block]).is_some())
}

/// The header block's Content-Length.
pub(crate) fn content_length(header: &[u8]) -> Option<u64> {
    let v = simd::with_kernel(HeaderValue {
        text: simdutf8::basic::from_utf8(header).ok()?,
        name: "Content-Length",
    })?;
    v.trim().parse().ok()
}

/// [`header_value_in`] as work for [`simd::with_kernel`].
struct HeaderValue<'a, 'n> {
    text: &'a str,
    name: &'n str,
}

impl<'a> WithKernel for HeaderValue<'a, '_> {
    type Output = Option<&'a str>;

    #[inline(always)]
    fn run<K: Kernel>(self, k: K) -> Option<&'a str> {
        header_value_in(k, self.text, self.name)
    }
}

/// The value of header `name` (case-insensitive) in a header block, with
/// surrounding space removed; `None` if the block is not UTF-8.
pub(crate) fn header_value<'a>(header: &'a [u8], name: &str) -> Option<&'a str> {
    header_value_in(Runtime, simdutf8::basic::from_utf8(header).ok()?, name)
}

/// [`header_value`] of a block known to be text: the first line after the
/// first whose key (before its first ':', trimmed) is `name`.
#[inline(always)]
pub(crate) fn header_value_in<'a, K: Kernel>(k: K, text: &'a str, name: &str) -> Option<&'a str> {
    let bytes = text.as_bytes();
    let n = name.as_bytes();
    let mut ends = LineEnds::new(k, bytes);
    let mut start = ends.next()? + 1;
    loop {
        let end = ends.next().unwrap_or(bytes.len());
        let line = &bytes[start..end];
        // Most lines are told apart by their first bytes: a line starting
        // with an ASCII byte that is not white space has a key starting
        // there, which is `name` only if the line starts with `name`.
        let other = match line.first() {
            Some(&b) if b.is_ascii() && !(b as char).is_whitespace() => {
                line.len() < n.len() || !line[..n.len()].eq_ignore_ascii_case(n)
            }
            _ => false,
        };
        if !other
            && let Some(colon) = line.iter().position(|&b| b == b':')
            && text[start..start + colon].trim().eq_ignore_ascii_case(name)
        {
            return Some(trim_blanks(&text[start + colon + 1..end]));
        }
        if end == bytes.len() {
            return None;
        }
        start = end + 1;
    }
}

/// `s` less the spaces, tabs and carriage returns around it.
#[inline]
fn trim_blanks(s: &str) -> &str {
    let blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\r');
    let b = s.as_bytes();
    let start = b.iter().position(|c| !blank(c)).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !blank(c)).map_or(start, |i| i + 1);
    // Both ends are next to ASCII bytes (or the string's ends): boundaries.
    &s[start..end]
}

/// Header `name` of a record (`extract --fields @WARC-Date`).
pub fn named<'a>(header: &'a [u8], name: &str) -> Option<Cow<'a, str>> {
    header_value(header, name).map(Cow::Borrowed)
}

/// The fields of a WARC header block, in order: each line's name and
/// value (before and after its first `:`, blanks trimmed), from the line
/// after the `WARC/` line to the blank line; lines without a `:` are
/// passed over. Bytes, as written: a reader that needs text decodes them.
///
/// ```
/// use urlsift_warc::fields;
///
/// let header = b"WARC/1.1\r\nWARC-Type: response\r\nno colon\r\nContent-Length:  5 \r\n\r\n";
/// let read: Vec<_> = fields(header).collect();
/// assert_eq!(read, [(&b"WARC-Type"[..], &b"response"[..]), (b"Content-Length", b"5")]);
/// ```
pub fn fields(header: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    header
        .split(|&b| b == b'\n')
        .skip(1)
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
        .take_while(|line| !line.is_empty())
        .filter_map(|line| {
            let colon = memchr::memchr(b':', line)?;
            Some((line[..colon].trim_ascii(), line[colon + 1..].trim_ascii()))
        })
}

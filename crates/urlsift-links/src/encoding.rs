//! A document's character encoding, as the HTML standard's encoding
//! sniffing finds it for a page read from a crawl: a byte-order mark, then
//! the HTTP `Content-Type` charset, then the `<meta>` prescan of the first
//! 16 KiB (the standard asks for at least 1,024 bytes; html5lib's
//! encoding cases find a `<meta>` behind an 8 KiB comment), else windows-1252 (the standard's default for documents
//! of unknown origin; UTF-8 documents almost always say so, and a
//! document with no declaration that decodes as UTF-8 is taken as UTF-8,
//! as browsers' detectors do for such pages).
//!
//! ```
//! use urlsift_links::encoding::{decode, sniff};
//!
//! assert_eq!(sniff(b"<meta charset=iso-8859-2>", None).name(), "ISO-8859-2");
//! assert_eq!(sniff(b"\xEF\xBB\xBF<meta charset=iso-8859-2>", None).name(), "UTF-8");
//! assert_eq!(sniff(b"<p>caf\xE9</p>", None).name(), "windows-1252");
//! assert_eq!(sniff(b"<p>caf\xC3\xA9</p>", None).name(), "UTF-8");
//! assert_eq!(sniff(b"<p>x</p>", Some("Shift_JIS")).name(), "Shift_JIS");
//! assert_eq!(decode(b"caf\xE9", encoding_rs::WINDOWS_1252), "café");
//! ```

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};

/// How many bytes the `<meta>` prescan looks at.
pub const PRESCAN_BYTES: usize = 16 << 10;

/// The document's encoding: BOM, then `http_charset` (a `Content-Type`
/// header's `charset` parameter), then [`prescan`], then UTF-8 when the
/// bytes are UTF-8, else windows-1252.
pub fn sniff(bytes: &[u8], http_charset: Option<&str>) -> &'static Encoding {
    if let Some((encoding, _)) = Encoding::for_bom(bytes) {
        return encoding;
    }
    if let Some(e) = http_charset.and_then(|c| Encoding::for_label(c.trim().as_bytes())) {
        return e;
    }
    if let Some(e) = prescan(bytes) {
        return e;
    }
    if simdutf8::basic::from_utf8(bytes).is_ok() {
        UTF_8
    } else {
        WINDOWS_1252
    }
}

/// The bytes as text in `encoding` (a BOM removed, malformed sequences
/// replaced by U+FFFD), borrowed when they are UTF-8 already.
pub fn decode<'a>(bytes: &'a [u8], encoding: &'static Encoding) -> Cow<'a, str> {
    encoding.decode(bytes).0
}

/// The HTML standard's "prescan a byte stream to determine its encoding"
/// over the first [`PRESCAN_BYTES`] bytes: the first `<meta charset>` or
/// `<meta http-equiv=content-type content="...; charset=...">`, skipping
/// comments and other tags' attributes. UTF-16 found this way means UTF-8;
/// x-user-defined means windows-1252.
///
/// ```
/// use urlsift_links::encoding::prescan;
///
/// assert_eq!(prescan(b"<!-- <meta charset=koi8-r> --><meta charset=\"gbk\">").unwrap().name(), "GBK");
/// assert_eq!(prescan(b"<meta http-equiv=Content-Type content='text/html; charset=euc-jp'>").unwrap().name(), "EUC-JP");
/// assert!(prescan(b"<meta content='text/html; charset=euc-jp'>").is_none());
/// assert_eq!(prescan(b"<meta charset=utf-16le>").unwrap().name(), "UTF-8");
/// ```
pub fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    let b = &bytes[..bytes.len().min(PRESCAN_BYTES)];
    let mut pos = 0;
    while pos < b.len() {
        let rest = &b[pos..];
        if rest.starts_with(b"<!--") {
            // Skip to the end of "-->", whose "--" may be the opening's.
            match find(&b[pos + 2..], b"-->") {
                Some(end) => pos += 2 + end + 3,
                None => return None,
            }
        } else if starts_with_ci(rest, b"<meta")
            && rest.get(5).is_some_and(|&c| is_space(c) || c == b'/')
        {
            pos += 6;
            if let Some(found) = meta(b, &mut pos) {
                return Some(found);
            }
        } else if rest.len() >= 2
            && rest[0] == b'<'
            && (rest[1].is_ascii_alphabetic()
                || (rest[1] == b'/' && rest.get(2).is_some_and(|c| c.is_ascii_alphabetic())))
        {
            // A tag: skip its name, then its attributes.
            pos += 2;
            while pos < b.len() && !is_space(b[pos]) && b[pos] != b'>' {
                pos += 1;
            }
            while attribute(b, &mut pos).is_some() {}
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            match memchr::memchr(b'>', &b[pos..]) {
                Some(end) => pos += end + 1,
                None => return None,
            }
        } else {
            pos += 1;
        }
    }
    None
}

/// The attributes of a `<meta` tag from `pos` (after its name): the
/// encoding they declare, if any.
fn meta(b: &[u8], pos: &mut usize) -> Option<&'static Encoding> {
    let mut seen: Vec<Vec<u8>> = Vec::new();
    let (mut got_pragma, mut need_pragma) = (false, None::<bool>);
    let mut charset: Option<&'static Encoding> = None;
    while let Some((name, value)) = attribute(b, pos) {
        if seen.contains(&name) {
            continue;
        }
        seen.push(name.clone());
        match name.as_slice() {
            b"http-equiv" if value.eq_ignore_ascii_case(b"content-type") => got_pragma = true,
            b"content" if charset.is_none() => {
                if let Some(e) = charset_in_content(&value) {
                    charset = Some(e);
                    need_pragma = Some(true);
                }
            }
            b"charset" => {
                charset = Encoding::for_label(value.trim_ascii());
                need_pragma = Some(false);
            }
            _ => {}
        }
    }
    let need_pragma = need_pragma?;
    if need_pragma && !got_pragma {
        return None;
    }
    let charset = charset?;
    Some(if charset == UTF_16BE || charset == UTF_16LE {
        UTF_8
    } else if charset == X_USER_DEFINED {
        WINDOWS_1252
    } else {
        charset
    })
}

/// The standard's "algorithm for extracting a character encoding from a
/// meta element" over a `content` value.
fn charset_in_content(s: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0;
    loop {
        let at = find_ci(&s[pos..], b"charset")?;
        pos += at + 7;
        while pos < s.len() && is_space(s[pos]) {
            pos += 1;
        }
        if s.get(pos) != Some(&b'=') {
            continue;
        }
        pos += 1;
        while pos < s.len() && is_space(s[pos]) {
            pos += 1;
        }
        let rest = &s[pos..];
        return match rest.first() {
            Some(&q @ (b'"' | b'\'')) => {
                let end = memchr::memchr(q, &rest[1..])?;
                Encoding::for_label(&rest[1..1 + end])
            }
            Some(_) => {
                let end = rest
                    .iter()
                    .position(|&c| is_space(c) || c == b';')
                    .unwrap_or(rest.len());
                Encoding::for_label(&rest[..end])
            }
            None => None,
        };
    }
}

/// The standard's "get an attribute" at `pos`: the next attribute's name
/// (lower case) and value, or `None` at the tag's end.
fn attribute(b: &[u8], pos: &mut usize) -> Option<(Vec<u8>, Vec<u8>)> {
    while *pos < b.len() && (is_space(b[*pos]) || b[*pos] == b'/') {
        *pos += 1;
    }
    if *pos >= b.len() || b[*pos] == b'>' {
        return None;
    }
    let mut name = Vec::new();
    let mut value = Vec::new();
    // The name.
    loop {
        let c = *b.get(*pos)?;
        if c == b'=' && !name.is_empty() {
            *pos += 1;
            break;
        }
        if is_space(c) {
            while *pos < b.len() && is_space(b[*pos]) {
                *pos += 1;
            }
            if b.get(*pos) != Some(&b'=') {
                return Some((name, value));
            }
            *pos += 1;
            break;
        }
        if c == b'/' || c == b'>' {
            return Some((name, value));
        }
        name.push(c.to_ascii_lowercase());
        *pos += 1;
    }
    // The value.
    while *pos < b.len() && is_space(b[*pos]) {
        *pos += 1;
    }
    let c = *b.get(*pos)?;
    if c == b'"' || c == b'\'' {
        *pos += 1;
        loop {
            let d = *b.get(*pos)?;
            *pos += 1;
            if d == c {
                return Some((name, value));
            }
            value.push(d.to_ascii_lowercase());
        }
    }
    if c == b'>' {
        return Some((name, value));
    }
    loop {
        let d = *b.get(*pos)?;
        if is_space(d) || d == b'>' {
            return Some((name, value));
        }
        value.push(d.to_ascii_lowercase());
        *pos += 1;
    }
}

/// ASCII whitespace as the HTML standard has it (tab, LF, FF, CR, space).
pub(super) fn is_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

fn starts_with_ci(s: &[u8], prefix: &[u8]) -> bool {
    s.len() >= prefix.len() && s[..prefix.len()].eq_ignore_ascii_case(prefix)
}

fn find(s: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(s, needle)
}

fn find_ci(s: &[u8], needle: &[u8]) -> Option<usize> {
    s.windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

//! ARC files, the Internet Archive's format before WARC (version 1, and
//! the ten fields of version 2): each record is one header line, `URL
//! IP-address Archive-date Content-type Archive-length`, then
//! Archive-length bytes (an HTTP response, for `http:` records), then a
//! newline. The file starts with a `filedesc://` record, the file's own
//! description, which holds no URL (like a WARC `warcinfo` record).
//!
//! ```
//! use urlsift_warc::arc;
//!
//! let line = b"http://e.com/ 93.184.216.119 20140216050221 text/html 1591\n";
//! let h = arc::Header::parse(line).unwrap();
//! assert_eq!((h.url, h.length), (&b"http://e.com/"[..], 1591));
//! assert_eq!(h.field("archive-date"), Some(&b"20140216050221"[..]));
//! assert!(arc::Header::parse(b"WARC/1.0\r\n").is_none());
//! ```

/// The names of a version 1 header line's fields, in order.
const V1: [&str; 5] = [
    "url",
    "ip-address",
    "archive-date",
    "content-type",
    "archive-length",
];
/// The names of a version 2 header line's fields, in order.
const V2: [&str; 10] = [
    "url",
    "ip-address",
    "archive-date",
    "content-type",
    "result-code",
    "checksum",
    "location",
    "offset",
    "filename",
    "archive-length",
];

/// One ARC record's header line, read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header<'a> {
    /// The record's URL (the first field; a URL with spaces in it, as some
    /// recorders wrote them, is every field before the last four of a
    /// version 1 line).
    pub url: &'a [u8],
    /// The Archive-length: how many bytes of record follow the line.
    pub length: u64,
    fields: [&'a [u8]; 10],
    names: &'static [&'static str],
}

impl<'a> Header<'a> {
    /// Reads `line` (its line end, LF or CRLF, may be there or not) as an
    /// ARC header line: a URL with a scheme, an archive date of 12 to 14
    /// digits, and a decimal length last. `None` for anything else.
    pub fn parse(line: &'a [u8]) -> Option<Header<'a>> {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() || !line[0].is_ascii_alphabetic() {
            return None;
        }
        let mut parts: Vec<&[u8]> = line.split(|&b| b == b' ').collect();
        let names: &'static [&'static str] = if parts.len() == 10 && is_date(parts[2]) {
            &V2
        } else if parts.len() >= 5 {
            // A URL with spaces: the fields before the last four.
            let url_end = parts.len() - 4;
            let url_len = parts[..url_end].iter().map(|p| p.len() + 1).sum::<usize>() - 1;
            parts.drain(..url_end);
            parts.insert(0, &line[..url_len]);
            &V1
        } else {
            return None;
        };
        let length = std::str::from_utf8(parts[parts.len() - 1])
            .ok()
            .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))?
            .parse()
            .ok()?;
        let url = parts[0];
        let scheme = url.iter().position(|&b| b == b':')?;
        let scheme_ok = url[..scheme]
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
        if scheme == 0 || !scheme_ok || !is_date(parts[2]) {
            return None;
        }
        let mut fields: [&[u8]; 10] = [&[]; 10];
        for (slot, part) in fields.iter_mut().zip(&parts) {
            *slot = part;
        }
        Some(Header {
            url,
            length,
            fields,
            names,
        })
    }

    /// The field named `name` (case-insensitive; `url`, `ip-address`,
    /// `archive-date`, `content-type`, `archive-length`, and in version 2
    /// `result-code`, `checksum`, `location`, `offset`, `filename`).
    pub fn field(&self, name: &str) -> Option<&'a [u8]> {
        let i = self
            .names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))?;
        Some(self.fields[i])
    }

    /// Whether this is the file's own description (`filedesc://...`),
    /// which holds no URL to read.
    pub fn is_filedesc(&self) -> bool {
        self.url.len() >= 9 && self.url[..9].eq_ignore_ascii_case(b"filedesc:")
    }
}

/// Whether `field` is an archive date: 12 to 14 digits.
fn is_date(field: &[u8]) -> bool {
    (12..=14).contains(&field.len()) && field.iter().all(u8::is_ascii_digit)
}

/// Whether the line at the start of `bytes` (through its `\n`, which must
/// be there) is an ARC header line.
pub fn starts_a_header(bytes: &[u8]) -> bool {
    memchr::memchr(b'\n', bytes).is_some_and(|end| Header::parse(&bytes[..end]).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_version_1_and_2_lines() {
        let h = Header::parse(b"filedesc://x.arc 0.0.0.0 20140216050221 text/plain 75").unwrap();
        assert!(h.is_filedesc());
        assert_eq!(h.length, 75);
        // Ten fields with a date third: version 2.
        let v2 = b"http://e.com/ 1.2.3.4 20080430204825 text/html 200 ABC - 0 x.arc 42\r\n";
        let h = Header::parse(v2).unwrap();
        assert_eq!((h.url, h.length), (&b"http://e.com/"[..], 42));
        assert_eq!(h.field("result-code"), Some(&b"200"[..]));
        assert_eq!(h.field("FILENAME"), Some(&b"x.arc"[..]));
        assert_eq!(h.field("nope"), None);
        // A version 1 line whose URL has spaces.
        let h = Header::parse(b"http://e.com/a b c 1.2.3.4 20080430204825 text/html 9").unwrap();
        assert_eq!(h.url, b"http://e.com/a b c");
        assert_eq!(h.field("ip-address"), Some(&b"1.2.3.4"[..]));
        assert!(!h.is_filedesc());
    }

    #[test]
    fn refuses_other_lines() {
        for line in [
            &b"WARC/1.0"[..],
            b"",
            b"HTTP/1.1 200 OK",
            b"http://e.com/ 1.2.3.4 2008 text/html 9",
            b"http://e.com/ 1.2.3.4 20080430204825 text/html x9",
            b"http://e.com/ 1.2.3.4 20080430204825 text/html",
            b"e.com/ 1.2.3.4 20080430204825 text/html 9",
            b"<html> 1.2.3.4 20080430204825 text/html 9",
        ] {
            assert!(
                Header::parse(line).is_none(),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
        assert!(starts_a_header(
            b"dns:e.com 1.2.3.4 20080430204825 text/dns 56\nrest"
        ));
        assert!(!starts_a_header(
            b"dns:e.com 1.2.3.4 20080430204825 text/dns 56"
        ));
    }
}

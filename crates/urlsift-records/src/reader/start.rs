//! A source's start: its format resolved from its first bytes (a CSV
//! header read, a JSON default field checked, a `.log` file sniffed).

use std::sync::Arc;

use super::current::{Current, Failure, Settings};
use crate::chunk::Source;
use crate::format::{Format, Kind, csv, json, log};
use crate::setting::SettingError;
use urlsift_warc as warc;

/// The most of a `.log` file's start read to judge it by (see
/// [`sniff_log`]).
const SNIFF_BYTES: usize = 64 * 1024;

impl Current {
    /// Resolves the source's format from its first bytes: `Some((head,
    /// write_head))` once enough is read (`None`: read more).
    pub(super) fn start(
        &mut self,
        buf: &[u8],
        settings: &Settings,
        first_header: &mut Option<Vec<u8>>,
    ) -> Result<Option<(usize, bool)>, Failure> {
        let bom = if buf.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        let more = !self.eof;
        let field = settings.spec.field.as_deref();
        if let Some(encoding) = utf16_or_32(buf) {
            return Err(self.usage(format!(
                "it starts with a {encoding} byte-order mark; urlsift reads UTF-8 \
                 (convert it first: iconv -f {} -t UTF-8 FILE)",
                encoding.split(' ').next().unwrap_or(encoding)
            )));
        }
        if crate::input::zip::starts(buf) {
            // A WACZ named as a file was opened as the files it holds: a
            // ZIP here came from a pipe, or is not a WACZ.
            return Err(Failure::new(
                None,
                self.error(
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        "it is a ZIP file: a WACZ is read when named as a file (a ZIP's \
                         directory is at its end, so it cannot come through standard input or a \
                         pipe); other ZIP files: unzip them first",
                    ),
                    false,
                ),
            ));
        }
        if self.sniff_log {
            match sniff_log(&buf[bom..], more, settings.max_record) {
                Sniff::More => return Ok(None),
                Sniff::Log => self.kind = Kind::Log,
                Sniff::Lines => {}
            }
            self.sniff_log = false;
        }
        // WARC or ARC records read as URL lines would be nothing but bad
        // lines: an input read as `lines` by default (standard input, a
        // name that says nothing) that starts like one is read as one.
        if self.kind == Kind::Lines && settings.spec.kind.is_none() {
            let body = &buf[bom..];
            if more && warc::may_start_archive(body) {
                return Ok(None);
            }
            match warc::archive_start(body) {
                Some(warc::Dialect::Warc) => self.kind = Kind::Warc,
                Some(warc::Dialect::Arc) => self.kind = Kind::Arc,
                None => {}
            }
        }
        if settings.spec.delimiter.is_some() && !matches!(self.kind, Kind::Csv | Kind::Tsv) {
            return Err(self.setting(SettingError::DelimiterOfOther {
                kind: self.kind.name(),
            }));
        }
        let (format, head, write_head) = match self.kind {
            Kind::Parquet => unreachable!("Parquet sources are read by their own cursor"),
            Kind::Lines => {
                if field.is_some() {
                    return Err(self.setting(SettingError::FieldOfLines));
                }
                (Format::Lines, bom, false)
            }
            Kind::Log => match log::LogField::new(field) {
                Ok(f) => (Format::Log(f), bom, false),
                Err(e) => return Err(self.setting(e)),
            },
            // An ARC file always starts with its `filedesc://` record,
            // which no WARC file can: read as WARC, it is read as ARC.
            Kind::Warc if more && warc::may_start_archive(&buf[bom..]) => return Ok(None),
            Kind::Warc if warc::archive_start(&buf[bom..]) == Some(warc::Dialect::Arc) => {
                self.warc = Some(warc::Reader::default().dialect(warc::Dialect::Arc));
                (Format::Warc(warc::WarcField::arc(field)), bom, false)
            }
            Kind::Warc => {
                self.warc = Some(warc::Reader::default());
                (Format::Warc(warc::WarcField::new(field)), bom, false)
            }
            Kind::Arc => {
                self.warc = Some(warc::Reader::default().dialect(warc::Dialect::Arc));
                (Format::Warc(warc::WarcField::arc(field)), bom, false)
            }
            Kind::Jsonl | Kind::Cdxj => {
                let path = json::Path::new(field);
                if path.is_default() {
                    // The first record must have the default field, or the
                    // user is told which fields there are.
                    let body = &buf[bom..];
                    let line_end = memchr::memchr(b'\n', body);
                    if line_end.is_none() && more {
                        return Ok(None);
                    }
                    let line = &body[..line_end.unwrap_or(body.len())];
                    self.check_default_key(line, self.kind == Kind::Cdxj)?;
                }
                let format = if self.kind == Kind::Cdxj {
                    Format::Cdxj(path)
                } else {
                    Format::Jsonl(path)
                };
                (format, bom, false)
            }
            Kind::WaczPages => {
                // The page list's header line (`{"format": "json-pages-1.0",
                // ...}`: a format and no url) is not a page.
                let body = &buf[bom..];
                let line_end = memchr::memchr(b'\n', body);
                if line_end.is_none() && more {
                    return Ok(None);
                }
                let first = &body[..line_end.unwrap_or(body.len())];
                let header = std::str::from_utf8(first).is_ok_and(|l| {
                    let keys = json::keys_of(l.trim_end_matches('\r'));
                    keys.iter().any(|k| k == "format") && !keys.iter().any(|k| k == "url")
                });
                let head = match (header, line_end) {
                    (false, _) => bom,
                    (true, Some(end)) => bom + end + 1,
                    (true, None) => buf.len(),
                };
                (Format::Jsonl(json::Path::new(field)), head, false)
            }
            Kind::Csv | Kind::Tsv => {
                let delimiter = settings
                    .spec
                    .delimiter
                    .unwrap_or(if self.kind == Kind::Csv { b',' } else { b'\t' });
                // Blank lines before the first row are part of the head.
                let mut at = bom;
                let first = loop {
                    if at >= buf.len() {
                        if more {
                            return Ok(None);
                        }
                        break None;
                    }
                    match csv::scan_row(buf, at, delimiter, more) {
                        csv::Scan::NeedMore => return Ok(None),
                        csv::Scan::Blank { next } => at = next,
                        csv::Scan::Row { end, next, .. } | csv::Scan::Bad { end, next, .. } => {
                            break Some((at, end, next));
                        }
                    }
                };
                if settings.spec.no_header {
                    let columns =
                        first.map_or(1, |(s, e, _)| csv::Fields::new(delimiter).count(&buf[s..e]));
                    match csv::CsvLayout::new(delimiter, None, field, columns) {
                        Ok(l) => (Format::Csv(l), at, false),
                        Err(e) => return Err(self.setting(e)),
                    }
                } else {
                    let Some((s, e, next)) = first else {
                        // No header, no rows: an empty source.
                        return Ok(None);
                    };
                    let header = &buf[s..e];
                    let layout = match csv::CsvLayout::new(delimiter, Some(header), field, 0) {
                        Ok(l) => l,
                        Err(e) => return Err(self.setting(e)),
                    };
                    let write_head = match first_header {
                        None => {
                            *first_header = Some(header.to_vec());
                            true
                        }
                        Some(h) if h.as_slice() == header => false,
                        Some(h) if settings.writes_records => {
                            return Err(self.usage(format!(
                                "its header row {:?} differs from the first input's {:?}; \
                                 records written back share one header",
                                String::from_utf8_lossy(header),
                                String::from_utf8_lossy(h)
                            )));
                        }
                        Some(_) => false,
                    };
                    (Format::Csv(layout), next, write_head)
                }
            }
        };
        // An unknown `@NAME` is refused here, before any record, where
        // the format knows its fields.
        for name in &settings.spec.named {
            if let Some(Err(m)) = format.knows_field(name) {
                return Err(self.usage(format!("@{name}: {m}")));
            }
        }
        self.source = Some(Arc::new(Source {
            name: self.name.clone(),
            format,
        }));
        Ok(Some((head, write_head)))
    }

    /// The usage error for a first record without the default `url` key.
    fn check_default_key(&self, line: &[u8], cdxj: bool) -> Result<(), Failure> {
        let line = match std::str::from_utf8(line) {
            Ok(l) => l.trim_end_matches('\r'),
            Err(_) => return Ok(()),
        };
        let json = if cdxj {
            match json::cdxj_json_start(line.as_bytes()) {
                Some(s) => &line[s..],
                None => return Ok(()),
            }
        } else {
            line
        };
        if json.trim().is_empty() {
            return Ok(());
        }
        let keys = json::keys_of(json);
        if keys.is_empty() || keys.iter().any(|k| k.eq_ignore_ascii_case("url")) {
            return Ok(());
        }
        let shown: Vec<String> = keys.iter().map(|k| format!("{k:?}")).collect();
        Err(self.setting(SettingError::NoUrlKey {
            keys: shown.join(", "),
        }))
    }
}

/// What the start of a `.log` file shows.
enum Sniff {
    /// An access-log line among its first lines.
    Log,
    /// None among them (or an empty file).
    Lines,
    /// Read more to see them.
    More,
}

/// How many non-empty lines at the start of a `.log` file are looked at:
/// a log line among them makes it a log (one damaged line at the top does
/// not turn a log into URL lines, and a URL line is never a log line).
const SNIFF_LINES: usize = 16;

/// Looks for a log line among the first [`SNIFF_LINES`] non-empty lines of
/// `buf`; `more`: the source goes on. Lines are judged whole: a line not
/// yet ended is waited for, up to `max_record` bytes (`--max-line-bytes`);
/// one longer than that (a bad line, whatever the format) is judged by its
/// start ([`log::starts_like_log_line`]). Past [`SNIFF_BYTES`] of whole
/// lines, no log line among them means URL lines.
fn sniff_log(buf: &[u8], more: bool, max_record: usize) -> Sniff {
    let mut rest = buf;
    let mut seen = 0;
    while seen < SNIFF_LINES {
        let (line, next) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None if more && rest.len() > max_record => {
                return if log::starts_like_log_line(rest) {
                    Sniff::Log
                } else {
                    Sniff::Lines
                };
            }
            None if more && buf.len() - rest.len() >= SNIFF_BYTES => return Sniff::Lines,
            None if more => return Sniff::More,
            None => (rest, None),
        };
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if !line.is_empty() {
            if log::is_log_line(line) {
                return Sniff::Log;
            }
            seen += 1;
        }
        match next {
            Some(next) => rest = next,
            None => break,
        }
    }
    Sniff::Lines
}

/// The encoding a UTF-16 or UTF-32 byte-order mark at the start of `buf`
/// names (`iconv`'s name first), if there is one.
fn utf16_or_32(buf: &[u8]) -> Option<&'static str> {
    match buf {
        [0xFF, 0xFE, 0, 0, ..] => Some("UTF-32LE (little-endian UTF-32)"),
        [0, 0, 0xFE, 0xFF, ..] => Some("UTF-32BE (big-endian UTF-32)"),
        [0xFF, 0xFE, ..] => Some("UTF-16LE (little-endian UTF-16)"),
        [0xFE, 0xFF, ..] => Some("UTF-16BE (big-endian UTF-16)"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &[u8] = b"1.2.3.4 - - [01/Jan/2024:00:00:00 +0000] \"GET /x HTTP/1.1\" 200 5\n";

    #[test]
    fn a_long_first_line_is_waited_for_then_judged_whole_or_by_its_start() {
        let mut long = b"1.2.3.4 - - [01/Jan/2024:00:00:00 +0000] \"GET /".to_vec();
        long.resize(200_000, b'a');
        // Not ended yet: read on, past the 64 KiB that whole lines get.
        assert!(matches!(sniff_log(&long, true, 1 << 20), Sniff::More));
        // Longer than --max-line-bytes: its start decides.
        assert!(matches!(sniff_log(&long, true, 100_000), Sniff::Log));
        let mut urls = b"https://example.com/".to_vec();
        urls.resize(200_000, b'a');
        assert!(matches!(sniff_log(&urls, true, 100_000), Sniff::Lines));
        // Ended: the whole line decides.
        long.extend_from_slice(b" HTTP/1.1\" 414 0\n");
        assert!(matches!(sniff_log(&long, true, 1 << 20), Sniff::Log));
        // Many URL lines, then a log line past the window: URL lines.
        let mut many = b"https://example.com/\n".repeat(4000);
        assert!(matches!(sniff_log(&many, true, 1 << 20), Sniff::Lines));
        many.truncate(40);
        assert!(matches!(sniff_log(&many, true, 1 << 20), Sniff::More));
        assert!(matches!(sniff_log(LOG, false, 1 << 20), Sniff::Log));
    }

    #[test]
    fn byte_order_marks_of_other_encodings_are_named() {
        assert_eq!(
            utf16_or_32(b"\xFF\xFEh\0"),
            Some("UTF-16LE (little-endian UTF-16)")
        );
        assert_eq!(
            utf16_or_32(b"\xFE\xFF\0h"),
            Some("UTF-16BE (big-endian UTF-16)")
        );
        assert_eq!(
            utf16_or_32(b"\xFF\xFE\0\0h\0\0\0"),
            Some("UTF-32LE (little-endian UTF-32)")
        );
        assert_eq!(utf16_or_32(b"\xEF\xBB\xBFhttp://e.com/"), None);
        assert_eq!(utf16_or_32(LOG), None);
    }
}

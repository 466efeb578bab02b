//! A source's start: its format resolved from its first bytes (a CSV
//! header read, a JSON default field checked, a `.log` file sniffed).

use std::sync::Arc;

use super::current::{Current, Failure, Settings};
use crate::chunk::Source;
use crate::format::{Begun, Opening, StartError};

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
        let mut opening = Opening {
            buf,
            bom,
            more,
            spec: &settings.spec,
            writes_records: settings.writes_records,
            first_header,
        };
        match self
            .kind
            .recognize(&opening, self.sniff_log, settings.max_record)
        {
            Some(kind) => (self.kind, self.sniff_log) = (kind, false),
            None => return Ok(None),
        }
        let (format, head, write_head) = match self.kind.start(&mut opening) {
            Ok(Begun::Format {
                format,
                head,
                write_head,
            }) => (format, head, write_head),
            Ok(Begun::More | Begun::Empty) => return Ok(None),
            Err(StartError::Setting(e)) => return Err(self.setting(e)),
            Err(StartError::Usage(m)) => return Err(self.usage(m)),
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

//! CSV and TSV (RFC 4180 quoting, with `\t` as TSV's delimiter): where rows
//! begin and end, which field holds the URL, and writing a field back.
//!
//! Two tools, one rule book (rows in `rows.rs`, fields here). The csv crate's own parser (`csv_core`, field
//! by field) reads each row's fields: it reports how many raw bytes each
//! one spans, so a row is written back with only the URL field's bytes
//! changed (in rows with quotes the workers find the URL field with a
//! search per field, `quoted_field`, and the crate only where that
//! cannot tell). Row boundaries come from `scan_row`, a memchr-driven
//! scan that the workers run to delimit each row, and that the reader
//! runs over a chunk when it must find the last row that ends there and
//! one SIMD pass of quote parity (`cut_fast`) cannot answer (a quote out
//! of place); it follows `csv_core`'s rules (a quote opens
//! a quoted field only at the field's start; `""` inside one is a quote;
//! `\r`, `\n` and `\r\n` end a row outside quotes; blank lines are not
//! rows), and the tests hold it to the crate on generated input.
//!
//! One rule is ours: a quote must close where its field ends. `csv_core`
//! prefers *a* parse to none, so an opening quote left unclosed swallows
//! every line up to the next quote in the file. Here a quoted field whose
//! closing quote is not followed by a delimiter or a row end, or that never
//! closes, makes a bad row that ends with the line where the quote opened;
//! reading resumes on the next line.
//!
//! ```
//! use urlsift_records::SettingError;
//! use urlsift_records::format::csv::CsvLayout;
//!
//! let layout = CsvLayout::new(b',', Some(b"id,Link,title\n"), Some("link"), 0).unwrap();
//! assert_eq!(layout.column, 1); // names match in any case
//! assert_eq!(layout.named(b"7,http://e.com/,\"a, \"\"b\"\"\"", "title").unwrap(), "a, \"b\"");
//! // Without a field named, the column named `url`; without a header, column 1.
//! let err = CsvLayout::new(b',', Some(b"id,link\n"), None, 0).unwrap_err();
//! assert!(matches!(err, SettingError::NoUrlColumn { split_by: None, .. }));
//! assert_eq!(CsvLayout::new(b'\t', None, None, 3).unwrap().names, ["1", "2", "3"]);
//! // A `;` export read with `,` says which delimiter would split it.
//! let err = CsvLayout::new(b',', Some(b"id;url\n"), None, 0).unwrap_err();
//! assert!(err.to_string().contains("`delimiter = ';'`"), "{err}");
//! assert_eq!(CsvLayout::new(b';', Some(b"id;url\n"), None, 0).unwrap().column, 1);
//! ```

use std::borrow::Cow;

use csv_core::{ReadFieldResult, Reader, ReaderBuilder};

use urlsift_simd::Kernel;

use super::record::{Found, Rec, Shape};
use super::{Begun, Format, Opening, RecordFormat, StartError, View, Visit};
use crate::reason::Reason;
use crate::setting::SettingError;

/// A CSV/TSV source's layout: its delimiter, the header's bytes and
/// names, and the URL column.
#[derive(Debug, Clone)]
pub struct CsvLayout {
    /// `,` for CSV, a tab for TSV.
    pub delimiter: u8,
    /// Column names from the header (or `1`, `2`, ... without one).
    pub names: Vec<String>,
    /// The URL column, 0-based.
    pub column: usize,
}

mod ahead;
mod rows;

pub(crate) use ahead::Ahead;
use rows::terminator_end;
pub(crate) use rows::{Cut, Parity, Scan, cut, cut_fast, parity, scan_row};

/// For a header read as one column, another delimiter that would split
/// it (`;` and `|` exports are common), as the delimiter setting takes it.
fn splitting_delimiter(names: &[String], delimiter: u8) -> Option<String> {
    let [name] = names else {
        return None;
    };
    [b';', b'|', b'\t', b',']
        .into_iter()
        .filter(|&d| d != delimiter)
        .find(|&d| name.as_bytes().contains(&d))
        .map(|d| {
            if d == b'\t' {
                "\\t".to_string()
            } else {
                (d as char).to_string()
            }
        })
}

impl CsvLayout {
    /// The layout of a source whose header row (when it has one) is
    /// `header`. `field`: `--field` (a column name or 1-based number);
    /// by default the column named `url` (case-insensitive), or the first
    /// column without a header.
    pub fn new(
        delimiter: u8,
        header: Option<&[u8]>,
        field: Option<&str>,
        columns: usize,
    ) -> Result<CsvLayout, SettingError> {
        let names: Vec<String> = match header {
            Some(h) => {
                let mut rdr = ::csv::ReaderBuilder::new()
                    .has_headers(false)
                    .delimiter(delimiter)
                    .flexible(true)
                    .from_reader(h);
                let mut record = ::csv::ByteRecord::new();
                match rdr.read_byte_record(&mut record) {
                    Ok(true) => record
                        .iter()
                        .map(|f| String::from_utf8_lossy(f).into_owned())
                        .collect(),
                    _ => Vec::new(),
                }
            }
            None => (1..=columns.max(1)).map(|i| i.to_string()).collect(),
        };
        let shown = || {
            names
                .iter()
                .map(|n| format!("{n:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let column = match field {
            Some(f) => match f.parse::<usize>() {
                Ok(n) if n >= 1 => n - 1,
                Ok(_) => return Err(SettingError::ColumnZero),
                Err(_) if header.is_none() => {
                    return Err(SettingError::NameWithoutHeader {
                        field: f.to_string(),
                    });
                }
                Err(_) => names
                    .iter()
                    .position(|n| n == f)
                    .or_else(|| names.iter().position(|n| n.eq_ignore_ascii_case(f)))
                    .ok_or_else(|| SettingError::NoSuchColumn {
                        field: f.to_string(),
                        columns: shown(),
                        split_by: splitting_delimiter(&names, delimiter),
                    })?,
            },
            None if header.is_none() => 0,
            None => names
                .iter()
                .position(|n| n.trim().eq_ignore_ascii_case("url"))
                .ok_or_else(|| SettingError::NoUrlColumn {
                    columns: shown(),
                    split_by: splitting_delimiter(&names, delimiter),
                })?,
        };
        Ok(CsvLayout {
            delimiter,
            names,
            column,
        })
    }

    /// The 0-based column `name` denotes (a header name or a number).
    fn column_of(&self, name: &str) -> Option<usize> {
        match name.parse::<usize>() {
            Ok(n) if n >= 1 => Some(n - 1),
            _ => self
                .names
                .iter()
                .position(|n| n == name)
                .or_else(|| self.names.iter().position(|n| n.eq_ignore_ascii_case(name))),
        }
    }

    /// Whether there is a column `name` (a header name in any case, or a
    /// number from 1), or why not, naming the columns.
    pub fn knows(&self, name: &str) -> Result<(), String> {
        match self.column_of(name) {
            Some(_) => Ok(()),
            None => {
                let shown: Vec<String> = self.names.iter().map(|n| format!("{n:?}")).collect();
                Err(format!(
                    "no column {name:?} (columns: {})",
                    shown.join(", ")
                ))
            }
        }
    }

    /// The decoded value of column `name` in `row` (`extract --fields @NAME`).
    pub fn named<'a>(&self, row: &'a [u8], name: &str) -> Option<Cow<'a, str>> {
        let column = self.column_of(name)?;
        let mut fields = Fields::new(self.delimiter);
        let (span, value) = fields.nth(row, column)?;
        let _ = span;
        Some(match value {
            Cow::Borrowed(b) => String::from_utf8_lossy(b),
            Cow::Owned(v) => Cow::Owned(String::from_utf8_lossy(&v).into_owned()),
        })
    }
}

/// One field of a row: the raw bytes it spans (quotes included), and its
/// value.
type Field<'a> = ((usize, usize), Cow<'a, [u8]>);

/// Reads one row's fields with the csv crate's parser.
pub(crate) struct Fields {
    reader: Reader,
    scratch: Vec<u8>,
}

impl Fields {
    /// A reader of rows with `delimiter`.
    pub fn new(delimiter: u8) -> Fields {
        Fields {
            reader: ReaderBuilder::new().delimiter(delimiter).build(),
            scratch: Vec::new(),
        }
    }

    /// How many fields `row` has.
    pub fn count(&mut self, row: &[u8]) -> usize {
        let mut n = 0;
        while self.nth(row, n).is_some() {
            n += 1;
        }
        n
    }

    /// Field `n` (0-based) of `row` (one row, without its terminator): the
    /// raw bytes it spans, and its value (borrowed from `row` when it has
    /// no quotes to undo). `None` for a row with fewer fields.
    pub fn nth<'a>(&mut self, row: &'a [u8], n: usize) -> Option<Field<'a>> {
        self.reader.reset();
        if self.scratch.len() < row.len() {
            self.scratch.resize(row.len(), 0);
        }
        let mut at = 0;
        let mut index = 0;
        loop {
            let input = &row[at..];
            let (result, nin, nout) = self.reader.read_field(input, &mut self.scratch);
            let (record_end, nin, nout) = match result {
                ReadFieldResult::Field { record_end } => (record_end, nin, nout),
                // The row is all there: an empty input ends its last field.
                ReadFieldResult::InputEmpty => {
                    let (r, _, more_out) = self.reader.read_field(&[], &mut self.scratch[nout..]);
                    match r {
                        ReadFieldResult::Field { .. } => (true, nin, nout + more_out),
                        _ => return None,
                    }
                }
                ReadFieldResult::End => return None,
                ReadFieldResult::OutputFull => unreachable!("the scratch holds the whole row"),
            };
            // The raw span, without the delimiter that ended it.
            let raw_end = if record_end { at + nin } else { at + nin - 1 };
            if index == n {
                let raw = &row[at..raw_end];
                let value = if raw.first() == Some(&b'"') {
                    if nout + 2 == raw.len() {
                        Cow::Borrowed(&raw[1..raw.len() - 1])
                    } else {
                        Cow::Owned(self.scratch[..nout].to_vec())
                    }
                } else {
                    Cow::Borrowed(raw)
                };
                return Some(((at, raw_end), value));
            }
            if record_end {
                return None;
            }
            at += nin;
            index += 1;
        }
    }
}

/// Field `n` (0-based) of a row without quotes: the run between
/// delimiters (what the csv crate's parser reads there, as the tests
/// check); `None` for a row with fewer fields.
#[inline]
fn plain_field(row: &[u8], n: usize, delimiter: u8) -> Option<(usize, usize)> {
    let mut start = 0;
    for _ in 0..n {
        start += memchr::memchr(delimiter, &row[start..])? + 1;
    }
    let end = memchr::memchr(delimiter, &row[start..]).map_or(row.len(), |i| start + i);
    Some((start, end))
}

/// The line ends in `bytes` as CSV counts them: LF, CRLF and a lone CR
/// (so line numbers do not depend on how a file's lines end, nor on where
/// chunks are cut; a CR at the end of `bytes` is lone, as chunks are never
/// cut inside a CRLF).
pub(crate) fn line_ends(bytes: &[u8]) -> u64 {
    let lf = memchr::memchr_iter(b'\n', bytes).count();
    let lone_cr = if memchr::memchr(b'\r', bytes).is_none() {
        0
    } else {
        memchr::memchr_iter(b'\r', bytes)
            .filter(|&i| bytes.get(i + 1) != Some(&b'\n'))
            .count()
    };
    (lf + lone_cr) as u64
}

/// What `quoted_field` found.
enum Walked<'a> {
    Field(Field<'a>),
    /// The row has fewer fields.
    Short,
    /// Not a row `scan_row` passed: the csv crate's parser decides.
    Unsure,
}

/// Field `n` of a row that `scan_row` passed with quotes in it, walked
/// field by field with a search per field (the csv crate's parser steps
/// a state machine per byte): a field that starts with a quote runs to
/// the quote that closes it (`""` inside is a quote), which the scan made
/// sure a delimiter or the row's end follows; any other field runs to the
/// next delimiter, quotes in it being data. The same spans and values as
/// [`Fields::nth`], which the walk's tests hold it to.
#[inline]
fn quoted_field(row: &[u8], n: usize, delimiter: u8) -> Walked<'_> {
    let mut start = 0;
    let mut index = 0;
    loop {
        let (end, value) = if row.get(start) == Some(&b'"') {
            let mut i = start + 1;
            let mut doubled = false;
            let close = loop {
                let Some(q) = memchr::memchr(b'"', &row[i..]).map(|q| i + q) else {
                    return Walked::Unsure;
                };
                if row.get(q + 1) == Some(&b'"') {
                    doubled = true;
                    i = q + 2;
                } else {
                    break q;
                }
            };
            if close + 1 < row.len() && row[close + 1] != delimiter {
                return Walked::Unsure;
            }
            let inner = &row[start + 1..close];
            let value = if doubled {
                let mut v = Vec::with_capacity(inner.len());
                let mut rest = inner;
                while let Some(q) = memchr::memchr(b'"', rest) {
                    // A doubled quote: keep one.
                    v.extend_from_slice(&rest[..=q]);
                    rest = &rest[q + 2..];
                }
                v.extend_from_slice(rest);
                Cow::Owned(v)
            } else {
                Cow::Borrowed(inner)
            };
            (close + 1, value)
        } else {
            let end = memchr::memchr(delimiter, &row[start..]).map_or(row.len(), |d| start + d);
            (end, Cow::Borrowed(&row[start..end]))
        };
        if index == n {
            return Walked::Field(((start, end), value));
        }
        if end >= row.len() {
            return Walked::Short;
        }
        start = end + 1;
        index += 1;
    }
}

/// The start of a CSV (`tsv`: TSV) source: its header row read and the
/// URL column found (blank lines before the first row are part of the
/// head); under `--no-header`, the columns counted in the first row.
pub(crate) fn start(tsv: bool, opening: &mut Opening<'_>) -> Result<Begun, StartError> {
    let (buf, more, field) = (opening.buf, opening.more, opening.spec.field.as_deref());
    let delimiter = opening
        .spec
        .delimiter
        .unwrap_or(if tsv { b'\t' } else { b',' });
    let mut at = opening.bom;
    let first = loop {
        if at >= buf.len() {
            if more {
                return Ok(Begun::More);
            }
            break None;
        }
        match scan_row(buf, at, delimiter, more) {
            Scan::NeedMore => return Ok(Begun::More),
            Scan::Blank { next } => at = next,
            Scan::Row { end, next, .. } | Scan::Bad { end, next, .. } => {
                break Some((at, end, next));
            }
        }
    };
    if opening.spec.no_header {
        let columns = first.map_or(1, |(s, e, _)| Fields::new(delimiter).count(&buf[s..e]));
        let layout = CsvLayout::new(delimiter, None, field, columns)?;
        return Ok(Begun::Format {
            format: Format::Csv(layout),
            head: at,
            write_head: false,
        });
    }
    let Some((s, e, next)) = first else {
        // No header, no rows: an empty source.
        return Ok(Begun::Empty);
    };
    let header = &buf[s..e];
    let layout = CsvLayout::new(delimiter, Some(header), field, 0)?;
    let write_head = match opening.first_header {
        None => {
            *opening.first_header = Some(header.to_vec());
            true
        }
        Some(h) if h.as_slice() == header => false,
        Some(h) if opening.writes_records => {
            return Err(StartError::Usage(format!(
                "its header row {:?} differs from the first input's {:?}; records written \
                 back share one header",
                String::from_utf8_lossy(header),
                String::from_utf8_lossy(h)
            )));
        }
        Some(_) => false,
    };
    Ok(Begun::Format {
        format: Format::Csv(layout),
        head: next,
        write_head,
    })
}

impl RecordFormat for CsvLayout {
    #[inline(never)]
    fn walk<K: Kernel, V: Visit>(&self, _k: K, view: View<'_>, v: &mut V) -> u64 {
        let mut count = 0;
        walk(self, view, |rec, found| {
            count += 1;
            v.record(&rec, found)
        });
        count
    }

    fn knows_field(&self, name: &str) -> Option<Result<(), String>> {
        Some(self.knows(name))
    }

    fn named<'a>(&self, rec: &Rec<'a>, name: &str) -> Option<Cow<'a, str>> {
        CsvLayout::named(self, rec.raw(), name)
    }

    /// Quote parity finds the cut in one pass over the data where quotes
    /// sit as RFC 4180 puts them; otherwise rows are walked.
    fn cut(&self, data: &[u8], eof: bool, max_record: usize) -> super::Cut {
        if !eof && let Some((n, ends)) = cut_fast(data, self.delimiter) {
            return super::Cut::Records(n, Some(ends));
        }
        match cut(data, self.delimiter, !eof, max_record) {
            Cut::Rows(n) => super::Cut::Records(n, None),
            Cut::None if eof && !data.is_empty() => super::Cut::Records(data.len(), None),
            Cut::None => super::Cut::None,
            Cut::Oversize => super::Cut::Oversize,
        }
    }

    /// A row may hold line ends in quoted fields.
    fn one_per_line(&self) -> bool {
        false
    }

    /// CSV counts a lone CR as a line end, as its rows do.
    fn line_ends(&self, bytes: &[u8]) -> u64 {
        line_ends(bytes)
    }

    fn ends_line(&self, bytes: &[u8]) -> bool {
        bytes.ends_with(b"\n") || bytes.ends_with(b"\r")
    }

    fn ahead(&self, chunk_size: usize, threads: usize) -> Option<Ahead> {
        Ahead::new(self.delimiter, chunk_size, threads)
    }
}

/// Walks the rows of `view` (a chunk of a CSV/TSV source), calling `each`
/// with every row and its URL field; stops when `each` returns false.
/// Blank lines are empty records.
pub(crate) fn walk<'a>(
    layout: &CsvLayout,
    view: View<'a>,
    mut each: impl FnMut(Rec<'a>, Found<'a>) -> bool,
) {
    let View {
        data,
        head,
        first_line,
        offset,
        truncated,
        ..
    } = view;
    let mut fields = Fields::new(layout.delimiter);
    // Fields are cut at ASCII bytes: when the whole chunk is UTF-8 without
    // NUL, every field is, and none is checked again.
    let clean = if memchr::memchr(0, data).is_none() {
        simdutf8::basic::from_utf8(data).ok()
    } else {
        None
    };
    let mut at = head;
    let mut line = first_line;
    let shape = Shape::Csv {
        delimiter: layout.delimiter,
    };
    let mut next_quote = head;
    if head < data.len() {
        next_quote = memchr::memchr(b'"', &data[head..]).map_or(data.len(), |q| head + q);
    }
    while at < data.len() {
        // Before the chunk's next quote, a row is a line (ended by LF, CRLF
        // or a lone CR): one search, the quote search shared by many rows.
        if next_quote < at {
            next_quote = memchr::memchr(b'"', &data[at..]).map_or(data.len(), |q| at + q);
        }
        let scan = match memchr::memchr2(b'\r', b'\n', &data[at..next_quote]) {
            Some(i) if i > 0 => match terminator_end(data, at + i, false) {
                Some(next) => Scan::Row {
                    end: at + i,
                    next,
                    quoted: false,
                },
                None => scan_row(data, at, layout.delimiter, false),
            },
            _ => scan_row(data, at, layout.delimiter, false),
        };
        let mut rec = Rec {
            data,
            start: at,
            end: at,
            next: at,
            line,
            offset: offset + at as u64,
            field: (at, at),
            shape,
        };
        let found = match scan {
            Scan::Blank { next } => {
                rec.next = next;
                Found::Empty
            }
            Scan::Bad { end, next, reason } => {
                (rec.end, rec.next) = (end, next);
                Found::Bad(reason)
            }
            Scan::NeedMore => unreachable!("a chunk is scanned as complete"),
            Scan::Row { end, next, .. } if next == end && truncated => {
                (rec.end, rec.next) = (end, next);
                Found::Bad(Reason::Truncated)
            }
            Scan::Row { end, next, quoted } => {
                (rec.end, rec.next) = (end, next);
                let row = &data[at..end];
                // Fields before a row's first quote are plain runs too.
                let plain = plain_field(row, layout.column, layout.delimiter)
                    .filter(|&(_, e)| !quoted || at + e <= next_quote);
                let field = match plain {
                    Some((s, e)) => Some(((s, e), Cow::Borrowed(&row[s..e]))),
                    None if quoted => match quoted_field(row, layout.column, layout.delimiter) {
                        Walked::Field(f) => Some(f),
                        Walked::Short => None,
                        Walked::Unsure => fields.nth(row, layout.column),
                    },
                    None => None,
                };
                match field {
                    None => Found::Bad(Reason::MissingField),
                    Some(((s, e), value)) => {
                        rec.field = (at + s, at + e);
                        match (&value, clean) {
                            (Cow::Borrowed(_), Some(text)) if s < e => {
                                let raw = if quoted && row[s] == b'"' {
                                    (at + s + 1, at + e - 1)
                                } else {
                                    (at + s, at + e)
                                };
                                match text.get(raw.0..raw.1) {
                                    Some("") => Found::Empty,
                                    Some(t) => Found::Url(Cow::Borrowed(t)),
                                    None => text_of(value),
                                }
                            }
                            _ => text_of(value),
                        }
                    }
                }
            }
        };
        // Rows end in LF, CRLF or a lone CR, each a line end; quoted
        // fields may hold more.
        line += match scan {
            Scan::Row { quoted: false, .. } | Scan::Blank { .. } => u64::from(matches!(
                data.get(rec.next.wrapping_sub(1)),
                Some(b'\n' | b'\r')
            )),
            _ => line_ends(&data[at..rec.next]),
        };
        if !each(rec, found) {
            return;
        }
        at = rec.next;
    }
}

/// A field's value as the URL's text: empty, text, or not text.
#[inline]
fn text_of(value: Cow<'_, [u8]>) -> Found<'_> {
    if value.is_empty() {
        return Found::Empty;
    }
    match value {
        Cow::Borrowed(b) => match simdutf8::basic::from_utf8(b) {
            Ok(text) if memchr::memchr(0, b).is_none() => Found::Url(Cow::Borrowed(text)),
            Ok(_) => Found::Bad(Reason::NulByte),
            Err(_) => Found::Bad(Reason::InvalidUtf8),
        },
        Cow::Owned(v) => match String::from_utf8(v) {
            Ok(text) if !text.contains('\0') => Found::Url(Cow::Owned(text)),
            Ok(_) => Found::Bad(Reason::NulByte),
            Err(_) => Found::Bad(Reason::InvalidUtf8),
        },
    }
}

#[cfg(test)]
mod tests;

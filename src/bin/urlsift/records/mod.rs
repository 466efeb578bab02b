//! Record formats: where the URL lives in each input record, and how a
//! record goes back out with that URL changed.
//!
//! The pipeline is input → records → URL field → operation → output. A
//! format owns the first two arrows and the last: it cuts a source into
//! record-aligned chunks (for the reader: a line end for the line formats,
//! [`csv::cut_fast`] and [`csv::cut`] for CSV, the record index of
//! [`warc::Reader`]), walks a chunk's
//! records and finds each one's URL field ([`walk`]), and writes a record
//! back with that field replaced or new fields appended ([`Rec`]). The
//! operations (normalize, dedup, extract, check, stats) see a [`Rec`] and
//! the URL's text, never a format.
//!
//! | format | a record | the URL field (default) | written back |
//! |---|---|---|---|
//! | `lines` | a line | the line | as the URL line |
//! | `csv`, `tsv` | an RFC 4180 row | the column named `url` | the row, that field replaced |
//! | `jsonl` | a line holding a JSON object | the key `url` (or a dotted path) | the line, that value replaced |
//! | `cdxj` | `SURT TIMESTAMP {json}` | the JSON block's `url` | the line, that value replaced |
//! | `warc` | a WARC record's header block | `WARC-Target-URI` | read-only: URL lines |
//! | `log` | an Apache/nginx common or combined log line | the request target | read-only: URL lines |

use std::borrow::Cow;
use std::fmt;
use std::path::Path;

use crate::input::Reason;

pub mod csv;
pub mod json;
mod json_fast;
pub mod log;
pub mod warc;

/// The input formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One URL per line.
    Lines,
    /// Comma-separated values (RFC 4180), with a header row unless --no-header.
    Csv,
    /// Tab-separated values, quoted like CSV.
    Tsv,
    /// JSON Lines: one JSON object per line.
    Jsonl,
    /// Common Crawl CDXJ index lines: `SURT TIMESTAMP {json}`.
    Cdxj,
    /// WARC 1.0/1.1 records (plain or gzip per record); read-only.
    Warc,
    /// Apache/nginx common or combined access log lines; read-only.
    Log,
}

impl Kind {
    /// The name `--input-format` takes.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Lines => "lines",
            Kind::Csv => "csv",
            Kind::Tsv => "tsv",
            Kind::Jsonl => "jsonl",
            Kind::Cdxj => "cdxj",
            Kind::Warc => "warc",
            Kind::Log => "log",
        }
    }

    /// The format a file name implies: its extension after any `.gz` or
    /// `.zst`; `lines` when none matches (and for standard input).
    pub fn from_path(path: &Path) -> Kind {
        match extension(path).as_deref() {
            Some("csv") => Kind::Csv,
            Some("tsv" | "tab") => Kind::Tsv,
            Some("jsonl" | "ndjson") => Kind::Jsonl,
            Some("cdxj") => Kind::Cdxj,
            Some("warc") => Kind::Warc,
            _ => Kind::Lines,
        }
    }

    /// Whether records go back out as they came in (with the URL field
    /// changed); the others write URL lines.
    pub fn writes_records(self) -> bool {
        matches!(self, Kind::Csv | Kind::Tsv | Kind::Jsonl | Kind::Cdxj)
    }

    /// What one record is called in messages.
    pub fn record_noun(self) -> &'static str {
        match self {
            Kind::Lines => "line",
            Kind::Csv | Kind::Tsv => "row",
            Kind::Warc => "WARC record",
            Kind::Jsonl | Kind::Cdxj | Kind::Log => "record",
        }
    }
}

/// A file name's extension after any `.gz` or `.zst`, lowercase.
fn extension(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    let name = name
        .strip_suffix(".gz")
        .or_else(|| name.strip_suffix(".zst"))
        .unwrap_or(&name);
    name.rsplit_once('.').map(|(_, ext)| ext.to_string())
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The format flags, as given.
#[derive(Clone, Debug, Default)]
pub struct Spec {
    /// `None`: pick by file extension.
    pub kind: Option<Kind>,
    /// `--field`: which field holds the URL.
    pub field: Option<String>,
    /// CSV/TSV without a header row.
    pub no_header: bool,
}

impl Spec {
    /// The format of the source at `path` (`-` is standard input).
    pub fn kind_for(&self, path: &Path) -> Kind {
        match self.kind {
            Some(k) => k,
            None if path == Path::new("-") => Kind::Lines,
            None => Kind::from_path(path),
        }
    }

    /// Whether the source at `path` is a `.log` file read with `auto`:
    /// its first lines decide between `log` and `lines` (see
    /// [`log::is_log_line`]), since `.log` files hold either.
    pub fn sniffs_log(&self, path: &Path) -> bool {
        self.kind.is_none() && extension(path).as_deref() == Some("log")
    }
}

/// A source's format once its first bytes have been seen: the CSV header
/// read and the URL column found, and so on.
#[derive(Debug)]
pub enum Format {
    Lines,
    Csv(csv::Layout),
    Jsonl(json::Path),
    Cdxj(json::Path),
    Warc(warc::Field),
    Log(log::Field),
}

impl Format {
    pub fn kind(&self) -> Kind {
        match self {
            Format::Lines => Kind::Lines,
            Format::Csv(l) if l.delimiter == b'\t' => Kind::Tsv,
            Format::Csv(_) => Kind::Csv,
            Format::Jsonl(_) => Kind::Jsonl,
            Format::Cdxj(_) => Kind::Cdxj,
            Format::Warc(_) => Kind::Warc,
            Format::Log(_) => Kind::Log,
        }
    }

    /// The value of another field of `rec` (`extract --fields @NAME`), or
    /// `None` when the record has no such field.
    pub fn named<'a>(&self, rec: &Rec<'a>, name: &str) -> Option<Cow<'a, str>> {
        let raw = rec.raw();
        match self {
            Format::Lines => None,
            Format::Csv(l) => l.named(raw, name),
            Format::Jsonl(_) => json::named(raw, name),
            Format::Cdxj(_) => json::named(&raw[json::cdxj_json_start(raw)?..], name),
            Format::Warc(_) => warc::named(raw, name),
            Format::Log(_) => log::named(raw, name),
        }
    }
}

/// How a record is written back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The URL is the record: written as a URL line.
    Line,
    /// A CSV/TSV row: the field re-quoted when the new value needs it (or
    /// was quoted before).
    Csv { delimiter: u8 },
    /// A JSON string value; `close` is where the record's top-level
    /// object ends (its `}`), for appended keys.
    Json { close: usize },
    /// A read-only format: records go out as URL lines.
    ReadOnly,
}

/// One record of a chunk, as the operations see it: where it sits, its
/// URL field, and how to write it back. Positions index the chunk's data.
#[derive(Clone, Copy, Debug)]
pub struct Rec<'a> {
    pub data: &'a [u8],
    /// The record, without its terminator.
    pub start: usize,
    pub end: usize,
    /// After the record's terminator (`\n`, `\r\n`, or nothing at the end);
    /// `end` for lines, which are written with the output's terminator.
    pub next: usize,
    /// The 1-based line (within its source) where the record starts; 0
    /// where lines are not counted (WARC).
    pub line: u64,
    /// Where the record starts in its source (after decompression).
    pub offset: u64,
    /// The URL field's raw bytes (quotes and escapes included).
    pub field: (usize, usize),
    pub shape: Shape,
}

impl<'a> Rec<'a> {
    /// The record's bytes, without the terminator.
    #[inline(always)]
    pub fn raw(&self) -> &'a [u8] {
        &self.data[self.start..self.end]
    }

    /// The record's bytes with its terminator.
    pub fn raw_with_terminator(&self) -> &'a [u8] {
        &self.data[self.start..self.next]
    }

    /// Whether writing `url` back would leave the record's bytes as they
    /// are: `url` is the field's text (by address or by value).
    #[inline(always)]
    pub fn is_own_text(url: &str, text: &str) -> bool {
        std::ptr::eq(url, text) || url == text
    }

    /// Appends the record with its URL field replaced by `url`, then its
    /// terminator (for URL lines, `terminator`; records keep their own,
    /// and a last record without one gets `\n`).
    #[inline(always)]
    pub fn write_url(&self, out: &mut Vec<u8>, url: &str, terminator: u8) {
        match self.shape {
            Shape::Line | Shape::ReadOnly => {
                out.extend_from_slice(url.as_bytes());
                out.push(terminator);
            }
            Shape::Csv { delimiter } => {
                out.extend_from_slice(&self.data[self.start..self.field.0]);
                let was_quoted = self.data.get(self.field.0) == Some(&b'"');
                csv::write_field(out, url.as_bytes(), delimiter, was_quoted);
                out.extend_from_slice(&self.data[self.field.1..self.next]);
                self.end_line(out);
            }
            Shape::Json { .. } => {
                out.extend_from_slice(&self.data[self.start..self.field.0]);
                json::write_string(out, url);
                out.extend_from_slice(&self.data[self.field.1..self.next]);
                self.end_line(out);
            }
        }
    }

    /// Appends the record exactly as it came in (a last record without a
    /// terminator gets `\n`; a URL line gets `terminator`).
    pub fn write_unchanged(&self, out: &mut Vec<u8>, terminator: u8) {
        match self.shape {
            Shape::Line | Shape::ReadOnly => {
                out.extend_from_slice(self.raw());
                out.push(terminator);
            }
            _ => {
                out.extend_from_slice(self.raw_with_terminator());
                self.end_line(out);
            }
        }
    }

    /// The record's bytes to copy as a run of input when it is written
    /// unchanged, if it can be (it ends with the terminator output uses).
    #[inline(always)]
    pub fn unchanged_run(&self, terminator: u8) -> Option<std::ops::Range<usize>> {
        match self.shape {
            // A line and its "\n" (not "\r\n", not a missing final
            // newline) are the output record.
            Shape::Line if terminator == b'\n' && self.data.get(self.end) == Some(&b'\n') => {
                Some(self.start..self.end + 1)
            }
            Shape::Csv { .. } | Shape::Json { .. } if self.next > self.end => {
                Some(self.start..self.next)
            }
            _ => None,
        }
    }

    /// Appends the record with `values` added as new fields (CSV columns,
    /// JSON keys named `names`), then its terminator. Only for formats
    /// that write records.
    pub fn write_appended<'v>(
        &self,
        out: &mut Vec<u8>,
        names: &[String],
        values: impl Iterator<Item = Cow<'v, str>>,
    ) {
        match self.shape {
            Shape::Csv { delimiter } => {
                out.extend_from_slice(self.raw());
                for v in values {
                    out.push(delimiter);
                    csv::write_field(out, v.as_bytes(), delimiter, false);
                }
                out.extend_from_slice(&self.data[self.end..self.next]);
                self.end_line(out);
            }
            Shape::Json { close } => {
                out.extend_from_slice(&self.data[self.start..close]);
                let empty = json::object_is_empty(&self.data[self.start..close]);
                for (i, (name, v)) in names.iter().zip(values).enumerate() {
                    if i > 0 || !empty {
                        out.push(b',');
                    }
                    json::write_string(out, name);
                    out.push(b':');
                    json::write_string(out, &v);
                }
                out.extend_from_slice(&self.data[close..self.next]);
                self.end_line(out);
            }
            Shape::Line | Shape::ReadOnly => unreachable!("--append is refused for URL lines"),
        }
    }

    fn end_line(&self, out: &mut Vec<u8>) {
        if self.next == self.end {
            out.push(b'\n');
        }
    }
}

/// What a format found in one record.
pub enum Found<'a> {
    /// The URL field's text (JSON escapes decoded).
    Url(Cow<'a, str>),
    /// No URL to parse: an empty line, an empty field, a WARC record
    /// without the header. Counted, never parsed.
    Empty,
    /// Not a usable record.
    Bad(Reason),
}

/// Walks the records of `data` (a chunk of a source in `format`, after
/// its `head` bytes, whose first line is `first_line` and which starts at
/// `offset` in its source), calling `each`
/// with every record and what was found in it. `truncated`: the source
/// ended with a read error, so a last record without a terminator is
/// incomplete. Lines and WARC records are walked elsewhere (the fused
/// line scan; the reader's index).
pub fn walk<'a>(
    format: &'a Format,
    data: &'a [u8],
    head: usize,
    first_line: u64,
    offset: u64,
    truncated: bool,
    mut each: impl FnMut(Rec<'a>, Found<'a>) -> bool,
) {
    match format {
        Format::Lines | Format::Warc(_) => unreachable!("walked by their own loops"),
        Format::Csv(layout) => csv::walk(layout, data, head, first_line, offset, truncated, each),
        Format::Jsonl(path) | Format::Cdxj(path) => {
            let cdxj = matches!(format, Format::Cdxj(_));
            // The chunk's UTF-8 is checked once: lines are cut at ASCII
            // bytes (a line is checked on its own only in a chunk that
            // fails).
            let chunk_text = simdutf8::basic::from_utf8(data).ok();
            walk_lines(data, head, first_line, offset, truncated, |rec, raw| {
                // A line of a format written back: under --keep-invalid, a
                // bad or empty one goes out as it came (the shape's `close`
                // serves only a found field, which a bad line has not).
                let rec = Rec {
                    shape: Shape::Json { close: rec.end },
                    ..rec
                };
                let raw = match raw {
                    Ok(raw) => raw,
                    Err(found) => return each(rec, found),
                };
                let text = chunk_text
                    .and_then(|t| t.get(rec.start..rec.end))
                    .or_else(|| simdutf8::basic::from_utf8(raw).ok());
                let Some(text) = text else {
                    return each(rec, Found::Bad(Reason::InvalidUtf8));
                };
                let found = if cdxj {
                    json::find_cdxj(path, text)
                } else {
                    json::find(path, text)
                };
                match found {
                    Ok(json::Hit { value, span, close }) => {
                        let rec = Rec {
                            field: (rec.start + span.0, rec.start + span.1),
                            shape: Shape::Json {
                                close: rec.start + close,
                            },
                            ..rec
                        };
                        each(rec, value)
                    }
                    Err(reason) => each(rec, Found::Bad(reason)),
                }
            })
        }
        Format::Log(field) => {
            walk_lines(
                data,
                head,
                first_line,
                offset,
                truncated,
                |rec, raw| match raw {
                    // (Only the URL field must be UTF-8: `log::find`
                    // checks it.)
                    Ok(raw) => each(rec, log::find(*field, raw)),
                    Err(found) => each(rec, found),
                },
            )
        }
    }
}

/// The line walk under the JSON and log formats: `f` gets each line's
/// bytes, or what it is instead (empty, cut off by a read error); it
/// returns false to stop. Lines come in the read-only shape of logs; a
/// format written back sets its own.
fn walk_lines<'a>(
    data: &'a [u8],
    head: usize,
    first_line: u64,
    offset: u64,
    truncated: bool,
    mut f: impl FnMut(Rec<'a>, Result<&'a [u8], Found<'a>>) -> bool,
) {
    let mut start = head;
    let mut line = first_line;
    while start < data.len() {
        let (end, next, terminated) = match memchr::memchr(b'\n', &data[start..]) {
            Some(i) => (start + i, start + i + 1, true),
            None => (data.len(), data.len(), false),
        };
        let end = if end > start && data[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        let rec = Rec {
            data,
            start,
            end,
            next,
            line,
            offset: offset + start as u64,
            field: (start, end),
            shape: Shape::ReadOnly,
        };
        let raw = &data[start..end];
        let raw = if !terminated && truncated {
            Err(Found::Bad(Reason::Truncated))
        } else if raw.is_empty() {
            Err(Found::Empty)
        } else {
            Ok(raw)
        };
        if !f(rec, raw) {
            return;
        }
        start = next;
        line += 1;
    }
}

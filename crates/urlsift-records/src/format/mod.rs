//! Record formats: where the URL lives in each input record, and how a
//! record goes back out with that URL changed.
//!
//! The pipeline is input → records → URL field → operation → output. A
//! format owns the first two arrows and the last: it cuts a source into
//! record-aligned chunks (for the reader: a line end for the line formats,
//! quote parity and a row scan for CSV, a record index for WARC), walks a chunk's
//! records and finds each one's URL field (`walk`), and writes a record
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
//! | `arc` | an ARC record's header line | its first field, `url` | read-only: URL lines |
//! | `log` | an Apache/nginx common or combined log line | the request target | read-only: URL lines |
//! | `parquet` | a row | the column named `url` (or a dotted path into a struct) | Parquet: the row, that column replaced |
//!
//! ```
//! use std::path::Path;
//! use urlsift_records::format::{Found, Kind, Spec, json};
//!
//! // A file's format by its name, unless the flags name one.
//! assert_eq!(Kind::from_path(Path::new("crawl.CSV.gz")), Kind::Csv);
//! assert_eq!(Kind::from_path(Path::new("urls.txt")), Kind::Lines);
//! let spec = Spec { kind: Some(Kind::Jsonl), ..Spec::default() };
//! assert_eq!(spec.kind_for(Path::new("-")), Kind::Jsonl);
//!
//! // What each JSON line holds at the URL field (the engine walks a
//! // chunk's records with these finders, format by format).
//! let lines = ["{\"url\":\"https://e.com/\"}", "not json", "{\"url\":\"\"}"];
//! let seen: Vec<String> = lines
//!     .iter()
//!     .map(|line| match json::find(&json::Path::new(None), line) {
//!         Ok(hit) => match hit.value {
//!             Found::Url(url) => url.into_owned(),
//!             Found::Empty => "(empty)".to_string(),
//!             Found::Bad(reason) => reason.key().to_string(),
//!         },
//!         Err(reason) => reason.key().to_string(),
//!     })
//!     .collect();
//! assert_eq!(seen, ["https://e.com/", "invalid-JSON", "(empty)"]);
//! ```

use std::borrow::Cow;
use std::fmt;
use std::path::Path;

mod choice;
pub mod csv;
pub mod frame;
pub mod json;
pub mod log;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod quote;
mod record;
pub mod warc;

pub use choice::Choice;
pub use record::{Found, Rec, Shape};

use crate::reason::Reason;

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
    /// ARC records (the format before WARC, version 1 or 2; plain or gzip
    /// per record); read-only.
    Arc,
    /// Apache/nginx common or combined access log lines; read-only.
    Log,
    /// Parquet files: a row is a record, a string column its URL (feature
    /// `parquet`); written back as Parquet.
    Parquet,
    /// A WACZ's page lists (`pages/*.jsonl`): JSON lines whose first line,
    /// a header (`{"format": "json-pages-1.0", ...}`), is not a record.
    /// Named only by `--input-format wacz-pages`; a WACZ input is then
    /// read as its page lists instead of its WARC files.
    WaczPages,
}

impl Kind {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [Kind; 10] = [
        Kind::Lines,
        Kind::Csv,
        Kind::Tsv,
        Kind::Jsonl,
        Kind::Cdxj,
        Kind::Warc,
        Kind::Arc,
        Kind::Log,
        Kind::Parquet,
        Kind::WaczPages,
    ];

    /// The format named `name` ([`Kind::name`]).
    ///
    /// ```
    /// use urlsift_records::format::Kind;
    ///
    /// assert_eq!(Kind::named("cdxj"), Some(Kind::Cdxj));
    /// assert_eq!(Kind::named("CDXJ"), None);
    /// assert!(Kind::ALL.iter().all(|k| Kind::named(k.name()) == Some(*k)));
    /// ```
    pub fn named(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// What the format is, in a line (`--help`'s).
    pub fn about(self) -> &'static str {
        match self {
            Kind::Lines => "One URL per line",
            Kind::Csv => "Comma-separated values (RFC 4180) with a header row (see --no-header)",
            Kind::Tsv => "Tab-separated values, quoted like CSV",
            Kind::Jsonl => "One JSON object per line (JSON Lines, NDJSON)",
            Kind::Cdxj => "Common Crawl CDXJ index lines: SURT TIMESTAMP {json}",
            Kind::Warc => {
                "WARC records: plain, .warc.gz or .warc.zst, or the WARC files of a WACZ \
                 (read-only: writes URL lines)"
            }
            Kind::Arc => {
                "ARC records (v1/v2, the format before WARC), plain or .arc.gz (read-only: \
                 writes URL lines)"
            }
            Kind::Log => "Apache/nginx common or combined log lines (read-only: writes URL lines)",
            Kind::Parquet => {
                "Parquet files: a row per record, the URL in a string column (normalize and \
                 dedup write Parquet back)"
            }
            Kind::WaczPages => {
                "A WACZ's page lists (pages/*.jsonl) instead of its WARC files: JSON lines, the \
                 header line skipped"
            }
        }
    }

    /// The name `--input-format` takes.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Lines => "lines",
            Kind::Csv => "csv",
            Kind::Tsv => "tsv",
            Kind::Jsonl => "jsonl",
            Kind::Cdxj => "cdxj",
            Kind::Warc => "warc",
            Kind::Arc => "arc",
            Kind::Log => "log",
            Kind::Parquet => "parquet",
            Kind::WaczPages => "wacz-pages",
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
            // Common Crawl's `.warc.wat.gz` and `.warc.wet.gz` are WARC
            // files of metadata and conversion records.
            Some("warc" | "wat" | "wet") => Kind::Warc,
            Some("arc") => Kind::Arc,
            Some("parquet" | "parq") => Kind::Parquet,
            _ => Kind::Lines,
        }
    }

    /// Whether records go back out as they came in (with the URL field
    /// changed); the others write URL lines.
    pub fn writes_records(self) -> bool {
        matches!(
            self,
            Kind::Csv | Kind::Tsv | Kind::Jsonl | Kind::Cdxj | Kind::Parquet | Kind::WaczPages
        )
    }

    /// What one record is called in messages.
    pub fn record_noun(self) -> &'static str {
        match self {
            Kind::Lines => "line",
            Kind::Csv | Kind::Tsv | Kind::Parquet => "row",
            Kind::Warc => "WARC record",
            Kind::Arc => "ARC record",
            Kind::Jsonl | Kind::Cdxj | Kind::Log | Kind::WaczPages => "record",
        }
    }
}

/// A file name's extension after any `.gz` or `.zst`, lowercase.
///
/// ```
/// use std::path::Path;
/// use urlsift_records::format::extension;
/// assert_eq!(extension(Path::new("a/Sitemap.XML.gz")).as_deref(), Some("xml"));
/// assert_eq!(extension(Path::new("crawl.warc.zst")).as_deref(), Some("warc"));
/// ```
pub fn extension(path: &Path) -> Option<String> {
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
    /// `--delimiter`: the CSV/TSV field delimiter (one ASCII byte, not a
    /// quote or a line end); `None`: `,` for CSV, a tab for TSV.
    pub delimiter: Option<u8>,
    /// The record fields the run reads by name (`extract --fields @NAME`,
    /// without the `@`): where a format knows its fields before any
    /// record ([`Format::knows_field`]), an unknown one is refused as the
    /// source starts, naming the fields there are.
    pub named: Vec<String>,
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
    /// One URL per line.
    Lines,
    /// CSV or TSV: the delimiter, the header and the URL column.
    Csv(csv::CsvLayout),
    /// JSON lines: the URL field's path.
    Jsonl(json::Path),
    /// CDXJ: the URL field's path in the JSON block.
    Cdxj(json::Path),
    /// WARC: the header that holds the URL.
    Warc(urlsift_warc::WarcField),
    /// Access logs: the field that holds the URL.
    Log(log::LogField),
    /// Parquet: the URL column, the schema and what is kept when rows are
    /// written back.
    #[cfg(feature = "parquet")]
    Parquet(parquet::ParquetLayout),
}

impl Format {
    /// The format's kind (`--input-format` value).
    pub fn kind(&self) -> Kind {
        match self {
            Format::Lines => Kind::Lines,
            Format::Csv(l) if l.delimiter == b'\t' => Kind::Tsv,
            Format::Csv(_) => Kind::Csv,
            Format::Jsonl(_) => Kind::Jsonl,
            Format::Cdxj(_) => Kind::Cdxj,
            Format::Warc(f) if f.dialect() == urlsift_warc::Dialect::Arc => Kind::Arc,
            Format::Warc(_) => Kind::Warc,
            Format::Log(_) => Kind::Log,
            #[cfg(feature = "parquet")]
            Format::Parquet(_) => Kind::Parquet,
        }
    }

    /// Whether records of this format have a field `name` (`@NAME`),
    /// where the format knows its fields before any record: `Some(Ok)`,
    /// or `Some(Err)` saying which fields there are (a CSV header's
    /// columns, a Parquet schema's, the log fields; `lines` has none).
    /// `None` where fields vary from record to record (JSON keys, CDXJ
    /// keys, WARC headers).
    ///
    /// ```
    /// use urlsift_records::format::{Format, csv::CsvLayout};
    ///
    /// let csv = Format::Csv(CsvLayout::new(b',', Some(b"id,url\n"), None, 0).unwrap());
    /// assert_eq!(csv.knows_field("ID"), Some(Ok(())));
    /// assert_eq!(
    ///     csv.knows_field("title"),
    ///     Some(Err("no column \"title\" (columns: \"id\", \"url\")".to_string()))
    /// );
    /// assert!(Format::Lines.knows_field("title").unwrap().is_err());
    /// ```
    pub fn knows_field(&self, name: &str) -> Option<Result<(), String>> {
        match self {
            Format::Lines => Some(Err(format!(
                "no field {name:?}: `lines` input is one URL per line, with no other fields"
            ))),
            Format::Csv(l) => Some(l.knows(name)),
            Format::Log(_) => Some(
                match log::FIELDS.contains(&name.to_ascii_lowercase().as_str()) {
                    true => Ok(()),
                    false => Err(format!(
                        "no log field {name:?} (fields: {})",
                        log::FIELDS.join(", ")
                    )),
                },
            ),
            #[cfg(feature = "parquet")]
            Format::Parquet(l) => Some(l.knows(name)),
            Format::Jsonl(_) | Format::Cdxj(_) | Format::Warc(_) => None,
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
            Format::Warc(f) => f.named(raw, name),
            Format::Log(_) => log::named(raw, name),
            // (A row's other columns are in its chunk's batch: see
            // `fields::Context`.)
            #[cfg(feature = "parquet")]
            Format::Parquet(_) => None,
        }
    }
}

/// Walks the records of `data` (a chunk of a source in `format`, after
/// its `head` bytes, whose first line is `first_line` and which starts at
/// `offset` in its source), calling `each`
/// with every record and what was found in it. `truncated`: the source
/// ended with a read error, so a last record without a terminator is
/// incomplete. Lines and WARC records are walked elsewhere (the fused
/// line scan; the reader's index): `walk` panics on those formats, which
/// [`Job`](crate::Job) walks for every format (so `walk` is the
/// engine's own, not public).
pub(crate) fn walk<'a>(
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
        #[cfg(feature = "parquet")]
        Format::Parquet(_) => unreachable!("walked by its own loop"),
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

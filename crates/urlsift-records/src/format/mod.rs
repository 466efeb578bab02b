//! Record formats: where the URL lives in each input record, and how a
//! record goes back out with that URL changed.
//!
//! The pipeline is input → records → URL field → operation → output. A
//! format owns the first two arrows and the last: it reads a source's
//! start (a CSV header, a JSON default field), cuts a source into
//! record-aligned chunks (for the reader: a line end for the line formats,
//! quote parity and a row scan for CSV, a record index for WARC), walks a
//! chunk's records and finds each one's URL field, and writes a record
//! back with that field replaced or new fields appended ([`Rec`]). Each
//! format's module implements the engine's `RecordFormat` trait; this
//! module is the registry that recognizes a format ([`Kind`]) and hands
//! each call to a source's own ([`Format`]). The operations (normalize,
//! dedup, extract, check, stats) see a [`Rec`] and the URL's text, never a
//! format.
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
mod lines;
pub mod log;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod quote;
mod record;
mod view;
pub mod warc;

pub use choice::Choice;
pub use record::{Found, Rec, Shape};

use urlsift_simd::Kernel;

use crate::reason::Reason;
use crate::setting::SettingError;
pub(crate) use lines::line_rec;
pub(crate) use view::View;

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

/// A source's first bytes as its format's start reads them
/// ([`Kind::start`]).
pub(crate) struct Opening<'a> {
    /// What has been read of the source so far.
    pub buf: &'a [u8],
    /// The length of a UTF-8 byte-order mark at its start (0 or 3).
    pub bom: usize,
    /// The source goes on past `buf`.
    pub more: bool,
    /// The format flags.
    pub spec: &'a Spec,
    /// Records go back out (a CSV header must then be the same in every
    /// input).
    pub writes_records: bool,
    /// The first CSV input's header row, once one has been read.
    pub first_header: &'a mut Option<Vec<u8>>,
}

impl Opening<'_> {
    /// The bytes after the byte-order mark.
    pub fn body(&self) -> &[u8] {
        &self.buf[self.bom..]
    }

    /// `--field`.
    pub fn field(&self) -> Option<&str> {
        self.spec.field.as_deref()
    }
}

/// What a format's start made of a source's first bytes.
#[derive(Debug)]
pub(crate) enum Begun {
    /// Read more first.
    More,
    /// The source is empty (a CSV without even a header row).
    Empty,
    /// The source's format; records start after `head` bytes, which are
    /// written out first if `write_head`.
    Format {
        /// The format, resolved.
        format: Format,
        /// Bytes before the first record.
        head: usize,
        /// Whether the head is a header to write.
        write_head: bool,
    },
}

impl Begun {
    /// A format whose records start right after the byte-order mark.
    fn at(format: Format, opening: &Opening<'_>) -> Begun {
        Begun::Format {
            format,
            head: opening.bom,
            write_head: false,
        }
    }
}

/// Why a source cannot be read in the format asked for.
#[derive(Debug)]
pub(crate) enum StartError {
    /// A setting that does not fit the source.
    Setting(SettingError),
    /// Anything else, in words.
    Usage(String),
}

impl From<SettingError> for StartError {
    fn from(e: SettingError) -> StartError {
        StartError::Setting(e)
    }
}

impl Kind {
    /// Whether sources of this format are read as bytes (cut into chunks
    /// by the reader); a Parquet file is opened by its own row-group
    /// cursor instead.
    pub(crate) fn reads_bytes(self) -> bool {
        self != Kind::Parquet
    }

    /// Whether a source of this format starts with a header row (so a
    /// gap in its decoded bytes before the header was read leaves what
    /// follows unreadable: a row would be taken for the header).
    pub(crate) fn has_header(self, spec: &Spec) -> bool {
        matches!(self, Kind::Csv | Kind::Tsv) && !spec.no_header
    }

    /// The format a source's first bytes show it to be, where its name
    /// did not say (`None`: read more). A `.log` file (`log_named`) holds
    /// access-log lines or URL lines: a log line among its first lines
    /// makes it a log. WARC or ARC records read as URL lines would be
    /// nothing but bad lines: an input read as `lines` by default
    /// (standard input, a name that says nothing) that starts like one is
    /// read as one.
    pub(crate) fn recognize(
        self,
        opening: &Opening<'_>,
        log_named: bool,
        max_record: usize,
    ) -> Option<Kind> {
        let (body, more) = (opening.body(), opening.more);
        let mut kind = self;
        if log_named {
            match log::sniff(body, more, max_record) {
                log::Sniff::More => return None,
                log::Sniff::Log => kind = Kind::Log,
                log::Sniff::Lines => {}
            }
        }
        if kind == Kind::Lines && opening.spec.kind.is_none() {
            if more && urlsift_warc::may_start_archive(body) {
                return None;
            }
            match urlsift_warc::archive_start(body) {
                Some(urlsift_warc::Dialect::Warc) => kind = Kind::Warc,
                Some(urlsift_warc::Dialect::Arc) => kind = Kind::Arc,
                None => {}
            }
        }
        Some(kind)
    }

    /// Reads a source's start in this format (the registry of starts:
    /// each format's own `start` decides). Parquet sources are opened by
    /// their own cursor, not from bytes.
    pub(crate) fn start(self, opening: &mut Opening<'_>) -> Result<Begun, StartError> {
        if opening.spec.delimiter.is_some() && !matches!(self, Kind::Csv | Kind::Tsv) {
            return Err(SettingError::DelimiterOfOther { kind: self.name() }.into());
        }
        match self {
            Kind::Lines => lines::start(opening),
            Kind::Log => log::start(opening),
            Kind::Warc | Kind::Arc => warc::start(self == Kind::Arc, opening),
            Kind::Jsonl | Kind::Cdxj => json::start(self == Kind::Cdxj, opening),
            Kind::WaczPages => json::start_pages(opening),
            Kind::Csv | Kind::Tsv => csv::start(self == Kind::Tsv, opening),
            Kind::Parquet => Err(StartError::Usage(
                "a Parquet file is read from a file, not from a stream".to_string(),
            )),
        }
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
        self.with(Dyn(|f: &dyn RecordFormat| f.knows_field(name)))
    }

    /// The value of another field of `rec` (`extract --fields @NAME`), or
    /// `None` when the record has no such field.
    pub fn named<'a>(&self, rec: &Rec<'a>, name: &str) -> Option<Cow<'a, str>> {
        // (A Parquet row's other columns are in its chunk's batch: see
        // `fields::Context`.)
        self.with(Dyn(|f: &dyn RecordFormat| f.named(rec, name)))
    }

    /// The archive dialect of a WARC or ARC source, whose records the
    /// `urlsift-warc` reader reads and indexes itself (their bodies
    /// skipped); `None` for the formats the reader cuts into chunks.
    pub(crate) fn archive(&self) -> Option<urlsift_warc::Dialect> {
        match self {
            Format::Warc(field) => Some(field.dialect()),
            _ => None,
        }
    }

    /// See [`RecordFormat::cut`].
    pub(crate) fn cut(&self, data: &[u8], eof: bool, max_record: usize) -> Cut {
        self.with(Dyn(|f: &dyn RecordFormat| f.cut(data, eof, max_record)))
    }

    /// See [`RecordFormat::one_per_line`].
    pub(crate) fn one_per_line(&self) -> bool {
        self.with(Dyn(|f: &dyn RecordFormat| f.one_per_line()))
    }

    /// See [`RecordFormat::line_ends`].
    pub(crate) fn line_ends(&self, bytes: &[u8]) -> u64 {
        self.with(Dyn(|f: &dyn RecordFormat| f.line_ends(bytes)))
    }

    /// See [`RecordFormat::ends_line`].
    pub(crate) fn ends_line(&self, bytes: &[u8]) -> bool {
        self.with(Dyn(|f: &dyn RecordFormat| f.ends_line(bytes)))
    }

    /// See [`RecordFormat::ahead`].
    pub(crate) fn ahead(&self, chunk_size: usize, threads: usize) -> Option<csv::Ahead> {
        self.with(Dyn(|f: &dyn RecordFormat| f.ahead(chunk_size, threads)))
    }

    /// Walks the records of `view` (a chunk of a source in this format),
    /// handing each, with what its URL field holds, to `v`; returns how
    /// many records were walked.
    #[inline(always)]
    pub(crate) fn walk<K: Kernel, V: Visit>(&self, k: K, view: View<'_>, v: &mut V) -> u64 {
        self.with(Walk { k, view, v })
    }

    /// The registry: `call` run on this source's own format, the one
    /// place that tells the formats apart.
    #[inline(always)]
    fn with<C: FormatCall>(&self, call: C) -> C::Output {
        match self {
            Format::Lines => call.call(&lines::Lines),
            Format::Csv(layout) => call.call(layout),
            Format::Jsonl(path) => call.call(&json::Jsonl(path)),
            Format::Cdxj(path) => call.call(&json::Cdxj(path)),
            Format::Warc(field) => call.call(field),
            Format::Log(field) => call.call(field),
            #[cfg(feature = "parquet")]
            Format::Parquet(layout) => call.call(layout),
        }
    }
}

/// What each record format does: cut a source into chunks of whole
/// records, walk a chunk's records to their URL fields, and name the
/// other fields a record has. Each format's module implements it (its
/// start is the module's `start`, registered in [`Kind::start`]);
/// [`Format`] hands each call to the source's own.
pub(crate) trait RecordFormat {
    /// Walks the records of `view`, handing each (with what its URL field
    /// holds) to `v` until `v` says stop; returns how many were walked.
    fn walk<K: Kernel, V: Visit>(&self, k: K, view: View<'_>, v: &mut V) -> u64
    where
        Self: Sized;

    /// See [`Format::knows_field`]: `None` where fields vary from record
    /// to record.
    fn knows_field(&self, _name: &str) -> Option<Result<(), String>> {
        None
    }

    /// See [`Format::named`]: `None` where a record has no such field.
    fn named<'a>(&self, _rec: &Rec<'a>, _name: &str) -> Option<Cow<'a, str>> {
        None
    }

    /// Where the records of `data` (what a source holds from where its
    /// next chunk starts) may be cut; `eof`: nothing follows `data`;
    /// `max_record`: the longest record held whole. By default a record
    /// is a line.
    fn cut(&self, data: &[u8], eof: bool, max_record: usize) -> Cut {
        lines::cut(data, eof, max_record)
    }

    /// Whether a record is one line, so the writer can number records
    /// by counting lines.
    fn one_per_line(&self) -> bool {
        true
    }

    /// The line ends in `bytes` (`\n` by default).
    fn line_ends(&self, bytes: &[u8]) -> u64 {
        memchr::memchr_iter(b'\n', bytes).count() as u64
    }

    /// Whether `bytes` end with a line end.
    fn ends_line(&self, bytes: &[u8]) -> bool {
        bytes.ends_with(b"\n")
    }

    /// Row boundaries of a mapped source found ahead on `threads` threads
    /// (CSV, whose quotes make finding them a pass of its own), for
    /// chunks of `chunk_size` bytes.
    fn ahead(&self, _chunk_size: usize, _threads: usize) -> Option<csv::Ahead> {
        None
    }
}

/// How many bytes of a source's data end on a record boundary.
#[derive(Debug)]
pub(crate) enum Cut {
    /// Whole records end after this many bytes; with the line ends in
    /// them when the cut counted them on the way.
    Records(usize, Option<u64>),
    /// No record ends in the data yet.
    None,
    /// The first record is over the limit: hand it out in pieces.
    Oversize,
}

/// What the engine does with each record a format walks: the operation
/// on its URL, the bad-record policy on the rest. A line-based format
/// that splits lines by the fused scan hands them over as such.
pub(crate) trait Visit {
    /// Whether URL lines are best split by [`urlsift::batch::lines`],
    /// whose scan also does the fast path's classification (wasted on work
    /// that does not parse URLs).
    const SCANS_URLS: bool;

    /// The longest record whose URL is parsed; a longer one is bad
    /// ([`Reason::TooLong`]).
    fn max_record(&self) -> usize;

    /// Record `rec` and what its URL field holds; false: stop the chunk.
    fn record(&mut self, rec: &Rec<'_>, found: Found<'_>) -> bool;

    /// A URL line as the fused scan found it (not empty, within
    /// [`Visit::max_record`], no NUL): `Ok` when the operation took it,
    /// else why not (for [`Visit::bad_line`]).
    fn scanned_line(
        &mut self,
        rec: &Rec<'_>,
        line: &urlsift::batch::Line<'_>,
    ) -> Result<(), Reason>;

    /// A URL line checked as text (not empty, within
    /// [`Visit::max_record`], no NUL), as [`Visit::scanned_line`].
    fn text_line(&mut self, rec: &Rec<'_>, text: &str) -> Result<(), Reason>;

    /// An empty URL line.
    fn empty_line(&mut self);

    /// A bad URL line; false: stop. (The record comes by value: a hot
    /// loop need not keep it in memory for this cold call.)
    fn bad_line(&mut self, rec: Rec<'_>, reason: Reason) -> bool;
}

/// One call on a format, for [`Format::with`] (the trait's methods are
/// generic, so a format is not a trait object).
trait FormatCall {
    type Output;
    fn call<F: RecordFormat>(self, format: &F) -> Self::Output;
}

/// [`RecordFormat::walk`] as a [`FormatCall`].
struct Walk<'a, 'v, K, V> {
    k: K,
    view: View<'a>,
    v: &'v mut V,
}

impl<K: Kernel, V: Visit> FormatCall for Walk<'_, '_, K, V> {
    type Output = u64;

    #[inline(always)]
    fn call<F: RecordFormat>(self, format: &F) -> u64 {
        format.walk(self.k, self.view, self.v)
    }
}

/// A call through `&dyn RecordFormat` (the methods that are not generic)
/// as a [`FormatCall`].
struct Dyn<F>(F);

impl<R, F: FnOnce(&dyn RecordFormat) -> R> FormatCall for Dyn<F> {
    type Output = R;

    #[inline(always)]
    fn call<T: RecordFormat>(self, format: &T) -> R {
        (self.0)(format)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A start of each format, as its own files begin.
    fn sample(kind: Kind) -> &'static [u8] {
        match kind {
            Kind::Lines => b"https://e.com/\n",
            Kind::Csv => b"id,url\n1,https://e.com/\n",
            Kind::Tsv => b"id\turl\n1\thttps://e.com/\n",
            Kind::Jsonl => b"{\"url\":\"https://e.com/\"}\n",
            Kind::Cdxj => b"com,e)/ 20240101000000 {\"url\":\"https://e.com/\"}\n",
            Kind::Warc => b"WARC/1.1\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\n",
            Kind::Arc => b"filedesc://x.arc 0.0.0.0 20240101000000 text/plain 0\n",
            Kind::Log => b"1.2.3.4 - - [01/Jan/2024:00:00:00 +0000] \"GET / HTTP/1.1\" 200 5\n",
            Kind::WaczPages => b"{\"format\":\"json-pages-1.0\"}\n{\"url\":\"https://e.com/\"}\n",
            Kind::Parquet => b"PAR1",
        }
    }

    #[test]
    fn every_kind_starts_as_its_own_format_or_says_why_not() {
        for kind in Kind::ALL {
            let spec = Spec::default();
            let mut first_header = None;
            let mut opening = Opening {
                buf: sample(kind),
                bom: 0,
                more: false,
                spec: &spec,
                writes_records: false,
                first_header: &mut first_header,
            };
            let begun = kind.start(&mut opening);
            let want = match kind {
                Kind::WaczPages => Kind::Jsonl,
                Kind::Parquet => {
                    assert!(matches!(begun, Err(StartError::Usage(_))), "{begun:?}");
                    continue;
                }
                k => k,
            };
            match begun {
                Ok(Begun::Format { format, .. }) => assert_eq!(format.kind(), want, "{kind}"),
                other => panic!("{kind}: {other:?}"),
            }
        }
    }

    #[test]
    fn what_the_reader_asks_of_a_format_the_registry_answers() {
        let no_header = Spec {
            no_header: true,
            ..Spec::default()
        };
        for kind in Kind::ALL {
            assert_eq!(kind.reads_bytes(), kind != Kind::Parquet, "{kind}");
            let headed = matches!(kind, Kind::Csv | Kind::Tsv);
            assert_eq!(kind.has_header(&Spec::default()), headed, "{kind}");
            assert!(!kind.has_header(&no_header), "{kind}");
        }
        let arc = Format::Warc(urlsift_warc::WarcField::arc(None));
        assert_eq!(arc.archive(), Some(urlsift_warc::Dialect::Arc));
        assert_eq!(Format::Lines.archive(), None);
    }

    #[test]
    fn a_default_input_is_recognized_by_its_content() {
        let spec = Spec::default();
        let mut first_header = None;
        let recognized = |buf: &'static [u8], log_named: bool, more: bool| {
            let mut first_header = None;
            let opening = Opening {
                buf,
                bom: 0,
                more,
                spec: &spec,
                writes_records: false,
                first_header: &mut first_header,
            };
            Kind::Lines.recognize(&opening, log_named, 1 << 20)
        };
        assert_eq!(
            recognized(sample(Kind::Warc), false, false),
            Some(Kind::Warc)
        );
        assert_eq!(recognized(sample(Kind::Arc), false, false), Some(Kind::Arc));
        assert_eq!(recognized(sample(Kind::Log), true, false), Some(Kind::Log));
        // A log line in a file not named .log is a URL line (a bad one).
        assert_eq!(
            recognized(sample(Kind::Log), false, false),
            Some(Kind::Lines)
        );
        assert_eq!(recognized(b"WAR", false, true), None);
        assert_eq!(
            recognized(sample(Kind::Lines), false, false),
            Some(Kind::Lines)
        );
        // A format named by the flags is not second-guessed.
        let named = Spec {
            kind: Some(Kind::Lines),
            ..Spec::default()
        };
        let opening = Opening {
            buf: sample(Kind::Warc),
            bom: 0,
            more: false,
            spec: &named,
            writes_records: false,
            first_header: &mut first_header,
        };
        assert_eq!(
            Kind::Lines.recognize(&opening, false, 1 << 20),
            Some(Kind::Lines)
        );
    }
}

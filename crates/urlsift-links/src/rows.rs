//! The links of whole inputs as rows: what `urlsift links` and Python's
//! `urlsift.links` run. An input is read by its shape ([`InputShape`]: WARC,
//! WAT or ARC records, one HTML document, a sitemap or feed); the pages of
//! records are worked on in parallel (on the record engine), and each record's
//! [`LinkRows`] are handed to the caller in input order, with what the record
//! counts as ([`LinkTally`]) and its rejects lines. Each link goes through the
//! settings' filters and edits ([`Stage`]), `--same-site`/`--external`,
//! the profile, and, with a dedup key, gets its key for the caller's
//! seen-set ([`LinkRows::drop_seen`]).
//!
//! ```
//! use urlsift_links::rows::{LinkField, LinkSettings, LinkTally, RowFormat, read};
//! use urlsift_records::Ledger;
//!
//! # let tmp = tempfile::Builder::new().prefix("urlsift-doc-rows-").tempdir().unwrap();
//! # let dir = tmp.path();
//! let page = dir.join("page.html");
//! std::fs::write(&page, r#"<a href="/a">A</a> <a href="javascript:void(0)">B</a>"#).unwrap();
//! let settings = LinkSettings {
//!     fields: vec![LinkField::From, LinkField::To],
//!     format: RowFormat::Csv,
//!     base: Some("https://example.com/".into()),
//!     ..LinkSettings::default()
//! };
//! // The rows in input order through a ledger: it writes the rejects and
//! // adds up the counts.
//! let mut ledger: Ledger<Vec<u8>, Vec<u8>, LinkTally> =
//!     Ledger::counting(Vec::new(), Some(Vec::new()));
//! let failed = read(&[page], &settings, |rows| {
//!     ledger.out().extend_from_slice(&rows.out);
//!     ledger.add(&rows.tally, &rows.rejects)
//! })
//! .unwrap();
//! assert!(failed.is_empty());
//! let (out, rejects, tally) = ledger.into_parts();
//! assert_eq!(out, b"https://example.com/,https://example.com/a\n");
//! assert!(rejects.unwrap().ends_with(b"\tjavascript-url\tjavascript:void(0)\n"));
//! assert_eq!(tally.summary(), "1 page, 1 link; 1 bad link (1 javascript-url)");
//! ```

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use urlsift::Url;
use urlsift::profile::Profile;
use urlsift::site::List;
use urlsift_records::dedup::{Key, Seen, write_key};
use urlsift_records::format::extension;
use urlsift_records::format::quote::{self, Json};
use urlsift_records::input::mmap::MapSlice;
use urlsift_records::input::{self, InputError, Opened};
use urlsift_records::stage::{Stage, Verdict};
use urlsift_records::{
    Count, Engine, Error, Kind, Options, Processed, Reason, Spec, write_reject_line,
};
use xxhash_rust::xxh3::xxh3_64;

use crate::pages::{self, Item, Outcome};
use crate::{Kinds, LinkReason, Page, xml};

/// A sitemap's or feed's links are handed over this many at a time.
const XML_BATCH: usize = 8192;

/// A field of a link's row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum LinkField {
    /// The link, resolved and serialized.
    To,
    /// The page's URL.
    From,
    /// The element's name.
    Tag,
    /// The attribute's name.
    Attribute,
    /// The element's rel attribute.
    Rel,
    /// The link's kind.
    Kind,
    /// The page record's byte offset in its input.
    Offset,
}

impl LinkField {
    /// Every field, in the order above.
    pub const ALL: [LinkField; 7] = [
        LinkField::To,
        LinkField::From,
        LinkField::Tag,
        LinkField::Attribute,
        LinkField::Rel,
        LinkField::Kind,
        LinkField::Offset,
    ];

    /// The field's name in headers and JSON.
    pub fn name(self) -> &'static str {
        match self {
            LinkField::To => "to",
            LinkField::From => "from",
            LinkField::Tag => "tag",
            LinkField::Attribute => "attribute",
            LinkField::Rel => "rel",
            LinkField::Kind => "kind",
            LinkField::Offset => "offset",
        }
    }

    /// The field named `name`.
    pub fn named(name: &str) -> Option<LinkField> {
        LinkField::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// How rows are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RowFormat {
    /// Tab-separated, tab, CR, LF and backslash escaped (`\t`, `\r`,
    /// `\n`, `\\`), as `extract` writes TSV.
    #[default]
    Tsv,
    /// Comma-separated, quoted where the csv crate's writer quotes.
    Csv,
    /// A JSON object per link (`offset` a number, a missing `rel` null).
    Jsonl,
    /// No text: each field's values in [`LinkRows::columns`] and the offsets in
    /// [`LinkRows::offsets`] (for Arrow and Parquet).
    Columns,
}

/// What an input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputShape {
    /// WARC, WAT or ARC records.
    Warc,
    /// One HTML document.
    Html,
    /// A sitemap or feed.
    Xml,
}

impl InputShape {
    /// The shape of `path` by its extension (after `.gz` or `.zst`):
    /// `.html`, `.htm`, `.xhtml` are documents, `.xml`, `.rss`, `.atom`
    /// sitemaps and feeds, anything else records.
    ///
    /// ```
    /// use urlsift_links::rows::InputShape;
    /// assert_eq!(InputShape::of("a/sitemap.xml.gz".as_ref()), InputShape::Xml);
    /// assert_eq!(InputShape::of("crawl.warc.gz".as_ref()), InputShape::Warc);
    /// ```
    pub fn of(path: &Path) -> InputShape {
        match extension(path).as_deref().unwrap_or("") {
            "html" | "htm" | "xhtml" => InputShape::Html,
            "xml" | "rss" | "atom" => InputShape::Xml,
            _ => InputShape::Warc,
        }
    }
}

/// What a read does with the links it finds.
pub struct LinkSettings {
    /// The kinds of links taken.
    pub kinds: Kinds,
    /// Filters and edits on each link (`None`: every link as it is).
    pub stage: Option<Stage>,
    /// How `to` and `from` are written.
    pub profile: Profile,
    /// The list that says which site a host is in (same-site, external,
    /// the site dedup key).
    pub list: List,
    /// Only links to the page's own site (`Some(true)`) or to others
    /// (`Some(false)`).
    pub same_site: Option<bool>,
    /// The row's fields, in order.
    pub fields: Vec<LinkField>,
    /// How rows are written.
    pub format: RowFormat,
    /// `javascript:` links are kept (else bad links, `javascript-url`).
    pub javascript: bool,
    /// Blocks (a record's, a document's) larger than this are bad records
    /// (`page-too-large`).
    pub max_page: usize,
    /// A dedup key for each link, and whether it holds per page.
    pub dedup: Option<(Key, bool)>,
    /// The URL of HTML documents and the base of sitemaps and feeds.
    pub base: Option<String>,
    /// Worker threads for records (`None`: one per core).
    pub threads: Option<usize>,
}

impl Default for LinkSettings {
    fn default() -> LinkSettings {
        LinkSettings {
            kinds: Kinds::default(),
            stage: None,
            profile: Profile::new(),
            list: List::builtin(),
            same_site: None,
            fields: vec![LinkField::From, LinkField::To],
            format: RowFormat::Tsv,
            javascript: false,
            max_page: 32 << 20,
            dedup: None,
            base: None,
            threads: None,
        }
    }
}

/// What a read found, beside its links.
#[derive(Default, Debug, Clone, PartialEq, Eq)]
pub struct LinkTally {
    /// Pages whose links were read (a sitemap or feed is one).
    pub pages: u64,
    /// Response records that are not HTML.
    pub not_html: u64,
    /// Records that are not responses (requests, metadata, ...).
    pub other_records: u64,
    /// Links written.
    pub links: u64,
    /// Links left out by filters or same-site/external.
    pub filtered: u64,
    /// Links left out as duplicates ([`LinkRows::drop_seen`]).
    pub duplicates: u64,
    /// Links that are not URLs, by reason.
    pub bad_links: BTreeMap<&'static str, u64>,
    /// Records that could not be read as pages, by reason.
    pub bad_records: BTreeMap<&'static str, u64>,
    /// Pages read although their stored body is not coded as their
    /// headers say (`chunked-body-not-chunked`, ...), by name.
    pub notices: BTreeMap<&'static str, u64>,
}

/// Added up in input order by the [`Ledger`](urlsift_records::Ledger), as
/// every operation's counts are.
impl Count for LinkTally {
    fn merge(&mut self, other: &LinkTally) {
        self.pages += other.pages;
        self.not_html += other.not_html;
        self.other_records += other.other_records;
        self.links += other.links;
        self.filtered += other.filtered;
        self.duplicates += other.duplicates;
        for (mine, theirs) in [
            (&mut self.notices, &other.notices),
            (&mut self.bad_links, &other.bad_links),
            (&mut self.bad_records, &other.bad_records),
        ] {
            for (k, v) in theirs {
                *mine.entry(k).or_default() += v;
            }
        }
    }
}

impl LinkTally {
    /// The summary line: `3 pages, 10 links; 2 bad links (invalid-url 2)`,
    /// and what else there is to say.
    pub fn summary(&self) -> String {
        let list = |m: &BTreeMap<&str, u64>| {
            m.iter()
                .map(|(k, v)| format!("{v} {k}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        // `1 page`, `2 pages`.
        let n = |count: u64, noun: &str| match count {
            1 => format!("1 {noun}"),
            _ => format!("{count} {noun}s"),
        };
        let mut line = format!("{}, {}", n(self.pages, "page"), n(self.links, "link"));
        for (counts, noun, after) in [
            (&self.bad_links, "bad link", ""),
            (&self.bad_records, "bad record", ""),
            (&self.notices, "page", " read as stored"),
        ] {
            let total: u64 = counts.values().sum();
            if total > 0 {
                line.push_str(&format!("; {}{after} ({})", n(total, noun), list(counts)));
            }
        }
        if self.filtered > 0 {
            line.push_str(&format!("; {} filtered", self.filtered));
        }
        if self.duplicates > 0 {
            line.push_str(&format!("; {}", n(self.duplicates, "duplicate")));
        }
        if self.not_html + self.other_records > 0 {
            let responses = match self.other_records {
                1 => "a response",
                _ => "responses",
            };
            line.push_str(&format!(
                "; {} not HTML, {} not {responses}",
                n(self.not_html, "record"),
                self.other_records
            ));
        }
        line
    }
}

/// One record's links (or a batch of a sitemap's), and what it counts as.
#[derive(Default, Debug)]
pub struct LinkRows {
    /// The rows as text (CSV, TSV, JSON lines).
    pub out: Vec<u8>,
    /// With a dedup key: each link's key, and its xxh3-64 hash.
    pub keys: Vec<(u64, Vec<u8>)>,
    /// Where each row ends in `out` (with a dedup key).
    pub ends: Vec<usize>,
    /// [`RowFormat::Columns`]: each field's values but `offset`'s, in field
    /// order (`None`: no `rel`).
    pub columns: Vec<Vec<Option<String>>>,
    /// [`RowFormat::Columns`]: the record's offset, once per link.
    pub offsets: Vec<u64>,
    /// Reject lines (`NAME\tLINE\tOFFSET\tREASON\tVALUE`) for the bad
    /// records and bad links.
    pub rejects: Vec<u8>,
    /// What the record counts as.
    pub tally: LinkTally,
}

impl LinkRows {
    /// How many links the rows hold.
    pub fn len(&self) -> usize {
        self.tally.links as usize
    }

    /// Whether the rows hold no link.
    pub fn is_empty(&self) -> bool {
        self.tally.links == 0
    }

    /// A bad record at `offset`, counted and in the rejects.
    fn bad_record(&mut self, name: &str, offset: u64, reason: LinkReason, value: &str) {
        let reason = reason.key();
        *self.tally.bad_records.entry(reason).or_default() += 1;
        let _ = write_reject_line(&mut self.rejects, name, 0, offset, reason, value.as_bytes());
    }

    /// A bad link of the record at `offset`, counted and in the rejects.
    fn bad_link(&mut self, name: &str, offset: u64, reason: LinkReason, value: &str) {
        let reason = reason.key();
        *self.tally.bad_links.entry(reason).or_default() += 1;
        let _ = write_reject_line(&mut self.rejects, name, 0, offset, reason, value.as_bytes());
    }

    /// Leaves out the links whose key is in `seen` (from an earlier
    /// record, or earlier in this one), adding the others' keys: they count
    /// as duplicates, not links. `seen` is the record engine's seen-set,
    /// as `dedup` holds its keys: past its memory budget, it holds the
    /// links offered on disk with their rows, and hands them back in
    /// input order when it ends (each read with [`LinkRows::push_held`]); they
    /// leave these rows, counted neither as links nor as duplicates yet.
    /// Returns how many it holds.
    pub fn drop_seen(&mut self, seen: &mut Seen) -> Result<u64, Error> {
        let mut keep = Vec::with_capacity(self.keys.len());
        let (mut held, mut line) = (0, Vec::new());
        let mut start = 0;
        for (i, (hash, key)) in std::mem::take(&mut self.keys).into_iter().enumerate() {
            let end = self.ends.get(i).copied().unwrap_or(0);
            line.clear();
            let spills = seen.spills(hash, &key)?;
            if spills {
                held += 1;
                self.held_row(i, start..end, &mut line);
            }
            keep.push(seen.offer(hash, &key, &line)?);
            start = end;
        }
        let dropped = keep.iter().filter(|k| !**k).count() as u64;
        if dropped == 0 {
            return Ok(held);
        }
        self.tally.links -= dropped;
        self.tally.duplicates += dropped - held;
        if !self.offsets.is_empty() {
            for column in &mut self.columns {
                let mut i = 0;
                column.retain(|_| {
                    i += 1;
                    keep[i - 1]
                });
            }
            let mut i = 0;
            self.offsets.retain(|_| {
                i += 1;
                keep[i - 1]
            });
            return Ok(held);
        }
        let mut out = Vec::with_capacity(self.out.len());
        let mut start = 0;
        for (&end, &k) in self.ends.iter().zip(&keep) {
            if k {
                out.extend_from_slice(&self.out[start..end]);
            }
            start = end;
        }
        self.out = out;
        Ok(held)
    }

    /// Row `i` (at `text` in the text rows) as the seen-set holds it on
    /// disk: the text row, or (columns) its offset and each value, a
    /// 4-byte length before it (all ones: none).
    fn held_row(&self, i: usize, text: std::ops::Range<usize>, line: &mut Vec<u8>) {
        if self.offsets.is_empty() {
            line.extend_from_slice(&self.out[text]);
            return;
        }
        line.extend_from_slice(&self.offsets[i].to_le_bytes());
        for column in &self.columns {
            match &column[i] {
                Some(v) => {
                    line.extend_from_slice(&(v.len() as u32).to_le_bytes());
                    line.extend_from_slice(v.as_bytes());
                }
                None => line.extend_from_slice(&u32::MAX.to_le_bytes()),
            }
        }
    }

    /// Adds a row the seen-set held on disk ([`LinkRows::drop_seen`]) and
    /// handed back, in `format`: it counts as a link.
    pub fn push_held(&mut self, line: &[u8], format: RowFormat) {
        self.tally.links += 1;
        if format != RowFormat::Columns {
            self.out.extend_from_slice(line);
            return;
        }
        let word = |at: usize, n: usize| &line[at..at + n];
        let offset = u64::from_le_bytes(word(0, 8).try_into().expect("8 bytes"));
        self.offsets.push(offset);
        let (mut at, mut column) = (8, 0);
        while at < line.len() {
            let len = u32::from_le_bytes(word(at, 4).try_into().expect("4 bytes"));
            at += 4;
            let value = (len != u32::MAX).then(|| {
                let value = String::from_utf8_lossy(word(at, len as usize)).into_owned();
                at += len as usize;
                value
            });
            if self.columns.len() == column {
                self.columns.push(Vec::new());
            }
            self.columns[column].push(value);
            column += 1;
        }
    }
}

/// The header row of `fields` in `format` (CSV and TSV; empty for the
/// others).
pub fn header(fields: &[LinkField], format: RowFormat) -> Vec<u8> {
    let mut row = Vec::new();
    if matches!(format, RowFormat::Csv | RowFormat::Tsv) {
        write_row(&mut row, format, fields.iter().map(|f| f.name()));
    }
    row
}

/// One CSV or TSV row: the record engine's row writers, as `extract`
/// writes its rows (CSV quoted where the csv crate's writer quotes, TSV
/// with `\t`, `\r`, `\n`, `\\` escaped).
fn write_row<'v>(out: &mut Vec<u8>, format: RowFormat, values: impl Iterator<Item = &'v str>) {
    if format == RowFormat::Csv {
        quote::write_csv_row(out, values, b'\n');
    } else {
        quote::write_tsv_row(out, values, b'\n');
    }
}

/// Reads the links of `paths` in order (`-`: stdin), handing each
/// record's rows to `consume` in input order. WARC, WAT and ARC inputs run
/// on the record engine (a run of them on one engine, its workers taking
/// chunks of records in turn); documents, sitemaps and feeds are read
/// whole. Returns the read errors, in order: an input that could not be
/// read to its end (the records before the error were read, and the next
/// input is), and the damaged gzip members or zstd frames decoding went
/// on after (the records after the gap were read). An error of `consume`
/// ends the read.
pub fn read<E>(
    paths: &[PathBuf],
    settings: &LinkSettings,
    mut consume: impl FnMut(LinkRows) -> Result<(), E>,
) -> Result<Vec<InputError>, E> {
    let mut errors = Vec::new();
    let mut rest = paths;
    while let Some(first) = rest.first() {
        if InputShape::of(first) == InputShape::Warc {
            let n = rest
                .iter()
                .take_while(|p| InputShape::of(p) == InputShape::Warc)
                .count();
            let (records, after) = rest.split_at(n);
            errors.extend(read_records(records, settings, &mut consume)?);
            rest = after;
        } else {
            errors.extend(read_one(first, settings, &mut consume)?);
            rest = &rest[1..];
        }
    }
    Ok(errors)
}

/// Bytes of header and page blocks per chunk of records on the engine.
const CHUNK: usize = 1 << 20;

/// Why an engine run of [`read_records`] stopped early.
enum Stop<E> {
    /// `consume` failed.
    Consume(E),
    /// The engine did.
    Engine(Error),
}

impl<E> From<Error> for Stop<E> {
    fn from(e: Error) -> Stop<E> {
        Stop::Engine(e)
    }
}

/// WARC, WAT or ARC inputs on the record engine, keeping the blocks of
/// the records that may be pages ([`pages::keeping`]): each chunk's
/// records are read as pages on a worker, and their rows handed to
/// `consume` in input order.
fn read_records<E>(
    paths: &[PathBuf],
    settings: &LinkSettings,
    consume: &mut impl FnMut(LinkRows) -> Result<(), E>,
) -> Result<Vec<InputError>, E> {
    let options = Options {
        // Read as WARC (or as ARC where a file starts with its
        // `filedesc://` record), whatever the names say.
        spec: Spec {
            kind: Some(Kind::Warc),
            ..Spec::default()
        },
        chunk_size: CHUNK,
        threads: settings.threads,
        ..Options::default()
    };
    let failed = |e: Error| match e {
        Error::Input(e) => e,
        other => InputError {
            name: input::display_name(&paths[0]),
            error: std::io::Error::other(other.to_string()),
            usage: false,
        },
    };
    let built = Engine::builder(paths.to_vec())
        .options(&options)
        .keep(pages::keeping(settings.max_page))
        .build();
    let engine = match built {
        Ok(engine) => engine,
        Err(e) => return Ok(vec![failed(e)]),
    };
    let ran = engine.run(
        |chunk| {
            let source = Source {
                settings,
                name: &chunk.source().name,
                shape: InputShape::Warc,
            };
            let mut p: Processed<Vec<LinkRows>> = Processed::new(chunk);
            p.extra = pages::items(chunk).map(|item| source.rows(&item)).collect();
            p
        },
        |_, p| {
            for rows in p.extra.drain(..) {
                consume(rows).map_err(Stop::Consume)?;
            }
            Ok(true)
        },
    );
    match ran {
        Ok(errors) => Ok(errors),
        Err(Stop::Consume(e)) => Err(e),
        Err(Stop::Engine(e)) => Ok(vec![failed(e)]),
    }
}

/// One HTML document, sitemap or feed.
fn read_one<E>(
    path: &Path,
    settings: &LinkSettings,
    consume: &mut impl FnMut(LinkRows) -> Result<(), E>,
) -> Result<Option<InputError>, E> {
    let name = input::display_name(path);
    let input_error = |error| InputError {
        name: name.clone(),
        error,
        usage: false,
    };
    let opened = match input::open_with(path, urlsift_records::cores::capped(settings.threads)) {
        Ok(opened) => opened,
        Err(e) => return Ok(Some(input_error(e))),
    };
    let source = Source {
        settings,
        name: &name,
        shape: InputShape::of(path),
    };
    // A reader of the input's bytes (a mapped file as a cursor on its map).
    let bytes: Box<dyn Read + Send> = match opened {
        Opened::Mapped(map) => {
            let len = map.bytes().len();
            Box::new(std::io::Cursor::new(MapSlice::new(map, 0..len)))
        }
        Opened::Read(r) => r,
        Opened::Decoded(d) => Box::new(d),
    };
    if source.shape == InputShape::Xml {
        return source.read_xml(bytes, consume);
    }
    let base = settings.base.as_deref().unwrap_or_default();
    // A document cut short (a cut .html.gz): what was decoded is read as
    // the page, and the input named as not read to its end.
    let (item, cut) = Item::document(bytes, settings.max_page, base);
    consume(source.rows(&item))?;
    Ok(cut.map(input_error))
}

/// One input being read.
struct Source<'a> {
    settings: &'a LinkSettings,
    /// The input's name in rejects.
    name: &'a str,
    shape: InputShape,
}

impl Source<'_> {
    /// The links of one record.
    fn rows(&self, item: &Item) -> LinkRows {
        let s = self.settings;
        let mut rows = LinkRows::default();
        let (page, record) = match item.read(self.shape == InputShape::Html, s.max_page, &s.kinds) {
            Outcome::Page(page, record) => (page, record),
            Outcome::Other => {
                rows.tally.other_records += 1;
                return rows;
            }
            Outcome::NotHtml => {
                rows.tally.not_html += 1;
                return rows;
            }
            Outcome::Bad {
                offset,
                reason,
                url,
            } => {
                rows.bad_record(self.name, offset, reason, url);
                return rows;
            }
        };
        rows.tally.pages += 1;
        if let Some(notice) = page.notice {
            *rows.tally.notices.entry(notice.name()).or_default() += 1;
        }
        self.write_links(&mut rows, &page, record.offset, &record.url);
        rows
    }

    /// Writes `page`'s links (found in the record at `offset`; `url`: the
    /// page's URL as the input gave it).
    fn write_links(&self, rows: &mut LinkRows, page: &Page, offset: u64, url: &str) {
        let s = self.settings;
        let from = page
            .url
            .as_ref()
            .map_or_else(|| url.to_string(), |u| s.profile.apply_to_string(u));
        let page_site = page.url.as_ref().map(|u| site_of(&s.list, u));
        let offset_text = offset.to_string();
        let mut scratch = urlsift_records::Tally::default();
        let mut names = Vec::new();
        for link in page.resolve() {
            let mut url = match link.to {
                Ok(url) => url,
                Err(e) => {
                    rows.bad_link(self.name, offset, Reason::Url(e).into(), &link.raw.value);
                    continue;
                }
            };
            if url.protocol() == "javascript:" && !s.javascript {
                rows.bad_link(
                    self.name,
                    offset,
                    LinkReason::JavascriptUrl,
                    &link.raw.value,
                );
                continue;
            }
            if let Some(stage) = &s.stage
                && stage.apply(&mut url, &mut scratch) == Verdict::Drop
            {
                rows.tally.filtered += 1;
                continue;
            }
            if let Some(wanted) = s.same_site {
                let same = page_site.is_some_and(|p| p == site_of(&s.list, &url));
                if same != wanted {
                    rows.tally.filtered += 1;
                    continue;
                }
            }
            rows.tally.links += 1;
            let to = s.profile.apply_to_string(&url);
            if let Some((kind, per_page)) = s.dedup {
                let mut key = Vec::new();
                if per_page {
                    key.extend_from_slice(from.as_bytes());
                    key.push(0);
                }
                write_key(kind, &url, to.as_bytes(), &mut key, &mut names, &s.list);
                rows.keys.push((xxh3_64(&key), key));
            }
            // A field's value; `None` for a missing rel (null in JSON and
            // columns, empty in CSV and TSV).
            let value = |f: &LinkField| match f {
                LinkField::To => Some(to.as_str()),
                LinkField::From => Some(from.as_str()),
                LinkField::Tag => Some(link.raw.tag.as_str()),
                LinkField::Attribute => Some(link.raw.attribute.as_str()),
                LinkField::Rel => link.raw.rel.as_deref(),
                LinkField::Kind => Some(link.raw.kind.name()),
                LinkField::Offset => Some(offset_text.as_str()),
            };
            match s.format {
                RowFormat::Columns => {
                    let text = s.fields.iter().filter(|f| **f != LinkField::Offset);
                    if rows.columns.is_empty() {
                        rows.columns = vec![Vec::new(); text.clone().count()];
                    }
                    for (f, column) in text.zip(&mut rows.columns) {
                        column.push(value(f).map(str::to_string));
                    }
                    rows.offsets.push(offset);
                }
                RowFormat::Jsonl => {
                    let members = s.fields.iter().map(|f| {
                        let v = match value(f) {
                            Some(v) if *f == LinkField::Offset => Json::Number(v.into()),
                            Some(v) => Json::Str(v.into()),
                            None => Json::Null,
                        };
                        (f.name(), v)
                    });
                    quote::write_json_row(&mut rows.out, members, b'\n');
                }
                format => write_row(
                    &mut rows.out,
                    format,
                    s.fields.iter().map(|f| value(f).unwrap_or("")),
                ),
            }
            if s.dedup.is_some() {
                rows.ends.push(rows.out.len());
            }
        }
    }

    /// A sitemap or feed: its links, streamed, handed over in batches; an
    /// XML error is a bad record at its offset, after the links before it.
    fn read_xml<E>(
        &self,
        reader: Box<dyn Read + Send>,
        consume: &mut impl FnMut(LinkRows) -> Result<(), E>,
    ) -> Result<Option<InputError>, E> {
        let s = self.settings;
        let base_text = s.base.as_deref().unwrap_or("");
        let mut page = Page::of_links(
            s.base.as_deref().and_then(|b| Url::parse(b).ok()),
            Vec::new(),
        );
        let mut failed: Result<(), E> = Ok(());
        let flush = |page: &mut Page, consume: &mut dyn FnMut(LinkRows) -> Result<(), E>| {
            let mut rows = LinkRows::default();
            self.write_links(&mut rows, page, 0, base_text);
            page.links.clear();
            consume(rows)
        };
        let document = page.url.clone();
        let mut reader = std::io::BufReader::with_capacity(1 << 16, reader);
        let result = xml::links(&mut reader, document.as_ref(), &s.kinds, |link| {
            page.links.push(link);
            if page.links.len() >= XML_BATCH && failed.is_ok() {
                failed = flush(&mut page, consume);
            }
        });
        failed?;
        flush(&mut page, consume)?;
        let mut end = LinkRows::default();
        end.tally.pages += 1;
        // An input that cannot be read to its end (a cut .xml.gz) is a read
        // error, as for every other input.
        let read_error = |error| InputError {
            name: self.name.to_string(),
            error,
            usage: false,
        };
        let read_error = match result {
            Err(e) if e.read => Some(read_error(std::io::Error::other(e.message))),
            Err(e) => {
                end.bad_record(self.name, e.offset, LinkReason::BadXml, &e.message);
                // The document is bad, but the input may be cut or corrupt
                // too (a cut .xml.gz): read it to its end to know.
                std::io::copy(&mut reader, &mut std::io::sink())
                    .err()
                    .map(read_error)
            }
            Ok(()) => None,
        };
        consume(end)?;
        Ok(read_error)
    }
}

/// The site of `url` for same-site and external: its registrable domain,
/// or its host where it has none.
fn site_of<'u>(list: &List, url: &'u Url) -> &'u str {
    let host = url.hostname();
    list.registrable_domain(host).unwrap_or(host)
}

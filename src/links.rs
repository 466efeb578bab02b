//! `urlsift links`: the links inside crawled pages. Each input's pages
//! (`urlsift_links::pages`) are read in batches on this thread; a batch's
//! pages are parsed, their links extracted and resolved on rayon's pool,
//! and the results written in input order. Every record is a page, not a
//! page (counted), or a bad record (counted, in `--rejects`); every link
//! is written or is a bad link (counted, in `--rejects`).

use std::collections::BTreeMap;
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, StringArray, UInt64Array};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use std::io::Read;
use std::path::Path;
use std::process::ExitCode;
use urlsift_records::parquet::Writer;

use rayon::prelude::*;
use urlsift::Url;
use urlsift::profile::Profile;
use urlsift::site::List;
use urlsift_links::pages::{Item, Outcome, Pages};
use urlsift_links::{Kinds, Page, xml};
use urlsift_records::dedup::{Key, PatternOptions, write_key};
use urlsift_records::format::{extension, quote};
use urlsift_records::input::mmap::MapSlice;
use urlsift_records::input::{self, InputError, Opened};
use urlsift_records::stage::{Stage, Verdict};
use urlsift_records::write_reject_line;

use crate::args::{LinkField, LinksArgs, LinksFormat};
use crate::naming::{Named, OutputName};
use crate::output::{CliError, Sink};
use crate::parquet_out;

/// A batch of pages is cut at this many block bytes (or 512 records).
const BATCH_BYTES: usize = 32 << 20;

/// What was done, for the summary.
#[derive(Default)]
struct Tally {
    pages: u64,
    not_html: u64,
    other_records: u64,
    links: u64,
    filtered: u64,
    duplicates: u64,
    bad_links: BTreeMap<&'static str, u64>,
    bad_records: BTreeMap<&'static str, u64>,
    /// Pages read although their stored body is not coded as their
    /// headers say (`chunked-body-not-chunked`, ...).
    notices: BTreeMap<&'static str, u64>,
}

/// One record's results.
#[derive(Default)]
struct Done {
    out: Vec<u8>,
    /// With --dedup: each written link's key, and where its output ends.
    keys: Vec<Vec<u8>>,
    ends: Vec<usize>,
    /// Parquet output: each text field's values (`None`: null), and the
    /// record's offset once per link.
    columns: Vec<Vec<Option<String>>>,
    offsets: Vec<u64>,
    rejects: Vec<u8>,
    tally: Tally,
}

impl Done {
    /// A bad record at `offset`, counted and in the rejects.
    fn bad_record(&mut self, s: &Settings<'_>, offset: u64, reason: &'static str, value: &str) {
        *self.tally.bad_records.entry(reason).or_default() += 1;
        let _ = write_reject_line(
            &mut self.rejects,
            &s.name,
            0,
            offset,
            reason,
            value.as_bytes(),
        );
    }

    /// A bad link of the record at `offset`, counted and in the rejects.
    fn bad_link(&mut self, s: &Settings<'_>, offset: u64, reason: &'static str, value: &str) {
        *self.tally.bad_links.entry(reason).or_default() += 1;
        let _ = write_reject_line(
            &mut self.rejects,
            &s.name,
            0,
            offset,
            reason,
            value.as_bytes(),
        );
    }
}

/// Where links go: text to the sink, or Parquet rows through a writer.
struct Output {
    sink: Sink,
    parquet: Option<(Writer, SchemaRef)>,
    /// With --dedup: the keys written so far.
    seen: Option<std::collections::HashSet<Vec<u8>>>,
}

impl Output {
    /// Writes one record's links.
    fn put(&mut self, d: &Done, fields: &[LinkField]) -> Result<(), CliError> {
        let Some((writer, schema)) = &mut self.parquet else {
            return self.sink.put(&d.out);
        };
        if d.offsets.is_empty() {
            return Ok(());
        }
        let mut text = d.columns.iter();
        let arrays: Vec<ArrayRef> = fields
            .iter()
            .map(|f| -> ArrayRef {
                match (f, text.next()) {
                    (LinkField::Offset, _) => Arc::new(UInt64Array::from(d.offsets.clone())),
                    (_, Some(values)) => {
                        Arc::new(StringArray::from_iter(values.iter().map(|v| v.as_deref())))
                    }
                    (_, None) => unreachable!("a column per field"),
                }
            })
            .collect();
        let batch = RecordBatch::try_new(Arc::clone(schema), arrays).map_err(|e| {
            CliError::output(self.sink.name(), std::io::Error::other(e.to_string()))
        })?;
        let name = self.sink.name().to_string();
        writer
            .write(&batch, &mut self.sink)
            .map_err(|e| CliError::output(&name, e))
    }

    /// Commits the output of a run that read all its input; after a read
    /// error, abandons it (`-o` is all or nothing).
    fn commit(self, whole: bool) -> Result<(), CliError> {
        let Output {
            mut sink, parquet, ..
        } = self;
        if !whole {
            return sink.abandon();
        }
        if let Some((writer, _)) = parquet {
            let name = sink.name().to_string();
            writer
                .finish(&mut sink)
                .map_err(|e| CliError::output(&name, e))?;
        }
        sink.commit()
    }
}

/// The Parquet schema of `fields`: strings (`rel` nullable), `offset` a
/// 64-bit unsigned integer.
fn schema(fields: &[LinkField]) -> SchemaRef {
    Arc::new(Schema::new(
        fields
            .iter()
            .map(|f| match f {
                LinkField::Offset => Field::new("offset", DataType::UInt64, false),
                LinkField::Rel => Field::new("rel", DataType::Utf8, true),
                other => Field::new(other.name(), DataType::Utf8, false),
            })
            .collect::<Vec<_>>(),
    ))
}

/// What an input is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// WARC (or WAT) records.
    Warc,
    /// One HTML document.
    Html,
    /// A sitemap or feed.
    Xml,
}

/// The shape of `path` by its extension (after `.gz` or `.zst`).
fn shape(path: &Path) -> Shape {
    match extension(path).as_deref().unwrap_or("") {
        "html" | "htm" | "xhtml" => Shape::Html,
        "xml" | "rss" | "atom" => Shape::Xml,
        _ => Shape::Warc,
    }
}

struct Settings<'a> {
    kinds: Kinds,
    stage: &'a Stage,
    profile: &'a Profile,
    /// The list that says which site a host is in (--same-site,
    /// --external, --dedup site).
    list: &'a List,
    /// --same-site (`Some(true)`) or --external (`Some(false)`).
    same_site: Option<bool>,
    fields: &'a [LinkField],
    format: LinksFormat,
    javascript: bool,
    max: usize,
    name: String,
    shape: Shape,
    /// --dedup's key, and whether it holds per page.
    dedup: Option<(Key, bool)>,
}

pub fn run(args: LinksArgs) -> Result<ExitCode, CliError> {
    let kinds = match &args.kinds {
        Some(list) => Kinds::parse(list).map_err(CliError::Usage)?,
        None => Kinds::default(),
    };
    if let Some(e) = input::missing(&args.files) {
        return Err(CliError::Input(e));
    }
    if let Some(base) = &args.base {
        urlsift::Url::parse(base)
            .map_err(|e| CliError::Usage(format!("--base {base:?} is not a URL: {e}")))?;
    }
    let stage = args.sites.list().and_then(|list| {
        Stage::new(list, &args.filters.filters(), &args.edits.edits()).map_err(CliError::Usage)
    })?;
    let profile = args.profile.profile()?;
    let list = args.sites.list()?;
    if let Some(n) = args.threads {
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global();
    }
    let writes = match args.format() {
        LinksFormat::Parquet => (Named::Parquet, "Parquet"),
        LinksFormat::Csv => (Named::Csv, "CSV"),
        LinksFormat::Tsv => (Named::Tsv, "TSV"),
        LinksFormat::Jsonl => (Named::Jsonl, "JSON lines"),
    };
    OutputName::of(args.output.as_deref()).check(
        args.output.as_deref(),
        Some(writes.0),
        writes.1,
    )?;
    let parquet = if args.format() == LinksFormat::Parquet {
        parquet_out::check_target(args.output.as_deref())?;
        let codec = parquet_out::codec(args.compression.as_deref())?;
        let schema = schema(&args.fields);
        let writer = Writer::new(Arc::clone(&schema), codec, &[])
            .map_err(|e| CliError::Usage(e.to_string()))?;
        Some((writer, schema))
    } else {
        if args.compression.is_some() {
            return Err(CliError::Usage(
                "--compression is for Parquet output (--parquet, or -o NAME.parquet)".into(),
            ));
        }
        None
    };
    let mut out = Output {
        sink: Sink::open(args.output.as_deref(), false)?,
        parquet,
        seen: args.dedup.map(|_| Default::default()),
    };
    let mut rejects = match &args.rejects {
        Some(path) => Some(Sink::open(Some(path), false)?),
        None => None,
    };
    if args.header() {
        let mut row = Vec::new();
        write_row(
            &mut row,
            args.format(),
            args.fields.iter().map(|f| f.name()),
        );
        out.sink.put(&row)?;
    }
    let mut tally = Tally::default();
    let mut failed = None;
    for path in &args.files {
        let settings = Settings {
            kinds,
            stage: &stage,
            profile: &profile,
            list: &list,
            same_site: (args.same_site || args.external).then_some(args.same_site),
            fields: &args.fields,
            format: args.format(),
            javascript: args.javascript,
            max: usize::try_from(args.max_page_size).unwrap_or(usize::MAX),
            name: input::display_name(path),
            shape: shape(path),
            dedup: args
                .dedup
                .map(|k| (k.key(PatternOptions::default()), args.per_page)),
        };
        failed = read_input(
            path,
            &args,
            &settings,
            &mut out,
            rejects.as_mut(),
            &mut tally,
        )?;
        if failed.is_some() {
            break;
        }
    }
    // A read error: the rejects file is kept (it explains the failure),
    // the output file is not written.
    out.commit(failed.is_none())?;
    if let Some(r) = rejects {
        r.commit()?;
    }
    summary(&args, &tally);
    match failed {
        Some(e) => Err(CliError::Input(e)),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// Reads one input's pages and writes their links; a read error that
/// ended the input early is returned (after what came before it).
fn read_input(
    path: &Path,
    args: &LinksArgs,
    settings: &Settings<'_>,
    out: &mut Output,
    mut rejects: Option<&mut Sink>,
    tally: &mut Tally,
) -> Result<Option<InputError>, CliError> {
    let name = &settings.name;
    let input_error = |error| InputError {
        name: name.clone(),
        error,
        usage: false,
    };
    let reader: Box<dyn Read + Send> =
        match input::open(path).map_err(|e| CliError::Input(input_error(e)))? {
            Opened::Mapped(map) => {
                let len = map.bytes().len();
                Box::new(std::io::Cursor::new(MapSlice::new(map, 0..len)))
            }
            Opened::Read(r) => r,
        };
    if settings.shape == Shape::Xml {
        return read_xml(reader, args, settings, out, rejects, tally);
    }
    if settings.shape == Shape::Html {
        let base = args.base.as_deref().unwrap_or_default();
        let item = match Item::document(reader, settings.max, base) {
            Ok(item) => item,
            Err(e) => return Ok(Some(input_error(e))),
        };
        write_batch(&[item], settings, out, rejects.as_deref_mut(), tally)?;
        return Ok(None);
    }
    let mut pages = Pages::warc(reader, settings.max);
    let mut batch = Vec::new();
    let mut bytes = 0;
    loop {
        let item = pages.next();
        let end = item.is_none();
        if let Some(item) = item {
            if let Item::Page(p) = &item {
                bytes += p.block.len();
            }
            batch.push(item);
        }
        if end || bytes >= BATCH_BYTES || batch.len() >= 512 {
            write_batch(&batch, settings, out, rejects.as_deref_mut(), tally)?;
            batch.clear();
            bytes = 0;
        }
        if end {
            break;
        }
    }
    Ok(pages.error().map(input_error))
}

fn write_batch(
    batch: &[Item],
    settings: &Settings<'_>,
    out: &mut Output,
    rejects: Option<&mut Sink>,
    tally: &mut Tally,
) -> Result<(), CliError> {
    let done: Vec<Done> = batch.par_iter().map(|item| one(item, settings)).collect();
    let mut rejects = rejects;
    for d in done {
        add(tally, settings.fields, d, out, rejects.as_deref_mut())?;
    }
    Ok(())
}

/// The links of one record.
fn one(item: &Item, s: &Settings<'_>) -> Done {
    let mut done = Done::default();
    let (page, record) = match item.read(s.shape == Shape::Html, s.max, &s.kinds) {
        Outcome::Page(page, record) => (page, record),
        Outcome::Other => {
            done.tally.other_records += 1;
            return done;
        }
        Outcome::NotHtml => {
            done.tally.not_html += 1;
            return done;
        }
        Outcome::Bad {
            offset,
            reason,
            url,
        } => {
            done.bad_record(s, offset, reason, url);
            return done;
        }
    };
    done.tally.pages += 1;
    if let Some(notice) = page.notice {
        *done.tally.notices.entry(notice.name()).or_default() += 1;
    }
    write_links(&mut done, &page, record.offset, &record.url, s);
    done
}

/// The site of `url` for --same-site and --external: its registrable
/// domain, or its host where it has none.
fn site_of<'u>(list: &List, url: &'u Url) -> &'u str {
    let host = url.hostname();
    list.registrable_domain(host).unwrap_or(host)
}

/// Writes `page`'s links (found in the record at `offset`; `url`: the
/// page's URL as the input gave it).
fn write_links(done: &mut Done, page: &Page, offset: u64, url: &str, s: &Settings<'_>) {
    let from = page
        .url
        .as_ref()
        .map_or_else(|| url.to_string(), |u| s.profile.apply_to_string(u));
    let page_site = page.url.as_ref().map(|u| site_of(s.list, u));
    let offset_text = offset.to_string();
    let mut scratch = urlsift_records::Tally::default();
    let mut names = Vec::new();
    for link in page.resolve() {
        let mut url = match link.to {
            Ok(url) => url,
            Err(_) => {
                done.bad_link(s, offset, "invalid-url", &link.raw.value);
                continue;
            }
        };
        if url.protocol() == "javascript:" && !s.javascript {
            done.bad_link(s, offset, "javascript-url", &link.raw.value);
            continue;
        }
        if s.stage.apply(&mut url, &mut scratch) == Verdict::Drop {
            done.tally.filtered += 1;
            continue;
        }
        if let Some(wanted) = s.same_site {
            let same = page_site.is_some_and(|p| p == site_of(s.list, &url));
            if same != wanted {
                done.tally.filtered += 1;
                continue;
            }
        }
        done.tally.links += 1;
        let to = s.profile.apply_to_string(&url);
        if let Some((kind, per_page)) = s.dedup {
            let mut key = Vec::new();
            if per_page {
                key.extend_from_slice(from.as_bytes());
                key.push(0);
            }
            write_key(kind, &url, to.as_bytes(), &mut key, &mut names, s.list);
            done.keys.push(key);
        }
        // A field's value; `None` for a missing rel (null in JSON and
        // Parquet, empty in CSV and TSV).
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
            LinksFormat::Parquet => {
                if done.columns.is_empty() {
                    let text = s.fields.iter().filter(|f| **f != LinkField::Offset).count();
                    done.columns = vec![Vec::new(); text];
                }
                let text = s.fields.iter().filter(|f| **f != LinkField::Offset);
                for (f, column) in text.zip(&mut done.columns) {
                    column.push(value(f).map(str::to_string));
                }
                done.offsets.push(offset);
            }
            LinksFormat::Jsonl => {
                for (i, f) in s.fields.iter().enumerate() {
                    done.out.push(if i == 0 { b'{' } else { b',' });
                    quote::write_string(&mut done.out, f.name());
                    done.out.push(b':');
                    match value(f) {
                        Some(v) if *f == LinkField::Offset => {
                            done.out.extend_from_slice(v.as_bytes())
                        }
                        Some(v) => quote::write_string(&mut done.out, v),
                        None => done.out.extend_from_slice(b"null"),
                    }
                }
                done.out.extend_from_slice(b"}\n");
            }
            format => write_row(
                &mut done.out,
                format,
                s.fields.iter().map(|f| value(f).unwrap_or("")),
            ),
        }
        if s.dedup.is_some() {
            done.ends.push(done.out.len());
        }
    }
}

/// A sitemap or feed: its links, streamed, written in batches; an XML
/// error is a bad record at its offset, after the links before it.
fn read_xml(
    reader: Box<dyn Read + Send>,
    args: &LinksArgs,
    s: &Settings<'_>,
    out: &mut Output,
    mut rejects: Option<&mut Sink>,
    tally: &mut Tally,
) -> Result<Option<InputError>, CliError> {
    const BATCH: usize = 8192;
    let base = args.base.as_deref().and_then(|b| Url::parse(b).ok());
    let mut page = Page::of_links(base, Vec::new());
    let mut failed: Result<(), CliError> = Ok(());
    let mut flush = |page: &mut Page, rejects: &mut Option<&mut Sink>, tally: &mut Tally| {
        let mut done = Done::default();
        write_links(&mut done, page, 0, args.base.as_deref().unwrap_or(""), s);
        page.links.clear();
        add(tally, s.fields, done, out, rejects.as_deref_mut())
    };
    let document = page.url.clone();
    let result = xml::links(
        std::io::BufReader::with_capacity(1 << 16, reader),
        document.as_ref(),
        &s.kinds,
        |link| {
            page.links.push(link);
            if page.links.len() >= BATCH && failed.is_ok() {
                failed = flush(&mut page, &mut rejects, tally);
            }
        },
    );
    failed?;
    flush(&mut page, &mut rejects, tally)?;
    tally.pages += 1;
    // An input that cannot be read to its end (a cut .xml.gz) is a read
    // error, as for every other input: exit status 2.
    if let Err(e) = &result
        && e.read
    {
        return Ok(Some(InputError {
            name: s.name.clone(),
            error: std::io::Error::other(e.message.clone()),
            usage: false,
        }));
    }
    if let Err(e) = result {
        *tally.bad_records.entry("bad-xml").or_default() += 1;
        if let Some(r) = rejects {
            let mut line = Vec::new();
            let _ = write_reject_line(
                &mut line,
                &s.name,
                0,
                e.offset,
                "bad-xml",
                e.message.as_bytes(),
            );
            r.put(&line)?;
        }
    }
    Ok(None)
}

/// Leaves out of `d` the links whose key was seen before (in an earlier
/// record, or earlier in this one).
fn drop_seen(d: &mut Done, seen: &mut std::collections::HashSet<Vec<u8>>) {
    let keep: Vec<bool> = d.keys.drain(..).map(|k| seen.insert(k)).collect();
    let dropped = keep.iter().filter(|k| !**k).count() as u64;
    if dropped == 0 {
        return;
    }
    d.tally.links -= dropped;
    d.tally.duplicates += dropped;
    if !d.columns.is_empty() {
        for column in &mut d.columns {
            let mut i = 0;
            column.retain(|_| {
                i += 1;
                keep[i - 1]
            });
        }
        return;
    }
    let mut out = Vec::with_capacity(d.out.len());
    let mut start = 0;
    for (&end, &k) in d.ends.iter().zip(&keep) {
        if k {
            out.extend_from_slice(&d.out[start..end]);
        }
        start = end;
    }
    d.out = out;
}

/// Writes one record's results and adds its counts.
fn add(
    tally: &mut Tally,
    fields: &[LinkField],
    mut d: Done,
    out: &mut Output,
    rejects: Option<&mut Sink>,
) -> Result<(), CliError> {
    if let Some(seen) = out.seen.as_mut() {
        drop_seen(&mut d, seen);
    }
    out.put(&d, fields)?;
    if let Some(r) = rejects {
        r.put(&d.rejects)?;
    }
    tally.pages += d.tally.pages;
    tally.not_html += d.tally.not_html;
    tally.other_records += d.tally.other_records;
    tally.links += d.tally.links;
    tally.filtered += d.tally.filtered;
    tally.duplicates += d.tally.duplicates;
    for (k, v) in d.tally.notices {
        *tally.notices.entry(k).or_default() += v;
    }
    for (k, v) in d.tally.bad_links {
        *tally.bad_links.entry(k).or_default() += v;
    }
    for (k, v) in d.tally.bad_records {
        *tally.bad_records.entry(k).or_default() += v;
    }
    Ok(())
}

/// One CSV or TSV row, quoted where the csv crate's writer quotes (a
/// value holding the delimiter, a quote, CR or LF; a lone empty field as
/// `""`, or the row would read back as a blank line).
fn write_row<'v>(out: &mut Vec<u8>, format: LinksFormat, values: impl Iterator<Item = &'v str>) {
    let delimiter = if format == LinksFormat::Csv {
        b','
    } else {
        b'\t'
    };
    let start = out.len();
    let mut fields = 0;
    for v in values {
        if fields > 0 {
            out.push(delimiter);
        }
        quote::write_field(out, v.as_bytes(), delimiter, false);
        fields += 1;
    }
    if fields == 1 && out.len() == start {
        out.extend_from_slice(b"\"\"");
    }
    out.push(b'\n');
}

fn summary(args: &LinksArgs, t: &Tally) {
    if args.quiet {
        return;
    }
    let list = |m: &BTreeMap<&str, u64>| {
        m.iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // `1 page`, `2 pages`.
    let n = |count: u64, noun: &str| match count {
        1 => format!("1 {noun}"),
        _ => format!("{count} {noun}s"),
    };
    let mut line = format!(
        "urlsift links: {}, {}",
        n(t.pages, "page"),
        n(t.links, "link")
    );
    // `; 3 bad links (invalid-url 2, javascript-url 1)`, where any.
    for (counts, noun, after) in [
        (&t.bad_links, "bad link", ""),
        (&t.bad_records, "bad record", ""),
        (&t.notices, "page", " read as stored"),
    ] {
        let total: u64 = counts.values().sum();
        if total > 0 {
            line.push_str(&format!("; {}{after} ({})", n(total, noun), list(counts)));
        }
    }
    if t.filtered > 0 {
        line.push_str(&format!("; {} filtered", t.filtered));
    }
    if t.duplicates > 0 {
        line.push_str(&format!("; {}", n(t.duplicates, "duplicate")));
    }
    if t.not_html + t.other_records > 0 {
        line.push_str(&format!(
            "; {} not HTML, {} not responses",
            n(t.not_html, "record"),
            t.other_records
        ));
    }
    eprintln!("{line}");
}

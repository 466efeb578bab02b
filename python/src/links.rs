//! `urlsift.links`: the links inside WARC, WAT and ARC files (the pages
//! of their response records), HTML files, sitemaps and feeds, as Arrow
//! record batches, read as `urlsift links` reads them (the library's
//! `urlsift_links`): one row per link, its page, tag, attribute, rel,
//! kind and the page record's offset.
//!
//! The inputs are read on a thread of its own, never holding the GIL;
//! each batch crosses to Python as an Arrow IPC stream, as `urlsift.read`'s
//! do.

use std::collections::BTreeMap;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use arrow_array::builder::{StringBuilder, UInt64Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use urlsift::Url;
use urlsift_links::pages::{Item, Outcome, Pages};
use urlsift_links::{Kinds, Page, xml};
use urlsift_records::format::extension;
use urlsift_records::input::mmap::MapSlice;
use urlsift_records::input::{self, Opened};

use crate::read::ipc;
use crate::url::{BaseArg, parse_base};

/// The fields a link row can have, in the command's names.
const FIELDS: [&str; 7] = ["from", "to", "tag", "attribute", "rel", "kind", "offset"];

/// Blocks (a record's, an HTML file's) larger than this are bad records
/// (`page-too-large`), as `urlsift links --max-page-size` leaves them by
/// default.
const MAX_PAGE: usize = 32 << 20;

/// What the reading thread sends: a batch as an IPC stream, or the end.
enum Message {
    Batch(Vec<u8>),
    End(Counts),
}

/// What a read found, beside its links.
#[derive(Default)]
struct Counts {
    pages: u64,
    links: u64,
    not_html: u64,
    other_records: u64,
    bad_records: BTreeMap<&'static str, u64>,
    bad_links: BTreeMap<&'static str, u64>,
    notices: BTreeMap<&'static str, u64>,
    errors: Vec<String>,
}

/// The settings of a read, as its thread takes them.
struct Plan {
    paths: Vec<PathBuf>,
    fields: Vec<usize>,
    kinds: Kinds,
    base: Option<Url>,
    javascript: bool,
    batch_rows: usize,
    schema: SchemaRef,
}

/// A links read in progress: batches come from the reading thread.
#[pyclass(module = "urlsift._urlsift")]
pub struct LinksReader {
    schema: Vec<u8>,
    rx: Option<Mutex<Receiver<Message>>>,
    thread: Option<JoinHandle<()>>,
    counts: Option<Counts>,
}

#[pymethods]
impl LinksReader {
    /// Opens a read of `paths` (see `urlsift.links` for the arguments).
    #[new]
    #[pyo3(signature = (paths, fields=vec!["from".to_string(), "to".to_string()], kinds=None, base=None, javascript=false, batch_rows=65536))]
    fn new(
        paths: Vec<PathBuf>,
        fields: Vec<String>,
        kinds: Option<String>,
        base: Option<BaseArg>,
        javascript: bool,
        batch_rows: usize,
    ) -> PyResult<LinksReader> {
        let fields = fields
            .iter()
            .map(|f| {
                FIELDS.iter().position(|n| n == f).ok_or_else(|| {
                    PyValueError::new_err(format!("field {f:?}: one of {}", FIELDS.join(", ")))
                })
            })
            .collect::<PyResult<Vec<usize>>>()?;
        if fields.is_empty() {
            return Err(PyValueError::new_err("links: no field asked for"));
        }
        let kinds = match kinds.as_deref() {
            None => Kinds::default(),
            Some(list) => Kinds::parse(list).map_err(PyValueError::new_err)?,
        };
        if let Some(missing) = paths.iter().find(|p| *p != Path::new("-") && !p.exists()) {
            return Err(PyFileNotFoundError::new_err(format!(
                "{}: no such file",
                missing.display()
            )));
        }
        let schema = Arc::new(Schema::new(
            fields
                .iter()
                .map(|&i| match FIELDS[i] {
                    "offset" => Field::new("offset", DataType::UInt64, false),
                    "rel" => Field::new("rel", DataType::Utf8, true),
                    name => Field::new(name, DataType::Utf8, false),
                })
                .collect::<Vec<_>>(),
        ));
        let plan = Plan {
            paths,
            fields,
            kinds,
            base: parse_base(base)?,
            javascript,
            batch_rows: batch_rows.max(1),
            schema: Arc::clone(&schema),
        };
        let (tx, rx) = sync_channel(2);
        let thread = std::thread::Builder::new()
            .name("urlsift-links".into())
            .spawn(move || {
                let counts = read(&plan, &tx);
                let _ = tx.send(Message::End(counts));
            })
            .map_err(|e| PyOSError::new_err(e.to_string()))?;
        Ok(LinksReader {
            schema: ipc(&schema, None).map_err(PyValueError::new_err)?,
            rx: Some(Mutex::new(rx)),
            thread: Some(thread),
            counts: None,
        })
    }

    /// The columns' schema, as an Arrow IPC stream without batches.
    fn schema<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.schema)
    }

    /// The next batch as an Arrow IPC stream, or `None` at the end (the
    /// GIL is released while waiting).
    fn next_batch<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyBytes>>> {
        let Some(rx) = &self.rx else {
            return Ok(None);
        };
        match py.detach(|| rx.lock().ok()?.recv().ok()) {
            Some(Message::Batch(bytes)) => Ok(Some(PyBytes::new(py, &bytes))),
            Some(Message::End(counts)) => {
                self.finish(py);
                self.counts = Some(counts);
                Ok(None)
            }
            None => {
                self.finish(py);
                Err(PyOSError::new_err(
                    "the links thread ended without a summary",
                ))
            }
        }
    }

    /// The counts of a finished read: `pages`, `links`, `not_html`,
    /// `other_records`, `bad_records` and `bad_links` (by reason),
    /// `notices` (by name), `errors` (inputs that could not be read to
    /// their end) and `text`, a summary line; `None` before
    /// the end.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(c) = &self.counts else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("pages", c.pages)?;
        d.set_item("links", c.links)?;
        d.set_item("not_html", c.not_html)?;
        d.set_item("other_records", c.other_records)?;
        for (key, map) in [
            ("bad_records", &c.bad_records),
            ("bad_links", &c.bad_links),
            ("notices", &c.notices),
        ] {
            let m = PyDict::new(py);
            for (reason, n) in map {
                m.set_item(reason, n)?;
            }
            d.set_item(key, m)?;
        }
        d.set_item("errors", c.errors.clone())?;
        d.set_item("text", text(c))?;
        Ok(Some(d))
    }

    /// Stops the read (the thread ends at its next batch).
    fn close(&mut self, py: Python<'_>) {
        self.finish(py);
    }
}

impl LinksReader {
    fn finish(&mut self, py: Python<'_>) {
        self.rx = None;
        if let Some(t) = self.thread.take() {
            py.detach(|| {
                let _ = t.join();
            });
        }
    }
}

/// The summary line.
fn text(c: &Counts) -> String {
    let by = |m: &BTreeMap<&str, u64>| {
        m.iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut s = format!(
        "{} pages, {} links; {} records not HTML, {} not responses",
        c.pages, c.links, c.not_html, c.other_records
    );
    if !c.bad_records.is_empty() {
        s.push_str(&format!("; bad records: {}", by(&c.bad_records)));
    }
    if !c.bad_links.is_empty() {
        s.push_str(&format!("; bad links: {}", by(&c.bad_links)));
    }
    if !c.notices.is_empty() {
        s.push_str(&format!("; read as stored: {}", by(&c.notices)));
    }
    s
}

/// The rows of the batch being built: one builder per field.
struct Rows {
    text: Vec<StringBuilder>,
    offsets: UInt64Builder,
    len: usize,
}

impl Rows {
    fn new(plan: &Plan) -> Rows {
        Rows {
            text: plan.fields.iter().map(|_| StringBuilder::new()).collect(),
            offsets: UInt64Builder::new(),
            len: 0,
        }
    }

    /// The batch of the rows so far (the builders start again).
    fn batch(&mut self, plan: &Plan) -> Result<RecordBatch, String> {
        let columns: Vec<ArrayRef> = plan
            .fields
            .iter()
            .zip(&mut self.text)
            .map(|(&f, b)| -> ArrayRef {
                if FIELDS[f] == "offset" {
                    Arc::new(self.offsets.finish())
                } else {
                    Arc::new(b.finish())
                }
            })
            .collect();
        self.len = 0;
        RecordBatch::try_new(Arc::clone(&plan.schema), columns).map_err(|e| e.to_string())
    }
}

/// The reading thread's work: every input in order; the counts.
fn read(plan: &Plan, tx: &SyncSender<Message>) -> Counts {
    let mut counts = Counts::default();
    let mut rows = Rows::new(plan);
    for path in &plan.paths {
        if let Err(e) = read_one(plan, path, &mut rows, &mut counts, tx) {
            counts.errors.push(format!("{}: {e}", path.display()));
        }
        if rows.len >= plan.batch_rows && !send(plan, &mut rows, tx) {
            return counts;
        }
    }
    if rows.len > 0 {
        send(plan, &mut rows, tx);
    }
    counts
}

/// Sends the rows so far; false once the reader is closed.
fn send(plan: &Plan, rows: &mut Rows, tx: &SyncSender<Message>) -> bool {
    match rows.batch(plan).and_then(|b| ipc(&plan.schema, Some(&b))) {
        Ok(bytes) => tx.send(Message::Batch(bytes)).is_ok(),
        Err(_) => false,
    }
}

/// The links of one input, as its name says it is: HTML, a sitemap or
/// feed, else WARC, WAT or ARC records.
fn read_one(
    plan: &Plan,
    path: &Path,
    rows: &mut Rows,
    counts: &mut Counts,
    tx: &SyncSender<Message>,
) -> Result<(), String> {
    let reader: Box<dyn Read + Send> = match input::open(path).map_err(|e| e.to_string())? {
        Opened::Mapped(map) => {
            let len = map.bytes().len();
            Box::new(std::io::Cursor::new(MapSlice::new(map, 0..len)))
        }
        Opened::Read(r) => r,
    };
    let base_text = plan.base.as_ref().map_or("", |b| b.href()).to_string();
    match extension(path).as_deref().unwrap_or("") {
        "xml" | "rss" | "atom" => {
            let mut links = Vec::new();
            let result = xml::links(
                BufReader::with_capacity(1 << 16, reader),
                plan.base.as_ref(),
                &plan.kinds,
                |l| links.push(l),
            );
            let page = Page::of_links(plan.base.clone(), links);
            counts.pages += 1;
            add_page(plan, &page, 0, &base_text, rows, counts);
            match result {
                Err(e) if e.read => return Err(e.message),
                Err(_) => *counts.bad_records.entry("bad-xml").or_default() += 1,
                Ok(()) => {}
            }
        }
        "html" | "htm" | "xhtml" => {
            let item = Item::document(reader, MAX_PAGE, &base_text).map_err(|e| e.to_string())?;
            add_item(plan, &item, true, rows, counts);
        }
        _ => {
            let mut pages = Pages::warc(reader, MAX_PAGE);
            for item in pages.by_ref() {
                add_item(plan, &item, false, rows, counts);
                if rows.len >= plan.batch_rows && !send(plan, rows, tx) {
                    return Ok(());
                }
            }
            if let Some(e) = pages.error() {
                return Err(e.to_string());
            }
        }
    }
    Ok(())
}

/// One record's links, or what it counts as.
fn add_item(plan: &Plan, item: &Item, document: bool, rows: &mut Rows, counts: &mut Counts) {
    match item.read(document, MAX_PAGE, &plan.kinds) {
        Outcome::Page(page, record) => {
            counts.pages += 1;
            if let Some(n) = page.notice {
                *counts.notices.entry(n.name()).or_default() += 1;
            }
            add_page(plan, &page, record.offset, &record.url, rows, counts);
        }
        Outcome::NotHtml => counts.not_html += 1,
        Outcome::Other => counts.other_records += 1,
        Outcome::Bad { reason, .. } => *counts.bad_records.entry(reason).or_default() += 1,
    }
}

/// A page's links as rows (`url`: the page's URL as the input gave it).
fn add_page(
    plan: &Plan,
    page: &Page,
    offset: u64,
    url: &str,
    rows: &mut Rows,
    counts: &mut Counts,
) {
    let from = page.url.as_ref().map_or(url, |u| u.href()).to_string();
    for link in page.resolve() {
        let to = match link.to {
            Ok(to) => to,
            Err(_) => {
                *counts.bad_links.entry("invalid-url").or_default() += 1;
                continue;
            }
        };
        if to.protocol() == "javascript:" && !plan.javascript {
            *counts.bad_links.entry("javascript-url").or_default() += 1;
            continue;
        }
        counts.links += 1;
        rows.len += 1;
        for (&f, b) in plan.fields.iter().zip(&mut rows.text) {
            match FIELDS[f] {
                "from" => b.append_value(&from),
                "to" => b.append_value(to.href()),
                "tag" => b.append_value(&link.raw.tag),
                "attribute" => b.append_value(&link.raw.attribute),
                "rel" => b.append_option(link.raw.rel.as_deref()),
                "kind" => b.append_value(link.raw.kind.name()),
                _ => rows.offsets.append_value(offset),
            }
        }
    }
}

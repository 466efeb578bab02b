//! `urlsift.links`: the links inside WARC, WAT and ARC files (the pages
//! of their response records), HTML files, sitemaps and feeds, as Arrow
//! record batches, read as `urlsift links` reads them (the library's
//! `urlsift_links`): one row per link, its page, tag, attribute, rel,
//! kind and the page record's offset.
//!
//! The inputs are read on a thread of its own, never holding the GIL;
//! each batch crosses to Python as an Arrow IPC stream, as `urlsift.read`'s
//! do.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use arrow_array::builder::{StringBuilder, UInt64Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use urlsift_links::Kinds;
use urlsift_links::rows::{self, LinkField, LinkRows, LinkSettings, LinkTally, RowFormat};
use urlsift_records::Count;

use crate::read::ipc;
use crate::url::{BaseArg, parse_base};

/// Blocks (a record's, an HTML file's) larger than this are bad records
/// (`page-too-large`), as `urlsift links --max-page-size` leaves them by
/// default.
const MAX_PAGE: usize = 32 << 20;

/// What the reading thread sends: a batch as an IPC stream, or the end.
enum Message {
    Batch(Vec<u8>),
    End(Counts),
}

/// What a read found, beside its links: the command's counts, and the
/// inputs that could not be read to their end.
#[derive(Default)]
struct Counts {
    tally: LinkTally,
    errors: Vec<String>,
}

/// The settings of a read, as its thread takes them.
struct Plan {
    paths: Vec<PathBuf>,
    settings: LinkSettings,
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
    #[pyo3(signature = (paths, fields=vec!["from".to_string(), "to".to_string()], kinds=None, base=None, javascript=false, batch_rows=65536, storage_options=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        paths: Vec<PathBuf>,
        fields: Vec<String>,
        kinds: Option<String>,
        base: Option<BaseArg>,
        javascript: bool,
        batch_rows: usize,
        storage_options: Option<crate::remote::StorageOptions>,
    ) -> PyResult<LinksReader> {
        let fields = fields
            .iter()
            .map(|f| {
                LinkField::named(f).ok_or_else(|| {
                    let names: Vec<&str> = LinkField::ALL.iter().map(|f| f.name()).collect();
                    PyValueError::new_err(format!("field {f:?}: one of {}", names.join(", ")))
                })
            })
            .collect::<PyResult<Vec<LinkField>>>()?;
        if fields.is_empty() {
            return Err(PyValueError::new_err("links: no field asked for"));
        }
        let kinds = match kinds.as_deref() {
            None => Kinds::default(),
            Some(list) => Kinds::parse(list).map_err(PyValueError::new_err)?,
        };
        let paths = crate::remote::inputs(py, paths, storage_options.as_ref())?;
        if let Some(e) = py.detach(|| urlsift_input::unusable(&paths)) {
            return Err(crate::remote::io_error(&e.name, e.error));
        }
        let schema = Arc::new(Schema::new(
            fields
                .iter()
                .map(|f| match f {
                    LinkField::Offset => Field::new("offset", DataType::UInt64, false),
                    LinkField::Rel => Field::new("rel", DataType::Utf8, true),
                    other => Field::new(other.name(), DataType::Utf8, false),
                })
                .collect::<Vec<_>>(),
        ));
        let plan = Plan {
            paths,
            settings: LinkSettings {
                kinds,
                fields,
                format: RowFormat::Columns,
                javascript,
                max_page: MAX_PAGE,
                base: parse_base(base)?.map(|b| b.href().to_string()),
                ..LinkSettings::default()
            },
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
        let (d, t) = (PyDict::new(py), &c.tally);
        d.set_item("pages", t.pages)?;
        d.set_item("links", t.links)?;
        d.set_item("not_html", t.not_html)?;
        d.set_item("other_records", t.other_records)?;
        for (key, map) in [
            ("bad_records", &t.bad_records),
            ("bad_links", &t.bad_links),
            ("notices", &t.notices),
        ] {
            let m = PyDict::new(py);
            for (reason, n) in map {
                m.set_item(reason, n)?;
            }
            d.set_item(key, m)?;
        }
        d.set_item("errors", c.errors.clone())?;
        d.set_item("text", t.summary())?;
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

/// The rows of the batch being built: one builder per field.
struct Rows {
    text: Vec<StringBuilder>,
    offsets: UInt64Builder,
    len: usize,
}

impl Rows {
    fn new(plan: &Plan) -> Rows {
        Rows {
            text: plan
                .settings
                .fields
                .iter()
                .map(|_| StringBuilder::new())
                .collect(),
            offsets: UInt64Builder::new(),
            len: 0,
        }
    }

    /// Appends one record's links (their text columns in field order,
    /// `offset` aside).
    fn append(&mut self, plan: &Plan, rows: &LinkRows) {
        if rows.offsets.is_empty() {
            return;
        }
        let text = plan.settings.fields.iter().zip(&mut self.text);
        let mut columns = rows.columns.iter();
        for (f, builder) in text {
            if *f == LinkField::Offset {
                continue;
            }
            let values = columns.next().expect("a column per text field");
            for v in values {
                builder.append_option(v.as_deref());
            }
        }
        self.offsets.append_slice(&rows.offsets);
        self.len += rows.offsets.len();
    }

    /// The batch of the rows so far (the builders start again).
    fn batch(&mut self, plan: &Plan) -> Result<RecordBatch, String> {
        let columns: Vec<ArrayRef> = plan
            .settings
            .fields
            .iter()
            .zip(&mut self.text)
            .map(|(f, b)| -> ArrayRef {
                if *f == LinkField::Offset {
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

/// The reader went away: the read stops.
struct Closed;

/// The reading thread's work: every input in order (records on the
/// record engine, as the command reads them); the counts.
fn read(plan: &Plan, tx: &SyncSender<Message>) -> Counts {
    let mut counts = Counts::default();
    let mut rows = Rows::new(plan);
    let result = rows::read(&plan.paths, &plan.settings, |r| {
        rows.append(plan, &r);
        counts.tally.merge(&r.tally);
        if rows.len >= plan.batch_rows && !send(plan, &mut rows, tx) {
            return Err(Closed);
        }
        Ok(())
    });
    match result {
        Ok(errors) => counts.errors.extend(errors.iter().map(ToString::to_string)),
        Err(Closed) => return counts,
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

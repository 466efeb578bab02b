//! `urlsift.read`: any input the command reads (lines, CSV/TSV, JSON lines,
//! CDXJ, WARC, access logs, Parquet; gzip and zstd), through the library's
//! record engine, as Arrow record batches.
//!
//! The engine runs on a thread of its own (and its workers), never holding
//! the GIL; each batch crosses to Python as an Arrow IPC stream (the
//! schema, any dictionaries, the batch), which pyarrow reads without
//! copying. The columns are the library's `urlsift_records::parquet::Columns`:
//! `extract`'s fields, typed as `extract` writes them to Parquet.

use std::borrow::Cow;
use std::io;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use arrow_array::RecordBatch;
use arrow_ipc::writer::StreamWriter;
use arrow_schema::SchemaRef;
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use urlsift::profile::Profile;
use urlsift::site::List;
use urlsift::{BatchParser, Url};
use urlsift_records::fields::{Asked, Context, Field};
use urlsift_records::format::frame::Frames;
use urlsift_records::parquet::{Columns, Cursor, ParquetLayout};
use urlsift_records::{
    self, Engine, Job, Kind, Ledger, Options, PerRecord, Policy, Processed, Reason, Rec, Spec,
    Tally,
};

use crate::url::BaseArg;

/// The library's settings as Python names them: `read`'s keyword
/// arguments.
pub(crate) struct Keywords;

impl urlsift_records::SettingNames for Keywords {
    fn name(&self, setting: urlsift_records::Setting) -> String {
        use urlsift_records::Setting;
        match setting {
            Setting::Field => "field=",
            Setting::Delimiter => "delimiter=",
            Setting::InputFormat => "format=",
            Setting::Match => "patterns=",
            Setting::Strict => "strict=",
        }
        .to_string()
    }

    fn given(&self, setting: urlsift_records::Setting, value: &str) -> String {
        match value.starts_with(['\'', '"']) {
            true => format!("{}{value}", self.name(setting)),
            false => format!("{}{value:?}", self.name(setting)),
        }
    }
}

/// What the engine's thread sends: a batch as an IPC stream, or the end.
enum Message {
    Batch(Vec<u8>),
    End(Result<Summary, String>),
}

/// How a read ended: the counts, as the command's summary gives them, and
/// the read errors that ended inputs early (after their records).
struct Summary {
    tally: Tally,
    files: usize,
    noun: &'static str,
    errors: Vec<String>,
}

/// A read in progress: batches come from the engine's thread.
#[pyclass(module = "urlsift._urlsift")]
pub struct Reader {
    schema: Vec<u8>,
    rx: Option<Mutex<Receiver<Message>>>,
    thread: Option<JoinHandle<()>>,
    summary: Option<Summary>,
}

pub(crate) fn ipc(schema: &SchemaRef, batch: Option<&RecordBatch>) -> Result<Vec<u8>, String> {
    let mut w = StreamWriter::try_new(Vec::new(), schema).map_err(|e| e.to_string())?;
    if let Some(b) = batch {
        w.write(b).map_err(|e| e.to_string())?;
    }
    w.into_inner().map_err(|e| e.to_string())
}

/// The settings a read was opened with, as the engine's thread takes them.
struct Plan {
    engine: Engine,
    columns: Arc<Columns>,
    base: Option<Url>,
    profile: Profile,
    reasons: bool,
    batch_rows: usize,
}

#[pymethods]
impl Reader {
    /// Opens a read of `paths` (see `urlsift.read` for the arguments).
    #[new]
    #[pyo3(signature = (paths, format=None, field=None, fields=vec!["href".to_string()], base=None, strip_fragment=false, sort_query=false, strip_params=None, with_reasons=false, provenance=false, batch_rows=65536, threads=None, delimiter=None, no_header=false, storage_options=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        paths: Vec<PathBuf>,
        format: Option<String>,
        field: Option<String>,
        fields: Vec<String>,
        base: Option<BaseArg>,
        strip_fragment: bool,
        sort_query: bool,
        strip_params: Option<Vec<String>>,
        with_reasons: bool,
        provenance: bool,
        batch_rows: usize,
        threads: Option<usize>,
        delimiter: Option<String>,
        no_header: bool,
        storage_options: Option<crate::remote::StorageOptions>,
    ) -> PyResult<Reader> {
        let value_error = |m: String| PyValueError::new_err(m);
        let kind = match format.as_deref() {
            None | Some("auto") => None,
            Some(name) => Some(Kind::named(name).ok_or_else(|| {
                value_error(format!(
                    "format {name:?}: one of lines, csv, tsv, jsonl, cdxj, warc, arc, log, parquet"
                ))
            })?),
        };
        let delimiter = match delimiter.as_deref() {
            None => None,
            Some("\\t" | "tab") => Some(b'\t'),
            Some(d) if d.len() == 1 && d != "\"" => Some(d.as_bytes()[0]),
            Some(d) => return Err(value_error(format!("delimiter {d:?}: one character"))),
        };
        let fields = fields
            .iter()
            .map(|f| Field::parse(f))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| value_error(e.message(&Keywords)))?;
        if let Some(f) = fields
            .iter()
            .find(|f| matches!(f, Field::MatchLine | Field::Match(_)))
        {
            return Err(value_error(format!(
                "the {} field tells which --match pattern matched; urlsift.read takes no patterns \
                 (urlsift.url_match and urlsift.url_match_groups match URLs in Python)",
                f.name()
            )));
        }
        if fields.contains(&Field::Canonical) {
            return Err(value_error(
                "the canonical field needs a canonical form, which urlsift.read does not take yet \
                 (the command's `extract --canonical FORM --fields canonical` gives it)"
                    .into(),
            ));
        }
        let base = crate::url::parse_base(base)?;
        let profile = Profile::new()
            .strip_fragment(strip_fragment)
            .sort_query(sort_query)
            .strip_params(strip_params.unwrap_or_default())
            .map_err(|e| value_error(format!("strip_params: {e}")))?;
        if batch_rows == 0 {
            return Err(value_error("batch_rows must be at least 1".into()));
        }
        let spec = Spec {
            kind,
            field,
            no_header,
            delimiter,
            // An unknown `@NAME` is a ValueError as reading starts, where
            // the format knows its fields (a CSV header, a Parquet schema).
            named: Asked::of(&fields).names(),
        };
        let options = Options {
            spec: spec.clone(),
            threads,
            ..Options::default()
        };
        let paths = crate::remote::inputs(py, paths, storage_options.as_ref())?;
        let engine = Engine::builder(paths)
            .options(&options)
            .count_lines(provenance || fields.contains(&Field::Line))
            .build()
            .map_err(|e| match e {
                urlsift_records::Error::Input(e) if e.error.kind() == io::ErrorKind::NotFound => {
                    PyFileNotFoundError::new_err(e.to_string())
                }
                e => value_error(e.message(&Keywords)),
            })?;
        let input = (engine.kind() == Kind::Parquet)
            .then(|| {
                let first = engine.files().first()?;
                let cursor =
                    Cursor::open(first, String::new(), spec.field.as_deref(), 1, 1).ok()?;
                Some(
                    ParquetLayout::of(&cursor.source().format)?
                        .schema
                        .as_ref()
                        .clone(),
                )
            })
            .flatten();
        let columns =
            Columns::new(&fields, input.as_ref(), provenance, with_reasons).map_err(value_error)?;
        let schema = ipc(columns.schema(), None).map_err(value_error)?;
        let plan = Plan {
            engine,
            columns: Arc::new(columns),
            base,
            profile,
            reasons: with_reasons,
            batch_rows,
        };
        let (tx, rx) = sync_channel(2);
        let thread = py
            .detach(|| {
                std::thread::Builder::new()
                    .name("urlsift-read".into())
                    .spawn(move || run(plan, tx))
            })
            .map_err(|e| PyOSError::new_err(format!("cannot start the reader's thread: {e}")))?;
        Ok(Reader {
            schema,
            rx: Some(Mutex::new(rx)),
            thread: Some(thread),
            summary: None,
        })
    }

    /// The columns' schema, as an Arrow IPC stream without batches.
    fn schema<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.schema)
    }

    /// The next batch as an Arrow IPC stream, or `None` at the end (the
    /// GIL is released while waiting). An error that ended the run is
    /// raised as `ValueError` (a usage error) once the batches before it
    /// were read.
    fn next_batch<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyBytes>>> {
        let Some(rx) = &self.rx else {
            return Ok(None);
        };
        let message = py.detach(|| rx.lock().ok()?.recv().ok());
        match message {
            Some(Message::Batch(bytes)) => Ok(Some(PyBytes::new(py, &bytes))),
            Some(Message::End(end)) => {
                self.finish(py);
                match end {
                    Ok(summary) => {
                        self.summary = Some(summary);
                        Ok(None)
                    }
                    Err(e) => Err(PyValueError::new_err(e)),
                }
            }
            None => {
                self.finish(py);
                Err(PyOSError::new_err(
                    "the reader's thread ended without a summary",
                ))
            }
        }
    }

    /// The counts of a finished read: `records`, `valid`, `empty`, `bad`
    /// (by reason), `filtered`, `errors` (read errors that ended inputs
    /// early) and `text`, the command's summary line; `None` before the
    /// end.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(s) = &self.summary else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("records", s.tally.lines)?;
        d.set_item("valid", s.tally.valid)?;
        d.set_item("empty", s.tally.empty)?;
        d.set_item("filtered", s.tally.filtered)?;
        let bad = PyDict::new(py);
        for (reason, n) in &s.tally.bad {
            bad.set_item(reason, n)?;
        }
        d.set_item("bad", bad)?;
        d.set_item("errors", s.errors.clone())?;
        d.set_item("text", s.tally.summary(s.files, s.noun, false))?;
        Ok(Some(d))
    }

    /// Stops the read (the engine's thread ends at its next batch).
    fn close(&mut self, py: Python<'_>) {
        self.finish(py);
    }
}

impl Reader {
    fn finish(&mut self, py: Python<'_>) {
        // Dropping the receiver stops the engine's thread at its next send.
        self.rx = None;
        if let Some(t) = self.thread.take() {
            py.detach(|| {
                let _ = t.join();
            });
        }
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        self.rx = None;
    }
}

/// One chunk's records as rows (on a worker): each valid URL's fields,
/// and with reasons each bad record's.
struct ChunkRows<'a> {
    plan: &'a Plan,
    cx: Context<'a>,
    parser: BatchParser,
}

/// A bad record's fields that do not come from its URL: `input` (the URL
/// field as read) and `@NAME`; the rest are null.
fn record_field(f: &Field, rec: &Rec<'_>, cx: &Context<'_>) -> Option<String> {
    match f {
        Field::Input => {
            let raw = &rec.data[rec.field.0..rec.field.1];
            Some(String::from_utf8_lossy(raw).into_owned())
        }
        Field::Record(_) => {
            let url = Url::parse("a:").expect("a URL");
            f.value_opt(&url, "", rec, cx).map(Cow::into_owned)
        }
        _ => None,
    }
}

impl PerRecord<()> for ChunkRows<'_> {
    fn url(&mut self, p: &mut Processed<()>, rec: &Rec<'_>, text: &str) -> Result<(), Reason> {
        let ChunkRows { plan, cx, parser } = self;
        let parsed = parser
            .parse(text, plan.base.as_ref())
            .map_err(Reason::Url)?;
        // Under the profile's flags, the URL in its profile form.
        let reparsed;
        let url = match plan.profile.apply_href(parsed.href()) {
            Some(form) if *form != *parsed.href() => {
                reparsed = Url::parse(&form).map_err(Reason::Url)?;
                &reparsed
            }
            _ => parsed,
        };
        let mut value = |f: &Field| f.value_opt(url, text, rec, cx);
        plan.columns
            .push_row(p.append(), rec.line, rec.offset, &mut value, None);
        Ok(())
    }

    fn bad(&mut self, p: &mut Processed<()>, rec: &Rec<'_>, reason: Reason) {
        if !self.plan.reasons {
            return;
        }
        let cx = &self.cx;
        let mut value = |f: &Field| record_field(f, rec, cx).map(Cow::Owned);
        let key = reason.key();
        self.plan
            .columns
            .push_row(p.append(), rec.line, rec.offset, &mut value, Some(key));
    }
}

/// The engine's thread: runs the read and sends its batches in order.
fn run(plan: Plan, tx: SyncSender<Message>) {
    let end = read(&plan, &tx);
    let _ = tx.send(Message::End(end));
}

fn read(plan: &Plan, tx: &SyncSender<Message>) -> Result<Summary, String> {
    let list = List::builtin();
    let job = Job {
        max_line: plan.engine.settings().max_record,
        policy: Policy::default(),
        ..Job::default()
    };
    let mut ledger = Ledger::new(io::sink(), None::<io::Sink>, Policy::default(), b'\n');
    let mut pending: Vec<RecordBatch> = Vec::new();
    let mut rows = 0;
    let schema = Arc::clone(plan.columns.schema());
    let send = |pending: &mut Vec<RecordBatch>| -> Result<bool, String> {
        let batch = arrow_select::concat::concat_batches(&schema, pending.iter())
            .map_err(|e| e.to_string())?;
        pending.clear();
        let bytes = ipc(&schema, Some(&batch))?;
        // A closed reader stops the run.
        Ok(tx.send(Message::Batch(bytes)).is_ok())
    };
    let work = |chunk: &urlsift_records::Chunk| {
        let rows = ChunkRows {
            plan,
            cx: Context::of(chunk, &list),
            parser: BatchParser::new(),
        };
        job.run_in(urlsift_simd::Runtime, chunk, (), rows)
    };
    let errors = plan
        .engine
        .run(work, |chunk, p| -> Result<bool, urlsift_records::Error> {
            if chunk.oversize().is_some() {
                // (A piece of a line over the limit: counted, never a row.)
                ledger.oversize(chunk, false)?;
                return Ok(true);
            }
            ledger.tally_mut().merge(&p.tally);
            ledger.settle(chunk, p)?;
            let frames = p.output(chunk.data()).flat_map(Frames::new);
            let batch = plan.columns.batch(chunk.rows(), frames).map_err(|e| {
                urlsift_records::Error::Usage(format!("{}: {e}", chunk.source().name))
            })?;
            rows += batch.num_rows();
            pending.push(batch);
            if rows >= plan.batch_rows {
                rows = 0;
                return send(&mut pending).map_err(urlsift_records::Error::Usage);
            }
            Ok(true)
        });
    let errors = errors.map_err(|e| e.message(&Keywords))?;
    if !pending.is_empty() {
        send(&mut pending)?;
    }
    let (_, _, tally) = ledger.into_parts();
    Ok(Summary {
        tally,
        files: plan.engine.files().len(),
        noun: plan.engine.noun(),
        errors: errors.iter().map(|e| e.to_string()).collect(),
    })
}

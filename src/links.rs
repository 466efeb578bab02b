//! `urlsift links`: the links inside crawled pages, read by
//! `urlsift_links::rows` (on the record engine: chunks of records worked
//! on in parallel, their rows handed over in input order); here the flags become its settings, and
//! its rows go to the output (text, or Parquet through a writer), the
//! rejects file and the summary. Every record is a page, not a page
//! (counted), or a bad record (counted, in `--rejects`); every link is
//! written or is a bad link (counted, in `--rejects`).

use std::process::ExitCode;
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, StringArray, UInt64Array};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use urlsift_links::Kinds;
use urlsift_links::rows::{self, LinkField, LinkRows, LinkSettings, LinkTally, RowFormat};
use urlsift_records::Ledger;
use urlsift_records::dedup::Seen;
use urlsift_records::input;
use urlsift_records::parquet::Writer;
use urlsift_records::stage::Stage;

use crate::args::{LinksArgs, LinksFormat};
use crate::error::CliError;
use crate::interrupt;
use crate::naming::{Named, OutputName};
use crate::output::Sink;
use crate::parquet_out;
use crate::setup::read_errors;

/// Links handed back by the seen-set at the end are written this many at
/// a time.
const HELD_BATCH: usize = 8192;

/// Where links go: text to the sink, or Parquet rows through a writer.
struct Output {
    sink: Sink,
    parquet: Option<(Writer, SchemaRef)>,
    /// With --dedup: the keys written so far, and how many links it
    /// holds on disk to decide at the end.
    seen: Option<(Seen, u64)>,
}

impl Output {
    /// Writes one record's links.
    fn put(&mut self, d: &LinkRows, fields: &[LinkField]) -> Result<(), CliError> {
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

    /// With --dedup past --memory: writes the links the seen-set held on
    /// disk that are first of their key, in input order, and counts them
    /// (the others as duplicates).
    fn held(
        &mut self,
        format: RowFormat,
        fields: &[LinkField],
        tally: &mut LinkTally,
    ) -> Result<(), CliError> {
        let Some((seen, held)) = self.seen.take() else {
            return Ok(());
        };
        let mut rows = LinkRows::default();
        let mut written = 0;
        // An output error, kept whole (the seen-set's callback gives its
        // own error type).
        let mut failed = None;
        let ended = seen.finish_with(|_, line| {
            rows.push_held(line, format);
            written += 1;
            if rows.len() >= HELD_BATCH {
                let full = std::mem::take(&mut rows);
                if let Err(e) = self.put(&full, fields) {
                    failed = Some(e);
                    return Err(urlsift_records::Error::Output(std::io::Error::other(
                        "output",
                    )));
                }
            }
            Ok(())
        });
        if let Some(e) = failed {
            return Err(e);
        }
        ended?;
        self.put(&rows, fields)?;
        tally.links += written;
        tally.duplicates += held - written;
        Ok(())
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

pub fn run(args: LinksArgs) -> Result<ExitCode, CliError> {
    let kinds = match &args.kinds {
        Some(list) => Kinds::parse(list).map_err(CliError::Usage)?,
        None => Kinds::default(),
    };
    if let Some(e) = input::unusable(&args.files) {
        return Err(CliError::Input(e));
    }
    if let Some(base) = &args.base {
        urlsift::Url::parse(base)
            .map_err(|e| CliError::Usage(format!("--base {base:?} is not a URL: {e}")))?;
    }
    let stage = args.sites.list().and_then(|list| {
        Stage::new(list, &args.filters.filters(), &args.edits.edits()).map_err(CliError::stage)
    })?;
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
        let schema = schema(&args.fields());
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
    let settings = LinkSettings {
        kinds,
        stage: Some(stage),
        profile: args.profile.profile()?,
        list: args.sites.list()?,
        same_site: (args.same_site || args.external).then_some(args.same_site),
        fields: args.fields(),
        format: match args.format() {
            LinksFormat::Parquet => RowFormat::Columns,
            LinksFormat::Csv => RowFormat::Csv,
            LinksFormat::Tsv => RowFormat::Tsv,
            LinksFormat::Jsonl => RowFormat::Jsonl,
        },
        javascript: args.javascript,
        max_page: usize::try_from(args.max_page_size).unwrap_or(usize::MAX),
        dedup: args.dedup.map(|k| (k, args.per_page)),
        base: args.base.clone(),
        threads: args.threads.map(|n| n.max(1)),
    };
    // The spill directory of --dedup, made now: a --tmp-dir that cannot
    // take one fails before any output; a signal removes it.
    let spill_dir = match args.dedup {
        Some(_) => Some(interrupt::run_dir(
            args.tmp_dir.as_deref(),
            "urlsift-links-",
        )?),
        None => None,
    };
    let seen = spill_dir.as_ref().map(|(dir, _)| {
        let seen = Seen::new(args.memory, false, Some(dir.path().to_path_buf()), b'\n');
        (seen, 0)
    });
    let out = Output {
        sink: Sink::open(args.output.as_deref(), false)?,
        parquet,
        seen,
    };
    let rejects = match &args.rejects {
        Some(path) => Some(Sink::open(Some(path), false)?),
        None => None,
    };
    let rejects_name = rejects.as_ref().map_or("", |r| r.name()).to_string();
    // Rows go out in input order through the ledger: it writes their
    // rejects records and adds up their counts.
    let mut ledger: Ledger<Output, Sink, LinkTally> = Ledger::counting(out, rejects);
    if args.header() {
        ledger
            .out()
            .sink
            .put(&rows::header(&settings.fields, settings.format))?;
    }
    let out_name = ledger.out().sink.name().to_string();
    let errors = rows::read(&args.files, &settings, |mut d| {
        let out = ledger.out();
        if let Some((seen, held)) = out.seen.as_mut() {
            *held += d.drop_seen(seen)?;
        }
        out.put(&d, &settings.fields)?;
        ledger
            .add(&d.tally, &d.rejects)
            .map_err(|e| CliError::from_run(e, &out_name, &rejects_name))
    })?;
    let (mut out, rejects, mut tally) = ledger.into_parts();
    if errors.is_empty() {
        out.held(settings.format, &settings.fields, &mut tally)?;
    }
    // A read error: the rejects file is kept (it explains the failure),
    // the output file is not written.
    out.commit(errors.is_empty())?;
    if let Some(r) = rejects {
        r.commit()?;
    }
    if !args.quiet {
        eprintln!("urlsift links: {}", tally.summary());
        // Links mostly relative with no page URL to resolve them against
        // (an HTML file without --base), said once.
        let found = tally.links + tally.bad_links.values().sum::<u64>();
        if let Some(hint) = crate::setup::remedy(found, &tally.bad_links) {
            eprintln!("urlsift links: hint: {hint}");
        }
    }
    Ok(read_errors(&errors))
}

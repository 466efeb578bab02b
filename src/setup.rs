//! What every processing subcommand sets up before reading input: the
//! library's engine from the input flags, the ledger over the output and
//! rejects files, the per-record loop's settings; then the run itself
//! (with a progress bar on a terminal), the files committed as it ended,
//! and the summary on stderr with the exit status.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use urlsift_records::input::decode;
use urlsift_records::timings::Report;
use urlsift_records::{
    self, Chunk, Engine, EngineBuilder, InputError, Job, Ledger, Policy, Processed, Tally,
};

use crate::args::{InputArgs, OutputArgs, PolicyArgs};
use crate::error::CliError;
use crate::naming::{Named, OutputName};
use crate::output::Sink;
use urlsift_records::parquet::{WriteBack, input_schema};

use crate::parquet_out;

/// The ledger of a run: output and rejects files.
pub type Books = Ledger<Sink, Sink>;

/// How the end-of-run summary is shown.
#[derive(Clone, Copy)]
pub struct ReportSettings {
    pub quiet: bool,
    pub verbose: bool,
    pub kept: bool,
    /// What a record is called: `lines`, `records`.
    pub noun: &'static str,
}

/// Everything a processing subcommand sets up before reading input.
pub struct Setup {
    pub engine: Engine,
    pub ledger: Books,
    pub policy: Policy,
    pub max_line: usize,
    pub terminator: u8,
    pub report: ReportSettings,
    /// The records go back out in their format (CSV rows, JSON lines):
    /// the run writes records, not URL lines.
    pub writes_records: bool,
    /// A progress bar on stderr.
    progress: bool,
    /// The output's and the rejects' names, for their errors.
    names: (String, String),
    /// Parquet input written back: its rows go out as Parquet.
    pub parquet: Option<WriteBack>,
}

/// What a subcommand writes when it does not write records back: the
/// format an `-o` name may name (`None`: none of them), and its words.
pub struct Text(pub Option<Named>, pub &'static str);

/// URL lines (normalize and dedup of formats that are not written back).
pub const URL_LINES: Text = Text(None, "URL lines");

/// The name of the format records of `kind` are written back as.
fn named(kind: urlsift_records::Kind) -> Named {
    match kind {
        urlsift_records::Kind::Csv => Named::Csv,
        urlsift_records::Kind::Tsv => Named::Tsv,
        urlsift_records::Kind::Jsonl | urlsift_records::Kind::WaczPages => Named::Jsonl,
        urlsift_records::Kind::Cdxj => Named::Cdxj,
        urlsift_records::Kind::Parquet => Named::Parquet,
        urlsift_records::Kind::Lines
        | urlsift_records::Kind::Warc
        | urlsift_records::Kind::Arc
        | urlsift_records::Kind::Log => {
            unreachable!("{kind} records are not written back")
        }
    }
}

/// A run whose records are all read, its files not yet committed.
pub struct Done {
    pub ledger: Books,
    pub errors: Vec<InputError>,
    names: (String, String),
    /// Where the run's time went (`--timings`).
    pub timings: Option<Report>,
}

impl Setup {
    /// `writes_records`: the subcommand writes the input's records back
    /// (normalize and dedup do, for the formats that can be written back);
    /// `text`: what it writes otherwise. An `-o` name that names another
    /// format is refused. `ask`: what else the subcommand asks of the
    /// engine (line numbers, the fields it reads by name, ...).
    pub fn new(
        input: &InputArgs,
        output: &OutputArgs,
        policy: Option<&PolicyArgs>,
        writes_records: bool,
        text: Text,
        ask: impl FnOnce(EngineBuilder) -> EngineBuilder,
    ) -> Result<Setup, CliError> {
        let builder = Engine::builder(input.files.clone())
            .options(&input.options())
            .timed(input.timings)
            .writes_records(writes_records);
        let engine = ask(builder).build()?;
        let kind = engine.kind();
        let writes_records = engine.writes_records();
        let path = output.output.as_deref();
        let name = OutputName::of(path);
        match writes_records {
            true => name.check(path, Some(named(kind)), format_args!("{kind} records"))?,
            false => name.check(path, text.0, text.1)?,
        }
        if writes_records && output.null {
            return Err(CliError::Usage(format!(
                "-0 ends URL lines with NUL; {kind} records are written back with their own \
                 line ends"
            )));
        }
        let policy_flags = policy.map(PolicyArgs::policy).unwrap_or_default();
        if let (Some(o), Some(p)) = (&output.output, policy.and_then(|p| p.rejects.as_ref()))
            && o == p
        {
            return Err(CliError::Usage(format!(
                "-o and --rejects both name {}",
                o.display()
            )));
        }
        let parquet = match writes_records && kind == urlsift_records::Kind::Parquet {
            true => {
                parquet_out::check_target(output.output.as_deref())?;
                let codec = parquet_out::codec(output.compression.as_deref())?;
                let first = input_schema(&engine, &input.format_spec());
                Some(WriteBack::new(codec, first, engine.threads()))
            }
            false => None,
        };
        if parquet.is_none() {
            output.no_compression("this run writes text")?;
        }
        let sink = Sink::open(output.output.as_deref(), output.null)?;
        let rejects = match policy.and_then(|p| p.rejects.as_deref()) {
            Some(path) => Some(Sink::open(Some(path), false)?),
            None => None,
        };
        let names = (
            sink.name().to_string(),
            rejects.as_ref().map_or("", |r| r.name()).to_string(),
        );
        let terminator = sink.terminator();
        let noun = engine.noun();
        Ok(Setup {
            ledger: Ledger::new(sink, rejects, policy_flags, terminator),
            engine,
            policy: policy_flags,
            max_line: input.max_line(),
            terminator,
            report: ReportSettings {
                quiet: input.quiet,
                verbose: input.verbose,
                kept: policy_flags.keep_invalid,
                noun,
            },
            writes_records,
            progress: !input.quiet && std::io::stderr().is_terminal(),
            names,
            parquet,
        })
    }

    /// Writes `bytes` to the output before the records (a header).
    pub fn put(&mut self, bytes: &[u8]) -> Result<(), CliError> {
        self.ledger
            .write(bytes)
            .map_err(|e| CliError::from_run(e, &self.names.0, &self.names.1))
    }

    /// The per-record loop's settings for this run.
    pub fn job(&self, pass_empty: bool) -> Job {
        Job {
            max_line: self.max_line,
            policy: self.policy,
            terminator: self.terminator,
            pass_empty,
            write_heads: self.writes_records,
        }
    }

    /// The engine run shared by the per-record jobs: `per_chunk` turns a
    /// chunk into its results, which are written in input order; the
    /// summary report ends the run.
    pub fn run_records(
        self,
        pass_empty: bool,
        per_chunk: impl Fn(&Job, &Chunk) -> Processed<()> + Sync,
    ) -> Result<ExitCode, CliError> {
        let job = self.job(pass_empty);
        self.run_chunks(|chunk| per_chunk(&job, chunk))
    }

    /// The engine run with `per_chunk` turning each chunk into its output,
    /// written in input order; the summary report ends the run.
    pub fn run_chunks(
        mut self,
        per_chunk: impl Fn(&Chunk) -> Processed<()> + Sync,
    ) -> Result<ExitCode, CliError> {
        let (files, settings) = (self.engine.files().len(), self.report);
        let Some(mut parquet) = self.parquet.take() else {
            let done = self.run(per_chunk, |ledger, chunk, p| ledger.consume(chunk, p))?;
            let (tally, errors) = done.commit()?;
            return Ok(report(&tally, files, &settings, "", &errors));
        };
        let mut done = self.run(per_chunk, |ledger, chunk, p| {
            ledger.tally_mut().merge(&p.tally);
            parquet.chunk(ledger.out(), chunk, p)?;
            ledger.settle(chunk, p)
        })?;
        if let Err(e) = parquet.finish(done.ledger.out()) {
            return Err(done.fail(e));
        }
        let (tally, errors) = done.commit()?;
        Ok(report(&tally, files, &settings, "", &errors))
    }

    /// Runs `work` on every chunk on the workers and `consume` on the
    /// results in input order, with the ledger; a progress bar on a
    /// terminal. A `--strict` stop commits the rejects file (which ends
    /// with the offending record), not the output: it would be partial.
    pub fn run<X: Send>(
        self,
        work: impl Fn(&Chunk) -> Processed<X> + Sync,
        mut consume: impl FnMut(
            &mut Books,
            &Chunk,
            &mut Processed<X>,
        ) -> Result<bool, urlsift_records::Error>,
    ) -> Result<Done, CliError> {
        let Setup {
            engine,
            mut ledger,
            names,
            progress,
            ..
        } = self;
        let bar = progress.then(|| progress_bar(plain_size(&engine)));
        let (mut lines, mut bytes) = (0u64, 0u64);
        let result = engine.run(work, |chunk, p| {
            lines += p.tally.lines;
            bytes += p.tally.bytes;
            let go_on = consume(&mut ledger, chunk, p)?;
            if let Some(pb) = &bar {
                pb.set_position(bytes);
                pb.set_message(urls(lines));
            }
            Ok(go_on)
        });
        if let Some(pb) = bar {
            pb.finish_and_clear();
        }
        let timings = engine.timings();
        if let Some(t) = &timings {
            let _ = writeln!(std::io::stderr(), "urlsift: {}", t.text());
            let net = urlsift_records::input::remote::network_tally();
            if net.requests > 0 {
                let _ = writeln!(
                    std::io::stderr(),
                    "urlsift: network: {} requests, {:.1} MB received, readers waited {:.3} s \
                     for it; {} times a download broke off past the object store's own retries \
                     and was taken up again at the byte reached",
                    net.requests,
                    net.bytes as f64 / 1e6,
                    net.waited.as_secs_f64(),
                    net.resumed
                );
            }
        }
        match result {
            Ok(errors) => Ok(Done {
                ledger,
                errors,
                names,
                timings,
            }),
            Err(e) => Err(Done {
                ledger,
                errors: Vec::new(),
                names,
                timings,
            }
            .fail(e)),
        }
    }
}

impl Done {
    /// Writes `bytes` to the output after the records (a report).
    pub fn put(&mut self, bytes: &[u8]) -> Result<(), CliError> {
        self.ledger
            .write(bytes)
            .map_err(|e| CliError::from_run(e, &self.names.0, &self.names.1))
    }

    /// The command's error for the engine's `e`, which ended the run: after
    /// a `--strict` stop, the rejects file is committed.
    pub fn fail(self, e: urlsift_records::Error) -> CliError {
        let (out, rejects) = &self.names;
        if let urlsift_records::Error::Strict(_) = e {
            let (_, r, _) = self.ledger.into_parts();
            if let Some(Err(commit)) = r.map(Sink::commit) {
                return commit;
            }
        }
        CliError::from_run(e, out, rejects)
    }

    /// Commits the outputs of a run that read all its input; after a read
    /// error, the output file is not written (`-o` is all or nothing) but
    /// the rejects file is. The tally and the read errors.
    pub fn commit(self) -> Result<(Tally, Vec<InputError>), CliError> {
        let (out, rejects, tally) = self.ledger.into_parts();
        if self.errors.is_empty() {
            out.commit()?;
        } else {
            out.abandon()?;
        }
        if let Some(r) = rejects {
            r.commit()?;
        }
        Ok((tally, self.errors))
    }
}

/// The bytes the run will read, when that is known before it starts:
/// every input a regular file that is not compressed (the count is of
/// decoded bytes) nor Parquet (whose rows are counted, not its bytes).
fn plain_size(engine: &Engine) -> Option<u64> {
    if engine.kind() == urlsift_records::Kind::Parquet {
        return None;
    }
    let mut total = 0;
    for path in engine.files() {
        let meta = std::fs::metadata(path).ok().filter(|m| m.is_file())?;
        let mut magic = [0u8; 4];
        let n = std::fs::File::open(path)
            .and_then(|mut f| std::io::Read::read(&mut f, &mut magic))
            .ok()?;
        // (A ZIP is a WACZ: what it holds may be compressed.)
        if magic[..n].starts_with(&[0x1f, 0x8b])
            || magic[..n] == [0x28, 0xb5, 0x2f, 0xfd]
            || magic[..n] == *b"PK\x03\x04"
        {
            return None;
        }
        total += meta.len();
    }
    Some(total)
}

/// A progress line on stderr, fitted to the terminal's width: with the
/// input's size known, a bar, the share done, the rate and the time left;
/// else what was read so far, and the rate. The message is the URLs
/// read so far.
fn progress_bar(size: Option<u64>) -> indicatif::ProgressBar {
    let (pb, template) = match size {
        Some(n) => {
            // Everything but the bar, at its widest: `⠁ 100% []
            // 1023.99 MiB/1023.99 MiB 1023.99 MiB/s 59m left 999.9M URLs`.
            const REST: usize = 68;
            let bar = terminal_width().saturating_sub(REST + 1).min(40);
            let template = if bar >= 8 {
                format!(
                    "{{spinner}} {{percent:>3}}% [{{bar:{bar}}}] {{binary_bytes}}/{{binary_total_bytes}} \
                     {{binary_bytes_per_sec}} {{eta}} left {{msg}}"
                )
            } else {
                "{spinner} {percent:>3}% {binary_bytes_per_sec} {eta} left {msg}".to_string()
            };
            (indicatif::ProgressBar::new(n), template)
        }
        None => (
            indicatif::ProgressBar::new_spinner(),
            "{spinner} {binary_bytes} read, {binary_bytes_per_sec} {msg} {elapsed}".to_string(),
        ),
    };
    pb.set_style(
        indicatif::ProgressStyle::with_template(&template).expect("valid progress template"),
    );
    pb.set_message("starting");
    pb.enable_steady_tick(std::time::Duration::from_millis(200));
    pb
}

/// The terminal's width in columns: the terminal's own word, else
/// `COLUMNS`, else 80.
fn terminal_width() -> usize {
    if let Some((_, columns)) = console::Term::stderr().size_checked() {
        return usize::from(columns);
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse().ok())
        .filter(|&c| c > 0)
        .unwrap_or(80)
}

/// `n` URLs in at most 11 columns: `982 URLs`, `82.3k URLs`, `1.2M URLs`.
fn urls(n: u64) -> String {
    match n {
        0..1_000 => format!("{n} URLs"),
        1_000..1_000_000 => format!("{:.1}k URLs", n as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1}M URLs", n as f64 / 1e6),
        _ => format!("{:.1}G URLs", n as f64 / 1e9),
    }
}

/// Prints the summary (when asked for, or when records were bad or inputs
/// failed), then the read errors, and picks the exit status: 2 if an input
/// could not be read to its end (everything before the error was still
/// processed and written).
pub fn report(
    tally: &Tally,
    files: usize,
    settings: &ReportSettings,
    extra: &str,
    errors: &[InputError],
) -> ExitCode {
    let mut stderr = std::io::stderr();
    let noted = tally.bad_total() > 0 || tally.edits_refused > 0 || !errors.is_empty();
    if !settings.quiet && (settings.verbose || noted) {
        let summary = tally.summary(files, settings.noun, settings.kept);
        let _ = writeln!(stderr, "urlsift: {summary}{extra}");
    }
    if !settings.quiet
        && let Some(hint) = remedy(tally.lines, &tally.bad)
    {
        let _ = writeln!(stderr, "urlsift: hint: {hint}");
    }
    read_errors(errors)
}

/// What to try when more than half of `records` were set aside for one
/// reason (counts by reason in `bad`) that a flag remedies; said once
/// after the summary.
pub fn remedy<'a>(
    records: u64,
    bad: impl IntoIterator<Item = (&'a &'static str, &'a u64)>,
) -> Option<String> {
    let (reason, count) = bad.into_iter().max_by_key(|(_, n)| **n)?;
    if records == 0 || *count * 2 <= records {
        return None;
    }
    let what = match *reason {
        "missing-scheme-non-relative-URL" => {
            return Some(format!(
                "{count} of {records} were relative URLs (paths, request targets): give \
                 --base URL to resolve them against a site"
            ));
        }
        "missing-field" => {
            return Some(format!(
                "{count} of {records} had no URL field: name the field that holds the URL \
                 with --field"
            ));
        }
        "not-a-CDXJ-line" => "CDXJ lines",
        "invalid-JSON" | "not-a-JSON-object" => "JSON lines",
        "not-a-log-line" => "access-log lines",
        "bad-WARC-header" => "WARC records",
        "bad-ARC-header" => "ARC records",
        "bad-CSV-quote" => "CSV rows",
        _ => return None,
    };
    Some(format!(
        "{count} of {records} were not {what}: if the input is in another format, name it \
         with --input-format"
    ))
}

/// Prints the read errors that ended sources early (after the output they
/// did not stop); exit status 2 if there are any.
pub fn read_errors(errors: &[InputError]) -> ExitCode {
    let mut stderr = std::io::stderr();
    // A run of faults of one input for one reason (every frame of a
    // .warc.zst without its dictionary, say) is shown by its first few
    // and a count.
    const SHOWN: usize = 5;
    let reason = |e: &InputError| match decode::decode_error(&e.error) {
        Some(d) => match &d.fault {
            decode::Fault::Corrupt(why) => Some((e.name.clone(), why.clone())),
            _ => None,
        },
        None => None,
    };
    let mut i = 0;
    while i < errors.len() {
        let key = reason(&errors[i]);
        let run = match &key {
            Some(_) => errors[i..].iter().take_while(|e| reason(e) == key).count(),
            None => 1,
        };
        for e in &errors[i..i + run.min(SHOWN)] {
            let _ = writeln!(stderr, "urlsift: cannot read {e}");
        }
        if run > SHOWN
            && let Some((name, why)) = &key
        {
            let last = decode::decode_error(&errors[i + run - 1].error).map_or(0, |d| d.offset);
            let _ = writeln!(
                stderr,
                "urlsift: cannot read {name}: {} more faults like these ({why}), the last at byte {last}",
                run - SHOWN
            );
        }
        i += run;
    }
    if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    }
}

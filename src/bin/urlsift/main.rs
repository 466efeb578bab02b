//! The `urlsift` command: parallel normalize, dedup, extract, check and stats
//! over URL files: one URL per line, or a field of CSV/TSV, JSON lines,
//! CDXJ, WARC or access-log records. `main` only maps [`run`]'s result to
//! an exit status: 0 success, 1 a bad record under `--strict`, 2 usage or
//! I/O error (a closed stdout pipe counts as success).

#![deny(unsafe_code)]

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, Parser};

mod args;
mod check;
mod compare;
mod decode;
mod dedup;
mod extract;
mod input;
mod job;
#[allow(unsafe_code)]
mod mmap;
mod normalize;
mod output;
mod pipeline;
mod reader;
mod records;
mod select;
mod spill;
mod stats;
mod table;

use args::{Cli, Command, InputArgs, OutputArgs, PolicyArgs};
use input::InputError;
use job::Job;
use output::{CliError, Sink};
use pipeline::{Engine, Policy, Standard, Tally};
use records::Rec;
use urlsift::profile::Profile;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(CliError::BrokenPipe) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "urlsift: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, CliError> {
    match cli.command {
        Command::Normalize(a) => normalize::run(a),
        Command::Dedup(a) => dedup::run(a),
        Command::Extract(a) => extract::run(a),
        Command::Check(a) => check::run(a),
        Command::Stats(a) => stats::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "urlsift", &mut out);
            write_stdout(&out)
        }
        Command::Man => {
            let mut out = Vec::new();
            clap_mangen::Man::new(Cli::command())
                .render(&mut out)
                .map_err(|e| CliError::output("<stdout>", e))?;
            write_stdout(&out)
        }
    }
}

fn write_stdout(bytes: &[u8]) -> Result<ExitCode, CliError> {
    let mut sink = Sink::open(None, false)?;
    sink.write(bytes)?;
    sink.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// How the end-of-run summary is shown.
pub struct ReportSettings {
    quiet: bool,
    verbose: bool,
    kept: bool,
    /// What a record is called: `lines`, `records`.
    noun: &'static str,
}

/// Everything a processing subcommand sets up before reading input.
pub struct Setup {
    pub engine: Engine,
    pub standard: Standard,
    pub policy: Policy,
    pub max_line: usize,
    pub terminator: u8,
    pub report: ReportSettings,
    /// The records go back out in their format (CSV rows, JSON lines):
    /// the run writes records, not URL lines.
    pub writes_records: bool,
}

impl Setup {
    /// `writes_records`: the subcommand writes the input's records back
    /// (normalize and dedup do, for the formats that can be written back).
    pub fn new(
        input: &InputArgs,
        output: &OutputArgs,
        policy: Option<&PolicyArgs>,
        writes_records: bool,
    ) -> Result<Setup, CliError> {
        let mut engine = Engine::new(input)?;
        let kind = engine.kind();
        let writes_records = writes_records && kind.writes_records();
        engine.read.writes_records = writes_records;
        if writes_records && output.null {
            return Err(CliError::Usage(format!(
                "-0 ends URL lines with NUL; {kind} records are written back with their own \
                 line ends"
            )));
        }
        let policy_flags = policy.map(Policy::from_args).unwrap_or_default();
        if let (Some(o), Some(p)) = (&output.output, policy.and_then(|p| p.rejects.as_ref()))
            && o == p
        {
            return Err(CliError::Usage(format!(
                "-o and --rejects both name {}",
                o.display()
            )));
        }
        let sink = Sink::open(output.output.as_deref(), output.null)?;
        let rejects = match policy.and_then(|p| p.rejects.as_deref()) {
            Some(path) => Some(Sink::open(Some(path), false)?),
            None => None,
        };
        let terminator = sink.terminator();
        // (A `.log` file read with `auto` may turn out to be a log.)
        let sniffs = engine.files.iter().any(|f| engine.read.spec.sniffs_log(f));
        let noun = if kind == records::Kind::Lines && !sniffs {
            "lines"
        } else {
            "records"
        };
        Ok(Setup {
            standard: Standard {
                sink,
                rejects,
                tally: Tally::default(),
                files: engine.files.len(),
                policy: policy_flags,
                noun,
                lines: pipeline::LineBase::default(),
            },
            engine,
            policy: policy_flags,
            max_line: usize::try_from(input.max_line_bytes).unwrap_or(usize::MAX),
            terminator,
            report: ReportSettings {
                quiet: input.quiet,
                verbose: input.verbose,
                kept: policy_flags.keep_invalid,
                noun,
            },
            writes_records,
        })
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

    /// Runs a job that writes output per URL: each record's URL is parsed
    /// against `base` (one `BatchParser` per chunk, so no allocation per
    /// URL) and `write` appends what it makes of it (terminator included);
    /// bad records go by the policy; chunks are written in input order;
    /// the summary report ends the run. `pass_empty`: see [`Job`].
    pub fn run_per_url(
        self,
        base: Option<&urlsift::Url>,
        stage: &select::Stage,
        pass_empty: bool,
        write: impl Fn(&urlsift::Url, &Rec<'_>, &str, &mut Vec<u8>) + Sync,
    ) -> Result<ExitCode, CliError> {
        self.run_records(pass_empty, |job, chunk| {
            job.run_parsed(chunk, base, (), |p, rec, text, parser| {
                let url = parser.last_mut().expect("parsed");
                if stage.apply(url, &mut p.tally) == select::Verdict::Drop {
                    return Ok(());
                }
                p.flush();
                write(url, rec, text, &mut p.out);
                Ok(())
            })
        })
    }

    /// Writes each URL in `profile`'s form (not SURT, which needs the
    /// parsed host: use `run_per_url`), like `run_per_url` would, but from
    /// the href alone: a record that is already its own output (the fast
    /// path proves most URLs are their own href, and most profiles leave
    /// most hrefs alone) is not copied on its own, as runs of such records
    /// are copied from the input at once.
    pub fn run_hrefs(
        self,
        base: Option<&urlsift::Url>,
        profile: &Profile,
        filters: Option<&select::Stage>,
    ) -> Result<ExitCode, CliError> {
        let terminator = self.terminator;
        self.run_records(true, |job, chunk| {
            if filters.is_some() {
                let hrefs = Hrefs::<true> {
                    profile,
                    filters,
                    terminator,
                };
                return job.run_viewed(chunk, base, (), hrefs);
            }
            let hrefs = Hrefs::<false> {
                profile,
                filters,
                terminator,
            };
            job.run_viewed(chunk, base, (), hrefs)
        })
    }

    /// The engine run shared by the per-record jobs: `per_chunk` turns a
    /// chunk into its results, which are written in input order; the
    /// summary report ends the run.
    pub fn run_records(
        self,
        pass_empty: bool,
        per_chunk: impl Fn(&Job, &input::Chunk) -> pipeline::Processed<()> + Sync,
    ) -> Result<ExitCode, CliError> {
        let job = self.job(pass_empty);
        self.run_chunks(|chunk| per_chunk(&job, chunk))
    }

    /// The engine run with `per_chunk` turning each chunk into its output,
    /// written in input order; the summary report ends the run.
    pub fn run_chunks(
        self,
        per_chunk: impl Fn(&input::Chunk) -> pipeline::Processed<()> + Sync,
    ) -> Result<ExitCode, CliError> {
        let Setup {
            engine,
            standard: mut std,
            report: settings,
            ..
        } = self;
        let errors = engine.run(per_chunk, |chunk, p| std.consume(chunk, p))?;
        let files = std.files;
        let tally = std.finish()?;
        Ok(report(&tally, files, &settings, "", &errors))
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
        let _ = writeln!(
            stderr,
            "{}",
            pipeline::summary(tally, files, settings.kept, settings.noun, extra)
        );
    }
    read_errors(errors)
}

/// Prints the read errors that ended sources early (after the output they
/// did not stop); exit status 2 if there are any.
pub fn read_errors(errors: &[InputError]) -> ExitCode {
    let mut stderr = std::io::stderr();
    for e in errors {
        let _ = writeln!(stderr, "urlsift: cannot read {e}");
    }
    if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    }
}

/// `normalize` with a non-SURT profile and no edits: each record's href,
/// from the URL as the fast path proved it. Records already in normal form
/// are copied from the input as runs. Filters read the view before
/// anything is written.
/// `FILTERED`: whether `filters` may be set. Without filters only the
/// href is read, and the view's other components are never made (a
/// per-record test of `filters` alone kept them, at 3-5% of a run).
struct Hrefs<'a, const FILTERED: bool> {
    profile: &'a Profile,
    filters: Option<&'a select::Stage>,
    terminator: u8,
}

impl<const FILTERED: bool> job::OnView<()> for Hrefs<'_, FILTERED> {
    #[inline(always)]
    fn view(
        &mut self,
        p: &mut pipeline::Processed<()>,
        rec: &Rec<'_>,
        text: &str,
        url: Result<urlsift::UrlRef<'_>, urlsift::ParseError>,
    ) -> Result<(), input::Reason> {
        if FILTERED
            && let (Some(stage), Ok(url)) = (self.filters, url)
            && stage.filter(url, &mut p.tally) == select::Verdict::Drop
        {
            return Ok(());
        }
        let href = url.map(|v| v.href());
        write_href(p, rec, self.profile, self.terminator, text, href)
    }
}

/// Writes `rec` given the href of its URL `text`: the record itself, as a
/// run of input, when nothing changed.
#[inline(always)]
fn write_href(
    p: &mut pipeline::Processed<()>,
    rec: &Rec<'_>,
    profile: &Profile,
    terminator: u8,
    text: &str,
    href: Result<&str, urlsift::ParseError>,
) -> Result<(), input::Reason> {
    let href = href.map_err(input::Reason::Url)?;
    let form = profile.apply_href(href).expect("not a SURT profile");
    if Rec::is_own_text(&form, text)
        && let Some(run) = rec.unchanged_run(terminator)
    {
        p.copy_input(run);
        return Ok(());
    }
    p.flush();
    rec.write_url(&mut p.out, &form, terminator);
    Ok(())
}

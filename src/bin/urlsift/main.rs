//! The `urlsift` command: parallel normalize, dedup, extract, check and stats
//! over files of one URL per line. `main` only maps [`run`]'s result to an
//! exit status: 0 success, 1 a bad line under `--strict`, 2 usage or I/O
//! error (a closed stdout pipe counts as success).

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, Parser};

mod args;
mod check;
mod decode;
mod dedup;
mod extract;
mod input;
mod normalize;
mod output;
mod pipeline;
mod spill;
mod stats;
mod table;

use args::{Cli, Command, InputArgs, OutputArgs, PolicyArgs};
use output::{CliError, Sink};
use pipeline::{Engine, LineJob, Policy, Standard, Tally};
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
}

/// Everything a processing subcommand sets up before reading input.
pub struct Setup {
    pub engine: Engine,
    pub standard: Standard,
    pub policy: Policy,
    pub max_line: usize,
    pub terminator: u8,
    pub report: ReportSettings,
}

impl Setup {
    pub fn new(
        input: &InputArgs,
        output: &OutputArgs,
        policy: Option<&PolicyArgs>,
    ) -> Result<Setup, CliError> {
        let engine = Engine::new(input)?;
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
        Ok(Setup {
            standard: Standard {
                sink,
                rejects,
                tally: Tally::default(),
                files: engine.files.len(),
            },
            engine,
            policy: policy_flags,
            max_line: usize::try_from(input.max_line_bytes).unwrap_or(usize::MAX),
            terminator,
            report: ReportSettings {
                quiet: input.quiet,
                verbose: input.verbose,
                kept: policy_flags.keep_invalid,
            },
        })
    }

    /// Runs a job that writes one output record per URL: each line is
    /// parsed against `base` (one `BatchParser` per chunk, so no allocation
    /// per URL), `write` appends the record and the terminator follows; bad
    /// lines go by the policy; chunks are written in input order; the
    /// summary report ends the run. `pass_empty`: see [`LineJob`].
    pub fn run_per_url(
        self,
        base: Option<&urlsift::Url>,
        pass_empty: bool,
        write: impl Fn(&urlsift::Url, u64, &str, &mut Vec<u8>) + Sync,
    ) -> Result<ExitCode, CliError> {
        let terminator = self.terminator;
        self.run_lines(pass_empty, |job, chunk| {
            let mut parser = urlsift::BatchParser::new();
            job.run::<()>(chunk, |p, number, line| {
                let url = parser.parse(line, base).map_err(input::Reason::Url)?;
                write(url, number, line, &mut p.out);
                p.out.push(terminator);
                Ok(())
            })
        })
    }

    /// Writes each URL in `profile`'s form (not SURT, which needs the
    /// parsed host: use `run_per_url`), like `run_per_url` would, but from
    /// the href alone: a line that is already its own output (the fast path
    /// proves most are their own href, and most profiles leave most hrefs
    /// alone) is not copied on its own, as runs of such lines are copied
    /// from the input at once.
    pub fn run_hrefs(
        self,
        base: Option<&urlsift::Url>,
        profile: &Profile,
    ) -> Result<ExitCode, CliError> {
        let terminator = self.terminator;
        self.run_lines(true, |job, chunk| {
            urlsift::simd::with_kernel(Hrefs {
                job,
                chunk,
                base,
                profile,
                terminator,
            })
        })
    }

    /// The engine run shared by the per-line jobs: `per_chunk` turns a
    /// chunk into its results, which are written in input order; the
    /// summary report ends the run.
    fn run_lines(
        self,
        pass_empty: bool,
        per_chunk: impl Fn(&LineJob, &input::Chunk) -> pipeline::Processed<()> + Sync,
    ) -> Result<ExitCode, CliError> {
        let Setup {
            engine,
            standard: mut std,
            policy,
            max_line,
            terminator,
            report: settings,
        } = self;
        let job = LineJob {
            max_line,
            policy,
            terminator,
            pass_empty,
        };
        engine.run(
            |chunk| per_chunk(&job, chunk),
            |chunk, p| std.consume(chunk, p),
        )?;
        let files = std.files;
        let tally = std.finish()?;
        Ok(report(&tally, files, &settings, ""))
    }
}

/// Prints the summary (when asked for, or when lines were bad) and picks the exit status.
pub fn report(tally: &Tally, files: usize, settings: &ReportSettings, extra: &str) -> ExitCode {
    if !settings.quiet && (settings.verbose || tally.bad_total() > 0) {
        let _ = writeln!(
            std::io::stderr(),
            "{}",
            pipeline::summary(tally, files, settings.kept, extra)
        );
    }
    ExitCode::SUCCESS
}

/// One chunk of `normalize` with a non-SURT profile, generic over the SIMD
/// kernel so that the line split and the fast path's scan inline into one
/// loop. Lines already in normal form are copied from the input as runs.
struct Hrefs<'a> {
    job: &'a LineJob,
    chunk: &'a input::Chunk,
    base: Option<&'a urlsift::Url>,
    profile: &'a Profile,
    terminator: u8,
}

impl urlsift::simd::WithKernel for Hrefs<'_> {
    type Output = pipeline::Processed<()>;

    #[inline(always)]
    fn run<K: urlsift::simd::Kernel>(self, k: K) -> pipeline::Processed<()> {
        let per_line = HrefLine {
            k,
            parser: urlsift::BatchParser::new(),
            data: &self.chunk.data,
            base: self.base,
            profile: self.profile,
            terminator: self.terminator,
        };
        self.job.run_in(k, self.chunk, (), per_line)
    }
}

/// The per-line work of [`Hrefs`].
struct HrefLine<'a, K> {
    k: K,
    parser: urlsift::BatchParser,
    data: &'a [u8],
    base: Option<&'a urlsift::Url>,
    profile: &'a Profile,
    terminator: u8,
}

impl<K: urlsift::simd::Kernel> pipeline::PerLine<()> for HrefLine<'_, K> {
    const SCANS_URLS: bool = true;

    #[inline(always)]
    fn line(
        &mut self,
        p: &mut pipeline::Processed<()>,
        _: u64,
        line: &str,
    ) -> Result<(), input::Reason> {
        let href = self.parser.href_with(self.k, line, self.base);
        write_href(p, self.data, self.profile, self.terminator, line, href)
    }

    #[inline(always)]
    fn line_of(
        &mut self,
        p: &mut pipeline::Processed<()>,
        _: u64,
        line: &urlsift::batch::Line<'_>,
    ) -> Result<(), input::Reason> {
        let href = self.parser.href_of_line(line, self.base);
        write_href(
            p,
            self.data,
            self.profile,
            self.terminator,
            line.as_str(),
            href,
        )
    }
}

/// Writes the record for `line` (a slice of the chunk's `data`) given its
/// href: the line itself as a run of input when nothing changed.
#[inline(always)]
fn write_href(
    p: &mut pipeline::Processed<()>,
    data: &[u8],
    profile: &Profile,
    terminator: u8,
    line: &str,
    href: Result<&str, urlsift::ParseError>,
) -> Result<(), input::Reason> {
    let href = href.map_err(input::Reason::Url)?;
    let form = profile.apply_href(href).expect("not a SURT profile");
    if std::ptr::eq(form.as_ref(), line) && terminator == b'\n' {
        // The line and its "\n" (not "\r\n", not a missing final
        // newline) are the output record.
        let start = (line.as_ptr() as usize).wrapping_sub(data.as_ptr() as usize);
        let end = start.wrapping_add(line.len());
        if data.get(end) == Some(&b'\n')
            && data
                .get(start..end)
                .is_some_and(|s| std::ptr::eq(s, line.as_bytes()))
        {
            p.copy_input(start..end + 1);
            return Ok(());
        }
    }
    p.flush();
    p.out.extend_from_slice(form.as_bytes());
    p.out.push(terminator);
    Ok(())
}

//! `urlsift compare`: benchmark and diff URL parsers on the user's own
//! file. The work is the `urlsift-compare` crate's (the corpus, the
//! parsers, the differential, the timing, the reports); here are the
//! flags, the output files, the progress bars and the exit status.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use urlsift_compare::differential::differential;
use urlsift_compare::engines::{self, Engine};
use urlsift_compare::{confusion, corpus, html, peers, report, timing};

use crate::args::CompareArgs;
use crate::error::CliError;
use crate::output::Sink;
use crate::setup::read_errors;

pub fn run(a: CompareArgs) -> Result<ExitCode, CliError> {
    let mut peers = peers::Peers::find();
    let selection = engines::select(&a.parsers, cfg!(feature = "compare-peers"), |id, named| {
        peers.available(id, named)
    })
    .map_err(CliError::Usage)?;
    let ids = selection.ids;
    if a.input.base.is_some()
        && let Some(p) = ids.iter().find(|p| p.reads_meaning())
    {
        return Err(CliError::Usage(format!(
            "--base: the {} parser reads each URL on its own (python, java and curl have \
             no resolution against a base that matches the standard's): compare them \
             without --base",
            p.name()
        )));
    }
    let (threads, pool) = threads(a.input.threads)?;
    let base = engines::Base::new(a.input.base.as_deref())?;
    let (mut diff_out, html_out) = outputs(&a)?;
    let mut corpus = corpus::load(&corpus::Load {
        files: a.input.files.clone(),
        max_line: a.input.max_line(),
        chunk_size: usize::try_from(a.input.chunk_size).unwrap_or(usize::MAX),
        spec: a.input.format_spec(),
    })?;
    // Read errors are reported after the comparison of what was read, with
    // exit status 2 (as the other subcommands do); with nothing read, they
    // are the answer.
    let errors = std::mem::take(&mut corpus.errors);
    if corpus.is_empty() && !errors.is_empty() {
        return Ok(read_errors(&errors));
    }
    if !a.input.quiet {
        if let Some(summary) = corpus.read.summary() {
            eprintln!("urlsift compare: {summary}");
        } else if a.input.verbose {
            eprintln!(
                "urlsift compare: {} lines: {} URLs, {} empty",
                corpus.read.lines,
                corpus.len(),
                corpus.read.empty
            );
        }
    }
    if corpus.is_empty() {
        return Err(CliError::Usage(format!(
            "no URL to compare: {} lines read, {} empty, {} not URLs",
            corpus.read.lines,
            corpus.read.empty,
            corpus.read.skipped_total()
        )));
    }
    let urls = corpus.urls();
    let show_progress = !a.input.quiet && std::io::stderr().is_terminal();
    let mut engines: Vec<Box<dyn Engine + '_>> = Vec::new();
    let mut versions = Vec::new();
    for &id in &ids {
        let (engine, version) = peers.start(id, &urls, &base, a.input.base.as_deref())?;
        engines.push(engine);
        versions.push(version);
    }
    let bar = progress(show_progress, urls.len() as u64, "diff");
    let mut write_diff = diff_out
        .as_mut()
        .map(|sink| |line: &[u8]| sink.record(line));
    let (works, diffs) = differential(
        &corpus,
        &ids,
        &mut engines,
        a.samples,
        write_diff.as_mut(),
        |n| bar.inc(n),
    )?;
    bar.finish_and_clear();
    let speeds = if a.rounds > 0 {
        let bar = progress(show_progress, (a.rounds * ids.len()) as u64, "timing");
        let rounds = timing::run(&mut engines, &urls, a.rounds, pool.as_ref(), || bar.inc(1))?;
        bar.finish_and_clear();
        timing::summarize(&rounds, &works, urls.len(), corpus.bytes())
            .into_iter()
            .map(Some)
            .collect()
    } else {
        vec![None; ids.len()]
    };
    drop(engines);
    let report = report::Report {
        corpus: &corpus,
        rounds: a.rounds,
        threads,
        base: a.input.base.as_deref(),
        simd: urlsift_simd::backend().name(),
        parsers: ids
            .iter()
            .zip(works)
            .zip(speeds)
            .zip(versions)
            .map(|(((&id, work), speed), version)| report::Parser {
                id,
                work,
                speed,
                version,
            })
            .collect(),
        missing: selection.missing,
        diffs,
    };
    let text = if a.json {
        let mut v = report::report_json(&report);
        v["host_confusion"] = confusion::json(&report);
        let mut t = serde_json::to_string_pretty(&v).expect("json");
        t.push('\n');
        t
    } else {
        report::report_text(&report, &confusion::text(&report))
    };
    if let Some(mut sink) = html_out {
        sink.put(html::page(&report).as_bytes())?;
        sink.commit()?;
    }
    if let Some(sink) = diff_out {
        sink.commit()?;
    }
    let mut out = Sink::open(None, false)?;
    out.put(text.as_bytes())?;
    out.commit()?;
    Ok(read_errors(&errors))
}

/// The threads per parser (`-j`: default 1, 0 for one per core) and,
/// beyond one, their pool.
fn threads(j: Option<usize>) -> Result<(usize, Option<rayon::ThreadPool>), CliError> {
    let threads = match j {
        None => 1,
        Some(0) => std::thread::available_parallelism().map_or(1, |n| n.get()),
        Some(n) => n,
    };
    if threads == 1 {
        return Ok((1, None));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("urlsift-compare-{i}"))
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start {threads} threads: {e}")))?;
    Ok((threads, Some(pool)))
}

/// The `--diff-out` and `--html` files, checked and opened before the
/// long work, so a bad path fails early.
fn outputs(a: &CompareArgs) -> Result<(Option<Sink>, Option<Sink>), CliError> {
    for (flag, path) in [("--diff-out", &a.diff_out), ("--html", &a.html)] {
        if path.as_deref() == Some(std::path::Path::new("-")) {
            return Err(CliError::Usage(format!(
                "{flag} needs a file: the report goes to stdout"
            )));
        }
    }
    if a.diff_out.is_some() && a.diff_out == a.html {
        return Err(CliError::Usage(
            "--diff-out and --html name the same file".to_string(),
        ));
    }
    let open = |p: &Option<PathBuf>| p.as_deref().map(|p| Sink::open(Some(p), false)).transpose();
    Ok((open(&a.diff_out)?, open(&a.html)?))
}

/// A progress bar on stderr, or a hidden one.
fn progress(show: bool, len: u64, what: &'static str) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let pb = indicatif::ProgressBar::new(len);
    pb.set_style(
        indicatif::ProgressStyle::with_template("{msg:7} {wide_bar} {pos}/{len} {elapsed}")
            .expect("valid progress template"),
    );
    pb.set_message(what);
    pb
}

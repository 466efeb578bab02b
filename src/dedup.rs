//! `urlsift dedup`: keep the first occurrence of each key, in input order.
//!
//! Workers parse lines and compute keys in parallel; the main thread checks
//! each key against the seen-set in input order. Keys are compared as exact
//! bytes (the xxh3-64 hash only picks buckets and spill partitions), so two
//! different keys are never taken for duplicates. While the seen-set fits
//! the `--memory` budget, first occurrences are written as they come; past
//! the budget, the rest of the input goes to hash-partitioned spill files
//! that are reduced and merged back in input order (the library's
//! `urlsift_records::dedup` does the work; this file wires it to the
//! flags, the engine and the output).
//!
//! Keys: `href` (the line as `normalize` prints it, profiles included),
//! `no-fragment`, `origin`, `host`, `pattern` (read as the `--pattern-*`
//! flags say), `site` (the registrable
//! domain; a host without one, such as an IP address, is its own site) and
//! `canonical` (the `--canonical` form or `--surt` key, the record written
//! as it came). A URL without a host (or
//! with an opaque origin) is keyed by its whole href, so such URLs are only
//! merged with identical ones. Lines passed through by `--keep-invalid` are
//! keyed by their raw bytes, in a namespace of their own. `--samples N`
//! keeps up to N records of each key instead of one.

use std::process::ExitCode;
use std::sync::Mutex;

use urlsift::Url;
use urlsift_records::Job;
use urlsift_records::dedup::{Key, Keying, Keys, Seen};
use urlsift_records::format::frame::Frames;
use urlsift_records::parquet::ParquetLayout;

use crate::args::DedupArgs;
use crate::error::CliError;
use crate::interrupt;
use crate::setup::{Setup, URL_LINES, report};
use urlsift_records::parquet::{FirstRows, WriteBack};

pub fn run(a: DedupArgs) -> Result<ExitCode, CliError> {
    // The run's spill directory, made now: spilling starts mid-run, after
    // output has gone out, so a --tmp-dir that cannot take one fails
    // before any; and a signal removes it with everything in it.
    let (spill_dir, _registered) = interrupt::run_dir(a.tmp_dir.as_deref(), "urlsift-dedup-")?;
    // In-flight chunks count against the budget too: keep them to about a
    // tenth of it when the budget is small.
    let mut setup = Setup::new(&a.input, &a.output, Some(&a.policy), true, URL_LINES, |b| {
        b.chunk_memory(a.memory / 10)
    })?;
    let budget = a.memory.saturating_sub(a.memory / 10).max(1);
    let profile = a.profile.profile()?;
    let base = a.input.base()?;
    let stage = a.input.stage(Some(&a.filters), Some(&a.edits))?;
    // Heads (a CSV header) are written by this thread, before any record:
    // the workers' output holds records only.
    let mut job = setup.job(false);
    job.write_heads = false;
    let writes_records = setup.writes_records;
    let (files, settings) = (setup.engine.files().len(), setup.report);
    let key = a.key().map_err(CliError::Usage)?;
    if key == Key::Canonical && !profile.needs_url() {
        return Err(CliError::Usage(
            "--key canonical keys by a --canonical form (safe-browsing, w3lib) or --surt key: name one".into(),
        ));
    }
    if profile.reads_text() {
        crate::normalize::text_form_usage(base.as_ref(), &stage)?;
        if !matches!(key, Key::Href | Key::NoFragment | Key::Canonical) || a.with_key {
            return Err(CliError::Usage(
                "with --canonical w3lib or urlcanon-*, dedup keys by the form itself (--key href, no-fragment or canonical), without --with-key".into(),
            ));
        }
    }
    if a.with_key && a.policy.keep_invalid {
        return Err(CliError::Usage(
            "--with-key writes each record after its URL's key; records passed through by \
             --keep-invalid have none (see them with --rejects FILE)"
                .into(),
        ));
    }
    let keying = Keying {
        key,
        profile: &profile,
        stage: &stage,
        terminator: setup.terminator,
        with_key: a.with_key,
    };
    if let Some(write_back) = setup.parquet.take() {
        if a.with_key {
            return Err(CliError::Usage(
                "--with-key writes KEY<TAB>RECORD lines; Parquet rows written back keep \
                 their schema (see the keys with `extract --fields href,pattern`)"
                    .into(),
            ));
        }
        if a.count {
            return Err(CliError::Usage(
                "--count prefixes each kept line with its count; Parquet rows written back \
                 keep their schema (count with `extract --fields href` and `sort | uniq -c`)"
                    .into(),
            ));
        }
        let first = FirstRows::new(budget, a.samples, Some(spill_dir.path().to_path_buf()))
            .clocked(setup.engine.in_order_clock())
            .threads(seen_threads(setup.engine.threads()))?
            .ahead(setup.engine.threads(), setup.engine.chunk_order());
        return parquet_rows(setup, &keying, &job, base.as_ref(), write_back, first);
    }
    let mut seen = Seen::new(
        budget,
        a.count,
        Some(spill_dir.path().to_path_buf()),
        setup.terminator,
    )
    .samples(a.samples)
    .clocked(setup.engine.in_order_clock())
    .threads(seen_threads(setup.engine.threads()))?
    .ahead(setup.engine.threads(), setup.engine.chunk_order());
    let ahead = seen.lookups_ahead();
    // Key buffers go back and forth between workers and this thread: reusing
    // them keeps the allocator from holding on to freed cross-thread blocks.
    let spare_keys: Mutex<Vec<Keys>> = Mutex::new(Vec::new());
    let partitions = seen.partitions();
    let work = |chunk: &_| {
        let keys = spare_keys
            .lock()
            .ok()
            .and_then(|mut k| k.pop())
            .unwrap_or_default();
        let mut p = keying.chunk(&job, chunk, base.as_ref(), keys);
        match &ahead {
            // Dealt and looked up here, on the worker.
            Some(ahead) => ahead.deal(chunk, &mut p),
            None => p.extra.deal(&p.out, &p.passed_through, partitions),
        }
        p
    };
    let mut done = setup.run(work, |ledger, chunk, p| {
        if chunk.oversize().is_some() {
            // Not keyed (it cannot be held): counted and rejected, never
            // passed through.
            ledger.oversize(chunk, false)?;
            return Ok(true);
        }
        if writes_records && chunk.writes_head() && chunk.head() > 0 {
            ledger.write(&chunk.data()[..chunk.head()])?;
        }
        ledger.tally_mut().merge(&p.tally);
        seen.offer_chunk(chunk, p, ledger.out())?;
        ledger.settle(chunk, p)?;
        let mut keys = std::mem::take(&mut p.extra);
        keys.clear();
        if let Ok(mut spare) = spare_keys.lock() {
            spare.push(keys);
        }
        Ok(true)
    })?;
    let records = seen.records();
    let kept = match seen.finish(done.ledger.out()) {
        Ok(kept) => kept,
        Err(e) => return Err(done.fail(e)),
    };
    let (tally, errors) = done.commit()?;
    let extra = summary(records, kept, a.samples);
    Ok(report(&tally, files, &settings, &extra, &errors))
}

/// Threads that look up the seen-set's partitions: one per worker when
/// there are cores to spare for them (more than two); with two or fewer
/// the in-order thread looks up alone, as handing each chunk to helper
/// threads costs more than it gains when every core is already busy
/// (`--timings` shows the in-order share either way).
fn seen_threads(workers: usize) -> usize {
    if workers > 2 { workers } else { 1 }
}

/// `1 record`, `2 records`.
fn plural(n: u64, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        _ => format!("{n} {noun}s"),
    }
}

/// The summary's dedup part: records offered, kept, left out.
fn summary(records: u64, kept: u64, samples: u32) -> String {
    let dropped = records.saturating_sub(kept);
    if samples > 1 {
        let records = plural(records, "record");
        format!("; dedup: {records}, {kept} kept (up to {samples} per key), {dropped} left out")
    } else {
        let records = plural(records, "record");
        let duplicates = plural(dropped, "duplicate");
        format!("; dedup: {records}, {kept} unique, {duplicates}")
    }
}

/// `dedup` of Parquet input: the first row of each key, written back as
/// Parquet (past `--memory`, keys and the rows they need spill to disk).
fn parquet_rows(
    setup: Setup,
    keying: &Keying<'_>,
    job: &Job,
    base: Option<&Url>,
    mut write_back: WriteBack,
    mut first: FirstRows,
) -> Result<ExitCode, CliError> {
    let (files, settings) = (setup.engine.files().len(), setup.report);
    let ahead = first.lookups_ahead();
    let work = |chunk: &_| {
        let mut p = keying.chunk(job, chunk, base, Keys::default());
        if let Some(ahead) = &ahead {
            // Dealt and looked up here, on the worker.
            ahead.deal(chunk, &mut p);
        }
        p
    };
    let mut done = setup.run(work, |ledger, chunk, p| {
        ledger.tally_mut().merge(&p.tally);
        let frames = first.chunk(chunk, p)?;
        if let (Some(rows), Some(layout)) =
            (chunk.rows(), ParquetLayout::of(&chunk.source().format))
        {
            let frames = frames.into_iter().flat_map(Frames::new);
            write_back.rows(ledger.out(), chunk.source(), rows, layout, frames)?;
        }
        ledger.settle(chunk, p)
    })?;
    let samples = first.samples;
    let ended = first
        .finish(&mut write_back, done.ledger.out())
        .and_then(|counts| write_back.finish(done.ledger.out()).map(|()| counts));
    let (records, kept) = match ended {
        Ok(counts) => counts,
        Err(e) => return Err(done.fail(e)),
    };
    let (tally, errors) = done.commit()?;
    let extra = summary(records, kept, samples);
    Ok(report(&tally, files, &settings, &extra, &errors))
}

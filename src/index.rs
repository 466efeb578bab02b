//! `urlsift index`: CDXJ index lines of WARC files (the library's
//! `urlsift_warc::index`), the files indexed on every core, the lines sorted by
//! bytes in memory up to `--memory` and in runs on disk past it. A WACZ is
//! indexed as the WARC files inside it; `--check` compares those lines
//! with the WACZ's own index (`index_check.rs`).

use std::process::ExitCode;
use std::sync::mpsc;

use rayon::prelude::*;
use urlsift_records::input::wacz::{self, Part};
use urlsift_records::input::{self, InputError, Location, zip};
use urlsift_warc::index::{SortedLines, entries};

use crate::args::IndexArgs;
use crate::error::CliError;
use crate::interrupt;
use crate::naming::{Named, OutputName};
use crate::output::Sink;
use crate::setup::read_errors;

pub fn run(a: IndexArgs) -> Result<ExitCode, CliError> {
    if a.files.iter().any(|f| f.as_os_str() == "-") {
        return Err(CliError::Usage(
            "index needs files: an index line holds a record's offset in its file, so \
             standard input (-) cannot be indexed (save it to a file first)"
                .into(),
        ));
    }
    if let Some(e) = input::unusable(&a.files) {
        return Err(CliError::Input(e));
    }
    let inputs = wacz::expand(&a.files, Part::Archive).map_err(CliError::Input)?;
    if a.check {
        return crate::index_check::run(&a, &inputs);
    }
    let path = a.output.as_deref();
    OutputName::of(path).check(path, Some(Named::Cdxj), "CDXJ")?;
    let (runs_dir, _registered) = interrupt::run_dir(a.tmp_dir.as_deref(), "urlsift-index-")?;
    let mut sink = Sink::open(path, false)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads.unwrap_or(0))
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start threads: {e}")))?;
    let budget = usize::try_from(a.memory).unwrap_or(usize::MAX);
    let mut lines = SortedLines::new(budget, runs_dir.path().to_path_buf());
    let (mut records, mut unindexed, mut errors) = (0u64, 0u64, Vec::new());
    // Each file's lines come to this thread as the file is done.
    let (send, receive) = mpsc::sync_channel::<(Vec<Vec<u8>>, u64, (usize, Vec<InputError>))>(2);
    let spilled = std::thread::scope(|scope| {
        scope.spawn(|| {
            pool.install(|| {
                inputs
                    .par_iter()
                    .enumerate()
                    .for_each_with(send, |send, (i, location)| {
                        let mut found = Vec::new();
                        let (left_out, failed) = index_one(location, |line| found.push(line));
                        let _ = send.send((found, left_out, (i, failed)));
                    });
            });
        });
        for (found, left_out, error) in receive {
            records += found.len() as u64;
            unindexed += left_out;
            errors.push(error);
            for line in found {
                lines.push(line).map_err(|e| {
                    CliError::output(&format!("a sorted run in {}", runs_dir.path().display()), e)
                })?;
            }
        }
        Ok::<_, CliError>(lines.runs())
    })?;
    // Faults are told in input order, whichever file was done first.
    errors.sort_by_key(|(i, _)| *i);
    let errors: Vec<InputError> = errors.into_iter().flat_map(|(_, e)| e).collect();
    lines
        .write_to(&mut sink)
        .map_err(|e| CliError::output(sink.name(), e))?;
    if errors.is_empty() {
        sink.commit()?;
    } else {
        sink.abandon()?;
    }
    if !a.quiet {
        let files = inputs.len();
        eprintln!(
            "urlsift index: {records} record{} indexed from {files} file{}{}{}",
            if records == 1 { "" } else { "s" },
            if files == 1 { "" } else { "s" },
            match unindexed {
                0 => String::new(),
                n => format!("; {n} left out (no WARC-Target-URI or WARC-Date)"),
            },
            match spilled {
                0 => String::new(),
                n => format!(" ({n} sorted runs on disk)"),
            }
        );
    }
    Ok(read_errors(&errors))
}

/// The index lines of one input, each given to `f`: a file's, named by
/// its file name, or a WACZ entry's, named relative to `archive/` with
/// offsets within the entry (as the WACZ's own index names them). Returns
/// how many records were left out (no target URI or date), and the
/// errors: gzip members passed over, then what ended the input early.
pub fn index_one(location: &Location, f: impl FnMut(Vec<u8>)) -> (u64, Vec<InputError>) {
    let (filename, read) = match location {
        Location::File(file) => (
            file.file_name()
                .map_or(location.name(), |n| n.to_string_lossy().into_owned()),
            input::open_raw(file),
        ),
        Location::Entry { zip: path, entry } => (
            entry
                .name
                .strip_prefix("archive/")
                .unwrap_or(&entry.name)
                .to_string(),
            zip::open(path, entry),
        ),
    };
    let named = |error| InputError {
        name: location.name(),
        error,
        usage: false,
    };
    match read.and_then(|r| entries(std::io::BufReader::with_capacity(1 << 20, r), &filename, f)) {
        Ok(indexed) => (
            indexed.left_out,
            indexed.passed_over.into_iter().map(named).collect(),
        ),
        Err(error) => (0, vec![named(error)]),
    }
}

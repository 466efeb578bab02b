//! `urlsift index`: CDXJ index lines of WARC files (the library's
//! `urlsift_records::index`), the files indexed on every core, the lines sorted by
//! bytes in memory up to `--memory` and in runs on disk past it.

use std::process::ExitCode;
use std::sync::mpsc;

use rayon::prelude::*;
use urlsift_records::index::{SortedLines, entries};
use urlsift_records::input::{self, InputError};

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
    let (send, receive) = mpsc::sync_channel::<(Vec<Vec<u8>>, u64, Option<InputError>)>(2);
    let spilled = std::thread::scope(|scope| {
        scope.spawn(|| {
            pool.install(|| {
                a.files.par_iter().for_each_with(send, |send, file| {
                    let name = input::display_name(file);
                    let filename = file
                        .file_name()
                        .map_or(name.clone(), |n| n.to_string_lossy().into_owned());
                    let mut found = Vec::new();
                    let read = std::fs::File::open(file).and_then(|f| {
                        let reader = std::io::BufReader::with_capacity(1 << 20, f);
                        entries(reader, &filename, |line| found.push(line))
                    });
                    let (left_out, error) = match read {
                        Ok(n) => (n, None),
                        Err(error) => (
                            0,
                            Some(InputError {
                                name,
                                error,
                                usage: false,
                            }),
                        ),
                    };
                    let _ = send.send((found, left_out, error));
                });
            });
        });
        for (found, left_out, error) in receive {
            records += found.len() as u64;
            unindexed += left_out;
            errors.extend(error);
            for line in found {
                lines.push(line).map_err(|e| {
                    CliError::output(&format!("a sorted run in {}", runs_dir.path().display()), e)
                })?;
            }
        }
        Ok::<_, CliError>(lines.runs())
    })?;
    lines
        .write_to(&mut sink)
        .map_err(|e| CliError::output(sink.name(), e))?;
    if errors.is_empty() {
        sink.commit()?;
    } else {
        sink.abandon()?;
    }
    if !a.quiet {
        let files = a.files.len();
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

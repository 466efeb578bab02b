//! Reads any input the `urlsift` command reads (URL lines, CSV/TSV, JSON
//! lines, CDXJ, WARC, access logs; plain, gzip or zstd; `-` for standard
//! input) through the library's record engine, and prints each valid
//! record's normalized href, one per line, in input order; then a
//! one-line summary on stderr that accounts for every record. It uses the
//! library's public API only: the same engine, formats and bad-record
//! policy as the command.
//!
//! ```text
//! cargo run --release --example read_records -- [--field NAME] FILE...
//! cargo run --release --example read_records -- --field link crawl.csv.gz
//! ```
//!
//! Its output equals `urlsift extract -q --fields href FILE` (the same
//! hrefs, without the CSV header and quoting), as `tests/cli/library.rs`
//! checks. Exit status: 0, or 2 for a usage error or an input that could
//! not be read to its end (everything before the error was printed).

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use urlsift_records::{Engine, Error, Job, Ledger, Options, Policy, Spec};

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(Error::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("read_records: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<ExitCode, Error> {
    let (field, files) = parse_args()?;
    let spec = Spec {
        field,
        ..Spec::default()
    };
    let engine = Engine::new(
        files,
        &Options {
            spec,
            ..Options::default()
        },
    )?;
    // Bad records are skipped and counted (the default policy).
    let job = Job::default();
    let out = io::BufWriter::with_capacity(1 << 17, io::stdout().lock());
    let mut ledger = Ledger::new(out, None::<io::Sink>, Policy::default(), b'\n');
    let errors = engine.run(
        // On the worker threads, a chunk at a time: each record's URL,
        // parsed into one reused buffer per chunk.
        |chunk| {
            job.run_parsed(chunk, None, (), |p, _record, _text, parser| {
                let href = parser.last_mut().expect("just parsed").href();
                let out = p.append();
                out.extend_from_slice(href.as_bytes());
                out.push(b'\n');
                Ok(())
            })
        },
        // On this thread, chunk by chunk in input order.
        |chunk, p| ledger.consume(chunk, p),
    )?;
    let (mut out, _, tally) = ledger.into_parts();
    out.flush().map_err(Error::Output)?;
    let summary = tally.summary(engine.files().len(), engine.noun(), false);
    eprintln!("read_records: {summary}");
    for e in &errors {
        eprintln!("read_records: cannot read {e}");
    }
    Ok(if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

/// `[--field NAME] FILE...`
fn parse_args() -> Result<(Option<String>, Vec<PathBuf>), Error> {
    let usage = || Error::Usage("usage: read_records [--field NAME] FILE...".into());
    let mut field = None;
    let mut files = Vec::new();
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--field" {
            let name = args.next().ok_or_else(usage)?;
            field = Some(name.into_string().map_err(|_| usage())?);
        } else if arg == "-h" || arg == "--help" {
            return Err(usage());
        } else {
            files.push(PathBuf::from(arg));
        }
    }
    if files.is_empty() {
        return Err(usage());
    }
    Ok((field, files))
}

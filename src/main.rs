//! The `urlsift` command: parallel normalize, dedup, extract, check, stats
//! and compare over URL files: one URL per line, or a field of CSV/TSV,
//! JSON lines, CDXJ, WARC or access-log records. The work is the library's
//! record engine (`urlsift_records`); this binary parses the flags
//! (`args`), wires each subcommand to the engine (one file each), and
//! writes the results (`output`). `main` only maps [`run`]'s result to an
//! exit status: 0 success, 1 a bad record under `--strict`, 2 usage or I/O
//! error (a closed stdout pipe counts as success).

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, Parser};

mod args;
mod check;
mod compare;
mod dedup;
mod error;
mod extract;
mod get;
mod index;
mod index_check;
mod input_list;
mod interrupt;
mod links;
mod naming;
mod normalize;
mod output;
mod parquet_out;
mod setup;
mod stats;

use args::{Cli, Command};
use error::CliError;
use output::Sink;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    interrupt::watch();
    match run(cli) {
        Ok(code) => code,
        Err(CliError::BrokenPipe) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "urlsift: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn run(mut cli: Cli) -> Result<ExitCode, CliError> {
    match &mut cli.command {
        Command::Normalize(a) => a.input.list.extend(&mut a.input.files)?,
        Command::Dedup(a) => a.input.list.extend(&mut a.input.files)?,
        Command::Extract(a) => a.input.list.extend(&mut a.input.files)?,
        Command::Check(a) => a.input.list.extend(&mut a.input.files)?,
        Command::Stats(a) => a.input.list.extend(&mut a.input.files)?,
        Command::Compare(a) => a.input.list.extend(&mut a.input.files)?,
        Command::Links(a) => a.list.extend(&mut a.files)?,
        Command::Index(a) => a.list.extend(&mut a.files)?,
        _ => {}
    }
    match cli.command {
        Command::Normalize(a) => normalize::run(a),
        Command::Dedup(a) => dedup::run(a),
        Command::Extract(a) => extract::run(a),
        Command::Check(a) => check::run(a),
        Command::Stats(a) => stats::run(a),
        Command::Links(a) => links::run(a),
        Command::Index(a) => index::run(a),
        Command::Get(a) => get::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "urlsift", &mut out);
            write_stdout(&out)
        }
        Command::Man { subcommand, dir } => man(subcommand.as_deref(), dir.as_deref()),
    }
}

/// `urlsift man [SUB]`, or every page into `dir`.
fn man(subcommand: Option<&str>, dir: Option<&std::path::Path>) -> Result<ExitCode, CliError> {
    let mut cli = Cli::command().disable_help_subcommand(true);
    if let Some(dir) = dir {
        clap_mangen::generate_to(cli, dir)
            .map_err(|e| CliError::output(&dir.display().to_string(), e))?;
        return Ok(ExitCode::SUCCESS);
    }
    cli.build();
    let page = match subcommand {
        None => cli,
        Some(name) => match cli.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => {
                let names: Vec<&str> = cli.get_subcommands().map(|s| s.get_name()).collect();
                return Err(CliError::Usage(format!(
                    "no subcommand {name:?}; the pages are for: {}",
                    names.join(", ")
                )));
            }
        },
    };
    let mut out = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut out)
        .map_err(|e| CliError::output("<stdout>", e))?;
    write_stdout(&out)
}

fn write_stdout(bytes: &[u8]) -> Result<ExitCode, CliError> {
    let mut sink = Sink::open(None, false)?;
    sink.put(bytes)?;
    sink.commit()?;
    Ok(ExitCode::SUCCESS)
}

//! stub
use crate::output::CliError;
use std::process::ExitCode;
pub fn run(_a: crate::args::ExtractArgs) -> Result<ExitCode, CliError> {
    Err(CliError::Usage(
        "this subcommand is not implemented yet".into(),
    ))
}

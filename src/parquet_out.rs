//! Parquet output, the command's part: `--compression` and the refusal to
//! write Parquet to a terminal. The writers are the engine's
//! (`urlsift_records::parquet::{WriteBack, Extracted}`, and
//! `urlsift_records::dedup::FirstRows` for dedup).

use std::io::IsTerminal;

use parquet::basic::Compression;
use urlsift_records::parquet::compression;

use crate::error::CliError;

/// `--compression` as given, for a run whose output is Parquet (`None`:
/// zstd).
pub fn codec(flag: Option<&str>) -> Result<Compression, CliError> {
    compression(flag.unwrap_or("zstd")).map_err(|e| CliError::Usage(format!("--compression {e}")))
}

/// Parquet to a terminal is refused: it is binary.
pub fn check_target(output: Option<&std::path::Path>) -> Result<(), CliError> {
    if output.is_none() && std::io::stdout().is_terminal() {
        return Err(CliError::Usage(
            "the output is Parquet (binary): name a file with -o FILE, or redirect standard \
             output"
                .into(),
        ));
    }
    Ok(())
}

//! `--inputs-from FILE`: inputs listed in a file, one path per line (a
//! Common Crawl `warc.paths.gz` among them), read after the inputs named
//! on the command line; `--inputs-prefix` is prepended to the relative
//! ones.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use clap::Args;
use urlsift_records::input::{self, InputError, decode};

use crate::error::CliError;

/// The flags that list inputs in a file.
#[derive(Args, Debug, Clone, Default)]
pub struct InputList {
    /// Read more inputs from FILE (`-`: standard input), one path per line, after those
    /// named; plain, gzip or zstd (by content), blank lines skipped. E.g. Common Crawl's
    /// warc.paths.gz with --inputs-prefix /mnt/commoncrawl/
    #[arg(long, value_name = "FILE")]
    pub inputs_from: Option<PathBuf>,
    /// Prepended (as text, a / added if missing) to each relative path of --inputs-from.
    #[arg(long, value_name = "PREFIX", requires = "inputs_from")]
    pub inputs_prefix: Option<String>,
}

impl InputList {
    /// Appends the listed inputs to `files`. Refused: a list that cannot
    /// be read, that lists nothing, or that names a URL (remote inputs
    /// are not read yet).
    pub fn extend(&self, files: &mut Vec<PathBuf>) -> Result<(), CliError> {
        let Some(list) = &self.inputs_from else {
            return Ok(());
        };
        let name = input::display_name(list);
        let failed = |error: std::io::Error| {
            CliError::Input(InputError {
                name: format!("{name} (--inputs-from)"),
                error,
                usage: false,
            })
        };
        let reader = decode::open_with(list, 1).map_err(failed)?.into_reader();
        let before = files.len();
        for (i, line) in BufReader::new(reader).lines().enumerate() {
            let line = line.map_err(failed)?;
            let path = line.trim_end_matches('\r');
            if path.trim().is_empty() {
                continue;
            }
            if path.contains("://") {
                return Err(CliError::Usage(format!(
                    "{name} line {}: {path}: inputs are local paths (reading URLs is not built \
                     yet); give a local folder with --inputs-prefix for relative paths",
                    i + 1
                )));
            }
            files.push(match &self.inputs_prefix {
                Some(prefix) if !Path::new(path).is_absolute() => {
                    let sep = if prefix.ends_with('/') { "" } else { "/" };
                    PathBuf::from(format!("{prefix}{sep}{path}"))
                }
                _ => PathBuf::from(path),
            });
        }
        if files.len() == before {
            return Err(failed(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "lists no inputs",
            )));
        }
        Ok(())
    }
}

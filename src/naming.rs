//! What an output file's name says about its contents, the same for every
//! subcommand: `.parquet` is Parquet; `.csv`, `.tsv`, `.jsonl` (or
//! `.ndjson`), `.cdxj` and `.json` are those formats; a last `.gz` or
//! `.zst` compresses whatever the rest of the name says. Any other name
//! (`.txt`, `.log`, none) claims nothing; `.json` and `.jsonl` both do for
//! JSON output, one value or a value a line. A subcommand asks for the format
//! the name names when its own flags leave the format open, and refuses a
//! name that names another format than the one it writes, before any
//! input is read.

use std::fmt;
use std::path::Path;

use crate::error::CliError;

/// A format an output's name can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Named {
    Parquet,
    Csv,
    Tsv,
    Jsonl,
    Cdxj,
    Json,
}

impl Named {
    fn extension(self) -> &'static str {
        match self {
            Named::Parquet => ".parquet",
            Named::Csv => ".csv",
            Named::Tsv => ".tsv",
            Named::Jsonl => ".jsonl",
            Named::Cdxj => ".cdxj",
            Named::Json => ".json",
        }
    }
}

/// The compression a name's last extension asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Packing {
    Plain,
    Gzip,
    Zstd,
}

/// What `-o NAME` says: a format (or none) and a compression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputName {
    pub format: Option<Named>,
    pub packing: Packing,
}

impl OutputName {
    /// What `path` says; stdout (`None`, `-`) says nothing.
    pub fn of(path: Option<&Path>) -> OutputName {
        let plain = OutputName {
            format: None,
            packing: Packing::Plain,
        };
        let Some(name) = path.and_then(|p| p.file_name()).and_then(|n| n.to_str()) else {
            return plain;
        };
        if path == Some(Path::new("-")) {
            return plain;
        }
        let lower = name.to_ascii_lowercase();
        let (rest, packing) = if let Some(r) = lower.strip_suffix(".gz") {
            (r, Packing::Gzip)
        } else if let Some(r) = lower.strip_suffix(".zst") {
            (r, Packing::Zstd)
        } else {
            (lower.as_str(), Packing::Plain)
        };
        let format = match rest.rsplit_once('.').map(|(_, e)| e) {
            Some("parquet") => Some(Named::Parquet),
            Some("csv") => Some(Named::Csv),
            Some("tsv" | "tab") => Some(Named::Tsv),
            Some("jsonl" | "ndjson") => Some(Named::Jsonl),
            Some("cdxj") => Some(Named::Cdxj),
            Some("json") => Some(Named::Json),
            _ => None,
        };
        OutputName { format, packing }
    }

    /// Refuses a name that names another format than `writes` (`None`:
    /// text that is none of the named formats, such as URL lines);
    /// `subcommand` and `what` word the error. Parquet compresses its own
    /// pages: a `.parquet.gz` is refused too.
    pub fn check(
        self,
        path: Option<&Path>,
        writes: Option<Named>,
        what: impl fmt::Display,
    ) -> Result<(), CliError> {
        let name = path.map_or(String::new(), |p| p.display().to_string());
        if writes == Some(Named::Parquet) && self.packing != Packing::Plain {
            return Err(CliError::Usage(format!(
                "-o {name}: Parquet compresses its own pages (--compression CODEC); \
                 name the file .parquet"
            )));
        }
        let json = |n: Option<Named>| matches!(n, Some(Named::Json | Named::Jsonl));
        match self.format {
            // A `.json` file of JSON lines, or `.jsonl` of one JSON value.
            Some(named) if json(Some(named)) && json(writes) => Ok(()),
            Some(named) if Some(named) != writes => Err(CliError::Usage(format!(
                "-o {name}: the name says {} but this run writes {what}; name the file \
                 for what it holds{}",
                named.extension(),
                match writes {
                    Some(w) => format!(" ({})", w.extension()),
                    None => " (.txt, or no extension)".to_string(),
                }
            ))),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(name: &str) -> OutputName {
        OutputName::of(Some(Path::new(name)))
    }

    #[test]
    fn names_say_format_and_packing() {
        assert_eq!(of("a/b.parquet").format, Some(Named::Parquet));
        assert_eq!(of("x.CSV.gz").format, Some(Named::Csv));
        assert_eq!(of("x.csv.gz").packing, Packing::Gzip);
        assert_eq!(of("x.jsonl.zst").packing, Packing::Zstd);
        assert_eq!(of("x.ndjson").format, Some(Named::Jsonl));
        assert_eq!(of("x.txt.gz").format, None);
        assert_eq!(of("x.gz").format, None);
        assert_eq!(of("x.gz").packing, Packing::Gzip);
        assert_eq!(of("out").format, None);
        assert_eq!(of("-").packing, Packing::Plain);
        assert_eq!(OutputName::of(None).format, None);
    }

    #[test]
    fn conflicts_are_refused() {
        let p = Path::new("x.parquet");
        assert!(of("x.parquet").check(Some(p), None, "URL lines").is_err());
        assert!(
            of("x.parquet")
                .check(Some(p), Some(Named::Parquet), "Parquet")
                .is_ok()
        );
        let gz = Path::new("x.parquet.gz");
        assert!(
            of("x.parquet.gz")
                .check(Some(gz), Some(Named::Parquet), "Parquet")
                .is_err()
        );
        assert!(of("x.txt").check(None, Some(Named::Csv), "CSV").is_ok());
        assert!(of("x.csv").check(None, Some(Named::Tsv), "TSV").is_err());
    }
}

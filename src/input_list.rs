//! Which inputs a run reads, beyond those named: `--inputs-from FILE`
//! (inputs listed in a file, one path per line, a Common Crawl
//! `warc.paths.gz` among them, read after the inputs named on the command
//! line; `--inputs-prefix` is prepended to the relative ones), and
//! `--allow-missing` (an input that cannot be opened is named and left
//! out, not the end of the run).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use clap::Args;
use urlsift_records::input::{self, InputError, decode};

use crate::error::CliError;

/// The flags that list inputs in a file.
#[derive(Args, Debug, Clone, Default)]
pub struct InputList {
    /// Read more inputs from FILE (`-`: standard input; a local path or an s3://, gs://, az:// or
    /// http(s):// URL), one path or URL per line, after those named; plain, gzip or zstd (by
    /// content), blank lines skipped. E.g. Common Crawl's warc.paths.gz with --inputs-prefix
    /// https://data.commoncrawl.org/ (or a local mirror's folder)
    #[arg(long, value_name = "FILE")]
    pub inputs_from: Option<PathBuf>,
    /// Prepended (as text, a / added if missing) to each relative path of --inputs-from: a
    /// folder, or an s3://, gs://, az:// or http(s):// URL.
    #[arg(long, value_name = "PREFIX", requires = "inputs_from")]
    pub inputs_prefix: Option<String>,
    /// Leave out each input that cannot be opened (not there, a directory, not readable),
    /// naming it on stderr, and read the rest: the run exits 0 and writes -o if nothing else
    /// fails (without it, such an input stops the run before it starts, with exit status 2).
    /// E.g. urlsift normalize --allow-missing --inputs-from warc.paths -o urls.txt
    #[arg(long)]
    pub allow_missing: bool,
    /// How long to wait on a server (to connect, or for the next bytes of an s3://, gs://, az:// or
    /// http(s):// input) before the request counts as failed and is tried again, with backoff,
    /// a body taken up at the byte reached. E.g. --network-timeout 120 over a slow link
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = seconds)]
    pub network_timeout: std::time::Duration,
    /// Ranged requests in flight per s3://, gs://, az:// or http(s):// input ahead of its
    /// reader: an object of 512 KiB or more is read in pieces (an eighth of it, 256 KiB to 8
    /// MiB) asked for side by side, within 256 MiB ahead over the run; 0 reads each object as
    /// one stream (for a server slow to answer ranges). E.g. --requests-ahead 16 over a
    /// long-distance link
    #[arg(long, value_name = "N", default_value = "4", value_parser = clap::value_parser!(u16).range(0..=64))]
    pub requests_ahead: u16,
    /// Send the requests to s3://, gs:// and az:// buckets without credentials (none is looked
    /// for): for public buckets that allow anonymous reads. E.g. urlsift normalize
    /// --no-sign-request s3://a-public-bucket/crawl/part-00000.warc.gz (Common Crawl's bucket
    /// answers only signed requests: read it over https://data.commoncrawl.org/)
    #[arg(long)]
    pub no_sign_request: bool,
}

/// A positive number of seconds (fractions allowed).
fn seconds(text: &str) -> Result<std::time::Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(std::time::Duration::from_secs_f64(s)),
        _ => Err("a number of seconds above 0, at most 86400 (a day)".into()),
    }
}

impl InputList {
    /// Appends the listed inputs to `files`, puts the objects each
    /// listing URL names in its place (an `s3://` prefix ending in `/`, or a
    /// glob in the last segment), then, with `--allow-missing`, leaves out
    /// those that cannot be opened.
    pub fn extend(&self, files: &mut Vec<PathBuf>) -> Result<(), CliError> {
        if !self.network_timeout.is_zero() {
            input::remote::set_network_timeout(self.network_timeout);
        }
        input::remote::set_unsigned_requests(self.no_sign_request);
        input::remote::set_requests_ahead(usize::from(self.requests_ahead));
        self.append(files)?;
        expand_listings(files)?;
        if self.allow_missing {
            leave_out_missing(files)?;
        }
        Ok(())
    }

    /// Appends the listed inputs to `files`. Refused: a list that cannot
    /// be read, that lists nothing, or that names a URL of a scheme not
    /// read (s3://, gs://, az:// and http(s):// are).
    fn append(&self, files: &mut Vec<PathBuf>) -> Result<(), CliError> {
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
        let reader = if list.to_str().is_some_and(input::is_remote) {
            input::open_raw(list).and_then(|raw| decode::open_stream(raw, 1))
        } else {
            decode::open_with(list, 1)
        };
        let reader = reader.map_err(failed)?.into_reader();
        let before = files.len();
        for (i, line) in BufReader::new(reader).lines().enumerate() {
            let line = line.map_err(failed)?;
            let path = line.trim_end_matches('\r');
            if path.trim().is_empty() {
                continue;
            }
            let remote = input::is_remote(path);
            if path.contains("://") && !remote {
                return Err(CliError::Usage(format!(
                    "{name} line {}: {path}: inputs are local paths, s3://, gs://, az:// or http(s):// URLs \
                     (other schemes are not read yet)",
                    i + 1
                )));
            }
            files.push(match &self.inputs_prefix {
                Some(prefix) if !remote && !Path::new(path).is_absolute() => {
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

/// Each listing URL of `files` ([`input::is_listing`]) replaced by the
/// objects it names, in key order. An empty listing stops the run, as a
/// missing file does (and is not left out by `--allow-missing`: a
/// pattern that matches nothing is a mistake, not a gap in a crawl).
fn expand_listings(files: &mut Vec<PathBuf>) -> Result<(), CliError> {
    if !files
        .iter()
        .any(|f| f.to_str().is_some_and(input::is_listing))
    {
        return Ok(());
    }
    let mut expanded = Vec::with_capacity(files.len());
    for file in files.drain(..) {
        match file.to_str().filter(|name| input::is_listing(name)) {
            None => expanded.push(file),
            Some(url) => {
                let objects = input::expand(url).map_err(|error| {
                    CliError::Input(InputError {
                        name: url.to_string(),
                        error,
                        usage: false,
                    })
                })?;
                expanded.extend(objects.into_iter().map(PathBuf::from));
            }
        }
    }
    *files = expanded;
    Ok(())
}

/// `--allow-missing`: names each input of `files` that cannot be opened on
/// stderr, with why, and leaves it out; then says how many. Every input
/// missing is still an error: there is nothing to read.
fn leave_out_missing(files: &mut Vec<PathBuf>) -> Result<(), CliError> {
    let total = files.len();
    let mut first = None;
    let why = input::check_all(files);
    let mut kept = Vec::with_capacity(files.len());
    for (file, why) in files.drain(..).zip(why) {
        match why {
            None => kept.push(file),
            Some(e) => {
                eprintln!("urlsift: left out (--allow-missing): cannot read {e}");
                first.get_or_insert(e);
            }
        }
    }
    *files = kept;
    let Some(first) = first else {
        return Ok(());
    };
    let left_out = total - files.len();
    if files.is_empty() {
        return Err(CliError::Input(InputError {
            name: first.name,
            error: std::io::Error::new(
                first.error.kind(),
                format!(
                    "{}; and no input can be opened (--allow-missing)",
                    first.error
                ),
            ),
            usage: false,
        }));
    }
    eprintln!(
        "urlsift: {left_out} of {total} inputs left out: they cannot be opened (--allow-missing)"
    );
    Ok(())
}

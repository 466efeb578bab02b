//! Command-line flags (clap derive) and their validation into the settings
//! the subcommands run with. Everything a user can get wrong is caught here,
//! before any input is read, and reported with exit status 2.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

const EXAMPLES: &str = "\
Examples:
  urlsift normalize urls.txt > normal.txt
  urlsift normalize --strip-params 'utm_*,fbclid,gclid' --sort-query crawl.txt.gz -o out.txt
  urlsift normalize --base https://example.com/ access-paths.txt
  zcat dump.gz | urlsift dedup --key pattern -
  urlsift dedup --count --key host urls.txt | sort -rn | head
  urlsift extract --fields hostname,pathname --tsv urls.txt
  urlsift extract --format '{hostname}{pathname}' urls.txt
  urlsift check --json urls.txt
  urlsift stats urls.txt.zst";

/// Parallel WHATWG URL processing for files of one URL per line.
///
/// Input files may be gzip or zstd compressed (any number of members or
/// frames); a compressed file that is cut short, damaged or followed by
/// trailing garbage is an error naming the byte offset in it (exit status 2)
/// after everything before the fault was decoded. `-` or no file reads
/// standard input. Bad lines (invalid UTF-8, NUL bytes, over-long lines, unparsable
/// URLs) never stop a run: they are skipped and counted (summary on stderr),
/// written to --rejects, passed through with --keep-invalid, or fatal with
/// --strict (exit status 1). Exit status 2 means a usage or I/O error.
#[derive(Parser, Debug)]
#[command(name = "urlsift", version, after_help = EXAMPLES, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print each URL's WHATWG href, one per line, in input order.
    #[command(after_help = "Examples:
  urlsift normalize urls.txt
  urlsift normalize --strip-fragment --sort-query --strip-params 'utm_*,fbclid' urls.txt
  urlsift normalize --surt urls.txt.gz
  urlsift normalize --base https://example.com/ request-paths.log")]
    Normalize(NormalizeArgs),
    /// Keep the first occurrence of each key, in input order.
    #[command(after_help = "Examples:
  urlsift dedup urls.txt
  urlsift dedup --key origin urls.txt
  urlsift dedup --key pattern --count urls.txt
  urlsift dedup --memory 64M --tmp-dir /var/tmp huge.txt.zst -o unique.txt")]
    Dedup(DedupArgs),
    /// Print URL components as CSV (default), TSV, JSON Lines or a template.
    #[command(after_help = "Examples:
  urlsift extract urls.txt
  urlsift extract --fields hostname,port,pathname --tsv urls.txt
  urlsift extract --jsonl --fields href,origin urls.txt
  urlsift extract --format '{protocol}//{hostname}{pathname}' urls.txt

Fields: line, input, href, protocol, username, password, host, hostname,
port, pathname, search, hash, origin")]
    Extract(ExtractArgs),
    /// Report lines that are invalid or carry spec validation errors.
    #[command(after_help = "Examples:
  urlsift check urls.txt
  urlsift check --json urls.txt | jq .errors")]
    Check(CheckArgs),
    /// Summarize a URL file: validity, reasons, schemes, top hosts, throughput.
    #[command(after_help = "Examples:
  urlsift stats urls.txt
  urlsift stats --json --top 20 crawl.txt.gz")]
    Stats(StatsArgs),
    /// Print a shell completion script.
    #[command(after_help = "Example:\n  urlsift completions bash > /etc/bash_completion.d/urlsift")]
    Completions {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) to standard output.
    #[command(after_help = "Example:\n  urlsift man | man -l -")]
    Man,
}

/// Flags shared by every processing subcommand.
#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// Input files (gzip and zstd detected by magic bytes); `-` or none reads stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Resolve each line against this base URL (for request paths in logs).
    #[arg(long, value_name = "URL")]
    pub base: Option<String>,
    /// Lines longer than this are bad lines (suffixes K, M, G).
    #[arg(long, value_name = "SIZE", default_value = "16M", value_parser = parse_size)]
    pub max_line_bytes: u64,
    /// Threads that read and parse (default: one per core); results are
    /// written in input order by one more.
    #[arg(short = 'j', long = "threads", value_name = "N")]
    pub threads: Option<usize>,
    /// No progress bar and no summary on stderr (errors are still printed).
    #[arg(short, long)]
    pub quiet: bool,
    /// Always print the summary on stderr, even when no line was bad.
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,
    /// Bytes per parallel chunk (tuning and tests).
    #[arg(long, value_name = "SIZE", default_value = "4M", value_parser = parse_size, hide = true)]
    pub chunk_size: u64,
}

/// Where results go.
#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// Write to FILE atomically (temp file, fsync, rename) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// End output records with NUL instead of newline.
    #[arg(short = '0', long = "null")]
    pub null: bool,
}

/// What to do with bad lines.
#[derive(Args, Debug, Clone)]
pub struct PolicyArgs {
    /// Write each bad line to FILE as: source, line number, reason, raw line (tab-separated).
    #[arg(long, value_name = "FILE")]
    pub rejects: Option<PathBuf>,
    /// Pass bad lines through unchanged instead of skipping them.
    #[arg(long, conflicts_with = "strict")]
    pub keep_invalid: bool,
    /// Stop at the first bad line with exit status 1 (no -o file is written;
    /// --rejects still gets the lines up to and including that one).
    #[arg(long)]
    pub strict: bool,
}

/// Normalization profiles beyond the standard; each is idempotent.
#[derive(Args, Debug, Clone, Default)]
pub struct ProfileArgs {
    /// Drop the fragment (`#...`).
    #[arg(long)]
    pub strip_fragment: bool,
    /// Sort query parameters by name (stable; each pair's bytes kept as is).
    #[arg(long)]
    pub sort_query: bool,
    /// Remove query parameters whose name matches one of these comma-separated
    /// globs (`*`, `?`; ASCII case-insensitive), e.g. 'utm_*,fbclid,gclid'.
    #[arg(long, value_name = "GLOBS")]
    pub strip_params: Option<String>,
    /// Print the SURT key (`com,example)/path?query`) used by web archives:
    /// scheme, userinfo, fragment and a leading `www.` dropped, host labels reversed.
    #[arg(long)]
    pub surt: bool,
}

#[derive(Args, Debug)]
pub struct NormalizeArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub policy: PolicyArgs,
    #[command(flatten)]
    pub profile: ProfileArgs,
}

/// Dedup keys.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum DedupKey {
    /// The normalized URL (after any profile flags).
    Href,
    /// The normalized URL without its fragment.
    NoFragment,
    /// The URL's origin (`https://example.com:8443`).
    Origin,
    /// The host (with port).
    Host,
    /// Host + path with numeric, hex and UUID segments collapsed + sorted parameter names.
    Pattern,
}

#[derive(Args, Debug)]
pub struct DedupArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub policy: PolicyArgs,
    #[command(flatten)]
    pub profile: ProfileArgs,
    /// What makes two lines duplicates.
    #[arg(long, value_enum, default_value = "href")]
    pub key: DedupKey,
    /// Prefix each kept line with its number of occurrences, like `uniq -c`.
    #[arg(short, long)]
    pub count: bool,
    /// Memory budget for the seen-set; beyond it, spill to --tmp-dir (K, M, G).
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_size)]
    pub memory: u64,
    /// Directory for spill files (default: the system temp dir).
    #[arg(long, value_name = "DIR")]
    pub tmp_dir: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct ExtractArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub policy: PolicyArgs,
    /// Comma-separated fields to print.
    #[arg(
        long,
        value_name = "LIST",
        default_value = "href,protocol,username,password,hostname,port,pathname,search,hash,origin"
    )]
    pub fields: String,
    /// Tab-separated values (with a header line unless --no-header).
    #[arg(long, conflicts_with_all = ["jsonl", "format"])]
    pub tsv: bool,
    /// One JSON object per line.
    #[arg(long, conflicts_with = "format")]
    pub jsonl: bool,
    /// A template such as '{hostname}{pathname}' ('{{' and '}}' for braces).
    #[arg(long, value_name = "TEMPLATE")]
    pub format: Option<String>,
    /// Omit the CSV/TSV header line.
    #[arg(long)]
    pub no_header: bool,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    /// One JSON object per reported line.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// How many hosts to list.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub top: usize,
}

/// Parses sizes like `64M`, `1G`, `512k`, `1000`.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (digits, mult) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let mult: u64 = match c.to_ascii_uppercase() {
                'K' => 1 << 10,
                'M' => 1 << 20,
                'G' => 1 << 30,
                'T' => 1 << 40,
                'B' => 1,
                _ => return Err(format!("unknown size suffix in {s:?} (use K, M, G or T)")),
            };
            (&t[..i], mult)
        }
        _ => (t, 1),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("{s:?} is not a size (examples: 1000, 64K, 16M, 1G)"))?;
    n.checked_mul(mult)
        .filter(|&v| v > 0)
        .ok_or_else(|| format!("size {s:?} must be positive and fit in 64 bits"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("1g"), Ok(1 << 30));
        assert!(parse_size("12Q").is_err());
        assert!(parse_size("0").is_err());
        assert!(parse_size("").is_err());
    }

    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}

//! Command-line flags (clap derive) and their validation into the settings
//! the subcommands run with. Everything a user can get wrong is caught here,
//! before any input is read, and reported with exit status 2.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::records::{self, Kind};
use crate::select::{EditArgs, FilterArgs, SiteArgs};

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
  urlsift stats urls.txt.zst
  urlsift normalize export.csv > clean.csv
  urlsift dedup --field request.url events.jsonl.gz
  urlsift extract --fields hostname,@WARC-Date CC-MAIN-00000.warc.gz
  urlsift normalize --input-format log --base https://example.com/ access.log
  urlsift compare --parsers urlsift,ada,rust-url urls.txt

Input formats (--input-format, by default from the file extension):
  lines   one URL per line (also stdin and unknown extensions)
  csv     .csv: RFC 4180 rows, the column named `url` (or --field NAME|N)
  tsv     .tsv: tab-separated, quoted like CSV
  jsonl   .jsonl/.ndjson: a JSON object per line, the key `url` (or
          --field KEY or a dotted path such as request.url)
  cdxj    .cdxj: Common Crawl index lines, the JSON block's `url`
  warc    .warc(.gz): the WARC-Target-URI header (or --field HEADER); read-only
  log     .log with a log line in its first 16 (else lines): Apache/nginx
          common/combined logs, the request target (resolved against
          --base) or --field referer; read-only
normalize and dedup write CSV/TSV/JSONL/CDXJ records back with only the URL
field changed; read-only formats give URL lines.";

/// Parallel WHATWG URL processing for URL files: one URL per line, or a
/// field of CSV/TSV, JSON lines, CDXJ, WARC or access-log records.
///
/// Input files may be gzip or zstd compressed (any number of members or
/// frames); `-` or no file reads standard input. Bad records (invalid UTF-8,
/// NUL bytes, over-long lines, unparsable URLs, an open CSV quote, invalid
/// JSON, ...) never stop a run: they are skipped and counted (summary on
/// stderr), written to --rejects, passed through with --keep-invalid, or
/// fatal with --strict (exit status 1). A file that cannot be read to its
/// end (cut short, damaged, followed by trailing garbage) keeps everything
/// decoded before the fault, then the error names the byte offset in it
/// (exit status 2); after a damaged gzip member or zstd frame, decoding
/// goes on with the next one. What a member or frame that fails its
/// CRC-32 or checksum decoded to is never read as URLs: its lines are bad
/// `damaged-input` records (in --rejects). Exit status 2 also means a
/// usage error.
#[derive(Parser, Debug)]
#[command(name = "urlsift", version, after_help = EXAMPLES, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print each URL's WHATWG href in input order (records of CSV/TSV/JSONL/CDXJ
    /// input are written back with only the URL field changed).
    #[command(after_help = "Examples:
  urlsift normalize urls.txt
  urlsift normalize --strip-fragment --sort-query --strip-params 'utm_*,fbclid' urls.txt
  urlsift normalize --surt urls.txt.gz
  urlsift normalize --base https://example.com/ request-paths.log
  urlsift normalize --field link export.csv > clean.csv
  urlsift normalize --field request.url events.jsonl.zst
  urlsift normalize --input-format log --base https://example.com/ access.log")]
    Normalize(NormalizeArgs),
    /// Keep the first occurrence of each key, in input order (the whole first
    /// record, for record formats).
    #[command(after_help = "Examples:
  urlsift dedup urls.txt
  urlsift dedup --key origin urls.txt
  urlsift dedup --key pattern --count urls.txt
  urlsift dedup --memory 64M --tmp-dir /var/tmp huge.txt.zst -o unique.txt
  urlsift dedup --key host crawl.csv
  urlsift dedup CC-MAIN-index.cdxj.gz")]
    Dedup(DedupArgs),
    /// Print URL components as CSV (default), TSV, JSON Lines or a template.
    #[command(after_help = "Examples:
  urlsift extract urls.txt
  urlsift extract --fields hostname,port,pathname --tsv urls.txt
  urlsift extract --jsonl --fields href,origin urls.txt
  urlsift extract --format '{protocol}//{hostname}{pathname}' urls.txt
  urlsift extract --fields @id,hostname crawl.csv
  urlsift extract --append --fields hostname,pathname crawl.csv > with-hosts.csv
  urlsift extract --fields hostname,@WARC-Date,@WARC-Type CC-MAIN-00000.warc.gz
  urlsift extract --input-format log --fields pathname,@status,@user_agent access.log
  urlsift extract --fields site,subdomain,public_suffix urls.txt
  urlsift extract --site bbc.co.uk --ext pdf --fields href urls.txt

Fields: line, input, href, protocol, username, password, host, hostname,
port, pathname, search, hash, origin; site, public_suffix, subdomain,
domain (from the Public Suffix List: --psl FILE, --icann-only); and @NAME,
a field of the input record: a CSV/TSV column (name or number), a JSON key or dotted path, a
WARC header, or a log field (remote, ident, user, time, request, method,
target, protocol, status, bytes, referer, user_agent).")]
    Extract(ExtractArgs),
    /// Report lines that are invalid or carry spec validation errors.
    #[command(after_help = "Examples:
  urlsift check urls.txt
  urlsift check --json urls.txt | jq .errors
  urlsift check --field request.url events.jsonl")]
    Check(CheckArgs),
    /// Summarize a URL file: validity, reasons, schemes, top hosts, throughput.
    #[command(after_help = "Examples:
  urlsift stats urls.txt
  urlsift stats --json --top 20 crawl.txt.gz
  urlsift stats CC-MAIN-00000.warc.gz")]
    Stats(StatsArgs),
    /// Benchmark URL parsers on your URLs and show where they disagree with urlsift.
    #[command(after_help = crate::compare::EXAMPLES)]
    Compare(crate::compare::CompareArgs),
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
    /// The input's format: `auto` picks by file extension after .gz/.zst
    /// (.csv, .tsv, .jsonl/.ndjson, .cdxj, .warc; .log by its first lines:
    /// `log` if that is an access-log line), else `lines`.
    #[arg(long, value_name = "FORMAT", value_enum, default_value = "auto")]
    pub input_format: InputFormat,
    /// Which field of each record holds the URL: a CSV/TSV column name or
    /// 1-based number, a JSON key or dotted path (request.url), a WARC
    /// header, `request` or `referer` for logs. Default: the column or key
    /// `url` (any case), WARC-Target-URI, the request target.
    #[arg(long, value_name = "NAME")]
    pub field: Option<String>,
    /// CSV/TSV input without a header row (--field then takes a column
    /// number; the default is column 1). extract's CSV/TSV output then has
    /// no header line either.
    #[arg(long)]
    pub no_header: bool,
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
    #[command(flatten)]
    pub sites: SiteArgs,
}

impl InputArgs {
    /// The format flags, for the reader.
    pub fn format_spec(&self) -> records::Spec {
        records::Spec {
            kind: self.input_format.kind(),
            field: self.field.clone(),
            no_header: self.no_header,
        }
    }
}

/// `--input-format`'s values.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputFormat {
    /// By file extension (after .gz/.zst; a .log file by its first lines);
    /// `lines` otherwise and for stdin.
    Auto,
    /// One URL per line.
    Lines,
    /// Comma-separated values (RFC 4180) with a header row (see --no-header).
    Csv,
    /// Tab-separated values, quoted like CSV.
    Tsv,
    /// One JSON object per line (JSON Lines, NDJSON).
    Jsonl,
    /// Common Crawl CDXJ index lines: SURT TIMESTAMP {json}.
    Cdxj,
    /// WARC records, plain or .warc.gz (read-only: writes URL lines).
    Warc,
    /// Apache/nginx common or combined log lines (read-only: writes URL lines).
    Log,
}

impl InputFormat {
    /// The format, or `None` for `auto`.
    pub fn kind(self) -> Option<Kind> {
        Some(match self {
            InputFormat::Auto => return None,
            InputFormat::Lines => Kind::Lines,
            InputFormat::Csv => Kind::Csv,
            InputFormat::Tsv => Kind::Tsv,
            InputFormat::Jsonl => Kind::Jsonl,
            InputFormat::Cdxj => Kind::Cdxj,
            InputFormat::Warc => Kind::Warc,
            InputFormat::Log => Kind::Log,
        })
    }
}

/// Where results go.
#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// Write to FILE atomically (temp file, fsync, rename) instead of stdout;
    /// a FILE that is not a regular file (/dev/null, a FIFO) is written in
    /// place.
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
    #[arg(long, visible_alias = "remove-param", value_name = "GLOBS")]
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
    pub filters: FilterArgs,
    #[command(flatten)]
    pub edits: EditArgs,
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
    /// The site: the registrable domain (eTLD+1, from the Public Suffix List).
    Site,
}

#[derive(Args, Debug)]
pub struct DedupArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub filters: FilterArgs,
    #[command(flatten)]
    pub edits: EditArgs,
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
    pub filters: FilterArgs,
    #[command(flatten)]
    pub edits: EditArgs,
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
    /// Add the fields to each input record (CSV/TSV columns, JSON keys named
    /// url_FIELD) instead of printing them alone. With --keep-invalid, bad
    /// and empty records go out unchanged, so every record is kept.
    #[arg(long, conflicts_with_all = ["tsv", "jsonl", "format"])]
    pub append: bool,
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
    pub filters: FilterArgs,
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

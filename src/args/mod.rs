//! Command-line flags (clap derive) and their validation into the settings
//! the subcommands run with. Everything a user can get wrong is caught here,
//! before any input is read, and reported with exit status 2.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use urlsift_records::dedup::{Key, PatternKeyOptions};

mod shared;

pub use shared::{
    CanonicalArgs, EditArgs, FilterArgs, InputArgs, OutputArgs, PolicyArgs, ProfileArgs, SiteArgs,
    parse_size,
};

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
  urlsift normalize --delimiter ';' semicolon-export.csv
  urlsift dedup --field request.url events.jsonl.gz
  urlsift extract --fields hostname,@WARC-Date CC-MAIN-00000.warc.gz
  urlsift normalize --input-format log --base https://example.com/ access.log
  urlsift compare --parsers urlsift,ada,rust-url urls.txt
  urlsift links --fields from,to,kind CC-MAIN-00000.warc.gz
  urlsift normalize https://data.commoncrawl.org/crawl-data/.../x.warc.gz
  urlsift dedup s3://my-bucket/logs/2026-11.log.gz -o unique.txt

Input formats (--input-format, by default from the file extension):
  lines   one URL per line (also stdin and unknown extensions)
  csv     .csv: RFC 4180 rows, the column named `url` (or --field NAME|N);
          --delimiter ';' (or '|', '\\t', ...) for other delimiters
  tsv     .tsv: tab-separated, quoted like CSV
  jsonl   .jsonl/.ndjson: a JSON object per line, the key `url` (or
          --field KEY or a dotted path such as request.url)
  cdxj    .cdxj: Common Crawl index lines, the JSON block's `url`
  warc    .warc, .wat, .wet (.gz), or a file that starts `WARC/1.`: the
          WARC-Target-URI header (or --field HEADER); read-only
  arc     .arc (.gz), or a file that starts `filedesc://`: the ARC header
          line's url (or --field location, ...); read-only
  log     .log with a log line in its first 16 (else lines): Apache/nginx
          common/combined logs, the request target (resolved against
          --base) or --field referer; CONNECT host:port gives
          https://host:port/ (443) or http://; OPTIONS * is a bad record;
          read-only
  parquet .parquet: a row per record, the URL in a string column (`url`,
          or --field NAME, a dotted path into a struct)
Input is UTF-8; UTF-16/32 (a byte-order mark) is refused, named.
An input (and --inputs-from and its lines) may be a URL of one object:
s3://BUCKET/KEY (credentials, region and AWS_ENDPOINT_URL for an
S3-compatible server from the AWS environment variables, or the profile
AWS_PROFILE names in ~/.aws/credentials; --no-sign-request for public
buckets), gs://BUCKET/KEY (Google
Cloud Storage: GOOGLE_APPLICATION_CREDENTIALS or the gcloud default
credentials), az://CONTAINER/KEY (Azure Blob Storage:
AZURE_STORAGE_ACCOUNT_NAME and _KEY or _SAS_KEY) or http(s)://HOST/PATH,
checked (a HEAD request) before any work, read as it downloads (a
Parquet object by ranges: its footer, then its row groups' column
chunks; a WACZ object, known by its .wacz name, by its ZIP directory and
entries).
s3://BUCKET/DIR/ (gs://, az://) reads every object under DIR
(recursively, in key order) and * or ? in the last segment the objects of
that folder whose names match, e.g. urlsift normalize
's3://my-bucket/cdx/cdx-000??.gz'; an empty listing is an error.
normalize and dedup write CSV/TSV/JSONL/CDXJ records and Parquet rows back
with only the URL field changed; read-only formats give URL lines.

Output (-o FILE) is written all or nothing; its name picks the format
(.parquet, .csv, .tsv, .jsonl where the subcommand writes it; another is
refused) and .gz/.zst compress it. Exit status: 0 success, 1 a bad record
under --strict, 2 a usage error or an input not read to its end, 130/143
stopped by SIGINT/SIGTERM.";

/// `urlsift --version`: the crate's, and the built-in Public Suffix List's.
fn version() -> &'static str {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    VERSION.get_or_init(|| {
        let list = urlsift::site::List::builtin().provenance();
        format!("{} (Public Suffix List: {list})", env!("CARGO_PKG_VERSION"))
    })
}

/// Parallel WHATWG URL processing for URL files: one URL per line, or a
/// field of CSV/TSV, JSON lines, CDXJ, WARC, access-log or Parquet records.
///
/// Input files may be gzip or zstd compressed (any number of members or
/// frames; many members or frames decode on several threads, and so does
/// one big gzip member of a file from -j3 on; one zstd frame decodes on
/// one: write many with `pzstd`, or `split -b 4M --filter='zstd -c' FILE >
/// FILE.zst`; `zstd -T0` still writes one);
/// `-` or no file reads standard input. Bad records (invalid UTF-8,
/// NUL bytes, over-long lines, unparsable URLs, an open CSV quote, invalid
/// JSON, ...) never stop a run: they are skipped and counted (summary on
/// stderr), written to --rejects, passed through with --keep-invalid, or
/// fatal with --strict (exit status 1). A file that cannot be read to its
/// end (cut short, damaged, followed by trailing garbage) gives standard
/// output everything decoded before the fault (an -o file is not written:
/// it is all or nothing), then the error names the byte offset in it
/// (exit status 2); after a damaged gzip member or zstd frame, decoding
/// goes on with the next one. What a member or frame that fails its
/// CRC-32 or checksum decoded to is never read as URLs: its lines are bad
/// `damaged-input` records (in --rejects). Exit status 2 also means a
/// usage error.
#[derive(Parser, Debug)]
#[command(name = "urlsift", version = version(), after_help = EXAMPLES, propagate_version = true)]
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
  urlsift normalize --surt --surt-scheme --surt-trailing-comma urls.txt
  urlsift normalize --surt=plain urls.txt
  urlsift normalize --canonical safe-browsing phishing-feed.txt
  urlsift normalize --canonical w3lib scrapy-requests.txt
  urlsift normalize --match 'https://*.example.com/docs/*' --not-match '*://*/*.pdf' urls.txt
  urlsift normalize --match '/api/:version/*' --match-base https://example.com urls.txt
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
  urlsift dedup --canonical w3lib scrapy-requests.txt
  urlsift dedup --key pattern --count --with-key urls.txt | sort -rn | head
  urlsift dedup --key pattern --pattern-scheme --pattern-ignore-trailing-slash urls.txt
  urlsift dedup --key pattern --pattern-exact-path --samples 3 endpoints.txt
  urlsift dedup --memory 64M --tmp-dir /var/tmp huge.txt.zst -o unique.txt
  urlsift dedup --key host crawl.csv
  urlsift dedup --match 'https://*.example.com/products/:id' urls.txt
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
  urlsift extract --fields href,pattern --pattern-ignore-trailing-slash urls.txt
  urlsift extract --fields href,canonical --canonical w3lib urls.txt
  urlsift extract --match-file scope.txt --fields href,match_line,match:id urls.txt

Fields: line, input, href, protocol, username, password, host, hostname,
port, pathname, search, hash, origin; site, public_suffix, subdomain,
domain, is_private (from the Public Suffix List: --psl FILE,
--icann-only); surt (the key web archives index by, as `normalize --surt`
writes it); ssurt (urlcanon's SSURT form, as `normalize --surt=ssurt`
writes it; with --canonical urlcanon-FORM, the SSURT of that form); canonical (the URL in the form --canonical FORM names, as
`normalize --canonical FORM` writes it; w3lib's of the input text, empty
where w3lib refuses it); sb_expressions (Safe Browsing's lookup expressions: a JSON
array with --jsonl, space-separated otherwise); pattern (the key of
`dedup --key pattern`: e.com/user/{n}?id&tab, as the --pattern-* flags
say); match_line (the --match-file line of the first URL pattern the URL
matches, empty for a --match flag's) and match:NAME (that pattern's group
NAME: match:id of https://e.com/products/:id, match:0 of a `*`); and
@NAME, a field of the input record: a CSV/TSV column (name or
number), a JSON key or dotted path, a WARC header, or a log field (remote,
ident, user, time, request, method, target, protocol, status, bytes,
referer, user_agent). An @NAME the input cannot have (not in a CSV header
or Parquet schema, not a log field) is refused before any work; one no
JSON, CDXJ or WARC record had is named in a warning at the end.")]
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
  urlsift stats --match-file scope.txt crawl.txt.gz
  urlsift stats CC-MAIN-00000.warc.gz")]
    Stats(StatsArgs),
    /// The links inside crawled pages: HTML in WARC response and resource
    /// records (HTTP chunked, gzip, deflate and br bodies decoded), or
    /// HTML files with --base; resolved against each page's URL and
    /// <base href>, one per line or with --fields.
    #[command(after_help = "Examples:
  urlsift links CC-MAIN-00000.warc.gz > outlinks.txt
  urlsift links --fields from,to,kind,rel --tsv crawl.warc.gz
  urlsift links --kinds a,link --jsonl --fields from,to,rel crawl.warc.zst
  urlsift links --base https://example.com/docs/ page.html
  urlsift links --kinds all --rejects bad-links.tsv crawl.warc.gz
  urlsift links --external --strip-fragment --fields from,to crawl.warc.gz
  urlsift links --same-site --not-ext jpg,png,css,js CC-MAIN-00000.warc.gz
  urlsift links --match 'https://*.gov/*' --not-match '*://*/*.pdf' crawl.warc.gz
  urlsift links sitemap.xml.gz
  urlsift links --fields from,to,tag CC-MAIN-00000.warc.wat.gz
  urlsift links --fields from,to,kind,rel -o links.parquet CC-MAIN-00000.warc.gz
  urlsift links --dedup href --external CC-MAIN-00000.warc.gz
  urlsift links --dedup site --per-page --fields from,to crawl.warc.gz
  urlsift links --dedup href --memory 4G --tmp-dir /var/tmp CC-MAIN-*.warc.gz

Inputs: WARC files (response and resource records), WAT files (metadata
records of application/json: Common Crawl's link lists), ARC files (the
format before WARC: each record a response), HTML files
(.html, .htm, .xhtml; their URL is --base), sitemaps and feeds (.xml,
.rss, .atom: <loc>, RSS <link>, <guid>, <enclosure url>, Atom <link
href>); plain, .gz or .zst.

Kinds (--kinds, default all but css): a (a, area href), img (img src),
script, link (link href, see rel), form (form action), iframe, media
(embed, video, audio, source, track src; video poster), meta-refresh,
srcset (img/source srcset candidates), css (url() in style attributes),
sitemap, feed, wat (links a WAT record lists).

The profile flags (--strip-fragment, --sort-query, --strip-params,
--surt), the edits (--set, --append-param), the site filters (--site,
--not-site, ...) and the other filters (--scheme, --ext, ...) apply to
each link (to); --same-site and --external compare its site with the
page's.

Fields: to (the link resolved and serialized), from (the page's URL), tag,
attribute, rel, kind, offset (the record's byte offset in its input).

Pages: a WARC record of type response (application/http) or resource whose
Content-Type is text/html or application/xhtml+xml (else its first bytes
look like HTML); the encoding from a byte-order mark, the HTTP charset, a
<meta> charset, else UTF-8 if the bytes are UTF-8, else windows-1252; link
queries are encoded in it. Bad records (bad-http-response, bad-chunked-body,
bad-content-coding, unknown-content-coding, page-too-large, bad-WARC-header,
bad-ARC-header, WARC-record-truncated, ARC-record-truncated, bad-wat-json,
bad-xml) and bad links (the URL parser's error, such as IPv6-unclosed or
host-invalid-code-point; javascript-url) are counted
and go to --rejects as FILE, -, OFFSET, REASON, VALUE. Records are read as
normalize reads them: a file cut short keeps the pages before the cut and
the files after it are read; after a damaged gzip member or zstd frame
decoding goes on at the next. Either is named on stderr with its byte
offset (exit status 2; -o is then not written, --rejects is).")]
    Links(LinksArgs),
    /// CDXJ index lines of WARC files, as pywb's cdxj-indexer writes them
    /// (`urlkey timestamp {json}`: url, mime, status, digest, length,
    /// offset, filename), sorted by bytes as archives sort them.
    #[command(after_help = "Examples:
  urlsift index crawl.warc.gz > crawl.cdxj
  urlsift index -o index.cdxj CC-MAIN-*.warc.gz
  urlsift index --memory 512M --tmp-dir /var/tmp day/*.warc.gz -o day.cdxj
  urlsift index crawl.warc.zst > crawl.cdxj
  urlsift index collection.wacz > collection.cdxj
  urlsift index --check collection.wacz

Records indexed: response, revisit, resource and metadata (not a resource
or metadata record of application/warc-fields). The key is the archives'
SURT key (as `normalize --surt`); `length` and `offset` are where the
record lies in the file as stored (its gzip member in a .warc.gz, its zstd
frames in a .warc.zst, without the dictionary frame a reader needs too:
no other indexer reads .warc.zst); a record
without WARC-Payload-Digest gets the SHA-1 of its payload. Lines past
--memory are sorted into runs on disk and merged. A file that cannot be
read to its end is named with the byte (exit status 2) after the lines of
the records before the fault; in a .warc.gz, a damaged member (or one
holding a bad record) is named and passed over, and indexing goes on at
the next member.

A WACZ is indexed as the WARC files under its archive/: `filename` is the
name there (relative to archive/, as the WACZ's own index gives it) and
`offset` is within that file. --check compares those lines with the
WACZ's indexes/ (CDXJ files, plain or gzip, or the ZipNum index.cdx.gz),
matched by filename and offset, field by field (a digest's sha1: prefix
ignored; fields only one side writes, such as recordDigest, ignored),
holds each line of a ZipNum index.idx to its block (a whole gzip member
starting with its key), and prints each difference; exit status 1 if
there are any.")]
    Index(IndexArgs),
    /// The records an index points at, fetched by offset and length from
    /// the WARC files it names and written as one WARC file, in index order.
    #[command(after_help = "Examples:
  urlsift get hits.cdxj -o hits.warc.gz
  urlsift index crawl.warc.gz | grep '^com,example)/' > some.cdxj; urlsift get some.cdxj -o some.warc
  urlsift get --inputs-prefix /data/commoncrawl/ cc-index-query.jsonl -o found.warc.zst
  urlsift get --rejects missed.tsv hits.cdxj -o hits.warc.gz
  urlsift get --train-dictionary hits.cdxj -o hits.warc.zst
  urlsift get --inputs-prefix /mnt/commoncrawl/ athena-result.csv -o sample.warc.gz
  urlsift get --inputs-prefix https://data.commoncrawl.org/ cc-index-query.jsonl -o found.warc.gz

Index lines: CDXJ (`urlkey timestamp {json}`: urlsift index's, pywb's,
cdxj-indexer's, Common Crawl's index shards), JSON lines (Common Crawl's
index API), or 11-field CDX (... length offset filename); or index tables,
.parquet (Common Crawl's columnar index) or .csv/.tsv with a header (what
its queries give), with the columns warc_filename, warc_record_offset,
warc_record_length and url (or filename, offset, length). Each line's
filename, offset and length say where its record lies: the file is
--inputs-prefix + filename, or, without it, filename relative to the
index file's folder (index files may be plain, .gz or .zst, and objects
too, e.g. urlsift get s3://my-bucket/crawl/hits.cdxj -o hits.warc.gz).
Files may be objects (--inputs-prefix s3://BUCKET/, gs://BUCKET/,
az://CONTAINER/, https://HOST/): the ranges of a batch are read at once, 32 requests in
flight, ranges of one object under 16 KiB apart in one request. With a WACZ as
--inputs-prefix, the files are the WARC files stored under its archive/
(its own index names them so: `urlsift index x.wacz`).

Output (by -o's name, or --output-format; on standard output .warc.gz,
or plain .warc on a terminal): .warc.gz (a .warc.gz record's gzip member
copied byte for byte, others compressed as a member each), .warc, or
.warc.zst (a frame per record; frames copied after their dictionary
frame when every record comes from .warc.zst files of one dictionary,
else recompressed: with the dictionary of --zstd-dictionary FILE or one
--train-dictionary trains on the records, written in the file's first
frame, or without one). A warcinfo record naming the index comes first
(--no-warcinfo leaves it out).

A line whose range does not hold one whole WARC record of its URL is a
reject, counted on stderr and written to --rejects as INDEX, LINE,
OFFSET, REASON, LINE TEXT: bad-index-line (no filename, offset and
length), missing-file (or an entry deflated inside its WACZ), short-read (the file ends first),
read-error (an I/O error, or an object's request that failed past its retries),
bad-gzip-member (not one whole member, or zstd frames, that decode),
not-a-warc-record, other-url (its WARC-Target-URI is not the line's url,
compared as the URL Standard parses them). The rest is written and the
run exits 2.")]
    Get(GetArgs),
    /// Benchmark URL parsers on your URLs and show where they disagree with urlsift.
    #[command(after_help = COMPARE_EXAMPLES)]
    Compare(CompareArgs),
    /// Print a shell completion script.
    #[command(after_help = "Example:\n  urlsift completions bash > /etc/bash_completion.d/urlsift")]
    Completions {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
    /// Print a man page (roff): urlsift(1), or a subcommand's page
    /// (urlsift-normalize(1), ...); or write every page into a directory.
    #[command(after_help = "Examples:
  urlsift man | man -l -
  urlsift man dedup | man -l -
  urlsift man --dir ~/.local/share/man/man1    # every page; then `man urlsift-dedup`")]
    Man {
        /// The subcommand whose page to print (`normalize`, `dedup`, ...).
        subcommand: Option<String>,
        /// Write urlsift.1 and a page per subcommand into DIR instead.
        #[arg(long, value_name = "DIR", conflicts_with = "subcommand")]
        dir: Option<PathBuf>,
    },
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
#[derive(Args, Debug)]
pub struct IndexArgs {
    /// WARC or ARC files (.warc, .warc.gz, .warc.zst, .arc, .arc.gz) or WACZ files (the
    /// WARC files inside), indexed on every core; s3://, gs://, az:// and http(s):// URLs of WARC or ARC
    /// objects too (`urlsift index s3://my-bucket/crawl.warc.gz`).
    #[arg(required_unless_present = "inputs_from", value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub list: crate::input_list::InputList,
    /// Compare each WACZ's own index (indexes/: CDXJ, or ZipNum index.cdx.gz) with the lines
    /// urlsift writes for its WARC files; print the differences (exit status 1 if any).
    #[arg(long, conflicts_with_all = ["memory", "tmp_dir"])]
    pub check: bool,
    /// Write the index to FILE (all or nothing) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Lines held in memory before a sorted run goes to disk (K, M, G).
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_size)]
    pub memory: u64,
    /// Where sorted runs go past --memory (default: the system's temp dir).
    #[arg(long, value_name = "DIR")]
    pub tmp_dir: Option<PathBuf>,
    /// Files indexed at once (default: one per core).
    #[arg(short = 'j', long = "threads", value_name = "N")]
    pub threads: Option<usize>,
    /// No summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct GetArgs {
    /// Index files: CDXJ, JSON lines or CDX lines with filename, offset and length; or
    /// .parquet/.csv/.tsv tables with warc_filename, warc_record_offset, warc_record_length.
    #[arg(required = true, value_name = "INDEX")]
    pub indexes: Vec<PathBuf>,
    /// Write the WARC to FILE (.warc.gz, .warc or .warc.zst; all or nothing) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The output's form when -o's name does not say it (stdout: warc.gz, warc on a terminal).
    #[arg(long, value_name = "FORM")]
    pub output_format: Option<WarcOut>,
    /// Prepended (as text, a / added if missing) to each index line's filename: a folder, a WACZ, or an object URL (e.g. https://data.commoncrawl.org/).
    #[arg(long, value_name = "PREFIX")]
    pub inputs_prefix: Option<String>,
    /// Read the index and the WARC files of s3://, gs:// and az:// buckets without credentials
    /// (public buckets that allow anonymous reads), e.g. --no-sign-request --inputs-prefix
    /// s3://a-public-bucket/crawl/.
    #[arg(long)]
    pub no_sign_request: bool,
    /// No warcinfo record at the start of the output.
    #[arg(long)]
    pub no_warcinfo: bool,
    /// .warc.zst output: compress every record with the zstd dictionary in FILE (plain or
    /// zstd-compressed, as `zstd --train` writes it), written first in its dictionary frame.
    #[arg(long, value_name = "FILE", conflicts_with = "train_dictionary")]
    pub zstd_dictionary: Option<PathBuf>,
    /// .warc.zst output: train a zstd dictionary on the records (as `zstd --train` does) and
    /// compress them with it (the records are read twice).
    #[arg(long)]
    pub train_dictionary: bool,
    /// Write rejected index lines to FILE: index, line, offset, reason, line text.
    #[arg(long, value_name = "FILE")]
    pub rejects: Option<PathBuf>,
    /// Records fetched at once (default: one per core).
    #[arg(short = 'j', long = "threads", value_name = "N")]
    pub threads: Option<usize>,
    /// No summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

/// The form `get` writes WARC in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum WarcOut {
    /// Plain WARC.
    #[value(name = "warc")]
    Warc,
    /// A gzip member per record.
    #[value(name = "warc.gz")]
    WarcGz,
    /// A zstd frame per record (the IIPC's .warc.zst).
    #[value(name = "warc.zst")]
    WarcZst,
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
    pub key: Key,
    #[command(flatten)]
    pub pattern: PatternArgs,
    /// Keep up to N records of each key (each where it is in the input)
    /// instead of the first one only.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub samples: u32,
    /// Prefix each kept line with its number of occurrences, like `uniq -c`
    /// (with --samples, each sample with its key's number).
    #[arg(short, long)]
    pub count: bool,
    /// Write each kept record after its key and a tab (KEY<TAB>RECORD;
    /// with --count, after the count too): see the pattern a record
    /// stands for. E.g. urlsift dedup --key pattern --count --with-key
    /// urls.txt
    #[arg(long)]
    pub with_key: bool,
    /// Memory budget for the seen-set; beyond it, spill to --tmp-dir (K, M, G).
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_size)]
    pub memory: u64,
    /// Directory for spill files (default: the system temp dir).
    #[arg(long, value_name = "DIR")]
    pub tmp_dir: Option<PathBuf>,
}

/// How URLs are reduced to patterns (`dedup --key pattern`, `extract
/// --fields pattern`).
#[derive(Args, Debug)]
pub struct PatternArgs {
    /// With --key pattern (the pattern field): the scheme is part of the
    /// pattern (http: and https: URLs apart).
    #[arg(long)]
    pub pattern_scheme: bool,
    /// With --key pattern (the pattern field): /docs/ and /docs are one
    /// pattern.
    #[arg(long)]
    pub pattern_ignore_trailing_slash: bool,
    /// With --key pattern (the pattern field): parameter names only: the
    /// path as written (no {n}, {hex}, {uuid}), the query reduced to its
    /// names.
    #[arg(long)]
    pub pattern_exact_path: bool,
}

impl PatternArgs {
    /// The options the flags give.
    pub fn options(&self) -> PatternKeyOptions {
        PatternKeyOptions {
            scheme: self.pattern_scheme,
            ignore_trailing_slash: self.pattern_ignore_trailing_slash,
            exact_path: self.pattern_exact_path,
        }
    }
}

impl DedupArgs {
    /// The key, `pattern` read as the --pattern-* flags say; an error for
    /// a --pattern-* flag with another key.
    pub fn key(&self) -> Result<Key, String> {
        let options = self.pattern.options();
        match self.key {
            Key::Pattern(_) => Ok(Key::Pattern(options)),
            _ if options != PatternKeyOptions::default() => {
                Err("the --pattern-* flags go with --key pattern".into())
            }
            key => Ok(key),
        }
    }
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
    #[command(flatten)]
    pub canonical: CanonicalArgs,
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
    /// The output's format: csv (the default), tsv, jsonl, or parquet
    /// (typed, nullable columns; also chosen by -o NAME.parquet).
    #[arg(long, value_enum, value_name = "FORMAT", conflicts_with_all = ["tsv", "jsonl", "format", "append"])]
    pub output_format: Option<ExtractFormat>,
    #[command(flatten)]
    pub pattern: PatternArgs,
}

/// `extract --output-format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExtractFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// Tab-separated values with a header row.
    Tsv,
    /// One JSON object per line.
    Jsonl,
    /// A Parquet file: `line` UInt64, `port` UInt16, a Parquet input's
    /// @NAME columns in their own type, the rest strings; null where
    /// --jsonl gives null (and for a URL without a port).
    Parquet,
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

pub const COMPARE_EXAMPLES: &str = "\
Examples:
  urlsift compare urls.txt
  urlsift compare --parsers urlsift,ada,rust-url,node --rounds 15 crawl.txt.gz
  urlsift compare --parsers all --json urls.txt | jq '.parsers[] | {name, ns_per_url}'
  urlsift compare --rounds 0 --diff-out diffs.jsonl --samples 10 urls.txt
  urlsift compare --html report.html -j 2 urls.txt
  urlsift compare --base https://example.com/ request-paths.txt
  npm install whatwg-url && urlsift compare --parsers whatwg-url --rounds 0 urls.txt
  urlsift compare --parsers python,java,curl --rounds 0 corpora/confusion.txt

Parsers: urlsift (Url::parse: the fast path, then the state machine),
urlsift-machine (the state machine alone), urlsift-batch (BatchParser: a
reused buffer), ada (the ada-url crate), rust-url (the url crate), node
(`new URL` in Node.js, when `node` is on PATH; always one thread),
whatwg-url (the URL Standard's reference implementation, the npm package
of that name run in Node.js, found as Node.js finds packages: in a
node_modules directory in or above the working directory, or on
NODE_PATH; always one thread). Parsers of other families, compared by
what they mean (host and port first, then scheme and userinfo, then path,
query and fragment), with a host confusion report: python (CPython's
urllib.parse.urlsplit, when `python3` is on PATH), java (java.net.URI,
when `java` is), curl (libcurl's URL API, the system's libcurl loaded at
run time); one thread each, no --base. ada and rust-url need the Cargo
feature `compare-peers` (on by default). `all` is every parser this build
has and this machine can run; the report names the ones it cannot. Lines
starting with `# ` (a hash, then a space) are comments; `#top` is a URL.

Each round parses every URL once per parser (parse, then read the href's
length: the work of scripts/bench/ratios) and checks that the parser
accepted the same URLs, with the same total href bytes, as in its
differential pass; a parser that did less work is flagged. Categories of
disagreements: validity, protocol, username, password, host, port,
pathname, search, hash, origin, href (only the href differs); for the
parsers of other families: validity, host (with its class: scheme
slashes, backslash, delimiter before @, percent-encoded delimiter, control
or space, userinfo, IDNA, IPv4 form, port, other), scheme, userinfo,
path, query, fragment.";

/// Benchmark and diff URL parsers on your own URLs.
#[derive(Args, Debug)]
#[command(mut_arg("threads", |a| a.help(
    "Threads per parser in the timed rounds (default 1; 0: one per core); \
     the node, whatwg-url, python and java parsers always use one"
)))]
pub struct CompareArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Comma-separated parsers to compare with urlsift (always included):
    /// urlsift-machine, urlsift-batch, ada, rust-url, node, whatwg-url,
    /// python, java, curl, or all.
    #[arg(long, value_name = "LIST", default_value = urlsift_compare::engines::DEFAULT_PARSERS)]
    pub parsers: String,
    /// Timed rounds per parser (0: no timing, only the differential).
    #[arg(long, value_name = "N", default_value_t = 7)]
    pub rounds: usize,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Write every disagreement to FILE as JSON lines (written atomically).
    #[arg(long, value_name = "FILE")]
    pub diff_out: Option<PathBuf>,
    /// Also write the report as a self-contained HTML page to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Sample lines shown per kind of disagreement.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub samples: usize,
}

/// `urlsift links`' fields (the links crate's, with clap's `ValueEnum`).
pub use urlsift_links::rows::LinkField;

/// `urlsift links`' output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinksFormat {
    Tsv,
    Csv,
    Jsonl,
    Parquet,
}

#[derive(Args, Debug)]
pub struct LinksArgs {
    /// WARC, WAT or ARC files (.warc, .warc.gz, .warc.zst, .arc, .arc.gz; `-`
    /// for standard input), HTML files (.html, .htm, .xhtml), sitemaps and
    /// feeds (.xml, .rss, .atom); s3://, gs://, az:// and http(s):// URLs of such objects
    /// too (`urlsift links https://example.org/crawl.warc.gz`).
    #[arg(required_unless_present = "inputs_from", value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub list: crate::input_list::InputList,
    /// The URL of the HTML files named (a WARC record's URL is its
    /// WARC-Target-URI).
    #[arg(long, value_name = "URL")]
    pub base: Option<String>,
    /// Comma-separated kinds of links, or `all` (default: all but css).
    #[arg(long, value_name = "LIST")]
    pub kinds: Option<String>,
    /// Comma-separated fields of each link (default: from,to in CSV, TSV,
    /// JSON lines and Parquet; to alone, the target URLs, in plain text
    /// output).
    #[arg(long, value_name = "LIST", value_enum, value_delimiter = ',')]
    pub fields: Option<Vec<LinkField>>,
    /// Comma-separated values (with a header line unless --no-header).
    #[arg(long, conflicts_with_all = ["tsv", "jsonl"])]
    pub csv: bool,
    /// Tab-separated values, the default (a header line with --header; tab,
    /// CR, LF and backslash in a value escaped as \t, \r, \n, \\).
    #[arg(long, conflicts_with = "jsonl")]
    pub tsv: bool,
    /// One JSON object per line.
    #[arg(long, conflicts_with = "parquet")]
    pub jsonl: bool,
    /// Parquet (also chosen by -o NAME.parquet): a column per field,
    /// strings (rel nullable) and offset an unsigned 64-bit integer.
    #[arg(long, conflicts_with_all = ["csv", "tsv"])]
    pub parquet: bool,
    /// Parquet output's page compression: zstd (the default), zstd:LEVEL,
    /// snappy, gzip, lz4, brotli or none.
    #[arg(long, value_name = "CODEC")]
    pub compression: Option<String>,
    /// A header line (CSV: on unless --no-header; TSV: off unless --header).
    #[arg(long = "header", conflicts_with = "no_header")]
    pub header_line: bool,
    /// No header line with --csv.
    #[arg(long)]
    pub no_header: bool,
    /// Keep javascript: links (counted as bad links otherwise).
    #[arg(long)]
    pub javascript: bool,
    /// The largest page body read (decoded); a larger record is a bad
    /// record, page-too-large.
    #[arg(long, value_name = "SIZE", default_value = "32M", value_parser = parse_size)]
    pub max_page_size: u64,
    /// Write to FILE instead of standard output (replaced when done).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write bad records and bad links to FILE: input, line (-), byte offset,
    /// reason, value.
    #[arg(long, value_name = "FILE")]
    pub rejects: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(short = 'j', long = "threads", value_name = "N")]
    pub threads: Option<usize>,
    /// No summary on standard error.
    #[arg(short, long)]
    pub quiet: bool,
    /// Write each link once: the first of each key (href, no-fragment,
    /// origin, host, pattern, site; as in dedup --key), over the whole run.
    #[arg(long, value_enum, value_name = "KEY")]
    pub dedup: Option<Key>,
    /// With --dedup: once per page instead of once per run.
    #[arg(long, requires = "dedup")]
    pub per_page: bool,
    /// With --dedup: memory for the keys seen; beyond it, the keys and the
    /// links still to decide spill to --tmp-dir (K, M, G).
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_size)]
    pub memory: u64,
    /// With --dedup: directory for spill files (default: the system temp
    /// dir).
    #[arg(long, value_name = "DIR")]
    pub tmp_dir: Option<PathBuf>,
    /// Only links to the page's own site (registrable domain).
    #[arg(long, conflicts_with = "external")]
    pub same_site: bool,
    /// Only links to another site than the page's.
    #[arg(long)]
    pub external: bool,
    #[command(flatten)]
    pub sites: SiteArgs,
    #[command(flatten)]
    pub filters: FilterArgs,
    #[command(flatten)]
    pub edits: EditArgs,
    #[command(flatten)]
    pub profile: ProfileArgs,
}

impl LinksArgs {
    /// The output format the flags choose; without a format flag, the one
    /// the `-o` name names (`naming`), else TSV.
    pub fn format(&self) -> LinksFormat {
        use crate::naming::{Named, OutputName};
        if self.parquet {
            LinksFormat::Parquet
        } else if self.csv {
            LinksFormat::Csv
        } else if self.jsonl {
            LinksFormat::Jsonl
        } else if self.tsv {
            LinksFormat::Tsv
        } else {
            match OutputName::of(self.output.as_deref()).format {
                Some(Named::Parquet) => LinksFormat::Parquet,
                Some(Named::Csv) => LinksFormat::Csv,
                Some(Named::Jsonl | Named::Json) => LinksFormat::Jsonl,
                _ => LinksFormat::Tsv,
            }
        }
    }

    /// The fields of each link: as given, or `from,to` where the output
    /// is structured (a format flag, or an `-o` name that names one), the
    /// target alone in plain text.
    pub fn fields(&self) -> Vec<LinkField> {
        use crate::naming::OutputName;
        if let Some(fields) = &self.fields {
            return fields.clone();
        }
        let named = OutputName::of(self.output.as_deref()).format.is_some();
        if self.parquet || self.csv || self.jsonl || self.tsv || named {
            vec![LinkField::From, LinkField::To]
        } else {
            vec![LinkField::To]
        }
    }

    /// Whether a header line goes first.
    pub fn header(&self) -> bool {
        match self.format() {
            LinksFormat::Csv => !self.no_header,
            LinksFormat::Tsv => self.header_line,
            LinksFormat::Jsonl | LinksFormat::Parquet => false,
        }
    }
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

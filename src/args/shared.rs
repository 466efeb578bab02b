//! The flags every subcommand shares (input, output, the bad-record
//! policy, profiles, sites, filters and edits) and their validation into
//! the library's settings. Everything a user can get wrong is caught here,
//! before any input is read, and reported with exit status 2.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use urlsift::Url;
use urlsift::canon::urlcanon::Canonicalizer as Urlcanon;
use urlsift::canon::{courlan, w3lib};
use urlsift::profile::{Canonical, Profile, SurtForm};
use urlsift::site::List;
use urlsift::surt::SurtOptions;
use urlsift_records::format::Choice;
use urlsift_records::stage::{Edits, Filters, Stage};
use urlsift_records::{Options, Policy, Spec};

use crate::error::CliError;

/// Flags shared by every processing subcommand.
#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// Input files (gzip and zstd detected by magic bytes; a .warc.zst
    /// file's dictionary frame is read and used, e.g. `urlsift extract
    /// --fields href crawl.warc.zst`); `-` or none reads stdin; an
    /// s3://BUCKET/KEY, gs://BUCKET/KEY, az://CONTAINER/KEY or http(s):// URL reads that
    /// object, e.g. `urlsift normalize s3://my-bucket/crawl.warc.gz`;
    /// s3://BUCKET/DIR/ (or gs://, az://) every object
    /// under DIR in key order, and * or ? in the last segment matching names, e.g.
    /// 's3://my-bucket/cdx/cdx-000??.gz'.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub list: crate::input_list::InputList,
    /// The input's format: `auto` picks by file extension after .gz/.zst
    /// (.csv, .tsv, .jsonl/.ndjson, .cdxj, .warc/.wat/.wet, .parquet; .log
    /// by its first lines: `log` if that is an access-log line; a file that
    /// starts with a WARC header is WARC), else `lines`.
    #[arg(long, value_name = "FORMAT", value_enum, default_value = "auto")]
    pub input_format: Choice,
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
    /// The CSV/TSV field delimiter, one ASCII character (e.g. --delimiter ';'
    /// for a semicolon export, '|', or '\t'); default `,` for CSV, a tab
    /// for TSV. Rows written back keep it.
    #[arg(long, value_name = "CHAR", value_parser = parse_delimiter)]
    pub delimiter: Option<u8>,
    /// Resolve each line against this base URL (for request paths in logs).
    #[arg(long, value_name = "URL")]
    pub base: Option<String>,
    /// Lines longer than this are bad lines (suffixes K, M, G).
    #[arg(long, value_name = "SIZE", default_value = "16M", value_parser = parse_size)]
    pub max_line_bytes: u64,
    /// Threads that read and parse (default: one per core); results are
    /// written in input order by one more (with -j1, by the same thread:
    /// -j1 is one thread). Several inputs are read side by side, up to
    /// one per thread, output still in input order. Also the most threads
    /// that decode a gzip file's members or a Parquet file's row groups,
    /// or look up dedup's seen-set. Example: urlsift normalize -j8
    /// crawl-*.warc.gz
    #[arg(short = 'j', long = "threads", value_name = "N")]
    pub threads: Option<usize>,
    /// No progress bar and no summary on stderr (errors are still printed).
    #[arg(short, long)]
    pub quiet: bool,
    /// Always print the summary on stderr, even when no line was bad.
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,
    /// After the run, print on stderr how long each stage was busy
    /// (reading, decoding, the workers, the in-order stage) and the serial
    /// share; over s3://, gs://, az:// or http(s):// inputs, the requests sent, the bytes
    /// received, how long the readers waited for them and how many times a download broke
    /// off past the object store's own retries and was taken up again;
    /// `stats --json` adds the stages as "timings".
    /// E.g. urlsift dedup --timings -q urls.txt > /dev/null
    #[arg(long)]
    pub timings: bool,
    /// Bytes per parallel chunk (tuning and tests).
    #[arg(long, value_name = "SIZE", default_value = "4M", value_parser = parse_size, hide = true)]
    pub chunk_size: u64,
    #[command(flatten)]
    pub sites: SiteArgs,
}

impl InputArgs {
    /// The format flags, for the reader.
    pub fn format_spec(&self) -> Spec {
        Spec {
            kind: self.input_format.0,
            field: self.field.clone(),
            no_header: self.no_header,
            delimiter: self.delimiter,
            named: Vec::new(),
        }
    }

    /// The engine's options.
    pub fn options(&self) -> Options {
        Options {
            spec: self.format_spec(),
            max_record: self.max_line(),
            chunk_size: usize::try_from(self.chunk_size).unwrap_or(usize::MAX),
            threads: self.threads,
        }
    }

    /// `--max-line-bytes` as a length.
    pub fn max_line(&self) -> usize {
        usize::try_from(self.max_line_bytes).unwrap_or(usize::MAX)
    }

    /// `--base`, parsed, or why it is unusable.
    pub fn base(&self) -> Result<Option<Url>, CliError> {
        match &self.base {
            None => Ok(None),
            Some(b) => Url::parse(b)
                .map(Some)
                .map_err(|e| CliError::Usage(format!("--base {b:?}: {e}"))),
        }
    }

    /// The edits and filters of these flags' sites, `filters` and `edits`.
    pub fn stage(
        &self,
        filters: Option<&FilterArgs>,
        edits: Option<&EditArgs>,
    ) -> Result<Stage, CliError> {
        let filters = filters.map(FilterArgs::filters).unwrap_or_default();
        let edits = edits.map(EditArgs::edits).unwrap_or_default();
        Stage::new(self.sites.list()?, &filters, &edits).map_err(CliError::stage)
    }
}

/// Where results go.
#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// Write to FILE instead of stdout, all or nothing: a temp file renamed
    /// into place once the run succeeds (nothing left after an error, an
    /// unreadable input or Ctrl-C). The name picks the format: .parquet,
    /// .csv, .tsv, .jsonl where the subcommand writes it (another is
    /// refused), and .gz/.zst compress (e.g. -o unique.txt.zst). A FILE
    /// that is not a regular file (/dev/null, a FIFO) is written in place.
    /// s3://BUCKET/KEY (or gs://, az://) writes an object, all or nothing too (a multipart
    /// upload begun before the run, completed when it succeeds), e.g. -o
    /// s3://my-bucket/urls.txt.zst.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// End output records with NUL instead of newline.
    #[arg(short = '0', long = "null")]
    pub null: bool,
    /// Parquet output's page compression: zstd (the default), zstd:LEVEL,
    /// snappy, gzip, lz4, brotli or none (e.g. --compression snappy).
    #[arg(long, value_name = "CODEC")]
    pub compression: Option<String>,
}

impl OutputArgs {
    /// Refuses `--compression` for a run whose output is not Parquet.
    pub fn no_compression(&self, why: &str) -> Result<(), CliError> {
        match &self.compression {
            Some(_) => Err(CliError::Usage(format!(
                "--compression is for Parquet output; {why}"
            ))),
            None => Ok(()),
        }
    }
}

/// What to do with bad lines.
#[derive(Args, Debug, Clone)]
pub struct PolicyArgs {
    /// Write each bad line to FILE as: source, line number, reason, raw line (tab-separated);
    /// all or nothing as -o, an s3://, gs:// or az:// object too, e.g. --rejects
    /// s3://my-bucket/rejects.tsv.
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

impl PolicyArgs {
    /// The policy these flags set.
    pub fn policy(&self) -> Policy {
        Policy {
            keep_invalid: self.keep_invalid,
            strict: self.strict,
            record_rejects: self.rejects.is_some(),
        }
    }
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
    /// Print the SURT key web archives index by (`com,example)/path?query`),
    /// byte for byte the `surt` package's, pywb's and Common Crawl's: their
    /// canonicalization included (path and query lowercased and decoded,
    /// the query sorted, `www.`, session ids and a trailing `/` dropped).
    /// `--surt=plain`: the key without it (host reversed, path and query as
    /// the URL Standard writes them). `--surt=ssurt`: the IIPC urlcanon's
    /// SSURT form, as warcprox and brozzler key by it
    /// (org,example,foo,//81:http@user:/path?query#frag), e.g. urlsift
    /// normalize --surt=ssurt urls.txt; with --canonical urlcanon-FORM, the
    /// SSURT of urlcanon's form of the text (urlcanon.FORM(url).ssurt()),
    /// e.g. urlsift dedup --canonical urlcanon-semantic --surt=ssurt urls.txt
    #[arg(
        long,
        value_name = "FORM",
        value_enum,
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "archive"
    )]
    pub surt: Option<SurtArg>,
    #[command(flatten)]
    pub canonical: CanonicalArgs,
    /// With --surt: the scheme in front, `https://(com,example)/`.
    #[arg(long, requires = "surt")]
    pub surt_scheme: bool,
    /// With --surt: a comma closing the host, `com,example,)/`.
    #[arg(long, requires = "surt")]
    pub surt_trailing_comma: bool,
    /// With --surt: IPv4 addresses in their order, `10.0.0.1)/`.
    #[arg(long, requires = "surt")]
    pub surt_keep_ip_order: bool,
    /// With --surt: a leading `www.` kept, `com,example,www)/`.
    #[arg(long, requires = "surt")]
    pub surt_keep_www: bool,
    /// With --surt: the query's parameters in their order.
    #[arg(long, requires = "surt")]
    pub surt_keep_query_order: bool,
}

/// `--canonical FORM` and the options of its forms.
#[derive(Args, Debug, Clone, Default)]
pub struct CanonicalArgs {
    /// A canonical form other than the href (normalize and dedup write each
    /// URL in it; extract gives it as the `canonical` field):
    /// `safe-browsing`, Google Safe Browsing's (userinfo, port and fragment
    /// dropped, every part percent-decoded until it stays the same, dots
    /// and slashes collapsed, escaped once), e.g. --canonical safe-browsing;
    /// `w3lib`, Scrapy's request fingerprint, byte for byte w3lib 2.5.0's
    /// canonicalize_url (query pairs sorted and re-encoded, `+` a space,
    /// the fragment dropped; each line's text read as w3lib reads it, so a
    /// line the URL Standard rejects still has one), e.g. urlsift normalize
    /// --canonical w3lib requests.txt; `urlcanon-whatwg`, `urlcanon-google`,
    /// `urlcanon-semantic-precise`, `urlcanon-semantic`,
    /// `urlcanon-aggressive`, the IIPC urlcanon's
    /// (warcprox, brozzler dedup), byte for byte, also read from the raw
    /// text; `courlan`, `courlan-strict`, courlan 1.4.0's normalize_url
    /// (trafilatura's crawler: trackers and blank values dropped, names
    /// sorted, punycode decoded), e.g. urlsift dedup --canonical courlan
    /// links.txt. See docs/canonical.md.
    #[arg(long, value_name = "FORM", value_enum)]
    pub canonical: Option<CanonicalArg>,
    /// With --canonical w3lib: keep the fragment (w3lib's keep_fragments).
    #[arg(long)]
    pub w3lib_keep_fragments: bool,
    /// With --canonical w3lib: drop query pairs with an empty value or no
    /// `=` (w3lib's keep_blank_values=False).
    #[arg(long)]
    pub w3lib_drop_blank_values: bool,
}

impl CanonicalArgs {
    /// The form these flags choose, validated.
    pub fn form(&self) -> Result<Option<Canonical>, CliError> {
        let w3lib_options = self.w3lib_keep_fragments || self.w3lib_drop_blank_values;
        if w3lib_options && self.canonical != Some(CanonicalArg::W3lib) {
            return Err(CliError::Usage(
                "--w3lib-keep-fragments and --w3lib-drop-blank-values are options of --canonical w3lib".into(),
            ));
        }
        Ok(self.canonical.map(|c| match c {
            CanonicalArg::SafeBrowsing => Canonical::SafeBrowsing,
            CanonicalArg::W3lib => Canonical::W3lib(w3lib::Options {
                keep_blank_values: !self.w3lib_drop_blank_values,
                keep_fragments: self.w3lib_keep_fragments,
            }),
            CanonicalArg::UrlcanonWhatwg => Canonical::Urlcanon(Urlcanon::Whatwg),
            CanonicalArg::UrlcanonGoogle => Canonical::Urlcanon(Urlcanon::Google),
            CanonicalArg::UrlcanonSemanticPrecise => Canonical::Urlcanon(Urlcanon::SemanticPrecise),
            CanonicalArg::UrlcanonSemantic => Canonical::Urlcanon(Urlcanon::Semantic),
            CanonicalArg::UrlcanonAggressive => Canonical::Urlcanon(Urlcanon::Aggressive),
            CanonicalArg::Courlan => Canonical::Courlan(courlan::CourlanOptions { strict: false }),
            CanonicalArg::CourlanStrict => {
                Canonical::Courlan(courlan::CourlanOptions { strict: true })
            }
        }))
    }
}

/// `--canonical`'s values.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum CanonicalArg {
    /// Google Safe Browsing's canonical form ("URLs and Hashing").
    SafeBrowsing,
    /// w3lib 2.5.0's canonicalize_url (Scrapy's request fingerprint).
    W3lib,
    /// urlcanon 0.3.1's whatwg (its own parser, the URL Standard's
    /// serialization).
    UrlcanonWhatwg,
    /// urlcanon 0.3.1's google (Safe Browsing's rules, the port kept).
    UrlcanonGoogle,
    /// urlcanon 0.3.1's semantic_precise (warcprox, brozzler).
    UrlcanonSemanticPrecise,
    /// urlcanon 0.3.1's semantic: semantic_precise less the fragment.
    UrlcanonSemantic,
    /// urlcanon 0.3.1's aggressive: https as http, www and session ids
    /// dropped, path and query lower-cased.
    UrlcanonAggressive,
    /// courlan 1.4.0's normalize_url (trafilatura): punycode decoded,
    /// default ports, blank values and tracker parameters dropped, query
    /// names sorted.
    Courlan,
    /// courlan's normalize_url(strict=True): only id, page and language
    /// parameters kept, the fragment dropped.
    CourlanStrict,
}

/// `--surt`'s values.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum SurtArg {
    /// The archives' key (the default of a bare --surt).
    Archive,
    /// Host reversed, path and query as the URL Standard serializes them.
    Plain,
    /// urlcanon's SSURT form (warcprox, brozzler): org,example,www,//443:https:/path?q#f.
    Ssurt,
}

impl ProfileArgs {
    /// The profile these flags choose, validated.
    pub fn profile(&self) -> Result<Profile, CliError> {
        let options = SurtOptions {
            scheme: self.surt_scheme,
            trailing_comma: self.surt_trailing_comma,
            keep_ip_order: self.surt_keep_ip_order,
            keep_www: self.surt_keep_www,
            keep_query_order: self.surt_keep_query_order,
        };
        let form = match self.surt {
            None => None,
            Some(SurtArg::Archive) => Some(SurtForm::Archive(options)),
            Some(SurtArg::Plain) if options == SurtOptions::default() => Some(SurtForm::Plain),
            Some(SurtArg::Ssurt) if options == SurtOptions::default() => Some(SurtForm::Ssurt),
            Some(form @ (SurtArg::Plain | SurtArg::Ssurt)) => {
                let name = if form == SurtArg::Plain {
                    "plain"
                } else {
                    "ssurt"
                };
                return Err(CliError::Usage(format!(
                    "the --surt-* options shape the archives' key; --surt={name} has none"
                )));
            }
        };
        let canonical = self.canonical.form()?;
        let urlcanon_ssurt =
            matches!(canonical, Some(Canonical::Urlcanon(_))) && self.surt == Some(SurtArg::Ssurt);
        if canonical.is_some() && self.surt.is_some() && !urlcanon_ssurt {
            return Err(CliError::Usage(
                "--canonical and --surt each give a form: use one (but --surt=ssurt with a urlcanon-* form, urlcanon's SSURT of it)".into(),
            ));
        }
        let w3lib_steps = self.strip_fragment || self.sort_query || self.strip_params.is_some();
        if canonical.is_some_and(Canonical::reads_text) && w3lib_steps {
            return Err(CliError::Usage(
                "--canonical w3lib, urlcanon-* and courlan are their tool's forms as they are: they take none of --strip-fragment, --sort-query, --strip-params (the tools sort the query themselves; --w3lib-keep-fragments and --w3lib-drop-blank-values are w3lib's options)".into(),
            ));
        }
        let mut p = Profile::new()
            .strip_fragment(self.strip_fragment)
            .sort_query(self.sort_query)
            .surt_form(form)
            .canonical(canonical);
        if let Some(globs) = &self.strip_params {
            p = p.strip_params(globs.split(',').map(str::trim)).map_err(|_| {
                CliError::Usage(format!(
                    "--strip-params {globs:?}: empty glob (use a comma-separated list such as 'utm_*,fbclid')"
                ))
            })?;
        }
        Ok(p)
    }
}

/// Which Public Suffix List the site fields and filters use.
#[derive(Args, Debug, Clone, Default)]
pub struct SiteArgs {
    /// A public_suffix_list.dat to use instead of the built-in list (e.g.
    /// /usr/share/publicsuffix/public_suffix_list.dat).
    #[arg(long, value_name = "FILE")]
    pub psl: Option<PathBuf>,
    /// Leave the list's PRIVATE section out (a.github.io then has the site
    /// github.io).
    #[arg(long)]
    pub icann_only: bool,
}

impl SiteArgs {
    /// The list these flags name.
    pub fn list(&self) -> Result<List, CliError> {
        let list = match &self.psl {
            None => List::builtin(),
            Some(path) => List::from_file(path)
                .map_err(|e| CliError::Usage(format!("--psl {}: {e}", path.display())))?,
        };
        Ok(if self.icann_only {
            list.icann_only()
        } else {
            list
        })
    }
}

/// Filters: which records are kept.
#[derive(Args, Debug, Clone, Default)]
pub struct FilterArgs {
    /// Keep only URLs whose site (registrable domain, from the Public Suffix
    /// List) is one of these (comma-separated; repeatable).
    #[arg(long, value_name = "SITES")]
    pub site: Vec<String>,
    /// Keep only URLs whose host is one of these or ends with "." and one
    /// of them (comma-separated; repeatable).
    #[arg(long, value_name = "SUFFIXES")]
    pub host_suffix: Vec<String>,
    /// Keep only URLs whose site or host suffix is a line of FILE (one site
    /// or host suffix per line; `#` comments; millions are fine).
    #[arg(long, value_name = "FILE")]
    pub site_file: Option<PathBuf>,
    /// Drop URLs whose site is one of these.
    #[arg(long, value_name = "SITES")]
    pub not_site: Vec<String>,
    /// Drop URLs whose host is one of these or ends with "." and one of them.
    #[arg(long, value_name = "SUFFIXES")]
    pub not_host_suffix: Vec<String>,
    /// Drop URLs whose site or host suffix is a line of FILE.
    #[arg(long, value_name = "FILE")]
    pub not_site_file: Option<PathBuf>,
    /// Keep only these schemes (e.g. http,https).
    #[arg(long, value_name = "SCHEMES")]
    pub scheme: Vec<String>,
    /// Keep only paths whose last segment has one of these extensions
    /// (case-insensitive; e.g. pdf,doc).
    #[arg(long, value_name = "EXTS")]
    pub ext: Vec<String>,
    /// Drop paths whose last segment has one of these extensions.
    #[arg(long, value_name = "EXTS")]
    pub not_ext: Vec<String>,
    /// Keep only URLs with a query parameter whose name matches one of these
    /// globs (`*`, `?`; ASCII case-insensitive).
    #[arg(long, value_name = "GLOBS")]
    pub has_param: Vec<String>,
    /// Drop URLs with a query parameter whose name matches one of these globs.
    #[arg(long, value_name = "GLOBS")]
    pub lacks_param: Vec<String>,
    /// Keep only URLs that match a URL pattern (the URL Pattern standard:
    /// `https://*.example.com/products/:id`; repeatable, never
    /// comma-split; a URL is kept if it matches any --match or
    /// --match-file pattern).
    #[arg(long = "match", value_name = "PATTERN")]
    pub matches: Vec<String>,
    /// Keep only URLs that match a pattern of FILE (one per line; blank
    /// lines and `#` comments skipped; the first that matches is the one
    /// `extract --fields match_line,match:NAME` tells).
    #[arg(long, value_name = "FILE")]
    pub match_file: Option<PathBuf>,
    /// Drop URLs that match a URL pattern (repeatable).
    #[arg(long = "not-match", value_name = "PATTERN")]
    pub not_matches: Vec<String>,
    /// Drop URLs that match a pattern of FILE.
    #[arg(long, value_name = "FILE")]
    pub not_match_file: Option<PathBuf>,
    /// The base URL of relative patterns (`--match '/docs/*' --match-base
    /// https://example.com`).
    #[arg(long, value_name = "URL")]
    pub match_base: Option<String>,
    /// Match the patterns' pathname, search and hash without regard to
    /// case (URL Pattern's ignoreCase).
    #[arg(long)]
    pub match_ignore_case: bool,
}

/// Edits, applied before keys, filters and output.
#[derive(Args, Debug, Clone, Default)]
pub struct EditArgs {
    /// Set a component through the URL API's setter: protocol, username,
    /// password, host, hostname, port, pathname, search or hash (repeatable;
    /// e.g. --set protocol=https --set port=).
    #[arg(long = "set", value_name = "COMPONENT=VALUE")]
    pub set: Vec<String>,
    /// Append a query parameter (repeatable; e.g. --append-param ref=feed).
    #[arg(long, value_name = "K=V")]
    pub append_param: Vec<String>,
}

/// Parses `--delimiter`: one ASCII character (`\t` or `tab` for a tab),
/// not a quote, a line end or a letter or digit.
pub fn parse_delimiter(s: &str) -> Result<u8, String> {
    let b = match s {
        "\\t" | "tab" | "TAB" => b'\t',
        _ => match s.as_bytes() {
            [b] => *b,
            _ => {
                return Err(format!(
                    "{s:?}: give one character (examples: ';', '|', '\\t')"
                ));
            }
        },
    };
    if b == b'"' || b == b'\r' || b == b'\n' || b.is_ascii_alphanumeric() || !b.is_ascii() {
        return Err(format!(
            "{s:?} cannot delimit fields: give an ASCII punctuation character, a space or '\\t'"
        ));
    }
    Ok(b)
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

impl FilterArgs {
    /// The library's filters of these flags.
    pub fn filters(&self) -> Filters {
        Filters {
            site: self.site.clone(),
            host_suffix: self.host_suffix.clone(),
            site_file: self.site_file.clone(),
            not_site: self.not_site.clone(),
            not_host_suffix: self.not_host_suffix.clone(),
            not_site_file: self.not_site_file.clone(),
            scheme: self.scheme.clone(),
            ext: self.ext.clone(),
            not_ext: self.not_ext.clone(),
            has_param: self.has_param.clone(),
            lacks_param: self.lacks_param.clone(),
            matches: self.matches.clone(),
            match_file: self.match_file.clone(),
            not_matches: self.not_matches.clone(),
            not_match_file: self.not_match_file.clone(),
            match_base: self.match_base.clone(),
            match_ignore_case: self.match_ignore_case,
        }
    }
}

impl EditArgs {
    /// The library's edits of these flags.
    pub fn edits(&self) -> Edits {
        Edits {
            set: self.set.clone(),
            append_param: self.append_param.clone(),
        }
    }
}

//! The one row loop behind every vectorized function: parse each row once
//! (with a [`BatchParser`], reusing one buffer), then write every asked-for
//! output column from that parse.
//!
//! A row is null in, null out. A row that does not parse gives nulls in the
//! output columns, `false` in the validity column and the parser's reason
//! (the same text as the command's `--rejects`) in the reasons column; it
//! never raises. With `threads`, the rows are cut into contiguous ranges
//! parsed on a rayon pool of that size and joined in order, so the result
//! is the same as one thread's.

use std::io::Write;
use std::ops::Range;

use rayon::prelude::*;
use urlsift::profile::Profile;
use urlsift::site::{List, Parts};
use urlsift::{BatchParser, Url};

use crate::column::{BoolBuilder, Column, Row, StringBuilder};

/// One output column.
pub enum Output {
    /// A URL API getter that returns a slice of the href.
    Getter(for<'a> fn(&'a Url) -> &'a str),
    /// The origin's serialization (`null` for opaque origins).
    Origin,
    /// The URL in a normalization profile's form (the SURT key included).
    Profile(Profile),
    /// A part of the host split at its public suffix (`site`,
    /// `public_suffix`, `subdomain`, `domain`): null when the host is not
    /// a domain or the part does not exist (a host that is a public
    /// suffix has no site).
    Site(List, for<'a> fn(&Parts<'a>) -> Option<&'a str>),
}

impl Output {
    /// The getter named `name` (the names of the URL API and of `urlsift
    /// extract --fields`).
    pub fn getter(name: &str) -> Option<Output> {
        let get: for<'a> fn(&'a Url) -> &'a str = match name {
            "href" => Url::href,
            "protocol" => Url::protocol,
            "username" => Url::username,
            "password" => Url::password,
            "host" => Url::host,
            "hostname" => Url::hostname,
            "port" => Url::port,
            "pathname" => Url::pathname,
            "search" => Url::search,
            "hash" => Url::hash,
            "origin" => return Some(Output::Origin),
            _ => return None,
        };
        Some(Output::Getter(get))
    }

    /// The site field named `name`, looked up in `list`.
    pub fn site(name: &str, list: &List) -> Option<Output> {
        let part: for<'a> fn(&Parts<'a>) -> Option<&'a str> = match name {
            "site" => |p| p.registrable_domain(),
            "public_suffix" => |p| Some(p.public_suffix()),
            "subdomain" => |p| p.subdomain(),
            "domain" => |p| p.domain(),
            _ => return None,
        };
        Some(Output::Site(list.clone(), part))
    }

    fn write(&self, url: &Url, out: &mut StringBuilder) {
        match self {
            Output::Getter(get) => out.push_str(get(url)),
            Output::Origin => {
                write!(out.data(), "{}", url.origin()).expect("writing to a Vec");
                out.commit();
            }
            Output::Profile(p) => {
                p.apply(url, out.data());
                out.commit();
            }
            Output::Site(list, part) => match list.url_parts(url).as_ref().and_then(part) {
                Some(s) => out.push_str(s),
                None => out.push_null(),
            },
        }
    }
}

/// Everything one pass writes.
#[derive(Default)]
pub struct Results {
    pub columns: Vec<StringBuilder>,
    pub reasons: StringBuilder,
    pub valid: BoolBuilder,
}

impl Results {
    fn new(width: usize) -> Results {
        Results {
            columns: (0..width).map(|_| StringBuilder::default()).collect(),
            ..Results::default()
        }
    }

    fn append(&mut self, other: Results) {
        for (mine, theirs) in self.columns.iter_mut().zip(other.columns) {
            mine.append(theirs);
        }
        self.reasons.append(other.reasons);
        self.valid.append(other.valid);
    }

    fn null_row(&mut self) {
        for c in &mut self.columns {
            c.push_null();
        }
    }
}

/// Rows per range when a call is spread over threads: enough to amortize
/// the join, few enough to balance.
const MIN_RANGE: usize = 4096;

/// Parses every row of `column` against `base` and writes `outputs`; see the
/// module docs. `threads`: `None` or 1 runs on the calling thread, 0 on as
/// many threads as cores, n on n.
pub fn run(
    column: &Column,
    base: Option<&Url>,
    outputs: &[Output],
    threads: Option<usize>,
) -> Result<Results, rayon::ThreadPoolBuildError> {
    let len = column.len();
    let threads = match threads {
        None | Some(1) => return Ok(run_range(column, base, outputs, 0..len)),
        Some(n) => n,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let pieces = (pool.current_num_threads() * 4)
        .min(len.div_ceil(MIN_RANGE))
        .max(1);
    // Ranges start at multiples of 8, so joining them appends bitmaps byte-wise.
    let step = len.div_ceil(pieces).max(1).next_multiple_of(8);
    let ranges: Vec<Range<usize>> = (0..len)
        .step_by(step)
        .map(|start| start..(start + step).min(len))
        .collect();
    let parts: Vec<Results> = pool.install(|| {
        ranges
            .into_par_iter()
            .map(|r| run_range(column, base, outputs, r))
            .collect()
    });
    let mut all = Results::new(outputs.len());
    for part in parts {
        all.append(part);
    }
    Ok(all)
}

fn run_range(
    column: &Column,
    base: Option<&Url>,
    outputs: &[Output],
    rows: Range<usize>,
) -> Results {
    let mut parser = BatchParser::new();
    let mut out = Results::new(outputs.len());
    // Outputs that are the URL itself are about as long as the input:
    // reserve that much at once rather than grow (and copy) as rows come.
    let bytes = column.bytes(&rows);
    for (output, builder) in outputs.iter().zip(&mut out.columns) {
        if matches!(output, Output::Profile(_)) {
            builder.reserve(rows.len(), bytes + bytes / 16);
        }
    }
    let text = column.text(&rows);
    for i in rows {
        let input = match column.row(i, text.as_ref()) {
            Row::Text(s) => s,
            Row::Null => {
                out.null_row();
                out.reasons.push_null();
                out.valid.push(None);
                continue;
            }
            Row::NotUtf8 => {
                out.null_row();
                out.reasons.push_str("invalid UTF-8");
                out.valid.push(Some(false));
                continue;
            }
        };
        match parser.parse(input, base) {
            Ok(url) => {
                for (output, column) in outputs.iter().zip(&mut out.columns) {
                    output.write(url, column);
                }
                out.reasons.push_null();
                out.valid.push(Some(true));
            }
            Err(e) => {
                out.null_row();
                write!(out.reasons.data(), "{e}").expect("writing to a Vec");
                out.reasons.commit();
                out.valid.push(Some(false));
            }
        }
    }
    out
}

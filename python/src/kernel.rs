//! The one row loop behind every vectorized function: parse each row once
//! (with a [`BatchParser`], reusing one buffer), then write every asked-for
//! output column from that parse.
//!
//! A row is null in, null out. A row that does not parse gives nulls in the
//! output columns, `false` in the validity column and the parser's reason
//! (the same text as the command's `--rejects`) in the reasons column; it
//! never raises. With `threads`, the rows are cut into contiguous ranges
//! parsed on a rayon pool of that size and joined in order, so the result
//! is the same as one thread's. Pools are built once per size and kept
//! (see [`pool`]); a call too small to gain from threads runs on the
//! calling thread.

use std::collections::HashMap;
use std::io::Write;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rayon::ThreadPool;
use rayon::prelude::*;
use urlsift::pattern::PatternList;
use urlsift::profile::Profile;
use urlsift::site::{List, Part};
use urlsift::{BatchParser, Getter, Url};
use urlsift_records::dedup::{PatternKeyOptions, write_pattern_key};

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
    Site(List, Part),
    /// The key `urlsift dedup --key pattern` groups URLs by (host, path
    /// with numbers, hex and UUIDs collapsed, sorted parameter names); the
    /// whole href for a URL without a host.
    Pattern,
    /// The index of the first URL pattern the URL matches (`match_index`),
    /// null where none does.
    MatchIndex(Arc<PatternList>),
    /// The group `NAME` of the first URL pattern the URL matches
    /// (`match:NAME`), null where none does or the group has no value.
    MatchGroup(Arc<PatternList>, String),
}

impl Output {
    /// The getter named `name` (the names of the URL API and of `urlsift
    /// extract --fields`).
    pub fn getter(name: &str) -> Option<Output> {
        let getter = Getter::named(name)?;
        Some(match getter.slice() {
            Some(get) => Output::Getter(get),
            None => Output::Origin,
        })
    }

    /// The site field named `name`, looked up in `list`.
    pub fn site(name: &str, list: &List) -> Option<Output> {
        Some(Output::Site(list.clone(), Part::named(name)?))
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
            Output::Pattern => {
                write_pattern_key(
                    url,
                    PatternKeyOptions::default(),
                    out.data(),
                    &mut Vec::new(),
                );
                out.commit();
            }
            Output::MatchIndex(list) => match list.first_match(url.view()) {
                Some(i) => {
                    write!(out.data(), "{i}").expect("writing to a Vec");
                    out.commit();
                }
                None => out.push_null(),
            },
            Output::MatchGroup(list, name) => match list.group(url.view(), name) {
                Some(value) => out.push_str(&value),
                None => out.push_null(),
            },
            Output::Site(list, part) => match list.url_parts(url).as_ref().and_then(|p| part.of(p))
            {
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

/// Calls with fewer rows run on the calling thread whatever `threads`
/// says: they would be one range (see [`MIN_RANGE`]), so a pool could
/// only add its hand-off and wake-up (about 7 µs a call here, against
/// 18 µs for parsing 256 rows). `python/bench/bench_threads.py` prints
/// both ways for sizes from 256 to 65,536 rows: on this 2-core machine,
/// quiet, a kept pool of 2 parsed 8,192 rows 1.4x as fast.
const MIN_THREADED_ROWS: usize = 2 * MIN_RANGE;

/// The rayon pools, one per size asked for, each built on first use and
/// kept for the life of the process (a pool is threads that sleep when
/// idle). Building one per call cost more than parsing a small call.
static POOLS: Mutex<Option<HashMap<usize, Arc<ThreadPool>>>> = Mutex::new(None);

/// How many pools [`pool`] has built, for the tests.
static POOLS_BUILT: AtomicUsize = AtomicUsize::new(0);

/// The kept pool of `threads` threads (0: rayon's default, one per core),
/// built now if this is the first call asking for that size.
fn pool(threads: usize) -> Result<Arc<ThreadPool>, rayon::ThreadPoolBuildError> {
    // A panic while the lock was held cannot leave the map half-changed.
    let mut pools = POOLS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let pools = pools.get_or_insert_with(HashMap::new);
    if let Some(pool) = pools.get(&threads) {
        return Ok(Arc::clone(pool));
    }
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(move |i| format!("urlsift-{threads}-{i}"))
            .build()?,
    );
    POOLS_BUILT.fetch_add(1, Ordering::Relaxed);
    pools.insert(threads, Arc::clone(&pool));
    Ok(pool)
}

/// How many thread pools this process has built (one per distinct
/// `threads` value used on a call large enough to be threaded).
pub fn pools_built() -> usize {
    POOLS_BUILT.load(Ordering::Relaxed)
}

/// Parses every row of `column` against `base` and writes `outputs`; see the
/// module docs. `threads`: `None` or 1 runs on the calling thread, 0 on as
/// many threads as cores, n on n (calls under [`MIN_THREADED_ROWS`] rows
/// run on the calling thread).
pub fn run(
    column: &Column,
    base: Option<&Url>,
    outputs: &[Output],
    threads: Option<usize>,
) -> Result<Results, rayon::ThreadPoolBuildError> {
    let len = column.len();
    let threads = match threads {
        Some(n) if n != 1 && len >= MIN_THREADED_ROWS => n,
        _ => return Ok(run_range(column, base, outputs, 0..len)),
    };
    let pool = pool(threads)?;
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
        if let [Output::Profile(profile)] = outputs
            && profile.reads_text()
        {
            // A form of the raw text (`canonical="w3lib"`): the standard's
            // parse plays no part; a text the form's tool refuses is null,
            // with why.
            match profile
                .apply_text(input)
                .expect("a profile that reads text")
            {
                Ok(form) => {
                    out.columns[0].push_str(&form);
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
            continue;
        }
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

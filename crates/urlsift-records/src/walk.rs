//! The per-chunk loop every operation runs on the workers: walk the
//! chunk's records in their format, hand each URL to the operation, and
//! apply the bad-record policy (skip and count, `--rejects`,
//! `--keep-invalid`, `--strict`) to the rest.
//!
//! The loop knows no format: the source's format walks the chunk
//! ([`Format::walk`](crate::Format)) and hands each record to this
//! module's visitor, which runs the operation and the policy. The whole
//! walk is compiled per SIMD backend by [`urlsift_simd::with_kernel`], so
//! the `lines` format's fused scan (the line split and the fast path's
//! classification in one pass) inlines the operation.
//!
//! ```
//! use std::sync::Arc;
//! use urlsift_records::{Chunk, Format, Job, Processed, Source};
//!
//! let source = Arc::new(Source { name: "t.txt".into(), format: Format::Lines });
//! let chunk = Chunk::plain(source, 1, 0, b"HTTP://E.COM/a\n\nnot a url\n".to_vec());
//! // Each valid record's host, through one reused parser per chunk.
//! let p = Job::default().run_parsed(&chunk, None, Vec::new(), |p: &mut Processed<Vec<String>>, _rec, _text, parser| {
//!     p.extra.push(parser.last_mut().unwrap().hostname().to_string());
//!     Ok(())
//! });
//! assert_eq!(p.extra, ["e.com"]);
//! assert_eq!((p.tally.lines, p.tally.valid, p.tally.empty, p.tally.bad_total()), (3, 1, 1, 1));
//! ```

use urlsift::batch::Line;
use urlsift::{BatchParser, ParseError, Url, UrlRef};
use urlsift_simd::{Kernel, Runtime, WithKernel};

use super::chunk::Chunk;
use super::format::{Found, Rec, Shape, View, Visit, line_rec};
use super::policy::{PassThrough, Policy};
use super::processed::Processed;
use super::reason::Reason;

/// What an operation does with each record's URL: `Err(reason)` for a
/// URL it cannot use. Closures implement it. A hot loop run by
/// [`urlsift_simd::with_kernel`] implements it on a struct instead, with
/// its methods `#[inline(always)]`: a closure stays a function of its own,
/// compiled without the kernel's CPU features, so the kernel could not
/// inline into it.
pub trait PerRecord<X> {
    /// Whether clean line chunks are split by [`urlsift::batch::lines`],
    /// whose scan also does the fast path's classification (wasted on work
    /// that does not call [`PerRecord::line_of`]'s href).
    const SCANS_URLS: bool = false;

    /// The URL `url` of record `rec`.
    fn url(&mut self, p: &mut Processed<X>, rec: &Rec<'_>, url: &str) -> Result<(), Reason>;

    /// A bad record, before the policy applies to it (`check` reports it).
    #[inline(always)]
    fn bad(&mut self, _p: &mut Processed<X>, _rec: &Rec<'_>, _reason: Reason) {}

    /// A line of clean text (the `lines` format), with what the line scan
    /// found for the fast path ([`urlsift::BatchParser::href_of_line`]).
    #[inline(always)]
    fn line_of(
        &mut self,
        p: &mut Processed<X>,
        rec: &Rec<'_>,
        line: &Line<'_>,
    ) -> Result<(), Reason> {
        self.url(p, rec, line.as_str())
    }
}

impl<X, F: FnMut(&mut Processed<X>, &Rec<'_>, &str) -> Result<(), Reason>> PerRecord<X> for F {
    #[inline(always)]
    fn url(&mut self, p: &mut Processed<X>, rec: &Rec<'_>, url: &str) -> Result<(), Reason> {
        self(p, rec, url)
    }
}

/// Parses each record's URL (from the fused line scan's proof where there
/// is one: no second pass over a line) into a reused buffer and hands it to
/// `f` as the parser's last URL (mutable: edits apply in place; the parser
/// also tells whether the fast path decided).
pub struct Parsing<'a, K, F> {
    k: K,
    parser: BatchParser,
    base: Option<&'a Url>,
    f: F,
}

impl<X, K: Kernel, F> PerRecord<X> for Parsing<'_, K, F>
where
    F: FnMut(&mut Processed<X>, &Rec<'_>, &str, &mut BatchParser) -> Result<(), Reason>,
{
    const SCANS_URLS: bool = true;

    #[inline(always)]
    fn url(&mut self, p: &mut Processed<X>, rec: &Rec<'_>, text: &str) -> Result<(), Reason> {
        self.parser
            .parse_with(self.k, text, self.base)
            .map_err(Reason::Url)?;
        (self.f)(p, rec, text, &mut self.parser)
    }

    #[inline(always)]
    fn line_of(
        &mut self,
        p: &mut Processed<X>,
        rec: &Rec<'_>,
        line: &Line<'_>,
    ) -> Result<(), Reason> {
        self.parser
            .parse_line(line, self.base)
            .map_err(Reason::Url)?;
        (self.f)(p, rec, line.as_str(), &mut self.parser)
    }
}

/// [`Job::run_parsed`]'s work for one chunk, compiled per SIMD backend.
struct RunParsed<'a, X, F> {
    job: &'a Job,
    chunk: &'a Chunk,
    base: Option<&'a Url>,
    extra: X,
    f: F,
}

impl<X: Default, F> WithKernel for RunParsed<'_, X, F>
where
    F: FnMut(&mut Processed<X>, &Rec<'_>, &str, &mut BatchParser) -> Result<(), Reason>,
{
    type Output = Processed<X>;

    #[inline(always)]
    fn run<K: Kernel>(self, k: K) -> Processed<X> {
        let parsing = Parsing {
            k,
            parser: BatchParser::new(),
            base: self.base,
            f: self.f,
        };
        self.job.run_in(k, self.chunk, self.extra, parsing)
    }
}

/// What an operation does with each record's URL read as a view
/// ([`urlsift::UrlRef`]: no `Url` is built, and a line already in normal
/// form is the view's href itself), for operations that only read the URL
/// (see [`Job::run_viewed`]). `url` is the parse's result; `text` the URL
/// field as it came.
pub trait OnView<X> {
    /// The URL `text` of record `rec`, as the parse left it.
    fn view(
        &mut self,
        p: &mut Processed<X>,
        rec: &Rec<'_>,
        text: &str,
        url: Result<UrlRef<'_>, ParseError>,
    ) -> Result<(), Reason>;
}

/// Reads each record's URL as a view (from the fused line scan's proof
/// where there is one) and hands it to `v`.
struct Viewing<'a, K, V> {
    k: K,
    parser: BatchParser,
    base: Option<&'a Url>,
    v: V,
}

impl<X, K: Kernel, V: OnView<X>> PerRecord<X> for Viewing<'_, K, V> {
    const SCANS_URLS: bool = true;

    #[inline(always)]
    fn url(&mut self, p: &mut Processed<X>, rec: &Rec<'_>, text: &str) -> Result<(), Reason> {
        let url = self.parser.view_with(self.k, text, self.base);
        self.v.view(p, rec, text, url)
    }

    #[inline(always)]
    fn line_of(
        &mut self,
        p: &mut Processed<X>,
        rec: &Rec<'_>,
        line: &Line<'_>,
    ) -> Result<(), Reason> {
        let url = self.parser.view_of_line(line, self.base);
        self.v.view(p, rec, line.as_str(), url)
    }
}

/// [`Job::run_viewed`]'s work for one chunk, compiled per SIMD backend.
struct RunViewed<'a, X, V> {
    job: &'a Job,
    chunk: &'a Chunk,
    base: Option<&'a Url>,
    extra: X,
    v: V,
}

impl<X: Default, V: OnView<X>> WithKernel for RunViewed<'_, X, V> {
    type Output = Processed<X>;

    #[inline(always)]
    fn run<K: Kernel>(self, k: K) -> Processed<X> {
        let viewing = Viewing {
            k,
            parser: BatchParser::new(),
            base: self.base,
            v: self.v,
        };
        self.job.run_in(k, self.chunk, self.extra, viewing)
    }
}

/// The per-record loop shared by the subcommands that follow the policy.
#[derive(Clone, Copy, Debug)]
pub struct Job {
    /// The longest record whose URL is parsed (`--max-line-bytes`); a
    /// longer one is bad ([`Reason::TooLong`]).
    pub max_line: usize,
    /// What becomes of bad records.
    pub policy: Policy,
    /// What ends a URL line written out: `\n`, or NUL with `-0`.
    pub terminator: u8,
    /// Under `--keep-invalid`, also pass empty records through (normalize
    /// keeps output lines aligned with input lines).
    pub pass_empty: bool,
    /// Write a source's head (a CSV header) before its records: the
    /// operation writes records back.
    pub write_heads: bool,
}

impl Default for Job {
    /// No record limit, bad records skipped and counted, lines ended by
    /// `\n`, heads not written.
    fn default() -> Job {
        Job {
            max_line: usize::MAX,
            policy: Policy::default(),
            terminator: b'\n',
            pass_empty: false,
            write_heads: false,
        }
    }
}

impl Job {
    /// Runs `f` on each record of `chunk`.
    pub fn run<X: Default>(
        &self,
        chunk: &Chunk,
        f: impl FnMut(&mut Processed<X>, &Rec<'_>, &str) -> Result<(), Reason>,
    ) -> Processed<X> {
        self.run_with(chunk, X::default(), f)
    }

    /// Runs `f` on each record's parsed URL (against `base`), with one
    /// SIMD pass per line for the `lines` format (the line split and the
    /// fast path's scan fused). `f` gets the parser, whose
    /// [`last_mut`](urlsift::BatchParser::last_mut) is the URL.
    pub fn run_parsed<X: Default>(
        &self,
        chunk: &Chunk,
        base: Option<&Url>,
        extra: X,
        f: impl FnMut(&mut Processed<X>, &Rec<'_>, &str, &mut BatchParser) -> Result<(), Reason>,
    ) -> Processed<X> {
        urlsift_simd::with_kernel(RunParsed {
            job: self,
            chunk,
            base,
            extra,
            f,
        })
    }

    /// Runs `v` on each record's URL (against `base`) read as a view, with
    /// one SIMD pass per line for the `lines` format, like
    /// [`Job::run_parsed`]. `v` implements [`OnView`] on a struct rather
    /// than being a closure, so that it compiles per SIMD backend with the
    /// loop.
    pub fn run_viewed<X: Default, V: OnView<X>>(
        &self,
        chunk: &Chunk,
        base: Option<&Url>,
        extra: X,
        v: V,
    ) -> Processed<X> {
        urlsift_simd::with_kernel(RunViewed {
            job: self,
            chunk,
            base,
            extra,
            v,
        })
    }

    /// Like [`Job::run`], starting from a recycled `extra`.
    pub fn run_with<X: Default>(
        &self,
        chunk: &Chunk,
        extra: X,
        f: impl FnMut(&mut Processed<X>, &Rec<'_>, &str) -> Result<(), Reason>,
    ) -> Processed<X> {
        self.run_in(Runtime, chunk, extra, f)
    }

    /// Like [`Job::run_with`], with a given SIMD kernel (for work run by
    /// [`urlsift_simd::with_kernel`]).
    #[inline(always)]
    pub fn run_in<K: Kernel, X: Default, F: PerRecord<X>>(
        &self,
        k: K,
        chunk: &Chunk,
        extra: X,
        mut f: F,
    ) -> Processed<X> {
        let mut p = Processed::new(chunk);
        p.extra = extra;
        if chunk.oversize.is_some() {
            // Pieces of an over-long line: the writer accounts for them.
            return p;
        }
        if chunk.head > 0 && chunk.write_head && self.write_heads {
            p.copy_input(0..chunk.head);
        }
        let view = chunk.view();
        let mut v = Visitor {
            job: self,
            p: &mut p,
            f: &mut f,
        };
        let walked = match chunk.bad {
            Some(reason) => bad_lines(k, view, reason, self, v.p, v.f),
            None => chunk.source.format.walk(k, view, &mut v),
        };
        p.tally.lines = walked;
        p.flush();
        p
    }
}

/// The engine's side of a format's walk ([`Visit`]): the operation `f`
/// on each record's URL, the job's policy on the rest.
struct Visitor<'a, X, F> {
    job: &'a Job,
    p: &'a mut Processed<X>,
    f: &'a mut F,
}

impl<X, F: PerRecord<X>> Visit for Visitor<'_, X, F> {
    const SCANS_URLS: bool = F::SCANS_URLS;

    #[inline(always)]
    fn max_record(&self) -> usize {
        self.job.max_line
    }

    /// One record of a walked format: the policy for what it is, else `f`.
    #[inline(always)]
    fn record(&mut self, rec: &Rec<'_>, found: Found<'_>) -> bool {
        let (job, p) = (self.job, &mut *self.p);
        let reason = match found {
            Found::Empty => {
                p.tally.empty += 1;
                if job.pass_empty && job.policy.keep_invalid && rec.shape != Shape::ReadOnly {
                    p.flush();
                    rec.write_unchanged(&mut p.out, job.terminator);
                }
                return true;
            }
            Found::Bad(r) => r,
            Found::Url(_) if rec.end - rec.start > job.max_line => Reason::TooLong,
            Found::Url(url) => match self.f.url(p, rec, &url) {
                Ok(()) => {
                    p.tally.valid += 1;
                    return true;
                }
                Err(r) => r,
            },
        };
        p.flush();
        self.f.bad(p, rec, reason);
        let keep = match rec.shape {
            Shape::ReadOnly => PassThrough::Nothing,
            Shape::Row => PassThrough::Exact(rec.frame()),
            _ => PassThrough::Bytes(rec.raw_with_terminator()),
        };
        job.policy.bad_record(p, rec, keep, reason, job.terminator)
    }

    #[inline(always)]
    fn scanned_line(&mut self, rec: &Rec<'_>, line: &Line<'_>) -> Result<(), Reason> {
        self.f.line_of(self.p, rec, line)?;
        self.p.tally.valid += 1;
        Ok(())
    }

    #[inline(always)]
    fn text_line(&mut self, rec: &Rec<'_>, text: &str) -> Result<(), Reason> {
        self.f.url(self.p, rec, text)?;
        self.p.tally.valid += 1;
        Ok(())
    }

    /// Counts an empty line (and passes it through if asked to).
    #[inline(always)]
    fn empty_line(&mut self) {
        let p = &mut *self.p;
        p.tally.empty += 1;
        if self.job.pass_empty && self.job.policy.keep_invalid {
            p.flush();
            p.out.push(self.job.terminator);
        }
    }

    #[inline(always)]
    fn bad_line(&mut self, rec: Rec<'_>, reason: Reason) -> bool {
        bad_line(self.job, self.p, self.f, rec, reason)
    }
}

/// Applies the policy to a bad line; false when the chunk must stop. (Out
/// of the visitor, so that no call takes the visitor's address: the hot
/// loop keeps its parts in registers.)
#[cold]
#[inline(never)]
fn bad_line<X, F: PerRecord<X>>(
    job: &Job,
    p: &mut Processed<X>,
    f: &mut F,
    rec: Rec<'_>,
    reason: Reason,
) -> bool {
    p.flush();
    f.bad(p, &rec, reason);
    job.policy
        .bad_record(p, &rec, PassThrough::Raw, reason, job.terminator)
}

/// A chunk whose every line is bad for `reason` (`Chunk::bad`), in any
/// format: each goes to the policy as a line; empty lines count as empty.
/// Returns how many lines there were.
#[cold]
fn bad_lines<K: Kernel, X, F: PerRecord<X>>(
    k: K,
    view: View<'_>,
    reason: Reason,
    job: &Job,
    p: &mut Processed<X>,
    f: &mut F,
) -> u64 {
    let mut v = Visitor { job, p, f };
    let mut count = 0;
    for (number, raw) in view.lines_in(k) {
        count += 1;
        if raw.is_empty() {
            v.empty_line();
            continue;
        }
        let start = raw.as_ptr() as usize - view.data.as_ptr() as usize;
        let rec = line_rec(view.data, start, start + raw.len(), number, view.offset);
        if !v.bad_line(rec, reason) {
            break;
        }
    }
    count
}

//! The per-chunk loop every operation runs on the workers: walk the
//! chunk's records in their format, hand each URL to the operation, and
//! apply the bad-record policy (skip and count, `--rejects`,
//! `--keep-invalid`, `--strict`) to the rest.
//!
//! One URL per line is the simplest format and the hottest loop: a chunk
//! of clean text is split by the same SIMD pass that classifies each line
//! for the fast path ([`urlsift::batch::lines`]), compiled per SIMD
//! backend by [`urlsift_simd::with_kernel`]. Other formats walk their
//! records ([`format::walk`]), then meet the same policy.
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

use super::chunk::{self, Chunk};
use super::format::{self, Format, Found, Rec, Shape, warc};
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
        if let Some(reason) = chunk.bad {
            self.bad_lines(k, chunk, &mut p, &mut f, reason);
            p.flush();
            return p;
        }
        match &chunk.source.format {
            Format::Lines => self.lines(k, chunk, &mut p, &mut f),
            Format::Warc(field) => {
                // The chunk holds header blocks only: one UTF-8 check for
                // them all (per block only if one of them fails it).
                let text = simdutf8::basic::from_utf8(&chunk.data).ok();
                for e in &chunk.index {
                    let rec = Rec {
                        data: &chunk.data,
                        start: e.start,
                        end: e.end,
                        next: e.end,
                        line: 0,
                        offset: e.offset,
                        field: (e.start, e.end),
                        shape: Shape::ReadOnly,
                    };
                    let found = match e.bad {
                        Some(fault) => Found::Bad(fault.into()),
                        None => match text.and_then(|t| t.get(e.start..e.end)) {
                            Some(header) => warc::find_in(k, field, header),
                            None => warc::find(k, field, rec.raw()),
                        },
                    };
                    if !self.record(&mut p, &mut f, &rec, found) {
                        break;
                    }
                }
                p.tally.lines = p.tally.valid + p.tally.empty + p.tally.bad_total();
            }
            #[cfg(feature = "parquet")]
            Format::Parquet(_) => {
                for frame in format::frame::Frames::new(&chunk.data) {
                    let rec = Rec {
                        data: &chunk.data,
                        start: frame.at,
                        end: frame.at + frame.value.len(),
                        next: frame.at + frame.value.len(),
                        line: frame.line,
                        offset: 0,
                        field: (frame.at, frame.at + frame.value.len()),
                        shape: Shape::Row,
                    };
                    let found = if frame.value.is_empty() {
                        Found::Empty
                    } else {
                        match simdutf8::basic::from_utf8(frame.value) {
                            Ok(url) => Found::Url(url.into()),
                            Err(_) => Found::Bad(Reason::InvalidUtf8),
                        }
                    };
                    p.tally.lines += 1;
                    if !self.record(&mut p, &mut f, &rec, found) {
                        break;
                    }
                }
            }
            format => {
                let mut count = 0;
                format::walk(
                    format,
                    &chunk.data,
                    chunk.head,
                    chunk.first_line,
                    chunk.offset,
                    chunk.truncated,
                    |rec, found| {
                        count += 1;
                        self.record(&mut p, &mut f, &rec, found)
                    },
                );
                p.tally.lines = count;
            }
        }
        p.flush();
        p
    }

    /// One record of a walked format: the policy for what it is, else `f`.
    #[inline(always)]
    fn record<X, F: PerRecord<X>>(
        &self,
        p: &mut Processed<X>,
        f: &mut F,
        rec: &Rec<'_>,
        found: Found<'_>,
    ) -> bool {
        let reason = match found {
            Found::Empty => {
                p.tally.empty += 1;
                if self.pass_empty && self.policy.keep_invalid && rec.shape != Shape::ReadOnly {
                    p.flush();
                    rec.write_unchanged(&mut p.out, self.terminator);
                }
                return true;
            }
            Found::Bad(r) => r,
            Found::Url(_) if rec.end - rec.start > self.max_line => Reason::TooLong,
            Found::Url(url) => match f.url(p, rec, &url) {
                Ok(()) => {
                    p.tally.valid += 1;
                    return true;
                }
                Err(r) => r,
            },
        };
        p.flush();
        f.bad(p, rec, reason);
        let keep = match rec.shape {
            Shape::ReadOnly => PassThrough::Nothing,
            Shape::Row => PassThrough::Exact(rec.frame()),
            _ => PassThrough::Bytes(rec.raw_with_terminator()),
        };
        self.policy
            .bad_record(p, rec, keep, reason, self.terminator)
    }

    /// The `lines` format: the fused scan on clean text, else a plain split
    /// with each line classified.
    #[inline(always)]
    fn lines<K: Kernel, X, F: PerRecord<X>>(
        &self,
        k: K,
        chunk: &Chunk,
        p: &mut Processed<X>,
        f: &mut F,
    ) {
        let data = &chunk.data[..];
        if F::SCANS_URLS
            && !chunk.truncated
            && let Some(text) = chunk::ChunkFacts::utf8(chunk)
        {
            // Clean text: each line's end is found by the same SIMD pass
            // that classifies it for the fast path.
            let mut number = chunk.first_line;
            let base = text.as_ptr() as usize;
            for line in urlsift::batch::lines(k, &text[chunk.head..]) {
                let raw = line.as_str();
                number += 1;
                let start = raw.as_ptr() as usize - base;
                let rec = line_rec(data, start, start + raw.len(), number - 1, chunk.offset);
                let reason = if raw.is_empty() {
                    self.empty_line(p);
                    continue;
                } else if raw.len() > self.max_line {
                    Reason::TooLong
                } else if !line.is_proved() && memchr::memchr(0, raw.as_bytes()).is_some() {
                    // (A line the fast path proved holds no control byte:
                    // only the others are searched for NUL, not the chunk.)
                    Reason::NulByte
                } else {
                    match f.line_of(p, &rec, &line) {
                        Ok(()) => {
                            p.tally.valid += 1;
                            continue;
                        }
                        Err(r) => r,
                    }
                };
                if !self.bad_line(p, f, chunk, start, raw.len(), number - 1, reason) {
                    break;
                }
            }
            p.tally.lines = number - chunk.first_line;
            return;
        }
        let facts = chunk::ChunkFacts::of(chunk, self.max_line);
        let truncated_at = chunk
            .truncated
            .then_some(data.len())
            .filter(|_| !data.ends_with(b"\n"));
        for (number, raw) in chunk.lines_in(k) {
            p.tally.lines += 1;
            let start = raw.as_ptr() as usize - data.as_ptr() as usize;
            let rec = line_rec(data, start, start + raw.len(), number, chunk.offset);
            let reason = if truncated_at.is_some_and(|end| rec.next == end && rec.next == rec.end) {
                Reason::Truncated
            } else {
                match facts.classify(raw) {
                    chunk::Line::Empty => {
                        self.empty_line(p);
                        continue;
                    }
                    chunk::Line::Text(s) => match f.url(p, &rec, s) {
                        Ok(()) => {
                            p.tally.valid += 1;
                            continue;
                        }
                        Err(r) => r,
                    },
                    chunk::Line::Bad(r) => r,
                }
            };
            if !self.bad_line(p, f, chunk, start, raw.len(), number, reason) {
                break;
            }
        }
    }

    /// A chunk whose every line is bad for `reason` (`Chunk::bad`), in any
    /// format: each goes to the policy as a line; empty lines count as
    /// empty.
    #[cold]
    fn bad_lines<K: Kernel, X, F: PerRecord<X>>(
        &self,
        k: K,
        chunk: &Chunk,
        p: &mut Processed<X>,
        f: &mut F,
        reason: Reason,
    ) {
        let data = &chunk.data[..];
        for (number, raw) in chunk.lines_in(k) {
            p.tally.lines += 1;
            if raw.is_empty() {
                self.empty_line(p);
                continue;
            }
            let start = raw.as_ptr() as usize - data.as_ptr() as usize;
            if !self.bad_line(p, f, chunk, start, raw.len(), number, reason) {
                break;
            }
        }
    }

    /// Counts an empty line (and passes it through if asked to).
    #[inline(always)]
    fn empty_line<X>(&self, p: &mut Processed<X>) {
        p.tally.empty += 1;
        if self.pass_empty && self.policy.keep_invalid {
            p.flush();
            p.out.push(self.terminator);
        }
    }

    /// Applies the policy to a bad line; false when the chunk must stop.
    /// (The line's record is rebuilt here, out of the hot loop.)
    #[cold]
    #[allow(clippy::too_many_arguments)]
    fn bad_line<X, F: PerRecord<X>>(
        &self,
        p: &mut Processed<X>,
        f: &mut F,
        chunk: &Chunk,
        start: usize,
        len: usize,
        number: u64,
        reason: Reason,
    ) -> bool {
        let rec = line_rec(&chunk.data, start, start + len, number, chunk.offset);
        p.flush();
        f.bad(p, &rec, reason);
        self.policy
            .bad_record(p, &rec, PassThrough::Raw, reason, self.terminator)
    }
}

/// The record of the line `data[start..end]` (line `number`; the data
/// starts at `offset` in its source). A line's terminator is not part of
/// its record (`next == end`): lines go out with the output's terminator.
#[inline(always)]
fn line_rec(data: &[u8], start: usize, end: usize, number: u64, offset: u64) -> Rec<'_> {
    Rec {
        data,
        start,
        end,
        next: end,
        line: number,
        offset: offset + start as u64,
        field: (start, end),
        shape: Shape::Line,
    }
}

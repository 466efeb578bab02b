//! Batch parsing into reused buffers, line splitting fused with the fast
//! path's scan, and each parsing path on its own.

use crate::error::{NoReporter, ParseError};
use crate::parser::{self, fast};
use crate::url::{Url, UrlRef};

/// Parses many URLs without allocating per URL: each parse reuses the
/// previous URL's buffer, so once it has grown to the longest URL seen no
/// more memory is taken. Results equal [`Url::parse_with_base`].
///
/// ```
/// let mut parser = urlsift::BatchParser::new();
/// let mut total = 0;
/// for line in ["https://a.example/x", "not a url", "HTTP://B.example"] {
///     if let Ok(url) = parser.parse(line, None) {
///         total += url.href().len();
///     }
/// }
/// assert_eq!(total, "https://a.example/x".len() + "http://b.example/".len());
/// assert!(parser.last_took_fast_path());
/// ```
#[derive(Debug, Default)]
pub struct BatchParser {
    current: Option<Url>,
    spare: String,
    fast: bool,
}

impl BatchParser {
    /// A parser with an empty buffer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses `input` against `base`; the result lives until the next call.
    #[inline]
    pub fn parse(&mut self, input: &str, base: Option<&Url>) -> Result<&Url, ParseError> {
        let buffer = self.take_buffer();
        let parsed = match fast::parse_into(input, buffer) {
            Ok(url) => {
                self.fast = true;
                url
            }
            Err(buffer) => {
                self.fast = false;
                self.machine(input, base, buffer)?
            }
        };
        Ok(self.current.insert(parsed))
    }

    /// The previous URL's buffer (or the spare one) for the next parse.
    #[inline(always)]
    fn take_buffer(&mut self) -> String {
        match self.current.take() {
            Some(previous) => previous.serialization,
            None => std::mem::take(&mut self.spare),
        }
    }

    /// The state machine into `buffer`; on failure the buffer is kept.
    #[inline(always)]
    fn machine(
        &mut self,
        input: &str,
        base: Option<&Url>,
        buffer: String,
    ) -> Result<Url, ParseError> {
        parser::parse_machine_into(input, base, buffer).map_err(|(e, buffer)| {
            self.spare = buffer;
            e
        })
    }

    /// The href of `input` parsed against `base`: the same string as
    /// `parse(input, base)?.href()`, but when the input is already its own
    /// serialization (most real URLs are, and the fast path proves it
    /// without writing anything) the result is `input` itself, so callers
    /// can tell by address that nothing changed and copy nothing.
    ///
    /// ```
    /// let mut parser = urlsift::BatchParser::new();
    /// let line = "https://example.com/a?b#c";
    /// let href = parser.href(line, None).unwrap();
    /// assert!(std::ptr::eq(href, line));
    /// assert_eq!(parser.href("HTTPS://Example.com", None).unwrap(), "https://example.com/");
    /// ```
    #[inline]
    pub fn href<'a>(
        &'a mut self,
        input: &'a str,
        base: Option<&Url>,
    ) -> Result<&'a str, ParseError> {
        self.href_with(crate::simd::Runtime, input, base)
    }

    /// [`BatchParser::href`] with a given SIMD kernel: inside work run by
    /// [`urlsift_simd::with_kernel`], the fast path's scan inlines into the
    /// caller's loop.
    #[inline(always)]
    pub fn href_with<'a, K: crate::simd::Kernel>(
        &'a mut self,
        kernel: K,
        input: &'a str,
        base: Option<&Url>,
    ) -> Result<&'a str, ParseError> {
        self.view_planned(input, fast::analyze_with(kernel, input), base)
            .map(|v| v.href())
    }

    /// The href of a line from [`lines`], parsed against `base`: the same
    /// string as [`BatchParser::href`] of its text, using what the scan
    /// that found the line already proved.
    ///
    /// ```
    /// let text = "https://a.example/x\r\nHTTP://B.example\n";
    /// let mut parser = urlsift::BatchParser::new();
    /// let hrefs: Vec<String> = urlsift::batch::lines(urlsift_simd::Runtime, text)
    ///     .map(|line| parser.href_of_line(&line, None).unwrap().to_string())
    ///     .collect();
    /// assert_eq!(hrefs, ["https://a.example/x", "http://b.example/"]);
    /// ```
    #[inline(always)]
    pub fn href_of_line<'a>(
        &'a mut self,
        line: &Line<'a>,
        base: Option<&Url>,
    ) -> Result<&'a str, ParseError> {
        self.view_planned(line.text, line.plan, base)
            .map(|v| v.href())
    }

    /// [`BatchParser::parse`] with a given SIMD kernel (see
    /// [`BatchParser::href_with`]).
    #[inline(always)]
    pub fn parse_with<K: crate::simd::Kernel>(
        &mut self,
        kernel: K,
        input: &str,
        base: Option<&Url>,
    ) -> Result<&Url, ParseError> {
        self.parse_planned(input, fast::analyze_with(kernel, input), base)
    }

    /// The URL of a line from [`lines`], parsed against `base`: the same
    /// URL as [`BatchParser::parse`] of its text, using what the scan that
    /// found the line already proved.
    ///
    /// ```
    /// let text = "HTTP://A.example/x\nnot a url\n";
    /// let mut parser = urlsift::BatchParser::new();
    /// let hosts: Vec<String> = urlsift::batch::lines(urlsift_simd::Runtime, text)
    ///     .filter_map(|line| Some(parser.parse_line(&line, None).ok()?.host().to_string()))
    ///     .collect();
    /// assert_eq!(hosts, ["a.example"]);
    /// ```
    #[inline(always)]
    pub fn parse_line(&mut self, line: &Line<'_>, base: Option<&Url>) -> Result<&Url, ParseError> {
        self.parse_planned(line.text, line.plan, base)
    }

    /// The URL of `input`, given what the fast path proved of it.
    #[inline(always)]
    fn parse_planned(
        &mut self,
        input: &str,
        plan: Option<fast::Plan>,
        base: Option<&Url>,
    ) -> Result<&Url, ParseError> {
        let buffer = self.take_buffer();
        let url = match plan {
            Some(plan) => {
                self.fast = true;
                let mut serialization = buffer;
                serialization.clear();
                let c = plan.write(input, &mut serialization);
                Url { serialization, c }
            }
            None => {
                self.fast = false;
                self.machine(input, base, buffer)?
            }
        };
        Ok(self.current.insert(url))
    }

    /// The URL of `input` as a view, given what the fast path proved of
    /// it: `input` itself when it is its own serialization (so the href
    /// calls return the input, and callers can tell by address that
    /// nothing changed).
    #[inline(always)]
    fn view_planned<'a>(
        &'a mut self,
        input: &'a str,
        plan: Option<fast::Plan>,
        base: Option<&Url>,
    ) -> Result<UrlRef<'a>, ParseError> {
        let Some(plan) = plan else {
            self.fast = false;
            let buffer = self.take_buffer();
            let url = self.machine(input, base, buffer)?;
            return Ok(self.current.insert(url).view());
        };
        self.fast = true;
        if plan.unchanged() {
            return Ok(UrlRef::new(input, plan.components()));
        }
        let mut serialization = self.take_buffer();
        serialization.clear();
        let c = plan.write(input, &mut serialization);
        Ok(self.current.insert(Url { serialization, c }).view())
    }

    /// The URL of a line from [`lines`] as a [`UrlRef`], for callers that
    /// only read its components: equal to `parse_line(line, base)?.view()`,
    /// but a line that is already its own serialization is not copied
    /// (the view's href is the line itself, as with
    /// [`BatchParser::href_of_line`]).
    ///
    /// ```
    /// let text = "https://a.example/x\nHTTP://B.example\n";
    /// let mut parser = urlsift::BatchParser::new();
    /// let hosts: Vec<String> = urlsift::batch::lines(urlsift_simd::Runtime, text)
    ///     .map(|line| parser.view_of_line(&line, None).unwrap().hostname().to_string())
    ///     .collect();
    /// assert_eq!(hosts, ["a.example", "b.example"]);
    /// ```
    #[inline(always)]
    pub fn view_of_line<'a>(
        &'a mut self,
        line: &Line<'a>,
        base: Option<&Url>,
    ) -> Result<UrlRef<'a>, ParseError> {
        self.view_planned(line.text, line.plan, base)
    }

    /// [`BatchParser::view_of_line`] of any input (the SIMD backend chosen
    /// at run time).
    ///
    /// ```
    /// let mut parser = urlsift::BatchParser::new();
    /// let line = "https://example.com/a?b";
    /// let view = parser.view(line, None)?;
    /// assert!(std::ptr::eq(view.href(), line));
    /// assert_eq!((view.hostname(), view.query()), ("example.com", Some("b")));
    /// # Ok::<(), urlsift::ParseError>(())
    /// ```
    #[inline]
    pub fn view<'a>(
        &'a mut self,
        input: &'a str,
        base: Option<&Url>,
    ) -> Result<UrlRef<'a>, ParseError> {
        self.view_with(crate::simd::Runtime, input, base)
    }

    /// [`BatchParser::view`] with a given SIMD kernel of the `urlsift-simd`
    /// crate (see [`BatchParser::href_with`]).
    #[inline(always)]
    pub fn view_with<'a, K: crate::simd::Kernel>(
        &'a mut self,
        kernel: K,
        input: &'a str,
        base: Option<&Url>,
    ) -> Result<UrlRef<'a>, ParseError> {
        self.view_planned(input, fast::analyze_with(kernel, input), base)
    }

    /// The URL of the last successful [`BatchParser::parse`] (or
    /// `parse_with`, `parse_line`), to edit in place. Only meaningful right
    /// after one of those succeeded (after a failure it is `None`; the
    /// href calls may leave an earlier URL here).
    pub fn last_mut(&mut self) -> Option<&mut Url> {
        self.current.as_mut()
    }

    /// Whether the last call was decided by the fast path's first look
    /// (without the state machine), for statistics. (An authority running
    /// past the first 64 bytes, taken by its second look, counts as not.)
    pub fn last_took_fast_path(&self) -> bool {
        self.fast
    }
}

/// The lines of `text`, for [`BatchParser::href_of_line`]: one SIMD pass
/// per line finds where it ends and classifies its bytes for the fast path
/// (most URLs fit in one 64-byte block). Lines end at '\n', which is not
/// part of them, nor is a '\r' before it; text after the last '\n' is a
/// last line; empty lines are lines.
///
/// ```
/// let text = "a\r\n\nhttps://example.com/\nlast";
/// let lines: Vec<&str> = urlsift::batch::lines(urlsift_simd::Runtime, text)
///     .map(|l| l.as_str())
///     .collect();
/// assert_eq!(lines, ["a", "", "https://example.com/", "last"]);
/// ```
#[inline(always)]
pub fn lines<K: crate::simd::Kernel>(kernel: K, text: &str) -> Lines<'_, K> {
    Lines {
        kernel,
        text,
        at: 0,
    }
}

/// The iterator returned by [`lines`].
#[derive(Clone, Debug)]
pub struct Lines<'a, K> {
    kernel: K,
    text: &'a str,
    at: usize,
}

impl<'a, K: crate::simd::Kernel> Iterator for Lines<'a, K> {
    type Item = Line<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<Line<'a>> {
        if self.at >= self.text.len() {
            return None;
        }
        let (text, next, plan) = fast::scan_line(self.kernel, self.text, self.at);
        self.at = next;
        Some(Line { text, plan })
    }
}

/// A line from [`lines`], with what the fast path proved about it.
#[derive(Clone, Copy)]
pub struct Line<'a> {
    text: &'a str,
    plan: Option<fast::Plan>,
}

impl<'a> Line<'a> {
    /// The line's text.
    #[inline(always)]
    pub fn as_str(&self) -> &'a str {
        self.text
    }

    /// Whether the fast path proved the line a URL needing no state
    /// machine, which also proves it holds no control byte (no NUL, tab or
    /// newline) and no space.
    #[inline(always)]
    pub fn is_proved(&self) -> bool {
        self.plan.is_some()
    }

    /// Whether the line is a URL whose parse reports no validation error,
    /// as the fast path proved it: in normal form (its href is the line),
    /// of letters, digits and `!$&'()*+,-./:;=?_~` with at most one `#`,
    /// its host (if any) labels of lowercase letters, digits and inner
    /// hyphens that Unicode ToASCII takes as they are with its strict
    /// flags. `false` says nothing: parse with a reporter to know.
    #[inline]
    pub fn is_clean(&self) -> bool {
        self.plan
            .as_ref()
            .is_some_and(|plan| fast::is_clean(self.text, plan))
    }
}

impl std::fmt::Debug for Line<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Line")
            .field("text", &self.text)
            .field("fast_path", &self.plan.is_some())
            .finish()
    }
}

/// Each parsing path alone, for equivalence tests and benchmarks.
pub mod paths {
    use super::*;

    /// The dispatcher: what [`Url::parse_with_base`] runs.
    pub fn dispatch(input: &str, base: Option<&Url>) -> Result<Url, ParseError> {
        parser::parse(input, base, &mut NoReporter)
    }

    /// The state machine alone.
    pub fn machine(input: &str, base: Option<&Url>) -> Result<Url, ParseError> {
        parser::parse_machine(input, base, &mut NoReporter)
    }

    /// The fast path alone: `None` when it declines.
    pub fn fast(input: &str) -> Option<Url> {
        fast::parse(input)
    }

    /// The fast path's look at a path-absolute reference joined to its
    /// base's scheme and authority (which the dispatcher and the batch
    /// parser take before the machine): `None` when that does not apply
    /// or the fast path declines.
    pub fn joined(input: &str, base: Option<&Url>) -> Option<Url> {
        parser::joined_look(input, base, String::new()).ok()
    }

    /// The byte set whose presence anywhere makes the fast path decline
    /// (what its SIMD scan looks for).
    pub const FAST_PATH_DECLINE: crate::simd::ByteSet = fast::DECLINE;

    /// Whether two URLs have the same serialization and the same component
    /// offsets (not only the same href).
    pub fn same_components(a: &Url, b: &Url) -> bool {
        a.serialization == b.serialization && a.c == b.c
    }
}

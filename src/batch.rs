//! Batch parsing into reused buffers, and each parsing path on its own.

use crate::error::{NoReporter, ParseError};
use crate::parser::{self, fast};
use crate::url::Url;

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
    /// [`crate::simd::with_kernel`], the fast path's scan inlines into the
    /// caller's loop.
    #[inline(always)]
    pub fn href_with<'a, K: crate::simd::Kernel>(
        &'a mut self,
        kernel: K,
        input: &'a str,
        base: Option<&Url>,
    ) -> Result<&'a str, ParseError> {
        let Some(plan) = fast::analyze_with(kernel, input) else {
            self.fast = false;
            let buffer = self.take_buffer();
            let url = self.machine(input, base, buffer)?;
            return Ok(self.current.insert(url).href());
        };
        self.fast = true;
        if plan.unchanged() {
            return Ok(input);
        }
        let mut serialization = self.take_buffer();
        serialization.clear();
        let c = plan.write(input, &mut serialization);
        Ok(self.current.insert(Url { serialization, c }).href())
    }

    /// Whether the last call was decided by the fast path (without the
    /// state machine), for statistics.
    pub fn last_took_fast_path(&self) -> bool {
        self.fast
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

    /// The byte set whose presence anywhere makes the fast path decline
    /// (what its SIMD scan looks for).
    pub const FAST_PATH_DECLINE: crate::simd::ByteSet = fast::DECLINE;

    /// Whether two URLs have the same serialization and the same component
    /// offsets (not only the same href).
    pub fn same_components(a: &Url, b: &Url) -> bool {
        a.serialization == b.serialization && a.c == b.c
    }
}

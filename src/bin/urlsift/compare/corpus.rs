//! The URLs `compare` works on, all in memory: every parser is timed on the
//! same bytes, round after round, and diffed line by line, so the inputs
//! are read once into one `String` with offsets, each URL remembering its
//! source and line number for the report.
//!
//! [`load`] is the one door from the input files to this room: today it
//! reads one URL per line through the command's input module (files,
//! stdin, gzip, zstd); lines that cannot be URLs (empty, invalid UTF-8,
//! NUL bytes, longer than `--max-line-bytes`) are counted by reason and
//! reported, never silently dropped.

use std::io::Read;

use crate::args::InputArgs;
use crate::input::{self, InputError, Reason};
use crate::output::CliError;

/// How many skipped lines are remembered by location for the report.
const SKIPPED_EXAMPLES: usize = 5;

/// The URLs of every input, in input order.
#[derive(Default)]
pub struct Corpus {
    /// Every URL's text, back to back.
    text: String,
    /// URL `i` is `text[ends[i - 1]..ends[i]]` (from 0 for the first).
    ends: Vec<usize>,
    /// The 1-based line number of each URL in its source.
    lines: Vec<u64>,
    /// The index of each source's first URL, and its name as shown.
    sources: Vec<(usize, String)>,
    /// Lines read, and the ones that are not URLs.
    pub read: ReadCounts,
}

/// What loading saw besides URLs.
#[derive(Default, Debug, Clone, PartialEq, Eq)]
pub struct ReadCounts {
    /// Every line of every source.
    pub lines: u64,
    /// Empty lines (or only `\r`): counted, never parsed.
    pub empty: u64,
    /// Lines that cannot be URLs, by reason key (`invalid-UTF-8`,
    /// `NUL-byte`, `line-too-long`), in first-seen order.
    pub skipped: Vec<(&'static str, u64)>,
    /// The first few skipped lines: source, line number, reason.
    pub examples: Vec<(String, u64, Reason)>,
}

impl ReadCounts {
    /// All skipped lines (empty ones not included).
    pub fn skipped_total(&self) -> u64 {
        self.skipped.iter().map(|(_, n)| n).sum()
    }

    fn skip(&mut self, source: &str, line: u64, reason: Reason) {
        match self.skipped.iter_mut().find(|(k, _)| *k == reason.key()) {
            Some((_, n)) => *n += 1,
            None => self.skipped.push((reason.key(), 1)),
        }
        if self.examples.len() < SKIPPED_EXAMPLES {
            self.examples.push((source.to_string(), line, reason));
        }
    }

    /// One line for stderr naming what was skipped and where, or `None`
    /// when every non-empty line was a URL.
    pub fn summary(&self) -> Option<String> {
        if self.skipped.is_empty() {
            return None;
        }
        let reasons: Vec<String> = self
            .skipped
            .iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect();
        let first: Vec<String> = self
            .examples
            .iter()
            .map(|(s, l, r)| format!("{s} line {l}: {r}"))
            .collect();
        Some(format!(
            "skipped {} lines that cannot be URLs ({}); first: {}",
            self.skipped_total(),
            reasons.join(", "),
            first.join("; ")
        ))
    }
}

impl Corpus {
    /// Starts a new source; URLs pushed after this belong to it.
    pub fn begin_source(&mut self, name: &str) {
        self.sources.push((self.ends.len(), name.to_string()));
    }

    /// Adds one URL found at `line` of the current source.
    pub fn push(&mut self, line: u64, url: &str) {
        debug_assert!(!self.sources.is_empty(), "begin_source first");
        self.text.push_str(url);
        self.ends.push(self.text.len());
        self.lines.push(line);
    }

    /// How many URLs.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no URL at all.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The `i`th URL.
    pub fn url(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }

    /// Every URL, as the parsers' loops take them.
    pub fn urls(&self) -> Vec<&str> {
        (0..self.len()).map(|i| self.url(i)).collect()
    }

    /// The total bytes of the URLs (what MB/s counts).
    pub fn bytes(&self) -> u64 {
        self.text.len() as u64
    }

    /// The sources' names, in input order.
    pub fn source_names(&self) -> impl Iterator<Item = &str> {
        self.sources.iter().map(|(_, name)| name.as_str())
    }

    /// Where the `i`th URL came from: source name and line number.
    pub fn location(&self, i: usize) -> (&str, u64) {
        let at = self.sources.partition_point(|(first, _)| *first <= i);
        let name = at
            .checked_sub(1)
            .map_or("<unknown>", |s| self.sources[s].1.as_str());
        (name, self.lines[i])
    }
}

/// Reads every input of `a` (`-` or none: stdin) into memory, one URL per
/// non-empty line, skipping and counting what cannot be a URL.
pub fn load(a: &InputArgs) -> Result<Corpus, CliError> {
    let mut files = a.files.clone();
    if files.is_empty() {
        files.push("-".into());
    }
    let max_line = usize::try_from(a.max_line_bytes).unwrap_or(usize::MAX);
    let mut corpus = Corpus::default();
    let mut data = Vec::new();
    for path in &files {
        let name = input::display_name(path);
        data.clear();
        input::open(path)
            .and_then(|mut r| r.read_to_end(&mut data))
            .map_err(|error| {
                CliError::Input(InputError {
                    name: name.clone(),
                    error,
                })
            })?;
        corpus.begin_source(&name);
        add_lines(&mut corpus, &name, &data, max_line);
    }
    Ok(corpus)
}

/// Splits `data` at `\n` (dropping a `\r` before it) and adds its lines.
fn add_lines(corpus: &mut Corpus, name: &str, data: &[u8], max_line: usize) {
    let mut rest = data;
    let mut number = 0u64;
    while !rest.is_empty() {
        let (mut line, next) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        rest = next;
        number += 1;
        corpus.read.lines += 1;
        if let [head @ .., b'\r'] = line {
            line = head;
        }
        let reason = if line.is_empty() {
            corpus.read.empty += 1;
            continue;
        } else if line.len() > max_line {
            Reason::TooLong
        } else if memchr::memchr(0, line).is_some() {
            Reason::NulByte
        } else {
            match simdutf8::basic::from_utf8(line) {
                Ok(text) => {
                    corpus.push(number, text);
                    continue;
                }
                Err(_) => Reason::InvalidUtf8,
            }
        };
        corpus.read.skip(name, number, reason);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_numbered_and_bad_ones_counted_by_reason() {
        let mut c = Corpus::default();
        c.begin_source("a.txt");
        add_lines(
            &mut c,
            "a.txt",
            b"https://a.example/\r\n\nbad\xff\nnul\0x\nhttps://b.example/long/x\nlast",
            20,
        );
        c.begin_source("b.txt");
        add_lines(&mut c, "b.txt", b"\r\nhttp://c.example/long\n", 100);
        assert_eq!(c.len(), 3);
        assert_eq!(
            c.urls(),
            ["https://a.example/", "last", "http://c.example/long"]
        );
        assert_eq!(c.location(0), ("a.txt", 1));
        assert_eq!(c.location(1), ("a.txt", 6));
        assert_eq!(c.location(2), ("b.txt", 2));
        assert_eq!(c.bytes(), (18 + 4 + 21) as u64);
        assert_eq!(c.read.lines, 8);
        assert_eq!(c.read.empty, 2);
        assert_eq!(
            c.read.skipped,
            [("invalid-UTF-8", 1), ("NUL-byte", 1), ("line-too-long", 1)]
        );
        let summary = c.read.summary().expect("lines were skipped");
        assert!(summary.contains("skipped 3 lines"), "{summary}");
        assert!(summary.contains("a.txt line 3: invalid UTF-8"), "{summary}");
    }

    #[test]
    fn an_empty_source_adds_nothing_but_is_listed() {
        let mut c = Corpus::default();
        c.begin_source("empty");
        add_lines(&mut c, "empty", b"", 10);
        assert!(c.is_empty());
        assert_eq!(c.source_names().collect::<Vec<_>>(), ["empty"]);
        assert_eq!(c.read.summary(), None);
    }
}

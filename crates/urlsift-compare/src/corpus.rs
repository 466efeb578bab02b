//! The URLs `compare` works on, all in memory: every parser is timed on the
//! same bytes, round after round, and diffed line by line, so the inputs
//! are read once into one `String` with offsets, each URL remembering its
//! source and line number for the report.
//!
//! [`load`] is the one door from the input files to this room: it reads
//! them through the command's reader and record formats (files, stdin,
//! gzip, zstd; one URL per line, or the URL field of CSV/TSV, JSON lines,
//! CDXJ, WARC or access-log records); records without a usable URL field
//! (empty, invalid UTF-8, NUL bytes, longer than `--max-line-bytes`, a bad
//! CSV quote, invalid JSON, ...) are counted by reason and reported, never
//! silently dropped.

use std::sync::Arc;

use urlsift_records::reader::{ChunkReader, Settings};
use urlsift_records::{
    BufPool, Chunk, InputError, Job, PerRecord, Policy, Processed, Reason, Rec, Source, input,
};

use urlsift_records::Spec;

use crate::Error;

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
    /// Read errors (a file that cannot be opened, a cut or damaged
    /// compressed stream): the URLs read before each, and after a damaged
    /// member where decoding resumed, are in the corpus all the same.
    pub errors: Vec<InputError>,
}

/// What loading saw besides URLs.
#[derive(Default, Debug, Clone, PartialEq, Eq)]
pub struct ReadCounts {
    /// Every line of every source.
    pub lines: u64,
    /// Empty lines (or only `\r`): counted, never parsed.
    pub empty: u64,
    /// Lines that start with `# ` (a hash, then a space): comments,
    /// counted, never parsed. A `#` without the space is a relative URL
    /// (`#top`), compared like any other line.
    pub comments: u64,
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

/// What [`load`] reads: the command's input flags, as settings.
#[derive(Debug, Clone, Default)]
pub struct Load {
    /// The inputs, read in order; none (or `-`) is stdin.
    pub files: Vec<std::path::PathBuf>,
    /// Records longer than this are skipped (`line-too-long`).
    pub max_line: usize,
    /// The reader's chunk size in bytes.
    pub chunk_size: usize,
    /// The record format and URL field (`--input-format`, `--field`).
    pub spec: Spec,
}

/// Reads every input of `load` (`-` or none: stdin) into memory: the URL of
/// every record, skipping and counting the records without one. A read
/// error does not end the load: it is kept in [`Corpus::errors`] and
/// reading goes on as the reader allows (past a damaged member, or with
/// the next source).
///
/// ```
/// use urlsift_compare::corpus::{Load, load};
///
/// # let tmp = tempfile::Builder::new().prefix("urlsift-doc-corpus-").tempdir().unwrap();
/// # let dir = tmp.path();
/// let path = dir.join("urls.txt");
/// std::fs::write(&path, "https://example.com/\n\n# a comment\nhttp://e.org/a\n").unwrap();
/// let corpus = load(&Load { files: vec![path], max_line: 1 << 20, chunk_size: 1 << 16, ..Load::default() })?;
/// assert_eq!(corpus.urls(), ["https://example.com/", "http://e.org/a"]);
/// assert_eq!((corpus.read.empty, corpus.read.comments), (1, 1));
/// # Ok::<(), urlsift_compare::Error>(())
/// ```
pub fn load(load: &Load) -> Result<Corpus, Error> {
    let mut files = load.files.clone();
    if files.is_empty() {
        files.push("-".into());
    }
    if let Some(e) = input::unusable(&files) {
        return Err(Error::Input(e));
    }
    let max_line = load.max_line;
    let chunk_size = load.chunk_size.max(1);
    // A WACZ is read as the WARC files inside it, as the engine reads it.
    let inputs = input::wacz::expand(&files, input::wacz::Part::Archive).map_err(Error::Input)?;
    let mut reader = ChunkReader::of(
        inputs,
        Settings {
            chunk_size,
            max_record: max_line,
            spec: load.spec.clone(),
            writes_records: false,
            count_lines: true,
            keep: None,
            // (Read on the calling thread: a compressed corpus is decoded
            // beside it, its members on the machine's cores.)
            cores: urlsift_records::cores::machine(),
            decoding_clock: Default::default(),
        },
    );
    let pool = BufPool::new(4, chunk_size);
    let job = Job {
        max_line,
        policy: Policy::default(),
        terminator: b'\n',
        pass_empty: false,
        write_heads: false,
    };
    let mut corpus = Corpus::default();
    let mut current: Option<Arc<Source>> = None;
    while let Some((_, next)) = reader.next_numbered(&pool) {
        let chunk = match next {
            Ok(chunk) => chunk,
            Err(e) if e.usage => return Err(Error::Records(urlsift_records::Error::usage(&e))),
            // Reading goes on (with the rest of a damaged source, or the
            // next source): what could be read is compared.
            Err(e) => {
                corpus.errors.push(e);
                continue;
            }
        };
        if !current
            .as_ref()
            .is_some_and(|c| Arc::ptr_eq(c, chunk.source()))
        {
            corpus.begin_source(&chunk.source().name);
            current = Some(Arc::clone(chunk.source()));
        }
        add_chunk(&mut corpus, &job, &chunk);
        chunk.recycle(&pool);
    }
    Ok(corpus)
}

/// Adds the URLs of one chunk's records, and counts the rest.
fn add_chunk(corpus: &mut Corpus, job: &Job, chunk: &Chunk) {
    if let Some(piece) = chunk.oversize() {
        // A line over the limit, in pieces: one skipped line.
        if piece.first {
            corpus.read.lines += 1;
            corpus
                .read
                .skip(&chunk.source().name, chunk.first_line(), Reason::TooLong);
        }
        return;
    }
    let loader = Loader {
        corpus: &mut *corpus,
        name: &chunk.source().name,
    };
    let p = job.run_in(urlsift_simd::Runtime, chunk, (), loader);
    corpus.read.lines += p.tally.lines;
    corpus.read.empty += p.tally.empty;
}

/// Takes each record's URL into the corpus; skips (and counts) the rest.
struct Loader<'a> {
    corpus: &'a mut Corpus,
    name: &'a str,
}

impl PerRecord<()> for Loader<'_> {
    fn url(&mut self, _: &mut Processed<()>, rec: &Rec<'_>, url: &str) -> Result<(), Reason> {
        if url.starts_with("# ") {
            self.corpus.read.comments += 1;
            return Ok(());
        }
        self.corpus.push(rec.line, url);
        Ok(())
    }

    fn bad(&mut self, _: &mut Processed<()>, rec: &Rec<'_>, reason: Reason) {
        self.corpus.read.skip(self.name, rec.line, reason);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use urlsift_records::Format;

    fn add_lines(corpus: &mut Corpus, name: &str, data: &[u8], max_line: usize) {
        let source = Arc::new(Source {
            name: name.to_string(),
            format: Format::Lines,
        });
        let job = Job {
            max_line,
            policy: Policy::default(),
            terminator: b'\n',
            pass_empty: false,
            write_heads: false,
        };
        add_chunk(corpus, &job, &Chunk::plain(source, 1, 0, data.to_vec()));
    }

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
    fn comment_lines_are_counted_not_compared() {
        let mut c = Corpus::default();
        c.begin_source("c.txt");
        add_lines(
            &mut c,
            "c.txt",
            b"# class: one\nhttp://a.example/\n#frag\n\n# two\nhttp://b.example/\n",
            100,
        );
        assert_eq!(
            c.urls(),
            ["http://a.example/", "#frag", "http://b.example/"]
        );
        assert_eq!(c.location(2), ("c.txt", 6));
        assert_eq!((c.read.lines, c.read.empty, c.read.comments), (6, 1, 2));
    }

    #[test]
    fn an_empty_chunk_adds_nothing() {
        let mut c = Corpus::default();
        c.begin_source("empty");
        add_lines(&mut c, "empty", b"", 10);
        assert!(c.is_empty());
        assert_eq!(c.source_names().collect::<Vec<_>>(), ["empty"]);
        assert_eq!(c.read.summary(), None);
    }
}

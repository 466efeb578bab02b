//! Index lines sorted by their bytes, in memory up to a budget and in
//! sorted runs on disk past it, merged when written.

use std::io::{self, BufRead};

/// Index lines sorted by their bytes, as the archives sort CDXJ (`LC_ALL=C
/// sort`), in memory up to a budget and in sorted runs on disk past it,
/// merged at the end: a day's crawl can be indexed in bounded memory.
///
/// ```
/// use urlsift_warc::index::SortedLines;
///
/// let dir = tempfile::tempdir().unwrap();
/// let mut lines = SortedLines::new(16, dir.path().to_path_buf());
/// for line in ["org,b)/ 2", "com,a)/ 1", "net,c)/ 3", "com,a)/ 0"] {
///     lines.push(line.as_bytes().to_vec()).unwrap();
/// }
/// let mut out = Vec::new();
/// lines.write_to(&mut out).unwrap();
/// assert_eq!(out, b"com,a)/ 0\ncom,a)/ 1\nnet,c)/ 3\norg,b)/ 2\n");
/// ```
pub struct SortedLines {
    lines: Vec<Vec<u8>>,
    bytes: usize,
    budget: usize,
    dir: std::path::PathBuf,
    runs: Vec<std::path::PathBuf>,
}

impl SortedLines {
    /// Lines held up to `budget` bytes, runs written in `dir`.
    pub fn new(budget: usize, dir: std::path::PathBuf) -> SortedLines {
        SortedLines {
            lines: Vec::new(),
            bytes: 0,
            budget: budget.max(1),
            dir,
            runs: Vec::new(),
        }
    }

    /// Adds a line (without its line end).
    pub fn push(&mut self, line: Vec<u8>) -> io::Result<()> {
        self.bytes += line.len() + 32;
        self.lines.push(line);
        if self.bytes > self.budget {
            self.spill()?;
        }
        Ok(())
    }

    /// How many runs went to disk.
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    fn spill(&mut self) -> io::Result<()> {
        self.lines.sort_unstable();
        let path = self.dir.join(format!("run-{}", self.runs.len()));
        let mut w = io::BufWriter::new(std::fs::File::create(&path)?);
        for line in self.lines.drain(..) {
            io::Write::write_all(&mut w, &line)?;
            io::Write::write_all(&mut w, b"\n")?;
        }
        io::Write::flush(&mut w)?;
        self.runs.push(path);
        self.bytes = 0;
        Ok(())
    }

    /// Writes every line, in byte order, each ended by `\n`.
    pub fn write_to(mut self, out: &mut impl io::Write) -> io::Result<()> {
        self.lines.sort_unstable();
        if self.runs.is_empty() {
            for line in &self.lines {
                out.write_all(line)?;
                out.write_all(b"\n")?;
            }
            return Ok(());
        }
        // A k-way merge of the runs and what is in memory.
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let mut readers = Vec::new();
        for path in &self.runs {
            readers.push(io::BufReader::with_capacity(
                1 << 16,
                std::fs::File::open(path)?,
            ));
        }
        let mut memory = self.lines.into_iter();
        let mut heap = BinaryHeap::new();
        let next = |r: &mut io::BufReader<std::fs::File>| -> io::Result<Option<Vec<u8>>> {
            let mut line = Vec::new();
            match r.read_until(b'\n', &mut line)? {
                0 => Ok(None),
                _ => {
                    line.pop();
                    Ok(Some(line))
                }
            }
        };
        for (i, r) in readers.iter_mut().enumerate() {
            if let Some(line) = next(r)? {
                heap.push(Reverse((line, i)));
            }
        }
        let from_memory = readers.len();
        if let Some(line) = memory.next() {
            heap.push(Reverse((line, from_memory)));
        }
        while let Some(Reverse((line, i))) = heap.pop() {
            out.write_all(&line)?;
            out.write_all(b"\n")?;
            let more = match i == from_memory {
                true => memory.next(),
                false => next(&mut readers[i])?,
            };
            if let Some(line) = more {
                heap.push(Reverse((line, i)));
            }
        }
        Ok(())
    }
}

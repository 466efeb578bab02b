//! What a worker makes of one chunk ([`Processed`]): its output, which
//! may name runs of the chunk's own input (records already in their output
//! form are not copied, the writer takes them from the input), its tally,
//! and its bad records as the policy left them.
//!
//! ```
//! use std::sync::Arc;
//! use urlsift_records::{Chunk, Format, Processed, Source};
//!
//! let source = Arc::new(Source { name: "t".into(), format: Format::Lines });
//! let chunk = Chunk::plain(source, 1, 0, b"https://a.example/\nHTTPS://B.EXAMPLE\n".to_vec());
//! let mut p: Processed<()> = Processed::new(&chunk);
//! p.copy_input(0..19); // the first line is its own output: not copied
//! p.append().extend_from_slice(b"https://b.example/\n");
//! p.flush();
//! let out: Vec<u8> = p.output(chunk.data()).flatten().copied().collect();
//! assert_eq!(out, b"https://a.example/\nhttps://b.example/\n");
//! assert!(!p.all_in_out());
//! ```

use std::ops::Range;

use super::chunk::{self, Chunk};
use super::reason::Reason;
use super::tally::Tally;

/// What a worker made of one chunk.
pub struct Processed<X> {
    /// Records ready to write, terminators included.
    pub out: Vec<u8>,
    /// The chunk's counts.
    pub tally: Tally,
    /// Under `--rejects`: the bad records, for the ledger to write.
    pub rejects: Vec<Rejected>,
    /// Under `--strict`: the bad line at which the chunk stopped.
    pub stopped: Option<Rejected>,
    /// Under `--keep-invalid`: where each passed-through bad line sits in
    /// `out` (start, end including the terminator).
    pub passed_through: Vec<(usize, usize)>,
    /// Subcommand-specific results.
    pub extra: X,
    /// Runs of the chunk's input that belong in the output: `(at, range)`
    /// puts `data[range]` before `out[at..]` (see [`Processed::copy_input`]).
    input_runs: Vec<(usize, Range<usize>)>,
    /// The run still being extended.
    pending: Range<usize>,
}

impl<X: Default> Processed<X> {
    /// Nothing yet made of `chunk`, in its recycled output buffer.
    pub fn new(chunk: &Chunk) -> Self {
        let spare = chunk.spare.lock().map(|mut s| std::mem::take(&mut *s));
        let mut out = spare.unwrap_or_default();
        out.reserve_exact(chunk::output_capacity(chunk.data.len()));
        Processed {
            out,
            tally: Tally {
                bytes: chunk.data.len() as u64,
                ..Tally::default()
            },
            rejects: Vec::new(),
            stopped: None,
            passed_through: Vec::new(),
            extra: X::default(),
            input_runs: Vec::new(),
            pending: 0..0,
        }
    }
}

impl<X> Processed<X> {
    /// Outputs the bytes `range` of the chunk's input, without copying
    /// them: adjacent ranges (runs of lines already in normal form) merge
    /// into one run, which the writer takes from the input itself. Anything
    /// else written to `out` must come after a call to [`Processed::flush`].
    #[inline(always)]
    pub fn copy_input(&mut self, range: Range<usize>) {
        if self.pending.end != range.start || self.pending.is_empty() {
            self.flush();
            self.pending.start = range.start;
        }
        self.pending.end = range.end;
    }

    /// The output buffer, to append a record to: what is appended follows
    /// everything output so far, runs of input included (it ends the
    /// current run, as [`Processed::flush`] does).
    #[inline]
    pub fn append(&mut self) -> &mut Vec<u8> {
        self.flush();
        &mut self.out
    }

    /// Ends the current input run: what is written to `out` next follows it.
    #[inline]
    pub fn flush(&mut self) {
        if !self.pending.is_empty() {
            let run = std::mem::replace(&mut self.pending, 0..0);
            self.input_runs.push((self.out.len(), run));
        }
    }

    /// Whether all of the output is in `out` (no input runs): what a
    /// consumer that reads `out` directly relies on.
    pub fn all_in_out(&self) -> bool {
        self.input_runs.is_empty() && self.pending.is_empty()
    }

    /// The output in order: `out` with the input runs (from `data`, the
    /// chunk's input) in their places.
    pub fn output<'a>(&'a self, data: &'a [u8]) -> impl Iterator<Item = &'a [u8]> {
        debug_assert!(self.pending.is_empty(), "flushed at the end of the chunk");
        let mut at = 0;
        let mut runs = self.input_runs.iter();
        let mut next_run: Option<&[u8]> = None;
        let mut done = false;
        std::iter::from_fn(move || {
            if let Some(run) = next_run.take() {
                return Some(run);
            }
            if done {
                return None;
            }
            match runs.next() {
                Some((pos, range)) => {
                    let own = &self.out[at..*pos];
                    at = *pos;
                    next_run = Some(&data[range.clone()]);
                    Some(own)
                }
                None => {
                    done = true;
                    Some(&self.out[at..])
                }
            }
        })
        .filter(|piece| !piece.is_empty())
    }
}

/// A bad record, remembered for `--rejects` and `--strict`.
pub struct Rejected {
    /// The line where it starts (0 where lines are not counted: WARC).
    pub line: u64,
    /// Where it starts in its source (after decompression).
    pub offset: u64,
    /// Why it is bad.
    pub reason: Reason,
    /// Its bytes, as they came (without the terminator).
    pub raw: Vec<u8>,
}

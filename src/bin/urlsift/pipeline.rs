//! The parallel engine every subcommand runs on: rayon workers take turns
//! at a shared reader that cuts the input into newline-aligned chunks, turn
//! each chunk into its results, and the calling thread consumes those
//! results in input order. Output is therefore byte-identical for any
//! thread count.
//!
//! This module also owns the bad-line policy (skip and count, `--rejects`,
//! `--keep-invalid`, `--strict`) and the summary that accounts for every line.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::sync::{Mutex, mpsc};
use std::time::Instant;

use crate::args::{InputArgs, PolicyArgs};
use crate::input::{self, BufPool, Chunk, ChunkReader, InputError, Reason};
use crate::output::{CliError, Sink};
use urlsift::simd::{Kernel, Runtime};

/// Counts that together account for every input line.
#[derive(Default, Debug, Clone)]
pub struct Tally {
    /// All lines read.
    pub lines: u64,
    /// Empty lines (counted, not parsed).
    pub empty: u64,
    /// Lines that parsed.
    pub valid: u64,
    /// Bad lines by reason.
    pub bad: BTreeMap<&'static str, u64>,
    /// Bytes read (after decompression).
    pub bytes: u64,
}

impl Tally {
    pub fn add_bad(&mut self, reason: Reason) {
        *self.bad.entry(reason.key()).or_insert(0) += 1;
    }

    pub fn bad_total(&self) -> u64 {
        self.bad.values().sum()
    }

    pub fn merge(&mut self, other: &Tally) {
        self.lines += other.lines;
        self.empty += other.empty;
        self.valid += other.valid;
        self.bytes += other.bytes;
        for (k, v) in &other.bad {
            *self.bad.entry(k).or_insert(0) += v;
        }
    }
}

/// A bad line, remembered for `--rejects` and `--strict`.
pub struct Rejected {
    pub line: u64,
    pub reason: Reason,
    pub raw: Vec<u8>,
}

/// What a worker made of one chunk.
pub struct Processed<X> {
    /// Records ready to write, terminators included.
    pub out: Vec<u8>,
    pub tally: Tally,
    pub rejects: Vec<Rejected>,
    /// Under `--strict`: the bad line at which the chunk stopped.
    pub stopped: Option<Rejected>,
    /// Under `--keep-invalid`: where each passed-through bad line sits in
    /// `out` (start, end including the terminator).
    pub kept: Vec<(usize, usize)>,
    /// Subcommand-specific results.
    pub extra: X,
    /// Runs of the chunk's input that belong in the output: `(at, range)`
    /// puts `data[range]` before `out[at..]` (see [`Processed::copy_input`]).
    input_runs: Vec<(usize, std::ops::Range<usize>)>,
    /// The run still being extended.
    pending: std::ops::Range<usize>,
}

impl<X: Default> Processed<X> {
    pub fn new(chunk: &Chunk) -> Self {
        let spare = chunk.spare.lock().map(|mut s| std::mem::take(&mut *s));
        let mut out = spare.unwrap_or_default();
        out.reserve_exact(input::output_capacity(chunk.data.len()));
        Processed {
            out,
            tally: Tally {
                bytes: chunk.data.len() as u64,
                ..Tally::default()
            },
            rejects: Vec::new(),
            stopped: None,
            kept: Vec::new(),
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
    #[inline]
    pub fn copy_input(&mut self, range: std::ops::Range<usize>) {
        if self.pending.end != range.start || self.pending.is_empty() {
            self.flush();
            self.pending.start = range.start;
        }
        self.pending.end = range.end;
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

/// How a subcommand treats bad lines, as seen by the workers.
#[derive(Clone, Copy, Debug, Default)]
pub struct Policy {
    pub keep_invalid: bool,
    pub strict: bool,
    pub record_rejects: bool,
}

impl Policy {
    pub fn from_args(a: &PolicyArgs) -> Policy {
        Policy {
            keep_invalid: a.keep_invalid,
            strict: a.strict,
            record_rejects: a.rejects.is_some(),
        }
    }

    /// Handles a bad line: counts it, then keeps, records or stops on it.
    /// Returns false when the worker must stop the chunk (`--strict`).
    pub fn bad_line<X>(
        &self,
        p: &mut Processed<X>,
        number: u64,
        raw: &[u8],
        reason: Reason,
        terminator: u8,
    ) -> bool {
        p.tally.add_bad(reason);
        let rejected = || Rejected {
            line: number,
            reason,
            raw: raw.to_vec(),
        };
        if self.strict {
            p.stopped = Some(rejected());
            return false;
        }
        if self.keep_invalid {
            let start = p.out.len();
            p.out.extend_from_slice(raw);
            p.out.push(terminator);
            p.kept.push((start, p.out.len()));
        }
        if self.record_rejects {
            p.rejects.push(rejected());
        }
        true
    }
}

/// Engine settings shared by all subcommands.
pub struct Engine {
    pub files: Vec<std::path::PathBuf>,
    pub chunk_size: usize,
    pub pool: rayon::ThreadPool,
    pub progress: bool,
}

impl Engine {
    pub fn new(a: &InputArgs) -> Result<Engine, CliError> {
        let mut files = a.files.clone();
        if files.is_empty() {
            files.push("-".into());
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(a.threads.unwrap_or(0))
            .thread_name(|i| format!("urlsift-worker-{i}"))
            .build()
            .map_err(|e| CliError::Usage(format!("cannot start worker threads: {e}")))?;
        Ok(Engine {
            files,
            chunk_size: usize::try_from(a.chunk_size).unwrap_or(usize::MAX).max(1),
            pool,
            progress: !a.quiet && std::io::stderr().is_terminal(),
        })
    }

    /// Runs `work` on every chunk in parallel and `consume` on the results in
    /// input order. `consume` returning `Ok(false)` stops the run early.
    ///
    /// Each worker takes the shared reader's next chunk, works on it and
    /// sends the result back; this thread puts the results in order and
    /// consumes them (writing, the dedup seen-set), overlapping with the
    /// workers. Reading is part of each worker's share: with `-j1` one
    /// thread reads and parses, with `-j2` two do, taking turns at the
    /// reader. At most a few chunks per worker are in flight: a worker
    /// takes a ticket before reading, and a ticket comes back only when
    /// its chunk has been consumed.
    pub fn run<X: Send>(
        &self,
        work: impl Fn(&Chunk) -> Processed<X> + Sync,
        mut consume: impl FnMut(&Chunk, &mut Processed<X>) -> Result<bool, CliError>,
    ) -> Result<(), CliError> {
        let threads = self.pool.current_num_threads();
        let max_in_flight = threads * 2 + 2;
        let progress = self.progress.then(progress_bar);
        let started = Instant::now();
        // Keep every buffer that can be in circulation (an input and an
        // output buffer per chunk in flight, plus one being filled per
        // worker), so none is freed and faulted in again.
        let pool = BufPool::new(2 * (max_in_flight + threads) + 2, self.chunk_size);
        let reader = Mutex::new(ChunkReader::new(self.files.clone(), self.chunk_size));
        let (ticket_tx, ticket_rx) = mpsc::sync_channel::<()>(max_in_flight);
        for _ in 0..max_in_flight {
            ticket_tx
                .send(())
                .expect("the channel has room for every ticket");
        }
        let ticket_rx = Mutex::new(ticket_rx);
        let (pool, reader, ticket_rx, work) = (&pool, &reader, &ticket_rx, &work);
        let (mut lines, mut bytes) = (0u64, 0u64);
        let result = self.pool.in_place_scope(|s| -> Result<(), CliError> {
            let (res_tx, res_rx) = mpsc::channel::<(u64, Done<X>)>();
            for _ in 0..threads {
                let res_tx = res_tx.clone();
                s.spawn(move |_| {
                    worker(reader, pool, ticket_rx, work, &res_tx);
                });
            }
            drop(res_tx);
            // Owned here, so returning early (an error, or `consume`
            // stopping) drops it and wakes workers waiting for a ticket.
            let ticket_tx = ticket_tx;
            let mut ready: BTreeMap<u64, Done<X>> = BTreeMap::new();
            let mut consumed = 0u64;
            loop {
                while let Some(done) = ready.remove(&consumed) {
                    consumed += 1;
                    let (chunk, mut p) = done.map_err(CliError::Input)?;
                    lines += p.tally.lines;
                    bytes += p.tally.bytes;
                    let go_on = consume(&chunk, &mut p)?;
                    pool.put(chunk.data);
                    pool.put(p.out);
                    if !go_on {
                        return Ok(());
                    }
                    // The receiving workers are gone only once reading ended.
                    let _ = ticket_tx.try_send(());
                    if let Some(pb) = &progress {
                        let secs = started.elapsed().as_secs_f64().max(1e-9);
                        pb.set_position(bytes);
                        pb.set_message(format!("{lines} URLs, {:.0} URLs/s", lines as f64 / secs));
                    }
                }
                match res_rx.recv() {
                    Ok((seq, done)) => {
                        ready.insert(seq, done);
                    }
                    // Every worker has stopped and every result is in.
                    Err(_) => {
                        debug_assert!(ready.is_empty(), "results are numbered without gaps");
                        return Ok(());
                    }
                }
            }
        });
        if let Some(pb) = progress {
            pb.finish_and_clear();
        }
        result
    }
}

/// A worker's result: a chunk and what it made of it, or the read error
/// that ended the input at that point.
type Done<X> = Result<(Chunk, Processed<X>), InputError>;

/// One worker: takes a ticket, reads the next chunk, works on it and sends
/// the result with the chunk's number; stops at the end of the input, after
/// a read error (sent in order like a result), or when the consumer has
/// stopped (no more tickets, or nobody receiving).
fn worker<X>(
    reader: &Mutex<ChunkReader>,
    pool: &BufPool,
    tickets: &Mutex<mpsc::Receiver<()>>,
    work: &(impl Fn(&Chunk) -> Processed<X> + Sync),
    results: &mpsc::Sender<(u64, Done<X>)>,
) {
    loop {
        let ticket = match tickets.lock() {
            Ok(t) => t.recv(),
            Err(_) => return,
        };
        if ticket.is_err() {
            return;
        }
        let next = match reader.lock() {
            Ok(mut r) => r.next_numbered(pool),
            Err(_) => return,
        };
        let Some((seq, next)) = next else { return };
        let done = match next {
            Err(e) => Err(e),
            Ok(chunk) => {
                if let Ok(mut spare) = chunk.spare.lock() {
                    *spare = pool.get(input::output_capacity(chunk.data.len()));
                }
                let p = work(&chunk);
                Ok((chunk, p))
            }
        };
        let failed = done.is_err();
        if results.send((seq, done)).is_err() || failed {
            return;
        }
    }
}

fn progress_bar() -> indicatif::ProgressBar {
    let pb = indicatif::ProgressBar::new_spinner();
    pb.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} {binary_bytes} read, {binary_bytes_per_sec} ({msg}) {elapsed}",
        )
        .expect("valid progress template"),
    );
    pb.set_message("starting");
    pb.enable_steady_tick(std::time::Duration::from_millis(200));
    pb
}

/// Writes the standard per-chunk results: output, rejects, strict stop.
pub struct Standard {
    pub sink: Sink,
    pub rejects: Option<Sink>,
    pub tally: Tally,
    pub files: usize,
}

impl Standard {
    pub fn consume<X>(&mut self, chunk: &Chunk, p: &mut Processed<X>) -> Result<bool, CliError> {
        self.tally.merge(&p.tally);
        for piece in p.output(&chunk.data) {
            self.sink.write(piece)?;
        }
        if let Some(r) = &mut self.rejects {
            for rej in p.rejects.iter().chain(&p.stopped) {
                write_reject(r, &chunk.source.name, rej)?;
            }
        }
        if let Some(stop) = &p.stopped {
            return Err(strict_stop(&chunk.source.name, stop, self.rejects.take()));
        }
        Ok(true)
    }

    /// Commits the outputs of a successful run.
    pub fn finish(self) -> Result<Tally, CliError> {
        self.sink.commit()?;
        if let Some(r) = self.rejects {
            r.commit()?;
        }
        Ok(self.tally)
    }
}

/// The `--strict` error for `stop`. The rejects file, which ends with the
/// offending line, is kept (the output file is not: it would be partial).
pub fn strict_stop(source: &str, stop: &Rejected, rejects: Option<Sink>) -> CliError {
    if let Some(Err(e)) = rejects.map(Sink::commit) {
        return e;
    }
    CliError::Strict(format!(
        "{source}:{}: {} (stopped by --strict)",
        stop.line, stop.reason
    ))
}

/// One rejects record: `source<TAB>line<TAB>reason<TAB>raw line`.
pub fn write_reject(sink: &mut Sink, source: &str, rej: &Rejected) -> Result<(), CliError> {
    let head = format!("{source}\t{}\t{}\t", rej.line, rej.reason);
    sink.write(head.as_bytes())?;
    sink.record(&rej.raw)
}

/// The stderr summary: every line is one of valid, bad or empty.
pub fn summary(t: &Tally, files: usize, kept: bool, extra: &str) -> String {
    let mut s = format!(
        "urlsift: {} lines from {} input{}: {} valid, {} empty, {} bad",
        t.lines,
        files,
        if files == 1 { "" } else { "s" },
        t.valid,
        t.empty,
        t.bad_total()
    );
    if !t.bad.is_empty() {
        let reasons: Vec<String> = t.bad.iter().map(|(k, v)| format!("{v} {k}")).collect();
        s.push_str(&format!(
            " ({}; {})",
            reasons.join(", "),
            if kept { "passed through" } else { "skipped" }
        ));
    }
    s.push_str(extra);
    s
}

/// What a [`LineJob`] does with each text line: `Err(reason)` for a line
/// it cannot use. Closures implement it. A hot loop run by
/// [`urlsift::simd::with_kernel`] implements it on a struct instead, with
/// `line` marked `#[inline(always)]`: a closure stays a function of its
/// own, compiled without the kernel's CPU features, so the kernel could
/// not inline into it.
pub trait PerLine<X> {
    /// Whether clean chunks are split by [`urlsift::batch::lines`], whose
    /// scan also does the fast path's classification (wasted on work that
    /// does not call [`PerLine::line_of`]'s href).
    const SCANS_URLS: bool = false;

    fn line(&mut self, p: &mut Processed<X>, number: u64, line: &str) -> Result<(), Reason>;

    /// A line of clean text, with what the line scan found for the fast
    /// path ([`urlsift::BatchParser::href_of_line`] uses it).
    #[inline(always)]
    fn line_of(
        &mut self,
        p: &mut Processed<X>,
        number: u64,
        line: &urlsift::batch::Line<'_>,
    ) -> Result<(), Reason> {
        self.line(p, number, line.as_str())
    }
}

impl<X, F: FnMut(&mut Processed<X>, u64, &str) -> Result<(), Reason>> PerLine<X> for F {
    #[inline(always)]
    fn line(&mut self, p: &mut Processed<X>, number: u64, line: &str) -> Result<(), Reason> {
        self(p, number, line)
    }
}

/// The per-line loop shared by the subcommands that follow the bad-line policy.
pub struct LineJob {
    pub max_line: usize,
    pub policy: Policy,
    pub terminator: u8,
    /// Under `--keep-invalid`, also pass empty lines through (normalize keeps
    /// output lines aligned with input lines).
    pub pass_empty: bool,
}

impl LineJob {
    /// Classifies each line of `chunk`; `f` handles text lines and returns
    /// `Err(reason)` for lines it cannot use.
    pub fn run<X: Default>(
        &self,
        chunk: &Chunk,
        f: impl FnMut(&mut Processed<X>, u64, &str) -> Result<(), Reason>,
    ) -> Processed<X> {
        self.run_with(chunk, X::default(), f)
    }

    /// Like [`LineJob::run`], starting from a recycled `extra`.
    pub fn run_with<X: Default>(
        &self,
        chunk: &Chunk,
        extra: X,
        f: impl FnMut(&mut Processed<X>, u64, &str) -> Result<(), Reason>,
    ) -> Processed<X> {
        self.run_in(Runtime, chunk, extra, f)
    }

    /// Like [`LineJob::run_with`], with a given SIMD kernel (for work run
    /// by [`urlsift::simd::with_kernel`]).
    #[inline(always)]
    pub fn run_in<K: Kernel, X: Default, F: PerLine<X>>(
        &self,
        k: K,
        chunk: &Chunk,
        extra: X,
        mut f: F,
    ) -> Processed<X> {
        let mut p = Processed::new(chunk);
        p.extra = extra;
        let facts = input::ChunkFacts::of(chunk, self.max_line);
        if let Some(text) = facts.text().filter(|_| F::SCANS_URLS) {
            // Clean text: each line's end is found by the same SIMD pass
            // that classifies it for the fast path.
            let mut number = chunk.first_line;
            for line in urlsift::batch::lines(k, text) {
                let raw = line.as_str();
                number += 1;
                let reason = if raw.is_empty() {
                    self.empty_line(&mut p);
                    continue;
                } else if raw.len() > self.max_line {
                    Reason::TooLong
                } else {
                    match f.line_of(&mut p, number - 1, &line) {
                        Ok(()) => {
                            p.tally.valid += 1;
                            continue;
                        }
                        Err(r) => r,
                    }
                };
                if !self.bad_line(&mut p, number - 1, raw.as_bytes(), reason) {
                    break;
                }
            }
            p.tally.lines = number - chunk.first_line;
            p.flush();
            return p;
        }
        for (number, raw) in chunk.lines_in(k) {
            p.tally.lines += 1;
            let reason = match facts.classify(raw) {
                input::Line::Empty => {
                    self.empty_line(&mut p);
                    continue;
                }
                input::Line::Text(s) => match f.line(&mut p, number, s) {
                    Ok(()) => {
                        p.tally.valid += 1;
                        continue;
                    }
                    Err(r) => r,
                },
                input::Line::Bad(r) => r,
            };
            if !self.bad_line(&mut p, number, raw, reason) {
                break;
            }
        }
        p.flush();
        p
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
    #[cold]
    fn bad_line<X>(&self, p: &mut Processed<X>, number: u64, raw: &[u8], reason: Reason) -> bool {
        p.flush();
        self.policy
            .bad_line(p, number, raw, reason, self.terminator)
    }
}

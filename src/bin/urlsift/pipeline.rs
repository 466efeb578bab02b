//! The parallel engine every subcommand runs on: rayon workers take turns
//! at a shared reader that cuts the input into record-aligned chunks, turn
//! each chunk into its results, and the calling thread consumes those
//! results in input order. Output is therefore byte-identical for any
//! thread count.
//!
//! This module also owns the bad-record policy (skip and count,
//! `--rejects`, `--keep-invalid`, `--strict`), the pieces of over-long
//! lines, and the summary that accounts for every record.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::sync::{Mutex, mpsc};
use std::time::Instant;

use crate::args::{InputArgs, PolicyArgs};
use crate::input::{self, BufPool, Chunk, InputError, Reason};
use crate::output::{CliError, Sink};
use crate::reader::{ChunkReader, Settings};
use crate::records::{Kind, Rec};

/// Counts that together account for every input record (a line, for
/// the line formats).
#[derive(Default, Debug, Clone)]
pub struct Tally {
    /// All records read.
    pub lines: u64,
    /// Empty records: no URL to parse (counted, not parsed).
    pub empty: u64,
    /// Records whose URL parsed.
    pub valid: u64,
    /// Bad records by reason.
    pub bad: BTreeMap<&'static str, u64>,
    /// Bytes read (after decompression).
    pub bytes: u64,
    /// Valid records dropped by a filter (`--site`, `--ext`, ...).
    pub filtered: u64,
    /// Edits (`--set`, `--append-param`) the standard refused.
    pub edits_refused: u64,
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
        self.filtered += other.filtered;
        self.edits_refused += other.edits_refused;
        for (k, v) in &other.bad {
            *self.bad.entry(k).or_insert(0) += v;
        }
    }
}

/// A bad record, remembered for `--rejects` and `--strict`.
pub struct Rejected {
    /// The line where it starts (0 where lines are not counted: WARC).
    pub line: u64,
    /// Where it starts in its source (after decompression).
    pub offset: u64,
    pub reason: Reason,
    pub raw: Vec<u8>,
}

/// What `--keep-invalid` passes through for a bad record.
pub enum Keep<'a> {
    /// The raw line and the output terminator.
    Raw,
    /// These bytes (the record with its own terminator).
    Bytes(&'a [u8]),
    /// Nothing: read-only formats write URL lines only.
    No,
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

    /// Handles a bad record: counts it, then keeps, records or stops on
    /// it. Returns false when the worker must stop the chunk (`--strict`).
    pub fn bad_record<X>(
        &self,
        p: &mut Processed<X>,
        rec: &Rec<'_>,
        keep: Keep<'_>,
        reason: Reason,
        terminator: u8,
    ) -> bool {
        p.tally.add_bad(reason);
        let raw = rec.raw();
        let rejected = || Rejected {
            line: rec.line,
            offset: rec.offset,
            reason,
            raw: raw.to_vec(),
        };
        if self.strict {
            p.stopped = Some(rejected());
            return false;
        }
        if self.keep_invalid {
            let start = p.out.len();
            match keep {
                Keep::Raw => {
                    p.out.extend_from_slice(raw);
                    p.out.push(terminator);
                }
                Keep::Bytes(b) => {
                    p.out.extend_from_slice(b);
                    if !b.ends_with(b"\n") {
                        p.out.push(b'\n');
                    }
                }
                Keep::No => {}
            }
            if p.out.len() > start {
                p.kept.push((start, p.out.len()));
            }
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
    /// How the reader cuts and checks the sources.
    pub read: Settings,
}

impl Engine {
    pub fn new(a: &InputArgs) -> Result<Engine, CliError> {
        let mut files = a.files.clone();
        if files.is_empty() {
            files.push("-".into());
        }
        if let Some(e) = input::missing(&files) {
            return Err(CliError::Input(e));
        }
        let spec = a.format_spec();
        let kinds: Vec<Kind> = files.iter().map(|f| spec.kind_for(f)).collect();
        if let Some(other) = kinds.iter().find(|k| **k != kinds[0]) {
            return Err(CliError::Usage(format!(
                "the inputs have different formats ({} and {other}, by file name); \
                 name one with --input-format or run them separately",
                kinds[0]
            )));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(a.threads.unwrap_or(0))
            .thread_name(|i| format!("urlsift-worker-{i}"))
            .build()
            .map_err(|e| CliError::Usage(format!("cannot start worker threads: {e}")))?;
        let chunk_size = usize::try_from(a.chunk_size).unwrap_or(usize::MAX).max(1);
        Ok(Engine {
            files,
            chunk_size,
            pool,
            progress: !a.quiet && std::io::stderr().is_terminal(),
            read: Settings {
                chunk_size,
                max_record: usize::try_from(a.max_line_bytes).unwrap_or(usize::MAX),
                spec,
                writes_records: false,
                // Rejects and `--strict` stops are numbered by the writer;
                // a subcommand whose workers print line numbers (`check`,
                // `extract` with a `line` field) turns counting on.
                count_lines: false,
            },
        })
    }

    /// The format all inputs are read in.
    pub fn kind(&self) -> Kind {
        self.read.spec.kind_for(&self.files[0])
    }

    /// Runs `work` on every chunk in parallel and `consume` on the results in
    /// input order. `consume` returning `Ok(false)` stops the run early.
    /// Returns the read errors that ended sources early (each source's
    /// records before its error were processed; the run went on with the
    /// next source).
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
    ) -> Result<Vec<InputError>, CliError> {
        let threads = self.pool.current_num_threads();
        let max_in_flight = threads * 2 + 2;
        let progress = self.progress.then(progress_bar);
        let started = Instant::now();
        // Keep every buffer that can be in circulation (an input and an
        // output buffer per chunk in flight, plus one being filled per
        // worker), so none is freed and faulted in again.
        let pool = BufPool::new(2 * (max_in_flight + threads) + 2, self.chunk_size);
        let mut settings = self.read.clone();
        settings.chunk_size = self.chunk_size;
        let reader = Mutex::new(ChunkReader::new(self.files.clone(), settings));
        let mut errors = Vec::new();
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
                    let (chunk, mut p) = match done {
                        Ok(done) => done,
                        Err(e) if e.usage => {
                            return Err(CliError::Usage(format!("{}: {}", e.name, e.error)));
                        }
                        Err(e) => {
                            errors.push(e);
                            let _ = ticket_tx.try_send(());
                            continue;
                        }
                    };
                    lines += p.tally.lines;
                    bytes += p.tally.bytes;
                    let go_on = consume(&chunk, &mut p)?;
                    chunk.data.recycle(pool);
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
        result.map(|()| errors)
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
                // (A piece of an over-long line makes no output of its own.)
                if chunk.oversize.is_none()
                    && let Ok(mut spare) = chunk.spare.lock()
                {
                    *spare = pool.get(input::output_capacity(chunk.data.len()));
                }
                let p = work(&chunk);
                Ok((chunk, p))
            }
        };
        // A read error ends its source; reading goes on with the next,
        // unless the flags do not fit the input.
        let stop = matches!(&done, Err(e) if e.usage);
        if results.send((seq, done)).is_err() || stop {
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

/// Numbers lines in their source for chunks that number them from their
/// own start (`Chunk::relative_lines`): the writer sees every chunk of a
/// source in order, so it adds up their lines.
#[derive(Default)]
pub struct LineBase {
    source: Option<std::sync::Arc<input::Source>>,
    /// The source line of the next chunk's first line.
    next: u64,
}

impl LineBase {
    /// What to add to `chunk`'s line numbers to make them the source's.
    pub fn offset(&mut self, chunk: &Chunk) -> u64 {
        if !chunk.relative_lines {
            return 0;
        }
        let same = self
            .source
            .as_ref()
            .is_some_and(|s| std::sync::Arc::ptr_eq(s, &chunk.source));
        if !same {
            self.source = Some(std::sync::Arc::clone(&chunk.source));
            self.next = 1;
        }
        self.next - 1
    }

    /// Moves past `chunk`, which held `lines` lines (a piece of an
    /// over-long line moves one line on at the line's end).
    pub fn advance(&mut self, chunk: &Chunk, lines: u64) {
        if chunk.relative_lines {
            self.next += match chunk.oversize {
                Some(piece) => u64::from(piece.last),
                None => lines,
            };
        }
    }

    /// Makes the numbers of `p`'s rejects the source's, and moves past
    /// the chunk.
    pub fn fix<X>(&mut self, chunk: &Chunk, p: &mut Processed<X>) {
        let add = self.offset(chunk);
        if add > 0 {
            for rej in p.rejects.iter_mut().chain(p.stopped.as_mut()) {
                rej.line += add;
            }
        }
        self.advance(chunk, p.tally.lines);
    }
}

/// Writes the standard per-chunk results: output, rejects, strict stop,
/// the pieces of over-long lines.
pub struct Standard {
    pub sink: Sink,
    pub rejects: Option<Sink>,
    pub tally: Tally,
    pub files: usize,
    pub policy: Policy,
    /// The noun for a record in the summary: `lines`, `records`.
    pub noun: &'static str,
    pub lines: LineBase,
}

impl Standard {
    pub fn consume<X>(&mut self, chunk: &Chunk, p: &mut Processed<X>) -> Result<bool, CliError> {
        if chunk.oversize.is_some() {
            let pass = self.policy.keep_invalid;
            self.oversize(chunk, pass)?;
            return Ok(true);
        }
        self.tally.merge(&p.tally);
        self.sink.write_pieces(p.output(&chunk.data))?;
        self.rejects_and_stop(chunk, p)
    }

    /// Writes a chunk's rejects; the `--strict` error if it stopped.
    pub fn rejects_and_stop<X>(
        &mut self,
        chunk: &Chunk,
        p: &mut Processed<X>,
    ) -> Result<bool, CliError> {
        self.lines.fix(chunk, p);
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

    /// A piece of a line over `--max-line-bytes`: counted once (as a bad
    /// line), streamed to the output when `pass` (`--keep-invalid`) and to
    /// `--rejects`, a stop under `--strict`.
    pub fn oversize(&mut self, chunk: &Chunk, pass: bool) -> Result<(), CliError> {
        let piece = chunk.oversize.expect("an over-long line's piece");
        let reason = Reason::TooLong;
        let line = chunk.first_line + self.lines.offset(chunk);
        self.lines.advance(chunk, 0);
        self.tally.bytes += chunk.data.len() as u64;
        if piece.first {
            self.tally.lines += 1;
            self.tally.add_bad(reason);
            if let Some(r) = &mut self.rejects {
                write_reject_head(r, &chunk.source.name, line, chunk.offset, reason)?;
            }
            if self.policy.strict {
                if let Some(r) = &mut self.rejects {
                    write_escaped(r, &chunk.data)?;
                    r.write(b"\n")?;
                }
                let stop = Rejected {
                    line,
                    offset: chunk.offset,
                    reason,
                    raw: Vec::new(),
                };
                return Err(strict_stop(&chunk.source.name, &stop, self.rejects.take()));
            }
        }
        if let Some(r) = &mut self.rejects {
            write_escaped(r, &chunk.data)?;
            if piece.last {
                r.write(b"\n")?;
            }
        }
        if pass {
            self.sink.write(&chunk.data)?;
            if piece.last {
                self.sink.write(&[self.sink.terminator()])?;
            }
        }
        Ok(())
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

/// Where a record is, in messages: `FILE:LINE`, or `FILE: byte N` where
/// lines are not counted (WARC).
pub fn locate(source: &str, line: u64, offset: u64) -> String {
    if line > 0 {
        format!("{source}:{line}")
    } else {
        format!("{source}: record at byte {offset}")
    }
}

/// The `--strict` error for `stop`. The rejects file, which ends with the
/// offending record, is kept (the output file is not: it would be partial).
pub fn strict_stop(source: &str, stop: &Rejected, rejects: Option<Sink>) -> CliError {
    if let Some(Err(e)) = rejects.map(Sink::commit) {
        return e;
    }
    CliError::Strict(format!(
        "{}: {} (stopped by --strict)",
        locate(source, stop.line, stop.offset),
        stop.reason
    ))
}

/// One rejects record: `source<TAB>line<TAB>byte offset<TAB>reason<TAB>raw
/// record`, the raw record with backslash, tab, CR and LF escaped as `\\`,
/// `\t`, `\r`, `\n` (the line is `-` where lines are not counted).
pub fn write_reject(sink: &mut Sink, source: &str, rej: &Rejected) -> Result<(), CliError> {
    write_reject_head(sink, source, rej.line, rej.offset, rej.reason)?;
    write_escaped(sink, &rej.raw)?;
    sink.write(b"\n")
}

fn write_reject_head(
    sink: &mut Sink,
    source: &str,
    line: u64,
    offset: u64,
    reason: Reason,
) -> Result<(), CliError> {
    let line = if line > 0 {
        line.to_string()
    } else {
        "-".to_string()
    };
    sink.write(format!("{source}\t{line}\t{offset}\t{reason}\t").as_bytes())
}

/// Writes `raw` with backslash, tab, CR and LF escaped.
fn write_escaped(sink: &mut Sink, raw: &[u8]) -> Result<(), CliError> {
    let mut start = 0;
    for (i, &b) in raw.iter().enumerate() {
        let esc: &[u8] = match b {
            b'\\' => b"\\\\",
            b'\t' => b"\\t",
            b'\r' => b"\\r",
            b'\n' => b"\\n",
            _ => continue,
        };
        sink.write(&raw[start..i])?;
        sink.write(esc)?;
        start = i + 1;
    }
    sink.write(&raw[start..])
}

/// The stderr summary: every record is one of valid, bad or empty.
pub fn summary(t: &Tally, files: usize, kept: bool, noun: &str, extra: &str) -> String {
    let mut s = format!(
        "urlsift: {} {noun} from {} input{}: {} valid, {} empty, {} bad",
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
    if t.filtered > 0 {
        s.push_str(&format!("; {} valid filtered out", t.filtered));
    }
    if t.edits_refused > 0 {
        s.push_str(&format!(
            "; {} edits refused by the standard (URLs left as they were)",
            t.edits_refused
        ));
    }
    s.push_str(extra);
    s
}

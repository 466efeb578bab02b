//! Gzip files of many small members (Common Crawl's `cdx-*.gz` index
//! shards and `.warc.gz` files, `cat a.gz b.gz`) and zstd files of many
//! frames (`pzstd`, `cat a.zst b.zst`, the seekable format) decoded on
//! several threads at once, with output byte-identical to decoding them in
//! order. Both are a [`Units`] format: units (members, frames) that decode
//! alone, one after another.
//!
//! A gzip member's end is known only by inflating it, so the next member's
//! start is guessed: a batch of compressed input is split at bytes that
//! look like a member header (`1f 8b 08`, no reserved flag), one split per
//! job, and each job decodes whole members from its split until it passes
//! the next. Those guesses may be wrong (the bytes can occur inside
//! compressed data, and a stored gzip file inside a member is made of
//! genuine-looking members), but a wrong guess is never used: decoding the
//! member that starts at byte `t` depends only on the bytes from `t`, so a
//! job's members are taken only when the job started exactly where the
//! members before it ended, beginning from a boundary that is known. What
//! is taken is therefore exactly what decoding in order gives. A zstd
//! frame's end is found without decoding, by walking its block headers
//! (`zstd::frame_end`), so its splits are not guesses; they are checked
//! the same way all the same.
//!
//! Anything else is left to the in-order decoder, from the last known
//! boundary: a unit that does not fit in a batch (one big member is the
//! usual gzip file, one frame the usual zstd file), a damaged or cut unit,
//! padding, garbage, a read error. So faults are reported exactly as
//! in-order decoding reports them. The in-order decoder hands back to the
//! jobs after small units.
//!
//! Jobs run on a pool of threads kept for the decoder's life; one batch
//! decodes while the one before it is handed out: each job's output
//! buffer handed over whole to the ring of decoded buffers
//! ([`Decode::take_ready`]), not copied into one of its own.

use std::collections::VecDeque;
use std::io::{self, Read};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};

use super::WholeCheck;
use super::compression::GZIP_MAGIC;
use super::fault::{Decode, UnitEnds};
use super::source::Source;
use super::unit::{self, UnitCodec};

/// The most jobs per batch ([`Units::JOBS_PER_CORE`] per core up to
/// this; at 8, sixteen cores decoded a file of small members no faster
/// than eight).
const MAX_JOBS: usize = 32;
/// A job stops before its output passes this many times its segment, or
/// 1 MiB if more (a gzip bomb of small members must not take memory
/// without bound).
const OUTPUT_CAP_PER_SEGMENT: usize = 16;

/// A compressed format of units that decode alone, one after another,
/// with an in-order decoder that can stop and start at their boundaries.
pub(super) trait Units: Decode + UnitCodec + 'static {
    /// Compressed bytes per job and batch.
    const SEGMENT: usize;
    /// A unit is small enough to try batches when it takes at most this
    /// share of a segment (1/N).
    const SMALL: usize;
    /// Batches are tried with at least this many cores (below, in order).
    const MIN_CORES: usize;
    /// Jobs per batch for each core. A batch ends when its slowest job
    /// does: with more jobs than cores, a core whose job finished early
    /// takes another's instead of waiting.
    const JOBS_PER_CORE: usize;
    /// The name of the pool's threads.
    const THREADS: &'static str;
    /// A decoder at a boundary, after `units` complete units, decoding
    /// with `dictionary` (a `.warc.zst` file's, see `zstd.rs`).
    fn resume(source: Source, units: u64, dictionary: Dictionary) -> Self;
    /// The dictionary the units are decoded with, if any.
    fn dictionary(&self) -> Dictionary;
    /// Where a job may start, at or after `from` and before `limit`, in
    /// `window` (whose first byte starts a unit).
    fn next_start(window: &[u8], from: usize, limit: usize) -> Option<usize>;

    /// The same decoder, knowing how the units before it ended.
    fn with_ends(self, ends: UnitEnds) -> Self {
        unit::with_ends(self, ends)
    }
    /// How the units decoded so far ended.
    fn ends(&self) -> UnitEnds {
        self.hold().ends()
    }
    /// The same decoder, handing bytes out before their unit's check.
    fn unheld(self) -> Self {
        unit::unheld(self)
    }
    /// Complete units and where the last began, when at a boundary.
    fn boundary(&self) -> Option<(u64, u64)> {
        unit::boundary(self)
    }
    /// Whether the input ended cleanly after the last unit.
    fn is_done(&self) -> bool {
        unit::is_done(self)
    }
    /// The input from where the decoder stands.
    fn into_source(self) -> Source {
        self.take_source()
    }
    /// Input bytes taken.
    fn offset(&self) -> u64 {
        self.source().offset()
    }
    /// Decodes, returning at each boundary when `pause` is set.
    fn decode_paused(&mut self, out: &mut [u8], pause: bool) -> io::Result<usize> {
        unit::decode_paused(self, out, pause)
    }
}

/// A dictionary every unit of a source is decoded with (a `.warc.zst`
/// file's dictionary frame): read by the in-order decoder, shared with
/// the jobs.
pub(super) type Dictionary = Option<Arc<[u8]>>;

pub(super) struct Members<D: Units> {
    mode: Mode<D>,
    /// Made on the first switch to batches.
    pool: Option<Pool>,
    jobs: usize,
    segment: usize,
    /// Consecutive small members seen in order, and how many it takes to
    /// try the jobs again (doubled each time a batch gets nowhere, so
    /// files of big members waste little on trying).
    streak: u64,
    patience: u64,
    /// What says a job's bytes are whole records ([`WholeCheck`]).
    whole: Option<WholeCheck>,
    /// Members taken from batches (tests: proof that batches ran).
    #[cfg(test)]
    pub batched: u64,
    /// Buffers handed over whole ([`Decode::take_ready`]; tests).
    #[cfg(test)]
    pub handed_over: u64,
}

enum Mode<D> {
    InOrder(D),
    Batches(Batches),
    /// Only while switching.
    Switching,
}

/// The state between batches: the compressed bytes from the last known
/// boundary on, and the members decoded but not yet handed out.
struct Batches {
    /// Compressed bytes from `base`, a boundary after `members` members:
    /// `window[..filled]` (the rest is room, zeroed once as it grows).
    window: Arc<Vec<u8>>,
    filled: usize,
    base: u64,
    members: u64,
    /// The units' dictionary, for the jobs.
    dictionary: Dictionary,
    inner: Box<dyn Read + Send>,
    eof: bool,
    /// A read error, to be met by the in-order decoder where it happened.
    read_error: Option<io::Error>,
    ready: VecDeque<Ready>,
    /// Output buffers to reuse.
    spare: Vec<Vec<u8>>,
    /// The batch being decoded: the window length it saw, and how many
    /// jobs it has.
    pending: Option<(usize, usize)>,
    /// How the units so far ended (the in-order decoder's, and each
    /// job's counted units').
    ends: UnitEnds,
}

/// Decoded members waiting to be handed out: `buf[pos..end]`, and the
/// marks of the [`WholeCheck`] they passed, if they did.
struct Ready {
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    whole: Option<Vec<usize>>,
}

/// What one job decoded: whole units from `start` to `end`, and how
/// they ended.
struct Chain {
    start: usize,
    end: usize,
    members: u64,
    ends: UnitEnds,
    buf: Vec<u8>,
    used: usize,
    /// The marks of the [`WholeCheck`] `buf[..used]` passed, if it did.
    whole: Option<Vec<usize>>,
}

/// Whether `format` is decoded in batches on `cores` cores.
pub(super) fn batches(format: super::Compression, cores: usize) -> bool {
    let least = match format {
        super::Compression::Gzip => super::gzip::Gzip::MIN_CORES,
        super::Compression::Zstd => super::zstd::Zstd::MIN_CORES,
    };
    cores >= least.max(2)
}

/// The decoder of a gzip or zstd `source` (`D`): in order until units
/// turn out small, then in batches on up to `cores` threads (the
/// machine's, at most `-j`: [`crate::cores::capped`]), each job's bytes
/// checked by `whole`, if any.
pub(super) fn decoder<D: Units>(
    source: Source,
    cores: usize,
    whole: Option<WholeCheck>,
) -> Box<dyn Decode> {
    if cores < D::MIN_CORES.max(2) {
        return Box::new(D::resume(source, 0, None));
    }
    let mut members =
        Members::<D>::with_jobs(source, (cores * D::JOBS_PER_CORE).min(MAX_JOBS), D::SEGMENT);
    members.whole = whole;
    Box::new(members)
}

impl<D: Units> Members<D> {
    /// With `jobs` jobs (at least 2) per batch of `segment` bytes each
    /// (tests use tiny segments, to put splits everywhere).
    pub fn with_jobs(source: Source, jobs: usize, segment: usize) -> Members<D> {
        assert!(jobs >= 2 && segment > 0);
        Members {
            mode: Mode::InOrder(D::resume(source, 0, None)),
            pool: None,
            jobs,
            segment,
            streak: 0,
            patience: 1,
            whole: None,
            #[cfg(test)]
            batched: 0,
            #[cfg(test)]
            handed_over: 0,
        }
    }

    /// After a member decoded in order: counts it, and switches to
    /// batches once enough small ones came in a row.
    fn after_member(&mut self) {
        let Mode::InOrder(units) = &self.mode else {
            return;
        };
        let Some((members, start)) = units.boundary() else {
            return;
        };
        if units.offset() - start > (self.segment / D::SMALL) as u64 {
            self.streak = 0;
            return;
        }
        self.streak += 1;
        if self.streak < self.patience {
            return;
        }
        let Mode::InOrder(units) = std::mem::replace(&mut self.mode, Mode::Switching) else {
            unreachable!()
        };
        let ends = units.ends();
        let dictionary = units.dictionary();
        let (head, inner, base, eof) = units.into_source().into_parts();
        self.mode = Mode::Batches(Batches {
            ends,
            dictionary,
            filled: head.len(),
            window: Arc::new(head),
            base,
            members,
            inner,
            eof,
            read_error: None,
            ready: VecDeque::new(),
            spare: Vec::new(),
            pending: None,
        });
    }

    /// Back to decoding in order, from the last known boundary.
    fn in_order(&mut self) {
        let Mode::Batches(b) = std::mem::replace(&mut self.mode, Mode::Switching) else {
            unreachable!()
        };
        // A read error is met again where it happened, after the window.
        let (inner, eof): (Box<dyn Read + Send>, bool) = match b.read_error {
            Some(e) => (Box::new(Failing(Some(e))), false),
            None => (b.inner, b.eof),
        };
        let source = Source::resume(&b.window[..b.filled], inner, b.base, eof);
        self.mode = Mode::InOrder(D::resume(source, b.members, b.dictionary).with_ends(b.ends));
        self.streak = 0;
    }
}

impl<D: Units> Decode for Members<D> {
    fn decode(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            match &mut self.mode {
                Mode::InOrder(units) => {
                    let n = units.decode_paused(out, true)?;
                    let done = units.is_done();
                    self.after_member();
                    if n > 0 || done || out.is_empty() {
                        return Ok(n);
                    }
                }
                Mode::Batches(b) => {
                    let n = b.serve(out);
                    if n > 0 || out.is_empty() {
                        return Ok(n);
                    }
                    self.next_batch();
                }
                Mode::Switching => unreachable!("switching is done in one step"),
            }
        }
    }

    fn take_ready(&mut self) -> Option<(Vec<u8>, usize, Option<Vec<usize>>)> {
        if matches!(&self.mode, Mode::Batches(b) if b.ready.is_empty()) {
            self.next_batch();
        }
        let Mode::Batches(b) = &mut self.mode else {
            return None;
        };
        let Ready {
            mut buf,
            pos,
            end,
            whole,
        } = b.ready.pop_front()?;
        if pos > 0 {
            // Partly copied out by `decode`: the rest moved to the front.
            buf.copy_within(pos..end, 0);
        }
        #[cfg(test)]
        {
            self.handed_over += 1;
        }
        Some((buf, end - pos, whole.filter(|_| pos == 0)))
    }

    fn recycle(&mut self, buf: Vec<u8>) {
        if let Mode::Batches(b) = &mut self.mode {
            b.spare.push(buf);
        }
    }
}

impl<D: Units> Members<D> {
    /// Waits for the batch in flight (starting one if none is) and starts
    /// the next; back to decoding in order if it got nowhere.
    fn next_batch(&mut self) {
        let Mode::Batches(b) = &mut self.mode else {
            return;
        };
        let jobs = self.jobs;
        let pool = self.pool.get_or_insert_with(|| Pool::new::<D>(jobs));
        if b.pending.is_none() {
            b.start_batch::<D>(pool, self.segment, self.whole.as_ref());
        }
        let before = b.members;
        let progress = b.finish_batch(pool);
        #[cfg(test)]
        {
            self.batched += b.members - before;
        }
        #[cfg(not(test))]
        let _ = before;
        if progress {
            // The next batch decodes while this one is handed out.
            b.start_batch::<D>(pool, self.segment, self.whole.as_ref());
        } else {
            self.patience = (self.patience * 2).min(1 << 16);
            self.in_order();
        }
    }
}

impl Batches {
    /// Copies decoded bytes into `out`.
    fn serve(&mut self, out: &mut [u8]) -> usize {
        let mut n = 0;
        while n < out.len() {
            let Some(front) = self.ready.front_mut() else {
                break;
            };
            let k = (front.end - front.pos).min(out.len() - n);
            out[n..n + k].copy_from_slice(&front.buf[front.pos..front.pos + k]);
            front.pos += k;
            n += k;
            if front.pos == front.end {
                let done = self.ready.pop_front().expect("front exists");
                self.spare.push(done.buf);
            }
        }
        n
    }

    /// Reads until the window holds `want` bytes or the input ends (or
    /// fails: the error waits for the in-order decoder).
    fn fill(&mut self, want: usize) {
        let window = Arc::get_mut(&mut self.window).expect("no job holds the window");
        while self.filled < want && !self.eof {
            if window.len() == self.filled {
                // Grown by doubling, up to what a batch needs.
                window.resize((window.len() * 2).max(1 << 16).min(want), 0);
            }
            let room = want.min(window.len());
            match self.inner.read(&mut window[self.filled..room]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.read_error = Some(e);
                    self.eof = true;
                }
            }
        }
    }

    /// Starts a batch on the pool: splits the window at guessed member
    /// starts and has each job decode its piece's whole members (and
    /// check them with `whole`).
    fn start_batch<D: Units>(&mut self, pool: &Pool, segment: usize, whole: Option<&WholeCheck>) {
        let batch = pool.jobs.len() * segment;
        // Room past the batch, for its last members to end in.
        self.fill(batch + segment);
        let len = self.filled;
        let limit = if self.eof { len } else { len.min(batch) };
        let mut splits = vec![0];
        for i in 1..pool.jobs.len() {
            let from = (i * segment).max(splits[i - 1] + 1);
            match D::next_start(&self.window[..len], from, limit) {
                Some(at) => splits.push(at),
                None => break,
            }
        }
        let ends = splits[1..].iter().copied().chain([limit]);
        let cap = (OUTPUT_CAP_PER_SEGMENT * segment).max(1 << 20);
        for (index, (&start, end)) in splits.iter().zip(ends).enumerate() {
            let job = Job {
                index,
                window: Arc::clone(&self.window),
                len,
                piece: (start, end),
                cap,
                buf: self.spare.pop().unwrap_or_default(),
                dictionary: self.dictionary.clone(),
                whole: whole.cloned(),
            };
            pool.jobs[index]
                .send(job)
                .expect("the pool's threads live as long as it");
        }
        self.pending = Some((len, splits.len()));
    }

    /// Waits for the batch and keeps the members that provably follow the
    /// last boundary. Returns whether there were any.
    fn finish_batch(&mut self, pool: &Pool) -> bool {
        let (len, count) = self.pending.take().expect("a batch was started");
        let mut chains: Vec<Option<Chain>> = (0..count).map(|_| None).collect();
        for _ in 0..count {
            let (index, c) = pool
                .done
                .recv()
                .expect("the pool's threads live as long as it");
            chains[index] = Some(c.expect("a decoding job panicked"));
        }
        let mut t = 0;
        for c in chains.into_iter().map(|c| c.expect("every job answered")) {
            if c.start == t && c.members > 0 {
                t = c.end;
                self.members += c.members;
                self.ends.merge(c.ends);
                self.ready.push_back(Ready {
                    buf: c.buf,
                    pos: 0,
                    end: c.used,
                    whole: c.whole,
                });
            } else {
                self.spare.push(c.buf);
            }
        }
        let window = Arc::get_mut(&mut self.window).expect("the jobs are done");
        window.copy_within(t..len, 0);
        self.filled = len - t;
        self.base += t as u64;
        t > 0
    }
}

/// A piece of a batch for a pool thread.
struct Job {
    index: usize,
    window: Arc<Vec<u8>>,
    len: usize,
    piece: (usize, usize),
    cap: usize,
    buf: Vec<u8>,
    dictionary: Dictionary,
    whole: Option<WholeCheck>,
}

/// The threads that run batch jobs, one per job of a batch, kept for the
/// decoder's life: a thread per job and batch would fault in fresh memory
/// each time. They exit when the pool is dropped.
struct Pool {
    jobs: Vec<Sender<Job>>,
    /// Each job's index and chain (`None` if it panicked).
    done: Receiver<(usize, Option<Chain>)>,
}

impl Pool {
    fn new<D: Units>(threads: usize) -> Pool {
        let (done_tx, done) = channel();
        let jobs = (0..threads)
            .map(|_| {
                let (tx, rx) = channel::<Job>();
                let done = done_tx.clone();
                std::thread::Builder::new()
                    .name(D::THREADS.into())
                    .spawn(move || {
                        for job in rx {
                            let Job {
                                index,
                                window,
                                len,
                                piece,
                                cap,
                                buf,
                                dictionary,
                                whole,
                            } = job;
                            let c = std::panic::catch_unwind(AssertUnwindSafe(|| {
                                let mut c = chain::<D>(&window, len, piece, cap, buf, dictionary);
                                if c.members > 0 {
                                    c.whole = whole.and_then(|w| w.check(&c.buf[..c.used]));
                                }
                                c
                            }));
                            // The window is the coordinator's again once
                            // every job has answered.
                            drop(window);
                            if done.send((index, c.ok())).is_err() {
                                return;
                            }
                        }
                    })
                    .expect("spawn a decoding thread");
                tx
            })
            .collect();
        Pool { jobs, done }
    }
}

/// The first byte at or after `from` (before `limit`) that looks like a
/// member header: magic, DEFLATE, no reserved flag.
pub(super) fn next_header(window: &[u8], from: usize, limit: usize) -> Option<usize> {
    let mut at = from;
    while at < limit {
        let found = at + memchr::memmem::find(&window[at..], &[GZIP_MAGIC[0], GZIP_MAGIC[1], 8])?;
        if found >= limit {
            return None;
        }
        if window.get(found + 3).is_some_and(|flags| flags & 0xe0 == 0) {
            return Some(found);
        }
        at = found + 1;
    }
    None
}

/// Decodes whole units from `start` while they start before `end`;
/// stops at the first that is not whole and valid within `window[..len]`.
fn chain<D: Units>(
    window: &Arc<Vec<u8>>,
    len: usize,
    (start, end): (usize, usize),
    cap: usize,
    mut buf: Vec<u8>,
    dictionary: Dictionary,
) -> Chain {
    let reader = WindowReader {
        window: Arc::clone(window),
        pos: start,
        len,
    };
    // (Jobs check each member before its bytes are used: no hold.)
    let source = Source::with_capacity(Box::new(reader), 1 << 16);
    let mut units = D::resume(source, 1, dictionary).unheld();
    let mut c = Chain {
        start,
        end: start,
        members: 0,
        ends: UnitEnds::default(),
        buf: Vec::new(),
        used: 0,
        whole: None,
    };
    'members: while c.end < end {
        let mut n = c.used;
        loop {
            if n == buf.len() {
                if n >= cap {
                    // A member that inflates this much is left to the
                    // in-order decoder, whose memory is bounded.
                    break 'members;
                }
                buf.resize((buf.len() * 2).max(1 << 16).min(cap), 0);
            }
            match units.decode_paused(&mut buf[n..], true) {
                Ok(k) => n += k,
                Err(_) => break 'members,
            }
            if units.is_done() {
                break 'members;
            }
            if let Some((m, _)) = units.boundary().filter(|&(m, _)| m > 1 + c.members) {
                // (Counted from the decoder: an empty unit may end in the
                // same call as the one before it.)
                c.members = m - 1;
                c.ends = units.ends();
                break;
            }
        }
        c.used = n;
        c.end = start + units.offset() as usize;
    }
    c.buf = buf;
    c
}

/// Reads `window[pos..len]`.
struct WindowReader {
    window: Arc<Vec<u8>>,
    pos: usize,
    len: usize,
}

impl Read for WindowReader {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let rest = &self.window[self.pos.min(self.len)..self.len];
        let n = rest.len().min(out.len());
        out[..n].copy_from_slice(&rest[..n]);
        self.pos += n;
        Ok(n)
    }
}

/// A reader that fails with the error the batches met.
struct Failing(Option<io::Error>);

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(self
            .0
            .take()
            .unwrap_or_else(|| io::Error::other("the input failed before")))
    }
}

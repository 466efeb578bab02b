//! The parallel engine: rayon workers take turns at the readers that cut
//! the inputs into record-aligned chunks (several inputs side by side:
//! `lanes.rs`), turn each chunk into its results, and the calling thread
//! consumes those results in input order. Output is therefore
//! byte-identical for any thread count.
//!
//! ```
//! use urlsift_records::{Engine, Job, Options, Processed};
//!
//! let tmp = tempfile::Builder::new().prefix("urlsift-doc-engine-").tempdir()?;
//! let dir = tmp.path();
//! let path = dir.join("urls.txt");
//! std::fs::write(&path, "HTTPS://A.example\n\nhttps://b.example/x/../y\n")?;
//!
//! let engine = Engine::new(vec![path], &Options::default())?;
//! let job = Job::default();
//! let mut hosts = Vec::new();
//! let errors = engine.run(
//!     // On the workers, chunk by chunk: each record's URL, parsed.
//!     |chunk| {
//!         job.run_parsed(chunk, None, Vec::new(), |p: &mut Processed<Vec<String>>, _rec, _text, parser| {
//!             let url = parser.last_mut().expect("parsed");
//!             p.extra.push(url.href().to_string());
//!             Ok(())
//!         })
//!     },
//!     // On this thread, in input order.
//!     |_chunk, p| {
//!         hosts.append(&mut p.extra);
//!         Ok::<_, urlsift_records::Error>(true)
//!     },
//! )?;
//! assert!(errors.is_empty());
//! assert_eq!(hosts, ["https://a.example/", "https://b.example/y"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use super::chunk::{self, BufPool, Chunk, Place};
use super::error::Error;
use super::format::{Kind, Spec};
use super::input::wacz::Part;
use super::input::{self, InputError, Location};
use super::lanes::{Lanes, Read};
use super::order::ChunkOrder;
use super::processed::Processed;
use super::reader::{ChunkReader, Settings};
use super::timings::{BusyClock, Clock, Clocks, Report, Shared, Started};

/// How the engine reads its inputs.
#[derive(Clone, Debug)]
pub struct Options {
    /// The format (`None`: by file name), the URL field and the header
    /// setting: `--input-format`, `--field`, `--no-header`.
    pub spec: Spec,
    /// The longest record held whole (`--max-line-bytes`); a longer one is
    /// a bad record, handed out in pieces and never held.
    pub max_record: usize,
    /// Bytes per chunk, the unit of parallel work.
    pub chunk_size: usize,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
}

impl Default for Options {
    /// Formats by file name, the default fields, 16 MiB records, 4 MiB
    /// chunks, one worker per core.
    fn default() -> Options {
        Options {
            spec: Spec::default(),
            max_record: 16 << 20,
            chunk_size: 4 << 20,
            threads: None,
        }
    }
}

/// The engine of a run: its inputs, the reader's settings and the worker
/// threads. Made by [`Engine::builder`] (or [`Engine::new`] from
/// [`Options`]); what it was built with does not change.
pub struct Engine {
    /// The inputs, in order (`-` is standard input), as named.
    files: Vec<PathBuf>,
    /// The inputs as read: `files`, each WACZ replaced by its entries.
    inputs: Vec<Location>,
    /// The worker threads.
    pool: rayon::ThreadPool,
    /// How the reader cuts and checks the inputs.
    read: Settings,
    /// Whether [`Engine::run`] times its stages ([`Engine::timings`]).
    timed: bool,
    /// The last timed run's report.
    report: Mutex<Option<Report>>,
    /// The clocks its inputs' decoders and its in-order helpers add to.
    clocks: Shared,
    /// What the workers of the run going on know of its chunks' order.
    order: ChunkOrder,
}

/// How an [`Engine`] is made: its inputs and [`Options`], and what the
/// run needs of the reader besides (line numbers, the blocks of WARC
/// records, records written back, the record fields asked for by name,
/// timings).
///
/// ```
/// use urlsift_records::{Engine, Options};
///
/// let engine = Engine::builder(Vec::new())      // standard input
///     .options(&Options { threads: Some(2), ..Options::default() })
///     .count_lines(true)
///     .timed(true)
///     .build()?;
/// assert_eq!(engine.threads(), 2);
/// assert!(engine.settings().count_lines && engine.timed());
/// # Ok::<(), urlsift_records::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
#[must_use]
pub struct EngineBuilder {
    files: Vec<PathBuf>,
    options: Options,
    count_lines: bool,
    keep: Option<urlsift_warc::Keeping>,
    writes_records: bool,
    named: Option<Vec<String>>,
    chunk_memory: Option<u64>,
    timed: bool,
}

impl EngineBuilder {
    /// The format, field, record and chunk sizes and threads.
    pub fn options(mut self, options: &Options) -> EngineBuilder {
        self.options = options.clone();
        self
    }

    /// Number the lines of `lines` input on the reader (work that prints
    /// line numbers from the workers: `check`, a `line` field); off, the
    /// ledger numbers what it writes.
    pub fn count_lines(mut self, on: bool) -> EngineBuilder {
        self.count_lines = on;
        self
    }

    /// WARC and ARC input: keep the blocks `keep` names beside the header
    /// blocks (the records' pages, for links).
    pub fn keep(mut self, keep: urlsift_warc::Keeping) -> EngineBuilder {
        self.keep = Some(keep);
        self
    }

    /// The run writes records back where their format can be (CSV, TSV,
    /// JSON lines, CDXJ, Parquet): CSV inputs must then share one header
    /// ([`Engine::writes_records`] says whether it does).
    pub fn writes_records(mut self, on: bool) -> EngineBuilder {
        self.writes_records = on;
        self
    }

    /// The record fields the run reads by name (`@NAME`; see
    /// [`Spec::named`]).
    pub fn named(mut self, names: Vec<String>) -> EngineBuilder {
        self.named = Some(names);
        self
    }

    /// The chunks a run holds at once (about six per worker: in flight,
    /// and their results waiting in order) take about `bytes` in all:
    /// chunks of `bytes / (6 × workers)`, at least 64 KiB, at most 4 MiB
    /// and the options' chunk size (`dedup`, whose `--memory` they count
    /// against).
    pub fn chunk_memory(mut self, bytes: u64) -> EngineBuilder {
        self.chunk_memory = Some(bytes);
        self
    }

    /// Clock each stage of a run ([`Engine::timings`]).
    pub fn timed(mut self, on: bool) -> EngineBuilder {
        self.timed = on;
        self
    }

    /// The engine; refused before anything is read: a file that is not
    /// there, a directory, inputs whose names imply different formats.
    pub fn build(self) -> Result<Engine, Error> {
        let mut options = self.options;
        if let Some(named) = self.named {
            options.spec.named = named;
        }
        let mut engine = Engine::new(self.files, &options)?;
        if let Some(bytes) = self.chunk_memory {
            let in_flight = (engine.threads() * 6) as u64;
            let cap = (bytes / in_flight).clamp(64 << 10, 4 << 20) as usize;
            engine.read.chunk_size = engine.read.chunk_size.min(cap);
        }
        engine.timed = self.timed;
        engine.read.count_lines = self.count_lines;
        engine.read.keep = self.keep;
        engine.read.writes_records = self.writes_records && engine.kind().writes_records();
        Ok(engine)
    }
}

impl Engine {
    /// A builder of the engine for `files` (none: standard input).
    pub fn builder(files: Vec<PathBuf>) -> EngineBuilder {
        EngineBuilder {
            files,
            ..EngineBuilder::default()
        }
    }

    /// An engine for `files` (none: standard input) with `options` and
    /// nothing else asked of the reader (see [`Engine::builder`]). Refused
    /// before anything is read: a file that is not there, inputs whose
    /// names imply different formats.
    pub fn new(mut files: Vec<PathBuf>, options: &Options) -> Result<Engine, Error> {
        if files.is_empty() {
            files.push("-".into());
        }
        if let Some(e) = input::unusable(&files) {
            return Err(Error::Input(e));
        }
        let mut spec = options.spec.clone();
        let part = if spec.kind == Some(Kind::WaczPages) {
            Part::Pages
        } else {
            Part::Archive
        };
        let inputs = input::wacz::expand(&files, part).map_err(Error::Input)?;
        if spec.kind.is_none() {
            // Files whose names say nothing but whose content is WARC (or
            // ARC).
            let named = inputs
                .iter()
                .map(|f| spec.kind_for(f.path()))
                .collect::<Vec<_>>();
            if named.iter().all(|k| *k == Kind::Lines) {
                let sniffed: Vec<Option<Kind>> = inputs
                    .iter()
                    .map(|f| match f {
                        Location::File(f) if f != std::path::Path::new("-") => archive_kind(f),
                        _ => None,
                    })
                    .collect();
                if let Some(Some(kind)) = sniffed.first()
                    && sniffed.iter().all(|k| *k == Some(*kind))
                {
                    spec.kind = Some(*kind);
                }
            }
        }
        let kinds: Vec<Kind> = inputs.iter().map(|f| spec.kind_for(f.path())).collect();
        if let Some(other) = kinds.iter().find(|k| **k != kinds[0]) {
            return Err(Error::Usage(format!(
                "the inputs have different formats ({} and {other}, by file name); \
                 name one with --input-format or run them separately",
                kinds[0]
            )));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.threads.unwrap_or(0))
            .thread_name(|i| format!("urlsift-worker-{i}"))
            .build()
            .map_err(|e| Error::Usage(format!("cannot start worker threads: {e}")))?;
        let clocks = Shared::default();
        Ok(Engine {
            files,
            inputs,
            pool,
            read: Settings {
                chunk_size: options.chunk_size.max(1),
                max_record: options.max_record,
                spec,
                writes_records: false,
                // Rejects and `--strict` stops are numbered by the ledger;
                // work that prints line numbers from the workers (`check`,
                // `extract` with a `line` field) turns counting on.
                count_lines: false,
                keep: None,
                // `-j` caps the decoders' and Parquet lanes' pools too.
                cores: super::cores::capped(options.threads),
                decoding_clock: clocks.decoding.clone(),
            },
            timed: false,
            report: Mutex::new(None),
            clocks,
            order: ChunkOrder::default(),
        })
    }

    /// Where the last run's time went, when [`Engine::timed`] was set.
    pub fn timings(&self) -> Option<Report> {
        *self.report.lock().ok()?
    }

    /// The format all inputs are read in.
    pub fn kind(&self) -> Kind {
        self.read.spec.kind_for(self.inputs[0].path())
    }

    /// What a record of these inputs is called in messages: `lines` for
    /// URL lines, `records` for the other formats (and for a `.log` file
    /// whose first lines decide).
    pub fn noun(&self) -> &'static str {
        if self.kind() == Kind::Lines && !self.sniffs_log() {
            "lines"
        } else {
            "records"
        }
    }

    /// How many workers run.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// The inputs, in order (`-` is standard input), as named.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// The inputs as read, in order: [`Engine::files`], each WACZ among
    /// them replaced by the WARC files it holds.
    pub fn inputs(&self) -> &[Location] {
        &self.inputs
    }

    /// The clock the helpers of a run's in-order stage add their time to
    /// (a dedup seen-set's partitions looked up at once:
    /// [`Seen::clocked`](crate::dedup::Seen::clocked)), so `--timings`
    /// tells the in-order stage's serial time from its shared time.
    pub fn in_order_clock(&self) -> BusyClock {
        self.clocks.in_order.clone()
    }

    /// What the workers of the run going on know of its chunks' order:
    /// a handle for what follows the chunks ahead of the in-order stage
    /// ([`Seen::ahead`](crate::dedup::Seen::ahead)). Each run starts it
    /// afresh.
    ///
    /// ```
    /// use urlsift_records::dedup::Seen;
    /// use urlsift_records::{Engine, Options};
    ///
    /// let engine = Engine::new(Vec::new(), &Options { threads: Some(4), ..Options::default() })?;
    /// let seen = Seen::new(1 << 20, false, None, b'\n').ahead(engine.threads(), engine.chunk_order());
    /// assert_eq!(seen.partitions(), 4);
    /// # Ok::<(), urlsift_records::Error>(())
    /// ```
    pub fn chunk_order(&self) -> ChunkOrder {
        self.order.clone()
    }

    /// How the reader cuts and checks the inputs.
    pub fn settings(&self) -> &Settings {
        &self.read
    }

    /// Whether runs clock their stages ([`Engine::timings`]).
    pub fn timed(&self) -> bool {
        self.timed
    }

    /// Whether the run writes records back ([`EngineBuilder::writes_records`],
    /// where the inputs' format can be).
    pub fn writes_records(&self) -> bool {
        self.read.writes_records
    }

    /// Whether any input is a `.log` file read with `auto`, whose first
    /// lines decide between `log` and `lines`.
    pub fn sniffs_log(&self) -> bool {
        self.files.iter().any(|f| self.read.spec.sniffs_log(f))
    }

    /// Runs `work` on every chunk in parallel and `consume` on the results in
    /// input order (with one worker, both on this thread, one chunk after
    /// another). `consume` returning `Ok(false)` stops the run early.
    /// Returns the read errors that ended sources early (each source's
    /// records before its error were processed; the run went on with the
    /// next source).
    ///
    /// Each worker takes a turn at a reader, works on the chunk it read
    /// and sends the result back; this thread puts the results in order
    /// and consumes them (writing, the dedup seen-set), overlapping with
    /// the workers. Reading is part of each worker's share: with `-j1` one
    /// thread reads and parses, with `-j2` two do. Several inputs are read
    /// side by side, up to one per worker, each by one worker at a time
    /// (CSV and TSV inputs start in input order); one input takes turns at
    /// its reader. At most a few chunks per worker are in flight: one is
    /// read only when there is room, and its room comes back only when it
    /// has been consumed.
    pub fn run<X: Send, E: From<Error>>(
        &self,
        work: impl Fn(&Chunk) -> Processed<X> + Sync,
        mut consume: impl FnMut(&Chunk, &mut Processed<X>) -> Result<bool, E>,
    ) -> Result<Vec<InputError>, E> {
        let threads = self.pool.current_num_threads();
        if threads == 1 {
            return self.run_alone(work, consume);
        }
        let max_in_flight = threads * 2 + 2;
        let chunk_size = self.read.chunk_size;
        // Keep every buffer that can be in circulation (an input and an
        // output buffer per chunk in flight, plus one being filled per
        // worker), so none is freed and faulted in again.
        let pool = BufPool::new(2 * (max_in_flight + threads) + 2, chunk_size);
        let lanes = Lanes::new(self.inputs.clone(), &self.read, threads, max_in_flight);
        let mut errors = Vec::new();
        let clocks = self.timed.then(Clocks::default);
        let started = Started::now(&self.clocks);
        let (mut busy, mut idle) = (Duration::ZERO, Duration::ZERO);
        self.order.clear();
        let order = &self.order;
        let (pool, lanes, work, clocks_ref) = (&pool, &lanes, &work, clocks.as_ref());
        let ran = self.pool.in_place_scope(|s| -> Result<(), E> {
            let (res_tx, res_rx) = mpsc::channel::<Sent<X>>();
            for _ in 0..threads {
                let res_tx = res_tx.clone();
                s.spawn(move |_| {
                    worker(lanes, pool, work, &res_tx, clocks_ref, order);
                });
            }
            drop(res_tx);
            // Returning early (an error, or `consume` stopping) stops the
            // workers waiting for a turn.
            let _stop = Stopping(lanes);
            let mut ready: BTreeMap<Place, Done<X>> = BTreeMap::new();
            // Sources whose reading ended, with how many chunks they gave.
            let mut ends: BTreeMap<usize, u64> = BTreeMap::new();
            let (mut source, mut seq) = (0usize, 0u64);
            loop {
                if let Some(done) = ready.remove(&(source, seq)) {
                    seq += 1;
                    let (chunk, mut p) = match done {
                        Ok(done) => done,
                        Err(e) if e.usage => {
                            return Err(Error::usage(&e).into());
                        }
                        Err(e) => {
                            errors.push(e);
                            lanes.consumed(source);
                            continue;
                        }
                    };
                    let since = clocks_ref.map(|_| Instant::now());
                    let go_on = consume(&chunk, &mut p)?;
                    if let Some(since) = since {
                        busy += since.elapsed();
                    }
                    chunk.data.recycle(pool);
                    pool.put(p.out);
                    if !go_on {
                        return Ok(());
                    }
                    lanes.consumed(source);
                    continue;
                }
                if ends.get(&source) == Some(&seq) {
                    ends.remove(&source);
                    (source, seq) = (source + 1, 0);
                    lanes.advance(source);
                    continue;
                }
                let since = clocks_ref.map(|_| Instant::now());
                let received = res_rx.recv();
                if let Some(since) = since {
                    idle += since.elapsed();
                }
                match received {
                    Ok(Read::Chunk(place, done)) => {
                        ready.insert(place, done);
                    }
                    Ok(Read::End(source, count)) => {
                        ends.insert(source, count);
                    }
                    // Every worker has stopped and every result is in.
                    Err(_) => {
                        debug_assert!(ready.is_empty(), "results are numbered without gaps");
                        return Ok(());
                    }
                }
            }
        });
        if let (Some(clocks), Ok(mut report)) = (&clocks, self.report.lock()) {
            *report = Some(Report::of(clocks, &started, threads, (busy, idle)));
        }
        ran?;
        Ok(errors)
    }
}

impl Engine {
    /// [`Engine::run`] with one worker (`-j1`): this thread alone reads
    /// each chunk, works on it and consumes it, so `-j1` is one thread
    /// (beside a compressed input's decoding thread) and the scaling from
    /// `-j1` is honest. Read errors are met in order, as in
    /// [`Engine::run`].
    fn run_alone<X, E: From<Error>>(
        &self,
        work: impl Fn(&Chunk) -> Processed<X>,
        mut consume: impl FnMut(&Chunk, &mut Processed<X>) -> Result<bool, E>,
    ) -> Result<Vec<InputError>, E> {
        let pool = BufPool::new(4, self.read.chunk_size);
        self.order.clear();
        let mut reader = ChunkReader::of(self.inputs.clone(), self.read.clone());
        let mut errors = Vec::new();
        let clocks = self.timed.then(Clocks::default);
        let started = Started::now(&self.clocks);
        let mut busy = Duration::ZERO;
        let (now, time) = timers(clocks.as_ref());
        let ran = loop {
            let since = now();
            let next = reader.next_numbered(&pool);
            time(Clock::Read, since);
            let Some((number, next)) = next else {
                break Ok(());
            };
            let mut chunk = match next {
                Ok(chunk) => chunk,
                Err(e) if e.usage => {
                    break Err(Error::usage(&e).into());
                }
                Err(e) => {
                    // A read error ends its source; reading goes on with
                    // the next.
                    self.order.error((0, number));
                    errors.push(e);
                    continue;
                }
            };
            // One reader numbers the chunks of every source in turn.
            chunk.place = (0, number);
            give_output(&chunk, &pool);
            let since = now();
            let mut p = work(&chunk);
            time(Clock::Work, since);
            let since = now();
            let go_on = consume(&chunk, &mut p);
            if let Some(since) = since {
                busy += since.elapsed();
            }
            chunk.data.recycle(&pool);
            pool.put(p.out);
            match go_on {
                Ok(true) => {}
                Ok(false) => break Ok(()),
                Err(e) => break Err(e),
            }
        };
        if let (Some(clocks), Ok(mut report)) = (&clocks, self.report.lock()) {
            *report = Some(Report::of(clocks, &started, 1, (busy, Duration::ZERO)));
        }
        ran?;
        Ok(errors)
    }
}

/// Two closures over `clocks` (`None`: not timing): the instant now
/// (`None` when not timing), and one that adds the time since such an
/// instant to a clock.
fn timers(
    clocks: Option<&Clocks>,
) -> (
    impl Fn() -> Option<Instant> + '_,
    impl Fn(Clock, Option<Instant>) + '_,
) {
    let now = move || clocks.map(|_| Instant::now());
    let time = move |clock: Clock, since: Option<Instant>| {
        if let (Some(c), Some(since)) = (clocks, since) {
            c.add(clock, since);
        }
    };
    (now, time)
}

/// Gives `chunk` an output buffer from `pool`, sized for its data (a
/// piece of an over-long line makes no output of its own: none).
fn give_output(chunk: &Chunk, pool: &BufPool) {
    if chunk.oversize.is_none()
        && let Ok(mut spare) = chunk.spare.lock()
    {
        *spare = pool.get(chunk::output_capacity(chunk.data.len()));
    }
}

/// A worker's result: a chunk and what it made of it, or the read error
/// that ended the input at that point.
type Done<X> = Result<(Chunk, Processed<X>), InputError>;

/// What a worker sends the in-order stage: a result in its place, or the
/// end of a source.
type Sent<X> = Read<(Chunk, Processed<X>)>;

/// Stops the lanes' workers when the in-order stage returns.
struct Stopping<'a>(&'a Lanes);

impl Drop for Stopping<'_> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// One worker: takes a turn at a lane, works on the chunk read and sends
/// the result in its place (or a read error, or a source's end); stops
/// once every source is read, or when the in-order stage has stopped.
fn worker<X>(
    lanes: &Lanes,
    pool: &BufPool,
    work: &(impl Fn(&Chunk) -> Processed<X> + Sync),
    results: &mpsc::Sender<Sent<X>>,
    clocks: Option<&Clocks>,
    order: &ChunkOrder,
) {
    let (now, time) = timers(clocks);
    while let Some(read) = lanes.read(pool, clocks) {
        let sent = match read {
            Read::End(source, count) => {
                order.end(source, count);
                Read::End(source, count)
            }
            Read::Chunk(place, Err(e)) => {
                order.error(place);
                Read::Chunk(place, Err(e))
            }
            Read::Chunk(place, Ok(mut chunk)) => {
                chunk.place = place;
                let since = now();
                crate::reader::walk(&mut chunk, pool);
                give_output(&chunk, pool);
                let p = work(&chunk);
                time(Clock::Work, since);
                Read::Chunk(place, Ok((chunk, p)))
            }
        };
        if results.send(sent).is_err() {
            return;
        }
    }
}

/// The archive format the file at `path` starts with: a WARC header
/// (`WARC/1.`) or an ARC file's first record (`filedesc://`), plain or in
/// its first gzip member or zstd frame. Only a regular file is looked at
/// (reading a pipe or FIFO here would take its first bytes from the run);
/// a file that cannot be read says none (its error comes when it is
/// read).
fn archive_kind(path: &std::path::Path) -> Option<Kind> {
    use std::io::Read;
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return None;
    }
    let mut file = std::fs::File::open(path).ok()?;
    let mut head = [0u8; 4];
    let n = file.read(&mut head).ok()?;
    let mut start = Vec::with_capacity(16);
    let chained = (&head[..n]).chain(file);
    let read = match head[..n] {
        [0x1f, 0x8b, ..] => flate2::read::GzDecoder::new(chained)
            .take(11)
            .read_to_end(&mut start),
        // Zstd as reading decodes it: a `.warc.zst` file's frames need
        // its dictionary frame (magic `0x184D2A5D`).
        [0x28, 0xb5, 0x2f, 0xfd] | [0x5d, 0x2a, 0x4d, 0x18] => {
            let decoded = input::decode::open_with(path, 1).ok()?.into_reader();
            decoded.take(11).read_to_end(&mut start)
        }
        _ => chained.take(11).read_to_end(&mut start),
    };
    read.ok()?;
    match urlsift_warc::archive_start(&start)? {
        urlsift_warc::Dialect::Warc => Some(Kind::Warc),
        urlsift_warc::Dialect::Arc => Some(Kind::Arc),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `-j` caps a run's own pools, not the process's: an engine made
    /// later (another Python reader, say) leaves an earlier one's cap.
    #[test]
    fn each_engine_keeps_its_own_cap_on_the_other_pools() {
        let one = Options {
            threads: Some(1),
            ..Options::default()
        };
        let first = Engine::new(Vec::new(), &one).unwrap();
        let second = Engine::new(Vec::new(), &Options::default()).unwrap();
        assert_eq!(first.settings().cores, 1);
        assert_eq!(second.settings().cores, crate::cores::machine());
        assert_eq!(first.settings().cores, 1);
    }

    /// Each engine clocks its own inputs' decoding: a run that overlaps
    /// another engine's decoding of a `.gz` input reports none of it.
    #[test]
    fn each_engine_times_its_own_decoding() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let gz = dir.path().join("a.txt.gz");
        let mut text = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        for i in 0..300_000 {
            writeln!(text, "https://e{i}.example/path").unwrap();
        }
        std::fs::write(&gz, text.finish().unwrap()).unwrap();
        let plain = dir.path().join("b.txt");
        std::fs::write(&plain, "https://b.example/\n").unwrap();
        let two = Options {
            threads: Some(2),
            ..Options::default()
        };
        let decoding = Engine::builder(vec![gz])
            .options(&two)
            .timed(true)
            .build()
            .unwrap();
        let plain = Engine::builder(vec![plain])
            .options(&two)
            .timed(true)
            .build()
            .unwrap();
        let (done, wait) = std::sync::mpsc::channel::<()>();
        let wait = std::sync::Mutex::new(wait);
        let nothing = |chunk: &Chunk| Processed::<()>::new(chunk);
        let keep = |_: &Chunk, _: &mut Processed<()>| Ok::<bool, Error>(true);
        std::thread::scope(|s| {
            // The plain run's one chunk waits until the other run is over.
            s.spawn(|| {
                let held = |chunk: &Chunk| {
                    let _ = wait.lock().unwrap().recv();
                    Processed::<()>::new(chunk)
                };
                plain.run(held, keep).unwrap();
            });
            decoding.run(nothing, keep).unwrap();
            done.send(()).unwrap();
        });
        assert!(decoding.timings().unwrap().decode > Duration::ZERO);
        assert_eq!(plain.timings().unwrap().decode, Duration::ZERO);
    }
}

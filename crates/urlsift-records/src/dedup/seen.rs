//! The seen-set: the first record of each key (or the first N, with
//! [`Seen::samples`]), in input order, in memory
//! up to a budget and in hash-partitioned spill files beyond it, so inputs
//! larger than memory work (see `spill.rs`). Keys are compared as exact
//! bytes (the xxh3-64 hash only picks slots and partitions), so two
//! different keys are never taken for duplicates.
//!
//! In memory the set is split by key hash into partitions ([`Seen::threads`]):
//! a chunk's records are dealt to their partitions, each partition looks
//! up its share in input order on a thread of its own (the time shows in
//! `--timings` as the in-order stage's time with helper threads), and the
//! lines whose keys were new go out in input order. Two records of one key
//! always meet in one partition, so the result is the same for any
//! number of partitions.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use xxhash_rust::xxh3::xxh3_64;

use super::ahead::Ahead;
use super::arena::Span;
use super::deal::{Dealt, part_of};
use super::keys::Keys;
use super::keyset::{LONGEST_KEY, MOST_BLOCKS, Mode, Part};
use super::spill::{self, Spill};
pub(super) use super::view::View;
use crate::chunk::Chunk;
use crate::error::Error;
use crate::order::ChunkOrder;
use crate::processed::Processed;
use crate::timings::BusyClock;

impl Part {
    /// Looks up the records `list` names (indexes into the view's
    /// records, in input order; the chunk's first record is the input's
    /// `seq`th), telling `take` each record's line and whether it goes out
    /// now.
    fn decide<E>(
        &mut self,
        mode: Mode,
        view: &View<'_>,
        list: impl Iterator<Item = u32> + Clone,
        seq: u64,
        mut take: impl FnMut(&[u8], bool) -> Result<(), E>,
    ) -> Result<(), E> {
        self.in_turn(
            list,
            |&i| view.hash(i as usize),
            |part, i| {
                let (hash, (key, line)) = (view.hash(i as usize), view.record(i as usize));
                let taken = part.offer(mode, hash, key, line, seq + u64::from(i));
                take(line, taken)
            },
        )
    }
}

/// The seen-set: keeps the first record of each key (the first N with
/// [`Seen::samples`]), in input order, in hash partitions looked up in
/// parallel ([`Seen::threads`]). Past its memory budget it moves to
/// hash-partitioned spill files (`spill.rs`).
pub struct Seen {
    parts: Vec<Part>,
    /// Threads that look up partitions at once (none: one partition, on
    /// the caller's thread).
    pool: Option<rayon::ThreadPool>,
    budget: u64,
    mode: Mode,
    seq: u64,
    /// Records written so far.
    written: u64,
    spill: Option<(tempfile::TempDir, Spill, u64)>,
    tmp_dir: Option<PathBuf>,
    terminator: u8,
    /// A chunk's records dealt here (when its worker did not), and whose
    /// lines go out now, by partition.
    dealt: Dealt,
    takes: Vec<Takes>,
    /// A chunk's first records, by index, put in input order (when few).
    in_order: Vec<u32>,
    /// Where the partitions' lookups on the pool add their time.
    clock: BusyClock,
    /// The partitions while the workers look them up ([`Seen::ahead`]).
    ahead: Option<Arc<Ahead>>,
    /// Past the budget with the partitions ahead: the next chunk starts
    /// the spill.
    spill_due: bool,
}

impl Seen {
    /// A seen-set that holds up to `budget` bytes in memory, then spills
    /// to a directory it makes in `tmp_dir` (default: the system's temp
    /// directory). `count`: keep each first record until the end, to write
    /// it with its number of occurrences (as `uniq -c`); otherwise a first
    /// record is written at once. `terminator` ends the records written.
    pub fn new(budget: u64, count: bool, tmp_dir: Option<PathBuf>, terminator: u8) -> Seen {
        Seen {
            parts: vec![Part::default()],
            pool: None,
            budget,
            mode: Mode { count, samples: 1 },
            seq: 0,
            written: 0,
            spill: None,
            tmp_dir,
            terminator,
            dealt: Dealt::default(),
            takes: vec![Takes::default()],
            in_order: Vec::new(),
            clock: BusyClock::default(),
            ahead: None,
            spill_due: false,
        }
    }

    /// Has the workers of an engine's run look up the partitions, each
    /// chunk's share by the worker that keyed it (`dedup/ahead.rs`): one
    /// partition per worker (`workers`: [`Engine::threads`](crate::Engine::threads);
    /// `order`: [`Engine::chunk_order`](crate::Engine::chunk_order)), which the run's `work` feeds
    /// with [`Ahead::deal`] (from [`Seen::lookups_ahead`]); the thread
    /// that offers chunks in input order ([`Seen::offer_chunk`]) then
    /// only writes their first records. Only for plain first-record
    /// dedup on three workers or more; otherwise (`count`, samples, one
    /// or two workers) the set is left as it is: with two, the thread in
    /// order looking up alone costs less than the copies of the keys and
    /// the tables passed between cores. The output is the same either
    /// way. See [`Ahead`] for an example.
    ///
    /// ```
    /// use urlsift_records::dedup::Seen;
    /// use urlsift_records::{Engine, Options};
    ///
    /// let options = Options { threads: Some(3), ..Options::default() };
    /// let engine = Engine::new(Vec::new(), &options)?;
    /// let (workers, order) = (engine.threads(), engine.chunk_order());
    /// let seen = Seen::new(1 << 20, false, None, b'\n').ahead(workers, order.clone());
    /// assert_eq!(seen.partitions(), 3);
    /// let counting = Seen::new(1 << 20, true, None, b'\n').ahead(workers, order);
    /// assert!(counting.lookups_ahead().is_none());
    /// # Ok::<(), urlsift_records::Error>(())
    /// ```
    pub fn ahead(mut self, workers: usize, order: ChunkOrder) -> Seen {
        let n = workers;
        if self.mode.count || self.mode.samples > 1 || n < 3 {
            return self;
        }
        self.ahead = Some(Arc::new(Ahead::new(n, order, self.budget)));
        self.parts = Vec::new();
        self.pool = None;
        self.takes = (0..n).map(|_| Takes::default()).collect();
        self
    }

    /// What the workers feed when the set looks up ahead
    /// ([`Seen::ahead`]): `None` otherwise.
    pub fn lookups_ahead(&self) -> Option<Arc<Ahead>> {
        self.ahead.clone()
    }

    /// Stops looking up ahead: the partitions come back to this thread.
    /// Returns, for each partition, the keys it took ahead of the chunks
    /// offered so far (where its arena holds them: block, start).
    fn land(&mut self) -> Vec<HashSet<(usize, usize)>> {
        let Some(ahead) = self.ahead.take() else {
            return Vec::new();
        };
        let (parts, taken) = ahead.land().into_iter().unzip();
        self.parts = parts;
        taken
    }

    /// Adds the time its partitions are looked up at once (on its pool,
    /// [`Seen::threads`]) to `clock`: an engine's
    /// [`Engine::in_order_clock`](crate::Engine::in_order_clock), so that
    /// run's `--timings` tells that time from the in-order stage's serial
    /// time.
    ///
    /// ```
    /// use urlsift_records::dedup::Seen;
    /// use urlsift_records::timings::BusyClock;
    ///
    /// let clock = BusyClock::default();
    /// let seen = Seen::new(1 << 20, false, None, b'\n').clocked(clock.clone());
    /// assert_eq!((seen.records(), clock.total().as_nanos()), (0, 0));
    /// ```
    pub fn clocked(mut self, clock: BusyClock) -> Seen {
        self.clock = clock;
        self
    }

    /// Keeps up to `n` records of each key instead of one (at least one),
    /// each at its place in the input; with `count`, each is written with
    /// the number of records of its key.
    ///
    /// ```
    /// use urlsift_records::dedup::Seen;
    ///
    /// let seen = Seen::new(1 << 20, false, None, b'\n').samples(3);
    /// assert_eq!(seen.records(), 0);
    /// ```
    pub fn samples(mut self, n: u32) -> Seen {
        if n > 1 {
            self.land();
        }
        self.mode.samples = n.max(1);
        self
    }

    /// Splits the set into `n` hash partitions looked up by `n` threads
    /// at once: the caller's (the one that offers chunks) and `n - 1`
    /// helpers of a pool of the set's own (one partition: the caller's
    /// thread alone, the default). The output is the same for any `n`.
    ///
    /// ```
    /// use urlsift_records::dedup::Seen;
    ///
    /// let seen = Seen::new(1 << 20, false, None, b'\n').threads(4)?;
    /// assert_eq!(seen.records(), 0);
    /// # Ok::<(), urlsift_records::Error>(())
    /// ```
    pub fn threads(mut self, n: usize) -> Result<Seen, Error> {
        self.land();
        let n = n.max(1);
        self.pool = if n > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n - 1)
                .thread_name(|i| format!("urlsift-seen-{i}"))
                .build()
                .map_err(|e| Error::Usage(format!("dedup: cannot start {} threads: {e}", n - 1)))?;
            Some(pool)
        } else {
            None
        };
        self.parts = (0..n).map(|_| Part::default()).collect();
        self.takes = (0..n).map(|_| Takes::default()).collect();
        Ok(self)
    }

    /// How many partitions the set has ([`Seen::threads`]).
    pub fn partitions(&self) -> usize {
        match &self.ahead {
            Some(ahead) => ahead.partitions(),
            None => self.parts.len(),
        }
    }

    /// How many records were offered.
    pub fn records(&self) -> u64 {
        self.seq
    }

    /// Offers a chunk's records in input order: the keyed records the
    /// workers held ([`Keys`]) and the bad records passed through
    /// (`--keep-invalid`, keyed by their raw bytes in a namespace of
    /// their own), writing first occurrences to `out`.
    pub fn offer_chunk<W: Write>(
        &mut self,
        chunk: &Chunk,
        p: &Processed<Keys>,
        out: &mut W,
    ) -> Result<(), Error> {
        if self.ahead.is_some() && self.offer_ahead(chunk, p, out)? {
            return Ok(());
        }
        let n = self.parts.len();
        let here = p.extra.dealt.parts != n;
        if here {
            // Not dealt by the worker (or for another number of
            // partitions): dealt here.
            let held = p.extra.held.iter().map(|h| (h.at, h.hash));
            self.dealt.deal(held, &p.passed_through, &p.out, n, false);
        }
        let theirs = &p.extra.dealt;
        let fits = self.spill.is_some()
            || self.fits(&View::of(if here { &self.dealt } else { theirs }, chunk, p));
        if !fits {
            self.start_spill()?;
        }
        let Seen {
            parts,
            pool,
            mode,
            seq,
            written,
            spill,
            terminator,
            takes,
            dealt,
            in_order,
            clock,
            ..
        } = self;
        let dealt = if here { &*dealt } else { theirs };
        let view = View::of(dealt, chunk, p);
        let (mode, first, records) = (*mode, *seq, view.len() as u64);
        *seq += records;
        if let Some((_, spill, _)) = spill {
            // Past the budget every record goes to disk, in input order.
            for i in 0..view.len() {
                let (hash, (key, line)) = (view.hash(i), view.record(i));
                spill
                    .push(hash, first + i as u64, 1, key, line)
                    .map_err(spill_err)?;
            }
            return Ok(());
        }
        match pool {
            None if parts.len() == 1 => {
                // One partition, on this thread: each first record goes
                // out as it is found.
                let all = 0..records as u32;
                parts[0].decide(mode, &view, all, first, |line, take| {
                    if take {
                        write_line(out, line, *terminator)?;
                        *written += 1;
                    }
                    Ok::<(), Error>(())
                })?;
            }
            pool => {
                // This thread looks up the first partition while the
                // pool's threads take the others.
                let decide = |part: &mut Part, list: &Vec<u32>, takes: &mut Takes| {
                    takes.answers.clear();
                    takes.taken.clear();
                    let mut records = list.iter();
                    let _ = part.decide(mode, &view, list.iter().copied(), first, |_, take| {
                        let i = *records.next().expect("one answer per record");
                        takes.answers.push(take);
                        if take {
                            takes.taken.push(i);
                        }
                        Ok::<(), ()>(())
                    });
                };
                look_up(parts, pool.as_ref(), &dealt.lists, takes, clock, decide);
                *written += write_taken(&view, takes, in_order, out, *terminator)?;
            }
        }
        if self.bytes() > self.budget {
            self.start_spill()?;
        }
        Ok(())
    }

    /// [`Seen::offer_chunk`] while the workers look up ahead: writes the
    /// chunk's first records from the partitions' answers. `false` when
    /// the set landed instead, moving to disk at this chunk (past the
    /// budget, or a partition could not answer in memory): the chunk is
    /// then offered the in-order way.
    fn offer_ahead<W: Write>(
        &mut self,
        chunk: &Chunk,
        p: &Processed<Keys>,
        out: &mut W,
    ) -> Result<bool, Error> {
        if !self.collect_ahead(chunk, p)? {
            return Ok(false);
        }
        let view = View::of(&p.extra.dealt, chunk, p);
        self.seq += view.len() as u64;
        self.written += write_taken(&view, &self.takes, &mut self.in_order, out, self.terminator)?;
        self.spill_due = self.bytes() > self.budget;
        Ok(true)
    }

    /// Whether each record of `chunk` (keyed into `p` and dealt by
    /// [`Ahead::deal`]) goes out now, in input order (its keyed records
    /// and its bad records passed through, as [`Seen::take`] is given
    /// them), when the workers looked it up ahead ([`Seen::ahead`]).
    /// `None` otherwise, or when the set lands instead, moving to disk at
    /// this chunk: its records are then offered one at a time
    /// ([`Seen::offer`]).
    pub(crate) fn take_ahead(
        &mut self,
        chunk: &Chunk,
        p: &Processed<Keys>,
    ) -> Result<Option<Vec<bool>>, Error> {
        if self.ahead.is_none() || !self.collect_ahead(chunk, p)? {
            return Ok(None);
        }
        let view = View::of(&p.extra.dealt, chunk, p);
        self.seq += view.len() as u64;
        let hashes = (0..view.len()).map(|i| view.hash(i));
        let taken: Vec<bool> = in_input_order(hashes, &self.takes).collect();
        self.written += self.takes.iter().map(|t| t.taken.len() as u64).sum::<u64>();
        self.spill_due = self.bytes() > self.budget;
        Ok(Some(taken))
    }

    /// Puts the partitions' answers for `chunk` in `takes`; `false` when
    /// they cannot be had (past the budget, a batch that cannot be held
    /// in memory, a chunk not dealt for these partitions): the set lands
    /// and moves to disk at this chunk.
    fn collect_ahead(&mut self, chunk: &Chunk, p: &Processed<Keys>) -> Result<bool, Error> {
        let ahead = self.ahead.as_ref().expect("looking up ahead");
        let answered = !self.spill_due
            && p.extra.dealt.parts == ahead.partitions()
            && ahead.collect(chunk.place, &mut self.takes);
        if !answered {
            let taken = self.land();
            self.spill_except(&taken)?;
        }
        Ok(answered)
    }

    /// Offers one record alone (its key, the key's xxh3-64 `hash`, its
    /// line without a terminator), for callers whose records are not a
    /// chunk's (`links --dedup`). Returns whether the line goes out now,
    /// written by the caller; otherwise it is a duplicate, or (with
    /// `count`, or past the budget, on disk) held back to come out of
    /// [`Seen::finish_with`] in its place.
    ///
    /// ```
    /// use urlsift_records::dedup::Seen;
    /// use xxhash_rust::xxh3::xxh3_64;
    ///
    /// // A budget of 1 byte: from the first record on, the set is on disk.
    /// let mut seen = Seen::new(1, false, None, b'\n');
    /// let mut now = Vec::new();
    /// for line in ["a", "b", "a", "c", "b"] {
    ///     if seen.offer(xxh3_64(line.as_bytes()), line.as_bytes(), line.as_bytes())? {
    ///         now.push(line);
    ///     }
    /// }
    /// let mut later = Vec::new();
    /// seen.finish_with(|_, line| Ok(later.push(line.to_vec())))?;
    /// assert_eq!((now, later), (vec!["a"], vec![b"b".to_vec(), b"c".to_vec()]));
    /// # Ok::<(), urlsift_records::Error>(())
    /// ```
    pub fn offer(&mut self, hash: u64, key: &[u8], line: &[u8]) -> Result<bool, Error> {
        self.land();
        let seq = self.seq;
        self.seq += 1;
        let long_line = self.mode.count && line.len() >= LONGEST_KEY;
        if self.spills(hash, key)? || long_line {
            if self.spill.is_none() {
                self.start_spill()?;
            }
            let (_, spill, _) = self.spill.as_mut().expect("spilling");
            spill.push(hash, seq, 1, key, line).map_err(spill_err)?;
            return Ok(false);
        }
        let at = part_of(hash, self.parts.len());
        let taken = self.parts[at].offer(self.mode, hash, key, line, seq);
        if taken {
            self.written += 1;
        }
        if self.parts[at].bytes() as u64 > self.budget / self.parts.len() as u64
            && self.bytes() > self.budget
        {
            self.start_spill()?;
        }
        Ok(taken)
    }

    /// Offers `records` (each key's xxh3-64 hash and the key) at once, in
    /// input order, their partitions looked up on their threads
    /// ([`Seen::threads`]): whether each record is taken, for callers that
    /// keep the records themselves (Parquet rows). `None`, offering
    /// nothing, once the set is on disk, when a key does not fit in
    /// memory, or with `count` (which keeps lines): the caller offers them
    /// one at a time ([`Seen::offer`]).
    /// Past the budget after them, the set moves to disk.
    ///
    /// ```
    /// use urlsift_records::dedup::Seen;
    /// use xxhash_rust::xxh3::xxh3_64;
    ///
    /// let mut seen = Seen::new(1 << 20, false, None, b'\n').threads(3)?;
    /// let keys = ["a", "b", "a", "c", "b"].map(|k| (xxh3_64(k.as_bytes()), k.as_bytes()));
    /// assert_eq!(seen.take(&keys)?, Some(vec![true, true, false, true, false]));
    /// # Ok::<(), urlsift_records::Error>(())
    /// ```
    pub fn take(&mut self, records: &[(u64, &[u8])]) -> Result<Option<Vec<bool>>, Error> {
        self.land();
        let n = self.parts.len();
        let fits = self.spill.is_none()
            && !self.mode.count
            && records.iter().all(|(_, key)| key.len() < LONGEST_KEY)
            && self.parts.iter().all(|p| {
                p.arena.blocks.len() + 2 * records.len() < MOST_BLOCKS
                    && p.entries.len + records.len() < u32::MAX as usize
            });
        if !fits {
            return Ok(None);
        }
        let (mode, first) = (self.mode, self.seq);
        self.seq += records.len() as u64;
        let lists: Vec<Vec<u32>> = {
            let mut lists = vec![Vec::new(); n];
            for (i, (hash, _)) in records.iter().enumerate() {
                lists[part_of(*hash, n)].push(i as u32);
            }
            lists
        };
        let decide = |part: &mut Part, list: &Vec<u32>, takes: &mut Takes| {
            let takes = &mut takes.answers;
            takes.clear();
            let hash = |&&i: &&u32| records[i as usize].0;
            let _ = part.in_turn(list.iter(), hash, |part, &i| {
                let (hash, key) = records[i as usize];
                takes.push(part.offer(mode, hash, key, &[], first + u64::from(i)));
                Ok::<(), ()>(())
            });
        };
        look_up(
            &mut self.parts,
            self.pool.as_ref(),
            &lists,
            &mut self.takes,
            &self.clock,
            decide,
        );
        let hashes = records.iter().map(|(hash, _)| *hash);
        let taken: Vec<bool> = in_input_order(hashes, &self.takes).collect();
        self.written += taken.iter().filter(|t| **t).count() as u64;
        if self.bytes() > self.budget {
            self.start_spill()?;
        }
        Ok(Some(taken))
    }

    /// Starts loading the table slot a lookup of `hash` will read: a
    /// caller that offers records alone ([`Seen::offer`]) prefetches a
    /// few ahead, so that their lookups overlap.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        if self.spill.is_none() && self.ahead.is_none() {
            self.parts[part_of(hash, self.parts.len())].prefetch(hash);
        }
    }

    /// Whether a record of this key offered next ([`Seen::offer`]) goes to
    /// disk: the set has spilled, or now spills as the key cannot be held
    /// in memory. A caller whose lines cost something to make (Parquet
    /// rows) makes them only then.
    pub fn spills(&mut self, hash: u64, key: &[u8]) -> Result<bool, Error> {
        self.land();
        if self.spill.is_none() {
            let part = &self.parts[part_of(hash, self.parts.len())];
            let fits = key.len() < LONGEST_KEY
                && part.arena.blocks.len() + 2 < MOST_BLOCKS
                && part.entries.len + 1 < u32::MAX as usize;
            if !fits {
                self.start_spill()?;
            }
        }
        Ok(self.spill.is_some())
    }

    /// Whether every record of the chunk fits the in-memory set: no key
    /// too long for a slot, no partition's arena past the blocks a slot
    /// can name (each record adds at most two blocks), no partition past
    /// 4 billion entries.
    fn fits(&self, view: &View<'_>) -> bool {
        let records = view.len();
        // A key is a slice of one of the chunk's buffers: none is longer
        // than the longest buffer (a chunk is a few megabytes).
        let longest = view.buffers().map(<[u8]>::len);
        let longest = if longest.iter().all(|&len| len < LONGEST_KEY) {
            0
        } else {
            let keys = (0..records).map(|i| view.record(i).0.len());
            keys.max().unwrap_or(0)
        };
        longest < LONGEST_KEY
            && self.parts.iter().all(|p| {
                p.arena.blocks.len() + 2 * records < MOST_BLOCKS
                    && p.entries.len + records < u32::MAX as usize
            })
    }

    /// Estimated memory held: arena blocks, entries and table slots.
    fn bytes(&self) -> u64 {
        let ahead = self.ahead.as_ref().map_or(0, |a| a.bytes());
        ahead + self.parts.iter().map(Part::bytes).sum::<usize>() as u64
    }

    /// Moves the seen-set to disk; from now on every record is spilled.
    fn start_spill(&mut self) -> Result<(), Error> {
        let ahead = self.land();
        self.spill_except(&ahead)
    }

    /// [`Seen::start_spill`], leaving out the keys in `ahead` (for each
    /// partition, those its lookups ahead of the chunks offered took,
    /// where its arena holds them: their records are spilled with the
    /// rest).
    fn spill_except(&mut self, ahead: &[HashSet<(usize, usize)>]) -> Result<(), Error> {
        let dir = spill::spill_dir(self.tmp_dir.as_deref(), "urlsift-dedup-")?;
        let mut spill = Spill::create(dir.path(), "p", 0).map_err(spill_err)?;
        let mode = self.mode;
        let none = HashSet::new();
        for (i, part) in self.parts.iter().enumerate() {
            let ahead = ahead.get(i).unwrap_or(&none);
            if mode.count {
                // Every record held, in input order within the partition
                // (the spill's merge orders them all); a key's count rides
                // on its first (the others carry 0, and the reduction sums
                // them).
                for e in part.entries.iter() {
                    let line = e.line.map_or(&[][..], |l| part.arena.get(l));
                    let key = part.arena.get(e.key);
                    spill
                        .push(xxh3_64(key), e.seq, e.count, key, line)
                        .map_err(spill_err)?;
                }
            } else {
                // Keys whose lines are already written: they only need to
                // be known as seen (sequence 0 is before the spill's
                // start), once for each record of theirs that went out
                // (those take sample places).
                for slot in part.table.slots() {
                    let span = Span::of(&slot);
                    let written = if mode.samples > 1 {
                        let word = &part.arena.blocks[span.block][span.start - 4..span.start];
                        u32::from_le_bytes(word.try_into().expect("4 bytes"))
                    } else {
                        1
                    };
                    if !ahead.is_empty() && ahead.contains(&(span.block, span.start)) {
                        continue;
                    }
                    let key = part.arena.get(span);
                    for _ in 0..written {
                        spill.push(slot.hash, 0, 1, key, &[]).map_err(spill_err)?;
                    }
                }
            }
        }
        for part in &mut self.parts {
            *part = Part::default();
        }
        // Without --count, lines before this point are already written.
        let from = if mode.count { 0 } else { self.seq };
        self.spill = Some((dir, spill, from));
        Ok(())
    }

    /// Writes whatever is still held back to `out`; returns the number of
    /// records written (the number of distinct keys, without samples).
    pub fn finish<W: Write>(self, out: &mut W) -> Result<u64, Error> {
        let (count, terminator) = (self.mode.count, self.terminator);
        self.finish_with(|n, line| {
            if count {
                out.write_all(format!("{n:>7} ").as_bytes())
                    .map_err(Error::Output)?;
            }
            write_line(out, line, terminator)
        })
    }

    /// Hands `emit` whatever is still held back, in input order: each
    /// record's line (without a terminator) and its key's number of
    /// records (under `count`; otherwise 1 or, spilled, the number of
    /// records of its key seen on disk). Returns the number of records
    /// that went out in all, before and now.
    pub fn finish_with(
        mut self,
        mut emit: impl FnMut(u64, &[u8]) -> Result<(), Error>,
    ) -> Result<u64, Error> {
        self.land();
        let mode = self.mode;
        let mut written = self.written;
        let mut emit = |count: u64, line: &[u8]| -> Result<(), Error> {
            written += 1;
            emit(count, line)
        };
        if let Some((dir, spill, from)) = self.spill {
            let runs = spill
                .resolve(self.budget, from, mode.samples)
                .map_err(spill_err)?;
            spill::merge(runs, &mut emit, spill_err)?;
            drop(dir);
        } else if mode.count {
            // Each partition's entries are in input order: merge them.
            let mut heads: Vec<_> = self
                .parts
                .iter()
                .map(|p| p.entries.iter().peekable())
                .collect();
            let mut next: BinaryHeap<Reverse<(u64, usize)>> = heads
                .iter_mut()
                .enumerate()
                .filter_map(|(i, h)| h.peek().map(|e| Reverse((e.seq, i))))
                .collect();
            while let Some(Reverse((_, i))) = next.pop() {
                let part = &self.parts[i];
                let e = heads[i].next().expect("a head");
                let count = part.entries.get(e.first).count;
                emit(count, e.line.map_or(&[][..], |l| part.arena.get(l)))?;
                if let Some(e) = heads[i].peek() {
                    next.push(Reverse((e.seq, i)));
                }
            }
        }
        Ok(written)
    }
}

/// One partition's answers for a chunk, alone on its cache lines: each
/// partition's thread pushes to its own as it looks up, and answers that
/// shared a line with another partition's (a `Vec`'s length is written
/// at every push) would pass the line between cores at every record.
#[derive(Default)]
#[repr(align(128))]
pub(super) struct Takes {
    /// Each record's, in the partition's order.
    pub(super) answers: Vec<bool>,
    /// The records taken (their indexes in the chunk), for `dedup`.
    pub(super) taken: Vec<u32>,
}

/// A chunk's first records are put in order from the partitions' lists
/// when fewer than one record in this many is one.
const SPARSE: usize = 8;

/// Looks up every partition's share (`lists`) with `decide`, its answers
/// in its `takes`: with a pool, all at once (this thread takes the first
/// partition, the pool's threads the others; the time shows in
/// `--timings` as in order with helper threads).
fn look_up(
    parts: &mut [Part],
    pool: Option<&rayon::ThreadPool>,
    lists: &[Vec<u32>],
    takes: &mut [Takes],
    clock: &BusyClock,
    decide: impl Fn(&mut Part, &Vec<u32>, &mut Takes) + Sync,
) {
    let mut jobs = parts.iter_mut().zip(lists).zip(takes.iter_mut());
    let ((part, list), taken) = jobs.next().expect("a partition");
    let Some(pool) = pool else {
        decide(part, list, taken);
        for ((part, list), takes) in jobs {
            decide(part, list, takes);
        }
        return;
    };
    let since = Instant::now();
    pool.in_place_scope(|s| {
        for ((part, list), takes) in jobs {
            s.spawn(|_| decide(part, list, takes));
        }
        decide(part, list, taken);
    });
    clock.add(since.elapsed());
}

/// Writes the records of `view` the partitions took (`takes`) in input
/// order; returns how many.
fn write_taken<W: Write>(
    view: &View<'_>,
    takes: &[Takes],
    in_order: &mut Vec<u32>,
    out: &mut W,
    terminator: u8,
) -> Result<u64, Error> {
    let kept: usize = takes.iter().map(|t| t.taken.len()).sum();
    if kept * SPARSE < view.len() {
        // Few first records (a log of repeats): the partitions' lists of
        // them, put in order, rather than every record's answer looked up
        // in turn.
        in_order.clear();
        for t in takes {
            in_order.extend_from_slice(&t.taken);
        }
        in_order.sort_unstable();
        for &i in in_order.iter() {
            write_line(out, view.record(i as usize).1, terminator)?;
        }
    } else {
        let hashes = (0..view.len()).map(|i| view.hash(i));
        for (i, take) in in_input_order(hashes, takes).enumerate() {
            if take {
                write_line(out, view.record(i).1, terminator)?;
            }
        }
    }
    Ok(kept as u64)
}

/// The partitions' answers (each in input order within its partition)
/// as the records of these key `hashes` come.
fn in_input_order<'t>(
    hashes: impl Iterator<Item = u64> + 't,
    takes: &'t [Takes],
) -> impl Iterator<Item = bool> + 't {
    let n = takes.len();
    let mut next = vec![0usize; n];
    hashes.map(move |hash| {
        let at = part_of(hash, n);
        next[at] += 1;
        takes[at].answers[next[at] - 1]
    })
}

/// Writes `line` and `terminator` to `out`.
#[inline]
fn write_line<W: Write>(out: &mut W, line: &[u8], terminator: u8) -> Result<(), Error> {
    out.write_all(line)
        .and_then(|()| out.write_all(&[terminator]))
        .map_err(Error::Output)
}

fn spill_err(error: std::io::Error) -> Error {
    Error::Spill {
        what: "dedup spill file".to_string(),
        error,
    }
}

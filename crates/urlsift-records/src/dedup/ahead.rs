//! Lookups ahead: the seen-set's partitions looked up by the workers, not
//! by the thread that takes chunks in input order.
//!
//! A worker that keyed a chunk deals it to the partitions: each gets a
//! batch of its own (the hashes and bytes of its share of the keys, copied
//! out of the chunk, so a partition reads its keys in one run and not
//! scattered through buffers other cores wrote). A partition looks up its
//! batches strictly in input order: whichever worker holds its lock looks
//! up every batch that is next in line, its own and those that others left
//! there before it (no worker waits for another's chunk; a batch whose
//! turn has not come waits in the partition). The in-order stage only
//! collects each chunk's answers and writes its first records: when a
//! chunk's answers are not there yet, it looks the batches up itself.
//! Which place comes next is known from the engine's [`Order`]: a source's
//! end and the places that hold read errors are skipped.
//!
//! Only plain first-record dedup goes ahead (no `--count`, one sample per
//! key): there a record's answer depends on its key alone. Past the memory
//! budget, or when a batch does not fit a partition, the set lands
//! ([`Ahead::land`]): its partitions go back to the seen-set, which moves
//! to disk as before, leaving out the keys that were looked up ahead of
//! the chunk where the spill starts (their records go to disk with the
//! rest).

use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use super::keys::Keys;
use super::keyset::{LONGEST_KEY, MOST_BLOCKS, Part};
use super::seen::{Takes, View};
use crate::chunk::{Chunk, Place};
use crate::order::ChunkOrder;
use crate::processed::Processed;

/// The seen-set's partitions while the workers look them up (see the
/// module's text): made by [`Seen::ahead`](super::Seen::ahead), fed by
/// the workers with [`Ahead::deal`].
///
/// ```
/// use urlsift::profile::Profile;
/// use urlsift::site::List;
/// use urlsift_records::dedup::{Key, Keying, Keys, Seen};
/// use urlsift_records::stage::{Edits, Filters, Stage};
/// use urlsift_records::{Engine, Job, Options};
///
/// let tmp = tempfile::Builder::new().prefix("urlsift-doc-ahead-").tempdir()?;
/// let path = tmp.path().join("urls.txt");
/// std::fs::write(&path, "https://a.example/\nhttps://b.example/\nhttps://a.example/\n")?;
///
/// let options = Options { threads: Some(3), ..Options::default() };
/// let engine = Engine::new(vec![path], &options)?;
/// let stage = Stage::new(List::builtin(), &Filters::default(), &Edits::default())?;
/// let profile = Profile::new();
/// let keying = Keying { key: Key::Href, profile: &profile, stage: &stage, terminator: b'\n', with_key: false };
/// let job = Job::default();
/// let mut seen = Seen::new(1 << 30, false, None, b'\n').ahead(engine.threads(), engine.chunk_order());
/// let ahead = seen.lookups_ahead().expect("plain dedup goes ahead");
/// let mut out = Vec::new();
/// engine.run(
///     |chunk| {
///         let mut p = keying.chunk(&job, chunk, None, Keys::default());
///         ahead.deal(chunk, &mut p);
///         p
///     },
///     |chunk, p| seen.offer_chunk(chunk, p, &mut out).map(|()| true),
/// )?;
/// assert_eq!(seen.finish(&mut out)?, 2);
/// assert_eq!(out, b"https://a.example/\nhttps://b.example/\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Ahead {
    lanes: Vec<Lane>,
    order: ChunkOrder,
    /// Landed: chunks are offered the in-order way from now on.
    off: AtomicBool,
    /// Past this many bytes a partition looks up no more batches ahead
    /// (the in-order stage moves the set to disk soon).
    lane_budget: usize,
    /// Batches whose answers were taken, for the workers to fill again.
    spare: Mutex<Vec<Batch>>,
}

/// One partition and the batches waiting for it, alone on its cache
/// lines.
#[repr(align(128))]
struct Lane {
    state: Mutex<State>,
    /// The partition's memory ([`Part::bytes`]) after its last lookup.
    bytes: AtomicUsize,
}

#[derive(Default)]
struct State {
    part: Part,
    /// The place whose batch is looked up next.
    next: Place,
    /// Batches whose turn has not come (or that did not fit).
    pending: BTreeMap<Place, Batch>,
    /// The answers for batches looked up, until collected.
    decided: BTreeMap<Place, Answers>,
    off: bool,
}

/// A batch's answers: whether each of its records goes out, and where
/// the arena holds the keys of those that do (for [`Ahead::land`]: they
/// were taken ahead of the in-order stage). Its keys went back to the
/// workers once looked up.
#[derive(Default)]
struct Answers {
    each: Vec<bool>,
    /// The taken records: their indexes in the chunk's records.
    taken: Vec<u32>,
    /// The taken records' keys in the partition's arena: block and start.
    spans: Vec<(usize, usize)>,
}

/// One partition's share of a chunk's keys, in input order.
#[derive(Default)]
struct Batch {
    hashes: Vec<u64>,
    /// Where each key ends in `keys` (a chunk's keys are far under 4
    /// GiB: a chunk is a few megabytes).
    ends: Vec<u32>,
    keys: Vec<u8>,
    /// Each key's record: its index in the chunk's records.
    index: Vec<u32>,
    /// No key is too long for a table slot.
    fits: bool,
}

impl Batch {
    fn key(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.keys[start..self.ends[i] as usize]
    }

    fn clear(&mut self) {
        self.hashes.clear();
        self.ends.clear();
        self.keys.clear();
        self.index.clear();
    }
}

impl Ahead {
    /// `n` partitions over a run whose chunks come in `order`, each
    /// looking ahead while it holds less than `budget / n` bytes.
    pub(super) fn new(n: usize, order: ChunkOrder, budget: u64) -> Ahead {
        let n = n.max(1);
        let lane = || Lane {
            state: Mutex::new(State::default()),
            bytes: AtomicUsize::new(0),
        };
        Ahead {
            lanes: (0..n).map(|_| lane()).collect(),
            order,
            off: AtomicBool::new(false),
            lane_budget: usize::try_from(budget / n as u64).unwrap_or(usize::MAX),
            spare: Mutex::new(Vec::new()),
        }
    }

    /// How many partitions there are.
    pub(super) fn partitions(&self) -> usize {
        self.lanes.len()
    }

    /// The partitions' memory after their last lookups.
    pub(super) fn bytes(&self) -> u64 {
        let bytes = self.lanes.iter().map(|l| l.bytes.load(Ordering::Relaxed));
        bytes.sum::<usize>() as u64
    }

    /// On a worker, once `chunk`'s records are keyed into `p`: deals them
    /// to the partitions (as [`Keys::deal`] does, when it was not done
    /// for them) and looks up each partition's share whose turn has come,
    /// with those other workers left before it. A chunk whose records the
    /// in-order stage will not offer (a piece of an over-long line) gives
    /// empty shares, so that the chunks after it need not wait for the
    /// in-order stage.
    pub fn deal(&self, chunk: &Chunk, p: &mut Processed<Keys>) {
        if self.off.load(Ordering::Relaxed) {
            return;
        }
        let n = self.lanes.len();
        let offered = chunk.oversize().is_none();
        // (A Parquet chunk's bad rows are keyed by their values: dealt
        // here whatever was done before.)
        let frames = is_rows(chunk);
        if offered && (p.extra.dealt.parts != n || frames) {
            let held = p.extra.held.iter().map(|h| (h.at, h.hash));
            p.extra
                .dealt
                .deal(held, &p.passed_through, &p.out, n, frames);
        }
        let mut batches: Vec<Option<Batch>> = {
            let mut spare = self.spare.lock().ok();
            let mut take = || spare.as_mut().and_then(|s| s.pop()).unwrap_or_default();
            (0..n).map(|_| Some(take())).collect()
        };
        if offered {
            let view = View::of(&p.extra.dealt, chunk, p);
            for (i, batch) in batches.iter_mut().enumerate() {
                let batch = batch.as_mut().expect("a batch per lane");
                if n == 1 {
                    fill(batch, &view, 0..view.len() as u32);
                } else {
                    fill(batch, &view, p.extra.dealt.lists[i].iter().copied());
                }
            }
        }
        // Each partition in turn, starting at a different one for each
        // chunk: one another worker holds is come back to, and waited for
        // only when every one left is held.
        let place = chunk.place;
        let first = (place.1 as usize) % n;
        let mut left = n;
        while left > 0 {
            let mut placed = false;
            for k in 0..n {
                let i = (first + k) % n;
                if batches[i].is_none() {
                    continue;
                }
                let lane = &self.lanes[i];
                let state = match lane.state.try_lock() {
                    Ok(state) => Some(state),
                    Err(std::sync::TryLockError::WouldBlock) => continue,
                    Err(std::sync::TryLockError::Poisoned(_)) => None,
                };
                let batch = batches[i].take().expect("checked");
                self.put(lane, state, place, batch);
                (left, placed) = (left - 1, true);
            }
            if !placed && let Some(i) = (0..n).find(|&i| batches[i].is_some()) {
                let lane = &self.lanes[i];
                let batch = batches[i].take().expect("found");
                self.put(lane, lane.state.lock().ok(), place, batch);
                left -= 1;
            }
        }
    }

    /// Leaves `batch` (of the chunk in `place`) in `lane` (its `state`
    /// locked) and looks up what is in line there.
    fn put(&self, lane: &Lane, state: Option<MutexGuard<'_, State>>, place: Place, batch: Batch) {
        if let Some(mut state) = state
            && !state.off
        {
            state.pending.insert(place, batch);
            self.look_up(lane, &mut state, false);
        }
    }

    /// Looks up the partition's batches while the next in line is there:
    /// ahead of the in-order stage (`in_order` false) only while the
    /// partition is under its share of the budget.
    fn look_up(&self, lane: &Lane, state: &mut MutexGuard<'_, State>, in_order: bool) {
        let state = &mut **state;
        loop {
            state.next = self.order.next_chunk(state.next);
            let Some(mut batch) = state.pending.remove(&state.next) else {
                return;
            };
            let part = &mut state.part;
            let records = batch.hashes.len();
            let fits = batch.fits
                && part.arena.blocks.len() + 2 * records < MOST_BLOCKS
                && part.entries.len + records < u32::MAX as usize;
            if !fits || (!in_order && part.bytes() > self.lane_budget) {
                state.pending.insert(state.next, batch);
                return;
            }
            let mut answers = Answers {
                each: Vec::with_capacity(records),
                ..Answers::default()
            };
            let hash = |&i: &usize| batch.hashes[i];
            let _ = part.in_turn(0..records, hash, |part, i| {
                let taken = part.offer_first(batch.hashes[i], batch.key(i));
                answers.each.push(taken.is_some());
                if let Some(span) = taken {
                    answers.taken.push(batch.index[i]);
                    answers.spans.push((span.block, span.start));
                }
                Ok::<(), ()>(())
            });
            lane.bytes.store(part.bytes(), Ordering::Relaxed);
            state.decided.insert(state.next, answers);
            // Its keys are free for the next chunk a worker deals.
            batch.clear();
            if let Ok(mut spare) = self.spare.lock() {
                spare.push(batch);
            }
            state.next.1 += 1;
        }
    }

    /// On the in-order stage, at the chunk in `place`: puts each
    /// partition's answers for it in `takes` (looking up here what the
    /// workers have not). `false`, taking nothing, when a partition cannot
    /// answer in memory: a batch that does not fit, or none dealt.
    pub(super) fn collect(&self, place: Place, takes: &mut [Takes]) -> bool {
        for lane in &self.lanes {
            let Ok(mut state) = lane.state.lock() else {
                return false;
            };
            if state.off {
                return false;
            }
            // Every place before this one was collected (or holds no
            // chunk to offer).
            if state.next < place {
                state.next = place;
            }
            self.look_up(lane, &mut state, true);
            if !state.decided.contains_key(&place) {
                return false;
            }
        }
        for (lane, takes) in self.lanes.iter().zip(takes.iter_mut()) {
            let Ok(mut state) = lane.state.lock() else {
                return false;
            };
            // Shares of chunks never offered (pieces of long lines).
            while state
                .decided
                .first_key_value()
                .is_some_and(|(&at, _)| at < place)
            {
                state.decided.pop_first();
            }
            let answers = state.decided.remove(&place).expect("looked up");
            drop(state);
            (takes.answers, takes.taken) = (answers.each, answers.taken);
        }
        true
    }

    /// Stops looking ahead: the partitions, each with the keys it took
    /// ahead of the in-order stage (looked up, not yet collected: the
    /// chunks not offered yet, whose records must not be taken as seen),
    /// as where its arena holds them (block, start).
    pub(super) fn land(&self) -> Vec<(Part, HashSet<(usize, usize)>)> {
        self.off.store(true, Ordering::Relaxed);
        let mut parts = Vec::with_capacity(self.lanes.len());
        for lane in &self.lanes {
            let mut state = lane.state.lock().unwrap_or_else(|e| e.into_inner());
            state.off = true;
            let ahead = state.decided.values();
            let ahead: HashSet<_> = ahead.flat_map(|a| a.spans.iter().copied()).collect();
            state.decided.clear();
            state.pending.clear();
            parts.push((std::mem::take(&mut state.part), ahead));
        }
        parts
    }
}

/// Whether `chunk` holds Parquet rows: its bad rows are keyed by their
/// values, as Parquet dedup keys them.
fn is_rows(chunk: &Chunk) -> bool {
    #[cfg(feature = "parquet")]
    return chunk.rows().is_some();
    #[cfg(not(feature = "parquet"))]
    return false;
}

/// Fills `batch` with the keys of the records `list` names in `view`.
fn fill(batch: &mut Batch, view: &View<'_>, list: impl Iterator<Item = u32>) {
    batch.clear();
    batch.fits = true;
    for i in list {
        let key = view.record(i as usize).0;
        batch.fits &= key.len() < LONGEST_KEY;
        batch.hashes.push(view.hash(i as usize));
        batch.keys.extend_from_slice(key);
        batch.ends.push(batch.keys.len() as u32);
        batch.index.push(i);
    }
}

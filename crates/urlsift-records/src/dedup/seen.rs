//! The seen-set: the first record of each key (or the first N, with
//! [`Seen::samples`]), in input order, in memory
//! up to a budget and in hash-partitioned spill files beyond it, so inputs
//! larger than memory work (see `spill.rs`). Keys are compared as exact
//! bytes (the xxh3-64 hash only picks slots and partitions), so two
//! different keys are never taken for duplicates.

use std::io::Write;
use std::path::PathBuf;

use xxhash_rust::xxh3::xxh3_64;

use super::keys::{Keys, Place};
use super::spill::{self, Spill};
use super::table::{Slot, Table};
use crate::chunk::Chunk;
use crate::error::Error;
use crate::processed::Processed;

/// How many records ahead the seen-set lookups are prefetched: the table
/// slot this far ahead, then (once that slot is in cache) the key bytes it
/// points to, half as far ahead.
const PREFETCH_AHEAD: usize = 16;

/// Marks keys of passed-through invalid lines: 0xFF never starts UTF-8.
const RAW_KEY: u8 = 0xFF;
/// Arena block size: keys and lines are copied into blocks this large.
const BLOCK: usize = 1 << 20;

/// Where bytes sit in the [`Arena`].
#[derive(Clone, Copy)]
struct Span {
    block: usize,
    start: usize,
    len: usize,
}

impl Span {
    /// Where a table slot's key is.
    #[inline(always)]
    fn of(slot: &Slot) -> Span {
        Span {
            block: slot.block(),
            start: slot.start(),
            len: slot.len(),
        }
    }
}

/// Append-only storage for keys and lines: one allocation per megabyte
/// instead of one per key, and nothing is ever moved.
#[derive(Default)]
struct Arena {
    blocks: Vec<Vec<u8>>,
    allocated: usize,
}

impl Arena {
    fn push(&mut self, bytes: &[u8]) -> Span {
        self.push_after(&[], bytes)
    }

    /// Pushes `prefix` and `bytes` next to each other (in one block);
    /// returns the span of `bytes`.
    fn push_after(&mut self, prefix: &[u8], bytes: &[u8]) -> Span {
        let len = prefix.len() + bytes.len();
        let fits = self
            .blocks
            .last()
            .is_some_and(|b| b.capacity() - b.len() >= len);
        if !fits {
            let cap = BLOCK.max(len);
            self.allocated += cap;
            self.blocks.push(Vec::with_capacity(cap));
        }
        let block = self.blocks.len() - 1;
        let b = &mut self.blocks[block];
        b.extend_from_slice(prefix);
        let start = b.len();
        b.extend_from_slice(bytes);
        Span {
            block,
            start,
            len: bytes.len(),
        }
    }

    fn get(&self, s: Span) -> &[u8] {
        &self.blocks[s.block][s.start..s.start + s.len]
    }
}

/// A record held for the end (with `--count`): a key's first record, or
/// one of its later samples.
struct Entry {
    key: Span,
    /// The line, kept only with `--count` (otherwise it is written at once).
    line: Option<Span>,
    seq: u64,
    /// On a key's first entry: how many records had the key (0 on the others).
    count: u64,
    /// The index of the key's first entry (its own, on that one).
    first: u32,
    /// On a key's first entry: how many of its records are kept.
    kept: u32,
}

/// Entries per block of [`Entries`].
const ENTRY_BLOCK: usize = 1 << 15;

/// Entries in first-occurrence order, in fixed-size blocks: growing never
/// copies (or briefly doubles) the whole set, which keeps peak memory
/// close to the budget.
#[derive(Default)]
struct Entries {
    blocks: Vec<Vec<Entry>>,
    len: usize,
}

impl Entries {
    fn push(&mut self, e: Entry) {
        if self.len.is_multiple_of(ENTRY_BLOCK) {
            self.blocks.push(Vec::with_capacity(ENTRY_BLOCK));
        }
        self.blocks.last_mut().expect("a block").push(e);
        self.len += 1;
    }

    fn get_mut(&mut self, i: u32) -> &mut Entry {
        let i = i as usize;
        &mut self.blocks[i / ENTRY_BLOCK][i % ENTRY_BLOCK]
    }

    fn get(&self, i: u32) -> &Entry {
        let i = i as usize;
        &self.blocks[i / ENTRY_BLOCK][i % ENTRY_BLOCK]
    }

    fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.blocks.iter().flatten()
    }

    /// Bytes reserved by the blocks.
    fn reserved(&self) -> usize {
        self.blocks.len() * ENTRY_BLOCK * std::mem::size_of::<Entry>()
    }
}

/// The seen-set: keeps the first record of each key (the first N with
/// [`Seen::samples`]), in input order.
/// In memory it is a hash table of keys (with indexes into `entries`,
/// which are in input order, under `count`); equal hashes are
/// confirmed byte by byte. Past its memory budget it moves to
/// hash-partitioned spill files (`spill.rs`).
///
/// With `count` or samples, a key's arena bytes are preceded by a 4-byte
/// word: the index of its first entry (`count`), or how many of its
/// records went out (samples alone).
pub struct Seen {
    table: Table,
    entries: Entries,
    arena: Arena,
    budget: u64,
    count_mode: bool,
    samples: u32,
    seq: u64,
    /// Records written so far, and distinct keys seen in memory.
    written: u64,
    spill: Option<(tempfile::TempDir, Spill, u64)>,
    tmp_dir: Option<PathBuf>,
    terminator: u8,
    /// Scratch for the keys of passed-through bad records.
    raw_key: Vec<u8>,
}

impl Seen {
    /// A seen-set that holds up to `budget` bytes in memory, then spills
    /// to a directory it makes in `tmp_dir` (default: the system's temp
    /// directory). `count`: keep each first record until the end, to write
    /// it with its number of occurrences (as `uniq -c`); otherwise a first
    /// record is written at once. `terminator` ends the records written.
    pub fn new(budget: u64, count: bool, tmp_dir: Option<PathBuf>, terminator: u8) -> Seen {
        Seen {
            table: Table::default(),
            entries: Entries::default(),
            arena: Arena::default(),
            budget,
            count_mode: count,
            samples: 1,
            seq: 0,
            written: 0,
            spill: None,
            tmp_dir,
            terminator,
            raw_key: Vec::new(),
        }
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
        self.samples = n.max(1);
        self
    }

    /// How many records were offered.
    pub fn records(&self) -> u64 {
        self.seq
    }

    /// Whether a key's arena bytes carry the 4-byte word before them.
    fn prefixed(&self) -> bool {
        self.count_mode || self.samples > 1
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
        // Walk the chunk's records in order: parsed lines and kept bad
        // lines (a kept line comes before the records at or after its end).
        let (data, buf, keys) = (&chunk.data[..], &p.out, &p.extra.keys);
        let mut kept = p.kept.iter().peekable();
        // Lookups are independent cache misses: start each a few records
        // ahead, so they overlap instead of following one another.
        let mut ahead = p.extra.held.iter().map(|h| h.hash);
        let mut near = p.extra.held.iter().map(|h| h.hash);
        for hash in ahead.by_ref().take(PREFETCH_AHEAD) {
            self.prefetch(hash);
        }
        for hash in near.by_ref().take(PREFETCH_AHEAD / 2) {
            self.prefetch_key(hash);
        }
        for h in &p.extra.held {
            while let Some(&span) = kept.next_if(|&&(_, end)| end <= h.at) {
                self.offer_kept(&buf[span.0..span.1 - 1], out)?;
            }
            if let Some(next) = ahead.next() {
                self.prefetch(next);
            }
            if let Some(next) = near.next() {
                self.prefetch_key(next);
            }
            let (key, line) = match h.place {
                Place::Out { end, key } => (&keys[key.0..key.1], &buf[h.at..end - 1]),
                Place::Input {
                    start,
                    end,
                    key_end,
                } => (&data[start..key_end], &data[start..end]),
            };
            self.offer(h.hash, key, line, out)?;
        }
        for &span in kept {
            self.offer_kept(&buf[span.0..span.1 - 1], out)?;
        }
        Ok(())
    }

    /// Offers a bad record passed through, keyed by its raw bytes.
    fn offer_kept<W: Write>(&mut self, line: &[u8], out: &mut W) -> Result<(), Error> {
        let mut raw_key = std::mem::take(&mut self.raw_key);
        raw_key.clear();
        raw_key.push(RAW_KEY);
        raw_key.extend_from_slice(line);
        let offered = self.offer(xxh3_64(&raw_key), &raw_key, line, out);
        self.raw_key = raw_key;
        offered
    }
    /// Estimated memory held: arena blocks, entries and table slots.
    fn bytes(&self) -> u64 {
        (self.arena.allocated + self.entries.reserved() + self.table.bytes()) as u64
    }

    /// Starts loading the table slot a lookup of `hash` will read.
    #[inline]
    fn prefetch(&self, hash: u64) {
        if self.spill.is_none() {
            self.table.prefetch(hash);
        }
    }

    /// Starts loading the key bytes a lookup of `hash` will compare, when
    /// its table slot (prefetched earlier) names them.
    #[inline]
    fn prefetch_key(&self, hash: u64) {
        if self.spill.is_none()
            && let Some(slot) = self.table.home_slot(hash)
            && let Some(block) = self.arena.blocks.get(slot.block())
            && let Some(byte) = block.get(slot.start())
        {
            urlsift::simd::prefetch(byte);
        }
    }

    /// Records one line with its key and the key's xxh3-64 `hash`.
    fn offer<W: Write>(
        &mut self,
        hash: u64,
        key: &[u8],
        line: &[u8],
        out: &mut W,
    ) -> Result<(), Error> {
        let seq = self.seq;
        self.seq += 1;
        if let Some((_, spill, _)) = &mut self.spill {
            return spill.push(hash, seq, 1, key, line).map_err(spill_err);
        }
        let arena = &self.arena;
        let found = self.table.find(hash, |slot| {
            slot.hash == hash && arena.get(Span::of(slot)) == key
        });
        if let Some(slot) = found {
            if self.prefixed() {
                return self.again(Span::of(&slot), seq, line, out);
            }
            return Ok(());
        }
        let index = u32::try_from(self.entries.len)
            .map_err(|_| Error::Usage("dedup: over 4 billion keys in memory".into()))?;
        let key_span = if self.count_mode {
            self.arena.push_after(&index.to_le_bytes(), key)
        } else if self.samples > 1 {
            // One of its records goes out now.
            self.arena.push_after(&1u32.to_le_bytes(), key)
        } else {
            self.arena.push(key)
        };
        let Some(slot) = Slot::new(hash, key_span.block, key_span.start, key_span.len) else {
            // A key too long for a slot (32 MiB or more), or an arena past
            // 256 GiB: the seen-set moves to disk, where keys of any length
            // go, this record first among those still to decide.
            self.seq = seq;
            self.start_spill()?;
            self.seq = seq + 1;
            let (_, spill, _) = self.spill.as_mut().expect("spilling");
            return spill.push(hash, seq, 1, key, line).map_err(spill_err);
        };
        if self.count_mode {
            // Counts and lines are kept for the end, in first-occurrence
            // order. Without --count the line goes out now and the table
            // alone is the seen-set (no entry: a seen-set of a million
            // keys touches 70 MB less fresh memory).
            let line = Some(self.arena.push(line));
            self.entries.push(Entry {
                key: key_span,
                line,
                seq,
                count: 1,
                first: index,
                kept: 1,
            });
        } else {
            write_line(out, line, self.terminator)?;
            self.written += 1;
        }
        self.table.insert(slot);
        if self.bytes() > self.budget {
            self.start_spill()?;
        }
        Ok(())
    }

    /// A record whose key (at `key` in the arena, after its word) was seen:
    /// counted, and kept while its key has fewer than `samples` kept.
    fn again<W: Write>(
        &mut self,
        key: Span,
        seq: u64,
        line: &[u8],
        out: &mut W,
    ) -> Result<(), Error> {
        let word = &mut self.arena.blocks[key.block][key.start - 4..key.start];
        let value = u32::from_le_bytes((&*word).try_into().expect("4 bytes"));
        if !self.count_mode {
            if value < self.samples {
                word.copy_from_slice(&(value + 1).to_le_bytes());
                write_line(out, line, self.terminator)?;
                self.written += 1;
            }
            return Ok(());
        }
        // The word is the index of the key's first entry.
        let first = self.entries.get_mut(value);
        first.count += 1;
        if first.kept >= self.samples {
            return Ok(());
        }
        first.kept += 1;
        let line = Some(self.arena.push(line));
        self.entries.push(Entry {
            key,
            line,
            seq,
            count: 0,
            first: value,
            kept: 0,
        });
        if self.bytes() > self.budget {
            self.start_spill()?;
        }
        Ok(())
    }

    /// Moves the seen-set to disk; from now on every record is spilled.
    fn start_spill(&mut self) -> Result<(), Error> {
        let base = match &self.tmp_dir {
            Some(d) => d.clone(),
            None => std::env::temp_dir(),
        };
        let dir = tempfile::Builder::new()
            .prefix("urlsift-dedup-")
            .tempdir_in(&base)
            .map_err(|error| Error::Spill {
                what: format!("spill directory in {}", base.display()),
                error,
            })?;
        let mut spill = Spill::create(dir.path(), "p", 0).map_err(spill_err)?;
        if self.count_mode {
            // Every record held, in input order; a key's count rides on
            // its first (the others carry 0, and the reduction sums them).
            for e in self.entries.iter() {
                let line = e.line.map_or(&[][..], |l| self.arena.get(l));
                let key = self.arena.get(e.key);
                spill
                    .push(xxh3_64(key), e.seq, e.count, key, line)
                    .map_err(spill_err)?;
            }
        } else {
            // Keys whose lines are already written: they only need to be
            // known as seen (sequence 0 is before the spill's start), once
            // for each record of theirs that went out (those take sample
            // places).
            for slot in self.table.slots() {
                let span = Span::of(&slot);
                let written = if self.samples > 1 {
                    let word = &self.arena.blocks[span.block][span.start - 4..span.start];
                    u32::from_le_bytes(word.try_into().expect("4 bytes"))
                } else {
                    1
                };
                let key = self.arena.get(span);
                for _ in 0..written {
                    spill.push(slot.hash, 0, 1, key, &[]).map_err(spill_err)?;
                }
            }
        }
        self.table = Table::default();
        self.entries = Entries::default();
        self.arena = Arena::default();
        // Without --count, lines before this point are already written.
        let from = if self.count_mode { 0 } else { self.seq };
        self.spill = Some((dir, spill, from));
        Ok(())
    }

    /// Writes whatever is still held back to `out`; returns the number of
    /// records written (the number of distinct keys, without samples).
    pub fn finish<W: Write>(self, out: &mut W) -> Result<u64, Error> {
        let count_mode = self.count_mode;
        let terminator = self.terminator;
        let mut written = self.written;
        let mut emit = |count: u64, line: &[u8]| -> Result<(), Error> {
            written += 1;
            if count_mode {
                out.write_all(format!("{count:>7} ").as_bytes())
                    .map_err(Error::Output)?;
            }
            write_line(out, line, terminator)
        };
        if let Some((dir, spill, from)) = self.spill {
            let runs = spill
                .resolve(self.budget, from, self.samples)
                .map_err(spill_err)?;
            spill::merge(runs, &mut emit, spill_err)?;
            drop(dir);
        } else if count_mode {
            for e in self.entries.iter() {
                let count = self.entries.get(e.first).count;
                emit(count, e.line.map_or(&[][..], |l| self.arena.get(l)))?;
            }
        }
        Ok(written)
    }
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

/// A set of keys in memory: the seen-set's hash table and arena without
/// its records, spill or counts (for callers that keep the records
/// themselves, such as Parquet rows). Keys are compared as exact bytes.
///
/// ```
/// use urlsift_records::dedup::KeySet;
/// use xxhash_rust::xxh3::xxh3_64;
///
/// let mut set = KeySet::default();
/// assert_eq!(set.insert(xxh3_64(b"a.example"), b"a.example"), Some(true));
/// assert_eq!(set.insert(xxh3_64(b"a.example"), b"a.example"), Some(false));
/// assert_eq!(set.len(), 1);
///
/// // Up to two records of each key.
/// let mut set = KeySet::with_samples(2);
/// let takes: Vec<_> = (0..3).map(|_| set.insert(xxh3_64(b"k"), b"k")).collect();
/// assert_eq!(takes, [Some(true), Some(true), Some(false)]);
/// ```
#[derive(Default)]
pub struct KeySet {
    table: Table,
    arena: Arena,
    len: u64,
    /// Records taken per key (0 and 1 both mean one). Above one, a key's
    /// arena bytes are preceded by how many of its records were taken.
    samples: u32,
}

impl KeySet {
    /// A set that takes up to `n` records of each key ([`KeySet::insert`]).
    pub fn with_samples(n: u32) -> KeySet {
        KeySet {
            samples: n,
            ..KeySet::default()
        }
    }

    /// Adds `key` (whose xxh3-64 hash is `hash`): `Some(true)` if it is
    /// new (or, [`KeySet::with_samples`], one of its key's first records),
    /// `Some(false)` otherwise; `None` for a key of 32 MiB or
    /// more (or an arena past 256 GiB), which the set cannot hold.
    pub fn insert(&mut self, hash: u64, key: &[u8]) -> Option<bool> {
        let arena = &self.arena;
        let found = self.table.find(hash, |slot| {
            slot.hash == hash && arena.get(Span::of(slot)) == key
        });
        if let Some(slot) = found {
            if self.samples <= 1 {
                return Some(false);
            }
            let at = Span::of(&slot);
            let word = &mut self.arena.blocks[at.block][at.start - 4..at.start];
            let taken = u32::from_le_bytes((&*word).try_into().expect("4 bytes"));
            if taken >= self.samples {
                return Some(false);
            }
            word.copy_from_slice(&(taken + 1).to_le_bytes());
            return Some(true);
        }
        let span = if self.samples > 1 {
            self.arena.push_after(&1u32.to_le_bytes(), key)
        } else {
            self.arena.push(key)
        };
        let slot = Slot::new(hash, span.block, span.start, span.len)?;
        self.table.insert(slot);
        self.len += 1;
        Some(true)
    }

    /// Starts loading the table slot a lookup of `hash` will read.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        self.table.prefetch(hash);
    }

    /// How many keys it holds.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether it holds no key.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Estimated memory held: arena blocks and table slots.
    pub fn bytes(&self) -> u64 {
        (self.arena.allocated + self.table.bytes()) as u64
    }
}

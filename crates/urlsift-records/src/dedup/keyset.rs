//! One partition of the in-memory seen-set ([`Part`]: a hash table of
//! keys over an arena, with counts and samples), and [`KeySet`], that
//! partition alone for callers that keep the records themselves (Parquet
//! rows, links).

use super::arena::{Arena, Entries, Entry, Span};
use super::table::{Slot, Table};

/// Keys this long or longer do not fit a table slot: a chunk holding one
/// moves the seen-set to disk, where keys of any length go.
pub(super) const LONGEST_KEY: usize = (1 << 25) - 8;
/// Arena blocks a partition may hold (a slot's block field).
pub(super) const MOST_BLOCKS: usize = 1 << 18;

/// What the seen-set keeps of each key.
#[derive(Clone, Copy)]
pub(super) struct Mode {
    /// Records are held to the end and written with their key's count.
    pub(super) count: bool,
    /// Records kept per key (at least one).
    pub(super) samples: u32,
}

impl Mode {
    /// Whether a key's arena bytes carry the 4-byte word before them.
    pub(super) fn prefixed(self) -> bool {
        self.count || self.samples > 1
    }
}

/// One hash partition of the in-memory seen-set: a hash table of keys
/// (with indexes into `entries`, which are in input order, under
/// `count`); equal hashes are confirmed byte by byte.
///
/// With `count` or samples, a key's arena bytes are preceded by a 4-byte
/// word: the index of its first entry (`count`), or how many of its
/// records went out (samples alone).
#[derive(Default)]
pub(super) struct Part {
    pub(super) table: Table,
    pub(super) entries: Entries,
    pub(super) arena: Arena,
}

impl Part {
    /// Estimated memory held: arena blocks, entries and table slots.
    pub(super) fn bytes(&self) -> usize {
        self.arena.allocated + self.entries.reserved() + self.table.bytes()
    }

    /// Starts loading the table slot a lookup of `hash` will read.
    #[inline]
    pub(super) fn prefetch(&self, hash: u64) {
        self.table.prefetch(hash);
    }

    /// Starts loading the key bytes a lookup of `hash` will compare, when
    /// its table slot (prefetched earlier) names them.
    #[inline]
    pub(super) fn prefetch_key(&self, hash: u64) {
        if let Some(slot) = self.table.home_slot(hash)
            && let Some(block) = self.arena.blocks.get(slot.block())
            && let Some(byte) = block.get(slot.start())
        {
            urlsift::simd::prefetch(byte);
        }
    }

    /// Records one record (its key, the key's xxh3-64 `hash`, its line,
    /// its place `seq` in the input); returns whether its line goes out
    /// now. The key fits a slot (the caller checked: [`LONGEST_KEY`],
    /// [`MOST_BLOCKS`]).
    pub(super) fn offer(
        &mut self,
        mode: Mode,
        hash: u64,
        key: &[u8],
        line: &[u8],
        seq: u64,
    ) -> bool {
        let arena = &self.arena;
        let found = self.table.find(hash, |slot| {
            slot.hash == hash && arena.get(Span::of(slot)) == key
        });
        if let Some(slot) = found {
            return mode.prefixed() && self.again(mode, Span::of(&slot), seq, line);
        }
        let index = self.entries.len as u32;
        let key_span = if mode.count {
            self.arena.push_after(&index.to_le_bytes(), key)
        } else if mode.samples > 1 {
            // One of its records goes out now.
            self.arena.push_after(&1u32.to_le_bytes(), key)
        } else {
            self.arena.push(key)
        };
        let slot = Slot::new(hash, key_span.block, key_span.start, key_span.len)
            .expect("the chunk's keys were checked to fit a slot");
        self.table.insert(slot);
        if mode.count {
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
            return false;
        }
        true
    }

    /// A record whose key (at `key` in the arena, after its word) was seen:
    /// counted, and kept while its key has fewer than `samples` kept;
    /// returns whether its line goes out now.
    fn again(&mut self, mode: Mode, key: Span, seq: u64, line: &[u8]) -> bool {
        let word = &mut self.arena.blocks[key.block][key.start - 4..key.start];
        let value = u32::from_le_bytes((&*word).try_into().expect("4 bytes"));
        if !mode.count {
            if value < mode.samples {
                word.copy_from_slice(&(value + 1).to_le_bytes());
                return true;
            }
            return false;
        }
        // The word is the index of the key's first entry.
        let first = self.entries.get_mut(value);
        first.count += 1;
        if first.kept >= mode.samples {
            return false;
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
        false
    }
}

/// A set of keys in memory: one partition of the seen-set, without its
/// records, spill or counts (for callers that keep the records
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
    part: Part,
    /// Records taken per key (0 and 1 both mean one).
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
        if key.len() >= LONGEST_KEY || self.part.arena.blocks.len() + 2 >= MOST_BLOCKS {
            return None;
        }
        let mode = Mode {
            count: false,
            samples: self.samples.max(1),
        };
        Some(self.part.offer(mode, hash, key, &[], 0))
    }

    /// Starts loading the table slot a lookup of `hash` will read.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        self.part.prefetch(hash);
    }

    /// How many keys it holds.
    pub fn len(&self) -> u64 {
        self.part.table.len() as u64
    }

    /// Whether it holds no key.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Estimated memory held: arena blocks and table slots.
    pub fn bytes(&self) -> u64 {
        self.part.bytes() as u64
    }
}

//! A set of keys in memory, for callers that keep the records themselves.

use super::arena::{Arena, Span};
use super::table::{Slot, Table};

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

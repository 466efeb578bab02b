//! One partition of the in-memory seen-set ([`Part`]: a hash table of
//! keys over an arena, with counts and samples).

use super::arena::{Arena, Entries, Entry, Span};
use super::table::{Slot, Table};

/// Keys this long or longer do not fit a table slot: a chunk holding one
/// moves the seen-set to disk, where keys of any length go.
pub(super) const LONGEST_KEY: usize = (1 << 25) - 8;
/// Arena blocks a partition may hold (a slot's block field).
pub(super) const MOST_BLOCKS: usize = 1 << 18;
/// How many records ahead the seen-set lookups are prefetched
/// ([`Part::in_turn`]).
pub(super) const PREFETCH_AHEAD: usize = 16;

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
///
/// Each partition is alone on its cache lines (128 bytes: adjacent-line
/// prefetchers pull lines in pairs): partitions are looked up on threads
/// of their own, and one's inserts must not take its neighbours' fields
/// from the other cores' caches.
#[derive(Default)]
#[repr(align(128))]
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

    /// Hands `each` the items one after another, this partition with
    /// them, the lookups their key `hash`es will make started a few items
    /// ahead: lookups are independent cache misses, so they overlap
    /// instead of following one another (the table slot
    /// [`PREFETCH_AHEAD`] items ahead, then, once that slot is in cache,
    /// the key bytes it points to, half as far).
    pub(super) fn in_turn<I: Iterator + Clone, E>(
        &mut self,
        items: I,
        hash: impl Fn(&I::Item) -> u64,
        mut each: impl FnMut(&mut Part, I::Item) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut ahead = items.clone().map(|item| hash(&item));
        let mut near = items.clone().map(|item| hash(&item));
        for hash in ahead.by_ref().take(PREFETCH_AHEAD) {
            self.prefetch(hash);
        }
        for hash in near.by_ref().take(PREFETCH_AHEAD / 2) {
            self.prefetch_key(hash);
        }
        for item in items {
            if let Some(next) = ahead.next() {
                self.prefetch(next);
            }
            if let Some(next) = near.next() {
                self.prefetch_key(next);
            }
            each(self, item)?;
        }
        Ok(())
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
            urlsift_simd::prefetch(byte);
        }
    }

    /// Records one record (its key, the key's xxh3-64 `hash`, its line,
    /// its place `seq` in the input); returns whether its line goes out
    /// now. The key fits a slot (the caller checked: [`LONGEST_KEY`],
    /// [`MOST_BLOCKS`]).
    ///
    /// [`Part::offer_first`] is this for the first record of each key
    /// alone.
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

    /// Records one record's key (and its xxh3-64 `hash`) when only the
    /// first record of each key goes out (no count, one sample): where
    /// the arena holds the key when it is new (its record goes out now),
    /// `None` when it was seen. The key fits a slot, as for
    /// [`Part::offer`].
    pub(super) fn offer_first(&mut self, hash: u64, key: &[u8]) -> Option<Span> {
        let arena = &self.arena;
        let found = self.table.find(hash, |slot| {
            slot.hash == hash && arena.get(Span::of(slot)) == key
        });
        if found.is_some() {
            return None;
        }
        let span = self.arena.push(key);
        let slot = Slot::new(hash, span.block, span.start, span.len)
            .expect("the batch's keys were checked to fit a slot");
        self.table.insert(slot);
        Some(span)
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

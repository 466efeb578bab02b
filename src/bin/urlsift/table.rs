//! The dedup seen-set's hash table: open addressing with linear probing
//! over one array of fixed-size slots, so that a lookup's address is
//! known from the hash alone and can be prefetched while earlier keys of
//! the batch are being looked up. (A general-purpose table probes a
//! control array, then the slots: two dependent cache misses per lookup,
//! which dominated dedup's serial thread.)

use urlsift::simd::prefetch;

/// One entry: the key's full hash, where its bytes are (`block`, `start`,
/// `len`, interpreted by the owner) and its index in first-occurrence
/// order. An empty slot has `index == EMPTY`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub hash: u64,
    pub block: u32,
    pub start: u32,
    pub len: u32,
    pub index: u32,
}

const EMPTY: u32 = u32::MAX;
const VACANT: Slot = Slot {
    hash: 0,
    block: 0,
    start: 0,
    len: 0,
    index: EMPTY,
};

/// Slots with a power-of-two count, at most 7/10 full.
#[derive(Default)]
pub struct Table {
    slots: Vec<Slot>,
    len: usize,
}

impl Table {
    /// Bytes held by the slots.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    #[inline(always)]
    fn home(&self, hash: u64) -> usize {
        // The top bits: the low ones also pick spill partitions.
        (hash >> 16) as usize & (self.slots.len() - 1)
    }

    /// Starts loading the slot where a lookup of `hash` begins.
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        if !self.slots.is_empty() {
            prefetch(&self.slots[self.home(hash)]);
        }
    }

    /// The slot where a lookup of `hash` begins, if it holds that hash
    /// (most lookups end there): read once [`Table::prefetch`] has loaded it.
    #[inline(always)]
    pub fn home_slot(&self, hash: u64) -> Option<&Slot> {
        if self.slots.is_empty() {
            return None;
        }
        let slot = &self.slots[self.home(hash)];
        (slot.index != EMPTY && slot.hash == hash).then_some(slot)
    }

    /// The slot holding a key with this hash for which `same` is true.
    #[inline]
    pub fn find(&self, hash: u64, mut same: impl FnMut(&Slot) -> bool) -> Option<&Slot> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(hash);
        loop {
            let slot = &self.slots[i];
            if slot.index == EMPTY {
                return None;
            }
            if slot.hash == hash && same(slot) {
                return Some(slot);
            }
            i = (i + 1) & mask;
        }
    }

    /// The occupied slots, in no particular order.
    pub fn slots(&self) -> impl Iterator<Item = &Slot> {
        self.slots.iter().filter(|s| s.index != EMPTY)
    }

    /// Adds a slot whose key is known to be absent.
    pub fn insert(&mut self, slot: Slot) {
        debug_assert_ne!(slot.index, EMPTY);
        if (self.len + 1) * 10 > self.slots.len() * 7 {
            self.grow();
        }
        self.place(slot);
        self.len += 1;
    }

    fn place(&mut self, slot: Slot) {
        let mask = self.slots.len() - 1;
        let mut i = self.home(slot.hash);
        while self.slots[i].index != EMPTY {
            i = (i + 1) & mask;
        }
        self.slots[i] = slot;
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(1 << 12);
        let old = std::mem::replace(&mut self.slots, vec![VACANT; size]);
        for slot in old.into_iter().filter(|s| s.index != EMPTY) {
            self.place(slot);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slot(hash: u64, index: u32) -> Slot {
        Slot {
            hash,
            block: 0,
            start: index,
            len: 1,
            index,
        }
    }

    #[test]
    fn finds_what_was_inserted_through_growth_and_collisions() {
        let mut t = Table::default();
        assert!(t.find(7, |_| true).is_none());
        // Many keys share a home slot (equal hashes above bit 16 modulo the
        // size), and some share the whole hash: `same` tells them apart.
        let hash = |i: u32| u64::from(i % 1000) << 40 | u64::from(i % 3);
        for i in 0..20_000u32 {
            assert!(t.find(hash(i), |s| s.start == i).is_none(), "{i}");
            t.insert(slot(hash(i), i));
            t.prefetch(hash(i));
        }
        for i in 0..20_000u32 {
            let found = t.find(hash(i), |s| s.start == i).expect("present");
            assert_eq!(found.index, i);
        }
        assert!(t.find(hash(5), |s| s.start == 20_001).is_none());
        assert!(t.bytes() >= 20_000 * std::mem::size_of::<Slot>());
    }
}

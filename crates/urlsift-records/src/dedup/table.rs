//! The dedup seen-set's hash table: open addressing with linear probing
//! over one array of fixed-size slots, so that a lookup's address is
//! known from the hash alone and can be prefetched while earlier keys of
//! the batch are being looked up. (A general-purpose table probes a
//! control array, then the slots: two dependent cache misses per lookup,
//! which dominated dedup's serial thread.)

use urlsift_simd::prefetch;

/// One entry, 16 bytes: the key's full hash and where its bytes are
/// (`block`, `start`, `len`, interpreted by the owner), packed in one word
/// whose top bit marks the slot as taken. (A third smaller than the four
/// fields it was: a seen-set of a million keys is tens of megabytes of
/// fresh memory, and most lookups miss the caches.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub hash: u64,
    place: u64,
}

const TAKEN: u64 = 1 << 63;
const LEN_BITS: u32 = 25;
const START_BITS: u32 = 20;
const BLOCK_BITS: u32 = 18;

impl Slot {
    /// The slot of a key at `start` in block `block`, `len` bytes long;
    /// `None` when a field is too wide (a block past 2^18, a start past
    /// 2^20, a key of 32 MiB or more).
    pub fn new(hash: u64, block: usize, start: usize, len: usize) -> Option<Slot> {
        let fits = |v: usize, bits: u32| (v as u64) < 1 << bits;
        (fits(block, BLOCK_BITS) && fits(start, START_BITS) && fits(len, LEN_BITS)).then(|| {
            let place = TAKEN
                | (block as u64) << (START_BITS + LEN_BITS)
                | (start as u64) << LEN_BITS
                | len as u64;
            Slot { hash, place }
        })
    }

    /// The slot stored as `[hash, place]` in the table.
    #[inline(always)]
    fn from_words([hash, place]: [u64; 2]) -> Slot {
        Slot { hash, place }
    }

    #[inline(always)]
    fn is_taken(&self) -> bool {
        self.place & TAKEN != 0
    }

    #[inline(always)]
    pub fn block(&self) -> usize {
        ((self.place & !TAKEN) >> (START_BITS + LEN_BITS)) as usize
    }

    #[inline(always)]
    pub fn start(&self) -> usize {
        (self.place >> LEN_BITS) as usize & ((1 << START_BITS) - 1)
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.place as usize & ((1 << LEN_BITS) - 1)
    }
}

/// Slots with a power-of-two count, at most 7/10 full.
///
/// A slot is stored as two words, `[hash, place]`, all zero when vacant:
/// a new array of them is then allocated zeroed (`vec![[0; 2]; n]` is a
/// `calloc`), and fresh pages from the system need no writing, where
/// filling a `Vec<Slot>` wrote every slot once before any key went in
/// (the kernel still zeroes each page on first touch).
#[derive(Default)]
pub struct Table {
    slots: Vec<[u64; 2]>,
    len: usize,
}

impl Table {
    /// Bytes held by the slots.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<[u64; 2]>()
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
    pub fn home_slot(&self, hash: u64) -> Option<Slot> {
        if self.slots.is_empty() {
            return None;
        }
        let slot = Slot::from_words(self.slots[self.home(hash)]);
        (slot.is_taken() && slot.hash == hash).then_some(slot)
    }

    /// The slot holding a key with this hash for which `same` is true.
    #[inline]
    pub fn find(&self, hash: u64, mut same: impl FnMut(&Slot) -> bool) -> Option<Slot> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(hash);
        loop {
            let slot = Slot::from_words(self.slots[i]);
            if !slot.is_taken() {
                return None;
            }
            if slot.hash == hash && same(&slot) {
                return Some(slot);
            }
            i = (i + 1) & mask;
        }
    }

    /// The occupied slots, in no particular order.
    pub fn slots(&self) -> impl Iterator<Item = Slot> + '_ {
        self.slots
            .iter()
            .map(|&w| Slot::from_words(w))
            .filter(Slot::is_taken)
    }

    /// Adds a slot whose key is known to be absent.
    pub fn insert(&mut self, slot: Slot) {
        debug_assert!(slot.is_taken());
        if (self.len + 1) * 10 > self.slots.len() * 7 {
            self.grow();
        }
        self.place(slot);
        self.len += 1;
    }

    fn place(&mut self, slot: Slot) {
        let mask = self.slots.len() - 1;
        let mut i = self.home(slot.hash);
        while Slot::from_words(self.slots[i]).is_taken() {
            i = (i + 1) & mask;
        }
        self.slots[i] = [slot.hash, slot.place];
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(1 << 12);
        let old = std::mem::replace(&mut self.slots, vec![[0; 2]; size]);
        for slot in old.into_iter().map(Slot::from_words).filter(Slot::is_taken) {
            self.place(slot);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slot(hash: u64, index: u32) -> Slot {
        Slot::new(hash, 0, index as usize, 1).unwrap()
    }

    #[test]
    fn slots_pack_their_fields() {
        let s = Slot::new(7, (1 << 18) - 1, (1 << 20) - 1, (1 << 25) - 1).unwrap();
        assert_eq!(
            (s.hash, s.block(), s.start(), s.len()),
            (7, (1 << 18) - 1, (1 << 20) - 1, (1 << 25) - 1)
        );
        let s = Slot::new(0, 0, 0, 0).unwrap();
        assert!(s.is_taken());
        assert_eq!((s.block(), s.start(), s.len()), (0, 0, 0));
        let s = Slot::new(u64::MAX, 3, 5, 9).unwrap();
        assert_eq!((s.hash, s.block(), s.start(), s.len()), (u64::MAX, 3, 5, 9));
        assert!(Slot::new(1, 1 << 18, 0, 0).is_none());
        assert!(Slot::new(1, 0, 1 << 20, 0).is_none());
        assert!(Slot::new(1, 0, 0, 1 << 25).is_none());
        assert_eq!(std::mem::size_of::<Slot>(), 16);
    }

    #[test]
    fn finds_what_was_inserted_through_growth_and_collisions() {
        let mut t = Table::default();
        assert!(t.find(7, |_| true).is_none());
        // Many keys share a home slot (equal hashes above bit 16 modulo the
        // size), and some share the whole hash: `same` tells them apart.
        let hash = |i: u32| u64::from(i % 1000) << 40 | u64::from(i % 3);
        for i in 0..20_000u32 {
            assert!(
                t.find(hash(i), |s| s.start() == i as usize).is_none(),
                "{i}"
            );
            t.insert(slot(hash(i), i));
            t.prefetch(hash(i));
        }
        for i in 0..20_000u32 {
            let found = t
                .find(hash(i), |s| s.start() == i as usize)
                .expect("present");
            assert_eq!(found.start(), i as usize);
        }
        assert!(t.find(hash(5), |s| s.start() == 20_001).is_none());
        assert!(t.bytes() >= 20_000 * std::mem::size_of::<Slot>());
    }
}

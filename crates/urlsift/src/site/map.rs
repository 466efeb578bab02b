//! [`SuffixMap`]: an open-addressing hash table keyed by domain suffixes
//! (`"co.uk"`, `"example.co.uk"`), the one structure behind both the
//! Public Suffix List table and [`SuffixSet`](super::SuffixSet).
//!
//! The hash of a suffix is built label by label from the right
//! ([`SuffixHasher`]), so walking a host from its last label to its first
//! hashes each byte once and probes every dot-suffix on the way: no
//! allocation, no re-hashing of the part already seen. Keys live in one
//! arena `String`; a slot holds the full 64-bit hash (so a probe compares
//! bytes only on a hash match), the key's place in the arena and a value.
//!
//! Most probes miss (the walk stops at the first suffix no key ends with,
//! and for `www.example.com` that is `example.com`), so a bit filter of
//! 16 bits per key, one bit set per key, answers most misses from a few
//! kilobytes without touching the slots.
//!
//! The hash is seeded per process (from the standard library's random
//! source), so hosts crafted to collide in one run do not collide in the
//! next.

use std::hash::{BuildHasher, RandomState};
use std::sync::OnceLock;

/// Multiplier of the label mixer (a 64-bit odd constant with well-spread bits).
const K: u64 = 0x9E37_79B9_7F4A_7C15;

#[inline]
fn mix(a: u64, b: u64) -> u64 {
    let m = u128::from(a ^ b).wrapping_mul(u128::from(K));
    (m as u64) ^ ((m >> 64) as u64)
}

fn seed() -> u64 {
    static SEED: OnceLock<u64> = OnceLock::new();
    *SEED.get_or_init(|| RandomState::new().hash_one(0x5EED_u64) | 1)
}

/// The hash of a suffix, extended one label at a time towards the left.
#[derive(Clone, Copy)]
pub(crate) struct SuffixHasher(u64);

impl SuffixHasher {
    #[inline]
    pub(crate) fn new() -> SuffixHasher {
        SuffixHasher(seed())
    }

    /// The hash of `label` + "." + the suffix hashed so far (or of `label`
    /// alone, first).
    #[inline(always)]
    pub(crate) fn push(self, label: &[u8]) -> SuffixHasher {
        if label.len() <= 8 {
            // One multiply for the common short label.
            return SuffixHasher(mix(self.0 ^ label.len() as u64, word(label)));
        }
        let mut h = mix(self.0, label.len() as u64);
        let mut chunks = label.chunks_exact(8);
        for c in &mut chunks {
            h = mix(h, u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        if !chunks.remainder().is_empty() {
            // The last 8 bytes, overlapping the chunk before.
            h = mix(h, word(&label[label.len() - 8..]));
        }
        SuffixHasher(h)
    }

    /// The finished hash (never 0, which marks an empty slot).
    #[inline]
    pub(crate) fn finish(self) -> u64 {
        self.0 | 1
    }

    /// The hash of a whole suffix, its labels pushed right to left.
    pub(crate) fn of(suffix: &[u8]) -> u64 {
        suffix
            .rsplit(|&b| b == b'.')
            .fold(SuffixHasher::new(), SuffixHasher::push)
            .finish()
    }
}

/// Up to 8 bytes as one word, without a copy through memory (which costs
/// a store-forwarding stall per label): with the length, the word
/// determines the bytes.
#[inline]
fn word(b: &[u8]) -> u64 {
    let n = b.len();
    let u32_at = |i: usize| u64::from(u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes")));
    match n {
        8 => u64::from_le_bytes(b.try_into().expect("8 bytes")),
        4..=7 => u32_at(0) | u32_at(n - 4) << 32,
        1..=3 => u64::from(b[0]) | u64::from(b[n / 2]) << 8 | u64::from(b[n - 1]) << 16,
        0 => 0,
        _ => unreachable!("at most 8 bytes"),
    }
}

/// Byte equality, in words for the short keys that domains are.
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n <= 8 {
        word(a) == word(b)
    } else if n <= 16 {
        word(&a[..8]) == word(&b[..8]) && word(&a[n - 8..]) == word(&b[n - 8..])
    } else {
        a == b
    }
}

/// A key's place: its hash's high half (0: empty), its span in the arena,
/// its value. 12 bytes for a one-byte value.
#[derive(Clone, Copy)]
struct Slot<V> {
    tag: u32,
    start: u32,
    len: u16,
    value: V,
}

impl<V: Default> Slot<V> {
    fn empty() -> Slot<V> {
        Slot {
            tag: 0,
            start: 0,
            len: 0,
            value: V::default(),
        }
    }
}

/// The slot tag of a hash: its high 32 bits, never 0.
#[inline]
fn tag(hash: u64) -> u32 {
    (hash >> 32) as u32 | 1
}

/// The filter bit of a hash: bits 16 to 47, independent of the slot
/// index (low bits) as far as the table is small.
#[inline]
fn filter_bit(hash: u64, mask: usize) -> usize {
    (hash >> 16) as usize & mask
}

/// The longest key a map holds (a domain is at most 253 bytes; set
/// entries longer than this are refused).
pub(crate) const MAX_KEY: usize = u16::MAX as usize;

/// A hash map from suffixes (stored once, in an arena) to `V`.
#[derive(Clone)]
pub(crate) struct SuffixMap<V> {
    arena: String,
    slots: Vec<Slot<V>>,
    mask: usize,
    filter: Vec<u64>,
    filter_mask: usize,
    len: usize,
}

impl<V: Copy + Default> SuffixMap<V> {
    /// An empty map with room for `n` keys before it grows.
    pub(crate) fn with_capacity(n: usize) -> SuffixMap<V> {
        let cap = (n * 2).next_power_of_two().max(16);
        SuffixMap {
            arena: String::new(),
            slots: vec![Slot::empty(); cap],
            mask: cap - 1,
            filter: vec![0; cap / 8],
            filter_mask: cap * 8 - 1,
            len: 0,
        }
    }

    /// The number of keys.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Looks up `key` whose [`SuffixHasher`] hash is `hash`.
    #[inline]
    pub(crate) fn get(&self, hash: u64, key: &[u8]) -> Option<&V> {
        let bit = filter_bit(hash, self.filter_mask);
        if self.filter[bit / 64] & (1 << (bit % 64)) == 0 {
            return None;
        }
        let tag = tag(hash);
        let mut i = hash as usize & self.mask;
        loop {
            let slot = &self.slots[i];
            if slot.tag == 0 {
                return None;
            }
            if slot.tag == tag && same(self.key(slot), key) {
                return Some(&slot.value);
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Hints the CPU to load the filter word and the first slot that
    /// [`SuffixMap::get`] of `hash` reads; no effect on results.
    #[inline]
    pub(crate) fn prefetch(&self, hash: u64) {
        let bit = filter_bit(hash, self.filter_mask);
        crate::simd::prefetch(&self.filter[bit / 64]);
        crate::simd::prefetch(&self.slots[hash as usize & self.mask]);
    }

    #[inline]
    fn key(&self, slot: &Slot<V>) -> &[u8] {
        &self.arena.as_bytes()[slot.start as usize..][..usize::from(slot.len)]
    }

    /// The value of `key`, inserted as `V::default()` if absent. `key` is
    /// ASCII and at most [`MAX_KEY`] bytes (the callers check); the arena
    /// stays under 4 GiB (panics otherwise).
    pub(crate) fn entry(&mut self, key: &str) -> &mut V {
        assert!(
            key.len() <= MAX_KEY,
            "suffix map keys are at most {MAX_KEY} bytes"
        );
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let hash = SuffixHasher::of(key.as_bytes());
        let tag = tag(hash);
        let mut i = hash as usize & self.mask;
        loop {
            let slot = &self.slots[i];
            if slot.tag == 0 {
                break;
            }
            if slot.tag == tag && self.key(slot) == key.as_bytes() {
                return &mut self.slots[i].value;
            }
            i = (i + 1) & self.mask;
        }
        let start = u32::try_from(self.arena.len()).expect("suffix arena under 4 GiB");
        self.arena.push_str(key);
        self.slots[i] = Slot {
            tag,
            start,
            len: key.len() as u16,
            value: V::default(),
        };
        self.set_filter(hash);
        self.len += 1;
        &mut self.slots[i].value
    }

    /// [`SuffixMap::entry`] of `key`, after adding an entry for each of its
    /// dot-suffixes (`example.com` and `com` for `a.example.com`), so that
    /// a walk from the right passes through nodes up to every key.
    pub(crate) fn entry_on_path(&mut self, key: &str) -> &mut V {
        for (i, b) in key.bytes().enumerate() {
            if b == b'.' {
                self.entry(&key[i + 1..]);
            }
        }
        self.entry(key)
    }

    fn set_filter(&mut self, hash: u64) {
        let bit = filter_bit(hash, self.filter_mask);
        self.filter[bit / 64] |= 1 << (bit % 64);
    }

    /// Doubles the slots (and the filter): every key is re-hashed from the
    /// arena, since a slot keeps only half its hash.
    fn grow(&mut self) {
        let cap = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![Slot::empty(); cap]);
        self.mask = cap - 1;
        self.filter = vec![0; cap / 8];
        self.filter_mask = cap * 8 - 1;
        for slot in old.into_iter().filter(|s| s.tag != 0) {
            let hash = SuffixHasher::of(self.key(&slot));
            let mut i = hash as usize & self.mask;
            while self.slots[i].tag != 0 {
                i = (i + 1) & self.mask;
            }
            self.slots[i] = slot;
            self.set_filter(hash);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_hash_equals_whole_hash() {
        let host = b"a.very-long-label-of-more-than-eight.example.co.uk";
        let mut h = SuffixHasher::new();
        let mut end = host.len();
        for (i, label) in host.rsplit(|&b| b == b'.').enumerate() {
            h = h.push(label);
            let start = end - label.len();
            assert_eq!(h.finish(), SuffixHasher::of(&host[start..]), "suffix {i}");
            end = start.saturating_sub(1);
        }
        // A dot is a label boundary, not a byte of the key.
        assert_ne!(SuffixHasher::of(b"ab.c"), SuffixHasher::of(b"a.bc"));
        assert_ne!(SuffixHasher::of(b"a"), SuffixHasher::of(b"a\0"));
    }

    #[test]
    fn words_and_equality() {
        let all: Vec<Vec<u8>> = (0..=20)
            .flat_map(|n| {
                (0..n).map(move |i| (0..n).map(|j| if j == i { b'x' } else { b'a' }).collect())
            })
            .collect();
        for a in &all {
            for b in &all {
                assert_eq!(same(a, b), a == b, "{a:?} {b:?}");
            }
        }
        assert_ne!(word(b"ab"), word(b"ba"));
        assert_ne!(word(b"abcde"), word(b"abdce"));
    }

    #[test]
    fn insert_get_and_grow() {
        let mut map = SuffixMap::<u8>::with_capacity(1);
        for i in 0..1000u32 {
            *map.entry(&format!("l{i}.example")) |= 1;
        }
        *map.entry("l7.example") |= 2;
        assert_eq!(map.len(), 1000);
        let get = |k: &str| {
            map.get(SuffixHasher::of(k.as_bytes()), k.as_bytes())
                .copied()
        };
        assert_eq!(get("l7.example"), Some(3));
        assert_eq!(get("l999.example"), Some(1));
        assert_eq!(get("l1000.example"), None);
        assert_eq!(get("example"), None);
    }
}

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
    #[inline]
    pub(crate) fn push(self, label: &[u8]) -> SuffixHasher {
        let mut h = mix(self.0, label.len() as u64);
        let mut chunks = label.chunks_exact(8);
        for c in &mut chunks {
            h = mix(h, u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            h = mix(h, u64::from_le_bytes(last));
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

#[derive(Clone, Copy)]
struct Slot<V> {
    hash: u64,
    start: u32,
    len: u32,
    value: V,
}

/// A hash map from suffixes (stored once, in an arena) to `V`.
#[derive(Clone)]
pub(crate) struct SuffixMap<V> {
    arena: String,
    slots: Vec<Slot<V>>,
    mask: usize,
    len: usize,
}

impl<V: Copy + Default> SuffixMap<V> {
    /// An empty map with room for `n` keys before it grows.
    pub(crate) fn with_capacity(n: usize) -> SuffixMap<V> {
        let cap = (n * 2).next_power_of_two().max(16);
        SuffixMap {
            arena: String::new(),
            slots: vec![
                Slot {
                    hash: 0,
                    start: 0,
                    len: 0,
                    value: V::default()
                };
                cap
            ],
            mask: cap - 1,
            len: 0,
        }
    }

    /// The number of keys.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Looks up `key` whose [`SuffixHasher`] hash is `hash`.
    #[inline]
    pub(crate) fn get(&self, hash: u64, key: &[u8]) -> Option<&V> {
        let mut i = hash as usize & self.mask;
        loop {
            let slot = &self.slots[i];
            if slot.hash == 0 {
                return None;
            }
            if slot.hash == hash
                && self.arena.as_bytes()[slot.start as usize..][..slot.len as usize] == *key
            {
                return Some(&slot.value);
            }
            i = (i + 1) & self.mask;
        }
    }

    /// The value of `key`, inserted as `V::default()` if absent. `key` is
    /// ASCII (the callers check).
    pub(crate) fn entry(&mut self, key: &str) -> &mut V {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let hash = SuffixHasher::of(key.as_bytes());
        let mut i = hash as usize & self.mask;
        loop {
            let slot = &self.slots[i];
            if slot.hash == 0 {
                break;
            }
            if slot.hash == hash && &self.arena[slot.start as usize..][..slot.len as usize] == key {
                return &mut self.slots[i].value;
            }
            i = (i + 1) & self.mask;
        }
        let start = u32::try_from(self.arena.len()).expect("suffix arena under 4 GiB");
        self.arena.push_str(key);
        self.slots[i] = Slot {
            hash,
            start,
            len: key.len() as u32,
            value: V::default(),
        };
        self.len += 1;
        &mut self.slots[i].value
    }

    fn grow(&mut self) {
        let cap = self.slots.len() * 2;
        let old = std::mem::replace(
            &mut self.slots,
            vec![
                Slot {
                    hash: 0,
                    start: 0,
                    len: 0,
                    value: V::default()
                };
                cap
            ],
        );
        self.mask = cap - 1;
        for slot in old.into_iter().filter(|s| s.hash != 0) {
            let mut i = slot.hash as usize & self.mask;
            while self.slots[i].hash != 0 {
                i = (i + 1) & self.mask;
            }
            self.slots[i] = slot;
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

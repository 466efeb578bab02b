//! The portable reference: one table lookup per byte. Every SIMD kernel is
//! tested against it.

use super::{BlockMasks, ByteSet, Classes};

/// The index of the first byte of `bytes` in `set`.
#[inline]
pub fn find_in_set(bytes: &[u8], set: &ByteSet) -> Option<usize> {
    bytes.iter().position(|&b| set.contains(b))
}

/// The masks of a block of at most 64 bytes, one byte at a time.
// Out of line: the fallback must not bloat the dispatcher, which is
// inlined into its callers.
#[inline(never)]
pub fn block_masks<C: Classes>(block: &[u8]) -> BlockMasks {
    let (set, groups) = (&C::SET, &C::GROUPS);
    let (lo, hi) = C::RANGE;
    let mut m = BlockMasks::default();
    for (i, &b) in block.iter().enumerate() {
        let bit = 1u64 << i;
        if set.contains(b) {
            m.in_set |= bit;
        }
        if (lo..=hi).contains(&b) {
            m.in_range |= bit;
        }
        let mut flags = groups.flags(b);
        while flags != 0 {
            let g = flags.trailing_zeros() as usize;
            m.groups[g] |= bit;
            flags &= flags - 1;
        }
    }
    m
}

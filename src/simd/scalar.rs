//! The portable reference: one table lookup per byte. Every SIMD kernel is
//! tested against it.

use super::ByteSet;

/// The index of the first byte of `bytes` in `set`.
#[inline]
pub fn find_in_set(bytes: &[u8], set: &ByteSet) -> Option<usize> {
    bytes.iter().position(|&b| set.contains(b))
}

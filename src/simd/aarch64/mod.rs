//! aarch64 NEON kernel: 16 bytes a step, same algorithm as SSE2 (range
//! compares plus one equality compare per extra byte), with the final
//! partial block re-read as the last full block.

use std::arch::aarch64::*;

use super::ByteSet;

/// NEON kernel. The caller has checked that the CPU supports NEON.
pub(super) fn find_in_set_neon(bytes: &[u8], set: &ByteSet) -> Option<usize> {
    if bytes.len() < 16 {
        return super::scalar::find_in_set(bytes, set);
    }
    // SAFETY: the dispatcher selects this backend only after
    // `is_aarch64_feature_detected!("neon")` returned true.
    unsafe { neon(bytes, set) }
}

#[target_feature(enable = "neon")]
fn neon(bytes: &[u8], set: &ByteSet) -> Option<usize> {
    let (lo, hi) = set.range();
    let extras = set.extra();
    let n = set.extra_len();
    let lo_v = vdupq_n_u8(lo);
    let hi_v = vdupq_n_u8(hi);
    let block = |offset: usize| -> Option<usize> {
        let chunk = &bytes[offset..offset + 16];
        // SAFETY: `chunk` is exactly 16 readable bytes.
        let v = unsafe { vld1q_u8(chunk.as_ptr()) };
        let mut hits = vorrq_u8(vcltq_u8(v, lo_v), vcgtq_u8(v, hi_v));
        for &e in &extras[..n] {
            hits = vorrq_u8(hits, vceqq_u8(v, vdupq_n_u8(e)));
        }
        if vmaxvq_u8(hits) == 0 {
            return None;
        }
        let mut lanes = [0u8; 16];
        // SAFETY: `lanes` is 16 writable bytes.
        unsafe { vst1q_u8(lanes.as_mut_ptr(), hits) };
        lanes.iter().position(|&l| l != 0)
    };
    let mut offset = 0;
    while offset + 16 <= bytes.len() {
        if let Some(i) = block(offset) {
            return Some(offset + i);
        }
        offset += 16;
    }
    if offset < bytes.len() {
        // Bytes before `offset` held no hit, so the first hit of the last
        // full block is at or after `offset`.
        let last = bytes.len() - 16;
        if let Some(i) = block(last) {
            return Some(last + i);
        }
    }
    None
}

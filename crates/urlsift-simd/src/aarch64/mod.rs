//! aarch64 NEON kernel: 16 bytes a step, same algorithm as SSE2 (range
//! compares plus one equality compare per extra byte), with the final
//! partial block re-read as the last full block.

use std::arch::aarch64::*;

use super::{BlockMasks, ByteSet, Classes, low_bits, padded};

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

/// NEON block masks. The caller has checked that the CPU supports NEON.
#[inline(always)]
pub(super) fn block_masks_neon<C: Classes>(block: &[u8]) -> BlockMasks {
    let buf = padded(block);
    // SAFETY: the dispatcher selects this backend only after
    // `is_aarch64_feature_detected!("neon")` returned true.
    let mut m = unsafe { masks_neon::<C>(&buf) };
    let keep = low_bits(block.len());
    m.in_set &= keep;
    m.in_range &= keep;
    for g in &mut m.groups {
        *g &= keep;
    }
    m
}

/// One bit per byte lane of a compare result (lanes are 0 or 0xFF).
#[target_feature(enable = "neon")]
fn lane_bits(v: uint8x16_t) -> u64 {
    let mut lanes = [0u8; 16];
    // SAFETY: `lanes` is 16 writable bytes.
    unsafe { vst1q_u8(lanes.as_mut_ptr(), v) };
    lanes
        .iter()
        .enumerate()
        .fold(0u64, |acc, (i, &l)| acc | (u64::from(l & 1) << i))
}

#[target_feature(enable = "neon")]
fn masks_neon<C: Classes>(buf: &[u8; 64]) -> BlockMasks {
    let (set, groups) = (&C::SET, &C::GROUPS);
    let (lo, hi) = set.range();
    let extras = &set.extra()[..set.extra_len()];
    let mut m = BlockMasks::default();
    for q in 0..4 {
        let chunk = &buf[q * 16..q * 16 + 16];
        // SAFETY: `chunk` is exactly 16 readable bytes.
        let v = unsafe { vld1q_u8(chunk.as_ptr()) };
        let mut hits = vorrq_u8(vcltq_u8(v, vdupq_n_u8(lo)), vcgtq_u8(v, vdupq_n_u8(hi)));
        for &e in extras {
            hits = vorrq_u8(hits, vceqq_u8(v, vdupq_n_u8(e)));
        }
        let shift = 16 * q;
        m.in_set |= lane_bits(hits) << shift;
        let (rlo, rhi) = C::RANGE;
        let in_range = vandq_u8(vcgeq_u8(v, vdupq_n_u8(rlo)), vcleq_u8(v, vdupq_n_u8(rhi)));
        m.in_range |= lane_bits(in_range) << shift;
        for g in 0..groups.count() {
            let mut eq = vdupq_n_u8(0);
            for &b in groups.group(g) {
                eq = vorrq_u8(eq, vceqq_u8(v, vdupq_n_u8(b)));
            }
            m.groups[g] |= lane_bits(eq) << shift;
        }
    }
    m
}

//! x86_64 kernels: SSE2 (16 bytes a step, always present), AVX2 (32) and,
//! for block masks, AVX-512BW (a whole 64-byte block in one masked load,
//! with compares straight into mask registers).
//!
//! Both test each block for bytes outside the allowed range (unsigned
//! compares done as signed ones on bytes biased by 0x80) and for the extra
//! bytes (one equality compare each), then take the lowest set bit of the
//! movemask. The last partial block is handled by re-reading the final full
//! block, so every load stays inside the slice.

use std::arch::x86_64::*;

use super::{BlockMasks, ByteSet, Classes, Kernel, WithKernel};

/// SSE2 kernel. Callers may pass any length; shorter than a block goes scalar.
pub(super) fn find_in_set_sse2(bytes: &[u8], set: &ByteSet) -> Option<usize> {
    if bytes.len() < 16 {
        return super::scalar::find_in_set(bytes, set);
    }
    // SAFETY: SSE2 is part of the x86_64 baseline, so the target feature
    // the kernel is compiled for is always present.
    unsafe { sse2(bytes, set) }
}

/// AVX2 kernel. The caller has checked that the CPU supports AVX2.
pub(super) fn find_in_set_avx2(bytes: &[u8], set: &ByteSet) -> Option<usize> {
    if bytes.len() < 32 {
        return find_in_set_sse2(bytes, set);
    }
    debug_assert!(std::is_x86_feature_detected!("avx2"));
    // SAFETY: the dispatcher only selects this backend after
    // `is_x86_feature_detected!("avx2")` returned true.
    unsafe { avx2(bytes, set) }
}

#[target_feature(enable = "sse2")]
fn sse2(bytes: &[u8], set: &ByteSet) -> Option<usize> {
    let (lo, hi) = set.range();
    let bias = _mm_set1_epi8(i8::MIN);
    let lo_b = _mm_set1_epi8((lo ^ 0x80) as i8);
    let hi_b = _mm_set1_epi8((hi ^ 0x80) as i8);
    let extras = set.extra();
    let n = set.extra_len();
    let mask_at = |offset: usize| -> u32 {
        let chunk = &bytes[offset..offset + 16];
        // SAFETY: `chunk` is exactly 16 readable bytes; the unaligned load
        // reads only those.
        let v = unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) };
        let biased = _mm_xor_si128(v, bias);
        let mut hits = _mm_or_si128(_mm_cmplt_epi8(biased, lo_b), _mm_cmpgt_epi8(biased, hi_b));
        for &e in &extras[..n] {
            hits = _mm_or_si128(hits, _mm_cmpeq_epi8(v, _mm_set1_epi8(e as i8)));
        }
        _mm_movemask_epi8(hits) as u32
    };
    let mut offset = 0;
    while offset + 16 <= bytes.len() {
        let m = mask_at(offset);
        if m != 0 {
            return Some(offset + m.trailing_zeros() as usize);
        }
        offset += 16;
    }
    if offset < bytes.len() {
        let last = bytes.len() - 16;
        let m = mask_at(last) >> (offset - last);
        if m != 0 {
            return Some(offset + m.trailing_zeros() as usize);
        }
    }
    None
}

#[target_feature(enable = "avx2")]
fn avx2(bytes: &[u8], set: &ByteSet) -> Option<usize> {
    let (lo, hi) = set.range();
    let bias = _mm256_set1_epi8(i8::MIN);
    let lo_b = _mm256_set1_epi8((lo ^ 0x80) as i8);
    let hi_b = _mm256_set1_epi8((hi ^ 0x80) as i8);
    let extras = set.extra();
    let n = set.extra_len();
    let mask_at = |offset: usize| -> u32 {
        let chunk = &bytes[offset..offset + 32];
        // SAFETY: `chunk` is exactly 32 readable bytes; the unaligned load
        // reads only those.
        let v = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
        let biased = _mm256_xor_si256(v, bias);
        let below = _mm256_cmpgt_epi8(lo_b, biased);
        let above = _mm256_cmpgt_epi8(biased, hi_b);
        let mut hits = _mm256_or_si256(below, above);
        for &e in &extras[..n] {
            hits = _mm256_or_si256(hits, _mm256_cmpeq_epi8(v, _mm256_set1_epi8(e as i8)));
        }
        _mm256_movemask_epi8(hits) as u32
    };
    let mut offset = 0;
    while offset + 32 <= bytes.len() {
        let m = mask_at(offset);
        if m != 0 {
            return Some(offset + m.trailing_zeros() as usize);
        }
        offset += 32;
    }
    if offset < bytes.len() {
        let last = bytes.len() - 32;
        let m = mask_at(last) >> (offset - last);
        if m != 0 {
            return Some(offset + m.trailing_zeros() as usize);
        }
    }
    None
}

/// SSE2 block masks. Blocks of 16 bytes or more are read with two or four
/// (overlapping) 16-byte loads; shorter ones go scalar.
#[inline(always)]
pub(super) fn block_masks_sse2<C: Classes>(block: &[u8]) -> BlockMasks {
    if block.len() < 16 {
        return super::scalar::block_masks::<C>(block);
    }
    // SAFETY: SSE2 is part of the x86_64 baseline.
    unsafe { masks_sse2::<C>(block) }
}

/// AVX2 block masks. The caller has checked that the CPU supports AVX2.
#[inline(always)]
pub(super) fn block_masks_avx2<C: Classes>(block: &[u8]) -> BlockMasks {
    if block.len() < 16 {
        return super::scalar::block_masks::<C>(block);
    }
    debug_assert!(std::is_x86_feature_detected!("avx2"));
    // SAFETY: the dispatcher selects this backend only after
    // `is_x86_feature_detected!("avx2")` returned true.
    unsafe { masks_avx2::<C>(block) }
}

/// Masks of one vector of 16 bytes, as the low 16 bits of each mask.
#[target_feature(enable = "sse2")]
#[inline]
fn classify16<C: Classes>(chunk: &[u8]) -> BlockMasks {
    let (set, groups) = (&C::SET, &C::GROUPS);
    let chunk = &chunk[..16];
    let (lo, hi) = set.range();
    // SAFETY: `chunk` is exactly 16 readable bytes.
    let v = unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) };
    let biased = _mm_xor_si128(v, _mm_set1_epi8(i8::MIN));
    let mut hits = _mm_or_si128(
        _mm_cmplt_epi8(biased, _mm_set1_epi8((lo ^ 0x80) as i8)),
        _mm_cmpgt_epi8(biased, _mm_set1_epi8((hi ^ 0x80) as i8)),
    );
    for &e in &set.extra()[..set.extra_len()] {
        hits = _mm_or_si128(hits, _mm_cmpeq_epi8(v, _mm_set1_epi8(e as i8)));
    }
    let (rlo, rhi) = C::RANGE;
    let in_range = _mm_andnot_si128(
        _mm_cmplt_epi8(biased, _mm_set1_epi8((rlo ^ 0x80) as i8)),
        _mm_andnot_si128(
            _mm_cmpgt_epi8(biased, _mm_set1_epi8((rhi ^ 0x80) as i8)),
            _mm_set1_epi8(-1),
        ),
    );
    let mut m = BlockMasks {
        in_set: u64::from(_mm_movemask_epi8(hits) as u16),
        groups: [0; 8],
        in_range: u64::from(_mm_movemask_epi8(in_range) as u16),
    };
    for g in 0..groups.count() {
        let mut eq = _mm_setzero_si128();
        for &b in groups.group(g) {
            eq = _mm_or_si128(eq, _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8)));
        }
        m.groups[g] = u64::from(_mm_movemask_epi8(eq) as u16);
    }
    m
}

/// Masks of one vector of 32 bytes, as the low 32 bits of each mask.
#[target_feature(enable = "avx2")]
#[inline]
fn classify32<C: Classes>(chunk: &[u8]) -> BlockMasks {
    let (set, groups) = (&C::SET, &C::GROUPS);
    let chunk = &chunk[..32];
    let (lo, hi) = set.range();
    // SAFETY: `chunk` is exactly 32 readable bytes.
    let v = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
    let biased = _mm256_xor_si256(v, _mm256_set1_epi8(i8::MIN));
    let mut hits = _mm256_or_si256(
        _mm256_cmpgt_epi8(_mm256_set1_epi8((lo ^ 0x80) as i8), biased),
        _mm256_cmpgt_epi8(biased, _mm256_set1_epi8((hi ^ 0x80) as i8)),
    );
    match set.nibble_bitmap() {
        Some(bitmap) => hits = _mm256_or_si256(hits, extras_by_nibbles(v, bitmap)),
        None => {
            for &e in &set.extra()[..set.extra_len()] {
                hits = _mm256_or_si256(hits, _mm256_cmpeq_epi8(v, _mm256_set1_epi8(e as i8)));
            }
        }
    }
    let (rlo, rhi) = C::RANGE;
    let outside = _mm256_or_si256(
        _mm256_cmpgt_epi8(_mm256_set1_epi8((rlo ^ 0x80) as i8), biased),
        _mm256_cmpgt_epi8(biased, _mm256_set1_epi8((rhi ^ 0x80) as i8)),
    );
    let mut m = BlockMasks {
        in_set: u64::from(_mm256_movemask_epi8(hits) as u32),
        groups: [0; 8],
        in_range: u64::from(!(_mm256_movemask_epi8(outside) as u32)),
    };
    for g in 0..groups.count() {
        let eq = match groups.nibble_bitmap(g) {
            Some(bitmap) => extras_by_nibbles(v, bitmap),
            None => {
                let mut eq = _mm256_setzero_si256();
                for &b in groups.group(g) {
                    eq = _mm256_or_si256(eq, _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b as i8)));
                }
                eq
            }
        };
        m.groups[g] = u64::from(_mm256_movemask_epi8(eq) as u32);
    }
    m
}

/// Membership of each byte of `v` in a set of ASCII bytes given as a
/// nibble bitmap: the low nibble picks a bitmap byte (one shuffle), the high
/// nibble picks a bit (another shuffle; bytes of 0x80 and up get none).
#[target_feature(enable = "avx2")]
#[inline]
fn extras_by_nibbles(v: __m256i, bitmap: &[u8; 16]) -> __m256i {
    // SAFETY: `bitmap` is 16 readable bytes.
    let table = unsafe { _mm_loadu_si128(bitmap.as_ptr().cast()) };
    let rows = _mm256_broadcastsi128_si256(table);
    let bits = _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128, 0, 0,
        0, 0, 0, 0, 0, 0,
    );
    let low = _mm256_and_si256(v, _mm256_set1_epi8(0x0F));
    let high = _mm256_and_si256(_mm256_srli_epi16(v, 4), _mm256_set1_epi8(0x0F));
    let row = _mm256_shuffle_epi8(rows, low);
    let bit = _mm256_shuffle_epi8(bits, high);
    let miss = _mm256_cmpeq_epi8(_mm256_and_si256(row, bit), _mm256_setzero_si256());
    _mm256_andnot_si256(miss, _mm256_set1_epi8(-1))
}

/// ORs `part` (masks of bytes `at..`) into `m`.
#[inline(always)]
fn merge(m: &mut BlockMasks, part: &BlockMasks, at: usize) {
    m.in_set |= part.in_set << at;
    m.in_range |= part.in_range << at;
    for (g, p) in m.groups.iter_mut().zip(&part.groups) {
        *g |= p << at;
    }
}

/// 16 to 64 bytes with 16-byte loads; the last load ends at the block's
/// end and may overlap the one before (OR-ing equal bits is harmless).
#[target_feature(enable = "sse2")]
fn masks_sse2<C: Classes>(block: &[u8]) -> BlockMasks {
    let len = block.len();
    let mut m = BlockMasks::default();
    let mut at = 0;
    while at + 16 < len {
        merge(&mut m, &classify16::<C>(&block[at..]), at);
        at += 16;
    }
    let last = len - 16;
    merge(&mut m, &classify16::<C>(&block[last..]), last);
    m
}

/// 16 to 64 bytes: 32-byte loads, the last ending at the block's end; a
/// block under 32 bytes uses two overlapping 16-byte loads.
#[target_feature(enable = "avx2")]
#[inline]
fn masks_avx2<C: Classes>(block: &[u8]) -> BlockMasks {
    let len = block.len();
    let mut m = BlockMasks::default();
    if len < 32 {
        merge(&mut m, &classify16::<C>(block), 0);
        merge(&mut m, &classify16::<C>(&block[len - 16..]), len - 16);
        return m;
    }
    merge(&mut m, &classify32::<C>(block), 0);
    if len > 32 {
        merge(&mut m, &classify32::<C>(&block[len - 32..]), len - 32);
    }
    m
}

/// AVX-512BW block masks. The caller has checked that the CPU supports
/// AVX-512F and AVX-512BW.
#[inline(always)]
pub(super) fn block_masks_avx512<C: Classes>(block: &[u8]) -> BlockMasks {
    debug_assert!(block.len() <= 64);
    debug_assert!(
        std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw")
    );
    // SAFETY: the dispatcher selects this backend only after
    // `is_x86_feature_detected!` returned true for avx512f and avx512bw.
    unsafe { masks_avx512::<C>(block) }
}

/// The SSE2 kernel (x86_64 baseline).
#[derive(Clone, Copy, Debug)]
pub(super) struct Sse2;

impl Kernel for Sse2 {
    #[inline(always)]
    fn block_masks<C: Classes>(self, block: &[u8]) -> BlockMasks {
        assert!(block.len() <= 64, "a block is at most 64 bytes");
        block_masks_sse2::<C>(block)
    }
}

/// Proof that the CPU has AVX2: made only by [`with_avx2`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Avx2(());

impl Kernel for Avx2 {
    #[inline(always)]
    fn block_masks<C: Classes>(self, block: &[u8]) -> BlockMasks {
        assert!(block.len() <= 64, "a block is at most 64 bytes");
        if block.len() < 16 {
            return super::scalar::block_masks::<C>(block);
        }
        // SAFETY: an `Avx2` exists only inside `with_avx2`, which runs only
        // after detection found AVX2.
        unsafe { masks_avx2::<C>(block) }
    }
}

/// Proof that the CPU has AVX-512F and AVX-512BW: made only by [`with_avx512`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Avx512(());

impl Kernel for Avx512 {
    #[inline(always)]
    fn block_masks<C: Classes>(self, block: &[u8]) -> BlockMasks {
        assert!(block.len() <= 64, "a block is at most 64 bytes");
        // SAFETY: an `Avx512` exists only inside `with_avx512`, which runs
        // only after detection found AVX-512F and AVX-512BW.
        unsafe { masks_avx512::<C>(block) }
    }
}

/// Runs `work` with the AVX2 kernel. The dispatcher calls it only after
/// detection found AVX2, BMI1, BMI2, LZCNT and POPCNT.
#[inline]
pub(super) fn with_avx2<W: WithKernel>(work: W) -> W::Output {
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn run<W: WithKernel>(work: W) -> W::Output {
        work.run(Avx2(()))
    }
    debug_assert!(super::has_avx2());
    // SAFETY: the dispatcher selects this backend only after
    // `has_avx2()` (detection of each feature enabled here) returned true.
    unsafe { run(work) }
}

/// Runs `work` with the AVX-512 kernel. The dispatcher calls it only after
/// detection found AVX-512F, AVX-512BW and the AVX2 backend's features.
#[inline]
pub(super) fn with_avx512<W: WithKernel>(work: W) -> W::Output {
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512bw")]
    fn run<W: WithKernel>(work: W) -> W::Output {
        work.run(Avx512(()))
    }
    debug_assert!(super::has_avx512());
    // SAFETY: the dispatcher selects this backend only after `has_avx512()`
    // (detection of each feature enabled here) returned true.
    unsafe { run(work) }
}

/// AVX-512BW block masks of two blocks in one call. The caller has
/// checked that the CPU supports AVX-512F and AVX-512BW.
#[inline(always)]
pub(super) fn block_masks_pair_avx512<A: Classes, B: Classes>(
    first: &[u8],
    second: &[u8],
) -> [BlockMasks; 2] {
    debug_assert!(first.len() <= 64 && second.len() <= 64);
    // SAFETY: as for `block_masks_avx512`.
    unsafe { masks_pair_avx512::<A, B>(first, second) }
}

#[target_feature(enable = "avx512f,avx512bw")]
fn masks_pair_avx512<A: Classes, B: Classes>(first: &[u8], second: &[u8]) -> [BlockMasks; 2] {
    [masks_avx512::<A>(first), masks_avx512::<B>(second)]
}

/// AVX-512BW block masks of `block`, which is also appended to `out`
/// from the same register. The caller has checked that the CPU supports
/// AVX-512F and AVX-512BW.
#[inline(always)]
pub(super) fn block_masks_appending_avx512<C: Classes>(
    block: &str,
    out: &mut String,
) -> BlockMasks {
    debug_assert!(block.len() <= 64);
    // SAFETY: as for `block_masks_avx512`.
    unsafe { masks_appending_avx512::<C>(block, out) }
}

#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn masks_appending_avx512<C: Classes>(block: &str, out: &mut String) -> BlockMasks {
    let bytes = block.as_bytes();
    let valid = super::low_bits(bytes.len());
    let v = load_avx512(bytes, valid);
    out.reserve(bytes.len());
    // SAFETY: `reserve` left room for `bytes.len()` bytes past the string's
    // end; the store mask has one bit per byte of `block`, so exactly those
    // bytes are written there (masked-off lanes are not written), and the
    // length then covers them. They are a whole `&str`, appended to a
    // whole string: the string stays UTF-8.
    unsafe {
        let vec = out.as_mut_vec();
        let end = vec.len();
        _mm512_mask_storeu_epi8(vec.as_mut_ptr().add(end).cast(), valid, v);
        vec.set_len(end + bytes.len());
    }
    masks_of_avx512::<C>(v, valid)
}

/// The first `valid.count_ones()` bytes of `block` (the rest zero).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn load_avx512(block: &[u8], valid: u64) -> __m512i {
    debug_assert_eq!(valid, super::low_bits(block.len()));
    // SAFETY: the load mask has one bit per byte of `block` (at most 64),
    // so only those bytes are read; masked-off lanes are neither accessed
    // nor able to fault, and come back as zero.
    unsafe { _mm512_maskz_loadu_epi8(valid, block.as_ptr().cast()) }
}

#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn masks_avx512<C: Classes>(block: &[u8]) -> BlockMasks {
    let valid = super::low_bits(block.len());
    masks_of_avx512::<C>(load_avx512(block, valid), valid)
}

/// The masks of a block loaded in `v`, whose bytes past `valid` are zero.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn masks_of_avx512<C: Classes>(v: __m512i, valid: u64) -> BlockMasks {
    let (set, groups) = (&C::SET, &C::GROUPS);
    // The class tables are constants: the branches below fold away, and a
    // class with a full range and one or two extras (a byte search) is
    // just its compares.
    let (lo, hi) = set.range();
    let mut in_set = 0;
    if lo > 0 {
        in_set |= _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(lo as i8));
    }
    if hi < 255 {
        in_set |= _mm512_cmpgt_epu8_mask(v, _mm512_set1_epi8(hi as i8));
    }
    // As in `extras_by_nibbles`: a shuffle on the low nibble picks a
    // bitmap byte, one on the high nibble picks the bit (computed once,
    // shared by the set and the groups that use bitmaps).
    let nibble = _mm512_set1_epi8(0x0F);
    let low = _mm512_and_si512(v, nibble);
    let bit = _mm512_shuffle_epi8(
        _mm512_broadcast_i32x4(_mm_setr_epi8(
            1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0,
        )),
        _mm512_and_si512(_mm512_srli_epi16(v, 4), nibble),
    );
    let in_bitmap = |bitmap: &[u8; 16]| {
        // SAFETY: `bitmap` is 16 readable bytes.
        let table = unsafe { _mm_loadu_si128(bitmap.as_ptr().cast()) };
        let row = _mm512_shuffle_epi8(_mm512_broadcast_i32x4(table), low);
        _mm512_test_epi8_mask(row, bit)
    };
    match set.nibble_bitmap() {
        Some(bitmap) => in_set |= in_bitmap(bitmap),
        None => {
            for &e in &set.extra()[..set.extra_len()] {
                in_set |= _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(e as i8));
            }
        }
    }
    let (rlo, rhi) = C::RANGE;
    let mut in_range = u64::MAX;
    if rlo > 0 {
        in_range &= _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(rlo as i8));
    }
    if rhi < 255 {
        in_range &= _mm512_cmple_epu8_mask(v, _mm512_set1_epi8(rhi as i8));
    }
    let mut m = BlockMasks {
        in_set: in_set & valid,
        groups: [0; 8],
        // (A range from 1 up holds no masked-off lane.)
        in_range: if rlo == 0 { in_range & valid } else { in_range },
    };
    for g in 0..groups.count() {
        let eq = match groups.nibble_bitmap(g) {
            Some(bitmap) => in_bitmap(bitmap),
            None => {
                let mut eq = 0;
                for &b in groups.group(g) {
                    eq |= _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b as i8));
                }
                eq
            }
        };
        // Masked-off lanes are zero: only a group with a zero byte needs
        // the mask.
        m.groups[g] = if groups.group(g).contains(&0) {
            eq & valid
        } else {
            eq
        };
    }
    m
}

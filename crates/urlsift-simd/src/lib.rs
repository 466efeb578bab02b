//! Byte classification with SIMD: the first byte of a slice that lies in a
//! [`ByteSet`], and position masks of blocks of up to 64 bytes
//! ([`block_masks`]; [`block_masks_appending`] also appends the block to a
//! string, from the register it classified). This crate knows nothing of
//! URLs beyond the sets it is handed, and it holds the only `unsafe` of
//! the URL parser (`urlsift`), the record engine and links, which use it.
//!
//! Layout follows memchr: a portable [`scalar`] reference (also the test
//! oracle), thin per-ISA kernels, and one dispatch point that picks the best
//! backend at run time, once. Short inputs skip SIMD. Hot loops go through
//! [`with_kernel`] instead of dispatching per block: their code is compiled
//! once per backend with its features on, so the kernel inlines. Setting the
//! environment variable `URLSIFT_SIMD=scalar` before the first call forces
//! the scalar backend (CI runs the suite that way too).
//!
//! ```
//! use urlsift_simd::{ByteSet, backend, find_in_set, scalar};
//!
//! // Bytes outside printable ASCII, and the space and `#`.
//! let set = ByteSet::outside_range_or(0x21, 0x7e, b" #");
//! let text = b"https://example.com/a-long-path/with/no-space/then#fragment";
//! assert_eq!(find_in_set(text, &set), Some(50));
//! assert_eq!(scalar::find_in_set(text, &set), Some(50));
//! println!("backend: {}", backend().name());
//! ```

mod line_ends;
pub mod scalar;

#[cfg(target_arch = "aarch64")]
mod aarch64;
#[cfg(target_arch = "x86_64")]
mod x86_64;

use std::sync::atomic::{AtomicU8, Ordering};

pub use line_ends::LineEnds;

/// A set of bytes, given as an allowed inclusive range plus up to 16 extra
/// bytes inside it that are also in the set: byte `b` is in the set when
/// `b < lo || b > hi || extra.contains(&b)`. Every backend evaluates this
/// same description.
#[derive(Clone, Copy, Debug)]
pub struct ByteSet {
    lo: u8,
    hi: u8,
    extra: [u8; 16],
    extra_len: usize,
    table: [bool; 256],
    /// For ASCII extras: bit `h` of `nibble_bitmap[l]` is set when byte
    /// `h << 4 | l` is an extra (the shuffle-based kernels' form).
    nibble_bitmap: [u8; 16],
    extras_ascii: bool,
}

impl ByteSet {
    /// The set of bytes outside `lo..=hi`, plus `extra` (at most 16 bytes).
    pub const fn outside_range_or(lo: u8, hi: u8, extra: &[u8]) -> ByteSet {
        assert!(extra.len() <= 16, "at most 16 extra bytes");
        assert!(lo <= hi);
        let mut padded = [0u8; 16];
        let mut table = [false; 256];
        let mut nibble_bitmap = [0u8; 16];
        let mut extras_ascii = true;
        let mut b = 0;
        while b < 256 {
            table[b] = (b as u8) < lo || (b as u8) > hi;
            b += 1;
        }
        let mut i = 0;
        while i < 16 {
            // Padding repeats the first extra byte (or a byte outside the
            // range, already in the set) so that kernels can compare all 16.
            padded[i] = if i < extra.len() {
                extra[i]
            } else if !extra.is_empty() {
                extra[0]
            } else if lo > 0 {
                0
            } else {
                255
            };
            if i < extra.len() {
                let e = extra[i];
                table[e as usize] = true;
                if e < 0x80 {
                    nibble_bitmap[(e & 0xF) as usize] |= 1 << (e >> 4);
                } else {
                    extras_ascii = false;
                }
            }
            i += 1;
        }
        ByteSet {
            lo,
            hi,
            extra: padded,
            extra_len: extra.len(),
            table,
            nibble_bitmap,
            extras_ascii,
        }
    }

    /// Whether `b` is in the set.
    #[inline(always)]
    pub fn contains(&self, b: u8) -> bool {
        self.table[b as usize]
    }

    /// The allowed range's bounds.
    #[inline(always)]
    pub(crate) fn range(&self) -> (u8, u8) {
        (self.lo, self.hi)
    }

    /// The extra bytes (padded to 16).
    #[inline(always)]
    pub(crate) fn extra(&self) -> &[u8; 16] {
        &self.extra
    }

    /// How many extra bytes were given.
    #[inline(always)]
    pub(crate) fn extra_len(&self) -> usize {
        self.extra_len
    }

    /// The extras as a nibble bitmap, for the shuffle-based kernels: when
    /// they are all ASCII and more than two (one or two are cheaper to
    /// compare directly: a byte search).
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn nibble_bitmap(&self) -> Option<&[u8; 16]> {
        (self.extras_ascii && self.extra_len > 2).then_some(&self.nibble_bitmap)
    }
}

/// Up to 8 groups of up to 8 bytes each, for [`block_masks`]: group `g`'s
/// mask marks the positions holding one of its bytes.
#[derive(Clone, Copy, Debug)]
pub struct Groups {
    bytes: [[u8; 8]; 8],
    lens: [usize; 8],
    count: usize,
    table: [u8; 256],
    /// Each group's bytes as a nibble bitmap (as in [`ByteSet`]), for
    /// the shuffle-based kernels; all zero when the group has a
    /// non-ASCII byte.
    nibble_bitmaps: [[u8; 16]; 8],
    ascii: [bool; 8],
}

impl Groups {
    /// Groups from byte lists (at most 8 lists of at most 8 bytes, none empty).
    pub const fn new(groups: &[&[u8]]) -> Groups {
        assert!(groups.len() <= 8, "at most 8 groups");
        let mut bytes = [[0u8; 8]; 8];
        let mut lens = [0usize; 8];
        let mut table = [0u8; 256];
        let mut nibble_bitmaps = [[0u8; 16]; 8];
        let mut ascii = [true; 8];
        let mut g = 0;
        while g < groups.len() {
            let group = groups[g];
            assert!(
                !group.is_empty() && group.len() <= 8,
                "1 to 8 bytes a group"
            );
            let mut i = 0;
            while i < 8 {
                // Padding repeats the group's first byte: no new matches.
                bytes[g][i] = if i < group.len() { group[i] } else { group[0] };
                if i < group.len() {
                    let b = group[i];
                    table[b as usize] |= 1 << g;
                    if b < 0x80 {
                        nibble_bitmaps[g][(b & 0xF) as usize] |= 1 << (b >> 4);
                    } else {
                        ascii[g] = false;
                    }
                }
                i += 1;
            }
            lens[g] = group.len();
            g += 1;
        }
        Groups {
            bytes,
            lens,
            count: groups.len(),
            table,
            nibble_bitmaps,
            ascii,
        }
    }

    /// Group `g`'s bytes as a nibble bitmap, for the shuffle-based
    /// kernels: when they are all ASCII and more than two (one or two are
    /// cheaper to compare directly).
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn nibble_bitmap(&self, g: usize) -> Option<&[u8; 16]> {
        (self.ascii[g] && self.lens[g] > 2).then_some(&self.nibble_bitmaps[g])
    }

    /// The bit flags (bit `g` for group `g`) of byte `b`.
    #[inline(always)]
    pub fn flags(&self, b: u8) -> u8 {
        self.table[b as usize]
    }

    /// Group `g`'s bytes.
    #[inline(always)]
    pub(crate) fn group(&self, g: usize) -> &[u8] {
        &self.bytes[g][..self.lens[g]]
    }

    /// How many groups there are.
    #[inline(always)]
    pub(crate) fn count(&self) -> usize {
        self.count
    }
}

/// A byte set and byte groups known at compile time: kernels generic over
/// it are compiled with its tables as constants (unrolled, hoisted).
pub trait Classes {
    /// The set whose bytes [`BlockMasks::in_set`] marks.
    const SET: ByteSet;
    /// The groups whose bytes [`BlockMasks::groups`] marks.
    const GROUPS: Groups;
    /// The inclusive range whose bytes [`BlockMasks::in_range`] marks.
    const RANGE: (u8, u8);
}

/// Position masks for one block of at most 64 bytes: bit `i` is byte `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlockMasks {
    /// Bytes in the [`ByteSet`].
    pub in_set: u64,
    /// Bytes in each of the [`Groups`] (unused groups stay 0).
    pub groups: [u64; 8],
    /// Bytes in the [`Classes::RANGE`].
    pub in_range: u64,
}

/// A backend that computes [`BlockMasks`]. The SIMD ones are zero-sized
/// proofs that the CPU has their features: only [`with_kernel`] makes
/// them, after detection.
pub trait Kernel: Copy {
    /// The masks of `block` (at most 64 bytes).
    fn block_masks<C: Classes>(self, block: &[u8]) -> BlockMasks;

    /// The positions of byte `B` in `block` (at most 64 bytes): a byte
    /// search, one compare per block (line ends, for instance).
    #[inline(always)]
    fn positions_of<const B: u8>(self, block: &[u8]) -> u64 {
        self.block_masks::<OneByte<B>>(block).in_set
    }
}

/// The classes of [`Kernel::positions_of`]: byte `B` alone.
struct OneByte<const B: u8>;

impl<const B: u8> Classes for OneByte<B> {
    const SET: ByteSet = ByteSet::outside_range_or(0, 255, &[B]);
    const GROUPS: Groups = Groups::new(&[]);
    /// Unused; the full range costs the kernels nothing.
    const RANGE: (u8, u8) = (0, 255);
}

/// Work generic over the [`Kernel`] it runs on (a whole batch, not one
/// block): [`with_kernel`] compiles it once per backend with that
/// backend's CPU features enabled, so the kernel inlines into it: no call
/// per block, masks stay in registers, unused masks are never computed.
/// Implementations should mark `run` `#[inline(always)]`.
pub trait WithKernel {
    /// What the work returns.
    type Output;
    /// Does the work with `kernel`.
    fn run<K: Kernel>(self, kernel: K) -> Self::Output;
}

/// Runs `work` on the best backend, chosen once per call (not per block).
#[inline]
pub fn with_kernel<W: WithKernel>(work: W) -> W::Output {
    match backend() {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => x86_64::with_avx512(work),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => x86_64::with_avx2(work),
        #[cfg(target_arch = "x86_64")]
        Backend::Sse2 => work.run(x86_64::Sse2),
        Backend::Scalar => work.run(Scalar),
        #[allow(unreachable_patterns)]
        _ => work.run(Runtime),
    }
}

/// The portable kernel (also the oracle the others are tested against).
#[derive(Clone, Copy, Debug, Default)]
pub struct Scalar;

impl Kernel for Scalar {
    #[inline(always)]
    fn block_masks<C: Classes>(self, block: &[u8]) -> BlockMasks {
        assert!(block.len() <= 64, "a block is at most 64 bytes");
        scalar::block_masks::<C>(block)
    }
}

/// The best backend, looked up at each call: for code that is not run
/// through [`with_kernel`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Runtime;

impl Kernel for Runtime {
    #[inline(always)]
    fn block_masks<C: Classes>(self, block: &[u8]) -> BlockMasks {
        block_masks::<C>(block)
    }
}

/// The masks of `block` (at most 64 bytes; panics if longer) with the
/// best backend.
#[inline(always)]
pub fn block_masks<C: Classes>(block: &[u8]) -> BlockMasks {
    assert!(block.len() <= 64, "a block is at most 64 bytes");
    // `backend()` only ever returns a backend that detection validated.
    match backend() {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => x86_64::block_masks_avx512::<C>(block),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => x86_64::block_masks_avx2::<C>(block),
        #[cfg(target_arch = "x86_64")]
        Backend::Sse2 => x86_64::block_masks_sse2::<C>(block),
        #[cfg(target_arch = "aarch64")]
        Backend::Neon => aarch64::block_masks_neon::<C>(block),
        _ => scalar::block_masks::<C>(block),
    }
}

/// The masks of `block` (at most 64 bytes; panics if longer), which is
/// also appended to `out`, with the best backend: for callers that copy
/// what they classify. The AVX-512 backend stores the register it
/// classified (no separate copy); the others append as `push_str` does.
#[inline(always)]
pub fn block_masks_appending<C: Classes>(block: &str, out: &mut String) -> BlockMasks {
    assert!(block.len() <= 64, "a block is at most 64 bytes");
    // `backend()` only ever returns a backend that detection validated.
    match backend() {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => x86_64::block_masks_appending_avx512::<C>(block, out),
        _ => {
            out.push_str(block);
            block_masks::<C>(block.as_bytes())
        }
    }
}

/// The masks of two blocks (at most 64 bytes each; panics if longer), with
/// classes `A` and `B`, in one call of the best backend (for callers that
/// need the second block's masks whenever they need the first's).
#[inline(always)]
pub fn block_masks_pair<A: Classes, B: Classes>(first: &[u8], second: &[u8]) -> [BlockMasks; 2] {
    assert!(
        first.len() <= 64 && second.len() <= 64,
        "a block is at most 64 bytes"
    );
    // `backend()` only ever returns a backend that detection validated.
    match backend() {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => x86_64::block_masks_pair_avx512::<A, B>(first, second),
        _ => [block_masks::<A>(first), block_masks::<B>(second)],
    }
}

/// [`block_masks_appending`] with a given backend. A backend this CPU
/// lacks falls back to scalar.
pub fn block_masks_appending_with<C: Classes>(
    backend: Backend,
    block: &str,
    out: &mut String,
) -> BlockMasks {
    assert!(block.len() <= 64, "a block is at most 64 bytes");
    match backend {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 if has_avx512() => x86_64::block_masks_appending_avx512::<C>(block, out),
        _ => {
            out.push_str(block);
            block_masks_with::<C>(backend, block.as_bytes())
        }
    }
}

/// The masks of `block` (at most 64 bytes; panics if longer) with a given
/// backend. A backend this CPU lacks falls back to scalar.
pub fn block_masks_with<C: Classes>(backend: Backend, block: &[u8]) -> BlockMasks {
    assert!(block.len() <= 64, "a block is at most 64 bytes");
    match backend {
        #[cfg(target_arch = "x86_64")]
        Backend::Sse2 => x86_64::block_masks_sse2::<C>(block),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 if has_avx2() => x86_64::block_masks_avx2::<C>(block),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 if has_avx512() => x86_64::block_masks_avx512::<C>(block),
        #[cfg(target_arch = "aarch64")]
        Backend::Neon if std::arch::is_aarch64_feature_detected!("neon") => {
            aarch64::block_masks_neon::<C>(block)
        }
        _ => scalar::block_masks::<C>(block),
    }
}

/// Copies a block of at most 64 bytes into a zero-padded array; the caller
/// clears the bits past `len`.
#[inline(always)]
#[cfg_attr(not(target_arch = "aarch64"), allow(dead_code))]
fn padded(block: &[u8]) -> [u8; 64] {
    let mut buf = [0u8; 64];
    buf[..block.len()].copy_from_slice(block);
    buf
}

/// Hints the CPU to start loading the cache line that holds `value`, for
/// lookups whose addresses are known ahead of their use (a hash table
/// probed for a batch of keys). Only a hint: no effect on results.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE (for PREFETCHT0) is part of the x86_64 baseline, and a
    // prefetch reads nothing into the program and cannot fault; the address
    // comes from a live reference anyway.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// The mask of the first `len` bits.
#[inline(always)]
pub fn low_bits(len: usize) -> u64 {
    if len >= 64 {
        u64::MAX
    } else {
        (1u64 << len) - 1
    }
}

/// A byte-classification backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// Portable scalar code (the reference).
    Scalar,
    /// x86_64 SSE2 (always present on x86_64).
    Sse2,
    /// x86_64 AVX2.
    Avx2,
    /// x86_64 AVX-512F + AVX-512BW for block masks (AVX2 for searches).
    Avx512,
    /// aarch64 NEON.
    Neon,
}

impl Backend {
    /// The backend's name.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Scalar => "scalar",
            Backend::Sse2 => "sse2",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
            Backend::Neon => "neon",
        }
    }
}

/// Every backend this CPU can run, scalar first.
pub fn available_backends() -> Vec<Backend> {
    let mut backends = vec![Backend::Scalar];
    #[cfg(target_arch = "x86_64")]
    {
        backends.push(Backend::Sse2);
        if has_avx2() {
            backends.push(Backend::Avx2);
            if has_avx512() {
                backends.push(Backend::Avx512);
            }
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        if std::arch::is_aarch64_feature_detected!("neon") {
            backends.push(Backend::Neon);
        }
    }
    backends
}

/// Whether the CPU has what the AVX2 backend uses: AVX2, and the bit
/// instructions (BMI1, BMI2, LZCNT, POPCNT) that code run by [`with_kernel`] is
/// compiled with (every AVX2 CPU from Intel and AMD has them).
#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("popcnt")
}

/// Whether the CPU has what the AVX-512 backend uses: the AVX2 backend's
/// features, AVX-512F and AVX-512BW.
#[cfg(target_arch = "x86_64")]
fn has_avx512() -> bool {
    has_avx2()
        && std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
}

const UNSET: u8 = 0;
static SELECTED: AtomicU8 = AtomicU8::new(UNSET);

fn encode(b: Backend) -> u8 {
    match b {
        Backend::Scalar => 1,
        Backend::Sse2 => 2,
        Backend::Avx2 => 3,
        Backend::Neon => 4,
        Backend::Avx512 => 5,
    }
}

fn decode(v: u8) -> Backend {
    match v {
        2 => Backend::Sse2,
        3 => Backend::Avx2,
        4 => Backend::Neon,
        5 => Backend::Avx512,
        _ => Backend::Scalar,
    }
}

#[cold]
fn detect() -> Backend {
    let forced_scalar = std::env::var("URLSIFT_SIMD").is_ok_and(|v| v == "scalar");
    let best = if forced_scalar {
        Backend::Scalar
    } else {
        *available_backends().last().unwrap_or(&Backend::Scalar)
    };
    SELECTED.store(encode(best), Ordering::Relaxed);
    best
}

/// The backend in use (detected on first call, then cached).
#[inline]
pub fn backend() -> Backend {
    match SELECTED.load(Ordering::Relaxed) {
        UNSET => detect(),
        v => decode(v),
    }
}

/// Below this length the scalar loop wins.
const SHORT: usize = 16;

/// The index of the first byte of `bytes` in `set`, with the best backend.
#[inline]
pub fn find_in_set(bytes: &[u8], set: &ByteSet) -> Option<usize> {
    if bytes.len() < SHORT {
        return scalar::find_in_set(bytes, set);
    }
    find_in_set_with(backend(), bytes, set)
}

/// The index of the first byte of `bytes` in `set`, with a given backend.
/// A backend this CPU lacks falls back to scalar.
pub fn find_in_set_with(backend: Backend, bytes: &[u8], set: &ByteSet) -> Option<usize> {
    match backend {
        #[cfg(target_arch = "x86_64")]
        Backend::Sse2 => x86_64::find_in_set_sse2(bytes, set),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 | Backend::Avx512 if std::is_x86_feature_detected!("avx2") => {
            x86_64::find_in_set_avx2(bytes, set)
        }
        #[cfg(target_arch = "aarch64")]
        Backend::Neon if std::arch::is_aarch64_feature_detected!("neon") => {
            aarch64::find_in_set_neon(bytes, set)
        }
        _ => scalar::find_in_set(bytes, set),
    }
}

#[cfg(test)]
mod tests;

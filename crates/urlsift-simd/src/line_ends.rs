//! The positions of `\n` in a byte string, 64 bytes at a time: the line
//! split under URL lines (the record engine's chunks) and WARC header
//! blocks.
//!
//! ```
//! use urlsift_simd::{LineEnds, Runtime};
//!
//! let text = "a\nbb\n".repeat(30);
//! let ends: Vec<usize> = LineEnds::new(Runtime, text.as_bytes()).collect();
//! assert_eq!(ends.len(), 60);
//! assert_eq!(&ends[..3], [1, 4, 6]);
//! ```

use crate::Kernel;

/// The positions of `\n` in a byte string, found 64 bytes at a time as a
/// position mask: one SIMD pass per block rather than one search call per
/// line (URLs and header lines are short, and a search's set-up would cost
/// more than the scan).
pub struct LineEnds<'a, K> {
    kernel: K,
    bytes: &'a [u8],
    /// Where the block of `mask` starts.
    base: usize,
    /// Line ends in that block not yet handed out.
    mask: u64,
}

impl<'a, K: Kernel> LineEnds<'a, K> {
    /// The line ends of `bytes`, found with `kernel`.
    #[inline(always)]
    pub fn new(kernel: K, bytes: &'a [u8]) -> LineEnds<'a, K> {
        let first = &bytes[..bytes.len().min(64)];
        LineEnds {
            kernel,
            bytes,
            base: 0,
            mask: kernel.positions_of::<b'\n'>(first),
        }
    }
}

impl<K: Kernel> Iterator for LineEnds<'_, K> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.mask == 0 {
            self.base += 64;
            if self.base >= self.bytes.len() {
                return None;
            }
            let end = self.bytes.len().min(self.base + 64);
            self.mask = self
                .kernel
                .positions_of::<b'\n'>(&self.bytes[self.base..end]);
        }
        let i = self.base + self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some(i)
    }
}

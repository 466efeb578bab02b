//! A chunk as a format walks it ([`View`]): its bytes and where they sit
//! in their source, without the engine's bookkeeping.

use urlsift_simd::{Kernel, LineEnds};
use urlsift_warc::Entry;

/// The part of a chunk a format reads: what one walk needs, in one value.
#[derive(Clone, Copy)]
pub(crate) struct View<'a> {
    /// The chunk's bytes.
    pub data: &'a [u8],
    /// Bytes at the start of `data` that are not records (a byte-order
    /// mark, a CSV header row).
    pub head: usize,
    /// The 1-based number of the chunk's first line.
    pub first_line: u64,
    /// Where `data` starts in its source (after decompression).
    pub offset: u64,
    /// The source ended with a read error right after this chunk: a last
    /// record without its terminator was cut off.
    pub truncated: bool,
    /// Each record's place in `data`, for formats whose reader indexes
    /// them (WARC, ARC).
    pub index: &'a [Entry],
}

impl<'a> View<'a> {
    /// The lines after the head with their 1-based numbers, `\n` and a
    /// final `\r` removed (newlines found by [`LineEnds`]).
    #[inline(always)]
    pub fn lines_in<K: Kernel>(self, k: K) -> impl Iterator<Item = (u64, &'a [u8])> {
        let data = self.data;
        let head = self.head.min(data.len());
        let mut start = head;
        let mut number = self.first_line;
        let mut ends = LineEnds::new(k, &data[head..]);
        std::iter::from_fn(move || {
            if start >= data.len() {
                return None;
            }
            let end = ends.next().map_or(data.len(), |i| head + i);
            let mut line = &data[start..end];
            if let [rest @ .., b'\r'] = line {
                line = rest;
            }
            start = end + 1;
            number += 1;
            Some((number - 1, line))
        })
    }
}

//! A chunk's keyed records dealt to the seen-set's partitions: listed in
//! input order with the bad records passed through among them, and each
//! partition's share. The workers deal their chunks ([`Keys::deal`](super::Keys::deal)),
//! so the thread that offers chunks in input order does not.

use xxhash_rust::xxh3::xxh3_64;

use crate::format::frame::Frames;

/// Marks keys of passed-through invalid lines: 0xFF never starts UTF-8.
pub(super) const RAW_KEY: u8 = 0xFF;

/// Where a record of a chunk is: its index in the chunk's keyed records,
/// or with [`KEPT`] set, its index among the bad records passed through
/// (their line in the chunk's output and their key, the raw bytes after
/// [`RAW_KEY`], in the raw-key buffer).
pub(super) type Src = u32;

/// Marks a [`Src`] of a bad record passed through.
pub(super) const KEPT: u32 = 1 << 31;

/// A bad record passed through: its line in the chunk's output (its
/// terminator included) and its key in the raw-key buffer.
#[derive(Clone, Copy)]
pub(super) struct Kept {
    pub(super) line: (usize, usize),
    pub(super) key: (usize, usize),
}

/// A chunk's records, listed in input order: their key hashes and where
/// they are, the bad records passed through, and (for more than one
/// partition) each partition's records.
#[derive(Default)]
pub(super) struct Dealt {
    pub(super) order: Vec<(u64, Src)>,
    pub(super) kept: Vec<Kept>,
    pub(super) raw: Vec<u8>,
    pub(super) lists: Vec<Vec<u32>>,
    /// The partitions dealt to (0: not dealt yet).
    pub(super) parts: usize,
    /// The records are the keyed ones alone, in their order, to one
    /// partition: `order` is left empty (record `i` is keyed record `i`).
    pub(super) direct: bool,
}

impl Dealt {
    /// Lists a chunk's records in input order: the keyed ones (`held`:
    /// where each starts in the output `out`, and its key's hash), and the
    /// bad records passed through (at `kept` in `out`; a kept line comes
    /// before the records at or after its end; `frames`: each a Parquet
    /// row's frame, keyed by its values, as Parquet dedup keys them); then
    /// deals them to `parts` partitions.
    pub(super) fn deal(
        &mut self,
        held: impl Iterator<Item = (usize, u64)>,
        kept: &[(usize, usize)],
        out: &[u8],
        parts: usize,
        frames: bool,
    ) {
        self.order.clear();
        self.kept.clear();
        self.raw.clear();
        let parts = parts.max(1);
        self.parts = parts;
        self.direct = parts == 1 && kept.is_empty();
        if self.direct {
            return;
        }
        let mut kept = kept.iter().peekable();
        for (i, (at, hash)) in held.enumerate() {
            while let Some(&span) = kept.next_if(|&&(_, end)| end <= at) {
                self.keep(out, span, frames);
            }
            self.order.push((hash, i as Src));
        }
        for &span in kept {
            self.keep(out, span, frames);
        }
        self.lists.resize_with(parts, Vec::new);
        for list in &mut self.lists {
            list.clear();
        }
        if parts > 1 {
            for (i, &(hash, _)) in self.order.iter().enumerate() {
                self.lists[part_of(hash, parts)].push(i as u32);
            }
        }
    }

    /// Lists a bad record passed through (at `line` in `out`, its
    /// terminator included), keyed by its raw bytes (a Parquet row's
    /// frame, with `frames`: by its values).
    fn keep(&mut self, out: &[u8], line: (usize, usize), frames: bool) {
        let start = self.raw.len();
        if frames {
            push_frame_key(&out[line.0..line.1], &mut self.raw);
        } else {
            self.raw.push(RAW_KEY);
            self.raw.extend_from_slice(&out[line.0..line.1 - 1]);
        }
        let key = (start, self.raw.len());
        let src = self.kept.len() as Src | KEPT;
        self.kept.push(Kept { line, key });
        self.order.push((xxh3_64(&self.raw[key.0..key.1]), src));
    }
}

/// Appends the key of a bad Parquet row passed through, its `frame`'s
/// values after [`RAW_KEY`], to `raw`.
pub(crate) fn push_frame_key(frame: &[u8], raw: &mut Vec<u8>) {
    raw.push(RAW_KEY);
    raw.extend(Frames::new(frame).flat_map(|f| f.value.iter()));
}

/// The partition of a key with xxh3-64 `hash`, of `n`: from the hash's
/// top bits (a partition's table picks slots from its middle bits).
#[inline]
pub(super) fn part_of(hash: u64, n: usize) -> usize {
    (((hash >> 32) * n as u64) >> 32) as usize
}

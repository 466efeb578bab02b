//! A chunk's keyed records as the seen-set is offered them ([`View`]):
//! in input order, the bad records passed through among them, whichever
//! buffer each record's key and line are in.

use super::deal::{Dealt, KEPT, Kept, Src};
use super::keys::{Held, Keys, Place};
use crate::chunk::Chunk;
use crate::processed::Processed;

/// A chunk's records being offered, in input order, and the buffers
/// their bytes are in.
pub(super) struct View<'a> {
    order: &'a [(u64, Src)],
    /// Record `i` is keyed record `i` (`order` is empty).
    direct: bool,
    kept: &'a [Kept],
    data: &'a [u8],
    out: &'a [u8],
    keys: &'a [u8],
    held: &'a [Held],
    raw: &'a [u8],
}

impl<'a> View<'a> {
    /// The records `dealt` of `chunk`, keyed by the workers into `p`.
    pub(super) fn of(dealt: &'a Dealt, chunk: &'a Chunk, p: &'a Processed<Keys>) -> View<'a> {
        View {
            order: &dealt.order,
            direct: dealt.direct,
            kept: &dealt.kept,
            raw: &dealt.raw,
            data: &chunk.data[..],
            out: &p.out,
            keys: &p.extra.keys,
            held: &p.extra.held,
        }
    }

    /// The buffers its records' keys are slices of: the chunk's input,
    /// the workers' output and keys, the bad records' keys.
    pub(super) fn buffers(&self) -> [&'a [u8]; 4] {
        [self.data, self.out, self.keys, self.raw]
    }

    /// How many records the chunk has.
    pub(super) fn len(&self) -> usize {
        if self.direct {
            self.held.len()
        } else {
            self.order.len()
        }
    }

    /// The key hash of the chunk's `i`th record.
    #[inline]
    pub(super) fn hash(&self, i: usize) -> u64 {
        if self.direct {
            self.held[i].hash
        } else {
            self.order[i].0
        }
    }

    /// The key and line (without its terminator) of the chunk's `i`th
    /// record.
    #[inline]
    pub(super) fn record(&self, i: usize) -> (&[u8], &[u8]) {
        if self.direct {
            self.get(i as Src)
        } else {
            self.get(self.order[i].1)
        }
    }

    /// A record's key and line (without its terminator).
    #[inline]
    fn get(&self, src: Src) -> (&[u8], &[u8]) {
        if src & KEPT != 0 {
            let Kept { line, key } = self.kept[(src & !KEPT) as usize];
            return (&self.raw[key.0..key.1], &self.out[line.0..line.1 - 1]);
        }
        let h = &self.held[src as usize];
        match h.place {
            Place::Out { end, key } => (&self.keys[key.0..key.1], &self.out[h.at..end - 1]),
            Place::Input {
                start,
                end,
                key_end,
            } => (&self.data[start..key_end], &self.data[start..end]),
        }
    }
}

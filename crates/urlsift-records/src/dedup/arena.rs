//! Storage of the in-memory seen-set: an append-only arena for key and
//! line bytes, and the records held for the end in fixed-size blocks.

use super::table::Slot;

/// Arena block size: keys and lines are copied into blocks this large.
pub(super) const BLOCK: usize = 1 << 20;

/// Where bytes sit in the [`Arena`].
#[derive(Clone, Copy)]
pub(super) struct Span {
    pub(super) block: usize,
    pub(super) start: usize,
    pub(super) len: usize,
}

impl Span {
    /// Where a table slot's key is.
    #[inline(always)]
    pub(super) fn of(slot: &Slot) -> Span {
        Span {
            block: slot.block(),
            start: slot.start(),
            len: slot.len(),
        }
    }
}

/// Append-only storage for keys and lines: one allocation per megabyte
/// instead of one per key, and nothing is ever moved.
#[derive(Default)]
pub(super) struct Arena {
    pub(super) blocks: Vec<Vec<u8>>,
    pub(super) allocated: usize,
}

impl Arena {
    pub(super) fn push(&mut self, bytes: &[u8]) -> Span {
        self.push_after(&[], bytes)
    }

    /// Pushes `prefix` and `bytes` next to each other (in one block);
    /// returns the span of `bytes`.
    pub(super) fn push_after(&mut self, prefix: &[u8], bytes: &[u8]) -> Span {
        let len = prefix.len() + bytes.len();
        let fits = self
            .blocks
            .last()
            .is_some_and(|b| b.capacity() - b.len() >= len);
        if !fits {
            let cap = BLOCK.max(len);
            self.allocated += cap;
            self.blocks.push(Vec::with_capacity(cap));
        }
        let block = self.blocks.len() - 1;
        let b = &mut self.blocks[block];
        b.extend_from_slice(prefix);
        let start = b.len();
        b.extend_from_slice(bytes);
        Span {
            block,
            start,
            len: bytes.len(),
        }
    }

    pub(super) fn get(&self, s: Span) -> &[u8] {
        &self.blocks[s.block][s.start..s.start + s.len]
    }
}

/// A record held for the end (with `--count`): a key's first record, or
/// one of its later samples.
pub(super) struct Entry {
    pub(super) key: Span,
    /// The line, kept only with `--count` (otherwise it is written at once).
    pub(super) line: Option<Span>,
    pub(super) seq: u64,
    /// On a key's first entry: how many records had the key (0 on the others).
    pub(super) count: u64,
    /// The index of the key's first entry (its own, on that one).
    pub(super) first: u32,
    /// On a key's first entry: how many of its records are kept.
    pub(super) kept: u32,
}

/// Entries per block of [`Entries`].
const ENTRY_BLOCK: usize = 1 << 15;

/// Entries in first-occurrence order, in fixed-size blocks: growing never
/// copies (or briefly doubles) the whole set, which keeps peak memory
/// close to the budget.
#[derive(Default)]
pub(super) struct Entries {
    pub(super) blocks: Vec<Vec<Entry>>,
    pub(super) len: usize,
}

impl Entries {
    pub(super) fn push(&mut self, e: Entry) {
        if self.len.is_multiple_of(ENTRY_BLOCK) {
            self.blocks.push(Vec::with_capacity(ENTRY_BLOCK));
        }
        self.blocks.last_mut().expect("a block").push(e);
        self.len += 1;
    }

    pub(super) fn get_mut(&mut self, i: u32) -> &mut Entry {
        let i = i as usize;
        &mut self.blocks[i / ENTRY_BLOCK][i % ENTRY_BLOCK]
    }

    pub(super) fn get(&self, i: u32) -> &Entry {
        let i = i as usize;
        &self.blocks[i / ENTRY_BLOCK][i % ENTRY_BLOCK]
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.blocks.iter().flatten()
    }

    /// Bytes reserved by the blocks.
    pub(super) fn reserved(&self) -> usize {
        self.blocks.len() * ENTRY_BLOCK * std::mem::size_of::<Entry>()
    }
}

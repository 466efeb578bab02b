//! A chunk reader that keeps blocks: the records' header blocks as the
//! engine reads them, and after them, in the same chunk, the blocks of the
//! records a [`Keeping`] names (`urlsift links` takes its pages so), each
//! entry's [`Body`] saying where its block is.

use std::io::{self, Read};

use crate::{Blocks, Body, Dialect, Entry, Keep, Reader};

/// Which records' blocks a chunk reader keeps beside their header blocks
/// (the record engine's `Settings::keep`): those
/// `wants` names from their header block (of the dialect given), of at
/// most `max` bytes. `urlsift links` reads its pages so.
#[derive(Clone, Copy, Debug)]
pub struct Keeping {
    /// The longest block kept.
    pub max: u64,
    /// Whether a record's block is wanted, told from its header block.
    pub wants: fn(Dialect, &[u8]) -> bool,
}

/// Where a chunk's kept blocks are gathered while it is read.
struct ChunkBlocks {
    keeping: Keeping,
    bytes: Vec<u8>,
    /// What became of each block shown (in the order shown).
    fates: Vec<Body>,
}

impl Blocks for ChunkBlocks {
    fn start(&mut self, dialect: Dialect, header: &[u8], length: u64) -> bool {
        let fate = if !(self.keeping.wants)(dialect, header) {
            Body::None
        } else if length > self.keeping.max {
            Body::TooLarge
        } else {
            let at = self.bytes.len();
            self.bytes.reserve(length as usize);
            Body::Kept { start: at, end: at }
        };
        self.fates.push(fate);
        matches!(fate, Body::Kept { .. })
    }

    fn take(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
        if let Some(Body::Kept { end, .. }) = self.fates.last_mut() {
            *end = self.bytes.len();
        }
    }

    fn held(&self) -> usize {
        self.bytes.len()
    }
}

impl Reader {
    /// [`Reader::read_chunk`], keeping the blocks `keeping` names,
    /// gathered in `blocks` (an empty buffer to reuse): the chunk's data is
    /// its header blocks and its blocks, the larger of the two kept where
    /// it was read and the smaller copied after it (their bytes count
    /// toward `chunk_size`), each record's entry saying where its header
    /// and block are. After a read error too, what was read before it is
    /// in place. Gives back the buffer not kept, emptied. Called again
    /// with the same `data` and `index`, it adds the records it reads to
    /// them (with a `chunk_size` of `data.len() + 1`, one record: a
    /// chunk read a record at a time).
    ///
    /// ```
    /// use urlsift_warc::{Body, Keeping, Reader};
    ///
    /// let record = |page: &str| {
    ///     format!("WARC/1.1\r\nContent-Length: {}\r\n\r\n{page}\r\n\r\n", page.len())
    /// };
    /// // (The second block longer than all read before it.)
    /// let pages = ["p".repeat(100), "q".repeat(1000)];
    /// let warc = (record(&pages[0]) + &record(&pages[1])).into_bytes();
    /// let keeping = Keeping { max: 1 << 20, wants: |_, _| true };
    /// let mut reader = Reader::new(warc, 0);
    /// let (mut data, mut index, mut blocks) = (Vec::new(), Vec::new(), Vec::new());
    /// for _ in 0..2 {
    ///     let (read, spare) = reader.read_chunk_keeping(
    ///         &mut &b""[..], data.len() + 1, 1 << 16, &mut data, &mut index, keeping, blocks,
    ///     );
    ///     read?;
    ///     blocks = spare;
    /// }
    /// assert_eq!(index.len(), 2);
    /// for (e, page) in index.iter().zip(&pages) {
    ///     assert!(data[e.start..e.end].starts_with(b"WARC/1.1"));
    ///     assert!(matches!(e.body, Body::Kept { start, end } if &data[start..end] == page.as_bytes()));
    /// }
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn read_chunk_keeping(
        &mut self,
        r: &mut dyn Read,
        chunk_size: usize,
        max_header: usize,
        data: &mut Vec<u8>,
        index: &mut Vec<Entry>,
        keeping: Keeping,
        blocks: Vec<u8>,
    ) -> (io::Result<bool>, Vec<u8>) {
        let mut sink = ChunkBlocks {
            keeping,
            bytes: blocks,
            fates: Vec::new(),
        };
        let mut keep = Keep {
            blocks: &mut sink,
            misplaced: false,
            started: Vec::new(),
        };
        let read = self.read_records(r, chunk_size, max_header, data, index, Some(&mut keep));
        let started = keep.started;
        let mut blocks = sink.bytes;
        // Where the blocks start in the data made of both.
        let shift = if blocks.len() > data.len() {
            let headers = blocks.len();
            blocks.extend_from_slice(data);
            for e in index.iter_mut() {
                e.start += headers;
                e.end += headers;
                // (Blocks of records read before this call moved too.)
                if let Body::Kept { start, end } = &mut e.body {
                    *start += headers;
                    *end += headers;
                }
            }
            std::mem::swap(data, &mut blocks);
            0
        } else {
            let headers = data.len();
            data.extend_from_slice(&blocks);
            headers
        };
        for (i, fate) in started.into_iter().zip(sink.fates) {
            index[i].body = match fate {
                Body::Kept { start, end } => Body::Kept {
                    start: start + shift,
                    end: end + shift,
                },
                other => other,
            };
        }
        blocks.clear();
        (read, blocks)
    }
}

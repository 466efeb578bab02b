//! Where a record lies in a run of records the [`Reader`](crate::Reader)
//! read (header blocks, and the blocks a reader keeps): the record
//! engine's chunks of WARC and ARC input hold these as their index.
//!
//! ```
//! use urlsift_warc::{Body, Entry};
//!
//! let data = b"WARC/1.1\r\n\r\nhi";
//! let e = Entry { start: 0, end: 12, offset: 0, bad: None, body: Body::Kept { start: 12, end: 14 } };
//! assert_eq!(&data[e.start..e.end], b"WARC/1.1\r\n\r\n");
//! assert!(matches!(e.body, Body::Kept { start, end } if &data[start..end] == b"hi"));
//! ```

use crate::RecordFault;

/// One record of a chunk: its header's place in the chunk's data, where
/// the record starts in the (decompressed) input, why it is bad, if it
/// is, and what the chunk holds of its block.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Where the header block starts in the chunk's data.
    pub start: usize,
    /// Where it ends.
    pub end: usize,
    /// Where the record starts in its source.
    pub offset: u64,
    /// Why the record is bad, if it is.
    pub bad: Option<RecordFault>,
    /// What the chunk holds of the record's block (only a reader keeping
    /// blocks holds any: [`Keeping`](crate::Keeping)).
    pub body: Body,
}

/// What a chunk holds of a record's block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Body {
    /// Nothing: not wanted (or not kept by this reader).
    #[default]
    None,
    /// The block (as far as it was read) is `data[start..end]`.
    Kept {
        /// Where the block starts in the chunk's data.
        start: usize,
        /// Where it ends.
        end: usize,
    },
    /// Wanted, but longer than the reader keeps: skipped, unread.
    TooLarge,
}

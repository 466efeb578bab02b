//! Where a chunk's keys are as the workers hand them to the seen-set
//! ([`Keys`]); the keys themselves are the parser crate's
//! ([`urlsift::key`]: what makes two URLs duplicates).

use super::deal::Dealt;
use urlsift::key::Names;

/// Keys of one chunk: where each record's output line and key are, in
/// input order, with the key's xxh3-64 hash (computed here, on the
/// workers). Keys that are not a slice of the line or the input sit in
/// `keys`.
#[derive(Default)]
pub struct Keys {
    pub(super) keys: Vec<u8>,
    pub(super) held: Vec<Held>,
    /// Scratch for the pattern key's parameter names.
    pub(super) names: Names,
    /// The records dealt to the seen-set's partitions ([`Keys::deal`]).
    pub(super) dealt: Dealt,
}

impl Keys {
    /// Empties the buffers for the next chunk (their memory is kept).
    pub fn clear(&mut self) {
        self.keys.clear();
        self.held.clear();
        self.dealt.parts = 0;
    }

    /// Deals the chunk's records to the seen-set's `partitions`
    /// ([`Seen::partitions`](super::Seen::partitions)), on the worker that
    /// keyed them, so the thread that offers chunks in input order need
    /// not: lists them in input order with the bad records passed through
    /// (`kept`, in the chunk's output `out`: [`Processed`](crate::Processed)'s
    /// `kept` and `out`), and each partition's share. A chunk not dealt
    /// (or dealt for another number of partitions) is dealt when offered.
    ///
    /// ```
    /// use urlsift_records::dedup::{Keys, Seen};
    ///
    /// let seen = Seen::new(1 << 20, false, None, b'\n').threads(4)?;
    /// let mut keys = Keys::default();
    /// keys.deal(b"", &[], seen.partitions());
    /// # Ok::<(), urlsift_records::Error>(())
    /// ```
    pub fn deal(&mut self, out: &[u8], kept: &[(usize, usize)], partitions: usize) {
        let held = self.held.iter().map(|h| (h.at, h.hash));
        self.dealt.deal(held, kept, out, partitions, false);
    }

    /// The keyed records of a chunk, in input order, given the chunk's
    /// output `out` (`Processed::out`) and input `data`: where each record
    /// starts in the output, its bytes as written (without a URL line's
    /// terminator), its key and the key's hash.
    pub fn records<'a>(&'a self, out: &'a [u8], data: &'a [u8]) -> impl Iterator<Item = Keyed<'a>> {
        self.held.iter().map(move |h| match h.place {
            Place::Out { end, key } => Keyed {
                at: h.at,
                record: &out[h.at..end],
                key: &self.keys[key.0..key.1],
                hash: h.hash,
            },
            Place::Input {
                start,
                end,
                key_end,
            } => Keyed {
                at: h.at,
                record: &data[start..end],
                key: &data[start..key_end],
                hash: h.hash,
            },
        })
    }
}

/// One keyed record of a chunk (see [`Keys::records`]).
#[derive(Clone, Copy, Debug)]
pub struct Keyed<'a> {
    /// Where the record starts in the chunk's output.
    pub at: usize,
    /// The record as written: a URL line with its terminator when it was
    /// written out, without when it is a line of the input; a Parquet
    /// row's frame.
    pub record: &'a [u8],
    /// Its key.
    pub key: &'a [u8],
    /// The key's xxh3-64 hash.
    pub hash: u64,
}

/// One record as the writer offers it to the seen-set.
#[derive(Clone, Copy)]
pub(super) struct Held {
    /// Where the record starts in the chunk's output (for a line taken
    /// from the input, where it would have started): this orders it among
    /// the passed-through invalid lines, which are in the output too.
    pub(super) at: usize,
    pub(super) place: Place,
    pub(super) hash: u64,
}

/// Where a record's line and key are.
#[derive(Clone, Copy)]
pub(super) enum Place {
    /// `out[at..end]`, terminator last; the key is `keys[key.0..key.1]`.
    Out { end: usize, key: (usize, usize) },
    /// A line already in its output form, as the input holds it:
    /// `data[start..end]` of the chunk (no terminator), its key
    /// `data[start..key_end]`. Nothing was copied for it.
    Input {
        start: usize,
        end: usize,
        key_end: usize,
    },
}

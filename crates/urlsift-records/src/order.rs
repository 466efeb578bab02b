//! What a run knows of its chunks' order while the workers are still
//! reading: which sources have ended after how many places, and which
//! places hold a read error instead of a chunk. A worker that finished a
//! chunk can then tell, before the in-order stage gets there, which place
//! comes next (`dedup`'s lookups ahead, `dedup/ahead.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use crate::chunk::Place;

/// The places of one run's chunks as they become known: shared by the
/// engine's workers (which record ends and errors as they read them) and
/// whoever follows the chunks ahead of the in-order stage (a dedup
/// seen-set looked up by the workers: [`Seen::ahead`](crate::dedup::Seen::ahead)).
///
/// ```
/// use urlsift_records::{Engine, Options};
///
/// let engine = Engine::new(Vec::new(), &Options::default())?;
/// let order = engine.chunk_order(); // a handle: clones share what is known
/// let _shared = order.clone();
/// # Ok::<(), urlsift_records::Error>(())
/// ```
#[derive(Clone, Default)]
pub struct ChunkOrder {
    known: Arc<Mutex<Known>>,
}

#[derive(Default)]
struct Known {
    /// Sources that ended, with how many places (chunks and errors) each
    /// had.
    ends: BTreeMap<usize, u64>,
    /// Places that hold a read error, not a chunk.
    errors: BTreeSet<Place>,
}

impl ChunkOrder {
    /// Forgets what an earlier run recorded.
    pub(crate) fn clear(&self) {
        if let Ok(mut known) = self.known.lock() {
            *known = Known::default();
        }
    }

    /// Source `source` ended after `count` places.
    pub(crate) fn end(&self, source: usize, count: u64) {
        if let Ok(mut known) = self.known.lock() {
            known.ends.insert(source, count);
        }
    }

    /// `place` holds a read error: no chunk comes there.
    pub(crate) fn error(&self, place: Place) {
        if let Ok(mut known) = self.known.lock() {
            known.errors.insert(place);
        }
    }

    /// The first place at or after `place` that may hold a chunk, as far
    /// as is known now: past the places known to hold errors and the ends
    /// of sources known to have ended.
    pub(crate) fn next_chunk(&self, place: Place) -> Place {
        let Ok(known) = self.known.lock() else {
            return place;
        };
        let (mut source, mut seq) = place;
        loop {
            if known.errors.contains(&(source, seq)) {
                seq += 1;
            } else if known.ends.get(&source).is_some_and(|&count| seq >= count) {
                (source, seq) = (source + 1, 0);
            } else {
                return (source, seq);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ChunkOrder;

    #[test]
    fn next_chunk_skips_errors_and_ended_sources() {
        let order = ChunkOrder::default();
        assert_eq!(order.next_chunk((0, 3)), (0, 3));
        order.end(0, 4);
        assert_eq!(order.next_chunk((0, 3)), (0, 3));
        assert_eq!(order.next_chunk((0, 4)), (1, 0));
        // Source 1 failed to open (one place, an error); source 2 is
        // empty; source 3 is still being read.
        order.error((1, 0));
        order.end(1, 1);
        order.end(2, 0);
        assert_eq!(order.next_chunk((0, 4)), (3, 0));
        order.clear();
        assert_eq!(order.next_chunk((0, 4)), (0, 4));
    }
}

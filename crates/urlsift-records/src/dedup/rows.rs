//! `dedup` of Parquet rows ([`FirstRows`]): the record engine's key set
//! over the keys the workers made, deciding which rows go on.

use xxhash_rust::xxh3::xxh3_64;

use super::{KeySet, Keys};
use crate::error::Error;
use crate::format::frame::Frames;
use crate::{Chunk, Processed};

/// `dedup` of Parquet rows: the first row of each key, in input order. The
/// keys are held in memory (exact bytes; the hash only picks a slot), up
/// to the `--memory` budget: Parquet rows are not spilled.
pub struct FirstRows {
    seen: KeySet,
    budget: u64,
    /// Rows kept per key.
    pub samples: u32,
    /// Rows offered.
    pub offered: u64,
    /// Rows kept.
    pub kept: u64,
    raw: Vec<u8>,
}

/// Marks the keys of bad rows passed through (keyed by their value):
/// 0xFF never starts UTF-8, so they never meet a URL's key.
const RAW_KEY: u8 = 0xFF;

/// How many rows ahead the key set's slots are prefetched.
const AHEAD: usize = 16;

impl FirstRows {
    /// Up to `samples` rows of each key, keys held in up to `budget` bytes.
    pub fn new(budget: u64, samples: u32) -> FirstRows {
        FirstRows {
            seen: KeySet::with_samples(samples),
            budget,
            samples,
            offered: 0,
            kept: 0,
            raw: Vec::new(),
        }
    }

    /// The frames of `chunk`'s first occurrences, in input order: the
    /// keyed rows and the bad rows passed through (`--keep-invalid`).
    pub fn chunk<'p>(
        &mut self,
        chunk: &'p Chunk,
        p: &'p Processed<Keys>,
    ) -> Result<Vec<&'p [u8]>, Error> {
        let mut first = Vec::new();
        let mut kept = p.kept.iter().peekable();
        let records = || p.extra.records(&p.out, &chunk.data);
        let mut ahead = records().map(|k| k.hash);
        for hash in ahead.by_ref().take(AHEAD) {
            self.seen.prefetch(hash);
        }
        for k in records() {
            while let Some(&(start, end)) = kept.next_if(|&&(_, end)| end <= k.at) {
                self.offer_raw(&p.out[start..end], &mut first)?;
            }
            if let Some(hash) = ahead.next() {
                self.seen.prefetch(hash);
            }
            if self.offer(k.hash, k.key)? {
                first.push(k.record);
            }
        }
        for &(start, end) in kept {
            self.offer_raw(&p.out[start..end], &mut first)?;
        }
        Ok(first)
    }

    /// A bad row's frame, keyed by its value.
    fn offer_raw<'p>(&mut self, frame: &'p [u8], first: &mut Vec<&'p [u8]>) -> Result<(), Error> {
        let mut raw = std::mem::take(&mut self.raw);
        raw.clear();
        raw.push(RAW_KEY);
        raw.extend(Frames::new(frame).flat_map(|f| f.value.iter().copied()));
        let new = self.offer(xxh3_64(&raw), &raw);
        self.raw = raw;
        if new? {
            first.push(frame);
        }
        Ok(())
    }

    /// Whether `key` is new (and now seen).
    fn offer(&mut self, hash: u64, key: &[u8]) -> Result<bool, Error> {
        self.offered += 1;
        let over = |set: &KeySet, budget: u64| {
            Error::Usage(format!(
                "dedup of Parquet rows holds its keys in memory, and {} keys ({} MiB) are over \
                 --memory {} MiB: raise --memory (Parquet rows are not spilled to disk)",
                set.len(),
                set.bytes() >> 20,
                budget >> 20
            ))
        };
        let new = self
            .seen
            .insert(hash, key)
            .ok_or_else(|| over(&self.seen, self.budget))?;
        if new {
            self.kept += 1;
            if self.seen.bytes() > self.budget {
                return Err(over(&self.seen, self.budget));
            }
        }
        Ok(new)
    }
}

//! One big gzip member (a log or a dump `gzip`ped whole) decoded on
//! several threads: rapidgzip's algorithm (the `rapidgzip-core` crate)
//! finds DEFLATE block starts ahead of the inflater, decodes from them
//! with markers for the window it does not know yet, and resolves the
//! markers once the window before is decoded.
//!
//! Faults stay exactly those of decoding in order (`gzip.rs`), offsets,
//! damaged bytes and all, by two rules:
//!
//! - A decoded byte goes out only once [`TAIL`] more have been decoded
//!   behind it. A member that fails its CRC-32 has at most `hold::LIMIT`
//!   bytes held back by the in-order decoder, and the parallel decoder
//!   reports the failure at most one decoded chunk after the member's last
//!   byte; so no byte handed out here is one the in-order decoder would
//!   set aside as damaged.
//! - On any error of the parallel decoder (damage, a cut, trailing
//!   garbage, a read error), decoding starts again in order from the
//!   file's first byte, skips the bytes already handed out, and goes on
//!   from there: every fault is then the in-order decoder's own.
//!
//! Used for a regular file whose first member decodes to more than the
//! hold's limit, when the source may use [`MIN_SHARE`] cores or more
//! ([`worth_it`]); files of small members keep the member batches of
//! `parallel.rs`, which hand records out sooner and cheaper.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};

use rapidgzip_core::{Decoder, DecoderReader};

use super::compression::Compression;
use super::fault::Decode;
use super::hold;
use super::source::Source;

/// The fewest cores a source's share must have for its big member to be
/// decoded on several threads. With two, one thread inflating in order
/// already overlaps the one parsing; a third core is the first one free
/// to decode ahead. (`normalize -j2` of 200 MB of lines in one member on
/// two cores: 1.07x the time and 1.57x the memory of in order.)
pub(super) const MIN_SHARE: usize = 3;

/// The parallel decoder's decoded chunks.
const CHUNK: usize = 4 << 20;

/// The most threads one member is decoded on. Each holds a decoded chunk
/// in flight (two more wait for the reader): 72 MiB at 16, with the ring
/// below. (rapidgzip decoded a member 3.5x as fast on 16 threads as on
/// one; beyond, a machine's other cores are the workers'.)
const MAX_THREADS: usize = 16;

/// Decoded bytes kept back from the caller until more are decoded behind
/// them (see the module notes).
pub(super) const TAIL: usize = hold::LIMIT + CHUNK;

/// The ring of decoded bytes waiting to go out: the tail and room for a
/// few chunks more, so the parallel decoder is read in big pieces.
const RING: usize = TAIL + 2 * CHUNK;

/// Whether `file`, a gzip file, starts with a member that decodes to
/// more than the hold's limit and `share` cores may decode it: it is then
/// worth decoding on several threads. Reads the first member's first
/// bytes and puts the file back at its start.
pub(super) fn worth_it(file: &mut File, share: usize) -> io::Result<bool> {
    if share < MIN_SHARE {
        return Ok(false);
    }
    let mut first = flate2::bufread::GzDecoder::new(io::BufReader::with_capacity(1 << 16, &*file));
    let mut buf = vec![0; 1 << 16];
    let mut decoded = 0;
    // A fault, or the member's end, before the limit: small, or damaged
    // early; either way the in-order decoder's to deal with.
    while decoded <= hold::LIMIT {
        match first.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => decoded += n,
        }
    }
    drop(first);
    file.seek(SeekFrom::Start(0))?;
    Ok(decoded > hold::LIMIT)
}

/// A gzip file decoded on up to `threads` threads, falling back to the
/// in-order decoder on any error (see the module notes).
pub(super) struct BigMember {
    /// The file, for the in-order decoder to start again from.
    file: File,
    parallel: Option<DecoderReader>,
    /// Decoded bytes not yet out: `ring[head..]` then `ring[..]`, `len`
    /// of them in all.
    ring: Vec<u8>,
    head: usize,
    len: usize,
    /// The parallel decoder reached the end, every member checked: the
    /// tail may go.
    done: bool,
    /// Bytes handed out so far.
    out: u64,
    /// After a fallback: the in-order decoder, and how many of its first
    /// bytes are still to be skipped (they went out before).
    in_order: Option<Box<dyn Decode>>,
    skip: u64,
}

impl BigMember {
    /// Starts decoding `file` (at its first byte) on up to `threads`
    /// threads.
    pub fn new(file: File, threads: usize) -> BigMember {
        let parallel = file.try_clone().ok().and_then(|f| {
            Decoder::builder()
                .decoder_threads(threads.clamp(1, MAX_THREADS))
                .decoded_chunk_size(CHUNK)
                .build()
                .ok()?
                .reader(f)
                .ok()
        });
        let mut big = BigMember {
            file,
            parallel,
            ring: Vec::new(),
            head: 0,
            len: 0,
            done: false,
            out: 0,
            in_order: None,
            skip: 0,
        };
        if big.parallel.is_some() {
            big.ring = vec![0; RING];
        }
        big
    }

    /// Bytes handed out before the fallback, if there was one (tests).
    #[cfg(test)]
    pub fn out_before_fallback(&self) -> Option<u64> {
        // (`out` stops counting at the fallback.)
        self.in_order.as_ref().map(|_| self.out)
    }

    /// Drops the parallel decoder and starts the in-order one from the
    /// file's first byte, to skip what went out.
    fn fall_back(&mut self) -> io::Result<()> {
        self.parallel = None;
        self.ring = Vec::new();
        (self.head, self.len) = (0, 0);
        let mut file = self.file.try_clone()?;
        file.seek(SeekFrom::Start(0))?;
        let source = Source::new(Box::new(file));
        self.in_order = Some(super::ring::decoder(Compression::Gzip, source, 1, None));
        self.skip = self.out;
        Ok(())
    }

    /// Reads the parallel decoder's next bytes into the ring's free room:
    /// `Ok(false)` at its end.
    fn read_parallel(&mut self) -> io::Result<bool> {
        let Some(parallel) = &mut self.parallel else {
            return Ok(false);
        };
        let tail = (self.head + self.len) % RING;
        let room = if tail >= self.head && self.len < RING {
            // Free: after the bytes up to the ring's end (and before head).
            RING - tail
        } else {
            self.head - tail
        };
        debug_assert!(room > 0, "read with a full ring");
        loop {
            match parallel.read(&mut self.ring[tail..tail + room]) {
                Ok(0) => return Ok(false),
                Ok(n) => {
                    self.len += n;
                    return Ok(true);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Copies up to `out.len()` of the bytes that may go out: `Ok(0)` when
    /// none may yet.
    fn hand_out(&mut self, out: &mut [u8]) -> usize {
        let free = if self.done {
            self.len
        } else {
            self.len.saturating_sub(TAIL)
        };
        let k = free.min(out.len()).min(RING - self.head);
        out[..k].copy_from_slice(&self.ring[self.head..self.head + k]);
        self.head = (self.head + k) % RING;
        self.len -= k;
        self.out += k as u64;
        k
    }
}

impl Decode for BigMember {
    fn decode(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        if self.parallel.is_none() && self.in_order.is_none() && !self.done {
            self.fall_back()?;
        }
        if let Some(in_order) = &mut self.in_order {
            while self.skip > 0 {
                let k = out
                    .len()
                    .min(usize::try_from(self.skip).unwrap_or(usize::MAX));
                match in_order.decode(&mut out[..k])? {
                    // Shorter than what went out: cannot be (see the
                    // module notes); the end is the end all the same.
                    0 => return Ok(0),
                    n => self.skip -= n as u64,
                }
            }
            return in_order.decode(out);
        }
        loop {
            let k = self.hand_out(out);
            if k > 0 || self.done {
                return Ok(k);
            }
            match self.read_parallel() {
                Ok(true) => {}
                Ok(false) => {
                    // The end, every member footer checked.
                    self.done = true;
                    self.parallel = None;
                }
                Err(_) => {
                    self.fall_back()?;
                    return self.decode(out);
                }
            }
        }
    }
}

//! Decompression overlapped with whatever reads the result: a thread of
//! its own decodes into a small ring of reused buffers (a few MiB in all,
//! however large the input), and [`Decoded`] hands their bytes out in
//! order, as a `Read` and a `BufRead`.
//!
//! The thread stops when the input ends or fails (after sending that
//! news), or when the `Decoded` is dropped: its next send or receive then
//! fails. It is never joined, since it may be blocked reading a pipe that
//! has nothing to say; it holds one buffer, and exits as soon as the read
//! returns (or with the process).
//!
//! When the run may use one core (`-j1`, [`crate::cores::capped`]), there is no
//! thread: the reader decodes each buffer itself when it needs the next,
//! with the same bytes and faults in the same places.

use std::io::{self, BufRead, Read};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::{self, JoinHandle};

use super::Decoding;
use super::big_member::BigMember;
use super::compression::Compression;
use super::fault::{Decode, again, resumes};
use super::source::Source;
use super::{gzip, parallel, zstd};
use crate::timings::BusyClock;

/// Buffers in the ring, and their size: one being filled, one being read,
/// two waiting, so neither side waits for the other's short stalls.
const RING: usize = 4;
const BUF_SIZE: usize = 1 << 20;

/// A buffer of decoded bytes and how the stream stands after it.
struct Filled {
    /// Always its full size; the decoded bytes are `buf[..len]`.
    buf: Vec<u8>,
    len: usize,
    /// `None`: more to come. `Some(Ok)`: the clean end. `Some(Err)`: the
    /// fault that ended the stream, to be reported after `buf`.
    end: Option<io::Result<()>>,
    /// A fault that decoding resumed after ([`resumes`]), to be
    /// reported after `buf`; the stream goes on.
    resumed: Option<io::Error>,
}

/// A compressed input's decoded bytes, decoded ahead on a thread of its own.
pub struct Decoded {
    format: Compression,
    /// The buffer being read: its bytes `current[pos..len]` are unread.
    current: Vec<u8>,
    pos: usize,
    len: usize,
    /// How the stream ends once `current` is used up, if it ends there.
    end: Option<io::Result<()>>,
    /// The fault to report once `current` is used up, before the bytes
    /// decoded after it.
    resumed: Option<io::Error>,
    /// Where the next buffer comes from.
    from: From,
}

/// Where a [`Decoded`]'s buffers come from.
enum From {
    /// The decoding thread.
    Thread {
        filled: Receiver<Filled>,
        empty: SyncSender<Vec<u8>>,
        /// The decoding thread, kept for tests to wait on; otherwise
        /// dropped with the reader, not joined (see the module notes).
        #[cfg_attr(not(test), allow(dead_code))]
        thread: Option<JoinHandle<()>>,
    },
    /// The reader's own thread, decoding as it reads (one core), its busy
    /// time added to the clock.
    Here(Box<dyn Decode>, BusyClock),
}

impl Decoded {
    /// Starts decoding `source` as `format` on a new thread, gzip members
    /// on up to `decoding.cores`, zstd frames on up to `decoding.share`
    /// (or, with one core for it, as it is read), the busy time added to
    /// `decoding.clock`.
    pub(super) fn start(format: Compression, source: Source, decoding: Decoding) -> Decoded {
        let cores = match format {
            // (Four `.warc.gz` files at `-j2`, two read at a time: each on
            // both cores 0.81x the time of each on one.)
            Compression::Gzip => decoding.cores,
            // (Four `pzstd` files: 1.08x the time, each with a decoding
            // thread of its own; zstd batches need three cores anyway.)
            Compression::Zstd => decoding.share.min(decoding.cores),
        };
        let decode = decoder(format, source, cores);
        if cores <= 1 {
            return Decoded::new(format, BUF_SIZE, From::Here(decode, decoding.clock));
        }
        Decoded::with_ring(format, decode, RING, BUF_SIZE, decoding.clock)
    }

    /// Decodes `file`, a gzip file whose first member is big, on up to
    /// `decoding.share` threads (`big_member.rs`), through the ring.
    pub(super) fn big_member(file: std::fs::File, decoding: Decoding) -> Decoded {
        let decode = Box::new(BigMember::new(file, decoding.share.min(decoding.cores)));
        Decoded::with_ring(Compression::Gzip, decode, RING, BUF_SIZE, decoding.clock)
    }

    /// Decodes with `decode` through `ring` buffers of `size` bytes, the
    /// busy time added to `clock`.
    pub(super) fn with_ring(
        format: Compression,
        decode: Box<dyn Decode>,
        ring: usize,
        size: usize,
        clock: BusyClock,
    ) -> Decoded {
        let (filled_tx, filled) = sync_channel(ring);
        let (empty, empty_rx) = sync_channel(ring);
        for _ in 0..ring.max(2) - 1 {
            // One buffer stays with the reader as `current`.
            empty.send(vec![0; size]).expect("the receiver is alive");
        }
        let thread = thread::Builder::new()
            .name(format!("urlsift {} decoder", format.name()))
            .spawn(move || run(decode, empty_rx, filled_tx, &clock))
            .expect("spawn the decoding thread");
        let from = From::Thread {
            filled,
            empty,
            thread: Some(thread),
        };
        Decoded::new(format, size, from)
    }

    /// Decodes with `decode` on the reader's thread, `size` bytes at a
    /// time (as [`Decoded::start`] does when the run may use one core).
    #[cfg(test)]
    pub(super) fn here(format: Compression, decode: Box<dyn Decode>, size: usize) -> Decoded {
        Decoded::new(format, size, From::Here(decode, BusyClock::default()))
    }

    /// Nothing read yet, a buffer of `size` bytes at hand, the next from
    /// `from`.
    fn new(format: Compression, size: usize, from: From) -> Decoded {
        Decoded {
            format,
            current: vec![0; size],
            pos: 0,
            len: 0,
            end: None,
            resumed: None,
            from,
        }
    }

    /// The compressed format being decoded.
    pub fn format(&self) -> Compression {
        self.format
    }

    /// Whether the decoding thread has exited (tests: it must, once the
    /// reader is gone).
    #[cfg(test)]
    pub(super) fn thread(&mut self) -> JoinHandle<()> {
        match &mut self.from {
            From::Thread { thread, .. } => thread.take().expect("asked once"),
            From::Here(..) => panic!("decoded on the reader's thread"),
        }
    }

    /// Makes `current` hold unread bytes unless the stream has ended;
    /// returns the end (clean or not) when nothing is left.
    fn next_buffer(&mut self) -> io::Result<()> {
        while self.pos == self.len {
            if let Some(e) = self.resumed.take() {
                return Err(e);
            }
            if let Some(end) = &self.end {
                return match end {
                    Ok(()) => Ok(()),
                    Err(e) => Err(again(e)),
                };
            }
            let (filled, empty) = match &mut self.from {
                From::Thread { filled, empty, .. } => (filled, empty),
                From::Here(decode, clock) => {
                    let (len, end, resumed) = fill(&mut **decode, &mut self.current, clock);
                    (self.pos, self.len) = (0, len);
                    self.end = end;
                    self.resumed = resumed;
                    continue;
                }
            };
            let Ok(next) = filled.recv() else {
                // The thread ended without saying how: it panicked.
                let e = io::Error::other("the decoding thread stopped unexpectedly");
                self.end = Some(Err(again(&e)));
                return Err(e);
            };
            let spent = std::mem::replace(&mut self.current, next.buf);
            (self.pos, self.len) = (0, next.len);
            // The thread may have ended: then the buffer is not needed.
            let _ = empty.try_send(spent);
            self.end = next.end;
            self.resumed = next.resumed;
        }
        Ok(())
    }
}

/// The decoding thread: fills empty buffers (or swaps them for whole
/// buffers the decoder has ready) and sends them on in order until the
/// stream ends or fails, or the reader is gone.
fn run(
    mut decode: Box<dyn Decode>,
    empty: Receiver<Vec<u8>>,
    filled: SyncSender<Filled>,
    clock: &BusyClock,
) {
    while let Ok(mut buf) = empty.recv() {
        let busy = std::time::Instant::now();
        if let Some((ready, len)) = decode.take_ready() {
            // A whole buffer of a batch: handed on as it is, and the empty
            // one given to the decoder to decode into.
            decode.recycle(std::mem::replace(&mut buf, ready));
            clock.add(busy.elapsed());
            let buffer = Filled {
                buf,
                len,
                end: None,
                resumed: None,
            };
            if filled.send(buffer).is_err() {
                return;
            }
            continue;
        }
        let (len, end, resumed) = fill(&mut *decode, &mut buf, clock);
        let last = end.is_some();
        let buffer = Filled {
            buf,
            len,
            end,
            resumed,
        };
        if filled.send(buffer).is_err() || last {
            return;
        }
    }
}

/// Decodes into `buf` until it is full, the stream ends (the end, clean or
/// not), or a fault is resumed after (that fault: the buffer ends at the
/// gap, the next one starts after it); returns the bytes decoded and
/// those.
fn fill(
    decode: &mut dyn Decode,
    buf: &mut [u8],
    clock: &BusyClock,
) -> (usize, Option<io::Result<()>>, Option<io::Error>) {
    let busy = std::time::Instant::now();
    let mut len = 0;
    let mut end = None;
    let mut resumed = None;
    while len < buf.len() {
        match decode.decode(&mut buf[len..]) {
            Ok(0) => {
                end = Some(Ok(()));
                break;
            }
            Ok(n) => len += n,
            Err(e) if resumes(&e) => {
                resumed = Some(e);
                break;
            }
            Err(e) => {
                end = Some(Err(e));
                break;
            }
        }
    }
    clock.add(busy.elapsed());
    (len, end, resumed)
}

impl Read for Decoded {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Decoded {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.next_buffer()?;
        Ok(&self.current[self.pos..self.len])
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.len);
    }
}

/// The decoder for `format` over `source`, on up to `cores` threads.
pub(super) fn decoder(format: Compression, source: Source, cores: usize) -> Box<dyn Decode> {
    match format {
        Compression::Gzip => parallel::decoder::<gzip::Gzip>(source, cores),
        Compression::Zstd => parallel::decoder::<zstd::Zstd>(source, cores),
    }
}

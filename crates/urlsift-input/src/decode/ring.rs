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
//! A buffer of whole records ([`WholeCheck`](super::WholeCheck): a batch
//! job's members that its check passed) may be taken out whole
//! ([`Decoded::take_whole`]) rather than read, so that its records are cut
//! on another thread; it goes back to the decoder when they are
//! ([`Home`]).
//!
//! When the run may use one core (`-j1`, [`crate::cores::capped`]), there is no
//! thread: the reader decodes each buffer itself when it needs the next,
//! with the same bytes and faults in the same places.

use std::io::{self, BufRead, Read};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::{self, JoinHandle};

use super::big_member::BigMember;
use super::compression::Compression;
use super::fault::{Decode, again, resumes};
use super::source::Source;
use super::{Decoding, WholeCheck};
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
    /// The marks of the decoder's [`WholeCheck`] if `buf[..len]` passed
    /// it.
    whole: Option<Vec<usize>>,
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
    /// The marks of `current`'s whole records, if it is
    /// ([`Decoded::take_whole`]).
    whole: Option<Vec<usize>>,
    /// Buffers of whole records may come: the bytes of batches are
    /// checked ([`Decoding::whole`]).
    checked: bool,
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
        let checked = decoding.whole.is_some() && parallel::batches(format, cores);
        let decode = decoder(format, source, cores, decoding.whole);
        if cores <= 1 {
            return Decoded::new(format, BUF_SIZE, From::Here(decode, decoding.clock));
        }
        let mut decoded = Decoded::with_ring(format, decode, RING, BUF_SIZE, decoding.clock);
        decoded.checked = checked;
        decoded
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
            .spawn(move || run(decode, empty_rx, filled_tx, size, &clock))
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
            whole: None,
            checked: false,
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
        self.load();
        if self.pos < self.len {
            return Ok(());
        }
        if let Some(e) = self.resumed.take() {
            return Err(e);
        }
        match &self.end {
            Some(Err(e)) => Err(again(e)),
            Some(Ok(())) | None => Ok(()),
        }
    }

    /// Loads the next buffers until `current` holds unread bytes, or a
    /// fault or the end comes next.
    fn load(&mut self) {
        while self.pos == self.len && self.resumed.is_none() && self.end.is_none() {
            let filled = match &mut self.from {
                From::Thread { filled, .. } => filled,
                From::Here(decode, clock) => {
                    let (len, end, resumed) = fill(&mut **decode, &mut self.current, clock);
                    (self.pos, self.len) = (0, len);
                    self.end = end;
                    self.resumed = resumed;
                    continue;
                }
            };
            match filled.recv() {
                Ok(next) => self.install(next),
                // The thread ended without saying how: it panicked.
                Err(_) => {
                    let e = io::Error::other("the decoding thread stopped unexpectedly");
                    self.end = Some(Err(e));
                }
            }
        }
    }

    /// Makes `next` the buffer being read; the spent one goes back to the
    /// decoding thread.
    fn install(&mut self, next: Filled) {
        let spent = std::mem::replace(&mut self.current, next.buf);
        (self.pos, self.len) = (0, next.len);
        if let From::Thread { empty, .. } = &self.from
            && spent.capacity() > 0
        {
            // The thread may have ended: then the buffer is not needed.
            // (None after one was taken whole: that one comes back.)
            let _ = empty.try_send(spent);
        }
        self.end = next.end;
        self.resumed = next.resumed;
        self.whole = next.whole;
    }

    /// The buffer being read, taken out whole, when it is one of whole
    /// records ([`Decoding::whole`] said so) and the caller gives back the
    /// `unread` bytes it read last and did not use, which must be all of
    /// that buffer read so far (so it is taken from its first byte); with
    /// nothing given back and the buffer used up, the next one. `None`
    /// otherwise, and nothing changes: the caller keeps its bytes and
    /// reads on. The caller, if it takes the buffer, starts its records
    /// where the bytes before it left off, and drops the `unread` bytes.
    ///
    /// ```
    /// use std::io::{Read, Write};
    /// use urlsift_input::decode::{self, Decoding, WholeCheck};
    ///
    /// # let tmp = tempfile::Builder::new().prefix("urlsift-doc-whole-").tempdir()?;
    /// # let dir = tmp.path();
    /// // Many small members of 100 lines: batches of them on 2 cores.
    /// let mut file = Vec::new();
    /// for m in 0..2_000 {
    ///     let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    ///     for i in m * 100..m * 100 + 100 {
    ///         writeln!(gz, "https://e.com/{i}")?;
    ///     }
    ///     file.extend(gz.finish()?);
    /// }
    /// let path = dir.join("urls.txt.gz");
    /// std::fs::write(&path, &file)?;
    /// let lines = WholeCheck::new(|bytes| bytes.ends_with(b"\n").then(Vec::new));
    /// let decoding = Decoding { whole: Some(lines), ..Decoding::from(2) };
    /// let decode::Input::Decoded(mut input) = decode::open_with(&path, decoding)? else {
    ///     unreachable!("gzip")
    /// };
    /// let (mut text, mut taken) = (Vec::new(), 0);
    /// loop {
    ///     if let Some(whole) = input.take_whole(0) {
    ///         text.extend_from_slice(whole.bytes());
    ///         taken += 1;
    ///         continue;
    ///     }
    ///     let mut buf = [0; 4096];
    ///     match input.read(&mut buf)? {
    ///         0 => break,
    ///         n => text.extend_from_slice(&buf[..n]),
    ///     }
    /// }
    /// assert!(text.starts_with(b"https://e.com/0\nhttps://e.com/1\n"));
    /// assert!(text.ends_with(b"https://e.com/199999\n"));
    /// assert!(taken > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn take_whole(&mut self, unread: usize) -> Option<Whole> {
        if unread == 0 && self.pos == self.len {
            self.load();
        }
        if self.pos != unread || self.len == 0 || self.whole.is_none() {
            return None;
        }
        let From::Thread { empty, .. } = &self.from else {
            return None;
        };
        let home = Home(empty.clone());
        let buf = std::mem::take(&mut self.current);
        let marks = self.whole.take().unwrap_or_default();
        let len = self.len;
        (self.pos, self.len) = (0, 0);
        Some(Whole {
            buf,
            len,
            marks,
            home,
        })
    }

    /// Whether buffers of whole records may come ([`Decoded::take_whole`]):
    /// gzip members or zstd frames are decoded in batches, their bytes
    /// checked ([`Decoding::whole`]).
    ///
    /// ```
    /// use std::io::Write;
    /// use urlsift_input::decode::{self, Decoding, WholeCheck};
    ///
    /// let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    /// gz.write_all(b"https://e.com/\n")?;
    /// let gz = gz.finish()?;
    /// let open = |cores: usize| {
    ///     let whole = WholeCheck::new(|_| None);
    ///     let decoding = Decoding { whole: Some(whole), ..Decoding::from(cores) };
    ///     decode::open_stream(Box::new(std::io::Cursor::new(gz.clone())), decoding)
    /// };
    /// let decode::Input::Decoded(two) = open(2)? else { unreachable!("gzip") };
    /// assert!(two.takes_whole());
    /// // One core: decoded as it is read, in order.
    /// let decode::Input::Decoded(one) = open(1)? else { unreachable!("gzip") };
    /// assert!(!one.takes_whole());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn takes_whole(&self) -> bool {
        self.checked
    }

    /// Whether [`Decoded::take_whole`] of `unread` bytes may take a
    /// buffer (the one being read is whole records, and all its bytes
    /// read are those; or it is used up, and the next is to be seen).
    ///
    /// ```
    /// use std::io::Write;
    /// use urlsift_input::decode;
    ///
    /// let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    /// gz.write_all(b"https://e.com/\n")?;
    /// let gz = gz.finish()?;
    /// let decode::Input::Decoded(input) = decode::open_stream(Box::new(std::io::Cursor::new(gz)), 1)? else {
    ///     unreachable!("gzip")
    /// };
    /// // Decoded as it is read (one core): no buffer is taken whole.
    /// assert!(!input.whole_from(0));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn whole_from(&self, unread: usize) -> bool {
        let fresh = self.whole.is_some() && self.len > 0 && self.pos == unread;
        let used_up = unread == 0
            && self.pos == self.len
            && self.resumed.is_none()
            && self.end.is_none()
            && matches!(self.from, From::Thread { .. });
        fresh || used_up
    }

    /// The next decoded bytes (at least one), without reading them;
    /// empty at the clean end; `None` when a fault comes next.
    ///
    /// ```
    /// use std::io::Read;
    /// use urlsift_input::decode;
    ///
    /// let gz = {
    ///     use std::io::Write;
    ///     let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    ///     gz.write_all(b"WARC/1.1\r\n")?;
    ///     gz.finish()?
    /// };
    /// let decode::Input::Decoded(mut input) = decode::open_stream(Box::new(std::io::Cursor::new(gz)), 1)? else {
    ///     unreachable!("gzip")
    /// };
    /// assert!(input.peek().unwrap().starts_with(b"WARC/"));
    /// let mut all = String::new();
    /// input.read_to_string(&mut all)?;
    /// assert_eq!(all, "WARC/1.1\r\n");
    /// assert_eq!(input.peek(), Some(&b""[..]));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn peek(&mut self) -> Option<&[u8]> {
        self.load();
        if self.pos < self.len {
            return Some(&self.current[self.pos..self.len]);
        }
        match (&self.resumed, &self.end) {
            (None, Some(Ok(()))) => Some(&[]),
            _ => None,
        }
    }
}

/// A decoded buffer taken whole ([`Decoded::take_whole`]): its bytes,
/// and the way back to the decoder that filled it, where it goes when
/// dropped (the decoder has a few buffers in all: one not given back is
/// one fewer to decode ahead into, and with none it waits).
pub struct Whole {
    buf: Vec<u8>,
    len: usize,
    marks: Vec<usize>,
    home: Home,
}

impl Whole {
    /// The decoded bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// The marks of the [`WholeCheck`] the bytes passed.
    pub fn marks(&self) -> &[usize] {
        &self.marks
    }

    /// The buffer, holding just the decoded bytes, the marks, and where
    /// to give the buffer back ([`Home::give_back`]) once done with.
    pub fn into_parts(mut self) -> (Vec<u8>, Vec<usize>, Home) {
        let mut buf = std::mem::take(&mut self.buf);
        buf.truncate(self.len);
        let marks = std::mem::take(&mut self.marks);
        (buf, marks, Home(self.home.0.clone()))
    }
}

impl Drop for Whole {
    fn drop(&mut self) {
        if self.buf.capacity() > 0 {
            self.home.give_back(std::mem::take(&mut self.buf));
        }
    }
}

/// Where a buffer taken whole goes back to: the decoder that filled it,
/// so it decodes into it again instead of into fresh memory.
pub struct Home(SyncSender<Vec<u8>>);

impl Home {
    /// Gives `buf` back (dropped if the decoder has enough, or has
    /// ended).
    pub fn give_back(&self, buf: Vec<u8>) {
        // (As it is: the ring sizes a buffer it fills in order, and a
        // batch job grows the one it decodes into as it needs.)
        let _ = self.0.try_send(buf);
    }
}

/// The decoding thread: fills empty buffers (or swaps them for whole
/// buffers the decoder has ready) and sends them on in order until the
/// stream ends or fails, or the reader is gone.
fn run(
    mut decode: Box<dyn Decode>,
    empty: Receiver<Vec<u8>>,
    filled: SyncSender<Filled>,
    size: usize,
    clock: &BusyClock,
) {
    while let Ok(mut buf) = empty.recv() {
        let busy = std::time::Instant::now();
        if let Some((ready, len, whole)) = decode.take_ready() {
            // A whole buffer of a batch: handed on as it is, and the empty
            // one given to the decoder to decode into.
            decode.recycle(std::mem::replace(&mut buf, ready));
            clock.add(busy.elapsed());
            let buffer = Filled {
                buf,
                len,
                end: None,
                resumed: None,
                whole,
            };
            if filled.send(buffer).is_err() {
                return;
            }
            continue;
        }
        if buf.len() != size {
            // (One given back that is not of the ring's size: a buffer
            // taken whole, or one the reader replaced by it.)
            buf.resize(size, 0);
        }
        let (len, end, resumed) = fill(&mut *decode, &mut buf, clock);
        let last = end.is_some();
        let buffer = Filled {
            buf,
            len,
            end,
            resumed,
            whole: None,
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

/// The decoder for `format` over `source`, on up to `cores` threads,
/// the bytes of its batch jobs checked by `whole`.
pub(super) fn decoder(
    format: Compression,
    source: Source,
    cores: usize,
    whole: Option<WholeCheck>,
) -> Box<dyn Decode> {
    match format {
        Compression::Gzip => parallel::decoder::<gzip::Gzip>(source, cores, whole),
        Compression::Zstd => parallel::decoder::<zstd::Zstd>(source, cores, whole),
    }
}

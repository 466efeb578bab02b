//! An object's body read in pieces side by side: while the reader takes
//! the first piece from the answer to its GET, ranged GETs for the next
//! pieces are in flight, each held to the first answer's ETag, within one
//! read-ahead budget for the whole process (the objects read side by
//! side share it).

use std::collections::VecDeque;
use std::io::{self, Read};
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use futures_util::StreamExt;
use object_store::ObjectStore;
use object_store::path::Path as ObjectPath;

use super::body::{Body, ask};

/// The longest piece: long enough that a request's round trip is small
/// beside its transfer, short enough that a few of them in flight per
/// object fit the budget.
const LONGEST: u64 = 8 << 20;

/// The shortest piece; an object of less than two is read in one answer.
const SHORTEST: u64 = 256 << 10;

/// Bytes asked for ahead of their readers, over every object of the
/// process, at most: past it, a reader waits for each piece as it comes
/// to it (its next piece is always asked for, so no reader waits on
/// another's).
const BUDGET: u64 = 256 << 20;

/// Bytes asked for ahead of their readers now.
static HELD: AtomicU64 = AtomicU64::new(0);

/// The piece length for a body of `len` bytes: an eighth of it, within
/// [`SHORTEST`] and [`LONGEST`], so even a small object comes in a few
/// requests side by side.
pub(super) fn piece_len(len: u64) -> u64 {
    (len / 8).clamp(SHORTEST, LONGEST)
}

/// Whether a body of `len` bytes is worth reading in pieces.
pub(super) fn worth_pieces(len: u64) -> bool {
    len >= 2 * SHORTEST
}

/// A body read in pieces: the first from the answer already in hand,
/// the rest by ranged GETs ahead of the reader.
pub(super) struct Pieces {
    /// The first piece, from the first answer (taken up where it breaks
    /// off, up to the piece's end).
    first: Option<io::Take<Body>>,
    store: Arc<dyn ObjectStore>,
    path: ObjectPath,
    etag: String,
    runtime: &'static tokio::runtime::Runtime,
    piece: u64,
    /// The next byte to ask for, and the body's end.
    next: u64,
    end: u64,
    /// The pieces asked for, in order: their length (held in the budget)
    /// and their download.
    ahead: VecDeque<(u64, tokio::task::JoinHandle<io::Result<Vec<u8>>>)>,
    /// The piece being read, and how much of it has been.
    current: Vec<u8>,
    taken: usize,
}

impl Pieces {
    /// The body `first` is the answer to a GET of (`first.offset..end`,
    /// with the ETag `etag`), read in pieces of `piece` bytes: the first
    /// from `first`, the next ones asked for now.
    pub(super) fn new(mut first: Body, etag: String, piece: u64) -> Pieces {
        let start = first.offset;
        let end = first.end;
        let first_end = end.min(start + piece);
        // Taken up, if it breaks, only up to the first piece's end.
        first.end = first_end;
        let mut pieces = Pieces {
            store: Arc::clone(&first.store),
            path: first.path.clone(),
            runtime: first.runtime,
            first: Some(first.take(first_end - start)),
            etag,
            piece,
            next: first_end,
            end,
            ahead: VecDeque::new(),
            current: Vec::new(),
            taken: 0,
        };
        pieces.ask_ahead();
        pieces
    }

    /// Asks for the next pieces, up to [`super::requests_ahead`] of them and within the
    /// budget; the one the reader comes to next, always.
    fn ask_ahead(&mut self) {
        let most = super::requests_ahead().max(1);
        while self.next < self.end && self.ahead.len() < most {
            let left = self.end - self.next;
            // (A last piece shorter than half of one goes with the one before.)
            let len = if left < self.piece + self.piece / 2 {
                left
            } else {
                self.piece
            };
            let held = HELD.fetch_add(len, Ordering::Relaxed) + len;
            let needed = self.ahead.is_empty() && self.first.is_none();
            if held > BUDGET && !needed {
                HELD.fetch_sub(len, Ordering::Relaxed);
                break;
            }
            let range = self.next..self.next + len;
            let download = fetch(
                Arc::clone(&self.store),
                self.path.clone(),
                self.etag.clone(),
                range,
            );
            self.ahead.push_back((len, self.runtime.spawn(download)));
            self.next += len;
        }
    }

    /// The next piece asked for, when it has come; `None` past the end.
    fn next_piece(&mut self) -> io::Result<Option<Vec<u8>>> {
        self.ask_ahead();
        let Some((len, download)) = self.ahead.pop_front() else {
            return Ok(None);
        };
        let got = super::tally::waiting(|| self.runtime.block_on(download));
        HELD.fetch_sub(len, Ordering::Relaxed);
        self.ask_ahead();
        match got {
            Ok(piece) => piece.map(Some),
            Err(e) => Err(io::Error::other(format!("a download failed: {e}"))),
        }
    }
}

impl Read for Pieces {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        if let Some(first) = &mut self.first {
            let n = first.read(out)?;
            if n > 0 {
                return Ok(n);
            }
            if first.limit() > 0 {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the object's first piece ended early",
                ));
            }
            self.first = None;
        }
        while self.taken == self.current.len() {
            match self.next_piece()? {
                Some(piece) => (self.current, self.taken) = (piece, 0),
                None => return Ok(0),
            }
        }
        let rest = &self.current[self.taken..];
        let n = out.len().min(rest.len());
        out[..n].copy_from_slice(&rest[..n]);
        self.taken += n;
        Ok(n)
    }
}

impl Drop for Pieces {
    fn drop(&mut self) {
        for (len, download) in self.ahead.drain(..) {
            download.abort();
            HELD.fetch_sub(len, Ordering::Relaxed);
        }
    }
}

/// The bytes `range` of the object, held to `etag`: asked for, and asked
/// for again from the byte reached where the answer breaks off (see
/// [`ask`]). Gathered in one buffer of the range's length: the answer's
/// pieces, each held in a buffer of the connection's, would hold more.
async fn fetch(
    store: Arc<dyn ObjectStore>,
    path: ObjectPath,
    etag: String,
    range: Range<u64>,
) -> io::Result<Vec<u8>> {
    let mut got = Vec::with_capacity((range.end - range.start) as usize);
    let mut offset = range.start;
    let mut failures = 0;
    let mut why = None;
    loop {
        let answer = ask(&store, &path, &etag, offset..range.end, &mut failures, why).await?;
        let mut stream = answer.into_stream();
        why = loop {
            match stream.next().await {
                Some(Ok(bytes)) => {
                    offset += bytes.len() as u64;
                    failures = 0;
                    got.extend_from_slice(&bytes);
                    super::tally::received(bytes.len() as u64);
                }
                None if offset >= range.end => return Ok(got),
                None => break Some(format!("the body ended at byte {offset} of {}", range.end)),
                Some(Err(e)) => break Some(format!("{e}, at byte {offset}")),
            }
        };
    }
}

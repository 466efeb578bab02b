//! An object's body as a reader, taken up again where it broke off.

use std::io::{self, Read};
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures_util::StreamExt;
use futures_util::stream::BoxStream;
use object_store::ObjectStore;
use object_store::path::Path as ObjectPath;

/// Bodies taken up again where they broke off, in this process.
static RESUMED: AtomicU64 = AtomicU64::new(0);

/// How many times, in this process, an object's body broke off (a reset,
/// a stall, a short body) and was taken up again at the byte reached.
///
/// ```
/// assert_eq!(urlsift_input::remote::resumed(), 0);
/// ```
pub fn resumed() -> u64 {
    RESUMED.load(Ordering::Relaxed)
}

/// Attempts in a row, without a byte received, before a broken body is
/// given up.
const ATTEMPTS: u32 = 8;

/// An object's body, as a reader. The store resumes a body that breaks
/// a few times within a few minutes of its request; past that, this
/// reader asks again for the rest (`If-Match` its ETag: an object that
/// changed is an error, not a mix of two), so a long download survives
/// any number of breaks as long as each attempt brings bytes.
pub(super) struct Body {
    pub(super) store: Arc<dyn ObjectStore>,
    pub(super) path: ObjectPath,
    pub(super) etag: Option<String>,
    /// The next byte's offset in the object, and the end of the object.
    pub(super) offset: u64,
    pub(super) end: u64,
    pub(super) stream: BoxStream<'static, object_store::Result<bytes::Bytes>>,
    pub(super) runtime: &'static tokio::runtime::Runtime,
    pub(super) current: bytes::Bytes,
    /// Attempts in a row that brought no byte.
    pub(super) failures: u32,
}

impl Body {
    /// The next piece of the body, or `None` at its end; a stall past the
    /// network timeout, a broken connection or a body cut short is taken
    /// up again at the byte reached.
    fn next_piece(&mut self) -> io::Result<Option<bytes::Bytes>> {
        loop {
            // (A stall is the client's read timeout: an error here.)
            let next = super::tally::waiting(|| self.runtime.block_on(self.stream.next()));
            let why = match next {
                Some(Ok(bytes)) => {
                    self.offset += bytes.len() as u64;
                    super::tally::received(bytes.len() as u64);
                    self.failures = 0;
                    return Ok(Some(bytes));
                }
                None if self.offset >= self.end => return Ok(None),
                None => format!("the body ended at byte {} of {}", self.offset, self.end),
                Some(Err(e)) => format!("{e}, at byte {}", self.offset),
            };
            self.resume(why)?;
        }
    }

    /// Asks again for the body from the byte reached (see [`ask`]); an
    /// error when the server gives no ETag to hold the rest to.
    fn resume(&mut self, why: String) -> io::Result<()> {
        let Some(etag) = self.etag.clone() else {
            return Err(io::Error::other(format!(
                "{why} (the server gives no ETag, so the rest cannot be asked for safely)"
            )));
        };
        let asked = ask(
            &self.store,
            &self.path,
            &etag,
            self.offset..self.end,
            &mut self.failures,
            Some(why),
        );
        self.stream = super::tally::waiting(|| self.runtime.block_on(asked))?.into_stream();
        Ok(())
    }
}

/// Asks for the bytes `range` of the object, held to its `etag` (an
/// object that changed is an error, not a mix of two). With `why` (the
/// last attempt broke off), after a backoff that grows with `failures`,
/// the attempts in a row that brought no byte: an error past
/// [`ATTEMPTS`] of them; a request that fails is tried again the same
/// way; a refusal (403, 401) is an error at once.
pub(super) async fn ask(
    store: &Arc<dyn ObjectStore>,
    path: &ObjectPath,
    etag: &str,
    range: Range<u64>,
    failures: &mut u32,
    mut why: Option<String>,
) -> io::Result<object_store::GetResult> {
    loop {
        if let Some(why) = &why {
            *failures += 1;
            if *failures > ATTEMPTS {
                return Err(io::Error::other(format!(
                    "{why}; {ATTEMPTS} attempts in a row brought no byte"
                )));
            }
            tokio::time::sleep(Duration::from_millis(100 << (*failures).min(6))).await;
        }
        let options = object_store::GetOptions {
            range: Some(object_store::GetRange::Bounded(range.clone())),
            if_match: Some(etag.to_string()),
            ..Default::default()
        };
        super::tally::sent(1);
        match store.get_opts(path, options).await {
            Ok(got) if got.range.start == range.start => {
                if why.is_some() {
                    RESUMED.fetch_add(1, Ordering::Relaxed);
                }
                return Ok(got);
            }
            Ok(got) => {
                return Err(io::Error::other(format!(
                    "asked for the object from byte {}, the server answered from byte {}",
                    range.start, got.range.start
                )));
            }
            Err(object_store::Error::Precondition { .. }) => {
                return Err(io::Error::other(format!(
                    "the object changed while it was read (its ETag is no longer {etag}), \
                     at byte {}",
                    range.start
                )));
            }
            Err(object_store::Error::NotFound { .. }) => {
                return Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    format!(
                        "the object went away while it was read, at byte {}",
                        range.start
                    ),
                ));
            }
            // A refusal (credentials, permissions) is not tried again.
            Err(
                e @ (object_store::Error::PermissionDenied { .. }
                | object_store::Error::Unauthenticated { .. }),
            ) => return Err(super::store::store_error(e)),
            // Tried again, after a longer wait.
            Err(e) => why = Some(format!("{e}, at byte {}", range.start)),
        }
    }
}

impl Read for Body {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.current.is_empty() {
            match self.next_piece()? {
                Some(bytes) => self.current = bytes,
                None => return Ok(0),
            }
        }
        let n = out.len().min(self.current.len());
        out[..n].copy_from_slice(&self.current[..n]);
        let _ = self.current.split_to(n);
        Ok(n)
    }
}

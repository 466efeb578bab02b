//! An object's body as a reader, taken up again where it broke off.

use std::io::{self, Read};
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
            let why = match self.runtime.block_on(self.stream.next()) {
                Some(Ok(bytes)) => {
                    self.offset += bytes.len() as u64;
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

    /// Asks again for the body from the byte reached, after a backoff;
    /// an error when the object changed, has no ETag to hold it to, or
    /// [`ATTEMPTS`] attempts in a row brought nothing.
    fn resume(&mut self, why: String) -> io::Result<()> {
        let Some(etag) = self.etag.clone() else {
            return Err(io::Error::other(format!(
                "{why} (the server gives no ETag, so the rest cannot be asked for safely)"
            )));
        };
        loop {
            self.failures += 1;
            if self.failures > ATTEMPTS {
                return Err(io::Error::other(format!(
                    "{why}; {ATTEMPTS} attempts in a row brought no byte"
                )));
            }
            let backoff = Duration::from_millis(100 << self.failures.min(6));
            let options = object_store::GetOptions {
                range: Some(object_store::GetRange::Bounded(self.offset..self.end)),
                if_match: Some(etag.clone()),
                ..Default::default()
            };
            let asked = async {
                tokio::time::sleep(backoff).await;
                self.store.get_opts(&self.path, options).await
            };
            match self.runtime.block_on(asked) {
                Ok(got) if got.range.start == self.offset => {
                    RESUMED.fetch_add(1, Ordering::Relaxed);
                    self.stream = got.into_stream();
                    return Ok(());
                }
                Ok(got) => {
                    return Err(io::Error::other(format!(
                        "{why}; asked again from byte {}, the server answered from byte {}",
                        self.offset, got.range.start
                    )));
                }
                Err(object_store::Error::Precondition { .. }) => {
                    return Err(io::Error::other(format!(
                        "the object changed while it was read (its ETag is no longer {etag}), \
                         at byte {}",
                        self.offset
                    )));
                }
                Err(object_store::Error::NotFound { .. }) => {
                    return Err(io::Error::new(
                        io::ErrorKind::NotFound,
                        format!(
                            "the object went away while it was read, at byte {}",
                            self.offset
                        ),
                    ));
                }
                // Tried again, after a longer wait.
                Err(_) => {}
            }
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

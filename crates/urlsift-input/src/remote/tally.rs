//! What the network did for this process: requests sent, body bytes
//! received, and how long the readers waited for them (`--timings`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

static REQUESTS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);
static WAITED_NS: AtomicU64 = AtomicU64::new(0);

/// What the network did for this process's remote objects so far: what
/// `--timings` prints after a run that read any.
///
/// ```
/// let tally = urlsift_input::remote::network_tally();
/// assert_eq!(tally.requests, 0);
/// assert_eq!(tally.bytes, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NetworkTally {
    /// Requests sent (GET, HEAD, listings), the store's own retries not
    /// counted.
    pub requests: u64,
    /// Body bytes received.
    pub bytes: u64,
    /// How long readers waited for the network (for an answer, or for
    /// bytes not yet come), over every reading thread.
    pub waited: Duration,
    /// Downloads that broke off past the store's own retries and were
    /// taken up again at the byte reached ([`super::resumed`]).
    pub resumed: u64,
}

/// What the network did for this process so far ([`NetworkTally`]).
///
/// ```
/// assert_eq!(urlsift_input::remote::network_tally().resumed, 0);
/// ```
pub fn network_tally() -> NetworkTally {
    NetworkTally {
        requests: REQUESTS.load(Ordering::Relaxed),
        bytes: BYTES.load(Ordering::Relaxed),
        waited: Duration::from_nanos(WAITED_NS.load(Ordering::Relaxed)),
        resumed: super::resumed(),
    }
}

/// Counts `n` requests sent.
pub(super) fn sent(n: u64) {
    REQUESTS.fetch_add(n, Ordering::Relaxed);
}

/// Counts `n` body bytes received.
pub(super) fn received(n: u64) {
    BYTES.fetch_add(n, Ordering::Relaxed);
}

/// Runs `f` (a reader's wait on the network) and counts its time.
pub(super) fn waiting<T>(f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    let ns = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
    WAITED_NS.fetch_add(ns, Ordering::Relaxed);
    out
}

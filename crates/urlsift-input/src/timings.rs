//! How long the decoding threads were busy, for the engine's `--timings`
//! report (`urlsift_records::timings`).
//!
//! ```
//! let before = urlsift_input::timings::decoding();
//! assert!(urlsift_input::timings::decoding() >= before);
//! ```

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Nanoseconds the decoding threads spent decoding, over the process.
static DECODING: AtomicU64 = AtomicU64::new(0);

/// Adds `spent` to the decoding threads' busy time.
pub(crate) fn add_decoding(spent: Duration) {
    DECODING.fetch_add(spent.as_nanos() as u64, Ordering::Relaxed);
}

/// The decoding threads' busy time so far, over the process.
pub fn decoding() -> Duration {
    Duration::from_nanos(DECODING.load(Ordering::Relaxed))
}

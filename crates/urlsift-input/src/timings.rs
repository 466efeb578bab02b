//! Busy time that threads add to and their run reads back: a run's
//! decoding threads ([`Decoding::clock`](crate::decode::Decoding)), for
//! the engine's `--timings` report (`urlsift_records::timings`). Each run
//! holds its own clocks: nothing here is the process's.
//!
//! ```
//! use std::time::Duration;
//! use urlsift_input::timings::BusyClock;
//!
//! let clock = BusyClock::default();
//! let shared = clock.clone();
//! std::thread::spawn(move || shared.add(Duration::from_millis(5))).join().unwrap();
//! assert_eq!(clock.total(), Duration::from_millis(5));
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Busy time added by any thread that holds a clone.
#[derive(Clone, Debug, Default)]
pub struct BusyClock(Arc<AtomicU64>);

impl BusyClock {
    /// Adds `spent`.
    pub fn add(&self, spent: Duration) {
        self.0.fetch_add(spent.as_nanos() as u64, Ordering::Relaxed);
    }

    /// The time added so far, by every clone.
    pub fn total(&self) -> Duration {
        Duration::from_nanos(self.0.load(Ordering::Relaxed))
    }
}

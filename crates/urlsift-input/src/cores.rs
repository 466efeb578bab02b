//! How many cores urlsift's own thread pools besides the workers (the
//! gzip member decoders, the Parquet row-group lanes) may use: the
//! machine's, or fewer when the run says so (`-j`), so that `-j1` is one
//! thread doing the work and scaling figures are honest.
//!
//! ```
//! use urlsift_input::cores;
//!
//! cores::set_cap(Some(1));
//! assert_eq!(cores::available(), 1);
//! cores::set_cap(None);
//! assert!(cores::available() >= 1);
//! ```

use std::sync::atomic::{AtomicUsize, Ordering};

/// The cap; 0 for none.
static CAP: AtomicUsize = AtomicUsize::new(0);

/// Caps the pools at `threads` (`None`: the machine's cores), for the
/// process: each record engine made (`urlsift_records::Engine`) sets it
/// from its options.
pub fn set_cap(threads: Option<usize>) {
    CAP.store(threads.unwrap_or(0), Ordering::Relaxed);
}

/// The cores a pool may use: the machine's, at most the cap.
pub fn available() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match CAP.load(Ordering::Relaxed) {
        0 => cores,
        cap => cores.min(cap),
    }
}

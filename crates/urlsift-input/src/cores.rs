//! How many cores urlsift's own thread pools besides the workers (the
//! gzip member decoders, a mapped CSV's boundary finders, the Parquet
//! row-group lanes) may use: the machine's, or fewer when the run says so
//! (`-j`), so that `-j1` is one thread doing the work and scaling figures
//! are honest. Each run carries its own number (no process-wide cap: two
//! engines of one process, as in Python, each keep theirs).
//!
//! ```
//! use urlsift_input::cores;
//!
//! assert_eq!(cores::capped(Some(1)), 1);
//! assert_eq!(cores::capped(None), cores::machine());
//! assert!(cores::capped(Some(10_000)) <= cores::machine());
//! ```

/// The machine's cores (at least one).
pub fn machine() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The cores a pool may use in a run of `threads` workers (`None`: one
/// per core): the machine's, at most `threads`, at least one.
pub fn capped(threads: Option<usize>) -> usize {
    match threads {
        Some(n) => machine().min(n).max(1),
        None => machine(),
    }
}

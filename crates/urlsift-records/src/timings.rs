//! Where a run's time went (`--timings`): how long each stage of
//! [`Engine::run`](super::Engine::run) was busy, so the serial share of a
//! job can be read on any machine, two cores included.
//!
//! The stages: reading (a worker holding the shared reader: cutting
//! chunks, and waiting for decompressed bytes), decompression (the gzip
//! and zstd decoding thread of each input, busy filling buffers; where a
//! file's gzip members are inflated by a pool, the time the thread waited
//! for them, not their sum), the workers' work on their
//! chunks (summed over the workers), the in-order stage (the thread that
//! takes the results in input order: the ledger, the dedup seen-set, the
//! writer), and the waits: workers for the reader, workers for the
//! in-order stage (no ticket free: it is behind), the in-order stage for
//! the workers (idle). A stage's share of the wall time is its busy time
//! over the wall time; the in-order stage's share bounds the speedup
//! (Amdahl: at most wall / in-order).
//!
//! ```
//! use std::time::Duration;
//! use urlsift_records::timings::Report;
//!
//! let r = Report {
//!     wall: Duration::from_millis(1000),
//!     threads: 2,
//!     in_order: Duration::from_millis(250),
//!     ..Report::default()
//! };
//! assert_eq!(r.serial_share(), 0.25);
//! assert!(r.text().contains("in order 0.250 s (25.0% of the wall time serial"));
//! assert!(r.json().starts_with("{\"wall_s\":1.000000,"));
//! ```

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub use urlsift_input::timings::BusyClock;

/// An engine's clocks that other threads add to: its inputs' decoding
/// threads, and the helpers of its in-order stage (a dedup seen-set's
/// partitions, looked up at once: [`Engine::in_order_clock`](crate::Engine::in_order_clock)).
/// Each engine has its own.
#[derive(Clone, Debug, Default)]
pub(crate) struct Shared {
    pub(crate) decoding: BusyClock,
    pub(crate) in_order: BusyClock,
}

/// When a run started, with its engine's shared clocks as they stood then.
pub(crate) struct Started {
    at: Instant,
    clocks: Shared,
    decoding: Duration,
    shared: Duration,
}

impl Started {
    /// Now, for a run of the engine whose clocks are `clocks`.
    pub(crate) fn now(clocks: &Shared) -> Started {
        Started {
            at: Instant::now(),
            clocks: clocks.clone(),
            decoding: clocks.decoding.total(),
            shared: clocks.in_order.total(),
        }
    }
}

/// A run's stage clocks, added to by the workers and the in-order thread.
#[derive(Default)]
pub(crate) struct Clocks {
    read: AtomicU64,
    read_wait: AtomicU64,
    work: AtomicU64,
    ticket_wait: AtomicU64,
}

/// Which clock [`Clocks::add`] adds to.
#[derive(Clone, Copy)]
pub(crate) enum Clock {
    Read,
    ReadWait,
    Work,
    TicketWait,
}

impl Clocks {
    /// Adds the time since `since` to `clock`.
    pub(crate) fn add(&self, clock: Clock, since: Instant) {
        let nanos = since.elapsed().as_nanos() as u64;
        let c = match clock {
            Clock::Read => &self.read,
            Clock::ReadWait => &self.read_wait,
            Clock::Work => &self.work,
            Clock::TicketWait => &self.ticket_wait,
        };
        c.fetch_add(nanos, Ordering::Relaxed);
    }

    fn get(c: &AtomicU64) -> Duration {
        Duration::from_nanos(c.load(Ordering::Relaxed))
    }
}

/// Where a run's time went.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Report {
    /// From the run's start to its end.
    pub wall: Duration,
    /// The workers.
    pub threads: usize,
    /// Workers holding the reader (cutting chunks; waiting on decoding).
    pub read: Duration,
    /// Workers waiting for the reader another worker held.
    pub read_wait: Duration,
    /// The decoding threads, busy filling buffers (gzip, zstd).
    pub decode: Duration,
    /// The workers' work on chunks, summed.
    pub work: Duration,
    /// Workers waiting for the in-order stage (no chunk may be read until
    /// it has taken an earlier one).
    pub workers_waited: Duration,
    /// The in-order stage, busy.
    pub in_order: Duration,
    /// Of the in-order stage's busy time, the part spent with helper
    /// threads working at once (the dedup seen-set's partitions): not
    /// serial, as the helpers are as many as the workers.
    pub in_order_shared: Duration,
    /// The in-order stage, waiting for the next chunk's result.
    pub in_order_idle: Duration,
}

impl Report {
    /// The report of a run whose clocks are `clocks`, `started` then, on
    /// `threads` workers; the in-order stage's busy and idle times.
    pub(crate) fn of(
        clocks: &Clocks,
        started: &Started,
        threads: usize,
        in_order: (Duration, Duration),
    ) -> Report {
        Report {
            wall: started.at.elapsed(),
            threads,
            read: Clocks::get(&clocks.read),
            read_wait: Clocks::get(&clocks.read_wait),
            decode: started
                .clocks
                .decoding
                .total()
                .saturating_sub(started.decoding),
            work: Clocks::get(&clocks.work),
            workers_waited: Clocks::get(&clocks.ticket_wait),
            in_order: in_order.0,
            in_order_shared: started
                .clocks
                .in_order
                .total()
                .saturating_sub(started.shared),
            in_order_idle: in_order.1,
        }
    }

    /// The in-order stage's busy time (less the part shared with helper
    /// threads) over the wall time: the serial share, which bounds the
    /// speedup more cores can give.
    pub fn serial_share(&self) -> f64 {
        let serial = self.in_order.saturating_sub(self.in_order_shared);
        serial.as_secs_f64() / self.wall.as_secs_f64().max(1e-9)
    }

    /// One line for stderr.
    pub fn text(&self) -> String {
        let s = |d: Duration| format!("{:.3} s", d.as_secs_f64());
        format!(
            "timings: wall {}; {} workers: read {} (+{} waiting for the reader), work {}, \
             {} waiting for the in-order stage; decoding threads {}; in order {}{} \
             ({:.1}% of the wall time serial: at most {:.1}x from more cores), idle {}",
            s(self.wall),
            self.threads,
            s(self.read),
            s(self.read_wait),
            s(self.work),
            s(self.workers_waited),
            s(self.decode),
            s(self.in_order),
            if self.in_order_shared.is_zero() {
                String::new()
            } else {
                format!(", {} of it with helper threads", s(self.in_order_shared))
            },
            self.serial_share() * 100.0,
            1.0 / self.serial_share().max(1e-9),
            s(self.in_order_idle),
        )
    }

    /// A JSON object, seconds as numbers.
    pub fn json(&self) -> String {
        let s = |d: Duration| format!("{:.6}", d.as_secs_f64());
        format!(
            "{{\"wall_s\":{},\"threads\":{},\"read_s\":{},\"read_wait_s\":{},\"decode_s\":{},\
             \"work_s\":{},\"workers_waited_s\":{},\"in_order_s\":{},\"in_order_shared_s\":{},\"in_order_idle_s\":{},\
             \"serial_share\":{:.4}}}",
            s(self.wall),
            self.threads,
            s(self.read),
            s(self.read_wait),
            s(self.decode),
            s(self.work),
            s(self.workers_waited),
            s(self.in_order),
            s(self.in_order_shared),
            s(self.in_order_idle),
            self.serial_share(),
        )
    }
}

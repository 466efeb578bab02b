//! Several sources read side by side: with K inputs and `-j N`, up to
//! min(K, N) lanes, each a reader of one source at a time, taken in turn
//! by the workers; sources go to lanes in input order as lanes free up,
//! and a lone source left takes every worker, as one source always did.
//! Each chunk is numbered by its source and its place there, and each
//! source's end by the chunks it gave, so the in-order stage takes the
//! sources one after another: output, rejects, faults and counts are
//! those of reading them in order.
//!
//! One budget of chunks in flight (being read or worked on, or waiting to
//! be taken in order) holds for the whole run. Chunks of sources after the
//! one the in-order stage is at may hold only part of it, so the source it
//! waits for can always be read. The run's cores for decoding (Parquet's
//! row-group lanes, a one-member `.gz` or a `.zst` decoded in order) are
//! shared by the sources read at once; a `.gz` file's member batches may
//! use them all, as their threads wait, taking no core, while the source
//! is ahead of the one being written.
//!
//! CSV and TSV sources with a header row start in input order (a source's
//! first chunk is read only after the one before it read its own): each
//! header row is checked against the first source's, and only the first
//! writes its header, as when they are read one after another. Other
//! sources start as lanes take them, so one slow to open (a pipe) holds
//! no other.

use std::collections::BTreeMap;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Instant;

use crate::chunk::{BufPool, Chunk, Place};
use crate::format::Kind;
use crate::input::{InputError, Location};
use crate::reader::{ChunkReader, Settings};
use crate::timings::{Clock, Clocks};

/// What a worker's read gave (`T`: a chunk, or what a worker made of
/// it).
pub(crate) enum Read<T = Chunk> {
    /// A chunk (or the read error that ended its source there).
    Chunk(Place, Result<T, InputError>),
    /// A source ended after this many chunks (and errors).
    End(usize, u64),
}

/// The lanes of one run and the budget they share.
pub(crate) struct Lanes {
    inputs: Vec<Location>,
    readers: Vec<Mutex<ChunkReader>>,
    state: Mutex<State>,
    turn: Condvar,
    /// The most chunks in flight.
    most: usize,
    /// The most chunks in flight of sources after the one being taken in
    /// order.
    most_ahead: usize,
    /// The cores the run's other pools may use ([`Settings::cores`]).
    cores: usize,
    /// Sources start in input order: their format's header rows (CSV and
    /// TSV, unless `--no-header`) are checked against the first's.
    starts_in_order: bool,
}

struct State {
    lanes: Vec<Lane>,
    /// The next source to give a lane.
    next: usize,
    /// Sources from this one on are not read (a usage error ended the one
    /// before: the run stops there).
    end: usize,
    /// The source the in-order stage is at.
    head: usize,
    /// Sources whose start was read (the first ones, in order); the next
    /// source starts only then.
    started: usize,
    /// The first CSV source's header row, once read.
    first_header: Option<Vec<u8>>,
    /// Chunks in flight, in all and per source.
    in_flight: usize,
    per_source: BTreeMap<usize, usize>,
    /// The in-order stage stopped: no more reading.
    stopped: bool,
}

#[derive(Clone, Copy, Default)]
struct Lane {
    /// The source it reads.
    source: Option<usize>,
    /// A worker is reading it.
    busy: bool,
    /// Its source is given and not yet begun.
    fresh: bool,
}

/// A worker's turn at a lane.
struct Turn {
    lane: usize,
    source: usize,
    /// Its source starts now: with the first CSV header read, if any.
    fresh: Option<Option<Vec<u8>>>,
}

impl Lanes {
    /// The lanes for `inputs` read by `threads` workers with `settings`,
    /// at most `most` chunks in flight.
    pub(crate) fn new(
        inputs: Vec<Location>,
        settings: &Settings,
        threads: usize,
        most: usize,
    ) -> Lanes {
        let count = inputs.len().min(threads).max(1);
        let kind = inputs
            .first()
            .map_or(Kind::Lines, |i| settings.spec.kind_for(i.path()));
        let readers = (0..count)
            .map(|_| Mutex::new(ChunkReader::lane(settings.clone())))
            .collect();
        Lanes {
            state: Mutex::new(State {
                lanes: vec![Lane::default(); count],
                next: 0,
                end: inputs.len(),
                head: 0,
                started: 0,
                first_header: None,
                in_flight: 0,
                per_source: BTreeMap::new(),
                stopped: false,
            }),
            inputs,
            readers,
            turn: Condvar::new(),
            most,
            most_ahead: most.saturating_sub(threads).max(1),
            starts_in_order: kind.has_header(&settings.spec),
            cores: settings.cores,
        }
    }

    /// The next read of a lane, in a buffer from `pool`: `None` once
    /// every source is read or the in-order stage stopped.
    pub(crate) fn read(&self, pool: &BufPool, clocks: Option<&Clocks>) -> Option<Read> {
        let turn = self.take(clocks)?;
        let since = clocks.map(|_| Instant::now());
        let (next, started) = {
            let mut reader = self.readers[turn.lane].lock().ok()?;
            let starting = turn.fresh.is_some();
            if let Some(first_header) = turn.fresh {
                let location = self.inputs[turn.source].clone();
                reader.begin(location, self.cores_for(turn.source), first_header);
            }
            // (A chunk of whole records as decoded is walked by the worker.)
            let next = reader.next_unwalked(pool).ok_or(reader.handed_out());
            (next, starting.then(|| reader.first_header().cloned()))
        };
        if let (Some(c), Some(since)) = (clocks, since) {
            c.add(Clock::Read, since);
        }
        let mut state = self.lock()?;
        if let Some(first_header) = started {
            state.started = turn.source + 1;
            state.first_header = first_header;
        }
        let lane = &mut state.lanes[turn.lane];
        lane.busy = false;
        let read = match next {
            Err(count) => {
                lane.source = None;
                state.settle(turn.source);
                Read::End(turn.source, count)
            }
            Ok((seq, next)) => {
                if matches!(&next, Err(e) if e.usage) {
                    // The run stops at this error: no source after it is
                    // read.
                    lane.source = None;
                    state.end = state.end.min(turn.source + 1);
                }
                Read::Chunk((turn.source, seq), next)
            }
        };
        drop(state);
        self.turn.notify_all();
        Some(read)
    }

    /// A chunk (or error) of `source` was taken in order: its place in
    /// the budget is free.
    pub(crate) fn consumed(&self, source: usize) {
        if let Some(mut state) = self.lock() {
            state.settle(source);
        }
        self.turn.notify_all();
    }

    /// The in-order stage is at `source` now.
    pub(crate) fn advance(&self, source: usize) {
        if let Some(mut state) = self.lock() {
            state.head = source;
        }
        self.turn.notify_all();
    }

    /// The in-order stage stopped: workers waiting for a turn stop too.
    pub(crate) fn stop(&self) {
        if let Some(mut state) = self.lock() {
            state.stopped = true;
        }
        self.turn.notify_all();
    }

    fn lock(&self) -> Option<MutexGuard<'_, State>> {
        self.state.lock().ok()
    }

    /// Waits for a lane that may be read now: the one of the earliest
    /// source, within the budget.
    fn take(&self, clocks: Option<&Clocks>) -> Option<Turn> {
        let mut state = self.lock()?;
        let since = clocks.map(|_| Instant::now());
        let mut waited = Clock::ReadWait;
        loop {
            if state.stopped {
                return None;
            }
            state.give_sources();
            let (head, in_flight) = (state.head, state.in_flight);
            let ahead = in_flight - state.per_source.get(&head).copied().unwrap_or(0);
            let allowed = |source: usize| {
                in_flight < self.most && (source == head || ahead < self.most_ahead)
            };
            let free = state
                .lanes
                .iter()
                .enumerate()
                .filter(|(_, l)| !l.busy)
                .filter(|(_, l)| {
                    !(l.fresh && self.starts_in_order) || l.source == Some(state.started)
                })
                .filter_map(|(i, l)| l.source.filter(|&s| s < state.end).map(|s| (s, i)))
                .min();
            match free {
                Some((source, lane)) if allowed(source) => {
                    if let (Some(c), Some(since)) = (clocks, since) {
                        c.add(waited, since);
                    }
                    let lane_state = &mut state.lanes[lane];
                    lane_state.busy = true;
                    let fresh =
                        std::mem::take(&mut lane_state.fresh).then(|| state.first_header.clone());
                    state.in_flight += 1;
                    *state.per_source.entry(source).or_default() += 1;
                    return Some(Turn {
                        lane,
                        source,
                        fresh,
                    });
                }
                Some(_) => waited = Clock::TicketWait,
                None => {
                    let end = state.end;
                    let reading = state
                        .lanes
                        .iter()
                        .any(|l| l.source.is_some_and(|s| s < end));
                    if !reading && state.next >= end {
                        return None;
                    }
                }
            }
            state = self.turn.wait(state).ok()?;
        }
    }

    /// A source's share of the run's cores: the run's, shared by the
    /// sources read beside it (gzip member batches may use them all:
    /// [`crate::input::decode::Decoding`]).
    fn cores_for(&self, source: usize) -> usize {
        let beside = (self.inputs.len() - source).min(self.readers.len());
        (self.cores / beside.max(1)).max(1)
    }
}

impl State {
    /// Gives free lanes the next sources, in input order.
    fn give_sources(&mut self) {
        for lane in &mut self.lanes {
            let free = !lane.busy && lane.source.is_none_or(|s| s >= self.end);
            if free && self.next < self.end {
                *lane = Lane {
                    source: Some(self.next),
                    busy: false,
                    fresh: true,
                };
                self.next += 1;
            }
        }
    }

    /// A place of `source` in the budget is free.
    fn settle(&mut self, source: usize) {
        self.in_flight -= 1;
        if let Some(n) = self.per_source.get_mut(&source) {
            *n -= 1;
            if *n == 0 {
                self.per_source.remove(&source);
            }
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use crate::{Chunk, Engine, Error, Options, Processed};

    /// Two inputs with two workers are read side by side: the first, a
    /// pipe whose writer waits until the second has been worked on, would
    /// hold a run that read them one after another forever. Output stays
    /// in input order.
    #[test]
    fn a_second_input_is_read_while_the_first_waits() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("first.txt");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success(), "mkfifo failed");
        let second = dir.path().join("second.txt");
        std::fs::write(&second, "https://second.example/\n").unwrap();
        let two = Options {
            threads: Some(2),
            ..Options::default()
        };
        let engine = Engine::new(vec![fifo.clone(), second], &two).unwrap();
        let (seen_tx, seen_rx) = mpsc::channel::<()>();
        let writer = std::thread::spawn(move || {
            // Only once the second input has been worked on.
            let worked = seen_rx.recv_timeout(Duration::from_secs(30));
            // (Opened either way, so a run stuck on the pipe ends.)
            std::fs::write(&fifo, "https://first.example/\n").unwrap();
            worked.is_ok()
        });
        let seen_tx = std::sync::Mutex::new(seen_tx);
        let mut order = Vec::new();
        let errors = engine
            .run(
                |chunk: &Chunk| {
                    if chunk.data().starts_with(b"https://second") {
                        let _ = seen_tx.lock().unwrap().send(());
                    }
                    Processed::<()>::new(chunk)
                },
                |chunk: &Chunk, _: &mut Processed<()>| {
                    order.push(String::from_utf8_lossy(chunk.data()).into_owned());
                    Ok::<bool, Error>(true)
                },
            )
            .unwrap();
        assert!(errors.is_empty());
        assert!(
            writer.join().unwrap(),
            "the second input was not read while the first waited"
        );
        assert_eq!(
            order,
            ["https://first.example/\n", "https://second.example/\n"]
        );
    }
}

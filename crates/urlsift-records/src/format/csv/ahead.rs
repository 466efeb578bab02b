//! Where a mapped CSV file's chunks may end, found ahead on several
//! threads: speculative boundaries, as Ge et al. ("Speculative
//! Distributed CSV Data Parsing for Big Data Analytics", SIGMOD 2019).
//!
//! A row boundary is a line end outside quotes, and whether a line end is
//! inside quotes depends on every quote before it: one pass in order
//! ([`csv::cut_fast`]) per chunk, under the reader's lock, was the one
//! serial stage of CSV input. Here a stretch of the file is cut into
//! pieces just after line ends, and each piece is passed over on a thread
//! of its own as if it began a row ([`csv::parity`]). In order, the piece
//! after one that ended inside a quoted field is passed over again from
//! inside quotes (a line end inside a field is the rare case), so each
//! piece's reading is the one a pass from the file's start gives. A
//! misplaced quote stops the boundaries there: from it on, the reader
//! cuts its windows as before ([`csv::cut_fast`], [`csv::cut`]), and
//! looks ahead again a few windows later.
//!
//! A boundary is kept for each piece (its last line end outside
//! quotes), and a window is cut at the last boundary in it, in its second
//! half as [`csv::cut_fast`] would cut it (pieces are a quarter of a
//! chunk, so chunks are three quarters of one or more), with the line
//! ends before it.

use std::collections::VecDeque;

use crate::format::csv::{self, Parity};

/// Pieces per thread in a stretch.
const PIECES_PER_THREAD: usize = 4;

/// Windows the reader cuts itself after a misplaced quote stopped the
/// boundaries, before looking ahead again: where such quotes are common,
/// a stretch passed over on every thread for each window would be mostly
/// thrown away.
const WINDOWS_AFTER_STOP: u32 = 8;

/// Row boundaries of one mapped CSV source, found ahead.
pub(crate) struct Ahead {
    /// Threads that pass over pieces (the caller's and scoped ones: the
    /// caller is a worker of the engine's pool holding the reader's lock,
    /// and a rayon pool's wait would run the engine's jobs on it, one of
    /// which may want the lock).
    threads: usize,
    delimiter: u8,
    /// Bytes per piece.
    piece: usize,
    /// Boundaries found (map offsets), each with the line ends before it
    /// (counted from the same origin as `last.1`).
    points: VecDeque<(usize, u64)>,
    /// The boundary the reader's window starts at, and the line ends
    /// before it (from the origin).
    last: (usize, u64),
    /// Where passing over goes on: a map offset just after a line end,
    /// the line ends before it, and whether it is inside quotes.
    frontier: (usize, u64, bool),
    /// A misplaced quote (or a stretch with no line end) stopped the
    /// boundaries at the frontier.
    stopped: bool,
    /// Windows still to be left to the reader after a misplaced quote.
    resting: u32,
}

impl Ahead {
    /// Boundaries for a source of `delimiter`, chunks of `chunk_size`,
    /// passed over on `threads` threads; `None` when there is no point
    /// (one thread, a delimiter the pass does not know).
    pub(crate) fn new(delimiter: u8, chunk_size: usize, threads: usize) -> Option<Ahead> {
        if threads < 2 || csv::parity(b"", delimiter, false).is_none() {
            return None;
        }
        Some(Ahead {
            threads,
            delimiter,
            // A window of a chunk then holds a few boundaries, one of them
            // in its second half.
            piece: (chunk_size / 4).max(1),
            points: VecDeque::new(),
            last: (0, 0),
            frontier: (0, 0, false),
            stopped: false,
            resting: 0,
        })
    }

    /// The cut of the window `map[at..at + len]` (`at` a row boundary, the
    /// window short of the map's end): how many bytes of it hold whole
    /// rows (more than half) and the line ends in them; `None` where no
    /// boundary found ahead is in its second half or a misplaced quote
    /// stopped them (the caller cuts it itself).
    pub(crate) fn cut(&mut self, map: &[u8], at: usize, len: usize) -> Option<(usize, u64)> {
        if at != self.last.0 {
            if self.resting > 0 {
                self.resting -= 1;
                return None;
            }
            // A boundary the reader found itself: look ahead from there.
            self.last = (at, 0);
            self.frontier = (at, 0, false);
            self.points.clear();
            self.stopped = false;
        }
        let end = at + len;
        while !self.stopped && self.frontier.0 <= end {
            self.pass(map);
        }
        let mut found = None;
        while let Some(&point) = self.points.front() {
            if point.0 > end {
                break;
            }
            self.points.pop_front();
            found = Some(point);
        }
        let (to, ends) = found.filter(|p| p.0 - at > len / 2)?;
        let cut = (to - at, ends - self.last.1);
        self.last = (to, ends);
        Some(cut)
    }

    /// Passes over the next stretch of pieces from the frontier.
    fn pass(&mut self, map: &[u8]) {
        let threads = self.threads;
        let (from, mut ends, mut inside) = self.frontier;
        // Pieces start just after a line end; the last ends at one.
        let mut starts = vec![from];
        for k in 1..=threads * PIECES_PER_THREAD {
            let want = from.saturating_add(k * self.piece);
            let last = *starts.last().expect("one");
            if want >= map.len() {
                break;
            }
            match memchr::memchr(b'\n', &map[want.max(last)..]) {
                Some(i) if want.max(last) + i + 1 < map.len() => {
                    starts.push(want.max(last) + i + 1)
                }
                _ => break,
            }
        }
        if starts.len() < 2 {
            // No line end past the frontier short of the map's end.
            self.stopped = true;
            return;
        }
        let delimiter = self.delimiter;
        let pieces: Vec<(usize, usize)> = starts.windows(2).map(|w| (w[0], w[1])).collect();
        let first_inside = inside;
        let pass = |i: usize, &(a, b): &(usize, usize)| {
            let from_inside = i == 0 && first_inside;
            csv::parity(&map[a..b], delimiter, from_inside).expect("a known delimiter")
        };
        // A group of pieces per thread, the last on this one.
        let group = pieces.len().div_ceil(threads);
        let passes: Vec<Parity> = std::thread::scope(|s| {
            let mut groups = pieces.chunks(group).enumerate();
            let last = groups.next_back();
            let spawned: Vec<_> = groups
                .map(|(g, pieces)| {
                    s.spawn(move || {
                        let first = g * group;
                        pieces
                            .iter()
                            .enumerate()
                            .map(|(i, p)| pass(first + i, p))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            let last: Vec<Parity> = last.map_or_else(Vec::new, |(g, pieces)| {
                pieces
                    .iter()
                    .enumerate()
                    .map(|(i, p)| pass(g * group + i, p))
                    .collect()
            });
            let mut all: Vec<Parity> = spawned
                .into_iter()
                .flat_map(|h| h.join().expect("a pass over bytes does not panic"))
                .collect();
            all.extend(last);
            all
        });
        for (i, (&(a, b), mut pass)) in pieces.iter().zip(passes).enumerate() {
            if inside && i > 0 {
                // The piece before ended inside a quoted field.
                pass = csv::parity(&map[a..b], delimiter, true).expect("a known delimiter");
            }
            if let Some((past, before)) = pass.last_line {
                self.points.push_back((a + past, ends + before));
            }
            if pass.stopped {
                self.stopped = true;
                self.resting = WINDOWS_AFTER_STOP;
                return;
            }
            ends += pass.ends;
            inside = pass.last_line.is_none_or(|(past, _)| a + past != b);
            self.frontier = (b, ends, inside);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CSV text with quoted fields that hold line ends, doubled quotes,
    /// CRLF and lone CR line ends, blank lines and (when `bad`) a
    /// misplaced quote now and then.
    fn csv_text(seed: u64, rows: usize, bad: bool) -> Vec<u8> {
        let mut x = seed | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut out = Vec::new();
        for _ in 0..rows {
            for f in 0..3 {
                if f > 0 {
                    out.push(b',');
                }
                match next() % 9 {
                    0 => out.extend_from_slice(b"\"multi\nline, \"\"quoted\"\"\r\nfield\""),
                    1 => out.extend_from_slice(b"\"plain quoted\""),
                    2 if bad && next() % 7 == 0 => out.extend_from_slice(b"mis\"placed"),
                    3 => out.extend_from_slice(b""),
                    _ => out.extend_from_slice(b"https://example.com/a/b?c=d"),
                }
            }
            out.extend_from_slice(match next() % 11 {
                0 => b"\r\n",
                1 => b"\r",
                2 => b"\n\n",
                _ => b"\n",
            });
        }
        out
    }

    /// Whether walking rows from `at` (a row boundary) lands on `to`.
    fn row_boundary(data: &[u8], mut at: usize, to: usize) -> bool {
        while at < to {
            match csv::scan_row(data, at, b',', true) {
                csv::Scan::Row { next, .. }
                | csv::Scan::Blank { next }
                | csv::Scan::Bad { next, .. } => at = next,
                csv::Scan::NeedMore => return false,
            }
        }
        at == to
    }

    /// Windows of `chunk` bytes cut as the reader cuts them: by `Ahead`
    /// where it answers, else by `cut_fast`, else by walking rows. Every
    /// answer of `Ahead` must be a row boundary that walking rows finds,
    /// in the window's second half, with the line ends before it counted
    /// as `line_ends` counts them. Returns the windows `Ahead` answered
    /// and the windows cut in all.
    fn cut_all(data: &[u8], chunk: usize, threads: usize) -> (usize, usize) {
        let mut ahead = Ahead::new(b',', chunk, threads).expect("two threads");
        let (mut at, mut answered, mut windows) = (0, 0, 0);
        while data.len() - at > chunk {
            let len = chunk;
            let window = &data[at..at + len];
            let fast = csv::cut_fast(window, b',');
            windows += 1;
            let n = match ahead.cut(data, at, len) {
                Some((n, ends)) => {
                    assert!(n > len / 2 && n <= len, "window at {at}: cut {n} of {len}");
                    assert!(
                        row_boundary(data, at, at + n),
                        "window at {at}: {n} is no boundary"
                    );
                    assert_eq!(
                        ends,
                        csv::line_ends(&window[..n]),
                        "window at {at}: cut {n}"
                    );
                    answered += 1;
                    n
                }
                None => match fast {
                    Some((n, _)) => n,
                    None => match csv::cut(window, b',', true, usize::MAX) {
                        csv::Cut::Rows(n) => n,
                        _ => break,
                    },
                },
            };
            at += n;
        }
        (answered, windows)
    }

    #[test]
    fn boundaries_found_ahead_are_row_boundaries_with_their_line_ends() {
        for seed in 1..40 {
            for bad in [false, true] {
                let data = csv_text(seed, 3000, bad);
                for (chunk, threads) in [(4096, 2), (1000, 3), (257, 8), (64, 2), (20_000, 4)] {
                    let (answered, windows) = cut_all(&data, chunk, threads);
                    if !bad && chunk >= 1000 {
                        // Where no quote is misplaced, nearly every window.
                        assert!(
                            answered + 2 >= windows,
                            "seed {seed}, chunk {chunk}: {answered} of {windows}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_quoted_field_across_pieces_is_read_from_inside_quotes() {
        // A field of many line ends, longer than a piece: the pieces inside
        // it must be read from inside quotes, or their line ends would pass
        // for row boundaries.
        let mut data = b"a,b\n".repeat(200);
        data.extend_from_slice(b"x,\"");
        data.extend_from_slice(&b"in, quotes\n".repeat(400));
        data.extend_from_slice(b"\"\n");
        data.extend_from_slice(&b"c,d\n".repeat(2000));
        let (answered, windows) = cut_all(&data, 1024, 4);
        assert!(answered + 6 >= windows, "{answered} of {windows}");
    }
}

//! A byte source's chunks: its window filled, its start read, and cut
//! where its format says records end; an over-long line handed out in
//! pieces; a read error's records and set-aside bytes (`gaps.rs`). A WARC
//! or ARC source is handed to its archive reader once its start is read.

use std::sync::Arc;

use super::archive::Archive;
use super::current::{Current, Failure, Feed, Gap, Settings};
use super::gaps::headless_error;
use super::{Reading, Step};
use crate::chunk::{BufPool, Chunk, Data, Oversize};
use crate::format::{Cut, Format};
use crate::input::decode;
use crate::reason::Reason;

/// The most an over-long line's later pieces hold.
const PIECE: usize = 256 << 10;

impl Current {
    /// Reads the source's next chunk (`None` if nothing is left) and
    /// whether the source has ended; or, once a WARC or ARC source's start
    /// is read, hands it to its archive reader.
    pub(super) fn read_chunk(
        &mut self,
        settings: &Settings,
        first_header: &mut Option<Vec<u8>>,
        pool: &BufPool,
    ) -> Result<Step, Failure> {
        if self.streaming {
            return self
                .next_piece(settings, pool)
                .map(|(chunk, ended)| Step::Chunk(chunk, ended));
        }
        let mut want = settings.chunk_size.max(1);
        let mut head = 0;
        let mut write_head = false;
        let (take, ends) = loop {
            if let Err(e) = self.fill(want, pool) {
                // Everything read so far goes out; the error follows.
                let resumes = decode::resumes(&e);
                if self.source.is_none() {
                    self.eof = true;
                    let started = self.with_window(|c, w| c.start(w, settings, first_header));
                    if let Ok(Some((h, w))) = started {
                        (head, write_head) = (h, w);
                    }
                    // A WARC source that failed in its first read: its
                    // reader takes what was read, then reports the error.
                    if let Some(source) = self.archive()
                        && matches!(self.feed, Feed::Read { .. })
                        && let Feed::Read { mut buf, reader } = self.feed.take()
                    {
                        let read = buf.split_off(head);
                        let archive = Archive::failed(source, read, head as u64, reader, e);
                        return Ok(Step::Hand(Reading::Archive(archive)));
                    }
                }
                // A CSV whose header row the gap took (or set aside as
                // damaged) cannot be read on: a row after the gap would be
                // taken for the header.
                let headless = self.source.is_none() && self.kind.has_header(&settings.spec);
                let mut failure = self.fail(head, write_head, e, pool, settings.count_lines);
                if resumes && !headless && (self.source.is_some() || self.window().is_empty()) {
                    // The bytes after the gap are still to come.
                    self.eof = false;
                } else {
                    // (A source whose start the gap cut: its first bytes
                    // cannot be told from what follows the gap.)
                    if failure.0.resumes && headless {
                        failure.0.error.error = headless_error(&failure.0.error.error);
                    }
                    failure.0.resumes = false;
                }
                return Err(failure);
            }
            if self.source.is_none() {
                match self.with_window(|c, w| c.start(w, settings, first_header))? {
                    Some((h, w)) => (head, write_head) = (h, w),
                    None if self.eof => return Ok(Step::Chunk(None, true)),
                    None => {
                        want += settings.chunk_size;
                        continue;
                    }
                }
                if let Some(source) = self.archive() {
                    // The archive reader reads the rest of the source.
                    let archive = match self.feed.take() {
                        // (All of the buffer's room goes with the bytes
                        // read: the archive reader reads on into it.)
                        Feed::Read { mut buf, reader } => {
                            Archive::read(source, buf.split_off(head), head as u64, reader)
                        }
                        Feed::Map { map, pos, .. } => Archive::mapped(source, map, pos + head),
                    };
                    return Ok(Step::Hand(Reading::Archive(archive)));
                }
            }
            let have = self.window().len();
            match self.cut(head, settings) {
                Cut::Records(n, ends) => break (head + n, ends),
                Cut::None if !self.eof && have - head <= settings.max_record => {
                    want = have + settings.chunk_size;
                    // A record longer than a chunk: make room for the
                    // longest one allowed at once, rather than growing
                    // (and reallocating) chunk by chunk.
                    if let Feed::Read { buf, .. } = &mut self.feed {
                        // (With no limit to speak of, the buffer grows as
                        // it reads instead.)
                        let most = head
                            .saturating_add(settings.max_record)
                            .saturating_add(settings.chunk_size);
                        let _ = buf.try_reserve_exact(most.saturating_sub(buf.len()));
                    }
                }
                Cut::None if self.eof => {
                    if have == 0 {
                        return Ok(Step::Chunk(self.carried_alone(settings.count_lines), true));
                    }
                    break (have, None);
                }
                Cut::None | Cut::Oversize => {
                    if head > 0 {
                        // The head goes out alone first.
                        break (head, None);
                    }
                    // (A line over the limit is bad as it is, even the
                    // rest of one a gap cut.)
                    if let Some(chunk) = self.carried_alone(settings.count_lines) {
                        return Ok(Step::Chunk(Some(chunk), false));
                    }
                    self.streaming = true;
                    let data = self.take(have, pool);
                    return Ok(Step::Chunk(Some(self.piece(data, true, false)), false));
                }
            }
        };
        // After a gap: its first line goes out alone, as a bad record (with
        // the set-aside bytes it finishes, if any).
        let first_line =
            |window: &[u8]| memchr::memchr(b'\n', &window[..take]).map_or(take, |i| i + 1);
        let (take, ends, bad) = match self.gap.take() {
            Some(Gap::Continues(mut carry)) => {
                let end = first_line(self.window());
                carry.extend_from_slice(&self.window()[..end]);
                self.skip(end);
                let ended = self.eof && self.window().is_empty();
                let chunk = self.bad_chunk(carry, Reason::Damaged, settings.count_lines);
                return Ok(Step::Chunk(Some(chunk), ended));
            }
            Some(Gap::Fragment) if head == 0 => {
                (first_line(self.window()), None, Some(Reason::Truncated))
            }
            _ => (take, ends, None),
        };
        let data = self.take(take, pool);
        let ended = self.eof && self.window().is_empty();
        let chunk = Chunk {
            bad,
            ..self.chunk(data, head, write_head, false, settings.count_lines, ends)
        };
        Ok(Step::Chunk(Some(chunk), ended))
    }

    /// A chunk of `data` (whose first `head` bytes are not records), and
    /// the line and offset bookkeeping past it. `ends`: the line ends in
    /// the records, when the cut counted them (else they are counted here).
    pub(super) fn chunk(
        &mut self,
        data: Data,
        head: usize,
        write_head: bool,
        truncated: bool,
        count_lines: bool,
        ends: Option<u64>,
    ) -> Chunk {
        let source = Arc::clone(self.source.as_ref().expect("started"));
        // (Formats where a record is a line: the writer can number them.)
        if !count_lines && source.format.one_per_line() {
            self.counting_off = true;
            let offset = self.offset;
            self.offset += data.len() as u64;
            return Chunk {
                head,
                write_head,
                truncated,
                relative_lines: true,
                ..Chunk::with_data(source, 1, offset, data)
            };
        }
        // A last line without an end (at the end of a source) counts too.
        let format = &source.format;
        let first_line = self.next_line + format.line_ends(&data[..head]);
        let body = &data[head..];
        let ended = format.ends_line(body);
        let lines =
            ends.unwrap_or_else(|| format.line_ends(body)) + u64::from(!body.is_empty() && !ended);
        self.next_line = first_line + lines;
        let offset = self.offset;
        self.offset += data.len() as u64;
        Chunk {
            head,
            write_head,
            truncated,
            ..Chunk::with_data(source, first_line, offset, data)
        }
    }

    /// Where the records of the window (after its `head` bytes) may be
    /// cut.
    fn cut(&mut self, head: usize, settings: &Settings) -> Cut {
        let source = Arc::clone(self.source.as_ref().expect("started"));
        if !self.eof
            && let Some((n, ends)) = self.cut_ahead(head, &source.format, settings)
        {
            return Cut::Records(n, Some(ends));
        }
        source
            .format
            .cut(&self.window()[head..], self.eof, settings.max_record)
    }

    /// A mapped window's cut from the boundaries its format found ahead on
    /// several threads ([`Format::ahead`]), where they answer.
    fn cut_ahead(
        &mut self,
        head: usize,
        format: &Format,
        settings: &Settings,
    ) -> Option<(usize, u64)> {
        let Feed::Map { map, pos, end } = &self.feed else {
            return None;
        };
        let (map, at, len) = (Arc::clone(map), pos + head, end - pos - head);
        let ahead = self
            .ahead
            .get_or_insert_with(|| format.ahead(settings.chunk_size, settings.cores))
            .as_mut()?;
        ahead.cut(map.bytes(), at, len)
    }

    /// One piece of an over-long line (numbered as the source's line, or
    /// 0 when lines are numbered by the writer).
    fn piece(&mut self, data: Data, first: bool, last: bool) -> Chunk {
        let source = Arc::clone(self.source.as_ref().expect("started"));
        let offset = self.offset;
        self.offset += data.len() as u64;
        let line = self.next_line;
        if last {
            self.next_line += 1;
            self.streaming = false;
        }
        // Without counting, `next_line` stays 1: the piece is "the next
        // line", which the writer knows.
        let relative_lines = self.counting_off;
        Chunk {
            oversize: Some(Oversize {
                first,
                last,
                newline: false,
            }),
            relative_lines,
            ..Chunk::with_data(source, if relative_lines { 1 } else { line }, offset, data)
        }
    }

    /// The next piece of the over-long line being handed out: up to a
    /// chunk, or to its end (the newline is not part of it).
    fn next_piece(
        &mut self,
        settings: &Settings,
        pool: &BufPool,
    ) -> Result<(Option<Chunk>, bool), Failure> {
        // Small pieces: however many are in flight, they hold little.
        if let Err(e) = self.fill(settings.chunk_size.clamp(1, PIECE), pool) {
            let have = self.window().len();
            let data = self.take(have, pool);
            let chunk = self.piece(data, false, true);
            let set_aside = self.after_gap(&e, Vec::new(), settings.count_lines);
            return Err(Failure::new(Some(chunk), self.error(e, false)).with_set_aside(set_aside));
        }
        if let Some(i) = memchr::memchr(b'\n', self.window()) {
            let data = self.take(i, pool);
            let mut piece = self.piece(data, false, true);
            // The newline ends the line.
            if let Some(o) = &mut piece.oversize {
                o.newline = true;
            }
            self.skip(1);
            self.offset += 1;
            return Ok((Some(piece), self.eof && self.window().is_empty()));
        }
        let have = self.window().len();
        let data = self.take(have, pool);
        let last = self.eof;
        Ok((Some(self.piece(data, false, last)), last))
    }
}

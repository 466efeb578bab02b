//! Gaps in the decoded bytes (a damaged gzip member or zstd frame, bytes
//! between members that are neither): the records before a gap go out
//! (the one it cut marked), then the bytes a member or frame that failed
//! its check decoded to, as bad records of their own (`Chunk::bad`, never
//! read as URLs), and the first line after the gap is marked ([`Gap`])
//! when it may be the rest of a line the gap cut.

use std::io;
use std::sync::Arc;

use super::current::{Current, Failure, Gap};
use crate::chunk::{BufPool, Chunk, Source};
use crate::format::Format;
use crate::input::decode;
use crate::reason::Reason;

impl Current {
    /// The chunk read before a read error (if any) and the error. When
    /// the error sets aside the bytes a damaged member or frame decoded to
    /// ([`decode::Damaged`]), they become a chunk of bad records that
    /// follows (with the window's last partial line, which they continue),
    /// and the first line after the gap is marked ([`Gap`]).
    pub(super) fn fail(
        &mut self,
        head: usize,
        write_head: bool,
        e: io::Error,
        pool: &BufPool,
        count_lines: bool,
    ) -> Failure {
        let damaged = decode::decode_error(&e).is_some_and(|d| d.damaged.is_some());
        let started = self.source.is_some();
        // A gap before this one whose first line was not handed out yet:
        // that line is at the window's start. Ended there, it goes out as
        // a bad record; running to the window's end, it runs into this
        // gap too, and goes with whatever this one sets aside.
        let mut set_aside = Vec::new();
        let mut prefix = Vec::new();
        if started && let Some(gap) = self.gap.take() {
            let (mut bytes, reason) = match gap {
                Gap::Fragment => (Vec::new(), Reason::Truncated),
                Gap::Continues(carry) => (carry, Reason::Damaged),
            };
            match memchr::memchr(b'\n', self.window()) {
                Some(i) => {
                    bytes.extend_from_slice(&self.window()[..=i]);
                    self.skip(i + 1);
                    set_aside.push(self.bad_chunk(bytes, reason, count_lines));
                }
                None => {
                    bytes.extend_from_slice(self.window());
                    self.skip(self.window().len());
                    if damaged {
                        prefix = bytes;
                    } else if !bytes.is_empty() {
                        set_aside.push(self.bad_chunk(bytes, reason, count_lines));
                    }
                }
            }
        }
        let have = self.window().len();
        let keep = if damaged && started {
            memchr::memrchr(b'\n', &self.window()[head..]).map_or(head, |i| head + i + 1)
        } else {
            have
        };
        let chunk = (keep > head && started).then(|| {
            let data = self.take(keep, pool);
            self.chunk(data, head, write_head, !damaged, count_lines, None)
        });
        // With bytes set aside, the line the gap cut goes with them.
        let tail = if damaged {
            prefix.extend_from_slice(self.window());
            self.skip(self.window().len());
            prefix
        } else {
            Vec::new()
        };
        let mut failure = Failure::new(chunk, self.error(e, false));
        set_aside.extend(self.after_gap(&failure.0.error.error, tail, count_lines));
        failure.0.set_aside = set_aside;
        failure
    }

    /// At a gap in the decoded bytes (fault `e`): the bytes its error sets
    /// aside as damaged, after `tail` (the line the gap cut, which they
    /// continue), as chunks to hand out; and how the first line after the
    /// gap reads ([`Gap`]).
    pub(super) fn after_gap(
        &mut self,
        e: &io::Error,
        tail: Vec<u8>,
        count_lines: bool,
    ) -> Vec<Chunk> {
        let Some(d) = decode::decode_error(e) else {
            return Vec::new();
        };
        // Decoding resumed where a line starts, as far as it can tell.
        let resumes = d.resumed.is_some();
        let Some(damaged) = &d.damaged else {
            if resumes && !d.aligned {
                self.gap = Some(Gap::Fragment);
            }
            return Vec::new();
        };
        let mut bytes = tail;
        bytes.extend_from_slice(&damaged.bytes);
        // What follows starts a line only if the units are cut at line
        // ends: the damaged bytes' own line ends cannot say (damage that
        // keeps a unit's length can still shift its bytes). Otherwise the
        // first line after the gap is a reject, joined to the damaged
        // bytes' last line when they are the unit's every byte (it goes on
        // right after them, as `zcat` counts lines).
        if resumes && !d.aligned {
            if damaged.whole && !bytes.ends_with(b"\n") && self.source.is_some() {
                self.gap = Some(Gap::Continues(bytes));
                return Vec::new();
            }
            self.gap = Some(Gap::Fragment);
        }
        vec![self.bad_chunk(bytes, Reason::Damaged, count_lines)]
    }

    /// Ends the gap where its first line is not read as one (the source
    /// ended, or that line is over the limit, bad as it is): bytes set
    /// aside that waited for the rest of their last line
    /// ([`Gap::Continues`]) go out as a chunk of their own.
    pub(super) fn carried_alone(&mut self, count_lines: bool) -> Option<Chunk> {
        match self.gap.take()? {
            Gap::Continues(carry) => Some(self.bad_chunk(carry, Reason::Damaged, count_lines)),
            Gap::Fragment => None,
        }
    }

    /// A chunk of `bytes` whose every line is a bad record for `reason`
    /// (bytes set aside as damaged, or the rest of a line a gap cut), with
    /// the line and offset bookkeeping past it. (A source whose format is
    /// not known yet, which a damaged first member leaves so, lends its
    /// name to a plain one.)
    pub(super) fn bad_chunk(&mut self, bytes: Vec<u8>, reason: Reason, count_lines: bool) -> Chunk {
        let source = match &self.source {
            Some(s) => Arc::clone(s),
            None => Arc::new(Source {
                name: self.name.clone(),
                format: Format::Lines,
            }),
        };
        let first_line = if count_lines { self.next_line } else { 1 };
        if count_lines {
            let ends = memchr::memchr_iter(b'\n', &bytes).count() as u64;
            self.next_line += ends + u64::from(!bytes.is_empty() && !bytes.ends_with(b"\n"));
        } else {
            self.counting_off = true;
        }
        let offset = self.offset;
        self.offset += bytes.len() as u64;
        Chunk {
            bad: Some(reason),
            relative_lines: !count_lines,
            ..Chunk::plain(source, first_line, offset, bytes)
        }
    }
}

/// A fault after which decoding went on, in a CSV source whose header row
/// the gap took: reading stops there, and the message says why and how
/// to read on.
pub(super) fn headless_error(e: &io::Error) -> io::Error {
    let said = match decode::decode_error(e) {
        Some(d) => {
            let mut d = d.clone();
            d.resumed = None;
            d.to_string()
        }
        None => e.to_string(),
    };
    io::Error::new(
        e.kind(),
        format!(
            "{said}; the rest is not read, as the header row was in what was lost \
             (name the URL column with --no-header --field N to read on)"
        ),
    )
}

//! The `lines` format, one URL per line, and the line walk the other
//! line-based formats (JSON lines, CDXJ, logs) stand on.
//!
//! One URL per line is the simplest format and the hottest loop: a chunk
//! of clean text is split by the same SIMD pass that classifies each line
//! for the fast path ([`urlsift::batch::lines`]), where the visitor parses
//! URLs ([`Visit::SCANS_URLS`]); other chunks are split by newline and
//! checked as a whole once ([`Facts`]).

use urlsift_simd::Kernel;

use super::record::{Found, Rec, Shape};
use super::view::View;
use super::{Begun, Cut, Format, Opening, RecordFormat, StartError, Visit};
use crate::reason::Reason;
use crate::setting::SettingError;

/// The start of a source of URL lines: nothing to read but a byte-order
/// mark; `--field` does not apply.
pub(crate) fn start(opening: &Opening<'_>) -> Result<Begun, StartError> {
    if opening.field().is_some() {
        return Err(SettingError::FieldOfLines.into());
    }
    Ok(Begun::at(Format::Lines, opening))
}

/// The `lines` format: a record is a line, and the line is its URL.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lines;

impl RecordFormat for Lines {
    #[inline(always)]
    fn walk<K: Kernel, V: Visit>(&self, k: K, view: View<'_>, v: &mut V) -> u64 {
        let data = view.data;
        if V::SCANS_URLS
            && !view.truncated
            && let Ok(text) = simdutf8::basic::from_utf8(data)
        {
            // Clean text: each line's end is found by the same SIMD pass
            // that classifies it for the fast path.
            let max = v.max_record();
            let mut number = view.first_line;
            let base = text.as_ptr() as usize;
            for line in urlsift::batch::lines(k, &text[view.head..]) {
                let raw = line.as_str();
                number += 1;
                let start = raw.as_ptr() as usize - base;
                let rec = line_rec(data, start, start + raw.len(), number - 1, view.offset);
                let reason = if raw.is_empty() {
                    v.empty_line();
                    continue;
                } else if raw.len() > max {
                    Reason::TooLong
                } else if !line.is_proved() && memchr::memchr(0, raw.as_bytes()).is_some() {
                    // (A line the fast path proved holds no control byte:
                    // only the others are searched for NUL, not the chunk.)
                    Reason::NulByte
                } else {
                    match v.scanned_line(&rec, &line) {
                        Ok(()) => continue,
                        Err(r) => r,
                    }
                };
                if !v.bad_line(rec, reason) {
                    break;
                }
            }
            return number - view.first_line;
        }
        let facts = Facts::of(data, v.max_record());
        let truncated_at = view
            .truncated
            .then_some(data.len())
            .filter(|_| !data.ends_with(b"\n"));
        let mut count = 0;
        for (number, raw) in view.lines_in(k) {
            count += 1;
            let start = raw.as_ptr() as usize - data.as_ptr() as usize;
            let rec = line_rec(data, start, start + raw.len(), number, view.offset);
            let reason = if truncated_at.is_some_and(|end| rec.next == end && rec.next == rec.end) {
                Reason::Truncated
            } else {
                match facts.classify(raw) {
                    Line::Empty => {
                        v.empty_line();
                        continue;
                    }
                    Line::Text(s) => match v.text_line(&rec, s) {
                        Ok(()) => continue,
                        Err(r) => r,
                    },
                    Line::Bad(r) => r,
                }
            };
            if !v.bad_line(rec, reason) {
                break;
            }
        }
        count
    }

    fn knows_field(&self, name: &str) -> Option<Result<(), String>> {
        Some(Err(format!(
            "no field {name:?}: `lines` input is one URL per line, with no other fields"
        )))
    }
}

/// Where a chunk of lines may end: after the last line end in `data`
/// (or at its end, if nothing follows).
pub(crate) fn cut(data: &[u8], eof: bool, max_record: usize) -> Cut {
    if eof {
        return if data.is_empty() {
            Cut::None
        } else {
            Cut::Records(data.len(), None)
        };
    }
    match memchr::memrchr(b'\n', data) {
        Some(i) => Cut::Records(i + 1, None),
        None if data.len() > max_record => Cut::Oversize,
        None => Cut::None,
    }
}

/// The record of the line `data[start..end]` (line `number`; the data
/// starts at `offset` in its source). A line's terminator is not part of
/// its record (`next == end`): lines go out with the output's terminator.
#[inline(always)]
pub(crate) fn line_rec(data: &[u8], start: usize, end: usize, number: u64, offset: u64) -> Rec<'_> {
    Rec {
        data,
        start,
        end,
        next: end,
        line: number,
        offset: offset + start as u64,
        field: (start, end),
        shape: Shape::Line,
    }
}

/// One line, classified before any URL parsing.
enum Line<'a> {
    /// Empty (or only `\r`): counted, never parsed.
    Empty,
    /// Valid UTF-8 without NUL, within the length limit.
    Text(&'a str),
    /// Unusable as text.
    Bad(Reason),
}

/// What a chunk is known to be as a whole, so clean chunks skip per-line
/// checks.
struct Facts<'a> {
    /// The whole chunk as text, when it is valid UTF-8 without NUL.
    text: Option<&'a str>,
    base: usize,
    max_line: usize,
}

impl<'a> Facts<'a> {
    /// Checks the whole of `data` once: valid UTF-8 and no NUL means no
    /// line of it can be bad for those reasons, and lines are sliced
    /// without validating again.
    fn of(data: &'a [u8], max_line: usize) -> Facts<'a> {
        let text = if memchr::memchr(0, data).is_none() {
            simdutf8::basic::from_utf8(data).ok()
        } else {
            None
        };
        Facts {
            text,
            base: data.as_ptr() as usize,
            max_line,
        }
    }

    /// Classifies one line, which must be a slice of the checked data.
    #[inline(always)]
    fn classify(&self, line: &'a [u8]) -> Line<'a> {
        if line.is_empty() {
            return Line::Empty;
        }
        if line.len() > self.max_line {
            return Line::Bad(Reason::TooLong);
        }
        if let Some(text) = self.text {
            // Lines are cut at ASCII bytes, so they are char boundaries.
            let start = line.as_ptr() as usize - self.base;
            if let Some(s) = text.get(start..start + line.len()) {
                return Line::Text(s);
            }
        }
        Self::classify_alone(line)
    }

    /// A line of a chunk that is not clean text as a whole.
    #[inline(never)]
    fn classify_alone(line: &'a [u8]) -> Line<'a> {
        if memchr::memchr(0, line).is_some() {
            return Line::Bad(Reason::NulByte);
        }
        match simdutf8::basic::from_utf8(line) {
            Ok(s) => Line::Text(s),
            Err(_) => Line::Bad(Reason::InvalidUtf8),
        }
    }
}

/// The line walk under the JSON and log formats: `f` gets each line's
/// bytes, or what it is instead (empty, cut off by a read error); it
/// returns false to stop. Lines come in the read-only shape of logs; a
/// format written back sets its own. Returns how many lines were walked.
pub(crate) fn each_line<'a>(
    view: View<'a>,
    mut f: impl FnMut(Rec<'a>, Result<&'a [u8], Found<'a>>) -> bool,
) -> u64 {
    let data = view.data;
    let mut start = view.head;
    let mut line = view.first_line;
    while start < data.len() {
        let (end, next, terminated) = match memchr::memchr(b'\n', &data[start..]) {
            Some(i) => (start + i, start + i + 1, true),
            None => (data.len(), data.len(), false),
        };
        let end = if end > start && data[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        let rec = Rec {
            data,
            start,
            end,
            next,
            line,
            offset: view.offset + start as u64,
            field: (start, end),
            shape: Shape::ReadOnly,
        };
        let raw = &data[start..end];
        let raw = if !terminated && view.truncated {
            Err(Found::Bad(Reason::Truncated))
        } else if raw.is_empty() {
            Err(Found::Empty)
        } else {
            Ok(raw)
        };
        line += 1;
        if !f(rec, raw) {
            break;
        }
        start = next;
    }
    line - view.first_line
}

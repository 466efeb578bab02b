//! The path, opaque path, query and fragment states: the tail of the
//! serialization, written after the scheme and authority. The path state
//! comes in two forms: over whole runs (no reporter, not `file:`, no state
//! override) and one segment at a time as the standard words it.

use super::{Machine, SEGMENT_END, SEGMENT_END_SPECIAL, Step, byte_set, find};
use crate::components::SchemeType;
use crate::error::Reporter;
use crate::error::ValidationError as E;
use crate::parser::path::{is_double_dot, is_single_dot};
use crate::percent::{
    self, C0_CONTROL, FRAGMENT, PATH, QUERY, SPECIAL_QUERY, StopTable, encode_until,
};
use crate::units::{
    is_normalized_windows_drive_letter, is_windows_drive_letter, report_invalid_url_units,
    scan_until,
};

/// A path segment's bytes: encoded with the path set, ended as above.
static PATH_SEGMENT: StopTable = StopTable::new(&PATH, b"/?#");
static PATH_SEGMENT_SPECIAL: StopTable = StopTable::new(&PATH, b"/?#\\");
/// The query's bytes, ended by '#'.
static QUERY_RUN: StopTable = StopTable::new(&QUERY, b"#");
static SPECIAL_QUERY_RUN: StopTable = StopTable::new(&SPECIAL_QUERY, b"#");
/// The whole-path scan's classes: bytes the path set encodes, bytes that
/// end the path ('?', '#'), '.' and '%' (a dot segment if at a segment
/// start) and, for special URLs, '\\' (a segment separator written as '/').
const PATH_COPY: u8 = 0;
const PATH_ENCODE: u8 = 1;
const PATH_STOP: u8 = 2;
const PATH_DOT: u8 = 3;
const PATH_BACKSLASH: u8 = 4;

const fn path_run_table(special: bool) -> [u8; 256] {
    let mut t = [PATH_COPY; 256];
    let mut b = 0;
    while b < 256 {
        if PATH.contains(b as u8) {
            t[b] = PATH_ENCODE;
        }
        b += 1;
    }
    t[b'?' as usize] = PATH_STOP;
    t[b'#' as usize] = PATH_STOP;
    t[b'.' as usize] = PATH_DOT;
    t[b'%' as usize] = PATH_DOT;
    if special {
        t[b'\\' as usize] = PATH_BACKSLASH;
    }
    t
}

static PATH_RUN: [u8; 256] = path_run_table(false);
static PATH_RUN_SPECIAL: [u8; 256] = path_run_table(true);

/// Path segments under state override, where '?' and '#' are path bytes.
static PATH_SEGMENT_OVERRIDE: StopTable = StopTable::new(&PATH, b"/");
static PATH_SEGMENT_SPECIAL_OVERRIDE: StopTable = StopTable::new(&PATH, b"/\\");
impl<R: Reporter> Machine<'_, '_, R> {
    /// [Path start state](https://url.spec.whatwg.org/#path-start-state).
    pub(super) fn path_start_state(&mut self, pos: usize) -> Step {
        self.path_start = self.out.len();
        let c = self.at(pos);
        if self.scheme.is_special() {
            match c {
                Some(b'/') => self.path_state(pos + 1),
                Some(b'\\') => {
                    self.reporter.report(E::InvalidReverseSolidus);
                    self.path_state(pos + 1)
                }
                _ => self.path_state(pos),
            }
        } else {
            match c {
                Some(b'?') if !self.state_override => self.query_state(pos + 1),
                Some(b'#') if !self.state_override => self.fragment_state(pos + 1),
                Some(b'/') => self.path_state(pos + 1),
                Some(_) => self.path_state(pos),
                None => Ok(()),
            }
        }
    }

    /// [Path state](https://url.spec.whatwg.org/#path-state), entered at the
    /// start of a segment; loops over segments.
    pub(super) fn path_state(&mut self, pos: usize) -> Step {
        if !R::ENABLED && !self.state_override && self.scheme != SchemeType::File {
            return self.path_runs(pos);
        }
        self.path_segments(pos)
    }

    /// The path state over whole runs: '/' is copied like any plain byte,
    /// and the scan stops only for bytes to encode, '\\' (special URLs), a
    /// '.' or '%' that starts a segment (a possible dot segment), and the
    /// '?' or '#' that ends the path. Equivalent to [`Self::path_segments`]
    /// when no reporter listens, outside file URLs and state override.
    fn path_runs(&mut self, mut pos: usize) -> Step {
        let input = self.input;
        let bytes = self.bytes();
        let special = self.scheme.is_special();
        let table = if special {
            &PATH_RUN_SPECIAL
        } else {
            &PATH_RUN
        };
        let is_slash = |b: u8| b == b'/' || (special && b == b'\\');
        let path_in = pos;
        self.out.push('/');
        loop {
            let run = pos;
            pos = scan_until(bytes, pos, |b| table[b as usize] != PATH_COPY);
            if pos > run {
                // The run is ASCII: both ends are char boundaries.
                self.out.push_str(&input[run..pos]);
            }
            let Some(&b) = bytes.get(pos) else {
                return Ok(());
            };
            match table[b as usize] {
                PATH_ENCODE => {
                    percent::push_encoded_byte(b, &mut self.out);
                    pos += 1;
                }
                PATH_BACKSLASH => {
                    self.out.push('/');
                    pos += 1;
                }
                PATH_DOT if pos == path_in || is_slash(bytes[pos - 1]) => {
                    let ends = if special {
                        &SEGMENT_END_SPECIAL
                    } else {
                        &SEGMENT_END
                    };
                    let end = find(bytes, pos, ends);
                    let segment = &bytes[pos..end];
                    let double = is_double_dot(segment);
                    if !double && !is_single_dot(segment) {
                        // Not a dot segment: copy this byte and go on.
                        self.out.push(char::from(b));
                        pos += 1;
                        continue;
                    }
                    // Drop the '/' written before the segment, shorten for
                    // "..", then start the next segment (or, at the path's
                    // end, append the empty segment).
                    self.out.pop();
                    if double {
                        self.shorten_path();
                    }
                    self.out.push('/');
                    pos = match bytes.get(end) {
                        Some(&c) if is_slash(c) => end + 1,
                        _ => end,
                    };
                }
                PATH_DOT => {
                    self.out.push(char::from(b));
                    pos += 1;
                }
                _ => {
                    // '?' or '#': the path ends.
                    return if b == b'?' {
                        self.query_state(pos + 1)
                    } else {
                        self.fragment_state(pos + 1)
                    };
                }
            }
        }
    }

    /// The path state one segment at a time, as the standard words it.
    fn path_segments(&mut self, mut pos: usize) -> Step {
        let input = self.input;
        let bytes = self.bytes();
        let special = self.scheme.is_special();
        let table = match (special, self.state_override) {
            (true, false) => &PATH_SEGMENT_SPECIAL,
            (false, false) => &PATH_SEGMENT,
            (true, true) => &PATH_SEGMENT_SPECIAL_OVERRIDE,
            (false, true) => &PATH_SEGMENT_OVERRIDE,
        };
        loop {
            // Append "/" and the encoded segment, then undo it if the
            // segment turns out to be a dot segment.
            let segment_out = self.out.len();
            self.out.push('/');
            let end = encode_until(input, pos, table, &mut self.out);
            let segment = &bytes[pos..end];
            let c = bytes.get(end).copied();
            if c == Some(b'\\') {
                self.reporter.report(E::InvalidReverseSolidus);
            }
            let slash = matches!(c, Some(b'/' | b'\\'));
            let maybe_dot = segment.len() <= 6 && matches!(segment.first(), Some(b'.' | b'%'));
            if maybe_dot && is_double_dot(segment) {
                self.out.truncate(segment_out);
                self.shorten_path();
                if !slash {
                    self.out.push('/');
                }
            } else if maybe_dot && is_single_dot(segment) {
                self.out.truncate(segment_out);
                if !slash {
                    self.out.push('/');
                }
            } else {
                let from = pos.max(self.reported_until).min(end);
                report_invalid_url_units(&input[from..end], self.reporter);
                if self.scheme == SchemeType::File
                    && segment_out == self.path_start
                    && is_windows_drive_letter(segment)
                {
                    // Windows drive letter quirk: "C|" becomes "C:".
                    self.out.pop();
                    self.out.push(':');
                }
            }
            if !slash {
                return match c {
                    Some(b'?') => self.query_state(end + 1),
                    Some(b'#') => self.fragment_state(end + 1),
                    _ => Ok(()),
                };
            }
            pos = end + 1;
        }
    }

    /// [Shorten](https://url.spec.whatwg.org/#shorten-a-urls-path) the path written so far.
    pub(super) fn shorten_path(&mut self) {
        let path = &self.out[self.path_start..];
        if self.scheme == SchemeType::File
            && path.len() == 3
            && is_normalized_windows_drive_letter(&path.as_bytes()[1..])
        {
            return;
        }
        if let Some(i) = path.rfind('/') {
            self.out.truncate(self.path_start + i);
        }
    }

    /// [Opaque path state](https://url.spec.whatwg.org/#cannot-be-a-base-url-path-state).
    pub(super) fn opaque_path_state(&mut self, pos: usize) -> Step {
        let input = self.input;
        let end = find(self.bytes(), pos, &byte_set_qh());
        let path = &input[pos..end];
        report_invalid_url_units(path, self.reporter);
        match path.strip_suffix(' ') {
            // A space right before '?' or '#' is encoded, so that it is not
            // lost when the query or fragment is later removed.
            Some(head) if end < input.len() => {
                percent::encode_into(head, &C0_CONTROL, &mut self.out);
                self.out.push_str("%20");
            }
            _ => percent::encode_into(path, &C0_CONTROL, &mut self.out),
        }
        match self.at(end) {
            Some(b'?') => self.query_state(end + 1),
            Some(b'#') => self.fragment_state(end + 1),
            _ => Ok(()),
        }
    }

    /// [Query state](https://url.spec.whatwg.org/#query-state).
    pub(super) fn query_state(&mut self, pos: usize) -> Step {
        let input = self.input;
        self.query_start = Some(self.out.len());
        self.out.push('?');
        let table = if self.scheme.is_special() {
            &SPECIAL_QUERY_RUN
        } else {
            &QUERY_RUN
        };
        let end = encode_until(input, pos, table, &mut self.out);
        report_invalid_url_units(&input[pos..end], self.reporter);
        if end < input.len() {
            return self.fragment_state(end + 1);
        }
        Ok(())
    }

    /// [Fragment state](https://url.spec.whatwg.org/#fragment-state).
    pub(super) fn fragment_state(&mut self, pos: usize) -> Step {
        let fragment = &self.input[pos..];
        self.fragment_start = Some(self.out.len());
        self.out.push('#');
        report_invalid_url_units(fragment, self.reporter);
        percent::encode_into(fragment, &FRAGMENT, &mut self.out);
        Ok(())
    }
}

const fn byte_set_qh() -> [bool; 256] {
    byte_set(b"?#")
}

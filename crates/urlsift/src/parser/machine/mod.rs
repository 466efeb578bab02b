//! The [basic URL parser](https://url.spec.whatwg.org/#concept-basic-url-parser)
//! state machine, scalar and byte-oriented.
//!
//! It writes the serialization left to right into one `String`: the
//! standard's URL record fields appear in serialization order, so each state
//! appends its component (or copies the base's) and records the offsets.
//! Instead of feeding code points one at a time, each state finds the end of
//! its component with one scan and encodes the run with a table; states that
//! only move the pointer are folded into their callers, each marked with the
//! state's name.

use crate::components::{Components, SchemeType};
use crate::error::{ParseError, Reporter, ValidationError};
use crate::host::{HostKind, parse_host_into};
use crate::percent::{self, USERINFO};
use crate::units::{
    is_normalized_windows_drive_letter, is_windows_drive_letter, scan_until,
    starts_with_windows_drive_letter,
};
use crate::url::Url;

use ValidationError as E;

type Step = Result<(), ParseError>;

/// Bytes that end a path segment: '/', '?', '#' and, for special URLs, '\'.
static SEGMENT_END: [bool; 256] = byte_set(b"/?#");
static SEGMENT_END_SPECIAL: [bool; 256] = byte_set(b"/?#\\");
/// Bytes that end the authority, plus '@', ':' and '[' (which the authority scan notes).
static AUTHORITY_END: [bool; 256] = byte_set(b"/?#@:[");
static AUTHORITY_END_SPECIAL: [bool; 256] = byte_set(b"/?#\\@:[");

const fn byte_set(bytes: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] = true;
        i += 1;
    }
    t
}

/// The index of the first byte at or after `from` that is in `set`, or the end.
#[inline]
fn find(bytes: &[u8], from: usize, set: &[bool; 256]) -> usize {
    scan_until(bytes, from, |b| set[b as usize])
}

/// Bytes of a scheme after its first letter: ASCII alphanumerics, '+', '-', '.'.
static SCHEME_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'+' || c == b'-' || c == b'.';
        b += 1;
    }
    t
};

/// Bytes that end a scheme's run ([`SCHEME_BYTE`]'s complement; ':' and
/// the tab and newlines among them), for one SIMD look at a short input.
/// Only the set is read.
struct SchemeEnd;

impl crate::simd::Classes for SchemeEnd {
    const SET: crate::simd::ByteSet =
        crate::simd::ByteSet::outside_range_or(b'+', b'z', b",/:;<=>?@[\\]^_`");
    const GROUPS: crate::simd::Groups = crate::simd::Groups::new(&[]);
    /// Unused; the full range costs the kernels nothing.
    const RANGE: (u8, u8) = (0, 255);
}

/// Whether the input `raw`, once prepared (C0 controls and spaces trimmed,
/// tabs and newlines removed), certainly does not start with a scheme
/// followed by ':' (then the scheme start state goes to the no scheme
/// state). Says `false` when unsure: a tab or newline before the answer.
pub(crate) fn certainly_no_scheme(raw: &[u8]) -> bool {
    let Some(start) = raw.iter().position(|&b| b > b' ') else {
        // Nothing but C0 controls and spaces: the empty input.
        return true;
    };
    let bytes = &raw[start..];
    if !bytes[0].is_ascii_alphabetic() {
        return true;
    }
    if bytes.len() > 64 {
        return no_scheme_after_first(bytes);
    }
    // A bare host is scheme bytes to its end: one look at the block finds
    // the first byte that ends the run (a byte loop took most of a
    // no-scheme failure's time).
    let ends =
        crate::simd::block_masks::<SchemeEnd>(bytes).in_set & crate::simd::low_bits(bytes.len());
    ends == 0
        || !matches!(
            bytes[ends.trailing_zeros() as usize],
            b':' | b'\t' | b'\n' | b'\r'
        )
}

/// [`certainly_no_scheme`] of `bytes`, which start with a letter, byte by
/// byte.
fn no_scheme_after_first(bytes: &[u8]) -> bool {
    for &b in &bytes[1..] {
        match b {
            b':' | b'\t' | b'\n' | b'\r' => return false,
            _ if SCHEME_BYTE[b as usize] => {}
            _ => return true,
        }
    }
    // Scheme bytes to the end, no ':' (trailing controls are trimmed).
    true
}

/// The length of the scheme if `bytes` starts with one followed by ':'.
#[inline]
fn scheme_len(bytes: &[u8]) -> Option<usize> {
    if !bytes.first()?.is_ascii_alphabetic() {
        return None;
    }
    let n = bytes[1..].iter().position(|&b| !SCHEME_BYTE[b as usize])? + 1;
    (bytes[n] == b':').then_some(n)
}

/// The index of the first ':' of a host-and-port text that is not inside
/// brackets (the host state's insideBrackets flag).
fn port_separator(text: &str) -> Option<usize> {
    let mut inside_brackets = false;
    for (i, &b) in text.as_bytes().iter().enumerate() {
        match b {
            b'[' => inside_brackets = true,
            b']' => inside_brackets = false,
            b':' if !inside_brackets => return Some(i),
            _ => {}
        }
    }
    None
}

/// One run of the parser over a prepared input (trimmed, no tabs or newlines).
mod path;

pub(crate) struct Machine<'i, 'r, R: Reporter> {
    input: &'i str,
    out: String,
    scheme: SchemeType,
    scheme_end: usize,
    username_end: usize,
    host_start: usize,
    host_end: usize,
    port: Option<u16>,
    path_start: usize,
    query_start: Option<usize>,
    fragment_start: Option<usize>,
    host_kind: Option<HostKind>,
    /// Set when running for a setter with a state override: '?' and '#'
    /// then belong to the component being set.
    state_override: bool,
    /// Input before this index was already checked for invalid URL units
    /// (the file host state's drive-letter buffer, handed to the path state).
    reported_until: usize,
    reporter: &'r mut R,
}

impl<'i, 'r, R: Reporter> Machine<'i, 'r, R> {
    pub(crate) fn new(input: &'i str, reporter: &'r mut R) -> Self {
        Self::with_buffer(input, String::with_capacity(input.len() + 16), reporter)
    }

    /// A machine that writes into `out` (cleared), reusing its capacity.
    pub(crate) fn with_buffer(input: &'i str, mut out: String, reporter: &'r mut R) -> Self {
        out.clear();
        Machine {
            input,
            out,
            scheme: SchemeType::NotSpecial,
            scheme_end: 0,
            username_end: 0,
            host_start: 0,
            host_end: 0,
            port: None,
            path_start: 0,
            query_start: None,
            fragment_start: None,
            host_kind: None,
            state_override: false,
            reported_until: 0,
            reporter,
        }
    }

    /// The pathname setter's run: [path start state](https://url.spec.whatwg.org/#path-start-state)
    /// with state override, on `input` alone. Returns the serialized path.
    pub(crate) fn path_with_override(
        input: &'i str,
        scheme: SchemeType,
        reporter: &'r mut R,
    ) -> String {
        let mut m = Machine::new(input, reporter);
        m.scheme = scheme;
        m.state_override = true;
        // Without '?' and '#' as delimiters the states cannot fail.
        let _ = m.path_start_state(0);
        m.out
    }

    #[inline]
    fn bytes(&self) -> &'i [u8] {
        self.input.as_bytes()
    }

    #[inline]
    fn at(&self, pos: usize) -> Option<u8> {
        self.bytes().get(pos).copied()
    }

    fn fail(&mut self, e: ValidationError) -> Step {
        self.reporter.report(e);
        Err(e.into())
    }

    /// Runs the machine from the scheme start state and builds the URL.
    ///
    /// Each entry point builds its own result from the inlined components:
    /// moving a just-built `Url` between result types stalls store forwarding.
    pub(crate) fn parse(mut self, base: Option<&Url>) -> Result<Url, ParseError> {
        self.steps(base)?;
        let c = self.components()?;
        Ok(Url {
            serialization: self.out,
            c,
        })
    }

    /// Like [`Machine::parse`], but hands the buffer back on failure.
    pub(crate) fn run(mut self, base: Option<&Url>) -> Result<Url, (ParseError, String)> {
        match self.steps(base).and_then(|()| self.components()) {
            Ok(c) => Ok(Url {
                serialization: self.out,
                c,
            }),
            Err(e) => Err((e, self.out)),
        }
    }

    fn steps(&mut self, base: Option<&Url>) -> Step {
        // scheme start state / scheme state
        match scheme_len(self.bytes()) {
            Some(n) => {
                self.out.push_str(&self.input[..n]);
                if self.input.as_bytes()[..n]
                    .iter()
                    .any(u8::is_ascii_uppercase)
                {
                    self.out.make_ascii_lowercase();
                }
                self.out.push(':');
                self.scheme_end = n;
                self.scheme = SchemeType::from_scheme(&self.out.as_bytes()[..n]);
                self.after_scheme(n + 1, base)
            }
            None => self.no_scheme_state(base),
        }
    }

    /// The scheme state's steps after "Set url's scheme to buffer".
    fn after_scheme(&mut self, pos: usize, base: Option<&Url>) -> Step {
        let rest = &self.bytes()[pos..];
        match self.scheme {
            SchemeType::File => {
                if !rest.starts_with(b"//") {
                    self.reporter
                        .report(E::SpecialSchemeMissingFollowingSolidus);
                }
                self.file_state(pos, base)
            }
            scheme if scheme.is_special() => match base {
                Some(base) if base.c.scheme == scheme => {
                    // special relative or authority state
                    if rest.starts_with(b"//") {
                        self.special_authority_ignore_slashes_state(pos + 2)
                    } else {
                        self.reporter
                            .report(E::SpecialSchemeMissingFollowingSolidus);
                        self.relative_state(pos, base)
                    }
                }
                _ => {
                    // special authority slashes state
                    let mut p = pos;
                    if rest.starts_with(b"//") {
                        p += 2;
                    } else {
                        self.reporter
                            .report(E::SpecialSchemeMissingFollowingSolidus);
                    }
                    self.special_authority_ignore_slashes_state(p)
                }
            },
            _ => {
                if rest.first() == Some(&b'/') {
                    // path or authority state
                    if rest.get(1) == Some(&b'/') {
                        self.authority_state(pos + 2)
                    } else {
                        self.set_null_host();
                        self.path_state(pos + 1)
                    }
                } else {
                    self.set_null_host();
                    self.opaque_path_state(pos)
                }
            }
        }
    }

    /// [No scheme state](https://url.spec.whatwg.org/#no-scheme-state).
    fn no_scheme_state(&mut self, base: Option<&Url>) -> Step {
        let c = self.at(0);
        let Some(base) = base else {
            return self.fail(E::MissingSchemeNonRelativeUrl);
        };
        if base.has_opaque_path() {
            if c != Some(b'#') {
                return self.fail(E::MissingSchemeNonRelativeUrl);
            }
            self.out.push_str(base.href_without_fragment());
            self.copy_offsets(base);
            self.path_start = base.c.path_start as usize;
            self.query_start = base.c.query_start.map(|q| q as usize);
            return self.fragment_state(1);
        }
        self.out.push_str(base.protocol());
        self.scheme_end = base.c.scheme_end as usize;
        self.scheme = base.c.scheme;
        if base.c.scheme != SchemeType::File {
            self.relative_state(0, base)
        } else {
            self.file_state(0, Some(base))
        }
    }

    /// Copies the scheme and authority offsets of `base`, whose serialization
    /// `self.out` starts with.
    fn copy_offsets(&mut self, base: &Url) {
        self.scheme_end = base.c.scheme_end as usize;
        self.scheme = base.c.scheme;
        self.username_end = base.c.username_end as usize;
        self.host_start = base.c.host_start as usize;
        self.host_end = base.c.host_end as usize;
        self.port = base.c.port;
        self.host_kind = base.c.host_kind;
    }

    /// Sets url's username, password, host and port to base's; `self.out`
    /// holds exactly base's "scheme:" when called.
    fn copy_base_authority(&mut self, base: &Url) {
        let s = &base.serialization;
        self.out
            .push_str(&s[base.c.scheme_end as usize + 1..base.c.port_end(s) as usize]);
        self.copy_offsets(base);
        self.path_start = self.out.len();
    }

    fn copy_base_query(&mut self, base: &Url) {
        if let Some(query) = base.query() {
            self.query_start = Some(self.out.len());
            self.out.push('?');
            self.out.push_str(query);
        }
    }

    fn set_null_host(&mut self) {
        let at = self.out.len();
        self.username_end = at;
        self.host_start = at;
        self.host_end = at;
        self.path_start = at;
        self.host_kind = None;
    }

    /// Writes "//" and the empty host.
    fn set_empty_host(&mut self) {
        self.out.push_str("//");
        let at = self.out.len();
        self.username_end = at;
        self.host_start = at;
        self.host_end = at;
        self.path_start = at;
        self.host_kind = Some(HostKind::Empty);
    }

    /// [Relative state](https://url.spec.whatwg.org/#relative-state).
    fn relative_state(&mut self, pos: usize, base: &Url) -> Step {
        let c = self.at(pos);
        match c {
            Some(b'/') => self.relative_slash_state(pos + 1, base),
            Some(b'\\') if self.scheme.is_special() => {
                self.reporter.report(E::InvalidReverseSolidus);
                self.relative_slash_state(pos + 1, base)
            }
            _ => self.continue_from_base_path(pos, base),
        }
    }

    /// The steps the relative state and the file state share when the input
    /// continues from base's path: url takes base's host (and credentials
    /// and port), path and query; then '?' starts a new query, '#' a
    /// fragment, the end keeps base's query, and anything else enters the
    /// path state after shortening the path (the file state instead empties
    /// it before a Windows drive letter).
    fn continue_from_base_path(&mut self, pos: usize, base: &Url) -> Step {
        self.copy_base_authority(base);
        self.out.push_str(base.pathname());
        match self.at(pos) {
            Some(b'?') => self.query_state(pos + 1),
            Some(b'#') => {
                self.copy_base_query(base);
                self.fragment_state(pos + 1)
            }
            None => {
                self.copy_base_query(base);
                Ok(())
            }
            Some(_) => {
                if self.scheme == SchemeType::File
                    && starts_with_windows_drive_letter(&self.bytes()[pos..])
                {
                    // "File-invalid-Windows-drive-letter validation error.
                    // Set url's path to « »."
                    self.reporter.report(E::FileInvalidWindowsDriveLetter);
                    self.out.truncate(self.path_start);
                } else {
                    self.shorten_path();
                }
                self.path_state(pos)
            }
        }
    }

    /// [Relative slash state](https://url.spec.whatwg.org/#relative-slash-state).
    fn relative_slash_state(&mut self, pos: usize, base: &Url) -> Step {
        match self.at(pos) {
            Some(c @ (b'/' | b'\\')) if self.scheme.is_special() => {
                if c == b'\\' {
                    self.reporter.report(E::InvalidReverseSolidus);
                }
                self.special_authority_ignore_slashes_state(pos + 1)
            }
            Some(b'/') => self.authority_state(pos + 1),
            _ => {
                self.copy_base_authority(base);
                self.path_state(pos)
            }
        }
    }

    /// [Special authority ignore slashes state](https://url.spec.whatwg.org/#special-authority-ignore-slashes-state).
    fn special_authority_ignore_slashes_state(&mut self, mut pos: usize) -> Step {
        while let Some(b'/' | b'\\') = self.at(pos) {
            self.reporter
                .report(E::SpecialSchemeMissingFollowingSolidus);
            pos += 1;
        }
        self.authority_state(pos)
    }

    /// [Authority state](https://url.spec.whatwg.org/#authority-state): the
    /// credentials are everything before the authority's last '@'.
    fn authority_state(&mut self, pos: usize) -> Step {
        let input = self.input;
        let set = if self.scheme.is_special() {
            &AUTHORITY_END_SPECIAL
        } else {
            &AUTHORITY_END
        };
        // One scan finds the authority's end, its last '@' and the first ':'
        // after that '@' (the port separator, unless brackets intervene).
        let bytes = self.bytes();
        let mut end = pos;
        let mut last_at = None;
        let mut colon = None;
        let mut bracket = false;
        loop {
            end = find(bytes, end, set);
            match bytes.get(end) {
                Some(b'@') => {
                    last_at = Some(end - pos);
                    colon = None;
                    bracket = false;
                }
                Some(b':') => {
                    colon = colon.or(Some(end));
                }
                Some(b'[') => bracket = true,
                _ => break,
            }
            end += 1;
        }
        let authority = &input[pos..end];
        self.out.push_str("//");
        let user_start = self.out.len();
        let host_text = match last_at {
            Some(at) => {
                if R::ENABLED {
                    for _ in memchr::memchr_iter(b'@', &authority.as_bytes()[..=at]) {
                        self.reporter.report(E::InvalidCredentials);
                    }
                }
                let host_text = &authority[at + 1..];
                if host_text.is_empty() {
                    return self.fail(E::HostMissing);
                }
                let userinfo = &authority[..at];
                match userinfo.find(':') {
                    Some(colon) => {
                        percent::encode_into(&userinfo[..colon], &USERINFO, &mut self.out);
                        self.username_end = self.out.len();
                        if colon + 1 < userinfo.len() {
                            self.out.push(':');
                            percent::encode_into(&userinfo[colon + 1..], &USERINFO, &mut self.out);
                        }
                    }
                    None => {
                        percent::encode_into(userinfo, &USERINFO, &mut self.out);
                        self.username_end = self.out.len();
                    }
                }
                if self.out.len() > user_start {
                    self.out.push('@');
                }
                host_text
            }
            None => {
                self.username_end = user_start;
                authority
            }
        };
        self.host_start = self.out.len();
        let host_offset = end - host_text.len();
        let colon = if bracket {
            port_separator(host_text)
        } else {
            colon.map(|c| c - host_offset)
        };
        self.host_state(host_text, colon)?;
        self.path_start_state(end)
    }

    /// [Host state](https://url.spec.whatwg.org/#host-state) and
    /// [port state](https://url.spec.whatwg.org/#port-state) over the
    /// authority's host and port.
    fn host_state(&mut self, text: &str, colon: Option<usize>) -> Step {
        let special = self.scheme.is_special();
        let host = colon.map_or(text, |i| &text[..i]);
        if host.is_empty() {
            if colon.is_some() || special {
                return self.fail(E::HostMissing);
            }
            self.host_kind = Some(HostKind::Empty);
        } else {
            let kind = parse_host_into(host, !special, &mut self.out, self.reporter)?;
            self.host_kind = Some(kind);
        }
        self.host_end = self.out.len();
        if let Some(i) = colon {
            self.port_state(&text[i + 1..])?;
        }
        self.path_start = self.out.len();
        Ok(())
    }

    /// [Port state](https://url.spec.whatwg.org/#port-state) on the port's text.
    fn port_state(&mut self, text: &str) -> Step {
        let digits = text.as_bytes();
        if !digits.iter().all(u8::is_ascii_digit) {
            return self.fail(E::PortInvalid);
        }
        if digits.is_empty() {
            return Ok(());
        }
        let mut port: u32 = 0;
        for &d in digits {
            port = port * 10 + u32::from(d - b'0');
            if port > 0xFFFF {
                return self.fail(E::PortOutOfRange);
            }
        }
        let port = port as u16;
        if Some(port) != self.scheme.default_port() {
            use std::fmt::Write;
            let _ = write!(self.out, ":{port}");
            self.port = Some(port);
        }
        Ok(())
    }

    /// [File state](https://url.spec.whatwg.org/#file-state); `self.out` holds "file:".
    fn file_state(&mut self, pos: usize, base: Option<&Url>) -> Step {
        self.scheme = SchemeType::File;
        let base = base.filter(|b| b.c.scheme == SchemeType::File);
        let c = self.at(pos);
        match (c, base) {
            (Some(c @ (b'/' | b'\\')), _) => {
                if c == b'\\' {
                    self.reporter.report(E::InvalidReverseSolidus);
                }
                self.file_slash_state(pos + 1, base)
            }
            (_, Some(base)) => self.continue_from_base_path(pos, base),
            (_, None) => {
                self.set_empty_host();
                self.path_state(pos)
            }
        }
    }

    /// [File slash state](https://url.spec.whatwg.org/#file-slash-state).
    fn file_slash_state(&mut self, pos: usize, base: Option<&Url>) -> Step {
        match self.at(pos) {
            Some(c @ (b'/' | b'\\')) => {
                if c == b'\\' {
                    self.reporter.report(E::InvalidReverseSolidus);
                }
                self.file_host_state(pos + 1)
            }
            _ => {
                match base {
                    Some(base) => {
                        self.copy_base_authority(base);
                        if !starts_with_windows_drive_letter(&self.bytes()[pos..]) {
                            let base_path = base.pathname();
                            let first = base_path.get(1..).unwrap_or("");
                            let first = first.split('/').next().unwrap_or("");
                            if is_normalized_windows_drive_letter(first.as_bytes()) {
                                self.out.push('/');
                                self.out.push_str(first);
                            }
                        }
                    }
                    None => self.set_empty_host(),
                }
                self.path_state(pos)
            }
        }
    }

    /// [File host state](https://url.spec.whatwg.org/#file-host-state).
    fn file_host_state(&mut self, pos: usize) -> Step {
        let end = find(self.bytes(), pos, &SEGMENT_END_SPECIAL);
        let buffer = &self.input[pos..end];
        if is_windows_drive_letter(buffer.as_bytes()) {
            self.reporter.report(E::FileInvalidWindowsDriveLetterHost);
            self.reported_until = end;
            self.set_empty_host();
            // The buffer is not reset: it is the path's first segment.
            return self.path_state(pos);
        }
        self.set_empty_host();
        if !buffer.is_empty() {
            let kind = parse_host_into(buffer, false, &mut self.out, self.reporter)?;
            if &self.out[self.host_start..] == "localhost" {
                self.out.truncate(self.host_start);
            } else {
                self.host_kind = Some(kind);
            }
            self.host_end = self.out.len();
            self.path_start = self.host_end;
        }
        self.path_start_state(end)
    }

    /// Adds the serializer's "/." where needed and gives the offsets.
    #[inline(always)]
    fn components(&mut self) -> Result<Components, ParseError> {
        if self.host_kind.is_none() && self.out[self.path_start..].starts_with("//") {
            // URL serializer: a hostless path starting with an empty segment
            // gets "/." so that it does not read as an authority.
            self.out.insert_str(self.path_start, "/.");
            self.path_start += 2;
            self.query_start = self.query_start.map(|q| q + 2);
            self.fragment_start = self.fragment_start.map(|f| f + 2);
        }
        if u32::try_from(self.out.len()).is_err() {
            return Err(ParseError::TooLong);
        }
        Ok(Components {
            scheme_end: self.scheme_end as u32,
            username_end: self.username_end as u32,
            host_start: self.host_start as u32,
            host_end: self.host_end as u32,
            path_start: self.path_start as u32,
            query_start: self.query_start.map(|q| q as u32),
            fragment_start: self.fragment_start.map(|f| f as u32),
            port: self.port,
            host_kind: self.host_kind,
            scheme: self.scheme,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5000))]

        /// The one-block look at a short input decides as the byte loop.
        #[test]
        fn no_scheme_look_agrees_with_the_byte_loop(
            lead in proptest::collection::vec(prop_oneof![Just(b' '), Just(b'\t'), Just(0u8)], 0..3),
            first in prop_oneof![Just(b'h'), Just(b'Z'), Just(b'1'), Just(b'/')],
            rest in proptest::collection::vec(
                prop_oneof![
                    4 => prop_oneof![Just(b'a'), Just(b'Q'), Just(b'7'), Just(b'+'), Just(b'-'), Just(b'.')],
                    1 => prop_oneof![Just(b':'), Just(b'\t'), Just(b'\n'), Just(b'\r')],
                    1 => any::<u8>(),
                ],
                0..80,
            ),
        ) {
            let raw = [&lead[..], &[first], &rest[..]].concat();
            let start = raw.iter().position(|&b| b > b' ').unwrap_or(raw.len());
            let bytes = &raw[start..];
            let want = bytes.first().is_none_or(|b| !b.is_ascii_alphabetic())
                || no_scheme_after_first(bytes);
            prop_assert_eq!(certainly_no_scheme(&raw), want, "{:?}", raw);
        }
    }
}

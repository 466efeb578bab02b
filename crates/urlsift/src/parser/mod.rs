//! URL parsing: input preparation, then the state machine.
//!
//! [`parse`] strips leading and trailing C0 controls and spaces and removes
//! ASCII tabs and newlines (allocating only when there is one), then runs the
//! [basic URL parser](https://url.spec.whatwg.org/#concept-basic-url-parser)
//! in [`machine`].

pub(crate) mod fast;
pub(crate) mod machine;
mod path;

use std::borrow::Cow;

use crate::components::SchemeType;
use crate::error::{ParseError, Reporter, ValidationError};
use crate::units::{is_ascii_tab_or_newline, is_c0_control_or_space};
use crate::url::Url;

/// The basic URL parser without state override: the fast path when it
/// accepts (and nobody listens for validation errors), else the machine.
#[inline]
pub(crate) fn parse<R: Reporter>(
    input: &str,
    base: Option<&Url>,
    reporter: &mut R,
) -> Result<Url, ParseError> {
    if !R::ENABLED {
        if !fast::may_be_special(input.as_bytes()) {
            return not_special(input, base);
        }
        // One allocation, sized for the common case; a declined input
        // hands the same buffer to the machine.
        // The result is built right here from the fast path's (inlined)
        // components: going through an intermediate Result would move a
        // just-stored struct, which stalls store forwarding.
        let mut buffer = String::with_capacity(input.len() + 16);
        if let Some(plan) = fast::analyze_appending(input, &mut buffer) {
            let c = plan.write_over_short(input, &mut buffer);
            return Ok(Url {
                serialization: buffer,
                c,
            });
        }
        buffer.clear();
        return declined(input, base, buffer);
    }
    parse_machine(input, base, reporter)
}

/// An input that cannot start with a special scheme and "//" (see
/// [`fast::may_be_special`]): relative references, bare hosts, other
/// schemes. Without a base, one with no scheme fails (the no scheme
/// state), settled before allocating: a relative reference starts with a
/// non-letter, so most take one byte.
#[inline(never)]
fn not_special(input: &str, base: Option<&Url>) -> Result<Url, ParseError> {
    if base.is_none() && machine::certainly_no_scheme(input.as_bytes()) {
        return Err(ValidationError::MissingSchemeNonRelativeUrl.into());
    }
    if let Ok(url) = joined_look(input, base, String::new()) {
        return Ok(url);
    }
    prepared(input, |cleaned| {
        machine::Machine::new(cleaned, &mut crate::error::NoReporter).parse(base)
    })
}

/// An input the fast path's first look declined, parsed into the
/// dispatcher's buffer: its second look, then the machine.
#[inline(never)]
fn declined(input: &str, base: Option<&Url>, buffer: String) -> Result<Url, ParseError> {
    let buffer = match second_look(input, buffer) {
        Ok(url) => return Ok(url),
        Err(buffer) => buffer,
    };
    prepared(input, |cleaned| {
        machine::Machine::with_buffer(cleaned, buffer, &mut crate::error::NoReporter).parse(base)
    })
}

/// The fast path's second look at a declined input (see
/// [`fast::long_authority_plan`]), written to `buffer`; the buffer back
/// if it declines again.
#[inline(always)]
fn second_look(input: &str, mut buffer: String) -> Result<Url, String> {
    let Some(plan) = fast::long_authority_plan(input) else {
        return Err(buffer);
    };
    buffer.clear();
    let c = plan.write(input, &mut buffer);
    Ok(Url {
        serialization: buffer,
        c,
    })
}

/// The fast path's look at a path-absolute reference (`/p?q#f`: a '/'
/// not followed by '/' or '\\') against a special base that is not
/// `file:`, written to `buffer`; the buffer back if that does not apply or
/// the fast path declines. The standard's relative slash state takes the
/// base's username, password, host and port and parses the rest of the
/// reference from the path state, as it does after the authority of the
/// base's scheme and authority and the reference joined (a base's
/// serialization parses back to the same components): so the joined text
/// is what the fast path looks at.
#[inline(never)]
pub(crate) fn joined_look(
    input: &str,
    base: Option<&Url>,
    mut buffer: String,
) -> Result<Url, String> {
    let Some(base) = base else {
        return Err(buffer);
    };
    let b = input.as_bytes();
    if b.first() != Some(&b'/')
        || matches!(b.get(1), Some(b'/' | b'\\'))
        || !base.is_special()
        || base.scheme_type() == SchemeType::File
    {
        return Err(buffer);
    }
    let authority = &base.href()[..base.c.path_start as usize];
    thread_local! {
        /// The joined text (the URL is written apart from it).
        static JOINED: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    JOINED.with_borrow_mut(|joined| {
        joined.clear();
        joined.push_str(authority);
        joined.push_str(input);
        let Some(plan) = fast::analyze(joined) else {
            return Err(buffer);
        };
        buffer.clear();
        let c = plan.write(joined, &mut buffer);
        Ok(Url {
            serialization: buffer,
            c,
        })
    })
}

/// Runs `machine` on `input` prepared for it without a reporter (C0
/// controls and spaces trimmed, tabs and newlines removed).
#[inline(always)]
fn prepared<T>(input: &str, machine: impl FnOnce(&str) -> T) -> T {
    let cleaned = remove_tab_and_newline(
        trim_c0_control_or_space(input),
        &mut crate::error::NoReporter,
    );
    machine(&cleaned)
}

/// The state machine alone, with its input preparation.
pub(crate) fn parse_machine<R: Reporter>(
    input: &str,
    base: Option<&Url>,
    reporter: &mut R,
) -> Result<Url, ParseError> {
    let trimmed = trim_c0_control_or_space(input);
    if trimmed.len() != input.len() {
        reporter.report(ValidationError::InvalidUrlUnit);
    }
    let cleaned = remove_tab_and_newline(trimmed, reporter);
    machine::Machine::new(&cleaned, reporter).parse(base)
}

/// Parses an input the fast path's first look declined into a recycled
/// buffer (a certain no-scheme failure without base, its second look,
/// then the machine), handing the buffer back on failure.
pub(crate) fn parse_machine_into(
    input: &str,
    base: Option<&Url>,
    buffer: String,
) -> Result<Url, (ParseError, String)> {
    if base.is_none() && machine::certainly_no_scheme(input.as_bytes()) {
        return Err((ValidationError::MissingSchemeNonRelativeUrl.into(), buffer));
    }
    let buffer = match joined_look(input, base, buffer) {
        Ok(url) => return Ok(url),
        Err(buffer) => buffer,
    };
    let buffer = match second_look(input, buffer) {
        Ok(url) => return Ok(url),
        Err(buffer) => buffer,
    };
    prepared(input, |cleaned| {
        machine::Machine::with_buffer(cleaned, buffer, &mut crate::error::NoReporter).run(base)
    })
}

/// Removes leading and trailing [C0 controls or spaces](https://infra.spec.whatwg.org/#c0-control-or-space).
pub(crate) fn trim_c0_control_or_space(input: &str) -> &str {
    let bytes = input.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(&first), Some(&last))
            if !is_c0_control_or_space(first) && !is_c0_control_or_space(last) =>
        {
            return input;
        }
        _ => {}
    }
    let start = bytes
        .iter()
        .position(|&b| !is_c0_control_or_space(b))
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|&b| !is_c0_control_or_space(b))
        .map_or(start, |i| i + 1);
    &input[start..end]
}

/// Whether any byte is below 0x0E (tab, LF and CR are 0x09, 0x0A, 0x0D):
/// eight bytes a step with the "has less than" word trick, which is exact
/// as a yes/no answer. Cheaper than a vector search on short URLs.
#[inline]
fn has_byte_below_0e(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let below = |w: u64| w.wrapping_sub(ONES * 0x0E) & !w & (ONES * 0x80) != 0;
    let word = |c: &[u8]| u64::from_le_bytes(c.try_into().unwrap_or([0xFF; 8]));
    if bytes.len() < 8 {
        return bytes.iter().any(|&b| b < 0x0E);
    }
    // Whole words, then the last eight bytes (overlapping): no byte loop.
    let mut any = false;
    for chunk in bytes.chunks_exact(8) {
        any |= below(word(chunk));
    }
    any | below(word(&bytes[bytes.len() - 8..]))
}

/// Removes every [ASCII tab or newline](https://infra.spec.whatwg.org/#ascii-tab-or-newline),
/// reporting an invalid-URL-unit if there was one.
pub(crate) fn remove_tab_and_newline<'a, R: Reporter>(
    input: &'a str,
    reporter: &mut R,
) -> Cow<'a, str> {
    if !has_byte_below_0e(input.as_bytes())
        || memchr::memchr3(b'\t', b'\n', b'\r', input.as_bytes()).is_none()
    {
        return Cow::Borrowed(input);
    }
    reporter.report(ValidationError::InvalidUrlUnit);
    Cow::Owned(
        input
            .chars()
            .filter(|&c| !(c.is_ascii() && is_ascii_tab_or_newline(c as u8)))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_below_0e_is_exact() {
        for len in 0..20 {
            for pos in 0..len {
                for b in 0..=255u8 {
                    let mut v = vec![b'a'; len];
                    v[pos] = b;
                    assert_eq!(
                        has_byte_below_0e(&v),
                        b < 0x0E,
                        "len {len} pos {pos} byte {b}"
                    );
                }
            }
        }
    }
}

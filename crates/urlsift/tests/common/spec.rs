//! Helpers for the tests written from the standard's text
//! (`tests/spec_states.rs`, `tests/spec_hosts.rs`): every successful parse
//! is checked for consistent offsets, idempotence and reporter independence.

use urlsift::{ParseError, Url, ValidationError as E};

/// Parses `input` against `base` (which must parse), reporting validation
/// errors; checks invariants, idempotence and reporter independence.
#[track_caller]
pub fn run(input: &str, base: Option<&str>) -> (Result<Url, ParseError>, Vec<E>) {
    let base = base.map(|b| match Url::parse(b) {
        Ok(url) => url,
        Err(e) => panic!("base {b:?} failed: {e}"),
    });
    let mut errors = Vec::new();
    let result = Url::parse_with_reporter(input, base.as_ref(), &mut errors);
    let quiet = Url::parse_with_base(input, base.as_ref());
    assert_eq!(
        result.as_ref().map(Url::href),
        quiet.as_ref().map(Url::href),
        "the reporter changes the result of {input:?}"
    );
    if let Ok(url) = &result {
        check(url);
    }
    (result, errors)
}

/// Offsets consistent and `parse(href).href == href`.
#[track_caller]
pub fn check(url: &Url) {
    if let Err(e) = url.check_invariants() {
        panic!("invariants of {:?}: {e}", url.href());
    }
    match Url::parse(url.href()) {
        Ok(again) => {
            assert_eq!(again.href(), url.href(), "not idempotent");
            if let Err(e) = again.check_invariants() {
                panic!("invariants of re-parsed {:?}: {e}", url.href());
            }
        }
        Err(e) => panic!("href {:?} does not re-parse: {e}", url.href()),
    }
}

/// Asserts success with `href` and exactly the validation errors `errors`.
#[track_caller]
pub fn ok(input: &str, base: Option<&str>, href: &str, errors: &[E]) -> Url {
    let (result, reported) = run(input, base);
    let url = match result {
        Ok(url) => url,
        Err(e) => panic!("{input:?} (base {base:?}) failed: {e}; reported {reported:?}"),
    };
    assert_eq!(url.href(), href, "href of {input:?} (base {base:?})");
    assert_eq!(reported, errors, "errors of {input:?} (base {base:?})");
    url
}

/// Asserts failure on validation error `error`, after exactly `errors`.
#[track_caller]
pub fn fail(input: &str, base: Option<&str>, error: E, errors: &[E]) {
    let (result, reported) = run(input, base);
    assert_eq!(
        result.as_ref().map(Url::href),
        Err(&ParseError::Invalid(error)),
        "{input:?} (base {base:?})"
    );
    assert_eq!(reported, errors, "errors of {input:?} (base {base:?})");
    assert!(!Url::can_parse(input, base));
}

/// Like [`ok`], for cases whose errors are checked as a multiset only.
#[track_caller]
pub fn ok_unordered(input: &str, href: &str, errors: &[E]) -> Url {
    let (result, mut reported) = run(input, None);
    let url = result.unwrap_or_else(|e| panic!("{input:?} failed: {e}"));
    assert_eq!(url.href(), href, "href of {input:?}");
    let mut expected = errors.to_vec();
    reported.sort();
    expected.sort();
    assert_eq!(reported, expected, "errors of {input:?} (any order)");
    url
}

/// Asserts failure on validation error `error`, reported last.
#[track_caller]
pub fn fail_last(input: &str, error: E) {
    let (result, reported) = run(input, None);
    let result = result.map(|u| u.href().to_string());
    assert_eq!(result, Err(ParseError::Invalid(error)), "{input:?}");
    assert_eq!(reported.last(), Some(&error), "errors of {input:?}");
}

/// Asserts failure at a step that names no validation error (the domain
/// parser's final checks); returns the errors reported on the way.
#[track_caller]
pub fn fails(input: &str, base: Option<&str>) -> Vec<E> {
    let (result, reported) = run(input, base);
    assert!(result.is_err(), "{input:?} parsed as {result:?}");
    reported
}

/// A checked parse (see [`run`]) that must succeed.
#[track_caller]
pub fn parsed(input: &str) -> Url {
    match run(input, N).0 {
        Ok(url) => url,
        Err(e) => panic!("{input:?} failed: {e}"),
    }
}

/// protocol, username, password, host, hostname, port, pathname, search, hash.
pub fn getters(u: &Url) -> [&str; 9] {
    let g = super::getters(u);
    [g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9]]
}

/// No base URL.
pub const N: Option<&str> = None;
pub const IUU: E = E::InvalidUrlUnit;
pub const SMFS: E = E::SpecialSchemeMissingFollowingSolidus;
pub const IRS: E = E::InvalidReverseSolidus;

// ---------------------------------------------------------------- input

//! web-platform-tests: `urltestdata.json`, `urltestdata-javascript-only.json`,
//! `toascii.json`, `IdnaTestV2.json` and `percent-encoding.json`, through the
//! public API. Every case must pass; known failures would be listed in
//! `tests/expected/` (a ratchet that also fails when a listed case passes).

use crate::common;

use serde_json::Value;
use urlsift::{Url, ValidationError};

/// Parses with and without a validation-error reporter and checks that both
/// agree, that the offsets are consistent and that the href re-parses to itself.
fn parse_checked(input: &str, base: Option<&Url>) -> Result<Url, String> {
    let plain = Url::parse_with_base(input, base);
    let mut errors: Vec<ValidationError> = Vec::new();
    let reported = Url::parse_with_reporter(input, base, &mut errors);
    match (&plain, &reported) {
        (Ok(a), Ok(b)) if a.href() == b.href() => {}
        (Err(a), Err(b)) if a == b => {}
        _ => {
            return Err(format!(
                "reporter changes the result: {plain:?} vs {reported:?}"
            ));
        }
    }
    if let Err(e) = &plain
        && errors.last().copied() != e.validation_error()
    {
        return Err(format!("failure {e:?} not reported last: {errors:?}"));
    }
    let url = plain.map_err(|e| format!("failed: {e}"))?;
    url.check_invariants()?;
    match Url::parse(url.href()) {
        Ok(again) if again.href() == url.href() => {}
        other => return Err(format!("not idempotent: {:?} -> {other:?}", url.href())),
    }
    Ok(url)
}

fn run_urltestdata(file: &str) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let mut count = 0;
    for case in common::wpt_cases(file) {
        count += 1;
        let input = case["input"].as_str().expect("input");
        let base_str = case.get("base").and_then(Value::as_str);
        let name = format!("{input:?} against {base_str:?}");
        let base = match base_str.map(Url::parse) {
            None => None,
            Some(Ok(base)) => Some(base),
            Some(Err(_)) => {
                if case.get("failure").is_none() {
                    failures.push(format!("{name}: base failed to parse"));
                }
                continue;
            }
        };
        let result = parse_checked(input, base.as_ref());
        if case.get("failure").and_then(Value::as_bool) == Some(true) {
            if let Ok(url) = &result {
                failures.push(format!("{name}: expected failure, got {}", url.href()));
            }
            // As WPT's <a> tests do with "about:blank" for a null base: the
            // input still fails against an opaque-path base unless it is
            // marked as parsing relative to any base.
            if base_str.is_none() {
                let blank = Url::parse("about:blank").expect("about:blank parses");
                let any_base = case.get("relativeTo").and_then(Value::as_str) == Some("any-base");
                let parsed = Url::parse_with_base(input, Some(&blank));
                if parsed.is_ok() != any_base {
                    failures.push(format!("{name}: against about:blank gave {parsed:?}"));
                }
            }
            // A failing input is also no valid base.
            if base_str.is_none() && Url::can_parse("about:blank", Some(input)) {
                failures.push(format!("{name}: usable as a base"));
            }
            continue;
        }
        let url = match result {
            Ok(url) => url,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        for getter in common::GETTERS.iter().chain(&["origin"]) {
            let actual = common::getter(&url, getter);
            if let Some(expected) = case.get(*getter).and_then(Value::as_str)
                && actual != expected
            {
                failures.push(format!(
                    "{name}: {getter} = {actual:?}, expected {expected:?}"
                ));
            }
        }
        if !Url::can_parse(input, base_str) {
            failures.push(format!("{name}: can_parse false"));
        }
    }
    (count, failures)
}

#[test]
fn urltestdata() {
    let (count, failures) = run_urltestdata("urltestdata.json");
    assert!(count > 800, "only {count} cases read");
    eprintln!(
        "urltestdata.json: {count} cases, {} failing",
        failures.len()
    );
    common::ratchet("urltestdata.txt", &failures);
}

#[test]
fn urltestdata_javascript_only() {
    let (count, failures) = run_urltestdata("urltestdata-javascript-only.json");
    assert!(count >= 1);
    common::ratchet("urltestdata-javascript-only.txt", &failures);
}

/// Runs `input` as the host of "https://{input}/x", as the WPT host tests do.
fn host_case(input: &str, expected: Option<&str>) -> Option<String> {
    let href = format!("https://{input}/x");
    match (parse_checked(&href, None), expected) {
        (Err(_), None) => None,
        (Ok(url), None) => Some(format!("{input:?}: expected failure, got {}", url.href())),
        (Err(e), Some(out)) => Some(format!("{input:?}: {e}, expected {out:?}")),
        (Ok(url), Some(out)) => {
            let ok = url.host() == out
                && url.hostname() == out
                && url.pathname() == "/x"
                && url.href() == format!("https://{out}/x");
            (!ok).then(|| format!("{input:?}: got {:?}, expected {out:?}", url.href()))
        }
    }
}

#[test]
fn toascii() {
    let mut failures = Vec::new();
    let mut count = 0;
    for case in common::wpt_cases("toascii.json") {
        count += 1;
        let input = case["input"].as_str().expect("input");
        failures.extend(host_case(input, case["output"].as_str()));
    }
    assert!(count > 50, "only {count} cases read");
    common::ratchet("toascii.txt", &failures);
}

#[test]
fn idna_test_v2() {
    let mut failures = Vec::new();
    let mut count = 0;
    for case in common::wpt_cases("IdnaTestV2.json") {
        let input = case["input"].as_str().expect("input");
        // As in WPT's IdnaTestV2 runner: the empty string is no host, and
        // tabs and newlines are removed before host parsing.
        if input.is_empty() || input.contains(['\t', '\n', '\r']) {
            continue;
        }
        count += 1;
        failures.extend(host_case(input, case["output"].as_str()));
    }
    assert!(count > 2000, "only {count} cases read");
    common::ratchet("IdnaTestV2.txt", &failures);
}

#[test]
fn percent_encoding_utf8() {
    let mut failures = Vec::new();
    let mut count = 0;
    for case in common::wpt_cases("percent-encoding.json") {
        let input = case["input"].as_str().expect("input");
        let expected = case["output"]["utf-8"].as_str().expect("utf-8 output");
        count += 1;
        let href = format!("https://doesnotmatter.invalid/?{input}#{input}");
        match parse_checked(&href, None) {
            Ok(url) => {
                if url.search() != format!("?{expected}") || url.hash() != format!("#{expected}") {
                    failures.push(format!(
                        "{input:?}: search {:?} hash {:?}, expected {expected:?}",
                        url.search(),
                        url.hash()
                    ));
                }
            }
            Err(e) => failures.push(format!("{input:?}: {e}")),
        }
    }
    assert!(count >= 5);
    common::ratchet("percent-encoding.txt", &failures);
}

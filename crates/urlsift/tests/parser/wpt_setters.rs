//! web-platform-tests: `setters_tests.json` (every attribute checked after
//! each set, plus idempotence and offset invariants),
//! `urlencoded-parser-data.json`, the `searchParams` expectations of
//! `urltestdata.json`, and the host/hostname setters over `toascii.json`.

use crate::common;

use serde_json::Value;
use urlsift::{Url, UrlSearchParams};

use common::{getter, set};

/// Checks offsets and idempotence after a setter.
fn check_after_set(url: &Url) -> Result<(), String> {
    url.check_invariants()?;
    match Url::parse(url.href()) {
        Ok(again) if again.href() == url.href() => {
            for g in [
                "protocol", "username", "password", "host", "pathname", "search", "hash",
            ] {
                if getter(&again, g) != getter(url, g) {
                    return Err(format!("re-parse changes {g}"));
                }
            }
            Ok(())
        }
        other => Err(format!("href {:?} re-parses to {other:?}", url.href())),
    }
}

#[test]
fn setters_tests() {
    let data = common::wpt_json("setters_tests.json");
    let mut failures = Vec::new();
    let mut count = 0;
    for (attribute, cases) in data.as_object().expect("object") {
        if attribute == "comment" {
            continue;
        }
        let cases = cases.as_array().expect("array of cases");
        for case in cases {
            count += 1;
            let href = case["href"].as_str().expect("href");
            let value = case["new_value"].as_str().expect("new_value");
            let name = format!("{attribute} = {value:?} on {href:?}");
            let mut url = Url::parse(href).expect("test URL parses");
            set(&mut url, attribute, value);
            for (g, expected) in case["expected"].as_object().expect("expected") {
                let actual = getter(&url, g);
                if actual != expected.as_str().expect("string") {
                    failures.push(format!("{name}: {g} = {actual:?}, expected {expected}"));
                }
            }
            if let Err(e) = check_after_set(&url) {
                failures.push(format!("{name}: {e}"));
            }
        }
    }
    assert!(count > 250, "only {count} cases read");
    common::ratchet("setters_tests.txt", &failures);
}

#[test]
fn urlencoded_parser_data() {
    let mut failures = Vec::new();
    let mut count = 0;
    for case in common::wpt_cases("urlencoded-parser-data.json") {
        count += 1;
        let input = case["input"].as_str().expect("input");
        let expected: Vec<(String, String)> = case["output"]
            .as_array()
            .expect("output")
            .iter()
            .map(|p| {
                (
                    p[0].as_str().unwrap().to_string(),
                    p[1].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let actual: Vec<(String, String)> = urlsift::form::parse(input.as_bytes())
            .map(|(n, v)| (n.into_owned(), v.into_owned()))
            .collect();
        if actual != expected {
            failures.push(format!("{input:?}: {actual:?}, expected {expected:?}"));
        }
        // The same through URLSearchParams and through a URL's query.
        let params = UrlSearchParams::parse(input);
        let via_params: Vec<(String, String)> = params
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect();
        if via_params != expected {
            failures.push(format!("{input:?} via UrlSearchParams: {via_params:?}"));
        }
    }
    assert!(count > 20, "only {count} cases read");
    common::ratchet("urlencoded-parser-data.txt", &failures);
}

#[test]
fn urltestdata_search_params() {
    let mut failures = Vec::new();
    let mut count = 0;
    for case in common::wpt_cases("urltestdata.json") {
        let Some(expected) = case.get("searchParams").and_then(Value::as_str) else {
            continue;
        };
        count += 1;
        let base = case["base"].as_str().map(|b| Url::parse(b).expect("base"));
        let input = case["input"].as_str().unwrap();
        let url = Url::parse_with_base(input, base.as_ref()).expect("parses");
        let actual = url.search_params().to_string();
        if actual != expected {
            failures.push(format!(
                "{input:?}: searchParams {actual:?}, expected {expected:?}"
            ));
        }
    }
    assert!(count > 5, "only {count} cases read");
    common::ratchet("urltestdata-searchparams.txt", &failures);
}

/// WPT's toascii tests also run each input through the host and hostname
/// setters of "https://x/x": the host becomes the output, or stays "x".
#[test]
fn toascii_setters() {
    let mut failures = Vec::new();
    for case in common::wpt_cases("toascii.json") {
        let input = case["input"].as_str().unwrap();
        let expected = case["output"].as_str().unwrap_or("x");
        for attribute in ["host", "hostname"] {
            let mut url = Url::parse("https://x/x").unwrap();
            set(&mut url, attribute, input);
            if getter(&url, attribute) != expected {
                failures.push(format!(
                    "{attribute} = {input:?}: {:?}, expected {expected:?}",
                    getter(&url, attribute)
                ));
            }
            if let Err(e) = check_after_set(&url) {
                failures.push(format!("{attribute} = {input:?}: {e}"));
            }
        }
    }
    common::ratchet("toascii-setters.txt", &failures);
}

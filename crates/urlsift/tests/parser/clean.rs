//! `batch::Line::is_clean` (the lines `urlsift check` need not parse with
//! the state machine): every clean line of every corpus and of the
//! web-platform tests parses to itself with no validation error, and the
//! normal-form URLs that do carry one are not clean.

use crate::common;

use urlsift::batch::{self, Line};
use urlsift::{Url, ValidationError};
use urlsift_simd::Runtime;

/// Whether `line` parses to itself with no validation error.
fn reports_nothing(line: &str) -> Result<(), String> {
    let mut errors: Vec<ValidationError> = Vec::new();
    match Url::parse_with_reporter(line, None, &mut errors) {
        Ok(url) if url.href() == line && errors.is_empty() => Ok(()),
        Ok(url) => Err(format!(
            "{line:?}: href {:?}, errors {errors:?}",
            url.href()
        )),
        Err(e) => Err(format!("{line:?}: fails ({e:?})")),
    }
}

/// The clean lines of `text` checked; returns (lines, clean ones).
fn check_text(text: &str, failures: &mut Vec<String>) -> (usize, usize) {
    let (mut lines, mut clean) = (0, 0);
    for line in batch::lines(Runtime, text) {
        lines += 1;
        if line.is_clean() {
            clean += 1;
            if let Err(e) = reports_nothing(line.as_str()) {
                failures.push(e);
            }
        }
    }
    (lines, clean)
}

#[test]
fn every_clean_corpus_line_parses_to_itself_without_errors() {
    let mut failures = Vec::new();
    let (mut lines, mut clean) = (0, 0);
    for path in common::corpus_files() {
        let text = std::fs::read_to_string(&path).expect("UTF-8 corpus");
        let (l, c) = check_text(&text, &mut failures);
        lines += l;
        clean += c;
    }
    eprintln!("{clean} of {lines} corpus lines are clean");
    assert!(lines > 500_000, "only {lines} lines");
    // Most real URLs are: the test must not pass by finding none.
    assert!(
        clean * 10 > lines * 7,
        "only {clean} of {lines} lines clean"
    );
    failures.truncate(20);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_clean_wpt_input_parses_to_itself_without_errors() {
    let mut failures = Vec::new();
    let mut text = String::new();
    for file in ["urltestdata.json", "urltestdata-javascript-only.json"] {
        for case in common::wpt_cases(file) {
            let input = case["input"].as_str().expect("input");
            // One input per line: those with a line break cannot be lines.
            if !input.contains(['\n', '\r']) {
                text.push_str(input);
                text.push('\n');
            }
        }
    }
    let (lines, clean) = check_text(&text, &mut failures);
    eprintln!("{clean} of {lines} WPT inputs are clean");
    assert!(lines > 800 && clean > 20, "{clean} of {lines}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// URLs in normal form that still carry a validation error: none is clean.
#[test]
fn normal_urls_with_validation_errors_are_not_clean() {
    let cases = [
        "https://a_b.example.com/",
        "https://-a.example.com/",
        "https://ab--cd.example.com/",
        "https://example.com/a#b#c",
        "https://example.com/%zz",
        "https://example.com/a|b",
        "https://example.com/a%4",
        "https://user:pass@example.com/",
        "https://example.com/?a^b",
        &format!("https://{}.com/", "a".repeat(64)),
    ];
    let text: String = cases.iter().map(|c| format!("{c}\n")).collect();
    let lines: Vec<Line<'_>> = batch::lines(Runtime, &text).collect();
    assert_eq!(lines.len(), cases.len());
    for line in &lines {
        let mut errors: Vec<ValidationError> = Vec::new();
        let url = Url::parse_with_reporter(line.as_str(), None, &mut errors);
        assert!(
            url.is_ok_and(|u| u.href() == line.as_str()) && !errors.is_empty(),
            "{:?} is meant to be a normal URL with a validation error",
            line.as_str()
        );
        assert!(!line.is_clean(), "{:?} is not clean", line.as_str());
    }
}

//! `urlsift::batch::lines` splits text into lines and scans each for the
//! fast path in one SIMD pass; `href_of_line` must give what `href` gives
//! for the same text, and the scan must accept for the fast path exactly
//! the lines the fast path accepts. The check is the fuzz target's
//! (`fuzz/checks`, `LineScan`), run here with every kernel on the corpora,
//! the WPT inputs (which hold CRs, tabs and newlines of their own), lines
//! of every length around the 64-byte block, and generated texts.

use crate::checks;
use crate::common;

use checks::LineScan;
use proptest::prelude::*;
use urlsift::Url;
use urlsift_simd::{Runtime, Scalar, WithKernel, with_kernel};

/// `text` with every kernel: the best one (as the command runs it), the
/// run-time lookup and scalar. Returns the number of lines.
fn check_all(text: &str, base: Option<&Url>) -> usize {
    let count = with_kernel(LineScan { text, base });
    LineScan { text, base }.run(Runtime);
    LineScan { text, base }.run(Scalar);
    count
}

#[test]
fn every_corpus_file() {
    let mut total = 0;
    for path in common::corpus_files() {
        let text = std::fs::read_to_string(&path).expect("UTF-8 corpus");
        total += check_all(&text, None);
    }
    assert!(total > 500_000, "only {total} lines");
}

#[test]
fn wpt_inputs_as_one_text() {
    let mut text = String::new();
    for file in ["urltestdata.json", "urltestdata-javascript-only.json"] {
        for case in common::wpt_cases(file) {
            text.push_str(case["input"].as_str().unwrap());
            text.push_str(if text.len().is_multiple_of(3) {
                "\r\n"
            } else {
                "\n"
            });
        }
    }
    let base = Url::parse("https://base.example/dir/file?q#f").unwrap();
    assert!(check_all(&text, None) > 800);
    check_all(&text, Some(&base));
}

/// URLs of every length from 6 to 140 bytes (across the block edge at
/// 64), each alone, with CRLF, uppercase hosts, in runs and without a
/// final newline.
#[test]
fn lines_around_the_block_edge() {
    for len in 6usize..140 {
        let path_len = len.saturating_sub("http://a.b/".len());
        let url = format!("http://a.b/{}", "x".repeat(path_len));
        let upper = url.replace("a.b", "A.B");
        for text in [
            url.clone(),
            format!("{url}\n"),
            format!("{url}\r\n{upper}\r\n"),
            format!("{upper}\n\n{url}\n{url}"),
            format!("{url}\r"),
            format!("x\n{url}?q#f\r\n{}", &url[..len / 2]),
        ] {
            check_all(&text, None);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn generated_texts(
        lines in prop::collection::vec(common::shapes::url_shaped(), 0..8),
        ends in prop::collection::vec(prop::sample::select(vec!["\n", "\r\n", "\n\n", "\r\r\n"]), 8),
        final_end in any::<bool>(),
    ) {
        let mut text = String::new();
        for (i, line) in lines.iter().enumerate() {
            text.push_str(line);
            if i + 1 < lines.len() || final_end {
                text.push_str(ends[i]);
            }
        }
        check_all(&text, None);
    }
}

/// A line the fast path proves holds no control byte and no space, at any
/// position around the 64-byte blocks (the command relies on it: it looks
/// for NUL bytes only in lines that were not proved).
#[test]
fn proved_lines_hold_no_control_byte() {
    for len in 21..200usize {
        for at in (20..len).step_by(7).chain([len - 1]) {
            for bad in [0u8, b'\t', 0x0b, b'\r', 0x1f, b' ', 0x7f] {
                let mut line = b"https://example.com/".to_vec();
                line.resize(len, b'a');
                line[at] = bad;
                let text = String::from_utf8(line).unwrap();
                let lines: Vec<_> = urlsift::batch::lines(urlsift_simd::Runtime, &text).collect();
                assert!(!lines.is_empty());
                for l in lines {
                    assert!(
                        !l.is_proved() || !l.as_str().bytes().any(|b| b < 0x21 || b == 0x7f),
                        "proved a line with byte {bad:#x}: {:?}",
                        l.as_str()
                    );
                }
            }
        }
    }
}

//! `urlsift::batch::lines` splits text into lines and scans each for the
//! fast path in one SIMD pass; `href_of_line` must give what `href` gives
//! for the same text. Checked with every kernel on the corpora, the WPT
//! inputs (which hold CRs, tabs and newlines of their own), lines of every
//! length around the 64-byte block, and generated texts. The scan must
//! also accept for the fast path exactly the lines the fast path accepts.

mod common;

use proptest::prelude::*;
use urlsift::simd::{Kernel, Runtime, Scalar, WithKernel, with_kernel};
use urlsift::{BatchParser, Url};

/// The documented split: at '\n', a '\r' before it dropped, no last empty
/// line after a final '\n'.
fn model_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    if text.is_empty() || text.ends_with('\n') {
        lines.pop();
    }
    lines
        .into_iter()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect()
}

/// Every line of `text` through `lines` + `href_of_line` with kernel `K`,
/// against the model split + `href`. Returns the first difference.
struct Check<'a> {
    text: &'a str,
    base: Option<&'a Url>,
}

impl WithKernel for Check<'_> {
    type Output = Result<usize, String>;

    fn run<K: Kernel>(self, k: K) -> Result<usize, String> {
        let (mut scanned, mut plain) = (BatchParser::new(), BatchParser::new());
        let expected = model_lines(self.text);
        let mut count = 0;
        for (i, line) in urlsift::batch::lines(k, self.text).enumerate() {
            count += 1;
            let want = expected.get(i).ok_or("more lines than the model")?;
            if line.as_str() != *want {
                return Err(format!("line {i}: {:?} vs model {want:?}", line.as_str()));
            }
            let got = scanned.href_of_line(&line, self.base).map(str::to_string);
            let href = plain.href(want, self.base).map(str::to_string);
            if got != href {
                return Err(format!("{want:?}: href_of_line {got:?} vs href {href:?}"));
            }
            // The scan proves what the fast path alone proves: a line is
            // not sent to the machine because of its neighbours' bytes.
            if scanned.last_took_fast_path() != plain.last_took_fast_path() {
                return Err(format!(
                    "{want:?}: fast path {} after the line scan, {} alone",
                    scanned.last_took_fast_path(),
                    plain.last_took_fast_path()
                ));
            }
        }
        if count != expected.len() {
            return Err(format!("{count} lines vs {} in the model", expected.len()));
        }
        Ok(count)
    }
}

/// `text` with every kernel: the best one (as the command runs it), the
/// run-time lookup and scalar.
fn check_all(text: &str, base: Option<&Url>) -> Result<usize, String> {
    let best = with_kernel(Check { text, base })?;
    Check { text, base }.run(Runtime)?;
    Check { text, base }.run(Scalar)?;
    Ok(best)
}

#[test]
fn every_corpus_file() {
    let mut total = 0;
    for path in common::corpus_files() {
        let text = std::fs::read_to_string(&path).expect("UTF-8 corpus");
        total += check_all(&text, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
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
    assert!(check_all(&text, None).unwrap() > 800);
    check_all(&text, Some(&base)).unwrap();
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
            check_all(&text, None).unwrap_or_else(|e| panic!("{text:?}: {e}"));
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
        prop_assert!(check_all(&text, None).is_ok(), "{:?}: {}", text, check_all(&text, None).unwrap_err());
    }
}

//! Differential testing against the URL Standard's reference
//! implementation, the `whatwg-url` npm package (kept by the standard's
//! editors), through `urlsift compare --parsers whatwg-url`: on every corpus
//! line, on the web-platform-tests inputs that parse without a base, and
//! on hostile mutations of corpus lines (inserted, swapped and prefixed
//! pieces that reach the parser's corners: percent signs, backslashes,
//! IPv4 and IPv6 hosts, IDNA, userinfo, schemes, dot segments, astral
//! code points). urlsift and the reference must agree on validity and on
//! every getter, origin included, on every line: no difference is listed.
//!
//! A second test does the same for the rest of the API: every setter
//! (`href` included) with hostile values on corpus URLs, and
//! `URLSearchParams` parsed, serialized and sorted, against the package's
//! `URL` and `URLSearchParams` in one Node.js process.
//!
//! Ignored by default, since it needs Node.js and the package:
//! `scripts/reference-tests` installs the release it pins into
//! `target/reference` and runs this with `NODE_PATH` pointing there (CI
//! does). Without the package the comparison fails with the reason.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::Command;

use proptest::prelude::RngCore;
use proptest::test_runner::{RngAlgorithm, TestRng};
use serde_json::Value;
use urlsift::{Url, UrlSearchParams};

/// Pieces the mutations put into corpus lines.
const PIECES: &[&str] = &[
    "\\",
    "%",
    "%2e",
    "%2E%2e",
    "%00",
    "%zz",
    "%41",
    "%ff",
    "@",
    ":",
    "::",
    "[",
    "]",
    "[::1]",
    "[::ffff:1.2.3.4]",
    "[1:2::3]",
    "..",
    "/./",
    "/../",
    "./",
    "#",
    "?",
    "\t",
    " ",
    "\u{e9}",
    "\u{130}",
    "\u{ff0e}",
    "\u{3002}",
    "\u{200d}",
    "\u{df}",
    "\u{fb00}",
    "\u{d7ff}",
    "\u{1f600}",
    "xn--",
    "xn--a",
    "xn--8i7caa",
    "0x7f",
    "127.0.0.1",
    "1.2.3",
    "0",
    "0x",
    "08",
    "999999999999",
    "4294967296",
    ".",
    "//",
    ";",
    "^",
    "|",
    "{",
    "`",
    "<",
    "\u{7f}",
    "'",
    "\"",
    "file:",
    "javascript:",
    "blob:",
    "https:",
    "http:",
    "ws:",
    "data:",
    "mailto:",
    "C:",
    "c|",
    "|/",
    "A.",
    ":0",
    ":65535",
    ":65536",
    ":080",
    "user:pass@",
    ":@",
    "@@",
    "a\u{300}",
    "\u{5d0}",
    "\u{627}1",
];

/// A deterministic generator: the same mutations every run.
struct Rng(TestRng);

impl Rng {
    fn new() -> Rng {
        Rng(TestRng::deterministic_rng(RngAlgorithm::ChaCha))
    }

    fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n as u64) as usize
    }
}

/// `line` with one to three pieces inserted, put over a few characters, or
/// put in front.
fn mutate(rng: &mut Rng, line: &str) -> String {
    let mut chars: Vec<char> = line.chars().collect();
    for _ in 0..1 + rng.below(3) {
        let piece: Vec<char> = PIECES[rng.below(PIECES.len())].chars().collect();
        let at = rng.below(chars.len() + 1);
        match rng.below(5) {
            0..=2 => {
                chars.splice(at..at, piece);
            }
            3 => {
                let end = (at + 1 + rng.below(4)).min(chars.len());
                chars.splice(at..end, piece);
            }
            _ => {
                chars.splice(0..0, piece);
            }
        }
    }
    chars.into_iter().collect()
}

/// Writes the lines of `lines` to `path`, leaving out what cannot be a
/// line (a line end inside).
fn write_lines<'a>(path: &Path, lines: impl Iterator<Item = &'a str>) -> usize {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).expect("create"));
    let mut n = 0;
    for line in lines.filter(|l| !l.contains(['\n', '\r'])) {
        writeln!(out, "{line}").expect("write");
        n += 1;
    }
    out.flush().expect("flush");
    n
}

/// Runs `compare --parsers whatwg-url` on `files` and checks that urlsift
/// and the reference agree on every line; returns the reference's version.
fn agree(dir: &Path, what: &str, files: &[&Path]) -> String {
    let diffs = dir.join(format!("{what}.diffs.jsonl"));
    let out = Command::new(env!("CARGO_BIN_EXE_urlsift"))
        .args([
            "compare",
            "--parsers",
            "whatwg-url",
            "--rounds",
            "0",
            "--json",
        ])
        .arg("--diff-out")
        .arg(&diffs)
        .args(files)
        .output()
        .expect("run urlsift compare");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{what}: urlsift compare failed ({}): {stderr}\n\
         (scripts/reference-tests installs the whatwg-url package and runs this test)",
        out.status
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("compare --json");
    let parser = |name: &str| -> &Value {
        report["parsers"]
            .as_array()
            .expect("parsers")
            .iter()
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in the report"))
    };
    let (ours, reference) = (parser("urlsift"), parser("whatwg-url"));
    // Lines whose validity or href differs, and lines where only another
    // getter does; every one of them is also in the diff file.
    let d = report["disagreements"]
        .as_array()
        .expect("disagreements")
        .iter()
        .find(|d| d["parser"] == "whatwg-url")
        .expect("a whatwg-url entry");
    let counts = (d["lines"].as_u64(), d["component_lines"].as_u64());
    let written = std::fs::read_to_string(&diffs).expect("the diff file");
    let shown: Vec<&str> = written.lines().take(20).collect();
    assert_eq!(
        (counts, written.lines().count()),
        ((Some(0), Some(0)), 0),
        "{what}: urlsift and whatwg-url disagree:\n{}",
        shown.join("\n")
    );
    assert_eq!(ours["valid"], reference["valid"], "{what}");
    assert_eq!(ours["href_bytes"], reference["href_bytes"], "{what}");
    let valid = ours["valid"].as_u64().expect("valid");
    assert!(valid > 0, "{what}: no valid URL compared");
    let version = reference["version"].as_str().expect("version").to_string();
    eprintln!("{what}: {valid} valid URLs, all agree with whatwg-url {version}");
    version
}

#[test]
#[ignore = "needs Node.js and the whatwg-url package: run scripts/reference-tests"]
fn urlsift_agrees_with_the_reference_implementation() {
    let dir = tempfile::tempdir().expect("temp dir");
    let corpora = common::corpus_files();
    assert!(!corpora.is_empty(), "no corpus files");

    // The web-platform-tests inputs that parse without a base.
    let mut wpt = Vec::new();
    for file in ["urltestdata.json", "urltestdata-javascript-only.json"] {
        for case in common::wpt_cases(file) {
            if case.get("base").is_none_or(Value::is_null)
                && let Some(input) = case["input"].as_str()
            {
                wpt.push(input.to_string());
            }
        }
    }
    let wpt_file = dir.path().join("wpt.txt");
    let n = write_lines(&wpt_file, wpt.iter().map(String::as_str));
    assert!(n > 100, "only {n} WPT inputs without a base");

    // Two mutations of every eighth corpus line.
    let mut rng = Rng::new();
    let mut mutated = Vec::new();
    for file in &corpora {
        let bytes = std::fs::read(file).expect("read corpus");
        let text = String::from_utf8_lossy(&bytes);
        for line in text.lines() {
            if rng.below(8) == 0 {
                mutated.push(mutate(&mut rng, line));
                mutated.push(mutate(&mut rng, line));
            }
        }
    }
    let mutated_file = dir.path().join("mutated.txt");
    let n = write_lines(&mutated_file, mutated.iter().map(String::as_str));
    assert!(n > 100_000, "only {n} mutated lines");
    eprintln!("mutated: {n} lines");

    let corpora: Vec<&Path> = corpora.iter().map(|p| p.as_path()).collect();
    let version = agree(dir.path(), "corpora", &corpora);
    agree(dir.path(), "wpt", &[&wpt_file]);
    agree(dir.path(), "mutated", &[&mutated_file]);
    assert!(
        version.starts_with(|c: char| c.is_ascii_digit()),
        "whatwg-url version {version:?}"
    );
}

/// The reference's side of the API test: one JSON case per line in
/// (`{"url", "op", "value"}`), one JSON array per line out (href and
/// origin after the setter; the serialization before and after `sort()`
/// for `params`; `["error"]` when the reference throws).
const API_SCRIPT: &str = r#"
'use strict';
const { URL, URLSearchParams } = require('whatwg-url');
const rl = require('readline').createInterface({ input: process.stdin, crlfDelay: Infinity });
const out = [];
rl.on('line', (line) => {
  const c = JSON.parse(line);
  let r;
  try {
    if (c.op === 'params') {
      const p = new URLSearchParams(c.value);
      const before = p.toString();
      p.sort();
      r = [before, p.toString()];
    } else {
      const u = new URL(c.url);
      u[c.op] = c.value;
      r = [u.href, u.origin];
    }
  } catch (e) { r = ['error']; }
  out.push(JSON.stringify(r));
});
rl.on('close', () => process.stdout.write(out.join('\n') + '\n'));
"#;

/// The setters the API test runs.
const SETTERS: [&str; 10] = [
    "href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search",
    "hash",
];

/// Values the setters get besides the mutation pieces.
const VALUES: &[&str] = &[
    "",
    "https",
    "http:",
    "ftp",
    "file",
    "ws:x",
    "javascript",
    "mailto:",
    "HTTPS:",
    "a+b-c.d:",
    "user",
    "p@ss:w/rd",
    "example.com",
    "EXAMPLE.com:8080",
    "[::1]",
    "[::1]:1",
    "1.2.3.4",
    "0x7f.1",
    "xn--nxasmq6b",
    "\u{c9}xample.com",
    "a b",
    "a/b",
    "a?b",
    "a#b",
    "a\\b",
    "8080",
    "0",
    "80",
    "443",
    "65535",
    "65536",
    "-1",
    "8080abc",
    "/a/../b",
    "c:/x",
    "C|",
    "//x/y",
    "?q=1&r=2",
    "q=%zz",
    "#frag",
    "\u{1f600}",
    "%41%",
    "\t\n",
    "\u{0}",
    "a\u{200d}b",
];

/// urlsift's side of the API test, in the script's format.
fn api_ours(url: &str, op: &str, value: &str) -> Vec<String> {
    if op == "params" {
        let mut p = UrlSearchParams::parse(value);
        let before = p.to_string();
        p.sort();
        return vec![before, p.to_string()];
    }
    let mut u = Url::parse(url).expect("cases are valid URLs");
    // The reference throws where setting href fails; the others never do.
    if op == "href" {
        if u.set_href(value).is_err() {
            return vec!["error".to_string()];
        }
    } else {
        common::set(&mut u, op, value);
    }
    vec![u.href().to_string(), u.origin().to_string()]
}

#[test]
#[ignore = "needs Node.js and the whatwg-url package: run scripts/reference-tests"]
fn setters_and_search_params_agree_with_the_reference_implementation() {
    let mut rng = Rng::new();
    let value = |rng: &mut Rng| -> String {
        match rng.below(3) {
            0 => PIECES[rng.below(PIECES.len())].to_string(),
            1 => VALUES[rng.below(VALUES.len())].to_string(),
            _ => {
                let base = VALUES[rng.below(VALUES.len())];
                mutate(rng, base)
            }
        }
    };
    // Every 60th corpus line that parses, and every setter on it twice;
    // its query (and a mutation of it) as URLSearchParams input.
    let mut cases: Vec<(String, &str, String)> = Vec::new();
    for file in common::corpus_files() {
        let bytes = std::fs::read(&file).expect("read corpus");
        let text = String::from_utf8_lossy(&bytes);
        for line in text.lines() {
            if rng.below(60) != 0 {
                continue;
            }
            let Ok(url) = Url::parse(line) else { continue };
            let href = url.href().to_string();
            for op in SETTERS {
                for _ in 0..2 {
                    cases.push((href.clone(), op, value(&mut rng)));
                }
            }
            let query = url.search().trim_start_matches('?').to_string();
            let mutated = mutate(&mut rng, &query);
            cases.push((href.clone(), "params", query));
            cases.push((href, "params", mutated));
        }
    }
    assert!(cases.len() > 100_000, "only {} cases", cases.len());
    let input: String = cases
        .iter()
        .map(|(url, op, value)| {
            serde_json::json!({ "url": url, "op": op, "value": value }).to_string() + "\n"
        })
        .collect();
    let mut child = Command::new("node")
        .args(["-e", API_SCRIPT])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start node (scripts/reference-tests needs Node.js)");
    let mut stdin = child.stdin.take().expect("stdin");
    let feeder = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("node");
    feeder.join().unwrap().expect("write the cases");
    assert!(
        out.status.success(),
        "node failed (is the whatwg-url package on NODE_PATH? scripts/reference-tests): {}",
        out.status
    );
    let theirs: Vec<Vec<String>> = String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(theirs.len(), cases.len(), "one answer per case");
    let mut differ = Vec::new();
    let mut by_op = std::collections::BTreeMap::<&str, usize>::new();
    for ((url, op, value), theirs) in cases.iter().zip(&theirs) {
        *by_op.entry(op).or_default() += 1;
        let ours = api_ours(url, op, value);
        if &ours != theirs {
            differ.push(format!(
                "{url:?} .{op} = {value:?}: ours {ours:?}, whatwg-url {theirs:?}"
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} cases differ:\n{}",
        differ.len(),
        cases.len(),
        differ[..differ.len().min(20)].join("\n")
    );
    eprintln!(
        "{} setter and URLSearchParams cases agree ({by_op:?})",
        cases.len()
    );
}

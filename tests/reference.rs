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
//! A third resolves the links of generated pages as `urlsift links` does
//! (`urlsift_links::Page`: the first `<base href>` against the page's URL,
//! each link against that base) and compares with the package's `URL`.
//!
//! Ignored by default, since it needs Node.js and the package:
//! `scripts/reference-tests` installs the release it pins into
//! `target/reference` and runs this with `NODE_PATH` pointing there (CI
//! does). Without the package the comparison fails with the reason.

#[path = "../crates/urlsift/tests/common/mod.rs"]
mod common;

use std::io::Write;
use std::path::Path;
use std::process::Command;

use common::Rng;
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
    let theirs: Vec<Vec<String>> = node_json_lines(API_SCRIPT, input);
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

/// Resolves each case's links as a browser resolves a document's: the
/// base is the first `<base href>` parsed against the page's URL (the
/// page's URL when there is none, it fails, or it is a `data:` or
/// `javascript:` URL, as the HTML standard's frozen base URL falls back),
/// each link parsed against it; `null` where a link does not parse.
const LINKS_SCRIPT: &str = r#"
'use strict';
const { URL } = require('whatwg-url');
const rl = require('readline').createInterface({ input: process.stdin, crlfDelay: Infinity });
const parse = (s, b) => { try { return new URL(s, b); } catch (e) { return null; } };
rl.on('line', (line) => {
  const c = JSON.parse(line);
  const page = new URL(c.page);
  const given = c.base === null ? null : parse(c.base, page);
  const base = given && !['data:', 'javascript:'].includes(given.protocol) ? given : page;
  process.stdout.write(JSON.stringify(c.links.map((l) => { const u = parse(l, base); return u && u.href; })) + '\n');
});
"#;

/// HTML attribute text for `value` (double-quoted).
fn attribute_text(value: &str) -> String {
    value.replace('&', "&amp;").replace('"', "&quot;")
}

/// `urlsift links`' resolution (`urlsift_links::Page`) against the
/// reference implementation: generated pages (corpus URLs as page URLs, a
/// `<base href>` or none, corpus lines, relative pieces and hostile
/// mutations as links, written into the HTML with character references)
/// must resolve every link to the same URL, or fail alike.
#[test]
#[ignore = "needs Node.js and the whatwg-url package: scripts/reference-tests"]
fn link_resolution_against_base_agrees_with_the_reference_implementation() {
    use urlsift_links::{Kinds, Page};
    let mut rng = Rng::new();
    let mut lines = Vec::new();
    for file in common::corpus_files() {
        let bytes = std::fs::read(&file).expect("read corpus");
        for line in String::from_utf8_lossy(&bytes).lines() {
            if rng.below(97) == 0 {
                lines.push(line.to_string());
            }
        }
    }
    // The HTML input stream turns CR into LF and NUL into U+FFFD: values
    // with them are not what the page says; leave them out.
    let clean = |s: String| s.replace(['\r', '\0'], "");
    let relative = [
        "",
        ".",
        "..",
        "../x",
        "./a/../b",
        "?q=1",
        "#f",
        "//h.example/p",
        "/abs",
        "x y",
        "\\\\a\\b",
        "%2e%2E/",
        "::",
        "a:b",
    ];
    let mut cases = Vec::new();
    for (i, page) in lines.iter().enumerate() {
        if Url::parse(page).is_err() {
            continue;
        }
        let base = match rng.below(4) {
            0 => None,
            1 => Some(relative[rng.below(relative.len())].to_string()),
            2 => Some(clean(lines[rng.below(lines.len())].clone())),
            _ => Some(clean(mutate(&mut rng, &lines[(i + 1) % lines.len()]))),
        };
        let links: Vec<String> = (0..8)
            .map(|_| match rng.below(3) {
                0 => relative[rng.below(relative.len())].to_string(),
                1 => clean(lines[rng.below(lines.len())].clone()),
                _ => {
                    let piece = relative[rng.below(relative.len())];
                    clean(mutate(&mut rng, piece))
                }
            })
            .collect();
        cases.push((page.clone(), base, links));
    }
    assert!(cases.len() > 5_000, "only {} pages", cases.len());
    let input: String = cases
        .iter()
        .map(|(page, base, links)| {
            serde_json::json!({ "page": page, "base": base, "links": links }).to_string() + "\n"
        })
        .collect();
    let theirs: Vec<Vec<Option<String>>> = node_json_lines(LINKS_SCRIPT, input);
    assert_eq!(theirs.len(), cases.len(), "one answer per page");
    let mut differ = Vec::new();
    let mut links = 0;
    for ((page, base, values), theirs) in cases.iter().zip(&theirs) {
        let mut html = String::from("<!doctype html><html><head>");
        if let Some(b) = base {
            html.push_str(&format!("<base href=\"{}\">", attribute_text(b)));
        }
        html.push_str("</head><body>");
        for v in values {
            html.push_str(&format!("<a href=\"{}\">x</a>\n", attribute_text(v)));
        }
        let doc = Page::from_html(html.as_bytes(), page, None, &Kinds::parse("a").unwrap());
        let ours: Vec<Option<String>> = doc
            .resolve()
            .map(|l| l.to.ok().map(|u| u.href().to_string()))
            .collect();
        links += ours.len();
        if &ours != theirs {
            differ.push(format!(
                "page {page:?} base {base:?} links {values:?}: ours {ours:?}, whatwg-url {theirs:?}"
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} pages differ:\n{}",
        differ.len(),
        cases.len(),
        differ[..differ.len().min(10)].join("\n")
    );
    eprintln!(
        "{} pages, {links} links resolve as whatwg-url resolves them",
        cases.len()
    );
}

/// Runs `script` in Node.js with `input` on its standard input and reads
/// one JSON value per output line.
fn node_json_lines<T: serde::de::DeserializeOwned>(script: &str, input: String) -> Vec<T> {
    let mut child = Command::new("node")
        .args(["-e", script])
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
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect()
}

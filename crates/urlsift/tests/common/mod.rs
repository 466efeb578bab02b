//! Shared helpers for integration tests: where the shared data lives.
//!
//! Web-platform-tests data defaults to `../shared/wpt` beside the workspace and
//! the corpora to `../shared/corpora`; `URLSIFT_WPT_DIR` and
//! `URLSIFT_CORPORA_DIR` point elsewhere. A missing directory fails the test
//! loudly: a conformance suite that silently skips proves nothing.

#![allow(dead_code)]

pub mod psl;
pub mod shapes;
pub mod spec;

use std::path::PathBuf;

use urlsift::Url;

/// The names of the `URL` getters, in the order [`getters`] returns them.
pub const GETTERS: [&str; 10] = [
    "href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search",
    "hash",
];

/// urlsift's values of the [`GETTERS`].
pub fn getters(u: &Url) -> [&str; 10] {
    [
        u.href(),
        u.protocol(),
        u.username(),
        u.password(),
        u.host(),
        u.hostname(),
        u.port(),
        u.pathname(),
        u.search(),
        u.hash(),
    ]
}

/// The `ada-url` crate's values of the [`GETTERS`].
pub fn ada_getters(u: &ada_url::Url) -> [&str; 10] {
    [
        u.href(),
        u.protocol(),
        u.username(),
        u.password(),
        u.host(),
        u.hostname(),
        u.port(),
        u.pathname(),
        u.search(),
        u.hash(),
    ]
}

/// One getter by name ("origin" included).
pub fn getter(u: &Url, name: &str) -> String {
    if name == "origin" {
        return u.origin().to_string();
    }
    let i = GETTERS
        .iter()
        .position(|g| *g == name)
        .unwrap_or_else(|| panic!("unknown getter {name}"));
    getters(u)[i].to_string()
}

/// One setter by name; `href` ignores a failure, as the WPT tests expect.
pub fn set(u: &mut Url, name: &str, value: &str) {
    match name {
        "href" => {
            let _ = u.set_href(value);
        }
        "protocol" => u.set_protocol(value),
        "username" => u.set_username(value),
        "password" => u.set_password(value),
        "host" => u.set_host(value),
        "hostname" => u.set_hostname(value),
        "port" => u.set_port(value),
        "pathname" => u.set_pathname(value),
        "search" => u.set_search(value),
        "hash" => u.set_hash(value),
        other => panic!("unknown setter {other}"),
    }
}

/// The workspace's root (the command's crate), which every crate's tests
/// share: the shared data defaults to `../shared` beside it.
pub fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .find(|dir| dir.join("crates").is_dir() && dir.join("Cargo.lock").is_file())
        .unwrap_or(&manifest)
        .to_path_buf()
}

fn shared_dir(var: &str, default: &str) -> PathBuf {
    let dir = match std::env::var_os(var) {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join(default),
    };
    assert!(
        dir.is_dir(),
        "test data directory {} is missing: put the shared data beside the crate \
         or set {var} to its location",
        dir.display()
    );
    dir
}

/// The web-platform-tests URL data directory.
pub fn wpt_dir() -> PathBuf {
    shared_dir("URLSIFT_WPT_DIR", "../shared/wpt")
}

/// The real-world URL corpora directory.
pub fn corpora_dir() -> PathBuf {
    shared_dir("URLSIFT_CORPORA_DIR", "../shared/corpora")
}

/// Reads and parses one WPT JSON file.
pub fn wpt_json(name: &str) -> serde_json::Value {
    let path = wpt_dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let text = replace_lone_surrogates(&text);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad JSON in {}: {e}", path.display()))
}

/// Rewrites JSON `\uXXXX` escapes of unpaired surrogates to `\uFFFD`, as a
/// JavaScript USVString conversion does (serde_json rejects them).
fn replace_lone_surrogates(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let hex4 = |i: usize| -> Option<u32> {
        let h = text.get(i..i + 4)?;
        u32::from_str_radix(h, 16).ok()
    };
    let mut i = 0;
    let mut last = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        if b.get(i + 1) != Some(&b'u') {
            i += 2;
            continue;
        }
        let Some(unit) = hex4(i + 2) else {
            i += 2;
            continue;
        };
        let is_high = (0xD800..0xDC00).contains(&unit);
        let is_low = (0xDC00..0xE000).contains(&unit);
        let paired = is_high
            && b.get(i + 6) == Some(&b'\\')
            && b.get(i + 7) == Some(&b'u')
            && hex4(i + 8).is_some_and(|u| (0xDC00..0xE000).contains(&u));
        if paired {
            i += 12;
        } else if is_high || is_low {
            out.push_str(&text[last..i]);
            out.push_str("\\uFFFD");
            i += 6;
            last = i;
        } else {
            i += 6;
        }
    }
    out.push_str(&text[last..]);
    out
}

/// The test cases of one WPT JSON file: its object entries (the strings
/// between them are comments).
pub fn wpt_cases(name: &str) -> Vec<serde_json::Map<String, serde_json::Value>> {
    let serde_json::Value::Array(entries) = wpt_json(name) else {
        panic!("{name}: expected a JSON array");
    };
    entries
        .into_iter()
        .filter_map(|entry| match entry {
            serde_json::Value::Object(case) => Some(case),
            _ => None,
        })
        .collect()
}

/// Every corpus file (`*.txt`), sorted by name.
pub fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpora_dir())
        .expect("read corpora dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus files found");
    files
}

/// Compares `failures` with the ratchet file `tests/expected/<name>`: every
/// failure must be listed (with a reason), and every listed case must still
/// fail, so fixing one forces its removal.
pub fn ratchet(name: &str, failures: &[String]) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/expected")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let expected: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split(" ## ").next().unwrap_or(l))
        .collect();
    let unexpected: Vec<&String> = failures
        .iter()
        .filter(|f| !expected.contains(&f.as_str()))
        .collect();
    let fixed: Vec<&&str> = expected
        .iter()
        .filter(|e| !failures.iter().any(|f| f == **e))
        .collect();
    assert!(
        unexpected.is_empty() && fixed.is_empty(),
        "{name}: {} unexpected failure(s):\n{}\n{} listed case(s) now pass (remove them from {}):\n{}",
        unexpected.len(),
        unexpected
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        fixed.len(),
        path.display(),
        fixed.iter().map(|s| **s).collect::<Vec<_>>().join("\n"),
    );
}

/// Real crawl files written by web-archiving projects (WARC, CDXJ, ...).
pub fn crawl_samples_dir() -> PathBuf {
    shared_dir("URLSIFT_CRAWL_SAMPLES_DIR", "../shared/crawl-samples")
}

/// Other projects' canonicalization test vectors (urlcanon's).
pub fn canon_dir() -> PathBuf {
    shared_dir("URLSIFT_CANON_DIR", "../shared/canon")
}

/// The html5lib-tests directory (tokenizer and encoding test data).
pub fn html5lib_dir() -> PathBuf {
    shared_dir("URLSIFT_HTML5LIB_DIR", "../shared/html5lib-tests")
}

/// A deterministic generator for generated test inputs: the same sequence
/// every run (proptest's ChaCha test RNG).
pub struct Rng(proptest::test_runner::TestRng);

impl Rng {
    pub fn new() -> Rng {
        use proptest::test_runner::{RngAlgorithm, TestRng};
        Rng(TestRng::deterministic_rng(RngAlgorithm::ChaCha))
    }

    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        use proptest::prelude::RngCore;
        (self.0.next_u64() % n as u64) as usize
    }

    /// One of `xs`.
    pub fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

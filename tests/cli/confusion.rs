//! `urlsift compare` against parsers of other families, run for real
//! (CPython's `urllib.parse`, Java's `java.net.URI`, libcurl's URL API:
//! this project's machines and CI have all three; a test that finds one
//! missing fails and says so): what each reads on each class of URL
//! parsing confusion, pinned line by line; the host confusion report on
//! `corpora/confusion.txt` in text, JSON, `--diff-out` and HTML; timing;
//! and a missing peer, said, never skipped.

use std::path::Path;

use serde_json::Value;

use crate::workdir::*;

const PEERS: &str = "python,java,curl";

/// What a peer makes of a line, as a pin: the same reading as urlsift
/// (`Same`), another host (or none), or a rejection.
#[derive(Debug, PartialEq)]
enum Reads {
    Same,
    Host(&'static str, &'static str),
    NoHost(&'static str),
    Invalid(&'static str),
}
use Reads::*;

/// java.net.URI's refusal of a character in the authority.
const JAVA_AUTHORITY: &str = "Illegal character in authority";
/// libcurl's refusal of a host.
const CURL_HOST: &str = "Bad hostname";

/// Each class's lines and what python, java and curl make of each
/// (`Host(class, host)`: another host than urlsift, in that class;
/// `Invalid(message)`: the parser refuses it, with its message).
#[rustfmt::skip]
const PINS: &[(&str, [Reads; 3])] = &[
    // backslash: urlsift reads the host before `\`, python and curl the
    // one after `@`; java refuses the character.
    (r"http://good.example\@evil.example/", [Host("backslash", "evil.example"), Invalid(JAVA_AUTHORITY), Host("backslash", "evil.example")]),
    (r"http://good.example:80\@evil.example:80/", [Host("backslash", "evil.example"), Invalid(JAVA_AUTHORITY), Host("backslash", "evil.example")]),
    // userinfo: one `@`, every parser agrees; two, java sees no host and
    // curl refuses it.
    ("http://good.example@evil.example/", [Same, Same, Same]),
    ("http://a@good.example@evil.example/", [Same, NoHost("userinfo"), Invalid(CURL_HOST)]),
    // delimiter before @: the fragment or query wins everywhere.
    ("http://good.example#@evil.example/", [Same, Same, Same]),
    ("http://good.example?@evil.example/", [Same, Same, Same]),
    // IPv4 forms: the standard reads numbers, python and java a name (or,
    // java, none); curl reads them as the standard does, but a last dot.
    ("http://0x7f.1/", [Host("IPv4 form", "0x7f.1"), NoHost("IPv4 form"), Same]),
    ("http://2130706433/", [Host("IPv4 form", "2130706433"), Host("IPv4 form", "2130706433"), Same]),
    ("http://127.0.0.1./", [Host("IPv4 form", "127.0.0.1."), NoHost("IPv4 form"), Host("IPv4 form", "127.0.0.1.")]),
    // percent-encoded delimiters: `%2e` is a dot to the standard.
    ("http://good.example%2eevil.example/", [Host("percent-encoded delimiter", "good.example%2eevil.example"), NoHost("percent-encoded delimiter"), Same]),
    ("http://good.example%2f@evil.example/", [Same, Same, Same]),
    // control or space: a tab is dropped by the standard and python.
    ("http://evil.example\t.good.example/", [Same, Invalid(JAVA_AUTHORITY), Invalid(CURL_HOST)]),
    // the scheme's slashes.
    ("http:/evil.example/", [NoHost("scheme slashes"), NoHost("scheme slashes"), Same]),
    ("http:evil.example/", [NoHost("scheme slashes"), NoHost("scheme slashes"), Invalid("Unsupported number of slashes following scheme")]),
    (r"http://\\evil.example/", [Host("scheme slashes", r"\\evil.example"), Invalid(JAVA_AUTHORITY), Invalid(CURL_HOST)]),
    // IDNA: fullwidth letters map to ASCII (java sees no host); fullwidth
    // digits make an IPv4 address only to the standard.
    ("http://ｅvil.example/", [Same, NoHost("IDNA"), Same]),
    ("http://１２７.０.０.１/", [Host("IDNA", "１２７.０.０.１"), NoHost("IDNA"), Host("IDNA", "１２７.０.０.１")]),
    // ports and IPv6 written other ways: the same server.
    ("http://evil.example:080/", [Same, Same, Same]),
    ("http://[::ffff:7f00:1]/", [Same, Same, Same]),
];

/// The `--diff-out` lines of a run, by (line, parser).
fn diff_lines(wd: &Workdir, file: &str) -> Vec<Value> {
    let out = wd.run(
        &[
            "compare",
            "-q",
            "--parsers",
            PEERS,
            "--rounds",
            "0",
            "--diff-out",
            "diffs.jsonl",
            file,
        ],
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "compare failed (are python3, java and libcurl installed?): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(wd.read("diffs.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn each_peer_reads_each_class_as_pinned() {
    let wd = Workdir::new();
    let input: String = PINS.iter().map(|(u, _)| format!("{u}\n")).collect();
    wd.create("pins.txt", &input);
    let diffs = diff_lines(&wd, "pins.txt");
    for (i, (url, expected)) in PINS.iter().enumerate() {
        for (peer, want) in ["python", "java", "curl"].into_iter().zip(expected) {
            let found = diffs
                .iter()
                .find(|d| d["line"] == i as u64 + 1 && d["parser"] == peer);
            let got = match found {
                None => Same,
                Some(d) => {
                    let reason = d["reason"].as_str().unwrap().to_string().leak() as &'static str;
                    match (d["category"].as_str().unwrap(), d["peer"].get("error")) {
                        ("validity", Some(_)) => Invalid(reason),
                        ("host", None) => match d["peer"]["hostname"].as_str() {
                            Some(h) if !h.is_empty() => Host(reason, h.to_string().leak()),
                            _ => NoHost(reason),
                        },
                        // (Another part differs; the host is the same.)
                        ("scheme" | "userinfo" | "path" | "query" | "fragment", None) => Same,
                        (category, _) => panic!("{url:?}: {peer}: unexpected {category} {d}"),
                    }
                }
            };
            assert_eq!(&got, want, "{url:?}: {peer}");
        }
    }
}

/// The host confusion report on our own corpus: every peer reads another
/// host on some lines, by the classes the corpus is built of.
#[test]
fn confusion_corpus_report() {
    let wd = Workdir::new();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/confusion.txt");
    let corpus = corpus.to_str().unwrap();
    let text = wd.stdout(&[
        "compare",
        "--parsers",
        PEERS,
        "--rounds",
        "0",
        "--samples",
        "1",
        corpus,
    ]);
    let at = text
        .find("\nhost confusion\n")
        .expect("a host confusion section");
    assert!(
        at < text.find("disagreements with urlsift").unwrap(),
        "the host confusion section leads: {text}"
    );
    assert!(
        text.contains(" comments"),
        "comment lines are counted: {text}"
    );
    for peer in ["python", "java", "curl"] {
        assert!(
            text.contains(&format!("\n{peer}: ")),
            "{peer} names another host somewhere: {text}"
        );
    }
    let json = wd.stdout(&[
        "compare",
        "--json",
        "--parsers",
        PEERS,
        "--rounds",
        "0",
        corpus,
    ]);
    let v: Value = serde_json::from_str(&json).unwrap();
    let confusion = v["host_confusion"].as_array().unwrap();
    assert_eq!(confusion.len(), 3);
    let peer = |name: &str| confusion.iter().find(|p| p["parser"] == name).unwrap();
    // The classes the pins show, seen on the whole corpus too.
    let lines = |name: &str, class: &str| {
        peer(name)["categories"][class]["lines"]
            .as_u64()
            .unwrap_or(0)
    };
    for (name, class, at_least) in [
        ("python", "backslash", 6),
        ("curl", "backslash", 6),
        ("python", "IPv4 form", 21),
        ("java", "IDNA", 11),
    ] {
        assert!(lines(name, class) >= at_least, "{name} {class}: {json}");
    }
    assert!(peer("java")["only_urlsift_accepts"].as_u64().unwrap() > 10);
    for p in confusion {
        let by_class: u64 = p["categories"]
            .as_object()
            .unwrap()
            .values()
            .map(|c| c["lines"].as_u64().unwrap())
            .sum();
        assert_eq!(by_class, p["lines"].as_u64().unwrap(), "{p}");
        assert!(p["version"].as_str().is_some_and(|v| v != "?"), "{p}");
        let sample = &p["categories"]
            .as_object()
            .unwrap()
            .values()
            .next()
            .unwrap()["samples"][0];
        assert!(sample["urlsift"]["hostname"].is_string(), "{sample}");
    }
}

/// Each peer is timed in its own process (or, for curl, this one) over
/// the same URLs, and did the work its differential pass found.
#[test]
fn other_families_are_timed_with_their_work_checked() {
    let wd = Workdir::new();
    let urls: String = (0..3000)
        .map(|i| format!("https://h{}.example/p/{i}?q={}\n", i % 37, i % 5))
        .collect();
    wd.create("urls.txt", &urls);
    let json = wd.stdout(&[
        "compare",
        "--json",
        "--parsers",
        PEERS,
        "--rounds",
        "2",
        "urls.txt",
    ]);
    let v: Value = serde_json::from_str(&json).unwrap();
    for name in ["python", "java", "curl"] {
        let p = v["parsers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap();
        assert_eq!(p["valid"], 3000, "{p}");
        assert_eq!(p["work_ok"], true, "{p}");
        assert!(p["ns_per_url"].as_f64().unwrap() > 0.0, "{p}");
    }
}

/// A peer that is not on the machine is said, with what would bring it:
/// an error when named, a line of the report under `all`.
#[test]
fn a_missing_peer_is_said_never_skipped() {
    let wd = Workdir::new();
    wd.create("u.txt", "https://example.com/\n");
    let bin = Path::new(env!("CARGO_BIN_EXE_urlsift"));
    let run = |parsers: &str| {
        std::process::Command::new(bin)
            .args(["compare", "--rounds", "0", "--parsers", parsers, "u.txt"])
            .current_dir(wd.path(""))
            .env("PATH", "/nonexistent")
            .output()
            .unwrap()
    };
    for (peer, program) in [("python", "python3"), ("java", "java"), ("node", "node")] {
        let out = run(peer);
        assert_eq!(out.status.code(), Some(2), "{peer}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("{program} is not on PATH")),
            "{peer}: {err}"
        );
    }
    let out = run("all");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for peer in ["node", "python", "java"] {
        assert!(
            text.contains(&format!("not on this machine: {peer}: ")),
            "{peer}: {text}"
        );
    }
}

/// `--base` is the standard's resolution, which these parsers do not
/// share: refused, with the reason.
#[test]
fn base_is_refused_for_other_families() {
    let wd = Workdir::new();
    wd.create("u.txt", "/a\n");
    let out = wd.run(
        &[
            "compare",
            "--parsers",
            "curl",
            "--base",
            "https://e.com/",
            "u.txt",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--base: the curl parser"));
}

/// The HTML page has the parsers × classes matrix.
#[test]
fn html_has_the_host_confusion_matrix() {
    let wd = Workdir::new();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/confusion.txt");
    wd.stdout(&[
        "compare",
        "-q",
        "--parsers",
        PEERS,
        "--rounds",
        "1",
        "--html",
        "report.html",
        corpus.to_str().unwrap(),
    ]);
    let page = String::from_utf8(wd.read("report.html")).unwrap();
    let matrix = &page[page.find("id=\"host-confusion\"").expect("the matrix")..];
    let matrix = &matrix[..matrix.find("</table>").unwrap()];
    for class in ["backslash", "IPv4 form", "scheme slashes", "IDNA", "port"] {
        assert!(matrix.contains(&format!("<th>{class}</th>")), "{class}");
    }
    assert_eq!(matrix.matches("<tr><td>").count(), 3, "a row per peer");
    assert!(
        matrix.contains("class=\"n hit\""),
        "cells with lines are marked"
    );
}

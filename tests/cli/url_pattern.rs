//! `--match`, `--not-match`, `--match-file`, `--not-match-file`,
//! `--match-base`, `--match-ignore-case` (URL Pattern filters) on every
//! subcommand with filters, and `extract`'s `match_line` and
//! `match:NAME` fields. The patterns themselves are held to
//! web-platform-tests in crates/urlsift/tests/urlpattern.

use crate::workdir::{Workdir, stderr};

const URLS: &str = "https://www.example.com/news/a\n\
    https://example.org/x\n\
    https://shop.example.com/products/42?x\n\
    not a url\n\
    http://www.example.com/NEWS/b\n";

#[test]
fn match_keeps_any_and_not_match_drops_any() {
    let wd = Workdir::new();
    wd.create("u.txt", URLS);
    let out = wd.run(
        &[
            "normalize",
            "--match",
            "https://*.example.com/:section/*",
            "--match",
            "https://example.org/*",
            "u.txt",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "https://www.example.com/news/a\nhttps://example.org/x\nhttps://shop.example.com/products/42?x\n"
    );
    assert!(
        stderr(&out).contains("1 valid filtered out"),
        "{}",
        stderr(&out)
    );
    // A comma belongs to the pattern: --match is never split.
    let comma = wd.stdout(&["normalize", "--match", "https://example.org/x,y", "u.txt"]);
    assert_eq!(comma, "");
    let not = wd.stdout(&[
        "normalize",
        "--not-match",
        "https://*.example.com/*",
        "u.txt",
    ]);
    assert_eq!(
        not,
        "https://example.org/x\nhttp://www.example.com/NEWS/b\n"
    );
    let case = wd.stdout(&[
        "normalize",
        "--match",
        "http{s}?://*.example.com/news/*",
        "--match-ignore-case",
        "u.txt",
    ]);
    assert_eq!(
        case,
        "https://www.example.com/news/a\nhttp://www.example.com/NEWS/b\n"
    );
    let relative = wd.stdout(&[
        "normalize",
        "--match",
        "/products/:id",
        "--match-base",
        "https://shop.example.com",
        "u.txt",
    ]);
    assert_eq!(relative, "https://shop.example.com/products/42?x\n");
}

#[test]
fn match_applies_after_the_edits() {
    let wd = Workdir::new();
    wd.create("u.txt", URLS);
    let out = wd.stdout(&[
        "normalize",
        "--set",
        "protocol=https",
        "--match",
        "https://www.example.com/*",
        "u.txt",
    ]);
    assert_eq!(
        out,
        "https://www.example.com/news/a\nhttps://www.example.com/NEWS/b\n"
    );
}

#[test]
fn match_file_first_line_wins_in_the_fields() {
    let wd = Workdir::new();
    wd.create("u.csv", "url,title\nhttps://www.example.com/news/a,A\nhttps://example.org/x,B\nhttps://shop.example.com/products/42?x,C\n");
    wd.create("scope.txt", "# scope\nhttps://*.example.com/products/:id\n\nhttps://:sub.example.com/:section/*\nhttps://*\n");
    let out = wd.stdout(&[
        "extract",
        "--match-file",
        "scope.txt",
        "--fields",
        "href,match_line,match:id,match:section,match:sub,match:0",
        "u.csv",
    ]);
    assert_eq!(
        out,
        "href,match_line,match:id,match:section,match:sub,match:0\n\
         https://www.example.com/news/a,4,,news,www,a\n\
         https://example.org/x,5,,,,example.org\n\
         https://shop.example.com/products/42?x,2,42,,,shop\n"
    );
    // A --match flag's pattern comes first and has no line.
    let flag = wd.stdout(&[
        "extract",
        "--match",
        "https://example.org/*",
        "--match-file",
        "scope.txt",
        "--fields",
        "match_line",
        "u.csv",
    ]);
    // (a row of one empty field is written `""`, not as a blank line)
    assert_eq!(flag, "match_line\n4\n\"\"\n2\n");
    let none = wd.stdout(&["normalize", "--not-match-file", "scope.txt", "u.csv"]);
    assert_eq!(none, "url,title\n");
}

#[test]
fn match_on_dedup_stats_and_links() {
    let wd = Workdir::new();
    wd.create("u.txt", format!("{URLS}https://www.example.com/news/a\n"));
    let dedup = wd.stdout(&["dedup", "--match", "https://www.example.com/*", "u.txt"]);
    assert_eq!(dedup, "https://www.example.com/news/a\n");
    let stats = wd.stdout(&[
        "stats",
        "--json",
        "--match",
        "https://*.example.com/*",
        "u.txt",
    ]);
    assert!(stats.contains("\"filtered\": 2,"), "{stats}");
    wd.create(
        "p.html",
        "<a href=\"https://e.com/docs/a\">a</a><a href=\"https://e.com/blog/b\">b</a>",
    );
    let links = wd.run(
        &[
            "links",
            "--match",
            "https://e.com/docs/*",
            "--base",
            "https://e.com/",
            "p.html",
        ],
        None,
    );
    let text = String::from_utf8_lossy(&links.stdout);
    assert!(
        text.contains("https://e.com/docs/a") && !text.contains("blog"),
        "{text}{}",
        stderr(&links)
    );
}

#[test]
fn usage_errors_name_the_pattern_and_the_line() {
    let wd = Workdir::new();
    wd.create("u.txt", URLS);
    wd.create("bad.txt", "https://e.com/*\nhttps://e.com/:a/:a\n");
    let cases: [(&[&str], &str); 5] = [
        (
            &["normalize", "--match", "/docs/*", "u.txt"],
            "--match \"/docs/*\": a relative pattern needs a base URL",
        ),
        (
            &["normalize", "--match-file", "bad.txt", "u.txt"],
            "--match-file bad.txt:2: \"https://e.com/:a/:a\": the group name \"a\" is used twice",
        ),
        (
            &["normalize", "--match-base", "https://e.com", "u.txt"],
            "--match-base and --match-ignore-case apply to URL patterns",
        ),
        (
            &[
                "normalize",
                "--match",
                "https://e.com/:id((?<=a)b)",
                "u.txt",
            ],
            "lookaround, which urlsift's matcher does not support",
        ),
        (
            &["extract", "--fields", "match:id", "u.txt"],
            "the match:id field tells which URL pattern matched",
        ),
    ];
    for (args, message) in cases {
        let out = wd.run(args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?} wrote output");
    }
}

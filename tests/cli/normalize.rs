//! `normalize` and its profiles.

use crate::workdir::*;

#[test]
fn normalize_prints_hrefs_in_order() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        "HTTPS://Example.COM:443/a/./b/../c?x#f\nhttp://[::1]:80/\n  https://e.com/ sp  \nhttps://\u{00fc}ber.de/\n",
    );
    assert_eq!(
        wd.stdout(&["normalize", "in.txt"]),
        "https://example.com/a/c?x#f\nhttp://[::1]/\nhttps://e.com/%20sp\nhttps://xn--ber-goa.de/\n"
    );
}

/// Lines already in normal form are copied from the input in runs; the
/// runs must break around rewritten lines, CRLF lines, bad and empty lines
/// kept in place, a last line without newline, and NUL-terminated output.
#[test]
fn normalize_copies_runs_of_normal_lines_exactly() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        "https://a.com/1\nhttps://a.com/2\nHTTPS://B.com/3\nhttps://a.com/4\r\nhttps://a.com/5\n\
         \nhttp://[x/6\nhttps://a.com/7\nhttp://[y/9\nhttps://a.com/8",
    );
    assert_eq!(
        wd.stdout(&["normalize", "-q", "in.txt"]),
        "https://a.com/1\nhttps://a.com/2\nhttps://b.com/3\nhttps://a.com/4\nhttps://a.com/5\n\
         https://a.com/7\nhttps://a.com/8\n"
    );
    assert_eq!(
        wd.stdout(&["normalize", "-q", "--keep-invalid", "in.txt"]),
        "https://a.com/1\nhttps://a.com/2\nhttps://b.com/3\nhttps://a.com/4\nhttps://a.com/5\n\
         \nhttp://[x/6\nhttps://a.com/7\nhttp://[y/9\nhttps://a.com/8\n"
    );
    assert_eq!(
        wd.stdout(&["normalize", "-q", "-0", "in.txt"]),
        "https://a.com/1\0https://a.com/2\0https://b.com/3\0https://a.com/4\0https://a.com/5\0\
         https://a.com/7\0https://a.com/8\0"
    );
    // Profiles other than SURT work from the href: lines they leave alone
    // are copied in runs too, the others rewritten in place.
    wd.create(
        "frag.txt",
        "https://a.com/1\nhttps://a.com/2#x\nhttps://a.com/3?b&a\nhttps://a.com/4?a&b\nhttps://a.com/5\n",
    );
    assert_eq!(
        wd.stdout(&[
            "normalize",
            "-q",
            "--strip-fragment",
            "--sort-query",
            "frag.txt"
        ]),
        "https://a.com/1\nhttps://a.com/2\nhttps://a.com/3?a&b\nhttps://a.com/4?a&b\nhttps://a.com/5\n"
    );
    // Tiny chunks: every run is cut at chunk ends too.
    for size in ["1", "7", "20"] {
        assert_eq!(
            wd.stdout(&["normalize", "-q", "--chunk-size", size, "in.txt"]),
            "https://a.com/1\nhttps://a.com/2\nhttps://b.com/3\nhttps://a.com/4\nhttps://a.com/5\n\
             https://a.com/7\nhttps://a.com/8\n",
            "chunk size {size}"
        );
    }
}

#[test]
fn normalize_resolves_against_base() {
    let wd = Workdir::new();
    wd.create("paths.log", "/index.html?a=1\n../up\nhttps://other.org/x\n");
    assert_eq!(
        wd.stdout(&[
            "normalize",
            "--base",
            "https://example.com/dir/",
            "paths.log"
        ]),
        "https://example.com/index.html?a=1\nhttps://example.com/up\nhttps://other.org/x\n"
    );
    let bad = wd.run(&["normalize", "--base", "not a url", "paths.log"], None);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("--base"), "{}", stderr(&bad));
}

#[test]
fn normalize_profiles() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        "https://e.com/p?b=2&utm_source=x&a=1&b=1&FBCLID=z#frag\nhttps://e.com/q?utm_medium=m#f\nhttps://e.com/r?\n",
    );
    assert_eq!(
        wd.stdout(&["normalize", "--strip-fragment", "in.txt"]),
        "https://e.com/p?b=2&utm_source=x&a=1&b=1&FBCLID=z\nhttps://e.com/q?utm_medium=m\nhttps://e.com/r?\n"
    );
    assert_eq!(
        wd.stdout(&["normalize", "--sort-query", "in.txt"]),
        "https://e.com/p?FBCLID=z&a=1&b=2&b=1&utm_source=x#frag\nhttps://e.com/q?utm_medium=m#f\nhttps://e.com/r?\n"
    );
    assert_eq!(
        wd.stdout(&["normalize", "--strip-params", "utm_*,fbclid", "in.txt"]),
        "https://e.com/p?b=2&a=1&b=1#frag\nhttps://e.com/q#f\nhttps://e.com/r?\n"
    );
    let bad = wd.run(&["normalize", "--strip-params", "a,,b", "in.txt"], None);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn normalize_surt() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        "https://www.Example.com/Path?q=1#f\nhttp://u:p@a.b.example.org:8080/\nftp://example.org/f\nmailto:a@b.c\n",
    );
    // The archives' key: their canonicalization, then the host reversed.
    assert_eq!(
        wd.stdout(&["normalize", "--surt", "in.txt"]),
        "com,example)/path?q=1\norg,example,b,a:8080)/\norg,example)/f\nmailto:a@b.c\n"
    );
    assert_eq!(
        wd.stdout(&[
            "normalize",
            "--surt",
            "--surt-scheme",
            "--surt-trailing-comma",
            "in.txt"
        ]),
        "https://(com,example,)/path?q=1\nhttp://(org,example,b,a:8080,)/\nftp://(org,example,)/f\nmailto:a@b.c\n"
    );
    // The key without it.
    assert_eq!(
        wd.stdout(&["normalize", "--surt=plain", "in.txt"]),
        "com,example)/Path?q=1\norg,example,b,a:8080)/\nftp://(org,example)/f\nmailto:a@b.c\n"
    );
    let out = wd.run(
        &["normalize", "--surt=plain", "--surt-keep-www", "in.txt"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--surt=plain has none"),
        "{}",
        stderr(&out)
    );
}

/// Every URL profile is idempotent: its output, parsed and profiled again,
/// is unchanged. The SURT key is stable under prior normalization.
#[test]
fn profiles_are_idempotent_on_the_sample() {
    let wd = Workdir::new();
    let s = sample_str();
    let profiles: [&[&str]; 5] = [
        &[],
        &["--strip-fragment"],
        &["--sort-query"],
        &["--strip-params", "utm_*,fbclid,gclid,id"],
        &[
            "--sort-query",
            "--strip-params",
            "utm_*",
            "--strip-fragment",
        ],
    ];
    for flags in profiles {
        let mut args = vec!["normalize", "-q"];
        args.extend_from_slice(flags);
        let mut once_args = args.clone();
        once_args.push(&s);
        let once = wd.stdout(&once_args);
        assert!(once.lines().count() > 10_000);
        wd.create("once.txt", &once);
        let mut twice_args = args.clone();
        twice_args.push("once.txt");
        assert_eq!(
            wd.stdout(&twice_args),
            once,
            "profile {flags:?} is not idempotent"
        );
    }
    let normal = wd.stdout(&["normalize", "-q", &s]);
    wd.create("normal.txt", &normal);
    let direct = wd.stdout(&["normalize", "-q", "--keep-invalid", "--surt", &s]);
    let after = wd.stdout(&["normalize", "-q", "--surt", "normal.txt"]);
    let direct_valid: Vec<&str> = direct
        .lines()
        .zip(
            std::fs::read_to_string(sample())
                .unwrap()
                .lines()
                .map(String::from)
                .collect::<Vec<_>>(),
        )
        .filter(|(_, input)| urlsift::Url::parse(input).is_ok())
        .map(|(out, _)| out)
        .collect();
    assert_eq!(direct_valid, after.lines().collect::<Vec<_>>());
}

/// `--canonical safe-browsing` and the `sb_expressions` field: Google Safe
/// Browsing's form and lookup expressions; what the URL Standard rejects
/// stays a bad record, counted.
#[test]
fn safe_browsing_form_and_expressions() {
    let wd = Workdir::new();
    wd.create(
        "urls.txt",
        "http://host/%25%32%35\nhttp://www.GOOgle.com:1234/q?\nhttp://a.b.c/1/2.html?param=1\nwww.google.com/\n",
    );
    let out = wd.run(
        &["normalize", "--canonical", "safe-browsing", "urls.txt"],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "http://host/%25\nhttp://www.google.com/q?\nhttp://a.b.c/1/2.html?param=1\n"
    );
    assert!(stderr(&out).contains("1 bad"), "{}", stderr(&out));
    let jsonl = wd.stdout(&[
        "extract",
        "-q",
        "--jsonl",
        "--fields",
        "sb_expressions",
        "urls.txt",
    ]);
    let third = jsonl.lines().nth(2).unwrap();
    assert_eq!(
        third,
        "{\"sb_expressions\":[\"a.b.c/1/2.html?param=1\",\"a.b.c/1/2.html\",\"a.b.c/\",\"a.b.c/1/\",\
         \"b.c/1/2.html?param=1\",\"b.c/1/2.html\",\"b.c/\",\"b.c/1/\"]}"
    );
    let text = wd.stdout(&["extract", "-q", "--format", "{sb_expressions}", "urls.txt"]);
    assert_eq!(text.lines().next().unwrap(), "host/%25 host/");
    let out = wd.run(
        &[
            "normalize",
            "--canonical",
            "safe-browsing",
            "--surt",
            "urls.txt",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "one form at a time");
}

/// `--surt=ssurt`: urlcanon's SSURT form, after the query steps; none of
/// the archives' key options go with it.
#[test]
fn ssurt_form_after_the_query_steps() {
    let w = Workdir::new();
    w.create(
        "u.txt",
        "http://user@foo.example.org:81/path?b=2&a=1#frag\nfile:///x/y\n",
    );
    let out = w.stdout(&["normalize", "--surt=ssurt", "--sort-query", "-q", "u.txt"]);
    assert_eq!(
        out,
        "org,example,foo,//81:http@user:/path?a=1&b=2#frag\nfile:///x/y\n"
    );
    let out = w.stdout(&[
        "normalize",
        "--surt=ssurt",
        "--strip-fragment",
        "-q",
        "u.txt",
    ]);
    assert_eq!(
        out.lines().next(),
        Some("org,example,foo,//81:http@user:/path?b=2&a=1")
    );
    // extract's `ssurt` field is the same form.
    let field = w.stdout(&[
        "extract",
        "--fields",
        "ssurt",
        "--no-header",
        "--tsv",
        "-q",
        "u.txt",
    ]);
    let normal = w.stdout(&["normalize", "--surt=ssurt", "-q", "u.txt"]);
    assert_eq!(field, normal);
    let out = w.run(
        &["normalize", "--surt=ssurt", "--surt-keep-www", "u.txt"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--surt=ssurt has none"),
        "{}",
        stderr(&out)
    );
}

//! `--canonical w3lib`: w3lib's form of each line's raw text (a line the
//! URL Standard rejects still has one), a text w3lib refuses a reject of
//! its own reason, the options only with it, and dedup keyed by the form.
//! python/tests/test_canonical.py holds the forms to w3lib itself.

use crate::workdir::{Workdir, stderr};

const LINES: &str = "http://www.example.com/do?c=3&b=5&b=2&a=50\n\
    HTTP://Example.COM:8080/a b?q=a+b&p#frag\n\
    http://a.com:99999/\n\
    foo.com/a b\n";

#[test]
fn w3lib_form_of_each_text_and_refusals_as_rejects() {
    let wd = Workdir::new();
    wd.create("u.txt", LINES);
    let out = wd.run(
        &[
            "normalize",
            "--canonical",
            "w3lib",
            "--rejects",
            "bad.tsv",
            "u.txt",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "http://www.example.com/do?a=50&b=2&b=5&c=3\n\
         http://example.com:8080/a%20b?p=&q=a+b\n\
         foo.com/a%20b\n"
    );
    let rejects = std::fs::read_to_string(wd.path("bad.tsv")).unwrap();
    assert!(
        rejects.contains("\t3\t") && rejects.contains("refuses its port\thttp://a.com:99999/"),
        "{rejects}"
    );
    let options = wd.stdout(&[
        "normalize",
        "--canonical",
        "w3lib",
        "--w3lib-keep-fragments",
        "--w3lib-drop-blank-values",
        "u.txt",
    ]);
    assert_eq!(
        options.lines().nth(1),
        Some("http://example.com:8080/a%20b?q=a+b#frag")
    );
}

#[test]
fn w3lib_form_in_a_csv_field_and_with_filters() {
    let wd = Workdir::new();
    wd.create(
        "u.csv",
        "id,url\n1,http://a.com/?b=1&a=2\n2,http://b.org/x?z\n3,nota url\n",
    );
    let csv = wd.stdout(&["normalize", "--canonical", "w3lib", "u.csv"]);
    assert_eq!(
        csv,
        "id,url\n1,http://a.com/?a=2&b=1\n2,http://b.org/x?z=\n3,nota%20url\n"
    );
    // A filter judges the URL the standard parses: a text it rejects is bad.
    let out = wd.run(
        &[
            "normalize",
            "--canonical",
            "w3lib",
            "--site",
            "a.com",
            "u.csv",
        ],
        None,
    );
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "id,url\n1,http://a.com/?a=2&b=1\n"
    );
    assert!(stderr(&out).contains("1 bad"), "{}", stderr(&out));
}

#[test]
fn dedup_keys_by_the_w3lib_form() {
    let wd = Workdir::new();
    wd.create(
        "d.txt",
        "http://a.com/?b=1&a=2\nhttp://a.com/?a=2&b=1#x\nfoo.com/a b\nfoo.com/a%20b\nhttp://a.com:x/\n",
    );
    let counted = wd.stdout(&["dedup", "--canonical", "w3lib", "--count", "d.txt"]);
    assert_eq!(
        counted,
        "      2 http://a.com/?a=2&b=1\n      2 foo.com/a%20b\n"
    );
}

#[test]
fn usage_errors_name_what_does_not_go_with_w3lib() {
    let wd = Workdir::new();
    wd.create("u.txt", LINES);
    for (args, says) in [
        (
            &["normalize", "--canonical", "w3lib", "--sort-query", "u.txt"][..],
            "take none of",
        ),
        (
            &["normalize", "--w3lib-keep-fragments", "u.txt"][..],
            "options of --canonical w3lib",
        ),
        (
            &[
                "normalize",
                "--canonical",
                "w3lib",
                "--base",
                "http://e.com/",
                "u.txt",
            ][..],
            "--base",
        ),
        (
            &[
                "normalize",
                "--canonical",
                "w3lib",
                "--set",
                "port=1",
                "u.txt",
            ][..],
            "edits",
        ),
        (
            &["dedup", "--canonical", "w3lib", "--key", "host", "u.txt"][..],
            "--key href",
        ),
        (
            &["dedup", "--canonical", "w3lib", "--with-key", "u.txt"][..],
            "--with-key",
        ),
    ] {
        let out = wd.run(args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}

/// `dedup --key canonical`: keyed by the form, each record as it came
/// (Scrapy's fingerprint dedup), for a form of the text and of the URL.
#[test]
fn dedup_key_canonical_keeps_records_as_they_came() {
    let wd = Workdir::new();
    wd.create(
        "d.csv",
        "id,url\n1,http://A.com/?b=1&a=2\n2,http://a.com/?a=2&b=1\n\
         3,http://www.google.com:8080/x\n4,http://www.GOOGLE.com/x\n",
    );
    let w3lib = wd.stdout(&[
        "dedup",
        "-q",
        "--canonical",
        "w3lib",
        "--key",
        "canonical",
        "d.csv",
    ]);
    assert_eq!(
        w3lib,
        "id,url\n1,http://A.com/?b=1&a=2\n3,http://www.google.com:8080/x\n4,http://www.GOOGLE.com/x\n"
    );
    let sb = wd.stdout(&[
        "dedup",
        "-q",
        "--canonical",
        "safe-browsing",
        "--key",
        "canonical",
        "d.csv",
    ]);
    assert_eq!(
        sb,
        "id,url\n1,http://A.com/?b=1&a=2\n2,http://a.com/?a=2&b=1\n3,http://www.google.com:8080/x\n"
    );
    let out = wd.run(&["dedup", "--key", "canonical", "d.csv"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("name one"), "{}", stderr(&out));
}

/// `extract --canonical FORM --fields canonical`: the form beside the
/// href; each flag without the other is a usage error naming the forms.
#[test]
fn extract_canonical_field() {
    let wd = Workdir::new();
    wd.create(
        "e.txt",
        "http://a.com/?b=1&a=2#f\nhttp://www.GOOgle.com:8080/x\n",
    );
    let csv = wd.stdout(&[
        "extract",
        "-q",
        "--fields",
        "href,canonical",
        "--canonical",
        "w3lib",
        "e.txt",
    ]);
    assert_eq!(
        csv,
        "href,canonical\nhttp://a.com/?b=1&a=2#f,http://a.com/?a=2&b=1\n\
         http://www.google.com:8080/x,http://www.google.com:8080/x\n"
    );
    let sb = wd.stdout(&[
        "extract",
        "-q",
        "--format",
        "{canonical}",
        "--canonical",
        "safe-browsing",
        "e.txt",
    ]);
    assert_eq!(sb, "http://a.com/?b=1&a=2\nhttp://www.google.com/x\n");
    for (args, says) in [
        (
            &["extract", "--fields", "canonical", "e.txt"][..],
            "safe-browsing, w3lib",
        ),
        (
            &[
                "extract",
                "--fields",
                "href",
                "--canonical",
                "w3lib",
                "e.txt",
            ][..],
            "name it in --fields",
        ),
    ] {
        let out = wd.run(args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}

/// `--canonical urlcanon-*`: urlcanon's forms of the raw text, a scheme
/// and all (urlcanon's own vectors are a test suite of the library).
#[test]
fn urlcanon_forms() {
    let wd = Workdir::new();
    wd.create(
        "u.txt",
        "  https://www.google.com/  \nHTTP://user@Example.com:80/a/./b/../c?b=2&a=1#f\n\
         www.foo.com/a?JSESSIONID=0123456789abcdef\n",
    );
    let form = |name: &str| wd.stdout(&["normalize", "-q", "--canonical", name, "u.txt"]);
    assert_eq!(
        form("urlcanon-semantic-precise"),
        "https://www.google.com/\nhttp://example.com/a/c?a=1&b=2#f\nhttp://www.foo.com/a?JSESSIONID=0123456789abcdef\n"
    );
    assert_eq!(
        form("urlcanon-semantic"),
        "https://www.google.com/\nhttp://example.com/a/c?a=1&b=2\nhttp://www.foo.com/a?JSESSIONID=0123456789abcdef\n"
    );
    assert_eq!(
        form("urlcanon-aggressive"),
        "http://google.com/\nhttp://example.com/a/c?a=1&b=2\nhttp://foo.com/a\n"
    );
}

#[test]
fn courlan_forms_and_a_refusal() {
    let wd = Workdir::new();
    wd.create(
        "u.txt",
        "HTTPS://WWW.Example.org:443//a/b?utm_source=x&b=2&a=&id=7#frag\n\
         http://xn--bcher-kva.ch/?page=2&amp;q=x#top\n\
         http://[1.2.3.4]/\n",
    );
    let out = wd.run(
        &[
            "normalize",
            "--canonical",
            "courlan",
            "--rejects",
            "bad.tsv",
            "u.txt",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "https://www.example.org/a/b?b=2&id=7#frag\nhttp://bücher.ch/?page=2&q=x#top\n"
    );
    let rejects = std::fs::read_to_string(wd.path("bad.tsv")).unwrap();
    assert!(
        rejects.contains("refuses the brackets") && rejects.contains("http://[1.2.3.4]/"),
        "{rejects}"
    );
    let strict = wd.stdout(&["normalize", "-q", "--canonical", "courlan-strict", "u.txt"]);
    assert_eq!(
        strict,
        "https://www.example.org/a/b?id=7\nhttp://bücher.ch/?page=2\n"
    );
    // Trackers gone, the rest sorted: the same key, one record.
    wd.create(
        "d.txt",
        "http://e.com/p?b=1&a=2&fbclid=x\nhttp://e.com/p?a=2&b=1\n",
    );
    assert_eq!(
        wd.stdout(&[
            "dedup",
            "-q",
            "--key",
            "canonical",
            "--canonical",
            "courlan",
            "d.txt"
        ]),
        "http://e.com/p?b=1&a=2&fbclid=x\n"
    );
}

#[test]
fn ssurt_of_a_urlcanon_form() {
    let wd = Workdir::new();
    wd.create(
        "u.txt",
        "HTTP://www.Example.com:8080/a/../b?z=1&a=2#f\nhttp://0.0.0.0/\n",
    );
    let key = |form: &str| {
        wd.stdout(&[
            "normalize",
            "-q",
            "--canonical",
            form,
            "--surt=ssurt",
            "u.txt",
        ])
    };
    assert_eq!(
        key("urlcanon-semantic"),
        "com,example,www,//8080:http:/b?a=2&z=1\n0,0,0,0,//http:/\n"
    );
    assert_eq!(
        key("urlcanon-aggressive"),
        "com,example,//8080:http:/b?a=2&z=1\n0,0,0,0,//http:/\n"
    );
    let fields = wd.stdout(&[
        "extract",
        "-q",
        "--canonical",
        "urlcanon-semantic",
        "--fields",
        "href,ssurt",
        "u.txt",
    ]);
    assert_eq!(
        fields,
        "href,ssurt\nhttp://www.example.com:8080/b?z=1&a=2#f,\"com,example,www,//8080:http:/b?a=2&z=1\"\n\
         http://0.0.0.0/,\"0,0,0,0,//http:/\"\n"
    );
    let other = wd.run(
        &["normalize", "--canonical", "w3lib", "--surt=ssurt", "u.txt"],
        None,
    );
    assert_eq!(other.status.code(), Some(2));
    assert!(
        stderr(&other).contains("--canonical and --surt each give a form"),
        "{}",
        stderr(&other)
    );
}

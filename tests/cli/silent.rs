//! No silent outcomes: a wrong field name, a cut compressed input, a run
//! of relative targets without `--base`, an input that is no file, and
//! the wording of what the command says. Each test here failed on the
//! build before its fix.

use std::path::{Path, PathBuf};

use crate::common;
use crate::workdir::{Workdir, stderr};

/// A file of `corpora/examples/`.
fn example(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpora/examples")
        .join(name);
    path.to_str().expect("a UTF-8 path").to_string()
}

/// A file of the shared crawl samples (fails loudly when missing).
fn crawl_sample(name: &str) -> PathBuf {
    let path = common::crawl_samples_dir().join(name);
    assert!(
        path.exists(),
        "{} is missing: see docs/test-data.md",
        path.display()
    );
    path
}

#[test]
fn unknown_record_fields_are_refused_where_the_format_knows_its_fields() {
    let wd = Workdir::new();
    for (file, listed) in [
        (
            "crawl.csv",
            "no column \"nosuch\" (columns: \"id\", \"url\", \"title\")",
        ),
        (
            "crawl.parquet",
            "no column \"nosuch\" (columns: \"id\", \"url\", \"status\", \"title\")",
        ),
        ("access.log", "no log field \"nosuch\" (fields: remote, "),
        (
            "shop.txt",
            "no field \"nosuch\": `lines` input is one URL per line",
        ),
    ] {
        for args in [
            vec!["extract", "--fields", "href,@nosuch"],
            vec!["extract", "--format", "{href} {@nosuch}"],
            vec!["extract", "--fields", "href,@nosuch", "-o", "out.parquet"],
        ] {
            let mut args = args.clone();
            let path = example(file);
            args.push(&path);
            let out = wd.run(&args, None);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
            assert!(
                stderr(&out).contains(&format!("@nosuch: {listed}")),
                "{args:?}: {}",
                stderr(&out)
            );
        }
    }
    assert!(!wd.path("out.parquet").exists());
    // Known names, in any case, and column numbers, still work.
    let out = wd.stdout(&[
        "extract",
        "--fields",
        "@TITLE,@1",
        "-q",
        &example("crawl.csv"),
    ]);
    assert!(
        out.starts_with("TITLE,1\n\"Hello, \"\"world\"\"\",1\n"),
        "{out}"
    );
    wd.stdout(&[
        "extract",
        "--fields",
        "@status,@user_agent",
        "-q",
        &example("access.log"),
    ]);
}

#[test]
fn a_record_field_no_record_had_is_named_after_the_run() {
    let wd = Workdir::new();
    for (file, known) in [("index.cdxj", "@url"), ("capture.warc.gz", "@WARC-Date")] {
        let fields = format!("href,@nosuch,{known}");
        let out = wd.run(
            &["extract", "--fields", &fields, "-q", &example(file)],
            None,
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("warning: no record had a field @nosuch"),
            "{file}: {err}"
        );
        assert!(!err.contains(known), "{file}: {err}");
    }
    let out = wd.run(
        &[
            "extract",
            "--fields",
            "href,@nosuch",
            "--field",
            "request.url",
            "-q",
            &example("events.jsonl"),
        ],
        None,
    );
    assert!(
        stderr(&out).contains("no record had a field @nosuch"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_cut_compressed_sitemap_or_page_is_named_and_exits_2_after_its_links() {
    let wd = Workdir::new();
    for name in [
        "scrapy/unexpected-eof.xml.gz",
        "scrapy/truncated-crc-error.xml.gz",
    ] {
        let path = crawl_sample(name);
        let out = wd.run(&["links", path.to_str().unwrap()], None);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("gzip data is truncated at byte"),
            "{name}: {}",
            stderr(&out)
        );
    }
    // An HTML page cut short: the links of what was decoded, then exit 2.
    let page: String = (0..30000)
        .map(|i| format!("<a href=\"http://x.com/{i}\">x</a>"))
        .collect();
    let gz = crate::workdir::gzip(page.as_bytes());
    wd.create("cut.html.gz", &gz[..gz.len() / 2]);
    let out = wd.run(&["links", "cut.html.gz"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cut.html.gz: gzip data is truncated"),
        "{}",
        stderr(&out)
    );
    let links = String::from_utf8(out.stdout).unwrap();
    assert!(links.lines().count() > 1000, "{}", links.lines().count());
    assert!(links.starts_with("http://x.com/0\nhttp://x.com/1\n"));
}

/// A combined access log of `n` requests for relative targets.
fn request_log(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "10.0.0.{} - - [01/Jan/2024:00:00:{:02} +0000] \"GET /product/{i}?ref=home HTTP/1.1\" 200 512 \"-\" \"curl/8\"\n",
                i % 200,
                i % 60
            )
        })
        .collect()
}

#[test]
fn a_run_mostly_set_aside_for_a_reason_with_a_remedy_names_it_once() {
    let wd = Workdir::new();
    wd.create("access.log", request_log(40));
    let out = wd.run(
        &["dedup", "--key", "pattern", "--count", "access.log"],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    let err = stderr(&out);
    assert_eq!(err.matches("hint:").count(), 1, "{err}");
    assert!(
        err.contains("hint: 40 of 40 were relative URLs (paths, request targets): give --base URL"),
        "{err}"
    );
    // With --base there is nothing to say, and -q says nothing.
    let out = wd.run(
        &[
            "dedup",
            "--key",
            "pattern",
            "--count",
            "--base",
            "https://shop.example/",
            "access.log",
        ],
        None,
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "     40 https://shop.example/product/0?ref=home\n"
    );
    assert!(!stderr(&out).contains("hint"), "{}", stderr(&out));
    let out = wd.run(&["dedup", "-q", "access.log"], None);
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    // A format named wrongly: --input-format.
    let out = wd.run(
        &[
            "normalize",
            "--input-format",
            "cdxj",
            &crate::workdir::sample_str(),
        ],
        None,
    );
    assert!(
        stderr(&out).contains(
            "were not CDXJ lines: if the input is in another format, name it with --input-format"
        ),
        "{}",
        stderr(&out)
    );
    // An HTML file's relative links with no page URL: --base.
    wd.create(
        "rel.html",
        r#"<a href="/a">a</a><a href="/b">b</a><a href="http://x.example/">x</a>"#,
    );
    let out = wd.run(&["links", "rel.html"], None);
    assert!(
        stderr(&out).contains("urlsift links: hint: 2 of 3 were relative URLs"),
        "{}",
        stderr(&out)
    );
    let out = wd.run(&["links", "--base", "https://e.example/", "rel.html"], None);
    assert!(!stderr(&out).contains("hint"), "{}", stderr(&out));
    // Half or fewer: no hint.
    let mut some = request_log(2);
    some.push_str(
        "10.0.0.1 - - [01/Jan/2024:00:00:00 +0000] \"GET http://a.example/x HTTP/1.1\" 200 5\n"
            .repeat(2)
            .as_str(),
    );
    wd.create("some.log", some);
    let out = wd.run(&["normalize", "some.log"], None);
    assert!(
        stderr(&out).contains("2 bad") && !stderr(&out).contains("hint"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_warc_on_standard_input_is_read_as_warc() {
    let wd = Workdir::new();
    let warc = std::fs::read(example("capture.warc.gz")).unwrap();
    let from_file = wd.stdout(&["normalize", "-q", &example("capture.warc.gz")]);
    let out = wd.run(&["normalize", "-"], Some(&warc));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), from_file);
    assert!(from_file.lines().count() >= 2);
}

#[test]
fn the_pattern_is_a_field_and_a_key_beside_its_count() {
    let wd = Workdir::new();
    wd.create(
        "urls.txt",
        "http://e.com/user/42/?tab=1&id=7\nhttps://e.com/user/43?id=1\nhttps://e.com/user/44?id=2\nmailto:x@y.z\n",
    );
    assert_eq!(
        wd.stdout(&["extract", "--fields", "href,pattern", "urls.txt"]),
        "href,pattern\nhttp://e.com/user/42/?tab=1&id=7,e.com/user/{n}/?id&tab\n\
         https://e.com/user/43?id=1,e.com/user/{n}?id\nhttps://e.com/user/44?id=2,e.com/user/{n}?id\n\
         mailto:x@y.z,mailto:x@y.z\n"
    );
    assert_eq!(
        wd.stdout(&[
            "extract",
            "--format",
            "{pattern}",
            "--pattern-scheme",
            "--pattern-ignore-trailing-slash",
            "urls.txt"
        ]),
        "http://e.com/user/{n}?id&tab\nhttps://e.com/user/{n}?id\nhttps://e.com/user/{n}?id\nmailto:x@y.z\n"
    );
    let out = wd.run(
        &[
            "extract",
            "--fields",
            "href",
            "--pattern-exact-path",
            "urls.txt",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("go with the pattern field"),
        "{}",
        stderr(&out)
    );
    let counted = "      1 e.com/user/{n}/?id&tab\thttp://e.com/user/42/?tab=1&id=7\n      \
                   2 e.com/user/{n}?id\thttps://e.com/user/43?id=1\n      1 mailto:x@y.z\tmailto:x@y.z\n";
    let args = [
        "dedup",
        "--key",
        "pattern",
        "--count",
        "--with-key",
        "-q",
        "urls.txt",
    ];
    assert_eq!(wd.stdout(&args), counted);
    // The same past the memory budget (the seen-set on disk).
    let spilled = [&args[..], &["--memory", "1K"]].concat();
    assert_eq!(wd.stdout(&spilled), counted);
    // Every key dedup --with-key prints is the pattern field's value.
    let keys: Vec<String> = wd
        .stdout(&["dedup", "--key", "pattern", "--with-key", "-q", "urls.txt"])
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    let fields = wd.stdout(&["extract", "--format", "{pattern}", "urls.txt"]);
    for key in &keys {
        assert!(fields.lines().any(|f| f == key), "{key}");
    }
}

#[test]
fn structured_links_say_where_each_link_came_from() {
    let wd = Workdir::new();
    let pages = example("pages.warc.gz");
    let plain = wd.stdout(&["links", "-q", &pages]);
    assert!(
        plain.lines().all(|l| !l.contains('\t')),
        "plain text stays the targets"
    );
    let csv = wd.stdout(&["links", "-q", "--csv", &pages]);
    assert!(csv.starts_with("from,to\n"), "{csv}");
    let jsonl = wd.stdout(&["links", "-q", "--jsonl", &pages]);
    assert!(jsonl.starts_with("{\"from\":"), "{jsonl}");
    wd.stdout(&["links", "-q", "-o", "links.tsv", &pages]);
    let tsv = String::from_utf8(wd.read("links.tsv")).unwrap();
    assert_eq!(tsv.lines().count(), plain.lines().count());
    assert!(tsv.lines().all(|l| l.split('\t').count() == 2), "{tsv}");
    // The fields still go as asked.
    let to = wd.stdout(&["links", "-q", "--csv", "--fields", "to", &pages]);
    assert!(to.starts_with("to\n"), "{to}");
}

#[test]
fn an_input_that_is_no_file_is_refused_before_any_work() {
    let wd = Workdir::new();
    std::fs::create_dir(wd.path("dir")).unwrap();
    let sample = crate::workdir::sample_str();
    for cmd in [
        &["normalize"][..],
        &["links"],
        &["index"],
        &["dedup"],
        &["extract", "--fields", "href"],
        &["stats"],
    ] {
        let args = [cmd, &[sample.as_str(), "dir"]].concat();
        let out = wd.run(&args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            out.stdout.is_empty(),
            "{args:?} wrote {}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert_eq!(
            stderr(&out).trim_end(),
            "urlsift: cannot read dir: is a directory: name the files in it (DIR/*.warc.gz), or list them with find",
            "{args:?}"
        );
    }
    let warc = std::fs::read(example("capture.warc.gz")).unwrap();
    let out = wd.run(&["index", "-"], Some(&warc));
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("index needs files"),
        "{}",
        stderr(&out)
    );
    assert!(
        !stderr(&out).contains("records indexed"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn counts_are_worded_as_counts() {
    let wd = Workdir::new();
    wd.create(
        "urls.txt",
        "https://a.example/\nhttps://a.example/\nhttps://b.example/\n",
    );
    let out = wd.run(&["dedup", "-v", "urls.txt"], None);
    assert!(
        stderr(&out).contains("dedup: 3 records, 2 unique, 1 duplicate\n"),
        "{}",
        stderr(&out)
    );
    // links: `count reason`, as every summary; `1 not a response`.
    let path = crawl_sample("scrapy/unexpected-eof.xml.gz");
    let out = wd.run(&["links", path.to_str().unwrap()], None);
    assert!(
        stderr(&out).contains("1 bad record (1 bad-xml)"),
        "{}",
        stderr(&out)
    );
    let out = wd.run(&["links", &example("capture.warc.gz")], None);
    assert!(
        stderr(&out).contains("not HTML, 2 not responses")
            || stderr(&out).contains("not a response"),
        "{}",
        stderr(&out)
    );
    let warcinfo = crate::workdir::warc_record("warcinfo", "", b"software: t\r\n");
    wd.create("one.warc", &warcinfo);
    let out = wd.run(&["links", "one.warc"], None);
    assert!(
        stderr(&out).contains("0 records not HTML, 1 not a response"),
        "{}",
        stderr(&out)
    );
    // stats names what it counts.
    let stats = wd.stdout(&["stats", &example("capture.warc.gz")]);
    assert!(stats.starts_with("records "), "{stats}");
    assert!(wd.stdout(&["stats", "urls.txt"]).starts_with("lines "));
    // links --help names every input it reads.
    let help = wd.stdout(&["links", "--help"]);
    assert!(help.contains("ARC files"), "{help}");
}

#[test]
fn the_progress_line_fits_an_80_column_terminal() {
    let wd = Workdir::new();
    // Enough lines for a second or more of work in a test build.
    let line = "https://www.example.com/some/path/to/a/page.html?query=string&and=more\n";
    wd.create("urls.txt", line.repeat(400_000));
    let bin = env!("CARGO_BIN_EXE_urlsift");
    let out = std::process::Command::new("script")
        .args([
            "-qec",
            &format!("{bin} normalize urls.txt > /dev/null"),
            "typescript",
        ])
        .env("COLUMNS", "80")
        .current_dir(wd.path(""))
        .output()
        .expect("run script (util-linux)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let screen = String::from_utf8_lossy(&wd.read("typescript")).into_owned();
    let escape = |s: &str| {
        let mut plain = String::new();
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            if c == '\u{1b}' {
                // CSI: ESC [ parameters final-byte.
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() {
                        break;
                    }
                }
            } else {
                plain.push(c);
            }
        }
        plain
    };
    let progress: Vec<String> = screen
        .split(['\r', '\n'])
        .map(escape)
        .filter(|l| l.contains("% ["))
        .collect();
    assert!(!progress.is_empty(), "no progress line drawn: {screen:?}");
    for line in &progress {
        assert!(
            line.chars().count() <= 80,
            "{} columns: {line:?}",
            line.chars().count()
        );
    }
    // A line that wrapped would be redrawn from the line above.
    assert!(!screen.contains("\u{1b}[1A"), "the progress line wrapped");
}

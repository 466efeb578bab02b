//! WACZ files read as the WARC files under their `archive/` (or, with
//! `--input-format wacz-pages`, as their page lists), indexed as their own
//! index should be, and checked against it. The shared crawl samples'
//! real WACZ files (py-wacz's) are read here; WACZ files made of the
//! shared WARC files are written with the test's own ZIP writer (the
//! Python tests hold the same to py-wacz and Python's `zipfile`).

use crate::common;
use crate::workdir::*;
use urlsift_records::input::zip;

fn sample(name: &str) -> String {
    common::crawl_samples_dir().join(name).display().to_string()
}

/// A WACZ of `warcs` (name under `archive/`, bytes), stored, with a page
/// list and a datapackage.
fn wacz(warcs: &[(&str, &[u8])], extra: &[(&str, &[u8])]) -> Vec<u8> {
    let names: Vec<String> = warcs.iter().map(|(n, _)| format!("archive/{n}")).collect();
    let mut files: Vec<(&str, &[u8])> = vec![(
        "pages/pages.jsonl",
        b"{\"format\": \"json-pages-1.0\", \"id\": \"pages\"}\n{\"url\": \"http://Example.com/a\", \"ts\": \"2024\"}\n",
    )];
    for ((_, bytes), name) in warcs.iter().zip(&names) {
        files.push((name, bytes));
    }
    files.extend_from_slice(extra);
    files.push(("datapackage.json", b"{\"profile\": \"data-package\"}"));
    zip::stored(&files)
}

#[test]
fn a_wacz_reads_as_the_warc_files_inside_at_every_j() {
    let dir = common::crawl_samples_dir();
    let a = std::fs::read(dir.join("pywb/iana.warc.gz")).unwrap();
    let b = std::fs::read(dir.join("warcio/example.warc")).unwrap();
    let w = Workdir::new();
    w.create("a.warc.gz", &a);
    w.create("b.warc", &b);
    w.create(
        "c.warc.gz",
        std::fs::read(dir.join("warcio/example.warc.gz")).unwrap(),
    );
    // Two WARC files inside; named only `.zip` the second is still a WACZ
    // by its content (it lists datapackage.json).
    w.create("x.wacz", wacz(&[("a.warc.gz", &a), ("b.warc", &b)], &[]));
    w.create("x-copy.zip", w.read("x.wacz"));
    let jobs: [&[&str]; 4] = [
        &["extract", "--fields", "href,hostname"],
        &["links", "--fields", "from,to,tag"],
        &["normalize"],
        &["stats"],
    ];
    for job in jobs {
        let want = w.stdout(&[job, &["a.warc.gz", "b.warc", "c.warc.gz", "-q", "-j1"]].concat());
        assert!(!want.is_empty(), "{job:?}");
        for j in ["-j1", "-j2", "-j3"] {
            for name in ["x.wacz", "x-copy.zip"] {
                let got = w.run(&[job, &[name, "c.warc.gz", "-q", j]].concat(), None);
                assert_eq!(got.status.code(), Some(0), "{job:?} {j}: {}", stderr(&got));
                let got = String::from_utf8(got.stdout).unwrap();
                if job[0] == "stats" {
                    // Its throughput line differs from run to run.
                    let counts = |s: &str| -> Vec<String> {
                        s.lines()
                            .filter(|l| !l.starts_with("throughput"))
                            .map(String::from)
                            .collect()
                    };
                    assert_eq!(counts(&got), counts(&want), "{job:?} {j} {name}");
                } else {
                    assert!(
                        got == want,
                        "{job:?} {j} {name}: output differs from the WARC files'"
                    );
                }
            }
        }
    }
}

/// py-wacz's own sample files: the WARC inside read, its index the same
/// as `urlsift index` gives, its pages among the WARC's URLs.
#[test]
fn the_shared_wacz_samples_read_and_check_against_their_own_index() {
    let w = Workdir::new();
    for name in [
        "wacz/valid_example_1.wacz",
        "wacz/valid_example_2.wacz",
        "wacz/valid_signed_example_1.wacz",
    ] {
        let path = sample(name);
        let out = w.run(&["index", "--check", &path], None);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{name}: differences");
        assert!(stderr(&out).contains(": the same"), "{}", stderr(&out));
        let hrefs = w.stdout(&["extract", "--fields", "href", "-q", &path]);
        assert!(hrefs.lines().count() >= 2, "{name}: {hrefs}");
        let pages = w.stdout(&[
            "extract",
            "--input-format",
            "wacz-pages",
            "--fields",
            "line,href",
            "-q",
            &path,
        ]);
        let pages: Vec<&str> = pages.lines().skip(1).collect();
        assert!(!pages.is_empty(), "{name}");
        for page in pages {
            // Line 1 is the page list's header, not a page.
            let (line, href) = page.split_once(',').unwrap();
            assert_ne!(line, "1", "{name}");
            assert!(hrefs.lines().any(|h| h == href), "{name}: page {href}");
        }
        // The index lines name the WARC as its own index does: relative to
        // archive/, offsets within it.
        let index = w.stdout(&["index", "-q", &path]);
        assert!(
            !index.is_empty() && !index.contains("archive/") && !index.contains(".wacz"),
            "{index}"
        );
    }
}

#[test]
fn a_wacz_without_a_warc_a_cut_wacz_and_a_zip_on_stdin_are_refused_by_name() {
    let w = Workdir::new();
    let invalid = sample("wacz/invalid_example_1.wacz");
    let out = w.run(&["normalize", &invalid], None);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("invalid_example_1.wacz")
            && err.contains("no WARC file under archive/")
            && err.contains("data/archive/test.txt"),
        "{err}"
    );
    let bytes = std::fs::read(sample("wacz/valid_example_1.wacz")).unwrap();
    w.create("cut.wacz", &bytes[..bytes.len() - 30]);
    let out = w.run(&["normalize", "cut.wacz"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cut.wacz") && stderr(&out).contains("end of central directory"),
        "{}",
        stderr(&out)
    );
    let out = w.run(&["normalize"], Some(&bytes));
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("<stdin>: it is a ZIP file") && stderr(&out).contains("WACZ"),
        "{}",
        stderr(&out)
    );
    // A ZIP that is not a WACZ is not read as text.
    w.create(
        "urls.zip",
        zip::stored(&[("urls.txt", b"https://e.com/\n")]),
    );
    let out = w.run(&["normalize", "urls.zip"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("unzip them first"),
        "{}",
        stderr(&out)
    );
}

/// A damaged member inside a WACZ's WARC costs its record, named with the
/// entry; the rest of that WARC and the next are read.
#[test]
fn damage_inside_a_wacz_costs_only_what_it_touches_and_is_named_with_its_entry() {
    let dir = common::crawl_samples_dir();
    let a = std::fs::read(dir.join("warcio/example.warc.gz")).unwrap();
    let b = std::fs::read(dir.join("pywb/example2.warc.gz")).unwrap();
    let w = Workdir::new();
    w.create("a.warc.gz", &a);
    w.create("b.warc.gz", &b);
    let want = w.stdout(&[
        "extract",
        "--fields",
        "href",
        "-q",
        "a.warc.gz",
        "b.warc.gz",
    ]);
    // Damage in the second gzip member of a.warc.gz.
    let second = 1 + a[1..]
        .windows(3)
        .position(|w| w == [0x1f, 0x8b, 0x08])
        .unwrap();
    let mut bad = a.clone();
    bad[second + 100] ^= 0xff;
    w.create(
        "x.wacz",
        wacz(&[("a.warc.gz", &bad), ("b.warc.gz", &b)], &[]),
    );
    for j in ["-j1", "-j3"] {
        let out = w.run(
            &[
                "extract",
                "--fields",
                "href",
                "--rejects",
                "rejects.tsv",
                "x.wacz",
                j,
            ],
            None,
        );
        assert_eq!(out.status.code(), Some(2), "{j}");
        let err = stderr(&out);
        assert!(
            err.contains("x.wacz#archive/a.warc.gz: gzip data is corrupt"),
            "{err}"
        );
        assert!(
            err.contains("decoding went on with the next member"),
            "{err}"
        );
        let got = String::from_utf8(out.stdout).unwrap();
        let (want, got): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
        // The second member (a warcinfo record: no URL) alone is lost.
        assert_eq!(got.len(), want.len(), "{j}");
        let rejects = String::from_utf8(w.read("rejects.tsv")).unwrap();
        assert!(
            rejects.starts_with("x.wacz#archive/a.warc.gz\t"),
            "{rejects}"
        );
    }
}

#[test]
fn index_check_names_each_difference_from_the_waczs_own_index() {
    let dir = common::crawl_samples_dir();
    let a = std::fs::read(dir.join("warcio/example.warc.gz")).unwrap();
    let w = Workdir::new();
    w.create("plain.wacz", wacz(&[("a.warc.gz", &a)], &[]));
    let lines = w.stdout(&["index", "-q", "plain.wacz"]);
    assert_eq!(lines.lines().count(), 2, "{lines}");
    assert!(lines.contains("\"filename\": \"a.warc.gz\""), "{lines}");
    // The same lines as its index (the digest's prefix dropped): the same.
    let own = lines.replace("sha1:", "");
    w.create(
        "same.wacz",
        wacz(
            &[("a.warc.gz", &a)],
            &[("indexes/index.cdxj", own.as_bytes())],
        ),
    );
    let out = w.run(&["index", "--check", "same.wacz"], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // A status changed, a line dropped: each named, exit status 1.
    let mut changed: Vec<String> = lines.lines().map(String::from).collect();
    changed[0] = changed[0].replace("\"status\": \"200\"", "\"status\": \"404\"");
    changed.pop();
    let changed = changed.join("\n") + "\n";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, changed.as_bytes()).unwrap();
    w.create(
        "changed.wacz",
        wacz(
            &[("a.warc.gz", &a)],
            &[("indexes/index.cdx.gz", &gz.finish().unwrap())],
        ),
    );
    let out = w.run(&["index", "--check", "changed.wacz"], None);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let diff = String::from_utf8(out.stdout).unwrap();
    let diff: Vec<&str> = diff.lines().collect();
    assert_eq!(diff.len(), 2, "{diff:?}");
    assert!(
        diff.iter()
            .any(|d| d.starts_with("changed.wacz: a.warc.gz at ")
                && d.ends_with(": status: urlsift \"200\", its index \"404\"")),
        "{diff:?}"
    );
    assert!(
        diff.iter()
            .any(|d| d.starts_with("changed.wacz: not in its index: ")),
        "{diff:?}"
    );
    // No index to check against; not a WACZ.
    let out = w.run(&["index", "--check", "plain.wacz"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no index to check against"),
        "{}",
        stderr(&out)
    );
    w.create("a.warc.gz", &a);
    let out = w.run(&["index", "--check", "a.warc.gz"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is not a WACZ"), "{}", stderr(&out));
}

#[test]
fn wacz_pages_skips_the_header_line_and_writes_the_pages_back() {
    let dir = common::crawl_samples_dir();
    let a = std::fs::read(dir.join("warcio/example.warc.gz")).unwrap();
    let w = Workdir::new();
    w.create("x.wacz", wacz(&[("a.warc.gz", &a)], &[]));
    let out = w.stdout(&["normalize", "--input-format", "wacz-pages", "x.wacz"]);
    assert_eq!(
        out,
        "{\"url\": \"http://example.com/a\", \"ts\": \"2024\"}\n"
    );
    // A page list file of its own reads the same way.
    w.create(
        "pages.jsonl",
        "{\"format\": \"json-pages-1.0\", \"id\": \"pages\"}\n{\"url\": \"http://Example.com/a\"}\n",
    );
    let out = w.stdout(&[
        "extract",
        "--input-format",
        "wacz-pages",
        "--fields",
        "line,href",
        "pages.jsonl",
    ]);
    assert_eq!(out, "line,href\n2,http://example.com/a\n");
}

/// `get` with a WACZ as `--inputs-prefix`: the WACZ's own index lines
/// (filenames under archive/) fetch the records from inside it, the same
/// bytes as from the WARC file itself.
#[test]
fn get_fetches_records_from_inside_a_wacz_by_its_index() {
    let dir = common::crawl_samples_dir();
    let a = std::fs::read(dir.join("pywb/iana.warc.gz")).unwrap();
    let w = Workdir::new();
    w.create("a.warc.gz", &a);
    w.create("x.wacz", wacz(&[("a.warc.gz", &a)], &[]));
    w.create("x.cdxj", w.stdout(&["index", "-q", "x.wacz"]));
    w.create("plain.cdxj", w.stdout(&["index", "-q", "a.warc.gz"]));
    w.stdout(&[
        "get",
        "-q",
        "--no-warcinfo",
        "plain.cdxj",
        "-o",
        "want.warc.gz",
    ]);
    w.stdout(&[
        "get",
        "-q",
        "--no-warcinfo",
        "--inputs-prefix",
        "x.wacz",
        "x.cdxj",
        "-o",
        "got.warc.gz",
    ]);
    assert!(w.read("got.warc.gz") == w.read("want.warc.gz"));
    assert!(!w.read("got.warc.gz").is_empty());
}

/// A plain WARC entry is checked by its CRC-32 at its end: damage that
/// still reads as records is named, exit status 2, `-o` not written.
#[test]
fn a_plain_entry_whose_crc_fails_is_named() {
    let b = std::fs::read(common::crawl_samples_dir().join("warcio/example.warc")).unwrap();
    let at = b.windows(11).position(|w| w == b"example.com").unwrap();
    let mut bad = b.clone();
    bad[at] = b'E';
    let mut file = wacz(&[("b.warc", &b)], &[]);
    // The entry's bytes, changed in place (the directory keeps the CRC).
    let start = file.windows(b.len()).position(|w| w == &b[..]).unwrap();
    file[start..start + b.len()].copy_from_slice(&bad);
    let w = Workdir::new();
    w.create("x.wacz", &file);
    let out = w.run(&["normalize", "x.wacz", "-o", "out.txt"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("x.wacz#archive/b.warc: its CRC-32 is"),
        "{}",
        stderr(&out)
    );
    assert!(!w.path("out.txt").exists());
}

/// A ZipNum index: `index.idx` lines must point at whole gzip blocks of
/// `index.cdx.gz` that start with their key.
#[test]
fn index_check_holds_a_zipnum_idx_to_its_blocks() {
    let a = std::fs::read(common::crawl_samples_dir().join("warcio/example.warc.gz")).unwrap();
    let w = Workdir::new();
    w.create("plain.wacz", wacz(&[("a.warc.gz", &a)], &[]));
    let lines = w.stdout(&["index", "-q", "plain.wacz"]);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, lines.as_bytes()).unwrap();
    let block = gz.finish().unwrap();
    let first = lines.lines().next().unwrap();
    let key_ts: Vec<&str> = first.splitn(3, ' ').take(2).collect();
    let key_ts = key_ts.join(" ");
    let idx = |offset: usize, key: &str| {
        format!(
            "!meta 0 {{\"format\": \"cdxj-gzip-1.0\", \"filename\": \"index.cdx.gz\"}}\n{key} {{\"offset\": {offset}, \"length\": {}}}\n",
            block.len() - offset
        )
    };
    for (name, idx, problem) in [
        ("good.wacz", idx(0, &key_ts), None),
        (
            "moved.wacz",
            idx(1, &key_ts),
            Some("is not one whole gzip member"),
        ),
        (
            "other.wacz",
            idx(0, "zz,other)/ 2000"),
            Some("not with its key"),
        ),
    ] {
        w.create(
            name,
            wacz(
                &[("a.warc.gz", &a)],
                &[
                    ("indexes/index.cdx.gz", &block),
                    ("indexes/index.idx", idx.as_bytes()),
                ],
            ),
        );
        let out = w.run(&["index", "--check", "-q", name], None);
        let said = String::from_utf8(out.stdout).unwrap();
        match problem {
            None => assert_eq!(out.status.code(), Some(0), "{name}: {said}"),
            Some(p) => {
                assert_eq!(out.status.code(), Some(1), "{name}: {said}");
                assert!(
                    said.contains(&format!("{name}: indexes/index.idx line 2: ")),
                    "{said}"
                );
                assert!(said.contains(p), "{name}: {said}");
            }
        }
    }
}

/// `compare` reads a WACZ's WARC files as the other subcommands do.
#[test]
fn compare_reads_the_warc_files_of_a_wacz() {
    let a = std::fs::read(common::crawl_samples_dir().join("pywb/iana.warc.gz")).unwrap();
    let w = Workdir::new();
    w.create("a.warc.gz", &a);
    w.create("x.wacz", wacz(&[("a.warc.gz", &a)], &[]));
    let args = ["compare", "--parsers", "rust-url", "--rounds", "0", "-q"];
    let want = w.stdout(&[&args[..], &["a.warc.gz"]].concat());
    assert!(want.contains("urlsift"), "{want}");
    let got = w.stdout(&[&args[..], &["x.wacz"]].concat());
    // The same, the input named with its entry.
    assert_eq!(got.replace("x.wacz#archive/a.warc.gz", "a.warc.gz"), want);
    assert!(got.contains("from x.wacz#archive/a.warc.gz;"), "{got}");
}

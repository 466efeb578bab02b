//! `--inputs-from` and `--inputs-prefix`: inputs listed in a file.

use crate::workdir::*;

/// `--inputs-from FILE`: inputs listed one per line (gzip or zstd by
/// content, as Common Crawl's `warc.paths.gz` is), after those named;
/// `--inputs-prefix` before the relative ones; read as if named.
#[test]
fn inputs_listed_in_a_file_read_as_if_named() {
    let dir = crate::common::crawl_samples_dir();
    let w = Workdir::new();
    std::fs::create_dir_all(w.path("mirror/crawl-data/a")).unwrap();
    for name in ["pywb/iana.warc.gz", "warcio/example.warc.gz"] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let base = name.rsplit('/').next().unwrap();
        w.create(&format!("mirror/crawl-data/a/{base}"), bytes);
    }
    let list = "crawl-data/a/iana.warc.gz\n\n\r\ncrawl-data/a/example.warc.gz\r\n";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, list.as_bytes()).unwrap();
    w.create("warc.paths.gz", gz.finish().unwrap());
    w.create(
        "list.zst",
        zstd::bulk::compress(list.as_bytes(), 3).unwrap(),
    );
    let named = [
        "mirror/crawl-data/a/iana.warc.gz",
        "mirror/crawl-data/a/example.warc.gz",
    ];
    for job in [
        &["normalize"][..],
        &["extract", "--fields", "href"],
        &["links"],
        &["index"],
    ] {
        let want = w.stdout(&[job, &named[..], &["-q"]].concat());
        assert!(!want.is_empty(), "{job:?}");
        for (list, prefix) in [("warc.paths.gz", "mirror"), ("list.zst", "mirror/")] {
            let got = w.stdout(
                &[
                    job,
                    &["--inputs-from", list, "--inputs-prefix", prefix, "-q"],
                ]
                .concat(),
            );
            assert_eq!(got, want, "{job:?} {list}");
        }
    }
    // After the inputs named; `-` is a list on standard input; an absolute
    // path is not prefixed.
    let abs = w
        .path("mirror/crawl-data/a/example.warc.gz")
        .display()
        .to_string();
    let out = w.run(
        &[
            "normalize",
            named[0],
            "--inputs-from",
            "-",
            "--inputs-prefix",
            "nowhere",
            "-q",
        ],
        Some(format!("{abs}\n").as_bytes()),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let got = String::from_utf8(out.stdout).unwrap();
    let want = w.stdout(&["normalize", named[0], named[1], "-q"]);
    assert_eq!(got, want);
    // A listed file that is not there is refused before any work, named.
    let out = w.run(&["normalize", "--inputs-from", "warc.paths.gz"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot read crawl-data/a/iana.warc.gz"),
        "{}",
        stderr(&out)
    );
    // An empty list, a URL, a prefix without a list.
    w.create("empty.txt", "\n\n");
    let out = w.run(&["normalize", "--inputs-from", "empty.txt"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("empty.txt (--inputs-from): lists no inputs"),
        "{}",
        stderr(&out)
    );
    w.create("urls.txt", "s3://commoncrawl/crawl-data/x.warc.gz\n");
    let out = w.run(&["normalize", "--inputs-from", "urls.txt"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("urls.txt line 1: s3://"),
        "{}",
        stderr(&out)
    );
    let out = w.run(&["normalize", "--inputs-prefix", "x", "empty.txt"], None);
    assert_eq!(out.status.code(), Some(2));
}

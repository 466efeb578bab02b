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
    // An empty list, a URL of a scheme not read, a prefix without a list.
    w.create("empty.txt", "\n\n");
    let out = w.run(&["normalize", "--inputs-from", "empty.txt"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("empty.txt (--inputs-from): lists no inputs"),
        "{}",
        stderr(&out)
    );
    // (s3://, gs://, az:// and http(s):// are read: scripts/remote-tests.)
    w.create("urls.txt", "ftp://ftp.example.org/crawl-data/x.warc.gz\n");
    let out = w.run(&["normalize", "--inputs-from", "urls.txt"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("urls.txt line 1: ftp://"),
        "{}",
        stderr(&out)
    );
    let out = w.run(&["normalize", "--inputs-prefix", "x", "empty.txt"], None);
    assert_eq!(out.status.code(), Some(2));
}

/// `--allow-missing`: an input that cannot be opened is named and left
/// out, the rest read and `-o` written, exit 0; without it the run stops
/// before it starts; with every input missing it stops too.
#[test]
fn allow_missing_leaves_out_inputs_that_cannot_be_opened() {
    let dir = crate::common::crawl_samples_dir();
    let w = Workdir::new();
    w.create("a.txt", "https://A.example/x\n");
    w.create("b.txt", "https://b.example/%7e\n");
    std::fs::create_dir_all(w.path("folder")).unwrap();
    let warc = dir.join("warcio/example.warc.gz").display().to_string();
    // normalize, listed and named: the same output as the inputs that are
    // there, in order.
    w.create("list.txt", "a.txt\nmissing.txt\nb.txt\n");
    let want = w.stdout(&["normalize", "a.txt", "b.txt", "-q"]);
    assert_eq!(want, "https://a.example/x\nhttps://b.example/%7e\n");
    for args in [
        &["normalize", "--allow-missing", "--inputs-from", "list.txt"][..],
        &["normalize", "--allow-missing", "a.txt", "folder", "b.txt"],
    ] {
        let out = w.run(&[args, &["-o", "out.txt"]].concat(), None);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert_eq!(String::from_utf8(w.read("out.txt")).unwrap(), want);
        assert!(
            err.contains("left out (--allow-missing): cannot read "),
            "{err}"
        );
        assert!(err.contains("1 of 3 inputs left out"), "{err}");
        std::fs::remove_file(w.path("out.txt")).unwrap();
        // Without the flag: refused before any work, -o not written.
        let without: Vec<&str> = args
            .iter()
            .copied()
            .filter(|a| *a != "--allow-missing")
            .collect();
        let out = w.run(&[&without[..], &["-o", "out.txt"]].concat(), None);
        assert_eq!(out.status.code(), Some(2), "{without:?}");
        assert!(!w.path("out.txt").exists());
    }
    // links and index, on WARC.
    for job in ["links", "index"] {
        let want = w.stdout(&[job, warc.as_str(), "-q"]);
        assert!(!want.is_empty());
        let out = w.run(&[job, "--allow-missing", &warc, "gone.warc.gz", "-q"], None);
        assert_eq!(out.status.code(), Some(0), "{job}: {}", stderr(&out));
        assert!(stderr(&out).contains("cannot read gone.warc.gz"), "{job}");
        assert_eq!(String::from_utf8(out.stdout).unwrap(), want, "{job}");
    }
    // Nothing left to read: the run stops.
    let out = w.run(
        &["normalize", "--allow-missing", "gone.txt", "folder"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no input can be opened"),
        "{}",
        stderr(&out)
    );
}

/// `--network-timeout`: seconds above 0 (fractions allowed), on every
/// subcommand that reads inputs; anything else is a usage error, named.
#[test]
fn network_timeout_takes_positive_seconds() {
    let w = Workdir::new();
    w.create("urls.txt", "https://example.com/\n");
    let jobs = "normalize dedup extract check stats links index";
    for job in jobs.split(' ') {
        let out = w.run(&[job, "--network-timeout", "0.5", "urls.txt", "-q"], None);
        // (index reads WARC only: that refusal is not the flag's.)
        assert!(
            !stderr(&out).contains("--network-timeout"),
            "{job}: {}",
            stderr(&out)
        );
    }
    for bad in ["0", "-3", "soon", "90000"] {
        let flag = format!("--network-timeout={bad}");
        let out = w.run(&["normalize", &flag, "urls.txt"], None);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&out).contains("a number of seconds above 0"),
            "{bad}: {}",
            stderr(&out)
        );
    }
}

/// `--requests-ahead`: 0 to 64 ranged requests per object, on every
/// subcommand that reads inputs; anything else is a usage error, named.
#[test]
fn requests_ahead_takes_0_to_64() {
    let w = Workdir::new();
    w.create("urls.txt", "https://example.com/\n");
    for job in ["normalize", "dedup", "extract", "check", "stats", "links"] {
        for n in ["0", "64"] {
            let out = w.run(&[job, "--requests-ahead", n, "urls.txt", "-q"], None);
            assert_eq!(out.status.code(), Some(0), "{job} {n}: {}", stderr(&out));
        }
    }
    for bad in ["65", "-1", "many"] {
        let flag = format!("--requests-ahead={bad}");
        let out = w.run(&["normalize", &flag, "urls.txt"], None);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&out).contains("--requests-ahead"),
            "{bad}: {}",
            stderr(&out)
        );
    }
}

//! The `-o` contract: all or nothing (a complete file, or none, after a
//! fault, an error or a signal; the rejects file kept after a fault), and
//! the output name's extension meaning the same for every subcommand.

use std::io::Read;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::workdir::{Workdir, gzip, stderr};

/// Waits until a file whose name starts with `prefix` is in the work
/// directory (the run has opened its output), at most ten seconds.
fn wait_for(wd: &Workdir, prefix: &str) {
    let start = Instant::now();
    while !wd.files().iter().any(|f| f.starts_with(prefix)) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no {prefix}* file appeared: {:?}",
            wd.files()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn kill(pid: u32, signal: &str) {
    let status = std::process::Command::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .expect("run kill");
    assert!(status.success());
}

/// Every subcommand that writes `-o` (Parquet too), stopped by SIGINT or
/// SIGTERM while reading an input that never ends, exits 130 or 143 and
/// leaves no output, rejects or temp file, nor a spill directory.
#[test]
fn a_signal_leaves_no_file_behind() {
    let runs: &[&[&str]] = &[
        &[
            "normalize",
            "-",
            "-o",
            "out.txt",
            "--rejects",
            "rejects.tsv",
        ],
        &["dedup", "-", "-o", "out.txt.gz", "--tmp-dir", "spill"],
        &["extract", "--fields", "href,site", "-", "-o", "out.parquet"],
        &["extract", "--jsonl", "-", "-o", "out.jsonl.zst"],
        &["check", "-", "-o", "report.txt"],
        &["stats", "--json", "-", "-o", "stats.json"],
    ];
    for (i, args) in runs.iter().enumerate() {
        let (signal, status) = if i % 2 == 0 {
            ("-INT", 130)
        } else {
            ("-TERM", 143)
        };
        let wd = Workdir::new();
        std::fs::create_dir(wd.path("spill")).unwrap();
        let mut child = wd
            .command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn urlsift");
        // Some records, then the input stays open: the run is mid-way.
        let mut stdin = child.stdin.take().unwrap();
        std::io::Write::write_all(&mut stdin, b"https://a.example/\nnot a url\n").unwrap();
        wait_for(&wd, ".urlsift-");
        std::thread::sleep(Duration::from_millis(100));
        kill(child.id(), signal);
        let out = child.wait_with_output().unwrap();
        drop(stdin);
        assert_eq!(
            out.status.code(),
            Some(status),
            "{args:?}: {}",
            stderr(&out)
        );
        assert_eq!(wd.files(), vec!["spill"], "{args:?}: files left");
        let spilled: Vec<_> = std::fs::read_dir(wd.path("spill")).unwrap().collect();
        assert!(spilled.is_empty(), "{args:?}: spill dir left: {spilled:?}");
    }
}

/// `links` reads named files only: a FIFO that no one writes keeps it
/// waiting with its output open.
#[test]
fn a_signal_stops_links_cleanly() {
    let wd = Workdir::new();
    let fifo = wd.path("pages.warc");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let child = wd
        .command(&["links", "pages.warc", "-o", "links.csv"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(&wd, ".urlsift-");
    kill(child.id(), "-INT");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert_eq!(wd.files(), vec!["pages.warc"]);
}

/// A cut `.gz`: standard output has everything before the cut, an `-o`
/// file is not written at all (and no temp file is left), the rejects
/// file is, and the status is 2 either way.
#[test]
fn a_fault_writes_no_output_file_but_keeps_the_rejects() {
    let wd = Workdir::new();
    let mut text = String::new();
    for i in 0..20_000 {
        text.push_str(&format!("https://h{}.example/p?q={i}\n", i % 97));
        if i % 1000 == 0 {
            text.push_str("not a url\n");
        }
    }
    let gz = gzip(text.as_bytes());
    wd.create("cut.gz", &gz[..gz.len() / 2]);
    let streamed = wd.run(&["normalize", "-q", "cut.gz"], None);
    assert_eq!(streamed.status.code(), Some(2));
    assert!(
        streamed.stdout.len() > 1000,
        "stdout streams the records before the cut"
    );

    for out_name in ["out.txt", "out.txt.gz", "out.csv.zst"] {
        let args: &[&str] = match out_name {
            "out.csv.zst" => &[
                "extract",
                "-o",
                out_name,
                "--rejects",
                "rejects.tsv",
                "cut.gz",
            ],
            _ => &[
                "normalize",
                "-o",
                out_name,
                "--rejects",
                "rejects.tsv",
                "cut.gz",
            ],
        };
        let out = wd.run(args, None);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains(&format!("{out_name} not written")), "{err}");
        assert!(err.contains("cannot read cut.gz"), "{err}");
        assert_eq!(wd.files(), vec!["cut.gz", "rejects.tsv"], "{out_name}");
        let rejects = String::from_utf8(wd.read("rejects.tsv")).unwrap();
        assert!(rejects.contains("not a url"), "{rejects}");
        std::fs::remove_file(wd.path("rejects.tsv")).unwrap();
    }
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// The name picks the format where the flags leave it open, `.gz` and
/// `.zst` compress, and a name that names another format than the run
/// writes is refused before any work, leaving nothing.
#[test]
fn the_output_name_means_the_same_for_every_subcommand() {
    let wd = Workdir::new();
    wd.create(
        "urls.txt",
        "https://A.example/x\nhttps://b.example/\nhttps://a.example/x\n",
    );
    let plain = wd.stdout(&["dedup", "-q", "urls.txt"]);

    // Compressed by name, the same bytes inside.
    wd.stdout(&["dedup", "-q", "urls.txt", "-o", "u.txt.gz"]);
    assert_eq!(gunzip(&wd.read("u.txt.gz")), plain.as_bytes());
    wd.stdout(&["dedup", "-q", "urls.txt", "-o", "u.zst"]);
    let unzstd = zstd::decode_all(&wd.read("u.zst")[..]).unwrap();
    assert_eq!(unzstd, plain.as_bytes());

    // extract: the name picks the format; a flag wins and must agree.
    let jsonl = wd.stdout(&[
        "extract", "-q", "--jsonl", "--fields", "hostname", "urls.txt",
    ]);
    wd.stdout(&[
        "extract", "-q", "--fields", "hostname", "urls.txt", "-o", "p.jsonl",
    ]);
    assert_eq!(wd.read("p.jsonl"), jsonl.as_bytes());
    let tsv = wd.stdout(&["extract", "-q", "--tsv", "--fields", "hostname", "urls.txt"]);
    wd.stdout(&[
        "extract", "-q", "--fields", "hostname", "urls.txt", "-o", "p.tsv.gz",
    ]);
    assert_eq!(gunzip(&wd.read("p.tsv.gz")), tsv.as_bytes());
    wd.stdout(&[
        "extract",
        "-q",
        "--fields",
        "hostname",
        "urls.txt",
        "-o",
        "p.parquet",
    ]);
    assert!(wd.read("p.parquet").starts_with(b"PAR1"));

    // links: the same rule.
    let pages =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/examples/pages.warc.gz");
    std::fs::copy(pages, wd.path("pages.warc.gz")).unwrap();
    let csv = wd.stdout(&[
        "links",
        "-q",
        "--csv",
        "--fields",
        "from,to",
        "pages.warc.gz",
    ]);
    wd.stdout(&[
        "links",
        "-q",
        "--fields",
        "from,to",
        "pages.warc.gz",
        "-o",
        "l.csv",
    ]);
    assert_eq!(wd.read("l.csv"), csv.as_bytes());
    wd.stdout(&["links", "-q", "pages.warc.gz", "-o", "l.parquet"]);
    assert!(wd.read("l.parquet").starts_with(b"PAR1"));

    let before = wd.files();
    let refused: &[(&[&str], &str)] = &[
        (&["dedup", "urls.txt", "-o", "x.parquet"], ".parquet"),
        (&["normalize", "urls.txt", "-o", "x.csv"], ".csv"),
        (&["normalize", "urls.txt", "-o", "x.jsonl.gz"], ".jsonl"),
        (&["extract", "--tsv", "urls.txt", "-o", "x.jsonl"], ".jsonl"),
        (
            &["extract", "--format", "{host}", "urls.txt", "-o", "x.csv"],
            ".csv",
        ),
        (&["extract", "urls.txt", "-o", "x.cdxj"], ".cdxj"),
        (
            &["extract", "urls.txt", "-o", "x.parquet.gz"],
            "Parquet compresses",
        ),
        (&["check", "urls.txt", "-o", "x.parquet"], ".parquet"),
        (&["stats", "urls.txt", "-o", "x.csv"], ".csv"),
        (
            &["links", "--jsonl", "pages.warc.gz", "-o", "x.tsv"],
            ".tsv",
        ),
    ];
    for (args, says) in refused {
        let out = wd.run(args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
    assert_eq!(wd.files(), before, "a refused name leaves nothing");
    // JSON output takes .json or .jsonl.
    wd.stdout(&["check", "--json", "urls.txt", "-o", "c.json"]);
    wd.stdout(&["stats", "--json", "urls.txt", "-o", "s.jsonl"]);
}

/// An output directory that is not there: the error names the output and
/// its directory, not the temp file urlsift would have made in it.
#[test]
fn a_missing_output_directory_is_named_without_the_temp_file() {
    let wd = Workdir::new();
    wd.create("in.txt", "https://a.example/\n");
    let out = wd.run(
        &["normalize", "-o", "/nonexistent/dir/out.txt", "in.txt"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("/nonexistent/dir/out.txt"), "{err}");
    assert!(!err.contains(".urlsift-"), "{err}");
}

/// `urlsift man` writes the pages its top page refers to: one per
/// subcommand, printed or written into a directory.
#[test]
fn man_pages_exist_for_every_subcommand() {
    let wd = Workdir::new();
    let top = wd.stdout(&["man"]);
    assert!(
        top.contains("urlsift\\-dedup(1)"),
        "the top page lists the pages"
    );
    let dedup = wd.stdout(&["man", "dedup"]);
    assert!(dedup.starts_with(".ie"), "roff");
    assert!(dedup.contains("urlsift\\-dedup"), "{}", &dedup[..300]);
    assert!(dedup.contains("\\-\\-memory"), "dedup's own flags");
    let out = wd.run(&["man", "nosuch"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("normalize"), "{}", stderr(&out));
    std::fs::create_dir(wd.path("man1")).unwrap();
    wd.stdout(&["man", "--dir", "man1"]);
    let mut pages: Vec<String> = std::fs::read_dir(wd.path("man1"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    pages.sort();
    for sub in [
        "normalize",
        "dedup",
        "extract",
        "check",
        "stats",
        "links",
        "compare",
    ] {
        assert!(pages.contains(&format!("urlsift-{sub}.1")), "{pages:?}");
    }
    assert!(pages.contains(&"urlsift.1".to_string()));
}

/// On a terminal, a plain file of known size gets a bar with the share
/// done and the time left; compressed input (of unknown decoded size) the
/// bytes read and the rate. `script` gives the run a terminal.
#[test]
fn progress_on_a_terminal_shows_the_share_done_when_the_size_is_known() {
    let wd = Workdir::new();
    let mut text = String::new();
    for i in 0..400_000 {
        text.push_str(&format!("https://h{}.example/p/{i}?q={i}\n", i % 97));
    }
    wd.create("big.txt", &text);
    wd.create("big.txt.gz", gzip(text.as_bytes()));
    let bin = env!("CARGO_BIN_EXE_urlsift");
    let on_terminal = |input: &str| -> String {
        let out = std::process::Command::new("script")
            .args(["-qec", &format!("{bin} normalize -j1 {input} -o /dev/null")])
            .arg("/dev/null")
            .current_dir(wd.path(""))
            .output()
            .expect("util-linux `script` runs the command on a terminal");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let plain = on_terminal("big.txt");
    assert!(plain.contains('%') && plain.contains("left"), "{plain}");
    let packed = on_terminal("big.txt.gz");
    assert!(packed.contains(" read, "), "{packed}");
    assert!(!packed.contains("left"), "{packed}");
}

//! End-to-end tests of the `urlsift` binary: each test gets a fresh
//! temporary work directory, writes its inputs there and runs the real
//! binary, checking stdout, stderr, exit status and files left behind.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

struct Workdir {
    dir: tempfile::TempDir,
}

impl Workdir {
    fn new() -> Workdir {
        Workdir {
            dir: tempfile::Builder::new()
                .prefix("urlsift-cli-test-")
                .tempdir()
                .expect("temp dir"),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn create(&self, name: &str, bytes: impl AsRef<[u8]>) {
        std::fs::write(self.path(name), bytes).expect("write test input");
    }

    fn read(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.path(name)).expect("read test output")
    }

    fn files(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_urlsift"));
        cmd.args(args).current_dir(self.dir.path());
        cmd
    }

    /// Runs with `stdin` (empty when None) and returns everything.
    fn run(&self, args: &[&str], stdin: Option<&[u8]>) -> Output {
        let mut child = self
            .command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn urlsift");
        let mut pipe = child.stdin.take().unwrap();
        let input = stdin.unwrap_or_default().to_vec();
        let feeder = std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        });
        let out = child.wait_with_output().expect("wait for urlsift");
        feeder.join().unwrap();
        out
    }

    /// Runs and expects exit status 0; returns stdout.
    fn stdout(&self, args: &[&str]) -> String {
        let out = self.run(args, None);
        assert_eq!(
            out.status.code(),
            Some(0),
            "urlsift {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8 stdout")
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/sample.txt")
}

fn sample_str() -> String {
    sample().to_str().unwrap().to_string()
}

// ---------------------------------------------------------------- normalize

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
    assert_eq!(
        wd.stdout(&["normalize", "--surt", "in.txt"]),
        "com,example)/Path?q=1\norg,example,b,a:8080)/\nftp://(org,example)/f\nmailto:a@b.c\n"
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

// ---------------------------------------------------------------- bad input

const MESSY: &[u8] = b"https://a.com/1\r\n\r\nnot a url\nhttp://b.com/\xff\xfe\nhttp://c\x00.com/\n\nhttps://d.com/last";

#[test]
fn bad_lines_are_skipped_and_every_line_is_accounted_for() {
    let wd = Workdir::new();
    wd.create("messy.txt", MESSY);
    let out = wd.run(&["normalize", "messy.txt"], None);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"https://a.com/1\nhttps://d.com/last\n");
    assert_eq!(
        stderr(&out).trim_end(),
        "urlsift: 7 lines from 1 input: 2 valid, 2 empty, 3 bad \
         (1 NUL-byte, 1 invalid-UTF-8, 1 missing-scheme-non-relative-URL; skipped)"
    );
    let quiet = wd.run(&["normalize", "-q", "messy.txt"], None);
    assert!(quiet.stderr.is_empty());
}

#[test]
fn rejects_file_has_source_line_reason_and_raw_bytes() {
    let wd = Workdir::new();
    wd.create("messy.txt", MESSY);
    wd.create("second.txt", "ok\nhttps://fine.org/\n");
    wd.stdout(&[
        "normalize",
        "-q",
        "--rejects",
        "rej.tsv",
        "messy.txt",
        "second.txt",
    ]);
    let mut expected = Vec::new();
    expected.extend_from_slice(
        b"messy.txt\t3\tinvalid URL (missing-scheme-non-relative-URL)\tnot a url\n",
    );
    expected.extend_from_slice(b"messy.txt\t4\tinvalid UTF-8\thttp://b.com/\xff\xfe\n");
    expected.extend_from_slice(b"messy.txt\t5\tNUL byte\thttp://c\x00.com/\n");
    expected
        .extend_from_slice(b"second.txt\t1\tinvalid URL (missing-scheme-non-relative-URL)\tok\n");
    assert_eq!(
        String::from_utf8_lossy(&wd.read("rej.tsv")),
        String::from_utf8_lossy(&expected)
    );
    assert_eq!(wd.read("rej.tsv"), expected);
}

#[test]
fn keep_invalid_keeps_lines_aligned() {
    let wd = Workdir::new();
    wd.create("messy.txt", MESSY);
    let out = wd.run(&["normalize", "--keep-invalid", "messy.txt"], None);
    assert_eq!(out.status.code(), Some(0));
    let expected: &[u8] =
        b"https://a.com/1\n\nnot a url\nhttp://b.com/\xff\xfe\nhttp://c\x00.com/\n\nhttps://d.com/last\n";
    assert_eq!(out.stdout, expected);
    assert!(stderr(&out).contains("passed through"));
}

#[test]
fn strict_stops_with_status_1_and_writes_no_output_file() {
    let wd = Workdir::new();
    wd.create("messy.txt", MESSY);
    let out = wd.run(
        &["normalize", "--strict", "-o", "out.txt", "messy.txt"],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("messy.txt:3: invalid URL (missing-scheme-non-relative-URL)"),
        "{}",
        stderr(&out)
    );
    assert_eq!(wd.files(), vec!["messy.txt"]);
    wd.create("clean.txt", "https://a.com/\n");
    let ok = wd.run(&["normalize", "--strict", "clean.txt"], None);
    assert_eq!(ok.status.code(), Some(0));
}

#[test]
fn empty_input_and_stdin() {
    let wd = Workdir::new();
    wd.create("empty.txt", "");
    assert_eq!(wd.stdout(&["normalize", "empty.txt"]), "");
    let out = wd.run(&["normalize", "-"], Some(b"http://A.com\n"));
    assert_eq!(out.stdout, b"http://a.com/\n");
    let out = wd.run(&["normalize"], Some(b"http://B.com"));
    assert_eq!(out.stdout, b"http://b.com/\n");
}

#[test]
fn overlong_line_is_rejected_without_stopping_the_run() {
    let wd = Workdir::new();
    let mut data = Vec::with_capacity(100 << 20);
    data.extend_from_slice(b"https://big.example/");
    data.resize(100 << 20, b'a');
    data.extend_from_slice(b"\nhttps://after.example/\n");
    wd.create("big.txt", &data);
    drop(data);
    let out = wd.run(&["normalize", "--rejects", "rej.tsv", "big.txt"], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(out.stdout, b"https://after.example/\n");
    assert!(stderr(&out).contains("1 line-too-long"), "{}", stderr(&out));
    let rej = wd.read("rej.tsv");
    assert!(
        rej.starts_with(b"big.txt\t1\tline longer than --max-line-bytes\thttps://big.example/aaa")
    );
    assert_eq!(
        rej.len(),
        (100 << 20) + "big.txt\t1\tline longer than --max-line-bytes\t\n".len()
    );
    // A raised limit accepts a long line.
    let mut long = b"https://long.example/".to_vec();
    long.resize(3 << 20, b'b');
    wd.create("long.txt", &long);
    let out = wd.run(
        &["normalize", "-q", "--max-line-bytes", "2M", "long.txt"],
        None,
    );
    assert!(out.stdout.is_empty());
    let out = wd.run(&["normalize", "--max-line-bytes", "4M", "long.txt"], None);
    assert_eq!(out.stdout.len(), long.len() + 1);
}

#[test]
fn gzip_and_zstd_are_detected_and_truncation_is_an_error() {
    let wd = Workdir::new();
    let plain = std::fs::read(sample()).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&plain).unwrap();
    let gz = gz.finish().unwrap();
    wd.create("s.gz", &gz);
    wd.create("s.zst", zstd::encode_all(&plain[..], 1).unwrap());
    let s = sample_str();
    let expected = wd.stdout(&["normalize", "-q", &s]);
    assert_eq!(wd.stdout(&["normalize", "-q", "s.gz"]), expected);
    assert_eq!(wd.stdout(&["normalize", "-q", "s.zst"]), expected);
    let piped = wd.run(&["normalize", "-q", "-"], Some(&gz));
    assert_eq!(String::from_utf8(piped.stdout).unwrap(), expected);

    wd.create("cut.gz", &gz[..gz.len() / 2]);
    let out = wd.run(&["normalize", "-q", "-o", "out.txt", "cut.gz"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cut.gz: gzip data is corrupt or truncated"),
        "{}",
        stderr(&out)
    );
    assert!(!wd.path("out.txt").exists());
}

#[test]
fn missing_input_is_status_2_naming_the_file() {
    let wd = Workdir::new();
    let out = wd.run(&["normalize", "nope.txt"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("nope.txt"), "{}", stderr(&out));
    let out = wd.run(&["normalize", "--no-such-flag"], None);
    assert_eq!(out.status.code(), Some(2));
    let out = wd.run(&["dedup", "--memory", "lots"], None);
    assert_eq!(out.status.code(), Some(2));
}

// ---------------------------------------------------------------- output

#[test]
fn output_file_is_written_atomically_and_nul_terminated() {
    let wd = Workdir::new();
    wd.create("in.txt", "http://a.com\nhttp://b.com\n");
    wd.create("out.txt", "old contents\n");
    let out = wd.run(&["normalize", "-0", "-o", "out.txt", "in.txt"], None);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert_eq!(wd.read("out.txt"), b"http://a.com/\0http://b.com/\0");
    assert_eq!(wd.files(), vec!["in.txt", "out.txt"], "no temp file left");
    let out = wd.run(&["normalize", "-o", "no/such/dir/out.txt", "in.txt"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no/such/dir/out.txt"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn closed_pipe_exits_0_quietly() {
    let wd = Workdir::new();
    let line = "https://example.com/some/path?with=query\n";
    wd.create("many.txt", line.repeat(300_000));
    let mut child = wd
        .command(&["normalize", "-j2", "many.txt"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 10];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout); // like `| head -c 10`
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "");
}

// ---------------------------------------------------------------- parallelism

#[test]
fn output_is_identical_for_any_thread_count_and_chunk_size() {
    let wd = Workdir::new();
    let s = sample_str();
    let commands: [&[&str]; 6] = [
        &["normalize", "--keep-invalid", "--sort-query"],
        &["dedup", "--key", "pattern", "--count"],
        &["dedup", "--key", "origin"],
        &["extract", "--jsonl", "--fields", "line,href,origin"],
        &["check", "--json"],
        &["stats", "--json"],
    ];
    for cmd in commands {
        let mut results = Vec::new();
        for (threads, chunk) in [("1", "4M"), ("2", "1K"), ("4", "300"), ("3", "1")] {
            let mut args = cmd.to_vec();
            args.extend_from_slice(&["-q", "-j", threads, "--chunk-size", chunk, &s]);
            let mut out = wd.stdout(&args);
            if cmd[0] == "stats" {
                // Drop the timing fields, which differ run to run.
                out = out
                    .lines()
                    .filter(|l| !l.contains("second") && !l.contains("seconds"))
                    .collect::<Vec<_>>()
                    .join("\n");
            }
            results.push(out);
        }
        assert!(results[0].len() > 1000, "{cmd:?} printed too little");
        for r in &results[1..] {
            assert!(
                r == &results[0],
                "{cmd:?}: output depends on threads/chunks"
            );
        }
    }
}

// ---------------------------------------------------------------- dedup

/// First occurrences of normalized lines, computed independently.
fn reference_dedup(normalized: &str) -> (String, String) {
    let mut seen: std::collections::HashMap<&str, usize> = Default::default();
    let mut order: Vec<(&str, u64)> = Vec::new();
    for line in normalized.lines() {
        match seen.get(line) {
            Some(&i) => order[i].1 += 1,
            None => {
                seen.insert(line, order.len());
                order.push((line, 1));
            }
        }
    }
    let plain: String = order.iter().map(|(l, _)| format!("{l}\n")).collect();
    let counted: String = order.iter().map(|(l, n)| format!("{n:>7} {l}\n")).collect();
    (plain, counted)
}

#[test]
fn dedup_matches_a_reference_in_memory_and_when_spilling() {
    let wd = Workdir::new();
    let s = sample_str();
    let normalized = wd.stdout(&["normalize", "-q", &s]);
    let (plain, counted) = reference_dedup(&normalized);
    assert!(
        plain.lines().count() < normalized.lines().count(),
        "sample has duplicates"
    );
    for memory in ["1G", "64K", "1K", "1"] {
        let tmp = wd.path("spill");
        std::fs::create_dir_all(&tmp).unwrap();
        let tmp = tmp.to_str().unwrap().to_string();
        let base = [
            "-q",
            "--memory",
            memory,
            "--tmp-dir",
            &tmp,
            "--chunk-size",
            "8K",
        ];
        let mut args = vec!["dedup"];
        args.extend_from_slice(&base);
        args.push(&s);
        assert_eq!(wd.stdout(&args), plain, "dedup --memory {memory}");
        let mut args = vec!["dedup", "--count"];
        args.extend_from_slice(&base);
        args.push(&s);
        assert_eq!(wd.stdout(&args), counted, "dedup --count --memory {memory}");
        assert_eq!(
            std::fs::read_dir(wd.path("spill")).unwrap().count(),
            0,
            "spill files removed"
        );
    }
}

#[test]
fn dedup_keys_agree_between_memory_and_spill() {
    let wd = Workdir::new();
    let s = sample_str();
    for key in ["no-fragment", "origin", "host", "pattern"] {
        let mem = wd.stdout(&["dedup", "-q", "--count", "--key", key, &s]);
        let spill = wd.stdout(&["dedup", "-q", "--count", "--key", key, "--memory", "2K", &s]);
        assert_eq!(mem, spill, "key {key}");
        let total: u64 = mem
            .lines()
            .map(|l| l.split_whitespace().next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, 10946, "counts add up to the valid lines (key {key})");
    }
}

#[test]
fn dedup_keys() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        "https://a.com/x#1\nhttps://A.com/x#1\nhttps://a.com/x#2\nhttps://a.com:8443/y\n\
         https://b.com/u/123?z=1&a=2\nhttps://b.com/u/456?a=9&z=0\nhttp://b.com/other\nbad\nbad\n",
    );
    let run = |key: &str| {
        wd.stdout(&[
            "dedup",
            "-q",
            "--count",
            "--key",
            key,
            "--keep-invalid",
            "in.txt",
        ])
    };
    assert_eq!(
        run("href"),
        "      2 https://a.com/x#1\n      1 https://a.com/x#2\n      1 https://a.com:8443/y\n      1 https://b.com/u/123?z=1&a=2\n      1 https://b.com/u/456?a=9&z=0\n      1 http://b.com/other\n      2 bad\n"
    );
    assert_eq!(
        run("no-fragment"),
        "      3 https://a.com/x#1\n      1 https://a.com:8443/y\n      1 https://b.com/u/123?z=1&a=2\n      1 https://b.com/u/456?a=9&z=0\n      1 http://b.com/other\n      2 bad\n"
    );
    assert_eq!(
        run("origin"),
        "      3 https://a.com/x#1\n      1 https://a.com:8443/y\n      2 https://b.com/u/123?z=1&a=2\n      1 http://b.com/other\n      2 bad\n"
    );
    assert_eq!(
        run("host"),
        "      3 https://a.com/x#1\n      1 https://a.com:8443/y\n      3 https://b.com/u/123?z=1&a=2\n      2 bad\n"
    );
    assert_eq!(
        run("pattern"),
        "      3 https://a.com/x#1\n      1 https://a.com:8443/y\n      2 https://b.com/u/123?z=1&a=2\n      1 http://b.com/other\n      2 bad\n"
    );
}

// ---------------------------------------------------------------- extract

#[test]
fn extract_formats() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        "https://u:p@Ex.com:8080/a,b?q=1#h\nbad\nfile:///tmp/x\n",
    );
    assert_eq!(
        wd.stdout(&["extract", "-q", "in.txt"]),
        "href,protocol,username,password,hostname,port,pathname,search,hash,origin\n\
         \"https://u:p@ex.com:8080/a,b?q=1#h\",https:,u,p,ex.com,8080,\"/a,b\",?q=1,#h,https://ex.com:8080\n\
         file:///tmp/x,file:,,,,,/tmp/x,,,null\n"
    );
    assert_eq!(
        wd.stdout(&[
            "extract",
            "-q",
            "--tsv",
            "--fields",
            "line,host,pathname",
            "in.txt"
        ]),
        "line\thost\tpathname\n1\tex.com:8080\t/a,b\n3\t\t/tmp/x\n"
    );
    assert_eq!(
        wd.stdout(&[
            "extract",
            "-q",
            "--jsonl",
            "--fields",
            "line,input,hostname",
            "in.txt"
        ]),
        "{\"line\":1,\"input\":\"https://u:p@Ex.com:8080/a,b?q=1#h\",\"hostname\":\"ex.com\"}\n\
         {\"line\":3,\"input\":\"file:///tmp/x\",\"hostname\":\"\"}\n"
    );
    assert_eq!(
        wd.stdout(&[
            "extract",
            "-q",
            "--format",
            "{{{hostname}}}{pathname} port={port}",
            "in.txt"
        ]),
        "{ex.com}/a,b port=8080\n{}/tmp/x port=\n"
    );
    for bad in [
        &["--fields", "href,nope"][..],
        &["--format", "{host"][..],
        &["--keep-invalid"][..],
    ] {
        let mut args = vec!["extract"];
        args.extend_from_slice(bad);
        args.push("in.txt");
        assert_eq!(wd.run(&args, None).status.code(), Some(2), "{bad:?}");
    }
}

// ---------------------------------------------------------------- check

#[test]
fn check_reports_spec_error_names() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        b"https://fine.com/\nhttp://0x7f.1/\nhttps://user:pw@ex.com/\nhttp://[::1\n\xff\n",
    );
    assert_eq!(
        wd.stdout(&["check", "in.txt"]),
        "in.txt:2: valid with errors: IPv4-non-decimal-part, IPv4-too-few-parts: http://0x7f.1/\n\
         in.txt:3: valid with errors: invalid-credentials: https://user:pw@ex.com/\n\
         in.txt:4: invalid: IPv6-unclosed: http://[::1\n\
         in.txt:5: invalid: invalid-UTF-8: \"\u{fffd}\"\n"
    );
    let json = wd.stdout(&["check", "--json", "in.txt"]);
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(first["line"], 2);
    assert_eq!(first["valid"], true);
    assert_eq!(first["errors"][0], "IPv4-non-decimal-part");
    assert_eq!(json.lines().count(), 4);
}

// ---------------------------------------------------------------- stats

#[test]
fn stats_counts() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        "https://a.com/\nhttps://a.com/x\nHTTP://B.com\n\nnope\nmailto:x@y\n",
    );
    let json = wd.stdout(&["stats", "--json", "in.txt"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["lines"], 6);
    assert_eq!(v["empty"], 1);
    assert_eq!(v["valid"], 4);
    assert_eq!(v["invalid"], 1);
    assert_eq!(
        v["invalid_by_reason"][0]["name"],
        "missing-scheme-non-relative-URL"
    );
    assert_eq!(v["schemes"][0]["name"], "https");
    assert_eq!(v["schemes"][0]["count"], 2);
    assert_eq!(v["top_hosts"][0]["name"], "a.com");
    assert_eq!(v["top_hosts"][0]["count"], 2);
    assert_eq!(v["already_normal"], 3);
    assert_eq!(v["fast_path_share"], "n/a (no fast path yet)");
    let table = wd.stdout(&["stats", "in.txt"]);
    assert!(table.contains("already normal (href == line)"), "{table}");
    assert!(table.contains("n/a (no fast path yet)"));
}

// ---------------------------------------------------------------- extras

#[test]
fn help_completions_and_man_page() {
    let wd = Workdir::new();
    let help = wd.stdout(&["--help"]);
    assert!(help.contains("Examples:"));
    assert!(
        wd.stdout(&["normalize", "--help"])
            .contains("--strip-params")
    );
    assert!(wd.stdout(&["completions", "bash"]).contains("urlsift"));
    assert!(
        wd.stdout(&["completions", "zsh"])
            .contains("#compdef urlsift")
    );
    assert!(wd.stdout(&["man"]).contains(".TH urlsift"));
}

/// Enough records that spill partitions exceed the split threshold and are
/// partitioned again on the next hash bits.
#[test]
fn dedup_recursive_spill_keeps_first_occurrence_order() {
    let wd = Workdir::new();
    let mut input = String::new();
    for i in 0..150_000u64 {
        // Every third line repeats an earlier one.
        let n = if i % 3 == 2 { i * 7919 % (i + 1) } else { i };
        input.push_str(&format!("https://h{}.example/p/{n}\n", n % 97));
    }
    wd.create("in.txt", &input);
    let (plain, counted) = reference_dedup(&input);
    let spill = wd.stdout(&["dedup", "-q", "--memory", "1", "--tmp-dir", ".", "in.txt"]);
    assert!(spill == plain, "spilled dedup differs from the reference");
    let spill = wd.stdout(&["dedup", "-q", "--count", "--memory", "1", "in.txt"]);
    assert!(
        spill == counted,
        "spilled dedup --count differs from the reference"
    );
    assert_eq!(wd.files(), vec!["in.txt"], "spill directory removed");
}

//! Bad input classes, the bad-line policy, output files, pipes and threads.

use crate::workdir::*;
use std::io::Read;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

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
fn rejects_file_has_source_line_offset_reason_and_raw_bytes() {
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
        b"messy.txt\t3\t19\tinvalid URL (missing-scheme-non-relative-URL)\tnot a url\n",
    );
    expected.extend_from_slice(b"messy.txt\t4\t29\tinvalid UTF-8\thttp://b.com/\xff\xfe\n");
    expected.extend_from_slice(b"messy.txt\t5\t45\tNUL byte\thttp://c\x00.com/\n");
    expected.extend_from_slice(
        b"second.txt\t1\t0\tinvalid URL (missing-scheme-non-relative-URL)\tok\n",
    );
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
        &[
            "normalize",
            "--strict",
            "-o",
            "out.txt",
            "--rejects",
            "rej.tsv",
            "messy.txt",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("messy.txt:3: invalid URL (missing-scheme-non-relative-URL)"),
        "{}",
        stderr(&out)
    );
    assert_eq!(wd.files(), vec!["messy.txt", "rej.tsv"]);
    assert_eq!(
        wd.read("rej.tsv"),
        b"messy.txt\t3\t19\tinvalid URL (missing-scheme-non-relative-URL)\tnot a url\n"
    );
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
    let head = "big.txt\t1\t0\tline longer than --max-line-bytes\t";
    assert!(rej.starts_with(format!("{head}https://big.example/aaa").as_bytes()));
    assert_eq!(rej.len(), (100 << 20) + head.len() + 1);
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
}

/// A gzip file cut short: every complete line `gzip -dc` decodes before
/// the error is processed and written (here to -o, which is committed),
/// the line the cut went through is a bad record, the summary is printed,
/// then the error naming the file; exit status 2.
#[test]
fn a_cut_gzip_file_loses_no_decoded_line() {
    let wd = Workdir::new();
    let plain = std::fs::read(sample()).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&plain).unwrap();
    let gz = gz.finish().unwrap();
    wd.create("cut.gz", &gz[..gz.len() * 6 / 10]);
    // The reference decoder: what `gzip -dc` writes before it fails.
    let zcat = Command::new("gzip")
        .args(["-dc", "cut.gz"])
        .current_dir(wd.path(""))
        .output()
        .expect("gzip is needed by this test");
    assert_ne!(
        zcat.status.code(),
        Some(0),
        "the cut file must fail to decode"
    );
    let decoded = zcat.stdout;
    let complete = &decoded[..decoded.iter().rposition(|&b| b == b'\n').unwrap() + 1];
    assert!(
        complete.len() > plain.len() / 3,
        "decoded {}",
        complete.len()
    );
    wd.create("complete.txt", complete);
    let expected = wd.stdout(&["normalize", "-q", "complete.txt"]);
    let out = wd.run(&["normalize", "cut.gz"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(String::from_utf8(out.stdout.clone()).unwrap(), expected);
    let err = stderr(&out);
    let summary = err.find("urlsift: ").expect("a summary");
    let error = err
        .find("cannot read cut.gz")
        .expect("the read error, naming the file");
    assert!(summary < error, "summary first, then the error: {err}");
    let message = format!(
        "cut.gz: gzip data is truncated at byte {} (member 1 started at byte 0)",
        gz.len() * 6 / 10
    );
    assert!(err.contains(&message), "{err}");
    if complete.len() < decoded.len() {
        assert!(err.contains("1 truncated-input"), "{err}");
    }
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

/// `-o` onto what is not a regular file writes into it rather than putting
/// a file in its place: /dev/null stays the device (a rename over it would
/// replace the device, which running as root can do), a FIFO is written
/// to, `/dev/stdout` appends to the file stdout is appended to; and a
/// symbolic link to a file stays a link, the file it names getting the
/// output.
#[test]
fn output_to_devices_fifos_and_links_is_written_in_place() {
    use std::os::unix::fs::FileTypeExt;
    let wd = Workdir::new();
    wd.create("in.txt", "HTTP://A.example/x\nhttp://b.example\n");
    let want = "http://a.example/x\nhttp://b.example/\n";

    let out = wd.run(&["normalize", "-o", "/dev/null", "in.txt"], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let null = std::fs::metadata("/dev/null").unwrap();
    assert!(
        null.file_type().is_char_device(),
        "/dev/null is no longer a device"
    );

    let fifo = wd.path("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success(),
        "mkfifo"
    );
    let reader = std::thread::spawn(move || std::fs::read(fifo).unwrap());
    let out = wd.run(&["normalize", "-o", "fifo", "in.txt"], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(String::from_utf8(reader.join().unwrap()).unwrap(), want);

    wd.create("log.txt", "before\n");
    let log = std::fs::OpenOptions::new()
        .append(true)
        .open(wd.path("log.txt"))
        .unwrap();
    let out = wd
        .command(&["normalize", "-o", "/dev/stdout", "in.txt"])
        .stdout(log)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8(wd.read("log.txt")).unwrap(),
        format!("before\n{want}")
    );

    wd.create("real.txt", "old\n");
    std::os::unix::fs::symlink("real.txt", wd.path("link.txt")).unwrap();
    let out = wd.run(&["normalize", "-o", "link.txt", "in.txt"], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let link = std::fs::symlink_metadata(wd.path("link.txt")).unwrap();
    assert!(link.file_type().is_symlink(), "the link was replaced");
    assert_eq!(String::from_utf8(wd.read("real.txt")).unwrap(), want);
    assert!(
        !wd.files().iter().any(|f| f.starts_with(".urlsift-")),
        "{:?}",
        wd.files()
    );
}

/// `-o` onto a target that cannot be written fails with status 2, names the
/// target, and leaves no partial or temporary file behind.
#[test]
fn output_to_an_unwritable_target_fails_cleanly() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        "http://a.com
"
        .repeat(1000),
    );
    // A parent that is a regular file.
    let out = wd.run(&["normalize", "-o", "in.txt/out.txt", "in.txt"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("in.txt/out.txt"), "{}", stderr(&out));
    assert_eq!(wd.files(), vec!["in.txt"], "no file left behind");
    // A target that is a directory: the final rename must fail.
    std::fs::create_dir(wd.path("taken")).unwrap();
    wd.create("taken/keep.txt", "kept\n");
    let out = wd.run(&["normalize", "-o", "taken", "in.txt"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("taken"), "{}", stderr(&out));
    assert_eq!(wd.read("taken/keep.txt"), b"kept\n");
    assert_eq!(wd.files(), vec!["in.txt", "taken"], "no temp file left");
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

/// Makes a directory immutable (read-only even for root) until dropped.
struct Immutable(PathBuf);

impl Immutable {
    fn new(dir: PathBuf) -> Immutable {
        let ok = Command::new("chattr")
            .arg("+i")
            .arg(&dir)
            .status()
            .is_ok_and(|s| s.success());
        // Loud, not skipped: this test needs chattr and the right to use it.
        assert!(
            ok,
            "chattr +i {} failed (needs e2fsprogs and root)",
            dir.display()
        );
        Immutable(dir)
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        let _ = Command::new("chattr").arg("-i").arg(&self.0).status();
    }
}

/// `-o` into a read-only directory fails with status 2, names the target,
/// and leaves nothing there.
#[test]
fn output_into_a_read_only_directory_fails_cleanly() {
    let wd = Workdir::new();
    wd.create("in.txt", "http://a.com\n");
    std::fs::create_dir(wd.path("ro")).unwrap();
    let _guard = Immutable::new(wd.path("ro"));
    let out = wd.run(&["normalize", "-o", "ro/out.txt", "in.txt"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("ro/out.txt"), "{}", stderr(&out));
    assert_eq!(std::fs::read_dir(wd.path("ro")).unwrap().count(), 0);
}

/// A write that fails part way (here: a file-size limit, so `write` gets
/// EFBIG as it would get ENOSPC on a full disk) fails with status 2 and
/// leaves neither the target nor a temporary file; an existing target is
/// left as it was.
#[test]
fn output_that_cannot_be_written_in_full_fails_cleanly() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        "http://example.com/a/long/enough/path\n".repeat(20_000),
    );
    wd.create("out.txt", "previous\n");
    let script = format!(
        "trap '' XFSZ; ulimit -f 64; exec {} normalize -o out.txt in.txt",
        env!("CARGO_BIN_EXE_urlsift")
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(wd.path(""))
        .output()
        .expect("run sh");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("out.txt"), "{}", stderr(&out));
    assert_eq!(wd.read("out.txt"), b"previous\n");
    assert_eq!(wd.files(), vec!["in.txt", "out.txt"], "no temp file left");
}

/// Plain files are memory-mapped; pipes are read. Both paths give the
/// same bytes for every corpus, and with small chunks too (many cuts).
#[test]
fn mapped_and_read_input_give_identical_output_on_every_corpus() {
    let wd = Workdir::new();
    for file in crate::common::corpus_files() {
        let data = std::fs::read(&file).unwrap();
        let path = file.to_str().unwrap();
        for chunk in ["4M", "64K"] {
            let args = ["normalize", "-q", "--keep-invalid", "--chunk-size", chunk];
            let mapped = wd.run(&[&args[..], &[path]].concat(), None);
            let read = wd.run(&[&args[..], &["-"]].concat(), Some(&data));
            assert_eq!(mapped.status.code(), Some(0), "{path}");
            assert!(
                mapped.stdout == read.stdout,
                "{path} --chunk-size {chunk}: mapped and read output differ"
            );
            assert!(!mapped.stdout.is_empty());
        }
    }
}

/// Rejects name each bad line's number in its source, however the input
/// is cut into chunks and whichever thread read them (the writer numbers
/// lines for normalize, dedup and extract without a `line` field), over-long
/// lines and two sources included.
#[test]
fn rejects_number_lines_in_their_source_for_any_chunking() {
    let wd = Workdir::new();
    let mut text = String::new();
    let mut want = Vec::new();
    for i in 1..=3000u64 {
        let line = match i % 97 {
            0 => "not a url".to_string(),
            13 => "x".repeat(300),
            40 => String::new(),
            _ => format!("https://h{}.example/p/{i}", i % 13),
        };
        match i % 97 {
            0 => want.push(format!(
                "a.txt\t{i}\tinvalid URL (missing-scheme-non-relative-URL)"
            )),
            13 => want.push(format!("a.txt\t{i}\tline longer than --max-line-bytes")),
            _ => {}
        }
        text.push_str(&line);
        text.push('\n');
    }
    wd.create("a.txt", &text);
    wd.create("b.txt", "https://b.example/\nnope\n");
    want.push("b.txt\t2\tinvalid URL (missing-scheme-non-relative-URL)".to_string());
    // `cmd` on both sources with `-j` and `--chunk-size`, lines over 200
    // bytes too long.
    let run = |cmd: &str, j: &str, chunk: &str, args: &[&str]| {
        let common = [
            cmd,
            "-q",
            "-j",
            j,
            "--chunk-size",
            chunk,
            "--max-line-bytes",
            "200",
        ];
        wd.run(&[&common[..], args, &["a.txt", "b.txt"]].concat(), None)
    };
    for cmd in ["normalize", "dedup", "extract"] {
        for (j, chunk) in [("1", "4M"), ("2", "1K"), ("3", "100"), ("2", "7")] {
            let out = run(cmd, j, chunk, &["--rejects", "rej.tsv"]);
            assert_eq!(out.status.code(), Some(0), "{cmd} -j{j} {chunk}");
            let rejects = String::from_utf8(wd.read("rej.tsv")).unwrap();
            let got: Vec<String> = rejects
                .lines()
                .map(|l| {
                    let f: Vec<&str> = l.split('\t').collect();
                    format!("{}\t{}\t{}", f[0], f[1], f[3])
                })
                .collect();
            assert_eq!(got, want, "{cmd} -j{j} --chunk-size {chunk}");
        }
    }
    // With a `line` field the reader numbers the lines: each valid line's
    // number in its source, however cut.
    let valid: Vec<String> = (1..=3000u64)
        .filter(|i| ![0, 13, 40].contains(&(i % 97)))
        .map(|i| i.to_string())
        .chain(["1".to_string()])
        .collect();
    for (j, chunk) in [("1", "4M"), ("2", "100"), ("2", "7")] {
        let out = run("extract", j, chunk, &["--no-header", "--fields", "line"]);
        let got: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        assert_eq!(
            got, valid,
            "extract --fields line -j{j} --chunk-size {chunk}"
        );
    }
}

/// NUL bytes in otherwise clean text (the fused line scan's path) are bad
/// lines wherever they sit, proved URLs around them untouched.
#[test]
fn nul_bytes_in_clean_text_are_bad_lines() {
    let wd = Workdir::new();
    let mut text = String::new();
    let mut want = String::new();
    for i in 0..300usize {
        let url = format!("https://example.com/{}", "p".repeat(i % 130));
        if i % 3 == 0 {
            let at = 8 + i % (url.len() - 8);
            text.push_str(&url[..at]);
            text.push('\0');
            text.push_str(&url[at..]);
        } else {
            text.push_str(&url);
            want.push_str(&url);
            want.push('\n');
        }
        text.push('\n');
    }
    wd.create("nul.txt", &text);
    let out = wd.run(&["normalize", "nul.txt"], None);
    assert_eq!(String::from_utf8(out.stdout.clone()).unwrap(), want);
    assert!(stderr(&out).contains("100 NUL-byte"), "{}", stderr(&out));
    // `check` (the same scan) names each of those lines, and only those.
    for chunk in ["4M", "1K"] {
        let out = wd.run(&["check", "-j2", "--chunk-size", chunk, "nul.txt"], None);
        let report = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = report.lines().collect();
        assert_eq!(lines.len(), 100, "{report}");
        for (k, l) in lines.iter().enumerate() {
            let want = format!("nul.txt:{}: invalid: NUL-byte: ", 3 * k + 1);
            assert!(l.starts_with(&want), "{l} (want {want})");
        }
    }
}

/// UTF-16 and UTF-32 input (a byte-order mark) is refused with the
/// encoding named, not read as lines full of NUL bytes.
#[test]
fn utf16_input_is_named_not_read_as_nul_bytes() {
    let wd = Workdir::new();
    let text: Vec<u8> = "https://a.example/\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    wd.create("wide.txt", [&[0xFF, 0xFE][..], &text].concat());
    wd.create("wide.csv.gz", gzip(&[&[0xFF, 0xFE][..], &text].concat()));
    for file in ["wide.txt", "wide.csv.gz"] {
        let out = wd.run(&["normalize", file], None);
        assert_eq!(out.status.code(), Some(2), "{file}");
        let err = stderr(&out);
        assert!(
            err.contains(file) && err.contains("UTF-16LE") && err.contains("iconv"),
            "{err}"
        );
    }
}

#[test]
fn output_files_on_dev_shm_are_replaced_not_appended_to() {
    let shm = std::path::Path::new("/dev/shm");
    assert!(
        shm.is_dir(),
        "this test needs /dev/shm (a tmpfs) on the machine"
    );
    let wd = Workdir::new();
    wd.create("in.txt", "HTTP://A.example/x\n");
    let out = shm.join(format!("urlsift-test-{}.txt", std::process::id()));
    let out_s = out.display().to_string();
    for _ in 0..2 {
        wd.stdout(&["normalize", "-q", "-o", &out_s, "in.txt"]);
    }
    let written = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_file(&out).unwrap();
    assert_eq!(written, "http://a.example/x\n");
}

/// Common Crawl's own file names and WARC by content: `.warc.wat.gz` and
/// `.warc.wet.gz` are WARC files (their header lines are never read as
/// URLs), and a WARC file under another name is read as WARC (ARC files:
/// see `arc.rs`).
#[test]
fn wat_wet_by_name_warc_by_content() {
    let wd = Workdir::new();
    let record = |kind: &str, uri: Option<&str>, block: &str| {
        let target = uri.map_or(String::new(), |u| format!("WARC-Target-URI: {u}\r\n"));
        String::from_utf8(crate::workdir::warc_record(kind, &target, block.as_bytes())).unwrap()
    };
    let wat = format!(
        "{}{}",
        record("warcinfo", None, "software: test\r\n"),
        record("metadata", Some("https://A.example/x"), "{\"Envelope\":{}}")
    );
    wd.create("CC-MAIN-1.warc.wat.gz", gzip(wat.as_bytes()));
    let wet = format!(
        "{}{}",
        record("warcinfo", None, "software: test\r\n"),
        record("conversion", Some("https://B.example/y"), "text")
    );
    wd.create("CC-MAIN-1.warc.wet.gz", gzip(wet.as_bytes()));
    wd.create("capture.dat", &wat);
    for name in ["CC-MAIN-1.warc.wat.gz", "capture.dat"] {
        assert_eq!(
            wd.stdout(&["normalize", "-q", name]),
            "https://a.example/x\n",
            "{name}"
        );
    }
    assert_eq!(
        wd.stdout(&[
            "extract",
            "-q",
            "--fields",
            "href,@WARC-Type",
            "CC-MAIN-1.warc.wet.gz"
        ]),
        "href,WARC-Type\nhttps://b.example/y,conversion\n"
    );
}

/// Line ends of `\r\r\n` (a writer that doubled the CR, as pywb's
/// `missing-status-text.warc` has them): the header block still ends at
/// its blank line, as warcio reads it, for the records and for links.
#[test]
fn warc_records_with_doubled_cr_line_ends() {
    let wd = Workdir::new();
    let html = b"<a href=/next>n</a>";
    let mut http = b"HTTP/1.0 200 \r\r\nContent-Type: text/html\r\r\n\r\r\n".to_vec();
    http.extend_from_slice(html);
    let mut warc = format!(
        "WARC/1.0\r\r\nWARC-Type: response\r\r\nWARC-Target-URI: http://e.example/a\r\r\n\
         Content-Type: application/http; msgtype=response\r\r\nContent-Length: {}\r\r\n\r\r\n",
        http.len()
    )
    .into_bytes();
    warc.extend_from_slice(&http);
    warc.extend_from_slice(b"\r\r\n\r\r\n");
    let twice = [&warc[..], &warc[..]].concat();
    wd.create("doubled.warc", &twice);
    assert_eq!(
        wd.stdout(&["normalize", "-q", "doubled.warc"]),
        "http://e.example/a\nhttp://e.example/a\n"
    );
    assert_eq!(
        wd.stdout(&["links", "-q", "doubled.warc"]),
        "http://e.example/next\nhttp://e.example/next\n"
    );
}

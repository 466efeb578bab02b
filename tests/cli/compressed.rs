//! Compressed input as the command sees it: many gzip members and zstd
//! frames (skippable ones too) and zero padding give the plain file's
//! output; faults name the file, the byte offset and the member or frame;
//! a damaged member or frame loses only itself; trailing garbage is
//! reported; a reader that stops early exits at once.

use crate::workdir::*;
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::time::{Duration, Instant};

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(data).unwrap();
    gz.finish().unwrap()
}

fn zstd(data: &[u8]) -> Vec<u8> {
    zstd::encode_all(data, 3).unwrap()
}

/// A zstd skippable frame (as pzstd and seekable-format writers add).
fn skippable(payload: &[u8]) -> Vec<u8> {
    let mut frame = vec![0x50, 0x2a, 0x4d, 0x18];
    frame.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    frame.extend_from_slice(payload);
    frame
}

/// The sample cut into `n` pieces at line ends.
fn pieces(data: &[u8], n: usize) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut rest = data;
    for k in (1..=n).rev() {
        let mut cut = rest.len() / k;
        while cut < rest.len() && rest[cut - 1] != b'\n' {
            cut += 1;
        }
        let (piece, tail) = rest.split_at(cut);
        out.push(piece);
        rest = tail;
    }
    out
}

#[test]
fn many_members_and_frames_give_the_plain_output() {
    let wd = Workdir::new();
    let plain = std::fs::read(sample()).unwrap();
    let parts = pieces(&plain, 7);
    let mut gz: Vec<u8> = parts.iter().flat_map(|p| gzip(p)).collect();
    gz.extend(gzip(b""));
    gz.extend([0; 512]); // padding: ignored, as gzip ignores it
    let mut zst = skippable(b"index");
    for p in &parts {
        zst.extend(zstd(p));
        zst.extend(skippable(b""));
    }
    wd.create("m.gz", &gz);
    wd.create("m.zst", &zst);
    let s = sample_str();
    let expected = wd.stdout(&["normalize", "-q", "--keep-invalid", &s]);
    for args in [&["-j1"][..], &["-j2", "--chunk-size", "10K"]] {
        for file in ["m.gz", "m.zst"] {
            let mut cmd = vec!["normalize", "-q", "--keep-invalid", file];
            cmd.extend_from_slice(args);
            assert!(wd.stdout(&cmd) == expected, "{file} {args:?}");
        }
    }
    let piped = wd.run(&["normalize", "-q", "--keep-invalid", "-"], Some(&zst));
    assert_eq!(piped.status.code(), Some(0), "{}", stderr(&piped));
    assert!(piped.stdout == expected.as_bytes());
}

#[test]
fn faults_name_the_file_the_byte_and_the_member() {
    let wd = Workdir::new();
    let plain = std::fs::read(sample()).unwrap();
    let parts = pieces(&plain, 3);
    let first = gzip(parts[0]);
    let second = gzip(parts[1]);
    let mut gz = [&first[..], &second[..]].concat();
    gz.truncate(first.len() + second.len() / 2);
    wd.create("cut.gz", &gz);
    let zst = zstd(&plain);
    wd.create("cut.zst", &zst[..zst.len() - 10]);
    let mut damaged = first.clone();
    let crc_at = damaged.len() - 8;
    damaged[crc_at] ^= 1;
    wd.create("crc.gz", &damaged);
    let cases = [
        (
            "cut.gz",
            format!(
                "cut.gz: gzip data is truncated at byte {} (member 2 started at byte {})",
                gz.len(),
                first.len()
            ),
        ),
        (
            "cut.zst",
            format!(
                "cut.zst: zstd data is truncated at byte {} (frame 1 started at byte 0)",
                zst.len() - 10
            ),
        ),
        (
            "crc.gz",
            format!(
                "crc.gz: gzip data is corrupt at byte {crc_at} (member 1 started at byte 0): \
                 CRC-32 mismatch (the data is damaged)"
            ),
        ),
    ];
    for (file, message) in cases {
        let out = wd.run(&["normalize", "-q", file], None);
        assert_eq!(out.status.code(), Some(2), "{file}: {}", stderr(&out));
        assert!(stderr(&out).contains(&message), "{file}: {}", stderr(&out));
    }
}

/// A `.warc.gz` cut short, as one member and as a member per record:
/// every record decoded before the cut is read, exactly as from the
/// decoded bytes written out plainly (the record the cut falls in is
/// truncated either way), then the error, exit 2. The WARC reader used to
/// drop what its read-ahead held when the decoder failed.
#[test]
fn a_cut_warc_gz_loses_no_decoded_record() {
    let wd = Workdir::new();
    let mut records = Vec::new();
    for i in 0..3000 {
        let payload = format!("<p>{}</p>", "x".repeat(i % 700));
        records.push(format!(
            "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: HTTP://H{}.Example/{i}\r\n\
             Content-Length: {}\r\n\r\n{payload}\r\n\r\n",
            i % 13,
            payload.len()
        ));
    }
    let plain = records.concat().into_bytes();
    let one = gzip(&plain);
    let each: Vec<u8> = records.iter().flat_map(|r| gzip(r.as_bytes())).collect();
    for (name, gz) in [("one.warc.gz", one), ("each.warc.gz", each)] {
        let cut = &gz[..gz.len() * 6 / 10];
        wd.create(name, cut);
        // What a decoder gets out of the cut file before it fails.
        let mut decoded = Vec::new();
        let mut dec = flate2::read::MultiGzDecoder::new(cut);
        let mut buf = [0u8; 4096];
        loop {
            match std::io::Read::read(&mut dec, &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => decoded.extend_from_slice(&buf[..n]),
            }
        }
        assert!(
            decoded.len() > plain.len() / 3,
            "{name}: decoded too little"
        );
        let decoded_name = format!("{name}.decoded.warc");
        wd.create(&decoded_name, &decoded);
        let want = wd.run(&["normalize", "-v", &decoded_name], None);
        let got = wd.run(&["normalize", "-v", name], None);
        assert_eq!(got.status.code(), Some(2), "{name}: {}", stderr(&got));
        assert!(
            stderr(&got).contains(&format!("{name}: gzip data is truncated at byte")),
            "{name}: {}",
            stderr(&got)
        );
        assert!(!want.stdout.is_empty());
        assert!(got.stdout == want.stdout, "{name}: records lost");
        let summary = |out: &std::process::Output| {
            stderr(out)
                .lines()
                .find(|l| l.contains(" records from "))
                .map(str::to_string)
        };
        assert_eq!(summary(&got), summary(&want), "{name}");
        assert!(
            summary(&got).unwrap().contains("1 WARC-record-truncated"),
            "{name}: {}",
            stderr(&got)
        );
    }
}

/// A damaged member or frame in the middle of a file loses only itself:
/// the lines before it and after it are all written (for any `-j` and
/// chunk size), the fault names the file, the byte, the member or frame
/// and where decoding went on, and the exit status is 2. Decoding used to
/// stop at the first fault, losing every later member.
#[test]
fn a_damaged_member_or_frame_loses_only_itself() {
    let wd = Workdir::new();
    let plain = std::fs::read(sample()).unwrap();
    let parts = pieces(&plain, 7);
    let norm = |data: &[u8]| {
        wd.create("part.txt", data);
        wd.stdout(&["normalize", "-q", "part.txt"])
    };
    let before = norm(&parts[..3].concat());
    let after = norm(&parts[4..].concat());
    for (file, encode, unit) in [
        ("d.gz", gzip as fn(&[u8]) -> Vec<u8>, "member"),
        ("d.zst", zstd as fn(&[u8]) -> Vec<u8>, "frame"),
    ] {
        let units: Vec<Vec<u8>> = parts.iter().map(|p| encode(p)).collect();
        let start = |k: usize| units[..k].iter().map(Vec::len).sum::<usize>();
        let mut bytes = units.concat();
        // The middle of the fourth unit's compressed data.
        let at = start(3) + units[3].len() / 2;
        for b in &mut bytes[at..at + 16] {
            *b ^= 0x5a;
        }
        wd.create(file, &bytes);
        let mut outputs = Vec::new();
        for args in [&["-j1"][..], &["-j2", "--chunk-size", "10K"]] {
            let mut cmd = vec!["normalize", "-q", file];
            cmd.extend_from_slice(args);
            let out = wd.run(&cmd, None);
            assert_eq!(out.status.code(), Some(2), "{file}: {}", stderr(&out));
            let message = format!(
                "{file}: {} data is corrupt at byte ",
                if unit == "member" { "gzip" } else { "zstd" }
            );
            let err = stderr(&out);
            assert!(err.contains(&message), "{file}: {err}");
            assert!(
                err.contains(&format!("({unit} 4 started at byte {})", start(3))),
                "{file}: {err}"
            );
            assert!(
                err.contains(&format!(
                    "decoding went on with the next {unit} found, at byte {}",
                    start(4)
                )),
                "{file}: {err}"
            );
            let text = String::from_utf8(out.stdout).unwrap();
            assert!(
                text.starts_with(&before),
                "{file} {args:?}: lines before lost"
            );
            assert!(text.ends_with(&after), "{file} {args:?}: lines after lost");
            outputs.push(text);
        }
        assert!(outputs[0] == outputs[1], "{file}: output depends on -j");
    }
}

/// A `.warc.gz` of a member per record with one damaged member: every
/// other record is read, as from the archive without that record.
#[test]
fn a_damaged_warc_gz_record_loses_only_itself() {
    let wd = Workdir::new();
    let records: Vec<String> = (0..500)
        .map(|i| {
            let payload = format!("<p>{}</p>", "y".repeat(i % 300));
            format!(
                "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://h{}.example/{i}\r\n\
                 Content-Length: {}\r\n\r\n{payload}\r\n\r\n",
                i % 7,
                payload.len()
            )
        })
        .collect();
    let members: Vec<Vec<u8>> = records.iter().map(|r| gzip(r.as_bytes())).collect();
    let damaged = 200;
    let mut gz = Vec::new();
    for (i, m) in members.iter().enumerate() {
        let mut m = m.clone();
        if i == damaged {
            // The DEFLATE data's first bytes: the inflater fails at once.
            for b in &mut m[10..14] {
                *b = 0xff;
            }
        }
        gz.extend(m);
    }
    wd.create("d.warc.gz", &gz);
    let without: String = records
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != damaged)
        .map(|(_, r)| r.as_str())
        .collect();
    wd.create("without.warc", without.as_bytes());
    let want = wd.run(&["normalize", "without.warc"], None);
    let got = wd.run(&["normalize", "d.warc.gz"], None);
    assert_eq!(got.status.code(), Some(2), "{}", stderr(&got));
    assert!(
        stderr(&got).contains("d.warc.gz: gzip data is corrupt at byte"),
        "{}",
        stderr(&got)
    );
    assert_eq!(want.stdout.iter().filter(|&&b| b == b'\n').count(), 499);
    assert!(got.stdout == want.stdout, "records lost: {}", stderr(&got));
}

#[test]
fn trailing_garbage_is_reported_with_its_offset() {
    let wd = Workdir::new();
    let data = b"https://a.example/\nhttps://b.example/\n";
    for (file, bytes, format, unit) in [
        ("x.gz", gzip(data), "gzip", "member"),
        ("x.zst", zstd(data), "zstd", "frame"),
    ] {
        let mut with_garbage = bytes.clone();
        with_garbage.extend_from_slice(b"garbage\n");
        wd.create(file, &with_garbage);
        let out = wd.run(&["normalize", "-q", file], None);
        assert_eq!(out.status.code(), Some(2), "{file}: {}", stderr(&out));
        let message = format!(
            "{file}: {format} data is followed by trailing garbage at byte {} \
             (every {unit} before it was decoded)",
            bytes.len()
        );
        assert!(stderr(&out).contains(&message), "{file}: {}", stderr(&out));
    }
}

/// `urlsift normalize big.gz | head -1`: the decoding thread must not keep
/// the process alive once the output is gone.
#[test]
fn compressed_input_into_a_closed_pipe_exits_promptly() {
    let wd = Workdir::new();
    let plain = std::fs::read(sample()).unwrap();
    wd.create("big.gz", gzip(&plain.repeat(40)));
    for threads in ["-j1", "-j2"] {
        let mut child = wd
            .command(&["normalize", threads, "big.gz"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(first.ends_with('\n'));
        // stdout is closed now, like `| head -1`.
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > Duration::from_secs(60) {
                child.kill().unwrap();
                panic!("{threads}: still running a minute after its output closed");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(0), "{threads}");
    }
}

/// `compare` compares what a damaged file holds, as the other
/// subcommands process it: the URLs of the members around a damaged one
/// are in the report, the fault is printed after it, and the exit status
/// is 2. It used to stop at the fault with no report.
#[test]
fn compare_reads_past_a_damaged_member() {
    let wd = Workdir::new();
    let members: Vec<Vec<u8>> = (0..3)
        .map(|m| {
            let lines: String = (0..200)
                .map(|i| format!("https://m{m}.example/{i}\n"))
                .collect();
            gzip(lines.as_bytes())
        })
        .collect();
    let mut bytes = members.concat();
    let at = members[0].len() + members[1].len() / 2;
    for b in &mut bytes[at..at + 16] {
        *b ^= 0x5a;
    }
    wd.create("d.gz", &bytes);
    let out = wd.run(
        &[
            "compare",
            "--json",
            "--rounds",
            "0",
            "--parsers",
            "urlsift",
            "d.gz",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("d.gz: gzip data is corrupt at byte "),
        "{}",
        stderr(&out)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    let urls = report["corpus"]["urls"].as_u64().expect("a URL count");
    // The first and third members whole, and what the inflater made of
    // the second before the damage.
    assert!((400..600).contains(&urls), "{urls} URLs");
    // A name that is not there is still refused before anything runs.
    let out = wd.run(&["compare", "d.gz", "missing.txt"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("missing.txt"), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}

//! Record formats end to end: JSON lines, CDXJ, WARC and access logs
//! (CSV and TSV in `csv_tsv.rs`), each quirk as a named test; every other byte
//! of a record comes back untouched.

use crate::workdir::*;

fn ok(wd: &Workdir, args: &[&str]) -> String {
    wd.stdout(args)
}

/// A WARC record with `headers`, a Content-Length and `payload`.
fn warc_record(headers: &[(&str, &str)], payload: &[u8]) -> Vec<u8> {
    let mut r = b"WARC/1.1\r\n".to_vec();
    for (k, v) in headers {
        r.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
    }
    r.extend_from_slice(format!("Content-Length: {}\r\n\r\n", payload.len()).as_bytes());
    r.extend_from_slice(payload);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

#[test]
fn jsonl_replaces_only_the_value() {
    let wd = Workdir::new();
    let input = concat!(
        "{\"url\":\"HTTP://A.com/x\", \"n\": 1.50, \"e\":1e3 ,\"k\":[1,{\"url\":0}]}\n",
        "{\"id\":7,\"URL\" : \"http:\\/\\/b.com\\/\"}\n",
        "{\"url\":\"http:\\/\\/C.com\\/\\u00e9\"}\n",
        "{\"url\":\"https://d.org/\\ud83d\\ude00\"}\r\n",
    );
    wd.create("in.jsonl", input);
    assert_eq!(
        ok(&wd, &["normalize", "in.jsonl"]),
        concat!(
            "{\"url\":\"http://a.com/x\", \"n\": 1.50, \"e\":1e3 ,\"k\":[1,{\"url\":0}]}\n",
            // Unchanged value: the line as it was, escapes and all.
            "{\"id\":7,\"URL\" : \"http:\\/\\/b.com\\/\"}\n",
            // Changed: the new value encoded plainly.
            "{\"url\":\"http://c.com/%C3%A9\"}\n",
            "{\"url\":\"https://d.org/%F0%9F%98%80\"}\r\n",
        )
    );
}

#[test]
fn jsonl_dotted_paths_and_bad_records() {
    let wd = Workdir::new();
    let input = concat!(
        "{\"request\":{\"method\":\"GET\",\"url\":\"HTTP://a.org\"},\"url\":\"x\"}\n",
        "[1,2]\n",
        "{\"request\":{\"url\":null}}\n",
        "{\"request\":\"http://b.org/\"}\n",
        "not json\n",
        "{\"request\":{\"url\":\"http://c.org/\"}} trailing\n",
        "\n",
        "{\"request\":{\"url\":\"http://d.org/\"}}",
    );
    wd.create("in.ndjson", input);
    let out = wd.run(
        &[
            "normalize",
            "--field",
            "request.url",
            "--rejects",
            "rej.tsv",
            "in.ndjson",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "{\"request\":{\"method\":\"GET\",\"url\":\"http://a.org/\"},\"url\":\"x\"}\n\
         {\"request\":{\"url\":\"http://d.org/\"}}\n"
    );
    assert_eq!(
        stderr(&out).trim(),
        "urlsift: 8 records from 1 input: 2 valid, 1 empty, 5 bad (1 field-not-a-string, \
         2 invalid-JSON, 1 missing-field, 1 not-a-JSON-object; skipped)"
    );
    let rejects = String::from_utf8(wd.read("rej.tsv")).unwrap();
    let lines: Vec<&str> = rejects
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    assert_eq!(lines, ["2", "3", "4", "5", "6"]);
}

#[test]
fn jsonl_without_default_key_is_a_usage_error_listing_keys() {
    let wd = Workdir::new();
    wd.create("in.jsonl", "{\"link\":\"http://a.org/\",\"id\":1}\n");
    let out = wd.run(&["normalize", "in.jsonl"], None);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("\"link\"") && err.contains("\"id\""), "{err}");
    assert_eq!(
        ok(&wd, &["normalize", "--field", "link", "in.jsonl"]),
        "{\"link\":\"http://a.org/\",\"id\":1}\n"
    );
}

#[test]
fn cdxj_url_in_the_json_block_and_the_key_untouched() {
    let wd = Workdir::new();
    wd.create(
        "idx.cdxj",
        "com,example)/ 20240101000000 {\"url\": \"HTTP://Example.com\", \"status\": \"200\"}\n\
         bad line\n",
    );
    let out = wd.run(&["normalize", "idx.cdxj"], None);
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "com,example)/ 20240101000000 {\"url\": \"http://example.com/\", \"status\": \"200\"}\n"
    );
    assert!(
        stderr(&out).contains("1 not-a-CDXJ-line"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        ok(
            &wd,
            &["extract", "--fields", "host,@status", "idx.cdxj", "-q"]
        ),
        "host,status\nexample.com,200\n"
    );
}

#[test]
fn warc_plain_and_gzip_per_record_give_url_lines() {
    let wd = Workdir::new();
    let records = [
        warc_record(&[("WARC-Type", "warcinfo")], b"software: x\r\n"),
        warc_record(
            &[
                ("WARC-Type", "response"),
                ("WARC-Target-URI", "HTTP://Example.COM/a"),
                ("WARC-Date", "2024-01-01T00:00:01Z"),
            ],
            b"HTTP/1.1 200 OK\r\n\r\nWARC/1.0\r\nnot a header",
        ),
        warc_record(
            &[
                ("WARC-Type", "request"),
                ("WARC-Target-URI", "<https://x.org/b c>"),
                ("WARC-Date", "2024-01-01T00:00:02Z"),
            ],
            &[7u8; 100_000],
        ),
    ];
    wd.create("a.warc", records.concat());
    let gz: Vec<u8> = records.iter().flat_map(|r| gzip(r)).collect();
    wd.create("a.warc.gz", &gz);
    for file in ["a.warc", "a.warc.gz"] {
        let out = wd.run(&["normalize", "-v", file], None);
        assert_eq!(
            String::from_utf8(out.stdout.clone()).unwrap(),
            "http://example.com/a\nhttps://x.org/b%20c\n",
            "{file}"
        );
        assert!(
            stderr(&out).contains("3 records from 1 input: 2 valid, 1 empty, 0 bad"),
            "{}",
            stderr(&out)
        );
        assert_eq!(
            ok(&wd, &["extract", "--fields", "hostname,@WARC-Date", file]),
            "hostname,WARC-Date\nexample.com,2024-01-01T00:00:01Z\nx.org,2024-01-01T00:00:02Z\n"
        );
    }
    assert_eq!(
        ok(
            &wd,
            &[
                "extract",
                "--field",
                "WARC-Type",
                "--fields",
                "href",
                "a.warc"
            ]
        ),
        "href\n"
    );
}

#[test]
fn warc_bad_header_and_truncated_record_are_bad_records() {
    let wd = Workdir::new();
    let mut input = warc_record(&[("WARC-Target-URI", "http://a.org/")], b"x");
    let bad_at = input.len();
    input.extend_from_slice(b"garbage\r\nmore garbage\r\n");
    input.extend(warc_record(&[("WARC-Target-URI", "http://b.org/")], b"y"));
    let cut_at = input.len();
    let mut last = warc_record(&[("WARC-Target-URI", "http://c.org/")], &[1u8; 1000]);
    last.truncate(last.len() - 500);
    input.extend(last);
    wd.create("t.warc", &input);
    let out = wd.run(&["normalize", "--rejects", "rej.tsv", "t.warc"], None);
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "http://a.org/\nhttp://b.org/\n"
    );
    let rejects = String::from_utf8(wd.read("rej.tsv")).unwrap();
    let rows: Vec<Vec<&str>> = rejects.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 2, "{rejects}");
    assert_eq!(rows[0][1..3], ["-", &bad_at.to_string()[..]]);
    assert_eq!(rows[1][1..3], ["-", &cut_at.to_string()[..]]);
    assert!(rows[1][3].contains("Content-Length past the end"));
    let check = wd.run(&["check", "t.warc"], None);
    assert!(
        String::from_utf8_lossy(&check.stdout).contains(&format!(
            "t.warc: record at byte {bad_at}: invalid: bad-WARC-header"
        )),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
}

/// A damaged Content-Length (a digit changed or added) used to skip the
/// records it ran over, to the end of the file for a length past it. Now
/// the record whose header it is stands, its payload up to the next whole
/// record header is a `bad-WARC-length` reject, and every later record is
/// read: from the map of a plain file (any length) and from a `.warc.gz`
/// (buffered up to 1 MiB, watched while skipped past that).
#[test]
fn a_damaged_warc_content_length_loses_no_later_record() {
    let wd = Workdir::new();
    let records: Vec<Vec<u8>> = (0..6)
        .map(|i| {
            let url = format!("http://h{i}.example/");
            warc_record(
                &[("WARC-Target-URI", &url)],
                format!("<p>{i}</p>").as_bytes(),
            )
        })
        .collect();
    let want: String = (0..6).map(|i| format!("http://h{i}.example/\n")).collect();
    for (wrong, gz) in [
        ("99999999999", false),
        ("300", false),
        ("300", true),
        ("90000", true),
        // Past the end of a stream, too long to buffer: found while skipped.
        ("99999999999", true),
    ] {
        let mut damaged = records.clone();
        damaged[2] = String::from_utf8(damaged[2].clone())
            .unwrap()
            .replacen("Content-Length: 8", &format!("Content-Length: {wrong}"), 1)
            .into_bytes();
        let payload_at = records[0].len()
            + records[1].len()
            + damaged[2]
                .windows(4)
                .position(|w| w == b"\r\n\r\n")
                .unwrap()
            + 4;
        let name = if gz { "d.warc.gz" } else { "d.warc" };
        let bytes = if gz {
            damaged.iter().flat_map(|r| gzip(r)).collect()
        } else {
            damaged.concat()
        };
        wd.create(name, &bytes);
        let out = wd.run(&["normalize", "--rejects", "rej.tsv", name], None);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(
            String::from_utf8(out.stdout.clone()).unwrap(),
            want,
            "{name} {wrong}"
        );
        let rejects = String::from_utf8(wd.read("rej.tsv")).unwrap();
        let rows: Vec<Vec<&str>> = rejects.lines().map(|l| l.split('\t').collect()).collect();
        assert_eq!(rows.len(), 1, "{name} {wrong}: {rejects}");
        assert_eq!(
            rows[0][1..3],
            ["-", &payload_at.to_string()[..]],
            "{name} {wrong}"
        );
        assert!(
            rows[0][3].contains("Content-Length does not end"),
            "{rejects}"
        );
        assert!(
            stderr(&out).contains("1 bad-WARC-length"),
            "{name} {wrong}: {}",
            stderr(&out)
        );
    }
}

/// Payloads are stepped over in the map of a plain file and read through
/// from a pipe: the same records, the same rejects (a large payload past
/// the end of the file is cut either way), at any chunk size.
#[test]
fn warc_large_payloads_are_skipped_alike_from_a_file_and_a_pipe() {
    let wd = Workdir::new();
    let mut input = Vec::new();
    for (i, size) in [10usize, 200_000, 70_000, 3, 1 << 20, 65_537]
        .into_iter()
        .enumerate()
    {
        let uri = format!("http://h{i}.example/P");
        // Payloads that look like records must not be taken for them.
        let mut payload = warc_record(&[("WARC-Target-URI", "http://inside.example/")], b"z");
        payload.resize(size.max(payload.len()), b'\n');
        input.extend(warc_record(&[("WARC-Target-URI", &uri)], &payload));
    }
    let cut_at = input.len();
    let mut last = warc_record(
        &[("WARC-Target-URI", "http://last.example/")],
        &[7u8; 300_000],
    );
    last.truncate(last.len() - 100_000);
    input.extend(last);
    wd.create("big.warc", &input);
    let want = "http://h0.example/P\nhttp://h1.example/P\nhttp://h2.example/P\n\
                http://h3.example/P\nhttp://h4.example/P\nhttp://h5.example/P\n";
    for chunk in ["4M", "100", "1"] {
        let file = wd.run(
            &[
                "normalize",
                "--chunk-size",
                chunk,
                "--rejects",
                "file.tsv",
                "big.warc",
            ],
            None,
        );
        let pipe = wd.run(
            &[
                "normalize",
                "--input-format",
                "warc",
                "--chunk-size",
                chunk,
                "--rejects",
                "pipe.tsv",
                "-",
            ],
            Some(&input),
        );
        for (how, out) in [("file", &file), ("pipe", &pipe)] {
            assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{how} {chunk}");
            assert_eq!(out.status.code(), Some(0), "{how} {chunk}");
        }
        for name in ["file.tsv", "pipe.tsv"] {
            let rejects = String::from_utf8(wd.read(name)).unwrap();
            let rows: Vec<Vec<&str>> = rejects.lines().map(|l| l.split('\t').collect()).collect();
            assert_eq!(rows.len(), 1, "{name} {chunk}: {rejects}");
            assert_eq!(rows[0][2], cut_at.to_string(), "{name} {chunk}");
            assert!(
                rows[0][3].contains("Content-Length past the end"),
                "{rejects}"
            );
        }
    }
}

/// Header blocks that are not headers: one not UTF-8 (and garbage after
/// it), one longer than `--max-line-bytes`, one that never ends. Each is a bad record, the records around them are read,
/// and a mapped file and a pipe agree on all of it, rejects included.
#[test]
fn warc_bad_header_blocks_are_read_alike_from_a_file_and_a_pipe() {
    let wd = Workdir::new();
    let mut input = warc_record(&[("WARC-Target-URI", "http://a.example/")], b"1");
    input.extend(warc_record(
        &[
            ("WARC-Target-URI", "http://b.example/"),
            ("X-Bad", "\u{e9}"),
        ],
        b"2",
    ));
    // Latin-1 in a header: not UTF-8.
    let latin1 = input.len();
    let mut bad = warc_record(&[("WARC-Target-URI", "http://c.example/")], b"3");
    bad[12] = 0xE9;
    input.extend(bad);
    // Not UTF-8 either; no WARC header starts before the next record, so
    // it is part of the bad stretch above.
    input.extend_from_slice(b"\xff\xfe garbage\r\n");
    input.extend(warc_record(
        &[("WARC-Target-URI", "http://d.example/")],
        b"4",
    ));
    let long = input.len();
    let filler = "f".repeat(1500);
    input.extend(warc_record(
        &[
            ("WARC-Target-URI", "http://e.example/"),
            ("X-Long", &filler),
        ],
        b"5",
    ));
    input.extend(warc_record(
        &[("WARC-Target-URI", "http://f.example/")],
        b"6",
    ));
    let endless = input.len();
    input.extend_from_slice(b"WARC/1.1\r\nWARC-Target-URI: http://g.example/\r\n");
    wd.create("bad.warc", &input);
    let want = "http://a.example/\nhttp://b.example/\nhttp://d.example/\nhttp://f.example/\n";
    let mut shown = Vec::new();
    for chunk in ["4M", "100"] {
        for (how, stdin) in [("file", None), ("pipe", Some(&input[..]))] {
            let path = if stdin.is_some() { "-" } else { "bad.warc" };
            let rejects = format!("{how}-{chunk}.tsv");
            let out = wd.run(
                &[
                    "normalize",
                    "--input-format",
                    "warc",
                    "--max-line-bytes",
                    "1K",
                    "--chunk-size",
                    chunk,
                    "--rejects",
                    &rejects,
                    path,
                ],
                stdin,
            );
            assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{how} {chunk}");
            // Offset, reason and record of each reject (the file names differ).
            let rejects: Vec<Vec<String>> = String::from_utf8_lossy(&wd.read(&rejects))
                .lines()
                .map(|l| l.split('\t').skip(2).map(str::to_string).collect())
                .collect();
            let at: Vec<&str> = rejects.iter().map(|r| &r[0][..]).collect();
            let reasons: Vec<&str> = rejects.iter().map(|r| &r[1][..]).collect();
            let expected = [latin1, long, endless].map(|o| o.to_string());
            assert_eq!(at, expected, "{how} {chunk}: {rejects:?}");
            assert_eq!(
                reasons,
                [
                    "not a WARC record header (or no Content-Length)",
                    "not a WARC record header (or no Content-Length)",
                    "WARC record cut short: Content-Length past the end",
                ],
                "{how} {chunk}"
            );
            shown.push(rejects);
        }
    }
    assert!(shown.windows(2).all(|w| w[0] == w[1]), "{shown:#?}");
}

#[test]
fn access_log_request_targets_and_referers() {
    let wd = Workdir::new();
    wd.create(
        "access.log",
        "1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET /a/../b?x=1 HTTP/1.1\" 200 2326 \"http://Ref.example/s\" \"Mozilla\"\n\
         5.6.7.8 - - [10/Oct/2000:13:55:37 -0700] \"GET http://Proxy.example/x HTTP/1.1\" 404 0 \"-\" \"curl\"\n\
         9.9.9.9 - - [10/Oct/2000:13:55:38 -0700] \"\\x16\\x03\\x01\" 400 0 \"-\" \"-\"\n\
         nonsense\n",
    );
    let out = wd.run(
        &[
            "normalize",
            "--input-format",
            "log",
            "--base",
            "http://site.example/",
            "access.log",
        ],
        None,
    );
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "http://site.example/b?x=1\nhttp://proxy.example/x\n"
    );
    assert!(
        stderr(&out).contains("1 no-request-target, 1 not-a-log-line"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        ok(
            &wd,
            &[
                "normalize",
                "-q",
                "--input-format",
                "log",
                "--field",
                "referer",
                "access.log"
            ]
        ),
        "http://ref.example/s\n"
    );
    assert_eq!(
        ok(
            &wd,
            &[
                "extract",
                "-q",
                "--input-format",
                "log",
                "--base",
                "http://s.example/",
                "--fields",
                "pathname,@status,@method",
                "access.log"
            ]
        ),
        "pathname,status,method\n/b,200,GET\n/x,404,GET\n"
    );
}

/// Only a log line's URL field must be UTF-8: a Latin-1 user agent (a
/// server that logs raw bytes) costs no URL; a stray byte in the target
/// is that record's reason, and the records around it are read.
#[test]
fn access_log_bytes_outside_the_url_field_need_not_be_utf8() {
    let wd = Workdir::new();
    let mut log =
        b"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET /a HTTP/1.1\" 200 1 \"-\" \"caf\xe9\"\n"
            .to_vec();
    log.extend_from_slice(
        b"1.2.3.4 - - [10/Oct/2000:13:55:37 -0700] \"GET /\xe9 HTTP/1.1\" 200 1 \"-\" \"x\"\n",
    );
    log.extend_from_slice(b"1.2.3.4 - - [10/Oct/2000:13:55:38 -0700] \"GET /c HTTP/1.1\" 200 1\n");
    wd.create("raw.log", &log);
    let out = wd.run(
        &[
            "normalize",
            "--input-format",
            "log",
            "--base",
            "http://s.example/",
            "raw.log",
        ],
        None,
    );
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "http://s.example/a\nhttp://s.example/c\n"
    );
    assert!(stderr(&out).contains("1 invalid-UTF-8"), "{}", stderr(&out));
}

/// `--keep-invalid` passes every JSON-lines and CDXJ record through that
/// it does not rewrite, as it does CSV rows: a line that is not JSON, an
/// object without the field or with a number there, a bad URL, a line that
/// is not CDXJ, a blank line. They were counted as passed through but
/// left out of the output. Without the flag they go to the rejects file.
#[test]
fn keep_invalid_passes_bad_json_and_cdxj_lines_through() {
    let wd = Workdir::new();
    wd.create(
        "in.jsonl",
        "{\"url\":\"HTTP://A.org/x\"}\nnot json\n\n{\"url\":\"http://a.org/x\"}\r\n\
         {\"url\":\"nope\"}\n{\"x\":1}\n{\"url\":7}\n{\"url\":\"http://b.org/\"}",
    );
    let out = ok(&wd, &["normalize", "-q", "--keep-invalid", "in.jsonl"]);
    assert_eq!(
        out,
        "{\"url\":\"http://a.org/x\"}\nnot json\n\n{\"url\":\"http://a.org/x\"}\r\n\
         {\"url\":\"nope\"}\n{\"x\":1}\n{\"url\":7}\n{\"url\":\"http://b.org/\"}\n"
    );
    // (dedup drops empty records, in every format.)
    let out = ok(&wd, &["dedup", "-q", "--keep-invalid", "in.jsonl"]);
    assert_eq!(
        out,
        "{\"url\":\"http://a.org/x\"}\nnot json\n{\"url\":\"nope\"}\n{\"x\":1}\n\
         {\"url\":7}\n{\"url\":\"http://b.org/\"}\n"
    );
    wd.create(
        "in.cdxj",
        "org,a)/ 20240101000000 {\"url\": \"HTTP://A.org/\"}\ngarbage\n\
         org,b)/ 20240101000000 {\"url\": }\n",
    );
    let out = ok(&wd, &["normalize", "-q", "--keep-invalid", "in.cdxj"]);
    assert_eq!(
        out,
        "org,a)/ 20240101000000 {\"url\": \"http://a.org/\"}\ngarbage\n\
         org,b)/ 20240101000000 {\"url\": }\n"
    );
    let out = wd.run(
        &["normalize", "-q", "--rejects", "rej.tsv", "in.jsonl"],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    let rejects = String::from_utf8(wd.read("rej.tsv")).unwrap();
    let lines: Vec<&str> = rejects
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    assert_eq!(lines, ["2", "5", "6", "7"], "{rejects}");
}

#[test]
fn extract_append_adds_fields_to_records() {
    let wd = Workdir::new();
    wd.create("in.csv", "id,url\r\n1,HTTP://A.org/x\r\n2,nope\r\n");
    assert_eq!(
        ok(
            &wd,
            &[
                "extract",
                "-q",
                "--append",
                "--keep-invalid",
                "--fields",
                "hostname,pathname",
                "in.csv"
            ]
        ),
        "id,url,url_hostname,url_pathname\r\n1,HTTP://A.org/x,a.org,/x\r\n2,nope\r\n"
    );
    // Every record comes back: an empty URL cell and a blank line too, as
    // normalize --keep-invalid passes them (they used to be dropped).
    wd.create("gaps.csv", "id,url\n1,http://a.org/\n2,\n\n3,nope\n");
    let args = ["-q", "--keep-invalid", "gaps.csv"];
    assert_eq!(
        ok(
            &wd,
            &[&["extract", "--append", "--fields", "host"][..], &args].concat()
        ),
        "id,url,url_host\n1,http://a.org/,a.org\n2,\n\n3,nope\n"
    );
    assert_eq!(
        ok(&wd, &[&["normalize"][..], &args].concat())
            .lines()
            .count(),
        5
    );
    wd.create(
        "gaps.jsonl",
        "{\"url\":\"http://b.org/\"}\n\n{\"url\":\"\"}\n",
    );
    assert_eq!(
        ok(
            &wd,
            &[
                "extract",
                "-q",
                "--keep-invalid",
                "--append",
                "--fields",
                "host",
                "gaps.jsonl"
            ]
        ),
        "{\"url\":\"http://b.org/\",\"url_host\":\"b.org\"}\n\n{\"url\":\"\"}\n"
    );
    wd.create("in.jsonl", "{\"url\":\"http://b.org/p\"}\n{ }\n");
    assert_eq!(
        ok(
            &wd,
            &[
                "extract", "-q", "--append", "--fields", "hostname", "in.jsonl"
            ]
        ),
        "{\"url\":\"http://b.org/p\",\"url_hostname\":\"b.org\"}\n"
    );
    wd.create("plain.txt", "http://a.org/\n");
    let out = wd.run(&["extract", "--append", "plain.txt"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("read-only"), "{}", stderr(&out));
}

#[test]
fn extract_names_record_fields_and_writes_csv_with_the_csv_crate() {
    let wd = Workdir::new();
    wd.create(
        "in.csv",
        "url,title\nhttp://a.org/,\"Hello, \"\"you\"\"\"\nhttp://b.org/x,plain\n",
    );
    assert_eq!(
        ok(
            &wd,
            &["extract", "--fields", "@title,hostname,@2", "in.csv"]
        ),
        "title,hostname,2\n\"Hello, \"\"you\"\"\",a.org,\"Hello, \"\"you\"\"\"\nplain,b.org,plain\n"
    );
    assert_eq!(
        ok(
            &wd,
            &["extract", "--jsonl", "--fields", "line,@title", "in.csv"]
        ),
        "{\"line\":2,\"title\":\"Hello, \\\"you\\\"\"}\n{\"line\":3,\"title\":\"plain\"}\n"
    );
    assert_eq!(
        ok(&wd, &["extract", "--format", "{@title}|{host}", "in.csv"]),
        "Hello, \"you\"|a.org\nplain|b.org\n"
    );
}

#[test]
fn dedup_keeps_whole_first_records() {
    let wd = Workdir::new();
    wd.create(
        "in.csv",
        "url,n\nhttp://a.org/,1\nHTTP://A.ORG,2\nhttp://b.org/,3\nhttp://a.org/#f,4\n",
    );
    assert_eq!(
        ok(&wd, &["dedup", "in.csv"]),
        "url,n\nhttp://a.org/,1\nhttp://b.org/,3\nhttp://a.org/#f,4\n"
    );
    assert_eq!(
        ok(&wd, &["dedup", "--key", "host", "in.csv"]),
        "url,n\nhttp://a.org/,1\nhttp://b.org/,3\n"
    );
}

#[test]
fn formats_are_picked_by_extension_after_compression() {
    let wd = Workdir::new();
    wd.create("a.csv.gz", gzip(b"url\nHTTP://A.org\n"));
    assert_eq!(ok(&wd, &["normalize", "a.csv.gz"]), "url\nhttp://a.org/\n");
    wd.create(
        "b.jsonl.zst",
        zstd::encode_all(&b"{\"url\":\"HTTP://B.org\"}\n"[..], 1).unwrap(),
    );
    assert_eq!(
        ok(&wd, &["normalize", "b.jsonl.zst"]),
        "{\"url\":\"http://b.org/\"}\n"
    );
    // A name the reader does not know reads as lines; --input-format wins.
    wd.create("c.dat", "url\nHTTP://C.org\n");
    assert_eq!(ok(&wd, &["normalize", "-q", "c.dat"]), "http://c.org/\n");
    assert_eq!(
        ok(&wd, &["normalize", "--input-format", "csv", "c.dat"]),
        "url\nhttp://c.org/\n"
    );
    // Inputs of two formats: a usage error.
    let out = wd.run(&["normalize", "a.csv.gz", "c.dat"], None);
    assert_eq!(out.status.code(), Some(2));
    // -0 does not fit records written back.
    let out = wd.run(&["normalize", "-0", "a.csv.gz"], None);
    assert_eq!(out.status.code(), Some(2));
}

mod property {
    use super::*;
    use proptest::prelude::*;

    /// A field that is not a URL: anything CSV must quote, and more.
    fn other() -> impl Strategy<Value = String> {
        proptest::string::string_regex("[a-z0-9 ,\"\\n\\r;é💡]{0,12}").unwrap()
    }

    /// URLs: mostly ones that change when normalized.
    fn url() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("HTTP://Example.COM/a/../b?q=1,2#F".to_string()),
            Just("https://example.org/ok".to_string()),
            Just("HTTPS://xn--bcher-kva.example/Ü?ä=\"q\"".to_string()),
            Just("mailto:\"A,B\"@x.org".to_string()),
            Just("http://[::1]:80/p q".to_string()),
            proptest::string::string_regex(
                "https://[a-z]{1,8}\\.[a-z]{2,3}/[a-zA-Z0-9/._%-]{0,20}"
            )
            .unwrap(),
        ]
    }

    fn href(u: &str) -> String {
        urlsift::Url::parse(u).unwrap().href().to_string()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// For any rows and any -j and chunk size, `normalize` writes every
        /// row back with every field but the URL as it was (decoded by the
        /// csv crate), and the URL as its href.
        #[test]
        fn csv_records_out_equal_records_in_but_the_url(
            rows in proptest::collection::vec((other(), url(), other()), 1..40),
            threads in 1usize..4,
            chunk in 1usize..300,
        ) {
            let wd = Workdir::new();
            let mut w = csv::Writer::from_writer(Vec::new());
            w.write_record(["before", "url", "after"]).unwrap();
            for (a, u, b) in &rows {
                w.write_record([a, u, b]).unwrap();
            }
            wd.create("in.csv", w.into_inner().unwrap());
            let out = wd.stdout(&[
                "normalize", "-j", &threads.to_string(), "--chunk-size", &chunk.to_string(), "in.csv",
            ]);
            let mut r = csv::Reader::from_reader(out.as_bytes());
            let got: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
            prop_assert_eq!(got.len(), rows.len());
            for (g, (a, u, b)) in got.iter().zip(&rows) {
                prop_assert_eq!(&g[0], a.as_str());
                prop_assert_eq!(g[1].to_string(), href(u));
                prop_assert_eq!(&g[2], b.as_str());
            }
        }

        /// The same for JSON lines: every other key and value, spacing and
        /// number spelling included, is byte-identical; the URL is its href.
        #[test]
        fn jsonl_records_out_equal_records_in_but_the_url(
            rows in proptest::collection::vec((other(), url(), 0u32..1000), 1..40),
            threads in 1usize..4,
            chunk in 1usize..300,
        ) {
            let wd = Workdir::new();
            let mut input = String::new();
            for (a, u, n) in &rows {
                input.push_str(&format!(
                    "{{\"a\" : {}, \"n\":{n}.50 ,\"url\":{}, \"z\":[{{\"url\":1}}]}}\n",
                    serde_json::to_string(a).unwrap(),
                    serde_json::to_string(u).unwrap(),
                ));
            }
            wd.create("in.jsonl", &input);
            let out = wd.stdout(&[
                "normalize", "-j", &threads.to_string(), "--chunk-size", &chunk.to_string(), "in.jsonl",
            ]);
            let lines: Vec<&str> = out.lines().collect();
            prop_assert_eq!(lines.len(), rows.len());
            for (line, (a, u, n)) in lines.iter().zip(&rows) {
                let want = format!(
                    "{{\"a\" : {}, \"n\":{n}.50 ,\"url\":{}, \"z\":[{{\"url\":1}}]}}",
                    serde_json::to_string(a).unwrap(),
                    serde_json::to_string(&href(u)).unwrap(),
                );
                // An unchanged URL keeps its original encoding (the same
                // here, since serde_json wrote both).
                prop_assert_eq!(*line, want.as_str());
            }
        }
    }
}

#[test]
fn compare_reads_the_url_field_of_records() {
    let wd = Workdir::new();
    wd.create(
        "in.jsonl",
        "{\"request\":{\"url\":\"HTTP://a.org/x\"}}\n{\"request\":{}}\n{\"request\":{\"url\":\"https://b.org/\"}}\n",
    );
    let out = ok(
        &wd,
        &[
            "compare",
            "-q",
            "--rounds",
            "0",
            "--json",
            "--field",
            "request.url",
            "in.jsonl",
        ],
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["corpus"]["urls"], 2, "{out}");
    assert_eq!(v["corpus"]["lines"], 3, "{out}");
    assert_eq!(v["corpus"]["skipped"]["missing-field"], 1, "{out}");
}

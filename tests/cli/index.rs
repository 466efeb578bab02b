//! `urlsift index`: CDXJ lines of WARC files, as pywb's cdxj-indexer
//! writes them (python/tests/test_index.py holds them to it on real
//! files), sorted by bytes, in bounded memory.

use crate::workdir::{Workdir, stderr};

use crate::workdir::gzip as gzip_member;
use crate::workdir::warc_record as record;

/// A crawl: warcinfo, a response (digest given), its request, a revisit, a
/// resource without a digest, warc-fields metadata; `n` responses more.
fn crawl(n: usize) -> Vec<Vec<u8>> {
    let http = |ct: &str, body: &str| {
        format!("HTTP/1.1 200 OK\r\nContent-Type: {ct}; charset=utf-8\r\n\r\n{body}").into_bytes()
    };
    let mut records = vec![
        record(
            "warcinfo",
            "WARC-Date: 2024-01-01T00:00:00Z\r\n",
            b"software: x\r\n",
        ),
        record(
            "response",
            "WARC-Target-URI: http://www.Example.com/B/\r\nWARC-Date: 2024-01-02T03:04:05Z\r\n\
             WARC-Payload-Digest: sha1:GIVEN\r\nContent-Type: application/http; msgtype=response\r\n",
            &http("text/html", "<p>hi"),
        ),
        record(
            "request",
            "WARC-Target-URI: http://www.Example.com/B/\r\nWARC-Date: 2024-01-02T03:04:05Z\r\n\
             Content-Type: application/http; msgtype=request\r\n",
            b"GET /B/ HTTP/1.1\r\nHost: www.example.com\r\n\r\n",
        ),
        record(
            "revisit",
            "WARC-Target-URI: http://www.example.com/B/\r\nWARC-Date: 2024-02-02T03:04:05.123Z\r\n\
             WARC-Payload-Digest: sha1:GIVEN\r\nContent-Type: application/http; msgtype=response\r\n",
            b"HTTP/1.1 304 Not Modified\r\n\r\n",
        ),
        record(
            "resource",
            "WARC-Target-URI: file:///d/\u{e9}t\u{e9}.txt\r\nWARC-Date: 2024-03-01T00:00:00Z\r\n\
             Content-Type: text/plain\r\n",
            b"hello",
        ),
        record(
            "metadata",
            "WARC-Target-URI: http://www.example.com/B/\r\nWARC-Date: 2024-01-02T03:04:05Z\r\n\
             Content-Type: application/warc-fields\r\n",
            b"via: x\r\n",
        ),
    ];
    for i in 0..n {
        records.push(record(
            "response",
            &format!(
                "WARC-Target-URI: https://site{}.example/p/{i}?b=2&a=1\r\nWARC-Date: 2024-04-01T00:00:{:02}Z\r\n\
                 Content-Type: application/http; msgtype=response\r\n",
                i % 7,
                i % 60
            ),
            &http("image/png", "x"),
        ));
    }
    records
}

#[test]
fn index_lines_of_plain_and_gzip_warcs() {
    let wd = Workdir::new();
    let records = crawl(0);
    wd.create("c.warc", records.concat());
    let members: Vec<Vec<u8>> = records.iter().map(|r| gzip_member(r)).collect();
    wd.create("c.warc.gz", members.concat());
    let plain = wd.stdout(&["index", "-q", "c.warc"]);
    let sha1_hello = "sha1:VL2MMHO4YXUKFWV63YHTWSBM3GXKSQ2N";
    let offset = |i: usize| records[..i].iter().map(Vec::len).sum::<usize>();
    // A plain record's length ends with its block (the blank lines after
    // it are not counted).
    let len = |i: usize| records[i].len() - 4;
    assert_eq!(
        plain,
        format!(
            "com,example)/b 20240102030405 {{\"url\": \"http://www.Example.com/B/\", \"mime\": \"text/html\", \"status\": \"200\", \"digest\": \"sha1:GIVEN\", \"length\": \"{}\", \"offset\": \"{}\", \"filename\": \"c.warc\"}}\n\
             com,example)/b 20240202030405 {{\"url\": \"http://www.example.com/B/\", \"mime\": \"warc/revisit\", \"status\": \"304\", \"digest\": \"sha1:GIVEN\", \"length\": \"{}\", \"offset\": \"{}\", \"filename\": \"c.warc\"}}\n\
             file:/d/%c3%a9t%c3%a9.txt 20240301000000 {{\"url\": \"file:///d/\\u00e9t\\u00e9.txt\", \"mime\": \"text/plain\", \"digest\": \"{sha1_hello}\", \"length\": \"{}\", \"offset\": \"{}\", \"filename\": \"c.warc\"}}\n",
            len(1),
            offset(1),
            len(3),
            offset(3),
            len(4),
            offset(4)
        )
    );
    // In a .warc.gz, a record's place is its gzip member.
    let gz = wd.stdout(&["index", "-q", "c.warc.gz"]);
    let member = |i: usize| {
        (
            members[i].len(),
            members[..i].iter().map(Vec::len).sum::<usize>(),
        )
    };
    assert!(
        gz.contains(&format!(
            "\"length\": \"{}\", \"offset\": \"{}\"",
            member(3).0,
            member(3).1
        )),
        "{gz}"
    );
    assert_eq!(gz.lines().count(), 3);
}

/// Past --memory the lines go to sorted runs on disk and are merged: the
/// same index, several files on several threads; `-o` takes `.cdxj`.
#[test]
fn sorted_runs_on_disk_merge_to_the_same_index() {
    let wd = Workdir::new();
    wd.create("a.warc", crawl(300).concat());
    wd.create(
        "b.warc.gz",
        crawl(200)
            .iter()
            .map(|r| gzip_member(r))
            .collect::<Vec<_>>()
            .concat(),
    );
    let whole = wd.stdout(&["index", "-q", "a.warc", "b.warc.gz"]);
    let mut sorted: Vec<&str> = whole.lines().collect();
    sorted.sort_unstable();
    assert_eq!(sorted, whole.lines().collect::<Vec<_>>(), "byte order");
    assert_eq!(whole.lines().count(), 3 + 300 + 3 + 200);
    std::fs::create_dir(wd.path("runs")).unwrap();
    let out = wd.run(
        &[
            "index",
            "--memory",
            "8K",
            "--tmp-dir",
            "runs",
            "-j",
            "2",
            "a.warc",
            "b.warc.gz",
            "-o",
            "i.cdxj",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("sorted runs on disk"),
        "{}",
        stderr(&out)
    );
    assert_eq!(String::from_utf8(wd.read("i.cdxj")).unwrap(), whole);
    assert_eq!(
        std::fs::read_dir(wd.path("runs")).unwrap().count(),
        0,
        "runs removed"
    );
    let out = wd.run(&["index", "a.warc", "-o", "i.parquet"], None);
    assert_eq!(out.status.code(), Some(2));
}

/// What cannot be indexed is said: a gzip member holding several records
/// (an offset must find one record), a record without a date.
#[test]
fn what_cannot_be_indexed_is_said() {
    let wd = Workdir::new();
    wd.create("one-member.warc.gz", gzip_member(&crawl(2).concat()));
    let out = wd.run(&["index", "one-member.warc.gz", "-o", "x.cdxj"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("holds 8 records, not one"),
        "{}",
        stderr(&out)
    );
    assert!(!wd.path("x.cdxj").exists(), "-o is all or nothing");
    wd.create(
        "undated.warc",
        record(
            "response",
            "WARC-Target-URI: http://a.example/\r\n",
            b"HTTP/1.1 200 OK\r\n\r\n",
        ),
    );
    let out = wd.run(&["index", "undated.warc"], None);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("1 left out (no WARC-Target-URI or WARC-Date)"),
        "{}",
        stderr(&out)
    );
}

/// Files indexed side by side are faulted in input order, whichever was
/// done first: a big file's fault before a small one's.
#[test]
fn faults_of_several_files_are_told_in_input_order() {
    let wd = Workdir::new();
    let mut big = crawl(20_000).concat();
    big.extend_from_slice(b"not a record\r\n");
    wd.create("a-big.warc", big);
    for name in ["b.warc", "c.warc", "d.warc"] {
        wd.create(name, b"not a record either\r\n");
    }
    let out = wd.run(
        &["index", "-j4", "a-big.warc", "b.warc", "c.warc", "d.warc"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    let at = |name: &str| err.find(name).unwrap_or_else(|| panic!("{name}: {err}"));
    assert!(
        at("a-big.warc") < at("b.warc")
            && at("b.warc") < at("c.warc")
            && at("c.warc") < at("d.warc"),
        "{err}"
    );
}

/// A damaged gzip member costs its record's line alone: indexing goes on
/// at the next member, as reading does, and the member is named (exit
/// status 2; -o is then not written, as for every read error).
#[test]
fn a_damaged_member_costs_only_its_line() {
    let wd = Workdir::new();
    let records = crawl(6);
    let members: Vec<Vec<u8>> = records.iter().map(|r| gzip_member(r)).collect();
    wd.create("whole.warc.gz", members.concat());
    let whole = wd.stdout(&["index", "-q", "whole.warc.gz"]);
    let whole: Vec<&str> = whole.lines().collect();
    // Damage in the deflate data of the eighth member (a response).
    let at: usize = members[..7].iter().map(Vec::len).sum();
    let mut bad = members.concat();
    bad[at + 15] ^= 0xff;
    wd.create("whole.warc.gz", &bad);
    let out = wd.run(&["index", "whole.warc.gz"], None);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    let next = at + members[7].len();
    assert!(
        err.contains(&format!("at byte {at}: "))
            && err.contains(&format!(
                "indexing went on at the next member, at byte {next}"
            )),
        "{err}"
    );
    let got = String::from_utf8(out.stdout).unwrap();
    let got: Vec<&str> = got.lines().collect();
    assert_eq!(got.len() + 1, whole.len(), "{got:?}");
    assert!(got.iter().all(|l| whole.contains(l)));
    let missing: Vec<&&str> = whole.iter().filter(|l| !got.contains(l)).collect();
    assert!(
        missing[0].contains(&format!("\"offset\": \"{at}\"")),
        "{missing:?}"
    );
}

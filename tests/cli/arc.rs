//! ARC files (the Internet Archive's format before WARC): records, their
//! header line's fields, gzip per record, by name and by content, damage,
//! and links. The fixtures are shaped as Heritrix and the Internet
//! Archive's tools wrote them: a `filedesc://` record first (its block
//! names the version and the fields), then one record per fetch, each
//! followed by a newline.

use crate::workdir::*;

/// One ARC record: its header line's fields before the length, the block,
/// and the newline after it.
fn record(fields: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!("{fields} {}\n", block.len()).into_bytes();
    r.extend_from_slice(block);
    r.push(b'\n');
    r
}

/// An HTTP response holding `html`.
fn response(html: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{html}",
        html.len()
    )
    .into_bytes()
}

/// A version 1 ARC file's records: its `filedesc://` record, a page, a
/// DNS lookup, a page whose URL has a space in it (as some recorders
/// wrote them) and a page with no HTTP header.
fn v1_records() -> Vec<Vec<u8>> {
    vec![
        record(
            "filedesc://crawl.arc 0.0.0.0 20080430204825 text/plain",
            b"1 0 Test Archive\nURL IP-address Archive-date Content-type Archive-length\n",
        ),
        record(
            "http://A.example/index.html 192.0.2.1 20080430204826 text/html",
            &response("<a href=\"/about\">about</a> <img src=\"logo.png\">"),
        ),
        record(
            "dns:a.example 192.0.2.53 20080430204826 text/dns",
            b"20080430204826\na.example.\t300\tIN\tA\t192.0.2.1\n",
        ),
        record(
            "http://b.example/a page.html 192.0.2.2 20080430204827 text/html",
            &response("<a href=\"x.html\">x</a>"),
        ),
    ]
}

fn gzip_each(records: &[Vec<u8>]) -> Vec<u8> {
    records.iter().flat_map(|r| gzip(r)).collect()
}

#[test]
fn arc_records_give_url_lines_by_name_and_by_content() {
    let wd = Workdir::new();
    let records = v1_records();
    let plain = records.concat();
    wd.create("crawl.arc", &plain);
    wd.create("crawl.arc.gz", gzip_each(&records));
    wd.create("crawl-no-extension", gzip_each(&records));
    wd.create("crawl.dat", &plain);
    let want = "http://a.example/index.html\ndns:a.example\nhttp://b.example/a%20page.html\n";
    for name in [
        "crawl.arc",
        "crawl.arc.gz",
        "crawl-no-extension",
        "crawl.dat",
    ] {
        for chunk in ["64", "1M"] {
            let out = wd.run(&["normalize", "-v", "--chunk-size", chunk, name], None);
            assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{name} {chunk}");
            assert!(
                stderr(&out).contains("4 records from 1 input: 3 valid, 1 empty, 0 bad"),
                "{name}: {}",
                stderr(&out)
            );
        }
    }
    // Standard input is read as ARC when told so.
    let out = wd.run(
        &["normalize", "-q", "--input-format", "arc", "-"],
        Some(&plain),
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), want);
    // Read as WARC (by name, by --input-format, or as links read every
    // archive), a file that starts with its `filedesc://` record is ARC.
    wd.create("misnamed.warc", &plain);
    for args in [
        &["normalize", "-q", "misnamed.warc"][..],
        &["normalize", "-q", "--input-format", "warc", "crawl.arc"],
        &["normalize", "-q", "--input-format", "warc", "-"],
    ] {
        let out = wd.run(args, Some(&plain));
        assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{args:?}");
    }
    // The header line's fields, by name.
    assert_eq!(
        wd.stdout(&[
            "extract",
            "-q",
            "--tsv",
            "--fields",
            "hostname,@archive-date,@content-type,@ip-address,@archive-length",
            "crawl.arc.gz"
        ]),
        "hostname\tarchive-date\tcontent-type\tip-address\tarchive-length\n\
         a.example\t20080430204826\ttext/html\t192.0.2.1\t111\n\
         \t20080430204826\ttext/dns\t192.0.2.53\t45\n\
         b.example\t20080430204827\ttext/html\t192.0.2.2\t86\n"
    );
    assert_eq!(
        wd.stdout(&["dedup", "-q", "--key", "host", "crawl.arc"]),
        "http://a.example/index.html\ndns:a.example\nhttp://b.example/a%20page.html\n"
    );
}

#[test]
fn arc_version_2_fields() {
    let wd = Workdir::new();
    let arc = [
        record(
            "filedesc://v2.arc 0.0.0.0 20080430204825 text/plain 200 - - 0 v2.arc",
            b"2 0 Test\nURL IP-address Archive-date Content-type Result-code Checksum Location Offset Filename Archive-length\n",
        ),
        record(
            "http://e.example/ 192.0.2.1 20080430204826 text/html 301 SHA1X http://e.example/new 160 v2.arc",
            &response("moved"),
        ),
    ]
    .concat();
    wd.create("v2.arc", &arc);
    assert_eq!(
        wd.stdout(&[
            "extract",
            "-q",
            "--tsv",
            "--fields",
            "href,@result-code,@location,@filename",
            "v2.arc"
        ]),
        "href\tresult-code\tlocation\tfilename\nhttp://e.example/\t301\thttp://e.example/new\tv2.arc\n"
    );
    // `--field` names another header line field as the URL.
    assert_eq!(
        wd.stdout(&["normalize", "-q", "--field", "location", "v2.arc"]),
        "http://e.example/new\n"
    );
}

/// A stretch that is not a record (a cut record's rest) is one bad record,
/// and reading goes on at the next header line; a record the end cuts is
/// counted as cut, with its offset; nothing after either is lost.
#[test]
fn damaged_arc_files_lose_no_later_record() {
    let wd = Workdir::new();
    let records = v1_records();
    let mut damaged = records[..2].concat();
    damaged.extend_from_slice(b"garbage left by a cut record\nmore of it\n");
    damaged.extend_from_slice(&records[2..].concat());
    let cut = record(
        "http://c.example/ 192.0.2.3 20080430204828 text/html",
        &response("cut"),
    );
    damaged.extend_from_slice(&cut[..cut.len() - 10]);
    wd.create("damaged.arc", &damaged);
    // The same through a pipe (read, not mapped) in small pieces.
    for (args, stdin) in [
        (
            vec!["normalize", "--rejects", "rejects.txt", "damaged.arc"],
            None,
        ),
        (
            vec![
                "normalize",
                "--rejects",
                "rejects.txt",
                "--input-format",
                "arc",
                "--chunk-size",
                "64",
                "-",
            ],
            Some(&damaged[..]),
        ),
    ] {
        let out = wd.run(&args, stdin);
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "http://a.example/index.html\ndns:a.example\nhttp://b.example/a%20page.html\n"
        );
        let err = stderr(&out);
        assert!(
            err.contains("1 ARC-record-truncated, 1 bad-ARC-header"),
            "{err}"
        );
        let rejects = String::from_utf8(wd.read("rejects.txt")).unwrap();
        // Each with its offset, why, and its first bytes.
        assert!(
            rejects.contains("\t311\tnot an ARC record header line")
                && rejects.contains("garbage left by a cut record"),
            "{rejects}"
        );
        assert!(
            rejects.contains("\t603\tARC record cut short")
                && rejects.contains("http://c.example/ 192.0.2.3"),
            "{rejects}"
        );
    }
}

#[test]
fn links_of_arc_pages() {
    let wd = Workdir::new();
    let records = v1_records();
    wd.create("crawl.arc.gz", gzip_each(&records));
    let out = wd.run(&["links", "--fields", "from,to,tag", "crawl.arc.gz"], None);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "http://a.example/index.html\thttp://a.example/about\ta\n\
         http://a.example/index.html\thttp://a.example/logo.png\timg\n\
         http://b.example/a%20page.html\thttp://b.example/x.html\ta\n"
    );
    // The filedesc and DNS records are not pages.
    assert!(
        stderr(&out).contains("2 pages, 3 links"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("2 not responses"), "{}", stderr(&out));
}

/// `urlsift index` of an ARC file: a line per record but the filedesc,
/// each at its record's offset and length (plain: the header line and
/// block; gzip: the member), as cdxj-indexer writes them
/// (python/tests/test_index.py holds real ARC files to it).
#[test]
fn index_lines_of_arc_records() {
    let wd = Workdir::new();
    let records = v1_records();
    wd.create("crawl.arc", records.concat());
    wd.create("crawl.arc.gz", gzip_each(&records));
    for (name, places) in [
        (
            "crawl.arc",
            records
                .iter()
                .map(|r| r.len() as u64 - 1)
                .collect::<Vec<_>>(),
        ),
        (
            "crawl.arc.gz",
            records.iter().map(|r| gzip(r).len() as u64).collect(),
        ),
    ] {
        let out = wd.stdout(&["index", "-q", name]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        // Where each record starts and how long it is, in file order.
        let mut offset = places[0] + u64::from(name == "crawl.arc");
        for (i, url) in [
            "http://A.example/index.html",
            "dns:a.example",
            "http://b.example/a%20page.html",
        ]
        .iter()
        .enumerate()
        {
            let line = lines
                .iter()
                .find(|l| l.contains(&format!("\"url\": \"{url}\"")))
                .unwrap_or_else(|| panic!("{url} in {out}"));
            let want = format!(
                "\"length\": \"{}\", \"offset\": \"{offset}\"",
                places[i + 1]
            );
            assert!(line.contains(&want), "{name}: {line} has not {want}");
            offset += places[i + 1] + u64::from(name == "crawl.arc");
        }
        assert!(lines.is_sorted(), "sorted by bytes: {out}");
    }
}

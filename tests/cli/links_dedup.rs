//! `links --dedup`: the first link of each key, per run or per page, in
//! text and Parquet, in memory and spilled past `--memory`.

use crate::links::{record, response};
use crate::workdir::{Workdir, stderr};

#[test]
fn dedup_keeps_the_first_link_of_each_key_per_run_or_per_page() {
    let w = Workdir::new();
    let page = |links: &str| response("text/html", "", links.as_bytes());
    let mut warc = record(
        "response",
        "http://a.example/",
        &page("<a href=/x></a><a href=/x#f></a><a href=http://b.example/y>"),
    );
    warc.extend_from_slice(&record(
        "response",
        "http://c.example/",
        &page("<a href=http://a.example/x></a><a href=http://b.example/z>"),
    ));
    w.create("two.warc", &warc);
    let run = |args: &[&str]| w.stdout(&[&["links", "-q"], args, &["two.warc"]].concat());
    assert_eq!(
        run(&["--dedup", "href"]),
        "http://a.example/x\nhttp://a.example/x#f\nhttp://b.example/y\nhttp://b.example/z\n"
    );
    assert_eq!(
        run(&["--dedup", "no-fragment"]),
        "http://a.example/x\nhttp://b.example/y\nhttp://b.example/z\n"
    );
    // Past --memory (1K: from the first link on) the keys and the links
    // still to decide wait on disk, and the same rows come out at the end.
    for flags in [
        &["--dedup", "href"][..],
        &[
            "--dedup",
            "site",
            "--per-page",
            "--fields",
            "from,to,rel,offset",
        ],
        &["--dedup", "host", "--csv", "--fields", "to,tag,rel"],
    ] {
        let spilled = [flags, &["--memory", "1K", "--tmp-dir", "."]].concat();
        assert_eq!(run(&spilled), run(flags), "{flags:?}");
        let said = |args: &[&str]| {
            let out = w.run(&[&["links"], args, &["two.warc"]].concat(), None);
            stderr(&out)
        };
        assert_eq!(said(&spilled), said(flags), "{flags:?}");
        assert!(said(flags).contains("duplicate"), "{}", said(flags));
    }
    assert_eq!(
        w.files()
            .iter()
            .filter(|f| f.starts_with("urlsift-"))
            .count(),
        0
    );
    assert_eq!(
        run(&["--dedup", "site", "--per-page", "--fields", "from,to"]),
        "http://a.example/\thttp://a.example/x\n\
         http://a.example/\thttp://b.example/y\n\
         http://c.example/\thttp://a.example/x\n\
         http://c.example/\thttp://b.example/z\n"
    );
    let out = w.run(
        &[
            "links",
            "--dedup",
            "host",
            "--parquet",
            "-o",
            "d.parquet",
            "two.warc",
        ],
        None,
    );
    assert!(
        stderr(&out).contains("2 links") && stderr(&out).contains("3 duplicates"),
        "{}",
        stderr(&out)
    );
    let spilled = w.run(
        &[
            "links",
            "--dedup",
            "host",
            "--memory",
            "1K",
            "--tmp-dir",
            ".",
            "--fields",
            "to,rel,offset",
            "-o",
            "s.parquet",
            "two.warc",
        ],
        None,
    );
    assert_eq!(stderr(&spilled), stderr(&out));
    let read = |name: &str| {
        let file = std::fs::File::open(w.path(name)).unwrap();
        parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap()
            .map(|b| b.unwrap())
            .collect::<Vec<_>>()
    };
    let in_memory = w.run(
        &[
            "links",
            "-q",
            "--dedup",
            "host",
            "--fields",
            "to,rel,offset",
            "-o",
            "m.parquet",
            "two.warc",
        ],
        None,
    );
    assert!(in_memory.status.success());
    assert_eq!(read("s.parquet"), read("m.parquet"));
    let file = std::fs::File::open(w.path("d.parquet")).unwrap();
    let rows: usize = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap()
        .map(|b| b.unwrap().num_rows())
        .sum();
    assert_eq!(rows, 2);
    // With the offset among the fields, the duplicates leave the offsets
    // column too: every column keeps the same rows.
    let out = w.run(
        &[
            "links",
            "--dedup",
            "host",
            "--fields",
            "to,offset",
            "-o",
            "o.parquet",
            "two.warc",
        ],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let file = std::fs::File::open(w.path("o.parquet")).unwrap();
    let batches: Vec<_> =
        parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap()
            .map(|b| b.unwrap())
            .collect();
    let rows: Vec<(String, u64)> = batches
        .iter()
        .flat_map(|b| {
            let to = b
                .column(0)
                .as_any()
                .downcast_ref::<arrow_array::StringArray>()
                .unwrap();
            let offset = b
                .column(1)
                .as_any()
                .downcast_ref::<arrow_array::UInt64Array>()
                .unwrap();
            (0..b.num_rows())
                .map(|i| (to.value(i).to_string(), offset.value(i)))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("http://a.example/x".to_string(), 0),
            ("http://b.example/y".to_string(), 0)
        ]
    );
}

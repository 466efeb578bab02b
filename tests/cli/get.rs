//! `urlsift get`: records fetched by the offsets and lengths of an index
//! and written as one WARC file in index order (python/tests/test_get.py
//! holds the output to warcio's reading of the originals, the index
//! written by cdxj-indexer).

use crate::common;
use crate::workdir::*;
use std::io::Read;

/// The shared sample's gzip members, each with its offset.
fn members(gz: &[u8]) -> Vec<(usize, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < gz.len() {
        let mut d = flate2::bufread::GzDecoder::new(&gz[at..]);
        std::io::copy(&mut d, &mut std::io::sink()).unwrap();
        let len = gz.len() - at - d.into_inner().len();
        out.push((at, gz[at..at + len].to_vec()));
        at += len;
    }
    out
}

/// The records of a `.warc.gz` of a member per record, and a zstd
/// dictionary trained on them (their first 4 KiB as samples).
fn records_and_dictionary(gz: &[u8]) -> (Vec<Vec<u8>>, Vec<u8>) {
    let records: Vec<Vec<u8>> = members(gz)
        .into_iter()
        .map(|(_, m)| {
            let mut r = Vec::new();
            flate2::read::GzDecoder::new(&m[..])
                .read_to_end(&mut r)
                .unwrap();
            r
        })
        .collect();
    let samples: Vec<&[u8]> = records.iter().map(|r| &r[..r.len().min(4096)]).collect();
    let dict = zstd::dict::from_samples(&samples, 8 << 10).unwrap();
    (records, dict)
}

#[test]
fn get_copies_the_indexed_members_in_index_order() {
    let gz = std::fs::read(common::crawl_samples_dir().join("pywb/iana.warc.gz")).unwrap();
    let w = Workdir::new();
    w.create("iana.warc.gz", &gz);
    let index = w.stdout(&["index", "-q", "iana.warc.gz"]);
    // Every third line, in reverse: index order, not file order.
    let mut lines: Vec<&str> = index.lines().step_by(3).collect();
    lines.reverse();
    w.create("some.cdxj", lines.join("\n") + "\n");
    let offsets: Vec<usize> = lines
        .iter()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(&l[l.find(" {").unwrap()..]).unwrap();
            v["offset"].as_str().unwrap().parse().unwrap()
        })
        .collect();
    let by_offset: std::collections::HashMap<usize, Vec<u8>> = members(&gz).into_iter().collect();
    let want: Vec<u8> = offsets.iter().flat_map(|o| by_offset[o].clone()).collect();
    for j in ["-j1", "-j3"] {
        w.stdout(&[
            "get",
            "-q",
            "--no-warcinfo",
            "some.cdxj",
            "-o",
            "out.warc.gz",
            j,
        ]);
        assert!(
            w.read("out.warc.gz") == want,
            "{j}: members copied byte for byte"
        );
    }
    // With its warcinfo record first (a member of its own).
    w.stdout(&["get", "-q", "some.cdxj", "-o", "info.warc.gz"]);
    let out = w.read("info.warc.gz");
    let first = &members(&out)[0].1;
    let mut info = String::new();
    flate2::read::GzDecoder::new(&first[..])
        .read_to_string(&mut info)
        .unwrap();
    assert!(
        info.starts_with("WARC/1.1\r\nWARC-Type: warcinfo\r\n"),
        "{info}"
    );
    assert!(info.contains("from the index some.cdxj"), "{info}");
    assert!(out.ends_with(&want));
    // Plain and zstd output hold the same records.
    let hrefs = w.stdout(&[
        "extract",
        "--fields",
        "href,@WARC-Type",
        "-q",
        "out.warc.gz",
    ]);
    for name in ["out.warc", "out.warc.zst"] {
        w.stdout(&["get", "-q", "--no-warcinfo", "some.cdxj", "-o", name]);
        assert_eq!(
            w.stdout(&["extract", "--fields", "href,@WARC-Type", "-q", name]),
            hrefs,
            "{name}"
        );
    }
    let out = w.read("out.warc.zst");
    assert_eq!(&out[..4], &[0x28, 0xb5, 0x2f, 0xfd]);
}

#[test]
fn each_line_that_does_not_find_its_record_is_a_reject_with_its_reason() {
    let gz = std::fs::read(common::crawl_samples_dir().join("pywb/iana.warc.gz")).unwrap();
    let w = Workdir::new();
    w.create("iana.warc.gz", &gz);
    let index = w.stdout(&["index", "-q", "iana.warc.gz"]);
    let good: Vec<&str> = index.lines().take(3).collect();
    let line = good[0];
    let field = |name: &str| -> String {
        let v: serde_json::Value = serde_json::from_str(&line[line.find(" {").unwrap()..]).unwrap();
        v[name].as_str().unwrap().to_string()
    };
    let (offset, url) = (field("offset"), field("url"));
    let shifted: u64 = offset.parse::<u64>().unwrap() + 1;
    let lines = [
        good[1].to_string(),
        "no index line here".to_string(),
        line.replace("iana.warc.gz", "gone.warc.gz"),
        line.replace(
            &format!("\"offset\": \"{offset}\""),
            &format!("\"offset\": \"{}\"", gz.len() - 10),
        ),
        line.replace(
            &format!("\"offset\": \"{offset}\""),
            &format!("\"offset\": \"{shifted}\""),
        ),
        line.replace(
            &format!("\"url\": \"{url}\""),
            "\"url\": \"http://other.example/\"",
        ),
        good[2].to_string(),
    ];
    w.create("mixed.cdxj", lines.join("\n") + "\n");
    let out = w.run(
        &[
            "get",
            "--no-warcinfo",
            "--rejects",
            "rejects.tsv",
            "mixed.cdxj",
            "-o",
            "out.warc",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "2 records written from 7 index lines; 5 rejected (1 bad-index-line, 1 missing-file, \
             1 short-read, 1 bad-gzip-member, 1 other-url)"
        ),
        "{}",
        stderr(&out)
    );
    let rejects = String::from_utf8(w.read("rejects.tsv")).unwrap();
    let reasons: Vec<(&str, &str)> = rejects
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[1], f[3])
        })
        .collect();
    assert_eq!(
        reasons,
        [
            ("2", "bad-index-line"),
            ("3", "missing-file"),
            ("4", "short-read"),
            ("5", "bad-gzip-member"),
            ("6", "other-url")
        ]
    );
    let got = w.stdout(&["extract", "--fields", "href", "-q", "out.warc"]);
    assert_eq!(got.lines().count(), 1 + 2, "a header and two URLs: {got}");
    // A plain WARC: a range that starts inside a record is not one.
    w.create("plain.warc", w.read("out.warc"));
    let plain = w.stdout(&["index", "-q", "plain.warc"]);
    let first = plain.lines().next().unwrap();
    let inside = first.replace("\"offset\": \"0\"", "\"offset\": \"7\"");
    w.create("inside.cdxj", inside + "\n" + first + "\n");
    let out = w.run(
        &["get", "--rejects", "r.tsv", "inside.cdxj", "-o", "x.warc"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(w.read("r.tsv"))
            .unwrap()
            .contains("\tnot-a-warc-record\t")
    );
}

/// Records of a `.warc.zst` with a dictionary: their frames are copied,
/// after the dictionary frame, which the `zstd` command (`-D`) needs to
/// decode them.
#[test]
fn warc_zst_frames_are_copied_after_their_dictionary_frame() {
    let gz = std::fs::read(common::crawl_samples_dir().join("pywb/iana.warc.gz")).unwrap();
    let (records, dict) = records_and_dictionary(&gz);
    let mut file = 0x184D_2A5Du32.to_le_bytes().to_vec();
    file.extend((dict.len() as u32).to_le_bytes());
    file.extend(&dict);
    let mut c = zstd::bulk::Compressor::with_dictionary(3, &dict).unwrap();
    c.include_checksum(true).unwrap();
    for r in &records {
        file.extend(c.compress(r).unwrap());
    }
    let w = Workdir::new();
    w.create("iana.warc.zst", &file);
    w.create("dict", &dict);
    let index = w.stdout(&["index", "-q", "iana.warc.zst"]);
    w.create("all.cdxj", &index);
    w.stdout(&["get", "-q", "all.cdxj", "-o", "out.warc.zst"]);
    let out = w.read("out.warc.zst");
    assert_eq!(
        &out[..4],
        &[0x5d, 0x2a, 0x4d, 0x18],
        "the dictionary frame first"
    );
    let decoded = std::process::Command::new("zstd")
        .args(["-d", "-c", "-q", "-D"])
        .arg(w.path("dict"))
        .arg(w.path("out.warc.zst"))
        .output()
        .expect("the zstd command (the oracle) runs");
    assert!(
        decoded.status.success(),
        "{}",
        String::from_utf8_lossy(&decoded.stderr)
    );
    w.create("decoded.warc", &decoded.stdout);
    let want = w.stdout(&[
        "extract",
        "--fields",
        "href,@WARC-Type",
        "-q",
        "iana.warc.zst",
    ]);
    let got = w.stdout(&[
        "extract",
        "--fields",
        "href,@WARC-Type",
        "-q",
        "decoded.warc",
    ]);
    // The warcinfo record first, then the indexed records (responses
    // and the like, in key order): each one of the file's.
    assert!(got.lines().count() >= index.lines().count());
    assert!(got.lines().all(|l| want.lines().any(|x| x == l)), "{got}");
    // From two files of different dictionaries (or none), recompressed
    // without one.
    w.create("iana.warc.gz", &gz);
    let both = index.clone() + &w.stdout(&["index", "-q", "iana.warc.gz"]);
    w.create("both.cdxj", both);
    w.stdout(&[
        "get",
        "-q",
        "--no-warcinfo",
        "both.cdxj",
        "-o",
        "mixed.warc.zst",
    ]);
    let plain = std::process::Command::new("zstd")
        .args(["-d", "-c", "-q"])
        .arg(w.path("mixed.warc.zst"))
        .output()
        .unwrap();
    assert!(plain.status.success(), "decodes without a dictionary");
}

#[test]
fn inputs_prefix_names_where_the_files_are() {
    let w = Workdir::new();
    std::fs::create_dir(w.path("data")).unwrap();
    let gz = std::fs::read(common::crawl_samples_dir().join("warcio/example.warc.gz")).unwrap();
    w.create("data/example.warc.gz", &gz);
    let index = w.stdout(&["index", "-q", "data/example.warc.gz"]);
    w.create("hits.cdxj", &index);
    let out = w.run(&["get", "-q", "hits.cdxj", "-o", "x.warc.gz"], None);
    assert_eq!(
        out.status.code(),
        Some(2),
        "relative to the index's folder: not there"
    );
    let data = w.path("data").display().to_string();
    w.stdout(&[
        "get",
        "-q",
        "--inputs-prefix",
        &data,
        "hits.cdxj",
        "-o",
        "x.warc.gz",
    ]);
    assert_eq!(
        w.stdout(&["extract", "--fields", "href", "-q", "x.warc.gz"])
            .lines()
            .count(),
        1 + index.lines().count(),
        "a header and the indexed records' URLs"
    );
    let out = w.run(&["get", "hits.cdxj", "-o", "x.txt"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("name the file .warc.gz, .warc or .warc.zst"),
        "{}",
        stderr(&out)
    );
}

/// `--zstd-dictionary FILE` and `--train-dictionary`: the records
/// compressed with that dictionary, which the file's first frame holds;
/// the `zstd` command decodes the output with it (`-D`).
#[test]
fn a_given_or_trained_dictionary_compresses_the_output() {
    let gz = std::fs::read(common::crawl_samples_dir().join("pywb/iana.warc.gz")).unwrap();
    let w = Workdir::new();
    w.create("iana.warc.gz", &gz);
    w.create("all.cdxj", w.stdout(&["index", "-q", "iana.warc.gz"]));
    w.stdout(&["get", "-q", "all.cdxj", "-o", "plain.warc"]);
    let want = w.stdout(&["extract", "--fields", "href,@WARC-Type", "-q", "plain.warc"]);
    w.create("dict", records_and_dictionary(&gz).1);
    let dict_path = w.path("dict").display().to_string();
    w.stdout(&[
        "get",
        "-q",
        "--zstd-dictionary",
        &dict_path,
        "all.cdxj",
        "-o",
        "given.warc.zst",
    ]);
    w.stdout(&[
        "get",
        "-q",
        "--train-dictionary",
        "all.cdxj",
        "-o",
        "trained.warc.zst",
    ]);
    for (name, dict) in [
        ("given.warc.zst", w.read("dict")),
        ("trained.warc.zst", Vec::new()),
    ] {
        let out = w.read(name);
        assert_eq!(
            &out[..4],
            &[0x5d, 0x2a, 0x4d, 0x18],
            "{name}: the dictionary frame first"
        );
        let len = u32::from_le_bytes(out[4..8].try_into().unwrap()) as usize;
        let in_frame = &out[8..8 + len];
        if !dict.is_empty() {
            assert!(in_frame == dict, "{name}: the given dictionary");
        }
        w.create("frame-dict", in_frame);
        let decoded = std::process::Command::new("zstd")
            .args(["-d", "-c", "-q", "-D"])
            .arg(w.path("frame-dict"))
            .arg(w.path(name))
            .output()
            .expect("the zstd command (the oracle) runs");
        assert!(
            decoded.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&decoded.stderr)
        );
        w.create("decoded.warc", &decoded.stdout);
        let plain = w.read("plain.warc");
        // The same records (the warcinfo records differ in date and id).
        let skip_info = |b: &[u8]| b[memchr_find(b, b"WARC/1.0\r\n")..].to_vec();
        assert!(skip_info(&decoded.stdout) == skip_info(&plain), "{name}");
        assert_eq!(
            w.stdout(&["extract", "--fields", "href,@WARC-Type", "-q", name]),
            want,
            "{name}"
        );
    }
    let out = w.run(
        &["get", "--train-dictionary", "all.cdxj", "-o", "x.warc.gz"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("are for .warc.zst output"),
        "{}",
        stderr(&out)
    );
}

fn memchr_find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).position(|w| w == needle).unwrap()
}

/// Index tables: Common Crawl's columnar index as Parquet (offsets and
/// lengths as integers) and the CSV its queries give, with its column
/// names; the same records as the CDXJ lines they hold.
#[test]
fn csv_and_parquet_index_tables_give_the_same_records() {
    use std::sync::Arc;
    let gz = std::fs::read(common::crawl_samples_dir().join("pywb/iana.warc.gz")).unwrap();
    let w = Workdir::new();
    w.create("iana.warc.gz", &gz);
    let index = w.stdout(&["index", "-q", "iana.warc.gz"]);
    w.create("all.cdxj", &index);
    w.stdout(&["get", "-q", "--no-warcinfo", "all.cdxj", "-o", "want.warc"]);
    let rows: Vec<(String, String, i64, i64)> = index
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(&l[l.find(" {").unwrap()..]).unwrap();
            let s = |k: &str| v[k].as_str().unwrap().to_string();
            (
                s("url"),
                s("filename"),
                s("offset").parse().unwrap(),
                s("length").parse().unwrap(),
            )
        })
        .collect();
    let mut csv =
        String::from("url_host_name,url,warc_filename,warc_record_offset,warc_record_length\n");
    for (url, file, offset, length) in &rows {
        csv.push_str(&format!("x,\"{url}\",{file},{offset},{length}\n"));
    }
    w.create("query.csv", csv);
    let schema = Arc::new(arrow_schema::Schema::new(vec![
        arrow_schema::Field::new("url", arrow_schema::DataType::Utf8, false),
        arrow_schema::Field::new("warc_filename", arrow_schema::DataType::Utf8, false),
        arrow_schema::Field::new("warc_record_offset", arrow_schema::DataType::Int64, false),
        arrow_schema::Field::new("warc_record_length", arrow_schema::DataType::Int64, false),
    ]));
    let batch = arrow_array::RecordBatch::try_new(
        schema.clone(),
        vec![
            Arc::new(arrow_array::StringArray::from_iter_values(
                rows.iter().map(|r| &r.0),
            )),
            Arc::new(arrow_array::StringArray::from_iter_values(
                rows.iter().map(|r| &r.1),
            )),
            Arc::new(arrow_array::Int64Array::from_iter_values(
                rows.iter().map(|r| r.2),
            )),
            Arc::new(arrow_array::Int64Array::from_iter_values(
                rows.iter().map(|r| r.3),
            )),
        ],
    )
    .unwrap();
    let file = std::fs::File::create(w.path("index.parquet")).unwrap();
    let mut writer = parquet::arrow::ArrowWriter::try_new(file, schema, None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    for table in ["query.csv", "index.parquet"] {
        w.stdout(&["get", "-q", "--no-warcinfo", table, "-o", "got.warc"]);
        assert!(w.read("got.warc") == w.read("want.warc"), "{table}");
    }
    // A table without the columns names what it needs.
    w.create("bad.csv", "url,file\nhttp://a/,x\n");
    let out = w.run(&["get", "bad.csv", "-o", "x.warc"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("needs the columns warc_filename"),
        "{}",
        stderr(&out)
    );
}

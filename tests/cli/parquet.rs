//! Parquet end to end: files written here with arrow-rs (many column
//! types, struct columns, nulls, several row groups, key-value metadata),
//! run through the command, and read back. Every other column must come
//! back bit for bit, the URL column as the text path writes the same URLs,
//! and damage must be named by file and row group.

use std::fs::File;
use std::sync::Arc;

use arrow_array::builder::{ListBuilder, StringBuilder};
use arrow_array::{
    Array, ArrayRef, BinaryArray, Float64Array, Int32Array, RecordBatch, StringArray, StructArray,
    TimestampMillisecondArray, UInt16Array, UInt64Array,
};
use arrow_schema::{DataType, Field, Fields, Schema};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;

use crate::workdir::*;

/// `batch` written to `path` in row groups of `group` rows, with a
/// key-value pair.
fn write(path: &std::path::Path, batch: &RecordBatch, group: usize) {
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(group))
        .set_compression(Compression::SNAPPY)
        .set_key_value_metadata(Some(vec![KeyValue::new(
            "crawl".to_string(),
            "CC-MAIN-test".to_string(),
        )]))
        .build();
    let mut w =
        ArrowWriter::try_new(File::create(path).unwrap(), batch.schema(), Some(props)).unwrap();
    w.write(batch).unwrap();
    w.close().unwrap();
}

/// A Parquet file's rows (one batch), its row group count and its
/// key-value metadata.
fn read(path: &std::path::Path) -> (RecordBatch, usize, Vec<(String, Option<String>)>) {
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap()).unwrap();
    let meta = builder.metadata().clone();
    let schema = builder.schema().clone();
    let batches: Vec<RecordBatch> = builder.build().unwrap().map(|b| b.unwrap()).collect();
    let batch = arrow_select::concat::concat_batches(&schema, &batches).unwrap();
    let kv = meta
        .file_metadata()
        .key_value_metadata()
        .into_iter()
        .flatten()
        .filter(|kv| kv.key != "ARROW:schema")
        .map(|kv| (kv.key.clone(), kv.value.clone()))
        .collect();
    (batch, meta.num_row_groups(), kv)
}

/// The first `n` lines of the bundled sample, with a null, an empty and a
/// bad URL every so often.
fn urls(n: usize) -> Vec<Option<String>> {
    let sample = std::fs::read_to_string(sample()).unwrap();
    sample
        .lines()
        .take(n)
        .enumerate()
        .map(|(i, l)| match i % 97 {
            5 => None,
            11 => Some(String::new()),
            23 => Some("not a url".to_string()),
            _ => Some(l.to_string()),
        })
        .collect()
}

/// A batch of every kind of column around `url`: numbers, floats,
/// timestamps, binary, a list, a dictionary, and a struct holding a second
/// URL.
fn crawl(urls: &[Option<String>]) -> RecordBatch {
    let n = urls.len();
    let mut list = ListBuilder::new(StringBuilder::new());
    for i in 0..n {
        if i % 7 == 0 {
            list.append_null();
        } else {
            list.values().append_value(format!("tag{}", i % 3));
            list.append(true);
        }
    }
    let inner_urls: ArrayRef =
        Arc::new(StringArray::from_iter((0..n).map(|i| {
            (i % 5 != 0).then(|| format!("HTTPS://Inner{}.Example/{i}", i % 4))
        })));
    let inner_fields = Fields::from(vec![
        Field::new("u", DataType::Utf8, true),
        Field::new("depth", DataType::Int32, false),
    ]);
    let inner = StructArray::new(
        inner_fields.clone(),
        vec![
            inner_urls,
            Arc::new(Int32Array::from_iter_values((0..n).map(|i| i as i32 % 9))),
        ],
        Some((0..n).map(|i| i % 13 != 0).collect()),
    );
    let dict: ArrayRef = Arc::new(
        (0..n)
            .map(|i| ["text/html", "application/pdf", "image/png"][i % 3])
            .collect::<arrow_array::DictionaryArray<arrow_array::types::Int32Type>>(),
    );
    let schema = Schema::new(vec![
        Field::new("id", DataType::UInt64, false),
        Field::new("url", DataType::Utf8, true),
        Field::new("score", DataType::Float64, true),
        Field::new(
            "fetched",
            DataType::Timestamp(arrow_schema::TimeUnit::Millisecond, None),
            true,
        ),
        Field::new("payload", DataType::Binary, true),
        Field::new("tags", list.finish().data_type().clone(), true),
        Field::new("mime", dict.data_type().clone(), false),
        Field::new("link", DataType::Struct(inner_fields), true),
    ]);
    let mut list = ListBuilder::new(StringBuilder::new());
    for i in 0..n {
        if i % 7 == 0 {
            list.append_null();
        } else {
            list.values().append_value(format!("tag{}", i % 3));
            list.append(true);
        }
    }
    RecordBatch::try_new(
        Arc::new(schema),
        vec![
            Arc::new(UInt64Array::from_iter_values(0..n as u64)),
            Arc::new(StringArray::from_iter(urls.iter().map(|u| u.as_deref()))),
            Arc::new(Float64Array::from_iter(
                (0..n).map(|i| (i % 3 != 0).then_some(i as f64 / 7.0)),
            )),
            Arc::new(TimestampMillisecondArray::from_iter(
                (0..n).map(|i| (i % 4 != 0).then_some(1_700_000_000_000 + i as i64)),
            )),
            Arc::new(BinaryArray::from_iter(
                (0..n).map(|i| (i % 6 != 0).then(|| vec![i as u8, 0, 255])),
            )),
            Arc::new(list.finish()),
            dict,
            Arc::new(inner),
        ],
    )
    .unwrap()
}

/// The URLs of a text run's output lines.
fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

/// The `url` column of `batch` (nulls as `None`).
fn url_column(batch: &RecordBatch, name: &str) -> Vec<Option<String>> {
    let column = batch.column_by_name(name).unwrap();
    let strings = column.as_any().downcast_ref::<StringArray>().unwrap();
    strings.iter().map(|v| v.map(str::to_string)).collect()
}

#[test]
fn normalize_writes_parquet_back_every_other_column_bit_for_bit() {
    let wd = Workdir::new();
    let urls = urls(3000);
    let input = crawl(&urls);
    write(&wd.path("crawl.parquet"), &input, 700);
    // The same URLs as lines: the text path's answer.
    let text: String = urls
        .iter()
        .map(|u| format!("{}\n", u.as_deref().unwrap_or("")))
        .collect();
    wd.create("urls.txt", &text);
    for extra in [&[][..], &["--strip-params", "utm_*", "--sort-query"][..]] {
        let expected =
            lines(&wd.stdout(&[&["normalize", "-q"][..], extra, &["urls.txt"]].concat()));
        for (j, chunk) in [("1", "4M"), ("2", "2K")] {
            let args = [
                &["normalize", "-q", "-j", j, "--chunk-size", chunk][..],
                extra,
                &["-o", "out.parquet", "crawl.parquet"],
            ]
            .concat();
            wd.stdout(&args);
            let (out, groups, kv) = read(&wd.path("out.parquet"));
            assert_eq!(groups, 1, "{args:?}: row groups of 128Ki rows");
            assert_eq!(
                kv,
                [("crawl".to_string(), Some("CC-MAIN-test".to_string()))]
            );
            assert_eq!(out.schema().fields(), input.schema().fields(), "{args:?}");
            // The rows kept are the valid ones, in order; every column but
            // the URL is the input's, bit for bit.
            let valid = |u: &Option<String>| {
                u.as_deref()
                    .is_some_and(|u| !u.is_empty() && urlsift::Url::parse(u).is_ok())
            };
            let kept: Vec<u64> = (0..urls.len() as u64)
                .filter(|&i| valid(&urls[i as usize]))
                .collect();
            let ids = out
                .column(0)
                .as_any()
                .downcast_ref::<UInt64Array>()
                .unwrap();
            assert_eq!(ids.values().to_vec(), kept, "{args:?}");
            let indices =
                arrow_array::UInt32Array::from_iter_values(kept.iter().map(|&i| i as u32));
            let taken = arrow_select::take::take_record_batch(&input, &indices).unwrap();
            for c in 0..input.num_columns() {
                if c != 1 {
                    assert_eq!(
                        out.column(c).to_data(),
                        taken.column(c).to_data(),
                        "column {c}"
                    );
                }
            }
            let got: Vec<String> = url_column(&out, "url")
                .into_iter()
                .map(Option::unwrap)
                .collect();
            assert_eq!(got, expected, "{args:?}");
        }
    }
}

#[test]
fn keep_invalid_rejects_and_strict_name_rows() {
    let wd = Workdir::new();
    let urls = urls(300);
    write(&wd.path("in.parquet"), &crawl(&urls), 100);
    // --keep-invalid: every row, bad and empty ones as they were.
    wd.stdout(&[
        "normalize",
        "-q",
        "--keep-invalid",
        "-o",
        "all.parquet",
        "in.parquet",
    ]);
    let (out, _, _) = read(&wd.path("all.parquet"));
    assert_eq!(out.num_rows(), 300);
    let got = url_column(&out, "url");
    assert_eq!(got[5], None);
    assert_eq!(got[11].as_deref(), Some(""));
    assert_eq!(got[23].as_deref(), Some("not a url"));
    // --rejects: the row number (1-based) and the value, as the text path
    // gives the line number and the line (small chunks: several a row
    // group, each numbered from its group's first row).
    wd.stdout(&[
        "normalize",
        "-q",
        "--chunk-size",
        "4K",
        "--rejects",
        "bad.tsv",
        "-o",
        "ok.parquet",
        "in.parquet",
    ]);
    let text: String = urls
        .iter()
        .map(|u| format!("{}\n", u.as_deref().unwrap_or("")))
        .collect();
    wd.create("urls.txt", &text);
    wd.stdout(&["normalize", "-q", "--rejects", "bad-text.tsv", "urls.txt"]);
    // (source, row/line, reason, value): the offset differs (a Parquet
    // row has none).
    let fields = |file: &str| -> Vec<String> {
        String::from_utf8(wd.read(file))
            .unwrap()
            .lines()
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                format!("{} {} {}", f[1], f[3], f[4])
            })
            .collect()
    };
    let rejects = fields("bad.tsv");
    assert_eq!(rejects, fields("bad-text.tsv"));
    assert!(
        rejects
            .iter()
            .any(|r| r.starts_with("24 ") && r.ends_with(" not a url")),
        "{rejects:?}"
    );
    assert!(
        String::from_utf8(wd.read("bad.tsv"))
            .unwrap()
            .starts_with("in.parquet\t")
    );
    // --strict: stops at the first, status 1, no output file.
    let out = wd.run(
        &[
            "normalize",
            "--strict",
            "-o",
            "strict.parquet",
            "in.parquet",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let first_bad = rejects[0].split(' ').next().unwrap();
    assert!(
        stderr(&out).contains(&format!("in.parquet:{first_bad}")),
        "{}",
        stderr(&out)
    );
    assert!(!wd.path("strict.parquet").exists());
}

#[test]
fn the_url_may_be_a_struct_field_and_other_string_layouts() {
    let wd = Workdir::new();
    let urls = urls(200);
    write(&wd.path("in.parquet"), &crawl(&urls), 64);
    wd.stdout(&[
        "normalize",
        "-q",
        "--field",
        "link.u",
        "-o",
        "out.parquet",
        "in.parquet",
    ]);
    let (out, _, _) = read(&wd.path("out.parquet"));
    let link = out.column_by_name("link").unwrap();
    let link = link.as_any().downcast_ref::<StructArray>().unwrap();
    let inner = link
        .column(0)
        .as_any()
        .downcast_ref::<StringArray>()
        .unwrap();
    // Rows whose struct or whose URL is null are empty records: dropped.
    assert_eq!(
        out.num_rows(),
        (0..200).filter(|i| i % 5 != 0 && i % 13 != 0).count()
    );
    assert!(
        inner
            .iter()
            .all(|u| u.is_some_and(|u| u.starts_with("https://inner")))
    );
    // The top-level url column is untouched.
    let (input, _, _) = read(&wd.path("in.parquet"));
    assert_eq!(url_column(&out, "url")[0], url_column(&input, "url")[1]);
    // Dictionary, large and view strings and binary URLs: the same answer.
    let values = [
        "HTTP://A.example/x/../y",
        "https://b.example/",
        "HTTPS://B.EXAMPLE/",
    ];
    for data_type in [
        DataType::LargeUtf8,
        DataType::Utf8View,
        DataType::Dictionary(Box::new(DataType::Int16), Box::new(DataType::Utf8)),
        DataType::Binary,
    ] {
        let plain: ArrayRef = Arc::new(StringArray::from_iter_values(values));
        let column = arrow_cast::cast(&plain, &data_type).unwrap();
        let schema = Schema::new(vec![Field::new("URL", data_type.clone(), false)]);
        let batch = RecordBatch::try_new(Arc::new(schema), vec![column]).unwrap();
        write(&wd.path("typed.parquet"), &batch, 10);
        wd.stdout(&["dedup", "-q", "-o", "typed-out.parquet", "typed.parquet"]);
        let (out, _, _) = read(&wd.path("typed-out.parquet"));
        assert_eq!(out.column(0).data_type(), &data_type);
        let back = arrow_cast::cast(out.column(0), &DataType::Utf8).unwrap();
        let back: Vec<&str> = back
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap()
            .iter()
            .map(Option::unwrap)
            .collect();
        assert_eq!(
            back,
            ["http://a.example/y", "https://b.example/"],
            "{data_type}"
        );
    }
}

#[test]
fn dedup_keeps_the_rows_text_dedup_keeps() {
    let wd = Workdir::new();
    let mut urls = urls(2000);
    urls.extend(urls.clone());
    write(&wd.path("in.parquet"), &crawl(&urls), 500);
    let text: String = urls
        .iter()
        .map(|u| format!("{}\n", u.as_deref().unwrap_or("")))
        .collect();
    wd.create("urls.txt", &text);
    for (key, samples) in [
        ("href", "1"),
        ("host", "1"),
        ("site", "1"),
        ("pattern", "1"),
        ("host", "3"),
    ] {
        let expected = lines(&wd.stdout(&[
            "dedup",
            "-q",
            "--key",
            key,
            "--samples",
            samples,
            "urls.txt",
        ]));
        // (-j4, -j8: the seen-set's partitions looked up by the workers,
        // with one sample per key.)
        for j in ["1", "2", "4", "8"] {
            wd.stdout(&[
                "dedup",
                "-q",
                "-j",
                j,
                "--chunk-size",
                "8K",
                "--key",
                key,
                "--samples",
                samples,
                "-o",
                "out.parquet",
                "in.parquet",
            ]);
            let (out, _, _) = read(&wd.path("out.parquet"));
            let got: Vec<String> = url_column(&out, "url")
                .into_iter()
                .map(Option::unwrap)
                .collect();
            assert_eq!(got, expected, "--key {key} --samples {samples} -j {j}");
            // Past --memory the keys and the rows they need go to disk:
            // the same rows, every column, come back.
            let spilled = wd.run(
                &[
                    "dedup",
                    "-j",
                    j,
                    "--memory",
                    "20K",
                    "--tmp-dir",
                    ".",
                    "--key",
                    key,
                    "--samples",
                    samples,
                    "--keep-invalid",
                    "-o",
                    "spilled.parquet",
                    "in.parquet",
                ],
                None,
            );
            assert!(spilled.status.success(), "{}", stderr(&spilled));
            wd.stdout(&[
                "dedup",
                "-q",
                "-j",
                j,
                "--key",
                key,
                "--samples",
                samples,
                "--keep-invalid",
                "-o",
                "kept.parquet",
                "in.parquet",
            ]);
            let (spilled_rows, _, _) = read(&wd.path("spilled.parquet"));
            let (kept_rows, _, _) = read(&wd.path("kept.parquet"));
            // Bad rows are keyed by their values: a null, an empty and a
            // "not a url" row (each many times) keep one row each, and so
            // does each bad line of the sample.
            let bad_kept = kept_rows.num_rows() - got.len();
            assert!(bad_kept >= 3, "{bad_kept} bad rows kept, -j {j}");
            assert_eq!(
                spilled_rows, kept_rows,
                "--key {key} --samples {samples} -j {j}"
            );
            let leftovers: Vec<_> = std::fs::read_dir(wd.path("."))
                .unwrap()
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.starts_with("urlsift-"))
                .collect();
            assert!(leftovers.is_empty(), "{leftovers:?}");
        }
    }
    let out = wd.run(&["dedup", "--count", "-o", "x.parquet", "in.parquet"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn extract_writes_typed_columns_and_reads_parquet_fields() {
    let wd = Workdir::new();
    let urls = vec![
        Some("https://news.bbc.co.uk:8080/a?b#c".to_string()),
        None,
        Some("http://127.0.0.1/".to_string()),
        Some("bad".to_string()),
    ];
    write(&wd.path("in.parquet"), &crawl(&urls), 2);
    wd.stdout(&[
        "extract",
        "-q",
        "--fields",
        "line,hostname,port,site,hash,@id,@score,@link.depth",
        "-o",
        "fields.parquet",
        "in.parquet",
    ]);
    let (out, _, _) = read(&wd.path("fields.parquet"));
    let schema = out.schema();
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(
        names,
        [
            "line",
            "hostname",
            "port",
            "site",
            "hash",
            "id",
            "score",
            "link.depth"
        ]
    );
    let types: Vec<&DataType> = schema.fields().iter().map(|f| f.data_type()).collect();
    assert_eq!(
        types,
        [
            &DataType::UInt64,
            &DataType::Utf8,
            &DataType::UInt16,
            &DataType::Utf8,
            &DataType::Utf8,
            &DataType::UInt64,
            &DataType::Float64,
            &DataType::Int32
        ]
    );
    let line = out
        .column(0)
        .as_any()
        .downcast_ref::<UInt64Array>()
        .unwrap();
    assert_eq!(line.values().to_vec(), [1, 3]);
    let port = out
        .column(2)
        .as_any()
        .downcast_ref::<UInt16Array>()
        .unwrap();
    assert_eq!(port.iter().collect::<Vec<_>>(), [Some(8080), None]);
    assert_eq!(url_column(&out, "site"), [Some("bbc.co.uk".into()), None]);
    assert_eq!(
        url_column(&out, "hash"),
        [Some("#c".into()), Some(String::new())]
    );
    // Text output of the same fields, as extract prints any format's.
    let csv = wd.stdout(&[
        "extract",
        "-q",
        "--fields",
        "hostname,@id,@score,@mime,@link.u",
        "in.parquet",
    ]);
    assert_eq!(
        csv,
        "hostname,id,score,mime,link.u\n\
         news.bbc.co.uk,0,,text/html,\n\
         127.0.0.1,2,0.2857142857142857,image/png,HTTPS://Inner2.Example/2\n"
    );
    // From CSV input to Parquet: @NAME columns are strings.
    wd.create("in.csv", "url,title\nhttps://a.example:81/,T\n");
    wd.stdout(&[
        "extract",
        "-q",
        "--output-format",
        "parquet",
        "--fields",
        "port,@title",
        "-o",
        "csv.parquet",
        "in.csv",
    ]);
    let (out, _, _) = read(&wd.path("csv.parquet"));
    assert_eq!(out.schema().field(1).data_type(), &DataType::Utf8);
    assert_eq!(url_column(&out, "title"), [Some("T".into())]);
}

#[test]
fn check_and_stats_read_parquet() {
    let wd = Workdir::new();
    let urls = urls(500);
    write(&wd.path("in.parquet"), &crawl(&urls), 128);
    let text: String = urls
        .iter()
        .map(|u| format!("{}\n", u.as_deref().unwrap_or("")))
        .collect();
    wd.create("urls.txt", &text);
    let check = |file: &str| {
        let out = wd.run(&["check", "--json", file], None);
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                format!("{} {} {}", v["line"], v["input"], v["errors"])
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(check("in.parquet"), check("urls.txt"));
    let stats = |file: &str| {
        let v: serde_json::Value =
            serde_json::from_str(&wd.stdout(&["stats", "--json", file])).unwrap();
        (v["lines"].clone(), v["valid"].clone(), v["hosts"].clone())
    };
    assert_eq!(stats("in.parquet"), stats("urls.txt"));
}

#[test]
fn errors_name_the_file_and_the_row_group() {
    let wd = Workdir::new();
    let urls = urls(600);
    let input = crawl(&urls);
    // Uncompressed, so the second row group's page header can be found
    // and broken.
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(200))
        .build();
    let path = wd.path("in.parquet");
    let mut w =
        ArrowWriter::try_new(File::create(&path).unwrap(), input.schema(), Some(props)).unwrap();
    w.write(&input).unwrap();
    let meta = w.close().unwrap();
    let second = meta.row_group(1).column(1).data_page_offset() as usize;
    let mut bytes = wd.read("in.parquet");
    bytes[second..second + 16].fill(0xFF);
    wd.create("broken.parquet", &bytes);
    let out = wd.run(
        &[
            "normalize",
            "--keep-invalid",
            "-o",
            "out.parquet",
            "broken.parquet",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("broken.parquet") && err.contains("row group 1 (rows 201-400)"),
        "{err}"
    );
    // `-o` is all or nothing: no file. Standard output has the first row
    // group's rows, processed and written (a Parquet file of them), as it
    // has the lines before the cut of a text input.
    assert!(!wd.path("out.parquet").exists(), "{:?}", wd.files());
    let streamed = wd.run(&["normalize", "--keep-invalid", "broken.parquet"], None);
    assert_eq!(streamed.status.code(), Some(2));
    wd.create("streamed.parquet", &streamed.stdout);
    let (out, _, _) = read(&wd.path("streamed.parquet"));
    assert_eq!(out.num_rows(), 200);
    // A cut file, a missing column, standard input, a compressed file.
    wd.create("cut.parquet", &bytes[..bytes.len() / 2]);
    let out = wd.run(&["check", "cut.parquet"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cut.parquet: not a readable Parquet file"),
        "{}",
        stderr(&out)
    );
    let out = wd.run(&["check", "--field", "nope", "in.parquet"], None);
    assert!(
        stderr(&out).contains("no column \"nope\" (columns: \"id\", \"url\", \"score\", \"fetched\", \"payload\", \"tags\", \"mime\", \"link.u\", \"link.depth\")"),
        "{}",
        stderr(&out)
    );
    let out = wd.run(&["check", "--field", "score", "in.parquet"], None);
    assert!(
        stderr(&out).contains("not a string column"),
        "{}",
        stderr(&out)
    );
    let out = wd.run(&["check", "--input-format", "parquet", "-"], Some(&bytes));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not from standard input"),
        "{}",
        stderr(&out)
    );
    wd.create("in.parquet.gz", gzip(&wd.read("in.parquet")));
    let out = wd.run(&["check", "in.parquet.gz"], None);
    assert!(
        stderr(&out).contains("decompress it first"),
        "{}",
        stderr(&out)
    );
    // Two inputs of different schemas cannot be written back as one file.
    let other = RecordBatch::try_new(
        Arc::new(Schema::new(vec![Field::new("url", DataType::Utf8, false)])),
        vec![Arc::new(StringArray::from(vec!["https://x.example/"]))],
    )
    .unwrap();
    write(&wd.path("other.parquet"), &other, 10);
    let out = wd.run(
        &[
            "normalize",
            "-o",
            "two.parquet",
            "in.parquet",
            "other.parquet",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("schema differs"), "{}", stderr(&out));
}

#[test]
fn compression_is_chosen_and_checked() {
    let wd = Workdir::new();
    write(&wd.path("in.parquet"), &crawl(&urls(100)), 50);
    let (input, _, _) = read(&wd.path("in.parquet"));
    let mut sizes = Vec::new();
    for codec in [
        "zstd", "zstd:19", "snappy", "gzip:9", "lz4", "brotli", "none",
    ] {
        wd.stdout(&[
            "normalize",
            "-q",
            "--keep-invalid",
            "--compression",
            codec,
            "-o",
            "c.parquet",
            "in.parquet",
        ]);
        let (out, _, _) = read(&wd.path("c.parquet"));
        assert_eq!(out.num_rows(), input.num_rows(), "{codec}");
        sizes.push(wd.read("c.parquet").len());
    }
    assert!(sizes[6] > sizes[0], "uncompressed is larger: {sizes:?}");
    for (args, message) in [
        (
            &["normalize", "--compression", "zip", "in.parquet"][..],
            "not a Parquet compression",
        ),
        (
            &["normalize", "--compression", "zstd", "urls.txt"][..],
            "--compression is for Parquet output",
        ),
    ] {
        wd.create("urls.txt", "https://a.example/\n");
        let out = wd.run(args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn an_input_without_rows_gives_a_file_of_its_schema() {
    let wd = Workdir::new();
    let input = crawl(&[]);
    write(&wd.path("empty.parquet"), &input, 10);
    for command in ["normalize", "dedup"] {
        wd.stdout(&[command, "-o", "out.parquet", "empty.parquet"]);
        let (out, _, kv) = read(&wd.path("out.parquet"));
        assert_eq!(out.num_rows(), 0);
        assert_eq!(out.schema().fields(), input.schema().fields());
        assert_eq!(kv.len(), 1, "{command}");
    }
}

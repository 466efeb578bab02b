//! CSV and TSV records end to end: quoting, headers, ragged rows, line
//! ends, and the same rows at any thread count and chunk size; every other
//! byte of a row comes back untouched.

use crate::workdir::*;

fn ok(wd: &Workdir, args: &[&str]) -> String {
    wd.stdout(args)
}

#[test]
fn csv_normalize_rewrites_only_the_url_field() {
    let wd = Workdir::new();
    // BOM, CRLF, a quoted field with a comma and doubled quotes, a quoted
    // newline in another column, a URL that needs quoting, a quoted URL
    // that stays quoted, an empty URL, a ragged long row.
    let input = "\u{feff}id,URL,title\r\n\
                 1,HTTP://Example.COM/a,\"Hello, \"\"world\"\"\"\r\n\
                 2,https://x.org/p?a=1,\"two\nlines\"\r\n\
                 3,\"HTTPS://Q.ORG/\",q\r\n\
                 4,,empty\r\n\
                 5,https://y.org/ok,a,b,c\r\n\
                 6,HTTP://z.org/?x=1,2\r\n";
    wd.create("in.csv", input);
    let out = ok(&wd, &["normalize", "in.csv"]);
    assert_eq!(
        out,
        "\u{feff}id,URL,title\r\n\
         1,http://example.com/a,\"Hello, \"\"world\"\"\"\r\n\
         2,https://x.org/p?a=1,\"two\nlines\"\r\n\
         3,\"https://q.org/\",q\r\n\
         5,https://y.org/ok,a,b,c\r\n\
         6,http://z.org/?x=1,2\r\n"
    );
    // The same with the URL named by number, and by exact name.
    assert_eq!(ok(&wd, &["normalize", "--field", "2", "in.csv"]), out);
    assert_eq!(ok(&wd, &["normalize", "--field", "URL", "in.csv"]), out);
}

#[test]
fn csv_url_that_needs_quotes_gets_them() {
    let wd = Workdir::new();
    wd.create(
        "in.csv",
        "url\n\"https://a.org/p?x=1,2\"\nhttps://b.org/\"q\n",
    );
    assert_eq!(
        ok(&wd, &["normalize", "in.csv"]),
        "url\n\"https://a.org/p?x=1,2\"\nhttps://b.org/%22q\n"
    );
    // An opaque path keeps quotes and commas: the changed value is
    // quoted again, its quotes doubled.
    wd.create("odd.csv", "url\n\"MAILTO:\"\"a,b\"\"@x.org\"\n");
    assert_eq!(
        ok(&wd, &["normalize", "odd.csv"]),
        "url\n\"mailto:\"\"a,b\"\"@x.org\"\n"
    );
}

#[test]
fn csv_quote_left_open_is_reported_where_it_opened_and_reading_resumes() {
    let wd = Workdir::new();
    wd.create(
        "in.csv",
        "url,title\nhttp://a.org/,\"open\nhttp://b.org/,x\nhttp://c.org/,\"ok\"\n",
    );
    let out = wd.run(&["normalize", "--rejects", "rej.tsv", "in.csv"], None);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "url,title\nhttp://b.org/,x\nhttp://c.org/,\"ok\"\n"
    );
    assert_eq!(
        String::from_utf8(wd.read("rej.tsv")).unwrap(),
        "in.csv\t2\t10\tquote not closed where its field ends\thttp://a.org/,\"open\n"
    );
    assert!(stderr(&out).contains("1 bad-CSV-quote"), "{}", stderr(&out));
    // A quote that never closes, at the end of the file.
    wd.create("end.csv", "url\nhttp://a.org/\nhttp://b.org/,\"never\n");
    let out = wd.run(&["normalize", "end.csv"], None);
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "url\nhttp://a.org/\n"
    );
    assert!(stderr(&out).contains("1 bad-CSV-quote"));
}

#[test]
fn csv_ragged_short_row_is_a_missing_field() {
    let wd = Workdir::new();
    wd.create("in.csv", "id,url\n1\n2,http://a.org/\n");
    let out = wd.run(&["normalize", "--keep-invalid", "in.csv"], None);
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "id,url\n1\n2,http://a.org/\n"
    );
    assert!(stderr(&out).contains("1 missing-field; passed through"));
}

#[test]
fn csv_without_default_column_is_a_usage_error_listing_columns() {
    let wd = Workdir::new();
    wd.create("in.csv", "id,link\n1,http://a.org/\n");
    let out = wd.run(&["normalize", "in.csv"], None);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("in.csv"), "{err}");
    assert!(err.contains("\"id\", \"link\""), "{err}");
    assert!(err.contains("--field"), "{err}");
    assert_eq!(
        ok(&wd, &["normalize", "--field", "link", "in.csv"]),
        "id,link\n1,http://a.org/\n"
    );
}

#[test]
fn csv_no_header_takes_columns_by_number() {
    let wd = Workdir::new();
    wd.create("in.csv", "1,HTTP://A.org\n2,http://b.org/x/../y\n");
    assert_eq!(
        ok(&wd, &["normalize", "--no-header", "--field", "2", "in.csv"]),
        "1,http://a.org/\n2,http://b.org/y\n"
    );
    wd.create("first.csv", "HTTP://A.org,1\n");
    assert_eq!(
        ok(&wd, &["normalize", "--no-header", "first.csv"]),
        "http://a.org/,1\n"
    );
    let out = wd.run(
        &["normalize", "--no-header", "--field", "url", "in.csv"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn csv_inputs_share_one_header() {
    let wd = Workdir::new();
    wd.create("a.csv", "url,n\nhttp://a.org/,1\n");
    wd.create("b.csv", "url,n\nhttp://b.org/,2\n");
    wd.create("c.csv", "n,url\n3,http://c.org/\n");
    assert_eq!(
        ok(&wd, &["normalize", "a.csv", "b.csv"]),
        "url,n\nhttp://a.org/,1\nhttp://b.org/,2\n"
    );
    let out = wd.run(&["normalize", "a.csv", "c.csv"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("c.csv"), "{}", stderr(&out));
    // Reading only (extract) is fine with different headers.
    assert_eq!(
        ok(&wd, &["extract", "--fields", "hostname", "a.csv", "c.csv"]),
        "hostname\na.org\nc.org\n"
    );
}

/// Read side by side (`-j4`), CSV inputs keep one header as they do read
/// in order: the first input that has one writes it (an empty input
/// before it has none), the rest repeat it, and one that differs stops
/// the run there.
#[test]
fn csv_inputs_read_side_by_side_share_one_header() {
    let wd = Workdir::new();
    wd.create("e.csv", "");
    wd.create("a.csv", "url,n\nhttp://a.org/,1\n");
    wd.create("b.csv", "url,n\nhttp://b.org/,2\n");
    wd.create("c.csv", "n,url\n3,http://c.org/\n");
    for j in ["-j1", "-j4"] {
        assert_eq!(
            ok(&wd, &["normalize", j, "e.csv", "a.csv", "b.csv", "a.csv"]),
            "url,n\nhttp://a.org/,1\nhttp://b.org/,2\nhttp://a.org/,1\n",
            "{j}"
        );
        let out = wd.run(&["normalize", j, "a.csv", "b.csv", "c.csv", "a.csv"], None);
        assert_eq!(out.status.code(), Some(2), "{j}");
        assert!(stderr(&out).contains("c.csv"), "{j}: {}", stderr(&out));
    }
}

#[test]
fn csv_header_only_and_empty_files() {
    let wd = Workdir::new();
    wd.create("h.csv", "url,n\r\n");
    assert_eq!(ok(&wd, &["normalize", "h.csv"]), "url,n\r\n");
    wd.create("e.csv", "");
    assert_eq!(ok(&wd, &["normalize", "e.csv"]), "");
}

#[test]
fn tsv_is_tab_separated_and_quoted_like_csv() {
    let wd = Workdir::new();
    wd.create("in.tsv", "url\tnote\nHTTP://A.org\t\"x\ty\"\n");
    assert_eq!(
        ok(&wd, &["normalize", "in.tsv"]),
        "url\tnote\nhttp://a.org/\t\"x\ty\"\n"
    );
}

#[test]
fn csv_is_read_the_same_for_any_thread_count_and_chunk_size() {
    let wd = Workdir::new();
    let mut input = String::from("id,url,note\n");
    for i in 0..3000 {
        let note = match i % 5 {
            0 => "\"multi\nline, \"\"quoted\"\"\"".to_string(),
            1 => "\"open".to_string(),
            _ => format!("n{i}"),
        };
        input.push_str(&format!(
            "{i},HTTP://Host{}.Example/p/../{i},{note}\n",
            i % 7
        ));
    }
    wd.create("in.csv", &input);
    normalized_alike(&wd, "in.csv", &[("2", "1"), ("3", "100"), ("4", "7K")]);
}

/// `normalize --keep-invalid` of `name` at `-j1`, checked to be the same
/// with each of `splits` (`-j`, `--chunk-size`).
fn normalized_alike(wd: &Workdir, name: &str, splits: &[(&str, &str)]) -> String {
    let want = ok(wd, &["normalize", "-q", "--keep-invalid", "-j1", name]);
    for (j, chunk) in splits {
        let got = ok(
            wd,
            &[
                "normalize",
                "-q",
                "--keep-invalid",
                "-j",
                j,
                "--chunk-size",
                chunk,
                name,
            ],
        );
        assert!(got == want, "{name}: -j{j} --chunk-size {chunk} differs");
    }
    want
}

/// Every field quoted, as many exports write them (CRLF, quoted line
/// breaks, doubled quotes, the URL quoted too), where chunks are cut by
/// quote parity and the URL field found by a walk of the quoted fields;
/// then the same with a few quotes out of place (inside an unquoted field,
/// text after a closing quote, a quote never closed), where the reader
/// falls back to walking rows. Any thread count and chunk size reads the
/// same rows, and the fields the URL is not in come back unchanged.
#[test]
fn quoted_csv_is_read_the_same_for_any_thread_count_and_chunk_size() {
    let wd = Workdir::new();
    let mut clean = String::from("\"id\",\"url\",\"note\"\r\n");
    for i in 0..4000 {
        let note = match i % 4 {
            0 => format!("\"two\r\nlines, {i}\""),
            1 => format!("\"say \"\"{i}\"\"\""),
            2 => "\"\"".to_string(),
            _ => format!("\"n,{i}\""),
        };
        let url = if i % 3 == 0 {
            format!("\"HTTP://Host{}.Example/a b/../{i}?q=\"\"x\"\"\"", i % 7)
        } else {
            format!("\"https://h{}.example/{i}\"", i % 11)
        };
        clean.push_str(&format!("\"{i}\",{url},{note}\r\n"));
    }
    let mut odd = clean.clone();
    for (at, bad) in [
        (1000, "9,ab\"c,d\r\n"),
        (2500, "\"9\"x,y,z\r\n"),
        (3900, "9,\"never"),
    ] {
        let pos = odd.match_indices("\r\n\"").nth(at).unwrap().0 + 2;
        odd.insert_str(pos, bad);
    }
    for (name, input) in [("clean.csv", &clean), ("odd.csv", &odd)] {
        wd.create(name, input);
        let splits = [("2", "300"), ("1", "7K"), ("2", "64K"), ("2", "1")];
        let want = normalized_alike(&wd, name, &splits);
        // Only the URL field changed: the other two read back as written.
        let fields = |text: &str| -> Vec<(String, String)> {
            csv::ReaderBuilder::new()
                .flexible(true)
                .from_reader(text.as_bytes())
                .records()
                .filter_map(Result::ok)
                .map(|r| (r[0].to_string(), r.get(2).unwrap_or("").to_string()))
                .collect()
        };
        if name == "clean.csv" {
            assert_eq!(fields(&want), fields(input));
            assert!(
                want.contains("\"http://host3.example/3?q=%22x%22\""),
                "{want:.300}"
            );
        }
    }
}

/// A CSV's rows may end in LF, CRLF or a lone CR (old Mac files): each is
/// a line end, so a bad row's line number is its line in the file, the
/// same at any chunk size (a chunk ending in a lone CR once moved every
/// later line number on by one).
#[test]
fn csv_line_numbers_count_every_kind_of_line_end_at_any_chunk_size() {
    let wd = Workdir::new();
    for end in ["\n", "\r\n", "\r"] {
        let mut rows = vec!["id,url".to_string()];
        rows.extend((0..300).map(|i| format!("{i},http://h{i}.example/")));
        // A quote left open: line 153 once the quoted line break below
        // adds a line (the header is line 1).
        rows[151] = "150,\"bad\"x".to_string();
        // A quoted line break before it: two lines, one row (a URL whose
        // line break the parser drops).
        rows[40] = "39,\"http://q.example/".to_string();
        rows.insert(41, "x\",y".to_string());
        let input = rows.join(end) + end;
        wd.create("in.csv", &input);
        for chunk in ["1", "100", "1K", "4M"] {
            for j in ["1", "2"] {
                let out = wd.run(
                    &[
                        "normalize",
                        "-q",
                        "-j",
                        j,
                        "--chunk-size",
                        chunk,
                        "--rejects",
                        "rej.tsv",
                        "in.csv",
                    ],
                    None,
                );
                assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
                let rejects = String::from_utf8(wd.read("rej.tsv")).unwrap();
                let lines: Vec<&str> = rejects
                    .lines()
                    .map(|l| l.split('\t').nth(1).unwrap())
                    .collect();
                assert_eq!(
                    lines,
                    ["153"],
                    "{end:?} --chunk-size {chunk} -j{j}: {rejects}"
                );
            }
        }
    }
}

#[test]
fn delimiter_reads_semicolon_and_pipe_exports_and_writes_them_back() {
    let wd = Workdir::new();
    wd.create(
        "in.csv",
        "id;url;title\n1;HTTP://A.example/x;\"a; b\"\n2;https://b.example/;c\n",
    );
    // Without --delimiter the header is one column, and the error says
    // which delimiter would split it.
    let out = wd.run(&["normalize", "in.csv"], None);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("in.csv") && err.contains("--delimiter ';'"),
        "{err}"
    );
    assert_eq!(
        ok(&wd, &["normalize", "--delimiter", ";", "in.csv"]),
        "id;url;title\n1;http://a.example/x;\"a; b\"\n2;https://b.example/;c\n"
    );
    assert_eq!(
        ok(
            &wd,
            &[
                "extract",
                "--delimiter",
                ";",
                "--fields",
                "hostname,@title",
                "in.csv"
            ]
        ),
        "hostname,title\na.example,a; b\nb.example,c\n"
    );
    // A pipe export over many chunks: the same rows at any chunk size.
    let rows: String = (0..3000)
        .map(|i| format!("{i}|\"HTTP://H{}.example/|{i}\"|x\n", i % 7))
        .collect();
    wd.create("pipe.csv", format!("n|url|z\n{rows}"));
    let whole = ok(&wd, &["normalize", "--delimiter", "|", "pipe.csv"]);
    assert!(
        whole.starts_with("n|url|z\n0|\"http://h0.example/|0\"|x\n"),
        "{whole}"
    );
    assert_eq!(whole.lines().count(), 3001);
    let chunked = ok(
        &wd,
        &[
            "normalize",
            "--delimiter",
            "|",
            "--chunk-size",
            "1K",
            "-j",
            "2",
            "pipe.csv",
        ],
    );
    assert_eq!(chunked, whole);
    // A tab named either way; TSV read with `,` as its delimiter.
    wd.create("tabs.csv", "url\tn\nHTTP://T.example/\t1\n");
    for tab in ["\\t", "tab"] {
        assert_eq!(
            ok(&wd, &["normalize", "--delimiter", tab, "tabs.csv"]),
            "url\tn\nhttp://t.example/\t1\n"
        );
    }
}

#[test]
fn delimiter_is_refused_where_it_means_nothing() {
    let wd = Workdir::new();
    wd.create("in.txt", "https://a.example/\n");
    let out = wd.run(&["normalize", "--delimiter", ";", "in.txt"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--delimiter is for CSV and TSV input"),
        "{}",
        stderr(&out)
    );
    for bad in ["ab", "\"", "x", "7", ""] {
        let out = wd.run(&["normalize", "--delimiter", bad, "in.txt"], None);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(stderr(&out).contains("--delimiter"), "{}", stderr(&out));
    }
}

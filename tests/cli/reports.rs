//! `extract`, `check`, `stats`, policy flags on other subcommands, help, completions and the man page.

use crate::workdir::*;

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

/// `names` joined in the order the library reports them for `input`.
fn spec_order(names: &[&str], input: &str) -> String {
    let mut errors = Vec::new();
    let _ = urlsift::Url::parse_with_reporter(input, None, &mut errors);
    let mut reported: Vec<&str> = Vec::new();
    for e in &errors {
        if !reported.contains(&e.name()) {
            reported.push(e.name());
        }
    }
    let mut sorted = reported.clone();
    sorted.sort_unstable();
    let mut expected = names.to_vec();
    expected.sort_unstable();
    assert_eq!(sorted, expected, "library reports other errors for {input}");
    reported.join(", ")
}

#[test]
fn check_reports_spec_error_names() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        b"https://fine.com/\nhttp://0x7f.0.0.1/\nhttps://user:pw@ex.com/\nhttp://[::1\n\xff\nhttp://0x7f.1/\n",
    );
    assert_eq!(
        wd.stdout(&["check", "in.txt"]),
        format!(
            "in.txt:2: valid with errors: IPv4-non-decimal-part: http://0x7f.0.0.1/\n\
         in.txt:3: valid with errors: invalid-credentials: https://user:pw@ex.com/\n\
         in.txt:4: invalid: IPv6-unclosed: http://[::1\n\
         in.txt:5: invalid: invalid-UTF-8: \"\u{fffd}\"\n\
         in.txt:6: valid with errors: {}: http://0x7f.1/\n",
            // Several errors are listed in the order the parser reports them.
            spec_order(
                &["IPv4-too-few-parts", "IPv4-non-decimal-part"],
                "http://0x7f.1/"
            )
        )
    );
    let json = wd.stdout(&["check", "--json", "in.txt"]);
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(first["line"], 2);
    assert_eq!(first["valid"], true);
    assert_eq!(first["errors"][0], "IPv4-non-decimal-part");
    assert_eq!(json.lines().count(), 5);
}

/// URLs already in normal form that still carry a validation error are
/// reported, though `check` leaves the lines the fast path proves clean to
/// it (`Line::is_clean`): a host that strict IDNA rejects, a second `#`, a
/// `^` in the query, a bad escape; the clean ones around them are not.
#[test]
fn check_reports_errors_of_normal_urls() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        "https://example.com/a?b=c#d\nhttps://a_b.example.com/\nhttps://ab--c.example/\n\
         https://example.com/a#b#c\nhttps://example.com/?a^b\nhttps://example.com/%4\n\
         http://1.2.3.4:8080/x\n",
    );
    assert_eq!(
        wd.stdout(&["check", "in.txt"]),
        "in.txt:2: valid with errors: domain-to-ASCII: https://a_b.example.com/\n\
         in.txt:3: valid with errors: domain-to-ASCII: https://ab--c.example/\n\
         in.txt:4: valid with errors: invalid-URL-unit: https://example.com/a#b#c\n\
         in.txt:5: valid with errors: invalid-URL-unit: https://example.com/?a^b\n\
         in.txt:6: valid with errors: invalid-URL-unit: https://example.com/%4\n"
    );
}

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
    // The three http(s) lines take the fast path; mailto: needs the machine.
    assert_eq!(v["fast_path"], 3);
    assert_eq!(v["fast_path_share"], 0.75);
    let table = wd.stdout(&["stats", "in.txt"]);
    assert!(table.contains("already normal (href == line)"), "{table}");
    assert!(table.contains("decided by the fast path"), "{table}");
}

/// Hosts, sites and public suffixes counted in one partition (one thread)
/// or sixteen (more), merged in parallel: the same tables, to
/// the last of them, as an independent count of the sample's hosts.
#[test]
fn stats_tables_are_the_same_at_every_thread_count() {
    let wd = Workdir::new();
    let strip = |json: String| {
        let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
        for k in ["seconds", "bytes_per_second", "lines_per_second"] {
            v.as_object_mut().unwrap().remove(k);
        }
        v
    };
    let path = sample_str();
    let run = |j: &str| {
        strip(wd.stdout(&[
            "stats",
            "--json",
            "--top",
            "100000",
            "-j",
            j,
            "--chunk-size",
            "4K",
            &path,
        ]))
    };
    let one = run("1");
    for j in ["2", "4", "8"] {
        assert_eq!(run(j), one, "-j {j}");
    }
    // The hosts, counted here from the hrefs.
    let mut hosts = std::collections::BTreeMap::<String, u64>::new();
    for line in std::fs::read_to_string(sample()).unwrap().lines() {
        if let Ok(u) = urlsift::Url::parse(line)
            && !u.hostname().is_empty()
        {
            *hosts.entry(u.hostname().to_string()).or_default() += 1;
        }
    }
    let listed: std::collections::BTreeMap<String, u64> = one["top_hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["name"].as_str().unwrap().to_string(),
                h["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(listed.len(), hosts.len());
    assert!(
        listed == hosts,
        "the hosts listed differ from those counted here"
    );
    let sites: u64 = one["top_sites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["count"].as_u64().unwrap())
        .sum();
    assert!(sites > 0 && sites <= one["valid"].as_u64().unwrap());
}

/// A line over `--max-line-bytes` comes in pieces; its bytes count once,
/// whatever the chunk size (they counted twice when pieces were chunks).
#[test]
fn stats_counts_an_over_long_lines_bytes_once() {
    let wd = Workdir::new();
    let text = format!(
        "https://e.com/a\nhttps://e.com/{}\nhttps://e.com/b\n",
        "x".repeat(5000)
    );
    wd.create("in.txt", &text);
    for chunk in ["4M", "1K", "100"] {
        let json = wd.stdout(&[
            "stats",
            "--json",
            "--max-line-bytes",
            "1K",
            "--chunk-size",
            chunk,
            "in.txt",
        ]);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["bytes"], text.len(), "--chunk-size {chunk}");
        assert_eq!(v["lines"], 3, "--chunk-size {chunk}");
        assert_eq!(v["invalid"], 1, "--chunk-size {chunk}");
    }
}

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

#[test]
fn policy_flags_work_for_dedup_and_extract_too() {
    let wd = Workdir::new();
    wd.create("in.txt", "https://a.com/\nnope\nhttps://a.com/\n");
    let out = wd.run(&["dedup", "--strict", "in.txt"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("in.txt:2:"), "{}", stderr(&out));
    wd.stdout(&[
        "extract",
        "-q",
        "--rejects",
        "rej.tsv",
        "-o",
        "x.csv",
        "in.txt",
    ]);
    assert_eq!(
        String::from_utf8(wd.read("rej.tsv")).unwrap(),
        "in.txt\t2\t15\tinvalid URL (missing-scheme-non-relative-URL)\tnope\n"
    );
    assert_eq!(wd.read("x.csv").iter().filter(|&&b| b == b'\n').count(), 3);
    let out = wd.run(
        &["normalize", "-o", "same", "--rejects", "same", "in.txt"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    wd.stdout(&["check", "-o", "report.txt", "in.txt"]);
    assert_eq!(
        String::from_utf8(wd.read("report.txt")).unwrap(),
        "in.txt:2: invalid: missing-scheme-non-relative-URL: nope\n"
    );
    wd.stdout(&["stats", "--json", "-o", "stats.json", "in.txt"]);
    let v: serde_json::Value = serde_json::from_slice(&wd.read("stats.json")).unwrap();
    assert_eq!(v["valid"], 2);
}

/// `--timings`: one line on stderr per run naming every stage, the same
/// figures as `timings` in `stats --json`, consistent with each other (no
/// stage busier than the wall time allows, the serial share the in-order
/// time, less its part shared with helper threads, over the wall time);
/// the output itself is unchanged.
#[test]
fn timings_say_where_the_time_went() {
    let wd = Workdir::new();
    let s = sample_str();
    for sub in ["normalize", "dedup", "extract", "check"] {
        let plain = wd.run(&[sub, "-q", &s], None);
        let out = wd.run(&[sub, "-q", "--timings", "-j", "2", &s], None);
        assert_eq!(out.stdout, plain.stdout, "{sub}: output unchanged");
        let err = stderr(&out);
        let line = err
            .lines()
            .find(|l| l.starts_with("urlsift: timings: wall "))
            .unwrap_or_else(|| panic!("{sub}: {err}"));
        for part in [
            "2 workers: read ",
            "work ",
            "waiting for the in-order stage",
            "decoding threads ",
            "in order ",
            "idle ",
        ] {
            assert!(line.contains(part), "{sub}: {line}");
        }
    }
    let out = wd.run(&["stats", "--json", "--timings", "-j", "2", &s], None);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let t = &v["timings"];
    let secs = |k: &str| t[k].as_f64().unwrap_or_else(|| panic!("{k} in {t}"));
    let wall = secs("wall_s");
    assert!(wall > 0.0, "{t}");
    assert_eq!(t["threads"], 2);
    for k in [
        "read_s",
        "read_wait_s",
        "decode_s",
        "workers_waited_s",
        "in_order_s",
        "in_order_shared_s",
        "in_order_idle_s",
    ] {
        assert!(secs(k) >= 0.0 && secs(k) <= wall * 1.01, "{k}: {t}");
    }
    assert!(secs("work_s") <= wall * 2.0 * 1.01, "{t}");
    let share = secs("serial_share");
    let serial = secs("in_order_s") - secs("in_order_shared_s");
    assert!((share - serial / wall).abs() < 1e-3, "{t}");
    // dedup --count with more than two workers looks its keys up on
    // helper threads (the seen-set's partitions): their time is not
    // serial. (Plain dedup looks them up on the workers.)
    let out = wd.run(
        &["dedup", "-q", "--count", "--timings", "-j", "4", &s],
        None,
    );
    let err = stderr(&out);
    assert!(err.contains(" of it with helper threads ("), "{err}");
    // Without --timings there is no such key.
    let out = wd.run(&["stats", "--json", &s], None);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v.get("timings").is_none());
    // A gzip input's decoding thread is timed.
    wd.create("in.txt.gz", gzip(&std::fs::read(sample()).unwrap()));
    let out = wd.run(&["stats", "--json", "--timings", "in.txt.gz"], None);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["timings"]["decode_s"].as_f64().unwrap() > 0.0,
        "{}",
        v["timings"]
    );
}

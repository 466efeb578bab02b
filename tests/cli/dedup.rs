//! `dedup`: keys, counts, and spilling against an independent reference.

use crate::workdir::*;

/// First occurrences of normalized lines, computed independently.
fn reference_dedup(normalized: &str) -> (String, String) {
    let mut seen: std::collections::HashMap<&str, usize> = Default::default();
    let mut order: Vec<(&str, u64)> = Vec::new();
    for line in normalized.lines() {
        match seen.get(line) {
            Some(&i) => order[i].1 += 1,
            None => {
                seen.insert(line, order.len());
                order.push((line, 1));
            }
        }
    }
    let plain: String = order.iter().map(|(l, _)| format!("{l}\n")).collect();
    let counted: String = order.iter().map(|(l, n)| format!("{n:>7} {l}\n")).collect();
    (plain, counted)
}

#[test]
fn dedup_matches_a_reference_in_memory_and_when_spilling() {
    let wd = Workdir::new();
    let s = sample_str();
    let normalized = wd.stdout(&["normalize", "-q", &s]);
    let (plain, counted) = reference_dedup(&normalized);
    assert!(
        plain.lines().count() < normalized.lines().count(),
        "sample has duplicates"
    );
    // With -j4 the seen-set is four partitions looked up at once.
    for (memory, threads) in [
        ("1G", "1"),
        ("64K", "1"),
        ("1K", "1"),
        ("1", "1"),
        ("1G", "4"),
        ("1K", "4"),
    ] {
        let tmp = wd.path("spill");
        std::fs::create_dir_all(&tmp).unwrap();
        let tmp = tmp.to_str().unwrap().to_string();
        let base = [
            "-q",
            "-j",
            threads,
            "--memory",
            memory,
            "--tmp-dir",
            &tmp,
            "--chunk-size",
            "8K",
        ];
        let mut args = vec!["dedup"];
        args.extend_from_slice(&base);
        args.push(&s);
        assert_eq!(
            wd.stdout(&args),
            plain,
            "dedup -j{threads} --memory {memory}"
        );
        let mut args = vec!["dedup", "--count"];
        args.extend_from_slice(&base);
        args.push(&s);
        assert_eq!(
            wd.stdout(&args),
            counted,
            "dedup --count -j{threads} --memory {memory}"
        );
        assert_eq!(
            std::fs::read_dir(wd.path("spill")).unwrap().count(),
            0,
            "spill files removed"
        );
    }
}

#[test]
fn dedup_keys_agree_between_memory_and_spill() {
    let wd = Workdir::new();
    let s = sample_str();
    for key in ["no-fragment", "origin", "host", "pattern"] {
        let mem = wd.stdout(&["dedup", "-q", "--count", "--key", key, &s]);
        let spill = wd.stdout(&["dedup", "-q", "--count", "--key", key, "--memory", "2K", &s]);
        assert_eq!(mem, spill, "key {key}");
        let total: u64 = mem
            .lines()
            .map(|l| l.split_whitespace().next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, 10946, "counts add up to the valid lines (key {key})");
    }
}

#[test]
fn dedup_keys() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        "https://a.com/x#1\nhttps://A.com/x#1\nhttps://a.com/x#2\nhttps://a.com:8443/y\n\
         https://b.com/u/123?z=1&a=2\nhttps://b.com/u/456?a=9&z=0\nhttp://b.com/other\nbad\nbad\n",
    );
    let run = |key: &str| {
        wd.stdout(&[
            "dedup",
            "-q",
            "--count",
            "--key",
            key,
            "--keep-invalid",
            "in.txt",
        ])
    };
    assert_eq!(
        run("href"),
        "      2 https://a.com/x#1\n      1 https://a.com/x#2\n      1 https://a.com:8443/y\n      1 https://b.com/u/123?z=1&a=2\n      1 https://b.com/u/456?a=9&z=0\n      1 http://b.com/other\n      2 bad\n"
    );
    assert_eq!(
        run("no-fragment"),
        "      3 https://a.com/x#1\n      1 https://a.com:8443/y\n      1 https://b.com/u/123?z=1&a=2\n      1 https://b.com/u/456?a=9&z=0\n      1 http://b.com/other\n      2 bad\n"
    );
    assert_eq!(
        run("origin"),
        "      3 https://a.com/x#1\n      1 https://a.com:8443/y\n      2 https://b.com/u/123?z=1&a=2\n      1 http://b.com/other\n      2 bad\n"
    );
    assert_eq!(
        run("host"),
        "      3 https://a.com/x#1\n      1 https://a.com:8443/y\n      3 https://b.com/u/123?z=1&a=2\n      2 bad\n"
    );
    assert_eq!(
        run("pattern"),
        "      3 https://a.com/x#1\n      1 https://a.com:8443/y\n      2 https://b.com/u/123?z=1&a=2\n      1 http://b.com/other\n      2 bad\n"
    );
}

/// The first `n` lines of each key in input order, each with its key's
/// number of lines, computed independently (`key` maps a line to its key).
fn reference_samples(lines: &str, n: usize, key: impl Fn(&str) -> String) -> (String, String) {
    let mut counts: std::collections::HashMap<String, (usize, u64)> = Default::default();
    for line in lines.lines() {
        counts.entry(key(line)).or_default().1 += 1;
    }
    let (mut plain, mut counted) = (String::new(), String::new());
    for line in lines.lines() {
        let entry = counts.get_mut(&key(line)).unwrap();
        if entry.0 < n {
            entry.0 += 1;
            plain.push_str(&format!("{line}\n"));
            counted.push_str(&format!("{:>7} {line}\n", entry.1));
        }
    }
    (plain, counted)
}

/// `--samples N` keeps the first N records of each key where they are in
/// the input, with `--count` the key's count on each, in memory and
/// spilled alike; the keys here are the href (the normalized sample) and
/// the host (a key other than the line).
#[test]
fn samples_keep_the_first_records_of_each_key_in_memory_and_spilled() {
    let wd = Workdir::new();
    let s = sample_str();
    let normalized = wd.stdout(&["normalize", "-q", &s]);
    wd.create("valid.txt", &normalized);
    // The host key of each line, as `extract` reads it.
    let hosts = wd.stdout(&[
        "extract",
        "-q",
        "--fields",
        "href,host",
        "--tsv",
        "--no-header",
        "valid.txt",
    ]);
    let host_of: std::collections::HashMap<String, String> = hosts
        .lines()
        .map(|l| {
            let (href, host) = l.split_once('\t').unwrap();
            let host = if host.is_empty() { href } else { host };
            (href.to_string(), host.to_string())
        })
        .collect();
    for n in [2usize, 3] {
        let by_href = reference_samples(&normalized, n, str::to_string);
        let by_host = reference_samples(&normalized, n, |l| host_of[l].clone());
        assert!(by_host.0.lines().count() < by_href.0.lines().count());
        for (key, (plain, counted)) in [("href", &by_href), ("host", &by_host)] {
            for (memory, threads) in [("1G", "1"), ("4K", "1"), ("1", "1"), ("1G", "3")] {
                let samples = n.to_string();
                let mut args = vec!["dedup", "-q", "-j", threads, "--key", key];
                args.extend(["--samples", &samples]);
                args.extend(["--memory", memory, "--chunk-size", "8K", "valid.txt"]);
                assert_eq!(
                    &wd.stdout(&args),
                    plain,
                    "--key {key} --samples {n} --memory {memory} -j{threads}"
                );
                args.push("--count");
                assert_eq!(
                    &wd.stdout(&args),
                    counted,
                    "--count --key {key} --samples {n} --memory {memory} -j{threads}"
                );
            }
        }
    }
    assert_eq!(wd.files(), vec!["valid.txt"], "spill directories removed");
    // One sample is plain dedup; the summary says what was kept.
    let one = wd.stdout(&["dedup", "-q", "--samples", "1", "valid.txt"]);
    assert_eq!(one, reference_dedup(&normalized).0);
    let out = wd.run(&["dedup", "-v", "--samples", "2", "valid.txt"], None);
    let err = stderr(&out);
    assert!(err.contains("kept (up to 2 per key)"), "{err}");
    let refused = wd.run(&["dedup", "--samples", "0", "valid.txt"], None);
    assert_eq!(refused.status.code(), Some(2));
}

/// The `--pattern-*` flags: the scheme apart, a trailing slash ignored,
/// the path as written; each only with `--key pattern`.
#[test]
fn pattern_options() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        "http://e.com/a/1\nhttps://e.com/a/2\nhttps://e.com/a/3/\nhttps://e.com/a/3\n\
         https://e.com/b?x=1\nhttps://e.com/b?x=2&y\nhttps://e.com/b?y=0&x\nhttp://e.com/a/9\n",
    );
    let run = |flags: &[&str]| {
        let mut args = vec!["dedup", "-q", "--count", "--key", "pattern"];
        args.extend_from_slice(flags);
        args.push("in.txt");
        wd.stdout(&args)
    };
    assert_eq!(
        run(&[]),
        "      4 http://e.com/a/1\n      1 https://e.com/a/3/\n      1 https://e.com/b?x=1\n      2 https://e.com/b?x=2&y\n"
    );
    assert_eq!(
        run(&["--pattern-scheme"]),
        "      2 http://e.com/a/1\n      2 https://e.com/a/2\n      1 https://e.com/a/3/\n      1 https://e.com/b?x=1\n      2 https://e.com/b?x=2&y\n"
    );
    assert_eq!(
        run(&["--pattern-ignore-trailing-slash"]),
        "      5 http://e.com/a/1\n      1 https://e.com/b?x=1\n      2 https://e.com/b?x=2&y\n"
    );
    assert_eq!(
        run(&["--pattern-exact-path", "--pattern-ignore-trailing-slash"]),
        "      1 http://e.com/a/1\n      1 https://e.com/a/2\n      2 https://e.com/a/3/\n      1 https://e.com/b?x=1\n      2 https://e.com/b?x=2&y\n      1 http://e.com/a/9\n"
    );
    assert_eq!(
        run(&["--samples", "2"]),
        "      4 http://e.com/a/1\n      4 https://e.com/a/2\n      1 https://e.com/a/3/\n      1 https://e.com/b?x=1\n      2 https://e.com/b?x=2&y\n      2 https://e.com/b?y=0&x\n"
    );
    let out = wd.run(
        &["dedup", "--key", "host", "--pattern-scheme", "in.txt"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("go with --key pattern"),
        "{}",
        stderr(&out)
    );
}

/// Enough records that spill partitions exceed the split threshold and are
/// partitioned again on the next hash bits.
#[test]
fn dedup_recursive_spill_keeps_first_occurrence_order() {
    let wd = Workdir::new();
    let mut input = String::new();
    for i in 0..150_000u64 {
        // Every third line repeats an earlier one.
        let n = if i % 3 == 2 { i * 7919 % (i + 1) } else { i };
        input.push_str(&format!("https://h{}.example/p/{n}\n", n % 97));
    }
    wd.create("in.txt", &input);
    let (plain, counted) = reference_dedup(&input);
    let spill = wd.stdout(&["dedup", "-q", "--memory", "1", "--tmp-dir", ".", "in.txt"]);
    assert!(spill == plain, "spilled dedup differs from the reference");
    let spill = wd.stdout(&["dedup", "-q", "--count", "--memory", "1", "in.txt"]);
    assert!(
        spill == counted,
        "spilled dedup --count differs from the reference"
    );
    assert_eq!(wd.files(), vec!["in.txt"], "spill directory removed");
}

/// `href` and `no-fragment` keys without edits read each URL as the fast
/// path proved it, and a line already in its output form is keyed and
/// written from the input, never copied on the way. The first occurrences
/// must still be those of the normalized lines (the reference), with
/// passed-through invalid lines in their places, for any `-j` and chunk
/// size, with profiles and filters, CRLF line ends, rewritten URLs, and
/// input from a pipe.
#[test]
fn href_keys_take_lines_from_the_input_and_keep_the_order() {
    let wd = Workdir::new();
    let sample = std::fs::read_to_string(sample()).unwrap();
    let mut block = String::new();
    for (i, line) in sample.lines().take(2500).enumerate() {
        // Some scheme capitals (the URL is rewritten, then written from the
        // output), fragments, CRLF ends and invalid lines among the rest.
        let line = match line.strip_prefix("https://") {
            Some(rest) if i % 6 == 0 => format!("HTTPS://{rest}"),
            _ => line.to_string(),
        };
        let line = if i % 4 == 0 {
            format!("{line}#f{}", i % 3)
        } else {
            line
        };
        block.push_str(&line);
        block.push_str(if i % 5 == 0 { "\r\n" } else { "\n" });
        if i % 9 == 0 {
            block.push_str(&format!("not a url {}\n", i % 20));
        }
    }
    // The block twice, the second time backwards: most lines repeat.
    let mut input = block.clone();
    for line in block.lines().rev() {
        input.push_str(line);
        input.push('\n');
    }
    wd.create("in.txt", &input);
    // An invalid line (passed through as it came) is its own key.
    let no_fragment = |line: &str| -> String {
        match urlsift::Url::parse(line) {
            Ok(_) => line.split('#').next().unwrap().to_string(),
            Err(_) => line.to_string(),
        }
    };
    let mut checked = 0;
    for flags in [
        &[][..],
        &["--strip-fragment"],
        &["--sort-query", "--strip-params", "utm_*"],
        &["--scheme", "https"],
        &["--key", "no-fragment"],
    ] {
        let mut normalize = vec!["normalize", "-q", "--keep-invalid"];
        normalize.extend(
            flags
                .iter()
                .filter(|f| !["--key", "no-fragment"].contains(f)),
        );
        normalize.push("in.txt");
        let normalized = wd.stdout(&normalize);
        let key = |line: &str| {
            if flags.contains(&"no-fragment") {
                no_fragment(line)
            } else {
                line.to_string()
            }
        };
        // (Empty lines are passed through by normalize, not by dedup.)
        let mut seen = std::collections::HashSet::new();
        let expected: String = normalized
            .lines()
            .filter(|l| !l.is_empty() && seen.insert(key(l)))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(expected.lines().count() < normalized.lines().count());
        // (-j4: a seen-set of four partitions looked up at once.)
        for threads in ["1", "2", "4"] {
            for chunk in ["1K", "64K"] {
                let mut args = vec!["dedup", "-q", "--keep-invalid", "-j", threads];
                args.extend_from_slice(&["--chunk-size", chunk]);
                args.extend_from_slice(flags);
                let mut file = args.clone();
                file.push("in.txt");
                assert_eq!(wd.stdout(&file), expected, "{file:?}");
                args.push("-");
                let piped = wd.run(&args, Some(input.as_bytes()));
                assert_eq!(
                    String::from_utf8(piped.stdout).unwrap(),
                    expected,
                    "{args:?}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 30);
}

/// A `--tmp-dir` that cannot take a spill directory is an error before
/// any output: spilling starts mid-run, when part of the output would be
/// out already.
#[test]
fn an_unusable_tmp_dir_fails_before_any_output() {
    let wd = Workdir::new();
    let urls: String = (0..20_000)
        .map(|i| format!("http://h{i}.example/\n"))
        .collect();
    wd.create("in.txt", &urls);
    wd.create("file", "not a directory\n");
    for dir in ["missing", "file"] {
        let out = wd.run(
            &["dedup", "--memory", "1M", "--tmp-dir", dir, "in.txt"],
            None,
        );
        assert_eq!(out.status.code(), Some(2), "{dir}");
        assert!(out.stdout.is_empty(), "{dir}: output before the error");
        assert!(
            stderr(&out).contains(&format!("--tmp-dir {dir}:")),
            "{}",
            stderr(&out)
        );
    }
    // A usable one spills there and leaves nothing behind.
    std::fs::create_dir(wd.path("spill")).unwrap();
    let out = wd.stdout(&["dedup", "--memory", "1M", "--tmp-dir", "spill", "in.txt"]);
    assert_eq!(out.lines().count(), 20_000);
    assert!(
        std::fs::read_dir(wd.path("spill"))
            .unwrap()
            .next()
            .is_none()
    );
}

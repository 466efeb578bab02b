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
    for memory in ["1G", "64K", "1K", "1"] {
        let tmp = wd.path("spill");
        std::fs::create_dir_all(&tmp).unwrap();
        let tmp = tmp.to_str().unwrap().to_string();
        let base = [
            "-q",
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
        assert_eq!(wd.stdout(&args), plain, "dedup --memory {memory}");
        let mut args = vec!["dedup", "--count"];
        args.extend_from_slice(&base);
        args.push(&s);
        assert_eq!(wd.stdout(&args), counted, "dedup --count --memory {memory}");
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

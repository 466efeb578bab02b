//! Several inputs in one run: whatever the number of threads, the
//! output, the rejects, the error messages and the exit status are those
//! of `-j1`, damaged and cut inputs among them; and `normalize` of
//! several inputs gives each input's own output in turn.

use crate::common;
use crate::workdir::*;
use std::path::{Path, PathBuf};

/// What a run gives: stdout, the rejects file, stderr and the exit status.
type Outcome = (Vec<u8>, Vec<u8>, String, Option<i32>);

fn outcome(wd: &Workdir, args: &[&str], j: &str) -> Outcome {
    let rejects = wd.path(&format!("rejects-{j}.txt"));
    let rejects_arg = rejects.to_str().unwrap().to_string();
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["-q", j]);
    // (`stats` writes no rejects.)
    if args[0] != "stats" {
        all.extend(["--rejects", &rejects_arg]);
    }
    let out = wd.run(&all, None);
    let rejected = std::fs::read(&rejects).unwrap_or_default();
    let err = stderr(&out);
    // (The summary's throughput is a timing.)
    let stdout = if args[0] == "stats" {
        let text = String::from_utf8(out.stdout).unwrap();
        let kept = text.lines().filter(|l| !l.starts_with("throughput"));
        kept.collect::<Vec<_>>().join("\n").into_bytes()
    } else {
        out.stdout
    };
    (stdout, rejected, err, out.status.code())
}

/// Runs `args` at -j1, -j2, -j3 and -j8 and checks that every run gives
/// what -j1 gives; returns that.
fn same_at_every_j(wd: &Workdir, args: &[&str]) -> Outcome {
    let one = outcome(wd, args, "-j1");
    for j in ["-j2", "-j3", "-j8"] {
        let other = outcome(wd, args, j);
        assert!(
            other.0 == one.0,
            "{args:?} {j}: stdout differs from -j1's ({} vs {} bytes)",
            other.0.len(),
            one.0.len()
        );
        assert_eq!(other.1, one.1, "{args:?} {j}: rejects differ from -j1's");
        assert_eq!(other.2, one.2, "{args:?} {j}: stderr differs from -j1's");
        assert_eq!(
            other.3, one.3,
            "{args:?} {j}: exit status differs from -j1's"
        );
    }
    one
}

/// Lines of URLs, `n` of them, from `tag`, some of them invalid.
fn urls(tag: &str, n: usize) -> String {
    (0..n)
        .map(|i| match i % 7 {
            3 => format!("http://[bad-{tag}-{i}\n"),
            _ => format!("HTTP://{tag}.example/{i}/../p?q={i}\n"),
        })
        .collect()
}

/// A gzip member per `per` lines of `text`.
fn members(text: &str, per: usize) -> Vec<u8> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    lines
        .chunks(per)
        .flat_map(|c| gzip(c.concat().as_bytes()))
        .collect()
}

/// A `.warc.gz` of `n` response records, a gzip member per record.
fn warc_gz(tag: &str, n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| {
            let block = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=\"/{i}\">x</a>");
            let headers = format!("WARC-Target-URI: http://{tag}.example/{i}\r\nWARC-Record-ID: <urn:uuid:{tag}-{i}>\r\n");
            gzip(&warc_record("response", &headers, block.as_bytes()))
        })
        .collect()
}

/// `bytes` with one byte of its DEFLATE data flipped at about `at` of its
/// length: a damaged member there.
fn damaged(bytes: &[u8], at: f64) -> Vec<u8> {
    let mut bad = bytes.to_vec();
    let i = (bytes.len() as f64 * at) as usize;
    bad[i] ^= 0x5a;
    bad
}

#[test]
fn lines_of_many_inputs_come_out_in_input_order_at_every_j() {
    let wd = Workdir::new();
    let mut names = Vec::new();
    for k in 0..6 {
        let name = format!("in{k}.gz");
        wd.create(&name, members(&urls(&format!("h{k}"), 4000), 300));
        names.push(wd.path(&name));
    }
    let args: Vec<String> = names.iter().map(|p| p.display().to_string()).collect();
    let mut run: Vec<&str> = vec!["normalize"];
    run.extend(args.iter().map(String::as_str));
    let (stdout, rejects, _, status) = same_at_every_j(&wd, &run);
    assert_eq!(status, Some(0));
    // Each input's own output, in turn.
    let mut each = Vec::new();
    let mut each_rejects = Vec::new();
    for name in &args {
        let (o, r, _, _) = outcome(&wd, &["normalize", name], "-j2");
        each.extend(o);
        each_rejects.extend(r);
    }
    assert!(stdout == each, "not each input's output in turn");
    assert_eq!(rejects, each_rejects);
    assert_eq!(
        stdout.iter().filter(|&&b| b == b'\n').count(),
        6 * (4000 - 4000 / 7)
    );
}

#[test]
fn damaged_and_cut_inputs_among_several_are_reported_as_one_after_another() {
    let wd = Workdir::new();
    let good = members(&urls("a", 3000), 250);
    wd.create("first-cut.gz", &good[..good.len() / 2]);
    wd.create("good.gz", &good);
    wd.create(
        "bad-member.gz",
        damaged(&members(&urls("b", 3000), 250), 0.4),
    );
    wd.create("records.warc.gz", warc_gz("w", 400));
    wd.create("bad.warc.gz", damaged(&warc_gz("v", 400), 0.5));
    wd.create("plain.txt", urls("c", 2000));
    let p = |n: &str| wd.path(n).display().to_string();
    for job in [
        vec!["normalize"],
        vec!["dedup"],
        // Small chunks: many looked up ahead (from -j3 on); the set moves
        // to disk mid-run; bad lines kept, keyed by their bytes.
        vec!["dedup", "--chunk-size", "4K", "--memory", "48K"],
        vec!["dedup", "--chunk-size", "4K", "--keep-invalid"],
        vec!["extract", "--fields", "href,hostname"],
        vec!["stats"],
    ] {
        let mut args = job.clone();
        let files = [
            p("first-cut.gz"),
            p("good.gz"),
            p("bad-member.gz"),
            p("plain.txt"),
        ];
        args.extend(files.iter().map(String::as_str));
        let (_, rejects, err, status) = same_at_every_j(&wd, &args);
        assert_eq!(status, Some(2), "{job:?}: {err}");
        for named in ["first-cut.gz", "bad-member.gz"] {
            assert!(err.contains(named), "{job:?}: {named} not named in {err}");
        }
        if job[0] != "stats" {
            assert!(!rejects.is_empty(), "{job:?}: no rejects");
        }
        // A damaged archive second of three.
        let mut args = job.clone();
        let files = [p("records.warc.gz"), p("bad.warc.gz"), p("records.warc.gz")];
        args.extend(files.iter().map(String::as_str));
        let (_, _, err, status) = same_at_every_j(&wd, &args);
        assert_eq!(status, Some(2), "{job:?}: {err}");
        assert!(err.contains("bad.warc.gz"), "{job:?}: {err}");
    }
    let links = ["links", "--fields", "from,to,tag"];
    let mut args = links.to_vec();
    let files = [
        p("records.warc.gz"),
        p("bad.warc.gz"),
        p("first-cut.gz"),
        p("records.warc.gz"),
    ];
    args.extend(files.iter().map(String::as_str));
    let (stdout, _, _, _) = same_at_every_j(&wd, &args);
    assert!(!stdout.is_empty());
}

/// The real archives of `../shared/crawl-samples`, all in one run.
#[test]
fn the_shared_crawl_samples_read_together_give_the_same_at_every_j() {
    let dir = common::crawl_samples_dir();
    let mut files: Vec<PathBuf> = Vec::new();
    collect(&dir, &mut files);
    files.sort();
    let named = |ends: &[&str]| -> Vec<String> {
        let of = files.iter().map(|f| f.display().to_string());
        of.filter(|f| ends.iter().any(|e| f.ends_with(e))).collect()
    };
    // (WARC and ARC files are not read in one run.)
    let warcs = named(&[".warc", ".warc.gz"]);
    let arcs = named(&[".arc", ".arc.gz"]);
    assert!(
        warcs.len() >= 20 && arcs.len() >= 2,
        "crawl samples: {warcs:?} {arcs:?}"
    );
    let wd = Workdir::new();
    for names in [&warcs, &arcs] {
        for job in [
            vec!["normalize"],
            vec!["extract", "--fields", "href,site"],
            vec!["links", "--fields", "from,to,tag,kind"],
            // Small chunks: from -j3 on the workers look keys up ahead.
            vec!["dedup", "--chunk-size", "4K"],
        ] {
            let mut args = job.clone();
            args.extend(names.iter().map(String::as_str));
            let (stdout, _, err, _) = same_at_every_j(&wd, &args);
            assert!(!stdout.is_empty(), "{job:?}: {err}");
        }
    }
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// One big gzip member, as `gzip` writes a whole file (the shared
/// corpora's lines, 16 MB), reads as `gzip -dc` reads it. Cut, damaged in
/// its data or its CRC-32, or followed by garbage, it gives at every -j
/// exactly what -j1's in-order decoder gives: output, rejects, faults and
/// exit status. (On a machine of three cores or more, -j3 and -j8 decode
/// it on several threads; `decode::big_member_tests` does so on any.)
#[test]
fn one_big_gzip_member_gives_the_same_at_every_j() {
    let wd = Workdir::new();
    let mut plain = Vec::new();
    for file in common::corpus_files() {
        plain.extend(std::fs::read(file).unwrap());
    }
    let mut cut = 16 << 20;
    assert!(plain.len() > cut, "corpora of {} bytes", plain.len());
    while plain[cut - 1] != b'\n' {
        cut += 1;
    }
    plain.truncate(cut);
    wd.create("plain.txt", &plain);
    // The peers: `gzip` writes the member, `gzip -dc` reads it back.
    let gzip = |args: &[&str]| {
        let out = std::process::Command::new("gzip")
            .args(args)
            .current_dir(wd.path(""))
            .output()
            .expect("gzip is needed by this test");
        assert_eq!(out.status.code(), Some(0), "gzip {args:?}");
        out.stdout
    };
    let gz = gzip(&["-1", "-c", "plain.txt"]);
    wd.create("big.gz", &gz);
    wd.create("zcat.txt", gzip(&["-dc", "big.gz"]));
    let args = ["normalize", "--keep-invalid"];
    let zcat = outcome(&wd, &[&args[..], &["zcat.txt"]].concat(), "-j1");
    let whole = same_at_every_j(&wd, &[&args[..], &["big.gz"]].concat());
    assert!(whole.0 == zcat.0 && whole.3 == Some(0));
    let n = gz.len();
    let mut damaged = Vec::new();
    damaged.push(("cut.gz", gz[..n * 7 / 10].to_vec()));
    let mut data = gz.clone();
    data[n * 6 / 10] ^= 0x55;
    damaged.push(("data.gz", data));
    let mut crc = gz.clone();
    crc[n - 6] ^= 1;
    damaged.push(("crc.gz", crc));
    damaged.push(("garbage.gz", [&gz[..], b"garbage"].concat()));
    for (name, bytes) in damaged {
        wd.create(name, bytes);
        let (stdout, _, err, status) = same_at_every_j(&wd, &[&args[..], &[name]].concat());
        assert_eq!(status, Some(2), "{name}: {err}");
        assert!(err.contains(&format!("{name}: gzip data is")), "{err}");
        assert!(stdout.len() > plain.len() / 2, "{name}: {}", stdout.len());
    }
}

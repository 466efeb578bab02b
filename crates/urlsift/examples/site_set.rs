//! `SuffixSet` at the scale of `--site-file`: writes a file of N generated
//! sites (default 1,000,000; half of the corpus sites among them, so that
//! filters both keep and drop), times loading it, then times the two
//! filters per URL against parse + hostname alone, interleaved over rounds
//! (best round each, on-CPU time as in `examples/sites.rs`).
//!
//! Usage: cargo run --release --example site_set -- [N] [URL FILES...]
//! (URL files default to every corpus in `URLSIFT_CORPORA_DIR` or
//! `../shared/corpora`).

use std::hint::black_box;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use urlsift::BatchParser;
use urlsift::site::{List, SuffixSet};

fn cpu_ns(wall: Instant) -> u128 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| wall.elapsed().as_nanos())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(1_000_000, |s| s.parse().expect("N"));
    let mut files: Vec<PathBuf> = args.map(PathBuf::from).collect();
    if files.is_empty() {
        let dir = std::env::var_os("URLSIFT_CORPORA_DIR")
            .map_or("../shared/corpora".into(), PathBuf::from);
        files = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .collect();
        files.sort();
    }
    let mut lines = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        lines.extend(String::from_utf8_lossy(&bytes).lines().map(str::to_string));
    }
    let list = List::builtin();
    let mut parser = BatchParser::new();
    let mut sites: Vec<String> = lines
        .iter()
        .filter_map(|l| {
            let url = parser.parse(l, None).ok()?;
            Some(list.url_parts(url)?.registrable_domain()?.to_string())
        })
        .collect();
    sites.sort();
    sites.dedup();
    // Every other corpus site, then generated ones up to n.
    let mut text = String::new();
    let mut count = 0;
    for s in sites.iter().step_by(2).take(n) {
        text.push_str(s);
        text.push('\n');
        count += 1;
    }
    let tlds = [
        "com", "net", "org", "co.uk", "de", "xn--p1ai", "com.au", "io",
    ];
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    while count < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        text.push_str(&format!(
            "site{:x}-{}.{}\n",
            x >> 20,
            count,
            tlds[(x % 8) as usize]
        ));
        count += 1;
    }
    let path = std::env::temp_dir().join(format!("urlsift-site-set-{}.txt", std::process::id()));
    std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .expect("write site file");
    let start = Instant::now();
    let set = SuffixSet::from_file(&path).expect("load");
    let load = start.elapsed();
    std::fs::remove_file(&path).ok();
    println!(
        "loaded {} entries ({} MB) in {:.0} ms (wall clock, file read included)",
        set.len(),
        text.len() / 1_000_000,
        load.as_secs_f64() * 1000.0
    );
    assert!(set.len() >= n * 99 / 100, "entries lost: {}", set.len());

    // Per URL: parse + hostname; + site filter (the site looked up, then
    // one probe); + host-suffix filter (one probe per label).
    let run = |mode: u8| {
        let mut parser = BatchParser::new();
        let (mut kept, mut bytes) = (0usize, 0usize);
        for line in &lines {
            let Ok(url) = parser.parse(black_box(line), None) else {
                continue;
            };
            let keep = match mode {
                0 => true,
                1 => list
                    .url_parts(url)
                    .and_then(|p| p.registrable_domain())
                    .is_some_and(|s| set.contains(s)),
                _ => set.matches_host(url.hostname()),
            };
            if keep {
                kept += 1;
                bytes += url.hostname().len();
            }
        }
        (kept, bytes)
    };
    let names = [
        "parse + hostname (no filter)",
        "parse + site filter",
        "parse + host-suffix filter",
    ];
    let mut best = [f64::MAX; 3];
    let mut kept = [(0, 0); 3];
    for _ in 0..7 {
        for mode in 0..3u8 {
            let wall = Instant::now();
            let start = cpu_ns(wall);
            kept[mode as usize] = black_box(run(mode));
            let ns = (cpu_ns(wall) - start) as f64 / lines.len() as f64;
            best[mode as usize] = best[mode as usize].min(ns);
        }
    }
    for i in 0..3 {
        println!(
            "{:30} {:6.1} ns/URL  {:5.2}x no filter  ({} URLs kept)",
            names[i],
            best[i],
            best[i] / best[0],
            kept[i].0
        );
    }

    // The probe alone, on sites known ahead, with and without prefetching
    // a few sites ahead (what a batched loop can do).
    let url_sites: Vec<String> = {
        let mut parser = BatchParser::new();
        lines
            .iter()
            .filter_map(|l| {
                let url = parser.parse(l, None).ok()?;
                Some(list.url_parts(url)?.registrable_domain()?.to_string())
            })
            .collect()
    };
    const AHEAD: usize = 8;
    let probe = |prefetch: bool| {
        let mut kept = 0usize;
        for (i, s) in url_sites.iter().enumerate() {
            if prefetch && let Some(next) = url_sites.get(i + AHEAD) {
                set.prefetch(next);
            }
            kept += usize::from(set.contains(black_box(s)));
        }
        kept
    };
    let mut best = [f64::MAX; 2];
    let mut kept = [0; 2];
    for _ in 0..7 {
        for (i, prefetch) in [false, true].into_iter().enumerate() {
            let wall = Instant::now();
            let start = cpu_ns(wall);
            kept[i] = black_box(probe(prefetch));
            best[i] = best[i].min((cpu_ns(wall) - start) as f64 / url_sites.len() as f64);
        }
    }
    assert_eq!(kept[0], kept[1]);
    println!(
        "contains(site) alone {:.1} ns/site; prefetching {AHEAD} sites ahead {:.1} ns/site ({:.2}x faster; {} of {} kept)",
        best[0],
        best[1],
        best[0] / best[1],
        kept[0],
        url_sites.len()
    );
}

//! Parse every line of each corpus in `../shared/corpora` (or
//! `URLSIFT_CORPORA_DIR`) with urlsift (the dispatcher, the state machine
//! alone, and the batch parser with reused buffers), the `ada-url` crate
//! and the `url` crate. Before timing, the engines' results are compared: urlsift and ada
//! must agree on the valid count and the total href bytes (the run aborts
//! otherwise); the url crate's count is printed beside them, since it
//! follows an older edition of the standard on a few inputs.
//!
//! `scripts/bench/table` turns the results into ns/URL and ratios.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn corpora() -> Vec<(String, String)> {
    let dir = std::env::var_os("URLSIFT_CORPORA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora")
        });
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpora directory {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&p).expect("UTF-8 corpus");
            (name, text)
        })
        .collect()
}

fn urlsift_run(lines: &[&str]) -> (usize, usize) {
    let mut valid = 0;
    let mut bytes = 0;
    for line in lines {
        if let Ok(url) = urlsift::Url::parse(line) {
            valid += 1;
            bytes += url.href().len();
        }
    }
    (valid, bytes)
}

fn machine_run(lines: &[&str]) -> (usize, usize) {
    let mut valid = 0;
    let mut bytes = 0;
    for line in lines {
        if let Ok(url) = urlsift::paths::machine(line, None) {
            valid += 1;
            bytes += url.href().len();
        }
    }
    (valid, bytes)
}

fn batch_run(lines: &[&str]) -> (usize, usize) {
    let mut parser = urlsift::BatchParser::new();
    let mut valid = 0;
    let mut bytes = 0;
    for line in lines {
        if let Ok(url) = parser.parse(line, None) {
            valid += 1;
            bytes += url.href().len();
        }
    }
    (valid, bytes)
}

fn ada_run(lines: &[&str]) -> (usize, usize) {
    let mut valid = 0;
    let mut bytes = 0;
    for line in lines {
        if let Ok(url) = ada_url::Url::parse(*line, None) {
            valid += 1;
            bytes += url.href().len();
        }
    }
    (valid, bytes)
}

fn url_run(lines: &[&str]) -> (usize, usize) {
    let mut valid = 0;
    let mut bytes = 0;
    for line in lines {
        if let Ok(url) = url::Url::parse(line) {
            valid += 1;
            bytes += url.as_str().len();
        }
    }
    (valid, bytes)
}

fn bench(c: &mut Criterion) {
    for (name, text) in corpora() {
        let lines: Vec<&str> = text.lines().collect();
        let ours = urlsift_run(&lines);
        let ada = ada_run(&lines);
        let url = url_run(&lines);
        assert_eq!(
            ours, ada,
            "{name}: urlsift and ada disagree on (valid, href bytes)"
        );
        assert_eq!(ours, machine_run(&lines), "{name}: machine differs");
        assert_eq!(ours, batch_run(&lines), "{name}: batch parser differs");
        let fast = lines
            .iter()
            .filter(|l| urlsift::paths::fast(l).is_some())
            .count();
        eprintln!(
            "{name}: {} lines, valid urlsift {} ada {} url {}; fast path accepts {:.1}% (SIMD backend {})",
            lines.len(),
            ours.0,
            ada.0,
            url.0,
            100.0 * fast as f64 / lines.len().max(1) as f64,
            urlsift_simd::backend().name(),
        );
        let mut group = c.benchmark_group(&name);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function("urlsift", |b| b.iter(|| urlsift_run(black_box(&lines))));
        group.bench_function("urlsift-machine", |b| {
            b.iter(|| machine_run(black_box(&lines)))
        });
        group.bench_function("urlsift-batch", |b| b.iter(|| batch_run(black_box(&lines))));
        group.bench_function("ada", |b| b.iter(|| ada_run(black_box(&lines))));
        group.bench_function("url", |b| b.iter(|| url_run(black_box(&lines))));
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);

//! Parses a corpus with one or more paths, interleaved, and prints each
//! path's ns/URL: the best (what the path costs when nothing else runs)
//! and the median round (what a typical round cost on this machine).
//! For profilers, pass a single mode.
//!
//! The corpus is cut into chunks of [`CHUNK`] lines; every round times
//! each chunk with each path in turn, and a path's best is the sum over
//! chunks of its fastest time for that chunk. On a shared machine a whole
//! round is rarely left alone, but each short chunk is, in some round: the
//! best stays steady under load where a best whole round does not.
//!
//! Usage: cargo run --release --example profile FILE [ROUNDS] [MODE,MODE...]
//! Modes: dispatch machine batch ada url copy
//! (`profile --backend` prints the SIMD backend in use.)

use std::time::{Duration, Instant};

/// Lines per timed chunk: long enough that the clock's cost vanishes
/// (a few tens of microseconds), short enough to run between preemptions.
const CHUNK: usize = 1024;

fn run(mode: &str, lines: &[&str], batch: &mut urlsift::BatchParser) -> usize {
    let mut total = 0usize;
    for line in lines {
        total += match mode {
            "dispatch" => urlsift::Url::parse(line).map_or(0, |u| u.href().len()),
            "machine" => urlsift::paths::machine(line, None).map_or(0, |u| u.href().len()),
            "batch" => batch.parse(line, None).map_or(0, |u| u.href().len()),
            "ada" => ada_url::Url::parse(*line, None).map_or(0, |u| u.href().len()),
            "url" => url::Url::parse(line).map_or(0, |u| u.as_str().len()),
            "copy" => line.to_string().len(),
            other => panic!("unknown mode {other}"),
        };
    }
    total
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("FILE");
    if path == "--backend" {
        println!("{}", urlsift_simd::backend().name());
        return;
    }
    let rounds: usize = args.next().map_or(5, |s| s.parse().expect("ROUNDS"));
    let modes = args
        .next()
        .unwrap_or_else(|| "dispatch,machine,batch,ada".to_string());
    let modes: Vec<&str> = modes.split(',').collect();
    let text = std::fs::read_to_string(&path).expect("read");
    let lines: Vec<&str> = text.lines().collect();
    let chunks: Vec<&[&str]> = lines.chunks(CHUNK).collect();
    let mut batch = urlsift::BatchParser::new();
    // Per mode: the fastest time of each chunk, each round's total, and
    // the href bytes of a round (the same every round).
    let mut best = vec![vec![Duration::MAX; chunks.len()]; modes.len()];
    let mut round_totals = vec![Vec::with_capacity(rounds); modes.len()];
    let mut totals = vec![0usize; modes.len()];
    for round in 0..rounds {
        let mut round_time = vec![Duration::ZERO; modes.len()];
        let mut round_bytes = vec![0usize; modes.len()];
        for (c, chunk) in chunks.iter().enumerate() {
            // Rotate the order so that no mode always runs first.
            for k in 0..modes.len() {
                let i = (round + c + k) % modes.len();
                let start = Instant::now();
                round_bytes[i] += run(modes[i], chunk, &mut batch);
                let took = start.elapsed();
                best[i][c] = best[i][c].min(took);
                round_time[i] += took;
            }
        }
        for i in 0..modes.len() {
            assert!(
                round == 0 || round_bytes[i] == totals[i],
                "{}: a different result in round {round}",
                modes[i]
            );
            totals[i] = round_bytes[i];
            round_totals[i].push(round_time[i]);
        }
    }
    let per_url = |d: Duration| d.as_nanos() as f64 / lines.len().max(1) as f64;
    let best: Vec<f64> = best.iter().map(|b| per_url(b.iter().sum())).collect();
    let median: Vec<f64> = round_totals
        .iter_mut()
        .map(|t| {
            t.sort();
            per_url(t[t.len() / 2])
        })
        .collect();
    let name = std::path::Path::new(&path)
        .file_stem()
        .unwrap()
        .to_string_lossy();
    let ada = modes.iter().position(|m| *m == "ada");
    for (i, mode) in modes.iter().enumerate() {
        let ratio = ada.map_or(String::new(), |a| {
            format!(
                "  ada/this {:.2}x (median {:.2}x)",
                best[a] / best[i],
                median[a] / median[i]
            )
        });
        println!(
            "{name:32} {mode:9} {:7.1} ns/URL  median {:7.1}  ({} href bytes){ratio}",
            best[i], median[i], totals[i]
        );
    }
}

//! Parses a corpus with one or more paths, interleaved over several rounds,
//! and prints each path's best ns/URL (the minimum resists noise from other
//! processes). For profilers, pass a single mode.
//!
//! Usage: cargo run --release --example profile FILE [ROUNDS] [MODE,MODE...]
//! Modes: dispatch machine batch ada url copy

use std::time::Instant;

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
    let rounds: usize = args.next().map_or(5, |s| s.parse().expect("ROUNDS"));
    let modes = args
        .next()
        .unwrap_or_else(|| "dispatch,machine,batch,ada".to_string());
    let modes: Vec<&str> = modes.split(',').collect();
    let text = std::fs::read_to_string(&path).expect("read");
    let lines: Vec<&str> = text.lines().collect();
    let mut batch = urlsift::BatchParser::new();
    let mut best = vec![f64::MAX; modes.len()];
    let mut totals = vec![0usize; modes.len()];
    for _ in 0..rounds {
        for (i, mode) in modes.iter().enumerate() {
            let start = Instant::now();
            totals[i] = run(mode, &lines, &mut batch);
            let ns = start.elapsed().as_nanos() as f64 / lines.len() as f64;
            best[i] = best[i].min(ns);
        }
    }
    let name = std::path::Path::new(&path)
        .file_stem()
        .unwrap()
        .to_string_lossy();
    let ada = modes.iter().position(|m| *m == "ada").map(|i| best[i]);
    for (i, mode) in modes.iter().enumerate() {
        let ratio = ada.map_or(String::new(), |a| format!("  ada/this {:.2}x", a / best[i]));
        println!(
            "{name:32} {mode:9} {:7.1} ns/URL  ({} href bytes){ratio}",
            best[i], totals[i]
        );
    }
}

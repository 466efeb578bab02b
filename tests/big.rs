//! `urlsift dedup --memory 64M` on a 2 GB input generated on the fly: the
//! output is exactly the first occurrences in input order, and peak memory
//! stays under 200 MB. About a minute in release mode, so `cargo test`
//! lists it as ignored and `.ci/run` runs it explicitly:
//! `cargo test --release --test big -- --ignored`.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Distinct URLs; line `i` of the input is URL `i % DISTINCT`.
const DISTINCT: u64 = 2_000_000;
const TARGET_BYTES: u64 = 2_000_000_000;

fn url(i: u64) -> String {
    format!(
        "https://h{}.example.com/p/{}/item-{}?q={}",
        i % 99_991,
        i % 997,
        i,
        i % 7
    )
}

/// The peak resident set of a running process (VmHWM), in bytes.
fn peak_rss(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[test]
#[ignore = "2 GB on disk, about a minute in release mode; .ci/run runs it with --release --ignored"]
fn dedup_2gb_with_a_64m_budget() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("big.txt");
    let mut lines = 0u64;
    {
        let mut w = BufWriter::with_capacity(1 << 20, std::fs::File::create(&input).unwrap());
        let mut bytes = 0u64;
        while bytes < TARGET_BYTES {
            let line = url(lines % DISTINCT);
            w.write_all(line.as_bytes()).unwrap();
            w.write_all(b"\n").unwrap();
            bytes += line.len() as u64 + 1;
            lines += 1;
        }
        w.flush().unwrap();
    }
    assert!(lines > DISTINCT * 10, "every URL repeats");

    let mut child = Command::new(env!("CARGO_BIN_EXE_urlsift"))
        .args(["dedup", "-q", "--memory", "64M", "--tmp-dir"])
        .arg(dir.path())
        .arg(&input)
        .stdout(Stdio::piped())
        .spawn()
        .expect("run urlsift");
    let pid = child.id();
    let stdout = child.stdout.take().unwrap();
    // Check the output while it streams; sample the peak RSS meanwhile.
    let reader = std::thread::spawn(move || {
        let mut count = 0u64;
        for line in BufReader::with_capacity(1 << 20, stdout).lines() {
            let line = line.expect("UTF-8 output");
            assert_eq!(line, url(count), "output line {}", count + 1);
            count += 1;
        }
        count
    });
    let mut peak = 0u64;
    while child.try_wait().unwrap().is_none() {
        peak = peak.max(peak_rss(pid).unwrap_or(0));
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = child.wait().unwrap();
    let written = reader.join().expect("output check");
    assert!(status.success(), "urlsift dedup failed: {status}");
    assert_eq!(written, DISTINCT, "one line per distinct URL");
    assert!(peak > 0, "peak RSS was sampled");
    assert!(peak < 200 << 20, "peak RSS {} MB", peak >> 20);
    eprintln!(
        "2 GB, {lines} lines: {written} unique, peak RSS {} MB",
        peak >> 20
    );
}

//! Checks on the command's own modules, which the crate root including this
//! file must also include by path (`input`, `output`, `spill` from
//! `src/bin/urlsift/`): see `fuzz/fuzz_targets/lines.rs`.
//!
//! - `lines`: the chunker never splits, drops or duplicates a line, for any
//!   chunk size and any bytes; and the real binary's output with many
//!   threads and tiny chunks equals its output with one thread and one
//!   chunk ([`parallel_equals_sequential`]).
//! - `dedup`: the spilling deduplicator equals a naive in-memory model.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use xxhash_rust::xxh3::xxh3_64;

use crate::input::BufPool;
use crate::output::CliError;
use crate::reader::{ChunkReader, Settings};
use crate::records::Spec;
use crate::spill::{Spill, merge};

/// The first byte picks the chunk size (1 to 64 bytes); the rest is the file.
pub fn lines(data: &[u8]) {
    let Some((&size, content)) = data.split_first() else {
        return;
    };
    // Compressed input is decompressed by the reader: not this model.
    if content.starts_with(&[0x1f, 0x8b]) || content.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        return;
    }
    let chunk_size = usize::from(size % 64) + 1;
    let path: PathBuf =
        std::env::temp_dir().join(format!("urlsift-fuzz-lines-{}", std::process::id()));
    std::fs::write(&path, content).expect("write temp file");

    // A byte-order mark at the start is not part of the first line.
    let text = content.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(content);
    let mut expected: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    if text.is_empty() || text.ends_with(b"\n") {
        expected.pop();
    }
    let expected: Vec<&[u8]> = expected
        .into_iter()
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect();

    let pool = BufPool::new(4, 1 << 19);
    let mut got: Vec<(u64, Vec<u8>)> = Vec::new();
    let settings = Settings {
        chunk_size,
        max_record: usize::MAX,
        spec: Spec::default(),
        writes_records: false,
        count_lines: true,
    };
    let mut reader = ChunkReader::new(vec![path.clone()], settings);
    let mut expected_number = 0;
    while let Some((number, chunk)) = reader.next_numbered(&pool) {
        assert_eq!(number, expected_number, "chunks numbered in order");
        expected_number += 1;
        let chunk = chunk.expect("reading a plain file");
        got.extend(chunk.lines().map(|(n, l)| (n, l.to_vec())));
    }
    let _ = std::fs::remove_file(&path);
    assert_eq!(
        got.len(),
        expected.len(),
        "line count, chunk size {chunk_size}"
    );
    for (i, ((number, line), want)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(*number, i as u64 + 1, "line numbers");
        assert_eq!(line.as_slice(), *want, "line {}", i + 1);
    }
}

/// The first byte picks the memory budget (0 to 1020 bytes, so partitions
/// split and recurse); each following line is a record whose key is its
/// first two bytes (many duplicates). The spill's output must be each key's
/// first line, in input order, with the number of times the key occurred.
pub fn dedup(data: &[u8]) {
    let Some((&budget, content)) = data.split_first() else {
        return;
    };
    let budget = u64::from(budget) * 4;
    let records: Vec<(&[u8], &[u8])> = content
        .split(|&b| b == b'\n')
        .map(|line| (&line[..line.len().min(2)], line))
        .collect();

    let mut first: HashMap<&[u8], usize> = HashMap::new();
    let mut expected: Vec<(u64, &[u8])> = Vec::new();
    for (key, line) in &records {
        match first.get(key) {
            Some(&i) => expected[i].0 += 1,
            None => {
                first.insert(key, expected.len());
                expected.push((1, line));
            }
        }
    }

    let dir = std::env::temp_dir().join(format!("urlsift-fuzz-dedup-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut spill = Spill::create(&dir, "p", 0).expect("spill files");
    for (seq, (key, line)) in records.iter().enumerate() {
        spill
            .push(xxh3_64(key), seq as u64, 1, key, line)
            .expect("spill push");
    }
    let runs = spill.resolve(budget, 0).expect("resolve");
    let mut got: Vec<(u64, Vec<u8>)> = Vec::new();
    let io_err = |error| CliError::Output {
        name: "fuzz spill".to_string(),
        error,
    };
    merge(
        runs,
        |count, line| {
            got.push((count, line.to_vec()));
            Ok(())
        },
        io_err,
    )
    .unwrap_or_else(|_| panic!("merge failed"));
    let _ = std::fs::remove_dir_all(&dir);
    let expected: Vec<(u64, Vec<u8>)> =
        expected.into_iter().map(|(c, l)| (c, l.to_vec())).collect();
    assert_eq!(got, expected, "budget {budget}");
}

/// The first byte picks the chunk size (1 to 64 bytes) and thread count (1
/// to 4); `urlsift normalize --keep-invalid` must print the same bytes and
/// exit the same way as with one thread and one 4 MiB chunk.
pub fn parallel_equals_sequential(data: &[u8], bin: &Path) {
    let Some((&pick, content)) = data.split_first() else {
        return;
    };
    let chunk = (pick % 64) + 1;
    let threads = (pick >> 6) + 1;
    let path = std::env::temp_dir().join(format!("urlsift-fuzz-par-{}", std::process::id()));
    std::fs::write(&path, content).expect("write temp file");
    let run = |threads: &str, chunk: &str| {
        Command::new(bin)
            .args([
                "normalize",
                "-q",
                "--keep-invalid",
                "-j",
                threads,
                "--chunk-size",
                chunk,
            ])
            .arg(&path)
            .output()
            .unwrap_or_else(|e| panic!("run {}: {e}", bin.display()))
    };
    let sequential = run("1", "4M");
    let parallel = run(&threads.to_string(), &chunk.to_string());
    let _ = std::fs::remove_file(&path);
    assert_eq!(
        parallel.status.code(),
        sequential.status.code(),
        "-j{threads} --chunk-size {chunk}"
    );
    assert!(
        parallel.stdout == sequential.stdout,
        "-j{threads} --chunk-size {chunk}: output differs"
    );
}

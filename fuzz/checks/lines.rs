//! The `lines` check: the command's chunker (`src/bin/urlsift/input.rs`,
//! included by path) never splits, drops or duplicates a line, for any
//! chunk size and any bytes.

use std::path::PathBuf;

use super::input::{BufPool, read_chunks};

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

    let mut expected: Vec<&[u8]> = content.split(|&b| b == b'\n').collect();
    if content.is_empty() || content.ends_with(b"\n") {
        expected.pop();
    }
    let expected: Vec<&[u8]> = expected
        .into_iter()
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect();

    let pool = BufPool::new(4, 1 << 20);
    let mut got: Vec<(u64, Vec<u8>)> = Vec::new();
    read_chunks(std::slice::from_ref(&path), chunk_size, &pool, |chunk| {
        let chunk = chunk.expect("reading a plain file");
        got.extend(chunk.lines().map(|(n, l)| (n, l.to_vec())));
        true
    });
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

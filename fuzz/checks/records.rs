//! Checks on the record engine, through the library's public API
//! (`urlsift_records`), and on the command built on it:
//!
//! - `lines`: the chunker never splits, drops or duplicates a line, for any
//!   chunk size and any bytes; and the real binary's output with many
//!   threads and tiny chunks equals its output with one thread and one
//!   chunk ([`parallel_equals_sequential`]).
//! - `dedup`: the spilling deduplicator equals a naive in-memory model.
//! - `damaged`: no damage to a gzip or zstd file makes the reader hand out
//!   a record the file does not hold ([`damaged`]); nor does damage to a
//!   WACZ holding such a file, its ZIP headers and directory included
//!   ([`damaged_wacz`]).

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use xxhash_rust::xxh3::xxh3_64;

use urlsift_records::BufPool;
use urlsift_records::dedup::{Spill, merge};
use urlsift_records::format::Spec;
use urlsift_records::input::decode;
use urlsift_records::input::wacz::Part;
use urlsift_records::reader::{ChunkReader, Settings};

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
        keep: None,
        cores: urlsift_records::cores::machine(),
        decoding_clock: Default::default(),
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

/// The first byte picks the memory budget (its low 6 bits: 0 to 1008
/// bytes, so partitions split and recurse) and the samples (its top 2
/// bits: 1 to 4 records per key); each following line is a record whose
/// key is its first two bytes (many duplicates). The spill's output must
/// be each key's first lines, as many as the samples, in input order, each
/// with the number of times the key occurred.
pub fn dedup(data: &[u8]) {
    let Some((&pick, content)) = data.split_first() else {
        return;
    };
    let budget = u64::from(pick & 63) * 16;
    let samples = u32::from(pick >> 6) + 1;
    let records: Vec<(&[u8], &[u8])> = content
        .split(|&b| b == b'\n')
        .map(|line| (&line[..line.len().min(2)], line))
        .collect();

    let mut counts: HashMap<&[u8], (u32, u64)> = HashMap::new();
    for (key, _) in &records {
        counts.entry(key).or_default().1 += 1;
    }
    let mut expected: Vec<(u64, &[u8])> = Vec::new();
    for (key, line) in &records {
        let (kept, count) = counts.get_mut(key).expect("counted");
        if *kept < samples {
            *kept += 1;
            expected.push((*count, line));
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
    let runs = spill.resolve(budget, 0, samples).expect("resolve");
    let mut got: Vec<(u64, Vec<u8>)> = Vec::new();
    merge(
        runs,
        |count, line| {
            got.push((count, line.to_vec()));
            Ok::<(), std::io::Error>(())
        },
        |e| e,
    )
    .unwrap_or_else(|_| panic!("merge failed"));
    let _ = std::fs::remove_dir_all(&dir);
    let expected: Vec<(u64, Vec<u8>)> =
        expected.into_iter().map(|(c, l)| (c, l.to_vec())).collect();
    assert_eq!(got, expected, "budget {budget}, samples {samples}");
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

/// The lines of the `damaged` target's file: URL-shaped, some long, with
/// duplicates, so that members hold several DEFLATE blocks and lines run
/// across member boundaries.
fn damaged_text() -> Vec<u8> {
    let mut text = Vec::new();
    for i in 0..600u32 {
        let long = if i % 37 == 0 {
            "x".repeat(300)
        } else {
            String::new()
        };
        text.extend_from_slice(
            format!(
                "https://h{}.example/{}/p{}?q={}{long}\n",
                i % 23,
                i % 7,
                i * 7919 % 1000,
                i % 11
            )
            .as_bytes(),
        );
    }
    text
}

/// A file of URL lines cut into gzip members (or zstd frames with
/// checksums) and damaged where the input says, read by the chunk reader:
/// chunks come numbered in order, and every line it hands out as a record
/// (in a chunk not set aside as bad, and not a last line a read error cut)
/// is a line of the file: nothing damaged, and no piece of a line a gap
/// cut, passes for a record. (Except where the damage makes the decoder
/// run to the file's end: that reads as a cut, which hands its bytes out.)
///
/// Byte 0: members (2 to 9; bits 0-2), cut at line ends (bit 4) or
/// anywhere, zstd (bit 5) or gzip, zstd after a `.warc.zst` dictionary
/// frame (bit 6; the dictionary zstd-compressed in it: bit 7); byte 1: the chunk size (1 to 256
/// bytes); then up to 8 damages of 3 bytes: where (little-endian, modulo
/// the file's length) and the byte to XOR in (0 counts as 1).
pub fn damaged(data: &[u8]) {
    damaged_in(data, false);
}

/// [`damaged`], the compressed file stored in a WACZ (under `archive/`)
/// and the damage done to the WACZ: a damaged directory may refuse the
/// WACZ (never a panic); what is read must be lines of the file.
pub fn damaged_wacz(data: &[u8]) {
    damaged_in(data, true);
}

fn damaged_in(data: &[u8], wacz: bool) {
    use std::collections::HashSet;
    use std::io::Write;

    let [pick, size, damages @ ..] = data else {
        return;
    };
    let text = damaged_text();
    let members = 2 + usize::from(pick & 7);
    let at_lines = pick & 0x10 != 0;
    let zstd = pick & 0x20 != 0;
    let dictionary = (zstd && pick & 0x40 != 0).then(|| {
        let samples: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
        zstd::dict::from_samples(&samples, 4 << 10).expect("a dictionary of the lines")
    });
    let mut cuts = vec![0];
    for k in 1..members {
        let mut at = text.len() * k / members;
        while at_lines && text[at - 1] != b'\n' {
            at += 1;
        }
        cuts.push(at);
    }
    cuts.push(text.len());
    let mut file = Vec::new();
    if let Some(d) = &dictionary {
        let payload = match pick & 0x80 {
            0 => d.clone(),
            _ => zstd::bulk::compress(d, 3).expect("compress"),
        };
        file.extend(0x184D_2A5Du32.to_le_bytes());
        file.extend((payload.len() as u32).to_le_bytes());
        file.extend(payload);
    }
    for w in cuts.windows(2) {
        let part = &text[w[0]..w[1]];
        if zstd {
            let mut e = match &dictionary {
                Some(d) => zstd::Encoder::with_dictionary(Vec::new(), 3, d),
                None => zstd::Encoder::new(Vec::new(), 3),
            }
            .expect("a zstd encoder");
            e.include_checksum(true).expect("checksum");
            e.write_all(part).expect("compress");
            file.extend(e.finish().expect("compress"));
        } else {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(part).expect("compress");
            file.extend(e.finish().expect("compress"));
        }
    }
    // Named as compressed files are: a damaged magic number is damage.
    let ext = if zstd { "zst" } else { "gz" };
    if wacz {
        let entry = format!("archive/lines.{ext}");
        file = urlsift_records::input::zip::stored(&[
            ("datapackage.json", b"{}"),
            (entry.as_str(), &file),
        ]);
    }
    for d in damages.chunks_exact(3).take(8) {
        let at = usize::from(u16::from_le_bytes([d[0], d[1]])) % file.len();
        file[at] ^= d[2].max(1);
    }
    let ext = if wacz { "wacz" } else { ext };
    let path: PathBuf =
        std::env::temp_dir().join(format!("urlsift-fuzz-damaged-{}.{ext}", std::process::id()));
    std::fs::write(&path, &file).expect("write temp file");
    let lines: HashSet<&[u8]> = text.split(|&b| b == b'\n').collect();
    let settings = Settings {
        chunk_size: usize::from(*size) + 1,
        max_record: usize::MAX,
        spec: Spec::default(),
        writes_records: false,
        count_lines: true,
        keep: None,
        cores: urlsift_records::cores::machine(),
        decoding_clock: Default::default(),
    };
    let pool = BufPool::new(4, 1 << 16);
    let inputs =
        match urlsift_records::input::wacz::expand(std::slice::from_ref(&path), Part::Archive) {
            Ok(inputs) => inputs,
            Err(e) => {
                // Refused before reading (a damaged directory): named.
                let _ = std::fs::remove_file(&path);
                assert!(wacz && !e.error.to_string().is_empty());
                return;
            }
        };
    let mut reader = ChunkReader::of(inputs, settings);
    let mut expected_number = 0;
    let mut records: Vec<(u64, Vec<u8>)> = Vec::new();
    let mut cut = false;
    while let Some((number, chunk)) = reader.next_numbered(&pool) {
        assert_eq!(number, expected_number, "chunks numbered in order");
        expected_number += 1;
        let chunk = match chunk {
            Ok(chunk) => chunk,
            Err(e) => {
                cut |= decode::decode_error(&e.error)
                    .is_some_and(|d| d.fault == decode::Fault::Truncated);
                // An entry the ZIP's own check (size, CRC-32, inflating a
                // method the damage changed) finds damaged at its end: its
                // bytes were read before the check, as a cut file's are.
                let said = e.error.to_string();
                cut |= wacz
                    && (said.contains("where the directory says")
                        || said.contains("cannot be inflated")
                        || said.contains("ZIP method"));
                continue;
            }
        };
        if chunk.bad().is_some() || chunk.oversize().is_some() {
            continue;
        }
        let cut_last = chunk.truncated() && !chunk.data().ends_with(b"\n");
        let mut lines_of = chunk.lines().peekable();
        while let Some((n, line)) = lines_of.next() {
            let last = lines_of.peek().is_none();
            if !(line.is_empty() || (last && cut_last)) {
                records.push((n, line.to_vec()));
            }
        }
    }
    let _ = std::fs::remove_file(&path);
    // The file is never cut, so a cut reported is damage that ran the
    // decoder to its end: indistinguishable from a cut, whose decoded
    // bytes go out as data (as `gzip -dc` gives them). Not checked.
    if cut {
        return;
    }
    for (n, line) in records {
        assert!(
            lines.contains(&line[..]),
            "line {n} is not a line of the file: {:?}",
            String::from_utf8_lossy(&line)
        );
    }
}

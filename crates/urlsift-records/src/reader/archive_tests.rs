//! Records cut where they are decoded (`archive.rs`): a `.warc.gz` read
//! with batches of members handed on raw gives the records, faults and
//! set-aside bytes that reading it on one core gives, whatever its
//! members hold.

use std::io::Write;
use std::path::Path;

use super::{ChunkReader, Settings};
use crate::chunk::BufPool;
use crate::format::Spec;

/// A record whose payload compresses little: 8 to 40 KB, so that a
/// batch job (256 KiB of input) decodes a few records, and a fault or an
/// odd member often falls at a job's start or end; every 97th of 1.2 MB
/// (longer than the reader buffers to check a length); every third
/// with a WARC header inside its payload.
fn record(i: usize) -> Vec<u8> {
    let mut x = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let len = if i % 97 == 50 {
        1_200_000
    } else {
        8000 + i * 7919 % 32000
    };
    let mut payload: Vec<u8> = (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            b' ' + (x % 90) as u8
        })
        .collect();
    if i.is_multiple_of(3) {
        // A WARC header inside the payload (an archived WARC file): where
        // the record's end is in doubt, the reader resumes there.
        let mid = payload.len() / 2;
        payload.splice(mid..mid, *b"\nWARC/1.0\r\nContent-Length: 3\r\n\r\n");
    }
    let mut r = format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://e{i}.example/p\r\n\
         Content-Length: {}\r\n\r\n",
        payload.len()
    )
    .into_bytes();
    r.extend(payload);
    r.extend(b"\r\n\r\n");
    r
}

fn member(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// What a reader gives, in order: each record's offset, fault and
/// header block (or the bytes shown) and, with `keep`, its block as kept
/// (every block up to 1 MiB), and each error.
fn transcript(path: &Path, cores: usize, keep: bool) -> (Vec<String>, u64) {
    let keeping = urlsift_warc::Keeping {
        max: 1 << 20,
        wants: |_, _| true,
    };
    let settings = Settings {
        chunk_size: 64 << 10,
        max_record: 1 << 20,
        spec: Spec::default(),
        writes_records: false,
        count_lines: true,
        keep: keep.then_some(keeping),
        cores,
        decoding_clock: Default::default(),
    };
    let mut reader = ChunkReader::new(vec![path.to_path_buf()], settings);
    let pool = BufPool::new(8, 64 << 10);
    let (mut out, mut raw) = (Vec::new(), 0);
    while let Some((_, next)) = reader.next_unwalked(&pool) {
        match next {
            Ok(mut chunk) => {
                raw += u64::from(chunk.raw.is_some());
                super::walk(&mut chunk, &pool);
                for e in &chunk.index {
                    let bytes = String::from_utf8_lossy(&chunk.data[e.start..e.end]);
                    let body = match e.body {
                        urlsift_warc::Body::Kept { start, end } => {
                            format!("{:x}", xxhash_rust::xxh3::xxh3_64(&chunk.data[start..end]))
                        }
                        other => format!("{other:?}"),
                    };
                    out.push(format!("{} {:?} {bytes} {body}", e.offset, e.bad));
                }
            }
            Err(e) => out.push(format!("error: {}", e.error)),
        }
    }
    (out, raw)
}

/// Writes `members` as a `.warc.gz` and holds its reading at 2 and 4
/// cores to one core's, blocks kept and not; returns the raw chunks at 4
/// (the fewer of the two).
fn same_at_every_core(members: &[Vec<u8>]) -> u64 {
    same_at_every_core_as(members, "records.warc.gz")
}

/// [`same_at_every_core`] of a file called `name`.
fn same_at_every_core_as(members: &[Vec<u8>], name: &str) -> u64 {
    let dir = tempfile::Builder::new()
        .prefix("urlsift-raw-")
        .tempdir()
        .unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, members.concat()).unwrap();
    let mut raw = 0;
    for keep in [false, true] {
        let (one, none) = transcript(&path, 1, keep);
        assert_eq!(none, 0, "one core decodes in order");
        assert!(one.len() > 250, "{} records", one.len());
        for cores in [2, 4] {
            let (many, r) = transcript(&path, cores, keep);
            assert_eq!(one.len(), many.len(), "at {cores} cores, keeping: {keep}");
            for (i, (a, b)) in one.iter().zip(&many).enumerate() {
                assert_eq!(a, b, "item {i} at {cores} cores, keeping: {keep}");
            }
            if cores == 4 {
                // (The fewer of the two runs at 4 cores.)
                raw = if keep { raw.min(r) } else { r };
            }
        }
    }
    raw
}

fn records(n: usize) -> Vec<Vec<u8>> {
    (0..n).map(record).collect()
}

const RECORDS: usize = 800;

#[test]
fn whole_records_go_on_raw_and_read_as_in_order() {
    let members: Vec<_> = records(RECORDS).iter().map(|r| member(r)).collect();
    assert!(
        same_at_every_core(&members) > 50,
        "raw chunks were handed on"
    );
}

#[test]
fn members_that_end_inside_a_record_or_hold_two_are_read_as_in_order() {
    let recs = records(RECORDS);
    let mut members = Vec::new();
    let mut i = 0;
    while i + 1 < recs.len() {
        let (this, next) = (&recs[i][..], &recs[i + 1][..]);
        let cut = match i % 9 {
            // A record and half the next; the rest of it alone.
            2 => next.len() / 2,
            // A header cut at the member's end.
            5 => 20,
            // Two whole records.
            7 => next.len(),
            _ => {
                members.push(member(this));
                i += 1;
                continue;
            }
        };
        members.push(member(&[this, &next[..cut]].concat()));
        if cut < next.len() {
            members.push(member(&next[cut..]));
        }
        i += 2;
    }
    assert!(same_at_every_core(&members) > 10);
}

#[test]
fn damaged_odd_and_cut_records_are_read_as_in_order() {
    let recs = records(RECORDS);
    let at = memchr::memmem::find(&recs[0], b"Content-Length: ").unwrap() + 16;
    let mut members = Vec::new();
    for (i, r) in recs.iter().enumerate() {
        let mut r = r.clone();
        match i % 23 {
            // A length too long, one too short.
            3 => r[at] = b'9',
            6 => r[at] = b'1',
            // Blank bytes past the few a record's end is checked with.
            9 => r.extend(b"\r\n\r\n\r\n\r\n\r\n\r\n"),
            // No blank line after the payload.
            12 => r.truncate(r.len() - 4),
            // Text that is no record, and blank bytes alone, before it.
            15 => members.push(member(b"not a record\r\n")),
            18 => members.push(member(b"\r\n\r\n")),
            _ => {}
        }
        members.push(member(&r));
    }
    // Damaged members: their deflate data flipped.
    for m in [100, 333, 500] {
        let mid = members[m].len() / 2;
        members[m][mid] ^= 0x55;
    }
    assert!(same_at_every_core(&members) > 3);
    // Cut short, inside a member.
    let mut cut = members[..600].to_vec();
    let last = cut.last_mut().unwrap();
    last.truncate(last.len() / 2);
    same_at_every_core(&cut);
}

#[test]
fn whole_records_before_what_starts_no_record_are_read_as_in_order() {
    // A batch job's whole records followed by text that is no record: the
    // last record's end is not where its length says, as far as the
    // reader can tell (the members a job starts at fall here and there).
    let mut members = Vec::new();
    for (i, r) in records(RECORDS).iter().enumerate() {
        members.push(member(r));
        if i % 9 == 3 {
            members.push(member(b"not a record\r\n"));
        }
    }
    same_at_every_core(&members);
}

#[test]
fn zstd_frames_of_whole_records_are_read_as_in_order() {
    let frame = |bytes: &[u8]| {
        let mut z = zstd::Encoder::new(Vec::new(), 1).unwrap();
        z.include_checksum(true).unwrap();
        z.write_all(bytes).unwrap();
        z.finish().unwrap()
    };
    // (A job decodes 4 MiB of frames: one odd frame spoils its run.)
    let mut frames = Vec::new();
    for (i, r) in records(RECORDS).iter().enumerate() {
        frames.push(frame(r));
        if i == 600 {
            frames.push(frame(b"not a record\r\n"));
        }
    }
    let mid = frames[300].len() / 2;
    frames[300][mid] ^= 0x55;
    assert!(same_at_every_core_as(&frames, "records.warc.zst") > 0);
}

#[test]
fn a_sweep_of_damage_reads_as_in_order() {
    // Bytes flipped here and there (xorshift): in a header, a payload, a
    // member's header or trailer; one member or two.
    let base: Vec<_> = records(300).iter().map(|r| member(r)).collect();
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    let mut below = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    for _ in 0..6 {
        let mut members = base.clone();
        for _ in 0..1 + below(2) {
            let m = below(members.len());
            let at = below(members[m].len());
            members[m][at] ^= 1 << below(8);
        }
        same_at_every_core(&members);
    }
}

/// The shared crawl samples (`../shared/crawl-samples` beside the
/// workspace, or `URLSIFT_CRAWL_SAMPLES_DIR`): missing, the test fails.
fn crawl_samples() -> std::path::PathBuf {
    let dir = std::env::var_os("URLSIFT_CRAWL_SAMPLES_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/crawl-samples"),
        std::path::PathBuf::from,
    );
    assert!(
        dir.is_dir(),
        "test data directory {} is missing: put the shared data beside the workspace \
         or set URLSIFT_CRAWL_SAMPLES_DIR",
        dir.display()
    );
    dir
}

#[test]
fn a_real_warc_gz_goes_on_raw_and_reads_as_in_order() {
    // pywb's iana.warc.gz (343 records, a member each, 2.3 MB decoded),
    // four times over: whole records as another tool wrote them.
    let iana = std::fs::read(crawl_samples().join("pywb/iana.warc.gz")).unwrap();
    assert!(same_at_every_core(&vec![iana; 4]) > 0);
}

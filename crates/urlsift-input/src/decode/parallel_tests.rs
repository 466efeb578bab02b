//! Decoding gzip members and zstd frames in parallel batches against
//! decoding them in order: the same bytes and the same faults, on files
//! built to fool the batches' splits (header-like bytes in headers and
//! data, whole gzip files stored inside members, frames of every shape,
//! big units among small ones), cut, damaged, padded, followed by garbage,
//! or failing to read.

use std::io::Cursor;

use super::gzip::Gzip;
use super::parallel::{Members, Units};
use super::source::Source;
use super::tests::{Header, Make, decode_all_by, decode_by, gzip_file, member, noise, urls};
use super::zstd::Zstd;
use super::zstd_tests::{skippable, zstd_frame};
use super::{Decode, Fault, decode_error};
use crate::test_io::FailsAfter;

/// Many members of every size and header, some holding header-like bytes.
fn small_members(count: usize, seed: u64) -> Vec<u8> {
    let mut file = Vec::new();
    for i in 0..count {
        let k = (i as u64).wrapping_mul(seed) % 97;
        let header = Header {
            extra: k.is_multiple_of(3),
            name: k.is_multiple_of(5),
            comment: k.is_multiple_of(7),
            hcrc: k.is_multiple_of(2),
        };
        let mut data = urls((k % 40) as usize, seed + i as u64);
        if k.is_multiple_of(11) {
            data.extend_from_slice(b"\x1f\x8b\x08\x00 looks like a header\n");
        }
        file.extend(member(&data, header, (k % 10) as u32).bytes);
    }
    file
}

/// Members whose data is a whole gzip file, stored (level 0) or not: its
/// members show through as genuine members at wrong places.
fn nested_members(seed: u64) -> Vec<u8> {
    let mut file = Vec::new();
    for (i, level) in [0, 1, 0, 6, 0].into_iter().enumerate() {
        let inner = small_members(20, seed + i as u64);
        file.extend(member(&inner, Header::default(), level).bytes);
        file.extend(member(&urls(5, seed), Header::default(), 6).bytes);
    }
    file
}

/// Small members around members too big for a batch.
fn mixed_members(seed: u64) -> Vec<u8> {
    let mut file = small_members(30, seed);
    file.extend(member(&noise(40_000, seed), Header::default(), 0).bytes);
    file.extend(small_members(30, seed + 1));
    file.extend(member(&urls(3_000, seed), Header::default(), 9).bytes);
    file.extend(small_members(30, seed + 2));
    file
}

fn decoders() -> Vec<(String, Make)> {
    let mut all: Vec<(String, Make)> = vec![
        ("2 jobs x 64 bytes".into(), |s| {
            Box::new(Members::<Gzip>::with_jobs(s, 2, 64))
        }),
        ("3 jobs x 700 bytes".into(), |s| {
            Box::new(Members::<Gzip>::with_jobs(s, 3, 700))
        }),
        ("4 jobs x 4096 bytes".into(), |s| {
            Box::new(Members::<Gzip>::with_jobs(s, 4, 4096))
        }),
        ("8 jobs x 64 KiB".into(), |s| {
            Box::new(Members::<Gzip>::with_jobs(s, 8, 1 << 16))
        }),
    ];
    all.push(("the default".into(), |s| {
        super::parallel::decoder::<Gzip>(s, crate::cores::machine(), None)
    }));
    all
}

/// Output and fault of `make` on `data`, with the fault as text and as
/// decoding fault (when it is one).
fn run(make: Make, data: &[u8]) -> (Vec<u8>, Option<String>) {
    let (out, err) = decode_by(make, data, 1 << 14, 1 << 15);
    (out, err.map(|e| format!("{e} / {:?}", decode_error(&e))))
}

/// Every batched gzip decoder gives what the in-order decoder gives.
fn same_as_in_order(what: &str, data: &[u8]) {
    let in_order: Make = |s| Box::new(Gzip::new(s));
    agree(what, data, run, in_order, decoders());
}

/// What each of `decoders` gives of `data` (by `run`: bytes and faults)
/// is what `in_order` gives.
fn agree<F: PartialEq + std::fmt::Debug>(
    what: &str,
    data: &[u8],
    run: fn(Make, &[u8]) -> (Vec<u8>, F),
    in_order: Make,
    decoders: Vec<(String, Make)>,
) {
    let expected = run(in_order, data);
    for (name, make) in decoders {
        let got = run(make, data);
        assert!(
            got.1 == expected.1,
            "{what}, {name}: {:?} vs {:?}",
            got.1,
            expected.1
        );
        assert!(
            got.0 == expected.0,
            "{what}, {name}: {} vs {} bytes",
            got.0.len(),
            expected.0.len()
        );
    }
}

#[test]
fn batches_give_the_in_order_bytes_on_files_made_to_fool_them() {
    for seed in 1..4 {
        same_as_in_order("small", &small_members(300, seed));
        same_as_in_order("nested", &nested_members(seed));
        same_as_in_order("mixed", &mixed_members(seed));
    }
    let one = member(&urls(3000, 5), Header::default(), 6).bytes;
    same_as_in_order("one member", &one);
    // Small members that inflate far past a job's output cap.
    let mut bombs = small_members(20, 6);
    for _ in 0..3 {
        bombs.extend(member(&vec![b'a'; 3 << 20], Header::default(), 9).bytes);
        bombs.extend(small_members(20, 7));
    }
    same_as_in_order("bombs", &bombs);
}

/// The bytes of `file` decoded in batches of `D` (2 jobs of `segment`
/// bytes), and how many units came from batches; with `whole`, the
/// buffers the decoder has ready are taken whole where it can, and the
/// count is of those buffers instead.
fn batched<D: Units>(file: &[u8], segment: usize, whole: bool) -> (Vec<u8>, u64) {
    let source = Source::new(Box::new(Cursor::new(file.to_vec())));
    let mut units = Members::<D>::with_jobs(source, 2, segment);
    let mut out = Vec::new();
    let mut buf = vec![0; 4096];
    loop {
        if whole && let Some((ready, len, _)) = units.take_ready() {
            out.extend_from_slice(&ready[..len]);
            units.recycle(ready);
            continue;
        }
        match units.decode(&mut buf) {
            Ok(0) if whole => return (out, units.handed_over),
            Ok(0) => return (out, units.batched),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => panic!("{e}"),
        }
    }
}

#[test]
fn batches_are_used_where_units_are_small() {
    // Not a speed test: proof that the batches (not only the in-order
    // fallback) produced the bytes checked elsewhere.
    let file = small_members(300, 1);
    let (out, from_batches) = batched::<Gzip>(&file, 256, false);
    assert_eq!(out, run(|s| Box::new(Gzip::new(s)), &file).0);
    assert!(
        from_batches > 250,
        "only {from_batches} of 300 members came from batches"
    );
    // Their buffers handed over whole, as the ring takes them.
    let (whole, handed_over) = batched::<Gzip>(&file, 256, true);
    assert_eq!(whole, out);
    assert!(handed_over > 20, "{handed_over} buffers handed over whole");
    let file = zstd_frames(300, 1);
    let (out, from_batches) = batched::<Zstd>(&file, 4096, false);
    assert_eq!(out, run_zstd(|s| Box::new(Zstd::new(s)), &file).0);
    assert!(
        from_batches > 250,
        "only {from_batches} frames came from batches"
    );
    let (whole, handed_over) = batched::<Zstd>(&file, 4096, true);
    assert_eq!(whole, out);
    assert!(handed_over > 5, "{handed_over} buffers handed over whole");
}

#[test]
fn batches_fault_as_in_order_decoding_does() {
    let mut file = nested_members(7);
    file.extend(mixed_members(8));
    let len = file.len();
    for k in 1..80 {
        let cut = len * k / 80 + k % 7;
        same_as_in_order(&format!("cut at {cut}"), &file[..cut]);
    }
    for (i, at) in (5..len).step_by(len / 60).enumerate() {
        let mut bad = file.clone();
        bad[at] ^= 1 << (i % 8);
        same_as_in_order(&format!("damage at {at}"), &bad);
    }
    for tail in [
        &b"garbage\n"[..],
        &[0; 3000],
        b"\x1f",
        b"\x1f\x8b",
        b"\x1f\x8b\x08\x00",
    ] {
        same_as_in_order(&format!("tail {tail:?}"), &[&file[..], tail].concat());
    }
    same_as_in_order(
        "all small",
        &gzip_file(&[member(b"x\n", Header::default(), 1)]),
    );
}

/// What `make` decodes of `file` cut at each of `cuts` places, the read
/// failing there, is what `in_order` decodes, up to the read error.
fn read_errors(file: &[u8], cuts: usize, in_order: Make, decoders: Vec<(String, Make)>) {
    for k in 1..cuts {
        let cut = file.len() * k / cuts;
        let run = |make: Make| {
            let reader = FailsAfter(Cursor::new(file[..cut].to_vec()));
            let mut d = make(Source::with_capacity(Box::new(reader), 1000));
            let mut out = Vec::new();
            let mut buf = vec![0; 5000];
            loop {
                match d.decode(&mut buf) {
                    Ok(0) => return (out, String::new()),
                    Ok(n) => out.extend_from_slice(&buf[..n]),
                    // (Zstd goes on after a damaged frame.)
                    Err(e) if super::resumes(&e) => {}
                    Err(e) => return (out, e.to_string()),
                }
            }
        };
        let expected = run(in_order);
        assert_eq!(expected.1, "the disk is on fire");
        for (name, make) in &decoders {
            assert!(run(*make) == expected, "{name}: cut at {cut}");
        }
    }
}

#[test]
fn a_read_error_comes_where_in_order_decoding_meets_it() {
    read_errors(
        &small_members(300, 9),
        40,
        |s| Box::new(Gzip::new(s)),
        decoders(),
    );
    read_errors(
        &zstd_frames(200, 9),
        30,
        |s| Box::new(Zstd::new(s)),
        zstd_decoders(),
    );
}

/// Many small zstd frames of every shape: with and without a checksum
/// or a content size, empty, raw (noise) and RLE blocks, skippable frames
/// (empty ones too), a frame that lost its checksum flag (its checksum
/// stands after it), and now and then one too big for a small batch.
fn zstd_frames(count: usize, seed: u64) -> Vec<u8> {
    let mut file = Vec::new();
    for i in 0..count {
        let k = (i as u64).wrapping_mul(seed) % 97;
        let data = match k % 9 {
            0 => Vec::new(),
            1 => noise(300 + k as usize * 10, seed + i as u64),
            2 => vec![b'a'; 5000],
            _ => urls((k % 40) as usize, seed + i as u64),
        };
        let checksum = !k.is_multiple_of(4);
        let mut frame = if k.is_multiple_of(5) {
            // No content size in the header.
            let mut enc = ::zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
            enc.include_checksum(checksum).unwrap();
            std::io::Write::write_all(&mut enc, &data).unwrap();
            enc.finish().unwrap()
        } else {
            zstd_frame(&data, (k % 19) as i32 + 1, checksum)
        };
        if k == 13 && !checksum {
            // The flag lost, the checksum kept (see `after_unchecked`).
            frame.extend_from_slice(&(xxhash_rust::xxh64::xxh64(&data, 0) as u32).to_le_bytes());
        }
        file.extend(frame);
        if k.is_multiple_of(7) {
            file.extend(skippable(&urls((k % 3) as usize, seed)));
        }
        if k == 50 {
            file.extend(zstd_frame(&noise(20_000, seed), 1, true));
        }
    }
    file
}

fn zstd_decoders() -> Vec<(String, Make)> {
    vec![
        ("2 jobs x 64 bytes".into(), |s| {
            Box::new(Members::<Zstd>::with_jobs(s, 2, 64))
        }),
        ("3 jobs x 700 bytes".into(), |s| {
            Box::new(Members::<Zstd>::with_jobs(s, 3, 700))
        }),
        ("4 jobs x 4096 bytes".into(), |s| {
            Box::new(Members::<Zstd>::with_jobs(s, 4, 4096))
        }),
        ("8 jobs x 64 KiB".into(), |s| {
            Box::new(Members::<Zstd>::with_jobs(s, 8, 1 << 16))
        }),
        ("the default".into(), |s| {
            super::parallel::decoder::<Zstd>(s, crate::cores::machine(), None)
        }),
    ]
}

/// Every byte and every fault (zstd resumes after one) of `make` on
/// `data`: each fault's kind, place, frame, resumption, alignment and
/// damaged bytes. Not the reason libzstd gives for corrupt data: that
/// depends on its context's history (a context that decoded bigger frames
/// before has room where a fresh one reports "Destination buffer is too
/// small"), and a batch hands back to a fresh context.
fn run_zstd(make: Make, data: &[u8]) -> (Vec<u8>, Vec<String>) {
    let (out, faults) = decode_all_by(make, data, 1 << 14, 1 << 15);
    let faults = faults
        .iter()
        .map(|e| match decode_error(e) {
            Some(d) => {
                let kind = match &d.fault {
                    Fault::Corrupt(_) => "corrupt",
                    Fault::Truncated => "truncated",
                    Fault::TrailingGarbage => "trailing garbage",
                };
                let damaged = d.damaged.as_ref().map(|x| (x.whole, x.bytes.to_vec()));
                format!(
                    "{kind} at {} {:?} resumed {:?} aligned {} damaged {damaged:?}",
                    d.offset, d.unit, d.resumed, d.aligned
                )
            }
            None => e.to_string(),
        })
        .collect();
    (out, faults)
}

/// Every batched zstd decoder gives what the in-order decoder gives.
fn zstd_same_as_in_order(what: &str, data: &[u8]) {
    let in_order: Make = |s| Box::new(Zstd::new(s));
    agree(what, data, run_zstd, in_order, zstd_decoders());
}

#[test]
fn zstd_batches_give_the_in_order_bytes_and_faults() {
    let file = zstd_frames(300, 3);
    zstd_same_as_in_order("whole", &file);
    let expected = run_zstd(|s| Box::new(Zstd::new(s)), &file);
    assert!(expected.1.is_empty(), "{:?}", expected.1);
    let len = file.len();
    for k in 1..60 {
        let cut = len * k / 60 + k % 7;
        zstd_same_as_in_order(&format!("cut at {cut}"), &file[..cut]);
    }
    for (i, at) in (5..len).step_by(len / 50).enumerate() {
        let mut bad = file.clone();
        bad[at] ^= 1 << (i % 8);
        zstd_same_as_in_order(&format!("damage at {at}"), &bad);
    }
    for tail in [
        &b"garbage\n"[..],
        &[0; 3000],
        b"\x28",
        b"\x28\xb5\x2f\xfd",
        b"\x50\x2a\x4d\x18\xff",
    ] {
        zstd_same_as_in_order(&format!("tail {tail:?}"), &[&file[..], tail].concat());
    }
}

/// A `.warc.zst` file's dictionary frame: the in-order decoder reads it,
/// and the batches decode the frames after it with the same dictionary
/// (without it, every frame fails "Dictionary mismatch").
#[test]
fn batches_decode_with_the_dictionary_the_file_starts_with() {
    let texts: Vec<Vec<u8>> = (0..300).map(|i| urls(3 + i % 5, i as u64)).collect();
    let samples: Vec<&[u8]> = texts.iter().map(Vec::as_slice).collect();
    let dict = zstd::dict::from_samples(&samples, 4 << 10).unwrap();
    let mut compressor = zstd::bulk::Compressor::with_dictionary(3, &dict).unwrap();
    compressor.include_checksum(true).unwrap();
    for compressed in [false, true] {
        let payload = if compressed {
            zstd::bulk::compress(&dict, 3).unwrap()
        } else {
            dict.clone()
        };
        let mut file = 0x184D2A5Du32.to_le_bytes().to_vec();
        file.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        file.extend_from_slice(&payload);
        for text in &texts {
            file.extend(compressor.compress(text).unwrap());
        }
        let (out, from_batches) = batched::<Zstd>(&file, 4096, false);
        assert!(out == texts.concat(), "compressed dictionary: {compressed}");
        assert!(
            from_batches > 250,
            "only {from_batches} frames came from batches"
        );
        let (in_order, faults) = run_zstd(|s| Box::new(Zstd::new(s)), &file);
        assert!(in_order == texts.concat() && faults.is_empty());
    }
}

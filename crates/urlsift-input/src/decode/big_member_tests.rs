//! One big gzip member on several threads (`big_member.rs`): whole or
//! damaged, the bytes handed out and the faults are exactly the in-order
//! decoder's.

use std::fs::File;
use std::io;

use super::big_member::{BigMember, TAIL, worth_it};
use super::hold;
use super::tests::{Header, Member, drain, gzip_file, member, urls};
use super::*;

/// What a decoder handed out: the bytes, and each fault with how many
/// bytes were out before it and what it set aside.
type Drained = (Vec<u8>, Vec<(usize, String, Vec<u8>)>);

fn summed((out, faults): (Vec<u8>, Vec<(usize, io::Error)>)) -> Drained {
    let faults = faults
        .into_iter()
        .map(|(at, e)| {
            let set_aside = decode_error(&e)
                .and_then(|d| d.damaged.as_ref())
                .map_or_else(Vec::new, |d| d.bytes.to_vec());
            (at, e.to_string(), set_aside)
        })
        .collect();
    (out, faults)
}

/// `bytes` written to a file of their own, opened.
fn file_of(bytes: &[u8]) -> (tempfile::TempDir, File) {
    let dir = tempfile::Builder::new()
        .prefix("urlsift-test-big-member-")
        .tempdir()
        .unwrap();
    let path = dir.path().join("big.gz");
    std::fs::write(&path, bytes).unwrap();
    let file = File::open(&path).unwrap();
    (dir, file)
}

/// `bytes` decoded by the big-member decoder on four threads and in
/// order, `step` bytes at a time: both results, and how many bytes the
/// big-member decoder had handed out when it fell back (`None`: it did
/// not).
fn both(bytes: &[u8], step: usize) -> (Drained, Drained, Option<u64>) {
    let (_dir, file) = file_of(bytes);
    let mut in_order = decoder(
        Compression::Gzip,
        Source::new(Box::new(file.try_clone().unwrap())),
        1,
        None,
    );
    let in_order = summed(drain(&mut *in_order, step));
    let mut big = BigMember::new(file, 4);
    let got = summed(drain(&mut big, step));
    (got, in_order, big.out_before_fallback())
}

/// A member of `lines` URL lines compressed fast (the usual big `.gz`).
fn big(lines: usize, seed: u64) -> Member {
    member(&urls(lines, seed), Header::default(), 1)
}

#[test]
fn a_whole_big_member_decodes_on_threads_as_in_order() {
    let m = big(400_000, 1);
    assert!(m.data.len() > TAIL + (2 << 20), "{} bytes", m.data.len());
    let small = member(&urls(2000, 2), Header::default(), 6);
    for bytes in [m.bytes.clone(), gzip_file(&[m, small])] {
        let (got, in_order, fell_back) = both(&bytes, 1 << 16);
        assert_eq!(fell_back, None, "whole: no fallback");
        assert!(got.1.is_empty(), "{:?}", got.1);
        assert!(got == in_order);
    }
}

/// Damage anywhere: the faults, their places and what they set aside are
/// the in-order decoder's, and so are the bytes before and after them,
/// including the ones handed out before the parallel decoder failed.
#[test]
fn a_damaged_big_member_gives_the_in_order_faults() {
    let m = big(400_000, 3);
    let n = m.bytes.len();
    let small = |seed| member(&urls(3000, seed), Header::default(), 6);
    let (s1, s2) = (small(4), small(5));
    let mut cases: Vec<(&str, Vec<u8>)> = Vec::new();
    for cut in [m.body.start + 100, n / 2, n - 20_000, n - 5] {
        cases.push(("cut", m.bytes[..cut].to_vec()));
    }
    let mut crc = m.bytes.clone();
    crc[n - 6] ^= 1;
    cases.push(("CRC", crc));
    for at in [m.body.start + 50_000, n / 2, n - 30_000] {
        let mut bad = m.bytes.clone();
        bad[at] ^= 0x55;
        cases.push(("data", bad));
    }
    // A small member after the big one fails its CRC: its bytes are set
    // aside, never handed out, and decoding resumes at the next.
    let mut bad_small = s1.bytes.clone();
    let k = bad_small.len() - 6;
    bad_small[k] ^= 1;
    cases.push((
        "small member's CRC",
        [&m.bytes[..], &bad_small, &s2.bytes].concat(),
    ));
    // The same, with more than the tail's worth of members after it.
    let after: Vec<Member> = (0..100).map(|k| small(100 + k)).collect();
    assert!(after.iter().map(|m| m.data.len()).sum::<usize>() > TAIL);
    cases.push((
        "small member's CRC, more after",
        [&m.bytes[..], &bad_small, &gzip_file(&after)].concat(),
    ));
    // Headers the in-order decoder refuses: a reserved flag, another
    // compression method, a header CRC that does not match.
    for (what, at, bits) in [("reserved flag", 3, 0x20u8), ("method", 2, 0x01)] {
        let mut bad = m.bytes.clone();
        bad[at] ^= bits;
        cases.push((what, bad));
    }
    let hcrc = Header {
        hcrc: true,
        name: true,
        ..Header::default()
    };
    let with_hcrc = member(&urls(400_000, 11), hcrc, 1);
    let mut bad = with_hcrc.bytes.clone();
    // (The CRC-16 is the header's last two bytes.)
    bad[with_hcrc.body.start - 2] ^= 1;
    cases.push(("header CRC", bad));
    cases.push(("a header CRC that matches", with_hcrc.bytes));
    cases.push(("trailing garbage", [&m.bytes[..], b"garbage\n"].concat()));
    cases.push(("zero padding", [&m.bytes[..], &[0; 5000]].concat()));
    let mut handed_out_first = 0;
    for (what, bytes) in &cases {
        for step in [1 << 16, 100_003] {
            let (got, in_order, fell_back) = both(bytes, step);
            assert!(
                got == in_order,
                "{what}: {:?} vs {:?}",
                (got.0.len(), &got.1),
                (in_order.0.len(), &in_order.1)
            );
            if fell_back.is_some_and(|k| k > hold::LIMIT as u64) {
                handed_out_first += 1;
            }
        }
    }
    assert!(
        handed_out_first > 0,
        "some fallbacks came after bytes went out"
    );
}

#[test]
fn only_a_big_first_member_with_three_cores_is_worth_it() {
    let m = big(400_000, 6);
    let (_dir, mut file) = file_of(&m.bytes);
    assert!(worth_it(&mut file, 3).unwrap());
    assert_eq!(io::Seek::stream_position(&mut file).unwrap(), 0);
    assert!(!worth_it(&mut file, 2).unwrap());
    let small = member(&urls(2000, 7), Header::default(), 6);
    let (_dir, mut file) = file_of(&gzip_file(&[small, m]));
    assert!(!worth_it(&mut file, 16).unwrap());
    let (_dir, mut file) = file_of(b"\x1f\x8b\x08 not gzip");
    assert!(!worth_it(&mut file, 16).unwrap());
}

/// Every byte read from `input` and every fault's message, in order.
fn read_all(input: Input) -> (Vec<u8>, Vec<String>) {
    let mut reader = input.into_reader();
    let (mut out, mut faults) = (Vec::new(), Vec::new());
    let mut buf = vec![0; 1 << 16];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return (out, faults),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => {
                faults.push(format!("{} at {}", e, out.len()));
                if !resumes(&e) {
                    return (out, faults);
                }
            }
        }
    }
}

/// A file `gzip` wrote, opened for eight cores: decoded on several
/// threads, it reads as `gzip -dc` reads it, and damaged, as the in-order
/// decoder of one core reads it.
#[test]
fn a_file_gzip_wrote_opens_on_threads_as_in_order() {
    use std::io::Read;
    let data = urls(400_000, 9);
    let (dir, _) = file_of(b"");
    std::fs::write(dir.path().join("plain.txt"), &data).unwrap();
    let gzip = |args: &[&str]| {
        let out = std::process::Command::new("gzip")
            .args(args)
            .current_dir(dir.path())
            .output()
            .expect("gzip is needed by this test");
        out.stdout
    };
    let gz = gzip(&["-1", "-c", "plain.txt"]);
    let path = dir.path().join("plain.txt.gz");
    std::fs::write(&path, &gz).unwrap();
    let mut whole = Vec::new();
    open_with(&path, 8)
        .unwrap()
        .into_reader()
        .read_to_end(&mut whole)
        .unwrap();
    assert!(whole == gzip(&["-dc", "plain.txt.gz"]) && whole == data);
    let n = gz.len();
    let mut bad = gz.clone();
    bad[n * 6 / 10] ^= 0x55;
    for damaged in [gz[..n * 7 / 10].to_vec(), bad] {
        std::fs::write(&path, &damaged).unwrap();
        let threads = read_all(open_with(&path, 8).unwrap());
        let in_order = read_all(open_with(&path, 1).unwrap());
        assert!(!in_order.1.is_empty() && in_order.0.len() > TAIL);
        assert!(threads == in_order, "{:?} vs {:?}", threads.1, in_order.1);
    }
}

//! The decoders against references: for every cut of a small input (and
//! some of a big one), the bytes handed out before the error equal what an
//! eager decoder gets from the same bytes (the inflater or libzstd fed one
//! byte at a time, which hands out each byte as soon as it is decodable),
//! and `gzip -dc` / `zstd -dc` agree on the big input. Also: multi-member
//! inputs, empty members, every gzip header field, trailing garbage and
//! padding, damaged data and resuming after it, and offsets. The zstd
//! decoder's own tests are in `zstd_tests.rs`; the external tools, the ring
//! thread and `open` in `ring_tests.rs`.

use std::io::{Cursor, Write};
use std::ops::Range;

use flate2::{Crc, Decompress, FlushDecompress};

use super::*;

/// URL-like lines, different for each seed.
pub(super) fn urls(lines: usize, seed: u64) -> Vec<u8> {
    let mut x = seed;
    let mut out = Vec::new();
    for i in 0..lines {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let host = x >> 58;
        let query = (x >> 20) & 0xfffff;
        writeln!(out, "https://h{host}.example/{}/p?q={query}", i % 97).unwrap();
    }
    out
}

/// Incompressible bytes (zstd stores them as raw blocks).
pub(super) fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// A decoder under test, made from its source.
pub(super) type Make = fn(Source) -> Box<dyn Decode>;

/// The gzip decoders: in order, and in batches of tiny segments (so the
/// batches' guessed splits fall everywhere, real or not).
pub(super) const GZIP_DECODERS: [(&str, Make); 4] = [
    ("in order", |s| Box::new(gzip::Gzip::new(s))),
    ("the default", |s| {
        decoder(Compression::Gzip, s, crate::cores::machine(), None)
    }),
    ("2 jobs x 64 bytes", |s| {
        Box::new(parallel::Members::<gzip::Gzip>::with_jobs(s, 2, 64))
    }),
    ("3 jobs x 1000 bytes", |s| {
        Box::new(parallel::Members::<gzip::Gzip>::with_jobs(s, 3, 1000))
    }),
];

/// Decodes `data` with the decoder alone, reading `cap` compressed bytes
/// at a time into `step`-byte slices. Checks that a fault, once returned,
/// is returned again.
/// Where each of pieces of these lengths starts, laid end to end.
pub(super) fn starts(lengths: impl IntoIterator<Item = usize>) -> Vec<usize> {
    lengths
        .into_iter()
        .scan(0, |at, len| {
            let start = *at;
            *at += len;
            Some(start)
        })
        .collect()
}

pub(super) fn decode_with(
    format: Compression,
    data: &[u8],
    cap: usize,
    step: usize,
) -> (Vec<u8>, Option<io::Error>) {
    decode_by(default_decoder(format), data, cap, step)
}

pub(super) fn decode_by(
    make: Make,
    data: &[u8],
    cap: usize,
    step: usize,
) -> (Vec<u8>, Option<io::Error>) {
    let (out, faults) = decode_all_by(make, data, cap, step);
    (out, faults.into_iter().next())
}

/// Decodes `data` to its end, past the faults decoding resumes after:
/// every byte handed out, and every fault in order (all but the last
/// resumed; the last one ended the stream unless it was resumed too).
pub(super) fn decode_all_by(
    make: Make,
    data: &[u8],
    cap: usize,
    step: usize,
) -> (Vec<u8>, Vec<io::Error>) {
    let (out, faults) = decode_all_placed(make, data, cap, step);
    (out, faults.into_iter().map(|(_, e)| e).collect())
}

/// [`decode_all_by`], with how many bytes were out before each fault.
pub(super) fn decode_all_placed(
    make: Make,
    data: &[u8],
    cap: usize,
    step: usize,
) -> (Vec<u8>, Vec<(usize, io::Error)>) {
    let source = Source::with_capacity(Box::new(Cursor::new(data.to_vec())), cap);
    drain(&mut *make(source), step)
}

/// Every byte `d` hands out, `step` at a time, and every fault, with how
/// many bytes were out before each (see [`decode_all_by`]).
pub(super) fn drain(d: &mut dyn Decode, step: usize) -> (Vec<u8>, Vec<(usize, io::Error)>) {
    let mut out = Vec::new();
    let mut faults = Vec::new();
    let mut buf = vec![0; step];
    // Every other turn, a buffer the decoder has ready is taken whole
    // (as the ring takes them), so both ways and their mix are checked.
    let mut turn = 0u64;
    loop {
        turn += 1;
        if turn.is_multiple_of(2)
            && let Some((ready, len, _)) = d.take_ready()
        {
            out.extend_from_slice(&ready[..len]);
            d.recycle(ready);
            continue;
        }
        match d.decode(&mut buf) {
            Ok(0) => {
                assert_eq!(d.decode(&mut buf).unwrap(), 0, "the end stays the end");
                return (out, faults);
            }
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if resumes(&e) => faults.push((out.len(), e)),
            Err(e) => {
                let again = d.decode(&mut buf).expect_err("a fault stays a fault");
                assert_eq!(again.to_string(), e.to_string());
                faults.push((out.len(), e));
                return (out, faults);
            }
        }
    }
}

pub(super) fn decode(format: Compression, data: &[u8]) -> (Vec<u8>, Option<io::Error>) {
    decode_with(format, data, 1 << 16, 1 << 16)
}

pub(super) fn decode_all(format: Compression, data: &[u8]) -> (Vec<u8>, Vec<io::Error>) {
    decode_all_by(default_decoder(format), data, 1 << 16, 1 << 16)
}

/// The decoder a `format` input gets.
pub(super) fn default_decoder(format: Compression) -> Make {
    match format {
        Compression::Gzip => |s| decoder(Compression::Gzip, s, crate::cores::machine(), None),
        Compression::Zstd => |s| decoder(Compression::Zstd, s, crate::cores::machine(), None),
    }
}

pub(super) fn fault(e: &Option<io::Error>) -> Option<&DecodeError> {
    e.as_ref()
        .map(|e| decode_error(e).unwrap_or_else(|| panic!("not a decoding fault: {e}")))
}

// ---- gzip -------------------------------------------------------------

/// What a test member's header carries.
#[derive(Default, Clone, Copy)]
pub(super) struct Header {
    pub extra: bool,
    pub name: bool,
    pub comment: bool,
    pub hcrc: bool,
}

/// A gzip member built field by field, and where its DEFLATE data lies.
pub(super) struct Member {
    pub bytes: Vec<u8>,
    pub body: Range<usize>,
    pub data: Vec<u8>,
}

pub(super) fn member(data: &[u8], header: Header, level: u32) -> Member {
    let flags = u8::from(header.hcrc) << 1
        | u8::from(header.extra) << 2
        | u8::from(header.name) << 3
        | u8::from(header.comment) << 4;
    let mut bytes = vec![0x1f, 0x8b, 8, flags, 1, 2, 3, 4, 0, 3];
    if header.extra {
        let extra = b"BC\x02\x00\x07\x00 and more";
        bytes.extend_from_slice(&(extra.len() as u16).to_le_bytes());
        bytes.extend_from_slice(extra);
    }
    if header.name {
        bytes.extend_from_slice(b"urls.txt\0");
    }
    if header.comment {
        bytes.extend_from_slice(b"a comment, with \x1f\x8b\x08 in it\0");
    }
    if header.hcrc {
        let mut crc = Crc::new();
        crc.update(&bytes);
        bytes.extend_from_slice(&(crc.sum() as u16).to_le_bytes());
    }
    let start = bytes.len();
    let mut deflate =
        flate2::write::DeflateEncoder::new(&mut bytes, flate2::Compression::new(level));
    deflate.write_all(data).unwrap();
    deflate.finish().unwrap();
    let body = start..bytes.len();
    let mut crc = Crc::new();
    crc.update(data);
    bytes.extend_from_slice(&crc.sum().to_le_bytes());
    bytes.extend_from_slice(&(data.len() as u32).to_le_bytes());
    Member {
        bytes,
        body,
        data: data.to_vec(),
    }
}

/// Raw DEFLATE data inflated one byte at a time, as eagerly as it can
/// be: the bytes decoded, how many were out after each input byte
/// (`lengths[k]`: after the first k), and whether the inflater failed.
pub(super) fn inflate_eagerly(body: &[u8]) -> (Vec<u8>, Vec<usize>, bool) {
    let mut inflate = Decompress::new(false);
    let mut out = Vec::new();
    let mut lengths = vec![0];
    let mut buf = vec![0; 1 << 16];
    for byte in body.iter().map(std::slice::from_ref) {
        let mut input = byte;
        loop {
            let (i, o) = (inflate.total_in(), inflate.total_out());
            let result = inflate.decompress(input, &mut buf, FlushDecompress::None);
            let made = (inflate.total_out() - o) as usize;
            out.extend_from_slice(&buf[..made]);
            input = &input[(inflate.total_in() - i) as usize..];
            match result {
                Err(_) => return (out, lengths, true),
                Ok(flate2::Status::StreamEnd) => {
                    lengths.push(out.len());
                    return (out, lengths, false);
                }
                Ok(_) if made == 0 && input.is_empty() => break,
                Ok(_) => {}
            }
        }
        lengths.push(out.len());
    }
    (out, lengths, false)
}

/// What an eager decoder gets from `members` laid end to end, and how
/// much of it from their first `k` bytes (`lengths[k]`): whole members,
/// then the decodable part of the one that is cut (all of its data once
/// its DEFLATE data is whole).
pub(super) fn gzip_eagerly(members: &[Member]) -> (Vec<u8>, Vec<usize>) {
    let mut lengths = Vec::new();
    let mut base = 0;
    for m in members {
        let (out, body_lengths, failed) = inflate_eagerly(&m.bytes[m.body.clone()]);
        assert!(!failed && out == m.data, "the test's own member is sound");
        assert_eq!(body_lengths.len(), m.body.len() + 1);
        lengths.extend(std::iter::repeat_n(base, m.body.start));
        lengths.extend(body_lengths.iter().map(|l| base + l));
        base += m.data.len();
        lengths.extend(std::iter::repeat_n(base, m.bytes.len() - m.body.end - 1));
    }
    lengths.push(base);
    let data = members.iter().flat_map(|m| m.data.clone()).collect();
    (data, lengths)
}

pub(super) fn gzip_file(members: &[Member]) -> Vec<u8> {
    members.iter().flat_map(|m| m.bytes.clone()).collect()
}

/// Members of every shape: header fields, an empty member, several sizes.
pub(super) fn assorted_members() -> Vec<Member> {
    let all = Header {
        extra: true,
        name: true,
        comment: true,
        hcrc: true,
    };
    vec![
        member(&urls(40, 1), Header::default(), 6),
        member(b"", Header::default(), 6),
        member(&urls(60, 2), all, 1),
        member(
            &urls(3, 3),
            Header {
                name: true,
                ..Header::default()
            },
            9,
        ),
        member(
            &noise(700, 4),
            Header {
                extra: true,
                ..Header::default()
            },
            6,
        ),
        member(b"", all, 0),
        member(
            &urls(30, 5),
            Header {
                hcrc: true,
                ..Header::default()
            },
            0,
        ),
    ]
}

#[test]
fn gzip_members_of_every_shape_decode_whole() {
    let members = assorted_members();
    let file = gzip_file(&members);
    let expected: Vec<u8> = members.iter().flat_map(|m| m.data.clone()).collect();
    let sizes = [
        (1 << 16, 1 << 16),
        (16, 1),
        (17, 100),
        (64, 7),
        (1000, 4096),
    ];
    for (name, make) in GZIP_DECODERS {
        for (cap, step) in sizes {
            let (out, err) = decode_by(make, &file, cap, step);
            assert!(err.is_none(), "{name}, cap {cap}, step {step}: {err:?}");
            assert_eq!(out, expected, "{name}, cap {cap}, step {step}");
        }
    }
    // A file that is one empty member.
    let empty = member(b"", Header::default(), 6);
    assert_eq!(decode(Compression::Gzip, &empty.bytes).0, b"");
}

/// The flate2 encoders' output (what the command's CLI tests write) decodes too.
#[test]
fn gzip_from_flate2_encoders_decodes() {
    let data = urls(5000, 6);
    let mut gz = flate2::GzBuilder::new()
        .filename("x.txt")
        .comment("c")
        .extra(vec![1, 2, 3])
        .write(Vec::new(), flate2::Compression::best());
    gz.write_all(&data).unwrap();
    let mut file = gz.finish().unwrap();
    let mut second = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    second.write_all(&data[..1000]).unwrap();
    file.extend(second.finish().unwrap());
    let (out, err) = decode(Compression::Gzip, &file);
    assert!(err.is_none(), "{err:?}");
    assert_eq!(out, [&data[..], &data[..1000]].concat());
}

#[test]
fn gzip_cut_anywhere_hands_out_everything_decodable_then_truncation() {
    let members = assorted_members();
    let file = gzip_file(&members);
    let starts = starts(members.iter().map(|m| m.bytes.len()));
    let (all, lengths) = gzip_eagerly(&members);
    assert_eq!(lengths.len(), file.len() + 1);
    for (i, (name, make)) in GZIP_DECODERS.into_iter().enumerate() {
        // Every cut in order and by default; batches of tiny segments are
        // slower to set up (a thread per job and batch): every 7th cut.
        for cut in (1..=file.len()).step_by(if i < 2 { 1 } else { 7 }) {
            let (out, err) = decode_by(make, &file[..cut], 64, 1000);
            assert_eq!(out, all[..lengths[cut]], "{name}: cut at {cut}");
            let expected = expected_cut(Compression::Gzip, &starts, file.len(), cut);
            assert_eq!(fault(&err), expected.as_ref(), "{name}: cut at {cut}");
        }
    }
}

/// The fault a cut at `cut` should give, for members or frames starting at
/// `starts` in a file of `len` bytes: none at their edges, trailing
/// garbage inside a later one's magic bytes (a new member or frame starts
/// with all of them, as `gzip -d` has it), else truncation.
pub(super) fn expected_cut(
    format: Compression,
    starts: &[usize],
    len: usize,
    cut: usize,
) -> Option<DecodeError> {
    if cut == len || starts.contains(&cut) {
        return None;
    }
    let k = starts.iter().rposition(|&s| s < cut).unwrap();
    let magic = match format {
        Compression::Gzip => 2,
        Compression::Zstd => 4,
    };
    let (fault, offset, unit) = if k > 0 && cut - starts[k] < magic {
        (Fault::TrailingGarbage, starts[k], None)
    } else {
        (
            Fault::Truncated,
            cut,
            Some((k as u64 + 1, starts[k] as u64)),
        )
    };
    Some(DecodeError {
        format,
        fault,
        offset: offset as u64,
        unit,
        resumed: None,
        damaged: None,
        aligned: false,
    })
}

#[test]
fn gzip_header_faults_are_placed_exactly() {
    let m = member(
        b"hello\n",
        Header {
            hcrc: true,
            name: true,
            ..Header::default()
        },
        6,
    );
    let mut file = urls_gz(50);
    let second = file.len() as u64;
    file.extend_from_slice(&m.bytes);
    let name_end = 10 + "urls.txt\0".len();
    let cases: [(usize, u8, &str, u64); 3] = [
        (2, 7, "unknown compression method", 2),
        (3, 0x28, "reserved header flags are set", 3),
        (name_end, 0, "header CRC mismatch", name_end as u64),
    ];
    for (at, value, reason, offset) in cases {
        let mut bad = file.clone();
        bad[second as usize + at] ^= value.max(1);
        let (out, err) = decode(Compression::Gzip, &bad);
        assert_eq!(out, urls(50, 7), "the first member is whole");
        let expected = DecodeError {
            format: Compression::Gzip,
            fault: Fault::Corrupt(reason.into()),
            offset: second + offset,
            unit: Some((2, second)),
            resumed: None,
            damaged: None,
            aligned: false,
        };
        assert_eq!(fault(&err), Some(&expected));
        assert_eq!(
            err.unwrap().to_string(),
            format!(
                "gzip data is corrupt at byte {} (member 2 started at byte {second}): {reason}",
                second + offset
            )
        );
    }
}

pub(super) fn urls_gz(lines: usize) -> Vec<u8> {
    member(&urls(lines, 7), Header::default(), 6).bytes
}

/// The bytes a fault sets aside as damaged (empty when none).
pub(super) fn damaged(e: &DecodeError) -> &[u8] {
    e.damaged.as_ref().map_or(&[][..], |d| &d.bytes[..])
}

/// Damaged DEFLATE data: the bytes decoded before the inflater noticed
/// (or, when only the CRC notices, all of them) are not handed out as data
/// but come with the fault, set aside as damaged: whole when the CRC alone
/// noticed and the length is right.
#[test]
fn gzip_damage_sets_aside_what_was_decoded_with_the_fault() {
    let data = urls(3000, 8);
    let m = member(&data, Header::default(), 6);
    let (mut seen_crc, mut seen_whole) = (false, false);
    for (i, at) in (m.body.start..m.body.end).step_by(197).enumerate() {
        let mut bad = m.bytes.clone();
        bad[at] ^= 1 << (i % 8);
        let (out, err) = decode(Compression::Gzip, &bad);
        let (expected, _, inflater_failed) = inflate_eagerly(&bad[m.body.clone()]);
        assert!(
            out.is_empty(),
            "damage at {at}: a damaged member's bytes went out"
        );
        let e = fault(&err).unwrap_or_else(|| panic!("damage at {at} went unnoticed"));
        assert_eq!(damaged(e), expected, "damage at {at}");
        let whole = e.damaged.as_ref().is_some_and(|d| d.whole);
        let Fault::Corrupt(reason) = &e.fault else {
            panic!("damage at {at}: {e}")
        };
        assert_eq!(
            whole,
            reason.starts_with("CRC-32") && expected.len() == data.len(),
            "damage at {at}: {e}"
        );
        seen_whole |= whole;
        if !inflater_failed {
            seen_crc |= reason.starts_with("CRC-32") || reason.starts_with("length");
        } else {
            assert!(
                e.offset >= at as u64,
                "damage at {at} reported at {}",
                e.offset
            );
            // Named for what it is (zlib-rs says "repeated call with bad
            // state" for any bad data).
            assert!(reason.starts_with("invalid DEFLATE data"), "{reason}");
        }
    }
    assert!(seen_crc, "some damage is caught only by the CRC");
    assert!(seen_whole, "some damage leaves the length right");
}

/// A member that decodes to more than the hold's limit cannot wait for its
/// CRC: its bytes go out as they come (as `gzip -dc` gives them), and
/// damage found past the limit sets nothing aside. One that stays under
/// the limit and is cut hands out every byte decoded (a cut is not damage).
#[test]
fn gzip_members_past_the_hold_limit_stream() {
    let data = urls(300_000, 9);
    assert!(data.len() > hold::LIMIT + (1 << 20));
    let m = member(&data, Header::default(), 1);
    let mut bad = m.bytes.clone();
    let at = m.body.end - 200;
    bad[at] ^= 0x55;
    let (out, err) = decode(Compression::Gzip, &bad);
    let e = fault(&err).expect("damage is reported");
    let (eager, _, _) = inflate_eagerly(&bad[m.body.clone()]);
    assert!(out.len() > hold::LIMIT, "{} bytes out", out.len());
    assert!(
        [&out[..], damaged(e)].concat() == eager,
        "every decoded byte is out or set aside"
    );
    // A small member cut short: what was decoded is data.
    let small = member(&urls(500, 10), Header::default(), 6);
    let cut = &small.bytes[..small.body.end - 10];
    let (out, err) = decode(Compression::Gzip, cut);
    assert_eq!(fault(&err).unwrap().fault, Fault::Truncated);
    let (eager, _, _) = inflate_eagerly(&small.bytes[small.body.start..small.body.end - 10]);
    assert!(out == eager && !out.is_empty());
}

#[test]
fn gzip_trailing_garbage_comes_after_all_members() {
    let members = assorted_members();
    let file = gzip_file(&members);
    let expected: Vec<u8> = members.iter().flat_map(|m| m.data.clone()).collect();
    for tail in [
        &b"garbage\n"[..],
        b"\x1f",
        b"\x1f\x8c",
        b"\0\0\0x",
        b"\x00\x1f\x8b",
    ] {
        let (out, err) = decode(Compression::Gzip, &[&file[..], tail].concat());
        assert_eq!(out, expected, "tail {tail:?}");
        let err = err.expect("trailing garbage is reported");
        assert!(is_trailing_garbage(&err), "tail {tail:?}: {err}");
        assert_eq!(
            err.to_string(),
            format!(
                "gzip data is followed by trailing garbage at byte {} (every member before it was decoded)",
                file.len()
            )
        );
    }
    // Zero padding is not garbage (gzip ignores it too).
    let (out, err) = decode(Compression::Gzip, &[&file[..], &[0; 5000]].concat());
    assert_eq!((out, err.map(|e| e.to_string())), (expected, None));
    // A new member's magic starts a member, which then is truncated.
    let (_, err) = decode(Compression::Gzip, &[&file[..], b"\x1f\x8b"].concat());
    assert_eq!(fault(&err).unwrap().fault, Fault::Truncated);
}

/// Damage in one member of several: the members before it come out whole,
/// then the fault, which carries what the inflater decoded of the damaged
/// one (all of it when only the CRC notices) set aside, resumed at the
/// next member, which comes out whole. Nothing decodable is lost, and
/// nothing damaged is handed out as data.
#[test]
fn gzip_damage_in_one_member_resumes_at_the_next() {
    let datas = [urls(800, 30), urls(1500, 31), urls(600, 32)];
    let members: Vec<Member> = datas
        .iter()
        .map(|d| member(d, Header::default(), 6))
        .collect();
    let file: Vec<u8> = members.iter().flat_map(|m| m.bytes.clone()).collect();
    let second = members[0].bytes.len();
    let third = second + members[1].bytes.len();
    let body = second + members[1].body.start..second + members[1].body.end;
    let (mut cases, mut crc_only) = (0, 0);
    for (i, at) in body.clone().step_by(89).enumerate() {
        let mut bad = file.clone();
        bad[at] ^= 1 << (i % 8);
        let (damaged, _, inflater_failed) = inflate_eagerly(&bad[body.start..]);
        let (out, faults) = decode_all(Compression::Gzip, &bad);
        let [fault] = &faults[..] else {
            panic!("damage at {at}: {faults:?}")
        };
        let fault = decode_error(fault).expect("a decoding fault");
        if fault.offset > third as u64 {
            // The inflater read on into the next member before it
            // noticed: that one is part of the damage.
            assert!(inflater_failed && fault.resumed.is_none(), "{fault}");
            continue;
        }
        cases += 1;
        crc_only += usize::from(!inflater_failed);
        assert_eq!(fault.unit, Some((2, second as u64)), "damage at {at}");
        assert_eq!(fault.resumed, Some(third as u64), "damage at {at}: {fault}");
        assert!(out == [&datas[0][..], &datas[2]].concat(), "damage at {at}");
        assert!(super::tests::damaged(fault) == damaged, "damage at {at}");
        assert!(
            fault.to_string().ends_with(&format!(
                "; decoding went on with the next member found, at byte {third}"
            )),
            "{fault}"
        );
    }
    let total = body.len().div_ceil(89);
    assert!(cases * 10 >= total * 9, "{cases} of {total} resumed");
    assert!(crc_only > 0, "some damage is caught only by the CRC");
}

/// The member after a damaged one is found whatever its header's OS byte
/// says: writers put values there that RFC 1952 does not list (19 in every
/// member of warcio's `example.warc.gz`).
#[test]
fn the_member_after_damage_is_found_whatever_its_os_byte() {
    let datas = [urls(300, 40), urls(300, 41), urls(300, 42)];
    let mut members: Vec<Member> = datas
        .iter()
        .map(|d| member(d, Header::default(), 6))
        .collect();
    for m in &mut members {
        m.bytes[9] = 19;
    }
    // The second member's CRC-32 no longer matches.
    let crc_at = members[1].bytes.len() - 8;
    members[1].bytes[crc_at] ^= 0xff;
    let file: Vec<u8> = members.iter().flat_map(|m| m.bytes.clone()).collect();
    let third = (members[0].bytes.len() + members[1].bytes.len()) as u64;
    let (out, faults) = decode_all(Compression::Gzip, &file);
    let [fault] = &faults[..] else {
        panic!("{faults:?}")
    };
    assert_eq!(decode_error(fault).unwrap().resumed, Some(third), "{fault}");
    assert!(out == [&datas[0][..], &datas[2]].concat());
}

/// Bytes between two members that are not a member (a damaged header, a
/// splice) are skipped up to the next member; with no member after them,
/// they are trailing garbage as before.
#[test]
fn gzip_garbage_between_members_is_skipped() {
    let members = assorted_members();
    let file = gzip_file(&members);
    let expected: Vec<u8> = members.iter().flat_map(|m| m.data.clone()).collect();
    let first = members[0].bytes.len();
    for junk in [
        &b"garbage\n"[..],
        b"\x1f",
        b"\x1f\x8b\x08\xff",
        b"\x1f\x8b\x09",
    ] {
        let spliced = [&file[..first], junk, &file[first..]].concat();
        let (out, faults) = decode_all(Compression::Gzip, &spliced);
        assert!(out == expected, "junk {junk:?}");
        let [fault] = &faults[..] else {
            panic!("junk {junk:?}: {faults:?}")
        };
        let fault = decode_error(fault).expect("a decoding fault");
        assert_eq!(fault.resumed, Some((first + junk.len()) as u64), "{fault}");
        // Where the junk starts, or the header field it breaks.
        assert!(
            (first..first + junk.len()).contains(&(fault.offset as usize)),
            "{fault}"
        );
    }
    // A damaged magic number: that member is lost, the rest decode.
    let mut bad = file.clone();
    bad[first] = b'X';
    let (out, faults) = decode_all(Compression::Gzip, &bad);
    let second_end = first + members[1].bytes.len();
    let rest: Vec<u8> = members[2..].iter().flat_map(|m| m.data.clone()).collect();
    assert!(out == [&members[0].data[..], &rest].concat());
    assert_eq!(faults.len(), 1);
    assert_eq!(
        decode_error(&faults[0]).unwrap().resumed,
        Some(second_end as u64)
    );
}

/// A member whose header CRC does not match, though the header is
/// otherwise plausible: decoding resumes at the next member, past it. (The
/// header is read byte by byte, so gzip never found a header twice; zstd
/// did, see `zstd_tests.rs`. Both now start the search past the failed
/// unit's first byte.)
#[test]
fn a_member_refused_at_its_header_is_not_found_again() {
    let hcrc = Header {
        hcrc: true,
        ..Header::default()
    };
    let mut first = member(&urls(50, 23), hcrc, 6);
    let second = member(&urls(40, 24), Header::default(), 6);
    // The two header CRC bytes come right before the DEFLATE data.
    first.bytes[first.body.start - 1] ^= 0xff;
    let file = [&first.bytes[..], &second.bytes].concat();
    for (name, make) in GZIP_DECODERS {
        let (out, faults) = decode_all_by(make, &file, 1 << 16, 1 << 16);
        assert!(out == urls(40, 24), "{name}: the second member, whole");
        let [fault] = &faults[..] else {
            panic!("{name}: {} faults", faults.len())
        };
        let fault = decode_error(fault).expect("a decoding fault");
        assert_eq!(
            fault.resumed,
            Some(first.bytes.len() as u64),
            "{name}: {fault}"
        );
    }
}

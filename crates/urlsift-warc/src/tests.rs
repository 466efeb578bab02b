//! The WARC record reader's tests: header lookup, payloads skipped, and
//! damaged lengths and stretches that lose no record after them.

use std::io;

use super::header::header_value_in;
use super::*;
use proptest::prelude::*;
use urlsift_simd::{self as simd, Runtime};

/// The plain reading of a header block that `header_value_in` must
/// agree with: every line after the first, split at its first ':',
/// the key trimmed (Unicode white space) and compared without case.
fn header_value_plain<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    text.split('\n').skip(1).find_map(|line| {
        let (k, v) = line.split_once(':')?;
        k.trim()
            .eq_ignore_ascii_case(name)
            .then(|| v.trim_matches([' ', '\t', '\r']))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    #[test]
    fn a_header_block_ends_at_its_first_blank_line(
        parts in proptest::collection::vec(
            prop_oneof![Just("a"), Just("\r"), Just("\n"), Just("\r\n"), Just("WARC/1.1")],
            0..60,
        ),
    ) {
        let text = parts.concat().into_bytes();
        // The first blank line: "\n", any number of "\r", "\n" ("\n\n",
        // "\n\r\n", and the doubled CRs some writers wrote).
        let end = (0..text.len()).find_map(|i| {
            let rest = text[i..].strip_prefix(b"\n")?;
            let crs = rest.iter().take_while(|&&b| b == b'\r').count();
            (rest.get(crs) == Some(&b'\n')).then_some(i + 2 + crs)
        });
        let mut reader = Reader::new(text.clone(), 0);
        let found = reader.header_len(&mut io::empty(), 1 << 20).unwrap().ok();
        prop_assert_eq!(found, end);
    }

    #[test]
    fn header_lookup_agrees_with_the_plain_reading(
        parts in proptest::collection::vec(
            prop_oneof![
                Just("a"), Just("A"), Just("b"), Just(":"), Just(" "), Just("\t"),
                Just("\r"), Just("\n"), Just("\u{b}"), Just("\u{a0}"), Just("\u{2003}"),
                Just("Content-Length"), Just("WARC-Target-URI"), Just("é"),
            ],
            0..40,
        ),
        name in prop_oneof![
            Just("a"), Just("A"), Just("ab"), Just(""), Just(" a"), Just("a:b"),
            Just("content-length"), Just("WARC-Target-URI"), Just("é"),
        ],
    ) {
        let text = parts.concat();
        let plain = header_value_plain(&text, name);
        prop_assert_eq!(header_value_in(simd::Scalar, &text, name), plain);
        prop_assert_eq!(header_value_in(Runtime, &text, name), plain);
    }
}

fn record(uri: Option<&str>, payload: &[u8]) -> Vec<u8> {
    let mut r = b"WARC/1.1\r\nWARC-Type: response\r\n".to_vec();
    if let Some(u) = uri {
        r.extend_from_slice(format!("WARC-Target-URI: {u}\r\n").as_bytes());
    }
    r.extend_from_slice(format!("Content-Length: {}\r\n\r\n", payload.len()).as_bytes());
    r.extend_from_slice(payload);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn read_all(input: &[u8], chunk: usize) -> Vec<(Option<String>, u64, Option<RecordFault>)> {
    let mut reader = Reader::new(Vec::new(), 0);
    let mut src = input;
    let mut out = Vec::new();
    loop {
        let (mut data, mut index) = (Vec::new(), Vec::new());
        let done = reader
            .read_chunk(&mut src, chunk, 1 << 20, &mut data, &mut index)
            .unwrap();
        for e in index {
            let text = std::str::from_utf8(&data[e.start..e.end]).ok();
            let url = text
                .and_then(|t| WarcField::new(None).value_in(Runtime, t).ok().flatten())
                .map(str::to_string);
            out.push((url, e.offset, e.bad));
        }
        if done {
            return out;
        }
    }
}

/// A damaged Content-Length (too long, too short, past the end of the
/// input) loses no record after it: the record's header stands, its
/// payload up to the next record is the bad part. Read input is
/// checked for lengths up to [`CHECKED`]; mapped input always (the
/// command's tests).
#[test]
fn a_wrong_content_length_loses_no_following_record() {
    let a = record(Some("http://a.example/"), b"payload a");
    let b = record(Some("http://b.example/"), b"payload b");
    let c = record(Some("http://c.example/"), b"payload c");
    for wrong in ["40", "900000"] {
        let bad = String::from_utf8(b.clone()).unwrap().replacen(
            "Content-Length: 9",
            &format!("Content-Length: {wrong}"),
            1,
        );
        let header = bad.find("\r\n\r\n").unwrap() + 4;
        let input = [&a[..], bad.as_bytes(), &c[..]].concat();
        let b_at = a.len() as u64;
        let c_at = (input.len() - c.len()) as u64;
        for chunk in [1, 100, 1 << 20] {
            assert_eq!(
                read_all(&input, chunk),
                vec![
                    (Some("http://a.example/".into()), 0, None),
                    (Some("http://b.example/".into()), b_at, None),
                    (None, b_at + header as u64, Some(RecordFault::WarcBadLength)),
                    (Some("http://c.example/".into()), c_at, None),
                ],
                "Content-Length {wrong}, chunk {chunk}"
            );
        }
    }
    // Too short: the rest of the payload is a bad stretch up to the
    // next header, as any bytes between records are.
    let bad =
        String::from_utf8(b.clone())
            .unwrap()
            .replacen("Content-Length: 9", "Content-Length: 2", 1);
    let header = bad.find("\r\n\r\n").unwrap() + 4;
    let input = [&a[..], bad.as_bytes(), &c[..]].concat();
    let b_at = a.len() as u64;
    let c_at = (input.len() - c.len()) as u64;
    assert_eq!(
        read_all(&input, 100),
        vec![
            (Some("http://a.example/".into()), 0, None),
            (Some("http://b.example/".into()), b_at, None),
            (
                None,
                b_at + header as u64 + 2,
                Some(RecordFault::BadWarcHeader)
            ),
            (Some("http://c.example/".into()), c_at, None),
        ]
    );
}

/// Payloads longer than [`CHECKED`] in read input are watched as they
/// are skipped: a length that runs past the end of the input, or whose
/// end is not a record's, loses no record after it; a right one over a
/// payload holding a record header is kept.
#[test]
fn a_wrong_long_content_length_in_read_input_loses_no_record() {
    let a = record(Some("http://a.example/"), b"payload a");
    let filler: Vec<Vec<u8>> = (0..300)
        .map(|i| record(Some(&format!("http://f{i}.example/")), &[b'x'; 10_000]))
        .collect();
    let c = record(Some("http://c.example/"), b"payload c");
    let tail = [filler.concat(), c.clone()].concat();
    // Lands inside a filler payload; past the end of the input.
    for wrong in ["1500000", "99999999999"] {
        let b = String::from_utf8(record(Some("http://b.example/"), b"payload b"))
            .unwrap()
            .replacen("Content-Length: 9", &format!("Content-Length: {wrong}"), 1);
        let header = b.find("\r\n\r\n").unwrap() + 4;
        let input = [&a[..], b.as_bytes(), &tail].concat();
        let b_at = a.len() as u64;
        let mut want = vec![
            (Some("http://a.example/".into()), 0, None),
            (Some("http://b.example/".into()), b_at, None),
            (None, b_at + header as u64, Some(RecordFault::WarcBadLength)),
        ];
        let mut at = (a.len() + b.len()) as u64;
        for (i, f) in filler.iter().enumerate() {
            want.push((Some(format!("http://f{i}.example/")), at, None));
            at += f.len() as u64;
        }
        want.push((Some("http://c.example/".into()), at, None));
        for chunk in [100, 1 << 20] {
            assert_eq!(
                read_all(&input, chunk),
                want,
                "Content-Length {wrong}, chunk {chunk}"
            );
        }
    }
    // A right length over a payload that holds a record header (a
    // WARC inside a WARC): skipped whole.
    let mut inner = vec![b'y'; 1_500_000];
    let held = [&b"\n"[..], &record(Some("http://inner.example/"), b"i")].concat();
    inner.splice(1000..1000, held);
    let big = record(Some("http://big.example/"), &inner);
    let input = [&a[..], &big, &c].concat();
    let c_at = (a.len() + big.len()) as u64;
    assert_eq!(
        read_all(&input, 100),
        vec![
            (Some("http://a.example/".into()), 0, None),
            (Some("http://big.example/".into()), a.len() as u64, None),
            (Some("http://c.example/".into()), c_at, None),
        ]
    );
    // Cut inside that payload, past the inner header: the input ends
    // before the claimed end, so (as in a mapped file) the length is
    // taken for wrong and the inner record is read.
    let cut = &input[..a.len() + 1_200_000];
    let read = read_all(cut, 100);
    assert_eq!(
        read[1],
        (Some("http://big.example/".into()), a.len() as u64, None)
    );
    assert_eq!(read[2].2, Some(RecordFault::WarcBadLength));
    assert_eq!(read[3].0.as_deref(), Some("http://inner.example/"));
}

#[test]
fn records_payloads_skipped_and_bad_stretches() {
    let mut input = record(None, b"warcinfo payload");
    let second = input.len() as u64;
    input.extend(record(
        Some("http://a.example/"),
        b"WARC/1.1\r\nnot a header\r\n",
    ));
    let third = input.len() as u64;
    input.extend_from_slice(b"garbage line\r\nmore\r\n");
    let fourth = input.len() as u64;
    input.extend(record(Some("<http://b.example/>"), &[0u8; 100_000]));
    let fifth = input.len() as u64;
    let mut cut = record(Some("http://c.example/"), &[1u8; 500]);
    cut.truncate(cut.len() - 300);
    input.extend(cut);
    for chunk in [1, 100, 1 << 20] {
        let got = read_all(&input, chunk);
        assert_eq!(
            got,
            vec![
                (None, 0, None),
                (Some("http://a.example/".into()), second, None),
                (None, third, Some(RecordFault::BadWarcHeader)),
                (Some("http://b.example/".into()), fourth, None),
                (
                    Some("http://c.example/".into()),
                    fifth,
                    Some(RecordFault::WarcTruncated)
                ),
            ],
            "chunk {chunk}"
        );
    }
}

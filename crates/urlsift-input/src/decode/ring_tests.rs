//! The decoders against the external tools (`gzip -dc`, `zstd -dc`) on a
//! big input cut at a few places, the ring thread (every byte, then the
//! fault again and again; a resumed fault once between its bytes; the
//! thread let go when the reader stops early), and `open` telling plain
//! files, pipes and compressed input apart.

use std::io::{Cursor, Read, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use super::tests::{Header, assorted_members, gzip_eagerly, gzip_file, member, urls, urls_gz};
use super::zstd_tests::{zstd_eagerly, zstd_frame};
use super::*;

/// A tool's output for `input` on stdin, and whether it exited 0. A
/// missing tool fails the test: these references are not optional.
fn tool(program: &str, args: &[&str], input: &[u8]) -> (Vec<u8>, bool) {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("this test needs `{program}` on PATH: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    (out.stdout, out.status.success())
}

/// A big input cut at a few places: the same bytes as the eager decoder
/// and as `gzip -dc` / `zstd -dc`, through the ring thread.
#[test]
fn big_cut_inputs_agree_with_gzip_and_zstd_tools() {
    let data = urls(120_000, 16);
    let gz = member(
        &data,
        Header {
            name: true,
            ..Header::default()
        },
        6,
    );
    let zst = zstd_frame(&data, 3, true);
    let (gzip_all, gzip_lengths) = gzip_eagerly(std::slice::from_ref(&gz));
    let (zstd_all, zstd_lengths) = zstd_eagerly(&zst);
    for (format, file) in [(Compression::Gzip, &gz.bytes), (Compression::Zstd, &zst)] {
        let (program, args) = match format {
            Compression::Gzip => ("gzip", ["-dc"]),
            Compression::Zstd => ("zstd", ["-dc"]),
        };
        for k in 1..=8 {
            let cut = file.len() * k / 9 + k;
            let source = Source::new(Box::new(Cursor::new(file[..cut].to_vec())));
            let mut decoded = Decoded::start(format, source, crate::cores::machine().into());
            let mut out = Vec::new();
            let err = decoded.read_to_end(&mut out).expect_err("truncated");
            assert_eq!(decode_error(&err).unwrap().offset, cut as u64);
            let reference = match format {
                Compression::Gzip => &gzip_all[..gzip_lengths[cut]],
                Compression::Zstd => &zstd_all[..zstd_lengths[cut]],
            };
            assert!(out == reference, "{format:?} cut at {cut}: eager decoder");
            let (by_tool, ok) = tool(program, &args, &file[..cut]);
            assert!(!ok, "{program} accepts a cut input");
            assert!(
                out == by_tool,
                "{format:?} cut at {cut}: {program} gives {} bytes, we {}",
                by_tool.len(),
                out.len()
            );
        }
    }
}

/// Gzip decoded by `decode` through a ring of `ring` buffers of `size`
/// bytes on a thread, or (`ring` 0) on the reader's thread.
fn ring_or_here(decode: Box<dyn Decode>, ring: usize, size: usize) -> Decoded {
    match ring {
        0 => Decoded::here(Compression::Gzip, decode, size),
        _ => Decoded::with_ring(Compression::Gzip, decode, ring, size, Default::default()),
    }
}

#[test]
fn ring_hands_out_every_byte_then_the_fault_again_and_again() {
    let members = assorted_members();
    let file = gzip_file(&members);
    let cut = file.len() - 3;
    let (all, lengths) = gzip_eagerly(&members);
    let expected = &all[..lengths[cut]];
    // Ring 0: no thread, decoded on the reader's thread (-j1).
    for (ring, size) in [(2, 1), (2, 7), (3, 100), (4, 1 << 20), (0, 7), (0, 1 << 20)] {
        let source = Source::with_capacity(Box::new(Cursor::new(file[..cut].to_vec())), 32);
        let mut d = ring_or_here(
            decoder(Compression::Gzip, source, crate::cores::machine(), None),
            ring,
            size,
        );
        let mut out = Vec::new();
        let err = d.read_to_end(&mut out).expect_err("truncated");
        assert_eq!(out, expected, "ring {ring} x {size}");
        assert_eq!(decode_error(&err).unwrap().fault, Fault::Truncated);
        for _ in 0..3 {
            let again = d.read(&mut [0; 10]).expect_err("still failed");
            assert_eq!(again.to_string(), err.to_string());
        }
    }
    // A clean end stays one.
    let source = Source::new(Box::new(Cursor::new(file.clone())));
    let mut d = Decoded::start(Compression::Gzip, source, crate::cores::machine().into());
    let mut out = Vec::new();
    d.read_to_end(&mut out).unwrap();
    assert_eq!(d.read(&mut [0; 10]).unwrap(), 0);
}

/// A fault decoding resumed after comes through the ring once, between
/// the bytes before and after it; the stream then goes on to its end.
#[test]
fn ring_hands_out_a_resumed_fault_once_between_its_bytes() {
    let members = assorted_members();
    let file = gzip_file(&members);
    let first = members[0].bytes.len();
    let spliced = [&file[..first], b"junk", &file[first..]].concat();
    let expected: Vec<u8> = members.iter().flat_map(|m| m.data.clone()).collect();
    let split = members[0].data.len();
    for (ring, size) in [(2, 1), (2, 7), (3, 100), (4, 1 << 20), (0, 7), (0, 1 << 20)] {
        let source = Source::with_capacity(Box::new(Cursor::new(spliced.clone())), 32);
        let mut d = ring_or_here(
            decoder(Compression::Gzip, source, crate::cores::machine(), None),
            ring,
            size,
        );
        let mut before = Vec::new();
        let err = d.read_to_end(&mut before).expect_err("the junk");
        assert!(resumes(&err), "{err}");
        assert_eq!(before, &expected[..split], "ring {ring} x {size}");
        let mut after = Vec::new();
        d.read_to_end(&mut after).expect("the rest, to a clean end");
        assert_eq!(after, &expected[split..], "ring {ring} x {size}");
        assert_eq!(d.read(&mut [0; 10]).unwrap(), 0);
    }
}

/// A reader that stops early (as `urlsift ... | head -1` does) lets the
/// decoding thread go: it exits at its next send.
#[test]
fn ring_thread_exits_when_the_reader_stops_early() {
    let data = urls(200_000, 17);
    let gz = member(&data, Header::default(), 1).bytes;
    let source = Source::new(Box::new(Cursor::new(gz)));
    let mut d = Decoded::with_ring(
        Compression::Gzip,
        decoder(Compression::Gzip, source, crate::cores::machine(), None),
        2,
        4096,
        Default::default(),
    );
    let mut first = [0; 100];
    d.read_exact(&mut first).unwrap();
    assert_eq!(&first[..], &data[..100]);
    let thread = d.thread();
    drop(d);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(thread.join().is_ok()));
    let joined = rx.recv_timeout(Duration::from_secs(30));
    assert_eq!(joined, Ok(true), "the decoding thread did not exit");
}

#[test]
fn open_tells_plain_files_pipes_and_compressed_input_apart() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.txt");
    std::fs::write(&plain, b"https://a.example/\n").unwrap();
    let Ok(Input::File(mut file)) = open(&plain) else {
        panic!("a plain regular file is handed back as a file")
    };
    let mut text = String::new();
    file.read_to_string(&mut text).unwrap();
    assert_eq!(text, "https://a.example/\n", "positioned at its start");

    let gz = dir.path().join("x.gz");
    std::fs::write(&gz, urls_gz(10)).unwrap();
    let zst = dir.path().join("x.zst");
    std::fs::write(&zst, zstd_frame(&urls(10, 7), 3, true)).unwrap();
    for (path, format) in [(&gz, Compression::Gzip), (&zst, Compression::Zstd)] {
        let input = open(path).unwrap();
        assert_eq!(input.format(), Some(format));
        let mut out = Vec::new();
        input.into_reader().read_to_end(&mut out).unwrap();
        assert_eq!(out, urls(10, 7));
    }

    // Streams keep the peeked bytes, however short.
    for data in [&b""[..], b"h", b"\x1f", b"http://b.example/\n"] {
        let input = from_stream(
            Box::new(Cursor::new(data.to_vec())),
            crate::cores::machine().into(),
        )
        .unwrap();
        assert!(matches!(input, Input::Pipe(_)));
        let mut out = Vec::new();
        input.into_reader().read_to_end(&mut out).unwrap();
        assert_eq!(out, data);
    }
    let input = from_stream(
        Box::new(Cursor::new(urls_gz(10))),
        crate::cores::machine().into(),
    )
    .unwrap();
    assert_eq!(input.format(), Some(Compression::Gzip));
    let mut out = Vec::new();
    input.into_reader().read_to_end(&mut out).unwrap();
    assert_eq!(out, urls(10, 7));
}

//! The zstd decoder against libzstd fed one byte at a time (which hands
//! out each byte as soon as it is decodable): frames of every shape,
//! skippable frames, every cut, damaged data and resuming at the next
//! frame, trailing garbage and padding.

use std::io::Write;

use super::tests::{
    decode, decode_all_placed, decode_with, expected_cut, fault, noise, starts, urls,
};
use super::{Compression, decode_error, decoder, is_trailing_garbage};

/// Every frame of `file` decoded in 64 KiB steps, with how many bytes
/// were out before each fault.
fn zstd_placed(file: &[u8]) -> (Vec<u8>, Vec<(usize, std::io::Error)>) {
    decode_all_placed(
        |s| decoder(Compression::Zstd, s, crate::cores::machine(), None),
        file,
        1 << 16,
        1 << 16,
    )
}

pub(super) fn zstd_frame(data: &[u8], level: i32, checksum: bool) -> Vec<u8> {
    let mut enc = ::zstd::stream::Encoder::new(Vec::new(), level).unwrap();
    enc.include_checksum(checksum).unwrap();
    enc.set_pledged_src_size(Some(data.len() as u64)).unwrap();
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

pub(super) fn skippable(payload: &[u8]) -> Vec<u8> {
    let mut f = vec![0x53, 0x2a, 0x4d, 0x18];
    f.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    f.extend_from_slice(payload);
    f
}

/// libzstd fed one byte at a time: everything it can decode from `data`,
/// and how much of it was out after each byte (`lengths[k]`: after the
/// first k). A call that fails reports no output, but with one byte per
/// call a failing call has nothing else to report.
pub(super) fn zstd_eagerly(data: &[u8]) -> (Vec<u8>, Vec<usize>) {
    use ::zstd::stream::raw::{Decoder, InBuffer, Operation, OutBuffer};
    let mut d = Decoder::new().unwrap();
    let mut out = Vec::new();
    let mut lengths = vec![0];
    // Larger than a block: a call leaves nothing pending.
    let mut buf = vec![0; 1 << 18];
    for byte in data.iter().map(std::slice::from_ref) {
        let mut output = OutBuffer::around(&mut buf[..]);
        if d.run(&mut InBuffer::around(byte), &mut output).is_err() {
            lengths.resize(data.len() + 1, out.len());
            break;
        }
        let made = output.pos();
        out.extend_from_slice(&buf[..made]);
        lengths.push(out.len());
    }
    (out, lengths)
}

fn zstd_reference(data: &[u8]) -> Vec<u8> {
    zstd_eagerly(data).0
}

/// Frames of every shape: compressed, raw (noise) and RLE blocks, several
/// blocks per frame, with and without checksum, empty, skippable.
fn assorted_frames() -> (Vec<Vec<u8>>, Vec<u8>) {
    let mut long = urls(4000, 9);
    long.extend(noise(150_000, 10));
    long.extend(std::iter::repeat_n(b'a', 300_000));
    let parts = [
        (urls(50, 11), 3, true),
        (Vec::new(), 3, true),
        (long, 1, true),
        (urls(20, 12), 19, false),
    ];
    let mut frames = vec![skippable(b"index")];
    let mut data = Vec::new();
    for (part, level, checksum) in parts {
        frames.push(zstd_frame(&part, level, checksum));
        data.extend(part);
        frames.push(skippable(b""));
    }
    (frames, data)
}

#[test]
fn zstd_frames_of_every_shape_decode_whole() {
    let (frames, expected) = assorted_frames();
    let file = frames.concat();
    for (cap, step) in [(1 << 16, 1 << 16), (16, 100), (1000, 7), (1 << 18, 1 << 20)] {
        let (out, err) = decode_with(Compression::Zstd, &file, cap, step);
        assert!(err.is_none(), "cap {cap}, step {step}: {err:?}");
        assert!(out == expected, "cap {cap}, step {step}");
    }
}

#[test]
fn zstd_cut_anywhere_hands_out_everything_decodable_then_truncation() {
    let small = [
        skippable(b"sk"),
        zstd_frame(&urls(30, 13), 3, true),
        zstd_frame(b"", 1, false),
        zstd_frame(
            &[urls(10, 14), noise(300, 15), vec![b'z'; 5000]].concat(),
            1,
            false,
        ),
    ];
    let file = small.concat();
    let starts = starts(small.iter().map(Vec::len));
    // A decoder starts only once `open` has seen the first magic bytes.
    let (all, lengths) = zstd_eagerly(&file);
    for cut in 4..=file.len() {
        let (out, err) = decode_with(Compression::Zstd, &file[..cut], 16, 1000);
        assert_eq!(out, all[..lengths[cut]], "cut at {cut}");
        assert_eq!(
            fault(&err),
            expected_cut(Compression::Zstd, &starts, file.len(), cut).as_ref(),
            "cut at {cut}"
        );
    }
}

/// Damage in a frame: the frames before it come out, the damaged one's
/// decoded bytes come with the fault, set aside (or, when the damage looks
/// like a cut, out as data: a cut is not damage), and decoding resumes at
/// the next frame, whose bytes come out whole. In order, out and set aside
/// together, that is what libzstd decodes eagerly from the same bytes.
#[test]
fn zstd_damage_sets_aside_what_was_decoded_with_the_fault() {
    // Compressed blocks (two in the first frame), a raw and an RLE block.
    let frames = [
        skippable(b"sk"),
        zstd_frame(&urls(4000, 18), 3, true),
        zstd_frame(&[noise(5000, 19), vec![b'a'; 200_000]].concat(), 3, true),
        zstd_frame(&urls(100, 20), 3, false),
    ];
    let starts = starts(frames.iter().map(Vec::len));
    let file = frames.concat();
    let (mut faults, mut resumed, mut set_aside) = (0, 0, 0);
    for (i, at) in (0..file.len()).step_by(401).enumerate() {
        let mut bad = file.clone();
        bad[at] ^= 1 << (i % 8);
        let (out, errs) = zstd_placed(&bad);
        faults += usize::from(!errs.is_empty());
        let Some((place, first)) = errs.first() else {
            assert!(out == zstd_reference(&bad), "damage at {at}");
            continue;
        };
        let first = decode_error(first).expect("a decoding fault");
        let aside = super::tests::damaged(first);
        set_aside += usize::from(!aside.is_empty());
        // The frames before the damaged one come out whole.
        let frame = starts
            .iter()
            .copied()
            .filter(|&s| s <= at)
            .max()
            .unwrap_or(0);
        let before = zstd_reference(&bad[..frame]);
        assert!(
            out.starts_with(&before) && *place >= before.len(),
            "damage at {at}"
        );
        if !aside.is_empty() {
            assert_eq!(
                *place,
                before.len(),
                "damage at {at}: a damaged frame's bytes went out"
            );
        }
        let in_order = [&out[..*place], aside, &out[*place..]].concat();
        match first.resumed {
            // Then the rest from the next frame on, whole (the damage was
            // before it).
            Some(r) => {
                let r = r as usize;
                assert!(
                    r > at && starts.contains(&r),
                    "damage at {at}: resumed at {r}"
                );
                assert!(
                    in_order == [zstd_reference(&bad[..r]), zstd_reference(&bad[r..])].concat(),
                    "damage at {at}"
                );
                assert_eq!(errs.len(), 1, "damage at {at}");
                resumed += 1;
            }
            // No frame after the fault: everything before it.
            None => assert!(in_order == zstd_reference(&bad), "damage at {at}"),
        }
    }
    let cases = file.len().div_ceil(401);
    assert!(
        faults * 4 > cases * 3,
        "{faults} of {cases} damages noticed"
    );
    assert!(resumed * 2 > faults, "{resumed} of {faults} faults resumed");
    assert!(
        set_aside * 2 > faults,
        "{set_aside} of {faults} faults set bytes aside"
    );
}

#[test]
fn zstd_trailing_garbage_comes_after_all_frames() {
    let (frames, expected) = assorted_frames();
    let file = frames.concat();
    for tail in [&b"garbage\n"[..], b"\x28\xb5\x2f", b"\0\0x"] {
        let (out, err) = decode(Compression::Zstd, &[&file[..], tail].concat());
        assert!(out == expected, "tail {tail:?}");
        let err = err.expect("trailing garbage is reported");
        assert!(is_trailing_garbage(&err), "tail {tail:?}: {err}");
        assert_eq!(fault(&Some(err)).unwrap().offset, file.len() as u64);
    }
    let (out, err) = decode(Compression::Zstd, &[&file[..], &[0; 100]].concat());
    assert!(out == expected && err.is_none(), "zero padding is ignored");
}

/// A frame whose header libzstd refuses though its magic number is good
/// (here it names a dictionary, which we do not have): decoding resumes at
/// the next frame, past it. It used to find the same frame again, forever
/// (one fault after another, each kept: the run never ended).
#[test]
fn a_frame_refused_at_its_header_is_not_found_again() {
    let first = zstd_frame(&urls(50, 21), 3, true);
    let second = zstd_frame(&urls(40, 22), 3, true);
    let mut bad = first.clone();
    // The frame header descriptor: a 1-byte dictionary ID follows the
    // window byte (this single-segment-free frame has one), so this
    // shifts the header and names a dictionary.
    bad[4] |= 0x01;
    let file = [&bad[..], &second].concat();
    let (out, faults) = zstd_placed(&file);
    assert!(out == urls(40, 22), "the second frame, whole");
    let [(_, fault)] = &faults[..] else {
        panic!("{} faults", faults.len())
    };
    let fault = decode_error(fault).expect("a decoding fault");
    assert_eq!(fault.resumed, Some(bad.len() as u64), "{fault}");
}

/// A frame whose checksum alone fails is whole (its bytes all there) only
/// when its header gives the content size and the bytes match it: damage
/// can change how many bytes a frame decodes to, and the checksum does
/// not say how many there should be.
#[test]
fn a_frame_is_whole_only_by_its_content_size() {
    let data = urls(300, 25);
    let sized = zstd_frame(&data, 3, true);
    let mut unsized_ = ::zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
    unsized_.include_checksum(true).unwrap();
    unsized_.write_all(&data).unwrap();
    let unsized_ = unsized_.finish().unwrap();
    for (frame, whole) in [(sized, true), (unsized_, false)] {
        let mut bad = frame.clone();
        let n = bad.len();
        bad[n - 1] ^= 0x01;
        let (out, faults) = zstd_placed(&bad);
        assert!(out.is_empty());
        let [(_, fault)] = &faults[..] else {
            panic!("{} faults", faults.len())
        };
        let d = decode_error(fault).expect("a decoding fault");
        let damaged = d.damaged.as_ref().expect("set aside");
        assert!(damaged.bytes[..] == data[..]);
        assert_eq!(damaged.whole, whole, "{d}");
    }
}

/// A descriptor that lost its checksum flag leaves the checksum's four
/// bytes between the frame and the next: they are checked as that
/// checksum. Right, the frame is whole and nothing is reported; wrong, the
/// frame is set aside (it used to go out unchecked, the four bytes
/// reported as garbage).
#[test]
fn a_frame_that_lost_its_checksum_flag_is_still_checked() {
    let data = urls(200, 26);
    let next = zstd_frame(&urls(30, 27), 3, true);
    let frame = zstd_frame(&data, 3, true);
    assert!(frame[4] & 0x04 != 0, "the frame has a checksum");
    let mut unflagged = frame.clone();
    unflagged[4] &= !0x04;
    let (out, faults) = zstd_placed(&[&unflagged[..], &next].concat());
    assert!(faults.is_empty(), "{faults:?}");
    assert!(out == [&data[..], &urls(30, 27)].concat());
    let mut wrong = unflagged.clone();
    let n = wrong.len();
    wrong[n - 1] ^= 0x01;
    for tail in [&next[..], &[][..]] {
        let file = [&wrong[..], tail].concat();
        let (out, faults) = zstd_placed(&file);
        let [(_, fault)] = &faults[..] else {
            panic!("{} faults", faults.len())
        };
        let d = decode_error(fault).expect("a decoding fault");
        assert!(
            d.damaged.as_ref().is_some_and(|x| x.bytes[..] == data[..]),
            "{d}"
        );
        assert!(
            out == tail
                .is_empty()
                .then(Vec::new)
                .unwrap_or_else(|| urls(30, 27))
        );
    }
    // A frame written without a checksum, the next right after it: as is.
    let mut plain = ::zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
    plain.write_all(&data).unwrap();
    let plain = plain.finish().unwrap();
    let (out, faults) = zstd_placed(&[&plain[..], &next].concat());
    assert!(faults.is_empty() && out == [&data[..], &urls(30, 27)].concat());
}

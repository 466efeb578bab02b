//! The SIMD module's tests: every backend against the scalar oracle.

use super::*;

const SET: ByteSet = ByteSet::outside_range_or(0x21, 0x7E, b"\"'<>\\^`{}");

#[test]
fn every_backend_matches_scalar() {
    // Every byte value at every position of inputs of many lengths.
    for len in [0usize, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100] {
        for pos in 0..len.max(1) {
            for b in 0..=255u8 {
                let mut input = vec![b'a'; len];
                if len > 0 {
                    input[pos] = b;
                }
                let expected = scalar::find_in_set(&input, &SET);
                for backend in available_backends() {
                    assert_eq!(
                        find_in_set_with(backend, &input, &SET),
                        expected,
                        "{backend:?} len {len} pos {pos} byte {b:#x}"
                    );
                }
            }
        }
    }
}

#[test]
fn finds_the_first_of_several() {
    let input = b"https://example.com/a{b}c d";
    for backend in available_backends() {
        assert_eq!(find_in_set_with(backend, input, &SET), Some(21));
    }
    let plain = b"https://example.com/a/b/c?d=e#f-and-more-bytes";
    for backend in available_backends() {
        assert_eq!(find_in_set_with(backend, plain, &SET), None);
    }
}

#[test]
fn sets_without_extras_and_full_ranges() {
    let only_range = ByteSet::outside_range_or(b'a', b'z', b"");
    let any = ByteSet::outside_range_or(0, 255, b"");
    let input = b"abcdefghijklmnopqrstuvwxyzabcdefghij0klm";
    for backend in available_backends() {
        assert_eq!(find_in_set_with(backend, input, &only_range), Some(36));
        assert_eq!(find_in_set_with(backend, input, &any), None);
    }
}

struct TestClasses;
impl Classes for TestClasses {
    const SET: ByteSet = SET;
    const GROUPS: Groups = Groups::new(&[b":", b"/", b"?", b"#", b".%", b"@[]|%", b"A", b"\x00"]);
    const RANGE: (u8, u8) = (b'A', b'Z');
}

/// A byte search: full range, one extra byte, no range of interest.
struct SearchClasses;
impl Classes for SearchClasses {
    const SET: ByteSet = ByteSet::outside_range_or(0, 255, b"\n");
    const GROUPS: Groups = Groups::new(&[b"\r", b"\x00\xff"]);
    const RANGE: (u8, u8) = (0, 255);
}

/// Two extras and bounds at the ends of the byte range.
struct EdgeClasses;
impl Classes for EdgeClasses {
    const SET: ByteSet = ByteSet::outside_range_or(0, 0xFE, b"\x00\x80");
    const GROUPS: Groups = Groups::new(&[b"a"]);
    const RANGE: (u8, u8) = (1, 255);
}

/// Every backend's masks equal scalar's for class `C`, with every byte
/// value at every position of blocks of many lengths (the other bytes
/// `a`, the last one `last` unless it is the one being varied).
fn check_block_masks<C: Classes>(last: u8) {
    for len in [0usize, 1, 15, 16, 17, 31, 32, 33, 63, 64] {
        for pos in 0..len.max(1) {
            for b in 0..=255u8 {
                let mut input = vec![b'a'; len];
                if len > 0 {
                    input[len - 1] = last;
                    input[pos] = b;
                }
                let expected = scalar::block_masks::<C>(&input);
                for backend in available_backends() {
                    assert_eq!(
                        block_masks_with::<C>(backend, &input),
                        expected,
                        "{backend:?} len {len} pos {pos} byte {b:#x}"
                    );
                }
            }
        }
    }
}

/// `block_masks_pair` gives scalar's masks of each block.
#[test]
fn pair_block_masks_match_scalar() {
    for a in [0usize, 1, 17, 33, 64] {
        for b in [0usize, 1, 16, 31, 63, 64] {
            let first: Vec<u8> = (0..a).map(|i| b"a/:?#.%@\nZ\xe9"[i % 11]).collect();
            let second: Vec<u8> = (0..b).map(|i| b"x.%/?#\x00A"[i % 8]).collect();
            let [m1, m2] = block_masks_pair::<TestClasses, SearchClasses>(&first, &second);
            assert_eq!(m1, scalar::block_masks::<TestClasses>(&first), "{a} {b}");
            assert_eq!(m2, scalar::block_masks::<SearchClasses>(&second), "{a} {b}");
        }
    }
}

/// `block_masks_appending` gives scalar's masks and appends exactly
/// the block, with every backend, after any existing text.
#[test]
fn appending_block_masks_match_scalar_and_append() {
    for len in 0..=64 {
        for fill in ["a/:?#.%@\nZ", "é€", "\u{0}\u{7f}x"] {
            let block: String = fill.chars().cycle().take(len).collect();
            let mut cut = len.min(block.len());
            while !block.is_char_boundary(cut) {
                cut -= 1;
            }
            let block = &block[..cut];
            let expected = scalar::block_masks::<TestClasses>(block.as_bytes());
            for backend in available_backends() {
                for prefix in ["", "https://x.example/"] {
                    let mut out = String::with_capacity(if prefix.is_empty() { 0 } else { 80 });
                    out.push_str(prefix);
                    let m = block_masks_appending_with::<TestClasses>(backend, block, &mut out);
                    assert_eq!(m, expected, "{backend:?} on {block:?}");
                    assert_eq!(out, format!("{prefix}{block}"), "{backend:?}");
                }
            }
            let mut out = String::new();
            assert_eq!(
                block_masks_appending::<TestClasses>(block, &mut out),
                expected
            );
            assert_eq!(out, block);
        }
    }
}

#[test]
fn block_masks_match_scalar() {
    check_block_masks::<TestClasses>(b'/');
    check_block_masks::<SearchClasses>(b'\n');
    check_block_masks::<EdgeClasses>(0xFF);
}

/// `with_kernel` hands its work the detected backend's kernel, whose
/// masks equal scalar's.
#[test]
fn with_kernel_matches_scalar() {
    struct Masks<'a>(&'a [Vec<u8>]);
    impl WithKernel for Masks<'_> {
        type Output = Vec<[BlockMasks; 3]>;
        #[inline(always)]
        fn run<K: Kernel>(self, k: K) -> Self::Output {
            self.0
                .iter()
                .map(|b| {
                    [
                        k.block_masks::<TestClasses>(b),
                        k.block_masks::<SearchClasses>(b),
                        k.block_masks::<EdgeClasses>(b),
                    ]
                })
                .collect()
        }
    }
    let mut blocks = Vec::new();
    for len in [0usize, 1, 15, 16, 17, 31, 32, 33, 63, 64] {
        for b in 0..=255u8 {
            let mut block: Vec<u8> = (0..len).map(|i| b"aZ/:?#.%@\n\r"[i % 11]).collect();
            if len > 0 {
                block[(b as usize * 7) % len] = b;
            }
            blocks.push(block);
        }
    }
    let got = with_kernel(Masks(&blocks));
    for (block, masks) in blocks.iter().zip(got) {
        let expected = [
            scalar::block_masks::<TestClasses>(block),
            scalar::block_masks::<SearchClasses>(block),
            scalar::block_masks::<EdgeClasses>(block),
        ];
        assert_eq!(masks, expected, "{:?} on {block:?}", backend());
    }
}

/// `positions_of` marks exactly the given byte, with every kernel.
#[test]
fn positions_of_a_byte() {
    struct Newlines<'a>(&'a [u8]);
    impl WithKernel for Newlines<'_> {
        type Output = u64;
        #[inline(always)]
        fn run<K: Kernel>(self, k: K) -> u64 {
            k.positions_of::<b'\n'>(self.0)
        }
    }
    for len in 0..=64 {
        let block: Vec<u8> = (0..len)
            .map(|i| [b'\n', b'a', 0x8A, b'\r'][i % 4])
            .collect();
        let expected = block
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .fold(0u64, |m, (i, _)| m | 1 << i);
        assert_eq!(with_kernel(Newlines(&block)), expected, "len {len}");
        assert_eq!(Scalar.positions_of::<b'\n'>(&block), expected);
        assert_eq!(Runtime.positions_of::<b'\n'>(&block), expected);
    }
}

#[test]
fn block_masks_of_a_url() {
    let url = b"http://a.b/c?d#e";
    let m = block_masks::<TestClasses>(url);
    assert_eq!(m.in_set, 0);
    assert_eq!(m.groups[0], 1 << 4);
    assert_eq!(m.groups[1], 1 << 5 | 1 << 6 | 1 << 10);
    assert_eq!(m.groups[2], 1 << 12);
    assert_eq!(m.groups[3], 1 << 14);
    assert_eq!(m.groups[4], 1 << 8);
    assert_eq!(m.in_range, 0);
    let m = block_masks::<TestClasses>(b"HTtP://X");
    assert_eq!(m.in_range, 0b1000_1011);
}

#[test]
fn reports_a_backend() {
    assert!(available_backends().contains(&backend()));
    // CI runs the suite once with URLSIFT_SIMD=scalar: prove it took.
    if std::env::var("URLSIFT_SIMD").is_ok_and(|v| v == "scalar") {
        assert_eq!(backend(), Backend::Scalar);
    } else {
        assert_eq!(Some(&backend()), available_backends().last());
    }
}

//! A host checked for suffix matching, and its labels from the right.
//!
//! One pass of the SIMD classifier ([`urlsift_simd::block_masks`]) over a
//! host of up to 64 bytes (nearly all of them) gives three position masks:
//! dots, capitals and non-ASCII bytes. The checks of the module docs of
//! [`super`] are then bit tests, and walking labels right to left is a
//! leading-zero count per label. Longer hosts take a plain byte loop.

use crate::simd::{self, ByteSet, Classes, Groups};

/// The classes a host's bytes fall in.
struct HostClasses;

impl Classes for HostClasses {
    /// Non-ASCII bytes.
    const SET: ByteSet = ByteSet::outside_range_or(0, 0x7F, &[]);
    /// Dots.
    const GROUPS: Groups = Groups::new(&[b"."]);
    /// Capitals.
    const RANGE: (u8, u8) = (b'A', b'Z');
}

/// What [`check`] found out about a host.
#[derive(Clone, Copy)]
pub(crate) struct Shape {
    /// The host's length less a trailing dot.
    pub(crate) len: usize,
    /// Dot positions (bit `i`: byte `i`) when `len <= 64`.
    dots: u64,
    /// Whether the host has capitals (to be lowered before lookup).
    pub(crate) upper: bool,
}

/// Checks that `host` is a domain (see the module docs of [`super`]).
#[inline]
pub(crate) fn check(host: &[u8]) -> Option<Shape> {
    let name = host.strip_suffix(b".").unwrap_or(host);
    let (&first, &last) = (name.first()?, name.last()?);
    if first == b'.' || first == b'[' || last == b'.' {
        return None;
    }
    let (dots, upper) = if name.len() <= 64 {
        let m = simd::block_masks::<HostClasses>(name);
        let dots = m.groups[0];
        // A non-ASCII byte, or two dots in a row (an empty label).
        if m.in_set != 0 || dots & (dots >> 1) != 0 {
            return None;
        }
        (dots, m.in_range != 0)
    } else {
        if !name.is_ascii() || memchr::memmem::find(name, b"..").is_some() {
            return None;
        }
        (0, name.iter().any(u8::is_ascii_uppercase))
    };
    let shape = Shape {
        len: name.len(),
        dots,
        upper,
    };
    let last_label = &name[shape.labels(name).next_start()..];
    if ends_in_a_number(last_label) {
        return None;
    }
    Some(shape)
}

/// The URL Standard's ends-in-a-number test on the last label: all
/// decimal digits, or `0x`/`0X` and hex digits.
pub(crate) fn ends_in_a_number(label: &[u8]) -> bool {
    if label.iter().all(u8::is_ascii_digit) {
        return true;
    }
    match label {
        [b'0', b'x' | b'X', hex @ ..] => hex.iter().all(u8::is_ascii_hexdigit),
        _ => false,
    }
}

impl Shape {
    /// The labels of `name` (the checked host less its trailing dot, or
    /// its lowercase copy), last first.
    #[inline]
    pub(crate) fn labels(self, name: &[u8]) -> Labels<'_> {
        debug_assert_eq!(name.len(), self.len);
        Labels {
            name,
            dots: self.dots,
            end: self.len,
        }
    }

    /// Where the label before the one starting at `start` starts; `None`
    /// when `start` is 0.
    #[inline]
    pub(crate) fn label_before(self, name: &[u8], start: usize) -> Option<usize> {
        if start == 0 {
            return None;
        }
        let mut labels = self.labels(name);
        labels.end = start - 1;
        if self.len <= 64 {
            labels.dots &= simd::low_bits(start - 1);
        }
        Some(labels.next_start())
    }
}

/// A host's labels from the right, as slices (or start offsets).
pub(crate) struct Labels<'a> {
    name: &'a [u8],
    /// Dots left of `end` (hosts of up to 64 bytes).
    dots: u64,
    /// The end of the next label; `usize::MAX` when done.
    end: usize,
}

impl<'a> Labels<'a> {
    /// The name whose labels these are.
    #[inline]
    pub(crate) fn name(&self) -> &'a [u8] {
        self.name
    }

    /// The start of the next label, without moving on.
    #[inline]
    fn next_start(&self) -> usize {
        if self.name.len() <= 64 {
            if self.dots == 0 {
                0
            } else {
                64 - self.dots.leading_zeros() as usize
            }
        } else {
            memchr::memrchr(b'.', &self.name[..self.end]).map_or(0, |d| d + 1)
        }
    }

    /// The next label's `(start, end)`.
    #[inline]
    pub(crate) fn next_span(&mut self) -> Option<(usize, usize)> {
        if self.end == usize::MAX {
            return None;
        }
        let (start, end) = (self.next_start(), self.end);
        if start == 0 {
            self.end = usize::MAX;
        } else {
            self.end = start - 1;
            if self.name.len() <= 64 {
                self.dots &= !(1 << (start - 1));
            }
        }
        Some((start, end))
    }
}

impl<'a> Iterator for Labels<'a> {
    type Item = &'a [u8];

    #[inline]
    fn next(&mut self) -> Option<&'a [u8]> {
        let name = self.name;
        self.next_span().map(|(s, e)| &name[s..e])
    }
}

//! The compressed formats decoding knows, by their magic bytes or a
//! file's name.

use std::path::Path;

pub(super) const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
pub(super) const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// Whether `head` starts a zstd skippable frame (magic `0x184D2A5?`, little endian).
pub(super) fn is_skippable_magic(head: &[u8]) -> bool {
    matches!(head, [b, 0x2a, 0x4d, 0x18, ..] if b & 0xf0 == 0x50)
}

/// A compressed format urlsift decodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// One or more gzip members (RFC 1952).
    Gzip,
    /// One or more zstd frames, skippable frames included (RFC 8878).
    Zstd,
}

impl Compression {
    /// The format whose magic bytes start `head`, if any. `head` holds the
    /// source's first four bytes (fewer if it is shorter).
    pub fn detect(head: &[u8]) -> Option<Compression> {
        if head.starts_with(&GZIP_MAGIC) {
            Some(Compression::Gzip)
        } else if head.starts_with(&ZSTD_MAGIC) || is_skippable_magic(head) {
            Some(Compression::Zstd)
        } else {
            None
        }
    }

    /// The format a file name ends in: `.gz` or `.zst` (in any case).
    pub fn named(path: &Path) -> Option<Compression> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        if name.ends_with(".gz") {
            Some(Compression::Gzip)
        } else if name.ends_with(".zst") {
            Some(Compression::Zstd)
        } else {
            None
        }
    }

    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
        }
    }

    /// What the format calls one self-contained unit.
    pub(super) fn unit(self) -> &'static str {
        match self {
            Compression::Gzip => "member",
            Compression::Zstd => "frame",
        }
    }
}

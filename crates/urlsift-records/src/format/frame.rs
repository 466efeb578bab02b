//! Frames: how a Parquet chunk's rows travel through the engine as bytes
//! (here, with the formats, so the format layer needs none of the
//! `parquet` feature's crates).
//!
//! A Parquet chunk's data is one frame per row: a tag, the row's line (its
//! 1-based row number in the file), and the URL value's bytes. The frame
//! of an input row is also the output frame that says "this row, as it
//! was" ([`UNCHANGED`]), so a worker passes a row on by copying its frame
//! (a run of input, like any other record written back unchanged) and
//! rewrites it by writing a [`CHANGED`] frame with the new URL. The writer
//! reads the output frames back ([`Frames`]) and builds the output rows
//! from the chunk's Arrow batch (`Rows` (`records::parquet`)).
//!
//! ```
//! use urlsift_records::format::frame::{self, Frames};
//!
//! let mut data = Vec::new();
//! frame::push(&mut data, frame::UNCHANGED, 7, b"https://a.example/");
//! frame::push(&mut data, frame::CHANGED, 9, b"https://b.example/");
//! let read: Vec<_> = Frames::new(&data).map(|f| (f.tag, f.line, f.value.to_vec())).collect();
//! assert_eq!(read[1], (frame::CHANGED, 9, b"https://b.example/".to_vec()));
//! assert_eq!(frame::HEAD + 18, frame::frame_len(&data));
//! ```

/// A frame's header: tag (1 byte), line (8), value length (4).
pub const HEAD: usize = 13;

/// The row goes out as it came in.
pub const UNCHANGED: u8 = 0;

/// The row goes out with this URL.
pub const CHANGED: u8 = 1;

/// Appends a frame.
#[inline]
pub fn push(out: &mut Vec<u8>, tag: u8, line: u64, value: &[u8]) {
    let len = u32::try_from(value.len()).expect("values are held under 4 GiB");
    out.push(tag);
    out.extend_from_slice(&line.to_le_bytes());
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(value);
}

/// The length of the first frame of `data` (header and value).
pub fn frame_len(data: &[u8]) -> usize {
    HEAD + value_len(data)
}

/// The value length in the header at the start of `data`.
#[inline]
fn value_len(data: &[u8]) -> usize {
    u32::from_le_bytes(data[9..13].try_into().expect("4 bytes")) as usize
}

/// One frame read back.
#[derive(Clone, Copy, Debug)]
pub struct Frame<'a> {
    /// [`UNCHANGED`] or [`CHANGED`].
    pub tag: u8,
    /// The row's line: its 1-based number in its file.
    pub line: u64,
    /// The URL value (for an unchanged row, the value as read).
    pub value: &'a [u8],
    /// Where the value starts in the bytes read.
    pub at: usize,
}

/// The frames of a run of bytes, in order.
pub struct Frames<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Frames<'a> {
    /// The frames of `data` (whole frames only).
    pub fn new(data: &'a [u8]) -> Frames<'a> {
        Frames { data, at: 0 }
    }
}

impl<'a> Iterator for Frames<'a> {
    type Item = Frame<'a>;

    #[inline]
    fn next(&mut self) -> Option<Frame<'a>> {
        let rest = self.data.get(self.at..)?;
        if rest.len() < HEAD {
            debug_assert!(rest.is_empty(), "frames are whole");
            return None;
        }
        let len = value_len(rest);
        let frame = Frame {
            tag: rest[0],
            line: u64::from_le_bytes(rest[1..9].try_into().expect("8 bytes")),
            value: &rest[HEAD..HEAD + len],
            at: self.at + HEAD,
        };
        self.at += HEAD + len;
        Some(frame)
    }
}

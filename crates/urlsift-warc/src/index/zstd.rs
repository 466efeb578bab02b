//! [`entries`](super::entries) of a `.warc.zst` file: its frames decoded one after another,
//! each record placed at the frames it was decoded from.

use std::io::{self, BufRead, Read};

use urlsift_input::decode::{DICTIONARY_MAX, dictionary_of};

use super::{Counted, Reading, Record, read_records};

/// A zstd frame's magic number.
pub(super) const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
/// A `.warc.zst` file's dictionary frame's magic number.
const DICTIONARY_MAGIC: [u8; 4] = [0x5d, 0x2a, 0x4d, 0x18];

/// [`entries`] of a `.warc.zst` file: the records of its frames (decoded
/// with the dictionary of its dictionary frame, if it starts with one),
/// each placed at its first frame, through its last.
pub(super) fn zstd_entries(
    mut input: Counted<impl BufRead>,
    filename: &str,
    mut give: impl FnMut(Option<Result<Vec<u8>, ()>>),
) -> io::Result<()> {
    let invalid = |m: String| io::Error::new(io::ErrorKind::InvalidData, m);
    let mut decoder = zstd::stream::raw::Decoder::new()?;
    if input.fill_buf()?.starts_with(&DICTIONARY_MAGIC) {
        let mut head = [0u8; 8];
        input.read_exact(&mut head)?;
        let len = u32::from_le_bytes(head[4..].try_into().expect("4 bytes")) as usize;
        if len > DICTIONARY_MAX {
            return Err(invalid(format!(
                "a dictionary frame of {len} bytes (at most {DICTIONARY_MAX} are read)"
            )));
        }
        let mut data = vec![0; len];
        input.read_exact(&mut data)?;
        let data = dictionary_of(data).map_err(invalid)?;
        decoder = zstd::stream::raw::Decoder::with_dictionary(&data).map_err(|e| {
            invalid(format!(
                "the dictionary frame's dictionary does not load: {e}"
            ))
        })?;
    }
    let frames = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let reader = Frames {
        input,
        decoder,
        frames: std::rc::Rc::clone(&frames),
        frame: None,
        decoded: 0,
        out: vec![0; 1 << 17],
        ready: 0..0,
    };
    // Records read, waiting for the frame they end in to end.
    let mut waiting: std::collections::VecDeque<(Record, u64, u64)> = Default::default();
    let mut place = |waiting: &mut std::collections::VecDeque<(Record, u64, u64)>,
                     all: bool|
     -> io::Result<()> {
        let frames = frames.borrow();
        let done = frames.last().map_or(0, |f: &Frame| f.decoded.end);
        while let Some((_, offset, length)) = waiting.front() {
            let end = offset + length;
            if end > done && !all {
                break;
            }
            let (record, offset, _) = waiting.pop_front().expect("one is there");
            let of = |at: u64| frames.partition_point(|f| f.decoded.end <= at);
            let (first, last) = (of(offset), of(end - 1));
            let Some(first_frame) = frames.get(first) else {
                return Err(invalid(format!(
                    "the record at decoded byte {offset} has no frame"
                )));
            };
            if first_frame.decoded.start != offset {
                return Err(invalid(format!(
                    "the zstd frame at byte {} holds more than one record: \
                     recompress the file with frames of one record each",
                    first_frame.file.start
                )));
            }
            let end = frames
                .get(last)
                .map_or(first_frame.file.end, |f| f.file.end);
            give(record.line(
                first_frame.file.start,
                end - first_frame.file.start,
                filename,
            ));
        }
        Ok(())
    };
    let mut reading = Reading::default();
    let mut failed = None;
    let read = read_records(
        reader,
        &mut reading,
        Vec::new(),
        |record, offset, length| {
            waiting.push_back((record, offset, length));
            if failed.is_none() {
                failed = place(&mut waiting, false).err();
            }
        },
    );
    if let Some(e) = failed {
        return Err(e);
    }
    read.map_err(|(at, e)| invalid(format!("at decoded byte {at}: {e}")))?;
    place(&mut waiting, true)
}

/// A zstd frame that decoded to some bytes: where it lies in the file
/// and in the decoded bytes.
struct Frame {
    file: std::ops::Range<u64>,
    decoded: std::ops::Range<u64>,
}

/// A zstd file's frames decoded one after another (skippable frames
/// skipped), each frame's place recorded in `frames` as it ends.
struct Frames<R> {
    input: Counted<R>,
    decoder: zstd::stream::raw::Decoder<'static>,
    frames: std::rc::Rc<std::cell::RefCell<Vec<Frame>>>,
    /// The frame being decoded: where it started in the file and in the
    /// decoded bytes.
    frame: Option<(u64, u64)>,
    /// Bytes decoded so far.
    decoded: u64,
    out: Vec<u8>,
    /// `out`'s bytes not yet read.
    ready: std::ops::Range<usize>,
}

impl<R: BufRead> Read for Frames<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use zstd::stream::raw::{InBuffer, Operation, OutBuffer};
        loop {
            if !self.ready.is_empty() {
                let n = self.ready.len().min(buf.len());
                buf[..n].copy_from_slice(&self.out[self.ready.start..self.ready.start + n]);
                self.ready.start += n;
                return Ok(n);
            }
            let (start, pos) = (self.input.pos, self.decoded);
            let input = self.input.inner.fill_buf()?;
            if input.is_empty() {
                return match self.frame {
                    Some((at, _)) => Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        format!("the zstd frame at byte {at} is cut short"),
                    )),
                    None => Ok(0),
                };
            }
            let frame = *self.frame.get_or_insert((start, pos));
            let mut inb = InBuffer::around(input);
            let mut outb = OutBuffer::around(&mut self.out[..]);
            let hint = self.decoder.run(&mut inb, &mut outb)?;
            let (taken, made) = (inb.pos(), outb.pos());
            self.input.consume(taken);
            self.decoded += made as u64;
            self.ready = 0..made;
            if hint == 0 {
                // The frame has ended (and its checksum passed).
                if self.decoded > frame.1 {
                    self.frames.borrow_mut().push(Frame {
                        file: frame.0..self.input.pos,
                        decoded: frame.1..self.decoded,
                    });
                }
                self.frame = None;
            }
        }
    }
}

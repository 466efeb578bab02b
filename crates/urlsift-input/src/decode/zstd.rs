//! Zstd (RFC 8878): frames one after another, each decoded by libzstd's
//! streaming decoder, skippable frames skipped here.
//!
//! libzstd does not report the output of a call that fails: when one call
//! decodes a good block and then meets a bad one, the good block's bytes
//! are in the output buffer but not counted. So the input is fed one
//! *unit* per call (the frame header, one whole block with its header, or
//! the checksum), found by walking the frame's block headers here; a call
//! then completes at most one block, and a failing call has decoded
//! nothing. Output still pending inside libzstd (a block larger than the
//! room left in the caller's buffer) is drained before the next unit.
//!
//! A frame's decoded bytes are held until libzstd has checked it (up to
//! `hold::LIMIT`, see `hold.rs`): a frame whose checksum does not match,
//! or whose data breaks, hands its bytes out with the fault as damaged,
//! not as data.
//!
//! A damaged frame (or bytes between frames that are not one) is not the
//! end: the decoder searches on for the next frame's magic number and
//! resumes there, after handing out the fault (see `mod.rs`).

use std::io;
use std::sync::Arc;

use zstd::stream::raw::{Decoder, InBuffer, Operation, OutBuffer};

use super::compression::{Compression, ZSTD_MAGIC, is_skippable_magic};
use super::fault::{Decode, DecodeError, Fault, Progress, check_end, resume};
use super::hold::Hold;
use super::parallel::{Dictionary, Units};
use super::source::Source;
use super::unit::{UnitCodec, unit_fields};

/// The magic number of a `.warc.zst` file's dictionary frame
/// (`0x184D2A5D`, little endian).
const DICTIONARY_MAGIC: [u8; 4] = [0x5d, 0x2a, 0x4d, 0x18];
/// How a zstd dictionary starts (RFC 8878, section 5).
const DICTIONARY_START: [u8; 4] = [0x37, 0xa4, 0x30, 0xec];
/// The largest dictionary read, compressed or not (the IIPC text asks
/// decoders for 8 MiB).
pub const DICTIONARY_MAX: usize = 64 << 20;

/// The most a frame header can take: magic, descriptor, window, dictionary
/// id, content size.
const FRAME_HEADER_MAX: usize = 4 + 1 + 1 + 4 + 8;

enum Stage {
    /// Before a frame (the first, or one after a complete frame).
    Between,
    /// Inside a frame, fed to libzstd unit by unit.
    Frame,
    /// Inside a skippable frame: this many bytes are left.
    Skip(u64),
}

/// The next unit of a frame after the current one.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    /// A block header and its block.
    Block,
    /// The 4-byte content checksum.
    Checksum,
    /// Nothing: the frame ends with the current unit.
    End,
}

pub(super) struct Zstd {
    source: Source,
    decoder: Decoder<'static>,
    stage: Stage,
    progress: Progress,
    /// The current frame's 1-based number and first byte.
    frame: u64,
    frame_start: u64,
    /// Where the current unit starts, and its bytes not yet given to libzstd.
    unit_start: u64,
    unit_left: u64,
    next: Next,
    has_checksum: bool,
    /// The current unit is the frame's checksum: a fault there leaves the
    /// frame's bytes whole if they are as many as its header says.
    in_checksum: bool,
    /// The frame's content size, when its header gives one, and how many
    /// bytes it has decoded to.
    content_size: Option<u64>,
    frame_out: u64,
    /// The frame header's bytes as they are fed to libzstd (`header[..len]`
    /// of `size`), and where its content size field is in it.
    header: FrameHeader,
    /// A frame without a checksum just ended, its bytes still held: see
    /// [`Zstd::after_unchecked`].
    unchecked: bool,
    /// The last call filled the output: libzstd may hold more of the block.
    draining: bool,
    /// The current frame's bytes, until libzstd has checked it.
    hold: Hold,
    /// The file's dictionary (its first frame, a dictionary frame), which
    /// every frame is decoded with.
    dictionary: Dictionary,
}

impl Zstd {
    #[cfg(test)]
    pub fn new(source: Source) -> Zstd {
        Zstd::resume(source, 0, None)
    }
}

impl Units for Zstd {
    /// (`pzstd` writes frames of a few MiB.)
    const SEGMENT: usize = 4 << 20;
    /// (Frames are found exactly: one per piece will do.)
    const SMALL: usize = 1;
    /// (Zstd decodes several times faster than gzip: on two cores the
    /// decoding thread keeps up with both workers, and batches only add
    /// copies and memory.)
    const MIN_CORES: usize = 3;
    /// (A frame's end is found without decoding, so jobs are even.)
    const JOBS_PER_CORE: usize = 1;
    const THREADS: &'static str = "urlsift zstd frames";
    /// The first frame that starts at or after `from`, walking the frames
    /// from the window's start.
    fn next_start(window: &[u8], from: usize, limit: usize) -> Option<usize> {
        let mut at = 0;
        while at < from {
            at = frame_end(&window[..limit], at)?;
        }
        (at < limit).then_some(at)
    }

    /// A decoder at a frame boundary, after `frames` complete frames
    /// (skippable ones included), decoding them with `dictionary`.
    fn resume(source: Source, frames: u64, dictionary: Dictionary) -> Zstd {
        let start = source.offset();
        let decoder = match &dictionary {
            // (A dictionary that loaded once loads again.)
            Some(d) => Decoder::with_dictionary(d).expect("a zstd dictionary loads"),
            None => Decoder::new().expect("a zstd decoding context"),
        };
        Zstd {
            source,
            decoder,
            dictionary,
            stage: Stage::Between,
            progress: Progress::Going,
            frame: frames,
            frame_start: start,
            unit_start: 0,
            unit_left: 0,
            next: Next::End,
            has_checksum: false,
            in_checksum: false,
            content_size: None,
            frame_out: 0,
            header: FrameHeader::default(),
            unchecked: false,
            draining: false,
            hold: Hold::default(),
        }
    }

    fn dictionary(&self) -> Dictionary {
        self.dictionary.clone()
    }
}

impl UnitCodec for Zstd {
    unit_fields!();

    fn between(&self) -> bool {
        matches!(self.stage, Stage::Between)
    }

    /// (A frame's end may be read before its checksum: `unchecked`.)
    fn checked(&self) -> bool {
        !self.unchecked
    }

    fn units(&self) -> (u64, u64) {
        (self.frame, self.frame_start)
    }

    fn step(&mut self, out: &mut [u8]) -> io::Result<usize> {
        Zstd::step(self, out)
    }

    fn after_fault(&mut self, e: io::Error) -> Progress {
        Zstd::after_fault(self, e)
    }
}

impl Zstd {
    fn fault(&self, fault: Fault, offset: u64) -> io::Error {
        DecodeError {
            format: Compression::Zstd,
            fault,
            offset,
            unit: Some((self.frame, self.frame_start)),
            resumed: None,
            damaged: None,
            aligned: false,
        }
        .into()
    }

    fn truncated(&self) -> io::Error {
        self.fault(Fault::Truncated, self.source.offset())
    }

    /// How the stream stands after fault `e`: resumed at the next frame
    /// found after it, or failed if none follows (or `e` is a cut or a
    /// read error).
    fn after_fault(&mut self, e: io::Error) -> Progress {
        // (The frame's held bytes: data after a cut, set aside with the
        // fault after anything else.)
        // Whole: decoded to the end, as many bytes as the header says
        // (damage can change the count; without a size, nobody knows).
        let whole = self.in_checksum && self.content_size == Some(self.frame_out);
        let e = self.hold.after_fault(e, whole);
        self.in_checksum = false;
        let source = &mut self.source;
        // The next frame: its magic number and a frame header descriptor
        // without the reserved bit, or a skippable frame (whose magic
        // numbers start with any of 16 bytes), past this one's first byte
        // (a frame whose header libzstd refuses starts with a good magic
        // number, which must not be found again, and again).
        let start = self.frame_start;
        let next = || {
            source.skip_past(start)?;
            source.skip_to(
                |b| b == ZSTD_MAGIC[0] || b & 0xf0 == 0x50,
                5,
                |head| {
                    let frame =
                        head.len() == 5 && head.starts_with(&ZSTD_MAGIC) && head[4] & 0x08 == 0;
                    frame || is_skippable_magic(head)
                },
            )
        };
        match resume(e, self.hold.ends().at_lines(), next) {
            Ok(e) => {
                self.decoder
                    .reinit()
                    .expect("a zstd decoding context resets");
                self.stage = Stage::Between;
                Progress::Resumed(e)
            }
            Err(e) => Progress::Failed(e),
        }
    }

    fn step(&mut self, out: &mut [u8]) -> io::Result<usize> {
        match self.stage {
            Stage::Between if self.unchecked => {
                self.unchecked = false;
                self.after_unchecked()?;
                self.hold.unit_ended();
                Ok(0)
            }
            Stage::Between => {
                let at_start = self.frame == 0 && self.source.offset() == 0;
                let head = self.source.peek(4)?;
                if head.starts_with(&ZSTD_MAGIC) {
                    self.start_frame()?;
                } else if is_skippable_magic(head) {
                    self.start_skippable()?;
                } else if at_start && !head.is_empty() {
                    // (Only a file taken for zstd by its name can start so:
                    // the bytes up to the next frame found count as frame 1.)
                    self.frame = 1;
                    return Err(self.fault(
                        Fault::Corrupt(
                            "not a zstd frame, though the file is named .zst (plain text is read as such from standard input)"
                                .into(),
                        ),
                        0,
                    ));
                } else {
                    check_end(&mut self.source, Compression::Zstd)?;
                    self.progress = Progress::Done;
                }
                Ok(0)
            }
            Stage::Skip(left) => {
                let bytes = self.source.fill_buf()?;
                if bytes.is_empty() {
                    return Err(self.truncated());
                }
                let k = bytes.len().min(left.try_into().unwrap_or(usize::MAX));
                self.source.take(k);
                self.stage = match left - k as u64 {
                    0 => Stage::Between,
                    rest => Stage::Skip(rest),
                };
                Ok(0)
            }
            Stage::Frame => {
                let mut hold = std::mem::take(&mut self.hold);
                let result = hold.decode(out, |buf| Ok((self.decode_unit(buf)?, ())));
                if matches!(self.stage, Stage::Between) {
                    if self.has_checksum || hold.held().is_none() {
                        // The frame is decoded and checked.
                        hold.unit_ended();
                    } else {
                        self.unchecked = true;
                    }
                }
                self.hold = hold;
                result.map(|(made, ())| made)
            }
        }
    }

    /// Starts a frame: its first unit is the frame header.
    fn start_frame(&mut self) -> io::Result<()> {
        self.frame += 1;
        self.frame_start = self.source.offset();
        let Some(head) = self.source.peek_whole(5)? else {
            return Err(self.truncated());
        };
        let descriptor = head[4];
        let (size, fcs_at) = header_size(descriptor);
        // The Frame_Content_Size field (RFC 8878 3.1.1.1.4), read as the
        // header is fed (a cut header is libzstd's to report).
        self.header = FrameHeader {
            size,
            fcs_at,
            ..FrameHeader::default()
        };
        self.content_size = None;
        self.frame_out = 0;
        self.has_checksum = descriptor & 4 != 0;
        self.in_checksum = false;
        self.unit_start = self.frame_start;
        self.unit_left = size as u64;
        self.next = Next::Block;
        self.draining = false;
        self.stage = Stage::Frame;
        Ok(())
    }

    /// After a frame without a checksum, whose bytes are still held: when
    /// exactly four bytes stand between it and the next frame (or the
    /// end), they are what a damaged descriptor that lost its checksum
    /// flag leaves, and they are checked as that checksum (the low 32 bits
    /// of the XXH64 of the frame's bytes). A match takes them, verified; a
    /// mismatch is a fault, and the frame's bytes are set aside. (Such a
    /// frame used to go out unchecked, its four bytes reported as
    /// garbage.)
    fn after_unchecked(&mut self) -> io::Result<()> {
        let starts_unit = |h: &[u8]| h.starts_with(&ZSTD_MAGIC) || is_skippable_magic(h);
        let at = self.source.offset();
        let head = self.source.peek(8)?;
        let stray =
            head.len() >= 4 && !starts_unit(head) && (head.len() == 4 || starts_unit(&head[4..]));
        if !stray {
            return Ok(());
        }
        let sum = u32::from_le_bytes(head[..4].try_into().expect("4 bytes"));
        let content = self.hold.held().unwrap_or_default();
        if xxhash_rust::xxh64::xxh64(content, 0) as u32 == sum {
            self.source.take(4);
            return Ok(());
        }
        Err(self.fault(
            Fault::Corrupt(
                "the frame says it has no checksum, but the 4 bytes after it are a wrong one \
                 (its header is damaged)"
                    .into(),
            ),
            at,
        ))
    }

    /// Starts a skippable frame: magic, 4-byte length, that many bytes.
    fn start_skippable(&mut self) -> io::Result<()> {
        let first = self.frame == 0 && self.source.offset() == 0;
        self.frame += 1;
        self.frame_start = self.source.offset();
        let Some(head) = self.source.peek_whole(8)? else {
            return Err(self.truncated());
        };
        let len = u32::from_le_bytes(head[4..8].try_into().expect("4 bytes"));
        if first && head[..4] == DICTIONARY_MAGIC {
            return self.read_dictionary(len as usize);
        }
        self.source.take(8);
        self.stage = if len == 0 {
            Stage::Between
        } else {
            Stage::Skip(len.into())
        };
        Ok(())
    }

    /// Reads the dictionary frame that starts the file (`len` bytes after
    /// its 8-byte header): a dictionary, or a zstd frame that decodes to
    /// one (the IIPC's `.warc.zst`, `spec/warc-zstd.md`); every frame
    /// after it is decoded with it.
    fn read_dictionary(&mut self, len: usize) -> io::Result<()> {
        let corrupt = |z: &Zstd, why: String| z.fault(Fault::Corrupt(why), z.frame_start);
        if len > DICTIONARY_MAX {
            let why =
                format!("a dictionary frame of {len} bytes (at most {DICTIONARY_MAX} are read)");
            return Err(corrupt(self, why));
        }
        self.source.take(8);
        let mut data = Vec::with_capacity(len);
        while data.len() < len {
            let bytes = self.source.fill_buf()?;
            if bytes.is_empty() {
                return Err(self.truncated());
            }
            let k = bytes.len().min(len - data.len());
            data.extend_from_slice(&bytes[..k]);
            self.source.take(k);
        }
        let dictionary = dictionary_of(data).map_err(|why| corrupt(self, why))?;
        self.decoder = Decoder::with_dictionary(&dictionary)
            .map_err(|e| corrupt(self, format!("the dictionary does not load: {e}")))?;
        self.dictionary = Some(Arc::from(dictionary));
        self.stage = Stage::Between;
        Ok(())
    }

    /// Moves to the frame's next unit once the current one is fed whole
    /// and drained. Returns false when the frame has no more units.
    fn next_unit(&mut self) -> io::Result<bool> {
        self.unit_start = self.source.offset();
        match self.next {
            Next::End => return Ok(false),
            Next::Checksum => {
                self.unit_left = 4;
                self.next = Next::End;
                self.in_checksum = true;
            }
            Next::Block => {
                let Some(head) = self.source.peek_whole(3)? else {
                    return Err(self.truncated());
                };
                let header =
                    u32::from(head[0]) | u32::from(head[1]) << 8 | u32::from(head[2]) << 16;
                let last = header & 1 != 0;
                let size = u64::from(header >> 3);
                // Raw and compressed blocks carry `size` bytes, an RLE block
                // one; libzstd rejects the reserved type on its header.
                let content = if (header >> 1) & 3 == 1 { 1 } else { size };
                self.unit_left = 3 + content;
                self.next = match (last, self.has_checksum) {
                    (false, _) => Next::Block,
                    (true, true) => Next::Checksum,
                    (true, false) => Next::End,
                };
            }
        }
        Ok(true)
    }

    /// Feeds (part of) the current unit to libzstd, or drains its output.
    fn decode_unit(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.unit_left == 0 && !self.draining && !self.next_unit()? {
            // Every unit was fed and drained, yet libzstd did not end the
            // frame (it ends it by returning 0, below).
            return Err(self.fault(
                Fault::Corrupt("the frame does not end where its blocks say".into()),
                self.source.offset(),
            ));
        }
        let bytes = if self.unit_left > 0 {
            self.source.fill_buf()?
        } else {
            &[]
        };
        let limit = bytes
            .len()
            .min(self.unit_left.try_into().unwrap_or(usize::MAX));
        let at_end = self.unit_left > 0 && bytes.is_empty();
        let mut input = InBuffer::around(&bytes[..limit]);
        let mut output = OutBuffer::around(out);
        let hint = match self.decoder.run(&mut input, &mut output) {
            Ok(hint) => hint,
            Err(e) => {
                // Nothing of this call's output counts, and a call decodes
                // at most the current unit's block: no good bytes are lost.
                let mut reason = e.to_string();
                if self.dictionary.is_none() && reason == "Dictionary mismatch" {
                    reason.push_str(
                        ": the frame needs a zstd dictionary, and the file does not start with \
                         a dictionary frame (a .warc.zst without its first frame? put it back, \
                         or decode with zstd -d -D DICTIONARY)",
                    );
                }
                return Err(self.fault(Fault::Corrupt(reason), self.unit_start));
            }
        };
        let (taken, made) = (input.pos(), output.pos());
        if let Some(size) = self.header.fed(&bytes[..taken]) {
            self.content_size = size;
        }
        self.frame_out += made as u64;
        self.source.take(taken);
        self.unit_left -= taken as u64;
        self.draining = made == out.len();
        if hint == 0 {
            // The frame is decoded, checked and flushed.
            self.stage = Stage::Between;
        } else if at_end && made == 0 {
            return Err(self.truncated());
        }
        Ok(made)
    }
}

/// A frame header gathered as it is fed, for its content size.
#[derive(Default)]
struct FrameHeader {
    bytes: [u8; FRAME_HEADER_MAX],
    len: usize,
    size: usize,
    fcs_at: usize,
}

impl FrameHeader {
    /// Takes the next bytes fed to libzstd; once the header is whole (on
    /// that call only), its content size, if it gives one.
    fn fed(&mut self, fed: &[u8]) -> Option<Option<u64>> {
        if self.len >= self.size {
            return None;
        }
        let k = fed.len().min(self.size - self.len);
        self.bytes[self.len..self.len + k].copy_from_slice(&fed[..k]);
        self.len += k;
        if self.len < self.size {
            return None;
        }
        let field = &self.bytes[self.fcs_at..self.size];
        let mut le = [0u8; 8];
        le[..field.len()].copy_from_slice(field);
        let v = u64::from_le_bytes(le);
        Some(match field.len() {
            0 => None,
            2 => Some(v + 256),
            _ => Some(v),
        })
    }
}

impl Decode for Zstd {
    fn decode(&mut self, out: &mut [u8]) -> io::Result<usize> {
        self.decode_paused(out, false)
    }
}

/// The size of a frame header with this descriptor byte (RFC 8878
/// 3.1.1.1), and where its Frame_Content_Size field starts in it.
fn header_size(descriptor: u8) -> (usize, usize) {
    let single_segment = descriptor & 0x20 != 0;
    let content_size_bytes = match descriptor >> 6 {
        0 => usize::from(single_segment),
        1 => 2,
        2 => 4,
        _ => 8,
    };
    let window_bytes = usize::from(!single_segment);
    let dictionary_bytes = [0, 1, 2, 4][usize::from(descriptor & 3)];
    let fcs_at = 5 + window_bytes + dictionary_bytes;
    let size = fcs_at + content_size_bytes;
    debug_assert!(size <= FRAME_HEADER_MAX);
    (size, fcs_at)
}

/// Where the frame (or skippable frame) that starts at `at` in `window`
/// ends, found by walking its header and block headers; `None` when it
/// does not end inside `window`, or is not a frame this walk can vouch
/// for (a reserved bit or block type: the decoder will say what is wrong).
pub(super) fn frame_end(window: &[u8], at: usize) -> Option<usize> {
    let head = window.get(at..at + 5)?;
    if is_skippable_magic(head) {
        let len = u32::from_le_bytes(window.get(at + 4..at + 8)?.try_into().ok()?);
        let end = at + 8 + len as usize;
        return (end <= window.len()).then_some(end);
    }
    let descriptor = head[4];
    if !head.starts_with(&ZSTD_MAGIC) || descriptor & 0x08 != 0 {
        return None;
    }
    let mut pos = at + header_size(descriptor).0;
    loop {
        let head = window.get(pos..pos + 3)?;
        let header = u32::from(head[0]) | u32::from(head[1]) << 8 | u32::from(head[2]) << 16;
        let size = (header >> 3) as usize;
        pos += 3 + match (header >> 1) & 3 {
            1 => 1,
            3 => return None,
            _ => size,
        };
        if header & 1 != 0 {
            break;
        }
    }
    if descriptor & 4 != 0 {
        pos += 4;
    }
    (pos <= window.len()).then_some(pos)
}

/// The zstd dictionary a `.warc.zst` file's dictionary frame holds, given
/// the frame's payload (the bytes after its 8-byte header): the payload
/// itself, or the zstd frame it holds decoded (at most [`DICTIONARY_MAX`]
/// bytes); either must start with a dictionary's magic number. The error
/// says what is wrong.
///
/// ```
/// use urlsift_input::decode::dictionary_of;
///
/// let dict = [&[0x37, 0xa4, 0x30, 0xec][..], b"entropy tables and content"].concat();
/// assert_eq!(dictionary_of(dict.clone()).unwrap(), dict);
/// let packed = zstd::bulk::compress(&dict, 3).unwrap();
/// assert_eq!(dictionary_of(packed).unwrap(), dict);
/// assert!(dictionary_of(b"no dictionary".to_vec()).unwrap_err().contains("holds no zstd dictionary"));
/// ```
pub fn dictionary_of(payload: Vec<u8>) -> Result<Vec<u8>, String> {
    let dictionary = if payload.starts_with(&ZSTD_MAGIC) {
        zstd::bulk::decompress(&payload, DICTIONARY_MAX)
            .map_err(|e| format!("the dictionary frame's zstd frame does not decode: {e}"))?
    } else {
        payload
    };
    if !dictionary.starts_with(&DICTIONARY_START) {
        return Err("the dictionary frame holds no zstd dictionary".to_string());
    }
    Ok(dictionary)
}

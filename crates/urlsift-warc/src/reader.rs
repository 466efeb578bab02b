//! The record reader's state for one source: the window it walks (read
//! into a buffer, or a mapped file), where it stands, and how it reads a
//! run of records into a chunk of header blocks and an index of entries.

use std::io::{self, Read};
use std::sync::Arc;

use urlsift_input::mmap::Map;

use crate::entry::{Body, Entry};
use crate::header::{BlockEnd, content_length, ends_a_record, starts_a_header};
use crate::record_fault::RecordFault;
use crate::{Blocks, Dialect, SHOWN, arc};
use urlsift_simd as simd;

/// What a reader in keeping mode hands blocks to, and hears back.
pub(crate) struct Keep<'k> {
    /// Where the blocks go.
    pub blocks: &'k mut dyn Blocks,
    /// Whether the last record's length was wrong (its payload is the
    /// `bad-WARC-length` stretch read after it).
    pub misplaced: bool,
    /// The index entries of the records whose header [`Blocks::start`] was
    /// shown, in order.
    pub started: Vec<usize>,
}

/// How much is read at a time.
const READ: usize = 1 << 16;

/// The longest payload of read (not mapped) input whose Content-Length is
/// checked against where the record ends: it is buffered for that rather
/// than skipped.
const CHECKED: usize = 1 << 20;
/// In a longer payload of read input, the most that is kept from a record
/// header found inside it to the end its length claims (or to the end of
/// the input), to check that length the same way ([`Reader::skip_watching`]).
const HELD: usize = 64 << 20;

/// How [`Reader::skip_watching`] left a payload.
enum Skipped {
    /// Skipped to the end its length claims.
    Whole,
    /// The input ended (or failed) first, with no record header in it.
    Cut,
    /// The length is wrong: the payload ends at the record header now at
    /// `pos`. `shown`: its first bytes.
    Misplaced { shown: Vec<u8> },
}

/// The bytes the reader walks: read from the source into a buffer, or the
/// whole of a mapped file.
enum Window {
    Read(Vec<u8>),
    Mapped {
        map: Arc<Map>,
        /// Pages before this offset were given back (see `release`).
        released: usize,
    },
}

/// The record reader's state for one source.
pub struct Reader {
    dialect: Dialect,
    buf: Window,
    pos: usize,
    eof: bool,
    /// The input offset of the window's first byte.
    offset: u64,
    /// A read error, held until the records read before it are handed
    /// out (the input counts as ended there).
    error: Option<io::Error>,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader::new(Vec::new(), 0)
    }
}

impl Reader {
    /// Starts on `head`, bytes already read from the source at `offset`.
    pub fn new(head: Vec<u8>, offset: u64) -> Reader {
        Reader {
            dialect: Dialect::Warc,
            buf: Window::Read(head),
            pos: 0,
            eof: false,
            offset,
            error: None,
        }
    }

    /// The same reader, reading records of `dialect`.
    pub fn dialect(mut self, dialect: Dialect) -> Reader {
        self.dialect = dialect;
        self
    }

    /// The records' format.
    pub fn format(&self) -> Dialect {
        self.dialect
    }

    /// The buffer read input went into (empty for a mapped file), to be
    /// read into again.
    pub fn into_buffer(self) -> Vec<u8> {
        match self.buf {
            Window::Read(buf) => buf,
            Window::Mapped { .. } => Vec::new(),
        }
    }

    /// The same reader with nothing more to read: the bytes it was given
    /// are all (it walks them in place, never moving them).
    ///
    /// ```
    /// use urlsift_warc::Reader;
    ///
    /// let warc = b"WARC/1.1\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n".to_vec();
    /// let mut reader = Reader::new(warc, 10).ended();
    /// let (mut data, mut index) = (Vec::new(), Vec::new());
    /// let more = std::io::repeat(b'x');
    /// assert!(reader.read_chunk(&mut more.take(5), 1 << 20, 1 << 16, &mut data, &mut index)?);
    /// assert_eq!((index.len(), index[0].offset), (1, 10));
    /// # use std::io::Read;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn ended(mut self) -> Reader {
        self.eof = true;
        self
    }

    /// The same reader with its input ended by `error` (a read that failed
    /// after the bytes it was given): it reads those, then returns it.
    pub fn failed(mut self, error: io::Error) -> Reader {
        self.fail(error);
        self
    }

    /// How far into the source the reader has read: where a reader that
    /// takes over its input must start counting.
    pub fn read_to(&self) -> u64 {
        match &self.buf {
            Window::Read(buf) => self.offset + buf.len() as u64,
            Window::Mapped { map, .. } => map.bytes().len() as u64,
        }
    }

    /// Whether the reader reads its input (not a map) and has not met its
    /// end or an error: the bytes after those it read may be walked by
    /// another reader ([`Reader::skip_taken`]) or handed to this one
    /// ([`Reader::take_up`]), once it has used up what it read
    /// ([`Reader::unread`], [`Reader::hand_back`]).
    ///
    /// ```
    /// use urlsift_warc::Reader;
    ///
    /// let warc = b"WARC/1.1\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n";
    /// let mut reader = Reader::new(warc.to_vec(), 0);
    /// let (mut data, mut index) = (Vec::new(), Vec::new());
    /// // One record, and the chunk is full: the reader stops after it,
    /// // having read ahead (64 KiB) of an input that goes on.
    /// let mut more = std::io::repeat(b'W');
    /// reader.read_chunk(&mut more, 1, 1 << 16, &mut data, &mut index)?;
    /// assert!(reader.going());
    /// assert_eq!(reader.unread().len(), 4 + 65536);
    /// reader.hand_back(65536);
    /// assert_eq!(reader.unread(), b"\r\n\r\n");
    ///
    /// let mut reader = Reader::new(warc.to_vec(), 0);
    /// reader.read_chunk(&mut &b""[..], 1 << 20, 1 << 16, &mut data, &mut index)?;
    /// assert!(!reader.going(), "the input ended");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn going(&self) -> bool {
        matches!(self.buf, Window::Read(_)) && !self.eof && self.error.is_none()
    }

    /// The bytes read and not yet walked.
    pub fn unread(&self) -> &[u8] {
        self.rest()
    }

    /// Forgets the last `n` bytes read (at most [`Reader::unread`]'s):
    /// the input gives them again.
    pub fn hand_back(&mut self, n: usize) {
        if let Window::Read(buf) = &mut self.buf {
            let n = n.min(buf.len() - self.pos);
            buf.truncate(buf.len() - n);
        }
    }

    /// A [`Reader::going`] reader, between records with nothing but blank
    /// bytes unread, goes on `n` bytes further into its input: another
    /// reader walked the `n` bytes after what it read.
    ///
    /// ```
    /// use urlsift_warc::Reader;
    ///
    /// let mut reader = Reader::new(b"\r\n".to_vec(), 100);
    /// reader.skip_taken(40);
    /// assert_eq!(reader.read_to(), 142);
    /// ```
    pub fn skip_taken(&mut self, n: u64) {
        debug_assert!(self.unread().iter().all(|b| matches!(b, b'\r' | b'\n')));
        if let Window::Read(buf) = &mut self.buf {
            self.offset += buf.len() as u64 + n;
            buf.clear();
            self.pos = 0;
        }
    }

    /// A [`Reader::going`] reader, between records with nothing but blank
    /// bytes unread, takes `bytes`, the next of its input, as its window
    /// (not copied), and walks them before the rest. Gives back the buffer
    /// it read into before.
    ///
    /// ```
    /// use urlsift_warc::Reader;
    ///
    /// let mut reader = Reader::new(Vec::new(), 7);
    /// let _spent = reader.take_up(b"WARC/1.1\r\nContent-Length: 0\r\n\r\n\r\n\r\n".to_vec());
    /// let (mut data, mut index) = (Vec::new(), Vec::new());
    /// assert!(reader.read_chunk(&mut &b""[..], 1 << 20, 1 << 16, &mut data, &mut index)?);
    /// assert_eq!((index.len(), index[0].offset, index[0].bad), (1, 7, None));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn take_up(&mut self, bytes: Vec<u8>) -> Vec<u8> {
        debug_assert!(self.unread().iter().all(|b| matches!(b, b'\r' | b'\n')));
        match &mut self.buf {
            Window::Read(buf) => {
                self.offset += buf.len() as u64;
                self.pos = 0;
                std::mem::replace(buf, bytes)
            }
            Window::Mapped { .. } => Vec::new(),
        }
    }

    /// Starts at `start` in a mapped file, which it then walks in place:
    /// `read_chunk`'s reader is not used.
    pub fn mapped(map: Arc<Map>, start: usize) -> Reader {
        Reader {
            dialect: Dialect::Warc,
            buf: Window::Mapped { map, released: 0 },
            pos: start,
            eof: true,
            offset: 0,
            error: None,
        }
    }

    /// The window: what was read and kept, or the mapped file.
    #[inline]
    fn bytes(&self) -> &[u8] {
        match &self.buf {
            Window::Read(buf) => buf,
            Window::Mapped { map, .. } => map.bytes(),
        }
    }

    /// Makes at least `want` unread bytes available, unless the input ends
    /// (or fails: see [`Reader::fail`]).
    fn fill(&mut self, r: &mut dyn Read, want: usize) {
        let Window::Read(buf) = &mut self.buf else {
            // All of a mapped file is at hand.
            return;
        };
        // (Once the input has ended, nothing needs the room.)
        if !self.eof && self.pos > 0 && self.pos >= buf.len() / 2 {
            buf.drain(..self.pos);
            self.offset += self.pos as u64;
            self.pos = 0;
        }
        while !self.eof && buf.len() - self.pos < want {
            let before = buf.len();
            let room = want.max(READ);
            match r.take(room as u64).read_to_end(buf) {
                Ok(_) if buf.len() == before => self.eof = true,
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // What was read before the error (already in `buf`) is
                // read as records first; the input ends there.
                Err(e) => {
                    self.eof = true;
                    self.error.get_or_insert(e);
                }
            }
        }
    }

    /// Gives back the pages of a mapped file walked so far (only header
    /// blocks were copied out of them), so resident memory stays small
    /// however large the file is.
    fn release(&mut self) {
        if let Window::Mapped { map, released } = &mut self.buf {
            map.release(*released..self.pos);
            *released = self.pos;
        }
    }

    fn rest(&self) -> &[u8] {
        &self.bytes()[self.pos..]
    }

    /// Moves past `n` bytes at hand, handing them to `block` where a block
    /// is taken.
    #[inline]
    fn pass(&mut self, n: usize, block: &mut Taking<'_, '_>) {
        if let Some(block) = block {
            block.take(&self.rest()[..n]);
        }
        self.pos += n;
    }

    /// Skips `n` bytes of payload (kept in `block`, where one is), which
    /// are at hand: in a mapped file, or buffered by
    /// [`Reader::misplaced_end`] (longer payloads of read input go through
    /// [`Reader::skip_watching`]). False if the input ends (or fails)
    /// first.
    fn skip(&mut self, n: u64, block: &mut Taking<'_, '_>) -> bool {
        let len = self.bytes().len();
        if n <= (len - self.pos) as u64 {
            self.pass(n as usize, block);
            return true;
        }
        debug_assert!(self.eof, "a payload not at hand");
        self.pos = len;
        false
    }

    /// Ends the input at a read error, kept for [`Reader::read_chunk`] to
    /// return once the records read before it are out: a gzip stream cut
    /// short loses none of the records it decoded.
    fn fail(&mut self, e: io::Error) {
        self.eof = true;
        self.error.get_or_insert(e);
    }

    /// Reads records into `data` (header blocks) and `index` until about
    /// `chunk_size` bytes of headers are in or the input ends; returns
    /// whether it ended. `max_header` bounds a header block. On a read
    /// error, what was read before it is in `data` and `index` (a record
    /// whose payload the error cut is marked truncated).
    ///
    /// ```
    /// use urlsift_warc::{RecordFault, Reader};
    ///
    /// let warc = b"WARC/1.1\r\nContent-Length: 2\r\n\r\nhi\r\n\r\nnot a header\r\n";
    /// let (mut data, mut index) = (Vec::new(), Vec::new());
    /// let ended = Reader::default().read_chunk(&mut &warc[..], 1 << 20, 1 << 16, &mut data, &mut index);
    /// assert!(ended.unwrap());
    /// assert_eq!(index.len(), 2);
    /// assert_eq!((index[0].offset, index[0].bad), (0, None));
    /// assert_eq!(index[1].bad, Some(RecordFault::BadWarcHeader));
    /// ```
    pub fn read_chunk(
        &mut self,
        r: &mut dyn Read,
        chunk_size: usize,
        max_header: usize,
        data: &mut Vec<u8>,
        index: &mut Vec<Entry>,
    ) -> io::Result<bool> {
        self.read_records(r, chunk_size, max_header, data, index, None)
    }

    /// [`Reader::read_chunk`], and with `keep`, the blocks it takes are
    /// handed to it: called so with a chunk size of 1, it reads one record
    /// (and, after a wrong length, the bad stretch that is its payload).
    pub(crate) fn read_records(
        &mut self,
        r: &mut dyn Read,
        chunk_size: usize,
        max_header: usize,
        data: &mut Vec<u8>,
        index: &mut Vec<Entry>,
        mut keep: Option<&mut Keep>,
    ) -> io::Result<bool> {
        self.release();
        while data.len() + keep.as_ref().map_or(0, |k| k.blocks.held()) < chunk_size {
            self.fill(r, READ);
            // Blank lines between records (the spec's two CRLFs).
            let blank = self
                .rest()
                .iter()
                .take_while(|b| matches!(b, b'\r' | b'\n'))
                .count();
            self.pos += blank;
            if self.rest().is_empty() {
                self.fill(r, 1);
                if self.rest().is_empty() {
                    // The end, or the read error it stands for.
                    return match self.error.take() {
                        Some(e) => Err(e),
                        None => Ok(true),
                    };
                }
                continue;
            }
            let offset = self.offset + self.pos as u64;
            let bad_header = self.dialect.bad_header();
            if !self.dialect.may_start(self.rest()) {
                self.bad_stretch(r, max_header, offset, bad_header, data, index)?;
                continue;
            }
            let head_len = match self.header_len(r, max_header)? {
                Ok(len) => len,
                Err(reason) => {
                    self.bad_stretch(r, max_header, offset, reason, data, index)?;
                    continue;
                }
            };
            let header = &self.bytes()[self.pos..self.pos + head_len];
            let length = match self.dialect {
                Dialect::Warc => content_length(header),
                Dialect::Arc => arc::Header::parse(header).map(|h| h.length),
            };
            let Some(length) = length else {
                self.bad_stretch(r, max_header, offset, bad_header, data, index)?;
                continue;
            };
            // A block taken is handed over as it is skipped.
            let taking = match keep.as_deref_mut() {
                Some(k) => k.blocks.start(self.dialect, header, length),
                None => false,
            };
            let start = data.len();
            data.extend_from_slice(header);
            self.pos += head_len;
            index.push(Entry {
                start,
                end: data.len(),
                offset,
                bad: Some(RecordFault::Truncated),
                body: Body::None,
            });
            if let Some(k) = keep.as_deref_mut() {
                k.started.push(index.len() - 1);
            }
            let payload = self.offset + self.pos as u64;
            if self.dialect == Dialect::Arc {
                // (An ARC length is trusted: no damage check.)
                let complete = self.skip_reading(r, length, &mut taken(&mut keep, taking));
                let entry = index.last_mut().expect("just pushed");
                entry.bad = (!complete).then_some(RecordFault::ArcTruncated);
                continue;
            }
            if let Some(next) = self.misplaced_end(r, length, max_header) {
                // A damaged length would skip the records it runs over (to
                // the end of the input, for a digit too many). The header
                // is whole, so the record stands; the payload up to the
                // next record is the bad part, and reading goes on there.
                let shown = self.rest()[..(next - self.pos).min(SHOWN)].to_vec();
                self.pos = next;
                self.bad_length(payload, &shown, data, index);
                if let Some(k) = keep.as_deref_mut() {
                    k.misplaced = true;
                }
                continue;
            }
            let complete = if matches!(self.buf, Window::Read(_)) && length > CHECKED as u64 {
                match self.skip_watching(r, length, max_header, &mut taken(&mut keep, taking)) {
                    Skipped::Whole => true,
                    Skipped::Cut => false,
                    Skipped::Misplaced { shown } => {
                        self.bad_length(payload, &shown, data, index);
                        if let Some(k) = keep.as_deref_mut() {
                            k.misplaced = true;
                        }
                        continue;
                    }
                }
            } else {
                self.skip(length, &mut taken(&mut keep, taking))
            };
            let entry = index.last_mut().expect("just pushed");
            entry.bad = (!complete).then_some(RecordFault::WarcTruncated);
        }
        Ok(false)
    }

    /// Marks the record just indexed whole, and adds its payload, from
    /// `payload` (an input offset; `shown` its first bytes) to `pos`, as a
    /// `bad-WARC-length` record.
    fn bad_length(&self, payload: u64, shown: &[u8], data: &mut Vec<u8>, index: &mut Vec<Entry>) {
        index.last_mut().expect("a record").bad = None;
        let len = self.offset + self.pos as u64 - payload;
        let start = data.len();
        data.extend_from_slice(&shown[..shown.len().min(len as usize).min(SHOWN)]);
        if len > SHOWN as u64 {
            data.extend_from_slice(b"...");
        }
        index.push(Entry {
            start,
            end: data.len(),
            offset: payload,
            bad: Some(RecordFault::WarcBadLength),
            body: Body::None,
        });
    }

    /// Skips `n` bytes of payload (kept in `block`, where one is), reading
    /// them from `r` where they are not at hand; false if the input ends
    /// (or fails) first.
    fn skip_reading(&mut self, r: &mut dyn Read, n: u64, block: &mut Taking<'_, '_>) -> bool {
        let mut left = n;
        loop {
            let at_hand = self.rest().len() as u64;
            if left <= at_hand {
                self.pass(left as usize, block);
                return true;
            }
            left -= at_hand;
            self.pass(at_hand as usize, block);
            if self.eof {
                return false;
            }
            self.fill(r, READ);
            if self.rest().is_empty() {
                return false;
            }
        }
    }

    /// Skips a payload of `length` bytes of read input, too long to buffer
    /// whole for [`Reader::misplaced_end`] ([`CHECKED`]), watching it for a
    /// whole record header as that check does. From such a header, up to
    /// [`HELD`] bytes are kept: if the end the length claims is not a
    /// record's end, or the input ends first, the length is wrong and
    /// reading goes on at the header. Headers farther than that from the
    /// claimed end are passed over (the length is trusted), unless the
    /// input ends within [`HELD`] bytes of them.
    fn skip_watching(
        &mut self,
        r: &mut dyn Read,
        length: u64,
        max_header: usize,
        block: &mut Taking<'_, '_>,
    ) -> Skipped {
        self.fill(r, SHOWN);
        let shown = self.rest()[..self.rest().len().min(SHOWN)].to_vec();
        // Payload bytes left from `pos`; whether `pos` starts a line.
        let mut left = length;
        let mut line_start = true;
        loop {
            self.fill(r, READ);
            let rest = self.rest();
            if rest.is_empty() {
                return Skipped::Cut;
            }
            let visible = rest.len().min(usize::try_from(left).unwrap_or(usize::MAX));
            let found = if line_start && rest.starts_with(b"WARC/") {
                Some(0)
            } else {
                memchr::memmem::find(&rest[..rest.len().min(visible + 5)], b"\nWARC/")
                    .map(|i| i + 1)
                    .filter(|&c| c < visible)
            };
            let Some(c) = found else {
                // Keep what may be the start of a "\nWARC/" cut by the read.
                let keep = if visible as u64 == left {
                    0
                } else {
                    visible.min(5)
                };
                if visible == keep {
                    // Too little read to move on: read more.
                    let have = rest.len();
                    self.fill(r, have + 1);
                    if self.eof && self.rest().len() == have {
                        self.pos += visible;
                        return Skipped::Cut;
                    }
                    continue;
                }
                self.pass(visible - keep, block);
                left -= (visible - keep) as u64;
                line_start = false;
                if left == 0 {
                    return Skipped::Whole;
                }
                continue;
            };
            // From the candidate on, the bytes stay (it may be where reading
            // goes on).
            self.pass(c, block);
            left -= c as u64;
            self.fill(r, max_header);
            if starts_a_header(&self.rest()[..self.rest().len().min(max_header)]) {
                let ahead = usize::try_from(left).map_or(HELD, |l| l.min(HELD - 16));
                self.fill(r, ahead + 16);
                let rest = self.rest();
                let fits = (left as usize) < HELD - 16;
                if fits && let Some(after) = rest.get(left as usize..) {
                    if ends_a_record(after) {
                        self.pass(left as usize, block);
                        return Skipped::Whole;
                    }
                    return Skipped::Misplaced { shown };
                }
                if self.eof && (rest.len() as u64) < left {
                    // The input ends before the claimed end.
                    return Skipped::Misplaced { shown };
                }
            }
            // Not a header, or too far from the claimed end to tell: the
            // length stands for now.
            self.pass(1, block);
            left -= 1;
            line_start = false;
            if left == 0 {
                return Skipped::Whole;
            }
        }
    }

    /// Checks a payload of `length` bytes at `pos`, where its end is at
    /// hand (always in a mapped file; read input is buffered up to
    /// [`CHECKED`] bytes ahead for it): a record ends in blank lines, then
    /// the next record's `WARC/` or the end of the input. Where it does
    /// not, and a whole record header (a `WARC/` line starting a block
    /// with a Content-Length) starts inside the payload as its length
    /// claims it, returns where: the length is too long, and would skip
    /// that record. `None`: the length ends the record, or nothing better
    /// is known (the payload is skipped by its length, as always; a
    /// length too short leaves a bad stretch up to the next header).
    fn misplaced_end(&mut self, r: &mut dyn Read, length: u64, max_header: usize) -> Option<usize> {
        let mapped = matches!(self.buf, Window::Mapped { .. });
        if !mapped {
            if length > CHECKED as u64 {
                return None;
            }
            // (Room for the blank lines and the next record's first bytes.)
            self.fill(r, length as usize + 16);
        }
        let rest = self.rest();
        let end = usize::try_from(length).unwrap_or(usize::MAX);
        match rest.get(end..) {
            Some(after) if ends_a_record(after) => return None,
            None if !self.eof => return None,
            _ => {}
        }
        // `rest` starts with the payload (after the header's blank line, so
        // its first byte starts a line too).
        let within = &rest[..rest.len().min(end)];
        let mut candidates = rest
            .starts_with(b"WARC/")
            .then_some(0)
            .into_iter()
            .chain(memchr::memmem::find_iter(within, b"\nWARC/").map(|i| i + 1));
        candidates
            .find(|&at| starts_a_header(&rest[at..rest.len().min(at + max_header)]))
            .map(|at| self.pos + at)
    }

    /// The length of the header block at `pos` (through its blank line; an
    /// ARC header through its line end); a bad header if none ends within
    /// `max_header` bytes, a truncated record if the input ends first.
    pub(crate) fn header_len(
        &mut self,
        r: &mut dyn Read,
        max_header: usize,
    ) -> io::Result<Result<usize, RecordFault>> {
        let mut searched: usize = 0;
        loop {
            // A block longer than `max_header` is not one (a mapped file
            // would otherwise be searched to its end).
            let rest = self.rest();
            let rest = &rest[..rest.len().min(max_header)];
            let window = &rest[searched.saturating_sub(3)..];
            let end = match self.dialect {
                Dialect::Warc => simd::with_kernel(BlockEnd(window)),
                Dialect::Arc => memchr::memchr(b'\n', window).map(|i| i + 1),
            };
            if let Some(i) = end {
                return Ok(Ok(searched.saturating_sub(3) + i));
            }
            searched = rest.len();
            if searched >= max_header {
                return Ok(Err(self.dialect.bad_header()));
            }
            if self.eof {
                return Ok(Err(self.dialect.truncated()));
            }
            self.fill(r, searched + READ);
        }
    }

    /// A bad record from `pos` to the next line that starts a WARC header
    /// (or the end): its first bytes are kept to show.
    fn bad_stretch(
        &mut self,
        r: &mut dyn Read,
        max_header: usize,
        offset: u64,
        reason: RecordFault,
        data: &mut Vec<u8>,
        index: &mut Vec<Entry>,
    ) -> io::Result<()> {
        let start = data.len();
        let shown = self.rest().len().min(SHOWN);
        data.extend_from_slice(&self.rest()[..shown]);
        // Resynchronize: past the first byte, find the next line that
        // starts a record ("WARC/", or an ARC header line) and resume there.
        self.pos += 1;
        loop {
            if let Some(i) = self.next_start(r, max_header) {
                self.pos += i + 1;
                break;
            }
            // Keep a possible partial match at the end.
            let keep = self.rest().len().min(5);
            self.pos = self.bytes().len() - keep;
            if self.eof {
                self.pos = self.bytes().len();
                break;
            }
            self.fill(r, READ);
            if self.eof && self.rest().len() <= keep {
                self.pos = self.bytes().len();
                break;
            }
        }
        // What is shown is the stretch itself (up to the limit), which
        // shows where it was cut.
        let length = self.offset + self.pos as u64 - offset;
        if length < shown as u64 {
            data.truncate(start + length as usize);
        } else if length > SHOWN as u64 {
            data.extend_from_slice(b"...");
        }
        index.push(Entry {
            start,
            end: data.len(),
            offset,
            bad: Some(reason),
            body: Body::None,
        });
        Ok(())
    }
}

/// Where the block being skipped goes: the caller's [`Blocks`], where it
/// takes this one.
type Taking<'a, 'k> = Option<&'a mut (dyn Blocks + 'k)>;

/// The blocks `keep` hands over, where it takes the record's.
fn taken<'a, 'k>(keep: &'a mut Option<&mut Keep<'k>>, taking: bool) -> Taking<'a, 'k> {
    keep.as_deref_mut()
        .filter(|_| taking)
        .map(|k| &mut *k.blocks)
}

impl Reader {
    /// Where in the unread bytes the next line that may start a record
    /// begins, less one (the `\n` before it), if one is at hand. For ARC,
    /// a line counts once it is whole and reads as a header line (a line
    /// cut by the window's end is read on, up to `max_header` bytes).
    fn next_start(&mut self, r: &mut dyn Read, max_header: usize) -> Option<usize> {
        if self.dialect == Dialect::Warc {
            return memchr::memmem::find(self.rest(), b"\nWARC/");
        }
        let mut from = 0;
        loop {
            let i = from + memchr::memchr(b'\n', &self.rest()[from..])?;
            let line = &self.rest()[i + 1..];
            if memchr::memchr(b'\n', &line[..line.len().min(max_header)]).is_none()
                && line.len() < max_header
                && !self.eof
            {
                // The line may go on past what was read: read more (the
                // bytes from `pos` stay).
                let have = self.rest().len();
                self.fill(r, have + READ);
                if self.rest().len() > have {
                    continue;
                }
            }
            let line = &self.rest()[i + 1..];
            if arc::starts_a_header(&line[..line.len().min(max_header)]) {
                return Some(i);
            }
            from = i + 1;
        }
    }
}

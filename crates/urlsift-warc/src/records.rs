//! The records of one WARC or ARC input, one at a time, with the blocks a
//! caller wants: the engine's record reader (the one `normalize` reads) in its keeping
//! mode, for readers of whole records (`urlsift links` takes the pages'
//! links from them). Records are delimited, checked and resynchronized
//! exactly as `normalize` reads them; a wanted block is kept whole up to
//! a limit, and a longer one is skipped unread ([`Block::TooLarge`]), so
//! memory stays at the limit whatever the input holds.
//!
//! ```
//! use urlsift_warc::{Block, Dialect, Records, named};
//!
//! let warc = b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://e.com/\r\nContent-Length: 5\r\n\r\nHELLO\r\n\r\n\
//!              WARC/1.1\r\nWARC-Type: request\r\nContent-Length: 2\r\n\r\nGE\r\n\r\n";
//! let wants = |_: Dialect, header: &[u8]| named(header, "WARC-Type").as_deref() == Some("response");
//! let mut records = Records::new(&warc[..]).keeping(1 << 20, wants);
//! let first = records.next().unwrap();
//! assert_eq!((first.offset, first.bad, first.block), (0, None, Block::Kept(b"HELLO".to_vec())));
//! assert_eq!(named(&first.header, "WARC-Target-URI").as_deref(), Some("http://e.com/"));
//! assert_eq!(records.next().unwrap().block, Block::Skipped);
//! assert!(records.next().is_none() && records.error().is_none());
//! ```

use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::Arc;

use urlsift_input::mmap::Map;

use crate::{Blocks, Dialect, Entry, Keep, Reader, RecordFault, arc};

/// The longest header block read (a longer one is a bad record).
const MAX_HEADER: usize = 16 << 20;

/// How much of an input is read to tell WARC from ARC.
const SNIFF: usize = 1 << 16;

/// What a reader keeps of a record's payload (its block) ([`Records`]).
#[derive(Debug, Default, PartialEq, Eq)]
pub enum Block {
    /// Not kept: the caller does not want the record's block, or the
    /// record is bad (its reason says why).
    #[default]
    Skipped,
    /// The whole block.
    Kept(Vec<u8>),
    /// Wanted, but longer than the limit: skipped, unread.
    TooLarge,
    /// Wanted, but its `Content-Length` is wrong: the bytes up to the next
    /// record header are the record read next, a `bad-WARC-length` one.
    Misplaced,
}

/// One record, as the reader delimited it.
#[derive(Debug)]
pub struct Record {
    /// Where it starts in its (decompressed) input.
    pub offset: u64,
    /// Its header block (an ARC record's header line); for a bad record,
    /// the first bytes of the stretch (what `--rejects` shows).
    pub header: Vec<u8>,
    /// Why the record is bad, if it is.
    pub bad: Option<RecordFault>,
    /// What was kept of its block.
    pub block: Block,
}

/// Which records' blocks are wanted: told from the header block.
type Wants = dyn Fn(Dialect, &[u8]) -> bool + Send + Sync;

/// The blocks [`Records`] keeps as an iterator: those `wants` names, up
/// to `max` bytes.
struct KeepUpTo {
    wants: Box<Wants>,
    max: u64,
    /// The last record's: whether it was wanted, too large, and its block.
    wanted: bool,
    too_large: bool,
    block: Vec<u8>,
}

impl KeepUpTo {
    fn new(max: u64, wants: Box<Wants>) -> KeepUpTo {
        KeepUpTo {
            wants,
            max,
            wanted: false,
            too_large: false,
            block: Vec::new(),
        }
    }
}

impl Blocks for KeepUpTo {
    fn start(&mut self, dialect: Dialect, header: &[u8], length: u64) -> bool {
        self.wanted = (self.wants)(dialect, header);
        self.too_large = self.wanted && length > self.max;
        self.block = Vec::new();
        if !self.wanted || self.too_large {
            return false;
        }
        self.block.reserve_exact(length as usize);
        true
    }

    fn take(&mut self, bytes: &[u8]) {
        self.block.extend_from_slice(bytes);
    }
}

/// The records of one input ([`Records::new`]).
pub struct Records<R> {
    reader: Reader,
    /// `None` for a mapped file, which the reader walks in place.
    input: Option<R>,
    /// The iterator's blocks (out only while a record is read).
    keep: Option<KeepUpTo>,
    data: Vec<u8>,
    index: Vec<Entry>,
    queue: VecDeque<Record>,
    ended: bool,
    error: Option<io::Error>,
}

impl<R: Read> Records<R> {
    /// The records of `input` (WARC, or ARC where its first line is an ARC
    /// header line). As an iterator they keep no block unless
    /// [`Records::keeping`] says which; [`Records::next_into`] streams
    /// blocks instead.
    pub fn new(input: R) -> Records<R> {
        Records::reusing(input, Vec::new())
    }

    /// [`Records::new`] reading into `buffer` (emptied; its room is kept):
    /// one given back by [`Records::into_buffer`], so that reading many
    /// short inputs in turn (a gzip member each) allocates once.
    pub fn reusing(mut input: R, buffer: Vec<u8>) -> Records<R> {
        let (head, failed) = sniff_head(&mut input, buffer);
        let dialect = dialect_of(&head);
        let mut reader = Reader::new(head, 0).dialect(dialect);
        if let Some(e) = failed {
            reader = reader.failed(e);
        }
        Records::with(reader, Some(input))
    }

    /// The same records, the iterator keeping the blocks of at most `max`
    /// bytes of the records `wants` names.
    pub fn keeping(
        mut self,
        max: usize,
        wants: impl Fn(Dialect, &[u8]) -> bool + Send + Sync + 'static,
    ) -> Records<R> {
        self.keep = Some(KeepUpTo::new(max as u64, Box::new(wants)));
        self
    }

    /// The records of a mapped file, walked in place (only header blocks
    /// and the wanted blocks are copied out).
    ///
    /// ```
    /// use urlsift_warc::{Block, Records};
    /// use urlsift_input::mmap::Map;
    ///
    /// # let tmp = tempfile::Builder::new().prefix("urlsift-doc-records-").tempdir().unwrap();
    /// # let dir = tmp.path();
    /// let path = dir.join("one.warc");
    /// std::fs::write(&path, "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n").unwrap();
    /// let map = Map::new(&std::fs::File::open(&path).unwrap()).unwrap().expect("a regular file");
    /// let mut records = Records::<std::io::Empty>::mapped(map).keeping(1 << 20, |_, _| true);
    /// assert_eq!(records.next().unwrap().block, Block::Kept(b"hi".to_vec()));
    /// assert!(records.next().is_none());
    /// ```
    pub fn mapped(map: Arc<Map>) -> Records<R> {
        let dialect = dialect_of(&map.bytes()[..map.bytes().len().min(SNIFF)]);
        let reader = Reader::mapped(map, 0).dialect(dialect);
        Records::with(reader, None)
    }

    fn with(reader: Reader, input: Option<R>) -> Records<R> {
        Records {
            reader,
            input,
            keep: Some(KeepUpTo::new(0, Box::new(|_, _| false))),
            data: Vec::new(),
            index: Vec::new(),
            queue: VecDeque::new(),
            ended: false,
            error: None,
        }
    }

    /// The records' format.
    pub fn dialect(&self) -> Dialect {
        self.reader.format()
    }

    /// The buffer the records were read into, for [`Records::reusing`].
    ///
    /// ```
    /// use urlsift_warc::Records;
    ///
    /// let member = b"WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n";
    /// let mut buffer = Vec::new();
    /// for _ in 0..3 {
    ///     let mut records = Records::reusing(&member[..], buffer);
    ///     assert_eq!(records.by_ref().count(), 1);
    ///     buffer = records.into_buffer();
    /// }
    /// assert!(buffer.capacity() > 0);
    /// ```
    pub fn into_buffer(self) -> Vec<u8> {
        self.reader.into_buffer()
    }

    /// The read error that ended the input early, if one did (after the
    /// records read before it).
    pub fn error(&mut self) -> Option<io::Error> {
        self.error.take()
    }

    /// The next record, the blocks `blocks` takes handed to it in pieces
    /// as they are read, whatever their length (the record's `block` is
    /// [`Block::Misplaced`] where its length was wrong, else
    /// [`Block::Skipped`]): for readers that need a whole block's bytes
    /// but not the block held (a digest of it).
    pub fn next_into(&mut self, blocks: &mut dyn Blocks) -> Option<Record> {
        if self.queue.is_empty() && !self.ended {
            let misplaced = self.read(blocks);
            if let Some(first) = self.queue.front_mut().filter(|_| misplaced) {
                first.block = Block::Misplaced;
            }
        }
        self.queue.pop_front()
    }

    /// Reads the next record (and, after a wrong length, the stretch that
    /// is its payload) into the queue, its block handed to `blocks`;
    /// whether its length was wrong.
    fn read(&mut self, blocks: &mut dyn Blocks) -> bool {
        let mut keep = Keep {
            blocks,
            misplaced: false,
            started: Vec::new(),
        };
        let mut nothing = io::empty();
        let input: &mut dyn Read = match &mut self.input {
            Some(r) => r,
            None => &mut nothing,
        };
        self.data.clear();
        self.index.clear();
        let read = self.reader.read_records(
            input,
            1,
            MAX_HEADER,
            &mut self.data,
            &mut self.index,
            Some(&mut keep),
        );
        match read {
            Ok(ended) => self.ended = ended,
            Err(e) => {
                self.ended = true;
                self.error = Some(e);
            }
        }
        for e in &self.index {
            self.queue.push_back(Record {
                offset: e.offset,
                header: self.data[e.start..e.end].to_vec(),
                bad: e.bad,
                block: Block::Skipped,
            });
        }
        keep.misplaced
    }
}

impl<R: Read> Iterator for Records<R> {
    type Item = Record;

    fn next(&mut self) -> Option<Record> {
        if self.queue.is_empty() && !self.ended {
            let mut keep = self.keep.take().expect("put back after each read");
            keep.wanted = false;
            let misplaced = self.read(&mut keep);
            // The block is the first record's (a bad stretch after it is
            // its payload).
            if let Some(first) = self.queue.front_mut().filter(|_| keep.wanted) {
                first.block = if misplaced {
                    Block::Misplaced
                } else if first.bad.is_some() {
                    Block::Skipped
                } else if keep.too_large {
                    Block::TooLarge
                } else {
                    Block::Kept(std::mem::take(&mut keep.block))
                };
            }
            self.keep = Some(keep);
        }
        self.queue.pop_front()
    }
}

/// The first bytes of an input, up to its first line's end (past blank
/// lines) or [`SNIFF`] bytes, and the read error that ended them, if one
/// did.
fn sniff_head(input: &mut impl Read, mut head: Vec<u8>) -> (Vec<u8>, Option<io::Error>) {
    head.clear();
    loop {
        let before = head.len();
        match input.take(4096).read_to_end(&mut head) {
            Ok(_) if head.len() == before => return (head, None),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return (head, Some(e)),
        }
        let text = trim_blank_lines(&head);
        if memchr::memchr(b'\n', text).is_some() || head.len() >= SNIFF {
            return (head, None);
        }
    }
}

/// The input less the blank lines it starts with.
fn trim_blank_lines(bytes: &[u8]) -> &[u8] {
    let blank = bytes
        .iter()
        .take_while(|b| matches!(b, b'\r' | b'\n'))
        .count();
    &bytes[blank..]
}

/// ARC where the first line (past blank lines) is an ARC header line,
/// WARC otherwise.
fn dialect_of(head: &[u8]) -> Dialect {
    let text = trim_blank_lines(head);
    let line = &text[..memchr::memchr(b'\n', text).unwrap_or(text.len())];
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if arc::Header::parse(line).is_some() {
        Dialect::Arc
    } else {
        Dialect::Warc
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::header::content_length;
    use urlsift_input::test_io::{Dribble, FailsAfter};

    fn record(uri: &str, payload: &[u8]) -> Vec<u8> {
        let mut r = format!(
            "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n",
            payload.len()
        )
        .into_bytes();
        r.extend_from_slice(payload);
        r.extend_from_slice(b"\r\n\r\n");
        r
    }

    /// The records `read_chunk` (the engine's reading) finds in `input`.
    fn engine(input: &[u8], dialect: Dialect) -> Vec<(u64, Option<RecordFault>, Vec<u8>)> {
        let mut reader = Reader::new(Vec::new(), 0).dialect(dialect);
        let mut src = input;
        let mut out = Vec::new();
        loop {
            let (mut data, mut index) = (Vec::new(), Vec::new());
            let done = reader
                .read_chunk(&mut src, 1 << 20, MAX_HEADER, &mut data, &mut index)
                .unwrap();
            out.extend(
                index
                    .iter()
                    .map(|e| (e.offset, e.bad, data[e.start..e.end].to_vec())),
            );
            if done {
                return out;
            }
        }
    }

    /// What `Records` must give for `input`, every record wanted: the
    /// engine's records, each whole one's block its payload as its length
    /// claims (too large past `max`; misplaced where a `bad-WARC-length`
    /// stretch follows it).
    fn expected(
        input: &[u8],
        dialect: Dialect,
        max: usize,
    ) -> Vec<(u64, Option<RecordFault>, Block)> {
        let found = engine(input, dialect);
        let mut out = Vec::new();
        for (i, (offset, bad, header)) in found.iter().enumerate() {
            let block = if bad.is_some() {
                Block::Skipped
            } else if found
                .get(i + 1)
                .is_some_and(|n| n.1 == Some(RecordFault::WarcBadLength))
            {
                Block::Misplaced
            } else {
                let length = match dialect {
                    Dialect::Warc => content_length(header).unwrap(),
                    Dialect::Arc => arc::Header::parse(header).unwrap().length,
                } as usize;
                let start = *offset as usize + header.len();
                if length > max {
                    Block::TooLarge
                } else {
                    Block::Kept(input[start..start + length].to_vec())
                }
            };
            out.push((*offset, *bad, block));
        }
        out
    }

    fn got<R: Read>(records: Records<R>) -> Vec<(u64, Option<RecordFault>, Block)> {
        records.map(|r| (r.offset, r.bad, r.block)).collect()
    }

    /// Inputs of every kind of damage the reader knows, and long payloads
    /// (past `CHECKED`, which read input watches as it skips).
    fn inputs() -> Vec<Vec<u8>> {
        let a = record("http://a.example/", b"payload a");
        let c = record("http://c.example/", b"payload c");
        let wrong = |length: &str| {
            String::from_utf8(record("http://b.example/", b"payload b"))
                .unwrap()
                .replacen("Content-Length: 9", &format!("Content-Length: {length}"), 1)
                .into_bytes()
        };
        let big = record("http://big.example/", &vec![b'x'; 1_300_000]);
        let mut inner = vec![b'y'; 1_500_000];
        inner.splice(
            1000..1000,
            [&b"\n"[..], &record("http://i.example/", b"i")].concat(),
        );
        let holding = record("http://holding.example/", &inner);
        // A long payload with lines that look like record starts but are not.
        let mut fake = vec![b'z'; 1_200_000];
        fake.splice(
            500_000..500_000,
            b"\nWARC/1.1 not a header\n".iter().copied(),
        );
        let faking = record("http://fake.example/", &fake);
        let mut cut = record("http://cut.example/", &[1u8; 500]);
        cut.truncate(cut.len() - 300);
        vec![
            [&a[..], &c].concat(),
            [&a[..], &wrong("40"), &c].concat(),
            [&a[..], &wrong("900000"), &c].concat(),
            [&a[..], &wrong("2"), &c].concat(),
            [&a[..], &wrong("1500000"), &big, &c].concat(),
            [
                &a[..],
                b"garbage\r\nline\r\n",
                &big,
                &holding,
                &faking,
                &c,
                &cut,
            ]
            .concat(),
            [&holding[..1_200_000]].concat(),
        ]
    }

    #[test]
    fn records_are_the_engines_with_their_blocks() {
        for (n, input) in inputs().iter().enumerate() {
            for max in [1 << 24, 1 << 10] {
                let want = expected(input, Dialect::Warc, max);
                assert!(want.len() >= 2, "input {n}");
                for step in [1 << 16, 4093, 7] {
                    let records = Records::new(Dribble(input, step)).keeping(max, |_, _| true);
                    assert_eq!(got(records), want, "input {n}, max {max}, step {step}");
                }
                let file = tempfile_with(input);
                let map = Map::new(&file).unwrap().expect("a mappable file");
                let mapped = Records::<io::Empty>::mapped(map).keeping(max, |_, _| true);
                assert_eq!(got(mapped), want, "input {n} mapped, max {max}");
            }
        }
    }

    #[test]
    fn only_wanted_blocks_are_kept_and_arc_is_told_by_its_first_line() {
        let input = [
            record("http://a.example/", b"A"),
            record("http://b.example/", b"B"),
        ]
        .concat();
        let wants = |_: Dialect, h: &[u8]| memchr::memmem::find(h, b"//b.").is_some();
        let blocks: Vec<Block> = Records::new(&input[..])
            .keeping(1 << 20, wants)
            .map(|r| r.block)
            .collect();
        assert_eq!(blocks, [Block::Skipped, Block::Kept(b"B".to_vec())]);

        let arc = b"\r\nfiledesc://x.arc 0.0.0.0 20140216050221 text/plain 3\nabc\n\
                    http://e.com/ 1.2.3.4 20140216050222 text/html 5\nHELLO\n\
                    http://f.com/ 1.2.3.4 20140216050222 text/html 50\nshort";
        let records = Records::new(&arc[..]).keeping(1 << 20, |d, _| d == Dialect::Arc);
        assert_eq!(records.dialect(), Dialect::Arc);
        assert_eq!(got(records), expected(arc, Dialect::Arc, 1 << 20));
        // A block longer than what is read ahead, read in pieces.
        let long = [
            &b"http://g.com/ 1.2.3.4 20140216050222 text/html 200000\n"[..],
            &vec![b'g'; 200_000],
            &arc[..],
        ]
        .concat();
        for step in [7, 4093, 1 << 16] {
            let records = Records::new(Dribble(&long, step)).keeping(1 << 20, |_, _| true);
            assert_eq!(
                got(records),
                expected(&long, Dialect::Arc, 1 << 20),
                "step {step}"
            );
        }
        let blocks: Vec<Block> = Records::new(&arc[..])
            .keeping(1 << 20, |_, h| !h.starts_with(b"filedesc"))
            .map(|r| r.block)
            .collect();
        assert_eq!(
            blocks,
            [
                Block::Skipped,
                Block::Kept(b"HELLO".to_vec()),
                Block::Skipped
            ]
        );
    }

    /// A read error ends the records after those read before it.
    #[test]
    fn a_read_error_comes_after_the_records_before_it() {
        let input = [
            record("http://a.example/", b"A"),
            record("http://b.example/", b"B"),
        ]
        .concat();
        let mut records = Records::new(FailsAfter(&input[..])).keeping(1 << 20, |_, _| true);
        let read: Vec<Block> = records.by_ref().map(|r| r.block).collect();
        assert_eq!(
            read,
            [Block::Kept(b"A".to_vec()), Block::Kept(b"B".to_vec())]
        );
        assert_eq!(records.error().unwrap().to_string(), "the disk is on fire");
    }

    fn tempfile_with(bytes: &[u8]) -> std::fs::File {
        use std::io::{Seek, Write};
        let path = std::env::temp_dir().join(format!(
            "urlsift-records-test-{}-{}",
            std::process::id(),
            bytes.len()
        ));
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .unwrap();
        file.write_all(bytes).unwrap();
        file.rewind().unwrap();
        std::fs::remove_file(&path).unwrap();
        file
    }
}

//! CDXJ index lines of WARC and ARC files, as pywb's `cdxj-indexer` (1.5.0,
//! default options) writes them: `urlkey timestamp {json}`, the key the archives'
//! SURT key ([`urlsift::surt`]), the JSON block's `url`, `mime`, `status`,
//! `digest`, `length`, `offset` and `filename`.
//!
//! Which records: `response`, `revisit`, `resource` and `metadata` (a
//! `resource` or `metadata` record of `application/warc-fields` is not);
//! `request`, `warcinfo` and the rest are not indexed.
//!
//! - `mime`: `warc/revisit` for a revisit; the HTTP `Content-Type` of a
//!   response, the record's `Content-Type` otherwise, up to its first `;`
//!   or space.
//! - `status`: the HTTP status code of a response or of a revisit that
//!   holds HTTP headers.
//! - `digest`: `WARC-Payload-Digest` as written; where a record has none,
//!   the SHA-1 of its payload (after the HTTP headers), as `sha1:` and its
//!   base32.
//! - `length`, `offset`: where the record lies in the file as stored: its
//!   gzip member in a `.warc.gz`, its zstd frames in a `.warc.zst` (not
//!   the dictionary frame, which a reader of the record needs too: no
//!   other indexer reads `.warc.zst` to say otherwise), else from its
//!   `WARC/` line to the next.
//! - the timestamp: `WARC-Date`'s digits, the first 14.
//!
//! An ARC record is read as warcio reads it for the indexer: the file's
//! `filedesc://` record is its `warcinfo`, every other record a `response`
//! whose block is an HTTP response; its date is the Archive-date, and its
//! length ends with its block.
//!
//! Values are JSON strings; a value a record lacks is left out. Lines come
//! in file order (`urlsift index` sorts them, as the archives do, by bytes).
//!
//! ```
//! use urlsift_warc::index::entries;
//!
//! let warc = b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://www.Example.com/a/\r\nWARC-Date: 2024-01-02T03:04:05Z\r\nWARC-Payload-Digest: sha1:AAAA\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: 47\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\nhi\n\r\n\r\n";
//! let mut lines = Vec::new();
//! entries(&warc[..], "x.warc", |line| lines.push(String::from_utf8(line).unwrap())).unwrap();
//! assert_eq!(lines, [r#"com,example)/a 20240102030405 {"url": "http://www.Example.com/a/", "mime": "text/html", "status": "200", "digest": "sha1:AAAA", "length": "259", "offset": "0", "filename": "x.warc"}"#]);
//! ```

use std::io::{self, BufRead, Read};

use sha1::{Digest, Sha1};

use crate::{Block, Blocks, Dialect, RecordFault, Records, arc, fields};
use urlsift::Url;
use urlsift::surt::{SurtOptions, key};

/// How many bytes of a block are kept to read HTTP headers from.
const HEAD: usize = 64 << 10;

/// What indexing a file came to, besides its lines.
#[derive(Debug, Default)]
pub struct Indexed {
    /// Records of an indexed type left out for want of a
    /// `WARC-Target-URI` or a `WARC-Date` (an index line needs both).
    pub left_out: u64,
    /// Gzip members passed over, each an error that names the byte where
    /// the member started and why: damaged, cut, or holding a bad record.
    /// Indexing went on at the next member found after it (as reading
    /// does, `urlsift_input::decode`), so only the damaged member's record
    /// is missing from the lines.
    pub passed_over: Vec<io::Error>,
}

/// The index lines of the WARC file `reader` holds (plain, gzip with a
/// member per record, or zstd with frames of one record each), in file
/// order, each given to `f` without its line end; `filename` is the name
/// the lines give. Records are read by the record engine's reader
/// ([`Records`]), as a stream (a record's payload is never held whole).
/// In a `.warc.gz`, a member that cannot be read (damaged, cut, a bad
/// record inside) is passed over and named ([`Indexed::passed_over`]).
/// An error ends the file, after the lines before it, naming the byte
/// where its record or member started: a bad record of a plain or zstd
/// file (an index points at whole records, and no member boundary says
/// where the next one starts), or a gzip member that holds more than one
/// record (an index's offset must find one record).
pub fn entries(
    reader: impl BufRead,
    filename: &str,
    mut f: impl FnMut(Vec<u8>),
) -> io::Result<Indexed> {
    let mut indexed = Indexed::default();
    let mut unindexed = 0;
    let mut give = |line: Option<Result<Vec<u8>, ()>>| match line {
        Some(Ok(line)) => f(line),
        Some(Err(())) => unindexed += 1,
        None => {}
    };
    let at_error = |at: u64, e: io::Error| io::Error::new(e.kind(), format!("at byte {at}: {e}"));
    let mut input = Counted::new(reader);
    // (Read into the same buffers, record after record.)
    let mut reading = Reading::default();
    let mut buffer = Vec::new();
    let head = input.fill_buf()?;
    let zstd = head.starts_with(&ZSTD_MAGIC)
        || matches!(head, [b, 0x2a, 0x4d, 0x18, ..] if b & 0xf0 == 0x50);
    if zstd {
        zstd_entries(input, filename, &mut give)?;
        indexed.left_out = unindexed;
        return Ok(indexed);
    }
    if !input.fill_buf()?.starts_with(&[0x1f, 0x8b]) {
        read_records(input, &mut reading, buffer, |record, offset, length| {
            give(record.line(offset, length, filename))
        })
        .map_err(|(at, e)| at_error(at, e))?;
        indexed.left_out = unindexed;
        return Ok(indexed);
    }
    // A member at a time: its records, then (once it has ended) its
    // length, which each of its lines gives.
    while !input.fill_buf()?.is_empty() {
        let at = input.pos;
        let mut records = Vec::new();
        let member = flate2::bufread::GzDecoder::new(&mut input);
        match read_records(member, &mut reading, buffer, |record, _, _| {
            records.push(record)
        }) {
            Ok(back) => buffer = back,
            Err((_, e)) => {
                buffer = Vec::new();
                reading = Reading::default();
                let went_on = match input.skip_to_member(at)? {
                    true => format!(
                        "; indexing went on at the next member, at byte {}",
                        input.pos
                    ),
                    false => String::new(),
                };
                let e = io::Error::new(e.kind(), format!("{e}{went_on}"));
                indexed.passed_over.push(at_error(at, e));
                continue;
            }
        }
        let len = input.pos - at;
        if records.len() > 1 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "the gzip member at byte {at} holds {} records, not one: \
                     recompress the file with a member per record",
                    records.len()
                ),
            ));
        }
        for record in &records {
            give(record.line(at, len, filename));
        }
    }
    indexed.left_out = unindexed;
    Ok(indexed)
}

/// Reads the records of `input` (WARC, or ARC), giving each with where it
/// starts and its length (through its block: the blank lines after it are
/// not counted, as warcio counts), read into `buffer` (given back). An
/// error, with where its record starts: a bad record, or the read error
/// that ended the input.
fn read_records(
    input: impl Read,
    reading: &mut Reading,
    buffer: Vec<u8>,
    mut each: impl FnMut(Record, u64, u64),
) -> Result<Vec<u8>, (u64, io::Error)> {
    let mut records = Records::reusing(input, buffer);
    let mut end = 0;
    while let Some(read) = records.next_into(reading) {
        let bad = match (read.bad, &read.block) {
            (Some(reason), _) => Some(reason),
            (None, Block::Misplaced) => Some(RecordFault::WarcBadLength),
            (None, _) => None,
        };
        if let Some(reason) = bad {
            return Err((
                read.offset,
                io::Error::new(io::ErrorKind::InvalidData, reason.to_string()),
            ));
        }
        let (record, length) = reading.finish();
        end = read.offset + read.header.len() as u64 + length;
        each(record, read.offset, end - read.offset);
    }
    match records.error() {
        Some(e) => Err((end, e)),
        None => Ok(records.into_buffer()),
    }
}

/// A reader that counts the bytes taken from it, and can look a few bytes
/// ahead across the inner reader's buffer ends ([`Counted::peek`]).
struct Counted<R> {
    inner: R,
    pos: u64,
    /// Bytes taken from `inner` to look ahead, not yet consumed: served
    /// first (`stash[at..]`).
    stash: Vec<u8>,
    at: usize,
}

impl<R: BufRead> Counted<R> {
    fn new(inner: R) -> Counted<R> {
        Counted {
            inner,
            pos: 0,
            stash: Vec::new(),
            at: 0,
        }
    }

    /// The next `n` bytes, fewer only at the end of the input; nothing is
    /// consumed.
    fn peek(&mut self, n: usize) -> io::Result<&[u8]> {
        if self.at == self.stash.len() {
            self.stash.clear();
            self.at = 0;
            if self.inner.fill_buf()?.len() >= n {
                return Ok(&self.inner.fill_buf()?[..n]);
            }
        }
        while self.stash.len() - self.at < n {
            let more = self.inner.fill_buf()?;
            if more.is_empty() {
                break;
            }
            let k = more.len().min(n - (self.stash.len() - self.at));
            self.stash.extend_from_slice(&more[..k]);
            self.inner.consume(k);
        }
        let end = self.stash.len().min(self.at + n);
        Ok(&self.stash[self.at..end])
    }

    /// Takes bytes up to the next place that looks like a gzip member
    /// header (the magic, DEFLATE, no reserved flag, a usual extra-flags
    /// value), past the byte at `past`; `false` (everything taken) if the
    /// input ends first.
    fn skip_to_member(&mut self, past: u64) -> io::Result<bool> {
        loop {
            if self.pos <= past {
                let n = self.fill_buf()?.len().min((past + 1 - self.pos) as usize);
                if n == 0 {
                    return Ok(false);
                }
                self.consume(n);
                continue;
            }
            let bytes = self.fill_buf()?;
            if bytes.is_empty() {
                return Ok(false);
            }
            match memchr::memchr(0x1f, bytes) {
                None => {
                    let n = bytes.len();
                    self.consume(n);
                }
                Some(i) => {
                    self.consume(i);
                    let head = self.peek(10)?;
                    if matches!(head, [0x1f, 0x8b, 8, flags, _, _, _, _, 0 | 2 | 4, _] if flags & 0xe0 == 0)
                    {
                        return Ok(true);
                    }
                    if head.len() < 10 {
                        let n = head.len();
                        self.consume(n);
                        return Ok(false);
                    }
                    self.consume(1);
                }
            }
        }
    }
}

impl<R: BufRead> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let bytes = self.fill_buf()?;
        let n = bytes.len().min(buf.len());
        buf[..n].copy_from_slice(&bytes[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.at < self.stash.len() {
            return Ok(&self.stash[self.at..]);
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.pos += n as u64;
        if self.at < self.stash.len() {
            self.at += n;
        } else {
            self.inner.consume(n);
        }
    }
}

/// What a record gives its index line.
struct Record {
    kind: String,
    url: Option<String>,
    date: Option<String>,
    digest: Option<String>,
    content_type: Option<String>,
    http_status: Option<String>,
    http_type: Option<String>,
    payload_sha1: Option<[u8; 20]>,
}

impl Record {
    /// The index line, with the record's place in the file; `None` for a
    /// record that is not indexed, `Err` for one of an indexed type that
    /// lacks its target or date.
    fn line(&self, offset: u64, length: u64, filename: &str) -> Option<Result<Vec<u8>, ()>> {
        let indexed = match self.kind.as_str() {
            "response" | "revisit" => true,
            "resource" | "metadata" => {
                self.content_type.as_deref() != Some("application/warc-fields")
            }
            _ => false,
        };
        if !indexed {
            return None;
        }
        let (Some(url), Some(date)) = (self.url.clone(), self.date.as_deref()) else {
            return Some(Err(()));
        };
        let urlkey = match Url::parse(&url) {
            Ok(u) => key(&u, &SurtOptions::default()),
            Err(_) => url.clone(),
        };
        let mut digits: String = date.chars().filter(char::is_ascii_digit).take(14).collect();
        while digits.len() < 14 {
            digits.push('0');
        }
        let mime = match self.kind.as_str() {
            "revisit" => Some("warc/revisit".to_string()),
            "response" => self.http_type.as_deref().map(first_token),
            _ => self.content_type.as_deref().map(first_token),
        };
        let status = match self.kind.as_str() {
            "response" | "revisit" => self.http_status.clone(),
            _ => None,
        };
        let digest = self.digest.clone().or_else(|| {
            self.payload_sha1
                .map(|sum| format!("sha1:{}", base32(&sum)))
        });
        let mut fields: Vec<(&str, String)> = vec![("url", url)];
        fields.extend(mime.map(|m| ("mime", m)));
        fields.extend(status.map(|s| ("status", s)));
        fields.extend(digest.map(|d| ("digest", d)));
        fields.push(("length", length.to_string()));
        fields.push(("offset", offset.to_string()));
        fields.push(("filename", filename.to_string()));
        let mut line = format!("{urlkey} {digits} {{").into_bytes();
        for (i, (name, value)) in fields.iter().enumerate() {
            if i > 0 {
                line.extend_from_slice(b", ");
            }
            json_string(name, &mut line);
            line.extend_from_slice(b": ");
            json_string(value, &mut line);
        }
        line.push(b'}');
        Some(Ok(line))
    }
}

/// A header value up to its first `;` or whitespace.
fn first_token(value: &str) -> String {
    value
        .split(|c: char| c == ';' || c.is_whitespace())
        .next()
        .unwrap_or("")
        .trim()
        .to_string()
}

impl Record {
    /// The fields of a record's header block (`header`, of `dialect`).
    /// An ARC record is read as warcio reads it for the indexer: the
    /// file's `filedesc://` record is its `warcinfo`, every other record a
    /// `response` of HTTP.
    fn of_header(dialect: Dialect, header: &[u8]) -> Record {
        let mut record = Record {
            kind: String::new(),
            url: None,
            date: None,
            digest: None,
            content_type: None,
            http_status: None,
            http_type: None,
            payload_sha1: None,
        };
        if dialect == Dialect::Arc {
            // (The reader gives only header lines that read as one.)
            let Some(header) = arc::Header::parse(header) else {
                return record;
            };
            let response = !header.is_filedesc();
            record.kind = if response { "response" } else { "warcinfo" }.to_string();
            record.url = Some(String::from_utf8_lossy(header.url).replace(' ', "%20"));
            let date = header.field("archive-date").unwrap_or_default();
            record.date = Some(String::from_utf8_lossy(date).into_owned());
            record.content_type =
                response.then(|| "application/http; msgtype=response".to_string());
            return record;
        }
        for (name, value) in fields(header) {
            let value = String::from_utf8_lossy(value).into_owned();
            match String::from_utf8_lossy(name).to_ascii_lowercase().as_str() {
                "warc-type" => record.kind = value,
                "warc-target-uri" => {
                    let v = value.strip_prefix('<').and_then(|v| v.strip_suffix('>'));
                    // Spaces in a target are written %20, as warcio does.
                    record.url = Some(v.unwrap_or(&value).replace(' ', "%20"));
                }
                "warc-date" => record.date = Some(value),
                "warc-payload-digest" => record.digest = Some(value),
                "content-type" => record.content_type = Some(value),
                _ => {}
            }
        }
        record
    }
}

/// A record being read for its index line ([`Blocks`]): its header's
/// fields, then, as its block goes by, the block's first [`HEAD`] bytes
/// (HTTP headers) and, where the record has no payload digest, the SHA-1
/// of its payload.
#[derive(Default)]
struct Reading {
    record: Option<Record>,
    /// Whether the block holds HTTP headers (a response or revisit of
    /// HTTP, as warcio reads them).
    http: bool,
    head: Vec<u8>,
    /// Where the payload starts in `head`, once its HTTP headers were read.
    payload_start: Option<usize>,
    /// The payload's SHA-1 so far, where it is needed.
    sha1: Option<Sha1>,
    /// Whether the part of the payload in `head` was hashed.
    hashed: bool,
    length: u64,
}

impl Blocks for Reading {
    fn start(&mut self, dialect: Dialect, header: &[u8], _length: u64) -> bool {
        let record = Record::of_header(dialect, header);
        self.http = matches!(record.kind.as_str(), "response" | "revisit")
            && record.content_type.as_deref().is_some_and(|t| {
                t.starts_with("application/http") || t.starts_with("message/http")
            });
        self.sha1 = record.digest.is_none().then(Sha1::new);
        self.record = Some(record);
        self.head.clear();
        self.payload_start = None;
        self.hashed = false;
        self.length = 0;
        true
    }

    fn take(&mut self, bytes: &[u8]) {
        self.length += bytes.len() as u64;
        let room = HEAD - self.head.len();
        let (head, rest) = bytes.split_at(room.min(bytes.len()));
        self.head.extend_from_slice(head);
        if !rest.is_empty() {
            // The head is whole: what follows is payload.
            self.hash_head();
            if let Some(sha1) = &mut self.sha1 {
                sha1.update(rest);
            }
        }
    }
}

impl Reading {
    /// Reads the HTTP headers in the head (once), and hashes the payload
    /// in it (once).
    fn hash_head(&mut self) {
        let start = *self.payload_start.get_or_insert_with(|| {
            let record = self.record.as_mut().expect("started");
            match self.http && !self.head.is_empty() {
                true => read_http_head(&self.head, record),
                false => 0,
            }
        });
        if !std::mem::replace(&mut self.hashed, true)
            && let Some(sha1) = &mut self.sha1
        {
            sha1.update(&self.head[start.min(self.head.len())..]);
        }
    }

    /// The record whose block was read whole, and the block's length.
    fn finish(&mut self) -> (Record, u64) {
        self.hash_head();
        let mut record = self.record.take().expect("started");
        record.payload_sha1 = self.sha1.take().map(|s| s.finalize().into());
        (record, self.length)
    }
}

/// The status and `Content-Type` of the HTTP headers at the start of
/// `head`; where the payload starts.
fn read_http_head(head: &[u8], record: &mut Record) -> usize {
    let mut at = 0;
    let mut first = true;
    while let Some(end) = memchr::memchr(b'\n', &head[at..]).map(|e| e + at) {
        let line = &head[at..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        at = end + 1;
        if line.is_empty() {
            return at;
        }
        let text = String::from_utf8_lossy(line);
        if first {
            first = false;
            record.http_status = text.split(' ').nth(1).map(str::to_string);
        } else if let Some((name, value)) = text.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-type")
            && record.http_type.is_none()
        {
            record.http_type = Some(value.trim().to_string());
        }
    }
    head.len()
}

/// RFC 4648 base32, as archives write SHA-1 digests.
fn base32(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::new();
    let (mut buffer, mut bits) = (0u32, 0);
    for &b in bytes {
        buffer = buffer << 8 | u32::from(b);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(ALPHABET[((buffer >> bits) & 31) as usize] as char);
        }
    }
    if bits > 0 {
        out.push(ALPHABET[((buffer << (5 - bits)) & 31) as usize] as char);
    }
    out
}

/// A JSON string as Python's `json.dumps` writes it (non-ASCII as
/// `\uXXXX`, surrogate pairs beyond the BMP).
fn json_string(value: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    for c in value.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\t' => out.extend_from_slice(b"\\t"),
            '\u{8}' => out.extend_from_slice(b"\\b"),
            '\u{c}' => out.extend_from_slice(b"\\f"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.extend_from_slice(format!("\\u{unit:04x}").as_bytes());
                }
            }
            c => out.push(c as u8),
        }
    }
    out.push(b'"');
}

mod sorted;
mod zstd;

pub use sorted::SortedLines;
use zstd::{ZSTD_MAGIC, zstd_entries};

#[cfg(test)]
mod tests {
    use super::*;

    fn warc(kind: &str, extra: &str, block: &[u8]) -> Vec<u8> {
        let mut r = format!(
            "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: http://e.com/{kind}\r\n\
             WARC-Date: 2024-01-02T03:04:05Z\r\n{extra}Content-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        r.extend_from_slice(block);
        r.extend_from_slice(b"\r\n\r\n");
        r
    }

    fn digest_of(line: &[u8]) -> String {
        let line = String::from_utf8_lossy(line);
        line.split("\"digest\": \"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .to_string()
    }

    /// A payload's SHA-1 is taken as the block streams by, in pieces of
    /// any size, whether its HTTP headers and payload end within the first
    /// bytes held or long after.
    #[test]
    fn digests_of_long_payloads_read_in_pieces() {
        let payload: Vec<u8> = (0..300_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let http = [
            &b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"[..],
            &payload,
        ]
        .concat();
        let long_headers = [
            &b"HTTP/1.1 200 OK\r\nX-Long: "[..],
            &vec![b'a'; 70_000],
            b"\r\n\r\n",
            &payload,
        ]
        .concat();
        let response = "Content-Type: application/http; msgtype=response\r\n";
        let sha = |bytes: &[u8]| format!("sha1:{}", base32(&Sha1::digest(bytes)));
        let cases = [
            (warc("response", response, &http), sha(&payload)),
            (
                warc("resource", "Content-Type: text/plain\r\n", &payload),
                sha(&payload),
            ),
            (
                warc("response", response, &http[..2000]),
                sha(&http[44..2000]),
            ),
            // HTTP headers past the first bytes held: the payload is what
            // follows those bytes, as warcio's indexer reads it.
            (
                warc("response", response, &long_headers),
                sha(&long_headers[HEAD..]),
            ),
        ];
        for (input, want) in &cases {
            for capacity in [7, 4096, 1 << 20] {
                let mut lines = Vec::new();
                let reader = io::BufReader::with_capacity(capacity, &input[..]);
                entries(reader, "x.warc", |line| lines.push(line)).unwrap();
                assert_eq!(lines.len(), 1);
                assert_eq!(&digest_of(&lines[0]), want, "capacity {capacity}");
            }
        }
    }
}

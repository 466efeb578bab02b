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
//!   gzip member in a `.warc.gz`, else from its `WARC/` line to the next.
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
//! use urlsift_records::index::entries;
//!
//! let warc = b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://www.Example.com/a/\r\nWARC-Date: 2024-01-02T03:04:05Z\r\nWARC-Payload-Digest: sha1:AAAA\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: 47\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\nhi\n\r\n\r\n";
//! let mut lines = Vec::new();
//! entries(&warc[..], "x.warc", |line| lines.push(String::from_utf8(line).unwrap())).unwrap();
//! assert_eq!(lines, [r#"com,example)/a 20240102030405 {"url": "http://www.Example.com/a/", "mime": "text/html", "status": "200", "digest": "sha1:AAAA", "length": "259", "offset": "0", "filename": "x.warc"}"#]);
//! ```

use std::io::{self, BufRead, Read};

use sha1::{Digest, Sha1};

use crate::format::warc::arc;
use urlsift::Url;
use urlsift::surt::{SurtOptions, key};

/// How many bytes of a block are kept to read HTTP headers from.
const HEAD: usize = 64 << 10;

/// The index lines of the WARC file `reader` holds (plain, or gzip with a
/// member per record), in file order, each given to `f` without its line
/// end; `filename` is the name the lines give. It is read as a stream
/// (a record's payload is never held whole). Returns how many records of
/// an indexed type were left out for want of a `WARC-Target-URI` or a
/// `WARC-Date` (an index line needs both). An error names what could not
/// be read and the byte where its record or member started, after the
/// lines before it; a gzip member that holds more than one record is one
/// (an index's offset must find one record).
pub fn entries(
    reader: impl BufRead,
    filename: &str,
    mut f: impl FnMut(Vec<u8>),
) -> io::Result<u64> {
    let mut unindexed = 0;
    let mut give = |line: Option<Result<Vec<u8>, ()>>| match line {
        Some(Ok(line)) => f(line),
        Some(Err(())) => unindexed += 1,
        None => {}
    };
    let mut input = Counted {
        inner: reader,
        pos: 0,
    };
    let at_error =
        |at: u64| move |e: io::Error| io::Error::new(e.kind(), format!("at byte {at}: {e}"));
    if input.fill_buf()?.starts_with(&[0x1f, 0x8b]) {
        loop {
            if input.fill_buf()?.is_empty() {
                return Ok(unindexed);
            }
            // A member at a time: its records, then (once it has ended)
            // its length, which each of its lines gives.
            let at = input.pos;
            let mut records = Vec::new();
            {
                let member = flate2::bufread::GzDecoder::new(&mut input);
                let mut reader = io::BufReader::new(member);
                while let Some(record) = read_record(&mut reader).map_err(at_error(at))? {
                    records.push(record);
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
    }
    skip_blank_lines(&mut input)?;
    loop {
        let start = input.pos;
        let Some(record) = read_record(&mut input).map_err(at_error(start))? else {
            return Ok(unindexed);
        };
        // A record's length ends with its block (the blank lines after it
        // are not counted, as warcio counts).
        let length = input.pos - start;
        skip_blank_lines(&mut input)?;
        give(record.line(start, length, filename));
    }
}

/// A reader that counts the bytes taken from it.
struct Counted<R> {
    inner: R,
    pos: u64,
}

impl<R: BufRead> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, n: usize) {
        self.pos += n as u64;
        self.inner.consume(n);
    }
}

/// Takes the CR and LF bytes before the next record.
fn skip_blank_lines(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        let n = buf
            .iter()
            .take_while(|b| matches!(b, b'\r' | b'\n'))
            .count();
        let more = n == buf.len() && n > 0;
        input.consume(n);
        if !more {
            return Ok(());
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

/// Reads one record (headers, then its block: HTTP headers and the
/// payload's SHA-1 where needed); `None` at the end of the input.
fn read_record(reader: &mut impl BufRead) -> io::Result<Option<Record>> {
    let mut line = Vec::new();
    // The version line, past blank lines.
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            return Ok(None);
        }
        if !line.iter().all(|b| matches!(b, b'\r' | b'\n')) {
            break;
        }
    }
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
    if !line.starts_with(b"WARC/") {
        let Some(header) = arc::Header::parse(&line) else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "not a WARC record header (nor an ARC header line)",
            ));
        };
        let response = !header.is_filedesc();
        record.kind = if response { "response" } else { "warcinfo" }.to_string();
        let url = String::from_utf8_lossy(header.url).replace(' ', "%20");
        record.url = Some(url);
        let date = header.field("archive-date").unwrap_or_default();
        record.date = Some(String::from_utf8_lossy(date).into_owned());
        record.content_type = response.then(|| "application/http; msgtype=response".to_string());
        return read_block(reader, record, header.length).map(Some);
    }
    let mut length = None;
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the record header is cut short",
            ));
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            break;
        }
        let Some((name, value)) = text.split_once(':') else {
            continue;
        };
        let value = value.trim().to_string();
        match name.trim().to_ascii_lowercase().as_str() {
            "warc-type" => record.kind = value,
            "warc-target-uri" => {
                let v = value.strip_prefix('<').and_then(|v| v.strip_suffix('>'));
                // Spaces in a target are written %20, as warcio does.
                let v = v.unwrap_or(&value).replace(' ', "%20");
                record.url = Some(v);
            }
            "warc-date" => record.date = Some(value),
            "warc-payload-digest" => record.digest = Some(value),
            "content-type" => record.content_type = Some(value),
            "content-length" => length = value.parse::<u64>().ok(),
            _ => {}
        }
    }
    let length = length.ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            "a record without Content-Length",
        )
    })?;
    read_block(reader, record, length).map(Some)
}

/// Reads a record's block of `length` bytes: its HTTP headers and its
/// payload's SHA-1 where the record needs them.
fn read_block(reader: &mut impl BufRead, mut record: Record, length: u64) -> io::Result<Record> {
    let mut block = reader.take(length);
    let mut head = Vec::with_capacity(HEAD.min(length as usize));
    (&mut block).take(HEAD as u64).read_to_end(&mut head)?;
    // HTTP headers, as warcio reads them: whatever the status line's
    // protocol says.
    let http = matches!(record.kind.as_str(), "response" | "revisit")
        && record
            .content_type
            .as_deref()
            .is_some_and(|t| t.starts_with("application/http") || t.starts_with("message/http"))
        && !head.is_empty();
    let payload_start = match http {
        true => read_http_head(&head, &mut record),
        false => 0,
    };
    if record.digest.is_none() {
        let mut sha1 = Sha1::new();
        sha1.update(&head[payload_start.min(head.len())..]);
        let mut buf = vec![0; 1 << 16];
        loop {
            let n = block.read(&mut buf)?;
            if n == 0 {
                break;
            }
            sha1.update(&buf[..n]);
        }
        record.payload_sha1 = Some(sha1.finalize().into());
    } else {
        io::copy(&mut block, &mut io::sink())?;
    }
    if block.limit() > 0 {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the record is cut short",
        ));
    }
    Ok(record)
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

/// Index lines sorted by their bytes, as the archives sort CDXJ (`LC_ALL=C
/// sort`), in memory up to a budget and in sorted runs on disk past it,
/// merged at the end: a day's crawl can be indexed in bounded memory.
///
/// ```
/// use urlsift_records::index::SortedLines;
///
/// let dir = tempfile::tempdir().unwrap();
/// let mut lines = SortedLines::new(16, dir.path().to_path_buf());
/// for line in ["org,b)/ 2", "com,a)/ 1", "net,c)/ 3", "com,a)/ 0"] {
///     lines.push(line.as_bytes().to_vec()).unwrap();
/// }
/// let mut out = Vec::new();
/// lines.write_to(&mut out).unwrap();
/// assert_eq!(out, b"com,a)/ 0\ncom,a)/ 1\nnet,c)/ 3\norg,b)/ 2\n");
/// ```
pub struct SortedLines {
    lines: Vec<Vec<u8>>,
    bytes: usize,
    budget: usize,
    dir: std::path::PathBuf,
    runs: Vec<std::path::PathBuf>,
}

impl SortedLines {
    /// Lines held up to `budget` bytes, runs written in `dir`.
    pub fn new(budget: usize, dir: std::path::PathBuf) -> SortedLines {
        SortedLines {
            lines: Vec::new(),
            bytes: 0,
            budget: budget.max(1),
            dir,
            runs: Vec::new(),
        }
    }

    /// Adds a line (without its line end).
    pub fn push(&mut self, line: Vec<u8>) -> io::Result<()> {
        self.bytes += line.len() + 32;
        self.lines.push(line);
        if self.bytes > self.budget {
            self.spill()?;
        }
        Ok(())
    }

    /// How many runs went to disk.
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    fn spill(&mut self) -> io::Result<()> {
        self.lines.sort_unstable();
        let path = self.dir.join(format!("run-{}", self.runs.len()));
        let mut w = io::BufWriter::new(std::fs::File::create(&path)?);
        for line in self.lines.drain(..) {
            io::Write::write_all(&mut w, &line)?;
            io::Write::write_all(&mut w, b"\n")?;
        }
        io::Write::flush(&mut w)?;
        self.runs.push(path);
        self.bytes = 0;
        Ok(())
    }

    /// Writes every line, in byte order, each ended by `\n`.
    pub fn write_to(mut self, out: &mut impl io::Write) -> io::Result<()> {
        self.lines.sort_unstable();
        if self.runs.is_empty() {
            for line in &self.lines {
                out.write_all(line)?;
                out.write_all(b"\n")?;
            }
            return Ok(());
        }
        // A k-way merge of the runs and what is in memory.
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let mut readers = Vec::new();
        for path in &self.runs {
            readers.push(io::BufReader::with_capacity(
                1 << 16,
                std::fs::File::open(path)?,
            ));
        }
        let mut memory = self.lines.into_iter();
        let mut heap = BinaryHeap::new();
        let next = |r: &mut io::BufReader<std::fs::File>| -> io::Result<Option<Vec<u8>>> {
            let mut line = Vec::new();
            match r.read_until(b'\n', &mut line)? {
                0 => Ok(None),
                _ => {
                    line.pop();
                    Ok(Some(line))
                }
            }
        };
        for (i, r) in readers.iter_mut().enumerate() {
            if let Some(line) = next(r)? {
                heap.push(Reverse((line, i)));
            }
        }
        let from_memory = readers.len();
        if let Some(line) = memory.next() {
            heap.push(Reverse((line, from_memory)));
        }
        while let Some(Reverse((line, i))) = heap.pop() {
            out.write_all(&line)?;
            out.write_all(b"\n")?;
            let more = match i == from_memory {
                true => memory.next(),
                false => next(&mut readers[i])?,
            };
            if let Some(line) = more {
                heap.push(Reverse((line, i)));
            }
        }
        Ok(())
    }
}

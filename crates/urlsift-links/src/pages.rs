//! Pages to take links from, read in order from one input: the `response`
//! and `resource` records of a WARC file, the `metadata` records of a
//! WAT file, the records of an ARC file (plain, gzip or zstd, through
//! [`urlsift_records::input::open`]), or one HTML file. A record's block
//! is held whole up to a limit; a larger one is skipped, unread, and
//! reported as a bad record (`page-too-large`), so memory stays at the
//! limit whatever the file holds. A header block that is not a WARC
//! header is a bad record, and reading resumes at the next `WARC/` line.
//!
//! ```
//! use urlsift_links::pages::{Item, Pages};
//!
//! let warc = b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://e.com/\r\nContent-Length: 5\r\n\r\nHELLO\r\n\r\n";
//! let mut pages = Pages::warc(&warc[..], 1 << 20);
//! match pages.next().unwrap() {
//!     Item::Page(p) => assert_eq!((p.offset, p.url.as_str(), p.block.as_slice()), (0, "http://e.com/", &b"HELLO"[..])),
//!     other => panic!("{other:?}"),
//! }
//! assert!(pages.next().is_none());
//! ```

use std::io::{self, BufRead, BufReader, Read};

use super::{Kinds, wat};
use urlsift_records::Reason;
use urlsift_records::format::warc::{Dialect, arc};

/// A record to take links from.
#[derive(Debug)]
pub struct Page {
    /// Where the record starts in its (decompressed) input.
    pub offset: u64,
    /// The page's URL (`WARC-Target-URI`, or the base given for a file).
    pub url: String,
    /// Whether the block is an HTTP response (a WARC `response` record of
    /// `application/http`, or whose block starts `HTTP/`; an ARC record
    /// whose block starts `HTTP/`) rather than the document itself.
    pub http: bool,
    /// Whether the block is a WAT record's JSON (a `metadata` record of
    /// `application/json`; see [`super::wat`]).
    pub json: bool,
    /// The record's block.
    pub block: Vec<u8>,
}

/// What the reader gives.
#[derive(Debug)]
pub enum Item {
    /// A page.
    Page(Page),
    /// A WARC record of another type (`request`, `metadata`, ...), or an
    /// ARC file's `filedesc://` or `dns:` record.
    Other,
    /// A record that cannot be a page, at `offset`, and why.
    Bad {
        /// Where the record starts.
        offset: u64,
        /// Why.
        reason: Reason,
        /// The record's `WARC-Target-URI`, where its header was read.
        url: Option<String>,
    },
}

/// What a record holds for links ([`Item::read`]).
#[derive(Debug)]
pub enum Outcome<'a> {
    /// A page, read, and the record it came from.
    Page(super::Page, &'a Page),
    /// A record whose block is not HTML (a stylesheet, an image).
    NotHtml,
    /// A record of another type.
    Other,
    /// A record that cannot be read as a page: where it starts, why, and
    /// its URL (empty where unknown).
    Bad {
        /// Where the record starts.
        offset: u64,
        /// Why.
        reason: Reason,
        /// The record's URL, where its header was read.
        url: &'a str,
    },
}

impl Item {
    /// An HTML file's whole content, from `reader`, as an item: a page at
    /// `url` (the file's base), or a `page-too-large` bad record past `max`
    /// bytes (no more than `max` + 1 are read).
    ///
    /// ```
    /// use urlsift_links::pages::Item;
    /// use urlsift_records::Reason;
    ///
    /// let item = Item::document(&b"<a href=x>"[..], 1 << 20, "http://e.com/").unwrap();
    /// assert!(matches!(item, Item::Page(p) if p.url == "http://e.com/" && p.block == b"<a href=x>"));
    /// let big = Item::document(&b"<a href=x>"[..], 4, "").unwrap();
    /// assert!(matches!(big, Item::Bad { reason: Reason::PageTooLarge, .. }));
    /// ```
    pub fn document(reader: impl Read, max: usize, url: &str) -> io::Result<Item> {
        let mut block = Vec::new();
        reader.take(max as u64 + 1).read_to_end(&mut block)?;
        Ok(if block.len() > max {
            Item::Bad {
                offset: 0,
                reason: Reason::PageTooLarge,
                url: None,
            }
        } else {
            Item::Page(Page {
                offset: 0,
                url: url.to_string(),
                http: false,
                json: false,
                block,
            })
        })
    }

    /// Reads the item's page: its HTTP response decoded (bodies up to
    /// `max` bytes), its HTML or WAT links found (of `kinds`). `document`:
    /// the block is an HTML file's whole content (not a record's).
    ///
    /// ```
    /// use urlsift_links::Kinds;
    /// use urlsift_links::pages::{Item, Outcome, Pages};
    ///
    /// let warc = b"WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://e.com/\r\nContent-Length: 11\r\n\r\n<a href=b>b\r\n\r\n";
    /// let item = Pages::warc(&warc[..], 1 << 20).next().unwrap();
    /// match item.read(false, 1 << 20, &Kinds::default()) {
    ///     Outcome::Page(page, record) => {
    ///         assert_eq!(record.url, "http://e.com/");
    ///         assert_eq!(page.resolve().next().unwrap().to.unwrap().href(), "http://e.com/b");
    ///     }
    ///     other => panic!("{other:?}"),
    /// }
    /// ```
    pub fn read(&self, document: bool, max: usize, kinds: &Kinds) -> Outcome<'_> {
        let record = match self {
            Item::Other => return Outcome::Other,
            Item::Bad {
                offset,
                reason,
                url,
            } => {
                return Outcome::Bad {
                    offset: *offset,
                    reason: *reason,
                    url: url.as_deref().unwrap_or(""),
                };
            }
            Item::Page(p) => p,
        };
        let page = if document {
            Ok(Some(super::Page::from_html(
                &record.block,
                &record.url,
                None,
                kinds,
            )))
        } else if record.json {
            wat::page(&record.block, kinds)
        } else {
            super::Page::from_block(&record.block, &record.url, record.http, max, kinds)
        };
        match page {
            Ok(Some(page)) => Outcome::Page(page, record),
            Ok(None) => Outcome::NotHtml,
            Err(reason) => Outcome::Bad {
                offset: record.offset,
                reason,
                url: &record.url,
            },
        }
    }
}

/// The pages of one input.
pub struct Pages<R> {
    reader: BufReader<R>,
    offset: u64,
    max: usize,
    line: Vec<u8>,
    /// A record found while skipping damage, given on the next call.
    pending: Option<Item>,
    /// Skip to the next `WARC/` line silently (after a record whose
    /// length is unknown: its block is part of that bad record).
    resync: bool,
    failed: Option<io::Error>,
    /// WARC or ARC: told by the first record (`None` before it).
    dialect: Option<Dialect>,
}

impl<R: Read> Pages<R> {
    /// The `response` and `resource` records of a WARC stream (or the
    /// records of an ARC stream, told by its first line: an ARC header
    /// line), blocks of at most `max` bytes.
    pub fn warc(reader: R, max: usize) -> Pages<R> {
        Pages {
            reader: BufReader::with_capacity(1 << 16, reader),
            offset: 0,
            max,
            line: Vec::new(),
            pending: None,
            resync: false,
            failed: None,
            dialect: None,
        }
    }

    /// Whether the line read starts a record: a `WARC/` line, or an ARC
    /// header line (the first record's line decides which for the input).
    fn starts_record(&mut self) -> bool {
        let dialect = *self.dialect.get_or_insert_with(|| {
            if arc::Header::parse(&self.line).is_some() {
                Dialect::Arc
            } else {
                Dialect::Warc
            }
        });
        match dialect {
            Dialect::Warc => self.line.starts_with(b"WARC/"),
            Dialect::Arc => arc::Header::parse(&self.line).is_some(),
        }
    }

    /// The ARC record whose header line is in `self.line`, starting at
    /// `start`: a page unless it is the file's `filedesc://` record or a
    /// `dns:` lookup.
    fn arc_record(&mut self, start: u64) -> Item {
        let header = arc::Header::parse(&self.line).expect("a header line");
        let (length, other) = (
            header.length,
            header.is_filedesc() || header.url.starts_with(b"dns:"),
        );
        let url = String::from_utf8_lossy(header.url).into_owned();
        let bad = |reason| Item::Bad {
            offset: start,
            reason,
            url: Some(url.clone()),
        };
        if other || length > self.max as u64 {
            if !self.skip(length) {
                return bad(Reason::ArcTruncated);
            }
            return if other {
                Item::Other
            } else {
                bad(Reason::PageTooLarge)
            };
        }
        let Some(block) = self.block(length) else {
            return bad(Reason::ArcTruncated);
        };
        Item::Page(Page {
            offset: start,
            http: block.starts_with(b"HTTP/"),
            url,
            json: false,
            block,
        })
    }

    /// Reads a block of `length` bytes; `None` if the input ends (or fails)
    /// first.
    fn block(&mut self, length: u64) -> Option<Vec<u8>> {
        // Read into spare capacity: no zeroing of a buffer about to be
        // overwritten.
        let mut block = Vec::with_capacity(length as usize);
        match (&mut self.reader).take(length).read_to_end(&mut block) {
            Ok(n) if n as u64 == length => {
                self.offset += length;
                Some(block)
            }
            Ok(n) => {
                self.offset += n as u64;
                None
            }
            Err(e) => {
                self.failed = Some(e);
                None
            }
        }
    }

    /// The read error that ended the input early, if one did.
    pub fn error(&mut self) -> Option<io::Error> {
        self.failed.take()
    }

    /// Reads a line into `self.line` (without its end); `false` at the end.
    fn read_line(&mut self) -> bool {
        self.line.clear();
        match self.reader.read_until(b'\n', &mut self.line) {
            Ok(0) => false,
            Ok(n) => {
                self.offset += n as u64;
                while self.line.last().is_some_and(|&c| c == b'\n' || c == b'\r') {
                    self.line.pop();
                }
                true
            }
            Err(e) => {
                self.failed = Some(e);
                false
            }
        }
    }

    /// Skips `n` bytes; `false` if the input ended first.
    fn skip(&mut self, n: u64) -> bool {
        match io::copy(&mut (&mut self.reader).take(n), &mut io::sink()) {
            Ok(k) => {
                self.offset += k;
                k == n
            }
            Err(e) => {
                self.failed = Some(e);
                false
            }
        }
    }

    /// The record whose first line (`WARC/`, or an ARC header line) is in
    /// `self.line`, starting at `start`.
    fn record(&mut self, start: u64) -> Item {
        if self.dialect == Some(Dialect::Arc) {
            return self.arc_record(start);
        }
        let (mut kind, mut target, mut length, mut http, mut json) =
            (Vec::new(), None::<String>, None, false, false);
        loop {
            if !self.read_line() {
                return Item::Bad {
                    offset: start,
                    reason: Reason::WarcTruncated,
                    url: target,
                };
            }
            if self.line.is_empty() {
                break;
            }
            let Some(colon) = memchr::memchr(b':', &self.line) else {
                continue;
            };
            let (name, value) = (&self.line[..colon], self.line[colon + 1..].trim_ascii());
            if name.eq_ignore_ascii_case(b"WARC-Type") {
                kind = value.to_ascii_lowercase();
            } else if name.eq_ignore_ascii_case(b"WARC-Target-URI") {
                let v = value
                    .strip_prefix(b"<")
                    .and_then(|v| v.strip_suffix(b">"))
                    .unwrap_or(value);
                target = Some(String::from_utf8_lossy(v).into_owned());
            } else if name.eq_ignore_ascii_case(b"Content-Length") {
                length = std::str::from_utf8(value)
                    .ok()
                    .and_then(|v| v.parse::<u64>().ok());
            } else if name.eq_ignore_ascii_case(b"Content-Type") {
                let value = value.to_ascii_lowercase();
                http = value.starts_with(b"application/http");
                json = value.starts_with(b"application/json");
            }
        }
        let bad = |reason| Item::Bad {
            offset: start,
            reason,
            url: target.clone(),
        };
        let Some(length) = length else {
            self.resync = true;
            return bad(Reason::BadWarcHeader);
        };
        let json = json && kind == b"metadata";
        let page = kind == b"response" || kind == b"resource" || json;
        if !page || length > self.max as u64 {
            if !self.skip(length) {
                return bad(Reason::WarcTruncated);
            }
            return if page {
                bad(Reason::PageTooLarge)
            } else {
                Item::Other
            };
        }
        let Some(block) = self.block(length) else {
            return bad(Reason::WarcTruncated);
        };
        Item::Page(Page {
            offset: start,
            url: target.unwrap_or_default(),
            http: kind == b"response" && (http || block.starts_with(b"HTTP/")),
            json,
            block,
        })
    }
}

impl<R: Read> Iterator for Pages<R> {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        if let Some(item) = self.pending.take() {
            return Some(item);
        }
        let start = loop {
            let start = self.offset;
            if !self.read_line() {
                return None;
            }
            if !self.line.is_empty() && self.starts_record() {
                self.resync = false;
                return Some(self.record(start));
            }
            if !self.line.is_empty() && !self.resync {
                break start;
            }
        };
        // Not a record's start: the bytes to the next record's first line
        // are a bad record; the record there comes next.
        loop {
            let at = self.offset;
            if !self.read_line() {
                break;
            }
            if !self.line.is_empty() && self.starts_record() {
                self.pending = Some(self.record(at));
                break;
            }
        }
        let reason = match self.dialect {
            Some(Dialect::Arc) => Reason::BadArcHeader,
            _ => Reason::BadWarcHeader,
        };
        Some(Item::Bad {
            offset: start,
            reason,
            url: None,
        })
    }
}

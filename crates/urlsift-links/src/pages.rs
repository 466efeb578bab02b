//! Pages to take links from, read in order from one input: the `response`
//! and `resource` records of a WARC file, the `metadata` records of a
//! WAT file, the records of an ARC file (plain, gzip or zstd, through
//! [`urlsift_records::input::open`]), or one HTML file. The records are
//! those of the record engine's reader ([`Records`]), delimited, checked
//! and resynchronized as `normalize` reads them; a page's block is held
//! whole up to a limit, and a larger one is skipped, unread, and reported
//! as a bad record (`page-too-large`), so memory stays at the limit
//! whatever the file holds. A page whose Content-Length runs past its
//! record is a bad record (`bad-WARC-length`), and the records after it
//! are read.
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

use std::io::{self, Read};
use std::sync::Arc;

use super::{Kinds, wat};
use urlsift_records::Reason;
use urlsift_records::format::warc::{Block, Dialect, Record, Records, arc, fields};
use urlsift_records::input::mmap::Map;

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

/// The pages of one input: the record engine's WARC and ARC reader
/// ([`Records`]) keeping the blocks of the records that may be pages.
pub struct Pages<R> {
    records: Records<R>,
    /// The last page's length was wrong: the bad stretch that follows is
    /// its payload, already counted with it.
    misplaced: bool,
}

impl<R: Read> Pages<R> {
    /// The `response` and `resource` records of a WARC stream, and its
    /// `metadata` records of JSON (or the records of an ARC stream, told by
    /// its first line: an ARC header line), blocks of at most `max` bytes.
    pub fn warc(reader: R, max: usize) -> Pages<R> {
        Pages {
            records: Records::new(reader).keeping(max, wanted),
            misplaced: false,
        }
    }

    /// [`Pages::warc`] of a mapped file, walked in place.
    ///
    /// ```
    /// use urlsift_links::pages::{Item, Pages};
    /// use urlsift_records::input::mmap::Map;
    ///
    /// # let dir = std::env::temp_dir().join(format!("urlsift-doc-pages-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir).unwrap();
    /// let path = dir.join("one.warc");
    /// std::fs::write(&path, "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://e.com/\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n").unwrap();
    /// let map = Map::new(&std::fs::File::open(&path).unwrap()).unwrap().expect("a regular file");
    /// let mut pages = Pages::<std::io::Empty>::mapped(map, 1 << 20);
    /// assert!(matches!(pages.next(), Some(Item::Page(p)) if p.block == b"hi"));
    /// assert!(pages.next().is_none());
    /// ```
    pub fn mapped(map: Arc<Map>, max: usize) -> Pages<R> {
        Pages {
            records: Records::mapped(map).keeping(max, wanted),
            misplaced: false,
        }
    }

    /// The read error that ended the input early, if one did.
    pub fn error(&mut self) -> Option<io::Error> {
        self.records.error()
    }

    /// The item a record read is.
    fn item(&mut self, record: Record) -> Option<Item> {
        let dialect = self.records.dialect();
        let fields = Fields::of(dialect, &record.header);
        let bad = |reason| {
            Some(Item::Bad {
                offset: record.offset,
                reason,
                url: fields.as_ref().map(|f| f.url.clone()),
            })
        };
        if let Some(reason) = record.bad {
            if reason == Reason::WarcBadLength && std::mem::take(&mut self.misplaced) {
                return None;
            }
            return bad(reason);
        }
        self.misplaced = false;
        match record.block {
            Block::Skipped => Some(Item::Other),
            Block::TooLarge => bad(Reason::PageTooLarge),
            Block::Misplaced => {
                self.misplaced = true;
                bad(Reason::WarcBadLength)
            }
            Block::Kept(block) => {
                let fields = fields.expect("a wanted record's header");
                Some(Item::Page(Page {
                    offset: record.offset,
                    http: fields.http && (fields.http_type || block.starts_with(b"HTTP/")),
                    json: fields.json,
                    url: fields.url,
                    block,
                }))
            }
        }
    }
}

impl<R: Read> Iterator for Pages<R> {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        loop {
            let record = self.records.next()?;
            if let Some(item) = self.item(record) {
                return Some(item);
            }
        }
    }
}

/// What a record's header says of it as a page.
struct Fields {
    /// `WARC-Target-URI` (without WARC 1.0's angle brackets), or the ARC
    /// line's URL; lossy where not UTF-8.
    url: String,
    /// A page: a WARC `response` or `resource`, a `metadata` record of
    /// JSON, or an ARC record but the file's `filedesc://` and `dns:`
    /// lookups.
    page: bool,
    /// A `response`, or an ARC record: an HTTP response where its block
    /// starts `HTTP/` or (`http_type`) its Content-Type says so.
    http: bool,
    /// Content-Type `application/http`.
    http_type: bool,
    /// A WAT record: `metadata` of `application/json`.
    json: bool,
}

impl Fields {
    /// The fields of a header block (or of a bad stretch that starts with
    /// one); `None` where it is not a record header of `dialect`.
    fn of(dialect: Dialect, header: &[u8]) -> Option<Fields> {
        if dialect == Dialect::Arc {
            let line = &header[..memchr::memchr(b'\n', header).unwrap_or(header.len())];
            let h = arc::Header::parse(line)?;
            return Some(Fields {
                url: String::from_utf8_lossy(h.url).into_owned(),
                page: !(h.is_filedesc() || h.url.starts_with(b"dns:")),
                http: true,
                http_type: false,
                json: false,
            });
        }
        if !header.starts_with(b"WARC/") {
            return None;
        }
        let (mut kind, mut url, mut http_type, mut json) =
            (Vec::new(), String::new(), false, false);
        for (name, value) in fields(header) {
            if name.eq_ignore_ascii_case(b"WARC-Type") {
                kind = value.to_ascii_lowercase();
            } else if name.eq_ignore_ascii_case(b"WARC-Target-URI") {
                let v = value
                    .strip_prefix(b"<")
                    .and_then(|v| v.strip_suffix(b">"))
                    .unwrap_or(value);
                url = String::from_utf8_lossy(v).into_owned();
            } else if name.eq_ignore_ascii_case(b"Content-Type") {
                let value = value.to_ascii_lowercase();
                http_type = value.starts_with(b"application/http");
                json = value.starts_with(b"application/json");
            }
        }
        let json = json && kind == b"metadata";
        Some(Fields {
            url,
            page: kind == b"response" || kind == b"resource" || json,
            http: kind == b"response",
            http_type,
            json,
        })
    }
}

/// Whether a record may be a page: its block is kept.
fn wanted(dialect: Dialect, header: &[u8]) -> bool {
    Fields::of(dialect, header).is_some_and(|f| f.page)
}

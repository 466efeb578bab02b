//! Pages to take links from: the `response` and `resource` records of a
//! WARC file, the `metadata` records of a WAT file, the records of an ARC
//! file, or one HTML file. The records are the record engine's: `links`
//! runs on the engine ([`urlsift_records::Engine`]), its reader keeping the
//! blocks of the records that may be pages ([`keeping`]) after their
//! header blocks in each chunk, and [`items`] reads a chunk's records as
//! pages. They are delimited, checked and resynchronized as `normalize`
//! reads them, past damaged gzip members too; a page's block is held whole
//! up to a limit, and a larger one is skipped, unread, and reported as a
//! bad record (`page-too-large`), so memory stays at the limit whatever
//! the file holds. A page whose Content-Length runs past its record is a
//! bad record (`bad-WARC-length`), and the records after it are read.
//! [`Pages`] reads the same items from one stream, one record at a time.
//!
//! ```
//! use urlsift_links::pages::{Item, Pages};
//!
//! let warc = b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://e.com/\r\nContent-Length: 5\r\n\r\nHELLO\r\n\r\n";
//! let mut pages = Pages::warc(&warc[..], 1 << 20);
//! match pages.next().unwrap() {
//!     Item::Page(p) => assert_eq!((p.offset, p.url.as_str(), &p.block[..]), (0, "http://e.com/", &b"HELLO"[..])),
//!     other => panic!("{other:?}"),
//! }
//! assert!(pages.next().is_none());
//! ```

use std::borrow::Cow;
use std::io::{self, Read};
use std::sync::Arc;

use super::{Kinds, wat};
use urlsift_records::input::mmap::Map;
use urlsift_records::{Chunk, Format};

use crate::LinkReason;
use urlsift_warc::{
    Block, Body, Dialect, Entry, Keeping, Record, RecordFault, Records, arc, fields,
};

/// A record to take links from.
#[derive(Debug)]
pub struct PageRecord<'a> {
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
    pub block: Cow<'a, [u8]>,
}

/// What the reader gives.
#[derive(Debug)]
pub enum Item<'a> {
    /// A page.
    Page(PageRecord<'a>),
    /// A WARC record of another type (`request`, `metadata`, ...), or an
    /// ARC file's `filedesc://` or `dns:` record.
    Other,
    /// A record that cannot be a page, at `offset`, and why.
    Bad {
        /// Where the record starts.
        offset: u64,
        /// Why.
        reason: LinkReason,
        /// The record's `WARC-Target-URI`, where its header was read.
        url: Option<String>,
    },
}

/// What a record holds for links ([`Item::read`]).
#[derive(Debug)]
pub enum Outcome<'a> {
    /// A page, read, and the record it came from.
    Page(super::Page, &'a PageRecord<'a>),
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
        reason: LinkReason,
        /// The record's URL, where its header was read.
        url: &'a str,
    },
}

impl Item<'_> {
    /// An HTML file's whole content, from `reader`, as an item: a page at
    /// `url` (the file's base), or a `page-too-large` bad record past `max`
    /// bytes (no more than `max` + 1 are read); and the read error that cut
    /// it short (a cut `.html.gz`), if one did: the page is then what was
    /// read before it.
    ///
    /// ```
    /// use urlsift_links::pages::Item;
    /// use urlsift_links::LinkReason;
    ///
    /// let (item, cut) = Item::document(&b"<a href=x>"[..], 1 << 20, "http://e.com/");
    /// assert!(matches!(item, Item::Page(p) if p.url == "http://e.com/" && &p.block[..] == b"<a href=x>"));
    /// assert!(cut.is_none());
    /// let (big, _) = Item::document(&b"<a href=x>"[..], 4, "");
    /// assert!(matches!(big, Item::Bad { reason: LinkReason::PageTooLarge, .. }));
    /// ```
    pub fn document(
        reader: impl Read,
        max: usize,
        url: &str,
    ) -> (Item<'static>, Option<io::Error>) {
        let mut block = Vec::new();
        // (What was read before an error stays in `block`.)
        let cut = reader.take(max as u64 + 1).read_to_end(&mut block).err();
        let item = if block.len() > max {
            Item::Bad {
                offset: 0,
                reason: LinkReason::PageTooLarge,
                url: None,
            }
        } else {
            Item::Page(PageRecord {
                offset: 0,
                url: url.to_string(),
                http: false,
                json: false,
                block: Cow::Owned(block),
            })
        };
        (item, cut)
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
    /// # let tmp = tempfile::Builder::new().prefix("urlsift-doc-pages-").tempdir().unwrap();
    /// # let dir = tmp.path();
    /// let path = dir.join("one.warc");
    /// std::fs::write(&path, "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://e.com/\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n").unwrap();
    /// let map = Map::new(&std::fs::File::open(&path).unwrap()).unwrap().expect("a regular file");
    /// let mut pages = Pages::<std::io::Empty>::mapped(map, 1 << 20);
    /// assert!(matches!(pages.next(), Some(Item::Page(p)) if &p.block[..] == b"hi"));
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

    /// The item a record read is (`None`: the bad stretch after a page
    /// whose length was wrong, counted with it).
    fn item(&mut self, record: Record) -> Option<Item<'static>> {
        let block = match record.block {
            Block::Skipped => Kept::Skipped,
            Block::TooLarge => Kept::TooLarge,
            Block::Misplaced => Kept::Misplaced,
            Block::Kept(block) => Kept::Block(Cow::Owned(block)),
        };
        let misplaced = std::mem::take(&mut self.misplaced);
        if record.bad == Some(RecordFault::WarcBadLength) && misplaced {
            return None;
        }
        self.misplaced = record.bad.is_none() && matches!(block, Kept::Misplaced);
        let dialect = self.records.dialect();
        Some(item(
            dialect,
            &record.header,
            record.offset,
            record.bad.map(LinkReason::from),
            block,
        ))
    }
}

impl<R: Read> Iterator for Pages<R> {
    type Item = Item<'static>;

    fn next(&mut self) -> Option<Item<'static>> {
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
            http: kind == b"response",
            http_type,
            json,
        })
    }
}

/// What a reader kept of a record's block.
enum Kept<'a> {
    /// Not wanted (or the record is bad).
    Skipped,
    /// Wanted, over the limit.
    TooLarge,
    /// Wanted, but its length was wrong.
    Misplaced,
    /// The block.
    Block(Cow<'a, [u8]>),
}

/// The item a record is: its header block (of `dialect`), where it
/// starts, why it is bad if it is, and what was kept of its block.
fn item<'a>(
    dialect: Dialect,
    header: &[u8],
    offset: u64,
    bad: Option<LinkReason>,
    block: Kept<'a>,
) -> Item<'a> {
    // The header's fields are read only where they are needed: not for
    // the records of other types (requests, metadata, ...).
    let reason = match (bad, block) {
        (Some(reason), _) => reason,
        (None, Kept::Skipped) => return Item::Other,
        (None, Kept::TooLarge) => LinkReason::PageTooLarge,
        (None, Kept::Misplaced) => RecordFault::WarcBadLength.into(),
        (None, Kept::Block(block)) => {
            return match Fields::of(dialect, header) {
                Some(fields) => Item::Page(PageRecord {
                    offset,
                    http: fields.http && (fields.http_type || block.starts_with(b"HTTP/")),
                    json: fields.json,
                    url: fields.url,
                    block,
                }),
                None => Item::Other,
            };
        }
    };
    Item::Bad {
        offset,
        reason,
        url: Fields::of(dialect, header).map(|f| f.url),
    }
}

/// The record engine's reader settings for pages: it keeps the blocks of
/// the records that may be pages, up to `max` bytes each.
///
/// ```
/// let keeping = urlsift_links::pages::keeping(1 << 20);
/// assert_eq!(keeping.max, 1 << 20);
/// ```
pub fn keeping(max: usize) -> Keeping {
    Keeping {
        max: max as u64,
        wants: wanted,
    }
}

/// The records of a chunk the engine read [`keeping`] pages, as items, in
/// order: a page whose length was wrong is one `bad-WARC-length` bad
/// record (the stretch after it, its payload, is counted with it).
///
/// ```
/// use urlsift_links::pages::{Item, items, keeping};
/// use urlsift_records::{Engine, Processed};
///
/// # let tmp = tempfile::Builder::new().prefix("urlsift-doc-items-").tempdir()?;
/// # let dir = tmp.path();
/// let path = dir.join("one.warc");
/// std::fs::write(&path, "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://e.com/\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n")?;
/// let engine = Engine::builder(vec![path]).keep(keeping(1 << 20)).build()?;
/// let mut urls = Vec::new();
/// engine.run(
///     |chunk| {
///         let mut p: Processed<Vec<String>> = Processed::new(chunk);
///         for item in items(chunk) {
///             if let Item::Page(page) = item {
///                 p.extra.push(format!("{} {:?}", page.url, &page.block[..]));
///             }
///         }
///         p
///     },
///     |_, p| {
///         urls.append(&mut p.extra);
///         Ok::<_, urlsift_records::Error>(true)
///     },
/// )?;
/// assert_eq!(urls, ["http://e.com/ [104, 105]"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn items(chunk: &Chunk) -> impl Iterator<Item = Item<'_>> {
    let dialect = match &chunk.source().format {
        Format::Warc(field) => field.dialect(),
        _ => Dialect::Warc,
    };
    let data: &[u8] = chunk.data();
    let index = chunk.index();
    let mut i = 0;
    std::iter::from_fn(move || {
        let e: &Entry = index.get(i)?;
        i += 1;
        let header = &data[e.start..e.end];
        let misplaced = e.bad.is_none()
            && e.body != Body::None
            && index
                .get(i)
                .is_some_and(|next| next.bad == Some(RecordFault::WarcBadLength));
        let block = if misplaced {
            // Its payload, the stretch that follows, is counted with it.
            i += 1;
            Kept::Misplaced
        } else {
            match e.body {
                Body::None => Kept::Skipped,
                Body::TooLarge => Kept::TooLarge,
                Body::Kept { start, end } => Kept::Block(Cow::Borrowed(&data[start..end])),
            }
        };
        Some(item(
            dialect,
            header,
            e.offset,
            e.bad.map(LinkReason::from),
            block,
        ))
    })
}

/// Whether a record may be a page, told from its header block without
/// reading it whole (the reader asks of every record): a WARC `response`
/// or `resource`, a `metadata` record of JSON, an ARC record but the
/// file's `filedesc://` and `dns:` lookups.
fn wanted(dialect: Dialect, header: &[u8]) -> bool {
    if dialect == Dialect::Arc {
        let line = &header[..memchr::memchr(b'\n', header).unwrap_or(header.len())];
        return arc::Header::parse(line)
            .is_some_and(|h| !(h.is_filedesc() || h.url.starts_with(b"dns:")));
    }
    if !header.starts_with(b"WARC/") {
        return false;
    }
    let (mut metadata, mut json) = (false, false);
    for (name, value) in fields(header) {
        if name.eq_ignore_ascii_case(b"WARC-Type") {
            if value.eq_ignore_ascii_case(b"response") || value.eq_ignore_ascii_case(b"resource") {
                return true;
            }
            metadata = value.eq_ignore_ascii_case(b"metadata");
        } else if name.eq_ignore_ascii_case(b"Content-Type") {
            json = value
                .get(..16)
                .is_some_and(|v| v.eq_ignore_ascii_case(b"application/json"));
        }
    }
    metadata && json
}

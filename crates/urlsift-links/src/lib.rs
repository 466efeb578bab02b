//! Links inside crawled pages: the URLs an HTML document points to, as the
//! HTML standard defines them, resolved with this crate's URL parser.
//!
//! ```text
//! WARC record ─▶ http.rs ─────▶ encoding.rs ─▶ html.rs ──────────▶ Page::resolve
//!               status, headers  BOM, charset   attribute values    document base,
//!               chunked, gzip,   <meta> prescan (html5gum tokens),  query encoding
//!               deflate, br      decode         srcset, refresh
//! ```
//!
//! [`html::extract`] takes a document's bytes and gives its raw links
//! (tag, attribute, value as the tokenizer decoded it, `rel`, [`LinkKind`])
//! and its first `<base href>`; [`Page::resolve`] resolves them against
//! the document's base URL, encoding queries in the document's encoding
//! as the URL Standard's parser does when it is given one.
//!
//! ```
//! use urlsift_links::{Page, Kinds};
//!
//! let html = br#"<base href="/docs/"><a href="a?x=1&amp;y=2">A</a><img srcset="i.png 1x, j.png 2x">"#;
//! let page = Page::from_html(html, "https://example.com/index.html", None, &Kinds::default());
//! let links: Vec<String> = page.resolve().map(|l| l.to.unwrap().href().to_string()).collect();
//! assert_eq!(links, [
//!     "https://example.com/docs/a?x=1&y=2",
//!     "https://example.com/docs/i.png",
//!     "https://example.com/docs/j.png",
//! ]);
//! ```

pub mod encoding;
pub mod html;
pub mod pages;
mod reason;
pub mod rows;
pub mod wat;
pub mod xml;

use urlsift::percent::{SPECIAL_QUERY, push_encoded_byte};
use urlsift::{ParseError, Url};
use urlsift_warc::http;

pub use reason::LinkReason;

/// What kind of reference a link is (`--kinds`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinkKind {
    /// `a` and `area` `href`.
    A,
    /// `img` `src`.
    Img,
    /// `script` `src`.
    Script,
    /// `link` `href` (see its `rel`).
    Link,
    /// `form` `action`.
    Form,
    /// `iframe` `src`.
    Iframe,
    /// `embed`, `video`, `audio`, `source`, `track` `src`; `video` `poster`.
    Media,
    /// The URL of `<meta http-equiv=refresh content="N; url=...">`.
    MetaRefresh,
    /// A candidate of an `img` or `source` `srcset`.
    Srcset,
    /// `url(...)` in a `style` attribute (not extracted unless asked for).
    Css,
    /// A sitemap's `<loc>` (or `<xhtml:link href>`).
    Sitemap,
    /// A feed's `<link>`, `<guid>` or `<enclosure url>`.
    Feed,
    /// A link listed in a Common Crawl WAT record.
    Wat,
}

impl LinkKind {
    /// Every kind, in the order `--help` lists them.
    pub const ALL: [LinkKind; 13] = [
        LinkKind::A,
        LinkKind::Img,
        LinkKind::Script,
        LinkKind::Link,
        LinkKind::Form,
        LinkKind::Iframe,
        LinkKind::Media,
        LinkKind::MetaRefresh,
        LinkKind::Srcset,
        LinkKind::Css,
        LinkKind::Sitemap,
        LinkKind::Feed,
        LinkKind::Wat,
    ];

    /// The kind's name in output and in `--kinds`.
    ///
    /// ```
    /// use urlsift_links::LinkKind;
    /// assert_eq!(LinkKind::MetaRefresh.name(), "meta-refresh");
    /// assert_eq!(LinkKind::from_name("srcset"), Some(LinkKind::Srcset));
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            LinkKind::A => "a",
            LinkKind::Img => "img",
            LinkKind::Script => "script",
            LinkKind::Link => "link",
            LinkKind::Form => "form",
            LinkKind::Iframe => "iframe",
            LinkKind::Media => "media",
            LinkKind::MetaRefresh => "meta-refresh",
            LinkKind::Srcset => "srcset",
            LinkKind::Css => "css",
            LinkKind::Sitemap => "sitemap",
            LinkKind::Feed => "feed",
            LinkKind::Wat => "wat",
        }
    }

    /// The kind a name gives.
    pub fn from_name(name: &str) -> Option<LinkKind> {
        LinkKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// Which kinds of links to extract: every kind but `css` by default.
///
/// ```
/// use urlsift_links::{LinkKind, Kinds};
/// let kinds = Kinds::parse("a,img").unwrap();
/// assert!(kinds.has(LinkKind::A) && !kinds.has(LinkKind::Script));
/// assert!(Kinds::default().has(LinkKind::Srcset) && !Kinds::default().has(LinkKind::Css));
/// assert!(Kinds::parse("a,href").unwrap_err().contains("href"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kinds(u16);

impl Default for Kinds {
    fn default() -> Kinds {
        let mut k = Kinds(0);
        for kind in LinkKind::ALL {
            if kind != LinkKind::Css {
                k.0 |= 1 << kind as u16;
            }
        }
        k
    }
}

impl Kinds {
    /// A comma-separated list of kind names (`all` for every kind).
    pub fn parse(list: &str) -> Result<Kinds, String> {
        let mut k = Kinds(0);
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if name == "all" {
                LinkKind::ALL
                    .into_iter()
                    .for_each(|kind| k.0 |= 1 << kind as u16);
                continue;
            }
            let kind = LinkKind::from_name(name).ok_or_else(|| {
                let names: Vec<&str> = LinkKind::ALL.iter().map(|k| k.name()).collect();
                format!(
                    "unknown link kind {name:?} (kinds: {}, all)",
                    names.join(", ")
                )
            })?;
            k.0 |= 1 << kind as u16;
        }
        Ok(k)
    }

    /// Whether `kind` is chosen.
    #[inline]
    pub fn has(self, kind: LinkKind) -> bool {
        self.0 & (1 << kind as u16) != 0
    }
}

/// A link as the document has it: the attribute value decoded by the
/// tokenizer (character references replaced), not yet resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawLink {
    /// The element's name, lower case.
    pub tag: String,
    /// The attribute's name, lower case.
    pub attribute: String,
    /// The URL text (a `srcset` candidate's URL, a refresh's URL).
    pub value: String,
    /// The element's `rel` attribute, when it has one.
    pub rel: Option<String>,
    /// What kind of link it is.
    pub kind: LinkKind,
}

/// A link resolved against its document's base URL.
#[derive(Debug)]
pub struct Link<'a> {
    /// The link as the document has it.
    pub raw: &'a RawLink,
    /// The URL it resolves to, or why it does not parse.
    pub to: Result<Url, ParseError>,
}

/// A document's links and what resolving them needs.
#[derive(Debug)]
pub struct Page {
    /// The document's URL (a WARC record's target, or `--base`).
    pub url: Option<Url>,
    /// The links in document order.
    pub links: Vec<RawLink>,
    /// The value of the first `<base>` element's `href`.
    pub base_href: Option<String>,
    /// The document's encoding (for the queries of its links).
    pub encoding: &'static encoding_rs::Encoding,
    /// How the stored HTTP body differed from its headers, where it did
    /// (see [`http::Notice`]).
    pub notice: Option<http::Notice>,
}

impl Page {
    /// A page of links found elsewhere than in HTML (a sitemap's or a
    /// feed's, from [`xml::links`]) at `url`, in UTF-8.
    ///
    /// ```
    /// use urlsift_links::{Kinds, Page, xml};
    ///
    /// let feed = br#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>/a</loc></url></urlset>"#;
    /// let url = urlsift::Url::parse("http://e.com/sitemap.xml").ok();
    /// let mut links = Vec::new();
    /// xml::links(&feed[..], url.as_ref(), &Kinds::default(), |l| links.push(l)).unwrap();
    /// let page = Page::of_links(url, links);
    /// assert_eq!(page.resolve().next().unwrap().to.unwrap().href(), "http://e.com/a");
    /// ```
    pub fn of_links(url: Option<Url>, links: Vec<RawLink>) -> Page {
        Page {
            url,
            links,
            base_href: None,
            encoding: encoding_rs::UTF_8,
            notice: None,
        }
    }

    /// The links of an HTML document `html` at `url`, in the encoding the
    /// HTTP header names (`http_charset`), a byte-order mark, a `<meta>`
    /// charset, or UTF-8 (see [`encoding::sniff`]).
    pub fn from_html(html: &[u8], url: &str, http_charset: Option<&str>, kinds: &Kinds) -> Page {
        let encoding = encoding::sniff(html, http_charset);
        // The tokenizer reads UTF-8 bytes as they are (an invalid sequence
        // in a value becomes U+FFFD when the value is taken, as decoding
        // would make it): only other encodings are decoded first.
        let doc = if encoding == encoding_rs::UTF_8 {
            html::extract(html.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(html), kinds)
        } else {
            html::extract(encoding::decode(html, encoding).as_bytes(), kinds)
        };
        Page {
            url: Url::parse(url).ok(),
            links: doc.links,
            base_href: doc.base_href,
            encoding,
            notice: None,
        }
    }

    /// The links of a WARC record's block at `url`: an HTTP response
    /// (`http`: its body decoded, at most `max` bytes, its charset taken)
    /// or the document itself. `Ok(None)`: the body is not HTML; `Err`:
    /// the response cannot be read (the bad record's reason).
    ///
    /// ```
    /// use urlsift_links::{Kinds, Page};
    ///
    /// let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=b>b</a>";
    /// let page = Page::from_block(block, "http://e.com/a/", true, 1 << 20, &Kinds::default()).unwrap().unwrap();
    /// assert_eq!(page.resolve().next().unwrap().to.unwrap().href(), "http://e.com/a/b");
    /// let image = b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG";
    /// assert!(Page::from_block(image, "http://e.com/i.png", true, 1 << 20, &Kinds::default()).unwrap().is_none());
    /// assert_eq!(Page::from_block(b"junk", "http://e.com/", true, 1 << 20, &Kinds::default()).unwrap_err(), urlsift_links::LinkReason::Http(urlsift_warc::http::HttpError::BadHttp));
    /// ```
    pub fn from_block(
        block: &[u8],
        url: &str,
        http: bool,
        max: usize,
        kinds: &Kinds,
    ) -> Result<Option<Page>, LinkReason> {
        if !http {
            if !http::looks_like_html(block) {
                return Ok(None);
            }
            return Ok(Some(Page::from_html(block, url, None, kinds)));
        }
        let head = http::Response::parse_head(block).map_err(LinkReason::from)?;
        // A stylesheet or an image is not a page, however its body is
        // coded: it is not decoded.
        if head.is_declared_not_html() {
            return Ok(None);
        }
        let response = head.decode(max).map_err(LinkReason::from)?;
        if !response.is_html() {
            return Ok(None);
        }
        let mut page = Page::from_html(&response.body, url, response.charset(), kinds);
        page.notice = response.notice;
        Ok(Some(page))
    }

    /// The document's base URL: its first `<base href>` resolved against
    /// the document's URL (when that parses, and is not a `data:` or
    /// `javascript:` URL, which the HTML standard's frozen base URL
    /// refuses), else the document's URL.
    ///
    /// ```
    /// use urlsift_links::{Kinds, Page};
    /// let page = Page::from_html(b"<base href='javascript:x'><a href=b>", "http://e.com/a/", None, &Kinds::default());
    /// assert_eq!(page.base().unwrap().href(), "http://e.com/a/");
    /// ```
    pub fn base(&self) -> Option<Url> {
        let href = self.base_href.as_deref();
        match (
            href.and_then(|h| Url::parse_with_base(h, self.url.as_ref()).ok())
                .filter(|b| !matches!(b.scheme(), "data" | "javascript")),
            &self.url,
        ) {
            (Some(base), _) => Some(base),
            (None, url) => url.clone(),
        }
    }

    /// Each link resolved against [`Page::base`], in document order; a
    /// form's empty `action` is the document's URL (the HTML standard's
    /// form submission), not the base.
    ///
    /// ```
    /// use urlsift_links::{Kinds, Page};
    /// let page = Page::from_html(b"<base href=/b/><form action=''>", "http://e.com/a?q", None, &Kinds::default());
    /// assert_eq!(page.resolve().next().unwrap().to.unwrap().href(), "http://e.com/a?q");
    /// ```
    pub fn resolve(&self) -> impl Iterator<Item = Link<'_>> {
        let base = self.base();
        self.links.iter().map(move |raw| Link {
            raw,
            to: match (
                &self.url,
                raw.kind == LinkKind::Form && raw.value.is_empty(),
            ) {
                (Some(url), true) => Ok(url.clone()),
                _ => parse_in(&raw.value, base.as_ref(), self.encoding),
            },
        })
    }
}

/// Parses `input` against `base` as the URL Standard's parser does when it
/// is given `encoding` for the query: the query of a special URL (other
/// than `ws:` and `wss:`) is encoded in the document's encoding before it
/// is percent-encoded (a code point the encoding lacks becomes `&#N;`);
/// UTF-8, UTF-16 and ASCII-only queries are as [`Url::parse_with_base`]
/// gives them.
///
/// ```
/// use urlsift::Url;
/// use urlsift_links::parse_in;
///
/// let base = Url::parse("http://example.com/").unwrap();
/// let latin1 = encoding_rs::WINDOWS_1252;
/// assert_eq!(parse_in("/s?q=é#é", Some(&base), latin1).unwrap().href(), "http://example.com/s?q=%E9#%C3%A9");
/// assert_eq!(parse_in("/s?q=€", Some(&base), encoding_rs::ISO_8859_2).unwrap().href(), "http://example.com/s?q=%26%238364%3B");
/// assert_eq!(parse_in("/s?q=é", Some(&base), encoding_rs::UTF_8).unwrap().href(), "http://example.com/s?q=%C3%A9");
/// ```
pub fn parse_in(
    input: &str,
    base: Option<&Url>,
    encoding: &'static encoding_rs::Encoding,
) -> Result<Url, ParseError> {
    let mut url = Url::parse_with_base(input, base)?;
    let output = encoding.output_encoding();
    if output == encoding_rs::UTF_8 || url.search().is_empty() {
        return Ok(url);
    }
    let special = matches!(url.protocol(), "http:" | "https:" | "ftp:" | "file:");
    if !special {
        return Ok(url);
    }
    // The parser takes the input without leading and trailing C0 controls
    // and spaces, and without tabs and newlines; for a special URL the
    // first `?` before any `#` starts the query (no earlier state takes
    // `?` as data).
    let cleaned: String = input
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let Some(q) = cleaned
        .find('?')
        .filter(|&q| cleaned.find('#').is_none_or(|h| q < h))
    else {
        return Ok(url);
    };
    let end = cleaned[q..].find('#').map_or(cleaned.len(), |h| q + h);
    let query = &cleaned[q + 1..end];
    if query.is_ascii() {
        return Ok(url);
    }
    let mut encoded = String::with_capacity(query.len() * 3);
    let push = |encoded: &mut String, bytes: &[u8]| {
        for &b in bytes {
            if SPECIAL_QUERY.contains(b) {
                push_encoded_byte(b, encoded);
            } else {
                encoded.push(b as char);
            }
        }
    };
    let mut encoder = output.new_encoder();
    let mut rest = query;
    let mut buf = vec![0u8; query.len() * 4 + 16];
    loop {
        let (result, read, written) =
            encoder.encode_from_utf8_without_replacement(rest, &mut buf, true);
        push(&mut encoded, &buf[..written]);
        rest = &rest[read..];
        match result {
            encoding_rs::EncoderResult::InputEmpty => break,
            encoding_rs::EncoderResult::OutputFull => buf.resize(buf.len() * 2, 0),
            // "percent-encode after encoding": an unmappable code point
            // goes in as its HTML numeric reference, itself encoded.
            encoding_rs::EncoderResult::Unmappable(c) => {
                encoded.push_str(&format!("%26%23{}%3B", c as u32));
            }
        }
    }
    url.set_search(&encoded);
    Ok(url)
}

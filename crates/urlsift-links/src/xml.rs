//! Links from sitemaps and feeds, read as a stream (quick-xml), so a
//! 50 MB sitemap costs no more memory than a small one:
//!
//! - sitemaps (`<urlset>`, `<sitemapindex>`): each `<loc>` of a `<url>` or
//!   `<sitemap>` (and of an `<image:image>`), each `<xhtml:link href>`
//!   alternate of a `<url>`; kind `sitemap`;
//! - RSS 2.0 and Atom feeds (`<rss>`, `<feed>`, RSS 1.0's `<rdf:RDF>`):
//!   RSS `<link>` text, `<guid>` text unless `isPermaLink="false"`,
//!   `<enclosure url>`, and every `<link href>` (Atom's, with its `rel`);
//!   kind `feed`.
//!
//! Text and attribute values have XML's predefined entities and character
//! references decoded (`&amp;` is `&`); surrounding whitespace is trimmed.
//! `xml:base` (XML Base, as Atom uses it) chains: each element's base is
//! its `xml:base` resolved against its parent's (the document's URL at the
//! top), with the URL Standard's parser; a link under one is given
//! resolved against it (an empty `href` is that base). Every link is
//! given, an empty one too (it resolves to the base, or is a bad link).
//! A document that breaks off (a cut file) or is not well-formed gives an
//! error with its byte offset, after the links before it.
//!
//! ```
//! use urlsift_links::{Kinds, xml::links};
//!
//! let sitemap = br#"<?xml version="1.0"?>
//! <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
//!   <url><loc> https://e.com/a?x=1&amp;y=2 </loc><lastmod>2024-01-01</lastmod></url>
//!   <url><loc><![CDATA[https://e.com/b]]></loc></url>
//! </urlset>"#;
//! let mut got = Vec::new();
//! links(&sitemap[..], None, &Kinds::default(), |l| got.push((l.value, l.kind.name()))).unwrap();
//! assert_eq!(got, [("https://e.com/a?x=1&y=2".to_string(), "sitemap"), ("https://e.com/b".into(), "sitemap")]);
//!
//! let atom = br#"<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://blog.example/">
//!   <entry xml:base="posts/1/"><link href=""/><link rel="edit" href="edit"/></entry>
//! </feed>"#;
//! let mut got = Vec::new();
//! links(&atom[..], None, &Kinds::default(), |l| got.push(l.value)).unwrap();
//! assert_eq!(got, ["https://blog.example/posts/1/", "https://blog.example/posts/1/edit"]);
//! ```

use std::io::BufRead;

use quick_xml::XmlVersion;
use quick_xml::events::{BytesStart, Event};

use super::{Kinds, LinkKind, RawLink};
use urlsift::Url;

/// Why an XML document could not be read to its end, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XmlError {
    /// The byte offset (in the decompressed input) where reading stopped.
    pub offset: u64,
    /// What was wrong.
    pub message: String,
    /// Whether the input could not be read (a cut `.gz`, say) rather than
    /// the document not being well-formed XML.
    pub read: bool,
}

/// An element's local name (without its namespace prefix).
fn local(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

/// An attribute's value by local name, entities decoded.
fn attribute(e: &BytesStart<'_>, wanted: &str) -> Option<String> {
    e.attributes().flatten().find_map(|a| {
        (local(a.key.as_ref()) == wanted)
            .then(|| {
                a.normalized_value(XmlVersion::Implicit1_0)
                    .ok()
                    .map(|v| v.into_owned())
            })
            .flatten()
    })
}

/// `xml:base`'s value, entities decoded (the `xml` prefix is fixed by XML
/// Namespaces).
fn xml_base(e: &BytesStart<'_>) -> Option<String> {
    e.attributes().flatten().find_map(|a| {
        (a.key.as_ref() == "xml:base")
            .then(|| a.normalized_value(XmlVersion::Implicit1_0).ok())
            .flatten()
            .map(|v| v.into_owned())
    })
}

/// Calls `f` with each link of the sitemap or feed `reader` holds (its
/// kind chosen by the root element), in document order; `document` is its
/// URL, where known (for a relative `xml:base`). An error comes after every
/// link before it was given.
pub fn links(
    reader: impl BufRead,
    document: Option<&Url>,
    kinds: &Kinds,
    mut f: impl FnMut(RawLink),
) -> Result<(), XmlError> {
    let mut reader = quick_xml::Reader::from_reader(reader);
    let mut buf = Vec::new();
    // The open elements' local names, and the text being collected (for
    // the element at `collect`'s depth) with its link's tag and rel.
    let mut stack: Vec<String> = Vec::new();
    // Each open element's `xml:base`-given base (`None`: none in scope,
    // links are given as written, for the document's base).
    let mut bases: Vec<Option<Url>> = Vec::new();
    let mut kind: Option<LinkKind> = None;
    let mut text = String::new();
    let mut collect: Option<(usize, &'static str)> = None;
    let emit = |f: &mut dyn FnMut(RawLink),
                base: Option<&Url>,
                kind: LinkKind,
                tag: &str,
                attribute: &str,
                value: &str,
                rel: Option<String>| {
        let value = value.trim();
        if kinds.has(kind) {
            let value = match base.map(|b| Url::parse_with_base(value, Some(b))) {
                Some(Ok(url)) => url.href().to_string(),
                _ => value.to_string(),
            };
            f(RawLink {
                tag: tag.to_string(),
                attribute: attribute.to_string(),
                value,
                rel,
                kind,
            });
        }
    };
    loop {
        let event = reader.read_event_into(&mut buf).map_err(|e| XmlError {
            offset: reader.error_position(),
            read: matches!(e, quick_xml::Error::Io(_)),
            message: match &e {
                quick_xml::Error::Io(io) => io.to_string(),
                _ => e.to_string(),
            },
        })?;
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                let name = local(e.name().as_ref()).to_string();
                let parent_base = bases.last().cloned().flatten();
                let base = match xml_base(e) {
                    Some(b) => Url::parse_with_base(&b, parent_base.as_ref().or(document))
                        .ok()
                        .or(parent_base),
                    None => parent_base,
                };
                let parent = stack.last().map(String::as_str);
                let k = *kind.get_or_insert(match name.as_str() {
                    "urlset" | "sitemapindex" => LinkKind::Sitemap,
                    _ => LinkKind::Feed,
                });
                match (k, name.as_str(), parent) {
                    (LinkKind::Sitemap, "loc", Some("url" | "sitemap" | "image")) => {
                        collect = Some((stack.len() + 1, "loc"));
                    }
                    (LinkKind::Sitemap, "link", Some("url")) => {
                        if let Some(href) = attribute(e, "href") {
                            let rel = attribute(e, "rel");
                            emit(&mut f, base.as_ref(), k, "link", "href", &href, rel);
                        }
                    }
                    (LinkKind::Feed, "link", _) => {
                        // Atom's (and atom:link in RSS) carry href; RSS's
                        // link is text.
                        if let Some(href) = attribute(e, "href") {
                            let rel = attribute(e, "rel");
                            emit(&mut f, base.as_ref(), k, "link", "href", &href, rel);
                        } else if !empty {
                            collect = Some((stack.len() + 1, "link"));
                        }
                    }
                    (LinkKind::Feed, "guid", _) => {
                        let permalink =
                            attribute(e, "isPermaLink").is_none_or(|v| v.trim() != "false");
                        if permalink && !empty {
                            collect = Some((stack.len() + 1, "guid"));
                        }
                    }
                    (LinkKind::Feed, "enclosure", _) => {
                        if let Some(url) = attribute(e, "url") {
                            emit(&mut f, base.as_ref(), k, "enclosure", "url", &url, None);
                        }
                    }
                    _ => {}
                }
                if !empty {
                    stack.push(name);
                    bases.push(base);
                }
            }
            Event::End(_) => {
                if let Some((depth, tag)) = collect
                    && depth == stack.len()
                {
                    let k = kind.unwrap_or(LinkKind::Feed);
                    let base = bases.last().cloned().flatten();
                    emit(&mut f, base.as_ref(), k, tag, "", &text, None);
                    text.clear();
                    collect = None;
                }
                stack.pop();
                bases.pop();
            }
            Event::Text(ref t) if collect.is_some() => text.push_str(&t.xml10_content()),
            Event::CData(ref t) if collect.is_some() => {
                text.push_str(t.as_ref());
            }
            Event::GeneralRef(ref r) if collect.is_some() => {
                if let Ok(Some(c)) = r.resolve_char_ref() {
                    text.push(c);
                } else if let Some(s) = quick_xml::escape::resolve_predefined_entity(r) {
                    text.push_str(s);
                }
            }
            Event::Eof => {
                return match stack.last() {
                    // A cut file: the element left open (and any text it
                    // had, which may be a cut URL) is not a link.
                    Some(open) => Err(XmlError {
                        offset: reader.buffer_position(),
                        message: format!("the document ends inside <{open}>"),
                        read: false,
                    }),
                    None => Ok(()),
                };
            }
            _ => {}
        }
        buf.clear();
    }
}

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
//! A document that breaks off (a cut file) or is not well-formed gives an
//! error with its byte offset, after the links before it.
//!
//! ```
//! use urlsift::links::{Kinds, xml::links};
//!
//! let sitemap = br#"<?xml version="1.0"?>
//! <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
//!   <url><loc> https://e.com/a?x=1&amp;y=2 </loc><lastmod>2024-01-01</lastmod></url>
//!   <url><loc><![CDATA[https://e.com/b]]></loc></url>
//! </urlset>"#;
//! let mut got = Vec::new();
//! links(&sitemap[..], &Kinds::default(), |l| got.push((l.value, l.kind.name()))).unwrap();
//! assert_eq!(got, [("https://e.com/a?x=1&y=2".to_string(), "sitemap"), ("https://e.com/b".into(), "sitemap")]);
//! ```

use std::io::BufRead;

use quick_xml::XmlVersion;
use quick_xml::events::{BytesStart, Event};

use super::{Kind, Kinds, RawLink};

/// Why an XML document could not be read to its end, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XmlError {
    /// The byte offset (in the decompressed input) where reading stopped.
    pub offset: u64,
    /// What was wrong.
    pub message: String,
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

/// Calls `f` with each link of the sitemap or feed `reader` holds (its
/// kind chosen by the root element), in document order. An error comes
/// after every link before it was given.
pub fn links(
    reader: impl BufRead,
    kinds: &Kinds,
    mut f: impl FnMut(RawLink),
) -> Result<(), XmlError> {
    let mut reader = quick_xml::Reader::from_reader(reader);
    let mut buf = Vec::new();
    // The open elements' local names, and the text being collected (for
    // the element at `collect`'s depth) with its link's tag and rel.
    let mut stack: Vec<String> = Vec::new();
    let mut kind: Option<Kind> = None;
    let mut text = String::new();
    let mut collect: Option<(usize, &'static str)> = None;
    let emit = |f: &mut dyn FnMut(RawLink),
                kind: Kind,
                tag: &str,
                attribute: &str,
                value: &str,
                rel: Option<String>| {
        let value = value.trim();
        if !value.is_empty() && kinds.has(kind) {
            f(RawLink {
                tag: tag.to_string(),
                attribute: attribute.to_string(),
                value: value.to_string(),
                rel,
                kind,
            });
        }
    };
    loop {
        let event = reader.read_event_into(&mut buf).map_err(|e| XmlError {
            offset: reader.error_position(),
            message: e.to_string(),
        })?;
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                let name = local(e.name().as_ref()).to_string();
                let parent = stack.last().map(String::as_str);
                let k = *kind.get_or_insert(match name.as_str() {
                    "urlset" | "sitemapindex" => Kind::Sitemap,
                    _ => Kind::Feed,
                });
                match (k, name.as_str(), parent) {
                    (Kind::Sitemap, "loc", Some("url" | "sitemap" | "image")) => {
                        collect = Some((stack.len() + 1, "loc"));
                    }
                    (Kind::Sitemap, "link", Some("url")) => {
                        if let Some(href) = attribute(e, "href") {
                            emit(&mut f, k, "link", "href", &href, attribute(e, "rel"));
                        }
                    }
                    (Kind::Feed, "link", _) => {
                        // Atom's (and atom:link in RSS) carry href; RSS's
                        // link is text.
                        if let Some(href) = attribute(e, "href") {
                            emit(&mut f, k, "link", "href", &href, attribute(e, "rel"));
                        } else if !empty {
                            collect = Some((stack.len() + 1, "link"));
                        }
                    }
                    (Kind::Feed, "guid", _) => {
                        let permalink =
                            attribute(e, "isPermaLink").is_none_or(|v| v.trim() != "false");
                        if permalink && !empty {
                            collect = Some((stack.len() + 1, "guid"));
                        }
                    }
                    (Kind::Feed, "enclosure", _) => {
                        if let Some(url) = attribute(e, "url") {
                            emit(&mut f, k, "enclosure", "url", &url, None);
                        }
                    }
                    _ => {}
                }
                if !empty {
                    stack.push(name);
                }
            }
            Event::End(_) => {
                if let Some((depth, tag)) = collect
                    && depth == stack.len()
                {
                    let k = kind.unwrap_or(Kind::Feed);
                    emit(&mut f, k, tag, "", &text, None);
                    text.clear();
                    collect = None;
                }
                stack.pop();
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
                    }),
                    None => Ok(()),
                };
            }
            _ => {}
        }
        buf.clear();
    }
}

//! Links from an HTML document's tokens: each start tag's attributes as
//! the HTML standard's tokenizer gives them (html5gum: character
//! references decoded, comments skipped, `<script>`, `<style>` and the
//! other raw-text elements' content not read as tags, attribute names
//! lower case, a duplicated attribute's later values dropped), the
//! URL-valued ones kept with their element, `rel` and [`LinkKind`].
//!
//! ```
//! use urlsift_links::{LinkKind, Kinds, html::extract};
//!
//! let doc = extract(br#"<A HREF=/x?a=1&amp;b=2 href=/dup rel=next>x</a><!-- <a href=/c> -->
//! <script>document.write('<a href=/s>')</script><meta http-equiv=refresh content="0; URL='/r'">"#, &Kinds::default());
//! let got: Vec<(&str, &str, &str)> = doc.links.iter().map(|l| (l.tag.as_str(), l.value.as_str(), l.kind.name())).collect();
//! assert_eq!(got, [("a", "/x?a=1&b=2", "a"), ("meta", "/r", "meta-refresh")]);
//! assert_eq!(doc.links[0].rel.as_deref(), Some("next"));
//! ```

use std::convert::Infallible;

use html5gum::{Emitter, Error, State, Tokenizer, naive_next_state};

use super::encoding::is_space;
use super::{Kinds, LinkKind, RawLink};

/// What [`extract`] finds in a document.
#[derive(Debug, Default)]
pub struct Document {
    /// The links, in document order (a `srcset`'s candidates in theirs).
    pub links: Vec<RawLink>,
    /// The `href` of the first `<base>` element that has one.
    pub base_href: Option<String>,
}

/// The tokenizer's receiver: only start tags and their attributes are
/// kept (text, comments and doctypes cost nothing), and no parse errors
/// are looked for. The raw-text elements switch the tokenizer's state as
/// a browser's tree builder makes it (`script`, `style`, `textarea`,
/// `title`, `noframes`, ...: html5gum's `naive_next_state`, with
/// `noframes`). Of the tree builder, only foreign content is followed:
/// inside `<svg>` and `<math>` no element is raw text and a `<base>` is
/// not the document's (it is not handed on), until the element's end tag
/// or an HTML element that breaks out of it (`<p>`, `<div>`, ...). Their
/// integration points (`<foreignObject>`, `<mi>`, ...), which hold HTML
/// again, are not followed: a `<base>` in one is left out.
struct Tags<F> {
    /// The current tag's name and whether it is a start tag.
    name: Vec<u8>,
    start: bool,
    /// Whether the current tag ends in `/>`.
    self_closing: bool,
    /// How many `<svg>` and `<math>` elements are open (foreign content).
    foreign: u32,
    /// The current tag's attributes: names and values, in `bytes`.
    bytes: Vec<u8>,
    spans: Vec<(usize, usize, usize, usize)>,
    /// The last start tag's name (for the end tag of a raw-text element).
    last_start: Vec<u8>,
    /// The attributes handed on (the first of each name).
    attributes: Vec<(Vec<u8>, Vec<u8>)>,
    f: F,
}

impl<F: FnMut(&[u8], &[(Vec<u8>, Vec<u8>)])> Emitter for Tags<F> {
    type Token = Infallible;

    fn set_last_start_tag(&mut self, last_start_tag: Option<&[u8]>) {
        self.last_start.clear();
        self.last_start
            .extend_from_slice(last_start_tag.unwrap_or_default());
    }
    fn emit_eof(&mut self) {}
    fn emit_error(&mut self, _: Error) {}
    fn should_emit_errors(&mut self) -> bool {
        false
    }
    fn pop_token(&mut self) -> Option<Infallible> {
        None
    }
    fn emit_string(&mut self, _: &[u8]) {}
    fn init_start_tag(&mut self) {
        self.name.clear();
        self.bytes.clear();
        self.spans.clear();
        self.start = true;
        self.self_closing = false;
    }
    fn init_end_tag(&mut self) {
        self.name.clear();
        self.bytes.clear();
        self.spans.clear();
        self.start = false;
        self.self_closing = false;
    }
    fn init_comment(&mut self) {}
    fn emit_current_tag(&mut self) -> Option<State> {
        if !self.start {
            self.last_start.clear();
            if self.foreign > 0 && matches!(&self.name[..], b"svg" | b"math") {
                self.foreign -= 1;
            }
            return None;
        }
        self.last_start.clear();
        self.last_start.extend_from_slice(&self.name);
        self.attributes.clear();
        for &(ns, ne, vs, ve) in &self.spans {
            let name = &self.bytes[ns..ne];
            if !self.attributes.iter().any(|(n, _)| n == name) {
                self.attributes
                    .push((name.to_vec(), self.bytes[vs..ve].to_vec()));
            }
        }
        if self.foreign > 0 && breaks_out(&self.name, &self.attributes) {
            self.foreign = 0;
        }
        let foreign = self.foreign > 0;
        if !(foreign && self.name == b"base") {
            (self.f)(&self.name, &self.attributes);
        }
        if matches!(&self.name[..], b"svg" | b"math") && !self.self_closing {
            self.foreign += 1;
        }
        if foreign {
            return None;
        }
        match &self.name[..] {
            // The HTML standard's raw-text `noframes` (html5gum 0.9 names
            // it `noframe`).
            b"noframes" => Some(State::RawText),
            name => naive_next_state(name),
        }
    }
    fn emit_current_comment(&mut self) {}
    fn emit_current_doctype(&mut self) {}
    fn set_self_closing(&mut self) {
        self.self_closing = true;
    }
    fn set_force_quirks(&mut self) {}
    fn push_tag_name(&mut self, s: &[u8]) {
        self.name.extend_from_slice(s);
    }
    fn push_comment(&mut self, _: &[u8]) {}
    fn push_doctype_name(&mut self, _: &[u8]) {}
    fn init_doctype(&mut self) {}
    fn init_attribute(&mut self) {
        let at = self.bytes.len();
        self.spans.push((at, at, at, at));
    }
    fn push_attribute_name(&mut self, s: &[u8]) {
        self.bytes.extend_from_slice(s);
        if let Some(span) = self.spans.last_mut() {
            span.1 = self.bytes.len();
            (span.2, span.3) = (span.1, span.1);
        }
    }
    fn push_attribute_value(&mut self, s: &[u8]) {
        self.bytes.extend_from_slice(s);
        if let Some(span) = self.spans.last_mut() {
            span.3 = self.bytes.len();
        }
    }
    fn set_doctype_public_identifier(&mut self, _: &[u8]) {}
    fn set_doctype_system_identifier(&mut self, _: &[u8]) {}
    fn push_doctype_public_identifier(&mut self, _: &[u8]) {}
    fn push_doctype_system_identifier(&mut self, _: &[u8]) {}
    fn current_is_appropriate_end_tag_token(&mut self) -> bool {
        !self.start && !self.last_start.is_empty() && self.name == self.last_start
    }
}

/// Whether a start tag `name` with `attributes` ends foreign content (the
/// HTML standard's list in "the rules for parsing tokens in foreign
/// content").
fn breaks_out(name: &[u8], attributes: &[(Vec<u8>, Vec<u8>)]) -> bool {
    match name {
        b"b" | b"big" | b"blockquote" | b"body" | b"br" | b"center" | b"code" | b"dd" | b"div"
        | b"dl" | b"dt" | b"em" | b"embed" | b"h1" | b"h2" | b"h3" | b"h4" | b"h5" | b"h6"
        | b"head" | b"hr" | b"i" | b"img" | b"li" | b"listing" | b"menu" | b"meta" | b"nobr"
        | b"ol" | b"p" | b"pre" | b"ruby" | b"s" | b"small" | b"span" | b"strong" | b"strike"
        | b"sub" | b"sup" | b"table" | b"tt" | b"u" | b"ul" | b"var" => true,
        b"font" => attributes
            .iter()
            .any(|(n, _)| matches!(&n[..], b"color" | b"face" | b"size")),
        _ => false,
    }
}

/// Calls `f` with each start tag of `html` (UTF-8; see
/// [`super::encoding`] for other encodings): its name and its attributes
/// (the first of each name), as the tokenizer gives them, in document
/// order; a `<base>` inside `<svg>` or `<math>` is not one of them.
///
/// ```
/// use urlsift_links::html::start_tags;
///
/// let mut tags = Vec::new();
/// start_tags(b"<P CLASS=a class=b data-x='&lt;'><style>p{<a>}</style><br/>", |name, attributes| {
///     tags.push((name.to_vec(), attributes.to_vec()));
/// });
/// assert_eq!(tags, [
///     (b"p".to_vec(), vec![(b"class".to_vec(), b"a".to_vec()), (b"data-x".to_vec(), b"<".to_vec())]),
///     (b"style".to_vec(), vec![]),
///     (b"br".to_vec(), vec![]),
/// ]);
/// ```
pub fn start_tags(html: &[u8], f: impl FnMut(&[u8], &[(Vec<u8>, Vec<u8>)])) {
    let emitter = Tags {
        name: Vec::new(),
        start: false,
        self_closing: false,
        foreign: 0,
        bytes: Vec::new(),
        spans: Vec::new(),
        last_start: Vec::new(),
        attributes: Vec::new(),
        f,
    };
    for _ in Tokenizer::new_with_emitter(html, emitter) {}
}

/// The links of `html` (UTF-8; see [`super::encoding`] for other
/// encodings) of the chosen `kinds`.
pub fn extract(html: &[u8], kinds: &Kinds) -> Document {
    let mut doc = Document::default();
    start_tags(html, |name, attributes| {
        start_tag(name, attributes, kinds, &mut doc)
    });
    doc
}

/// The links of one start tag.
fn start_tag(name: &[u8], attributes: &[(Vec<u8>, Vec<u8>)], kinds: &Kinds, doc: &mut Document) {
    // The tree builder makes an `img` of an `image` start tag.
    let name: &[u8] = if name == b"image" { b"img" } else { name };
    let get = |wanted: &[u8]| {
        attributes
            .iter()
            .find(|(n, _)| n == wanted)
            .map(|(_, v)| v.as_slice())
    };
    let mut push = |attribute: &str, value: &[u8], kind: LinkKind| {
        if kinds.has(kind) {
            doc.links.push(RawLink {
                tag: String::from_utf8_lossy(name).into_owned(),
                attribute: attribute.to_string(),
                value: String::from_utf8_lossy(value).into_owned(),
                rel: get(b"rel").map(|r| String::from_utf8_lossy(r).into_owned()),
                kind,
            });
        }
    };
    for (attribute, value) in attributes {
        let kind = match (name, attribute.as_slice()) {
            (b"a" | b"area", b"href") => LinkKind::A,
            (b"link", b"href") => LinkKind::Link,
            (b"img", b"src") => LinkKind::Img,
            (b"script", b"src") => LinkKind::Script,
            (b"iframe" | b"frame", b"src") => LinkKind::Iframe,
            (b"form", b"action") => LinkKind::Form,
            (b"embed" | b"video" | b"audio" | b"source" | b"track", b"src")
            | (b"video", b"poster") => LinkKind::Media,
            (b"img" | b"source", b"srcset") => {
                if kinds.has(LinkKind::Srcset) {
                    for candidate in srcset(value) {
                        push("srcset", candidate, LinkKind::Srcset);
                    }
                }
                continue;
            }
            (b"meta", b"content") => {
                let refresh =
                    get(b"http-equiv").is_some_and(|h| h.eq_ignore_ascii_case(b"refresh"));
                if let Some(url) = refresh.then(|| refresh_url(value)).flatten() {
                    push("content", url, LinkKind::MetaRefresh);
                }
                continue;
            }
            (b"base", b"href") => {
                if doc.base_href.is_none() {
                    doc.base_href = Some(String::from_utf8_lossy(value).into_owned());
                }
                continue;
            }
            (_, b"style") => {
                if kinds.has(LinkKind::Css) {
                    for url in css_urls(value) {
                        push("style", url, LinkKind::Css);
                    }
                }
                continue;
            }
            _ => continue,
        };
        let attribute = String::from_utf8_lossy(attribute);
        push(&attribute, value, kind);
    }
}

/// The URLs of a `srcset` value's image candidates, as the HTML
/// standard's "parse a srcset attribute" splits it (descriptors skipped).
///
/// ```
/// use urlsift_links::html::srcset;
/// let urls: Vec<&[u8]> = srcset(b" a.png 1x,b.png, c.png 100w (max-width: 2px, 3px),d,, e.png").collect();
/// assert_eq!(urls, [&b"a.png"[..], b"b.png", b"c.png", b"d", b"e.png"]);
/// ```
pub fn srcset(value: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut pos = 0;
    std::iter::from_fn(move || {
        let b = value;
        while pos < b.len() && (is_space(b[pos]) || b[pos] == b',') {
            pos += 1;
        }
        if pos >= b.len() {
            return None;
        }
        let start = pos;
        while pos < b.len() && !is_space(b[pos]) {
            pos += 1;
        }
        let mut url = &b[start..pos];
        if url.ends_with(b",") {
            while url.ends_with(b",") {
                url = &url[..url.len() - 1];
            }
            return Some(url);
        }
        // Skip the descriptors, to a comma outside parentheses.
        let mut in_parens = false;
        while pos < b.len() {
            match b[pos] {
                b'(' => in_parens = true,
                b')' => in_parens = false,
                b',' if !in_parens => {
                    pos += 1;
                    break;
                }
                _ => {}
            }
            pos += 1;
        }
        Some(url)
    })
}

/// The URL of a `<meta http-equiv=refresh>` `content` value, as the HTML
/// standard's "shared declarative refresh steps" find it (`None`: no URL,
/// or not a refresh value).
///
/// ```
/// use urlsift_links::html::refresh_url;
/// assert_eq!(refresh_url(b"5; url=/next"), Some(&b"/next"[..]));
/// assert_eq!(refresh_url(b"0;URL='/q' x"), Some(&b"/q"[..]));
/// assert_eq!(refresh_url(b"0, /plain"), Some(&b"/plain"[..]));
/// assert_eq!(refresh_url(b"0; urlx"), Some(&b"urlx"[..]));
/// assert_eq!(refresh_url(b"10"), None);
/// assert_eq!(refresh_url(b"soon; url=/x"), None);
/// ```
pub fn refresh_url(content: &[u8]) -> Option<&[u8]> {
    let b = content;
    let mut pos = 0;
    let skip_space = |pos: &mut usize| {
        while *pos < b.len() && is_space(b[*pos]) {
            *pos += 1;
        }
    };
    skip_space(&mut pos);
    let digits = b[pos..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 && b.get(pos) != Some(&b'.') {
        return None;
    }
    pos += digits;
    pos += b[pos..]
        .iter()
        .take_while(|&&c| c.is_ascii_digit() || c == b'.')
        .count();
    if pos >= b.len() {
        return None;
    }
    if !(b[pos] == b';' || b[pos] == b',' || is_space(b[pos])) {
        return None;
    }
    skip_space(&mut pos);
    if pos < b.len() && (b[pos] == b';' || b[pos] == b',') {
        pos += 1;
    }
    skip_space(&mut pos);
    if pos >= b.len() {
        return None;
    }
    let url_string = pos;
    let mut at = pos;
    if matches!(b[at], b'u' | b'U') {
        // "url" then "=": the URL follows; anything else is the URL.
        if !(b[at..].len() >= 3 && b[at..at + 3].eq_ignore_ascii_case(b"url")) {
            return Some(&b[url_string..]);
        }
        at += 3;
        skip_space(&mut at);
        if b.get(at) != Some(&b'=') {
            return Some(&b[url_string..]);
        }
        at += 1;
        skip_space(&mut at);
    }
    let mut rest = &b[at..];
    if let Some(&q @ (b'"' | b'\'')) = rest.first() {
        rest = &rest[1..];
        if let Some(end) = memchr::memchr(q, rest) {
            rest = &rest[..end];
        }
    }
    Some(rest)
}

/// The `url(...)` references of a CSS declaration list (a `style`
/// attribute): quoted or bare, escapes left as they are.
///
/// ```
/// use urlsift_links::html::css_urls;
/// let urls: Vec<&[u8]> = css_urls(b"background: URL( 'a.png' ) no-repeat; list-style: url(b.svg)").collect();
/// assert_eq!(urls, [&b"a.png"[..], b"b.svg"]);
/// ```
pub fn css_urls(style: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut pos = 0;
    std::iter::from_fn(move || {
        let b = style;
        loop {
            let at = b[pos..]
                .windows(4)
                .position(|w| w.eq_ignore_ascii_case(b"url("))?;
            pos += at + 4;
            while pos < b.len() && is_space(b[pos]) {
                pos += 1;
            }
            let (start, end) = match b.get(pos) {
                Some(&q @ (b'"' | b'\'')) => {
                    let end = memchr::memchr(q, &b[pos + 1..]).map_or(b.len(), |e| pos + 1 + e);
                    (pos + 1, end)
                }
                Some(_) => {
                    let end = memchr::memchr(b')', &b[pos..]).map_or(b.len(), |e| pos + e);
                    let mut e = end;
                    while e > pos && is_space(b[e - 1]) {
                        e -= 1;
                    }
                    (pos, e)
                }
                None => return None,
            };
            pos = end.min(b.len());
            if start < end {
                return Some(&b[start..end]);
            }
        }
    })
}

//! Links from Common Crawl WAT files: WARC `metadata` records whose JSON
//! block describes a response. The page's URL is the envelope's
//! `WARC-Header-Metadata.WARC-Target-URI`; its links are listed under
//! `Payload-Metadata.HTTP-Response-Metadata.HTML-Metadata`: `Head.Link`,
//! `Head.Scripts` and `Links`, each with a `path` such as `A@/href` (the
//! element and attribute) and a `url` as the page had it; `Head.Base` is
//! the document's `<base href>`. Every link has kind `wat`.
//!
//! ```
//! use urlsift_links::{Kinds, wat};
//!
//! let json = br#"{"Envelope":{"WARC-Header-Metadata":{"WARC-Target-URI":"http://e.com/a/"},
//!   "Payload-Metadata":{"HTTP-Response-Metadata":{"HTML-Metadata":{"Head":{"Base":"/b/"},
//!   "Links":[{"path":"A@/href","url":"x","rel":"next"},{"path":"IMG@/src","url":"i.png"}]}}}}}"#;
//! let page = wat::page(json, &Kinds::default()).unwrap().unwrap();
//! let got: Vec<(String, &str)> = page.resolve().map(|l| (l.to.unwrap().href().to_string(), l.raw.tag.as_str())).collect();
//! assert_eq!(got, [("http://e.com/b/x".to_string(), "a"), ("http://e.com/b/i.png".into(), "img")]);
//! ```

use serde_json::Value;

use super::{Kinds, LinkKind, Page, RawLink};
use crate::LinkReason;
use urlsift::Url;

/// The page a WAT record describes: `Ok(None)` when it lists no HTML
/// metadata (a request, a non-HTML response), `Err` when the block is not
/// JSON (reason `bad-wat-json`).
pub fn page(block: &[u8], kinds: &Kinds) -> Result<Option<Page>, LinkReason> {
    let json: Value = serde_json::from_slice(block).map_err(|_| LinkReason::BadWatJson)?;
    let envelope = &json["Envelope"];
    let target = envelope["WARC-Header-Metadata"]["WARC-Target-URI"].as_str();
    let html = &envelope["Payload-Metadata"]["HTTP-Response-Metadata"]["HTML-Metadata"];
    if !html.is_object() {
        return Ok(None);
    }
    let mut links = Vec::new();
    if kinds.has(LinkKind::Wat) {
        let head = &html["Head"];
        for list in [&head["Link"], &head["Scripts"], &html["Links"]] {
            for link in list.as_array().into_iter().flatten() {
                let Some(url) = link["url"].as_str() else {
                    continue;
                };
                let path = link["path"].as_str().unwrap_or("");
                let (tag, attribute) = path.split_once("@/").unwrap_or((path, ""));
                links.push(RawLink {
                    tag: tag.to_ascii_lowercase(),
                    attribute: attribute.to_ascii_lowercase(),
                    value: url.to_string(),
                    rel: link["rel"].as_str().map(str::to_string),
                    kind: LinkKind::Wat,
                });
            }
        }
    }
    Ok(Some(Page {
        url: target.and_then(|t| Url::parse(t).ok()),
        links,
        base_href: html["Head"]["Base"].as_str().map(str::to_string),
        encoding: encoding_rs::UTF_8,
        notice: None,
    }))
}

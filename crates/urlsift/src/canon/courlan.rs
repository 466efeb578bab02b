//! courlan 1.4.0's `normalize_url` (trafilatura's crawler): HTML
//! references unescaped, Python's `urlsplit`, the scheme and host
//! lower-cased and punycode decoded to Unicode, the default port of
//! `http`/`https` dropped, `/` runs collapsed and leading `/..` removed,
//! the query's blank values and tracker parameters dropped and its names
//! sorted, the fragment cleaned the same way; `strict` keeps only the
//! query parameters courlan allows (ids, pages, languages) and drops the
//! fragment.
//!
//! ```
//! use urlsift::canon::courlan::{normalize_url, CourlanOptions};
//! let form = normalize_url("HTTPS://WWW.Example.org:443//a/b?utm_source=x&b=2&a=&id=7#frag", CourlanOptions::default());
//! assert_eq!(form.unwrap(), "https://www.example.org/a/b?b=2&id=7#frag");
//! let strict = normalize_url("http://xn--bcher-kva.ch/?page=2&q=x#top", CourlanOptions { strict: true });
//! assert_eq!(strict.unwrap(), "http://bücher.ch/?page=2");
//! ```

pub use super::Refused;
use super::python::{self, Safe, html_unescape, parse_qs, quote, urlencode, urlsplit, urlunsplit};

/// courlan's options that change the form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CourlanOptions {
    /// `strict=True`: only the allowed query parameters, no fragment.
    pub strict: bool,
}

/// `normalize_part`'s safe characters: `quote(part, safe="/%!=:,-")`.
const PART_SAFE: Safe = Safe::new(b"/%!=:,-");

/// The query parameters `strict` keeps (`ALLOWED_PARAMS`, `LANG_PARAMS`).
const ALLOWED: [&str; 16] = [
    "aid",
    "article_id",
    "artnr",
    "id",
    "itemid",
    "objectid",
    "p",
    "page",
    "pagenum",
    "page_id",
    "pid",
    "post",
    "postid",
    "product_id",
    "lang",
    "language",
];

/// Python's `\w` on a `str`: letters, digits and `_` (the Unicode
/// alphanumerics by Rust's tables, where Python reads general categories).
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// courlan's `TRACKERS_RE.search(text)`: a tracker prefix at the start, or
/// a tracker word at a word boundary or after `_` anywhere.
fn is_tracker(text: &str) -> bool {
    const LID: [&str; 6] = ["dclid", "fbclid", "gclid", "twclid", "yclid", "ysclid"];
    const ID: [&str; 6] = [
        "clickid",
        "gbraid",
        "msclkid",
        "igshid",
        "partnerid",
        "wbraid",
    ];
    const UNDERSCORE: [&str; 13] = [
        "ad_", "ads_", "mc_", "ga_", "gs_", "itm_", "mkt_", "ml_", "mtm_", "oly_", "pk_", "utm_",
        "vero_",
    ];
    const WORDS: [&str; 16] = [
        "aff",
        "campaign",
        "cid",
        "clid",
        "eid",
        "ga",
        "gl",
        "kwd",
        "keyword",
        "medium",
        "ref",
        "session",
        "source",
        "uid",
        "xtor",
        "affiliate",
    ];
    if LID
        .iter()
        .chain(&ID)
        .chain(&UNDERSCORE)
        .any(|p| text.starts_with(p))
    {
        return true;
    }
    let mut previous: Option<char> = None;
    for (i, c) in text.char_indices() {
        let boundary = previous.is_none_or(|p| !is_word(p) || p == '_') && is_word(c);
        if boundary && WORDS.iter().any(|w| text[i..].starts_with(w)) {
            return true;
        }
        previous = Some(c);
    }
    false
}

/// `clean_query(query, strict)` (no language): names sorted, trackers (or,
/// strictly, all but the allowed names) dropped, re-encoded.
fn clean_query(query: &str, strict: bool) -> String {
    if query.is_empty() {
        return String::new();
    }
    let mut pairs = parse_qs(query);
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    pairs.retain(|(name, _)| {
        let lower = name.to_lowercase();
        if strict {
            ALLOWED.contains(&lower.as_str())
        } else {
            !is_tracker(&lower)
        }
    });
    urlencode(&pairs)
}

/// `normalize_fragment(fragment)`.
fn normalize_fragment(fragment: &str) -> String {
    let mut fragment = std::borrow::Cow::Borrowed(fragment);
    if fragment.contains('=') {
        if fragment.contains('&') {
            fragment = clean_query(&fragment, false).into();
        } else if is_tracker(&fragment) {
            fragment = "".into();
        }
    }
    quote(&fragment, &PART_SAFE, false)
}

/// `decode_punycode(netloc)`: each `.`-separated part that starts with
/// `xn--` decoded by the `idna` codec, kept as it is where that fails.
fn decode_punycode(netloc: &str) -> String {
    if !netloc.contains("xn--") {
        return netloc.to_string();
    }
    let parts: Vec<String> = netloc
        .split('.')
        .map(|part| match part.starts_with("xn--") {
            true => python::idna_label_to_unicode(part).unwrap_or_else(|_| part.to_string()),
            false => part.to_string(),
        })
        .collect();
    parts.join(".")
}

/// `NETLOC_RE.sub("", netloc)`: every `:80` or `:443` after a word
/// character removed, wherever it is in the authority.
fn drop_default_port(netloc: &str) -> String {
    let mut out = String::with_capacity(netloc.len());
    let mut previous: Option<char> = None;
    let mut skip_to = 0;
    for (i, c) in netloc.char_indices() {
        let here = previous;
        previous = Some(c);
        if i < skip_to {
            continue;
        }
        if c == ':' && here.is_some_and(is_word) {
            let after = &netloc[i + 1..];
            let cut = [("80", 3), ("443", 4)]
                .into_iter()
                .find(|(p, _)| after.starts_with(p));
            if let Some((_, len)) = cut {
                skip_to = i + len;
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// The path with `/` runs made one and leading `/..` segments removed
/// (`PATH1`, then `PATH2`).
fn clean_path(path: &str) -> String {
    let mut collapsed = String::with_capacity(path.len());
    for c in path.chars() {
        if !(c == '/' && collapsed.ends_with('/')) {
            collapsed.push(c);
        }
    }
    let mut rest = collapsed.as_str();
    while let Some(after) = rest.strip_prefix("/..") {
        if after.is_empty() || after.starts_with('/') {
            rest = after;
        } else {
            break;
        }
    }
    rest.to_string()
}

/// courlan's `normalize_url(text, strict)` (`language=None`,
/// `trailing_slash=True`), or why Python raises.
pub fn normalize_url(text: &str, options: CourlanOptions) -> Result<String, Refused> {
    let split = urlsplit(&html_unescape(text))?;
    let port = split.port().unwrap_or(None);
    let scheme = split.scheme; // urlsplit lower-cased it (ASCII)
    let lower = match split.netloc.is_ascii() {
        true => split.netloc.to_ascii_lowercase(),
        false => split.netloc.to_lowercase(),
    };
    let mut netloc = decode_punycode(&lower);
    if (scheme == "http" && port == Some(80)) || (scheme == "https" && port == Some(443)) {
        netloc = drop_default_port(&netloc);
    }
    let mut path = quote(&clean_path(&split.path), &PART_SAFE, false);
    let query = clean_query(&split.query, options.strict);
    if !query.is_empty() && path.is_empty() {
        path = "/".to_string();
    }
    let fragment = if options.strict {
        String::new()
    } else {
        normalize_fragment(&split.fragment)
    };
    Ok(urlunsplit(&scheme, &netloc, &path, &query, &fragment))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trackers_as_the_regex_reads_them() {
        for yes in [
            "utm_source",
            "fbclid",
            "x_ref",
            "ref",
            "my-source",
            "gclid2",
            "affiliate",
            "a.cid",
        ] {
            assert!(is_tracker(yes), "{yes}");
        }
        for no in ["id", "page", "xref", "prefix", "utmsource", "lang"] {
            assert!(!is_tracker(no), "{no}");
        }
    }

    #[test]
    fn default_ports_and_paths() {
        assert_eq!(drop_default_port("a.com:80"), "a.com");
        assert_eq!(drop_default_port("u:80x@a.com:80"), "ux@a.com");
        assert_eq!(drop_default_port("[::1]:80"), "[::1]:80");
        assert_eq!(clean_path("//../../a//b/.."), "/a/b/..");
        assert_eq!(clean_path("/..x/a"), "/..x/a");
    }
}

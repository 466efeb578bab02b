//! The links path's invariants, for the `links` fuzz target and
//! `tests/fuzz_seeds.rs`: fuzz bytes become the body of a WARC response
//! record (and an ARC record, and a sitemap/feed) that goes through the
//! record reader, the HTTP response (chunked or not, a content coding or
//! not, as the first byte says), the HTML or XML extractor and resolution.
//! Nothing may panic; memory stays bounded (blocks are held up to a
//! limit); every record is given as a page, another record or a bad one
//! (counted), and a record after the fuzz bytes is still read whenever
//! they cannot pass for a record header.

#![allow(dead_code)]

use std::io::Write;

use urlsift_links::pages::{Item, Pages};
use urlsift_links::{Kinds, Page, xml};

/// Blocks larger than this are bad records (`page-too-large`).
const MAX: usize = 1 << 16;

fn warc_record(kind: &str, uri: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// An HTTP response with `body`, coded as `pick` says: its low bits pick
/// the transfer coding (none, chunked, or a chunked header over a body
/// that is not), the next the content coding (none, gzip, deflate, or a
/// gzip header over a body that is not), the next the header line ends.
fn response(pick: u8, body: &[u8]) -> Vec<u8> {
    let mut headers = String::from("Content-Type: text/html; charset=utf-8\r\n");
    let mut body = body.to_vec();
    match (pick >> 2) & 3 {
        1 => {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(&body).unwrap();
            body = gz.finish().unwrap();
            headers.push_str("Content-Encoding: gzip\r\n");
        }
        2 => {
            let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
            z.write_all(&body).unwrap();
            body = z.finish().unwrap();
            headers.push_str("Content-Encoding: deflate\r\n");
        }
        3 => headers.push_str("Content-Encoding: gzip\r\n"),
        _ => {}
    }
    match pick & 3 {
        1 => {
            let mut chunked = Vec::new();
            for piece in body.chunks(7) {
                chunked.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
                chunked.extend_from_slice(piece);
                chunked.extend_from_slice(b"\r\n");
            }
            chunked.extend_from_slice(b"0\r\n\r\n");
            body = chunked;
            headers.push_str("Transfer-Encoding: chunked\r\n");
        }
        2 => headers.push_str("Transfer-Encoding: chunked\r\n"),
        _ => {}
    }
    let mut r = format!("HTTP/1.1 200 OK\r\n{headers}\r\n").into_bytes();
    if pick & 16 != 0 {
        // LF-only header lines, as some recorders wrote them.
        r.retain(|&b| b != b'\r');
    }
    r.extend_from_slice(&body);
    r
}

/// Every link of every page of `stream` resolved; the items read.
fn read_all(stream: &[u8]) -> Vec<Item<'static>> {
    let kinds = Kinds::parse("all").unwrap();
    let mut items = Vec::new();
    let mut pages = Pages::warc(stream, MAX);
    for item in pages.by_ref() {
        if let Item::Page(p) = &item {
            assert!(p.block.len() <= MAX, "a block over the limit");
            if p.json {
                let _ = urlsift_links::wat::page(&p.block, &kinds)
                    .map(|page| page.map(|page| page.resolve().count()));
            } else if let Ok(Some(page)) = Page::from_block(&p.block, &p.url, p.http, MAX, &kinds) {
                for link in page.resolve() {
                    if let Ok(url) = link.to {
                        url.check_invariants().unwrap();
                    }
                }
            }
        }
        items.push(item);
    }
    assert!(pages.error().is_none(), "reading a slice fails nowhere");
    items
}

/// The fuzz bytes as a page inside records (WARC, then ARC), and as a
/// sitemap or feed.
pub fn links(data: &[u8]) {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let sentinel = warc_record(
        "response",
        "http://sentinel.example/",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=/last>",
    );
    // A well-formed record of the fuzz body, then the fuzz bytes as they
    // are (damage), then a record that must still be read.
    let mut stream = warc_record("response", "http://e.example/a/", &response(pick, body));
    stream.extend_from_slice(body);
    stream.extend_from_slice(b"\r\n");
    stream.extend_from_slice(&sentinel);
    let items = read_all(&stream);
    assert!(!items.is_empty());
    let header_like = body.windows(5).any(|w| w == b"WARC/");
    if !header_like {
        match items.last() {
            Some(Item::Page(p)) => assert_eq!(p.url, "http://sentinel.example/"),
            other => panic!("the record after the damage is lost: {other:?}"),
        }
    }
    // The same body in an ARC file, after its filedesc record.
    let mut arc = b"filedesc://f.arc 0.0.0.0 20080430204825 text/plain 3\n1 0\n\n".to_vec();
    let block = response(pick, body);
    arc.extend_from_slice(
        format!(
            "http://e.example/a 192.0.2.1 20080430204826 text/html {}\n",
            block.len()
        )
        .as_bytes(),
    );
    arc.extend_from_slice(&block);
    arc.push(b'\n');
    let items = read_all(&arc);
    assert!(
        matches!(items.first(), Some(Item::Other)),
        "{:?}",
        items.first()
    );
    assert_eq!(items.len(), 2, "{items:?}");
    // The bytes as a sitemap or feed: links or an error, never a panic.
    let base = urlsift::Url::parse("http://e.example/feed").unwrap();
    let kinds = Kinds::parse("all").unwrap();
    let _ = xml::links(body, Some(&base), &kinds, |link| {
        let _ = urlsift_links::parse_in(&link.value, Some(&base), encoding_rs::UTF_8);
    });
}

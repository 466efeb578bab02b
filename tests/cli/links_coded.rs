//! `links` on HTTP bodies whose stored form is not what their headers
//! say: the transfer and content codings as warcio reads them.

use crate::links::{record, response};
use crate::workdir::*;

/// A body stored de-chunked under `Transfer-Encoding: chunked` and still
/// coded (br, deflate), or chunked only at its start, is read as warcio
/// reads it: de-chunking ends at the first size line that does not
/// parse, what follows is taken as stored, and the content coding is
/// undone (`python/tests/test_coded_bodies.py` holds every combination to
/// warcio). Bytes that are neither chunked nor coded as said stay a bad
/// record.
#[test]
fn coded_bodies_stored_de_chunked_are_read_as_warcio_reads_them() {
    let w = Workdir::new();
    let page = |href: &str| format!("<!DOCTYPE html><html><a href={href}>x</a></html>");
    let mut br = Vec::new();
    brotli::BrotliCompress(
        &mut page("/br").as_bytes(),
        &mut br,
        &brotli::enc::BrotliEncoderParams::default(),
    )
    .unwrap();
    let chunked_br = "Transfer-Encoding: chunked\r\nContent-Encoding: br\r\n";
    let mut warc = record(
        "response",
        "http://br.example/",
        &response("text/html", chunked_br, &br),
    );
    let mut deflate = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut deflate, page("/deflate").as_bytes()).unwrap();
    let deflate = deflate.finish().unwrap();
    // Its first 10 bytes chunked, the rest stored as it is.
    let mut partly = b"a\r\n".to_vec();
    partly.extend_from_slice(&deflate[..10]);
    partly.extend_from_slice(b"\r\n");
    partly.extend_from_slice(&deflate[10..]);
    let chunked_deflate = "Transfer-Encoding: chunked\r\nContent-Encoding: deflate\r\n";
    warc.extend_from_slice(&record(
        "response",
        "http://partly.example/",
        &response("text/html", chunked_deflate, &partly),
    ));
    warc.extend_from_slice(&record(
        "response",
        "http://junk.example/",
        &response("text/html", chunked_br, b"\x00\x01 not brotli"),
    ));
    w.create("coded.warc", &warc);
    let out = w.run(&["links", "coded.warc"], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "http://br.example/br\nhttp://partly.example/deflate\n"
    );
    let err = stderr(&out);
    assert!(
        err.contains("1 bad record (1 bad-chunked-body)")
            && err.contains("2 pages read as stored (2 chunked-body-not-chunked)"),
        "{err}"
    );
}

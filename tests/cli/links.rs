//! `urlsift links`: links out of WARC response records and HTML files,
//! resolved against each page's URL and `<base>`, in input order; every
//! record and link written or accounted for.

use std::io::Write;
use std::path::Path;

use crate::workdir::{Workdir, stderr, warc_record};

/// A WARC record (uncompressed) of `kind` for `uri`.
pub(crate) fn record(kind: &str, uri: &str, block: &[u8]) -> Vec<u8> {
    warc_record(kind, &format!("WARC-Target-URI: {uri}\r\n"), block)
}

/// An HTTP response of `content_type` with `body` (and extra headers).
pub(crate) fn response(content_type: &str, headers: &str, body: &[u8]) -> Vec<u8> {
    let mut r =
        format!("HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n{headers}\r\n").into_bytes();
    r.extend_from_slice(body);
    r
}

/// An HTML page with one link, as an HTTP response.
fn page(href: &str) -> Vec<u8> {
    response(
        "text/html",
        "",
        format!("<a href='{href}'>x</a>").as_bytes(),
    )
}

fn example() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpora/examples/pages.warc.gz")
        .display()
        .to_string()
}

#[test]
fn links_of_the_example_crawl_resolve_against_base_and_page() {
    let w = Workdir::new();
    let out = w.run(&["links", &example()], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "https://shop.example.com/catalog/index.html\n\
         https://shop.example.com/css/site.css\n\
         https://shop.example.com/js/app.js\n\
         https://shop.example.com/catalog/shoes?size=42&color=red\n\
         https://partner.example.org/offer#top\n\
         https://shop.example.com/catalog/img/logo.png\n\
         https://shop.example.com/catalog/img/logo-2x.png\n\
         https://shop.example.com/catalog/img/logo-3x.png\n\
         https://shop.example.com/search\n\
         http://nouvelles.example.fr/nouvelles\n\
         http://nouvelles.example.fr/recherche?q=caf%E9\n\
         http://video.example.net/embed/1\n"
    );
    assert!(
        stderr(&out).contains(
            "2 pages, 12 links; 2 bad links (1 IPv6-unclosed, 1 javascript-url); 1 record not HTML, 1 not a response"
        ),
        "{}",
        stderr(&out)
    );
    let csv = w.stdout(&[
        "links",
        "-q",
        "--csv",
        "--fields",
        "to,tag,attribute,rel,kind",
        "--kinds",
        "a,meta-refresh",
        &example(),
    ]);
    assert_eq!(
        csv,
        "to,tag,attribute,rel,kind\n\
         https://shop.example.com/catalog/shoes?size=42&color=red,a,href,,a\n\
         https://partner.example.org/offer#top,a,href,nofollow sponsored,a\n\
         http://nouvelles.example.fr/nouvelles,meta,content,,meta-refresh\n\
         http://nouvelles.example.fr/recherche?q=caf%E9,a,href,,a\n"
    );
}

#[test]
fn bad_links_go_to_rejects_and_javascript_is_kept_when_asked() {
    let w = Workdir::new();
    let out = w.run(&["links", "--rejects", "bad.tsv", &example()], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rejects = String::from_utf8(w.read("bad.tsv")).unwrap();
    let lines: Vec<Vec<&str>> = rejects.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(lines.len(), 2, "{rejects}");
    // The rejects layout of every subcommand: source, line (- here),
    // byte offset, reason, value.
    assert_eq!(lines[0][3..], ["javascript-url", "javascript:void(0)"]);
    assert_eq!(lines[1][3..], ["IPv6-unclosed", "http://[::1"]);
    assert!(
        lines
            .iter()
            .all(|l| l[0].ends_with("pages.warc.gz") && l[1] == "-" && l[2] == lines[0][2])
    );
    let all = w.stdout(&["links", "-q", "--javascript", &example()]);
    assert!(all.contains("javascript:void(0)\n"), "{all}");
}

#[test]
fn damaged_and_oversized_records_are_counted_never_read_as_pages() {
    let w = Workdir::new();
    let mut warc = record("response", "http://a.example/", &page("/1"));
    let garbage_at = warc.len();
    warc.extend_from_slice(b"this is not a WARC header\r\nnor this\r\n");
    warc.extend_from_slice(&record("response", "http://b.example/", &page("/2")));
    warc.extend_from_slice(&record(
        "response",
        "http://big.example/",
        &page(&"x".repeat(5000)),
    ));
    let mut cut = record("response", "http://c.example/", &page("/3"));
    cut.truncate(cut.len() - 20);
    warc.extend_from_slice(&cut);
    w.create("crawl.warc", &warc);
    let out = w.run(
        &[
            "links",
            "--max-page-size",
            "4K",
            "--rejects",
            "bad.tsv",
            "crawl.warc",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "http://a.example/1\nhttp://b.example/2\n"
    );
    assert!(
        stderr(&out).contains("2 pages, 2 links; 3 bad records (1 WARC-record-truncated, 1 bad-WARC-header, 1 page-too-large)"),
        "{}",
        stderr(&out)
    );
    let rejects = String::from_utf8(w.read("bad.tsv")).unwrap();
    assert!(
        rejects.starts_with(&format!("crawl.warc\t-\t{garbage_at}\tbad-WARC-header\t")),
        "{rejects}"
    );
    // A record cut short, or too large, is named by its target where its
    // header was read.
    assert!(
        rejects.contains("\tWARC-record-truncated\thttp://c.example/\n"),
        "{rejects}"
    );
    assert!(
        rejects.contains("\tpage-too-large\thttp://big.example/\n"),
        "{rejects}"
    );
}

/// A page whose Content-Length runs into the next record is one bad
/// record, and the pages after it are read, as `normalize` reads the file
/// (the one WARC reader): plain (walked in place) and gzip (read).
#[test]
fn a_wrong_content_length_loses_no_page_after_it() {
    let w = Workdir::new();
    let a = record("response", "http://a.example/", &page("/1"));
    let b = String::from_utf8(record("response", "http://b.example/", &page("/2"))).unwrap();
    let length = b
        .split("Content-Length: ")
        .nth(1)
        .unwrap()
        .split('\r')
        .next()
        .unwrap();
    let b = b.replacen(
        &format!("Content-Length: {length}"),
        &format!("Content-Length: {}", length.parse::<usize>().unwrap() + 60),
        1,
    );
    let c = record("response", "http://c.example/", &page("/3"));
    let warc = [&a[..], b.as_bytes(), &c].concat();
    w.create("crawl.warc", &warc);
    w.create("crawl.warc.gz", crate::workdir::gzip(&warc));
    for name in ["crawl.warc", "crawl.warc.gz"] {
        let out = w.run(&["links", "--rejects", "bad.tsv", name], None);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(
            String::from_utf8(out.stdout.clone()).unwrap(),
            "http://a.example/1\nhttp://c.example/3\n",
            "{name}"
        );
        assert!(
            stderr(&out).contains("2 pages, 2 links; 1 bad record (1 bad-WARC-length)"),
            "{name}: {}",
            stderr(&out)
        );
        assert_eq!(
            String::from_utf8(w.read("bad.tsv")).unwrap(),
            format!(
                "{name}\t-\t{}\tbad-WARC-length\thttp://b.example/\n",
                a.len()
            ),
        );
    }
}

#[test]
fn http_codings_and_legacy_encodings_are_undone() {
    let w = Workdir::new();
    let html = "<meta charset=iso-8859-2><a href='/s?q=\u{159}'>r</a>";
    let (latin2, _, _) = encoding_rs::ISO_8859_2.encode(html);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&latin2).unwrap();
    let gz = gz.finish().unwrap();
    let mut chunked = format!("{:x}\r\n", gz.len()).into_bytes();
    chunked.extend_from_slice(&gz);
    chunked.extend_from_slice(b"\r\n0\r\n\r\n");
    let mut deflate = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    deflate.write_all(b"<a href=/raw-deflate>").unwrap();
    let deflate = deflate.finish().unwrap();
    let mut warc = record(
        "response",
        "http://cz.example/",
        &response(
            "text/html",
            "Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n",
            &chunked,
        ),
    );
    warc.extend_from_slice(&record(
        "response",
        "http://d.example/",
        &response("text/html", "Content-Encoding: deflate\r\n", &deflate),
    ));
    let mut br = Vec::new();
    brotli::BrotliCompress(
        &mut &b"<a href=/brotli>"[..],
        &mut br,
        &brotli::enc::BrotliEncoderParams::default(),
    )
    .unwrap();
    warc.extend_from_slice(&record(
        "response",
        "http://br.example/",
        &response("text/html", "Content-Encoding: br\r\n", &br),
    ));
    warc.extend_from_slice(&record(
        "response",
        "http://e.example/",
        &response(
            "text/html",
            "Content-Encoding: gzip\r\n",
            b"not gzip at all",
        ),
    ));
    w.create("codings.warc", &warc);
    let out = w.run(&["links", "codings.warc"], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // U+0159 is 0xF8 in ISO-8859-2: the query is encoded in the page's encoding.
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "http://cz.example/s?q=%F8\nhttp://d.example/raw-deflate\nhttp://br.example/brotli\n"
    );
    assert!(
        stderr(&out).contains("1 bad record (1 bad-content-coding)"),
        "{}",
        stderr(&out)
    );
}

/// TSV rows escape what would break them (as `extract --tsv` does), CSV
/// rows quote it (as the csv crate's writer does): a row is one line.
#[test]
fn tsv_escapes_and_csv_quotes_a_value_as_extract_does() {
    let w = Workdir::new();
    w.create("page.html", "<a rel=\"x\ty\\z, w\" href=/a>");
    let run = |format: &str| {
        w.stdout(&[
            "links",
            "-q",
            format,
            "--fields",
            "to,rel",
            "--base",
            "https://e.example/",
            "page.html",
        ])
    };
    assert_eq!(run("--tsv"), "https://e.example/a\tx\\ty\\\\z, w\n");
    assert_eq!(run("--csv"), "to,rel\nhttps://e.example/a,\"x\ty\\z, w\"\n");
}

#[test]
fn html_files_take_their_url_from_base_and_write_json_lines() {
    let w = Workdir::new();
    w.create(
        "page.html",
        "<link rel=alternate href=feed.xml><img srcset='a.png 1x, b.png 2x'>\
         <div style=\"background: url('bg.png')\"></div><video poster=p.jpg src=v.mp4></video>",
    );
    let out = w.stdout(&[
        "links",
        "-q",
        "--jsonl",
        "--fields",
        "from,to,rel,kind",
        "--kinds",
        "link,srcset,css,media",
        "--base",
        "https://e.example/dir/",
        "page.html",
    ]);
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let to: Vec<&str> = rows.iter().map(|r| r["to"].as_str().unwrap()).collect();
    assert_eq!(
        to,
        [
            "https://e.example/dir/feed.xml",
            "https://e.example/dir/a.png",
            "https://e.example/dir/b.png",
            "https://e.example/dir/bg.png",
            "https://e.example/dir/p.jpg",
            "https://e.example/dir/v.mp4",
        ]
    );
    assert_eq!(rows[0]["rel"], "alternate");
    assert_eq!(rows[1]["rel"], serde_json::Value::Null);
    assert_eq!(rows[3]["kind"], "css");
    assert!(rows.iter().all(|r| r["from"] == "https://e.example/dir/"));
    let bad = w.run(&["links", "--kinds", "a,links", "page.html"], None);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("unknown link kind \"links\""),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn wat_records_give_the_links_they_list() {
    let w = Workdir::new();
    let json = br#"{"Envelope":{"WARC-Header-Metadata":{"WARC-Type":"response","WARC-Target-URI":"http://w.example/a/"},
        "Payload-Metadata":{"HTTP-Response-Metadata":{"HTML-Metadata":{"Head":{"Base":"/b/",
        "Link":[{"path":"LINK@/href","url":"style.css","rel":"stylesheet"}],
        "Scripts":[{"path":"SCRIPT@/src","url":"/app.js"}]},
        "Links":[{"path":"A@/href","url":"next.html","rel":"next","text":"Next"},{"path":"IMG@/src","url":"http://[bad"}]}}}}}"#;
    let request = br#"{"Envelope":{"WARC-Header-Metadata":{"WARC-Type":"request"}}}"#;
    let mut wat = Vec::new();
    for block in [&json[..], &request[..], &b"{not json"[..]] {
        let mut r = format!(
            "WARC/1.0\r\nWARC-Type: metadata\r\nWARC-Target-URI: http://w.example/a/\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        r.extend_from_slice(block);
        r.extend_from_slice(b"\r\n\r\n");
        wat.extend_from_slice(&r);
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&wat).unwrap();
    w.create("crawl.warc.wat.gz", gz.finish().unwrap());
    let out = w.run(
        &[
            "links",
            "--csv",
            "--fields",
            "from,to,tag,attribute,rel,kind",
            "crawl.warc.wat.gz",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "from,to,tag,attribute,rel,kind\n\
         http://w.example/a/,http://w.example/b/style.css,link,href,stylesheet,wat\n\
         http://w.example/a/,http://w.example/app.js,script,src,,wat\n\
         http://w.example/a/,http://w.example/b/next.html,a,href,next,wat\n"
    );
    assert!(
        stderr(&out).contains("1 page, 3 links; 1 bad link (1 IPv6-unclosed); 1 bad record (1 bad-wat-json); 1 record not HTML"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn sitemaps_and_feeds_give_their_urls_and_a_cut_one_is_a_bad_record() {
    let w = Workdir::new();
    w.create(
        "sitemap.xml",
        r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url><loc> https://www.example.com/catalog?item=12&amp;desc=vacation </loc>
    <xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/"/><lastmod>2004-11-23</lastmod></url>
  <url><loc><![CDATA[HTTPS://WWW.EXAMPLE.COM/a/./b]]></loc></url>
</urlset>"#,
    );
    w.create(
        "index.xml",
        "<sitemapindex><sitemap><loc>https://e.example/s1.xml.gz</loc></sitemap></sitemapindex>",
    );
    w.create(
        "feed.atom",
        r#"<feed xmlns="http://www.w3.org/2005/Atom"><link href="https://blog.example/" rel="alternate"/>
<entry><link href="https://blog.example/post&#x31;"/><id>urn:uuid:1</id></entry></feed>"#,
    );
    w.create(
        "news.rss",
        r#"<rss version="2.0"><channel><link>https://news.example/</link>
<item><link>https://news.example/one</link><guid>https://news.example/?p=1</guid><enclosure url="https://cdn.example/one.mp3"/></item>
<item><guid isPermaLink="false">tag:news,2</guid></item></channel></rss>"#,
    );
    let out = w.stdout(&[
        "links",
        "-q",
        "--tsv",
        "--fields",
        "to,tag,attribute,kind",
        "sitemap.xml",
        "index.xml",
        "feed.atom",
        "news.rss",
    ]);
    assert_eq!(
        out,
        "https://www.example.com/catalog?item=12&desc=vacation\tloc\t\tsitemap\n\
         https://www.example.com/de/\tlink\thref\tsitemap\n\
         https://www.example.com/a/b\tloc\t\tsitemap\n\
         https://e.example/s1.xml.gz\tloc\t\tsitemap\n\
         https://blog.example/\tlink\thref\tfeed\n\
         https://blog.example/post1\tlink\thref\tfeed\n\
         https://news.example/\tlink\t\tfeed\n\
         https://news.example/one\tlink\t\tfeed\n\
         https://news.example/?p=1\tguid\t\tfeed\n\
         https://cdn.example/one.mp3\tenclosure\turl\tfeed\n"
    );
    w.create(
        "cut.xml",
        "<urlset><url><loc>https://e.example/x</loc></url><url><loc>https://e.example/y",
    );
    let out = w.run(&["links", "--rejects", "bad.tsv", "cut.xml"], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "https://e.example/x\n"
    );
    assert!(
        stderr(&out).contains("1 bad record (1 bad-xml)"),
        "{}",
        stderr(&out)
    );
    let rejects = String::from_utf8(w.read("bad.tsv")).unwrap();
    assert!(
        rejects.starts_with("cut.xml\t-\t")
            && rejects.contains("bad-xml\tthe document ends inside <loc>"),
        "{rejects}"
    );
}

#[test]
fn filters_profiles_and_sites_apply_to_links() {
    let w = Workdir::new();
    let external = w.stdout(&[
        "links",
        "-q",
        "--external",
        "--strip-fragment",
        "--fields",
        "from,to",
        &example(),
    ]);
    assert_eq!(
        external,
        "https://shop.example.com/catalog/index.html\thttps://partner.example.org/offer\n\
         http://nouvelles.example.fr/accueil\thttp://video.example.net/embed/1\n"
    );
    let same = w.run(
        &[
            "links",
            "--same-site",
            "--not-ext",
            "png,css",
            "--kinds",
            "a,img,link",
            &example(),
        ],
        None,
    );
    assert_eq!(
        String::from_utf8(same.stdout.clone()).unwrap(),
        "https://shop.example.com/catalog/index.html\n\
         https://shop.example.com/catalog/shoes?size=42&color=red\n\
         http://nouvelles.example.fr/recherche?q=caf%E9\n"
    );
    assert!(stderr(&same).contains("; 3 filtered"), "{}", stderr(&same));
    let surt = w.stdout(&[
        "links",
        "-q",
        "--surt",
        "--kinds",
        "a",
        "--site",
        "example.org",
        &example(),
    ]);
    assert_eq!(surt, "org,example,partner)/offer\n");
    let both = w.run(&["links", "--same-site", "--external", &example()], None);
    assert_eq!(both.status.code(), Some(2));
}

#[test]
fn parquet_output_has_a_column_per_field() {
    use arrow_array::{Array, StringArray, UInt64Array};
    let w = Workdir::new();
    let out = w.run(
        &[
            "links",
            "-q",
            "--fields",
            "from,to,rel,kind,offset",
            "-o",
            "links.parquet",
            &example(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let file = std::fs::File::open(w.path("links.parquet")).unwrap();
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let batches: Vec<_> = reader.map(|b| b.unwrap()).collect();
    let batch = arrow_select::concat::concat_batches(&batches[0].schema(), &batches).unwrap();
    let names: Vec<String> = batch
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    assert_eq!(names, ["from", "to", "rel", "kind", "offset"]);
    assert_eq!(batch.num_rows(), 12);
    let text = |i: usize| {
        batch
            .column(i)
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap()
            .clone()
    };
    let (to, rel, kind) = (text(1), text(2), text(3));
    assert_eq!(to.value(0), "https://shop.example.com/catalog/index.html");
    assert_eq!(rel.value(0), "canonical");
    assert!(rel.is_null(2), "a script has no rel: null");
    assert_eq!(kind.value(11), "iframe");
    let offsets = batch
        .column(4)
        .as_any()
        .downcast_ref::<UInt64Array>()
        .unwrap();
    assert!(offsets.value(11) > offsets.value(0));
    // The text output has the same links.
    let lines = w.stdout(&["links", "-q", &example()]);
    let from_parquet: Vec<&str> = (0..to.len()).map(|i| to.value(i)).collect();
    assert_eq!(lines.lines().collect::<Vec<_>>(), from_parquet);
    let bad = w.run(&["links", "--compression", "snappy", &example()], None);
    assert_eq!(bad.status.code(), Some(2));
}

/// What recorders really write, read as warcio and pywb read it: a body
/// stored de-chunked (or decoded) under its `Transfer-Encoding: chunked`
/// (or `Content-Encoding`) header is the page as stored, counted under a
/// notice; headers end at the first empty line, LF or CRLF; a header
/// value with a byte of another encoding (obs-text) is allowed; a
/// stylesheet is not a page whatever its coding. What is truly damaged
/// stays a bad record.
#[test]
fn pages_as_recorders_store_them() {
    let w = Workdir::new();
    let page = |href: &str| format!("<!DOCTYPE html><html><a href={href}>x</a></html>");
    let mut warc = record(
        "response",
        "http://dechunked.example/",
        &response(
            "text/html",
            "Transfer-Encoding: chunked\r\n",
            page("/a").as_bytes(),
        ),
    );
    // LF-only headers, a CRLF CRLF further on inside the body.
    warc.extend_from_slice(&record(
        "response",
        "http://lf.example/",
        format!(
            "HTTP/1.1 200 OK\nContent-Type: text/html\n\n{}\r\n\r\n<a href=/c>c</a>",
            page("/b")
        )
        .as_bytes(),
    ));
    warc.extend_from_slice(&record(
        "response",
        "http://decoded.example/",
        &response(
            "text/html",
            "Content-Encoding: gzip\r\n",
            page("/d").as_bytes(),
        ),
    ));
    let mut obs = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Note: caf\xe9\r\n\r\n".to_vec();
    obs.extend_from_slice(page("/e").as_bytes());
    warc.extend_from_slice(&record("response", "http://obs.example/", &obs));
    warc.extend_from_slice(&record(
        "response",
        "http://css.example/s.css",
        &response(
            "text/css",
            "Transfer-Encoding: chunked\r\n",
            b"a { color: red }",
        ),
    ));
    // Damaged: neither chunked nor a page; a gzip stream cut short.
    warc.extend_from_slice(&record(
        "response",
        "http://junk.example/",
        &response(
            "text/html",
            "Transfer-Encoding: chunked\r\n",
            b"\x00\x01junk",
        ),
    ));
    let gz = crate::workdir::gzip(page("/cut").as_bytes());
    warc.extend_from_slice(&record(
        "response",
        "http://cut.example/",
        &response(
            "text/html",
            "Content-Encoding: gzip\r\n",
            &gz[..gz.len() / 2],
        ),
    ));
    w.create("quirks.warc", &warc);
    let out = w.run(&["links", "quirks.warc"], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "http://dechunked.example/a\nhttp://lf.example/b\nhttp://lf.example/c\n\
         http://decoded.example/d\nhttp://obs.example/e\n"
    );
    let err = stderr(&out);
    assert!(
        err.contains("4 pages, 5 links; 2 bad records (1 bad-chunked-body, 1 bad-content-coding); \
                      2 pages read as stored (1 chunked-body-not-chunked, 1 content-coding-not-applied); \
                      1 record not HTML"),
        "{err}"
    );
}

/// Where the HTML standard reads a page otherwise than a plain
/// attribute scan: a `<base href>` that is a `javascript:` or `data:` URL
/// is refused (the page's URL is the base), a form's empty `action` is
/// the page's URL (not the base), `<image src>` is an `img`, a
/// `<frame src>` is a link (kind `iframe`), `<noframes>` holds raw
/// text, not tags, and a `<base>` inside `<svg>` or `<math>` is not the
/// document's base (while the `<base>` after the `<p>` that ends the
/// foreign content is), nor are `<style>` and `<title>` raw text there.
#[test]
fn the_html_standards_readings_of_bases_forms_and_frames() {
    let w = Workdir::new();
    let mut warc = record(
        "response",
        "http://js.example/dir/page",
        &response(
            "text/html",
            "",
            b"<base href='javascript:void(0)'><a href=next>n</a>",
        ),
    );
    warc.extend_from_slice(&record(
        "response",
        "http://form.example/a/p?q=1",
        &response(
            "text/html",
            "",
            b"<base href=/other/><form action=''></form><form action=send></form>\
              <image src=i.png><frameset><frame src=f.html></frameset>\
              <noframes><a href=/hidden>raw text</a></noframes>",
        ),
    ));
    warc.extend_from_slice(&record(
        "response",
        "http://svg.example/d/p",
        &response(
            "text/html",
            "",
            b"<svg><base href=/svg-base/></base><style><a href=s1>in svg style</a></style></svg>\
              <math><base href=/math-base/><mi/></math>\
              <svg><title><a href=t1>svg title</a></title><p><base href=/html-base/><a href=z>",
        ),
    ));
    warc.extend_from_slice(&record(
        "response",
        "http://svg.example/e/p",
        &response("text/html", "", b"<svg/><base href=/x/><a href=y>"),
    ));
    w.create("pages.warc", &warc);
    let out = w.stdout(&["links", "-q", "--fields", "to,tag,kind", "pages.warc"]);
    assert_eq!(
        out,
        "http://js.example/dir/next\ta\ta\n\
         http://form.example/a/p?q=1\tform\tform\n\
         http://form.example/other/send\tform\tform\n\
         http://form.example/other/i.png\timg\timg\n\
         http://form.example/other/f.html\tframe\tiframe\n\
         http://svg.example/html-base/s1\ta\ta\n\
         http://svg.example/html-base/t1\ta\ta\n\
         http://svg.example/html-base/z\ta\ta\n\
         http://svg.example/x/y\ta\ta\n"
    );
}

/// Feeds' `xml:base` chains (XML Base, as Atom uses it): an element's
/// base is its `xml:base` resolved against its parent's, the document's
/// URL (`--base`) at the top; an empty `href` is the base itself.
#[test]
fn feeds_resolve_links_against_their_xml_base() {
    let w = Workdir::new();
    w.create(
        "feed.atom",
        r#"<?xml version="1.0"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="/blog/">
  <link rel="self" href=""/>
  <entry xml:base="2024/post/">
    <link rel="alternate" href="index.html"/>
    <link rel="edit" href="../edit?id=1&amp;x=2"/>
  </entry>
  <entry xml:base="https://other.example/a/"><link href="b"/></entry>
  <link href="/about"/>
</feed>"#,
    );
    let out = w.stdout(&[
        "links",
        "-q",
        "--base",
        "https://site.example/feeds/main.atom",
        "--fields",
        "to,rel",
        "feed.atom",
    ]);
    assert_eq!(
        out,
        "https://site.example/blog/\tself\n\
         https://site.example/blog/2024/post/index.html\talternate\n\
         https://site.example/blog/2024/edit?id=1&x=2\tedit\n\
         https://other.example/a/b\t\n\
         https://site.example/about\t\n"
    );
}

/// A sitemap whose `.gz` is cut short: the links before the cut, then the
/// read error naming the file, exit status 2, as for every cut input.
#[test]
fn a_cut_compressed_sitemap_is_a_read_error() {
    let w = Workdir::new();
    let mut xml = String::from("<?xml version=\"1.0\"?><urlset>");
    for i in 0..20_000 {
        xml.push_str(&format!("<url><loc>https://e.example/{i}</loc></url>"));
    }
    xml.push_str("</urlset>");
    let gz = crate::workdir::gzip(xml.as_bytes());
    w.create("sitemap.xml.gz", &gz[..gz.len() / 2]);
    let out = w.run(&["links", "sitemap.xml.gz"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let links = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(links.lines().count() > 1000, "the links before the cut");
    assert!(links.lines().all(|l| l.starts_with("https://e.example/")));
    assert!(
        stderr(&out).contains("cannot read sitemap.xml.gz: gzip data is truncated"),
        "{}",
        stderr(&out)
    );
}

/// Links read as `normalize` reads (the record engine): a damaged gzip
/// member loses its own record only, the pages after the gap are read and
/// the gap is said, with where decoding went on; an input cut short does
/// not stop the inputs after it. Either way the run exits 2.
#[test]
fn a_damaged_member_or_a_cut_input_loses_no_page_after_it() {
    let w = Workdir::new();
    let mut gz = Vec::new();
    for i in 0..6 {
        let r = record("response", &format!("http://{i}.example/"), &page("/p"));
        let mut member = crate::workdir::gzip(&r);
        if i == 2 {
            // BFINAL set, block type 3: a reserved type, so the first
            // block of the member's DEFLATE data is corrupt.
            member[10] = 0xff;
        }
        gz.extend_from_slice(&member);
    }
    w.create("damaged.warc.gz", &gz);
    let want = "http://0.example/p\nhttp://1.example/p\nhttp://3.example/p\n\
                http://4.example/p\nhttp://5.example/p\n";
    for j in ["-j1", "-j3"] {
        let out = w.run(&["links", j, "damaged.warc.gz"], None);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert_eq!(String::from_utf8(out.stdout.clone()).unwrap(), want, "{j}");
        assert!(
            stderr(&out).contains("urlsift links: 5 pages, 5 links")
                && stderr(&out).contains("cannot read damaged.warc.gz: gzip data is corrupt")
                && stderr(&out).contains("decoding went on with the next member found"),
            "{}",
            stderr(&out)
        );
    }
    // A cut first input: its pages before the cut, then the next input's.
    let whole = [
        record("response", "http://a.example/", &page("/1")),
        record("response", "http://b.example/", &page("/2")),
    ]
    .concat();
    let cut = crate::workdir::gzip(&whole);
    w.create("cut.warc.gz", &cut[..cut.len() - 12]);
    w.create(
        "next.warc",
        record("response", "http://c.example/", &page("/3")),
    );
    let out = w.run(&["links", "cut.warc.gz", "next.warc"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "http://a.example/1\nhttp://c.example/3\n"
    );
    assert!(
        stderr(&out).contains("cannot read cut.warc.gz: gzip data is truncated"),
        "{}",
        stderr(&out)
    );
}

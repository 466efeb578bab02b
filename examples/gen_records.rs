//! Generates real-shaped record files for `scripts/bench/formats`: the URLs
//! of the shared corpora (cycled; parse only, never fetch) inside CSV, JSON
//! lines with nested objects, CDXJ with SURT keys, WARC (gzip per record)
//! and combined access-log records, plus the same URLs one per line.
//!
//! Usage: `gen_records CORPORA_DIR OUT_DIR MEGABYTES` writes, for each
//! format, at least MEGABYTES of records to `OUT_DIR/records.FORMAT`
//! (`records.warc.gz`, a gzip member per record, for WARC) and the URLs
//! those records hold, in order, to `OUT_DIR/urls.FORMAT.txt`. The output
//! is deterministic (fixed-seed generators).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// xorshift64*: small, fast, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "market",
    "report",
    "river",
    "quarterly",
    "open",
    "source",
    "guide",
    "weather",
    "recipe",
    "review",
    "news",
    "archive",
    "photo",
    "search",
    "login",
    "account",
    "update",
    "notice",
];
const AGENTS: &[&str] = &[
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0",
    "curl/8.5.0",
    "CCBot/2.0 (https://commoncrawl.org/faq/)",
];
const MIMES: &[&str] = &["text/html", "application/pdf", "image/jpeg", "text/plain"];

/// A title: words, sometimes with a comma or quotes (CSV must quote it),
/// rarely with a newline.
fn title(rng: &mut Rng) -> String {
    let n = 2 + rng.below(6);
    let mut t: Vec<String> = (0..n).map(|_| rng.pick(WORDS).to_string()).collect();
    match rng.below(50) {
        0..=4 => t.insert(1, ",".into()),
        5..=6 => t[0] = format!("\"{}\"", t[0]),
        7 if rng.below(10) == 0 => t.push("\nsecond line".into()),
        _ => {}
    }
    t.join(" ")
}

fn timestamp(rng: &mut Rng) -> (String, String) {
    let (d, h, m, s) = (
        1 + rng.below(28),
        rng.below(24),
        rng.below(60),
        rng.below(60),
    );
    (
        format!("2024-03-{d:02}T{h:02}:{m:02}:{s:02}Z"),
        format!("202403{d:02}{h:02}{m:02}{s:02}"),
    )
}

/// The SURT key of `url` (its text when it does not parse).
fn surt(url: &str) -> String {
    match urlsift::Url::parse(url) {
        Ok(u) => urlsift::profile::surt(&u),
        Err(_) => url.replace(' ', "%20"),
    }
}

fn json(s: &str) -> String {
    serde_json::to_string(s).expect("strings serialize")
}

/// The path and query of `url` for a log's request line (the whole URL when
/// it has none, as proxies log it).
fn target(url: &str) -> String {
    let t = match url.find("://") {
        Some(i) => match url[i + 3..].find('/') {
            Some(j) => url[i + 3 + j..].to_string(),
            None => "/".to_string(),
        },
        None => url.to_string(),
    };
    t.replace(['"', ' '], "")
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(data).unwrap();
    gz.finish().unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    assert!(
        args.len() == 4,
        "usage: gen_records CORPORA_DIR OUT_DIR MEGABYTES"
    );
    let (corpora, out, megabytes) = (&args[1], Path::new(&args[2]), &args[3]);
    let target_bytes: u64 = megabytes.parse::<u64>().expect("megabytes") << 20;
    let mut urls = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(corpora)
        .expect("corpora dir")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    names.sort();
    for p in names {
        let text = std::fs::read(&p).unwrap();
        for line in text.split(|&b| b == b'\n') {
            // Records hold text: lines that are not UTF-8, or hold CR or
            // NUL, stay out.
            if let Ok(s) = std::str::from_utf8(line)
                && !s.is_empty()
                && !s.contains(['\r', '\0'])
            {
                urls.push(s.to_string());
            }
        }
    }
    // Shuffled (deterministically), so every part of the file holds URLs of
    // every corpus, as a crawl's records would.
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for k in (1..urls.len()).rev() {
        let j = rng.below(k as u64 + 1) as usize;
        urls.swap(k, j);
    }
    std::fs::create_dir_all(out).unwrap();
    for format in ["csv", "jsonl", "cdxj", "warc", "log"] {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        // WARC records are gzipped one by one, as in .warc.gz files.
        let name = if format == "warc" {
            "records.warc.gz".to_string()
        } else {
            format!("records.{format}")
        };
        let mut w = BufWriter::with_capacity(1 << 20, File::create(out.join(name)).unwrap());
        let mut lines =
            BufWriter::new(File::create(out.join(format!("urls.{format}.txt"))).unwrap());
        let mut written = 0u64;
        if format == "csv" {
            w.write_all(b"id,url,title,status,fetched_at,referrer\n")
                .unwrap();
        }
        let mut i = 0usize;
        while written < target_bytes {
            let url = &urls[i % urls.len()];
            let referrer = &urls[(i * 7 + 3) % urls.len()];
            let (iso, cdx_time) = timestamp(&mut rng);
            let status = ["200", "200", "200", "301", "404"][rng.below(5) as usize];
            let record: Vec<u8> = match format {
                "csv" => {
                    let mut c = csv::Writer::from_writer(Vec::new());
                    let id = i.to_string();
                    let t = title(&mut rng);
                    c.write_record([&id[..], url, &t, status, &iso, referrer]).unwrap();
                    c.into_inner().unwrap()
                }
                "jsonl" => format!(
                    "{{\"ts\":\"{iso}\",\"level\":\"info\",\"request\":{{\"method\":\"GET\",\"url\":{},\
                     \"headers\":{{\"user-agent\":{},\"accept\":\"text/html\"}}}},\
                     \"response\":{{\"status\":{status},\"bytes\":{},\"ms\":{}.{}}},\
                     \"tags\":[\"crawl\",\"batch-{}\"]}}\n",
                    json(url),
                    json(rng.pick(AGENTS)),
                    rng.below(200_000),
                    rng.below(900),
                    rng.below(100),
                    rng.below(64)
                )
                .into_bytes(),
                "cdxj" => format!(
                    "{} {cdx_time} {{\"url\": {}, \"mime\": \"{}\", \"status\": \"{status}\", \
                     \"digest\": \"sha1:{:032X}\", \"length\": \"{}\", \"offset\": \"{}\", \
                     \"filename\": \"crawl-data/CC-MAIN-2024-10/segments/{}/warc/CC-MAIN-{}.warc.gz\"}}\n",
                    surt(url),
                    json(url),
                    rng.pick(MIMES),
                    u128::from(rng.next()) << 64 | u128::from(rng.next()),
                    500 + rng.below(90_000),
                    rng.below(1 << 30),
                    rng.below(1000),
                    rng.below(100_000)
                )
                .into_bytes(),
                "warc" => {
                    let body_len = 400 + rng.below(1200) as usize;
                    let mut payload = format!(
                        "HTTP/1.1 {status} OK\r\nContent-Type: {}\r\nContent-Length: {body_len}\r\n\r\n",
                        rng.pick(MIMES)
                    )
                    .into_bytes();
                    payload.extend((0..body_len).map(|k| b"<p>lorem ipsum</p>\n"[k % 19]));
                    let mut r = format!(
                        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Date: {iso}\r\n\
                         WARC-Record-ID: <urn:uuid:{:016x}{:016x}>\r\nWARC-Target-URI: {}\r\n\
                         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
                        rng.next(),
                        rng.next(),
                        url.replace(['\r', '\n'], ""),
                        payload.len()
                    )
                    .into_bytes();
                    r.extend(payload);
                    r.extend_from_slice(b"\r\n\r\n");
                    gzip(&r)
                }
                _ => format!(
                    "{}.{}.{}.{} - - [{:02}/Mar/2024:{:02}:{:02}:{:02} +0000] \"GET {} HTTP/1.1\" {status} {} {} {}\n",
                    rng.below(256),
                    rng.below(256),
                    rng.below(256),
                    rng.below(256),
                    1 + rng.below(28),
                    rng.below(24),
                    rng.below(60),
                    rng.below(60),
                    target(url),
                    rng.below(100_000),
                    json(referrer),
                    json(rng.pick(AGENTS))
                )
                .into_bytes(),
            };
            w.write_all(&record).unwrap();
            written += record.len() as u64;
            // The URL as the records hold it, for the `lines` run.
            let line = match format {
                "warc" => url.replace(['\r', '\n'], ""),
                "log" => target(url),
                _ => url.clone(),
            };
            writeln!(lines, "{line}").unwrap();
            i += 1;
        }
        w.flush().unwrap();
        lines.flush().unwrap();
        eprintln!("records.{format}: {i} records, {written} bytes");
    }
}

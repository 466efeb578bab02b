//! Pages of real crawl files (`../shared/crawl-samples`, written by
//! web-archiving tools): read on the record engine, as `urlsift links`
//! reads them, in chunks of any size and on any number of threads, a
//! file's items (pages with their blocks, records that are not pages, bad
//! records with their reasons and offsets) are exactly those of reading
//! the same records one at a time ([`Pages`]).

#[path = "../../urlsift/tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};

use urlsift_links::pages::{Item, Pages, items, keeping};
use urlsift_records::input::{self, Opened};
use urlsift_records::{Engine, Kind, Options, Processed, Spec};
use xxhash_rust::xxh3::xxh3_64;

/// Blocks over this are `page-too-large` (some samples' pages are).
const MAX: usize = 48 << 10;

/// An item as a comparable line: its kind, offset, URL, flags, and its
/// block's length and hash.
fn line(item: &Item) -> String {
    match item {
        Item::Page(p) => format!(
            "page {} {} http={} json={} {} {:x}",
            p.offset,
            p.url,
            p.http,
            p.json,
            p.block.len(),
            xxh3_64(&p.block)
        ),
        Item::Other => "other".into(),
        Item::Bad {
            offset,
            reason,
            url,
        } => format!("bad {offset} {} {url:?}", reason.key()),
    }
}

/// The items of `path` read one record at a time.
fn one_at_a_time(path: &Path) -> Vec<String> {
    let mut pages = match input::open(path).unwrap() {
        Opened::Mapped(map) => Pages::mapped(map, MAX),
        other => Pages::warc(other.into_reader().unwrap(), MAX),
    };
    let lines = pages.by_ref().map(|i| line(&i)).collect();
    assert!(pages.error().is_none(), "{}", path.display());
    lines
}

/// The items of `path` on the engine.
fn on_the_engine(path: &Path, chunk_size: usize, threads: usize) -> Vec<String> {
    let options = Options {
        spec: Spec {
            kind: Some(Kind::Warc),
            ..Spec::default()
        },
        chunk_size,
        threads: Some(threads),
        ..Options::default()
    };
    let engine = Engine::builder(vec![path.to_path_buf()])
        .options(&options)
        .keep(keeping(MAX))
        .build()
        .unwrap();
    let mut lines = Vec::new();
    let errors = engine
        .run(
            |chunk| {
                let mut p: Processed<Vec<String>> = Processed::new(chunk);
                p.extra = items(chunk).map(|i| line(&i)).collect();
                p
            },
            |_, p| {
                lines.append(&mut p.extra);
                Ok::<_, urlsift_records::Error>(true)
            },
        )
        .unwrap();
    assert!(errors.is_empty(), "{}: {errors:?}", path.display());
    lines
}

/// The samples' WARC, WAT, WET and ARC files, plain and compressed.
fn archives() -> Vec<PathBuf> {
    let root = common::crawl_samples_dir();
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            if name.contains(".warc") || name.contains(".arc") {
                files.push(f);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn pages_on_the_engine_are_those_read_one_record_at_a_time() {
    let files = archives();
    assert!(files.len() >= 25, "crawl samples: {files:?}");
    let (mut pages, mut bad) = (0, 0);
    for path in &files {
        let want = one_at_a_time(path);
        pages += want.iter().filter(|l| l.starts_with("page")).count();
        bad += want.iter().filter(|l| l.starts_with("bad")).count();
        for (chunk_size, threads) in [(1, 1), (700, 3), (64 << 10, 2), (2 << 20, 4)] {
            let got = on_the_engine(path, chunk_size, threads);
            assert!(
                got == want,
                "{}: chunks of {chunk_size} on {threads} threads: {:?}",
                path.display(),
                got.iter().zip(&want).find(|(g, w)| g != w)
            );
        }
    }
    // The samples hold pages, and damaged and over-large records.
    assert!(pages > 50 && bad > 5, "{pages} pages, {bad} bad records");
}

/// A real file whose pages' lengths were made wrong (a length that runs
/// into the next record is a bad page, its payload counted with it): the
/// same items both ways, and each such page one bad record.
#[test]
fn pages_of_wrong_length_read_the_same_on_the_engine() {
    let path = common::crawl_samples_dir().join("warcio/example.warc");
    let text = std::fs::read(&path).unwrap();
    // Every response's Content-Length made 40 bytes longer.
    let mut damaged = Vec::new();
    let mut rest = &text[..];
    let mut response = false;
    while let Some(end) = rest.iter().position(|&b| b == b'\n') {
        let line = &rest[..=end];
        rest = &rest[end + 1..];
        if line.starts_with(b"WARC-Type:") {
            response = line.ends_with(b"response\r\n");
        }
        match line.strip_prefix(b"Content-Length: ") {
            Some(n) if response => {
                let n: u64 = std::str::from_utf8(n).unwrap().trim().parse().unwrap();
                damaged.extend_from_slice(format!("Content-Length: {}\r\n", n + 40).as_bytes());
                response = false;
            }
            _ => damaged.extend_from_slice(line),
        }
    }
    damaged.extend_from_slice(rest);
    let dir = std::env::temp_dir().join(format!("urlsift-real-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("wrong-lengths.warc");
    std::fs::write(&file, &damaged).unwrap();
    let want = one_at_a_time(&file);
    let wrong = want
        .iter()
        .filter(|l| l.contains(" bad-WARC-length "))
        .count();
    assert!(wrong >= 1, "{want:?}");
    for (chunk_size, threads) in [(1, 1), (300, 2), (1 << 20, 3)] {
        assert_eq!(on_the_engine(&file, chunk_size, threads), want);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

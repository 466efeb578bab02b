//! The library's record engine, used as a Rust program uses it: the
//! `read_records` example (public API only) prints what `urlsift extract
//! --fields href` prints, and the same summary, for every input format,
//! compressed or not, with bad records in it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use super::workdir::Workdir;

/// The `read_records` example, built for the profile these tests run in
/// (once per test run; cargo does nothing when it is up to date).
fn example() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let exe = std::env::current_exe().expect("the test binary's path");
        // target/<profile>/deps/cli-<hash>
        let profile_dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("target/<profile>");
        let mut build = Command::new(env!("CARGO"));
        build
            .args(["build", "--quiet", "--example", "read_records"])
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        if profile_dir.ends_with("release") {
            build.arg("--release");
        }
        let status = build.status().expect("run cargo build --example");
        assert!(
            status.success(),
            "cargo build --example read_records failed"
        );
        let path = profile_dir.join("examples").join("read_records");
        assert!(path.exists(), "no example binary at {}", path.display());
        path
    })
}

fn run(program: &Path, args: &[&str], dir: &Path) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("run {}: {e}", program.display()))
}

/// The hrefs of `extract --fields href`'s CSV output, header dropped.
fn extracted_hrefs(csv: &[u8]) -> Vec<String> {
    let mut reader = csv::Reader::from_reader(csv);
    assert_eq!(
        reader.headers().unwrap().iter().collect::<Vec<_>>(),
        ["href"]
    );
    reader
        .records()
        .map(|r| r.expect("a CSV row")[0].to_string())
        .collect()
}

/// The last stderr line, without its program's prefix.
fn summary(stderr: &[u8], prefix: &str) -> String {
    let text = String::from_utf8_lossy(stderr);
    let line = text
        .lines()
        .find(|l| l.starts_with(prefix) && l.contains(" from "))
        .unwrap_or_else(|| panic!("no summary in {text:?}"));
    line[prefix.len()..].to_string()
}

/// `read_records [--field NAME] FILE` against `urlsift extract`: the same
/// hrefs in the same order, the same summary, the same exit status.
fn same_as_extract(wd: &Workdir, file: &str, field: Option<&str>) -> usize {
    let mut args: Vec<&str> = Vec::new();
    if let Some(f) = field {
        args.extend(["--field", f]);
    }
    args.push(file);
    let ours = run(example(), &args, &wd.path(""));
    let mut extract = vec!["extract", "-v", "--fields", "href"];
    extract.extend(&args);
    let theirs = wd.run(&extract, None);
    assert_eq!(
        ours.status.code(),
        theirs.status.code(),
        "{file}: {}",
        String::from_utf8_lossy(&ours.stderr)
    );
    let lines: Vec<String> = String::from_utf8(ours.stdout)
        .expect("UTF-8 hrefs")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines, extracted_hrefs(&theirs.stdout), "{file}");
    assert_eq!(
        summary(&ours.stderr, "read_records: "),
        summary(&theirs.stderr, "urlsift: "),
        "{file}"
    );
    // And line for line, as a template writes them.
    let mut template = vec!["extract", "-q", "--format", "{href}"];
    template.extend(&args);
    let exact = wd.run(&template, None);
    assert_eq!(
        lines.join("\n") + if lines.is_empty() { "" } else { "\n" },
        String::from_utf8(exact.stdout).unwrap(),
        "{file}"
    );
    lines.len()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

#[test]
fn read_records_prints_what_extract_prints_for_every_format() {
    let wd = Workdir::new();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/examples");
    for name in [
        "crawl.csv",
        "events.jsonl",
        "index.cdxj",
        "capture.warc.gz",
        "access.log",
    ] {
        wd.create(name, std::fs::read(examples.join(name)).unwrap());
    }
    let csv = "id,link,title\n1,HTTP://A.example/x/../y,\"t, 1\"\n2,\"not a url\",t2\n3,,empty\n\
               4,\"https://b.example/?q=1,2\",\"multi\nline\"\n5,\"open quote\n6,https://c.example,x\n";
    wd.create("links.csv", csv);
    wd.create("links.csv.gz", gzip(csv.as_bytes()));
    wd.create(
        "lines.txt",
        b"https://e.com/a b\n\nnot a url\nbad \xff utf-8\nhttp://[::1]:80/\r\nlast-without-newline:x",
    );
    let mut zstd_lines = Vec::new();
    for i in 0..5000 {
        writeln!(
            zstd_lines,
            "HTTPS://H{}.example/p/{}/../q?{}",
            i % 97,
            i,
            i % 3
        )
        .unwrap();
    }
    wd.create(
        "many.txt.zst",
        zstd::encode_all(&zstd_lines[..], 3).unwrap(),
    );
    let cases: [(&str, Option<&str>); 11] = [
        ("crawl.csv", None),
        ("links.csv", Some("link")),
        ("links.csv.gz", Some("link")),
        ("links.csv", Some("3")),
        ("events.jsonl", Some("request.url")),
        ("index.cdxj", None),
        ("capture.warc.gz", None),
        ("capture.warc.gz", Some("WARC-Target-URI")),
        ("access.log", Some("referer")),
        ("lines.txt", None),
        ("many.txt.zst", None),
    ];
    let mut total = 0;
    for (file, field) in cases {
        total += same_as_extract(&wd, file, field);
    }
    assert!(total > 5000, "{total} hrefs compared");
}

#[test]
fn read_records_reads_the_bundled_sample_as_the_command_does() {
    let wd = Workdir::new();
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/sample.txt");
    let bytes = std::fs::read(sample).unwrap();
    wd.create("sample.txt", &bytes);
    wd.create("sample.txt.gz", gzip(&bytes));
    assert!(same_as_extract(&wd, "sample.txt", None) > 10_000);
    assert!(same_as_extract(&wd, "sample.txt.gz", None) > 10_000);
}

#[test]
fn read_records_reports_a_cut_input_after_what_it_read() {
    let wd = Workdir::new();
    let mut text = Vec::new();
    for i in 0..20_000 {
        writeln!(text, "https://example.com/{i}").unwrap();
    }
    let gz = gzip(&text);
    wd.create("cut.txt.gz", &gz[..gz.len() / 2]);
    let n = same_as_extract(&wd, "cut.txt.gz", None);
    assert!(n > 1000 && n < 20_000, "{n} hrefs before the cut");
    let out = run(example(), &["cut.txt.gz"], &wd.path(""));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("cannot read cut.txt.gz: gzip data is truncated"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn read_records_refuses_what_the_command_refuses() {
    let wd = Workdir::new();
    wd.create("a.csv", "id,link\n1,https://e.com/\n");
    for args in [
        &["--field", "nope", "a.csv"][..],
        &["missing.txt"][..],
        &[][..],
    ] {
        let out = run(example(), args, &wd.path(""));
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

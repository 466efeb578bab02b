//! Replays every fuzz target's committed seed corpus (`fuzz/seeds/<target>/`)
//! through the same checks the fuzzers run, so a regression fails CI
//! without cargo-fuzz. Each target must have seeds.

#[path = "../fuzz/checks/mod.rs"]
mod checks;

// The record engine's checks (`lines`, `dedup`, `damaged`), through the
// library's public API.
#[path = "../fuzz/checks/records.rs"]
mod records;

use std::path::Path;

fn replay(target: &str, check: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(target);
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("dir entry").path();
        let data = std::fs::read(&path).expect("read seed");
        check(&data);
        count += 1;
    }
    assert!(
        count >= 10,
        "{target}: only {count} seeds in {}",
        dir.display()
    );
}

#[test]
fn parse() {
    replay("parse", checks::parse);
}

#[test]
fn parse_with_base() {
    replay("parse_with_base", checks::parse_with_base);
}

#[test]
fn fast_vs_machine() {
    replay("fast_vs_machine", checks::fast_vs_machine);
}

#[test]
fn setters() {
    replay("setters", checks::setters);
}

#[test]
fn search_params() {
    replay("search_params", checks::search_params);
}

#[test]
fn host() {
    replay("host", checks::host);
}

#[test]
fn lines() {
    replay("lines", records::lines);
    replay("lines", |data| {
        records::parallel_equals_sequential(data, env!("CARGO_BIN_EXE_urlsift").as_ref())
    });
}

#[test]
fn dedup() {
    replay("dedup", records::dedup);
}

#[test]
fn damaged() {
    replay("damaged", records::damaged);
    // The same seeds, the damaged file inside a WACZ.
    replay("damaged", records::damaged_wacz);
}

// The links path's checks (a WARC and an ARC record through HTTP, content
// codings, HTML and XML to resolved links).
#[path = "../fuzz/checks/links.rs"]
mod links;

#[test]
fn links() {
    replay("links", links::links);
}

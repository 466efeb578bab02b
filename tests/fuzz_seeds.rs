//! Replays every fuzz target's committed seed corpus (`fuzz/seeds/<target>/`)
//! through the same checks the fuzzers run, so a regression fails CI
//! without cargo-fuzz. Each target must have seeds.

#[path = "../fuzz/checks/mod.rs"]
mod checks;

// The command's modules, for the `lines`, `dedup` and `damaged` checks.
#[path = "../fuzz/checks/cli.rs"]
mod cli_checks;
#[path = "../src/bin/urlsift/decode/mod.rs"]
#[allow(dead_code)]
mod decode;
#[path = "../src/bin/urlsift/input.rs"]
#[allow(dead_code)]
mod input;
#[path = "../src/bin/urlsift/mmap.rs"]
#[allow(dead_code, unsafe_code)]
mod mmap;
#[path = "../src/bin/urlsift/output.rs"]
#[allow(dead_code)]
mod output;
#[path = "../src/bin/urlsift/reader/mod.rs"]
#[allow(dead_code)]
mod reader;
#[path = "../src/bin/urlsift/records/mod.rs"]
#[allow(dead_code)]
mod records;
#[path = "../src/bin/urlsift/spill.rs"]
#[allow(dead_code)]
mod spill;

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
    replay("lines", cli_checks::lines);
    replay("lines", |data| {
        cli_checks::parallel_equals_sequential(data, env!("CARGO_BIN_EXE_urlsift").as_ref())
    });
}

#[test]
fn dedup() {
    replay("dedup", cli_checks::dedup);
}

#[test]
fn damaged() {
    replay("damaged", cli_checks::damaged);
}

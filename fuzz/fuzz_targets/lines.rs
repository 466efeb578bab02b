#![no_main]
//! Fuzz target `lines`: see `fuzz/checks/cli.rs` for what it checks.

#[path = "../../src/bin/urlsift/decode/mod.rs"]
#[allow(dead_code)]
mod decode;
#[path = "../../src/bin/urlsift/input.rs"]
#[allow(dead_code)]
mod input;
#[path = "../../src/bin/urlsift/mmap.rs"]
#[allow(dead_code, unsafe_code)]
mod mmap;
#[path = "../../src/bin/urlsift/reader/mod.rs"]
#[allow(dead_code)]
mod reader;
#[path = "../../src/bin/urlsift/records/mod.rs"]
#[allow(dead_code)]
mod records;
#[path = "../../src/bin/urlsift/output.rs"]
#[allow(dead_code)]
mod output;
#[path = "../../src/bin/urlsift/spill.rs"]
#[allow(dead_code)]
mod spill;
#[path = "../checks/cli.rs"]
mod cli_checks;

/// The binary for the parallel check: `URLSIFT_BIN`, or the release build.
fn bin() -> std::path::PathBuf {
    std::env::var_os("URLSIFT_BIN")
        .map(Into::into)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../target/release/urlsift").into())
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    cli_checks::lines(data);
    cli_checks::parallel_equals_sequential(data, &bin());
});

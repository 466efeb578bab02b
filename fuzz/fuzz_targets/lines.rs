#![no_main]
//! Fuzz target `lines`: see `fuzz/checks/records.rs` for what it checks.

#[path = "../checks/records.rs"]
mod records;

/// The binary for the parallel check: `URLSIFT_BIN`, or the release build.
fn bin() -> std::path::PathBuf {
    std::env::var_os("URLSIFT_BIN")
        .map(Into::into)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../target/release/urlsift").into())
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    records::lines(data);
    records::parallel_equals_sequential(data, &bin());
});

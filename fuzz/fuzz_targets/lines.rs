#![no_main]
//! Fuzz target `lines`: see `fuzz/checks/cli.rs` for what it checks.

include!("../checks/command_modules.rs");

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

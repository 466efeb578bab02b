#![no_main]
//! Fuzz target `damaged`: see `fuzz/checks/cli.rs` for what it checks.

#[path = "../checks/cli.rs"]
mod cli_checks;
#[path = "../../src/bin/urlsift/decode/mod.rs"]
#[allow(dead_code)]
mod decode;
#[path = "../../src/bin/urlsift/input.rs"]
#[allow(dead_code)]
mod input;
#[path = "../../src/bin/urlsift/mmap.rs"]
#[allow(dead_code, unsafe_code)]
mod mmap;
#[path = "../../src/bin/urlsift/output.rs"]
#[allow(dead_code)]
mod output;
#[path = "../../src/bin/urlsift/reader/mod.rs"]
#[allow(dead_code)]
mod reader;
#[path = "../../src/bin/urlsift/records/mod.rs"]
#[allow(dead_code)]
mod records;
#[path = "../../src/bin/urlsift/spill.rs"]
#[allow(dead_code)]
mod spill;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    cli_checks::damaged(data);
});

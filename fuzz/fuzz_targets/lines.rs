#![no_main]
//! Fuzz target `lines`: see `fuzz/checks/lines.rs` for what it checks.

#[path = "../checks/mod.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::lines(data));

#![no_main]
//! Fuzz target `setters`: see `fuzz/checks/mod.rs` for what it checks.

#[path = "../checks/mod.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::setters(data));

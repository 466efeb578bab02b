#![no_main]
//! Fuzz target `search_params`: see `fuzz/checks/mod.rs` for what it checks.

#[path = "../checks/mod.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::search_params(data));

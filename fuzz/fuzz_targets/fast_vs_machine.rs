#![no_main]
//! Fuzz target `fast_vs_machine`: see `fuzz/checks/mod.rs` for what it checks.

#[path = "../checks/mod.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::fast_vs_machine(data));

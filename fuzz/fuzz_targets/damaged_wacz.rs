#![no_main]
//! Fuzz target `damaged_wacz`: see `fuzz/checks/records.rs` for what it checks.

#[path = "../checks/records.rs"]
mod records;

libfuzzer_sys::fuzz_target!(|data: &[u8]| records::damaged_wacz(data));

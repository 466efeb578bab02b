#![no_main]
//! Fuzz target `links`: see `fuzz/checks/links.rs` for what it checks.

#[path = "../checks/links.rs"]
mod links;

libfuzzer_sys::fuzz_target!(|data: &[u8]| links::links(data));

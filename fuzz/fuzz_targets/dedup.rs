#![no_main]
//! Fuzz target `dedup`: see `fuzz/checks/cli.rs` for what it checks.

include!("../checks/command_modules.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| cli_checks::dedup(data));

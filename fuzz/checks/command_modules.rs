// The command's input modules, as the fuzz targets that read files through
// them declare them: `include!`d by fuzz/fuzz_targets/{damaged,dedup,lines}.rs.
// An included file's `#[path]`s resolve from the file that includes it, so
// these are relative to fuzz/fuzz_targets/.

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
#[path = "../checks/cli.rs"]
mod cli_checks;

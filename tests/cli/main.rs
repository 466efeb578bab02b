//! End-to-end tests of the `urlsift` binary: each test gets a fresh
//! temporary work directory, writes its inputs there and runs the real
//! binary, checking stdout, stderr, exit status and files left behind.

mod arc;
mod canonical;
#[path = "../../crates/urlsift/tests/common/mod.rs"]
mod common;
mod compare;
mod compressed;
mod confusion;
mod csv_tsv;
mod damaged;
mod dedup;
mod get;
mod index;
mod input;
mod input_list;
mod library;
mod links;
mod links_coded;
mod links_dedup;
mod logs;
mod normalize;
mod output;
mod parquet;
mod readme;
mod records;
mod reports;
mod several_inputs;
mod silent;
mod sites;
mod url_pattern;
mod wacz;
mod warc_zst;
mod workdir;

//! End-to-end tests of the `urlsift` binary: each test gets a fresh
//! temporary work directory, writes its inputs there and runs the real
//! binary, checking stdout, stderr, exit status and files left behind.

mod compressed;
mod dedup;
mod input;
mod normalize;
mod reports;
mod workdir;

//! The parser crate's integration tests, in one binary (one link, one
//! run): web-platform-tests, the spec's states and hosts, the corpora and
//! the differentials against ada and rust-url, equivalence of the fast
//! path, the machine and the batch parser, hostile inputs, profiles,
//! sites, edits. The shared data's helpers are `common`; the fuzz
//! targets' checks (`fuzz/checks`) run here on the corpora too.

#[path = "../../../../fuzz/checks/mod.rs"]
mod checks;
#[path = "../common/mod.rs"]
mod common;

mod clean;
mod corpora;
mod differential;
mod edits;
mod equivalence;
mod hostile;
mod lines;
mod profiles;
mod search_params;
mod site_rules;
mod sites;
mod spec_hosts;
mod spec_states;
mod wpt_setters;
mod wpt_url;

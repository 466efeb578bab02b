//! Benchmark and diff URL parsers on your own URLs: what `urlsift compare`
//! runs. The URLs are loaded once ([`corpus`]); every parser
//! ([`engines`]: urlsift's own paths, and with the `peers` feature the
//! `ada-url` and `url` crates; outside this process, found by [`peers`]:
//! whatwg-url in Node.js, Python's `urllib.parse`, Java's `java.net.URI`
//! in child processes, libcurl's URL API loaded at run time) parses each
//! of them for the differential against urlsift ([`diff`], and
//! [`meaning`] for the parsers of other families), then the parsers are
//! timed in interleaved rounds ([`timing`]); the result is a table, JSON
//! ([`report`], with [`confusion`]'s host-confusion view) or an HTML page
//! ([`html`]).
//!
//! ```
//! use urlsift_compare::engines::{Base, Engine, Native, select};
//! use urlsift_compare::timing;
//!
//! // urlsift's dispatcher and its state machine: two parsers, one round.
//! let chosen = select("urlsift,urlsift-machine", false, |_, _| Ok(()))?;
//! let base = Base::new(None)?;
//! let mut engines: Vec<Box<dyn Engine>> = chosen
//!     .ids
//!     .iter()
//!     .map(|&id| Box::new(Native::new(id, &base)) as Box<dyn Engine>)
//!     .collect();
//! let urls = ["https://example.com/a", "http://e.org/%7e", "not a URL"];
//! let rounds = timing::run(&mut engines, &urls, 1, None, || {})?;
//! assert_eq!(rounds.len(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod child;
pub mod confusion;
pub mod corpus;
// libcurl through its C API: the crate's one foreign-function module.
#[allow(unsafe_code)]
mod curl;
pub mod diff;
pub mod differential;
pub mod engines;
pub mod finding;
pub mod html;
mod java;
pub mod meaning;
mod node;
pub mod peers;
mod python;
pub mod report;
pub mod timing;

use std::fmt;

use urlsift_records::InputError;

/// Why `compare` could not run: a bad request (the parsers asked for, a
/// base URL they cannot take, a peer that failed) or an input that cannot
/// be read.
#[derive(Debug)]
pub enum Error {
    /// Bad arguments, or a parser that could not be used.
    Usage(String),
    /// An input could not be read.
    Input(InputError),
    /// An input the format settings do not fit (the engine's own error:
    /// [`urlsift_records::Error::message`] names the settings as its
    /// caller does).
    Records(urlsift_records::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(message) => f.write_str(message),
            Error::Input(e) => write!(f, "cannot read {e}"),
            Error::Records(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

//! Canonical forms of other tools, byte for byte: the forms crawl
//! pipelines key and deduplicate URLs by when they do not use the URL
//! Standard's href.
//!
//! Each form reads the raw text as its tool does (not the URL Standard's
//! parse), so a line the standard rejects still gets the tool's answer,
//! and a line the tool refuses gets an error here:
//! - [`w3lib`]: Scrapy's request fingerprint and dedup key, w3lib 2.5.0's
//!   `canonicalize_url`;
//! - [`urlcanon`]: the IIPC urlcanon 0.3.1's `whatwg`, `google`,
//!   `semantic_precise`, `semantic` and `aggressive` (warcprox's and
//!   brozzler's dedup keys);
//! - [`courlan`]: courlan 1.4.0's `normalize_url` (trafilatura's
//!   crawler), and its `strict` form.
//!
//! The pieces of Python's standard library those tools stand on (the
//! `idna` codec's IDNA 2003, `ipaddress`'s IPv6 text, `urllib.parse`,
//! `html.unescape`) are in [`python`], written from their documented
//! behavior.
//!
//! ```
//! use urlsift::canon::w3lib::{canonicalize, Options};
//! let key = canonicalize("http://www.example.com/do?c=3&b=5&b=2&a=50", Options::default());
//! assert_eq!(key.unwrap(), "http://www.example.com/do?a=50&b=2&b=5&c=3");
//! ```

pub mod courlan;
pub mod python;
pub mod urlcanon;
pub mod w3lib;

use std::fmt;

/// Why a tool refuses a text (where its Python function raises
/// `ValueError`), so its form has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refused {
    /// A `[` or `]` in the authority without the other, or brackets around
    /// something that is not an IPv6 address (or an IPvFuture).
    Brackets,
    /// A port that is not ASCII digits, or above 65535.
    Port,
    /// A host whose NFKC form holds `/`, `?`, `#`, `@`, `:` or `\`.
    Nfkc,
    /// A host read as a negative IPv4 number (urlcanon reads `-1` so, and
    /// then cannot write it).
    Host,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Refused::Brackets => "the canonical form's tool refuses the brackets in its authority",
            Refused::Port => "the canonical form's tool refuses its port",
            Refused::Nfkc => {
                "the canonical form's tool refuses a host whose NFKC form holds a delimiter"
            }
            Refused::Host => {
                "the canonical form's tool refuses its host (an IPv4 number it cannot write)"
            }
        })
    }
}

impl std::error::Error for Refused {}

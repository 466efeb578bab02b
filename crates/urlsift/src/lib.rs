//! urlsift: a spec-exact [WHATWG URL Standard](https://url.spec.whatwg.org/)
//! parser, built for speed on real-world URL files.
//!
//! ```
//! let base = urlsift::Url::parse("https://example.com/a/b")?;
//! let url = urlsift::Url::parse_with_base("../c?q#f", Some(&base))?;
//! assert_eq!(url.href(), "https://example.com/c?q#f");
//! assert_eq!(url.pathname(), "/c");
//! assert_eq!(url.search(), "?q");
//! assert!(urlsift::Url::can_parse("x", Some("https://e.com/")));
//! # Ok::<(), urlsift::ParseError>(())
//! ```
//!
//! # Limits
//!
//! Component offsets are `u32`: a URL whose serialization would exceed
//! `u32::MAX` bytes (4 GiB) fails with [`ParseError::TooLong`].

pub mod batch;
pub mod canon;
mod components;
pub mod edit;
pub mod error;
pub mod form;
mod getter;
pub mod host;
pub mod key;
mod parser;
#[cfg(feature = "urlpattern")]
pub mod pattern;
pub mod percent;
pub mod profile;
pub mod safe_browsing;
mod setters;
pub mod site;
pub mod stage;
pub mod surt;
mod units;
mod url;

/// The SIMD kernels, the crate's own (`urlsift-simd`), not part of its API.
use urlsift_simd as simd;

pub use batch::{BatchParser, paths};
pub use components::SchemeType;
pub use error::{NoReporter, ParseError, Reporter, ValidationError};
pub use form::{SearchParamsMut, UrlSearchParams};
pub use getter::Getter;
pub use host::{Host, HostKind};
pub use url::{Origin, Url, UrlRef};

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

//! The standard's `TypeError`s, each with its reason.

use std::fmt;

/// Why a pattern does not compile, or an input cannot be matched (the
/// standard's `TypeError`s).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PatternError {
    /// A code point the pattern syntax does not allow there.
    Tokenize {
        /// The component's pattern string.
        pattern: String,
        /// Its code point index in the pattern string.
        index: usize,
    },
    /// A token where the pattern syntax wants another.
    Syntax {
        /// The component's pattern string.
        pattern: String,
        /// Its code point index in the pattern string.
        index: usize,
        /// The token's text.
        found: String,
    },
    /// Two groups of one component with the same name.
    DuplicateName(String),
    /// A regular expression that does not compile.
    Regexp(String),
    /// A JavaScript regular expression feature the `regex` crate lacks.
    RegexpFeature(String),
    /// Fixed text the component's URL canonicalization refuses.
    Canonical {
        /// The component's name.
        component: &'static str,
        /// The text.
        value: String,
    },
    /// A base URL that does not parse.
    BaseUrl(String),
    /// A pattern string without a scheme and no base URL.
    NoProtocol,
    /// A base URL given beside an [`Init`](super::Init) (which has its own `base_url`).
    InitWithBase,
    /// `generate` cannot fill the component.
    Generate(String),
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternError::Tokenize { pattern, index } => {
                write!(
                    f,
                    "invalid pattern syntax at code point {index} of {pattern:?}"
                )
            }
            PatternError::Syntax {
                pattern,
                index,
                found,
            } => {
                write!(
                    f,
                    "unexpected {found:?} at code point {index} of {pattern:?}"
                )
            }
            PatternError::DuplicateName(name) => write!(f, "the group name {name:?} is used twice"),
            PatternError::Regexp(why) => {
                write!(f, "the regular expression does not compile: {why}")
            }
            PatternError::RegexpFeature(what) => {
                write!(
                    f,
                    "the regular expression uses {what}, which urlsift's matcher does not support"
                )
            }
            PatternError::Canonical { component, value } => {
                write!(f, "{value:?} is not a valid {component}")
            }
            PatternError::BaseUrl(base) => write!(f, "the base URL {base:?} does not parse"),
            PatternError::NoProtocol => f.write_str("a relative pattern needs a base URL"),
            PatternError::InitWithBase => {
                f.write_str("a base URL cannot be given beside component patterns")
            }
            PatternError::Generate(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for PatternError {}

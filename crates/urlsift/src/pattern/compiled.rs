//! A [component](https://urlpattern.spec.whatwg.org/#component) compiled:
//! its part list, pattern string and regular expression.

use regex::Regex;

use super::parts::{self, Modifier, Options, Part, PartKind};
use super::{ComponentMatch, PatternError, regexp};

pub(super) type Encode = fn(&str) -> Result<String, PatternError>;

/// A compiled [component](https://urlpattern.spec.whatwg.org/#component).
#[derive(Clone, Debug)]
pub(super) struct Compiled {
    pub pattern: String,
    pub regex: Regex,
    pub names: Vec<String>,
    pub has_regexp_groups: bool,
    pub parts: Vec<Part>,
    pub options: Options,
    pub encode: Encode,
    /// The pattern is `*`: every value matches, its one group is the value.
    pub matches_all: bool,
    /// The text every matching value starts with and ends with (the fixed
    /// text at either end of the pattern; empty where there is none or the
    /// pattern ignores case): checked before the expression runs.
    pub literal_prefix: String,
    pub literal_suffix: String,
    /// The fewest bytes a matching value has (its required fixed text and
    /// segments): an empty query skips a `*utm_source=*` search's
    /// expression.
    pub min_len: usize,
}

/// The fewest bytes a value the part list matches can have: fixed text
/// and group prefixes and suffixes that must appear, and a byte for each
/// required segment wildcard or `+` group.
fn min_len(parts: &[Part]) -> usize {
    parts
        .iter()
        .filter(|p| matches!(p.modifier, Modifier::None | Modifier::OneOrMore))
        .map(|p| match p.kind {
            PartKind::FixedText => p.value.len(),
            PartKind::SegmentWildcard => p.prefix.len() + p.suffix.len() + 1,
            _ => p.prefix.len() + p.suffix.len(),
        })
        .sum()
}

/// `value.starts_with(prefix)` as an inline loop: the prefilters compare
/// a few bytes per pattern and URL, where a call to `memcmp` costs more
/// than the comparison.
#[inline]
fn starts_with(value: &str, prefix: &str) -> bool {
    let (v, p) = (value.as_bytes(), prefix.as_bytes());
    v.len() >= p.len() && v.iter().zip(p).all(|(a, b)| a == b)
}

/// `value.ends_with(suffix)` as an inline loop, from the last byte (where
/// hosts differ most).
#[inline]
fn ends_with(value: &str, suffix: &str) -> bool {
    let (v, s) = (value.as_bytes(), suffix.as_bytes());
    v.len() >= s.len() && v.iter().rev().zip(s.iter().rev()).all(|(a, b)| a == b)
}

/// The fixed text every value a part list matches starts with: fixed
/// parts without a modifier, then a group's prefix if the group has none.
fn required_prefix(parts: &[Part]) -> String {
    let mut out = String::new();
    for part in parts {
        if part.modifier != Modifier::None {
            break;
        }
        if part.kind == PartKind::FixedText {
            out.push_str(&part.value);
        } else {
            out.push_str(&part.prefix);
            break;
        }
    }
    out
}

/// The fixed text every value a part list matches ends with.
fn required_suffix(parts: &[Part]) -> String {
    let mut pieces = Vec::new();
    for part in parts.iter().rev() {
        if part.modifier != Modifier::None {
            break;
        }
        if part.kind == PartKind::FixedText {
            pieces.push(part.value.as_str());
        } else {
            pieces.push(part.suffix.as_str());
            break;
        }
    }
    pieces.iter().rev().copied().collect()
}

impl Compiled {
    pub(super) fn matches_special_scheme(&self) -> bool {
        ["ftp", "file", "http", "https", "ws", "wss"]
            .iter()
            .any(|s| self.regex.is_match(s))
    }

    /// The text the component must be, when its pattern is plain text
    /// matched with regard to case.
    pub(super) fn exact(&self) -> Option<&str> {
        match self.parts.as_slice() {
            [] if !self.options.ignore_case => Some(""),
            [p] if p.kind == PartKind::FixedText
                && p.modifier == Modifier::None
                && !self.options.ignore_case =>
            {
                Some(&p.value)
            }
            _ => None,
        }
    }

    #[inline]
    pub(super) fn is_match(&self, value: &str) -> bool {
        if self.matches_all {
            return true;
        }
        if value.len() < self.min_len
            || !starts_with(value, &self.literal_prefix)
            || !ends_with(value, &self.literal_suffix)
        {
            return false;
        }
        match self.exact() {
            Some(text) => value.len() == text.len() && starts_with(value, text),
            None => self.regex.is_match(value),
        }
    }

    pub(super) fn exec(&self, value: &str) -> Option<ComponentMatch> {
        let captures = self.regex.captures(value)?;
        let groups = self
            .names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                (
                    name.clone(),
                    captures.get(i + 1).map(|m| m.as_str().to_string()),
                )
            })
            .collect();
        Some(ComponentMatch {
            input: value.to_string(),
            groups,
        })
    }
}

/// [Compiles a component](https://urlpattern.spec.whatwg.org/#compile-a-component).
pub(super) fn compile_component(
    input: &str,
    encode: Encode,
    options: Options,
) -> Result<Compiled, PatternError> {
    let parts = parts::parse_pattern_string(input, &options, &encode)?;
    let (expression, names) = parts::regular_expression(&parts, &options);
    let regex = regexp::compile(&expression, options.ignore_case)?;
    let pattern = parts::pattern_string(&parts, &options);
    let has_regexp_groups = parts.iter().any(|p| p.kind == PartKind::Regexp);
    let matches_all = matches!(parts.as_slice(), [p] if p.kind == PartKind::FullWildcard
        && p.modifier == Modifier::None && p.prefix.is_empty() && p.suffix.is_empty());
    let shortest = if options.ignore_case {
        0
    } else {
        min_len(&parts)
    };
    let (literal_prefix, literal_suffix) = match options.ignore_case {
        true => (String::new(), String::new()),
        false => (required_prefix(&parts), required_suffix(&parts)),
    };
    Ok(Compiled {
        pattern,
        regex,
        names,
        has_regexp_groups,
        parts,
        options,
        encode,
        matches_all,
        min_len: shortest,
        literal_prefix,
        literal_suffix,
    })
}

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

    pub(super) fn is_match(&self, value: &str) -> bool {
        self.matches_all || self.regex.is_match(value)
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
    Ok(Compiled {
        pattern,
        regex,
        names,
        has_regexp_groups,
        parts,
        options,
        encode,
        matches_all,
    })
}

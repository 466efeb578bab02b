//! [Parsing a pattern string](https://urlpattern.spec.whatwg.org/#parse-a-pattern-string)
//! into a part list, and a part list back into a regular expression and a
//! normalized pattern string.

use super::PatternError;
use super::tokenize::{Policy, Token, TokenKind, is_valid_name_code_point, tokenize};

/// A [part type](https://urlpattern.spec.whatwg.org/#part-type), in the
/// order `compareComponent` ranks them (the least specific first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum PartKind {
    FullWildcard,
    SegmentWildcard,
    Regexp,
    FixedText,
}

/// A [part modifier](https://urlpattern.spec.whatwg.org/#part-modifier),
/// in `compareComponent`'s order (the least specific first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Modifier {
    ZeroOrMore,
    Optional,
    OneOrMore,
    None,
}

impl Modifier {
    fn as_str(self) -> &'static str {
        match self {
            Modifier::ZeroOrMore => "*",
            Modifier::Optional => "?",
            Modifier::OneOrMore => "+",
            Modifier::None => "",
        }
    }
}

/// A [part](https://urlpattern.spec.whatwg.org/#part).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Part {
    pub kind: PartKind,
    pub value: String,
    pub modifier: Modifier,
    pub name: String,
    pub prefix: String,
    pub suffix: String,
}

impl Part {
    pub(super) fn fixed(value: String, modifier: Modifier) -> Part {
        let (name, prefix, suffix) = (String::new(), String::new(), String::new());
        Part {
            kind: PartKind::FixedText,
            value,
            modifier,
            name,
            prefix,
            suffix,
        }
    }
}

/// A component's [options](https://urlpattern.spec.whatwg.org/#options).
#[derive(Clone, Copy, Debug)]
pub(super) struct Options {
    pub delimiter: Option<char>,
    pub prefix: Option<char>,
    pub ignore_case: bool,
}

impl Options {
    pub(super) const DEFAULT: Options = Options {
        delimiter: None,
        prefix: None,
        ignore_case: false,
    };
    pub(super) const HOSTNAME: Options = Options {
        delimiter: Some('.'),
        prefix: None,
        ignore_case: false,
    };
    pub(super) const PATHNAME: Options = Options {
        delimiter: Some('/'),
        prefix: Some('/'),
        ignore_case: false,
    };

    fn is_prefix(&self, text: &str) -> bool {
        let mut chars = text.chars();
        matches!((chars.next(), chars.next(), self.prefix), (Some(c), None, Some(p)) if c == p)
    }
}

/// An [encoding callback](https://urlpattern.spec.whatwg.org/#encoding-callback).
pub(super) type Encode<'a> = &'a dyn Fn(&str) -> Result<String, PatternError>;

struct Parser<'a> {
    input: &'a str,
    tokens: Vec<Token>,
    encode: Encode<'a>,
    segment_wildcard: String,
    parts: Vec<Part>,
    pending: String,
    index: usize,
    next_numeric_name: usize,
}

impl Parser<'_> {
    fn try_consume(&mut self, kind: TokenKind) -> Option<Token> {
        let token = &self.tokens[self.index];
        if token.kind != kind {
            return None;
        }
        self.index += 1;
        Some(token.clone())
    }

    fn try_consume_modifier(&mut self) -> Option<Token> {
        self.try_consume(TokenKind::OtherModifier)
            .or_else(|| self.try_consume(TokenKind::Asterisk))
    }

    fn try_consume_regexp_or_wildcard(&mut self, name: &Option<Token>) -> Option<Token> {
        let token = self.try_consume(TokenKind::Regexp);
        if name.is_none() && token.is_none() {
            return self.try_consume(TokenKind::Asterisk);
        }
        token
    }

    fn consume_required(&mut self, kind: TokenKind) -> Result<Token, PatternError> {
        self.try_consume(kind).ok_or_else(|| {
            let token = &self.tokens[self.index];
            PatternError::Syntax {
                pattern: self.input.to_string(),
                index: token.index,
                found: token.value.clone(),
            }
        })
    }

    fn consume_text(&mut self) -> String {
        let mut result = String::new();
        while let Some(token) = self
            .try_consume(TokenKind::Char)
            .or_else(|| self.try_consume(TokenKind::EscapedChar))
        {
            result.push_str(&token.value);
        }
        result
    }

    fn maybe_add_part_from_pending(&mut self) -> Result<(), PatternError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let encoded = (self.encode)(&std::mem::take(&mut self.pending))?;
        self.parts.push(Part::fixed(encoded, Modifier::None));
        Ok(())
    }

    fn add_part(
        &mut self,
        prefix: String,
        name: Option<Token>,
        regexp_or_wildcard: Option<Token>,
        suffix: String,
        modifier: Option<Token>,
    ) -> Result<(), PatternError> {
        let modifier = match modifier.as_ref().map(|t| t.value.as_str()) {
            Some("?") => Modifier::Optional,
            Some("*") => Modifier::ZeroOrMore,
            Some("+") => Modifier::OneOrMore,
            _ => Modifier::None,
        };
        if name.is_none() && regexp_or_wildcard.is_none() && modifier == Modifier::None {
            self.pending.push_str(&prefix);
            return Ok(());
        }
        self.maybe_add_part_from_pending()?;
        if name.is_none() && regexp_or_wildcard.is_none() {
            debug_assert!(suffix.is_empty());
            if prefix.is_empty() {
                return Ok(());
            }
            let encoded = (self.encode)(&prefix)?;
            self.parts.push(Part::fixed(encoded, modifier));
            return Ok(());
        }
        let mut value = match &regexp_or_wildcard {
            None => self.segment_wildcard.clone(),
            Some(t) if t.kind == TokenKind::Asterisk => FULL_WILDCARD.to_string(),
            Some(t) => t.value.clone(),
        };
        let mut kind = PartKind::Regexp;
        if value == self.segment_wildcard {
            kind = PartKind::SegmentWildcard;
            value.clear();
        } else if value == FULL_WILDCARD {
            kind = PartKind::FullWildcard;
            value.clear();
        }
        let name = match (name, regexp_or_wildcard) {
            (Some(token), _) => token.value,
            (None, _) => {
                let n = self.next_numeric_name.to_string();
                self.next_numeric_name += 1;
                n
            }
        };
        if self.parts.iter().any(|p| p.name == name) {
            return Err(PatternError::DuplicateName(name));
        }
        let prefix = (self.encode)(&prefix)?;
        let suffix = (self.encode)(&suffix)?;
        self.parts.push(Part {
            kind,
            value,
            modifier,
            name,
            prefix,
            suffix,
        });
        Ok(())
    }
}

/// The [full wildcard regexp value](https://urlpattern.spec.whatwg.org/#full-wildcard-regexp-value).
pub(super) const FULL_WILDCARD: &str = ".*";

/// [Generates a segment wildcard regexp](https://urlpattern.spec.whatwg.org/#generate-a-segment-wildcard-regexp).
pub(super) fn segment_wildcard(options: &Options) -> String {
    let mut result = String::from("[^");
    if let Some(d) = options.delimiter {
        escape_regexp_into(&d.to_string(), &mut result);
    }
    result.push_str("]+?");
    result
}

/// [Parses a pattern string](https://urlpattern.spec.whatwg.org/#parse-a-pattern-string).
pub(super) fn parse_pattern_string(
    input: &str,
    options: &Options,
    encode: Encode<'_>,
) -> Result<Vec<Part>, PatternError> {
    let chars: Vec<char> = input.chars().collect();
    let tokens = tokenize(&chars, Policy::Strict)?;
    let mut p = Parser {
        input,
        tokens,
        encode,
        segment_wildcard: segment_wildcard(options),
        parts: Vec::new(),
        pending: String::new(),
        index: 0,
        next_numeric_name: 0,
    };
    while p.index < p.tokens.len() {
        let char_token = p.try_consume(TokenKind::Char);
        let mut name = p.try_consume(TokenKind::Name);
        let mut regexp_or_wildcard = p.try_consume_regexp_or_wildcard(&name);
        if name.is_some() || regexp_or_wildcard.is_some() {
            let mut prefix = char_token.map(|t| t.value).unwrap_or_default();
            if !prefix.is_empty() && !options.is_prefix(&prefix) {
                p.pending.push_str(&prefix);
                prefix.clear();
            }
            p.maybe_add_part_from_pending()?;
            let modifier = p.try_consume_modifier();
            p.add_part(prefix, name, regexp_or_wildcard, String::new(), modifier)?;
            continue;
        }
        let fixed = char_token.or_else(|| p.try_consume(TokenKind::EscapedChar));
        if let Some(fixed) = fixed {
            p.pending.push_str(&fixed.value);
            continue;
        }
        if p.try_consume(TokenKind::Open).is_some() {
            let prefix = p.consume_text();
            name = p.try_consume(TokenKind::Name);
            regexp_or_wildcard = p.try_consume_regexp_or_wildcard(&name);
            let suffix = p.consume_text();
            p.consume_required(TokenKind::Close)?;
            let modifier = p.try_consume_modifier();
            p.add_part(prefix, name, regexp_or_wildcard, suffix, modifier)?;
            continue;
        }
        p.maybe_add_part_from_pending()?;
        p.consume_required(TokenKind::End)?;
    }
    Ok(p.parts)
}

/// [Escapes a regexp string](https://urlpattern.spec.whatwg.org/#escape-a-regexp-string).
pub(super) fn escape_regexp_into(input: &str, out: &mut String) {
    for c in input.chars() {
        if matches!(
            c,
            '.' | '+'
                | '*'
                | '?'
                | '^'
                | '$'
                | '{'
                | '}'
                | '('
                | ')'
                | '['
                | ']'
                | '|'
                | '/'
                | '\\'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
}

/// [Escapes a pattern string](https://urlpattern.spec.whatwg.org/#escape-a-pattern-string).
pub(super) fn escape_pattern_into(input: &str, out: &mut String) {
    for c in input.chars() {
        if matches!(c, '+' | '*' | '?' | ':' | '{' | '}' | '(' | ')' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
}

/// [Generates a regular expression and name list](https://urlpattern.spec.whatwg.org/#generate-a-regular-expression-and-name-list),
/// the expression in JavaScript's syntax.
pub(super) fn regular_expression(parts: &[Part], options: &Options) -> (String, Vec<String>) {
    let mut result = String::from("^");
    let mut names = Vec::new();
    let segment = segment_wildcard(options);
    for part in parts {
        let modifier = part.modifier.as_str();
        if part.kind == PartKind::FixedText {
            if part.modifier == Modifier::None {
                escape_regexp_into(&part.value, &mut result);
            } else {
                result.push_str("(?:");
                escape_regexp_into(&part.value, &mut result);
                result.push(')');
                result.push_str(modifier);
            }
            continue;
        }
        names.push(part.name.clone());
        let value = match part.kind {
            PartKind::SegmentWildcard => segment.as_str(),
            PartKind::FullWildcard => FULL_WILDCARD,
            _ => part.value.as_str(),
        };
        // JavaScript's `(.*)?` never takes an empty iteration, so the group
        // stays undefined where the regex crate's would capture "".
        let bare = part.prefix.is_empty() && part.suffix.is_empty();
        let value =
            if bare && part.kind == PartKind::FullWildcard && part.modifier == Modifier::Optional {
                ".+"
            } else {
                value
            };
        let single = matches!(part.modifier, Modifier::None | Modifier::Optional);
        if part.prefix.is_empty() && part.suffix.is_empty() {
            if single {
                result.push('(');
                result.push_str(value);
                result.push(')');
                result.push_str(modifier);
            } else {
                result.push_str("((?:");
                result.push_str(value);
                result.push(')');
                result.push_str(modifier);
                result.push(')');
            }
            continue;
        }
        if single {
            result.push_str("(?:");
            escape_regexp_into(&part.prefix, &mut result);
            result.push('(');
            result.push_str(value);
            result.push(')');
            escape_regexp_into(&part.suffix, &mut result);
            result.push(')');
            result.push_str(modifier);
            continue;
        }
        result.push_str("(?:");
        escape_regexp_into(&part.prefix, &mut result);
        result.push_str("((?:");
        result.push_str(value);
        result.push_str(")(?:");
        escape_regexp_into(&part.suffix, &mut result);
        escape_regexp_into(&part.prefix, &mut result);
        result.push_str("(?:");
        result.push_str(value);
        result.push_str("))*)");
        escape_regexp_into(&part.suffix, &mut result);
        result.push(')');
        if part.modifier == Modifier::ZeroOrMore {
            result.push('?');
        }
    }
    result.push('$');
    (result, names)
}

/// [Generates a pattern string](https://urlpattern.spec.whatwg.org/#generate-a-pattern-string).
pub(super) fn pattern_string(parts: &[Part], options: &Options) -> String {
    let mut result = String::new();
    for (index, part) in parts.iter().enumerate() {
        let previous = index.checked_sub(1).map(|i| &parts[i]);
        let next = parts.get(index + 1);
        if part.kind == PartKind::FixedText {
            if part.modifier == Modifier::None {
                escape_pattern_into(&part.value, &mut result);
                continue;
            }
            result.push('{');
            escape_pattern_into(&part.value, &mut result);
            result.push('}');
            result.push_str(part.modifier.as_str());
            continue;
        }
        let custom_name = !part.name.starts_with(|c: char| c.is_ascii_digit());
        let mut needs_grouping = !part.suffix.is_empty()
            || (!part.prefix.is_empty() && !options.is_prefix(&part.prefix));
        if !needs_grouping
            && custom_name
            && part.kind == PartKind::SegmentWildcard
            && part.modifier == Modifier::None
            && let Some(next) = next
            && next.prefix.is_empty()
            && next.suffix.is_empty()
        {
            needs_grouping = if next.kind == PartKind::FixedText {
                next.value
                    .chars()
                    .next()
                    .is_some_and(|c| is_valid_name_code_point(c, false))
            } else {
                next.name.starts_with(|c: char| c.is_ascii_digit())
            };
        }
        if !needs_grouping
            && part.prefix.is_empty()
            && let Some(previous) = previous
            && previous.kind == PartKind::FixedText
            && previous
                .value
                .chars()
                .last()
                .is_some_and(|c| Some(c) == options.prefix)
        {
            needs_grouping = true;
        }
        if needs_grouping {
            result.push('{');
        }
        escape_pattern_into(&part.prefix, &mut result);
        if custom_name {
            result.push(':');
            result.push_str(&part.name);
        }
        match part.kind {
            PartKind::Regexp => {
                result.push('(');
                result.push_str(&part.value);
                result.push(')');
            }
            PartKind::SegmentWildcard if !custom_name => {
                result.push('(');
                result.push_str(&segment_wildcard(options));
                result.push(')');
            }
            PartKind::FullWildcard => {
                let bare = previous
                    .is_none_or(|p| p.kind == PartKind::FixedText || p.modifier != Modifier::None);
                if !custom_name && (bare || needs_grouping || !part.prefix.is_empty()) {
                    result.push('*');
                } else {
                    result.push('(');
                    result.push_str(FULL_WILDCARD);
                    result.push(')');
                }
            }
            _ => {}
        }
        if part.kind == PartKind::SegmentWildcard
            && custom_name
            && part
                .suffix
                .chars()
                .next()
                .is_some_and(|c| is_valid_name_code_point(c, false))
        {
            result.push('\\');
        }
        escape_pattern_into(&part.suffix, &mut result);
        if needs_grouping {
            result.push('}');
        }
        result.push_str(part.modifier.as_str());
    }
    result
}

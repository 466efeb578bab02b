//! The pattern string [tokenizer](https://urlpattern.spec.whatwg.org/#tokenizing):
//! a pattern's code points as tokens, each with the code point index it
//! starts at.

use std::sync::OnceLock;

use regex::Regex;

use super::PatternError;

/// A [token type](https://urlpattern.spec.whatwg.org/#token-type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TokenKind {
    Open,
    Close,
    Regexp,
    Name,
    Char,
    EscapedChar,
    OtherModifier,
    Asterisk,
    End,
    InvalidChar,
}

/// A token: its kind, the code point index it starts at and its value.
#[derive(Clone, Debug)]
pub(super) struct Token {
    pub kind: TokenKind,
    pub index: usize,
    pub value: String,
}

/// Whether a tokenizing error throws (`Strict`) or becomes an
/// `invalid-char` token (`Lenient`, the constructor string's reading).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Policy {
    Strict,
    Lenient,
}

struct Tokenizer<'a> {
    input: &'a [char],
    policy: Policy,
    tokens: Vec<Token>,
    index: usize,
    next_index: usize,
    code_point: char,
}

impl Tokenizer<'_> {
    fn get_next_code_point(&mut self) {
        self.code_point = self.input[self.next_index];
        self.next_index += 1;
    }

    fn seek_and_get_next_code_point(&mut self, index: usize) {
        self.next_index = index;
        self.get_next_code_point();
    }

    fn add_token(&mut self, kind: TokenKind, next: usize, value_start: usize, value_len: usize) {
        let value = self.input[value_start..value_start + value_len]
            .iter()
            .collect();
        self.tokens.push(Token {
            kind,
            index: self.index,
            value,
        });
        self.index = next;
    }

    fn add_token_with_default_length(&mut self, kind: TokenKind, next: usize, value_start: usize) {
        self.add_token(kind, next, value_start, next - value_start);
    }

    fn add_token_with_default_position_and_length(&mut self, kind: TokenKind) {
        self.add_token_with_default_length(kind, self.next_index, self.index);
    }

    fn error(&mut self, next: usize, value_start: usize) -> Result<(), PatternError> {
        if self.policy == Policy::Strict {
            return Err(PatternError::Tokenize {
                pattern: self.input.iter().collect(),
                index: self.index,
            });
        }
        self.add_token_with_default_length(TokenKind::InvalidChar, next, value_start);
        Ok(())
    }
}

/// [Tokenizes](https://urlpattern.spec.whatwg.org/#tokenize) `input`.
pub(super) fn tokenize(input: &[char], policy: Policy) -> Result<Vec<Token>, PatternError> {
    let mut t = Tokenizer {
        input,
        policy,
        tokens: Vec::new(),
        index: 0,
        next_index: 0,
        code_point: '\0',
    };
    let len = input.len();
    while t.index < len {
        t.seek_and_get_next_code_point(t.index);
        match t.code_point {
            '*' => t.add_token_with_default_position_and_length(TokenKind::Asterisk),
            '+' | '?' => t.add_token_with_default_position_and_length(TokenKind::OtherModifier),
            '\\' => {
                if t.index == len - 1 {
                    t.error(t.next_index, t.index)?;
                    continue;
                }
                let escaped_index = t.next_index;
                t.get_next_code_point();
                t.add_token_with_default_length(
                    TokenKind::EscapedChar,
                    t.next_index,
                    escaped_index,
                );
            }
            '{' => t.add_token_with_default_position_and_length(TokenKind::Open),
            '}' => t.add_token_with_default_position_and_length(TokenKind::Close),
            ':' => {
                let name_start = t.next_index;
                let mut name_position = name_start;
                while name_position < len {
                    t.seek_and_get_next_code_point(name_position);
                    if !is_valid_name_code_point(t.code_point, name_position == name_start) {
                        break;
                    }
                    name_position = t.next_index;
                }
                if name_position <= name_start {
                    t.error(name_start, t.index)?;
                    continue;
                }
                t.add_token_with_default_length(TokenKind::Name, name_position, name_start);
            }
            '(' => regexp(&mut t)?,
            _ => t.add_token_with_default_position_and_length(TokenKind::Char),
        }
    }
    t.add_token_with_default_length(TokenKind::End, t.index, t.index);
    Ok(t.tokens)
}

/// The `(` branch of the tokenizer: a regexp token up to the matching `)`.
fn regexp(t: &mut Tokenizer<'_>) -> Result<(), PatternError> {
    let len = t.input.len();
    let mut depth = 1usize;
    let start = t.next_index;
    let mut position = start;
    while position < len {
        t.seek_and_get_next_code_point(position);
        if !t.code_point.is_ascii() || (position == start && t.code_point == '?') {
            return t.error(start, t.index);
        }
        if t.code_point == '\\' {
            if position == len - 1 {
                return t.error(start, t.index);
            }
            t.get_next_code_point();
            if !t.code_point.is_ascii() {
                return t.error(start, t.index);
            }
            position = t.next_index;
            continue;
        }
        if t.code_point == ')' {
            depth -= 1;
            if depth == 0 {
                position = t.next_index;
                break;
            }
        } else if t.code_point == '(' {
            depth += 1;
            if position == len - 1 {
                return t.error(start, t.index);
            }
            let temporary = t.next_index;
            t.get_next_code_point();
            if t.code_point != '?' {
                return t.error(start, t.index);
            }
            t.next_index = temporary;
        }
        position = t.next_index;
    }
    if depth != 0 {
        return t.error(start, t.index);
    }
    let length = position - start - 1;
    if length == 0 {
        return t.error(start, t.index);
    }
    t.add_token(TokenKind::Regexp, position, start, length);
    Ok(())
}

/// [Is a valid name code point](https://urlpattern.spec.whatwg.org/#is-a-valid-name-code-point):
/// JavaScript's IdentifierStart (`ID_Start`, `$`, `_`) or IdentifierPart
/// (`ID_Continue`, `$`, ZWNJ, ZWJ), from the regex crate's Unicode tables.
pub(super) fn is_valid_name_code_point(c: char, first: bool) -> bool {
    static START: OnceLock<Regex> = OnceLock::new();
    static PART: OnceLock<Regex> = OnceLock::new();
    if c.is_ascii() {
        return c.is_ascii_alphabetic() || c == '$' || c == '_' || (!first && c.is_ascii_digit());
    }
    let set = if first {
        START.get_or_init(|| Regex::new(r"^\p{ID_Start}$").expect("a valid class"))
    } else {
        PART.get_or_init(|| {
            Regex::new(r"^[\p{ID_Continue}\u{200C}\u{200D}]$").expect("a valid class")
        })
    };
    set.is_match(c.encode_utf8(&mut [0; 4]))
}

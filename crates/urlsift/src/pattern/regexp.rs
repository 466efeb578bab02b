//! A component's regular expression, written in JavaScript's syntax with
//! the `v` flag (as the standard writes it), compiled with the `regex`
//! crate.
//!
//! The two syntaxes agree on what patterns write (groups, classes with
//! `--`/`&&` set operations, lazy and greedy quantifiers, `\p{..}`); where
//! their meanings differ the text is rewritten to JavaScript's meaning:
//! `.` excludes every line terminator, `\d` and `\w` and `\b` are ASCII,
//! `\s` is ECMAScript's white space. What the `regex` crate cannot do at
//! all (lookaround, backreferences, `\q{..}` strings) is refused with
//! [`PatternError::RegexpFeature`]: a pattern using it does not compile.

use regex::{Regex, RegexBuilder};

use super::PatternError;

/// ECMAScript's WhiteSpace and LineTerminator code points (`\s`).
const SPACE: &str =
    r"\t\n\x0B\x0C\r \xA0\u{1680}\u{2000}-\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}\u{FEFF}";
const WORD: &str = "0-9A-Za-z_";
const NOT_LINE_TERMINATOR: &str = r"[^\n\r\u{2028}\u{2029}]";

/// Compiles `js` (a JavaScript `v`-flag expression), case-insensitive when
/// `ignore_case` (the `i` flag: Unicode simple case folding in both).
pub(super) fn compile(js: &str, ignore_case: bool) -> Result<Regex, PatternError> {
    let text = translate(js)?;
    RegexBuilder::new(&text)
        .case_insensitive(ignore_case)
        .build()
        .map_err(|e| PatternError::Regexp(e.to_string()))
}

/// Rewrites a JavaScript expression into the `regex` crate's syntax.
fn translate(js: &str) -> Result<String, PatternError> {
    let chars: Vec<char> = js.chars().collect();
    let mut out = String::with_capacity(js.len() + 16);
    let mut class_depth = 0usize;
    let mut i = 0;
    let unsupported = |what: &str| Err(PatternError::RegexpFeature(what.to_string()));
    while i < chars.len() {
        let c = chars[i];
        let in_class = class_depth > 0;
        match c {
            '\\' => {
                let Some(&e) = chars.get(i + 1) else {
                    return Err(PatternError::Regexp("a trailing backslash".into()));
                };
                i += 2;
                match e {
                    'd' if in_class => out.push_str("0-9"),
                    'd' => out.push_str("[0-9]"),
                    'D' => out.push_str("[^0-9]"),
                    'w' if in_class => out.push_str(WORD),
                    'w' => out.push_str("[0-9A-Za-z_]"),
                    'W' => out.push_str("[^0-9A-Za-z_]"),
                    's' if in_class => out.push_str(SPACE),
                    's' | 'S' => {
                        out.push_str(if e == 's' { "[" } else { "[^" });
                        out.push_str(SPACE);
                        out.push(']');
                    }
                    'b' if in_class => out.push_str(r"\x08"),
                    'b' => out.push_str(r"(?-u:\b)"),
                    'B' => out.push_str(r"(?-u:\B)"),
                    '1'..='9' => return unsupported("a backreference"),
                    'k' => return unsupported("a named backreference"),
                    'q' => return unsupported(r"\q{..} strings in a class"),
                    '0' => out.push_str(r"\x00"),
                    'c' => match chars.get(i) {
                        Some(&l) if l.is_ascii_alphabetic() => {
                            out.push_str(&format!(r"\x{:02X}", (l as u32) % 32));
                            i += 1;
                        }
                        _ => return Err(PatternError::Regexp(r"\c without a letter".into())),
                    },
                    _ => {
                        out.push('\\');
                        out.push(e);
                    }
                }
                continue;
            }
            '[' => {
                class_depth += 1;
                out.push('[');
                if chars.get(i + 1) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                // JavaScript's `[]` matches nothing and `[^]` anything; in
                // the regex crate a `]` right after `[` is a literal.
                if chars.get(i + 1) == Some(&']') {
                    out.push_str(r"\x00&&\x01");
                }
            }
            ']' if in_class => {
                class_depth -= 1;
                out.push(']');
            }
            '.' if !in_class => out.push_str(NOT_LINE_TERMINATOR),
            '(' if !in_class && chars.get(i + 1) == Some(&'?') => {
                group_opening(&chars[i + 2..])?;
                out.push('(');
            }
            _ => out.push(c),
        }
        i += 1;
    }
    Ok(out)
}

/// Checks what follows `(?` against JavaScript's grammar: `:`, a named
/// group `<name>`, or modifiers `i`/`m` (`-` to remove) then `:`. The
/// regex crate reads more (`(?R)`, `(?x)`, bare flags) that JavaScript
/// refuses, and lookaround it cannot run.
fn group_opening(rest: &[char]) -> Result<(), PatternError> {
    match rest {
        [':', ..] => Ok(()),
        ['=' | '!', ..] | ['<', '=' | '!', ..] => {
            Err(PatternError::RegexpFeature("lookaround".into()))
        }
        ['<', name @ ..] => match name.iter().position(|&c| c == '>') {
            Some(end) if end > 0 => Ok(()),
            _ => Err(PatternError::Regexp("an unterminated group name".into())),
        },
        _ => {
            let flags = rest
                .iter()
                .take_while(|c| matches!(c, 'i' | 'm' | 's' | '-'))
                .count();
            let text: String = rest[..flags].iter().collect();
            if rest.get(flags) != Some(&':') || text.matches('-').count() > 1 || text == "-" {
                return Err(PatternError::Regexp(format!("an invalid group (?{text}")));
            }
            if text.contains('s') {
                return Err(PatternError::RegexpFeature("the s modifier".into()));
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn javascript_meanings() {
        let re = compile(r"^\d+$", false).unwrap();
        assert!(re.is_match("0123"));
        assert!(!re.is_match("١٢")); // Arabic-Indic digits are not \d in JavaScript
        let dot = compile("^.$", false).unwrap();
        assert!(dot.is_match("é") && !dot.is_match("\u{2028}"));
        assert!(compile(r"^[\s]$", false).unwrap().is_match("\u{FEFF}"));
        assert!(!compile(r"^[]$", false).unwrap().is_match("]"));
        assert!(matches!(
            compile("(?=a)", false),
            Err(PatternError::RegexpFeature(_))
        ));
        assert!(matches!(
            compile(r"(a)\1", false),
            Err(PatternError::RegexpFeature(_))
        ));
        assert!(compile(r"^[a-z--c]$", false).unwrap().is_match("b"));
        assert!(matches!(
            compile("(?R)", false),
            Err(PatternError::Regexp(_))
        ));
        assert!(compile("^(?i:a)(?<n>b)$", false).unwrap().is_match("Ab"));
    }
}

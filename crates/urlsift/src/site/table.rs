//! A Public Suffix List loaded from its text (`public_suffix_list.dat`):
//! the parser of the [list format](https://github.com/publicsuffix/list/wiki/Format)
//! and the [matching algorithm](https://publicsuffix.org/list/) over a
//! [`SuffixMap`] of rule nodes.
//!
//! Every rule adds a node for itself and for each of its dot-suffixes (so a
//! walk from the right can stop at the first suffix no rule ends with);
//! a node's flags say which rules sit on it, per section: a normal rule
//! `s`, a wildcard rule `*.s` (stored on `s`) or an exception rule `!s`.
//! Rules in Unicode are stored in A-label form, as the URL host parser
//! writes them (`Host::parse`), since hosts reach us in that form.

use std::fmt;

use super::map::{MAX_KEY, SuffixHasher, SuffixMap};
use super::name::Labels;
use super::{Match, Section};
use crate::host::Host;

const RULE_ICANN: u8 = 1;
const RULE_PRIVATE: u8 = 2;
const WILD_ICANN: u8 = 4;
const WILD_PRIVATE: u8 = 8;
const EXC_ICANN: u8 = 16;
const EXC_PRIVATE: u8 = 32;

/// Why a list could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListError {
    /// The 1-based line of the offending rule (0 for the whole text).
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for ListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "public suffix list: {}", self.reason)
        } else {
            write!(f, "public suffix list line {}: {}", self.line, self.reason)
        }
    }
}

impl std::error::Error for ListError {}

/// The rules of one list, as nodes.
#[derive(Clone)]
pub(crate) struct Table {
    nodes: SuffixMap<u8>,
    rules: usize,
    /// The list's `// VERSION:` and `// COMMIT:` header values.
    pub(crate) version: Option<String>,
    pub(crate) commit: Option<String>,
}

impl Table {
    /// Parses a list's text. Lines are read up to their first whitespace;
    /// `//` lines are comments, except the `===BEGIN ICANN DOMAINS===` and
    /// `===BEGIN PRIVATE DOMAINS===` markers that open a section. Rules
    /// outside both sections count as ICANN rules.
    pub(crate) fn parse(text: &str) -> Result<Table, ListError> {
        let mut table = Table {
            nodes: SuffixMap::with_capacity(16 * 1024),
            rules: 0,
            version: None,
            commit: None,
        };
        let mut private = false;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_start_matches('\u{FEFF}').trim();
            if let Some(comment) = line.strip_prefix("//") {
                let header = |name: &str| {
                    let value = comment.trim().strip_prefix(name)?.trim();
                    (!value.is_empty()).then(|| value.to_string())
                };
                if let Some(v) = header("VERSION:") {
                    table.version.get_or_insert(v);
                } else if let Some(c) = header("COMMIT:") {
                    table.commit.get_or_insert(c);
                }
                if comment.contains("===BEGIN PRIVATE DOMAINS===") {
                    private = true;
                } else if comment.contains("===BEGIN ICANN DOMAINS===")
                    || comment.contains("===END PRIVATE DOMAINS===")
                {
                    private = false;
                }
                continue;
            }
            let rule = line.split_whitespace().next().unwrap_or("");
            if rule.is_empty() {
                continue;
            }
            table.add(rule, private).map_err(|reason| ListError {
                line: i + 1,
                reason: format!("{reason}: {rule:?}"),
            })?;
        }
        if table.rules == 0 {
            return Err(ListError {
                line: 0,
                reason: "no rules (is this a public_suffix_list.dat?)".into(),
            });
        }
        Ok(table)
    }

    /// The number of rules read.
    pub(crate) fn rules(&self) -> usize {
        self.rules
    }

    fn add(&mut self, rule: &str, private: bool) -> Result<(), &'static str> {
        let (body, kind) = if let Some(rest) = rule.strip_prefix('!') {
            (rest, [EXC_ICANN, EXC_PRIVATE])
        } else if let Some(rest) = rule.strip_prefix("*.") {
            (rest, [WILD_ICANN, WILD_PRIVATE])
        } else if rule == "*" {
            // The implicit rule, written out: it changes nothing.
            self.rules += 1;
            return Ok(());
        } else {
            (rule, [RULE_ICANN, RULE_PRIVATE])
        };
        if body.split('.').any(|l| l == "*" || l.is_empty()) {
            return Err(if body.contains('*') {
                "a wildcard is supported only as the whole leftmost label"
            } else {
                "empty label"
            });
        }
        if kind[0] == EXC_ICANN && !body.contains('.') {
            return Err("an exception rule needs two labels or more");
        }
        let ascii = to_host_form(body)?;
        if ascii.len() > MAX_KEY {
            return Err("longer than 65535 bytes");
        }
        let flag = kind[usize::from(private)];
        *self.nodes.entry_on_path(&ascii) |= flag;
        self.rules += 1;
        Ok(())
    }

    /// Finds the prevailing rule for a checked, lowercase host given by
    /// its labels: where its public suffix starts and the rule's section.
    #[inline]
    pub(crate) fn find(&self, mut labels: Labels<'_>, include_private: bool) -> Match {
        let (rule, wild, exc) = if include_private {
            (
                RULE_ICANN | RULE_PRIVATE,
                WILD_ICANN | WILD_PRIVATE,
                EXC_ICANN | EXC_PRIVATE,
            )
        } else {
            (RULE_ICANN, WILD_ICANN, EXC_ICANN)
        };
        let mut best = Match {
            start: 0,
            section: None,
        };
        // A wildcard on the last node seen covers the next label.
        let mut wildcard: Option<Section> = None;
        let mut exception = None;
        let mut hash = SuffixHasher::new();
        let name = labels.name();
        // Where the label to the right of this one starts.
        let mut previous = name.len();
        while let Some((start, end)) = labels.next_span() {
            if end == name.len() {
                // The implicit "*" rule: the last label.
                best.start = start;
            }
            if let Some(section) = wildcard.take() {
                best = Match {
                    start,
                    section: Some(section),
                };
            }
            hash = hash.push(&name[start..end]);
            let Some(&flags) = self.nodes.get(hash.finish(), &name[start..]) else {
                break;
            };
            if flags & rule != 0 {
                best = Match {
                    start,
                    section: Some(section_of(flags & rule, RULE_PRIVATE)),
                };
            }
            if flags & wild != 0 {
                wildcard = Some(section_of(flags & wild, WILD_PRIVATE));
            }
            if flags & exc != 0 {
                // The exception's rule less its leftmost label.
                exception = Some(Match {
                    start: previous,
                    section: Some(section_of(flags & exc, EXC_PRIVATE)),
                });
            }
            previous = start;
        }
        // "If more than one rule matches, the prevailing rule is the one
        // which is an exception rule."
        exception.unwrap_or(best)
    }
}

/// The section of the rule whose flag bits are `flags`: ICANN unless only
/// the private bit (`private`) is set.
fn section_of(flags: u8, private: u8) -> Section {
    if flags == private {
        Section::Private
    } else {
        Section::Icann
    }
}

/// A rule's labels as the URL host parser writes them: lowercase ASCII,
/// Unicode labels as A-labels.
fn to_host_form(body: &str) -> Result<std::borrow::Cow<'_, str>, &'static str> {
    let plain = body.bytes().all(|b| {
        b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.' || b == b'_'
    });
    if plain {
        return Ok(body.into());
    }
    match Host::parse(body, false) {
        Ok(Host::Domain(ascii)) => Ok(ascii.into()),
        Ok(_) => Err("not a domain name"),
        Err(_) => Err("not a valid domain name"),
    }
}

//! Many patterns matched at once (the command's `--match` and
//! `--match-file`): the first pattern, in order, that a URL matches.
//!
//! The host narrows the list first: patterns whose hostname is plain
//! text (`example.com`) are found by one hash lookup, `*` ones are kept,
//! and the rest are tried (or, past a few dozen, searched as one
//! [`RegexSet`]). While many patterns are left the other components narrow
//! the same way; then each candidate is checked in order, component by
//! component, each component's prefilters first: its fixed text at either
//! end (`/wp-admin/` of `/wp-admin/*`, `.pdf` of `/*.pdf`) and the fewest
//! bytes it can match, so the expression runs only on values that could
//! match.
//!
//! ```
//! use urlsift::pattern::{PatternList, PatternOptions};
//! use urlsift::Url;
//!
//! let list = PatternList::parse_all(
//!     ["https://*.example.com/docs/*", "https://example.org/:page"],
//!     None,
//!     PatternOptions::default(),
//! )?;
//! let url = Url::parse("https://example.org/about").unwrap();
//! assert_eq!(list.first_match(url.view()), Some(1));
//! assert_eq!(list.first_match(Url::parse("https://example.org/a/b").unwrap().view()), None);
//! # Ok::<(), urlsift::pattern::PatternError>(())
//! ```

use std::collections::HashMap;

use regex::{RegexSet, RegexSetBuilder};

use super::{PatternComponent, PatternError, PatternOptions, UrlPattern, url_ref_values};
use crate::url::UrlRef;

/// The components in the order they are tried: the host first, since it
/// usually tells patterns apart.
const ORDER: [PatternComponent; 8] = [
    PatternComponent::Hostname,
    PatternComponent::Pathname,
    PatternComponent::Protocol,
    PatternComponent::Port,
    PatternComponent::Search,
    PatternComponent::Hash,
    PatternComponent::Username,
    PatternComponent::Password,
];

/// One component over all patterns.
#[derive(Clone, Debug)]
struct ComponentSet {
    component: PatternComponent,
    /// Patterns whose component is plain text, by that text (pattern
    /// indices in order).
    exact: HashMap<String, Vec<usize>>,
    /// The other patterns' expressions, and which pattern each is.
    set: Option<RegexSet>,
    members: Vec<usize>,
    /// Patterns whose component matches every value.
    always: Bits,
}

/// A fixed-size bit set over the patterns.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Bits(Vec<u64>);

/// Up to this many patterns left, each is checked on its own rather
/// than through a component's set.
const FEW: usize = 32;

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }

    /// Sets bits `0..n`.
    fn fill(&mut self, n: usize) {
        for (w, word) in self.0.iter_mut().enumerate() {
            let left = n.saturating_sub(w * 64);
            *word = if left >= 64 {
                u64::MAX
            } else {
                (1u64 << left) - 1
            };
        }
    }

    fn has(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let i = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    w * 64 + i
                })
            })
        })
    }

    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }
}

impl ComponentSet {
    /// Clears the candidates whose component does not match `value`;
    /// false when none is left.
    fn narrow(&self, value: &str, patterns: &[UrlPattern], candidates: &mut Bits) -> bool {
        let mut here = self.always.clone();
        if let Some(indices) = self.exact.get(value) {
            indices.iter().for_each(|&i| here.set(i));
        }
        let live = || self.members.iter().copied().filter(|&i| candidates.has(i));
        match &self.set {
            Some(regexes) if live().nth(FEW).is_some() => {
                for k in regexes.matches(value).iter() {
                    here.set(self.members[k]);
                }
            }
            _ => {
                for i in live() {
                    if patterns[i].components[self.component as usize].is_match(value) {
                        here.set(i);
                    }
                }
            }
        }
        let mut any = false;
        for (c, h) in candidates.0.iter_mut().zip(&here.0) {
            *c &= h;
            any |= *c != 0;
        }
        any
    }
}

/// Patterns in order, matched together.
#[derive(Clone, Debug)]
pub struct PatternList {
    patterns: Vec<UrlPattern>,
    sets: Vec<ComponentSet>,
}

impl PatternList {
    /// The list of `patterns`, in order.
    ///
    /// ```
    /// use urlsift::pattern::{PatternList, PatternOptions, UrlPattern};
    /// let o = PatternOptions::default();
    /// let list = PatternList::new(vec![UrlPattern::parse("https://e.com/*", None, o)?])?;
    /// assert_eq!(list.len(), 1);
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn new(patterns: Vec<UrlPattern>) -> Result<PatternList, PatternError> {
        let n = patterns.len();
        let mut sets = Vec::new();
        for component in ORDER {
            let mut exact: HashMap<String, Vec<usize>> = HashMap::new();
            let mut always = Bits::new(n);
            let mut expressions = Vec::new();
            let mut members = Vec::new();
            for (i, pattern) in patterns.iter().enumerate() {
                let compiled = &pattern.components[component as usize];
                if compiled.matches_all {
                    always.set(i);
                } else if let Some(text) = compiled.exact() {
                    exact.entry(text.to_string()).or_default().push(i);
                } else {
                    let text = compiled.regex.as_str();
                    expressions.push(if compiled.options.ignore_case {
                        format!("(?i:{text})")
                    } else {
                        text.to_string()
                    });
                    members.push(i);
                }
            }
            if always.first().is_some() && exact.is_empty() && members.is_empty() {
                continue; // every pattern takes every value
            }
            let set = match expressions.is_empty() {
                true => None,
                false => Some(
                    RegexSetBuilder::new(&expressions)
                        .build()
                        .map_err(|e| PatternError::Regexp(e.to_string()))?,
                ),
            };
            sets.push(ComponentSet {
                component,
                exact,
                set,
                members,
                always,
            });
        }
        Ok(PatternList { patterns, sets })
    }

    /// Compiles each of `patterns` (constructor strings, relative ones
    /// against `base_url`) and lists them in order.
    ///
    /// ```
    /// use urlsift::pattern::{PatternList, PatternOptions};
    /// let list = PatternList::parse_all(["/a/*", "/b"], Some("https://e.com"), PatternOptions::default())?;
    /// assert_eq!(list.len(), 2);
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn parse_all<'a>(
        patterns: impl IntoIterator<Item = &'a str>,
        base_url: Option<&str>,
        options: PatternOptions,
    ) -> Result<PatternList, PatternError> {
        let compiled = patterns
            .into_iter()
            .map(|p| UrlPattern::parse(p, base_url, options))
            .collect::<Result<_, _>>()?;
        PatternList::new(compiled)
    }

    /// How many patterns the list holds.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternList, PatternOptions};
    /// assert!(PatternList::parse_all([], None, PatternOptions::default())?.is_empty());
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn len(&self) -> usize {
        self.patterns.len()
    }

    /// Whether the list holds no pattern (and so matches nothing).
    ///
    /// ```
    /// # use urlsift::pattern::{PatternList, PatternOptions};
    /// assert!(!PatternList::parse_all(["https://e.com"], None, PatternOptions::default())?.is_empty());
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// The patterns, in order.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternList, PatternOptions};
    /// let list = PatternList::parse_all(["https://e.com/:id"], None, PatternOptions::default())?;
    /// assert_eq!(list.patterns()[0].pathname(), "/:id");
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn patterns(&self) -> &[UrlPattern] {
        &self.patterns
    }

    /// The group names of all the patterns, each once, in pattern order.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternList, PatternOptions};
    /// let list = PatternList::parse_all(["https://e.com/:a", "https://:b.e.com/:a"], None, PatternOptions::default())?;
    /// assert_eq!(list.group_names(), ["0", "a", "b"]); // "0": the username's implicit `*`
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn group_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for name in self.patterns.iter().flat_map(UrlPattern::group_names) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        names
    }

    /// The group `name` of the first pattern `url` matches (as
    /// [`PatternMatch::group`](super::PatternMatch::group) gives it); `None`
    /// where no pattern matches or the group has no value.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternList, PatternOptions};
    /// let list = PatternList::parse_all(["https://e.com/:a"], None, PatternOptions::default())?;
    /// let url = urlsift::Url::parse("https://e.com/x").unwrap();
    /// assert_eq!(list.group(url.view(), "a").as_deref(), Some("x"));
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn group(&self, url: UrlRef<'_>, name: &str) -> Option<String> {
        let first = self.first_match(url)?;
        let found = self.patterns[first].exec_view(url)?;
        found.group(name).map(str::to_string)
    }

    /// The index of the first pattern `url` matches.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternList, PatternOptions};
    /// let list = PatternList::parse_all(["https://e.com/a", "https://*"], None, PatternOptions::default())?;
    /// let url = urlsift::Url::parse("https://e.com/a").unwrap();
    /// assert_eq!(list.first_match(url.view()), Some(0));
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn first_match(&self, url: UrlRef<'_>) -> Option<usize> {
        if self.patterns.is_empty() {
            return None;
        }
        let values = url_ref_values(url);
        let n = self.patterns.len();
        let mut candidates = Bits::new(n);
        candidates.fill(n);
        let mut narrowed = Vec::with_capacity(self.sets.len());
        for set in &self.sets {
            // The host narrows first; the other components' sets run only
            // while many patterns are left, then each candidate is checked
            // in order, its prefilters first.
            if set.component != PatternComponent::Hostname && candidates.count() <= FEW {
                break;
            }
            if !set.narrow(
                values[set.component as usize],
                &self.patterns,
                &mut candidates,
            ) {
                return None;
            }
            narrowed.push(set.component);
        }
        candidates.ones().find(|&i| {
            let pattern = &self.patterns[i];
            ORDER.iter().all(|&c| {
                narrowed.contains(&c) || pattern.components[c as usize].is_match(values[c as usize])
            })
        })
    }

    /// Whether `url` matches any pattern.
    ///
    /// ```
    /// # use urlsift::pattern::{PatternList, PatternOptions};
    /// let list = PatternList::parse_all(["https://e.com/*"], None, PatternOptions::default())?;
    /// assert!(list.is_match(urlsift::Url::parse("https://e.com/x").unwrap().view()));
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn is_match(&self, url: UrlRef<'_>) -> bool {
        self.first_match(url).is_some()
    }
}

//! What a match gives: each component's value and named groups.

use super::{Init, PatternComponent};

/// What a pattern is matched against: a URL string or components.
#[derive(Clone, Copy, Debug)]
pub enum Input<'a> {
    /// A URL string, relative when a base URL is given.
    Url(&'a str),
    /// Components, each canonicalized as a URL's would be.
    Init(&'a Init),
}

/// One component's match: the value matched and the groups it named, in
/// pattern order (`None` for a group that took no part, JavaScript's
/// `undefined`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComponentMatch {
    /// The component's value.
    pub input: String,
    /// The groups, by name (`"0"`, `"1"`... for unnamed ones).
    pub groups: Vec<(String, Option<String>)>,
}

impl ComponentMatch {
    /// The value of the named group, if it matched.
    ///
    /// ```
    /// use urlsift::pattern::{PatternComponent, PatternOptions, UrlPattern};
    /// let p = UrlPattern::parse("https://e.com/:kind/*", None, PatternOptions::default())?;
    /// let m = p.exec("https://e.com/a/b/c", None)?.unwrap();
    /// assert_eq!(m.get(PatternComponent::Pathname).group("kind"), Some("a"));
    /// assert_eq!(m.get(PatternComponent::Pathname).group("0"), Some("b/c"));
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn group(&self, name: &str) -> Option<&str> {
        self.groups
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }
}

/// A match: each component's [`ComponentMatch`] (the standard's
/// `URLPatternResult`, less its echo of the inputs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternMatch {
    pub(super) components: Vec<ComponentMatch>,
}

impl PatternMatch {
    /// The component's match.
    ///
    /// ```
    /// use urlsift::pattern::{PatternComponent, PatternOptions, UrlPattern};
    /// let p = UrlPattern::parse("https://e.com/*", None, PatternOptions::default())?;
    /// let m = p.exec("https://e.com/x?y", None)?.unwrap();
    /// assert_eq!(m.get(PatternComponent::Search).input, "y");
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn get(&self, component: PatternComponent) -> &ComponentMatch {
        &self.components[component as usize]
    }

    /// The value of the group `name` in the first component, in URL order,
    /// where it matched something: unnamed groups (`"0"`) are numbered per
    /// component, and a constructor string's implicit `*` (the username of
    /// `https://*`) matches the empty string, so the first non-empty value
    /// is the one meant.
    ///
    /// ```
    /// use urlsift::pattern::{PatternOptions, UrlPattern};
    /// let p = UrlPattern::parse("https://:sub.e.com/:id", None, PatternOptions::default())?;
    /// let m = p.exec("https://api.e.com/7", None)?.unwrap();
    /// assert_eq!((m.group("sub"), m.group("id"), m.group("x")), (Some("api"), Some("7"), None));
    /// let any = UrlPattern::parse("https://*", None, PatternOptions::default())?;
    /// assert_eq!(any.exec("https://e.com/", None)?.unwrap().group("0"), Some("e.com"));
    /// # Ok::<(), urlsift::pattern::PatternError>(())
    /// ```
    pub fn group(&self, name: &str) -> Option<&str> {
        self.components
            .iter()
            .find_map(|c| c.group(name).filter(|v| !v.is_empty()))
    }
}

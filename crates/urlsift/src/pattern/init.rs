//! What a pattern is made from: the components, the standard's
//! `URLPatternInit` and `URLPatternOptions`.

/// A URL component a pattern matches, in the standard's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PatternComponent {
    /// The scheme, without `:`.
    Protocol,
    /// The username.
    Username,
    /// The password.
    Password,
    /// The host, serialized (`[::1]` for IPv6).
    Hostname,
    /// The port, empty when it is the scheme's default.
    Port,
    /// The path, serialized.
    Pathname,
    /// The query, without `?`.
    Search,
    /// The fragment, without `#`.
    Hash,
}

impl PatternComponent {
    /// The eight components, in order.
    pub const ALL: [PatternComponent; 8] = [
        PatternComponent::Protocol,
        PatternComponent::Username,
        PatternComponent::Password,
        PatternComponent::Hostname,
        PatternComponent::Port,
        PatternComponent::Pathname,
        PatternComponent::Search,
        PatternComponent::Hash,
    ];

    /// The component's name in the standard (`"pathname"`).
    ///
    /// ```
    /// assert_eq!(urlsift::pattern::PatternComponent::Search.name(), "search");
    /// ```
    pub fn name(self) -> &'static str {
        [
            "protocol", "username", "password", "hostname", "port", "pathname", "search", "hash",
        ][self as usize]
    }

    /// The component of a name, as [`PatternComponent::name`] writes it.
    ///
    /// ```
    /// use urlsift::pattern::PatternComponent;
    /// assert_eq!(PatternComponent::named("port"), Some(PatternComponent::Port));
    /// assert_eq!(PatternComponent::named("path"), None);
    /// ```
    pub fn named(name: &str) -> Option<PatternComponent> {
        PatternComponent::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// The standard's `URLPatternInit`: a pattern (or a URL) given component by
/// component; an absent component is a wildcard in a pattern.
///
/// ```
/// use urlsift::pattern::{Init, UrlPattern, PatternOptions};
///
/// let init = Init { pathname: Some("/books/:id".into()), ..Init::default() };
/// let pattern = UrlPattern::new(&init, PatternOptions::default())?;
/// assert_eq!(pattern.hostname(), "*");
/// # Ok::<(), urlsift::pattern::PatternError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Init {
    /// The scheme (a trailing `:` is dropped).
    pub protocol: Option<String>,
    /// The username.
    pub username: Option<String>,
    /// The password.
    pub password: Option<String>,
    /// The host.
    pub hostname: Option<String>,
    /// The port.
    pub port: Option<String>,
    /// The path.
    pub pathname: Option<String>,
    /// The query (a leading `?` is dropped).
    pub search: Option<String>,
    /// The fragment (a leading `#` is dropped).
    pub hash: Option<String>,
    /// A URL the absent components are taken from.
    pub base_url: Option<String>,
}

impl Init {
    /// The component's value, if set.
    ///
    /// ```
    /// use urlsift::pattern::{PatternComponent, Init};
    /// let init = Init { port: Some("8080".into()), ..Init::default() };
    /// assert_eq!(init.get(PatternComponent::Port), Some("8080"));
    /// ```
    pub fn get(&self, component: PatternComponent) -> Option<&str> {
        self.slot(component).as_deref()
    }

    /// Sets the component's value.
    ///
    /// ```
    /// use urlsift::pattern::{PatternComponent, Init};
    /// let mut init = Init::default();
    /// init.set(PatternComponent::Hash, "top");
    /// assert_eq!(init.hash.as_deref(), Some("top"));
    /// ```
    pub fn set(&mut self, component: PatternComponent, value: impl Into<String>) {
        *self.slot_mut(component) = Some(value.into());
    }

    pub(super) fn slot(&self, component: PatternComponent) -> &Option<String> {
        match component {
            PatternComponent::Protocol => &self.protocol,
            PatternComponent::Username => &self.username,
            PatternComponent::Password => &self.password,
            PatternComponent::Hostname => &self.hostname,
            PatternComponent::Port => &self.port,
            PatternComponent::Pathname => &self.pathname,
            PatternComponent::Search => &self.search,
            PatternComponent::Hash => &self.hash,
        }
    }

    pub(super) fn slot_mut(&mut self, component: PatternComponent) -> &mut Option<String> {
        match component {
            PatternComponent::Protocol => &mut self.protocol,
            PatternComponent::Username => &mut self.username,
            PatternComponent::Password => &mut self.password,
            PatternComponent::Hostname => &mut self.hostname,
            PatternComponent::Port => &mut self.port,
            PatternComponent::Pathname => &mut self.pathname,
            PatternComponent::Search => &mut self.search,
            PatternComponent::Hash => &mut self.hash,
        }
    }
}

/// The standard's `URLPatternOptions`.
///
/// ```
/// use urlsift::pattern::{PatternOptions, UrlPattern};
/// let options = PatternOptions { ignore_case: true };
/// let pattern = UrlPattern::parse("https://example.com/Docs/*", None, options)?;
/// assert!(pattern.test("https://example.com/docs/a", None)?);
/// # Ok::<(), urlsift::pattern::PatternError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PatternOptions {
    /// Match the pathname, search and hash without regard to case.
    pub ignore_case: bool,
}

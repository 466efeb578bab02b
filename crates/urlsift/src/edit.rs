//! URL edits, as trurl's `--set`, `--append query=` and `--trim query=`
//! make them: set a component, append a query parameter, remove
//! parameters by name. Every edit goes through the URL API's setters (or
//! the query update they share), so the standard's rules hold: a value is
//! percent-encoded as the setter encodes it, a component the URL cannot
//! have is refused, and the result is a URL that re-parses to itself.
//!
//! Each edit reports its [`Outcome`]: the URL changed, the edit was a
//! no-op (the URL already had it), or the standard refused it (a port on
//! a `file:` URL, a host on `mailto:`, a scheme change from special to
//! not special); a refused edit leaves the URL as it was.
//!
//! ```
//! use urlsift::Url;
//! use urlsift::edit::{Edit, Outcome};
//!
//! let mut url = Url::parse("http://example.com/a?utm_source=x&id=7#top").unwrap();
//! let edits = [
//!     Edit::set("protocol=https").unwrap(),
//!     Edit::set("port=8443").unwrap(),
//!     Edit::remove_params(["utm_*"]).unwrap(),
//!     Edit::append_param("lang=en gb").unwrap(),
//!     Edit::set("hash=").unwrap(),
//! ];
//! for edit in &edits {
//!     assert_eq!(edit.apply(&mut url), Outcome::Changed, "{edit}");
//! }
//! assert_eq!(url.href(), "https://example.com:8443/a?id=7&lang=en+gb");
//!
//! let mut file = Url::parse("file:///etc/hosts").unwrap();
//! assert_eq!(Edit::set("port=80").unwrap().apply(&mut file), Outcome::Refused);
//! assert_eq!(file.href(), "file:///etc/hosts");
//! ```

use std::fmt;

use crate::form;
use crate::profile::{self, Profile};
use crate::{Getter, Url};

/// A component that [`Edit::set`] can set: the URL API's setters, less
/// `href` (a whole new URL is not an edit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Component {
    /// [`Url::set_protocol`].
    Protocol,
    /// [`Url::set_username`].
    Username,
    /// [`Url::set_password`].
    Password,
    /// [`Url::set_host`] (hostname and optional `:port`).
    Host,
    /// [`Url::set_hostname`].
    Hostname,
    /// [`Url::set_port`] (empty: no port).
    Port,
    /// [`Url::set_pathname`].
    Pathname,
    /// [`Url::set_search`] (empty: no query).
    Search,
    /// [`Url::set_hash`] (empty: no fragment).
    Hash,
}

impl Component {
    /// Every component, in URL order.
    pub const ALL: [Component; 9] = [
        Component::Protocol,
        Component::Username,
        Component::Password,
        Component::Host,
        Component::Hostname,
        Component::Port,
        Component::Pathname,
        Component::Search,
        Component::Hash,
    ];

    /// The getter that reads what the component's setter writes.
    pub fn getter(self) -> Getter {
        match self {
            Component::Protocol => Getter::Protocol,
            Component::Username => Getter::Username,
            Component::Password => Getter::Password,
            Component::Host => Getter::Host,
            Component::Hostname => Getter::Hostname,
            Component::Port => Getter::Port,
            Component::Pathname => Getter::Pathname,
            Component::Search => Getter::Search,
            Component::Hash => Getter::Hash,
        }
    }

    /// The component's name, as the URL API names its setter (its
    /// [`Getter`]'s name).
    pub fn name(self) -> &'static str {
        self.getter().name()
    }

    /// The component named `name` (as [`Component::name`] gives it).
    pub fn from_name(name: &str) -> Option<Component> {
        Component::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// What an edit did to a URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The URL changed.
    Changed,
    /// The edit was allowed and the URL already was that way.
    Unchanged,
    /// The standard's setter steps refused the value; the URL is unchanged.
    Refused,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    Set(Component, String),
    Append { name: String, value: String },
    Remove(Profile),
}

/// One edit; see the module docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    kind: Kind,
    /// The spec it was made from, for messages.
    spec: String,
}

/// Why an edit's spec was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditError {
    /// The spec as given.
    pub spec: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid edit {:?}: {}", self.spec, self.reason)
    }
}

impl std::error::Error for EditError {}

impl Edit {
    /// `COMPONENT=VALUE`: set a component (see [`Component`]) to VALUE,
    /// which may be empty (`port=`, `search=` and `hash=` remove theirs).
    pub fn set(spec: &str) -> Result<Edit, EditError> {
        let error = |reason: String| EditError {
            spec: spec.to_string(),
            reason,
        };
        let (name, value) = spec
            .split_once('=')
            .ok_or_else(|| error("expected COMPONENT=VALUE".into()))?;
        let component = Component::from_name(name).ok_or_else(|| {
            let names: Vec<_> = Component::ALL.iter().map(|c| c.name()).collect();
            error(format!(
                "unknown component {name:?} (one of {})",
                names.join(", ")
            ))
        })?;
        Ok(Edit::set_component(component, value))
    }

    /// Set `component` to `value`.
    pub fn set_component(component: Component, value: &str) -> Edit {
        Edit {
            spec: format!("{}={value}", component.name()),
            kind: Kind::Set(component, value.to_string()),
        }
    }

    /// `NAME=VALUE` (or `NAME`, for an empty value): append the pair to
    /// the query, encoded as `URLSearchParams.append` encodes it; the rest
    /// of the query keeps its bytes (unlike `URLSearchParams`, which
    /// re-serializes every pair).
    pub fn append_param(spec: &str) -> Result<Edit, EditError> {
        let (name, value) = spec.split_once('=').unwrap_or((spec, ""));
        if name.is_empty() {
            return Err(EditError {
                spec: spec.to_string(),
                reason: "expected NAME=VALUE with a name".into(),
            });
        }
        Ok(Edit {
            kind: Kind::Append {
                name: name.to_string(),
                value: value.to_string(),
            },
            spec: spec.to_string(),
        })
    }

    /// Remove every query pair whose name matches one of `globs`, with the
    /// rules of [`Profile::strip_params`] (`*`, `?`, ASCII
    /// case-insensitive, the name as written); a query left empty loses
    /// its `?`.
    pub fn remove_params<I, S>(globs: I) -> Result<Edit, EditError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let globs: Vec<String> = globs.into_iter().map(|g| g.as_ref().to_string()).collect();
        let spec = globs.join(",");
        let profile = Profile::new().strip_params(&globs).map_err(|e| EditError {
            spec: spec.clone(),
            reason: e.to_string(),
        })?;
        if globs.is_empty() {
            return Err(EditError {
                spec,
                reason: "no parameter glob".into(),
            });
        }
        Ok(Edit {
            kind: Kind::Remove(profile),
            spec,
        })
    }

    /// Applies the edit to `url`.
    pub fn apply(&self, url: &mut Url) -> Outcome {
        let before = url.href().to_string();
        let accepted = match &self.kind {
            Kind::Set(component, value) => set(url, *component, value),
            Kind::Append { name, value } => {
                append(url, name, value);
                true
            }
            Kind::Remove(profile) => {
                remove(url, profile);
                true
            }
        };
        if url.href() != before {
            Outcome::Changed
        } else if accepted {
            Outcome::Unchanged
        } else {
            Outcome::Refused
        }
    }
}

impl fmt::Display for Edit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Set(..) => write!(f, "set {}", self.spec),
            Kind::Append { .. } => write!(f, "append-param {}", self.spec),
            Kind::Remove(_) => write!(f, "remove-param {}", self.spec),
        }
    }
}

/// How a list of edits went on one URL.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// Edits that changed the URL.
    pub changed: usize,
    /// Edits that found the URL already so.
    pub unchanged: usize,
    /// Edits the standard refused.
    pub refused: usize,
}

/// Applies `edits` to `url` in order and counts their outcomes.
pub fn apply_all(edits: &[Edit], url: &mut Url) -> Applied {
    let mut applied = Applied::default();
    for edit in edits {
        match edit.apply(url) {
            Outcome::Changed => applied.changed += 1,
            Outcome::Unchanged => applied.unchanged += 1,
            Outcome::Refused => applied.refused += 1,
        }
    }
    applied
}

/// Runs the setter; false when its steps refused the value.
fn set(url: &mut Url, component: Component, value: &str) -> bool {
    match component {
        Component::Protocol => url.try_set_protocol(value),
        Component::Username => url.try_set_username(value),
        Component::Password => url.try_set_password(value),
        Component::Host => url.try_set_host(value),
        Component::Hostname => url.try_set_hostname(value),
        Component::Port => url.try_set_port(value),
        Component::Pathname => url.try_set_pathname(value),
        // These setters take every value.
        Component::Search => {
            url.set_search(value);
            true
        }
        Component::Hash => {
            url.set_hash(value);
            true
        }
    }
}

fn append(url: &mut Url, name: &str, value: &str) {
    let mut query = match url.query() {
        Some(q) if !q.is_empty() => format!("{q}&"),
        _ => String::new(),
    };
    form::byte_serialize_into(name, &mut query);
    query.push('=');
    form::byte_serialize_into(value, &mut query);
    url.set_query_serialized(Some(&query));
}

fn remove(url: &mut Url, strip: &Profile) {
    let Some(query) = url.query() else {
        return;
    };
    if !profile::pairs(query).any(|p| strip.stripped(profile::name_of(p))) {
        return;
    }
    let kept: Vec<&[u8]> = profile::pairs(query)
        .filter(|p| !strip.stripped(profile::name_of(p)))
        .collect();
    let kept = String::from_utf8(kept.join(&b'&')).expect("cut at ASCII '&'");
    url.set_query_serialized((!kept.is_empty()).then_some(kept.as_str()));
}

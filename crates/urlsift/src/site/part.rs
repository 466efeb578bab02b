//! The site fields as one table: their names (as `urlsift extract
//! --fields` and Python take them) and which part of a host each is.

use super::Parts;

/// A part of a host the Public Suffix List tells apart.
///
/// ```
/// use urlsift::site::{List, Part};
///
/// let list = List::builtin();
/// let parts = list.parts("news.bbc.co.uk").unwrap();
/// let values: Vec<_> = Part::ALL.iter().map(|p| p.of(&parts)).collect();
/// assert_eq!(values, [Some("bbc.co.uk"), Some("co.uk"), Some("news"), Some("bbc")]);
/// assert_eq!(Part::named("public_suffix"), Some(Part::PublicSuffix));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// The registrable domain (eTLD+1): `site`.
    Site,
    /// The public suffix (eTLD): `public_suffix`.
    PublicSuffix,
    /// What precedes the site in the host: `subdomain`.
    Subdomain,
    /// The label before the public suffix (tldextract's `domain`).
    Domain,
}

impl Part {
    /// Every part, in the order above.
    pub const ALL: [Part; 4] = [
        Part::Site,
        Part::PublicSuffix,
        Part::Subdomain,
        Part::Domain,
    ];

    /// The part's field name.
    pub fn name(self) -> &'static str {
        match self {
            Part::Site => "site",
            Part::PublicSuffix => "public_suffix",
            Part::Subdomain => "subdomain",
            Part::Domain => "domain",
        }
    }

    /// The part named `name`.
    pub fn named(name: &str) -> Option<Part> {
        Part::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The part of `parts`; `None` where the host has none (no site for a
    /// public suffix alone, no subdomain for a site).
    pub fn of<'a>(self, parts: &Parts<'a>) -> Option<&'a str> {
        match self {
            Part::Site => parts.registrable_domain(),
            Part::PublicSuffix => Some(parts.public_suffix()),
            Part::Subdomain => parts.subdomain(),
            Part::Domain => parts.domain(),
        }
    }
}

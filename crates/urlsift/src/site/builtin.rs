//! The compiled-in list: the [`psl`] crate, which compiles the Public
//! Suffix List into Rust `match` code and is republished whenever the
//! upstream list changes (see the module docs of [`super`] for why it is
//! the source, and `tests/sites.rs` for the proof that it answers as our
//! own [`Table`](super::table::Table) does on the same rules).

use psl::{Psl, Type};

use super::name::Shape;
use super::{Match, Section};

/// The `psl` crate version compiled in (checked against `Cargo.lock` by
/// `tests/sites.rs`, so it cannot go stale silently).
pub(crate) const PSL_VERSION: &str = "2.1.247";

/// Finds the prevailing rule for `name` (checked, lowercase, without
/// trailing dot) in the compiled-in list.
#[inline]
pub(crate) fn find(name: &[u8], shape: Shape, include_private: bool) -> Match {
    let labels = || shape.labels(name);
    let info = psl::List.find(labels());
    if include_private || info.typ != Some(Type::Private) {
        return to_match(name, info.len, info.typ);
    }
    // ICANN rules only: the compiled code reports the longest match over
    // all rules, so when that is a private rule, look again within the
    // labels to the right of it, until the match is not private. (A
    // private rule and an ICANN wildcard matching the same labels would
    // defeat this; the list has none, which `tests/sites.rs` checks by
    // comparing with a `Table` of the same rules in both modes.)
    let mut info = info;
    loop {
        let suffix_labels = name[name.len() - info.len..]
            .iter()
            .filter(|&&b| b == b'.')
            .count()
            + 1;
        if suffix_labels == 1 {
            // No ICANN rule covers even the last label: the implicit rule.
            let last = labels().next().map_or(0, <[u8]>::len);
            return to_match(name, last, None);
        }
        info = psl::List.find(labels().take(suffix_labels - 1));
        if info.typ != Some(Type::Private) {
            return to_match(name, info.len, info.typ);
        }
    }
}

#[inline]
fn to_match(name: &[u8], len: usize, typ: Option<Type>) -> Match {
    Match {
        start: name.len() - len,
        section: typ.map(|t| match t {
            Type::Icann => Section::Icann,
            Type::Private => Section::Private,
        }),
    }
}

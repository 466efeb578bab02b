//! A format as a command line asks for it: one of the formats, or `auto`.

use super::Kind;

/// A format as a command line asks for it: one of [`Kind`], or `auto`
/// (`None`: by the file's name and first bytes, as
/// [`Spec::kind_for`](super::Spec::kind_for) picks). With the crate's
/// `clap` feature it is a `clap::ValueEnum` whose values are
/// [`Choice::name`]s, each with its [`Choice::about`] as help.
///
/// ```
/// use urlsift_records::format::{Choice, Kind};
///
/// assert_eq!(Choice::named("auto"), Some(Choice(None)));
/// assert_eq!(Choice::named("csv"), Some(Choice(Some(Kind::Csv))));
/// assert_eq!(Choice::ALL.len(), Kind::ALL.len() + 1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Choice(pub Option<Kind>);

impl Choice {
    /// `auto` and every format, in the order `--help` lists them.
    pub const ALL: [Choice; Kind::ALL.len() + 1] = {
        let mut all = [Choice(None); Kind::ALL.len() + 1];
        let mut i = 0;
        while i < Kind::ALL.len() {
            all[i + 1] = Choice(Some(Kind::ALL[i]));
            i += 1;
        }
        all
    };

    /// Its name: `auto`, or the format's ([`Kind::name`]).
    pub fn name(self) -> &'static str {
        self.0.map_or("auto", Kind::name)
    }

    /// The choice named `name`.
    pub fn named(name: &str) -> Option<Choice> {
        Choice::ALL.into_iter().find(|c| c.name() == name)
    }

    /// What it means, in a line (`--help`'s).
    pub fn about(self) -> &'static str {
        match self.0 {
            None => {
                "By file extension (after .gz/.zst; a .log file by its first lines); `lines` \
                 otherwise and for stdin"
            }
            Some(kind) => kind.about(),
        }
    }
}

#[cfg(feature = "clap")]
impl clap::ValueEnum for Choice {
    fn value_variants<'a>() -> &'a [Self] {
        &Choice::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()).help(self.about()))
    }
}

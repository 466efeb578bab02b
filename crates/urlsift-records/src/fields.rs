//! The fields `extract` prints (and a Python reader will give as
//! columns): the URL getters, the site fields from the Public Suffix List,
//! the record's line and raw URL, and `@NAME`, any other field of the
//! input record (a CSV column, a JSON key or dotted path, a WARC header, a
//! log field).
//!
//! ```
//! use urlsift_records::fields::{Context, Field};
//! use urlsift_records::format::{Format, Rec, Shape};
//! use urlsift::site::List;
//!
//! let data = b"https://news.bbc.co.uk:8080/a?b";
//! let rec = Rec { data, start: 0, end: data.len(), next: data.len(), line: 1, offset: 0, field: (0, data.len()), shape: Shape::Line };
//! let url = urlsift::Url::parse("https://news.bbc.co.uk:8080/a?b")?;
//! let list = List::builtin();
//! let cx = Context { format: &Format::Lines, list: &list, rows: None, canonical: None, matching: None };
//! let value = |name: &str| Field::parse(name).unwrap().value(&url, "", &rec, &cx).into_owned();
//! assert_eq!((value("hostname"), value("port"), value("site")), ("news.bbc.co.uk".into(), "8080".into(), "bbc.co.uk".into()));
//! assert!(Field::parse("nope").is_err());
//! # Ok::<(), urlsift::ParseError>(())
//! ```

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};

use urlsift::site::{List, Part};
use urlsift::{Getter, Url};

use super::chunk::Chunk;
use super::dedup::{PatternKeyOptions, write_pattern_key};
use super::format::{Format, Rec};
use super::setting::SettingError;

/// One field of a URL's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Field {
    /// `@NAME`: a field of the input record.
    Record(String),
    /// The line where the record starts (0 where lines are not counted).
    Line,
    /// The URL field as read, before parsing.
    Input,
    /// A URL getter ([`Getter`]: `href`, `protocol`, ..., `origin`).
    Url(Getter),
    /// A site field ([`Part`]: `site`, `public_suffix`, `subdomain`,
    /// `domain`), from the Public Suffix List.
    Site(Part),
    /// The SURT key web archives index by ([`urlsift::surt`]).
    Surt,
    /// urlcanon's SSURT form (`normalize --surt=ssurt`,
    /// [`urlsift::profile::SurtForm::Ssurt`]); with a urlcanon form as
    /// [`Context::canonical`], urlcanon's SSURT of that form of the input
    /// text (empty where urlcanon refuses it).
    Ssurt,
    /// The URL in the run's canonical form ([`Context::canonical`]: the
    /// command's `extract --canonical FORM`); a form read from the raw
    /// text (`w3lib`) is of the input text, and empty where the form's
    /// tool refuses it.
    Canonical,
    /// `true` when the public suffix came from the list's private section
    /// (`github.io`), `false` from its ICANN section or the implicit rule.
    IsPrivate,
    /// The host-suffix / path-prefix expressions Google Safe Browsing
    /// looks the URL up by ([`urlsift::safe_browsing::expressions`]),
    /// space-separated (they hold no space).
    SbExpressions,
    /// The key `dedup --key pattern` groups URLs by: host, path with
    /// numeric, hex and UUID segments collapsed, sorted parameter names
    /// (`e.com/user/{n}?id&tab`; see [`write_pattern_key`]); the whole href
    /// for a URL without a host.
    Pattern(PatternKeyOptions),
    /// The `--match-file` line of the first URL pattern the URL matches
    /// ([`Context::matching`]); empty when a `--match` flag's pattern did.
    MatchLine,
    /// `match:NAME` (held whole): the group `NAME` of the first URL
    /// pattern the URL matches (`match:id` of `/products/:id`, `match:0`
    /// of a `*`), from the first component, in URL order, where it
    /// matched a non-empty value.
    Match(String),
}

/// The fields besides the getters and site parts, before and after them
/// in the list of names.
const BEFORE: [(&str, Field); 2] = [("line", Field::Line), ("input", Field::Input)];
const AFTER: [(&str, Field); 7] = [
    ("surt", Field::Surt),
    ("ssurt", Field::Ssurt),
    ("canonical", Field::Canonical),
    ("is_private", Field::IsPrivate),
    ("sb_expressions", Field::SbExpressions),
    (
        "pattern",
        Field::Pattern(PatternKeyOptions {
            scheme: false,
            ignore_trailing_slash: false,
            exact_path: false,
        }),
    ),
    ("match_line", Field::MatchLine),
];

/// Every field's name, in order: `line`, `input`, the getters, the site
/// parts, `surt`, `is_private`, `sb_expressions`, `pattern`.
fn names() -> impl Iterator<Item = &'static str> {
    let getters = Getter::NAMES.into_iter();
    let parts = Part::ALL.into_iter().map(Part::name);
    let names = |fields: &'static [(&'static str, Field)]| fields.iter().map(|(n, _)| *n);
    names(&BEFORE)
        .chain(getters)
        .chain(parts)
        .chain(names(&AFTER))
}

impl Field {
    /// The field named `name` (`hostname`, `@title`), or why there is none.
    pub fn parse(name: &str) -> Result<Field, SettingError> {
        if let Some(record) = name.strip_prefix('@') {
            if record.is_empty() {
                return Err(SettingError::RecordWithoutName);
            }
            return Ok(Field::Record(record.to_string()));
        }
        if let Some(group) = name.strip_prefix("match:") {
            if group.is_empty() {
                return Err(SettingError::MatchWithoutName);
            }
            return Ok(Field::Match(name.to_string()));
        }
        let listed = BEFORE.iter().chain(&AFTER).find(|(n, _)| *n == name);
        listed
            .map(|(_, f)| f.clone())
            .or_else(|| Getter::named(name).map(Field::Url))
            .or_else(|| Part::named(name).map(Field::Site))
            .ok_or_else(|| {
                let known: Vec<&str> = names().collect();
                SettingError::UnknownField {
                    name: name.to_string(),
                    known: known.join(", "),
                }
            })
    }

    /// The field's name, as `parse` takes it (without `@` for a record field).
    pub fn name(&self) -> &str {
        match self {
            Field::Record(name) => name,
            Field::Url(getter) => getter.name(),
            Field::Site(part) => part.name(),
            Field::Pattern(_) => "pattern",
            Field::Match(name) => name,
            _ => {
                BEFORE
                    .iter()
                    .chain(&AFTER)
                    .find(|(_, f)| f == self)
                    .expect("listed")
                    .0
            }
        }
    }

    /// The field's value, empty where the URL has none (a site for an IP
    /// address, say).
    pub fn value<'a>(
        &self,
        url: &'a Url,
        input: &'a str,
        rec: &Rec<'a>,
        cx: &Context<'_>,
    ) -> Cow<'a, str> {
        self.value_opt(url, input, rec, cx).unwrap_or_default()
    }

    /// The field's value; `None` for a site part the URL has none of, or
    /// a record field the record lacks.
    pub fn value_opt<'a>(
        &self,
        url: &'a Url,
        input: &'a str,
        rec: &Rec<'a>,
        cx: &Context<'_>,
    ) -> Option<Cow<'a, str>> {
        let parts = || cx.list.url_parts(url);
        Some(Cow::Borrowed(match self {
            Field::Record(name) => {
                return match cx.rows {
                    Some(rows) => rows.named(rec.line, name).map(Cow::Owned),
                    None => cx.format.named(rec, name),
                };
            }
            Field::Site(part) => part.of(&parts()?)?,
            Field::SbExpressions => {
                let all = urlsift::safe_browsing::expressions(url);
                return Some(Cow::Owned(all.join(" ")));
            }
            Field::IsPrivate => match parts()?.is_private() {
                true => "true",
                false => "false",
            },
            Field::Line => return Some(Cow::Owned(rec.line.to_string())),
            Field::Url(getter) => return Some(getter.of(url)),
            Field::Surt => {
                let options = urlsift::surt::SurtOptions::default();
                return Some(Cow::Owned(urlsift::surt::key(url, &options)));
            }
            Field::Ssurt => {
                let ssurt = Some(urlsift::profile::SurtForm::Ssurt);
                // With a urlcanon form: urlcanon's SSURT of the input text.
                if let Some(profile) = cx.canonical
                    && let Some(form) = profile.clone().surt_form(ssurt).apply_text(input)
                {
                    return form.ok().map(Cow::Owned);
                }
                let plain = urlsift::profile::Profile::new().surt_form(ssurt);
                return Some(Cow::Owned(plain.apply_to_string(url)));
            }
            Field::Canonical => {
                let profile = cx.canonical?;
                return match profile.apply_text(input) {
                    Some(form) => form.ok().map(Cow::Owned),
                    None => Some(Cow::Owned(profile.apply_to_string(url))),
                };
            }
            Field::Input => input,
            Field::MatchLine => {
                let matching = cx.matching?;
                let line = matching.line(matching.first(url.view())?)?;
                return Some(Cow::Owned(line.to_string()));
            }
            Field::Match(name) => {
                let matching = cx.matching?;
                let first = matching.first(url.view())?;
                let group = name.strip_prefix("match:").unwrap_or(name);
                return matching.group(first, url.view(), group).map(Cow::Owned);
            }
            Field::Pattern(options) => {
                let mut out = Vec::new();
                write_pattern_key(url, *options, &mut out, &mut Vec::new());
                return Some(Cow::Owned(
                    String::from_utf8(out).expect("a URL's parts are UTF-8"),
                ));
            }
        }))
    }
}

/// The record fields (`@NAME`) a run asks for, and whether any record
/// had each: a name that formats with fields known up front do not have
/// is refused as a source starts ([`Spec::named`](crate::Spec::named)),
/// but JSON keys, CDXJ keys and WARC headers vary by record, so a name
/// no record had is told after the run ([`Asked::unseen`]).
///
/// ```
/// use urlsift_records::fields::{Asked, Field};
///
/// let fields = [Field::parse("href")?, Field::parse("@title")?, Field::parse("@lang")?];
/// let asked = Asked::of(&fields);
/// assert_eq!(asked.names(), ["title", "lang"]);
/// asked.saw(&fields[1], true);
/// asked.saw(&fields[2], false);
/// assert_eq!(asked.unseen(), ["lang"]);
/// # Ok::<(), urlsift_records::SettingError>(())
/// ```
#[derive(Debug, Default)]
pub struct Asked {
    names: Vec<String>,
    seen: Vec<AtomicBool>,
}

impl Asked {
    /// The `@NAME` fields among `fields`, each once.
    pub fn of<'f>(fields: impl IntoIterator<Item = &'f Field>) -> Asked {
        let mut names: Vec<String> = Vec::new();
        for f in fields {
            if let Field::Record(name) = f
                && !names.contains(name)
            {
                names.push(name.clone());
            }
        }
        let seen = names.iter().map(|_| AtomicBool::new(false)).collect();
        Asked { names, seen }
    }

    /// The names asked for, without `@`.
    pub fn names(&self) -> Vec<String> {
        self.names.clone()
    }

    /// Notes that a record had `field` (`had`: its value was not
    /// `None`); other fields are passed over. Cheap from any thread.
    pub fn saw(&self, field: &Field, had: bool) {
        let Field::Record(name) = field else { return };
        if !had {
            return;
        }
        if let Some(i) = self.names.iter().position(|n| n == name)
            && !self.seen[i].load(Ordering::Relaxed)
        {
            self.seen[i].store(true, Ordering::Relaxed);
        }
    }

    /// The names no record had.
    pub fn unseen(&self) -> Vec<&str> {
        self.names
            .iter()
            .zip(&self.seen)
            .filter(|(_, s)| !s.load(Ordering::Relaxed))
            .map(|(n, _)| n.as_str())
            .collect()
    }
}

/// What field values are read with besides the URL.
pub struct Context<'a> {
    /// The record's format, for `@NAME` fields.
    pub format: &'a Format,
    /// The Public Suffix List, for the site fields.
    pub list: &'a List,
    /// Fields the record's chunk holds outside its bytes (a Parquet row's
    /// other columns), for `@NAME` fields.
    pub rows: Option<&'a dyn RowFields>,
    /// The profile of the `canonical` field, if the run has one.
    pub canonical: Option<&'a urlsift::profile::Profile>,
    /// The URL patterns of the `match_line` and `match:NAME` fields (the
    /// stage's `--match`, `--match-file`), if the run has them.
    pub matching: Option<&'a urlsift::stage::Matching>,
}

impl<'a> Context<'a> {
    /// The context of `chunk`'s records, sites from `list`.
    pub fn of(chunk: &'a Chunk, list: &'a List) -> Context<'a> {
        #[cfg(feature = "parquet")]
        let rows = chunk.rows().map(|r| r as &dyn RowFields);
        #[cfg(not(feature = "parquet"))]
        let rows = None;
        Context {
            format: &chunk.source.format,
            list,
            rows,
            canonical: None,
            matching: None,
        }
    }

    /// This context with `profile` giving the `canonical` field.
    pub fn with_canonical(mut self, profile: Option<&'a urlsift::profile::Profile>) -> Context<'a> {
        self.canonical = profile;
        self
    }

    /// This context with `matching` giving the `match_line` and
    /// `match:NAME` fields.
    pub fn with_matching(mut self, matching: Option<&'a urlsift::stage::Matching>) -> Context<'a> {
        self.matching = matching;
        self
    }
}

/// A record's fields that live outside its bytes: a Parquet row's other
/// columns, in its chunk's Arrow batch.
pub trait RowFields {
    /// Field `name` of the record at `line`, as text; `None` where it is
    /// null or there is no such field.
    fn named(&self, line: u64, name: &str) -> Option<String>;
}

#[cfg(feature = "parquet")]
impl RowFields for super::format::parquet::Rows {
    fn named(&self, line: u64, name: &str) -> Option<String> {
        super::format::parquet::Rows::named(self, line, name)
    }
}

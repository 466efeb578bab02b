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
//! let cx = Context { format: &Format::Lines, list: &list, rows: None };
//! let value = |name: &str| Field::parse(name).unwrap().value(&url, "", &rec, &cx).into_owned();
//! assert_eq!((value("hostname"), value("port"), value("site")), ("news.bbc.co.uk".into(), "8080".into(), "bbc.co.uk".into()));
//! assert!(Field::parse("nope").is_err());
//! # Ok::<(), urlsift::ParseError>(())
//! ```

use std::borrow::Cow;

use urlsift::Url;
use urlsift::site::List;

use super::chunk::Chunk;
use super::format::{Format, Rec};

/// One field of a URL's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Field {
    /// `@NAME`: a field of the input record.
    Record(String),
    /// The line where the record starts (0 where lines are not counted).
    Line,
    /// The URL field as read, before parsing.
    Input,
    /// The URL getters, as the JavaScript `URL` API names them.
    Href,
    /// `protocol`.
    Protocol,
    /// `username`.
    Username,
    /// `password`.
    Password,
    /// `host` (with the port).
    Host,
    /// `hostname`.
    Hostname,
    /// `port`.
    Port,
    /// `pathname`.
    Pathname,
    /// `search`.
    Search,
    /// `hash`.
    Hash,
    /// `origin`.
    Origin,
    /// The registrable domain (eTLD+1), from the Public Suffix List.
    Site,
    /// The public suffix (eTLD), from the Public Suffix List.
    PublicSuffix,
    /// What precedes the site in the host.
    Subdomain,
    /// The label before the public suffix (tldextract's `domain`).
    Domain,
    /// The SURT key web archives index by ([`urlsift::surt`]).
    Surt,
    /// `true` when the public suffix came from the list's private section
    /// (`github.io`), `false` from its ICANN section or the implicit rule.
    IsPrivate,
    /// The host-suffix / path-prefix expressions Google Safe Browsing
    /// looks the URL up by ([`urlsift::safe_browsing::expressions`]),
    /// space-separated (they hold no space).
    SbExpressions,
}

const FIELDS: &[(&str, Field)] = &[
    ("line", Field::Line),
    ("input", Field::Input),
    ("href", Field::Href),
    ("protocol", Field::Protocol),
    ("username", Field::Username),
    ("password", Field::Password),
    ("host", Field::Host),
    ("hostname", Field::Hostname),
    ("port", Field::Port),
    ("pathname", Field::Pathname),
    ("search", Field::Search),
    ("hash", Field::Hash),
    ("origin", Field::Origin),
    ("site", Field::Site),
    ("public_suffix", Field::PublicSuffix),
    ("subdomain", Field::Subdomain),
    ("domain", Field::Domain),
    ("surt", Field::Surt),
    ("is_private", Field::IsPrivate),
    ("sb_expressions", Field::SbExpressions),
];

impl Field {
    /// The field named `name` (`hostname`, `@title`), or why there is none.
    pub fn parse(name: &str) -> Result<Field, String> {
        if let Some(record) = name.strip_prefix('@') {
            if record.is_empty() {
                return Err(
                    "'@' needs a field name: @NAME takes a field of the input record".into(),
                );
            }
            return Ok(Field::Record(record.to_string()));
        }
        FIELDS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| f.clone())
            .ok_or_else(|| {
                let known: Vec<&str> = FIELDS.iter().map(|(n, _)| *n).collect();
                format!(
                    "unknown field {name:?} (known: {}, and @NAME for a field of the input record)",
                    known.join(", ")
                )
            })
    }

    /// The field's name, as `parse` takes it (without `@` for a record field).
    pub fn name(&self) -> &str {
        match self {
            Field::Record(name) => name,
            _ => FIELDS.iter().find(|(_, f)| f == self).expect("listed").0,
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
            Field::Site => parts()?.registrable_domain()?,
            Field::PublicSuffix => parts()?.public_suffix(),
            Field::Subdomain => parts()?.subdomain()?,
            Field::Domain => parts()?.domain()?,
            Field::SbExpressions => {
                let all = urlsift::safe_browsing::expressions(url);
                return Some(Cow::Owned(all.join(" ")));
            }
            Field::IsPrivate => match parts()?.is_private() {
                true => "true",
                false => "false",
            },
            Field::Line => return Some(Cow::Owned(rec.line.to_string())),
            Field::Origin => return Some(Cow::Owned(url.origin().to_string())),
            Field::Surt => {
                let options = urlsift::surt::SurtOptions::default();
                return Some(Cow::Owned(urlsift::surt::key(url, &options)));
            }
            Field::Input => input,
            Field::Href => url.href(),
            Field::Protocol => url.protocol(),
            Field::Username => url.username(),
            Field::Password => url.password(),
            Field::Host => url.host(),
            Field::Hostname => url.hostname(),
            Field::Port => url.port(),
            Field::Pathname => url.pathname(),
            Field::Search => url.search(),
            Field::Hash => url.hash(),
        }))
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
}

impl<'a> Context<'a> {
    /// The context of `chunk`'s records, sites from `list`.
    pub fn of(chunk: &'a Chunk, list: &'a List) -> Context<'a> {
        #[cfg(feature = "parquet")]
        let rows = chunk.rows.as_deref().map(|r| r as &dyn RowFields);
        #[cfg(not(feature = "parquet"))]
        let rows = None;
        Context {
            format: &chunk.source.format,
            list,
            rows,
        }
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

//! The URL stage between parsing and the operation: edits (trurl-style,
//! through the library's setters), then filters (keep or drop by site,
//! host suffix, scheme, path extension, query parameter).
//!
//! A filtered-out URL is valid but not kept: it is counted ([`Counts`];
//! the record engine's tally counts it as `filtered`). An edit the
//! standard refuses (a port on a `file:` URL, say) leaves the URL as it
//! was and is counted too (`edits_refused`).
//!
//! ```
//! use urlsift::Url;
//! use urlsift::stage::{Counted, Edits, Filters, Stage, Verdict};
//! use urlsift::site::List;
//!
//! let filters = Filters { site: vec!["bbc.co.uk".into()], not_ext: vec!["jpg".into()], ..Filters::default() };
//! let edits = Edits { set: vec!["protocol=https".into()], ..Edits::default() };
//! let stage = Stage::new(List::builtin(), &filters, &edits)?;
//! let mut tally = Counted::default();
//! let mut url = Url::parse("http://news.bbc.co.uk/a.html")?;
//! assert_eq!(stage.apply(&mut url, &mut tally), Verdict::Keep);
//! assert_eq!(url.href(), "https://news.bbc.co.uk/a.html");
//! let mut pic = Url::parse("http://news.bbc.co.uk/a.JPG")?;
//! assert_eq!(stage.apply(&mut pic, &mut tally), Verdict::Drop);
//! assert_eq!(tally.filtered, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::PathBuf;

use crate::edit::{Edit, Outcome};
use crate::profile::ParamGlob;
use crate::site::{List, SuffixSet};
use crate::{Url, UrlRef};

/// What the stage counts as it goes: a URL filtered out, an edit the
/// standard refused. The record engine's tally is one; [`Counted`] is the
/// plain one.
pub trait Counts {
    /// One URL filtered out.
    fn filtered(&mut self);
    /// One edit the standard refused (the URL was left as it was).
    fn edit_refused(&mut self);
}

/// The stage's counts, and nothing else.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counted {
    /// URLs filtered out.
    pub filtered: u64,
    /// Edits the standard refused.
    pub edits_refused: u64,
}

impl Counts for Counted {
    fn filtered(&mut self) {
        self.filtered += 1;
    }

    fn edit_refused(&mut self) {
        self.edits_refused += 1;
    }
}

/// Which records are kept, as the command's flags of the same names give
/// them: each list holds comma-separated values (`"bbc.co.uk,github.io"`),
/// and may hold several.
#[derive(Clone, Debug, Default)]
pub struct Filters {
    /// Keep only URLs whose site (registrable domain) is one of these.
    pub site: Vec<String>,
    /// Keep only URLs whose host is one of these or ends with `.` and one.
    pub host_suffix: Vec<String>,
    /// Keep only URLs whose site or host suffix is a line of this file.
    pub site_file: Option<PathBuf>,
    /// Drop URLs whose site is one of these.
    pub not_site: Vec<String>,
    /// Drop URLs whose host is one of these or ends with `.` and one.
    pub not_host_suffix: Vec<String>,
    /// Drop URLs whose site or host suffix is a line of this file.
    pub not_site_file: Option<PathBuf>,
    /// Keep only these schemes.
    pub scheme: Vec<String>,
    /// Keep only paths whose last segment has one of these extensions.
    pub ext: Vec<String>,
    /// Drop paths whose last segment has one of these extensions.
    pub not_ext: Vec<String>,
    /// Keep only URLs with a query parameter whose name matches one of
    /// these globs (`*`, `?`; ASCII case-insensitive).
    pub has_param: Vec<String>,
    /// Drop URLs with a query parameter whose name matches one of these.
    pub lacks_param: Vec<String>,
    /// Keep only URLs that match one of these URL patterns (constructor
    /// strings such as `https://*.example.com/:id`; never comma-split).
    #[cfg(feature = "urlpattern")]
    pub matches: Vec<String>,
    /// Keep only URLs that match a pattern of this file (one per line;
    /// blank lines and `#` comments skipped), after [`Filters::matches`].
    #[cfg(feature = "urlpattern")]
    pub match_file: Option<PathBuf>,
    /// Drop URLs that match one of these URL patterns.
    #[cfg(feature = "urlpattern")]
    pub not_matches: Vec<String>,
    /// Drop URLs that match a pattern of this file.
    #[cfg(feature = "urlpattern")]
    pub not_match_file: Option<PathBuf>,
    /// The base URL of relative patterns (`/docs/*`).
    #[cfg(feature = "urlpattern")]
    pub match_base: Option<String>,
    /// Match patterns' pathname, search and hash without regard to case.
    #[cfg(feature = "urlpattern")]
    pub match_ignore_case: bool,
}

/// Edits, applied before filters, keys and output, as the command's flags
/// give them.
#[derive(Clone, Debug, Default)]
pub struct Edits {
    /// `COMPONENT=VALUE` through the URL API's setter (`--set`).
    pub set: Vec<String>,
    /// `K=V` query parameters to append (`--append-param`).
    pub append_param: Vec<String>,
}

/// A filter or edit setting of a stage: a field of [`Filters`] or
/// [`Edits`], as a [`StageError`] names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StageSetting {
    /// [`Edits::set`].
    Set,
    /// [`Edits::append_param`].
    AppendParam,
    /// [`Filters::site`].
    Site,
    /// [`Filters::host_suffix`].
    HostSuffix,
    /// [`Filters::site_file`].
    SiteFile,
    /// [`Filters::not_site`].
    NotSite,
    /// [`Filters::not_host_suffix`].
    NotHostSuffix,
    /// [`Filters::not_site_file`].
    NotSiteFile,
    /// `Filters::matches` (feature `urlpattern`).
    Match,
    /// `Filters::match_file`.
    MatchFile,
    /// `Filters::not_matches`.
    NotMatch,
    /// `Filters::not_match_file`.
    NotMatchFile,
    /// `Filters::match_base`.
    MatchBase,
    /// `Filters::match_ignore_case`.
    MatchIgnoreCase,
}

impl StageSetting {
    /// The field's name in [`Filters`] or [`Edits`].
    pub fn key(self) -> &'static str {
        match self {
            StageSetting::Set => "set",
            StageSetting::AppendParam => "append_param",
            StageSetting::Site => "site",
            StageSetting::HostSuffix => "host_suffix",
            StageSetting::SiteFile => "site_file",
            StageSetting::NotSite => "not_site",
            StageSetting::NotHostSuffix => "not_host_suffix",
            StageSetting::NotSiteFile => "not_site_file",
            StageSetting::Match => "matches",
            StageSetting::MatchFile => "match_file",
            StageSetting::NotMatch => "not_matches",
            StageSetting::NotMatchFile => "not_match_file",
            StageSetting::MatchBase => "match_base",
            StageSetting::MatchIgnoreCase => "match_ignore_case",
        }
    }
}

/// Why a stage cannot be made from its settings: a value of a setting
/// that cannot be used, or pattern options without patterns. The message
/// names each setting as its caller does ([`StageError::message`]: the
/// command its flags); its `Display` names them by their keys.
///
/// ```
/// use urlsift::site::List;
/// use urlsift::stage::{Edits, Filters, Stage, StageSetting};
///
/// let edits = Edits { set: vec!["nothing".into()], ..Edits::default() };
/// let e = Stage::new(List::builtin(), &Filters::default(), &edits).err().unwrap();
/// assert!(e.to_string().starts_with("`set` \"nothing\": "));
/// let flag = |s: StageSetting| format!("--{}", s.key().replace('_', "-"));
/// assert!(e.message(&flag).starts_with("--set \"nothing\": "));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StageError {
    /// A value of `setting` that cannot be used: `detail` follows the
    /// setting's name (` "VALUE": why`, ` FILE:LINE: why`, `: why`).
    Value {
        /// The setting.
        setting: StageSetting,
        /// The rest of the message, after the setting's name.
        detail: String,
    },
    /// A pattern base or case option without any pattern.
    OptionsWithoutPatterns,
}

impl StageError {
    fn value(setting: StageSetting, detail: String) -> StageError {
        StageError::Value { setting, detail }
    }

    /// The message, each setting named by `name`.
    pub fn message(&self, name: &dyn Fn(StageSetting) -> String) -> String {
        match self {
            StageError::Value { setting, detail } => format!("{}{detail}", name(*setting)),
            StageError::OptionsWithoutPatterns => format!(
                "{} and {} apply to URL patterns: give {}, {}, {} or {} too",
                name(StageSetting::MatchBase),
                name(StageSetting::MatchIgnoreCase),
                name(StageSetting::Match),
                name(StageSetting::MatchFile),
                name(StageSetting::NotMatch),
                name(StageSetting::NotMatchFile)
            ),
        }
    }
}

impl std::fmt::Display for StageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(&|s: StageSetting| format!("`{}`", s.key())))
    }
}

impl std::error::Error for StageError {}

/// Splits repeatable, comma-separated values.
fn items(values: &[String]) -> impl Iterator<Item = &str> {
    values
        .iter()
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// A set of sites or host suffixes from flags and a file.
fn set_of(
    values: &[String],
    file: Option<&PathBuf>,
    setting: StageSetting,
) -> Result<SuffixSet, StageError> {
    let mut set = match file {
        Some(path) => SuffixSet::from_file(path)
            .map_err(|e| StageError::value(setting, format!(" {}: {e}", path.display())))?,
        None => SuffixSet::new(),
    };
    for v in items(values) {
        set.insert(&v.to_ascii_lowercase())
            .map_err(|e| StageError::value(setting, format!(" {v:?}: {e}")))?;
    }
    Ok(set)
}

/// What a record's URL goes through between parsing and the operation.
pub struct Stage {
    /// The Public Suffix List the site filters use (and the operations'
    /// site fields and keys).
    pub list: List,
    edits: Vec<Edit>,
    sites: Option<SuffixSet>,
    host_suffixes: Option<SuffixSet>,
    site_file: Option<SuffixSet>,
    not_sites: Option<SuffixSet>,
    not_host_suffixes: Option<SuffixSet>,
    not_site_file: Option<SuffixSet>,
    schemes: Vec<String>,
    ext: Vec<String>,
    not_ext: Vec<String>,
    has_param: Vec<ParamGlob>,
    lacks_param: Vec<ParamGlob>,
    #[cfg(feature = "urlpattern")]
    matching: Option<Matching>,
    #[cfg(feature = "urlpattern")]
    not_matching: Option<Matching>,
    /// Whether any filter above is set (decided once: it is asked per URL).
    any_filter: bool,
}

/// What the stage did with one URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Kept.
    Keep,
    /// Filtered out.
    Drop,
}

impl Stage {
    /// The stage of `filters` and `edits`, sites judged by `list`; an
    /// error names the setting whose value is unusable and why.
    pub fn new(list: List, filters: &Filters, edits: &Edits) -> Result<Stage, StageError> {
        let f = filters;
        let opt = |set: SuffixSet| (!set.is_empty()).then_some(set);
        let mut all_edits = Vec::new();
        for spec in &edits.set {
            all_edits
                .push(Edit::set(spec).map_err(|e| {
                    StageError::value(StageSetting::Set, format!(" {spec:?}: {e}"))
                })?);
        }
        for spec in &edits.append_param {
            all_edits.push(Edit::append_param(spec).map_err(|e| {
                StageError::value(StageSetting::AppendParam, format!(" {spec:?}: {e}"))
            })?);
        }
        let lower =
            |v: &[String]| -> Vec<String> { items(v).map(str::to_ascii_lowercase).collect() };
        let ext = |v: &[String]| -> Vec<String> {
            items(v)
                .map(|e| e.trim_start_matches('.').to_ascii_lowercase())
                .collect()
        };
        #[cfg(feature = "urlpattern")]
        {
            let no_patterns = f.matches.is_empty()
                && f.match_file.is_none()
                && f.not_matches.is_empty()
                && f.not_match_file.is_none();
            if no_patterns && (f.match_base.is_some() || f.match_ignore_case) {
                return Err(StageError::OptionsWithoutPatterns);
            }
        }
        let mut stage = Stage {
            list,
            edits: all_edits,
            sites: opt(set_of(&f.site, None, StageSetting::Site)?),
            host_suffixes: opt(set_of(&f.host_suffix, None, StageSetting::HostSuffix)?),
            site_file: match &f.site_file {
                Some(p) => Some(set_of(&[], Some(p), StageSetting::SiteFile)?),
                None => None,
            },
            not_sites: opt(set_of(&f.not_site, None, StageSetting::NotSite)?),
            not_host_suffixes: opt(set_of(
                &f.not_host_suffix,
                None,
                StageSetting::NotHostSuffix,
            )?),
            not_site_file: match &f.not_site_file {
                Some(p) => Some(set_of(&[], Some(p), StageSetting::NotSiteFile)?),
                None => None,
            },
            schemes: lower(&f.scheme)
                .into_iter()
                .map(|s| s.trim_end_matches(':').to_string())
                .collect(),
            ext: ext(&f.ext),
            not_ext: ext(&f.not_ext),
            has_param: items(&f.has_param).map(ParamGlob::new).collect(),
            lacks_param: items(&f.lacks_param).map(ParamGlob::new).collect(),
            #[cfg(feature = "urlpattern")]
            matching: Matching::of(
                f,
                &f.matches,
                f.match_file.as_ref(),
                [StageSetting::Match, StageSetting::MatchFile],
            )?,
            #[cfg(feature = "urlpattern")]
            not_matching: Matching::of(
                f,
                &f.not_matches,
                f.not_match_file.as_ref(),
                [StageSetting::NotMatch, StageSetting::NotMatchFile],
            )?,
            any_filter: false,
        };
        stage.any_filter = stage.sites.is_some()
            || stage.host_suffixes.is_some()
            || stage.site_file.is_some()
            || stage.not_sites.is_some()
            || stage.not_host_suffixes.is_some()
            || stage.not_site_file.is_some()
            || !stage.schemes.is_empty()
            || !stage.ext.is_empty()
            || !stage.not_ext.is_empty()
            || !stage.has_param.is_empty()
            || !stage.lacks_param.is_empty();
        #[cfg(feature = "urlpattern")]
        {
            stage.any_filter |= stage.matching.is_some() || stage.not_matching.is_some();
        }
        Ok(stage)
    }

    /// Whether any edit is set (edits need a [`Url`] of their own; filters
    /// alone read a [`UrlRef`], see [`Stage::filter`]).
    pub fn has_edits(&self) -> bool {
        !self.edits.is_empty()
    }

    /// Whether any filter is set.
    #[inline]
    pub fn filters(&self) -> bool {
        self.any_filter
    }

    /// Edits `url`, then decides whether it is kept.
    #[inline]
    pub fn apply(&self, url: &mut Url, counts: &mut impl Counts) -> Verdict {
        if !self.edits.is_empty() {
            for edit in &self.edits {
                if edit.apply(url) == Outcome::Refused {
                    counts.edit_refused();
                }
            }
        }
        self.filter(url.view(), counts)
    }

    /// Decides whether `url` is kept, without edits (for callers that
    /// checked [`Stage::has_edits`]): what [`Stage::apply`] decides.
    #[inline]
    pub fn filter(&self, url: UrlRef<'_>, counts: &mut impl Counts) -> Verdict {
        if self.filters() && !self.keeps(url) {
            counts.filtered();
            return Verdict::Drop;
        }
        Verdict::Keep
    }

    /// The patterns URLs must match (`--match`, `--match-file`), if any:
    /// the fields that tell which pattern matched read them.
    #[cfg(feature = "urlpattern")]
    pub fn matching(&self) -> Option<&Matching> {
        self.matching.as_ref()
    }

    /// Whether `url` passes every filter.
    fn keeps(&self, url: UrlRef<'_>) -> bool {
        if !self.schemes.is_empty() && !self.schemes.iter().any(|s| s == url.scheme()) {
            return false;
        }
        let host = url.hostname();
        // A URL's site is one of a set's entries only if one of its host's
        // dot-suffixes is: that cheap test goes first, and the Public
        // Suffix List is asked only when it passes.
        let site = std::cell::OnceCell::new();
        let in_sites = |set: &Option<SuffixSet>| {
            set.as_ref().map(|s| {
                !host.is_empty()
                    && s.matches_host(host)
                    && site
                        .get_or_init(|| {
                            self.list
                                .view_parts(url)
                                .and_then(|p| p.registrable_domain())
                        })
                        .is_some_and(|x| s.contains(x))
            })
        };
        let in_hosts = |set: &Option<SuffixSet>| {
            set.as_ref()
                .map(|s| !host.is_empty() && s.matches_host(host))
        };
        if in_sites(&self.sites) == Some(false)
            || in_hosts(&self.host_suffixes) == Some(false)
            || in_hosts(&self.site_file) == Some(false)
            || in_sites(&self.not_sites) == Some(true)
            || in_hosts(&self.not_host_suffixes) == Some(true)
            || in_hosts(&self.not_site_file) == Some(true)
        {
            return false;
        }
        if !self.ext.is_empty() || !self.not_ext.is_empty() {
            let ext = extension(url);
            let is = |list: &[String]| {
                ext.is_some_and(|e| list.iter().any(|x| x.eq_ignore_ascii_case(e)))
            };
            if !self.ext.is_empty() && !is(&self.ext) {
                return false;
            }
            if is(&self.not_ext) {
                return false;
            }
        }
        if !self.has_param.is_empty() || !self.lacks_param.is_empty() {
            let has = |globs: &[ParamGlob]| {
                url.query().is_some_and(|q| {
                    q.split('&')
                        .filter(|p| !p.is_empty())
                        .map(|p| p.split_once('=').map_or(p, |(n, _)| n))
                        .any(|name| globs.iter().any(|g| g.matches(name)))
                })
            };
            if !self.has_param.is_empty() && !has(&self.has_param) {
                return false;
            }
            if !self.lacks_param.is_empty() && has(&self.lacks_param) {
                return false;
            }
        }
        #[cfg(feature = "urlpattern")]
        {
            if self
                .matching
                .as_ref()
                .is_some_and(|m| m.first(url).is_none())
                || self
                    .not_matching
                    .as_ref()
                    .is_some_and(|m| m.first(url).is_some())
            {
                return false;
            }
        }
        true
    }
}

/// URL patterns from flags and a file, in that order, and each one's line
/// in the file (`None` for a flag's).
///
/// ```
/// use urlsift::site::List;
/// use urlsift::stage::{Edits, Filters, Stage};
///
/// let filters = Filters { matches: vec!["https://*.example.com/:section/*".into()], ..Filters::default() };
/// let stage = Stage::new(List::builtin(), &filters, &Edits::default())?;
/// let url = urlsift::Url::parse("https://www.example.com/news/today").unwrap();
/// let matching = stage.matching().unwrap();
/// let first = matching.first(url.view()).unwrap();
/// assert_eq!(matching.line(first), None);
/// assert_eq!(matching.group(first, url.view(), "section").as_deref(), Some("news"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "urlpattern")]
#[derive(Clone, Debug)]
pub struct Matching {
    list: crate::pattern::PatternList,
    lines: Vec<Option<usize>>,
}

#[cfg(feature = "urlpattern")]
impl Matching {
    /// The patterns of `flags` then `file`'s lines, or `None` for none;
    /// an error names the setting (`settings`: the patterns', the file's),
    /// or the file and line, and why.
    fn of(
        f: &Filters,
        flags: &[String],
        file: Option<&PathBuf>,
        [setting, file_setting]: [StageSetting; 2],
    ) -> Result<Option<Matching>, StageError> {
        use crate::pattern::{PatternList, PatternOptions, UrlPattern};
        if flags.is_empty() && file.is_none() {
            return Ok(None);
        }
        let options = PatternOptions {
            ignore_case: f.match_ignore_case,
        };
        let base = f.match_base.as_deref();
        let mut patterns = Vec::new();
        let mut lines = Vec::new();
        for text in flags {
            let pattern = UrlPattern::parse(text, base, options)
                .map_err(|e| StageError::value(setting, format!(" {text:?}: {e}")))?;
            patterns.push(pattern);
            lines.push(None);
        }
        if let Some(path) = file {
            let where_ = format!(" {}", path.display());
            let text = std::fs::read_to_string(path)
                .map_err(|e| StageError::value(file_setting, format!("{where_}: {e}")))?;
            for (i, line) in text.lines().enumerate() {
                let line_text = line.trim();
                if line_text.is_empty() || line_text.starts_with('#') {
                    continue;
                }
                let pattern = UrlPattern::parse(line_text, base, options).map_err(|e| {
                    let detail = format!("{where_}:{}: {line_text:?}: {e}", i + 1);
                    StageError::value(file_setting, detail)
                })?;
                patterns.push(pattern);
                lines.push(Some(i + 1));
            }
            if lines.iter().all(Option::is_none) {
                let detail = format!("{where_}: no pattern in the file");
                return Err(StageError::value(file_setting, detail));
            }
        }
        let list =
            PatternList::new(patterns).map_err(|e| StageError::value(setting, format!(": {e}")))?;
        Ok(Some(Matching { list, lines }))
    }

    /// The index of the first pattern `url` matches.
    pub fn first(&self, url: UrlRef<'_>) -> Option<usize> {
        self.list.first_match(url)
    }

    /// The file line of pattern `index`; `None` for a flag's pattern.
    pub fn line(&self, index: usize) -> Option<usize> {
        self.lines.get(index).copied().flatten()
    }

    /// The value pattern `index` gives its group `name` on `url` (the
    /// first component, in URL order, where it matched a non-empty value:
    /// [`PatternMatch::group`](crate::pattern::PatternMatch::group)).
    pub fn group(&self, index: usize, url: UrlRef<'_>, name: &str) -> Option<String> {
        let found = self.list.patterns().get(index)?.exec_view(url)?;
        found.group(name).map(str::to_string)
    }
}

/// The extension of the path's last segment (`pdf` of `/a/b.PDF`), if it
/// has one; opaque paths have none.
fn extension<'a>(url: UrlRef<'a>) -> Option<&'a str> {
    url.path_segments()?.next_back().and_then(|seg| {
        let dot = seg.rfind('.')?;
        (dot + 1 < seg.len() && dot > 0).then(|| &seg[dot + 1..])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stage(f: Filters, e: Edits) -> Stage {
        Stage::new(List::builtin(), &f, &e).unwrap()
    }

    fn kept(s: &Stage, url: &str) -> Option<String> {
        let mut u = Url::parse(url).unwrap();
        let mut c = Counted::default();
        (s.apply(&mut u, &mut c) == Verdict::Keep).then(|| u.href().to_string())
    }

    #[test]
    fn filters_by_site_host_scheme_extension_and_parameters() {
        let s = stage(
            Filters {
                site: vec!["bbc.co.uk,github.io".into()],
                ..Default::default()
            },
            Edits::default(),
        );
        assert!(kept(&s, "https://news.bbc.co.uk/x").is_some());
        // a.github.io is its own site (PRIVATE section), not github.io.
        assert!(kept(&s, "https://a.github.io/").is_none());
        assert!(kept(&s, "https://co.uk/").is_none());
        let s = stage(
            Filters {
                host_suffix: vec!["example.com".into()],
                not_ext: vec!["jpg".into()],
                scheme: vec!["https".into()],
                ..Default::default()
            },
            Edits::default(),
        );
        assert!(kept(&s, "https://a.example.com/doc.pdf").is_some());
        assert!(kept(&s, "https://a.example.com/pic.JPG").is_none());
        assert!(kept(&s, "http://a.example.com/doc.pdf").is_none());
        assert!(kept(&s, "https://notexample.com/").is_none());
        let s = stage(
            Filters {
                has_param: vec!["utm_*".into()],
                lacks_param: vec!["id".into()],
                ext: vec![".html".into()],
                ..Default::default()
            },
            Edits::default(),
        );
        assert!(kept(&s, "https://e.org/a.html?UTM_source=x").is_some());
        assert!(kept(&s, "https://e.org/a.html?utm_source=x&id=1").is_none());
        assert!(kept(&s, "https://e.org/a.html?q=1").is_none());
        assert!(kept(&s, "https://e.org/html?utm_x").is_none());
    }

    #[test]
    fn edits_apply_before_filters_and_refusals_are_counted() {
        let s = stage(
            Filters {
                scheme: vec!["https".into()],
                ..Default::default()
            },
            Edits {
                set: vec!["protocol=https".into(), "port=8443".into()],
                append_param: vec!["ref=x".into()],
            },
        );
        assert_eq!(
            kept(&s, "http://e.org/a").as_deref(),
            Some("https://e.org:8443/a?ref=x")
        );
        let mut file = Url::parse("file:///etc/hosts").unwrap();
        let mut c = Counted::default();
        assert_eq!(s.apply(&mut file, &mut c), Verdict::Drop);
        assert_eq!(c.edits_refused, 2, "file: refuses a new scheme and a port");
        assert_eq!(c.filtered, 1);
    }
}

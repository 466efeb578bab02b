//! The differential: where a peer's result differs from urlsift's, the
//! differing getters, one category per line (the first differing
//! component, in URL order) and a short likely reason read from the input
//! and both results, with counts and samples per (category, reason).
//!
//! The reason is a heuristic label to group similar lines (IDNA, IPv4
//! form, percent-encoding, dot segments, ...), not a proof; when urlsift
//! rejects a line, the reason is the validation error it failed on, which
//! is exact. The standard is the judge: urlsift passes all of
//! web-platform-tests' URL data, so where the standard's behaviour is
//! known, urlsift's side is it (see [`verdict`]).

use std::collections::BTreeMap;

use urlsift::percent::percent_decode;

use crate::engines::{FIELDS, Parsed, ParserId};
use crate::finding::scheme;
pub use crate::finding::{Finding, looks_ipv4, odd_special_slashes};
use crate::meaning;

/// The categories, in the order a line's category is picked: the first
/// that applies. `host` means the hostname differs (a port alone is
/// `port`); `href` means only the href differs.
pub const CATEGORIES: [&str; 11] = [
    "validity", "protocol", "username", "password", "host", "port", "pathname", "search", "hash",
    "origin", "href",
];

/// The field index (in [`FIELDS`]) deciding each category after `validity`.
const CATEGORY_FIELD: [usize; 10] = [1, 2, 3, 5, 6, 7, 8, 9, 10, 0];

/// How `theirs` (parser `peer`) differs from `ours` for `input`: by the
/// getters for a WHATWG parser, by meaning for the others.
pub fn compare_with(
    peer: ParserId,
    input: &str,
    ours: &Parsed,
    theirs: &Parsed,
) -> Option<Finding> {
    if peer.reads_meaning() {
        meaning::compare(input, ours, theirs)
    } else {
        compare(input, ours, theirs)
    }
}

/// How `theirs` differs from `ours` (urlsift's) for `input`, or `None`.
pub fn compare(input: &str, ours: &Parsed, theirs: &Parsed) -> Option<Finding> {
    match (ours.is_ok(), theirs.is_ok()) {
        (false, false) => return None,
        (true, true) => {}
        _ => {
            return Some(Finding {
                category: "validity",
                reason: validity_reason(input, ours),
                fields: 0,
            });
        }
    }
    let mut fields = 0u16;
    for i in 0..FIELDS.len() {
        if ours.field(i) != theirs.field(i) {
            fields |= 1 << i;
        }
    }
    if fields == 0 {
        return None;
    }
    let at = CATEGORY_FIELD
        .iter()
        .position(|&f| fields & (1 << f) != 0)
        .expect("some field differs");
    let category = CATEGORIES[at + 1];
    Some(Finding {
        category,
        reason: reason(category, input, ours, theirs),
        fields,
    })
}

fn idna(input: &str, values: [&str; 2]) -> bool {
    !input.is_ascii()
        || values
            .iter()
            .chain([&input])
            .any(|v| v.to_ascii_lowercase().contains("xn--"))
}

/// The likely reason, when both parsed and the `category` field differs.
/// Checked first: an odd number of slashes after a special scheme, an
/// opaque path, then values that are equal once percent-decoded (exactly a
/// percent-encoding difference); then what the values and the input look like.
fn reason(category: &'static str, input: &str, ours: &Parsed, theirs: &Parsed) -> &'static str {
    let at = CATEGORIES.iter().position(|c| *c == category).unwrap_or(1);
    let field = CATEGORY_FIELD[at.max(1) - 1];
    let (a, b) = (ours.field(field), theirs.field(field));
    if odd_special_slashes(input) && category != "search" && category != "hash" {
        return "special-scheme slashes";
    }
    if category == "pathname" && (!a.starts_with('/') || !b.starts_with('/')) {
        return "opaque path";
    }
    if percent_decode(a.as_bytes()) == percent_decode(b.as_bytes()) {
        return "percent-encoding";
    }
    let file = scheme(input).as_deref() == Some("file");
    match category {
        "protocol" => "scheme",
        "username" | "password" => "userinfo",
        "host" => {
            if idna(input, [&a, &b]) {
                "IDNA"
            } else if a.starts_with('[') || b.starts_with('[') {
                "IPv6"
            } else if looks_ipv4(&a) || looks_ipv4(&b) {
                "IPv4 form"
            } else if file {
                "file host"
            } else {
                "host code points"
            }
        }
        "port" => "port",
        "pathname" => {
            if file && drive_letter(input) {
                "file drive letter"
            } else if dot_segments(input) {
                "path dot segments"
            } else if input.contains('\\') {
                "backslash"
            } else if file {
                "file path"
            } else {
                "path"
            }
        }
        "search" => "query",
        "hash" => "fragment",
        "origin" => "origin",
        _ => "serialization",
    }
}

/// A Windows drive letter (`C:`, `c|`) starting a path segment.
fn drive_letter(input: &str) -> bool {
    let b = input.as_bytes();
    (0..b.len()).any(|i| {
        let starts = i == 0 || matches!(b[i - 1], b'/' | b'\\' | b':');
        starts
            && b[i].is_ascii_alphabetic()
            && matches!(b.get(i + 1), Some(b':' | b'|'))
            && matches!(b.get(i + 2), None | Some(b'/' | b'\\' | b'?' | b'#'))
    })
}

fn dot_segments(input: &str) -> bool {
    let lower = input.to_ascii_lowercase();
    ["/.", "\\.", "/%2e", "\\%2e"]
        .iter()
        .any(|p| lower.contains(p))
}

/// The likely reason when only one side accepts: urlsift's validation
/// error when it is urlsift that rejects (exact), else the input's shape.
fn validity_reason(input: &str, ours: &Parsed) -> &'static str {
    match ours {
        Parsed::Invalid(e) => {
            return e.validation_error().map_or("URL-too-long", |v| v.name());
        }
        Parsed::Failed(_) => return "urlsift rejects",
        _ => {}
    }
    let host = ours.field(5);
    if odd_special_slashes(input) {
        "special-scheme slashes"
    } else if idna(input, [&host, ""]) {
        "IDNA"
    } else if host.starts_with('[') {
        "IPv6"
    } else if looks_ipv4(&host) {
        "IPv4 form"
    } else if !ours.field(6).is_empty() {
        "port"
    } else if !ours.field(7).starts_with('/') {
        "opaque path"
    } else if input.contains('%') {
        "percent-encoding"
    } else {
        "other"
    }
}

/// Who is right, as far as is known, when `peer` differs from urlsift.
pub fn verdict(peer: ParserId) -> &'static str {
    if peer.reads_meaning() {
        "another standard: RFC 3986 or the parser's own rules; a difference is \
         where a program using it reads the URL otherwise than a browser does"
    } else if peer.is_urlsift() {
        "urlsift bug: urlsift's own paths must agree (please report it)"
    } else if peer == ParserId::WhatwgUrl {
        "a urlsift bug, unless this whatwg-url release lags the standard or has a bug \
         of its own (the reference implementation is checked against the same tests)"
    } else {
        "urlsift follows the standard (it passes all of web-platform-tests)"
    }
}

/// A sample line of a group, with both sides' results.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The source (file name) the line came from.
    pub source: String,
    /// The line number in that source (1-based).
    pub line: u64,
    /// The input line.
    pub input: String,
    /// urlsift's getters (or its error) and the peer's.
    pub ours: Shown,
    /// The peer's getters (or its error).
    pub theirs: Shown,
    /// The differing getters, with urlsift's and the peer's values.
    pub fields: Vec<(&'static str, String, String)>,
}

/// One side of a sample: every getter, the parts (parsers compared by
/// meaning), or the failure message.
#[derive(Clone, Debug)]
pub enum Shown {
    /// Every getter, in [`FIELDS`] order.
    Values(Vec<String>),
    /// [`meaning::PARTS`] and the serialization.
    Parts(Vec<Option<String>>),
    /// The parser's failure message.
    Error(String),
}

impl Shown {
    /// A parser's result as the report shows it: its getters or its error.
    pub fn of(p: &Parsed) -> Shown {
        match p.error() {
            Some(e) => Shown::Error(e.into_owned()),
            None => Shown::Values((0..FIELDS.len()).map(|i| p.field(i).into_owned()).collect()),
        }
    }

    /// The parts of `p`, for a sample of a parser compared by meaning.
    pub fn parts_of(p: &Parsed) -> Shown {
        match p {
            Parsed::Urlsift(u) => Shown::Parts(meaning::values(&meaning::parts_of(u))),
            Parsed::Parts(parts) => Shown::Parts(meaning::values(parts)),
            other => Shown::of(other),
        }
    }

    /// The href, or `error: message`; for parts, the host and port, with
    /// the userinfo when there is one.
    pub fn summary(&self) -> String {
        match self {
            Shown::Values(v) => v[0].clone(),
            Shown::Parts(v) => {
                let part = |i: usize| v[i].as_deref().unwrap_or("");
                let mut s = match v[3].as_deref() {
                    Some(h) if !h.is_empty() => format!("host {h}"),
                    _ => "no host".to_string(),
                };
                if !part(4).is_empty() {
                    s.push_str(&format!(", port {}", part(4)));
                }
                let userinfo = match (part(1), part(2)) {
                    ("", "") => None,
                    (user, "") => Some(user.to_string()),
                    (user, password) => Some(format!("{user}:{password}")),
                };
                if let Some(u) = userinfo {
                    s.push_str(&format!(", userinfo {u:?}"));
                }
                s
            }
            Shown::Error(e) => format!("error: {e}"),
        }
    }

    /// As JSON: the getters by name, or `{"error": message}`.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Shown::Values(v) => FIELDS
                .iter()
                .zip(v)
                .map(|(k, v)| (k.to_string(), serde_json::Value::from(v.as_str())))
                .collect::<serde_json::Map<_, _>>()
                .into(),
            Shown::Parts(v) => meaning::PARTS
                .iter()
                .chain(&["url"])
                .zip(v)
                .map(|(k, v)| (k.to_string(), serde_json::Value::from(v.as_deref())))
                .collect::<serde_json::Map<_, _>>()
                .into(),
            Shown::Error(e) => serde_json::json!({ "error": e }),
        }
    }
}

/// Lines of one (category, reason).
#[derive(Clone, Debug)]
pub struct Group {
    /// What kind of difference (validity, href, a component).
    pub category: &'static str,
    /// Why, as the report names it.
    pub reason: &'static str,
    /// How many lines.
    pub count: u64,
    /// The first few lines, with both sides.
    pub samples: Vec<Sample>,
}

/// Everything found between urlsift and one peer.
#[derive(Clone, Debug)]
pub struct PeerDiff {
    /// The peer held to urlsift.
    pub peer: ParserId,
    /// Lines where validity or the href differs.
    pub lines: u64,
    /// Lines with the same href but a different getter.
    pub component_lines: u64,
    /// Lines urlsift accepts and the peer rejects.
    pub only_urlsift_accepts: u64,
    /// Lines the peer accepts and urlsift rejects.
    pub only_peer_accepts: u64,
    /// Lines by category.
    pub categories: BTreeMap<&'static str, u64>,
    /// Parsers compared by meaning: lines where the host or port differs
    /// (both parsed), by class ([`meaning::HOST_CLASSES`]).
    pub host_classes: BTreeMap<&'static str, u64>,
    /// Groups in order of first appearance.
    pub groups: Vec<Group>,
}

impl PeerDiff {
    /// Nothing found yet between urlsift and `peer`.
    pub fn new(peer: ParserId) -> PeerDiff {
        PeerDiff {
            peer,
            lines: 0,
            component_lines: 0,
            only_urlsift_accepts: 0,
            only_peer_accepts: 0,
            categories: BTreeMap::new(),
            host_classes: BTreeMap::new(),
            groups: Vec::new(),
        }
    }

    /// Lines where the host or port differs (both parsed).
    pub fn host_lines(&self) -> u64 {
        self.host_classes.values().sum()
    }

    /// Counts one finding; `sample` builds its sample when the group
    /// still has room for one of `samples`.
    pub fn add(
        &mut self,
        finding: &Finding,
        ours_ok: bool,
        samples: usize,
        sample: impl FnOnce() -> Sample,
    ) {
        let counted = if self.peer.reads_meaning() {
            finding.first_tier()
        } else {
            finding.changes_href()
        };
        if counted {
            self.lines += 1;
        } else {
            self.component_lines += 1;
        }
        if self.peer.reads_meaning() && finding.category == "host" {
            *self.host_classes.entry(finding.reason).or_insert(0) += 1;
        }
        if finding.category == "validity" {
            if ours_ok {
                self.only_urlsift_accepts += 1;
            } else {
                self.only_peer_accepts += 1;
            }
        }
        *self.categories.entry(finding.category).or_insert(0) += 1;
        let at = match self
            .groups
            .iter()
            .position(|g| g.category == finding.category && g.reason == finding.reason)
        {
            Some(at) => at,
            None => {
                self.groups.push(Group {
                    category: finding.category,
                    reason: finding.reason,
                    count: 0,
                    samples: Vec::new(),
                });
                self.groups.len() - 1
            }
        };
        let group = &mut self.groups[at];
        group.count += 1;
        if group.samples.len() < samples {
            group.samples.push(sample());
        }
    }

    /// Groups by category order, then by count (largest first).
    pub fn sorted_groups(&self) -> Vec<&Group> {
        let mut groups: Vec<&Group> = self.groups.iter().collect();
        let order: &[&str] = if self.peer.reads_meaning() {
            &meaning::CATEGORIES
        } else {
            &CATEGORIES
        };
        let rank = |c: &str| order.iter().position(|x| *x == c);
        groups.sort_by(|a, b| {
            rank(a.category)
                .cmp(&rank(b.category))
                .then(b.count.cmp(&a.count))
                .then(a.reason.cmp(b.reason))
        });
        groups
    }
}

/// The differing parts of a finding of a parser compared by meaning, with
/// both sides' values.
pub fn part_values(
    finding: &Finding,
    ours: &Shown,
    theirs: &Shown,
) -> Vec<(&'static str, String, String)> {
    let (Shown::Parts(a), Shown::Parts(b)) = (ours, theirs) else {
        return Vec::new();
    };
    meaning::PARTS
        .iter()
        .enumerate()
        .filter(|(i, _)| finding.fields & (1 << i) != 0)
        .map(|(i, name)| {
            let v = |s: &[Option<String>]| s[i].clone().unwrap_or_default();
            (*name, v(a), v(b))
        })
        .collect()
}

/// The differing getters of a finding with both sides' values.
pub fn field_values(
    finding: &Finding,
    ours: &Parsed,
    theirs: &Parsed,
) -> Vec<(&'static str, String, String)> {
    FIELDS
        .iter()
        .enumerate()
        .filter(|(i, _)| finding.fields & (1 << i) != 0)
        .map(|(i, name)| {
            (
                *name,
                ours.field(i).into_owned(),
                theirs.field(i).into_owned(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use urlsift::Url;

    fn ours(input: &str) -> Parsed {
        Url::parse(input).into()
    }

    fn names(f: &Finding) -> Vec<&'static str> {
        let (ours, theirs) = (ours("a:"), ours("b:"));
        field_values(f, &ours, &theirs)
            .into_iter()
            .map(|(n, ..)| n)
            .collect()
    }

    /// The getters of `like` (a valid URL) with some replaced.
    fn values(like: &str, changes: &[(usize, &str)]) -> Parsed {
        let u = ours(like);
        let mut v: [String; 11] = std::array::from_fn(|i| u.field(i).into_owned());
        for (i, value) in changes {
            v[*i] = value.to_string();
        }
        Parsed::Values(Box::new(v))
    }

    #[test]
    fn categories_and_reasons() {
        let input = "http://EXAMPLE.com/a/./b";
        let like = "http://example.com/a/b";
        // The same result: nothing to report.
        assert_eq!(compare(input, &ours(input), &values(like, &[])), None);
        // A different path after dot segments.
        let theirs = values(like, &[(0, "http://example.com/a/./b"), (7, "/a/./b")]);
        let f = compare(input, &ours(input), &theirs).unwrap();
        assert_eq!((f.category, f.reason), ("pathname", "path dot segments"));
        assert_eq!(names(&f), ["href", "pathname"]);
        assert!(f.changes_href());
        // A host that differs in IDNA: the hostname decides the category,
        // though host, href and origin differ too.
        let input = "http://bücher.example/";
        let theirs = values(
            "http://xn--bcher-kva.example/",
            &[
                (0, input),
                (4, "bücher.example"),
                (5, "bücher.example"),
                (10, "http://bücher.example"),
            ],
        );
        let f = compare(input, &ours(input), &theirs).unwrap();
        assert_eq!((f.category, f.reason), ("host", "IDNA"));
        assert_eq!(names(&f), ["href", "host", "hostname", "origin"]);
        // An IPv4 form.
        let input = "http://0x7f.1/";
        let theirs = values(
            "http://127.0.0.1/",
            &[(0, input), (4, "0x7f.1"), (5, "0x7f.1")],
        );
        let f = compare(input, &ours(input), &theirs).unwrap();
        assert_eq!((f.category, f.reason), ("host", "IPv4 form"));
        // Only the fragment, percent-encoded differently: the href differs.
        let input = "http://a.example/#x y";
        let theirs = values(
            "http://a.example/#x%20y",
            &[(0, "http://a.example/#x y"), (9, "#x y")],
        );
        let f = compare(input, &ours(input), &theirs).unwrap();
        assert_eq!((f.category, f.reason), ("hash", "percent-encoding"));
        // Special-scheme slashes win over the component's own reasons.
        let input = "http:/example.com/";
        let theirs = values(
            "http://example.com/",
            &[(0, input), (5, ""), (7, "/example.com/")],
        );
        let f = compare(input, &ours(input), &theirs).unwrap();
        assert_eq!((f.category, f.reason), ("host", "special-scheme slashes"));
        // A port alone.
        let input = "http://a.example:80/";
        let theirs = values(
            "http://a.example/",
            &[(0, input), (4, "a.example:80"), (6, "80")],
        );
        let f = compare(input, &ours(input), &theirs).unwrap();
        assert_eq!((f.category, f.reason), ("port", "port"));
        // The same href, a different component: not counted in `lines`.
        let input = "sc://a/b";
        let theirs = values(input, &[(10, "sc://a")]);
        let f = compare(input, &ours(input), &theirs).unwrap();
        assert_eq!((f.category, f.reason), ("origin", "origin"));
        assert!(!f.changes_href());
    }

    #[test]
    fn validity_reasons_name_urlsifts_error() {
        let input = "http://exa mple.com/";
        let theirs = values("http://example.com/", &[(0, "http://exa%20mple.com/")]);
        let f = compare(input, &ours(input), &theirs).unwrap();
        assert_eq!((f.category, f.reason), ("validity", "domain-to-ASCII"));
        let input = "http://[::1]/";
        let f = compare(input, &ours(input), &Parsed::Failed("no".into())).unwrap();
        assert_eq!((f.category, f.reason), ("validity", "IPv6"));
        let mut d = PeerDiff::new(ParserId::RustUrl);
        d.add(&f, true, 1, unreachable_sample);
        assert_eq!(
            (d.lines, d.only_urlsift_accepts, d.only_peer_accepts),
            (1, 1, 0)
        );
        assert_eq!(d.groups[0].samples.len(), 1);
        // Both reject: no difference.
        assert_eq!(compare("x", &ours("x"), &Parsed::Failed("no".into())), None);
    }

    fn unreachable_sample() -> Sample {
        Sample {
            source: "s".into(),
            line: 1,
            input: "i".into(),
            ours: Shown::Error("e".into()),
            theirs: Shown::Error("e".into()),
            fields: Vec::new(),
        }
    }

    #[test]
    fn groups_count_every_line_and_keep_a_few_samples() {
        let f = Finding {
            category: "host",
            reason: "IDNA",
            fields: 0b10_0011_0001,
        };
        let g = Finding {
            category: "hash",
            reason: "percent-encoding",
            fields: 1 << 9,
        };
        let mut d = PeerDiff::new(ParserId::Ada);
        for _ in 0..5 {
            d.add(&f, true, 2, unreachable_sample);
        }
        d.add(&g, true, 2, unreachable_sample);
        assert_eq!((d.lines, d.component_lines), (5, 1));
        assert_eq!(d.categories["host"], 5);
        let groups = d.sorted_groups();
        assert_eq!(groups[0].count, 5);
        assert_eq!(groups[0].samples.len(), 2);
        assert_eq!(groups[1].category, "hash");
    }
}

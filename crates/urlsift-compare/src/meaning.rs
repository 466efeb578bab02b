//! The parsers of other families (Python's `urllib.parse`, Java's
//! `java.net.URI`, libcurl) follow RFC 3986 or their own rules, so their
//! hrefs would differ from the standard's on every line. They are compared
//! by what they mean: validity, then the scheme, the userinfo, the host
//! and the port (the first tier: which server a program would talk to,
//! as whom), then the path, the query and the fragment (the second).
//!
//! Hosts are compared after ASCII lowercasing, without IPv6 brackets, with
//! the same IPv6 address written two standard ways (`::ffff:127.0.0.1`,
//! `::ffff:7f00:1`) counted as one, and a Unicode name taken to ASCII by
//! UTS #46 (as the standard does) before it is compared; a host that one
//! side reads as an IP address and the other as a name (`0x7f.1`,
//! `2130706433`) differs. Ports are compared as the port a connection
//! would use: the explicit one, or the scheme's default.
//!
//! A host (or port) difference is "host confusion", the class of the
//! SSRF, open-redirect and allow-list bypasses in the published studies;
//! it gets a class saying how the two readings split, from the input:
//! [`HOST_CLASSES`].

use std::net::Ipv6Addr;

use urlsift::{Host, Url};

use crate::engines::{Parsed, Parts};
use crate::finding::{Finding, looks_ipv4, odd_special_slashes};

/// The parts compared, in the order [`Finding::fields`] numbers them.
pub const PARTS: [&str; 8] = [
    "scheme", "username", "password", "hostname", "port", "path", "query", "fragment",
];

/// A line's category, the first that applies: `host` (the host or the
/// port differs: host confusion) first, then the rest of the first tier,
/// then the second.
pub const CATEGORIES: [&str; 7] = [
    "validity", "host", "scheme", "userinfo", "path", "query", "fragment",
];

/// How two readings of a host split, in the order a line's class is
/// picked: the first that the input shows.
pub const HOST_CLASSES: [&str; 10] = [
    "scheme slashes",
    "backslash",
    "delimiter before @",
    "percent-encoded delimiter",
    "control or space",
    "userinfo",
    "IDNA",
    "IPv4 form",
    "port",
    "other",
];

/// urlsift's reading of `url` as parts: the host without brackets' help
/// (as `hostname` gives it), no port where the standard drops the
/// scheme's default.
pub fn parts_of(url: &Url) -> Parts {
    let some = |s: &str| (!s.is_empty()).then(|| s.to_string());
    Parts {
        scheme: Some(url.scheme().to_string()),
        username: some(url.username()),
        password: some(url.password()),
        host: some(url.hostname()),
        port: some(url.port()),
        path: Some(url.pathname().to_string()),
        query: url.query().map(str::to_string),
        fragment: url.fragment().map(str::to_string),
        url: url.href().to_string(),
    }
}

/// How a peer of another family (`theirs`) differs from urlsift (`ours`)
/// on `input`, or `None` when they mean the same.
pub fn compare(input: &str, ours: &Parsed, theirs: &Parsed) -> Option<Finding> {
    let (ok, their_ok) = (ours.is_ok(), theirs.is_ok());
    if !ok && !their_ok {
        return None;
    }
    if ok != their_ok {
        return Some(Finding {
            category: "validity",
            reason: validity_reason(ours, theirs),
            fields: 0,
        });
    }
    let ours = match ours {
        Parsed::Urlsift(u) => parts_of(u),
        _ => return None,
    };
    let Parsed::Parts(theirs) = theirs else {
        return None;
    };
    let fields = differing(&ours, theirs);
    if fields == 0 {
        return None;
    }
    let bit = |name: &str| 1u16 << PARTS.iter().position(|p| *p == name).expect("a part");
    let (category, reason) = if fields & (bit("hostname") | bit("port")) != 0 {
        let port_only = fields & bit("hostname") == 0;
        ("host", host_class(input, &ours, theirs, port_only))
    } else if fields & bit("scheme") != 0 {
        ("scheme", "scheme")
    } else if fields & (bit("username") | bit("password")) != 0 {
        ("userinfo", "userinfo")
    } else if fields & bit("path") != 0 {
        (
            "path",
            second_tier_reason(input, ours.path.as_deref(), theirs.path.as_deref()),
        )
    } else if fields & bit("query") != 0 {
        (
            "query",
            second_tier_reason(input, ours.query.as_deref(), theirs.query.as_deref()),
        )
    } else {
        let (a, b) = (ours.fragment.as_deref(), theirs.fragment.as_deref());
        ("fragment", second_tier_reason(input, a, b))
    };
    Some(Finding {
        category,
        reason,
        fields,
    })
}

/// Which of [`PARTS`] differ in meaning (bit `i` for `PARTS[i]`).
fn differing(ours: &Parts, theirs: &Parts) -> u16 {
    let text = |p: &Option<String>| p.as_deref().unwrap_or("").to_string();
    let scheme = |p: &Parts| text(&p.scheme).to_ascii_lowercase();
    let path = |p: &Parts| {
        // An empty path of a URL with a host is `/` to the standard.
        let v = text(&p.path);
        if v.is_empty() && p.host.is_some() {
            "/".to_string()
        } else {
            v
        }
    };
    // Userinfo means its decoded bytes: `a%40b` and `a@b` are one user.
    let decoded = |p: &Option<String>| {
        urlsift::percent::percent_decode(p.as_deref().unwrap_or("").as_bytes()).into_owned()
    };
    let same = [
        scheme(ours) == scheme(theirs),
        decoded(&ours.username) == decoded(&theirs.username),
        decoded(&ours.password) == decoded(&theirs.password),
        host_key(ours.host.as_deref()) == host_key(theirs.host.as_deref()),
        effective_port(ours) == effective_port(theirs),
        path(ours) == path(theirs),
        text(&ours.query) == text(&theirs.query),
        text(&ours.fragment) == text(&theirs.fragment),
    ];
    same.iter()
        .enumerate()
        .filter(|(_, s)| !**s)
        .fold(0, |bits, (i, _)| bits | 1 << i)
}

/// A host as it is compared: `None` for none (or empty); lowercase ASCII;
/// an IPv6 address without brackets in one written form; a Unicode name
/// through UTS #46 to ASCII.
pub fn host_key(host: Option<&str>) -> Option<String> {
    let host = host.filter(|h| !h.is_empty())?;
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    if let Ok(v6) = bare.parse::<Ipv6Addr>() {
        return Some(format!("[{v6}]"));
    }
    if !bare.is_ascii()
        && let Ok(Host::Domain(ascii)) = Host::parse(bare, false)
    {
        return Some(ascii);
    }
    Some(bare.to_ascii_lowercase())
}

/// The port a connection to the URL would use: the explicit one, or the
/// scheme's default (none for other schemes).
fn effective_port(p: &Parts) -> Option<u32> {
    if let Some(port) = p.port.as_deref().filter(|s| !s.is_empty()) {
        return Some(port.parse().unwrap_or(u32::MAX));
    }
    match p.scheme.as_deref()?.to_ascii_lowercase().as_str() {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        "ftp" => Some(21),
        _ => None,
    }
}

/// The class of a host (or, with `port_only`, a port) difference: the
/// first shape of the input that explains it ([`HOST_CLASSES`]).
fn host_class(input: &str, ours: &Parts, theirs: &Parts, port_only: bool) -> &'static str {
    if port_only {
        return "port";
    }
    let hosts = [ours.host.as_deref(), theirs.host.as_deref()];
    let keys: Vec<String> = hosts.into_iter().filter_map(|h| host_key(h)).collect();
    let rest = input.split_once(':').map_or(input, |(_, r)| r);
    let after_slashes = rest.trim_start_matches(['/', '\\']);
    // Up to the path: where a host can be read from, by one rule or another.
    let to_path = &after_slashes[..after_slashes.find('/').unwrap_or(after_slashes.len())];
    // Up to the first delimiter any parser stops at: the authority.
    let authority = &after_slashes[..after_slashes
        .find(['/', '?', '#'])
        .unwrap_or(after_slashes.len())];
    // Whether one side took the text after the last `@` of `region` as
    // its host: an `@` the two read differently.
    let split_at = |region: &str| {
        region.rfind('@').is_some_and(|at| {
            let after = &region[at + 1..];
            let host = &after[..after
                .find([':', '/', '?', '#', '\\'])
                .unwrap_or(after.len())];
            let key = host_key(Some(host));
            keys.iter().any(|k| Some(k) == key.as_ref())
        })
    };
    if odd_special_slashes(input) {
        "scheme slashes"
    } else if authority.contains('\\') {
        "backslash"
    } else if to_path
        .rfind('@')
        .is_some_and(|at| to_path[..at].contains(['#', '?', ' ', '\t']))
        && split_at(to_path)
    {
        "delimiter before @"
    } else if encoded_delimiter(authority) {
        "percent-encoded delimiter"
    } else if input
        .split_once(':')
        .map_or(input, |(s, _)| s)
        .contains(|c: char| c <= ' ')
        || to_path.chars().any(|c| c <= ' ' || c == '\u{7f}')
    {
        "control or space"
    } else if split_at(authority) {
        "userinfo"
    } else if !to_path.is_ascii()
        || keys.iter().any(|h| h.contains("xn--"))
        || to_path.to_ascii_lowercase().contains("xn--")
    {
        "IDNA"
    } else if hosts.into_iter().flatten().any(looks_ipv4) || looks_ipv4(host_part(authority)) {
        "IPv4 form"
    } else {
        "other"
    }
}

/// The host of an authority: after any userinfo, before any port.
fn host_part(authority: &str) -> &str {
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if host.starts_with('[') {
        return host;
    }
    host.rsplit_once(':').map_or(host, |(h, _)| h)
}

/// A percent-encoded delimiter (`%2f` `/`, `%5c` `\`, `%40` `@`, `%3a`
/// `:`, `%3f` `?`, `%23` `#`, `%2e` `.`) in `authority`.
fn encoded_delimiter(authority: &str) -> bool {
    let lower = authority.to_ascii_lowercase();
    ["%2f", "%5c", "%40", "%3a", "%3f", "%23", "%2e"]
        .iter()
        .any(|d| lower.contains(d))
}

/// Why one side rejects what the other accepts: urlsift's validation
/// error when urlsift rejects (exact), else the peer's message without
/// what varies from line to line (`at index 7: ...`).
fn validity_reason(ours: &Parsed, theirs: &Parsed) -> &'static str {
    if let Parsed::Invalid(e) = ours {
        return e.validation_error().map_or("URL-too-long", |v| v.name());
    }
    let message = theirs.error().unwrap_or_default();
    let cut = [" at index", ": ", " as '", " ("]
        .iter()
        .filter_map(|m| message.find(m))
        .min()
        .unwrap_or(message.len());
    intern(message[..cut].trim())
}

/// A peer's message, kept for the run (a few dozen distinct ones: past
/// [`MESSAGES`], `other`).
fn intern(message: &str) -> &'static str {
    use std::sync::Mutex;
    static SEEN: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let Ok(mut seen) = SEEN.lock() else {
        return "other";
    };
    if let Some(m) = seen.iter().find(|m| **m == message) {
        return m;
    }
    if seen.len() >= MESSAGES || message.is_empty() {
        return "other";
    }
    let kept: &'static str = Box::leak(message.to_string().into_boxed_str());
    seen.push(kept);
    kept
}

/// The most distinct messages kept as reasons.
const MESSAGES: usize = 200;

/// The parts of `p` in [`PARTS`] order, then its serialization (`None`:
/// no such part).
pub fn values(p: &Parts) -> Vec<Option<String>> {
    vec![
        p.scheme.clone(),
        p.username.clone(),
        p.password.clone(),
        p.host.clone(),
        p.port.clone(),
        p.path.clone(),
        p.query.clone(),
        p.fragment.clone(),
        Some(p.url.clone()),
    ]
}

/// Why a second-tier part differs: percent-encoding (equal once decoded),
/// dot segments, or otherwise.
fn second_tier_reason(input: &str, a: Option<&str>, b: Option<&str>) -> &'static str {
    let decode =
        |v: Option<&str>| urlsift::percent::percent_decode(v.unwrap_or("").as_bytes()).into_owned();
    if decode(a) == decode(b) {
        "percent-encoding"
    } else if ["/.", "\\.", "%2e"]
        .iter()
        .any(|d| input.to_ascii_lowercase().contains(d))
    {
        "dot segments"
    } else if input.contains('\\') {
        "backslash"
    } else {
        "other"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours(input: &str) -> Parsed {
        Url::parse(input).into()
    }

    fn theirs(scheme: &str, host: Option<&str>, port: Option<&str>, path: &str) -> Parsed {
        Parsed::Parts(Box::new(Parts {
            scheme: Some(scheme.into()),
            host: host.map(Into::into),
            port: port.map(Into::into),
            path: Some(path.into()),
            ..Parts::default()
        }))
    }

    fn found(input: &str, peer: Parsed) -> Option<(&'static str, &'static str)> {
        compare(input, &ours(input), &peer).map(|f| (f.category, f.reason))
    }

    #[test]
    fn hosts_compare_by_what_they_name() {
        let same = |a: &str, b: &str| host_key(Some(a)) == host_key(Some(b));
        assert!(same("EXAMPLE.com", "example.com"));
        assert!(same("[::FFFF:127.0.0.1]", "::ffff:7f00:1"));
        assert!(same("bücher.example", "xn--bcher-kva.example"));
        assert!(!same("0x7f.1", "127.0.0.1"));
        assert!(!same("2130706433", "127.0.0.1"));
        assert_eq!(host_key(Some("")), None);
        assert_eq!(host_key(None), None);
    }

    #[test]
    fn the_same_meaning_is_no_difference() {
        // Python's reading of these: lowercase host, the default port
        // written out, an empty path where the standard has `/`.
        assert_eq!(
            found(
                "HTTP://Example.COM:80",
                theirs("http", Some("example.com"), Some("80"), "")
            ),
            None
        );
        assert_eq!(
            found(
                "http://[::ffff:127.0.0.1]/",
                theirs("http", Some("::ffff:127.0.0.1"), None, "/")
            ),
            None
        );
    }

    #[test]
    fn host_confusion_is_classed_by_how_the_readings_split() {
        let cases = [
            (
                "http://127.0.0.1\\@google.com/",
                Some("google.com"),
                "backslash",
            ),
            ("http://0x7f.1/", Some("0x7f.1"), "IPv4 form"),
            ("http://2130706433/", None, "IPv4 form"),
            (
                "http://e.com?@evil.com/",
                Some("evil.com"),
                "delimiter before @",
            ),
            (
                "http://e.com%2f@evil.com/",
                Some("e.com%2f"),
                "percent-encoded delimiter",
            ),
            ("http://a@b@evil.com/", Some("b"), "userinfo"),
            ("http://evil\t.com/", Some("evil\t.com"), "control or space"),
            ("http://xn--nxasmq6b.com/", Some("other.com"), "IDNA"),
            ("http://good.com/", Some("evil.com"), "other"),
        ];
        for (input, host, class) in cases {
            let peer = theirs("http", host, None, "/");
            assert_eq!(found(input, peer), Some(("host", class)), "{input}");
        }
        // The scheme's slashes: `http:/\/x` is http://x/ to the standard.
        let peer = theirs("http", None, None, "/\\/example.com/");
        assert_eq!(
            found("http:/\\/example.com/", peer),
            Some(("host", "scheme slashes"))
        );
        // The same host, another port.
        let peer = theirs("http", Some("e.com"), Some("8080"), "/");
        assert_eq!(
            found("http://e.com:8080@x/", peer).map(|f| f.0),
            Some("host")
        );
        let peer = theirs("http", Some("e.com"), Some("81"), "/");
        assert_eq!(found("http://e.com/", peer), Some(("host", "port")));
    }

    #[test]
    fn other_parts_and_validity() {
        let peer = theirs("http", Some("e.com"), None, "/a/../b");
        assert_eq!(
            found("http://e.com/a/../b", peer),
            Some(("path", "dot segments"))
        );
        let peer = theirs("http", Some("e.com"), None, "/a b");
        assert_eq!(
            found("http://e.com/a b", peer),
            Some(("path", "percent-encoding"))
        );
        // A rejection: the peer's message, without what varies by line.
        let failed = Parsed::Failed(
            "Illegal character in authority at index 7: http://127.0.0.1\\@google.com/".into(),
        );
        assert_eq!(
            found("http://127.0.0.1\\@google.com/", failed),
            Some(("validity", "Illegal character in authority"))
        );
        // urlsift's rejection: its validation error.
        let peer = theirs("http", Some("e.com"), Some("99999"), "/");
        assert_eq!(
            found("http://e.com:99999/", peer),
            Some(("validity", "port-out-of-range"))
        );
        assert_eq!(found("nope", Parsed::Failed("no".into())), None);
    }
}

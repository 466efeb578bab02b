//! The host confusion report, for the parsers of other families (Python,
//! Java, curl): how many lines each reads as naming another host (or
//! port) than the URL Standard does, by how the two readings split
//! ([`HOST_CLASSES`]), with samples; the lines only one side accepts,
//! counted apart; and the other differences, by tier. It leads the text
//! report and is `host_confusion` in the JSON one; `html.rs` draws its
//! matrix.

use serde_json::{Value, json};

use crate::diff::PeerDiff;
use crate::meaning::HOST_CLASSES;
use crate::report::{Report, grouped, lines, sample_json};

/// What the section says of the parsers it covers, once.
pub const HOW: &str = "These parsers follow RFC 3986 or their own rules, not the URL \
    Standard, so they are compared by what they mean: the host and port a program would \
    connect to, then the scheme and userinfo, then the path, query and fragment. A host is \
    compared lowercased, without IPv6 brackets, IPv6 written either way, Unicode through \
    IDNA; a host one side reads as an IP address and the other as a name differs. A line \
    naming another host is where an allow-list, an SSRF check or a redirect check written \
    with that parser sees another server than a browser would.";

/// The peers compared by meaning.
pub fn peers<'a>(r: &'a Report) -> impl Iterator<Item = &'a PeerDiff> {
    r.diffs.iter().filter(|d| d.peer.reads_meaning())
}

/// A peer's version, as reported.
fn version<'a>(r: &'a Report, d: &PeerDiff) -> &'a str {
    r.parsers
        .iter()
        .find(|p| p.id == d.peer)
        .and_then(|p| p.version.as_deref())
        .unwrap_or("?")
}

/// Lines of a peer by tier: the first tier besides the host (scheme,
/// userinfo) and the second (path, query, fragment).
fn tiers(d: &PeerDiff) -> (u64, u64) {
    let n = |c: &str| d.categories.get(c).copied().unwrap_or(0);
    (
        n("scheme") + n("userinfo"),
        n("path") + n("query") + n("fragment"),
    )
}

/// The section for the text report (empty without such peers).
pub fn text(r: &Report) -> String {
    let mut t = String::new();
    if peers(r).next().is_none() {
        return t;
    }
    t.push_str(&format!(
        "\nhost confusion\n{}\n\n",
        crate::report::wrap(HOW, 78)
    ));
    t.push_str(&format!(
        "{:<8} {:<18} {:>12} {:>13} {:>12} {:>16} {:>14}\n",
        "parser",
        "version",
        "another host",
        "only urlsift",
        "only parser",
        "scheme/userinfo",
        "path/query/#"
    ));
    for d in peers(r) {
        let (first, second) = tiers(d);
        t.push_str(&format!(
            "{:<8} {:<18} {:>12} {:>13} {:>12} {:>16} {:>14}\n",
            d.peer.name(),
            version(r, d),
            grouped(d.host_lines()),
            grouped(d.only_urlsift_accepts),
            grouped(d.only_peer_accepts),
            grouped(first),
            grouped(second)
        ));
    }
    t.push_str(
        "(another host: both parse, the host or port differs; only urlsift/only parser: \
         accepted by one side)\n",
    );
    for d in peers(r).filter(|d| d.host_lines() > 0) {
        let classes: Vec<String> = HOST_CLASSES
            .iter()
            .filter_map(|c| {
                d.host_classes
                    .get(c)
                    .map(|n| format!("{c} {}", grouped(*n)))
            })
            .collect();
        t.push_str(&format!(
            "\n{}: {} naming another host than urlsift ({})\n",
            d.peer.name(),
            lines(d.host_lines()),
            classes.join(", ")
        ));
        for g in d
            .sorted_groups()
            .into_iter()
            .filter(|g| g.category == "host")
        {
            t.push_str(&format!("  {}: {}\n", g.reason, lines(g.count)));
            for s in &g.samples {
                t.push_str(&format!("    {}:{}  {:?}\n", s.source, s.line, s.input));
                let width = d.peer.name().len().max("urlsift".len());
                t.push_str(&format!(
                    "      {:<width$}  {}\n",
                    "urlsift",
                    s.ours.summary()
                ));
                t.push_str(&format!(
                    "      {:<width$}  {}\n",
                    d.peer.name(),
                    s.theirs.summary()
                ));
            }
        }
    }
    t
}

/// The section for the JSON report: one object per peer.
pub fn json(r: &Report) -> Value {
    let peers: Vec<Value> = peers(r)
        .map(|d| {
            let (first, second) = tiers(d);
            let classes: serde_json::Map<String, Value> = HOST_CLASSES
                .iter()
                .filter_map(|c| {
                    let n = *d.host_classes.get(c)?;
                    let samples: Vec<Value> = d
                        .groups
                        .iter()
                        .filter(|g| g.category == "host" && g.reason == *c)
                        .flat_map(|g| g.samples.iter().map(sample_json))
                        .collect();
                    Some((c.to_string(), json!({ "lines": n, "samples": samples })))
                })
                .collect();
            json!({
                "parser": d.peer.name(),
                "version": version(r, d),
                "lines": d.host_lines(),
                "only_urlsift_accepts": d.only_urlsift_accepts,
                "only_parser_accepts": d.only_peer_accepts,
                "scheme_or_userinfo_lines": first,
                "second_tier_lines": second,
                "categories": classes,
            })
        })
        .collect();
    Value::Array(peers)
}

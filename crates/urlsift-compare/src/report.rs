//! What `compare` found, as a table for people (`report_text`) or JSON
//! for scripts (`report_json`); `html.rs` draws the same [`Report`].

use serde_json::{Value, json};

use crate::corpus::Corpus;
use crate::diff::{PeerDiff, Sample, verdict};
use crate::engines::{ParserId, Work};
use crate::timing::Speed;

/// Who judges a disagreement, said once per report.
pub const JUDGE: &str = "The WHATWG URL Standard is the judge: urlsift follows it (it passes all \
    of web-platform-tests' URL data), so where a peer differs from urlsift the peer deviates from \
    the standard, unless urlsift has a bug. Differences between urlsift's own paths are urlsift bugs. \
    whatwg-url is the standard's reference implementation: a difference from it is a urlsift bug \
    unless that release of it lags the standard.";

/// Everything a report shows.
pub struct Report<'a> {
    /// The URLs compared.
    pub corpus: &'a Corpus,
    /// Timed rounds per parser (`--rounds`).
    pub rounds: usize,
    /// Threads per parser (`-j`).
    pub threads: usize,
    /// The base URL every input was resolved against (`--base`).
    pub base: Option<&'a str>,
    /// The SIMD backend urlsift ran with.
    pub simd: &'static str,
    /// Each parser's row, urlsift first.
    pub parsers: Vec<Parser>,
    /// Parsers `--parsers all` would take that this machine lacks, and why.
    pub missing: Vec<(ParserId, String)>,
    /// Each peer's differences with urlsift, in parser order.
    pub diffs: Vec<PeerDiff>,
}

/// One parser's row.
pub struct Parser {
    /// The parser.
    pub id: ParserId,
    /// Its work in the differential pass (valid URLs, href bytes).
    pub work: Work,
    /// Its timing, unless `--rounds 0`.
    pub speed: Option<Speed>,
    /// A version, when known (Node.js).
    pub version: Option<String>,
}

/// `1234567` as `1,234,567`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `1 line`, `2 lines`.
pub fn lines(n: u64) -> String {
    match n {
        1 => "1 line".to_string(),
        n => format!("{} lines", grouped(n)),
    }
}

/// A rate with a unit prefix: `24.9 M`.
pub fn si(x: f64) -> String {
    match x {
        x if x >= 1e9 => format!("{:.2} G", x / 1e9),
        x if x >= 1e6 => format!("{:.2} M", x / 1e6),
        x if x >= 1e3 => format!("{:.1} k", x / 1e3),
        x => format!("{x:.0} "),
    }
}

impl Report<'_> {
    /// One line naming the corpus.
    pub fn corpus_line(&self) -> String {
        let c = self.corpus;
        let sources: Vec<&str> = c.source_names().collect();
        let from = match sources.as_slice() {
            [one] => one.to_string(),
            [first, .., last] if sources.len() > 3 => {
                format!("{} files ({first}, ..., {last})", sources.len())
            }
            all => all.join(", "),
        };
        let mut line = format!(
            "{} URLs ({:.2} MB) from {from}; {} lines, {} empty",
            grouped(c.len() as u64),
            c.bytes() as f64 / 1e6,
            grouped(c.read.lines),
            grouped(c.read.empty)
        );
        if c.read.comments > 0 {
            line.push_str(&format!(", {} comments", grouped(c.read.comments)));
        }
        if c.read.skipped_total() > 0 {
            line.push_str(&format!(
                ", {} skipped (not URLs)",
                grouped(c.read.skipped_total())
            ));
        }
        if let Some(b) = self.base {
            line.push_str(&format!("; base {b}"));
        }
        line
    }

    /// One line naming how the timing was done.
    pub fn timing_line(&self) -> String {
        let threads = if self.threads == 1 {
            "1 thread".to_string()
        } else {
            format!("{} threads per parser (node: 1)", self.threads)
        };
        format!(
            "best and median of {} interleaved rounds, {threads}, SIMD backend {}",
            self.rounds, self.simd
        )
    }
}

/// The readable report; `lead` goes before the disagreements (the host
/// confusion section).
pub fn report_text(r: &Report, lead: &str) -> String {
    let mut t = format!("urlsift compare: {}\n", r.corpus_line());
    if r.rounds > 0 {
        t.push_str(&format!("speed: {}\n\n", r.timing_line()));
        t.push_str(&format!(
            "{:<16} {:>8} {:>8} {:>10} {:>9} {:>8} {:>10} {:>13}  work\n",
            "parser", "ns/URL", "median", "URLs/s", "MB/s", "vs best", "valid", "href bytes"
        ));
    } else {
        t.push_str("speed: not measured (--rounds 0)\n\n");
        t.push_str(&format!(
            "{:<16} {:>10} {:>13}\n",
            "parser", "valid", "href bytes"
        ));
    }
    for p in &r.parsers {
        let (valid, bytes) = (grouped(p.work.valid), grouped(p.work.href_bytes));
        match &p.speed {
            Some(s) => t.push_str(&format!(
                "{:<16} {:>8.1} {:>8.1} {:>10} {:>9.1} {:>7.2}x {valid:>10} {bytes:>13}  {}\n",
                p.id.name(),
                s.min_ns,
                s.median_ns,
                si(s.urls_per_sec),
                s.mb_per_sec,
                s.ratio,
                s.check.describe()
            )),
            None => t.push_str(&format!("{:<16} {valid:>10} {bytes:>13}\n", p.id.name())),
        }
    }
    if r.rounds > 0 {
        t.push_str(
            "(work: each round parsed the URLs the parser accepts, to hrefs of the same total \
             length; vs best: ns/URL over the fastest)\n",
        );
    }
    for (p, why) in &r.missing {
        t.push_str(&format!("not on this machine: {}: {why}\n", p.name()));
    }
    let versions: Vec<String> = r
        .parsers
        .iter()
        .filter_map(|p| Some(format!("{} {}", p.id.name(), p.version.as_deref()?)))
        .collect();
    if !versions.is_empty() {
        t.push_str(&format!("versions: {}\n", versions.join(", ")));
    }
    t.push_str(lead);
    if r.diffs.is_empty() {
        return t;
    }
    t.push_str(&format!(
        "\ndisagreements with urlsift\n{}\n\n",
        wrap(JUDGE, 78)
    ));
    t.push_str(&format!(
        "{:<16} {:>9} {:>13} {:>13} {:>11}\n",
        "parser", "lines", "only urlsift", "only parser", "same href"
    ));
    for d in &r.diffs {
        t.push_str(&format!(
            "{:<16} {:>9} {:>13} {:>13} {:>11}\n",
            d.peer.name(),
            grouped(d.lines),
            grouped(d.only_urlsift_accepts),
            grouped(d.only_peer_accepts),
            grouped(d.component_lines)
        ));
    }
    t.push_str(
        "(lines: validity or href differs, or for python, java and curl validity, host, scheme \
         or userinfo; only urlsift/only parser: accepted by one side; same href: another getter \
         differs, or another path, query or fragment)\n",
    );
    for d in r.diffs.iter().filter(|d| !d.groups.is_empty()) {
        t.push_str(&format!(
            "\n{} vs urlsift: {}\n",
            d.peer.name(),
            verdict(d.peer)
        ));
        // (Parsers compared by meaning: their host groups lead the report.)
        for g in d
            .sorted_groups()
            .into_iter()
            .filter(|g| !(d.peer.reads_meaning() && g.category == "host"))
        {
            t.push_str(&format!(
                "  {} / {}: {}\n",
                g.category,
                g.reason,
                lines(g.count)
            ));
            for s in &g.samples {
                sample_text(&mut t, s, d.peer.name());
            }
        }
    }
    t
}

fn sample_text(t: &mut String, s: &Sample, peer: &str) {
    t.push_str(&format!("    {}:{}  {:?}\n", s.source, s.line, s.input));
    let width = peer.len().max("urlsift".len());
    t.push_str(&format!(
        "      {:<width$}  {}\n",
        "urlsift",
        s.ours.summary()
    ));
    t.push_str(&format!("      {peer:<width$}  {}\n", s.theirs.summary()));
    // The values of the other getters only when the hrefs look alike
    // (otherwise the hrefs above show the difference): their names always.
    if !s.fields.is_empty() {
        let names: Vec<&str> = s.fields.iter().map(|(f, ..)| *f).collect();
        t.push_str(&format!("      differs: {}\n", names.join(", ")));
    }
    for (field, ours, theirs) in s.fields.iter().filter(|_| s.fields[0].0 != "href") {
        t.push_str(&format!("      {field}: {ours:?} vs {theirs:?}\n"));
    }
}

/// Wraps `text` at spaces to lines of at most `width` characters.
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split_whitespace() {
        if line > 0 && line + 1 + word.len() > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}

/// The JSON report.
pub fn report_json(r: &Report) -> Value {
    let c = r.corpus;
    let skipped: serde_json::Map<String, Value> = c
        .read
        .skipped
        .iter()
        .map(|(k, n)| (k.to_string(), json!(n)))
        .collect();
    let parsers: Vec<Value> = r
        .parsers
        .iter()
        .map(|p| {
            let s = p.speed.as_ref();
            json!({
                "name": p.id.name(),
                "valid": p.work.valid,
                "href_bytes": p.work.href_bytes,
                "ns_per_url": s.map(|s| s.min_ns),
                "ns_per_url_median": s.map(|s| s.median_ns),
                "urls_per_second": s.map(|s| s.urls_per_sec),
                "mb_per_second": s.map(|s| s.mb_per_sec),
                "ratio_to_fastest": s.map(|s| s.ratio),
                "work_ok": s.map(|s| s.check.is_ok()),
                "work_check": s.map(|s| s.check.describe()),
                "version": p.version,
            })
        })
        .collect();
    let disagreements: Vec<Value> = r
        .diffs
        .iter()
        .map(|d| {
            let groups: Vec<Value> = d
                .sorted_groups()
                .into_iter()
                .map(|g| {
                    json!({
                        "category": g.category,
                        "reason": g.reason,
                        "count": g.count,
                        "samples": g.samples.iter().map(sample_json).collect::<Vec<_>>(),
                    })
                })
                .collect();
            json!({
                "parser": d.peer.name(),
                "lines": d.lines,
                "component_lines": d.component_lines,
                "only_urlsift_accepts": d.only_urlsift_accepts,
                "only_parser_accepts": d.only_peer_accepts,
                "standard": verdict(d.peer),
                "categories": d.categories,
                "groups": groups,
            })
        })
        .collect();
    json!({
        "corpus": {
            "sources": c.source_names().collect::<Vec<_>>(),
            "lines": c.read.lines,
            "empty": c.read.empty,
            "comments": c.read.comments,
            "skipped": skipped,
            "urls": c.len(),
            "bytes": c.bytes(),
        },
        "settings": {
            "rounds": r.rounds,
            "threads": r.threads,
            "base": r.base,
            "simd": r.simd,
        },
        "judge": JUDGE,
        "parsers": parsers,
        "missing": r.missing.iter().map(|(p, why)| json!({ "parser": p.name(), "why": why })).collect::<Vec<_>>(),
        "disagreements": disagreements,
    })
}

/// A sample as JSON: where, the input, the differing getters and both
/// results (`peer` is the other parser's).
pub fn sample_json(s: &Sample) -> Value {
    json!({
        "source": s.source,
        "line": s.line,
        "input": s.input,
        "differs": s.fields.iter().map(|(f, ours, theirs)| {
            json!({ "field": f, "urlsift": ours, "peer": theirs })
        }).collect::<Vec<_>>(),
        "urlsift": s.ours.to_json(),
        "peer": s.theirs.to_json(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_wrapping() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1234567), "1,234,567");
        assert_eq!(si(24_900_000.0), "24.90 M");
        assert_eq!(si(1500.0), "1.5 k");
        assert_eq!(wrap("aa bb cc", 5), "aa bb\ncc");
    }
}

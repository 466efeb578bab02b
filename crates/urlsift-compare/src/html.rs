//! `compare --html FILE`: the report as one self-contained page (inline
//! CSS and SVG, no script, nothing fetched) with a bar chart of each
//! parser's throughput and a table of the disagreements. Every piece of
//! text from the input or a parser is escaped.

use std::fmt::Write;

use crate::confusion::{self, HOW};
use crate::diff::verdict;
use crate::meaning::HOST_CLASSES;
use crate::report::{JUDGE, Report, grouped, si};

/// Escapes text for HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font:15px/1.4 system-ui,sans-serif;margin:2em auto;max-width:70em;\
padding:0 1em;color:#222}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;\
padding:.25em .5em;vertical-align:top;text-align:left}td.n{text-align:right}\
code{font:13px ui-monospace,monospace;word-break:break-all}.bad{color:#b00;font-weight:bold}\
td.hit{background:#fde2e1;font-weight:bold}";

/// The whole page.
pub fn page(r: &Report) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>urlsift compare</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>urlsift compare</h1>\n<p>{}</p>\n",
        escape(&r.corpus_line())
    );
    speed(&mut h, r);
    host_confusion(&mut h, r);
    disagreements(&mut h, r);
    h.push_str("</body>\n</html>\n");
    h
}

fn speed(h: &mut String, r: &Report) {
    h.push_str("<h2>Throughput</h2>\n");
    let timed: Vec<(&str, f64)> = r
        .parsers
        .iter()
        .filter_map(|p| p.speed.as_ref().map(|s| (p.id.name(), s.urls_per_sec)))
        .collect();
    if timed.is_empty() {
        h.push_str("<p>Not measured (<code>--rounds 0</code>).</p>\n");
    } else {
        let _ = writeln!(h, "<p>{}.</p>", escape(&r.timing_line()));
        chart(h, &timed);
    }
    h.push_str(
        "<table class=\"speed\">\n<thead><tr><th>parser</th><th>ns/URL (best)</th>\
         <th>ns/URL (median)</th><th>URLs/s</th><th>MB/s</th><th>vs best</th><th>valid</th>\
         <th>href bytes</th><th>work check</th></tr></thead>\n<tbody>\n",
    );
    for p in &r.parsers {
        let _ = write!(h, "<tr><td>{}</td>", escape(p.id.name()));
        match &p.speed {
            Some(s) => {
                let class = if s.check.is_ok() {
                    ""
                } else {
                    " class=\"bad\""
                };
                let _ = write!(
                    h,
                    "<td class=\"n\">{:.1}</td><td class=\"n\">{:.1}</td><td class=\"n\">{}</td>\
                     <td class=\"n\">{:.1}</td><td class=\"n\">{:.2}x</td>",
                    s.min_ns,
                    s.median_ns,
                    escape(&si(s.urls_per_sec)),
                    s.mb_per_sec,
                    s.ratio
                );
                let _ = writeln!(
                    h,
                    "<td class=\"n\">{}</td><td class=\"n\">{}</td><td{class}>{}</td></tr>",
                    grouped(p.work.valid),
                    grouped(p.work.href_bytes),
                    escape(&s.check.describe())
                );
            }
            None => {
                let _ = writeln!(
                    h,
                    "<td colspan=\"5\"></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td></td></tr>",
                    grouped(p.work.valid),
                    grouped(p.work.href_bytes)
                );
            }
        }
    }
    h.push_str("</tbody>\n</table>\n");
    for (p, why) in &r.missing {
        let _ = writeln!(
            h,
            "<p>Not on this machine: <code>{}</code>: {}</p>",
            escape(p.name()),
            escape(why)
        );
    }
}

/// A horizontal bar per parser, its length the URLs/s.
fn chart(h: &mut String, bars: &[(&str, f64)]) {
    const LABEL: f64 = 140.0;
    const WIDTH: f64 = 460.0;
    const ROW: f64 = 28.0;
    let max = bars.iter().map(|b| b.1).fold(0.0, f64::max).max(1e-9);
    let height = ROW * bars.len() as f64 + 8.0;
    let total = LABEL + WIDTH + 110.0;
    let _ = writeln!(
        h,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"{total}\" \
         height=\"{height}\" viewBox=\"0 0 {total} {height}\" role=\"img\" \
         aria-label=\"URLs per second by parser (best round)\">"
    );
    for (i, (name, rate)) in bars.iter().enumerate() {
        let y = 4.0 + ROW * i as f64;
        let w = (WIDTH * rate / max).max(1.0);
        let _ = writeln!(
            h,
            "<text x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"end\" font-size=\"13\">{}</text>\
             <rect x=\"{LABEL}\" y=\"{y:.0}\" width=\"{w:.1}\" height=\"{:.0}\" fill=\"#4a7ab5\">\
             <title>{} URLs/s</title></rect>\
             <text x=\"{:.1}\" y=\"{:.0}\" font-size=\"12\">{}URLs/s</text>",
            LABEL - 8.0,
            y + 16.0,
            escape(name),
            ROW - 8.0,
            escape(&si(*rate)),
            LABEL + w + 6.0,
            y + 15.0,
            escape(&si(*rate))
        );
    }
    h.push_str("</svg>\n");
}

/// The parsers of other families × the classes of host confusion: how
/// many lines each reads as naming another host, by how the readings
/// split, with a sample input in each cell's title.
fn host_confusion(h: &mut String, r: &Report) {
    if confusion::peers(r).next().is_none() {
        return;
    }
    let _ = write!(
        h,
        "<h2>Host confusion</h2>\n<p>{}</p>\n<table class=\"matrix\" id=\"host-confusion\">\n\
         <thead><tr><th>parser</th><th>another host</th>",
        escape(HOW)
    );
    for class in HOST_CLASSES {
        let _ = write!(h, "<th>{}</th>", escape(class));
    }
    h.push_str(
        "<th>only urlsift accepts</th><th>only the parser accepts</th></tr></thead>\n<tbody>\n",
    );
    for d in confusion::peers(r) {
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=\"n\">{}</td>",
            escape(d.peer.name()),
            grouped(d.host_lines())
        );
        for class in HOST_CLASSES {
            let sample = d
                .groups
                .iter()
                .find(|g| g.category == "host" && g.reason == class)
                .and_then(|g| g.samples.first());
            match (d.host_classes.get(class), sample) {
                (Some(n), Some(s)) => {
                    let _ = write!(
                        h,
                        "<td class=\"n hit\" title=\"{}\">{}</td>",
                        escape(&format!(
                            "{:?}: urlsift {}; {} {}",
                            s.input,
                            s.ours.summary(),
                            d.peer.name(),
                            s.theirs.summary()
                        )),
                        grouped(*n)
                    );
                }
                (Some(n), None) => {
                    let _ = write!(h, "<td class=\"n hit\">{}</td>", grouped(*n));
                }
                _ => h.push_str("<td class=\"n\"></td>"),
            }
        }
        let _ = writeln!(
            h,
            "<td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            grouped(d.only_urlsift_accepts),
            grouped(d.only_peer_accepts)
        );
    }
    h.push_str("</tbody>\n</table>\n");
}

fn disagreements(h: &mut String, r: &Report) {
    if r.diffs.is_empty() {
        return;
    }
    let _ = write!(
        h,
        "<h2>Disagreements with urlsift</h2>\n<p>{}</p>\n\
         <table class=\"summary\">\n<thead><tr><th>parser</th><th>lines (validity or href)</th>\
         <th>only urlsift accepts</th><th>only the parser accepts</th>\
         <th>same href, other getter</th></tr></thead>\n<tbody>\n",
        escape(JUDGE)
    );
    for d in &r.diffs {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td></tr>",
            escape(d.peer.name()),
            grouped(d.lines),
            grouped(d.only_urlsift_accepts),
            grouped(d.only_peer_accepts),
            grouped(d.component_lines)
        );
    }
    h.push_str(
        "</tbody>\n</table>\n<table class=\"disagreements\">\n<thead><tr><th>parser</th>\
         <th>category</th><th>reason</th><th>lines</th><th>sample input</th><th>urlsift</th>\
         <th>the parser</th><th>standard</th></tr></thead>\n<tbody>\n",
    );
    let mut rows = 0;
    for d in &r.diffs {
        for g in d.sorted_groups() {
            rows += 1;
            let (input, ours, theirs) = match g.samples.first() {
                Some(s) => (
                    format!("{:?} ({}:{})", s.input, s.source, s.line),
                    s.ours.summary(),
                    s.theirs.summary(),
                ),
                None => Default::default(),
            };
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td><code>{}</code>\
                 </td><td><code>{}</code></td><td><code>{}</code></td><td>{}</td></tr>",
                escape(d.peer.name()),
                escape(g.category),
                escape(g.reason),
                grouped(g.count),
                escape(&input),
                escape(&ours),
                escape(&theirs),
                escape(verdict(d.peer))
            );
        }
    }
    if rows == 0 {
        h.push_str("<tr><td colspan=\"8\">No disagreements.</td></tr>\n");
    }
    h.push_str("</tbody>\n</table>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
        assert_eq!(escape("plain ü"), "plain ü");
    }

    #[test]
    fn the_chart_has_a_bar_per_parser_scaled_to_the_fastest() {
        let mut h = String::new();
        chart(&mut h, &[("a<b", 2e6), ("c", 1e6)]);
        assert_eq!(h.matches("<rect").count(), 2);
        assert!(h.contains("width=\"460.0\""), "{h}");
        assert!(h.contains("width=\"230.0\""), "{h}");
        assert!(h.contains("a&lt;b") && !h.contains("a<b"), "{h}");
    }
}

//! Prints each line of FILE that parses (the `url` crate) and matches one
//! of PATTERNS' lines (the `urlpattern` crate, constructor strings), as
//! its user would write the loop: parse once, test the patterns in order.
//!
//! Usage: urlpattern-peer PATTERNS FILE

use std::io::{BufRead, BufWriter, Write};

use urlpattern::{UrlPattern, UrlPatternInit, UrlPatternMatchInput, UrlPatternOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let patterns: Vec<UrlPattern> = std::fs::read_to_string(&args[1])
        .expect("a pattern file")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let init = UrlPatternInit::parse_constructor_string::<regex::Regex>(l, None).expect(l);
            UrlPattern::parse(init, UrlPatternOptions::default()).expect(l)
        })
        .collect();
    let input = std::io::BufReader::new(std::fs::File::open(&args[2]).expect("an input file"));
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in input.split(b'\n') {
        let line = line.expect("read");
        let Ok(text) = std::str::from_utf8(&line) else { continue };
        let Ok(url) = url::Url::parse(text) else { continue };
        let hit = patterns
            .iter()
            .any(|p| p.test(UrlPatternMatchInput::Url(url.clone())).unwrap_or(false));
        if hit {
            writeln!(out, "{}", url.as_str()).expect("write");
        }
    }
}

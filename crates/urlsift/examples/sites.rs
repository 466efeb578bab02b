//! Site lookups side by side, in one process, interleaved over rounds
//! (each engine's best round counts, in on-CPU time): ns per host for our builtin list,
//! our loaded table, the `psl` crate and the `publicsuffix` crate, on the
//! domain hosts of URL files; and, as the command will see it, ns per URL
//! for parse + hostname against parse + site.
//!
//! Usage: cargo run --release --example sites -- [--list FILE] [--rounds N]
//!        [--hosts FILE] [URL FILES...]
//!
//! URL files default to every corpus in `URLSIFT_CORPORA_DIR` (or
//! `../shared/corpora`). `--list` names the `public_suffix_list.dat` that
//! our table and `publicsuffix` load (both the same text); without it,
//! those two rows are left out, and the output says so. `--hosts FILE`
//! instead times our builtin list on a file of hosts, one per line (what
//! `scripts/bench/sites` compares with tldextract on the same file);
//! `--hosts FILE --print` prints each host's site (empty for none).
//! Hosts with an empty label are left out of the per-host rows (the
//! crates answer for them, we do not: see `tests/sites.rs`). Before
//! timing, the engines fed the same rules must agree on the number of
//! sites and their total bytes.

use std::hint::black_box;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use psl::Psl as _;
use urlsift::site::List;
use urlsift::{BatchParser, HostKind};

struct Args {
    list: Option<PathBuf>,
    rounds: usize,
    hosts: Option<PathBuf>,
    only: Option<String>,
    print: bool,
    files: Vec<PathBuf>,
}

fn args() -> Args {
    let mut out = Args {
        list: None,
        rounds: 7,
        hosts: None,
        only: None,
        print: false,
        files: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--list" => out.list = Some(it.next().expect("--list FILE").into()),
            "--rounds" => out.rounds = it.next().expect("--rounds N").parse().expect("N"),
            "--hosts" => out.hosts = Some(it.next().expect("--hosts FILE").into()),
            "--only" => out.only = Some(it.next().expect("--only ENGINE")),
            "--print" => out.print = true,
            _ => out.files.push(a.into()),
        }
    }
    if out.files.is_empty() && out.hosts.is_none() {
        let dir = std::env::var_os("URLSIFT_CORPORA_DIR")
            .map_or("../shared/corpora".into(), PathBuf::from);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .collect();
        files.sort();
        out.files = files;
    }
    out
}

/// Nanoseconds this thread has run on a CPU (Linux: `schedstat`), so that
/// time other processes take from the shared machine is not counted; the
/// wall clock elsewhere.
fn cpu_ns(wall: Instant) -> u128 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| wall.elapsed().as_nanos())
}

/// Sums (sites found, their bytes) so that engines can be compared and the
/// work cannot be optimized away.
type Tally = (usize, usize);

fn tally<'a>(hosts: &'a [String], mut f: impl FnMut(&'a str) -> Option<&'a [u8]>) -> Tally {
    let mut t = (0, 0);
    for h in hosts {
        if let Some(site) = f(black_box(h)) {
            t.0 += 1;
            t.1 += site.len();
        }
    }
    t
}

/// Passes per timed sample: the on-CPU clock ticks in milliseconds.
const PASSES: usize = 4;

fn best_of(rounds: usize, n: usize, mut f: impl FnMut() -> Tally) -> (f64, Tally) {
    let mut best = f64::MAX;
    let mut t = (0, 0);
    for _ in 0..rounds {
        let wall = Instant::now();
        let start = cpu_ns(wall);
        for _ in 0..PASSES {
            t = black_box(f());
        }
        best = best.min((cpu_ns(wall) - start) as f64 / (n * PASSES) as f64);
    }
    (best, t)
}

fn main() {
    let args = args();
    let builtin = List::builtin();
    if let Some(path) = &args.hosts {
        let text = std::fs::read_to_string(path).expect("read hosts");
        let hosts: Vec<String> = text.lines().map(str::to_string).collect();
        if args.print {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            for h in &hosts {
                writeln!(out, "{}", builtin.registrable_domain(h).unwrap_or("")).expect("write");
            }
            return;
        }
        let (ns, t) = best_of(args.rounds, hosts.len(), || {
            tally(&hosts, |h| builtin.registrable_domain(h).map(str::as_bytes))
        });
        println!(
            "urlsift-builtin {ns:.1} ns/host over {} hosts ({} sites, {} bytes)",
            hosts.len(),
            t.0,
            t.1
        );
        return;
    }
    let mut lines = Vec::new();
    for f in &args.files {
        let bytes = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        lines.extend(String::from_utf8_lossy(&bytes).lines().map(str::to_string));
    }
    let mut parser = BatchParser::new();
    let mut hosts = Vec::new();
    for line in &lines {
        if let Ok(url) = parser.parse(line, None)
            && url.host_kind() == Some(HostKind::Domain)
            && !url.hostname().split('.').any(str::is_empty)
        {
            hosts.push(url.hostname().to_string());
        }
    }
    println!(
        "{} URL lines, {} domain hosts, {} rounds, best round each",
        lines.len(),
        hosts.len(),
        args.rounds
    );

    // Per host. Each closure is one engine; all run in every round.
    let icann = builtin.icann_only();
    let tiny = List::parse("zz-no-such-tld").expect("one rule");
    let table = args
        .list
        .as_ref()
        .map(|p| List::from_file(p).expect("load --list"));
    let crate_list: Option<publicsuffix::List> = args.list.as_ref().map(|p| {
        std::fs::read_to_string(p)
            .expect("read --list")
            .parse()
            .expect("publicsuffix parses --list")
    });
    type Engine<'a> = (&'a str, Box<dyn Fn() -> Tally + 'a>);
    let mut engines: Vec<Engine> = vec![
        (
            "urlsift builtin",
            Box::new(|| tally(&hosts, |h| builtin.registrable_domain(h).map(str::as_bytes))),
        ),
        (
            "urlsift builtin icann-only",
            Box::new(|| tally(&hosts, |h| icann.registrable_domain(h).map(str::as_bytes))),
        ),
        (
            "psl crate",
            Box::new(|| {
                tally(&hosts, |h| {
                    psl::List.domain(h.as_bytes()).map(|d| d.as_bytes())
                })
            }),
        ),
        // The host check and label walk with (almost) no rules.
        (
            "front end (a 1-rule table)",
            Box::new(|| tally(&hosts, |h| tiny.registrable_domain(h).map(str::as_bytes))),
        ),
        // What reading each host costs, with no lookup.
        (
            "baseline (host bytes)",
            Box::new(|| tally(&hosts, |h| h.as_bytes().last().map(std::slice::from_ref))),
        ),
    ];
    if let (Some(table), Some(theirs)) = (&table, &crate_list) {
        engines.push((
            "urlsift table (--list)",
            Box::new(|| tally(&hosts, |h| table.registrable_domain(h).map(str::as_bytes))),
        ));
        engines.push((
            "publicsuffix crate (--list)",
            Box::new(|| {
                tally(&hosts, |h| {
                    theirs.domain(h.as_bytes()).map(|d| d.as_bytes())
                })
            }),
        ));
    } else {
        println!("(no --list FILE: the loaded-table and publicsuffix rows are left out)");
    }
    if let Some(only) = &args.only {
        // For profilers: one engine, no comparison.
        let run = &engines
            .iter()
            .find(|(n, _)| n.starts_with(only.as_str()))
            .expect("--only: no such engine")
            .1;
        for _ in 0..args.rounds {
            black_box(run());
        }
        return;
    }
    let mut best = vec![f64::MAX; engines.len()];
    let mut tallies = vec![(0, 0); engines.len()];
    for _ in 0..args.rounds {
        for (i, (_, run)) in engines.iter().enumerate() {
            let (ns, t) = best_of(1, hosts.len(), run);
            tallies[i] = t;
            best[i] = best[i].min(ns);
        }
    }
    let tally_of = |name: &str| {
        engines
            .iter()
            .position(|(n, _)| *n == name)
            .map(|i| tallies[i])
    };
    assert_eq!(
        tally_of("urlsift builtin"),
        tally_of("psl crate"),
        "builtin and psl disagree on the same rules"
    );
    assert_eq!(
        tally_of("urlsift table (--list)"),
        tally_of("publicsuffix crate (--list)"),
        "table and publicsuffix disagree on the same list"
    );
    for (i, (name, _)) in engines.iter().enumerate() {
        println!(
            "{name:30} {:6.1} ns/host  {:5.2}x builtin  ({} sites, {} bytes)",
            best[i],
            best[i] / best[0],
            tallies[i].0,
            tallies[i].1
        );
    }

    // Per URL, as `extract --fields hostname` / `--fields site` see it.
    let per_url = |site: Option<&List>| {
        let mut parser = BatchParser::new();
        let mut t = (0, 0);
        for line in &lines {
            if let Ok(url) = parser.parse(black_box(line), None) {
                let field = match site {
                    Some(list) => list
                        .url_parts(url)
                        .and_then(|p| p.registrable_domain())
                        .unwrap_or(""),
                    None => url.hostname(),
                };
                t.0 += 1;
                t.1 += field.len();
            }
        }
        t
    };
    let mut lists: Vec<(&str, Option<&List>)> =
        vec![("hostname", None), ("site (builtin)", Some(&builtin))];
    if let Some(table) = &table {
        lists.push(("site (table)", Some(table)));
    }
    let mut best = vec![f64::MAX; lists.len()];
    for _ in 0..args.rounds {
        for (i, (_, list)) in lists.iter().enumerate() {
            best[i] = best[i].min(best_of(1, lines.len(), || per_url(*list)).0);
        }
    }
    for (i, (name, _)) in lists.iter().enumerate() {
        println!(
            "parse + {name:16} {:6.1} ns/URL  {:5.2}x parse + hostname",
            best[i],
            best[i] / best[0]
        );
    }
}

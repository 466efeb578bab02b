//! `urlsift stats`: a summary of a URL file — lines, valid, invalid by
//! reason, schemes, top hosts, the share of lines already in normal form
//! (href byte-identical to the line), the share the fast path decided, and
//! throughput — as a table or JSON.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use serde_json::json;
use xxhash_rust::xxh3::xxh3_64_with_seed;

use urlsift_records::stage::Verdict;

use crate::args::StatsArgs;
use crate::error::CliError;
use crate::naming::Named;
use crate::setup::{ReportSettings, Setup, Text, report};

/// Counts by name. Names are hashed in one call (xxh3, seeded per run so
/// crafted names cannot collide on purpose): SipHash over short hosts, and
/// again when the main thread merges each chunk's map, was most of the
/// run's time.
type NameCounts = HashMap<String, u64, Seeded>;

#[derive(Clone, Copy)]
struct Seeded(u64);

impl Default for Seeded {
    fn default() -> Seeded {
        use std::sync::OnceLock;
        static SEED: OnceLock<u64> = OnceLock::new();
        Seeded(*SEED.get_or_init(|| std::collections::hash_map::RandomState::new().hash_one(0u8)))
    }
}

impl BuildHasher for Seeded {
    type Hasher = OneShot;
    fn build_hasher(&self) -> OneShot {
        OneShot {
            seed: self.0,
            hash: 0,
        }
    }
}

/// Hashes a `str` key: its bytes in one call, the terminator byte `str`'s
/// `Hash` adds folded in cheaply.
struct OneShot {
    seed: u64,
    hash: u64,
}

impl Hasher for OneShot {
    fn write(&mut self, bytes: &[u8]) {
        self.hash = self.hash.rotate_left(7) ^ xxh3_64_with_seed(bytes, self.seed);
    }

    fn write_u8(&mut self, b: u8) {
        self.hash = self.hash.rotate_left(7) ^ u64::from(b);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

#[derive(Default)]
pub struct Counts {
    schemes: NameCounts,
    hosts: NameCounts,
    sites: NameCounts,
    suffixes: NameCounts,
    normal: u64,
    /// Valid lines the fast path decided (without the state machine).
    fast: u64,
}

impl Counts {
    fn merge(&mut self, other: Counts) {
        for (k, v) in other.schemes {
            *self.schemes.entry(k).or_insert(0) += v;
        }
        for (k, v) in other.hosts {
            *self.hosts.entry(k).or_insert(0) += v;
        }
        for (k, v) in other.sites {
            *self.sites.entry(k).or_insert(0) += v;
        }
        for (k, v) in other.suffixes {
            *self.suffixes.entry(k).or_insert(0) += v;
        }
        self.normal += other.normal;
        self.fast += other.fast;
    }
}

/// Largest counts first, ties by name, so the output is deterministic.
/// The `top` entries by count (ties by name), most first: selected, then
/// only those sorted (a full sort of every host was a second of a large
/// run's end).
fn ranked<K: Ord>(map: impl IntoIterator<Item = (K, u64)>, top: usize) -> Vec<(K, u64)> {
    let order = |a: &(K, u64), b: &(K, u64)| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0));
    let mut v: Vec<(K, u64)> = map.into_iter().collect();
    if top < v.len() {
        if top == 0 {
            return Vec::new();
        }
        v.select_nth_unstable_by(top - 1, order);
        v.truncate(top);
    }
    v.sort_unstable_by(order);
    v
}

fn pct(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

pub fn run(a: StatsArgs) -> Result<ExitCode, CliError> {
    let started = Instant::now();
    let setup = Setup::new(
        &a.input,
        &a.output,
        None,
        false,
        match a.json {
            true => Text(Some(Named::Json), "JSON"),
            false => Text(None, "a text report"),
        },
    )?;
    let base = a.input.base()?;
    let stage = a.input.stage(Some(&a.filters), None)?;
    let job = setup.job(false);
    // Each worker counts into its own totals (its lock is never contended),
    // merged once at the end: no map per chunk, so no allocation per host
    // per chunk and no merge of every chunk (merging every chunk on the
    // consuming thread serialized the run; merging them on the workers was
    // most of its work).
    let per_worker: Vec<Mutex<Counts>> = (0..setup.engine.threads())
        .map(|_| Mutex::new(Counts::default()))
        .collect();
    let settings = setup.report;
    let mut done = setup.run(
        |chunk| {
            let worker = rayon::current_thread_index().unwrap_or(0) % per_worker.len();
            let mut counts = per_worker[worker].lock().expect("a worker's own totals");
            let counts = &mut *counts;
            job.run_parsed(chunk, base.as_ref(), (), |p, _, text, parser| {
                let fast = parser.last_took_fast_path();
                let url = parser.last_mut().expect("just parsed");
                // (Normal form and the fast path's share are counted before
                // any edit.)
                let normal = url.href() == text;
                if stage.apply(url, &mut p.tally) == Verdict::Drop {
                    return Ok(());
                }
                let c = &mut *counts;
                p_count(&mut c.schemes, url.scheme());
                if !url.hostname().is_empty() {
                    p_count(&mut c.hosts, url.hostname());
                }
                if let Some(parts) = stage.list.url_parts(url) {
                    p_count(&mut c.suffixes, parts.public_suffix());
                    if let Some(site) = parts.registrable_domain() {
                        p_count(&mut c.sites, site);
                    }
                }
                c.normal += u64::from(normal);
                c.fast += u64::from(fast);
                Ok(())
            })
        },
        |ledger, chunk, p| {
            // (A piece of an over-long line: the ledger counts it, bytes
            // and all; its worker made nothing of it.)
            if chunk.oversize.is_some() {
                ledger.oversize(chunk, false)?;
            } else {
                ledger.tally_mut().merge(&p.tally);
            }
            Ok(true)
        },
    )?;
    let tally = done.ledger.tally().clone();
    // The other workers' totals merged into the largest (not all of them
    // into a new map: rehashing every host once more).
    let mut all: Vec<Counts> = per_worker
        .into_iter()
        .map(|c| c.into_inner().expect("workers are done"))
        .collect();
    let largest = (0..all.len())
        .max_by_key(|&i| all[i].hosts.len())
        .expect("one worker at least");
    let mut counts = all.swap_remove(largest);
    for c in all {
        counts.merge(c);
    }
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    let invalid = tally.bad_total();
    let reasons = ranked(tally.bad.iter().map(|(k, v)| (*k, *v)), usize::MAX);
    let named = |m: &NameCounts, top| {
        let top = ranked(m.iter().map(|(k, n)| (k.as_str(), *n)), top);
        top.into_iter()
            .map(|(k, n)| (k.to_string(), n))
            .collect::<Vec<_>>()
    };
    let schemes = named(&counts.schemes, usize::MAX);
    let hosts = named(&counts.hosts, a.top);
    let sites = named(&counts.sites, a.top);
    let suffixes = named(&counts.suffixes, a.top);
    let (normal, fast) = (counts.normal, counts.fast);
    // The process ends after the report: the maps (a name each for
    // hundreds of thousands of hosts) are not freed one name at a time.
    std::mem::forget(counts);
    let mut text = String::new();
    if a.json {
        let obj = |v: &[(_, u64)]| -> serde_json::Value {
            v.iter()
                .map(|(k, n): &(String, u64)| json!({ "name": k, "count": n }))
                .collect()
        };
        let reasons: Vec<(String, u64)> =
            reasons.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        let mut v = json!({
            "lines": tally.lines,
            "empty": tally.empty,
            "valid": tally.valid,
            "invalid": invalid,
            "invalid_by_reason": obj(&reasons),
            "schemes": obj(&schemes),
            "top_hosts": obj(&hosts),
            "top_sites": obj(&sites),
            "top_public_suffixes": obj(&suffixes),
            "filtered": tally.filtered,
            "already_normal": normal,
            "already_normal_share": normal as f64 / tally.valid.max(1) as f64,
            "fast_path": fast,
            "fast_path_share": fast as f64 / tally.valid.max(1) as f64,
            "bytes": tally.bytes,
            "seconds": secs,
            "bytes_per_second": tally.bytes as f64 / secs,
            "lines_per_second": tally.lines as f64 / secs,
            "public_suffix_list": stage.list.provenance(),
        });
        if let Some(t) = &done.timings {
            v["timings"] = serde_json::from_str(&t.json()).expect("timings JSON");
        }
        text.push_str(&serde_json::to_string_pretty(&v).expect("json"));
        text.push('\n');
    } else {
        let row = |t: &mut String, name: &str, n: u64, note: String| {
            t.push_str(&format!("{name:<34} {n:>12}{note}\n"));
        };
        row(&mut text, "lines", tally.lines, String::new());
        row(&mut text, "  empty", tally.empty, String::new());
        let non_empty = tally.lines - tally.empty;
        row(
            &mut text,
            "  valid",
            tally.valid,
            format!("  {:5.1}% of non-empty", pct(tally.valid, non_empty)),
        );
        row(
            &mut text,
            "  invalid",
            invalid,
            format!("  {:5.1}% of non-empty", pct(invalid, non_empty)),
        );
        row(
            &mut text,
            "already normal (href == line)",
            normal,
            format!("  {:5.1}% of valid", pct(normal, tally.valid)),
        );
        row(
            &mut text,
            "decided by the fast path",
            fast,
            format!("  {:5.1}% of valid", pct(fast, tally.valid)),
        );
        text.push_str(&format!(
            "{:<34} {:>12.1} MB/s, {:.0} lines/s ({} bytes in {:.3} s)\n",
            "throughput",
            tally.bytes as f64 / secs / 1e6,
            tally.lines as f64 / secs,
            tally.bytes,
            secs
        ));
        for (title, list) in [
            (
                "invalid by reason",
                reasons
                    .iter()
                    .map(|(k, v)| (k.to_string(), *v))
                    .collect::<Vec<_>>(),
            ),
            ("schemes", schemes),
            ("top hosts", hosts),
            ("top sites", sites),
            ("top public suffixes", suffixes),
        ] {
            text.push_str(&format!("\n{title}\n"));
            if list.is_empty() {
                text.push_str("  (none)\n");
            }
            for (k, v) in list {
                row(&mut text, &format!("  {k}"), v, String::new());
            }
        }
    }
    done.put(text.as_bytes())?;
    let (_, errors) = done.commit()?;
    // The table is the report; only read errors follow it.
    let settings = ReportSettings {
        quiet: true,
        ..settings
    };
    Ok(report(&tally, 0, &settings, "", &errors))
}

fn p_count(map: &mut NameCounts, key: &str) {
    match map.get_mut(key) {
        Some(n) => *n += 1,
        None => {
            map.insert(key.to_string(), 1);
        }
    }
}

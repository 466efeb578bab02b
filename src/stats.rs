//! `urlsift stats`: a summary of a URL file — lines, valid, invalid by
//! reason, schemes, top hosts, the share of lines already in normal form
//! (href byte-identical to the line), the share the fast path decided, and
//! throughput — as a table or JSON.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;
use serde_json::json;
use xxhash_rust::xxh3::xxh3_64_with_seed;

use urlsift::HostKind;
use urlsift::site::List;
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

/// Counts by host: every URL with the host, and those where it is a domain
/// (the site and public suffix counts are made from these, once per
/// distinct host, after the run). Each host is kept with its hash, taken
/// once per URL: it picks the host's partition and its slot, and the
/// merge at the end never hashes a host again.
type HostCounts = hashbrown::HashTable<(u64, String, HostCount)>;

/// One host's counts.
#[derive(Clone, Copy, Default)]
struct HostCount {
    /// URLs with this hostname.
    all: u64,
    /// Those whose host is a domain (not an IP address or an opaque host).
    domain: u64,
}

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

/// With more than one thread, host counts are kept in this many
/// partitions by the host's hash, so that the workers' counts are merged a
/// partition at a time, in parallel (and sites likewise by the site's
/// hash).
const PARTS: usize = 16;

/// How many partitions a run on `threads` threads keeps.
fn parts_for(threads: usize) -> usize {
    if threads > 1 { PARTS } else { 1 }
}

/// A name's hash (the seeded xxh3 of its bytes).
fn hash_of(name: &str) -> u64 {
    xxh3_64_with_seed(name.as_bytes(), Seeded::default().0)
}

/// The partition of a name of hash `hash`, of `parts` (from bits that
/// neither a table's slot nor its tag byte is taken from).
fn part_of_hash(hash: u64, parts: usize) -> usize {
    (hash >> 32) as usize % parts
}

/// The partition of `name`, of `parts`.
fn part_of(name: &str, parts: usize) -> usize {
    part_of_hash(hash_of(name), parts)
}

/// Adds `n` to the host of hash `hash` in `table`.
fn add_host(table: &mut HostCounts, hash: u64, host: &str, n: HostCount) {
    match table.find_mut(hash, |e| e.1 == host) {
        Some(e) => e.2 += n,
        None => {
            table.insert_unique(hash, (hash, host.to_string(), n), |e| e.0);
        }
    }
}

/// Merges host tables into the largest of them, by the hashes they keep.
fn merged_hosts(mut tables: Vec<HostCounts>) -> HostCounts {
    let Some(largest) = (0..tables.len()).max_by_key(|&i| tables[i].len()) else {
        return HostCounts::new();
    };
    let mut into = tables.swap_remove(largest);
    for t in tables {
        for (hash, host, n) in t {
            match into.find_mut(hash, |e| e.1 == host) {
                Some(e) => e.2 += n,
                None => {
                    into.insert_unique(hash, (hash, host, n), |e| e.0);
                }
            }
        }
    }
    into
}

/// One worker's counts.
pub struct Counts {
    schemes: NameCounts,
    /// By [`part_of`] the host.
    hosts: Vec<HostCounts>,
    normal: u64,
    /// Valid lines the fast path decided (without the state machine).
    fast: u64,
}

impl Counts {
    /// Nothing counted, hosts in `parts` partitions.
    fn new(parts: usize) -> Counts {
        Counts {
            schemes: NameCounts::default(),
            hosts: (0..parts).map(|_| HostCounts::new()).collect(),
            normal: 0,
            fast: 0,
        }
    }
}

/// Adds `n` to `key`'s count.
fn bump(map: &mut NameCounts, key: &str, n: u64) {
    match map.get_mut(key) {
        Some(count) => *count += n,
        None => {
            map.insert(key.to_string(), n);
        }
    }
}

/// Merges `maps` into the largest of them (not all into a new map:
/// rehashing every name once more).
fn merged<V: Copy + std::ops::AddAssign + Default>(
    mut maps: Vec<HashMap<String, V, Seeded>>,
) -> HashMap<String, V, Seeded> {
    let Some(largest) = (0..maps.len()).max_by_key(|&i| maps[i].len()) else {
        return HashMap::default();
    };
    let mut into = maps.swap_remove(largest);
    for m in maps {
        for (k, v) in m {
            *into.entry(k).or_default() += v;
        }
    }
    into
}

impl std::ops::AddAssign for HostCount {
    fn add_assign(&mut self, other: HostCount) {
        self.all += other.all;
        self.domain += other.domain;
    }
}

/// A host partition's top hosts, its sites by [`part_of`] the site, and
/// its public suffixes.
type PartTables = (Vec<(String, u64)>, Vec<NameCounts>, NameCounts);

/// What the report shows of the counts.
struct Tables {
    schemes: Vec<(String, u64)>,
    hosts: Vec<(String, u64)>,
    sites: Vec<(String, u64)>,
    suffixes: Vec<(String, u64)>,
    normal: u64,
    fast: u64,
}

/// The workers' counts as the report's tables, on `pool`: each host
/// partition merged across the workers, ranked, and its domains' sites
/// and public suffixes looked up (once per distinct host, not per URL: a
/// host's site depends on the host alone), all partitions at once; then
/// the sites, partitioned by the site, merged and ranked the same way.
/// Every host (and site) is in one partition only, so the top `top` of
/// the partitions' tops are the top `top` of all.
fn tables(workers: Vec<Counts>, list: &List, top: usize, pool: &rayon::ThreadPool) -> Tables {
    let (mut schemes, mut normal, mut fast) = (Vec::new(), 0, 0);
    let n_parts = workers.first().map_or(1, |c| c.hosts.len());
    let mut hosts: Vec<Vec<HostCounts>> = (0..n_parts).map(|_| Vec::new()).collect();
    for c in workers {
        schemes.push(c.schemes);
        normal += c.normal;
        fast += c.fast;
        for (p, m) in c.hosts.into_iter().enumerate() {
            hosts[p].push(m);
        }
    }
    let named = |m: &NameCounts, top| -> Vec<(String, u64)> {
        let top = ranked(m.iter().map(|(k, n)| (k.as_str(), *n)), top);
        top.into_iter().map(|(k, n)| (k.to_string(), n)).collect()
    };
    let by_part: Vec<PartTables> = pool.install(|| {
        hosts
            .into_par_iter()
            .map(|maps| {
                let hosts = merged_hosts(maps);
                let mut sites: Vec<NameCounts> =
                    (0..n_parts).map(|_| NameCounts::default()).collect();
                let mut suffixes = NameCounts::default();
                for (_, host, n) in hosts.iter().filter(|(_, _, n)| n.domain > 0) {
                    if let Some(parts) = list.parts(host) {
                        bump(&mut suffixes, parts.public_suffix(), n.domain);
                        if let Some(site) = parts.registrable_domain() {
                            bump(&mut sites[part_of(site, n_parts)], site, n.domain);
                        }
                    }
                }
                let top = ranked(hosts.iter().map(|(_, k, n)| (k.as_str(), n.all)), top);
                let top = top.into_iter().map(|(k, n)| (k.to_string(), n)).collect();
                // The process ends after the report: a map of hundreds of
                // thousands of names is not freed one name at a time.
                std::mem::forget(hosts);
                (top, sites, suffixes)
            })
            .collect()
    });
    let mut tops = Vec::new();
    let mut sites: Vec<Vec<NameCounts>> = (0..n_parts).map(|_| Vec::new()).collect();
    let mut suffixes = Vec::new();
    for (top, by_site, s) in by_part {
        tops.extend(top);
        for (p, m) in by_site.into_iter().enumerate() {
            sites[p].push(m);
        }
        suffixes.push(s);
    }
    let site_tops: Vec<Vec<(String, u64)>> = pool.install(|| {
        sites
            .into_par_iter()
            .map(|maps| {
                let sites = merged(maps);
                let top = named(&sites, top);
                std::mem::forget(sites);
                top
            })
            .collect()
    });
    Tables {
        schemes: named(&merged(schemes), usize::MAX),
        hosts: ranked(tops, top),
        sites: ranked(site_tops.into_iter().flatten(), top),
        suffixes: named(&merged(suffixes), top),
        normal,
        fast,
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

/// `part` as a percentage of `whole`, to one decimal, never rounded to
/// all or nothing when it is neither: `>99.9` for 363,785 of 363,911,
/// `<0.1` for 1 of 10,000.
fn share(part: u64, whole: u64) -> String {
    if whole == 0 || part == 0 {
        return "0.0".into();
    }
    if part >= whole {
        return "100.0".into();
    }
    let shown = format!("{:.1}", 100.0 * part as f64 / whole as f64);
    match shown.as_str() {
        "100.0" => ">99.9".into(),
        "0.0" => "<0.1".into(),
        _ => shown,
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
        |b| b,
    )?;
    let base = a.input.base()?;
    let stage = a.input.stage(Some(&a.filters), None)?;
    let job = setup.job(false);
    // Each worker counts into its own totals (its lock is never contended),
    // merged once at the end: no map per chunk, so no allocation per host
    // per chunk and no merge of every chunk (merging every chunk on the
    // consuming thread serialized the run; merging them on the workers was
    // most of its work).
    let parts = parts_for(setup.engine.threads());
    let per_worker: Vec<Mutex<Counts>> = (0..setup.engine.threads())
        .map(|_| Mutex::new(Counts::new(parts)))
        .collect();
    let settings = setup.report;
    let setup_threads = setup.engine.threads();
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
                bump(&mut c.schemes, url.scheme(), 1);
                let host = url.hostname();
                if !host.is_empty() {
                    let domain = u64::from(url.host_kind() == Some(HostKind::Domain));
                    let hash = hash_of(host);
                    let n = HostCount { all: 1, domain };
                    add_host(&mut c.hosts[part_of_hash(hash, parts)], hash, host, n);
                }
                c.normal += u64::from(normal);
                c.fast += u64::from(fast);
                Ok(())
            })
        },
        |ledger, chunk, p| {
            // (A piece of an over-long line: the ledger counts it, bytes
            // and all; its worker made nothing of it.)
            if chunk.oversize().is_some() {
                ledger.oversize(chunk, false)?;
            } else {
                ledger.tally_mut().merge(&p.tally);
            }
            Ok(true)
        },
    )?;
    let tally = done.ledger.tally().clone();
    let workers: Vec<Counts> = per_worker
        .into_iter()
        .map(|c| c.into_inner().expect("workers are done"))
        .collect();
    // (The merge is part of the run: -j caps its threads too.)
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(setup_threads)
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start {setup_threads} threads: {e}")))?;
    let tables = tables(workers, &stage.list, a.top, &pool);
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    let invalid = tally.bad_total();
    let reasons = ranked(tally.bad.iter().map(|(k, v)| (*k, *v)), usize::MAX);
    let Tables {
        schemes,
        hosts,
        sites,
        suffixes,
        normal,
        fast,
    } = tables;
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
        // Lines, or records (WARC records, CSV and Parquet rows, ...).
        let noun = settings.noun;
        row(&mut text, noun, tally.lines, String::new());
        row(&mut text, "  empty", tally.empty, String::new());
        let non_empty = tally.lines - tally.empty;
        row(
            &mut text,
            "  valid",
            tally.valid,
            format!("  {:>5}% of non-empty", share(tally.valid, non_empty)),
        );
        row(
            &mut text,
            "  invalid",
            invalid,
            format!("  {:>5}% of non-empty", share(invalid, non_empty)),
        );
        row(
            &mut text,
            "already normal (href == line)",
            normal,
            format!("  {:>5}% of valid", share(normal, tally.valid)),
        );
        row(
            &mut text,
            "decided by the fast path",
            fast,
            format!("  {:>5}% of valid", share(fast, tally.valid)),
        );
        text.push_str(&format!(
            "{:<34} {:>12.1} MB/s, {:.0} {noun}/s ({} bytes in {:.3} s)\n",
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

#[cfg(test)]
mod tests {
    use super::share;

    #[test]
    fn a_share_is_never_rounded_to_all_or_nothing() {
        assert_eq!(share(363_785, 363_911), ">99.9");
        assert_eq!(share(1, 10_000), "<0.1");
        assert_eq!(share(5, 5), "100.0");
        assert_eq!(share(0, 5), "0.0");
        assert_eq!(share(0, 0), "0.0");
        assert_eq!(share(1, 3), "33.3");
        assert_eq!(share(9_994, 10_000), "99.9");
    }
}

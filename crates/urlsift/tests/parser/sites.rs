//! The site module against the Public Suffix List's data: the builtin list
//! and a loaded table give the same answers on the same rules, and a
//! second implementation (the `publicsuffix` crate) agrees with our table
//! fed the same text, on every host of every corpus and hosts made from
//! every rule.

use crate::common;

use std::collections::BTreeSet;

use publicsuffix::Psl as _;
use urlsift::site::List;

use common::psl as lists;

/// Every host the comparisons run over: the corpora's and the rules'.
fn all_hosts(rules: &[String]) -> BTreeSet<String> {
    let (mut hosts, failed) = lists::corpus_hosts();
    let from_corpora = hosts.len();
    assert!(from_corpora > 50_000, "only {from_corpora} corpus hosts");
    eprintln!("{from_corpora} distinct corpus hosts ({failed} lines did not parse)");
    hosts.extend(lists::rule_hosts(rules));
    // Shapes the corpora may lack.
    for h in [
        "com",
        "com.",
        "example.com.",
        "a.b.c.d.e.f.example.co.uk",
        "unknowntld",
        "x.unknowntld",
    ] {
        hosts.insert(h.to_string());
    }
    hosts
}

fn answers(list: &List, host: &str) -> Option<(String, Option<String>)> {
    list.parts(host).map(|p| {
        (
            p.public_suffix().to_string(),
            p.registrable_domain().map(str::to_string),
        )
    })
}

#[test]
fn builtin_equals_a_table_of_the_same_rules() {
    let rules = lists::psl_rules();
    let table = List::parse(&lists::psl_list_text()).expect("rules parse");
    let builtin = List::builtin();
    let hosts = all_hosts(&rules);
    eprintln!("{} hosts, each with and without private rules", hosts.len());
    let mut disagreements = Vec::new();
    for private in [true, false] {
        let (a, b) = (builtin.with_private(private), table.with_private(private));
        for host in &hosts {
            let (x, y) = (answers(&a, host), answers(&b, host));
            if x != y {
                disagreements.push(format!(
                    "private={private} {host}: builtin {x:?}, table {y:?}"
                ));
            }
        }
    }
    assert_no_disagreement(&disagreements);
}

/// The comparison above can fail: a table missing one rule disagrees.
#[test]
fn a_missing_rule_is_noticed() {
    let text = lists::psl_list_text();
    assert!(text.contains("\ngithub.io\n"));
    let table = List::parse(&text.replace("\ngithub.io\n", "\n")).unwrap();
    assert_eq!(
        answers(&List::builtin(), "a.github.io")
            .unwrap()
            .1
            .as_deref(),
        Some("a.github.io")
    );
    assert_eq!(
        answers(&table, "a.github.io").unwrap().1.as_deref(),
        Some("github.io")
    );
}

/// `registrable_domain` against the `publicsuffix` crate fed the same
/// text, with and without private rules.
fn differential(text: &str, hosts: &BTreeSet<String>) {
    let ours = List::parse(text).expect("our parse");
    let theirs: publicsuffix::List = text.parse().expect("publicsuffix parse");
    let theirs_icann: publicsuffix::IcannList = text.parse().expect("publicsuffix parse");
    let mut disagreements = Vec::new();
    let mut empty_labels = 0;
    for host in hosts {
        if has_empty_label(host) {
            // Not a domain name, so no site; `publicsuffix` does not check
            // (see `publicsuffix_crate_answers_for_empty_labels`).
            empty_labels += 1;
            assert_eq!(ours.parts(host), None, "{host}");
            continue;
        }
        let want = theirs
            .domain(host.as_bytes())
            .map(|d| d.as_bytes().to_vec());
        let got = ours.registrable_domain(host).map(|d| d.as_bytes().to_vec());
        if got != want {
            disagreements.push(format!("{host}: ours {got:?}, publicsuffix {want:?}"));
        }
        let want = theirs_icann
            .domain(host.as_bytes())
            .map(|d| d.as_bytes().to_vec());
        let got = ours
            .icann_only()
            .registrable_domain(host)
            .map(|d| d.as_bytes().to_vec());
        if got != want {
            disagreements.push(format!("icann {host}: ours {got:?}, publicsuffix {want:?}"));
        }
    }
    eprintln!(
        "{} hosts compared, {empty_labels} with an empty label",
        hosts.len() - empty_labels
    );
    assert_no_disagreement(&disagreements);
}

#[test]
fn publicsuffix_crate_agrees_on_the_builtin_rules() {
    let rules = lists::psl_rules();
    differential(&lists::psl_list_text(), &all_hosts(&rules));
}

#[test]
fn publicsuffix_crate_agrees_on_its_own_list_file() {
    let text = lists::publicsuffix_package_list();
    let rules: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with("//") && !l.trim().is_empty())
        .map(|l| l.trim().to_string())
        .collect();
    differential(&text, &all_hosts(&rules));
}

fn has_empty_label(host: &str) -> bool {
    host.strip_suffix('.')
        .unwrap_or(host)
        .split('.')
        .any(str::is_empty)
}

/// The one kind of host where `publicsuffix` and we differ, and why it is
/// theirs: a label of a domain name is never empty (RFC 1034 3.1), so a
/// host with an empty label has no registrable domain; `publicsuffix`
/// answers anyway, with an empty label as the registered name (`.club`)
/// or a name that is not a suffix of the host's labels.
#[test]
fn publicsuffix_crate_answers_for_empty_labels() {
    let text = lists::psl_list_text();
    let theirs: publicsuffix::List = text.parse().unwrap();
    let ours = List::parse(&text).unwrap();
    let domain = |h: &str| {
        theirs
            .domain(h.as_bytes())
            .map(|d| String::from_utf8(d.as_bytes().to_vec()).unwrap())
    };
    assert_eq!(domain("www.example..club").as_deref(), Some(".club"));
    assert_eq!(domain(".eslintrc.js").as_deref(), Some("eslintrc.js"));
    for host in ["www.example..club", ".eslintrc.js", "a..b.example.com"] {
        assert_eq!(ours.parts(host), None, "{host}");
        assert_eq!(List::builtin().parts(host), None, "{host}");
    }
}

/// The provenance names the `psl` version `Cargo.lock` really builds.
#[test]
fn provenance_names_the_locked_psl_version() {
    let lock =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.lock")).unwrap();
    let version = lock
        .split("[[package]]")
        .find(|p| p.contains("\nname = \"psl\"\n"))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = ")))
        .expect("psl in Cargo.lock")
        .trim_matches('"');
    assert_eq!(
        List::builtin().provenance(),
        format!("builtin (psl crate {version})")
    );
}

fn assert_no_disagreement(disagreements: &[String]) {
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements[..disagreements.len().min(30)].join("\n")
    );
}

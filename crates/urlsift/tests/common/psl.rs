//! The Public Suffix List texts the site tests feed to every
//! implementation, taken from the crate packages this project already
//! depends on (never committed here), and the corpus hosts they run over.
//!
//! - `psl`'s package ships `data/rules.txt`: the rules its compiled code
//!   (our builtin list) was generated from, one per line, without comments
//!   or section markers. [`psl_list_text`] gives them back their sections,
//!   asking the compiled code which section each rule came from, so a
//!   loaded table and the builtin can be compared in both modes.
//! - `publicsuffix`'s package ships `tests/public_suffix_list.dat`: an
//!   (older) upstream file with comments, sections and Unicode rules.
//!
//! Packages are found with `cargo metadata`; a missing file fails loudly.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use psl::Psl;
use urlsift::{HostKind, Url};

/// The host's target triple, from `rustc -vV`.
fn host_triple() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(&rustc)
        .arg("-vV")
        .output()
        .unwrap_or_else(|e| panic!("run {rustc} -vV: {e}"));
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("host: "))
        .unwrap_or_else(|| panic!("no host line in {rustc} -vV: {text}"))
        .trim()
        .to_string()
}

/// The directory of the package `name` this crate depends on.
///
/// Offline and for this platform only: without `--filter-platform`, cargo
/// resolves every platform's packages (Windows-only ones too, which a
/// Linux build never downloads) and fails offline.
pub fn package_dir(name: &str) -> PathBuf {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--offline"])
        .arg("--filter-platform")
        .arg(host_triple())
        .arg("--manifest-path")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata JSON");
    let package = meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("package {name} not in cargo metadata"));
    let manifest = PathBuf::from(package["manifest_path"].as_str().expect("manifest_path"));
    manifest.parent().expect("package dir").to_path_buf()
}

fn read(path: PathBuf) -> String {
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The rules of the builtin list (`psl`'s `data/rules.txt`), as written.
pub fn psl_rules() -> Vec<String> {
    let rules: Vec<String> = read(package_dir("psl").join("data/rules.txt"))
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    assert!(rules.len() > 5000, "only {} rules read", rules.len());
    rules
}

/// A host that the rule matches exactly (its wildcard filled in).
pub fn rule_host(rule: &str) -> String {
    let rule = rule.trim_start_matches('!');
    match rule.strip_prefix("*.") {
        Some(rest) => format!("zz9-wild.{rest}"),
        None => rule.to_string(),
    }
}

/// Whether the builtin list holds `rule` as a private rule: the section
/// its compiled code reports for a host that only `rule` matches in full.
pub fn is_private(rule: &str) -> bool {
    let host = urlsift::host::Host::parse(&rule_host(rule), false).expect("rule host parses");
    let urlsift::host::Host::Domain(host) = host else {
        panic!("rule {rule} is not a domain");
    };
    let info = psl::List.find(host.as_bytes().rsplit(|&b| b == b'.'));
    info.typ == Some(psl::Type::Private)
}

/// The builtin list's rules as a `public_suffix_list.dat`, sections restored.
pub fn psl_list_text() -> String {
    let (private, icann): (Vec<String>, Vec<String>) =
        psl_rules().into_iter().partition(|r| is_private(r));
    assert!(
        private.len() > 1000 && icann.len() > 5000,
        "sections look wrong"
    );
    format!(
        "// ===BEGIN ICANN DOMAINS===\n{}\n// ===END ICANN DOMAINS===\n\
         // ===BEGIN PRIVATE DOMAINS===\n{}\n// ===END PRIVATE DOMAINS===\n",
        icann.join("\n"),
        private.join("\n")
    )
}

/// The upstream-format list shipped in the `publicsuffix` package.
pub fn publicsuffix_package_list() -> String {
    read(package_dir("publicsuffix").join("tests/public_suffix_list.dat"))
}

/// Every distinct domain host of every corpus line that parses, and the
/// number of lines that did not parse.
pub fn corpus_hosts() -> (BTreeSet<String>, usize) {
    let mut hosts = BTreeSet::new();
    let mut failed = 0;
    for file in super::corpus_files() {
        let bytes = std::fs::read(&file).expect("read corpus");
        for line in String::from_utf8_lossy(&bytes).lines() {
            match Url::parse(line) {
                Ok(url) if url.host_kind() == Some(HostKind::Domain) => {
                    hosts.insert(url.hostname().to_string());
                }
                Ok(_) => {}
                Err(_) => failed += 1,
            }
        }
    }
    (hosts, failed)
}

/// Hosts made from every rule: the rule's own host, one and two labels
/// under it, and `www` under it.
pub fn rule_hosts(rules: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for rule in rules {
        let Ok(urlsift::host::Host::Domain(h)) =
            urlsift::host::Host::parse(&rule_host(rule), false)
        else {
            continue;
        };
        out.push(format!("a.b.{h}"));
        out.push(format!("www.{h}"));
        out.push(format!("x.{h}"));
        out.push(h);
    }
    out
}

//! The normalization profiles (`urlsift::profile`) against a plain model of
//! their definitions, on every line of `../shared/corpora`: the library
//! works from the href with borrowed slices and skips unchanged queries;
//! the model parses the URL's parts and rebuilds the string every time.

use crate::common;

use urlsift::Url;
use urlsift::profile::{Profile, surt};

/// `*` any run, `?` one byte, ASCII case-insensitive; the whole name.
fn glob(pattern: &[u8], name: &[u8]) -> bool {
    match (pattern.split_first(), name.split_first()) {
        (None, None) => true,
        (Some((b'*', rest)), _) => {
            glob(rest, name) || (!name.is_empty() && glob(pattern, &name[1..]))
        }
        (Some((&p, rest)), Some((&n, more))) => {
            (p == b'?' || p.eq_ignore_ascii_case(&n)) && glob(rest, more)
        }
        _ => false,
    }
}

/// The profile applied the long way: query pairs filtered by name, sorted
/// stably by name, a query left empty dropped, the fragment kept or not.
fn model(url: &Url, strip: &[&str], sort: bool, strip_fragment: bool) -> String {
    let href = url.href();
    let tail = url.query().map_or(0, |q| q.len() + 1) + url.fragment().map_or(0, |f| f.len() + 1);
    let mut out = href[..href.len() - tail].to_string();
    if let Some(q) = url.query() {
        let name = |pair: &&str| pair.split('=').next().unwrap_or("").to_string();
        let mut pairs: Vec<&str> = q
            .split('&')
            .filter(|p| !strip.iter().any(|g| glob(g.as_bytes(), name(p).as_bytes())))
            .collect();
        if sort {
            pairs.sort_by_key(name);
        }
        if !pairs.is_empty() {
            out.push('?');
            out.push_str(&pairs.join("&"));
        }
    }
    if let (Some(f), false) = (url.fragment(), strip_fragment) {
        out.push('#');
        out.push_str(f);
    }
    out
}

#[test]
fn profiles_equal_their_model_on_every_corpus_line() {
    let strip = ["utm_*", "fbclid", "gclid", "?d"];
    let profiles = [
        (Profile::new().strip_fragment(true), &[][..], false, true),
        (Profile::new().sort_query(true), &[][..], true, false),
        (
            Profile::new().strip_params(strip).unwrap(),
            &strip[..],
            false,
            false,
        ),
        (
            Profile::new()
                .strip_params(strip)
                .unwrap()
                .sort_query(true)
                .strip_fragment(true),
            &strip[..],
            true,
            true,
        ),
    ];
    let (mut checked, mut changed) = (0usize, 0usize);
    let mut failures = Vec::new();
    for path in common::corpus_files() {
        let text = std::fs::read_to_string(&path).expect("UTF-8 corpus");
        for line in text.lines() {
            let Ok(url) = Url::parse(line) else { continue };
            for (profile, strip, sort, strip_fragment) in &profiles {
                let got = profile.apply_to_string(&url);
                let want = model(&url, strip, *sort, *strip_fragment);
                checked += 1;
                changed += usize::from(got != url.href());
                if got != want && failures.len() < 10 {
                    failures.push(format!(
                        "{line:?} with {profile:?}: {got:?}, model {want:?}"
                    ));
                }
                // Also idempotent: the form, parsed again, keeps its form.
                if let Ok(again) = Url::parse(&got) {
                    let twice = profile.apply_to_string(&again);
                    if twice != got && failures.len() < 10 {
                        failures.push(format!(
                            "{line:?} with {profile:?}: not idempotent: {twice:?}"
                        ));
                    }
                }
            }
            // The SURT key of a URL is the key of its href.
            let key = surt(&url);
            if surt(&Url::parse(url.href()).unwrap()) != key && failures.len() < 10 {
                failures.push(format!("{line:?}: SURT key unstable"));
            }
        }
    }
    assert!(checked > 2_000_000, "only {checked} checks");
    assert!(
        changed > 10_000,
        "the profiles changed only {changed} URLs: the test would prove little"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The `urlkey` pywb's indexer wrote for each capture of its sample
/// archive (`../shared/crawl-samples/pywb/*.cdxj`) is the SURT key of the
/// capture's `url`; the keys of POST captures, which carry the request
/// body (`__wb_method=post&...`), are an indexer's, not a URL's.
#[test]
fn surt_keys_equal_the_urlkeys_of_pywbs_indexes() {
    let dir = common::crawl_samples_dir().join("pywb");
    let (mut checked, mut failures) = (0, Vec::new());
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "cdxj") {
            continue;
        }
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let (urlkey, rest) = line.split_once(' ').unwrap();
            if urlkey.contains("__wb_method=") {
                continue;
            }
            let json: serde_json::Value =
                serde_json::from_str(rest.split_once(' ').unwrap().1).unwrap();
            let url = Url::parse(json["url"].as_str().unwrap()).unwrap();
            checked += 1;
            if surt(&url) != urlkey {
                failures.push(format!("{}: {urlkey} != {}", path.display(), surt(&url)));
            }
        }
    }
    assert!(checked >= 180, "only {checked} index lines");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// urlcanon's own SSURT vectors (`../shared/canon/urlcanon/ssurt.json`,
/// its `ssurt` cases): each URL, parsed by the URL Standard, in the SSURT
/// form is urlcanon's answer.
#[test]
fn ssurt_form_equals_urlcanons_vectors() {
    use urlsift::profile::SurtForm;
    let path = common::canon_dir().join("urlcanon/ssurt.json");
    let text = std::fs::read_to_string(&path).expect("urlcanon's ssurt.json");
    let vectors: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cases = vectors["ssurt"].as_object().expect("an ssurt section");
    assert!(cases.len() >= 10, "{} cases", cases.len());
    let ssurt = Profile::new().surt_form(Some(SurtForm::Ssurt));
    for (input, want) in cases {
        let url = urlsift::Url::parse(input).unwrap_or_else(|e| panic!("{input}: {e:?}"));
        assert_eq!(
            ssurt.apply_to_string(&url),
            want.as_str().unwrap(),
            "{input}"
        );
    }
    // Its host cases that the URL Standard leaves as written: a domain's
    // labels reversed (a trailing dot kept as an empty label), an IPv4
    // address as it is.
    for (host, want) in vectors["reverseHost"].as_object().unwrap() {
        if host.is_empty() || host.contains(',') {
            // (No URL has an empty host here; a comma is not a host code
            // point the URL Standard keeps as written.)
            continue;
        }
        let url = urlsift::Url::parse(&format!("http://{host}/")).unwrap();
        let got = ssurt.apply_to_string(&url);
        assert_eq!(
            got.split("//").next().unwrap(),
            want.as_str().unwrap(),
            "{host}"
        );
    }
}

/// urlcanon's own vectors for its canonicalizers: `semantic_precise`,
/// `aggressive`, `whatwg` (its supplement to WPT's) and `google` (two
/// sections of surt.json), every one. Their keys are bytes written as
/// Latin-1 characters (as urlcanon's tests read them).
#[test]
fn urlcanon_vectors_of_its_profiles() {
    use urlsift::canon::urlcanon::{Canonicalizer as Urlcanon, canonicalize_bytes};
    for (file, section, profile, at_least) in [
        (
            "semantic_precise.json",
            None,
            Urlcanon::SemanticPrecise,
            250,
        ),
        ("aggressive.json", None, Urlcanon::Aggressive, 40),
        ("supplemental_whatwg.json", None, Urlcanon::Whatwg, 100),
        ("surt.json", Some("google"), Urlcanon::Google, 30),
        (
            "surt.json",
            Some("googleSupplementalFromSurt"),
            Urlcanon::Google,
            5,
        ),
    ] {
        let path = common::canon_dir().join("urlcanon").join(file);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut vectors: serde_json::Value = serde_json::from_str(&text).unwrap();
        if let Some(section) = section {
            vectors = vectors[section].take();
        }
        let vectors = vectors.as_object().expect("input -> output");
        assert!(vectors.len() >= at_least, "{file}: {} cases", vectors.len());
        for (input, want) in vectors {
            let bytes: Vec<u8> = input
                .chars()
                .map(|c| u8::try_from(u32::from(c)).expect("a Latin-1 character"))
                .collect();
            let got = canonicalize_bytes(&bytes, profile)
                .unwrap_or_else(|e| panic!("{file}: {input:?}: {e}"));
            let want = match input.as_str() {
                // A vector newer than urlcanon 0.3.1, which reads the text
                // before the `:` as a scheme (it starts with a letter) and
                // gives this; the form follows the release.
                "B\u{fc}cher.ch:8080" => "b%FCcher.ch:8080",
                _ => want.as_str().unwrap(),
            };
            assert_eq!(got, want, "{file}: {input:?}");
        }
    }
}

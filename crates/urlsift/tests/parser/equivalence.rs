//! Every parsing path gives the same URL, component for component: the
//! dispatcher, the state machine alone, the fast path alone (when it
//! accepts), and the batch parser (`parse`, `href` and `view_with`); and every SIMD backend finds the same
//! bytes as the scalar one. Run over all of `../shared/wpt`'s URL inputs,
//! every line of `../shared/corpora`, and property-based URL-shaped inputs.

use crate::common;

use proptest::prelude::*;
use urlsift::{BatchParser, Url, paths};
use urlsift_simd::{Backend, available_backends, find_in_set_with};

/// Checks all paths on one input; returns whether the fast path accepted.
fn check(input: &str, base: Option<&Url>, batch: &mut BatchParser) -> Result<bool, String> {
    let machine = paths::machine(input, base);
    let dispatch = paths::dispatch(input, base);
    let same = |a: &Result<Url, _>, b: &Result<Url, _>| match (a, b) {
        (Ok(a), Ok(b)) => paths::same_components(a, b),
        (Err(a), Err(b)) => a == b,
        _ => false,
    };
    if !same(&machine, &dispatch) {
        return Err(format!(
            "{input:?}: dispatch {dispatch:?} vs machine {machine:?}"
        ));
    }
    let batched = batch.parse(input, base).cloned();
    if !same(&machine, &batched) {
        return Err(format!(
            "{input:?}: batch {batched:?} vs machine {machine:?}"
        ));
    }
    // `href` gives the same string; it returns the input itself only
    // when the input is its own serialization.
    let machine_href = machine.as_ref().map(|u| u.href().to_string());
    match batch.href(input, base) {
        Ok(href) if Ok(href) != machine_href.as_deref() => {
            return Err(format!("{input:?}: href() {href:?} vs machine {machine:?}"));
        }
        Err(e) if machine.as_ref().err() != Some(&e) => {
            return Err(format!("{input:?}: href() {e:?} vs machine {machine:?}"));
        }
        _ => {}
    }
    // `view_with` reads the same components, from the input itself when
    // it is its own serialization.
    let view = batch
        .view_with(urlsift_simd::Runtime, input, base)
        .map(|v| view_getters(&v));
    let machine_view = machine
        .as_ref()
        .map(|u| view_getters(&u.view()))
        .map_err(|e| *e);
    if view != machine_view {
        return Err(format!(
            "{input:?}: view {view:?} vs machine {machine_view:?}"
        ));
    }
    let fast = paths::fast(input);
    if let Some(fast) = &fast {
        match &machine {
            Ok(m) if paths::same_components(m, fast) => {}
            _ => return Err(format!("{input:?}: fast {fast:?} vs machine {machine:?}")),
        }
        fast.check_invariants()?;
    }
    let scalar = find_in_set_with(Backend::Scalar, input.as_bytes(), &paths::FAST_PATH_DECLINE);
    for backend in available_backends() {
        let found = find_in_set_with(backend, input.as_bytes(), &paths::FAST_PATH_DECLINE);
        if found != scalar {
            return Err(format!(
                "{input:?}: {backend:?} finds {found:?}, scalar {scalar:?}"
            ));
        }
    }
    Ok(fast.is_some())
}

/// What a [`urlsift::UrlRef`] gives.
type ViewGetters = (
    String,
    String,
    String,
    Option<urlsift::HostKind>,
    String,
    Option<String>,
    Option<Vec<String>>,
);

fn view_getters(v: &urlsift::UrlRef<'_>) -> ViewGetters {
    (
        v.href().into(),
        v.scheme().into(),
        v.hostname().into(),
        v.host_kind(),
        v.pathname().into(),
        v.query().map(Into::into),
        v.path_segments().map(|s| s.map(Into::into).collect()),
    )
}

#[test]
fn wpt_inputs() {
    let mut batch = BatchParser::new();
    let mut failures = Vec::new();
    let mut count = 0;
    for file in ["urltestdata.json", "urltestdata-javascript-only.json"] {
        for case in common::wpt_cases(file) {
            let input = case["input"].as_str().unwrap();
            let base = case["base"].as_str().and_then(|b| Url::parse(b).ok());
            count += 1;
            if let Err(e) = check(input, base.as_ref(), &mut batch) {
                failures.push(e);
            }
            if let Err(e) = check(input, None, &mut batch) {
                failures.push(e);
            }
        }
    }
    assert!(count > 800, "only {count} inputs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_corpus_line() {
    let mut batch = BatchParser::new();
    let mut failures = Vec::new();
    let mut total = 0;
    for path in common::corpus_files() {
        let text = std::fs::read_to_string(&path).expect("UTF-8 corpus");
        let (mut lines, mut fast) = (0usize, 0usize);
        for line in text.lines() {
            lines += 1;
            match check(line, None, &mut batch) {
                Ok(accepted) => fast += accepted as usize,
                Err(e) if failures.len() < 20 => failures.push(e),
                Err(_) => {}
            }
        }
        total += lines;
        eprintln!(
            "{}: fast path accepts {:.1}% of {lines} lines",
            path.file_name().unwrap().to_string_lossy(),
            100.0 * fast as f64 / lines.max(1) as f64
        );
    }
    assert!(total > 500_000, "only {total} lines");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Path-absolute references (`/p?q#f`) against special bases, which the
/// dispatcher and the batch parser resolve by joining them to the base's
/// scheme and authority and taking the fast path (`paths::joined`, checked
/// on its own too): the access-log targets of the
/// corpora, and every tenth corpus line behind a '/', against bases with
/// credentials, a port, an IPv6 host, an IDNA host, and `ws:`/`ftp:`; and
/// against bases where the join does not apply (`file:`, non-special).
#[test]
fn path_absolute_references_against_bases() {
    let bases: Vec<Url> = [
        "http://bench.example/",
        "https://user:p%40ss@[::1]:8443/a/b?x#y",
        "ws://xn--nxasmq6b.example/dir/",
        "ftp://h.example:2121/",
        "file:///C:/dir/file",
        "foo://opaque.example/p",
    ]
    .iter()
    .map(|b| Url::parse(b).unwrap())
    .collect();
    let mut batch = BatchParser::new();
    let mut failures = Vec::new();
    let (mut total, mut fast) = (0usize, 0usize);
    for path in common::corpus_files() {
        let text = std::fs::read_to_string(&path).expect("UTF-8 corpus");
        for (i, line) in text.lines().enumerate() {
            let joined;
            let input = if line.starts_with('/') {
                line
            } else if i % 10 == 0 {
                joined = format!("/{line}");
                &joined
            } else {
                continue;
            };
            for base in &bases {
                total += 1;
                if let Some(joined) = paths::joined(input, Some(base)) {
                    fast += 1;
                    let machine = paths::machine(input, Some(base));
                    if !machine.is_ok_and(|m| paths::same_components(&m, &joined))
                        && failures.len() < 20
                    {
                        failures.push(format!(
                            "base {}: {input:?}: joined {joined:?}",
                            base.href()
                        ));
                    }
                }
                if let Err(e) = check(input, Some(base), &mut batch)
                    && failures.len() < 20
                {
                    failures.push(format!("base {}: {e}", base.href()));
                }
            }
        }
    }
    eprintln!("{total} reference/base pairs, {fast} by the fast path");
    assert!(total > 100_000, "only {total} pairs");
    assert!(
        fast > total / 3,
        "the fast path took only {fast} of {total}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn url_shaped_inputs_agree(input in common::shapes::url_shaped()) {
        let mut batch = BatchParser::new();
        prop_assert!(check(&input, None, &mut batch).is_ok(), "{}", check(&input, None, &mut batch).unwrap_err());
        let base = Url::parse("https://base.example/dir/file?q#f").unwrap();
        prop_assert!(check(&input, Some(&base), &mut batch).is_ok(), "{}", check(&input, Some(&base), &mut batch).unwrap_err());
        // As a path-absolute reference (joined to the base's authority).
        let reference = format!("/{input}");
        prop_assert!(check(&reference, Some(&base), &mut batch).is_ok(), "{}", check(&reference, Some(&base), &mut batch).unwrap_err());
        if let Ok(url) = paths::machine(&input, None) {
            url.check_invariants().map_err(TestCaseError::fail)?;
            let again = Url::parse(url.href()).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(again.href(), url.href());
        }
    }
}

/// Regression: the fast path kept "file://host/C|" although the path
/// state rewrites a first-segment Windows drive letter to "C:".
#[test]
fn fast_path_declines_file_drive_letter_with_host() {
    for input in [
        "file://host/C|",
        "file://host/C|/x",
        "FILE://h/c|?q",
        "file:///C|",
    ] {
        let mut batch = BatchParser::new();
        check(input, None, &mut batch).unwrap();
        assert!(paths::fast(input).is_none(), "{input}");
        assert!(
            paths::machine(input, None)
                .unwrap()
                .pathname()
                .contains(':')
        );
    }
}

/// The fast path reads 64 bytes at a time: every structural byte ('?',
/// '#', '/', '.', "%2e", ':' of a port, '@', upper case, a declined byte)
/// placed on each side of the first and second block boundaries, in
/// each component, gives the machine's URL.
#[test]
fn structure_across_block_boundaries() {
    let mut batch = BatchParser::new();
    let mut failures = Vec::new();
    let pieces = [
        "?q", "#f", "/", "/.", "/..", "/./", "/../", "/%2e/", "/.%2E", "?a#b", "#a?b", ":8080",
        ":80", ":443", "@", "A", "%41", " ", "{", "\\", "|", ".", "..",
    ];
    let mut count = 0;
    for scheme in ["http://", "HTTPS://", "ws://", "file://", "ftp://"] {
        for host in ["a.example", "EXAMPLE.com", "1.2.3.4", "a.b.0x1", ""] {
            for piece in pieces {
                for at in (56usize..72).chain(120..136) {
                    // The piece at byte `at`: in the host (a long label),
                    // the path or the query.
                    let prefix = format!("{scheme}{host}");
                    for (filler, lead) in [("x", ""), ("p", "/"), ("q", "/?")] {
                        let head = format!("{prefix}{lead}");
                        let pad = at.saturating_sub(head.len());
                        // Ending there, or going on.
                        for tail in ["", "/tail"] {
                            let input = format!("{head}{}{piece}{tail}", filler.repeat(pad));
                            count += 1;
                            if let Err(e) = check(&input, None, &mut batch)
                                && failures.len() < 20
                            {
                                failures.push(e);
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(count > 10_000, "only {count} inputs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Without a base, the dispatcher settles "no scheme" before allocating;
/// it must fail exactly when the machine does, with the same error,
/// including schemes split by tabs and newlines (removed before parsing)
/// and inputs padded with C0 controls and spaces.
#[test]
fn no_scheme_failures_match_the_machine() {
    let mut batch = BatchParser::new();
    let base = Url::parse("https://base.example/dir/file").unwrap();
    let inputs = [
        "",
        " ",
        "\t\n",
        "\u{0}",
        "/a",
        "//host/p",
        "?q",
        "#f",
        "a",
        "a b:c",
        "bücher.de",
        "xn--nxasmq6b.com",
        "example.com/path",
        "1http://x",
        "+a:b",
        "a+b-c.d:e",
        "h:",
        "http:",
        "mailto:x",
        "ab\tc:d",
        " ab\nc:d ",
        "a\r:b",
        "  http://x ",
        "\u{1}a:b",
        "a:",
        "é:x",
    ];
    for input in inputs {
        for base in [None, Some(&base)] {
            if let Err(e) = check(input, base, &mut batch) {
                panic!("{e}");
            }
        }
    }
    assert!(Url::parse("ab\tc:d").is_ok_and(|u| u.protocol() == "abc:"));
    assert!(Url::parse(" ab\nc:d ").is_ok_and(|u| u.protocol() == "abc:"));
    for input in ["/a", "a", "bücher.de", "", "\t\n", "a b:c"] {
        assert_eq!(
            Url::parse(input).unwrap_err().validation_error(),
            Some(urlsift::ValidationError::MissingSchemeNonRelativeUrl),
            "{input:?}"
        );
    }
}

//! The invariants each fuzz target checks, shared by the libFuzzer targets
//! (`fuzz/fuzz_targets/`) and by `tests/fuzz_seeds.rs`, which replays the
//! committed seed corpora in plain `cargo test`. Each check panics on a
//! violation; inputs that are not UTF-8 are decoded lossily.

#![allow(dead_code)]

use urlsift::{BatchParser, Host, Url, UrlSearchParams, paths};
use urlsift_simd::{
    ByteSet, Classes, Groups, Kernel, WithKernel, available_backends, block_masks_appending_with,
    block_masks_with, find_in_set_with, with_kernel,
};

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Offsets consistent, getters slices of href, `parse(href) == href`.
fn check_url(url: &Url) {
    check_url_reparses_to(url, url.href());
}

/// Like [`check_url`], but re-parsing must give `expected`.
fn check_url_reparses_to(url: &Url, expected: &str) {
    url.check_invariants().unwrap();
    let href = url.href();
    for part in [
        url.protocol(),
        url.username(),
        url.password(),
        url.host(),
        url.hostname(),
        url.port(),
        url.pathname(),
        url.search(),
        url.hash(),
    ] {
        assert!(href.contains(part), "{part:?} not in {href:?}");
    }
    let again = Url::parse(href).unwrap_or_else(|e| panic!("{href:?} does not re-parse: {e}"));
    assert_eq!(again.href(), expected);
    if expected == href {
        assert!(
            paths::same_components(&again, url),
            "{href:?}: components differ on re-parse"
        );
    }
}

/// The one place where the standard's setters are not idempotent: the
/// protocol setter can turn a URL whose path starts with "/X|" into a
/// file: URL, and parsing a file: URL rewrites that first segment to
/// "X:" (ada-url does the same). Returns the href a re-parse gives.
fn reparsed_after_setters(url: &Url) -> String {
    let href = url.href();
    let path = url.pathname().as_bytes();
    let drive_with_pipe = url.scheme() == "file"
        && path.len() >= 3
        && path[1].is_ascii_alphabetic()
        && path[2] == b'|'
        && matches!(path.get(3), None | Some(b'/'));
    if !drive_with_pipe {
        return href.to_string();
    }
    // pathname() is a slice of href: its offset is the pointer difference.
    let at = url.pathname().as_ptr() as usize - href.as_ptr() as usize + 2;
    let mut fixed = href.to_string();
    fixed.replace_range(at..at + 1, ":");
    fixed
}

/// `parse`: no panic, invariants, idempotence; every path agrees.
pub fn parse(data: &[u8]) {
    let input = text(data);
    let dispatch = Url::parse(&input);
    let machine = paths::machine(&input, None);
    match (&dispatch, &machine) {
        (Ok(a), Ok(b)) => assert!(paths::same_components(a, b), "{input:?}"),
        (Err(a), Err(b)) => assert_eq!(a, b, "{input:?}"),
        _ => panic!("{input:?}: dispatch {dispatch:?} vs machine {machine:?}"),
    }
    let mut errors = Vec::new();
    let reported = Url::parse_with_reporter(&input, None, &mut errors);
    assert_eq!(reported.as_ref().ok(), dispatch.as_ref().ok(), "{input:?}");
    if let Ok(url) = &dispatch {
        check_url(url);
    }
}

/// `parse_with_base`: the first line is the base, the rest the input.
pub fn parse_with_base(data: &[u8]) {
    let all = text(data);
    let (base, input) = all.split_once('\n').unwrap_or((&all, ""));
    let Ok(base) = Url::parse(base) else { return };
    let dispatch = Url::parse_with_base(input, Some(&base));
    let machine = paths::machine(input, Some(&base));
    assert_eq!(
        dispatch.as_ref().ok(),
        machine.as_ref().ok(),
        "{input:?} against {base}"
    );
    let mut batch = BatchParser::new();
    assert_eq!(batch.parse(input, Some(&base)).ok(), dispatch.as_ref().ok());
    if let Ok(url) = &dispatch {
        check_url(url);
    }
}

struct FuzzClasses;
impl Classes for FuzzClasses {
    const SET: ByteSet = ByteSet::outside_range_or(0x21, 0x7E, b"\"'<>\\^`{}");
    const GROUPS: Groups = Groups::new(&[b":", b"/", b"?", b"#", b".%", b"@[]|%"]);
    const RANGE: (u8, u8) = (b'A', b'Z');
}

/// `fast_vs_machine`: the fast path, when it accepts, equals the state
/// machine, and so do the dispatcher (`Url::parse`, with its own copying
/// and early-failure paths), component for component or error for error,
/// and `BatchParser::href` (which returns the input itself only when it is
/// its own href); every SIMD backend equals the scalar one.
pub fn fast_vs_machine(data: &[u8]) {
    let input = text(data);
    let machine = paths::machine(&input, None);
    if let Some(fast) = paths::fast(&input) {
        let machine = machine.as_ref().expect("fast path accepted a failure");
        assert!(paths::same_components(&fast, machine), "{input:?}");
    }
    match (paths::dispatch(&input, None), &machine) {
        (Ok(d), Ok(m)) => assert!(paths::same_components(&d, m), "dispatch of {input:?}"),
        (Err(d), Err(m)) => assert_eq!(&d, m, "dispatch of {input:?}"),
        (d, m) => panic!("dispatch of {input:?}: {d:?} vs machine {m:?}"),
    }
    let mut batch = BatchParser::new();
    assert_eq!(
        batch.href(&input, None).ok(),
        machine.as_ref().ok().map(Url::href),
        "href of {input:?}"
    );
    let backends = available_backends();
    let scalar = find_in_set_with(backends[0], data, &paths::FAST_PATH_DECLINE);
    for &b in &backends {
        assert_eq!(
            find_in_set_with(b, data, &paths::FAST_PATH_DECLINE),
            scalar,
            "{b:?}"
        );
    }
    for block in data.chunks(64) {
        let scalar = block_masks_with::<FuzzClasses>(backends[0], block);
        for &b in &backends {
            assert_eq!(block_masks_with::<FuzzClasses>(b, block), scalar, "{b:?}");
        }
    }
    // Classifying while appending: the same masks, the block appended.
    let mut head = input.len().min(64);
    while !input.is_char_boundary(head) {
        head -= 1;
    }
    let block = &input[..head];
    let scalar = block_masks_with::<FuzzClasses>(backends[0], block.as_bytes());
    for &b in &backends {
        let mut out = String::from("x");
        assert_eq!(
            block_masks_appending_with::<FuzzClasses>(b, block, &mut out),
            scalar,
            "{b:?}"
        );
        assert_eq!(out, format!("x{block}"), "{b:?}");
    }
    // The input as a text of lines: the fused line scan, with the best
    // kernel, gives each line's href and accepts what the fast path accepts.
    with_kernel(LineScan {
        text: &input,
        base: None,
    });
}

/// The line-scan check (also run by `crates/urlsift/tests/parser/lines.rs` with every kernel):
/// `urlsift::batch::lines` splits `text` as documented (at '\n', a '\r'
/// before it dropped, no empty last line after a final '\n'), and
/// `href_of_line` gives each line's `href` against `base`, taking the fast
/// path exactly when `href` does. Returns the number of lines.
pub struct LineScan<'a> {
    pub text: &'a str,
    pub base: Option<&'a Url>,
}

impl WithKernel for LineScan<'_> {
    type Output = usize;

    fn run<K: Kernel>(self, k: K) -> usize {
        let (text, base) = (self.text, self.base);
        let mut expected: Vec<&str> = text.split('\n').collect();
        if text.is_empty() || text.ends_with('\n') {
            expected.pop();
        }
        let (mut scanned, mut plain) = (BatchParser::new(), BatchParser::new());
        let mut count = 0;
        for line in urlsift::batch::lines(k, text) {
            let want = expected.get(count).expect("no more lines than the split");
            count += 1;
            let want = want.strip_suffix('\r').unwrap_or(want);
            assert_eq!(line.as_str(), want, "line {count} of {text:?}");
            let got = scanned.href_of_line(&line, base).map(str::to_string);
            assert_eq!(got, plain.href(want, base).map(str::to_string), "{want:?}");
            // The scan proves what the fast path alone proves: a line is
            // not sent to the machine because of its neighbours' bytes.
            assert_eq!(
                scanned.last_took_fast_path(),
                plain.last_took_fast_path(),
                "fast path on {want:?}"
            );
        }
        assert_eq!(count, expected.len(), "line count of {text:?}");
        count
    }
}

/// `setters`: a URL line, then lines "<setter>=<value>"; after each set the
/// URL is valid, consistent and idempotent.
pub fn setters(data: &[u8]) {
    let all = text(data);
    let mut lines = all.split('\n');
    let Ok(mut url) = Url::parse(lines.next().unwrap_or("")) else {
        return;
    };
    for op in lines.take(16) {
        let (name, value) = op.split_once('=').unwrap_or((op, ""));
        match name.bytes().next().unwrap_or(0) % 10 {
            0 => url.set_protocol(value),
            1 => url.set_username(value),
            2 => url.set_password(value),
            3 => url.set_host(value),
            4 => url.set_hostname(value),
            5 => url.set_port(value),
            6 => url.set_pathname(value),
            7 => url.set_search(value),
            8 => url.set_hash(value),
            _ => {
                let _ = url.set_href(value);
            }
        }
        check_url_reparses_to(&url, &reparsed_after_setters(&url));
    }
}

/// `search_params`: parse -> serialize -> parse is stable.
pub fn search_params(data: &[u8]) {
    let input = text(data);
    let params = UrlSearchParams::parse(&input);
    let serialized = params.to_string();
    let again = UrlSearchParams::parse(&serialized);
    assert_eq!(again, params, "{input:?} -> {serialized:?}");
    assert_eq!(again.to_string(), serialized);
    let mut sorted = params.clone();
    sorted.sort();
    assert_eq!(sorted.size(), params.size());
}

/// `host`: host parsing never panics; a serialized host re-parses to itself.
pub fn host(data: &[u8]) {
    let input = text(data);
    for opaque in [false, true] {
        if let Ok(host) = Host::parse(&input, opaque) {
            let serialized = host.to_string();
            if serialized.is_empty() {
                continue;
            }
            let again = Host::parse(&serialized, opaque)
                .unwrap_or_else(|e| panic!("{serialized:?} from {input:?}: {e}"));
            assert_eq!(again, host, "{input:?}");
        }
    }
}

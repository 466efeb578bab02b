//! Differential testing against the `ada-url` crate: on every WPT URL input
//! and on property-generated URL-shaped inputs, urlsift and ada must agree on
//! success and on the href and every getter. (Every corpus line is compared
//! in `tests/corpora.rs`.) A difference is allowed only when it is listed,
//! with the reason ada is wrong per the current standard or a documented
//! limit, in `tests/expected/ada-differences.txt`; a listed case that
//! agrees again fails, so the list stays honest.

use crate::common;

use proptest::prelude::*;
use urlsift::Url;

fn ours(input: &str, base: Option<&str>) -> Option<[String; 10]> {
    let base = match base {
        Some(b) => Some(Url::parse(b).ok()?),
        None => None,
    };
    let u = Url::parse_with_base(input, base.as_ref()).ok()?;
    Some(common::getters(&u).map(str::to_string))
}

fn ada(input: &str, base: Option<&str>) -> Option<[String; 10]> {
    let u = ada_url::Url::parse(input, base).ok()?;
    Some(common::ada_getters(&u).map(str::to_string))
}

/// The case's label if urlsift and ada disagree.
fn disagreement(input: &str, base: Option<&str>) -> Option<String> {
    let (a, b) = (ours(input, base), ada(input, base));
    (a != b).then(|| format!("{input:?} against {base:?}"))
}

#[test]
fn wpt_inputs_agree_with_ada() {
    let mut differences = Vec::new();
    let mut count = 0;
    for file in ["urltestdata.json", "urltestdata-javascript-only.json"] {
        for case in common::wpt_cases(file) {
            let input = case["input"].as_str().unwrap();
            count += 1;
            differences.extend(disagreement(input, case["base"].as_str()));
            differences.extend(disagreement(input, None));
        }
    }
    assert!(count > 800, "only {count} inputs");
    common::ratchet("ada-differences.txt", &differences);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn url_shaped_inputs_agree_with_ada(input in common::shapes::url_shaped()) {
        prop_assert_eq!(ours(&input, None), ada(&input, None), "{:?}", input);
        let base = Some("https://base.example/dir/file?q#f");
        prop_assert_eq!(ours(&input, base), ada(&input, base), "{:?} against base", input);
    }
}

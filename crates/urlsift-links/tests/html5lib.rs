//! The HTML standard's own test data (html5lib-tests) against the parts of
//! `urlsift_links` that rest on it: every tokenizer case that starts in
//! the data state and expects start tags with attributes gives exactly
//! those tags and attribute values (character references decoded, a
//! duplicated attribute's first value kept); every `<meta>` prescan case
//! of the encoding tests finds the encoding it expects.

#[path = "../../urlsift/tests/common/mod.rs"]
mod common;

use std::collections::BTreeMap;

use urlsift_links::encoding::prescan;
use urlsift_links::html::start_tags;

/// Elements whose content a tree builder tokenizes as text: the tokenizer
/// tests do not switch states for them, `start_tags` does (as a browser's
/// parser makes its tokenizer do), so cases with them are left out.
const TEXT_ELEMENTS: [&str; 11] = [
    "title",
    "textarea",
    "script",
    "style",
    "iframe",
    "xmp",
    "noembed",
    "noframes",
    "noscript",
    "plaintext",
    "math",
];

type Tag = (String, BTreeMap<String, String>);

#[test]
fn tokenizer_cases_give_their_start_tags_and_attributes() {
    let dir = common::html5lib_dir().join("tokenizer");
    let (mut checked, mut with_attributes) = (0, 0);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "test"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 10,
        "tokenizer test files in {}",
        dir.display()
    );
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let Some(tests) = json["tests"].as_array() else {
            continue;
        };
        for case in tests {
            if case.get("doubleEscaped").is_some()
                || case
                    .get("initialStates")
                    .is_some_and(|s| s.as_array().unwrap().iter().any(|s| s != "Data state"))
            {
                continue;
            }
            let input = case["input"].as_str().unwrap();
            let want: Vec<Tag> = case["output"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|t| t[0] == "StartTag")
                .map(|t| {
                    let attributes = t[2]
                        .as_object()
                        .map(|o| {
                            o.iter()
                                .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
                                .collect()
                        })
                        .unwrap_or_default();
                    (t[1].as_str().unwrap().to_string(), attributes)
                })
                .collect();
            if want.is_empty()
                || want
                    .iter()
                    .any(|(name, _)| TEXT_ELEMENTS.contains(&name.as_str()))
            {
                continue;
            }
            let mut got: Vec<Tag> = Vec::new();
            start_tags(input.as_bytes(), |name, attributes| {
                let s = |b: &[u8]| String::from_utf8(b.to_vec()).unwrap();
                got.push((
                    s(name),
                    attributes.iter().map(|(n, v)| (s(n), s(v))).collect(),
                ));
            });
            assert_eq!(
                got,
                want,
                "{}: {}: {input:?}",
                path.display(),
                case["description"]
            );
            checked += 1;
            with_attributes += want.iter().filter(|(_, a)| !a.is_empty()).count();
        }
    }
    assert!(
        checked >= 100 && with_attributes >= 50,
        "{checked} cases, {with_attributes} tags with attributes"
    );
}

#[test]
fn encoding_cases_find_their_meta_charset() {
    let dir = common::html5lib_dir().join("encoding");
    let mut checked = 0;
    for name in ["tests1.dat", "tests2.dat", "test-yahoo-jp.dat"] {
        let path = dir.join(name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let text = String::from_utf8_lossy(&bytes);
        for case in text.split("#data\n").skip(1) {
            let (data, expected) = case
                .split_once("#encoding\n")
                .expect("an #encoding section");
            let data = data.strip_suffix('\n').unwrap_or(data);
            let expected = expected.lines().next().unwrap().trim();
            let want = encoding_rs::Encoding::for_label(expected.as_bytes())
                .unwrap_or_else(|| panic!("{name}: unknown label {expected}"));
            // A byte-order mark first, then the prescan; a case with no
            // declaration expects the default (windows-1252).
            let got = encoding_rs::Encoding::for_bom(data.as_bytes())
                .map(|(e, _)| e)
                .or_else(|| prescan(data.as_bytes()))
                .unwrap_or(encoding_rs::WINDOWS_1252);
            assert_eq!(got.name(), want.name(), "{name}: {data:?}");
            checked += 1;
        }
    }
    assert!(checked >= 50, "{checked} encoding cases");
}

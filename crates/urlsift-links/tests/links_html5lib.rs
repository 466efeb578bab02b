//! A differential of `urlsift_links::html` against html5lib, a parser
//! that implements the HTML standard's whole parsing algorithm (tokenizer
//! and tree builder), on generated hostile pages: for every URL-valued
//! attribute urlsift reads (`a href`, `img src`, `srcset`, `link href`,
//! `form action`, `meta content`, `base href`, ...), the set of (tag,
//! attribute, value) found must be the same.
//!
//! The pages are hostile at the tokenizer's level: character references
//! named, numeric and ambiguous (`&copy=` in a value), unquoted, single-
//! and double-quoted values, duplicated attributes, upper case, stray
//! slashes and quotes, comments of every odd shape (`<!-->`, `--!>`),
//! bogus comments and CDATA, `<script>` with `<!--<script>` escapes,
//! `<style>`, `<textarea>`, `<title>` holding tag-like text, NUL bytes,
//! end tags with attributes. Tree-builder rules that make an element
//! vanish (a second `<form>` inside a form), foreign content (`<svg>`,
//! `<math>`, where `<title>` and `<style>` are not raw text) and
//! `<noscript>` (raw text in a browser with scripting on, which urlsift
//! follows; html5lib parses it with scripting off) are left out of the
//! generator: they are where a tokenizer alone and a tree builder differ.
//!
//! Needs Python with html5lib (python/requirements-dev.txt pins it):
//! `URLSIFT_PYTHON` names the interpreter (default `target/pyenv/bin/python`,
//! which `scripts/python-env` makes). Ignored by default; `.ci/run` runs it
//! after the Python environment is made:
//! `cargo test --test links_html5lib -- --ignored`.

#[path = "../../urlsift/tests/common/mod.rs"]
mod common;

use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Command, Stdio};

use common::Rng;
use urlsift_links::html::start_tags;

/// The URL-valued attributes compared.
const URL_ATTRIBUTES: [(&str, &str); 17] = [
    ("a", "href"),
    ("area", "href"),
    ("link", "href"),
    ("base", "href"),
    ("img", "src"),
    ("img", "srcset"),
    ("source", "src"),
    ("source", "srcset"),
    ("script", "src"),
    ("iframe", "src"),
    ("form", "action"),
    ("embed", "src"),
    ("video", "src"),
    ("video", "poster"),
    ("audio", "src"),
    ("track", "src"),
    ("meta", "content"),
];

fn value(r: &mut Rng) -> String {
    let parts = [
        "/a",
        "b.html",
        "?q=1",
        "&amp;x=2",
        "&amp",
        "&copy=3",
        "&copy;",
        "&#x41;",
        "&#65;",
        "&#0;",
        "&#x110000;",
        "&notit;",
        "&NotANamedRef;",
        "#frag",
        " ",
        "\t",
        "\u{e9}",
        "%20",
        "'",
        "\"",
        "<",
        ">",
        "=",
        "/",
        "\0",
        "javascript:x()",
        "//host.example/p",
        "http://[::1]/",
        "a b",
        "&lt;b&gt;",
        "&#128;",
    ];
    (0..1 + r.below(4)).map(|_| r.pick(&parts)).collect()
}

/// An attribute as a page might write it (quoted three ways).
fn attribute(r: &mut Rng, name: &str) -> String {
    let name = if r.below(4) == 0 {
        name.to_uppercase()
    } else {
        name.to_string()
    };
    let v = value(r);
    match r.below(4) {
        0 => format!("{name}=\"{}\"", v.replace('"', "&quot;")),
        1 => format!("{name}='{}'", v.replace('\'', "&#39;")),
        2 => {
            // Unquoted: no space, quote, =, <, >, ` in it.
            let v: String = v
                .chars()
                .filter(|c| !" \t\n\"'=<>`\0".contains(*c))
                .collect();
            if v.is_empty() {
                format!("{name}=x")
            } else {
                format!("{name}={v}")
            }
        }
        _ => format!("{name} = \"{}\"", v.replace('"', "")),
    }
}

fn element(r: &mut Rng) -> String {
    // Not a form: every page is inside one, and a form start tag inside a
    // form makes no element.
    let (tag, attr) = loop {
        let pair = URL_ATTRIBUTES[r.below(URL_ATTRIBUTES.len())];
        if pair.0 != "form" {
            break pair;
        }
    };
    let mut attrs = vec![attribute(r, attr)];
    if r.below(3) == 0 {
        attrs.push(attribute(r, attr)); // a duplicate: the first counts
    }
    if r.below(3) == 0 {
        attrs.push(format!(
            "rel={}",
            r.pick(&["next", "\"nofollow noopener\"", "'alternate'"])
        ));
    }
    if tag == "meta" {
        attrs.insert(0, "http-equiv=refresh".into());
    }
    if r.below(5) == 0 {
        attrs.reverse();
    }
    let sep = r.pick(&[" ", "\t", "\n", " / ", "  "]);
    let close = r.pick(&[">", "/>", " >"]);
    let tag = if r.below(5) == 0 {
        tag.to_uppercase()
    } else {
        tag.to_string()
    };
    format!("<{tag} {}{close}", attrs.join(sep))
}

fn noise(r: &mut Rng) -> String {
    let inner = element(r);
    match r.below(16) {
        0 => format!("<!-- {inner} -->"),
        1 => format!("<!-->{inner}"),
        2 => format!("<!-- x --!>{inner}"),
        3 => format!("<![CDATA[ {inner} ]]>"),
        4 => format!("<script>var s = '{inner}'; if (a < b) {{}}</script>"),
        5 => format!("<script><!--<script>{inner}</script>--></script>"),
        6 => format!("<style>a {{}} /* {inner} */</style>"),
        7 => format!("<textarea>{inner}</textarea>"),
        8 => format!("<title>{inner} &amp; more</title>"),
        9 => format!("<p>text &amp; {inner} more</p>"),
        10 => format!("</div foo=\"{inner}\">"),
        11 => format!("<? {inner} ?>"),
        12 => format!(
            "<div title=\"{}\">{inner}</div>",
            r.pick(&["a>b", "c'd", "<e>"])
        ),
        13 => "text < 3 and 4 > 2 &amp &lt ".to_string(),
        14 => format!("<table><tr><td>{inner}</td></tr></table>"),
        _ => inner,
    }
}

fn page(r: &mut Rng) -> String {
    let mut p = String::from(r.pick(&["<!DOCTYPE html>", "", "<!doctype html public \"x\">"]));
    p.push_str("<html><head>");
    for _ in 0..r.below(4) {
        p.push_str(&noise(r));
    }
    p.push_str("</head><body><form action=/one>");
    for _ in 0..5 + r.below(30) {
        p.push_str(&noise(r));
        p.push_str(r.pick(&["\n", "", " ", "<br>", "<div>", "</div>"]));
    }
    p.push_str("</form></body></html>");
    // Some pages end inside a construct.
    if r.below(8) == 0 {
        p.push_str(&element(r)[..5]);
    }
    p
}

/// html5lib's (tag, attribute, value) for the URL attributes of each page.
const PY: &str = r#"
import json, sys, html5lib
URL = set(tuple(x) for x in json.loads(sys.argv[1]))
pages = json.load(sys.stdin)
out = []
for page in pages:
    doc = html5lib.parse(page, treebuilder="etree", namespaceHTMLElements=False)
    found = set()
    for e in doc.iter():
        if not isinstance(e.tag, str):
            continue
        for k, v in e.attrib.items():
            if (e.tag, k) in URL:
                found.add((e.tag, k, v))
    out.append(sorted(found))
json.dump(out, sys.stdout)
"#;

type Triple = (String, String, String);

#[test]
#[ignore = "needs Python with html5lib: cargo test --test links_html5lib -- --ignored"]
fn url_attributes_agree_with_html5lib_on_hostile_pages() {
    let mut r = Rng::new();
    let pages: Vec<String> = (0..400).map(|_| page(&mut r)).collect();
    let python = std::env::var("URLSIFT_PYTHON").unwrap_or_else(|_| {
        format!(
            "{}/../../target/pyenv/bin/python",
            env!("CARGO_MANIFEST_DIR")
        )
    });
    let url: Vec<(&str, &str)> = URL_ATTRIBUTES.to_vec();
    let mut child = Command::new(&python)
        .args(["-c", PY, &serde_json::to_string(&url).unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("cannot run {python} (set URLSIFT_PYTHON, or run scripts/python-env): {e}")
        });
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(&pages).unwrap().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{python} with html5lib failed (pip install -r python/requirements-dev.txt): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: Vec<Vec<Triple>> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(theirs.len(), pages.len());
    let (mut compared, mut found) = (0, 0);
    for (page, theirs) in pages.iter().zip(theirs) {
        let theirs: BTreeSet<Triple> = theirs.into_iter().collect();
        let mut ours = BTreeSet::new();
        start_tags(page.as_bytes(), |name, attributes| {
            let name = String::from_utf8_lossy(name);
            for (a, v) in attributes {
                let a = String::from_utf8_lossy(a);
                if URL_ATTRIBUTES.contains(&(&*name, &*a)) {
                    ours.insert((
                        name.to_string(),
                        a.to_string(),
                        String::from_utf8_lossy(v).into_owned(),
                    ));
                }
            }
        });
        assert_eq!(ours, theirs, "page: {page:?}");
        compared += 1;
        found += ours.len();
    }
    assert!(
        compared == 400 && found > 2000,
        "{compared} pages, {found} attributes"
    );
}

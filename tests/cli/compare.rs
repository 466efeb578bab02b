//! `urlsift compare`: the JSON report's shape and accounting, the
//! differential against inputs where the `url` crate is known to deviate
//! from the standard (found by running it over web-platform-tests), a
//! crawl corpus on which urlsift and ada must agree, the HTML page, node,
//! threads and errors. The speed check's rejection of a parser that did
//! less work is a unit test (`compare::timing`), as it needs a fake parser.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::common;
use crate::workdir::*;

fn json(wd: &Workdir, args: &[&str]) -> Value {
    let mut all = vec!["compare", "--json"];
    all.extend_from_slice(args);
    let out = wd.stdout(&all);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

fn parser<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["parsers"]
        .as_array()
        .expect("parsers array")
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no parser {name} in {report}"))
}

fn disagreement<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["disagreements"]
        .as_array()
        .expect("disagreements array")
        .iter()
        .find(|p| p["parser"] == name)
        .unwrap_or_else(|| panic!("no disagreements entry for {name} in {report}"))
}

#[test]
fn json_report_has_the_documented_shape_and_accounts_for_every_line() {
    let wd = Workdir::new();
    // Four URLs, a URL no parser accepts, an empty line, invalid UTF-8, a
    // NUL byte, and one line where rust-url deviates (`^` in a path is
    // percent-encoded by the standard since 2024).
    wd.create(
        "in.txt",
        b"https://a.example/x\nnot a url\n\nhttp://b.example/p^q\n\xff\xfe\nhttp://[::1]:8080/\r\nnul\0\nHTTP://C.EXAMPLE\n",
    );
    let out = wd.run(
        &[
            "compare",
            "--json",
            "--rounds",
            "2",
            "--parsers",
            "urlsift-machine,ada,rust-url",
            "in.txt",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("skipped 2 lines that cannot be URLs (1 invalid-UTF-8, 1 NUL-byte)")
            && err.contains("in.txt line 5: invalid UTF-8")
            && err.contains("in.txt line 7: NUL byte"),
        "{err}"
    );
    let r: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let c = &r["corpus"];
    assert_eq!(
        (&c["lines"], &c["empty"], &c["urls"]),
        (&Value::from(8), &Value::from(1), &Value::from(5))
    );
    assert_eq!(c["skipped"]["invalid-UTF-8"], 1);
    assert_eq!(c["skipped"]["NUL-byte"], 1);
    let names: Vec<&str> = r["parsers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["urlsift", "urlsift-machine", "ada", "rust-url"]);
    let href_bytes = [
        "https://a.example/x",
        "http://b.example/p%5Eq",
        "http://[::1]:8080/",
        "http://c.example/",
    ]
    .iter()
    .map(|s| s.len())
    .sum::<usize>();
    for name in names {
        let p = parser(&r, name);
        assert_eq!(p["valid"], 4, "{p}");
        assert!(p["ns_per_url"].as_f64().unwrap() > 0.0, "{p}");
        assert!(p["ns_per_url_median"].as_f64().unwrap() >= p["ns_per_url"].as_f64().unwrap());
        assert!(p["urls_per_second"].as_f64().unwrap() > 0.0, "{p}");
        assert!(p["mb_per_second"].as_f64().unwrap() > 0.0, "{p}");
        assert!(p["ratio_to_fastest"].as_f64().unwrap() >= 1.0, "{p}");
        assert_eq!(p["work_ok"], true, "{p}");
        assert_eq!(p["work_check"], "ok", "{p}");
        if name != "rust-url" {
            assert_eq!(p["href_bytes"], href_bytes, "{p}");
        }
    }
    assert_eq!(parser(&r, "rust-url")["href_bytes"], href_bytes - 2);
    for same in ["urlsift-machine", "ada"] {
        let d = disagreement(&r, same);
        assert_eq!(
            (&d["lines"], &d["component_lines"]),
            (&0.into(), &0.into()),
            "{d}"
        );
        assert_eq!(d["categories"], serde_json::json!({}));
    }
    let d = disagreement(&r, "rust-url");
    assert_eq!(d["lines"], 1, "{d}");
    assert_eq!(d["categories"], serde_json::json!({"pathname": 1}));
    let group = &d["groups"][0];
    assert_eq!(
        (&group["category"], &group["reason"], &group["count"]),
        (&"pathname".into(), &"percent-encoding".into(), &1.into())
    );
    let sample = &group["samples"][0];
    assert_eq!(sample["line"], 4);
    assert_eq!(sample["input"], "http://b.example/p^q");
    assert_eq!(sample["urlsift"]["pathname"], "/p%5Eq");
    assert_eq!(sample["peer"]["pathname"], "/p^q");
    assert!(
        d["standard"]
            .as_str()
            .unwrap()
            .contains("urlsift follows the standard")
    );
}

/// A WPT case as a line of a fixture: the input, the category urlsift's
/// report must give it when the url crate gets it wrong (the first
/// differing component in URL order, or `validity`), and WPT's expected
/// href (`None`: failure).
type Case = (String, Option<&'static str>, Option<String>);

/// The WPT cases that can be lines, by base, and how many of them the
/// url crate gets wrong.
fn url_crate_wpt_failures() -> (BTreeMap<Option<String>, Vec<Case>>, usize) {
    const ORDER: [(&str, &str); 10] = [
        ("protocol", "protocol"),
        ("username", "username"),
        ("password", "password"),
        ("hostname", "host"),
        ("port", "port"),
        ("pathname", "pathname"),
        ("search", "search"),
        ("hash", "hash"),
        ("origin", "origin"),
        ("href", "href"),
    ];
    let mut groups: BTreeMap<Option<String>, Vec<Case>> = BTreeMap::new();
    let mut failing = 0;
    for case in common::wpt_cases("urltestdata.json") {
        let input = case["input"].as_str().expect("input");
        // A line holds no newline and no NUL (a bad line), and is not empty.
        if input.is_empty() || input.contains(['\n', '\r', '\0']) {
            continue;
        }
        let base = case.get("base").and_then(Value::as_str);
        let parsed_base = match base.map(url::Url::parse) {
            Some(Ok(b)) => Some(b),
            Some(Err(_)) => continue,
            None => None,
        };
        if base.is_some_and(|b| urlsift::Url::parse(b).is_err()) {
            continue;
        }
        let ours = url::Url::options()
            .base_url(parsed_base.as_ref())
            .parse(input);
        let expect_failure = case.get("failure").and_then(Value::as_bool) == Some(true);
        let category = match (&ours, expect_failure) {
            (Err(_), true) => None,
            (Ok(_), true) | (Err(_), false) => Some("validity"),
            (Ok(u), false) => {
                let value = |field: &str| -> String {
                    use url::quirks as q;
                    match field {
                        "protocol" => q::protocol(u).into(),
                        "username" => q::username(u).into(),
                        "password" => q::password(u).into(),
                        "hostname" => q::hostname(u).into(),
                        "port" => q::port(u).into(),
                        "pathname" => q::pathname(u).into(),
                        "search" => q::search(u).into(),
                        "hash" => q::hash(u).into(),
                        "origin" => q::origin(u),
                        _ => q::href(u).into(),
                    }
                };
                ORDER.iter().find_map(|(field, category)| {
                    let expected = case.get(*field)?.as_str()?;
                    (value(field) != expected).then_some(*category)
                })
            }
        };
        failing += usize::from(category.is_some());
        let href = case.get("href").and_then(Value::as_str).map(str::to_string);
        assert_eq!(href.is_none(), expect_failure, "{case:?}");
        groups.entry(base.map(str::to_string)).or_default().push((
            input.to_string(),
            category,
            href,
        ));
    }
    (groups, failing)
}

/// Every WPT case the url crate gets wrong (found by running it, at test
/// time) is a disagreement in the right category, urlsift's side is what
/// WPT expects, and no case the url crate gets right is reported.
#[test]
fn url_crate_deviations_from_wpt_are_found_in_the_right_category() {
    let (groups, failing) = url_crate_wpt_failures();
    assert!(
        failing > 0,
        "the url crate passes every WPT case now: pick another known-deviating peer"
    );
    let wd = Workdir::new();
    let mut found = 0;
    let mut by_category: BTreeMap<&str, usize> = BTreeMap::new();
    for (base, cases) in &groups {
        let text: String = cases
            .iter()
            .map(|(input, ..)| format!("{input}\n"))
            .collect();
        wd.create("wpt.txt", &text);
        let mut args = vec![
            "compare",
            "-q",
            "--parsers",
            "rust-url",
            "--rounds",
            "0",
            "--samples",
            "0",
            "--diff-out",
            "diffs.jsonl",
        ];
        if let Some(b) = base {
            args.extend(["--base", b]);
        }
        args.push("wpt.txt");
        wd.stdout(&args);
        let diffs = String::from_utf8(wd.read("diffs.jsonl")).unwrap();
        let mut reported: BTreeMap<u64, Value> = BTreeMap::new();
        for line in diffs.lines() {
            let v: Value = serde_json::from_str(line).expect("a JSON line");
            assert_eq!(v["parser"], "rust-url");
            reported.insert(v["line"].as_u64().unwrap(), v);
        }
        for (i, (input, category, href)) in cases.iter().enumerate() {
            let line = i as u64 + 1;
            match (category, reported.remove(&line)) {
                (None, None) => {}
                (Some(want), Some(v)) => {
                    found += 1;
                    *by_category.entry(want).or_default() += 1;
                    assert_eq!(v["input"], input.as_str());
                    assert_eq!(v["category"], *want, "{input:?} against {base:?}: {v}");
                    assert!(
                        v["standard"]
                            .as_str()
                            .unwrap()
                            .starts_with("urlsift follows")
                    );
                    // urlsift's side is what WPT expects.
                    match href {
                        Some(href) => assert_eq!(v["urlsift"]["href"], href.as_str(), "{v}"),
                        None => assert!(v["urlsift"]["error"].is_string(), "{v}"),
                    }
                }
                (want, got) => panic!("{input:?} against {base:?}: expected {want:?}, got {got:?}"),
            }
        }
        assert!(reported.is_empty(), "extra lines reported: {reported:?}");
    }
    assert_eq!(found, failing);
    eprintln!("url crate deviations from WPT by category: {by_category:?}");
}

/// On a crawl corpus, urlsift and ada agree on every line and getter (the
/// library's differential tests say so too; here the command must see it).
#[test]
fn urlsift_and_ada_agree_on_a_crawl_corpus() {
    let corpus = common::corpora_dir().join("kagi_smallweb_feeds.txt");
    let wd = Workdir::new();
    let r = json(
        &wd,
        &[
            "-q",
            "--parsers",
            "ada",
            "--rounds",
            "1",
            corpus.to_str().unwrap(),
        ],
    );
    assert!(
        r["corpus"]["urls"].as_u64().unwrap() > 50_000,
        "{}",
        r["corpus"]
    );
    let d = disagreement(&r, "ada");
    assert_eq!(
        (&d["lines"], &d["component_lines"], &d["categories"]),
        (&0.into(), &0.into(), &serde_json::json!({})),
        "{d}"
    );
    let (ours, ada) = (parser(&r, "urlsift"), parser(&r, "ada"));
    assert_eq!(
        (&ours["valid"], &ours["href_bytes"]),
        (&ada["valid"], &ada["href_bytes"])
    );
    assert_eq!(
        (&ours["work_ok"], &ada["work_ok"]),
        (&true.into(), &true.into())
    );
}

#[test]
fn html_page_is_self_contained_with_a_chart_and_an_escaped_table() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        "https://a.example/\nhttp://b.example/<script>alert(1)</script>^\n",
    );
    let text = wd.stdout(&[
        "compare",
        "--rounds",
        "1",
        "--parsers",
        "ada,rust-url",
        "--html",
        "report.html",
        "in.txt",
    ]);
    assert!(text.contains("rust-url"), "{text}");
    let page = String::from_utf8(wd.read("report.html")).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>") && page.ends_with("</html>\n"));
    // The chart: one bar per parser.
    let svg = &page[page.find("<svg").expect("an inline SVG chart")..page.find("</svg>").unwrap()];
    assert_eq!(svg.matches("<rect").count(), 3, "{svg}");
    for name in ["urlsift", "ada", "rust-url"] {
        assert!(svg.contains(&format!(">{name}</text>")), "{svg}");
    }
    // The table of disagreements, with the input escaped.
    let table = &page[page
        .find("<table class=\"disagreements\">")
        .expect("a disagreements table")..];
    assert!(
        table.contains("<td>rust-url</td><td>pathname</td><td>percent-encoding</td>"),
        "{table}"
    );
    assert!(
        table.contains("&lt;script&gt;alert(1)&lt;/script&gt;^"),
        "{table}"
    );
    // Nothing to fetch and nothing to run.
    for forbidden in ["<script", "<link", "src=", "url(", "@import"] {
        assert!(!page.contains(forbidden), "{forbidden} in the page");
    }
}

/// node on PATH: its results and timing come back and its work checks out;
/// without it, asking for it is a usage error naming the cause.
#[test]
fn node_parser_when_on_path() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        "https://a.example/x?y#z\nnot a url\nHTTP://B.example:80/\n",
    );
    let out = wd.run(
        &[
            "compare",
            "--json",
            "--rounds",
            "2",
            "--parsers",
            "node",
            "in.txt",
        ],
        None,
    );
    let on_path = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("node").is_file()));
    if !on_path {
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).contains("node is not on PATH"),
            "{}",
            stderr(&out)
        );
        eprintln!("node is not on PATH: checked the error only");
        return;
    }
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    let node = parser(&r, "node");
    assert_eq!(node["valid"], 2, "{node}");
    assert_eq!(
        node["href_bytes"],
        "https://a.example/x?y#z".len() + "http://b.example/".len()
    );
    assert_eq!(node["work_ok"], true, "{node}");
    assert!(node["version"].as_str().unwrap().starts_with('v'), "{node}");
    assert_eq!(disagreement(&r, "node")["lines"], 0);
}

/// The whatwg-url parser loads the package as Node.js finds it (here a
/// stand-in in the working directory's node_modules, which differs from
/// the standard on one pathname), reports the package's version, and its
/// differences are found; without the package, asking for it is a usage
/// error that says how to install it, and `all` leaves it out.
#[test]
fn whatwg_url_parser_loads_the_package_node_finds() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        "https://a.example/x\nnot a url\nHTTP://B.example:80/y\n",
    );
    let args = [
        "compare",
        "--json",
        "--rounds",
        "1",
        "--parsers",
        "whatwg-url",
        "in.txt",
    ];
    let on_path = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("node").is_file()));
    if !on_path {
        let out = wd.run(&args, None);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).contains("the whatwg-url parser runs in Node.js"),
            "{}",
            stderr(&out)
        );
        eprintln!("node is not on PATH: checked the error only");
        return;
    }
    // No package where Node.js looks (NODE_PATH cleared).
    let out = wd
        .command(&args)
        .env_remove("NODE_PATH")
        .output()
        .expect("run urlsift");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("Node.js cannot load the whatwg-url package")
            && stderr(&out).contains("npm install whatwg-url"),
        "{}",
        stderr(&out)
    );
    let all = wd
        .command(&[
            "compare",
            "--json",
            "--rounds",
            "0",
            "--parsers",
            "all",
            "in.txt",
        ])
        .env_remove("NODE_PATH")
        .output()
        .expect("run urlsift");
    let r: Value = serde_json::from_slice(&all.stdout).unwrap();
    assert!(
        r["parsers"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["name"] != "whatwg-url"),
        "{r}"
    );

    std::fs::create_dir_all(wd.path("node_modules/whatwg-url")).unwrap();
    wd.create(
        "node_modules/whatwg-url/package.json",
        r#"{"name": "whatwg-url", "version": "0.0.0-stand-in", "main": "lib/url.js"}"#,
    );
    std::fs::create_dir_all(wd.path("node_modules/whatwg-url/lib")).unwrap();
    wd.create(
        "node_modules/whatwg-url/lib/url.js",
        "class StandIn extends URL {\n\
         \x20 get pathname() { const p = super.pathname; return p === '/y' ? '/Y' : p; }\n\
         }\n\
         exports.URL = StandIn;\n",
    );
    let out = wd.command(&args).env_remove("NODE_PATH").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    let reference = parser(&r, "whatwg-url");
    assert_eq!(reference["valid"], 2, "{reference}");
    assert_eq!(reference["work_ok"], true, "{reference}");
    assert!(
        reference["version"]
            .as_str()
            .unwrap()
            .starts_with("0.0.0-stand-in (Node.js v"),
        "{reference}"
    );
    let d = disagreement(&r, "whatwg-url");
    // Only a getter differs, not the href.
    assert_eq!(
        (&d["lines"], &d["component_lines"]),
        (&0.into(), &1.into()),
        "{d}"
    );
    assert!(d.to_string().contains("/Y"), "{d}");
    // `all` includes it now that Node.js finds it.
    let r = json(&wd, &["--rounds", "0", "--parsers", "all", "in.txt"]);
    parser(&r, "whatwg-url");
}

#[test]
fn threads_do_the_same_work() {
    let wd = Workdir::new();
    let urls: String = (0..500)
        .map(|i| format!("https://h{i}.example/{i}?q\nbad {i}\n"))
        .collect();
    wd.create("in.txt", urls);
    // Each parser accepts as many under every -j (the WHATWG ones the 500
    // URLs; python, java and curl by their own rules).
    let mut valid: BTreeMap<String, Value> = BTreeMap::new();
    for j in ["1", "2", "3"] {
        let r = json(
            &wd,
            &["-j", j, "--rounds", "1", "--parsers", "all", "in.txt"],
        );
        assert_eq!(r["settings"]["threads"], j.parse::<u64>().unwrap());
        for p in r["parsers"].as_array().unwrap() {
            let name = p["name"].as_str().unwrap().to_string();
            if !["python", "java", "curl"].contains(&name.as_str()) {
                assert_eq!(p["valid"], 500, "{p}");
            }
            let first = valid.entry(name).or_insert_with(|| p["valid"].clone());
            assert_eq!(&p["valid"], first, "-j {j}: {p}");
            assert_eq!(p["work_ok"], true, "-j {j}: {p}");
        }
    }
}

#[test]
fn text_report_and_help() {
    let wd = Workdir::new();
    wd.create("in.txt", "https://a.example/\nhttp://b.example/^\n");
    let out = wd.run(&["compare", "--rounds", "1", "in.txt"], None);
    assert_eq!(out.status.code(), Some(0));
    // No progress bar when stderr is not a terminal, and nothing to report.
    assert_eq!(stderr(&out), "");
    let text = String::from_utf8(out.stdout).unwrap();
    for expected in [
        "urlsift compare: 2 URLs",
        "urlsift-machine",
        "ns/URL",
        "rust-url vs urlsift: urlsift follows the standard",
        "  pathname / percent-encoding: 1 line",
        "in.txt:2  \"http://b.example/^\"",
    ] {
        assert!(text.contains(expected), "{expected:?} not in:\n{text}");
    }
    let help = wd.stdout(&["compare", "--help"]);
    for flag in [
        "--parsers",
        "--rounds",
        "--json",
        "--diff-out",
        "--html",
        "--samples",
        "--base",
        "--threads",
        "Examples:",
        "urlsift compare --html",
    ] {
        assert!(help.contains(flag), "{flag} not in --help");
    }
}

#[test]
fn usage_errors_exit_2_with_the_reason() {
    let wd = Workdir::new();
    wd.create("in.txt", "https://a.example/\n");
    wd.create("empty.txt", "\n\n");
    for (args, message) in [
        (
            &["--parsers", "chrome", "in.txt"][..],
            "unknown parser \"chrome\"",
        ),
        (
            &["--base", "not a base", "in.txt"][..],
            "--base \"not a base\"",
        ),
        (&["missing.txt"][..], "missing.txt"),
        (
            &["empty.txt"][..],
            "no URL to compare: 2 lines read, 2 empty",
        ),
        (&["--html", "-", "in.txt"][..], "--html needs a file"),
        (
            &["--diff-out", "x", "--html", "x", "in.txt"][..],
            "name the same file",
        ),
        (
            &["--diff-out", "no/such/dir/d.jsonl", "in.txt"][..],
            "no/such/dir/d.jsonl",
        ),
    ] {
        let mut all = vec!["compare"];
        all.extend_from_slice(args);
        let out = wd.run(&all, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
    assert_eq!(
        wd.files(),
        ["empty.txt", "in.txt"],
        "no output file left behind"
    );
}

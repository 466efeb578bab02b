//! URL Pattern against web-platform-tests: `urlpatterntestdata.json` (the
//! constructor, the normalized pattern strings, `test` and `exec`),
//! `urlpattern-generate-test-data.json` and
//! `urlpattern-compare-test-data.json`, read as WPT's own harness
//! (`urlpattern.any.js`) reads them. The cases urlsift cannot pass are
//! listed in `EXPECTED_FAILURES` with why, and asserted exactly: a new
//! failure, or a listed case that starts passing, fails the test.

#[path = "../common/mod.rs"]
mod common;

use std::cmp::Ordering;

use serde_json::{Map, Value};
use urlsift::pattern::{Init, PatternComponent, PatternMatch, PatternOptions, UrlPattern};

/// Cases (by their index in `urlpatterntestdata.json`) that need what the
/// `regex` crate cannot do, with the reason.
const EXPECTED_FAILURES: &[(usize, &str)] = &[];

fn init_of(object: &Map<String, Value>) -> Init {
    let mut init = Init::default();
    for (key, value) in object {
        let text = value.as_str().map(str::to_string);
        match key.as_str() {
            "baseURL" => init.base_url = text,
            // A dictionary's unknown members are ignored, as in JavaScript
            // (`new URLPattern({ignoreCase: true})` is an empty init).
            name => {
                if let (Some(component), Some(text)) = (PatternComponent::named(name), text) {
                    init.set(component, text);
                }
            }
        }
    }
    init
}

fn options_of(value: Option<&Value>) -> PatternOptions {
    let ignore_case = value
        .and_then(|o| o.get("ignoreCase"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    PatternOptions { ignore_case }
}

/// `new URLPattern(...args)`.
fn construct(args: &[Value]) -> Result<UrlPattern, String> {
    let result = match args {
        [] => UrlPattern::new(&Init::default(), PatternOptions::default()),
        [Value::String(s)] => UrlPattern::parse(s, None, PatternOptions::default()),
        [Value::String(s), Value::String(base)] => {
            UrlPattern::parse(s, Some(base), PatternOptions::default())
        }
        [Value::String(s), Value::String(base), o] => {
            UrlPattern::parse(s, Some(base), options_of(Some(o)))
        }
        [Value::String(s), o @ Value::Object(_)] => UrlPattern::parse(s, None, options_of(Some(o))),
        [Value::Object(init)] => UrlPattern::new(&init_of(init), PatternOptions::default()),
        [Value::Object(init), o @ Value::Object(_)] => {
            UrlPattern::new(&init_of(init), options_of(Some(o)))
        }
        [Value::Object(_), Value::String(_), ..] => {
            Err(urlsift::pattern::PatternError::InitWithBase)
        }
        // JavaScript reads the options object as the base URL string
        // "[object Object]", which does not parse.
        [Value::String(_), Value::Object(_), Value::String(_)] => Err(
            urlsift::pattern::PatternError::BaseUrl("[object Object]".into()),
        ),
        other => return Err(format!("unexpected constructor arguments {other:?}")),
    };
    result.map_err(|e| e.to_string())
}

/// `pattern.exec(...inputs)`: `Err` where JavaScript throws.
fn exec(pattern: &UrlPattern, inputs: &[Value]) -> Result<Option<PatternMatch>, String> {
    let empty = Init::default();
    let result = match inputs {
        [] => pattern.exec_input(urlsift::pattern::Input::Init(&empty), None),
        [Value::String(s)] => pattern.exec(s, None),
        [Value::String(s), Value::String(base)] => pattern.exec(s, Some(base)),
        [Value::Object(init)] => {
            pattern.exec_input(urlsift::pattern::Input::Init(&init_of(init)), None)
        }
        [Value::Object(init), Value::String(base)] => {
            pattern.exec_input(urlsift::pattern::Input::Init(&init_of(init)), Some(base))
        }
        other => return Err(format!("unexpected inputs {other:?}")),
    };
    result.map_err(|e| e.to_string())
}

/// The pattern string WPT's harness expects when the case gives none.
fn default_expected(entry: &Map<String, Value>, component: PatternComponent) -> String {
    let pattern = entry["pattern"].as_array().expect("pattern args");
    let empty = entry
        .get("exactly_empty_components")
        .and_then(Value::as_array);
    if empty.is_some_and(|list| list.iter().any(|c| c == component.name())) {
        return String::new();
    }
    let first = pattern.first().and_then(Value::as_object);
    if let Some(value) = first
        .and_then(|o| o.get(component.name()))
        .and_then(Value::as_str)
        && !value.is_empty()
    {
        return value.to_string();
    }
    let earlier: &[&str] = match component {
        PatternComponent::Protocol | PatternComponent::Username | PatternComponent::Password => &[],
        PatternComponent::Hostname => &["protocol"],
        PatternComponent::Port => &["protocol", "hostname"],
        PatternComponent::Pathname => &["protocol", "hostname", "port"],
        PatternComponent::Search => &["protocol", "hostname", "port", "pathname"],
        PatternComponent::Hash => &["protocol", "hostname", "port", "pathname", "search"],
    };
    if let Some(object) = first
        && earlier.iter().any(|c| object.contains_key(*c))
    {
        return "*".to_string();
    }
    let base = match (
        first.and_then(|o| o.get("baseURL")).and_then(Value::as_str),
        pattern.get(1),
    ) {
        (Some(base), _) => Some(base.to_string()),
        (None, Some(Value::String(base))) if !pattern[0].is_object() => Some(base.clone()),
        _ => None,
    };
    if let Some(base) = base
        && !matches!(
            component,
            PatternComponent::Username | PatternComponent::Password
        )
    {
        let url = urlsift::Url::parse(&base).expect("WPT's base URLs parse");
        return match component {
            PatternComponent::Protocol => url.scheme().to_string(),
            PatternComponent::Hostname => url.hostname().to_string(),
            PatternComponent::Port => url.port().to_string(),
            PatternComponent::Pathname => url.pathname().to_string(),
            PatternComponent::Search => url.query().unwrap_or("").to_string(),
            _ => url.fragment().unwrap_or("").to_string(),
        };
    }
    "*".to_string()
}

/// One case as WPT's harness runs it; `Err` says what differs.
fn run_case(entry: &Map<String, Value>) -> Result<(), String> {
    let args = entry["pattern"].as_array().expect("pattern args");
    let constructed = construct(args);
    if entry.get("expected_obj") == Some(&Value::String("error".into())) {
        return match constructed {
            Err(_) => Ok(()),
            Ok(_) => Err("constructs, expected an error".into()),
        };
    }
    let pattern = constructed.map_err(|e| format!("constructor: {e}"))?;
    let expected_obj = entry.get("expected_obj").and_then(Value::as_object);
    for component in PatternComponent::ALL {
        let expected = match expected_obj
            .and_then(|o| o.get(component.name()))
            .and_then(Value::as_str)
        {
            Some(e) => e.to_string(),
            None => default_expected(entry, component),
        };
        if pattern.component(component) != expected {
            return Err(format!(
                "{}: pattern string {:?}, expected {expected:?}",
                component.name(),
                pattern.component(component)
            ));
        }
    }
    let Some(inputs) = entry.get("inputs").and_then(Value::as_array) else {
        return Ok(());
    };
    let result = exec(&pattern, inputs);
    let expected_match = &entry["expected_match"];
    if expected_match == "error" {
        return match result {
            Err(_) => Ok(()),
            Ok(_) => Err("exec succeeds, expected an error".into()),
        };
    }
    let result = result.map_err(|e| format!("exec: {e}"))?;
    let Some(expected) = expected_match.as_object() else {
        return match result {
            None => Ok(()),
            Some(m) => Err(format!("matches, expected no match: {m:?}")),
        };
    };
    let Some(found) = result else {
        return Err("no match, expected one".into());
    };
    let empty = entry
        .get("exactly_empty_components")
        .and_then(Value::as_array);
    for component in PatternComponent::ALL {
        let (input, mut groups) = match expected.get(component.name()) {
            Some(object) => {
                let input = object["input"].as_str().expect("input").to_string();
                let groups: Vec<(String, Option<String>)> = object["groups"]
                    .as_object()
                    .expect("groups")
                    .iter()
                    .map(|(k, v)| (k.clone(), v.as_str().map(str::to_string)))
                    .collect();
                (input, groups)
            }
            None => {
                let exact = empty.is_some_and(|l| l.iter().any(|c| c == component.name()));
                let groups = if exact {
                    vec![]
                } else {
                    vec![("0".to_string(), Some(String::new()))]
                };
                (String::new(), groups)
            }
        };
        let got = found.get(component);
        let mut got_groups = got.groups.clone();
        got_groups.sort();
        groups.sort();
        if got.input != input || got_groups != groups {
            return Err(format!(
                "{}: matched {:?} with {:?}, expected {input:?} with {groups:?}",
                component.name(),
                got.input,
                got_groups
            ));
        }
    }
    Ok(())
}

#[test]
fn wpt_urlpatterntestdata() {
    let data = common::wpt_json("urlpatterntestdata.json");
    let cases = data.as_array().expect("an array of cases");
    assert!(
        cases.len() > 300,
        "urlpatterntestdata.json has {} cases",
        cases.len()
    );
    let mut failures = Vec::new();
    for (index, case) in cases.iter().enumerate() {
        let entry = case.as_object().expect("a case object");
        if let Err(why) = run_case(entry) {
            failures.push((
                index,
                format!(
                    "{} {}: {why}",
                    entry["pattern"],
                    entry.get("inputs").unwrap_or(&Value::Null)
                ),
            ));
        }
    }
    let failed: Vec<usize> = failures.iter().map(|(i, _)| *i).collect();
    let expected: Vec<usize> = EXPECTED_FAILURES.iter().map(|(i, _)| *i).collect();
    if failed != expected {
        let report: Vec<String> = failures
            .iter()
            .map(|(i, why)| format!("#{i} {why}"))
            .collect();
        panic!(
            "{} of {} cases fail (expected {:?}):\n{}",
            failures.len(),
            cases.len(),
            expected,
            report.join("\n")
        );
    }
}

fn pattern_of(value: &Value) -> UrlPattern {
    match value {
        Value::String(s) => UrlPattern::parse(s, None, PatternOptions::default()),
        Value::Object(o) => UrlPattern::new(&init_of(o), PatternOptions::default()),
        other => panic!("unexpected pattern {other}"),
    }
    .expect("the data's patterns compile")
}

#[test]
fn wpt_generate() {
    let data = common::wpt_json("urlpattern-generate-test-data.json");
    let cases = data.as_array().expect("an array of cases");
    assert!(cases.len() > 10);
    let mut failures = Vec::new();
    for case in cases {
        let pattern = pattern_of(&case["pattern"]);
        let groups: Vec<(&str, &str)> = case["groups"]
            .as_object()
            .expect("groups")
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str().expect("a string value")))
            .collect();
        let got = PatternComponent::named(case["component"].as_str().expect("component"))
            .ok_or(())
            .and_then(|c| pattern.generate(c, &groups).map_err(|_| ()));
        let expected = case["expected"].as_str();
        if got.as_deref().ok() != expected {
            failures.push(format!("{case}: got {got:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} generate cases fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn wpt_compare_component() {
    let data = common::wpt_json("urlpattern-compare-test-data.json");
    let cases = data.as_array().expect("an array of cases");
    assert!(cases.len() > 10);
    let mut failures = Vec::new();
    for case in cases {
        let component = PatternComponent::named(case["component"].as_str().expect("component"))
            .expect("a component");
        let (left, right) = (pattern_of(&case["left"]), pattern_of(&case["right"]));
        let expected = match case["expected"].as_i64().expect("expected") {
            -1 => Ordering::Less,
            0 => Ordering::Equal,
            _ => Ordering::Greater,
        };
        let got = UrlPattern::compare_component(component, &left, &right);
        let reverse = UrlPattern::compare_component(component, &right, &left);
        let same = UrlPattern::compare_component(component, &left, &left);
        if got != expected || reverse != expected.reverse() || same != Ordering::Equal {
            failures.push(format!("{case}: got {got:?}, reversed {reverse:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} compare cases fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every pattern WPT's data constructs from arguments urlsift can take
/// (constructor strings and inits, with their options), in file order.
fn wpt_patterns() -> Vec<UrlPattern> {
    let data = common::wpt_json("urlpatterntestdata.json");
    let cases = data.as_array().expect("an array of cases");
    cases
        .iter()
        .filter_map(|case| construct(case["pattern"].as_array()?).ok())
        .collect()
}

/// `PatternList::first_match` is the first pattern whose own `test_url`
/// holds, on WPT's patterns (each as a list of one, and all ~350 as one
/// list) over the inputs of WPT's cases and the corpora's first lines.
#[test]
fn pattern_list_is_the_first_pattern_that_matches() {
    let patterns = wpt_patterns();
    assert!(patterns.len() > 300, "{} patterns", patterns.len());
    let mut inputs: Vec<urlsift::Url> = Vec::new();
    let data = common::wpt_json("urlpatterntestdata.json");
    for case in data.as_array().expect("cases") {
        if let Some(Value::String(s)) = case.get("inputs").and_then(|i| i.get(0))
            && let Ok(url) = urlsift::Url::parse(s)
        {
            inputs.push(url);
        }
    }
    for file in common::corpus_files() {
        let text = std::fs::read_to_string(&file).expect("a corpus file");
        inputs.extend(
            text.lines()
                .take(2_000)
                .filter_map(|l| urlsift::Url::parse(l).ok()),
        );
    }
    assert!(inputs.len() > 10_000, "{} inputs", inputs.len());
    let all = urlsift::pattern::PatternList::new(patterns.clone()).expect("the list compiles");
    let mut matched = 0;
    for url in &inputs {
        let expected = patterns.iter().position(|p| p.test_url(url));
        assert_eq!(all.first_match(url.view()), expected, "{}", url.href());
        matched += usize::from(expected.is_some());
    }
    assert!(
        matched > 1_000,
        "only {matched} inputs match a pattern: a weak check"
    );
    for pattern in patterns.iter().take(120) {
        let one = urlsift::pattern::PatternList::new(vec![pattern.clone()]).expect("compiles");
        for url in inputs.iter().step_by(7) {
            assert_eq!(
                one.is_match(url.view()),
                pattern.test_url(url),
                "{}",
                url.href()
            );
        }
    }
}

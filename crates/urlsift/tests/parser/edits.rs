//! `urlsift::edit` against the URL Standard's setters: on every case of
//! web-platform-tests' `setters_tests.json`, an edit gives exactly the
//! setter's URL (and WPT's expected getters), reports `Refused` only when
//! the URL is unchanged, and the refusals the standard names are refused.

use crate::common;

use urlsift::Url;
use urlsift::edit::{self, Component, Edit, Outcome};

use common::{getter, set};

#[test]
fn edits_equal_the_wpt_setters() {
    let data = common::wpt_json("setters_tests.json");
    let (mut count, mut refused, mut unchanged) = (0, 0, 0);
    let mut failures = Vec::new();
    for (attribute, cases) in data.as_object().expect("object") {
        let Some(component) = Component::from_name(attribute) else {
            assert!(
                matches!(
                    attribute.as_str(),
                    "comment" | "href" | "origin" | "searchParams"
                ),
                "{attribute}"
            );
            continue;
        };
        for case in cases.as_array().expect("cases") {
            count += 1;
            let href = case["href"].as_str().unwrap();
            let value = case["new_value"].as_str().unwrap();
            let mut by_setter = Url::parse(href).unwrap();
            set(&mut by_setter, attribute, value);
            let mut by_edit = Url::parse(href).unwrap();
            let edit = Edit::set(&format!("{attribute}={value}")).unwrap();
            assert_eq!(edit, Edit::set_component(component, value));
            let outcome = edit.apply(&mut by_edit);
            let name = format!("{attribute} = {value:?} on {href:?}");
            if by_edit.href() != by_setter.href() {
                failures.push(format!(
                    "{name}: edit {:?}, setter {:?}",
                    by_edit.href(),
                    by_setter.href()
                ));
            }
            for (g, expected) in case["expected"].as_object().unwrap() {
                if getter(&by_edit, g) != expected.as_str().unwrap() {
                    failures.push(format!(
                        "{name}: {g} = {:?}, expected {expected}",
                        getter(&by_edit, g)
                    ));
                }
            }
            let same = by_edit.href() == Url::parse(href).unwrap().href();
            match outcome {
                Outcome::Changed if same => {
                    failures.push(format!("{name}: Changed but the href is the same"))
                }
                Outcome::Unchanged | Outcome::Refused if !same => {
                    failures.push(format!("{name}: {outcome:?} but the href changed"))
                }
                Outcome::Refused => refused += 1,
                Outcome::Unchanged => unchanged += 1,
                Outcome::Changed => {}
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(count > 250, "only {count} cases");
    // WPT has both kinds of unchanged URLs: refusals and no-ops.
    assert!(
        refused > 30 && unchanged >= 1,
        "refused {refused}, unchanged {unchanged}"
    );
}

fn outcome(href: &str, spec: &str) -> (Outcome, String) {
    let mut url = Url::parse(href).unwrap();
    let outcome = Edit::set(spec).unwrap().apply(&mut url);
    (outcome, url.href().to_string())
}

#[test]
fn refusals_the_standard_names() {
    let refused = [
        ("file:///etc/hosts", "port=80"),
        ("file:///etc/hosts", "username=me"),
        ("file:///etc/hosts", "password=pw"),
        ("mailto:me@example.com", "host=example.org"),
        ("mailto:me@example.com", "hostname=example.org"),
        ("mailto:me@example.com", "pathname=/x"),
        ("http://example.com/", "protocol=foo"),
        ("foo://example.com/", "protocol=http"),
        ("http://u:p@example.com/", "protocol=file"),
        ("http://example.com/", "port=99999"),
        ("http://example.com/", "port=abc"),
        ("http://example.com/", "hostname=example.org:8080"),
        ("http://example.com/", "host="),
        ("http://example.com/", "host=exa mple.org"),
    ];
    for (href, spec) in refused {
        assert_eq!(
            outcome(href, spec),
            (Outcome::Refused, href.to_string()),
            "{spec} on {href}"
        );
    }
}

#[test]
fn changes_and_no_ops() {
    assert_eq!(
        outcome("http://example.com/", "port=8080"),
        (Outcome::Changed, "http://example.com:8080/".into())
    );
    assert_eq!(
        outcome("http://example.com:8080/", "port=80"),
        (Outcome::Changed, "http://example.com/".into())
    );
    assert_eq!(
        outcome("http://example.com/", "port=80"),
        (Outcome::Unchanged, "http://example.com/".into())
    );
    assert_eq!(
        outcome("http://example.com/", "port="),
        (Outcome::Unchanged, "http://example.com/".into())
    );
    assert_eq!(
        outcome("http://example.com/", "hostname=EXAMPLE.com"),
        (Outcome::Unchanged, "http://example.com/".into())
    );
    assert_eq!(
        outcome("http://example.com/", "protocol=https:"),
        (Outcome::Changed, "https://example.com/".into())
    );
    assert_eq!(
        outcome("http://example.com/a b", "pathname=/c d"),
        (Outcome::Changed, "http://example.com/c%20d".into())
    );
    assert_eq!(
        outcome("http://example.com/?q#f", "search="),
        (Outcome::Changed, "http://example.com/#f".into())
    );
    assert_eq!(
        outcome("http://example.com/?q#f", "hash=g h"),
        (Outcome::Changed, "http://example.com/?q#g%20h".into())
    );
    assert_eq!(
        outcome("http://example.com/", "username=a@b"),
        (Outcome::Changed, "http://a%40b@example.com/".into())
    );
    // A host with a port: the host is set even when the port is refused,
    // as the standard's host setter does.
    assert_eq!(
        outcome("http://example.com/", "host=example.org:99999"),
        (Outcome::Changed, "http://example.org/".into())
    );
    assert_eq!(
        outcome("http://example.com/", "host=example.com:99999"),
        (Outcome::Refused, "http://example.com/".into())
    );
    // Values may hold '='.
    assert_eq!(
        outcome("http://example.com/", "search=a=b"),
        (Outcome::Changed, "http://example.com/?a=b".into())
    );
}

#[test]
fn append_param_keeps_the_rest_of_the_query() {
    let cases = [
        ("http://e.com/", "a=1", "http://e.com/?a=1"),
        ("http://e.com/?", "a=1", "http://e.com/?a=1"),
        (
            "http://e.com/?x=%7e+y&z#f",
            "a=b c",
            "http://e.com/?x=%7e+y&z&a=b+c#f",
        ),
        ("http://e.com/?x", "flag", "http://e.com/?x&flag="),
        ("http://e.com/", "k&=v=w", "http://e.com/?k%26=v%3Dw"),
        (
            "mailto:me@e.com",
            "subject=hé",
            "mailto:me@e.com?subject=h%C3%A9",
        ),
    ];
    for (href, spec, want) in cases {
        let mut url = Url::parse(href).unwrap();
        assert_eq!(
            Edit::append_param(spec).unwrap().apply(&mut url),
            Outcome::Changed,
            "{spec}"
        );
        assert_eq!(url.href(), want, "{spec} on {href}");
        assert_eq!(
            Url::parse(url.href()).unwrap().href(),
            want,
            "re-parses to itself"
        );
        // The appended pair reads back as URLSearchParams reads it.
        let (name, value) = spec.split_once('=').unwrap_or((spec, ""));
        assert_eq!(
            url.search_params().get_all(name).last().copied(),
            Some(value),
            "{spec}"
        );
    }
    assert!(Edit::append_param("=v").is_err());
}

#[test]
fn remove_params_uses_the_strip_params_globs() {
    let edit = Edit::remove_params(["utm_*", "FBCLID"]).unwrap();
    let cases = [
        (
            "http://e.com/?utm_source=a&id=1&UTM_x&fbclid=2#f",
            Outcome::Changed,
            "http://e.com/?id=1#f",
        ),
        (
            "http://e.com/?utm_source=a",
            Outcome::Changed,
            "http://e.com/",
        ),
        (
            "http://e.com/?id=1&xutm_a=1",
            Outcome::Unchanged,
            "http://e.com/?id=1&xutm_a=1",
        ),
        (
            "http://e.com/#utm_a",
            Outcome::Unchanged,
            "http://e.com/#utm_a",
        ),
    ];
    for (href, want_outcome, want) in cases {
        let mut url = Url::parse(href).unwrap();
        assert_eq!(edit.apply(&mut url), want_outcome, "{href}");
        assert_eq!(url.href(), want, "{href}");
        // The same as the normalization profile with those globs.
        let profile = urlsift::profile::Profile::new()
            .strip_params(["utm_*", "FBCLID"])
            .unwrap();
        assert_eq!(
            profile.apply_to_string(&Url::parse(href).unwrap()),
            want,
            "{href}"
        );
    }
    assert!(Edit::remove_params([""]).is_err());
    assert!(Edit::remove_params(Vec::<&str>::new()).is_err());
}

#[test]
fn specs_are_checked_with_clear_errors() {
    let e = Edit::set("scheme=https").unwrap_err();
    assert!(
        e.to_string().contains("unknown component \"scheme\"")
            && e.to_string().contains("protocol, username"),
        "{e}"
    );
    assert!(
        Edit::set("port")
            .unwrap_err()
            .to_string()
            .contains("COMPONENT=VALUE")
    );
    assert_eq!(Edit::set("port=8080").unwrap().to_string(), "set port=8080");
}

#[test]
fn apply_all_counts_in_order() {
    let edits = [
        Edit::set("protocol=https").unwrap(),
        Edit::set("port=443").unwrap(),
        Edit::set("port=x").unwrap(),
    ];
    let mut url = Url::parse("http://e.com:443/").unwrap();
    let applied = edit::apply_all(&edits, &mut url);
    assert_eq!(url.href(), "https://e.com/");
    assert_eq!(
        (applied.changed, applied.unchanged, applied.refused),
        (1, 1, 1)
    );
}

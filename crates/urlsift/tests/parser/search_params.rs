//! URLSearchParams and the URL setters, from the standard's API text.

use urlsift::{Url, UrlSearchParams};

fn pairs(p: &UrlSearchParams) -> Vec<(String, String)> {
    p.iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

fn owned(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

#[test]
fn constructor_drops_one_leading_question_mark() {
    assert_eq!(pairs(&UrlSearchParams::parse("?a=1")), owned(&[("a", "1")]));
    assert_eq!(
        pairs(&UrlSearchParams::parse("??a=1")),
        owned(&[("?a", "1")])
    );
    assert_eq!(UrlSearchParams::parse("").size(), 0);
    let p = UrlSearchParams::from_pairs([("a", "1"), ("b", "2")]);
    assert_eq!(p.to_string(), "a=1&b=2");
}

#[test]
fn sort_is_stable_for_equal_names() {
    let mut p = UrlSearchParams::parse("z=1&a=2&z=0&a=1&a=3");
    p.sort();
    assert_eq!(
        pairs(&p),
        owned(&[("a", "2"), ("a", "1"), ("a", "3"), ("z", "1"), ("z", "0")])
    );
}

#[test]
fn sort_compares_utf16_code_units() {
    // U+1F600 is the surrogate pair D83D DE00, which sorts before U+FFFD in
    // UTF-16 although its code point is larger.
    let mut p = UrlSearchParams::from_pairs([("\u{FFFD}", "x"), ("\u{1F600}", "y")]);
    p.sort();
    assert_eq!(pairs(&p), owned(&[("\u{1F600}", "y"), ("\u{FFFD}", "x")]));
    let mut q = UrlSearchParams::from_pairs([("\u{FFFD}", "x"), ("\u{E000}", "y")]);
    q.sort();
    assert_eq!(pairs(&q), owned(&[("\u{E000}", "y"), ("\u{FFFD}", "x")]));
}

#[test]
fn delete_and_has_with_and_without_value() {
    let mut p = UrlSearchParams::parse("a=1&b=2&a=2&a=1");
    assert!(p.has("a", None));
    assert!(p.has("a", Some("2")));
    assert!(!p.has("a", Some("3")));
    assert!(!p.has("c", None));
    p.delete("a", Some("1"));
    assert_eq!(pairs(&p), owned(&[("b", "2"), ("a", "2")]));
    p.delete("a", None);
    assert_eq!(pairs(&p), owned(&[("b", "2")]));
}

#[test]
fn get_get_all_set_append_size() {
    let mut p = UrlSearchParams::parse("a=1&b=2&a=3");
    assert_eq!(p.get("a"), Some("1"));
    assert_eq!(p.get("c"), None);
    assert_eq!(p.get_all("a"), ["1", "3"]);
    assert!(p.get_all("c").is_empty());
    p.set("a", "9");
    assert_eq!(pairs(&p), owned(&[("a", "9"), ("b", "2")]));
    p.set("c", "4");
    p.append("a", "5");
    assert_eq!(p.size(), 4);
    assert_eq!(p.to_string(), "a=9&b=2&c=4&a=5");
}

#[test]
fn plus_and_percent_20_round_trips() {
    let p = UrlSearchParams::parse("a+b=c%20d&e=%2B");
    assert_eq!(pairs(&p), owned(&[("a b", "c d"), ("e", "+")]));
    // Serializing writes spaces as '+' and '+' as %2B; parsing that again
    // gives the same pairs.
    assert_eq!(p.to_string(), "a+b=c+d&e=%2B");
    assert_eq!(pairs(&UrlSearchParams::parse(&p.to_string())), pairs(&p));
    let q = UrlSearchParams::from_pairs([("~*'()", "é &=")]);
    assert_eq!(q.to_string(), "%7E*%27%28%29=%C3%A9+%26%3D");
}

#[test]
fn mutations_through_a_url_update_its_query() {
    let mut url = Url::parse("https://example.com/?a=b ~").unwrap();
    assert_eq!(url.href(), "https://example.com/?a=b%20~");
    // Reading alone does not rewrite the query.
    assert_eq!(url.search_params_mut().get("a"), Some("b ~"));
    assert_eq!(url.href(), "https://example.com/?a=b%20~");
    url.search_params_mut().sort();
    assert_eq!(url.href(), "https://example.com/?a=b+%7E");
    url.search_params_mut().append("c", "d");
    assert_eq!(url.search(), "?a=b+%7E&c=d");
    // Emptying the list clears the query.
    {
        let mut params = url.search_params_mut();
        params.delete("a", None);
        params.delete("c", None);
    }
    assert_eq!(url.href(), "https://example.com/");
    assert_eq!(url.query(), None);
    url.check_invariants().unwrap();
}

#[test]
fn search_setter_updates_params() {
    let mut url = Url::parse("https://example.com/#frag").unwrap();
    url.set_search("?x=1&y=2");
    assert_eq!(url.search_params().get("y"), Some("2"));
    assert_eq!(url.href(), "https://example.com/?x=1&y=2#frag");
    url.set_search("");
    assert_eq!(url.search_params().size(), 0);
    assert_eq!(url.href(), "https://example.com/#frag");
}

#[test]
fn opaque_path_keeps_encoded_space_when_query_goes() {
    // The opaque path state encodes a space right before '?' or '#' as
    // %20, so removing the query leaves no trailing space behind.
    let mut url = Url::parse("data:space ?query").unwrap();
    assert_eq!(url.pathname(), "space%20");
    url.search_params_mut().delete("query", None);
    assert_eq!(url.href(), "data:space%20");
    url.check_invariants().unwrap();
}

/// After every setter, the href re-parses to itself with the same getters.
#[test]
fn idempotence_after_every_setter() {
    type Setter = fn(&mut Url, &str);
    let setters: [(&str, Setter); 10] = [
        ("protocol", Url::set_protocol),
        ("username", Url::set_username),
        ("password", Url::set_password),
        ("host", Url::set_host),
        ("hostname", Url::set_hostname),
        ("port", Url::set_port),
        ("pathname", Url::set_pathname),
        ("search", Url::set_search),
        ("hash", Url::set_hash),
        ("href", |u, v| {
            let _ = u.set_href(v);
        }),
    ];
    let bases = [
        "https://user:pw@example.com:8080/a/b?q=1#f",
        "sc://h/p?q#f",
        "sc:/p",
        "sc:opaque?q",
        "file:///C:/dir/file",
        "http://[::1]/",
    ];
    let values = [
        "",
        "x",
        "ws",
        "file",
        "a b",
        "//x",
        "/./y/../z",
        "?#",
        "[::2]:81",
        "90000",
        "0x7f.1",
        "%2e%2E",
        "é",
        "c:",
        "\t\n",
        "@:",
        "a:b@c",
    ];
    for base in bases {
        for (name, setter) in setters {
            for value in values {
                let mut url = Url::parse(base).unwrap();
                setter(&mut url, value);
                let label = format!("{name} = {value:?} on {base}");
                url.check_invariants()
                    .unwrap_or_else(|e| panic!("{label}: {e}"));
                let again = Url::parse(url.href())
                    .unwrap_or_else(|e| panic!("{label}: {} fails: {e}", url.href()));
                assert_eq!(again.href(), url.href(), "{label}");
                assert_eq!(again.pathname(), url.pathname(), "{label}");
                assert_eq!(again.host(), url.host(), "{label}");
            }
        }
    }
}

/// Regression (found by the `setters` fuzz target): the protocol setter
/// may turn a path starting with "/C|" into a file: URL's path. The
/// standard keeps the path as it is (ada-url agrees), and parsing that
/// href then rewrites the drive letter to "C:": the one known case where
/// setters are not idempotent.
#[test]
fn protocol_setter_to_file_keeps_a_pipe_drive_letter() {
    let mut url = Url::parse("ftp://h/C|/x").unwrap();
    url.set_protocol("file");
    assert_eq!(url.href(), "file://h/C|/x");
    url.check_invariants().unwrap();
    assert_eq!(Url::parse(url.href()).unwrap().href(), "file://h/C:/x");
}

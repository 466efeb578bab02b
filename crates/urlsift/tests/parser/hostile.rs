//! Inputs that have hurt other parsers: each must parse (or fail) correctly
//! and without panicking. Growth with size is measured by
//! `benches/hostile.rs`, not here.

use urlsift::{BatchParser, Url, ValidationError, paths};

const MB: usize = 1 << 20;

/// Every path agrees, and a success is idempotent with consistent offsets.
fn check(input: &str) -> Result<Url, urlsift::ParseError> {
    let machine = paths::machine(input, None);
    let dispatch = Url::parse(input);
    assert_eq!(machine.as_ref().ok(), dispatch.as_ref().ok());
    let mut batch = BatchParser::new();
    assert_eq!(batch.parse(input, None).ok(), dispatch.as_ref().ok());
    let mut errors: Vec<ValidationError> = Vec::new();
    let reported = Url::parse_with_reporter(input, None, &mut errors);
    assert_eq!(reported.as_ref().ok(), dispatch.as_ref().ok());
    if let Ok(url) = &dispatch {
        url.check_invariants().unwrap();
        assert_eq!(Url::parse(url.href()).unwrap().href(), url.href());
    }
    dispatch
}

#[test]
fn many_single_dot_segments() {
    let url = check(&format!("http://h/{}x", "./".repeat(MB))).unwrap();
    assert_eq!(url.pathname(), "/x");
}

#[test]
fn many_double_dot_segments() {
    let url = check(&format!("http://h/a/b/{}c", "../".repeat(MB))).unwrap();
    assert_eq!(url.pathname(), "/c");
    let url = check(&format!("http://h/{}", "a/../".repeat(MB / 2))).unwrap();
    assert_eq!(url.pathname(), "/");
}

#[test]
fn long_dotted_host() {
    let host = "a.".repeat(MB / 2) + "com";
    let url = check(&format!("http://{host}/")).unwrap();
    assert_eq!(url.hostname(), host);
}

#[test]
fn long_punycode_label() {
    // A long xn-- label is ASCII: lowercased, not decoded (the current
    // standard's rule for ASCII domains).
    let host = format!("xn--{}", "a".repeat(MB / 4));
    let url = check(&format!("https://{host}/")).unwrap();
    assert_eq!(url.hostname(), host);
    // A long non-ASCII label goes through IDNA and must not hang.
    let _ = check(&format!("https://{}.com/", "é".repeat(MB / 16)));
}

#[test]
fn long_ipv6_colons() {
    assert!(check(&format!("http://[{}]/", ":".repeat(MB))).is_err());
    assert!(check(&format!("http://[{}1]/", "1:".repeat(MB / 2))).is_err());
}

#[test]
fn percent_signs() {
    let url = check(&format!("http://h/{}", "%".repeat(MB))).unwrap();
    assert_eq!(url.pathname().len(), MB + 1);
    let url = check(&format!("http://h/?{}", "%zz".repeat(MB / 3))).unwrap();
    assert!(url.search().starts_with("?%zz%zz"));
}

#[test]
fn bytes_that_triple_when_encoded() {
    let url = check(&format!("http://h/{}", "\u{7F}".repeat(MB))).unwrap();
    assert_eq!(url.pathname().len(), 3 * MB + 1);
    let url = check(&format!("sc:{}", " x".repeat(MB / 2))).unwrap();
    assert_eq!(url.pathname().len(), MB);
}

#[test]
fn tabs_and_newlines_inside() {
    let url = check(&format!("ht\ttp://h\n/{}x", "\t\n\r".repeat(MB / 3))).unwrap();
    assert_eq!(url.href(), "http://h/x");
}

#[test]
fn userinfo_full_of_at_signs() {
    let url = check(&format!("http://{}@h/", "u@".repeat(MB / 2))).unwrap();
    assert_eq!(url.hostname(), "h");
    assert!(url.username().starts_with("u%40u%40"));
    assert!(check(&format!("http://{}/", "@".repeat(MB))).is_err());
}

/// Known bug classes, as regression tests.
#[test]
fn known_bug_classes() {
    let href = |s: &str| Url::parse(s).map(|u| u.href().to_string());
    // Backslash vs slash host confusion.
    assert_eq!(
        href("http:\\\\evil.com\\@good.com/").unwrap(),
        "http://evil.com/@good.com/"
    );
    assert_eq!(href("sc:\\\\evil.com/").unwrap(), "sc:\\\\evil.com/");
    // '@' in userinfo: the last one ends the credentials.
    assert_eq!(href("http://a@b@c/").unwrap(), "http://a%40b@c/");
    // Leading C0 controls and spaces are stripped.
    assert_eq!(href("\u{0}\u{1F} http://h/").unwrap(), "http://h/");
    // Tabs and newlines inside the scheme and host are removed.
    assert_eq!(
        href("h\ttt\np://ex\tam\nple.com/").unwrap(),
        "http://example.com/"
    );
    // Octal and hex IPv4, and overflow.
    assert_eq!(href("http://0x7f.0.0.01/").unwrap(), "http://127.0.0.1/");
    assert_eq!(
        href("http://4294967295/").unwrap(),
        "http://255.255.255.255/"
    );
    assert!(href("http://4294967296/").is_err());
    assert!(href("http://0x100000000/").is_err());
    // xn-- labels: ASCII is only lowercased; a non-ASCII host is checked.
    assert_eq!(href("http://XN--A.com/").unwrap(), "http://xn--a.com/");
    assert!(href("http://xn--a.é/").is_err());
    // Full-width characters and soft hyphens in hosts.
    assert_eq!(href("http://ＧＯ.com/").unwrap(), "http://go.com/");
    assert_eq!(
        href("http://ex\u{AD}ample.com/").unwrap(),
        "http://example.com/"
    );
    assert_eq!(
        href("http://１２７.０.０.１/").unwrap(),
        "http://127.0.0.1/"
    );
    // Empty ports.
    assert_eq!(href("http://h:/").unwrap(), "http://h/");
    assert_eq!(href("sc://h:/").unwrap(), "sc://h/");
}

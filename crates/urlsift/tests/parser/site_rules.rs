//! The Public Suffix List algorithm's own cases, one named test each, on a
//! small list written here (so each expectation follows from the rules in
//! view) and, where the real list has the same shape, on the builtin list.

use urlsift::Url;
use urlsift::site::{List, Section, SuffixSet};

const LIST: &str = "\
// A list in the upstream format: comments, sections, whitespace.
// ===BEGIN ICANN DOMAINS===
com
uk
co.uk
jp
*.kawasaki.jp
!city.kawasaki.jp
ck
*.ck
!www.ck
// Unicode and A-label rules.
公司.cn
cn
xn--55qx5d.cn   this text after whitespace is ignored
中国
// ===END ICANN DOMAINS===
// ===BEGIN PRIVATE DOMAINS===
github.io
*.compute.example.com
// ===END PRIVATE DOMAINS===
";

fn list() -> List {
    List::parse(LIST).expect("test list parses")
}

/// (public suffix, registrable domain) of `host`.
fn split<'a>(list: &List, host: &'a str) -> Option<(&'a str, Option<&'a str>)> {
    list.parts(host)
        .map(|p| (p.public_suffix(), p.registrable_domain()))
}

#[test]
fn normal_rules_and_the_longest_match() {
    let l = list();
    assert_eq!(split(&l, "example.com"), Some(("com", Some("example.com"))));
    assert_eq!(
        split(&l, "a.b.example.com"),
        Some(("com", Some("example.com")))
    );
    assert_eq!(split(&l, "bbc.co.uk"), Some(("co.uk", Some("bbc.co.uk"))));
    assert_eq!(
        split(&l, "news.bbc.co.uk"),
        Some(("co.uk", Some("bbc.co.uk")))
    );
    let p = l.parts("a.b.news.bbc.co.uk").unwrap();
    assert_eq!((p.domain(), p.subdomain()), (Some("bbc"), Some("a.b.news")));
    assert_eq!(p.section(), Some(Section::Icann));
    let p = l.parts("bbc.co.uk").unwrap();
    assert_eq!((p.domain(), p.subdomain()), (Some("bbc"), Some("")));
}

#[test]
fn host_that_is_a_public_suffix() {
    let l = list();
    for host in ["com", "co.uk", "github.io", "x.ck", "unlisted"] {
        let p = l.parts(host).unwrap();
        assert_eq!(p.public_suffix(), host);
        assert_eq!(
            (p.registrable_domain(), p.domain(), p.subdomain()),
            (None, None, None),
            "{host}"
        );
    }
}

#[test]
fn unlisted_tld_uses_the_implicit_rule() {
    let l = list();
    let p = l.parts("www.example.unknowntld").unwrap();
    assert_eq!(p.public_suffix(), "unknowntld");
    assert_eq!(p.registrable_domain(), Some("example.unknowntld"));
    assert!(!p.is_listed());
    assert_eq!(p.section(), None);
    assert_eq!(
        split(&List::builtin(), "www.example.unknowntld"),
        Some(("unknowntld", Some("example.unknowntld")))
    );
    // A single label is its own suffix.
    assert_eq!(split(&l, "localhost"), Some(("localhost", None)));
}

#[test]
fn wildcard_rules() {
    for l in [list(), List::builtin()] {
        assert_eq!(split(&l, "ck"), Some(("ck", None)));
        assert_eq!(split(&l, "foo.ck"), Some(("foo.ck", None)));
        assert_eq!(
            split(&l, "bar.foo.ck"),
            Some(("foo.ck", Some("bar.foo.ck")))
        );
        assert_eq!(
            split(&l, "a.bar.foo.ck"),
            Some(("foo.ck", Some("bar.foo.ck")))
        );
        assert_eq!(
            split(&l, "x.ward.kawasaki.jp"),
            Some(("ward.kawasaki.jp", Some("x.ward.kawasaki.jp")))
        );
        // The wildcard needs a label to match: the parent alone is not a suffix by it.
        assert_eq!(split(&l, "kawasaki.jp"), Some(("jp", Some("kawasaki.jp"))));
    }
    // A wildcard below a node that is not itself a rule.
    let l = list();
    assert_eq!(
        split(&l, "a.b.us-1.compute.example.com"),
        Some((
            "us-1.compute.example.com",
            Some("b.us-1.compute.example.com")
        ))
    );
    assert_eq!(
        split(&l, "compute.example.com"),
        Some(("com", Some("example.com")))
    );
}

#[test]
fn exception_rules_prevail() {
    for l in [list(), List::builtin()] {
        assert_eq!(split(&l, "www.ck"), Some(("ck", Some("www.ck"))));
        assert_eq!(split(&l, "a.www.ck"), Some(("ck", Some("www.ck"))));
        assert_eq!(
            split(&l, "city.kawasaki.jp"),
            Some(("kawasaki.jp", Some("city.kawasaki.jp")))
        );
        assert_eq!(
            split(&l, "a.city.kawasaki.jp"),
            Some(("kawasaki.jp", Some("city.kawasaki.jp")))
        );
    }
}

#[test]
fn idn_rules_match_in_a_label_form_whichever_form_the_list_uses() {
    let l = list();
    // "公司.cn" is written in Unicode in the list, "xn--55qx5d.cn" (the
    // same suffix) in A-labels, "中国" in Unicode.
    assert_eq!(
        split(&l, "shop.xn--55qx5d.cn"),
        Some(("xn--55qx5d.cn", Some("shop.xn--55qx5d.cn")))
    );
    assert_eq!(
        split(&l, "www.xn--85x722f.xn--fiqs8s"),
        Some(("xn--fiqs8s", Some("xn--85x722f.xn--fiqs8s")))
    );
    // Hosts come through the URL parser in A-label form.
    let url = Url::parse("https://www.食狮.公司.cn/").unwrap();
    assert_eq!(url.hostname(), "www.xn--85x722f.xn--55qx5d.cn");
    assert_eq!(
        l.url_parts(&url).unwrap().registrable_domain(),
        Some("xn--85x722f.xn--55qx5d.cn")
    );
    assert_eq!(
        l.url_parts(&Url::parse("https://食狮.中国/").unwrap())
            .unwrap()
            .registrable_domain(),
        Some("xn--85x722f.xn--fiqs8s")
    );
    // A Unicode host is not looked up: convert it first.
    assert_eq!(l.parts("www.食狮.公司.cn"), None);
    // The same on the builtin list, which has both rules.
    let b = List::builtin();
    assert_eq!(b.public_suffix("shop.xn--55qx5d.cn"), Some("xn--55qx5d.cn"));
    assert_eq!(
        b.public_suffix("xn--85x722f.xn--fiqs8s"),
        Some("xn--fiqs8s")
    );
}

#[test]
fn private_section_on_and_off() {
    for l in [list(), List::builtin()] {
        assert!(l.includes_private());
        let p = l.parts("user.github.io").unwrap();
        assert_eq!(
            (p.public_suffix(), p.registrable_domain()),
            ("github.io", Some("user.github.io"))
        );
        assert_eq!(p.section(), Some(Section::Private));
        let icann = l.icann_only();
        assert!(!icann.includes_private());
        let p = icann.parts("user.github.io").unwrap();
        assert_eq!(
            (p.public_suffix(), p.registrable_domain()),
            ("io", Some("github.io"))
        );
        assert_eq!(icann.registrable_domain("github.io"), Some("github.io"));
        assert_eq!(
            icann.with_private(true).registrable_domain("github.io"),
            None
        );
    }
    // Private wildcards go too.
    let icann = list().icann_only();
    assert_eq!(
        icann.registrable_domain("a.b.us-1.compute.example.com"),
        Some("example.com")
    );
}

#[test]
fn mixed_case_matches_and_keeps_the_case_given() {
    for l in [list(), List::builtin()] {
        assert_eq!(split(&l, "COM"), Some(("COM", None)));
        assert_eq!(split(&l, "example.COM"), Some(("COM", Some("example.COM"))));
        assert_eq!(
            split(&l, "WwW.Example.Co.Uk"),
            Some(("Co.Uk", Some("Example.Co.Uk")))
        );
        assert_eq!(split(&l, "a.WWW.CK"), Some(("CK", Some("WWW.CK"))));
        assert_eq!(
            split(&l, "User.GitHub.IO"),
            Some(("GitHub.IO", Some("User.GitHub.IO")))
        );
    }
}

#[test]
fn leading_dots_and_empty_labels_are_not_domains() {
    for l in [list(), List::builtin()] {
        for host in [
            ".com",
            ".example",
            ".example.com",
            ".example.example",
            "a..example.com",
            "example..com",
            "",
            ".",
            "..",
        ] {
            assert_eq!(l.parts(host), None, "{host:?}");
        }
    }
}

#[test]
fn trailing_dot_is_kept_in_the_slices() {
    for l in [list(), List::builtin()] {
        let p = l.parts("www.example.com.").unwrap();
        assert!(p.is_fqdn());
        assert_eq!(p.public_suffix(), "com.");
        assert_eq!(p.registrable_domain(), Some("example.com."));
        assert_eq!((p.domain(), p.subdomain()), (Some("example"), Some("www")));
        assert_eq!(split(&l, "com."), Some(("com.", None)));
        assert_eq!(split(&l, "x.foo.ck."), Some(("foo.ck.", Some("x.foo.ck."))));
        assert_eq!(l.parts("example.com.."), None);
    }
}

#[test]
fn ip_addresses_have_no_site() {
    for l in [list(), List::builtin()] {
        for host in [
            "127.0.0.1",
            "10.0.0.300",
            "1.2.3.0x7f",
            "0x7f.1",
            "example.123",
            "[::1]",
            "[2001:db8::1]",
        ] {
            assert_eq!(l.parts(host), None, "{host}");
        }
        // A label with digits is not a number.
        assert_eq!(
            split(&l, "1.2.3.example.com"),
            Some(("com", Some("example.com")))
        );
        assert_eq!(split(&l, "host.0xg"), Some(("0xg", Some("host.0xg"))));
    }
    for input in [
        "http://127.0.0.1/",
        "http://[::1]/",
        "http://0x7f.1/",
        "foo://opaque.example.com/",
        "file:///x",
        "mailto:a@example.com",
    ] {
        let url = Url::parse(input).unwrap();
        assert_eq!(List::builtin().url_parts(&url), None, "{input}");
        assert_eq!(urlsift::site::registrable_domain(&url), None, "{input}");
    }
    let url = Url::parse("https://news.bbc.co.uk/").unwrap();
    assert_eq!(urlsift::site::registrable_domain(&url), Some("bbc.co.uk"));
}

#[test]
fn slices_borrow_the_host() {
    let host = String::from("news.bbc.co.uk");
    let p = List::builtin().parts(&host).unwrap();
    let range = host.as_bytes().as_ptr_range();
    for part in [
        p.public_suffix(),
        p.registrable_domain().unwrap(),
        p.domain().unwrap(),
        p.subdomain().unwrap(),
    ] {
        assert!(range.contains(&part.as_ptr()), "{part}");
    }
}

#[test]
fn bad_lists_are_refused_with_the_line() {
    let err = |text: &str| List::parse(text).unwrap_err();
    let e = err("com\n\n!org\n");
    assert_eq!(e.line, 3);
    assert!(
        e.to_string().contains("line 3") && e.to_string().contains("\"!org\""),
        "{e}"
    );
    assert_eq!(err("com\na.*.b\n").line, 2);
    assert_eq!(err("com\na..b\n").line, 2);
    assert_eq!(err("com\nexample.com:8080\n").line, 2);
    let e = err("// only comments\n\n<html>\n");
    assert_eq!(e.line, 3, "{e}");
    let e = err("// only comments\n");
    assert!(e.to_string().contains("no rules"), "{e}");
    let missing = List::from_file("/nonexistent/public_suffix_list.dat").unwrap_err();
    assert!(
        missing
            .to_string()
            .contains("/nonexistent/public_suffix_list.dat"),
        "{missing}"
    );
}

#[test]
fn suffix_set_matches_sites_and_host_suffixes() {
    let set = SuffixSet::from_lines("# sites\nexample.com\n\n  BBC.co.uk.  \n.github.io\n*.blogspot.com\n食狮.中国\n127.0.0.1\n").unwrap();
    assert_eq!(set.len(), 6);
    for name in [
        "example.com",
        "bbc.co.uk",
        "github.io",
        "blogspot.com",
        "xn--85x722f.xn--fiqs8s",
        "127.0.0.1",
        "example.com.",
    ] {
        assert!(set.contains(name), "{name}");
    }
    assert!(!set.contains("www.example.com"));
    assert_eq!(set.matching_suffix("a.b.example.com"), Some("example.com"));
    assert_eq!(set.matching_suffix("example.com."), Some("example.com"));
    assert_eq!(set.matching_suffix("user.github.io"), Some("github.io"));
    assert_eq!(set.matching_suffix("notexample.com"), None);
    assert_eq!(set.matching_suffix("com"), None);
    assert_eq!(set.matching_suffix("127.0.0.1"), Some("127.0.0.1"));
    // The site filter: a URL's registrable domain looked up once.
    let list = List::builtin();
    assert!(set.contains(list.registrable_domain("news.bbc.co.uk").unwrap()));
    assert!(!set.contains(list.registrable_domain("user.github.io").unwrap()));
    let mut set = SuffixSet::new();
    assert_eq!(set.insert("Example.COM"), Ok(true));
    assert_eq!(set.insert("example.com."), Ok(false));
    for bad in ["https://example.com/", "a..b", "", "exa mple.com"] {
        assert!(set.insert(bad).is_err(), "{bad:?}");
    }
    let e = SuffixSet::from_lines("ok.com\nhttp://x/\n").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.to_string().starts_with("line 2: \"http://x/\""), "{e}");
}

#[test]
fn hosts_longer_than_one_simd_block() {
    let long = format!("{}.news.bbc.co.uk", "a".repeat(70));
    for l in [list(), List::builtin()] {
        assert_eq!(split(&l, &long), Some(("co.uk", Some("bbc.co.uk"))));
        let upper = long.to_ascii_uppercase() + ".";
        assert_eq!(split(&l, &upper), Some(("CO.UK.", Some("BBC.CO.UK."))));
        assert_eq!(l.parts(&upper).unwrap().subdomain(), Some(&upper[..75]));
        let labels = format!("{}bbc.co.uk", "x.".repeat(40));
        assert_eq!(split(&l, &labels), Some(("co.uk", Some("bbc.co.uk"))));
        assert_eq!(
            l.parts(&format!("{}.co.uk", "a".repeat(70)))
                .unwrap()
                .domain(),
            Some(&*"a".repeat(70))
        );
        for bad in [
            format!("{long}..uk"),
            format!(".{long}"),
            format!("{long}é"),
            format!("{}.1.2", "9".repeat(70)),
        ] {
            assert_eq!(l.parts(&bad), None, "{bad}");
        }
    }
}

#[test]
fn lists_and_sets_are_shared_across_threads() {
    fn shared<T: Send + Sync + Clone>() {}
    shared::<List>();
    shared::<SuffixSet>();
    let list = list();
    let sites: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = ["a.bbc.co.uk", "x.y.foo.ck"]
            .into_iter()
            .map(|h| {
                let list = list.clone();
                s.spawn(move || list.registrable_domain(h).map(str::to_string))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(
        sites,
        [Some("bbc.co.uk".to_string()), Some("y.foo.ck".to_string())]
    );
}

#[test]
fn suffix_set_walks_stop_only_where_no_entry_can_match() {
    // An entry's dot-suffixes are nodes a walk passes through, not entries.
    let mut set = SuffixSet::from_lines("a.b.c.example.com\n").unwrap();
    assert_eq!(set.len(), 1);
    for node in ["com", "example.com", "c.example.com", "b.c.example.com"] {
        assert!(!set.contains(node), "{node}");
        assert_eq!(set.matching_suffix(node), None, "{node}");
    }
    assert_eq!(
        set.matching_suffix("x.a.b.c.example.com"),
        Some("a.b.c.example.com")
    );
    assert_eq!(set.matching_suffix("x.b.c.example.com"), None);
    // A node inserted later becomes an entry, and counts once.
    assert_eq!(set.insert("example.com"), Ok(true));
    assert_eq!(set.insert("example.com"), Ok(false));
    assert_eq!(set.len(), 2);
    assert!(set.contains("example.com"));
    assert_eq!(
        set.matching_suffix("x.b.c.example.com"),
        Some("example.com")
    );
    assert_eq!(
        set.matching_suffix("x.a.b.c.example.com"),
        Some("example.com"),
        "the shortest matching suffix"
    );
}

mod suffix_set_property {
    use proptest::prelude::*;
    use urlsift::site::SuffixSet;

    /// Names over a few short labels, so that sets and hosts share suffixes.
    fn name() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop::sample::select(vec!["a", "b", "cc", "com", "x-y"]),
            1..5,
        )
        .prop_map(|labels| labels.join("."))
    }

    /// The shortest dot-suffix of `host` that is in `entries`, by brute force.
    fn brute<'a>(entries: &[String], host: &'a str) -> Option<&'a str> {
        let starts = std::iter::once(0).chain(host.match_indices('.').map(|(i, _)| i + 1));
        starts
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .map(|s| &host[s..])
            .find(|suffix| entries.iter().any(|e| e == suffix))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
        #[test]
        fn matching_suffix_equals_brute_force(
            entries in prop::collection::vec(name(), 0..8),
            hosts in prop::collection::vec(name(), 1..8),
        ) {
            let mut set = SuffixSet::new();
            for e in &entries {
                set.insert(e).unwrap();
            }
            let distinct: std::collections::BTreeSet<&String> = entries.iter().collect();
            prop_assert_eq!(set.len(), distinct.len());
            for h in &hosts {
                prop_assert_eq!(set.matching_suffix(h), brute(&entries, h), "host {}", h);
                prop_assert_eq!(set.contains(h), entries.contains(h), "contains {}", h);
            }
        }
    }
}

//! `normalize` and its profiles.

use crate::workdir::*;

#[test]
fn normalize_prints_hrefs_in_order() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        "HTTPS://Example.COM:443/a/./b/../c?x#f\nhttp://[::1]:80/\n  https://e.com/ sp  \nhttps://\u{00fc}ber.de/\n",
    );
    assert_eq!(
        wd.stdout(&["normalize", "in.txt"]),
        "https://example.com/a/c?x#f\nhttp://[::1]/\nhttps://e.com/%20sp\nhttps://xn--ber-goa.de/\n"
    );
}

#[test]
fn normalize_resolves_against_base() {
    let wd = Workdir::new();
    wd.create("paths.log", "/index.html?a=1\n../up\nhttps://other.org/x\n");
    assert_eq!(
        wd.stdout(&[
            "normalize",
            "--base",
            "https://example.com/dir/",
            "paths.log"
        ]),
        "https://example.com/index.html?a=1\nhttps://example.com/up\nhttps://other.org/x\n"
    );
    let bad = wd.run(&["normalize", "--base", "not a url", "paths.log"], None);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("--base"), "{}", stderr(&bad));
}

#[test]
fn normalize_profiles() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        "https://e.com/p?b=2&utm_source=x&a=1&b=1&FBCLID=z#frag\nhttps://e.com/q?utm_medium=m#f\nhttps://e.com/r?\n",
    );
    assert_eq!(
        wd.stdout(&["normalize", "--strip-fragment", "in.txt"]),
        "https://e.com/p?b=2&utm_source=x&a=1&b=1&FBCLID=z\nhttps://e.com/q?utm_medium=m\nhttps://e.com/r?\n"
    );
    assert_eq!(
        wd.stdout(&["normalize", "--sort-query", "in.txt"]),
        "https://e.com/p?FBCLID=z&a=1&b=2&b=1&utm_source=x#frag\nhttps://e.com/q?utm_medium=m#f\nhttps://e.com/r?\n"
    );
    assert_eq!(
        wd.stdout(&["normalize", "--strip-params", "utm_*,fbclid", "in.txt"]),
        "https://e.com/p?b=2&a=1&b=1#frag\nhttps://e.com/q#f\nhttps://e.com/r?\n"
    );
    let bad = wd.run(&["normalize", "--strip-params", "a,,b", "in.txt"], None);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn normalize_surt() {
    let wd = Workdir::new();
    wd.create(
        "in.txt",
        "https://www.Example.com/Path?q=1#f\nhttp://u:p@a.b.example.org:8080/\nftp://example.org/f\nmailto:a@b.c\n",
    );
    assert_eq!(
        wd.stdout(&["normalize", "--surt", "in.txt"]),
        "com,example)/Path?q=1\norg,example,b,a:8080)/\nftp://(org,example)/f\nmailto:a@b.c\n"
    );
}

/// Every URL profile is idempotent: its output, parsed and profiled again,
/// is unchanged. The SURT key is stable under prior normalization.
#[test]
fn profiles_are_idempotent_on_the_sample() {
    let wd = Workdir::new();
    let s = sample_str();
    let profiles: [&[&str]; 5] = [
        &[],
        &["--strip-fragment"],
        &["--sort-query"],
        &["--strip-params", "utm_*,fbclid,gclid,id"],
        &[
            "--sort-query",
            "--strip-params",
            "utm_*",
            "--strip-fragment",
        ],
    ];
    for flags in profiles {
        let mut args = vec!["normalize", "-q"];
        args.extend_from_slice(flags);
        let mut once_args = args.clone();
        once_args.push(&s);
        let once = wd.stdout(&once_args);
        assert!(once.lines().count() > 10_000);
        wd.create("once.txt", &once);
        let mut twice_args = args.clone();
        twice_args.push("once.txt");
        assert_eq!(
            wd.stdout(&twice_args),
            once,
            "profile {flags:?} is not idempotent"
        );
    }
    let normal = wd.stdout(&["normalize", "-q", &s]);
    wd.create("normal.txt", &normal);
    let direct = wd.stdout(&["normalize", "-q", "--keep-invalid", "--surt", &s]);
    let after = wd.stdout(&["normalize", "-q", "--surt", "normal.txt"]);
    let direct_valid: Vec<&str> = direct
        .lines()
        .zip(
            std::fs::read_to_string(sample())
                .unwrap()
                .lines()
                .map(String::from)
                .collect::<Vec<_>>(),
        )
        .filter(|(_, input)| urlsift::Url::parse(input).is_ok())
        .map(|(out, _)| out)
        .collect();
    assert_eq!(direct_valid, after.lines().collect::<Vec<_>>());
}

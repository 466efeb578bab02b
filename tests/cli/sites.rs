//! Sites, filters and edits in the command: site fields, `dedup --key
//! site`, stats by site, `--psl FILE`, keep/drop filters (counted, never
//! silently lost) and trurl-style edits through the setters.

use crate::workdir::*;

const URLS: &str = "https://news.bbc.co.uk/a\n\
                    https://www.bbc.co.uk/b\n\
                    https://a.github.io/x.pdf\n\
                    https://b.github.io/y.PDF?utm_source=z\n\
                    http://192.0.2.1/\n\
                    https://co.uk/\n\
                    not a url\n";

#[test]
fn extract_site_fields() {
    let wd = Workdir::new();
    wd.create("u.txt", URLS);
    assert_eq!(
        wd.stdout(&[
            "extract",
            "-q",
            "--fields",
            "hostname,site,domain,subdomain,public_suffix",
            "u.txt"
        ]),
        "hostname,site,domain,subdomain,public_suffix\n\
         news.bbc.co.uk,bbc.co.uk,bbc,news,co.uk\n\
         www.bbc.co.uk,bbc.co.uk,bbc,www,co.uk\n\
         a.github.io,a.github.io,a,,github.io\n\
         b.github.io,b.github.io,b,,github.io\n\
         192.0.2.1,,,,\n\
         co.uk,,,,co.uk\n"
    );
    // ICANN rules only: github.io is an ordinary domain under io.
    assert_eq!(
        wd.stdout(&[
            "extract",
            "-q",
            "--icann-only",
            "--fields",
            "site",
            "--format",
            "{site}",
            "u.txt"
        ]),
        "bbc.co.uk\nbbc.co.uk\ngithub.io\ngithub.io\n\n\n"
    );
    // JSON has null where a URL has no such part.
    assert_eq!(
        wd.stdout(&["extract", "-q", "--jsonl", "--fields", "site", "u.txt"])
            .lines()
            .nth(4),
        Some("{\"site\":null}")
    );
}

#[test]
fn a_list_loaded_at_run_time() {
    let wd = Workdir::new();
    wd.create("list.dat", "// ===BEGIN ICANN DOMAINS===\nexample\n*.wild.example\n!keep.wild.example\n// ===END ICANN DOMAINS===\n");
    wd.create("u.txt", "https://a.b.example/\nhttps://x.y.wild.example/\nhttps://keep.wild.example/\nhttps://a.b.unlisted/\n");
    assert_eq!(
        wd.stdout(&[
            "extract", "-q", "--psl", "list.dat", "--format", "{site}", "u.txt"
        ]),
        "b.example\nx.y.wild.example\nkeep.wild.example\nb.unlisted\n"
    );
    let out = wd.run(&["extract", "--psl", "nope.dat", "u.txt"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("nope.dat"), "{}", stderr(&out));
}

#[test]
fn dedup_by_site_and_stats_by_site() {
    let wd = Workdir::new();
    wd.create("u.txt", URLS);
    assert_eq!(
        wd.stdout(&["dedup", "-q", "--key", "site", "u.txt"]),
        "https://news.bbc.co.uk/a\n\
         https://a.github.io/x.pdf\n\
         https://b.github.io/y.PDF?utm_source=z\n\
         http://192.0.2.1/\n\
         https://co.uk/\n"
    );
    let out = wd.stdout(&["stats", "-q", "--json", "u.txt"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["top_sites"][0]["name"], "bbc.co.uk");
    assert_eq!(v["top_sites"][0]["count"], 2);
    assert_eq!(v["top_public_suffixes"][0]["name"], "co.uk");
    assert_eq!(v["top_public_suffixes"][0]["count"], 3);
}

#[test]
fn filters_keep_or_drop_and_are_counted() {
    let wd = Workdir::new();
    wd.create("u.txt", URLS);
    let out = wd.run(&["normalize", "-v", "--site", "bbc.co.uk", "u.txt"], None);
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "https://news.bbc.co.uk/a\nhttps://www.bbc.co.uk/b\n"
    );
    assert!(
        stderr(&out).contains("4 valid filtered out"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("6 valid"), "{}", stderr(&out));
    assert_eq!(
        wd.stdout(&[
            "normalize",
            "-q",
            "--not-host-suffix",
            "github.io,bbc.co.uk",
            "--scheme",
            "https",
            "u.txt"
        ]),
        "https://co.uk/\n"
    );
    assert_eq!(
        wd.stdout(&[
            "normalize",
            "-q",
            "--ext",
            "pdf",
            "--lacks-param",
            "utm_*",
            "u.txt"
        ]),
        "https://a.github.io/x.pdf\n"
    );
    assert_eq!(
        wd.stdout(&["normalize", "-q", "--has-param", "UTM_*", "u.txt"]),
        "https://b.github.io/y.PDF?utm_source=z\n"
    );
    // A site file: matched on the site and on every suffix of the host.
    wd.create("sites.txt", "# sites\nbbc.co.uk\nb.github.io\n\n");
    assert_eq!(
        wd.stdout(&[
            "extract",
            "-q",
            "--site-file",
            "sites.txt",
            "--fields",
            "host",
            "u.txt"
        ]),
        "host\nnews.bbc.co.uk\nwww.bbc.co.uk\nb.github.io\n"
    );
    assert_eq!(
        wd.stdout(&["dedup", "-q", "--not-site-file", "sites.txt", "u.txt"]),
        "https://a.github.io/x.pdf\nhttp://192.0.2.1/\nhttps://co.uk/\n"
    );
}

#[test]
fn filters_alone_read_each_url_where_it_lies_and_keep_records_as_they_came() {
    // Filters without edits decide on the URL as the fast path proved it,
    // without building a URL: kept lines still leave as runs of input or
    // in normal form, dropped ones between them are counted, bad ones are
    // accounted as before, at any chunking.
    let wd = Workdir::new();
    let mut text = String::new();
    for i in 0..200 {
        text.push_str(&format!(
            "https://news.bbc.co.uk/{i}\r\n\
             https://other.example/{i}\n\
             HTTPS://WWW.BBC.CO.UK:443/{i}\n\
             http://[::1]/{i}\n\
             not a url {i}\n\
             /relative/{i}\n"
        ));
    }
    wd.create("u.txt", &text);
    wd.create("sites.txt", "bbc.co.uk\n[::1]\n");
    let mut want = String::new();
    for i in 0..200 {
        want.push_str(&format!(
            "https://news.bbc.co.uk/{i}\n\
             https://www.bbc.co.uk/{i}\n\
             http://[::1]/{i}\n"
        ));
    }
    for (threads, chunk) in [("1", "4M"), ("2", "1K")] {
        let out = wd.run(
            &[
                "normalize",
                "-v",
                "-j",
                threads,
                "--chunk-size",
                chunk,
                "--site-file",
                "sites.txt",
                "u.txt",
            ],
            None,
        );
        assert_eq!(String::from_utf8(out.stdout.clone()).unwrap(), want);
        let err = stderr(&out);
        assert!(err.contains("1200 lines"), "{err}");
        assert!(err.contains("200 valid filtered out"), "{err}");
        assert!(err.contains("400 bad"), "{err}");
    }
    // With a base, relative lines (and "not a url") resolve and are
    // filtered as URLs.
    let out = wd.stdout(&[
        "normalize",
        "-q",
        "--base",
        "https://bbc.co.uk/",
        "--site",
        "bbc.co.uk",
        "--not-host-suffix",
        "news.bbc.co.uk",
        "u.txt",
    ]);
    assert_eq!(out.lines().count(), 600, "www and relative lines");
    assert!(
        out.starts_with(
            "https://www.bbc.co.uk/0\nhttps://bbc.co.uk/not%20a%20url%200\nhttps://bbc.co.uk/relative/0\n"
        ),
        "{out}"
    );
    // Records: only the kept rows, each with its other fields untouched.
    wd.create(
        "u.csv",
        "id,url,note\n1,https://news.bbc.co.uk/a,\"x, y\"\n2,https://other.example/,z\n3,HTTPS://BBC.CO.UK,w\n",
    );
    assert_eq!(
        wd.stdout(&["normalize", "-q", "--site", "bbc.co.uk", "u.csv"]),
        "id,url,note\n1,https://news.bbc.co.uk/a,\"x, y\"\n3,https://bbc.co.uk/,w\n"
    );
}

#[test]
fn edits_go_through_the_setters_before_keys_and_filters() {
    let wd = Workdir::new();
    wd.create(
        "u.txt",
        "http://example.com/a?utm_source=x&id=7#top\nfile:///etc/hosts\nhttp://other.org/\n",
    );
    let out = wd.run(
        &[
            "normalize",
            "--set",
            "protocol=https",
            "--set",
            "port=8443",
            "--set",
            "hash=",
            "--append-param",
            "lang=en gb",
            "--remove-param",
            "utm_*",
            "u.txt",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "https://example.com:8443/a?id=7&lang=en+gb\n\
         file:///etc/hosts?lang=en+gb\n\
         https://other.org:8443/?lang=en+gb\n"
    );
    // file: refuses the scheme change and the port: counted, URL kept.
    assert!(
        stderr(&out).contains("2 edits refused by the standard"),
        "{}",
        stderr(&out)
    );
    // Edits come before dedup keys: both URLs end up on one host.
    wd.create("h.txt", "http://a.example/1\nhttp://b.example/2\n");
    assert_eq!(
        wd.stdout(&[
            "dedup",
            "-q",
            "--key",
            "host",
            "--set",
            "host=c.example",
            "h.txt"
        ]),
        "http://c.example/1\n"
    );
    // And before SURT keys and filters.
    assert_eq!(
        wd.stdout(&[
            "normalize",
            "-q",
            "--surt",
            "--set",
            "hostname=www.d.example",
            "--site",
            "d.example",
            "h.txt"
        ]),
        "example,d)/1\nexample,d)/2\n"
    );
    let bad = wd.run(&["normalize", "--set", "nope=1", "h.txt"], None);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn sites_and_edits_in_records() {
    let wd = Workdir::new();
    wd.create(
        "in.csv",
        "id,url\n1,HTTP://News.BBC.co.uk/x\n2,https://example.org/\n",
    );
    assert_eq!(
        wd.stdout(&[
            "normalize",
            "-q",
            "--site",
            "bbc.co.uk",
            "--set",
            "protocol=https",
            "in.csv"
        ]),
        "id,url\n1,https://news.bbc.co.uk/x\n"
    );
    assert_eq!(
        wd.stdout(&["extract", "-q", "--append", "--fields", "site", "in.csv"]),
        "id,url,url_site\n1,HTTP://News.BBC.co.uk/x,bbc.co.uk\n2,https://example.org/,example.org\n"
    );
}

/// Which list is in use is said (`--version`, stats' JSON, a loaded
/// file's VERSION and COMMIT lines); `is_private` names the private
/// section's suffixes; `dedup --key site` reads `example.com.` as
/// `example.com`.
#[test]
fn the_list_in_use_is_named_and_private_suffixes_are_told_apart() {
    let wd = Workdir::new();
    let version = wd.stdout(&["--version"]);
    assert!(
        version.starts_with("urlsift ")
            && version.contains("Public Suffix List: builtin (psl crate 2."),
        "{version}"
    );
    wd.create(
        "urls.txt",
        "https://user.github.io/x\nhttps://www.bbc.co.uk/\nhttp://10.0.0.1/\n",
    );
    let stats = wd.stdout(&["stats", "--json", "urls.txt"]);
    assert!(
        stats.contains("\"public_suffix_list\": \"builtin (psl crate 2."),
        "{stats}"
    );
    wd.create(
        "list.dat",
        "// VERSION: 2026-11-20_10-04-11_UTC\n// COMMIT: 0123abcd\n// ===BEGIN ICANN DOMAINS===\nuk\nco.uk\n\
         // ===END ICANN DOMAINS===\n// ===BEGIN PRIVATE DOMAINS===\ngithub.io\n// ===END PRIVATE DOMAINS===\n",
    );
    let stats = wd.stdout(&["stats", "--json", "--psl", "list.dat", "urls.txt"]);
    assert!(
        stats.contains("\"loaded (3 rules; VERSION 2026-11-20_10-04-11_UTC; COMMIT 0123abcd)\""),
        "{stats}"
    );
    let fields = wd.stdout(&["extract", "--fields", "site,is_private", "urls.txt"]);
    assert_eq!(
        fields,
        "site,is_private\nuser.github.io,true\nbbc.co.uk,false\n,\n"
    );
    wd.create(
        "dots.txt",
        "https://example.com./a\nhttps://example.com/b\nhttps://www.example.com./c\n",
    );
    assert_eq!(
        wd.stdout(&["dedup", "--key", "site", "dots.txt"]),
        "https://example.com./a\n"
    );
}

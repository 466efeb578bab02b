//! Property-test strategies: URL-shaped inputs built from pieces that have
//! tripped parsers (schemes in any case, slashes and backslashes, userinfo
//! with '@', hosts of every kind, ports, dot segments, escapes, non-ASCII,
//! tabs and C0 padding).

use proptest::prelude::*;

fn scheme() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "http:", "HTTPS:", "https:", "ws:", "wss:", "ftp:", "file:", "sc:", "web+x:", "", "h\tttp:",
    ])
    .prop_map(str::to_string)
}

fn slashes() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["//", "/", "", "///", "\\\\", "/\\"]).prop_map(str::to_string)
}

fn userinfo() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["", "", "", "user@", "u:p@", ":@", "a@b@", "é:%zz@"])
        .prop_map(str::to_string)
}

fn host() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "example.com",
        "EXAMPLE.Com",
        "xn--nxasmq6b.com",
        "xn--a.b",
        "0x7f.1",
        "1.2.3.4",
        "1.2.3.256",
        "[::1]",
        "[1:0::]",
        "",
        "a%41b",
        "bücher.de",
        "ＡＢＣ.com",
        "a b",
        "localhost",
        "soft\u{AD}hyphen.com",
        "09.1",
        "a..b.",
    ])
    .prop_map(str::to_string)
}

fn port() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "", "", ":80", ":443", ":8080", ":0080", ":", ":65536", ":x",
    ])
    .prop_map(str::to_string)
}

fn segment() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "a",
        "b.html",
        ".",
        "..",
        "%2e",
        ".%2E",
        "%2e%2e",
        "a b",
        "é",
        "|",
        "C|",
        "c:",
        "%zz",
        "{x}",
        "",
        ".well-known",
        "~u",
        "a?b",
        "x#y",
        "'q'",
        "^",
    ])
    .prop_map(str::to_string)
}

fn tail() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "",
        "",
        "?q=1",
        "?a=b&c=d#f",
        "#frag",
        "?",
        "#",
        "?é'<>",
        "#`x y`",
        "?#",
    ])
    .prop_map(str::to_string)
}

pub fn url_shaped() -> impl Strategy<Value = String> {
    (
        scheme(),
        slashes(),
        userinfo(),
        host(),
        port(),
        prop::collection::vec(segment(), 0..5),
        prop::sample::select(vec!["/", "\\", "/"]),
        tail(),
        prop::sample::select(vec!["", " ", "\t", "\u{0}"]),
    )
        .prop_map(|(s, sl, ui, h, p, segs, sep, t, pad)| {
            let path: String = segs.iter().map(|seg| format!("{sep}{seg}")).collect();
            format!("{pad}{s}{sl}{ui}{h}{p}{path}{t}{pad}")
        })
}

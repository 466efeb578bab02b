//! Unit tests written from the text of the URL Standard (`url.bs`): hosts
//! (domains, IPv4, IPv6, opaque), percent-encode sets, percent-decoding,
//! the serializer's "/." rule, origins, validation error names and
//! `can_parse`. The parser states are in `tests/spec_states.rs`.

use crate::common;

use common::spec::*;
use urlsift::percent::{
    self, C0_CONTROL, COMPONENT, EncodeSet, FORM_URLENCODED, FRAGMENT, PATH, QUERY, SPECIAL_QUERY,
    USERINFO, percent_decode, utf8_percent_encode,
};
use urlsift::{Host, HostKind, ParseError, Url, ValidationError as E};

// ---------------------------------------------------------------- hosts

#[test]
fn host_domain() {
    // Domain parser: Unicode ToASCII, non-transitional.
    let u = ok("https://EXAMPLE.COM/", N, "https://example.com/", &[]);
    assert_eq!(u.host_kind(), Some(HostKind::Domain));
    ok("https://fa\u{df}.de/", N, "https://xn--fa-hia.de/", &[]);
    // "For instance, ☕.example becomes xn--53h.example and not failure."
    ok(
        "https://\u{2615}.example/",
        N,
        "https://xn--53h.example/",
        &[],
    );
    assert_eq!(parsed("https://\u{ff25}\u{ff38}.com/").hostname(), "ex.com");
    // "If input contains a percent-encoded byte, domain-percent-encoded
    // validation error." then decode.
    let dpe = E::DomainPercentEncoded;
    ok("https://%41.com/", N, "https://a.com/", &[dpe]);
    ok(
        "https://%e2%98%95.example/",
        N,
        "https://xn--53h.example/",
        &[dpe],
    );
    // "If result contains a forbidden domain code point, then return failure."
    let errors = fails("https://a%25b/", N);
    assert!(errors.contains(&dpe), "{errors:?}");
    let errors = fails("https://a%zz/", N);
    assert!(
        !errors.contains(&dpe) && errors.contains(&E::DomainToAscii),
        "{errors:?}"
    );
    assert!(fails("https://a<b/", N).contains(&E::DomainToAscii));
    assert!(fails("https://\u{fffd}.com/", N).contains(&E::DomainToAscii));
    // Not special: no domain parsing at all.
    ok("sc://fa\u{df}.de/", N, "sc://fa%C3%9F.de/", &[]);
}

#[test]
fn host_domain_ascii_is_only_lowercased() {
    // "If domain is an ASCII string, then set result to domain, lowercased."
    // ... "regardless of Unicode ToASCII's outcome": "xn--8i7caa decodes to
    // ｗｗｗ, whose code points have status "mapped"". The strict run still
    // reports domain-to-ASCII.
    let d2a = E::DomainToAscii;
    let u = ok("https://xn--8i7caa/", N, "https://xn--8i7caa/", &[d2a]);
    assert_eq!(u.host_kind(), Some(HostKind::Domain));
    ok(
        "https://XN--8I7CAA.com/",
        N,
        "https://xn--8i7caa.com/",
        &[d2a],
    );
    ok("https://a..b/", N, "https://a..b/", &[d2a]);
    // A non-ASCII domain goes through ToASCII, where the same label fails.
    assert!(fails("https://xn--8i7caa.\u{e9}/", N).contains(&d2a));
}

#[test]
fn host_ipv4() {
    let (tfp, nd, oor) = (
        E::Ipv4TooFewParts,
        E::Ipv4NonDecimalPart,
        E::Ipv4OutOfRangePart,
    );
    let u = ok("https://192.168.0.1/", N, "https://192.168.0.1/", &[]);
    assert_eq!(u.host_kind(), Some(HostKind::Ipv4));
    // "If parts's size is less than 4, IPv4-too-few-parts validation error."
    // IPv4 number parser: "0x" → R = 16, leading "0" → R = 8, both flagged
    // "IPv4-non-decimal-part". (Order: see host_ipv4_part_count_first.)
    ok_unordered("https://0x7f.1/", "https://127.0.0.1/", &[tfp, nd]);
    ok("https://010.0.0.1/", N, "https://8.0.0.1/", &[nd]);
    ok("https://0/", N, "https://0.0.0.0/", &[tfp]);
    ok_unordered("https://0x/", "https://0.0.0.0/", &[tfp, nd]);
    ok(
        "https://4294967295/",
        N,
        "https://255.255.255.255/",
        &[tfp, oor],
    );
    ok(
        "https://\u{ff11}\u{ff12}\u{ff17}.0.0.1/",
        N,
        "https://127.0.0.1/",
        &[],
    );
    // "If any item in numbers is greater than 255, IPv4-out-of-range-part
    // validation error." Only the last may be, and below 256^(5 − size).
    ok("https://1.256/", N, "https://1.0.1.0/", &[tfp, oor]);
    assert_eq!(fails("https://256.1/", N), [tfp, oor]);
    assert_eq!(fails("https://4294967296/", N), [tfp, oor]);
    assert_eq!(fails("https://1.2.65536/", N), [tfp, oor]);
    // "If the last item in parts is the empty string, then: IPv4-empty-part
    // validation error." (Whether UTS 46's VerifyDnsLength also objects to
    // the root label is not this standard's call: only check ours.)
    let (u, errors) = run("https://1.2.3.4./", N);
    assert_eq!(u.unwrap().href(), "https://1.2.3.4/");
    assert!(errors.ends_with(&[E::Ipv4EmptyPart]), "{errors:?}");
    // "If parts's size is greater than 4, IPv4-too-many-parts validation
    // error, return failure."
    let tmp = E::Ipv4TooManyParts;
    fail("https://1.2.3.4.5/", N, tmp, &[tmp]);
    // "If result is failure, IPv4-non-numeric-part validation error, return
    // failure." ("09" is caught here, not by the ends-in-a-number checker)
    let nn = E::Ipv4NonNumericPart;
    fail("https://1.2.3.09/", N, nn, &[nn]);
    // Not special: opaque, never IPv4.
    let u = ok("sc://0x7f.1/", N, "sc://0x7f.1/", &[]);
    assert_eq!(u.host_kind(), Some(HostKind::Opaque));
}

#[test]

fn host_ipv4_part_count_first() {
    // Steps 3-4 ("If parts's size is less than 4, IPv4-too-few-parts" /
    // "greater than 4, IPv4-too-many-parts validation error, return
    // failure") come before step 6's loop over the parts.
    let (tfp, tmp) = (E::Ipv4TooFewParts, E::Ipv4TooManyParts);
    let (nd, nn) = (E::Ipv4NonDecimalPart, E::Ipv4NonNumericPart);
    ok("https://0x7f.1/", N, "https://127.0.0.1/", &[tfp, nd]);
    fail("https://foo.09/", N, nn, &[tfp, nn]);
    fail("https://a.1.2.3.4/", N, tmp, &[tmp]);
    fail("https://0x1.2.3.4.5/", N, tmp, &[tmp]);
}

#[test]
fn host_ipv4_ends_in_a_number() {
    let nn = E::Ipv4NonNumericPart;
    // "If last is not the empty string and contains only ASCII digits, then
    // return true." → IPv4 parser → failure on "foo".
    fail_last("https://foo.09/", nn);
    fail_last("https://foo.1/", nn);
    fail_last("https://foo.1./", nn);
    // "If parsing last as an IPv4 number does not return failure, then
    // return true." ("0x" followed by zero or more hex digits)
    fail_last("https://foo.0x/", nn);
    fail_last("https://foo.0xAb/", nn);
    // "Return false." → a domain.
    for (input, href) in [
        ("https://foo.0xg/", "https://foo.0xg/"),
        ("https://1.2.3.a/", "https://1.2.3.a/"),
        ("https://09a/", "https://09a/"),
        ("https://1.2.3.4../", "https://1.2.3.4../"),
    ] {
        let url = parsed(input);
        assert_eq!(
            (url.href(), url.host_kind()),
            (href, Some(HostKind::Domain))
        );
    }
}

#[test]
fn host_ipv6() {
    let cases = [
        // Compression: the first longest run of at least two 0 pieces.
        ("0:0:0:0:0:0:0:1", "::1"),
        ("0:0:0:0:0:0:0:0", "::"),
        ("1:0:0:0:0:0:0:0", "1::"),
        ("1:0:0:2:0:0:0:3", "1:0:0:2::3"),
        ("1:0:0:2:0:0:3:4", "1::2:0:0:3:4"),
        ("1:0:2:3:4:5:6:7", "1:0:2:3:4:5:6:7"),
        ("0:0:1:0:0:0:0:0", "0:0:1::"),
        // "In 0:f:0:0:f:f:0:0 it would point to the second 0."
        ("0:f:0:0:f:f:0:0", "0:f::f:f:0:0"),
        ("ABCD:EF01::", "abcd:ef01::"),
        ("1::", "1::"),
        // IPv4 in IPv6.
        ("::ffff:192.168.0.1", "::ffff:c0a8:1"),
        ("::1.2.3.4", "::102:304"),
        ("1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"),
    ];
    for (input, expected) in cases {
        let url = ok(
            &format!("http://[{input}]/"),
            N,
            &format!("http://[{expected}]/"),
            &[],
        );
        assert_eq!(url.host_kind(), Some(HostKind::Ipv6));
    }
    // "If length is greater than 1 and value is less than 0x10^(length − 1),
    // IPv6-piece-leading-zero validation error."
    let lz = E::Ipv6PieceLeadingZero;
    ok("https://[::01]/", N, "https://[::1]/", &[lz]);
    ok("https://[00::0001]/", N, "https://[::1]/", &[lz, lz]);
    ok("https://[0::1]/", N, "https://[::1]/", &[]);
    let u = ok("sc://[::1]/", N, "sc://[::1]/", &[]);
    assert_eq!(u.host_kind(), Some(HostKind::Ipv6));
    // Failures, each with the validation error of its step.
    for (input, error) in [
        ("[::1", E::Ipv6Unclosed),
        ("[::1]x", E::Ipv6Unclosed),
        ("[:1]", E::Ipv6InvalidCompression),
        ("[1:2:3:4:5:6:7:8:9]", E::Ipv6TooManyPieces),
        ("[1::2::3]", E::Ipv6MultipleCompression),
        ("[::g]", E::Ipv6InvalidCodePoint),
        ("[1:]", E::Ipv6InvalidCodePoint),
        ("[1:2]", E::Ipv6TooFewPieces),
        ("[::.1.2.3]", E::Ipv4InIpv6InvalidCodePoint),
        ("[::1.2.3.04]", E::Ipv4InIpv6InvalidCodePoint),
        ("[::1.2.3.4.5]", E::Ipv4InIpv6InvalidCodePoint),
        ("[1:1:1:1:1:1:1:127.0.0.1]", E::Ipv4InIpv6TooManyPieces),
        ("[::1.2.3.256]", E::Ipv4InIpv6OutOfRangePart),
        ("[::1.2.3]", E::Ipv4InIpv6TooFewParts),
    ] {
        fail(&format!("https://{input}/"), N, error, &[error]);
        assert_eq!(Host::parse(input, false), Err(ParseError::Invalid(error)));
    }
}

#[test]
fn host_opaque() {
    // "If input contains a forbidden host code point, host-invalid-code-point
    // validation error, return failure."
    let hic = E::HostInvalidCodePoint;
    for input in [
        "sc://a b/",
        "sc://a<b/",
        "sc://a^b/",
        "sc://a|b/",
        "sc://a@b@c[/",
    ] {
        fail_last(input, hic);
    }
    // "Return the result of running UTF-8 percent-encode on input using the
    // C0 control percent-encode set." (case kept, '%' not decoded)
    let u = ok("sc://HoSt%41\u{e9}/", N, "sc://HoSt%41%C3%A9/", &[]);
    assert_eq!(
        (u.hostname(), u.host_kind()),
        ("HoSt%41%C3%A9", Some(HostKind::Opaque))
    );
    // "If input contains a code point that is not a URL code point and not
    // U+0025 (%), invalid-URL-unit validation error."
    ok("sc://a{b/", N, "sc://a{b/", &[IUU]);
    // "If input contains a U+0025 (%) and the two code points following it
    // are not ASCII hex digits, invalid-URL-unit validation error."
    ok("sc://a%zz/", N, "sc://a%zz/", &[IUU]);
}

#[test]

fn host_opaque_reports_each_condition_once() {
    // Steps 2 and 3 of the opaque-host parser each say "If input contains
    // ..., invalid-URL-unit validation error": one error per step.
    ok(
        "sc://a\u{1}\u{2}%zz%y/",
        N,
        "sc://a%01%02%zz%y/",
        &[IUU, IUU],
    );
}

#[test]
fn host_parse_api() {
    assert_eq!(
        Host::parse("EXAMPLE.com", false),
        Ok(Host::Domain("example.com".into()))
    );
    assert_eq!(
        Host::parse("0x7f.1", false),
        Ok(Host::Ipv4([127, 0, 0, 1].into()))
    );
    let loopback = Ok(Host::Ipv6(std::net::Ipv6Addr::LOCALHOST));
    assert_eq!(Host::parse("[::1]", false), loopback);
    // "If input starts with U+005B ([)" comes before "If isOpaque is true".
    assert_eq!(Host::parse("[::1]", true), loopback);
    assert_eq!(
        Host::parse("0x7f.1", true),
        Ok(Host::Opaque("0x7f.1".into()))
    );
    assert_eq!(
        Host::parse("\u{ff}", true),
        Ok(Host::Opaque("%C3%BF".into()))
    );
    assert_eq!(Host::parse("", true), Ok(Host::Empty));
    let hic = Err(ParseError::Invalid(E::HostInvalidCodePoint));
    assert_eq!(Host::parse("a b", true), hic);
    assert_eq!(
        Host::parse("[", false),
        Err(ParseError::Invalid(E::Ipv6Unclosed))
    );
    // Host serializer.
    for (input, opaque, serialized) in [
        ("EXAMPLE.com", false, "example.com"),
        ("0x7f.1", false, "127.0.0.1"),
        ("[0:0:0:0:0:0:0:1]", false, "[::1]"),
        ("[::ffff:1.2.3.4]", true, "[::ffff:102:304]"),
        ("x y", false, ""),
    ] {
        let got = Host::parse(input, opaque).map(|h| h.to_string());
        if serialized.is_empty() {
            assert!(got.is_err(), "{input:?}");
        } else {
            assert_eq!(got.as_deref(), Ok(serialized), "{input:?}");
        }
    }
}

// ---------------------------------------------------------------- encode sets

/// The printable ASCII code points `set` percent-encodes, in order.
fn encoded_ascii(set: &EncodeSet) -> String {
    (0x20u8..0x7F)
        .map(char::from)
        .filter(|c| {
            let s = c.to_string();
            utf8_percent_encode(&s, set) != s
        })
        .collect()
}

/// What `set` encodes beyond `parent` (which it must include).
fn added(set: &EncodeSet, parent: &EncodeSet) -> String {
    let (set, parent) = (encoded_ascii(set), encoded_ascii(parent));
    assert!(
        parent.chars().all(|c| set.contains(c)),
        "{parent:?} ⊄ {set:?}"
    );
    set.chars().filter(|&c| !parent.contains(c)).collect()
}

#[test]
fn encode_sets() {
    // "C0 controls and all code points greater than U+007E (~)."
    assert_eq!(encoded_ascii(&C0_CONTROL), "");
    let all = [
        &C0_CONTROL,
        &FRAGMENT,
        &QUERY,
        &SPECIAL_QUERY,
        &PATH,
        &USERINFO,
        &COMPONENT,
    ];
    for set in all {
        assert_eq!(utf8_percent_encode("\u{0}\u{1f}\u{7f}", set), "%00%1F%7F");
        // "UTF-8 percent-encode U+2261 (≡) using the userinfo set → %E2%89%A1"
        assert_eq!(
            utf8_percent_encode("\u{2261}\u{e9}", set),
            "%E2%89%A1%C3%A9"
        );
        assert_eq!(utf8_percent_encode("aZ09-._~", set), "aZ09-._~");
    }
    // Each set is its parent and exactly these code points.
    assert_eq!(added(&FRAGMENT, &C0_CONTROL), " \"<>`");
    assert_eq!(added(&QUERY, &C0_CONTROL), " \"#<>");
    assert_eq!(added(&SPECIAL_QUERY, &QUERY), "'");
    assert_eq!(added(&PATH, &QUERY), "?^`{}");
    assert_eq!(added(&USERINFO, &PATH), "/:;=@[\\]|");
    assert_eq!(added(&COMPONENT, &USERINFO), "$%&+,");
    assert_eq!(added(&FORM_URLENCODED, &COMPONENT), "!'()~");
    // "The query percent-encode set cannot be defined in terms of the
    // fragment percent-encode set due to the omission of U+0060 (`)."
    assert!(!encoded_ascii(&QUERY).contains('`'));
    // "contains all code points, except the ASCII alphanumeric, U+002A (*),
    // U+002D (-), U+002E (.), and U+005F (_)."
    let kept: String = (0x20u8..0x7F)
        .map(char::from)
        .filter(|c| !encoded_ascii(&FORM_URLENCODED).contains(*c))
        .collect();
    assert_eq!(
        kept,
        "*-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"
    );
    // Table example: "Say what‽" with the userinfo set.
    assert_eq!(
        utf8_percent_encode("Say what\u{203d}", &USERINFO),
        "Say%20what%E2%80%BD"
    );
    assert_eq!(utf8_percent_encode("#", &QUERY), "%23");
}

#[test]

fn encode_set_form_urlencoded_space_as_plus() {
    // Percent-encode after encoding: "Let spaceAsPlus be true if
    // percentEncodeSet is application/x-www-form-urlencoded percent-encode
    // set" ... "If spaceAsPlus is true and byte is 0x20 (SP), then append
    // U+002B (+)". UTF-8 percent-encode runs exactly that algorithm.
    assert_eq!(
        utf8_percent_encode("1+1 \u{2261} 2%20\u{203d}", &FORM_URLENCODED),
        "1%2B1+%E2%89%A1+2%2520%E2%80%BD"
    );
}

#[test]
fn percent_decode_examples() {
    // The standard's table of examples.
    assert_eq!(&*percent_decode(b"%25%s%1G"), b"%%s%1G");
    assert_eq!(
        &*percent_decode("\u{203d}%25%2E".as_bytes()),
        [0xE2, 0x80, 0xBD, 0x25, 0x2E]
    );
    assert_eq!(&*percent_decode(b"%7e%7E%"), b"~~%");
    assert_eq!(percent::percent_decode_str("%C3%A9"), "\u{e9}");
}

// ---------------------------------------------------------------- serializer

#[test]
fn serializer_dot_slash_for_hostless_paths() {
    // "If url's host is null, url does not have an opaque path, url's path's
    // size is greater than 1, and url's path[0] is the empty string, then
    // append U+002F (/) followed by U+002E (.) to output."
    let u = ok(
        "web+demo:/.//not-a-host/",
        N,
        "web+demo:/.//not-a-host/",
        &[],
    );
    assert_eq!(
        (u.host_kind(), u.host(), u.pathname()),
        (None, "", "//not-a-host/")
    );
    let u = ok(
        "web+demo:/path/..//not-a-host/",
        N,
        "web+demo:/.//not-a-host/",
        &[],
    );
    assert_eq!(u.pathname(), "//not-a-host/");
    ok("sc:/a/..//b?q#f", N, "sc:/.//b?q#f", &[]);
    ok("sc:/.//", N, "sc:/.//", &[]);
    ok("sc:/..//", N, "sc:/.//", &[]);
    // Path size 1, or a non-null host: no "/.".
    ok("sc:/./", N, "sc:/", &[]);
    ok("sc://h//x", N, "sc://h//x", &[]);
    let u = ok("sc:////x", N, "sc:////x", &[]);
    assert_eq!(
        (u.host_kind(), u.pathname()),
        (Some(HostKind::Empty), "//x")
    );
    ok("sc://h/.//x", N, "sc://h//x", &[]);
}

// ---------------------------------------------------------------- origins

#[test]
fn origins() {
    let origin = |input: &str| parsed(input).origin().to_string();
    // "ftp", "http", "https", "ws", "wss": "Return the tuple origin (url's
    // scheme, url's host, url's port, null)." (port null when default)
    assert_eq!(origin("https://EXAMPLE.com:443/x"), "https://example.com");
    assert_eq!(origin("http://h:8080/"), "http://h:8080");
    assert_eq!(origin("ws://h:81/"), "ws://h:81");
    assert_eq!(origin("wss://h/"), "wss://h");
    assert_eq!(origin("ftp://u:p@h:21/"), "ftp://h");
    assert_eq!(origin("http://[::1]:8080/"), "http://[::1]:8080");
    assert_eq!(origin("http://0x7f.1/"), "http://127.0.0.1");
    // "file": "When in doubt, return a new opaque origin." Otherwise opaque.
    assert_eq!(origin("file:///x"), "null");
    assert_eq!(origin("sc://h/"), "null");
    assert!(parsed("data:,x").origin().is_opaque());
}

#[test]
fn blob_origins() {
    let origin = |input: &str| parsed(input).origin().to_string();
    // "The origin of blob:https://whatwg.org/d0360e2f-... is the tuple
    // origin ("https", "whatwg.org", null, null)."
    let blob = "blob:https://whatwg.org/d0360e2f-caee-469f-9a2f-87d5b0456f6f";
    assert_eq!(origin(blob), "https://whatwg.org");
    assert_eq!(origin("blob:http://a.com:8080/x"), "http://a.com:8080");
    assert_eq!(origin("blob:https://a.com:443/x?q#f"), "https://a.com");
    // "If pathURL's scheme is "http", "https", or "file", then return
    // pathURL's origin." (a file URL's origin is itself opaque here)
    assert_eq!(origin("blob:file:///x"), origin("file:///x"));
    // "Return a new opaque origin." (other schemes, or failure)
    for input in [
        "blob:ws://a/x",
        "blob:wss://a/x",
        "blob:ftp://a/x",
        "blob:sc://a/x",
        "blob:blob:https://a/x",
        "blob:not a url",
        "blob:",
    ] {
        assert_eq!(origin(input), "null", "{input:?}");
    }
}

// ---------------------------------------------------------------- API

#[test]
fn validation_error_names_follow_the_table() {
    // The "Validation errors" tables, in order.
    let names: Vec<&str> = E::ALL.iter().map(|e| e.name()).collect();
    let expected = "domain-to-ASCII domain-percent-encoded host-invalid-code-point \
        IPv4-empty-part IPv4-too-few-parts IPv4-too-many-parts IPv4-non-numeric-part \
        IPv4-non-decimal-part IPv4-out-of-range-part IPv6-unclosed IPv6-invalid-compression \
        IPv6-too-many-pieces IPv6-multiple-compression IPv6-invalid-code-point \
        IPv6-too-few-pieces IPv6-piece-leading-zero IPv4-in-IPv6-too-many-pieces \
        IPv4-in-IPv6-invalid-code-point IPv4-in-IPv6-out-of-range-part \
        IPv4-in-IPv6-too-few-parts invalid-URL-unit special-scheme-missing-following-solidus \
        missing-scheme-non-relative-URL invalid-reverse-solidus invalid-credentials \
        host-missing port-out-of-range port-invalid file-invalid-Windows-drive-letter \
        file-invalid-Windows-drive-letter-host";
    assert_eq!(names.join(" "), expected);
    assert_eq!(E::Ipv4NonDecimalPart.to_string(), "IPv4-non-decimal-part");
    let err = Url::parse("https://h:x/").unwrap_err();
    assert_eq!(err.validation_error(), Some(E::PortInvalid));
}

#[test]
fn can_parse() {
    assert!(Url::can_parse("x", Some("https://e/")));
    assert!(!Url::can_parse("x", N));
    assert!(!Url::can_parse("x", Some("not a base")));
    assert!(!Url::can_parse("https://e/", Some("not a base")));
    assert!(Url::can_parse("#f", Some("sc:opaque")));
}

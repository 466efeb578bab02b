//! Unit tests written from the text of the URL Standard (`url.bs`): one test
//! per state of the basic URL parser, each case exercising one branch of that
//! state's steps (quoted in a comment), plus hosts, percent-encode sets, the
//! serializer's "/." rule, opaque paths and origins.
//!
//! Every successful parse is checked by [`run`]: offsets consistent
//! (`check_invariants`), the result idempotent (`parse(href).href == href`),
//! and the same with and without a validation-error reporter.

use urlsift::percent::{
    self, C0_CONTROL, COMPONENT, EncodeSet, FORM_URLENCODED, FRAGMENT, PATH, QUERY, SPECIAL_QUERY,
    USERINFO, percent_decode, utf8_percent_encode,
};
use urlsift::{Host, HostKind, ParseError, Url, ValidationError as E};

// ---------------------------------------------------------------- helpers

/// Parses `input` against `base` (which must parse), reporting validation
/// errors; checks invariants, idempotence and reporter independence.
#[track_caller]
fn run(input: &str, base: Option<&str>) -> (Result<Url, ParseError>, Vec<E>) {
    let base = base.map(|b| match Url::parse(b) {
        Ok(url) => url,
        Err(e) => panic!("base {b:?} failed: {e}"),
    });
    let mut errors = Vec::new();
    let result = Url::parse_with_reporter(input, base.as_ref(), &mut errors);
    let quiet = Url::parse_with_base(input, base.as_ref());
    assert_eq!(
        result.as_ref().map(Url::href),
        quiet.as_ref().map(Url::href),
        "the reporter changes the result of {input:?}"
    );
    if let Ok(url) = &result {
        check(url);
    }
    (result, errors)
}

/// Offsets consistent and `parse(href).href == href`.
#[track_caller]
fn check(url: &Url) {
    if let Err(e) = url.check_invariants() {
        panic!("invariants of {:?}: {e}", url.href());
    }
    match Url::parse(url.href()) {
        Ok(again) => {
            assert_eq!(again.href(), url.href(), "not idempotent");
            if let Err(e) = again.check_invariants() {
                panic!("invariants of re-parsed {:?}: {e}", url.href());
            }
        }
        Err(e) => panic!("href {:?} does not re-parse: {e}", url.href()),
    }
}

/// Asserts success with `href` and exactly the validation errors `errors`.
#[track_caller]
fn ok(input: &str, base: Option<&str>, href: &str, errors: &[E]) -> Url {
    let (result, reported) = run(input, base);
    let url = match result {
        Ok(url) => url,
        Err(e) => panic!("{input:?} (base {base:?}) failed: {e}; reported {reported:?}"),
    };
    assert_eq!(url.href(), href, "href of {input:?} (base {base:?})");
    assert_eq!(reported, errors, "errors of {input:?} (base {base:?})");
    url
}

/// Asserts failure on validation error `error`, after exactly `errors`.
#[track_caller]
fn fail(input: &str, base: Option<&str>, error: E, errors: &[E]) {
    let (result, reported) = run(input, base);
    assert_eq!(
        result.as_ref().map(Url::href),
        Err(&ParseError::Invalid(error)),
        "{input:?} (base {base:?})"
    );
    assert_eq!(reported, errors, "errors of {input:?} (base {base:?})");
    assert!(!Url::can_parse(input, base));
}

/// Like [`ok`], for cases whose errors are checked as a multiset only.
#[track_caller]
fn ok_unordered(input: &str, href: &str, errors: &[E]) -> Url {
    let (result, mut reported) = run(input, None);
    let url = result.unwrap_or_else(|e| panic!("{input:?} failed: {e}"));
    assert_eq!(url.href(), href, "href of {input:?}");
    let mut expected = errors.to_vec();
    reported.sort();
    expected.sort();
    assert_eq!(reported, expected, "errors of {input:?} (any order)");
    url
}

/// Asserts failure on validation error `error`, reported last.
#[track_caller]
fn fail_last(input: &str, error: E) {
    let (result, reported) = run(input, None);
    let result = result.map(|u| u.href().to_string());
    assert_eq!(result, Err(ParseError::Invalid(error)), "{input:?}");
    assert_eq!(reported.last(), Some(&error), "errors of {input:?}");
}

/// Asserts failure at a step that names no validation error (the domain
/// parser's final checks); returns the errors reported on the way.
#[track_caller]
fn fails(input: &str, base: Option<&str>) -> Vec<E> {
    let (result, reported) = run(input, base);
    assert!(result.is_err(), "{input:?} parsed as {result:?}");
    reported
}

/// A checked parse (see [`run`]) that must succeed.
#[track_caller]
fn parsed(input: &str) -> Url {
    match run(input, N).0 {
        Ok(url) => url,
        Err(e) => panic!("{input:?} failed: {e}"),
    }
}

/// protocol, username, password, host, hostname, port, pathname, search, hash.
fn getters(u: &Url) -> [&str; 9] {
    [
        u.protocol(),
        u.username(),
        u.password(),
        u.host(),
        u.hostname(),
        u.port(),
        u.pathname(),
        u.search(),
        u.hash(),
    ]
}

/// No base URL.
const N: Option<&str> = None;
const IUU: E = E::InvalidUrlUnit;
const SMFS: E = E::SpecialSchemeMissingFollowingSolidus;
const IRS: E = E::InvalidReverseSolidus;

// ---------------------------------------------------------------- input

#[test]
fn input_preprocessing() {
    // "If input contains any leading or trailing C0 control or space,
    // invalid-URL-unit validation error." (one error, however many)
    ok(" \u{1}https://h/\u{0} ", N, "https://h/", &[IUU]);
    // "If input contains any ASCII tab or newline, invalid-URL-unit
    // validation error. Remove all ASCII tab or newline from input."
    ok("ht\ttps://h/a\nb\rc", N, "https://h/abc", &[IUU]);
    ok(" ht\ttps://h/a\nb ", N, "https://h/ab", &[IUU, IUU]);
}

// ---------------------------------------------------------------- states

#[test]
fn scheme_start_state() {
    // "If c is an ASCII alpha, append c, lowercased, to buffer, and set
    // state to scheme state."
    let u = ok("HTTP://EXAMPLE.COM/", N, "http://example.com/", &[]);
    assert_eq!(u.protocol(), "http:");
    // "Otherwise, if state override is not given, set state to no scheme
    // state and decrease pointer by 1." (no base: failure there)
    let m = E::MissingSchemeNonRelativeUrl;
    fail("1http://a/", N, m, &[m]);
    fail("", N, m, &[m]);
    let base = Some("https://example.com/dir/x?q#f");
    ok(
        "1http://a/",
        base,
        "https://example.com/dir/1http://a/",
        &[],
    );
    ok("", base, "https://example.com/dir/x?q", &[]);
}

#[test]
fn scheme_state() {
    // "If c is an ASCII alphanumeric, U+002B (+), U+002D (-), or U+002E (.),
    // append c, lowercased, to buffer."
    let u = ok("A+b-C.9:x", N, "a+b-c.9:x", &[]);
    assert_eq!(u.protocol(), "a+b-c.9:");
    assert!(u.has_opaque_path());
    // "If url's scheme is "file": If remaining does not start with "//",
    // special-scheme-missing-following-solidus validation error. Set state
    // to file state."
    ok("FILE:x", N, "file:///x", &[SMFS]);
    ok("file://h/x", N, "file://h/x", &[]);
    // "Otherwise, if url is special, base is non-null, and base's scheme is
    // url's scheme": special relative or authority state.
    let base = Some("https://base.org/dir/x");
    ok("https:e.com", base, "https://base.org/dir/e.com", &[SMFS]);
    // "Otherwise, if url is special, set state to special authority slashes
    // state." (no base, or a base with another scheme)
    ok("https:e.com", N, "https://e.com/", &[SMFS]);
    ok(
        "https:e.com",
        Some("http://base.org/"),
        "https://e.com/",
        &[SMFS],
    );
    // "Otherwise, if remaining starts with an U+002F (/), set state to path
    // or authority state and increase pointer by 1."
    let u = ok("Web+Demo:/x", N, "web+demo:/x", &[]);
    assert!(!u.has_opaque_path());
    assert_eq!(u.host_kind(), None);
    // "Otherwise, set url's path to the empty string and set state to opaque
    // path state."
    let u = ok("sc:", N, "sc:", &[]);
    assert!(u.has_opaque_path());
    assert_eq!(u.pathname(), "");
    // "Otherwise, if state override is not given, set buffer to the empty
    // string, state to no scheme state, and start over"
    let base = Some("https://ex.com/d/e");
    ok("a_b:c", base, "https://ex.com/d/a_b:c", &[]);
    ok("abc", base, "https://ex.com/d/abc", &[]);
    let m = E::MissingSchemeNonRelativeUrl;
    fail("a_b:c", N, m, &[m]);
}

#[test]
fn no_scheme_state() {
    let m = E::MissingSchemeNonRelativeUrl;
    // "If base is null, or base has an opaque path and c is not U+0023 (#),
    // missing-scheme-non-relative-URL validation error, return failure."
    fail("//x", N, m, &[m]);
    fail("x", Some("mailto:a@b"), m, &[m]);
    fail("?x", Some("sc:opaque"), m, &[m]);
    fail("", Some("sc:opaque"), m, &[m]);
    // "Otherwise, if base has an opaque path and c is U+0023 (#), set url's
    // scheme to base's scheme, url's path to base's path, url's query to
    // base's query, url's fragment to the empty string"
    let u = ok("#frag", Some("sc:opaque?q#old"), "sc:opaque?q#frag", &[]);
    assert!(u.has_opaque_path());
    ok("#", Some("sc:opaque"), "sc:opaque#", &[]);
    // "Otherwise, if base's scheme is not "file", set state to relative state"
    ok("d", Some("https://a/b/c"), "https://a/b/d", &[]);
    // "Otherwise, set state to file state"
    ok("x", Some("file:///C:/dir/f"), "file:///C:/dir/x", &[]);
}

#[test]
fn special_relative_or_authority_state() {
    let base = Some("http://base/a/b?old");
    // "If c is U+002F (/) and remaining starts with U+002F (/), then set
    // state to special authority ignore slashes state"
    ok("http://x/y", base, "http://x/y", &[]);
    // "Otherwise, special-scheme-missing-following-solidus validation error,
    // set state to relative state and decrease pointer by 1."
    ok("http:/x/y", base, "http://base/x/y", &[SMFS]);
    ok("http:?q", base, "http://base/a/b?q", &[SMFS]);
    ok("http:c", base, "http://base/a/c", &[SMFS]);
    ok("http:\\\\x/y", base, "http://x/y", &[SMFS, IRS, IRS]);
}

#[test]
fn path_or_authority_state() {
    // "If c is U+002F (/), then set state to authority state."
    let u = ok("sc://Host/p", N, "sc://Host/p", &[]);
    assert_eq!(u.host_kind(), Some(HostKind::Opaque));
    let u = ok("sc://", N, "sc://", &[]);
    assert_eq!(u.host_kind(), Some(HostKind::Empty));
    assert_eq!(u.pathname(), "");
    // "Otherwise, set state to path state, and decrease pointer by 1."
    let u = ok("sc:/p/q", N, "sc:/p/q", &[]);
    assert_eq!((u.host_kind(), u.pathname()), (None, "/p/q"));
    ok("sc:/", N, "sc:/", &[]);
}

#[test]
fn relative_state() {
    let base = Some("https://u:p@h:8080/a/b?q#f");
    // "If c is U+002F (/), then set state to relative slash state."
    ok("/x", base, "https://u:p@h:8080/x", &[]);
    // "Otherwise, if url is special and c is U+005C (\),
    // invalid-reverse-solidus validation error, set state to relative slash
    // state."
    ok("\\x", base, "https://u:p@h:8080/x", &[IRS]);
    // "Otherwise: Set url's username to base's username, ... url's path to
    // a clone of base's path, and url's query to base's query."
    // "If c is U+003F (?), then set url's query to the empty string"
    ok("?y", base, "https://u:p@h:8080/a/b?y", &[]);
    // "Otherwise, if c is U+0023 (#), set url's fragment to the empty string"
    ok("#g", base, "https://u:p@h:8080/a/b?q#g", &[]);
    // (EOF: everything but the fragment is the base's)
    let u = ok("", base, "https://u:p@h:8080/a/b?q", &[]);
    assert_eq!(getters(&u)[1..6], ["u", "p", "h:8080", "h", "8080"]);
    // "Otherwise, if c is not the EOF code point: Set url's query to null.
    // Shorten url's path. Set state to path state and decrease pointer by 1."
    ok("c", base, "https://u:p@h:8080/a/c", &[]);
    // Not special: a backslash is a path code point (and not a URL unit).
    ok("\\x", Some("sc://h/a/b"), "sc://h/a/\\x", &[IUU]);
}

#[test]
fn relative_slash_state() {
    let base = Some("https://h/a/b");
    // "If url is special and c is U+002F (/) or U+005C (\), then: If c is
    // U+005C (\), invalid-reverse-solidus validation error. Set state to
    // special authority ignore slashes state."
    ok("//x/y", base, "https://x/y", &[]);
    ok("/\\x/y", base, "https://x/y", &[IRS]);
    // "Otherwise, if c is U+002F (/), then set state to authority state."
    ok("//x/y", Some("sc://h/a"), "sc://x/y", &[]);
    // "Otherwise, set url's username to base's username, ... host ... port
    // ..., state to path state" (the path is not copied)
    ok("/x", Some("sc://u@h:1/a/b?q"), "sc://u@h:1/x", &[]);
    ok("/\\x", Some("sc://h/a"), "sc://h/\\x", &[IUU]);
}

#[test]
fn special_authority_slashes_state() {
    // "If c is U+002F (/) and remaining starts with U+002F (/), then set
    // state to special authority ignore slashes state and increase pointer"
    ok("https://x", N, "https://x/", &[]);
    ok("ws://x", Some("http://b/"), "ws://x/", &[]);
    // "Otherwise, special-scheme-missing-following-solidus validation error,
    // set state to special authority ignore slashes state and decrease
    // pointer by 1." (then that state reports the lone '/' again)
    ok("https:/x", N, "https://x/", &[SMFS, SMFS]);
    ok("https:x", N, "https://x/", &[SMFS]);
}

#[test]
fn special_authority_ignore_slashes_state() {
    // "If c is neither U+002F (/) nor U+005C (\), then set state to
    // authority state and decrease pointer by 1."
    // "Otherwise, special-scheme-missing-following-solidus validation error."
    ok("https:///x", N, "https://x/", &[SMFS]);
    ok("https:////x", N, "https://x/", &[SMFS, SMFS]);
    ok("https:\\\\x", N, "https://x/", &[SMFS, SMFS, SMFS]);
    ok("https://\\/x/y", N, "https://x/y", &[SMFS, SMFS]);
}

#[test]
fn authority_state() {
    let ic = E::InvalidCredentials;
    // "If c is U+0040 (@), then: Invalid-credentials validation error."
    // "If codePoint is U+003A (:) and passwordTokenSeen is false, then set
    // passwordTokenSeen to true and continue." (later ':' are encoded)
    let u = ok("https://user:pa:ss@h/", N, "https://user:pa%3Ass@h/", &[ic]);
    assert_eq!(getters(&u)[1..3], ["user", "pa%3Ass"]);
    // "If atSignSeen is true, then prepend "%40" to buffer."
    let u = ok("https://a@b@h/", N, "https://a%40b@h/", &[ic, ic]);
    assert_eq!(u.username(), "a%40b");
    let u = ok("https://u@h:80@x/", N, "https://u%40h:80@x/", &[ic, ic]);
    assert_eq!(getters(&u)[1..4], ["u%40h", "80", "x"]);
    // "UTF-8 percent-encode codePoint using the userinfo percent-encode set"
    // (no invalid-URL-unit here: the authority state names none)
    let u = ok("https://a b:c\"d@h/", N, "https://a%20b:c%22d@h/", &[ic]);
    assert_eq!(getters(&u)[1..3], ["a%20b", "c%22d"]);
    ok(
        "https://a;b=c[d]e|f^g\u{e9}@h/",
        N,
        "https://a%3Bb%3Dc%5Bd%5De%7Cf%5Eg%C3%A9@h/",
        &[ic],
    );
    // Serializer: credentials only if username or password is non-empty.
    ok("https://@h/", N, "https://h/", &[ic]);
    ok("https://:@h/", N, "https://h/", &[ic]);
    ok("https://user:@h/", N, "https://user@h/", &[ic]);
    ok("https://:pw@h/", N, "https://:pw@h/", &[ic]);
    // "If atSignSeen is true and buffer is the empty string, host-missing
    // validation error, return failure."
    let hm = E::HostMissing;
    fail("https://u@/", N, hm, &[ic, hm]);
    fail("sc://u@/", N, hm, &[ic, hm]);
    fail("sc://u@", N, hm, &[ic, hm]);
    // "c is the EOF code point, U+002F (/), U+003F (?), or U+0023 (#); url is
    // special and c is U+005C (\)" end the authority.
    ok("https://h?q", N, "https://h/?q", &[]);
    ok("https://h#f", N, "https://h/#f", &[]);
    ok("https://h\\x", N, "https://h/x", &[IRS]);
    let hic = E::HostInvalidCodePoint;
    fail("sc://h\\x", N, hic, &[hic]);
}

#[test]
fn host_state() {
    // "Otherwise, if c is U+003A (:) and insideBrackets is false: If buffer
    // is the empty string, host-missing validation error, return failure."
    let hm = E::HostMissing;
    fail("https://:80/", N, hm, &[hm]);
    fail("sc://:1/", N, hm, &[hm]);
    // "Let host be the result of host parsing buffer ... Set url's host to
    // host, buffer to the empty string, and state to port state."
    let u = ok("https://[::1]:8080/", N, "https://[::1]:8080/", &[]);
    assert_eq!(getters(&u)[3..6], ["[::1]:8080", "[::1]", "8080"]);
    let u = ok("https://EXAMPLE.com:443/x", N, "https://example.com/x", &[]);
    assert_eq!(getters(&u)[3..6], ["example.com", "example.com", ""]);
    // "If url is special and buffer is the empty string, host-missing
    // validation error, return failure."
    fail("https://?x", N, hm, &[hm]);
    fail("https:///", N, hm, &[SMFS, hm]);
    // Not special: the empty host.
    let u = ok("sc://?x", N, "sc://?x", &[]);
    assert_eq!(
        (u.host_kind(), u.host(), u.search()),
        (Some(HostKind::Empty), "", "?x")
    );
    // Host parsing "with url is not special": opaque hosts keep their case.
    ok("sc://H%41st/", N, "sc://H%41st/", &[]);
    // Host failure is URL failure.
    assert!(fails("https://ex ample/", N).contains(&E::DomainToAscii));
}

#[test]
fn port_state() {
    // "If c is an ASCII digit, append c to buffer."
    let u = ok("https://h:08080/", N, "https://h:8080/", &[]);
    assert_eq!((u.port(), u.host()), ("8080", "h:8080"));
    ok("https://h:0/", N, "https://h:0/", &[]);
    ok("https://h:65535/", N, "https://h:65535/", &[]);
    // "Set url's port to null, if port is url's scheme's default port;
    // otherwise to port."
    let u = ok("https://h:443/", N, "https://h/", &[]);
    assert_eq!((u.port(), u.host()), ("", "h"));
    ok("https://h:00443/", N, "https://h/", &[]);
    ok("http://h:443/", N, "http://h:443/", &[]);
    ok("wss://h:443/", N, "wss://h/", &[]);
    ok("ftp://h:21/", N, "ftp://h/", &[]);
    ok("sc://h:80/", N, "sc://h:80/", &[]);
    // "If buffer is not the empty string" (an empty port is no port)
    ok("https://h:/", N, "https://h/", &[]);
    ok("sc://h:", N, "sc://h", &[]);
    // Ends at EOF, '/', '?', '#', or (special) '\'.
    ok("https://h:8080?q", N, "https://h:8080/?q", &[]);
    ok("https://h:8080#f", N, "https://h:8080/#f", &[]);
    ok("https://h:8080\\p", N, "https://h:8080/p", &[IRS]);
    // "If port is not a 16-bit unsigned integer, port-out-of-range
    // validation error, return failure."
    let oor = E::PortOutOfRange;
    fail("https://h:65536/", N, oor, &[oor]);
    fail("https://h:99999999999999999999/", N, oor, &[oor]);
    // "Otherwise, port-invalid validation error, return failure."
    let pi = E::PortInvalid;
    fail("https://h:1a/", N, pi, &[pi]);
    fail("sc://h:8080\\p", N, pi, &[pi]);
}

#[test]
fn file_state() {
    // "If c is U+002F (/) or U+005C (\), then: If c is U+005C (\),
    // invalid-reverse-solidus validation error. Set state to file slash state."
    ok("file:/x", N, "file:///x", &[SMFS]);
    ok("file:\\x", N, "file:///x", &[SMFS, IRS]);
    // "Otherwise, if base is non-null and base's scheme is "file": Set url's
    // host to base's host, url's path to a clone of base's path, and url's
    // query to base's query."
    let base = Some("file:///C:/a/b?q#f");
    ok("?z", base, "file:///C:/a/b?z", &[]);
    ok("#z", base, "file:///C:/a/b?q#z", &[]);
    ok("", base, "file:///C:/a/b?q", &[]);
    // "If the code point substring from pointer to the end of input does not
    // start with a Windows drive letter, then shorten url's path."
    ok("d", base, "file:///C:/a/d", &[]);
    ok("d", Some("file://host/a/b"), "file://host/a/d", &[]);
    // "Otherwise: File-invalid-Windows-drive-letter validation error. Set
    // url's path to « »." ('|' is then not a URL code point in the path)
    let fiw = E::FileInvalidWindowsDriveLetter;
    ok("D|/e", base, "file:///D:/e", &[fiw, IUU]);
    ok("D|", base, "file:///D:", &[fiw, IUU]);
    // "Otherwise, set state to path state" (no file base)
    ok("file:x", Some("https://a/b"), "file:///x", &[SMFS]);
    ok("file:?q", N, "file:///?q", &[SMFS]);
    // (the scheme state's check is on the input, even with a file base)
    ok("file:", Some("file:///C:/a?q"), "file:///C:/a?q", &[SMFS]);
    let b = Some("file://host/D:/x");
    ok("file:C|", b, "file://host/C:", &[SMFS, fiw, IUU]);
    ok(
        "\\\\s\\f",
        Some("file:///tmp/x"),
        "file://s/f",
        &[IRS, IRS, IRS],
    );
}

#[test]
fn file_slash_state() {
    // "If c is U+002F (/) or U+005C (\), then: If c is U+005C (\),
    // invalid-reverse-solidus validation error. Set state to file host state."
    ok("file:/\\h/x", N, "file://h/x", &[SMFS, IRS]);
    // "If base is non-null and base's scheme is "file", then: Set url's host
    // to base's host. If the code point substring ... does not start with a
    // Windows drive letter and base's path[0] is a normalized Windows drive
    // letter, then append base's path[0] to url's path."
    ok("/x", Some("file://host/C:/a"), "file://host/C:/x", &[]);
    ok("/D|/x", Some("file:///C:/a"), "file:///D:/x", &[IUU]);
    ok("/x", Some("file:///dir/a"), "file:///x", &[]);
    ok("/x", Some("file://host/dir/a"), "file://host/x", &[]);
    ok("/", Some("file:///C:/a"), "file:///C:/", &[]);
    // "Set state to path state, and decrease pointer by 1."
    ok("file:/x/y", N, "file:///x/y", &[SMFS]);
}

#[test]
fn file_host_state() {
    // "If state override is not given and buffer is a Windows drive letter,
    // file-invalid-Windows-drive-letter-host validation error, set state to
    // path state." (buffer is kept for the path state, '|' unreported)
    let fwh = E::FileInvalidWindowsDriveLetterHost;
    let u = ok("file://C:/x", N, "file:///C:/x", &[fwh]);
    assert_eq!((u.host(), u.pathname()), ("", "/C:/x"));
    ok("file://c:", N, "file:///c:", &[fwh]);
    // "Otherwise, if buffer is the empty string, then: Set url's host to the
    // empty string."
    let u = ok("file:///x", N, "file:///x", &[]);
    assert_eq!(u.host_kind(), Some(HostKind::Empty));
    // "If host is "localhost", then set host to the empty string."
    let u = ok("file://localhost/x", N, "file:///x", &[]);
    assert_eq!(u.host_kind(), Some(HostKind::Empty));
    ok("file://LocalHost/x", N, "file:///x", &[]);
    // Otherwise the host parser's result (a special, i.e. non-opaque, host).
    let u = ok("file://H/x", N, "file://h/x", &[]);
    assert_eq!(u.host_kind(), Some(HostKind::Domain));
    ok("file://1.2.3.4/x", N, "file://1.2.3.4/x", &[]);
    ok("file://[1:0::]/x", N, "file://[1::]/x", &[]);
    ok("file://h?q", N, "file://h/?q", &[]);
    ok("file://h\\x", N, "file://h/x", &[IRS]);
    let dpe = E::DomainPercentEncoded;
    ok("file://%41/x", N, "file://a/x", &[dpe]);
}

#[test]

fn file_host_state_drive_letter_buffer_unreported() {
    // "set state to path state" with pointer on the buffer's last code point:
    // the path state sees only the '/', so '|' gets no invalid-URL-unit.
    let fwh = E::FileInvalidWindowsDriveLetterHost;
    ok("file://C|/x", N, "file:///C:/x", &[fwh]);
}

#[test]
fn path_start_state() {
    // "If url is special, then: If c is U+005C (\), invalid-reverse-solidus
    // validation error. Set state to path state." (EOF gives path « "" »)
    let u = ok("https://h", N, "https://h/", &[]);
    assert_eq!(u.pathname(), "/");
    ok("https://h\\", N, "https://h/", &[IRS]);
    // "Otherwise, if state override is not given and c is U+003F (?)"
    let u = ok("sc://h?q", N, "sc://h?q", &[]);
    assert_eq!((u.pathname(), u.query()), ("", Some("q")));
    // "Otherwise, if state override is not given and c is U+0023 (#)"
    let u = ok("sc://h#f", N, "sc://h#f", &[]);
    assert_eq!((u.pathname(), u.fragment()), ("", Some("f")));
    // "Otherwise, if c is not the EOF code point: Set state to path state."
    ok("sc://h/x", N, "sc://h/x", &[]);
    // (EOF, not special: the path stays empty)
    let u = ok("sc://h", N, "sc://h", &[]);
    assert_eq!(u.pathname(), "");
}

#[test]
fn path_state() {
    // "If buffer is a double-dot URL path segment, then: Shorten url's path.
    // If neither c is U+002F (/), nor url is special and c is U+005C (\),
    // append the empty string to url's path."
    ok("https://h/a/./b/../c", N, "https://h/a/c", &[]);
    ok("https://h/a/%2e/b/%2E%2e/c", N, "https://h/a/c", &[]);
    ok("https://h/a/.%2E/c", N, "https://h/c", &[]);
    ok("https://h/a/%2e./c", N, "https://h/c", &[]);
    ok("https://h/a/b/..", N, "https://h/a/", &[]);
    ok("https://h/..", N, "https://h/", &[]);
    ok("https://h/a/..\\b", N, "https://h/b", &[IRS]);
    ok("sc://h/a/..?q", N, "sc://h/?q", &[]);
    // "Otherwise, if buffer is a single-dot URL path segment and if neither
    // c is U+002F (/) ... append the empty string to url's path."
    ok("https://h/a/.", N, "https://h/a/", &[]);
    ok("https://h/a/%2E#f", N, "https://h/a/#f", &[]);
    // "If url's scheme is "file", url's path is empty, and buffer is a
    // Windows drive letter, then replace the second code point in buffer
    // with U+003A (:)."
    ok("file:///C|/x", N, "file:///C:/x", &[IUU]);
    ok("file:///a/C|/x", N, "file:///a/C|/x", &[IUU]);
    ok("https://h/C|/x", N, "https://h/C|/x", &[IUU]);
    // Shorten: "If url's scheme is "file", path's size is 1, and path[0] is
    // a normalized Windows drive letter, then return."
    ok("file:///C:/..", N, "file:///C:/", &[]);
    ok("file:///C:/../..", N, "file:///C:/", &[]);
    ok("file:///C:/../../D:", N, "file:///C:/D:", &[]);
    ok("file://host/C|", N, "file://host/C:", &[IUU]);
    ok("https://h/C:/..", N, "https://h/", &[]);
    // "If url is special and c is U+005C (\), invalid-reverse-solidus"
    ok("https://h/a\\b", N, "https://h/a/b", &[IRS]);
    ok("sc://h/a\\b", N, "sc://h/a\\b", &[IUU]);
    // "If c is not a URL code point and not U+0025 (%), invalid-URL-unit
    // validation error." "UTF-8 percent-encode c using the path
    // percent-encode set"
    let u = ok(
        "https://h/a b\"<>`{}^|",
        N,
        "https://h/a%20b%22%3C%3E%60%7B%7D%5E|",
        &[IUU; 9],
    );
    assert_eq!(u.pathname(), "/a%20b%22%3C%3E%60%7B%7D%5E|");
    ok(
        "https://h/\u{e9}!$&'()*+,;=:@~",
        N,
        "https://h/%C3%A9!$&'()*+,;=:@~",
        &[],
    );
    // "If c is U+0025 (%) and remaining does not start with two ASCII hex
    // digits, invalid-URL-unit validation error."
    ok("https://h/%zz%41%4", N, "https://h/%zz%41%4", &[IUU, IUU]);
}

#[test]
fn opaque_path_state() {
    // "If c is U+003F (?), then set url's query to the empty string"
    // "Otherwise, if c is U+0023 (#), then set url's fragment to the empty
    // string"
    let u = ok("sc:a?b c#d e", N, "sc:a?b%20c#d%20e", &[IUU, IUU]);
    assert_eq!(
        (u.pathname(), u.search(), u.hash()),
        ("a", "?b%20c", "#d%20e")
    );
    // "If c is not a URL code point and not U+0025 (%), invalid-URL-unit"
    // "UTF-8 percent-encode c using the C0 control percent-encode set"
    ok("sc:<\">{}", N, "sc:<\">{}", &[IUU; 5]);
    ok("sc:a\u{1}b\u{e9}", N, "sc:a%01b%C3%A9", &[IUU]);
    ok("sc:\u{7f}", N, "sc:%7F", &[IUU]);
    ok("sc:%zz%20", N, "sc:%zz%20", &[IUU]);
    ok("mailto:A@B.com", N, "mailto:A@B.com", &[]);
}

#[test]
fn opaque_path_trailing_space() {
    // "Otherwise, if c is U+0020 SPACE: Invalid-URL-unit validation error.
    // If remaining starts with U+003F (?) or U+0023 (#), then append "%20"
    // to url's path. Otherwise, append U+0020 SPACE to url's path."
    let u = ok("sc:a b", N, "sc:a b", &[IUU]);
    assert_eq!(u.pathname(), "a b");
    let u = ok("sc:a ?q", N, "sc:a%20?q", &[IUU]);
    assert_eq!((u.pathname(), u.query()), ("a%20", Some("q")));
    ok("sc:a #f", N, "sc:a%20#f", &[IUU]);
    ok("sc:a  ?q", N, "sc:a %20?q", &[IUU, IUU]);
    ok("sc: a ?", N, "sc: a%20?", &[IUU, IUU]);
    // Trailing spaces at the end of input are trimmed before parsing.
    ok("sc:a b ", N, "sc:a b", &[IUU, IUU]);
    ok("sc:a%20?q", N, "sc:a%20?q", &[]);
}

#[test]
fn query_state() {
    // "Let queryPercentEncodeSet be the special-query percent-encode set if
    // url is special; otherwise the query percent-encode set."
    let u = ok(
        "https://h/?a b'\"<>`{}",
        N,
        "https://h/?a%20b%27%22%3C%3E`{}",
        &[IUU; 7],
    );
    assert_eq!(u.query(), Some("a%20b%27%22%3C%3E`{}"));
    ok("sc://h/?a b'\"<>", N, "sc://h/?a%20b'%22%3C%3E", &[IUU; 4]);
    ok("https://h/?\u{e9}??/:@", N, "https://h/?%C3%A9??/:@", &[]);
    // "If c is U+0023 (#), then set url's fragment to the empty string"
    let u = ok("https://h/?#", N, "https://h/?#", &[]);
    assert_eq!(
        (u.query(), u.search(), u.fragment(), u.hash()),
        (Some(""), "", Some(""), "")
    );
    // "If c is U+0025 (%) and remaining does not start with two ASCII hex
    // digits, invalid-URL-unit validation error."
    ok("https://h/?%zz%2", N, "https://h/?%zz%2", &[IUU, IUU]);
    let u = ok("https://h/", N, "https://h/", &[]);
    assert_eq!(u.query(), None);
}

#[test]
fn fragment_state() {
    // "If c is not a URL code point and not U+0025 (%), invalid-URL-unit"
    // "UTF-8 percent-encode c using the fragment percent-encode set"
    let u = ok(
        "https://h/#a b\"<>`{}#",
        N,
        "https://h/#a%20b%22%3C%3E%60{}#",
        &[IUU; 8],
    );
    assert_eq!(u.fragment(), Some("a%20b%22%3C%3E%60{}#"));
    ok("sc:x#\u{e9}?'", N, "sc:x#%C3%A9?'", &[]);
    ok("sc:x#a\u{0}b", N, "sc:x#a%00b", &[IUU]);
    ok("https://h/#%zz", N, "https://h/#%zz", &[IUU]);
    ok("https://h/?a#b#c", N, "https://h/?a#b#c", &[IUU]);
    let u = ok("https://h/#", N, "https://h/#", &[]);
    assert_eq!((u.fragment(), u.hash()), (Some(""), ""));
}

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

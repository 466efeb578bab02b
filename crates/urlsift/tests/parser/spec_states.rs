//! Unit tests written from the text of the URL Standard (`url.bs`): one test
//! per state of the basic URL parser, each case exercising one branch of that
//! state's steps (quoted in a comment). Hosts, encode sets, the serializer
//! and origins are in `tests/spec_hosts.rs`.
//!
//! Every successful parse is checked by [`run`]: offsets consistent
//! (`check_invariants`), the result idempotent (`parse(href).href == href`),
//! and the same with and without a validation-error reporter.

use crate::common;

use common::spec::*;
use urlsift::{HostKind, ValidationError as E};

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

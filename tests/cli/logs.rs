//! Access logs: a `.log` file read by its first lines, CONNECT and
//! asterisk-form targets.

use crate::workdir::*;

/// `auto` reads a `.log` file (also `.log.gz`) as an access log when one
/// of its first non-empty lines is one (a damaged first line does not
/// make it URL lines), and as URL lines otherwise; a named
/// `--input-format` is not second-guessed.
#[test]
fn a_log_file_is_read_by_its_first_lines() {
    let wd = Workdir::new();
    let log = "\n1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET /a?b HTTP/1.1\" 200 1 \"https://r.example/\" \"x\"\r\n\
               1.2.3.4 - - [10/Oct/2000:13:55:37 -0700] \"-\" 408 0\n\
               1.2.3.4 - - [10/Oct/2000:13:55:38 -0700] \"GET /c HTTP/1.1\" 200 1\n";
    wd.create("access.log", log);
    wd.create("access.LOG.gz", gzip(log.as_bytes()));
    wd.create("urls.log", "HTTP://U.example/x\nnot a url\n");
    let base = ["--base", "http://s.example/"];
    let expected = "http://s.example/a?b\nhttp://s.example/c\n";
    for file in ["access.log", "access.LOG.gz"] {
        for format in [&[][..], &["--input-format", "log"][..]] {
            let args = [&["normalize"], format, &base[..], &[file]].concat();
            let out = wd.run(&args, None);
            assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{args:?}");
            assert!(
                stderr(&out).contains(
                    "4 records from 1 input: 2 valid, 1 empty, 1 bad (1 no-request-target"
                ),
                "{args:?}: {}",
                stderr(&out)
            );
        }
    }
    // Its other fields, as a log's.
    let args = [
        &["extract", "--fields", "@status,@referer"],
        &base[..],
        &["access.log"],
    ];
    let out = wd.stdout(&args.concat());
    assert_eq!(out, "status,referer\n200,https://r.example/\n200,\n");
    // A damaged line first: still a log, the line counted bad.
    let damaged = format!("1.2.3.4 - - [10/Oct/2000:13:55:3\n{log}");
    wd.create("damaged.log", damaged);
    let args = [&["normalize"], &base[..], &["damaged.log"]].concat();
    let out = wd.run(&args, None);
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    assert!(
        stderr(&out).contains("1 not-a-log-line"),
        "{}",
        stderr(&out)
    );
    // A `.log` of URL lines stays URL lines.
    let out = wd.run(&["normalize", "urls.log"], None);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "http://u.example/x\n");
    assert!(
        stderr(&out).contains("1 missing-scheme"),
        "{}",
        stderr(&out)
    );
    // Forced to lines, a log's lines are not URLs.
    let out = wd.run(
        &["normalize", "--input-format", "lines", "access.log"],
        None,
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    assert!(
        stderr(&out).contains("4 lines from 1 input"),
        "{}",
        stderr(&out)
    );
}

/// A `.log` file whose first line is longer than the sniffing window (a
/// 5 MB request line) is judged on whole lines: still a log.
#[test]
fn a_log_files_long_first_line_is_read_whole_before_judging() {
    let wd = Workdir::new();
    let long = format!(
        "1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET /{} HTTP/1.1\" 414 0\n",
        "a".repeat(5 << 20)
    );
    let rest = "1.2.3.4 - - [10/Oct/2000:13:55:37 -0700] \"GET /c HTTP/1.1\" 200 1\n";
    wd.create("long.log", format!("{long}{rest}"));
    let base = ["--base", "http://s.example/"];
    let out = wd.run(
        &[&["normalize", "-q"][..], &base, &["long.log"]].concat(),
        None,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with("http://s.example/aaaa") && lines[0].len() > 5 << 20);
    assert_eq!(lines[1], "http://s.example/c");
    // Longer than --max-line-bytes: judged by its start, counted bad.
    let out = wd.run(
        &[
            &["normalize", "--max-line-bytes", "1M"][..],
            &base,
            &["long.log"],
        ]
        .concat(),
        None,
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "http://s.example/c\n");
    assert!(stderr(&out).contains("1 line-too-long"), "{}", stderr(&out));
}

/// RFC 9112's request-target forms in a log: a CONNECT's authority-form
/// target is its host and port; `OPTIONS *` names no resource.
#[test]
fn connect_and_asterisk_form_targets_in_logs() {
    let wd = Workdir::new();
    let line = |request: &str| {
        format!("1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"{request}\" 200 0 \"-\" \"-\"\n")
    };
    let log: String = [
        "CONNECT api.example.com:443 HTTP/1.1",
        "CONNECT Proxy.Example:8080 HTTP/1.1",
        "CONNECT nowhere HTTP/1.1",
        "OPTIONS * HTTP/1.1",
        "GET /x HTTP/1.1",
    ]
    .iter()
    .map(|r| line(r))
    .collect();
    wd.create("access.log", log);
    let out = wd.run(
        &["normalize", "--base", "https://site.example/", "access.log"],
        None,
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "https://api.example.com/\nhttp://proxy.example:8080/\nhttps://site.example/x\n"
    );
    assert!(
        stderr(&out).contains("1 asterisk-form-target")
            && stderr(&out).contains("1 bad-CONNECT-target"),
        "{}",
        stderr(&out)
    );
}

//! The documentation's examples run:
//!
//! - every ```console block in `docs/*.md` is a `$ urlsift ...` command
//!   line and the exact standard output it must print, run from the
//!   repository root;
//! - every line of the README's ```sh blocks runs, as written, in a
//!   scratch directory that holds the repository's `corpora/` and is its
//!   HOME, and exits with status 0 (but `cargo` and `pip` lines: building
//!   and installing are what the test itself stands on);
//! - every `urlsift ...` command of the docs' ```sh blocks, whose files
//!   are examples, is one the command takes: its flags and values parse,
//!   and it fails, if at all, only because its input is not there.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Splits a command line on spaces, honouring single quotes.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            _ => {
                word.push(c);
                any = true;
            }
        }
    }
    assert!(!quoted, "unbalanced quote in {line:?}");
    if any {
        out.push(word);
    }
    out
}

/// The bodies of the fenced blocks of `kind` in `text`.
fn blocks<'a>(text: &'a str, kind: &str) -> Vec<&'a str> {
    let fence = format!("```{kind}\n");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find(&fence) {
        let body = &rest[open + fence.len()..];
        let close = body.find("```").expect("a closed block");
        out.push(&body[..close]);
        rest = &body[close + 3..];
    }
    out
}

/// Runs the console examples of `doc`; returns how many there were.
fn run_console_blocks(doc: &Path) -> usize {
    let text = std::fs::read_to_string(doc).unwrap();
    let mut count = 0;
    for block in blocks(&text, "console") {
        let (command, expected) = block.split_once('\n').expect("a command and its output");
        let args = words(
            command
                .strip_prefix("$ urlsift ")
                .unwrap_or_else(|| panic!("{}: not a `$ urlsift` line: {command}", doc.display())),
        );
        let out = Command::new(env!("CARGO_BIN_EXE_urlsift"))
            .args(&args)
            .current_dir(root())
            .output()
            .expect("run urlsift");
        assert!(
            out.status.success(),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            expected,
            "{}: {command}",
            doc.display()
        );
        count += 1;
    }
    count
}

#[test]
fn format_examples_print_what_the_docs_show() {
    let formats = root().join("docs/formats.md");
    let count = run_console_blocks(&formats);
    // One example or more per format, and then some.
    assert!(count >= 10, "found {count} examples in docs/formats.md");
    let text = std::fs::read_to_string(&formats).unwrap();
    let commands: Vec<&str> = blocks(&text, "console")
        .into_iter()
        .filter_map(|b| b.lines().next())
        .collect();
    for format in ["csv", "jsonl", "cdxj", "warc", "log"] {
        assert!(
            commands.iter().any(|c| c.contains(&format!(".{format}"))),
            "an example reads .{format}"
        );
    }
}

#[test]
fn every_console_example_in_the_docs_prints_what_it_shows() {
    let mut total = 0;
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            total += run_console_blocks(&path);
        }
    }
    assert!(total >= 10, "{total} console examples in docs/");
}

#[test]
fn readme_quick_start_commands_run_as_written() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let scratch = tempfile::Builder::new()
        .prefix("urlsift-readme-")
        .tempdir()
        .unwrap();
    std::os::unix::fs::symlink(root().join("corpora"), scratch.path().join("corpora")).unwrap();
    let bin_dir: PathBuf = Path::new(env!("CARGO_BIN_EXE_urlsift"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    let mut shell = 0;
    for block in blocks(&readme, "sh") {
        // What a block exports holds for its later lines, as in the shell
        // they are pasted into.
        let mut exports = String::new();
        for line in block.lines() {
            // (A trailing `# comment` is the shell's to drop.)
            if line.starts_with("cargo ") || line.starts_with("pip ") || line.is_empty() {
                continue;
            }
            if !line.starts_with("urlsift ") {
                shell += 1;
            }
            let out = Command::new("bash")
                .args(["-c", &format!("{exports}{line}")])
                .env("PATH", &path)
                .env("HOME", scratch.path())
                .current_dir(scratch.path())
                .output()
                .expect("run bash");
            assert!(
                out.status.success(),
                "README: {line}: status {:?}: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            );
            ran += 1;
            if line.starts_with("export ") {
                exports.push_str(line);
                exports.push('\n');
            }
        }
    }
    assert!(ran >= 15, "{ran} README commands run");
    // `man` found the pages the install block wrote, with no PATH help.
    assert!(
        readme.contains("\nman -w urlsift-dedup"),
        "the README shows man finding a page"
    );
    assert!(shell >= 1, "the install block's shell lines ran too");
    // The install block's completions and man pages were written.
    let home = scratch.path().join(".local/share");
    assert!(home.join("bash-completion/completions/urlsift").is_file());
    for page in ["urlsift.1", "urlsift-normalize.1", "urlsift-links.1"] {
        assert!(home.join("man/man1").join(page).is_file(), "{page}");
    }
    // The files the examples name were written.
    for file in ["normal.txt", "rejects.tsv", "report.html"] {
        let len = std::fs::metadata(scratch.path().join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}"))
            .len();
        assert!(len > 0, "{file} is empty");
    }
}

#[test]
fn docs_command_lines_are_ones_the_command_takes() {
    let scratch = tempfile::Builder::new()
        .prefix("urlsift-docs-")
        .tempdir()
        .unwrap();
    let mut checked = 0;
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let doc = entry.unwrap().path();
        if doc.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = std::fs::read_to_string(&doc).unwrap();
        for block in blocks(&text, "sh") {
            for line in block.lines() {
                // The urlsift part of a pipeline, its comment and
                // redirection dropped.
                let code = line.split(" #").next().unwrap();
                let Some(command) = code
                    .split(" | ")
                    .map(str::trim)
                    .find(|part| part.starts_with("urlsift "))
                else {
                    continue;
                };
                let command = command.split(" > ").next().unwrap().trim();
                let args = words(command.strip_prefix("urlsift ").unwrap());
                // S3 and GCS requests go to a closed local port, with keys
                // (a token) so no instance metadata is asked for; this
                // machine reaches no other server (docs/remote.md's
                // examples).
                let out = Command::new(env!("CARGO_BIN_EXE_urlsift"))
                    .args(&args)
                    .current_dir(scratch.path())
                    .stdin(std::process::Stdio::null())
                    .env("AWS_ACCESS_KEY_ID", "docs")
                    .env("AWS_SECRET_ACCESS_KEY", "docs")
                    .env("AWS_ENDPOINT_URL", "http://127.0.0.1:9")
                    .env_remove("AWS_ENDPOINT")
                    .env("STORAGE_EMULATOR_HOST", "127.0.0.1:9")
                    .env_remove("GOOGLE_BASE_URL")
                    .output()
                    .expect("run urlsift");
                let stderr = String::from_utf8_lossy(&out.stderr);
                let missing_input = out.status.code() == Some(2)
                    && stderr.starts_with("urlsift: cannot read ")
                    && stderr.contains("No such file or directory");
                // A remote object no server here gives (the command took
                // its flags, and asked for it).
                let unreachable = out.status.code() == Some(2)
                    && stderr
                        .strip_prefix("urlsift: cannot read ")
                        .is_some_and(urlsift_records::input::is_remote);
                assert!(
                    out.status.success() || missing_input || unreachable,
                    "{}: {command}: status {:?}: {stderr}",
                    doc.display(),
                    out.status.code()
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "{checked} commands checked in docs/");
}

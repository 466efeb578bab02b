//! The README's examples run: every ```console block in its "Real data"
//! section is a `$ urlsift ...` command line and the exact standard output
//! it must print, run from the repository root.

use std::path::Path;
use std::process::Command;

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

#[test]
fn real_data_examples_print_what_the_readme_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let start = readme.find("\n## Real data").expect("a Real data section");
    let section = &readme[start + 1..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    let mut blocks = 0;
    let mut rest = section;
    while let Some(open) = rest.find("```console\n") {
        let body = &rest[open + "```console\n".len()..];
        let close = body.find("```").expect("a closed block");
        let block = &body[..close];
        rest = &body[close + 3..];
        let (command, expected) = block.split_once('\n').expect("a command and its output");
        let args = words(
            command
                .strip_prefix("$ urlsift ")
                .expect("a `$ urlsift` line"),
        );
        let out = Command::new(env!("CARGO_BIN_EXE_urlsift"))
            .args(&args)
            .current_dir(root)
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
            "{command}"
        );
        blocks += 1;
    }
    // One example or more per format, and then some.
    assert!(blocks >= 10, "found {blocks} examples");
    for format in ["csv", "jsonl", "cdxj", "warc", "log"] {
        assert!(
            section.contains(&format!(".{format}")),
            "an example reads .{format}"
        );
    }
}

//! Counts, per corpus, the lines the fast path declines and why: each
//! declined line is put in the first class (in the order below) whose
//! shape it has, so the counts say what a wider fast path would win.
//! The classes are read from the input and from the state machine's
//! result, not from the fast path's internals: a line in class "other"
//! is one the fast path could prove but does not.
//!
//! Usage: cargo run --release --example declines [FILE|DIR ...] [--show CLASS]
//! (default: every `.txt` in `$URLSIFT_CORPORA_DIR` or `../shared/corpora`;
//! `--show CLASS` prints the first lines of that class.)

use std::collections::BTreeMap;

use urlsift::paths;

/// The first matching class of a line the fast path declined.
fn classify(line: &str) -> &'static str {
    let bytes = line.as_bytes();
    let parsed = paths::machine(line, None);
    let Ok(url) = parsed else {
        return if bytes.len() < 6 || !bytes[2..6].contains(&b':') {
            "invalid, no scheme"
        } else {
            "invalid"
        };
    };
    if !url.scheme_type().is_special() {
        return "non-special scheme";
    }
    if bytes
        .first()
        .into_iter()
        .chain(bytes.last())
        .any(|&b| b <= b' ')
    {
        return "leading/trailing C0 or space";
    }
    if bytes.iter().any(|&b| matches!(b, b'\t' | b'\n' | b'\r')) {
        return "tab or newline";
    }
    if !line.is_ascii() {
        let after_path = &line[line.len() - raw_after_path(line).len()..];
        return if !authority(line).is_ascii() {
            "non-ASCII (host)"
        } else if !raw_path(line).is_ascii() {
            "non-ASCII (path)"
        } else if !after_path.split('#').next().unwrap_or("").is_ascii() {
            "non-ASCII (query)"
        } else {
            "non-ASCII (fragment)"
        };
    }
    if !url.username().is_empty() || !url.password().is_empty() || has_at_in_authority(line) {
        return "credentials ('@')";
    }
    match url.host_kind() {
        Some(urlsift::HostKind::Ipv4) => return "IPv4 host",
        Some(urlsift::HostKind::Ipv6) => return "IPv6 host",
        _ => {}
    }
    if url.host().contains('%') || authority(line).contains('%') {
        return "'%' in host";
    }
    if line.contains('\\') {
        return "backslash";
    }
    let path = url.pathname();
    let raw_path = raw_path(line);
    if raw_path.split('/').any(|s| {
        matches!(
            s.to_ascii_lowercase().as_str(),
            "." | ".." | "%2e" | ".%2e" | "%2e." | "%2e%2e"
        )
    }) {
        return "dot segment";
    }
    if let Some(b) = line.bytes().find(|&b| paths::FAST_PATH_DECLINE.contains(b)) {
        let kept = url.href().as_bytes().contains(&b);
        return match (b, kept) {
            (b' ', _) => "space",
            (_, true) => match b {
                b'{' | b'}' => "'{' or '}' kept",
                b'^' => "'^' kept",
                b'\'' => "quote (') kept",
                b'`' => "'`' kept",
                b'|' => "'|' kept",
                _ => "other declined byte kept",
            },
            (_, false) => "declined byte encoded",
        };
    }
    if path != raw_path && !raw_path.is_empty() {
        return "path rewritten (other)";
    }
    if authority(line).ends_with(':') {
        return "empty port";
    }
    if authority(line).contains(':') && url.port().is_empty() && !authority(line).ends_with(':') {
        let p = &authority(line)[authority(line).rfind(':').unwrap() + 1..];
        if p.starts_with('0') {
            return "port with leading 0";
        }
    }
    if authority(line).len() + line.find("//").unwrap_or(0) + 2 > 64 {
        return "authority past 64 bytes";
    }
    if line.len() > 64 && line[64..].contains('/') {
        return "long (>64 bytes)";
    }
    "other"
}

/// The authority of `line` as written (after "//", before '/', '?', '#'
/// or '\\').
fn authority(line: &str) -> &str {
    let Some(start) = line.find("//").map(|i| i + 2) else {
        return "";
    };
    let rest = &line[start..];
    &rest[..rest.find(['/', '?', '#', '\\']).unwrap_or(rest.len())]
}

fn has_at_in_authority(line: &str) -> bool {
    authority(line).contains('@')
}

/// The query and fragment of `line` as written.
fn raw_after_path(line: &str) -> &str {
    let path = raw_path(line);
    let start = path.as_ptr() as usize - line.as_ptr() as usize + path.len();
    &line[start.min(line.len())..]
}

/// The path of `line` as written.
fn raw_path(line: &str) -> &str {
    let Some(start) = line.find("//").map(|i| i + 2) else {
        return &line[line.len()..];
    };
    let rest = &line[start..];
    let rest = &rest[rest.find(['/', '?', '#']).unwrap_or(rest.len())..];
    &rest[..rest.find(['?', '#']).unwrap_or(rest.len())]
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let show = args.iter().position(|a| a == "--show").map(|i| {
        let class = args.get(i + 1).cloned().expect("--show CLASS");
        args.drain(i..i + 2);
        class
    });
    if args.is_empty() {
        args.push(
            std::env::var("URLSIFT_CORPORA_DIR").unwrap_or_else(|_| "../shared/corpora".into()),
        );
    }
    let mut files = Vec::new();
    for arg in &args {
        let path = std::path::PathBuf::from(arg);
        if path.is_dir() {
            let mut inner: Vec<_> = std::fs::read_dir(&path)
                .expect("read corpora dir")
                .map(|e| e.expect("dir entry").path())
                .filter(|p| p.extension().is_some_and(|e| e == "txt"))
                .collect();
            inner.sort();
            files.extend(inner);
        } else {
            files.push(path);
        }
    }
    let mut shown = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).expect("read corpus (UTF-8)");
        let mut classes: BTreeMap<&str, usize> = BTreeMap::new();
        let (mut lines, mut fast) = (0usize, 0usize);
        for line in text.lines() {
            lines += 1;
            if paths::fast(line).is_some() {
                fast += 1;
                continue;
            }
            let class = classify(line);
            *classes.entry(class).or_default() += 1;
            if show.as_deref() == Some(class) && shown < 20 {
                shown += 1;
                println!("  {class}: {line}");
            }
        }
        let name = path.file_stem().unwrap_or_default().to_string_lossy();
        println!(
            "{name}: {lines} lines, fast path {fast} ({:.1}%)",
            100.0 * fast as f64 / lines.max(1) as f64
        );
        let mut sorted: Vec<_> = classes.into_iter().collect();
        sorted.sort_by_key(|b| std::cmp::Reverse(b.1));
        for (class, n) in sorted {
            println!(
                "  {n:8} {:5.1}%  {class}",
                100.0 * n as f64 / lines.max(1) as f64
            );
        }
    }
}

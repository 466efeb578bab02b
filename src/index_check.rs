//! `urlsift index --check`: a WACZ's own index (the CDXJ lines under its
//! `indexes/`: plain or gzip CDXJ files, or ZipNum's `index.cdx.gz`, whose
//! `index.idx` lines must each point at a whole gzip block starting with
//! their key) held against the lines `urlsift index`
//! writes for the WARC files under its `archive/`. Lines are matched by
//! `filename` and `offset`; a matched pair is compared on the key, the
//! timestamp and every field urlsift writes (a digest's `sha1:` prefix
//! aside; fields only the WACZ's index has, such as `recordDigest`, are
//! not compared). Each difference is a line of the output; the exit status
//! is 1 when there is one.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::ExitCode;

use serde_json::{Map, Value};
use urlsift_records::input::wacz::is_wacz;
use urlsift_records::input::{InputError, Location, display_name, zip};

use crate::args::IndexArgs;
use crate::error::CliError;
use crate::index::index_one;
use crate::output::Sink;
use crate::setup::read_errors;

/// One index line, taken apart.
struct Line {
    text: String,
    key: String,
    timestamp: String,
    fields: Map<String, Value>,
}

impl Line {
    fn parse(text: &str) -> Option<Line> {
        let (key, rest) = text.split_once(' ')?;
        let (timestamp, json) = rest.split_once(' ')?;
        let Ok(Value::Object(fields)) = serde_json::from_str(json) else {
            return None;
        };
        Some(Line {
            text: text.to_string(),
            key: key.to_string(),
            timestamp: timestamp.to_string(),
            fields,
        })
    }

    /// Where the line's record lies: (filename, offset).
    fn place(&self) -> (String, u64) {
        let text = |name: &str| match self.fields.get(name) {
            Some(Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => String::new(),
        };
        (text("filename"), text("offset").parse().unwrap_or(u64::MAX))
    }

    /// A field's value as compared: a string (numbers as written), the
    /// digest without its `sha1:` prefix.
    fn value(&self, name: &str) -> Option<String> {
        let v = match self.fields.get(name)? {
            Value::String(s) => s.clone(),
            v => v.to_string(),
        };
        Some(match (name, v.strip_prefix("sha1:")) {
            ("digest", Some(rest)) => rest.to_string(),
            _ => v,
        })
    }
}

pub fn run(a: &IndexArgs, inputs: &[Location]) -> Result<ExitCode, CliError> {
    if let Some(f) = a.files.iter().find(|f| !is_wacz(f)) {
        return Err(CliError::Usage(format!(
            "--check compares a WACZ's own index with its WARC files; {} is not a WACZ",
            display_name(f)
        )));
    }
    let mut sink = Sink::open(a.output.as_deref(), false)?;
    let (mut differences, mut errors) = (0u64, Vec::new());
    for file in &a.files {
        let name = display_name(file);
        let mine: Vec<&Location> = inputs
            .iter()
            .filter(|l| matches!(l, Location::Entry { zip, .. } if zip.as_path() == file))
            .collect();
        let mut ours = Vec::new();
        for location in &mine {
            errors.extend(index_one(location, |line| ours.push(line)).1);
        }
        let theirs = match own_index(file) {
            Ok(lines) => lines,
            Err(error) => {
                errors.push(InputError {
                    name,
                    error,
                    usage: false,
                });
                continue;
            }
        };
        let ours: Vec<String> = ours
            .into_iter()
            .map(|l| String::from_utf8_lossy(&l).into_owned())
            .collect();
        let mut found = compare(&ours, &theirs);
        match zipnum_problems(file) {
            Ok(problems) => found.extend(problems),
            Err(error) => errors.push(InputError {
                name: name.clone(),
                error,
                usage: false,
            }),
        }
        for d in &found {
            writeln!(sink, "{name}: {d}").map_err(|e| CliError::output(sink.name(), e))?;
        }
        differences += found.len() as u64;
        if !a.quiet {
            eprintln!(
                "urlsift index --check: {name}: {} line{} from its WARC files, {} in its index: {}",
                ours.len(),
                if ours.len() == 1 { "" } else { "s" },
                theirs.len(),
                match found.len() {
                    0 => "the same".to_string(),
                    1 => "1 difference".to_string(),
                    n => format!("{n} differences"),
                }
            );
        }
    }
    sink.commit()?;
    let code = read_errors(&errors);
    Ok(if code == ExitCode::SUCCESS && differences > 0 {
        ExitCode::from(1)
    } else {
        code
    })
}

/// The lines of the WACZ's own index: every `indexes/*.cdx(j)` entry,
/// plain or gzip (ZipNum's `index.cdx.gz` is gzip blocks of lines).
fn own_index(file: &std::path::Path) -> std::io::Result<Vec<String>> {
    let entries = zip::entries(file)?;
    let indexes: Vec<&zip::Entry> = entries
        .iter()
        .filter(|e| {
            e.name.strip_prefix("indexes/").is_some_and(|n| {
                let n = n.strip_suffix(".gz").unwrap_or(n);
                n.ends_with(".cdxj") || n.ends_with(".cdx")
            })
        })
        .collect();
    if indexes.is_empty() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "no index to check against (no indexes/*.cdx, *.cdxj, *.cdx.gz or *.cdxj.gz)",
        ));
    }
    let mut lines = Vec::new();
    for entry in indexes {
        let named =
            |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", entry.name));
        let bytes: Box<dyn Read> = if entry.name.ends_with(".gz") {
            Box::new(flate2::read::MultiGzDecoder::new(
                zip::open(file, entry).map_err(named)?,
            ))
        } else {
            zip::open(file, entry).map_err(named)?
        };
        for line in BufReader::new(bytes).lines() {
            let line = line.map_err(named)?;
            if !line.trim().is_empty() && !line.starts_with('!') {
                lines.push(line);
            }
        }
    }
    Ok(lines)
}

/// What is wrong with a ZipNum index's `.idx` files (`indexes/*.idx`):
/// each line's block (`offset`, `length` in the `.cdx.gz` its `!meta`
/// line names, `index.cdx.gz` by default) must be one whole gzip member
/// whose first line starts with the line's key and timestamp.
fn zipnum_problems(file: &std::path::Path) -> std::io::Result<Vec<String>> {
    let entries = zip::entries(file)?;
    let read = |entry: &zip::Entry| -> std::io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        zip::open(file, entry)?.read_to_end(&mut bytes)?;
        Ok(bytes)
    };
    let mut problems = Vec::new();
    for idx in entries
        .iter()
        .filter(|e| e.name.starts_with("indexes/") && e.name.ends_with(".idx"))
    {
        let text = String::from_utf8_lossy(&read(idx)?).into_owned();
        let mut blocks_name = "index.cdx.gz".to_string();
        let mut blocks: Option<Vec<u8>> = None;
        for (i, line) in text.lines().enumerate() {
            let at = format!("{} line {}", idx.name, i + 1);
            let Some(json_at) = line.find(" {") else {
                if !line.trim().is_empty() {
                    problems.push(format!("{at}: not an index line: {line}"));
                }
                continue;
            };
            let fields: serde_json::Map<String, Value> =
                match serde_json::from_str(&line[json_at + 1..]) {
                    Ok(Value::Object(f)) => f,
                    _ => {
                        problems.push(format!("{at}: not an index line: {line}"));
                        continue;
                    }
                };
            if line.starts_with("!meta") {
                if let Some(Value::String(f)) = fields.get("filename") {
                    blocks_name = f.clone();
                    blocks = None;
                }
                continue;
            }
            if blocks.is_none() {
                let name = format!("indexes/{blocks_name}");
                let entry = entries.iter().find(|e| e.name == name).ok_or_else(|| {
                    std::io::Error::new(
                        std::io::ErrorKind::NotFound,
                        format!("{}: names {name}, which the WACZ does not hold", idx.name),
                    )
                })?;
                blocks = Some(read(entry)?);
            }
            let bytes = blocks.as_deref().expect("read above");
            let number = |k: &str| match fields.get(k) {
                Some(Value::Number(n)) => n.as_u64(),
                Some(Value::String(s)) => s.parse().ok(),
                _ => None,
            };
            let (Some(offset), Some(length)) = (number("offset"), number("length")) else {
                problems.push(format!("{at}: no offset and length: {line}"));
                continue;
            };
            let block = usize::try_from(offset)
                .ok()
                .zip(usize::try_from(offset + length).ok())
                .and_then(|(a, b)| bytes.get(a..b));
            let mut first = String::new();
            let whole = block.is_some_and(|b| {
                let mut member = flate2::bufread::GzDecoder::new(b);
                let mut out = Vec::new();
                member.read_to_end(&mut out).is_ok() && member.into_inner().is_empty() && {
                    first =
                        String::from_utf8_lossy(out.split(|&c| c == b'\n').next().unwrap_or(&[]))
                            .into_owned();
                    true
                }
            });
            let key_ts = &line[..json_at];
            if !whole {
                problems.push(format!(
                    "{at}: the block at offset {offset} (length {length}) of {blocks_name} is not \
                     one whole gzip member"
                ));
            } else if first != key_ts && !first.starts_with(&format!("{key_ts} ")) {
                // (An empty index's one block is empty, its key too.)
                problems.push(format!(
                    "{at}: the block at offset {offset} of {blocks_name} starts with {first:?}, \
                     not with its key {key_ts:?}"
                ));
            }
        }
    }
    Ok(problems)
}

/// The differences between `ours` and `theirs`, in the order of the
/// records' places.
fn compare(ours: &[String], theirs: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut by_place: BTreeMap<(String, u64), (Option<Line>, Option<Line>)> = BTreeMap::new();
    for (text, ours) in ours
        .iter()
        .map(|l| (l, true))
        .chain(theirs.iter().map(|l| (l, false)))
    {
        let Some(line) = Line::parse(text) else {
            out.push(format!("not an index line: {text}"));
            continue;
        };
        let slot = by_place.entry(line.place()).or_default();
        let side = if ours { &mut slot.0 } else { &mut slot.1 };
        if side.is_some() {
            out.push(format!(
                "a second line for the same record{}: {text}",
                if ours { "" } else { " in its index" }
            ));
        } else {
            *side = Some(line);
        }
    }
    for ((filename, offset), pair) in by_place {
        match pair {
            (Some(ours), None) => out.push(format!("not in its index: {}", ours.text)),
            (None, Some(theirs)) => out.push(format!("not found by urlsift: {}", theirs.text)),
            (Some(ours), Some(theirs)) => {
                let mut fields = vec![
                    ("urlkey", Some(ours.key.clone()), Some(theirs.key.clone())),
                    (
                        "timestamp",
                        Some(ours.timestamp.clone()),
                        Some(theirs.timestamp.clone()),
                    ),
                ];
                for name in ours.fields.keys() {
                    fields.push((name.as_str(), ours.value(name), theirs.value(name)));
                }
                for (field, a, b) in fields {
                    if a != b {
                        let show =
                            |v: Option<String>| v.map_or("(none)".into(), |v| format!("{v:?}"));
                        out.push(format!(
                            "{filename} at {offset}: {field}: urlsift {}, its index {}",
                            show(a),
                            show(b)
                        ));
                    }
                }
            }
            (None, None) => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::compare;

    const OURS: &str = r#"com,example)/ 20201007212236 {"url": "http://www.example.com/", "mime": "text/html", "status": "200", "digest": "sha1:WJM2", "length": "1293", "offset": "845", "filename": "a.warc"}"#;

    #[test]
    fn lines_match_by_place_and_compare_field_by_field() {
        // The digest's prefix and fields only theirs has are not differences.
        let theirs = OURS
            .replace("sha1:WJM2", "WJM2")
            .replace(r#""filename""#, r#""recordDigest": "sha256:x", "filename""#);
        assert!(compare(&[OURS.into()], &[theirs]).is_empty());
        let theirs = OURS.replace(r#""status": "200""#, r#""status": "404""#);
        assert_eq!(
            compare(&[OURS.into()], &[theirs]),
            [r#"a.warc at 845: status: urlsift "200", its index "404""#]
        );
        let moved = OURS.replace(r#""offset": "845""#, r#""offset": "0""#);
        let found = compare(&[OURS.into()], &[moved]);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("not found by urlsift: "), "{found:?}");
        assert!(found[1].starts_with("not in its index: "), "{found:?}");
        assert_eq!(compare(&[], &["junk".into()]), ["not an index line: junk"]);
    }
}

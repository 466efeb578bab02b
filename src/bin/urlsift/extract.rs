//! `urlsift extract`: URL components as CSV (with a header, the default),
//! TSV, JSON Lines, or a `{field}` template, one record per valid line.
//!
//! Fields are the URL API getters (`href`, `protocol`, `username`,
//! `password`, `host`, `hostname`, `port`, `pathname`, `search`, `hash`,
//! `origin`) plus `line` (the line number) and `input` (the line as read).
//! Parsed components never contain tabs or newlines (the parser removes
//! them), so TSV needs no quoting except for `input`, whose tabs, CR and
//! backslashes are escaped as `\t`, `\r`, `\\`.

use std::borrow::Cow;
use std::process::ExitCode;

use urlsift::Url;

use crate::args::ExtractArgs;
use crate::normalize::parse_base;
use crate::output::CliError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Line,
    Input,
    Href,
    Protocol,
    Username,
    Password,
    Host,
    Hostname,
    Port,
    Pathname,
    Search,
    Hash,
    Origin,
}

const FIELDS: &[(&str, Field)] = &[
    ("line", Field::Line),
    ("input", Field::Input),
    ("href", Field::Href),
    ("protocol", Field::Protocol),
    ("username", Field::Username),
    ("password", Field::Password),
    ("host", Field::Host),
    ("hostname", Field::Hostname),
    ("port", Field::Port),
    ("pathname", Field::Pathname),
    ("search", Field::Search),
    ("hash", Field::Hash),
    ("origin", Field::Origin),
];

impl Field {
    fn parse(name: &str) -> Result<Field, CliError> {
        FIELDS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, f)| f)
            .ok_or_else(|| {
                let known: Vec<&str> = FIELDS.iter().map(|(n, _)| *n).collect();
                CliError::Usage(format!(
                    "unknown field {name:?} (known: {})",
                    known.join(", ")
                ))
            })
    }

    fn name(self) -> &'static str {
        FIELDS.iter().find(|(_, f)| *f == self).expect("listed").0
    }

    fn value<'a>(self, url: &'a Url, input: &'a str, line: u64) -> Cow<'a, str> {
        Cow::Borrowed(match self {
            Field::Line => return Cow::Owned(line.to_string()),
            Field::Origin => return Cow::Owned(url.origin().to_string()),
            Field::Input => input,
            Field::Href => url.href(),
            Field::Protocol => url.protocol(),
            Field::Username => url.username(),
            Field::Password => url.password(),
            Field::Host => url.host(),
            Field::Hostname => url.hostname(),
            Field::Port => url.port(),
            Field::Pathname => url.pathname(),
            Field::Search => url.search(),
            Field::Hash => url.hash(),
        })
    }
}

/// A `--format` template: literal text and fields.
#[derive(Debug, PartialEq)]
enum Piece {
    Text(String),
    Field(Field),
}

fn parse_template(t: &str) -> Result<Vec<Piece>, CliError> {
    let mut pieces = Vec::new();
    let mut text = String::new();
    let mut rest = t;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("{{") || rest.starts_with("}}") {
            text.push(c);
            rest = &rest[2..];
        } else if c == '{' {
            let end = rest.find('}').ok_or_else(|| {
                CliError::Usage(format!("--format {t:?}: '{{' without a closing '}}'"))
            })?;
            if !text.is_empty() {
                pieces.push(Piece::Text(std::mem::take(&mut text)));
            }
            pieces.push(Piece::Field(Field::parse(&rest[1..end])?));
            rest = &rest[end + 1..];
        } else if c == '}' {
            return Err(CliError::Usage(format!(
                "--format {t:?}: lone '}}' (write '}}}}' for a literal brace)"
            )));
        } else {
            text.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    Ok(pieces)
}

enum Format {
    Csv,
    Tsv,
    Jsonl,
    Template(Vec<Piece>),
}

/// Appends `v` with TSV's escapes; runs between escapes are copied whole.
fn push_tsv(out: &mut Vec<u8>, v: &str) {
    let bytes = v.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escaped: &[u8] = match b {
            b'\t' => b"\\t",
            b'\r' => b"\\r",
            b'\n' => b"\\n",
            b'\\' => b"\\\\",
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        out.extend_from_slice(escaped);
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
}

fn push_csv(out: &mut Vec<u8>, v: &str) {
    if v.bytes().any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r')) {
        out.push(b'"');
        for &b in v.as_bytes() {
            if b == b'"' {
                out.push(b'"');
            }
            out.push(b);
        }
        out.push(b'"');
    } else {
        out.extend_from_slice(v.as_bytes());
    }
}

fn push_json(out: &mut Vec<u8>, v: &str) {
    // Straight into the chunk's buffer: no string per value.
    serde_json::to_writer(&mut *out, v).expect("strings serialize into a Vec");
}

pub fn run(a: ExtractArgs) -> Result<ExitCode, CliError> {
    if a.policy.keep_invalid {
        return Err(CliError::Usage(
            "extract: --keep-invalid would break the CSV/JSON records; use --rejects FILE \
             or `urlsift check` to see the bad lines"
                .into(),
        ));
    }
    let fields = a
        .fields
        .split(',')
        .map(|f| Field::parse(f.trim()))
        .collect::<Result<Vec<_>, _>>()?;
    let format = match (&a.format, a.tsv, a.jsonl) {
        (Some(t), _, _) => Format::Template(parse_template(t)?),
        (None, true, _) => Format::Tsv,
        (None, _, true) => Format::Jsonl,
        _ => Format::Csv,
    };
    let mut setup = crate::Setup::new(&a.input, &a.output, Some(&a.policy))?;
    let base = parse_base(&a.input.base)?;
    if !a.no_header && matches!(format, Format::Csv | Format::Tsv) {
        let mut head = Vec::new();
        for (i, f) in fields.iter().enumerate() {
            if i > 0 {
                head.push(if matches!(format, Format::Csv) {
                    b','
                } else {
                    b'\t'
                });
            }
            head.extend_from_slice(f.name().as_bytes());
        }
        setup.standard.sink.record(&head)?;
    }
    setup.run_per_url(
        base.as_ref(),
        false,
        |url, number, line, out| match &format {
            Format::Template(pieces) => {
                for piece in pieces {
                    match piece {
                        Piece::Text(t) => out.extend_from_slice(t.as_bytes()),
                        Piece::Field(f) => {
                            out.extend_from_slice(f.value(url, line, number).as_bytes())
                        }
                    }
                }
            }
            Format::Jsonl => {
                out.push(b'{');
                for (i, f) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    push_json(out, f.name());
                    out.push(b':');
                    match f {
                        Field::Line => out.extend_from_slice(number.to_string().as_bytes()),
                        _ => push_json(out, &f.value(url, line, number)),
                    }
                }
                out.push(b'}');
            }
            Format::Csv | Format::Tsv => {
                let csv = matches!(format, Format::Csv);
                for (i, f) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(if csv { b',' } else { b'\t' });
                    }
                    let v = f.value(url, line, number);
                    if csv {
                        push_csv(out, &v);
                    } else {
                        push_tsv(out, &v);
                    }
                }
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsv_escapes() {
        let tsv = |v: &str| {
            let mut out = b"x".to_vec();
            push_tsv(&mut out, v);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(tsv(""), "x");
        assert_eq!(tsv("plain/path?q"), "xplain/path?q");
        assert_eq!(tsv("a\tb\rc\nd\\e"), "xa\\tb\\rc\\nd\\\\e");
        assert_eq!(tsv("\t\\"), "x\\t\\\\");
    }

    #[test]
    fn templates() {
        assert_eq!(
            parse_template("{hostname}{pathname}").unwrap(),
            vec![Piece::Field(Field::Hostname), Piece::Field(Field::Pathname)]
        );
        assert_eq!(
            parse_template("{{x}} {port}!").unwrap(),
            vec![
                Piece::Text("{x} ".into()),
                Piece::Field(Field::Port),
                Piece::Text("!".into())
            ]
        );
        assert!(parse_template("{nope}").is_err());
        assert!(parse_template("{host").is_err());
        assert!(parse_template("a}b").is_err());
    }

    #[test]
    fn csv_quoting() {
        let mut out = Vec::new();
        push_csv(&mut out, "a,\"b\"");
        assert_eq!(out, b"\"a,\"\"b\"\"\"");
    }
}

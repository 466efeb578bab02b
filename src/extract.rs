//! `urlsift extract`: URL components as CSV (with a header, the default),
//! TSV, JSON Lines, or a `{field}` template, one record per valid URL; or,
//! with `--append`, the input records with the components added (CSV/TSV
//! columns, JSON keys).
//!
//! Fields are the URL API getters (`href`, `protocol`, `username`,
//! `password`, `host`, `hostname`, `port`, `pathname`, `search`, `hash`,
//! `origin`), `line` (where the record starts), `input` (the URL field as
//! read) and `@NAME`, another field of the input record (a CSV column, a
//! JSON key or dotted path, a WARC header, a log field). CSV is written
//! with the csv crate. Parsed components never contain tabs or newlines
//! (the parser removes them), so TSV needs no quoting except for `input`
//! and record fields, whose tabs, CR, LF and backslashes are escaped as
//! `\t`, `\r`, `\n`, `\\`.

use std::process::ExitCode;

use urlsift::profile::{Canonical, Profile};
use urlsift_records::Format as RecordFormat;
use urlsift_records::dedup::PatternKeyOptions;
use urlsift_records::fields::{Asked, Context, Field};
use urlsift_records::format::quote::{self, Json, write_field};
use urlsift_records::stage::Verdict;

use crate::args::{ExtractArgs, ExtractFormat};
use crate::error::{CliError, Flags};
use crate::naming::{Named, OutputName};
use urlsift_records::parquet::{Extracted, input_schema};

use crate::parquet_out;
use crate::setup::{Setup, Text, report};

/// The field named `name`, or a usage error.
fn field(name: &str) -> Result<Field, CliError> {
    Field::parse(name).map_err(|e| CliError::Usage(e.message(&Flags)))
}

/// Sets the `pattern` fields among `fields` as the --pattern-* flags
/// say; a usage error for those flags when there is none.
fn set_pattern<'f>(
    fields: impl Iterator<Item = &'f mut Field>,
    options: PatternKeyOptions,
) -> Result<(), CliError> {
    let mut any = false;
    for f in fields {
        if let Field::Pattern(o) = f {
            *o = options;
            any = true;
        }
    }
    if !any && options != PatternKeyOptions::default() {
        return Err(CliError::Usage(
            "the --pattern-* flags go with the pattern field (--fields pattern)".into(),
        ));
    }
    Ok(())
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
            pieces.push(Piece::Field(field(&rest[1..end])?));
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

#[derive(PartialEq)]
enum Format {
    Csv,
    Tsv,
    Jsonl,
    Template(Vec<Piece>),
    Parquet,
}

/// The profile of the `canonical` field (`--canonical FORM`), which goes
/// with that field only.
fn canonical_profile<'f>(
    a: &ExtractArgs,
    mut fields: impl Iterator<Item = &'f Field>,
    in_template: bool,
) -> Result<Option<Profile>, CliError> {
    let form = a.canonical.form()?;
    // The canonical field, or the ssurt field with a urlcanon form (its
    // SSURT of that form).
    let urlcanon = matches!(form, Some(Canonical::Urlcanon(_)));
    let asked = in_template
        || fields.any(|f| matches!(f, Field::Canonical) || (urlcanon && matches!(f, Field::Ssurt)));
    match (form, asked) {
        (None, true) => Err(CliError::Usage(format!(
            "the canonical field is the URL in the form --canonical names: one of {}",
            Canonical::NAMES.join(", ")
        ))),
        (Some(_), false) => Err(CliError::Usage(
            "--canonical gives the canonical field: name it in --fields (or the template)".into(),
        )),
        (form, _) => Ok(form.map(|form| Profile::new().canonical(Some(form)))),
    }
}

/// `match_line` and `match:NAME` tell which `--match` pattern matched:
/// without one they could only be empty.
fn check_match_fields<'f>(
    mut fields: impl Iterator<Item = &'f Field>,
    stage: &urlsift_records::stage::Stage,
) -> Result<(), CliError> {
    let asked = fields.find(|f| matches!(f, Field::MatchLine | Field::Match(_)));
    match (asked, stage.matching()) {
        (Some(f), None) => Err(CliError::Usage(format!(
            "the {} field tells which URL pattern matched: give --match PATTERN or --match-file FILE",
            f.name()
        ))),
        _ => Ok(()),
    }
}

pub fn run(a: ExtractArgs) -> Result<ExitCode, CliError> {
    if a.policy.keep_invalid && !a.append {
        return Err(CliError::Usage(
            "extract: --keep-invalid would break the CSV/JSON records; use --rejects FILE \
             or `urlsift check` to see the bad records (or --append, which passes them through)"
                .into(),
        ));
    }
    let mut fields = a
        .fields
        .split(',')
        .map(|f| field(f.trim()))
        .collect::<Result<Vec<_>, _>>()?;
    // The flags pick the format; without them, the -o name (`naming`).
    let named = OutputName::of(a.output.output.as_deref()).format;
    let mut format = match (&a.format, a.tsv, a.jsonl, a.output_format) {
        (_, _, _, Some(ExtractFormat::Parquet)) => Format::Parquet,
        (_, _, _, Some(ExtractFormat::Csv)) => Format::Csv,
        (_, _, _, Some(ExtractFormat::Tsv)) => Format::Tsv,
        (_, _, _, Some(ExtractFormat::Jsonl)) => Format::Jsonl,
        (Some(t), _, _, None) => Format::Template(parse_template(t)?),
        (None, true, _, None) => Format::Tsv,
        (None, _, true, None) => Format::Jsonl,
        _ if a.append => Format::Csv,
        _ => match named {
            Some(Named::Parquet) => Format::Parquet,
            Some(Named::Tsv) => Format::Tsv,
            Some(Named::Jsonl | Named::Json) => Format::Jsonl,
            _ => Format::Csv,
        },
    };
    // The pattern fields (of the list, or of the template) as the flags say.
    let options = a.pattern.options();
    match &mut format {
        Format::Template(pieces) => set_pattern(
            pieces.iter_mut().filter_map(|p| match p {
                Piece::Field(f) => Some(f),
                Piece::Text(_) => None,
            }),
            options,
        )?,
        _ => set_pattern(fields.iter_mut(), options)?,
    }
    let in_template = match &format {
        Format::Template(pieces) => pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Field(f) => Some(f),
                Piece::Text(_) => None,
            })
            .any(|f| matches!(f, Field::Canonical)),
        _ => false,
    };
    let canonical = canonical_profile(&a, fields.iter(), in_template)?;
    if format == Format::Parquet {
        return parquet(a, &fields, canonical.as_ref());
    }
    a.output.no_compression(
        "extract writes text (name a .parquet file with -o, or say --output-format parquet)",
    )?;
    let text = match &format {
        Format::Csv => Text(Some(Named::Csv), "CSV"),
        Format::Tsv => Text(Some(Named::Tsv), "TSV"),
        Format::Jsonl => Text(Some(Named::Jsonl), "JSON lines"),
        _ => Text(None, "text from a template"),
    };
    let template = match &format {
        Format::Template(pieces) => pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Field(f) => Some(f.clone()),
                Piece::Text(_) => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let asked = Asked::of(fields.iter().chain(&template));
    // A `line` field is printed by the workers: the reader counts lines.
    let lines = fields
        .iter()
        .chain(&template)
        .any(|f| matches!(f, Field::Line));
    let mut setup = Setup::new(&a.input, &a.output, Some(&a.policy), a.append, text, |b| {
        b.count_lines(lines).named(asked.names())
    })?;
    if a.append {
        if !setup.writes_records {
            return Err(CliError::Usage(format!(
                "--append adds fields to CSV, TSV, JSON lines and CDXJ records; {} input \
                 is read-only (drop --append to print the fields alone)",
                setup.engine.kind()
            )));
        }
        if let Some(f) = fields.iter().find(|f| matches!(f, Field::Record(_))) {
            return Err(CliError::Usage(format!(
                "--append adds URL fields; @{} is already in the record",
                f.name()
            )));
        }
    }
    let base = a.input.base()?;
    let stage = a.input.stage(Some(&a.filters), Some(&a.edits))?;
    check_match_fields(fields.iter().chain(&template), &stage)?;
    let term = setup.terminator;
    if !a.append && !a.input.no_header && matches!(format, Format::Csv | Format::Tsv) {
        let mut head = Vec::new();
        let names = fields.iter().map(|f| f.name());
        match format {
            Format::Csv => quote::write_csv_row(&mut head, names, term),
            _ => quote::write_tsv_row(&mut head, names, term),
        }
        setup.put(&head)?;
    }
    let names: Vec<String> = fields.iter().map(|f| format!("url_{}", f.name())).collect();
    // With --append the records go back out: under --keep-invalid, empty
    // ones too (a row whose URL cell is empty, a blank line), as normalize
    // passes them, so every input record has its output record.
    let mut job = setup.job(a.append);
    job.write_heads = false;
    let code = setup.run_chunks(|chunk| {
        let source = &Context::of(chunk, &stage.list)
            .with_canonical(canonical.as_ref())
            .with_matching(stage.matching());
        let mut p = job.run_parsed(chunk, base.as_ref(), (), |p, rec, text, parser| {
            let url = parser.last_mut().expect("parsed");
            if stage.apply(url, &mut p.tally) == Verdict::Drop {
                return Ok(());
            }
            let url = &*url;
            let out = p.append();
            // Each value, noting which `@NAME` fields a record had.
            let value_opt = |f: &Field| {
                let v = f.value_opt(url, text, rec, source);
                asked.saw(f, v.is_some());
                v
            };
            let value = |f: &Field| value_opt(f).unwrap_or_default();
            if a.append {
                let values = fields.iter().map(value);
                rec.write_appended(out, &names, values);
                return Ok(());
            }
            match &format {
                Format::Template(pieces) => {
                    for piece in pieces {
                        match piece {
                            Piece::Text(t) => out.extend_from_slice(t.as_bytes()),
                            Piece::Field(f) => out.extend_from_slice(value(f).as_bytes()),
                        }
                    }
                    out.push(term);
                }
                Format::Jsonl => {
                    let members = fields.iter().map(|f| {
                        let value = match (f, value_opt(f)) {
                            (Field::Line, _) => Json::Number(rec.line.to_string().into()),
                            // A JSON array of the expressions.
                            (Field::SbExpressions, Some(v)) => Json::Words(v),
                            (_, Some(v)) => Json::Str(v),
                            (_, None) => Json::Null,
                        };
                        (f.name(), value)
                    });
                    quote::write_json_row(out, members, term);
                }
                Format::Tsv => {
                    let values = fields.iter().map(value);
                    quote::write_tsv_row(out, values, term);
                }
                Format::Csv => {
                    let values = fields.iter().map(value);
                    quote::write_csv_row(out, values, term);
                }
                Format::Parquet => unreachable!("written by `parquet`"),
            }
            Ok(())
        });
        if a.append && chunk.writes_head() && chunk.head() > 0 {
            let header = appended_header(&chunk.data()[..chunk.head()], &names, source.format);
            let shift = header.len();
            p.out.splice(0..0, header);
            for k in &mut p.passed_through {
                *k = (k.0 + shift, k.1 + shift);
            }
        }
        p
    })?;
    warn_unseen(&asked);
    Ok(code)
}

/// Says which `@NAME` fields no record had (their names vary by record in
/// JSON lines, CDXJ and WARC input, so a misspelt one is not refused up
/// front).
fn warn_unseen(asked: &Asked) {
    for name in asked.unseen() {
        eprintln!(
            "urlsift: warning: no record had a field @{name} (its column is empty; \
             check the name)"
        );
    }
}

/// `extract` to a Parquet file: a row per valid URL, the fields typed
/// columns (see `urlsift_records::parquet::Extracted`).
fn parquet(
    a: ExtractArgs,
    fields: &[Field],
    canonical: Option<&Profile>,
) -> Result<ExitCode, CliError> {
    parquet_out::check_target(a.output.output.as_deref())?;
    if a.output.null {
        return Err(CliError::Usage(
            "-0 ends text records with NUL; Parquet output has rows".into(),
        ));
    }
    let codec = parquet_out::codec(a.output.compression.as_deref())?;
    // (The compression is this writer's: the setup's output is the file.)
    let output = crate::args::OutputArgs {
        compression: None,
        ..a.output.clone()
    };
    let asked = Asked::of(fields);
    let setup = Setup::new(
        &a.input,
        &output,
        Some(&a.policy),
        false,
        Text(Some(Named::Parquet), "Parquet"),
        |b| {
            b.count_lines(fields.iter().any(|f| matches!(f, Field::Line)))
                .named(asked.names())
        },
    )?;
    let input = input_schema(&setup.engine, &a.input.format_spec());
    let schema = input.as_ref().map(|(s, _)| s.as_ref());
    let mut out =
        Extracted::new(fields, schema, codec, setup.engine.threads()).map_err(CliError::Usage)?;
    let columns = out.columns();
    let base = a.input.base()?;
    let stage = a.input.stage(Some(&a.filters), Some(&a.edits))?;
    check_match_fields(fields.iter(), &stage)?;
    let job = setup.job(false);
    let (files, settings) = (setup.engine.files().len(), setup.report);
    let work = |chunk: &_| {
        let source = &Context::of(chunk, &stage.list)
            .with_canonical(canonical)
            .with_matching(stage.matching());
        job.run_parsed(chunk, base.as_ref(), (), |p, rec, text, parser| {
            let url = parser.last_mut().expect("parsed");
            if stage.apply(url, &mut p.tally) == Verdict::Drop {
                return Ok(());
            }
            let url = &*url;
            let mut value = |f: &Field| {
                let v = f.value_opt(url, text, rec, source);
                asked.saw(f, v.is_some());
                v
            };
            columns.push_row(p.append(), rec.line, rec.offset, &mut value, None);
            Ok(())
        })
    };
    let mut done = setup.run(work, |ledger, chunk, p| {
        ledger.tally_mut().merge(&p.tally);
        out.chunk(ledger.out(), chunk, p)?;
        ledger.settle(chunk, p)
    })?;
    if let Err(e) = out.finish(done.ledger.out()) {
        return Err(done.fail(e));
    }
    let (tally, errors) = done.commit()?;
    warn_unseen(&asked);
    Ok(report(&tally, files, &settings, "", &errors))
}

/// The head of a CSV/TSV source with the appended columns' names added
/// to its header row.
fn appended_header(head: &[u8], names: &[String], source: &RecordFormat) -> Vec<u8> {
    let delimiter = match source {
        RecordFormat::Csv(l) => l.delimiter,
        _ => return head.to_vec(),
    };
    let (row, term) = match head {
        [rest @ .., b'\r', b'\n'] => (rest, &b"\r\n"[..]),
        [rest @ .., b'\n' | b'\r'] => (rest, &head[head.len() - 1..]),
        _ => (head, &b"\n"[..]),
    };
    let mut out = row.to_vec();
    for n in names {
        out.push(delimiter);
        write_field(&mut out, n.as_bytes(), delimiter, false);
    }
    out.extend_from_slice(term);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates() {
        assert_eq!(
            parse_template("{hostname}{pathname}").unwrap(),
            vec![
                Piece::Field(Field::Url(urlsift::Getter::Hostname)),
                Piece::Field(Field::Url(urlsift::Getter::Pathname))
            ]
        );
        assert_eq!(
            parse_template("{{x}} {port}!").unwrap(),
            vec![
                Piece::Text("{x} ".into()),
                Piece::Field(Field::Url(urlsift::Getter::Port)),
                Piece::Text("!".into())
            ]
        );
        assert!(parse_template("{nope}").is_err());
        assert!(parse_template("{host").is_err());
        assert!(parse_template("a}b").is_err());
    }
}

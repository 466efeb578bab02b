//! `urlsift check`: for each line that fails to parse or parses with spec
//! validation errors, print the source, line number, the errors by the
//! spec's names, and the input.
//!
//! Text form: `FILE:LINE: invalid: name, name: INPUT` (or `valid with
//! errors`). Lines that are not text at all (invalid UTF-8, NUL byte, over
//! long) are reported under our own names `invalid-UTF-8`, `NUL-byte` and
//! `line-too-long`, with the input shown as a quoted, escaped string.
//! `--json` prints one object per reported line:
//! `{"source":..,"line":..,"input":..,"valid":..,"errors":[..]}`.

use std::process::ExitCode;

use urlsift::{Url, ValidationError};

use crate::args::CheckArgs;
use crate::input::{self, Line};
use crate::normalize::parse_base;
use crate::output::CliError;
use crate::pipeline::Processed;

/// One reported line.
struct Finding<'a> {
    source: &'a str,
    number: u64,
    input: &'a str,
    /// Show the input quoted and escaped (it was not clean text).
    quote_input: bool,
    valid: bool,
    errors: &'a [&'a str],
}

fn report(out: &mut Vec<u8>, json: bool, f: Finding<'_>, term: u8) {
    let Finding {
        source,
        number,
        input,
        quote_input,
        valid,
        errors,
    } = f;
    if json {
        let s = |v: &str| serde_json::to_string(v).expect("strings serialize");
        let names: Vec<String> = errors.iter().map(|e| s(e)).collect();
        out.extend_from_slice(
            format!(
                r#"{{"source":{},"line":{number},"input":{},"valid":{valid},"errors":[{}]}}"#,
                s(source),
                s(input),
                names.join(",")
            )
            .as_bytes(),
        );
    } else {
        let status = if valid {
            "valid with errors"
        } else {
            "invalid"
        };
        let shown = if quote_input {
            format!("{input:?}")
        } else {
            input.to_string()
        };
        out.extend_from_slice(
            format!(
                "{source}:{number}: {status}: {}: {shown}",
                errors.join(", ")
            )
            .as_bytes(),
        );
    }
    out.push(term);
}

pub fn run(a: CheckArgs) -> Result<ExitCode, CliError> {
    let setup = crate::Setup::new(&a.input, &a.output, None)?;
    let base = parse_base(&a.input.base)?;
    let (term, max_line, json) = (setup.terminator, setup.max_line, a.json);
    let mut std = setup.standard;
    setup.engine.run(
        |chunk| {
            let mut p = Processed::<()>::new(chunk);
            let facts = input::ChunkFacts::of(chunk, max_line);
            let source = &chunk.source.name;
            let mut errors: Vec<ValidationError> = Vec::new();
            let mut names: Vec<&str> = Vec::new();
            for (number, raw) in chunk.lines() {
                p.tally.lines += 1;
                match facts.classify(raw) {
                    Line::Empty => p.tally.empty += 1,
                    Line::Bad(reason) => {
                        p.tally.add_bad(reason);
                        let lossy = String::from_utf8_lossy(raw);
                        let shown = if reason == input::Reason::TooLong {
                            let cut = lossy
                                .char_indices()
                                .nth(200)
                                .map_or(lossy.len(), |(i, _)| i);
                            format!("{}... ({} bytes)", &lossy[..cut], raw.len())
                        } else {
                            lossy.into_owned()
                        };
                        let e = [reason.key()];
                        report(
                            &mut p.out,
                            json,
                            Finding {
                                source,
                                number,
                                input: &shown,
                                quote_input: true,
                                valid: false,
                                errors: &e,
                            },
                            term,
                        );
                    }
                    Line::Text(line) => {
                        errors.clear();
                        let parsed = Url::parse_with_reporter(line, base.as_ref(), &mut errors);
                        names.clear();
                        for e in &errors {
                            if !names.contains(&e.name()) {
                                names.push(e.name());
                            }
                        }
                        let valid = match parsed {
                            Ok(_) => {
                                p.tally.valid += 1;
                                true
                            }
                            Err(err) => {
                                let reason = input::Reason::Url(err);
                                p.tally.add_bad(reason);
                                if !names.contains(&reason.key()) {
                                    names.push(reason.key());
                                }
                                false
                            }
                        };
                        // Valid lines are listed only when they carry errors.
                        if !valid || !names.is_empty() {
                            report(
                                &mut p.out,
                                json,
                                Finding {
                                    source,
                                    number,
                                    input: line,
                                    quote_input: false,
                                    valid,
                                    errors: &names,
                                },
                                term,
                            );
                        }
                    }
                }
            }
            p
        },
        |chunk, p| std.consume(chunk, p),
    )?;
    let files = std.files;
    let tally = std.finish()?;
    // The report is the output: the summary is shown only on request.
    let settings = crate::ReportSettings {
        quiet: setup.report.quiet || !setup.report.verbose,
        ..setup.report
    };
    Ok(crate::report(&tally, files, &settings, ""))
}

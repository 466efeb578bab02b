//! `urlsift check`: for each record whose URL fails to parse or parses with
//! spec validation errors, print the source, line number, the errors by
//! the spec's names, and the URL.
//!
//! Text form: `FILE:LINE: invalid: name, name: INPUT` (or `valid with
//! errors`; WARC records, whose lines are not counted, show `FILE: record
//! at byte N`). Records that are not usable at all (invalid UTF-8, NUL
//! byte, over long, a bad CSV quote, invalid JSON, ...) are reported under
//! our own names (`invalid-UTF-8`, `NUL-byte`, `line-too-long`, ...), with
//! the raw record shown as a quoted, escaped string. `--json` prints one
//! object per reported record:
//! `{"source":..,"line":..,"offset":..,"input":..,"valid":..,"errors":[..]}`.

use std::process::ExitCode;

use urlsift::{Url, ValidationError};
use urlsift_records::{Location, PerRecord, Processed, Reason, Rec};
use urlsift_simd::Runtime;

use crate::args::CheckArgs;
use crate::error::CliError;
use crate::naming::Named;
use crate::setup::{Setup, Text};

/// One reported record.
struct Finding<'a> {
    source: &'a str,
    rec: &'a Rec<'a>,
    input: &'a str,
    /// Show the input quoted and escaped (it was not clean text).
    quote_input: bool,
    valid: bool,
    errors: &'a [&'a str],
}

fn report(out: &mut Vec<u8>, json: bool, f: Finding<'_>, term: u8) {
    let Finding {
        source,
        rec,
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
                r#"{{"source":{},"line":{},"offset":{},"input":{},"valid":{valid},"errors":[{}]}}"#,
                s(source),
                rec.line,
                rec.offset,
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
                "{}: {status}: {}: {shown}",
                Location::new(source, rec.line, rec.offset),
                errors.join(", ")
            )
            .as_bytes(),
        );
    }
    out.push(term);
}

pub fn run(a: CheckArgs) -> Result<ExitCode, CliError> {
    let mut setup = Setup::new(
        &a.input,
        &a.output,
        None,
        false,
        match a.json {
            true => Text(Some(Named::Jsonl), "JSON lines"),
            false => Text(None, "a text report"),
        },
        // Reports carry line numbers, printed by the workers.
        |b| b.count_lines(true),
    )?;
    let base = a.input.base()?;
    let (terminator, json) = (setup.terminator, a.json);
    let job = setup.job(false);
    // The report is the output: the summary is shown only on request.
    setup.report.quiet = setup.report.quiet || !setup.report.verbose;
    setup.run_chunks(|chunk| {
        let checker = Checker {
            source: &chunk.source().name,
            base: base.as_ref(),
            json,
            terminator,
            errors: Vec::new(),
            names: Vec::new(),
            reported: false,
        };
        job.run_in(Runtime, chunk, (), checker)
    })
}

/// Reports each record that is bad or carries validation errors.
struct Checker<'a> {
    source: &'a str,
    base: Option<&'a Url>,
    json: bool,
    terminator: u8,
    errors: Vec<ValidationError>,
    names: Vec<&'static str>,
    /// The URL just failed and was reported with its validation errors.
    reported: bool,
}

impl PerRecord<()> for Checker<'_> {
    // Lines are split by the fused line scan, as for every subcommand.
    const SCANS_URLS: bool = true;

    /// A line the fast path proved clean (`Line::is_clean`: in normal form
    /// and of a shape in which no validation error can arise) has nothing
    /// to report; the others go through the state machine, which reports
    /// the errors a URL in normal form may still carry (`%zz`, `|`, a
    /// host with `_`). With `--base` every line does.
    #[inline(always)]
    fn line_of(
        &mut self,
        p: &mut Processed<()>,
        rec: &Rec<'_>,
        line: &urlsift::batch::Line<'_>,
    ) -> Result<(), Reason> {
        if self.base.is_none() && line.is_clean() {
            self.reported = false;
            return Ok(());
        }
        self.url(p, rec, line.as_str())
    }

    fn url(&mut self, p: &mut Processed<()>, rec: &Rec<'_>, text: &str) -> Result<(), Reason> {
        self.errors.clear();
        let parsed = Url::parse_with_reporter(text, self.base, &mut self.errors);
        self.names.clear();
        for e in &self.errors {
            if !self.names.contains(&e.name()) {
                self.names.push(e.name());
            }
        }
        let failed = parsed.err().map(Reason::Url);
        if let Some(reason) = failed
            && !self.names.contains(&reason.key())
        {
            self.names.push(reason.key());
        }
        // Valid URLs are listed only when they carry errors.
        if failed.is_some() || !self.names.is_empty() {
            report(
                p.append(),
                self.json,
                Finding {
                    source: self.source,
                    rec,
                    input: text,
                    quote_input: false,
                    valid: failed.is_none(),
                    errors: &self.names,
                },
                self.terminator,
            );
        }
        self.reported = failed.is_some();
        failed.map_or(Ok(()), Err)
    }

    fn bad(&mut self, p: &mut Processed<()>, rec: &Rec<'_>, reason: Reason) {
        if std::mem::take(&mut self.reported) {
            return;
        }
        let raw = rec.raw();
        let lossy = String::from_utf8_lossy(raw);
        let shown = if reason == Reason::TooLong {
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
            self.json,
            Finding {
                source: self.source,
                rec,
                input: &shown,
                quote_input: true,
                valid: false,
                errors: &e,
            },
            self.terminator,
        );
    }
}

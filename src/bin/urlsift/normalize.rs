//! `urlsift normalize`: each URL's WHATWG href, in input order, and the
//! named profiles beyond the standard (`urlsift::profile` documents them).
//! Records of the formats that can be written back (CSV, TSV, JSON lines,
//! CDXJ) go out with only their URL field changed; the others give URL
//! lines.

use std::process::ExitCode;

use urlsift::Url;
use urlsift::profile::Profile;

use crate::args::{NormalizeArgs, ProfileArgs};
use crate::output::CliError;
use crate::records::Shape;
use crate::select::{Stage, Verdict};

/// The profile chosen by the flags, validated.
pub fn profile(a: &ProfileArgs) -> Result<Profile, CliError> {
    let mut p = Profile::new()
        .strip_fragment(a.strip_fragment)
        .sort_query(a.sort_query)
        .surt(a.surt);
    if let Some(globs) = &a.strip_params {
        p = p.strip_params(globs.split(',').map(str::trim)).map_err(|_| {
            CliError::Usage(format!(
                "--strip-params {globs:?}: empty glob (use a comma-separated list such as 'utm_*,fbclid')"
            ))
        })?;
    }
    Ok(p)
}

/// Parses `--base`, or explains why it is unusable.
pub fn parse_base(base: &Option<String>) -> Result<Option<Url>, CliError> {
    match base {
        None => Ok(None),
        Some(b) => Url::parse(b)
            .map(Some)
            .map_err(|e| CliError::Usage(format!("--base {b:?}: {e}"))),
    }
}

pub fn run(a: NormalizeArgs) -> Result<ExitCode, CliError> {
    let setup = crate::Setup::new(&a.input, &a.output, Some(&a.policy), true)?;
    let profile = profile(&a.profile)?;
    let base = parse_base(&a.input.base)?;
    let stage = Stage::new(&a.input.sites, Some(&a.filters), Some(&a.edits))?;
    if !profile.is_surt() && !stage.has_edits() {
        // Filters alone read the URL where it lies: the href path.
        let filters = stage.filters().then_some(&stage);
        return setup.run_hrefs(base.as_ref(), &profile, filters);
    }
    let terminator = setup.terminator;
    setup.run_records(true, |job, chunk| {
        let mut key = Vec::new();
        job.run_parsed(chunk, base.as_ref(), (), |p, rec, text, parser| {
            let url = parser.last_mut().expect("parsed");
            if stage.apply(url, &mut p.tally) == Verdict::Drop {
                return Ok(());
            }
            if let Some(form) = profile.apply_href(url.href()) {
                if form == text {
                    // Kept as it came: a run of input, as without the stage.
                    match rec.unchanged_run(terminator) {
                        Some(run) => p.copy_input(run),
                        None => {
                            p.flush();
                            rec.write_unchanged(&mut p.out, terminator);
                        }
                    }
                } else {
                    p.flush();
                    rec.write_url(&mut p.out, &form, terminator);
                }
                return Ok(());
            }
            p.flush();
            if matches!(rec.shape, Shape::Line | Shape::ReadOnly) {
                profile.apply(url, &mut p.out);
                p.out.push(terminator);
            } else {
                key.clear();
                profile.apply(url, &mut key);
                let key = std::str::from_utf8(&key).expect("profile output is UTF-8");
                rec.write_url(&mut p.out, key, terminator);
            }
            Ok(())
        })
    })
}

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
use crate::select::Stage;

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
    let mut setup = crate::Setup::new(&a.input, &a.output, Some(&a.policy), true)?;
    // Line numbers only go into rejects, which the writer numbers.
    setup.engine.read.count_lines = false;
    let profile = profile(&a.profile)?;
    let base = parse_base(&a.input.base)?;
    let stage = Stage::new(&a.input.sites, Some(&a.filters), Some(&a.edits))?;
    if !profile.is_surt() && !stage.is_active() {
        return setup.run_hrefs(base.as_ref(), &profile);
    }
    let terminator = setup.terminator;
    setup.run_per_url(base.as_ref(), &stage, true, |url, rec, text, out| {
        if let Some(form) = profile.apply_href(url.href()) {
            if form == text {
                rec.write_unchanged(out, terminator);
            } else {
                rec.write_url(out, &form, terminator);
            }
        } else if matches!(rec.shape, Shape::Line | Shape::ReadOnly) {
            profile.apply(url, out);
            out.push(terminator);
        } else {
            let mut key = Vec::new();
            profile.apply(url, &mut key);
            let key = String::from_utf8(key).expect("profile output is UTF-8");
            rec.write_url(out, &key, terminator);
        }
    })
}

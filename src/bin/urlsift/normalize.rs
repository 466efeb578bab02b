//! `urlsift normalize`: each line's WHATWG href, in input order, and the
//! named profiles beyond the standard (`urlsift::profile` documents them).

use std::process::ExitCode;

use urlsift::Url;
use urlsift::profile::Profile;

use crate::args::{NormalizeArgs, ProfileArgs};
use crate::output::CliError;

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
    let setup = crate::Setup::new(&a.input, &a.output, Some(&a.policy))?;
    let profile = profile(&a.profile)?;
    let base = parse_base(&a.input.base)?;
    if !profile.is_surt() {
        return setup.run_hrefs(base.as_ref(), &profile);
    }
    setup.run_per_url(base.as_ref(), true, |url, _, _, out| {
        profile.apply(url, out)
    })
}

//! `urlsift normalize`: each URL's WHATWG href, in input order, and the
//! named profiles beyond the standard (`urlsift::profile` documents them).
//! Records of the formats that can be written back (CSV, TSV, JSON lines,
//! CDXJ) go out with only their URL field changed; the others give URL
//! lines.

use std::process::ExitCode;

use urlsift::profile::Profile;
use urlsift::{ParseError, Url, UrlRef};
use urlsift_records::stage::{Stage, Verdict};
use urlsift_records::{OnView, Processed, Reason, Rec, Shape};

use crate::args::NormalizeArgs;
use crate::error::CliError;
use crate::setup::{Setup, URL_LINES};

pub fn run(a: NormalizeArgs) -> Result<ExitCode, CliError> {
    let setup = Setup::new(&a.input, &a.output, Some(&a.policy), true, URL_LINES, |b| b)?;
    let profile = a.profile.profile()?;
    let base = a.input.base()?;
    let stage = a.input.stage(Some(&a.filters), Some(&a.edits))?;
    if profile.reads_text() {
        text_form_usage(base.as_ref(), &stage)?;
        let filters = stage.filters().then_some(&stage);
        let terminator = setup.terminator;
        return setup.run_records(true, |job, chunk| {
            let texts = Texts {
                profile: &profile,
                filters,
                terminator,
            };
            if filters.is_some() {
                return job.run_viewed(chunk, base.as_ref(), (), texts);
            }
            // No filter: the text alone, never parsed by the standard.
            job.run_with(chunk, (), |p, rec, text| texts.write(p, rec, text))
        });
    }
    if !profile.needs_url() && !stage.has_edits() {
        // Filters alone read the URL where it lies: the href path.
        let filters = stage.filters().then_some(&stage);
        return run_hrefs(setup, base.as_ref(), &profile, filters);
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
                        None => rec.write_unchanged(p.append(), terminator),
                    }
                } else {
                    rec.write_url(p.append(), &form, terminator);
                }
                return Ok(());
            }
            let out = p.append();
            if matches!(rec.shape, Shape::Line | Shape::ReadOnly) {
                profile.apply(url, out);
                out.push(terminator);
            } else {
                key.clear();
                profile.apply(url, &mut key);
                let key = std::str::from_utf8(&key).expect("profile output is UTF-8");
                rec.write_url(out, key, terminator);
            }
            Ok(())
        })
    })
}

/// Refuses what a form read from the raw text (`--canonical w3lib`,
/// `urlcanon-*`)
/// cannot take: a base (it resolves by the URL Standard) and edits (they
/// change the parsed URL).
pub fn text_form_usage(base: Option<&Url>, stage: &Stage) -> Result<(), CliError> {
    if base.is_some() {
        return Err(CliError::Usage(
            "--base resolves by the URL Standard; --canonical w3lib and urlcanon-* read each text as their tool does, unresolved".into(),
        ));
    }
    if stage.has_edits() {
        return Err(CliError::Usage(
            "--canonical w3lib and urlcanon-* read each URL's text as their tool does; the edits (--set, --clear, ...) change the parsed URL: use one or the other".into(),
        ));
    }
    Ok(())
}

/// Writes each URL in `profile`'s form (not SURT, which needs the parsed
/// host) from its href alone: a record that is already its own output
/// (the fast path proves most URLs are their own href, and most profiles
/// leave most hrefs alone) is not copied on its own, as runs of such
/// records are copied from the input at once.
fn run_hrefs(
    setup: Setup,
    base: Option<&Url>,
    profile: &Profile,
    filters: Option<&Stage>,
) -> Result<ExitCode, CliError> {
    let terminator = setup.terminator;
    setup.run_records(true, |job, chunk| {
        if filters.is_some() {
            let hrefs = Hrefs::<true> {
                profile,
                filters,
                terminator,
            };
            return job.run_viewed(chunk, base, (), hrefs);
        }
        let hrefs = Hrefs::<false> {
            profile,
            filters,
            terminator,
        };
        job.run_viewed(chunk, base, (), hrefs)
    })
}

/// `normalize` with a non-SURT profile and no edits: each record's href,
/// from the URL as the fast path proved it. Records already in normal form
/// are copied from the input as runs. Filters read the view before
/// anything is written.
/// `FILTERED`: whether `filters` may be set. Without filters only the
/// href is read, and the view's other components are never made (a
/// per-record test of `filters` alone kept them, at 3-5% of a run).
struct Hrefs<'a, const FILTERED: bool> {
    profile: &'a Profile,
    filters: Option<&'a Stage>,
    terminator: u8,
}

impl<const FILTERED: bool> OnView<()> for Hrefs<'_, FILTERED> {
    #[inline(always)]
    fn view(
        &mut self,
        p: &mut Processed<()>,
        rec: &Rec<'_>,
        text: &str,
        url: Result<UrlRef<'_>, ParseError>,
    ) -> Result<(), Reason> {
        if FILTERED
            && let (Some(stage), Ok(url)) = (self.filters, url)
            && stage.filter(url, &mut p.tally) == Verdict::Drop
        {
            return Ok(());
        }
        let href = url.map(|v| v.href());
        write_href(p, rec, self.profile, self.terminator, text, href)
    }
}

/// `normalize` with a form read from the raw text (`--canonical w3lib`):
/// each record's text in that form, filters (if any) judging the URL the
/// standard parses from it.
struct Texts<'a> {
    profile: &'a Profile,
    filters: Option<&'a Stage>,
    terminator: u8,
}

impl OnView<()> for Texts<'_> {
    fn view(
        &mut self,
        p: &mut Processed<()>,
        rec: &Rec<'_>,
        text: &str,
        url: Result<UrlRef<'_>, ParseError>,
    ) -> Result<(), Reason> {
        if let Some(stage) = self.filters
            && stage.filter(url.map_err(Reason::Url)?, &mut p.tally) == Verdict::Drop
        {
            return Ok(());
        }
        self.write(p, rec, text)
    }
}

impl Texts<'_> {
    /// Writes `rec` with its URL `text` in the profile's form.
    fn write(&self, p: &mut Processed<()>, rec: &Rec<'_>, text: &str) -> Result<(), Reason> {
        let form = self
            .profile
            .apply_text(text)
            .expect("a profile that reads text")
            .map_err(Reason::Canonical)?;
        if Rec::is_own_text(&form, text)
            && let Some(run) = rec.unchanged_run(self.terminator)
        {
            p.copy_input(run);
            return Ok(());
        }
        rec.write_url(p.append(), &form, self.terminator);
        Ok(())
    }
}

/// Writes `rec` given the href of its URL `text`: the record itself, as a
/// run of input, when nothing changed.
#[inline(always)]
fn write_href(
    p: &mut Processed<()>,
    rec: &Rec<'_>,
    profile: &Profile,
    terminator: u8,
    text: &str,
    href: Result<&str, ParseError>,
) -> Result<(), Reason> {
    let href = href.map_err(Reason::Url)?;
    let form = profile.apply_href(href).expect("not a SURT profile");
    if Rec::is_own_text(&form, text)
        && let Some(run) = rec.unchanged_run(terminator)
    {
        p.copy_input(run);
        return Ok(());
    }
    rec.write_url(p.append(), &form, terminator);
    Ok(())
}

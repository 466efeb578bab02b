//! `dedup`'s engine: keep the first record of each key, in input order.
//!
//! Workers parse each chunk's URLs and make their keys in parallel
//! ([`Keying`]: the key bytes, their xxh3-64 hash, the record as it is
//! written out); the thread that sees chunks in input order offers them to
//! the seen-set ([`Seen`]), which writes each first occurrence. Past its
//! memory budget the seen-set moves to hash-partitioned spill files,
//! reduced and merged back in input order at the end, so inputs larger
//! than memory work.
//!
//! ```
//! use urlsift::profile::Profile;
//! use urlsift_records::dedup::{Key, Keying, Seen};
//! use urlsift_records::stage::{Edits, Filters, Stage};
//! use urlsift_records::{Engine, Job, Options};
//! use urlsift::site::List;
//!
//! let tmp = tempfile::Builder::new().prefix("urlsift-doc-dedup-").tempdir()?;
//! let dir = tmp.path();
//! let path = dir.join("urls.txt");
//! std::fs::write(&path, "https://a.example/1\nhttps://b.example/\nhttps://a.example/2\n")?;
//!
//! let engine = Engine::new(vec![path], &Options::default())?;
//! let stage = Stage::new(List::builtin(), &Filters::default(), &Edits::default())?;
//! let profile = Profile::new();
//! let keying = Keying { key: Key::Host, profile: &profile, stage: &stage, terminator: b'\n', with_key: false };
//! let job = Job::default();
//! let mut seen = Seen::new(1 << 30, false, None, b'\n');
//! let mut out = Vec::new();
//! engine.run(
//!     |chunk| keying.chunk(&job, chunk, None, Default::default()),
//!     |chunk, p| seen.offer_chunk(chunk, p, &mut out).map(|()| true),
//! )?;
//! assert_eq!(seen.finish(&mut out)?, 2);
//! assert_eq!(out, b"https://a.example/1\nhttps://b.example/\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod ahead;
mod arena;
mod deal;
mod keys;
mod keyset;
mod seen;
#[cfg(test)]
mod seen_tests;
mod spill;
mod table;
mod view;

pub use ahead::Ahead;
#[cfg(feature = "parquet")]
pub(crate) use deal::push_frame_key;
pub use keys::{Keyed, Keys};
pub use seen::Seen;
pub(crate) use spill::spill_dir;
pub use spill::{Spill, merge};
pub use urlsift::key::{
    Key, Names, PatternKeyOptions, href_key_len, write_key, write_pattern, write_pattern_key,
};

use std::borrow::Cow;

use xxhash_rust::xxh3::xxh3_64;

use urlsift::profile::Profile;
use urlsift::{ParseError, Url, UrlRef};

use super::chunk::Chunk;
use super::format::{Rec, Shape};
use super::processed::Processed;
use super::reason::Reason;
use super::stage::{Stage, Verdict};
use super::walk::{Job, OnView};
use keys::{Held, Place};

/// How the workers key a chunk's records: by `key`, after the `profile`
/// (which also gives the records their output form) and the `stage`
/// (edits and filters); URL lines end with `terminator`.
pub struct Keying<'a> {
    /// What makes two records duplicates.
    pub key: Key,
    /// The output form of each URL (and of the `href` keys).
    pub profile: &'a Profile,
    /// Edits and filters, before keys.
    pub stage: &'a Stage,
    /// What ends a URL line written out.
    pub terminator: u8,
    /// Each record goes out after its key and a tab (`dedup --count
    /// --with-key`): `KEY<TAB>RECORD`.
    pub with_key: bool,
}

impl Keying<'_> {
    /// Keys the records of `chunk` (URLs resolved against `base`) into
    /// `keys`, a buffer recycled from an earlier chunk or a new one.
    ///
    /// Keys read from the URL's output form alone (`href`, `no-fragment`,
    /// without edits or SURT) take the view path: no `Url` is built, and a
    /// line already in its output form is not copied at all.
    pub fn chunk(
        &self,
        job: &Job,
        chunk: &Chunk,
        base: Option<&Url>,
        keys: Keys,
    ) -> Processed<Keys> {
        let href_keys = matches!(self.key, Key::Href | Key::NoFragment | Key::Canonical)
            && !self.with_key
            && (!self.profile.needs_url() || self.profile.reads_text())
            && !self.stage.has_edits();
        if href_keys {
            let href_keys = HrefKeys {
                profile: self.profile,
                stage: self.stage,
                kind: self.key,
                terminator: self.terminator,
            };
            return job.run_viewed(chunk, base, keys, href_keys);
        }
        let (profile, stage, key_kind, term) =
            (self.profile, self.stage, self.key, self.terminator);
        let with_key = self.with_key;
        // One batch parser per chunk: no allocation per URL.
        let mut form = Vec::new();
        job.run_parsed::<Keys>(chunk, base, keys, |p, rec, _, parser| {
            let url = parser.last_mut().expect("parsed");
            if stage.apply(url, &mut p.tally) == Verdict::Drop {
                return Ok(());
            }
            let url = &*url;
            p.flush();
            let start = p.out.len();
            let key_start = p.extra.keys.len();
            if key_kind == Key::Canonical {
                // Keyed by the form, the record written as it came (after
                // the key and a tab with --with-key).
                form.clear();
                profile.apply(url, &mut form);
                let keys = &mut p.extra.keys;
                write_key(key_kind, url, &form, keys, &mut p.extra.names, &stage.list);
                if with_key {
                    p.out.extend_from_slice(&p.extra.keys[key_start..]);
                    p.out.push(b'\t');
                }
                rec.write_unchanged(&mut p.out, term);
            } else if with_key {
                // The key first, then the record (either shape).
                form.clear();
                profile.apply(url, &mut form);
                let keys = &mut p.extra.keys;
                write_key(key_kind, url, &form, keys, &mut p.extra.names, &stage.list);
                p.out.extend_from_slice(&p.extra.keys[key_start..]);
                p.out.push(b'\t');
                if matches!(rec.shape, Shape::Line | Shape::ReadOnly) {
                    p.out.extend_from_slice(&form);
                    p.out.push(term);
                } else {
                    let form = std::str::from_utf8(&form).expect("profile output is UTF-8");
                    rec.write_url(&mut p.out, form, term);
                }
            } else if matches!(rec.shape, Shape::Line | Shape::ReadOnly) {
                profile.apply(url, &mut p.out);
                let (out, keys) = (&p.out[start..], &mut p.extra.keys);
                write_key(key_kind, url, out, keys, &mut p.extra.names, &stage.list);
                p.out.push(term);
            } else {
                // A record goes out with its URL field in profile form.
                form.clear();
                profile.apply(url, &mut form);
                write_key(
                    key_kind,
                    url,
                    &form,
                    &mut p.extra.keys,
                    &mut p.extra.names,
                    &stage.list,
                );
                let form = std::str::from_utf8(&form).expect("profile output is UTF-8");
                rec.write_url(&mut p.out, form, term);
            }
            let hash = xxh3_64(&p.extra.keys[key_start..]);
            let place = Place::Out {
                end: p.out.len(),
                key: (key_start, p.extra.keys.len()),
            };
            p.extra.held.push(Held {
                at: start,
                place,
                hash,
            });
            Ok(())
        })
    }
}

/// A chunk's keys when the key is the URL's output form, or its part
/// before the fragment, and no edit is set: each URL is read as a view
/// (the fast path's proof; no `Url` is built), and a line that is already
/// its own output is not copied at all: the writer takes its key and its
/// line from the chunk's input.
struct HrefKeys<'a> {
    profile: &'a Profile,
    stage: &'a Stage,
    kind: Key,
    terminator: u8,
}

impl OnView<Keys> for HrefKeys<'_> {
    #[inline(always)]
    fn view(
        &mut self,
        p: &mut Processed<Keys>,
        rec: &Rec<'_>,
        text: &str,
        url: Result<UrlRef<'_>, ParseError>,
    ) -> Result<(), Reason> {
        let form = if let Some(form) = self.profile.apply_text(text) {
            // A form of the raw text (`--canonical w3lib`): the standard's
            // parse matters only to the filters.
            if self.stage.filters() {
                let url = url.map_err(Reason::Url)?;
                if self.stage.filter(url, &mut p.tally) == Verdict::Drop {
                    return Ok(());
                }
            }
            Cow::Owned(form.map_err(Reason::Canonical)?)
        } else {
            let url = url.map_err(Reason::Url)?;
            if self.stage.filter(url, &mut p.tally) == Verdict::Drop {
                return Ok(());
            }
            self.profile
                .apply_href(url.href())
                .expect("not a SURT profile")
        };
        let at = p.out.len();
        let line = &rec.data[rec.start..rec.end];
        if rec.shape == Shape::Line
            && Rec::is_own_text(&form, text)
            && std::ptr::eq(text.as_bytes(), line)
        {
            let key_end = rec.start + href_key_len(self.kind, line);
            let hash = xxh3_64(&rec.data[rec.start..key_end]);
            let place = Place::Input {
                start: rec.start,
                end: rec.end,
                key_end,
            };
            p.extra.held.push(Held { at, place, hash });
            return Ok(());
        }
        p.flush();
        if self.kind == Key::Canonical {
            // Keyed by the form, written as it came.
            rec.write_unchanged(&mut p.out, self.terminator);
        } else {
            rec.write_url(&mut p.out, &form, self.terminator);
        }
        let key_start = p.extra.keys.len();
        let key = &form.as_bytes()[..href_key_len(self.kind, form.as_bytes())];
        p.extra.keys.extend_from_slice(key);
        let hash = xxh3_64(key);
        let place = Place::Out {
            end: p.out.len(),
            key: (key_start, p.extra.keys.len()),
        };
        p.extra.held.push(Held { at, place, hash });
        Ok(())
    }
}

//! WACZ files (Web Archive Collection Zipped, 1.x): the ZIP that
//! ArchiveWeb.page, Browsertrix and py-wacz write, read as the files it
//! holds. A WACZ is known by its name (`.wacz`) or by its content: a ZIP
//! whose directory lists `datapackage.json`. Its WARC files lie under
//! `archive/`, its page lists under `pages/` (`*.jsonl`), its indexes under
//! `indexes/`; [`expand`] turns each WACZ among a run's inputs into the
//! entries of the part the run reads, in ZIP order, each a [`Location`]
//! named `x.wacz#archive/data.warc.gz`.
//!
//! ```
//! use std::path::PathBuf;
//! use urlsift_input::wacz::{self, Part};
//! use urlsift_input::zip;
//!
//! # let tmp = tempfile::Builder::new().prefix("urlsift-doc-wacz-").tempdir()?;
//! # let dir = tmp.path();
//! let path = dir.join("x.wacz");
//! std::fs::write(&path, zip::stored(&[
//!     ("datapackage.json", b"{}"),
//!     ("archive/a.warc", b"WARC/1.1\r\n"),
//!     ("pages/pages.jsonl", b"{}\n"),
//! ]))?;
//! let inputs = wacz::expand(&[path.clone()], Part::Archive)?;
//! assert_eq!(inputs.len(), 1);
//! assert!(inputs[0].name().ends_with("x.wacz#archive/a.warc"));
//! // A WACZ with no WARC inside is refused, naming what it holds.
//! std::fs::write(&path, zip::stored(&[("datapackage.json", b"{}")]))?;
//! let e = wacz::expand(&[path], Part::Archive).unwrap_err();
//! assert!(e.error.to_string().contains("no WARC file under archive/"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::{InputError, Location, display_name, zip};

/// Which files of a WACZ a run reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The WARC files under `archive/`.
    Archive,
    /// The page lists, `pages/*.jsonl`.
    Pages,
}

impl Part {
    /// Whether the entry `name` belongs to this part.
    ///
    /// ```
    /// use urlsift_input::wacz::Part;
    /// assert!(Part::Archive.holds("archive/data.warc.gz"));
    /// assert!(!Part::Archive.holds("archive/"));
    /// assert!(Part::Pages.holds("pages/extraPages.jsonl"));
    /// assert!(!Part::Pages.holds("data/pages/x.jsonl"));
    /// ```
    pub fn holds(self, name: &str) -> bool {
        match self {
            Part::Archive => name
                .strip_prefix("archive/")
                .is_some_and(|n| !n.is_empty() && !n.ends_with('/')),
            Part::Pages => name
                .strip_prefix("pages/")
                .is_some_and(|n| !n.contains('/') && n.ends_with(".jsonl")),
        }
    }

    fn what(self) -> &'static str {
        match self {
            Part::Archive => "no WARC file under archive/",
            Part::Pages => "no page list (pages/*.jsonl)",
        }
    }
}

/// Whether the regular file at `path` is a WACZ: named `.wacz`, or a ZIP
/// (by its first bytes) whose directory lists `datapackage.json`. A file
/// that cannot be read is not (its error comes when it is read). An
/// object ([`crate::is_remote`]) is one when named `.wacz`, or named
/// `.zip` and its content says so (its first bytes, then its ZIP
/// directory, asked for by ranges): other objects are not asked for
/// more, so a run over thousands of `part-00000` objects sends no request
/// per object to find out.
///
/// ```
/// use std::path::Path;
/// use urlsift_input::wacz::is_wacz;
///
/// assert!(is_wacz(Path::new("s3://my-bucket/crawls/2026-11.wacz")));
/// assert!(!is_wacz(Path::new("s3://my-bucket/crawls/2026-11.warc.gz")));
/// ```
pub fn is_wacz(path: &Path) -> bool {
    if let Some(url) = path.to_str().filter(|p| crate::is_remote(p)) {
        return named(path) || (named_maybe_zip(url) && object_is_wacz(url));
    }
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    if named(path) {
        return true;
    }
    let mut head = [0u8; 4];
    let starts_zip = File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| zip::starts(&head));
    starts_zip && zip::entries(path).is_ok_and(|e| e.iter().any(|e| e.name == "datapackage.json"))
}

/// Whether an object's name leaves room for a WACZ by content: `.zip`.
fn named_maybe_zip(url: &str) -> bool {
    let last = url.rsplit('/').next().unwrap_or(url);
    last.rsplit_once('.')
        .is_some_and(|(_, e)| e.eq_ignore_ascii_case("zip"))
}

/// Whether the object `url` is a ZIP (its first bytes) whose directory
/// lists `datapackage.json`.
#[cfg(feature = "remote")]
fn object_is_wacz(url: &str) -> bool {
    let head = crate::remote::read_ranges(&[(url, 0..4)]).pop();
    head.is_some_and(|h| h.is_ok_and(|h| zip::starts(&h)))
        && zip::entries(Path::new(url))
            .is_ok_and(|e| e.iter().any(|e| e.name == "datapackage.json"))
}

#[cfg(not(feature = "remote"))]
fn object_is_wacz(_: &str) -> bool {
    false
}

fn named(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wacz"))
}

/// `files` with each WACZ among them ([`is_wacz`]) replaced by its entries
/// of `part`, in ZIP order; the rest stay as they are. Refused, naming the
/// WACZ: one whose directory cannot be read, or that holds nothing of
/// `part` (saying what it holds).
pub fn expand(files: &[PathBuf], part: Part) -> Result<Vec<Location>, InputError> {
    let mut out = Vec::with_capacity(files.len());
    for file in files {
        if file.as_os_str() == "-" || !is_wacz(file) {
            out.push(Location::File(file.clone()));
            continue;
        }
        let refused = |error: io::Error| InputError {
            name: display_name(file),
            error,
            usage: false,
        };
        let entries = zip::entries(file).map_err(|e| {
            refused(io::Error::new(
                e.kind(),
                format!("not a readable WACZ: {e}"),
            ))
        })?;
        let zip_path = Arc::new(file.clone());
        let before = out.len();
        for entry in entries.iter().filter(|e| part.holds(&e.name)) {
            out.push(Location::Entry {
                zip: Arc::clone(&zip_path),
                entry: Arc::new(entry.clone()),
            });
        }
        if out.len() == before {
            let held: Vec<&str> = entries.iter().map(|e| e.name.as_str()).take(8).collect();
            let more = if entries.len() > 8 { ", ..." } else { "" };
            return Err(refused(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "a WACZ with {} (it holds: {}{more})",
                    part.what(),
                    if held.is_empty() {
                        "nothing".to_string()
                    } else {
                        held.join(", ")
                    }
                ),
            )));
        }
    }
    Ok(out)
}

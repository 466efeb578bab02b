//! How a run ends early: a usage error (flags that do not fit an input), an
//! input that cannot be opened, an output that cannot be written, or a bad
//! record under `--strict`. Read errors that end one source but not the
//! run (a cut `.gz`) are not errors here: [`Engine::run`](super::Engine::run)
//! returns them, after everything before them was processed.
//!
//! ```
//! use urlsift_records::{Error, Reason, Stop};
//!
//! let stop = Stop { source: "urls.txt".into(), line: 3, offset: 40, reason: Reason::NulByte };
//! assert_eq!(Error::Strict(stop).to_string(), "urls.txt:3: NUL byte (stopped by `strict`)");
//! ```

use std::fmt;
use std::io;

use super::input::InputError;
use super::reason::Reason;
use super::setting::{LibraryNames, Setting, SettingError, SettingNames};

/// Why a run stopped.
#[derive(Debug)]
pub enum Error {
    /// The flags do not fit the input (inputs of different formats, a
    /// worker thread that cannot start): nothing more is read.
    Usage(String),
    /// A format setting does not fit the input `source` (a CSV without
    /// the column named): nothing more is read.
    Setting {
        /// The input, as named in messages.
        source: String,
        /// Why.
        error: SettingError,
    },
    /// An input could not be opened (it is not there, say).
    Input(InputError),
    /// The output could not be written.
    Output(io::Error),
    /// The rejects could not be written.
    Rejects(io::Error),
    /// A spill file or directory (`dedup` beyond its memory budget) could
    /// not be made, written or read; `what` names it.
    Spill {
        /// What could not be written: `dedup spill file`, `spill directory
        /// in /tmp`.
        what: String,
        /// Why.
        error: io::Error,
    },
    /// A bad record under `--strict`.
    Strict(Stop),
}

/// Where a `--strict` run stopped: the first bad record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stop {
    /// The source, as named in messages.
    pub source: String,
    /// The record's line in its source (0 where lines are not counted).
    pub line: u64,
    /// Where the record starts in its source (after decompression).
    pub offset: u64,
    /// Why it is bad.
    pub reason: Reason,
}

impl Stop {
    /// The message, the strict setting named by `names`.
    pub fn message(&self, names: &dyn SettingNames) -> String {
        format!(
            "{}: {} (stopped by {})",
            Location::new(&self.source, self.line, self.offset),
            self.reason,
            names.name(Setting::Strict)
        )
    }
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(&LibraryNames))
    }
}

/// Where a record is, in messages: `FILE:LINE`, or `FILE: record at byte
/// N` where lines are not counted (WARC).
///
/// ```
/// use urlsift_records::Location;
///
/// assert_eq!(Location::new("a.csv", 7, 310).to_string(), "a.csv:7");
/// assert_eq!(Location::new("c.warc", 0, 9000).to_string(), "c.warc: record at byte 9000");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Location<'a> {
    source: &'a str,
    line: u64,
    offset: u64,
}

impl<'a> Location<'a> {
    /// The record at `line` (0: not counted) and byte `offset` of `source`.
    pub fn new(source: &'a str, line: u64, offset: u64) -> Location<'a> {
        Location {
            source,
            line,
            offset,
        }
    }
}

impl fmt::Display for Location<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}", self.source, self.line)
        } else {
            write!(f, "{}: record at byte {}", self.source, self.offset)
        }
    }
}

impl Error {
    /// The message, each setting named by `names` (the command's flags,
    /// Python's keyword arguments); the same as `to_string` for errors
    /// that name none.
    pub fn message(&self, names: &dyn SettingNames) -> String {
        match self {
            Error::Setting { source, error } => format!("{source}: {}", error.message(names)),
            Error::Strict(stop) => stop.message(names),
            other => other.to_string(),
        }
    }

    /// The run's error for `e`, an input's error that says the settings
    /// do not fit it.
    pub fn usage(e: &InputError) -> Error {
        match SettingError::in_io(&e.error) {
            Some(error) => Error::Setting {
                source: e.name.clone(),
                error: error.clone(),
            },
            None => Error::Usage(format!("{}: {}", e.name, e.error)),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(m) => f.write_str(m),
            Error::Setting { source, error } => write!(f, "{source}: {error}"),
            Error::Input(e) => write!(f, "cannot read {e}"),
            Error::Output(e) => write!(f, "cannot write the output: {e}"),
            Error::Rejects(e) => write!(f, "cannot write the rejects: {e}"),
            Error::Spill { what, error } => write!(f, "cannot write {what}: {error}"),
            Error::Strict(stop) => stop.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Input(e) => Some(&e.error),
            Error::Output(e) | Error::Rejects(e) | Error::Spill { error: e, .. } => Some(e),
            Error::Setting { error, .. } => Some(error),
            Error::Usage(_) | Error::Strict(_) => None,
        }
    }
}

//! The command's error: why a run stops early, and with which exit
//! status; the library crates' errors become it here.

use std::fmt;
use std::io;

use urlsift_records::{InputError, Setting, SettingNames};

/// The library's settings as this command names them: its flags.
pub struct Flags;

impl SettingNames for Flags {
    fn name(&self, setting: Setting) -> String {
        match setting {
            Setting::Field => "--field",
            Setting::Delimiter => "--delimiter",
            Setting::InputFormat => "--input-format",
            Setting::Match => "--match",
            Setting::Strict => "--strict",
        }
        .to_string()
    }

    fn given(&self, setting: Setting, value: &str) -> String {
        format!("{} {value}", self.name(setting))
    }
}

/// Why a run stops early, and with which exit status.
#[derive(Debug)]
pub enum CliError {
    /// Bad flags or arguments (exit 2).
    Usage(String),
    /// An input could not be read (exit 2).
    Input(InputError),
    /// An output could not be written (exit 2).
    Output { name: String, error: io::Error },
    /// A bad line under `--strict` (exit 1).
    Strict(String),
    /// The reader of our stdout went away (exit 0, no message).
    BrokenPipe,
}

impl CliError {
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::BrokenPipe => 0,
            CliError::Strict(_) => 1,
            _ => 2,
        }
    }

    /// Wraps an output error, recognizing a closed pipe.
    pub fn output(name: &str, error: io::Error) -> CliError {
        if error.kind() == io::ErrorKind::BrokenPipe {
            CliError::BrokenPipe
        } else {
            CliError::Output {
                name: name.to_string(),
                error,
            }
        }
    }
}

impl CliError {
    /// The usage error of a stage's settings, named by their flags.
    pub fn stage(e: urlsift::stage::StageError) -> CliError {
        use urlsift::stage::StageSetting;
        CliError::Usage(e.message(&|s| match s {
            StageSetting::Match => "--match".to_string(),
            StageSetting::NotMatch => "--not-match".to_string(),
            other => format!("--{}", other.key().replace('_', "-")),
        }))
    }

    /// The command's error for the engine's `e`: output and rejects
    /// errors named by the sinks they happened in.
    pub fn from_run(e: urlsift_records::Error, out: &str, rejects: &str) -> CliError {
        match e {
            urlsift_records::Error::Usage(m) => CliError::Usage(m),
            urlsift_records::Error::Input(e) => CliError::Input(e),
            urlsift_records::Error::Output(e) => CliError::output(out, e),
            urlsift_records::Error::Rejects(e) => CliError::output(rejects, e),
            urlsift_records::Error::Spill { what, error } => CliError::output(&what, error),
            urlsift_records::Error::Strict(stop) => CliError::Strict(stop.message(&Flags)),
            e @ urlsift_records::Error::Setting { .. } => CliError::Usage(e.message(&Flags)),
        }
    }
}

/// `compare`'s errors: bad requests and unreadable inputs.
impl From<urlsift_compare::Error> for CliError {
    fn from(e: urlsift_compare::Error) -> CliError {
        match e {
            urlsift_compare::Error::Usage(m) => CliError::Usage(m),
            urlsift_compare::Error::Input(e) => CliError::Input(e),
            urlsift_compare::Error::Records(e) => e.into(),
        }
    }
}

/// The engine's errors outside a run that writes (opening inputs): a
/// write error there is named as the output.
impl From<urlsift_records::Error> for CliError {
    fn from(e: urlsift_records::Error) -> CliError {
        CliError::from_run(e, "<stdout>", "the rejects file")
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) => f.write_str(m),
            CliError::Input(e) => write!(f, "cannot read {e}"),
            CliError::Output { name, error } => write!(f, "cannot write {name}: {error}"),
            CliError::Strict(m) => f.write_str(m),
            CliError::BrokenPipe => f.write_str("broken pipe"),
        }
    }
}

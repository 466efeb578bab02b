//! Why a run's format settings do not fit an input, as a typed error: the
//! message names each setting the way its caller does ([`SettingNames`]:
//! the command its flags, `--field`; Python its keyword arguments,
//! `field=`), so no message of the library names a command's flag.
//!
//! ```
//! use urlsift_records::{Setting, SettingError, SettingNames};
//!
//! let e = SettingError::NameWithoutHeader { field: "link".into() };
//! assert_eq!(
//!     e.to_string(),
//!     "`field` \"link\": without a header row, name the column by number (1, 2, ...)"
//! );
//!
//! /// A command line's names.
//! struct Flags;
//! impl SettingNames for Flags {
//!     fn name(&self, setting: Setting) -> String {
//!         format!("--{}", setting.key().replace('_', "-"))
//!     }
//!     fn given(&self, setting: Setting, value: &str) -> String {
//!         format!("{} {value}", self.name(setting))
//!     }
//! }
//! assert_eq!(
//!     e.message(&Flags),
//!     "--field \"link\": without a header row, name the column by number (1, 2, ...)"
//! );
//! ```

use std::fmt;

/// A setting of a run that a [`SettingError`] may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Setting {
    /// Which field of a record holds the URL ([`Spec::field`](crate::Spec::field)).
    Field,
    /// The CSV/TSV delimiter ([`Spec::delimiter`](crate::Spec::delimiter)).
    Delimiter,
    /// The input format ([`Spec::kind`](crate::Spec::kind)).
    InputFormat,
    /// The URL patterns whose groups `match:NAME` fields take.
    Match,
    /// Stopping at the first bad record ([`Policy::strict`](crate::Policy::strict)).
    Strict,
}

impl Setting {
    /// The library's own name: the setting's field name.
    pub fn key(self) -> &'static str {
        match self {
            Setting::Field => "field",
            Setting::Delimiter => "delimiter",
            Setting::InputFormat => "input_format",
            Setting::Match => "match",
            Setting::Strict => "strict",
        }
    }
}

/// How a caller names its settings in messages.
pub trait SettingNames {
    /// The setting alone: `--field`, `field=`.
    fn name(&self, setting: Setting) -> String;
    /// The setting given `value` (already quoted as the caller writes it):
    /// `--delimiter ';'`, `delimiter=';'`.
    fn given(&self, setting: Setting, value: &str) -> String;
}

/// The library's names: each setting's key in backquotes (`` `field` ``).
#[derive(Clone, Copy, Debug, Default)]
pub struct LibraryNames;

impl SettingNames for LibraryNames {
    fn name(&self, setting: Setting) -> String {
        format!("`{}`", setting.key())
    }

    fn given(&self, setting: Setting, value: &str) -> String {
        format!("`{} = {value}`", setting.key())
    }
}

/// Why the format settings do not fit an input (or a field list).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingError {
    /// A CSV column number below 1.
    ColumnZero,
    /// A CSV column named while the input has no header row.
    NameWithoutHeader {
        /// The name given.
        field: String,
    },
    /// No column of that name.
    NoSuchColumn {
        /// The name given.
        field: String,
        /// The columns there are, quoted and joined.
        columns: String,
        /// A delimiter that would split a header read as one column.
        split_by: Option<String>,
    },
    /// No column named `url`, and none named by the field setting.
    NoUrlColumn {
        /// The columns there are, quoted and joined.
        columns: String,
        /// A delimiter that would split a header read as one column.
        split_by: Option<String>,
    },
    /// A JSON record without a `url` key, and none named.
    NoUrlKey {
        /// The first record's keys, quoted and joined.
        keys: String,
    },
    /// A log field other than the request or the referer.
    LogField {
        /// The name given.
        field: String,
    },
    /// The column named for URLs holds no strings.
    NotText {
        /// The column's name.
        column: String,
        /// What it holds.
        data_type: String,
    },
    /// A field named for URL lines, which have none.
    FieldOfLines,
    /// A delimiter for a text input that is not CSV or TSV (reading it
    /// as CSV may be what was meant).
    DelimiterOfOther {
        /// What the input is read as (a format's name: `lines`, `jsonl`).
        kind: &'static str,
    },
    /// A delimiter for a Parquet file, whose columns need none.
    DelimiterOfParquet,
    /// `@` without a field name.
    RecordWithoutName,
    /// `match:` without a group name.
    MatchWithoutName,
    /// An extract field name that is none of the fields.
    UnknownField {
        /// The name given.
        name: String,
        /// The fields there are, joined.
        known: String,
    },
}

impl SettingError {
    /// The message, each setting named by `names`.
    pub fn message(&self, names: &dyn SettingNames) -> String {
        let hint = |split_by: &Option<String>| match split_by {
            Some(d) => format!(
                "; the header reads as one column: if its delimiter is {d:?}, say {}",
                names.given(Setting::Delimiter, &format!("'{d}'"))
            ),
            None => String::new(),
        };
        match self {
            SettingError::ColumnZero => {
                format!(
                    "{}: columns are numbered from 1",
                    names.name(Setting::Field)
                )
            }
            SettingError::NameWithoutHeader { field } => format!(
                "{} {field:?}: without a header row, name the column by number (1, 2, ...)",
                names.name(Setting::Field)
            ),
            SettingError::NoSuchColumn {
                field,
                columns,
                split_by,
            } => {
                format!("no column {field:?} (columns: {columns}){}", hint(split_by))
            }
            SettingError::NoUrlColumn { columns, split_by } => format!(
                "no column named \"url\" (columns: {columns}); name the URL column with {}{}",
                names.name(Setting::Field),
                hint(split_by)
            ),
            SettingError::NoUrlKey { keys } => format!(
                "the first record has no key named \"url\" (keys: {keys}); name the URL field \
                 with {} (a key or a dotted path such as request.url)",
                names.name(Setting::Field)
            ),
            SettingError::LogField { field } => format!(
                "{} {field:?}: a log's URL field is `request` or `referer`",
                names.name(Setting::Field)
            ),
            SettingError::NotText { column, data_type } => {
                format!("column {column:?} is {data_type}, not a string column")
            }
            SettingError::FieldOfLines => format!(
                "{} names a field of a record; `lines` input is one URL per line \
                 (choose a format with {})",
                names.name(Setting::Field),
                names.name(Setting::InputFormat)
            ),
            SettingError::DelimiterOfParquet => format!(
                "{} is for CSV and TSV input; this input is read as parquet",
                names.name(Setting::Delimiter)
            ),
            SettingError::DelimiterOfOther { kind } => format!(
                "{} is for CSV and TSV input; this input is read as {kind} \
                 (name the format with {})",
                names.name(Setting::Delimiter),
                names.given(Setting::InputFormat, "csv")
            ),
            SettingError::RecordWithoutName => {
                "'@' needs a field name: @NAME takes a field of the input record".to_string()
            }
            SettingError::MatchWithoutName => format!(
                "'match:' needs a group name: match:NAME takes a group of the matching {} pattern",
                names.name(Setting::Match)
            ),
            SettingError::UnknownField { name, known } => format!(
                "unknown field {name:?} (known: {known}, match:NAME for a group of the \
                 matching {} pattern, and @NAME for a field of the input record)",
                names.name(Setting::Match)
            ),
        }
    }

    /// The setting error `error` carries, if it is one (a usage error of
    /// an input, [`InputError::error`](crate::InputError)).
    pub fn in_io(error: &std::io::Error) -> Option<&SettingError> {
        error.get_ref()?.downcast_ref::<SettingError>()
    }
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(&LibraryNames))
    }
}

impl std::error::Error for SettingError {}

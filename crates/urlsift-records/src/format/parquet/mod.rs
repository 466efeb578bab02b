//! A Parquet file as a record format: where its URL column is
//! ([`ParquetLayout`]) and a chunk's rows as records ([`Rows`]: the Arrow batch,
//! each row's URL value, and the batch written back with new URLs). The
//! reading and writing of files, which make and take chunks, is
//! [`crate::parquet`]'s.

use arrow_schema::{DataType, Field, Fields, SchemaRef};

use urlsift_simd::Kernel;

use super::frame::Frames;
use super::record::{Found, Rec, Shape};
use super::{Format, RecordFormat, View, Visit};
use crate::reason::Reason;
use crate::setting::SettingError;

mod rows;

pub use rows::{Rows, Strings};

/// Where a Parquet file's URL column is, and what the file is.
#[derive(Debug)]
pub struct ParquetLayout {
    /// The file's Arrow schema.
    pub schema: SchemaRef,
    /// The URL column's name as the file spells it (`url`, `request.url`).
    pub name: String,
    /// The URL column: field indices from the schema's root (one for a
    /// top-level column, one more per struct level).
    pub path: Vec<usize>,
    /// The file's key-value metadata, kept when records are written back
    /// (without `ARROW:schema`, which the writer makes anew).
    pub metadata: Vec<(String, Option<String>)>,
    /// Rows in each row group, in order.
    pub row_groups: Vec<u64>,
}

impl RecordFormat for ParquetLayout {
    /// A Parquet chunk's data holds a [frame](super::frame) per row: its
    /// number and URL value.
    #[inline(always)]
    fn walk<K: Kernel, V: Visit>(&self, _k: K, view: View<'_>, v: &mut V) -> u64 {
        let mut count = 0;
        for frame in Frames::new(view.data) {
            let end = frame.at + frame.value.len();
            let rec = Rec {
                data: view.data,
                start: frame.at,
                end,
                next: end,
                line: frame.line,
                offset: 0,
                field: (frame.at, end),
                shape: Shape::Row,
            };
            let found = if frame.value.is_empty() {
                Found::Empty
            } else {
                match simdutf8::basic::from_utf8(frame.value) {
                    Ok(url) => Found::Url(url.into()),
                    Err(_) => Found::Bad(Reason::InvalidUtf8),
                }
            };
            count += 1;
            if !v.record(&rec, found) {
                break;
            }
        }
        count
    }

    fn knows_field(&self, name: &str) -> Option<Result<(), String>> {
        Some(self.knows(name))
    }

    /// A row is not a line of text.
    fn one_per_line(&self) -> bool {
        false
    }
}

impl ParquetLayout {
    /// The layout of a file with `schema`: `field` is `--field` (a column
    /// name, or a dotted path into struct columns); by default the column
    /// named `url` in any case.
    pub fn new(schema: SchemaRef, field: Option<&str>) -> Result<ParquetLayout, SettingError> {
        let path = match field {
            Some(f) => find(schema.fields(), f).ok_or_else(|| SettingError::NoSuchColumn {
                field: f.to_string(),
                columns: shown(schema.fields()),
                split_by: None,
            })?,
            None => schema
                .fields()
                .iter()
                .position(|c| c.name().trim().eq_ignore_ascii_case("url"))
                .map(|i| vec![i])
                .ok_or_else(|| SettingError::NoUrlColumn {
                    columns: shown(schema.fields()),
                    split_by: None,
                })?,
        };
        let leaf = field_at(schema.fields(), &path);
        let name = names_at(schema.fields(), &path).join(".");
        if !is_text(leaf.data_type()) {
            return Err(SettingError::NotText {
                column: name,
                data_type: leaf.data_type().to_string(),
            });
        }
        Ok(ParquetLayout {
            schema,
            name,
            path,
            metadata: Vec::new(),
            row_groups: Vec::new(),
        })
    }

    /// Whether there is a column `name` (a top-level column in any case,
    /// or a dotted path into struct columns), or why not, naming the
    /// columns.
    pub fn knows(&self, name: &str) -> Result<(), String> {
        match find(self.schema.fields(), name) {
            Some(_) => Ok(()),
            None => Err(format!(
                "no column {name:?} (columns: {})",
                shown(self.schema.fields())
            )),
        }
    }

    /// The layout of a Parquet source's format, if it is one.
    pub fn of(format: &Format) -> Option<&ParquetLayout> {
        match format {
            Format::Parquet(layout) => Some(layout),
            _ => None,
        }
    }

    /// The URL column's Arrow field.
    pub fn field(&self) -> &Field {
        field_at(self.schema.fields(), &self.path)
    }
}

/// Whether a column of `t` can hold URLs: strings or bytes, of any layout.
fn is_text(t: &DataType) -> bool {
    match t {
        DataType::Utf8
        | DataType::LargeUtf8
        | DataType::Utf8View
        | DataType::Binary
        | DataType::LargeBinary
        | DataType::BinaryView => true,
        DataType::Dictionary(_, values) => is_text(values),
        _ => false,
    }
}

/// The field at `path` below `fields`.
fn field_at<'f>(fields: &'f Fields, path: &[usize]) -> &'f Field {
    let field = &fields[path[0]];
    match (&path[1..], field.data_type()) {
        ([], _) => field,
        (rest, DataType::Struct(children)) => field_at(children, rest),
        _ => unreachable!("paths go through struct columns"),
    }
}

/// The names along `path`.
fn names_at(fields: &Fields, path: &[usize]) -> Vec<String> {
    let field = &fields[path[0]];
    let mut names = vec![field.name().clone()];
    if let (rest @ [_, ..], DataType::Struct(children)) = (&path[1..], field.data_type()) {
        names.extend(names_at(children, rest));
    }
    names
}

/// The path of the column `name` denotes: a top-level column (exact name,
/// then any case), else a dotted path through struct columns.
pub(crate) fn find(fields: &Fields, name: &str) -> Option<Vec<usize>> {
    let top = |n: &str| {
        fields
            .iter()
            .position(|f| f.name() == n)
            .or_else(|| fields.iter().position(|f| f.name().eq_ignore_ascii_case(n)))
    };
    if let Some(i) = top(name) {
        return Some(vec![i]);
    }
    let (head, rest) = name.split_once('.')?;
    let i = top(head)?;
    match fields[i].data_type() {
        DataType::Struct(children) => {
            let mut path = vec![i];
            path.extend(find(children, rest)?);
            Some(path)
        }
        _ => None,
    }
}

/// The columns, as an error lists them: leaves, struct children dotted.
pub(crate) fn shown(fields: &Fields) -> String {
    fn leaves(fields: &Fields, prefix: &str, out: &mut Vec<String>) {
        for f in fields {
            let name = format!("{prefix}{}", f.name());
            match f.data_type() {
                DataType::Struct(children) => leaves(children, &format!("{name}."), out),
                _ => out.push(format!("{name:?}")),
            }
        }
    }
    let mut out = Vec::new();
    leaves(fields, "", &mut out);
    out.join(", ")
}

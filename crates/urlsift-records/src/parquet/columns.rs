//! `extract`'s fields as typed Arrow columns (for Parquet output and the
//! Python reader): `line` a UInt64, `port` a UInt16 (null where the URL has
//! none), a Parquet input's `@NAME` its own column in its own type, the rest
//! strings, null where `extract --jsonl` gives null; with provenance, each
//! record's `line` and `offset`, and with reasons, why a record is bad.
//!
//! The workers write each record as a [frame](super::frame) whose value
//! holds the fields they read ([`Columns::push_row`]); the thread that
//! takes chunks in order turns a chunk's frames into a batch
//! ([`Columns::batch`]), taking a Parquet input's `@NAME` columns from the
//! chunk's rows.
//!
//! ```
//! use urlsift_records::fields::Field;
//! use urlsift_records::format::frame::Frames;
//! use urlsift_records::parquet::Columns;
//!
//! let fields = [Field::parse("hostname")?, Field::parse("port")?];
//! let columns = Columns::new(&fields, None, false, false)?;
//! let mut out = Vec::new();
//! columns.push_row(&mut out, 7, 0, &mut |f| match f {
//!     Field::Url(urlsift::Getter::Hostname) => Some("e.com".into()),
//!     _ => Some("8080".into()),
//! }, None);
//! let batch = columns.batch(None, Frames::new(&out))?;
//! assert_eq!(batch.num_rows(), 1);
//! assert_eq!(columns.schema().field(1).name(), "port");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;
use std::sync::Arc;

use arrow_array::{
    ArrayRef, RecordBatch, StringArray, UInt16Array, UInt32Array, UInt64Array, new_null_array,
};
use arrow_schema::{ArrowError, DataType, Schema, SchemaRef};

use super::Rows;
use super::frame::{self, Frame};
use crate::fields::Field;

/// How one field becomes a column.
#[derive(Debug)]
enum Kind {
    /// Text the workers wrote (a URL part, `input`, a site part, a text
    /// record's `@NAME`).
    Text,
    /// The port, as a number.
    Port,
    /// The record's line (a Parquet row's number).
    Line,
    /// A Parquet input's column, taken from the chunk's rows.
    Rows(String),
}

/// The columns of a list of fields.
#[derive(Debug)]
pub struct Columns {
    fields: Vec<Field>,
    kinds: Vec<Kind>,
    schema: SchemaRef,
    provenance: bool,
    reasons: bool,
}

impl Columns {
    /// The columns of `fields` (named as `extract` names them: `@title`
    /// gives `title`); `input` is a Parquet input's schema, for the
    /// `@NAME` columns' types (`None`: any other input, whose record
    /// fields are text). `provenance` adds `line` and `offset` columns
    /// (where each record is), `reasons` a `reason` column (null for a
    /// valid record).
    pub fn new(
        fields: &[Field],
        input: Option<&Schema>,
        provenance: bool,
        reasons: bool,
    ) -> Result<Columns, String> {
        let mut kinds = Vec::new();
        let mut schema = Vec::new();
        for f in fields {
            let (kind, data_type) = match f {
                Field::Line => (Kind::Line, DataType::UInt64),
                Field::Url(urlsift::Getter::Port) => (Kind::Port, DataType::UInt16),
                Field::Record(name) => match input {
                    Some(input) => {
                        let empty = RecordBatch::new_empty(Arc::new(input.clone()));
                        let rows = Rows::new(empty, 1, 0);
                        let column = rows.column(name).ok_or_else(|| {
                            let columns = crate::format::parquet::shown(input.fields());
                            format!("@{name}: no column {name:?} (columns: {columns})")
                        })?;
                        (Kind::Rows(name.clone()), column.data_type().clone())
                    }
                    None => (Kind::Text, DataType::Utf8),
                },
                _ => (Kind::Text, DataType::Utf8),
            };
            kinds.push(kind);
            schema.push(arrow_schema::Field::new(f.name(), data_type, true));
        }
        if provenance {
            schema.push(arrow_schema::Field::new("line", DataType::UInt64, false));
            schema.push(arrow_schema::Field::new("offset", DataType::UInt64, false));
        }
        if reasons {
            schema.push(arrow_schema::Field::new("reason", DataType::Utf8, true));
        }
        let mut seen = std::collections::HashSet::new();
        if let Some(dup) = schema.iter().find(|f| !seen.insert(f.name().clone())) {
            return Err(format!("two columns are named {:?}", dup.name()));
        }
        Ok(Columns {
            fields: fields.to_vec(),
            kinds,
            schema: Arc::new(Schema::new(schema)),
            provenance,
            reasons,
        })
    }

    /// The columns' schema.
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// Appends a record's frame to `out` (on a worker): its `line` and
    /// `offset`, the value of each field the workers read (`value` gives
    /// it: `None` for null), and, for a bad record, its `reason` (its URL
    /// fields are then null whatever `value` says).
    pub fn push_row<'v>(
        &self,
        out: &mut Vec<u8>,
        line: u64,
        offset: u64,
        value: &mut dyn FnMut(&Field) -> Option<Cow<'v, str>>,
        reason: Option<&str>,
    ) {
        let at = out.len();
        frame::push(out, frame::UNCHANGED, line, &[]);
        for (f, kind) in self.fields.iter().zip(&self.kinds) {
            if matches!(kind, Kind::Text | Kind::Port) {
                let url_part = !matches!(f, Field::Record(_) | Field::Input);
                let v = if reason.is_some() && url_part {
                    None
                } else {
                    value(f)
                };
                push_value(out, v.as_deref());
            }
        }
        if self.provenance {
            out.extend_from_slice(&offset.to_le_bytes());
        }
        if self.reasons {
            push_value(out, reason);
        }
        // The frame's value is everything after its header.
        let len = (out.len() - at - frame::HEAD) as u32;
        out[at + 9..at + 13].copy_from_slice(&len.to_le_bytes());
    }

    /// The batch of `frames` (a chunk's records, in order), with `rows`,
    /// the chunk's Parquet rows, for `@NAME` columns of a Parquet input.
    pub fn batch<'a>(
        &self,
        rows: Option<&Rows>,
        frames: impl Iterator<Item = Frame<'a>>,
    ) -> Result<RecordBatch, ArrowError> {
        let frames: Vec<Frame<'a>> = frames.collect();
        let written = self
            .kinds
            .iter()
            .filter(|k| matches!(k, Kind::Text | Kind::Port))
            .count();
        let mut values: Vec<Vec<Option<&[u8]>>> = vec![Vec::with_capacity(frames.len()); written];
        let mut offsets = Vec::new();
        let mut reasons = Vec::new();
        for f in &frames {
            let mut rest = f.value;
            for column in &mut values {
                let (value, after) = take_value(rest);
                column.push(value);
                rest = after;
            }
            if self.provenance {
                offsets.push(u64::from_le_bytes(rest[..8].try_into().expect("8 bytes")));
                rest = &rest[8..];
            }
            if self.reasons {
                reasons.push(take_value(rest).0);
            }
        }
        let text = |v: &[Option<&[u8]>]| -> ArrayRef {
            Arc::new(StringArray::from_iter(v.iter().map(|v| {
                v.map(|b| std::str::from_utf8(b).expect("UTF-8 values"))
            })))
        };
        let mut written = values.iter();
        let mut arrays: Vec<ArrayRef> = Vec::with_capacity(self.schema.fields().len());
        for (kind, field) in self.kinds.iter().zip(self.schema.fields()) {
            let array: ArrayRef = match kind {
                Kind::Text => text(written.next().expect("a written column")),
                Kind::Port => {
                    let v = written.next().expect("a written column");
                    Arc::new(UInt16Array::from_iter(v.iter().map(|v| {
                        v.and_then(|b| std::str::from_utf8(b).ok()?.parse::<u16>().ok())
                    })))
                }
                Kind::Line => {
                    Arc::new(UInt64Array::from_iter_values(frames.iter().map(|f| f.line)))
                }
                Kind::Rows(name) => match rows.and_then(|r| Some((r, r.column(name)?))) {
                    Some((rows, column)) if column.data_type() == field.data_type() => {
                        let indices = UInt32Array::from_iter_values(
                            frames.iter().map(|f| (f.line - rows.first_line) as u32),
                        );
                        arrow_select::take::take(column.as_ref(), &indices, None)?
                    }
                    Some(_) => {
                        return Err(ArrowError::SchemaError(format!(
                            "@{name}: its type differs from the first input's"
                        )));
                    }
                    // (A record of a later input that lacks the column.)
                    None => new_null_array(field.data_type(), frames.len()),
                },
            };
            arrays.push(array);
        }
        if self.provenance {
            arrays.push(Arc::new(UInt64Array::from_iter_values(
                frames.iter().map(|f| f.line),
            )));
            arrays.push(Arc::new(UInt64Array::from(offsets)));
        }
        if self.reasons {
            arrays.push(text(&reasons));
        }
        RecordBatch::try_new(Arc::clone(&self.schema), arrays)
    }
}

/// Appends one value: absent (null), or its length and bytes.
fn push_value(out: &mut Vec<u8>, value: Option<&str>) {
    match value {
        None => out.push(0),
        Some(v) => {
            out.push(1);
            out.extend_from_slice(&(v.len() as u32).to_le_bytes());
            out.extend_from_slice(v.as_bytes());
        }
    }
}

/// The value at the start of `payload` (see [`push_value`]) and the rest.
fn take_value(payload: &[u8]) -> (Option<&[u8]>, &[u8]) {
    match payload.first() {
        Some(1) => {
            let len = u32::from_le_bytes(payload[1..5].try_into().expect("4 bytes")) as usize;
            (Some(&payload[5..5 + len]), &payload[5 + len..])
        }
        _ => (None, payload.get(1..).unwrap_or_default()),
    }
}

//! One record as the operations see it ([`Rec`]: where it sits in its
//! chunk, where its URL field is, how it is written back) and what a format
//! found in it ([`Found`]).
//!
//! ```
//! use urlsift_records::format::{Rec, Shape};
//!
//! // The row `1,http://E.com/,x` of a CSV chunk, its URL field at 2..15.
//! let data = b"1,http://E.com/,x\n";
//! let rec = Rec { data, start: 0, end: 17, next: 18, line: 2, offset: 0, field: (2, 15), shape: Shape::Csv { delimiter: b',' } };
//! let mut out = Vec::new();
//! rec.write_url(&mut out, "http://e.com/", b'\n');
//! assert_eq!(out, b"1,http://e.com/,x\n");
//! ```

use std::borrow::Cow;

use super::frame::{CHANGED as FRAME_CHANGED, HEAD as FRAME_HEAD, push as write_frame};
use super::quote;
use crate::reason::Reason;

/// How a record is written back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The URL is the record: written as a URL line.
    Line,
    /// A CSV/TSV row: the field re-quoted when the new value needs it (or
    /// was quoted before).
    Csv {
        /// `,` or a tab.
        delimiter: u8,
    },
    /// A JSON string value; `close` is where the record's top-level
    /// object ends (its `}`), for appended keys.
    Json {
        /// Where the top-level object's `}` is in the chunk.
        close: usize,
    },
    /// A read-only format: records go out as URL lines.
    ReadOnly,
    /// A Parquet row: the record is a [frame](super::frame) of its chunk's data, written back as a frame (the row as it was, or
    /// with a new URL) that the writer turns into the output row.
    Row,
}

/// One record of a chunk, as the operations see it: where it sits, its
/// URL field, and how to write it back. Positions index the chunk's data.
#[derive(Clone, Copy, Debug)]
pub struct Rec<'a> {
    /// The chunk's bytes.
    pub data: &'a [u8],
    /// Where the record starts, and ends without its terminator.
    pub start: usize,
    /// See `start`.
    pub end: usize,
    /// After the record's terminator (`\n`, `\r\n`, or nothing at the end);
    /// `end` for lines, which are written with the output's terminator.
    pub next: usize,
    /// The 1-based line (within its source) where the record starts; 0
    /// where lines are not counted (WARC).
    pub line: u64,
    /// Where the record starts in its source (after decompression).
    pub offset: u64,
    /// The URL field's raw bytes (quotes and escapes included).
    pub field: (usize, usize),
    /// How the record is written back.
    pub shape: Shape,
}

impl<'a> Rec<'a> {
    /// The record's bytes, without the terminator.
    #[inline(always)]
    pub fn raw(&self) -> &'a [u8] {
        &self.data[self.start..self.end]
    }

    /// The record's bytes with its terminator.
    pub fn raw_with_terminator(&self) -> &'a [u8] {
        &self.data[self.start..self.next]
    }

    /// Whether writing `url` back would leave the record's bytes as they
    /// are: `url` is the field's text (by address or by value).
    #[inline(always)]
    pub fn is_own_text(url: &str, text: &str) -> bool {
        std::ptr::eq(url, text) || url == text
    }

    /// Appends the record with its URL field replaced by `url`, then its
    /// terminator (for URL lines, `terminator`; records keep their own,
    /// and a last record without one gets `\n`).
    #[inline(always)]
    pub fn write_url(&self, out: &mut Vec<u8>, url: &str, terminator: u8) {
        match self.shape {
            Shape::Line | Shape::ReadOnly => {
                out.extend_from_slice(url.as_bytes());
                out.push(terminator);
            }
            Shape::Csv { delimiter } => {
                out.extend_from_slice(&self.data[self.start..self.field.0]);
                let was_quoted = self.data.get(self.field.0) == Some(&b'"');
                quote::write_field(out, url.as_bytes(), delimiter, was_quoted);
                out.extend_from_slice(&self.data[self.field.1..self.next]);
                self.end_line(out);
            }
            Shape::Json { .. } => {
                out.extend_from_slice(&self.data[self.start..self.field.0]);
                quote::write_string(out, url);
                out.extend_from_slice(&self.data[self.field.1..self.next]);
                self.end_line(out);
            }
            Shape::Row => write_frame(out, FRAME_CHANGED, self.line, url.as_bytes()),
        }
    }

    /// A row's frame as it came (its header and its value), for a row
    /// passed on unchanged.
    pub fn frame(&self) -> &'a [u8] {
        &self.data[self.start - FRAME_HEAD..self.end]
    }

    /// Appends the record exactly as it came in (a last record without a
    /// terminator gets `\n`; a URL line gets `terminator`).
    pub fn write_unchanged(&self, out: &mut Vec<u8>, terminator: u8) {
        match self.shape {
            Shape::Line | Shape::ReadOnly => {
                out.extend_from_slice(self.raw());
                out.push(terminator);
            }
            Shape::Row => out.extend_from_slice(self.frame()),
            _ => {
                out.extend_from_slice(self.raw_with_terminator());
                self.end_line(out);
            }
        }
    }

    /// The record's bytes to copy as a run of input when it is written
    /// unchanged, if it can be (it ends with the terminator output uses).
    #[inline(always)]
    pub fn unchanged_run(&self, terminator: u8) -> Option<std::ops::Range<usize>> {
        match self.shape {
            // A line and its "\n" (not "\r\n", not a missing final
            // newline) are the output record.
            Shape::Line if terminator == b'\n' && self.data.get(self.end) == Some(&b'\n') => {
                Some(self.start..self.end + 1)
            }
            Shape::Csv { .. } | Shape::Json { .. } if self.next > self.end => {
                Some(self.start..self.next)
            }
            Shape::Row => Some(self.start - FRAME_HEAD..self.end),
            _ => None,
        }
    }

    /// Appends the record with `values` added as new fields (CSV columns,
    /// JSON keys named `names`), then its terminator. Only for formats
    /// that write records.
    pub fn write_appended<'v>(
        &self,
        out: &mut Vec<u8>,
        names: &[String],
        values: impl Iterator<Item = Cow<'v, str>>,
    ) {
        match self.shape {
            Shape::Csv { delimiter } => {
                out.extend_from_slice(self.raw());
                for v in values {
                    out.push(delimiter);
                    quote::write_field(out, v.as_bytes(), delimiter, false);
                }
                out.extend_from_slice(&self.data[self.end..self.next]);
                self.end_line(out);
            }
            Shape::Json { close } => {
                out.extend_from_slice(&self.data[self.start..close]);
                let empty = quote::object_is_empty(&self.data[self.start..close]);
                for (i, (name, v)) in names.iter().zip(values).enumerate() {
                    if i > 0 || !empty {
                        out.push(b',');
                    }
                    quote::write_string(out, name);
                    out.push(b':');
                    quote::write_string(out, &v);
                }
                out.extend_from_slice(&self.data[close..self.next]);
                self.end_line(out);
            }
            Shape::Line | Shape::ReadOnly | Shape::Row => {
                unreachable!("--append is refused for URL lines and Parquet rows")
            }
        }
    }

    fn end_line(&self, out: &mut Vec<u8>) {
        if self.next == self.end {
            out.push(b'\n');
        }
    }
}

/// What a format found in one record.
pub enum Found<'a> {
    /// The URL field's text (JSON escapes decoded).
    Url(Cow<'a, str>),
    /// No URL to parse: an empty line, an empty field, a WARC record
    /// without the header. Counted, never parsed.
    Empty,
    /// Not a usable record.
    Bad(Reason),
}

//! Arrow string columns in and out, as plain buffers.
//!
//! The Python side hands over a `string` or `large_string` array as its
//! three Arrow buffers (validity bitmap, offsets, data) copied into `bytes`,
//! and gets the same three back for each output column, which it wraps
//! with `pa.Array.from_buffers` (zero-copy). That keeps the bindings free
//! of `unsafe` and of the Arrow C data interface, at the price of one
//! memcpy per buffer: a few milliseconds per million URLs, next to the
//! hundreds that parsing takes.
//!
//! Layouts follow the [Arrow columnar format]: offsets are little-endian
//! `i32` (`string`) or `i64` (`large_string`), `len + 1` of them; bit `i`
//! of the validity bitmap (least significant bit first) is 1 when row `i`
//! is not null; no bitmap means no nulls.
//!
//! [Arrow columnar format]: https://arrow.apache.org/docs/format/Columnar.html

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::PyBytes;
use std::ops::Range;

/// A string array as handed over by Python: `(offsets, data, validity,
/// offset, length, large)`, where `offset` is the array's slice offset
/// (in rows) into the buffers.
#[derive(FromPyObject)]
pub struct ColumnArg(
    PyBackedBytes,
    PyBackedBytes,
    Option<PyBackedBytes>,
    usize,
    usize,
    bool,
);

/// A checked view of a string array's rows.
pub struct Column {
    arg: ColumnArg,
}

/// Rows' data validated as UTF-8 at once (see [`Column::text`]).
pub struct Text<'a> {
    text: &'a str,
    start: usize,
}

/// One input row.
pub enum Row<'a> {
    Null,
    Text(&'a str),
    /// Not UTF-8 (an Arrow string array that broke its contract).
    NotUtf8,
}

impl Column {
    /// Checks that the buffers hold `length` rows from `offset` on.
    pub fn new(arg: ColumnArg) -> PyResult<Column> {
        let ColumnArg(ref offsets, _, ref validity, offset, len, large) = arg;
        let width = if large { 8 } else { 4 };
        let needed = (offset + len + 1) * width;
        if offsets.len() < needed && len > 0 {
            return Err(PyValueError::new_err(format!(
                "offsets buffer holds {} bytes, {needed} needed",
                offsets.len()
            )));
        }
        if let Some(v) = validity
            && v.len() * 8 < offset + len
        {
            return Err(PyValueError::new_err("validity bitmap too short"));
        }
        let column = Column { arg };
        // Offsets must be ordered and inside the data; checking the ends of
        // each row once here lets `row` slice without further checks.
        let mut previous = column.offset_at(0);
        for i in 1..=len {
            let next = column.offset_at(i);
            if next < previous || next > column.arg.1.len() {
                return Err(PyValueError::new_err(format!(
                    "string offsets out of order or out of range at row {}",
                    i - 1
                )));
            }
            previous = next;
        }
        Ok(column)
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.arg.4
    }

    /// Whether the input was a `large_string` array.
    pub fn is_large(&self) -> bool {
        self.arg.5
    }

    fn offset_at(&self, i: usize) -> usize {
        if self.len() == 0 {
            return 0;
        }
        let at = self.arg.3 + i;
        let offsets: &[u8] = &self.arg.0;
        if self.is_large() {
            let b: [u8; 8] = offsets[at * 8..at * 8 + 8].try_into().expect("8 bytes");
            // A negative offset is out of range like any other.
            usize::try_from(i64::from_le_bytes(b)).unwrap_or(usize::MAX)
        } else {
            let b: [u8; 4] = offsets[at * 4..at * 4 + 4].try_into().expect("4 bytes");
            usize::try_from(i32::from_le_bytes(b)).unwrap_or(usize::MAX)
        }
    }

    /// The data bytes of `rows` as one string and its start offset, when
    /// they are all UTF-8: then each row is sliced from it (a char-boundary
    /// check) instead of being validated on its own.
    pub fn text(&self, rows: &Range<usize>) -> Option<Text<'_>> {
        if rows.is_empty() {
            return None;
        }
        let (start, end) = (self.offset_at(rows.start), self.offset_at(rows.end));
        let text = std::str::from_utf8(&self.arg.1[start..end]).ok()?;
        Some(Text { text, start })
    }

    /// Row `i` (`i < len`); `text`: [`Column::text`] of a range holding it.
    pub fn row<'a>(&'a self, i: usize, text: Option<&Text<'a>>) -> Row<'a> {
        if let Some(v) = &self.arg.2 {
            let bit = self.arg.3 + i;
            if v[bit / 8] & (1 << (bit % 8)) == 0 {
                return Row::Null;
            }
        }
        let (start, end) = (self.offset_at(i), self.offset_at(i + 1));
        if let Some(s) = text.and_then(|t| t.text.get(start - t.start..end - t.start)) {
            return Row::Text(s);
        }
        match std::str::from_utf8(&self.arg.1[start..end]) {
            Ok(s) => Row::Text(s),
            Err(_) => Row::NotUtf8,
        }
    }

    /// The number of data bytes `rows` span.
    pub fn bytes(&self, rows: &Range<usize>) -> usize {
        if rows.is_empty() {
            return 0;
        }
        self.offset_at(rows.end) - self.offset_at(rows.start)
    }
}

/// A growing bitmap (Arrow bit order).
#[derive(Default)]
pub struct Bits {
    bytes: Vec<u8>,
    len: usize,
    ones: usize,
}

impl Bits {
    pub fn push(&mut self, bit: bool) {
        if self.len.is_multiple_of(8) {
            self.bytes.push(0);
        }
        if bit {
            self.bytes[self.len / 8] |= 1 << (self.len % 8);
            self.ones += 1;
        }
        self.len += 1;
    }

    fn get(&self, i: usize) -> bool {
        self.bytes[i / 8] & (1 << (i % 8)) != 0
    }

    fn append(&mut self, other: &Bits) {
        if self.len.is_multiple_of(8) {
            self.bytes.extend_from_slice(&other.bytes);
            self.len += other.len;
            self.ones += other.ones;
        } else {
            for i in 0..other.len {
                self.push(other.get(i));
            }
        }
    }

    fn zeros(&self) -> usize {
        self.len - self.ones
    }

    fn into_bytes<'py>(self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.bytes)
    }
}

/// A string column under construction.
#[derive(Default)]
pub struct StringBuilder {
    data: Vec<u8>,
    /// End offset of each row so far (the leading 0 is implied).
    ends: Vec<usize>,
    valid: Bits,
}

impl StringBuilder {
    /// Appends a row whose bytes the caller has just pushed onto `data()`.
    pub fn commit(&mut self) {
        self.ends.push(self.data.len());
        self.valid.push(true);
    }

    /// The data buffer, to append a row's bytes to before [`commit`](Self::commit).
    pub fn data(&mut self) -> &mut Vec<u8> {
        &mut self.data
    }

    /// Room for `rows` more rows of `bytes` bytes in all.
    pub fn reserve(&mut self, rows: usize, bytes: usize) {
        self.data.reserve(bytes);
        self.ends.reserve(rows);
    }

    pub fn push_str(&mut self, s: &str) {
        self.data.extend_from_slice(s.as_bytes());
        self.commit();
    }

    pub fn push_null(&mut self) {
        self.ends.push(self.data.len());
        self.valid.push(false);
    }

    /// Appends `other`'s rows after this one's.
    pub fn append(&mut self, other: StringBuilder) {
        let shift = self.data.len();
        self.data.extend_from_slice(&other.data);
        self.ends.extend(other.ends.iter().map(|e| e + shift));
        self.valid.append(&other.valid);
    }

    /// The Arrow buffers `(validity or None, offsets, data, null_count,
    /// large)`; offsets are `i32` unless `large` is asked for or the data
    /// outgrew `i32`.
    pub fn into_py<'py>(self, py: Python<'py>, large: bool) -> PyResult<Bound<'py, PyAny>> {
        let large = large || self.data.len() > i32::MAX as usize;
        let mut offsets = Vec::with_capacity((self.ends.len() + 1) * if large { 8 } else { 4 });
        for end in std::iter::once(0).chain(self.ends.iter().copied()) {
            if large {
                offsets.extend_from_slice(&(end as i64).to_le_bytes());
            } else {
                offsets.extend_from_slice(&(end as i32).to_le_bytes());
            }
        }
        let nulls = self.valid.zeros();
        let validity = (nulls > 0).then(|| self.valid.into_bytes(py));
        (
            validity,
            PyBytes::new(py, &offsets),
            PyBytes::new(py, &self.data),
            nulls,
            large,
        )
            .into_pyobject(py)
            .map(Bound::into_any)
    }
}

/// A boolean column under construction.
#[derive(Default)]
pub struct BoolBuilder {
    values: Bits,
    valid: Bits,
}

impl BoolBuilder {
    pub fn push(&mut self, value: Option<bool>) {
        self.values.push(value == Some(true));
        self.valid.push(value.is_some());
    }

    pub fn append(&mut self, other: BoolBuilder) {
        self.values.append(&other.values);
        self.valid.append(&other.valid);
    }

    /// The Arrow buffers `(validity or None, values, null_count)`.
    pub fn into_py<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let nulls = self.valid.zeros();
        let validity = (nulls > 0).then(|| self.valid.into_bytes(py));
        (validity, self.values.into_bytes(py), nulls)
            .into_pyobject(py)
            .map(Bound::into_any)
    }
}

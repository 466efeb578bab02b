//! A Parquet chunk's rows: its Arrow batch, the URL column's values, other
//! columns by name, and the output batch built from the frames the
//! workers wrote.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, BinaryArray, RecordBatch, StringArray, StructArray, UInt32Array, make_array,
};
use arrow_buffer::NullBuffer;
use arrow_cast::display::{ArrayFormatter, FormatOptions};
use arrow_schema::{ArrowError, DataType};

use super::super::frame::{CHANGED, Frame};
use super::ParquetLayout;

/// The rows of one Parquet chunk.
#[derive(Debug)]
pub struct Rows {
    /// The rows as read.
    pub batch: RecordBatch,
    /// The line (1-based row number in the file) of the batch's first row.
    pub first_line: u64,
    /// The row group of the batch's first row.
    pub row_group: usize,
}

/// A string or binary column's values, whatever its layout (dictionary
/// values decoded), with the nulls of the struct columns it is in.
pub struct Strings {
    values: Values,
    nulls: Option<NullBuffer>,
}

enum Values {
    Utf8(StringArray),
    Large(arrow_array::LargeStringArray),
    View(arrow_array::StringViewArray),
    Binary(BinaryArray),
    LargeBinary(arrow_array::LargeBinaryArray),
    BinaryView(arrow_array::BinaryViewArray),
}

impl Strings {
    /// The values of `array` (a string or binary column), null where
    /// `nulls` says (the nulls of the structs it is in, and its own).
    pub fn new(array: &ArrayRef, nulls: Option<NullBuffer>) -> Result<Strings, ArrowError> {
        let array = match array.data_type() {
            DataType::Dictionary(_, values) => arrow_cast::cast(array, values)?,
            _ => Arc::clone(array),
        };
        let values = match array.data_type() {
            DataType::Utf8 => Values::Utf8(array.as_string::<i32>().clone()),
            DataType::LargeUtf8 => Values::Large(array.as_string::<i64>().clone()),
            DataType::Utf8View => Values::View(array.as_string_view().clone()),
            DataType::Binary => Values::Binary(array.as_binary::<i32>().clone()),
            DataType::LargeBinary => Values::LargeBinary(array.as_binary::<i64>().clone()),
            DataType::BinaryView => Values::BinaryView(array.as_binary_view().clone()),
            other => {
                return Err(ArrowError::InvalidArgumentError(format!(
                    "{other} is not a string column"
                )));
            }
        };
        Ok(Strings { values, nulls })
    }

    /// Row `i`'s bytes; `None` when it is null.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&[u8]> {
        if self.nulls.as_ref().is_some_and(|n| n.is_null(i)) {
            return None;
        }
        Some(match &self.values {
            Values::Utf8(a) => a.value(i).as_bytes(),
            Values::Large(a) => a.value(i).as_bytes(),
            Values::View(a) => a.value(i).as_bytes(),
            Values::Binary(a) => a.value(i),
            Values::LargeBinary(a) => a.value(i),
            Values::BinaryView(a) => a.value(i),
        })
    }

    /// About how many bytes the values hold (to size a buffer).
    pub fn value_bytes(&self) -> usize {
        match &self.values {
            Values::Utf8(a) => a.value_data().len(),
            Values::Large(a) => a.value_data().len(),
            Values::Binary(a) => a.value_data().len(),
            Values::LargeBinary(a) => a.value_data().len(),
            Values::View(a) => a.len() * 64,
            Values::BinaryView(a) => a.len() * 64,
        }
    }

    /// Whether the values are bytes rather than text (a binary column).
    fn binary(&self) -> bool {
        matches!(
            self.values,
            Values::Binary(_) | Values::LargeBinary(_) | Values::BinaryView(_)
        )
    }
}

/// The column at `path` of `batch`, with the nulls of the struct columns
/// on the way folded into its own.
fn leaf(batch: &RecordBatch, path: &[usize]) -> (ArrayRef, Option<NullBuffer>) {
    let mut column = Arc::clone(batch.column(path[0]));
    let mut nulls = column.logical_nulls();
    for &i in &path[1..] {
        let child = Arc::clone(column.as_struct().column(i));
        nulls = NullBuffer::union(nulls.as_ref(), child.logical_nulls().as_ref());
        column = child;
    }
    (column, nulls)
}

impl Rows {
    /// The rows of `batch`, whose first row is line `first_line`, in row
    /// group `row_group`.
    pub fn new(batch: RecordBatch, first_line: u64, row_group: usize) -> Rows {
        Rows {
            batch,
            first_line,
            row_group,
        }
    }

    /// The URL column's values.
    pub fn urls(&self, layout: &ParquetLayout) -> Strings {
        let (column, nulls) = leaf(&self.batch, &layout.path);
        Strings::new(&column, nulls).expect("the layout checked the column's type")
    }

    /// The column `name` (a column name, any case, or a dotted path into
    /// struct columns), nulls of the structs it is in included.
    pub fn column(&self, name: &str) -> Option<ArrayRef> {
        let path = super::find(self.batch.schema().fields(), name)?;
        let (column, nulls) = leaf(&self.batch, &path);
        if path.len() == 1 || nulls == column.logical_nulls() {
            return Some(column);
        }
        let data = column.to_data().into_builder().nulls(nulls).build().ok()?;
        Some(make_array(data))
    }

    /// The column `name` at row `line`, as text (strings as they are,
    /// other types as Arrow displays them); `None` where it is null or
    /// there is no such column.
    pub fn named(&self, line: u64, name: &str) -> Option<String> {
        let i = usize::try_from(line.checked_sub(self.first_line)?).ok()?;
        let path = super::find(self.batch.schema().fields(), name)?;
        let (column, nulls) = leaf(&self.batch, &path);
        if i >= column.len() || nulls.as_ref().is_some_and(|n| n.is_null(i)) {
            return None;
        }
        if let Ok(strings) = Strings::new(&column, None)
            && !strings.binary()
        {
            let bytes = strings.get(i)?;
            return Some(String::from_utf8_lossy(bytes).into_owned());
        }
        let format = ArrayFormatter::try_new(column.as_ref(), &FormatOptions::default()).ok()?;
        Some(format.value(i).to_string())
    }

    /// The output batch of the rows `frames` name, in their order: each
    /// row as it was, its URL column replaced where a frame is
    /// [`CHANGED`](crate::format::frame::CHANGED); the schema is the input's.
    pub fn write_back<'a>(
        &self,
        layout: &ParquetLayout,
        frames: impl Iterator<Item = Frame<'a>>,
    ) -> Result<RecordBatch, ArrowError> {
        let frames: Vec<Frame<'a>> = frames.collect();
        let rows = self.batch.num_rows();
        let index = |f: &Frame<'_>| (f.line - self.first_line) as usize;
        let changed = frames.iter().any(|f| f.tag == CHANGED);
        let all = frames.len() == rows && frames.iter().enumerate().all(|(i, f)| index(f) == i);
        if all && !changed {
            return Ok(self.batch.clone());
        }
        // Every row, in order (normalize's usual case): the batch's own
        // columns, only the URL column made anew.
        let taken = if all {
            self.batch.clone()
        } else {
            let indices = UInt32Array::from_iter_values(frames.iter().map(|f| index(f) as u32));
            arrow_select::take::take_record_batch(&self.batch, &indices)?
        };
        if !changed {
            return Ok(taken);
        }
        let urls = self.urls(layout);
        let value = |f: &Frame<'a>| -> Option<&[u8]> {
            if f.tag == CHANGED {
                Some(f.value)
            } else {
                urls.get(index(f))
            }
        };
        let leaf: ArrayRef = if urls.binary() {
            Arc::new(BinaryArray::from_iter(frames.iter().map(value)))
        } else {
            // Values of a string column and new URLs are UTF-8.
            Arc::new(StringArray::from_iter(frames.iter().map(|f| {
                value(f).map(|v| std::str::from_utf8(v).expect("UTF-8 values"))
            })))
        };
        let target = layout.field().data_type();
        let leaf = if leaf.data_type() == target {
            leaf
        } else {
            arrow_cast::cast(&leaf, target)?
        };
        let mut columns = taken.columns().to_vec();
        columns[layout.path[0]] = replace(&columns[layout.path[0]], &layout.path[1..], leaf)?;
        RecordBatch::try_new(taken.schema(), columns)
    }
}

/// `array` with the column at `path` below it replaced by `leaf`.
fn replace(array: &ArrayRef, path: &[usize], leaf: ArrayRef) -> Result<ArrayRef, ArrowError> {
    let Some((&i, rest)) = path.split_first() else {
        return Ok(leaf);
    };
    let (fields, mut children, nulls) = array.as_struct().clone().into_parts();
    children[i] = replace(&children[i], rest, leaf)?;
    Ok(Arc::new(StructArray::try_new(fields, children, nulls)?))
}

//! Parquet output of the record operations: the rows of Parquet input
//! written back ([`WriteBack`]: `normalize`, `dedup`), and `extract`'s
//! fields as typed columns ([`Extracted`]), each chunk's output frames
//! turned into an Arrow batch, in input order, handed to a [`Writer`] that
//! gathers row groups of 128Ki rows and encodes them on the thread pool.

use std::io::Write;
use std::sync::Arc;

use arrow_schema::SchemaRef;
use parquet::basic::Compression;

use super::{Columns, Cursor, ParquetLayout, Rows, Writer};
use crate::chunk::Source;
use crate::error::Error;
use crate::fields::Field;
use crate::format::frame::{Frame, Frames};
use crate::{Chunk, Processed};

/// The schema and key-value metadata of the first input, when the run
/// reads Parquet (for the output's schema before any row is read, and the
/// types of `extract`'s `@NAME` columns); `None` otherwise, or when it
/// cannot be opened (the run will say why).
pub fn input_schema(engine: &crate::Engine, spec: &crate::Spec) -> Option<InputSchema> {
    if engine.kind() != crate::Kind::Parquet {
        return None;
    }
    let first = engine.files().first()?;
    let cursor = Cursor::open(first, String::new(), spec.field.as_deref(), 1, 1).ok()?;
    let layout = ParquetLayout::of(&cursor.source().format)?;
    Some((Arc::clone(&layout.schema), layout.metadata.clone()))
}

/// A Parquet input's schema and key-value metadata.
pub type InputSchema = (SchemaRef, Vec<(String, Option<String>)>);

fn output_error(e: impl std::fmt::Display) -> Error {
    Error::Output(std::io::Error::other(e.to_string()))
}

/// The rows of Parquet input, written back as Parquet.
pub struct WriteBack {
    compression: Compression,
    writer: Option<Writer>,
    schema: Option<SchemaRef>,
    /// Row groups encoded at once.
    jobs: usize,
}

impl WriteBack {
    /// Rows written back with `compression`; `first` is the first input's
    /// schema, when it could be read before the run (so that an input
    /// without rows still gives a Parquet file of its schema).
    pub fn new(compression: Compression, first: Option<InputSchema>, jobs: usize) -> WriteBack {
        let mut back = WriteBack {
            compression,
            writer: None,
            schema: None,
            jobs,
        };
        if let Some((schema, metadata)) = first
            && let Ok(writer) = Writer::new(Arc::clone(&schema), compression, &metadata)
        {
            back.writer = Some(writer.parallel(jobs));
            back.schema = Some(schema);
        }
        back
    }

    /// Writes the rows of `chunk` that its output `p` names (its frames).
    pub fn chunk<X>(
        &mut self,
        out: &mut impl Write,
        chunk: &Chunk,
        p: &Processed<X>,
    ) -> Result<(), Error> {
        let (Some(rows), Some(layout)) = (chunk.rows(), ParquetLayout::of(&chunk.source.format))
        else {
            return Ok(());
        };
        let frames = p.output(&chunk.data).flat_map(Frames::new);
        self.rows(out, &chunk.source, rows, layout, frames)
    }

    /// Writes the rows `frames` name of `rows`, from `source`.
    pub fn rows<'a>(
        &mut self,
        out: &mut impl Write,
        source: &Source,
        rows: &Rows,
        layout: &ParquetLayout,
        frames: impl Iterator<Item = Frame<'a>>,
    ) -> Result<(), Error> {
        self.start(source, layout)?;
        let batch = rows.write_back(layout, frames).map_err(output_error)?;
        let writer = self.writer.as_mut().expect("started");
        writer.write(&batch, out).map_err(Error::Output)
    }

    /// The writer made (from the first source's schema), a later source's
    /// schema checked against it.
    fn start(&mut self, source: &Source, layout: &ParquetLayout) -> Result<(), Error> {
        match &self.schema {
            None => {
                let writer = Writer::new(
                    Arc::clone(&layout.schema),
                    self.compression,
                    &layout.metadata,
                )
                .map_err(output_error)?;
                self.writer = Some(writer.parallel(self.jobs));
                self.schema = Some(Arc::clone(&layout.schema));
            }
            Some(schema) if schema.fields() != layout.schema.fields() => {
                return Err(Error::Usage(format!(
                    "{}: its schema differs from the first input's; rows written back share one \
                     schema (run the files separately)",
                    source.name
                )));
            }
            Some(_) => {}
        }
        Ok(())
    }

    /// Ends the file (nothing is written when no input had rows to read:
    /// its schema was never seen).
    pub fn finish(self, out: &mut impl Write) -> Result<(), Error> {
        match self.writer {
            Some(w) => w.finish(out).map_err(Error::Output),
            None => Ok(()),
        }
    }
}

/// `extract`'s fields written as a Parquet file (the columns are the
/// library's `Columns`: typed, nullable).
pub struct Extracted {
    columns: Arc<Columns>,
    writer: Writer,
}

impl Extracted {
    /// The columns of `fields`; `input` is a Parquet input's schema (for
    /// the `@NAME` columns' types), if the input is Parquet.
    pub fn new(
        fields: &[Field],
        input: Option<&arrow_schema::Schema>,
        compression: Compression,
        jobs: usize,
    ) -> Result<Extracted, String> {
        let columns = Columns::new(fields, input, false, false)?;
        let writer = Writer::new(Arc::clone(columns.schema()), compression, &[])
            .map_err(|e| format!("Parquet output: {e}"))?
            .parallel(jobs);
        Ok(Extracted {
            columns: Arc::new(columns),
            writer,
        })
    }

    /// The columns, for the workers to write rows with.
    pub fn columns(&self) -> Arc<Columns> {
        Arc::clone(&self.columns)
    }

    /// Writes one chunk's rows (a frame per row, see [`Columns::push_row`]).
    pub fn chunk<X>(
        &mut self,
        out: &mut impl Write,
        chunk: &Chunk,
        p: &Processed<X>,
    ) -> Result<(), Error> {
        let frames = p.output(&chunk.data).flat_map(Frames::new);
        let batch = self
            .columns
            .batch(chunk.rows(), frames)
            .map_err(|e| Error::Usage(format!("{}: {e}", chunk.source.name)))?;
        self.writer.write(&batch, out).map_err(Error::Output)
    }

    /// Ends the file.
    pub fn finish(self, out: &mut impl Write) -> Result<(), Error> {
        self.writer.finish(out).map_err(Error::Output)
    }
}

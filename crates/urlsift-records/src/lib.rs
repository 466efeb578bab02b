//! The record engine: URLs read where they live, in parallel, in input
//! order, with every record accounted for. It is what the `urlsift`
//! command runs, and a Rust program can run it the same way.
//!
//! ```text
//! input ──────────▶ records ─────────▶ URL ──────────▶ operation ─────▶ output
//! files, stdin,     lines, CSV/TSV,    the field's     normalize,       the record with
//! mmap, gzip,       JSON lines, CDXJ,  text, parsed    dedup, extract,  its field replaced,
//! zstd (input/)     WARC, logs         (walk.rs)       check, stats     or new fields
//!                   (format/)                          (the caller)     (Ledger)
//! ```
//!
//! Data flows one way. The [`input`] room opens a file (mapped when it is
//! a plain regular file, decoded on a thread of its own when it is gzip or
//! zstd, with the damage rules of [`input::decode`]); the [`reader`] cuts
//! it into record-aligned [`Chunk`]s, each [`format`](mod@format) saying where its
//! records end and where each record's URL field is; the [`Engine`] hands
//! chunks to worker threads, which walk their records with a [`Job`] and
//! give each URL to the operation; the calling thread takes the results in
//! input order, and the [`Ledger`] writes them, with the bad records'
//! fate: skipped and counted, written to a rejects file, passed through,
//! or the end of the run under `--strict` ([`Policy`]). The [`Tally`]
//! accounts for every record: valid, empty or bad by [`Reason`].
//!
//! # Example
//!
//! Every valid record's normalized href, in input order, from a CSV file's
//! `link` column; bad rows are counted, never lost:
//!
//! ```
//! use urlsift_records::{Engine, Job, Ledger, Options, Policy, Spec};
//!
//! # let tmp = tempfile::Builder::new().prefix("urlsift-doc-records-").tempdir()?;
//! # let dir = tmp.path();
//! let path = dir.join("crawl.csv");
//! std::fs::write(&path, "id,link\n1,HTTP://Example.COM/a/../b\n2,\"not a URL\"\n3,https://e.org\n")?;
//!
//! let spec = Spec { field: Some("link".into()), ..Spec::default() };
//! let engine = Engine::new(vec![path], &Options { spec, ..Options::default() })?;
//! let job = Job::default();
//! let mut ledger = Ledger::new(Vec::new(), None::<std::io::Sink>, Policy::default(), b'\n');
//! let errors = engine.run(
//!     |chunk| {
//!         job.run_parsed(chunk, None, (), |p, _rec, _text, parser| {
//!             let href = parser.last_mut().expect("parsed").href();
//!             let out = p.append();
//!             out.extend_from_slice(href.as_bytes());
//!             out.push(b'\n');
//!             Ok(())
//!         })
//!     },
//!     |chunk, p| ledger.consume(chunk, p),
//! )?;
//! let (out, _, tally) = ledger.into_parts();
//! assert!(errors.is_empty());
//! assert_eq!(out, b"http://example.com/b\nhttps://e.org/\n");
//! assert_eq!(
//!     tally.summary(1, "records", false),
//!     "3 records from 1 input: 2 valid, 0 empty, 1 bad (1 missing-scheme-non-relative-URL; skipped)"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `examples/read_records.rs` is the same program for any input the
//! command reads. The operations the command builds on the engine are
//! here too: the [`stage`] of edits and filters, `extract`'s [`fields`],
//! and `dedup`'s seen-set with its spill files ([`dedup`]).

pub mod chunk;
pub mod dedup;
mod engine;
mod error;
pub mod fields;
pub mod format;
mod lanes;
mod ledger;
mod order;
#[cfg(feature = "parquet")]
pub mod parquet;
mod policy;
mod processed;
pub mod reader;
mod reason;
mod setting;
mod tally;
pub mod timings;
mod walk;

pub use chunk::{BufPool, Chunk, Data, Oversize, Source};
pub use engine::{Engine, EngineBuilder, Options};
pub use error::{Error, Location, Stop};
pub use format::quote::write_escaped;
pub use format::{Format, Found, Kind, Rec, Shape, Spec};
pub use input::InputError;
pub use ledger::{Count, Ledger, LineBase, write_pieces, write_reject, write_reject_line};
pub use order::ChunkOrder;
pub use policy::{PassThrough, Policy};
pub use processed::{Processed, Rejected};
pub use reason::Reason;
pub use setting::{LibraryNames, Setting, SettingError, SettingNames};
pub use tally::Tally;
/// The URL stage (edits, then filters): the parser crate's
/// [`urlsift::stage`].
pub use urlsift::stage;
/// The inputs: the `urlsift-input` crate ([`input::cores`] too).
pub use urlsift_input as input;
pub use urlsift_input::cores;
pub use walk::{Job, OnView, PerRecord};

/// The library guide's examples (`docs/library.md`), compiled and run as
/// doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/library.md")]
pub struct LibraryDoctests;

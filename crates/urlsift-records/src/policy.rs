//! The bad-record policy, as the workers apply it: every bad record is
//! counted by reason, then skipped, passed through (`--keep-invalid`),
//! remembered for the rejects file (`--rejects`) or made the end of the
//! run (`--strict`). [`Job`](super::Job) is where the workers meet a bad
//! record and [`Ledger`](super::Ledger) where its fate is written, in
//! input order; this module is the rule between them.
//!
//! ```
//! use std::sync::Arc;
//! use urlsift_records::{Chunk, Format, Job, Policy, Processed, Source};
//!
//! let source = Arc::new(Source { name: "t.txt".into(), format: Format::Lines });
//! let chunk = Chunk::plain(source, 1, 0, b"https://e.com/\nnot a url\n".to_vec());
//! let job = Job { policy: Policy { keep_invalid: true, ..Policy::default() }, ..Job::default() };
//! let p: Processed<()> = job.run(&chunk, |p, _rec, url| {
//!     let parsed = urlsift::Url::parse(url).map_err(urlsift_records::Reason::Url)?;
//!     p.flush();
//!     p.out.extend_from_slice(parsed.href().as_bytes());
//!     p.out.push(b'\n');
//!     Ok(())
//! });
//! assert_eq!(p.out, b"https://e.com/\nnot a url\n"); // the bad line passed through
//! assert_eq!(p.tally.bad_total(), 1);
//! ```

use super::format::Rec;
use super::processed::{Processed, Rejected};
use super::reason::Reason;

/// What `--keep-invalid` passes through for a bad record.
pub enum PassThrough<'a> {
    /// The raw line and the output terminator.
    Raw,
    /// These bytes (the record with its own terminator).
    Bytes(&'a [u8]),
    /// Nothing: read-only formats write URL lines only.
    Nothing,
    /// These bytes, as they are (a Parquet row's frame).
    Exact(&'a [u8]),
}

/// What becomes of bad records. The default skips and counts them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    /// Pass bad records through to the output as they came
    /// (`--keep-invalid`), for formats written back and URL lines.
    pub keep_invalid: bool,
    /// Stop at the first bad record (`--strict`): the run ends with
    /// [`Error::Strict`](super::Error::Strict) after the records before it.
    pub strict: bool,
    /// Remember each bad record for a rejects file (`--rejects`).
    pub record_rejects: bool,
}

impl Policy {
    /// Handles a bad record: counts it, then keeps, records or stops on
    /// it. Returns false when the worker must stop the chunk (`--strict`).
    pub fn bad_record<X>(
        &self,
        p: &mut Processed<X>,
        rec: &Rec<'_>,
        pass: PassThrough<'_>,
        reason: Reason,
        terminator: u8,
    ) -> bool {
        p.tally.add_bad(reason);
        let raw = rec.raw();
        let rejected = || Rejected {
            line: rec.line,
            offset: rec.offset,
            reason,
            raw: raw.to_vec(),
        };
        if self.strict {
            p.stopped = Some(rejected());
            return false;
        }
        if self.keep_invalid {
            let start = p.out.len();
            match pass {
                PassThrough::Raw => {
                    p.out.extend_from_slice(raw);
                    p.out.push(terminator);
                }
                PassThrough::Bytes(b) => {
                    p.out.extend_from_slice(b);
                    if !b.ends_with(b"\n") {
                        p.out.push(b'\n');
                    }
                }
                PassThrough::Exact(b) => p.out.extend_from_slice(b),
                PassThrough::Nothing => {}
            }
            if p.out.len() > start {
                p.passed_through.push((start, p.out.len()));
            }
        }
        if self.record_rejects {
            p.rejects.push(rejected());
        }
        true
    }
}

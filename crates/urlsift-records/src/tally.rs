//! The tally: counts that account for every record a run reads, each one
//! valid, empty or bad (by reason), with the valid ones a filter dropped
//! and the edits the standard refused. Workers count their chunks; the
//! ledger adds them up in input order.

use std::collections::BTreeMap;

use super::reason::Reason;

/// Counts that together account for every input record (a line, for
/// the line formats).
#[derive(Default, Debug, Clone)]
pub struct Tally {
    /// All records read.
    pub lines: u64,
    /// Empty records: no URL to parse (counted, not parsed).
    pub empty: u64,
    /// Records whose URL parsed.
    pub valid: u64,
    /// Bad records by reason.
    pub bad: BTreeMap<&'static str, u64>,
    /// Bytes read (after decompression).
    pub bytes: u64,
    /// Valid records dropped by a filter (`--site`, `--ext`, ...).
    pub filtered: u64,
    /// Edits (`--set`, `--append-param`) the standard refused.
    pub edits_refused: u64,
}

impl Tally {
    /// Counts one bad record.
    pub fn add_bad(&mut self, reason: Reason) {
        *self.bad.entry(reason.key()).or_insert(0) += 1;
    }

    /// All bad records, whatever their reason.
    pub fn bad_total(&self) -> u64 {
        self.bad.values().sum()
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &Tally) {
        self.lines += other.lines;
        self.empty += other.empty;
        self.valid += other.valid;
        self.bytes += other.bytes;
        self.filtered += other.filtered;
        self.edits_refused += other.edits_refused;
        for (k, v) in &other.bad {
            *self.bad.entry(k).or_insert(0) += v;
        }
    }

    /// One line that accounts for every record: `N lines from 1 input: V
    /// valid, E empty, B bad (counts by reason; skipped)`, then the
    /// filtered and refused counts when there are any. `files`: how many
    /// inputs were read; `noun`: what a record is called (`lines`,
    /// `records`); `kept`: the bad ones were passed through
    /// (`--keep-invalid`) rather than skipped.
    ///
    /// ```
    /// use urlsift_records::{Reason, Tally};
    ///
    /// let mut t = Tally { lines: 4, valid: 2, empty: 1, ..Tally::default() };
    /// t.add_bad(Reason::NulByte);
    /// assert_eq!(
    ///     t.summary(1, "lines", false),
    ///     "4 lines from 1 input: 2 valid, 1 empty, 1 bad (1 NUL-byte; skipped)"
    /// );
    /// ```
    pub fn summary(&self, files: usize, noun: &str, kept: bool) -> String {
        let t = self;
        // `1 line`, `2 lines`.
        let noun = match t.lines {
            1 => noun.strip_suffix('s').unwrap_or(noun),
            _ => noun,
        };
        let mut s = format!(
            "{} {noun} from {} input{}: {} valid, {} empty, {} bad",
            t.lines,
            files,
            if files == 1 { "" } else { "s" },
            t.valid,
            t.empty,
            t.bad_total()
        );
        if !t.bad.is_empty() {
            let reasons: Vec<String> = t.bad.iter().map(|(k, v)| format!("{v} {k}")).collect();
            s.push_str(&format!(
                " ({}; {})",
                reasons.join(", "),
                if kept { "passed through" } else { "skipped" }
            ));
        }
        if t.filtered > 0 {
            s.push_str(&format!("; {} valid filtered out", t.filtered));
        }
        if t.edits_refused > 0 {
            s.push_str(&format!(
                "; {} edits refused by the standard (URLs left as they were)",
                t.edits_refused
            ));
        }
        s
    }
}

/// The URL stage counts into the tally: `filtered`, `edits_refused`.
impl urlsift::stage::Counts for Tally {
    fn filtered(&mut self) {
        self.filtered += 1;
    }

    fn edit_refused(&mut self) {
        self.edits_refused += 1;
    }
}

//! Whether a run of decoded bytes is whole WARC records, each ending
//! inside it, so that walking it alone finds what walking it in its
//! stream finds: the check that lets the threads decoding a `.warc.gz`
//! (`.warc.zst`) in batches hand their members to the workers uncut, as
//! a chunk of their own ([`urlsift_input::decode::WholeCheck`]).
//!
//! A [`Reader`](crate::Reader) walking a run alone meets its end where
//! the stream would go on; the walks agree when none of its steps looks
//! past that end, which is what the check makes sure of: every record
//! starts with `WARC/`, its header block ends (within `max_header`) with
//! a Content-Length, and the payload that length claims ends inside the
//! run, followed by a few blank bytes, then the next record's `WARC/` or
//! the run's end. What follows the run must then start a record (or be
//! the end of the stream): whoever takes the run checks that (`WARC/`).

use crate::header::{BlockEnd, content_length};
use urlsift_simd as simd;

/// The most blank bytes (CR, LF) allowed after a payload: the reader
/// checks a record's end with 16 bytes past its claimed end at hand, so
/// the next record's `WARC/` must start within them.
const BLANKS: usize = 8;

/// Whether `bytes` are whole WARC records, as the module notes say:
/// headers of at most `max_header` bytes, each length ending its record
/// inside `bytes`. If they are, each record's start and the end of its
/// header block, in turn: where a [`Reader`](crate::Reader) walking them
/// finds their header blocks, each a whole record.
///
/// ```
/// use urlsift_warc::whole_records;
///
/// let record = b"WARC/1.1\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n";
/// let two = [&record[..], &record[..]].concat();
/// assert_eq!(whole_records(&two, 1 << 16), Some(vec![0, 31, 37, 68]));
/// // Cut inside the second record, or a length past the end.
/// assert_eq!(whole_records(&two[..two.len() - 5], 1 << 16), None);
/// assert_eq!(whole_records(b"WARC/1.1\r\nContent-Length: 9\r\n\r\nhi\r\n\r\n", 1 << 16), None);
/// // Not a record at all.
/// assert_eq!(whole_records(b"https://e.com/\n", 1 << 16), None);
/// ```
pub fn whole_records(bytes: &[u8], max_header: usize) -> Option<Vec<usize>> {
    let mut marks = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        let rest = &bytes[pos..];
        if !rest.starts_with(b"WARC/") {
            return None;
        }
        let window = &rest[..rest.len().min(max_header)];
        let head = simd::with_kernel(BlockEnd(window))?;
        let length = content_length(&rest[..head])?;
        let end = usize::try_from(length)
            .ok()
            .and_then(|l| l.checked_add(head))
            .filter(|&end| end <= rest.len())?;
        let blank = rest[end..]
            .iter()
            .take(BLANKS + 1)
            .take_while(|b| matches!(b, b'\r' | b'\n'))
            .count();
        if blank > BLANKS {
            return None;
        }
        marks.extend([pos, pos + head]);
        pos += end + blank;
    }
    Some(marks)
}

#[cfg(test)]
mod tests {
    use super::whole_records;

    fn record(payload: &str) -> Vec<u8> {
        format!(
            "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: {}\r\n\r\n{payload}\r\n\r\n",
            payload.len()
        )
        .into_bytes()
    }

    #[test]
    fn records_that_end_inside_are_whole() {
        let run = [record("a"), record(""), record("WARC/1.0\r\n\r\n")].concat();
        let marks = whole_records(&run, 1 << 16).expect("whole");
        let first = record("a").len();
        assert_eq!(marks.len(), 6);
        assert_eq!(&marks[..3], [0, first - 5, first]);
        assert_eq!(whole_records(b"", 1 << 16), Some(Vec::new()));
    }

    #[test]
    fn anything_a_walk_would_read_past_the_end_for_is_not() {
        let run = [record("abc"), record("def")].concat();
        // Cut anywhere but after a payload (its blank bytes may be cut:
        // what follows then does not start with `WARC/`, which the taker
        // checks).
        let first = record("abc").len();
        for cut in 1..=run.len() {
            let whole = (first - 4..=first).contains(&cut) || cut >= run.len() - 4;
            assert_eq!(
                whole_records(&run[..cut], 1 << 16).is_some(),
                whole,
                "cut at {cut}"
            );
        }
        // Garbage between records, a record without its length, a header
        // over the limit, too many blank bytes.
        let garbage = [record("a"), b"junk\r\n".to_vec(), record("b")].concat();
        assert!(whole_records(&garbage, 1 << 16).is_none());
        assert!(whole_records(b"WARC/1.1\r\nWARC-Type: x\r\n\r\n", 1 << 16).is_none());
        assert!(whole_records(&record("a"), 20).is_none());
        let blanks = [record("a"), b"\r\n\r\n\r\n".to_vec(), record("b")].concat();
        assert!(whole_records(&blanks, 1 << 16).is_none());
        let two_more = [record("a"), b"\r\n".to_vec(), record("b")].concat();
        assert!(whole_records(&two_more, 1 << 16).is_some());
    }
}

//! Where CSV/TSV rows begin and end: [`scan_row`] for one row (what the
//! workers run per row), [`cut`] and [`cut_fast`] for the last row that
//! ends in a chunk (what the reader runs). The rules are those of the
//! module docs of [`super`].

use urlsift_simd::{self as simd, ByteSet, Classes, Groups, Kernel, WithKernel};

use crate::reason::Reason;

/// How one row scan ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scan {
    /// A row: its bytes end at `end`, its terminator at `next`; `quoted`
    /// when it holds a quote (else its fields are plain runs between
    /// delimiters).
    Row {
        end: usize,
        next: usize,
        quoted: bool,
    },
    /// A blank line (not a row): skip to `next`.
    Blank { next: usize },
    /// A bad row, from its start to `end` (the end of the line where the
    /// bad quote opened); reading resumes at `next`.
    Bad {
        end: usize,
        next: usize,
        reason: Reason,
    },
    /// The row goes on past the data (only when more may come).
    NeedMore,
}

/// Scans the row that starts at `start` in `data`. `more`: bytes may
/// follow `data` (then a row that reaches the end is [`Scan::NeedMore`]).
#[inline]
pub fn scan_row(data: &[u8], start: usize, delimiter: u8, more: bool) -> Scan {
    let len = data.len();
    debug_assert!(start < len);
    if matches!(data[start], b'\r' | b'\n') {
        return match terminator_end(data, start, more) {
            Some(next) => Scan::Blank { next },
            None => Scan::NeedMore,
        };
    }
    // Most rows hold no quote: their end is the first CR or LF, whatever
    // the delimiters. One search per row.
    match memchr::memchr3(b'"', b'\r', b'\n', &data[start..]) {
        Some(at) if data[start + at] != b'"' => {
            let end = start + at;
            return match terminator_end(data, end, more) {
                Some(next) => Scan::Row {
                    end,
                    next,
                    quoted: false,
                },
                None => Scan::NeedMore,
            };
        }
        None if more => return Scan::NeedMore,
        None => {
            return Scan::Row {
                end: len,
                next: len,
                quoted: false,
            };
        }
        Some(_) => {}
    }
    scan_quoted_row(data, start, delimiter, more)
}

/// [`scan_row`] for a row that holds a quote: field by field.
fn scan_quoted_row(data: &[u8], start: usize, delimiter: u8, more: bool) -> Scan {
    let len = data.len();
    let mut field = start;
    loop {
        // `field` is the start of a field, and inside the data.
        let end = if data[field] == b'"' {
            let mut i = field + 1;
            loop {
                let Some(q) = memchr::memchr(b'"', &data[i..]).map(|q| i + q) else {
                    if more {
                        return Scan::NeedMore;
                    }
                    return bad_from(data, field, Reason::BadQuote, more);
                };
                match data.get(q + 1) {
                    None if more => return Scan::NeedMore,
                    None => break q + 1,
                    Some(b'"') => i = q + 2,
                    Some(&c) if c == delimiter || c == b'\r' || c == b'\n' => break q + 1,
                    Some(_) => return bad_from(data, field, Reason::BadQuote, more),
                }
                if i >= len {
                    if more {
                        return Scan::NeedMore;
                    }
                    return bad_from(data, field, Reason::BadQuote, more);
                }
            }
        } else {
            match memchr::memchr3(delimiter, b'\r', b'\n', &data[field..]) {
                Some(at) => field + at,
                None if more => return Scan::NeedMore,
                None => len,
            }
        };
        // `end` is a delimiter, a row end or the end of the data.
        match data.get(end) {
            None => {
                return Scan::Row {
                    end,
                    next: end,
                    quoted: true,
                };
            }
            Some(&c) if c == delimiter && c != b'\r' && c != b'\n' => {
                if end + 1 == len {
                    if more {
                        return Scan::NeedMore;
                    }
                    return Scan::Row {
                        end: len,
                        next: len,
                        quoted: true,
                    };
                }
                field = end + 1;
            }
            Some(_) => {
                return match terminator_end(data, end, more) {
                    Some(next) => Scan::Row {
                        end,
                        next,
                        quoted: true,
                    },
                    None => Scan::NeedMore,
                };
            }
        }
    }
}

/// Where the row terminator at `at` (`\r`, `\n` or `\r\n`) ends; `None`
/// when a `\r` ends the data and a `\n` may follow.
#[inline]
pub(super) fn terminator_end(data: &[u8], at: usize, more: bool) -> Option<usize> {
    match (data[at], data.get(at + 1)) {
        (b'\r', Some(b'\n')) => Some(at + 2),
        (b'\r', None) if more => None,
        _ => Some(at + 1),
    }
}

/// A bad row for a quote opened at `quote`: it ends with that line (so
/// it needs that line's end, when more may come).
fn bad_from(data: &[u8], quote: usize, reason: Reason, more: bool) -> Scan {
    match memchr::memchr(b'\n', &data[quote..]) {
        Some(i) => {
            let nl = quote + i;
            let end = if nl > 0 && data[nl - 1] == b'\r' {
                nl - 1
            } else {
                nl
            };
            Scan::Bad {
                end: end.max(quote),
                next: nl + 1,
                reason,
            }
        }
        None if more => Scan::NeedMore,
        None => Scan::Bad {
            end: data.len(),
            next: data.len(),
            reason,
        },
    }
}

/// The reader's cut: how many bytes of `data` (which starts at a row
/// boundary) hold whole rows, or `None` if not even one row ends in it.
/// `max_row` bounds how long a row may grow before it is decided with
/// what is there (an unclosed quote is then a bad row).
pub fn cut(data: &[u8], delimiter: u8, more: bool, max_row: usize) -> Cut {
    let mut at = 0;
    // Where the next quote is: up to it, rows are lines.
    let mut quote = memchr::memchr(b'"', data).unwrap_or(data.len());
    while at < data.len() {
        if quote < at {
            quote = memchr::memchr(b'"', &data[at..]).map_or(data.len(), |q| at + q);
        }
        // Jump over the quote-free lines before the next quote (ending a
        // line with a lone CR does not matter: the next line starts a row
        // either way).
        if let Some(nl) = memchr::memrchr(b'\n', &data[at..quote]) {
            at += nl + 1;
            continue;
        }
        match scan_row(data, at, delimiter, more) {
            Scan::Row { next, .. } | Scan::Blank { next } | Scan::Bad { next, .. } => at = next,
            Scan::NeedMore => {
                if data.len() - at <= max_row {
                    break;
                }
                // Too long to wait for: decide with what is here.
                return match scan_row(data, at, delimiter, false) {
                    // A bad row (a quote that never closed) ends the chunk,
                    // so the workers see it end where the reader did.
                    Scan::Bad { next, .. } => Cut::Rows(next),
                    // A long row that does end here: the workers will
                    // find it too long.
                    Scan::Row { next, end, .. } if next > end => Cut::Rows(next),
                    _ if at > 0 => Cut::Rows(at),
                    _ => Cut::Oversize,
                };
            }
        }
    }
    if at == 0 { Cut::None } else { Cut::Rows(at) }
}

/// Where [`cut`] may stop, found without walking rows: the end of the last
/// line (`\n`) that lies outside quotes, in one SIMD pass over `data` (the
/// rest of a source, more bytes to come, starting on a row). `None` when
/// the pass cannot tell, so [`cut`] decides.
///
/// Outside quotes is quote parity: a prefix XOR of the quote positions,
/// 64 bytes at a time. Parity is [`scan_row`]'s reading as long as every
/// quote sits where RFC 4180 puts it: an opening quote at a field's start
/// (after a delimiter, a line end, the data's start, or the closing quote
/// of a doubled `""`), a closing quote before a delimiter, a line end or
/// the next quote of a `""`. The pass stops at the first quote that does
/// not (a quote inside an unquoted field, text after a closing quote):
/// lines before it are read alike both ways. It answers only with a cut
/// in the second half of `data`, so odd quotes cost a row walk, never a
/// run of small chunks.
///
/// With the cut comes the number of line ends before it, as [`line_ends`]
/// counts them (LF, CRLF, a lone CR; in quotes too), so the reader numbers
/// the chunk's lines without another pass over it.
///
/// [`line_ends`]: super::line_ends
pub fn cut_fast(data: &[u8], delimiter: u8) -> Option<(usize, u64)> {
    let found = parity(data, delimiter, false)?.last_line?;
    (found.0 > data.len() / 2).then_some(found)
}

/// What one quote-parity pass over a piece of CSV found ([`parity`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parity {
    /// Just past the last line end (`\n`) outside quotes before the first
    /// misplaced quote, and the line ends before it.
    pub last_line: Option<(usize, u64)>,
    /// A misplaced quote stopped the pass (what follows it is unknown).
    pub stopped: bool,
    /// The line ends in the whole piece (when not stopped).
    pub ends: u64,
}

/// The quote-parity pass of [`cut_fast`] over `data`, which starts a row
/// or, `inside`, starts just after a line end inside a quoted field: so
/// pieces of a file cut after line ends can be passed over on several
/// threads, each from both states, and chained in order. `None` for a
/// delimiter the pass does not know.
pub fn parity(data: &[u8], delimiter: u8, inside: bool) -> Option<Parity> {
    Some(match delimiter {
        b',' => simd::with_kernel(QuoteParity::<b','>(data, inside)),
        b'\t' => simd::with_kernel(QuoteParity::<b'\t'>(data, inside)),
        b';' => simd::with_kernel(QuoteParity::<b';'>(data, inside)),
        b'|' => simd::with_kernel(QuoteParity::<b'|'>(data, inside)),
        _ => return None,
    })
}

/// The bytes [`cut_fast`] looks at: quotes, line ends and the delimiter.
struct Structure<const D: u8>;

impl<const D: u8> Classes for Structure<D> {
    /// Unused.
    const SET: ByteSet = ByteSet::outside_range_or(0, 255, &[]);
    const GROUPS: Groups = Groups::new(&[b"\"", b"\n", b"\r", &[D]]);
    /// Unused; the full range costs the kernels nothing.
    const RANGE: (u8, u8) = (0, 255);
}

/// [`parity`] for delimiter `D`, as work for [`simd::with_kernel`]: the
/// end of the last line outside quotes before the first misplaced quote,
/// from a row start (or, with `.1`, from inside quotes after a line end).
pub(super) struct QuoteParity<'a, const D: u8>(pub(super) &'a [u8], pub(super) bool);

impl<const D: u8> WithKernel for QuoteParity<'_, D> {
    type Output = Parity;

    #[inline(always)]
    fn run<K: Kernel>(self, k: K) -> Parity {
        let data = self.0;
        // Carried from the block before: quote parity (all ones inside
        // quotes), whether its last byte may precede an opening quote,
        // whether its last byte is a closing quote, and whether it is a CR
        // (lone unless this block starts with a LF). Before the first
        // block: a line end.
        let mut inside = 0u64.wrapping_sub(u64::from(self.1));
        let mut may_open = 1u64;
        let mut closed = 0u64;
        let mut cr_last = 0u64;
        // Line ends in the blocks before this one.
        let mut ends = 0u64;
        let mut last_line = None;
        for (n, block) in data.chunks(64).enumerate() {
            let m = k.block_masks::<Structure<D>>(block);
            let [quotes, lf, cr, delims, ..] = m.groups;
            ends += cr_last & !lf;
            let parity = prefix_xor(quotes) ^ inside;
            let opening = quotes & parity;
            let closing = quotes & !parity;
            // Bytes a quote may follow when it opens a field, and that may
            // follow a closing quote.
            let bounds = lf | cr | delims | quotes;
            let full = simd::low_bits(block.len());
            let misplaced_open = opening & !(bounds << 1 | may_open);
            let after_close = (closing << 1 | closed) & full;
            let misplaced_close = after_close & !bounds;
            let lines = lf & !parity;
            // Line ends as CSV counts them: every LF, and every CR not
            // followed by one (the last byte's CR waits for the next block).
            let line_ends = lf | (cr & !(lf >> 1) & !(1 << 63));
            let base = n * 64;
            // The first misplaced quote (a misplaced close shows on the
            // byte after it, which is no line end): only the line ends
            // before it count.
            let bad = (misplaced_open | misplaced_close).trailing_zeros();
            let counted = if bad < 64 {
                lines & simd::low_bits(bad as usize)
            } else {
                lines
            };
            if counted != 0 {
                // Just past the last of them.
                let past = 64 - counted.leading_zeros() as usize;
                let before = line_ends & simd::low_bits(past);
                last_line = Some((base + past, ends + u64::from(before.count_ones())));
            }
            if bad < 64 {
                return Parity {
                    last_line,
                    stopped: true,
                    ends,
                };
            }
            ends += u64::from(line_ends.count_ones());
            inside = 0u64.wrapping_sub(parity >> 63);
            may_open = bounds >> 63;
            closed = closing >> 63;
            cr_last = cr >> 63;
        }
        Parity {
            last_line,
            stopped: false,
            ends,
        }
    }
}

/// Bit `i` set when an odd number of bits `0..=i` of `x` are.
#[inline(always)]
fn prefix_xor(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

/// What [`cut`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Cut {
    /// Whole rows end here.
    Rows(usize),
    /// No row ends yet: read more.
    None,
    /// The first row is longer than the limit and not a bad quote: an
    /// over-long line, streamed past.
    Oversize,
}

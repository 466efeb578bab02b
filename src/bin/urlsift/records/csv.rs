//! CSV and TSV (RFC 4180 quoting, with `\t` as TSV's delimiter): where rows
//! begin and end, which field holds the URL, and writing a field back.
//!
//! Two tools, one rule book. The csv crate's own parser (`csv_core`, field
//! by field) reads each row's fields: it reports how many raw bytes each
//! one spans, so a row is written back with only the URL field's bytes
//! changed (in rows with quotes the workers find the URL field with a
//! search per field, [`quoted_field`], and the crate only where that
//! cannot tell). Row boundaries come from [`scan_row`], a memchr-driven
//! scan that the workers run to delimit each row, and that the reader
//! runs over a chunk when it must find the last row that ends there and
//! one SIMD pass of quote parity ([`cut_fast`]) cannot answer (a quote out
//! of place); it follows `csv_core`'s rules (a quote opens
//! a quoted field only at the field's start; `""` inside one is a quote;
//! `\r`, `\n` and `\r\n` end a row outside quotes; blank lines are not
//! rows), and the tests hold it to the crate on generated input.
//!
//! One rule is ours: a quote must close where its field ends. `csv_core`
//! prefers *a* parse to none, so an opening quote left unclosed swallows
//! every line up to the next quote in the file. Here a quoted field whose
//! closing quote is not followed by a delimiter or a row end, or that never
//! closes, makes a bad row that ends with the line where the quote opened;
//! reading resumes on the next line.

use std::borrow::Cow;

use csv_core::{ReadFieldResult, Reader, ReaderBuilder};

use urlsift::simd::{self, ByteSet, Classes, Groups, Kernel, WithKernel};

use super::{Found, Rec, Shape};
use crate::input::Reason;

/// A CSV/TSV source's layout: its delimiter, the header's bytes and
/// names, and the URL column.
#[derive(Debug, Clone)]
pub struct Layout {
    pub delimiter: u8,
    /// Column names from the header (or `1`, `2`, ... without one).
    pub names: Vec<String>,
    /// The URL column, 0-based.
    pub column: usize,
}

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
fn terminator_end(data: &[u8], at: usize, more: bool) -> Option<usize> {
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
pub fn cut_fast(data: &[u8], delimiter: u8) -> Option<usize> {
    let found = match delimiter {
        b',' => simd::with_kernel(QuoteParity::<b','>(data)),
        b'\t' => simd::with_kernel(QuoteParity::<b'\t'>(data)),
        _ => None,
    }?;
    (found > data.len() / 2).then_some(found)
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

/// [`cut_fast`] for delimiter `D`, as work for [`simd::with_kernel`]: the
/// end of the last line outside quotes before the first misplaced quote.
struct QuoteParity<'a, const D: u8>(&'a [u8]);

impl<const D: u8> WithKernel for QuoteParity<'_, D> {
    type Output = Option<usize>;

    #[inline(always)]
    fn run<K: Kernel>(self, k: K) -> Option<usize> {
        let data = self.0;
        // Carried from the block before: quote parity (all ones inside
        // quotes), whether its last byte may precede an opening quote, and
        // whether its last byte is a closing quote.
        let mut inside = 0u64;
        let mut may_open = 1u64;
        let mut closed = 0u64;
        let mut last_line = None;
        for (n, block) in data.chunks(64).enumerate() {
            let m = k.block_masks::<Structure<D>>(block);
            let [quotes, lf, cr, delims, ..] = m.groups;
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
                last_line = Some(base + 64 - counted.leading_zeros() as usize);
            }
            if bad < 64 {
                return last_line;
            }
            inside = 0u64.wrapping_sub(parity >> 63);
            may_open = bounds >> 63;
            closed = closing >> 63;
        }
        last_line
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

impl Layout {
    /// The layout of a source whose header row (when it has one) is
    /// `header`. `field`: `--field` (a column name or 1-based number);
    /// by default the column named `url` (case-insensitive), or the first
    /// column without a header.
    pub fn new(
        delimiter: u8,
        header: Option<&[u8]>,
        field: Option<&str>,
        columns: usize,
    ) -> Result<Layout, String> {
        let names: Vec<String> = match header {
            Some(h) => {
                let mut rdr = ::csv::ReaderBuilder::new()
                    .has_headers(false)
                    .delimiter(delimiter)
                    .flexible(true)
                    .from_reader(h);
                let mut record = ::csv::ByteRecord::new();
                match rdr.read_byte_record(&mut record) {
                    Ok(true) => record
                        .iter()
                        .map(|f| String::from_utf8_lossy(f).into_owned())
                        .collect(),
                    _ => Vec::new(),
                }
            }
            None => (1..=columns.max(1)).map(|i| i.to_string()).collect(),
        };
        let shown = || {
            names
                .iter()
                .map(|n| format!("{n:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let column = match field {
            Some(f) => match f.parse::<usize>() {
                Ok(n) if n >= 1 => n - 1,
                Ok(_) => return Err("--field: columns are numbered from 1".into()),
                Err(_) if header.is_none() => {
                    return Err(format!(
                        "--field {f:?}: without a header row, name the column by number (1, 2, ...)"
                    ));
                }
                Err(_) => names
                    .iter()
                    .position(|n| n == f)
                    .or_else(|| names.iter().position(|n| n.eq_ignore_ascii_case(f)))
                    .ok_or_else(|| format!("no column {f:?} (columns: {})", shown()))?,
            },
            None if header.is_none() => 0,
            None => names
                .iter()
                .position(|n| n.trim().eq_ignore_ascii_case("url"))
                .ok_or_else(|| {
                    format!(
                        "no column named \"url\" (columns: {}); name the URL column with --field",
                        shown()
                    )
                })?,
        };
        Ok(Layout {
            delimiter,
            names,
            column,
        })
    }

    /// The 0-based column `name` denotes (a header name or a number).
    fn column_of(&self, name: &str) -> Option<usize> {
        match name.parse::<usize>() {
            Ok(n) if n >= 1 => Some(n - 1),
            _ => self
                .names
                .iter()
                .position(|n| n == name)
                .or_else(|| self.names.iter().position(|n| n.eq_ignore_ascii_case(name))),
        }
    }

    /// The decoded value of column `name` in `row` (`extract --fields @NAME`).
    pub fn named<'a>(&self, row: &'a [u8], name: &str) -> Option<Cow<'a, str>> {
        let column = self.column_of(name)?;
        let mut fields = Fields::new(self.delimiter);
        let (span, value) = fields.nth(row, column)?;
        let _ = span;
        Some(match value {
            Cow::Borrowed(b) => String::from_utf8_lossy(b),
            Cow::Owned(v) => Cow::Owned(String::from_utf8_lossy(&v).into_owned()),
        })
    }
}

/// One field of a row: the raw bytes it spans (quotes included), and its
/// value.
type Field<'a> = ((usize, usize), Cow<'a, [u8]>);

/// Reads one row's fields with the csv crate's parser.
pub struct Fields {
    reader: Reader,
    scratch: Vec<u8>,
}

impl Fields {
    pub fn new(delimiter: u8) -> Fields {
        Fields {
            reader: ReaderBuilder::new().delimiter(delimiter).build(),
            scratch: Vec::new(),
        }
    }

    /// How many fields `row` has.
    pub fn count(&mut self, row: &[u8]) -> usize {
        let mut n = 0;
        while self.nth(row, n).is_some() {
            n += 1;
        }
        n
    }

    /// Field `n` (0-based) of `row` (one row, without its terminator): the
    /// raw bytes it spans, and its value (borrowed from `row` when it has
    /// no quotes to undo). `None` for a row with fewer fields.
    pub fn nth<'a>(&mut self, row: &'a [u8], n: usize) -> Option<Field<'a>> {
        self.reader.reset();
        if self.scratch.len() < row.len() {
            self.scratch.resize(row.len(), 0);
        }
        let mut at = 0;
        let mut index = 0;
        loop {
            let input = &row[at..];
            let (result, nin, nout) = self.reader.read_field(input, &mut self.scratch);
            let (record_end, nin, nout) = match result {
                ReadFieldResult::Field { record_end } => (record_end, nin, nout),
                // The row is all there: an empty input ends its last field.
                ReadFieldResult::InputEmpty => {
                    let (r, _, more_out) = self.reader.read_field(&[], &mut self.scratch[nout..]);
                    match r {
                        ReadFieldResult::Field { .. } => (true, nin, nout + more_out),
                        _ => return None,
                    }
                }
                ReadFieldResult::End => return None,
                ReadFieldResult::OutputFull => unreachable!("the scratch holds the whole row"),
            };
            // The raw span, without the delimiter that ended it.
            let raw_end = if record_end { at + nin } else { at + nin - 1 };
            if index == n {
                let raw = &row[at..raw_end];
                let value = if raw.first() == Some(&b'"') {
                    if nout + 2 == raw.len() {
                        Cow::Borrowed(&raw[1..raw.len() - 1])
                    } else {
                        Cow::Owned(self.scratch[..nout].to_vec())
                    }
                } else {
                    Cow::Borrowed(raw)
                };
                return Some(((at, raw_end), value));
            }
            if record_end {
                return None;
            }
            at += nin;
            index += 1;
        }
    }
}

/// Appends `value` as a CSV field: quoted (quotes doubled) when it holds
/// the delimiter, a quote, CR or LF, or when the field it replaces was
/// quoted; as it is otherwise.
pub fn write_field(out: &mut Vec<u8>, value: &[u8], delimiter: u8, quoted: bool) {
    let needs = quoted
        || value
            .iter()
            .any(|&b| b == delimiter || b == b'"' || b == b'\r' || b == b'\n');
    if !needs {
        out.extend_from_slice(value);
        return;
    }
    out.push(b'"');
    let start = out.len();
    out.resize(start + 2 * value.len(), 0);
    let (_, _, written) = csv_core::quote(value, &mut out[start..], b'"', b'\\', true);
    out.truncate(start + written);
    out.push(b'"');
}

/// Field `n` (0-based) of a row without quotes: the run between
/// delimiters (what the csv crate's parser reads there, as the tests
/// check); `None` for a row with fewer fields.
#[inline]
fn plain_field(row: &[u8], n: usize, delimiter: u8) -> Option<(usize, usize)> {
    let mut start = 0;
    for _ in 0..n {
        start += memchr::memchr(delimiter, &row[start..])? + 1;
    }
    let end = memchr::memchr(delimiter, &row[start..]).map_or(row.len(), |i| start + i);
    Some((start, end))
}

/// The line ends in `bytes` as CSV counts them: LF, CRLF and a lone CR
/// (so line numbers do not depend on how a file's lines end, nor on where
/// chunks are cut; a CR at the end of `bytes` is lone, as chunks are never
/// cut inside a CRLF).
pub fn line_ends(bytes: &[u8]) -> u64 {
    let lf = memchr::memchr_iter(b'\n', bytes).count();
    let lone_cr = if memchr::memchr(b'\r', bytes).is_none() {
        0
    } else {
        memchr::memchr_iter(b'\r', bytes)
            .filter(|&i| bytes.get(i + 1) != Some(&b'\n'))
            .count()
    };
    (lf + lone_cr) as u64
}

/// What [`quoted_field`] found.
enum Walked<'a> {
    Field(Field<'a>),
    /// The row has fewer fields.
    Short,
    /// Not a row [`scan_row`] passed: the csv crate's parser decides.
    Unsure,
}

/// Field `n` of a row that [`scan_row`] passed with quotes in it, walked
/// field by field with a search per field (the csv crate's parser steps
/// a state machine per byte): a field that starts with a quote runs to
/// the quote that closes it (`""` inside is a quote), which the scan made
/// sure a delimiter or the row's end follows; any other field runs to the
/// next delimiter, quotes in it being data. The same spans and values as
/// [`Fields::nth`], which the walk's tests hold it to.
#[inline]
fn quoted_field(row: &[u8], n: usize, delimiter: u8) -> Walked<'_> {
    let mut start = 0;
    let mut index = 0;
    loop {
        let (end, value) = if row.get(start) == Some(&b'"') {
            let mut i = start + 1;
            let mut doubled = false;
            let close = loop {
                let Some(q) = memchr::memchr(b'"', &row[i..]).map(|q| i + q) else {
                    return Walked::Unsure;
                };
                if row.get(q + 1) == Some(&b'"') {
                    doubled = true;
                    i = q + 2;
                } else {
                    break q;
                }
            };
            if close + 1 < row.len() && row[close + 1] != delimiter {
                return Walked::Unsure;
            }
            let inner = &row[start + 1..close];
            let value = if doubled {
                let mut v = Vec::with_capacity(inner.len());
                let mut rest = inner;
                while let Some(q) = memchr::memchr(b'"', rest) {
                    // A doubled quote: keep one.
                    v.extend_from_slice(&rest[..=q]);
                    rest = &rest[q + 2..];
                }
                v.extend_from_slice(rest);
                Cow::Owned(v)
            } else {
                Cow::Borrowed(inner)
            };
            (close + 1, value)
        } else {
            let end = memchr::memchr(delimiter, &row[start..]).map_or(row.len(), |d| start + d);
            (end, Cow::Borrowed(&row[start..end]))
        };
        if index == n {
            return Walked::Field(((start, end), value));
        }
        if end >= row.len() {
            return Walked::Short;
        }
        start = end + 1;
        index += 1;
    }
}

/// Walks the rows of `data` (a chunk of a CSV/TSV source after its `head`
/// bytes), calling `each` with every row and its URL field; stops when
/// `each` returns false. Blank lines are empty records.
#[allow(clippy::too_many_arguments)]
pub fn walk<'a>(
    layout: &'a Layout,
    data: &'a [u8],
    head: usize,
    first_line: u64,
    offset: u64,
    truncated: bool,
    mut each: impl FnMut(Rec<'a>, Found<'a>) -> bool,
) {
    let mut fields = Fields::new(layout.delimiter);
    // Fields are cut at ASCII bytes: when the whole chunk is UTF-8 without
    // NUL, every field is, and none is checked again.
    let clean = if memchr::memchr(0, data).is_none() {
        simdutf8::basic::from_utf8(data).ok()
    } else {
        None
    };
    let mut at = head;
    let mut line = first_line;
    let shape = Shape::Csv {
        delimiter: layout.delimiter,
    };
    let mut next_quote = head;
    if head < data.len() {
        next_quote = memchr::memchr(b'"', &data[head..]).map_or(data.len(), |q| head + q);
    }
    while at < data.len() {
        // Before the chunk's next quote, a row is a line (ended by LF, CRLF
        // or a lone CR): one search, the quote search shared by many rows.
        if next_quote < at {
            next_quote = memchr::memchr(b'"', &data[at..]).map_or(data.len(), |q| at + q);
        }
        let scan = match memchr::memchr2(b'\r', b'\n', &data[at..next_quote]) {
            Some(i) if i > 0 => match terminator_end(data, at + i, false) {
                Some(next) => Scan::Row {
                    end: at + i,
                    next,
                    quoted: false,
                },
                None => scan_row(data, at, layout.delimiter, false),
            },
            _ => scan_row(data, at, layout.delimiter, false),
        };
        let mut rec = Rec {
            data,
            start: at,
            end: at,
            next: at,
            line,
            offset: offset + at as u64,
            field: (at, at),
            shape,
        };
        let found = match scan {
            Scan::Blank { next } => {
                rec.next = next;
                Found::Empty
            }
            Scan::Bad { end, next, reason } => {
                (rec.end, rec.next) = (end, next);
                Found::Bad(reason)
            }
            Scan::NeedMore => unreachable!("a chunk is scanned as complete"),
            Scan::Row { end, next, .. } if next == end && truncated => {
                (rec.end, rec.next) = (end, next);
                Found::Bad(Reason::Truncated)
            }
            Scan::Row { end, next, quoted } => {
                (rec.end, rec.next) = (end, next);
                let row = &data[at..end];
                // Fields before a row's first quote are plain runs too.
                let plain = plain_field(row, layout.column, layout.delimiter)
                    .filter(|&(_, e)| !quoted || at + e <= next_quote);
                let field = match plain {
                    Some((s, e)) => Some(((s, e), Cow::Borrowed(&row[s..e]))),
                    None if quoted => match quoted_field(row, layout.column, layout.delimiter) {
                        Walked::Field(f) => Some(f),
                        Walked::Short => None,
                        Walked::Unsure => fields.nth(row, layout.column),
                    },
                    None => None,
                };
                match field {
                    None => Found::Bad(Reason::MissingField),
                    Some(((s, e), value)) => {
                        rec.field = (at + s, at + e);
                        match (&value, clean) {
                            (Cow::Borrowed(_), Some(text)) if s < e => {
                                let raw = if quoted && row[s] == b'"' {
                                    (at + s + 1, at + e - 1)
                                } else {
                                    (at + s, at + e)
                                };
                                match text.get(raw.0..raw.1) {
                                    Some("") => Found::Empty,
                                    Some(t) => Found::Url(Cow::Borrowed(t)),
                                    None => text_of(value),
                                }
                            }
                            _ => text_of(value),
                        }
                    }
                }
            }
        };
        // Rows end in LF, CRLF or a lone CR, each a line end; quoted
        // fields may hold more.
        line += match scan {
            Scan::Row { quoted: false, .. } | Scan::Blank { .. } => u64::from(matches!(
                data.get(rec.next.wrapping_sub(1)),
                Some(b'\n' | b'\r')
            )),
            _ => line_ends(&data[at..rec.next]),
        };
        if !each(rec, found) {
            return;
        }
        at = rec.next;
    }
}

/// A field's value as the URL's text: empty, text, or not text.
#[inline]
fn text_of(value: Cow<'_, [u8]>) -> Found<'_> {
    if value.is_empty() {
        return Found::Empty;
    }
    match value {
        Cow::Borrowed(b) => match simdutf8::basic::from_utf8(b) {
            Ok(text) if memchr::memchr(0, b).is_none() => Found::Url(Cow::Borrowed(text)),
            Ok(_) => Found::Bad(Reason::NulByte),
            Err(_) => Found::Bad(Reason::InvalidUtf8),
        },
        Cow::Owned(v) => match String::from_utf8(v) {
            Ok(text) if !text.contains('\0') => Found::Url(Cow::Owned(text)),
            Ok(_) => Found::Bad(Reason::NulByte),
            Err(_) => Found::Bad(Reason::InvalidUtf8),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Rows as the scan delimits them, decoded by the csv crate's parser;
    /// bad rows as `None`.
    fn scanned(data: &[u8], delimiter: u8) -> Vec<Option<Vec<Vec<u8>>>> {
        let mut out = Vec::new();
        let mut fields = Fields::new(delimiter);
        let mut at = 0;
        while at < data.len() {
            match scan_row(data, at, delimiter, false) {
                Scan::Row { end, next, .. } => {
                    let row = &data[at..end];
                    let n = fields.count(row);
                    let values = (0..n)
                        .map(|i| fields.nth(row, i).unwrap().1.into_owned())
                        .collect();
                    out.push(Some(values));
                    at = next;
                }
                Scan::Blank { next } => at = next,
                Scan::Bad { next, .. } => {
                    out.push(None);
                    at = next;
                }
                Scan::NeedMore => unreachable!(),
            }
        }
        out
    }

    /// The rows the csv crate reads from `data` on its own.
    fn crate_rows(data: &[u8], delimiter: u8) -> Vec<Vec<Vec<u8>>> {
        let mut rdr = ::csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .delimiter(delimiter)
            .from_reader(data);
        rdr.byte_records()
            .map(|r| r.unwrap().iter().map(<[u8]>::to_vec).collect())
            .collect()
    }

    /// The rows a reader would hand out cutting `data` as it arrives in
    /// steps of `step` bytes.
    fn by_chunks(data: &[u8], delimiter: u8, step: usize, max_row: usize) -> Vec<Vec<u8>> {
        let mut chunks = Vec::new();
        let mut start = 0;
        let mut have = step.min(data.len());
        while start < data.len() {
            let more = have < data.len();
            match cut(&data[start..have], delimiter, more, max_row) {
                Cut::Rows(n) => {
                    chunks.push(data[start..start + n].to_vec());
                    start += n;
                }
                Cut::None if !more => {
                    chunks.push(data[start..have].to_vec());
                    start = have;
                }
                Cut::None => {}
                Cut::Oversize => panic!("no oversize rows here"),
            }
            have = (have + step).min(data.len());
        }
        chunks
    }

    fn csvish() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(
            prop_oneof![
                Just(b'a'),
                Just(b'b'),
                Just(b','),
                Just(b'"'),
                Just(b'\r'),
                Just(b'\n'),
                Just(b'\t'),
            ],
            0..60,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// Where every row is good, the scan and the crate read the same
        /// rows; and a bad row is only ever a quote not closed where its
        /// field ends.
        #[test]
        fn scan_agrees_with_the_csv_crate(data in csvish(), tab in any::<bool>()) {
            let delimiter = if tab { b'\t' } else { b',' };
            let ours = scanned(&data, delimiter);
            if ours.iter().all(Option::is_some) {
                let ours: Vec<Vec<Vec<u8>>> = ours.into_iter().flatten().collect();
                prop_assert_eq!(ours, crate_rows(&data, delimiter));
            }
        }

        /// Cutting as data arrives, in any step, gives the same rows as
        /// scanning all of it: the reader's chunks never split a row.
        #[test]
        fn cuts_do_not_depend_on_chunk_size(data in csvish(), step in 1usize..20) {
            let whole = scanned(&data, b',');
            let mut pieces = Vec::new();
            for chunk in by_chunks(&data, b',', step, usize::MAX) {
                pieces.extend(scanned(&chunk, b','));
            }
            prop_assert_eq!(pieces, whole);
        }
    }

    /// Where rows start when `data` is walked row by row with more to come
    /// (what [`cut`] does), up to the first row that needs more.
    fn row_starts(data: &[u8], delimiter: u8) -> Vec<usize> {
        let mut starts = vec![0];
        let mut at = 0;
        while at < data.len() {
            match scan_row(data, at, delimiter, true) {
                Scan::Row { next, .. } | Scan::Blank { next } | Scan::Bad { next, .. } => {
                    at = next;
                    starts.push(at);
                }
                Scan::NeedMore => break,
            }
        }
        starts
    }

    /// The quote-parity cut on both backends (the one picked at run time,
    /// and the portable one).
    fn parity_cuts(data: &[u8], delimiter: u8) -> [Option<usize>; 2] {
        match delimiter {
            b',' => [
                simd::with_kernel(QuoteParity::<b','>(data)),
                QuoteParity::<b','>(data).run(simd::Scalar),
            ],
            _ => [
                simd::with_kernel(QuoteParity::<b'\t'>(data)),
                QuoteParity::<b'\t'>(data).run(simd::Scalar),
            ],
        }
    }

    #[test]
    fn fast_cut_ends_the_last_line_outside_quotes_before_a_misplaced_quote() {
        let rows = "1,\"a, \"\"b\"\"\",x\n2,\"two\nlines\",y\n3,\"\",z\n";
        let mut data = rows.repeat(10).into_bytes();
        let whole = data.len();
        // A row cut off inside its quotes: the cut stays before it.
        data.extend_from_slice(b"4,\"open\nstill open");
        assert_eq!(parity_cuts(&data, b','), [Some(whole); 2]);
        assert_eq!(cut_fast(&data, b','), Some(whole));
        // A quote inside an unquoted field stops the pass there.
        let mut odd = rows.repeat(3).into_bytes();
        let before = odd.len();
        odd.extend_from_slice(b"5,ab\"c,d\n");
        odd.extend_from_slice(rows.repeat(3).as_bytes());
        assert_eq!(parity_cuts(&odd, b','), [Some(before); 2]);
        // Text after a closing quote, likewise.
        let mut odd = rows.repeat(3).into_bytes();
        odd.extend_from_slice(b"6,\"x\"y,z\n");
        odd.extend_from_slice(rows.repeat(3).as_bytes());
        assert_eq!(parity_cuts(&odd, b','), [Some(before); 2]);
        // Only a cut in the second half is taken.
        assert_eq!(cut_fast(&odd, b','), None);
        // TSV: a comma is data, a tab delimits.
        let tsv = "1\t\"a\tb\"\tx\n".repeat(9);
        assert_eq!(parity_cuts(tsv.as_bytes(), b'\t'), [Some(tsv.len()); 2]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5000))]

        /// In every row the scan passes with quotes in it, the field walk
        /// finds what the csv crate's parser finds: span and value.
        #[test]
        fn quoted_field_agrees_with_the_csv_crate(
            data in csvish(),
            column in 0usize..4,
            tab in any::<bool>(),
        ) {
            let delimiter = if tab { b'\t' } else { b',' };
            let mut fields = Fields::new(delimiter);
            let mut at = 0;
            while at < data.len() {
                match scan_row(&data, at, delimiter, false) {
                    Scan::Row { end, next, quoted } => {
                        let row = &data[at..end];
                        if quoted {
                            let want = fields.nth(row, column);
                            match quoted_field(row, column, delimiter) {
                                Walked::Field(f) => prop_assert_eq!(Some(f), want),
                                Walked::Short => prop_assert_eq!(None, want),
                                Walked::Unsure => prop_assert!(false, "unsure of {:?}", row),
                            }
                        }
                        at = next;
                    }
                    Scan::Blank { next } | Scan::Bad { next, .. } => at = next,
                    Scan::NeedMore => unreachable!(),
                }
            }
        }

        /// Where the quote-parity pass cuts, a row walk has a row start:
        /// the fast cut never splits a row, on any input and backend.
        #[test]
        fn fast_cut_is_a_row_start(
            parts in proptest::collection::vec(
                prop_oneof![
                    Just(&b"a"[..]), Just(&b","[..]), Just(&b"\t"[..]), Just(&b"\""[..]),
                    Just(&b"\"\""[..]), Just(&b"\r"[..]), Just(&b"\n"[..]), Just(&b"\r\n"[..]),
                    Just(&b"abcdefghijklmnopqrstuvwxyz0123456789"[..]),
                ],
                0..120,
            ),
            tab in any::<bool>(),
        ) {
            let data = parts.concat();
            let delimiter = if tab { b'\t' } else { b',' };
            let starts = row_starts(&data, delimiter);
            for (i, found) in parity_cuts(&data, delimiter).into_iter().enumerate() {
                if let Some(n) = found {
                    prop_assert!(starts.contains(&n), "backend {i}: cut {n} not in {starts:?}");
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// The walk (with its quote-free fast paths) finds the field the
        /// csv crate's parser reads in every good row (`scanned`, which the
        /// test above holds to the crate), and the same bad rows.
        #[test]
        fn walk_finds_the_crates_field(data in csvish(), column in 0usize..3) {
            let rows = scanned(&data, b',');
            let layout = Layout {
                delimiter: b',',
                names: Vec::new(),
                column,
            };
            let mut got = Vec::new();
            walk(&layout, &data, 0, 1, 0, false, |rec, found| {
                got.push(match found {
                    Found::Url(u) => Some(u.into_owned()),
                    Found::Empty => Some(String::new()),
                    Found::Bad(Reason::MissingField) => None,
                    Found::Bad(r) => Some(format!("<{}>", r.key())),
                });
                let _ = rec;
                true
            });
            let want: Vec<Option<String>> = rows
                .into_iter()
                .map(|r| match r {
                    None => Some("<bad-CSV-quote>".to_string()),
                    Some(r) => r.get(column).map(|f| String::from_utf8(f.clone()).unwrap()),
                })
                .collect();
            // Blank lines are empty records in the walk, not rows.
            let got: Vec<Option<String>> = got
                .into_iter()
                .zip(walk_kinds(&data))
                .filter(|(_, blank)| !blank)
                .map(|(g, _)| g)
                .collect();
            prop_assert_eq!(got, want);
        }
    }

    /// For each record the walk gives, whether it is a blank line.
    fn walk_kinds(data: &[u8]) -> Vec<bool> {
        let mut kinds = Vec::new();
        let mut at = 0;
        while at < data.len() {
            match scan_row(data, at, b',', false) {
                Scan::Blank { next } => {
                    kinds.push(true);
                    at = next;
                }
                Scan::Row { next, .. } | Scan::Bad { next, .. } => {
                    kinds.push(false);
                    at = next;
                }
                Scan::NeedMore => unreachable!(),
            }
        }
        kinds
    }

    #[test]
    fn quirks() {
        let rows = |s: &str| scanned(s.as_bytes(), b',');
        let v = |fields: &[&str]| Some(fields.iter().map(|f| f.as_bytes().to_vec()).collect());
        // Doubled quotes, quoted newlines and delimiters, CRLF, ragged rows.
        assert_eq!(
            rows("a,\"b \"\"x\"\", c\"\r\n\"multi\nline\",2,3\n\nlast"),
            vec![
                v(&["a", "b \"x\", c"]),
                v(&["multi\nline", "2", "3"]),
                v(&["last"])
            ]
        );
        // A quote left open is a bad row that ends with its line; the
        // next line is read again.
        assert_eq!(
            rows("u,\"open\nhttp://b,x\nhttp://c,\"ok\"\n"),
            vec![None, v(&["http://b", "x"]), v(&["http://c", "ok"])]
        );
        assert_eq!(rows("a,\"never closed\nb\n"), vec![None, v(&["b"])]);
        // A quote inside an unquoted field is a character.
        assert_eq!(rows("a\"b,c\n"), vec![v(&["a\"b", "c"])]);
    }

    #[test]
    fn writes_fields_quoted_when_needed() {
        let w = |v: &str, quoted| {
            let mut out = Vec::new();
            write_field(&mut out, v.as_bytes(), b',', quoted);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(w("http://a/", false), "http://a/");
        assert_eq!(w("http://a/", true), "\"http://a/\"");
        assert_eq!(w("http://a/?x=1,2", false), "\"http://a/?x=1,2\"");
        assert_eq!(w("a\"b", false), "\"a\"\"b\"");
    }
}

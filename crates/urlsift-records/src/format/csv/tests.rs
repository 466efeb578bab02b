//! The CSV rules against the csv crate's parser, on generated input.

use super::rows::QuoteParity;
use super::*;
use crate::format::quote::write_field;
use proptest::prelude::*;
use urlsift_simd::{self as simd, WithKernel};

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
/// and the portable one), each checked to count the line ends before its
/// cut as [`line_ends`] does.
fn parity_cuts(data: &[u8], delimiter: u8) -> [Option<usize>; 2] {
    let found = match delimiter {
        b',' => [
            simd::with_kernel(QuoteParity::<b','>(data, false)),
            QuoteParity::<b','>(data, false).run(simd::Scalar),
        ],
        _ => [
            simd::with_kernel(QuoteParity::<b'\t'>(data, false)),
            QuoteParity::<b'\t'>(data, false).run(simd::Scalar),
        ],
    };
    found.map(|f| {
        f.last_line.map(|(cut, ends)| {
            assert_eq!(
                ends,
                line_ends(&data[..cut]),
                "line ends before {cut} in {data:?}"
            );
            cut
        })
    })
}

#[test]
fn fast_cut_ends_the_last_line_outside_quotes_before_a_misplaced_quote() {
    let rows = "1,\"a, \"\"b\"\"\",x\n2,\"two\nlines\",y\n3,\"\",z\n";
    let mut data = rows.repeat(10).into_bytes();
    let whole = data.len();
    // A row cut off inside its quotes: the cut stays before it.
    data.extend_from_slice(b"4,\"open\nstill open");
    assert_eq!(parity_cuts(&data, b','), [Some(whole); 2]);
    assert_eq!(cut_fast(&data, b',').map(|c| c.0), Some(whole));
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
    // Lone CRs and CRLFs count as one line end each, across blocks.
    let ends = "1,\"a\rb\"\r2,x\r\n3,\"y\r\nz\"\n".repeat(20);
    let cut = cut_fast(ends.as_bytes(), b',').expect("a cut");
    assert_eq!(cut, (ends.len(), 100));
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
        let layout = CsvLayout {
            delimiter: b',',
            names: Vec::new(),
            column,
        };
        let mut got = Vec::new();
        walk(&layout, view(&data), |rec, found| {
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

/// A whole chunk of `data`: no head, line 1 at offset 0.
fn view(data: &[u8]) -> View<'_> {
    View {
        data,
        head: 0,
        first_line: 1,
        offset: 0,
        truncated: false,
        index: &[],
    }
}

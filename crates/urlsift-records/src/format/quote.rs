//! Writing values: back into records (a CSV or TSV field, quoted where it
//! must be or was; a JSON string, escaped), and as new rows (CSV rows as
//! the csv crate's writer writes them, TSV rows with the rejects file's
//! escapes). The write-back of [`Rec`](super::Rec), `extract`'s and
//! `links`' rows and the rejects lines use them.
//!
//! ```
//! use urlsift_records::format::quote;
//!
//! let mut out = Vec::new();
//! quote::write_field(&mut out, b"https://e.com/?a=1,2", b',', false);
//! out.push(b' ');
//! quote::write_string(&mut out, "say \"hi\"");
//! assert_eq!(out, br#""https://e.com/?a=1,2" "say \"hi\"""#);
//! assert!(quote::object_is_empty(b"{ "));
//! ```

use std::borrow::Cow;
use std::io::{self, Write};

/// Appends `value` as a CSV field: quoted (quotes doubled) when it holds
/// the delimiter, a quote, CR or LF, or when the field it replaces was
/// quoted; as it is otherwise.
pub fn write_field(out: &mut Vec<u8>, value: &[u8], delimiter: u8, quoted: bool) {
    let needs = quoted
        || value
            .iter()
            .any(|&b| b == delimiter || b == b'"' || b == b'\r' || b == b'\n');
    if needs {
        write_quoted(out, value);
    } else {
        out.extend_from_slice(value);
    }
}

/// Writes `raw` with backslash, tab, CR and LF escaped as `\\`, `\t`,
/// `\r`, `\n` (as a rejects record holds its raw record, and as TSV output
/// holds a value); runs between escapes are written whole.
///
/// ```
/// let mut out = Vec::new();
/// urlsift_records::format::quote::write_escaped(&mut out, b"a\tb\\c\r\n")?;
/// assert_eq!(out, br"a\tb\\c\r\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_escaped<W: Write + ?Sized>(out: &mut W, raw: &[u8]) -> io::Result<()> {
    let mut start = 0;
    for (i, &b) in raw.iter().enumerate() {
        let esc: &[u8] = match b {
            b'\\' => b"\\\\",
            b'\t' => b"\\t",
            b'\r' => b"\\r",
            b'\n' => b"\\n",
            _ => continue,
        };
        out.write_all(&raw[start..i])?;
        out.write_all(esc)?;
        start = i + 1;
    }
    out.write_all(&raw[start..])
}

/// A CSV row ended by `term`, as the csv crate's writer writes it, straight
/// into `out` (the writer's per-byte state machine was 7–9% of an
/// `extract --fields hostname` run): fields quoted where it quotes them
/// (`QuoteStyle::Necessary`), and a lone empty field as `""` (or the row
/// would read back as a blank line).
///
/// ```
/// use urlsift_records::format::quote::{write_csv_row, write_tsv_row};
///
/// let mut out = Vec::new();
/// write_csv_row(&mut out, ["a,b", "c"].iter(), b'\n');
/// write_csv_row(&mut out, [""].iter(), b'\n');
/// write_tsv_row(&mut out, ["a\tb", "c\\d"].iter(), b'\n');
/// assert_eq!(out, b"\"a,b\",c\n\"\"\na\\tb\tc\\\\d\n");
/// ```
pub fn write_csv_row<V: AsRef<str>>(out: &mut Vec<u8>, values: impl Iterator<Item = V>, term: u8) {
    let start = out.len();
    let mut fields = 0;
    for v in values {
        if fields > 0 {
            out.push(b',');
        }
        write_csv_value(out, v.as_ref().as_bytes(), term);
        fields += 1;
    }
    if fields == 1 && out.len() == start {
        out.extend_from_slice(b"\"\"");
    }
    out.push(term);
}

/// One CSV field of a row ended by `term`, quoted where the csv crate's
/// writer quotes it: when it holds a comma, a quote or the terminator, or
/// CR or LF when the terminator is one of them.
fn write_csv_value(out: &mut Vec<u8>, v: &[u8], term: u8) {
    let line_ends = matches!(term, b'\n' | b'\r');
    // (No early exit: fields are short, and the loop vectorizes.)
    let special = v.iter().fold(false, |found, &b| {
        found
            | (b == b',')
            | (b == b'"')
            | (b == term)
            | (line_ends & ((b == b'\n') | (b == b'\r')))
    });
    if special {
        write_quoted(out, v);
    } else {
        out.extend_from_slice(v);
    }
}

/// A TSV row ended by `term`: the values separated by tabs, each with
/// [`write_escaped`]'s escapes (`\t`, `\r`, `\n`, `\\`), so a value
/// never breaks the row.
pub fn write_tsv_row<V: AsRef<str>>(out: &mut Vec<u8>, values: impl Iterator<Item = V>, term: u8) {
    for (i, v) in values.enumerate() {
        if i > 0 {
            out.push(b'\t');
        }
        write_escaped(out, v.as_ref().as_bytes()).expect("a Vec takes every write");
    }
    out.push(term);
}

/// `value` in quotes, its quotes doubled (by the csv crate's `csv_core`).
pub fn write_quoted(out: &mut Vec<u8>, value: &[u8]) {
    out.push(b'"');
    let start = out.len();
    out.resize(start + 2 * value.len(), 0);
    let (_, _, written) = csv_core::quote(value, &mut out[start..], b'"', b'\\', true);
    out.truncate(start + written);
    out.push(b'"');
}

/// Appends `s` as a JSON string (escaping `"`, `\` and control characters).
pub fn write_string(out: &mut Vec<u8>, s: &str) {
    serde_json::to_writer(&mut *out, s).expect("strings serialize into a Vec");
}

/// A value of a JSON lines row ([`write_json_row`]).
#[derive(Clone, Debug)]
pub enum Json<'a> {
    /// A string, escaped.
    Str(Cow<'a, str>),
    /// A number, written as it is.
    Number(Cow<'a, str>),
    /// Space-separated words, as an array of strings.
    Words(Cow<'a, str>),
    /// `null`.
    Null,
}

/// Appends one JSON lines row: an object of `members` (name and value) in
/// order, then `term`. `extract --jsonl` and `links --jsonl` write theirs
/// so.
///
/// ```
/// use urlsift_records::format::quote::{Json, write_json_row};
///
/// let mut out = Vec::new();
/// let members = [
///     ("to", Json::Str("https://e.com/\"q\"".into())),
///     ("offset", Json::Number("42".into())),
///     ("rel", Json::Null),
///     ("sb", Json::Words("a/ b/".into())),
/// ];
/// write_json_row(&mut out, members, b'\n');
/// assert_eq!(out, br#"{"to":"https://e.com/\"q\"","offset":42,"rel":null,"sb":["a/","b/"]}"#.iter().chain(b"\n").copied().collect::<Vec<u8>>());
/// ```
pub fn write_json_row<'a>(
    out: &mut Vec<u8>,
    members: impl IntoIterator<Item = (&'a str, Json<'a>)>,
    term: u8,
) {
    out.push(b'{');
    for (i, (name, value)) in members.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_string(out, name);
        out.push(b':');
        match value {
            Json::Str(v) => write_string(out, &v),
            Json::Number(v) => out.extend_from_slice(v.as_bytes()),
            Json::Words(v) => {
                out.push(b'[');
                for (i, w) in v.split(' ').enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    write_string(out, w);
                }
                out.push(b']');
            }
            Json::Null => out.extend_from_slice(b"null"),
        }
    }
    out.push(b'}');
    out.push(term);
}

/// Whether `before_close` (an object up to, not including, its `}`) has
/// no members.
pub fn object_is_empty(before_close: &[u8]) -> bool {
    before_close
        .iter()
        .rev()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'{')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The csv crate's writer into memory, records ended by `term`.
    fn csv_writer(term: u8) -> csv::Writer<Vec<u8>> {
        csv::WriterBuilder::new()
            .terminator(csv::Terminator::Any(term))
            .from_writer(Vec::new())
    }

    /// `write_csv_row` writes what the csv crate's writer writes, for every
    /// terminator the command uses (LF, and NUL under `-0`).
    #[test]
    fn csv_rows_match_the_csv_crate() {
        let values = [
            "",
            "a",
            "a,b",
            "q\"q",
            "\"",
            "line\nbreak",
            "cr\rhere",
            "nul\0in",
            " sp ",
            "#x",
            "é,\"",
        ];
        for term in [b'\n', b'\0'] {
            for n in 1..=3 {
                for first in 0..values.len() {
                    let row: Vec<&str> = (0..n)
                        .map(|i| values[(first + 5 * i) % values.len()])
                        .collect();
                    let mut ours = b"before".to_vec();
                    write_csv_row(&mut ours, row.iter(), term);
                    let mut w = csv_writer(term);
                    w.write_record(&row).unwrap();
                    let theirs = [&b"before"[..], &w.into_inner().unwrap()].concat();
                    assert_eq!(ours, theirs, "{row:?} term {term}");
                }
            }
        }
    }

    #[test]
    fn tsv_escapes() {
        let tsv = |v: &str| {
            let mut out = b"x".to_vec();
            write_tsv_row(&mut out, [v].iter(), b'\n');
            out.pop();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(tsv(""), "x");
        assert_eq!(tsv("plain/path?q"), "xplain/path?q");
        assert_eq!(tsv("a\tb\rc\nd\\e"), "xa\\tb\\rc\\nd\\\\e");
        assert_eq!(tsv("\t\\"), "x\\t\\\\");
    }
}

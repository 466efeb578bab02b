//! Writing values back into records: a CSV or TSV field, quoted where it
//! must be (or was), and a JSON string, escaped. The write-back of
//! [`Rec`](super::Rec) and `extract`'s CSV output use them.
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

/// Whether `before_close` (an object up to, not including, its `}`) has
/// no members.
pub fn object_is_empty(before_close: &[u8]) -> bool {
    before_close
        .iter()
        .rev()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'{')
}

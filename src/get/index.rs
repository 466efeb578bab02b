//! The index `urlsift get` reads: where each line (or row) says its
//! record lies, from CDXJ, CDX, JSON lines, CSV/TSV or Parquet, a file's
//! or an object's.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;

use serde_json::Value;
use urlsift_records::input::wacz::is_wacz;
use urlsift_records::input::{self, decode};

use super::Wanted;

/// The lines of index file `path` (plain, gzip or zstd): CDXJ (`key
/// timestamp {json}`), JSON lines (Common Crawl's index API), or CDX
/// (11 fields: ... length offset filename). Each names a file, relative to
/// `prefix` (prepended as text) or else to the index's folder.
pub(super) fn read_index(
    path: &Path,
    prefix: Option<&str>,
    out: &mut Vec<Wanted>,
) -> std::io::Result<()> {
    let name: Arc<str> = Arc::from(input::display_name(path));
    let remote = input::is_remote(&name);
    let folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let place = |f: String| match prefix {
        // A WACZ: its own index names files under archive/.
        Some(p) if is_wacz(Path::new(p)) => format!("{p}#archive/{f}"),
        Some(p) if p.ends_with('/') => format!("{p}{f}"),
        Some(p) => format!("{p}/{f}"),
        // An object's folder is its URL up to its last `/`.
        None if remote => format!("{}{f}", &name[..name.rfind('/').map_or(0, |i| i + 1)]),
        None => folder.join(&f).display().to_string(),
    };
    match urlsift_records::format::extension(path).as_deref() {
        Some("parquet" | "parq") => return read_table_parquet(path, &name, &place, out),
        Some(ext @ ("csv" | "tsv")) => {
            return read_table_csv(
                path,
                &name,
                if ext == "csv" { b',' } else { b'\t' },
                &place,
                out,
            );
        }
        _ => {}
    }
    let reader = BufReader::new(open_index(path)?);
    for (i, line) in reader.lines().enumerate() {
        let line = line?;
        let text = line.trim_end_matches('\r');
        if text.trim().is_empty() || text.starts_with('!') || text.starts_with(" CDX") {
            continue;
        }
        let (mut url, mut filename, mut offset, mut length) = (None, None, None, None);
        let json = if text.starts_with('{') {
            Some(text)
        } else {
            text.find(" {").map(|at| &text[at + 1..])
        };
        if let Some(json) = json {
            if let Ok(Value::Object(f)) = serde_json::from_str::<Value>(json) {
                let get = |k: &str| match f.get(k) {
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(Value::Number(n)) => Some(n.to_string()),
                    _ => None,
                };
                url = get("url");
                filename = get("filename");
                offset = get("offset");
                length = get("length");
            }
        } else {
            let cols: Vec<&str> = text.split(' ').collect();
            if cols.len() == 11 {
                url = Some(cols[2].to_string());
                length = Some(cols[8].to_string());
                offset = Some(cols[9].to_string());
                filename = Some(cols[10].to_string());
            }
        }
        let parsed = (|| {
            Some((
                filename?,
                offset?.parse::<u64>().ok()?,
                length?.parse::<u64>().ok()?,
            ))
        })();
        let (filename, offset, length) = match parsed {
            Some((f, o, l)) => (place(f), o, l),
            None => (String::new(), 0, 0),
        };
        out.push(Wanted {
            index: Arc::clone(&name),
            line: i as u64 + 1,
            text: text.to_string(),
            url,
            filename,
            offset,
            length,
        });
    }
    Ok(())
}

/// The columns of an index table (Common Crawl's columnar index and the
/// CSV its queries give, or urlsift's field names): the file, offset and
/// length of each row's record, and its URL.
const TABLE_COLUMNS: [[&str; 2]; 4] = [
    ["warc_filename", "filename"],
    ["warc_record_offset", "offset"],
    ["warc_record_length", "length"],
    ["url", "url"],
];

fn missing_columns(names: &[String]) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!(
            "an index table needs the columns warc_filename, warc_record_offset and \
             warc_record_length (or filename, offset, length); it has: {}",
            names.join(", ")
        ),
    )
}

/// Which of `names` each of [`TABLE_COLUMNS`] is (the URL's optional).
fn table_columns(names: &[String]) -> std::io::Result<[Option<usize>; 4]> {
    let find = |wanted: &[&str; 2]| {
        names
            .iter()
            .position(|n| wanted.iter().any(|w| n.eq_ignore_ascii_case(w)))
    };
    let found = TABLE_COLUMNS.map(|c| find(&c));
    if found[..3].iter().any(Option::is_none) {
        return Err(missing_columns(names));
    }
    Ok(found)
}

fn push_row(
    out: &mut Vec<Wanted>,
    name: &Arc<str>,
    line: u64,
    values: [Option<String>; 4],
    place: &dyn Fn(String) -> String,
) {
    let [file, offset, length, url] = values;
    let text = format!(
        "{} {} {} {}",
        file.as_deref().unwrap_or(""),
        offset.as_deref().unwrap_or(""),
        length.as_deref().unwrap_or(""),
        url.as_deref().unwrap_or("")
    );
    let parsed = (|| {
        Some((
            file.filter(|f| !f.is_empty())?,
            offset?.trim().parse::<u64>().ok()?,
            length?.trim().parse::<u64>().ok()?,
        ))
    })();
    let (filename, offset, length) = match parsed {
        Some((f, o, l)) => (place(f), o, l),
        None => (String::new(), 0, 0),
    };
    out.push(Wanted {
        index: Arc::clone(name),
        line,
        text,
        url,
        filename,
        offset,
        length,
    });
}

/// A CSV or TSV index table with a header row (plain, gzip or zstd);
/// `line` in rejects is the row's line number (the header is line 1).
fn read_table_csv(
    path: &Path,
    name: &Arc<str>,
    delimiter: u8,
    place: &dyn Fn(String) -> String,
    out: &mut Vec<Wanted>,
) -> std::io::Result<()> {
    let reader = open_index(path)?;
    let mut csv = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .from_reader(reader);
    let names: Vec<String> = csv.headers()?.iter().map(str::to_string).collect();
    let columns = table_columns(&names)?;
    for row in csv.records() {
        let row = row?;
        let line = row.position().map_or(0, |p| p.line());
        let values = columns.map(|c| c.and_then(|i| row.get(i)).map(str::to_string));
        push_row(out, name, line, values, place);
    }
    Ok(())
}

/// A text index (plain, gzip or zstd), a file's or an object's.
fn open_index(path: &Path) -> std::io::Result<Box<dyn Read + Send>> {
    Ok(if path.to_str().is_some_and(input::is_remote) {
        decode::open_stream(input::open_raw(path)?, 1)?.into_reader()
    } else {
        decode::open_with(path, 1)?.into_reader()
    })
}

/// A Parquet index table (Common Crawl's columnar index), a file's or an
/// object's (read by ranges, a row group at a time); `line` in rejects is
/// the 1-based row number.
fn read_table_parquet(
    path: &Path,
    name: &Arc<str>,
    place: &dyn Fn(String) -> String,
    out: &mut Vec<Wanted>,
) -> std::io::Result<()> {
    use arrow_array::Array;
    use urlsift_records::parquet::{Cursor, ParquetLayout};
    let invalid = |e: String| std::io::Error::new(std::io::ErrorKind::InvalidData, e);
    // The reader walks a string column as its records' URL: the table's
    // url, or, without one, its file name column.
    let open = |field| Cursor::open(path, name.to_string(), field, 1 << 14, 1);
    let mut cursor = open(None)
        .or_else(|first| {
            open(Some("warc_filename"))
                .or_else(|_| open(Some("filename")))
                .map_err(|_| first)
        })
        .map_err(|e| match e.usage {
            true => invalid(e.error.to_string()),
            false => e.error,
        })?;
    let layout = ParquetLayout::of(&cursor.source().format).expect("a Parquet source");
    let names: Vec<String> = layout
        .schema
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    let columns = table_columns(&names)?;
    let mut row = 0u64;
    while let Some(chunk) = cursor.next_chunk() {
        let chunk = chunk.map_err(|e| invalid(e.error.to_string()))?;
        let batch = &chunk.rows().expect("a Parquet chunk's rows").batch;
        let text: Vec<Option<arrow_array::ArrayRef>> = columns
            .iter()
            .map(|c| {
                c.map(|i| {
                    arrow_cast::cast(batch.column(i), &arrow_schema::DataType::Utf8)
                        .map_err(|e| invalid(e.to_string()))
                })
                .transpose()
            })
            .collect::<std::io::Result<_>>()?;
        for r in 0..batch.num_rows() {
            row += 1;
            let values = [0, 1, 2, 3].map(|k| {
                let a = text[k].as_ref()?;
                let s = a.as_any().downcast_ref::<arrow_array::StringArray>()?;
                (!s.is_null(r)).then(|| s.value(r).to_string())
            });
            push_row(out, name, row, values, place);
        }
    }
    Ok(())
}

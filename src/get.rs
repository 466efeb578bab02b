//! `urlsift get`: the records an index points at, read by offset and
//! length from the WARC files it names and written in index order, as
//! `.warc.gz` (a record's gzip member copied byte for byte), `.warc` or
//! `.warc.zst` (a frame per record; frames copied, after their dictionary
//! frame, when every record comes from `.warc.zst` files of one
//! dictionary), after a `warcinfo` record naming the source. A range that
//! does not hold one whole WARC record whose target URI is the index
//! line's URL is a reject with its reason; the rest goes on.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use rayon::prelude::*;
use urlsift_records::input::wacz::is_wacz;
use urlsift_records::input::{self, InputError, decode, remote, zip};
use urlsift_warc::fields;

use crate::args::{GetArgs, WarcOut};
use crate::error::CliError;
use crate::output::Sink;
use crate::setup::read_errors;

mod index;

use index::read_index;

/// Where one index line says its record lies.
struct Wanted {
    /// The index file and line, for rejects.
    index: Arc<str>,
    line: u64,
    text: String,
    url: Option<String>,
    filename: String,
    offset: u64,
    length: u64,
}

/// Why a line's record was not written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Why {
    /// An index line without a filename, offset and length.
    BadIndexLine,
    /// The WARC file cannot be opened.
    MissingFile,
    /// The file ends before the range does.
    ShortRead,
    /// The range could not be read: an I/O error, or an object's request
    /// that failed past its retries.
    ReadError,
    /// The range is not one whole gzip member (or zstd frames) that
    /// decodes.
    BadGzipMember,
    /// The range does not hold one whole WARC record.
    NotAWarcRecord,
    /// The record's WARC-Target-URI is not the index line's URL.
    OtherUrl,
}

impl Why {
    fn name(self) -> &'static str {
        match self {
            Why::BadIndexLine => "bad-index-line",
            Why::MissingFile => "missing-file",
            Why::ShortRead => "short-read",
            Why::ReadError => "read-error",
            Why::BadGzipMember => "bad-gzip-member",
            Why::NotAWarcRecord => "not-a-warc-record",
            Why::OtherUrl => "other-url",
        }
    }
}

/// A record fetched: its bytes as stored and decoded, and how it was
/// stored.
struct Fetched {
    stored: Vec<u8>,
    record: Vec<u8>,
    packing: Packing,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Packing {
    Plain,
    Gzip,
    Zstd,
}

/// An opened WARC file or object, and its zstd dictionary (a
/// `.warc.zst`'s dictionary frame, read once).
struct Source {
    bytes: Bytes,
    /// Where its bytes start in `bytes` (a WACZ entry's), and how many.
    base: u64,
    size: u64,
    /// How the file is stored, by its first bytes: what a range must be.
    packing: Packing,
    dictionary: Option<Vec<u8>>,
}

/// Where a source's bytes are read from.
enum Bytes {
    File(File),
    /// An object (`s3://`, `gs://`, `az://`, `http(s)://`), read by ranges.
    Remote(String),
}

impl Bytes {
    /// `len` bytes at `at` (a file's; objects are read a batch at a time
    /// by [`fetch_batch`]).
    fn read_at(&self, at: u64, len: usize) -> std::io::Result<Vec<u8>> {
        match self {
            Bytes::File(file) => {
                let mut out = vec![0; len];
                file.read_exact_at(&mut out, at)?;
                Ok(out)
            }
            Bytes::Remote(url) => {
                let range = at..at + len as u64;
                remote::read_ranges(&[(url, range)])
                    .pop()
                    .expect("one range asked")
            }
        }
    }
}

pub fn run(a: GetArgs) -> Result<ExitCode, CliError> {
    remote::set_unsigned_requests(a.no_sign_request);
    let mut wanted = Vec::new();
    let mut errors = Vec::new();
    for index in &a.indexes {
        match read_index(index, a.inputs_prefix.as_deref(), &mut wanted) {
            Ok(()) => {}
            Err(error) => errors.push(InputError {
                name: input::display_name(index),
                error,
                usage: false,
            }),
        }
    }
    if !errors.is_empty() {
        return Ok(read_errors(&errors));
    }
    let to = match (a.output_format, a.output.as_deref()) {
        (Some(f), _) => f,
        (None, Some(p)) if p != Path::new("-") => {
            let name = p.to_string_lossy().to_ascii_lowercase();
            if name.ends_with(".warc.gz") {
                WarcOut::WarcGz
            } else if name.ends_with(".warc.zst") {
                WarcOut::WarcZst
            } else if name.ends_with(".warc") {
                WarcOut::Warc
            } else {
                return Err(CliError::Usage(format!(
                    "-o {}: get writes WARC; name the file .warc.gz, .warc or .warc.zst \
                     (or say which with --output-format)",
                    p.display()
                )));
            }
        }
        (None, _) if std::io::IsTerminal::is_terminal(&std::io::stdout()) => WarcOut::Warc,
        (None, _) => WarcOut::WarcGz,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads.unwrap_or(0))
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start threads: {e}")))?;
    // Every file opened once, up front (objects asked for their sizes
    // several at once): a missing one rejects its lines.
    let mut names: Vec<&str> = Vec::new();
    let mut sources: HashMap<String, Result<Source, String>> = HashMap::new();
    for w in &wanted {
        if !sources.contains_key(&w.filename) {
            sources.insert(w.filename.clone(), Err(String::new()));
            names.push(&w.filename);
        }
    }
    let objects: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| input::is_remote(n) && wacz_entry(n).is_none())
        .collect();
    // Their sizes, then their first bytes (how each is stored), each
    // asked of all the objects at once.
    let sizes = remote::sizes(&objects);
    let asks: Vec<(&str, std::ops::Range<u64>)> = objects
        .iter()
        .zip(&sizes)
        .filter_map(|(name, size)| Some((*name, 0..(*size.as_ref().ok()?).min(8))))
        .collect();
    let mut heads = asks.iter().map(|a| a.0).zip(remote::read_ranges(&asks));
    let mut object_sources: HashMap<&str, Result<Source, String>> = HashMap::new();
    for (name, size) in objects.iter().zip(sizes) {
        let source = size.map_err(|e| e.to_string()).and_then(|size| {
            let (_, head) = heads.next().expect("a head per object of known size");
            let head = head.map_err(|e| e.to_string())?;
            source_of(Bytes::Remote(name.to_string()), 0, size, head)
        });
        object_sources.insert(name, source);
    }
    for name in names {
        let source = match object_sources.remove(name) {
            Some(source) => source,
            None => open_source(name),
        };
        sources.insert(name.to_string(), source);
    }
    // Zstd frames are copied when every record comes from .warc.zst files
    // of one dictionary (written first, in its frame) and no other is
    // asked for; else recompressed, with the dictionary asked for if any.
    let shared_dictionary = {
        let dictionaries: Vec<Option<&Vec<u8>>> = sources
            .values()
            .map(|s| s.as_ref().ok().and_then(|s| s.dictionary.as_ref()))
            .collect();
        match dictionaries.first() {
            Some(Some(d)) if dictionaries.iter().all(|x| *x == Some(*d)) => Some((*d).clone()),
            _ => None,
        }
    };
    if (a.zstd_dictionary.is_some() || a.train_dictionary) && to != WarcOut::WarcZst {
        return Err(CliError::Usage(
            "--zstd-dictionary and --train-dictionary are for .warc.zst output \
             (-o NAME.warc.zst or --output-format warc.zst)"
                .into(),
        ));
    }
    let dictionary = if let Some(path) = &a.zstd_dictionary {
        let bytes = std::fs::read(path).map_err(|error| {
            CliError::Input(InputError {
                name: input::display_name(path),
                error,
                usage: false,
            })
        })?;
        Some(decode::dictionary_of(bytes).map_err(|why| {
            CliError::Usage(format!(
                "--zstd-dictionary {}: {}",
                path.display(),
                why.replace("the dictionary frame holds", "the file holds")
            ))
        })?)
    } else if a.train_dictionary {
        Some(train(&pool, &wanted, &sources)?)
    } else {
        shared_dictionary.clone()
    };
    let copy_zstd = dictionary.is_some() && dictionary == shared_dictionary;
    let mut packer = Packer::new(to, dictionary.as_deref())
        .map_err(|e| CliError::Usage(format!("the zstd dictionary does not load: {e}")))?;
    let mut sink = Sink::open_as_is(a.output.as_deref())?;
    let mut rejects = match &a.rejects {
        Some(p) => Some(Sink::open(Some(p), false)?),
        None => None,
    };
    let out_err = |sink: &Sink, e| CliError::output(sink.name(), e);
    // The dictionary frame comes first, as the IIPC text has it.
    if to == WarcOut::WarcZst
        && let Some(d) = &dictionary
    {
        let mut frame = 0x184D_2A5Du32.to_le_bytes().to_vec();
        frame.extend((d.len() as u32).to_le_bytes());
        frame.extend(d);
        sink.write_all(&frame).map_err(|e| out_err(&sink, e))?;
    }
    if !a.no_warcinfo {
        let info = warcinfo(&a.indexes);
        packer
            .write(&mut sink, &info, None)
            .map_err(|e| out_err(&sink, e))?;
    }
    let (mut written, mut rejected) = (0u64, std::collections::BTreeMap::<Why, u64>::new());
    for batch in wanted.chunks(256) {
        let fetched = fetch_batch(&pool, batch, &sources);
        for (w, got) in batch.iter().zip(fetched) {
            match got {
                Ok(f) => {
                    let copy = Some(&f).filter(|f| match (to, f.packing) {
                        (WarcOut::WarcGz, Packing::Gzip) => true,
                        (WarcOut::WarcZst, Packing::Zstd) => copy_zstd,
                        _ => false,
                    });
                    packer
                        .write(&mut sink, &f.record, copy.map(|f| &f.stored[..]))
                        .map_err(|e| out_err(&sink, e))?;
                    written += 1;
                }
                Err(why) => {
                    *rejected.entry(why).or_default() += 1;
                    if let Some(r) = &mut rejects {
                        writeln!(
                            r,
                            "{}\t{}\t{}\t{}\t{}",
                            w.index,
                            w.line,
                            w.offset,
                            why.name(),
                            w.text.replace(['\t', '\n', '\r'], " ")
                        )
                        .map_err(|e| CliError::output(r.name(), e))?;
                    }
                }
            }
        }
    }
    sink.commit()?;
    if let Some(r) = rejects {
        r.commit()?;
    }
    let rejected_total: u64 = rejected.values().sum();
    if !a.quiet {
        let reasons: Vec<String> = rejected
            .iter()
            .map(|(w, n)| format!("{n} {}", w.name()))
            .collect();
        eprintln!(
            "urlsift get: {written} record{} written from {} index line{}{}",
            if written == 1 { "" } else { "s" },
            wanted.len(),
            if wanted.len() == 1 { "" } else { "s" },
            if reasons.is_empty() {
                String::new()
            } else {
                format!("; {rejected_total} rejected ({})", reasons.join(", "))
            }
        );
    }
    Ok(if rejected_total > 0 {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

/// The WACZ and the name under its `archive/` that `filename` names, when
/// it names an entry of a WACZ (`x.wacz#archive/NAME`).
fn wacz_entry(filename: &str) -> Option<(&str, &str)> {
    filename
        .split_once("#archive/")
        .filter(|(zip_path, _)| is_wacz(Path::new(zip_path)))
}

/// Opens the WARC file `filename` names: a file, or `x.wacz#archive/NAME`
/// (when `--inputs-prefix` is a WACZ, a file or an object), an entry
/// stored in it (a deflated entry's ranges cannot be read without
/// inflating it from its start).
fn open_source(filename: &str) -> Result<Source, String> {
    if filename.is_empty() {
        return Err(String::new());
    }
    let (bytes, base, size) = match wacz_entry(filename) {
        Some((zip_path, rest)) => {
            let entry_name = &format!("archive/{rest}");
            let zip_path = PathBuf::from(zip_path);
            let entries = zip::entries(&zip_path).map_err(|e| e.to_string())?;
            let entry = entries
                .iter()
                .find(|e| &e.name == entry_name)
                .ok_or_else(|| format!("no entry {entry_name}"))?;
            if entry.method != 0 {
                return Err(format!("{entry_name} is compressed in the ZIP"));
            }
            let stored = zip::entry_range(&zip_path, entry).map_err(|e| e.to_string())?;
            let bytes = match zip_path.to_str().filter(|n| input::is_remote(n)) {
                // A WACZ object: its entry's ranges are ranges of it.
                Some(url) => Bytes::Remote(url.to_string()),
                None => Bytes::File(File::open(&zip_path).map_err(|e| e.to_string())?),
            };
            (bytes, stored.start, entry.size)
        }
        None => {
            let file = File::open(PathBuf::from(filename)).map_err(|e| e.to_string())?;
            let size = file.metadata().map_err(|e| e.to_string())?.len();
            (Bytes::File(file), 0, size)
        }
    };
    let head = bytes
        .read_at(base, size.min(8) as usize)
        .map_err(|e| e.to_string())?;
    source_of(bytes, base, size, head)
}

/// A source of `size` bytes at `base` in `bytes`: how it is stored, told
/// by `head`, its first (up to 8) bytes, and its zstd dictionary if it
/// has one.
fn source_of(bytes: Bytes, base: u64, size: u64, head: Vec<u8>) -> Result<Source, String> {
    let packing = match head[..] {
        [0x1f, 0x8b, ..] => Packing::Gzip,
        [0x28, 0xb5, 0x2f, 0xfd, ..] | [0x5d, 0x2a, 0x4d, 0x18, ..] => Packing::Zstd,
        _ => Packing::Plain,
    };
    let dictionary = match head[..] {
        [0x5d, 0x2a, 0x4d, 0x18, l0, l1, l2, l3] => {
            let len = u32::from_le_bytes([l0, l1, l2, l3]) as usize;
            if len > decode::DICTIONARY_MAX {
                return Err(format!("a dictionary frame of {len} bytes"));
            }
            let payload = bytes.read_at(base + 8, len).map_err(|e| e.to_string())?;
            Some(decode::dictionary_of(payload)?)
        }
        _ => None,
    };
    Ok(Source {
        bytes,
        base,
        size,
        packing,
        dictionary,
    })
}

/// The records of `batch`, fetched and checked on `pool`; the ranges in
/// objects read first, all at once (nearby ones coalesced).
fn fetch_batch(
    pool: &rayon::ThreadPool,
    batch: &[Wanted],
    sources: &HashMap<String, Result<Source, String>>,
) -> Vec<Result<Fetched, Why>> {
    let source = |w: &Wanted| sources.get(&w.filename).expect("opened above");
    let mut asks = Vec::new();
    let mut asked = Vec::new();
    for (i, w) in batch.iter().enumerate() {
        if let Ok(
            s @ Source {
                bytes: Bytes::Remote(url),
                ..
            },
        ) = source(w)
            && range(w, s).is_ok()
        {
            let at = s.base + w.offset;
            asks.push((url.as_str(), at..at + w.length));
            asked.push(i);
        }
    }
    let mut stored: Vec<Option<std::io::Result<Vec<u8>>>> = batch.iter().map(|_| None).collect();
    for (i, read) in asked.into_iter().zip(remote::read_ranges(&asks)) {
        stored[i] = Some(read);
    }
    pool.install(|| {
        batch
            .par_iter()
            .zip(stored)
            .map(|(w, stored)| fetch(w, source(w), stored))
            .collect()
    })
}

/// The length of `w`'s range, when the index line names one that lies
/// inside `source`.
fn range(w: &Wanted, source: &Source) -> Result<usize, Why> {
    if w.filename.is_empty() || w.length == 0 {
        return Err(Why::BadIndexLine);
    }
    let len = usize::try_from(w.length).map_err(|_| Why::ShortRead)?;
    if w.offset
        .checked_add(w.length)
        .is_none_or(|end| end > source.size)
    {
        return Err(Why::ShortRead);
    }
    Ok(len)
}

/// The record `w` points at, checked: one whole gzip member (zstd
/// frames; plain bytes), as the file is stored, holding one whole WARC
/// record of its URL. `stored`: its bytes when read already (an
/// object's, by [`fetch_batch`]).
fn fetch(
    w: &Wanted,
    source: &Result<Source, String>,
    stored: Option<std::io::Result<Vec<u8>>>,
) -> Result<Fetched, Why> {
    if w.filename.is_empty() || w.length == 0 {
        return Err(Why::BadIndexLine);
    }
    let source = source.as_ref().map_err(|_| Why::MissingFile)?;
    let len = range(w, source)?;
    let stored = match stored {
        Some(read) => read,
        None => source.bytes.read_at(source.base + w.offset, len),
    }
    .map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => Why::ShortRead,
        _ => Why::ReadError,
    })?;
    let (record, packing) = if source.packing == Packing::Gzip {
        let mut member = flate2::bufread::GzDecoder::new(&stored[..]);
        let mut record = Vec::new();
        member
            .read_to_end(&mut record)
            .map_err(|_| Why::BadGzipMember)?;
        if !member.into_inner().is_empty() {
            return Err(Why::BadGzipMember);
        }
        (record, Packing::Gzip)
    } else if source.packing == Packing::Zstd {
        let mut decoder = match &source.dictionary {
            Some(d) => zstd::stream::read::Decoder::with_dictionary(&stored[..], d),
            None => zstd::stream::read::Decoder::with_dictionary(&stored[..], &[]),
        }
        .map_err(|_| Why::BadGzipMember)?;
        let mut record = Vec::new();
        decoder
            .read_to_end(&mut record)
            .map_err(|_| Why::BadGzipMember)?;
        (record, Packing::Zstd)
    } else {
        (stored.clone(), Packing::Plain)
    };
    let end = check_record(&record, w.url.as_deref())?;
    // An index's length may end with the block (warcio's and
    // cdxj-indexer's for a plain .warc): the two line ends that close a
    // record are written whatever the range held.
    let mut record = record;
    record.truncate(end);
    record.extend_from_slice(b"\r\n\r\n");
    Ok(Fetched {
        stored,
        record,
        packing,
    })
}

/// One whole WARC record (its block as long as its Content-Length, then
/// at most its two line ends), whose target URI is `url` after the URL
/// Standard's parsing (as written where either does not parse). Returns
/// where its block ends.
fn check_record(record: &[u8], url: Option<&str>) -> Result<usize, Why> {
    if !record.starts_with(b"WARC/1.") {
        return Err(Why::NotAWarcRecord);
    }
    let head_end = memchr::memmem::find(record, b"\r\n\r\n").ok_or(Why::NotAWarcRecord)? + 4;
    let header = &record[..head_end];
    let mut length = None;
    let mut target = None;
    for (name, value) in fields(header) {
        if name.eq_ignore_ascii_case(b"Content-Length") {
            length = std::str::from_utf8(value)
                .ok()
                .and_then(|v| v.parse::<usize>().ok());
        } else if name.eq_ignore_ascii_case(b"WARC-Target-URI") {
            target = Some(String::from_utf8_lossy(value).into_owned());
        }
    }
    let end = head_end + length.ok_or(Why::NotAWarcRecord)?;
    if end > record.len() || record.len() - end > 4 || !b"\r\n\r\n".starts_with(&record[end..]) {
        return Err(Why::NotAWarcRecord);
    }
    if let Some(url) = url {
        let target = target.unwrap_or_default();
        let target = target.trim_start_matches('<').trim_end_matches('>');
        let same = match (urlsift::Url::parse(target), urlsift::Url::parse(url)) {
            (Ok(a), Ok(b)) => a.href() == b.href(),
            _ => target == url,
        };
        if !same {
            return Err(Why::OtherUrl);
        }
    }
    Ok(end)
}

/// How records are written: plain, as a gzip member each, or as a zstd
/// frame each (with the output's dictionary, if it has one).
struct Packer {
    to: WarcOut,
    zstd: Option<zstd::bulk::Compressor<'static>>,
}

impl Packer {
    fn new(to: WarcOut, dictionary: Option<&[u8]>) -> std::io::Result<Packer> {
        let zstd = match to {
            WarcOut::WarcZst => {
                let mut c = match dictionary {
                    Some(d) => zstd::bulk::Compressor::with_dictionary(3, d)?,
                    None => zstd::bulk::Compressor::new(3)?,
                };
                c.include_checksum(true)?;
                c.include_contentsize(true)?;
                Some(c)
            }
            _ => None,
        };
        Ok(Packer { to, zstd })
    }

    /// Writes `record`: `copy` (its stored bytes) as they are when given,
    /// else compressed as one gzip member or zstd frame.
    fn write(
        &mut self,
        sink: &mut Sink,
        record: &[u8],
        copy: Option<&[u8]>,
    ) -> std::io::Result<()> {
        if let Some(bytes) = copy {
            return sink.write_all(bytes);
        }
        match (self.to, &mut self.zstd) {
            (WarcOut::WarcZst, Some(c)) => sink.write_all(&c.compress(record)?),
            (WarcOut::WarcGz, _) => {
                let mut gz =
                    flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
                gz.write_all(record)?;
                sink.write_all(&gz.finish()?)
            }
            _ => sink.write_all(record),
        }
    }
}

/// A zstd dictionary trained on the records to be written (the first
/// 128 KiB of each, up to 100 MiB in all), as `zstd --train` trains one
/// (112,640 bytes).
fn train(
    pool: &rayon::ThreadPool,
    wanted: &[Wanted],
    sources: &HashMap<String, Result<Source, String>>,
) -> Result<Vec<u8>, CliError> {
    const EACH: usize = 128 << 10;
    const ALL: usize = 100 << 20;
    let mut samples: Vec<Vec<u8>> = Vec::new();
    let mut total = 0;
    for batch in wanted.chunks(256) {
        for f in fetch_batch(pool, batch, sources).into_iter().flatten() {
            let mut r = f.record;
            r.truncate(EACH);
            total += r.len();
            samples.push(r);
        }
        if total >= ALL {
            break;
        }
    }
    zstd::dict::from_samples(&samples, 112_640).map_err(|e| {
        CliError::Usage(format!(
            "--train-dictionary: no dictionary can be trained from {} record{} ({e}); \
             leave the flag out, or give one with --zstd-dictionary",
            samples.len(),
            if samples.len() == 1 { "" } else { "s" }
        ))
    })
}

/// The `warcinfo` record that opens the output: what wrote it, from which
/// index files.
fn warcinfo(indexes: &[PathBuf]) -> Vec<u8> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let names: Vec<String> = indexes.iter().map(|p| input::display_name(p)).collect();
    let body = format!(
        "software: urlsift {}\r\nformat: WARC File Format 1.1\r\ndescription: records fetched by \
         urlsift get from the index {}\r\n",
        env!("CARGO_PKG_VERSION"),
        names.join(", ")
    );
    // A random-enough record id: the time and the process, hashed.
    let seed = xxhash_rust::xxh3::xxh3_128(
        format!("{}{}{:?}", now.as_nanos(), std::process::id(), names).as_bytes(),
    );
    let h = format!("{seed:032x}");
    let id = format!(
        "{}-{}-4{}-a{}-{}",
        &h[..8],
        &h[8..12],
        &h[13..16],
        &h[17..20],
        &h[20..32]
    );
    let mut out = format!(
        "WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Record-ID: <urn:uuid:{id}>\r\nWARC-Date: {}\r\n\
         Content-Type: application/warc-fields\r\nContent-Length: {}\r\n\r\n",
        warc_date(now.as_secs()),
        body.len()
    )
    .into_bytes();
    out.extend(body.as_bytes());
    out.extend(b"\r\n\r\n");
    out
}

/// `secs` since the Unix epoch as a WARC-Date (`2024-01-02T03:04:05Z`).
fn warc_date(secs: u64) -> String {
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Days to a civil date (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warc_dates() {
        assert_eq!(warc_date(0), "1970-01-01T00:00:00Z");
        assert_eq!(warc_date(1_704_164_645), "2024-01-02T03:04:05Z");
        assert_eq!(warc_date(951_782_400), "2000-02-29T00:00:00Z");
    }

    #[test]
    fn a_record_must_be_whole_and_of_its_url() {
        let r = b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://Example.com\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n";
        assert_eq!(
            check_record(r, Some("http://example.com/")),
            Ok(r.len() - 4)
        );
        assert_eq!(
            check_record(r, Some("http://example.org/")),
            Err(Why::OtherUrl)
        );
        assert_eq!(
            check_record(&r[..r.len() - 6], None),
            Err(Why::NotAWarcRecord)
        );
        let two = [&r[..], &r[..]].concat();
        assert_eq!(check_record(&two, None), Err(Why::NotAWarcRecord));
        assert_eq!(
            check_record(b"HTTP/1.1 200 OK\r\n\r\n", None),
            Err(Why::NotAWarcRecord)
        );
    }
}

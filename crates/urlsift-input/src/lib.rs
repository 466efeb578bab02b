//! Inputs: files and standard input, opened in the form the reader takes
//! them. A plain regular file is mapped ([`mmap`]: chunks are slices of the
//! page cache); a pipe or standard input is read into reused buffers; a
//! gzip or zstd input (found by its magic bytes, or a `.gz`/`.zst` name) is
//! decoded on a thread of its own ([`decode`], with its rules for damaged
//! input). This crate also names inputs in messages and says which of them
//! cannot be read before a run starts, and how many cores its decoding
//! pools may use ([`cores`]). It knows no record format: the record engine
//! (`urlsift-records`) cuts what it reads into records.

use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub mod cores;
pub mod decode;
#[allow(unsafe_code)]
pub mod mmap;
#[cfg(feature = "remote")]
pub mod remote;
#[doc(hidden)]
pub mod test_io;
pub mod timings;
pub mod wacz;
pub mod zip;

use mmap::Map;

/// An opened input, in the form the reader takes it.
pub enum Opened {
    /// A plain regular file of at least one byte, mapped: its bytes are
    /// sliced, never copied.
    Mapped(Arc<Map>),
    /// Bytes to read in order: standard input, a pipe or device, an
    /// empty file.
    Read(Box<dyn Read + Send>),
    /// The decoded bytes of a compressed input: read in order, or taken
    /// a buffer of whole records at a time ([`decode::Decoded::take_whole`]).
    Decoded(decode::Decoded),
}

impl Opened {
    /// The bytes as one stream to read in order, unless mapped.
    ///
    /// ```
    /// use std::io::Read;
    /// use urlsift_input::Opened;
    ///
    /// let mut s = String::new();
    /// let opened = Opened::Read(Box::new(&b"https://e.com/\n"[..]));
    /// opened.into_reader().expect("not mapped").read_to_string(&mut s)?;
    /// assert_eq!(s, "https://e.com/\n");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn into_reader(self) -> Option<Box<dyn Read + Send>> {
        match self {
            Opened::Mapped(_) => None,
            Opened::Read(r) => Some(r),
            Opened::Decoded(d) => Some(Box::new(d)),
        }
    }
}

/// Opens `path` (`-` is standard input): mapped when it is a plain,
/// non-empty regular file; decoded on a thread of its own when it is gzip
/// or zstd ([`decode::open`]); read otherwise.
///
/// ```
/// use std::io::Read;
/// use urlsift_input::{self as input, Opened};
///
/// let tmp = tempfile::Builder::new().prefix("urlsift-doc-open-").tempdir()?;
/// let dir = tmp.path();
/// let path = dir.join("urls.txt");
/// std::fs::write(&path, "https://example.com/\n")?;
/// match input::open(&path)? {
///     Opened::Mapped(map) => assert_eq!(map.bytes(), b"https://example.com/\n"),
///     other => {
///         let mut s = String::new();
///         other.into_reader().expect("not mapped").read_to_string(&mut s)?;
///         assert_eq!(s, "https://example.com/\n");
///     }
/// }
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn open(path: &Path) -> io::Result<Opened> {
    open_with(path, cores::machine())
}

/// [`open`], a compressed input decoded as `decoding` says
/// ([`decode::Decoding`]: up to [`cores::capped`] of the run's `-j`
/// threads; one: decoded as it is read, on the reader's own thread; a
/// number of cores will do).
pub fn open_with(path: &Path, decoding: impl Into<decode::Decoding>) -> io::Result<Opened> {
    if let Some(url) = remote_name(path) {
        let body = open_remote(url)?;
        return opened(decode::open_stream(body, decoding)?);
    }
    opened(decode::open_with(path, decoding)?)
}

/// An input as the reader takes it: a regular file mapped (if it has a
/// byte), decoded bytes as they are, the rest read.
fn opened(input: decode::Input) -> io::Result<Opened> {
    Ok(match input {
        decode::Input::File(file) => match Map::new(&file)? {
            Some(map) => Opened::Mapped(map),
            None => Opened::Read(Box::new(file)),
        },
        decode::Input::Decoded(decoded) => Opened::Decoded(decoded),
        decode::Input::Pipe(pipe) => Opened::Read(pipe),
    })
}

/// One input of a run: a file (or `-`, standard input), or an entry of a
/// WACZ file ([`wacz::expand`]).
///
/// ```
/// use std::path::{Path, PathBuf};
/// use urlsift_input::Location;
///
/// let file = Location::File(PathBuf::from("a/urls.txt.gz"));
/// assert_eq!(file.name(), "a/urls.txt.gz");
/// assert_eq!(file.path(), Path::new("a/urls.txt.gz"));
/// assert_eq!(Location::File(PathBuf::from("-")).name(), "<stdin>");
/// ```
#[derive(Clone, Debug)]
pub enum Location {
    /// A file, or `-` for standard input.
    File(PathBuf),
    /// An entry of the ZIP file `zip`.
    Entry {
        /// The ZIP (WACZ) file.
        zip: Arc<PathBuf>,
        /// The entry, as the ZIP's directory lists it.
        entry: Arc<zip::Entry>,
    },
}

impl Location {
    /// The input's name in messages and provenance: the file's
    /// ([`display_name`]), or `x.wacz#archive/data.warc.gz` for an entry.
    pub fn name(&self) -> String {
        match self {
            Location::File(path) => display_name(path),
            Location::Entry { zip, entry } => format!("{}#{}", zip.display(), entry.name),
        }
    }

    /// The path whose name says the input's format: the file's, or the
    /// entry's name inside its ZIP.
    pub fn path(&self) -> &Path {
        match self {
            Location::File(path) => path,
            Location::Entry { entry, .. } => Path::new(&entry.name),
        }
    }

    /// Opens the input as [`open_with`] opens a file; an entry is read
    /// through its ZIP ([`zip::open`]: inflated if deflated, checked at
    /// its end), then decoded if it is gzip or zstd.
    pub fn open_with(&self, decoding: impl Into<decode::Decoding>) -> io::Result<Opened> {
        match self {
            Location::File(path) => open_with(path, decoding),
            Location::Entry { zip, entry } => {
                let bytes = zip::open(zip, entry)?;
                opened(decode::open_stream(bytes, decoding)?)
            }
        }
    }
}

/// An input that could not be opened or read.
#[derive(Debug)]
pub struct InputError {
    /// The source as the user named it.
    pub name: String,
    /// What went wrong.
    pub error: io::Error,
    /// A problem with the flags for this input (the CSV has no such
    /// column, say) rather than with reading it: it ends the run.
    pub usage: bool,
}

impl std::error::Error for InputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.error)
    }
}

/// The first of `files` (other than `-`) that cannot be read: not there
/// (a typo), a directory, or a file that may not be opened; said before
/// anything runs or is written.
///
/// ```
/// use std::path::PathBuf;
/// use urlsift_input::unusable;
///
/// let files = [PathBuf::from("-"), PathBuf::from("no/such/file.txt")];
/// let e = unusable(&files).expect("the second is not there");
/// assert_eq!(e.name, "no/such/file.txt");
/// assert_eq!(e.error.kind(), std::io::ErrorKind::NotFound);
/// let e = unusable(&[std::env::temp_dir()]).expect("a directory");
/// assert!(e.error.to_string().starts_with("is a directory"));
/// ```
pub fn unusable(files: &[PathBuf]) -> Option<InputError> {
    check_all(files).into_iter().flatten().next()
}

/// Why each of `files` cannot be opened (`None`: it can), in order, as
/// [`cannot_open`] tells; remote objects are asked for several at once
/// (a run over thousands of objects does not wait for a HEAD request at a
/// time).
///
/// ```
/// use std::path::PathBuf;
///
/// let files = [PathBuf::from("-"), PathBuf::from("no/such/file.txt")];
/// let why = urlsift_input::check_all(&files);
/// assert!(why[0].is_none());
/// assert_eq!(why[1].as_ref().expect("not there").name, "no/such/file.txt");
/// ```
pub fn check_all(files: &[PathBuf]) -> Vec<Option<InputError>> {
    let mut why: Vec<Option<InputError>> = files
        .iter()
        .map(|f| match remote_name(f) {
            Some(_) => None,
            None => cannot_open(f),
        })
        .collect();
    let remote: Vec<(usize, &str)> = files
        .iter()
        .enumerate()
        .filter_map(|(i, f)| remote_name(f).map(|url| (i, url)))
        .collect();
    if remote.is_empty() {
        return why;
    }
    let urls: Vec<&str> = remote.iter().map(|&(_, url)| url).collect();
    for ((i, url), size) in remote.into_iter().zip(remote_sizes(&urls)) {
        why[i] = size.err().map(|error| InputError {
            name: url.to_string(),
            error,
            usage: false,
        });
    }
    why
}

/// Why the input `path` cannot be opened (`None`: it can; standard input,
/// a FIFO or a device is not opened here: opening a FIFO waits for its
/// writer). See [`unusable`].
///
/// ```
/// use std::path::Path;
/// use urlsift_input::cannot_open;
///
/// assert!(cannot_open(Path::new("-")).is_none());
/// let e = cannot_open(Path::new("no/such/file.txt")).expect("not there");
/// assert_eq!(e.error.kind(), std::io::ErrorKind::NotFound);
/// ```
pub fn cannot_open(path: &Path) -> Option<InputError> {
    if path.as_os_str() == "-" {
        return None;
    }
    if let Some(url) = remote_name(path) {
        return remote_sizes(&[url]).pop()?.err().map(|error| InputError {
            name: url.to_string(),
            error,
            usage: false,
        });
    }
    let error = match std::fs::metadata(path) {
        Err(e) => e,
        Ok(m) if m.is_dir() => io::Error::other(
            "is a directory: name the files in it (DIR/*.warc.gz), or list them with find",
        ),
        Ok(m) if m.is_file() => std::fs::File::open(path).err()?,
        Ok(_) => return None,
    };
    Some(InputError {
        name: display_name(path),
        error,
        usage: false,
    })
}

/// The source's display name: `<stdin>` for `-`.
///
/// ```
/// use std::path::Path;
/// use urlsift_input::display_name;
///
/// assert_eq!(display_name(Path::new("-")), "<stdin>");
/// assert_eq!(display_name(Path::new("a/urls.txt")), "a/urls.txt");
/// ```
pub fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// Whether `name` names a remote object (`s3://`, `gs://`, `az://`,
/// `http://`, `https://`) rather than a local path, whether or not this build reads
/// them (feature `remote`).
///
/// ```
/// use urlsift_input::is_remote;
///
/// assert!(is_remote("s3://commoncrawl/crawl-data/x.warc.gz"));
/// assert!(is_remote("gs://my-bucket/crawl/x.warc.gz"));
/// assert!(is_remote("az://crawl/x.warc.gz"));
/// assert!(is_remote("https://data.commoncrawl.org/crawl-data/x.warc.gz"));
/// assert!(!is_remote("crawl-data/x.warc.gz"));
/// assert!(!is_remote("C:/data/x.warc.gz"));
/// ```
pub fn is_remote(name: &str) -> bool {
    ["s3://", "gs://", "az://", "http://", "https://"]
        .iter()
        .any(|s| name.len() > s.len() && name[..s.len()].eq_ignore_ascii_case(s))
}

/// Whether `url` names several objects: an `s3://`, `gs://` or `az://` URL that
/// ends in `/` (every object under that prefix) or whose last segment
/// holds `*` or `?` (the objects of that folder whose names match).
/// `http(s)://` has no listing. [`expand`] lists them.
///
/// ```
/// use urlsift_input::is_listing;
///
/// assert!(is_listing("s3://commoncrawl/crawl-data/CC-MAIN-2024-10/segments/"));
/// assert!(is_listing("s3://my-bucket/cdx/cdx-000??.gz"));
/// assert!(is_listing("s3://my-bucket/"));
/// assert!(is_listing("az://crawl/2026-11/*.warc.gz"));
/// assert!(is_listing("gs://my-bucket/crawl/"));
/// assert!(!is_listing("s3://my-bucket/cdx/cdx-00001.gz"));
/// assert!(!is_listing("https://example.com/dump/?page=2"));
/// ```
pub fn is_listing(url: &str) -> bool {
    let Some(rest) = bucket_scheme(url) else {
        return false;
    };
    let last = rest.rsplit('/').next().unwrap_or(rest);
    rest.contains('/') && (last.is_empty() || last.contains(['*', '?']))
}

/// The inputs `name` stands for: the objects a listing URL names
/// ([`is_listing`]), in key order (an empty listing is an error); any
/// other name stands for itself.
///
/// ```
/// assert_eq!(urlsift_input::expand("logs/a.txt")?, ["logs/a.txt"]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn expand(name: &str) -> io::Result<Vec<String>> {
    if !is_listing(name) {
        return Ok(vec![name.to_string()]);
    }
    #[cfg(feature = "remote")]
    return remote::list(name);
    #[cfg(not(feature = "remote"))]
    Err(no_remote())
}

/// `url` without its scheme, when it is one of an object store with
/// buckets (`s3://`, `gs://`, `az://`: listings, uploads).
fn bucket_scheme(url: &str) -> Option<&str> {
    ["s3://", "gs://", "az://"]
        .iter()
        .find_map(|scheme| strip_scheme(url, scheme))
}

/// `url` without its scheme, when it has that one (any case).
fn strip_scheme<'a>(url: &'a str, scheme: &str) -> Option<&'a str> {
    url.get(..scheme.len())
        .filter(|s| s.eq_ignore_ascii_case(scheme))
        .map(|_| &url[scheme.len()..])
}

/// The bytes of `path` as stored, not decoded (an indexer's view: its
/// offsets count them): a file's, or a remote object's ([`is_remote`]).
///
/// ```
/// use std::io::Read;
///
/// let tmp = tempfile::Builder::new().prefix("urlsift-doc-raw-").tempdir()?;
/// let path = tmp.path().join("a.txt");
/// std::fs::write(&path, "abc")?;
/// let mut s = String::new();
/// urlsift_input::open_raw(&path)?.read_to_string(&mut s)?;
/// assert_eq!(s, "abc");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn open_raw(path: &Path) -> io::Result<Box<dyn Read + Send>> {
    match remote_name(path) {
        Some(url) => open_remote(url),
        None => Ok(Box::new(std::fs::File::open(path)?)),
    }
}

/// The URL a path names when it names a remote object.
fn remote_name(path: &Path) -> Option<&str> {
    path.to_str().filter(|name| is_remote(name))
}

/// Why a build without the `remote` feature reads no remote object (the
/// caller names the input).
#[cfg(not(feature = "remote"))]
fn no_remote() -> io::Error {
    io::Error::new(
        io::ErrorKind::Unsupported,
        "this build reads no remote objects (built without the `remote` feature)",
    )
}

/// The body of the remote object `url`.
fn open_remote(url: &str) -> io::Result<Box<dyn Read + Send>> {
    #[cfg(feature = "remote")]
    return remote::Remote::new(url)?.open();
    #[cfg(not(feature = "remote"))]
    {
        let _ = url;
        Err(no_remote())
    }
}

/// The sizes of the remote objects `urls` (HEAD requests, several at
/// once).
fn remote_sizes(urls: &[&str]) -> Vec<io::Result<u64>> {
    #[cfg(feature = "remote")]
    return remote::sizes(urls);
    #[cfg(not(feature = "remote"))]
    urls.iter().map(|_| Err(no_remote())).collect()
}

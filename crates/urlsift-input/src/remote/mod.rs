//! Inputs that are objects, not files: `s3://bucket/key`,
//! `gs://bucket/key` (Google Cloud Storage), `az://container/key` (Azure
//! Blob Storage) and `http(s)://host/path`,
//! read through the `object_store` crate (feature
//! `remote`). An input named by such a URL goes where a path goes: its
//! name is the URL, its format is told by the URL's last segment and its
//! first bytes, as for a file, and it is read as a stream, decoded like
//! a pipe.
//!
//! Credentials and settings for `s3://` come from the environment as the
//! AWS tools take them (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
//! `AWS_SESSION_TOKEN`, `AWS_DEFAULT_REGION`, `AWS_ENDPOINT_URL` or
//! `AWS_ENDPOINT` for an S3-compatible server, `AWS_ALLOW_HTTP`,
//! `AWS_CA_BUNDLE`; without a key there, the profile `AWS_PROFILE` names
//! in `~/.aws/credentials` and `~/.aws/config`), and
//! `AWS_SKIP_SIGNATURE=true` (or [`set_unsigned_requests`]) reads public
//! buckets without credentials;
//! for `az://`, as the Azure tools take them (`AZURE_STORAGE_ACCOUNT_NAME`
//! and `AZURE_STORAGE_ACCOUNT_KEY`, or `AZURE_STORAGE_SAS_KEY`, or a
//! service principal's `AZURE_CLIENT_ID`, `AZURE_CLIENT_SECRET`,
//! `AZURE_TENANT_ID`; `AZURE_STORAGE_USE_EMULATOR=true` and
//! `AZURITE_BLOB_STORAGE_URL` for Azurite); for `gs://`, as Google's
//! tools take them (`GOOGLE_APPLICATION_CREDENTIALS` or
//! `GOOGLE_SERVICE_ACCOUNT` naming a key file, the application default
//! credentials `gcloud auth application-default login` writes, a VM's
//! service account; `STORAGE_EMULATOR_HOST` for an emulator).
//! [`set_storage_options`] sets a store's settings by the `object_store`
//! crate's keys, over the environment's (Python's `storage_options=`).
//! The object store is async: one small runtime per process (a thread,
//! `urlsift-net`) drives every request while the readers wait, and one
//! store per bucket or host keeps its connections for every object.
//!
//! ```no_run
//! use std::io::Read;
//! use urlsift_input::remote::Remote;
//!
//! let object = Remote::new("https://data.commoncrawl.org/crawl-data/CC-MAIN-2024-10/warc.paths.gz")?;
//! println!("{} bytes", object.size()?);
//! let mut gz = Vec::new();
//! object.open()?.read_to_end(&mut gz)?;
//! # Ok::<(), std::io::Error>(())
//! ```

mod body;
mod pieces;
mod profile;
mod store;
mod tally;
mod upload;

use std::io::{self, Read};
use std::sync::Arc;

use futures_util::StreamExt;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreExt};

use crate::is_listing;
use body::Body;
pub use body::resumed;
use pieces::Pieces;
use store::{SIZE_KEPT, bad, known_sizes, locate, object_path, runtime, store_error, store_for};
pub use store::{
    network_timeout, requests_ahead, set_network_timeout, set_requests_ahead, set_storage_options,
    set_unsigned_requests,
};
pub use tally::{NetworkTally, network_tally};
pub use upload::Upload;

/// A remote object: its store, and where in it.
pub struct Remote {
    store: Arc<dyn ObjectStore>,
    path: ObjectPath,
    runtime: &'static tokio::runtime::Runtime,
}

impl Remote {
    /// The object `url` names, with its store set up (nothing is asked of
    /// the server yet: [`Remote::size`] and [`Remote::open`] do).
    ///
    /// ```
    /// use urlsift_input::remote::Remote;
    ///
    /// assert!(Remote::new("https://data.commoncrawl.org/crawl-data/x.warc.gz").is_ok());
    /// assert!(Remote::new("s3://commoncrawl/crawl-data/x.warc.gz").is_ok());
    /// let e = Remote::new("s3://commoncrawl/crawl-data/").err().expect("a prefix");
    /// assert!(e.to_string().contains("name an object"));
    /// ```
    pub fn new(url: &str) -> io::Result<Remote> {
        let (store, path) = locate(url)?;
        Ok(Remote {
            store,
            path,
            runtime: runtime()?,
        })
    }

    /// The object's size, asked of the server (a HEAD request): whether
    /// it is there and may be read, before a run starts.
    ///
    /// ```no_run
    /// # use urlsift_input::remote::Remote;
    /// let object = Remote::new("https://data.commoncrawl.org/crawl-data/CC-MAIN-2024-10/warc.paths.gz")?;
    /// assert!(object.size()? > 0);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn size(&self) -> io::Result<u64> {
        tally::sent(1);
        let meta = tally::waiting(|| self.runtime.block_on(self.store.head(&self.path)))
            .map_err(store_error)?;
        Ok(meta.size)
    }

    /// The object's bytes, read in order as they arrive (a GET request).
    ///
    /// ```no_run
    /// # use std::io::Read;
    /// # use urlsift_input::remote::Remote;
    /// let object = Remote::new("s3://my-bucket/crawl/urls.txt.gz")?;
    /// let mut gz = Vec::new();
    /// object.open()?.read_to_end(&mut gz)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        tally::sent(1);
        let got = tally::waiting(|| self.runtime.block_on(self.store.get(&self.path)))
            .map_err(store_error)?;
        Ok(self.body(got))
    }

    /// The object's bytes `range`, read in order as they arrive (a ranged
    /// GET request; taken up where it broke off, as [`Remote::open`]'s).
    /// A ZIP entry's bytes, within a WACZ object.
    ///
    /// ```no_run
    /// # use std::io::Read;
    /// # use urlsift_input::remote::Remote;
    /// let object = Remote::new("s3://my-bucket/crawl/x.wacz")?;
    /// let mut head = Vec::new();
    /// object.open_range(0..4)?.read_to_end(&mut head)?;
    /// assert_eq!(head, b"PK\x03\x04");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn open_range(&self, range: std::ops::Range<u64>) -> io::Result<Box<dyn Read + Send>> {
        if range.is_empty() {
            return Ok(Box::new(io::empty()));
        }
        let options = object_store::GetOptions {
            range: Some(object_store::GetRange::Bounded(range)),
            ..Default::default()
        };
        tally::sent(1);
        let got = tally::waiting(|| {
            self.runtime
                .block_on(self.store.get_opts(&self.path, options))
        })
        .map_err(store_error)?;
        Ok(self.body(got))
    }

    /// The body of an answer, as a reader that takes it up where it
    /// breaks off; one long enough, with an ETag to hold the rest to,
    /// read in pieces side by side (ranged GETs ahead of the reader).
    fn body(&self, got: object_store::GetResult) -> Box<dyn Read + Send> {
        let etag = got.meta.e_tag.clone();
        let len = got.range.end - got.range.start;
        let body = Body {
            store: Arc::clone(&self.store),
            path: self.path.clone(),
            etag: etag.clone(),
            offset: got.range.start,
            end: got.range.end,
            stream: got.into_stream(),
            runtime: self.runtime,
            current: bytes::Bytes::new(),
            failures: 0,
        };
        match etag {
            Some(etag) if pieces::worth_pieces(len) && requests_ahead() > 0 => {
                Box::new(Pieces::new(body, etag, pieces::piece_len(len)))
            }
            _ => Box::new(body),
        }
    }
}

/// The objects a listing URL ([`is_listing`]) names, as URLs of its scheme in
/// key order: under a prefix ending in `/`, every object, recursively;
/// with `*` (any run of characters) or `?` (one character) in the last
/// segment, the objects of that folder whose names match. An empty
/// listing is an error, as a missing file is.
///
/// ```no_run
/// use urlsift_input::remote::list;
///
/// for url in list("s3://my-bucket/cdx/cdx-000??.gz")? {
///     println!("{url}");
/// }
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn list(url: &str) -> io::Result<Vec<String>> {
    if !is_listing(url) {
        return Err(bad(
            "not a listing: an s3://, gs:// or az:// URL ending in / or with * or ? in its last segment",
        ));
    }
    let (store, key) = store_for(url)?;
    let (folder, pattern) = key.rsplit_once('/').unwrap_or(("", key));
    let bucket_url = &url[..url.len() - key.len()];
    let prefix = (!folder.is_empty())
        .then(|| object_path(folder))
        .transpose()?;
    let runtime = runtime()?;
    tally::sent(1);
    let mut keys: Vec<String> = if pattern.is_empty() {
        let found: Vec<_> = runtime.block_on(store.list(prefix.as_ref()).collect());
        let mut keys = Vec::with_capacity(found.len());
        for meta in found {
            keys.push(meta.map_err(store_error)?.location.to_string());
        }
        keys
    } else {
        let listed = runtime
            .block_on(store.list_with_delimiter(prefix.as_ref()))
            .map_err(store_error)?;
        listed
            .objects
            .into_iter()
            .map(|meta| meta.location.to_string())
            .filter(|k| {
                glob_matches(
                    pattern.as_bytes(),
                    k.rsplit('/').next().unwrap_or(k).as_bytes(),
                )
            })
            .collect()
    };
    if keys.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            "no object matches (an empty listing)",
        ));
    }
    keys.sort_unstable();
    Ok(keys
        .into_iter()
        .map(|k| format!("{bucket_url}{k}"))
        .collect())
}

/// Whether `name` matches `pattern`, where `*` is any run of bytes and
/// `?` one byte (a name is one segment: no `/` to mind).
fn glob_matches(pattern: &[u8], name: &[u8]) -> bool {
    // The classic two-pointer walk: on a mismatch, the last `*` takes one
    // more byte.
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(&c) if c == b'?' || c == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    p = sp + 1;
                    n = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

/// HEAD requests in flight at once in [`sizes`].
const HEADS_IN_FLIGHT: usize = 32;

/// The sizes of the objects `urls` name, asked of their servers (HEAD
/// requests, several at once, over the stores kept per bucket or host):
/// whether each is there and may be read, before a run starts. In the
/// order of `urls`. A size asked in the last minute is not asked again.
///
/// ```no_run
/// let sizes = urlsift_input::remote::sizes(&[
///     "s3://my-bucket/crawl/a.warc.gz",
///     "https://data.commoncrawl.org/crawl-data/CC-MAIN-2024-10/warc.paths.gz",
/// ]);
/// assert_eq!(sizes.len(), 2);
/// ```
pub fn sizes(urls: &[&str]) -> Vec<io::Result<u64>> {
    let runtime = match runtime() {
        Ok(r) => r,
        Err(e) => return each_failed(urls.len(), &e),
    };
    let known: Vec<Option<u64>> = {
        let mut known = known_sizes().lock().expect("sizes");
        known.retain(|_, (_, when)| when.elapsed() < SIZE_KEPT);
        urls.iter()
            .map(|url| known.get(*url).map(|&(size, _)| size))
            .collect()
    };
    tally::sent(known.iter().filter(|k| k.is_none()).count() as u64);
    // A size known, or where to ask for it.
    let heads = urls.iter().zip(&known).map(|(url, &known)| {
        let size = known.ok_or_else(|| locate(url));
        async move {
            match size {
                Ok(size) => Ok(size),
                Err(located) => {
                    let (store, path) = located?;
                    store.head(&path).await.map(|m| m.size).map_err(store_error)
                }
            }
        }
    });
    let sizes: Vec<io::Result<u64>> = tally::waiting(|| {
        runtime.block_on(
            futures_util::stream::iter(heads)
                .buffered(HEADS_IN_FLIGHT)
                .collect(),
        )
    });
    let now = std::time::Instant::now();
    let mut known = known_sizes().lock().expect("sizes");
    for (url, size) in urls.iter().zip(&sizes) {
        if let Ok(size) = size {
            known.insert(url.to_string(), (*size, now));
        }
    }
    sizes
}

/// Range requests in flight at once in [`read_ranges`], over every
/// object asked for.
const RANGES_IN_FLIGHT: usize = 32;

/// Ranges of one object this close (or overlapping) are read in one
/// request: a request costs about as much as this many bytes on a fast
/// network, and a sparse sample of a big file must not download it
/// whole (object_store's own `get_ranges` merges ranges up to 1 MiB
/// apart: 10,000 records of a 100 MB file downloaded all of it).
const COALESCE_GAP: u64 = 16 << 10;

/// Ranges are not merged into a request longer than this: the pieces of
/// a large range (a Parquet row group's) are asked for side by side, one
/// connection alone being slower than the network.
const MOST_PER_REQUEST: u64 = 8 << 20;

/// The bytes of each `(url, range)` asked for, in order: ranges of one
/// object less than 16 KiB apart read in one request (of 8 MiB at most),
/// 32 requests in flight over all the objects. What `urlsift get` reads records by an
/// index's offsets with. A range past the object's end, or one whose
/// request fails past the store's retries, fails that ask only.
///
/// ```no_run
/// use urlsift_input::remote::read_ranges;
///
/// let warc = "https://data.commoncrawl.org/crawl-data/CC-MAIN-2024-10/segments/1707947473347.0/warc/CC-MAIN-20240220211055-20240221001055-00000.warc.gz";
/// let got = read_ranges(&[(warc, 0..512), (warc, 4096..8192)]);
/// assert_eq!(got[1].as_ref().map(Vec::len).ok(), Some(4096));
/// ```
pub fn read_ranges(asks: &[(&str, std::ops::Range<u64>)]) -> Vec<io::Result<Vec<u8>>> {
    let runtime = match runtime() {
        Ok(r) => r,
        Err(e) => return each_failed(asks.len(), &e),
    };
    // The requests: each object's asks by offset, merged where close.
    let mut order: Vec<usize> = (0..asks.len()).collect();
    order.sort_by(|&a, &b| (asks[a].0, asks[a].1.start).cmp(&(asks[b].0, asks[b].1.start)));
    let mut requests: Vec<(&str, std::ops::Range<u64>, Vec<usize>)> = Vec::new();
    for i in order {
        let (url, range) = &asks[i];
        match requests.last_mut() {
            Some((u, r, which))
                if u == url
                    && range.start <= r.end.saturating_add(COALESCE_GAP)
                    && range.end.max(r.end) - r.start <= MOST_PER_REQUEST =>
            {
                r.end = r.end.max(range.end);
                which.push(i);
            }
            _ => requests.push((url, range.clone(), vec![i])),
        }
    }
    let fetches = requests.iter().map(|(url, range, _)| {
        let located = locate(url);
        let range = range.clone();
        async move {
            let (store, path) = located?;
            store.get_range(&path, range).await.map_err(store_error)
        }
    });
    tally::sent(requests.len() as u64);
    let fetched: Vec<io::Result<bytes::Bytes>> = tally::waiting(|| {
        runtime.block_on(
            futures_util::stream::iter(fetches)
                .buffered(RANGES_IN_FLIGHT)
                .collect(),
        )
    });
    tally::received(fetched.iter().flatten().map(|b| b.len() as u64).sum());
    let mut out: Vec<io::Result<Vec<u8>>> = asks.iter().map(|_| Ok(Vec::new())).collect();
    for ((_, range, which), got) in requests.iter().zip(fetched) {
        for &i in which {
            let want = &asks[i].1;
            out[i] = match &got {
                Ok(body) => {
                    let (from, to) = (want.start - range.start, want.end - range.start);
                    match body.get(from as usize..to as usize) {
                        Some(piece) => Ok(piece.to_vec()),
                        None => Err(io::Error::new(
                            io::ErrorKind::UnexpectedEof,
                            "the object ends before the range does",
                        )),
                    }
                }
                Err(e) => Err(io::Error::new(e.kind(), e.to_string())),
            };
        }
    }
    out
}

/// `n` failures, each `e` (what every ask gets when no request can be
/// made).
fn each_failed<T>(n: usize, e: &io::Error) -> Vec<io::Result<T>> {
    (0..n)
        .map(|_| Err(io::Error::new(e.kind(), e.to_string())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::glob_matches;

    #[test]
    fn globs_match_within_a_name() {
        let m = |p: &str, n: &str| glob_matches(p.as_bytes(), n.as_bytes());
        assert!(m("cdx-000??.gz", "cdx-00012.gz"));
        assert!(!m("cdx-000??.gz", "cdx-0001.gz"));
        assert!(!m("cdx-000??.gz", "cdx-000123.gz"));
        assert!(m("*.warc.gz", "CC-MAIN-1.warc.gz"));
        assert!(!m("*.warc.gz", "CC-MAIN-1.warc.gz.tmp"));
        assert!(m("*", ""));
        assert!(m("a*b*c", "aXXbYYbc"));
        assert!(!m("a*b*c", "aXXbYYb"));
        assert!(m("**x", "x"));
        assert!(!m("", "x"));
    }
}

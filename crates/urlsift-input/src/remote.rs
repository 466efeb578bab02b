//! Inputs that are objects, not files: `s3://bucket/key` and
//! `http(s)://host/path`, read through the `object_store` crate (feature
//! `remote`). An input named by such a URL goes where a path goes: its
//! name is the URL, its format is told by the URL's last segment and its
//! first bytes, as for a file, and it is read as a stream, decoded like
//! a pipe.
//!
//! Credentials and settings for `s3://` come from the environment as the
//! AWS tools take them (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
//! `AWS_SESSION_TOKEN`, `AWS_DEFAULT_REGION`, `AWS_ENDPOINT_URL` or
//! `AWS_ENDPOINT` for an S3-compatible server, `AWS_ALLOW_HTTP`), and
//! `AWS_SKIP_SIGNATURE=true` reads public buckets without credentials.
//! The object store is async: each opened object owns a small runtime
//! of one thread that drives its requests while the reader waits.
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

use std::io::{self, Read};
use std::sync::Arc;

use futures_util::StreamExt;
use futures_util::stream::BoxStream;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreExt};

use crate::{is_listing, is_remote, strip_scheme};

/// A remote object: its store, and where in it.
pub struct Remote {
    store: Arc<dyn ObjectStore>,
    path: ObjectPath,
    runtime: Arc<tokio::runtime::Runtime>,
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
        let (store, key) = store_for(url)?;
        if key.is_empty() || key.ends_with('/') {
            let why = if url.to_ascii_lowercase().starts_with("s3://") {
                "name an object (s3://BUCKET/KEY), not a prefix: a listing is read by `remote::list`"
            } else {
                "name a file on the server"
            };
            return Err(bad(why));
        }
        let path = object_path(key)?;
        Ok(Remote {
            store,
            path,
            runtime: Arc::new(runtime()?),
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
        let meta = self
            .runtime
            .block_on(self.store.head(&self.path))
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
        let got = self
            .runtime
            .block_on(self.store.get(&self.path))
            .map_err(store_error)?;
        Ok(Box::new(Body {
            stream: got.into_stream(),
            runtime: Arc::clone(&self.runtime),
            current: bytes::Bytes::new(),
        }))
    }
}

/// The objects a listing URL ([`is_listing`](crate::is_listing)) names, as `s3://` URLs in
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
            "not a listing: an s3:// URL ending in / or with * or ? in its last segment",
        ));
    }
    let (store, key) = store_for(url)?;
    let (folder, pattern) = key.rsplit_once('/').unwrap_or(("", key));
    let bucket_url = &url[..url.len() - key.len()];
    let prefix = (!folder.is_empty())
        .then(|| object_path(folder))
        .transpose()?;
    let runtime = runtime()?;
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

/// An invalid-input error saying why.
fn bad(why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, why)
}

/// The store `url` names, and the key within it (as written: empty, or
/// ending in `/`, for a prefix).
fn store_for(url: &str) -> io::Result<(Arc<dyn ObjectStore>, &str)> {
    let failed = |e: object_store::Error| bad(&e.to_string());
    tls_provider();
    if let Some(rest) = strip_scheme(url, "s3://") {
        let (bucket, key) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() {
            return Err(bad("name a bucket (s3://BUCKET/KEY)"));
        }
        let mut builder = object_store::aws::AmazonS3Builder::from_env().with_bucket_name(bucket);
        // The AWS tools' name for an S3-compatible server's address.
        if std::env::var_os("AWS_ENDPOINT").is_none()
            && let Ok(endpoint) = std::env::var("AWS_ENDPOINT_URL")
        {
            if endpoint.starts_with("http://") {
                builder = builder.with_allow_http(true);
            }
            builder = builder.with_endpoint(endpoint);
        }
        Ok((Arc::new(builder.build().map_err(failed)?), key))
    } else if is_remote(url) {
        let scheme_end = url.find("://").expect("a scheme") + 3;
        let host_end = url[scheme_end..]
            .find('/')
            .map_or(url.len(), |i| scheme_end + i);
        let (base, key) = (&url[..host_end], url[host_end..].trim_start_matches('/'));
        let options = object_store::ClientOptions::new().with_allow_http(true);
        let store = object_store::http::HttpBuilder::new()
            .with_url(base)
            .with_client_options(options)
            .build()
            .map_err(failed)?;
        Ok((Arc::new(store), key))
    } else {
        Err(bad("not an s3:// or http(s):// URL"))
    }
}

/// The runtime that drives one object's requests: one thread, the
/// caller's.
fn runtime() -> io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
}

/// An object key as the store takes it (its segments as they are, not
/// encoded again).
fn object_path(key: &str) -> io::Result<ObjectPath> {
    ObjectPath::parse(key).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("not an object key: {e}"),
        )
    })
}

/// A store's error as an I/O error of the kind it is (not there, not
/// allowed); the caller names the input.
fn store_error(e: object_store::Error) -> io::Error {
    let kind = match &e {
        object_store::Error::NotFound { .. } => io::ErrorKind::NotFound,
        object_store::Error::PermissionDenied { .. }
        | object_store::Error::Unauthenticated { .. } => io::ErrorKind::PermissionDenied,
        _ => io::ErrorKind::Other,
    };
    match kind {
        io::ErrorKind::NotFound => io::Error::new(kind, "no such object"),
        _ => io::Error::new(kind, e.to_string()),
    }
}

/// The TLS library's cryptography (`ring`), set once per process.
fn tls_provider() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // (Another part of the process may have set one first: that one
        // serves.)
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// An object's body, as a reader.
struct Body {
    stream: BoxStream<'static, object_store::Result<bytes::Bytes>>,
    runtime: Arc<tokio::runtime::Runtime>,
    current: bytes::Bytes,
}

impl Read for Body {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.current.is_empty() {
            match self.runtime.block_on(self.stream.next()) {
                None => return Ok(0),
                Some(Ok(bytes)) => self.current = bytes,
                Some(Err(e)) => return Err(store_error(e)),
            }
        }
        let n = out.len().min(self.current.len());
        out[..n].copy_from_slice(&self.current[..n]);
        let _ = self.current.split_to(n);
        Ok(n)
    }
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

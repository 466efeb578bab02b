//! Inputs that are objects, not files: `s3://bucket/key`,
//! `az://container/key` (Azure Blob Storage) and `http(s)://host/path`,
//! read through the `object_store` crate (feature
//! `remote`). An input named by such a URL goes where a path goes: its
//! name is the URL, its format is told by the URL's last segment and its
//! first bytes, as for a file, and it is read as a stream, decoded like
//! a pipe.
//!
//! Credentials and settings for `s3://` come from the environment as the
//! AWS tools take them (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
//! `AWS_SESSION_TOKEN`, `AWS_DEFAULT_REGION`, `AWS_ENDPOINT_URL` or
//! `AWS_ENDPOINT` for an S3-compatible server, `AWS_ALLOW_HTTP`), and
//! `AWS_SKIP_SIGNATURE=true` reads public buckets without credentials;
//! for `az://`, as the Azure tools take them (`AZURE_STORAGE_ACCOUNT_NAME`
//! and `AZURE_STORAGE_ACCOUNT_KEY`, or `AZURE_STORAGE_SAS_KEY`, or a
//! service principal's `AZURE_CLIENT_ID`, `AZURE_CLIENT_SECRET`,
//! `AZURE_TENANT_ID`; `AZURE_STORAGE_USE_EMULATOR=true` and
//! `AZURITE_BLOB_STORAGE_URL` for Azurite).
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

use std::collections::HashMap;
use std::io::{self, Read};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use futures_util::StreamExt;
use futures_util::stream::BoxStream;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreExt};

use crate::{bucket_scheme, is_listing, is_remote, strip_scheme};

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
            store: Arc::clone(&self.store),
            path: self.path.clone(),
            etag: got.meta.e_tag.clone(),
            offset: got.range.start,
            end: got.range.end,
            stream: got.into_stream(),
            runtime: self.runtime,
            current: bytes::Bytes::new(),
            failures: 0,
        }))
    }
}

/// An object being written, all or nothing: a multipart upload begun
/// (which checks the bucket and the permission to write, before a run
/// does any work), its parts sent and the upload completed by
/// [`Upload::finish`]; dropped or [`Upload::abort`]ed unfinished, the
/// upload is aborted and no object appears. `s3://` and `az://`.
///
/// ```no_run
/// use std::io::{Seek, Write};
/// use urlsift_input::remote::Upload;
///
/// let upload = Upload::begin("s3://my-bucket/out/urls.txt")?;
/// let mut spool = tempfile::tempfile()?;
/// spool.write_all(b"https://example.com/\n")?;
/// spool.rewind()?;
/// upload.finish(&mut spool)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Upload {
    upload: Option<Box<dyn object_store::MultipartUpload>>,
    runtime: &'static tokio::runtime::Runtime,
}

/// The size of an upload's parts (S3 takes up to 10,000: objects up to
/// 160 GB), and how many are sent at once.
const PART: usize = 16 << 20;
const PARTS_IN_FLIGHT: usize = 4;

impl Upload {
    /// Begins the upload of the object `url` names.
    ///
    /// ```
    /// use urlsift_input::remote::Upload;
    ///
    /// let e = Upload::begin("https://example.com/out.txt").err().expect("not s3://");
    /// assert!(e.to_string().contains("s3://"));
    /// ```
    pub fn begin(url: &str) -> io::Result<Upload> {
        if bucket_scheme(url).is_none() {
            return Err(bad(
                "an output object is written to s3://BUCKET/KEY or az://CONTAINER/KEY \
                 (http(s):// servers are not written to)",
            ));
        }
        let (store, path) = locate(url)?;
        let runtime = runtime()?;
        let upload = runtime
            .block_on(store.put_multipart(&path))
            .map_err(store_error)?;
        Ok(Upload {
            upload: Some(upload),
            runtime,
        })
    }

    /// Sends what `from` holds, from where it stands to its end, as the
    /// object's bytes, and completes the upload: the object appears
    /// whole. On an error the upload is aborted.
    pub fn finish(mut self, from: &mut impl Read) -> io::Result<()> {
        let upload = self.upload.take().expect("an upload not finished");
        self.runtime.block_on(async move {
            let mut writer = object_store::WriteMultipart::new_with_chunk_size(upload, PART);
            let mut buf = vec![0; PART];
            loop {
                let n = match from.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        let _ = writer.abort().await;
                        return Err(e);
                    }
                };
                if let Err(e) = writer.wait_for_capacity(PARTS_IN_FLIGHT).await {
                    let _ = writer.abort().await;
                    return Err(store_error(e));
                }
                writer.write(&buf[..n]);
            }
            // (finish aborts the upload itself when it fails.)
            writer.finish().await.map(|_| ()).map_err(store_error)
        })
    }

    /// Aborts the upload: no object appears, and the parts sent are
    /// removed.
    pub fn abort(mut self) -> io::Result<()> {
        self.abort_now()
    }

    fn abort_now(&mut self) -> io::Result<()> {
        match self.upload.take() {
            Some(mut upload) => self.runtime.block_on(upload.abort()).map_err(store_error),
            None => Ok(()),
        }
    }
}

impl Drop for Upload {
    fn drop(&mut self) {
        let _ = self.abort_now();
    }
}

/// How long a request may wait on the server (to connect, or for its
/// next bytes) before it counts as failed and is tried again
/// (`--network-timeout`); 30 seconds unless set.
static NETWORK_TIMEOUT_MS: AtomicU64 = AtomicU64::new(30_000);

/// Bodies taken up again where they broke off, in this process.
static RESUMED: AtomicU64 = AtomicU64::new(0);

/// Sets how long a request may wait for the server (to connect, or for
/// its next bytes) before it counts as failed: it is then tried again, a
/// body taken up at the byte reached. For the objects opened after the
/// call.
///
/// ```
/// use std::time::Duration;
/// use urlsift_input::remote;
///
/// remote::set_network_timeout(Duration::from_secs(10));
/// assert_eq!(remote::network_timeout(), Duration::from_secs(10));
/// ```
pub fn set_network_timeout(timeout: Duration) {
    let ms = u64::try_from(timeout.as_millis())
        .unwrap_or(u64::MAX)
        .max(1);
    NETWORK_TIMEOUT_MS.store(ms, Ordering::Relaxed);
}

/// How long a request may wait for the server ([`set_network_timeout`]).
///
/// ```
/// assert!(urlsift_input::remote::network_timeout().as_secs() > 0);
/// ```
pub fn network_timeout() -> Duration {
    Duration::from_millis(NETWORK_TIMEOUT_MS.load(Ordering::Relaxed))
}

/// How many times, in this process, an object's body broke off (a reset,
/// a stall, a short body) and was taken up again at the byte reached.
///
/// ```
/// assert_eq!(urlsift_input::remote::resumed(), 0);
/// ```
pub fn resumed() -> u64 {
    RESUMED.load(Ordering::Relaxed)
}

/// Attempts in a row, without a byte received, before a broken body is
/// given up.
const ATTEMPTS: u32 = 8;

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
            "not a listing: an s3:// or az:// URL ending in / or with * or ? in its last segment",
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
    let (base, key) = split(url)?;
    Ok((store(base)?, key))
}

/// `url` cut into its store's part (`s3://BUCKET`, `az://CONTAINER`,
/// `https://HOST:PORT`)
/// and the key within it.
fn split(url: &str) -> io::Result<(&str, &str)> {
    if let Some(rest) = bucket_scheme(url) {
        let (bucket, key) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() {
            return Err(bad("name a bucket (s3://BUCKET/KEY, az://CONTAINER/KEY)"));
        }
        Ok((&url[..url.len() - rest.len() + bucket.len()], key))
    } else if is_remote(url) {
        let scheme_end = url.find("://").expect("a scheme") + 3;
        let host_end = url[scheme_end..]
            .find('/')
            .map_or(url.len(), |i| scheme_end + i);
        Ok((&url[..host_end], url[host_end..].trim_start_matches('/')))
    } else {
        Err(bad("not an s3://, az:// or http(s):// URL"))
    }
}

/// Settings for the store of a bucket or host, as the `object_store`
/// crate names them (`aws_endpoint`, `aws_region`, `aws_access_key_id`,
/// `aws_skip_signature`, `aws_request_payer`, `azure_storage_account_name`,
/// `timeout`, ...: the keys Polars' and delta-rs' `storage_options` take),
/// over what the environment sets. Given for the store that `url`
/// belongs to (`s3://BUCKET`, `az://CONTAINER`, `http(s)://HOST`), they
/// hold for every object of it opened after the call, until settings are
/// given for it again (none: the environment's alone). An unknown key,
/// or a value the store refuses, is an error, and nothing changes.
///
/// ```
/// use urlsift_input::remote::{Remote, set_storage_options};
///
/// let options = [("aws_region", "us-east-1"), ("aws_skip_signature", "true")];
/// set_storage_options("s3://commoncrawl/crawl-data/", &options)?;
/// assert!(Remote::new("s3://commoncrawl/crawl-data/x.warc.gz").is_ok());
///
/// let e = set_storage_options("s3://commoncrawl/", &[("colour", "blue")]).unwrap_err();
/// assert!(e.to_string().contains("colour"));
/// set_storage_options("s3://commoncrawl/", &[])?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn set_storage_options(url: &str, options: &[(&str, &str)]) -> io::Result<()> {
    let (base, _) = split(url)?;
    let mut options: Options = options
        .iter()
        .map(|&(k, v)| (k.to_string(), v.to_string()))
        .collect();
    // In one order, so that the same settings (a Python dict, in any
    // order) find the store kept for them.
    options.sort();
    // Built once now, so that a bad key or value stops the caller here.
    store_with(base, &options)?;
    let mut given = given_options().lock().expect("storage options");
    if given
        .get(base)
        .map_or(options.is_empty(), |now| *now == options)
    {
        return Ok(());
    }
    // Sizes asked under other settings are asked again.
    known_sizes().lock().expect("sizes").clear();
    if options.is_empty() {
        given.remove(base);
    } else {
        given.insert(base.to_string(), options);
    }
    Ok(())
}

/// Store settings as given: keys and values.
type Options = Vec<(String, String)>;

/// The settings given for each store ([`set_storage_options`]).
fn given_options() -> &'static Mutex<HashMap<String, Options>> {
    static GIVEN: OnceLock<Mutex<HashMap<String, Options>>> = OnceLock::new();
    GIVEN.get_or_init(Mutex::default)
}

/// The store at `base` (`s3://BUCKET`, `az://CONTAINER` or
/// `http(s)://HOST`), set up from the environment and the settings given
/// for it the first time it is asked for, and kept.
fn store(base: &str) -> io::Result<Arc<dyn ObjectStore>> {
    let options = given_options()
        .lock()
        .expect("storage options")
        .get(base)
        .cloned()
        .unwrap_or_default();
    store_with(base, &options)
}

/// The store at `base` with `options`: one kept per bucket or host and
/// settings.
fn store_with(base: &str, options: &Options) -> io::Result<Arc<dyn ObjectStore>> {
    type Stores = HashMap<(String, Options), Arc<dyn ObjectStore>>;
    static STORES: OnceLock<Mutex<Stores>> = OnceLock::new();
    let stores = STORES.get_or_init(Mutex::default);
    let key = (base.to_string(), options.clone());
    if let Some(store) = stores.lock().expect("stores").get(&key) {
        return Ok(Arc::clone(store));
    }
    let store = new_store(base, options)?;
    let mut stores = stores.lock().expect("stores");
    Ok(Arc::clone(stores.entry(key).or_insert(store)))
}

/// A store setting's key, parsed as the store of `base` names them.
fn option_key<K: std::str::FromStr>(base: &str, key: &str) -> io::Result<K> {
    key.parse().map_err(|_| {
        bad(&format!(
            "unknown storage option {key:?} for {base} (object_store's keys, as Polars takes them)"
        ))
    })
}

/// A new store for `base` ([`store`] keeps one per bucket or host).
fn new_store(base: &str, given: &Options) -> io::Result<Arc<dyn ObjectStore>> {
    let failed = |e: object_store::Error| bad(&e.to_string());
    tls_provider();
    if let Some(bucket) = strip_scheme(base, "s3://") {
        use object_store::aws::AmazonS3ConfigKey as Key;
        let mut builder = object_store::aws::AmazonS3Builder::from_env().with_bucket_name(bucket);
        for (key, value) in timeouts() {
            builder = builder.with_config(Key::Client(key), value);
        }
        // The AWS tools' name for an S3-compatible server's address.
        if std::env::var_os("AWS_ENDPOINT").is_none()
            && let Ok(endpoint) = std::env::var("AWS_ENDPOINT_URL")
        {
            builder = builder.with_endpoint(endpoint);
        }
        for (key, value) in given {
            builder = builder.with_config(option_key(base, key)?, value);
        }
        // A server on plain http:// is what its address says.
        if let Some(endpoint) = builder.get_config_value(&Key::Endpoint)
            && endpoint.starts_with("http://")
        {
            builder = builder.with_allow_http(true);
        }
        Ok(Arc::new(builder.build().map_err(failed)?))
    } else if let Some(container) = strip_scheme(base, "az://") {
        use object_store::azure::AzureConfigKey as Key;
        let mut builder =
            object_store::azure::MicrosoftAzureBuilder::from_env().with_container_name(container);
        for (key, value) in timeouts() {
            builder = builder.with_config(Key::Client(key), value);
        }
        for (key, value) in given {
            builder = builder.with_config(option_key(base, key)?, value);
        }
        Ok(Arc::new(builder.build().map_err(failed)?))
    } else {
        let mut options = object_store::ClientOptions::new().with_allow_http(true);
        for (key, value) in timeouts() {
            options = options.with_config(key, value);
        }
        for (key, value) in given {
            options = options.with_config(option_key(base, key)?, value);
        }
        let store = object_store::http::HttpBuilder::new()
            .with_url(base)
            .with_client_options(options)
            .build()
            .map_err(failed)?;
        Ok(Arc::new(store))
    }
}

/// HEAD requests in flight at once in [`sizes`].
const HEADS_IN_FLIGHT: usize = 32;

/// How long an object's size, once asked, is taken as known: a run's
/// checks ask each object once (the command's `--allow-missing` and the
/// engine both check the inputs), and a long-lived process asks again.
const SIZE_KEPT: Duration = Duration::from_secs(60);

/// The sizes asked in the last [`SIZE_KEPT`], and when.
fn known_sizes() -> &'static Mutex<HashMap<String, (u64, std::time::Instant)>> {
    static KNOWN: OnceLock<Mutex<HashMap<String, (u64, std::time::Instant)>>> = OnceLock::new();
    KNOWN.get_or_init(Mutex::default)
}

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
    let sizes: Vec<io::Result<u64>> = runtime.block_on(
        futures_util::stream::iter(heads)
            .buffered(HEADS_IN_FLIGHT)
            .collect(),
    );
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

/// The bytes of each `(url, range)` asked for, in order: ranges of one
/// object less than 16 KiB apart read in one request, 32 requests in
/// flight over all the objects. What `urlsift get` reads records by an
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
                if u == url && range.start <= r.end.saturating_add(COALESCE_GAP) =>
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
    let fetched: Vec<io::Result<bytes::Bytes>> = runtime.block_on(
        futures_util::stream::iter(fetches)
            .buffered(RANGES_IN_FLIGHT)
            .collect(),
    );
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

/// The store of the object `url` names, and its path there.
fn locate(url: &str) -> io::Result<(Arc<dyn ObjectStore>, ObjectPath)> {
    let (store, key) = store_for(url)?;
    Ok((store, object_key(url, key)?))
}

/// The object path of `key` in `url`, refused when it names a prefix or
/// nothing.
fn object_key(url: &str, key: &str) -> io::Result<ObjectPath> {
    if key.is_empty() || key.ends_with('/') {
        let why = if bucket_scheme(url).is_some() {
            "name an object (s3://BUCKET/KEY, az://CONTAINER/KEY), not a prefix: a listing is \
             read by `remote::list`"
        } else {
            "name a file on the server"
        };
        return Err(bad(why));
    }
    object_path(key)
}

/// The client's timeouts: the network timeout to connect and between two
/// reads (a stall), none for a whole request (a large object takes as long
/// as it takes: the day set is a bound no download should reach).
fn timeouts() -> [(object_store::ClientConfigKey, String); 3] {
    use object_store::ClientConfigKey as Client;
    let wait = format!("{}ms", network_timeout().as_millis());
    [
        (Client::ConnectTimeout, wait.clone()),
        (Client::ReadTimeout, wait),
        (Client::Timeout, "1day".to_string()),
    ]
}

/// The runtime that drives every request of the process: one thread
/// (`urlsift-net`) that keeps the connections, while the readers wait on
/// their own threads. Its stores and their connection pools live as long
/// as it does, so the objects of one bucket or host share a client (its
/// TLS roots parsed once) and its connections.
fn runtime() -> io::Result<&'static tokio::runtime::Runtime> {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    if let Some(runtime) = RUNTIME.get() {
        return Ok(runtime);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("urlsift-net")
        .enable_all()
        .build()?;
    Ok(RUNTIME.get_or_init(|| runtime))
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

/// An object's body, as a reader. The store resumes a body that breaks
/// a few times within a few minutes of its request; past that, this
/// reader asks again for the rest (`If-Match` its ETag: an object that
/// changed is an error, not a mix of two), so a long download survives
/// any number of breaks as long as each attempt brings bytes.
struct Body {
    store: Arc<dyn ObjectStore>,
    path: ObjectPath,
    etag: Option<String>,
    /// The next byte's offset in the object, and the end of the object.
    offset: u64,
    end: u64,
    stream: BoxStream<'static, object_store::Result<bytes::Bytes>>,
    runtime: &'static tokio::runtime::Runtime,
    current: bytes::Bytes,
    /// Attempts in a row that brought no byte.
    failures: u32,
}

impl Body {
    /// The next piece of the body, or `None` at its end; a stall past the
    /// network timeout, a broken connection or a body cut short is taken
    /// up again at the byte reached.
    fn next_piece(&mut self) -> io::Result<Option<bytes::Bytes>> {
        loop {
            // (A stall is the client's read timeout: an error here.)
            let why = match self.runtime.block_on(self.stream.next()) {
                Some(Ok(bytes)) => {
                    self.offset += bytes.len() as u64;
                    self.failures = 0;
                    return Ok(Some(bytes));
                }
                None if self.offset >= self.end => return Ok(None),
                None => format!("the body ended at byte {} of {}", self.offset, self.end),
                Some(Err(e)) => format!("{e}, at byte {}", self.offset),
            };
            self.resume(why)?;
        }
    }

    /// Asks again for the body from the byte reached, after a backoff;
    /// an error when the object changed, has no ETag to hold it to, or
    /// [`ATTEMPTS`] attempts in a row brought nothing.
    fn resume(&mut self, why: String) -> io::Result<()> {
        let Some(etag) = self.etag.clone() else {
            return Err(io::Error::other(format!(
                "{why} (the server gives no ETag, so the rest cannot be asked for safely)"
            )));
        };
        loop {
            self.failures += 1;
            if self.failures > ATTEMPTS {
                return Err(io::Error::other(format!(
                    "{why}; {ATTEMPTS} attempts in a row brought no byte"
                )));
            }
            let backoff = Duration::from_millis(100 << self.failures.min(6));
            let options = object_store::GetOptions {
                range: Some(object_store::GetRange::Bounded(self.offset..self.end)),
                if_match: Some(etag.clone()),
                ..Default::default()
            };
            let asked = async {
                tokio::time::sleep(backoff).await;
                self.store.get_opts(&self.path, options).await
            };
            match self.runtime.block_on(asked) {
                Ok(got) if got.range.start == self.offset => {
                    RESUMED.fetch_add(1, Ordering::Relaxed);
                    self.stream = got.into_stream();
                    return Ok(());
                }
                Ok(got) => {
                    return Err(io::Error::other(format!(
                        "{why}; asked again from byte {}, the server answered from byte {}",
                        self.offset, got.range.start
                    )));
                }
                Err(object_store::Error::Precondition { .. }) => {
                    return Err(io::Error::other(format!(
                        "the object changed while it was read (its ETag is no longer {etag}), \
                         at byte {}",
                        self.offset
                    )));
                }
                Err(object_store::Error::NotFound { .. }) => {
                    return Err(io::Error::new(
                        io::ErrorKind::NotFound,
                        format!(
                            "the object went away while it was read, at byte {}",
                            self.offset
                        ),
                    ));
                }
                // Tried again, after a longer wait.
                Err(_) => {}
            }
        }
    }
}

impl Read for Body {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.current.is_empty() {
            match self.next_piece()? {
                Some(bytes) => self.current = bytes,
                None => return Ok(0),
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

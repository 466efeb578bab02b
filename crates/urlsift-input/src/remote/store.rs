//! The stores behind the remote objects: one per bucket or host and
//! settings, set up from the environment and [`set_storage_options`],
//! the runtime that drives their requests, and their errors as I/O
//! errors. The layer the bodies, uploads and reads of [`super`] stand on.

use std::collections::HashMap;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use object_store::ObjectStore;
use object_store::path::Path as ObjectPath;

use crate::{bucket_scheme, is_remote, strip_scheme};

/// How long a request may wait on the server (to connect, or for its
/// next bytes) before it counts as failed and is tried again
/// (`--network-timeout`); 30 seconds unless set.
static NETWORK_TIMEOUT_MS: AtomicU64 = AtomicU64::new(30_000);

/// Whether requests to buckets go unsigned (`--no-sign-request`).
static UNSIGNED: AtomicBool = AtomicBool::new(false);

/// Sends the requests of the `s3://`, `gs://` and `az://` stores made
/// after the call without credentials (`--no-sign-request`): for public
/// buckets that allow anonymous reads, with no credential looked for.
///
/// ```
/// use urlsift_input::remote;
///
/// remote::set_unsigned_requests(true);
/// assert!(remote::Remote::new("s3://a-public-bucket/crawl/x.warc.gz").is_ok());
/// ```
pub fn set_unsigned_requests(unsigned: bool) {
    UNSIGNED.store(unsigned, Ordering::Relaxed);
}

/// Whether requests to buckets go unsigned ([`set_unsigned_requests`]).
fn unsigned() -> bool {
    UNSIGNED.load(Ordering::Relaxed)
}

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

/// Ranged requests in flight per object ahead of its reader
/// ([`set_requests_ahead`]); 4 unless set.
static REQUESTS_AHEAD: AtomicUsize = AtomicUsize::new(4);

/// Sets how many ranged requests per object are in flight ahead of its
/// reader (`--requests-ahead`): an object of 512 KiB or more is read in
/// pieces (an eighth of it, from 256 KiB to 8 MiB), the next ones asked
/// for side by side while the reader takes the first from the answer to
/// its GET; 0 reads each object as the one answer, a stream. For the
/// objects opened after the call.
///
/// ```
/// use urlsift_input::remote;
///
/// remote::set_requests_ahead(8);
/// assert_eq!(remote::requests_ahead(), 8);
/// ```
pub fn set_requests_ahead(n: usize) {
    REQUESTS_AHEAD.store(n, Ordering::Relaxed);
}

/// Ranged requests per object in flight ahead of its reader
/// ([`set_requests_ahead`]).
///
/// ```
/// assert_eq!(urlsift_input::remote::requests_ahead(), 4);
/// ```
pub fn requests_ahead() -> usize {
    REQUESTS_AHEAD.load(Ordering::Relaxed)
}

/// An invalid-input error saying why.
pub(super) fn bad(why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, why)
}

/// The store `url` names, and the key within it (as written: empty, or
/// ending in `/`, for a prefix).
pub(super) fn store_for(url: &str) -> io::Result<(Arc<dyn ObjectStore>, &str)> {
    let (base, key) = split(url)?;
    Ok((store(base)?, key))
}

/// `url` cut into its store's part (`s3://BUCKET`, `gs://BUCKET`, `az://CONTAINER`,
/// `https://HOST:PORT`)
/// and the key within it.
fn split(url: &str) -> io::Result<(&str, &str)> {
    if let Some(rest) = bucket_scheme(url) {
        let (bucket, key) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() {
            return Err(bad(
                "name a bucket (s3://BUCKET/KEY, gs://BUCKET/KEY, az://CONTAINER/KEY)",
            ));
        }
        Ok((&url[..url.len() - rest.len() + bucket.len()], key))
    } else if is_remote(url) {
        let scheme_end = url.find("://").expect("a scheme") + 3;
        let host_end = url[scheme_end..]
            .find('/')
            .map_or(url.len(), |i| scheme_end + i);
        Ok((&url[..host_end], url[host_end..].trim_start_matches('/')))
    } else {
        Err(bad("not an s3://, gs://, az:// or http(s):// URL"))
    }
}

/// Settings for the store of a bucket or host, as the `object_store`
/// crate names them (`aws_endpoint`, `aws_region`, `aws_access_key_id`,
/// `aws_skip_signature`, `aws_request_payer`, `azure_storage_account_name`,
/// `timeout`, ...: the keys Polars' and delta-rs' `storage_options` take),
/// over what the environment sets. Given for the store that `url`
/// belongs to (`s3://BUCKET`, `gs://BUCKET`, `az://CONTAINER`, `http(s)://HOST`), they
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
/// // A GCS emulator (or a server of GCS's XML API), with a token.
/// let gcs = [("google_base_url", "http://127.0.0.1:4443"), ("google_bearer_token", "t")];
/// set_storage_options("gs://my-bucket/", &gcs)?;
/// assert!(Remote::new("gs://my-bucket/crawl/x.warc.gz").is_ok());
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

/// The store at `base` (`s3://BUCKET`, `gs://BUCKET`, `az://CONTAINER` or
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
        // The environment's settings as the store's own `from_env` takes
        // them, over client options that trust AWS_CA_BUNDLE's
        // certificates too (the AWS tools' private CA bundle).
        let mut options = object_store::ClientOptions::new();
        if let Some(path) = std::env::var_os("AWS_CA_BUNDLE").filter(|p| !p.is_empty()) {
            let pem = std::fs::read(&path).map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!("AWS_CA_BUNDLE {}: {e}", Path::new(&path).display()),
                )
            })?;
            let certificates = object_store::Certificate::from_pem_bundle(&pem).map_err(|e| {
                bad(&format!(
                    "AWS_CA_BUNDLE {}: not PEM certificates: {e}",
                    Path::new(&path).display()
                ))
            })?;
            for certificate in certificates {
                options = options.with_root_certificate(certificate);
            }
        }
        let mut builder = object_store::aws::AmazonS3Builder::new().with_client_options(options);
        for (key, value) in std::env::vars() {
            if key.starts_with("AWS_")
                && let Ok(key) = key.to_ascii_lowercase().parse::<Key>()
            {
                builder = builder.with_config(key, value);
            }
        }
        // A profile of the AWS tools' shared files, when the environment
        // holds no key.
        for (key, value) in super::profile::aws_settings()? {
            builder = builder.with_config(key, value);
        }
        builder = builder.with_bucket_name(bucket);
        for (key, value) in timeouts() {
            builder = builder.with_config(Key::Client(key), value);
        }
        if unsigned() {
            builder = builder.with_skip_signature(true);
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
    } else if let Some(bucket) = strip_scheme(base, "gs://") {
        use object_store::gcp::GoogleConfigKey as Key;
        let mut builder =
            object_store::gcp::GoogleCloudStorageBuilder::from_env().with_bucket_name(bucket);
        for (key, value) in timeouts() {
            builder = builder.with_config(Key::Client(key), value);
        }
        // The Google tools' name for an emulator's address: requests go
        // there with a token it takes (any: an emulator checks none; the
        // store would otherwise ask a VM's metadata server for one).
        if std::env::var_os("GOOGLE_BASE_URL").is_none()
            && let Ok(host) = std::env::var("STORAGE_EMULATOR_HOST")
        {
            let url = if host.contains("://") {
                host
            } else {
                format!("http://{host}")
            };
            builder = builder.with_config(Key::BaseUrl, url.trim_end_matches('/'));
            if std::env::var_os("GOOGLE_BEARER_TOKEN").is_none() {
                builder = builder.with_config(Key::BearerToken, "emulator");
            }
        }
        if unsigned() {
            builder = builder.with_skip_signature(true);
        }
        for (key, value) in given {
            builder = builder.with_config(option_key(base, key)?, value);
        }
        if let Some(url) = builder.get_config_value(&Key::BaseUrl)
            && url.starts_with("http://")
        {
            builder = builder.with_config(
                Key::Client(object_store::ClientConfigKey::AllowHttp),
                "true",
            );
        }
        Ok(Arc::new(builder.build().map_err(failed)?))
    } else if let Some(container) = strip_scheme(base, "az://") {
        use object_store::azure::AzureConfigKey as Key;
        let mut builder =
            object_store::azure::MicrosoftAzureBuilder::from_env().with_container_name(container);
        for (key, value) in timeouts() {
            builder = builder.with_config(Key::Client(key), value);
        }
        if unsigned() {
            builder = builder.with_skip_signature(true);
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

/// How long an object's size, once asked, is taken as known: a run's
/// checks ask each object once (the command's `--allow-missing` and the
/// engine both check the inputs), and a long-lived process asks again.
pub(super) const SIZE_KEPT: Duration = Duration::from_secs(60);

/// The sizes asked in the last [`SIZE_KEPT`], and when.
pub(super) fn known_sizes() -> &'static Mutex<HashMap<String, (u64, std::time::Instant)>> {
    static KNOWN: OnceLock<Mutex<HashMap<String, (u64, std::time::Instant)>>> = OnceLock::new();
    KNOWN.get_or_init(Mutex::default)
}

/// The store of the object `url` names, and its path there.
pub(super) fn locate(url: &str) -> io::Result<(Arc<dyn ObjectStore>, ObjectPath)> {
    let (store, key) = store_for(url)?;
    Ok((store, object_key(url, key)?))
}

/// The object path of `key` in `url`, refused when it names a prefix or
/// nothing.
fn object_key(url: &str, key: &str) -> io::Result<ObjectPath> {
    if key.is_empty() || key.ends_with('/') {
        let why = if bucket_scheme(url).is_some() {
            "name an object (s3://BUCKET/KEY, gs://BUCKET/KEY, az://CONTAINER/KEY), not a prefix: a listing is \
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
pub(super) fn runtime() -> io::Result<&'static tokio::runtime::Runtime> {
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
pub(super) fn object_path(key: &str) -> io::Result<ObjectPath> {
    ObjectPath::parse(key).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("not an object key: {e}"),
        )
    })
}

/// A store's error as an I/O error of the kind it is (not there, not
/// allowed); the caller names the input.
pub(super) fn store_error(e: object_store::Error) -> io::Error {
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

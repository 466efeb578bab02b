//! `--parsers curl`: libcurl's URL API (`curl_url_set` of the whole URL
//! with `CURLU_NON_SUPPORT_SCHEME`, then `curl_url_get` of each part; an
//! error code means invalid), from the system's libcurl loaded at run
//! time: the build needs no libcurl headers, and a machine without libcurl
//! only misses this peer. This is the command's one module of FFI (see
//! DESIGN.md); every `unsafe` block says why it is sound.
//!
//! The parts are what curl means by the URL: its scheme, user, password,
//! host (as curl reads it: `0x7f.1` is already `127.0.0.1`), port (only an
//! explicit one), path, query and fragment; its serialization is the
//! work a timed pass adds up.

use std::ffi::{CStr, CString, c_char, c_int, c_uint, c_void};
use std::sync::Arc;

use crate::Error;
use crate::engines::{Engine, Parsed, Parts, Round, Work, timed};

/// `CURLUPart` values (curl/urlapi.h).
const URL: c_int = 0;
const SCHEME: c_int = 1;
const USER: c_int = 2;
const PASSWORD: c_int = 3;
const HOST: c_int = 5;
const PORT: c_int = 6;
const PATH: c_int = 7;
const QUERY: c_int = 8;
const FRAGMENT: c_int = 9;
/// `CURLU_NON_SUPPORT_SCHEME`: take any scheme, not only the ones this
/// libcurl was built to fetch.
const NON_SUPPORT_SCHEME: c_uint = 1 << 3;

type UrlNew = unsafe extern "C" fn() -> *mut c_void;
type UrlCleanup = unsafe extern "C" fn(*mut c_void);
type UrlSet = unsafe extern "C" fn(*mut c_void, c_int, *const c_char, c_uint) -> c_int;
type UrlGet = unsafe extern "C" fn(*mut c_void, c_int, *mut *mut c_char, c_uint) -> c_int;
type Free = unsafe extern "C" fn(*mut c_void);
type Version = unsafe extern "C" fn() -> *const c_char;
type StrError = unsafe extern "C" fn(c_int) -> *const c_char;

/// The loaded library and the functions this module calls.
pub struct Lib {
    url_new: UrlNew,
    url_cleanup: UrlCleanup,
    url_set: UrlSet,
    url_get: UrlGet,
    free: Free,
    /// `curl_url_strerror` (libcurl 7.80 and later).
    strerror: Option<StrError>,
    /// `curl_version()`'s first word: `libcurl/7.88.1`.
    pub version: String,
    /// Keeps the functions above loaded.
    _lib: libloading::Library,
}

/// The names libcurl goes by, tried in turn.
const NAMES: [&str; 3] = ["libcurl.so.4", "libcurl.so", "libcurl.4.dylib"];

impl Lib {
    /// Loads the system's libcurl, or says why it cannot.
    pub fn load() -> Result<Arc<Lib>, String> {
        let mut why = String::new();
        for name in NAMES {
            // SAFETY: loading libcurl runs its initializers, which set up
            // its own state only (no global state of this process is
            // touched); the library stays loaded as long as `Lib` lives.
            match unsafe { libloading::Library::new(name) } {
                Ok(lib) => return Lib::from_library(lib),
                Err(e) => why = e.to_string(),
            }
        }
        Err(format!(
            "libcurl not found ({}): {why}; install libcurl (Debian: libcurl4)",
            NAMES.join(", ")
        ))
    }

    fn from_library(lib: libloading::Library) -> Result<Arc<Lib>, String> {
        // SAFETY: each symbol is looked up with the signature curl's
        // header declares for it (curl/urlapi.h, curl/curl.h); the
        // function pointers are copied out and used only while `_lib`
        // keeps the library loaded (it is dropped last, with `Lib`).
        unsafe {
            let sym = |name: &[u8]| -> Result<*mut c_void, String> {
                lib.get::<*mut c_void>(name)
                    .map(|s| *s)
                    .map_err(|e| format!("libcurl has no URL API ({e}): curl 7.62 or later needed"))
            };
            let url_new: UrlNew = std::mem::transmute(sym(b"curl_url\0")?);
            let url_cleanup: UrlCleanup = std::mem::transmute(sym(b"curl_url_cleanup\0")?);
            let url_set: UrlSet = std::mem::transmute(sym(b"curl_url_set\0")?);
            let url_get: UrlGet = std::mem::transmute(sym(b"curl_url_get\0")?);
            let free: Free = std::mem::transmute(sym(b"curl_free\0")?);
            let version: Version = std::mem::transmute(sym(b"curl_version\0")?);
            let strerror: Option<StrError> = sym(b"curl_url_strerror\0")
                .ok()
                .map(|f| std::mem::transmute::<*mut c_void, StrError>(f));
            // curl_version returns a static string.
            let text = CStr::from_ptr(version()).to_string_lossy();
            let version = text
                .split_whitespace()
                .next()
                .unwrap_or("libcurl")
                .to_string();
            Ok(Arc::new(Lib {
                url_new,
                url_cleanup,
                url_set,
                url_get,
                free,
                strerror,
                version,
                _lib: lib,
            }))
        }
    }
}

/// One `CURLU` handle, reused for every URL a thread parses.
struct Handle {
    lib: Arc<Lib>,
    raw: *mut c_void,
}

impl Handle {
    fn new(lib: &Arc<Lib>) -> Handle {
        // SAFETY: curl_url takes no argument and returns a new handle (or
        // null when out of memory, which `set` treats as a failure).
        let raw = unsafe { (lib.url_new)() };
        Handle {
            lib: Arc::clone(lib),
            raw,
        }
    }

    /// Parses `url` into the handle: whether curl took it.
    fn set(&mut self, url: &CStr) -> bool {
        self.set_code(url) == 0
    }

    /// Parses `url` into the handle: curl's `CURLUcode` (0: it took it).
    fn set_code(&mut self, url: &CStr) -> c_int {
        if self.raw.is_null() {
            return -1;
        }
        // SAFETY: the handle is live (made by curl_url, not yet cleaned
        // up) and used by this thread only; `url` is NUL-terminated and
        // curl copies what it keeps of it.
        unsafe { (self.lib.url_set)(self.raw, URL, url.as_ptr(), NON_SUPPORT_SCHEME) }
    }

    /// What curl says of `code`.
    fn message(&self, code: c_int) -> String {
        match self.lib.strerror {
            // SAFETY: curl_url_strerror returns a static string for any
            // code (an "unknown error" text for ones it does not know).
            Some(f) => unsafe { CStr::from_ptr(f(code)).to_string_lossy().into_owned() },
            None => format!("CURLUcode {code}"),
        }
    }

    /// Part `part` of the URL the handle holds, if curl has one.
    fn get(&self, part: c_int) -> Option<String> {
        let mut out: *mut c_char = std::ptr::null_mut();
        // SAFETY: the handle is live and holds a URL; curl writes a new
        // NUL-terminated string to `out` on success, which is copied and
        // then given back with curl_free, as curl's documentation asks.
        unsafe {
            if (self.lib.url_get)(self.raw, part, &mut out, 0) != 0 || out.is_null() {
                return None;
            }
            let value = CStr::from_ptr(out).to_string_lossy().into_owned();
            (self.lib.free)(out.cast());
            Some(value)
        }
    }
}

impl Handle {
    /// The length of curl's serialization of the URL the handle holds:
    /// the work a timed pass counts, without copying the string.
    fn url_len(&self) -> Option<usize> {
        let mut out: *mut c_char = std::ptr::null_mut();
        // SAFETY: as in `get`: a live handle; the string curl makes is
        // measured, then given back with curl_free.
        unsafe {
            if (self.lib.url_get)(self.raw, URL, &mut out, 0) != 0 || out.is_null() {
                return None;
            }
            let len = CStr::from_ptr(out).to_bytes().len();
            (self.lib.free)(out.cast());
            Some(len)
        }
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        if !self.raw.is_null() {
            // SAFETY: the handle was made by curl_url and is cleaned up
            // once, here; nothing uses it after.
            unsafe { (self.lib.url_cleanup)(self.raw) }
        }
    }
}

/// libcurl as `compare` drives it.
pub struct Curl {
    lib: Arc<Lib>,
    handle: Handle,
    /// Every URL as the C string curl takes, made once (a URL with a NUL
    /// byte cannot be one: `None`, invalid).
    urls: Vec<Option<CString>>,
}

impl Curl {
    /// Curl over `urls`, with `lib` loaded.
    pub fn new(lib: Arc<Lib>, urls: &[&str]) -> Curl {
        Curl {
            handle: Handle::new(&lib),
            urls: urls.iter().map(|u| CString::new(*u).ok()).collect(),
            lib,
        }
    }
}

impl Engine for Curl {
    fn parse(&mut self, index: usize, _: &str) -> Result<Parsed, Error> {
        let Some(url) = &self.urls[index] else {
            return Ok(Parsed::Failed("a NUL byte".to_string()));
        };
        // A new handle per URL: curl resolves a URL it does not take as
        // absolute against the one a handle held before.
        self.handle = Handle::new(&self.lib);
        let code = self.handle.set_code(url);
        if code != 0 {
            return Ok(Parsed::Failed(self.handle.message(code)));
        }
        let h = &self.handle;
        Ok(Parsed::Parts(Box::new(Parts {
            scheme: h.get(SCHEME),
            username: h.get(USER),
            password: h.get(PASSWORD),
            host: h.get(HOST),
            port: h.get(PORT),
            path: h.get(PATH),
            query: h.get(QUERY),
            fragment: h.get(FRAGMENT),
            url: h.get(URL).unwrap_or_default(),
        })))
    }

    fn round(&mut self, urls: &[&str], pool: Option<&rayon::ThreadPool>) -> Result<Round, Error> {
        // `urls` is the corpus in order, and a share is a run of it: its
        // place in `urls` picks its C strings, made before the clock
        // started (as the other parsers get their input ready-made).
        debug_assert_eq!(urls.len(), self.urls.len());
        let (lib, all) = (&self.lib, &self.urls);
        let base = urls.as_ptr() as usize;
        Ok(timed(urls, pool, |share| {
            let start = (share.as_ptr() as usize - base) / std::mem::size_of::<&str>();
            let mut work = Work::default();
            for c in all[start..start + share.len()].iter().flatten() {
                // (A new handle per URL: see `parse`.)
                let mut handle = Handle::new(lib);
                if handle.set(c) {
                    work.add(Some(handle.url_len().unwrap_or(0)));
                }
            }
            work
        }))
    }
}

//! `urlsift.URL`: one parsed URL with the WHATWG getters, for code that
//! handles URLs one at a time. Columns go through `kernel` instead.

use pyo3::prelude::*;
use urlsift::Url;
use urlsift::site::{List, Parts};

pyo3::create_exception!(
    urlsift,
    ParseError,
    pyo3::exceptions::PyValueError,
    "The input is not a URL (the message gives the standard's reason)."
);

/// A parsed URL. Its getters return what JavaScript's `URL` getters return.
#[pyclass(frozen, name = "URL", module = "urlsift")]
pub struct PyUrl(Url);

/// A base URL given as a string or as an already parsed `URL`.
#[derive(FromPyObject)]
pub enum BaseArg {
    Url(Py<PyUrl>),
    Str(String),
}

/// Parses an optional base argument.
pub fn parse_base(base: Option<BaseArg>) -> PyResult<Option<Url>> {
    match base {
        None => Ok(None),
        Some(BaseArg::Url(u)) => Ok(Some(u.get().0.clone())),
        Some(BaseArg::Str(s)) => Url::parse(&s)
            .map(Some)
            .map_err(|e| ParseError::new_err(format!("base {s:?}: {e}"))),
    }
}

/// `urlsift.parse(url, base=None)`: the URL, or `ParseError`.
#[pyfunction]
#[pyo3(signature = (url, base=None))]
pub fn parse(url: &str, base: Option<BaseArg>) -> PyResult<PyUrl> {
    let base = parse_base(base)?;
    Url::parse_with_base(url, base.as_ref())
        .map(PyUrl)
        .map_err(|e| ParseError::new_err(format!("{url:?}: {e}")))
}

/// `urlsift.can_parse(url, base=None)`: whether `parse` would succeed
/// (false when the base itself does not parse, as `URL.canParse`).
#[pyfunction]
#[pyo3(signature = (url, base=None))]
pub fn can_parse(url: &str, base: Option<BaseArg>) -> bool {
    match parse_base(base) {
        Ok(base) => Url::parse_with_base(url, base.as_ref()).is_ok(),
        Err(_) => false,
    }
}

impl PyUrl {
    fn parts(&self) -> Option<Parts<'_>> {
        List::builtin().url_parts(&self.0)
    }
}

#[pymethods]
impl PyUrl {
    #[new]
    #[pyo3(signature = (url, base=None))]
    fn new(url: &str, base: Option<BaseArg>) -> PyResult<PyUrl> {
        parse(url, base)
    }

    #[getter]
    fn href(&self) -> &str {
        self.0.href()
    }
    #[getter]
    fn protocol(&self) -> &str {
        self.0.protocol()
    }
    #[getter]
    fn username(&self) -> &str {
        self.0.username()
    }
    #[getter]
    fn password(&self) -> &str {
        self.0.password()
    }
    #[getter]
    fn host(&self) -> &str {
        self.0.host()
    }
    #[getter]
    fn hostname(&self) -> &str {
        self.0.hostname()
    }
    #[getter]
    fn port(&self) -> &str {
        self.0.port()
    }
    #[getter]
    fn pathname(&self) -> &str {
        self.0.pathname()
    }
    #[getter]
    fn search(&self) -> &str {
        self.0.search()
    }
    #[getter]
    fn hash(&self) -> &str {
        self.0.hash()
    }
    #[getter]
    fn origin(&self) -> String {
        self.0.origin().to_string()
    }

    // The site fields, by the compiled-in Public Suffix List (private
    // rules included); None when the host is not a domain or the part
    // does not exist.
    #[getter]
    fn site(&self) -> Option<&str> {
        self.parts()?.registrable_domain()
    }
    #[getter]
    fn public_suffix(&self) -> Option<&str> {
        Some(self.parts()?.public_suffix())
    }
    #[getter]
    fn subdomain(&self) -> Option<&str> {
        self.parts()?.subdomain()
    }
    #[getter]
    fn domain(&self) -> Option<&str> {
        self.parts()?.domain()
    }

    fn __str__(&self) -> &str {
        self.0.href()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let href = pyo3::types::PyString::new(py, self.0.href()).repr()?;
        Ok(format!("URL({href})"))
    }

    fn __eq__(&self, other: &Self) -> bool {
        self.0 == other.0
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        Hash::hash(&self.0, &mut h);
        h.finish()
    }
}

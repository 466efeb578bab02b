//! Inputs named by URL in Python: listings (`s3://BUCKET/DIR/`, globs)
//! expanded, and `storage_options=` given to the stores of the URLs a
//! call names (the `object_store` crate's keys, as Polars takes them).

use std::collections::HashMap;
use std::io;
use std::path::PathBuf;

use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyValueError};
use pyo3::prelude::*;
use urlsift_input::remote;

/// Store settings as Python gives them.
pub(crate) type StorageOptions = HashMap<String, String>;

/// The inputs `paths` stand for, in order: a listing URL (an `s3://`,
/// `gs://` or `az://` prefix ending in `/`, or a glob in its last segment) as the
/// objects it lists, in key order; the rest as given. The stores of the
/// URLs among them take `options` (or, without, the environment's
/// settings alone) for this call and the ones after it.
pub(crate) fn inputs(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    options: Option<&StorageOptions>,
) -> PyResult<Vec<PathBuf>> {
    let options: Vec<(&str, &str)> = options
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    py.detach(|| {
        let mut out = Vec::with_capacity(paths.len());
        for path in paths {
            let Some(name) = path.to_str().filter(|n| urlsift_input::is_remote(n)) else {
                out.push(path);
                continue;
            };
            remote::set_storage_options(name, &options)
                .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?;
            let listed = urlsift_input::expand(name).map_err(|e| io_error(name, e))?;
            out.extend(listed.into_iter().map(PathBuf::from));
        }
        Ok(out)
    })
}

/// An input's error as Python's: `FileNotFoundError` for what is not
/// there, `OSError` for the rest, the input named.
pub(crate) fn io_error(name: &str, e: io::Error) -> PyErr {
    let message = format!("{name}: {e}");
    match e.kind() {
        io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        _ => PyOSError::new_err(message),
    }
}

/// `urlsift.expand`: the inputs `paths` stand for (see [`inputs`]), as
/// strings (a `pathlib.Path` would fold `s3://` into `s3:/`): what a
/// Spark driver hands its tasks, one object each.
#[pyfunction]
#[pyo3(signature = (paths, storage_options=None))]
pub(crate) fn expand(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    storage_options: Option<StorageOptions>,
) -> PyResult<Vec<String>> {
    let paths = inputs(py, paths, storage_options.as_ref())?;
    Ok(paths
        .into_iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect())
}

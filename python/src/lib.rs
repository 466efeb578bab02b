//! Python bindings for urlsift: `urlsift._urlsift`, wrapped by the
//! `urlsift` Python package (`python/urlsift/`), which turns pyarrow arrays
//! into buffers and back. Every result comes from the Rust library's own
//! parser and normalization profiles, so it equals the `urlsift` command's.

mod column;
mod kernel;
mod links;
mod read;
mod remote;
mod url;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::sync::Arc;

use urlsift::pattern::{PatternList, PatternOptions, UrlPattern};
use urlsift::profile::{Canonical, Profile};
use urlsift::site::List;

use crate::column::{Column, ColumnArg};
use crate::kernel::Output;
use crate::url::BaseArg;

/// Parses every row of a string column once and returns
/// `(columns, reasons, valid)`: one string column's buffers per name in
/// `outputs`, the reasons column and the validity column (see `kernel`).
///
/// Names are the URL getters (`href`, `protocol`, ..., `origin`),
/// `normalized` (the profile given by the flags), `surt` (the SURT key
/// under the same query flags) and the site fields (`site`,
/// `public_suffix`, `subdomain`, `domain`) by the compiled-in Public
/// Suffix List or the `public_suffix_list.dat` at `suffix_list`, without
/// its private rules when `icann_only`. The GIL is released while Rust
/// works.
#[pyfunction]
#[pyo3(signature = (column, outputs, base=None, strip_fragment=false, sort_query=false, strip_params=None, threads=None, suffix_list=None, icann_only=false, patterns=None))]
#[allow(clippy::too_many_arguments)]
fn columns<'py>(
    py: Python<'py>,
    column: ColumnArg,
    outputs: Vec<String>,
    base: Option<BaseArg>,
    strip_fragment: bool,
    sort_query: bool,
    strip_params: Option<Vec<String>>,
    threads: Option<usize>,
    suffix_list: Option<std::path::PathBuf>,
    icann_only: bool,
    patterns: Option<PatternsArg>,
) -> PyResult<Bound<'py, PyAny>> {
    let column = Column::new(column)?;
    let patterns = patterns
        .map(PatternsArg::compile)
        .transpose()?
        .map(Arc::new);
    let need_patterns = || {
        patterns
            .clone()
            .ok_or_else(|| PyValueError::new_err("match_index and match:NAME need patterns"))
    };
    let base = url::parse_base(base)?;
    let profile = Profile::new()
        .strip_fragment(strip_fragment)
        .sort_query(sort_query)
        .strip_params(strip_params.unwrap_or_default())
        .map_err(|e| PyValueError::new_err(format!("strip_params: {e}")))?;
    let list = match &suffix_list {
        None => List::builtin(),
        Some(path) => List::from_file(path).map_err(|e| PyValueError::new_err(e.to_string()))?,
    }
    .with_private(!icann_only);
    let outputs = outputs
        .iter()
        .map(|name| match name.as_str() {
            "normalized" => Ok(Output::Profile(profile.clone())),
            "surt" => Ok(Output::Profile(profile.clone().surt(true))),
            "safe-browsing" => Ok(Output::Profile(
                profile.clone().canonical(Some(Canonical::SafeBrowsing)),
            )),
            // A form of the raw text goes alone (the kernel reads no URL
            // for it), and takes no profile step.
            name if Canonical::from_name(name).is_some_and(Canonical::reads_text) => {
                if outputs.len() == 1 && profile == Profile::new() {
                    Ok(Output::Profile(
                        Profile::new().canonical(Canonical::from_name(name)),
                    ))
                } else {
                    Err(PyValueError::new_err(format!(
                        "the {name} form goes alone, without strip_fragment, sort_query or strip_params"
                    )))
                }
            }
            "pattern" => Ok(Output::Pattern),
            "match_index" => Ok(Output::MatchIndex(need_patterns()?)),
            name if name.starts_with("match:") => Ok(Output::MatchGroup(
                need_patterns()?,
                name["match:".len()..].to_string(),
            )),
            _ => Output::getter(name)
                .or_else(|| Output::site(name, &list))
                .ok_or_else(|| PyValueError::new_err(format!("unknown field {name:?}"))),
        })
        .collect::<PyResult<Vec<_>>>()?;
    let results = py
        .detach(|| kernel::run(&column, base.as_ref(), &outputs, threads))
        .map_err(|e| PyValueError::new_err(format!("threads: {e}")))?;
    let large = column.is_large();
    let list = PyList::empty(py);
    for c in results.columns {
        list.append(c.into_py(py, large)?)?;
    }
    (
        list,
        results.reasons.into_py(py, large)?,
        results.valid.into_py(py)?,
    )
        .into_pyobject(py)
        .map(Bound::into_any)
}

/// URL patterns as Python hands them over: `(patterns, base, ignore_case)`.
#[derive(FromPyObject)]
struct PatternsArg(Vec<String>, Option<String>, bool);

impl PatternsArg {
    /// The list, or a `ValueError` naming the pattern and why.
    fn compile(self) -> PyResult<PatternList> {
        let PatternsArg(patterns, base, ignore_case) = self;
        let options = PatternOptions { ignore_case };
        let compiled = patterns
            .iter()
            .map(|p| {
                UrlPattern::parse(p, base.as_deref(), options)
                    .map_err(|e| PyValueError::new_err(format!("URL pattern {p:?}: {e}")))
            })
            .collect::<PyResult<Vec<_>>>()?;
        PatternList::new(compiled).map_err(|e| PyValueError::new_err(e.to_string()))
    }
}

/// The group names of `patterns` (`(patterns, base, ignore_case)`), each
/// once, in pattern order; a `ValueError` for a pattern that does not
/// compile.
#[pyfunction]
fn pattern_group_names(patterns: PatternsArg) -> PyResult<Vec<String>> {
    let list = patterns.compile()?;
    Ok(list.group_names().into_iter().map(str::to_string).collect())
}

/// How many rayon pools `columns` has built in this process: one per
/// distinct `threads` value (for the tests of pool reuse).
#[pyfunction]
fn _pools_built() -> usize {
    kernel::pools_built()
}

#[pymodule]
fn _urlsift(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<url::PyUrl>()?;
    m.add_class::<read::Reader>()?;
    m.add_class::<links::LinksReader>()?;
    m.add("ParseError", m.py().get_type::<url::ParseError>())?;
    m.add_function(wrap_pyfunction!(url::parse, m)?)?;
    m.add_function(wrap_pyfunction!(url::can_parse, m)?)?;
    m.add_function(wrap_pyfunction!(columns, m)?)?;
    m.add_function(wrap_pyfunction!(remote::expand, m)?)?;
    m.add_function(wrap_pyfunction!(pattern_group_names, m)?)?;
    m.add_function(wrap_pyfunction!(_pools_built, m)?)?;
    Ok(())
}

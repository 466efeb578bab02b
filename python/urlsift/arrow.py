"""Vectorized URL functions over Apache Arrow string arrays.

Each function parses every row once in Rust (with the GIL released) and
never raises for a bad row: a row that is not a URL gives null, and with
``with_reasons=True`` the parser's reason in a second array. Null in, null
out. ``string`` arrays give ``string`` results (``large_string`` when the
output outgrows 2 GiB), ``large_string`` gives ``large_string``; chunked
arrays give chunked arrays, chunk by chunk. ``threads=n`` spreads one call
over a rayon pool of n threads (0: one per core), built on first use and
kept for the process; a call (or chunk) under 8,192 rows stays on the
calling thread, as does the default, which is what a Spark task wants.
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence, Union

import pyarrow as pa
import pyarrow.compute as pc

from . import _urlsift

#: The fields ``components`` can return: the URL API getters.
FIELDS = (
    "href",
    "protocol",
    "username",
    "password",
    "host",
    "hostname",
    "port",
    "pathname",
    "search",
    "hash",
    "origin",
)

#: The site fields ``components`` can also return, by the Public Suffix
#: List: ``site`` (the registrable domain, ``bbc.co.uk`` for
#: ``news.bbc.co.uk``), ``public_suffix`` (``co.uk``), ``subdomain``
#: (``news``; ``""`` when there is none) and ``domain`` (``bbc``). Each is
#: null when the host is not a domain (an IP address, an opaque or empty
#: host) or has no such part (a host that is itself a public suffix, like
#: ``github.io``, has no site). The list is the compiled-in one unless
#: ``suffix_list`` names a ``public_suffix_list.dat``; ``icann_only=True``
#: leaves out its private rules (``github.io``, ``blogspot.com``).
SITE_FIELDS = ("site", "public_suffix", "subdomain", "domain")

#: The key fields ``components`` can also return: ``pattern``, the key
#: ``urlsift dedup --key pattern`` groups URLs by (the host, the path with
#: numeric, hex and UUID segments as ``{n}``, ``{hex}``, ``{uuid}``, the
#: sorted parameter names: ``e.com/user/{n}?id&tab``; the whole href for a
#: URL without a host).
KEY_FIELDS = ("pattern",)

Base = Union[str, "_urlsift.URL", None]
Globs = Union[str, Iterable[str], None]
#: URL patterns: one constructor string (``"https://*.example.com/:id"``)
#: or several, tried in order.
Patterns = Union[str, Iterable[str]]


def _strings(array) -> Union[pa.Array, pa.ChunkedArray]:
    """A ``string`` or ``large_string`` (chunked) array from any array-like."""
    if not isinstance(array, (pa.Array, pa.ChunkedArray)):
        array = pa.array(array, type=pa.string())
    if pa.types.is_string(array.type) or pa.types.is_large_string(array.type):
        return array
    if pa.types.is_null(array.type) or pa.types.is_string_view(array.type):
        return array.cast(pa.large_string())
    raise TypeError(f"expected a string array, got {array.type}")


def _column_arg(array: pa.Array):
    """The array as `column.rs` takes it: its buffers as bytes, its slice.

    A slice of a larger array (a Polars chunk, ``table.slice``, a batch of
    a bigger one) is compacted first: its buffers span the whole parent,
    and copying them would cost the parent's size on every call.
    """
    if array.offset or array.get_total_buffer_size() > array.nbytes + 64:
        array = pa.concat_arrays([array])
    validity, offsets, data = array.buffers()
    if not array.null_count:
        validity = None
    return (
        offsets.to_pybytes() if offsets is not None else b"",
        data.to_pybytes() if data is not None else b"",
        validity.to_pybytes() if validity is not None else None,
        array.offset,
        len(array),
        pa.types.is_large_string(array.type),
    )


def _string_array(parts) -> pa.Array:
    validity, offsets, data, nulls, large = parts
    buffers = [
        pa.py_buffer(validity) if validity is not None else None,
        pa.py_buffer(offsets),
        pa.py_buffer(data),
    ]
    kind = pa.large_string() if large else pa.string()
    return pa.Array.from_buffers(kind, len(offsets) // (8 if large else 4) - 1, buffers, nulls)


def _bool_array(parts, length: int) -> pa.Array:
    validity, values, nulls = parts
    buffers = [pa.py_buffer(validity) if validity is not None else None, pa.py_buffer(values)]
    return pa.Array.from_buffers(pa.bool_(), length, buffers, nulls)


def _glob_list(strip_params: Globs) -> Optional[list]:
    """Globs as a list; a string is split at commas like the command's
    ``--strip-params``."""
    if strip_params is None:
        return None
    if isinstance(strip_params, str):
        return [g.strip() for g in strip_params.split(",")]
    return list(strip_params)


def run(
    array,
    outputs: Sequence[str],
    base: Base = None,
    *,
    strip_fragment: bool = False,
    sort_query: bool = False,
    strip_params: Globs = None,
    threads: Optional[int] = None,
    suffix_list: Optional[str] = None,
    icann_only: bool = False,
    patterns: Optional[tuple] = None,
):
    """Parses each row once and returns ``(columns, reasons, valid)``.

    ``columns`` holds one string array per name in ``outputs``: the
    getters in ``FIELDS``, the ``SITE_FIELDS`` (by ``suffix_list`` and
    ``icann_only``), ``"normalized"`` (the profile the flags give)
    and ``"surt"`` (the SURT key under the same query flags);
    ``"match_index"`` (the first of ``patterns`` that matches, as text)
    and ``"match:NAME"`` (that pattern's group), ``patterns`` being
    ``(list of constructor strings, base URL or None, ignore_case)``. ``reasons``
    is null except where a row failed to parse; ``valid`` is a boolean
    array (null for null rows). The other functions are views of this one.
    """
    array = _strings(array)
    if isinstance(array, pa.ChunkedArray):
        chunks = [
            run(
                chunk,
                outputs,
                base,
                strip_fragment=strip_fragment,
                sort_query=sort_query,
                strip_params=strip_params,
                threads=threads,
                suffix_list=suffix_list,
                icann_only=icann_only,
                patterns=patterns,
            )
            for chunk in array.chunks
        ]
        return (
            [_chunked([c[0][i] for c in chunks], array.type) for i in range(len(outputs))],
            _chunked([c[1] for c in chunks], array.type),
            _chunked([c[2] for c in chunks], pa.bool_()),
        )
    columns, reasons, valid = _urlsift.columns(
        _column_arg(array),
        list(outputs),
        base,
        strip_fragment,
        sort_query,
        _glob_list(strip_params),
        threads,
        None if suffix_list is None else str(suffix_list),
        icann_only,
        patterns,
    )
    return (
        [_string_array(c) for c in columns],
        _string_array(reasons),
        _bool_array(valid, len(array)),
    )


def _chunked(arrays, kind) -> pa.ChunkedArray:
    # Chunks may differ in offset width when one outgrew `string`.
    if any(a.type != arrays[0].type for a in arrays):
        arrays = [a.cast(pa.large_string()) for a in arrays]
    return pa.chunked_array(arrays, type=arrays[0].type if arrays else kind)


def _one(array, output, base, with_reasons, **options):
    """One output column, and the reasons when asked for."""
    (out,), reasons, _ = run(array, [output], base, **options)
    return (out, reasons) if with_reasons else out


#: The names ``normalize(canonical=...)`` takes (``urlsift normalize
#: --canonical``'s).
_CANONICAL_FORMS = (
    "safe-browsing",
    "w3lib",
    "urlcanon-whatwg",
    "urlcanon-google",
    "urlcanon-semantic-precise",
    "urlcanon-semantic",
    "urlcanon-aggressive",
    "courlan",
    "courlan-strict",
)


def normalize(
    array,
    base: Base = None,
    *,
    strip_fragment: bool = False,
    sort_query: bool = False,
    strip_params: Globs = None,
    threads: Optional[int] = None,
    with_reasons: bool = False,
    canonical: Optional[str] = None,
):
    """Each URL's href, in the normalization profile the flags name
    (``urlsift normalize --strip-fragment --sort-query --strip-params``);
    ``canonical="safe-browsing"`` gives Google Safe Browsing's canonical
    form instead (``urlsift normalize --canonical safe-browsing``), and
    ``canonical="w3lib"`` w3lib's ``canonicalize_url`` of each text, as
    Scrapy fingerprints requests (``urlsift normalize --canonical w3lib``:
    read from the raw text, so a text the URL Standard rejects has one;
    null where w3lib raises; no profile flag goes with it);
    ``canonical="urlcanon-whatwg"``, ``"urlcanon-google"``,
    ``"urlcanon-semantic-precise"``, ``"urlcanon-semantic"`` and
    ``"urlcanon-aggressive"`` the IIPC urlcanon's forms, and ``"courlan"``
    and ``"courlan-strict"`` courlan's ``normalize_url`` (trafilatura),
    read the same way.

    >>> import pyarrow as pa, urlsift
    >>> urlsift.normalize(pa.array(["http://www.GOOgle.com:8080/a/%2525#f"]), canonical="safe-browsing").to_pylist()
    ['http://www.google.com/a/%25']
    >>> urlsift.normalize(pa.array(["foo.com/a b?z=1&a=2", "http://e.com:x/"]), canonical="w3lib").to_pylist()
    ['foo.com/a%20b?a=2&z=1', None]
    """
    if canonical is not None and canonical not in _CANONICAL_FORMS:
        raise ValueError(f"canonical: {canonical!r} is not a form (known: {', '.join(_CANONICAL_FORMS)})")
    profile = dict(strip_fragment=strip_fragment, sort_query=sort_query, strip_params=strip_params)
    output = "normalized" if canonical is None else canonical
    return _one(array, output, base, with_reasons, threads=threads, **profile)


def pattern(array, base: Base = None, *, threads: Optional[int] = None):
    """Each URL's pattern, the key of ``urlsift dedup --key pattern``
    (see ``KEY_FIELDS``); null where the row is not a URL.

    >>> import pyarrow as pa
    >>> pattern(pa.array(["http://e.com/user/42/?tab=1&id=7"])).to_pylist()
    ['e.com/user/{n}/?id&tab']
    """
    (column,), _, _ = run(array, ["pattern"], base, threads=threads)
    return column


def surt(
    array,
    base: Base = None,
    *,
    sort_query: bool = False,
    strip_params: Globs = None,
    threads: Optional[int] = None,
    with_reasons: bool = False,
):
    """Each URL's SURT key (``urlsift normalize --surt``)."""
    profile = dict(sort_query=sort_query, strip_params=strip_params)
    return _one(array, "surt", base, with_reasons, threads=threads, **profile)


def components(
    array,
    fields: Sequence[str] = FIELDS,
    base: Base = None,
    *,
    threads: Optional[int] = None,
    with_reasons: bool = False,
    suffix_list: Optional[str] = None,
    icann_only: bool = False,
):
    """A struct array with one string field per name in ``fields`` (see
    ``FIELDS``, ``SITE_FIELDS`` and ``KEY_FIELDS``); the struct is null where the row is
    null or invalid."""
    fields = list(fields)
    if not fields:
        raise ValueError("components: no fields asked for")
    columns, reasons, valid = run(
        array, fields, base, threads=threads, suffix_list=suffix_list, icann_only=icann_only
    )
    if isinstance(valid, pa.ChunkedArray):
        out = pa.chunked_array(
            [
                _struct([c.chunk(i) for c in columns], fields, valid.chunk(i))
                for i in range(valid.num_chunks)
            ],
            type=pa.struct([pa.field(f, columns[0].type) for f in fields]),
        )
    else:
        out = _struct(columns, fields, valid)
    return (out, reasons) if with_reasons else out


def _struct(columns, fields, valid) -> pa.StructArray:
    # Null where the row is null (valid is null) or invalid (false).
    mask = pc.invert(pc.fill_null(valid, False))
    return pa.StructArray.from_arrays(columns, names=fields, mask=mask)


def is_valid(array, base: Base = None, *, threads: Optional[int] = None):
    """True where the row is a URL, false where not, null where null."""
    _, _, valid = run(array, [], base, threads=threads)
    return valid


def _patterns(patterns: Patterns, pattern_base: Optional[str], ignore_case: bool) -> tuple:
    """The ``patterns`` argument of ``run``: a ValueError names a pattern
    that does not compile."""
    items = [patterns] if isinstance(patterns, str) else list(patterns)
    if not items:
        raise ValueError("no URL pattern given")
    spec = (items, None if pattern_base is None else str(pattern_base), bool(ignore_case))
    _urlsift.pattern_group_names(spec)
    return spec


def url_match(
    array,
    patterns: Patterns,
    base: Base = None,
    *,
    pattern_base: Optional[str] = None,
    ignore_case: bool = False,
    threads: Optional[int] = None,
):
    """Whether each URL matches one of ``patterns`` (the URL Pattern
    standard's constructor strings, as ``urlsift normalize --match`` keeps
    them; relative ones against ``pattern_base``; ``ignore_case`` is
    URLPattern's ``ignoreCase``): null for a null row, false for a row that
    is not a URL.

    >>> import pyarrow as pa
    >>> urls = pa.array(["https://shop.example.com/products/42", "https://example.org/", None, "nope"])
    >>> url_match(urls, "https://*.example.com/products/:id").to_pylist()
    [True, False, None, False]
    """
    spec = _patterns(patterns, pattern_base, ignore_case)
    (index,), _, valid = run(array, ["match_index"], base, threads=threads, patterns=spec)
    return pc.if_else(valid, pc.is_valid(index), valid)


def url_match_groups(
    array,
    patterns: Patterns,
    base: Base = None,
    *,
    pattern_base: Optional[str] = None,
    ignore_case: bool = False,
    threads: Optional[int] = None,
):
    """The named groups of the first of ``patterns`` each URL matches, as a
    ``map<string, string>`` array (``extract --fields match:NAME``): one
    entry per group name of the patterns, in order of first appearance
    (``"0"`` first: a constructor string's username is ``*``), each the
    first non-empty value a component gives it, else null; the row is null
    where no pattern matches (or the row is null or not a URL).

    >>> import pyarrow as pa
    >>> urls = pa.array(["https://api.example.com/v2/users", "https://e.org/"])
    >>> url_match_groups(urls, "https://:sub.example.com/:version/*").to_pylist()
    [[('0', 'users'), ('sub', 'api'), ('version', 'v2')], None]
    """
    spec = _patterns(patterns, pattern_base, ignore_case)
    names = _urlsift.pattern_group_names(spec)
    outputs = ["match_index"] + [f"match:{n}" for n in names]
    columns, _, _ = run(array, outputs, base, threads=threads, patterns=spec)
    if isinstance(columns[0], pa.ChunkedArray):
        chunks = [
            _map(columns[0].chunk(i), [c.chunk(i) for c in columns[1:]], names)
            for i in range(columns[0].num_chunks)
        ]
        return pa.chunked_array(chunks, type=pa.map_(pa.string(), pa.string()))
    return _map(columns[0], columns[1:], names)


def _map(index: pa.Array, groups: list, names: list) -> pa.MapArray:
    """Rows of ``names`` -> the group columns' values, null where ``index``
    (the matching pattern) is; Arrow compute only (numpy is not a
    dependency)."""
    matched = pc.is_valid(index)
    rows = pc.indices_nonzero(matched).cast(pa.int64())
    n, m, k = len(index), len(rows), len(names)
    counts = pc.if_else(matched, pa.scalar(k, pa.int32()), pa.scalar(0, pa.int32()))
    offsets = pa.concat_arrays([pa.array([0], pa.int32()), pc.cumulative_sum(counts)]) if n else pa.array([0], pa.int32())
    if k and m:
        # The groups taken row by row: entry i is row i // k's group i % k.
        values = pa.concat_arrays([g.cast(pa.string()).take(rows) for g in groups])
        entry = pa.array(range(k * m), type=pa.int64())
        row = pc.divide(entry, k)
        group = pc.subtract(entry, pc.multiply(row, k))
        items = values.take(pc.add(pc.multiply(group, m), row))
        keys = pa.array(names, type=pa.string()).take(group)
    else:
        items = keys = pa.array([], type=pa.string())
    return pa.MapArray.from_arrays(offsets, keys, items, mask=pc.invert(matched))

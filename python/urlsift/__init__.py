"""urlsift: WHATWG URL parsing and normalization, from the Rust crate of the
same name.

One URL at a time::

    >>> import urlsift
    >>> url = urlsift.parse("../c?q#f", base="https://example.com/a/b")
    >>> url.href, url.pathname
    ('https://example.com/c?q#f', '/c')

Whole Arrow columns at a time (``urlsift.arrow``, re-exported here):
``normalize``, ``surt``, ``components``, ``is_valid``, ``url_match`` and
``url_match_groups`` (URL Pattern, as ``--match``). Whole files at a
time, in any format the command reads: ``read`` (``urlsift.read``, a
``pyarrow.RecordBatchReader``), and the links inside crawl files, HTML
files, sitemaps and feeds: ``links``; both take object URLs
(``s3://``, ``gs://``, ``az://``, ``http(s)://``) and listings (``expand``). Spark helpers live in ``urlsift.spark``,
DuckDB functions in ``urlsift.duckdb``, a Polars namespace in
``urlsift.polars``.
"""

from ._urlsift import URL, ParseError, can_parse, parse
from .arrow import (
    FIELDS,
    KEY_FIELDS,
    SITE_FIELDS,
    components,
    is_valid,
    normalize,
    pattern,
    surt,
    url_match,
    url_match_groups,
)
from .records import expand, links, read

__all__ = [
    "URL",
    "ParseError",
    "parse",
    "can_parse",
    "FIELDS",
    "SITE_FIELDS",
    "KEY_FIELDS",
    "normalize",
    "surt",
    "components",
    "pattern",
    "is_valid",
    "url_match",
    "url_match_groups",
    "read",
    "links",
    "expand",
]

"""urlsift: WHATWG URL parsing and normalization, from the Rust crate of the
same name.

One URL at a time::

    >>> import urlsift
    >>> url = urlsift.parse("../c?q#f", base="https://example.com/a/b")
    >>> url.href, url.pathname
    ('https://example.com/c?q#f', '/c')

Whole Arrow columns at a time (``urlsift.arrow``, re-exported here):
``normalize``, ``surt``, ``components``, ``is_valid``. Spark helpers live in
``urlsift.spark``.
"""

from ._urlsift import URL, ParseError, can_parse, parse
from .arrow import FIELDS, SITE_FIELDS, components, is_valid, normalize, surt

__all__ = [
    "URL",
    "ParseError",
    "parse",
    "can_parse",
    "FIELDS",
    "SITE_FIELDS",
    "normalize",
    "surt",
    "components",
    "is_valid",
]

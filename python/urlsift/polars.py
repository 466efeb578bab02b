"""A Polars expression namespace: ``import urlsift.polars`` registers
``urlsift`` on expressions, backed by the Arrow functions of
``urlsift.arrow`` (the same parser and profiles as the command):

- ``.urlsift.normalize(base=None, *, strip_fragment=False, sort_query=False,
  strip_params=None, canonical=None)``: the href in that profile, or in a
  canonical form (``"w3lib"``, ``"courlan"``, ``"urlcanon-semantic"``, ...);
- ``.urlsift.component(name, base=None)``: a getter (``hostname``,
  ``port``, ``pathname``, ...) or site field (``site``, ``public_suffix``,
  ``subdomain``, ``domain``);
- ``.urlsift.site()``, ``.urlsift.host()``: the registrable domain, the
  hostname;
- ``.urlsift.surt(base=None, *, sort_query=False, strip_params=None)``: the
  SURT key;
- ``.urlsift.is_valid(base=None)``: whether the row is a URL;
- ``.urlsift.matches(patterns, base=None, *, pattern_base=None,
  ignore_case=False)``: whether the URL matches one of the URL patterns
  (``--match``); ``.urlsift.match_groups(...)``: the groups of the first
  that matches, as a list of ``{key, value}`` structs.

A row that is not a URL gives null (``is_valid``: false); null gives null.
Each call hands Polars' column to Rust as Arrow, a batch at a time.

>>> import polars as pl
>>> import urlsift.polars
>>> df = pl.DataFrame({"url": ["HTTP://News.BBC.co.uk/a/../b", "nope"]})
>>> df.select(pl.col("url").urlsift.normalize(), pl.col("url").urlsift.site().alias("site")).rows()
[('http://news.bbc.co.uk/b', 'bbc.co.uk'), (None, None)]
>>> df.select(pl.col("url").urlsift.matches("http://*.bbc.co.uk/*")).to_series().to_list()
[True, False]
"""

from __future__ import annotations

from typing import Optional

import polars as pl
import pyarrow as pa

from . import arrow
from .arrow import Base, Globs, Patterns

__all__ = ["UrlNamespace"]


def _arrow(series: pl.Series) -> pa.Array:
    """The series as an Arrow string array (Polars' string views as
    ``large_string``, which urlsift reads without another cast)."""
    array = series.to_arrow()
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    if pa.types.is_string_view(array.type) or pa.types.is_null(array.type):
        array = array.cast(pa.large_string())
    return array


def _series(name: str, array: pa.Array) -> pl.Series:
    return pl.Series(name, array)


@pl.api.register_expr_namespace("urlsift")
class UrlNamespace:
    """The ``urlsift`` namespace of a Polars expression (see the module)."""

    def __init__(self, expr: pl.Expr):
        self._expr = expr

    def _strings(self, compute) -> pl.Expr:
        return self._expr.map_batches(
            lambda s: _series(s.name, compute(_arrow(s))), return_dtype=pl.String
        )

    def normalize(
        self,
        base: Base = None,
        *,
        strip_fragment: bool = False,
        sort_query: bool = False,
        strip_params: Globs = None,
        canonical: Optional[str] = None,
    ) -> pl.Expr:
        """Each URL's href in the profile the flags name, or in the
        canonical form ``canonical`` names (``urlsift.normalize``'s)."""
        options = dict(strip_fragment=strip_fragment, sort_query=sort_query, strip_params=strip_params)
        if canonical is not None:
            options["canonical"] = canonical
        return self._strings(lambda a: arrow.normalize(a, base, **options))

    def component(self, name: str, base: Base = None) -> pl.Expr:
        """One getter or site field of each URL."""
        known = arrow.FIELDS + arrow.SITE_FIELDS + arrow.KEY_FIELDS
        if name not in known:
            raise ValueError(f"component {name!r} (known: {', '.join(known)})")
        return self._strings(lambda a: arrow.run(a, [name], base)[0][0])

    def site(self, base: Base = None) -> pl.Expr:
        """Each URL's registrable domain (null where the host has none)."""
        return self.component("site", base)

    def pattern(self, base: Base = None) -> pl.Expr:
        """Each URL's pattern, the key of ``urlsift dedup --key pattern``."""
        return self.component("pattern", base)

    def host(self, base: Base = None) -> pl.Expr:
        """Each URL's hostname."""
        return self.component("hostname", base)

    def surt(self, base: Base = None, *, sort_query: bool = False, strip_params: Globs = None) -> pl.Expr:
        """Each URL's SURT key."""
        options = dict(sort_query=sort_query, strip_params=strip_params)
        return self._strings(lambda a: arrow.surt(a, base, **options))

    def is_valid(self, base: Base = None) -> pl.Expr:
        """Whether each row is a URL (null for null)."""
        return self._expr.map_batches(
            lambda s: _series(s.name, arrow.is_valid(_arrow(s), base)), return_dtype=pl.Boolean
        )

    def matches(
        self,
        patterns: Patterns,
        base: Base = None,
        *,
        pattern_base: Optional[str] = None,
        ignore_case: bool = False,
    ) -> pl.Expr:
        """Whether each URL matches one of the URL patterns (``--match``;
        null for null, false for a row that is not a URL)."""
        options = dict(pattern_base=pattern_base, ignore_case=ignore_case)
        return self._expr.map_batches(
            lambda s: _series(s.name, arrow.url_match(_arrow(s), patterns, base, **options)),
            return_dtype=pl.Boolean,
        )

    def match_groups(
        self,
        patterns: Patterns,
        base: Base = None,
        *,
        pattern_base: Optional[str] = None,
        ignore_case: bool = False,
    ) -> pl.Expr:
        """The groups of the first URL pattern each URL matches, as a list
        of ``{key, value}`` structs (``urlsift.url_match_groups``; null
        where none matches)."""
        options = dict(pattern_base=pattern_base, ignore_case=ignore_case)
        entry = pl.Struct({"key": pl.String, "value": pl.String})

        def groups(s: pl.Series) -> pl.Series:
            found = arrow.url_match_groups(_arrow(s), patterns, base, **options)
            return pl.Series(s.name, found).cast(pl.List(entry))

        return self._expr.map_batches(groups, return_dtype=pl.List(entry))

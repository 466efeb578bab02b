"""URL functions for DuckDB: vectorized (Arrow) scalar functions backed by
urlsift's parser, so SQL gets the same answers as the ``urlsift`` command.

``register(con)`` adds to a DuckDB connection:

==============================================  ==============================
``url_normalize(url)``                          the href (``urlsift normalize``), in
                                                the profile ``register`` was given
``url_normalize_with(url, base, profile)``      the same, per row: ``base`` a URL
                                                or NULL, ``profile`` the command's
                                                profile flags as one string:
                                                ``'strip-fragment,sort-query,'``
                                                ``'strip-params=utm_*|fbclid'``
                                                (or ``''``)
``url_valid(url)``                              whether the row is a URL
``url_component(url, name)``                    a getter (``hostname``, ``port``,
                                                ``pathname``, ...), site field or
                                                ``pattern``
``url_host(url)``                               the hostname
``url_site(url)``                               the registrable domain
``url_public_suffix(url)``                      the public suffix
``url_pattern(url)``                            the key of ``dedup --key pattern``
                                                (``e.com/user/{n}?id&tab``)
``url_surt(url)``                               the SURT key (``--surt``)
``url_canonical(url, form)``                    the URL in a canonical form
                                                (``--canonical``: ``'w3lib'``,
                                                ``'courlan'``, ``'urlcanon-semantic'``,
                                                ...), NULL where its tool refuses
``url_match(url, pattern)``                     whether the URL matches the URL
                                                pattern (``--match``)
``url_match_groups(url, pattern)``              the pattern's groups (MAP of
                                                VARCHAR to VARCHAR), NULL where
                                                it does not match
==============================================  ==============================

A row that is not a URL gives NULL (``url_valid``: false); NULL gives NULL.
``url_site`` and ``url_public_suffix`` are NULL where the host has none
(an IP address). DuckDB hands a function 2,048 rows at a time; each call
parses them in Rust with the GIL released.

>>> import duckdb, urlsift.duckdb
>>> con = duckdb.connect()
>>> urlsift.duckdb.register(con)
>>> con.sql("SELECT url_normalize('HTTP://Example.COM/a/../b'), url_site('https://news.bbc.co.uk/')").fetchall()
[('http://example.com/b', 'bbc.co.uk')]
>>> con.sql("SELECT url_match('https://e.com/docs/a', 'https://e.com/docs/*'), url_match_groups('https://e.com/p/7', 'https://e.com/p/:id')['id']").fetchall()
[(True, '7')]
"""

from __future__ import annotations

from typing import Optional

import pyarrow as pa

from . import arrow
from .arrow import Base, Globs

__all__ = ["register", "FUNCTIONS"]

#: The functions ``register`` adds, with their parameter types.
FUNCTIONS = {
    "url_normalize": ["VARCHAR"],
    "url_normalize_with": ["VARCHAR", "VARCHAR", "VARCHAR"],
    "url_valid": ["VARCHAR"],
    "url_component": ["VARCHAR", "VARCHAR"],
    "url_host": ["VARCHAR"],
    "url_site": ["VARCHAR"],
    "url_pattern": ["VARCHAR"],
    "url_public_suffix": ["VARCHAR"],
    "url_surt": ["VARCHAR"],
    "url_canonical": ["VARCHAR", "VARCHAR"],
    "url_match": ["VARCHAR", "VARCHAR"],
    "url_match_groups": ["VARCHAR", "VARCHAR"],
}


def _profile(text: Optional[str]) -> dict:
    """The profile flags of ``url_normalize_with``'s third argument."""
    options = {}
    for part in (text or "").split(","):
        part = part.strip()
        if not part:
            continue
        if part == "strip-fragment":
            options["strip_fragment"] = True
        elif part == "sort-query":
            options["sort_query"] = True
        elif part.startswith("strip-params="):
            options["strip_params"] = part.split("=", 1)[1].split("|")
        else:
            raise ValueError(
                f"url_normalize_with: profile flag {part!r} (known: strip-fragment, "
                "sort-query, strip-params=GLOB|GLOB)"
            )
    return options


def _grouped(values: pa.Array, keys: list, each, kind: pa.DataType = pa.string()) -> pa.Array:
    """``each(rows, *key)`` for the rows of each distinct key, put back in
    row order (a SQL argument is usually one value for all rows)."""
    distinct = list(dict.fromkeys(keys))
    if len(distinct) == 1:
        return each(values, *distinct[0])
    out = [None] * len(values)
    for key in distinct:
        at = [i for i, k in enumerate(keys) if k == key]
        part = each(values.take(pa.array(at)), *key).to_pylist()
        for i, v in zip(at, part):
            out[i] = v
    return pa.array(out, type=kind)


def register(
    con,
    *,
    base: Base = None,
    strip_fragment: bool = False,
    sort_query: bool = False,
    strip_params: Globs = None,
    threads: Optional[int] = None,
) -> None:
    """Adds the functions of ``FUNCTIONS`` to ``con`` (a DuckDB
    connection). ``url_normalize`` uses the profile given here (``base``,
    ``strip_fragment``, ``sort_query``, ``strip_params``, as in
    ``urlsift.normalize``); ``threads`` spreads one call over a rayon pool
    (default: the calling thread, as DuckDB runs calls on its own threads).
    """
    profile = dict(strip_fragment=strip_fragment, sort_query=sort_query, strip_params=strip_params)

    def normalize(urls):
        return arrow.normalize(urls, base, threads=threads, **profile)

    def normalize_with(urls, bases, profiles):
        def each(rows, row_base, row_profile):
            return arrow.normalize(rows, row_base, threads=threads, **_profile(row_profile))

        keys = list(zip(bases.to_pylist(), profiles.to_pylist()))
        return _grouped(urls, keys, each)

    def valid(urls):
        return arrow.is_valid(urls, base, threads=threads)

    def field(name):
        def one(urls):
            (column,), _, _ = arrow.run(urls, [name], base, threads=threads)
            return column

        return one

    def component(urls, names):
        known = arrow.FIELDS + arrow.SITE_FIELDS + arrow.KEY_FIELDS

        def each(rows, name):
            if name not in known:
                raise ValueError(f"url_component: {name!r} (known: {', '.join(known)})")
            return field(name)(rows)

        return _grouped(urls, [(n,) for n in names.to_pylist()], each)

    def surt(urls):
        options = dict(sort_query=sort_query, strip_params=strip_params)
        return arrow.surt(urls, base, threads=threads, **options)

    def canonical(urls, forms):
        def each(rows, form):
            if form is None:
                return pa.nulls(len(rows), pa.string())
            return arrow.normalize(rows, base, threads=threads, canonical=form)

        return _grouped(urls, [(f,) for f in forms.to_pylist()], each)

    def match(urls, patterns):
        def each(rows, pattern):
            if pattern is None:
                return pa.nulls(len(rows), pa.bool_())
            return arrow.url_match(rows, pattern, base, threads=threads)

        return _grouped(urls, [(p,) for p in patterns.to_pylist()], each, pa.bool_())

    def match_groups(urls, patterns):
        kind = pa.map_(pa.string(), pa.string())

        def each(rows, pattern):
            if pattern is None:
                return pa.nulls(len(rows), kind)
            return arrow.url_match_groups(rows, pattern, base, threads=threads)

        return _grouped(urls, [(p,) for p in patterns.to_pylist()], each, kind)

    functions = {
        "url_normalize": (normalize, "VARCHAR"),
        "url_normalize_with": (normalize_with, "VARCHAR"),
        "url_valid": (valid, "BOOLEAN"),
        "url_component": (component, "VARCHAR"),
        "url_host": (field("hostname"), "VARCHAR"),
        "url_site": (field("site"), "VARCHAR"),
        "url_pattern": (field("pattern"), "VARCHAR"),
        "url_public_suffix": (field("public_suffix"), "VARCHAR"),
        "url_surt": (surt, "VARCHAR"),
        "url_canonical": (canonical, "VARCHAR"),
        "url_match": (match, "BOOLEAN"),
        "url_match_groups": (match_groups, "MAP(VARCHAR, VARCHAR)"),
    }
    for name, (function, returns) in functions.items():
        con.create_function(
            name, function, FUNCTIONS[name], returns, type="arrow", null_handling="special"
        )

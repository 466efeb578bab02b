"""Reading records where they live: any input the ``urlsift`` command reads,
streamed as Arrow record batches.

``read`` runs the Rust library's record engine (the command's own) on its
own threads, without the GIL: lines, CSV/TSV, JSON lines, CDXJ, WARC
(WAT, WET), ARC, access logs and Parquet, plain or gzip/zstd, with the command's rules for
bad and damaged input. Each valid record becomes a row, in input order;
its columns are ``extract``'s fields.
"""

from __future__ import annotations

import logging
import os
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Union

import pyarrow as pa

from . import _urlsift
from .arrow import Base, Globs, _glob_list

log = logging.getLogger("urlsift")

Source = Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]]


def _paths(source: Source) -> list:
    if isinstance(source, (str, os.PathLike)):
        return [os.fspath(source)]
    paths = [os.fspath(s) for s in source]
    if not paths:
        raise ValueError("read: no input given")
    return paths


def _stream(reader, bad: str, on_summary) -> pa.RecordBatchReader:
    """The batches a Rust reader sends (Arrow IPC streams, the GIL released
    while it works) as a ``RecordBatchReader``; at the end its summary goes
    to the ``urlsift`` logger (a warning where its ``bad`` counts or errors
    say something went wrong) and to ``on_summary``, and read errors
    raise ``OSError``."""
    schema = pa.ipc.open_stream(pa.py_buffer(reader.schema())).schema

    def batches():
        try:
            while True:
                data = reader.next_batch()
                if data is None:
                    break
                for batch in pa.ipc.open_stream(pa.py_buffer(data)):
                    yield batch
        finally:
            reader.close()
        summary = reader.summary()
        noted = summary[bad] or summary["errors"]
        log.log(logging.WARNING if noted else logging.INFO, "urlsift: %s", summary["text"])
        if on_summary is not None:
            on_summary(summary)
        if summary["errors"]:
            raise OSError("; ".join(f"cannot read {e}" for e in summary["errors"]))

    return pa.RecordBatchReader.from_batches(schema, batches())


def read(
    source: Source,
    *,
    format: Optional[str] = None,
    field: Optional[str] = None,
    fields: Sequence[str] = ("href",),
    base: Base = None,
    strip_fragment: bool = False,
    sort_query: bool = False,
    strip_params: Globs = None,
    with_reasons: bool = False,
    provenance: bool = False,
    batch_rows: int = 65536,
    threads: Optional[int] = None,
    delimiter: Optional[str] = None,
    no_header: bool = False,
    storage_options: Optional[Dict[str, str]] = None,
    on_summary: Optional[Callable[[dict], None]] = None,
) -> pa.RecordBatchReader:
    """The URLs of ``source`` (a path, or a list of paths read in order) as a
    ``pyarrow.RecordBatchReader``, one row per valid record, in input order.
    A path may be an object's URL, as for the command: ``s3://BUCKET/KEY``,
    ``gs://BUCKET/KEY``, ``az://CONTAINER/KEY``, ``http(s)://HOST/PATH``; an
    ``s3://``, ``gs://`` or ``az://`` prefix ending in ``/``, or with ``*`` or ``?`` in its last
    segment, stands for the objects it lists, in key order (see
    ``expand``). ``storage_options`` are settings of those stores by the
    ``object_store`` crate's keys, over the environment's, as Polars takes
    them (``{"aws_endpoint": ..., "aws_region": ..., "aws_skip_signature":
    "true"}``).

    ``format`` is the command's ``--input-format`` (``lines``, ``csv``,
    ``tsv``, ``jsonl``, ``cdxj``, ``warc``, ``arc``, ``log``, ``parquet``; by default
    from the file name, as the command picks it); ``field`` is ``--field``
    (a CSV column, a JSON key or dotted path, a WARC header, ``referer`` in
    a log, a Parquet column or dotted path; by default ``url``, the
    ``WARC-Target-URI``, the request target); ``delimiter`` and
    ``no_header`` are the CSV/TSV flags.

    ``fields`` are ``extract``'s fields, one column each: the URL getters
    (``href``, ``protocol``, ``username``, ``password``, ``host``,
    ``hostname``, ``port``, ``pathname``, ``search``, ``hash``,
    ``origin``), the site fields (``site``, ``public_suffix``,
    ``subdomain``, ``domain``), ``line``, ``input`` (the URL field as
    read) and ``@NAME``, a field of the record, as a column named
    ``NAME``. ``port`` and ``line`` are integers, a Parquet input's
    ``@NAME`` keeps its type, the rest are strings; null where the record
    has none. With ``base`` relative URLs resolve against it; with the
    profile flags (``strip_fragment``, ``sort_query``, ``strip_params``:
    globs, or one comma-separated string) each URL is taken in its
    normalized form first, as ``urlsift normalize`` writes it.

    ``with_reasons=True`` also yields the bad records (their URL fields
    null, ``input`` and ``@NAME`` still read) with a ``reason`` column
    (null for valid rows); ``provenance=True`` adds ``line`` (the record's
    line, a Parquet row's number) and ``offset`` (its byte offset in the
    decompressed input; 0 for Parquet rows). Batches hold about
    ``batch_rows`` rows; ``threads`` is the engine's worker count (default:
    one per core).

    When the reader is exhausted, ``on_summary`` (if given) gets the counts
    the command's summary gives: ``records``, ``valid``, ``empty``,
    ``filtered``, ``bad`` (by reason), ``errors`` and ``text``, the summary
    line itself; the same goes to the ``urlsift`` logger (at INFO, or
    WARNING when records were bad or an input ended early). An input that
    ends early (a cut ``.gz``, a damaged Parquet row group) raises
    ``OSError`` after the rows read before the damage; a wrong flag for an
    input (a missing column) raises ``ValueError`` as the reading starts.

    >>> import urlsift, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "crawl.csv")
    >>> _ = open(path, "w").write("id,url\\n1,HTTP://Example.COM/a\\n2,nope\\n")
    >>> table = urlsift.read(path, fields=["hostname", "@id"]).read_all()
    >>> table.to_pylist()
    [{'hostname': 'example.com', 'id': '1'}]
    """
    reader = _urlsift.Reader(
        _paths(source),
        format=format,
        field=field,
        fields=list(fields),
        base=base,
        strip_fragment=strip_fragment,
        sort_query=sort_query,
        strip_params=_glob_list(strip_params),
        with_reasons=with_reasons,
        provenance=provenance,
        batch_rows=batch_rows,
        threads=threads,
        delimiter=delimiter,
        no_header=no_header,
        storage_options=storage_options,
    )
    return _stream(reader, "bad", on_summary)


def links(
    source: Source,
    *,
    fields: Sequence[str] = ("from", "to"),
    kinds: Optional[Union[str, Sequence[str]]] = None,
    base: Base = None,
    javascript: bool = False,
    batch_rows: int = 65536,
    storage_options: Optional[Dict[str, str]] = None,
    on_summary: Optional[Callable[[dict], None]] = None,
) -> pa.RecordBatchReader:
    """The links inside ``source`` (a path, or a list of paths read in
    order; object URLs, listings and ``storage_options`` as for ``read``)
    as a ``pyarrow.RecordBatchReader``, one row per link, as
    ``urlsift links`` finds them: the pages of WARC ``response`` and
    ``resource`` records (their HTTP responses de-chunked and decoded),
    Common Crawl's WAT metadata, ARC records, HTML files (``.html``,
    ``.htm``; their URL is ``base``), sitemaps and feeds (``.xml``,
    ``.rss``, ``.atom``), plain or gzip/zstd. Each link is resolved against
    its page's base URL.

    ``fields`` are the command's ``--fields``: ``from`` (the page's URL),
    ``to`` (the link, resolved), ``tag``, ``attribute``, ``rel`` (null
    where the element has none), ``kind`` and ``offset`` (the page
    record's byte offset in the decompressed input, an integer); the rest
    are strings. ``kinds`` is ``--kinds`` (a list, or a comma-separated
    string, or ``"all"``; by default all but ``css``). ``javascript:``
    links are left out (counted) unless ``javascript=True``.

    The reading runs on a thread of its own, without the GIL. When the
    reader is exhausted, ``on_summary`` (if given) gets the counts:
    ``pages``, ``links``, ``not_html``, ``other_records``,
    ``bad_records`` and ``bad_links`` (by reason), ``notices`` (pages read
    as stored), ``errors`` and ``text``; the same goes to the ``urlsift``
    logger. An input that cannot be read to its end (a cut ``.warc.gz``)
    raises ``OSError`` after the links read before it.

    >>> import urlsift, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "page.html")
    >>> _ = open(path, "w").write('<base href="/docs/"><a href="a.html">A</a><img src=i.png>')
    >>> table = urlsift.links(path, fields=["to", "tag"], base="https://example.com/x").read_all()
    >>> table.to_pylist()
    [{'to': 'https://example.com/docs/a.html', 'tag': 'a'}, {'to': 'https://example.com/docs/i.png', 'tag': 'img'}]
    """
    if kinds is not None and not isinstance(kinds, str):
        kinds = ",".join(kinds)
    reader = _urlsift.LinksReader(
        _paths(source),
        fields=list(fields),
        kinds=kinds,
        base=base,
        javascript=javascript,
        batch_rows=batch_rows,
        storage_options=storage_options,
    )
    return _stream(reader, "bad_records", on_summary)


def expand(source: Source, *, storage_options: Optional[Dict[str, str]] = None) -> List[str]:
    """The inputs ``source`` (a path or URL, or a list of them) stands for,
    in order, as ``read`` and ``links`` take them: an ``s3://``, ``gs://`` or ``az://``
    URL ending in ``/`` as every object under that prefix, one with ``*``
    or ``?`` in its last segment as the objects of that folder whose names
    match, each in key order (an empty listing raises
    ``FileNotFoundError``); anything else as itself. What a Spark driver
    hands out, one task per object (``urlsift.spark`` does).

    >>> import urlsift
    >>> urlsift.expand(["logs/a.txt", "https://example.com/b.txt"])
    ['logs/a.txt', 'https://example.com/b.txt']
    """
    return [os.fspath(p) for p in _urlsift.expand(_paths(source), storage_options=storage_options)]

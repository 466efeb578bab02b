"""Apache Spark helpers: add URL columns to a DataFrame, dedup by URL, and
read record files (WARC, CDXJ, CSV, ...) inside the executors.

``with_url_columns`` runs urlsift over Arrow record batches with
``DataFrame.mapInArrow``: no Python object per row, the GIL released while
Rust parses. ``with_url_columns_pandas`` does the same work as a pandas UDF,
for Spark versions or platforms where ``mapInArrow`` is not an option; it
pays for pandas' Python strings. Both add the same columns with the same
values::

    from urlsift.spark import with_url_columns
    out = with_url_columns(df, "url", fields=["hostname"], strip_fragment=True)
    # + url_normalized, url_surt, url_hostname, url_error

``read_records`` reads files where they live (a Common Crawl job without
warcio): each file is one task, read by ``urlsift.read`` on its executor::

    from urlsift.spark import read_records
    df = read_records(spark, warc_paths, fields=["href", "site", "@WARC-Date"])

``read_links`` does the same for the links inside WARC, WAT and ARC files
(one row per link, ``urlsift.links``' columns)::

    from urlsift.spark import read_links
    graph = read_links(spark, wat_paths, fields=["from", "to"])

The executors need the ``urlsift`` package installed (it is one wheel, no
JVM side). A URL that does not parse gives nulls and its reason in
``<prefix>error``; nothing raises, so one bad row never kills a job.
"""

import os
from typing import Iterator, List, Optional, Sequence

import pyarrow as pa

from . import arrow
from .records import read

__all__ = [
    "UrlColumns",
    "with_url_columns",
    "with_url_columns_pandas",
    "dedup_by_normalized",
    "read_records",
    "read_links",
]


class UrlColumns:
    """The string columns the helpers add for the URL column ``column``:
    ``<prefix>normalized`` (the href in the profile ``strip_fragment``,
    ``sort_query``, ``strip_params`` give, as ``urlsift normalize``),
    ``<prefix>surt`` (its SURT key), one ``<prefix><field>`` per getter or
    site field in ``fields`` (see ``urlsift.FIELDS`` and
    ``urlsift.SITE_FIELDS``; sites by the compiled-in list) and ``<prefix>error`` (the reason a
    row is not a URL, else null); ``prefix`` defaults to ``column + "_"``.
    ``base`` resolves relative rows. With ``patterns`` (URL Pattern
    constructor strings, tried in order; ``pattern_base`` for relative
    ones, ``pattern_ignore_case``), ``<prefix>match_index`` is the index of
    the first that matches (null where none does: filter on it as
    ``--match`` would) and ``<prefix>match_<NAME>`` that pattern's group
    NAME for each of ``match_groups``. ``canonical`` (a form of
    ``urlsift.normalize(canonical=...)``: ``"w3lib"``, ``"courlan"``,
    ``"urlcanon-semantic"``, ...) adds ``<prefix>canonical``, null where
    the form's tool refuses the text. The helpers take these as keywords.

    Built on the driver and pickled to the executors, where ``batches``
    (for ``mapInArrow``) or ``frame`` (for a pandas UDF) does the work.
    """

    def __init__(
        self,
        column: str,
        *,
        prefix: Optional[str] = None,
        normalize: bool = True,
        surt: bool = True,
        fields: Sequence[str] = (),
        error: bool = True,
        base: Optional[str] = None,
        strip_fragment: bool = False,
        sort_query: bool = False,
        strip_params=None,
        patterns=None,
        pattern_base: Optional[str] = None,
        pattern_ignore_case: bool = False,
        match_groups: Sequence[str] = (),
        canonical: Optional[str] = None,
    ):
        known = arrow.FIELDS + arrow.SITE_FIELDS + arrow.KEY_FIELDS
        unknown = [f for f in fields if f not in known]
        if unknown:
            raise ValueError(f"unknown fields {unknown} (known: {', '.join(known)})")
        if match_groups and patterns is None:
            raise ValueError("match_groups names groups of patterns: give patterns too")
        self.column = column
        self.patterns = None if patterns is None else arrow._patterns(patterns, pattern_base, pattern_ignore_case)
        matching = ([] if patterns is None else ["match_index"]) + [f"match:{g}" for g in match_groups]
        if canonical is not None and canonical not in arrow._CANONICAL_FORMS:
            raise ValueError(f"canonical: {canonical!r} is not a form (known: {', '.join(arrow._CANONICAL_FORMS)})")
        self.canonical = canonical
        self.outputs = (["normalized"] if normalize else []) + (["surt"] if surt else []) + list(fields) + matching
        self.error = error
        prefix = f"{column}_" if prefix is None else prefix
        #: The added columns' names, in order.
        canonical_name = [] if canonical is None else [prefix + "canonical"]
        self.names = (
            [prefix + o.replace(":", "_") for o in self.outputs] + canonical_name + ([prefix + "error"] if error else [])
        )
        self.base = base
        self.profile = dict(
            strip_fragment=strip_fragment,
            sort_query=sort_query,
            strip_params=arrow._glob_list(strip_params),
        )

    def check(self, df) -> "UrlColumns":
        """Fails early, on the driver, for a missing column or a name clash."""
        if self.column not in df.columns:
            raise ValueError(f"no column {self.column!r} in {df.columns}")
        clash = [n for n in self.names if n in df.columns]
        if clash:
            raise ValueError(f"columns {clash} exist already; pass another prefix")
        return self

    def arrays(self, urls) -> List[pa.Array]:
        columns, reasons, _ = arrow.run(urls, self.outputs, self.base, patterns=self.patterns, **self.profile)
        if self.canonical is not None:
            # A form of the raw text goes alone through the kernel.
            columns.append(arrow.normalize(urls, self.base, canonical=self.canonical))
        return columns + ([reasons] if self.error else [])

    def batches(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        """The ``mapInArrow`` function: each batch plus the added columns."""
        for batch in batches:
            added = self.arrays(batch.column(self.column))
            yield pa.RecordBatch.from_arrays(batch.columns + added, names=batch.schema.names + self.names)

    def frame(self, urls):
        """The pandas UDF's body: a DataFrame of the added columns."""
        table = pa.Table.from_arrays(self.arrays(pa.Array.from_pandas(urls, type=pa.string())), names=self.names)
        return table.to_pandas()


def with_url_columns(df, column: str, **options):
    """``df`` plus the ``UrlColumns(column, **options)`` columns, computed
    with ``mapInArrow``."""
    from pyspark.sql.types import StringType, StructField, StructType

    job = UrlColumns(column, **options).check(df)
    schema = StructType(df.schema.fields + [StructField(n, StringType(), True) for n in job.names])
    return df.mapInArrow(job.batches, schema)


def with_url_columns_pandas(df, column: str, **options):
    """What ``with_url_columns`` gives, computed by a pandas UDF that
    returns a struct, then flattened."""
    import pandas as pd
    from pyspark.sql import functions as F
    from pyspark.sql.functions import pandas_udf
    from pyspark.sql.types import StringType, StructField, StructType

    job = UrlColumns(column, **options).check(df)
    struct = StructType([StructField(n, StringType(), True) for n in job.names])

    def frame(urls: pd.Series) -> pd.DataFrame:
        return job.frame(urls)

    udf = pandas_udf(frame, returnType=struct)
    tmp = "__urlsift_" + "_".join(job.names)
    return df.withColumn(tmp, udf(F.col(column))).select("*", *(F.col(f"{tmp}.{n}").alias(n) for n in job.names)).drop(tmp)


def dedup_by_normalized(df, column: str, **options):
    """The rows of ``df`` whose ``column`` is a URL, one per normalized URL
    (``dropDuplicates`` on ``<prefix>normalized``; which of the equal rows
    stays is Spark's choice). ``options``: those of ``UrlColumns`` that
    shape the normalized URL (``base``, ``strip_fragment``, ``sort_query``,
    ``strip_params``) and ``prefix``."""
    from pyspark.sql import functions as F

    options = dict(options, surt=False, fields=(), error=False)
    key = UrlColumns(column, **options).names[0]
    out = with_url_columns(df, column, **options)
    return out.where(F.col(key).isNotNull()).dropDuplicates([key])


def _spark_types(schema: pa.Schema) -> pa.Schema:
    """``schema`` with the unsigned integers Spark lacks widened to the
    signed ones that hold them (``port``: int, ``line``/``offset``: long)."""
    wider = {pa.uint8(): pa.int16(), pa.uint16(): pa.int32(), pa.uint32(): pa.int64(), pa.uint64(): pa.int64()}
    return pa.schema([f.with_type(wider.get(f.type, f.type)) for f in schema])


def _per_file(spark, paths, reader, settings: dict, name: str):
    """A DataFrame of what ``reader(path, **settings)`` (``read`` or
    ``links``) gives for each of ``paths``, one task per file or object,
    inside the executors (listings expanded here, on the driver); the
    columns from the first file (its header, or a Parquet footer),
    unsigned integers widened for Spark."""
    from pyspark.sql.pandas.types import from_arrow_schema

    from .records import expand

    paths = [os.fspath(paths)] if isinstance(paths, (str, os.PathLike)) else [os.fspath(p) for p in paths]
    if not paths:
        raise ValueError(f"{name}: no paths")
    paths = expand(paths, storage_options=settings.get("storage_options"))
    schema = _spark_types(reader(paths[0], **settings).schema)
    rows = spark.sparkContext.parallelize([(p,) for p in paths], len(paths))
    files = spark.createDataFrame(rows, "path string")

    def batches(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            for path in batch.column("path").to_pylist():
                for found in reader(path, **settings):
                    yield found.cast(schema)

    return files.mapInArrow(batches, from_arrow_schema(schema))


def read_records(spark, paths, *, format: Optional[str] = None, field: Optional[str] = None, fields: Sequence[str] = ("href",), **options):
    """A DataFrame of the records of ``paths`` (a path or a list of paths,
    which the executors can open, or objects they can reach: ``s3://``,
    ``gs://``, ``az://``, ``http(s)://`` URLs; an ``s3://``, ``gs://`` or ``az://`` prefix or
    glob is listed on the driver, one task per object), read inside the
    executors: one task per file, each read by ``urlsift.read`` with one
    thread (Spark runs a task per core). ``format``, ``field``,
    ``fields`` and ``options`` are ``urlsift.read``'s (``with_reasons``,
    ``provenance``, ``base``, the profile flags, ``storage_options``,
    ...). Rows are the valid records (and the bad ones with
    ``with_reasons=True``); the columns are ``read``'s, unsigned integers
    widened for Spark. A file that cannot be read to its end fails its
    task, as Spark's own readers do.

    Files are not split: a task reads one whole file (gzip and WARC files
    cannot be split anyway; a big plain file is one task).
    """
    settings = dict(format=format, field=field, fields=list(fields), threads=1, **options)
    return _per_file(spark, paths, read, settings, "read_records")


def read_links(spark, paths, *, fields: Sequence[str] = ("from", "to"), kinds=None, **options):
    """A DataFrame of the links inside ``paths`` (WARC, WAT or ARC files,
    HTML files, sitemaps or feeds the executors can open or reach, object
    URLs and listings as for ``read_records``), read inside the
    executors: one task per file, each read by ``urlsift.links``.
    ``fields``, ``kinds`` and ``options`` (``base``, ``javascript``,
    ``storage_options``) are
    ``urlsift.links``'s; ``offset`` is a long. A file that cannot be read
    to its end fails its task.

    The host-level web graph of a crawl (the job Common Crawl's cc-pyspark
    runs over WAT files) is then a few lines::

        from pyspark.sql import functions as F
        from urlsift.spark import read_links, with_url_columns
        links = read_links(spark, wat_paths, fields=["from", "to"])
        hosts = with_url_columns(with_url_columns(links, "from", fields=["hostname"], normalize=False, surt=False, error=False),
                                 "to", fields=["hostname"], normalize=False, surt=False, error=False)
        graph = hosts.groupBy("from_hostname", "to_hostname").count()
    """
    from .records import links

    settings = dict(fields=list(fields), kinds=kinds, **options)
    return _per_file(spark, paths, links, settings, "read_links")

"""Apache Spark helpers: add URL columns to a DataFrame, dedup by URL.

``with_url_columns`` runs urlsift over Arrow record batches with
``DataFrame.mapInArrow``: no Python object per row, the GIL released while
Rust parses. ``with_url_columns_pandas`` does the same work as a pandas UDF,
for Spark versions or platforms where ``mapInArrow`` is not an option; it
pays for pandas' Python strings. Both add the same columns with the same
values::

    from urlsift.spark import with_url_columns
    out = with_url_columns(df, "url", fields=["hostname"], strip_fragment=True)
    # + url_normalized, url_surt, url_hostname, url_error

The executors need the ``urlsift`` package installed (it is one wheel, no
JVM side). A URL that does not parse gives nulls and its reason in
``<prefix>error``; nothing raises, so one bad row never kills a job.
"""

from typing import Iterator, List, Optional, Sequence

import pyarrow as pa

from . import arrow

__all__ = ["with_url_columns", "with_url_columns_pandas", "dedup_by_normalized", "url_column_names"]


def _outputs(normalize: bool, surt: bool, fields: Sequence[str]) -> List[str]:
    outputs = (["normalized"] if normalize else []) + (["surt"] if surt else []) + list(fields)
    unknown = [f for f in fields if f not in arrow.FIELDS]
    if unknown:
        raise ValueError(f"unknown fields {unknown} (known: {', '.join(arrow.FIELDS)})")
    return outputs


def url_column_names(
    column: str,
    *,
    prefix: Optional[str] = None,
    normalize: bool = True,
    surt: bool = True,
    fields: Sequence[str] = (),
    error: bool = True,
) -> List[str]:
    """The names of the columns the helpers add, in order."""
    prefix = f"{column}_" if prefix is None else prefix
    names = [prefix + o for o in _outputs(normalize, surt, fields)]
    return names + ([prefix + "error"] if error else [])


class _Job:
    """The picklable work one executor does; options fixed on the driver."""

    def __init__(self, column, names, outputs, error, base, strip_fragment, sort_query, strip_params):
        self.column = column
        self.names = names
        self.outputs = outputs
        self.error = error
        self.base = base
        self.options = dict(
            strip_fragment=strip_fragment,
            sort_query=sort_query,
            strip_params=arrow._glob_list(strip_params),
        )

    def arrays(self, urls) -> List[pa.Array]:
        columns, reasons, _ = arrow.run(urls, self.outputs, self.base, **self.options)
        return columns + ([reasons] if self.error else [])

    def batches(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            added = self.arrays(batch.column(self.column))
            yield pa.RecordBatch.from_arrays(batch.columns + added, names=batch.schema.names + self.names)

    def frame(self, urls):
        """A pandas DataFrame of the added columns (the pandas UDF's body)."""
        table = pa.Table.from_arrays(self.arrays(pa.Array.from_pandas(urls, type=pa.string())), names=self.names)
        return table.to_pandas()


def _job(df, column, prefix, normalize, surt, fields, error, base, strip_fragment, sort_query, strip_params):
    if column not in df.columns:
        raise ValueError(f"no column {column!r} in {df.columns}")
    names = url_column_names(column, prefix=prefix, normalize=normalize, surt=surt, fields=fields, error=error)
    clash = [n for n in names if n in df.columns]
    if clash:
        raise ValueError(f"columns {clash} exist already; pass another prefix")
    outputs = _outputs(normalize, surt, fields)
    return _Job(column, names, outputs, error, base, strip_fragment, sort_query, strip_params)


def with_url_columns(
    df,
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
):
    """``df`` plus string columns computed from the URL column ``column``
    with ``mapInArrow``: ``<prefix>normalized`` (the href in the profile the
    flags give, as ``urlsift normalize``), ``<prefix>surt`` (its SURT key),
    one ``<prefix><field>`` per getter in ``fields`` and ``<prefix>error``
    (the reason a row is not a URL, else null). ``prefix`` defaults to
    ``column + "_"``."""
    from pyspark.sql.types import StringType, StructField, StructType

    job = _job(df, column, prefix, normalize, surt, fields, error, base, strip_fragment, sort_query, strip_params)
    schema = StructType(df.schema.fields + [StructField(n, StringType(), True) for n in job.names])
    return df.mapInArrow(job.batches, schema)


def with_url_columns_pandas(
    df,
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
):
    """What ``with_url_columns`` gives, computed by a pandas UDF that
    returns a struct, then flattened."""
    import pandas as pd
    from pyspark.sql import functions as F
    from pyspark.sql.functions import pandas_udf
    from pyspark.sql.types import StringType, StructField, StructType

    job = _job(df, column, prefix, normalize, surt, fields, error, base, strip_fragment, sort_query, strip_params)
    struct = StructType([StructField(n, StringType(), True) for n in job.names])

    def frame(urls: pd.Series) -> pd.DataFrame:
        return job.frame(urls)

    udf = pandas_udf(frame, returnType=struct)
    tmp = "__urlsift_" + "_".join(job.names)
    return df.withColumn(tmp, udf(F.col(column))).select("*", *(F.col(f"{tmp}.{n}").alias(n) for n in job.names)).drop(tmp)


def dedup_by_normalized(df, column: str, **profile):
    """The rows of ``df`` whose ``column`` is a URL, one per normalized URL
    (``dropDuplicates`` on ``<column>_normalized``; which of the equal rows
    stays is Spark's choice). ``profile``: ``base``, ``strip_fragment``,
    ``sort_query``, ``strip_params``, ``prefix``."""
    from pyspark.sql import functions as F

    out = with_url_columns(df, column, surt=False, error=False, **profile)
    key = url_column_names(column, prefix=profile.get("prefix"), surt=False, error=False)[0]
    return out.where(F.col(key).isNotNull()).dropDuplicates([key])

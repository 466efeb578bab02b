"""Rows per second for normalizing one corpus: the Arrow function alone,
then one Spark job (local[2], the same session and cached DataFrame) run
four ways: with our mapInArrow helper, with the pandas UDF variant, with a
plain Python UDF on `urllib.parse` (the baseline users have today), and
with no URL work at all (the job's own floor). Each job writes to Spark's
`noop` sink so every row is computed and nothing is stored.

The work is checked before it is timed: the helper and the pandas UDF must
agree with the Arrow function on every row's normalized URL.

Usage: python bench_spark.py [CORPUS] [--rounds N]   (best of N, default 3)
"""

import argparse
import os
import pathlib
import sys
import time
from urllib.parse import urlsplit, urlunsplit

import pandas as pd
import pyarrow as pa

import urlsift
from urlsift.spark import with_url_columns, with_url_columns_pandas

PROFILE = {"strip_fragment": True, "sort_query": True, "strip_params": "utm_*,fbclid,gclid"}
REPO = pathlib.Path(__file__).resolve().parents[2]


def urllib_normalize(url):
    """What a data engineer writes today: urllib, lowercase scheme and
    host, drop the fragment, sort the query, drop tracking parameters."""
    if url is None:
        return None
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if not parts.scheme:
        return None
    pairs = [p for p in parts.query.split("&") if p and not p.split("=", 1)[0].lower().startswith("utm_")]
    pairs = sorted((p for p in pairs if p.split("=", 1)[0].lower() not in ("fbclid", "gclid")), key=lambda p: p.split("=", 1)[0])
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path or "/", "&".join(pairs), ""))


def best(rounds, work):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    corpora = pathlib.Path(os.environ.get("URLSIFT_CORPORA_DIR", REPO.parent / "shared" / "corpora"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default=corpora / "openphish_feed_history.txt", type=pathlib.Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    lines = args.corpus.read_text().split("\n")
    if lines[-1] == "":
        lines.pop()
    n = len(lines)
    rows = pa.array(lines)

    results = []  # (name, seconds)
    results.append(("Arrow function alone", best(args.rounds, lambda: urlsift.normalize(rows, **PROFILE))))
    results.append(
        ("Arrow function alone, threads=2", best(args.rounds, lambda: urlsift.normalize(rows, threads=2, **PROFILE)))
    )

    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F
    from pyspark.sql.types import StringType

    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("urlsift-bench")
        .config("spark.driver.memory", "4g")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    df = spark.createDataFrame(pd.DataFrame({"url": lines})).repartition(2).cache()
    assert df.count() == n

    ours = with_url_columns(df, "url", surt=False, error=False, **PROFILE)
    ours_all = with_url_columns(df, "url", fields=urlsift.FIELDS, **PROFILE)
    pandas_udf = with_url_columns_pandas(df, "url", surt=False, error=False, **PROFILE)
    urllib_udf = df.withColumn("url_normalized", F.udf(urllib_normalize, StringType())("url"))

    want = sorted(v for v in urlsift.normalize(rows, **PROFILE).to_pylist() if v is not None)
    for job in (ours, pandas_udf):
        got = sorted(r[0] for r in job.where("url_normalized is not null").select("url_normalized").collect())
        assert got == want, "the Spark job disagrees with the Arrow function"

    def run(job):
        return lambda: job.write.format("noop").mode("overwrite").save()

    jobs = [
        ("Spark: no URL work (floor)", df),
        ("Spark: mapInArrow helper", ours),
        ("Spark: mapInArrow helper, all columns", ours_all),
        ("Spark: pandas UDF helper", pandas_udf),
        ("Spark: Python UDF, urllib.parse", urllib_udf),
    ]
    for name, job in jobs:
        results.append((name, best(args.rounds, run(job))))
    spark.stop()

    t = dict(results)
    print(f"\n{args.corpus.name}: {n} rows, best of {args.rounds}, profile {PROFILE}\n")
    print("| run | seconds | rows/s |")
    print("|---|---:|---:|")
    for name, seconds in results:
        print(f"| {name} | {seconds:.3f} | {n / seconds:,.0f} |")
    urllib = t["Spark: Python UDF, urllib.parse"]
    print()
    print(f"mapInArrow helper vs urllib UDF: {urllib / t['Spark: mapInArrow helper']:.1f}x faster")
    print(f"pandas UDF helper vs urllib UDF: {urllib / t['Spark: pandas UDF helper']:.1f}x faster")
    print(f"Arrow alone vs mapInArrow job:   {t['Spark: mapInArrow helper'] / t['Arrow function alone']:.1f}x faster")


if __name__ == "__main__":
    main()

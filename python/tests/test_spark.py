"""End to end on a local Spark (`local[2]`): the mapInArrow helper and the
pandas UDF variant over whole corpus files, every row equal to the `urlsift`
command's result, and the dedup job's count equal to `urlsift dedup`'s."""

import pandas as pd
import pytest

import urlsift
from conftest import read_lines, run_cli
from reference import cli_rows, profile_flags
from urlsift.spark import UrlColumns, dedup_by_normalized, with_url_columns, with_url_columns_pandas

CLEAN = {"strip_fragment": True, "sort_query": True, "strip_params": "utm_*,fbclid,gclid"}
# The largest corpus (364K lines, all valid) under a cleaning profile, and
# one with invalid lines (255 of 24.5K) as it is.
CASES = [("openphish_feed_history.txt", CLEAN), ("iscx_url2016_malicious.txt", {})]
HELPERS = {"mapInArrow": with_url_columns, "pandas_udf": with_url_columns_pandas}


def corpus_frame(spark, path):
    lines = read_lines(path)
    frame = pd.DataFrame({"line": range(1, len(lines) + 1), "url": lines})
    # Several partitions, so both workers run and batches are cut.
    return lines, spark.createDataFrame(frame).repartition(4)


@pytest.mark.parametrize("helper", HELPERS)
@pytest.mark.parametrize("corpus,profile", CASES, ids=[c for c, _ in CASES])
def test_helper_equals_the_command_on_every_row(spark, cli, corpora_dir, corpus, profile, helper):
    lines, df = corpus_frame(spark, corpora_dir / corpus)
    want = cli_rows(cli, corpora_dir / corpus, len(lines), fields=urlsift.FIELDS, **profile)
    out = HELPERS[helper](df, "url", fields=urlsift.FIELDS, **profile)
    names = UrlColumns("url", fields=urlsift.FIELDS).names
    assert out.columns == ["line", "url", *names]
    got = out.toPandas().sort_values("line")
    assert list(got["line"]) == list(range(1, len(lines) + 1))
    assert list(got["url"]) == lines
    for name in names:
        key = name[len("url_") :]
        column = [None if pd.isna(v) else v for v in got[name]]
        expected = [row[key] for row in want]
        mismatches = [(i + 1, g, w) for i, (g, w) in enumerate(zip(column, expected)) if g != w]
        assert not mismatches, (name, len(mismatches), mismatches[:3])
    assert any(row["normalized"] for row in want)


@pytest.mark.parametrize("corpus,profile", CASES, ids=[c for c, _ in CASES])
def test_dedup_job_counts_what_the_command_keeps(spark, cli, corpora_dir, corpus, profile):
    path = corpora_dir / corpus
    _, df = corpus_frame(spark, path)
    kept = run_cli(cli, "dedup", "-q", *profile_flags(**profile), path).decode().split("\n")[:-1]
    deduped = dedup_by_normalized(df, "url", **profile)
    assert deduped.count() == len(kept)
    # The same set of keys, not only as many.
    keys = deduped.select("url_normalized").toPandas()["url_normalized"]
    assert sorted(keys) == sorted(kept)
    assert len(kept) < len(read_lines(path)), "a corpus without duplicates proves little"


def test_bad_column_names_fail_early(spark):
    df = spark.createDataFrame(pd.DataFrame({"url": ["https://e.com/"], "url_surt": ["x"]}))
    with pytest.raises(ValueError, match="no column"):
        with_url_columns(df, "nope")
    with pytest.raises(ValueError, match="exist already"):
        with_url_columns(df, "url")
    with pytest.raises(ValueError, match="unknown fields"):
        with_url_columns(df, "url", prefix="u_", fields=["hostnme"])
    assert with_url_columns(df, "url", prefix="u_", fields=["hostname"]).first()["u_hostname"] == "e.com"

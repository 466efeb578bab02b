"""End to end on a local Spark (`local[2]`): the mapInArrow helper and the
pandas UDF variant over whole corpus files, every row equal to the `urlsift`
command's result, and the dedup job's count equal to `urlsift dedup`'s."""

import pandas as pd
import pyarrow as pa
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


def test_read_records_reads_each_file_in_a_task(spark, corpora_dir, tmp_path):
    """Files read inside the executors, one task each, give the rows
    `urlsift.read` gives on the driver, file after file."""
    import pyarrow as pa

    from conftest import REPO
    from urlsift.spark import read_records

    lines = read_lines(corpora_dir / "iscx_url2016_malicious.txt")
    paths = []
    for i in range(3):
        path = tmp_path / f"part-{i}.csv"
        part = lines[i * 5000 : (i + 1) * 5000]
        path.write_text("n,url\n" + "".join(f'{j},"{u.replace(chr(34), chr(34) * 2)}"\n' for j, u in enumerate(part)))
        paths.append(str(path))
    fields = ["href", "site", "port", "@n"]
    df = read_records(spark, paths, fields=fields, provenance=True)
    assert df.rdd.getNumPartitions() == 3
    assert [f.name for f in df.schema.fields] == ["href", "site", "port", "n", "line", "offset"]
    got = df.toPandas()
    want = pa.concat_tables([urlsift.read(p, fields=fields, provenance=True).read_all() for p in paths]).to_pandas()
    assert len(got) == len(want) > 14000
    for column in ["href", "site", "n", "line", "offset"]:
        assert list(got[column]) == list(want[column]), column
    assert [None if pd.isna(v) else int(v) for v in got["port"]] == [None if pd.isna(v) else int(v) for v in want["port"]]
    # A WARC file read in an executor, its headers as columns.
    warc = read_records(spark, str(REPO / "corpora" / "examples" / "capture.warc.gz"), fields=["href", "@WARC-Date"])
    assert warc.collect()[0]["WARC-Date"] == "2024-01-01T00:00:01Z"


def test_match_columns_equal_the_command(spark, cli, corpora_dir, tmp_path):
    """`patterns` and `match_groups` add the index of the first URL pattern
    each row matches and its groups, as `extract --match-file` tells them."""
    from test_url_pattern import PATTERNS, command

    corpus = corpora_dir / "linklist_free_programming_books.txt"
    lines, df = corpus_frame(spark, corpus)
    want = command(cli, tmp_path, corpus)
    assert len(want) > 100
    out = with_url_columns(df, "url", normalize=False, surt=False, patterns=PATTERNS, match_groups=["owner", "repo"])
    assert out.columns == ["line", "url", "url_match_index", "url_match_owner", "url_match_repo", "url_error"]
    got = out.toPandas().sort_values("line")
    for line, index, owner, repo in zip(got["line"], got["url_match_index"], got["url_match_owner"], got["url_match_repo"]):
        if line in want:
            expected_index, groups = want[line]
            assert int(index) == expected_index, line
            assert (owner, repo) == (groups.get("owner"), groups.get("repo")), line
        else:
            assert index is None, line
    with pytest.raises(ValueError, match="give patterns too"):
        UrlColumns("url", match_groups=["owner"])


def test_canonical_column_equals_urlsift_normalize(spark, corpora_dir):
    """`canonical=FORM` adds `<prefix>canonical`: `urlsift.normalize(canonical=FORM)`
    of each row (held to the command in test_canonical.py)."""
    corpus = corpora_dir / "iscx_url2016_malicious.txt"
    lines, df = corpus_frame(spark, corpus)
    out = with_url_columns(df, "url", normalize=False, surt=False, canonical="courlan")
    assert out.columns == ["line", "url", "url_canonical", "url_error"]
    got = out.toPandas().sort_values("line")
    want = urlsift.normalize(pa.array(lines), canonical="courlan").to_pylist()
    assert [None if pd.isna(v) else v for v in got["url_canonical"]] == want
    with pytest.raises(ValueError, match="is not a form"):
        UrlColumns("url", canonical="nope")

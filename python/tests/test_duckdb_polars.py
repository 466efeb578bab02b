"""DuckDB's functions and the Polars namespace give the command's answers,
row for row, on a whole corpus: normalized URLs (with and without a
profile, with a base), SURT keys, every getter and site field, validity;
NULL (null) where a row is not a URL."""

import duckdb
import polars as pl
import pyarrow as pa
import pytest

import urlsift
import urlsift.duckdb
import urlsift.polars  # noqa: F401 (registers the namespace)
from conftest import read_lines
from reference import cli_rows

CORPUS = "iscx_url2016_malicious.txt"
CLEAN = {"strip_fragment": True, "sort_query": True, "strip_params": "utm_*,fbclid,gclid"}
FIELDS = (*urlsift.FIELDS, *urlsift.SITE_FIELDS)


@pytest.fixture(scope="module")
def corpus(cli, corpora_dir):
    path = corpora_dir / CORPUS
    lines = read_lines(path)
    plain = cli_rows(cli, path, len(lines), fields=FIELDS)
    clean = cli_rows(cli, path, len(lines), **CLEAN)
    based = cli_rows(cli, path, len(lines), base="https://example.com/dir/")
    assert any(r["error"] for r in plain) and any(r["normalized"] for r in plain)
    return lines, plain, clean, based


def test_duckdb_functions_equal_the_command(corpus):
    lines, plain, clean, based = corpus
    con = duckdb.connect()
    urlsift.duckdb.register(con)
    con.register("urls", pa.table({"n": list(range(len(lines))), "url": lines}))
    query = ", ".join(
        [
            "url_normalize(url)",
            "url_normalize_with(url, NULL, 'strip-fragment,sort-query,strip-params=utm_*|fbclid|gclid')",
            "url_normalize_with(url, 'https://example.com/dir/', '')",
            "url_valid(url)",
            "url_surt(url)",
            "url_host(url)",
            "url_site(url)",
            "url_public_suffix(url)",
            *(f"url_component(url, '{f}')" for f in FIELDS),
        ]
    )
    got = con.sql(f"SELECT {query} FROM urls ORDER BY n").fetchall()
    assert len(got) == len(lines)
    for row, p, c, b in zip(got, plain, clean, based):
        normalized, cleaned, resolved, valid, surt, host, site, suffix, *parts = row
        assert (normalized, cleaned, resolved) == (p["normalized"], c["normalized"], b["normalized"])
        assert valid == (p["error"] is None)
        assert (surt, host, site, suffix) == (p["surt"], p["hostname"], p["site"], p["public_suffix"])
        assert parts == [p[f] for f in FIELDS]
    # Functions of a wrong argument say so.
    with pytest.raises(Exception, match="url_component"):
        con.sql("SELECT url_component('https://a.example/', 'nope')").fetchall()
    with pytest.raises(Exception, match="profile flag"):
        con.sql("SELECT url_normalize_with('https://a.example/', NULL, 'shout')").fetchall()


def test_polars_namespace_equals_the_command(corpus):
    lines, plain, clean, based = corpus
    df = pl.DataFrame({"url": lines})
    u = pl.col("url").urlsift
    out = df.select(
        u.normalize().alias("normalized"),
        u.normalize(strip_fragment=True, sort_query=True, strip_params="utm_*,fbclid,gclid").alias("clean"),
        u.normalize("https://example.com/dir/").alias("based"),
        u.surt().alias("surt"),
        u.is_valid().alias("valid"),
        u.site().alias("site_"),
        u.host().alias("host_"),
        *(u.component(f).alias(f) for f in FIELDS),
    ).rows(named=True)
    for row, p, c, b in zip(out, plain, clean, based):
        assert (row["normalized"], row["clean"], row["based"]) == (p["normalized"], c["normalized"], b["normalized"])
        assert (row["surt"], row["site_"], row["host_"]) == (p["surt"], p["site"], p["hostname"])
        assert row["valid"] == (p["error"] is None)
        assert [row[f] for f in FIELDS] == [p[f] for f in FIELDS]
    # Nulls stay null; a lazy frame and chunked input give the same.
    lazy = pl.DataFrame({"url": [None, "HTTPS://A.example"]}).lazy()
    assert lazy.select(u.normalize(), u.is_valid().alias("v")).collect().rows() == [(None, None), ("https://a.example/", True)]
    with pytest.raises(ValueError, match="component"):
        u.component("nope")

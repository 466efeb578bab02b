"""No silent outcomes in the Python package: an unknown record field is a
``ValueError`` before any row, ``pattern`` gives the key of ``urlsift dedup
--key pattern`` everywhere the URL fields are offered, ``urlsift.links``
gives where each link came from, and the ``spark`` extra installs a pandas
PySpark supports."""

import json
import subprocess
import tomllib

import duckdb
import polars as pl
import pyarrow as pa
import pytest
from packaging.requirements import Requirement

import urlsift
import urlsift.duckdb
import urlsift.polars  # noqa: F401 (registers the namespace)
from conftest import REPO, read_lines

EXAMPLES = REPO / "corpora" / "examples"


@pytest.mark.parametrize(
    "name,listed",
    [
        ("crawl.csv", 'no column "nosuch" (columns: "id", "url", "title")'),
        ("crawl.parquet", "nosuch"),
        ("access.log", 'no log field "nosuch"'),
    ],
)
def test_an_unknown_record_field_is_a_value_error(name, listed):
    with pytest.raises(ValueError, match=listed.replace("(", r"\(").replace(")", r"\)")):
        urlsift.read(EXAMPLES / name, fields=["href", "@nosuch"]).read_all()
    # A known one reads.
    known = {"crawl.csv": "@title", "crawl.parquet": "@title", "access.log": "@status"}[name]
    known = urlsift.read(EXAMPLES / name, fields=["href", known], base="https://e.example/")
    assert known.read_all().num_rows > 0


def test_pattern_is_the_commands_key_in_arrow_duckdb_and_polars(cli, corpora_dir):
    lines = read_lines(corpora_dir / "iscx_url2016_malicious.txt")[:5000]
    done = subprocess.run(
        [str(cli), "extract", "-q", "--keep-invalid", "--append", "--input-format", "jsonl", "--fields", "pattern", "-"],
        input="".join(json.dumps({"url": l}) + "\n" for l in lines).encode(),
        capture_output=True,
        check=True,
    )
    rows = [json.loads(l) for l in done.stdout.decode().splitlines()]
    want = [r.get("url_pattern") for r in rows]
    assert len(want) == len(lines) and any(w and "{n}" in w for w in want)
    assert urlsift.pattern(pa.array(lines)).to_pylist() == want
    con = duckdb.connect()
    urlsift.duckdb.register(con)
    con.register("urls", pa.table({"n": list(range(len(lines))), "url": lines}))
    got = con.sql("SELECT url_pattern(url), url_component(url, 'pattern') FROM urls ORDER BY n").fetchall()
    assert [a for a, _ in got] == want and [b for _, b in got] == want
    polars = pl.DataFrame({"url": lines}).select(pl.col("url").urlsift.pattern()).to_series().to_list()
    assert polars == want
    table = urlsift.read(EXAMPLES / "shop.txt", fields=["href", "pattern"]).read_all()
    assert table.column("pattern").to_pylist() == urlsift.pattern(table.column("href")).to_pylist()


def test_links_give_from_and_to_by_default():
    table = urlsift.links(EXAMPLES / "pages.warc.gz").read_all()
    assert table.column_names == ["from", "to"]
    assert table.num_rows > 0


def test_the_spark_extra_pins_a_pandas_pyspark_supports():
    project = tomllib.loads((REPO / "python" / "pyproject.toml").read_text())
    pandas = [Requirement(r) for r in project["project"]["optional-dependencies"]["spark"]]
    (pandas,) = [r for r in pandas if r.name == "pandas"]
    assert pandas.specifier.contains("2.3.3") and not pandas.specifier.contains("3.1.0")

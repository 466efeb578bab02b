"""URL Pattern in Python, DuckDB, Polars and Spark against the command:
`urlsift extract --match-file P --fields line,match_line,match:NAME` on
whole corpus files gives, for every line that matches, the pattern's line
and groups; `urlsift.url_match`, `urlsift.url_match_groups`, DuckDB's
`url_match`/`url_match_groups`, Polars' `.urlsift.matches`/`match_groups`
and Spark's `match_index` columns must say the same of every line. The
patterns themselves are held to web-platform-tests and to the `urlpattern`
crate in the Rust tests."""

import csv
import io

import duckdb
import polars as pl
import pyarrow as pa
import pytest

import urlsift
import urlsift.duckdb
import urlsift.polars

from conftest import read_lines, run_cli

PATTERNS = [
    "https://developer.mozilla.org/docs/:area/:api/*",
    "https://:org.github.io/:spec/*",
    "http{s}?://{*.}?github.com/:owner/:repo/*",
    "https://*.wikipedia.org/wiki/:title",
    "*://*/wp-admin/*",
    "*://*/*.php",
    "https://:sub.google.com/*",
    "http://*/:lang(en|fr|de|ja)/*",
    "*://*/*\\?*utm_source=*",
]
GROUPS = ["area", "api", "org", "spec", "lang", "owner", "repo", "title", "sub", "0"]
CORPORA = ["mdn_bcd_doc_spec_urls.txt", "linklist_free_programming_books.txt", "iscx_url2016_malicious.txt"]


def command(cli, tmp_path, corpus):
    """{line: (pattern index, {group: value})} for the lines the command keeps."""
    patterns = tmp_path / "patterns.txt"
    patterns.write_text("\n".join(PATTERNS) + "\n")
    fields = "line,match_line," + ",".join(f"match:{g}" for g in GROUPS)
    out = run_cli(cli, "extract", "-q", "--match-file", patterns, "--fields", fields, corpus)
    rows = list(csv.reader(io.StringIO(out.decode())))
    assert rows[0] == fields.split(",")
    found = {}
    for row in rows[1:]:
        groups = {g: v for g, v in zip(GROUPS, row[2:]) if v}
        found[int(row[0])] = (int(row[1]) - 1, groups)
    return found


@pytest.mark.parametrize("corpus", CORPORA)
def test_python_duckdb_polars_equal_the_command(cli, corpora_dir, tmp_path, corpus):
    lines = read_lines(corpora_dir / corpus)
    want = command(cli, tmp_path, corpora_dir / corpus)
    assert len(want) > 20, f"only {len(want)} lines of {corpus} match: a weak check"
    array = pa.array(lines)
    matched = urlsift.url_match(array, PATTERNS).to_pylist()
    groups = urlsift.url_match_groups(array, PATTERNS).to_pylist()
    valid = urlsift.is_valid(array).to_pylist()
    for number, (line, hit, found, ok) in enumerate(zip(lines, matched, groups, valid), start=1):
        assert hit == (number in want), (number, line)
        assert hit is (False if not ok else hit)
        if number in want:
            _, expected = want[number]
            got = {k: v for k, v in found if v is not None and k in GROUPS}
            assert got == expected, (number, line, got, expected)
        else:
            assert found is None, (number, line, found)
    # The first pattern that matches, one at a time, is the command's.
    for number, (index, _) in list(want.items())[:300]:
        assert urlsift.url_match(pa.array([lines[number - 1]]), PATTERNS[index]).to_pylist() == [True]
        earlier = PATTERNS[:index]
        if earlier:
            assert urlsift.url_match(pa.array([lines[number - 1]]), earlier).to_pylist() == [False]
    con = duckdb.connect()
    urlsift.duckdb.register(con)
    con.register("urls", pa.table({"url": array}))
    rows = con.sql(f"SELECT url_match(url, '{PATTERNS[1]}'), url_match_groups(url, '{PATTERNS[1]}') FROM urls").fetchall()
    alone = urlsift.url_match(array, PATTERNS[1]).to_pylist()
    alone_groups = urlsift.url_match_groups(array, PATTERNS[1]).to_pylist()
    assert [r[0] for r in rows] == alone
    assert [None if r[1] is None else sorted(r[1].items()) for r in rows] == [
        None if g is None else sorted(g) for g in alone_groups
    ]
    frame = pl.DataFrame({"url": lines})
    polars = frame.select(pl.col("url").urlsift.matches(PATTERNS)).to_series().to_list()
    assert polars == matched


def test_bad_patterns_and_nulls():
    with pytest.raises(ValueError, match="a relative pattern needs a base URL"):
        urlsift.url_match(pa.array(["https://e.com/"]), "/docs/*")
    with pytest.raises(ValueError, match="no URL pattern"):
        urlsift.url_match(pa.array(["https://e.com/"]), [])
    relative = urlsift.url_match(pa.array(["https://e.com/docs/a", None]), "/docs/*", pattern_base="https://e.com")
    assert relative.to_pylist() == [True, None]
    ignore = urlsift.url_match(pa.array(["https://e.com/DOCS/a"]), "https://e.com/docs/*", ignore_case=True)
    assert ignore.to_pylist() == [True]
    con = duckdb.connect()
    urlsift.duckdb.register(con)
    assert con.sql("SELECT url_match('https://e.com/', NULL), url_match(NULL, 'https://*')").fetchall() == [(None, None)]

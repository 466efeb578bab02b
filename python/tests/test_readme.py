"""The README's Python block runs as pasted, from the repository root (where
its files ship), and says what it shows: the normalized URL of its comment,
a DuckDB table of sites, a Polars frame of normalized URLs."""

import os
import pathlib
import re

from conftest import REPO


def python_blocks(text: str) -> list:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_the_readme_python_block_runs_as_pasted():
    blocks = python_blocks((REPO / "README.md").read_text())
    assert blocks, "the README has a Python block"
    here = os.getcwd()
    os.chdir(REPO)
    try:
        for block in blocks:
            scope: dict = {}
            exec(compile(block, "README.md", "exec"), scope)
    finally:
        os.chdir(here)
    # What the block's lines hold, checked after it ran as written.
    import pyarrow as pa
    import urlsift

    got = urlsift.normalize(pa.array(["HTTP://Example.COM/a/../b?utm_source=x"]), strip_params=["utm_*"])
    assert got.to_pylist() == ["http://example.com/b"]
    assert '# ["http://example.com/b"]' in blocks[0]
    sites = scope["con"].sql(
        f"SELECT url_site(url) AS site, count(*) FROM '{REPO / 'corpora/examples/crawl.parquet'}' GROUP BY site"
    ).fetchall()
    assert sites and all(n > 0 for _, n in sites)
    assert pathlib.Path(REPO / "corpora/examples/capture.warc.gz").is_file()

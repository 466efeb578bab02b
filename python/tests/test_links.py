"""`urlsift.links` and `urlsift.spark.read_links` against the `urlsift
links` command on real crawl files of the shared samples (WARC, WAT, ARC,
a sitemap): the same rows in the same order, and the same counts.
"""

import json
import os
import pathlib
import subprocess

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import urlsift
from conftest import REPO
from urlsift.spark import read_links

SAMPLES = pathlib.Path(os.environ.get("URLSIFT_CRAWL_SAMPLES_DIR", REPO.parent / "shared" / "crawl-samples"))
FILES = [
    "pywb/iana.warc.gz",
    "warcio/example-iana.org-chunked.warc",
    "warcio/example.arc.gz",
    "whirlwind/whirlwind.warc.wat.gz",
    "crawler-commons/",  # the first sitemap there (see below)
]
FIELDS = ["from", "to", "tag", "attribute", "rel", "kind", "offset"]


def sample(name):
    path = SAMPLES / name
    if name.endswith("/"):
        assert path.is_dir(), f"{path} missing (set URLSIFT_CRAWL_SAMPLES_DIR)"
        path = sorted(p for p in path.rglob("*.xml") if b"<urlset" in p.read_bytes()[:2048])[0]
    assert path.is_file(), f"{path} missing (set URLSIFT_CRAWL_SAMPLES_DIR)"
    return path


def command(cli, path, *flags):
    done = subprocess.run([str(cli), "links", "--jsonl", "--fields", ",".join(FIELDS), *flags, str(path)],
                          capture_output=True)
    assert done.returncode in (0, 1), done.stderr.decode()
    return [json.loads(line) for line in done.stdout.decode().splitlines()], done.stderr.decode()


@pytest.mark.parametrize("name", FILES)
def test_links_equal_the_commands(cli, name):
    path = sample(name)
    flags = ["--base", "https://example.com/"] if path.suffix == ".xml" else []
    want, said = command(cli, path, *flags)
    summaries = []
    base = "https://example.com/" if flags else None
    table = urlsift.links(path, fields=FIELDS, base=base, on_summary=summaries.append).read_all()
    assert table.schema.field("offset").type == pa.uint64()
    assert table.to_pylist() == want
    # (The WAT sample's one metadata record is of a page without links.)
    assert len(want) > 0 or name.endswith(".wat.gz"), name
    (summary,) = summaries
    assert summary["links"] == len(want)
    # The command's summary says as many pages and links.
    assert f"{summary['pages']} page" in said and f"{summary['links']} link" in said, (summary, said)


def test_kinds_fields_and_several_inputs(cli):
    paths = [sample("pywb/iana.warc.gz"), sample("warcio/example.arc")]
    want = []
    for p in paths:
        rows, _ = command(cli, p, "--kinds", "img,script")
        want += [{"to": r["to"], "kind": r["kind"]} for r in rows]
    got = urlsift.links(paths, fields=["to", "kind"], kinds=["img", "script"]).read_all().to_pylist()
    assert got == want
    assert {r["kind"] for r in got} == {"img", "script"}
    with pytest.raises(ValueError, match="field"):
        urlsift.links(paths, fields=["nope"])
    with pytest.raises(FileNotFoundError):
        urlsift.links("/no/such.warc.gz")


def test_a_cut_file_raises_after_its_links(tmp_path):
    whole = sample("pywb/iana.warc.gz").read_bytes()
    cut = tmp_path / "cut.warc.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    rows = []
    with pytest.raises(OSError, match="cannot read"):
        for batch in urlsift.links(cut, batch_rows=100):
            rows += batch.to_pylist()
    assert rows, "the links before the cut"


def test_spark_read_links_equals_the_command(spark, cli):
    paths = [sample("pywb/iana.warc.gz"), sample("warcio/example.arc.gz")]
    want = []
    for p in paths:
        rows, _ = command(cli, p)
        want += [(r["from"], r["to"]) for r in rows]
    df = read_links(spark, [str(p) for p in paths])
    assert df.columns == ["from", "to"]
    got = [(r["from"], r["to"]) for r in df.collect()]
    assert sorted(got) == sorted(want)
    # The host-level graph of docs/python-and-spark.md.
    from urlsift.spark import with_url_columns

    only = dict(normalize=False, surt=False, error=False, fields=["hostname"])
    hosts = with_url_columns(with_url_columns(df, "from", **only), "to", **only)
    graph = {(r["from_hostname"], r["to_hostname"]): r["count"]
             for r in hosts.groupBy("from_hostname", "to_hostname").count().collect()}
    expected = {}
    for f, t in want:
        key = (urlsift.URL(f).hostname, urlsift.URL(t).hostname)
        expected[key] = expected.get(key, 0) + 1
    assert graph == expected


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("memory", ["1G", "1K"])
def test_dedup_keeps_the_first_row_of_each_link_in_memory_and_spilled(cli, name, memory, tmp_path):
    """`--dedup href` is the first row of each link of the plain run, kept in
    Python; past `--memory` (1K: from the first link on) the seen-set and
    the rows still to decide go to disk and come back the same, in text and
    in Parquet."""
    path = sample(name)
    flags = ["--base", "https://example.com/"] if path.suffix == ".xml" else []
    every, _ = command(cli, path, *flags)
    firsts, seen = [], set()
    for row in every:
        if row["to"] not in seen:
            seen.add(row["to"])
            firsts.append(row)
    dedup = ["--dedup", "href", "--memory", memory, "--tmp-dir", str(tmp_path)]
    rows, said = command(cli, path, *flags, *dedup)
    assert rows == firsts
    assert f"{len(firsts)} link" in said and (f"{len(every) - len(firsts)} duplicate" in said or len(every) == len(firsts)), said
    out = tmp_path / "links.parquet"
    done = subprocess.run([str(cli), "links", "-q", "--fields", ",".join(FIELDS), *flags, *dedup, "-o", str(out), str(path)],
                          capture_output=True)
    assert done.returncode in (0, 1), done.stderr.decode()
    assert pq.read_table(out).to_pylist() == firsts
    assert [p.name for p in tmp_path.iterdir()] == ["links.parquet"], "spill files left behind"

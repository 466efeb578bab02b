"""``urlsift.read`` gives exactly the command's results: for every record
format, the rows ``urlsift extract --jsonl`` prints for the same fields, the
bad records ``--rejects`` lists, and the counts of the command's summary;
damage raises after the rows before it."""

import gzip
import json
import os
import pathlib
import subprocess

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import urlsift
from conftest import REPO, read_lines, run_cli

EXAMPLES = REPO / "corpora" / "examples"
SAMPLES = pathlib.Path(os.environ.get("URLSIFT_CRAWL_SAMPLES_DIR", REPO.parent / "shared" / "crawl-samples"))

FIELDS = ["href", "hostname", "port", "pathname", "search", "site", "line"]


def cli_extract(cli, path, fields, *flags):
    """The command's rows (as JSON objects) and its summary line."""
    done = subprocess.run(
        [str(cli), "extract", "-v", "--jsonl", "--fields", ",".join(fields), *flags, str(path)],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    rows = [json.loads(l) for l in done.stdout.decode().splitlines()]
    summary = done.stderr.decode().strip().removeprefix("urlsift: ")
    return rows, summary


def as_text(row):
    """A row with every value as the command's JSON prints it (strings;
    a port as its digits, `""` where there is none)."""
    out = {}
    for k, v in row.items():
        if k == "port":
            out[k] = "" if v is None else str(v)
        elif k == "line" or v is None:
            out[k] = v
        else:
            out[k] = str(v)
    return out


@pytest.fixture(scope="module")
def inputs(tmp_path_factory, corpora_dir):
    """One input per format: the bundled examples, and larger CSV and
    Parquet files made of a shared corpus (bad lines included)."""
    tmp = tmp_path_factory.mktemp("read")
    lines = read_lines(corpora_dir / "iscx_url2016_malicious.txt")[:20000]
    csv = tmp / "corpus.csv"
    csv.write_text("n,url\n" + "".join(f'{i},"{u.replace(chr(34), chr(34) * 2)}"\n' for i, u in enumerate(lines)))
    parquet = tmp / "corpus.parquet"
    table = pa.table({"n": list(range(len(lines))), "url": lines})
    pq.write_table(table, parquet, row_group_size=3000)
    return {
        "lines": (corpora_dir / "i18n_urls_subset.txt", []),
        "csv": (csv, []),
        "crawl.csv": (EXAMPLES / "crawl.csv", []),
        "export.csv": (EXAMPLES / "export.csv", ["--delimiter", ";"]),
        "jsonl": (EXAMPLES / "events.jsonl", ["--field", "request.url"]),
        "cdxj": (EXAMPLES / "index.cdxj", []),
        "warc.gz": (EXAMPLES / "capture.warc.gz", []),
        "log": (EXAMPLES / "access.log", ["--base", "https://shop.example.com/"]),
        "parquet": (parquet, []),
        # A real ARC file (the format before WARC), and a WAT file.
        "arc.gz": (SAMPLES / "warcio" / "example.arc.gz", []),
        "wat.gz": (SAMPLES / "whirlwind" / "whirlwind.warc.wat.gz", []),
    }


def read_args(flags):
    """`read`'s keywords for the command's flags."""
    out = {}
    it = iter(flags)
    for flag in it:
        value = next(it)
        out[{"--field": "field", "--base": "base", "--delimiter": "delimiter"}[flag]] = value
    return out


@pytest.mark.parametrize(
    "name", ["lines", "csv", "crawl.csv", "export.csv", "jsonl", "cdxj", "warc.gz", "log", "parquet", "arc.gz", "wat.gz"]
)
def test_rows_and_counts_equal_the_command(cli, inputs, name):
    path, flags = inputs[name]
    want, summary = cli_extract(cli, path, FIELDS, *flags)
    seen = {}
    reader = urlsift.read(path, fields=FIELDS, on_summary=seen.update, batch_rows=1000, **read_args(flags))
    assert isinstance(reader, pa.RecordBatchReader)
    table = reader.read_all()
    assert table.schema.field("port").type == pa.uint16()
    assert table.schema.field("line").type == pa.uint64()
    got = [as_text(r) for r in table.to_pylist()]
    assert len(got) == len(want)
    mismatches = [(g, w) for g, w in zip(got, want) if g != w]
    assert not mismatches, mismatches[:3]
    assert seen["text"] == summary
    assert seen["valid"] == len(want)


def test_reasons_and_provenance_equal_the_rejects(cli, inputs, tmp_path):
    path, _ = inputs["csv"]
    rejects = tmp_path / "rejects.tsv"
    run_cli(cli, "extract", "-q", "--fields", "href", "--rejects", rejects, path)
    want = [l.split("\t") for l in rejects.read_text().splitlines()]
    table = urlsift.read(path, fields=["href", "input", "@n"], with_reasons=True, provenance=True).read_all()
    bad = [r for r in table.to_pylist() if r["reason"] is not None]
    assert len(bad) == len(want) > 0
    for row, (_, line, offset, _message, raw) in zip(bad, want):
        assert (str(row["line"]), str(row["offset"])) == (line, offset)
        assert row["href"] is None
        assert raw.endswith(row["input"].replace("\t", "\\t")) or row["input"] in raw
        assert row["n"] is not None
    # Valid rows have no reason, and every record is there, in order.
    assert table.num_rows == len(read_lines(path)) - 1
    assert table.column("line").to_pylist() == sorted(table.column("line").to_pylist())


def test_parquet_columns_keep_their_types(inputs):
    path, _ = inputs["parquet"]
    table = urlsift.read(path, fields=["hostname", "@n"], format="parquet").read_all()
    assert table.schema.field("n").type == pa.int64()
    assert table.column("n").to_pylist()[:2] == [0, 1]


def test_profiles_give_the_normalized_form(cli, inputs):
    path, _ = inputs["lines"]
    want = run_cli(cli, "normalize", "-q", "--strip-fragment", "--sort-query", "--strip-params", "utm_*", path)
    table = urlsift.read(path, strip_fragment=True, sort_query=True, strip_params="utm_*").read_all()
    assert table.column("href").to_pylist() == want.decode().splitlines()


def test_damage_raises_after_the_rows_before_it(cli, tmp_path, corpora_dir):
    lines = read_lines(corpora_dir / "iscx_url2016_benign.txt")[:50000]
    whole = gzip.compress("\n".join(lines).encode() + b"\n")
    cut = tmp_path / "cut.txt.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    expected = run_cli_status(cli, "extract", "-q", "--fields", "href", cut)
    rows = []
    reader = urlsift.read(cut)
    with pytest.raises(OSError, match="cut.txt.gz"):
        for batch in reader:
            rows.extend(batch.column("href").to_pylist())
    assert ["href", *rows] == expected.decode().splitlines()
    assert len(rows) > 1000
    with pytest.raises(ValueError, match="no column named \"url\""):
        urlsift.read(EXAMPLES / "events.jsonl", format="csv").read_all()
    with pytest.raises(FileNotFoundError):
        urlsift.read(tmp_path / "missing.txt")


def run_cli_status(cli, *args):
    """The command's stdout, whatever its exit status."""
    done = subprocess.run([str(cli), *map(str, args)], capture_output=True, check=False)
    return done.stdout


def test_setting_errors_name_the_keyword_arguments(tmp_path):
    """A setting that does not fit an input is named as ``read`` takes it
    (``field=``, ``delimiter=``, ``format=``), never by a command flag."""
    csv = tmp_path / "semi.csv"
    csv.write_text("id;link\n1;http://a/\n")
    lines = tmp_path / "urls.txt"
    lines.write_text("http://a/\n")
    cases = [
        (csv, {}, 'no column named "url" (columns: "id;link"); name the URL column with field=; '
                  'the header reads as one column: if its delimiter is ";", say delimiter=\';\''),
        (csv, {"field": "0", "no_header": True}, "field=: columns are numbered from 1"),
        (csv, {"field": "x", "no_header": True}, 'field= "x": without a header row, name the column by number'),
        (lines, {"field": "x"}, "field= names a field of a record; `lines` input is one URL per line "
                                "(choose a format with format=)"),
        (lines, {"delimiter": ";"}, 'delimiter= is for CSV and TSV input; this input is read as lines '
                                    '(name the format with format="csv")'),
        (lines, {"format": "log", "field": "x"}, 'field= "x": a log\'s URL field is `request` or `referer`'),
    ]
    for path, kwargs, message in cases:
        with pytest.raises(ValueError) as raised:
            urlsift.read(path, **kwargs).read_all()
        assert message in str(raised.value), (kwargs, str(raised.value))
        assert "--" not in str(raised.value), (kwargs, str(raised.value))

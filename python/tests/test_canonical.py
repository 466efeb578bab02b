"""`normalize --canonical w3lib` against w3lib 2.5.0's `canonicalize_url`
(pinned in requirements-dev.txt: Scrapy's request fingerprint), on every
line of the shared corpora and on every input of the URL Standard's and
urlcanon's test data, with w3lib's options.

A line w3lib raises on must be a reject of reason
`refused-by-canonical-form`; every other line must give w3lib's string,
byte for byte. There is no listed exception: the test fails on the first
difference class it finds, naming up to 20 lines."""

import json
import pathlib

import pyarrow as pa
import pytest
from w3lib.url import canonicalize_url

import urlsift

from conftest import REPO, read_lines, run_cli

SHARED = pathlib.Path(REPO.parent / "shared")

OPTIONS = {
    (): {},
    ("--w3lib-keep-fragments", "--w3lib-drop-blank-values"): {"keep_fragments": True, "keep_blank_values": False},
}


def ours(cli, tmp_path, lines, flags, form="w3lib"):
    """urlsift's form of each line, or None for a line it rejects."""
    source = tmp_path / "in.txt"
    source.write_bytes("".join(line + "\n" for line in lines).encode())
    rejects = tmp_path / "rejects.tsv"
    out = run_cli(cli, "normalize", "--canonical", form, *flags, "--rejects", rejects, source)
    written = out.decode().split("\n")[:-1]
    refused = {}
    for row in rejects.read_text().splitlines():
        _, number, _, reason, _ = row.split("\t", 4)
        refused[int(number) - 1] = reason
    assert len(written) + len(refused) == len(lines)
    forms = iter(written)
    return [None if i in refused else next(forms) for i in range(len(lines))], refused


def theirs(line, options):
    try:
        return canonicalize_url(line, **options)
    except ValueError:
        return None


def compare(cli, tmp_path, lines, flags, options, form="w3lib", tool=None):
    """The forms of `form` against `tool(line)` (w3lib's with `options` by
    default), None where the tool raises ValueError; returns how many
    lines the tool refused."""
    forms, refused = ours(cli, tmp_path, lines, flags, form)
    differ = []
    for i, (line, form) in enumerate(zip(lines, forms)):
        expected = theirs(line, options) if tool is None else tool(line)
        if form != expected:
            differ.append((line, form, expected, refused.get(i)))
    assert not differ, f"{len(differ)} of {len(lines)} lines differ from the tool:\n" + "\n".join(
        f"  {line!r}\n    urlsift {form!r} {why or ''}\n    tool    {expected!r}" for line, form, expected, why in differ[:20]
    )
    return sum(form is None for form in forms)


@pytest.mark.parametrize("flags", OPTIONS, ids=["defaults", "keep-fragments,drop-blank"])
def test_w3lib_form_equals_w3lib_on_every_corpus_line(cli, tmp_path, corpora_dir, flags):
    lines = [line for path in sorted(corpora_dir.glob("*.txt")) for line in read_lines(path)]
    assert len(lines) > 900_000, len(lines)
    compare(cli, tmp_path, lines, flags, OPTIONS[flags])


def hard_inputs():
    """Every input string of WPT's URL data and urlcanon's vectors: the
    hard cases (brackets, ports, IDNA, backslashes, controls). Lines with a
    line break (as Python's splitlines reads the rejects file) or NUL are
    left out: the command reads lines, and a NUL is binary data to it; so
    is the empty line, which the command counts as empty and skips, as in
    every job (w3lib gives it `/`)."""
    inputs = set()

    def walk(x, keys):
        if isinstance(x, dict):
            for k, v in x.items():
                if keys is None:
                    inputs.add(k)
                elif k in keys and isinstance(v, str):
                    inputs.add(v)
                walk(v, keys)
        elif isinstance(x, list):
            for v in x:
                if isinstance(v, str) and keys is None:
                    inputs.add(v)
                walk(v, keys)

    wpt = sorted((SHARED / "wpt").glob("*.json"))
    canon = sorted((SHARED / "canon" / "urlcanon").glob("*.json"))
    assert wpt and canon, "../shared/wpt and ../shared/canon/urlcanon are needed"
    for path in wpt:
        walk(json.loads(path.read_text()), {"input", "href", "base"})
    for path in canon:
        walk(json.loads(path.read_text()), None)
    breaks = "\n\r\x00\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
    lines = sorted(
        s for s in inputs if s and not any(c in breaks for c in s) and not any(0xD800 <= ord(c) <= 0xDFFF for c in s)
    )
    assert len(lines) > 4000, len(lines)
    return lines


def test_w3lib_form_equals_w3lib_on_the_standards_test_inputs(cli, tmp_path):
    refused = compare(cli, tmp_path, hard_inputs(), (), {})
    assert refused > 20, "w3lib raises on some of these inputs; none refused means the check did not run"


def test_python_normalize_gives_the_w3lib_form(cli, tmp_path, corpora_dir):
    """`urlsift.normalize(canonical="w3lib")` equals the command's form of
    every corpus line and of the hard inputs above, null where the command
    rejects."""
    lines = [line for path in sorted(corpora_dir.glob("*.txt")) for line in read_lines(path)]
    lines += ["http://a.com:99999/", "http://[1.2.3.4]/", "foo.com/a b", " http://A.com/?b&a=1 "]
    forms, _ = ours(cli, tmp_path, lines, ())
    assert urlsift.normalize(pa.array(lines), canonical="w3lib").to_pylist() == forms
    with pytest.raises(ValueError, match="goes alone"):
        urlsift.normalize(pa.array(lines[:1]), canonical="w3lib", sort_query=True)


URLCANON = {
    "urlcanon-whatwg": "whatwg",
    "urlcanon-google": "google",
    "urlcanon-semantic-precise": "semantic_precise",
    "urlcanon-semantic": "semantic",
    "urlcanon-aggressive": "aggressive",
}


@pytest.mark.parametrize("form", URLCANON)
def test_urlcanon_forms_equal_urlcanon_on_the_corpora(cli, tmp_path, corpora_dir, form):
    """The IIPC urlcanon 0.3.1 (pinned) on a seeded tenth of the corpus
    lines (every line with URLSIFT_CANON_FULL=1; scripts/bench/canonical
    runs every line too): each form is urlcanon's, byte for byte, no
    listed exception (urlcanon raises on no corpus line)."""
    import os
    import random

    import urlcanon

    lines = [line for path in sorted(corpora_dir.glob("*.txt")) for line in read_lines(path)]
    if os.environ.get("URLSIFT_CANON_FULL") != "1":
        pick = random.Random(52)
        lines = [line for line in lines if pick.random() < 0.1]
    assert len(lines) > 90_000, len(lines)
    canon = getattr(urlcanon, URLCANON[form])
    source = tmp_path / "in.txt"
    source.write_bytes("".join(line + "\n" for line in lines).encode())
    written = run_cli(cli, "normalize", "--canonical", form, source).decode().split("\n")[:-1]
    assert len(written) == len(lines)
    differ = [(line, ours) for line, ours in zip(lines, written) if str(canon(line)) != ours]
    assert not differ, f"{len(differ)} of {len(lines)} differ from urlcanon:\n" + "\n".join(
        f"  {line!r}\n    urlsift  {ours!r}\n    urlcanon {str(canon(line))!r}" for line, ours in differ[:20]
    )


def courlan_form(strict):
    """courlan 1.4.0's normalize_url (pinned), None where it raises."""
    from courlan import normalize_url

    def form(line):
        try:
            return normalize_url(line, strict=strict)
        except ValueError:
            return None

    return form


COURLAN = {"courlan": False, "courlan-strict": True}


@pytest.mark.parametrize("form", COURLAN)
def test_courlan_forms_equal_courlan_on_every_corpus_line(cli, tmp_path, corpora_dir, form):
    """courlan's normalize_url (trafilatura's crawler), plain and strict, on
    every corpus line: byte for byte, no listed exception."""
    lines = [line for path in sorted(corpora_dir.glob("*.txt")) for line in read_lines(path)]
    assert len(lines) > 900_000, len(lines)
    compare(cli, tmp_path, lines, (), {}, form=form, tool=courlan_form(COURLAN[form]))


@pytest.mark.parametrize("form", COURLAN)
def test_courlan_forms_equal_courlan_on_the_standards_test_inputs(cli, tmp_path, form):
    refused = compare(cli, tmp_path, hard_inputs(), (), {}, form=form, tool=courlan_form(COURLAN[form]))
    assert refused > 5, "courlan raises on some of these inputs; none refused means the check did not run"


@pytest.mark.parametrize("form", ["urlcanon-semantic-precise", "urlcanon-aggressive"])
def test_urlcanon_ssurt_equals_urlcanon_on_the_corpora(cli, tmp_path, corpora_dir, form):
    """`--canonical urlcanon-FORM --surt=ssurt` is urlcanon's
    `FORM(text).ssurt()` on a seeded tenth of the corpus lines (every line
    with URLSIFT_CANON_FULL=1)."""
    import os
    import random

    import urlcanon

    lines = [line for path in sorted(corpora_dir.glob("*.txt")) for line in read_lines(path)]
    if os.environ.get("URLSIFT_CANON_FULL") != "1":
        pick = random.Random(57)
        lines = [line for line in lines if pick.random() < 0.1]
    canon = getattr(urlcanon, URLCANON[form])
    source = tmp_path / "in.txt"
    source.write_bytes("".join(line + "\n" for line in lines).encode())
    written = run_cli(cli, "normalize", "--canonical", form, "--surt=ssurt", source).decode().split("\n")[:-1]
    assert len(written) == len(lines)
    differ = [(line, ours) for line, ours in zip(lines, written) if canon(line).ssurt().decode() != ours]
    assert not differ, f"{len(differ)} of {len(lines)} differ from urlcanon:\n" + "\n".join(
        f"  {line!r}\n    urlsift  {ours!r}\n    urlcanon {canon(line).ssurt().decode()!r}" for line, ours in differ[:20]
    )


def test_canonical_forms_in_duckdb_and_polars(corpora_dir):
    """DuckDB's `url_canonical(url, form)` and Polars' `normalize(canonical=)`
    give `urlsift.normalize(canonical=form)` (held to the command above)
    on a whole corpus, for a form of each tool."""
    import duckdb
    import polars as pl

    import urlsift.duckdb
    import urlsift.polars

    lines = read_lines(corpora_dir / "iscx_url2016_malicious.txt")
    con = duckdb.connect()
    urlsift.duckdb.register(con)
    con.register("urls", pa.table({"url": pa.array(lines)}))
    frame = pl.DataFrame({"url": lines})
    for form in ["w3lib", "courlan-strict", "urlcanon-semantic", "safe-browsing"]:
        want = urlsift.normalize(pa.array(lines), canonical=form).to_pylist()
        assert sum(w is not None for w in want) > 20_000
        sql = [r[0] for r in con.sql(f"SELECT url_canonical(url, '{form}') FROM urls").fetchall()]
        assert sql == want, form
        assert frame.select(pl.col("url").urlsift.normalize(canonical=form)).to_series().to_list() == want, form
    assert con.sql("SELECT url_canonical('http://e.com/', NULL)").fetchall() == [(None,)]

"""WACZ files held to peers: py-wacz (`wacz` 0.6.0, pinned in
requirements-dev.txt) makes a WACZ of each shared crawl sample it can read
and validates it; warcio reads the WARC inside through Python's `zipfile`
(the oracle for what `urlsift` reads); cdxj-indexer indexes the same WARC
(the oracle for `urlsift index x.wacz`); `zipfile` rewrites each WACZ with
deflated entries and ZIP64 records (what other writers do), which must read
the same. py-wacz's own index differs from cdxj-indexer's default in two
ways, which `urlsift index --check` must name and nothing else: POST
requests keyed with `__wb_method=post...` appended (py-wacz indexes with
cdxj-indexer's post-append), and records without WARC-Payload-Digest given
the SHA-1 of nothing (3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ)."""

import gzip
import json
import subprocess
import sys
import zipfile

import pytest
from warcio.archiveiterator import ArchiveIterator

import urlsift
from conftest import run_cli
from test_crawl_samples import SAMPLES

# The shared samples py-wacz makes a valid WACZ of (it fails on the
# damaged ones and on records it cannot parse).
WARCS = [
    "pywb/example-extra.warc",
    "pywb/missing-status-text.warc",
    "pywb/dupes.warc.gz",
    "pywb/example-url-agnostic-revisit.warc.gz",
    "pywb/example-wget-1-14.warc.gz",
    "pywb/example-wpull.warc.gz",
    "pywb/example2.warc.gz",
    "pywb/httpbin-resource.warc.gz",
    "pywb/iana.warc.gz",
    "warcio/example-digest.warc",
    "warcio/example-iana.org-chunked.warc",
    "warcio/example.warc",
    "warcio/example.warc.gz",
    "warcio/example-resource.warc.gz",
    "warcio/example-space-in-target-uri.warc.gz",
    "warcio/example-wget-bad-target-uri.warc.gz",
    "warcio/post-test.warc.gz",
    "whirlwind/whirlwind.warc.gz",
]
SHARED_WACZ = ["wacz/valid_example_1.wacz", "wacz/valid_example_2.wacz", "wacz/valid_signed_example_1.wacz"]
EMPTY_SHA1 = "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"


def py_wacz(*args):
    return subprocess.run([sys.executable, "-m", "wacz", *map(str, args)], capture_output=True, text=True)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Each sample's WACZ, made and validated by py-wacz."""
    tmp = tmp_path_factory.mktemp("wacz")
    out = {}
    for name in WARCS:
        warc = SAMPLES / name
        assert warc.is_file(), f"{warc} missing"
        wacz = tmp / (warc.name + ".wacz")
        done = py_wacz("create", "-o", wacz, warc)
        assert done.returncode == 0, f"{name}: py-wacz create: {done.stderr}"
        done = py_wacz("validate", "-f", wacz)
        assert done.returncode == 0 and "is valid" in done.stdout, f"{name}: {done.stdout}{done.stderr}"
        out[name] = wacz
    return out


def warcio_records(wacz):
    """(type, target URI) of every record with a target URI of every WARC
    under archive/, read by warcio through zipfile (a record without one,
    a warcinfo, is an empty record to urlsift: counted, not extracted)."""
    out = []
    with zipfile.ZipFile(wacz) as z:
        for info in z.infolist():
            if info.filename.startswith("archive/") and not info.is_dir():
                with z.open(info) as f:
                    for record in ArchiveIterator(f, arc2warc=True):
                        uri = record.rec_headers.get_header("WARC-Target-URI") or ""
                        if uri:
                            out.append((record.rec_type, uri))
    return out


def urlsift_records(cli, path, *flags):
    text = run_cli(cli, "extract", "--fields", "@WARC-Type,@WARC-Target-URI", "--tsv", "-q", *flags, path)
    # (warcio gives a target URI's spaces as %20 and without the <> wget
    # 1.14 wrote around it; urlsift the header as written: compared as
    # warcio gives it.)
    rows = [line.split("\t") for line in text.decode().splitlines()[1:]]
    return [(kind, uri.replace(" ", "%20").removeprefix("<").removesuffix(">")) for kind, uri in rows]


def test_every_record_inside_equals_warcios(cli, made):
    for name, wacz in made.items():
        want = warcio_records(wacz)
        assert want, name
        for j in ("-j1", "-j3"):
            assert urlsift_records(cli, wacz, j) == want, f"{name} {j}"


def test_the_shared_wacz_samples_equal_warcio(cli):
    for name in SHARED_WACZ:
        wacz = SAMPLES / name
        assert urlsift_records(cli, wacz) == warcio_records(wacz), name


def rezip(src, dst, compression, zip64):
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(dst, "w", compression=compression) as b:
        for info in a.infolist():
            with a.open(info) as f, b.open(info.filename, "w", force_zip64=zip64) as g:
                g.write(f.read())


@pytest.mark.parametrize("compression,zip64", [(zipfile.ZIP_DEFLATED, False), (zipfile.ZIP_STORED, True),
                                               (zipfile.ZIP_DEFLATED, True)])
def test_deflated_and_zip64_entries_read_the_same(cli, made, tmp_path, compression, zip64):
    for name in ["pywb/iana.warc.gz", "warcio/example.warc", "pywb/example-wpull.warc.gz"]:
        wacz = made[name]
        other = tmp_path / wacz.name
        rezip(wacz, other, compression, zip64)
        with zipfile.ZipFile(other) as z:
            assert {i.compress_type for i in z.infolist()} == {compression}
        for job in (["extract", "--fields", "href,hostname"], ["links", "--fields", "from,to,tag"]):
            want = run_cli(cli, *job, "-q", SAMPLES / name)
            assert want, name
            assert run_cli(cli, *job, "-q", other) == want, f"{name} {job}"


def index_lines(text):
    out = {}
    for line in text.splitlines():
        if line.strip() and not line.startswith("!"):
            key, ts, block = line.split(" ", 2)
            fields = json.loads(block)
            out[(fields["filename"], int(fields["offset"]))] = (key, ts, fields)
    return out


def own_index(wacz):
    with zipfile.ZipFile(wacz) as z:
        return index_lines(gzip.decompress(z.read("indexes/index.cdx.gz")).decode())


def test_index_equals_cdxj_indexer_and_check_names_py_waczs_departures(cli, made):
    indexer = str(__import__("pathlib").Path(sys.executable).parent / "cdxj-indexer")
    for name, wacz in made.items():
        warc = SAMPLES / name
        ours = run_cli(cli, "index", "-q", wacz).decode()
        # cdxj-indexer names the file as given: the WARC's own name here too.
        theirs = subprocess.run([indexer, "--sort", str(warc)], capture_output=True, check=True).stdout.decode()
        assert ours == theirs, name
        ours, own = index_lines(ours), own_index(wacz)
        assert ours.keys() == own.keys(), name
        expected = []
        for place, (key, ts, fields) in sorted(ours.items()):
            okey, ots, ofields = own[place]
            assert ts == ots, name
            if key != okey:
                assert okey.startswith(key.split("?")[0]) and "__wb_method=" in okey, (name, key, okey)
                expected.append(f'{place[0]} at {place[1]}: urlkey: urlsift "{key}", its index "{okey}"')
            for field, value in fields.items():
                other = ofields.get(field)
                if field == "digest":
                    value, other = value.removeprefix("sha1:"), (other or "").removeprefix("sha1:")
                    if value != other:
                        assert other == EMPTY_SHA1, (name, value, other)
                if value != other:
                    expected.append(f'{place[0]} at {place[1]}: {field}: urlsift "{value}", its index "{other}"')
        done = subprocess.run([str(cli), "index", "--check", "-q", str(wacz)], capture_output=True, text=True)
        assert done.returncode == (1 if expected else 0), f"{name}: {done.stderr}"
        assert done.stdout.splitlines() == [f"{wacz}: {d}" for d in expected], name


def test_read_of_a_wacz_gives_the_warcs_rows(made):
    fields = ["href", "hostname", "@WARC-Date"]
    for name in ["pywb/iana.warc.gz", "warcio/example.warc"]:
        want = urlsift.read(SAMPLES / name, fields=fields).read_all()
        got = urlsift.read(made[name], fields=fields).read_all()
        assert want.num_rows > 0 and got.equals(want), name


def test_spark_reads_a_wacz(spark, made):
    from urlsift.spark import read_links
    name = "pywb/iana.warc.gz"
    want = sorted(tuple(r) for r in read_links(spark, [str(SAMPLES / name)]).collect())
    got = sorted(tuple(r) for r in read_links(spark, [str(made[name])]).collect())
    assert want and got == want

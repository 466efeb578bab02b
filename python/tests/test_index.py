"""`urlsift index` against pywb's `cdxj-indexer` (1.5.0, pinned in
requirements-dev.txt; its `--sort` output, as archives sort) on every WARC
of the shared crawl samples (WAT, WET and ARC files too): the same lines, byte
for byte.

Where cdxj-indexer cannot index a file (it stops with an exception: a
.warc.gz that is not a member per record, records without a WARC-Date),
urlsift says why instead: exit status 2 naming the file, or the records it
leaves out counted on stderr. A file cut short is indexed alike by both,
and urlsift exits 2 (a cut input is a read error everywhere in urlsift)."""

import os
import pathlib
import subprocess
import sys

import pytest

from conftest import REPO

SAMPLES = pathlib.Path(os.environ.get("URLSIFT_CRAWL_SAMPLES_DIR", REPO.parent / "shared" / "crawl-samples"))
WARCS = sorted(p for p in SAMPLES.glob("*/*") if p.name.endswith((".warc", ".warc.gz", ".wat.gz", ".wet.gz", ".arc", ".arc.gz")))


def test_the_samples_are_there():
    assert SAMPLES.is_dir(), f"{SAMPLES} missing (set URLSIFT_CRAWL_SAMPLES_DIR)"
    assert len(WARCS) >= 20, WARCS


@pytest.mark.parametrize("warc", WARCS, ids=[f"{p.parent.name}/{p.name}" for p in WARCS])
def test_index_lines_equal_cdxj_indexers(cli, warc):
    indexer = pathlib.Path(sys.executable).parent / "cdxj-indexer"
    theirs = subprocess.run([str(indexer), "--sort", str(warc)], capture_output=True)
    ours = subprocess.run([str(cli), "index", str(warc)], capture_output=True)
    said = ours.stderr.decode()
    if theirs.returncode != 0:
        explained = (ours.returncode == 2 and f"cannot read {warc}" in said) or (
            ours.returncode == 0 and "left out (no WARC-Target-URI or WARC-Date)" in said
        )
        assert explained, f"cdxj-indexer failed; urlsift said: {said}"
        return
    assert ours.stdout.decode() == theirs.stdout.decode(), said
    cut = b"Remainder" in theirs.stderr or b"truncat" in theirs.stderr.lower()
    assert ours.returncode == (2 if cut else 0), said

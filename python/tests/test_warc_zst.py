"""`.warc.zst` (the IIPC's Zstandard WARC, with a dictionary frame) read
through the Python bindings and Spark gives what the same records give as
plain WARC. The file is written here from the shared `iana.warc.gz`
sample with the `zstd` command: a dictionary trained on its records
(`zstd --train`), each record its own frame (`zstd -D`), the dictionary
in the file's first, skippable frame (magic 0x184D2A5D)."""

import gzip
import io
import shutil
import struct
import subprocess
import zlib

import pytest

import urlsift
from test_crawl_samples import SAMPLES


def records(path):
    """The records of a `.warc.gz` of a member per record."""
    data, out = path.read_bytes(), []
    while data:
        d = zlib.decompressobj(wbits=31)
        out.append(d.decompress(data))
        data = d.unused_data
    return out


@pytest.fixture(scope="module")
def warc_pair(tmp_path_factory):
    assert shutil.which("zstd"), "the zstd command writes the test file"
    tmp = tmp_path_factory.mktemp("zst")
    recs = records(SAMPLES / "pywb" / "iana.warc.gz")
    samples = tmp / "samples"
    samples.mkdir()
    for i, r in enumerate(recs):
        (samples / f"{i}").write_bytes(r[:4096])
    dictionary = tmp / "dict"
    subprocess.run(["zstd", "-q", "--train", "-r", str(samples), "--maxdict=16384", "-o", str(dictionary)],
                   check=True)
    d = dictionary.read_bytes()
    out = io.BytesIO()
    out.write(struct.pack("<II", 0x184D2A5D, len(d)) + d)
    for r in recs:
        frame = subprocess.run(["zstd", "-q", "-c", "--check", "-D", str(dictionary)], input=r,
                               capture_output=True, check=True).stdout
        out.write(frame)
    zst = tmp / "iana.warc.zst"
    zst.write_bytes(out.getvalue())
    plain = tmp / "iana.warc"
    plain.write_bytes(b"".join(recs))
    return plain, zst


def test_read_gives_the_plain_warcs_rows(warc_pair):
    plain, zst = warc_pair
    fields = ["href", "hostname", "@WARC-Date"]
    want = urlsift.read(plain, fields=fields).read_all()
    got = urlsift.read(zst, fields=fields).read_all()
    assert want.num_rows > 100
    assert got.equals(want)


def test_spark_reads_the_warc_zst(spark, warc_pair):
    from urlsift.spark import read_links
    plain, zst = warc_pair
    want = sorted(tuple(r) for r in read_links(spark, [str(plain)]).collect())
    got = sorted(tuple(r) for r in read_links(spark, [str(zst)]).collect())
    assert want and got == want

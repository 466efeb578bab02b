"""`urlsift get` held to warcio: the shared crawl samples indexed by
cdxj-indexer (pinned), the records fetched by urlsift from that index, and
the output read by warcio, record by record, equal to warcio's reading of
each original at the index line's offset (type, target URI, the payload as
warcio decodes it), in index order, for .warc.gz, .warc and .warc.zst
output."""

import subprocess
import sys
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator

from conftest import run_cli
from test_crawl_samples import SAMPLES

WARCS = ["pywb/iana.warc.gz", "pywb/example-wpull.warc.gz", "warcio/example.warc", "pywb/dupes.warc.gz",
         "warcio/example-iana.org-chunked.warc", "whirlwind/whirlwind.warc.gz"]


def seen(record):
    return (record.rec_type, record.rec_headers.get_header("WARC-Target-URI"), record.content_stream().read())


def originals(index_text, folder):
    import json
    out = []
    for line in index_text.splitlines():
        fields = json.loads(line[line.index(" {") + 1:])
        with open(folder / fields["filename"], "rb") as f:
            f.seek(int(fields["offset"]))
            out.append(seen(next(iter(ArchiveIterator(f)))))
    return out


@pytest.mark.parametrize("name", WARCS)
def test_get_gives_warcios_records_in_index_order(cli, tmp_path, name):
    warc = SAMPLES / name
    assert warc.is_file(), warc
    indexer = Path(sys.executable).parent / "cdxj-indexer"
    index = subprocess.run([str(indexer), "--sort", str(warc)], capture_output=True, check=True).stdout.decode()
    # Index order reversed: the output follows it, not the file.
    lines = index.splitlines()[::-1]
    assert lines, name
    (tmp_path / "hits.cdxj").write_text("\n".join(lines) + "\n")
    want = originals("\n".join(lines), warc.parent)
    for out in ("out.warc.gz", "out.warc", "out.warc.zst"):
        path = tmp_path / out
        run_cli(cli, "get", "-q", "--inputs-prefix", warc.parent, tmp_path / "hits.cdxj", "-o", path)
        if out.endswith(".zst"):
            path = tmp_path / "decoded.warc"
            subprocess.run(["zstd", "-d", "-q", "-f", str(tmp_path / out), "-o", str(path)], check=True)
        with open(path, "rb") as f:
            got = [seen(r) for r in ArchiveIterator(f)]
        assert got[0][0] == "warcinfo", out
        assert got[1:] == want, f"{name} {out}"

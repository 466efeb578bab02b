"""`urlsift links` on bodies under every transfer and content coding,
held to warcio (pinned in requirements-dev.txt, with brotlipy for `br`) and
html5lib as the oracle, as test_crawl_samples.py holds the shared
samples to them.

Recorders store bodies as they got them or already decoded, and often
keep `Transfer-Encoding: chunked` over a body stored de-chunked. warcio
reads such a body by ending the de-chunking at the first chunk-size line
that does not parse and taking what follows as stored, then undoing the
content coding. The pages here are written under each content coding
(identity, gzip, zlib deflate, raw deflate, br) and each transfer form
(none; chunked; declared chunked but stored de-chunked; a first chunk and
the rest stored de-chunked): every page warcio reads intact must give
urlsift the links html5lib finds in it, none set aside.
"""

import gzip
import itertools
import zlib

import brotli

from test_crawl_samples import oracle, ours

CODINGS = {
    "identity": lambda b: b,
    "gzip": gzip.compress,
    "deflate": zlib.compress,
    "raw-deflate": lambda b: _raw_deflate(b),
    "br": brotli.compress,
}
TRANSFERS = ("none", "chunked", "declared", "partly")


def _raw_deflate(data):
    c = zlib.compressobj(wbits=-15)
    return c.compress(data) + c.flush()


def chunked(body, size):
    out = b""
    for i in range(0, len(body), size):
        piece = body[i:i + size]
        out += b"%x\r\n" % len(piece) + piece + b"\r\n"
    return out + b"0\r\n\r\n"


def page(tag):
    links = "".join(f'<a href="/{tag}/{i}">{i}</a><img src="img/{tag}-{i}.png">' for i in range(40))
    return f"<!doctype html><html><head><title>{tag}</title></head><body>{links}</body></html>".encode()


def payload(coding, transfer, tag):
    body = CODINGS[coding](page(tag))
    headers = [b"HTTP/1.1 200 OK", b"Content-Type: text/html; charset=utf-8"]
    if coding != "identity":
        headers.append(b"Content-Encoding: " + coding.replace("raw-", "").encode())
    if transfer == "chunked":
        stored = chunked(body, 97)
    elif transfer == "declared":
        stored = body
    elif transfer == "partly":
        stored = b"%x\r\n" % 50 + body[:50] + b"\r\n" + body[50:]
    else:
        stored = body
    if transfer != "none":
        headers.append(b"Transfer-Encoding: chunked")
    return b"\r\n".join(headers) + b"\r\n\r\n" + stored


def record(url, block, n):
    head = (
        "WARC/1.0\r\nWARC-Type: response\r\n"
        f"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{n:012d}>\r\n"
        "WARC-Date: 2024-01-01T00:00:00Z\r\n"
        f"WARC-Target-URI: {url}\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(block)}\r\n\r\n"
    ).encode()
    return head + block + b"\r\n\r\n"


def test_pages_under_every_coding_give_the_links_warcio_and_html5lib_read(cli, tmp_path):
    combos = list(itertools.product(CODINGS, TRANSFERS))
    warc = b""
    urls = {}
    for n, (coding, transfer) in enumerate(combos):
        tag = f"{coding}-{transfer}"
        url = f"http://{tag}.example/"
        urls[url] = tag
        warc += record(url, payload(coding, transfer, tag), n)
    path = tmp_path / "coded.warc"
    path.write_bytes(warc)
    theirs, intact, _ = oracle(path)
    # The oracle reads every one of them intact: none is left out of the
    # comparison.
    assert intact == set(urls), sorted(set(urls) - intact)
    mine, set_aside, said = ours(cli, path, tmp_path)
    assert set_aside == "", set_aside
    for url, tag in urls.items():
        assert mine.get(url) == theirs[url], f"{tag}: {said}"
        assert len(theirs[url]) == 80, tag

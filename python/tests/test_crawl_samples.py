"""`urlsift links` on every WARC and ARC file of the shared crawl samples,
held to an independent reading of the same files: warcio (pinned in
requirements-dev.txt) reads the records, de-chunks and decodes the bodies
as it does for pywb; html5lib builds each HTML page's tree as the HTML
standard's parser does (foreign content, the first `<base href>` of the
HTML namespace); the links are the URL-valued attributes of that tree.
Resolution uses urlsift's own parser (the Python `URL`, held to
web-platform-tests elsewhere), so what is compared here is which pages are
read, which links each holds, and which base they resolve against.

Held to it, for every file:

- every page warcio reads intact (its body de-chunked and decoded without
  an error) and that is HTML is read by urlsift too: no such page is set
  aside as a bad record;
- on every such page, the links are the same multiset of (tag,
  attribute, resolved URL). Links whose value has non-ASCII characters on
  a page not in UTF-8 are not resolved here (their queries are encoded in
  the page's encoding, which the Python `URL` does not do): urlsift must
  give the others and that many more.

Where the two still differ, the difference is argued here and in
docs/links.md, and the test holds urlsift to its side of it:

- `<noscript>` holds raw text for urlsift, as in a browser with scripting
  on (html5lib parses it with scripting off): links inside it are left out
  of the html5lib reading.
- A body whose content coding breaks off (a gzip stream cut by the end of
  the file) is a bad record for urlsift; warcio gives the bytes it could
  inflate. `DAMAGED` names those records and the reason urlsift must give.
- warcio stops at a record it cannot read (a header that is not a WARC
  header) and refuses a `.warc.gz` that is one gzip stream; urlsift reads
  on. Pages after warcio's stop are not compared, nor the record just
  before it, whose length or chunks may be what warcio misread (it gives
  an empty body for `example-wrong-chunks.warc.gz`'s page, whose links
  urlsift reads as stored); a one-stream `.warc.gz` is compared on the
  bytes it inflates to.

Sitemaps and feeds are read elsewhere (`tests/cli/links.rs`); WAT and WET
files hold no HTML (their WAT links: `tests/cli/links.rs`).
"""

import collections
import gzip
import io
import json
import os
import pathlib
import subprocess

import html5lib
import pytest
from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed

import urlsift
from conftest import REPO

SAMPLES = pathlib.Path(os.environ.get("URLSIFT_CRAWL_SAMPLES_DIR", REPO.parent / "shared" / "crawl-samples"))
ARCHIVES = sorted(
    p for p in SAMPLES.glob("*/*") if p.name.endswith((".warc", ".warc.gz", ".arc", ".arc.gz"))
)

HTML_NS = "http://www.w3.org/1999/xhtml"
SVG_NS = "http://www.w3.org/2000/svg"
# (element, attribute) pairs compared: urlsift's kinds a, link, img,
# script, iframe, form and media.
ATTRIBUTES = {
    ("a", "href"),
    ("area", "href"),
    ("link", "href"),
    ("img", "src"),
    ("script", "src"),
    ("iframe", "src"),
    ("frame", "src"),
    ("form", "action"),
    ("embed", "src"),
    ("video", "src"),
    ("video", "poster"),
    ("audio", "src"),
    ("source", "src"),
    ("track", "src"),
}
KINDS = "a,link,img,script,iframe,form,media"
# Records urlsift sets aside as damaged where warcio gives what it could
# read: (file, page URL) -> urlsift's reason.
DAMAGED = {
    # The gzip-coded body runs past the end of the file: cut mid-stream.
    ("warcio/example-trunc.warc", "http://example.com/"): "bad-content-coding",
}
HTML_TYPES = ("text/html", "application/xhtml+xml")
SNIFFED = (b"<!doctype html", b"<html", b"<head", b"<script", b"<iframe", b"<h1", b"<div", b"<font",
           b"<table", b"<a", b"<style", b"<title", b"<b", b"<body", b"<br", b"<p", b"<!--")


def test_the_samples_are_there():
    assert SAMPLES.is_dir(), f"{SAMPLES} missing (set URLSIFT_CRAWL_SAMPLES_DIR)"
    assert len(ARCHIVES) >= 20, ARCHIVES
    assert any(p.name.endswith(".arc") for p in ARCHIVES), "an ARC sample"


def is_html(content_type, body):
    if content_type:
        return content_type.split(";")[0].strip().lower() in HTML_TYPES
    start = body.lstrip(b"\t\n\x0c\r ")[:14].lower()
    return any(start.startswith(p) and start[len(p):len(p) + 1] in (b" ", b">", b"") for p in SNIFFED)


def charset(content_type):
    for param in (content_type or "").split(";")[1:]:
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset":
            return value.strip().strip('"') or None
    return None


def tree_links(body, content_type):
    """html5lib's tree of the page: its links as (tag, attribute, value),
    the first HTML `<base href>`, and whether it is UTF-8."""
    transport = charset(content_type)
    parser = html5lib.HTMLParser(tree=html5lib.treebuilders.getTreeBuilder("etree"))
    doc = parser.parse(io.BytesIO(body), transport_encoding=transport)
    if parser.tokenizer.stream.charEncoding[1] == "tentative" and transport is None:
        # No BOM, header or <meta> said: urlsift takes UTF-8 bytes as UTF-8
        # (docs/links.md), html5lib falls back to windows-1252.
        try:
            body.decode("utf-8")
            parser = html5lib.HTMLParser(tree=html5lib.treebuilders.getTreeBuilder("etree"))
            doc = parser.parse(io.BytesIO(body), transport_encoding="utf-8")
        except UnicodeDecodeError:
            pass
    encoding = parser.tokenizer.stream.charEncoding[0].name
    base, links = None, []

    def walk(el, in_noscript):
        nonlocal base
        if isinstance(el.tag, str) and el.tag.startswith("{"):
            ns, _, name = el.tag[1:].partition("}")
            if ns == HTML_NS and name == "base" and base is None and "href" in el.attrib:
                base = el.attrib["href"]
            if name == "image" and ns == HTML_NS:
                name = "img"
            html = ns == HTML_NS
            for attribute, value in el.attrib.items():
                wanted = (name, attribute) in ATTRIBUTES and (html or (ns == SVG_NS and name == "a"))
                if isinstance(attribute, str) and wanted and not in_noscript:
                    links.append((name, attribute, value))
            in_noscript = in_noscript or (html and name == "noscript")
        for child in el:
            walk(child, in_noscript)

    walk(doc, False)
    return links, base, encoding.lower().replace("_", "-") in ("utf-8", "utf8")


def resolve(page_url, base_href, links, utf8):
    """The links resolved as the HTML standard does: against the first
    `<base href>` (unless it is not a URL, or a `javascript:`/`data:`
    one), a form's empty action is the page's URL."""
    page = urlsift.URL(page_url)
    base = page
    if base_href is not None and urlsift.can_parse(base_href, page):
        b = urlsift.URL(base_href, page)
        if b.protocol not in ("javascript:", "data:"):
            base = b
    out, skipped = collections.Counter(), 0
    for tag, attribute, value in links:
        if not utf8 and not value.isascii():
            skipped += 1
            continue
        if (tag, attribute) == ("form", "action") and value == "":
            out[(tag, attribute, page.href)] += 1
        elif urlsift.can_parse(value, base):
            to = urlsift.URL(value, base)
            # `javascript:` links are counted, not written (--javascript).
            if to.protocol != "javascript:":
                out[(tag, attribute, to.href)] += 1
    return out, skipped


def records(path, each):
    """Calls `each` with the records warcio reads, up to one it cannot (a
    `.warc.gz` that is one gzip stream, which warcio refuses, through the
    bytes it inflates to); whether warcio stopped early."""
    data = path.read_bytes()
    try:
        for record in ArchiveIterator(io.BytesIO(data), arc2warc=True):
            each(record)
    except ArchiveLoadFailed as e:
        if "non-chunked gzip" not in str(e):
            return True
        for record in ArchiveIterator(io.BytesIO(gzip.decompress(data)), arc2warc=True):
            each(record)
    except Exception:  # noqa: BLE001 (warcio stops at a header it cannot read)
        return True
    return False


def oracle(path):
    """Per page URL (as urlsift writes `from`): the links of every page
    warcio reads intact, and the URLs of those pages."""
    read = []  # per record: None, or (url, links, not resolved here)

    def each(record):
        read.append(page(record))

    if records(path, each) and read:
        read.pop()
    pages, intact = collections.defaultdict(collections.Counter), set()
    skipped = collections.Counter()
    for url, links, n in filter(None, read):
        pages[url].update(links)
        intact.add(url)
        skipped[url] += n
    return pages, intact, skipped


def page(record):
    """A record's page as warcio and html5lib read it: its URL, its links
    resolved, how many were not; `None` for a record that is not an HTML
    page warcio reads intact."""
    if record.rec_type not in ("response", "resource"):
        return None
    target = record.rec_headers.get_header("WARC-Target-URI")
    if not target or not urlsift.can_parse(target):
        return None
    if record.rec_type == "response" and record.http_headers is None:
        return None
    content_type = record.http_headers.get_header("Content-Type") if record.http_headers is not None else None
    try:
        body = record.content_stream().read()
    except Exception:  # noqa: BLE001 (warcio does not read it intact)
        return None
    if not is_html(content_type, body):
        return None
    links, base, utf8 = tree_links(body, content_type)
    resolved, n = resolve(target, base, links, utf8)
    return urlsift.URL(target).href, resolved, n


def ours(cli, path, tmp_path):
    rejects = tmp_path / "rejects.tsv"
    done = subprocess.run(
        [str(cli), "links", "--kinds", KINDS, "--jsonl", "--fields", "from,to,tag,attribute",
         "--rejects", str(rejects), str(path)],
        capture_output=True,
    )
    assert done.returncode in (0, 1), done.stderr.decode()
    pages = collections.defaultdict(collections.Counter)
    for line in done.stdout.decode().splitlines():
        link = json.loads(line)
        pages[link["from"]][(link["tag"], link["attribute"], link["to"])] += 1
    set_aside = rejects.read_text() if rejects.exists() else ""
    return pages, set_aside, done.stderr.decode()


@pytest.mark.parametrize("path", ARCHIVES, ids=[f"{p.parent.name}/{p.name}" for p in ARCHIVES])
def test_links_equal_an_html5lib_reading_of_what_warcio_reads(cli, path, tmp_path):
    name = f"{path.parent.name}/{path.name}"
    theirs, intact, skipped = oracle(path)
    mine, set_aside, said = ours(cli, path, tmp_path)
    damaged = {url: reason for (file, url), reason in DAMAGED.items() if file == name}
    for url, reason in damaged.items():
        assert f"\t{reason}\t{url}" in set_aside, f"{url}: not set aside as {reason}: {set_aside}"
        intact.discard(url)
    for url in sorted(intact):
        assert f"\t{url}\n" not in set_aside, f"{url}: set aside, but warcio reads it: {set_aside}"
    for url in sorted(intact):
        want, got = theirs[url], mine.get(url, collections.Counter())
        if skipped[url]:
            # Those not resolved here are the links only urlsift has.
            assert not want - got and (got - want).total() == skipped[url], (
                f"{url}: only html5lib: {sorted((want - got).elements())[:10]}; "
                f"{(got - want).total()} only urlsift, {skipped[url]} not resolved here"
            )
            continue
        assert got == want, (
            f"{url}: only urlsift: {sorted((got - want).elements())[:10]}; "
            f"only html5lib: {sorted((want - got).elements())[:10]}; {said}"
        )
    print(f"{path.name}: {len(intact)} pages, {sum(c.total() for c in theirs.values())} links, "
          f"{skipped.total()} not resolved here")


def warcio_targets(path):
    """The URL of every record warcio reads that has one (ARC records as
    warcio turns them into WARC ones), as hrefs, and whether warcio read
    the file to its end."""
    hrefs = []

    def each(record):
        target = record.rec_headers.get_header("WARC-Target-URI")
        if target and urlsift.can_parse(target):
            hrefs.append(urlsift.URL(target).href)

    stopped = records(path, each)
    return hrefs, not stopped


@pytest.mark.parametrize("path", ARCHIVES, ids=[f"{p.parent.name}/{p.name}" for p in ARCHIVES])
def test_record_urls_equal_warcios(cli, path):
    """The record layer (`extract`, `normalize`, `dedup`, `stats` read it):
    the URL of every record, in file order, as warcio reads them; where
    warcio stops at a record it cannot read, urlsift's first URLs are
    warcio's and it reads on."""
    theirs, whole = warcio_targets(path)
    done = subprocess.run([str(cli), "extract", "-q", "--jsonl", "--fields", "href", str(path)], capture_output=True)
    assert done.returncode in (0, 1, 2), done.stderr.decode()
    mine = [json.loads(line)["href"] for line in done.stdout.decode().splitlines()]
    if whole:
        assert mine == theirs, (mine[:5], theirs[:5])
    else:
        assert mine[: len(theirs)] == theirs, (mine[:5], theirs[:5])

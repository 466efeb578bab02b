"""The vectorized functions: each row equals the one-URL API, nulls and
bad rows never raise, types and chunking are kept, threads change nothing,
and the GIL is free while Rust works."""

import struct
import threading
import time

import pyarrow as pa
import pytest

import urlsift
from conftest import read_lines

SAMPLE = [
    "HTTPS://Example.COM/a/../b?utm_source=x&b=2&a=1#top",
    None,
    "not a url",
    "http://www.example.org:8080/p?q",
    "",
    "mailto:someone@example.com",
    "https://[::1]/x#f",
    "http://xn--nxasmq6b.example/ünïcode?é",
]


def expected(rows, getter, base=None):
    """Row by row through `urlsift.parse`: the reference for the arrays."""
    out = []
    for row in rows:
        try:
            out.append(None if row is None else getter(urlsift.parse(row, base=base)))
        except urlsift.ParseError:
            out.append(None)
    return out


@pytest.fixture(scope="module")
def corpus(corpora_dir):
    """A corpus with non-ASCII hosts and paths, and some invalid lines."""
    return read_lines(corpora_dir / "i18n_urls_subset.txt") + SAMPLE


def test_normalize_equals_parse(corpus):
    out = urlsift.normalize(pa.array(corpus))
    assert out.type == pa.string()
    assert out.to_pylist() == expected(corpus, lambda u: u.href)


def test_components_equal_the_getters(corpus):
    out = urlsift.components(pa.array(corpus))
    assert isinstance(out, pa.StructArray)
    assert [f.name for f in out.type] == list(urlsift.FIELDS)
    for field in urlsift.FIELDS:
        assert out.field(field).to_pylist() == expected(corpus, lambda u: getattr(u, field)), field
    # The struct itself is null where the row is null or not a URL.
    assert out.is_null().to_pylist() == [v is None for v in expected(corpus, lambda u: u.href)]


def test_components_subset_and_unknown_field():
    out = urlsift.components(pa.array(SAMPLE), fields=["hostname", "port"])
    assert [f.name for f in out.type] == ["hostname", "port"]
    assert out.to_pylist()[3] == {"hostname": "www.example.org", "port": "8080"}
    with pytest.raises(ValueError, match="unknown field"):
        urlsift.components(pa.array(SAMPLE), fields=["hostname", "nope"])
    with pytest.raises(ValueError, match="no fields"):
        urlsift.components(pa.array(SAMPLE), fields=[])


def test_invalid_rows_are_null_with_a_reason():
    values, reasons = urlsift.normalize(pa.array(SAMPLE), with_reasons=True)
    for row, value, reason in zip(SAMPLE, values.to_pylist(), reasons.to_pylist()):
        if row is None:
            assert (value, reason) == (None, None)
        elif urlsift.can_parse(row):
            assert (value, reason) == (urlsift.parse(row).href, None)
        else:
            assert value is None
            with pytest.raises(urlsift.ParseError) as raised:
                urlsift.parse(row)
            assert reason in str(raised.value)
            assert reason.startswith("invalid URL (")
    assert reasons.null_count == len(SAMPLE) - 2  # "not a url" and ""


def test_is_valid():
    out = urlsift.is_valid(pa.array(SAMPLE))
    assert out.type == pa.bool_()
    assert out.to_pylist() == [None if r is None else urlsift.can_parse(r) for r in SAMPLE]


def test_base_resolves_every_row():
    rows = ["/a?x", "../b", None, "https://other.example/", "//h/p"]
    out = urlsift.normalize(pa.array(rows), base="https://example.com/dir/page")
    assert out.to_pylist() == expected(rows, lambda u: u.href, base="https://example.com/dir/page")
    with pytest.raises(urlsift.ParseError):
        urlsift.normalize(pa.array(rows), base="no base")


def test_profiles_and_surt():
    rows = pa.array(SAMPLE)
    out = urlsift.normalize(rows, strip_fragment=True, sort_query=True, strip_params="utm_*, fbclid")
    assert out[0].as_py() == "https://example.com/b?a=1&b=2"
    same = urlsift.normalize(rows, strip_fragment=True, sort_query=True, strip_params=["utm_*", "fbclid"])
    assert out.equals(same)
    keys = urlsift.surt(rows)
    assert keys[0].as_py() == "com,example)/b?a=1&b=2&utm_source=x"
    assert keys[3].as_py() == "org,example:8080)/p?q"
    assert keys[5].as_py() == "mailto:someone@example.com"
    with pytest.raises(ValueError, match="empty parameter glob"):
        urlsift.normalize(rows, strip_params="utm_*,")


@pytest.mark.parametrize("kind", [pa.string(), pa.large_string()])
def test_types_are_kept(kind):
    rows = pa.array(SAMPLE, type=kind)
    assert urlsift.normalize(rows).type == kind
    assert urlsift.surt(rows).type == kind
    assert urlsift.components(rows).type.field("href").type == kind
    assert urlsift.normalize(rows).to_pylist() == urlsift.normalize(pa.array(SAMPLE)).to_pylist()


@pytest.mark.parametrize("kind", [pa.string(), pa.large_string()])
def test_empty_and_all_null(kind):
    assert len(urlsift.normalize(pa.array([], type=kind))) == 0
    assert len(urlsift.normalize(pa.array([], type=kind), threads=2)) == 0
    assert urlsift.normalize(pa.array([], type=kind)).type == kind
    assert len(urlsift.components(pa.array([], type=kind))) == 0
    assert urlsift.normalize(pa.array([None, None], type=kind)).to_pylist() == [None, None]
    assert urlsift.is_valid(pa.array([None, None])).to_pylist() == [None, None]


def test_slices_chunks_and_array_likes(corpus):
    whole = pa.array(corpus)
    want = urlsift.normalize(whole).to_pylist()
    # A slice starts mid-buffer, and mid-byte of the validity bitmap.
    assert urlsift.normalize(whole.slice(3, 1000)).to_pylist() == want[3:1003]
    chunked = pa.chunked_array([whole.slice(0, 5), whole.slice(5, 7), whole.slice(12)])
    out = urlsift.normalize(chunked)
    assert isinstance(out, pa.ChunkedArray) and out.num_chunks == 3
    assert out.to_pylist() == want
    assert urlsift.components(chunked).to_pylist() == urlsift.components(whole).to_pylist()
    assert urlsift.normalize(list(corpus)).to_pylist() == want
    with pytest.raises(TypeError, match="string array"):
        urlsift.normalize(pa.array([1, 2]))


@pytest.mark.parametrize("threads", [0, 2, 3])
def test_threads_give_the_same_result(corpus, threads):
    rows = pa.array(corpus * 3)
    assert len(rows) % 8, "a length that leaves a part byte"
    for function in (urlsift.normalize, urlsift.surt, urlsift.components, urlsift.is_valid):
        assert function(rows, threads=threads).equals(function(rows)), function
    values, reasons = urlsift.normalize(rows, threads=threads, with_reasons=True)
    assert reasons.equals(urlsift.normalize(rows, with_reasons=True)[1])


def test_thread_pools_are_built_once_per_size(corpus):
    """`threads=n` reuses one rayon pool per size, built on first use (a
    pool per call used to cost more than a small call's parsing), and a
    call too small to split runs on the calling thread, building none.
    Results are the same every way."""
    from urlsift import _urlsift

    rows = pa.array(corpus * 2)  # more than MIN_THREADED_ROWS (8,192)
    small = pa.array(corpus[:100])
    want, want_small = urlsift.normalize(rows), urlsift.normalize(small)
    built = _urlsift._pools_built()
    for threads in (5, 7, 5, 7, 5):
        assert urlsift.normalize(rows, threads=threads).equals(want), threads
    assert _urlsift._pools_built() == built + 2, "one pool for 5 threads, one for 7"
    for threads in (6, 9, 6):
        assert urlsift.normalize(small, threads=threads).equals(want_small), threads
    assert _urlsift._pools_built() == built + 2, "small calls build no pool"


def test_the_gil_is_released(corpus):
    """While one thread is inside a long call, another keeps running Python.
    Were the GIL held, the ticker would stall for the whole Rust part: no
    Python bytecode runs in the calling thread then, so nothing forces a
    switch."""
    rows = pa.array(corpus * 60)
    started, ticks, took = threading.Event(), [], []

    def call():
        started.set()
        t = time.perf_counter()
        urlsift.components(rows)
        took.append(time.perf_counter() - t)

    worker = threading.Thread(target=call)
    worker.start()
    started.wait()
    while worker.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    assert took[0] > 0.2, f"call too short to tell ({took[0]:.3f}s)"
    # At least one tick per 10 ms of call on average: the ticker ran throughout.
    assert len(ticks) > took[0] * 100, (len(ticks), took[0])


def string_array(offsets, data, kind=pa.string()):
    """A string array straight from buffers, as a careless producer may make."""
    width = "q" if kind == pa.large_string() else "i"
    packed = struct.pack(f"<{len(offsets)}{width}", *offsets)
    return pa.Array.from_buffers(kind, len(offsets) - 1, [None, pa.py_buffer(packed), pa.py_buffer(data)])


@pytest.mark.parametrize("kind", [pa.string(), pa.large_string()])
def test_rows_that_are_not_utf8_are_bad_rows_not_errors(kind):
    url = b"https://example.com/"
    rows = string_array([0, 3, 3 + len(url)], b"\xff\xfe\xfd" + url, kind)
    values, reasons = urlsift.normalize(rows, with_reasons=True)
    assert values.to_pylist() == [None, url.decode()]
    assert reasons.to_pylist() == ["invalid UTF-8", None]


def test_broken_offsets_are_refused():
    with pytest.raises(ValueError, match="offsets"):
        urlsift.normalize(string_array([0, 99], b"abc"))
    with pytest.raises(ValueError, match="offsets"):
        urlsift.normalize(string_array([0, 2, 1], b"abc"))

"""`urlsift.parse`, `URL` getters and `can_parse`, against the
web-platform-tests' urltestdata (the cases the Rust suite passes too)."""

import json
import os
import pathlib

import pytest

import urlsift
from conftest import REPO

GETTERS = urlsift.FIELDS


def wpt_cases(name):
    wpt = pathlib.Path(os.environ.get("URLSIFT_WPT_DIR", REPO.parent / "shared" / "wpt"))
    path = wpt / name
    assert path.is_file(), f"{path} missing (set URLSIFT_WPT_DIR)"
    return [case for case in json.loads(path.read_text()) if isinstance(case, dict)]


def encodable(*texts):
    """Python strings with lone surrogates have no UTF-8 form to hand over."""
    try:
        for t in texts:
            if t is not None:
                t.encode()
        return True
    except UnicodeEncodeError:
        return False


def test_urltestdata():
    cases = [c for c in wpt_cases("urltestdata.json") if encodable(c["input"], c.get("base"))]
    assert len(cases) > 800
    checked = 0
    for case in cases:
        base = case.get("base")
        if case.get("failure"):
            assert not urlsift.can_parse(case["input"], base), case
            with pytest.raises(urlsift.ParseError):
                urlsift.parse(case["input"], base=base)
            continue
        assert urlsift.can_parse(case["input"], base), case
        url = urlsift.parse(case["input"], base=base)
        for getter in GETTERS:
            if getter in case:
                assert getattr(url, getter) == case[getter], (case, getter)
                checked += 1
    assert checked > 5000


def test_base_as_url_object_and_str():
    base = urlsift.parse("https://example.com/a/b")
    assert urlsift.parse("../c?q#f", base=base) == urlsift.parse("../c?q#f", base="https://example.com/a/b")
    assert urlsift.parse("../c?q#f", base=base).href == "https://example.com/c?q#f"
    assert urlsift.URL("c", "https://example.com/a/b").href == "https://example.com/a/c"


def test_relative_without_base_fails_with_the_reason():
    with pytest.raises(urlsift.ParseError, match="missing-scheme-non-relative-URL"):
        urlsift.parse("/just/a/path")
    assert isinstance(urlsift.ParseError("x"), ValueError)


def test_can_parse_with_a_bad_base_is_false():
    assert not urlsift.can_parse("x", "not a base")
    assert urlsift.can_parse("x", "https://e.com/")
    assert not urlsift.can_parse("x")
    with pytest.raises(urlsift.ParseError, match="base"):
        urlsift.parse("x", base="not a base")


def test_url_object_protocol():
    url = urlsift.parse("HTTPS://Example.COM:443/p")
    assert str(url) == "https://example.com/p"
    assert repr(url) == "URL('https://example.com/p')"
    assert url == urlsift.parse("https://example.com/p")
    assert url != urlsift.parse("https://example.com/q")
    assert url != "https://example.com/p"
    assert len({url, urlsift.parse("https://example.com/p")}) == 1
    assert url.origin == "https://example.com"
    assert urlsift.parse("data:,x").origin == "null"

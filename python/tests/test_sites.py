"""The site fields: per row equal to the one-URL API's properties, null for
hosts that are not domains or parts that do not exist, the ICANN-only
mode, and a list loaded from a file."""

import pyarrow as pa
import pytest

import urlsift
from conftest import read_lines

ROWS = [
    "https://news.bbc.co.uk/sport",
    "https://bbc.co.uk/",
    "https://a.b.user.github.io/x",
    "https://github.io/",
    "http://127.0.0.1:8080/",
    "http://[::1]/",
    "mailto:someone@example.com",
    "foo://opaque.example.com/",
    "https://www.example.unknowntld/",
    "https://www.食狮.公司.cn/",
    "not a url",
    None,
]


def test_site_fields_split_the_host():
    out = urlsift.components(pa.array(ROWS), fields=urlsift.SITE_FIELDS).to_pylist()
    assert out[0] == {"site": "bbc.co.uk", "public_suffix": "co.uk", "subdomain": "news", "domain": "bbc"}
    assert out[1] == {"site": "bbc.co.uk", "public_suffix": "co.uk", "subdomain": "", "domain": "bbc"}
    assert out[2]["site"] == "user.github.io" and out[2]["subdomain"] == "a.b"
    assert out[3] == {"site": None, "public_suffix": "github.io", "subdomain": None, "domain": None}
    for i in (4, 5, 6, 7):
        assert out[i] == dict.fromkeys(urlsift.SITE_FIELDS), ROWS[i]
    assert out[8]["site"] == "example.unknowntld"
    assert out[9]["site"] == "xn--85x722f.xn--55qx5d.cn"
    assert out[10] is None and out[11] is None


def test_icann_only_leaves_out_private_rules():
    out = urlsift.components(pa.array(ROWS[2:4]), fields=["site", "public_suffix"], icann_only=True)
    assert out.to_pylist() == [
        {"site": "github.io", "public_suffix": "io"},
        {"site": "github.io", "public_suffix": "io"},
    ]


def test_fields_mix_with_getters_and_equal_the_url_properties(corpora_dir):
    rows = read_lines(corpora_dir / "i18n_urls_subset.txt") + ROWS
    fields = ["hostname", *urlsift.SITE_FIELDS]
    out = urlsift.components(pa.array(rows), fields=fields)
    for field in fields:
        want = []
        for row in rows:
            try:
                want.append(None if row is None else getattr(urlsift.parse(row), field))
            except urlsift.ParseError:
                want.append(None)
        assert out.field(field).to_pylist() == want, field
    assert sum(s is not None for s in out.field("site").to_pylist()) > len(rows) // 2


def test_a_list_loaded_from_a_file(tmp_path):
    dat = tmp_path / "list.dat"
    dat.write_text("// ===BEGIN ICANN DOMAINS===\nuk\n// ===BEGIN PRIVATE DOMAINS===\nbbc.co.uk\n")
    out = urlsift.components(pa.array(ROWS[:2]), fields=["site", "public_suffix"], suffix_list=dat)
    # co.uk is not in this list; bbc.co.uk is a private suffix here.
    assert out.to_pylist() == [
        {"site": "news.bbc.co.uk", "public_suffix": "bbc.co.uk"},
        {"site": None, "public_suffix": "bbc.co.uk"},
    ]
    out = urlsift.components(pa.array(ROWS[:1]), fields=["site"], suffix_list=str(dat), icann_only=True)
    assert out.to_pylist() == [{"site": "co.uk"}]
    with pytest.raises(ValueError, match="nope.dat"):
        urlsift.components(pa.array(ROWS), fields=["site"], suffix_list=tmp_path / "nope.dat")
    bad = tmp_path / "bad.dat"
    bad.write_text("com\n!org\n")
    with pytest.raises(ValueError, match="line 2"):
        urlsift.components(pa.array(ROWS), fields=["site"], suffix_list=bad)


def test_url_properties():
    url = urlsift.parse("https://news.bbc.co.uk/")
    assert (url.site, url.public_suffix, url.subdomain, url.domain) == ("bbc.co.uk", "co.uk", "news", "bbc")
    ip = urlsift.parse("http://10.0.0.1/")
    assert (ip.site, ip.public_suffix, ip.subdomain, ip.domain) == (None, None, None, None)

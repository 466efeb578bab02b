"""urlsift's SURT key against the `surt` package (0.3.1, pinned in
requirements-dev.txt: the key pywb, Wayback-style CDX tools and Common
Crawl's indexes use), on every http(s) URL of the shared corpora that
urlsift accepts.

Every difference must fall in a class docs/sites.md lists as a choice
(urlsift reads the URL as the URL Standard does where surt reads it
otherwise), and the rest may be no more than 0.1% of the URLs: the test
fails on any difference it cannot name."""

import collections

import pyarrow as pa
import pytest
import surt

import urlsift
from conftest import read_lines


def classify(line: str, ours: str, theirs) -> str:
    """Why the keys differ, by the classes docs/sites.md documents; '' when
    the difference is not one of them."""
    if theirs is None:
        return "surt fails on the URL"
    ours_host, _, ours_rest = ours.partition(")")
    theirs_host = theirs.partition(")")[0]
    after = line.split("://", 1)[1] if "://" in line else line
    if after.lower().startswith(("http://", "https://")):
        return "a repeated scheme (surt drops the second)"
    if "\\" in line:
        return "a backslash (a / in special URLs, to the standard)"
    if ours_host.startswith("["):
        return "an IPv6 address (urlsift keeps the brackets)"
    if ours_host != theirs_host:
        raw = after.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0].rsplit("@", 1)[-1]
        labels = ours_host.split(":")[0].split(",")
        if len(labels) == 4 and all(label.isdigit() for label in labels):
            return "an IPv4 address in another notation (the standard's reading)"
        if any(ord(c) > 127 for c in raw) or "%" in raw:
            return "an internationalized or escaped host (UTS #46, not IDNA 2003)"
        return ""
    if "%2f" in ours_rest.split("?")[0]:
        return "%2F inside a path segment (kept, not a /)"
    return ""


def test_surt_keys_equal_the_surt_package_on_real_urls(corpora_dir):
    compared = 0
    differences = collections.Counter()
    unexplained = []
    for path in sorted(corpora_dir.glob("*.txt")):
        lines = read_lines(path)
        keys = urlsift.surt(pa.array(lines)).to_pylist()
        protocols = urlsift.components(pa.array(lines)).field("protocol").to_pylist()
        for line, ours, protocol in zip(lines, keys, protocols):
            if ours is None or protocol not in ("http:", "https:"):
                continue
            compared += 1
            try:
                theirs = surt.surt(line)
            except Exception:  # surt raises on some ports and hosts
                theirs = None
            if ours == theirs:
                continue
            why = classify(line, ours, theirs)
            differences[why or "unexplained"] += 1
            if not why:
                unexplained.append((path.name, line, ours, theirs))
    total = sum(differences.values())
    report = "\n".join(f"  {n:7} {why}" for why, n in differences.most_common())
    print(f"\n{compared} http(s) URLs, {compared - total} equal to surt's key; differences:\n{report}")
    assert compared > 900_000, compared
    assert not unexplained, "differences no class explains:\n" + "\n".join(
        f"  {name}: {line!r}\n    urlsift {ours!r}\n    surt    {theirs!r}" for name, line, ours, theirs in unexplained[:40]
    )
    assert total <= compared / 1000, f"{total} of {compared} differ (goal: at most 0.1%):\n{report}"


@pytest.mark.parametrize(
    "options,flags",
    [
        ({"with_scheme": True}, {"surt_scheme": True}),
        ({"trailing_comma": True}, {"surt_trailing_comma": True}),
        ({"reverse_ipaddr": False}, {"surt_keep_ip_order": True}),
        ({"host_massage": False}, {"surt_keep_www": True}),
        ({"query_alpha_reorder": False}, {"surt_keep_query_order": True}),
    ],
)
def test_the_options_are_the_packages(cli, tmp_path, options, flags):
    urls = [
        "http://www.Example.com/A/?b=2&a=1",
        "https://www2.example.co.uk:8443/x/y/",
        "http://192.168.0.1/admin",
        "http://example.org/?jsessionid=0123456789abcdef0123456789abcdef&z",
    ]
    path = tmp_path / "urls.txt"
    path.write_text("".join(u + "\n" for u in urls))
    args = [f"--{k.replace('_', '-')}" for k in flags]
    from conftest import run_cli

    got = run_cli(cli, "normalize", "-q", "--surt", *args, path).decode().splitlines()
    assert got == [surt.surt(u, **options) for u in urls]

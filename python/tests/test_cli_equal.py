"""The Python functions equal the `urlsift` command on whole corpora: same
normalized URLs under each profile, same SURT keys, same components (site
fields included: null where a URL has no site), and the same invalid lines
with the same reasons."""

import pyarrow as pa
import pytest

import urlsift
from conftest import read_lines
from reference import cli_rows

PROFILES = [
    {},
    {"strip_fragment": True, "sort_query": True, "strip_params": "utm_*,fbclid,gclid"},
    {"base": "https://example.com/dir/"},
]


@pytest.mark.parametrize("profile", PROFILES, ids=["href", "clean", "base"])
@pytest.mark.parametrize(
    "corpus", ["iscx_url2016_malicious.txt", "accesslog_request_targets.txt", "i18n_urls_subset.txt"]
)
def test_equal_to_the_command(cli, corpora_dir, corpus, profile):
    path = corpora_dir / corpus
    lines = read_lines(path)
    fields = (*urlsift.FIELDS, *urlsift.SITE_FIELDS)
    want = cli_rows(cli, path, len(lines), fields=fields, **profile)
    rows = pa.array(lines)
    base = profile.get("base")
    options = {k: v for k, v in profile.items() if k != "base"}
    normalized, reasons = urlsift.normalize(rows, base, with_reasons=True, **options)
    query_options = {k: v for k, v in options.items() if k != "strip_fragment"}
    keys = urlsift.surt(rows, base, **query_options)
    parts = urlsift.components(rows, base=base, fields=list(fields)).to_pylist()
    got = [
        {"normalized": n, "surt": s, **(p or dict.fromkeys(fields)), "error": r}
        for n, s, p, r in zip(normalized.to_pylist(), keys.to_pylist(), parts, reasons.to_pylist())
    ]
    assert len(got) == len(want)
    mismatches = [(i + 1, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
    assert not mismatches, mismatches[:3]
    # The corpus exercises both kinds of rows (else the test proves half).
    assert any(w["error"] for w in want) or base, corpus
    assert any(w["normalized"] for w in want), corpus

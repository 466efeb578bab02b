"""The examples in the package's docstrings run and give what they show."""

import doctest

import pytest

import urlsift
import urlsift.arrow
import urlsift.duckdb
import urlsift.polars
import urlsift.records

MODULES = [urlsift, urlsift.arrow, urlsift.records, urlsift.duckdb, urlsift.polars]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if module is not urlsift.arrow:
        assert result.attempted > 0, f"{module.__name__} has no example"

"""What the `urlsift` command says about a corpus file, row by row: the
independent result the Python functions and the Spark helpers must equal.

`normalize` (with the profile flags) gives the normalized URLs of the valid
lines in order, and `--rejects` the invalid lines' numbers and reasons;
`normalize --surt` the SURT keys; `extract --jsonl --fields line,...` the
components, keyed by line number.
"""

import json
import pathlib
import tempfile

from conftest import run_cli


def profile_flags(base=None, strip_fragment=False, sort_query=False, strip_params=None):
    flags = ["--base", base] if base else []
    flags += ["--strip-fragment"] if strip_fragment else []
    flags += ["--sort-query"] if sort_query else []
    return flags + (["--strip-params", strip_params] if strip_params else [])


def cli_rows(cli, path: pathlib.Path, n_lines: int, fields=(), **profile) -> list:
    """One dict per line of `path`: `normalized`, `surt`, one key per
    field, `error`; invalid lines have None everywhere but `error`."""
    flags = profile_flags(**profile)
    with tempfile.TemporaryDirectory() as tmp:
        rejects_file = pathlib.Path(tmp) / "rejects.tsv"
        normalized = run_cli(cli, "normalize", "-q", "--rejects", rejects_file, *flags, path)
        rejects = {}
        for record in rejects_file.read_text().splitlines():
            _source, number, _offset, reason, _raw = record.split("\t", 4)
            rejects[int(number)] = reason
    surts = run_cli(cli, "normalize", "-q", "--surt", *flags, path)
    normalized = normalized.decode().split("\n")[:-1]
    surts = surts.decode().split("\n")[:-1]
    valid = [n for n in range(1, n_lines + 1) if n not in rejects]
    assert len(normalized) == len(surts) == len(valid), (len(normalized), len(surts), len(valid))
    by_line = {n: {"normalized": a, "surt": b} for n, a, b in zip(valid, normalized, surts)}
    if fields:
        base_flag = ["--base", profile["base"]] if profile.get("base") else []
        extracted = run_cli(cli, "extract", "-q", "--jsonl", "--fields", ",".join(["line", *fields]), *base_flag, path)
        records = [json.loads(line) for line in extracted.decode().splitlines()]
        assert len(records) == len(valid)
        for record in records:
            by_line[record.pop("line")].update(record)
    empty = dict.fromkeys(["normalized", "surt", *fields])
    return [
        {**empty, "error": rejects[n]} if n in rejects else {**by_line[n], "error": None}
        for n in range(1, n_lines + 1)
    ]

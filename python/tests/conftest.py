"""Shared fixtures: the `urlsift` command (the independent reference every
result is compared with), the shared corpora, and one local Spark session.

Nothing here skips: a missing command, corpus directory or Spark install is
an error, because a test that cannot run proves nothing.
"""

import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli() -> pathlib.Path:
    """The release `urlsift` binary (`URLSIFT_BIN` overrides)."""
    path = pathlib.Path(os.environ.get("URLSIFT_BIN", REPO / "target" / "release" / "urlsift"))
    assert path.is_file(), f"{path} missing: run `cargo build --release` (scripts/python-tests does)"
    return path


def run_cli(cli, *args, stdin: bytes = None) -> bytes:
    """Runs the command; its stdout. Exit status 0 is required."""
    done = subprocess.run([str(cli), *map(str, args)], input=stdin, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


@pytest.fixture(scope="session")
def corpora_dir() -> pathlib.Path:
    """`../shared/corpora` beside the repository (`URLSIFT_CORPORA_DIR` overrides)."""
    path = pathlib.Path(os.environ.get("URLSIFT_CORPORA_DIR", REPO.parent / "shared" / "corpora"))
    assert path.is_dir(), f"corpora directory {path} missing (set URLSIFT_CORPORA_DIR)"
    return path


def read_lines(path: pathlib.Path) -> list:
    """A corpus file's lines as the command reads them: split at LF, one
    final CR dropped. Lines must be UTF-8 (Arrow strings are); the shared
    corpora are, and a corpus that is not fails here rather than quietly
    differing."""
    data = path.read_bytes()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [line[:-1].decode() if line.endswith(b"\r") else line.decode() for line in lines]


@pytest.fixture(scope="session")
def spark():
    from pyspark.sql import SparkSession

    # Workers run this interpreter, which has urlsift installed.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("urlsift-tests")
        .config("spark.driver.memory", "4g")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()

"""urlsift.read, urlsift.links and urlsift.spark over objects, against the
servers scripts/remote-tests starts (moto's S3 server holding the crawl
samples; run by that script, not by scripts/python-tests): every read
equals the same read of the local files, and Spark reads the objects
inside the executors of a standalone cluster (a master and two workers,
each its own process), not only in local mode.

The environment has no AWS settings: the S3 server is named through
``storage_options`` alone, which the Spark tasks carry to the executors.
"""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import urlsift

SAMPLES = Path(os.environ["URLSIFT_REMOTE_SAMPLES"])
CLEAN = os.environ["URLSIFT_REMOTE_CLEAN"].split()  # the clean .warc.gz keys
S3 = {
    "aws_endpoint": os.environ["URLSIFT_REMOTE_S3"],
    "aws_access_key_id": "test",
    "aws_secret_access_key": "test",
    "aws_region": "us-east-1",
}
# gs:// from the same server, through Google Cloud Storage's XML API (S3's
# requests; any token is taken).
GS = {"google_base_url": os.environ["URLSIFT_REMOTE_S3"], "google_bearer_token": "test"}


def test_the_environment_names_no_s3_server():
    named = [k for k in os.environ if k.startswith(("AWS_ENDPOINT", "AWS_ACCESS", "AWS_SECRET", "AWS_DEFAULT_REGION", "AWS_REGION", "STORAGE_EMULATOR_HOST", "GOOGLE_"))]
    assert not named, "the test must name the server itself"


def rows(reader):
    return reader.read_all().to_pylist()


@pytest.mark.parametrize("key", ["warcio/example.warc.gz", "pywb/iana.cdxj", "whirlwind/whirlwind.warc.wat.gz"])
def test_read_equals_the_local_file(key):
    fields = ["href", "host", "line"]
    local = rows(urlsift.read(SAMPLES / key, fields=fields, with_reasons=True))
    remote = rows(urlsift.read(f"s3://crawl/{key}", fields=fields, with_reasons=True, storage_options=S3))
    assert local and remote == local


def test_a_listing_reads_as_its_objects_in_key_order():
    under = sorted(k for k in CLEAN if k.startswith("warcio/"))
    assert len(under) > 1
    assert urlsift.expand("s3://clean/warcio/", storage_options=S3) == [f"s3://clean/{k}" for k in under]
    local = rows(urlsift.read([SAMPLES / k for k in under], fields=["href"]))
    assert rows(urlsift.read("s3://clean/warcio/", fields=["href"], storage_options=S3)) == local


def test_gs_objects_and_listings_equal_the_local_files():
    key = "warcio/example.warc.gz"
    local = rows(urlsift.read(SAMPLES / key, fields=["href", "line"]))
    assert local and rows(urlsift.read(f"gs://crawl/{key}", fields=["href", "line"], storage_options=GS)) == local
    under = sorted(k for k in CLEAN if k.startswith("warcio/"))
    assert urlsift.expand("gs://clean/warcio/", storage_options=GS) == [f"gs://clean/{k}" for k in under]


def test_a_parquet_object_reads_as_the_local_file():
    local_file = os.environ["URLSIFT_REMOTE_PARQUET"]
    local = rows(urlsift.read(local_file, field="href", fields=["href", "line"]))
    assert len(local) > 4 * 65536  # several row groups
    remote = urlsift.read("s3://crawl/parquet/corpora.parquet", field="href", fields=["href", "line"], storage_options=S3)
    assert rows(remote) == local


def test_links_equal_the_local_file():
    key = "warcio/example.warc.gz"
    local = rows(urlsift.links(SAMPLES / key, fields=["from", "to", "offset"]))
    assert local
    assert rows(urlsift.links(f"s3://crawl/{key}", fields=["from", "to", "offset"], storage_options=S3)) == local


def test_what_is_not_there_is_named():
    with pytest.raises(FileNotFoundError, match="s3://crawl/nope.warc.gz"):
        urlsift.read("s3://crawl/nope.warc.gz", storage_options=S3)
    with pytest.raises(FileNotFoundError, match="s3://crawl/nothing/: .*no object matches"):
        urlsift.expand("s3://crawl/nothing/", storage_options=S3)
    with pytest.raises(FileNotFoundError, match="s3://crawl/nope.warc.gz"):
        urlsift.links("s3://crawl/nope.warc.gz", storage_options=S3)


def test_an_unknown_storage_option_is_refused():
    with pytest.raises(ValueError, match="unknown storage option \"colour\""):
        urlsift.read("s3://crawl/pywb/iana.cdxj", storage_options={**S3, "colour": "blue"})


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A standalone Spark cluster: a master and two one-core workers, each
    started as its own process by PySpark's spark-class, and a session
    on it."""
    import pyspark
    from pyspark.sql import SparkSession

    home = Path(pyspark.__file__).parent
    logs = tmp_path_factory.mktemp("spark")
    env = {**os.environ, "SPARK_HOME": str(home), "SPARK_LOCAL_IP": "127.0.0.1", "SPARK_WORKER_CORES": "1"}
    port = free_port()
    master = f"spark://127.0.0.1:{port}"
    klass = str(home / "bin" / "spark-class")
    started = [
        subprocess.Popen(
            [klass, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(port), "--webui-port", str(free_port())],
            env=env, stdout=open(logs / "master.log", "w"), stderr=subprocess.STDOUT,
        )
    ]
    try:
        for _ in range(600):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        else:
            raise RuntimeError(f"the Spark master did not start: {(logs / 'master.log').read_text()[-2000:]}")
        for n in range(2):
            started.append(
                subprocess.Popen(
                    [klass, "org.apache.spark.deploy.worker.Worker", master, "--cores", "1", "--memory", "1g",
                     "--webui-port", str(free_port()), "--work-dir", str(logs / f"work{n}")],
                    env=env, stdout=open(logs / f"worker{n}.log", "w"), stderr=subprocess.STDOUT,
                )
            )
        os.environ["PYSPARK_PYTHON"] = sys.executable
        os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
        session = (
            SparkSession.builder.master(master)
            .appName("urlsift-remote-tests")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.executor.memory", "512m")
            .config("spark.executor.cores", "1")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.execution.arrow.pyspark.enabled", "true")
            .getOrCreate()
        )
        session.sparkContext.setLogLevel("ERROR")
        yield session, logs
        session.stop()
    finally:
        for p in started:
            p.terminate()
        for p in started:
            p.wait(timeout=30)


def executors(spark):
    """The hosts:ports of the executors (the driver left out)."""
    status = spark.sparkContext._jsc.sc().getExecutorMemoryStatus()
    return status.size() - 1


def test_spark_cluster_reads_objects_in_its_executors(cluster):
    from urlsift.spark import read_links, read_records

    spark, logs = cluster
    under = sorted(k for k in CLEAN if k.startswith("warcio/"))
    want = sorted(
        r["href"] for r in rows(urlsift.read([SAMPLES / k for k in under], fields=["href", "@WARC-Date"]))
    )
    df = read_records(spark, "s3://clean/warcio/", format="warc", fields=["href", "@WARC-Date"], storage_options=S3)
    # One task per listed object, and both workers' executors took part.
    assert df.rdd.getNumPartitions() == len(under)
    got = sorted(r["href"] for r in df.collect())
    assert got == want and len(want) > 10
    assert executors(spark) == 2, (logs / "worker0.log").read_text()[-2000:]

    key = "warcio/example.warc.gz"
    links = read_links(spark, [f"s3://crawl/{key}"], fields=["from", "to"], storage_options=S3)
    local = rows(urlsift.links(SAMPLES / key, fields=["from", "to"]))
    assert sorted(map(tuple, links.collect())) == sorted((r["from"], r["to"]) for r in local)


def test_spark_names_an_object_that_is_not_there(cluster):
    from urlsift.spark import read_records

    spark, _ = cluster
    with pytest.raises(FileNotFoundError, match="s3://crawl/nothing/"):
        read_records(spark, "s3://crawl/nothing/", storage_options=S3)

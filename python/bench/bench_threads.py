"""What ``threads=`` costs and gains on one machine, side by side in one
process (a benchmark, not a test):

1. many small calls: 2,000 calls of ``normalize`` on 100 URLs each, with
   the default (the calling thread) and with ``threads=2``; the goal is
   ``threads=2`` within 1.5x of the default (it used to build a rayon pool
   per call);
2. the crossover: one call on N rows, on the calling thread and with
   ``threads=2``, for N from 256 to 65,536 (below the module's
   ``MIN_THREADED_ROWS`` both run on the calling thread, so their times
   match; the table shows where a pool starts to pay).

Each figure is the best of ``--rounds`` rounds, the two ways interleaved.

Usage: python bench_threads.py [CORPUS] [--rounds N]   (default 5)
"""

import argparse
import os
import pathlib
import time

import pyarrow as pa

import urlsift
from urlsift import _urlsift

REPO = pathlib.Path(__file__).resolve().parents[2]


def corpus_lines(name):
    base = pathlib.Path(os.environ.get("URLSIFT_CORPORA_DIR", REPO.parent / "shared" / "corpora"))
    path = pathlib.Path(name) if os.sep in name else base / name
    return path.read_text(encoding="utf-8").splitlines()


def interleaved_best(rounds, works):
    """Best seconds of each work, the works run in turn each round."""
    best = [float("inf")] * len(works)
    for _ in range(rounds):
        for i, work in enumerate(works):
            start = time.perf_counter()
            work()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default="jpcert_phishurl_2019_2025.txt")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    lines = corpus_lines(args.corpus)

    small = [pa.array(lines[i * 100 : (i + 1) * 100]) for i in range(2000)]
    assert all(len(a) == 100 for a in small), "the corpus needs 200,000 lines"
    for a in small[:50]:
        assert urlsift.normalize(a, threads=2).equals(urlsift.normalize(a))
    # (Builds that predate the counter report none.)
    pools_built = getattr(_urlsift, "_pools_built", lambda: None)
    pools_before = pools_built()
    default, threaded = interleaved_best(
        args.rounds,
        [
            lambda: [urlsift.normalize(a) for a in small],
            lambda: [urlsift.normalize(a, threads=2) for a in small],
        ],
    )
    print(f"## 2,000 calls of 100 URLs ({args.corpus}), best of {args.rounds}\n")
    print("| way | seconds | vs default | goal |")
    print("|---|---:|---:|---|")
    print(f"| default (calling thread) | {default:.3f} | 1.00x | |")
    ratio = threaded / default
    verdict = "met" if ratio <= 1.5 else "**missed**"
    print(f"| threads=2 | {threaded:.3f} | {ratio:.2f}x | within 1.5x: {verdict} |")
    if pools_before is not None:
        print(f"\npools built during the small calls: {pools_built() - pools_before}")
    print()

    print("## One call on N rows: calling thread vs threads=2\n")
    print("| rows | calling thread (ms) | threads=2 (ms) | threads=2 speedup |")
    print("|---:|---:|---:|---:|")
    n = 256
    while n <= min(65536, len(lines)):
        rows = pa.array(lines[:n])
        assert urlsift.normalize(rows, threads=2).equals(urlsift.normalize(rows))
        one, two = interleaved_best(
            max(args.rounds, 5) * 4,
            [lambda: urlsift.normalize(rows), lambda: urlsift.normalize(rows, threads=2)],
        )
        print(f"| {n} | {one * 1e3:.3f} | {two * 1e3:.3f} | {one / two:.2f}x |")
        n *= 2


if __name__ == "__main__":
    main()

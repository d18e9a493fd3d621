#!/usr/bin/env python3
"""The Spark job's overhead over one `dicelens analyze`, measured in the same run.

Simulates a corpus (default: 20,000 two-seat yahtzee games), times one `dicelens analyze` of it
and the Spark job in local mode on the same input and flags (wall clock of the whole command,
JVM start and merge included), checks that the outputs are byte-identical, and prints both
times and their ratio. Tables come from $DICELENS_TABLES (build them first: the times should
not include building them).

    python3 spark/bench_overhead.py [--games 20000] [--master 'local[2]'] [--split-size 4M]
        [--repeat N] [-- ANALYZE FLAGS, e.g. --oracle reference]

With --repeat N the two commands alternate N times and the medians are compared (the machine
is shared and noisy).
"""

from __future__ import annotations

import argparse
import filecmp
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dicelens_spark  # noqa: E402  (the job's own binary lookup and size parser)


def timed(command: list[str], cwd: str) -> float:
    """Runs `command` in `cwd` (stdout discarded, stderr kept for failures); returns its wall
    time in seconds, or exits with its stderr if it fails."""
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr[-3000:]}")
    return seconds


def same_outputs(a: str, b: str) -> bool:
    """Whether two output directories hold the same file names with the same bytes."""
    names = sorted(os.listdir(a))
    if names != sorted(os.listdir(b)):
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
    return not mismatch and not errors


def main() -> int:
    """Measures and prints; exit code 1 if the outputs differ."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rules", default="yahtzee")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--split-size", default="4M", help="the job's --split-size (default 4M)")
    parser.add_argument("--dicelens", help="the binary (default as the job finds it)")
    parser.add_argument("--repeat", type=int, default=1, help="alternate the two commands N times")
    parser.add_argument("--workdir", help="keep the corpus and outputs here (default: a temporary directory)")
    parser.add_argument("flags", nargs=argparse.REMAINDER, help="-- then analyze flags for both runs")
    args = parser.parse_args()
    flags = args.flags[1:] if args.flags[:1] == ["--"] else args.flags
    binary = dicelens_spark.find_binary(args.dicelens)
    job = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dicelens_spark.py")
    with tempfile.TemporaryDirectory(prefix="dicelens-spark-bench-") as tmp:
        work = os.path.abspath(args.workdir or tmp)
        os.makedirs(work, exist_ok=True)
        timed([binary, "simulate", "--rules", args.rules, "--seats", str(args.seats),
               "--players", str(args.players), "--games", str(args.games), "--seed", str(args.seed),
               "--out", "corpus.ygn"], work)
        size = os.path.getsize(os.path.join(work, "corpus.ygn"))
        split = dicelens_spark.parse_size(args.split_size)
        partitions = len(dicelens_spark.plan_partitions(["corpus.ygn"], [size], split))
        singles, sparks = [], []
        for _ in range(args.repeat):
            singles.append(timed([binary, "analyze", "corpus.ygn", *flags, "--out", "one"], work))
            sparks.append(timed([sys.executable, job, "--master", args.master, "--split-size",
                                 args.split_size, "--dicelens", binary, *flags, "corpus.ygn",
                                 "--out", "spark"], work))
            print(f"run {len(sparks)}: analyze {singles[-1]:.2f} s, Spark job {sparks[-1]:.2f} s, "
                  f"ratio {sparks[-1] / singles[-1]:.2f}", flush=True)
        identical = same_outputs(os.path.join(work, "one"), os.path.join(work, "spark"))
    single, spark = statistics.median(singles), statistics.median(sparks)
    print(f"corpus: {args.games:,} games of {args.seats} seats ({args.rules}), {size:,} bytes; "
          f"analyze flags: {' '.join(flags) or '(defaults)'}")
    runs = f"median of {args.repeat} runs" if args.repeat > 1 else "one run"
    print(f"one analyze: {single:.2f} s ({args.games / single:,.0f} games/s), {runs}")
    print(f"Spark job ({args.master}, {partitions} partitions of {args.split_size}): {spark:.2f} s "
          f"({args.games / spark:,.0f} games/s), {runs}")
    print(f"ratio Spark job / analyze: {spark / single:.2f} (overhead {spark - single:+.2f} s)")
    print(f"outputs byte-identical: {'yes' if identical else 'NO'}")
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())

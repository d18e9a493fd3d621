#!/usr/bin/env python3
"""The speed regression gate (PERFORMANCE.md, "Regression gate").

Measures, in one run of one binary, ratios of times that do not depend on how fast the machine
is, and fails when a ratio exceeds its ceiling (benches/gate_ceilings.json: 1.5 times the ratio
measured when the ceilings were set):

  default_over_solitaire  analyze of a two-seat corpus with the default oracle, over the same
                          analyze with the solitaire oracle (`--oracle e`)
  reference_over_default  the reference oracle over the default, on a smaller two-seat corpus
  analyze_over_read       one-seat analyze (`--oracle e`) over a plain read (`ids`) of the log
  dist_over_expected      the distribution table's build over the expected-score table's
                          (`bench build`: last layers of yahtzee-kurnik, in memory)

Each command runs --runs times, alternating with the one it is compared to; a ratio is the
ratio of the least times (the run least disturbed by other work on a shared machine: other
work only ever adds time). Commands are timed in CPU seconds (user and system, all threads),
which other work on the machine changes much less than wall-clock time; the two table builds
in wall-clock seconds, as `bench build` reports them (both run on every core). A ratio above its ceiling is measured --runs times
more, up to twice, before the gate fails.

  python3 benches/gate.py [--binary PATH] [--tables DIR] [--runs N] [--json FILE] [--ceilings FILE]
  python3 benches/gate.py --judge FILE     judge the timings in FILE (what --json wrote) only

The tables directory must hold yahtzee's expected-score and distribution tables (the test
suite's, in CI); anything missing is built first, outside the timings. Exit status: 0 when
every ratio is within its ceiling, 1 when one is above, 2 when the gate cannot run.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CEILINGS = os.path.join(HERE, "gate_ceilings.json")

# How many more times a ratio above its ceiling is measured before the gate fails.
AGAIN = 2

# The two commands each ratio compares: (numerator, denominator).
RATIOS = {
    "default_over_solitaire": ("two_seat_default", "two_seat_solitaire"),
    "reference_over_default": ("small_two_seat_reference", "small_two_seat_default"),
    "analyze_over_read": ("one_seat_analyze", "one_seat_ids"),
    "dist_over_expected": ("dist_build", "expected_build"),
}


def judge(timings, ceilings):
    """The ratios of the least times of `timings` (name -> list of seconds), each with its
    ceiling and whether it passes; and whether all pass."""
    rows = []
    for name, (top, bottom) in RATIOS.items():
        ratio = min(timings[top]) / min(timings[bottom])
        ceiling = ceilings[name]
        rows.append((name, ratio, ceiling, ratio <= ceiling))
    return rows, all(ok for *_, ok in rows)


def report(rows):
    lines = ["ratio                      measured  ceiling  verdict"]
    for name, ratio, ceiling, ok in rows:
        lines.append(f"{name:<26} {ratio:8.3f} {ceiling:8.3f}  {'pass' if ok else 'FAIL'}")
    return "\n".join(lines)


class Runner:
    """Runs the binary with the tables and times whole commands (sequentially: the CPU time of
    a command is that of the children reaped while it ran)."""

    def __init__(self, binary, tables, work):
        self.binary, self.work = binary, work
        self.env = dict(os.environ, DICELENS_TABLES=tables)
        self.env.pop("RAYON_NUM_THREADS", None)

    def run(self, args):
        """Runs the binary with `args`: the CPU seconds it took (user and system, all its
        threads) and its standard output."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(
            [self.binary, *args],
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        took = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if done.returncode != 0:
            raise SystemExit(f"gate: {' '.join(args)} failed ({done.returncode}):\n{done.stderr}")
        return took, done.stdout

    def path(self, name):
        return os.path.join(self.work, name)


def prepare(runner):
    """The corpora and tables (outside the timings), then the timed commands: name -> a
    function running it once and returning its seconds ("dist_build" and "expected_build" are
    timed together, by one `bench build`)."""
    r = runner
    r.run(["simulate", "--rules", "yahtzee", "--seats", "2", "--players", "20", "--games", "3000",
           "--seed", "29", "--out", r.path("two.ygn")])
    r.run(["simulate", "--rules", "yahtzee", "--seats", "2", "--players", "10", "--games", "100",
           "--seed", "30", "--out", r.path("small.ygn")])
    r.run(["simulate", "--rules", "yahtzee", "--seats", "1", "--players", "100", "--games",
           "40000", "--seed", "31", "--out", r.path("one.ygn")])
    # Tables first, outside the timings (built only if missing).
    r.run(["tables", "build", "--rules", "yahtzee"])
    r.run(["tables", "build", "--dist", "--rules", "yahtzee"])

    def analyze(log, oracle):
        return lambda: r.run(["analyze", r.path(log), "--oracle", oracle, "--min-games", "20",
                              "--out", r.path(f"out-{log}-{oracle}")])[0]

    def build():
        _, out = r.run(["bench", "build", "--rules", "yahtzee-kurnik", "--from-filled", "10",
                        "--runs", "1"])
        line = json.loads(out)
        return line["dist_s"], line["expected_s"]

    return {
        "two_seat_default": analyze("two.ygn", "default"),
        "two_seat_solitaire": analyze("two.ygn", "e"),
        "small_two_seat_reference": analyze("small.ygn", "reference"),
        "small_two_seat_default": analyze("small.ygn", "default"),
        "one_seat_analyze": analyze("one.ygn", "e"),
        "one_seat_ids": lambda: r.run(["ids", r.path("one.ygn")])[0],
        "builds": build,
    }


def measure(commands, ratios, runs, timings):
    """Adds to `timings` `runs` runs of the two commands of each ratio named in `ratios`,
    alternating them."""
    for _ in range(runs):
        for name in ratios:
            top, bottom = RATIOS[name]
            if top == "dist_build":
                dist, expected = commands["builds"]()
                timings[top].append(dist)
                timings[bottom].append(expected)
            else:
                timings[top].append(commands[top]())
                timings[bottom].append(commands[bottom]())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default="target/release/dicelens")
    parser.add_argument("--tables", default=os.environ.get("DICELENS_TABLES", "tables"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", help="write the timings and ratios to this file")
    parser.add_argument("--judge", help="judge the timings of this file only")
    parser.add_argument("--ceilings", default=CEILINGS, help="the ceilings (default: %(default)s)")
    args = parser.parse_args()
    with open(args.ceilings) as f:
        ceilings = json.load(f)["ceilings"]
    if args.judge:
        with open(args.judge) as f:
            timings = json.load(f)["timings"]
    else:
        if not os.access(args.binary, os.X_OK):
            print(f"gate: no binary at {args.binary}", file=sys.stderr)
            return 2
        os.makedirs(args.tables, exist_ok=True)
        started = time.perf_counter()
        timings = {name: [] for pair in RATIOS.values() for name in pair}
        with tempfile.TemporaryDirectory() as work:
            commands = prepare(Runner(args.binary, os.path.abspath(args.tables), work))
            measure(commands, RATIOS, args.runs, timings)
            # A ratio above its ceiling is measured again (its least times can only fall), so
            # that one disturbed round on a shared machine does not fail the gate; a real
            # slowdown stays above.
            for _ in range(AGAIN):
                above = [name for name, _, _, ok in judge(timings, ceilings)[0] if not ok]
                if not above:
                    break
                print(f"gate: above the ceiling, measuring again: {', '.join(above)}",
                      file=sys.stderr)
                measure(commands, above, args.runs, timings)
        print(f"gate: measured in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    rows, ok = judge(timings, ceilings)
    print(report(rows))
    if args.json:
        with open(args.json, "w") as f:
            ratios = {name: ratio for name, ratio, _, _ in rows}
            json.dump({"timings": timings, "ratios": ratios}, f, indent=1)
            f.write("\n")
    print("gate: pass" if ok else "gate: FAIL (a ratio is above its ceiling)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

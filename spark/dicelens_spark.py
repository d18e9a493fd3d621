#!/usr/bin/env python3
"""`dicelens analyze` of a large corpus on Apache Spark (or on one machine in local mode).

The driver cuts the corpus into partitions (consecutive small files together, large files
into byte ranges, as Hadoop input splits do), runs `dicelens ids` on every partition as one
Spark job, finds Spark-side which game ids each partition holds that an earlier partition
already held, runs `dicelens analyze --byte-range ... --seen-ids ...` on every partition as a
second Spark job (each task writing its shard directory atomically, so that a retried task is
counted once), and merges the shards on the driver with `dicelens merge --partitions`. The
outputs are byte for byte those of one `dicelens analyze` of the whole corpus.

Usage: see spark/README.md, or `python3 spark/dicelens_spark.py --help`.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import fcntl
import io
import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from typing import Iterable, Iterator, Optional, Sequence

LOG = logging.getLogger("dicelens-spark")

DEFAULT_SPLIT_SIZE = 64 << 20
DEFAULT_MASTER = "local[*,4]"
IDS_GROUP = "dicelens-ids"
ANALYZE_GROUP = "dicelens-analyze"
LOCK_NAME = ".dicelens-spark.lock"
ERROR_TAG = "DICELENS_SPARK_ERROR"


@dataclasses.dataclass(frozen=True)
class PassFlag:
    """An analyze flag the job passes on unchanged (and to `merge` and `ids` where they take it)."""

    name: str
    takes_value: bool
    help: str
    to_merge: bool = False
    to_ids: bool = False

    @property
    def dest(self) -> str:
        """The argparse attribute of the flag."""
        return self.name.lstrip("-").replace("-", "_")


PASS_FLAGS = (
    PassFlag("--min-games", True, "least games for the leaderboard", to_merge=True),
    PassFlag("--top", True, "leaderboard lines printed", to_merge=True),
    PassFlag("--json", False, "print the leaderboard as JSON", to_merge=True),
    PassFlag("--decisions", False, "also write decisions.csv"),
    PassFlag("--rules", True, "rate only games of this rule set"),
    PassFlag("--format", True, "input format (auto, ygn, verhoeff, jsonl)", to_ids=True),
    PassFlag("--include-unfinished", False, "rate games that ended early too"),
    PassFlag("--tables", True, "table directory (see README: on a cluster)", to_merge=True),
    PassFlag("--oracle", True, "oracle for games of several players (a spec: docs/oracles.md)"),
)


@dataclasses.dataclass(frozen=True)
class Partition:
    """One unit of work: whole consecutive files, or one byte range [start, end) of one file."""

    index: int
    files: tuple[str, ...]
    byte_range: Optional[tuple[int, int]] = None
    size: int = 0

    def input_args(self) -> list[str]:
        """The files (as the user gave them) and the byte range, as dicelens takes them."""
        args = list(self.files)
        if self.byte_range is not None:
            args += ["--byte-range", f"{self.byte_range[0]}:{self.byte_range[1]}"]
        return args

    def label(self) -> str:
        """A short description for logs and error messages."""
        if self.byte_range is not None:
            return f"{self.files[0]} bytes {self.byte_range[0]}-{self.byte_range[1]}"
        if len(self.files) == 1:
            return self.files[0]
        return f"{self.files[0]} .. {self.files[-1]} ({len(self.files)} files)"


@dataclasses.dataclass(frozen=True)
class TaskSettings:
    """Everything a task needs, sent with it to the executors."""

    binary: str
    shipped: bool
    workdir: str
    shards: str
    analyze_flags: tuple[str, ...]
    ids_flags: tuple[str, ...]
    tables: Optional[str]
    build_tables: Optional[str]
    build_dist: Optional[str]
    threads: int
    test_kills: tuple[tuple[int, str], ...] = ()
    test_markers: Optional[str] = None


class DicelensTaskError(RuntimeError):
    """A dicelens command of a task failed; the message names the partition."""


# ---------------------------------------------------------------------------------------------
# Planning (driver)


def parse_size(text: str) -> int:
    """A byte count: digits with an optional K, M or G suffix (powers of 1024)."""
    match = re.fullmatch(r"\s*(\d+)\s*([KMG]?)i?B?\s*", text, re.IGNORECASE)
    if not match or int(match.group(1)) == 0:
        raise argparse.ArgumentTypeError(f"not a positive size: {text!r} (e.g. 65536, 64M, 1G)")
    shift = {"": 0, "K": 10, "M": 20, "G": 30}[match.group(2).upper()]
    return int(match.group(1)) << shift


# The first bytes of the compressed files dicelens reads (gzip, zstd): such a file is read as a
# stream, from its start, so it cannot be cut into byte ranges.
COMPRESSED_MAGIC = (b"\x1f\x8b", b"\x28\xb5\x2f\xfd")


def is_splittable(path: str) -> bool:
    """Whether byte ranges of `path` can be rated apart: not a compressed file (recognised, as
    dicelens does, by its first bytes, whatever its name)."""
    try:
        with open(path, "rb") as f:
            head = f.read(4)
    except OSError:
        return True
    return not any(head.startswith(magic) for magic in COMPRESSED_MAGIC)


def plan_partitions(
    files: Sequence[str],
    sizes: Sequence[int],
    split_size: int,
    splittable: Optional[Sequence[bool]] = None,
) -> list[Partition]:
    """Cuts the corpus, in order, into partitions of about `split_size` bytes.

    A file larger than `split_size` becomes consecutive byte ranges of `split_size` bytes (the
    last one shorter); dicelens rates in each range the games that start there. Smaller files
    are kept whole, consecutive ones grouped while the group stays within `split_size`. A file
    that is not splittable (`splittable[i]` false: a gzip or zstd file) is one partition of its
    own however large, as Hadoop keeps files of such codecs whole.
    """
    if splittable is None:
        splittable = [True] * len(files)
    partitions: list[Partition] = []
    group: list[str] = []
    group_size = 0

    def add(files: Sequence[str], byte_range: Optional[tuple[int, int]], size: int) -> None:
        partitions.append(Partition(len(partitions), tuple(files), byte_range, size))

    def close_group() -> None:
        nonlocal group, group_size
        if group:
            add(group, None, group_size)
        group, group_size = [], 0

    for path, size, can_split in zip(files, sizes, splittable):
        if size > split_size and not can_split:
            close_group()
            add([path], None, size)
        elif size > split_size:
            close_group()
            for start in range(0, size, split_size):
                end = min(start + split_size, size)
                add([path], (start, end), end - start)
        else:
            if group and group_size + size > split_size:
                close_group()
            group.append(path)
            group_size += size
    close_group()
    return partitions


def find_binary(given: Optional[str]) -> str:
    """The dicelens binary on the driver, as an absolute path: `--dicelens`, else `dicelens` on
    PATH, else ./target/release/dicelens, else the one built beside this script's repository."""
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = (
        [given]
        if given
        else [
            shutil.which("dicelens"),
            os.path.join("target", "release", "dicelens"),
            os.path.join(here, "..", "target", "release", "dicelens"),
        ]
    )
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    wanted = given or "dicelens on PATH or target/release/dicelens (cargo build --release)"
    raise SystemExit(f"dicelens-spark: no dicelens binary: {wanted}")


def flag_args(args: argparse.Namespace, keep) -> list[str]:
    """The pass-through flags the user gave, for the commands `keep(flag)` selects."""
    out: list[str] = []
    for flag in PASS_FLAGS:
        value = getattr(args, flag.dest)
        if not keep(flag) or value in (None, False):
            continue
        out += [flag.name, str(value)] if flag.takes_value else [flag.name]
    return out


def parse_test_kill(text: str) -> tuple[int, str]:
    """`PARTITION:MODE` of --test-kill (MODE `child` or `worker`)."""
    index, _, mode = text.partition(":")
    if not index.isdigit() or mode not in ("child", "worker"):
        raise argparse.ArgumentTypeError(f"expected PARTITION:child or PARTITION:worker, not {text!r}")
    return int(index), mode


# ---------------------------------------------------------------------------------------------
# Tasks (executors)


def task_binary(settings: TaskSettings) -> str:
    """The binary on this executor: the shipped copy (SparkFiles), or the driver's path."""
    if not settings.shipped:
        return settings.binary
    from pyspark import SparkFiles

    path = SparkFiles.get(os.path.basename(settings.binary))
    if not os.access(path, os.X_OK):
        os.chmod(path, os.stat(path).st_mode | 0o111)
    return path


def task_cwd(settings: TaskSettings) -> Optional[str]:
    """The directory dicelens runs in: the driver's working directory, so that relative paths
    mean the same; on an executor without it, the task's own (absolute paths needed)."""
    return settings.workdir if os.path.isdir(settings.workdir) else None


def run_dicelens(
    settings: TaskSettings,
    partition: Partition,
    args: Sequence[str],
    kill_child: bool = False,
) -> str:
    """Runs dicelens with `args` for `partition`; returns its stdout, or raises
    DicelensTaskError naming the partition and quoting dicelens's last lines of stderr.
    `kill_child` (a test hook) kills it with SIGKILL as soon as it has started."""
    env = dict(os.environ, RAYON_NUM_THREADS=str(settings.threads))
    command = [task_binary(settings), *args]
    child = subprocess.Popen(
        command,
        cwd=task_cwd(settings),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    if kill_child:
        child.send_signal(signal.SIGKILL)
    stdout, stderr = child.communicate()
    if child.returncode != 0:
        how = (
            f"killed by signal {-child.returncode}"
            if child.returncode < 0
            else f"exit code {child.returncode}"
        )
        tail = " | ".join([line.strip() for line in stderr.splitlines() if line.strip()][-5:])
        raise DicelensTaskError(
            f"{ERROR_TAG} partition {partition.index} ({partition.label()}): "
            f"dicelens {args[0]} failed ({how}): {tail}"
        )
    return stdout


def partition_ids(settings: TaskSettings, partition: Partition) -> Iterator[tuple[str, int]]:
    """Task of the ids job: (game id, partition index) for every distinct id of a partition."""
    index = partition.index
    stdout = run_dicelens(settings, partition, ["ids", *partition.input_args(), *settings.ids_flags])
    rows = csv.reader(io.StringIO(stdout))
    header = next(rows, None)
    if header != ["game_id"]:
        raise DicelensTaskError(
            f"{ERROR_TAG} partition {index}: dicelens ids printed {header!r}, not a game_id header"
        )
    seen: set[str] = set()
    for row in rows:
        if row and row[0] not in seen:
            seen.add(row[0])
            yield row[0], index


def repeats(item: tuple[str, Iterable[int]]) -> Iterator[tuple[int, str]]:
    """(partition, id) for every partition that holds the id after the first one that does."""
    game_id, indices = item
    for index in sorted(indices)[1:]:
        yield index, game_id


def own_partition(index: int) -> int:
    """Partitioner: key p goes to Spark partition p (so task p analyses partition p)."""
    return index


_TABLES_READY: set[tuple] = set()


def ensure_tables(settings: TaskSettings) -> None:
    """Builds the tables `--build-tables`/`--build-dist` name if they are missing, once per
    Python worker, holding a lock file in the table directory so that tasks sharing it (on one
    executor, or on every node when it is on shared storage) do not build the same table at once."""
    key = (settings.tables, settings.build_tables, settings.build_dist)
    if key in _TABLES_READY or not (settings.build_tables or settings.build_dist):
        return
    directory = settings.tables or os.environ.get("DICELENS_TABLES") or "tables"
    directory = os.path.join(task_cwd(settings) or os.getcwd(), directory)
    os.makedirs(directory, exist_ok=True)
    tables = ["--tables", settings.tables] if settings.tables else []
    builds = [
        ["tables", "build", "--rules", rules, *extra, *tables]
        for rules, extra in ((settings.build_tables, []), (settings.build_dist, ["--dist"]))
        if rules
    ]
    placeholder = Partition(-1, ("(tables)",))
    with open(os.path.join(directory, LOCK_NAME), "a") as lock:
        fcntl.lockf(lock, fcntl.LOCK_EX)
        try:
            for build in builds:
                run_dicelens(settings, placeholder, build)
        finally:
            fcntl.lockf(lock, fcntl.LOCK_UN)
    _TABLES_READY.add(key)


def shard_path(shards: str, index: int) -> str:
    """Where partition `index`'s finished shard lives (whatever attempt wrote it)."""
    return os.path.join(shards, f"part-{index:05d}")


def publish_shard(tmp: str, final: str) -> None:
    """Moves a finished shard into place by rename, replacing what an earlier attempt left."""
    old = None
    if os.path.exists(final):
        old = f"{final}.old-{uuid.uuid4().hex}"
        os.rename(final, old)
    os.rename(tmp, final)
    if old:
        shutil.rmtree(old, ignore_errors=True)


def test_kill_mode(settings: TaskSettings, index: int, attempt: int) -> Optional[str]:
    """Test hook: records this attempt in the marker directory and returns how to kill it
    (`child` or `worker`) if --test-kill names the partition and it was not killed before."""
    if settings.test_markers is None:
        return None
    os.makedirs(settings.test_markers, exist_ok=True)
    marker = os.path.join(settings.test_markers, f"p{index}.attempt{attempt}.{uuid.uuid4().hex}")
    open(marker, "w").close()
    for kill_index, mode in settings.test_kills:
        if kill_index == index:
            try:
                fd = os.open(os.path.join(settings.test_markers, f"p{index}.killed"), os.O_CREAT | os.O_EXCL)
            except FileExistsError:
                return None
            os.close(fd)
            return mode
    return None


def seen_ids_args(directory: str, ids: Iterable[str]) -> list[str]:
    """`--seen-ids FILE` for `ids` (a CSV file as `dicelens ids` prints, written in
    `directory`), or nothing when there are none."""
    ids = sorted(ids)
    if not ids:
        return []
    path = os.path.join(directory, "seen-ids.csv")
    with open(path, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["game_id"])
        writer.writerows([game_id] for game_id in ids)
    return ["--seen-ids", path]


def analyze_partition(settings: TaskSettings, plan, index: int, repeated: Iterable[tuple[int, str]]) -> Iterator[dict]:
    """Task of the analyze job for partition `index` of the `plan` (a broadcast list of the
    partitions): analyses it, skipping the `repeated` ids (an earlier partition holds them),
    into a temporary shard renamed into place when complete; yields its counts."""
    partition = plan.value[index]
    seen_ids = [game_id for _, game_id in repeated]
    from pyspark import TaskContext

    context = TaskContext.get()
    attempt = context.attemptNumber() if context else 0
    kill = test_kill_mode(settings, index, attempt)
    ensure_tables(settings)
    started = time.monotonic()
    final = shard_path(settings.shards, index)
    tmp = os.path.join(settings.shards, f".tmp-{index:05d}-{attempt}-{uuid.uuid4().hex}")
    with tempfile.TemporaryDirectory(prefix="dicelens-spark-") as local:
        command = [
            # A partition may rate no game (all its games repeats, say): --allow-empty, the
            # merge judges the whole corpus.
            "analyze", *partition.input_args(), *seen_ids_args(local, seen_ids),
            *settings.analyze_flags, "--allow-empty", "--out", tmp,
        ]
        try:
            run_dicelens(settings, partition, command, kill_child=kill == "child")
            publish_shard(tmp, final)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    if kill == "worker":
        os.kill(os.getpid(), signal.SIGKILL)
    summary = read_summary(final)
    yield {
        "index": index,
        "games_read": summary.get("games_read", 0),
        "games_rated": summary.get("games_rated", 0),
        "seen_ids": len(seen_ids),
        "attempt": attempt,
        "seconds": round(time.monotonic() - started, 3),
    }


def read_summary(shard: str) -> dict:
    """A shard's summary.json (empty if it cannot be read)."""
    try:
        with open(os.path.join(shard, "summary.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


# ---------------------------------------------------------------------------------------------
# Progress (driver)


class Progress:
    """Logs from a driver thread how far the running phase is: tasks done and running (from
    Spark's status tracker) and, in the analyze phase, each finished partition and the games
    rated so far (from the shards as they appear)."""

    def __init__(self, sc, partitions: Sequence[Partition], shards: str, interval: float):
        """Watches `partitions`, whose shards appear in `shards`, every `interval` seconds."""
        self.sc = sc
        self.partitions = partitions
        self.shards = shards
        self.interval = interval
        self.group: Optional[str] = None
        self.name = ""
        self.first_stage = False
        self.logged: set[int] = set()
        self.games = 0
        self.last_line = ""
        self.last_time = 0.0
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self.loop, name="dicelens-progress", daemon=True)

    def __enter__(self) -> "Progress":
        """Starts the thread."""
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        """Stops the thread after a last report."""
        self.stop_event.set()
        self.thread.join()
        self.report()

    def phase(self, group: str, name: str, first_stage: bool = False) -> None:
        """Follows the Spark jobs of `group` from now on, logged as `name`: the tasks of their
        last stage (of their first if `first_stage`)."""
        self.report()
        self.group, self.name, self.first_stage, self.last_line = group, name, first_stage, ""

    def loop(self) -> None:
        """Reports every `interval` seconds until stopped."""
        while not self.stop_event.wait(self.interval):
            try:
                self.report()
            except Exception as e:  # the status tracker is gone when Spark stops
                LOG.debug("progress: %s", e)

    def task_counts(self) -> Optional[tuple[int, int, int, int]]:
        """(done, running, failed attempts, tasks) of the followed stage of the group's last job."""
        if self.group is None:
            return None
        tracker = self.sc.statusTracker()
        jobs = sorted(tracker.getJobIdsForGroup(self.group))
        info = tracker.getJobInfo(jobs[-1]) if jobs else None
        pick = min if self.first_stage else max
        stage = tracker.getStageInfo(pick(info.stageIds)) if info and info.stageIds else None
        if stage is None:
            return None
        return (stage.numCompletedTasks, stage.numActiveTasks, stage.numFailedTasks, stage.numTasks)

    def new_shards(self) -> None:
        """Logs each partition whose shard has appeared since the last call, once."""
        if self.group != ANALYZE_GROUP:
            return
        for partition in self.partitions:
            if partition.index in self.logged:
                continue
            summary = read_summary(shard_path(self.shards, partition.index))
            if "games_rated" in summary:
                self.logged.add(partition.index)
                self.games += summary["games_rated"]
                LOG.info(
                    "partition %d done (%s): %d games rated",
                    partition.index, partition.label(), summary["games_rated"],
                )

    def report(self) -> None:
        """Logs the phase's counts if they changed (or a minute passed)."""
        self.new_shards()
        counts = self.task_counts()
        if counts is None:
            return
        done, running, failed, tasks = counts
        line = f"{self.name}: {done}/{tasks} partitions done, {running} running"
        if failed:
            line += f", {failed} failed attempts (retried)"
        if self.group == ANALYZE_GROUP:
            line += f"; {self.games:,} games rated so far"
        if line != self.last_line or time.monotonic() - self.last_time > 60:
            LOG.info("%s", line)
            self.last_line, self.last_time = line, time.monotonic()


# ---------------------------------------------------------------------------------------------
# The job (driver)


def describe_failure(error: Exception, partitions: Sequence[Partition]) -> str:
    """A one-line account of a failed Spark job: the partition, its attempts, dicelens's words."""
    text = str(error)
    ours = re.findall(rf"{ERROR_TAG} (.*)", text)
    attempts = re.search(r"Task (\d+) in stage \S+ failed (\d+) times", text)
    where = ""
    if attempts and int(attempts.group(1)) < len(partitions):
        partition = partitions[int(attempts.group(1))]
        where = f"partition {partition.index} ({partition.label()}) failed {attempts.group(2)} times; "
    if ours:
        return where + "last error: " + ours[-1].strip()
    crash = re.search(r"(Python worker exited unexpectedly[^\n]*|ExecutorLostFailure[^\n]*)", text)
    lines = [line for line in text.splitlines() if line.strip()]
    return where + "last error: " + (crash.group(1) if crash else (lines[0] if lines else repr(error)))


def configure_logging() -> None:
    """The job's log lines on stderr (Spark's own logging is configured by Spark)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s: %(message)s"))
    LOG.addHandler(handler)
    LOG.setLevel(logging.INFO)
    LOG.propagate = False


def parse_args(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    """The job's command line."""
    parser = argparse.ArgumentParser(
        prog="dicelens_spark.py",
        description="dicelens analyze of a corpus on Apache Spark (local mode or a cluster); "
        "the outputs are byte for byte those of one `dicelens analyze FILES`.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="log files, in corpus order (paths as analyze takes them)")
    parser.add_argument("--out", default="analysis", help="output directory (default: analysis)")
    job = parser.add_argument_group("job")
    job.add_argument("--master", help=f"Spark master (default: spark-submit's, else {DEFAULT_MASTER}: "
                     "every core, a failed task tried up to 4 times)")
    job.add_argument("--split-size", type=parse_size, default=DEFAULT_SPLIT_SIZE, metavar="BYTES",
                     help="files larger than this are cut into byte ranges of this size, smaller "
                     "consecutive files grouped up to it (default 64M)")
    job.add_argument("--dicelens", metavar="PATH", help="the dicelens binary (default: dicelens on "
                     "PATH, else target/release/dicelens)")
    job.add_argument("--ship-binary", action="store_true", help="tasks run the binary shipped with "
                     "the job (SparkContext.addFile, or spark-submit --files) instead of PATH itself")
    job.add_argument("--shards", metavar="DIR", help="directory of the partitions' shards, on storage "
                     "the driver and executors share (default: OUT.shards); removed after the merge")
    job.add_argument("--keep-shards", action="store_true", help="keep the shards after the merge")
    job.add_argument("--workdir", metavar="DIR", help="directory dicelens runs in on the executors, "
                     "against which relative paths are read (default: the driver's working directory)")
    job.add_argument("--threads-per-task", type=int, metavar="N", help="RAYON_NUM_THREADS of each "
                     "dicelens task (default: spark.task.cpus, more when there are fewer partitions "
                     "than cores)")
    job.add_argument("--build-tables", metavar="RULES", help="before its first partition, each Python "
                     "worker builds the missing expected-score tables of RULES (dicelens tables build "
                     "--rules RULES) under a lock file in the table directory")
    job.add_argument("--build-dist", metavar="RULES", help="the same for the distribution tables "
                     "(tables build --dist), which match-point oracles need")
    job.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE", help="a Spark setting")
    job.add_argument("--progress-interval", type=float, default=5.0, metavar="SECONDS",
                     help="how often the driver logs progress (default 5)")
    job.add_argument("--analyze-arg", action="append", default=[], metavar="ARG",
                     help="another argument for every partition's analyze (repeat; e.g. --analyze-arg=--flag)")
    job.add_argument("--test-kill", action="append", default=[], type=parse_test_kill,
                     metavar="PARTITION:MODE", help=argparse.SUPPRESS)
    job.add_argument("--test-markers", metavar="DIR", help=argparse.SUPPRESS)
    analyze = parser.add_argument_group("analyze flags (passed on unchanged)")
    for flag in PASS_FLAGS:
        if flag.takes_value:
            analyze.add_argument(flag.name, help=flag.help)
        else:
            analyze.add_argument(flag.name, action="store_true", help=flag.help)
    args = parser.parse_intermixed_args(argv)
    if args.test_kill and not args.test_markers:
        parser.error("--test-kill needs --test-markers DIR")
    return args


def start_spark(args: argparse.Namespace):
    """The SparkContext: the job's master and settings; Spark's own logging at WARN."""
    try:
        from pyspark import SparkConf, SparkContext
    except ImportError:
        raise SystemExit(
            f"dicelens-spark: {sys.executable} cannot import pyspark: "
            "pip install -r spark/requirements.txt (and Java: see spark/README.md)"
        )

    conf = SparkConf().setAppName("dicelens analyze")
    conf.setIfMissing("spark.ui.showConsoleProgress", "false")
    for setting in args.conf:
        key, sep, value = setting.partition("=")
        if not sep:
            raise SystemExit(f"dicelens-spark: --conf takes KEY=VALUE, not {setting!r}")
        conf.set(key, value)
    if args.master:
        conf.setMaster(args.master)
    elif not conf.contains("spark.master"):
        conf.setMaster(DEFAULT_MASTER)
    if conf.get("spark.master", "").startswith("local"):
        # Local workers run this interpreter, the one that imports pyspark.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    sc = SparkContext.getOrCreate(conf)
    sc.setLogLevel("WARN")
    return sc


def default_threads(sc, partitions: int) -> int:
    """Threads of each dicelens task: spark.task.cpus, or more when there are fewer partitions
    than cores (the cores the tasks would leave idle, at most one executor's)."""
    conf = sc.getConf()
    task_cpus = int(conf.get("spark.task.cpus", "1"))
    cores = sc.defaultParallelism
    executor_cores = int(conf.get("spark.executor.cores", "0")) or cores
    return max(task_cpus, min(cores // max(partitions, 1), executor_cores))


def prepare_shards(directory: str) -> None:
    """Creates the shard directory and removes what an earlier run of the job left in it."""
    os.makedirs(directory, exist_ok=True)
    for name in os.listdir(directory):
        if name.startswith(("part-", ".tmp-")):
            shutil.rmtree(os.path.join(directory, name), ignore_errors=True)


def run_job(sc, settings: TaskSettings, partitions: list[Partition], progress: Progress) -> list[dict]:
    """The two Spark jobs: game ids per partition, then the analyses; returns each partition's
    counts, in partition order."""
    from functools import partial

    from pyspark import StorageLevel

    n = len(partitions)
    if n == 1:
        LOG.info("ids: one partition, so no id repeats one of an earlier partition")
        repeated = sc.parallelize([], 1)
    else:
        progress.phase(IDS_GROUP, "ids", first_stage=True)
        sc.setJobGroup(IDS_GROUP, f"dicelens ids: game ids of {n} partitions, and which repeat")
        # Stage 1 (task p: partition p) runs `dicelens ids`; stage 2 groups the (id, partition)
        # pairs by id; the ids a later partition repeats are then kept in partition p's Spark
        # partition for the analyze job.
        repeated = (
            sc.parallelize(partitions, n)
            .setName("dicelens partitions")
            .flatMap(partial(partition_ids, settings))
            .groupByKey(sc.defaultParallelism)
            .flatMap(repeats)
            .partitionBy(n, own_partition)
            .setName("ids an earlier partition holds, by partition")
            .persist(StorageLevel.MEMORY_AND_DISK)
        )
        LOG.info("ids: %s game ids repeat one of an earlier partition", f"{repeated.count():,}")

    progress.phase(ANALYZE_GROUP, "analyze")
    sc.setJobGroup(ANALYZE_GROUP, f"dicelens analyze: {n} partitions into {settings.shards}")
    plan = sc.broadcast(partitions)
    results = repeated.mapPartitionsWithIndex(partial(analyze_partition, settings, plan)).collect()
    repeated.unpersist()
    return sorted(results, key=lambda r: r["index"])


def log_results(results: Sequence[dict], seconds: float) -> None:
    """The driver's account of the analyze job: partitions, games, repeats, retries, time."""

    def total(key: str) -> str:
        """The sum of one count over the partitions, with thousands separators."""
        return f"{sum(r[key] for r in results):,}"

    LOG.info(
        "analyze: %d partitions, %s games read, %s rated, %s ids already in an earlier "
        "partition, %d partitions retried, %.1f s",
        len(results), total("games_read"), total("games_rated"), total("seen_ids"),
        sum(r["attempt"] > 0 for r in results), seconds,
    )


def start_merge(binary: str, args: argparse.Namespace, shards: Sequence[str]) -> subprocess.Popen:
    """Starts `dicelens merge --partitions` of the shards into --out on the driver; its
    leaderboard goes to stdout and its counts to stderr, as analyze's would."""
    command = [binary, "merge", "--partitions", *shards, "--out", args.out,
               *flag_args(args, lambda f: f.to_merge)]
    LOG.info("merge: %d shards into %s", len(shards), args.out)
    sys.stdout.flush()
    return subprocess.Popen(command)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the job; 0 on success, 1 if a partition failed for good or the merge failed."""
    args = parse_args(argv)
    configure_logging()
    binary = find_binary(args.dicelens)
    try:
        sizes = [os.path.getsize(path) for path in args.files]
    except OSError as e:
        LOG.error("cannot read %s: %s", e.filename, e.strerror)
        return 2
    partitions = plan_partitions(
        args.files, sizes, args.split_size, [is_splittable(path) for path in args.files]
    )
    shards = os.path.abspath(args.shards or args.out.rstrip("/") + ".shards")
    ranges = sum(p.byte_range is not None for p in partitions)
    LOG.info(
        "%d files, %s bytes, in %d partitions (%d byte ranges; split size %s bytes)",
        len(args.files), f"{sum(sizes):,}", len(partitions), ranges, f"{args.split_size:,}",
    )
    for p in partitions:
        LOG.log(logging.INFO if len(partitions) <= 100 else logging.DEBUG,
                "partition %d: %s (%s bytes)", p.index, p.label(), f"{p.size:,}")

    sc = start_spark(args)
    sc.addPyFile(os.path.abspath(__file__))
    if args.ship_binary and os.path.basename(binary) not in {os.path.basename(f) for f in sc.listFiles}:
        sc.addFile(binary)
    settings = TaskSettings(
        binary=binary,
        shipped=args.ship_binary,
        workdir=os.path.abspath(args.workdir or os.getcwd()),
        shards=shards,
        analyze_flags=tuple(flag_args(args, lambda f: True) + args.analyze_arg),
        ids_flags=tuple(flag_args(args, lambda f: f.to_ids)),
        tables=args.tables,
        build_tables=args.build_tables,
        build_dist=args.build_dist,
        threads=args.threads_per_task or default_threads(sc, len(partitions)),
        test_kills=tuple(args.test_kill),
        test_markers=os.path.abspath(args.test_markers) if args.test_markers else None,
    )
    LOG.info("master %s, %d threads per dicelens task", sc.master, settings.threads)
    prepare_shards(shards)
    started = time.monotonic()
    try:
        with Progress(sc, partitions, shards, args.progress_interval) as progress:
            results = run_job(sc, settings, partitions, progress)
    except Exception as e:  # Py4JJavaError: a partition failed for good
        LOG.error("the job failed: %s", describe_failure(e, partitions))
        LOG.error("shards so far are in %s", shards)
        sc.stop()
        return 1
    log_results(results, time.monotonic() - started)
    if [r["index"] for r in results] != [p.index for p in partitions]:
        LOG.error("partition results do not match the partitions: %s", [r["index"] for r in results])
        sc.stop()
        return 1
    merging = start_merge(binary, args, [shard_path(shards, p.index) for p in partitions])
    sc.stop()  # while the merge runs
    code = merging.wait()
    if code != 0:
        LOG.error("dicelens merge failed (exit code %d); the shards are in %s", code, shards)
        return 1
    if not args.keep_shards:
        shutil.rmtree(shards, ignore_errors=True)
    return 0


if __name__ == "__main__":
    # Run the importable module rather than __main__, so that Spark ships the task functions
    # and classes by reference (the module is added to the executors' Python path).
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import dicelens_spark

    sys.exit(dicelens_spark.main())

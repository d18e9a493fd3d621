"""Unit tests of the Spark job's driver-side logic (no Spark needed):
`python3 -m unittest discover -s spark` (tests/spark.rs runs them too)."""

import argparse
import os
import tempfile
import unittest

import dicelens_spark as job


class PlanPartitions(unittest.TestCase):
    """plan_partitions: corpus order, byte ranges of large files, grouping of small ones."""

    def test_ranges_cover_a_large_file_exactly_once(self):
        """Consecutive ranges of split size, the last one shorter, from 0 to the file's size."""
        parts = job.plan_partitions(["big"], [250], 100)
        self.assertEqual([p.byte_range for p in parts], [(0, 100), (100, 200), (200, 250)])
        self.assertEqual([p.index for p in parts], [0, 1, 2])
        self.assertEqual(parts[1].input_args(), ["big", "--byte-range", "100:200"])

    def test_small_files_are_grouped_in_order_up_to_the_split_size(self):
        """Whole files stay whole; a group closes before it would exceed the split size and
        before a file that is cut into ranges."""
        files = ["a", "b", "c", "big", "d", "e"]
        sizes = [40, 50, 30, 150, 0, 100]
        parts = job.plan_partitions(files, sizes, 100)
        self.assertEqual(
            [(p.files, p.byte_range) for p in parts],
            [
                (("a", "b"), None),
                (("c",), None),
                (("big",), (0, 100)),
                (("big",), (100, 150)),
                (("d", "e"), None),
            ],
        )
        self.assertEqual([p.index for p in parts], list(range(5)))
        self.assertEqual(parts[0].input_args(), ["a", "b"])
        self.assertEqual(sum(p.size for p in parts), sum(sizes))

    def test_a_file_of_exactly_the_split_size_is_kept_whole(self):
        """Only files larger than the split size are cut."""
        parts = job.plan_partitions(["x"], [100], 100)
        self.assertEqual([(p.files, p.byte_range) for p in parts], [(("x",), None)])


    def test_a_compressed_file_is_one_partition_however_large(self):
        """gzip and zstd files are read as streams: never cut into byte ranges."""
        parts = job.plan_partitions(["a", "big.gz", "b"], [40, 250, 30], 100, [True, False, True])
        self.assertEqual(
            [(p.files, p.byte_range) for p in parts],
            [(("a",), None), (("big.gz",), None), (("b",), None)],
        )

    def test_compression_is_told_by_the_first_bytes(self):
        """As dicelens does: gzip and zstd magic numbers, whatever the name."""
        with tempfile.TemporaryDirectory() as tmp:
            cases = {
                "plain.gz": b"[Game \"a\"]\n",
                "gzip.txt": b"\x1f\x8b\x08\x00rest",
                "zstd.ygn": b"\x28\xb5\x2f\xfdrest",
                "empty.ygn": b"",
            }
            for name, content in cases.items():
                with open(os.path.join(tmp, name), "wb") as f:
                    f.write(content)
            splittable = {name: job.is_splittable(os.path.join(tmp, name)) for name in cases}
        self.assertEqual(
            splittable,
            {"plain.gz": True, "gzip.txt": False, "zstd.ygn": False, "empty.ygn": True},
        )

class Flags(unittest.TestCase):
    """Sizes and the flags passed on to dicelens."""

    def test_sizes(self):
        """Plain byte counts and K/M/G suffixes; zero and junk are refused."""
        self.assertEqual(job.parse_size("65536"), 65536)
        self.assertEqual(job.parse_size("64M"), 64 << 20)
        self.assertEqual(job.parse_size("1g"), 1 << 30)
        for bad in ("0", "12X", ""):
            with self.assertRaises(argparse.ArgumentTypeError):
                job.parse_size(bad)

    def test_only_given_flags_are_passed_on_to_each_command(self):
        """Analyze gets every flag given, merge and ids only theirs; defaults stay dicelens's."""
        args = job.parse_args(["--oracle", "e", "--min-games", "3", "--json", "--format", "ygn", "x.ygn"])
        self.assertEqual(
            job.flag_args(args, lambda f: True),
            ["--min-games", "3", "--json", "--format", "ygn", "--oracle", "e"],
        )
        self.assertEqual(job.flag_args(args, lambda f: f.to_merge), ["--min-games", "3", "--json"])
        self.assertEqual(job.flag_args(args, lambda f: f.to_ids), ["--format", "ygn"])
        self.assertEqual(args.files, ["x.ygn"])


class Threads(unittest.TestCase):
    """Threads per dicelens task."""

    class Context:
        """The parts of a SparkContext default_threads reads."""

        def __init__(self, parallelism, **conf):
            self.defaultParallelism = parallelism
            self.conf = {key.replace("_", "."): str(value) for key, value in conf.items()}

        def getConf(self):
            return self.conf

    def test_spare_cores_go_to_the_tasks(self):
        """spark.task.cpus, or the cores fewer partitions leave idle, within one executor."""
        self.assertEqual(job.default_threads(self.Context(2), 1), 2)
        self.assertEqual(job.default_threads(self.Context(2), 6), 1)
        self.assertEqual(job.default_threads(self.Context(2, spark_task_cpus=2), 6), 2)
        self.assertEqual(job.default_threads(self.Context(64, spark_executor_cores=8), 3), 8)
        self.assertEqual(job.default_threads(self.Context(64, spark_executor_cores=8), 16), 4)


class Shards(unittest.TestCase):
    """Shards are published by rename, replacing an earlier attempt's."""

    def test_publish_replaces_an_earlier_attempt(self):
        """The final directory holds the last attempt's files only; no temporary is left."""
        with tempfile.TemporaryDirectory() as d:
            final = job.shard_path(d, 3)
            for attempt in ("first", "second"):
                tmp = os.path.join(d, f".tmp-{attempt}")
                os.makedirs(tmp)
                with open(os.path.join(tmp, attempt), "w") as f:
                    f.write(attempt)
                job.publish_shard(tmp, final)
            self.assertEqual(os.listdir(final), ["second"])
            self.assertEqual(os.listdir(d), ["part-00003"])


class Failures(unittest.TestCase):
    """The driver's one-line account of a failed job."""

    def test_names_the_partition_its_attempts_and_dicelens_error(self):
        """From Spark's abort message and the task's tagged error."""
        parts = job.plan_partitions(["a", "big"], [10, 300], 100)
        text = (
            "Job aborted due to stage failure: Task 2 in stage 4.0 failed 4 times, most recent ...\n"
            f"dicelens_spark.DicelensTaskError: {job.ERROR_TAG} partition 2 (big bytes 100-200): "
            "dicelens analyze failed (exit code 2): error: --oracle: unknown\n"
        )
        self.assertEqual(
            job.describe_failure(RuntimeError(text), parts),
            "partition 2 (big bytes 100-200) failed 4 times; last error: partition 2 "
            "(big bytes 100-200): dicelens analyze failed (exit code 2): error: --oracle: unknown",
        )


if __name__ == "__main__":
    unittest.main()

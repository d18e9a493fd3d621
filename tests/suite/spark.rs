//! The Spark job (`spark/dicelens_spark.py`) in local mode with 2 workers, on a simulated
//! corpus of several files (small ones grouped, a large one cut into byte ranges, repeated
//! games in a later file): the outputs are byte for byte those of one `analyze`; a partition
//! killed once (its dicelens child, and another partition's Python worker after its shard was
//! written) is retried by Spark and counted once. Needs Java and pyspark (`bash .ci/run`
//! installs them when missing).

use crate::common::{is_page_or_manifest, output_files, tables_dir, text};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Once;

/// The Python interpreter that runs the job ($PYTHON, else python3).
fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".into())
}

/// The job's directory in the repository.
fn spark_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("spark")
}

/// Fails (rather than passing silently) when pyspark or Java is missing, saying how to get them.
fn require_spark() {
    static CHECK: Once = Once::new();
    CHECK.call_once(|| {
        let importable = Command::new(python())
            .args(["-c", "import pyspark"])
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(
            importable,
            "pyspark is not importable by `{}`: run `bash .ci/run` (installs Java and pyspark \
             when missing) or `pip install -r spark/requirements.txt`",
            python()
        );
        let java = Command::new("java").arg("-version").output();
        assert!(
            java.is_ok_and(|o| o.status.success()),
            "no `java` for Spark: run `bash .ci/run` (installs Debian's openjdk-17-jre-headless \
             when missing)"
        );
    });
}

/// Runs the binary in `dir` with the test tables; panics with its stderr unless it succeeds.
fn dicelens(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_dicelens"))
        .args(args)
        .current_dir(dir)
        .env("DICELENS_TABLES", tables_dir())
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    out
}

/// Runs the Spark job in `dir` in local mode with 2 worker threads and `failures` attempts per
/// task, no UI, the test binary and tables.
fn spark_job(dir: &Path, failures: u32, args: &[&str]) -> Output {
    require_spark();
    Command::new(python())
        .arg(spark_dir().join("dicelens_spark.py"))
        .args([
            "--master",
            &format!("local[2,{failures}]"),
            "--dicelens",
            env!("CARGO_BIN_EXE_dicelens"),
            "--conf",
            "spark.ui.enabled=false",
            "--conf",
            "spark.driver.memory=512m",
            "--progress-interval",
            "1",
        ])
        .args(args)
        .current_dir(dir)
        .env("DICELENS_TABLES", tables_dir())
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .unwrap()
}

/// Games of a YGN file (separated by blank lines).
fn games(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap()
        .split("\n\n")
        .filter(|g| !g.trim().is_empty())
        .map(|g| format!("{}\n\n", g.trim_end()))
        .collect()
}

/// Writes the corpus into `dir`; returns its files (paths relative to `dir`) in corpus order.
/// With a split size of 64 KiB: small/s1.ygn alone, big.ygn in six byte ranges (malformed and
/// illegal games from the fixtures in its middle), small/s2.ygn and small/s3.ygn together, then
/// again.ygn, whose games repeat some of big.ygn's and s1's.
fn corpus(dir: &Path) -> Vec<&'static str> {
    fs::create_dir(dir.join("small")).unwrap();
    for (file, games, seed) in [
        ("big.ygn", 300, 11),
        ("small/s1.ygn", 40, 12),
        ("small/s2.ygn", 25, 13),
        ("small/s3.ygn", 20, 14),
    ] {
        let args = crate::common::simulate_two_seat(12, games, seed, file);
        dicelens(dir, &args.iter().map(String::as_str).collect::<Vec<_>>());
    }
    let (big, s1) = (
        games(&dir.join("big.ygn")),
        games(&dir.join("small/s1.ygn")),
    );
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let broken: String = [
        "ygn/bad_die.ygn",
        "replay/box_twice.ygn",
        "replay/wrong_points.ygn",
    ]
    .iter()
    .map(|f| {
        fs::read_to_string(fixtures.join(f))
            .unwrap()
            .trim_end()
            .to_string()
            + "\n\n"
    })
    .collect();
    let big_text = [big[..150].concat(), broken, big[150..].concat()].concat();
    fs::write(dir.join("big.ygn"), big_text).unwrap();
    let again = [&big[100..130], &s1[5..10], &big[290..]].concat().concat();
    fs::write(dir.join("again.ygn"), again).unwrap();
    vec![
        "small/s1.ygn",
        "big.ygn",
        "small/s2.ygn",
        "small/s3.ygn",
        "again.ygn",
    ]
}

/// The analyze flags of both runs (the solitaire oracle keeps the test quick).
const FLAGS: [&str; 5] = ["--oracle", "e", "--min-games", "5", "--decisions"];

#[test]
fn local_mode_with_retries_equals_one_analyze() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let inputs = corpus(dir);
    let marks = dir.join("marks");

    // Partitions 2 and 4 are byte ranges of big.ygn: the first attempt of 2 has its dicelens
    // child killed (SIGKILL); that of 4 kills its Python worker once its shard is in place.
    let mut args = vec![
        "--split-size",
        "64K",
        "--build-tables",
        "yahtzee",
        "--test-kill",
        "2:child",
        "--test-kill",
        "4:worker",
        "--test-markers",
        marks.to_str().unwrap(),
        "--out",
        "spark-out",
    ];
    args.extend(FLAGS);
    args.extend(&inputs);
    let job = spark_job(dir, 4, &args);
    let log = text(&job.stderr);
    assert!(job.status.success(), "the Spark job failed:\n{log}");

    let mut single = vec!["analyze"];
    single.extend(&inputs);
    single.extend(FLAGS);
    single.extend(["--out", "one"]);
    let one = dicelens(dir, &single);

    // The leaderboard on stdout and every output file, byte for byte, but the linked pages
    // (a merge of partitions writes its player pages without worst decisions, and no game
    // pages) and the manifest listing them; the same players have pages.
    assert_eq!(text(&job.stdout), text(&one.stdout));
    let (expected, got) = (
        output_files(&dir.join("one")),
        output_files(&dir.join("spark-out")),
    );
    let pages = |files: &BTreeMap<String, Vec<u8>>| -> Vec<String> {
        files
            .keys()
            .filter(|name| name.starts_with("players/"))
            .cloned()
            .collect()
    };
    assert_eq!(pages(&got), pages(&expected));
    assert!(!pages(&expected).is_empty(), "player pages");
    let (expected, got): (BTreeMap<_, _>, BTreeMap<_, _>) = (
        expected
            .into_iter()
            .filter(|(name, _)| !is_page_or_manifest(name))
            .collect(),
        got.into_iter()
            .filter(|(name, _)| !is_page_or_manifest(name))
            .collect(),
    );
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &expected {
        assert!(got[name] == *bytes, "{name} differs from one analyze's");
    }
    // The corpus has what partitions must get right: ids repeated across them, broken games.
    let summary: serde_json::Value = serde_json::from_slice(&expected["summary.json"]).unwrap();
    let skipped = summary["skipped"].as_object().unwrap();
    assert_eq!(
        skipped["duplicate game id"].as_array().unwrap().len(),
        45,
        "{summary}"
    );
    assert!(skipped.len() >= 3, "{summary}");
    assert!(summary["games_rated"].as_u64().unwrap() >= 385, "{summary}");

    // The partitions as planned, and the two killed ones run twice, every other once.
    assert!(log.contains("in 9 partitions (6 byte ranges"), "{log}");
    assert!(
        log.contains("partition 7: small/s2.ygn .. small/s3.ygn (2 files)"),
        "{log}"
    );
    let mut runs = BTreeMap::<u32, u32>::new();
    for entry in fs::read_dir(&marks).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if let Some(rest) = name.strip_prefix('p').filter(|n| n.contains(".attempt")) {
            *runs
                .entry(rest.split('.').next().unwrap().parse().unwrap())
                .or_default() += 1;
        }
    }
    let expected_runs: BTreeMap<u32, u32> = (0..9)
        .map(|p| (p, if p == 2 || p == 4 { 2 } else { 1 }))
        .collect();
    assert_eq!(runs, expected_runs, "{log}");
    assert!(log.contains("2 partitions retried"), "{log}");
    assert!(log.contains("Python worker exited unexpectedly"), "{log}");
    // Tables were built under the job's lock; the shards are gone after the merge.
    assert!(tables_dir().join(".dicelens-spark.lock").exists());
    assert!(!dir.join("spark-out.shards").exists());
}

#[test]
fn a_partition_that_fails_for_good_stops_the_job_with_its_error() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    dicelens(
        dir,
        &["simulate", "--games", "20", "--seed", "3", "--out", "x.ygn"],
    );
    // Every attempt of the analyze task fails: dicelens refuses the oracle.
    let job = spark_job(dir, 2, &["--oracle", "nonsense", "--out", "never", "x.ygn"]);
    let log = text(&job.stderr);
    assert_eq!(job.status.code(), Some(1), "{log}");
    let last = log
        .lines()
        .find(|l| l.contains("dicelens-spark: the job failed"))
        .unwrap_or_else(|| panic!("no failure line:\n{log}"));
    assert!(
        last.contains("partition 0 (x.ygn) failed 2 times")
            && last.contains("dicelens analyze failed (exit code 2)")
            && last.contains("nonsense"),
        "{last}"
    );
    assert!(!dir.join("never").exists());
}

#[test]
fn driver_logic_unit_tests() {
    let out = Command::new(python())
        .args(["-m", "unittest", "discover", "-s"])
        .arg(spark_dir())
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
}

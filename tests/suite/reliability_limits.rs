//! Limits and allocation (issue 30, items 4, 6 and parts of 12): every count a flag gives is
//! checked before memory is reserved for it (a usage error, exit 2, never a panic, an abort or a
//! run without end); a table file of the wrong size (a sparse file of 100 GB) is refused before
//! it is read; a table that does not fit in the memory available is an error naming it and the
//! bytes it needs, never a signal; `tables build --rules jamb-5` builds (or finds) the Jamb column
//! tables; an empty `--filled`, `bench read -` and `--byte-range` with a directory are usage
//! errors. Every command runs under a time limit ([`run_within`]), which also fails a test on a
//! signal.

use crate::common::{run_within, tables_dir, text, StdinFrom};
use dicelens::rules::jamb::JambRules;
use dicelens::rules::RuleSet;
use dicelens::solve::jamb::tables::JambTables;
use dicelens::tables::{
    dist_path, expected_path, jamb_path, load_jamb, open_dist, open_jamb, Silent, TableProblem,
};
use std::fs::{self, File};
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The longest a command here may take (each takes a second or two; a fault ran for ever).
const LIMIT: Duration = Duration::from_secs(30);

/// A sparse file's size: 100 GB (it costs no disk).
const HUGE: u64 = 100_000_000_000;

/// Runs the binary in `dir` with the suite's tables (unless `args` names others), within
/// [`LIMIT`].
fn dicelens(args: &[&str], dir: &Path) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dicelens"));
    command
        .args(args)
        .current_dir(dir)
        .env("DICELENS_TABLES", tables_dir())
        .env("RAYON_NUM_THREADS", "2");
    run_within(&mut command, StdinFrom::Nothing, LIMIT)
}

/// Asserts that `out` is the usage error `dicelens: FLAG: ...` (exit 2) and returns its text.
fn usage_error(out: &Output, flag: &str, args: &[&str]) -> String {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        stderr.starts_with(&format!("dicelens: {flag}: ")),
        "{args:?}: {stderr}"
    );
    stderr
}

/// A file of `len` bytes that holds `head` and then nothing (a hole: it costs no disk).
fn sparse_file(path: &Path, head: &[u8], len: u64) {
    fs::write(path, head).unwrap();
    File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_len(len)
        .unwrap();
}

/// The first `n` bytes of `path`.
fn head_of(path: &Path, n: usize) -> Vec<u8> {
    let mut bytes = fs::read(path).unwrap();
    bytes.truncate(n);
    bytes
}

/// `simulate` with a count beyond its limit is a usage error at once, naming the flag: before,
/// `--players 18446744073709551615` panicked, `--players 400000000` aborted on allocation,
/// `--players 99999999 --games 3` allocated without end and `--seats 256` simulated, then
/// failed with exit 1.
#[test]
fn simulate_counts_beyond_their_limits_are_usage_errors_at_once() {
    let dir = tempfile::tempdir().unwrap();
    for (args, flag, says) in [
        (
            &["--players", "18446744073709551615"][..],
            "--players",
            "at most 1000000 players",
        ),
        (
            &["--seats", "18446744073709551615"],
            "--seats",
            "from 1 to 255",
        ),
        (&["--players", "400000000"], "--players", "at most 1000000"),
        (
            &["--players", "99999999", "--games", "3"],
            "--players",
            "at most 1000000",
        ),
        (
            &["--players", "400", "--games", "3", "--seats", "2"],
            "--players",
            "expected at most 10 players, got 400: 3 game(s) of 2 seat(s) fill 6 seats",
        ),
        (
            &["--seats", "256", "--players", "300", "--games", "1"],
            "--seats",
            "from 1 to 255, got 256",
        ),
        (
            &["--rules", "jamb-5", "--players", "99999999", "--games", "3"],
            "--players",
            "at most 1000000",
        ),
        (
            &["--rules", "jamb-5", "--seats", "300"],
            "--seats",
            "from 1 to 255, got 300",
        ),
    ] {
        let mut all = vec!["simulate", "--out", "x.ygn"];
        all.extend_from_slice(args);
        let started = Instant::now();
        let out = dicelens(&all, dir.path());
        let stderr = usage_error(&out, flag, &all);
        assert!(stderr.contains(says), "{all:?}: {stderr}");
        assert!(started.elapsed() < Duration::from_secs(10), "{all:?}");
        assert!(!dir.path().join("x.ygn").exists(), "{all:?}");
    }
    // Within the limits: the default players for a short run, and the most seats.
    for args in [
        &["--games", "3"][..],
        &["--games", "1", "--seats", "255", "--players", "255"],
    ] {
        let mut all = vec!["simulate", "--out", "x.ygn"];
        all.extend_from_slice(args);
        let out = dicelens(&all, dir.path());
        assert!(out.status.success(), "{all:?}: {}", text(&out.stderr));
    }
}

/// `bench quality --positions` is bounded too (the positions are collected before they are
/// valued).
#[test]
fn bench_quality_positions_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["bench", "quality", "--positions", "18446744073709551615"];
    let stderr = usage_error(&dicelens(&args, dir.path()), "--positions", &args);
    assert!(stderr.contains("from 0 to 1000000"), "{stderr}");
}

/// A table replaced by a sparse file of 100 GB (a valid header, the wrong size) is refused
/// before it is read and rebuilt, in a second or two: before, it was read whole (100 GB
/// reserved: an abort).
#[test]
fn a_sparse_table_of_a_hundred_gigabytes_is_rebuilt_without_being_read() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    fs::create_dir(&tables).unwrap();
    let rules = RuleSet::Yahtzee;
    let good = expected_path(tables_dir(), rules);
    let path = expected_path(&tables, rules);
    sparse_file(&path, &head_of(&good, 64), HUGE);
    let args = [
        "eval",
        "--roll",
        "12345",
        "--tables",
        tables.to_str().unwrap(),
    ];
    let out = dicelens(&args, dir.path());
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let size = fs::metadata(&good).unwrap().len();
    assert!(
        stderr.contains(&format!(
            "is damaged: {HUGE} bytes, expected {size} (truncated or padded); building it"
        )),
        "{stderr}"
    );
    assert_eq!(fs::metadata(&path).unwrap().len(), size, "rebuilt in place");
}

/// The same of a distribution table and of the Jamb column tables, opened in this process: the
/// wrong size is found from the file's length and header alone, at once.
#[test]
fn sparse_distribution_and_jamb_tables_are_refused_before_they_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let rules = RuleSet::Yahtzee;
    let good = dist_path(tables_dir(), rules);
    sparse_file(&dist_path(dir.path(), rules), &head_of(&good, 64), HUGE);
    let started = Instant::now();
    let problem = open_dist(dir.path(), rules).err();
    let expected = fs::metadata(&good).unwrap().len();
    assert_eq!(
        problem,
        Some(TableProblem::WrongSize {
            found: HUGE,
            expected
        })
    );
    let jamb = JambRules::JAMB_5;
    sparse_file(&jamb_path(dir.path(), jamb), b"DLJAMBTB", HUGE);
    let problem = open_jamb(dir.path(), jamb).err();
    assert!(
        matches!(problem, Some(TableProblem::WrongSize { found: HUGE, .. })),
        "{problem:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
}

/// Under a memory limit too small for the distribution table, `dist` fails with exit 1 and a
/// message naming the table and the bytes it needs: before, the allocation aborted (SIGABRT).
#[test]
fn a_table_that_does_not_fit_in_memory_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let table = dist_path(tables_dir(), RuleSet::Yahtzee);
    let bytes = fs::metadata(&table).unwrap().len();
    // 300,000 KiB: the program starts, and the table (about 370 MB) cannot fit.
    let script = "ulimit -v 300000 && exec \"$0\" dist --rules yahtzee --filled - --tables \"$1\"";
    let mut command = Command::new("sh");
    command
        .args(["-c", script, env!("CARGO_BIN_EXE_dicelens")])
        .arg(tables_dir())
        .current_dir(dir.path())
        .env("RAYON_NUM_THREADS", "2");
    let out = run_within(&mut command, StdinFrom::Nothing, LIMIT);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "dicelens: table {} needs {bytes} bytes of memory, and they cannot be allocated (is \
             the memory of the process limited, as by `ulimit -v`?)\n",
            table.display()
        )
    );
}

/// `tables build --rules jamb-5` finds (or builds) the Jamb column tables: before, it said
/// "unknown rule set 'jamb-5' (expected one of ... jamb-5)". A command that takes only
/// single-column rule sets lists only those.
#[test]
fn tables_build_takes_the_jamb_rule_sets_and_lists_only_names_it_takes() {
    let dir = tempfile::tempdir().unwrap();
    let jamb = JambRules::JAMB_5;
    // The Jamb tests build these on first use in the same directory; built once here if not.
    load_jamb(tables_dir(), jamb, &Silent).unwrap();
    let stored = fs::metadata(jamb_path(tables_dir(), jamb)).unwrap().len();
    assert!(JambTables::stored_lens(&jamb).contains(&stored));
    let args = ["tables", "build", "--rules", "jamb-5"];
    let out = dicelens(&args, dir.path());
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.starts_with("jamb-5 "), "{stdout}");
    assert!(stdout.contains(" valid "), "{stdout}");
    let args = ["tables", "build", "--rules", "jamb-5", "--dist"];
    usage_error(&dicelens(&args, dir.path()), "--dist", &args);
    let args = ["bench", "build", "--rules", "jamb-5"];
    let stderr = usage_error(&dicelens(&args, dir.path()), "--rules", &args);
    assert!(stderr.contains("unknown rule set 'jamb-5'"), "{stderr}");
    assert!(!stderr.contains("jamb-4"), "{stderr}");
    let args = ["tables", "build", "--rules", "jamb-9"];
    let stderr = usage_error(&dicelens(&args, dir.path()), "--rules", &args);
    assert!(
        stderr.contains("jamb-4, jamb-5, jamb-6a, yamb-hr)"),
        "{stderr}"
    );
}

/// An empty `--filled` is a usage error (a sheet with no box filled is `-`): before, it was
/// taken as the empty sheet.
#[test]
fn an_empty_filled_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["eval", "--roll", "12345", "--filled", ""][..],
        &["eval", "--roll", "12345", "--filled", " "],
        &["dist", "--filled", ""],
        &[
            "eval", "--rules", "jamb-5", "--roll", "12345", "--filled", "",
        ],
        &[
            "eval",
            "--roll",
            "12345",
            "--filled",
            "1",
            "--opponent-filled",
            "",
        ],
    ] {
        let flag = if args.contains(&"--opponent-filled") {
            "--opponent-filled"
        } else {
            "--filled"
        };
        let stderr = usage_error(&dicelens(args, dir.path()), flag, args);
        assert!(
            stderr.contains("write `-` for a sheet with no box filled"),
            "{stderr}"
        );
    }
    let out = dicelens(&["eval", "--roll", "12345", "--filled", "-"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// `bench read -` is a usage error saying why (each file is read several times): before, "-:
/// No such file or directory".
#[test]
fn bench_read_of_standard_input_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["bench", "read", "-"];
    let stderr = usage_error(&dicelens(&args, dir.path()), "-", &args);
    assert!(
        stderr.contains("standard input can be read only once"),
        "{stderr}"
    );
}

/// `--byte-range` with a directory is refused as with two files: before, the range was applied
/// to every file in it.
#[test]
fn a_byte_range_of_a_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    fs::create_dir(&logs).unwrap();
    let game = "[Game \"a\"]\n[Rules \"yahtzee\"]\n[Players \"x\"]\n\n";
    fs::write(logs.join("a.ygn"), game).unwrap();
    fs::write(logs.join("b.ygn"), game).unwrap();
    for command in ["analyze", "dice", "ids"] {
        let mut args = vec![command, "logs", "--byte-range", "0:100"];
        if command == "analyze" {
            args.extend(["--out", "out"]);
        }
        let stderr = usage_error(&dicelens(&args, dir.path()), "--byte-range", &args);
        assert!(
            stderr.contains("a byte range is of one file, and logs is a directory"),
            "{stderr}"
        );
    }
    assert!(!dir.path().join("out").exists());
}

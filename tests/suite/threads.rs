//! Thread counts (issue 29): every output is the same bytes at 1, 2, 16 and 64 threads (64 on a
//! machine of two cores is where a thread waiting for nested parallel work runs another game's
//! rating: state held across such a wait would panic or leak between games), for the default
//! and reference oracles on two-seat games and for Jamb games; `--threads` and
//! `RAYON_NUM_THREADS` are checked before any work.

use crate::common::{output_files, run_within, tables_dir, text, StdinFrom};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

/// The binary with the shared tables and `args`, no thread setting from the environment.
fn dicelens(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dicelens"));
    command
        .args(args)
        .env("DICELENS_TABLES", tables_dir())
        .env_remove("RAYON_NUM_THREADS");
    command
}

/// Runs `args`, failing the test unless it succeeds within five minutes.
fn run_ok(args: &[&str]) -> Output {
    let out = run_within(
        &mut dicelens(args),
        StdinFrom::Nothing,
        Duration::from_secs(300),
    );
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    out
}

/// `analyze LOG --oracle ORACLE --threads N` into a new directory under `dir`: its stdout and
/// every file it wrote.
fn analyze(
    dir: &Path,
    log: &Path,
    oracle: &str,
    threads: usize,
) -> (String, BTreeMap<String, Vec<u8>>) {
    let out = dir.join(format!("{oracle}-{threads}"));
    let threads = threads.to_string();
    let args = [
        "analyze",
        log.to_str().unwrap(),
        "--oracle",
        oracle,
        "--min-games",
        "1",
        "--decisions",
        "--threads",
        &threads,
        "--out",
        out.to_str().unwrap(),
    ];
    let stdout = text(&run_ok(&args).stdout);
    (stdout, output_files(&out))
}

/// Simulates `games` games of `rules` and `seats` seats into `dir/NAME.ygn`.
fn simulate(dir: &Path, name: &str, rules: &str, seats: &str, games: &str) -> std::path::PathBuf {
    let log = dir.join(format!("{name}.ygn"));
    run_ok(&[
        "simulate",
        "--rules",
        rules,
        "--seats",
        seats,
        "--players",
        "6",
        "--games",
        games,
        "--seed",
        "29",
        "--out",
        log.to_str().unwrap(),
    ]);
    log
}

/// Every oracle and game kind at 1, 2, 16 and 64 threads: the same stdout, the same files
/// (among them `pages`: `players/` pages, and `games/` pages where the game kind has them).
fn same_at_every_thread_count(log: &Path, oracle: &str, pages: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let (stdout, files) = analyze(dir.path(), log, oracle, 1);
    assert!(stdout.contains("leaderboard of "), "{stdout}");
    assert!(files.contains_key("players.csv") && files.contains_key("decisions.csv"));
    for kind in pages {
        let found = files.keys().any(|f| f.starts_with(kind));
        assert!(found, "{kind}: {:?}", files.keys());
    }
    for threads in [2, 16, 64] {
        let (other_stdout, other_files) = analyze(dir.path(), log, oracle, threads);
        assert_eq!(
            other_stdout, stdout,
            "{oracle}: stdout at {threads} threads"
        );
        assert_eq!(
            other_files.keys().collect::<Vec<_>>(),
            files.keys().collect::<Vec<_>>(),
            "{oracle}: files at {threads} threads"
        );
        for (name, bytes) in &files {
            assert!(
                other_files[name] == *bytes,
                "{oracle}: {name} differs at {threads} threads"
            );
        }
    }
}

#[test]
fn two_seat_games_rate_the_same_at_every_thread_count_with_the_default_oracle() {
    let dir = tempfile::tempdir().unwrap();
    // Three chunks of games: more work than threads at 1 and 2, fewer at 16 and 64.
    let log = simulate(dir.path(), "two", "yahtzee", "2", "300");
    same_at_every_thread_count(&log, "default", &["players/", "games/"]);
}

#[test]
fn two_seat_games_rate_the_same_at_every_thread_count_with_the_reference_oracle() {
    // The reference's exact solver runs parallel loops inside a game's rating: the case that
    // panicked ("RefCell already borrowed") when a waiting thread rated another chunk.
    let dir = tempfile::tempdir().unwrap();
    let log = simulate(dir.path(), "two", "yahtzee", "2", "160");
    same_at_every_thread_count(&log, "reference", &["players/", "games/"]);
}

#[test]
fn jamb_games_rate_the_same_at_every_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let log = simulate(dir.path(), "jamb", "jamb-5", "2", "60");
    same_at_every_thread_count(&log, "default", &["players/"]);
}

#[test]
fn thread_counts_are_checked_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let log = simulate(dir.path(), "one", "yahtzee", "1", "3");
    let log = log.to_str().unwrap();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    let analyze = crate::common::solitaire_analyze(log, out);
    let limit = Duration::from_secs(120);
    // Not numbers, or none: usage errors naming the setting, nothing written.
    for (flag, want) in [
        (
            "0",
            "dicelens: --threads: expected at least 1 thread, got 0",
        ),
        (
            "many",
            "dicelens: --threads: expected a number of threads, got 'many'",
        ),
    ] {
        let mut command = dicelens(&analyze);
        let result = run_within(command.args(["--threads", flag]), StdinFrom::Nothing, limit);
        assert_eq!(result.status.code(), Some(2), "{flag}");
        assert!(
            text(&result.stderr).contains(want),
            "{}",
            text(&result.stderr)
        );
    }
    let mut command = dicelens(&analyze);
    command.env("RAYON_NUM_THREADS", "four");
    let result = run_within(&mut command, StdinFrom::Nothing, limit);
    assert_eq!(result.status.code(), Some(2));
    assert!(
        text(&result.stderr)
            .contains("RAYON_NUM_THREADS: expected a number of threads, got 'four'"),
        "{}",
        text(&result.stderr)
    );
    assert!(!Path::new(out).exists());
    // A count no machine serves: capped, said, and the run is quick.
    for (how, value) in [("env", "100000"), ("flag", "100000")] {
        let mut command = dicelens(&analyze);
        if how == "env" {
            command.env("RAYON_NUM_THREADS", value);
        } else {
            command.args(["--threads", value]);
        }
        let result = run_within(&mut command, StdinFrom::Nothing, limit);
        assert!(result.status.success(), "{}", text(&result.stderr));
        let stderr = text(&result.stderr);
        assert!(
            stderr.contains(&format!("{value} is more threads than a machine of")),
            "{stderr}"
        );
    }
}

//! The examples of `examples/` are programs others would write with the library: they are
//! built with the tests (`cargo test` builds examples) and run here, their output checked.

use crate::common::{tables_dir, text};
use std::path::PathBuf;
use std::process::Command;

/// The built example `name` (beside the test binary's directory), built now if missing.
fn example(name: &str) -> PathBuf {
    let deps = std::env::current_exe().unwrap();
    let path = deps
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("examples")
        .join(name);
    if !path.exists() {
        let status = Command::new(env!("CARGO"))
            .args(["build", "--example", name])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .unwrap();
        assert!(status.success());
    }
    path
}

#[test]
fn rating_one_game_from_a_ygn_string() {
    let out = Command::new(example("rate_game")).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("game valid.ygn:63 of anna\n"),
        "{stdout}"
    );
    // 13 turns, each with a box choice and up to two keeps.
    let rows = stdout.lines().filter(|l| l.starts_with("round")).count();
    assert!((13..=39).contains(&rows), "{rows} decisions");
    assert!(stdout.contains(&format!("{rows} decisions, total error ")));
}

#[test]
fn a_leaderboard_from_a_directory_of_logs() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("games.ygn");
    let args = [
        "simulate",
        "--rules",
        "yahtzee",
        "--players",
        "3",
        "--games",
        "30",
        "--seed",
        "5",
        "--out",
    ];
    crate::common::run_ok(&[&args[..], &[log.to_str().unwrap()]].concat(), 2);
    std::fs::remove_file(dir.path().join("games.truth.csv")).unwrap();
    let out = Command::new(example("leaderboard"))
        .arg(dir.path())
        .env("DICELENS_TABLES", tables_dir())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The same leaderboard as the command's.
    let cli = crate::common::run_ok(
        &[
            "analyze",
            log.to_str().unwrap(),
            "--min-games",
            "1",
            "--out",
            dir.path().join("analysis").to_str().unwrap(),
        ],
        2,
    );
    assert_eq!(text(&out.stdout), cli);
    assert_eq!(text(&out.stderr), "30 games read, 30 rated\n");
}

/// Every file under `dir`, by path relative to it, with its bytes.
fn files_under(dir: &std::path::Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                files.insert(path.strip_prefix(dir).unwrap().to_path_buf(), bytes);
            }
        }
    }
    files
}

#[test]
fn a_program_writes_exactly_what_analyze_writes() {
    let dir = tempfile::tempdir().unwrap();
    let logs: Vec<String> = ["fixtures/ygn/valid.ygn", "fixtures/jsonl/two_games.jsonl"]
        .iter()
        .map(|f| format!("{}/{f}", env!("CARGO_MANIFEST_DIR")))
        .collect();
    let cli_dir = dir.path().join("cli");
    let mut args = vec![
        "analyze",
        "--min-games",
        "500",
        "--out",
        cli_dir.to_str().unwrap(),
    ];
    args.extend(logs.iter().map(String::as_str));
    crate::common::run_ok(&args, 2);
    let example_dir = dir.path().join("example");
    let out = Command::new(example("analyze"))
        .arg(&example_dir)
        .args(&logs)
        .env("DICELENS_TABLES", tables_dir())
        .env("RAYON_NUM_THREADS", "2")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let cli = files_under(&cli_dir);
    let program = files_under(&example_dir);
    assert!(cli.len() > 5, "{:?}", cli.keys());
    assert_eq!(
        cli.keys().collect::<Vec<_>>(),
        program.keys().collect::<Vec<_>>()
    );
    for (path, bytes) in &cli {
        assert!(program[path] == *bytes, "{} differs", path.display());
    }
}

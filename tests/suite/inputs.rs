//! Logs as people have them: the same games compressed with gzip or zstd, spread over a
//! directory tree, piped through standard input or exported as a CSV table give the same
//! analysis as the plain log.

use crate::common::{is_page_or_manifest, output_files, run, run_ok, tables_dir, text};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Every output file of an analysis in `dir`, by name, with `log` (the path of the input as
/// the run named it) replaced by `LOG`, so that runs over differently named inputs compare
/// (not the manifest, whose sizes depend on the name).
fn outputs(dir: &Path, log: &str) -> BTreeMap<String, String> {
    output_files(dir)
        .into_iter()
        .filter(|(name, _)| name != dicelens::output::MANIFEST)
        .map(|(name, bytes)| {
            let content = text(&bytes);
            let content = if log.is_empty() {
                content
            } else {
                content.replace(log, "LOG")
            };
            (name, content)
        })
        .collect()
}

/// Analyses `inputs` (with `flags`) into `out`, and returns its outputs with `log` named LOG.
fn analyze(inputs: &[&str], flags: &[&str], out: &Path, log: &str) -> BTreeMap<String, String> {
    let out_text = out.to_str().unwrap();
    let mut args = vec!["analyze"];
    args.extend(inputs);
    args.extend(["--out", out_text, "--min-games", "1"]);
    args.extend(flags);
    run_ok(&args, 2);
    outputs(out, log)
}

/// Compresses `path` with the command `tool` (gzip or zstd), into `out`.
fn compress(tool: &str, path: &Path, out: &Path) {
    let bytes = std::fs::read(path).unwrap();
    let mut child = Command::new(tool)
        .args(["-c", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{tool}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&bytes).unwrap());
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(output.status.success(), "{tool}: {}", text(&output.stderr));
    std::fs::write(out, output.stdout).unwrap();
}

#[test]
fn a_corpus_compressed_with_gzip_or_zstd_gives_the_outputs_of_the_plain_corpus() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("games.ygn");
    let plain_text = plain.to_str().unwrap();
    run_ok(
        &[
            "simulate",
            "--games",
            "300",
            "--seats",
            "2",
            "--players",
            "6",
            "--out",
            plain_text,
        ],
        2,
    );
    let want = analyze(&[plain_text], &[], &dir.path().join("plain"), plain_text);
    assert!(
        want["games.csv"].lines().count() > 300,
        "{}",
        want["games.csv"]
    );
    for (tool, name) in [
        ("gzip", "games.ygn.gz"),
        ("zstd", "games.ygn.zst"),
        ("gzip", "games.txt"),
    ] {
        // `games.txt` is gzip-compressed too: compression is told by content, not by name.
        let packed = dir.path().join(name);
        compress(tool, &plain, &packed);
        let packed_text = packed.to_str().unwrap();
        let got = analyze(
            &[packed_text],
            &[],
            &dir.path().join(format!("out-{name}")),
            packed_text,
        );
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn standard_input_reads_as_the_file_piped_into_it() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("games.ygn");
    let plain_text = plain.to_str().unwrap();
    run_ok(&["simulate", "--games", "200", "--out", plain_text], 2);
    let want = analyze(
        &[plain_text],
        &["--oracle", "e"],
        &dir.path().join("plain"),
        plain_text,
    );
    let out = dir.path().join("piped");
    let mut child = Command::new(env!("CARGO_BIN_EXE_dicelens"))
        .args(["analyze", "-", "--min-games", "1", "--oracle", "e", "--out"])
        .arg(&out)
        .env("DICELENS_TABLES", tables_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let bytes = std::fs::read(&plain).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&bytes).unwrap());
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        text(&output.stderr).contains("200 games read, 200 used"),
        "{}",
        text(&output.stderr)
    );
    let mut got = outputs(&out, "<stdin>");
    // Standard input has no absolute path: games.csv leaves the column empty (the file's
    // rows have the path, named LOG here).
    let games = got["games.csv"].clone();
    let header: Vec<&str> = games
        .lines()
        .next()
        .unwrap_or_default()
        .split(',')
        .collect();
    let column = header
        .iter()
        .position(|&name| name == "absolute_path")
        .expect("an absolute_path column");
    let mut named = String::new();
    for (i, row) in games.lines().enumerate() {
        let mut fields: Vec<&str> = row.split(',').collect();
        if i > 0 {
            assert_eq!(fields[column], "", "{games}");
            fields[column] = "LOG";
        }
        named.push_str(&fields.join(","));
        named.push('\n');
    }
    got.insert("games.csv".into(), named);
    // Standard input is read once: its games get no page in games/ (the player pages, of the
    // same players, link to none). Everything else is the same.
    assert!(got.keys().all(|name| !name.starts_with("games/")));
    assert!(want.keys().any(|name| name.starts_with("games/")));
    let players = |files: &BTreeMap<String, String>| -> Vec<String> {
        files
            .keys()
            .filter(|name| name.starts_with("players/"))
            .cloned()
            .collect()
    };
    assert_eq!(players(&got), players(&want));
    let without_pages = |files: BTreeMap<String, String>| -> BTreeMap<String, String> {
        files
            .into_iter()
            .filter(|(name, _)| !is_page_or_manifest(name))
            .collect()
    };
    assert_eq!(without_pages(got), without_pages(want));
}

#[test]
fn a_directory_tree_of_a_thousand_files_reads_as_their_concatenation() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("games.ygn");
    let plain_text = plain.to_str().unwrap();
    run_ok(&["simulate", "--games", "1000", "--out", plain_text], 2);
    // One game a file, spread over nested folders whose sorted paths keep the games' order;
    // some files compressed, and files the glob leaves out.
    let content = std::fs::read_to_string(&plain).unwrap();
    let games: Vec<&str> = content.split("\n[Game ").collect();
    assert_eq!(games.len(), 1000);
    let tree = dir.path().join("tree");
    for (n, game) in games.iter().enumerate() {
        let text = if n == 0 {
            game.to_string()
        } else {
            format!("[Game {game}")
        };
        let text = if text.ends_with('\n') {
            text
        } else {
            format!("{text}\n")
        };
        let folder = tree
            .join(format!("{:02}", n / 100))
            .join(format!("{:02}", n / 10 % 10));
        std::fs::create_dir_all(&folder).unwrap();
        let file = folder.join(format!("{:04}.ygn", n));
        std::fs::write(&file, text).unwrap();
        if n % 7 == 0 {
            compress("gzip", &file, &folder.join(format!("{:04}.ygn.gz", n)));
            std::fs::remove_file(&file).unwrap();
        }
    }
    std::fs::write(tree.join("README.txt"), "not a log\n").unwrap();
    // The concatenation, in path order, is the original file.
    let tree_text = tree.to_str().unwrap();
    let want = analyze(
        &[plain_text],
        &["--oracle", "e"],
        &dir.path().join("whole"),
        "",
    );
    let got = analyze(
        &[tree_text],
        &["--oracle", "e", "--glob", "*.ygn", "--glob", "*.gz"],
        &dir.path().join("tree-out"),
        "",
    );
    for name in [
        "players.csv",
        "leaderboard.csv",
        "rounds.csv",
        "aggregates.json",
    ] {
        assert_eq!(got[name], want[name], "{name}");
    }
    // games.csv names each game's file: the games are the same, in the same order.
    let ids = |games: &str| -> Vec<String> {
        games
            .lines()
            .map(|l| l.split(',').next().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids(&got["games.csv"]), ids(&want["games.csv"]));
    assert!(
        got["games.csv"].contains("/00/00/0001.ygn"),
        "{}",
        &got["games.csv"][..300]
    );
    // Without the glob, the README is read too, and counted as a file skipped.
    let out = run(
        &[
            "analyze",
            tree_text,
            "--oracle",
            "e",
            "--out",
            dir.path().join("all").to_str().unwrap(),
        ],
        2,
    );
    assert!(
        text(&out.stderr).contains("file skipped: ") && text(&out.stderr).contains("README.txt")
    );
}

#[test]
fn simulated_games_exported_as_csv_give_the_players_of_the_ygn_log() {
    let dir = tempfile::tempdir().unwrap();
    for rules in ["yahtzee", "yahtzee-free", "yahtzee-kurnik", "yatzy"] {
        for seats in ["1", "2"] {
            let ygn = dir.path().join(format!("{rules}-{seats}.ygn"));
            let csv = dir.path().join(format!("{rules}-{seats}.csv"));
            let sim = |path: &Path, format: &str| {
                let args = [
                    "simulate",
                    "--rules",
                    rules,
                    "--seats",
                    seats,
                    "--players",
                    "4",
                    "--games",
                    "40",
                    "--format",
                    format,
                    "--out",
                    path.to_str().unwrap(),
                ];
                run_ok(&args, 2);
            };
            sim(&ygn, "ygn");
            sim(&csv, "csv");
            let flags = ["--oracle", "e"];
            let ygn_out = analyze(&[ygn.to_str().unwrap()], &flags, &dir.path().join("y"), "");
            let csv_out = analyze(&[csv.to_str().unwrap()], &flags, &dir.path().join("c"), "");
            assert_eq!(
                csv_out["players.csv"], ygn_out["players.csv"],
                "{rules}, {seats} seat(s)"
            );
            assert!(ygn_out["players.csv"].lines().count() > 1);
            // convert gives the same table from the YGN log.
            let converted = run_ok(&["convert", ygn.to_str().unwrap(), "--to", "csv"], 2);
            assert_eq!(
                converted,
                std::fs::read_to_string(&csv).unwrap(),
                "{rules}, {seats}"
            );
        }
    }
}

#[test]
fn bench_read_times_a_compressed_log_beside_its_baselines() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("games.ygn");
    run_ok(
        &[
            "simulate",
            "--games",
            "50",
            "--out",
            plain.to_str().unwrap(),
        ],
        2,
    );
    let packed = dir.path().join("games.ygn.gz");
    compress("gzip", &plain, &packed);
    let out = run_ok(
        &["bench", "read", packed.to_str().unwrap(), "--repeat", "1"],
        2,
    );
    let measured: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|line| {
            line.split("  ")
                .filter(|f| !f.trim().is_empty())
                .nth(3)
                .unwrap_or("")
                .trim()
        })
        .collect();
    assert_eq!(
        measured,
        [
            "zcat > /dev/null",
            "decompress only",
            "parse only (memory)",
            "read 50 games"
        ],
        "{out}"
    );
}

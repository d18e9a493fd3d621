//! `dicelens merge` end to end: two overlapping shards of a corpus, analysed separately and
//! merged, give byte for byte the outputs of one analysis of the corpus, with the games seen in
//! both shards counted once and listed.

use crate::common::tables_dir;
use std::fs;
use std::path::Path;
use std::process::Command;

/// Runs the binary; panics with its stderr unless it succeeds. Returns stdout and stderr.
fn dicelens(args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dicelens"))
        .args(args)
        .env("DICELENS_TABLES", tables_dir())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?}: {stderr}");
    (String::from_utf8(out.stdout).unwrap(), stderr)
}

fn summary(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap()
}

fn analyze(file: &Path, out: &Path) -> String {
    dicelens(&[
        "analyze",
        file.to_str().unwrap(),
        // Merging adds sums whatever the oracle; the solitaire one keeps this test quick.
        "--oracle",
        "e",
        "--min-games",
        "10",
        "--out",
        out.to_str().unwrap(),
    ])
    .0
}

#[test]
fn overlapping_shards_merge_to_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let corpus = d.join("all.ygn");
    dicelens(&[
        "simulate",
        "--seats",
        "2",
        "--players",
        "8",
        "--games",
        "300",
        "--seed",
        "5",
        "--out",
        corpus.to_str().unwrap(),
    ]);
    // Games are separated by blank lines; shard a has games 0..160, shard b 140..300.
    let text = fs::read_to_string(&corpus).unwrap();
    let games: Vec<&str> = text
        .split("\n\n")
        .filter(|g| !g.trim().is_empty())
        .collect();
    assert_eq!(games.len(), 300);
    let shard = |range: std::ops::Range<usize>| games[range].join("\n\n") + "\n\n";
    let (a, b) = (d.join("a.ygn"), d.join("b.ygn"));
    fs::write(&a, shard(0..160)).unwrap();
    fs::write(&b, shard(140..300)).unwrap();
    let middle: Vec<String> = games[140..160]
        .iter()
        .map(|g| {
            let first = g.lines().next().unwrap();
            first
                .trim_start_matches("[Game \"")
                .trim_end_matches("\"]")
                .to_string()
        })
        .collect();

    let one_out = analyze(&corpus, &d.join("one"));
    analyze(&a, &d.join("a"));
    analyze(&b, &d.join("b"));
    // games.csv: one row per rated game, in order, with the log and the game's first line.
    let rows = fs::read_to_string(d.join("b/games.csv")).unwrap();
    let mut rows = rows.lines();
    assert_eq!(rows.next(), Some("game_id,file,line"));
    assert_eq!(
        rows.next(),
        Some(format!("{},{},1", middle[0], b.display()).as_str())
    );
    assert_eq!(rows.count(), 159);

    let (merged_out, _) = dicelens(&[
        "merge",
        d.join("a").to_str().unwrap(),
        d.join("b").to_str().unwrap(),
        "--min-games",
        "10",
        "--out",
        d.join("m").to_str().unwrap(),
    ]);
    assert_eq!(merged_out, one_out);
    for file in [
        "players.csv",
        "leaderboard.csv",
        "rounds.csv",
        "aggregates.json",
        "report.html",
    ] {
        let (one, merged) = (
            fs::read(d.join("one").join(file)).unwrap(),
            fs::read(d.join("m").join(file)).unwrap(),
        );
        assert!(one == merged, "{file} differs");
    }
    let (one, merged) = (summary(&d.join("one")), summary(&d.join("m")));
    assert_eq!(merged["games_rated"], one["games_rated"]);
    assert_eq!(merged["games_rated"], 300);
    assert_eq!(merged["games_read"], one["games_read"]);
    let duplicates: Vec<&str> = merged["duplicates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["game_id"].as_str().unwrap())
        .collect();
    assert_eq!(duplicates, middle);
    assert_eq!(
        merged["duplicates"][0]["shards"].as_array().unwrap().len(),
        2
    );
    assert_eq!(
        merged["duplicates_not_subtracted"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    // The merge's games.csv lists every game once, so it merges again.
    let merged_rows = fs::read_to_string(d.join("m/games.csv")).unwrap();
    assert_eq!(merged_rows.lines().count(), 1 + 300);

    // A duplicate whose log is gone is reported and left counted twice.
    let gone = d.join("gone.ygn");
    fs::copy(&b, &gone).unwrap();
    analyze(&gone, &d.join("g"));
    fs::remove_file(&gone).unwrap();
    let (_, stderr) = dicelens(&[
        "merge",
        d.join("a").to_str().unwrap(),
        d.join("g").to_str().unwrap(),
        "--out",
        d.join("mg").to_str().unwrap(),
    ]);
    assert!(stderr.contains("duplicate not subtracted"), "{stderr}");
    let s = summary(&d.join("mg"));
    assert_eq!(s["games_rated"], 320);
    assert_eq!(s["duplicates_not_subtracted"].as_array().unwrap().len(), 20);
}

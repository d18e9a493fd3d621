//! `dicelens analyze` end to end: the ratings reproduce the simulator's ground truth, outputs
//! do not depend on the thread count, malformed games are counted with their reasons, and
//! luck and error account for every point of a game.

use crate::common::{csv_rows, rated_by, run_ok as dicelens, table};
use dicelens::rate::{SolitaireCache, SolitaireOracle};
use dicelens::rules::{RuleSet, Sheet};
use dicelens::simulate::{players, simulate_batch, Plan};
use dicelens::solve::expected::sheet_value;
use std::collections::HashMap;
use std::fs;
use std::path::Path;

#[test]
fn players_csv_equals_the_ground_truth() {
    let dir = tempfile::tempdir().unwrap();
    for rules in RuleSet::MAIN {
        for seats in [1, 2] {
            let corpus = dir.path().join(format!("{}-{seats}.ygn", rules.name()));
            let out = dir.path().join(format!("{}-{seats}", rules.name()));
            let c = corpus.to_str().unwrap();
            dicelens(
                &[
                    "simulate",
                    "--rules",
                    rules.name(),
                    "--seats",
                    &seats.to_string(),
                    "--players",
                    "6",
                    "--games",
                    "60",
                    "--seed",
                    "8",
                    "--out",
                    c,
                ],
                2,
            );
            dicelens(
                &[
                    "analyze",
                    c,
                    // The ground truth is in solitaire points.
                    "--oracle",
                    "e",
                    "--min-games",
                    "1",
                    "--out",
                    out.to_str().unwrap(),
                ],
                2,
            );
            let truth = csv_rows(&corpus.with_extension("truth.csv"));
            let rated = csv_rows(&out.join("players.csv"));
            let played: Vec<_> = truth.iter().filter(|(_, t)| t["games"] != "0").collect();
            assert_eq!(rated.len(), played.len(), "{rules} {seats}");
            for (name, t) in played {
                let r = &rated[name];
                assert_eq!(r["games"], t["games"], "{rules} {seats} {name}");
                assert_eq!(r["decisions"], t["decisions"], "{rules} {seats} {name}");
                let (want, got): (f64, f64) = (
                    t["total_error"].parse().unwrap(),
                    r["total_error"].parse().unwrap(),
                );
                assert!(
                    (want - got).abs() <= 1e-6 * want.abs().max(1e-3),
                    "{rules} {seats} {name}: {got} vs {want}"
                );
            }
        }
    }
}

#[test]
fn outputs_are_identical_with_one_and_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c.ygn");
    let c = corpus.to_str().unwrap();
    dicelens(
        &[
            "simulate",
            "--seats",
            "2",
            "--players",
            "12",
            "--games",
            "400",
            "--seed",
            "2",
            "--out",
            c,
        ],
        2,
    );
    let mut runs = Vec::new();
    for threads in [1, 2] {
        let out = dir.path().join(format!("t{threads}"));
        let stdout = dicelens(
            &[
                "analyze",
                c,
                "--oracle",
                "e",
                "--min-games",
                "10",
                "--decisions",
                "--out",
                out.to_str().unwrap(),
            ],
            threads,
        );
        let files: Vec<Vec<u8>> = [
            "players.csv",
            "leaderboard.csv",
            "rounds.csv",
            "summary.json",
            "aggregates.json",
            "decisions.csv",
        ]
        .iter()
        .map(|f| fs::read(out.join(f)).unwrap())
        .collect();
        runs.push((stdout, files));
    }
    assert_eq!(runs[0], runs[1]);
    assert!(runs[0].0.contains("leaderboard of "));
    // rounds.csv has the 26 turns of a two-seat game, and turns sum to all decisions.
    let rounds = fs::read_to_string(dir.path().join("t1/rounds.csv")).unwrap();
    assert_eq!(rounds.lines().count(), 1 + 26);
    let decisions: u64 = rounds
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(6).unwrap().parse::<u64>().unwrap())
        .sum();
    let rows = fs::read_to_string(dir.path().join("t1/decisions.csv"))
        .unwrap()
        .lines()
        .count() as u64
        - 1;
    assert_eq!(decisions, rows);
}

#[test]
fn malformed_games_are_counted_with_reason_and_location() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/replay");
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["analyze".to_string()];
    let mut expected_used = 0;
    let mut expected_skipped: Vec<(String, String, u32)> = Vec::new();
    let mut reader = csv::Reader::from_path(root.join("EXPECTED.csv")).unwrap();
    let mut files = std::collections::BTreeSet::new();
    for row in reader.records() {
        let row = row.unwrap();
        files.insert(row[0].to_string());
        if &row[2] == "used" {
            expected_used += 1;
        } else {
            expected_skipped.push((
                row[3].to_string(),
                row[1].to_string(),
                row[4].parse().unwrap(),
            ));
        }
    }
    args.extend(
        files
            .iter()
            .map(|f| root.join(f).to_string_lossy().into_owned()),
    );
    args.extend([
        "--min-games".into(),
        "1".into(),
        "--out".into(),
        dir.path().to_string_lossy().into_owned(),
    ]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    dicelens(&refs, 2);
    let summary: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["games_rated"], expected_used);
    assert_eq!(
        summary["games_skipped"].as_u64(),
        Some(expected_skipped.len() as u64)
    );
    // By default, games of two players are rated in expected match points (the default
    // oracle, named by its spec), one-player games in expected points.
    let oracle = summary["oracle"].as_str().unwrap_or_default();
    assert!(oracle.contains("expected match points"), "{oracle}");
    assert!(oracle.contains("solitaire"), "{oracle}");
    let default = dicelens::rate::OracleSpec::DEFAULT.to_string();
    assert_eq!(summary["oracle_spec"], default.as_str());
    assert!(oracle.contains(&format!("({default})")), "{oracle}");
    // valid.ygn holds one-player and two-player games: the run says that each unit gets its
    // own leaderboard, unless every game is rated in points.
    let valid = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ygn/valid.ygn");
    let mixed = dir.path().join("mixed");
    for (oracle, warns) in [("emp:1", true), ("e", false)] {
        let args = [
            "analyze",
            valid.to_str().unwrap(),
            "--oracle",
            oracle,
            "--out",
            mixed.to_str().unwrap(),
        ];
        let out = crate::common::run(&args, 2);
        let stderr = crate::common::text(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert_eq!(
            stderr.contains("each unit gets its own leaderboard"),
            warns,
            "{oracle}: {stderr}"
        );
    }
    for (reason, id, line) in expected_skipped {
        let places = summary["skipped"][&reason]
            .as_array()
            .unwrap_or_else(|| panic!("no {reason} in {summary}"));
        assert!(
            places.iter().any(|p| p["game_id"] == id.as_str()
                && p["line"] == line
                && p["file"].as_str().is_some()),
            "{reason} {id} {line}: {places:?}"
        );
    }
}

/// Every point of a solitaire game is accounted for: final score = expected score of the empty
/// sheet + total luck - total error.
#[test]
fn luck_minus_error_accounts_for_the_final_score() {
    for rules in RuleSet::MAIN {
        let plan = Plan {
            rules,
            seats: 1,
            players: 4,
            games: 6,
            seed: 13,
            ..Plan::default()
        };
        let table_values = table(rules);
        let oracle = SolitaireOracle::new(HashMap::from([(rules, table_values.to_vec())]));
        let start = sheet_value(table_values, &Sheet::empty(rules)).unwrap();
        let mut cache = SolitaireCache::default();
        for game in simulate_batch(table_values, &plan, &players(&plan), 0..plan.games) {
            let (replayed, rated) = rated_by(&oracle, &mut cache, &game.record);
            let luck: f64 = rated.iter().map(|r| r.luck).sum();
            let error: f64 = rated.iter().map(|r| r.error).sum();
            let final_score = replayed.finals()[0].points() as f64;
            assert!(
                (start + luck - error - final_score).abs() < 1e-6,
                "{rules}: {start} + {luck} - {error} vs {final_score}"
            );
            let truth: f64 = game.errors.iter().sum();
            assert!((truth - error).abs() < 1e-9);
            assert!(rated
                .iter()
                .all(|r| r.error >= 0.0 && (r.forced || r.best >= r.chosen)));
        }
    }
}

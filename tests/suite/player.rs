//! `dicelens player` end to end: the player's numbers equal `analyze`'s and the simulator's
//! ground truth, the worst decisions are the largest errors, `--from` agrees with the logs,
//! the HTML page has its charts, unknown players are usage errors, and the output does not
//! depend on the thread count.

use crate::common::csv_rows;

/// The corpus's ground truth is in solitaire points: every command here rates with `--oracle e`.
fn with_solitaire<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut all = args.to_vec();
    if matches!(args.first(), Some(&"analyze") | Some(&"player")) {
        all.splice(1..1, ["--oracle", "e"]);
    }
    all
}

/// [`crate::common::run`] with [`with_solitaire`].
fn run(args: &[&str], threads: usize) -> std::process::Output {
    crate::common::run(&with_solitaire(args), threads)
}

/// [`crate::common::run_ok`] with [`with_solitaire`].
fn dicelens(args: &[&str], threads: usize) -> String {
    crate::common::run_ok(&with_solitaire(args), threads)
}
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The simulated corpus and its analysis (with decisions.csv), made once per test binary.
fn corpus() -> &'static (tempfile::TempDir, PathBuf, PathBuf) {
    static CORPUS: OnceLock<(tempfile::TempDir, PathBuf, PathBuf)> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let x = dir.path().join("X.ygn");
        let d = dir.path().join("D");
        let xs = x.to_str().unwrap();
        dicelens(
            &[
                "simulate",
                "--seats",
                "2",
                "--players",
                "6",
                "--games",
                "120",
                "--seed",
                "3",
                "--out",
                xs,
            ],
            2,
        );
        dicelens(
            &["analyze", xs, "--out", d.to_str().unwrap(), "--decisions"],
            2,
        );
        (dir, x, d)
    })
}

/// The player with the most total error in players.csv (so the worst decisions are not all 0).
fn some_player(d: &Path) -> String {
    let rows = csv_rows(&d.join("players.csv"));
    let mut names: Vec<(&String, f64)> = rows
        .iter()
        .map(|(n, r)| (n, r["total_error"].parse::<f64>().unwrap()))
        .collect();
    names.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    names[0].0.clone()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1e-3)
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&dicelens(args, 2)).unwrap()
}

#[test]
fn report_equals_analyze_and_ground_truth() {
    let (dir, x, d) = corpus();
    let rows = csv_rows(&d.join("players.csv"));
    let truth = csv_rows(&x.with_extension("truth.csv"));
    let out = dir.path().join("P-truth");
    for name in rows.keys() {
        let report = json(&[
            "player",
            name,
            x.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--json",
        ]);
        let o = &report["overview"];
        for want in [&rows[name], &truth[name]] {
            assert_eq!(o["games"].to_string(), want["games"], "{name}");
            assert_eq!(o["decisions"].to_string(), want["decisions"], "{name}");
            let total: f64 = want["total_error"].parse().unwrap();
            assert!(
                close(o["total_error"].as_f64().unwrap(), total),
                "{name}: {} vs {total}",
                o["total_error"]
            );
        }
    }
}

#[test]
fn worst_decisions_are_the_largest_errors() {
    let (dir, x, d) = corpus();
    let name = some_player(d);
    let out = dir.path().join("P-worst");
    let report = json(&[
        "player",
        &name,
        x.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    let worst = report["worst"].as_array().unwrap();
    assert_eq!(worst.len(), 10);
    let losses: Vec<f64> = worst.iter().map(|w| w["loss"].as_f64().unwrap()).collect();
    assert!(losses.windows(2).all(|w| w[0] >= w[1]), "{losses:?}");
    for w in worst {
        let (best, value, loss) = (
            w["best_value"].as_f64().unwrap(),
            w["value"].as_f64().unwrap(),
            w["loss"].as_f64().unwrap(),
        );
        assert!((best - value - loss).abs() < 1e-9, "{w}");
        assert!(w["game"].is_string() && w["filled"].is_string() && w["dice"].is_string());
    }
    let mut reader = csv::Reader::from_path(d.join("decisions.csv")).unwrap();
    let max = reader
        .deserialize::<HashMap<String, String>>()
        .map(|r| r.unwrap())
        .filter(|r| r["player"] == name)
        .map(|r| r["error"].parse::<f64>().unwrap())
        .fold(0.0, f64::max);
    assert!(max > 0.0);
    assert!((losses[0] - max).abs() < 1e-6, "{} vs {max}", losses[0]);
}

#[test]
fn from_aggregates_gives_the_same_overview() {
    let (dir, x, d) = corpus();
    let name = some_player(d);
    let out = dir.path().join("P-from");
    let o = out.to_str().unwrap();
    let logs = json(&["player", &name, x.to_str().unwrap(), "--out", o, "--json"]);
    let from = json(&[
        "player",
        &name,
        "--from",
        d.to_str().unwrap(),
        "--out",
        o,
        "--json",
    ]);
    assert_eq!(logs["overview"], from["overview"]);
    assert_eq!(logs["rounds"], from["rounds"]);
    assert_eq!(logs["kinds"], from["kinds"]);
    assert_eq!(logs["trend"], from["trend"]);
    assert!(from["worst"].is_null());
    assert!(from["worst_note"]
        .as_str()
        .unwrap()
        .contains("not available"));
    let text = dicelens(
        &["player", &name, "--from", d.to_str().unwrap(), "--out", o],
        2,
    );
    assert!(text.contains("not available"), "{text}");
}

#[test]
fn html_page_has_both_charts() {
    let (dir, x, d) = corpus();
    let name = some_player(d);
    let out = dir.path().join("P-html");
    let text = dicelens(
        &[
            "player",
            &name,
            x.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        2,
    );
    for section in [
        "overview",
        "errors by round",
        "errors by decision kind",
        "worst decisions",
        "trend by month",
    ] {
        assert!(text.contains(section), "{section}: {text}");
    }
    let html = fs::read_to_string(out.join(format!("{name}.html"))).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("id=\"player-rounds\""));
    assert!(html.contains("id=\"player-trend\""));
    assert!(html.contains("<polyline"));
    assert!(!html.contains("NaN"));
    assert!(!html.contains("<script") && !html.contains("src="));
}

#[test]
fn unknown_player_is_a_usage_error() {
    let (dir, x, d) = corpus();
    let out = dir.path().join("P-unknown");
    let o = out.to_str().unwrap();
    for args in [
        vec![
            "player",
            "nobody",
            "--from",
            d.to_str().unwrap(),
            "--out",
            o,
        ],
        vec!["player", "sim0", x.to_str().unwrap(), "--out", o],
    ] {
        let result = run(&args, 2);
        assert_eq!(result.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(result.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("sim0"), "{stderr}");
        assert!(result.stdout.is_empty());
    }
}

#[test]
fn output_is_identical_with_one_and_two_threads() {
    let (dir, x, d) = corpus();
    let name = some_player(d);
    let mut runs = Vec::new();
    for threads in [1, 2] {
        let out = dir.path().join(format!("P-t{threads}"));
        let o = out.to_str().unwrap();
        let text = run(&["player", &name, x.to_str().unwrap(), "--out", o], threads);
        let json = run(
            &["player", &name, x.to_str().unwrap(), "--out", o, "--json"],
            threads,
        );
        assert!(text.status.success() && json.status.success());
        let html = fs::read(out.join(format!("{name}.html"))).unwrap();
        runs.push((text.stdout, json.stdout, html));
    }
    assert_eq!(runs[0], runs[1]);
}

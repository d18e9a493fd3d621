//! Accuracy and rating labels end to end (docs/methods.md, section 8): `games.csv`'s accuracy
//! is the documented formula over `decisions.csv`, a player's accuracy the mean of their games',
//! labels follow the documented bands, and the text, CSV, JSON and HTML outputs show them.

use crate::common::{csv_records, csv_rows, run_ok as dicelens};
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// Lichess's per-move accuracy of a loss in percent, cut to 0..=100 (the documented curve).
fn curve(loss: f64) -> f64 {
    (103.1668 * (-0.04354 * loss).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The documented band edges (error per non-forced decision), best label first.
const LABELS: [&str; 8] = [
    "Supernatural",
    "World class",
    "Expert",
    "Advanced",
    "Intermediate",
    "Casual",
    "Beginner",
    "Awful!",
];
const POINTS_EDGES: [f64; 7] = [0.0009, 0.0035, 0.017, 0.076, 0.36, 1.0, 2.2];
const MATCH_POINTS_EDGES: [f64; 7] = [0.0000067, 0.000025, 0.00013, 0.00056, 0.0026, 0.0073, 0.013];

/// The documented label of an error per non-forced decision against `edges`.
fn label(error: f64, edges: &[f64; 7]) -> &'static str {
    LABELS[edges.iter().filter(|&&edge| error >= edge).count()]
}

/// Simulates `games` games of `seats` seats and analyses them with `--decisions`; the output
/// directory and the leaderboard printed.
fn analysed(dir: &Path, seats: usize, games: usize) -> (std::path::PathBuf, String) {
    let corpus = dir.join(format!("s{seats}.ygn"));
    let out = dir.join(format!("out{seats}"));
    let (c, o) = (corpus.to_str().unwrap(), out.to_str().unwrap());
    let (seats, games) = (seats.to_string(), games.to_string());
    dicelens(
        &[
            "simulate",
            "--seats",
            &seats,
            "--players",
            "4",
            "--games",
            &games,
            "--seed",
            "32",
            "--out",
            c,
        ],
        2,
    );
    let text = dicelens(
        &["analyze", c, "--min-games", "1", "--decisions", "--out", o],
        2,
    );
    (out, text)
}

/// `games.csv`'s accuracy of every seat is the formula recomputed from `decisions.csv`; each
/// player's accuracy in `players.csv` is the mean of their games', and their label the band of
/// their error per non-forced decision: one-player games in points (loss = 5 x error), two-player
/// games in match points (loss = 100 x error).
#[test]
fn accuracy_is_the_formula_over_decisions_and_the_mean_over_games() {
    let dir = tempfile::tempdir().unwrap();
    for (seats, scale, edges) in [(1, 5.0, POINTS_EDGES), (2, 100.0, MATCH_POINTS_EDGES)] {
        let (out, _) = analysed(dir.path(), seats, 24);
        // (game, seat) -> the player and the accuracy of each non-forced decision.
        let mut decisions: BTreeMap<(String, usize), (String, Vec<f64>)> = BTreeMap::new();
        for (game, row) in csv_records(&out.join("decisions.csv")) {
            let seat: usize = row["seat"].parse().unwrap();
            let entry = decisions
                .entry((game, seat - 1))
                .or_insert_with(|| (row["player"].clone(), Vec::new()));
            if row["forced"] == "false" {
                let error: f64 = row["error"].parse().unwrap();
                entry.1.push(curve(scale * error));
            }
        }
        let mut of_player: BTreeMap<String, Vec<f64>> = BTreeMap::new();
        let games = csv_records(&out.join("games.csv"));
        assert_eq!(games.len(), 24);
        for (game, row) in &games {
            let seat_figures: Vec<&str> = row["accuracy"].split(';').collect();
            assert_eq!(seat_figures.len(), seats, "{game}: {}", row["accuracy"]);
            for (seat, figure) in seat_figures.iter().enumerate() {
                let (player, accuracies) = &decisions[&(game.clone(), seat)];
                let expected = accuracies.iter().sum::<f64>() / accuracies.len() as f64;
                let got: f64 = figure.parse().unwrap();
                assert!(
                    (got - expected).abs() < 1e-5,
                    "{game} seat {seat}: {got} vs {expected}"
                );
                of_player.entry(player.clone()).or_default().push(got);
            }
        }
        let players = csv_rows(&out.join("players.csv"));
        assert_eq!(players.len(), of_player.len());
        for (name, games) in &of_player {
            let row = &players[name];
            let mean = games.iter().sum::<f64>() / games.len() as f64;
            let got: f64 = row["accuracy"].parse().unwrap();
            assert!((got - mean).abs() < 1e-6, "{name}: {got} vs {mean}");
            let error = row["total_error"].parse::<f64>().unwrap()
                / row["unforced"].parse::<f64>().unwrap();
            assert_eq!(row["label"], label(error, &edges), "{name}: {error}");
        }
        // The figures vary: the simulated players are of different strength.
        let spread: Vec<&String> = players.values().map(|r| &r["accuracy"]).collect();
        assert!(spread.windows(2).any(|w| w[0] != w[1]), "{spread:?}");
    }
}

/// The leaderboard (text and JSON), `report.html`, a player page, a game page and `player`'s
/// text and JSON show each player's accuracy and label as `players.csv` has them, under
/// headers that say the columns are errors.
#[test]
fn outputs_show_accuracy_and_label() {
    let dir = tempfile::tempdir().unwrap();
    let (out, text) = analysed(dir.path(), 1, 12);
    let o = out.to_str().unwrap();
    let players = csv_rows(&out.join("players.csv"));
    let corpus = dir.path().join("s1.ygn");
    let c = corpus.to_str().unwrap();
    assert!(text.contains("err pts/game"), "{text}");
    assert!(text.contains("err pts/dec"), "{text}");
    assert_eq!(
        text.matches("pts/").count(),
        text.matches("err pts/").count(),
        "{text}"
    );
    for (name, row) in &players {
        let accuracy: f64 = row["accuracy"].parse().unwrap();
        let line = text
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name.as_str()))
            .unwrap_or_else(|| panic!("{name} in {text}"));
        assert!(line.contains(&format!(" {accuracy:.1} ")), "{line}");
        assert!(line.contains(&format!(" {} ", row["label"])), "{line}");
    }
    let json_dir = dir.path().join("json");
    let json: serde_json::Value = serde_json::from_str(&dicelens(
        &[
            "analyze",
            c,
            "--min-games",
            "1",
            "--json",
            "--out",
            json_dir.to_str().unwrap(),
        ],
        2,
    ))
    .unwrap();
    for ranked in json["leaderboards"][0]["leaderboard"].as_array().unwrap() {
        let row = &players[ranked["player"].as_str().unwrap()];
        let accuracy: f64 = row["accuracy"].parse().unwrap();
        assert!((ranked["accuracy"].as_f64().unwrap() - accuracy).abs() < 1e-6);
        assert_eq!(ranked["label"], row["label"].as_str());
    }
    let html = fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains(">accuracy</th>") && html.contains(">rating</th>"));
    let (name, row) = players.iter().next().unwrap();
    let accuracy: f64 = row["accuracy"].parse().unwrap();
    assert!(html.contains(&format!(
        "<td class=\"num\">{accuracy:.1}</td><td>{}</td>",
        row["label"]
    )));
    let pages: Vec<_> = fs::read_dir(out.join("players")).unwrap().collect();
    let page = pages
        .iter()
        .map(|p| p.as_ref().unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with(name.as_str())
        })
        .map(|p| fs::read_to_string(p).unwrap())
        .unwrap();
    assert!(page.contains("accuracy") && page.contains(row["label"].as_str()));
    let game = fs::read_dir(out.join("games"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    let game = fs::read_to_string(game.path()).unwrap();
    assert!(game.contains("<p id=\"accuracy\">Accuracy: "), "game page");
    let report = dicelens(
        &[
            "player",
            name,
            "--from",
            o,
            "--min-games",
            "1",
            "--out",
            dir.path().join("p").to_str().unwrap(),
        ],
        2,
    );
    assert!(report.contains(&format!("{accuracy:.1}")), "{report}");
    assert!(report.contains(row["label"].as_str()), "{report}");
    let report: serde_json::Value = serde_json::from_str(&dicelens(
        &[
            "player",
            name,
            "--from",
            o,
            "--min-games",
            "1",
            "--json",
            "--out",
            dir.path().join("q").to_str().unwrap(),
        ],
        2,
    ))
    .unwrap();
    let overview = &report["overview"];
    assert!((overview["accuracy"].as_f64().unwrap() - accuracy).abs() < 1e-6);
    assert_eq!(overview["label"], row["label"].as_str());
}

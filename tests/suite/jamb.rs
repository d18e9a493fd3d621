//! Jamb logs: the replay checks every Jamb rule (column order, Hand only after roll 1, the
//! straight's points by roll) and turns a Jamb game into decisions with its cells; every
//! format reads the cell codes.

use dicelens::replay::{replay, Broken, ReplayOptions, Replayed, Skip};
use dicelens::rules::jamb::{Cell, JambBox};
use dicelens::rules::{Choice, PlayerSheet};
use dicelens_parsers::{Format, GameRecord};

/// The one game of a YGN text of rule set `rules`, one player `mira`, ended early, with these
/// turn lines.
fn game(rules: &str, turns: &str) -> GameRecord {
    let text = format!(
        "[Game \"j\"]\n[Rules \"{rules}\"]\n[Players \"mira\"]\n[Termination \"abandoned\"]\n\n{turns}"
    );
    let mut games = Format::Ygn.games(text.as_bytes(), "j.ygn");
    let game = games
        .next()
        .expect("a game")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(games.next().is_none());
    game
}

/// Replays `game`, unfinished games included.
fn replayed(game: &GameRecord) -> Result<Replayed, Skip> {
    let mut out = Replayed::default();
    let options = ReplayOptions {
        include_unfinished: true,
    };
    replay(game, options, &mut out).map(|()| out)
}

/// The rule the game breaks and the violation's text.
fn broken(rules: &str, turns: &str) -> (Broken, String) {
    match replayed(&game(rules, turns)) {
        Err(Skip::Invalid(v)) => (v.rule, v.to_string()),
        other => panic!(
            "{turns}: expected a violation, got {:?}",
            other.map(|r| r.decisions.len())
        ),
    }
}

#[test]
fn a_legal_jamb_game_replays_into_decisions_with_cells_and_points() {
    // jamb-5: columns down, free, up, from the middle, toward the middle.
    let turns = "\
1. mira: 11236 k11 11145 k111 11141 D:1=4
2. mira: 12346 k2346 23465 F:K=56
3. mira: 66665 U:J=0
4. mira: 66654 I:MAX=27
5. mira: 66612 k666 66634 I:6=18
6. mira: 12345 O:J=0
7. mira: 22345 F:MIN=16
";
    let out = replayed(&game("jamb-5", turns)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.decisions.len(), 3 + 2 + 1 + 1 + 2 + 1 + 1);
    let writes: Vec<(u8, JambBox)> = out
        .decisions
        .iter()
        .filter_map(|d| match d.choice {
            Choice::Write(Cell { column, jbox }) => Some((column, jbox)),
            _ => None,
        })
        .collect();
    use JambBox::*;
    assert_eq!(
        writes,
        [
            (0, Ones),
            (1, Straight),
            (2, Jamb),
            (3, Max),
            (3, Sixes),
            (4, Jamb),
            (1, Min)
        ]
    );
    assert_eq!(out.box_points, [4, 56, 0, 27, 18, 0, 16]);
    let last = out.finals()[0];
    let PlayerSheet::Jamb(slip) = last else {
        panic!("a Jamb slip")
    };
    assert_eq!(slip.turns_left(), 65 - 7);
    // Upper 4 + 18, no bonus; no middle yet (Min and Max in different columns); lower 56.
    assert_eq!(last.points(), 4 + 56 + 18);
    assert_eq!(
        last.filled_codes(),
        "D:1,F:MIN,F:K,U:J,I:6,I:MAX,O:J",
        "cells column by column, top to bottom"
    );
    // The third decision (after roll 3) wrote the ones; the sheet before it was empty.
    assert_eq!(out.decisions[2].roll_number, 3);
    assert_eq!(out.decisions[2].sheet.points(), 0);
}

#[test]
fn every_jamb_rule_is_checked_with_what_the_rules_give() {
    let cases: [(&str, &str, Broken, &str); 9] = [
        // The straight scores by the roll it is made on.
        (
            "jamb-5",
            "1. mira: 12346 k2346 23465 F:K=66\n",
            Broken::WrongPoints,
            "F:K=56",
        ),
        (
            "jamb-5",
            "1. mira: 23465 F:K=56\n",
            Broken::WrongPoints,
            "F:K=66",
        ),
        (
            "jamb-5",
            "1. mira: 11111 k11111 11111 k11111 11111 F:K=46\n",
            Broken::WrongPoints,
            "F:K=0",
        ),
        // Down from the top, up from the bottom.
        ("jamb-5", "1. mira: 11236 D:2\n", Broken::ColumnOrder, "D:1"),
        ("jamb-5", "1. mira: 11236 U:1\n", Broken::ColumnOrder, "U:J"),
        // From the middle starts at Max or Min; toward the middle at either end.
        (
            "jamb-5",
            "1. mira: 11236 I:1\n",
            Broken::ColumnOrder,
            "I:MAX or I:MIN",
        ),
        (
            "jamb-5",
            "1. mira: 11236 O:2\n",
            Broken::ColumnOrder,
            "O:1 or O:J",
        ),
        // The hand column takes the first roll only.
        (
            "jamb-4",
            "1. mira: 11236 k11 11145 H:1\n",
            Broken::HandAfterFirstRoll,
            "only after roll 1",
        ),
        // jamb-5 has no hand column.
        (
            "jamb-5",
            "1. mira: 11236 H:1\n",
            Broken::UnknownBox,
            "a box of jamb-5",
        ),
    ];
    for (rules, turns, rule, gives) in cases {
        let (found, text) = broken(rules, turns);
        assert_eq!(found, rule, "{turns}: {text}");
        assert!(
            text.contains(gives),
            "{turns}: {text} should contain {gives:?}"
        );
    }
    let twice = "1. mira: 11236 F:1=2\n2. mira: 11236 F:1=2\n";
    assert_eq!(broken("jamb-5", twice).0, Broken::BoxAlreadyFilled);
    // From the middle, the next box must touch a filled one.
    let apart = "1. mira: 66654 I:MAX=27\n2. mira: 12345 I:K\n";
    let (rule, text) = broken("jamb-5", apart);
    assert_eq!(rule, Broken::ColumnOrder, "{text}");
    assert!(text.contains("I:6 or I:MIN"), "{text}");
    // The hand column after roll 1 is legal, with any box.
    let hand = "1. mira: 11236 H:K=0\n2. mira: 66612 H:6=18\n";
    assert!(replayed(&game("jamb-4", hand)).is_ok());
}

#[test]
fn yahtzee_codes_are_unknown_boxes_in_jamb_and_jamb_cells_in_yahtzee() {
    let (rule, text) = broken("jamb-5", "1. mira: 11236 3K\n");
    assert_eq!(rule, Broken::UnknownBox, "{text}");
    let (rule, text) = broken("yahtzee", "1. mira: 11236 D:1\n");
    assert_eq!(rule, Broken::UnknownBox, "{text}");
}

#[test]
fn jsonl_and_csv_carry_jamb_cells_like_ygn() {
    let turns = "1. mira: 11236 k11 11145 k111 11141 D:1=4\n2. mira: 12346 k2346 23465 F:K=56\n";
    let ygn = game("jamb-5", turns);
    for format in [Format::Jsonl, Format::Csv] {
        let mut bytes = Vec::new();
        format.write_start(&mut bytes).unwrap();
        format.write_game(&ygn, &mut bytes).unwrap();
        let back: Vec<GameRecord> = format
            .games(&bytes, "j")
            .map(|g| g.unwrap_or_else(|e| panic!("{format}: {e}")))
            .collect();
        assert_eq!(back.len(), 1, "{format}");
        let (a, b) = (replayed(&ygn).unwrap(), replayed(&back[0]).unwrap());
        assert_eq!(a.decisions, b.decisions, "{format}");
        assert_eq!(back[0].turns[1].category.as_str(), "F:K", "{format}");
    }
}

/// Per strategy: decisions and summed error over its players' rows of `players.csv`.
fn error_per_decision_by_strategy(players_csv: &std::path::Path) -> Vec<(String, f64)> {
    let mut by: std::collections::BTreeMap<String, (f64, f64)> = Default::default();
    for (player, row) in crate::common::csv_records(players_csv) {
        let strategy = player.split('-').next().unwrap().to_string();
        let entry = by.entry(strategy).or_default();
        entry.0 += row["decisions"].parse::<f64>().unwrap();
        entry.1 += row["total_error"].parse::<f64>().unwrap();
    }
    by.into_iter().map(|(s, (n, e))| (s, e / n)).collect()
}

#[test]
fn analyze_ranks_the_simulated_jamb_strategies_by_strength() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("jamb.ygn");
    let out = dir.path().join("out");
    let corpus_text = corpus.to_str().unwrap();
    crate::common::run_ok(
        &[
            "simulate",
            "--rules",
            "jamb-5",
            "--strategy",
            "oracle,ms,pb,p2,p1,rnd",
            "--players",
            "6",
            "--games",
            "600",
            "--seed",
            "5",
            "--out",
            corpus_text,
        ],
        2,
    );
    crate::common::run_ok(
        &[
            "analyze",
            corpus_text,
            "--min-games",
            "1",
            "--out",
            out.to_str().unwrap(),
        ],
        2,
    );
    let errors = error_per_decision_by_strategy(&out.join("players.csv"));
    let of = |name: &str| errors.iter().find(|(s, _)| s == name).unwrap().1;
    // Strongest to weakest; P1 and P2 are published as equals.
    let (p1, p2) = (of("p1"), of("p2"));
    let order = [
        of("oracle"),
        of("ms"),
        of("pb"),
        p1.min(p2),
        p1.max(p2),
        of("rnd"),
    ];
    assert!(
        order.windows(2).all(|w| w[0] < w[1]),
        "error per decision by strategy: {errors:?}"
    );
    assert!(of("oracle") < 0.05 * of("rnd"), "{errors:?}");
    // The report names the heuristic Jamb oracle.
    let summary = std::fs::read_to_string(out.join("summary.json")).unwrap();
    assert!(
        summary.contains("heuristic Jamb oracle (jamb-5)"),
        "{summary}"
    );
    // validate on one game prints the per-roll table: a row per decision, cells by code.
    let validate = crate::common::run_ok(&["validate", corpus_text, "--game", "sim5-0000001"], 1);
    assert!(validate.starts_with("verdict: legal"), "{validate}");
    let game = crate::common::find_game(&corpus, "sim5-0000001");
    let rolls: usize = game.turns.iter().map(|t| t.rolls().len()).sum();
    let rows = validate
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<u16>().is_ok())
        })
        .count();
    assert_eq!(rows, rolls, "{validate}");
    let writes = validate.lines().filter(|l| l.contains(" score ")).count();
    assert!(writes >= 65, "{validate}");
    assert!(validate.contains("score D:1="), "{validate}");
}

/// Mean, and half-width of the 95% confidence interval, of `totals`.
fn mean_ci(totals: &[f64]) -> (f64, f64) {
    let n = totals.len() as f64;
    let mean = totals.iter().sum::<f64>() / n;
    let var = totals.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

#[test]
fn the_strong_oracle_scores_at_least_15_percent_above_ms_in_the_same_run() {
    use dicelens::rules::jamb::JambRules;
    use dicelens::simulate::jamb::{jamb_players, maker, simulate_jamb_game, JambPlan};
    use rayon::prelude::*;
    let rules = JambRules::JAMB_5;
    let dir = crate::common::tables_dir();
    let games = 1_000;
    let mut means = Vec::new();
    for strategy in ["oracle", "ms"] {
        let strategies = vec![strategy.to_string()];
        let players = jamb_players(&strategies, 1, 11);
        let make = maker(&strategies, rules, dir, &dicelens::tables::Silent).unwrap();
        let plan = JambPlan {
            rules,
            seats: 1,
            games,
            seed: 11,
            dice: Default::default(),
        };
        // The same seeds, so the same first rolls, for both players.
        let totals: Vec<f64> = (0..games)
            .into_par_iter()
            .map(|i| {
                simulate_jamb_game(&plan, &players, &*make, i)
                    .unwrap()
                    .totals[0] as f64
            })
            .collect();
        means.push(mean_ci(&totals));
    }
    let ((oracle, oracle_ci), (ms, ms_ci)) = (means[0], means[1]);
    println!("oracle {oracle:.1} ± {oracle_ci:.1}, MS {ms:.1} ± {ms_ci:.1} ({games} games each)");
    assert!(
        oracle - oracle_ci > 1.15 * (ms + ms_ci),
        "oracle {oracle} ± {oracle_ci} against MS {ms} ± {ms_ci}"
    );
}

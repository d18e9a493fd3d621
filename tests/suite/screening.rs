//! Engine-assistance screening and luck-adjusted results, end to end: on simulated corpora the
//! perfect player (temperature 0) tops the agreement ranking and few simulated humans are
//! flagged (at most the documented rate), and the luck and result columns of `players.csv`
//! equal sums recomputed here from the rated decisions and the games' final sheets.

use crate::common::{csv_records, csv_rows, run_ok as dicelens, simulate_two_seat, table};
use dicelens::replay::{replay, ReplayOptions, Replayed};
use dicelens::rules::{RuleSet, Sheet};
use dicelens::screening::FALSE_POSITIVE_RATE;
use dicelens::simulate::{players, simulate_batch, Plan};
use dicelens::solve::expected::sheet_value;
use std::collections::HashMap;
use std::path::Path;

/// Reads a CSV file as rows of named fields, in order.
fn rows(path: &Path) -> Vec<HashMap<String, String>> {
    csv_records(path).into_iter().map(|(_, row)| row).collect()
}

/// A number of a row.
fn number(row: &HashMap<String, String>, column: &str) -> f64 {
    row[column]
        .parse()
        .unwrap_or_else(|_| panic!("{column}: {:?}", row[column]))
}

/// Simulates a one-player corpus of 40 players (player `sim01` perfect, the others of
/// temperatures from 0.02 to 8 points) and analyses it; the screening's rows.
fn screened_corpus(dir: &Path, seed: u64) -> Vec<HashMap<String, String>> {
    let corpus = dir.join(format!("s{seed}.ygn"));
    let out = dir.join(format!("s{seed}"));
    let c = corpus.to_str().unwrap();
    let seed = seed.to_string();
    dicelens(
        &[
            "simulate",
            "--rules",
            "yahtzee",
            "--seats",
            "1",
            "--players",
            "40",
            "--games",
            "4000",
            "--seed",
            &seed,
            "--out",
            c,
        ],
        2,
    );
    dicelens(
        &[
            "analyze",
            c,
            "--oracle",
            "e",
            "--out",
            out.to_str().unwrap(),
        ],
        2,
    );
    rows(&out.join("screening.csv"))
}

/// On simulated corpora the perfect player has the highest agreement (every non-forced choice
/// a best one), and the simulated humans flagged are at most the documented share.
#[test]
fn perfect_player_tops_agreement_and_few_humans_are_flagged() {
    let dir = tempfile::tempdir().unwrap();
    let (mut humans, mut flagged) = (0usize, 0usize);
    for seed in 1..=4 {
        let rows = screened_corpus(dir.path(), seed);
        assert!(rows.len() >= 30, "seed {seed}: {} screened", rows.len());
        let mut by_agreement = rows.clone();
        by_agreement.sort_by(|a, b| number(b, "agreement").total_cmp(&number(a, "agreement")));
        let top = &by_agreement[0];
        assert_eq!(top["player"], "sim01", "seed {seed}: {top:?}");
        assert_eq!(top["agreed"], top["unforced"], "seed {seed}");
        // Strictly above every simulated human.
        assert!(number(&by_agreement[1], "agreement") < 1.0, "seed {seed}");
        // Near-total agreement first, then by z-score, highest first (one engine here: the
        // oracle is the solitaire one, and the solitaire columns are empty).
        let near = rows
            .iter()
            .take_while(|r| !r["near_total"].is_empty())
            .count();
        assert!(rows[near..].iter().all(|r| r["near_total"].is_empty()));
        assert!(rows.iter().all(|r| r["solitaire_unforced"].is_empty()));
        let z: Vec<f64> = rows[near..]
            .iter()
            .filter(|r| !r["z"].is_empty())
            .map(|r| number(r, "z"))
            .collect();
        assert!(z.windows(2).all(|w| w[0] >= w[1]), "seed {seed}: {z:?}");
        for row in rows.iter().filter(|r| r["player"] != "sim01") {
            humans += 1;
            flagged += usize::from(row["flagged"] == "true");
            assert!(number(row, "unforced") >= 300.0);
        }
    }
    let rate = flagged as f64 / humans as f64;
    eprintln!("screening: {flagged} of {humans} simulated humans flagged");
    assert!(
        rate <= FALSE_POSITIVE_RATE,
        "{flagged} of {humans} simulated humans flagged ({rate}), more than the documented {}",
        FALSE_POSITIVE_RATE
    );
}

/// Two-player corpora with one player who always plays the solitaire-optimal move (`sim01`,
/// temperature 0: what copying a public solver gives) among simulated humans, analysed with
/// the default oracle (match points): the solver agrees with the solitaire oracle on every
/// decision it sees a choice in, is listed first for near-total agreement with it, and is
/// flagged by it; the simulated humans are flagged by either engine at most at the documented
/// rate.
#[test]
fn a_solitaire_solver_among_humans_is_listed_first_and_flagged_by_the_solitaire_oracle() {
    let dir = tempfile::tempdir().unwrap();
    let (mut humans, mut flagged) = (0usize, 0usize);
    for seed in SOLVER_SEEDS {
        let corpus = dir.path().join(format!("two{seed}.ygn"));
        let out = dir.path().join(format!("two{seed}"));
        let c = corpus.to_str().unwrap();
        let args = simulate_two_seat(SOLVER_PLAYERS, SOLVER_GAMES, seed, c);
        dicelens(&args.iter().map(String::as_str).collect::<Vec<_>>(), 2);
        dicelens(&["analyze", c, "--out", out.to_str().unwrap()], 2);
        let rows = rows(&out.join("screening.csv"));
        assert!(rows.len() >= 8, "seed {seed}: {} screened", rows.len());
        let solver = &rows[0];
        assert_eq!(solver["player"], "sim01", "seed {seed}: {rows:?}");
        assert_eq!(solver["unit"], "match_points");
        assert_eq!(solver["near_total"], "solitaire", "seed {seed}");
        assert_eq!(solver["solitaire_agreed"], solver["solitaire_unforced"]);
        assert!(number(solver, "solitaire_unforced") >= 300.0);
        assert_eq!(
            solver["solitaire_flagged"], "true",
            "seed {seed}: {solver:?}"
        );
        // The evidence: a near-perfect stretch against the solitaire oracle over every game.
        assert!(
            number(solver, "solitaire_stretch_decisions") >= 300.0,
            "{solver:?}"
        );
        for row in &rows[1..] {
            humans += 1;
            flagged += usize::from(row["flagged"] == "true" || row["solitaire_flagged"] == "true");
            assert!(!row["solitaire_unforced"].is_empty(), "{row:?}");
        }
        // The report shows both engines and the evidence.
        let report = std::fs::read_to_string(out.join("report.html")).unwrap();
        assert!(
            report.contains("<li><strong>sim01</strong>: 100.0% of"),
            "seed {seed}"
        );
        assert!(report.contains("near total (solitaire)"), "seed {seed}");
    }
    let rate = flagged as f64 / humans as f64;
    eprintln!("screening, two players: {flagged} of {humans} simulated humans flagged");
    assert!(
        rate <= FALSE_POSITIVE_RATE,
        "{flagged} of {humans} simulated humans flagged ({rate}), more than the documented {}",
        FALSE_POSITIVE_RATE
    );
}

/// The two-player corpora of the solver test: seeds, players and games (the solver plays
/// enough games for 300 non-forced decisions, and so do the humans who are its peers).
const SOLVER_SEEDS: [u64; 2] = [1, 2];
/// Players of each corpus.
const SOLVER_PLAYERS: usize = 12;
/// Games of each corpus.
const SOLVER_GAMES: usize = 300;

/// Per player: the sum of luck, the finished games, the mean result and the luck-adjusted
/// result in `players.csv` equal those recomputed from `decisions.csv` (luck of each decision)
/// and the replayed games' final sheets (results); in one-player games the luck-adjusted score
/// is also the empty sheet's value less the error per game (final = start + luck - error).
#[test]
fn luck_columns_equal_the_per_decision_sums() {
    let dir = tempfile::tempdir().unwrap();
    let rules = RuleSet::MAIN[0];
    for seats in [1usize, 2] {
        let plan = Plan {
            rules,
            seats,
            players: 5,
            games: 40,
            seed: 21,
            ..Plan::default()
        };
        let corpus = dir.path().join(format!("luck{seats}.ygn"));
        let out = dir.path().join(format!("luck{seats}"));
        let c = corpus.to_str().unwrap();
        let (games, seed, seats_arg) = (
            plan.games.to_string(),
            plan.seed.to_string(),
            seats.to_string(),
        );
        dicelens(
            &[
                "simulate",
                "--rules",
                rules.name(),
                "--seats",
                &seats_arg,
                "--players",
                "5",
                "--games",
                &games,
                "--seed",
                &seed,
                "--out",
                c,
            ],
            2,
        );
        // One-player games in points; two-player games in match points (the default oracle).
        let mut args = vec!["analyze", c, "--decisions", "--min-games", "1"];
        if seats == 1 {
            args.extend(["--oracle", "e"]);
        }
        args.extend(["--out", out.to_str().unwrap()]);
        dicelens(&args, 2);
        // Luck of each player in each game, from the rated decisions.
        let mut luck: HashMap<(String, String), f64> = HashMap::new();
        for row in rows(&out.join("decisions.csv")) {
            *luck
                .entry((row["game"].clone(), row["player"].clone()))
                .or_default() += number(&row, "luck");
        }
        // Results and net luck of each player, from the replayed games.
        let table_values = table(rules);
        let mut expected: HashMap<String, (f64, f64, f64, u64)> = HashMap::new();
        for game in simulate_batch(table_values, &plan, &players(&plan), 0..plan.games) {
            let mut replayed = Replayed::default();
            replay(&game.record, ReplayOptions::default(), &mut replayed).unwrap();
            assert!(replayed.complete);
            let finals: Vec<i64> = replayed.finals().iter().map(|s| s.points()).collect();
            let id = &game.record.provenance.game_id;
            let names = &game.record.players;
            for (seat, name) in names.iter().enumerate() {
                let own = luck[&(id.clone(), name.clone())];
                let (result, net) = if seats == 1 {
                    (finals[seat] as f64, own)
                } else {
                    let other = 1 - seat;
                    let theirs = luck[&(id.clone(), names[other].clone())];
                    let won = match finals[seat].cmp(&finals[other]) {
                        std::cmp::Ordering::Greater => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Less => 0.0,
                    };
                    (won, own - theirs)
                };
                let e = expected.entry(name.clone()).or_default();
                e.0 += own;
                e.1 += result;
                e.2 += net;
                e.3 += 1;
            }
        }
        let players_csv = csv_rows(&out.join("players.csv"));
        assert_eq!(players_csv.len(), expected.len(), "{seats} seats");
        let start = sheet_value(table_values, &Sheet::empty(rules)).unwrap();
        for (name, (own, result, net, games)) in &expected {
            let row = &players_csv[name];
            let n = *games as f64;
            let close = |column: &str, want: f64| {
                let got = number(row, column);
                assert!(
                    (got - want).abs() < 1e-6,
                    "{seats} seats, {name}: {column} {got} vs {want}"
                );
            };
            close("luck", *own);
            close("luck_per_game", own / n);
            close("finished", n);
            close("result_per_game", result / n);
            close("net_luck_per_game", net / n);
            close("luck_adjusted_per_game", (result - net) / n);
            if seats == 1 {
                close(
                    "luck_adjusted_per_game",
                    start - number(row, "error_per_game"),
                );
            }
        }
    }
}

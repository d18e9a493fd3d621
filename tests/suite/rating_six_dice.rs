//! Rating the rule sets of issue 33 (`jamb-6a`, `yamb-hr`, `maxi-yatzy`): announcements are
//! choices of roll 1, later rolls of an announced turn and pure hands are valued at their own
//! moment, the five-roll last turn has the right rolls left, and every command runs on them.
//!
//! The real Jamb tables of these rule sets take too long to build for the suite, so the Jamb
//! oracle here reads tables of the right shape whose values are all 0
//! ([`JambTables::zero`]): the oracle is then the exact turn on the points credited, with the
//! exact endgame of the last six boxes, a different but complete oracle, and the commands read
//! the same tables from the file it is written to. What is checked is the rating, against the
//! oracle's values computed directly, not the oracle's strength.

use crate::common::{csv_records, replayed};
use dicelens::parsers::{BoxCode, GameRecord, Termination};
use dicelens::rate::JambOracles;
use dicelens::rules::jamb::{Cell, JambRules, JambTurn};
use dicelens::simulate::jamb::{jamb_players, simulate_jamb_game, JambPlan, JambPlayer};
use dicelens::simulate::DiceLaw;
use dicelens::solve::jamb::oracle::{JambOracle, JambTurnCache, OraclePlayer};
use dicelens::solve::jamb::tables::JambTables;
use dicelens::tables::jamb_path;
use dicelens::{rate_game, Choice, Rated, Thresholds};
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

/// The oracle on the zero tables of `rules`, the tables also written to `dir` where the
/// commands read them.
fn zero_oracle(dir: &Path, rules: JambRules) -> Arc<JambOracle> {
    let tables = JambTables::zero(rules);
    std::fs::create_dir_all(dir).expect("a tables directory");
    std::fs::write(jamb_path(dir, rules), tables.to_bytes()).expect("the tables written");
    Arc::new(JambOracle::from_tables(tables))
}

/// Runs `dicelens ARGS` with the tables of `tables`.
fn output(args: &[&str], tables: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dicelens"))
        .args(args)
        .env("DICELENS_TABLES", tables)
        .output()
        .expect("the binary runs")
}

/// Runs `dicelens ARGS` with the tables of `tables`; its standard output (it must succeed).
fn dicelens(args: &[&str], tables: &Path) -> String {
    let out = output(args, tables);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs `dicelens ARGS`, which must fail; its standard error.
fn dicelens_fails(args: &[&str], tables: &Path) -> String {
    let out = output(args, tables);
    assert!(!out.status.success(), "{args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The rows of a CSV file, each with its key and its fields by column name.
type Rows = Vec<(String, HashMap<String, String>)>;

/// `analyze LOG --decisions` into `out` with the tables of `tables`: the rows of
/// `decisions.csv` and `summary.json`.
fn analyze(log: &Path, out: &Path, tables: &Path) -> (Rows, String) {
    let path = |p: &Path| p.to_str().expect("a UTF-8 path").to_string();
    dicelens(
        &[
            "analyze",
            &path(log),
            "--out",
            &path(out),
            "--decisions",
            "--min-games",
            "1",
        ],
        tables,
    );
    let summary = std::fs::read_to_string(out.join("summary.json")).expect("summary.json");
    (csv_records(&out.join("decisions.csv")), summary)
}

/// `player NAME LOG --json` (its pages in `out`) with the tables of `tables`: the report.
fn player(name: &str, log: &Path, out: &Path, tables: &Path) -> String {
    let path = |p: &Path| p.to_str().expect("a UTF-8 path").to_string();
    let report = dicelens(
        &[
            "player",
            name,
            &path(log),
            "--min-games",
            "1",
            "--json",
            "--out",
            &path(out),
        ],
        tables,
    );
    assert!(report.contains(name), "{report}");
    report
}

/// One game the oracle plays alone (`seed`), as simulate records it.
fn oracle_game(oracle: &Arc<JambOracle>, seed: u64) -> GameRecord {
    let rules = *oracle.rules();
    let plan = JambPlan {
        rules,
        seats: 1,
        games: 1,
        seed,
        dice: DiceLaw::Fair,
    };
    let players = jamb_players(&["oracle".to_string()], 1, seed);
    let make = |_: &str| -> Option<Box<dyn JambPlayer>> {
        Some(Box::new(OraclePlayer::new(Arc::clone(oracle))))
    };
    simulate_jamb_game(&plan, &players, &make, 0)
        .expect("the oracle plays legally")
        .record
}

/// Every decision of `game` rated by `oracle`.
fn rate(oracle: &Arc<JambOracle>, game: &GameRecord) -> Vec<Rated> {
    let (replayed, result) = replayed(game);
    result.expect("a legal game");
    let mut oracles = JambOracles::default();
    oracles.add(JambOracle::clone(oracle));
    let mut rated = Vec::new();
    rate_game(
        &oracles,
        &replayed,
        &Thresholds::POINTS,
        &mut Default::default(),
        &mut rated,
    )
    .expect("every decision rated");
    assert_eq!(rated.len(), replayed.decisions.len());
    rated
}

/// `game` cut after turn `t`, whose turn is replaced by a write of its first roll in `cell`
/// (a code), announced first when `announce`.
fn first_roll_written(game: &GameRecord, t: usize, cell: &str, announce: bool) -> GameRecord {
    let mut game = game.clone();
    game.turns.truncate(t + 1);
    game.termination = Termination::Abandoned;
    game.result = None;
    let turn = &mut game.turns[t];
    let first = turn.rolls()[..1].to_vec();
    turn.set_rolls(&first, &[]).expect("one roll");
    turn.category = BoxCode::parse(cell).expect("a cell code");
    turn.announced = announce.then_some(turn.category);
    turn.points = None;
    game
}

/// The code of `cell` on the slips of `rules`.
fn code(rules: JambRules, cell: Cell) -> String {
    dicelens::rules::jamb::JambSheet::new(rules).cell_code(cell)
}

#[test]
fn the_oracles_own_games_rate_with_no_error_and_announcements_are_rated_as_choices() {
    let dir = tempfile::tempdir().expect("a directory");
    let rules = JambRules::JAMB_6A;
    let oracle = zero_oracle(dir.path(), rules);
    let mut cache = JambTurnCache::default();
    let (mut bad, mut missed) = (None, None);
    for seed in 1..=4 {
        let game = oracle_game(&oracle, seed);
        let rated = rate(&oracle, &game);
        // The oracle's own choices, announcements included, lose nothing.
        for r in &rated {
            assert!(r.error.abs() < 1e-9, "seed {seed}: {r:?}");
            assert_eq!(
                r.best_announced,
                r.decision.announced.filter(|_| r.decision.roll_number == 1)
            );
        }
        // The five-roll last turn: rolls left counted from five.
        let last = rated.last().expect("decisions");
        assert_eq!(
            last.decision.rolls_left(),
            5 - last.decision.roll_number,
            "{:?}",
            last.decision
        );
        for r in rated.iter().filter(|r| r.decision.roll_number == 1) {
            let d = &r.decision;
            let slip = *d.sheet.jamb().expect("a slip");
            let t = usize::from(d.turn);
            match d.announced {
                // An announced turn written in the first box of roll 1 instead: a missed
                // announcement, worth the announcement's value less the write's.
                Some(cell) if missed.is_none() => {
                    let plain = oracle.options_at(&slip, &d.dice, JambTurn::at_roll(1), &mut cache);
                    let write = plain
                        .iter()
                        .filter(|(c, _)| matches!(c, Choice::Write(_)))
                        .max_by(|a, b| a.1.total_cmp(&b.1));
                    if let Some(&(Choice::Write(w), value)) = write {
                        let announced = oracle
                            .announcements(&slip, &d.dice, &mut cache)
                            .into_iter()
                            .find(|(c, _)| *c == cell)
                            .expect("the announcement listed")
                            .1;
                        let game = first_roll_written(&game, t, &code(rules, w), false);
                        missed = Some((game, announced - value, cell));
                    }
                }
                // An unannounced turn announcing its worst box and writing roll 1 there.
                None if bad.is_none() => {
                    let worst = oracle
                        .announcements(&slip, &d.dice, &mut cache)
                        .into_iter()
                        .min_by(|a, b| a.1.total_cmp(&b.1));
                    if let Some((cell, _)) = worst {
                        let moment = JambTurn {
                            announced: Some(cell.jbox),
                            ..JambTurn::at_roll(1)
                        };
                        let written = oracle
                            .options_at(&slip, &d.dice, moment, &mut cache)
                            .into_iter()
                            .find(|(c, _)| *c == Choice::Write(cell))
                            .expect("the announced cell written")
                            .1;
                        let game = first_roll_written(&game, t, &code(rules, cell), true);
                        bad = Some((game, r.best - written, cell));
                    }
                }
                _ => {}
            }
        }
    }
    let (game, want, cell) = bad.expect("a turn that could have announced");
    let rated = rate(&oracle, &game);
    let last = rated.last().expect("decisions");
    assert_eq!(last.decision.announced, Some(cell));
    assert!(
        want > 1e-6,
        "announcing the worst box costs something: {want}"
    );
    assert!((last.error - want).abs() < 1e-9, "{} vs {want}", last.error);
    let (game, want, cell) = missed.expect("an announced turn in four games");
    let rated = rate(&oracle, &game);
    let last = rated.last().expect("decisions");
    assert_eq!(last.decision.announced, None);
    assert_eq!(last.best_announced, Some(cell));
    assert!(
        want > 0.0,
        "the oracle announced: worth more than any write"
    );
    assert!((last.error - want).abs() < 1e-9, "{} vs {want}", last.error);
}

/// `analyze` and `player` on oracle games of `rules` simulated by the command: the rule set
/// named, every decision rated with no error, each announcement shown in its choice.
fn commands_rate_every_decision(rules: JambRules) {
    let dir = tempfile::tempdir().expect("a directory");
    let tables = dir.path().join("tables");
    zero_oracle(&tables, rules);
    let log = dir.path().join("games.ygn");
    let log_s = log.to_str().expect("UTF-8");
    dicelens(
        &[
            "simulate",
            "--rules",
            rules.name,
            "--strategy",
            "oracle",
            "--games",
            "1",
            "--seed",
            "3",
            "--out",
            log_s,
        ],
        &tables,
    );
    let text = std::fs::read_to_string(&log).expect("the games");
    let announced = text.matches(" @A:").count();
    let (rows, summary) = analyze(&log, &dir.path().join("analysis"), &tables);
    assert_eq!(rows.len(), decisions_of(&log).len(), "every decision rated");
    let mut shown = 0;
    for (_, row) in &rows {
        let error: f64 = row["error"].parse().expect("a number");
        assert!(error.abs() < 1e-6, "{row:?}");
        if row["choice"].starts_with("@A:") {
            shown += 1;
            assert_eq!(row["roll"], "1", "{row:?}");
        }
    }
    assert_eq!(shown, announced, "one announcing choice per announced turn");
    assert!(summary.contains(rules.name), "{summary}");
    let name = text
        .lines()
        .find_map(|l| l.strip_prefix("[Players \"")?.strip_suffix("\"]"))
        .expect("a player");
    player(name, &log, &dir.path().join("player"), &tables);
}

#[test]
fn analyze_and_player_rate_every_jamb_6a_decision() {
    commands_rate_every_decision(JambRules::JAMB_6A);
}

#[test]
fn analyze_and_player_rate_every_yamb_hr_decision() {
    commands_rate_every_decision(JambRules::YAMB_HR);
}

#[test]
fn eval_lists_announcements_after_roll_1_and_values_an_announced_turn() {
    let dir = tempfile::tempdir().expect("a directory");
    let rules = JambRules::JAMB_6A;
    let oracle = zero_oracle(dir.path(), rules);
    let slip = dicelens::rules::jamb::JambSheet::new(rules);
    let faces = [6, 6, 6, 6, 3, 1];
    let dice = dicelens::dice::DiceSpace::of(faces.len())
        .and_then(|space| {
            space
                .rolls()
                .iter()
                .copied()
                .find(|d| d.faces() == [1, 3, 6, 6, 6, 6])
        })
        .expect("six dice");
    let mut cache = JambTurnCache::default();
    let json = dicelens(
        &[
            "eval", "--rules", "jamb-6a", "--filled", "-", "--roll", "666631", "--json",
        ],
        dir.path(),
    );
    let rows: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let rows = rows.as_array().expect("an array");
    let announcements = oracle.announcements(&slip, &dice, &mut cache);
    assert_eq!(announcements.len(), 13);
    for (cell, value) in &announcements {
        let name = format!("announce {}", code(rules, *cell));
        let row = rows
            .iter()
            .find(|r| r["option"] == name.as_str())
            .unwrap_or_else(|| panic!("{name} not listed: {json}"));
        let got = row["value"].as_f64().expect("a value");
        assert!((got - value).abs() < 1e-9, "{name}: {got} vs {value}");
    }
    let plain = oracle.options_at(&slip, &dice, JambTurn::at_roll(1), &mut cache);
    assert_eq!(rows.len(), plain.len() + announcements.len());
    // After announcing the poker, at roll 2: only A:P is written, or dice kept.
    let moment = JambTurn {
        roll_number: 2,
        announced: Some(dicelens::rules::jamb::JambBox::FourKind),
        pure: false,
    };
    let want = oracle.options_at(&slip, &dice, moment, &mut cache);
    let text = dicelens(
        &[
            "eval",
            "--rules",
            "jamb-6a",
            "--filled",
            "-",
            "--roll",
            "666631",
            "--rolls-left",
            "1",
            "--announced",
            "A:P",
        ],
        dir.path(),
    );
    assert!(text.contains("announced A:P"), "{text}");
    assert!(text.contains("score A:P"), "{text}");
    assert!(!text.contains("announce "), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("score ")).count(),
        1,
        "{text}"
    );
    let best = want.iter().map(|o| o.1).fold(f64::NEG_INFINITY, f64::max);
    assert!(text.contains(&format!("{best:.4}")), "{best}: {text}");
    // Impossible moments are refused with a reason.
    let tables = dir.path();
    let err = dicelens_fails(
        &[
            "eval",
            "--rules",
            "jamb-6a",
            "--roll",
            "666631",
            "--announced",
            "D:P",
        ],
        tables,
    );
    assert!(
        err.contains("--announced") && err.contains("Announce"),
        "{err}"
    );
    let err = dicelens_fails(
        &[
            "eval",
            "--rules",
            "jamb-5",
            "--roll",
            "66663",
            "--announced",
            "A:P",
        ],
        tables,
    );
    assert!(err.contains("no Announce column"), "{err}");
    let err = dicelens_fails(
        &[
            "eval",
            "--rules",
            "yamb-hr",
            "--roll",
            "66663",
            "--rolls-left",
            "1",
            "--pure",
        ],
        tables,
    );
    assert!(err.contains("no pure hands"), "{err}");
}

/// The fixture `name` of `fixtures/ygn/six-dice`.
fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/ygn/six-dice")
        .join(name)
}

/// The decisions of each game of the YGN log `path`, replayed.
fn games_decisions(path: &Path) -> Vec<Vec<dicelens::Decision>> {
    let text = std::fs::read_to_string(path).expect("the log");
    dicelens::Format::Ygn
        .games(text.as_bytes(), "log.ygn")
        .map(|g| replayed(&g.expect("a game")).0.decisions)
        .collect()
}

/// Every decision of the YGN log `path`, replayed.
fn decisions_of(path: &Path) -> Vec<dicelens::Decision> {
    games_decisions(path).concat()
}

#[test]
fn the_six_dice_fixtures_are_rated_decision_by_decision_and_on_the_game_page() {
    let dir = tempfile::tempdir().expect("a directory");
    let tables = dir.path().join("tables");
    for (name, rules, id) in [
        ("jamb_6a.ygn", JambRules::JAMB_6A, "sim3-0000001"),
        ("yamb_hr.ygn", JambRules::YAMB_HR, "sim1-0000001"),
    ] {
        zero_oracle(&tables, rules);
        let log = fixture(name);
        let log_s = log.to_str().expect("UTF-8");
        let (rows, _) = analyze(&log, &dir.path().join(rules.name), &tables);
        let decisions = decisions_of(&log);
        assert_eq!(rows.len(), decisions.len(), "{name}: every decision rated");
        let text = std::fs::read_to_string(&log).expect("the log");
        let announcing = rows
            .iter()
            .filter(|(_, row)| row["choice"].starts_with("@A:"))
            .count();
        assert_eq!(announcing, text.matches(" @A:").count(), "{name}");
        assert!(announcing > 0, "{name} announces");
        for ((_, row), d) in rows.iter().zip(&decisions) {
            assert_eq!(row["roll"], d.roll_number.to_string(), "{name}: {row:?}");
            let error: f64 = row["error"].parse().expect("a number");
            assert!(error >= 0.0, "{row:?}");
        }
        // The five-roll last turn of jamb-6a: its rolls 4 and 5 rated, rolls left from five.
        let late: Vec<&dicelens::Decision> =
            decisions.iter().filter(|d| d.roll_number > 3).collect();
        assert_eq!(late.is_empty(), rules.last_turn_rolls == 3, "{name}");
        for d in late {
            assert_eq!(d.rolls_left(), 5 - d.roll_number, "{d:?}");
        }
        // The game page: every decision rated, an announcement shown before its choice.
        let pages = dir.path().join(format!("{}-pages", rules.name));
        let report = dicelens(
            &[
                "validate",
                log_s,
                "--game",
                id,
                "--json",
                "--html",
                "--out",
                pages.to_str().expect("UTF-8"),
            ],
            &tables,
        );
        let report: serde_json::Value = serde_json::from_str(&report).expect("JSON");
        let rated = report["decisions"].as_array().expect("rated decisions");
        let in_game = games_decisions(&log)[0].len();
        assert_eq!(rated.len(), in_game, "{name}: {report}");
        assert!(
            rated
                .iter()
                .any(|d| d["choice"].as_str().is_some_and(|c| c.starts_with("@A:"))),
            "{name}: {report}"
        );
    }
}

#[test]
fn maxi_yatzy_games_are_analysed_and_reported_by_player() {
    let dir = tempfile::tempdir().expect("a directory");
    let tables = crate::six_dice::maxi_sub_game_tables(dir.path());
    let log = fixture("maxi_yatzy.ygn");
    let (rows, summary) = analyze(&log, &dir.path().join("analysis"), &tables);
    assert_eq!(rows.len(), decisions_of(&log).len(), "every decision rated");
    assert!(summary.contains("maxi-yatzy"), "{summary}");
    player("ann", &log, &dir.path().join("player"), &tables);
    // The game page names the last box as the rules do.
    let pages = dir.path().join("pages");
    dicelens(
        &[
            "validate",
            log.to_str().expect("a UTF-8 path"),
            "--game",
            "maxi-1",
            "--html",
            "--out",
            pages.to_str().expect("a UTF-8 path"),
        ],
        &tables,
    );
    let page: String = std::fs::read_dir(&pages)
        .expect("the pages")
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
        .collect();
    assert!(page.contains("<th>Maxi Yatzy <span"), "{page}");
}

/// Simulated `maxi-yatzy-saved` games of one and of two players (turns of the bank's rolls,
/// longer than three rolls) replay as legal and rate to the simulation's own errors: the
/// simulator and the rating read the same rolls left, bank included, at every decision. Games
/// of two players are rated in expected points by the same table even with the default
/// match-point oracle: a rule set that saves rolls has no score distributions, and none is
/// asked for. The table is a sub-game's (every box but three filled, banks capped at 6), built
/// in memory in a moment: its values are exact there and 0 elsewhere, a complete oracle of its
/// own for this check.
#[test]
fn maxi_yatzy_saved_games_rate_to_their_simulated_errors_with_their_banks() {
    use dicelens::rate::{MatchCache, MatchOracle, Oracle, OracleSpec, SolitaireOracle, Unit};
    use dicelens::rules::{GameRules, RuleSet};
    use dicelens::simulate::{players, simulate_batch, Plan};
    use dicelens::solve::saved_table::build_saved_table;

    let rules = RuleSet::MaxiYatzySaved;
    let open = ["C", "Y", "FS"].iter().fold(0u32, |mask, code| {
        mask | 1 << rules.parse_box(code).expect("a Maxi Yatzy box").0
    });
    let table = build_saved_table(rules, 6, rules.full_mask() & !open, &|_, _| {});
    let solitaire = SolitaireOracle::new(HashMap::from([(rules, table.into_values())]));
    let oracle = MatchOracle::new(solitaire, OracleSpec::DEFAULT);
    assert_eq!(
        oracle.spec().unit(2),
        Unit::MatchPoints,
        "a match-point spec"
    );
    let values = oracle.solitaire.table(rules).expect("the table");
    for seats in [1, 2] {
        let plan = Plan {
            rules,
            seats,
            players: 4,
            games: 12,
            seed: 33,
            ..Plan::default()
        };
        let mut cache = MatchCache::default();
        let (mut longest, mut with_bank) = (0, 0);
        for game in simulate_batch(values, &plan, &players(&plan), 0..plan.games) {
            let (replayed, rated) = crate::common::rated_by(&oracle, &mut cache, &game.record);
            assert_eq!(replayed.seats, seats);
            assert_eq!(
                oracle.unit(Some(GameRules::Yahtzee(rules)), seats),
                Unit::Points
            );
            let turns = &game.record.turns;
            longest = longest.max(turns.iter().map(|t| t.rolls().len()).max().unwrap_or(0));
            with_bank += replayed.decisions.iter().filter(|d| d.saved > 0).count();
            assert_eq!(
                rated.len(),
                replayed.decisions.len(),
                "every decision rated"
            );
            assert!(rated
                .iter()
                .all(|r| r.unit == Unit::Points && r.solitaire.is_none()));
            let truth: f64 = game.errors.iter().sum();
            let error: f64 = rated.iter().map(|r| r.error).sum();
            assert!(
                (truth - error).abs() < 1e-9,
                "{seats} seats: {truth} against {error}"
            );
        }
        assert!(longest > 3, "no turn used a saved roll (longest {longest})");
        assert!(with_bank > 0, "no decision had a bank");
    }
}

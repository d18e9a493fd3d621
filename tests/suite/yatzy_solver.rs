//! The game logs of precisit/yatzy-solver: every fixture of `fixtures/yatzy-solver` replays
//! (or is skipped, with its reason and line) as `EXPECTED.replay.csv` says, and the log written
//! by hand from the solver's documentation replays to the values our tool gives.

use crate::common::{table, tables_dir};
use dicelens::corpus::{CorpusReader, LogFile};
use dicelens::parsers::yatzy_solver::variant::variant;
use dicelens::pipeline::OracleRegistry;
use dicelens::rate::{rate_game, OracleSpec, SolitaireOracle, Thresholds};
use dicelens::tables::Silent;
use dicelens::{evaluate, Choice, Dice, Evaluation, Position, Question, RuleSet, Sheet};
use dicelens::{replay, Format, ReplayOptions, Replayed};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `fixtures/yatzy-solver`.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/yatzy-solver")
}

/// One game's outcome: (game id, `used` or `skipped`, reason, line).
type Outcome = (String, String, String, String);

/// Every fixture is listed in `EXPECTED.replay.csv`, and its games are used or skipped as it
/// says, with the reason and the line.
#[test]
fn yatzy_solver_fixtures_replay_as_expected() {
    let mut expected: BTreeMap<String, Vec<Outcome>> = BTreeMap::new();
    let mut rows = csv::Reader::from_path(root().join("EXPECTED.replay.csv")).unwrap();
    for row in rows.records() {
        let row = row.unwrap();
        let outcome = (row[1].into(), row[2].into(), row[3].into(), row[4].into());
        expected
            .entry(row[0].to_string())
            .or_default()
            .push(outcome);
    }
    let mut files: Vec<String> = std::fs::read_dir(root())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| !name.starts_with("EXPECTED."))
        .collect();
    files.sort();
    assert_eq!(files, expected.keys().cloned().collect::<Vec<_>>());
    for (file, mut want) in expected {
        let log = LogFile::open(&root().join(&file), None).unwrap();
        let mut reader = CorpusReader::new(ReplayOptions::default());
        let mut got: Vec<Outcome> = Vec::new();
        reader.read(&log, |game, _| {
            let id = game.provenance.game_id.clone();
            got.push((id, "used".into(), String::new(), String::new()));
        });
        for (reason, places) in &reader.summary.skipped {
            for place in places {
                let id = place.game_id.clone().unwrap_or_default();
                let line = place.line.to_string();
                got.push((id, "skipped".into(), reason.to_string(), line));
            }
        }
        want.sort();
        got.sort();
        assert_eq!(got, want, "{file}: {}", reader.summary.report());
    }
}

/// The only game of a fixture, read with the format recognised from its content.
fn only_game(name: &str) -> dicelens::GameRecord {
    let content = std::fs::read(root().join(name)).unwrap();
    assert_eq!(
        Format::detect(&content),
        Some(Format::YatzySolver),
        "{name}"
    );
    let mut games = Format::YatzySolver.games(&content, name);
    let game = games
        .next()
        .expect("a game")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(games.next().is_none(), "{name} has one game");
    game
}

/// The value our tables give a position.
fn value_of(position: Position) -> Evaluation {
    let question = Question {
        position,
        opponents: Vec::new(),
        method: None,
        target: None,
    };
    let mut registry = OracleRegistry::new(Some(tables_dir()), OracleSpec::DEFAULT);
    evaluate(&question, &mut registry, &Silent).unwrap()
}

/// The expected final score of an empty sheet, from our tables.
fn empty_sheet_value(rules: RuleSet) -> f64 {
    let position = Position {
        sheet: Sheet::empty(rules),
        roll: None,
        saved: 0,
    };
    match value_of(position) {
        Evaluation::SheetValue { value, .. } => value,
        other => panic!("{other:?}"),
    }
}

/// The log written by hand from the example of the solver's `docs/queries.md` (seed 1, game 0,
/// score 189, first decision `dice 1 2 6 6 6 | rolls 2 | upper 0 | filled -` => `keep 6 6 6`,
/// completed to a legal game): it replays to 189, and the values our tool gives agree with the
/// solver's documented values and with `dicelens eval` on the same positions.
#[test]
fn the_documentation_example_replays_with_our_values() {
    let game = only_game("precisit_example.jsonl");
    assert_eq!(game.provenance.game_id, "precisit_example:1-0");
    assert_eq!(
        (game.rules.as_str(), game.players.as_slice()),
        ("yatzy", &["precisit_example".to_string()][..])
    );
    assert_eq!(game.result, Some(vec![189]));
    let first = &game.turns[0];
    assert_eq!(
        (first.rolls()[0].faces(), first.keeps()[0].faces()),
        (&[1, 2, 6, 6, 6][..], &[6, 6, 6][..])
    );
    let mut replayed = Replayed::default();
    replay(&game, ReplayOptions::default(), &mut replayed).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replayed.finals()[0].points(), 189);
    assert_eq!(
        replayed.decisions.len(),
        game.turns.iter().map(|t| t.rolls().len()).sum::<usize>()
    );

    // Every decision is rated; the first one's values are those `dicelens eval` gives for
    // `--rules yatzy --roll 12666;2` on an empty sheet.
    let oracle = SolitaireOracle::new([(RuleSet::Yatzy, table(RuleSet::Yatzy).to_vec())].into());
    let mut rated = Vec::new();
    rate_game(
        &oracle,
        &replayed,
        &Thresholds::POINTS,
        &mut Default::default(),
        &mut rated,
    )
    .unwrap();
    assert_eq!(rated.len(), replayed.decisions.len());
    let roll = Dice::from_faces(&[1, 2, 6, 6, 6]).unwrap();
    let position = Position {
        sheet: Sheet::empty(RuleSet::Yatzy),
        roll: Some((roll, 2)),
        saved: 0,
    };
    let Evaluation::SolitaireOptions { options, .. } = value_of(position) else {
        panic!("options of a decision")
    };
    let keep_666 = Choice::Keep(Dice::from_faces(&[6, 6, 6]).unwrap());
    let chosen = options.iter().find(|o| o.choice == keep_666).unwrap();
    assert!(
        (rated[0].best - options[0].value).abs() < 1e-9,
        "{} {}",
        rated[0].best,
        options[0].value
    );
    assert!((rated[0].chosen - chosen.value).abs() < 1e-9);
    // The solver's optimal policy kept 6 6 6 there, and so would we.
    assert_eq!(options[0].choice, keep_666, "{options:?}");

    // The documented expected scores (`docs/rules.md`, 7 decimals; `docs/queries.md`, 4) of
    // the variants, under the rule sets the reader maps them to.
    let documented = [
        ("yatzy-scandinavian", 248.4399894),
        ("american", 254.5896095),
        ("american+forced-joker", 254.5877287),
        ("american+no-joker", 253.9702412),
        ("american+no-bonus", 245.8707745),
    ];
    for (name, value) in documented {
        let rules: RuleSet = variant(name).unwrap().rules.parse().unwrap();
        let ours = empty_sheet_value(rules);
        assert!(
            (ours - value).abs() < 5e-8,
            "{name} ({rules}): {ours} against {value}"
        );
    }
    assert_eq!(
        format!("{:.4}", empty_sheet_value(RuleSet::Yatzy)),
        "248.4400"
    );
    assert_eq!(
        format!("{:.4}", empty_sheet_value(RuleSet::YahtzeeFree)),
        "254.5896"
    );
}

//! The replay: simulated games replay to exactly the simulated decisions, and every validity
//! rule of docs/formats/ygn.md is caught, with where and what the log says against what the rules give.

use crate::common::table;
use dicelens::replay::{replay, Broken, ReplayOptions, Replayed, Skip};
use dicelens::rules::RuleSet;
use dicelens::simulate::{players, simulate_game, Plan, SimGame};
use dicelens_parsers::{BoxCode, GameRecord, Keep, Roll, Termination};

fn simulated(rules: RuleSet, seats: usize, index: usize) -> SimGame {
    let plan = Plan {
        rules,
        seats,
        players: 6,
        games: 100,
        seed: 42,
        ..Plan::default()
    };
    let players = players(&plan);
    simulate_game(table(rules), &plan, &players, index)
}

fn replayed(game: &GameRecord) -> Result<Replayed, Skip> {
    let mut out = Replayed::default();
    replay(game, ReplayOptions::default(), &mut out).map(|()| out)
}

/// The rule broken by `game`, and the violation's line and round.
fn broken(game: &GameRecord) -> (Broken, u64, Option<u16>, String) {
    match replayed(game) {
        Err(Skip::Invalid(v)) => (v.rule, v.line, v.round, v.to_string()),
        other => panic!(
            "expected a violation, got {:?}",
            other.map(|r| r.decisions.len())
        ),
    }
}

/// Gives every turn a distinct line number, as a parser would.
fn numbered(mut game: GameRecord) -> GameRecord {
    game.provenance.line = 1;
    for (i, t) in game.turns.iter_mut().enumerate() {
        t.line = 10 + i as u64;
    }
    game
}

#[test]
fn simulated_games_replay_to_their_decisions() {
    for rules in RuleSet::MAIN {
        for seats in [1, 2, 3] {
            for index in 0..4 {
                let sim = simulated(rules, seats, index);
                let out = replayed(&sim.record).unwrap_or_else(|e| panic!("{rules}: {e}"));
                assert_eq!(
                    out.decisions, sim.decisions,
                    "{rules} seats {seats} game {index}"
                );
                assert!(out.complete);
                let totals: Vec<u32> = out.finals().iter().map(|s| s.points() as u32).collect();
                assert_eq!(Some(totals), sim.record.result);
                assert_eq!(out.box_points.len(), sim.record.turns.len());
            }
        }
    }
}

#[test]
fn keep_not_in_roll_and_roll_without_keep() {
    let sim = numbered(simulated(RuleSet::Yahtzee, 2, 1).record);
    let (t, turn) = sim
        .turns
        .iter()
        .enumerate()
        .find(|(_, t)| t.rolls().len() >= 2)
        .map(|(i, t)| (i, t.clone()))
        .unwrap();
    // A keep of a face the roll does not show.
    let missing = (1..=6)
        .find(|f| !turn.rolls()[0].faces().contains(f))
        .unwrap();
    let mut game = sim.clone();
    game.turns[t].keeps_mut()[0] = Keep::new(&[missing]).unwrap();
    let (rule, line, round, message) = broken(&game);
    assert_eq!(
        (rule, line, round),
        (Broken::KeepNotInRoll, turn.line, Some(turn.round)),
        "{message}"
    );
    assert!(message.contains(&format!("k{missing}")), "{message}");
    // A second roll that lacks a kept die.
    let mut game = sim.clone();
    let kept = turn.keeps()[0].faces().to_vec();
    if let Some(&face) = kept.first() {
        let other = if face == 6 { 1 } else { face + 1 };
        let roll = &mut game.turns[t].rolls_mut()[1];
        let mut faces = roll.faces().to_vec();
        for die in faces.iter_mut() {
            if *die == face {
                *die = other;
            }
        }
        *roll = Roll::new(&faces).unwrap();
        let (rule, line, _, message) = broken(&game);
        assert_eq!(
            (rule, line),
            (Broken::RollWithoutKeep, turn.line),
            "{message}"
        );
    }
}

#[test]
fn boxes_points_and_jokers() {
    let sim = numbered(simulated(RuleSet::YahtzeeKurnik, 1, 2).record);
    // The second turn scores the first turn's box again.
    let mut game = sim.clone();
    game.turns[1].category = game.turns[0].category;
    let (rule, line, round, message) = broken(&game);
    assert_eq!(
        (rule, line, round),
        (Broken::BoxAlreadyFilled, sim.turns[1].line, Some(2)),
        "{message}"
    );
    // Wrong points.
    let mut game = sim.clone();
    game.turns[3].points = game.turns[3].points.map(|p| p + 1);
    let (rule, line, _, message) = broken(&game);
    assert_eq!(
        (rule, line),
        (Broken::WrongPoints, sim.turns[3].line),
        "{message}"
    );
    assert!(message.contains("the rules give"), "{message}");
    // A code of another family.
    let mut game = sim.clone();
    game.turns[0].category = BoxCode::parse("2P").unwrap();
    assert_eq!(broken(&game).0, Broken::UnknownBox);
}

#[test]
fn order_result_rules_and_termination() {
    let sim = numbered(simulated(RuleSet::Yatzy, 2, 3).record);
    // Rounds out of order: swap two rounds of the first seat.
    let mut game = sim.clone();
    game.turns.swap(0, 2);
    let (rule, _, round, message) = broken(&game);
    assert_eq!(
        (rule, round),
        (Broken::RoundOutOfOrder, Some(2)),
        "{message}"
    );
    // A player out of turn.
    let mut game = sim.clone();
    game.turns[1].seat = 0;
    assert_eq!(broken(&game).0, Broken::OutOfTurn);
    // Wrong Result.
    let mut game = sim.clone();
    if let Some(r) = game.result.as_mut() {
        r[1] += 1;
    }
    let (rule, line, _, message) = broken(&game);
    assert_eq!((rule, line), (Broken::WrongResult, 1), "{message}");
    // Unknown rule set.
    let mut game = sim.clone();
    game.rules = "poker".into();
    assert_eq!(broken(&game).0, Broken::UnknownRules);
    // Missing turns in a normal game, and an abandoned game (skipped unless wanted).
    let mut game = sim.clone();
    game.turns.truncate(10);
    assert_eq!(broken(&game).0, Broken::MissingTurns);
    game.termination = Termination::Abandoned;
    assert_eq!(
        replayed(&game).err(),
        Some(Skip::Unfinished(Termination::Abandoned))
    );
    let mut out = Replayed::default();
    replay(
        &game,
        ReplayOptions {
            include_unfinished: true,
        },
        &mut out,
    )
    .unwrap();
    assert!(!out.complete);
    assert_eq!(out.decisions.iter().filter(|d| d.rolls_left() == 0 || matches!(d.choice, dicelens::rules::Choice::Score(_))).count(), 10);
    // Too many turns.
    let mut game = sim.clone();
    let extra = game.turns[0].clone();
    game.turns.push(extra);
    assert_eq!(broken(&game).0, Broken::TooManyTurns);
}

//! What the yatzy-solver fixtures hold beyond `EXPECTED.csv`: the points earned with bonuses,
//! the earlier spellings, and the documentation's example.

use crate::common::read_fixture;
use dicelens_parsers::GameRecord;

/// The games of a fixture (its errors left out).
fn games(name: &str) -> Vec<GameRecord> {
    read_fixture("yatzy-solver", name)
        .into_iter()
        .filter_map(Result::ok)
        .collect()
}

#[test]
fn points_earned_include_the_bonuses() {
    let game = &games("american.jsonl")[0];
    let turns: Vec<(&str, Option<u16>)> = game.turns[..3]
        .iter()
        .map(|turn| (turn.category.as_str(), turn.earned))
        .collect();
    // A Yahtzee of 50; then an extra Yahtzee of sixes, the sixes box filled, scored as a joker
    // in the full house: 25 and the 100 bonus.
    assert_eq!(turns, [("Y", Some(50)), ("6", Some(18)), ("FH", Some(125))]);
    assert!(game.turns.iter().all(|turn| turn.points.is_none()));
    let earned: u32 = game
        .turns
        .iter()
        .filter_map(|t| t.earned)
        .map(u32::from)
        .sum();
    assert_eq!(game.result, Some(vec![earned]));
}

#[test]
fn the_earlier_spellings_give_the_same_game() {
    let earlier = &games("earlier_spellings.jsonl")[0];
    let current = &games("american.jsonl")[0];
    assert_eq!(earlier.turns, current.turns);
    assert_eq!(earlier.rules, current.rules);
}

#[test]
fn the_documentation_example_starts_as_documented() {
    let game = &games("precisit_example.jsonl")[0];
    let first = &game.turns[0];
    assert_eq!(first.rolls()[0], [1, 2, 6, 6, 6]);
    assert_eq!(first.keeps()[0].faces(), [6, 6, 6]);
    assert_eq!(game.result, Some(vec![189]));
    let earlier = &games("precisit_example_v0.jsonl")[0];
    assert_eq!(earlier.turns[0].rolls()[0], [2, 3, 5, 6, 6]);
    assert_eq!(earlier.turns[0].keeps()[0].faces(), [6, 6]);
    assert_eq!(earlier.result, Some(vec![261]));
}

//! The Verhoeff fixtures (`fixtures/verhoeff/`) beyond what `EXPECTED.csv` lists: every column
//! of the complete games is mapped, and both forms are detected.

use crate::common::{fixture, read_fixture, totals_before};
use dicelens_parsers::{BoxCode, Format, GameRecord, Termination};

fn codes(game: &GameRecord) -> Vec<&str> {
    game.turns
        .iter()
        .map(|turn| turn.category.as_str())
        .collect()
}

#[test]
fn table_game_is_one_complete_game_with_every_column_mapped() {
    let outcomes = read_fixture("verhoeff", "table_game.txt");
    let [Ok(game)] = outcomes.as_slice() else {
        panic!("{outcomes:#?}")
    };
    assert_eq!(game.players, ["table_game"]);
    assert_eq!(game.rules, "yahtzee-free");
    assert_eq!(game.provenance.line, 3);
    assert_eq!(game.termination, Termination::Normal);
    assert_eq!(game.result, None);
    let tags: Vec<(&str, &str)> = game
        .tags
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let id = game.provenance.game_id.as_str();
    assert_eq!(
        tags,
        [
            ("Game", id),
            ("Rules", "yahtzee-free"),
            ("Players", "table_game")
        ]
    );
    assert_eq!(
        codes(game),
        ["SS", "6", "FH", "4", "3", "1", "LS", "4K", "2", "Y", "5", "3K", "C"]
    );
    let points: Vec<u16> = game.turns.iter().filter_map(|turn| turn.points).collect();
    assert_eq!(points, [30, 24, 25, 12, 9, 3, 40, 26, 6, 50, 20, 25, 21]);
    assert_eq!(
        totals_before(game),
        [0, 30, 54, 79, 91, 100, 103, 143, 169, 175, 225, 280, 305]
    );
    let lines: Vec<u64> = game.turns.iter().map(|turn| turn.line).collect();
    assert_eq!(lines, [3, 6, 9, 10, 13, 16, 19, 21, 24, 27, 30, 33, 36]);
    // Turn 7 is the published example line.
    let turn = &game.turns[6];
    assert_eq!((turn.round, turn.seat, turn.rolls().len()), (7, 0, 2));
    assert_eq!(turn.rolls(), [[1, 2, 3, 4, 4], [1, 2, 3, 4, 5]]);
    assert_eq!(turn.keeps()[0].faces(), [1, 2, 3, 4]);
    // Turn 3 scores on its first roll.
    let turn = &game.turns[2];
    assert_eq!(
        (turn.rolls().len(), turn.category),
        (1, BoxCode::parse("FH").unwrap())
    );
    assert_eq!(turn.rolls(), [[3, 3, 3, 5, 5]]);
}

#[test]
fn input_game_is_one_complete_game() {
    let outcomes = read_fixture("verhoeff", "input_game.txt");
    let [Ok(game)] = outcomes.as_slice() else {
        panic!("{outcomes:#?}")
    };
    assert_eq!(game.players, ["input_game"]);
    assert_eq!(game.termination, Termination::Normal);
    assert_eq!(
        codes(game),
        ["SS", "6", "2", "1", "C", "3K", "4", "5", "3", "LS", "FH", "4K", "Y"]
    );
    assert_eq!(
        totals_before(game),
        [0, 30, 48, 54, 56, 77, 102, 118, 138, 182, 222, 247, 255]
    );
    let sixth = &game.turns[5];
    assert_eq!(
        sixth.rolls(),
        [[1, 2, 3, 6, 6], [1, 1, 6, 6, 6], [3, 4, 6, 6, 6]]
    );
    assert_eq!(sixth.keeps()[0].faces(), [6, 6]);
    assert_eq!(sixth.keeps()[1].faces(), [6, 6, 6]);
    assert_eq!((sixth.points, sixth.line), (Some(25), 16));
}

#[test]
fn both_forms_are_detected() {
    for name in ["table_game.txt", "input_game.txt"] {
        let (_, content) = fixture("verhoeff", name);
        assert_eq!(Format::detect(&content), Some(Format::Verhoeff), "{name}");
    }
}

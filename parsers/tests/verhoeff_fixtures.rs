//! The Verhoeff fixtures: each file yields exactly the games and errors that
//! `fixtures/verhoeff/EXPECTED.md` lists, in that order.

mod verhoeff_jsonl_shared;

use dicelens_parsers::{verhoeff, BoxCode, Format, GameRecord, ParseError, Termination};
use verhoeff_jsonl_shared::{assert_outcomes, fixture, read_all, Expected};

fn fixture_path(name: &str) -> String {
    fixture("verhoeff", name).0
}

fn read_fixture(name: &str) -> Vec<Result<GameRecord, ParseError>> {
    let (path, content) = fixture("verhoeff", name);
    read_all(&mut verhoeff::Reader::new(&content, &path))
}

/// A game of fixture `name` whose first line is `line`, with these rounds, abandoned.
fn abandoned_game(name: &str, line: u32, rounds: &[u16]) -> Expected {
    let id = format!("{}:{line}", fixture_path(name));
    Expected::game(id, line, rounds, Termination::Abandoned)
}

/// An error of fixture `name` at `line`:`column`, in the game that starts at `game_line`.
fn error(
    name: &str,
    (line, column, game_line): (u32, u32, u32),
    expected: &'static str,
    found: &'static str,
) -> Expected {
    let game_id = Some(format!("{}:{game_line}", fixture_path(name)));
    Expected::error((line, column), (game_id, game_line), expected, found)
}

fn assert_fixture(name: &str, expected: &[Expected]) {
    assert_outcomes(name, &read_fixture(name), expected);
}

fn codes(game: &GameRecord) -> Vec<&str> {
    game.turns
        .iter()
        .map(|turn| turn.category.as_str())
        .collect()
}

#[test]
fn table_game_is_one_complete_game_with_every_column_mapped() {
    let outcomes = read_fixture("table_game.txt");
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
    let totals: Vec<u32> = game
        .turns
        .iter()
        .filter_map(|turn| turn.total_before)
        .collect();
    assert_eq!(
        totals,
        [0, 30, 54, 79, 91, 100, 103, 143, 169, 175, 225, 280, 305]
    );
    let lines: Vec<u32> = game.turns.iter().map(|turn| turn.line).collect();
    assert_eq!(lines, [3, 6, 9, 10, 13, 16, 19, 21, 24, 27, 30, 33, 36]);
    // Turn 7 is the published example line.
    let turn = &game.turns[6];
    assert_eq!((turn.round, turn.seat, turn.roll_count), (7, 0, 2));
    assert_eq!(turn.rolls(), [[1, 2, 3, 4, 4], [1, 2, 3, 4, 5]]);
    assert_eq!(turn.keeps()[0].faces(), [1, 2, 3, 4]);
    // Turn 3 scores on its first roll.
    let turn = &game.turns[2];
    assert_eq!(
        (turn.roll_count, turn.category),
        (1, BoxCode::parse("FH").unwrap())
    );
    assert_eq!(turn.rolls(), [[3, 3, 3, 5, 5]]);
}

#[test]
fn input_game_is_one_complete_game() {
    let outcomes = read_fixture("input_game.txt");
    let [Ok(game)] = outcomes.as_slice() else {
        panic!("{outcomes:#?}")
    };
    assert_eq!(game.players, ["input_game"]);
    assert_eq!(game.termination, Termination::Normal);
    assert_eq!(
        codes(game),
        ["SS", "6", "2", "1", "C", "3K", "4", "5", "3", "LS", "FH", "4K", "Y"]
    );
    let totals: Vec<u32> = game
        .turns
        .iter()
        .filter_map(|turn| turn.total_before)
        .collect();
    assert_eq!(
        totals,
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

#[test]
fn bad_mask_character_is_reported_and_the_next_block_is_read() {
    let name = "bad_mask.txt";
    assert_fixture(
        name,
        &[
            error(name, (1, 16, 1), "`S` or `_` (box 10", "X"),
            abandoned_game(name, 5, &[6, 7]),
        ],
    );
}

#[test]
fn six_dice_are_reported_and_the_next_table_is_read() {
    let name = "six_dice.txt";
    assert_fixture(
        name,
        &[
            error(name, (4, 26, 3), "five dice 1-6", "334456;1"),
            abandoned_game(name, 10, &[1]),
        ],
    );
}

#[test]
fn die_seven_is_reported_and_the_next_empty_sheet_starts_a_game() {
    let name = "die_seven.txt";
    assert_fixture(
        name,
        &[
            error(name, (2, 38, 1), "a die 1-6", "7"),
            abandoned_game(name, 7, &[1, 2]),
        ],
    );
}

#[test]
fn rolls_left_out_of_order_are_reported() {
    let name = "rolls_left_order.txt";
    assert_fixture(
        name,
        &[
            error(name, (2, 43, 1), "rolls left 1 (roll 2", "0"),
            error(name, (4, 43, 4), "rolls left 2 (roll 1", "1"),
            abandoned_game(name, 6, &[1]),
        ],
    );
}

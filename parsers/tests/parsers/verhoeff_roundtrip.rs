//! The Verhoeff writer: what it writes reads back as the same record (but for provenance, line
//! numbers, player name, game id and the order of dice), the input fixture is written byte for
//! byte, random games survive the trip, and records the input form cannot hold are refused.

use crate::common::{fixture, read_all, verhoeff_comparable, with_dice};
use dicelens_parsers::{verhoeff, BoxCode, GameReader, GameRecord, Roll, TurnRecord};
use proptest::prelude::*;
use std::io;

fn verhoeff_fixture(name: &str) -> Vec<u8> {
    fixture("verhoeff", name).1
}

/// The one game of `content`.
fn read_one(content: &[u8], file: &str) -> GameRecord {
    let mut reader = verhoeff::Reader::new(content, file);
    let mut game = GameRecord::default();
    reader
        .read_game(&mut game)
        .expect("a game")
        .expect("no error");
    assert!(
        reader.read_game(&mut GameRecord::default()).is_none(),
        "one game only"
    );
    game
}

fn write(game: &GameRecord) -> io::Result<Vec<u8>> {
    let mut text = Vec::new();
    verhoeff::write_game(game, &mut text)?;
    Ok(text)
}

#[test]
fn both_fixture_games_read_back_equal_after_writing() {
    for name in ["table_game.txt", "input_game.txt"] {
        let game = read_one(&verhoeff_fixture(name), name);
        let text = write(&game).expect("writable");
        let again = read_one(&text, "written.txt");
        assert_eq!(
            verhoeff_comparable(&again),
            verhoeff_comparable(&game),
            "{name}"
        );
        assert_eq!(again.players, ["written"]);
    }
}

#[test]
fn the_input_fixture_is_written_byte_for_byte() {
    let content = verhoeff_fixture("input_game.txt");
    let game = read_one(&content, "input_game.txt");
    let text = write(&game).expect("writable");
    assert_eq!(
        String::from_utf8_lossy(&text),
        String::from_utf8_lossy(&content)
    );
}

#[test]
fn the_table_is_written_as_the_trainers_input_form() {
    let game = read_one(&verhoeff_fixture("table_game.txt"), "table_game.txt");
    let text = String::from_utf8(write(&game).unwrap()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 36);
    assert_eq!(
        lines[16],
        "      _2__5_TF__LYC; 15 false  103  12344;2   k1234_"
    );
    assert_eq!(
        lines[17],
        "                   ;                12345;1   sL  40"
    );
    assert_eq!(
        lines[27],
        "      ____5_T_____C;  9  true  225  13555;2   k555__"
    );
}

/// A writable record with one turn scored on its first roll.
fn one_turn_game() -> GameRecord {
    let mut turn = TurnRecord::new(1, 0, BoxCode::parse("FH").unwrap());
    turn.set_first_roll([5, 3, 3, 5, 3].into());
    turn.points = Some(25);
    turn.total_before = Some(0);
    GameRecord {
        players: vec!["ann".into()],
        rules: "yahtzee-free".into(),
        turns: vec![turn],
        ..GameRecord::default()
    }
}

#[test]
fn dice_are_written_sorted() {
    let text = String::from_utf8(write(&one_turn_game()).unwrap()).unwrap();
    assert_eq!(
        text,
        "      123456TFHSLYC; 63 false    0  33355;2   sH  25\n"
    );
}

#[test]
fn records_the_input_form_cannot_hold_are_refused() {
    type Change = fn(&mut GameRecord);
    let cases: [(Change, &str); 12] = [
        (|g| g.players.push("bob".into()), "solitaire"),
        (
            |g| g.turns[0].announced = BoxCode::parse("A:P"),
            "an announcement (A:P; Verhoeff's form has none)",
        ),
        (
            |g| {
                let roll = g.turns[0].rolls()[0];
                g.turns[0].set_rolls(&[roll; 4], &[]).unwrap();
            },
            "4 rolls (1 to 3 expected)",
        ),
        (|g| g.turns.clear(), "at least one turn"),
        (|g| g.turns[0].points = None, "no points"),
        (|g| g.turns[0].total_before = None, "no total"),
        (
            |g| g.turns[0].category = BoxCode::parse("1P").unwrap(),
            "not one of Verhoeff's",
        ),
        (|g| g.turns[0].round = 2, "counts rounds from 1"),
        (|g| g.turns[0].seat = 1, "seat 1"),
        (
            |g| g.turns[0].rolls_mut()[0] = [5, 3, 7, 5, 3].into(),
            "die 7",
        ),
        (
            |g| g.turns[0].rolls_mut()[0] = Roll::default(),
            "a roll without dice",
        ),
        (
            |g| {
                let mut second = g.turns[0].clone();
                second.round = 2;
                g.turns.push(second);
            },
            "scored a second time",
        ),
    ];
    for (change, words) in cases {
        let mut game = one_turn_game();
        change(&mut game);
        let error = write(&game).expect_err(words);
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput, "{error}");
        assert!(error.to_string().contains(words), "{error}");
    }
}

/// The 13 mask letters' YGN codes.
const CODES: [&str; 13] = [
    "1", "2", "3", "4", "5", "6", "3K", "4K", "FH", "SS", "LS", "Y", "C",
];

prop_compose! {
    /// A turn of one to three rolls with arbitrary dice and keeps (the reader does not check
    /// containment), scored in `code`.
    fn turn_strategy(round: u16, code: &'static str)(
        roll_count in 1u8..=3,
        (rolls, keeps) in crate::common::turn_dice(),
        points in any::<u16>(),
        total_before in any::<u32>(),
    ) -> TurnRecord {
        let mut turn = TurnRecord::new(round, 0, BoxCode::parse(code).unwrap());
        turn.points = Some(points);
        turn.total_before = Some(total_before);
        with_dice(turn, usize::from(roll_count), &rolls, &keeps)
    }
}

fn game_strategy() -> impl Strategy<Value = GameRecord> {
    (Just(CODES.to_vec()).prop_shuffle(), 1usize..=13)
        .prop_flat_map(|(order, length)| {
            let turns: Vec<_> = (1u16..)
                .zip(order.into_iter().take(length))
                .map(|(round, code)| turn_strategy(round, code))
                .collect();
            turns
        })
        .prop_map(|turns| GameRecord {
            players: vec!["p".into()],
            rules: "yahtzee-free".into(),
            turns,
            ..GameRecord::default()
        })
}

proptest! {
    #[test]
    fn random_games_survive_writing_and_reading(game in game_strategy()) {
        let text = write(&game).expect("writable");
        let outcomes = read_all(&mut verhoeff::Reader::new(&text, "p.txt"));
        let [Ok(read)] = outcomes.as_slice() else { panic!("{outcomes:#?}") };
        prop_assert_eq!(&verhoeff_comparable(read).turns, &verhoeff_comparable(&game).turns);
        // Writing what was read gives the same text again.
        prop_assert_eq!(write(read).expect("writable"), text);
    }
}

//! The JSONL fixtures: each file yields exactly the games and errors that
//! `fixtures/jsonl/EXPECTED.md` lists, in that order.

mod verhoeff_jsonl_shared;

use dicelens_parsers::{jsonl, Format, GameRecord, ParseError, Termination};
use verhoeff_jsonl_shared::{assert_outcomes, fixture, read_all, Expected};

fn read_fixture(name: &str) -> Vec<Result<GameRecord, ParseError>> {
    let (path, content) = fixture("jsonl", name);
    read_all(&mut jsonl::Reader::new(&content, &path))
}

/// Game `id` whose `game` event is on `line`: one turn (round 1), abandoned.
fn one_turn_game(id: &str, line: u32) -> Expected {
    Expected::game(id.to_string(), line, &[1], Termination::Abandoned)
}

/// An error at `line`:`column` in game `game` opened on `game_line`.
fn error(
    position: (u32, u32),
    (game, game_line): (&str, u32),
    expected: &'static str,
    found: &'static str,
) -> Expected {
    Expected::error(
        position,
        (Some(game.to_string()), game_line),
        expected,
        found,
    )
}

fn assert_fixture(name: &str, expected: &[Expected]) {
    let outcomes = read_fixture(name);
    for game in outcomes.iter().flatten() {
        assert_eq!(game.provenance.file, fixture("jsonl", name).0);
    }
    assert_outcomes(name, &outcomes, expected);
}

#[test]
fn two_games_are_read_with_every_field() {
    let outcomes = read_fixture("two_games.jsonl");
    let [Ok(kurnik), Ok(trainer)] = outcomes.as_slice() else {
        panic!("{outcomes:#?}")
    };

    assert_eq!(kurnik.provenance.game_id, "r3-187");
    assert_eq!(kurnik.rules, "yahtzee-kurnik");
    assert_eq!(kurnik.players, ["simson11", "kasia_k"]);
    assert_eq!(kurnik.provenance.date.as_deref(), Some("2007.03.14"));
    assert_eq!(kurnik.provenance.time.as_deref(), Some("21:04:55"));
    assert_eq!(kurnik.tags.len(), 7);
    assert_eq!(kurnik.tag("Site"), Some("example.org"));
    assert_eq!(kurnik.termination, Termination::Abandoned);
    assert_eq!(kurnik.result, None);
    let seats: Vec<(u16, u8)> = kurnik.turns.iter().map(|t| (t.round, t.seat)).collect();
    assert_eq!(seats, [(1, 0), (1, 1), (2, 0), (2, 1)]);
    // Dice keep the order the log gives.
    let second = &kurnik.turns[1];
    assert_eq!(
        second.rolls(),
        [[5, 2, 2, 1, 6], [2, 2, 2, 3, 4], [2, 6, 2, 2, 2]]
    );
    assert_eq!(second.keeps()[0].faces(), [2, 2]);
    assert_eq!(second.keeps()[1].faces(), [2, 2, 2]);
    assert_eq!((second.category.as_str(), second.points), ("3K", Some(14)));
    assert_eq!((second.total_before, second.line), (None, 6));
    assert_eq!(kurnik.turns[3].roll_count, 1);

    assert_eq!(trainer.provenance.line, 21);
    assert_eq!(
        (trainer.rules.as_str(), trainer.players.as_slice()),
        ("yahtzee-free", &["tomv".to_string()][..])
    );
    assert_eq!(trainer.termination, Termination::Normal);
    assert_eq!(trainer.result, Some(vec![255]));
    let totals: Vec<u32> = trainer
        .turns
        .iter()
        .filter_map(|t| t.total_before)
        .collect();
    assert_eq!(
        totals,
        [0, 30, 48, 54, 56, 77, 102, 118, 138, 182, 222, 247, 255]
    );
}

#[test]
fn the_trainer_game_equals_its_verhoeff_source() {
    let outcomes = read_fixture("two_games.jsonl");
    let Some(Ok(trainer)) = outcomes.get(1) else {
        panic!("{outcomes:#?}")
    };
    let (path, content) = fixture("verhoeff", "input_game.txt");
    let verhoeff = read_all(&mut dicelens_parsers::verhoeff::Reader::new(
        &content, &path,
    ));
    let Some(Ok(source)) = verhoeff.first() else {
        panic!("{verhoeff:#?}")
    };
    for (jsonl_turn, verhoeff_turn) in trainer.turns.iter().zip(&source.turns) {
        let mut verhoeff_turn = *verhoeff_turn;
        verhoeff_turn.line = jsonl_turn.line;
        assert_eq!(*jsonl_turn, verhoeff_turn);
    }
    assert_eq!(trainer.turns.len(), source.turns.len());
}

#[test]
fn the_fixture_is_detected_as_jsonl() {
    let (_, content) = fixture("jsonl", "two_games.jsonl");
    assert_eq!(Format::detect(&content), Some(Format::Jsonl));
}

#[test]
fn invalid_json_is_reported_and_the_next_game_is_read() {
    let expected = "valid JSON (EOF while parsing an object)";
    assert_fixture(
        "invalid_json.jsonl",
        &[
            error((2, 90), ("g1", 1), expected, "end of line"),
            one_turn_game("g2", 7),
        ],
    );
}

#[test]
fn an_unknown_event_is_reported_and_the_next_game_is_read() {
    let expected = "an event type: `game`, `roll`, `keep`, `score` or `end`";
    assert_fixture(
        "unknown_event.jsonl",
        &[
            error((2, 2), ("g1", 1), expected, "chat"),
            one_turn_game("g2", 8),
        ],
    );
}

#[test]
fn a_keep_before_the_roll_is_reported_and_the_next_game_is_read() {
    let expected = "a `roll` event (a turn starts with a roll)";
    assert_fixture(
        "keep_before_roll.jsonl",
        &[
            error((6, 2), ("g1", 1), expected, "a `keep` event"),
            one_turn_game("g2", 10),
        ],
    );
}

#[test]
fn a_player_not_in_the_game_is_reported_and_the_next_game_is_read() {
    let expected = "bob (the player in seat 1)";
    let found = "carl (not a player of this game)";
    assert_fixture(
        "player_not_in_game.jsonl",
        &[
            error((6, 38), ("g1", 1), expected, found),
            one_turn_game("g2", 9),
        ],
    );
}

#[test]
fn truncated_games_are_reported() {
    let before_next = "an `end` event before the next game";
    let at_end = "an `end` event (the game is not finished)";
    assert_fixture(
        "truncated_game.jsonl",
        &[
            error((6, 2), ("g1", 1), before_next, "a `game` event"),
            one_turn_game("g2", 6),
            error((14, 1), ("g3", 12), at_end, "end of input"),
        ],
    );
}

//! The JSONL writer: every record reads back equal (but for provenance file and line and the
//! turns' lines), for the fixture and for random valid records, events come in the documented
//! order, and records the format cannot hold are refused.

use crate::common::{fixture, jsonl_comparable, read_all, with_dice};
use dicelens_parsers::{
    jsonl, BoxCode, Format, GameRecord, Keep, Provenance, Termination, TurnRecord,
};
use proptest::prelude::*;
use std::io;

fn write(game: &GameRecord) -> io::Result<String> {
    let mut text = Vec::new();
    jsonl::write_game(game, &mut text)?;
    Ok(String::from_utf8(text).expect("JSON is UTF-8"))
}

/// Every game of `text`, which must hold no error.
fn read_games(text: &str) -> Vec<GameRecord> {
    read_all(&mut jsonl::Reader::new(text.as_bytes(), "again.jsonl"))
        .into_iter()
        .map(|outcome| outcome.expect("no error"))
        .collect()
}

#[test]
fn the_fixture_games_read_back_equal_after_writing() {
    let content = String::from_utf8(fixture("jsonl", "two_games.jsonl").1).unwrap();
    let games = read_games(&content);
    assert_eq!(games.len(), 2);
    let text: String = games.iter().map(|game| write(game).unwrap()).collect();
    let again = read_games(&text);
    let comparable = |games: &[GameRecord]| games.iter().map(jsonl_comparable).collect::<Vec<_>>();
    assert_eq!(comparable(&again), comparable(&games));
    // The text differs from the fixture only in the informational file and line.
    let fixture_lines: Vec<&str> = content.lines().collect();
    let written_lines: Vec<&str> = text.lines().collect();
    assert_eq!(fixture_lines.len(), written_lines.len());
    for (fixture_line, written_line) in fixture_lines.iter().zip(&written_lines) {
        if !fixture_line.starts_with(r#"{"event":"game""#) {
            assert_eq!(fixture_line, written_line);
        }
    }
}

#[test]
fn a_game_is_written_as_the_documented_events() {
    let mut turn = TurnRecord::new(1, 1, BoxCode::parse("3K").unwrap());
    turn.set_rolls(
        &[[5, 2, 2, 1, 6].into(), [2, 2, 2, 3, 4].into()],
        &[Keep::new(&[2, 2]).unwrap()],
    )
    .unwrap();
    turn.points = Some(13);
    turn.total_before = Some(40);
    turn.line = 9;
    let game = GameRecord {
        players: vec!["simson11".into(), "kasia_k".into()],
        rules: "yahtzee-kurnik".into(),
        provenance: Provenance {
            file: "logs/a.ygn".into(),
            line: 3,
            game_id: "r3-187".into(),
            date: Some("2007.03.14".into()),
            time: None,
            result_line: None,
        },
        turns: vec![turn],
        termination: Termination::Resigned,
        result: Some(vec![40, 13]),
        tags: vec![("Site".into(), "ex \"q\"".into())],
    };
    let expected = [
        r#"{"event":"game","game":"r3-187","rules":"yahtzee-kurnik","players":["simson11","kasia_k"],"tags":[["Site","ex \"q\""]],"date":"2007.03.14","file":"logs/a.ygn","line":3}"#,
        r#"{"event":"roll","game":"r3-187","seat":1,"player":"kasia_k","round":1,"roll":1,"dice":[5,2,2,1,6]}"#,
        r#"{"event":"keep","game":"r3-187","seat":1,"player":"kasia_k","round":1,"roll":1,"dice":[2,2]}"#,
        r#"{"event":"roll","game":"r3-187","seat":1,"player":"kasia_k","round":1,"roll":2,"dice":[2,2,2,3,4]}"#,
        r#"{"event":"score","game":"r3-187","seat":1,"player":"kasia_k","round":1,"box":"3K","points":13,"total_before":40}"#,
        r#"{"event":"end","game":"r3-187","termination":"resigned","result":[40,13]}"#,
    ];
    let text = write(&game).unwrap();
    assert_eq!(text.lines().collect::<Vec<_>>(), expected);
    let again = read_games(&text);
    assert_eq!(
        again.iter().map(jsonl_comparable).collect::<Vec<_>>(),
        [jsonl_comparable(&game)]
    );
    assert_eq!(again[0].provenance.file, "again.jsonl");
}

#[test]
fn records_the_format_cannot_hold_are_refused() {
    type Change = fn(&mut GameRecord);
    let cases: [(Change, &str); 5] = [
        (|g| g.players.clear(), "players"),
        (|g| g.rules.clear(), "rules"),
        (|g| g.provenance.game_id.clear(), "game id"),
        (|g| g.turns[0].seat = 1, "seat 1 has no player"),
        (|g| g.turns[0].clear_rolls(), "0 rolls"),
    ];
    for (change, words) in cases {
        let mut game = GameRecord {
            players: vec!["ann".into()],
            rules: "yahtzee".into(),
            turns: vec![with_dice(
                TurnRecord::new(1, 0, BoxCode::default()),
                1,
                &[vec![1; 5]],
                &[],
            )],
            ..GameRecord::default()
        };
        game.provenance.game_id = "g".into();
        change(&mut game);
        crate::common::assert_refused(Format::Jsonl, &game, words);
    }
}

/// Any text, control characters and quotes included.
fn any_text() -> impl Strategy<Value = String> {
    "(?s).{0,12}"
}

fn turn_strategy(players: usize) -> impl Strategy<Value = TurnRecord> {
    (
        (
            1u16..=20,
            0..players as u8,
            crate::common::long_roll_count(),
        ),
        crate::common::turn_dice(),
        prop::sample::select(BoxCode::ALL.to_vec()),
        (
            prop::option::of(any::<u16>()),
            prop::option::of(any::<u32>()),
            crate::common::announced(),
        ),
    )
        .prop_map(
            |(
                (round, seat, roll_count),
                (rolls, keeps),
                code,
                (points, total_before, announced),
            )| {
                let mut turn = TurnRecord::new(round, seat, BoxCode::parse(code).unwrap());
                turn.points = points;
                turn.total_before = total_before;
                turn.announced = announced;
                with_dice(turn, usize::from(roll_count), &rolls, &keeps)
            },
        )
}

fn game_strategy() -> impl Strategy<Value = GameRecord> {
    let names = prop::collection::vec("[a-z_0-9]{1,8}|.{1,4}", 1..=4);
    names
        .prop_flat_map(|players| {
            let count = players.len();
            (
                Just(players),
                ("[a-z0-9-]{1,10}", "[a-z-]{1,14}"),
                prop::option::of("[0-9]{4}\\.[0-9]{2}\\.[0-9]{2}"),
                prop::option::of("[0-9]{2}:[0-9]{2}:[0-9]{2}"),
                prop::collection::vec((any_text(), any_text()), 0..4),
                prop::collection::vec(turn_strategy(count), 0..12),
                prop::sample::select(vec![
                    Termination::Normal,
                    Termination::Abandoned,
                    Termination::Timeout,
                    Termination::Resigned,
                ]),
                prop::option::of(prop::collection::vec(any::<u32>(), count)),
            )
        })
        .prop_map(
            |(players, (game_id, rules), date, time, tags, turns, termination, result)| {
                GameRecord {
                    players,
                    rules,
                    provenance: Provenance {
                        file: "x.ygn".into(),
                        line: 7,
                        game_id,
                        date,
                        time,
                        result_line: None,
                    },
                    turns,
                    termination,
                    result,
                    tags,
                }
            },
        )
}

proptest! {
    #[test]
    fn random_valid_records_survive_writing_and_reading(games in prop::collection::vec(game_strategy(), 1..3)) {
        let text: String = games.iter().map(|game| write(game).expect("writable")).collect();
        let again = read_games(&text);
        let comparable = |games: &[GameRecord]| games.iter().map(jsonl_comparable).collect::<Vec<_>>();
        prop_assert_eq!(comparable(&again), comparable(&games));
    }
}

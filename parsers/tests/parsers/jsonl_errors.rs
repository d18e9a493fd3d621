//! The JSONL reader on small inline inputs: what it accepts (blank lines, extra fields, nulls),
//! and each kind of error with its line, column (the offending field's) and game, followed by
//! resynchronisation at the next `game` event.

use crate::common::read_all;
use dicelens_parsers::{jsonl, GameRecord, ParseError, MAX_ROLLS_PER_TURN};

const GAME: &str = r#"{"event":"game","game":"g1","rules":"yahtzee","players":["ann","bob"]}"#;
const ROLL: &str =
    r#"{"event":"roll","game":"g1","seat":0,"player":"ann","round":1,"roll":1,"dice":[1,2,3,4,5]}"#;
const KEEP: &str =
    r#"{"event":"keep","game":"g1","seat":0,"player":"ann","round":1,"roll":1,"dice":[1,2]}"#;
const ROLL_2: &str =
    r#"{"event":"roll","game":"g1","seat":0,"player":"ann","round":1,"roll":2,"dice":[1,2,6,6,6]}"#;
const SCORE: &str =
    r#"{"event":"score","game":"g1","seat":0,"player":"ann","round":1,"box":"C","points":19}"#;
const END: &str = r#"{"event":"end","game":"g1","termination":"abandoned"}"#;
/// A valid game after the broken one, to show that reading goes on.
const NEXT_GAME: &str = concat!(
    r#"{"event":"game","game":"g2","rules":"yahtzee","players":["cy"]}"#,
    "\n",
    r#"{"event":"end","game":"g2","termination":"abandoned"}"#,
);

fn read(lines: &[&str]) -> Vec<Result<GameRecord, ParseError>> {
    let text = lines.join("\n");
    read_all(&mut jsonl::Reader::new(text.as_bytes(), "t.jsonl"))
}

/// Reads `lines` followed by [`NEXT_GAME`]: one error, then game g2.
fn error_then_next_game(lines: &[&str]) -> ParseError {
    let mut all = lines.to_vec();
    all.push(NEXT_GAME);
    let outcomes = read(&all);
    match outcomes.as_slice() {
        [Err(error), Ok(next)] if next.provenance.game_id == "g2" => error.clone(),
        _ => panic!("expected an error, then game g2: {outcomes:#?}"),
    }
}

fn assert_error(error: &ParseError, line: u64, column: u32, expected: &str, found: &str) {
    assert_eq!((error.line, error.column), (line, column), "{error}");
    assert!(error.expected.contains(expected), "{error}");
    assert!(error.found.contains(found), "{error}");
}

/// The column (1-based) of member `"key":` in `line` (ASCII lines only).
fn column_of(line: &str, key: &str) -> u32 {
    line.find(&format!("\"{key}\":"))
        .map_or(0, |index| index as u32 + 1)
}

#[test]
fn blank_lines_extra_fields_nulls_and_lower_case_boxes_are_accepted() {
    let lines = [
        "",
        r#"{"event":"game","game":"g1","rules":"yahtzee","players":["ann","bob"],"site":"x","date":null}"#,
        "   ",
        r#"{"event":"roll","game":"g1","seat":0,"player":"ann","round":1,"roll":1,"dice":[6,6,6,6,6],"ms":12}"#,
        r#"{"event":"score","game":"g1","seat":0,"player":"ann","round":1,"box":"y","points":null}"#,
        r#"{"event":"end","game":"g1","termination":"timeout","result":null}"#,
    ];
    let outcomes = read(&lines);
    let [Ok(game)] = outcomes.as_slice() else {
        panic!("{outcomes:#?}")
    };
    assert_eq!(game.provenance.line, 2);
    assert!(game.tags.is_empty());
    assert_eq!(game.provenance.date, None);
    let turn = &game.turns[0];
    assert_eq!(
        (turn.category.as_str(), turn.points, turn.line),
        ("Y", None, 4)
    );
}

#[test]
fn crlf_lines_are_accepted() {
    let text = [GAME, ROLL, KEEP, ROLL_2, SCORE, END].join("\r\n");
    let outcomes = read_all(&mut jsonl::Reader::new(text.as_bytes(), "t.jsonl"));
    let [Ok(game)] = outcomes.as_slice() else {
        panic!("{outcomes:#?}")
    };
    assert_eq!(game.turns[0].rolls(), [[1, 2, 3, 4, 5], [1, 2, 6, 6, 6]]);
    assert_eq!(game.turns[0].keeps()[0].faces(), [1, 2]);
}

#[test]
fn an_event_before_any_game_is_an_error_outside_games() {
    let error = error_then_next_game(&[ROLL]);
    assert_error(&error, 1, 2, "a `game` event", "a `roll` event");
    assert_eq!((error.game_id, error.game_line), (None, 1));
}

#[test]
fn a_line_that_is_not_an_object_is_an_error_at_column_1() {
    for line in ["[1,2]", "42", "\"game\""] {
        let error = error_then_next_game(&[line]);
        assert_error(
            &error,
            1,
            1,
            "a JSON object with the fields of its event",
            "invalid type",
        );
    }
}

#[test]
fn a_missing_field_is_named() {
    let roll = r#"{"event":"roll","game":"g1","seat":0,"player":"ann","round":1,"roll":1}"#;
    let error = error_then_next_game(&[GAME, roll]);
    assert_error(&error, 2, 1, "field `dice`", "an event without it");
    let error = error_then_next_game(&[r#"{"game":"g1"}"#]);
    assert_error(&error, 1, 1, "field `event`", "an event without it");
}

#[test]
fn a_field_of_the_wrong_type_is_pointed_at() {
    let cases = [
        (
            ROLL.replace(r#""seat":0"#, r#""seat":"0""#),
            "seat",
            "the seat, a number 0-255",
            "0",
        ),
        (
            ROLL.replace(r#""seat":0"#, r#""seat":300"#),
            "seat",
            "the seat",
            "300",
        ),
        (
            ROLL.replace("[1,2,3,4,5]", "[1,2,3,4,5,6,1]"),
            "dice",
            "at most six dice",
            "[1,2,3,4,5,6,1]",
        ),
        (
            ROLL.replace("[1,2,3,4,5]", "[1,2,-3,4,5]"),
            "dice",
            "at most six dice",
            "-3",
        ),
        (
            SCORE.replace(r#""C""#, r#""XX""#),
            "box",
            "a box code",
            "XX",
        ),
        (
            SCORE.replace(r#""points":19"#, r#""points":"19""#),
            "points",
            "the points",
            "19",
        ),
        (
            ROLL.replace(r#""player":"ann""#, r#""player":7"#),
            "player",
            "the player's name",
            "7",
        ),
    ];
    for (line, key, expected, found) in cases {
        let error = error_then_next_game(&[GAME, &line]);
        assert_error(&error, 2, column_of(&line, key), expected, found);
    }
    let end = END.replace("abandoned", "draw");
    let error = error_then_next_game(&[GAME, &end]);
    assert_error(
        &error,
        2,
        column_of(&end, "termination"),
        "`normal`, `abandoned`",
        "draw",
    );
}

#[test]
fn game_event_fields_are_checked() {
    let cases = [
        (GAME.replace(r#""g1""#, r#""""#), "game", "a game id"),
        (
            GAME.replace(r#""yahtzee""#, r#""""#),
            "rules",
            "a rule set name",
        ),
        (
            GAME.replace(r#"["ann","bob"]"#, "[]"),
            "players",
            "1 to 255 player names",
        ),
        (GAME.replace(r#""bob""#, r#""""#), "players", "not empty"),
        (
            GAME.replace('}', r#","date":"2007-03-14"}"#),
            "date",
            "a date YYYY.MM.DD",
        ),
        (
            GAME.replace('}', r#","time":"9:04:55"}"#),
            "time",
            "a time HH:MM:SS",
        ),
        (
            GAME.replace('}', r#","tags":[["Site"]]}"#),
            "tags",
            "[name, value] string pairs",
        ),
    ];
    for (line, key, expected) in cases {
        let error = error_then_next_game(&[&line, END]);
        assert_error(&error, 1, column_of(&line, key), expected, "");
        // The game event is broken: the game is named by the `end` event after it.
        assert_eq!(error.game_id.as_deref(), Some("g1"), "{error}");
    }
}

#[test]
fn turn_events_must_belong_to_the_game() {
    let other_game = ROLL.replace(r#""game":"g1""#, r#""game":"g9""#);
    let error = error_then_next_game(&[GAME, &other_game]);
    assert_error(
        &error,
        2,
        column_of(&other_game, "game"),
        "game `g1` (the game opened on line 1)",
        "g9",
    );
    assert_eq!((error.game_id.as_deref(), error.game_line), (Some("g1"), 1));

    let no_seat = ROLL.replace(r#""seat":0"#, r#""seat":2"#);
    let error = error_then_next_game(&[GAME, &no_seat]);
    assert_error(
        &error,
        2,
        column_of(&no_seat, "seat"),
        "a seat from 0 to 1 (the game has 2 players)",
        "2",
    );

    let wrong_player = ROLL.replace("ann", "bob");
    let error = error_then_next_game(&[GAME, &wrong_player]);
    assert_error(
        &error,
        2,
        column_of(&wrong_player, "player"),
        "ann (the player in seat 0)",
        "bob (the player in seat 1)",
    );
}

#[test]
fn the_turn_sequence_is_checked() {
    let other_seat = KEEP.replace(r#""seat":0,"player":"ann""#, r#""seat":1,"player":"bob""#);
    let other_round = SCORE.replace(r#""round":1"#, r#""round":2"#);
    let second_roll_first = ROLL_2;
    let keep_after_roll_2 = KEEP.replace(r#""roll":1"#, r#""roll":2"#);
    let roll_3 = ROLL_2.replace(r#""roll":2"#, r#""roll":3"#);
    let round_0 = ROLL.replace(r#""round":1"#, r#""round":0"#);
    let cases: [(&[&str], u64, &str, &str, &str); 10] = [
        (
            &[GAME, ROLL, ROLL],
            3,
            "event",
            "a `keep` or `score` event after roll 1 of round 1",
            "a `roll` event",
        ),
        (
            &[GAME, ROLL, KEEP, KEEP],
            4,
            "event",
            "a `roll` event after a keep",
            "a `keep` event",
        ),
        (
            &[GAME, ROLL, KEEP, SCORE],
            4,
            "event",
            "a `roll` event after a keep",
            "a `score` event",
        ),
        (
            &[GAME, SCORE],
            2,
            "event",
            "a `roll` event (a turn starts with a roll)",
            "a `score` event",
        ),
        (
            &[GAME, second_roll_first],
            2,
            "roll",
            "roll 1 (a turn starts with its first roll)",
            "2",
        ),
        (
            &[GAME, ROLL, KEEP, &roll_3],
            4,
            "roll",
            "roll 2 (after keep 1)",
            "3",
        ),
        (
            &[GAME, ROLL, &keep_after_roll_2],
            3,
            "roll",
            "roll 1 (the keep follows roll 1)",
            "2",
        ),
        (
            &[GAME, ROLL, &other_seat],
            3,
            "seat",
            "seat 0 (its turn of round 1 is not finished)",
            "1",
        ),
        (
            &[GAME, ROLL, &other_round],
            3,
            "round",
            "round 1 (the turn is not finished)",
            "2",
        ),
        (&[GAME, &round_0], 2, "round", "a round number from 1", "0"),
    ];
    for (lines, line, key, expected, found) in cases {
        let error = error_then_next_game(lines);
        let column = column_of(lines[line as usize - 1], key);
        assert_error(&error, line, column, expected, found);
    }
    // A turn goes on past its third roll up to the limit; a keep after the last roll it may
    // have is refused.
    let roll = |n: usize| ROLL_2.replace(r#""roll":2"#, &format!(r#""roll":{n}"#));
    let keep = |n: usize| KEEP.replace(r#""roll":1"#, &format!(r#""roll":{n}"#));
    let mut owned = vec![ROLL.to_string(), keep(1)];
    for n in 2..=MAX_ROLLS_PER_TURN {
        owned.push(roll(n));
        owned.push(keep(n));
    }
    let mut lines = vec![GAME];
    lines.extend(owned.iter().map(String::as_str));
    let error = error_then_next_game(&lines);
    assert_error(
        &error,
        lines.len() as u64,
        2,
        "a `score` event after roll 64",
        "a `keep` event",
    );
    // Up to there, the turn is read whole.
    let mut whole = lines[..lines.len() - 1].to_vec();
    whole.extend([SCORE, END]);
    let games = read(&whole);
    let turn = &games[0].as_ref().expect("a turn of 64 rolls is read").turns[0];
    assert_eq!((turn.rolls().len(), turn.keeps().len()), (64, 63));
    assert_eq!(turn.keeps()[62].faces(), [1, 2]);
}

#[test]
fn an_announcement_goes_on_the_first_roll_only() {
    let announcing = ROLL.replace(
        r#""dice":[1,2,3,4,5]"#,
        r#""dice":[1,2,3,4,5],"announce":"a:j""#,
    );
    let games = read(&[GAME, &announcing, KEEP, ROLL_2, SCORE, END]);
    let turn = &games[0].as_ref().expect("an announcing turn is read").turns[0];
    assert_eq!(
        turn.announced.map(|cell| cell.to_string()),
        Some("A:J".into())
    );
    assert_eq!(turn.rolls().len(), 2);
    // A null announcement is none.
    let null = ROLL.replace(
        r#""dice":[1,2,3,4,5]"#,
        r#""dice":[1,2,3,4,5],"announce":null"#,
    );
    let games = read(&[GAME, &null, SCORE, END]);
    assert_eq!(games[0].as_ref().expect("read").turns[0].announced, None);
    let late = ROLL_2.replace(r#""roll":2,"#, r#""roll":2,"announce":"A:J","#);
    let on_keep = KEEP.replace(r#""roll":1,"#, r#""roll":1,"announce":"A:J","#);
    let unknown = ROLL.replace(r#""roll":1,"#, r#""roll":1,"announce":"A:X","#);
    let cases: [(&[&str], &str, &str, &str); 3] = [
        (
            &[GAME, ROLL, KEEP, &late],
            "announce",
            "no `announce` (a turn announces on its first roll only)",
            "A:J",
        ),
        (
            &[GAME, ROLL, &on_keep],
            "announce",
            "no `announce` on a keep",
            "A:J",
        ),
        (
            &[GAME, &unknown],
            "announce",
            "`announce`: the announced cell, a box code such as A:P, or null",
            "A:X",
        ),
    ];
    for (lines, key, expected, found) in cases {
        let error = error_then_next_game(lines);
        let line = lines.len() as u64;
        let column = column_of(lines[lines.len() - 1], key);
        assert_error(&error, line, column, expected, found);
    }
}

#[test]
fn dice_values_are_checked() {
    let no_dice = ROLL.replace("[1,2,3,4,5]", "[]");
    let seven = ROLL.replace("[1,2,3,4,5]", "[1,2,3,4,7]");
    let zero_kept = KEEP.replace("[1,2]", "[0]");
    let cases = [
        (vec![GAME, no_dice.as_str()], "one to six dice", "[]"),
        (vec![GAME, seven.as_str()], "dice 1-6", "[1, 2, 3, 4, 7]"),
        (vec![GAME, ROLL, zero_kept.as_str()], "dice 1-6", "[0]"),
    ];
    for (lines, expected, found) in cases {
        let error = error_then_next_game(&lines);
        let line = lines.len() as u64;
        assert_error(
            &error,
            line,
            column_of(lines[lines.len() - 1], "dice"),
            expected,
            found,
        );
    }
}

#[test]
fn the_end_event_is_checked() {
    let error = error_then_next_game(&[GAME, ROLL, END]);
    assert_error(
        &error,
        3,
        2,
        "the rest of the turn of seat 0 in round 1",
        "a `end` event",
    );
    let wrong_result = END.replace('}', r#","result":[1]}"#);
    let error = error_then_next_game(&[GAME, &wrong_result]);
    assert_error(
        &error,
        2,
        column_of(&wrong_result, "result"),
        "2 totals, one per player",
        "[1]",
    );
    let other_game = END.replace("g1", "g7");
    let error = error_then_next_game(&[GAME, &other_game]);
    assert_error(&error, 2, column_of(&other_game, "game"), "game `g1`", "g7");
}

#[test]
fn errors_after_the_first_in_a_broken_game_are_skipped() {
    let outcomes = read(&[GAME, ROLL, ROLL, "not json", ROLL, NEXT_GAME]);
    assert_eq!(outcomes.len(), 2, "{outcomes:#?}");
    assert!(outcomes[0].is_err() && outcomes[1].is_ok());
}

#[test]
fn after_an_error_the_line_after_an_end_event_starts_a_game() {
    // The broken game's `end` event is skipped with it, but what follows it is not that game's:
    // it starts one (here an error of its own), as it would after a game read without error.
    let outcomes = read(&[GAME, ROLL, "not json", END, ROLL, ROLL, NEXT_GAME]);
    let lines: Vec<Result<u64, u64>> = outcomes
        .iter()
        .map(|outcome| match outcome {
            Ok(game) => Ok(game.provenance.line),
            Err(error) => Err(error.line),
        })
        .collect();
    assert_eq!(lines, [Err(3), Err(5), Ok(7)]);
    let Err(error) = &outcomes[1] else {
        unreachable!()
    };
    assert_error(
        error,
        5,
        column_of(ROLL, "event"),
        "a `game` event",
        "`roll`",
    );
}

#[test]
fn columns_count_characters() {
    let game = r#"{"event":"game","game":"é","rules":"yahtzee","players":["ann"]} x"#;
    let error = error_then_next_game(&[game]);
    assert_error(&error, 1, 65, "valid JSON (trailing characters)", "x");
}

#[test]
fn a_game_cut_at_the_end_of_input_is_reported_there() {
    let outcomes = read(&[GAME, ROLL]);
    let [Err(error)] = outcomes.as_slice() else {
        panic!("{outcomes:#?}")
    };
    let column = ROLL.chars().count() as u32 + 1;
    assert_error(error, 2, column, "an `end` event", "end of input");
    let outcomes = read(&[GAME, ROLL, ""]);
    let [Err(error)] = outcomes.as_slice() else {
        panic!("{outcomes:#?}")
    };
    assert_error(error, 3, 1, "an `end` event", "end of input");
}

#[test]
fn arrays_longer_than_a_game_can_hold_are_refused_at_their_field() {
    use dicelens_parsers::MAX_PLAYERS;
    let names: Vec<String> = (0..=MAX_PLAYERS).map(|n| format!("\"p{n}\"")).collect();
    let players = format!(
        r#"{{"event":"game","game":"g1","rules":"yahtzee","players":[{}]}}"#,
        names.join(",")
    );
    let error = error_then_next_game(&[&players, END]);
    let column = column_of(&players, "players");
    assert_eq!((error.line, error.column), (1, column), "{error}");
    assert!(error.expected.contains("1 to 255 strings"), "{error}");
    assert!(
        read(&[&players.replace(",\"p255\"", ""), END])[0].is_ok(),
        "255 players fit"
    );

    // Ten million totals: refused after the 256th, as the array is read.
    let totals = vec!["1"; 10_000_000].join(",");
    let end =
        format!(r#"{{"event":"end","game":"g1","termination":"normal","result":[{totals}]}}"#);
    let error = error_then_next_game(&[GAME, &end]);
    assert_eq!(error.line, 2, "{error}");
    assert!(error.expected.contains("one per player"), "{error}");

    let tags: Vec<&str> = vec![r#"["a","b"]"#; 1025];
    let game = format!(
        r#"{{"event":"game","game":"g1","rules":"yahtzee","players":["ann"],"tags":[{}]}}"#,
        tags.join(",")
    );
    let error = error_then_next_game(&[&game, END]);
    assert!(error.expected.contains("at most 1024"), "{error}");
}

/// Issue 30, item 9: a `game` event whose `Rules` tag says another rule set than its `rules`
/// member (or whose `Game`, `Players`, `Date` or `Time` tag disagrees with its member) is an
/// error naming the line, the tag, both values: the game is skipped, in analyze and convert
/// alike (both read it here), never rated under one and converted under the other. Tags that
/// agree, or other tags, are fine.
#[test]
fn a_tag_that_disagrees_with_its_member_is_an_error() {
    let with_tags = |tags: &str| {
        format!(
            r#"{{"event":"game","game":"g1","rules":"yahtzee","players":["ann","bob"],"date":"2007.03.14","tags":{tags}}}"#
        )
    };
    let cases = [
        (
            r#"[["Rules","yatzy"]]"#,
            "Rules",
            "rules",
            "\"yahtzee\"",
            "yatzy",
        ),
        (
            r#"[["Site","x"],["Rules","yahtzee-free"]]"#,
            "Rules",
            "rules",
            "\"yahtzee\"",
            "yahtzee-free",
        ),
        (r#"[["Game","g9"]]"#, "Game", "game", "\"g1\"", "g9"),
        (
            r#"[["Players","ann, cy"]]"#,
            "Players",
            "players",
            "\"ann, bob\"",
            "ann, cy",
        ),
        (
            r#"[["Date","2007.03.15"]]"#,
            "Date",
            "date",
            "\"2007.03.14\"",
            "2007.03.15",
        ),
    ];
    for (tags, tag, key, field, value) in cases {
        let game = with_tags(tags);
        let error = error_then_next_game(&[&game, END]);
        assert_error(
            &error,
            1,
            column_of(&game, "tags"),
            &format!(
                "a `{tag}` tag that agrees with `{key}` {field} (the member is what the game is \
                 read, rated and converted by; leave the tag out or make it the same)"
            ),
            &format!("`{tag}` {value}"),
        );
        assert_eq!(error.game_id.as_deref(), Some("g1"));
    }
    let agreeing = with_tags(
        r#"[["Game","g1"],["Rules","yahtzee"],["Players","ann, bob"],["Date","2007.03.14"],["Time","21:04:55"],["Site","x"]]"#,
    );
    let read = read(&[&agreeing, END]);
    assert_eq!(read.len(), 1);
    assert_eq!(read[0].as_ref().expect("a game").rules, "yahtzee");
}

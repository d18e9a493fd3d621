//! The reader on small hand-written logs: games rebuilt from decisions, every error with its
//! line, column, game id and expectation, and reading resumed at any line.

use super::*;
use crate::ParseError;

/// A one-line game of `variant` with the given decisions (situation, action, points).
fn game_line(variant: &str, decisions: &[(&str, &str, Option<u16>)]) -> String {
    let decisions: Vec<String> = decisions
        .iter()
        .map(|(situation, action, points)| {
            let points = points.map_or("null".to_string(), |p| p.to_string());
            format!(r#"{{"situation":"{situation}","action":"{action}","points":{points}}}"#)
        })
        .collect();
    format!(
        r#"{{"variant":"{variant}","rng":1,"seed":5,"game":2,"score":30,"decisions":[{}]}}"#,
        decisions.join(",")
    )
}

/// Every outcome of reading `content` as `logs/bot7.jsonl`.
fn read(content: &str) -> Vec<Result<GameRecord, ParseError>> {
    let mut reader = Reader::new(content.as_bytes(), "logs/bot7.jsonl");
    std::iter::from_fn(|| {
        let mut game = GameRecord::default();
        reader.read_game(&mut game).map(|r| r.map(|()| game))
    })
    .collect()
}

/// The only error of reading `content`.
fn error(content: &str) -> ParseError {
    match read(content).as_slice() {
        [Err(error)] => error.clone(),
        other => panic!("{other:?}"),
    }
}

/// The 1-based column of the first `needle` in `text`, in characters.
fn column_of(text: &str, needle: &str) -> u32 {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} in {text}"));
    text[..at].chars().count() as u32 + 1
}

const KEEP: (&str, &str, Option<u16>) = (
    "dice 1 2 6 6 6 | rolls 2 | upper 0 | filled -",
    "keep 6 6 6",
    None,
);
const THEN_SCORE: (&str, &str, Option<u16>) = (
    "dice 3 4 6 6 6 | rolls 1 | upper 0 | filled -",
    "score three_of_a_kind",
    Some(25),
);

#[test]
fn a_game_is_rebuilt_from_its_decisions() {
    let second = (
        "dice 1 1 1 1 1 | rolls 2 | upper 0 | filled three_of_a_kind",
        "score five_of_a_kind",
        Some(50),
    );
    let third = (
        "dice 1 1 1 1 1 | rolls 2 | upper 0 | filled three_of_a_kind,five_of_a_kind | five_of_a_kind 50",
        "score ones",
        Some(105),
    );
    let text = format!(
        "\n{}\n",
        game_line("american", &[KEEP, THEN_SCORE, second, third])
    );
    let games = read(&text);
    let [Ok(game)] = games.as_slice() else {
        panic!("{games:?}")
    };
    assert_eq!(game.players, ["bot7"]);
    assert_eq!(game.rules, "yahtzee-free");
    assert_eq!(game.provenance.game_id, "bot7:5-2");
    assert_eq!(
        (game.provenance.file.as_str(), game.provenance.line),
        ("logs/bot7.jsonl", 2)
    );
    assert_eq!(game.result, Some(vec![30]));
    assert_eq!(game.termination, Termination::Normal);
    let turn = &game.turns[0];
    assert_eq!(
        (turn.round, turn.seat, turn.rolls().len(), turn.line),
        (1, 0, 2, 2)
    );
    assert_eq!(turn.rolls(), [[1, 2, 6, 6, 6], [3, 4, 6, 6, 6]]);
    assert_eq!(turn.keeps()[0].faces(), [6, 6, 6]);
    assert_eq!(
        (turn.category.as_str(), turn.earned, turn.points),
        ("3K", Some(25), None)
    );
    let codes: Vec<&str> = game.turns.iter().map(|t| t.category.as_str()).collect();
    assert_eq!(codes, ["3K", "Y", "1"]);
    assert_eq!(game.turns[2].earned, Some(105));
    assert_eq!(game.turns[2].round, 3);
    assert!(game.tags.is_empty());
}

#[test]
fn the_earlier_spellings_read() {
    let line = game_line(
        "yahtzee+no-joker",
        &[
            (
                "dice 2 2 2 2 2 | rolls 2 | upper 0 | filled -",
                "score yahtzee",
                Some(50),
            ),
            (
                "dice 1 2 3 4 5 | rolls 2 | upper 0 | filled yahtzee | yahtzee_box 50",
                "score chance",
                Some(15),
            ),
        ],
    );
    let games = read(&line);
    let [Ok(game)] = games.as_slice() else {
        panic!("{games:?}")
    };
    assert_eq!(game.rules, "yahtzee-nojoker");
    assert_eq!(game.turns[0].category.as_str(), "Y");
}

#[test]
fn a_turn_must_count_its_rolls_down() {
    let again = (
        "dice 3 4 6 6 6 | rolls 2 | upper 0 | filled -",
        "score chance",
        Some(25),
    );
    let line = game_line("american", &[KEEP, again]);
    let e = error(&line);
    let second = line.find("dice 3 4").unwrap();
    let at = column_of(&line[second..], "rolls 2") - 1 + column_of(&line, "dice 3 4");
    assert_eq!((e.line, e.column, e.game_line), (1, at, 1));
    assert_eq!(e.game_id.as_deref(), Some("bot7:5-2"));
    assert_eq!(
        e.expected,
        "rolls 1 (the turn of round 1 goes on after `keep 6 6 6`)"
    );
    assert_eq!(e.found, "rolls 2");

    let late = (
        "dice 3 4 6 6 6 | rolls 1 | upper 0 | filled -",
        "score chance",
        Some(25),
    );
    let e = error(&game_line("american", &[late]));
    assert_eq!(e.expected, "rolls 2 (a turn starts with its first roll)");

    let keep_at_zero = game_line(
        "american",
        &[(
            "dice 3 4 6 6 6 | rolls 0 | upper 0 | filled -",
            "keep 6",
            None,
        )],
    );
    let e = error(&keep_at_zero);
    assert_eq!(e.expected, "rolls 2 (a turn starts with its first roll)");

    let unfinished = game_line("american", &[KEEP]);
    let e = error(&unfinished);
    assert_eq!(e.column, column_of(&unfinished, "\",\"points\""));
    assert_eq!(
        e.expected,
        "a decision after `keep 6 6 6` (the turn of round 1 has no score)"
    );
}

#[test]
fn no_keep_after_the_last_roll() {
    let third = (
        "dice 1 4 6 6 6 | rolls 0 | upper 0 | filled -",
        "keep 6 6 6",
        None,
    );
    let second = (
        "dice 3 4 6 6 6 | rolls 1 | upper 0 | filled -",
        "keep 6 6 6",
        None,
    );
    let line = game_line("yatzy-scandinavian", &[KEEP, second, third]);
    let e = error(&line);
    let action = line.rfind("keep 6 6 6").unwrap();
    assert_eq!(e.column, line[..action].chars().count() as u32 + 1);
    assert_eq!(e.expected, "score ID (no rerolls are left)");
}

#[test]
fn the_state_must_follow_from_the_decisions() {
    let scored = (
        "dice 1 1 1 2 3 | rolls 2 | upper 0 | filled -",
        "score ones",
        Some(3),
    );
    let next = |situation| {
        game_line(
            "yatzy-scandinavian",
            &[scored, (situation, "score chance", Some(20))],
        )
    };

    let line = next("dice 2 3 4 5 6 | rolls 2 | upper 4 | filled ones");
    let e = error(&line);
    assert_eq!(e.column, column_of(&line, "upper 4"));
    assert_eq!(
        (e.expected.as_str(), e.found.as_str()),
        ("upper 3 (the upper boxes scored before)", "upper 4")
    );

    let line = next("dice 2 3 4 5 6 | rolls 2 | upper 3 | filled twos");
    let e = error(&line);
    assert_eq!(e.column, column_of(&line, "filled twos"));
    assert_eq!(
        e.expected,
        "filled ones (the categories scored before, in any order)"
    );

    let line = next("dice 2 3 4 5 6 | rolls 2 | upper 3 | filled ones,ones");
    assert_eq!(error(&line).expected, "each filled category once");

    let line = next("dice 2 3 4 5 6 | rolls 2 | upper 3 | filled ones,full");
    let e = error(&line);
    assert_eq!(e.column, column_of(&line, "full\""));
    assert!(
        e.expected.starts_with("a category: ones, twos"),
        "{}",
        e.expected
    );

    let line = next("dice 2 3 4 5 6 | rolls 2 | upper 3 | filled ones | yatzy 0");
    assert_eq!(
        error(&line).expected,
        "nothing after `filled` (no five-of-a-kind box is filled)"
    );
}

#[test]
fn the_five_of_a_kind_field_says_what_the_box_holds() {
    let scratched = (
        "dice 1 2 3 4 5 | rolls 2 | upper 0 | filled -",
        "score five_of_a_kind",
        Some(0),
    );
    let next = |situation| {
        game_line(
            "american",
            &[scratched, (situation, "score chance", Some(20))],
        )
    };
    let line = next("dice 2 3 4 5 6 | rolls 2 | upper 0 | filled five_of_a_kind");
    let e = error(&line);
    assert_eq!(e.column, column_of(&line, "\",\"action\":\"score chance"));
    assert_eq!(
        e.expected,
        "`| five_of_a_kind 0` (what the filled box holds)"
    );
    let line =
        next("dice 2 3 4 5 6 | rolls 2 | upper 0 | filled five_of_a_kind | five_of_a_kind 50");
    let e = error(&line);
    assert_eq!(e.column, column_of(&line, "five_of_a_kind 50"));
    assert_eq!(e.expected, "five_of_a_kind 0 (what the filled box holds)");
    let line = next("dice 2 3 4 5 6 | rolls 2 | upper 0 | filled five_of_a_kind | big 0");
    assert_eq!(
        error(&line).expected,
        "five_of_a_kind (or yahtzee_box, yahtzee)"
    );
    // Without the Yahtzee bonus, the state has no such field.
    let plain = game_line(
        "american+no-bonus",
        &[
            scratched,
            (
                "dice 2 3 4 5 6 | rolls 2 | upper 0 | filled five_of_a_kind",
                "score chance",
                Some(20),
            ),
        ],
    );
    assert!(read(&plain)[0].is_ok());
}

#[test]
fn actions_and_points_are_checked_where_they_are() {
    let line = game_line(
        "yatzy-scandinavian",
        &[(
            "dice 1 2 6 6 6 | rolls 2 | upper 0 | filled -",
            "score three_of_a_kind",
            None,
        )],
    );
    let e = error(&line);
    assert_eq!(e.column, column_of(&line, "\"points\""));
    assert_eq!(
        (e.expected.as_str(), e.found.as_str()),
        ("`points`: the points the category earned, a number", "null")
    );
    let line = game_line("yatzy-scandinavian", &[(KEEP.0, KEEP.1, Some(0))]);
    let e = error(&line);
    assert_eq!(e.column, column_of(&line, "\"points\""));
    assert_eq!(e.expected, "`points`: null after a keep");

    let line = game_line(
        "yatzy-scandinavian",
        &[(KEEP.0, "score five_of_a_kind", Some(0))],
    );
    let e = error(&line);
    assert_eq!(e.column, column_of(&line, "five_of_a_kind\""));
    assert!(e.expected.ends_with("chance, yatzy"), "{}", e.expected);

    let line = game_line("yatzy-scandinavian", &[(KEEP.0, "hold 6 6 6", None)]);
    let e = error(&line);
    assert_eq!(e.column, column_of(&line, "hold"));
    assert_eq!(e.expected, "keep DICE, keep - or score ID");

    let line = game_line(
        "yatzy-scandinavian",
        &[(
            "dice 1 1 2 2 6 6 6 | rolls 2 | upper 0 | filled -",
            "keep 6",
            None,
        )],
    );
    let e = error(&line);
    assert_eq!(
        (e.column, e.expected.as_str(), e.found.as_str()),
        (
            column_of(&line, "dice 1 1 2 2 6 6 6 |"),
            "one to six dice",
            "7 dice"
        )
    );

    let line = game_line(
        "yatzy-scandinavian",
        &[(
            "dice 1 2 6 6 0 | rolls 2 | upper 0 | filled -",
            "keep 6",
            None,
        )],
    );
    let e = error(&line);
    assert_eq!(
        (e.column, e.expected.as_str()),
        (column_of(&line, "0 | rolls"), "a die 1-6")
    );
}

#[test]
fn json_errors_are_at_serdes_column_with_the_game_when_known() {
    let line = r#"{"variant":"american","seed":5,"game":2,"score":"high","decisions":[]}"#;
    let e = error(line);
    assert_eq!(e.game_id.as_deref(), Some("bot7:5-2"), "seed and game read");
    assert!(
        e.expected
            .starts_with("a game of a yatzy-solver log (invalid type"),
        "{}",
        e.expected
    );
    // serde_json stops at the last character of the value that does not fit.
    assert_eq!(e.column, column_of(line, "\",\"decisions\""));

    let line = r#"{"variant":"american","seed":5,"game":2,"decisions":[]}"#;
    let e = error(line);
    assert_eq!(e.game_id.as_deref(), Some("bot7:5-2"));
    assert_eq!(
        e.expected,
        "a game of a yatzy-solver log (missing field `score`)"
    );

    let line = r#"{"variant":"ameri"#;
    let e = error(line);
    assert_eq!(
        (e.column, e.game_id.as_deref()),
        (18, None),
        "just after the end"
    );
    assert_eq!(e.found, "end of line");

    // Columns count characters.
    let line = r#"{"note":"é€","variant":"american","seed":5,"game":2,"score":0,"decisions":[x]}"#;
    let e = error(line);
    assert_eq!(e.column, column_of(line, "x]"));
    assert!(e.expected.starts_with("valid JSON"), "{}", e.expected);

    let e = error("{\"variant\":\"\u{ff}\"}");
    assert_eq!(e.line, 1);
    let bytes = b"{\"variant\":\"\xff\"}\n";
    let mut reader = Reader::new(bytes, "f.jsonl");
    let mut game = GameRecord::default();
    assert!(matches!(reader.read_game(&mut game), Some(Err(_))));
    assert!(reader.read_game(&mut game).is_none());
}

#[test]
fn a_string_with_escapes_is_placed_at_the_decisions() {
    let line = game_line(
        "american",
        &[(
            "dice 1 2 6 6 7 | rolls 2 \\u007c upper 0 | filled -",
            "keep 6",
            None,
        )],
    );
    let e = error(&line);
    assert_eq!(e.column, column_of(&line, "\"decisions\""));
    assert_eq!(e.expected, "a die 1-6");
}

#[test]
fn unknown_variants_are_errors_and_unsupported_switches_keep_their_name() {
    let line = game_line("maxi-yatzy", &[]);
    let e = error(&line);
    assert_eq!(e.column, column_of(&line, "maxi"));
    assert_eq!(e.found, "maxi-yatzy");
    let games = read(&game_line("yatzy-scandinavian+fh5", &[]));
    let [Ok(game)] = games.as_slice() else {
        panic!("{games:?}")
    };
    assert_eq!(game.rules, "yatzy-scandinavian+fh5");
    assert!(game.turns.is_empty());
}

#[test]
fn every_line_is_a_game_and_errors_do_not_stop_the_reader() {
    let good = game_line("american", &[KEEP, THEN_SCORE]);
    let text = format!("\u{feff}{good}\r\n\r\nnot json\n  \n{good}");
    let outcomes = read(&text);
    let lines: Vec<(bool, u64)> = outcomes
        .iter()
        .map(|o| match o {
            Ok(game) => (true, game.provenance.line),
            Err(e) => (false, e.line),
        })
        .collect();
    assert_eq!(lines, [(true, 1), (false, 3), (true, 5)]);
}

#[test]
fn reading_resumes_at_any_line_as_a_whole_read_goes_on() {
    let good = game_line("american", &[KEEP, THEN_SCORE]);
    let text = format!(
        "{good}\n\nbroken\n{good}\n{}\n",
        good.replace("\"game\":2", "\"game\":3")
    );
    let content = text.as_bytes();
    let mut whole = Reader::new(content, "r.jsonl");
    let mut all = Vec::new();
    let mut game = GameRecord::default();
    while let Some(outcome) = whole.read_game(&mut game) {
        all.push((whole.game_offset(), outcome.map(|()| game.clone())));
    }
    assert_eq!(all.len(), 4);
    let mut lines = Cursor::new(content);
    loop {
        let at = lines.offset();
        let mut resumed = Reader::resuming(lines, "r.jsonl");
        let mut got = Vec::new();
        while let Some(outcome) = resumed.read_game(&mut game) {
            got.push((resumed.game_offset(), outcome.map(|()| game.clone())));
        }
        let want: Vec<_> = all
            .iter()
            .filter(|(offset, _)| *offset >= at)
            .cloned()
            .collect();
        assert_eq!(got, want, "resumed at {at}");
        if lines.next_line().is_none() {
            break;
        }
    }
}

//! The Verhoeff reader on small inline inputs: game boundaries, skipped table trailers, and the
//! errors (line, column, expected, found) of each kind of malformed line, with resynchronisation.

use crate::common::read_all;
use dicelens_parsers::{verhoeff, GameRecord, ParseError, Termination};

const FILE: &str = "logs/t.txt";
const HEADER: &str = " # Game State        Tot Roll       You  Expect SD   OSYP  Expect SD  Delta\n\
                      -- ----------------- --- -------  -----  ------ --  -----  ------ --  -----\n";
/// A complete first turn in the input form: full house on the first roll.
const INPUT_TURN: &str = "      123456TFHSLYC; 63 false    0  33355;2   sH  25\n";
/// The same turn as a table line.
const TABLE_TURN: &str = " 1 123456TFHSLYC;63-   0 33355;2  H  25  257.20 56\n";

fn read(text: &str) -> Vec<Result<GameRecord, ParseError>> {
    read_all(&mut verhoeff::Reader::new(text.as_bytes(), FILE))
}

/// The one error of `text`, which must yield nothing else.
fn only_error(text: &str) -> ParseError {
    let outcomes = read(text);
    match outcomes.as_slice() {
        [Err(error)] => error.clone(),
        _ => panic!("expected one error: {outcomes:#?}"),
    }
}

fn assert_error(error: &ParseError, line: u64, column: u32, expected: &str, found: &str) {
    assert_eq!((error.line, error.column), (line, column), "{error}");
    assert!(error.expected.contains(expected), "{error}");
    assert!(error.found.contains(found), "{error}");
}

/// The first lines of each game and the errors' lines, in order.
fn summary(outcomes: &[Result<GameRecord, ParseError>]) -> Vec<String> {
    let describe = |outcome: &Result<GameRecord, ParseError>| match outcome {
        Ok(game) => format!("game {}", game.provenance.line),
        Err(error) => format!("error {}", error.line),
    };
    outcomes.iter().map(describe).collect()
}

#[test]
fn empty_inputs_yield_nothing() {
    for text in ["", "\n\n", "  \n\t\n"] {
        assert!(read(text).is_empty(), "{text:?}");
    }
}

#[test]
fn player_is_the_file_stem_and_game_id_the_file_name_and_first_line() {
    let outcomes = read(&format!("\n{INPUT_TURN}"));
    let [Ok(game)] = outcomes.as_slice() else {
        panic!("{outcomes:#?}")
    };
    assert_eq!(game.players, ["t"]);
    // The id is made of the file name without its directories: the same wherever the tool is
    // run from.
    assert_eq!(game.provenance.game_id, "t.txt:2");
    assert_eq!(
        (game.provenance.file.as_str(), game.provenance.line),
        (FILE, 2)
    );
    assert_eq!(game.termination, Termination::Abandoned);
    assert_eq!(game.tag("Termination"), Some("abandoned"));
}

#[test]
fn byte_order_mark_and_crlf_are_accepted() {
    let text = format!("\u{feff}{HEADER}{TABLE_TURN}").replace('\n', "\r\n");
    let outcomes = read(&text);
    let [Ok(game)] = outcomes.as_slice() else {
        panic!("{outcomes:#?}")
    };
    assert_eq!(game.turns[0].points, Some(25));
}

#[test]
fn looks_like_accepts_headers_and_state_columns_only() {
    assert!(verhoeff::looks_like(b" # Game State        Tot Roll"));
    assert!(verhoeff::looks_like(b"#Game State"));
    assert!(verhoeff::looks_like(
        b"      __345_TFH_LY_; 37 false   77  12366;2   k66___"
    ));
    assert!(verhoeff::looks_like(b"_2__5_TF__LYC;15- 103 12344;2"));
    assert!(!verhoeff::looks_like(b"# Game"));
    assert!(!verhoeff::looks_like(b" 7 _2__5_TF__LYC;15- 103 12344;2"));
    assert!(!verhoeff::looks_like(b"123456TFHSLYX; 63 false 0"));
    assert!(!verhoeff::looks_like(b"T23456TFHSLYC; 63 false 0"));
    assert!(!verhoeff::looks_like(b"123456TFHSLYC 63"));
}

#[test]
fn a_full_sheet_ends_the_game_without_a_separator() {
    let text = "      ____________C;  0 false  300  11111;2   sC   5\n\
                      ___________Y_;  0 false  290  66666;2   sY  50\n";
    let outcomes = read(text);
    assert_eq!(summary(&outcomes), ["game 1", "game 2"]);
    for game in outcomes.iter().flatten() {
        assert_eq!(game.turns[0].round, 13);
    }
}

#[test]
fn an_empty_sheet_starts_a_new_game() {
    let outcomes = read(&format!("{INPUT_TURN}{INPUT_TURN}"));
    assert_eq!(summary(&outcomes), ["game 1", "game 2"]);
}

#[test]
fn a_blank_line_ends_a_game() {
    let second = "      123456TF_SLYC; 63 false   25  11111;2   sY  50\n";
    let outcomes = read(&format!("{INPUT_TURN}\n{second}"));
    assert_eq!(summary(&outcomes), ["game 1", "game 3"]);
}

#[test]
fn a_table_header_ends_a_game() {
    let outcomes = read(&format!("{HEADER}{TABLE_TURN}{HEADER}{TABLE_TURN}"));
    assert_eq!(summary(&outcomes), ["game 3", "game 6"]);
}

#[test]
fn the_table_trailer_is_skipped_up_to_the_next_state_column() {
    let trailer = "\nChoices: 1 in all; 1 optimal\nMean Delta per choice: 0.00\n\nScore Card\n \
                   Full House        25\n 1 Aces 0\n";
    let outcomes = read(&format!("{HEADER}{TABLE_TURN}{trailer}{INPUT_TURN}"));
    assert_eq!(summary(&outcomes), ["game 3", "game 11"]);
}

#[test]
fn points_are_optional_in_the_input_form() {
    let outcomes = read("      123456TFHSLYC; 63 false    0  33355;2   sH\n");
    let [Ok(game)] = outcomes.as_slice() else {
        panic!("{outcomes:#?}")
    };
    assert_eq!(game.turns[0].points, None);
}

#[test]
fn points_are_required_in_the_table() {
    let text = format!("{HEADER} 1 123456TFHSLYC;63-   0 33355;2  H  257.20 56\n");
    // `257.20` is not a whole number of points.
    assert_error(&only_error(&text), 3, 38, "the points scored", "257.20");
}

#[test]
fn state_mask_must_follow_the_turns_before() {
    let text = format!("{INPUT_TURN}      123456TF_S_YC; 63 false   25  11111;2   sY  50\n");
    let error = only_error(&text);
    assert_error(&error, 2, 7, "the mask 123456TF_SLYC", "123456TF_S_YC");
    assert_eq!(error.game_line, 1);
}

#[test]
fn table_turn_number_must_match_the_state() {
    let text = format!("{HEADER} 2 123456TFHSLYC;63-   0 33355;2  H  25  257.20 56\n");
    assert_error(
        &only_error(&text),
        3,
        2,
        "turn number 1 (the state has 13 open boxes)",
        "2",
    );
}

#[test]
fn table_continuation_must_repeat_the_turns_state() {
    let text = format!(
        "{HEADER} 1 123456TFHSLYC;63-   0 13456;2  3456_  254.80 59\n   \
         123456TFHSLYC;63-   5 33456;1  3456_  253.90 59\n"
    );
    assert_error(
        &only_error(&text),
        4,
        4,
        "123456TFHSLYC;63- 0",
        "123456TFHSLYC;63- 5",
    );
}

#[test]
fn table_continuation_may_leave_the_state_out() {
    let text = format!(
        "{HEADER} 1 123456TFHSLYC;63-   0 13456;2  3456_  254.80 59\n                       \
         33456;1  S  30  253.90 59\n"
    );
    let outcomes = read(&text);
    let [Ok(game)] = outcomes.as_slice() else {
        panic!("{outcomes:#?}")
    };
    assert_eq!(game.turns[0].rolls(), [[1, 3, 4, 5, 6], [3, 3, 4, 5, 6]]);
}

#[test]
fn a_continuation_line_cannot_start_a_game() {
    let text = "                   ;                33456;1   k3456_\n";
    assert_error(
        &only_error(text),
        1,
        20,
        "a turn's first line (its state column)",
        "continuation",
    );
}

#[test]
fn an_unfinished_turn_at_the_end_of_input_is_an_error() {
    let text = "      123456TFHSLYC; 63 false    0  13456;2   k3456_\n";
    let error = only_error(text);
    assert_error(
        &error,
        2,
        1,
        "the next line of turn 1 (roll 2, rolls left 1)",
        "end of input",
    );
}

#[test]
fn the_end_of_input_without_a_line_end_is_placed_after_the_last_character() {
    let text = "      123456TFHSLYC; 63 false    0  13456;2   k3456_";
    assert_error(
        &only_error(text),
        1,
        53,
        "the next line of turn 1",
        "end of input",
    );
}

#[test]
fn an_unfinished_turn_before_a_new_game_is_an_error_and_the_new_game_is_read() {
    let text = format!("      123456TFHSLYC; 63 false    0  13456;2   k3456_\n{INPUT_TURN}");
    let outcomes = read(&text);
    assert_eq!(summary(&outcomes), ["error 2", "game 2"]);
    let Err(error) = &outcomes[0] else {
        unreachable!()
    };
    assert_error(error, 2, 1, "the next line of turn 1", "a new game");
    assert_eq!(error.game_line, 1);
}

#[test]
fn a_keep_needs_rolls_left() {
    let text = concat!(
        "      123456TFHSLYC; 63 false    0  13456;2   k3456_\n",
        "                   ;                33456;1   k3456_\n",
        "                   ;                34456;0   k3456_\n",
    );
    assert_error(
        &only_error(text),
        3,
        47,
        "a box scored: no rolls are left",
        "kept dice",
    );
}

#[test]
fn a_used_box_cannot_be_scored() {
    let text = "      123456TFH_LYC; 63 false   30  13456;2   sS  30\n";
    assert_error(
        &only_error(text),
        1,
        47,
        "an open box of the state 123456TFH_LYC",
        "box S",
    );
}

#[test]
fn malformed_columns_name_what_was_expected() {
    let cases = [
        (
            "      123456TFHSLYC; 64 false    0  33355;2   sH  25\n",
            22,
            "(0-63)",
            "64",
        ),
        (
            "      123456TFHSLYC; 63 maybe    0  33355;2   sH  25\n",
            25,
            "`true` or `false`",
            "maybe",
        ),
        (
            "      123456TFHSLYC; 63 false    x  33355;2   sH  25\n",
            34,
            "the total so far",
            "x",
        ),
        (
            "      123456TFHSLYC; 63 false    0  33355;3   sH  25\n",
            43,
            "2, 1 or 0",
            "3",
        ),
        (
            "      123456TFHSLYC; 63 false    0  33355 2   sH  25\n",
            42,
            "`;` and the rolls left",
            " ",
        ),
        (
            "      123456TFHSLYC; 63 false    0  33355;2   sX  25\n",
            48,
            "a box letter",
            "X",
        ),
        (
            "      123456TFHSLYC; 63 false    0  33355;2   k6_6__\n",
            50,
            "`_` (padding",
            "6",
        ),
        (
            "      123456TFHSLYC; 63 false    0  33355;2   k0____\n",
            48,
            "a die 1-6",
            "0",
        ),
        (
            "      123456TFHSLYC; 63 false    0  33355;2   k66__\n",
            48,
            "five characters",
            "66__",
        ),
        (
            "      123456TFHSLYC; 63 false    0  33355;2   x66___\n",
            47,
            "`k` and the kept dice",
            "x66___",
        ),
        (
            "      123456TFHSLYC; 63 false    0  33355;2   sH  25 x\n",
            54,
            "the end of the line",
            "x",
        ),
        (
            "      123456TFHSLYC 63 false    0  33355;2   sH  25\n",
            20,
            "`;` after the 13-character",
            " ",
        ),
        (
            "      123456TFHSLYC; 63 false    0  33355;2   sH  99999\n",
            51,
            "the points scored",
            "99999",
        ),
    ];
    for (text, column, expected, found) in cases {
        assert_error(&only_error(text), 1, column, expected, found);
    }
}

#[test]
fn malformed_analysis_columns_name_what_was_expected() {
    let cases = [
        (
            " 1 123456TFHSLYC;63-   0 33355;2  H  25  abc 56\n",
            42,
            "Expect",
            "abc",
        ),
        (
            " 1 123456TFHSLYC;63-   0 33355;2  H  25  257.20\n",
            48,
            "SD",
            "",
        ),
        (
            " 1 123456TFHSLYC;63- 0 33355;2 H 25 257.20 56 333__ 258.93 56 1.73 !!\n",
            68,
            "a Delta marker",
            "!!",
        ),
        (
            " 1 123456TFHSLYC;63- 0 33355;2 H 25 257.20 56 333__ 258.93 56\n",
            62,
            "Delta",
            "",
        ),
        (
            " 1 123456TFHSLYC;63- 0 33355;2 H 25 257.20 56 33 258.93 56 1.73\n",
            47,
            "the choice",
            "33",
        ),
        (
            " 1 123456TFHSLYC;63x   0 33355;2  H  25  257.20 56\n",
            20,
            "`+` or `-`",
            "x",
        ),
    ];
    for (line, column, expected, found) in cases {
        assert_error(
            &only_error(&format!("{HEADER}{line}")),
            3,
            column,
            expected,
            found,
        );
    }
}

#[test]
fn a_stray_line_is_an_error_and_reading_goes_on() {
    let outcomes = read(&format!("hello\n{INPUT_TURN}\n{INPUT_TURN}"));
    assert_eq!(summary(&outcomes), ["error 1", "game 2", "game 4"]);
    let Err(error) = &outcomes[0] else {
        unreachable!()
    };
    assert_error(error, 1, 1, "a turn line", "hello");
    assert_eq!((error.game_id.as_deref(), error.game_line), (None, 1));
}

#[test]
fn a_stray_line_inside_a_game_ends_it_with_an_error() {
    let text =
        format!("      123456TFHSLYC; 63 false    0  13456;2   k3456_\nhello\n\n{INPUT_TURN}");
    let outcomes = read(&text);
    assert_eq!(summary(&outcomes), ["error 2", "game 4"]);
}

#[test]
fn errors_count_columns_in_characters() {
    let error = only_error("      123456TFHSLYC; 63 false    0  33355;2   sH  25 é x\n");
    assert_error(&error, 1, 54, "the end of the line", "é");
}

#[test]
fn after_an_error_a_score_that_fills_the_sheet_ends_the_broken_game() {
    // The last two turns of a game, the first broken, then a game that starts mid-sheet: the
    // line after the score that fills the sheet starts a game, error or not before it.
    let text = "      ___________YC;  0 false  250  71111;2   sY  50\n\
                      ____________C;  0 false  300  11111;2   sC   5\n\
                      ___________Y_;  0 false  290  66666;2   sY  50\n";
    let outcomes = read(text);
    assert_eq!(summary(&outcomes), ["error 1", "game 3"]);
    // Without the error, the same two games.
    let fixed = text.replacen("71111", "11111", 1);
    assert_eq!(summary(&read(&fixed)), ["game 1", "game 3"]);
}

#[test]
fn a_ruler_after_a_tables_turns_starts_its_trailer() {
    let ruler = "-- ----------------- --- -------\n";
    // Right after the header, a ruler belongs to it; after a turn line (read without error or
    // not), it ends the table, and the table lines after it are the trailer's.
    let text = format!("{HEADER}{TABLE_TURN}{ruler}{TABLE_TURN}");
    assert_eq!(summary(&read(&text)), ["game 3"]);
    let broken = text.replacen("33355;2", "33375;2", 1);
    assert_eq!(summary(&read(&broken)), ["error 3"]);
}

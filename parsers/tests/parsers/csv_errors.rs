//! CSV reader errors, each exactly (line, column, game, expected, found); the row window; the
//! stream reader; `--columns`; format detection.

use crate::common::read_all;
use dicelens_parsers::{csv, Format, GameRecord, ParseError};

const HEADER: &str = "game,rules,seat,player,round,roll1,keep1,roll2,keep2,roll3,box,points\n";

/// Every outcome of `text` read with `options`.
fn read_with(text: &str, options: &csv::CsvOptions) -> Vec<Result<GameRecord, ParseError>> {
    read_all(&mut csv::Reader::with_range(
        text.as_bytes(),
        "t.csv",
        0..usize::MAX,
        options,
    ))
}

fn read(text: &str) -> Vec<Result<GameRecord, ParseError>> {
    read_with(text, &csv::CsvOptions::default())
}

/// The one error of `text`, as (line, column, game id, game line, expected, found).
fn only_error(text: &str) -> (u64, u32, Option<String>, u64, String, String) {
    let outcomes = read(text);
    let errors: Vec<&ParseError> = outcomes.iter().filter_map(|o| o.as_ref().err()).collect();
    assert_eq!(errors.len(), 1, "{outcomes:#?}");
    let e = errors[0];
    assert_eq!(e.file, "t.csv");
    (
        e.line,
        e.column,
        e.game_id.clone(),
        e.game_line,
        e.expected.clone(),
        e.found.clone(),
    )
}

fn error(
    line: u64,
    column: u32,
    game: &str,
    game_line: u64,
    expected: &str,
    found: &str,
) -> (u64, u32, Option<String>, u64, String, String) {
    let game = (!game.is_empty()).then(|| game.to_string());
    (line, column, game, game_line, expected.into(), found.into())
}

#[test]
fn a_table_reads_as_games_in_round_and_seat_order() {
    let text = format!(
        "{HEADER}g,yatzy,1,bob,1,11111,,,,,Y,50\ng,yatzy,0,ann,2,12345,,,,,C,15\n\
         g,yatzy,0,ann,1,1 2 3 4 5,12,12666,,,SS,15\n"
    );
    let outcomes = read(&text);
    let game = outcomes[0].as_ref().unwrap();
    assert_eq!(game.players, ["ann", "bob"]);
    let order: Vec<(u16, u8, u64)> = game
        .turns
        .iter()
        .map(|t| (t.round, t.seat, t.line))
        .collect();
    assert_eq!(order, [(1, 0, 4), (1, 1, 2), (2, 0, 3)]);
    let turn = &game.turns[0];
    assert_eq!(turn.rolls().len(), 2);
    assert_eq!(turn.rolls()[0], [1, 2, 3, 4, 5]);
    assert_eq!(turn.keeps()[0].faces(), [1, 2]);
    assert_eq!(
        (game.provenance.line, game.provenance.file.as_str()),
        (2, "t.csv")
    );
    assert_eq!(outcomes.len(), 1);
}

#[test]
fn each_syntax_error_names_its_field() {
    let row = |fields: &str| format!("{HEADER}{fields}\n");
    let cases = [
        (
            "g,yatzy,0,ann,1,12375,,,,,C,",
            error(2, 20, "g", 2, "a die 1-6", "75"),
        ),
        (
            "g,yatzy,0,ann,1,1234561,,,,,C,",
            error(2, 17, "g", 2, "one to six dice 1-6 (like 35561)", "1234561"),
        ),
        (
            "g,yatzy,0,ann,1,12345,12,,,,C,",
            error(
                2,
                26,
                "g",
                2,
                "roll2 (a keep is followed by a roll)",
                "an empty field",
            ),
        ),
        (
            "g,yatzy,0,ann,1,12345,,,,12345,C,",
            error(2, 26, "g", 2, "no roll3 (there is no roll2)", "12345"),
        ),
        (
            "g,yatzy,0,ann,1,12345,,,,,XX,",
            error(
                2,
                27,
                "g",
                2,
                "a box code: 1-6, 1P, 2P, 3P, 3K, 4K, 5K, FH, VI, TO, SS, LS, FS, C or Y, or a Jamb cell such as D:1, F:MAX or A:J",
                "XX",
            ),
        ),
        (
            "g,yatzy,0,ann,0,12345,,,,,C,",
            error(2, 15, "g", 2, "a round number 1-65535", "0"),
        ),
        (
            "g,yatzy,x,ann,1,12345,,,,,C,",
            error(2, 9, "g", 2, "a seat number 0-255", "x"),
        ),
        (
            "g,yatzy,0,ann,1,12345,,,,,C,-1",
            error(2, 29, "g", 2, "points 0-65535 (or nothing)", "-1"),
        ),
        (
            "g,,0,ann,1,12345,,,,,C,",
            error(
                2,
                3,
                "g",
                2,
                "a rule set name (UTF-8 text)",
                "an empty field",
            ),
        ),
        (
            "g,yatzy,0,,1,12345,,,,,C,",
            error(
                2,
                11,
                "g",
                2,
                "a player name (UTF-8 text)",
                "an empty field",
            ),
        ),
        (
            ",yatzy,0,ann,1,12345,,,,,C,",
            error(2, 1, "", 2, "a game id", "an empty field"),
        ),
        (
            "g,yatzy,0,ann,1,12345,,,,,C",
            error(2, 28, "g", 2, "12 fields, as the header has", "11 fields"),
        ),
        (
            "g,yatzy,0,ann,1,12345,,,,,C,,x",
            error(2, 30, "g", 2, "12 fields, as the header has", "13 fields"),
        ),
    ];
    for (fields, want) in cases {
        assert_eq!(only_error(&row(fields)), want, "{fields}");
    }
}

#[test]
fn rows_of_a_game_must_agree() {
    let text =
        format!("{HEADER}g,yatzy,0,ann,1,12345,,,,,C,\n\n\r\ng,yatzy,0,ann,1,12345,,,,,C,\n");
    assert_eq!(
        only_error(&text),
        error(
            5,
            15,
            "g",
            2,
            "one row per round and seat",
            "round 1 seat 0 given twice (first at line 2)"
        )
    );
    let text = format!("{HEADER}g,yatzy,0,ann,1,12345,,,,,C,\ng,yatzy,0,bob,2,12345,,,,,C,\n");
    assert_eq!(
        only_error(&text),
        error(3, 11, "g", 2, "player ann (seat 0 on line 2)", "bob")
    );
    let text = format!("{HEADER}g,yatzy,0,ann,1,12345,,,,,C,\ng,yahtzee,0,ann,2,12345,,,,,C,\n");
    assert_eq!(
        only_error(&text),
        error(3, 3, "g", 2, "rules yatzy (as on line 2)", "yahtzee")
    );
    let text = format!("{HEADER}g,yatzy,0,ann,1,12345,,,,,C,\ng,yatzy,2,bob,1,12345,,,,,C,\n");
    assert_eq!(
        only_error(&text),
        error(
            3,
            9,
            "g",
            2,
            "a row of seat 1 before seat 2",
            "no row of seat 1 (seats are numbered from 0)"
        )
    );
}

#[test]
fn a_header_without_the_required_columns_is_one_error() {
    let text = "% exported 2026-05-01\n\nid;when;who\n1;2;3\n";
    assert_eq!(
        only_error(text),
        error(
            3,
            1,
            "",
            3,
            "a header naming the columns game, rules, player, round, box and roll1 (or roll and dice) \
             (--columns maps other names); missing: game, rules, player, round, box, roll1",
            "id, when, who"
        )
    );
    assert!(read("").is_empty());
    assert!(read(HEADER).is_empty());
}

#[test]
fn the_per_roll_layout_joins_rolls_into_turns() {
    let header = "game;rules;player;round;roll;dice;keep;box;points\n";
    let text = format!(
        "{header}g;yatzy;ann;1;2;12666;;SS;15\ng;yatzy;bob;1;1;11111;;Y;50\ng;yatzy;ann;1;1;12345;12;;\n"
    );
    let outcomes = read(&text);
    let game = outcomes[0].as_ref().unwrap();
    assert_eq!(game.players, ["ann", "bob"]);
    let turn = &game.turns[0];
    assert_eq!(
        (turn.rolls().len(), turn.line, turn.points),
        (2, 4, Some(15))
    );
    assert_eq!(turn.rolls()[1], [1, 2, 6, 6, 6]);
    assert_eq!(turn.keeps()[0].faces(), [1, 2]);
    let broken = [
        (
            "g;yatzy;ann;1;2;12345;;C;\n",
            error(
                2,
                15,
                "g",
                2,
                "roll 1 of round 1 seat 0 (rolls count 1, 2, 3, ...)",
                "roll 2",
            ),
        ),
        (
            "g;yatzy;ann;1;1;12345;;C;\ng;yatzy;ann;1;2;12345;;C;\n",
            error(
                2,
                24,
                "g",
                2,
                "no box before the turn's last roll",
                "C (roll 2 follows)",
            ),
        ),
        (
            "g;yatzy;ann;1;1;12345;1;;\n",
            error(
                2,
                25,
                "g",
                2,
                "a box on the turn's last roll",
                "an empty field",
            ),
        ),
        (
            "g;yatzy;ann;1;1;12345;1;C;\n",
            error(
                2,
                23,
                "g",
                2,
                "no keep on the row that scores the turn (no roll follows it)",
                "1",
            ),
        ),
        (
            "g;yatzy;ann;1;1;12345;;;5\n",
            error(
                2,
                25,
                "g",
                2,
                "no points (they go on the row that names the box)",
                "5",
            ),
        ),
        (
            "g;yatzy;ann;1;1;12345;;C;\ng;yatzy;ann;1;1;12345;;C;\n",
            error(
                3,
                15,
                "g",
                2,
                "one row per round, seat and roll",
                "round 1 seat 0 roll 1 given twice (first at line 2)",
            ),
        ),
    ];
    for (rows, want) in broken {
        assert_eq!(only_error(&format!("{header}{rows}")), want, "{rows}");
    }
}

#[test]
fn seats_follow_the_lowest_round_without_a_seat_column() {
    let text = "game,rules,player,round,roll1,box\n\
                g,yatzy,cid,3,12345,C\ng,yatzy,bob,2,12345,C\ng,yatzy,ann,2,12345,C\n";
    let outcomes = read(text);
    let game = outcomes[0].as_ref().unwrap();
    assert_eq!(game.players, ["bob", "ann", "cid"]);
    let seats: Vec<(u16, u8)> = game.turns.iter().map(|t| (t.round, t.seat)).collect();
    assert_eq!(seats, [(2, 0), (2, 1), (3, 2)]);
}

#[test]
fn rows_beyond_the_window_are_an_error_of_their_own() {
    let options = csv::CsvOptions {
        window_rows: 3,
        ..csv::CsvOptions::default()
    };
    // Within three rows of its first row, any order works.
    let text = format!(
        "{HEADER}a,yatzy,0,ann,2,12345,,,,,C,\nb,yatzy,0,bob,1,12345,,,,,C,\na,yatzy,0,ann,1,12345,,,,,C,\n"
    );
    let ids: Vec<String> = read_with(&text, &options)
        .into_iter()
        .map(|o| o.unwrap().provenance.game_id)
        .collect();
    assert_eq!(ids, ["a", "b"]);
    // The fourth row from a's first row is too late: a is given out, the row is an error.
    let text = format!(
        "{HEADER}a,yatzy,0,ann,1,12345,,,,,C,\nb,yatzy,0,bob,1,12345,,,,,C,\nb,yatzy,0,bob,2,12345,,,,,C,\n\
         a,yatzy,0,ann,2,12345,,,,,C,\na,yatzy,0,ann,3,12345,,,,,C,\n"
    );
    let outcomes = read_with(&text, &options);
    assert_eq!(outcomes.len(), 3, "{outcomes:#?}");
    assert_eq!(outcomes[0].as_ref().unwrap().turns.len(), 1);
    assert_eq!(outcomes[1].as_ref().unwrap().provenance.game_id, "b");
    let late = outcomes[2].as_ref().unwrap_err();
    assert_eq!(
        (
            late.line,
            late.column,
            late.game_id.as_deref(),
            late.game_line
        ),
        (5, 1, Some("a"), 5)
    );
    assert_eq!(
        late.expected,
        "the rows of game a within 3 rows of its first row (line 2; sort the export by game)"
    );
    assert_eq!(late.found, "a row 3 or more rows after it");
}

#[test]
fn a_stream_reads_as_the_content_does() {
    let (_, content) = crate::common::fixture("csv", "shuffled.csv");
    let whole = read_all(&mut Format::Csv.reader(&content, "s.csv"));
    // A reader that gives a few bytes at a time, so records straddle the buffer's refills.
    struct Trickle<'a>(&'a [u8]);
    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(7).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let options = csv::CsvOptions::default();
    let mut reader = csv::Reader::from_read(Box::new(Trickle(&content)), "s.csv", &options);
    assert_eq!(read_all(&mut reader), whole);
    assert_eq!(
        dicelens_parsers::GameReader::consumed(&reader),
        content.len()
    );
}

#[test]
fn columns_map_other_header_names() {
    let columns =
        csv::parse_columns("game=match_id, round = turn_no,player=nick,roll1=r1").unwrap();
    assert_eq!(columns[1], ("round".to_string(), "turn_no".to_string()));
    let options = csv::CsvOptions {
        columns,
        ..csv::CsvOptions::default()
    };
    let text = "MATCH_ID|rules|nick|turn_no|r1|box\nm|yatzy|ann|1|12345|C\n";
    let outcomes = read_with(text, &options);
    assert_eq!(outcomes[0].as_ref().unwrap().provenance.game_id, "m");
    for (flag, words) in [
        ("games=id", "unknown column 'games' (known: game, date,"),
        ("game", "expected name=header, found 'game'"),
        ("game=", "no header name for column 'game'"),
        ("game=a,game=b", "column 'game' mapped twice"),
    ] {
        let message = csv::parse_columns(flag).unwrap_err();
        assert!(message.contains(words), "{flag}: {message}");
    }
}

#[test]
fn tables_with_the_default_names_are_detected() {
    for header in [
        "game,date,rules,seat,player,round,roll1,keep1,roll2,keep2,roll3,box,points",
        "\u{feff}Game;Round;Box;Player",
        "\"game\"\t\"round\"\t\"box\"",
        "% a comment\ngame|round|box\n",
    ] {
        assert_eq!(
            Format::detect(header.as_bytes()),
            Some(Format::Csv),
            "{header}"
        );
    }
    for line in ["game,round", "gameid,round,box", "a;b;c"] {
        assert!(!csv::looks_like(line.as_bytes()), "{line}");
    }
}

/// A table of `games` games (the three of `fixtures/csv/valid.csv`, renamed), one turn row per
/// line.
fn many_games(games: usize) -> String {
    let valid = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/csv/valid.csv"
    ))
    .expect("fixture");
    let (header, rows) = valid.split_once('\n').expect("a header");
    let mut table = format!("{header}\n");
    for n in 0..games {
        let source = format!("valid-{}", n % 3 + 1);
        for row in rows
            .lines()
            .filter(|row| row.starts_with(&format!("{source},")))
        {
            table.push_str(&row.replacen(&source, &format!("g{n}"), 1));
            table.push('\n');
        }
    }
    table
}

/// Issue 30, item 8: one stray `"` opening a field of a 30-game table costs the game it is in
/// and nothing more: the quote is cut at the line end (the next line reads as a row), the
/// damaged game is one error naming the file, line and why, and the other 29 games are read
/// whole. Wherever the quote opens a field (the game id included, where the row's game is
/// unknown and its game then lacks a turn), every game but the damaged one is read.
#[test]
fn a_stray_quote_costs_only_the_game_it_is_in() {
    let table = many_games(30);
    let whole = read(&table);
    assert_eq!(whole.len(), 30);
    assert!(whole.iter().all(Result::is_ok));
    let lines: Vec<&str> = table.lines().collect();
    // Line 200 (1-based), of game g7; each field in turn opened by a stray quote.
    let target = 199;
    let fields = lines[target].split(',').count();
    for field in 0..fields {
        let mut damaged: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        let mut parts: Vec<String> = damaged[target].split(',').map(String::from).collect();
        parts[field].insert(0, '"');
        damaged[target] = parts.join(",");
        let text = damaged.join("\n") + "\n";
        let outcomes = read(&text);
        let source = Box::new(std::io::Cursor::new(text.clone().into_bytes()));
        let streamed = read_all(&mut csv::Reader::from_read(
            source,
            "t.csv",
            &Default::default(),
        ));
        assert_eq!(streamed, outcomes, "a stream reads as the content does");
        let errors: Vec<&ParseError> = outcomes.iter().filter_map(|o| o.as_ref().err()).collect();
        let games: Vec<&GameRecord> = outcomes.iter().filter_map(|o| o.as_ref().ok()).collect();
        let game = lines[target].split(',').next().unwrap_or_default();
        assert_eq!(errors.len(), 1, "quote in field {field}: {errors:#?}");
        let e = errors[0];
        assert_eq!((e.file.as_str(), e.line), ("t.csv", 200), "{e}");
        assert_eq!(e.expected, "a quote closed in its line", "{e}");
        assert!(e.found.contains("never closed"), "{e}");
        let read_whole: Vec<&str> = games
            .iter()
            .filter(|g| g.provenance.game_id != game)
            .map(|g| g.provenance.game_id.as_str())
            .collect();
        assert_eq!(
            read_whole.len(),
            29,
            "quote in field {field}: {read_whole:?}"
        );
        if field == 0 {
            // The row's game is unknown: the error names none; its game lacks the row.
            assert_eq!(e.game_id, None, "{e}");
            assert_eq!(games.len(), 30);
        } else {
            assert_eq!(e.game_id.as_deref(), Some(game), "{e}");
            assert_eq!(games.len(), 29);
        }
    }
}

/// A field in quotes over several lines is still one field when no line in between reads as
/// a row of the table on its own.
#[test]
fn a_quoted_field_over_several_lines_is_still_read() {
    let text = format!("{HEADER}g1,yahtzee,0,\"ann\nsmith\",1,12345,,,,,C,15\n");
    let outcomes = read(&text);
    assert_eq!(outcomes.len(), 1, "{outcomes:#?}");
    let game = outcomes[0].as_ref().expect("a game");
    assert_eq!(game.players, ["ann\nsmith"]);
}

/// The header of the tables with an announcement and the rolls after the third.
const LONG_HEADER: &str =
    "game,rules,seat,player,round,roll1,keep1,roll2,keep2,roll3,more,announce,box,points\n";

#[test]
fn more_rolls_and_an_announcement_are_read_from_their_columns() {
    let text = format!(
        "{LONG_HEADER}g,jamb-6a,0,ann,1,662134,66,666134,666,666636,,A:P,A:P,74\n\
         g,jamb-6a,0,ann,2,123456,56,561122,556,556214,k5556  555631 k- 555553,,F:J,\n"
    );
    let outcomes = read(&text);
    let game = outcomes[0].as_ref().unwrap_or_else(|e| panic!("{e}"));
    let (first, second) = (&game.turns[0], &game.turns[1]);
    assert_eq!(
        first.announced.map(|cell| cell.to_string()),
        Some("A:P".into())
    );
    assert_eq!(first.rolls().len(), 3);
    assert_eq!(second.announced, None);
    assert_eq!(second.rolls().len(), 5);
    assert_eq!(second.keeps()[2].faces(), [5, 5, 5, 6]);
    assert_eq!(second.keeps()[3].faces(), [] as [u8; 0]);
    assert_eq!(second.rolls()[4], [5, 5, 5, 5, 5, 3]);
}

#[test]
fn more_rolls_and_announcements_name_their_errors() {
    let row = |fields: &str| format!("{LONG_HEADER}{fields}\n");
    // (row, where the error is: the text there, or "" for the end of the `more` field,
    // expected, found)
    let cases = [
        (
            "g,r,0,ann,1,12345,1,12345,,,k1 12345,,C,",
            "k1 12345",
            "no more rolls (there is no roll3)",
            "k1 12345",
        ),
        (
            "g,r,0,ann,1,12345,1,12345,1,12345,12345,,C,",
            "12345,,C,",
            "a keep: `k` and up to six dice 1-6, or `k-`",
            "12345",
        ),
        (
            "g,r,0,ann,1,12345,1,12345,1,12345,k1 12345 k7 1,,C,",
            "k7 1",
            "a keep: `k` and up to six dice 1-6, or `k-`",
            "k7 1",
        ),
        (
            "g,r,0,ann,1,12345,1,12345,1,12345,k1,,C,",
            ",,C,",
            "a roll after the keep (one to six dice 1-6)",
            "an empty field",
        ),
        (
            "g,r,0,ann,1,12345,1,12345,1,12345,k1 1234567,,C,",
            "1234567",
            "a roll: one to six dice 1-6",
            "1234567",
        ),
        (
            "g,r,0,ann,1,12345,,,,,,A:X,C,",
            "A:X",
            "the announced cell, a box code such as A:P, or nothing",
            "A:X",
        ),
    ];
    for (fields, there, expected, found) in cases {
        let column = fields.find(there).unwrap() as u32 + 1;
        let want = error(2, column, "g", 2, expected, found);
        assert_eq!(only_error(&row(fields)), want, "{fields}");
    }
    // 65 rolls: an error at the roll past the limit.
    let mut more = String::new();
    for _ in 4..=64 {
        more.push_str("k- 12345 ");
    }
    let at = "g,r,0,ann,1,12345,,12345,,12345,".len() + more.len() + 4;
    more.push_str("k- 66666");
    let fields = format!("g,r,0,ann,1,12345,,12345,,12345,{more},,C,");
    let want = error(2, at as u32, "g", 2, "at most 64 rolls in a turn", "66666");
    assert_eq!(only_error(&row(&fields)), want);
}

#[test]
fn per_roll_rows_take_long_turns_and_announce_on_roll_1() {
    let header = "game,rules,seat,player,round,roll,dice,keep,box,points,announce\n";
    let mut text = format!("{header}g,r,0,ann,1,1,662134,66,,,A:P\n");
    for roll in 2..=4 {
        text.push_str(&format!("g,r,0,ann,1,{roll},662134,66,,,\n"));
    }
    text.push_str("g,r,0,ann,1,5,666666,,A:P,,\n");
    let outcomes = read(&text);
    let turn = &outcomes[0].as_ref().unwrap_or_else(|e| panic!("{e}")).turns[0];
    assert_eq!((turn.rolls().len(), turn.keeps().len()), (5, 4));
    assert_eq!(
        turn.announced.map(|cell| cell.to_string()),
        Some("A:P".into())
    );
    let second = "g,r,0,ann,1,2,666134,,A:P,,A:P";
    let late = format!("{header}g,r,0,ann,1,1,662134,66,,,\n{second}\n");
    let column = second.rfind("A:P").unwrap() as u32 + 1;
    let expected = "no announcement (it goes on the row of roll 1)";
    assert_eq!(only_error(&late), error(3, column, "g", 2, expected, "A:P"));
    let past = format!("{header}g,r,0,ann,1,65,662134,,A:P,,\n");
    let column = "g,r,0,ann,1,".len() as u32 + 1;
    let want = error(2, column, "g", 2, "a roll number 1-64", "65");
    assert_eq!(only_error(&past), want);
}

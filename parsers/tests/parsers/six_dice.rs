//! Rolls of any length in every grammar: a roll of six dice (or of one) is read as written, for
//! how many dice the rule set rolls is the replay's business; seven dice, no dice and a face 7
//! stay syntax errors, at the roll's line and column; and every writer writes six-dice rolls
//! back.

use crate::common::{csv_comparable, jsonl_comparable, read_all, verhoeff_comparable};
use dicelens_parsers::{
    csv, jsonl, verhoeff, ygn, BoxCode, Format, GameRecord, Keep, ParseError, Roll, TurnRecord,
};
use std::io;

/// A grammar's one-game input with `{R}` where the first roll's dice go.
struct Grammar {
    format: Format,
    template: &'static str,
    /// The dice `faces` as this grammar writes a roll.
    write: fn(&[u8]) -> String,
    /// The line of the template's roll.
    roll_line: u64,
}

fn digits(faces: &[u8]) -> String {
    faces.iter().map(|f| char::from(b'0' + f)).collect()
}

fn spaced(faces: &[u8]) -> String {
    let digits: Vec<String> = faces.iter().map(u8::to_string).collect();
    digits.join(" ")
}

fn json(faces: &[u8]) -> String {
    format!("[{}]", spaced(faces).replace(' ', ","))
}

const GRAMMARS: [Grammar; 5] = [
    Grammar {
        format: Format::Ygn,
        template: "[Game \"g\"]\n[Rules \"maxi-yatzy\"]\n[Players \"ann\"]\n1. ann: {R} C\n",
        write: digits,
        roll_line: 4,
    },
    Grammar {
        format: Format::Jsonl,
        template: concat!(
            r#"{"event":"game","game":"g","rules":"maxi-yatzy","players":["ann"]}"#,
            "\n",
            r#"{"event":"roll","game":"g","seat":0,"player":"ann","round":1,"roll":1,"dice":{R}}"#,
            "\n",
            r#"{"event":"score","game":"g","seat":0,"player":"ann","round":1,"box":"C","points":21}"#,
            "\n",
            r#"{"event":"end","game":"g","termination":"abandoned"}"#,
            "\n"
        ),
        write: json,
        roll_line: 2,
    },
    Grammar {
        format: Format::Csv,
        template: "game,rules,seat,player,round,roll1,keep1,roll2,keep2,roll3,box,points\n\
                   g,maxi-yatzy,0,ann,1,{R},,,,,C,\n",
        write: digits,
        roll_line: 2,
    },
    Grammar {
        format: Format::Verhoeff,
        template: "      123456TFHSLYC; 63 false    0  {R};2   sC  21\n",
        write: digits,
        roll_line: 1,
    },
    Grammar {
        format: Format::YatzySolver,
        template: concat!(
            r#"{"variant":"american","seed":1,"game":0,"score":21,"decisions":[{"situation":"#,
            r#""dice {R} | rolls 2 | upper 0 | filled -","action":"score chance","points":21}]}"#,
            "\n"
        ),
        write: spaced,
        roll_line: 1,
    },
];

fn read(grammar: &Grammar, faces: &[u8]) -> (String, Vec<Result<GameRecord, ParseError>>) {
    let text = grammar.template.replace("{R}", &(grammar.write)(faces));
    let outcomes = grammar.format.games(text.as_bytes(), "t").collect();
    (text, outcomes)
}

#[test]
fn every_grammar_reads_a_roll_of_six_dice_and_of_one() {
    for grammar in &GRAMMARS {
        for faces in [&[1, 2, 3, 4, 5, 6][..], &[6, 6, 6, 6, 6, 6], &[4]] {
            let (text, outcomes) = read(grammar, faces);
            let [Ok(game)] = outcomes.as_slice() else {
                panic!("{:?}: {text}\n{outcomes:#?}", grammar.format)
            };
            assert_eq!(
                game.turns[0].rolls(),
                [Roll::new(faces).unwrap()],
                "{:?}",
                grammar.format
            );
        }
    }
}

#[test]
fn every_grammar_refuses_seven_dice_no_dice_and_a_face_seven_where_the_roll_is() {
    for grammar in &GRAMMARS {
        for (faces, what) in [
            (&[1, 1, 2, 3, 4, 5, 6][..], "seven dice"),
            (&[], "no dice"),
            (&[1, 2, 3, 4, 5, 7], "a face 7"),
        ] {
            let (text, outcomes) = read(grammar, faces);
            let [Err(error)] = outcomes.as_slice() else {
                panic!("{:?}, {what}: {text}\n{outcomes:#?}", grammar.format)
            };
            let context = format!("{:?}, {what}: {error}", grammar.format);
            assert_eq!(error.line, grammar.roll_line, "{context}");
            // The column is in the roll's line, past its start.
            let line = text
                .lines()
                .nth(grammar.roll_line as usize - 1)
                .unwrap_or("");
            assert!(
                error.column > 1 && error.column as usize <= line.len(),
                "{context}"
            );
        }
    }
}

#[test]
fn each_grammar_says_what_a_roll_holds() {
    // (grammar, seven dice, no dice, a face 7): what each error expects.
    let expected: [(Format, [&str; 3]); 5] = [
        (
            Format::Ygn,
            [
                "at most six dice, then a space",
                "a roll (one to six dice 1-6)",
                "a die 1-6",
            ],
        ),
        (
            Format::Jsonl,
            [
                "an array of at most six dice",
                "one to six dice",
                "dice 1-6",
            ],
        ),
        (
            Format::Csv,
            [
                "one to six dice 1-6 (like 35561)",
                "one to six dice 1-6 (like 35561)",
                "a die 1-6",
            ],
        ),
        (
            Format::Verhoeff,
            [
                "the roll: one to six dice 1-6",
                "the roll: one to six dice 1-6",
                "a die 1-6",
            ],
        ),
        (
            Format::YatzySolver,
            ["one to six dice", "dice D D D D D", "a die 1-6"],
        ),
    ];
    let cases: [&[u8]; 3] = [&[1, 1, 2, 3, 4, 5, 6], &[], &[1, 2, 3, 4, 5, 7]];
    for (grammar, (format, words)) in GRAMMARS.iter().zip(expected) {
        assert_eq!(grammar.format, format);
        for (faces, words) in cases.iter().zip(words) {
            let (_, outcomes) = read(grammar, faces);
            let error = match outcomes.as_slice() {
                [Err(error)] => error,
                _ => panic!("{format:?}: {outcomes:#?}"),
            };
            assert!(
                error.expected.contains(words),
                "{format:?} {faces:?}: {error}"
            );
        }
    }
}

/// A game of two turns whose rolls have six dice (and a keep of six).
fn six_dice_game() -> GameRecord {
    let mut first = TurnRecord::new(1, 0, BoxCode::parse("6").unwrap());
    first
        .set_rolls(
            &[
                Roll::new(&[1, 2, 3, 4, 5, 6]).unwrap(),
                Roll::new(&[6, 6, 1, 2, 3, 4]).unwrap(),
                Roll::new(&[6, 6, 6, 6, 2, 1]).unwrap(),
            ],
            &[Keep::new(&[6]).unwrap(), Keep::new(&[6, 6]).unwrap()],
        )
        .unwrap();
    first.points = Some(24);
    first.total_before = Some(0);
    let mut second = TurnRecord::new(2, 0, BoxCode::parse("C").unwrap());
    second
        .set_rolls(
            &[
                Roll::new(&[2, 2, 3, 3, 5, 5]).unwrap(),
                Roll::new(&[2, 2, 3, 3, 5, 5]).unwrap(),
            ],
            &[Keep::new(&[2, 2, 3, 3, 5, 5]).unwrap()],
        )
        .unwrap();
    second.points = Some(20);
    second.total_before = Some(24);
    let mut game = GameRecord {
        players: vec!["t".into()],
        rules: "yahtzee-free".into(),
        turns: vec![first, second],
        ..GameRecord::default()
    };
    game.provenance.game_id = "g".into();
    game
}

/// `game` as YGN carries it back: no totals before the turns.
fn ygn_comparable(game: &GameRecord) -> GameRecord {
    let mut comparable = jsonl_comparable(game);
    for turn in &mut comparable.turns {
        turn.total_before = None;
    }
    comparable
}

type Writer = fn(&GameRecord, &mut dyn io::Write) -> io::Result<()>;

/// Makes a record comparable with what a format carries back.
type Comparable = fn(&GameRecord) -> GameRecord;

fn written(format: Format, write: Writer, game: &GameRecord) -> Vec<u8> {
    let mut text = Vec::new();
    if format == Format::Csv {
        csv::write_header(&mut text).unwrap();
    }
    write(game, &mut text).unwrap_or_else(|e| panic!("{e}"));
    text
}

#[test]
fn every_writer_writes_six_dice_back() {
    let game = six_dice_game();
    let comparable: [(Format, Writer, Comparable); 4] = [
        (Format::Ygn, ygn::write_game, ygn_comparable),
        (Format::Jsonl, jsonl::write_game, jsonl_comparable),
        (Format::Csv, csv::write_game, csv_comparable),
        (Format::Verhoeff, verhoeff::write_game, verhoeff_comparable),
    ];
    for (format, write, comparable) in comparable {
        let text = written(format, write, &game);
        let outcomes = read_all(&mut *format.reader(&text, "t.txt"));
        let [Ok(read)] = outcomes.as_slice() else {
            panic!(
                "{format:?}: {}\n{outcomes:#?}",
                String::from_utf8_lossy(&text)
            )
        };
        assert_eq!(
            comparable(read).turns,
            comparable(&game).turns,
            "{format:?}: {}",
            String::from_utf8_lossy(&text)
        );
        // What was read writes as the game does.
        assert_eq!(
            written(format, write, &comparable(read)),
            written(format, write, &comparable(&game)),
            "{format:?}"
        );
    }
    // Verhoeff's input form pads a keep to as many characters as the roll has dice.
    let text = String::from_utf8(written(Format::Verhoeff, verhoeff::write_game, &game)).unwrap();
    assert!(text.contains("123456;2   k6_____\n"), "{text}");
}

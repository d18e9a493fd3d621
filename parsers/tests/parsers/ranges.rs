//! Readers over byte ranges on small, adversarial inputs of every format (random pieces of valid
//! and broken lines, the fixtures): adjacent ranges cut anywhere read exactly the games and
//! errors of one read of the whole content, each once, with the same offsets.

use crate::common::fixture;
use dicelens_parsers::stream::StreamReader;
use dicelens_parsers::{Format, GameRecord, ParseError};
use proptest::prelude::*;
use std::ops::Range;

/// One outcome of a read: where the game begins, and the game or the error.
pub type Outcome = (usize, Result<GameRecord, ParseError>);

/// Every outcome of `reader`, checking that offsets grow.
pub fn outcomes(mut reader: Box<dyn dicelens_parsers::GameReader + Send + '_>) -> Vec<Outcome> {
    let mut game = GameRecord::default();
    let mut out: Vec<Outcome> = Vec::new();
    while let Some(result) = reader.read_game(&mut game) {
        let offset = reader.game_offset();
        if let Some((last, _)) = out.last() {
            assert!(offset > *last, "offsets grow: {offset} after {last}");
        }
        out.push((offset, result.map(|()| game.clone())));
    }
    out
}

/// The outcomes of the stream reader over `content` for the games that begin in `range`, reading
/// pieces of `piece` bytes (CSV: its own stream reader, which reads as it needs).
fn streamed_range(
    format: Format,
    content: &[u8],
    range: Range<usize>,
    piece: usize,
) -> Vec<Outcome> {
    let source = Box::new(std::io::Cursor::new(content.to_vec()));
    match format {
        Format::Csv => {
            outcomes(format.range_stream_reader(source, "t", range, &Default::default()))
        }
        _ => outcomes(Box::new(
            StreamReader::with_sizes(format, source, "t", piece, usize::MAX).in_range(range),
        )),
    }
}

/// Checks that the ranges cut at `cuts` (any offsets, sorted here) read what the whole read does,
/// over the content and (given a piece size) over a stream read in pieces of that many bytes.
fn check_cuts(
    format: Format,
    content: &[u8],
    cuts: &[usize],
    piece: Option<usize>,
) -> Result<(), TestCaseError> {
    let whole = outcomes(format.reader(content, "t"));
    let mut bounds: Vec<usize> = cuts.iter().map(|&c| c.min(content.len() + 3)).collect();
    bounds.sort_unstable();
    bounds.insert(0, 0);
    bounds.push(content.len() + 7);
    let mut pieces = Vec::new();
    for pair in bounds.windows(2) {
        let range = pair[0]..pair[1];
        let read = outcomes(format.range_reader(content, "t", range.clone()));
        for (offset, _) in &read {
            prop_assert!(range.contains(offset), "{offset} outside {range:?}");
        }
        if let Some(piece) = piece {
            let streamed = streamed_range(format, content, range.clone(), piece);
            prop_assert_eq!(
                &streamed,
                &read,
                "{} streamed in pieces of {}, {:?}",
                format,
                piece,
                range
            );
        }
        pieces.extend(read);
    }
    prop_assert_eq!(pieces.len(), whole.len(), "{} cut at {:?}", format, bounds);
    for (got, want) in pieces.iter().zip(&whole) {
        prop_assert_eq!(got, want, "{} cut at {:?}", format, bounds);
    }
    Ok(())
}

/// Lines and parts of lines of each format, valid and broken, to make adversarial inputs of.
fn pieces(format: Format) -> Vec<&'static str> {
    match format {
        Format::Ygn => vec![
            "[Game \"a\"]\n",
            "[Game \"b\"]\n",
            "[Rules \"yatzy\"]\n",
            "[Players \"a, b\"]\n",
            "[Site \"x\"]\n",
            "[Game\n",
            "1. a: 12345 C=15\n",
            "2. b: 12345 k12 21345 LS\n",
            "1. a: 1234 C\n",
            "% comment\n",
            "% \u{ff}\n",
            "\n",
            "\r\n",
            "  \n",
            "\u{feff}",
            "[",
            "1. a: ",
            "\u{e9}",
        ],
        Format::Jsonl => vec![
            "{\"event\":\"game\",\"game\":\"g\",\"rules\":\"yatzy\",\"players\":[\"a\"]}\n",
            "{\"event\":\"game\",\"game\":\"\",\"rules\":\"yatzy\",\"players\":[\"a\"]}\n",
            "{\"event\":\"roll\",\"game\":\"g\",\"seat\":0,\"player\":\"a\",\"round\":1,\"roll\":1,\"dice\":[1,2,3,4,5]}\n",
            "{\"event\":\"keep\",\"game\":\"g\",\"seat\":0,\"player\":\"a\",\"round\":1,\"roll\":1,\"dice\":[1]}\n",
            "{\"event\":\"score\",\"game\":\"g\",\"seat\":0,\"player\":\"a\",\"round\":1,\"box\":\"C\"}\n",
            "{\"event\":\"end\",\"game\":\"g\",\"termination\":\"normal\"}\n",
            "{\"event\":\"end\",\"game\":\"h\",\"termination\":\"draw\"}\n",
            "{\"event\":\"nope\"}\n",
            "{\"event\":",
            "not json\n",
            "\n",
            " \t\n",
            "\r\n",
            "\u{feff}",
        ],
        Format::Verhoeff => vec![
            " # Game State        Tot Roll       You  Expect SD\n",
            "-- ----------------- --- -------  -----  ------ --\n",
            " 1 123456TFHSLYC;63-   0 33355;2  H  25  257.20 56\n",
            " 1 123456TFHSLYC;63-   0 13456;2  3456_  254.80 59\n",
            "   123456TFHSLYC;63-   0 33456;1  S  30  253.90 59\n",
            "13 ____________C; 0+ 305 12456;2  C  21  327.40  5\n",
            "      123456TFHSLYC; 63 false    0  33355;2   sH  25\n",
            "      123456TFHSLYC; 63 false    0  13456;2   k3456_\n",
            "                   ;                33456;1   sS  30\n",
            "                   ;                33456;0   k3456_\n",
            "      ____________C;  0 false  300  11111;2   sC   5\n",
            "      ___________Y_;  0 false  290  66666;2   sY  50\n",
            "      123456TF_SLYC; 63 false   25  11111;2   sY  50\n",
            "      ____________C;  0 false  300  11111;2   k11___\n",
            "                   ;                11111;1   sC   5\n",
            "      ____________C;  0 false  300  11111;2   k11___\n                   ;                11112;1   k11___\n                   ;                11111;0   sC   5\n",
            "13 ____________C; 0+ 305 12456;2  456__  327.40  5\n   ____________C; 0+ 305 34456;1  C  21  326.00  0\n",
            "                          34456;0  C  21  326.00  0\n",
            "Score Card\n",
            " 1 Aces 0\n",
            "hello\n",
            "\n",
            "\r\n",
            "\u{feff}",
        ],
        Format::YatzySolver => vec![
            "{\"variant\":\"american\",\"seed\":1,\"game\":0,\"score\":15,\"decisions\":[{\"situation\":\"dice 1 2 3 4 5 | rolls 2 | upper 0 | filled -\",\"action\":\"score chance\",\"points\":15}]}\n",
            "{\"variant\":\"yatzy-scandinavian\",\"seed\":1,\"game\":1,\"score\":0,\"decisions\":[{\"situation\":\"dice 1 2 3 4 5 | rolls 2 | upper 0 | filled -\",\"action\":\"keep 1\",\"points\":null},{\"situation\":\"dice 1 1 3 4 5 | rolls 1 | upper 0 | filled -\",\"action\":\"score ones\",\"points\":2}]}\n",
            "{\"variant\":\"american\",\"seed\":2,\"game\":0,\"score\":0,\"decisions\":[{\"situation\":\"dice 1 2 3 4 7 | rolls 2 | upper 0 | filled -\",\"action\":\"keep -\",\"points\":null}]}\n",
            "{\"variant\":\"maxi\",\"seed\":3,\"game\":0,\"score\":0,\"decisions\":[]}\n",
            "{\"variant\":\"american\",\"seed\":",
            "not json\n",
            "\n",
            " \t\n",
            "\r\n",
            "\u{feff}",
        ],
        Format::Csv => vec![
            "game,rules,seat,player,round,roll1,keep1,roll2,keep2,roll3,box,points\n",
            "g,yatzy,0,a,1,12345,,,,,C,15\n",
            "g,yatzy,1,b,1,12345,12,21345,,,LS,\n",
            "g,yatzy,0,a,2,11111,1111,11112,,,Y,50\n",
            "h,yatzy,0,a,1,12345,,,,,C,15\n",
            "h,yahtzee,0,c,1,12345,,,,,C,15\n",
            "h,yatzy,0,a,1,12375,,,,,C,15\n",
            "i,yatzy,0,a,1,12345,,,,,XX,15\n",
            ",yatzy,0,a,1,12345,,,,,C,15\n",
            "i,yatzy,0,a,1\n",
            "\"i\",yatzy,0,\"a\nb\",3,12345,,,,,C,\n",
            "i,\"yatzy\n",
            "% x\n",
            "\n",
            "\r\n",
            "\u{feff}",
            "\u{e9}",
        ],
    }
}

/// Adversarial content: random pieces of `format`, then a few raw bytes.
pub fn content(format: Format) -> impl Strategy<Value = Vec<u8>> {
    (
        proptest::collection::vec(proptest::sample::select(pieces(format)), 0..40),
        proptest::collection::vec(any::<u8>(), 0..4),
    )
        .prop_map(|(pieces, raw)| {
            let mut bytes = pieces.concat().into_bytes();
            bytes.extend(raw);
            bytes
        })
}

/// Random cut points (2 to 6), anywhere in content of up to `len` bytes.
fn cuts() -> impl Strategy<Value = Vec<prop::sample::Index>> {
    proptest::collection::vec(any::<prop::sample::Index>(), 2..=6)
}

fn check(
    format: Format,
    content: &[u8],
    cuts: &[prop::sample::Index],
    piece: usize,
) -> Result<(), TestCaseError> {
    let cuts: Vec<usize> = cuts.iter().map(|i| i.index(content.len() + 2)).collect();
    check_cuts(format, content, &cuts, Some(piece))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn ygn_ranges_read_what_the_whole_read_does(content in content(Format::Ygn), cuts in cuts(), piece in 1usize..80) {
        check(Format::Ygn, &content, &cuts, piece)?;
    }

    #[test]
    fn jsonl_ranges_read_what_the_whole_read_does(content in content(Format::Jsonl), cuts in cuts(), piece in 1usize..80) {
        check(Format::Jsonl, &content, &cuts, piece)?;
    }

    #[test]
    fn yatzy_solver_ranges_read_what_the_whole_read_does(content in content(Format::YatzySolver), cuts in cuts(), piece in 1usize..80) {
        check(Format::YatzySolver, &content, &cuts, piece)?;
    }

    #[test]
    fn csv_ranges_read_what_the_whole_read_does(content in content(Format::Csv), cuts in cuts(), piece in 1usize..80) {
        check(Format::Csv, &content, &cuts, piece)?;
    }

    #[test]
    fn verhoeff_ranges_read_what_the_whole_read_does(content in content(Format::Verhoeff), cuts in cuts(), piece in 1usize..80) {
        check(Format::Verhoeff, &content, &cuts, piece)?;
    }
}

/// Every fixture, cut at every offset: one cut (two ranges) at each byte.
#[test]
fn fixtures_cut_anywhere_read_as_a_whole() {
    let fixtures: &[(&str, Format, &[&str])] = &[
        (
            "ygn",
            Format::Ygn,
            &[
                "valid.ygn",
                "bad_die.ygn",
                "bom_crlf.ygn",
                "truncated.ygn",
                "invalid_utf8.ygn",
                "unknown_player.ygn",
            ],
        ),
        (
            "jsonl",
            Format::Jsonl,
            &[
                "two_games.jsonl",
                "truncated_game.jsonl",
                "invalid_json.jsonl",
            ],
        ),
        (
            "yatzy-solver",
            Format::YatzySolver,
            &[
                "american.jsonl",
                "malformed_json.jsonl",
                "invalid_utf8.jsonl",
                "inconsistent_turns.jsonl",
            ],
        ),
        (
            "csv",
            Format::Csv,
            &[
                "shuffled.csv",
                "field_count.csv",
                "duplicate_rows.csv",
                "unknown_header.csv",
            ],
        ),
        (
            "verhoeff",
            Format::Verhoeff,
            &[
                "table_game.txt",
                "six_dice.txt",
                "die_seven.txt",
                "bad_mask.txt",
                "input_game.txt",
            ],
        ),
    ];
    for (folder, format, names) in fixtures {
        for name in *names {
            let (_, content) = fixture(folder, name);
            for cut in 0..=content.len() {
                // A few cuts streamed too, in pieces of 16 to 112 bytes (smaller pieces: the
                // random contents above).
                let piece = (cut % 61 == 0).then_some(16 + cut % 97);
                check_cuts(*format, &content, &[cut, cut], piece)
                    .unwrap_or_else(|e| panic!("{folder}/{name} cut at {cut}: {e}"));
            }
        }
    }
}

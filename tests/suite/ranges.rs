//! Reading a log by byte ranges, as the partitions of a Spark job (Hadoop input splits) do: for
//! random cut points anywhere (inside games, inside lines, on line ends, in runs of blank lines,
//! inside broken games), the ranges together give exactly the games and syntax errors of one
//! read of the whole file, each once, with the same records, lines, columns and game ids: YGN,
//! JSONL and Verhoeff, valid logs and logs with mutated bytes.

use crate::common::table;
use dicelens::rules::RuleSet;
use dicelens::simulate::{players, simulate_batch, Plan};
use dicelens_parsers::{Format, GameReader, GameRecord, ParseError};
use proptest::prelude::*;
use std::ops::Range;
use std::path::Path;
use std::sync::OnceLock;

/// One outcome of a read: where the game begins, and the game or the syntax error.
type Outcome = (usize, Result<GameRecord, ParseError>);

/// Every outcome of `reader`, in order.
fn outcomes(mut reader: Box<dyn GameReader + Send + '_>) -> Vec<Outcome> {
    let mut game = GameRecord::default();
    let mut out = Vec::new();
    while let Some(result) = reader.read_game(&mut game) {
        out.push((reader.game_offset(), result.map(|()| game.clone())));
        assert!(out.len() <= 1_000_000, "the reader makes progress");
    }
    out
}

/// A log of `format`: simulated games written in it, then fixtures of the format (broken games
/// included; Verhoeff's tables with their trailers).
fn log(format: Format) -> &'static [u8] {
    static LOGS: OnceLock<Vec<(Format, Vec<u8>)>> = OnceLock::new();
    let logs = LOGS.get_or_init(|| {
        let plans = [
            // (format, rules, seats, games, fixtures): a few kilobytes each.
            (
                Format::Ygn,
                RuleSet::YahtzeeKurnik,
                2,
                3,
                &["ygn/valid.ygn", "ygn/bad_die.ygn"][..],
            ),
            (
                Format::Jsonl,
                RuleSet::Yahtzee,
                1,
                2,
                &["jsonl/truncated_game.jsonl"][..],
            ),
            (
                Format::Verhoeff,
                RuleSet::YahtzeeFree,
                1,
                3,
                &["verhoeff/table_game.txt", "verhoeff/six_dice.txt"][..],
            ),
            (
                Format::Csv,
                RuleSet::Yatzy,
                2,
                3,
                // Its header line comes in the middle: a row that does not read.
                &["csv/bad_die.csv"][..],
            ),
            (
                // Read, not written: fixtures only.
                Format::YatzySolver,
                RuleSet::Yatzy,
                1,
                0,
                &[
                    "yatzy-solver/american.jsonl",
                    "yatzy-solver/malformed_json.jsonl",
                ][..],
            ),
        ];
        plans
            .iter()
            .map(|&(format, rules, seats, games, fixtures)| {
                let plan = Plan {
                    rules,
                    seats,
                    players: seats + 2,
                    games,
                    seed: 11,
                    ..Plan::default()
                };
                let mut bytes = Vec::new();
                format.write_start(&mut bytes).unwrap();
                let sims = simulate_batch(table(rules), &plan, &players(&plan), 0..plan.games);
                for (i, game) in sims.iter().enumerate() {
                    let mut text = Vec::new();
                    format.write_game(&game.record, &mut text).unwrap();
                    if format == Format::Verhoeff && i % 2 == 1 {
                        // As YahtzeeTrainer's logs often do, the game starts mid-sheet, right
                        // after the full sheet of the game before.
                        text = from_turn(&text, 6);
                    }
                    bytes.extend(text);
                }
                for fixture in fixtures {
                    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                        .join("fixtures")
                        .join(fixture);
                    bytes.extend(std::fs::read(path).unwrap());
                    bytes.extend(b"\n\n");
                }
                (format, bytes)
            })
            .collect()
    });
    logs.iter()
        .find(|(f, _)| *f == format)
        .map(|(_, bytes)| bytes.as_slice())
        .unwrap()
}

/// A Verhoeff input-form game from the first line of turn `turn` on (the lines of the turns
/// before it left out).
fn from_turn(text: &[u8], turn: usize) -> Vec<u8> {
    let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
    let first_lines = lines
        .iter()
        .enumerate()
        .filter(|(_, line)| !line.trim_ascii_start().starts_with(b";"));
    let start = first_lines.map(|(i, _)| i).nth(turn - 1).unwrap();
    lines[start..].concat()
}

/// Checks that the ranges between `cuts` read what one read of `content` does.
fn check_ranges(format: Format, content: &[u8], cuts: &[usize]) -> Result<(), TestCaseError> {
    let whole = outcomes(format.reader(content, "corpus.log"));
    for pair in whole.windows(2) {
        prop_assert!(pair[0].0 < pair[1].0, "offsets grow");
    }
    let mut bounds = vec![0];
    bounds.extend(cuts);
    bounds.push(content.len() + 10);
    bounds.sort_unstable();
    let mut read = Vec::new();
    for pair in bounds.windows(2) {
        let range: Range<usize> = pair[0]..pair[1];
        for outcome in outcomes(format.range_reader(content, "corpus.log", range.clone())) {
            prop_assert!(
                range.contains(&outcome.0),
                "{} outside {range:?}",
                outcome.0
            );
            read.push(outcome);
        }
    }
    prop_assert_eq!(read.len(), whole.len(), "{} cut at {:?}", format, bounds);
    for (got, want) in read.iter().zip(&whole) {
        prop_assert_eq!(got, want, "{} cut at {:?}", format, bounds);
    }
    Ok(())
}

/// Bytes a mutation writes: those that change how lines are read, and any byte.
fn mutation_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        proptest::sample::select(b"\n\r []{}%#;:_-\"0123456789kCY".to_vec()),
        any::<u8>(),
    ]
}

/// The strategy of one case: up to four mutations (position, byte) and two to six cut points.
#[allow(clippy::type_complexity)]
fn case() -> impl Strategy<Value = (Vec<(prop::sample::Index, u8)>, Vec<prop::sample::Index>)> {
    (
        proptest::collection::vec((any::<prop::sample::Index>(), mutation_byte()), 0..=4),
        proptest::collection::vec(any::<prop::sample::Index>(), 2..=6),
    )
}

/// Applies `mutations` to the log of `format` and checks the ranges between `cuts`.
fn check(
    format: Format,
    mutations: &[(prop::sample::Index, u8)],
    cuts: &[prop::sample::Index],
) -> Result<(), TestCaseError> {
    let mut content = log(format).to_vec();
    for (at, byte) in mutations {
        let at = at.index(content.len());
        content[at] = *byte;
    }
    let cuts: Vec<usize> = cuts.iter().map(|c| c.index(content.len() + 1)).collect();
    check_ranges(format, &content, &cuts)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn ygn_ranges_read_every_game_once_as_the_whole_file((mutations, cuts) in case()) {
        check(Format::Ygn, &mutations, &cuts)?;
    }

    #[test]
    fn jsonl_ranges_read_every_game_once_as_the_whole_file((mutations, cuts) in case()) {
        check(Format::Jsonl, &mutations, &cuts)?;
    }

    #[test]
    fn verhoeff_ranges_read_every_game_once_as_the_whole_file((mutations, cuts) in case()) {
        check(Format::Verhoeff, &mutations, &cuts)?;
    }
}

/// The logs are what the cases need: valid games and syntax errors in every format, the
/// errors not all at the end.
#[test]
fn the_logs_hold_games_and_errors() {
    for format in Format::ALL {
        let read = outcomes(format.reader(log(format), "corpus.log"));
        let games = read.iter().filter(|(_, r)| r.is_ok()).count();
        let errors = read.len() - games;
        assert!(
            games >= 3 && errors >= 1,
            "{format}: {games} games, {errors} errors"
        );
        assert!(
            log(format).len() < 20_000,
            "{format}: small enough to cut at every byte"
        );
    }
}

/// A cut at every byte of each log (two ranges), without mutations.
#[test]
fn a_cut_anywhere_reads_as_the_whole_file() {
    for format in Format::ALL {
        let content = log(format);
        for cut in 0..=content.len() {
            check_ranges(format, content, &[cut])
                .unwrap_or_else(|e| panic!("{format} cut at {cut}: {e}"));
        }
    }
}

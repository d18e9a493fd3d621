//! Fuzzes the CSV reader's resynchronisation after a stray quote (issue 30, item 8): a valid
//! table of 2 to 17 games (those of `fixtures/csv/valid.csv`, renamed; the first byte says how
//! many), with one stray `"` opening a field of one row (the next bytes say which row and
//! field) followed by bytes the rest of the input gives (no line end, quote or delimiter), reads
//! every game but the damaged row's exactly as the undamaged table does, and the damage is at
//! most one error: a stray quote costs no more than the game it is in. The count holds: every
//! outcome is a game or an error, and no game is given twice.
//! `cargo fuzz run csv_resync`

#![no_main]

use dicelens_parsers::{csv, GameRecord};
use libfuzzer_sys::fuzz_target;

#[path = "../../parsers/tests/parsers/common/records.rs"]
mod shared;

const VALID: &str = include_str!("../../fixtures/csv/valid.csv");

fuzz_target!(|data: &[u8]| {
    let [count, row, field, rest @ ..] = data else {
        return;
    };
    let games = usize::from(count % 16) + 2;
    let Some((header, rows)) = VALID.split_once('\n') else {
        return;
    };
    let mut lines = vec![header.to_string()];
    for n in 0..games {
        let source = format!("valid-{}", n % 3 + 1);
        for line in rows
            .lines()
            .filter(|line| line.starts_with(&format!("{source},")))
        {
            lines.push(line.replacen(&source, &format!("g{n}"), 1));
        }
    }
    let options = csv::CsvOptions::default();
    let read = |text: &str| {
        shared::read_all(&mut csv::Reader::with_range(
            text.as_bytes(),
            "fuzz.csv",
            0..usize::MAX,
            &options,
        ))
    };
    let clean = read(&(lines.join("\n") + "\n"));
    assert_eq!(clean.len(), games);
    // The damaged row (not the header) and the field its stray quote opens.
    let target = 1 + usize::from(*row) % (lines.len() - 1);
    let damaged_game = lines[target]
        .split(',')
        .next()
        .unwrap_or_default()
        .to_string();
    let mut fields: Vec<String> = lines[target].split(',').map(String::from).collect();
    let at = usize::from(*field) % fields.len();
    let junk: String = rest
        .iter()
        .filter(|&&b| b.is_ascii_graphic() && b != b'"' && b != b',')
        .map(|&b| char::from(b))
        .collect();
    fields[at] = format!("\"{junk}{}", fields[at]);
    lines[target] = fields.join(",");
    let outcomes = read(&(lines.join("\n") + "\n"));
    let errors = outcomes.iter().filter(|o| o.is_err()).count();
    assert!(
        errors <= 1,
        "one stray quote, {errors} errors: {outcomes:#?}"
    );
    let others = |outcomes: &[Result<GameRecord, _>]| -> Vec<GameRecord> {
        outcomes
            .iter()
            .filter_map(|o| o.as_ref().ok())
            .filter(|g| g.provenance.game_id != damaged_game)
            .cloned()
            .collect()
    };
    let (before, after) = (others(&clean), others(&outcomes));
    assert_eq!(
        after.len(),
        games - 1,
        "every other game is read: {outcomes:#?}"
    );
    assert_eq!(
        after, before,
        "every other game reads as in the undamaged table"
    );
    let mut ids: Vec<&str> = outcomes
        .iter()
        .filter_map(|o| o.as_ref().ok())
        .map(|g| g.provenance.game_id.as_str())
        .collect();
    ids.sort_unstable();
    let given = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), given, "no game given twice");
});

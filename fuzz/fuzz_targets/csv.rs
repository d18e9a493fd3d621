//! Fuzzes the CSV turn-table reader: on arbitrary bytes it reads to the end without panicking,
//! moving on at every read, also as a stream; every game it yields is written, read back as one
//! game, and equals the original but for provenance file and line and the turns' lines.

#![no_main]

use dicelens_parsers::{csv, GameRecord};
use libfuzzer_sys::fuzz_target;

#[path = "../../parsers/tests/parsers/common/records.rs"]
mod shared;

fuzz_target!(|data: &[u8]| {
    // A small window, so inputs of a few rows reach it.
    let options = csv::CsvOptions {
        window_rows: 4,
        ..csv::CsvOptions::default()
    };
    let mut reader = csv::Reader::with_range(data, "fuzz.csv", 0..usize::MAX, &options);
    shared::read_to_end_checking(&mut reader, data.len(), check_round_trip);
    let whole = shared::read_all(&mut csv::Reader::with_range(data, "fuzz.csv", 0..usize::MAX, &options));
    let streamed = shared::read_all(&mut csv::Reader::from_read(Box::new(data), "fuzz.csv", &options));
    assert_eq!(whole, streamed, "a stream reads as the content does");
});

fn check_round_trip(game: &GameRecord) {
    let mut text = Vec::new();
    let written = csv::write_header(&mut text).and_then(|()| csv::write_game(game, &mut text));
    if let Err(error) = written {
        panic!("a game the reader accepted cannot be written: {error}: {game:?}");
    }
    let options = csv::CsvOptions::default();
    let outcomes = shared::read_all(&mut csv::Reader::with_range(&text, "again.csv", 0..usize::MAX, &options));
    let [Ok(again)] = outcomes.as_slice() else {
        panic!(
            "the written game reads back as {outcomes:?}: {}",
            String::from_utf8_lossy(&text)
        )
    };
    assert_eq!(
        shared::csv_comparable(again),
        shared::csv_comparable(game)
    );
}

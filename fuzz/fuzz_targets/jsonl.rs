//! Fuzzes the JSONL reader: on arbitrary bytes it reads to the end without panicking, moving on
//! at every read; every game it yields is written, read back as one game, and equals the
//! original but for provenance file and line and the turns' lines.

#![no_main]

use dicelens_parsers::{jsonl, GameRecord};
use libfuzzer_sys::fuzz_target;

#[path = "../../parsers/tests/parsers/common/records.rs"]
mod shared;

fuzz_target!(|data: &[u8]| {
    let mut reader = jsonl::Reader::new(data, "fuzz.jsonl");
    shared::read_to_end_checking(&mut reader, data.len(), check_round_trip);
});

fn check_round_trip(game: &GameRecord) {
    let mut text = Vec::new();
    if let Err(error) = jsonl::write_game(game, &mut text) {
        panic!("a game the reader accepted cannot be written: {error}: {game:?}");
    }
    let outcomes = shared::read_all(&mut jsonl::Reader::new(&text, "again.jsonl"));
    let [Ok(again)] = outcomes.as_slice() else {
        panic!(
            "the written game reads back as {outcomes:?}: {}",
            String::from_utf8_lossy(&text)
        )
    };
    assert_eq!(
        shared::jsonl_comparable(again),
        shared::jsonl_comparable(game)
    );
}

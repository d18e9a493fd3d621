//! Fuzzes the Verhoeff reader: on arbitrary bytes it reads to the end without panicking, moving
//! on at every read; every game it yields that the input form can hold is written, read back as
//! one game, and equals the original but for provenance, line numbers, player name, game id and
//! the order of dice.

#![no_main]

use dicelens_parsers::{verhoeff, GameRecord};
use libfuzzer_sys::fuzz_target;
use std::io;

#[path = "../../parsers/tests/parsers/common/records.rs"]
mod shared;

fuzz_target!(|data: &[u8]| {
    let mut reader = verhoeff::Reader::new(data, "fuzz.txt");
    shared::read_to_end_checking(&mut reader, data.len(), check_round_trip);
});

fn check_round_trip(game: &GameRecord) {
    let mut text = Vec::new();
    if let Err(error) = verhoeff::write_game(game, &mut text) {
        // The reader accepts games the input form cannot hold: points left out, or a game that
        // starts on a sheet that is not empty.
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput, "{error}");
        let missing_points = game.turns.iter().any(|turn| turn.points.is_none());
        let starts_late = game.turns.first().is_some_and(|turn| turn.round != 1);
        assert!(missing_points || starts_late, "{error}: {game:?}");
        return;
    }
    let outcomes = shared::read_all(&mut verhoeff::Reader::new(&text, "again.txt"));
    let [Ok(again)] = outcomes.as_slice() else {
        panic!(
            "the written game reads back as {outcomes:?}: {}",
            String::from_utf8_lossy(&text)
        )
    };
    assert_eq!(
        shared::verhoeff_comparable(again),
        shared::verhoeff_comparable(game)
    );
}

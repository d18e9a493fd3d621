//! Fuzz target of the YGN reader and writer: reads arbitrary bytes to the end, and writes and
//! re-reads every game that parses.
//!
//! Checks: no panic; every call that returns something moves the reader on (so reading always
//! ends); every game read is accepted by `write_game` and reads back as one equal game (but for
//! where it was read, see `ygn::strip_location`), and writing that again gives the same bytes.
//!
//! From the repository root, seeded with the YGN fixtures and the format's tokens:
//! `cargo fuzz run ygn fuzz/corpus/ygn fixtures/ygn fuzz/seeds/ygn -- -dict=fuzz/ygn.dict -max_total_time=300`
//! (on a stable toolchain with `RUSTC_BOOTSTRAP=1` in front).

#![no_main]

use dicelens_parsers::{ygn, GameReader, GameRecord};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut reader = ygn::Reader::new(data, "fuzz.ygn");
    let mut game = GameRecord::default();
    let mut offset = reader.consumed();
    while let Some(outcome) = reader.read_game(&mut game) {
        assert!(
            reader.consumed() > offset,
            "read_game returned without moving on"
        );
        offset = reader.consumed();
        if outcome.is_ok() {
            round_trip(&game);
        }
    }
    assert_eq!(
        reader.consumed(),
        data.len(),
        "the reader stopped before the end"
    );
});

/// Writes `game`, reads it back and checks that it is the same game, written the same way.
fn round_trip(game: &GameRecord) {
    let mut written = Vec::new();
    if let Err(e) = ygn::write_game(game, &mut written) {
        panic!("a game that was read cannot be written: {e}\n{game:?}");
    }
    let mut reader = ygn::Reader::new(&written, "written.ygn");
    let mut again = GameRecord::default();
    match reader.read_game(&mut again) {
        Some(Ok(())) => {}
        other => panic!(
            "the written game does not read back: {other:?}\n{}",
            String::from_utf8_lossy(&written)
        ),
    }
    assert!(
        reader.read_game(&mut GameRecord::default()).is_none(),
        "one game written, one read"
    );
    let mut rewritten = Vec::new();
    if let Err(e) = ygn::write_game(&again, &mut rewritten) {
        panic!("the re-read game cannot be written: {e}");
    }
    assert_eq!(written, rewritten, "writing is not stable");
    let mut original = game.clone();
    ygn::strip_location(&mut original);
    ygn::strip_location(&mut again);
    assert_eq!(original, again, "the written game reads back different");
}

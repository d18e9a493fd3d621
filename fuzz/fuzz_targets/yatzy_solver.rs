//! Fuzzes the yatzy-solver reader: on arbitrary bytes it reads to the end without panicking,
//! moving on at every read; every game it yields is one player's, its turns numbered from 1 in
//! order, each of one to three rolls in seat 0 with a box and the points it earned. The format
//! is read, not written, so there is no round trip.

#![no_main]

use dicelens_parsers::{yatzy_solver, GameRecord};
use libfuzzer_sys::fuzz_target;

#[path = "../../parsers/tests/parsers/common/records.rs"]
mod shared;

fuzz_target!(|data: &[u8]| {
    let mut reader = yatzy_solver::Reader::new(data, "fuzz.jsonl");
    shared::read_to_end_checking(&mut reader, data.len(), check_invariants);
});

fn check_invariants(game: &GameRecord) {
    assert_eq!(game.players, ["fuzz"], "one player, named after the file");
    assert!(game.result.as_ref().is_some_and(|r| r.len() == 1));
    assert!(!game.rules.is_empty());
    for (index, turn) in game.turns.iter().enumerate() {
        assert_eq!(usize::from(turn.round), index + 1, "rounds count from 1");
        assert_eq!(turn.seat, 0);
        assert!((1..=3).contains(&turn.rolls().len()), "{turn:?}");
        assert!(turn.earned.is_some() && turn.points.is_none(), "{turn:?}");
        for roll in turn.rolls() {
            assert!(roll.faces().iter().all(|die| (1..=6).contains(die)), "{turn:?}");
        }
        assert!(!turn.category.as_str().is_empty());
    }
}

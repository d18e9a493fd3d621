//! Property tests of reading games: random legal games survive writing and re-reading in
//! every format, and random byte mutations of a valid log never panic and never change a game
//! they did not touch.

use crate::common::table;
use dicelens::replay::{replay, Decision, ReplayOptions, Replayed};
use dicelens::rules::RuleSet;
use dicelens::simulate::{players, simulate_batch, Plan, SimGame};
use dicelens_parsers::{Format, GameRecord};
use proptest::prelude::*;
use std::sync::OnceLock;

fn games(rules: RuleSet, seats: usize, count: usize, seed: u64) -> Vec<SimGame> {
    let plan = Plan {
        rules,
        seats,
        players: seats + 2,
        games: count,
        seed,
        ..Plan::default()
    };
    simulate_batch(table(rules), &plan, &players(&plan), 0..count)
}

/// Every game of `bytes` in `format`: records or errors, in order.
fn read(format: Format, bytes: &[u8]) -> Vec<Result<GameRecord, String>> {
    let mut reader = format.reader(bytes, "mem");
    let mut game = GameRecord::default();
    let mut out = Vec::new();
    while let Some(result) = reader.read_game(&mut game) {
        out.push(result.map(|()| game.clone()).map_err(|e| e.to_string()));
        assert!(out.len() <= bytes.len() + 1, "the reader makes progress");
    }
    out
}

fn decisions(game: &GameRecord) -> Result<Vec<Decision>, String> {
    let mut out = Replayed::default();
    replay(game, ReplayOptions::default(), &mut out)
        .map(|()| out.decisions)
        .map_err(|e| e.to_string())
}

/// A record without where it was read from, nor the running totals only Verhoeff's
/// format and the simulator carry.
fn bare(mut g: GameRecord) -> GameRecord {
    g.provenance.file.clear();
    g.provenance.line = 0;
    g.provenance.result_line = None;
    g.turns.iter_mut().for_each(|t| {
        t.line = 0;
        t.total_before = None;
    });
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random legal games written and re-read give the same records and decisions.
    #[test]
    fn random_legal_games_survive_every_format(seed in any::<u64>(), rules in 0usize..4, seats in 1usize..4) {
        let rules = RuleSet::MAIN[rules];
        for format in [Format::Ygn, Format::Jsonl] {
            let sims = games(rules, seats, 3, seed);
            let mut bytes = Vec::new();
            for g in &sims {
                format.write_game(&g.record, &mut bytes).unwrap();
            }
            let back = read(format, &bytes);
            prop_assert_eq!(back.len(), sims.len());
            for (sim, got) in sims.iter().zip(back) {
                let got = got.map_err(TestCaseError::fail)?;
                prop_assert!(bare(got.clone()) == bare(sim.record.clone()), "{} {format}: record differs", sim.record.provenance.game_id);
                prop_assert_eq!(decisions(&got).map_err(TestCaseError::fail)?, sim.decisions.clone());
            }
        }
    }
}

/// A log's bytes and each game's byte range with its record.
type Log = (Vec<u8>, Vec<(std::ops::Range<usize>, GameRecord)>);

/// A valid YGN log of four games and the byte range of each game.
fn valid_log() -> &'static Log {
    static LOG: OnceLock<Log> = OnceLock::new();
    LOG.get_or_init(|| {
        let mut bytes = Vec::new();
        let mut ranges = Vec::new();
        for g in games(RuleSet::YahtzeeKurnik, 2, 4, 99) {
            let start = bytes.len();
            Format::Ygn.write_game(&g.record, &mut bytes).unwrap();
            ranges.push((start..bytes.len(), g.record));
        }
        (bytes, ranges)
    })
}

/// Changes byte `at` of the valid log to `byte` and checks that no game away from the change
/// reads differently; a game next to it may fail or change, but never panics the reader.
fn check_mutation(at: usize, byte: u8) -> Result<(), TestCaseError> {
    let (original, ranges) = valid_log();
    let mut bytes = original.clone();
    bytes[at] = byte;
    // A changed byte keeps every offset, so a game read from line L began at the byte where
    // line L begins; that places it among the original games even when the change rewrote
    // its id.
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(
            bytes
                .iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| i + 1),
        )
        .collect();
    for result in read(Format::Ygn, &bytes).into_iter().flatten() {
        let line = result.provenance.line.checked_sub(1);
        let Some(&start) = line.and_then(|l| line_starts.get(l as usize)) else {
            continue;
        };
        let Some((range, before)) = ranges.iter().find(|(r, _)| r.contains(&start)) else {
            continue;
        };
        // Games next to the change may lose their boundary; games further away may not change.
        let near = at + 2 >= range.start && at <= range.end + 1;
        if near {
            continue;
        }
        prop_assert!(
            bare(result.clone()) == bare(before.clone()),
            "byte {at} changed game {}",
            before.provenance.game_id
        );
        prop_assert_eq!(decisions(&result), decisions(before));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// One byte changed anywhere: no panic, and every game the change did not touch is read
    /// exactly as before (the reader resynchronises).
    #[test]
    fn byte_mutations_never_panic_or_leak_into_other_games(position in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let at = position.index(valid_log().0.len());
        check_mutation(at, byte)?;
    }
}

/// The case CI once found: a change to the last game's id that makes it repeat the first
/// game's id is a change to the last game only.
#[test]
fn a_mutated_id_that_repeats_another_game_is_still_that_game() {
    let (bytes, ranges) = valid_log();
    let last = &ranges[ranges.len() - 1].1.provenance.game_id;
    let first = &ranges[0].1.provenance.game_id;
    let tag = format!("[Game \"{last}\"]");
    let at = bytes
        .windows(tag.len())
        .position(|w| w == tag.as_bytes())
        .expect("the last game's tag")
        + tag.len()
        - 3;
    assert_eq!(bytes[at] as char, last.chars().last().unwrap());
    check_mutation(at, first.bytes().last().unwrap()).unwrap();
}

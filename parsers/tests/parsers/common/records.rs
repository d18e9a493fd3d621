//! Helpers shared by the tests and the fuzz targets (`fuzz/fuzz_targets/*.rs` include this file
//! by its path, so it uses nothing but `dicelens_parsers`): reading every outcome of an input,
//! and comparing records across a write and a re-read, leaving out what a format does not carry
//! back.

#![allow(dead_code)]

use dicelens_parsers::{GameReader, GameRecord, Keep, ParseError, Roll, TurnRecord};

/// Every outcome of a reader, in order: a game or an error.
pub fn read_all(reader: &mut dyn GameReader) -> Vec<Result<GameRecord, ParseError>> {
    let mut outcomes = Vec::new();
    let mut game = GameRecord::default();
    while let Some(result) = reader.read_game(&mut game) {
        outcomes.push(result.map(|()| game.clone()));
    }
    outcomes
}

/// Reads to the end as a fuzz target does: calls `check` on every game, and panics if the reader
/// takes more reads than an input of `input_len` bytes has lines (it must move on every time).
pub fn read_to_end_checking(
    reader: &mut dyn GameReader,
    input_len: usize,
    mut check: impl FnMut(&GameRecord),
) {
    let mut game = GameRecord::default();
    let mut reads = 0usize;
    while let Some(result) = reader.read_game(&mut game) {
        reads += 1;
        assert!(reads <= input_len + 1, "the reader does not move on");
        if result.is_ok() {
            check(&game);
        }
    }
}

/// `game` as JSONL carries it back: provenance file and line and the turns' lines cleared
/// (a re-read names the JSONL file and its lines).
pub fn jsonl_comparable(game: &GameRecord) -> GameRecord {
    let mut comparable = game.clone();
    comparable.provenance.file.clear();
    comparable.provenance.line = 0;
    comparable.provenance.result_line = None;
    for turn in &mut comparable.turns {
        turn.line = 0;
    }
    comparable
}

/// `game` as Verhoeff's input form carries it back: no player name, game id or provenance
/// (a re-read takes them from the file), turn lines cleared, dice sorted, and the values of the
/// tags that hold the game id and the player left out.
pub fn verhoeff_comparable(game: &GameRecord) -> GameRecord {
    let mut comparable = jsonl_comparable(game);
    comparable.provenance.game_id.clear();
    comparable.players.iter_mut().for_each(String::clear);
    for (name, value) in &mut comparable.tags {
        if name == "Game" || name == "Players" {
            value.clear();
        }
    }
    for turn in &mut comparable.turns {
        for roll in turn.rolls_mut() {
            let mut faces = roll.faces().to_vec();
            faces.sort_unstable();
            *roll = Roll::new(&faces).unwrap_or_default();
        }
        for keep in turn.keeps_mut() {
            let mut faces = keep.faces().to_vec();
            faces.sort_unstable();
            *keep = Keep::new(&faces).unwrap_or_default();
        }
    }
    comparable
}

/// `turn` with its first `roll_count` rolls taken from `rolls` and the keeps between them from
/// `keeps` (one to six faces a roll, at most six a keep).
pub fn with_dice(
    mut turn: TurnRecord,
    roll_count: usize,
    rolls: &[Vec<u8>],
    keeps: &[Vec<u8>],
) -> TurnRecord {
    let rolls: Vec<Roll> = (rolls.iter().take(roll_count))
        .map(|roll| Roll::new(roll).unwrap_or_default())
        .collect();
    let keeps: Vec<Keep> = (keeps.iter().take(roll_count.saturating_sub(1)))
        .map(|kept| Keep::new(kept).unwrap_or_default())
        .collect();
    turn.set_rolls(&rolls, &keeps)
        .unwrap_or_else(|e| panic!("{e}"));
    turn
}

/// `game` as a CSV table carries it back: file, lines, `total_before`, result and tags left
/// out, and the turns in the table's order (by round, then seat).
pub fn csv_comparable(game: &GameRecord) -> GameRecord {
    let mut comparable = jsonl_comparable(game);
    comparable.result = None;
    comparable.tags.clear();
    for turn in &mut comparable.turns {
        turn.total_before = None;
    }
    comparable.turns.sort_by_key(|turn| (turn.round, turn.seat));
    comparable
}

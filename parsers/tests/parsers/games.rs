//! The iterator over games ([`dicelens_parsers::Games`]): it yields exactly what `read_game`
//! returns, for every fixture of every format, whole and over byte ranges, and `read_games`
//! recognises the format on its own.

use crate::common::{all_fixtures, fixture, read_all};
use dicelens_parsers::{read_games, Format, GameReader, GameRecord, ParseError};

/// Every outcome of `games` with the offset its reader gives for it.
fn with_offsets<R: GameReader>(
    mut games: dicelens_parsers::Games<R>,
) -> Vec<(usize, Result<GameRecord, ParseError>)> {
    let mut outcomes = Vec::new();
    while let Some(outcome) = games.next() {
        outcomes.push((games.reader().game_offset(), outcome));
    }
    outcomes
}

/// Every outcome of `reader` with its offset, through `read_game`.
fn read_with_offsets(mut reader: impl GameReader) -> Vec<(usize, Result<GameRecord, ParseError>)> {
    let mut outcomes = Vec::new();
    let mut game = GameRecord::default();
    while let Some(outcome) = reader.read_game(&mut game) {
        outcomes.push((reader.game_offset(), outcome.map(|()| game.clone())));
    }
    outcomes
}

#[test]
fn games_are_the_outcomes_of_read_game_for_every_fixture() {
    for (format, name, content) in all_fixtures() {
        let want = read_with_offsets(format.reader(&content, &name));
        assert_eq!(with_offsets(format.games(&content, &name)), want, "{name}");
        let half = content.len() / 2;
        let pieces = [0..half, half..content.len()]
            .map(|range| with_offsets(format.range_reader(&content, &name, range).games()));
        assert_eq!(pieces.concat(), want, "{name} in two ranges");
    }
}

#[test]
fn read_games_recognises_the_format() {
    for (format, name, content) in all_fixtures() {
        let Some(games) = read_games(&content, &name) else {
            assert_eq!(Format::detect(&content), None, "{name}");
            continue;
        };
        assert_eq!(Format::detect(&content), Some(format), "{name}");
        let mut reader = format.reader(&content, &name);
        assert_eq!(games.collect::<Vec<_>>(), read_all(&mut reader), "{name}");
    }
    assert!(read_games(b"", "empty.ygn").is_none());
    assert!(read_games(b"% only a comment\n", "c.ygn").is_none());
}

#[test]
fn the_reader_goes_on_after_the_iterator() {
    let (_, content) = fixture("ygn", "bad_die.ygn");
    let mut games = Format::Ygn.games(&content, "bad_die.ygn");
    let first = games
        .next()
        .and_then(Result::ok)
        .map(|game| game.provenance.game_id);
    assert_eq!(first.as_deref(), Some("bad_die-1"));
    let mut reader = games.into_reader();
    let mut game = GameRecord::default();
    let error = reader.read_game(&mut game).and_then(Result::err);
    assert_eq!(error.map(|e| (e.line, e.column)), Some((30, 11)));
    let rest: Vec<_> = reader.games().collect();
    assert!(matches!(rest.as_slice(), [Ok(game)] if game.provenance.game_id == "bad_die-3"));
    assert_eq!(rest.len(), 1);
}

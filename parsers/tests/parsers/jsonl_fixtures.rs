//! The JSONL fixtures (`fixtures/jsonl/`) beyond what `EXPECTED.csv` lists: every field of the
//! two complete games, the trainer game equal to its Verhoeff source, and detection.

use crate::common::{fixture, read_fixture, totals_before};
use dicelens_parsers::{Format, Termination};

#[test]
fn two_games_are_read_with_every_field() {
    let outcomes = read_fixture("jsonl", "two_games.jsonl");
    let [Ok(kurnik), Ok(trainer)] = outcomes.as_slice() else {
        panic!("{outcomes:#?}")
    };

    assert_eq!(kurnik.provenance.game_id, "r3-187");
    assert_eq!(kurnik.rules, "yahtzee-kurnik");
    assert_eq!(kurnik.players, ["simson11", "kasia_k"]);
    assert_eq!(kurnik.provenance.date.as_deref(), Some("2007.03.14"));
    assert_eq!(kurnik.provenance.time.as_deref(), Some("21:04:55"));
    assert_eq!(kurnik.tags.len(), 7);
    assert_eq!(kurnik.tag("Site"), Some("example.org"));
    assert_eq!(kurnik.termination, Termination::Abandoned);
    assert_eq!(kurnik.result, None);
    let seats: Vec<(u16, u8)> = kurnik.turns.iter().map(|t| (t.round, t.seat)).collect();
    assert_eq!(seats, [(1, 0), (1, 1), (2, 0), (2, 1)]);
    // Dice keep the order the log gives.
    let second = &kurnik.turns[1];
    assert_eq!(
        second.rolls(),
        [[5, 2, 2, 1, 6], [2, 2, 2, 3, 4], [2, 6, 2, 2, 2]]
    );
    assert_eq!(second.keeps()[0].faces(), [2, 2]);
    assert_eq!(second.keeps()[1].faces(), [2, 2, 2]);
    assert_eq!((second.category.as_str(), second.points), ("3K", Some(14)));
    assert_eq!((second.total_before, second.line), (None, 6));
    assert_eq!(kurnik.turns[3].rolls().len(), 1);

    assert_eq!(trainer.provenance.line, 21);
    assert_eq!(
        (trainer.rules.as_str(), trainer.players.as_slice()),
        ("yahtzee-free", &["tomv".to_string()][..])
    );
    assert_eq!(trainer.termination, Termination::Normal);
    assert_eq!(trainer.result, Some(vec![255]));
    assert_eq!(
        totals_before(trainer),
        [0, 30, 48, 54, 56, 77, 102, 118, 138, 182, 222, 247, 255]
    );
}

#[test]
fn the_trainer_game_equals_its_verhoeff_source() {
    let outcomes = read_fixture("jsonl", "two_games.jsonl");
    let Some(Ok(trainer)) = outcomes.get(1) else {
        panic!("{outcomes:#?}")
    };
    let verhoeff = read_fixture("verhoeff", "input_game.txt");
    let Some(Ok(source)) = verhoeff.first() else {
        panic!("{verhoeff:#?}")
    };
    for (jsonl_turn, verhoeff_turn) in trainer.turns.iter().zip(&source.turns) {
        let mut verhoeff_turn = verhoeff_turn.clone();
        verhoeff_turn.line = jsonl_turn.line;
        assert_eq!(*jsonl_turn, verhoeff_turn);
    }
    assert_eq!(trainer.turns.len(), source.turns.len());
}

#[test]
fn the_fixture_is_detected_as_jsonl() {
    let (_, content) = fixture("jsonl", "two_games.jsonl");
    assert_eq!(Format::detect(&content), Some(Format::Jsonl));
}

//! The YGN fixtures (`fixtures/ygn/`) beyond what `EXPECTED.csv` lists: their good games hold
//! what their lines say, a byte-order mark and CRLF change nothing, and the good games are sound
//! and write back equal.

use crate::common::{fixture, fixture_files, read_all, read_fixture};
use dicelens_parsers::{ygn, GameRecord, ParseError, TurnRecord};
use std::collections::{BTreeMap, BTreeSet};

/// Every outcome of reading `content` as YGN, as the file `file`.
fn read(content: &[u8], file: &str) -> Vec<Result<GameRecord, ParseError>> {
    read_all(&mut ygn::Reader::new(content, file))
}

/// The games of a fixture that must parse whole.
fn games(file: &str) -> Vec<GameRecord> {
    read_fixture("ygn", file)
        .into_iter()
        .map(|outcome| outcome.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

#[test]
fn valid_games_hold_what_their_lines_say() {
    let games = games("valid.ygn");
    let kurnik = &games[0];
    assert_eq!(kurnik.provenance.date.as_deref(), Some("2007.03.14"));
    assert_eq!(kurnik.provenance.time.as_deref(), Some("21:04:55"));
    assert_eq!(kurnik.tag("Site"), Some("example.org"));
    assert_eq!(kurnik.result, Some(vec![116, 141]));
    let first = &kurnik.turns[0];
    assert_eq!(
        (first.line, first.round, first.seat, first.rolls().len()),
        (11, 1, 0, 3)
    );
    assert_eq!(
        first.rolls(),
        [[4, 5, 4, 4, 5], [1, 4, 4, 4, 4], [4, 4, 4, 5, 4]]
    );
    assert_eq!(first.keeps()[1].faces(), [4, 4, 4, 4]);
    assert_eq!((first.category.as_str(), first.points), ("3K", Some(21)));
    assert_eq!(
        (kurnik.turns[1].category.as_str(), kurnik.turns[1].points),
        ("C", Some(17))
    );
    assert_eq!(
        kurnik.turns[3].rolls()[0],
        [1, 1, 6, 1, 2],
        "a tab separates tokens"
    );
    assert_eq!(
        (kurnik.turns[7].category.as_str(), kurnik.turns[7].points),
        ("5", None)
    );
    assert_eq!(
        kurnik.turns[12].line, 24,
        "a comment line takes a line number"
    );
    let yatzy = &games[1];
    assert_eq!(yatzy.termination, dicelens_parsers::Termination::Normal);
    assert_eq!(yatzy.tag("Termination"), Some("normal"));
    assert_eq!(yatzy.turns[3].category.as_str(), "2P");
    let untagged = &games[2];
    assert_eq!(untagged.tag("Game"), None);
    assert_eq!(untagged.result, None);
}

#[test]
fn bom_and_crlf_read_like_a_plain_copy() {
    let (_, with) = fixture("ygn", "bom_crlf.ygn");
    assert!(with.starts_with(b"\xef\xbb\xbf") && with.windows(2).any(|w| w == b"\r\n"));
    let plain = String::from_utf8_lossy(&with[3..]).replace("\r\n", "\n");
    let as_plain = |outcomes: Vec<Result<GameRecord, ParseError>>| -> Vec<GameRecord> {
        outcomes
            .into_iter()
            .map(|o| o.unwrap_or_else(|e| panic!("{e}")))
            .collect()
    };
    let crlf = as_plain(read(&with, "f.ygn"));
    assert_eq!(crlf, as_plain(read(plain.as_bytes(), "f.ygn")));
    assert_eq!(crlf.len(), 2);
}

/// Checks what the replay will: one turn per seat per round in order, every box (Jamb: every
/// cell) once per player, keeps contained in the rolls around them.
fn assert_sound(game: &GameRecord) {
    let seats = game.players.len();
    let boxes = match game.rules.as_str() {
        "yatzy" => 15,
        "maxi-yatzy" => 20,
        "jamb-6a" | "yamb-hr" => 52,
        _ => 13,
    };
    assert_eq!(
        game.turns.len(),
        seats * boxes,
        "{}",
        game.provenance.game_id
    );
    let mut used: BTreeMap<u8, BTreeSet<&str>> = BTreeMap::new();
    for (n, turn) in game.turns.iter().enumerate() {
        assert_eq!(
            usize::from(turn.round),
            n / seats + 1,
            "round order at line {}",
            turn.line
        );
        assert_eq!(
            usize::from(turn.seat),
            n % seats,
            "seat order at line {}",
            turn.line
        );
        assert!(
            used.entry(turn.seat)
                .or_default()
                .insert(turn.category.as_str()),
            "box reused"
        );
        assert_keeps_contained(turn);
    }
}

fn assert_keeps_contained(turn: &TurnRecord) {
    let counts = |faces: &[u8]| {
        let mut counts = [0u8; 7];
        for &face in faces {
            counts[usize::from(face)] += 1;
        }
        counts
    };
    for (n, keep) in turn.keeps().iter().enumerate() {
        let kept = counts(keep.faces());
        for roll in [&turn.rolls()[n], &turn.rolls()[n + 1]] {
            let rolled = counts(roll.faces());
            assert!(
                kept.iter().zip(rolled).all(|(k, r)| *k <= r),
                "keep at line {}",
                turn.line
            );
        }
    }
}

/// Every game of every fixture that parses.
fn all_fixture_games() -> Vec<GameRecord> {
    let files = fixture_files("ygn");
    assert_eq!(files.len(), 15);
    files
        .iter()
        .flat_map(|file| read_fixture("ygn", file))
        .filter_map(Result::ok)
        .collect()
}

#[test]
fn good_fixture_games_are_sound_and_write_back_equal() {
    let games = all_fixture_games();
    assert_eq!(games.len(), 28);
    for game in &games {
        assert_sound(game);
        let mut written = Vec::new();
        ygn::write_game(game, &mut written).unwrap_or_else(|e| panic!("{e}"));
        let mut again = read(&written, "written.ygn");
        assert_eq!(again.len(), 1);
        let mut again = again.remove(0).unwrap_or_else(|e| panic!("{e}"));
        let mut original = game.clone();
        ygn::strip_location(&mut again);
        ygn::strip_location(&mut original);
        assert_eq!(again, original);
    }
}

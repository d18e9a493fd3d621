//! The YGN fixtures (`fixtures/ygn/`) give exactly the games and errors that
//! `fixtures/ygn/EXPECTED.md` lists, and their good games are sound and write back equal.

use dicelens_parsers::{ygn, GameReader, GameRecord, ParseError, TurnRecord};
use std::collections::{BTreeMap, BTreeSet};

/// The content of a fixture.
fn content(file: &str) -> Vec<u8> {
    let path = format!("{}/../fixtures/ygn/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every outcome of reading `content` as the file `file`.
fn read(content: &[u8], file: &str) -> Vec<Result<GameRecord, ParseError>> {
    let mut reader = ygn::Reader::new(content, file);
    let mut game = GameRecord::default();
    let mut outcomes = Vec::new();
    while let Some(outcome) = reader.read_game(&mut game) {
        outcomes.push(outcome.map(|()| game.clone()));
    }
    outcomes
}

/// One line per outcome, in the words of EXPECTED.md.
fn summary(file: &str) -> Vec<String> {
    read(&content(file), file)
        .into_iter()
        .map(|outcome| match outcome {
            Ok(game) => format!(
                "game {} at line {}: {}, players {}, {} turns",
                game.provenance.game_id,
                game.provenance.line,
                game.rules,
                game.players.join(" "),
                game.turns.len()
            ),
            Err(e) => format!(
                "error at {}:{} in game {} (line {}): expected {}, found {}",
                e.line,
                e.column,
                e.game_id.as_deref().unwrap_or("-"),
                e.game_line,
                e.expected,
                e.found
            ),
        })
        .collect()
}

/// The games of a fixture that must parse whole.
fn games(file: &str) -> Vec<GameRecord> {
    read(&content(file), file)
        .into_iter()
        .map(|outcome| outcome.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// The three outcomes of a malformed fixture: its games 1 and 3, and the error in game 2.
fn sandwich(name: &str, error: &str) -> Vec<String> {
    let game = |n: u32, player: &str| {
        let line = [2, 0, 40][n as usize - 1];
        format!("game {name}-{n} at line {line}: yahtzee, players {player}, 13 turns")
    };
    vec![game(1, "alice"), error.to_string(), game(3, "carol")]
}

const CATEGORIES: &str = "a category code (1-6, 3K, 4K, FH, SS, LS, Y, C, 1P, 2P)";

#[test]
fn each_fixture_gives_the_games_and_errors_of_expected_md() {
    let cases: Vec<(&str, Vec<String>)> = vec![
        (
            "valid.ygn",
            vec![
                "game valid-1 at line 3: yahtzee-kurnik, players simson11 kasia_k, 26 turns".into(),
                "game valid-2 at line 40: yatzy, players solo, 15 turns".into(),
                "game valid.ygn:63 at line 63: yahtzee, players anna, 13 turns".into(),
            ],
        ),
        (
            "bom_crlf.ygn",
            vec![
                "game crlf-1 at line 2: yahtzee-free, players joe, 13 turns".into(),
                "game crlf-2 at line 21: yahtzee-free, players max, 13 turns".into(),
            ],
        ),
        ("empty.ygn", vec![]),
        (
            "bad_die.ygn",
            sandwich(
                "bad_die",
                "error at 30:11 in game bad_die-2 (line 21): expected a die 1-6, \
                 found 745 k4626 66214 k66 66166 3K=25",
            ),
        ),
        (
            "six_dice.ygn",
            sandwich(
                "six_dice",
                "error at 30:14 in game six_dice-2 (line 21): expected five dice, then a space, \
                 found 6 k- 24645 k4642 41264 4=8",
            ),
        ),
        (
            "four_rolls.ygn",
            sandwich(
                "four_rolls",
                &format!(
                    "error at 30:35 in game four_rolls-2 (line 21): expected {CATEGORIES}: a turn \
                     has at most three rolls, found k111 11145 3K=13"
                ),
            ),
        ),
        (
            "bare_keep.ygn",
            sandwich(
                "bare_keep",
                "error at 30:16 in game bare_keep-2 (line 21): expected the kept dice 1-6 after \
                 `k`, or `k-` to keep none, found  23456 LS=40",
            ),
        ),
        (
            "unknown_player.ygn",
            sandwich(
                "unknown_player",
                "error at 30:4 in game unknown_player-2 (line 21): expected a player in Players \
                 (bob), found bobby: 13441 k11 11312 3K=8",
            ),
        ),
        (
            "unknown_category.ygn",
            sandwich(
                "unknown_category",
                &format!(
                    "error at 30:25 in game unknown_category-2 (line 21): expected a keep (`k` and \
                     the dice kept, or `k-`) or {CATEGORIES}, found 5K"
                ),
            ),
        ),
        (
            "invalid_utf8.ygn",
            sandwich(
                "invalid_utf8",
                "error at 23:13 in game invalid_utf8-2 (line 21): expected valid UTF-8, \
                 found \u{fffd}b\\\"]",
            ),
        ),
        (
            "truncated.ygn",
            sandwich(
                "truncated",
                "error at 30:12 in game truncated-2 (line 21): expected a die 1-6, found end of line",
            )
            .into_iter()
            .take(2)
            .collect(),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file), want, "{file}");
    }
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
        (first.line, first.round, first.seat, first.roll_count),
        (11, 1, 0, 3)
    );
    assert_eq!(
        first.rolls,
        [[4, 5, 4, 4, 5], [1, 4, 4, 4, 4], [4, 4, 4, 5, 4]]
    );
    assert_eq!(first.keeps[1].faces(), [4, 4, 4, 4]);
    assert_eq!((first.category.as_str(), first.points), ("3K", Some(21)));
    assert_eq!(
        (kurnik.turns[1].category.as_str(), kurnik.turns[1].points),
        ("C", Some(17))
    );
    assert_eq!(
        kurnik.turns[3].rolls[0],
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
    let with = content("bom_crlf.ygn");
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

/// Checks what the replay will: one turn per seat per round in order, every box once per
/// player, one to three rolls, keeps contained in the rolls around them.
fn assert_sound(game: &GameRecord) {
    let seats = game.players.len();
    let boxes = if game.rules == "yatzy" { 15 } else { 13 };
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
        for roll in [&turn.rolls[n], &turn.rolls[n + 1]] {
            let rolled = counts(roll);
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
    let dir = format!("{}/../fixtures/ygn", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".ygn"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 11);
    files
        .iter()
        .flat_map(|file| read(&content(file), file))
        .filter_map(Result::ok)
        .collect()
}

#[test]
fn good_fixture_games_are_sound_and_write_back_equal() {
    let games = all_fixture_games();
    assert_eq!(games.len(), 20);
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

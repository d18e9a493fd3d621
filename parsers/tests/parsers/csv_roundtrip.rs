//! The CSV writer: every game of the YGN fixtures the table can hold reads back equal (but for
//! what [`csv_comparable`] leaves out), also with its rows shuffled, and records a table
//! cannot hold are refused.

use crate::common::{csv_comparable, fixture, fixture_files, read_all, with_dice};
use dicelens_parsers::{csv, BoxCode, Format, GameRecord, Termination, TurnRecord};
use proptest::prelude::*;
use std::io;

/// The table of `games`: header, then each game's rows.
fn table(games: &[GameRecord]) -> io::Result<Vec<u8>> {
    let mut text = Vec::new();
    csv::write_header(&mut text)?;
    for game in games {
        csv::write_game(game, &mut text)?;
    }
    Ok(text)
}

/// Every game of a table, which must hold no error.
fn read_table(text: &[u8]) -> Vec<GameRecord> {
    read_all(&mut Format::Csv.reader(text, "again.csv"))
        .into_iter()
        .map(|outcome| outcome.unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(text))))
        .collect()
}

#[test]
fn the_ygn_fixture_games_read_back_equal_after_writing() {
    let mut sources: Vec<(String, Vec<u8>)> = vec![fixture("ygn", "valid.ygn")];
    for name in fixture_files("replay") {
        sources.push(fixture("replay", &name));
    }
    let mut written = 0;
    for (path, content) in sources {
        for game in Format::Ygn.games(&content, &path).flatten() {
            let text = match table(std::slice::from_ref(&game)) {
                Ok(text) => text,
                Err(error) => {
                    eprintln!("{path}: not written: {error}");
                    continue;
                }
            };
            let again = read_table(&text);
            assert_eq!(again.len(), 1, "{path}");
            assert_eq!(csv_comparable(&again[0]), csv_comparable(&game), "{path}");
            written += 1;
        }
    }
    assert!(written >= 30, "{written} games written");
}

#[test]
fn records_a_table_cannot_hold_are_refused() {
    type Change = fn(&mut GameRecord);
    let cases: [(Change, &str); 7] = [
        (|g| g.players.clear(), "players"),
        (|g| g.rules = " yatzy".into(), "rules"),
        (|g| g.turns.clear(), "without turns"),
        (|g| g.turns[0].seat = 2, "seat has no player"),
        (|g| g.turns[1].seat = 0, "seat 1 has no turn"),
        (|g| g.turns.push(g.turns[0].clone()), "given twice"),
        (
            |g| g.provenance.date = Some("2007-03-14".into()),
            "YYYY.MM.DD",
        ),
    ];
    for (change, words) in cases {
        let mut game = GameRecord {
            players: vec!["ann".into(), "bob".into()],
            rules: "yatzy".into(),
            turns: vec![one_roll_turn(1, 0), one_roll_turn(2, 1)],
            ..GameRecord::default()
        };
        game.provenance.game_id = "g".into();
        let mut out = Vec::new();
        csv::write_game(&game, &mut out).expect("the unchanged game is written");
        change(&mut game);
        crate::common::assert_refused(Format::Csv, &game, words);
    }
}

/// A turn of one roll of five ones, scored in the default box.
fn one_roll_turn(round: u16, seat: u8) -> TurnRecord {
    let mut turn = TurnRecord::new(round, seat, Default::default());
    turn.set_first_roll([1; 5].into());
    turn
}

/// Names and ids with the characters a table must quote.
fn name() -> impl Strategy<Value = String> {
    "[a-z][a-z,;\"|\t\né]{0,3}[a-z]"
}

/// A random game a table can hold: 1 to 3 players, each with a turn in rounds 1 to `rounds`.
fn game_strategy() -> impl Strategy<Value = GameRecord> {
    (
        name(),
        prop::collection::vec(name(), 1..=3),
        1u16..=4,
        prop::option::of(Just("2024.01.31".to_string())),
        prop::sample::select(vec![Termination::Normal, Termination::Abandoned]),
        prop::collection::vec(
            (
                crate::common::long_roll_count(),
                crate::common::turn_dice(),
                prop::sample::select(BoxCode::ALL.to_vec()),
                prop::option::of(0u16..=50),
                crate::common::announced(),
            ),
            12,
        ),
    )
        .prop_map(|(id, players, rounds, date, termination, turns)| {
            let mut game = GameRecord {
                rules: "yatzy".into(),
                termination,
                ..GameRecord::default()
            };
            game.provenance.game_id = format!("{id}-g");
            game.provenance.date = date;
            let mut seen = std::collections::HashSet::new();
            game.players = players
                .into_iter()
                .filter(|p| seen.insert(p.clone()))
                .collect();
            let mut random = turns.into_iter().cycle();
            for round in 1..=rounds {
                for seat in 0..game.players.len() as u8 {
                    let (roll_count, (rolls, keeps), code, points, announced) =
                        random.next().unwrap();
                    let mut turn = TurnRecord::new(round, seat, BoxCode::parse(code).unwrap());
                    turn.points = points;
                    turn.announced = announced;
                    let roll_count = usize::from(roll_count);
                    game.turns.push(with_dice(turn, roll_count, &rolls, &keeps));
                }
            }
            game
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_games_read_back_equal_whatever_the_row_order(
        games in prop::collection::vec(game_strategy(), 1..4),
        order in any::<prop::sample::Index>(),
    ) {
        // Distinct ids: a table groups rows by id.
        let games: Vec<GameRecord> = games
            .into_iter()
            .enumerate()
            .map(|(n, mut game)| {
                game.provenance.game_id = format!("{}{n}", game.provenance.game_id);
                game
            })
            .collect();
        let text = table(&games).unwrap();
        let mut reader = ::csv::ReaderBuilder::new().has_headers(true).from_reader(&text[..]);
        let header = reader.byte_headers().unwrap().clone();
        let mut rows: Vec<::csv::ByteRecord> = reader.byte_records().map(Result::unwrap).collect();
        // Shuffle the rows with a generator seeded by `order`.
        let mut seed = order.index(usize::MAX) as u64 | 1;
        for i in (1..rows.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            rows.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        let mut writer = ::csv::Writer::from_writer(Vec::new());
        writer.write_byte_record(&header).unwrap();
        for row in &rows {
            writer.write_byte_record(row).unwrap();
        }
        let shuffled = writer.into_inner().unwrap();
        let mut again = read_table(&shuffled);
        again.sort_by(|a, b| a.provenance.game_id.cmp(&b.provenance.game_id));
        let mut want: Vec<GameRecord> = games.iter().map(csv_comparable).collect();
        want.sort_by(|a, b| a.provenance.game_id.cmp(&b.provenance.game_id));
        prop_assert_eq!(again.iter().map(csv_comparable).collect::<Vec<_>>(), want);
    }
}

/// Found by the fuzzer: the reader trims ASCII white space only, so an id ending in a vertical
/// tab (which `str::trim` would remove) is kept, written and read back as it is.
#[test]
fn text_with_a_vertical_tab_around_it_reads_back() {
    let text = "game,rules,player,round,roll1,box\ng\u{b},yatzy,ann,1,12345,C\n";
    let games = read_table(text.as_bytes());
    assert_eq!(games[0].provenance.game_id, "g\u{b}");
    let again = read_table(&table(&games).unwrap());
    assert_eq!(csv_comparable(&again[0]), csv_comparable(&games[0]));
}

//! CSV turn-table reading throughput on a synthetic table built in memory: 40,000 two-player
//! games of 26 turns each, one row per turn as `csv::write_game` writes them (about 90 bytes a
//! row, 90 MB), the rows of each game adjacent; against a baseline in the same run that only
//! counts the lines of the same bytes with memchr.
//!
//! `cargo bench -p dicelens-parsers --bench csv`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use dicelens_parsers::{csv, GameReader, GameRecord};
use generated::{two_player_turns, Rng};
use std::time::Duration;

mod generated;

/// Games in the table.
const GAMES: usize = 40_000;

/// The table, written by `csv::write_header` and `csv::write_game`.
fn table() -> Vec<u8> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut text = Vec::new();
    csv::write_header(&mut text).expect("a header");
    let mut game = GameRecord::default();
    for id in 0..GAMES {
        game.clear();
        game.players = vec![
            format!("player{}", rng.below(5000)),
            format!("user_{}", rng.below(5000)),
        ];
        game.rules = "yahtzee-kurnik".to_string();
        game.provenance.game_id = format!("r3-{id:07}");
        game.provenance.date = Some(format!(
            "20{:02}.{:02}.{:02}",
            rng.below(20),
            1 + rng.below(12),
            1 + rng.below(28)
        ));
        two_player_turns(&mut rng, &mut game);
        csv::write_game(&game, &mut text).expect("a generated game can be written");
    }
    text
}

fn bench(c: &mut Criterion) {
    let table = table();
    let mut group = c.benchmark_group("csv");
    group.throughput(Throughput::Bytes(table.len() as u64));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("memchr_line_count_baseline", |b| {
        b.iter(|| memchr::memchr_iter(b'\n', black_box(&table)).count())
    });
    group.bench_function("read_all_games", |b| {
        let mut game = GameRecord::default();
        let options = csv::CsvOptions::default();
        b.iter(|| {
            let mut reader =
                csv::Reader::with_range(black_box(&table), "t.csv", 0..usize::MAX, &options);
            let mut turns = 0;
            while let Some(result) = reader.read_game(&mut game) {
                result.expect("the table parses");
                turns += game.turns.len();
            }
            assert_eq!(turns, GAMES * 26);
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

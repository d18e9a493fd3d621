//! CSV turn-table reading throughput on a synthetic table built in memory: 40,000 two-player
//! games of 26 turns each, one row per turn as `csv::write_game` writes them (about 90 bytes a
//! row, 90 MB), the rows of each game adjacent; against a baseline in the same run that only
//! counts the lines of the same bytes with memchr.
//!
//! `cargo bench -p dicelens-parsers --bench csv`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use dicelens_parsers::{csv, BoxCode, GameReader, GameRecord, Keep, Roll, TurnRecord};
use std::time::Duration;

/// Games in the table.
const GAMES: usize = 40_000;

/// American box codes: each player fills every one of them once.
const BOXES: [&str; 13] = [
    "1", "2", "3", "4", "5", "6", "3K", "4K", "FH", "SS", "LS", "Y", "C",
];

/// A small deterministic generator (xorshift64*), so every run measures the same bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One turn: up to three rolls, each keep a random part of the roll before it.
fn turn(rng: &mut Rng, round: u16, seat: u8, category: BoxCode) -> TurnRecord {
    let mut turn = TurnRecord {
        round,
        seat,
        roll_count: 1 + rng.below(3) as u8,
        category,
        points: Some(rng.below(51) as u16),
        ..TurnRecord::default()
    };
    let mut roll: Roll = [0; 5];
    roll.iter_mut().for_each(|d| *d = 1 + rng.below(6) as u8);
    turn.rolls[0] = roll;
    for n in 1..usize::from(turn.roll_count) {
        let kept: Vec<u8> = roll.iter().copied().filter(|_| rng.below(2) == 0).collect();
        turn.keeps[n - 1] = Keep::new(&kept).unwrap_or_default();
        for (at, die) in roll.iter_mut().enumerate() {
            *die = kept
                .get(at)
                .copied()
                .unwrap_or_else(|| 1 + rng.below(6) as u8);
        }
        turn.rolls[n] = roll;
    }
    turn
}

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
        let mut order: Vec<[usize; 13]> = vec![std::array::from_fn(|i| i); 2];
        for boxes in &mut order {
            for i in (1..boxes.len()).rev() {
                boxes.swap(i, rng.below(i + 1));
            }
        }
        for round in 0..13 {
            for (seat, boxes) in order.iter().enumerate() {
                let category = BoxCode::parse(BOXES[boxes[round]]).unwrap_or_default();
                game.turns
                    .push(turn(&mut rng, round as u16 + 1, seat as u8, category));
            }
        }
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

//! YGN reading and writing throughput on a synthetic corpus built in memory: 20,000 two-player
//! games of 26 turns each (about 24 MB), against a baseline in the same run that only counts
//! the lines of the same bytes with memchr.
//!
//! `cargo bench -p dicelens-parsers --bench ygn`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use dicelens_parsers::{ygn, BoxCode, GameReader, GameRecord, Keep, Roll, TurnRecord};
use std::time::Duration;

/// Games in the corpus.
const GAMES: usize = 20_000;

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

    fn die(&mut self) -> u8 {
        1 + self.below(6) as u8
    }
}

/// One turn: up to three rolls, each keep a random part of the roll before it and contained
/// in the roll after it, a random free box, plausible points.
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
    roll.iter_mut().for_each(|d| *d = rng.die());
    turn.rolls[0] = roll;
    for n in 1..usize::from(turn.roll_count) {
        let kept: Vec<u8> = roll.iter().copied().filter(|_| rng.below(2) == 0).collect();
        turn.keeps[n - 1] = Keep::new(&kept).unwrap_or_default();
        for (at, die) in roll.iter_mut().enumerate() {
            *die = kept.get(at).copied().unwrap_or_else(|| rng.die());
        }
        turn.rolls[n] = roll;
    }
    turn
}

/// The corpus as YGN text, written by `ygn::write_game`.
fn corpus() -> Vec<u8> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut text = Vec::new();
    let mut game = GameRecord::default();
    for id in 0..GAMES {
        game.clear();
        let players = [
            format!("player{}", rng.below(5000)),
            format!("user_{}", rng.below(5000)),
        ];
        let totals = format!("{} {}", 150 + rng.below(200), 150 + rng.below(200));
        let tags = [
            ("Game", format!("r3-{id:06}")),
            ("Site", "example.org".to_string()),
            (
                "Date",
                format!(
                    "20{:02}.{:02}.{:02}",
                    rng.below(20),
                    1 + rng.below(12),
                    1 + rng.below(28)
                ),
            ),
            (
                "Time",
                format!(
                    "{:02}:{:02}:{:02}",
                    rng.below(24),
                    rng.below(60),
                    rng.below(60)
                ),
            ),
            ("Rules", "yahtzee-kurnik".to_string()),
            ("Players", players.join(", ")),
            ("Result", totals),
        ];
        game.tags = tags
            .into_iter()
            .map(|(name, value)| (name.to_string(), value))
            .collect();
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
        ygn::write_game(&game, &mut text).expect("a generated game is valid YGN");
    }
    text
}

fn bench(c: &mut Criterion) {
    let corpus = corpus();
    let mut group = c.benchmark_group("ygn");
    group.throughput(Throughput::Bytes(corpus.len() as u64));
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(8));
    group.bench_function("memchr_line_count_baseline", |b| {
        b.iter(|| memchr::memchr_iter(b'\n', black_box(&corpus)).count())
    });
    group.bench_function("read_all_games", |b| {
        let mut game = GameRecord::default();
        b.iter(|| {
            let mut reader = ygn::Reader::new(black_box(&corpus), "corpus.ygn");
            let mut turns = 0;
            while let Some(result) = reader.read_game(&mut game) {
                result.expect("the corpus parses");
                turns += game.turns.len();
            }
            assert_eq!(turns, GAMES * 26);
        })
    });
    let mut games = Vec::with_capacity(GAMES);
    let mut reader = ygn::Reader::new(&corpus, "corpus.ygn");
    let mut game = GameRecord::default();
    while let Some(Ok(())) = reader.read_game(&mut game) {
        games.push(game.clone());
    }
    group.bench_function("write_all_games", |b| {
        let mut out = Vec::with_capacity(corpus.len());
        b.iter(|| {
            out.clear();
            for game in &games {
                ygn::write_game(game, &mut out).expect("a read game can be written");
            }
            assert_eq!(out.len(), corpus.len());
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! YGN reading and writing throughput on a synthetic corpus built in memory: 20,000 two-player
//! games of 26 turns each (about 24 MB), against a baseline in the same run that only counts
//! the lines of the same bytes with memchr.
//!
//! `cargo bench -p dicelens-parsers --bench ygn`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use dicelens_parsers::{ygn, GameReader, GameRecord};
use generated::{two_player_turns, Rng};
use std::time::Duration;

mod generated;

/// Games in the corpus.
const GAMES: usize = 20_000;

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
        two_player_turns(&mut rng, &mut game);
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

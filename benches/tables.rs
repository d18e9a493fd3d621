//! Benchmarks of issues 2 and 17: building the expected-score tables on every kernel path
//! (against the in-memory lanes builder and the one-state-per-run baseline measured in the
//! same run) and evaluating one position with two rolls left.
//!
//! Also the distribution tables of issue 5 (building the last layers, reading one state).
//!
//! `cargo bench --bench tables` runs them all; `cargo bench --bench tables -- eval` only eval,
//! `-- dist` only the distributions.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dicelens::dice::Dice;
use dicelens::rules::{RuleSet, Sheet};
use dicelens::solve::expected::{build_table, build_table_with, Grouping};
use dicelens::solve::simd::Path;
use dicelens::solve::turn_oracle::position_options;
use std::hint::black_box;
use std::time::Duration;

fn table_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("table_build");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(12))
        .warm_up_time(Duration::from_secs(2));
    for rules in [RuleSet::Yahtzee, RuleSet::Yatzy] {
        // The default (the fastest path this CPU has), each kernel path, and the builder
        // before the tiles (all lanes of a run in memory) as the baseline of the same run.
        group.bench_with_input(
            BenchmarkId::new("default", rules.name()),
            &rules,
            |b, &r| b.iter(|| build_table(r, &|_, _| {})),
        );
        for path in Path::ALL.into_iter().filter(|p| p.available()) {
            group.bench_with_input(
                BenchmarkId::new(format!("tiles_{}", path.name()), rules.name()),
                &rules,
                |b, &r| b.iter(|| build_table_with(r, Grouping::Tiles(path), &|_, _| {})),
            );
        }
        group.bench_with_input(
            BenchmarkId::new("lanes_in_memory_baseline", rules.name()),
            &rules,
            |b, &r| b.iter(|| build_table_with(r, Grouping::Lanes, &|_, _| {})),
        );
    }
    group.bench_function(
        BenchmarkId::new("one_state_per_run_baseline", "yahtzee"),
        |b| b.iter(|| build_table_with(RuleSet::Yahtzee, Grouping::OneStatePerRun, &|_, _| {})),
    );
    group.finish();
}

fn eval(c: &mut Criterion) {
    let rules = RuleSet::YahtzeeFree;
    let table = build_table(rules, &|_, _| {});
    let sheet = Sheet::from_verhoeff(rules, "_2__5_TF__LYC;15-", 103).expect("Verhoeff's position");
    let early = Sheet::empty(rules);
    let roll = Dice::from_faces(&[1, 2, 3, 4, 4]).expect("a roll");
    let mut group = c.benchmark_group("eval");
    for (name, sheet) in [("verhoeff_position", sheet), ("empty_sheet", early)] {
        for rolls_left in [2u8, 0] {
            group.bench_function(
                BenchmarkId::new(name, format!("{rolls_left}_rolls_left")),
                |b| {
                    b.iter(|| {
                        position_options(
                            black_box(&table),
                            black_box(&sheet),
                            black_box(&roll),
                            rolls_left,
                        )
                    })
                },
            );
        }
    }
    group.finish();
}

/// Distribution tables (issue 5): building the last layers (states with at most four boxes
/// free) of `yahtzee-kurnik`, and reading one state's distribution from the mapped whole table
/// (built once in a temporary directory, about half a minute).
fn distributions(c: &mut Criterion) {
    use dicelens::solve::distribution::{build_dist, BuildObserver, DistSource, DistTableData};
    struct Quiet;
    impl BuildObserver for Quiet {
        fn chunk_done(&mut self, _: &DistTableData, _: &[usize], _: u64, _: u64) -> bool {
            true
        }
    }
    let rules = RuleSet::YahtzeeKurnik;
    let states = dicelens::solve::states::StateSpace::new(rules).len();
    let mut group = c.benchmark_group("dist_build");
    group.sample_size(10);
    group.bench_function("layers_9_to_13/yahtzee-kurnik", |b| {
        b.iter(|| {
            let mut data = DistTableData::new(states);
            build_dist(rules, &mut data, 9, &mut Quiet);
            data
        })
    });
    group.finish();
    // Benchmarking reads the whole mapped table (built here, about half a minute); a test run
    // of the benchmarks (`cargo test --benches`, no `--bench`) reads the last layers in memory.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let table = if std::env::args().any(|a| a == "--bench") {
        dicelens::tables::build_dist_file(dir.path(), rules, 0, None).expect("building the table");
        dicelens::tables::open_dist(dir.path(), rules).expect("the table just built")
    } else {
        let mut data = DistTableData::new(states);
        build_dist(rules, &mut data, 9, &mut Quiet);
        dicelens::tables::dist_from_data(rules, data)
    };
    // A fixed spread of states across the whole table (and so across the file).
    let picks: Vec<usize> = (0..1024).map(|i| (i * 7919 * 31) % states).collect();
    let mut group = c.benchmark_group("dist_read");
    group.throughput(criterion::Throughput::Elements(picks.len() as u64));
    // Baseline in the same run: one f64 of the expected-score table per state.
    let expected = build_table(rules, &|_, _| {});
    group.bench_function("expected_value_baseline", |b| {
        b.iter(|| {
            picks
                .iter()
                .map(|&i| expected[std::hint::black_box(i)])
                .sum::<f64>()
        })
    });
    group.bench_function("state_and_target/mapped", |b| {
        b.iter(|| {
            picks
                .iter()
                .map(|&i| table.dist(std::hint::black_box(i)).at_least(150))
                .sum::<f64>()
        })
    });
    group.finish();
}

/// Exact two-player values (issue 6): a position with 10 boxes free in all (5 each, upper
/// boxes among them), solved from an empty cache; and one with 8 free (4 each), against which
/// the per-game cost of exact endgames is judged.
fn two_player(c: &mut Criterion) {
    use dicelens::solve::two_player::ExactTwoPlayer;
    let rules = RuleSet::Yahtzee;
    let sheet = |filled: &[&str], upper, points| {
        Sheet::from_codes(rules, filled, upper, points).expect("a valid sheet")
    };
    let ten = (
        sheet(&["1", "3", "5", "3K", "4K", "FH", "SS", "LS"], 20, 150),
        sheet(&["2", "4", "6", "3K", "FH", "SS", "LS", "C"], 30, 160),
    );
    let eight = (
        sheet(&["2", "3", "5", "6", "3K", "4K", "FH", "SS", "LS"], 40, 150),
        sheet(&["1", "3", "4", "6", "3K", "4K", "FH", "LS", "C"], 45, 160),
    );
    let mut group = c.benchmark_group("two_player_exact");
    group.sample_size(10);
    for (name, (a, b)) in [("10_free", &ten), ("8_free", &eight)] {
        // The value at the position's points difference (what rating needs).
        group.bench_function(name, |bench| {
            bench.iter(|| ExactTwoPlayer::new(rules).value(black_box(a), black_box(b)))
        });
    }
    // The whole function of the points difference (every entry below solved everywhere).
    group.bench_function("10_free_every_difference", |bench| {
        bench.iter(|| ExactTwoPlayer::new(rules).entry(black_box(&ten.0), black_box(&ten.1)))
    });
    group.finish();
}

criterion_group!(benches, table_build, eval, distributions, two_player);
criterion_main!(benches);

//! Benchmarks of issue 2: building the expected-score tables (against the one-state-per-run
//! baseline measured in the same run) and evaluating one position with two rolls left.
//!
//! `cargo bench --bench tables` runs them all; `cargo bench --bench tables -- eval` only eval.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dicelens::dice::Dice;
use dicelens::rules::{RuleSet, Sheet};
use dicelens::solve::expected::{build_table, build_table_with, position_options, Grouping};
use std::hint::black_box;
use std::time::Duration;

fn table_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("table_build");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(12))
        .warm_up_time(Duration::from_secs(2));
    for rules in [RuleSet::Yahtzee, RuleSet::Yatzy] {
        group.bench_with_input(BenchmarkId::new("lanes", rules.name()), &rules, |b, &r| {
            b.iter(|| build_table(r, &|_, _| {}))
        });
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

criterion_group!(benches, table_build, eval);
criterion_main!(benches);

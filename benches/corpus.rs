//! Benchmarks of issue 3 on a corpus from `simulate`: YGN parsing (bytes per second, against a
//! plain line count over the same bytes in the same run) and replay with legality checks
//! (decisions per second), each on one thread; `analyze` end to end, against reading and
//! replaying the same log in the same run.
//!
//! `cargo bench --bench corpus`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dicelens::rate::OracleSpec;
use dicelens::replay::{replay, ReplayOptions, Replayed};
use dicelens::rules::RuleSet;
use dicelens::simulate::{players, simulate_batch, Plan};
use dicelens::solve::expected::build_table;
use dicelens_parsers::{Format, GameRecord};
use std::hint::black_box;
use std::time::Duration;

/// A simulated two-seat corpus, as YGN bytes and as records.
fn corpus() -> (Vec<u8>, Vec<GameRecord>) {
    let rules = RuleSet::YahtzeeKurnik;
    let table = build_table(rules, &|_, _| {});
    let plan = Plan {
        rules,
        seats: 2,
        players: 200,
        games: 20_000,
        seed: 3,
        ..Plan::default()
    };
    let players = players(&plan);
    let games: Vec<GameRecord> = simulate_batch(&table, &plan, &players, 0..plan.games)
        .into_iter()
        .map(|g| g.record)
        .collect();
    let mut bytes = Vec::new();
    for g in &games {
        Format::Ygn
            .write_game(g, &mut bytes)
            .expect("writing to memory");
    }
    (bytes, games)
}

fn parse_and_replay(c: &mut Criterion) {
    let (bytes, games) = corpus();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    let mut group = c.benchmark_group("corpus");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(8));
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("line_count_baseline", |b| {
        b.iter(|| memchr::memchr_iter(b'\n', black_box(&bytes)).count())
    });
    group.bench_function("parse_ygn", |b| {
        b.iter(|| {
            let mut reader = Format::Ygn.reader(black_box(&bytes), "bench.ygn");
            let mut game = GameRecord::default();
            let mut turns = 0usize;
            while let Some(result) = reader.read_game(&mut game) {
                if result.is_ok() {
                    turns += game.turns.len();
                }
            }
            turns
        })
    });
    let mut replayed = Replayed::default();
    let decisions: usize = games
        .iter()
        .map(|g| {
            replay(g, ReplayOptions::default(), &mut replayed)
                .map_or(0, |()| replayed.decisions.len())
        })
        .sum();
    group.throughput(Throughput::Elements(decisions as u64));
    group.bench_function("replay_decisions", |b| {
        b.iter(|| {
            pool.install(|| {
                let mut n = 0;
                for g in &games {
                    if replay(black_box(g), ReplayOptions::default(), &mut replayed).is_ok() {
                        n += replayed.decisions.len();
                    }
                }
                n
            })
        })
    });
    group.finish();
}

/// A corpus from `simulate` written as YGN into `dir`, with the rule set's expected-score table
/// beside it; returns the log's path.
fn simulated_corpus(plan: &Plan, dir: &std::path::Path) -> std::path::PathBuf {
    let table = build_table(plan.rules, &|_, _| {});
    let players = players(plan);
    let corpus = dir.join(format!("{}-seat.ygn", plan.seats));
    let mut bytes = Vec::new();
    for g in simulate_batch(&table, plan, &players, 0..plan.games) {
        Format::Ygn
            .write_game(&g.record, &mut bytes)
            .expect("writing to memory");
    }
    std::fs::write(&corpus, bytes).expect("writing the corpus");
    dicelens::tables::write_expected(dir, plan.rules, &table).expect("writing the table");
    corpus
}

/// What `dicelens analyze` does with `corpus`, through the library: rated by `oracle` with
/// tables from `dir` (the pipeline, `games.csv` written as the games are rated), then every
/// output written into `dir/analysis` and put in place.
fn analyze_into(corpus: &std::path::Path, dir: &std::path::Path, oracle: OracleSpec) -> u64 {
    use dicelens::output::OutputDir;
    use dicelens::pipeline::{analyze, Options};
    use dicelens::report::AnalysisFiles;
    use dicelens::report::{self, csv::RowFiles};
    use dicelens::store::summary::SummaryFile;
    use dicelens::tables::Silent;
    let mut out = OutputDir::open(&dir.join("analysis")).expect("the output directory");
    let options = Options {
        oracle,
        tables: Some(dir.to_path_buf()),
        ..Options::default()
    };
    let mut rows = RowFiles::create(&out, false).expect("games.csv");
    let analysis =
        analyze(&[corpus.to_path_buf()], &options, &mut rows, &Silent).expect("an analysis");
    rows.finish(&mut out).expect("games.csv");
    let summary_file = SummaryFile::of_analysis(&analysis);
    let files = AnalysisFiles::of_analysis(&analysis, &summary_file, 500, 0);
    report::write_analysis(&mut out, &files).expect("the outputs");
    out.commit().expect("the outputs in place");
    analysis.aggregates.games()
}

/// `analyze` end to end (parse, replay, rate, aggregate, write outputs) on one-seat games,
/// with the process's thread pool (2 threads on the project machine).
fn analyze_end_to_end(c: &mut Criterion) {
    let plan = Plan {
        rules: RuleSet::Yahtzee,
        seats: 1,
        players: 300,
        games: 20_000,
        seed: 9,
        ..Plan::default()
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let corpus = simulated_corpus(&plan, dir.path());
    let mut group = c.benchmark_group("analyze");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Elements(plan.games as u64));
    group.bench_function("one_seat_games", |b| {
        b.iter(|| analyze_into(&corpus, dir.path(), OracleSpec::SOLITAIRE))
    });
    // Baseline in the same run: reading and replaying the same log, nothing rated.
    group.bench_function("read_and_replay_baseline", |b| {
        b.iter(|| {
            let mut reader = dicelens::corpus::CorpusReader::new(ReplayOptions::default());
            reader.read_path(&corpus, None, |_, _| {});
            reader.summary.games_used
        })
    });
    group.finish();
}

/// `analyze` on two-seat games in match points, against the solitaire oracle on the same games
/// in the same run: the default oracle (issue 10's target: at least 1,000 games/s end to end)
/// and EMP(1) with exact values from 4 free boxes on 2,000 games, the reference
/// (`emp:1/exact:8`, target 100 games/s) on 400. Needs the whole distribution table (built here, about half a minute), so it runs
/// only when benchmarking (`cargo bench`), not in test runs of the benchmarks.
fn analyze_two_seat(c: &mut Criterion) {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let plan = Plan {
        rules: RuleSet::Yahtzee,
        seats: 2,
        players: 20,
        games: 2_000,
        seed: 6,
        ..Plan::default()
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let corpus = simulated_corpus(&plan, dir.path());
    dicelens::tables::build_dist_file(dir.path(), plan.rules, 0, None)
        .expect("building distributions");
    analyze_with_oracles(
        c,
        "analyze_two_seat",
        &corpus,
        dir.path(),
        plan.games,
        30,
        &[
            ("solitaire_baseline", "e"),
            ("default_oracle", "default"),
            ("emp1_exact_from_4_free", "emp:1/exact:4"),
        ],
    );
    // The reference is slower: fewer games.
    let plan = Plan { games: 400, ..plan };
    let corpus = simulated_corpus(&plan, dir.path());
    analyze_with_oracles(
        c,
        "analyze_two_seat_reference",
        &corpus,
        dir.path(),
        plan.games,
        60,
        &[("solitaire_baseline", "e"), ("reference", "reference")],
    );
}

/// One benchmark group: `analyze` of `corpus` (of `games` games, tables in `dir`) with each
/// `(name, --oracle)` of `cases`, measured for `seconds`.
fn analyze_with_oracles(
    c: &mut Criterion,
    group_name: &str,
    corpus: &std::path::Path,
    dir: &std::path::Path,
    games: usize,
    seconds: u64,
    cases: &[(&str, &str)],
) {
    let mut group = c.benchmark_group(group_name);
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(seconds));
    group.throughput(Throughput::Elements(games as u64));
    for &(name, oracle) in cases {
        let spec = oracle.parse().expect("a valid oracle");
        group.bench_function(name, |b| b.iter(|| analyze_into(corpus, dir, spec)));
    }
    group.finish();
}

criterion_group!(
    benches,
    parse_and_replay,
    analyze_end_to_end,
    analyze_two_seat
);
criterion_main!(benches);

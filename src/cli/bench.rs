//! `dicelens bench quality`: the published quality experiment for two players (docs/methods.md
//! section 4), reproducible from a seed (measured by `dicelens::workflow::bench::quality`). Typical positions with at most `--max-free` boxes free
//! in all come from self-play by EMP(1) (`dicelens::selfplay`); every option of every position
//! is valued exactly; then each method (EMP(0..=D), DynW(1..=D), and the solitaire strategy E)
//! picks its best option and is charged the exact loss of that pick. Reported by number of free
//! boxes (`dicelens::report::quality`): moves, mean error per move, and the shares of moves
//! with an error above 0.001 and 0.01.

use super::flags::{not_between, TablesFlag};
use super::progress::TERMINAL;
use super::{notice, print_stdout, CliError};
use dicelens::report::quality::{quality as quality_report, QualitySetup};
use dicelens::rules::RuleSet;
use dicelens::tables::table_dir;
use dicelens::workflow::bench::quality::quality as measure;

/// The deepest EMP and DynW search `--depth` allows.
const MOST_DEPTH: u8 = 5;

/// The flags of `dicelens bench`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand)]
enum Action {
    /// The published quality experiment: positions from self-play by softened EMP(1) with at
    /// most --max-free boxes free, every option valued exactly, and the exact loss of the picks
    /// of EMP(0..=D), DynW(1..=D) and the solitaire strategy, by number of free boxes.
    Quality(QualityArgs),
    /// Rates one corpus with a reference oracle and with each candidate, timed in the same
    /// run: per candidate its games/s, its distance from the reference per decision and per
    /// player (error per game, against the player's 95% CI), the rank correlation of the
    /// leaderboard and the positions that change (docs/oracles.md).
    Oracles(super::bench_oracles::OraclesArgs),
    /// How fast logs are read (decompression, format, parse), beside the system's
    /// decompressor (`zcat`, `zstdcat`) and the decompression alone, timed in the same run.
    Read(super::bench_read::ReadArgs),
    /// How long the distribution tables take to build beside the expected-score tables, both
    /// in memory in the same run (the regression gate's ratio): one JSON line.
    Build(super::bench_build::BuildArgs),
}

/// Runs `dicelens bench quality`, `oracles`, `read` or `build`.
pub fn run(args: Args) -> Result<(), CliError> {
    match args.action {
        Action::Quality(q) => quality(&q),
        Action::Oracles(o) => super::bench_oracles::oracles(&o),
        Action::Read(r) => super::bench_read::read(&r),
        Action::Build(b) => super::bench_build::build(&b),
    }
}

/// The most positions `bench quality` values (they are collected in memory before they are
/// valued).
const MOST_POSITIONS: usize = 1_000_000;

/// The flags of `dicelens bench quality`.
#[derive(Clone, Debug, clap::Args)]
pub struct QualityArgs {
    /// Rule set.
    #[arg(long, default_value = "yahtzee")]
    pub rules: RuleSet,
    /// Positions to value (at most 1000000; each is valued exactly, a few a second).
    #[arg(long, default_value_t = 200)]
    pub positions: usize,
    /// Most free boxes (both sheets) of a position (the published experiment: 10).
    #[arg(long, default_value_t = 10)]
    pub max_free: u32,
    /// Deepest EMP and DynW searched (the published experiment: 4; each level costs more).
    #[arg(long, default_value_t = 2)]
    pub depth: u8,
    /// Seed of the self-play.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print JSON instead of tables.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub tables: TablesFlag,
}

/// Runs `dicelens bench quality`.
fn quality(args: &QualityArgs) -> Result<(), CliError> {
    let rules = args.rules;
    if args.positions > MOST_POSITIONS {
        return Err(not_between(
            "--positions",
            "a number of positions",
            0,
            MOST_POSITIONS,
            args.positions,
        ));
    }
    if args.depth > MOST_DEPTH {
        return Err(not_between(
            "--depth",
            "a search depth",
            0,
            MOST_DEPTH,
            args.depth,
        ));
    }
    let most_free = 2 * rules.box_count() as u32;
    if !(1..=most_free).contains(&args.max_free) {
        return Err(not_between(
            "--max-free",
            &format!("a number of free boxes (both sheets of {rules})"),
            1,
            most_free,
            args.max_free,
        ));
    }
    let dir = table_dir(args.tables.tables.as_deref());
    let setup = QualitySetup {
        rules,
        positions: args.positions,
        max_free: args.max_free,
        seed: args.seed,
    };
    // The bar of the positions valued, shown once self-play has found them.
    let mut bar: Option<indicatif::ProgressBar> = None;
    let measured = measure(&setup, args.depth, &dir, &TERMINAL, &mut |done, total| {
        bar.get_or_insert_with(|| indicatif::ProgressBar::new(total as u64))
            .set_position(done as u64);
    })
    .map_err(CliError::failure)?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    notice(&format!("valued in {:.1} s in all", measured.seconds));
    print_stdout(&quality_report(
        &setup,
        &measured.methods,
        &measured.tallies,
        args.json,
    ))
}

//! The `dicelens` command line: subcommands and their flags only; the work is in `dicelens::cli`.

use clap::{Parser, Subcommand};
mod cli;

use cli::CliError;
use std::process::ExitCode;

/// The exit codes, as `--help` gives them (and README.md, "Exit codes").
const EXIT_CODES: &str = "\
Exit codes:
  0  success
  1  failure: no input could be read, or no game rated (converted), or, with --strict, an input
     file skipped; an output that cannot be written (a full disk or device, stdout included; a
     directory or a link to nothing as an output: only a regular file is replaced, a device or
     FIFO is written through); an output directory another run is writing into; convert or
     ids whose stdout reader is gone before the end; an analysis to merge that is incomplete.
     Files written by an earlier run stay as they were: outputs are replaced only once every
     one of them is written (validate: 1 also for an illegal game)
  2  usage error: a bad flag or value, an unknown player or game";

#[derive(Parser)]
#[command(
    name = "dicelens",
    version,
    about = "Rates Yahtzee-family decisions against optimal play",
    after_help = EXIT_CODES
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Threads that compute (default: one per core, or RAYON_NUM_THREADS); more than the
    /// machine can serve (eight per core, at least 64) are capped, with a notice. Outputs are
    /// the same whatever the count.
    #[arg(long, global = true, value_name = "N", value_parser = cli::threads::parse_threads)]
    threads: Option<usize>,
}

#[derive(Subcommand)]
enum Command {
    /// Every legal option of a solitaire position with its expected final score and loss.
    Eval(cli::eval::Args),
    /// The distribution of a sheet's final score: P(final >= x) for every total x, as a
    /// summary, CSV (--csv) or an SVG chart (--svg).
    #[command(after_help = EXIT_CODES)]
    Dist(cli::dist::Args),
    /// Rate every decision of a corpus: leaderboard on stdout, statistics in --out.
    #[command(after_help = EXIT_CODES)]
    Analyze(cli::analyze::Args),
    /// Merge earlier analyses (shards, or yesterday's run plus today's) and regenerate every output.
    #[command(after_help = EXIT_CODES)]
    Merge(cli::merge::Args),
    /// The id of every game that parses, as CSV (`game_id`): how to find the game ids repeated
    /// across the partitions of a corpus (for `analyze --seen-ids`).
    Ids(cli::ids::Args),
    /// A synthetic corpus of simulated players with known skill, and its ground truth.
    #[command(after_help = EXIT_CODES)]
    Simulate(cli::simulate::Args),
    /// Convert game logs from any format read to a format written (`--to`).
    #[command(after_help = EXIT_CODES)]
    Convert(cli::convert::Args),
    /// One game's legality verdict, every decision rated, and per-player totals.
    Validate(cli::validate::Args),
    /// One player's report: overview, percentile, errors by round and kind, worst decisions, trend.
    #[command(after_help = EXIT_CODES)]
    Player(cli::player::Args),
    /// Are the dice fair? Tests of the freshly rolled dice per group (player, file, month, site):
    /// text, CSV (--csv), JSON (--json), and a page with charts (--out).
    #[command(after_help = EXIT_CODES)]
    Dice(cli::dice::Args),
    /// Build or check the precomputed tables.
    Tables(cli::tables::Args),
    /// The review board in the browser: step through a game's decisions with every option
    /// valued, follow any option, play (against the oracle, hot-seat) or enter a game.
    Serve(cli::serve::Args),
    /// Measurements that are experiments rather than benchmarks (`bench quality`, `bench
    /// oracles`).
    Bench(cli::bench::Args),
}

/// How games of several players are rated (`analyze`, `validate`, `player`).
/// Runs one command: its flags go to its module, which makes one engine call and writes.
fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Eval(a) => cli::eval::run(a),
        Command::Dist(a) => cli::dist::run(a),
        Command::Analyze(a) => cli::analyze::run(a),
        Command::Merge(a) => cli::merge::run(a),
        Command::Ids(a) => cli::ids::run(a),
        Command::Simulate(a) => cli::simulate::run(a),
        Command::Convert(a) => cli::convert::run(a),
        Command::Validate(a) => cli::validate::run(a),
        Command::Player(a) => cli::player::run(a),
        Command::Dice(a) => cli::dice::run(a),
        Command::Tables(a) => cli::tables::run(a),
        Command::Serve(a) => cli::serve::run(a),
        Command::Bench(a) => cli::bench::run(a),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    match cli::threads::configure(cli.threads).and_then(|()| run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            cli::notice(&e.to_string());
            ExitCode::from(e.code as u8)
        }
    }
}

/// Reports a command line clap rejects. A flag value that its type refuses is reported as
/// `dicelens: --flag: why` (exit 2), like every other usage error of the commands; the rest
/// (unknown flags, missing arguments, `--help`, `--version`) as clap prints them.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    use std::error::Error;
    if e.kind() == ErrorKind::ValueValidation {
        let flag = match e.get(ContextKind::InvalidArg) {
            Some(ContextValue::String(arg)) => arg.split(' ').next().map(str::to_string),
            _ => None,
        };
        if let (Some(flag), Some(why)) = (flag, e.source()) {
            cli::notice(&CliError::flag(&flag, why).to_string());
            return ExitCode::from(2);
        }
    }
    e.exit()
}

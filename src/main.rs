//! The `dicelens` command line: subcommands and their flags only; the work is in `dicelens::cli`.

use clap::{Parser, Subcommand};
mod cli;

use cli::CliError;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "dicelens",
    version,
    about = "Rates Yahtzee-family decisions against optimal play"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Every legal option of a solitaire position with its expected final score and loss.
    Eval(cli::eval::Args),
    /// The distribution of a sheet's final score: P(final >= x) for every total x, as a
    /// summary, CSV (--csv) or an SVG chart (--svg).
    Dist(cli::dist::Args),
    /// Rate every decision of a corpus: leaderboard on stdout, statistics in --out.
    Analyze(Analyze),
    /// Merge earlier analyses (shards, or yesterday's run plus today's) and regenerate every output.
    Merge(Merge),
    /// The id of every game that parses, as CSV (`game_id`): how to find the game ids repeated
    /// across the partitions of a corpus (for `analyze --seen-ids`).
    Ids(Ids),
    /// A synthetic corpus of simulated players with known skill, and its ground truth.
    Simulate(Simulate),
    /// Convert game logs between formats (YGN, JSONL; Verhoeff to either, or to Verhoeff).
    Convert(cli::convert::Args),
    /// One game's legality verdict, every decision rated, and per-player totals.
    Validate(cli::validate::Args),
    /// One player's report: overview, percentile, errors by round and kind, worst decisions, trend.
    Player(Player),
    /// Build or check the precomputed tables.
    Tables(cli::tables::Args),
    /// Measurements that are experiments rather than benchmarks (`bench quality`, `bench
    /// oracles`).
    Bench(cli::bench::Args),
}

/// How games of several players are rated (`analyze`, `validate`, `player`).
#[derive(clap::Args)]
struct OracleFlags {
    /// Oracle for games of several players: `default` (= emp:1), `reference` (=
    /// emp:1/exact:8), `e`, or a spec: emp:D or dynw:D, then /exact:N and /exact-leaves
    /// (--help says more; docs/oracles.md).
    #[arg(long, default_value = "default", value_name = "SPEC", long_help = ORACLE_HELP)]
    oracle: String,
}

/// The long help of `--oracle`: the specs, and the default's measured speed and distance from
/// the reference (PERFORMANCE.md, "Choosing the default oracle").
const ORACLE_HELP: &str = "\
How games of several players are rated; one-player games always get the solitaire oracle
(expected points). SPEC is one of:
  e               every player's solitaire expected score, ignoring the others (points)
  emp:D, dynw:D   expected match points by the 2008 thesis's search, D turns deep (0..=5)
  .../exact:N     two-player turns with at most N boxes free in all (N in 0..=12) valued
                  exactly; the search from earlier turns ends at its static evaluation
  .../exact-leaves  the positions that search reaches valued exactly too (within N): slower
  reference       emp:1/exact:8, the 2008 study's setting
  default         emp:1: the fastest setting measured to keep every player's error per game
                  within 0.002 match points of the reference's
Measured on this project's 2-core machine (PERFORMANCE.md), 2,000 simulated two-player games
each of yahtzee and yahtzee-kurnik: the default rates about 2,500 games/s end to end,
every player's error per game within 0.0013 match points of the reference's; the
reference about 140 games/s. `dicelens bench oracles` measures any setting on your
own games (docs/oracles.md).";

impl OracleFlags {
    /// The checked spec.
    fn spec(&self) -> Result<dicelens::rate::OracleSpec, CliError> {
        self.oracle
            .parse()
            .map_err(|e: String| CliError::flag("--oracle", e))
    }
}

/// `dicelens analyze` flags.
#[derive(clap::Args)]
struct Analyze {
    /// Log files (YGN, Verhoeff, JSONL).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Rate only the games of the one FILE that begin in this byte range (END exclusive), as
    /// Hadoop input splits: adjacent ranges rate every game once.
    #[arg(long, value_name = "START:END")]
    byte_range: Option<String>,
    /// Count the game ids of this CSV (what `dicelens ids` prints) as seen before: games with
    /// those ids are skipped as duplicates, as in one run over the partitions before this one.
    #[arg(long, value_name = "FILE")]
    seen_ids: Option<PathBuf>,
    /// Least games for a player to be on the leaderboard.
    #[arg(long, default_value_t = 500)]
    min_games: u64,
    /// Rate only games of this rule set (others are counted as skipped).
    #[arg(long)]
    rules: Option<String>,
    /// Input format: auto (recognised per file), ygn, verhoeff or jsonl.
    #[arg(long, default_value = "auto")]
    format: String,
    /// Output directory.
    #[arg(long, default_value = "analysis")]
    out: PathBuf,
    /// Leaderboard lines printed.
    #[arg(long, default_value_t = 20)]
    top: usize,
    /// Also write decisions.csv, one row per decision.
    #[arg(long)]
    decisions: bool,
    /// Print the leaderboard as JSON.
    #[arg(long)]
    json: bool,
    /// Rate games that ended early (abandoned, timeout, resigned) too.
    #[arg(long)]
    include_unfinished: bool,
    /// Table directory (default: $DICELENS_TABLES, else ./tables).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    #[command(flatten)]
    oracle: OracleFlags,
}

/// `dicelens merge` flags.
#[derive(clap::Args)]
struct Merge {
    /// Output directories of earlier `analyze` (or `merge`) runs.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Output directory.
    #[arg(long)]
    out: PathBuf,
    /// Least games for a player to be on the leaderboard.
    #[arg(long, default_value_t = 500)]
    min_games: u64,
    /// Leaderboard lines printed.
    #[arg(long, default_value_t = 20)]
    top: usize,
    /// Print the leaderboard as JSON.
    #[arg(long)]
    json: bool,
    /// Table directory (default: $DICELENS_TABLES, else ./tables), to rate duplicate games again
    /// (with the oracle the shards were rated with).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// The DIRs are analyses of consecutive partitions of one corpus, in corpus order, made
    /// with the same flags (and --seen-ids): the outputs are those of one `analyze` of the
    /// corpus, byte for byte; a game id rated in two of them is an error.
    #[arg(long)]
    partitions: bool,
}

/// `dicelens ids` flags.
#[derive(clap::Args)]
struct Ids {
    /// Log files (YGN, Verhoeff, JSONL).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Only the games of the one FILE that begin in this byte range (END exclusive), as
    /// `analyze --byte-range` reads them.
    #[arg(long, value_name = "START:END")]
    byte_range: Option<String>,
    /// Input format: auto (recognised per file), ygn, verhoeff or jsonl.
    #[arg(long, default_value = "auto")]
    format: String,
}

/// `dicelens simulate` flags.
#[derive(clap::Args)]
struct Simulate {
    /// Rule set of the games.
    #[arg(long, default_value = "yahtzee")]
    rules: String,
    /// Players per game.
    #[arg(long, default_value_t = 1)]
    seats: usize,
    /// Number of distinct simulated players (from perfect to weak).
    #[arg(long, default_value_t = 10)]
    players: usize,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Random seed: the same seed gives the same bytes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output format: ygn, jsonl or verhoeff.
    #[arg(long, default_value = "ygn")]
    format: String,
    /// Output file; the ground truth is written beside it as NAME.truth.csv.
    #[arg(long)]
    out: PathBuf,
    /// Table directory (default: $DICELENS_TABLES, else ./tables).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
}

/// `dicelens player` flags.
#[derive(clap::Args)]
struct Player {
    /// The player's name, as in the logs.
    name: String,
    /// Log files (YGN, Verhoeff, JSONL).
    #[arg(conflicts_with = "from")]
    files: Vec<PathBuf>,
    /// Read DIR/aggregates.json of an earlier `analyze` instead of log files.
    #[arg(long, value_name = "DIR")]
    from: Option<PathBuf>,
    /// Output directory of the HTML page (NAME.html).
    #[arg(long, default_value = "player")]
    out: PathBuf,
    /// Input format: auto (recognised per file), ygn, verhoeff or jsonl.
    #[arg(long, default_value = "auto")]
    format: String,
    /// Rate only games of this rule set.
    #[arg(long)]
    rules: Option<String>,
    /// Rate games that ended early (abandoned, timeout, resigned) too.
    #[arg(long)]
    include_unfinished: bool,
    /// Table directory (default: $DICELENS_TABLES, else ./tables).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    oracle: OracleFlags,
}

fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Eval(a) => cli::eval::run(a),
        Command::Dist(a) => cli::dist::run(a),
        Command::Analyze(a) => cli::analyze::run(&cli::analyze::AnalyzeArgs {
            files: a.files,
            byte_range: a.byte_range,
            seen_ids: a.seen_ids,
            min_games: a.min_games,
            rules: a.rules,
            format: a.format,
            out: a.out,
            top: a.top,
            decisions: a.decisions,
            json: a.json,
            include_unfinished: a.include_unfinished,
            tables: a.tables,
            oracle: a.oracle.spec()?,
        }),
        Command::Merge(m) => cli::merge::run(&cli::merge::MergeArgs {
            dirs: m.dirs,
            out: m.out,
            min_games: m.min_games,
            top: m.top,
            json: m.json,
            tables: m.tables,
            partitions: m.partitions,
        }),
        Command::Ids(i) => cli::ids::run(&cli::ids::IdsArgs {
            files: i.files,
            byte_range: i.byte_range,
            format: i.format,
        }),
        Command::Simulate(s) => cli::simulate::run(&cli::simulate::SimulateArgs {
            rules: s.rules,
            seats: s.seats,
            players: s.players,
            games: s.games,
            seed: s.seed,
            format: s.format,
            out: s.out,
            tables: s.tables,
        }),
        Command::Convert(a) => cli::convert::run(a),
        Command::Validate(a) => cli::validate::run(a),
        Command::Player(p) => cli::player::run(&cli::player::PlayerArgs {
            name: p.name,
            files: p.files,
            from: p.from,
            out: p.out,
            format: p.format,
            rules: p.rules,
            include_unfinished: p.include_unfinished,
            tables: p.tables,
            json: p.json,
            oracle: p.oracle.spec()?,
        }),
        Command::Bench(a) => cli::bench::run(a),
        Command::Tables(a) => cli::tables::run(a),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("dicelens: {e}");
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
            eprintln!("dicelens: {}", CliError::flag(&flag, why));
            return ExitCode::from(2);
        }
    }
    e.exit()
}

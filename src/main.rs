//! The `dicelens` command line: subcommands and their flags only; the work is in `dicelens::cli`.

use clap::{Parser, Subcommand};
mod cli;

use cli::{eval::EvalArgs, CliError};
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
    Eval(Eval),
    /// The distribution of a sheet's final score: P(final >= x) for every total x, as a
    /// summary, CSV (--csv) or an SVG chart (--svg).
    Dist(Dist),
    /// Rate every decision of a corpus: leaderboard on stdout, statistics in --out.
    Analyze(cli::analyze::Args),
    /// Merge earlier analyses (shards, or yesterday's run plus today's) and regenerate every output.
    Merge(cli::merge::Args),
    /// The id of every game that parses, as CSV (`game_id`): how to find the game ids repeated
    /// across the partitions of a corpus (for `analyze --seen-ids`).
    Ids(cli::ids::Args),
    /// A synthetic corpus of simulated players with known skill, and its ground truth.
    Simulate(cli::simulate::Args),
    /// Convert game logs between formats (YGN, JSONL; Verhoeff to either, or to Verhoeff).
    Convert(Convert),
    /// One game's legality verdict, every decision rated, and per-player totals.
    Validate(Validate),
    /// One player's report: overview, percentile, errors by round and kind, worst decisions, trend.
    Player(cli::player::Args),
    /// Build or check the precomputed tables.
    Tables {
        #[command(subcommand)]
        action: TablesAction,
    },
    /// Measurements that are experiments rather than benchmarks (`bench quality`, `bench
    /// oracles`).
    Bench {
        #[command(subcommand)]
        action: BenchAction,
    },
}

#[derive(Subcommand)]
enum BenchAction {
    /// The published quality experiment: positions from self-play by softened EMP(1) with at
    /// most --max-free boxes free, every option valued exactly, and the exact loss of the picks
    /// of EMP(0..=D), DynW(1..=D) and the solitaire strategy, by number of free boxes.
    Quality(cli::bench::QualityArgs),
    /// Rates one corpus with a reference oracle and with each candidate, timed in the same
    /// run: per candidate its games/s, its distance from the reference per decision and per
    /// player (error per game, against the player's 95% CI), the rank correlation of the
    /// leaderboard and the positions that change (docs/oracles.md).
    Oracles(cli::bench_oracles::OraclesArgs),
}

#[derive(clap::Args)]
struct TablesDir {
    /// Table directory (default: $DICELENS_TABLES, else ./tables).
    #[arg(long, value_name = "DIR", global = true)]
    tables: Option<PathBuf>,
}

#[derive(Subcommand)]
enum TablesAction {
    /// Build the tables that are missing or invalid (all with --force).
    Build {
        /// Rule set, comma-separated list, or `all` (the four main rule sets).
        #[arg(long, default_value = "all")]
        rules: String,
        /// Rebuild even valid tables (a distribution build then starts over).
        #[arg(long)]
        force: bool,
        /// Build the score-distribution tables instead of the expected-score ones (minutes;
        /// an interrupted build resumes).
        #[arg(long)]
        dist: bool,
        #[command(flatten)]
        dir: TablesDir,
    },
    /// Verify every table and print each rule set's empty-sheet value.
    Check {
        #[command(flatten)]
        dir: TablesDir,
    },
}

/// The sheet flags of `eval` and `dist` (values are checked by `dicelens::cli::eval`).
#[derive(clap::Args)]
struct SheetFlags {
    /// Rule set: yahtzee (default), yahtzee-free, yahtzee-kurnik, yatzy.
    #[arg(long)]
    rules: Option<String>,
    /// Filled boxes, comma-separated YGN codes (Y0/Y50 for the Yahtzee box), `-` for none.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    filled: Option<String>,
    /// Upper-section total so far.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    upper: Option<String>,
    /// Points so far, bonuses included (default: the least the sheet can hold).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    points: Option<String>,
    /// The sheet in the thesis's notation (2456TMDY0S,51,170) or Verhoeff's (_2__5_TF__LYC;15-).
    #[arg(long, allow_hyphen_values = true)]
    state: Option<String>,
}

impl SheetFlags {
    /// The sheet as `dicelens::cli::eval` takes it (no roll, no target).
    fn eval_args(self) -> EvalArgs {
        EvalArgs {
            rules: self.rules,
            filled: self.filled,
            upper: self.upper,
            points: self.points,
            state: self.state,
            ..EvalArgs::default()
        }
    }
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

/// `dicelens eval` flags (values are checked by `dicelens::cli::eval`).
#[derive(clap::Args)]
struct Eval {
    #[command(flatten)]
    sheet: SheetFlags,
    /// The five dice on the table, any order (12344, or 12344;2 with the rolls left).
    #[arg(long, value_name = "DICE", allow_hyphen_values = true)]
    roll: Option<String>,
    /// Rolls left after this one: 2 (default), 1 or 0.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    rolls_left: Option<String>,
    /// An opponent's filled boxes (repeat per opponent, in seat order after the mover): the
    /// position is then valued in expected match points.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    opponent_filled: Vec<String>,
    /// An opponent's upper-section total (repeat, same order; default 0).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    opponent_upper: Vec<String>,
    /// An opponent's points (repeat, same order; default: the least the sheet can hold).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    opponent_points: Vec<String>,
    /// With opponents: exact, emp:D, dynw:D (D in 0..=5) or e (solitaire). Default: exact for
    /// two players with at most 10 boxes free in all, else emp:1.
    #[arg(long, value_name = "M")]
    method: Option<String>,
    /// Rank the options by the largest probability of finishing with at least this many
    /// points (from the distribution tables, built on first use).
    #[arg(long, value_name = "W", allow_hyphen_values = true)]
    target: Option<String>,
    /// Print a JSON array of {option, value, loss} (and p_target with --target).
    #[arg(long)]
    json: bool,
    /// Table directory (default: $DICELENS_TABLES, else ./tables).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
}

/// `dicelens dist` flags (the sheet is checked like `eval`'s).
#[derive(clap::Args)]
struct Dist {
    #[command(flatten)]
    sheet: SheetFlags,
    /// Also write the distribution as a self-contained SVG chart to this file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Print `total,p_at_least`, one row per total, instead of the summary.
    #[arg(long)]
    csv: bool,
    /// Table directory (default: $DICELENS_TABLES, else ./tables).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
}

/// `dicelens convert` flags.
#[derive(clap::Args)]
struct Convert {
    /// Log files to convert.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Input format: auto (recognised per file), ygn, verhoeff or jsonl.
    #[arg(long, default_value = "auto")]
    format: String,
    /// Output format: ygn, jsonl or verhoeff.
    #[arg(long)]
    to: String,
    /// Output file (default: stdout).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Convert games that ended early (abandoned, timeout, resigned) too.
    #[arg(long)]
    include_unfinished: bool,
}

/// `dicelens validate` flags.
#[derive(clap::Args)]
struct Validate {
    /// The log file.
    file: PathBuf,
    /// Id of the game to validate (needed when the file holds several games).
    #[arg(long, value_name = "ID")]
    game: Option<String>,
    /// Input format: auto (recognised from the content), ygn, verhoeff or jsonl.
    #[arg(long, default_value = "auto")]
    format: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Table directory (default: $DICELENS_TABLES, else ./tables).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    #[command(flatten)]
    oracle: OracleFlags,
}

fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Eval(e) => cli::eval::run(&EvalArgs {
            roll: e.roll,
            rolls_left: e.rolls_left,
            target: e.target,
            opponent_filled: e.opponent_filled,
            opponent_upper: e.opponent_upper,
            opponent_points: e.opponent_points,
            method: e.method,
            json: e.json,
            tables: e.tables,
            ..e.sheet.eval_args()
        }),
        Command::Dist(d) => cli::dist::run(&cli::dist::DistArgs {
            sheet: d.sheet.eval_args(),
            svg: d.svg,
            csv: d.csv,
            tables: d.tables,
        }),
        Command::Analyze(a) => cli::analyze::run(a),
        Command::Merge(m) => cli::merge::run(m),
        Command::Ids(i) => cli::ids::run(i),
        Command::Simulate(s) => cli::simulate::run(s),
        Command::Convert(c) => cli::convert::run(&cli::convert::ConvertArgs {
            files: c.files,
            from: c.format,
            to: c.to,
            out: c.out,
            include_unfinished: c.include_unfinished,
        }),
        Command::Validate(v) => cli::validate::run(&cli::validate::ValidateArgs {
            file: v.file,
            game: v.game,
            format: v.format,
            json: v.json,
            tables: v.tables,
            oracle: v.oracle.spec()?,
        }),
        Command::Player(p) => cli::player::run(p),
        Command::Bench {
            action: BenchAction::Quality(q),
        } => cli::bench::quality(&q),
        Command::Bench {
            action: BenchAction::Oracles(o),
        } => cli::bench_oracles::oracles(&o),
        Command::Tables { action } => match action {
            TablesAction::Build {
                rules,
                force,
                dist,
                dir,
            } => {
                let rules = cli::tables::rule_sets(&rules)?;
                cli::tables::build(dir.tables.as_deref(), &rules, force, dist)
            }
            TablesAction::Check { dir } => cli::tables::check(dir.tables.as_deref()),
        },
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

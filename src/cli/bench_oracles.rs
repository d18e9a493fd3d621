//! `dicelens bench oracles`: rates one corpus with a reference oracle and with each candidate,
//! timing each in the same run, and shows how far each candidate's errors are from the
//! reference's (per decision, per player, on the leaderboard): what accuracy a setting buys
//! for its cost (measured by `dicelens::workflow::bench::oracles`). The corpus is read once and held in memory; each oracle starts with empty
//! caches, as a fresh `analyze` would, and its tables are loaded before its clock starts.

use super::analyze::Bar;
use super::flags::{not_at_least, FormatFlag, GameFilter, TablesFlag};
use super::{print_stdout, CliError};
use dicelens::rate::OracleSpec;
use dicelens::report::oracles::{bench_json, bench_text};
use dicelens::workflow::bench::oracles::{oracles as measure, OraclesRequest};
use std::path::PathBuf;

/// The candidates measured by default: the default setting (`emp:1`), wider exact ranges,
/// DynW, and the solitaire oracle.
pub const DEFAULT_CANDIDATES: &str =
    "default,emp:1/exact:2,emp:1/exact:4,emp:1/exact:6,dynw:1/exact:4,e";

/// The flags of `dicelens bench oracles`.
#[derive(Clone, Debug, clap::Args)]
pub struct OraclesArgs {
    /// Log files (games of two or more players; one-player games are rated by the solitaire
    /// oracle whatever the spec).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The oracle the candidates are measured against.
    #[arg(long, default_value = "reference", value_name = "SPEC")]
    pub reference: OracleSpec,
    /// The oracles measured, comma-separated specs (as `analyze --oracle` takes them).
    #[arg(long, default_value = DEFAULT_CANDIDATES, value_name = "SPEC,...")]
    pub candidates: String,
    /// Players with at least this many games are compared.
    #[arg(long, default_value_t = 50, value_parser = super::flags::parse_min_games)]
    pub min_games: u64,
    /// A candidate is within tolerance when no compared player's error per game is farther
    /// than this from the reference's.
    #[arg(long, default_value_t = 0.002, value_name = "X")]
    pub tolerance: f64,
    #[command(flatten)]
    pub filter: GameFilter,
    #[command(flatten)]
    pub format: FormatFlag,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub tables: TablesFlag,
}

/// The specs of `--reference` and `--candidates`, checked.
fn specs(args: &OraclesArgs) -> Result<(OracleSpec, Vec<OracleSpec>), CliError> {
    let reference = args.reference;
    let candidates = args
        .candidates
        .split(',')
        .map(|s| {
            s.trim()
                .parse()
                .map_err(|e: String| CliError::flag("--candidates", e))
        })
        .collect::<Result<Vec<OracleSpec>, CliError>>()?;
    if args.tolerance.is_nan() || args.tolerance < 0.0 {
        return Err(not_at_least(
            "--tolerance",
            "a tolerance",
            0,
            args.tolerance,
        ));
    }
    Ok((reference, candidates))
}

/// Runs `dicelens bench oracles`.
pub fn oracles(args: &OraclesArgs) -> Result<(), CliError> {
    let (reference, candidates) = specs(args)?;
    let options = args.filter.reading(&args.format, None)?;
    let files = args.format.paths(&args.files)?;
    let request = OraclesRequest {
        files: &files,
        options: &options,
        reference,
        candidates: &candidates,
        min_games: args.min_games,
        tables: args.tables.tables.as_deref(),
    };
    let measured = measure(&request, &Bar::new()).map_err(CliError::failure)?;
    let out = if args.json {
        bench_json(
            &measured.reference,
            &measured.candidates,
            args.min_games,
            args.tolerance,
        )
    } else {
        bench_text(
            &measured.reference,
            &measured.candidates,
            args.min_games,
            args.tolerance,
        )
    };
    print_stdout(&out)
}

//! `dicelens bench oracles`: rates one corpus with a reference oracle and with each candidate,
//! timing each in the same run, and shows how far each candidate's errors are from the
//! reference's (per decision, per player, on the leaderboard): what accuracy a setting buys
//! for its cost. The corpus is read once and held in memory; each oracle starts with empty
//! caches, as a fresh `analyze` would, and its tables are loaded before its clock starts.

use super::analyze::Bar;
use super::flags::{not_at_least, FormatFlag, GameFilter, TablesFlag};
use super::{notice, print_stdout, CliError};
use dicelens::compare::{compare, CorpusRating};
use dicelens::pipeline::{
    rate_batch, read_corpus, DecisionSink, OracleRegistry, Progress, RunMeter, BATCH,
};
use dicelens::rate::{OracleSpec, Rated};
use dicelens::replay::Replayed;
use dicelens::report::oracles::{bench_json, bench_text, Measured};
use dicelens::report::Unit;
use dicelens_parsers::GameRecord;
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
    #[arg(long, default_value_t = 50)]
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

/// Every game of the files that replays (and is of the wanted rule set), in corpus order.
fn read_games(args: &OraclesArgs) -> Result<Vec<(GameRecord, Replayed)>, CliError> {
    let options = args.filter.reading(&args.format, None)?;
    let (games, summary) = read_corpus(&args.format.paths(&args.files)?, &options, &Bar::new())
        .map_err(CliError::failure)?;
    notice(summary.report().trim_end());
    if games.is_empty() {
        return Err(CliError::failure("no game to rate"));
    }
    Ok(games)
}

/// Each rated game's decision errors, by the game's place in the corpus.
struct Errors(Vec<Option<Vec<f64>>>);

impl DecisionSink for Errors {
    type Part = Vec<(usize, Vec<f64>)>;
    fn game(&self, index: usize, _: &GameRecord, rated: &[Rated], part: &mut Self::Part) {
        part.push((index, rated.iter().map(|r| r.error).collect()));
    }
    fn part(&mut self, part: Self::Part) {
        for (index, errors) in part {
            self.0[index] = Some(errors);
        }
    }
}

/// Rates every game with `spec`: tables loaded first, then the rating timed.
fn rate(
    games: &[(GameRecord, Replayed)],
    spec: OracleSpec,
    args: &OraclesArgs,
) -> Result<CorpusRating, CliError> {
    let mut tables = OracleRegistry::new(args.tables.tables.as_deref(), spec);
    tables
        .load_for(games, &Bar::new())
        .map_err(CliError::failure)?;
    notice(&format!("rating {} games with {spec}", games.len()));
    let bar = Bar::new();
    let meter = std::sync::Arc::new(RunMeter::for_games(games.len() as u64));
    bar.start(&meter);
    let mut rating = CorpusRating::default();
    let mut errors = Errors(vec![None; games.len()]);
    let mut not_rated = Vec::new();
    let start = std::time::Instant::now();
    for (b, batch) in games.chunks(BATCH).enumerate() {
        rate_batch(
            tables.oracle(),
            batch,
            b * BATCH,
            &mut errors,
            &mut rating.aggregates,
            &mut not_rated,
            &meter,
        )
        .map_err(|e| CliError::failure(format!("{spec}: aggregates: {e}")))?;
    }
    rating.seconds = start.elapsed().as_secs_f64();
    rating.errors = errors.0;
    bar.finish();
    // Freeing the oracle's caches is not part of its time, nor (done here, before the next
    // oracle starts) of the next oracle's.
    drop(tables);
    Ok(rating)
}

/// The unit an oracle rates `rating`'s games in.
fn unit(rating: &CorpusRating) -> Unit {
    rating.aggregates.unit()
}

/// Runs `dicelens bench oracles`.
pub fn oracles(args: &OraclesArgs) -> Result<(), CliError> {
    let (reference_spec, candidate_specs) = specs(args)?;
    let games = read_games(args)?;
    let reference = rate(&games, reference_spec, args)?;
    let mut candidates = Vec::new();
    for &spec in &candidate_specs {
        let rating = rate(&games, spec, args)?;
        candidates.push((spec, rating));
    }
    let measured = |spec: OracleSpec, rating: &CorpusRating| Measured {
        spec,
        unit: unit(rating),
        games_per_second: rating.games_per_second(),
        speed_ratio: rating.games_per_second() / reference.games_per_second(),
        games: rating.aggregates.games(),
        comparison: compare(&reference, rating, args.min_games),
    };
    let reference_row = measured(reference_spec, &reference);
    let rows: Vec<Measured> = candidates
        .iter()
        .map(|(spec, rating)| measured(*spec, rating))
        .collect();
    let out = if args.json {
        bench_json(&reference_row, &rows, args.min_games, args.tolerance)
    } else {
        bench_text(&reference_row, &rows, args.min_games, args.tolerance)
    };
    print_stdout(&out)
}

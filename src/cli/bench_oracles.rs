//! `dicelens bench oracles`: rates one corpus with a reference oracle and with each candidate,
//! timing each in the same run, and shows how far each candidate's errors are from the
//! reference's (per decision, per player, on the leaderboard): what accuracy a setting buys
//! for its cost. The corpus is read once and held in memory; each oracle starts with empty
//! caches, as a fresh `analyze` would, and its tables are loaded before its clock starts.

use super::analyze::{format_and_rules, rate_batch, wanted_rule_set, Tables, BATCH};
use super::{notice, print_stdout, CliError};
use dicelens::compare::{compare, CorpusRating};
use dicelens::corpus::{CorpusReader, Location};
use dicelens::rate::{OracleSpec, Thresholds};
use dicelens::replay::{ReplayOptions, Replayed};
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
    /// Rate only games of this rule set.
    #[arg(long)]
    pub rules: Option<String>,
    /// Input format: auto (recognised per file), ygn, verhoeff or jsonl.
    #[arg(long, default_value = "auto")]
    pub format: String,
    /// Rate games that ended early (abandoned, timeout, resigned) too.
    #[arg(long)]
    pub include_unfinished: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Table directory (default: $DICELENS_TABLES, else ./tables).
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
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
        return Err(CliError::flag(
            "--tolerance",
            "expected a number of at least 0",
        ));
    }
    Ok((reference, candidates))
}

/// Every game of the files that replays (and is of the wanted rule set), in corpus order.
fn read_corpus(args: &OraclesArgs) -> Result<Vec<(GameRecord, Replayed)>, CliError> {
    let (format, only) = format_and_rules(&args.format, args.rules.as_deref())?;
    let mut reader = CorpusReader::new(ReplayOptions {
        include_unfinished: args.include_unfinished,
    });
    let mut games = Vec::new();
    let mut other_rules: Vec<(String, Location)> = Vec::new();
    for path in &args.files {
        reader.read_path(path, format, |game, replayed| {
            if wanted_rule_set(only, game, replayed.rules, &mut other_rules) {
                games.push((std::mem::take(game), std::mem::take(replayed)));
            }
        });
    }
    let mut summary = reader.summary;
    summary.games_used -= other_rules.len() as u64;
    for (reason, location) in other_rules {
        summary.skip(&reason, location);
    }
    notice(summary.report().trim_end());
    if games.is_empty() {
        return Err(CliError::failure("no game to rate"));
    }
    Ok(games)
}

/// Rates every game with `spec`: tables loaded first, then the rating timed.
fn rate(games: &[(GameRecord, Replayed)], spec: OracleSpec, args: &OraclesArgs) -> CorpusRating {
    let mut tables = Tables::new(args.tables.as_deref(), spec);
    tables.load_for(games);
    notice(&format!("rating {} games with {spec}", games.len()));
    let bar = indicatif::ProgressBar::new(games.len() as u64);
    let mut rating = CorpusRating {
        errors: vec![None; games.len()],
        ..CorpusRating::default()
    };
    let mut not_rated = Vec::new();
    let start = std::time::Instant::now();
    for (b, batch) in games.chunks(BATCH).enumerate() {
        rate_batch(
            &tables.oracle,
            batch,
            Thresholds::default(),
            |i, _, rated, out: &mut Vec<(usize, Vec<f64>)>| {
                out.push((b * BATCH + i, rated.iter().map(|r| r.error).collect()));
            },
            &mut rating.aggregates,
            &mut not_rated,
            |part| {
                for (i, errors) in part {
                    rating.errors[i] = Some(errors);
                }
            },
        );
        bar.inc(batch.len() as u64);
    }
    rating.seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    // Freeing the oracle's caches is not part of its time, nor (done here, before the next
    // oracle starts) of the next oracle's.
    drop(tables);
    rating
}

/// The unit an oracle rates `rating`'s games in.
fn unit(spec: OracleSpec, rating: &CorpusRating) -> Unit {
    Unit::of(spec.is_match_points(), &rating.aggregates)
}

/// Runs `dicelens bench oracles`.
pub fn oracles(args: &OraclesArgs) -> Result<(), CliError> {
    let (reference_spec, candidate_specs) = specs(args)?;
    let games = read_corpus(args)?;
    let reference = rate(&games, reference_spec, args);
    let mut candidates = Vec::new();
    for &spec in &candidate_specs {
        let rating = rate(&games, spec, args);
        candidates.push((spec, rating));
    }
    let measured = |spec: OracleSpec, rating: &CorpusRating| Measured {
        spec,
        unit: unit(spec, rating),
        games_per_second: rating.games_per_second(),
        speed_ratio: rating.games_per_second() / reference.games_per_second(),
        games: rating.aggregates.games,
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

//! `bench oracles`: one corpus rated with a reference oracle and with each candidate, each
//! timed in the same run, and each candidate's errors compared with the reference's (per
//! decision, per player, on the leaderboard). The corpus is read once and held in memory; each
//! oracle starts with empty caches, as a fresh `analyze` would, and its tables are loaded before
//! its clock starts.

use super::BenchError;
use crate::compare::{compare, CorpusRating};
use crate::pipeline::{
    rate_batch, read_corpus, DecisionSink, Options, OracleRegistry, Progress, RunMeter, BATCH,
};
use crate::rate::{OracleSpec, Rated};
use crate::replay::Replayed;
use crate::report::oracles::Measured;
use dicelens_parsers::GameRecord;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What `bench oracles` measures.
pub struct OraclesRequest<'a> {
    /// The log files.
    pub files: &'a [PathBuf],
    /// How they are read (and which games are kept).
    pub options: &'a Options,
    /// The oracle the candidates are measured against.
    pub reference: OracleSpec,
    /// The oracles measured.
    pub candidates: &'a [OracleSpec],
    /// Players with at least this many games are compared.
    pub min_games: u64,
    /// The table directory (`None`: the default one).
    pub tables: Option<&'a Path>,
}

/// The reference and each candidate, measured.
pub struct OraclesMeasured {
    /// The reference, measured against itself.
    pub reference: Measured,
    /// Each candidate, in the order asked.
    pub candidates: Vec<Measured>,
}

/// Each rated game's decision errors, by the game's place in the corpus.
struct Errors(Vec<Option<Vec<f64>>>);

impl DecisionSink for Errors {
    type Chunk = Vec<(usize, Vec<f64>)>;
    fn game(&self, index: usize, _: &GameRecord, rated: &[Rated], chunk: &mut Self::Chunk) {
        chunk.push((index, rated.iter().map(|r| r.error).collect()));
    }
    fn merge_chunk(&mut self, chunk: Self::Chunk) {
        for (index, errors) in chunk {
            self.0[index] = Some(errors);
        }
    }
}

/// Every game of the files that replays (and is of the wanted rule set), in corpus order; the
/// summary of the reading is noted to `progress`.
fn read_games(
    request: &OraclesRequest,
    progress: &dyn Progress,
) -> Result<Vec<(GameRecord, Replayed)>, BenchError> {
    let (games, summary) = read_corpus(request.files, request.options, progress)
        .map_err(|e| BenchError(e.to_string()))?;
    progress.notice(summary.report().trim_end());
    if games.is_empty() {
        return Err(BenchError("no game to rate".into()));
    }
    Ok(games)
}

/// Rates every game with `spec`: tables loaded first, then the rating timed.
fn rate(
    games: &[(GameRecord, Replayed)],
    spec: OracleSpec,
    tables_dir: Option<&Path>,
    progress: &dyn Progress,
) -> Result<CorpusRating, BenchError> {
    let mut tables = OracleRegistry::new(tables_dir, spec);
    tables
        .load_for(games, progress)
        .map_err(|e| BenchError(e.to_string()))?;
    progress.notice(&format!("rating {} games with {spec}", games.len()));
    let meter = Arc::new(RunMeter::for_games(games.len() as u64));
    progress.start(&meter);
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
        .map_err(|e| BenchError(format!("{spec}: aggregates: {e}")))?;
    }
    rating.seconds = start.elapsed().as_secs_f64();
    rating.errors = errors.0;
    progress.finish();
    // Freeing the oracle's caches is not part of its time, nor (done here, before the next
    // oracle starts) of the next oracle's.
    drop(tables);
    Ok(rating)
}

/// Reads the corpus once, rates it with the reference and with each candidate (notices and
/// progress to `progress`), and measures each against the reference: speed, and distance per
/// decision, per player and on the leaderboard.
pub fn oracles(
    request: &OraclesRequest,
    progress: &dyn Progress,
) -> Result<OraclesMeasured, BenchError> {
    let games = read_games(request, progress)?;
    let reference = rate(&games, request.reference, request.tables, progress)?;
    let mut candidates = Vec::new();
    for &spec in request.candidates {
        let rating = rate(&games, spec, request.tables, progress)?;
        candidates.push((spec, rating));
    }
    let measured = |spec: OracleSpec, rating: &CorpusRating| Measured {
        spec,
        unit: rating.aggregates.unit(),
        games_per_second: rating.games_per_second(),
        speed_ratio: rating.games_per_second() / reference.games_per_second(),
        games: rating.aggregates.games(),
        comparison: compare(&reference, rating, request.min_games),
    };
    Ok(OraclesMeasured {
        reference: measured(request.reference, &reference),
        candidates: candidates
            .iter()
            .map(|(spec, rating)| measured(*spec, rating))
            .collect(),
    })
}

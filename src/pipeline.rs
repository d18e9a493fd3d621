//! The analysis pipeline as a library: log files are read and replayed ([`crate::corpus`]),
//! batches of games are rated in parallel ([`rate_batch`]) and added to mergeable
//! `Aggregates`; [`analyze`] does it all and returns an in-memory [`Analysis`], streaming every
//! rated game to a caller's [`DecisionSink`] in corpus order. Nothing here prints: notices
//! (tables being built) and progress go to a caller's [`Progress`].
//!
//! ```no_run
//! use dicelens::pipeline::{analyze, Options};
//! use dicelens::tables::Silent;
//! let options = Options::default();
//! let analysis = analyze(&["games.ygn".into()], &options, &mut (), &Silent).unwrap();
//! println!("{} games rated", analysis.aggregates.games());
//! ```

use crate::aggregate::{GameStats, Overflow, PartKey, Parts, Results};
use crate::corpus::{CorpusReader, InputFormat, Location, ReadLog, SkipReason, Summary};
use crate::game_hash::{content_hash, ContentHash};
use crate::rate::{rate_game, Oracle, OracleSpec, Rated, Thresholds};
pub use crate::registry::OracleRegistry;
use crate::replay::{ReplayOptions, Replayed};
use crate::rules::GameRules;
use crate::tables::TableError;
use dicelens_parsers::{GameRecord, ReadOptions};
use rayon::prelude::*;
use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// Games read before a batch is rated in parallel (bounds memory whatever the corpus size).
pub(crate) const BATCH: usize = 4096;
/// Games of the first batch of a run; each next batch is twice as large, up to `BATCH`.
pub const FIRST_BATCH: usize = 256;
/// Games one worker rates into one partial aggregate.
const CHUNK: usize = 128;

/// Runs `rate` with a memo of `oracle`: one from the oracle's pool ([`Oracle::cache_pool`]),
/// given back after, or a new one when the oracle keeps none.
fn with_cache<O: Oracle + ?Sized, R>(oracle: &O, rate: impl FnOnce(&mut O::Cache) -> R) -> R {
    match oracle.cache_pool() {
        Some(pool) => pool.with(rate),
        None => rate(&mut O::Cache::default()),
    }
}

/// How far a run has gone, counted as it goes (by the reader and the rating workers) and read
/// by a progress display from another thread ([`Progress::start`]): games read and rated, bytes
/// read against the sizes of the inputs, files read.
#[derive(Debug, Default)]
pub struct RunMeter {
    /// Log files the run reads.
    files: usize,
    /// Log files read to their end.
    files_done: AtomicUsize,
    /// Games read that go to be rated.
    games_read: AtomicU64,
    /// Games handed to the oracle and done with.
    games_rated: AtomicU64,
    /// Bytes read of the inputs (compressed bytes for compressed files), shared with the reader.
    bytes_read: Arc<AtomicU64>,
    /// Bytes before the run's byte range: read, but holding no game of the run.
    bytes_before: u64,
    /// The bytes of the run: the sum of the sizes of its inputs (of its byte range), when all
    /// are known (not when one is standard input or a pipe).
    bytes_total: Option<u64>,
    /// When the first batch of games began to be rated.
    rating_began: OnceLock<Instant>,
    /// The games to rate, when known before the run (games held in memory).
    games_known: Option<u64>,
}

/// What a [`RunMeter`] says at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MeterReading {
    /// Log files the run reads.
    pub files: usize,
    /// Log files read to their end.
    pub files_done: usize,
    /// Games read that go to be rated.
    pub games_read: u64,
    /// Games rated.
    pub games_rated: u64,
    /// Bytes of the run read.
    pub(crate) bytes_read: u64,
    /// Bytes of the run, when known.
    pub(crate) bytes_total: Option<u64>,
    /// The games to rate, when known before the run.
    pub(crate) games_known: Option<u64>,
}

impl MeterReading {
    /// The games the run is expected to rate: those known before the run, else the games read
    /// so far scaled by the share of the bytes read (so exact once every byte is read); `None`
    /// when the size of the inputs is not known or nothing is read yet.
    pub fn games_expected(&self) -> Option<u64> {
        if self.games_known.is_some() {
            return self.games_known;
        }
        let total = self.bytes_total?;
        if self.bytes_read == 0 {
            return None;
        }
        if self.bytes_read >= total {
            return Some(self.games_read.max(self.games_rated));
        }
        let scaled = self.games_read as f64 * total as f64 / self.bytes_read as f64;
        Some((scaled.round() as u64).max(self.games_read))
    }
}

impl RunMeter {
    /// A meter for a run over `files`, of the byte `range` of the one file if given: their
    /// sizes are looked up now (unknown for standard input, pipes and FIFOs).
    pub(crate) fn for_files(files: &[PathBuf], range: Option<&Range<u64>>) -> RunMeter {
        let sizes: Option<u64> = files.iter().map(|path| input_size(path)).sum();
        let (bytes_before, bytes_total) = match range {
            Some(range) => (
                range.start,
                sizes.map(|size| size.min(range.end).saturating_sub(range.start)),
            ),
            None => (0, sizes),
        };
        RunMeter {
            files: files.len(),
            bytes_before,
            bytes_total,
            ..RunMeter::default()
        }
    }

    /// A meter for rating `games` games held in memory (no file to read).
    pub(crate) fn for_games(games: u64) -> RunMeter {
        RunMeter {
            games_read: AtomicU64::new(games),
            games_known: Some(games),
            ..RunMeter::default()
        }
    }

    /// The counter of the bytes read, for the reader to add to.
    pub(crate) fn bytes_counter(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.bytes_read)
    }

    /// One more game read, to be rated.
    pub(crate) fn game_read(&self) {
        self.games_read.fetch_add(1, Ordering::Relaxed);
    }

    /// `games` more games rated.
    pub fn games_rated(&self, games: usize) {
        self.games_rated.fetch_add(games as u64, Ordering::Relaxed);
    }

    /// One more file read to its end.
    pub(crate) fn file_done(&self) {
        self.files_done.fetch_add(1, Ordering::Relaxed);
    }

    /// Rating began (the first call counts).
    pub(crate) fn rating_begins(&self) {
        self.rating_began.get_or_init(Instant::now);
    }

    /// When rating began, if it did.
    pub fn rating_began(&self) -> Option<Instant> {
        self.rating_began.get().copied()
    }

    /// The counts now.
    pub fn read(&self) -> MeterReading {
        let read = self.bytes_read.load(Ordering::Relaxed);
        MeterReading {
            files: self.files,
            files_done: self.files_done.load(Ordering::Relaxed),
            games_read: self.games_read.load(Ordering::Relaxed),
            games_rated: self.games_rated.load(Ordering::Relaxed),
            bytes_read: read.saturating_sub(self.bytes_before),
            bytes_total: self.bytes_total,
            games_known: self.games_known,
        }
    }
}

/// The size of the input at `path` if it is a regular file (0 if it cannot be opened: it is
/// skipped); `None` for standard input, pipes and FIFOs, whose size is not known.
fn input_size(path: &Path) -> Option<u64> {
    if path.as_os_str() == "-" {
        return None;
    }
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_file() => Some(metadata.len()),
        Ok(metadata) if crate::files::is_fifo(&metadata) => None,
        _ => Some(0),
    }
}

/// What a run reports as it goes: the table layer's notices and build progress
/// ([`tables::Progress`](crate::tables::Progress)), and how far it has gone.
pub trait Progress: crate::tables::Progress {
    /// The run starts: `meter` counts how far it goes (read it from any thread until
    /// [`Progress::finish`]).
    fn start(&self, _meter: &Arc<RunMeter>) {}
    /// A batch of games was rated: `rated` games have been handed to the oracle so far. Called
    /// between batches, while the file being read is still open (so a test can change files
    /// under the run at a known point).
    fn batch_rated(&self, _rated: usize) {}
    /// The run is over: every game is rated (or the run failed); nothing more is reported.
    fn finish(&self) {}
    /// A phase of a workflow is done (`read, replay and rate`, `rows`...): for a caller timing
    /// the phases of a run.
    fn phase_done(&self, _name: &str) {}
}

impl Progress for crate::tables::Silent {}

/// Where rated games go. Each batch of games is rated in parallel in chunks of consecutive
/// games: [`DecisionSink::game`] is called on the workers for each rated game of a chunk (with
/// the game's index among the games handed to the oracle, counted from 0), in corpus order
/// within the chunk, gathering into the chunk's accumulator, a [`DecisionSink::Chunk`]; the
/// chunks are then handed to [`DecisionSink::merge_chunk`] in corpus order. (So rows are made in parallel and
/// written in game order.)
pub trait DecisionSink: Sync {
    /// What one chunk gathers.
    type Chunk: Default + Send;
    /// One rated game of a chunk: `index` is its place among the games handed to the oracle,
    /// `rated` holds its decisions in order.
    fn game(&self, index: usize, game: &GameRecord, rated: &[Rated], chunk: &mut Self::Chunk);
    /// The next chunk's accumulator, in corpus order.
    fn merge_chunk(&mut self, chunk: Self::Chunk);
}

/// No sink: the games are only aggregated.
impl DecisionSink for () {
    type Chunk = ();
    fn game(&self, _: usize, _: &GameRecord, _: &[Rated], _: &mut ()) {}
    fn merge_chunk(&mut self, _: ()) {}
}

/// Two sinks fed the same games (`analyze`'s CSV rows and its players' worst decisions).
impl<A: DecisionSink, B: DecisionSink> DecisionSink for (A, B) {
    type Chunk = (A::Chunk, B::Chunk);
    fn game(&self, index: usize, game: &GameRecord, rated: &[Rated], chunk: &mut Self::Chunk) {
        self.0.game(index, game, rated, &mut chunk.0);
        self.1.game(index, game, rated, &mut chunk.1);
    }
    fn merge_chunk(&mut self, (a, b): Self::Chunk) {
        self.0.merge_chunk(a);
        self.1.merge_chunk(b);
    }
}

/// Games waiting to be rated. A game is swapped into a slot, and the slot's previous record
/// goes back to the reader to be refilled: no game is copied and no allocation is repeated.
pub(crate) struct GameBatch {
    slots: Vec<(GameRecord, Replayed)>,
    len: usize,
    /// Games the batch takes before it is full.
    limit: usize,
}

impl Default for GameBatch {
    fn default() -> Self {
        GameBatch::with_limit(BATCH)
    }
}

impl GameBatch {
    /// An empty batch that is full at `limit` games.
    pub fn with_limit(limit: usize) -> GameBatch {
        GameBatch {
            slots: Vec::new(),
            len: 0,
            limit,
        }
    }

    /// The batch emptied (its slots stay allocated), full at `limit` games.
    fn emptied(mut self, limit: usize) -> GameBatch {
        self.len = 0;
        self.limit = limit;
        self
    }

    /// Takes `game` and its replay (leaving the contents of a used slot in their place).
    pub fn take(&mut self, game: &mut GameRecord, replayed: &mut Replayed) {
        if self.len == self.slots.len() {
            self.slots.push(Default::default());
        }
        let slot = &mut self.slots[self.len];
        std::mem::swap(&mut slot.0, game);
        std::mem::swap(&mut slot.1, replayed);
        self.len += 1;
    }

    /// Whether the batch holds as many games as it takes ([`BATCH`] unless made smaller).
    pub(crate) fn is_full(&self) -> bool {
        self.len >= self.limit
    }

    /// The games taken since the last [`GameBatch::clear`].
    pub fn games(&self) -> &[(GameRecord, Replayed)] {
        &self.slots[..self.len]
    }

    /// Empties the batch (its slots stay allocated).
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

/// Whether the near-perfect stretches of the screening are kept: unless the hidden switch
/// `DICELENS_NO_SCREENING` is set (to measure their cost, PERFORMANCE.md).
fn keep_stretches() -> bool {
    static KEEP: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *KEEP.get_or_init(|| std::env::var_os("DICELENS_NO_SCREENING").is_none())
}

/// A game the oracle could not rate, with where it is.
fn not_rated_by_oracle(game: &GameRecord) -> (SkipReason, Location) {
    let location = Location {
        file: game.provenance.file.clone(),
        line: game.provenance.line,
        game_id: Some(game.provenance.game_id.clone()),
        detail: "a decision the oracle cannot value".into(),
    };
    (SkipReason::NotRatedByOracle, location)
}

/// Rates a batch of replayed games with any [`Oracle`] (its memos pooled across chunks when it
/// keeps a [`Oracle::cache_pool`]) in parallel, in chunks, each decision classified by the
/// default thresholds of its game's unit ([`Oracle::unit`]): each chunk gives a partial
/// aggregate, what `sink` gathered, and the games the oracle could not rate. Chunks are then
/// taken in order: aggregates merged into `aggregates`, chunks handed to the sink, unrated games
/// added to `not_rated`. `first` is the index the sink gets for the batch's first game; `meter`
/// counts the games rated as each chunk is done. An error if a counter of `aggregates` would
/// overflow (`Aggregates::merge`).
pub fn rate_batch<O: Oracle + ?Sized, S: DecisionSink + ?Sized>(
    oracle: &O,
    batch: &[(GameRecord, Replayed)],
    first: usize,
    sink: &mut S,
    aggregates: &mut Parts,
    not_rated: &mut Vec<(SkipReason, Location)>,
    meter: &RunMeter,
) -> Result<(), Overflow> {
    meter.rating_begins();
    let shared: &S = sink;
    type ChunkResult<P> = (Parts, P, Vec<(SkipReason, Location)>);
    let chunks: Vec<ChunkResult<S::Chunk>> = batch
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            with_cache(oracle, |cache| {
                let mut agg = Parts::default();
                let mut gathered = S::Chunk::default();
                let mut failed = Vec::new();
                let mut rated = Vec::new();
                for (i, (game, replayed)) in chunk.iter().enumerate() {
                    let unit = oracle.unit(replayed.rules, replayed.seats);
                    let thresholds = Thresholds::for_unit(unit);
                    if rate_game(oracle, replayed, &thresholds, cache, &mut rated).is_err() {
                        failed.push(not_rated_by_oracle(game));
                        continue;
                    }
                    let rounds = replayed.rules.map_or(0, |r| r.rounds() as u16);
                    let results = replayed
                        .complete
                        .then(|| Results::of_finals(replayed.finals(), unit));
                    agg.add_game(
                        PartKey { unit, rounds },
                        GameStats {
                            rules: &game.rules,
                            rounds,
                            players: &game.players,
                            date: game.provenance.date.as_deref(),
                            rated: &rated,
                            game_id: keep_stretches().then_some(&*game.provenance.game_id),
                            results: results.as_ref(),
                        },
                    );
                    shared.game(first + c * CHUNK + i, game, &rated, &mut gathered);
                }
                meter.games_rated(chunk.len());
                (agg, gathered, failed)
            })
        })
        .collect();
    for (agg, gathered, failed) in chunks {
        aggregates.merge(&agg)?;
        sink.merge_chunk(gathered);
        not_rated.extend(failed);
    }
    Ok(())
}

/// How a corpus is read and rated.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// How each file's format is found.
    pub format: InputFormat,
    /// How the readers are set up (CSV column names...).
    pub read: ReadOptions,
    /// Only the games of the one file that begin in this byte range (see
    /// `crate::corpus::LogFile::for_each_game_in`).
    pub range: Option<Range<u64>>,
    /// Replay options (unfinished games).
    pub replay: ReplayOptions,
    /// Only games of this rule set are rated (the others are skipped as another rule set).
    pub only: Option<GameRules>,
    /// How games are rated.
    pub oracle: OracleSpec,
    /// Table directory (default: $DICELENS_TABLES, else ./tables).
    pub tables: Option<PathBuf>,
}

/// Why an analysis stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalyzeError {
    /// A byte range after the first of a file that cannot be read now: its games must not be
    /// lost quietly (run it again once the file is readable).
    UnreadableRange(String),
    /// A sum of the aggregates does not fit its counter.
    Overflow(Overflow),
    /// A table the games need cannot be used or built: its path is not a regular file.
    Table(TableError),
    /// The thread reading the logs stopped without finishing (a bug: it is reported, not
    /// hidden).
    ReaderFailed,
}

impl std::fmt::Display for AnalyzeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnalyzeError::UnreadableRange(why) => write!(
                f,
                "{why}: the byte range cannot be read (run it again once the file is readable)"
            ),
            AnalyzeError::Overflow(overflow) => write!(f, "aggregates: {overflow}"),
            AnalyzeError::Table(e) => write!(f, "{e}"),
            AnalyzeError::ReaderFailed => f.write_str("the thread reading the logs failed"),
        }
    }
}

impl std::error::Error for AnalyzeError {}

/// The result of an analysis.
pub struct Analysis {
    /// The statistics of every rated game, one part per unit.
    pub aggregates: Parts,
    /// Games read, used and skipped (the games the oracle could not rate included).
    pub summary: Summary,
    /// The oracle's description.
    pub oracle: String,
    /// The oracle's spec.
    pub spec: OracleSpec,
    /// The thresholds of decisions rated in points (those in match points are classified by
    /// `Thresholds::MATCH_POINTS`).
    pub thresholds: Thresholds,
    /// The oracle and its tables, to rate more games with.
    pub tables: OracleRegistry,
    /// The logs read, in order, with their identities then (for reading games again:
    /// [`rate_games_with_ids`]).
    pub logs: Vec<ReadLog>,
}

impl Analysis {
    /// Games rated.
    pub fn games_rated(&self) -> u64 {
        self.aggregates.games()
    }

    /// Whether some players' totals mix units: one-player games in points and games of several
    /// players in match points.
    pub(crate) fn mixes_units(&self) -> bool {
        self.aggregates.unit() == crate::rate::Unit::Mixed
    }
}

/// A running analysis: the reader (and the ids it has seen), the oracle, the aggregates.
pub struct Analyzer {
    reader: CorpusReader,
    options: Options,
}

impl Analyzer {
    /// An analysis with these options, no game seen yet.
    pub fn new(options: Options) -> Analyzer {
        Analyzer {
            reader: CorpusReader::for_options(options.replay, &options.read),
            options,
        }
    }

    /// Counts `game_id` as seen: a game of that id is skipped as a duplicate (the ids of the
    /// partitions of a corpus before this one).
    pub fn mark_seen(&mut self, game_id: &str) {
        self.reader.mark_seen(game_id);
    }

    /// The options of the analysis.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Reads, replays and rates every game of `files` (of the byte range, if one is given),
    /// handing each rated game to `sink` in corpus order.
    pub fn run<S: DecisionSink + ?Sized>(
        self,
        files: &[PathBuf],
        sink: &mut S,
        progress: &dyn Progress,
    ) -> Result<Analysis, AnalyzeError> {
        let Analyzer {
            mut reader,
            options,
        } = self;
        let meter = Arc::new(RunMeter::for_files(files, options.range.as_ref()));
        reader.count_bytes_in(meter.bytes_counter());
        progress.start(&meter);
        let mut tables = OracleRegistry::new(options.tables.as_deref(), options.oracle);
        let mut aggregates = Parts::default();
        let mut not_rated: Vec<(SkipReason, Location)> = Vec::new();
        let mut handed = 0;
        // The first overflow met (the run reads on, and then fails with it).
        let mut overflow = None;
        // A table that cannot be loaded stops the rating; the file being read is read to its
        // end (its games dropped), and no other file is read.
        let mut table_error: Option<TableError> = None;
        let mut flush = |batch: &mut GameBatch,
                         aggregates: &mut Parts,
                         not_rated: &mut Vec<(SkipReason, Location)>,
                         table_error: &mut Option<TableError>| {
            if table_error.is_some() {
                batch.clear();
                return;
            }
            if let Err(e) = tables.load_for(batch.games(), progress) {
                *table_error = Some(e);
                batch.clear();
                return;
            }
            if let Err(e) = rate_batch(
                tables.oracle(),
                batch.games(),
                handed,
                sink,
                aggregates,
                not_rated,
                &meter,
            ) {
                overflow.get_or_insert(e);
            }
            handed += batch.games().len();
            batch.clear();
            progress.batch_rated(handed);
        };
        // The logs are read and replayed on a thread of their own while the batches read so far
        // are rated: batches go to the rating (at most one waits) and come back to be refilled.
        // The first batches are small, so that rating (and loading the tables) starts early.
        let stop = AtomicBool::new(false);
        let (read, read_not_rated) = std::thread::scope(|scope| {
            let (full_tx, full_rx) = std::sync::mpsc::sync_channel::<GameBatch>(1);
            let (empty_tx, empty_rx) = std::sync::mpsc::channel::<GameBatch>();
            let (reader, options, meter, stop) = (&mut reader, &options, &meter, &stop);
            let reading = scope.spawn(move || {
                let mut limit = FIRST_BATCH;
                let mut batch = GameBatch::with_limit(limit);
                let mut not_rated = Vec::new();
                let read = read_each(
                    reader,
                    files,
                    options,
                    meter,
                    &mut not_rated,
                    |game, replayed, _| {
                        batch.take(game, replayed);
                        if batch.is_full() {
                            limit = (limit * 2).min(BATCH);
                            let next = empty_rx.try_recv().unwrap_or_default();
                            let full = std::mem::replace(&mut batch, next.emptied(limit));
                            if full_tx.send(full).is_err() {
                                return false;
                            }
                        }
                        !stop.load(Ordering::Relaxed)
                    },
                );
                if read.is_ok() {
                    let _ = full_tx.send(batch);
                }
                (read, not_rated)
            });
            for mut batch in full_rx {
                flush(
                    &mut batch,
                    &mut aggregates,
                    &mut not_rated,
                    &mut table_error,
                );
                if table_error.is_some() {
                    stop.store(true, Ordering::Relaxed);
                }
                let _ = empty_tx.send(batch);
            }
            reading
                .join()
                .unwrap_or_else(|_| (Err(AnalyzeError::ReaderFailed), Vec::new()))
        });
        not_rated.extend(read_not_rated);
        progress.finish();
        read?;
        if let Some(e) = table_error {
            return Err(AnalyzeError::Table(e));
        }
        if let Some(e) = overflow {
            return Err(AnalyzeError::Overflow(e));
        }
        let summary = with_not_rated(reader.summary, not_rated);
        Ok(Analysis {
            aggregates,
            summary,
            oracle: tables.oracle().describe(),
            spec: options.oracle,
            thresholds: Thresholds::POINTS,
            tables,
            logs: reader.logs,
        })
    }
}

/// Reads and replays every game of `files` (of the byte range, if one is given) as `options`
/// say, handing `each` the games of the wanted rule set in corpus order; the others go to
/// `not_rated` (which `each` gets too), counting the games and files read in `meter`. Once
/// `each` returns false, no further file is read.
fn read_each(
    reader: &mut CorpusReader,
    files: &[PathBuf],
    options: &Options,
    meter: &RunMeter,
    not_rated: &mut Vec<(SkipReason, Location)>,
    mut each: impl FnMut(&mut GameRecord, &mut Replayed, &mut Vec<(SkipReason, Location)>) -> bool,
) -> Result<(), AnalyzeError> {
    let format = options.format.fixed();
    let mut going = true;
    for path in files {
        if !going {
            break;
        }
        let unread = reader.read_path_in(path, format, options.range.clone(), |game, replayed| {
            if going && wanted_rule_set(options.only, game, replayed.rules, not_rated) {
                meter.game_read();
                going = each(game, replayed, not_rated);
            }
        });
        if let Some(why) = unread {
            return Err(AnalyzeError::UnreadableRange(why));
        }
        meter.file_done();
    }
    Ok(())
}

/// The reading summary with the games read but not rated counted as skipped.
fn with_not_rated(mut summary: Summary, not_rated: Vec<(SkipReason, Location)>) -> Summary {
    summary.games_used = summary.games_used.saturating_sub(not_rated.len() as u64);
    for (reason, location) in not_rated {
        summary.skip(reason, location);
    }
    summary
}

/// Reads and replays every game of `files` as `options` say (its oracle and tables are not
/// used) and keeps in memory, in corpus order, the games to rate; the summary counts the
/// others by reason. For rating one corpus several times ([`rate_batch`]). The games kept
/// count as done for `progress`.
pub(crate) fn read_corpus(
    files: &[PathBuf],
    options: &Options,
    progress: &dyn Progress,
) -> Result<(Vec<(GameRecord, Replayed)>, Summary), AnalyzeError> {
    let mut games = Vec::new();
    let summary = read_games(files, options, progress, |game, replayed| {
        games.push((std::mem::take(game), std::mem::take(replayed)));
    })?;
    Ok((games, summary))
}

/// Reads and replays every game of `files` as `options` say (its oracle and tables are not
/// used), handing `each` every game of the wanted rule set with its replay, in corpus order
/// (both the caller's to take); the summary counts the others by reason. The games handed
/// count as done for `progress`. Nothing is kept: a corpus of any size streams through.
pub(crate) fn read_games(
    files: &[PathBuf],
    options: &Options,
    progress: &dyn Progress,
    mut each: impl FnMut(&mut GameRecord, &mut Replayed),
) -> Result<Summary, AnalyzeError> {
    let mut reader = CorpusReader::for_options(options.replay, &options.read);
    let meter = Arc::new(RunMeter::for_files(files, options.range.as_ref()));
    reader.count_bytes_in(meter.bytes_counter());
    progress.start(&meter);
    meter.rating_begins();
    let mut not_rated = Vec::new();
    let read = read_each(
        &mut reader,
        files,
        options,
        &meter,
        &mut not_rated,
        |game, replayed, _| {
            each(game, replayed);
            meter.games_rated(1);
            true
        },
    );
    progress.finish();
    read?;
    Ok(with_not_rated(reader.summary, not_rated))
}

/// A game read again and rated on its own ([`rate_games_with_ids`]).
pub struct GameRatedAgain {
    /// The oracle's spec (what the game page's `dicelens eval` lines name).
    pub spec: OracleSpec,
    /// The format its file is read as.
    pub format: String,
    /// The game.
    pub game: GameRecord,
    /// Its replay.
    pub replayed: Replayed,
    /// Its rated decisions, in order (those before a decision the oracle cannot value).
    pub rated: Vec<Rated>,
    /// The unit of its values.
    pub unit: crate::rate::Unit,
    /// The thresholds its decisions are classified by.
    pub thresholds: Thresholds,
    /// Why some or all decisions are not rated, if so.
    pub(crate) not_rated: Option<String>,
}

/// The games read again and rated ([`rate_games_with_ids`]), and why any wanted game was not.
pub struct RatedAgain {
    /// The games found unchanged, rated, in corpus order.
    pub games: Vec<GameRatedAgain>,
    /// One line for each log not read again or found changed, and for each wanted game that
    /// changed or could not be found (its page is not written).
    pub missed: Vec<String>,
}

/// Reads the logs of an analysis ([`Analysis::logs`]) again as `options` say and rates, with
/// the oracle of `tables` (the one the analysis used), the games whose ids are keys of
/// `wanted`, each only if its content hash is still the value there: a log replaced or
/// rewritten since the analysis read it gives its games only where they are unchanged. Standard
/// input and FIFOs (read once) are not read again, nor are files that cannot be read now; their
/// games are among [`RatedAgain::missed`]. Reading stops once every game is found.
pub fn rate_games_with_ids(
    logs: &[ReadLog],
    options: &Options,
    wanted: &HashMap<String, ContentHash>,
    tables: &mut OracleRegistry,
    progress: &dyn Progress,
) -> Result<RatedAgain, TableError> {
    let mut reader = CorpusReader::for_options(options.replay, &options.read);
    let mut found = Vec::new();
    let mut missed = Vec::new();
    // The ids found, unchanged or changed.
    let mut settled = std::collections::HashSet::new();
    // Standard input and FIFOs, read once.
    let mut streams: Vec<String> = Vec::new();
    for log in logs {
        if settled.len() >= wanted.len() {
            break;
        }
        let name = log.path.display();
        let Some(identity) = &log.identity else {
            streams.push(name.to_string());
            continue;
        };
        let file = match crate::corpus::LogFile::open_with(
            &log.path,
            options.format.fixed(),
            &options.read,
        ) {
            Ok(file) => file,
            Err(e) => {
                missed.push(format!("{e}: its games get no page"));
                continue;
            }
        };
        if let Some(how) = file.identity().and_then(|now| identity.change_to(now)) {
            missed.push(format!(
                "{name} changed since it was read ({how}): its games are read again only \
                 where unchanged"
            ));
        }
        let format = file.format().to_string();
        reader.read_in(&file, options.range.clone(), |game, replayed| {
            let id = &game.provenance.game_id;
            let Some(&hash) = wanted.get(id) else {
                return;
            };
            if settled.contains(id) || other_rule_set(options.only, game, replayed.rules).is_some()
            {
                return;
            }
            settled.insert(id.clone());
            if content_hash(game) != hash {
                missed.push(format!(
                    "game {id} ({}, line {}) changed since it was rated: it gets no page",
                    game.provenance.file, game.provenance.line
                ));
                return;
            }
            found.push((
                format.clone(),
                std::mem::take(game),
                std::mem::take(replayed),
            ));
        });
    }
    let not_found = wanted.len() - settled.len();
    if not_found > 0 {
        let read_once = match streams.is_empty() {
            true => String::new(),
            false => format!(" ({} read once)", streams.join(", ")),
        };
        missed.push(format!(
            "{not_found} of the {} games to show were not found again{read_once}: they get no \
             page",
            wanted.len()
        ));
    }
    for (_, _, replayed) in &found {
        tables.load_for_game(replayed, progress)?;
    }
    let oracle = tables.oracle();
    let games = found
        .into_par_iter()
        .map(|(format, game, replayed)| {
            with_cache(oracle, |cache| {
                let unit = oracle.unit(replayed.rules, replayed.seats);
                let thresholds = Thresholds::for_unit(unit);
                let mut rated = Vec::new();
                let not_rated = rate_game(oracle, &replayed, &thresholds, cache, &mut rated)
                    .err()
                    .map(|e| e.partly_rated());
                GameRatedAgain {
                    spec: options.oracle,
                    format,
                    game,
                    replayed,
                    rated,
                    unit,
                    thresholds,
                    not_rated,
                }
            })
        })
        .collect();
    Ok(RatedAgain { games, missed })
}

/// Reads, replays and rates every game of `files` as `options` say, handing each rated game
/// to `sink` in corpus order; see [`Analyzer`] to count ids as seen first.
pub fn analyze<S: DecisionSink + ?Sized>(
    files: &[PathBuf],
    options: &Options,
    sink: &mut S,
    progress: &dyn Progress,
) -> Result<Analysis, AnalyzeError> {
    Analyzer::new(options.clone()).run(files, sink, progress)
}

/// Whether a game of rule set `rules` is rated when only rule set `only` (if any) is wanted;
/// if not, the game is recorded in `not_rated`.
fn wanted_rule_set(
    only: Option<GameRules>,
    game: &GameRecord,
    rules: Option<GameRules>,
    not_rated: &mut Vec<(SkipReason, Location)>,
) -> bool {
    match other_rule_set(only, game, rules) {
        Some(skipped) => {
            not_rated.push(skipped);
            false
        }
        None => true,
    }
}

/// Why and where a game of rule set `rules` is skipped when only rule set `only` (if any) is
/// wanted; `None` if it is rated.
pub(crate) fn other_rule_set(
    only: Option<GameRules>,
    game: &GameRecord,
    rules: Option<GameRules>,
) -> Option<(SkipReason, Location)> {
    match (only, rules) {
        (Some(only), Some(r)) if only != r => {
            let location = Location {
                file: game.provenance.file.clone(),
                line: game.provenance.line,
                game_id: Some(game.provenance.game_id.clone()),
                detail: format!("rule set {r}, not {only}"),
            };
            Some((SkipReason::OtherRuleSet, location))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::{MatchOracle, SolitaireOracle};
    use crate::rules::RuleSet;
    use crate::simulate::{players, simulate_batch, Plan};
    use crate::tables::Silent;
    use dicelens_parsers::Format;

    /// Gathers every game id in the order the sink gets them.
    #[derive(Default)]
    struct Ids(Vec<(usize, String)>);

    impl DecisionSink for Ids {
        type Chunk = Vec<(usize, String)>;
        fn game(&self, index: usize, game: &GameRecord, _: &[Rated], chunk: &mut Self::Chunk) {
            chunk.push((index, game.provenance.game_id.clone()));
        }
        fn merge_chunk(&mut self, chunk: Self::Chunk) {
            self.0.extend(chunk);
        }
    }

    #[test]
    fn analysis_is_the_same_whatever_the_thread_count() {
        let rules = RuleSet::Yahtzee;
        let table = crate::solve::expected::build_table(rules, &|_, _| {});
        let dir = tempfile::tempdir().unwrap();
        crate::tables::write_expected(dir.path(), rules, &table).unwrap();
        let plan = Plan {
            rules,
            seats: 1,
            players: 5,
            games: 300,
            seed: 21,
            ..Plan::default()
        };
        let mut bytes = Vec::new();
        for g in simulate_batch(&table, &plan, &players(&plan), 0..plan.games) {
            Format::Ygn.write_game(&g.record, &mut bytes).unwrap();
        }
        let corpus = dir.path().join("corpus.ygn");
        std::fs::write(&corpus, bytes).unwrap();
        let options = Options {
            oracle: OracleSpec::SOLITAIRE,
            tables: Some(dir.path().to_path_buf()),
            ..Options::default()
        };
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let mut ids = Ids::default();
                let analysis =
                    analyze(std::slice::from_ref(&corpus), &options, &mut ids, &Silent).unwrap();
                (analysis.aggregates, analysis.summary.games_used, ids.0)
            })
        };
        let (one, used, ids) = run(1);
        assert_eq!(one.games(), 300);
        assert_eq!(used, 300);
        assert_eq!(ids.len(), 300);
        assert!(ids.iter().enumerate().all(|(i, (index, _))| *index == i));
        for threads in [2, 3] {
            let (aggregates, _, other_ids) = run(threads);
            assert_eq!(aggregates, one, "{threads} threads");
            assert_eq!(other_ids, ids, "{threads} threads");
        }
    }

    /// Gathers every rated decision in the order the sink gets them.
    #[derive(Default)]
    struct Decisions(Vec<Rated>);

    impl DecisionSink for Decisions {
        type Chunk = Vec<Rated>;
        fn game(&self, _: usize, _: &GameRecord, rated: &[Rated], chunk: &mut Self::Chunk) {
            chunk.extend_from_slice(rated);
        }
        fn merge_chunk(&mut self, chunk: Self::Chunk) {
            self.0.extend(chunk);
        }
    }

    #[test]
    fn any_oracle_rates_a_batch_with_or_without_a_pool_of_memos() {
        let rules = RuleSet::Yahtzee;
        let table = crate::solve::expected::build_table(rules, &|_, _| {});
        let plan = Plan {
            rules,
            seats: 1,
            players: 3,
            games: 300,
            seed: 5,
            ..Plan::default()
        };
        let mut batch = Vec::new();
        for game in simulate_batch(&table, &plan, &players(&plan), 0..plan.games) {
            let mut replayed = Replayed::default();
            crate::replay::replay(&game.record, ReplayOptions::default(), &mut replayed).unwrap();
            batch.push((game.record, replayed));
        }
        let tables = || HashMap::from([(rules, table.clone())]);
        // The solitaire oracle keeps no pool; the match oracle pools its memos.
        let solitaire = SolitaireOracle::new(tables());
        let matched = MatchOracle::new(SolitaireOracle::new(tables()), OracleSpec::SOLITAIRE);
        assert!(solitaire.cache_pool().is_none());
        let rate = |oracle: &dyn Fn(&mut Decisions, &mut Parts, &mut Vec<_>)| {
            let (mut sink, mut parts, mut not_rated) = Default::default();
            oracle(&mut sink, &mut parts, &mut not_rated);
            (sink.0, parts, not_rated.len())
        };
        let meter = RunMeter::for_games(batch.len() as u64);
        let by_solitaire = rate(&|sink, parts, not_rated| {
            rate_batch(&solitaire, &batch, 0, sink, parts, not_rated, &meter).unwrap()
        });
        let by_match = rate(&|sink, parts, not_rated| {
            rate_batch(&matched, &batch, 0, sink, parts, not_rated, &meter).unwrap()
        });
        assert_eq!(
            by_solitaire.0.len(),
            batch.iter().map(|(_, r)| r.decisions.len()).sum::<usize>()
        );
        assert_eq!(by_solitaire.2, 0);
        assert!(by_solitaire == by_match);
        // The match oracle's memos came back to its pool, and serve it again.
        let pooled = matched.cache_pool().map_or(0, |pool| pool.len());
        assert!(pooled >= 1, "{pooled}");
        let again = rate(&|sink, parts, not_rated| {
            rate_batch(&matched, &batch, 0, sink, parts, not_rated, &meter).unwrap()
        });
        assert!(again == by_match);
        assert_eq!(meter.read().games_rated, 3 * batch.len() as u64);
    }

    #[test]
    fn other_rule_sets_and_unreadable_ranges_are_reported() {
        let options = Options {
            only: Some(GameRules::Yahtzee(RuleSet::Yatzy)),
            range: Some(10..20),
            ..Options::default()
        };
        let missing = std::path::PathBuf::from("/nonexistent/x.ygn");
        let error = analyze(&[missing], &options, &mut (), &Silent).err();
        assert!(matches!(error, Some(AnalyzeError::UnreadableRange(_))));
    }
}

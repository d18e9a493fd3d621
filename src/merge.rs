//! Merging analyses (`dicelens merge`): the aggregates of several analyses (shards of a corpus,
//! or an earlier run plus new logs) combined as if the union of their games had been analysed
//! at once. A game id rated in more than one analysis is counted once: every later occurrence
//! is read again from its log (found by the absolute path `games.csv` records, else by the path
//! as given), checked to be the game that was counted (its content hash, `crate::game_hash`),
//! rated with the oracle the analyses were rated with, and subtracted ([`merge`]). A duplicate
//! that cannot be subtracted so (its log changed or cannot be found) is an error, unless the
//! merge is forced. The analyses are read back from the files `analyze` wrote
//! ([`Shard::read`]); every sum is checked for overflow.

use crate::aggregate::{Overflow, Parts};
use crate::corpus::fingerprint;
use crate::corpus::{LogFile, SkipReason, Summary, STDIN_NAME};
use crate::game_hash::content_hash;
use crate::output::{check_complete, OutputDir};
use crate::path_name::{name_of_path, path_of_name};
use crate::pipeline::{rate_batch, OracleRegistry, Progress, RunMeter, BATCH};
use crate::rate::{union_of_descriptions, OracleSpec};
use crate::replay::{replay, ReplayOptions, Replayed};
use crate::store::games::{read_game_rows, GameRow, DECISION_COLUMNS, GAME_COLUMNS};
use crate::store::summary::{
    DuplicateGame, MergeFields, NotSubtracted, SummaryFile, ThresholdsJson,
};
use dicelens_parsers::{GameRecord, LineNumber};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// One analysis read back from its directory.
pub struct Shard {
    /// The directory.
    pub dir: PathBuf,
    /// Its `aggregates.json`.
    pub aggregates: Parts,
    /// Its `summary.json`.
    pub summary: SummaryFile,
    /// Its `games.csv` (empty unless read: `Shard::read_with_games`).
    pub games: Vec<GameRow>,
}

/// Why analyses could not be merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// A file of an analysis cannot be read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// `aggregates.json` does not hold aggregates.
    NotAggregates {
        /// The file.
        path: PathBuf,
        /// What the JSON reader says.
        why: String,
    },
    /// `summary.json` is not the summary of an analysis.
    NotSummary {
        /// The file.
        path: PathBuf,
        /// What the JSON reader says.
        why: String,
    },
    /// `games.csv` is not a list of games (the message names the file and line).
    NotGames(String),
    /// The summary names an oracle spec that does not parse.
    BadOracleSpec(String),
    /// No analysis to merge.
    NoAnalysis,
    /// A sum does not fit its counter.
    Overflow {
        /// What was being added (`DIR/aggregates.json`).
        what: String,
        /// The counter.
        overflow: Overflow,
    },
    /// Duplicates that cannot be subtracted (their logs changed or cannot be found), without
    /// [`MergeOptions::force`]: the merged counts would be wrong.
    NotSubtracted(Vec<NotSubtracted>),
    /// Two analyses rated by different oracles (`merged_oracle`): their numbers are not
    /// comparable.
    DifferentOracles {
        /// The one before.
        first: PathBuf,
        /// How it was rated (`oracle SPEC (DESCRIPTION)`, and the thresholds when they differ).
        first_rated: String,
        /// The other.
        other: PathBuf,
        /// How that one was rated.
        other_rated: String,
    },
    /// A directory is not the complete output of a run (the message says why).
    Incomplete(String),
    /// The analyses are not those of partitions of one corpus (`merge --partitions`): they
    /// were analysed differently, or rate a game twice, or a file of theirs is cut short.
    NotPartitions(String),
    /// An output cannot be opened or written (the message names it).
    Write(String),
}

/// Duplicates listed one by one in [`MergeError::NotSubtracted`]'s message.
const LISTED: usize = 10;

impl MergeError {
    /// The overflow met adding the file `file` of the analysis in `dir` to those before it.
    pub fn overflow(dir: &Path, file: &str, overflow: Overflow) -> MergeError {
        MergeError::Overflow {
            what: dir.join(file).display().to_string(),
            overflow,
        }
    }
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Unreadable { path, why } => {
                write!(f, "cannot read {}: {why}", path.display())
            }
            MergeError::NotAggregates { path, why } => {
                write!(f, "{}: not aggregates: {why}", path.display())
            }
            MergeError::NotSummary { path, why } => {
                write!(
                    f,
                    "{}: not the summary of an analysis: {why}",
                    path.display()
                )
            }
            MergeError::NotGames(why)
            | MergeError::Incomplete(why)
            | MergeError::NotPartitions(why)
            | MergeError::Write(why) => f.write_str(why),
            MergeError::BadOracleSpec(why) => write!(f, "summary.json: oracle_spec: {why}"),
            MergeError::NoAnalysis => f.write_str("no analysis to merge"),
            MergeError::Overflow { what, overflow } => write!(
                f,
                "{what}: added to the analyses before it, {overflow}: these counts cannot be \
                 merged"
            ),
            MergeError::DifferentOracles {
                first,
                first_rated,
                other,
                other_rated,
            } => write!(
                f,
                "{} was rated with {first_rated} and {} with {other_rated}: analyses rated by \
                 different oracles cannot be merged (their numbers are not comparable); analyse \
                 them again with the same --oracle",
                first.display(),
                other.display()
            ),
            MergeError::NotSubtracted(list) => {
                write!(
                    f,
                    "{} duplicate game{} cannot be subtracted, so the merged counts would be \
                     wrong (--force merges anyway, leaving {} counted twice and listed in \
                     summary.json):",
                    list.len(),
                    if list.len() == 1 { "" } else { "s" },
                    if list.len() == 1 { "it" } else { "them" },
                )?;
                for d in list.iter().take(LISTED) {
                    write!(f, "\n  {}: {}", d.shard, d.detail)?;
                }
                if list.len() > LISTED {
                    write!(f, "\n  and {} more", list.len() - LISTED)?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for MergeError {}

impl Shard {
    /// Reads `aggregates.json` and `summary.json` of the analysis in `dir`.
    pub fn read(dir: &Path) -> Result<Shard, MergeError> {
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read_to_string(&path).map_err(|e| MergeError::Unreadable {
                path,
                why: e.to_string(),
            })
        };
        let aggregates: Parts = serde_json::from_str(&read("aggregates.json")?).map_err(|e| {
            MergeError::NotAggregates {
                path: dir.join("aggregates.json"),
                why: e.to_string(),
            }
        })?;
        let summary =
            SummaryFile::parse(&read("summary.json")?).map_err(|e| MergeError::NotSummary {
                path: dir.join("summary.json"),
                why: e.to_string(),
            })?;
        Ok(Shard {
            dir: dir.to_path_buf(),
            aggregates,
            summary,
            games: Vec::new(),
        })
    }

    /// Reads the analysis in `dir` with its `games.csv` (which [`merge`] needs to find the
    /// games rated twice).
    pub(crate) fn read_with_games(dir: &Path) -> Result<Shard, MergeError> {
        let mut shard = Shard::read(dir)?;
        read_game_rows(&dir.join("games.csv"), |row| shard.games.push(row))
            .map_err(MergeError::NotGames)?;
        Ok(shard)
    }

    /// The oracle the analysis was rated with ([`SummaryFile::oracle_spec`]).
    pub fn oracle(&self) -> Result<OracleSpec, MergeError> {
        self.summary
            .oracle_spec()
            .map_err(MergeError::BadOracleSpec)
    }

    /// The name the merged summary gives the analysis: its directory
    /// ([`crate::path_name`]).
    fn name(&self) -> String {
        name_of_path(&self.dir)
    }
}

/// Analyses merged: what an analysis of the union of their games gives.
pub struct Merged {
    /// The statistics, duplicates subtracted.
    pub aggregates: Parts,
    /// Games read and skipped.
    pub summary: Summary,
    /// `summary.json`: the counts, the oracle as the analyses name it, and what was merged
    /// (the duplicates, those that could not be subtracted, the analyses).
    pub summary_file: SummaryFile,
    /// The `games.csv` rows of every analysis in order, but the duplicates subtracted.
    pub games: Vec<GameRow>,
}

/// How analyses are merged.
#[derive(Clone, Debug, Default)]
pub struct MergeOptions {
    /// Table directory (default: $DICELENS_TABLES, else ./tables), to rate duplicates again.
    pub tables: Option<PathBuf>,
    /// Merge even if some duplicates cannot be subtracted: they stay counted twice, and are
    /// listed (notices, and `duplicates_not_subtracted` in the summary).
    pub force: bool,
}

/// Merges the analyses of consecutive partitions of one corpus, in corpus order (`merge
/// --partitions`: whole files, and byte ranges of files, analysed with the same flags, each
/// with `--seen-ids` the ids of the partitions before it) into exactly the outputs of one
/// analysis of the corpus. Checks that they were analysed alike and rate each game id once,
/// then opens the output directory `out` ([`OutputDir::open`]) and writes `games.csv` (and
/// `decisions.csv`) there, the rows of every partition in order; the rest of the files are
/// made from the [`Merged`] returned (whose `games` is empty: `games.csv` is written).
pub fn merge_partitions(shards: &[Shard], out: &Path) -> Result<(OutputDir, Merged), MergeError> {
    let Some(first) = shards.first() else {
        return Err(MergeError::NoAnalysis);
    };
    let settings = settings(first)?;
    for shard in shards.iter().skip(1) {
        let theirs = self::settings(shard)?;
        if let Some((field, ours, theirs)) = differing_field(&settings, &theirs) {
            return Err(MergeError::NotPartitions(format!(
                "{} and {} were analysed differently ({field}: {ours} against {theirs}): \
                 partitions must be analysed with the same flags and the same dicelens",
                first.dir.display(),
                shard.dir.display(),
            )));
        }
    }
    // The oracle of every rule set some partition met (one that rated no game names none).
    let oracle = merged_oracle(shards)?;
    let decisions = with_decisions(shards)?;
    check_partition(shards)?;
    let mut out = OutputDir::open(out).map_err(write_error)?;
    let mut summary = Summary::default();
    let mut aggregates = Parts::default();
    for shard in shards {
        let overflow = |file, e| MergeError::overflow(&shard.dir, file, e);
        aggregates
            .merge(&shard.aggregates)
            .map_err(|e| overflow("aggregates.json", e))?;
        shard
            .summary
            .add_to(&mut summary)
            .map_err(|e| overflow("summary.json", e))?;
    }
    summary.games_used = aggregates.games();
    concatenate(shards, &mut out, "games.csv", GAME_COLUMNS)?;
    if decisions {
        concatenate(shards, &mut out, "decisions.csv", DECISION_COLUMNS)?;
    }
    // Everything that says how the shards were rated, as they say it: the summary then has
    // exactly the fields of `analyze`'s.
    let summary_file = SummaryFile {
        oracle,
        ..first.summary.with_counts(&summary, &aggregates)
    };
    let merged = Merged {
        aggregates,
        summary,
        summary_file,
        games: Vec::new(),
    };
    Ok((out, merged))
}

/// An output that cannot be written or opened, as a merge error.
fn write_error(e: impl fmt::Display) -> MergeError {
    MergeError::Write(e.to_string())
}

/// Reads the analysis of every directory (with its `games.csv` when `with_games`: what
/// [`merge`] needs, not [`merge_partitions`]), after checking that each is the complete output
/// of a run (its manifest, and the files it lists with their sizes).
pub fn read_analyses(dirs: &[PathBuf], with_games: bool) -> Result<Vec<Shard>, MergeError> {
    dirs.iter()
        .map(|dir| {
            check_complete(dir).map_err(|e| MergeError::Incomplete(e.to_string()))?;
            if with_games {
                Shard::read_with_games(dir)
            } else {
                Shard::read(dir)
            }
        })
        .collect()
}

/// A later occurrence of a game id already seen: which shard, which row, and why it could not
/// be subtracted (`None` once it was).
struct Duplicate {
    shard: usize,
    row: GameRow,
    problem: Option<String>,
}

/// The oracle description the merge of `shards` names: the union of theirs
/// ([`crate::rate::union_of_descriptions`]: an analysis that rated no game, or no game of a
/// rule set, names no oracle for it). An error ([`MergeError::DifferentOracles`]) naming the
/// first two shards rated by different oracles: another oracle spec, other thresholds, or
/// another description of a part both describe.
pub(crate) fn merged_oracle(shards: &[Shard]) -> Result<String, MergeError> {
    let Some(first) = shards.first() else {
        return Err(MergeError::NoAnalysis);
    };
    let spec = first.oracle()?;
    let mut union = first.summary.oracle.clone();
    for (i, shard) in shards.iter().enumerate().skip(1) {
        let (a, b) = (&first.summary, &shard.summary);
        let thresholds =
            a.thresholds != b.thresholds || a.match_point_thresholds != b.match_point_thresholds;
        let theirs = shard.oracle()?;
        let before = match union_of_descriptions([union.as_str(), b.oracle.as_str()]) {
            Some(more) if theirs == spec && !thresholds => {
                union = more;
                continue;
            }
            // Different descriptions: the first shard before whose description differs.
            None if theirs == spec && !thresholds => shards[..i]
                .iter()
                .find(|s| {
                    union_of_descriptions([s.summary.oracle.as_str(), b.oracle.as_str()]).is_none()
                })
                .unwrap_or(first),
            _ => first,
        };
        let rated = |s: &Shard| {
            let spec = s
                .oracle()
                .map_or_else(|_| "?".into(), |spec| spec.to_string());
            let mut text = format!("oracle {spec} ({})", s.summary.oracle);
            if thresholds {
                text.push_str(&format!(
                    ", class thresholds {}",
                    thresholds_text(&s.summary)
                ));
            }
            text
        };
        return Err(MergeError::DifferentOracles {
            first: before.dir.clone(),
            first_rated: rated(before),
            other: shard.dir.clone(),
            other_rated: rated(shard),
        });
    }
    Ok(union)
}

/// The class thresholds of a summary: `doubtful D, error E, blunder B`, then those of match
/// points in brackets when it has them.
fn thresholds_text(summary: &SummaryFile) -> String {
    let text = |t: ThresholdsJson| {
        format!(
            "doubtful {}, error {}, blunder {}",
            t.doubtful, t.error, t.blunder
        )
    };
    match summary.match_point_thresholds {
        Some(m) => format!("{} (match points: {})", text(summary.thresholds), text(m)),
        None => text(summary.thresholds),
    }
}

/// Merges `shards` (read with `Shard::read_with_games`; at least one): sums their statistics
/// and subtracts every later occurrence of a game id, read again from its log, checked against
/// its content hash, and rated with the shards' oracle. Shards rated by different oracles are
/// an error (`merged_oracle`); ids under which two shards rated different games are
/// reported to `progress` as notices. A duplicate that cannot be subtracted is an error
/// ([`MergeError::NotSubtracted`]), unless `options.force` (then a notice, and listed in the
/// summary); so is a sum that overflows.
pub fn merge(
    shards: &[Shard],
    options: &MergeOptions,
    progress: &dyn Progress,
) -> Result<Merged, MergeError> {
    let Some(first) = shards.first() else {
        return Err(MergeError::NoAnalysis);
    };
    let oracle = merged_oracle(shards)?;
    let mut summary = Summary::default();
    let mut aggregates = Parts::default();
    // Game id -> its first row and the shards it was rated in, in order of first appearance.
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut seen_in: Vec<(&GameRow, Vec<usize>)> = Vec::new();
    let mut duplicates: Vec<Duplicate> = Vec::new();
    for (i, shard) in shards.iter().enumerate() {
        aggregates
            .merge(&shard.aggregates)
            .map_err(|e| MergeError::overflow(&shard.dir, "aggregates.json", e))?;
        shard
            .summary
            .add_to(&mut summary)
            .map_err(|e| MergeError::overflow(&shard.dir, "summary.json", e))?;
        for row in &shard.games {
            match seen.get(row.game_id.as_str()) {
                Some(&at) => {
                    let (first_row, shards_in) = &mut seen_in[at];
                    if let (Some(a), Some(b)) = (first_row.content_hash, row.content_hash) {
                        if a != b {
                            progress.notice(&format!(
                                "game {}: {} and {} rated different games under this id \
                                 (content hashes {a} and {b}); the first is kept, as `analyze` \
                                 keeps the first game of a repeated id",
                                row.game_id,
                                shards[shards_in[0]].name(),
                                shard.name(),
                            ));
                        }
                    }
                    shards_in.push(i);
                    duplicates.push(Duplicate {
                        shard: i,
                        row: row.clone(),
                        problem: None,
                    });
                }
                None => {
                    seen.insert(&row.game_id, seen_in.len());
                    seen_in.push((row, vec![i]));
                }
            }
        }
    }
    let spec = first.oracle()?;
    let mut tables = OracleRegistry::new(options.tables.as_deref(), spec);
    subtract_duplicates(
        shards,
        &mut duplicates,
        &mut tables,
        &mut aggregates,
        progress,
    )?;
    let mut not_subtracted = Vec::new();
    for d in &duplicates {
        if let Some(problem) = &d.problem {
            not_subtracted.push(NotSubtracted {
                detail: problem.clone(),
                file: d.row.file.clone(),
                game_id: d.row.game_id.clone(),
                line: d.row.line,
                shard: shards[d.shard].name(),
            });
        }
    }
    if !not_subtracted.is_empty() && !options.force {
        return Err(MergeError::NotSubtracted(not_subtracted));
    }
    for d in &not_subtracted {
        progress.notice(&format!(
            "duplicate not subtracted (counted twice): {}: {}",
            d.shard, d.detail
        ));
    }
    let subtracted = (duplicates.len() - not_subtracted.len()) as u64;
    summary.games_read = summary.games_read.saturating_sub(subtracted);
    summary.games_used = aggregates.games();
    let games = rows_kept(shards, &duplicates);
    let duplicate_list: Vec<DuplicateGame> = seen_in
        .iter()
        .filter(|(_, at)| at.len() > 1)
        .map(|(row, at)| DuplicateGame {
            game_id: row.game_id.clone(),
            shards: at.iter().map(|&i| shards[i].name()).collect(),
        })
        .collect();
    if !duplicate_list.is_empty() {
        progress.notice(&duplicates_notice(&duplicate_list, subtracted));
    }
    // The oracle's parameters, as the shards name them (a later merge rates duplicates again
    // with them).
    let summary_file = SummaryFile {
        oracle,
        oracle_spec: Some(spec.to_string()),
        thresholds: first.summary.thresholds,
        match_point_thresholds: first.summary.match_point_thresholds,
        ..SummaryFile::counts(&summary, &aggregates)
    }
    .merged(MergeFields {
        duplicates: duplicate_list,
        duplicates_not_subtracted: not_subtracted,
        merged: shards.iter().map(Shard::name).collect(),
    });
    Ok(Merged {
        aggregates,
        summary,
        summary_file,
        games,
    })
}

/// Game ids listed in the notice of the duplicates found by a merge.
const DUPLICATES_SHOWN: usize = 5;

/// The notice of the game ids rated in more than one analysis: how many, how many later
/// occurrences were subtracted, and the first few ids with the analyses that rated them.
fn duplicates_notice(duplicates: &[DuplicateGame], subtracted: u64) -> String {
    let shown: Vec<String> = duplicates
        .iter()
        .take(DUPLICATES_SHOWN)
        .map(|d| format!("{} ({})", d.game_id, d.shards.join(", ")))
        .collect();
    let more = duplicates.len().saturating_sub(DUPLICATES_SHOWN);
    format!(
        "{} game id{} rated in more than one analysis ({subtracted} later occurrence{} \
         subtracted; all in summary.json, duplicates): {}{}",
        duplicates.len(),
        if duplicates.len() == 1 { "" } else { "s" },
        if subtracted == 1 { "" } else { "s" },
        shown.join("; "),
        if more > 0 {
            format!("; and {more} more")
        } else {
            String::new()
        }
    )
}

/// Every shard's `games.csv` rows in order, but the duplicates subtracted.
fn rows_kept(shards: &[Shard], duplicates: &[Duplicate]) -> Vec<GameRow> {
    let mut subtracted: HashMap<(usize, &GameRow), usize> = HashMap::new();
    for d in duplicates.iter().filter(|d| d.problem.is_none()) {
        *subtracted.entry((d.shard, &d.row)).or_default() += 1;
    }
    let mut kept = Vec::new();
    let mut first_seen: HashSet<&str> = HashSet::new();
    for (i, shard) in shards.iter().enumerate() {
        for row in &shard.games {
            let first = first_seen.insert(&row.game_id);
            if !first {
                if let Some(n) = subtracted.get_mut(&(i, row)).filter(|n| **n > 0) {
                    *n -= 1;
                    continue;
                }
            }
            kept.push(row.clone());
        }
    }
    kept
}

/// Duplicates read again, waiting to be rated and subtracted in one batch.
struct Subtraction<'a> {
    tables: &'a mut OracleRegistry,
    aggregates: &'a mut Parts,
    progress: &'a dyn Progress,
    /// The games read again.
    batch: Vec<(GameRecord, Replayed)>,
    /// `indices[i]` is the duplicate of `batch[i]`.
    indices: Vec<usize>,
    /// The first overflow met rating them.
    overflow: Option<Overflow>,
}

impl Subtraction<'_> {
    /// Rates the batch and subtracts the games rated. Duplicates whose game the oracle cannot
    /// rate get a problem.
    fn flush(&mut self, duplicates: &mut [Duplicate]) {
        if let Err(e) = self.tables.load_for(&self.batch, self.progress) {
            for &k in &self.indices {
                if let Some(d) = duplicates.get_mut(k) {
                    d.problem = Some(e.to_string());
                }
            }
            self.batch.clear();
            self.indices.clear();
            return;
        }
        let mut one = Parts::default();
        let mut not_rated = Vec::new();
        let oracle = self.tables.oracle();
        let meter = RunMeter::default();
        let rated = rate_batch(
            oracle,
            &self.batch,
            0,
            &mut (),
            &mut one,
            &mut not_rated,
            &meter,
        );
        if let Err(e) = rated {
            self.overflow.get_or_insert(e);
        }
        self.aggregates.subtract(&one);
        // The games the oracle could not rate, by where they are.
        let failed: HashSet<(&str, LineNumber, Option<&str>)> = not_rated
            .iter()
            .filter(|(reason, _)| *reason == SkipReason::NotRatedByOracle)
            .map(|(_, l)| (l.file.as_str(), l.line, l.game_id.as_deref()))
            .collect();
        for (i, &k) in self.indices.iter().enumerate() {
            let (Some(d), Some((game, _))) = (duplicates.get_mut(k), self.batch.get(i)) else {
                continue;
            };
            let p = &game.provenance;
            if failed.contains(&(p.file.as_str(), p.line, Some(p.game_id.as_str()))) {
                d.problem = Some(format!(
                    "{}: game {} at line {}: the oracle cannot rate it again",
                    d.row.file, d.row.game_id, d.row.line
                ));
            }
        }
        self.batch.clear();
        self.indices.clear();
    }
}

/// Opens the log of `row` where it can be found: its absolute path when it was analysed, else
/// its path as given (from the current directory); the games are named as they were then.
/// `Err` says where it was looked for and why it could not be opened there.
fn open_log(row: &GameRow) -> Result<LogFile, String> {
    if row.file == STDIN_NAME {
        return Err(format!(
            "{}: read from standard input, which cannot be read again",
            row.file
        ));
    }
    let mut tried = Vec::new();
    for path in [row.absolute_path.as_str(), row.file.as_str()] {
        if path.is_empty() || tried.iter().any(|(p, _)| *p == path) {
            continue;
        }
        match LogFile::open(&path_of_name(path), None) {
            Ok(log) => return Ok(log.named(&row.file)),
            Err(why) => tried.push((path, why.to_string())),
        }
    }
    let tried: Vec<String> = tried.into_iter().map(|(_, why)| why).collect();
    Err(format!(
        "cannot find the log {}: {}",
        row.file,
        tried.join("; ")
    ))
}

/// Reads every duplicate occurrence again from its log, checks that it is the game counted
/// (content hash), and subtracts it from `aggregates`; each log is read once. A duplicate that
/// cannot be subtracted keeps a problem saying why.
fn subtract_duplicates(
    shards: &[Shard],
    duplicates: &mut [Duplicate],
    tables: &mut OracleRegistry,
    aggregates: &mut Parts,
    progress: &dyn Progress,
) -> Result<(), MergeError> {
    // By log: its name and absolute path (two analyses run from different directories may
    // name different logs alike).
    let mut by_log: Vec<((String, String), Vec<usize>)> = Vec::new();
    for (k, d) in duplicates.iter_mut().enumerate() {
        if d.row.content_hash.is_none() {
            d.problem = Some(format!(
                "{}: no content hash for game {} (games.csv written by an older dicelens): \
                 cannot check that {} has not changed since its analysis (analyse it again)",
                shards[d.shard].dir.join("games.csv").display(),
                d.row.game_id,
                d.row.file
            ));
            continue;
        }
        let log = (d.row.file.clone(), d.row.absolute_path.clone());
        match by_log.iter_mut().find(|(l, _)| *l == log) {
            Some((_, ks)) => ks.push(k),
            None => by_log.push((log, vec![k])),
        }
    }
    let options = ReplayOptions {
        include_unfinished: true,
    };
    let mut pending = Subtraction {
        tables,
        aggregates,
        progress,
        batch: Vec::new(),
        indices: Vec::new(),
        overflow: None,
    };
    for (_, ks) in by_log {
        let Some(&k0) = ks.first() else { continue };
        let log = match open_log(&duplicates[k0].row) {
            Ok(log) => log,
            Err(why) => {
                for &k in &ks {
                    let row = &duplicates[k].row;
                    duplicates[k].problem =
                        Some(format!("game {} at line {}: {why}", row.game_id, row.line));
                }
                continue;
            }
        };
        let mut wanted: HashMap<(LineNumber, String), Vec<usize>> = HashMap::new();
        for &k in &ks {
            let row = &duplicates[k].row;
            wanted
                .entry((row.line, row.game_id.clone()))
                .or_default()
                .push(k);
        }
        let mut replayed = Replayed::default();
        log.for_each_game(|result| {
            let Ok(game) = result else { return };
            let key = (game.provenance.line, game.provenance.game_id.clone());
            let Some(found) = wanted.remove(&key) else {
                return;
            };
            let hash = content_hash(game);
            let mut same = Vec::new();
            for k in found {
                let d = &mut duplicates[k];
                match d.row.content_hash {
                    Some(counted) if counted == hash => same.push(k),
                    counted => {
                        d.problem = Some(format!(
                            "{} changed since its analysis: game {} at line {} has content \
                             hash {hash}, {} says {}",
                            d.row.file,
                            d.row.game_id,
                            d.row.line,
                            shards[d.shard].dir.join("games.csv").display(),
                            counted.map_or_else(|| "none".to_string(), |h| h.to_string())
                        ));
                    }
                }
            }
            if same.is_empty() {
                return;
            }
            match replay(game, options, &mut replayed) {
                Ok(()) => {
                    for k in same {
                        pending.batch.push((game.clone(), replayed.clone()));
                        pending.indices.push(k);
                    }
                }
                Err(skip) => {
                    for k in same {
                        let row = &duplicates[k].row;
                        duplicates[k].problem = Some(format!(
                            "{}: game {} at line {} does not replay: {skip}",
                            row.file, row.game_id, row.line
                        ));
                    }
                }
            }
            if pending.batch.len() >= BATCH {
                pending.flush(duplicates);
            }
        });
        // The games not found are not there because the log changed: since its analysis, or
        // while it was read again here.
        let changed_while_read = log.changed();
        for k in wanted.into_values().flatten() {
            let row = &duplicates[k].row;
            duplicates[k].problem = Some(changed_while_read.clone().unwrap_or_else(|| {
                format!(
                    "{} changed since its analysis: no game {} at line {} any more ({} says it \
                     was there)",
                    row.file,
                    row.game_id,
                    row.line,
                    shards[duplicates[k].shard].dir.join("games.csv").display()
                )
            }));
        }
    }
    pending.flush(duplicates);
    match pending.overflow {
        Some(overflow) => Err(MergeError::Overflow {
            what: "the duplicate games rated again".into(),
            overflow,
        }),
        None => Ok(()),
    }
}

/// The fields of a shard's `summary.json` that say how it was rated (all but the counts and the
/// oracle's description; see [`SummaryFile::settings`]). An error
/// for a summary that is not `analyze`'s (a merge of overlapping shards), or of another
/// dicelens version.
fn settings(shard: &Shard) -> Result<Vec<(&'static str, String)>, MergeError> {
    let path = shard.dir.join("summary.json");
    let summary = &shard.summary;
    if summary.merged.is_some() {
        return Err(MergeError::NotPartitions(format!(
            "{}: the output of a merge of overlapping analyses, not of `analyze`: --partitions \
             takes the outputs of `analyze` (or of `merge --partitions`)",
            shard.dir.display()
        )));
    }
    let version = env!("CARGO_PKG_VERSION");
    if summary.version != version {
        let theirs = if summary.version.is_empty() {
            "(no version)"
        } else {
            summary.version.as_str()
        };
        return Err(MergeError::NotPartitions(format!(
            "{}: written by dicelens {theirs}, this is {version}: partitions must be analysed and \
             merged by the same dicelens",
            path.display(),
        )));
    }
    Ok(summary.settings())
}

/// The first field (in name order) that two shards' settings do not share, with both values.
fn differing_field<'a>(
    ours: &'a [(&'static str, String)],
    theirs: &'a [(&'static str, String)],
) -> Option<(&'static str, &'a str, &'a str)> {
    ours.iter()
        .zip(theirs)
        .find(|(a, b)| a.1 != b.1)
        .map(|(a, b)| (a.0, a.1.as_str(), b.1.as_str()))
}

/// Whether every shard has `decisions.csv` (`--decisions`); an error when some have it and some
/// do not.
fn with_decisions(shards: &[Shard]) -> Result<bool, MergeError> {
    let has = |shard: &&Shard| shard.dir.join("decisions.csv").is_file();
    match (
        shards.iter().find(has),
        shards.iter().find(|shard| !has(shard)),
    ) {
        (Some(with), Some(without)) => Err(MergeError::NotPartitions(format!(
            "{} has decisions.csv and {} has not: partitions must be analysed with the same \
             flags (--decisions)",
            with.dir.display(),
            without.dir.display()
        ))),
        (with, _) => Ok(with.is_some()),
    }
}

/// Checks that no game id is rated in two shards (or twice in one): partitions of one corpus,
/// each analysed with `--seen-ids`, rate each id once.
fn check_partition(shards: &[Shard]) -> Result<(), MergeError> {
    let mut rated_in: HashMap<u128, usize> = HashMap::new();
    for (i, shard) in shards.iter().enumerate() {
        let mut twice: Option<(String, usize)> = None;
        read_game_rows(&shard.dir.join("games.csv"), |row| {
            if twice.is_none() {
                match rated_in.entry(fingerprint(&row.game_id)) {
                    std::collections::hash_map::Entry::Occupied(before) => {
                        twice = Some((row.game_id, *before.get()));
                    }
                    std::collections::hash_map::Entry::Vacant(slot) => {
                        slot.insert(i);
                    }
                }
            }
        })
        .map_err(MergeError::NotGames)?;
        if let Some((id, before)) = twice {
            return Err(MergeError::NotPartitions(format!(
                "game {id} is rated in {} and in {}: these are not analyses of partitions of one \
                 corpus (analyse each partition with --seen-ids: the ids that `dicelens ids` \
                 prints for the partitions before it)",
                shards[before].dir.display(),
                shard.dir.display()
            )));
        }
    }
    Ok(())
}

/// Writes `name` in `out`: `header`, then the rows of every shard's `name` in shard order (each
/// checked to start with `header`, and copied as it is).
fn concatenate(
    shards: &[Shard],
    out: &mut OutputDir,
    name: &str,
    header: &str,
) -> Result<(), MergeError> {
    let mut file = out.create(name).map_err(write_error)?;
    let path = file.path().to_path_buf();
    let cannot_write =
        |e: std::io::Error| MergeError::Write(format!("cannot write {}: {e}", path.display()));
    writeln!(file, "{header}").map_err(cannot_write)?;
    for shard in shards {
        append_rows(&shard.dir.join(name), header, &mut file, &path)?;
    }
    out.add(file.finish().map_err(write_error)?);
    Ok(())
}

/// Copies the rows of the CSV file at `path` (after its first line, which must be `header`) to
/// `out` (the file `to`); an error if the file does not end with a line end (cut short).
fn append_rows(
    path: &Path,
    header: &str,
    out: &mut impl Write,
    to: &Path,
) -> Result<(), MergeError> {
    let name = path.display();
    let failure = |what: String| MergeError::NotPartitions(format!("{name}: {what}"));
    let file = std::fs::File::open(path).map_err(|e| failure(format!("cannot read: {e}")))?;
    let mut reader = std::io::BufReader::new(file);
    let mut first = String::new();
    reader
        .read_line(&mut first)
        .map_err(|e| failure(format!("cannot read: {e}")))?;
    if first.trim_end_matches(['\n', '\r']) != header {
        return Err(failure(format!(
            "line 1: expected the header {header}, found {:?}",
            first.trim_end()
        )));
    }
    let mut last = b'\n';
    loop {
        let chunk = reader
            .fill_buf()
            .map_err(|e| failure(format!("cannot read: {e}")))?;
        let Some(&end) = chunk.last() else { break };
        out.write_all(chunk)
            .map_err(|e| MergeError::Write(format!("cannot write {}: {e}", to.display())))?;
        last = end;
        let len = chunk.len();
        reader.consume(len);
    }
    if last != b'\n' {
        return Err(failure("the last row is cut short (no line end)".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_hash::ContentHash;
    use crate::store::games::{game_row, GAME_COLUMNS};

    /// A shard with only a summary.
    fn with_summary(json: &str) -> Shard {
        Shard {
            dir: PathBuf::from("a"),
            aggregates: Parts::default(),
            summary: SummaryFile::parse(json).unwrap(),
            games: Vec::new(),
        }
    }

    #[test]
    fn shards_name_their_oracle_by_spec_or_as_before_specs() {
        let spec = |json: &str| with_summary(json).oracle().map(|s| s.to_string());
        assert_eq!(
            spec(r#"{"games_read": 0, "oracle_spec": "emp:1/exact:4"}"#),
            Ok("emp:1/exact:4".into())
        );
        // Before specs, exact values reached the search's leaves.
        assert_eq!(
            spec(r#"{"games_read": 0, "multi_player_method": "emp:1", "exact_free": 8}"#),
            Ok("emp:1/exact:8/exact-leaves".into())
        );
        assert_eq!(
            spec(r#"{"games_read": 0, "multi_player_method": "dynw:2", "exact_free": 0}"#),
            Ok("dynw:2".into())
        );
        assert_eq!(spec(r#"{"games_read": 0}"#), Ok("e".into()));
        let bad = spec(r#"{"games_read": 0, "oracle_spec": "emp:9"}"#).unwrap_err();
        assert!(bad.to_string().contains("oracle_spec"), "{bad}");
    }

    #[test]
    fn games_csv_round_trips_quoted_fields_and_refuses_bad_rows() {
        let mut text = format!("{GAME_COLUMNS}\n");
        let hash = Some(ContentHash(0xfeed));
        game_row(
            &mut text,
            "a,\"b\"",
            "dir/x y.ygn",
            7,
            hash,
            "/abs/dir/x y.ygn",
            "81.791260;",
        );
        game_row(&mut text, "plain", "line\nbreak.ygn", 12, None, "", "");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        std::fs::write(&path, &text).unwrap();
        let mut rows = Vec::new();
        read_game_rows(&path, |row| rows.push(row)).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(
            rows[0],
            GameRow {
                game_id: "a,\"b\"".into(),
                file: "dir/x y.ygn".into(),
                line: 7,
                content_hash: hash,
                absolute_path: "/abs/dir/x y.ygn".into(),
                accuracy: "81.791260;".into(),
            }
        );
        assert!(text.contains(",000000000000feed,"), "{text}");
        assert_eq!(
            (rows[1].file.as_str(), rows[1].line, rows[1].content_hash),
            ("line\nbreak.ygn", 12, None)
        );
        // Rows written back are the same bytes.
        let mut again = format!("{GAME_COLUMNS}\n");
        rows.iter().for_each(|row| row.write(&mut again));
        assert_eq!(again, text);
        // The header of older analyses: no hash, no absolute path.
        std::fs::write(&path, "game_id,file,line\ng,a.ygn,3\n").unwrap();
        let mut old = Vec::new();
        read_game_rows(&path, |row| old.push(row)).unwrap();
        assert_eq!(old[0].content_hash, None);
        assert_eq!(old[0].absolute_path, "");
        // The header before accuracy: none.
        std::fs::write(
            &path,
            "game_id,file,line,content_hash,absolute_path\ng,a.ygn,3,,/a.ygn\n",
        )
        .unwrap();
        let mut unrated = Vec::new();
        read_game_rows(&path, |row| unrated.push(row)).unwrap();
        assert_eq!(
            (
                unrated[0].absolute_path.as_str(),
                unrated[0].accuracy.as_str()
            ),
            ("/a.ygn", "")
        );
        for (bad, says) in [
            (
                format!("{GAME_COLUMNS}\nx,y\n"),
                "line 2: 2 fields, expected 6",
            ),
            (
                format!("{GAME_COLUMNS}\ng,a,1,xyz,,\n"),
                "line 2: content_hash",
            ),
            (
                format!("{GAME_COLUMNS}\ng,a,one,,,\n"),
                "line 2: line: expected",
            ),
            ("id,where\n".to_string(), "line 1: expected the header"),
        ] {
            std::fs::write(&path, bad).unwrap();
            let error = read_game_rows(&path, |_| {}).unwrap_err();
            assert!(error.contains(says), "{error}");
            assert!(error.contains("games.csv"), "{error}");
        }
    }

    /// A shard whose counter is at the u64 maximum, merged with one that adds to it: an error
    /// naming the shard's file and the counter (nothing is read or rated).
    #[test]
    fn counters_that_would_overflow_are_an_error_naming_the_shard() {
        let shard = |dir: &str, games: u64, read: u64| Shard {
            dir: PathBuf::from(dir),
            aggregates: Parts(
                [(
                    crate::aggregate::PartKey {
                        unit: crate::rate::Unit::Points,
                        rounds: 13,
                    },
                    crate::aggregate::Aggregates {
                        games,
                        ..Default::default()
                    },
                )]
                .into(),
            ),
            summary: SummaryFile::parse(&format!(r#"{{"games_read": {read}}}"#)).unwrap(),
            games: Vec::new(),
        };
        let options = MergeOptions::default();
        let silent = &crate::tables::Silent;
        let merged =
            |shards: &[Shard]| merge(shards, &options, silent).map(|m| m.aggregates.games());
        assert_eq!(
            merged(&[shard("a", u64::MAX - 1, 0), shard("b", 1, 0)]),
            Ok(u64::MAX)
        );
        let error = merged(&[shard("a", u64::MAX, 0), shard("b", 1, 0)]).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "{}: added to the analyses before it, the counter points/13.games overflows (the sum does \
                 not fit in 64 bits): these counts cannot be merged",
                Path::new("b").join("aggregates.json").display()
            )
        );
        let error = merged(&[shard("a", 0, u64::MAX), shard("b", 0, 2)]).unwrap_err();
        assert!(
            matches!(&error, MergeError::Overflow { what, overflow }
                if what.ends_with("summary.json") && overflow.counter == "games_read"),
            "{error}"
        );
    }

    #[test]
    fn a_missing_analysis_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let error = Shard::read(dir.path()).err().unwrap();
        assert!(matches!(error, MergeError::Unreadable { .. }));
        assert!(error.to_string().contains("aggregates.json"), "{error}");
    }
}

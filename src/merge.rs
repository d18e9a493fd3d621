//! Merging analyses (`dicelens merge`): the aggregates of several analyses (shards of a corpus,
//! or an earlier run plus new logs) combined as if the union of their games had been analysed
//! at once. A game id rated in more than one analysis is counted once: every later occurrence
//! is read again from its log, rated with the oracle the analyses were rated with, and
//! subtracted ([`merge`]). The analyses are read back from the files `analyze` wrote
//! ([`Shard::read`]).

use crate::aggregate::Aggregates;
use crate::corpus::{LogFile, SkipReason, Summary};
use crate::pipeline::{rate_batch, Progress, Tables, BATCH};
use crate::rate::OracleSpec;
use crate::replay::{replay, ReplayOptions, Replayed};
use crate::report::csv::{read_game_rows, GameRow};
use crate::report::summary::{DuplicateGame, MergeFields, NotSubtracted, SummaryFile};
use dicelens_parsers::{GameRecord, LineNumber};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// One analysis read back from its directory.
pub struct Shard {
    /// The directory.
    pub dir: PathBuf,
    /// Its `aggregates.json`.
    pub aggregates: Aggregates,
    /// Its `summary.json`.
    pub summary: SummaryFile,
    /// Its `games.csv` (empty unless read: [`Shard::read_with_games`]).
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
            MergeError::NotGames(why) => f.write_str(why),
            MergeError::BadOracleSpec(why) => write!(f, "summary.json: oracle_spec: {why}"),
            MergeError::NoAnalysis => f.write_str("no analysis to merge"),
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
        let aggregates: Aggregates =
            serde_json::from_str(&read("aggregates.json")?).map_err(|e| {
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
    pub fn read_with_games(dir: &Path) -> Result<Shard, MergeError> {
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

    /// The name the merged summary gives the analysis: its directory.
    fn name(&self) -> String {
        self.dir.display().to_string()
    }
}

/// Analyses merged: what an analysis of the union of their games gives.
pub struct Merged {
    /// The statistics, duplicates subtracted.
    pub aggregates: Aggregates,
    /// Games read and skipped.
    pub summary: Summary,
    /// `summary.json`: the counts, the oracle as the analyses name it, and what was merged
    /// (the duplicates, those that could not be subtracted, the analyses).
    pub summary_file: SummaryFile,
    /// The `games.csv` rows of every analysis in order, but the duplicates subtracted.
    pub games: Vec<GameRow>,
}

/// A later occurrence of a game id already seen: which shard, which row, and why it could not
/// be subtracted (`None` once it was).
struct Duplicate {
    shard: usize,
    row: GameRow,
    problem: Option<String>,
}

/// Merges `shards` (read with [`Shard::read_with_games`]; at least one): sums their statistics
/// and subtracts every later occurrence of a game id, read again from its log and rated with
/// the first shard's oracle (tables from `tables`, default: $DICELENS_TABLES, else ./tables).
/// Shards rated otherwise than the first, and duplicates that cannot be subtracted, are
/// reported to `progress` as notices (and the latter listed in the summary).
pub fn merge(
    shards: &[Shard],
    tables: Option<&Path>,
    progress: &dyn Progress,
) -> Result<Merged, MergeError> {
    let Some(first) = shards.first() else {
        return Err(MergeError::NoAnalysis);
    };
    let mut summary = Summary::default();
    let mut aggregates = Aggregates::default();
    // Game id -> shards it was rated in, in order of first appearance.
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut seen_in: Vec<(&str, Vec<usize>)> = Vec::new();
    let mut duplicates: Vec<Duplicate> = Vec::new();
    for (i, shard) in shards.iter().enumerate() {
        if shard.summary.oracle != first.summary.oracle
            || shard.summary.thresholds != first.summary.thresholds
        {
            progress.notice(&format!(
                "{}: rated with another oracle or other thresholds than {}",
                shard.dir.display(),
                first.dir.display()
            ));
        }
        aggregates.merge(&shard.aggregates);
        shard.summary.add_to(&mut summary);
        for row in &shard.games {
            match seen.get(row.game_id.as_str()) {
                Some(&at) => {
                    seen_in[at].1.push(i);
                    duplicates.push(Duplicate {
                        shard: i,
                        row: row.clone(),
                        problem: Some(format!("game not found at {}:{}", row.file, row.line)),
                    });
                }
                None => {
                    seen.insert(&row.game_id, seen_in.len());
                    seen_in.push((&row.game_id, vec![i]));
                }
            }
        }
    }
    let spec = first.oracle()?;
    let mut tables = Tables::new(tables, spec);
    subtract_duplicates(&mut duplicates, &mut tables, &mut aggregates, progress);
    summary.games_read = summary.games_read.saturating_sub(duplicates.len() as u64);
    summary.games_used = aggregates.games;
    let mut not_subtracted = Vec::new();
    for d in &duplicates {
        if let Some(problem) = &d.problem {
            progress.notice(&format!(
                "duplicate not subtracted: game {} of {} ({}:{}): {problem}",
                d.row.game_id,
                shards[d.shard].name(),
                d.row.file,
                d.row.line
            ));
            not_subtracted.push(NotSubtracted {
                detail: problem.clone(),
                file: d.row.file.clone(),
                game_id: d.row.game_id.clone(),
                line: d.row.line,
                shard: shards[d.shard].name(),
            });
        }
    }
    let games = rows_kept(shards, &duplicates);
    let duplicate_list: Vec<DuplicateGame> = seen_in
        .iter()
        .filter(|(_, at)| at.len() > 1)
        .map(|(id, at)| DuplicateGame {
            game_id: id.to_string(),
            shards: at.iter().map(|&i| shards[i].name()).collect(),
        })
        .collect();
    // The oracle's parameters, as the shards name them (a later merge rates duplicates again
    // with them).
    let summary_file = SummaryFile {
        oracle: first.summary.oracle.clone(),
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
    tables: &'a mut Tables,
    aggregates: &'a mut Aggregates,
    progress: &'a dyn Progress,
    /// The games read again.
    batch: Vec<(GameRecord, Replayed)>,
    /// `indices[i]` is the duplicate of `batch[i]`.
    indices: Vec<usize>,
}

impl Subtraction<'_> {
    /// Rates the batch and subtracts the games rated. Duplicates whose game the oracle cannot
    /// rate keep a problem.
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
        let mut one = Aggregates::default();
        let mut not_rated = Vec::new();
        let oracle = self.tables.oracle();
        rate_batch(oracle, &self.batch, 0, &mut (), &mut one, &mut not_rated);
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
            d.problem = if failed.contains(&(p.file.as_str(), p.line, Some(p.game_id.as_str()))) {
                Some("the oracle cannot rate it again".into())
            } else {
                None
            };
        }
        self.batch.clear();
        self.indices.clear();
    }
}

/// Reads every duplicate occurrence again from its log and subtracts it from `aggregates`;
/// each log is read once.
fn subtract_duplicates(
    duplicates: &mut [Duplicate],
    tables: &mut Tables,
    aggregates: &mut Aggregates,
    progress: &dyn Progress,
) {
    let mut by_file: Vec<(String, Vec<usize>)> = Vec::new();
    for (k, d) in duplicates.iter().enumerate() {
        match by_file.iter_mut().find(|(f, _)| *f == d.row.file) {
            Some((_, ks)) => ks.push(k),
            None => by_file.push((d.row.file.clone(), vec![k])),
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
    };
    for (file, ks) in by_file {
        let log = match LogFile::open(Path::new(&file), None) {
            Ok(log) => log,
            Err(why) => {
                for &k in &ks {
                    duplicates[k].problem = Some(why.to_string());
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
            match replay(game, options, &mut replayed) {
                Ok(()) => {
                    for k in found {
                        pending.batch.push((game.clone(), replayed.clone()));
                        pending.indices.push(k);
                    }
                }
                Err(skip) => {
                    for k in found {
                        duplicates[k].problem = Some(format!("does not replay: {skip}"));
                    }
                }
            }
            if pending.batch.len() >= BATCH {
                pending.flush(duplicates);
            }
        });
        // The games not found are not there because the log changed, if it did.
        if let Some(change) = log.changed() {
            for k in wanted.into_values().flatten() {
                duplicates[k].problem = Some(change.clone());
            }
        }
    }
    pending.flush(duplicates);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::csv::{game_row, GAME_COLUMNS};

    /// A shard with only a summary.
    fn with_summary(json: &str) -> Shard {
        Shard {
            dir: PathBuf::from("a"),
            aggregates: Aggregates::default(),
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
    fn games_csv_round_trips_quoted_fields_and_refuses_short_rows() {
        let mut text = format!("{GAME_COLUMNS}\n");
        game_row(&mut text, "a,\"b\"", "dir/x y.ygn", 7);
        game_row(&mut text, "plain", "line\nbreak.ygn", 12);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        std::fs::write(&path, text).unwrap();
        let mut rows = Vec::new();
        read_game_rows(&path, |row| rows.push(row)).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(
            (
                rows[0].game_id.as_str(),
                rows[0].file.as_str(),
                rows[0].line
            ),
            ("a,\"b\"", "dir/x y.ygn", 7)
        );
        assert_eq!(
            (rows[1].file.as_str(), rows[1].line),
            ("line\nbreak.ygn", 12)
        );
        std::fs::write(&path, format!("{GAME_COLUMNS}\nx,y\n")).unwrap();
        assert!(read_game_rows(&path, |_| {}).is_err());
    }

    #[test]
    fn a_missing_analysis_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let error = Shard::read(dir.path()).err().unwrap();
        assert!(matches!(error, MergeError::Unreadable { .. }));
        assert!(error.to_string().contains("aggregates.json"), "{error}");
    }
}

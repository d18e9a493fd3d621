//! `dicelens merge`: combine the aggregates of several analyses (shards of a corpus, or an
//! earlier run plus new logs) and regenerate every output from them, as if the union of their
//! games had been analysed at once. A game id rated in more than one input is counted once:
//! every later occurrence is read again from its log, rated, and subtracted.

use super::analyze::{create_dir, write_outputs, Bar, LeaderboardFlags};
use super::flags::TablesFlag;
use super::{notice, CliError};
use dicelens::aggregate::Aggregates;
use dicelens::corpus::{LogFile, SkipReason, Summary};
use dicelens::pipeline::{rate_batch, Tables, BATCH};
use dicelens::rate::OracleSpec;
use dicelens::replay::{replay, ReplayOptions, Replayed};
use dicelens::report::csv::{game_row, read_game_rows, GameRow};
use dicelens::report::summary::{DuplicateGame, MergeFields, NotSubtracted, SummaryFile};
use dicelens::report::AnalysisFiles;
use dicelens_parsers::GameRecord;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// `dicelens merge` flags.
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// Output directories of earlier `analyze` (or `merge`) runs.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Output directory.
    #[arg(long)]
    pub out: PathBuf,
    /// Least games for a player to be on the leaderboard.
    #[arg(long, default_value_t = 500)]
    pub min_games: u64,
    #[command(flatten)]
    pub leaderboard: LeaderboardFlags,
    /// Table directory (default: $DICELENS_TABLES, else ./tables), to rate duplicate games again
    /// (with the oracle the shards were rated with).
    #[command(flatten)]
    pub tables: TablesFlag,
    /// The DIRs are analyses of consecutive partitions of one corpus, in corpus order, made
    /// with the same flags (and --seen-ids): the outputs are those of one `analyze` of the
    /// corpus, byte for byte; a game id rated in two of them is an error.
    #[arg(long)]
    pub partitions: bool,
}

/// One input analysis.
pub(super) struct Shard {
    pub(super) dir: PathBuf,
    pub(super) aggregates: Aggregates,
    pub(super) summary: SummaryFile,
    /// Its `games.csv` (empty unless read: see [`read_shard`]).
    games: Vec<GameRow>,
}

/// A later occurrence of a game id already seen: which shard, which row, and why it could not
/// be subtracted (`None` once it was).
struct Duplicate {
    shard: usize,
    row: GameRow,
    problem: Option<String>,
}

/// Reads `games.csv`: its header, then `game_id,file,line` rows.
fn read_games(path: &Path) -> Result<Vec<GameRow>, String> {
    let mut rows = Vec::new();
    read_game_rows(path, |row| rows.push(row))?;
    Ok(rows)
}

/// Reads one input directory: `aggregates.json`, `summary.json` and `games.csv`.
fn read_shard(dir: &Path) -> Result<Shard, CliError> {
    let mut shard = read_analysis(dir)?;
    shard.games = read_games(&dir.join("games.csv")).map_err(CliError::failure)?;
    Ok(shard)
}

/// Reads `aggregates.json` and `summary.json` of one input directory.
pub(super) fn read_analysis(dir: &Path) -> Result<Shard, CliError> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read_to_string(&path)
            .map_err(|e| CliError::failure(format!("cannot read {}: {e}", path.display())))
    };
    let aggregates: Aggregates = serde_json::from_str(&read("aggregates.json")?).map_err(|e| {
        CliError::failure(format!(
            "{}: not aggregates: {e}",
            dir.join("aggregates.json").display()
        ))
    })?;
    let summary = SummaryFile::parse(&read("summary.json")?).map_err(|e| {
        CliError::failure(format!(
            "{}: not the summary of an analysis: {e}",
            dir.join("summary.json").display()
        ))
    })?;
    Ok(Shard {
        dir: dir.to_path_buf(),
        aggregates,
        summary,
        games: Vec::new(),
    })
}

/// Rates a batch of games read again and subtracts those rated; `indices[i]` is the duplicate
/// of `batch[i]`. Duplicates whose game the oracle cannot rate keep a problem.
fn subtract_batch(
    tables: &mut Tables,
    batch: &mut Vec<(GameRecord, Replayed)>,
    indices: &mut Vec<usize>,
    duplicates: &mut [Duplicate],
    aggregates: &mut Aggregates,
) {
    tables.load_for(batch, &Bar::new());
    let mut one = Aggregates::default();
    let mut not_rated = Vec::new();
    rate_batch(tables.oracle(), batch, 0, &mut (), &mut one, &mut not_rated);
    aggregates.subtract(&one);
    // The games the oracle could not rate, by where they are.
    let failed: HashSet<(&str, u32, Option<&str>)> = not_rated
        .iter()
        .filter(|(reason, _)| *reason == SkipReason::NotRatedByOracle)
        .map(|(_, l)| (l.file.as_str(), l.line, l.game_id.as_deref()))
        .collect();
    for (i, &k) in indices.iter().enumerate() {
        let (Some(d), Some((game, _))) = (duplicates.get_mut(k), batch.get(i)) else {
            continue;
        };
        let p = &game.provenance;
        d.problem = if failed.contains(&(p.file.as_str(), p.line, Some(p.game_id.as_str()))) {
            Some("the oracle cannot rate it again".into())
        } else {
            None
        };
    }
    batch.clear();
    indices.clear();
}

/// Reads every duplicate occurrence again from its log and subtracts it from `aggregates`;
/// each log is read once.
fn subtract_duplicates(
    duplicates: &mut [Duplicate],
    tables: &mut Tables,
    aggregates: &mut Aggregates,
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
    let mut batch: Vec<(GameRecord, Replayed)> = Vec::new();
    let mut indices: Vec<usize> = Vec::new();
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
        let mut wanted: HashMap<(u32, String), Vec<usize>> = HashMap::new();
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
                        batch.push((game.clone(), replayed.clone()));
                        indices.push(k);
                    }
                }
                Err(skip) => {
                    for k in found {
                        duplicates[k].problem = Some(format!("does not replay: {skip}"));
                    }
                }
            }
            if batch.len() >= BATCH {
                subtract_batch(tables, &mut batch, &mut indices, duplicates, aggregates);
            }
        });
    }
    subtract_batch(tables, &mut batch, &mut indices, duplicates, aggregates);
}

/// The oracle a shard was rated with ([`SummaryFile::oracle_spec`]), so that duplicate games
/// are rated again the same way.
fn shard_oracle(summary: &SummaryFile) -> Result<OracleSpec, CliError> {
    summary
        .oracle_spec()
        .map_err(|e| CliError::failure(format!("summary.json: oracle_spec: {e}")))
}

/// Runs `dicelens merge`.
pub fn run(args: Args) -> Result<(), CliError> {
    if args.dirs.is_empty() {
        return Err(CliError::flag("DIR", "at least one analysis directory"));
    }
    if args.partitions {
        return super::partitions::merge(&args);
    }
    let shards = args
        .dirs
        .iter()
        .map(|dir| read_shard(dir))
        .collect::<Result<Vec<Shard>, CliError>>()?;
    create_dir(&args.out)?;
    let first = &shards[0].summary;
    let mut summary = Summary::default();
    let mut aggregates = Aggregates::default();
    // Game id -> shards it was rated in, in order of first appearance.
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut seen_in: Vec<(String, Vec<usize>)> = Vec::new();
    let mut duplicates: Vec<Duplicate> = Vec::new();
    for (i, shard) in shards.iter().enumerate() {
        if shard.summary.oracle != first.oracle || shard.summary.thresholds != first.thresholds {
            notice(&format!(
                "{}: rated with another oracle or other thresholds than {}",
                shard.dir.display(),
                shards[0].dir.display()
            ));
        }
        aggregates.merge(&shard.aggregates);
        shard.summary.add_to(&mut summary);
        for row in &shard.games {
            match seen.get(&row.game_id) {
                Some(&at) => {
                    seen_in[at].1.push(i);
                    duplicates.push(Duplicate {
                        shard: i,
                        row: row.clone(),
                        problem: Some(format!("game not found at {}:{}", row.file, row.line)),
                    });
                }
                None => {
                    seen.insert(row.game_id.clone(), seen_in.len());
                    seen_in.push((row.game_id.clone(), vec![i]));
                }
            }
        }
    }
    let spec = shard_oracle(first)?;
    let mut tables = Tables::new(args.tables.tables.as_deref(), spec);
    subtract_duplicates(&mut duplicates, &mut tables, &mut aggregates);
    summary.games_read = summary.games_read.saturating_sub(duplicates.len() as u64);
    summary.games_used = aggregates.games;
    let shard_name = |i: usize| args.dirs[i].display().to_string();
    let mut not_subtracted = Vec::new();
    for d in &duplicates {
        if let Some(problem) = &d.problem {
            notice(&format!(
                "duplicate not subtracted: game {} of {} ({}:{}): {problem}",
                d.row.game_id,
                shard_name(d.shard),
                d.row.file,
                d.row.line
            ));
            not_subtracted.push(NotSubtracted {
                detail: problem.clone(),
                file: d.row.file.clone(),
                game_id: d.row.game_id.clone(),
                line: d.row.line,
                shard: shard_name(d.shard),
            });
        }
    }
    // games.csv: every row but the duplicates subtracted, in input order.
    let mut subtracted: HashMap<(usize, &GameRow), usize> = HashMap::new();
    for d in duplicates.iter().filter(|d| d.problem.is_none()) {
        *subtracted.entry((d.shard, &d.row)).or_default() += 1;
    }
    let mut games = String::new();
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
            game_row(&mut games, &row.game_id, &row.file, row.line);
        }
    }
    let duplicate_list: Vec<DuplicateGame> = seen_in
        .iter()
        .filter(|(_, at)| at.len() > 1)
        .map(|(id, at)| DuplicateGame {
            game_id: id.clone(),
            shards: at.iter().map(|&i| shard_name(i)).collect(),
        })
        .collect();
    // The oracle's parameters, as the shards name them (a later merge rates duplicates again
    // with them).
    let summary_file = SummaryFile {
        oracle: first.oracle.clone(),
        oracle_spec: Some(spec.to_string()),
        thresholds: first.thresholds,
        match_point_thresholds: first.match_point_thresholds,
        ..SummaryFile::counts(&summary, &aggregates)
    }
    .merged(MergeFields {
        duplicates: duplicate_list,
        duplicates_not_subtracted: not_subtracted,
        merged: (0..shards.len()).map(shard_name).collect(),
    });
    let files = AnalysisFiles {
        aggregates: &aggregates,
        summary: &summary,
        summary_file: &summary_file,
        games: Some(&games),
        min_games: args.min_games,
        top: args.leaderboard.top,
    };
    write_outputs(&args.out, &files, args.leaderboard.json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dicelens::report::csv::GAME_COLUMNS;

    #[test]
    fn shards_name_their_oracle_by_spec_or_as_before_specs() {
        let spec = |json: &str| {
            let summary = SummaryFile::parse(json).unwrap();
            shard_oracle(&summary).map(|s| s.to_string())
        };
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
        assert!(bad.message.contains("oracle_spec"), "{bad}");
    }

    #[test]
    fn csv_round_trips_quoted_fields() {
        let mut text = format!("{GAME_COLUMNS}\n");
        game_row(&mut text, "a,\"b\"", "dir/x y.ygn", 7);
        game_row(&mut text, "plain", "line\nbreak.ygn", 12);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        std::fs::write(&path, text).unwrap();
        let rows = read_games(&path).unwrap();
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
        assert!(read_games(&path).is_err());
    }
}

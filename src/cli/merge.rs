//! `dicelens merge`: combine the aggregates of several analyses (shards of a corpus, or an
//! earlier run plus new logs) and regenerate every output from them, as if the union of their
//! games had been analysed at once. A game id rated in more than one input is counted once:
//! every later occurrence is read again from its log, rated, and subtracted.

use super::analyze::{
    game_row, rate_batch, write_outputs, OutputOptions, Outputs, Tables, BATCH, GAME_COLUMNS,
};
use super::{notice, CliError};
use dicelens::aggregate::Aggregates;
use dicelens::corpus::{Location, LogFile, Summary};
use dicelens::rate::{OracleSpec, Thresholds};
use dicelens::replay::{replay, ReplayOptions, Replayed};
use dicelens_parsers::GameRecord;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The flags of `dicelens merge`.
#[derive(Clone, Debug)]
pub struct MergeArgs {
    /// Output directories of earlier analyses (or merges).
    pub dirs: Vec<PathBuf>,
    /// Output directory.
    pub out: PathBuf,
    /// Least games for the leaderboard.
    pub min_games: u64,
    /// Leaderboard lines printed.
    pub top: usize,
    /// Print the leaderboard as JSON.
    pub json: bool,
    /// Table directory (to rate duplicate games again).
    pub tables: Option<PathBuf>,
    /// The inputs are analyses of consecutive partitions of one corpus (`--partitions`): merged
    /// as one analysis of the corpus, a game id rated in two of them an error.
    pub partitions: bool,
}

/// One row of `games.csv`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct GameRow {
    pub(super) game_id: String,
    file: String,
    line: u32,
}

/// One input analysis.
pub(super) struct Shard {
    pub(super) dir: PathBuf,
    pub(super) aggregates: Aggregates,
    pub(super) summary: Value,
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
    each_game_row(path, |row| rows.push(row))?;
    Ok(rows)
}

/// Calls `each` with every row of `games.csv` at `path` (read as a stream), after checking its
/// header.
pub(super) fn each_game_row(path: &Path, mut each: impl FnMut(GameRow)) -> Result<(), String> {
    let name = path.display();
    let mut reader =
        csv::Reader::from_path(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let header = reader.headers().map_err(|e| format!("{name}: {e}"))?;
    if header.iter().collect::<Vec<_>>().join(",") != GAME_COLUMNS {
        return Err(format!("{name}: the header is not {GAME_COLUMNS}"));
    }
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| format!("{name}: {e}"))?;
        match (record.get(0), record.get(1), record.get(2), record.len()) {
            (Some(game_id), Some(file), Some(line), 3) => each(GameRow {
                game_id: game_id.to_string(),
                file: file.to_string(),
                line: line
                    .parse()
                    .map_err(|_| format!("{name}: row {}: bad line {line:?}", i + 2))?,
            }),
            _ => return Err(format!("{name}: row {}: not 3 fields", i + 2)),
        }
    }
    Ok(())
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
    let summary: Value = serde_json::from_str(&read("summary.json")?).map_err(|e| {
        CliError::failure(format!(
            "{}: not JSON: {e}",
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

/// A skipped game's location as `summary.json` gives it.
fn location(value: &Value) -> Option<Location> {
    Some(Location {
        file: value.get("file")?.as_str()?.to_string(),
        line: u32::try_from(value.get("line")?.as_u64()?).ok()?,
        game_id: value
            .get("game_id")
            .and_then(Value::as_str)
            .map(str::to_string),
        detail: value.get("detail")?.as_str()?.to_string(),
    })
}

/// Adds one input's counts, skipped games and skipped files to `summary` (in input order).
pub(super) fn add_summary(summary: &mut Summary, shard: &Shard) -> Result<(), CliError> {
    let bad = |what: &str| {
        CliError::failure(format!(
            "{}: {what}",
            shard.dir.join("summary.json").display()
        ))
    };
    let s = &shard.summary;
    summary.games_read += s
        .get("games_read")
        .and_then(Value::as_u64)
        .ok_or_else(|| bad("no games_read"))?;
    if let Some(skipped) = s.get("skipped").and_then(Value::as_object) {
        for (reason, places) in skipped {
            for place in places.as_array().into_iter().flatten() {
                summary.skip(
                    reason,
                    location(place).ok_or_else(|| bad("bad skipped entry"))?,
                );
            }
        }
    }
    for why in s
        .get("files_skipped")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        summary.files_skipped.push(
            why.as_str()
                .ok_or_else(|| bad("bad files_skipped"))?
                .to_string(),
        );
    }
    Ok(())
}

/// The thresholds an input was rated with (the defaults if it does not say).
pub(super) fn thresholds(summary: &Value) -> Thresholds {
    let t = &summary["thresholds"];
    let d = Thresholds::default();
    Thresholds {
        doubtful: t["doubtful"].as_f64().unwrap_or(d.doubtful),
        error: t["error"].as_f64().unwrap_or(d.error),
        blunder: t["blunder"].as_f64().unwrap_or(d.blunder),
    }
}

/// Rates a batch of games read again and subtracts those rated; `indices[i]` is the duplicate
/// of `batch[i]`. Duplicates whose game the oracle cannot rate keep a problem.
fn subtract_batch(
    tables: &mut Tables,
    thresholds: Thresholds,
    batch: &mut Vec<(GameRecord, Replayed)>,
    indices: &mut Vec<usize>,
    duplicates: &mut [Duplicate],
    aggregates: &mut Aggregates,
) {
    tables.load_for(batch);
    let mut rated: Vec<usize> = Vec::new();
    let mut one = Aggregates::default();
    let mut not_rated = Vec::new();
    rate_batch(
        &tables.oracle,
        batch,
        thresholds,
        |i, _, _, out: &mut Vec<usize>| out.push(i),
        &mut one,
        &mut not_rated,
        |part| rated.extend(part),
    );
    aggregates.subtract(&one);
    for i in rated {
        if let Some(d) = indices.get(i).and_then(|&k| duplicates.get_mut(k)) {
            d.problem = None;
        }
    }
    for &k in indices.iter() {
        if let Some(d) = duplicates.get_mut(k) {
            if d.problem.as_deref() == Some(FOUND) {
                d.problem = Some("the oracle cannot rate it again".into());
            }
        }
    }
    batch.clear();
    indices.clear();
}

/// The problem of a duplicate found in its log and about to be rated.
const FOUND: &str = "found";

/// Reads every duplicate occurrence again from its log and subtracts it from `aggregates`;
/// each log is read once.
fn subtract_duplicates(
    duplicates: &mut [Duplicate],
    tables: &mut Tables,
    thresholds: Thresholds,
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
                        duplicates[k].problem = Some(FOUND.into());
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
                subtract_batch(
                    tables,
                    thresholds,
                    &mut batch,
                    &mut indices,
                    duplicates,
                    aggregates,
                );
            }
        });
    }
    subtract_batch(
        tables,
        thresholds,
        &mut batch,
        &mut indices,
        duplicates,
        aggregates,
    );
}

/// The oracle a shard was rated with, from its `summary.json`, so that duplicate games are
/// rated again the same way: its `oracle_spec`; in a shard written before specs, its
/// `multi_player_method` and `exact_free` (whose searches valued their leaves exactly), and
/// without those the solitaire oracle.
fn shard_oracle(summary: &serde_json::Value) -> Result<OracleSpec, CliError> {
    let bad = |e: String| CliError::failure(format!("summary.json: oracle_spec: {e}"));
    if let Some(spec) = summary["oracle_spec"].as_str() {
        return spec.parse().map_err(bad);
    }
    let Some(method) = summary["multi_player_method"].as_str() else {
        return Ok(OracleSpec::SOLITAIRE);
    };
    let spec = match summary["exact_free"].as_u64() {
        Some(0) => method.to_string(),
        Some(n) => format!("{method}/exact:{n}/exact-leaves"),
        None => format!("{method}/exact:8/exact-leaves"),
    };
    spec.parse().map_err(bad)
}

/// Runs `dicelens merge`.
pub fn run(args: &MergeArgs) -> Result<(), CliError> {
    if args.dirs.is_empty() {
        return Err(CliError::flag("DIR", "at least one analysis directory"));
    }
    if args.partitions {
        return super::partitions::merge(args);
    }
    let shards = args
        .dirs
        .iter()
        .map(|dir| read_shard(dir))
        .collect::<Result<Vec<Shard>, CliError>>()?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| CliError::failure(format!("cannot create {}: {e}", args.out.display())))?;
    let first = &shards[0].summary;
    let oracle = first["oracle"].as_str().unwrap_or_default().to_string();
    let thresholds = thresholds(first);
    let mut summary = Summary::default();
    let mut aggregates = Aggregates::default();
    // Game id -> shards it was rated in, in order of first appearance.
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut seen_in: Vec<(String, Vec<usize>)> = Vec::new();
    let mut duplicates: Vec<Duplicate> = Vec::new();
    for (i, shard) in shards.iter().enumerate() {
        if shard.summary["oracle"].as_str() != Some(oracle.as_str())
            || thresholds != self::thresholds(&shard.summary)
        {
            notice(&format!(
                "{}: rated with another oracle or other thresholds than {}",
                shard.dir.display(),
                shards[0].dir.display()
            ));
        }
        aggregates.merge(&shard.aggregates);
        add_summary(&mut summary, shard)?;
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
    let mut tables = Tables::new(args.tables.as_deref(), spec);
    subtract_duplicates(&mut duplicates, &mut tables, thresholds, &mut aggregates);
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
            not_subtracted.push(serde_json::json!({
                "game_id": d.row.game_id, "shard": shard_name(d.shard),
                "file": d.row.file, "line": d.row.line, "detail": problem,
            }));
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
    let duplicate_list: Vec<Value> = seen_in
        .iter()
        .filter(|(_, at)| at.len() > 1)
        .map(|(id, at)| {
            serde_json::json!({
                "game_id": id,
                "shards": at.iter().map(|&i| shard_name(i)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut extra = serde_json::Map::new();
    // The oracle's parameters, as the shards name them (a later merge rates duplicates again
    // with them).
    extra.insert("oracle_spec".into(), spec.to_string().into());
    if let Some(value) = first.get("match_point_thresholds") {
        extra.insert("match_point_thresholds".into(), value.clone());
    }
    extra.insert(
        "merged".into(),
        Value::from((0..shards.len()).map(shard_name).collect::<Vec<_>>()),
    );
    extra.insert("duplicates".into(), Value::from(duplicate_list));
    extra.insert(
        "duplicates_not_subtracted".into(),
        Value::from(not_subtracted),
    );
    write_outputs(
        &args.out,
        &Outputs {
            aggregates: &aggregates,
            summary: &summary,
            oracle: &oracle,
            thresholds: &thresholds,
            games: Some(&games),
            summary_extra: extra,
        },
        &OutputOptions {
            min_games: args.min_games,
            top: args.top,
            json: args.json,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_name_their_oracle_by_spec_or_as_before_specs() {
        let spec = |summary: serde_json::Value| shard_oracle(&summary).map(|s| s.to_string());
        assert_eq!(
            spec(serde_json::json!({"oracle_spec": "emp:1/exact:4"})),
            Ok("emp:1/exact:4".into())
        );
        // Before specs, exact values reached the search's leaves.
        assert_eq!(
            spec(serde_json::json!({"multi_player_method": "emp:1", "exact_free": 8})),
            Ok("emp:1/exact:8/exact-leaves".into())
        );
        assert_eq!(
            spec(serde_json::json!({"multi_player_method": "dynw:2", "exact_free": 0})),
            Ok("dynw:2".into())
        );
        assert_eq!(spec(serde_json::json!({})), Ok("e".into()));
        let bad = spec(serde_json::json!({"oracle_spec": "emp:9"})).unwrap_err();
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

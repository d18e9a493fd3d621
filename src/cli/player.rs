//! `dicelens player`: one player's report (text or JSON on stdout, an HTML page in `--out`),
//! from log files (every player is rated, for the percentile; the player's worst decisions are
//! kept) or from an analysis's `aggregates.json` (`--from DIR`, without the worst decisions).
//!
//! Exit codes: 0 done, 1 failure, 2 usage error (an unknown player included).

use super::analyze::{format_and_rules, rate_batch, wanted_rule_set, GameBatch, Tables};
use super::{notice, print_stdout, CliError};
use dicelens::aggregate::Aggregates;
use dicelens::corpus::{CorpusReader, Location};
use dicelens::rate::{Oracle, Rated, Thresholds};
use dicelens::replay::ReplayOptions;
use dicelens::report::player::{self as page, PlayerReport, Worst, WORST};
use dicelens_parsers::GameRecord;
use std::path::{Path, PathBuf};

/// Closest names listed when the player is unknown.
const CLOSEST: usize = 3;

/// The flags of `dicelens player`.
#[derive(Clone, Debug)]
pub struct PlayerArgs {
    /// The player's name.
    pub name: String,
    /// Log files.
    pub files: Vec<PathBuf>,
    /// An analysis directory holding `aggregates.json` (instead of files).
    pub from: Option<PathBuf>,
    /// Output directory of the HTML page.
    pub out: PathBuf,
    /// Input format (`auto`).
    pub format: String,
    /// Only games of this rule set.
    pub rules: Option<String>,
    /// Rate unfinished games too.
    pub include_unfinished: bool,
    /// Table directory.
    pub tables: Option<PathBuf>,
    /// Print JSON instead of text.
    pub json: bool,
    /// How games are rated (`--oracle`).
    pub oracle: dicelens::rate::OracleSpec,
}

/// A usage error that is about the input, not one flag (exit code 2).
fn usage(message: impl Into<String>) -> CliError {
    CliError {
        code: 2,
        message: message.into(),
    }
}

/// Keeps the `WORST` worst of `list` (in [`Worst::order`]).
fn keep_worst(list: &mut Vec<Worst>) {
    list.sort_by(Worst::order);
    list.truncate(WORST);
}

/// The player's decisions of one game as worst-decision candidates.
fn candidates(game: &GameRecord, name: &str, rated: &[Rated], out: &mut Vec<Worst>) {
    for (order, r) in rated.iter().enumerate() {
        let d = &r.decision;
        if game.players.get(usize::from(d.seat)).map(String::as_str) != Some(name) {
            continue;
        }
        out.push(Worst {
            game: game.provenance.game_id.clone(),
            order,
            round: d.round,
            roll: d.roll_number,
            filled: d.sheet.filled_codes(),
            upper_total: d.sheet.upper_total,
            points: d.sheet.points,
            dice: d.dice.to_string(),
            choice: d.choice.to_string(),
            value: r.chosen,
            best: r.best_choice.to_string(),
            best_value: r.best,
            loss: r.error,
        });
        if out.len() >= 4 * WORST {
            keep_worst(out);
        }
    }
}

/// Rates the log files: the aggregates of every player, the worst decisions of `name`, and the oracle.
fn from_logs(
    args: &PlayerArgs,
) -> Result<(Aggregates, Vec<Worst>, String, dicelens::corpus::Summary), CliError> {
    let (format, only) = format_and_rules(&args.format, args.rules.as_deref())?;
    let mut tables = Tables::new(args.tables.as_deref(), args.oracle);
    let mut reader = CorpusReader::new(ReplayOptions {
        include_unfinished: args.include_unfinished,
    });
    let mut aggregates = Aggregates::default();
    let mut worst = Vec::new();
    let mut not_rated: Vec<(String, Location)> = Vec::new();
    let thresholds = Thresholds::default();
    let name = args.name.as_str();
    let mut flush = |batch: &mut GameBatch,
                     aggregates: &mut Aggregates,
                     worst: &mut Vec<Worst>,
                     not_rated: &mut Vec<(String, Location)>| {
        tables.load_for(batch.games());
        rate_batch(
            &tables.oracle,
            batch.games(),
            thresholds,
            |_, game, rated, found: &mut Vec<Worst>| {
                candidates(game, name, rated, found);
                keep_worst(found);
            },
            aggregates,
            not_rated,
            |found| {
                worst.extend(found);
                keep_worst(worst);
            },
        );
        batch.clear();
    };
    let bar = indicatif::ProgressBar::new(args.files.len() as u64);
    let mut batch = GameBatch::default();
    for path in &args.files {
        reader.read_path(path, format, |game, replayed| {
            if wanted_rule_set(only, game, replayed.rules, &mut not_rated) {
                batch.take(game, replayed);
                if batch.is_full() {
                    flush(&mut batch, &mut aggregates, &mut worst, &mut not_rated);
                }
            }
        });
        bar.inc(1);
    }
    flush(&mut batch, &mut aggregates, &mut worst, &mut not_rated);
    bar.finish_and_clear();
    let oracle = tables.oracle.describe();
    let mut summary = reader.summary;
    summary.games_used = summary.games_used.saturating_sub(not_rated.len() as u64);
    for (reason, location) in not_rated {
        summary.skip(&reason, location);
    }
    Ok((aggregates, worst, oracle, summary))
}

/// Reads `DIR/aggregates.json`.
fn from_aggregates(dir: &Path) -> Result<Aggregates, CliError> {
    let path = dir.join("aggregates.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| CliError::flag("--from", format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text)
        .map_err(|e| CliError::flag("--from", format!("{}: not aggregates: {e}", path.display())))
}

/// Edit distance between two names (by characters, case-insensitive).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (diagonal + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// The error for an unknown player: the closest names (by edit distance, then name).
fn unknown(name: &str, aggregates: &Aggregates) -> CliError {
    let mut names: Vec<(usize, &String)> = aggregates
        .players
        .keys()
        .map(|n| (distance(name, n), n))
        .collect();
    names.sort();
    let closest: Vec<&str> = names
        .iter()
        .take(CLOSEST)
        .map(|(_, n)| n.as_str())
        .collect();
    if closest.is_empty() {
        usage(format!("no player '{name}': the input has no rated player"))
    } else {
        usage(format!(
            "no player '{name}'; closest: {}",
            closest.join(", ")
        ))
    }
}

/// Runs `dicelens player`.
pub fn run(args: &PlayerArgs) -> Result<(), CliError> {
    let (aggregates, worst, oracle, source, match_points) =
        match (&args.from, args.files.is_empty()) {
            (Some(_), false) => {
                return Err(usage("give either log files or --from DIR, not both"));
            }
            (None, true) => return Err(usage("give log files or --from DIR")),
            (Some(dir), true) => {
                let aggregates = from_aggregates(dir)?;
                let source = format!(
                    "{} games from {} (worst decisions not available)",
                    aggregates.games,
                    dir.join("aggregates.json").display()
                );
                // The oracle the analysis names in its summary.
                let summary = std::fs::read(dir.join("summary.json"))
                    .ok()
                    .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
                    .unwrap_or_default();
                let oracle = summary["oracle"]
                    .as_str()
                    .unwrap_or("not named in summary.json")
                    .to_string();
                // Match-point analyses name their thresholds (and, before oracle specs, their
                // method).
                let match_points = summary.get("match_point_thresholds").is_some()
                    || summary.get("multi_player_method").is_some();
                (aggregates, None, oracle, source, match_points)
            }
            (None, false) => {
                let (aggregates, worst, oracle, summary) = from_logs(args)?;
                if summary.skipped_count() > 0 || !summary.files_skipped.is_empty() {
                    notice(summary.report().trim_end());
                }
                let files = args.files.len();
                let source = format!(
                    "{} games rated from {files} log file{}",
                    aggregates.games,
                    if files == 1 { "" } else { "s" }
                );
                let match_points = args.oracle.is_match_points();
                (aggregates, Some(worst), oracle, source, match_points)
            }
        };
    let Some(stats) = aggregates.players.get(&args.name) else {
        return Err(unknown(&args.name, &aggregates));
    };
    let unit = dicelens::report::Unit::of(match_points, &aggregates);
    let report = PlayerReport::new(&aggregates, &args.name, stats, oracle, source, worst, unit);
    std::fs::create_dir_all(&args.out)
        .map_err(|e| CliError::failure(format!("cannot create {}: {e}", args.out.display())))?;
    let path = args.out.join(page::file_name(&args.name));
    std::fs::write(&path, page::html(&report))
        .map_err(|e| CliError::failure(format!("cannot write {}: {e}", path.display())))?;
    if args.json {
        let json = page::json(&report);
        print_stdout(&(serde_json::to_string_pretty(&json).unwrap_or_default() + "\n"))
    } else {
        print_stdout(&page::text(&report))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("Alice", "alice"), 0);
        assert_eq!(distance("", "abc"), 3);
    }

    #[test]
    fn file_names_are_safe() {
        assert_eq!(page::file_name("sim-03"), "sim-03.html");
        assert_eq!(page::file_name("../a b"), "___a_b.html");
        assert_eq!(page::file_name(""), "player.html");
    }
}

//! `dicelens player`: one player's report (text or JSON on stdout, an HTML page in `--out`),
//! from log files (every player is rated, for the percentile; the player's worst decisions are
//! kept) or from an analysis's `aggregates.json` (`--from DIR`, without the worst decisions).
//!
//! Exit codes: 0 done, 1 failure (no input read, no game rated, a file skipped with `--strict`),
//! 2 usage error (an unknown player included, and `--from` a directory that is not a complete
//! analysis).

use super::analyze::Bar;
use super::flags::{FormatFlag, GameFilter, OracleFlag, StrictFlag, TablesFlag};
use super::{notice, print_stdout, CliError, Required};
use dicelens::aggregate::{Aggregates, PartKey, Parts, PlayerStats};
use dicelens::corpus::Summary;
use dicelens::output::{check_complete, make_dir, prepare_file};
use dicelens::pipeline::{analyze, Options};
use dicelens::ranking::leaderboard;
use dicelens::report::player::{self as page, PlayerReport, Population};
use dicelens::store::summary::SummaryFile;
use dicelens::worst::WorstDecisions;
use std::path::{Path, PathBuf};

/// Closest names listed when the player is unknown.
const CLOSEST: usize = 3;

/// `dicelens player` flags.
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// The player's name, as in the logs.
    pub name: String,
    /// Log files (YGN, Verhoeff, JSONL).
    #[arg(conflicts_with = "from")]
    pub files: Vec<PathBuf>,
    /// Read DIR/aggregates.json of an earlier `analyze` instead of log files.
    #[arg(long, value_name = "DIR")]
    pub from: Option<PathBuf>,
    /// Output directory of the HTML page (NAME.html).
    #[arg(long, default_value = "player")]
    pub out: PathBuf,
    /// Least games for a player to be on the leaderboard, whose best tenth the player is
    /// compared with.
    #[arg(long, default_value_t = 500)]
    pub min_games: u64,
    #[command(flatten)]
    pub format: FormatFlag,
    #[command(flatten)]
    pub filter: GameFilter,
    #[command(flatten)]
    pub tables: TablesFlag,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub oracle: OracleFlag,
    #[command(flatten)]
    pub strict: StrictFlag,
}

/// A usage error that is about the input, not one flag (exit code 2).
fn usage(message: impl Into<String>) -> CliError {
    CliError {
        code: 2,
        message: message.into(),
    }
}

/// Rates the log files: the aggregates of every player, the worst decisions of `name`, the
/// oracle and the summary.
fn from_logs(args: &Args) -> Result<(Parts, WorstDecisions, String, Summary), CliError> {
    let options = Options {
        oracle: args.oracle.oracle,
        tables: args.tables.tables.clone(),
        ..args.filter.reading(&args.format, None)?
    };
    let mut sink = WorstDecisions::of_player(&args.name);
    let files = args.format.paths(&args.files)?;
    let analysis = analyze(&files, &options, &mut sink, &Bar::new()).map_err(CliError::failure)?;
    let required = Required {
        files: Some(files.len()),
        strict: args.strict.strict,
        allow_empty: false,
        verb: "rated",
    };
    if let Err(e) = required.check(&analysis.summary) {
        notice(analysis.summary.report().trim_end());
        return Err(e);
    }
    Ok((analysis.aggregates, sink, analysis.oracle, analysis.summary))
}

/// Reads `DIR/aggregates.json` (of a complete analysis).
fn from_aggregates(dir: &Path) -> Result<Parts, CliError> {
    check_complete(dir).map_err(|e| CliError::flag("--from", e))?;
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
fn unknown(name: &str, aggregates: &Parts) -> CliError {
    let mut names: Vec<(usize, &String)> = aggregates
        .parts()
        .flat_map(|(_, part)| part.players.keys())
        .map(|n| (distance(name, n), n))
        .collect();
    names.sort();
    names.dedup();
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
pub fn run(args: Args) -> Result<(), CliError> {
    let (aggregates, worst, oracle, source) = match (&args.from, args.files.is_empty()) {
        (Some(_), false) => {
            return Err(usage("give either log files or --from DIR, not both"));
        }
        (None, true) => return Err(usage("give log files or --from DIR")),
        (Some(dir), true) => {
            let aggregates = from_aggregates(dir)?;
            let source = format!(
                "{} games from {} (worst decisions not available)",
                aggregates.games(),
                dir.join("aggregates.json").display()
            );
            // The oracle the analysis names in its summary.
            let oracle = std::fs::read_to_string(dir.join("summary.json"))
                .ok()
                .and_then(|text| SummaryFile::parse(&text).ok())
                .map(|s| s.oracle)
                .filter(|o| !o.is_empty())
                .unwrap_or_else(|| "not named in summary.json".into());
            (aggregates, None, oracle, source)
        }
        (None, false) => {
            let (aggregates, worst, oracle, summary) = from_logs(&args)?;
            if summary.skipped_count() > 0 || !summary.files_skipped.is_empty() {
                notice(summary.report().trim_end());
            }
            let files = args.files.len();
            let source = format!(
                "{} games rated from {files} log file{}",
                aggregates.games(),
                if files == 1 { "" } else { "s" }
            );
            (aggregates, Some(worst), oracle, source)
        }
    };
    // The part (unit and length of game) the player has most games in (the first among equals).
    let mut parts: Vec<(PartKey, &Aggregates, &PlayerStats)> = aggregates
        .parts()
        .filter_map(|(key, part)| Some((key, part, part.players.get(&args.name)?)))
        .collect();
    parts.sort_by_key(|(_, _, stats)| std::cmp::Reverse(stats.games));
    let Some(&(key, part, stats)) = parts.first() else {
        return Err(unknown(&args.name, &aggregates));
    };
    let unit = key.unit;
    for (other, _, theirs) in parts.iter().skip(1) {
        notice(&format!(
            "{} also has {} games of {} rounds rated in {}; this report is of the {} games of \
             {} rounds rated in {}",
            args.name,
            theirs.games,
            other.rounds,
            other.unit.name(),
            stats.games,
            key.rounds,
            unit.name()
        ));
    }
    let worst = worst.as_ref().map(|w| w.of(key, &args.name));
    let board = leaderboard(part, args.min_games);
    let population = Population::new(part, &board, args.min_games, oracle, source, unit);
    let mut report = PlayerReport::new(&population, &args.name, stats, worst);
    report.screened = dicelens::screening::screen_part(key, part)
        .into_iter()
        .find(|s| s.name == args.name);
    make_dir(&args.out).map_err(CliError::failure)?;
    let path = args.out.join(page::file_name(&args.name));
    let html = prepare_file(&path, page::html(&report).as_bytes()).map_err(CliError::failure)?;
    if args.json {
        let json = page::json(&report);
        print_stdout(&(serde_json::to_string_pretty(&json).unwrap_or_default() + "\n"))?;
    } else {
        print_stdout(&page::text(&report))?;
    }
    // Put in place once the report is printed (a run that fails leaves the earlier page).
    html.commit().map_err(CliError::failure)
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
}

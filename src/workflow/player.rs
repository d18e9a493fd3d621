//! `player`: one player's report, from log files (every player is rated, for the percentile;
//! the player's worst decisions are kept) or from an analysis's `aggregates.json` (without the
//! worst decisions). [`player`] returns a [`PlayerRun`]; its [`PlayerRun::report`] is what
//! `report::player` renders as text, JSON and HTML.

use crate::aggregate::{Aggregates, PartKey, Parts, PlayerStats};
use crate::corpus::LogFile;
use crate::output::check_complete;
use crate::pipeline::{analyze, AnalyzeError, Options, Progress};
use crate::ranking::leaderboard;
use crate::report::player::{PlayerReport, Population};
use crate::store::summary::SummaryFile;
use crate::workflow::{Required, RequiredError};
use crate::worst::WorstDecisions;
use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

/// Closest names listed when the player is unknown.
const CLOSEST: usize = 3;

/// Where the player's numbers come from.
pub enum PlayerSource<'a> {
    /// Log files, rated as `options` say; the run must have what `required` asks.
    Logs {
        /// The log files.
        files: &'a [PathBuf],
        /// How they are read and rated.
        options: &'a Options,
        /// What the run must have read.
        required: &'a Required,
        /// The log files as the user named them, counted in the report's source line.
        named: usize,
    },
    /// The `aggregates.json` of a complete analysis in this directory.
    Analysis(&'a Path),
}

/// Why a player's report cannot be made.
#[derive(Debug)]
pub enum PlayerError {
    /// The directory is not a complete analysis, or its `aggregates.json` cannot be read.
    NotAnalysis(String),
    /// The analysis of the log files stopped.
    Analyze(AnalyzeError),
    /// The log files gave less than the run requires.
    Required(RequiredError),
    /// No such player: the message names the closest ones.
    UnknownPlayer(String),
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::NotAnalysis(why) | PlayerError::UnknownPlayer(why) => f.write_str(why),
            PlayerError::Analyze(e) => e.fmt(f),
            PlayerError::Required(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayerError {}

/// One player's numbers: the part (unit and length of game) the player has most games in,
/// the population it is compared with, the worst decisions when the source keeps them.
pub struct PlayerRun {
    /// The player's name.
    pub name: String,
    /// The part of the player's report.
    pub key: PartKey,
    /// Every player's statistics in that part.
    pub part: Aggregates,
    /// The player's statistics.
    pub stats: PlayerStats,
    /// The players the player is compared with.
    pub population: Population,
    /// The worst decisions of the player (from log files only).
    pub worst: Option<WorstDecisions>,
}

impl PlayerRun {
    /// The report, as `report::player` renders it.
    pub fn report(&self) -> PlayerReport<'_> {
        let worst = self.worst.as_ref().map(|w| w.of(self.key, &self.name));
        let mut report = PlayerReport::new(&self.population, &self.name, &self.stats, worst);
        report.screened = crate::screening::screen_part(self.key, &self.part)
            .into_iter()
            .find(|s| s.name == self.name);
        report
    }
}

/// The report of the player `name` from `source`, compared with the best tenth of the
/// players with at least `min_games` games. Notices (the games skipped, the player's games in
/// other parts) go to `progress`.
pub fn player(
    name: &str,
    source: PlayerSource,
    min_games: u64,
    progress: &dyn Progress,
) -> Result<PlayerRun, PlayerError> {
    let (aggregates, worst, oracle, source) = match source {
        PlayerSource::Analysis(dir) => {
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
        PlayerSource::Logs {
            files,
            options,
            required,
            named,
        } => {
            // A name no game holds fails before the corpus is rated (minutes on a large one).
            if let Some(names) = players_named(files, options) {
                if !names.is_empty() && !names.contains(name) {
                    return Err(unknown(name, names.iter()));
                }
            }
            let mut worst = WorstDecisions::of_player(name);
            let analysis =
                analyze(files, options, &mut worst, progress).map_err(PlayerError::Analyze)?;
            let summary = &analysis.summary;
            if let Err(e) = required.check(summary) {
                progress.notice(summary.report().trim_end());
                return Err(PlayerError::Required(e));
            }
            if summary.skipped_count() > 0 || !summary.files_skipped.is_empty() {
                progress.notice(summary.report().trim_end());
            }
            let source = format!(
                "{} games rated from {named} log file{}",
                analysis.aggregates.games(),
                if named == 1 { "" } else { "s" }
            );
            (analysis.aggregates, Some(worst), analysis.oracle, source)
        }
    };
    // The part the player has most games in (the first among equals).
    let mut parts: Vec<(PartKey, &Aggregates, &PlayerStats)> = aggregates
        .parts()
        .filter_map(|(key, part)| Some((key, part, part.players.get(name)?)))
        .collect();
    parts.sort_by_key(|(_, _, stats)| std::cmp::Reverse(stats.games));
    let Some(&(key, part, stats)) = parts.first() else {
        return Err(unknown(
            name,
            aggregates.parts().flat_map(|(_, part)| part.players.keys()),
        ));
    };
    let unit = key.unit;
    for (other, _, theirs) in parts.iter().skip(1) {
        progress.notice(&format!(
            "{name} also has {} games of {} rounds rated in {}; this report is of the {} games \
             of {} rounds rated in {}",
            theirs.games,
            other.rounds,
            other.unit.name(),
            stats.games,
            key.rounds,
            unit.name()
        ));
    }
    let board = leaderboard(part, min_games);
    let oracle = crate::report::oracle_shown(&oracle, &aggregates);
    let population = Population::new(part, &board, min_games, oracle, source, unit);
    drop(board);
    let stats = stats.clone();
    let part = part.clone();
    Ok(PlayerRun {
        name: name.to_string(),
        key,
        part,
        stats,
        population,
        worst,
    })
}

/// Reads `DIR/aggregates.json` (of a complete analysis).
fn from_aggregates(dir: &Path) -> Result<Parts, PlayerError> {
    check_complete(dir).map_err(|e| PlayerError::NotAnalysis(e.to_string()))?;
    let path = dir.join("aggregates.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| PlayerError::NotAnalysis(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text)
        .map_err(|e| PlayerError::NotAnalysis(format!("{}: not aggregates: {e}", path.display())))
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

/// The names of the players of every game the log `files` hold, read without replaying or
/// rating them (files that cannot be opened are passed over: the run reports them). `None`
/// when a file cannot be read twice (standard input, a FIFO): the names are then only known
/// once the games are rated.
fn players_named(files: &[PathBuf], options: &Options) -> Option<BTreeSet<String>> {
    let regular = |path: &PathBuf| std::fs::metadata(path).is_ok_and(|meta| meta.is_file());
    if !files.iter().all(regular) {
        return None;
    }
    let mut names = BTreeSet::new();
    for path in files {
        let Ok(file) = LogFile::open_with(path, options.format.fixed(), &options.read) else {
            continue;
        };
        file.for_each_game_in(options.range.clone(), |game| {
            if let Ok(game) = game {
                for player in &game.players {
                    if !names.contains(player) {
                        names.insert(player.clone());
                    }
                }
            }
        });
    }
    Some(names)
}

/// The error for an unknown player among the players `known`: the closest names (by edit
/// distance, then name).
fn unknown<'a>(name: &str, known: impl Iterator<Item = &'a String>) -> PlayerError {
    let mut names: Vec<(usize, &String)> = known.map(|n| (distance(name, n), n)).collect();
    names.sort();
    names.dedup();
    let closest: Vec<&str> = names
        .iter()
        .take(CLOSEST)
        .map(|(_, n)| n.as_str())
        .collect();
    PlayerError::UnknownPlayer(if closest.is_empty() {
        format!("no player '{name}': the input has no rated player")
    } else {
        format!("no player '{name}'; closest: {}", closest.join(", "))
    })
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
    fn an_unknown_player_in_an_empty_input() {
        let why = unknown("ann", std::iter::empty()).to_string();
        assert_eq!(why, "no player 'ann': the input has no rated player");
    }
}

//! Presentation of analyses, every output format: the leaderboard as text and JSON and the
//! whole output directory of an analysis ([`write_analysis`]) in this module, the CSV files
//! ([`csv`]), one row type for a rated decision ([`rows`]), `summary.json` ([`summary`]), the
//! HTML report with SVG charts ([`html`]) and a player's report ([`player`]). Every file is
//! written complete or not at all ([`output`]). Numbers are
//! formatted here and only here; every output is a pure function of engine types, so it is the
//! same bytes whatever the thread count or sharding.

use crate::aggregate::{Aggregates, PlayerStats};
use crate::corpus::Summary;
use crate::pipeline::GameRatedAgain;
use crate::rate::Class;
use player::{PlayerReport, Population, WorstDecisions};
use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};

#[macro_use]
pub mod svg;
pub mod csv;
pub mod dist;
pub mod eval;
pub mod game;
pub mod html;
pub mod oracles;
pub mod output;
pub mod player;
pub mod quality;
pub mod rows;
pub mod summary;
pub mod text;
pub mod validate;

pub use crate::rate::Unit;
pub use csv::{csv_field, leaderboard_csv, players_csv, rounds_csv};
use output::OutputDir;
use summary::SummaryFile;

/// A file that could not be written: its path and why.
#[derive(Debug)]
pub struct WriteError {
    /// The file.
    pub path: PathBuf,
    /// Why.
    pub error: std::io::Error,
}

impl WriteError {
    /// The error of writing `path`.
    pub fn new(path: &Path, error: std::io::Error) -> WriteError {
        WriteError {
            path: path.to_path_buf(),
            error,
        }
    }
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write {}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for WriteError {}

/// Everything the output directory of an analysis is made from.
pub struct AnalysisFiles<'a> {
    /// The merged statistics.
    pub aggregates: &'a Aggregates,
    /// Games read and skipped (the report's corpus section).
    pub summary: &'a Summary,
    /// `summary.json` (its counts, the oracle, the thresholds, the unit of the errors).
    pub summary_file: &'a SummaryFile,
    /// `games.csv` rows (without the header); `None` if the file is written already.
    pub games: Option<&'a str>,
    /// Least games for the leaderboard.
    pub min_games: u64,
    /// Leaderboard lines in the HTML report.
    pub top: usize,
    /// The worst decisions of the players (`analyze`); `None` when the analysis keeps none (a
    /// merge): the player pages then say so.
    pub worst: Option<&'a WorstDecisions>,
    /// The games written to `games/` ([`write_game_pages`]), which player pages link to.
    pub game_pages: Option<&'a BTreeSet<String>>,
}

impl<'a> AnalysisFiles<'a> {
    /// The outputs of an analysis made by [`crate::pipeline::analyze`] (`games.csv` written
    /// already), with its `summary.json`.
    pub fn of_analysis(
        analysis: &'a crate::pipeline::Analysis,
        summary_file: &'a SummaryFile,
        min_games: u64,
        top: usize,
    ) -> AnalysisFiles<'a> {
        AnalysisFiles {
            aggregates: &analysis.aggregates,
            summary: &analysis.summary,
            summary_file,
            games: None,
            min_games,
            top,
            worst: None,
            game_pages: None,
        }
    }
}

/// Writes every output file of an analysis into `out` (put in place by its commit):
/// `players.csv`, `leaderboard.csv`, `rounds.csv`, `summary.json`, `aggregates.json`,
/// `games.csv` when its rows are given, `report.html`, and a page per player of the
/// leaderboard in `players/` ([`write_player_pages`]).
pub fn write_analysis(out: &mut OutputDir, files: &AnalysisFiles) -> Result<(), WriteError> {
    let aggregates = files.aggregates;
    let board = leaderboard(aggregates, files.min_games);
    out.write("players.csv", &players_csv(aggregates))?;
    out.write("leaderboard.csv", &leaderboard_csv(&board))?;
    out.write("rounds.csv", &rounds_csv(aggregates))?;
    out.write("summary.json", &files.summary_file.to_json())?;
    out.write("aggregates.json", &aggregates_json(aggregates))?;
    if let Some(rows) = files.games {
        out.write("games.csv", &format!("{}\n{rows}", csv::GAME_COLUMNS))?;
    }
    let html = html::report_html(
        aggregates,
        &board,
        files.summary,
        &files.summary_file.oracle,
        files.summary_file.unit(aggregates),
        files.min_games,
        files.top,
    );
    out.write("report.html", &html)?;
    write_player_pages(out, files, &board)
}

/// Writes `players/<file>` ([`player::page_path`]) for every player of the leaderboard
/// `board`: the player beside all players and the best players, the worst decisions linked to
/// their pages in `games/` (or why they are missing).
pub fn write_player_pages(
    out: &mut OutputDir,
    files: &AnalysisFiles,
    board: &[Ranked],
) -> Result<(), WriteError> {
    let aggregates = files.aggregates;
    let games = aggregates.games;
    let source = format!(
        "{games} game{} rated in this analysis ({} player{} with at least {} games on its          leaderboard)",
        if games == 1 { "" } else { "s" },
        board.len(),
        if board.len() == 1 { "" } else { "s" },
        files.min_games
    );
    let population = Population::new(
        aggregates,
        board,
        files.min_games,
        files.summary_file.oracle.clone(),
        source,
        files.summary_file.unit(aggregates),
    );
    let no_pages = BTreeSet::new();
    for r in board {
        let worst = files.worst.map(|w| w.of(r.name));
        let mut report = PlayerReport::new(&population, r.name, r.stats, worst);
        report.no_worst = player::NO_WORST_MERGED;
        report.game_pages = Some(files.game_pages.unwrap_or(&no_pages));
        out.write(&player::page_path(r.name), &player::html(&report))?;
    }
    Ok(())
}

/// The page of a game rated again ([`crate::pipeline::rate_games_with_ids`]) by the oracle
/// described as `oracle`: the report `validate` gives, as `games/<file>` shows it.
pub fn game_page(rated: &GameRatedAgain, oracle: &str) -> String {
    let rating = validate::Rating {
        oracle: Some(oracle.to_string()),
        unit: rated.unit,
        thresholds: rated.thresholds,
        not_rated: rated.not_rated.clone(),
    };
    let report = validate::ValidateReport::game(
        &rated.game.provenance.file,
        &rated.format,
        &rated.game,
        &rated.replayed,
        None,
        rating,
        &rated.rated,
    );
    game::page(&report)
}

/// Writes `games/<file>` ([`game::file_name`]) for each game rated again; returns their ids
/// (the games player pages may link to).
pub fn write_game_pages(
    out: &mut OutputDir,
    games: &[GameRatedAgain],
    oracle: &str,
) -> Result<BTreeSet<String>, WriteError> {
    let mut ids = BTreeSet::new();
    for rated in games {
        let id = &rated.game.provenance.game_id;
        out.write(
            &format!("games/{}", game::file_name(id)),
            &game_page(rated, oracle),
        )?;
        ids.insert(id.clone());
    }
    Ok(ids)
}

/// The games of the worst decisions of the players on `board` (the pages player pages link
/// to).
pub fn linked_games(board: &[Ranked], worst: &WorstDecisions) -> std::collections::HashSet<String> {
    board
        .iter()
        .flat_map(|r| worst.of(r.name))
        .map(|row| row.game.to_string())
        .collect()
}
/// `aggregates.json`: the aggregates as compact JSON and a line end.
pub fn aggregates_json(aggregates: &Aggregates) -> String {
    serde_json::to_string(aggregates).unwrap_or_default() + "\n"
}

/// One player of the leaderboard as JSON.
#[derive(serde::Serialize)]
struct RankedJson<'a> {
    blunders: u64,
    ci95: [f64; 2],
    doubtful: u64,
    error_per_decision: f64,
    error_per_game: f64,
    errors: u64,
    games: u64,
    player: &'a str,
    rank: usize,
}

/// The leaderboard as JSON.
#[derive(serde::Serialize)]
struct LeaderboardJson<'a> {
    leaderboard: Vec<RankedJson<'a>>,
    min_games: u64,
    oracle: &'a str,
}

/// The leaderboard as pretty JSON (the first `top` players) and a line end.
pub fn leaderboard_json(board: &[Ranked], top: usize, oracle: &str, min_games: u64) -> String {
    let leaderboard = board
        .iter()
        .take(top)
        .map(|r| {
            let (lo, hi) = r.stats.error_per_game_ci();
            let classes = &r.stats.all.classes;
            RankedJson {
                blunders: classes[Class::Blunder],
                ci95: [lo, hi],
                doubtful: classes[Class::Doubtful],
                error_per_decision: r.stats.all.error_per_decision(),
                error_per_game: r.stats.error_per_game(),
                errors: classes[Class::Error],
                games: r.stats.games,
                player: r.name,
                rank: r.rank,
            }
        })
        .collect();
    let json = LeaderboardJson {
        leaderboard,
        min_games,
        oracle,
    };
    serde_json::to_string_pretty(&json).unwrap_or_default() + "\n"
}

/// A player on the leaderboard.
pub struct Ranked<'a> {
    /// 1-based rank.
    pub rank: usize,
    /// Name.
    pub name: &'a str,
    /// Statistics.
    pub stats: &'a PlayerStats,
}

/// Players with at least `min_games` games, by error per game (then name).
pub fn leaderboard(aggregates: &Aggregates, min_games: u64) -> Vec<Ranked<'_>> {
    let mut players: Vec<(&String, &PlayerStats)> = aggregates
        .players
        .iter()
        .filter(|(_, p)| p.games >= min_games)
        .collect();
    players.sort_by(|a, b| {
        a.1.error_per_game()
            .total_cmp(&b.1.error_per_game())
            .then(a.0.cmp(b.0))
    });
    players
        .into_iter()
        .enumerate()
        .map(|(i, (name, stats))| Ranked {
            rank: i + 1,
            name,
            stats,
        })
        .collect()
}

/// The best players: the top tenth of the leaderboard, at least one player (none if empty).
/// The reference line of the report's round chart and of every player page.
pub fn best_players<'a, 'b>(board: &'b [Ranked<'a>]) -> Vec<&'b Ranked<'a>> {
    let n = (board.len() / 10).max(1).min(board.len());
    board.iter().take(n).collect()
}

/// The leaderboard as an aligned text table (the first `top` players).
pub fn leaderboard_text(board: &[Ranked], top: usize, oracle: &str, min_games: u64) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "leaderboard: {} players with at least {min_games} games; oracle: {oracle}",
        board.len()
    );
    let _ = writeln!(
        out,
        "{:>4}  {:<20} {:>7} {:>10} {:>21} {:>10} {:>9} {:>7} {:>8}",
        "rank",
        "player",
        "games",
        "err/game",
        "95% CI",
        "err/dec",
        "doubtful",
        "errors",
        "blunders"
    );
    for r in board.iter().take(top) {
        let p = r.stats;
        let (lo, hi) = p.error_per_game_ci();
        let _ = writeln!(
            out,
            "{:>4}  {:<20} {:>7} {:>10.4} {:>21} {:>10.6} {:>9} {:>7} {:>8}",
            r.rank,
            r.name,
            p.games,
            p.error_per_game(),
            format!("[{lo:.4}, {hi:.4}]"),
            p.all.error_per_decision(),
            p.all.classes[Class::Doubtful],
            p.all.classes[Class::Error],
            p.all.classes[Class::Blunder]
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Aggregates holding decisions of games with these seat counts.
    fn with_seats(seats: &[u16]) -> Aggregates {
        let mut a = Aggregates::default();
        for s in seats {
            a.turns.insert(
                crate::aggregate::SeatsTurn { seats: *s, turn: 1 },
                Default::default(),
            );
        }
        a
    }

    #[test]
    fn unit_follows_the_oracle_and_the_seats() {
        assert_eq!(Unit::of(false, &with_seats(&[1, 2])), Unit::Points);
        assert_eq!(Unit::of(true, &with_seats(&[2, 3])), Unit::MatchPoints);
        assert_eq!(Unit::of(true, &with_seats(&[1])), Unit::Points);
        assert_eq!(Unit::of(true, &with_seats(&[1, 2])), Unit::Mixed);
        assert_eq!(Unit::of(true, &with_seats(&[])), Unit::Points);
    }
}

//! Presentation of analyses, every output format: the leaderboard as text and JSON and the
//! whole output directory of an analysis ([`write_analysis`]) in this module, the CSV files
//! ([`csv`]), one row type for a rated decision ([`rows`]), `summary.json` ([`summary`]), the
//! HTML report with SVG charts ([`html`]) and a player's report ([`player`]). Every file is
//! written complete or not at all ([`output`]). Numbers are
//! formatted here and only here; every output is a pure function of engine types, so it is the
//! same bytes whatever the thread count or sharding.

use crate::aggregate::{Aggregates, PartKey, Parts, PlayerStats};
use crate::corpus::Summary;
use crate::rate::Class;
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
    /// The merged statistics, one part per unit.
    pub aggregates: &'a Parts,
    /// Games read and skipped (the report's corpus section).
    pub summary: &'a Summary,
    /// `summary.json` (its counts, the oracle, the thresholds of each unit).
    pub summary_file: &'a SummaryFile,
    /// `games.csv` rows (without the header); `None` if the file is written already.
    pub games: Option<&'a str>,
    /// Least games for the leaderboard.
    pub min_games: u64,
    /// Leaderboard lines printed on stdout (the HTML report lists every ranked player).
    pub top: usize,
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
        }
    }

    /// The leaderboards of the analysis, one per unit that has games.
    pub fn leaderboards(&self) -> Vec<Leaderboard<'a>> {
        leaderboards(self.aggregates, self.min_games)
    }
}

/// Writes every output file of an analysis into `out` (put in place by its commit):
/// `players.csv`, `leaderboard.csv`, `rounds.csv`, `summary.json`, `aggregates.json`,
/// `games.csv` when its rows are given, and `report.html`.
pub fn write_analysis(out: &mut OutputDir, files: &AnalysisFiles) -> Result<(), WriteError> {
    let aggregates = files.aggregates;
    let boards = files.leaderboards();
    out.write("players.csv", &players_csv(aggregates))?;
    out.write("leaderboard.csv", &leaderboard_csv(&boards))?;
    out.write("rounds.csv", &rounds_csv(aggregates))?;
    out.write("summary.json", &files.summary_file.to_json())?;
    out.write("aggregates.json", &aggregates_json(aggregates))?;
    if let Some(rows) = files.games {
        out.write("games.csv", &format!("{}\n{rows}", csv::GAME_COLUMNS))?;
    }
    let html = html::report_html(&html::ReportInput {
        aggregates,
        boards: &boards,
        summary: files.summary,
        oracle: &files.summary_file.oracle,
        thresholds: files.summary_file.thresholds_by_unit(),
        min_games: files.min_games,
    });
    out.write("report.html", &html)
}

/// `aggregates.json`: the aggregates as compact JSON and a line end.
pub fn aggregates_json(aggregates: &Parts) -> String {
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

/// One part's leaderboard as JSON.
#[derive(serde::Serialize)]
struct BoardJson<'a> {
    /// `points` or `match_points`.
    unit: &'static str,
    /// Rounds of the part's games.
    rounds: u16,
    /// The unit in full.
    unit_name: &'static str,
    /// Which games (`one-player games`, ...).
    games: String,
    /// Players ranked (more than listed when `top` cuts the list).
    ranked: usize,
    /// How to rank players when nobody has enough games.
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<String>,
    leaderboard: Vec<RankedJson<'a>>,
}

/// The leaderboards as JSON.
#[derive(serde::Serialize)]
struct LeaderboardsJson<'a> {
    leaderboards: Vec<BoardJson<'a>>,
    min_games: u64,
    oracle: &'a str,
}

/// The leaderboards as pretty JSON (the first `top` players of each) and a line end.
pub fn leaderboard_json(
    boards: &[Leaderboard],
    top: usize,
    oracle: &str,
    min_games: u64,
) -> String {
    let leaderboards = boards
        .iter()
        .map(|board| BoardJson {
            unit: board.unit.key(),
            rounds: board.key.rounds,
            unit_name: board.unit.name(),
            games: board.games.clone(),
            ranked: board.ranked.len(),
            hint: min_games_hint(board, min_games),
            leaderboard: board
                .ranked
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
                .collect(),
        })
        .collect();
    let json = LeaderboardsJson {
        leaderboards,
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

/// The leaderboard of one part of an analysis (one unit, one length of game): its players with
/// at least `min_games` games, ranked.
pub struct Leaderboard<'a> {
    /// The part.
    pub key: PartKey,
    /// What the errors are in (the part's unit).
    pub unit: Unit,
    /// The part of the analysis the players are ranked in.
    pub part: &'a Aggregates,
    /// Which games the part holds, in words (`one-player games of yahtzee`).
    pub games: String,
    /// The ranked players.
    pub ranked: Vec<Ranked<'a>>,
    /// The most games any player of the part has (to hint at a lower `--min-games`).
    pub most_games: u64,
}

/// Which games a part of an analysis holds, in words: `one-player games`, `games of several
/// players`, or `games of one and of several players` (from the seat counts of its turns), then
/// its rule sets: `one-player games of yahtzee, yahtzee-free`.
pub fn games_of(part: &Aggregates) -> String {
    let solo = part.turns.keys().any(|k| k.seats <= 1);
    let multi = part.turns.keys().any(|k| k.seats > 1);
    let who = match (solo, multi) {
        (true, false) => "one-player games",
        (false, true) => "games of several players",
        _ => "games of one and of several players",
    };
    let rules: Vec<&str> = part.rule_sets.keys().map(String::as_str).collect();
    if rules.is_empty() {
        who.to_string()
    } else {
        format!("{who} of {}", rules.join(", "))
    }
}

/// The leaderboards of an analysis: one per part (points first, shorter games first).
pub fn leaderboards(aggregates: &Parts, min_games: u64) -> Vec<Leaderboard<'_>> {
    aggregates
        .parts()
        .map(|(key, part)| Leaderboard {
            key,
            unit: key.unit,
            part,
            games: games_of(part),
            ranked: leaderboard(part, min_games),
            most_games: part.players.values().map(|p| p.games).max().unwrap_or(0),
        })
        .collect()
}

/// Players of one part with at least `min_games` games, by error per game (then name).
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

/// The hint of a leaderboard that ranks nobody: how many games its most active player has,
/// and the `--min-games` that would rank them.
pub fn min_games_hint(board: &Leaderboard, min_games: u64) -> Option<String> {
    (board.ranked.is_empty() && board.most_games > 0).then(|| {
        let s = if board.most_games == 1 { "" } else { "s" };
        format!(
            "no player has {min_games} games or more; the most any player has is {} game{s}: lower \
             --min-games (for example --min-games {}) to rank players",
            board.most_games,
            board.most_games.min(min_games)
        )
    })
}

/// The leaderboards as aligned text tables (the first `top` players of each), each headed
/// with its unit; a leaderboard that ranks nobody says how to get one.
pub fn leaderboard_text(
    boards: &[Leaderboard],
    top: usize,
    oracle: &str,
    min_games: u64,
) -> String {
    let mut out = format!("oracle: {oracle}\n");
    if boards.is_empty() {
        out.push_str("leaderboard: no game rated\n");
    }
    for board in boards {
        let unit = board.unit;
        let s = if min_games == 1 { "" } else { "s" };
        let _ = writeln!(
            out,
            "\nleaderboard of {}, errors in {}: {} players with at least {min_games} game{s}",
            board.games,
            unit.name(),
            board.ranked.len()
        );
        if let Some(hint) = min_games_hint(board, min_games) {
            let _ = writeln!(out, "{hint}");
            continue;
        }
        let per = |what: &str| format!("{}/{what}", unit.abbreviation());
        let _ = writeln!(
            out,
            "{:>4}  {:<20} {:>7} {:>10} {:>21} {:>10} {:>9} {:>7} {:>8}",
            "rank",
            "player",
            "games",
            per("game"),
            "95% CI",
            per("dec"),
            "doubtful",
            "errors",
            "blunders"
        );
        for r in board.ranked.iter().take(top) {
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
    }
    out
}

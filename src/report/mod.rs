//! Presentation of analyses, every output format: the leaderboard as text and JSON and the
//! whole output directory of an analysis ([`write_analysis`]) in this module, the CSV files
//! ([`csv`]), the HTML report with SVG charts (`html`) and a player's report ([`player`]).
//! It renders what it is handed: the leaderboards and screening ([`crate::ranking`]), the rated
//! decisions ([`crate::rows`]), the worst decisions ([`crate::worst`]); what an analysis
//! directory keeps for later runs is written by [`crate::store`], and every file is written
//! complete or not at all ([`crate::output`]). Numbers are formatted here and only here; every
//! output is a pure function of engine types, so it is the same bytes whatever the thread
//! count or sharding.

use crate::aggregate::accuracy::Label;
use crate::aggregate::{Parts, PlayerStats};
use crate::corpus::Summary;
use crate::pipeline::GameRatedAgain;
pub use crate::ranking::leaderboards;
use crate::ranking::Leaderboard;
use crate::rate::Class;
use crate::screening::Screened;
use crate::worst::WorstDecisions;
pub(crate) use player::player_pages;
use player::{PlayerReport, Population};
use std::collections::BTreeSet;
use std::fmt::Write;
use text::min_games_hint;

#[macro_use]
pub(crate) mod svg;
pub mod board;
pub mod csv;
pub mod dice;
pub mod dist;
pub mod eval;
pub mod game;
pub(crate) mod html;
pub mod ids;
pub mod oracles;
pub(crate) mod page;
pub mod player;
pub mod quality;

pub(crate) mod screening;
pub mod simulate;
pub mod tables;
pub mod text;
pub mod validate;

use crate::output::OutputDir;
pub use crate::output::WriteError;
pub use crate::rate::Unit;
use crate::rate::{describe_present, Present};
use crate::rules::GameRules;
use crate::store::summary::SummaryFile;
pub use csv::players_csv;
pub(crate) use csv::{leaderboard_csv, rounds_csv};

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
    /// The worst decisions of the players (`analyze`); `None` when the analysis keeps none (a
    /// merge): the player pages then say so.
    pub worst: Option<&'a WorstDecisions>,
    /// The games written to `games/` (`write_game_pages`), which player pages link to.
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

    /// The leaderboards of the analysis, one per unit that has games.
    pub fn leaderboards(&self) -> Vec<Leaderboard<'a>> {
        leaderboards(self.aggregates, self.min_games)
    }

    /// The oracle as the outputs name it: only the parts the analysis's games have
    /// ([`oracle_shown`]); `summary.json` keeps the whole description.
    pub fn oracle(&self) -> String {
        oracle_shown(&self.summary_file.oracle, self.aggregates)
    }
}

/// The oracle `description` naming only the parts the games of `aggregates` have
/// ([`describe_present`]): one-column games of several players rated in match points, and
/// one-column games rated in points (one-player games, under a match-point oracle).
pub fn oracle_shown(description: &str, aggregates: &Parts) -> String {
    let one_column_in = |unit: Unit| {
        aggregates.parts().any(|(key, part)| {
            key.unit == unit
                && part
                    .rule_sets
                    .keys()
                    .any(|name| !matches!(name.parse(), Ok(GameRules::Jamb(_))))
        })
    };
    describe_present(
        description,
        Present {
            several: one_column_in(Unit::MatchPoints),
            one_player: one_column_in(Unit::Points),
        },
    )
}

/// Writes every output file of an analysis into `out` (put in place by its commit):
/// `players.csv`, `leaderboard.csv`, `rounds.csv`, `summary.json`, `aggregates.json`,
/// `games.csv` when its rows are given, `report.html`, and a page per player of the
/// leaderboard in `players/` (`write_player_pages`).
pub fn write_analysis(out: &mut OutputDir, files: &AnalysisFiles) -> Result<(), WriteError> {
    let aggregates = files.aggregates;
    let boards = files.leaderboards();
    out.write("players.csv", &players_csv(aggregates))?;
    out.write("leaderboard.csv", &leaderboard_csv(&boards))?;
    out.write("rounds.csv", &rounds_csv(aggregates))?;
    out.write("summary.json", &files.summary_file.to_json())?;
    out.write("aggregates.json", &aggregates_json(aggregates))?;
    if let Some(rows) = files.games {
        out.write(
            "games.csv",
            &format!("{}\n{rows}", crate::store::games::GAME_COLUMNS),
        )?;
    }
    let oracle = files.oracle();
    let html = html::report_html(&html::ReportInput {
        aggregates,
        boards: &boards,
        summary: files.summary,
        oracle: &oracle,
        thresholds: files.summary_file.thresholds_by_unit(),
        min_games: files.min_games,
    });
    out.write("report.html", &html)?;
    out.write(
        "screening.csv",
        &screening::screening_csv(&screened_players(&boards)),
    )?;
    write_player_pages(out, files, &boards)
}

/// Writes a page for every player of every leaderboard ([`player_pages`]): the player beside
/// all players and the best players of the part, the worst decisions linked to their pages in
/// `games/` (or why they are missing).
pub(crate) fn write_player_pages(
    out: &mut OutputDir,
    files: &AnalysisFiles,
    boards: &[Leaderboard],
) -> Result<(), WriteError> {
    let paths = player_pages(boards);
    let no_pages = BTreeSet::new();
    let oracle = files.oracle();
    for board in boards {
        let games = board.part.games;
        let source = format!(
            "{games} {} rated in this analysis ({} player{} with at least {} games on its \
             leaderboard)",
            board.games,
            board.ranked.len(),
            if board.ranked.len() == 1 { "" } else { "s" },
            files.min_games
        );
        let population = Population::new(
            board.part,
            &board.ranked,
            files.min_games,
            oracle.clone(),
            source,
            board.unit,
        );
        for r in &board.ranked {
            let worst = files.worst.map(|w| w.of(board.key, r.name));
            let mut report = PlayerReport::new(&population, r.name, r.stats, worst);
            report.screened = board.screened.iter().find(|s| s.name == r.name).cloned();
            report.no_worst = player::NO_WORST_MERGED;
            report.game_pages = Some(files.game_pages.unwrap_or(&no_pages));
            if let Some(path) = paths.get(&(board.key, r.name.to_string())) {
                out.write(path, &player::html(&report))?;
            }
        }
    }
    Ok(())
}

/// The screened players of every part of `boards`, part by part, highest z first in each (what
/// `screening.csv` lists).
fn screened_players<'a>(boards: &[Leaderboard<'a>]) -> Vec<Screened<'a>> {
    boards
        .iter()
        .flat_map(|board| board.screened.clone())
        .collect()
}

/// The page of a game rated again ([`crate::pipeline::rate_games_with_ids`]) by the oracle
/// described as `oracle`: the report `validate` gives, as `games/<file>` shows it.
pub fn game_page(rated: &GameRatedAgain, oracle: &str) -> String {
    let present = Present::of_game(rated.replayed.rules, rated.replayed.seats);
    let rating = validate::Rating {
        spec: rated.spec,
        oracle: Some(describe_present(oracle, present)),
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
pub(crate) fn write_game_pages(
    out: &mut OutputDir,
    games: &[GameRatedAgain],
    oracle: &str,
) -> Result<BTreeSet<String>, WriteError> {
    use rayon::prelude::*;
    // Pages are made in parallel, then written in order.
    let pages: Vec<String> = games
        .par_iter()
        .map(|rated| game_page(rated, oracle))
        .collect();
    let mut ids = BTreeSet::new();
    for (rated, page) in games.iter().zip(&pages) {
        let id = &rated.game.provenance.game_id;
        out.write(&format!("games/{}", game::file_name(id)), page)?;
        ids.insert(id.clone());
    }
    Ok(ids)
}

/// The games of the worst decisions of the players on the leaderboards (the pages player pages
/// link to), each with its content hash when it was rated.
pub fn linked_games(
    boards: &[Leaderboard],
    worst: &WorstDecisions,
) -> std::collections::HashMap<String, crate::game_hash::ContentHash> {
    boards
        .iter()
        .flat_map(|board| board.ranked.iter().map(|r| worst.of(board.key, r.name)))
        .flatten()
        .filter_map(|row| Some((row.game.to_string(), worst.hash_of(&row.game)?)))
        .collect()
}
/// A rating label as the outputs write it (`World class`).
pub fn label_text(label: Label) -> &'static str {
    match label {
        Label::Supernatural => "Supernatural",
        Label::WorldClass => "World class",
        Label::Expert => "Expert",
        Label::Advanced => "Advanced",
        Label::Intermediate => "Intermediate",
        Label::Casual => "Casual",
        Label::Beginner => "Beginner",
        Label::Awful => "Awful!",
    }
}

/// A player's accuracy (one decimal) and rating label in `unit` as the text and HTML outputs
/// show them, `-` for what they lack.
pub(crate) fn accuracy_and_label(
    stats: &PlayerStats,
    unit: crate::rate::Unit,
) -> (String, &'static str) {
    let accuracy = stats
        .accuracy()
        .map_or_else(|| "-".to_string(), |a| format!("{a:.1}"));
    (accuracy, stats.label(unit).map_or("-", label_text))
}

/// `aggregates.json`: the aggregates as compact JSON and a line end.
pub(crate) fn aggregates_json(aggregates: &Parts) -> String {
    serde_json::to_string(aggregates).unwrap_or_default() + "\n"
}

/// One player of the leaderboard as JSON.
#[derive(serde::Serialize)]
struct RankedJson<'a> {
    /// Mean accuracy per game, 0 to 100 (`null` without any).
    accuracy: Option<f64>,
    blunders: u64,
    ci95: [f64; 2],
    doubtful: u64,
    error_per_decision: f64,
    error_per_game: f64,
    errors: u64,
    games: u64,
    /// The rating label (`null` without a non-forced decision).
    label: Option<&'static str>,
    luck_adjusted_per_game: f64,
    luck_per_game: f64,
    player: &'a str,
    rank: usize,
    result_per_game: f64,
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
    /// The engine-assistance screening of every part ([`screening::json`]), highest z first.
    screening: Vec<serde_json::Value>,
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
                        accuracy: r.stats.accuracy(),
                        blunders: classes[Class::Blunder],
                        ci95: [lo, hi],
                        doubtful: classes[Class::Doubtful],
                        error_per_decision: r.stats.all.error_per_decision(),
                        error_per_game: r.stats.error_per_game(),
                        errors: classes[Class::Error],
                        games: r.stats.games,
                        label: r.stats.label(board.unit).map(label_text),
                        luck_adjusted_per_game: r.stats.luck_adjusted_per_game(),
                        luck_per_game: r.stats.luck_per_game(),
                        player: r.name,
                        rank: r.rank,
                        result_per_game: r.stats.result_per_game(),
                    }
                })
                .collect(),
        })
        .collect();
    let screening = boards
        .iter()
        .flat_map(|board| &board.screened)
        .map(screening::json)
        .collect();
    let json = LeaderboardsJson {
        leaderboards,
        screening,
        min_games,
        oracle,
    };
    serde_json::to_string_pretty(&json).unwrap_or_default() + "\n"
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
        let n = board.ranked.len();
        let _ = writeln!(
            out,
            "\nleaderboard of {}, errors in {}: {n} player{} with at least {min_games} game{s}",
            board.games,
            unit.name(),
            if n == 1 { "" } else { "s" }
        );
        if let Some(hint) = min_games_hint(board, min_games) {
            let _ = writeln!(out, "{hint}");
            continue;
        }
        let per = |what: &str| format!("err {}/{what}", unit.abbreviation());
        let _ = writeln!(
            out,
            "{:>4}  {:<20} {:>7} {:>13} {:>21} {:>12} {:>8}  {:<12} {:>9} {:>7} {:>8}",
            "rank",
            "player",
            "games",
            per("game"),
            "95% CI",
            per("dec"),
            "accuracy",
            "rating",
            "doubtful",
            "errors",
            "blunders"
        );
        for r in board.ranked.iter().take(top) {
            let p = r.stats;
            let (lo, hi) = p.error_per_game_ci();
            let (accuracy, label) = accuracy_and_label(p, unit);
            let _ = writeln!(
                out,
                "{:>4}  {:<20} {:>7} {:>13.4} {:>21} {:>12.6} {:>8}  {:<12} {:>9} {:>7} {:>8}",
                r.rank,
                r.name,
                p.games,
                p.error_per_game(),
                format!("[{lo:.4}, {hi:.4}]"),
                p.all.error_per_decision(),
                accuracy,
                label,
                p.all.classes[Class::Doubtful],
                p.all.classes[Class::Error],
                p.all.classes[Class::Blunder]
            );
        }
    }
    out
}

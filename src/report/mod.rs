//! Presentation of analyses: the leaderboard as text, CSV files and JSON (this module) and the
//! HTML report with SVG charts ([`html`]). Numbers are formatted
//! here and only here; every output is a pure function of the aggregates, so it is the same
//! bytes whatever the thread count or sharding.

use crate::aggregate::{Aggregates, PlayerStats};
use std::fmt::Write;

pub mod html;
pub mod player;

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
            p.all.classes[1],
            p.all.classes[2],
            p.all.classes[3]
        );
    }
    out
}

/// Quotes a CSV field when needed.
pub fn csv_field(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\"")).into()
    } else {
        text.into()
    }
}

/// One CSV row of a player's statistics (after `rank,` for the leaderboard).
fn player_row(name: &str, p: &PlayerStats) -> String {
    let (lo, hi) = p.error_per_game_ci();
    format!(
        "{},{},{},{},{:.9},{:.9},{:.9},{:.9},{:.9},{},{},{},{:.9}",
        csv_field(name),
        p.games,
        p.all.decisions,
        p.all.unforced,
        p.all.total_error(),
        p.all.error_per_decision(),
        p.error_per_game(),
        lo,
        hi,
        p.all.classes[1],
        p.all.classes[2],
        p.all.classes[3],
        p.all.total_luck()
    )
}

const PLAYER_COLUMNS: &str =
    "player,games,decisions,unforced,total_error,error_per_decision,error_per_game,\
ci95_low,ci95_high,doubtful,errors,blunders,luck";

/// `players.csv`: every player, by name.
pub fn players_csv(aggregates: &Aggregates) -> String {
    let mut out = format!("{PLAYER_COLUMNS}\n");
    for (name, p) in &aggregates.players {
        out.push_str(&player_row(name, p));
        out.push('\n');
    }
    out
}

/// `leaderboard.csv`: the ranked players.
pub fn leaderboard_csv(board: &[Ranked]) -> String {
    let mut out = format!("rank,{PLAYER_COLUMNS}\n");
    for r in board {
        let _ = writeln!(out, "{},{}", r.rank, player_row(r.name, r.stats));
    }
    out
}

/// `rounds.csv`: per turn of the game (by number of seats), then per decision kind.
pub fn rounds_csv(aggregates: &Aggregates) -> String {
    let mut out =
        String::from("seats,turn,round,seat,decisions,unforced,total_error,error_per_decision\n");
    for (key, t) in &aggregates.turns {
        let (seats, turn) = (key / 1000, key % 1000);
        let round = (turn - 1) / seats.max(1) + 1;
        let seat = (turn - 1) % seats.max(1) + 1;
        let _ = writeln!(
            out,
            "{seats},{turn},{round},{seat},{},{},{:.9},{:.9}",
            t.decisions,
            t.unforced,
            t.total_error(),
            t.error_per_decision()
        );
    }
    out
}

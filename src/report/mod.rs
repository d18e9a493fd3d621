//! Presentation of analyses: the leaderboard as text, CSV files and JSON (this module) and the
//! HTML report with SVG charts ([`html`]). Numbers are formatted
//! here and only here; every output is a pure function of the aggregates, so it is the same
//! bytes whatever the thread count or sharding.

use crate::aggregate::{Aggregates, PlayerStats};
use std::fmt::Write;

#[macro_use]
pub mod svg;
pub mod dist;
pub mod eval;
pub mod html;
pub mod oracles;
pub mod player;
pub mod quality;
pub mod text;
pub mod validate;

/// What the errors of an analysis are measured in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Expected final points (the solitaire oracle).
    Points,
    /// Expected match points (games of several players under a match-point oracle).
    MatchPoints,
    /// Both, game by game.
    Mixed,
}

impl Unit {
    /// The unit of an analysis of `aggregates`: match points for games of several players
    /// when `match_point_oracle`, points for the others.
    pub fn of(match_point_oracle: bool, aggregates: &Aggregates) -> Unit {
        let (mut solo, mut several) = (false, false);
        for key in aggregates.turns.keys() {
            if key / 1000 > 1 {
                several = true;
            } else {
                solo = true;
            }
        }
        let in_match_points = match_point_oracle && several;
        let in_points = solo || (several && !match_point_oracle);
        match (in_points, in_match_points) {
            (_, false) => Unit::Points,
            (false, true) => Unit::MatchPoints,
            (true, true) => Unit::Mixed,
        }
    }

    /// The unit in full ("expected points").
    pub fn name(self) -> &'static str {
        match self {
            Unit::Points => "expected points",
            Unit::MatchPoints => "expected match points",
            Unit::Mixed => {
                "expected points (one-player games) or match points (games of several players)"
            }
        }
    }

    /// The unit in short, for axis titles ("points").
    pub fn short(self) -> &'static str {
        match self {
            Unit::Points => "points",
            Unit::MatchPoints => "match points",
            Unit::Mixed => "points or match points",
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Aggregates holding decisions of games with these seat counts.
    fn with_seats(seats: &[u32]) -> Aggregates {
        let mut a = Aggregates::default();
        for s in seats {
            a.turns.insert(s * 1000 + 1, Default::default());
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

//! Ranking: the leaderboards of an analysis, one per part (one unit, one length of game), its
//! players with enough games ranked by error per game, the best players of each (the reference
//! line of the report's round chart and of every player page), and the screening of its
//! players ([`crate::screening`]). Pure functions of the aggregates; `report` writes them as text, CSV, JSON and HTML, `compare` correlates two.

use crate::aggregate::{Aggregates, PartKey, Parts, PlayerStats};
use crate::rate::Unit;
use crate::screening::{screen_part, Screened};

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
    pub(crate) most_games: u64,
    /// The engine-assistance screening of the part's players (`screen_part`), highest z first.
    pub screened: Vec<Screened<'a>>,
}

/// Which games a part of an analysis holds, in words: `one-player games`, `games of several
/// players`, or `games of one and of several players` (from the seat counts of its turns), then
/// its rule sets: `one-player games of yahtzee, yahtzee-free`.
pub(crate) fn games_of(part: &Aggregates) -> String {
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
            screened: screen_part(key, part),
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

/// The best players: the top tenth of the leaderboard, at least one player (none if empty).
/// The reference line of the report's round chart and of every player page.
pub fn best_players<'a, 'b>(board: &'b [Ranked<'a>]) -> Vec<&'b Ranked<'a>> {
    let n = (board.len() / 10).max(1).min(board.len());
    board.iter().take(n).collect()
}

//! Comparing two ratings of one corpus (`dicelens bench oracles`): how far a candidate oracle's
//! errors are from a reference oracle's, decision by decision and player by player, and how
//! much the leaderboard moves. Pure functions of the two ratings, so that the comparison can
//! be tested without timing anything.

use crate::aggregate::{Aggregates, Parts};
use crate::ranking::leaderboard;

/// One oracle's rating of a corpus, game by game in corpus order.
#[derive(Clone, Debug, Default)]
pub struct CorpusRating {
    /// Per game, the error of each decision in order; `None` if the oracle could not rate it.
    pub errors: Vec<Option<Vec<f64>>>,
    /// The statistics of the games rated (what `analyze` would report).
    pub aggregates: Parts,
    /// Wall-clock seconds the rating took.
    pub seconds: f64,
}

impl CorpusRating {
    /// Games rated per second.
    pub fn games_per_second(&self) -> f64 {
        self.aggregates.games() as f64 / self.seconds.max(1e-9)
    }
}

/// How a candidate's rating differs from the reference's.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Comparison {
    /// Games rated by both (only these are compared decision by decision).
    pub games_compared: u64,
    /// Decisions compared.
    pub decisions: u64,
    /// Mean over decisions of `|candidate error - reference error|`.
    pub decision_mean_abs_diff: f64,
    /// Largest such difference.
    pub decision_max_abs_diff: f64,
    /// Players with at least the minimum of games under the reference.
    pub players: usize,
    /// Mean over those players of `|candidate error per game - reference error per game|`.
    pub player_mean_abs_diff: f64,
    /// Largest such difference.
    pub player_max_abs_diff: f64,
    /// The player with the largest difference (the first by name among equals).
    pub(crate) player_max_abs_diff_player: Option<String>,
    /// Largest, over those players, of the difference divided by the half-width of the
    /// player's 95% confidence interval under the reference (how the difference compares with
    /// what the games themselves leave uncertain).
    pub player_max_diff_over_ci: f64,
    /// Spearman's rank correlation of the two leaderboards (players as above; ties share
    /// their mean rank); 1 when fewer than two players.
    pub spearman: f64,
    /// Players whose position on the leaderboard differs.
    pub positions_changed: usize,
}

/// Compares `candidate` with `reference` (two ratings of the same corpus); players count with
/// at least `min_games` games under the reference.
pub fn compare(reference: &CorpusRating, candidate: &CorpusRating, min_games: u64) -> Comparison {
    let mut c = Comparison::default();
    let mut sum = 0.0;
    for (r, k) in reference.errors.iter().zip(&candidate.errors) {
        let (Some(r), Some(k)) = (r, k) else {
            continue;
        };
        c.games_compared += 1;
        for (a, b) in r.iter().zip(k) {
            let d = (a - b).abs();
            sum += d;
            c.decisions += 1;
            c.decision_max_abs_diff = c.decision_max_abs_diff.max(d);
        }
    }
    c.decision_mean_abs_diff = sum / c.decisions.max(1) as f64;

    let empty = Aggregates::default();
    let reference_part = players_of(reference).unwrap_or(&empty);
    let candidate_part = players_of(candidate).unwrap_or(&empty);
    let board = leaderboard(reference_part, min_games);
    // The candidate's ranks among the same players.
    let on_board: std::collections::HashSet<&str> = board.iter().map(|r| r.name).collect();
    let their_rank: std::collections::HashMap<&str, usize> = leaderboard(candidate_part, 0)
        .iter()
        .filter(|t| on_board.contains(t.name))
        .enumerate()
        .map(|(i, t)| (t.name, i + 1))
        .collect();
    let mut ranks = (Vec::new(), Vec::new());
    let mut player_sum = 0.0;
    for row in &board {
        let Some(other) = candidate_part.players.get(row.name) else {
            continue;
        };
        let diff = (other.error_per_game() - row.stats.error_per_game()).abs();
        player_sum += diff;
        c.players += 1;
        if diff > c.player_max_abs_diff || c.player_max_abs_diff_player.is_none() {
            c.player_max_abs_diff = diff;
            c.player_max_abs_diff_player = Some(row.name.to_string());
        }
        let (low, high) = row.stats.error_per_game_ci();
        let half = (high - low) / 2.0;
        let ratio = if half > 0.0 {
            diff / half
        } else if diff > 0.0 {
            f64::INFINITY
        } else {
            0.0
        };
        c.player_max_diff_over_ci = c.player_max_diff_over_ci.max(ratio);
        ranks.0.push(row.rank as f64);
        ranks
            .1
            .push(their_rank.get(row.name).copied().unwrap_or(0) as f64);
    }
    c.player_mean_abs_diff = player_sum / c.players.max(1) as f64;
    c.spearman = spearman(&ranks.0, &ranks.1);
    c.positions_changed = ranks.0.iter().zip(&ranks.1).filter(|(a, b)| a != b).count();
    c
}

/// The part of a rating whose players are compared: its first part (a corpus of several parts,
/// such as one- and several-player games, is compared on the first).
fn players_of(rating: &CorpusRating) -> Option<&Aggregates> {
    rating.aggregates.parts().next().map(|(_, part)| part)
}

/// Spearman's rank correlation of two samples of the same length: Pearson's correlation of
/// their ranks, ties sharing their mean rank. 1 for fewer than two values or a constant sample
/// paired with another constant one; 0 when only one of them is constant.
pub fn spearman(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    if n < 2 {
        return 1.0;
    }
    let (ra, rb) = (ranks(&a[..n]), ranks(&b[..n]));
    let mean = (n as f64 + 1.0) / 2.0;
    let (mut cov, mut va, mut vb) = (0.0, 0.0, 0.0);
    for (x, y) in ra.iter().zip(&rb) {
        cov += (x - mean) * (y - mean);
        va += (x - mean) * (x - mean);
        vb += (y - mean) * (y - mean);
    }
    match (va > 0.0, vb > 0.0) {
        (true, true) => cov / (va * vb).sqrt(),
        (false, false) => 1.0,
        _ => 0.0,
    }
}

/// The 1-based ranks of `values`, ties sharing their mean rank.
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&i, &j| values[i].total_cmp(&values[j]));
    let mut out = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        let mean_rank = (start + end + 1) as f64 / 2.0;
        for &i in &order[start..end] {
            out[i] = mean_rank;
        }
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_of_known_samples() {
        assert_eq!(spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0]), 1.0);
        assert_eq!(spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), -1.0);
        // Ranks 1 2 3 4 against 1 3 2 4: 1 - 6 * 2 / (4 * 15) = 0.8.
        assert!((spearman(&[1.0, 2.0, 3.0, 4.0], &[1.0, 3.0, 2.0, 4.0]) - 0.8).abs() < 1e-12);
        // Ties share their mean rank: 1 2.5 2.5 4 against 1 2 3 4.
        let tied = spearman(&[1.0, 2.0, 2.0, 3.0], &[1.0, 2.0, 3.0, 4.0]);
        assert!((tied - 4.5 / (4.5f64 * 5.0).sqrt()).abs() < 1e-12, "{tied}");
        assert_eq!(spearman(&[5.0], &[1.0]), 1.0);
        assert_eq!(spearman(&[1.0, 1.0], &[1.0, 2.0]), 0.0);
    }

    #[test]
    fn ranks_share_ties() {
        assert_eq!(ranks(&[3.0, 1.0, 3.0, 2.0]), vec![3.5, 1.0, 3.5, 2.0]);
    }
}

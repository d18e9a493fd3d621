//! Engine-assistance screening (docs/methods.md, "Screening"): how often each player's chosen
//! option is a best one, against players of similar strength in the same corpus, and the
//! longest near-perfect stretches of each player's play. A screening points at players worth
//! a closer look; it is never a verdict.
//!
//! The sums it needs are mergeable: per player, the non-forced decisions and those agreeing
//! with the oracle ([`crate::aggregate::Tally::agreed`]) and the near-perfect stretches
//! ([`crate::aggregate::Stretches`], a bounded list merged by keeping the longest). The comparison with other
//! players is made when a report is written, part by part (`screen_part`), from merged totals.

use crate::aggregate::{Aggregates, PartKey, PlayerStats, Stretch};

/// Least non-forced decisions for a player to be screened (compared and flagged).
pub(crate) const MIN_UNFORCED: u64 = 300;
/// Players of similar strength each screened player is compared with: the nearest by error
/// per non-forced decision (fewer when the part has fewer screened players).
pub(crate) const PEERS: usize = 20;
/// Least peers for a z-score.
pub(crate) const MIN_PEERS: usize = 5;
/// A screened player is flagged when the z-score of their agreement is at least this.
pub(crate) const FLAG_Z: f64 = 3.0;
/// The share of simulated strong human players (`simulate` temperatures above 0) flagged at
/// `FLAG_Z`, at most: measured by `screening::` tests of the suite (docs/methods.md).
pub const FALSE_POSITIVE_RATE: f64 = 0.02;

/// One screened player of one part: the agreement and error, the comparison with players of
/// similar strength, the flag, and the longest near-perfect stretches.
#[derive(Clone, Debug, PartialEq)]
pub struct Screened<'a> {
    /// The part (unit and length of games).
    pub key: PartKey,
    /// The player's name.
    pub name: &'a str,
    /// The player's statistics in the part.
    pub stats: &'a PlayerStats,
    /// Non-forced decisions.
    pub unforced: u64,
    /// Share of them whose chosen option is a best one.
    pub agreement: f64,
    /// Mean error per non-forced decision, in the unit of the part.
    pub(crate) error_per_decision: f64,
    /// Peers the player is compared with (players of the part with at least [`MIN_UNFORCED`]
    /// non-forced decisions, nearest in error per non-forced decision).
    pub(crate) peers: usize,
    /// The peers' mean agreement.
    pub(crate) peer_agreement: f64,
    /// The standard deviation of the peers' agreement.
    pub(crate) peer_sd: f64,
    /// `(agreement - peer mean) / peer sd`; `None` with fewer than `MIN_PEERS` peers or when
    /// every peer agrees as often.
    pub z: Option<f64>,
    /// Percent of the peers whose agreement is below the player's (ties count half).
    pub percentile: Option<f64>,
    /// Percent of the part's screened players whose error per non-forced decision is higher
    /// than the player's (ties count half): how the error compares.
    pub(crate) error_percentile: f64,
    /// Whether the player has enough decisions and `z >= FLAG_Z`.
    pub flagged: bool,
    /// The longest near-perfect stretches.
    pub stretches: Vec<&'a Stretch>,
}

/// The screening of one part: its players with at least [`MIN_UNFORCED`] non-forced decisions,
/// highest z-score first (players without one last, by agreement), then by name.
pub(crate) fn screen_part(key: PartKey, part: &Aggregates) -> Vec<Screened<'_>> {
    let mut players: Vec<(&str, &PlayerStats)> = part
        .players
        .iter()
        .filter(|(_, p)| p.all.unforced >= MIN_UNFORCED)
        .map(|(name, p)| (name.as_str(), p))
        .collect();
    // By strength: error per non-forced decision, then name.
    players.sort_by(|a, b| {
        a.1.all
            .error_per_unforced()
            .total_cmp(&b.1.all.error_per_unforced())
            .then(a.0.cmp(b.0))
    });
    let n = players.len();
    let errors: Vec<f64> = players
        .iter()
        .map(|(_, p)| p.all.error_per_unforced())
        .collect();
    // Negated, so the share below is the share with a higher error.
    let negated: Vec<f64> = errors.iter().map(|e| -e).collect();
    let mut rows: Vec<Screened> = players
        .iter()
        .enumerate()
        .map(|(i, (name, p))| {
            let agreement = p.all.agreement();
            let error = errors[i];
            let shares: Vec<f64> = peers_of(i, n)
                .map(|j| players[j].1.all.agreement())
                .collect();
            let (mean, sd) = mean_sd(&shares);
            let compared = shares.len() >= MIN_PEERS;
            let z = (compared && sd > 0.0).then(|| (agreement - mean) / sd);
            let percentile = compared.then(|| share_below(&shares, agreement));
            Screened {
                key,
                name,
                stats: p,
                unforced: p.all.unforced,
                agreement,
                error_per_decision: error,
                peers: shares.len(),
                peer_agreement: mean,
                peer_sd: sd,
                z,
                percentile,
                error_percentile: share_below(&negated, -error),
                flagged: z.is_some_and(|z| z >= FLAG_Z),
                stretches: p.stretches.longest(),
            }
        })
        .collect();
    rows.sort_by(|a, b| {
        let z = |r: &Screened| r.z.unwrap_or(f64::NEG_INFINITY);
        z(b).total_cmp(&z(a))
            .then(b.agreement.total_cmp(&a.agreement))
            .then(a.name.cmp(b.name))
    });
    rows
}

/// The indices of the peers of player `i` of `n` sorted by strength: the [`PEERS`] nearest
/// ranks, the window shifted at either end, `i` left out.
fn peers_of(i: usize, n: usize) -> impl Iterator<Item = usize> {
    let width = PEERS.min(n.saturating_sub(1));
    let start = i.saturating_sub(width / 2).min(n.saturating_sub(width + 1));
    (start..(start + width + 1).min(n)).filter(move |&j| j != i)
}

/// Mean and sample standard deviation (0 for fewer than two values).
fn mean_sd(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, 0.0);
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}

/// Percent of `values` below `x`, ties counting half.
fn share_below(values: &[f64], x: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let below = values.iter().filter(|v| **v < x).count() as f64;
    let ties = values.iter().filter(|v| **v == x).count() as f64;
    100.0 * (below + ties / 2.0) / values.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Peers are the nearest ranks, shifted at the ends, never the player.
    #[test]
    fn peers_are_the_nearest_ranks() {
        let of = |i, n| peers_of(i, n).collect::<Vec<_>>();
        assert_eq!(of(0, 3), vec![1, 2]);
        assert_eq!(of(0, 100), (1..=20).collect::<Vec<_>>());
        assert_eq!(
            of(50, 100),
            (40..=60).filter(|&j| j != 50).collect::<Vec<_>>()
        );
        assert_eq!(of(99, 100), (79..=98).collect::<Vec<_>>());
        assert!(of(0, 1).is_empty());
        assert_eq!(share_below(&[1.0, 2.0, 3.0, 3.0], 3.0), 75.0);
        let (mean, sd) = mean_sd(&[1.0, 3.0]);
        assert!((mean - 2.0).abs() < 1e-12 && (sd - 2f64.sqrt()).abs() < 1e-12);
    }
}

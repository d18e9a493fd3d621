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
use crate::rate::Unit;

/// Least non-forced decisions for a player to be screened (compared and flagged).
pub(crate) const MIN_UNFORCED: u64 = 300;
/// Players of similar strength each screened player is compared with: the nearest by error
/// per non-forced decision (fewer when the part has fewer screened players).
pub(crate) const PEERS: usize = 20;
/// Least peers for a z-score.
pub(crate) const MIN_PEERS: usize = 5;
/// A screened player is flagged when the z-score of their agreement is at least this.
pub(crate) const FLAG_Z: f64 = 3.0;
/// The share of simulated strong human players (`simulate` temperatures above 0) flagged by
/// either engine (at `FLAG_Z`, or for near-total agreement), at most: measured by
/// `screening::` tests of the suite on one-player and two-player corpora (docs/methods.md).
pub const FALSE_POSITIVE_RATE: f64 = 0.02;

/// Agreement with an engine that counts as near total: at least this share of a player's
/// non-forced decisions against it, with at least [`MIN_UNFORCED`] of them (at most one miss in
/// a thousand: a solver's agreement with its own engine is total, and the strongest simulated
/// humans, who lose about 0.0001 points per decision, miss about 7 in a thousand). From
/// agreement counts only (not from the stretches), so a merge that subtracts duplicate games
/// lists and flags the same players as one analysis. Such a player is flagged by that engine
/// whatever their z-score, and listed first.
pub(crate) const NEAR_TOTAL_AGREEMENT: f64 = 0.999;

/// An engine a player's choices are compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Engine {
    /// The analysis's oracle (in match points in games of several players by default).
    Oracle,
    /// The solitaire oracle (optimal expected final score of the mover's own sheet, what every
    /// public solver plays), beside a match-point oracle in games of several players.
    Solitaire,
}

impl Engine {
    /// The engine's name in the outputs (`oracle`, `solitaire`).
    pub fn name(self) -> &'static str {
        match self {
            Engine::Oracle => "oracle",
            Engine::Solitaire => "solitaire",
        }
    }

    /// The engine in words.
    pub fn words(self) -> &'static str {
        match self {
            Engine::Oracle => "the analysis's oracle",
            Engine::Solitaire => "the solitaire oracle (what public solvers play)",
        }
    }
}

/// One screened player's comparison with the solitaire oracle, in a part of games of several
/// players rated in match points: the agreement against peers (the same players of similar
/// strength as the oracle's comparison), the z-score, the flag, the near-perfect stretches.
#[derive(Clone, Debug, PartialEq)]
pub struct SolitaireScreened<'a> {
    /// Non-forced decisions by the solitaire oracle's values.
    pub unforced: u64,
    /// Those whose chosen option is its best.
    pub agreed: u64,
    /// `agreed / unforced`.
    pub agreement: f64,
    /// Mean error per non-forced decision, expected points.
    pub(crate) error_per_decision: f64,
    /// The comparison with the peers that have at least `MIN_UNFORCED` such decisions (no
    /// z-score or percentile when the player has fewer).
    pub compared: Comparison,
    /// Whether the player has enough decisions and `z >= FLAG_Z` or near-total agreement.
    pub flagged: bool,
    /// The longest near-perfect stretches against the solitaire oracle.
    pub stretches: Vec<&'a Stretch>,
}

/// The evidence that a player's agreement with an engine is near total: the engine, the
/// agreement over all the player's non-forced decisions against it, and the longest
/// near-perfect stretch against it.
#[derive(Clone, Debug, PartialEq)]
pub struct NearTotal<'a> {
    /// The engine.
    pub engine: Engine,
    /// Non-forced decisions against it.
    pub unforced: u64,
    /// Share of them agreeing.
    pub agreement: f64,
    /// The longest near-perfect stretch against it, if any.
    pub stretch: Option<&'a Stretch>,
    /// The unit of the engine's errors (points for the solitaire oracle).
    pub unit: Unit,
}

/// Whether agreement with an engine is near total (docs/methods.md, "Engine-assistance
/// screening"): at least [`NEAR_TOTAL_AGREEMENT`] of at least [`MIN_UNFORCED`] non-forced
/// decisions; the evidence with it.
fn near_total(
    engine: Engine,
    unforced: u64,
    agreement: f64,
    stretch: Option<&Stretch>,
    unit: Unit,
) -> Option<NearTotal<'_>> {
    (unforced >= MIN_UNFORCED && agreement >= NEAR_TOTAL_AGREEMENT).then_some(NearTotal {
        engine,
        unforced,
        agreement,
        stretch,
        unit,
    })
}

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
    /// Whether the player has enough decisions and `z >= FLAG_Z`, or near-total agreement with
    /// the oracle.
    pub flagged: bool,
    /// The longest near-perfect stretches.
    pub stretches: Vec<&'a Stretch>,
    /// The comparison with the solitaire oracle, in a part in match points (`None` elsewhere,
    /// where the oracle is the solitaire one, and for a player without such decisions).
    pub solitaire: Option<SolitaireScreened<'a>>,
    /// The engines the player's agreement with is near total, with the evidence (such players
    /// are listed first).
    pub near_total: Vec<NearTotal<'a>>,
}

impl Screened<'_> {
    /// The engines that flagged the player (z-score at least `FLAG_Z`, or near-total
    /// agreement).
    pub fn flagged_by(&self) -> Vec<Engine> {
        let solitaire = self.solitaire.as_ref().is_some_and(|s| s.flagged);
        [
            (Engine::Oracle, self.flagged),
            (Engine::Solitaire, solitaire),
        ]
        .into_iter()
        .filter_map(|(engine, flagged)| flagged.then_some(engine))
        .collect()
    }

    /// The comparison with the oracle's peers.
    pub(crate) fn compared(&self) -> Comparison {
        Comparison {
            peers: self.peers,
            mean: self.peer_agreement,
            sd: self.peer_sd,
            z: self.z,
            percentile: self.percentile,
        }
    }

    /// The highest z-score of the engines (`None` without any).
    fn top_z(&self) -> Option<f64> {
        let solitaire = self.solitaire.as_ref().and_then(|s| s.compared.z);
        match (self.z, solitaire) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }

    /// The highest near-total agreement (`None` when no agreement is near total).
    fn near_total_agreement(&self) -> Option<f64> {
        self.near_total.iter().map(|n| n.agreement).reduce(f64::max)
    }
}

/// One player's agreement with an engine compared with that of their peers.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Peers compared with.
    pub(crate) peers: usize,
    /// Their mean agreement.
    pub(crate) mean: f64,
    /// Its standard deviation.
    pub(crate) sd: f64,
    /// `(agreement - mean) / sd`; `None` with fewer than `MIN_PEERS` peers or no spread.
    pub z: Option<f64>,
    /// Percent of the peers agreeing less often (ties half).
    pub percentile: Option<f64>,
}

impl Comparison {
    /// `agreement` against the peers' `shares`.
    fn of(agreement: f64, shares: &[f64]) -> Comparison {
        let (mean, sd) = mean_sd(shares);
        let compared = shares.len() >= MIN_PEERS;
        Comparison {
            peers: shares.len(),
            mean,
            sd,
            z: (compared && sd > 0.0).then(|| (agreement - mean) / sd),
            percentile: compared.then(|| share_below(shares, agreement)),
        }
    }

    /// Whether the z-score flags the player.
    fn flags(&self) -> bool {
        self.z.is_some_and(|z| z >= FLAG_Z)
    }
}

/// The screening of one part: its players with at least [`MIN_UNFORCED`] non-forced decisions;
/// those whose agreement with an engine is near total first (highest such agreement first),
/// then the others by their highest z-score of the engines (players without one last, by
/// agreement), then by name.
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
            let oracle = Comparison::of(agreement, &shares);
            let stretches = p.stretches.longest();
            let solitaire = (key.unit == Unit::MatchPoints && p.solitaire.unforced > 0)
                .then(|| screen_solitaire(p, peers_of(i, n).map(|j| players[j].1)));
            let near_total: Vec<NearTotal> = [
                near_total(
                    Engine::Oracle,
                    p.all.unforced,
                    agreement,
                    stretches.first().copied(),
                    key.unit,
                ),
                solitaire.as_ref().and_then(|s| {
                    let longest = s.stretches.first().copied();
                    near_total(
                        Engine::Solitaire,
                        s.unforced,
                        s.agreement,
                        longest,
                        Unit::Points,
                    )
                }),
            ]
            .into_iter()
            .flatten()
            .collect();
            Screened {
                key,
                name,
                stats: p,
                unforced: p.all.unforced,
                agreement,
                error_per_decision: error,
                peers: oracle.peers,
                peer_agreement: oracle.mean,
                peer_sd: oracle.sd,
                z: oracle.z,
                percentile: oracle.percentile,
                error_percentile: share_below(&negated, -error),
                flagged: oracle.flags()
                    || near_total
                        .iter()
                        .any(|n: &NearTotal| n.engine == Engine::Oracle),
                stretches,
                solitaire,
                near_total,
            }
        })
        .collect();
    rows.sort_by(listing_order);
    rows
}

/// The order of the screening's rows: near-total agreement first (highest first), then the
/// highest z-score of the engines (none last), the agreement with the oracle, the name.
fn listing_order(a: &Screened, b: &Screened) -> std::cmp::Ordering {
    let near = |r: &Screened| r.near_total_agreement().unwrap_or(f64::NEG_INFINITY);
    let z = |r: &Screened| r.top_z().unwrap_or(f64::NEG_INFINITY);
    near(b)
        .total_cmp(&near(a))
        .then(z(b).total_cmp(&z(a)))
        .then(b.agreement.total_cmp(&a.agreement))
        .then(a.name.cmp(b.name))
}

/// A player's comparison with the solitaire oracle against `peers` (those of the oracle's
/// comparison), counting the peers with at least [`MIN_UNFORCED`] non-forced decisions by it.
fn screen_solitaire<'a>(
    p: &'a PlayerStats,
    peers: impl Iterator<Item = &'a PlayerStats>,
) -> SolitaireScreened<'a> {
    let own = &p.solitaire;
    let agreement = own.agreement();
    let shares: Vec<f64> = peers
        .filter(|q| q.solitaire.unforced >= MIN_UNFORCED)
        .map(|q| q.solitaire.agreement())
        .collect();
    let mut compared = Comparison::of(agreement, &shares);
    let enough = own.unforced >= MIN_UNFORCED;
    if !enough {
        (compared.z, compared.percentile) = (None, None);
    }
    SolitaireScreened {
        unforced: own.unforced,
        agreed: own.agreed,
        agreement,
        error_per_decision: own.error_per_unforced(),
        flagged: enough && (compared.flags() || agreement >= NEAR_TOTAL_AGREEMENT),
        compared,
        stretches: own.stretches.longest(),
    }
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

    /// A player of `unforced` non-forced decisions, `agreed` of them agreeing with the oracle,
    /// with this error per non-forced decision; `solitaire`: the same counts against the
    /// solitaire oracle.
    fn player(unforced: u64, agreed: u64, error: f64, solitaire: (u64, u64)) -> PlayerStats {
        let mut p = PlayerStats {
            games: 30,
            ..PlayerStats::default()
        };
        p.all.decisions = unforced;
        p.all.unforced = unforced;
        p.all.agreed = agreed;
        p.all.error_nano = (error * unforced as f64 * 1e9).round() as i128;
        p.solitaire.unforced = solitaire.0;
        p.solitaire.agreed = solitaire.1;
        p
    }

    /// In match points, each player is compared with the solitaire oracle against the oracle's
    /// peers: a player agreeing with it every time among humans is flagged by it and listed
    /// first, with the evidence, before a player whose agreement with the oracle is near total
    /// (99.9%: flagged by it); the others follow by their highest z-score. In points, there is
    /// no solitaire comparison.
    #[test]
    fn near_total_agreement_is_listed_first_and_each_engine_flags() {
        let mut part = Aggregates::default();
        for i in 0..15u64 {
            let stats = player(
                1000,
                800 + (i % 3) * 10,
                (i + 1) as f64 / 1000.0,
                (1000, 850 + (i % 4) * 10),
            );
            part.players.insert(format!("h{i:02}"), stats);
        }
        // The solver: agrees with the solitaire oracle every time, as often as a human with
        // the oracle.
        part.players
            .insert("copier".into(), player(1000, 810, 0.0081, (990, 990)));
        // Near total with the oracle itself.
        part.players
            .insert("oracle".into(), player(1000, 999, 0.0042, (1000, 900)));
        let key = |unit| PartKey { unit, rounds: 13 };
        let rows = screen_part(key(Unit::MatchPoints), &part);
        assert_eq!(rows.len(), 17);
        assert_eq!((rows[0].name, rows[1].name), ("copier", "oracle"));
        let copier = &rows[0];
        assert_eq!(copier.near_total.len(), 1);
        assert_eq!(copier.near_total[0].engine, Engine::Solitaire);
        assert_eq!(copier.near_total[0].unforced, 990);
        assert_eq!(copier.near_total[0].agreement, 1.0);
        assert_eq!(copier.flagged_by(), vec![Engine::Solitaire]);
        let solitaire = copier.solitaire.as_ref().unwrap();
        assert_eq!(solitaire.compared.peers, PEERS.min(16));
        assert!(solitaire.compared.z.unwrap() > FLAG_Z && !copier.flagged);
        assert_eq!(rows[1].near_total[0].engine, Engine::Oracle);
        assert_eq!(rows[1].flagged_by(), vec![Engine::Oracle]);
        // The humans: none near total or flagged, ordered by their highest z.
        let humans = &rows[2..];
        assert!(humans.iter().all(|r| r.near_total.is_empty()));
        assert!(
            humans.iter().all(|r| r.flagged_by().is_empty()),
            "{humans:?}"
        );
        let z: Vec<f64> = humans.iter().map(|r| r.top_z().unwrap()).collect();
        assert!(z.windows(2).all(|w| w[0] >= w[1]), "{z:?}");
        // In points the oracle is the solitaire one: no second comparison, only the oracle's
        // near-total agreement.
        let rows = screen_part(key(Unit::Points), &part);
        assert_eq!(rows[0].name, "oracle");
        assert!(rows.iter().all(|r| r.solitaire.is_none()));
        assert!(rows[1..].iter().all(|r| r.near_total.is_empty()));
    }

    /// A player with fewer than `MIN_UNFORCED` decisions by the solitaire oracle is shown but
    /// neither compared nor near total by it.
    #[test]
    fn too_few_solitaire_decisions_are_not_compared() {
        let mut part = Aggregates::default();
        for i in 0..8u64 {
            let stats = player(1000, 800 + i, (i + 1) as f64 / 1000.0, (1000, 850 + 5 * i));
            part.players.insert(format!("h{i}"), stats);
        }
        part.players.insert(
            "few".into(),
            player(1000, 800, 0.004, (MIN_UNFORCED - 1, MIN_UNFORCED - 1)),
        );
        let key = PartKey {
            unit: Unit::MatchPoints,
            rounds: 13,
        };
        let rows = screen_part(key, &part);
        let few = rows.iter().find(|r| r.name == "few").unwrap();
        let s = few.solitaire.as_ref().unwrap();
        assert_eq!((s.compared.z, s.flagged, s.agreement), (None, false, 1.0));
        assert!(few.near_total.is_empty());
        // Nor a peer of the others.
        let other = rows.iter().find(|r| r.name == "h3").unwrap();
        assert_eq!(other.solitaire.as_ref().unwrap().compared.peers, 7);
    }
}

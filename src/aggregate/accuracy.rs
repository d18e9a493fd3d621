//! Accuracy and rating labels: the two summaries of a player's play that players of other games
//! recognise (docs/methods.md, "Accuracy and rating labels").
//!
//! - **Accuracy** (0 to 100), as lichess gives one from its win percentage: each non-forced
//!   decision's error becomes a loss in percent (`loss_percent`: the loss of win chance in
//!   match points, the error in points times `POINTS_LOSS_SCALE` in points), the loss an
//!   accuracy by lichess's per-move curve (`decision_accuracy`); a game's accuracy is the
//!   arithmetic mean over the player's non-forced decisions of the game, a player's the mean
//!   over their games.
//! - **Rating label**, as GNU Backgammon gives one, by the error per non-forced decision in the
//!   unit of the part ([`Label::of_error`]), with band edges derived per unit from simulated
//!   players of known temperature (`POINTS_EDGES`, `MATCH_POINTS_EDGES`).

use crate::rate::{Rated, Unit};

/// Percentage points of loss per point of error in one-player games (games rated in expected
/// points): chosen so that simulated players of the strength of a strong and of an average
/// human get figures like lichess's (about 90% and 80%; docs/methods.md has the measurement).
pub(crate) const POINTS_LOSS_SCALE: f64 = 5.0;

/// Micro-percent per percent: a game's accuracy is summed in whole micro-percent, so the sums
/// merge exactly.
pub(crate) const MICRO_PERCENT: f64 = 1e6;

/// The loss, in percent, of a decision whose error is `error` in `unit`, in a game of `seats`
/// players: in match points the loss of win chance (the error over the opponents, times 100:
/// a match point is one opponent beaten), in points the error times [`POINTS_LOSS_SCALE`].
pub(crate) fn loss_percent(error: f64, unit: Unit, seats: usize) -> f64 {
    match unit {
        Unit::MatchPoints => 100.0 * error / seats.saturating_sub(1).max(1) as f64,
        Unit::Points | Unit::Mixed => POINTS_LOSS_SCALE * error,
    }
}

/// The accuracy of one decision that lost `loss` percent: lichess's per-move curve
/// `103.1668 · exp(-0.04354 · loss) - 3.1669`, cut to 0..=100.
pub(crate) fn decision_accuracy(loss: f64) -> f64 {
    (103.1668 * (-0.04354 * loss.max(0.0)).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The accuracy of one player's play in a game of `seats` players: the mean accuracy of their
/// non-forced decisions among `rated`; `None` when every one was forced (nothing to rate).
pub(crate) fn game_accuracy<'a>(
    rated: impl IntoIterator<Item = &'a Rated>,
    seats: usize,
) -> Option<f64> {
    mean_accuracy(
        rated.into_iter().map(|r| (r.error, r.unit, r.forced)),
        seats,
    )
}

/// The mean accuracy of the non-forced decisions among `decisions` (each its error, its unit
/// and whether it was forced) in a game of `seats` players; `None` without any. What
/// [`game_accuracy`] computes from rated decisions, for decisions read back as rows.
pub(crate) fn mean_accuracy(
    decisions: impl IntoIterator<Item = (f64, Unit, bool)>,
    seats: usize,
) -> Option<f64> {
    let (sum, count) = decisions
        .into_iter()
        .filter(|&(_, _, forced)| !forced)
        .fold((0.0, 0u64), |(sum, count), (error, unit, _)| {
            let loss = loss_percent(error, unit, seats);
            (sum + decision_accuracy(loss), count + 1)
        });
    (count > 0).then(|| sum / count as f64)
}

/// The accuracy of every seat of a game (seat order), from its rated decisions.
pub(crate) fn seat_accuracies(rated: &[Rated], seats: usize) -> Vec<Option<f64>> {
    (0..seats)
        .map(|seat| {
            let own = rated
                .iter()
                .filter(|r| usize::from(r.decision.seat) == seat);
            game_accuracy(own, seats)
        })
        .collect()
}

/// A game's accuracy in whole micro-percent (the unit of the sums that merge).
pub(crate) fn micro_percent(accuracy: f64) -> u64 {
    (accuracy * MICRO_PERCENT).round() as u64
}

/// A rating label, by error per non-forced decision, best first (GNU Backgammon's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Label {
    /// Below the first edge.
    Supernatural,
    /// Below the second edge.
    WorldClass,
    /// Below the third edge.
    Expert,
    /// Below the fourth edge.
    Advanced,
    /// Below the fifth edge.
    Intermediate,
    /// Below the sixth edge.
    Casual,
    /// Below the seventh edge.
    Beginner,
    /// At or above the last edge.
    Awful,
}

/// The upper edges (exclusive) of the labels in expected points per non-forced decision, best
/// label first: the error per non-forced decision of simulated one-player Yahtzee players of
/// temperatures 0.05, 0.1, 0.2, 0.4, 0.8, 1.6 and 3.2 points (docs/methods.md).
pub(crate) const POINTS_EDGES: [f64; 7] = [0.0009, 0.0035, 0.017, 0.076, 0.36, 1.0, 2.2];

/// The upper edges (exclusive) of the labels in expected match points per non-forced
/// decision: those of simulated two-player Yahtzee players of the same temperatures where
/// their match-point errors are above the floor of solitaire play (0.8 points and up), below
/// it the points edges times the exchange rate measured at 0.8 (docs/methods.md).
pub(crate) const MATCH_POINTS_EDGES: [f64; 7] = [
    0.000_006_7,
    0.000_025,
    0.000_13,
    0.000_56,
    0.002_6,
    0.007_3,
    0.013,
];

impl Label {
    /// Every label, best first.
    pub const ALL: [Label; 8] = [
        Label::Supernatural,
        Label::WorldClass,
        Label::Expert,
        Label::Advanced,
        Label::Intermediate,
        Label::Casual,
        Label::Beginner,
        Label::Awful,
    ];

    /// The label of an error of `error_per_decision` (per non-forced decision) in `unit`.
    pub fn of_error(error_per_decision: f64, unit: Unit) -> Label {
        let edges = match unit {
            Unit::MatchPoints => &MATCH_POINTS_EDGES,
            Unit::Points | Unit::Mixed => &POINTS_EDGES,
        };
        let band = edges
            .iter()
            .take_while(|&&edge| error_per_decision >= edge)
            .count();
        Label::ALL[band]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rated decision of `seat` with `error` in `unit`, forced or not.
    fn rated(seat: u8, error: f64, unit: Unit, forced: bool) -> Rated {
        Rated::for_test(seat, error, unit, forced)
    }

    /// The curve at hand-computed points: no loss is (all but) 100, a loss of 10% is
    /// 103.1668·e^-0.4354 - 3.1669 = 63.5826..., a large loss is cut at 0.
    #[test]
    fn curve_matches_lichess() {
        assert!((decision_accuracy(0.0) - 99.9999).abs() < 1e-9);
        assert!((decision_accuracy(10.0) - 63.582_619).abs() < 1e-5);
        assert_eq!(decision_accuracy(200.0), 0.0);
        assert!((decision_accuracy(-1.0) - 99.9999).abs() < 1e-9);
    }

    /// The loss of a decision in each unit: win chance over the opponents, points times the
    /// scale.
    #[test]
    fn losses_by_unit() {
        assert!((loss_percent(0.02, Unit::MatchPoints, 2) - 2.0).abs() < 1e-12);
        assert!((loss_percent(0.02, Unit::MatchPoints, 3) - 1.0).abs() < 1e-12);
        assert!((loss_percent(1.5, Unit::Points, 1) - 7.5).abs() < 1e-12);
    }

    /// A two-player game: seat 0 lost 0.1 and 0 match points in two non-forced decisions and
    /// had a forced one (not counted), seat 1 only forced decisions (no accuracy).
    #[test]
    fn game_accuracy_is_the_mean_over_unforced_decisions() {
        let mp = Unit::MatchPoints;
        let game = [
            rated(0, 0.1, mp, false),
            rated(1, 0.0, mp, true),
            rated(0, 0.0, mp, false),
            rated(0, 0.0, mp, true),
        ];
        let expected = (103.1668 * (-0.4354f64).exp() - 3.1669 + 99.9999) / 2.0;
        let seats = seat_accuracies(&game, 2);
        assert!((seats[0].unwrap() - expected).abs() < 1e-9, "{seats:?}");
        assert!((expected - 81.791_260).abs() < 1e-5);
        assert_eq!(seats[1], None);
        // One player, 2 points lost in one of two decisions: loss 10%, then 0.
        let solo = [
            rated(0, 2.0, Unit::Points, false),
            rated(0, 0.0, Unit::Points, false),
        ];
        let accuracy = game_accuracy(&solo, 1).unwrap();
        assert!((accuracy - (63.582_619 + 99.9999) / 2.0).abs() < 1e-5);
        assert_eq!(micro_percent(accuracy), 81_791_260);
    }

    /// Labels follow the bands of each unit, an edge belonging to the worse label.
    #[test]
    fn labels_follow_the_bands() {
        let (points, mp) = (Unit::Points, Unit::MatchPoints);
        for (error, unit, label) in [
            (0.0, points, Label::Supernatural),
            (0.0009, points, Label::WorldClass),
            (0.05, points, Label::Advanced),
            (0.5, points, Label::Casual),
            (2.2, points, Label::Awful),
            (0.000_001, mp, Label::Supernatural),
            (0.0005, mp, Label::Advanced),
            (0.001, mp, Label::Intermediate),
            (0.01, mp, Label::Beginner),
            (0.05, mp, Label::Awful),
        ] {
            assert_eq!(Label::of_error(error, unit), label, "{error} {unit:?}");
        }
        for edges in [POINTS_EDGES, MATCH_POINTS_EDGES] {
            assert!(edges.windows(2).all(|w| w[0] < w[1]), "{edges:?}");
        }
        for (band, edge) in POINTS_EDGES.iter().enumerate() {
            assert_eq!(Label::of_error(*edge, points), Label::ALL[band + 1]);
            assert_eq!(Label::of_error(edge * 0.999, points), Label::ALL[band]);
        }
    }
}

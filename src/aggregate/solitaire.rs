//! The screening's second engine (docs/methods.md, "Engine-assistance screening"): in games of
//! several players rated in match points, each player's agreement with the solitaire oracle
//! (the optimal expected final score of their own sheet, what every public solver plays) and
//! their near-perfect stretches against it, kept as mergeable sums beside the match-point
//! ones ([`crate::aggregate::Tally::agreed`], [`crate::aggregate::PlayerStats::stretches`]).

use super::stretches::Stretches;
use super::{add_checked, nano, Overflow, AGREEMENT_TOLERANCE, NANO};
use crate::rate::{Class, Rated, SolitaireView, Thresholds};
use serde::{Deserialize, Serialize};

/// One player's decisions in one part as the solitaire oracle sees them: the non-forced ones
/// (by the solitaire oracle's values), those whose chosen option is its best, their errors, and
/// the near-perfect stretches. Empty for decisions the solitaire oracle rated themselves
/// (one-player games, `--oracle e`, Jamb).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolitaireCounts {
    /// Decisions the solitaire oracle sees a choice in.
    pub unforced: u64,
    /// Those whose chosen option is a best one of the solitaire oracle (within
    /// `AGREEMENT_TOLERANCE` points).
    pub agreed: u64,
    /// Sum of their errors in expected points, nano-points.
    pub(crate) error_nano: i128,
    /// The near-perfect stretches against the solitaire oracle: runs of non-forced decisions
    /// each with an error below the doubtful threshold of points.
    #[serde(default, skip_serializing_if = "Stretches::is_empty")]
    pub stretches: Stretches,
}

impl SolitaireCounts {
    /// Adds a player's rated decision (of game `game`, in corpus order; `None` keeps no
    /// stretches): nothing when the rating has no solitaire view of it.
    pub fn add(&mut self, game: Option<&str>, r: &Rated) {
        let Some(view) = r.solitaire else { return };
        self.add_view(game, &view);
    }

    /// Adds one decision's solitaire view.
    fn add_view(&mut self, game: Option<&str>, view: &SolitaireView) {
        if view.forced {
            return;
        }
        self.unforced += 1;
        self.agreed += u64::from(view.error <= AGREEMENT_TOLERANCE);
        self.error_nano += nano(view.error);
        if let Some(game) = game {
            let fine = Class::of(view.error, &Thresholds::POINTS) == Class::Fine;
            self.stretches.add_decision(game, false, fine, view.error);
        }
    }

    /// Appends `next` (the same player's counts of the games after these); an error naming the
    /// counter that would overflow.
    pub fn merge(&mut self, next: &SolitaireCounts) -> Result<(), Overflow> {
        add_checked(&mut self.unforced, next.unforced, "unforced")?;
        add_checked(&mut self.agreed, next.agreed, "agreed")?;
        add_checked(&mut self.error_nano, next.error_nano, "error_nano")?;
        self.stretches
            .merge(&next.stretches)
            .map_err(|e| e.within("stretches"))
    }

    /// Removes another's counts: undoes [`SolitaireCounts::merge`] exactly, but for the
    /// stretches, which stay as they are (as [`crate::aggregate::PlayerStats::subtract`]
    /// leaves the match-point ones).
    pub fn subtract(&mut self, o: &SolitaireCounts) {
        self.unforced = self.unforced.saturating_sub(o.unforced);
        self.agreed = self.agreed.saturating_sub(o.agreed);
        self.error_nano = self.error_nano.saturating_sub(o.error_nano);
    }

    /// Whether nothing was added.
    pub fn is_empty(&self) -> bool {
        *self == SolitaireCounts::default()
    }

    /// Share of the non-forced decisions whose chosen option is the solitaire oracle's best
    /// (0 without any).
    pub fn agreement(&self) -> f64 {
        match self.unforced {
            0 => 0.0,
            n => self.agreed as f64 / n as f64,
        }
    }

    /// Mean error per non-forced decision in expected points (0 without any).
    pub fn error_per_unforced(&self) -> f64 {
        match self.unforced {
            0 => 0.0,
            n => self.error_nano as f64 / NANO / n as f64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A view of a non-forced decision with this error.
    fn view(error: f64) -> SolitaireView {
        SolitaireView {
            error,
            forced: false,
        }
    }

    /// Counts added decision by decision equal counts of shards merged in order (stretches
    /// included); forced decisions count nowhere; subtracting undoes a merge but for the
    /// stretches.
    #[test]
    fn counts_agreement_and_stretches_merge_like_one_pass() {
        // Game g: 25 decisions; decisions 60 and 194 with an error of 0.5 points (each breaks
        // a run), every 5th a small error of 0.001 (near-perfect, not agreeing), every 11th
        // forced.
        let decisions: Vec<(String, SolitaireView)> = (0..10)
            .flat_map(|g| {
                (0..25).map(move |d| {
                    let i = g * 25 + d;
                    let v = if i % 11 == 0 {
                        SolitaireView {
                            error: 0.0,
                            forced: true,
                        }
                    } else if i == 60 || i == 194 {
                        view(0.5)
                    } else if i % 5 == 0 {
                        view(0.001)
                    } else {
                        view(0.0)
                    };
                    (format!("g{g:02}"), v)
                })
            })
            .collect();
        let one = |range: std::ops::Range<usize>| {
            let mut c = SolitaireCounts::default();
            for (game, v) in &decisions[range] {
                c.add_view(Some(game), v);
            }
            c
        };
        let whole = one(0..decisions.len());
        let unforced = decisions.iter().filter(|(_, v)| !v.forced).count() as u64;
        let agreed = decisions
            .iter()
            .filter(|(_, v)| !v.forced && v.error == 0.0)
            .count() as u64;
        assert_eq!((whole.unforced, whole.agreed), (unforced, agreed));
        assert!((whole.agreement() - agreed as f64 / unforced as f64).abs() < 1e-15);
        let errors: f64 = decisions
            .iter()
            .filter(|(_, v)| !v.forced)
            .map(|(_, v)| v.error)
            .sum();
        assert!((whole.error_per_unforced() - errors / unforced as f64).abs() < 1e-12);
        // The two errors of 0.5 break the runs 0..60 (54 non-forced), 61..194 (121) and
        // 195..250 (50): only the middle one is long enough to list.
        let longest = whole.stretches.longest();
        assert_eq!(longest.len(), 1, "{longest:?}");
        let in_middle = (61..194).filter(|i| i % 11 != 0).count() as u64;
        assert_eq!(in_middle, 121);
        assert_eq!(longest[0].decisions, in_middle);
        assert_eq!(
            (
                longest[0].first_game.as_str(),
                longest[0].last_game.as_str()
            ),
            ("g02", "g07")
        );
        for cut in [0, 25, 100, 200, decisions.len()] {
            let mut merged = one(0..cut);
            merged.merge(&one(cut..decisions.len())).unwrap();
            assert_eq!(merged, whole, "cut at {cut}");
        }
        let mut less = whole.clone();
        less.subtract(&one(0..100));
        assert_eq!(less.unforced, one(100..decisions.len()).unforced);
        assert_eq!(less.stretches, whole.stretches);
    }

    /// A game's views go to the player of each decision's seat (stretches only with the
    /// game's id); decisions rated without one (one-player games, `--oracle e`) add nothing.
    #[test]
    fn each_seat_counts_its_own_views() {
        use crate::aggregate::{Aggregates, GameStats};
        let decision = |seat: u8, error: f64, solitaire: Option<SolitaireView>| Rated {
            solitaire,
            ..Rated::for_test(seat, error, crate::rate::Unit::MatchPoints, false)
        };
        let rated = [
            decision(0, 0.0, Some(view(0.0))),
            decision(1, 0.0, Some(view(2.0))),
            decision(0, 0.01, Some(view(0.0))),
            decision(1, 0.0, None),
            decision(
                0,
                0.0,
                Some(SolitaireView {
                    error: 0.0,
                    forced: true,
                }),
            ),
        ];
        let players = ["ann".to_string(), "bob".to_string()];
        let mut a = Aggregates::default();
        for game_id in [Some("g1"), None] {
            a.add_game(GameStats {
                rules: "yahtzee",
                rounds: 13,
                players: &players,
                date: None,
                rated: &rated,
                game_id,
                results: None,
            });
        }
        let ann = &a.players["ann"].solitaire;
        let bob = &a.players["bob"].solitaire;
        assert_eq!((ann.unforced, ann.agreed), (4, 4));
        assert_eq!((bob.unforced, bob.agreed), (2, 0));
        assert!((bob.error_per_unforced() - 2.0).abs() < 1e-12);
        // One game with an id: ann's run holds its 2 non-forced decisions.
        assert_eq!(ann.stretches.head.decisions, 2);
        assert!(bob.stretches.broken);
        // The match oracle's agreement is its own: ann agreed with it on 2 of 3 per game.
        assert_eq!(a.players["ann"].all.agreed, 2 * 2);
    }
}

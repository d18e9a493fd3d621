//! Exact two-player values (docs/methods.md section 4): the expected match points of the player to
//! move under optimal play by both, as a function of the points difference.
//!
//! For the mover's state `A` and the other player's state `B` (the mover has as many boxes
//! filled as the other, or one fewer), `W[A, B](d)` is the mover's expected match points when the
//! other player leads by `d = p_B - p_A` points: 1 for a sure win, 1/2 for a sure tie, 0 for a
//! sure loss; non-increasing in `d`, so it has the shape of a distribution and the same turn
//! widget computes it (one `f32` lane per value of `d`). After the mover scores `s` points in
//! a box and reaches `A'`, the other player is to move with difference `s - d`, so the
//! post-score value is `G(d - s)` with `G(y) = 1 - W[B, A'](-y)`: a shifted successor, exactly as
//! for distributions. When both sheets are complete, `G` is the step `1, 1/2, 0` at `y = 0`.
//!
//! Only what a position needs is solved: from a position with few free boxes, only subsets of
//! them can follow, and from a known points difference `d` only the differences the turns in
//! between can reach. Each entry is computed at the points differences it is wanted at (the
//! span that the positions above it can reach, widened to everywhere on a side where it is
//! constant), level by level (all pairs with the same number of filled boxes in parallel), and
//! kept in a bounded cache shared by every caller, so late-game positions that recur in a corpus
//! are solved once. A value at a given `d` does not depend on the span it was computed in, so
//! results do not depend on the order of requests nor on the cache. Values are `f32`: exact up
//! to rounding (within `2e-6` of a brute-force expectimax in the tests).

use super::distribution::{
    solve_with_options, ScoringOptions, Successors, TurnDist, Window, EVERYWHERE,
};
use super::states::StateSpace;
use super::widget::LaneStore;
use crate::rules::{RuleSet, Sheet};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Key of an entry: the mover's state index, the other player's state index.
type PairKey = (u32, u32);

/// The first and last points difference of a range (`i64::MIN`/`i64::MAX` for unbounded).
type Span = (i64, i64);

/// Most free boxes (both sheets) for which exact two-player values are computed at all (a
/// minute or so; beyond, the solve would run for hours).
pub(crate) const MOST_EXACT_FREE: u32 = 12;

/// Entries kept by a solver (most hold a few hundred values).
const CACHED_ENTRIES: usize = 400_000;

/// Mover states whose scoring options a solver keeps (a few KB each).
const CACHED_OPTIONS: usize = 8192;

/// Exact two-player values of one rule set, solved on demand and cached.
pub struct ExactTwoPlayer {
    space: StateSpace,
    entries: quick_cache::sync::Cache<PairKey, Arc<Entry>>,
    options: quick_cache::sync::Cache<u32, Arc<ScoringOptions>>,
}

/// A solved `W[mover, other]`: its window, right at the points differences of `known`.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The function (1 before the window, 0 after it), wherever `known`.
    pub window: Window,
    /// Where the window is right.
    pub known: Span,
}

impl Entry {
    /// Whether the entry is right at every point of `span`.
    fn covers(&self, span: Span) -> bool {
        self.known.0 <= span.0 && span.1 <= self.known.1
    }

    /// The value at `d`, if known there.
    pub fn at(&self, d: i64) -> Option<f32> {
        (self.known.0 <= d && d <= self.known.1).then(|| window_at(&self.window, d))
    }
}

/// The successors' post-score functions of a mover's turn against a fixed other state.
struct AgainstOther<'a> {
    other: usize,
    other_complete: bool,
    entries: &'a HashMap<PairKey, Arc<Entry>>,
}

impl AgainstOther<'_> {
    /// The other player's entry after the mover reaches `mover_after`.
    fn entry(&self, mover_after: usize) -> Option<&Entry> {
        self.entries
            .get(&(self.other as u32, mover_after as u32))
            .map(|e| &**e)
    }
}

impl Successors for AgainstOther<'_> {
    fn bounds(&self, index: usize) -> (i64, i64) {
        if self.other_complete {
            return (0, 0);
        }
        match self.entry(index) {
            Some(Entry { window: w, .. }) => (-(w.lo + w.values.len() as i64 - 1), -w.lo),
            None => (0, 0),
        }
    }

    fn known(&self, index: usize) -> Span {
        if self.other_complete {
            return EVERYWHERE;
        }
        let flip = |x: i64| match x {
            i64::MIN => i64::MAX,
            i64::MAX => i64::MIN,
            x => -x,
        };
        match self.entry(index) {
            Some(e) => (flip(e.known.1), flip(e.known.0)),
            None => EVERYWHERE,
        }
    }

    fn decode(&self, index: usize, lo: i64, out: &mut [f32]) {
        if self.other_complete {
            for (i, o) in out.iter_mut().enumerate() {
                let y = lo + i as i64;
                *o = match y.cmp(&0) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
            }
            return;
        }
        let Some(Entry { window: w, .. }) = self.entry(index) else {
            out.fill(0.0);
            return;
        };
        for (i, o) in out.iter_mut().enumerate() {
            *o = 1.0 - window_at(w, -(lo + i as i64));
        }
    }
}

/// Below this a value counts as 0 (far below `f32` rounding near 1, so dropping it changes no
/// result by more than `2e-8` over a whole game).
const NEGLIGIBLE: f32 = 1e-9;

/// A window with its negligible values set to 0, without its leading ones (exactly 1: sure
/// wins) and trailing zeros: later windows are only as wide as the differences whose outcome
/// is open, which is where the solver spends its time. Every value is decided point by point,
/// so the result at a point does not depend on the window's extent.
fn trim(mut w: Window) -> Window {
    for v in &mut w.values {
        if *v < NEGLIGIBLE {
            *v = 0.0;
        }
    }
    let first = w
        .values
        .iter()
        .position(|&v| v < 1.0)
        .unwrap_or(w.values.len());
    let end = w
        .values
        .iter()
        .rposition(|&v| v > 0.0)
        .map_or(first, |i| (i + 1).max(first));
    Window {
        lo: w.lo + first as i64,
        values: w.values[first..end].to_vec(),
    }
}

/// The smallest span holding both.
fn hull(a: Span, b: Span) -> Span {
    (a.0.min(b.0), a.1.max(b.1))
}

/// A window's function at `x`: 1 before it, 0 after it.
pub fn window_at(w: &Window, x: i64) -> f32 {
    let i = x - w.lo;
    if i < 0 {
        1.0
    } else {
        w.values.get(i as usize).copied().unwrap_or(0.0)
    }
}

impl ExactTwoPlayer {
    /// A solver for `rules` with an empty cache.
    pub fn new(rules: RuleSet) -> ExactTwoPlayer {
        ExactTwoPlayer {
            space: StateSpace::new(rules),
            entries: quick_cache::sync::Cache::new(CACHED_ENTRIES),
            options: quick_cache::sync::Cache::new(CACHED_OPTIONS),
        }
    }

    /// The boxes filled in state `index`.
    fn filled_mask(&self, index: usize) -> u32 {
        let pairs = self.space.pairs;
        let (lower, pair) = (index / pairs.count(), index % pairs.count());
        self.space.lower_boxes(lower).0 | u32::from(pairs.mask[pair])
    }

    /// Whether state `index` has every box filled.
    fn complete(&self, index: usize) -> bool {
        self.filled_mask(index) == self.space.rules.full_mask()
    }

    /// The scoring options of the mover's state `a`, kept for the next time.
    fn scoring(&self, a: usize) -> Arc<ScoringOptions> {
        self.options
            .get_or_insert_with(&(a as u32), || {
                let pairs = self.space.pairs.count();
                Ok::<_, std::convert::Infallible>(Arc::new(ScoringOptions::new(
                    self.space,
                    a / pairs,
                    a % pairs,
                )))
            })
            .unwrap_or_else(|never| match never {})
    }

    /// Boxes filled on both sheets of a pair.
    fn filled(&self, (a, b): (usize, usize)) -> u32 {
        self.filled_mask(a).count_ones() + self.filled_mask(b).count_ones()
    }

    /// The pairs after the mover `a`'s turn against `b`, each with the points differences
    /// (from its own mover's side) reachable from the differences `span` before the turn.
    fn after_turn(&self, a: usize, b: usize, span: Span) -> Vec<((usize, usize), Span)> {
        if self.complete(b) {
            return Vec::new();
        }
        self.scoring(a)
            .successor_points()
            .iter()
            .map(|&(after, least, most)| {
                // From b's side after the turn: d' = p_after - p_b = points - d.
                (
                    (b, after),
                    (least.saturating_sub(span.1), most.saturating_sub(span.0)),
                )
            })
            .collect()
    }

    /// The entries of the pairs `wanted` (each at its span of points differences) and of
    /// every pair below them that they need, solving those not cached, deepest first, each
    /// level in parallel.
    fn solve_below(&self, wanted: Vec<((usize, usize), Span)>) -> HashMap<PairKey, Arc<Entry>> {
        // The span wanted of every pair reachable, by boxes filled on both sheets: a pair's
        // turn leads to pairs with one more box filled, so one pass top down gathers them.
        let mut levels: BTreeMap<u32, BTreeMap<(usize, usize), Span>> = BTreeMap::new();
        let want = |levels: &mut BTreeMap<u32, BTreeMap<(usize, usize), Span>>,
                    pair: (usize, usize),
                    span: Span| {
            let level = levels.entry(self.filled(pair)).or_default();
            let s = level.entry(pair).or_insert(span);
            *s = hull(*s, span);
        };
        for (pair, span) in wanted {
            want(&mut levels, pair, span);
        }
        let mut known: HashMap<PairKey, Arc<Entry>> = HashMap::new();
        let mut to_solve: Vec<Vec<((usize, usize), Span)>> = Vec::new();
        while let Some((_, level)) = levels.pop_first() {
            let mut solve = Vec::new();
            for ((a, b), mut span) in level {
                let key = (a as u32, b as u32);
                if let Some(e) = self.entries.get(&key) {
                    if e.covers(span) {
                        known.insert(key, e);
                        continue;
                    }
                    // Solve it again over both spans, so the new entry serves the old uses.
                    span = hull(span, e.known);
                }
                solve.push(((a, b), span));
                for (pair, span) in self.after_turn(a, b, span) {
                    want(&mut levels, pair, span);
                }
            }
            to_solve.push(solve);
        }
        for level in to_solve.into_iter().rev() {
            let solved: Vec<(PairKey, Arc<Entry>)> = level
                .par_iter()
                .map_init(
                    || LaneStore::<f32>::new(crate::dice::tables(), 0),
                    |store, &((a, b), span)| {
                        let against = AgainstOther {
                            other: b,
                            other_complete: self.complete(b),
                            entries: &known,
                        };
                        let (window, right) =
                            solve_with_options(&against, self.scoring(a), span, store);
                        let entry = Arc::new(Entry {
                            window: trim(window),
                            known: right,
                        });
                        let key = (a as u32, b as u32);
                        self.entries.insert(key, entry.clone());
                        (key, entry)
                    },
                )
                .collect();
            known.extend(solved);
        }
        known
    }

    /// The entry `W[mover, other]` at every points difference: the mover's expected match
    /// points at the start of its turn as a function of `d = other's points - mover's points`.
    /// `None` for impossible sheets, a complete mover, or a mover with more boxes filled than
    /// the other.
    pub fn entry(&self, mover: &Sheet, other: &Sheet) -> Option<Entry> {
        let (a, b) = self.indices(mover, other)?;
        let key = (a as u32, b as u32);
        self.solve_below(vec![((a, b), EVERYWHERE)])
            .remove(&key)
            .map(|e| (*e).clone())
    }

    fn indices(&self, mover: &Sheet, other: &Sheet) -> Option<(usize, usize)> {
        let (fa, fb) = (mover.filled_count(), other.filled_count());
        if mover.is_complete() || fb < fa || fb > fa + 1 {
            return None;
        }
        Some((self.space.index_of(mover)?, self.space.index_of(other)?))
    }

    /// The points difference `other - mover`.
    fn difference(mover: &Sheet, other: &Sheet) -> i64 {
        i64::from(other.points) - i64::from(mover.points)
    }

    /// The mover's expected match points at the start of its turn.
    pub fn value(&self, mover: &Sheet, other: &Sheet) -> Option<f64> {
        let (a, b) = self.indices(mover, other)?;
        let d = Self::difference(mover, other);
        let key = (a as u32, b as u32);
        let entry = match self.entries.get(&key).filter(|e| e.covers((d, d))) {
            Some(e) => e,
            None => self.solve_below(vec![((a, b), (d, d))]).remove(&key)?,
        };
        entry.at(d).map(f64::from)
    }

    /// Solves (or finds cached) every entry the mover's turn at this position reaches, so
    /// that the values of every position after the turn are then read from the cache: one
    /// call instead of one per position, sharing what lies below them.
    pub(crate) fn prepare(&self, mover: &Sheet, other: &Sheet) {
        if let Some((a, b)) = self.indices(mover, other) {
            self.solve_below(self.after_turn(a, b, Self::point(mover, other)));
        }
    }

    /// The one-point span of the position's points difference.
    fn point(mover: &Sheet, other: &Sheet) -> Span {
        let d = Self::difference(mover, other);
        (d, d)
    }

    /// The mover's turn: every option of every roll valued in expected match points, at the
    /// position's points difference only (read the options at `other.points - mover.points`
    /// with [`TurnDist::options_at`]).
    pub fn turn(&self, mover: &Sheet, other: &Sheet) -> Option<TurnDist> {
        let (a, b) = self.indices(mover, other)?;
        let span = Self::point(mover, other);
        let known = self.solve_below(self.after_turn(a, b, span));
        let against = AgainstOther {
            other: b,
            other_complete: self.complete(b),
            entries: &known,
        };
        TurnDist::within(&against, mover, span)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// P(five of a kind within three rolls, optimal keeps) = 2,783,176 / 6^10, the classic
    /// figure (derived by brute force in `solve::widget`'s tests).
    const P: f64 = 2_783_176.0 / 60_466_176.0;

    /// Values are `f32`, exact to rounding.
    const TOLERANCE: f64 = 2e-6;

    /// The sheet of `rules` with every box filled but `free` ([`Sheet::filled_but`]).
    fn sheet(rules: RuleSet, free: &[&str], points: u32) -> Sheet {
        Sheet::filled_but(rules, free, points)
    }

    /// `P(X > d) + P(X = d) / 2` for the law `X` given as (value, probability) pairs: the
    /// expected match points of a player who ends `X` points ahead of a lead of `d`.
    fn match_points(law: &[(i64, f64)], d: i64) -> f64 {
        law.iter()
            .map(|&(x, p)| match x.cmp(&d) {
                std::cmp::Ordering::Greater => p,
                std::cmp::Ordering::Equal => p / 2.0,
                std::cmp::Ordering::Less => 0.0,
            })
            .sum()
    }

    #[test]
    fn yahtzee_box_each_matches_a_direct_enumeration() {
        // Each player's only box is the Yahtzee box, which scores 0 or 50: whatever the
        // difference, aiming at five of a kind is best (50 is never worse than 0), so each
        // scores 50 with probability P, independently. The mover's gain over the other is
        // -50, 0 or +50 with probabilities (1-P)P, P^2 + (1-P)^2, P(1-P).
        let gain = [
            (-50, (1.0 - P) * P),
            (0, P * P + (1.0 - P) * (1.0 - P)),
            (50, P * (1.0 - P)),
        ];
        for rules in [RuleSet::Yahtzee, RuleSet::YahtzeeKurnik, RuleSet::Yatzy] {
            let solver = ExactTwoPlayer::new(rules);
            let (mover, other) = (sheet(rules, &["Y"], 200), sheet(rules, &["Y"], 200));
            let entry = solver.entry(&mover, &other).unwrap();
            assert_eq!(entry.known, EVERYWHERE);
            for d in -120..=120 {
                let want = match_points(&gain, d);
                let got = f64::from(window_at(&entry.window, d));
                assert!(
                    (got - want).abs() < TOLERANCE,
                    "{rules} d={d}: {got} vs {want}"
                );
                assert_eq!(entry.at(d), Some(window_at(&entry.window, d)));
            }
            // The value of a position reads the entry at its own difference (other - mover).
            let behind = Sheet {
                points: 230,
                ..other
            };
            let value = solver.value(&mover, &behind).unwrap();
            assert!(
                (value - P * (1.0 - P)).abs() < TOLERANCE,
                "{rules}: {value}"
            );
        }
    }

    #[test]
    fn a_symmetric_yahtzee_endgame_is_worth_one_half() {
        // The gain's law above is symmetric about 0, so W(0) = 1/2 exactly. (Not so for every
        // symmetric position: with only Chance free the second player, who sees the target,
        // is favoured; tests/suite/two_player.rs.)
        let rules = RuleSet::Yahtzee;
        let s = sheet(rules, &["Y"], 180);
        let value = ExactTwoPlayer::new(rules).value(&s, &s).unwrap();
        assert!((value - 0.5).abs() < TOLERANCE, "{value}");
    }

    #[test]
    fn against_a_complete_sheet_the_mover_must_get_ahead() {
        // The other is done: the mover's gain is 50 with probability P, else 0.
        let rules = RuleSet::Yahtzee;
        let solver = ExactTwoPlayer::new(rules);
        let mover = sheet(rules, &["Y"], 200);
        let done = sheet(rules, &[], 200);
        let entry = solver.entry(&mover, &done).unwrap();
        let gain = [(0, 1.0 - P), (50, P)];
        for d in [-100, -1, 0, 1, 30, 49, 50, 51, 200] {
            let got = f64::from(entry.at(d).unwrap());
            assert!(
                (got - match_points(&gain, d)).abs() < TOLERANCE,
                "d={d}: {got}"
            );
        }
        // By hand: a tie at 0 is won with a Yahtzee (P + (1-P)/2); 1 to 49 behind needs it.
        assert!((f64::from(entry.at(0).unwrap()) - (P + (1.0 - P) / 2.0)).abs() < TOLERANCE);
        assert!((f64::from(entry.at(49).unwrap()) - P).abs() < TOLERANCE);
    }

    #[test]
    fn positions_the_solver_does_not_value_give_none() {
        let rules = RuleSet::Yahtzee;
        let solver = ExactTwoPlayer::new(rules);
        let one = sheet(rules, &["Y"], 200);
        let two = sheet(rules, &["Y", "C"], 200);
        let done = sheet(rules, &[], 200);
        // A complete mover has no turn.
        assert_eq!(solver.value(&done, &done), None);
        assert!(solver.entry(&done, &one).is_none());
        // The other may have as many boxes filled as the mover, or one more; not fewer, not
        // two more.
        assert_eq!(solver.value(&one, &two), None);
        assert_eq!(solver.value(&two, &done), None);
        assert!(solver.turn(&two, &done).is_none());
        // One more is fine.
        assert!(solver.value(&two, &one).is_some());
        // An upper total the filled upper boxes (twos to sixes) cannot make has no state.
        let impossible = Sheet {
            upper_total: 1,
            ..sheet(rules, &["1", "Y"], 200)
        };
        assert_eq!(solver.value(&impossible, &one), None);
    }

    #[test]
    fn window_at_is_one_before_the_window_and_zero_after_it() {
        let w = Window {
            lo: 10,
            values: vec![0.75, 0.25],
        };
        let at: Vec<f32> = (8..=13).map(|x| window_at(&w, x)).collect();
        assert_eq!(at, [1.0, 1.0, 0.75, 0.25, 0.0, 0.0]);
        let entry = Entry {
            window: w,
            known: (9, 11),
        };
        assert_eq!(
            (entry.at(8), entry.at(9), entry.at(11), entry.at(12)),
            (None, Some(1.0), Some(0.25), None)
        );
        assert!(entry.covers((9, 11)) && entry.covers((10, 10)));
        assert!(!entry.covers((8, 10)) && !entry.covers((10, 12)));
        assert_eq!(hull((3, 5), (-2, 4)), (-2, 5));
    }

    #[test]
    fn trim_keeps_the_function_and_drops_sure_wins_and_negligible_tails() {
        let cases = [
            (
                vec![1.0, 1.0, 0.75, 0.5, 5e-10, 0.0],
                -3,
                (-1, vec![0.75, 0.5]),
            ),
            (vec![1.0, 1.0], 0, (2, vec![])),
            (vec![0.0, 0.0], 5, (5, vec![])),
            (vec![0.5, 0.0, 0.25, 0.0], 0, (0, vec![0.5, 0.0, 0.25])),
        ];
        for (values, lo, (want_lo, want_values)) in cases {
            let w = Window {
                lo,
                values: values.clone(),
            };
            let t = trim(w.clone());
            assert_eq!(
                (t.lo, t.values.clone()),
                (want_lo, want_values),
                "{values:?}"
            );
            for x in lo - 3..lo + values.len() as i64 + 3 {
                let before = window_at(&w, x);
                let before = if before < NEGLIGIBLE { 0.0 } else { before };
                assert_eq!(window_at(&t, x), before, "{values:?} at {x}");
            }
        }
    }
}

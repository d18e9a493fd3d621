//! Exact two-player values (METHODS.md section 4): the expected match points of the player to
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
//! Only the states below a position are solved: from a position with few free boxes, only
//! subsets of them can follow. Entries are solved level by level (all pairs with the same number
//! of filled boxes in parallel) and kept in a bounded cache shared by every caller, so late-game
//! positions that recur in a corpus are solved once. Values are `f32`: exact up to rounding
//! (within `2e-6` of a brute-force expectimax in the tests).

use super::distribution::{solve_state, Successors, TurnDist, Window};
use super::states::{upper_pairs, StateSpace};
use super::widget::LaneStore;
use crate::rules::{RuleSet, Sheet};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Key of an entry: the mover's state index, the other player's state index.
type PairKey = (u32, u32);

/// Entries kept by a solver (a few KB each).
const CACHED_ENTRIES: usize = 200_000;

/// Exact two-player values of one rule set, solved on demand and cached.
pub struct ExactTwoPlayer {
    space: StateSpace,
    entries: quick_cache::sync::Cache<PairKey, Arc<Window>>,
}

/// The successors' post-score functions of a mover's turn against a fixed other state.
struct AgainstOther<'a> {
    other: usize,
    other_complete: bool,
    entries: &'a HashMap<PairKey, Arc<Window>>,
}

impl AgainstOther<'_> {
    fn entry(&self, mover_after: usize) -> Option<&Window> {
        self.entries
            .get(&(self.other as u32, mover_after as u32))
            .map(|w| &**w)
    }
}

impl Successors for AgainstOther<'_> {
    fn bounds(&self, index: usize) -> (i64, i64) {
        if self.other_complete {
            return (0, 0);
        }
        match self.entry(index) {
            Some(w) => (-(w.lo + w.values.len() as i64 - 1), -w.lo),
            None => (0, 0),
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
        let Some(w) = self.entry(index) else {
            out.fill(0.0);
            return;
        };
        for (i, o) in out.iter_mut().enumerate() {
            *o = 1.0 - window_at(w, -(lo + i as i64));
        }
    }
}

/// Below this a value counts as 0 at the end of a window (far below `f32` rounding near 1, so
/// dropping it changes no result by more than `2e-8` over a whole game).
const NEGLIGIBLE: f32 = 1e-9;

/// A window without its leading ones (exactly 1: sure wins) and trailing negligible values
/// (sure losses but for odds below [`NEGLIGIBLE`]): later windows are only as wide as the
/// differences whose outcome is open, which is where the solver spends its time.
fn trim(w: Window) -> Window {
    let first = w
        .values
        .iter()
        .position(|&v| v < 1.0)
        .unwrap_or(w.values.len());
    let end = w
        .values
        .iter()
        .rposition(|&v| v >= NEGLIGIBLE)
        .map_or(first, |i| (i + 1).max(first));
    Window {
        lo: w.lo + first as i64,
        values: w.values[first..end].to_vec(),
    }
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
        }
    }

    /// Whether state `index` has every box filled.
    fn complete(&self, index: usize) -> bool {
        let pairs = upper_pairs();
        let (lower, pair) = (index / pairs.count(), index % pairs.count());
        self.space.lower_boxes(lower).0 | u16::from(pairs.mask[pair])
            == self.space.rules.full_mask()
    }

    /// Every state the mover can reach in one turn from `index`.
    fn next_states(&self, index: usize) -> Vec<usize> {
        let pairs = upper_pairs().count();
        let mut out: Vec<usize> = self
            .space
            .successors(index / pairs, index % pairs)
            .into_iter()
            .flat_map(|(_, next)| match next {
                super::states::Next::Lower(a) => vec![a],
                super::states::Next::Yahtzee { zero, fifty } => vec![zero, fifty],
                super::states::Next::Upper { after, .. } => after.iter().map(|a| a.0).collect(),
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The entries `W[mover, other]` of every pair below `(mover, other)` (itself included),
    /// solving those not cached, deepest first, each level in parallel.
    fn solve_below(&self, mover: usize, other: usize) -> HashMap<PairKey, Arc<Window>> {
        // Every pair reachable, by number of filled boxes (both sheets).
        let mut seen: HashSet<PairKey> = HashSet::new();
        let mut stack = vec![(mover, other)];
        let mut all = Vec::new();
        while let Some((a, b)) = stack.pop() {
            if !seen.insert((a as u32, b as u32)) {
                continue;
            }
            all.push((a, b));
            if self.complete(b) || self.entries.get(&(a as u32, b as u32)).is_some() {
                continue;
            }
            for next in self.next_states(a) {
                stack.push((b, next));
            }
        }
        let filled = |i: usize| {
            let pairs = upper_pairs();
            let (lower, pair) = (i / pairs.count(), i % pairs.count());
            (self.space.lower_boxes(lower).0 | u16::from(pairs.mask[pair])).count_ones()
        };
        let mut levels: std::collections::BTreeMap<u32, Vec<(usize, usize)>> = Default::default();
        for &(a, b) in &all {
            levels
                .entry(filled(a) + filled(b))
                .or_default()
                .push((a, b));
        }
        let mut known: HashMap<PairKey, Arc<Window>> = HashMap::new();
        for (_, level) in levels.into_iter().rev() {
            let solved: Vec<(PairKey, Arc<Window>)> = level
                .par_iter()
                .map_init(
                    || LaneStore::<f32>::new(0),
                    |store, &(a, b)| {
                        let key = (a as u32, b as u32);
                        if let Some(w) = self.entries.get(&key) {
                            return (key, w);
                        }
                        let against = AgainstOther {
                            other: b,
                            other_complete: self.complete(b),
                            entries: &known,
                        };
                        let pairs = upper_pairs().count();
                        let solved = solve_state(self.space, &against, a / pairs, a % pairs, store);
                        let w = Arc::new(trim(solved));
                        self.entries.insert(key, w.clone());
                        (key, w)
                    },
                )
                .collect();
            known.extend(solved);
        }
        known
    }

    /// The entry `W[mover, other]`: the mover's expected match points at the start of its
    /// turn as a function of `d = other's points - mover's points`. `None` for impossible
    /// sheets, a complete mover, or a mover with more boxes filled than the other.
    pub fn entry(&self, mover: &Sheet, other: &Sheet) -> Option<Arc<Window>> {
        let (a, b) = self.indices(mover, other)?;
        if let Some(w) = self.entries.get(&(a as u32, b as u32)) {
            return Some(w);
        }
        self.solve_below(a, b).remove(&(a as u32, b as u32))
    }

    fn indices(&self, mover: &Sheet, other: &Sheet) -> Option<(usize, usize)> {
        let (fa, fb) = (mover.filled_count(), other.filled_count());
        if mover.is_complete() || fb < fa || fb > fa + 1 {
            return None;
        }
        Some((self.space.index_of(mover)?, self.space.index_of(other)?))
    }

    /// The mover's expected match points at the start of its turn.
    pub fn value(&self, mover: &Sheet, other: &Sheet) -> Option<f64> {
        let w = self.entry(mover, other)?;
        Some(f64::from(window_at(
            &w,
            i64::from(other.points) - i64::from(mover.points),
        )))
    }

    /// The mover's turn: every option of every roll valued in expected match points (read the
    /// options at `other.points - mover.points` with [`TurnDist::options_at`]).
    pub fn turn(&self, mover: &Sheet, other: &Sheet) -> Option<TurnDist> {
        let (a, b) = self.indices(mover, other)?;
        let mut known = HashMap::new();
        if !self.complete(b) {
            for next in self.next_states(a) {
                let key = (b as u32, next as u32);
                let w = match self.entries.get(&key) {
                    Some(w) => w,
                    None => self.solve_below(b, next).remove(&key)?,
                };
                known.insert(key, w);
            }
        }
        let against = AgainstOther {
            other: b,
            other_complete: self.complete(b),
            entries: &known,
        };
        TurnDist::new(&against, mover)
    }
}

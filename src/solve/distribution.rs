//! Maximal-probability score distributions (docs/methods.md section 3): for every sheet state, the
//! largest probability, over all strategies, of scoring at least `x` more points, for every `x`.
//!
//! A distribution is held as a *window*: `P(x) = 1` below its start, the stored values inside,
//! `0` after them. The turn widget computes a state's distribution with one lane per point of a
//! window wide enough for every successor ([`LaneStore`] of `f32`): means of six and maxima are
//! pointwise, so the generic passes apply unchanged; only the last roll (scoring a box shifts
//! the successor's distribution by the points) is specific to distributions.
//!
//! Stored values are 16-bit logarithmic codes ([`super::prob_code`]) of `P` or of `1 - P`,
//! whichever is at most one half, and a distribution is trimmed only where `P` is exactly 1
//! (before the start) or 0 (after the end), so both tails keep their relative precision. For
//! that the widget's lanes left of a *split* point hold `P - 1` instead of `P`: means and
//! maxima commute with a constant offset, so only the last roll (reading successors) and the
//! rounding know about it, and `1 - P` near the least reachable total is not lost in `f32`.
//! The split is where the state's `P` is about one half: its expected points to come,
//! estimated by a scalar widget over the successors' means ([`Dist::mean`]). Where even that is
//! not enough (a `1 - P` or `P` below `f32`'s normal range, down to `6^-15` a turn), the few
//! lanes at each end are computed again in `f64` (`solve_state`).
//!
//! Each state is computed from its successors' stored values and then rounded once; means and
//! maxima of positive numbers never widen a relative error, so a stored value of a state with
//! `k` turns left is within a factor `(1 + FINE_ROUNDING)^k` of the exact probability (0.83%
//! for Yatzy's 15 turns), plus what the coarse codes below `2^-50` can add to a value through
//! means (at most about `k * COARSE_ROUNDING * 2^-50` absolute), plus `f32` rounding. See
//! [`relative_error_bound`].

use super::prob_code::{self, COARSE_ROUNDING, DEEP_ROUNDING, FINE_ROUNDING};
use super::simd::fn_with_avx2;
use super::states::{Next, StateSpace};
use super::widget::{
    keeps_from_rolls, rolls_from_keeps, solve_turn, Lane, LaneStore, SingleStore, SlotAccess,
};
use crate::dice::{Dice, DiceSpace, EMPTY_KEEP};
use crate::rules::{Choice, RuleSet, Sheet};
use std::sync::Arc;

/// The reference computation the tests measure the tables against (a test oracle, compiled
/// only for the tests: feature `test-oracles`).
#[cfg(feature = "test-oracles")]
mod reference;
#[cfg(feature = "test-oracles")]
pub use reference::{build_reference, ReferenceDist};

/// Allowance for `f32` rounding in the widget, relative, per turn (sums of at most 252
/// positive terms, each turn's passes nest eleven means).
pub(crate) const F32_ROUNDING: f64 = 2e-5;

/// Bound on the relative error of a stored `P` (and of a stored `1 - P`) of a state with
/// `turns` turns left, where the exact value is at least `floor` (at least `2^-50`).
///
/// With every successor value within `(1 ± a) v ± t` of its exact `v`, the state's values are
/// too (means and maxima are monotone, positively homogeneous and shift by constants), then
/// one rounding: in the fine code a factor `1 ± FINE_ROUNDING`; in the coarse code (values
/// below `T = 2^-50`) at most `COARSE_ROUNDING * T` more, absolute, and in the deep code
/// (below `D = 2^-149`) at most `DEEP_ROUNDING * D`. So after `k` turns
/// `a <= (1 + FINE_ROUNDING + F32_ROUNDING)^k - 1` and
/// `t <= k * (1 + a) * (COARSE_ROUNDING * (1 + COARSE_ROUNDING)^k * T
/// + DEEP_ROUNDING * (1 + DEEP_ROUNDING)^k * D)`, and the relative error of a value at least
/// `floor` is at most `a + t / floor`: 0.92% for 15 turns at `1e-12`.
pub fn relative_error_bound(turns: usize, floor: f64) -> f64 {
    let k = turns as i32;
    let relative = (1.0 + FINE_ROUNDING + F32_ROUNDING).powi(k) - 1.0;
    let part = |rounding: f64, floor: f64| rounding * (1.0 + rounding).powi(k) * floor;
    let absolute = f64::from(k)
        * (1.0 + relative)
        * (part(COARSE_ROUNDING, prob_code::fine_floor())
            + part(DEEP_ROUNDING, prob_code::coarse_floor()));
    relative + absolute / floor
}

/// Lanes are padded to fill whole registers of this many bytes (AVX2: eight `f32`, four `f64`).
const LANE_BYTES: usize = 32;

/// A stored distribution of points still to come: `P(x) = 1` for `x < start`, the values
/// ([`prob_code`]) from `start` to the end, then `0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dist<'a> {
    /// The least `x` with `P(x) < 1`.
    pub start: u32,
    /// `P(start)..=P(end)`, coded by `prob_code::encode`.
    pub values: &'a [u16],
}

impl Dist<'_> {
    /// The code of `P(x)` if `x` is inside the stored values.
    fn code_at(&self, x: i64) -> Option<u16> {
        let i = usize::try_from(x - i64::from(self.start)).ok()?;
        self.values.get(i).copied()
    }

    /// The largest probability of scoring at least `x` more points.
    pub fn at_least(&self, x: i64) -> f64 {
        if x < i64::from(self.start) {
            return 1.0;
        }
        self.code_at(x).map_or(0.0, prob_code::probability)
    }

    /// `1 - P(x)`, the smallest probability of missing `x` more points, with its relative
    /// precision when it is tiny.
    pub fn complement_at(&self, x: i64) -> f64 {
        if x < i64::from(self.start) {
            return 0.0;
        }
        self.code_at(x).map_or(1.0, prob_code::complement)
    }

    /// `sum over x >= 1 of P(x)`: the "mean" of the maximal probabilities (it exceeds the
    /// optimal expected score: no single strategy reaches every target's best probability).
    pub fn mean(&self) -> f64 {
        let sure = f64::from(self.start.max(1) - 1);
        let skipped = usize::from(self.start == 0);
        let stored: f64 = self
            .values
            .iter()
            .skip(skipped)
            .map(|&q| prob_code::probability(q))
            .sum();
        sure + stored
    }

    /// `out[i]` = the value at `lo + i`: `before` where `P = 1`, `code(value)` where stored,
    /// `after` where `P = 0`.
    fn decode_into<T: Copy>(
        &self,
        lo: i64,
        out: &mut [T],
        before: T,
        after: T,
        code: impl Fn(u16) -> T,
    ) {
        let start = i64::from(self.start);
        let ones = usize::try_from(start - lo).unwrap_or(0).min(out.len());
        out[..ones].fill(before);
        let from = usize::try_from(lo + ones as i64 - start).unwrap_or(0);
        let stored = self.values.get(from..).unwrap_or(&[]);
        let n = stored.len().min(out.len() - ones);
        for (o, &c) in out[ones..ones + n].iter_mut().zip(stored) {
            *o = code(c);
        }
        out[ones + n..].fill(after);
    }

    /// The largest `x` with `P(x) > 0` (`start - 1` when the values are empty).
    pub fn end(&self) -> i64 {
        i64::from(self.start) + self.values.len() as i64 - 1
    }
}

/// A sheet's final-score distribution: the points already on the sheet and the distribution of
/// the points still to come. `P(final >= x)` is the largest probability, over strategies, of
/// finishing with at least `x` points (one strategy per `x`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FinalDist<'a> {
    /// Points on the sheet so far.
    pub points: i64,
    /// The distribution of the points still to come.
    pub dist: Dist<'a>,
}

impl<'a> FinalDist<'a> {
    /// The final-score distribution of a sheet holding `points`, with `dist` to come.
    pub fn new(points: u32, dist: Dist<'a>) -> FinalDist<'a> {
        FinalDist {
            points: i64::from(points),
            dist,
        }
    }

    /// `P(final >= total)`.
    pub fn at_least(&self, total: i64) -> f64 {
        self.dist.at_least(total - self.points)
    }

    /// `1 - P(final >= total)`, precise when it is tiny.
    pub fn complement_at(&self, total: i64) -> f64 {
        self.dist.complement_at(total - self.points)
    }

    /// The greatest total with `P = 1` exactly.
    pub fn first(&self) -> i64 {
        self.points + i64::from(self.dist.start) - 1
    }

    /// The greatest total with `P > 0` (the points of a complete sheet).
    pub fn last(&self) -> i64 {
        (self.points + self.dist.end()).max(self.first())
    }

    /// `(total, P(final >= total))` from [`Self::first`] through [`Self::last`].
    pub fn rows(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        (self.first()..=self.last()).map(|t| (t, self.at_least(t)))
    }

    /// `sum over x >= 1 of P(final >= x)`: the mean of the maximal probabilities, which exceeds
    /// the optimal expected score (no one strategy reaches every target's best probability).
    pub fn mean(&self) -> f64 {
        self.first() as f64 + self.rows().skip(1).map(|(_, p)| p).sum::<f64>()
    }

    /// The largest total reached with probability at least `p`.
    pub fn target(&self, p: f64) -> i64 {
        self.rows()
            .filter(|&(_, q)| q >= p)
            .map(|(t, _)| t)
            .max()
            .unwrap_or(self.first())
    }
}

/// Anything holding a distribution per state index: a table being built or one read from its
/// file.
pub trait DistSource: Sync {
    /// The distribution of the state with this table index.
    fn dist(&self, index: usize) -> Dist<'_>;
    /// Its [`Dist::mean`].
    fn mean(&self, index: usize) -> f64 {
        self.dist(index).mean()
    }
}

impl<T: DistSource + ?Sized> DistSource for &T {
    fn dist(&self, index: usize) -> Dist<'_> {
        (**self).dist(index)
    }
    fn mean(&self, index: usize) -> f64 {
        (**self).mean(index)
    }
}

/// What a turn's last roll reads: for each successor state (by table index), a non-increasing
/// function of one integer (points still to come for distributions; the points difference for
/// two-player values) that is 1 before its start and 0 after its end.
pub trait Successors: Sync {
    /// The first point where the function of state `index` may be below 1 and the last where it
    /// may be above 0.
    fn bounds(&self, index: usize) -> (i64, i64);
    /// `out[i]` = the function of state `index` at `lo + i` (right only where
    /// [`Successors::known`]).
    fn decode(&self, index: usize, lo: i64, out: &mut [f32]);
    /// `out[i]` = the function of state `index` at `lo + i`, minus 1 (precise where the
    /// function is near 1; the distribution build's lanes left of the split hold this).
    fn decode_less_one(&self, index: usize, lo: i64, out: &mut [f32]) {
        self.decode(index, lo, out);
        for o in out.iter_mut() {
            *o -= 1.0;
        }
    }
    /// `sum over x >= 1` of the function of state `index` (for a distribution, its
    /// [`Dist::mean`]).
    fn mean(&self, index: usize) -> f64 {
        let (first, last) = self.bounds(index);
        let lo = first.max(1);
        let mut values = vec![0f64; usize::try_from(last - lo + 1).unwrap_or(0)];
        self.decode_f64(index, lo, &mut values);
        (first.max(1) - 1) as f64 + values.iter().sum::<f64>()
    }
    /// [`Successors::decode`] in `f64`.
    fn decode_f64(&self, index: usize, lo: i64, out: &mut [f64]) {
        let mut narrow = vec![0f32; out.len()];
        self.decode(index, lo, &mut narrow);
        for (o, &v) in out.iter_mut().zip(&narrow) {
            *o = f64::from(v);
        }
    }
    /// [`Successors::decode_less_one`] in `f64`.
    fn decode_less_one_f64(&self, index: usize, lo: i64, out: &mut [f64]) {
        self.decode_f64(index, lo, out);
        for o in out.iter_mut() {
            *o -= 1.0;
        }
    }
    /// The points where the function of state `index` is right (a two-player entry solved
    /// for some points differences only); everywhere by default.
    fn known(&self, _index: usize) -> (i64, i64) {
        EVERYWHERE
    }
}

impl<T: DistSource + ?Sized> Successors for T {
    fn bounds(&self, index: usize) -> (i64, i64) {
        let d = self.dist(index);
        (i64::from(d.start), d.end())
    }

    fn decode(&self, index: usize, lo: i64, out: &mut [f32]) {
        self.dist(index)
            .decode_into(lo, out, 1.0, 0.0, |c| prob_code::probability(c) as f32);
    }

    fn decode_less_one(&self, index: usize, lo: i64, out: &mut [f32]) {
        self.dist(index)
            .decode_into(lo, out, 0.0, -1.0, |c| -prob_code::complement(c) as f32);
    }

    fn decode_f64(&self, index: usize, lo: i64, out: &mut [f64]) {
        self.dist(index)
            .decode_into(lo, out, 1.0, 0.0, prob_code::probability);
    }

    fn decode_less_one_f64(&self, index: usize, lo: i64, out: &mut [f64]) {
        self.dist(index)
            .decode_into(lo, out, 0.0, -1.0, |c| -prob_code::complement(c));
    }

    fn mean(&self, index: usize) -> f64 {
        DistSource::mean(self, index)
    }
}

/// A lane type of the distribution widget: `f32` for the tables, `f64` for their wide bands and
/// for the tests' reference (`build_reference`, feature `test-oracles`).
pub(crate) trait DistLane: Lane + PartialOrd + Send + Sync {
    /// The value `v`.
    fn from_f64(v: f64) -> Self;
    /// The value as `f64`.
    fn to_f64(self) -> f64;
    /// [`Successors::decode`] (or, with `less_one`, [`Successors::decode_less_one`]) into
    /// lanes of this type.
    fn decode(source: &dyn Successors, index: usize, lo: i64, less_one: bool, out: &mut [Self]);
}

impl DistLane for f32 {
    fn from_f64(v: f64) -> f32 {
        v as f32
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn decode(source: &dyn Successors, index: usize, lo: i64, less_one: bool, out: &mut [f32]) {
        if less_one {
            source.decode_less_one(index, lo, out);
        } else {
            source.decode(index, lo, out);
        }
    }
}

impl DistLane for f64 {
    fn from_f64(v: f64) -> f64 {
        v
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn decode(source: &dyn Successors, index: usize, lo: i64, less_one: bool, out: &mut [f64]) {
        if less_one {
            source.decode_less_one_f64(index, lo, out);
        } else {
            source.decode_f64(index, lo, out);
        }
    }
}

/// A distribution computed in a window: `P(lo + i) = values[i]` for `i < values.len()`,
/// `1` before, `0` after.
#[derive(Clone, Debug, PartialEq)]
pub struct Window {
    /// The window's first point.
    pub(crate) lo: i64,
    /// The probabilities.
    pub values: Vec<f32>,
}

/// Codes lanes `values` from point `lo` ([`prob_code`]), lanes `0..split` holding `P - 1`,
/// and trims the ends where `P` is exactly 1 and 0: the stored start and values.
fn quantise_lanes<T: DistLane>(lo: i64, values: &[T], split: usize) -> (u32, Vec<u16>) {
    let split = split.min(values.len());
    // `1 - P` and `P` of each point, exact in f64 from the form the lane holds.
    let complement = |i: usize| -> f64 {
        let v = values[i].to_f64();
        if i < split {
            -v
        } else {
            1.0 - v
        }
    };
    let probability = |i: usize| -> f64 {
        let v = values[i].to_f64();
        if i < split {
            1.0 + v
        } else {
            v
        }
    };
    let n = values.len();
    let first = (0..n).find(|&i| complement(i) > 0.0).unwrap_or(n);
    let last = (0..n)
        .rev()
        .find(|&i| probability(i) > 0.0)
        .map_or(first, |i| (i + 1).max(first));
    let codes = (first..last)
        .map(|i| {
            if i < split {
                prob_code::encode_complement(complement(i).clamp(0.0, 1.0))
            } else {
                prob_code::encode(probability(i).clamp(0.0, 1.0))
            }
        })
        .collect();
    let start = (lo + first as i64).max(0) as u32;
    (start, codes)
}

/// One option of scoring after the last roll: a successor (by its slot in the turn's list)
/// and the points the box adds.
#[derive(Clone, Copy, Debug)]
struct Shifted {
    successor: u8,
    points: u16,
}

/// Every point, for a window computed wherever its function is not constant.
pub(crate) const EVERYWHERE: (i64, i64) = (i64::MIN, i64::MAX);

/// The scoring options of one state's last roll: which successor each option reaches and
/// with how many points. They depend on the state only, so a solver that meets a state
/// often can keep them.
pub(crate) struct ScoringOptions {
    /// The dice of the rule set (whose rolls the options are listed by).
    dice: &'static DiceSpace,
    /// Rolls of a turn.
    rolls: u8,
    /// The zero-point options (every free box can take a zero), shared by all rolls.
    floor: Vec<Shifted>,
    /// The options of every roll beyond the floor (all options for five of a kind), roll
    /// `r`'s at `options[starts[r]..starts[r + 1]]`.
    options: Vec<Shifted>,
    starts: Vec<u32>,
    /// Rolls whose options replace the floor instead of adding to it.
    no_floor: Vec<bool>,
    /// For each free box (box, successor slot by dice count or Yahtzee content): what the
    /// options of [`TurnDist::options`] need.
    boxes: Vec<(usize, Next)>,
    /// Successor slot of each successor state index used.
    slot_of: Vec<(usize, u8)>,
    /// Each successor state with the least and most points on the way to it.
    points: Vec<(usize, i64, i64)>,
}

/// Which lanes of a turn's window hold `P - 1` instead of `P` ([`LastRoll::split`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Split {
    /// Every lane holds `P` (two-player values, evaluations, the upper tail).
    None,
    /// The lanes left of the state's estimated median (a table's states).
    Median,
    /// Every lane (the lower tail).
    All,
}

/// The scoring options of one state's last roll, and its successors' functions decoded
/// into the turn's window.
struct LastRoll<T: DistLane = f32> {
    /// The window's first point and length (padded).
    lo: i64,
    lanes: usize,
    /// Points of the window that hold values (the rest is padding).
    used: usize,
    /// The points where the window's function is right: those asked for, and beyond them on a
    /// side where the function is constant anyway (1 before, 0 after), as far as the
    /// successors are right.
    known: (i64, i64),
    /// The most points one option scores: successors are decoded this far below `lo`.
    below: usize,
    /// Decoded successors: `successors[k * stride + j] = P_k(lo - below + j)`, with
    /// `stride = below + lanes`.
    successors: Vec<T>,
    /// Lanes `0..split` hold `P - 1` instead of `P` (0 when every lane holds `P`).
    split: usize,
    /// With a split, the successors decoded as `P_k - 1`, laid out as `successors`.
    successors_less_one: Vec<T>,
    /// The best of the floor options, shared by all rolls.
    floor: Vec<T>,
    /// The options.
    scoring: Arc<ScoringOptions>,
}

impl ScoringOptions {
    /// Every successor state with the least and most points a turn scores on the way to it.
    pub(crate) fn successor_points(&self) -> &[(usize, i64, i64)] {
        &self.points
    }

    /// [`ScoringOptions::successor_points`], computed.
    fn gather_points(&self) -> Vec<(usize, i64, i64)> {
        let mut range = vec![(i64::MAX, i64::MIN); self.slot_of.len()];
        for o in self.all() {
            let r = &mut range[usize::from(o.successor)];
            *r = (r.0.min(i64::from(o.points)), r.1.max(i64::from(o.points)));
        }
        self.slot_of
            .iter()
            .map(|&(index, slot)| {
                let (least, most) = range[usize::from(slot)];
                (index, least, most)
            })
            .collect()
    }

    /// The options of roll `r` beyond the floor.
    fn of_roll(&self, r: usize) -> &[Shifted] {
        &self.options[self.starts[r] as usize..self.starts[r + 1] as usize]
    }

    /// Gathers the options of state `(lower, pair)`.
    pub fn new(space: StateSpace, lower: usize, pair: usize) -> ScoringOptions {
        let rules = space.rules;
        let up = space.pairs;
        let (lower_filled, yahtzee_50) = space.lower_boxes(lower);
        let filled = lower_filled | u32::from(up.mask[pair]);
        let boxes = space.successors(lower, pair);
        let mut slot_of: Vec<(usize, u8)> = Vec::new();
        let mut slot = |index: usize| -> u8 {
            match slot_of.iter().find(|(i, _)| *i == index) {
                Some(&(_, s)) => s,
                None => {
                    let s = slot_of.len() as u8;
                    slot_of.push((index, s));
                    s
                }
            }
        };
        // Every option as (successor slot, points), per roll; the floor's options apart.
        let option = |next: Next, points: u32, extra: u32, slot: &mut dyn FnMut(usize) -> u8| {
            let (after, add) = match next {
                Next::Lower(after) => (after, points),
                Next::Yahtzee { zero, fifty } => (if points == 50 { fifty } else { zero }, points),
                Next::Upper { face, after } => {
                    let (state, gained) = after[(points / u32::from(face)) as usize];
                    (state, gained)
                }
            };
            Shifted {
                successor: slot(after),
                points: (add + extra) as u16,
            }
        };
        let floor_options: Vec<Shifted> = boxes
            .iter()
            .map(|&(_, next)| option(next, 0, 0, &mut slot))
            .collect();
        let successor_of_box = |b: usize| boxes.iter().find(|(x, _)| *x == b).map(|&(_, n)| n);
        let scoring = super::expected::scoring_boxes(rules);
        let mut options = Vec::new();
        let dice = rules.dice_space();
        let mut starts = Vec::with_capacity(dice.roll_count() + 1);
        let mut no_floor = Vec::with_capacity(dice.roll_count());
        for (r, scoring) in scoring.iter().enumerate() {
            starts.push(options.len() as u32);
            match scoring {
                Some(list) => {
                    options.extend(list.iter().filter_map(|&(b, points)| {
                        let next = successor_of_box(usize::from(b))?;
                        Some(option(next, u32::from(points), 0, &mut slot))
                    }));
                    no_floor.push(false);
                }
                None => {
                    let roll = dice.rolls()[r];
                    options.extend(boxes.iter().filter_map(|&(b, next)| {
                        let s = rules.score(filled, yahtzee_50, &roll, b)?;
                        Some(option(next, s.points, s.extra, &mut slot))
                    }));
                    no_floor.push(true);
                }
            }
        }
        starts.push(options.len() as u32);
        let mut scoring = ScoringOptions {
            dice,
            rolls: rules.rolls_per_turn(),
            floor: floor_options,
            options,
            starts,
            no_floor,
            boxes,
            slot_of,
            points: Vec::new(),
        };
        scoring.points = scoring.gather_points();
        scoring
    }

    /// Every option, the floor's included.
    fn all(&self) -> impl Iterator<Item = &Shifted> {
        self.options.iter().chain(&self.floor)
    }
}

impl<T: DistLane> LastRoll<T> {
    /// Gathers the options of state `(lower, pair)` and decodes its successors from `source`,
    /// for a window over the points of `within` (its first and last point) where the state's
    /// function is not constant. Values outside `within` are not computed: the caller reads
    /// only inside it, and successors are read only where those points need them.
    /// `split` says which lanes hold `P - 1` ([`LastRoll::split`]).
    fn new(
        source: &dyn Successors,
        scoring: Arc<ScoringOptions>,
        within: (i64, i64),
        split: Split,
    ) -> LastRoll<T> {
        // The function is 1 before the least successor start and 0 after the greatest end any
        // option reaches.
        let bounds: Vec<(i64, i64)> = scoring
            .slot_of
            .iter()
            .map(|&(i, _)| source.bounds(i))
            .collect();
        let lo = bounds.iter().map(|b| b.0).min().unwrap_or(1);
        let reach = |o: &Shifted| bounds[usize::from(o.successor)].1 + i64::from(o.points);
        let hi = scoring.all().map(reach).max().unwrap_or(lo).max(lo);
        // Right wherever every option reads its successor where that is right, and computed
        // inside `within`; beyond `within` on a side where the function is constant, right
        // as far as the successors are.
        let shift = |x: i64, points: u16| match x {
            i64::MIN | i64::MAX => x,
            x => x + i64::from(points),
        };
        let slot_known: Vec<(i64, i64)> = scoring
            .slot_of
            .iter()
            .map(|&(i, _)| source.known(i))
            .collect();
        let mut right = EVERYWHERE;
        for o in scoring.all() {
            let (first, last) = slot_known[usize::from(o.successor)];
            right.0 = right.0.max(shift(first, o.points));
            right.1 = right.1.min(shift(last, o.points));
        }
        let known = (
            if within.0 <= lo {
                right.0
            } else {
                within.0.max(right.0)
            },
            if within.1 >= hi {
                right.1
            } else {
                within.1.min(right.1)
            },
        );
        let (lo, hi) = (lo.max(within.0), hi.min(within.1));
        let used = usize::try_from(hi - lo + 1).unwrap_or(0);
        let multiple = LANE_BYTES / std::mem::size_of::<T>();
        let lanes = used.div_ceil(multiple).max(1) * multiple;
        let below = scoring
            .all()
            .map(|o| usize::from(o.points))
            .max()
            .unwrap_or(0);
        let stride = below + lanes;
        let successors = vec![T::ZERO; bounds.len() * stride];
        let mut turn = LastRoll {
            lo,
            lanes,
            used,
            known,
            below,
            successors,
            split: 0,
            successors_less_one: Vec::new(),
            floor: Vec::new(),
            scoring,
        };
        turn.split = match split {
            Split::None => 0,
            Split::All => used,
            Split::Median if used == 0 => 0,
            Split::Median => {
                let means: Vec<f64> = turn
                    .scoring
                    .slot_of
                    .iter()
                    .map(|&(i, _)| source.mean(i))
                    .collect();
                let median = turn.estimated_points_to_come(&means).round() as i64;
                usize::try_from(median + 1 - lo).unwrap_or(0).min(used)
            }
        };
        // Lanes from the split on read successors at `split` and beyond, lanes before it below
        // `split + below`: each form is decoded where it is read.
        let first = lo - below as i64;
        let split = turn.split;
        let mut successors = std::mem::take(&mut turn.successors);
        for (&(i, _), out) in turn
            .scoring
            .slot_of
            .iter()
            .zip(successors.chunks_exact_mut(stride))
        {
            T::decode(source, i, first + split as i64, false, &mut out[split..]);
        }
        turn.successors = successors;
        if split > 0 {
            let mut less_one = vec![T::ZERO; turn.successors.len()];
            for (&(i, _), out) in turn
                .scoring
                .slot_of
                .iter()
                .zip(less_one.chunks_exact_mut(stride))
            {
                T::decode(source, i, first, true, &mut out[..split + below]);
            }
            turn.successors_less_one = less_one;
        }
        let mut floor = vec![T::ZERO; lanes];
        turn.fill_nothing(&mut floor);
        for o in &turn.scoring.floor {
            turn.raise_shifted(&mut floor, *o);
        }
        turn.floor = floor;
        turn
    }

    /// The state's expected points to come, estimated by the widget on one scalar: each
    /// successor (by slot) valued by `means`, the mean of its function, `sum over x >= 1 of P(x)` (at least its
    /// expected score, close to where its `P` crosses one half).
    fn estimated_points_to_come(&self, means: &[f64]) -> f64 {
        let value = |o: &Shifted| means[usize::from(o.successor)] + f64::from(o.points);
        let floor = self
            .scoring
            .floor
            .iter()
            .map(value)
            .fold(f64::MIN, f64::max);
        let dice = self.scoring.dice;
        let mut store = SingleStore::new(dice);
        for (r, &no_floor) in self.scoring.no_floor.iter().enumerate() {
            let start = if no_floor { f64::MIN } else { floor };
            let best = self
                .scoring
                .of_roll(r)
                .iter()
                .map(value)
                .fold(start, f64::max);
            store.slot_mut(dice.first_roll() + r)[0] = best;
        }
        solve_turn(&mut store, self.scoring.rolls);
        store.get(EMPTY_KEEP)
    }

    /// Where the decoded values of successor slot `k` from `lo - points` on begin.
    fn successor_at(&self, k: usize, points: usize) -> usize {
        k * (self.below + self.lanes) + self.below - points
    }

    /// The decoded values of successor slot `k`, from `lo - points` on.
    fn successor_from(&self, k: usize, points: usize) -> &[T] {
        &self.successors[self.successor_at(k, points)..(k + 1) * (self.below + self.lanes)]
    }

    /// Fills `out` with "nothing reached": `P = 0`, that is `-1` left of the split.
    fn fill_nothing(&self, out: &mut [T]) {
        let split = self.split.min(out.len());
        out[..split].fill(T::from_f64(-1.0));
        out[split..].fill(T::ZERO);
    }

    /// `out[i] = max(out[i], P_successor(lo + i - points))`: the option's distribution seen
    /// from before the points are scored (`P - 1` left of the split).
    #[inline(always)]
    fn raise_shifted(&self, out: &mut [T], o: Shifted) {
        let (k, points) = (usize::from(o.successor), usize::from(o.points));
        let split = self.split.min(out.len());
        let (from, to) = (self.successor_at(k, points), out.len());
        let (left, right) = out.split_at_mut(split);
        if split > 0 {
            raise(left, &self.successors_less_one[from..from + split]);
        }
        raise(right, &self.successors[from + split..from + to]);
    }

    /// Fills the roll slots of `store`: each roll's best box, pointwise.
    fn fill(&self, store: &mut LaneStore<T>) {
        let first_roll = self.scoring.dice.first_roll();
        for (r, &no_floor) in self.scoring.no_floor.iter().enumerate() {
            let out = store.slot_mut(first_roll + r);
            if no_floor {
                self.fill_nothing(out);
            } else {
                out.copy_from_slice(&self.floor);
            }
            for &o in self.scoring.of_roll(r) {
                self.raise_shifted(out, o);
            }
        }
    }
}

/// `out[i] = max(out[i], from[i])`.
#[inline(always)]
fn raise<T: DistLane>(out: &mut [T], from: &[T]) {
    for (v, &s) in out.iter_mut().zip(from) {
        *v = if s > *v { s } else { *v };
    }
}

/// `f32` lanes are trusted where the `1 - P` (left of the split) or the `P` (right of it) they
/// hold is at least this, the least normal `f32` (`2^-126`); nearer 0 the deep tails are
/// computed again in `f64`.
const F32_NORMAL: f64 = f32::MIN_POSITIVE as f64;

/// The most a turn divides the least non-zero value of its successors by: one sequence of
/// rolls of every die, `6^(dice * rolls)` (`6^15` for three rolls of five dice).
fn turn_divisor(scoring: &ScoringOptions) -> f64 {
    6f64.powi((scoring.dice.dice() * usize::from(scoring.rolls)) as i32)
}

/// Scratch space of [`solve_state`]: the widget's `f32` lanes, and the `f64` lanes of the deep
/// tails.
pub(crate) struct Scratch {
    narrow: LaneStore<f32>,
    wide: LaneStore<f64>,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            narrow: LaneStore::new(crate::dice::tables(), 0),
            wide: LaneStore::new(crate::dice::tables(), 0),
        }
    }
}

/// The stored distribution of the state `(lower, pair)` (its start and coded values),
/// computed from its successors' in `source`.
///
/// The widget runs in `f32`, whose least positive value is `2^-149`; but a `1 - P` just above
/// the total a strategy guarantees, or a `P` near the greatest total, can be as small as one
/// sequence of rolls, `6^-15` a turn. Where a successor holds a value below
/// `F32_NORMAL` times [`turn_divisor`] (so that this state's might leave `f32`'s normal range), the
/// lanes whose `1 - P` (or `P`) came out below [`F32_NORMAL`] are computed again in `f64`: a
/// narrow band at each end, so the stored support is exact and the deep tails keep their
/// magnitude.
pub(crate) fn solve_state(
    space: StateSpace,
    source: &dyn DistSource,
    lower: usize,
    pair: usize,
    scratch: &mut Scratch,
) -> (u32, Vec<u16>) {
    let scoring = Arc::new(ScoringOptions::new(space, lower, pair));
    let turn = LastRoll::new(&source, Arc::clone(&scoring), EVERYWHERE, Split::Median);
    let (lo, values, split) = run_widget_lanes(turn, &mut scratch.narrow);
    // The least non-zero `1 - P` and `P` the successors hold: this state's are at least these
    // divided by the turn's divisor.
    let (mut low, mut high) = (1.0f64, 1.0f64);
    for &(i, _) in &scoring.slot_of {
        let d = source.dist(i);
        if !d.values.is_empty() {
            low = low.min(d.complement_at(i64::from(d.start)));
            high = high.min(d.at_least(d.end()));
        }
    }
    let unsafe_below = F32_NORMAL * turn_divisor(&scoring);
    if low >= unsafe_below && high >= unsafe_below {
        return quantise_lanes(lo, &values, split);
    }
    let n = values.len();
    let mut wide: Vec<f64> = values.iter().map(|&v| f64::from(v)).collect();
    let mut recompute = |from: usize, to: usize, form: Split, wide: &mut [f64]| {
        if from < to {
            let within = (lo + from as i64, lo + to as i64 - 1);
            let band = LastRoll::<f64>::new(&source, Arc::clone(&scoring), within, form);
            let (band_lo, band_values, _) = run_widget_lanes(band, &mut scratch.wide);
            debug_assert_eq!(band_lo, within.0);
            wide[from..to].copy_from_slice(&band_values[..to - from]);
        }
    };
    if low < unsafe_below {
        // Lanes `0..split` hold `P - 1`: the band runs up to the first with a normal `1 - P`.
        let to = (0..split)
            .find(|&i| -wide[i] >= F32_NORMAL)
            .unwrap_or(split);
        recompute(0, to, Split::All, &mut wide);
    }
    if high < unsafe_below {
        let from = (split..n)
            .rev()
            .find(|&i| wide[i] >= F32_NORMAL)
            .map_or(split, |i| i + 1);
        recompute(from, n, Split::None, &mut wide);
    }
    quantise_lanes(lo, &wide, split)
}

/// The function of the state whose options are `scoring` before its next turn (its
/// distribution, or a two-player value), computed from its successors' in `source` at the
/// points of `within` ([`EVERYWHERE`] for all): outside `within` the window's values say
/// nothing. Also the points where the window is right: `within`, widened to all points on a
/// side where the function is constant beyond it (as far as the successors are right).
/// `store` is scratch space.
pub(crate) fn solve_with_options(
    source: &dyn Successors,
    scoring: Arc<ScoringOptions>,
    within: (i64, i64),
    store: &mut LaneStore<f32>,
) -> (Window, (i64, i64)) {
    let turn = LastRoll::new(source, scoring, within, Split::None);
    let known = turn.known;
    (run_widget(turn, store), known)
}

/// Runs the widget over a turn's last roll: the window before the first roll.
fn run_widget(turn: LastRoll, store: &mut LaneStore<f32>) -> Window {
    let (lo, values, _) = run_widget_lanes(turn, store);
    Window { lo, values }
}

/// [`run_widget`] for any lane type: the window's first point, values and split.
fn run_widget_lanes<T: DistLane>(
    turn: LastRoll<T>,
    store: &mut LaneStore<T>,
) -> (i64, Vec<T>, usize) {
    // (Measured slower: running the widget on tiles of a few dozen lanes, to keep its slots
    // in the L1 cache, 1.5x; AVX-512 instead of AVX2, 1.12x.)
    let values = if turn.used == 0 {
        Vec::new()
    } else {
        store.fit(turn.scoring.dice, turn.lanes);
        fill_and_solve(&turn, store);
        store.slot(EMPTY_KEEP)[..turn.used].to_vec()
    };
    (turn.lo, values, turn.split)
}

fn_with_avx2! {
    /// The widget over a filled last roll, vectorised for the widest instructions this CPU has.
    fn fill_and_solve<T: DistLane>(turn: &LastRoll<T>, store: &mut LaneStore<T>) {
        turn.fill(store);
        solve_turn(store, turn.scoring.rolls);
    }
}

/// Every option of a position valued by the largest probability of reaching a target, from
/// the distribution table: the turn's widget is run once and every decision of the turn is
/// read from it.
pub struct TurnDist {
    sheet: Sheet,
    turn: LastRoll,
    /// `keeps[n - 1]`: the keeps smaller than a roll with `n` rolls left, `lanes` values each.
    keeps: Vec<Vec<f32>>,
    /// Before the first roll.
    before: Vec<f32>,
}

/// One option of a decision and its probability of reaching the target.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionChance {
    /// What the player does.
    pub choice: Choice,
    /// The largest probability of finishing with at least the target.
    pub p_target: f64,
}

impl TurnDist {
    /// Runs the widget for `sheet`'s next turn; `None` if the sheet is impossible or complete.
    pub fn new(source: &dyn Successors, sheet: &Sheet) -> Option<TurnDist> {
        TurnDist::within(source, sheet, EVERYWHERE)
    }

    /// [`TurnDist::new`] with the turn's functions computed only at the points of `within`
    /// (reads elsewhere say nothing).
    pub fn within(source: &dyn Successors, sheet: &Sheet, within: (i64, i64)) -> Option<TurnDist> {
        if sheet.is_complete() {
            return None;
        }
        let space = StateSpace::new(sheet.rules);
        let pair = space.pairs.pair(sheet.upper_mask(), sheet.capped_upper())?;
        let lower = space.lower_index(sheet.filled, sheet.yahtzee_50);
        let scoring = Arc::new(ScoringOptions::new(space, lower, pair));
        let turn = LastRoll::new(source, scoring, within, Split::None);
        let dice = turn.scoring.dice;
        let mut store = LaneStore::<f32>::new(dice, turn.lanes);
        turn.fill(&mut store);
        let mut keeps = Vec::new();
        for _ in 1..turn.scoring.rolls {
            keeps_from_rolls(&mut store);
            keeps.push(
                (0..dice.first_roll())
                    .flat_map(|k| store.slot(k).to_vec())
                    .collect(),
            );
            rolls_from_keeps(&mut store);
        }
        super::widget::expectation_before_first_roll(&mut store);
        let before = store.slot(EMPTY_KEEP).to_vec();
        Some(TurnDist {
            sheet: *sheet,
            turn,
            keeps,
            before,
        })
    }

    /// Probability, read from a window's values, of scoring at least `x` more points.
    fn read(&self, values: &[f32], x: i64) -> f64 {
        let i = x - self.turn.lo;
        if i < 0 {
            return 1.0;
        }
        values
            .get(i as usize)
            .map_or(0.0, |&p| f64::from(p).min(1.0))
    }

    /// The largest probability of finishing with at least `target` points (the sheet's points
    /// included) before the turn's first roll.
    pub fn before_first_roll(&self, target: i64) -> f64 {
        self.before_first_roll_at(target - i64::from(self.sheet.points))
    }

    /// The turn's function (of points still to come, or of the points difference) at `x`
    /// before the first roll.
    pub(crate) fn before_first_roll_at(&self, x: i64) -> f64 {
        self.read(&self.before, x)
    }

    /// Every legal option after rolling `roll` with `rolls_left` rolls left (0..=2), with its
    /// largest probability of finishing with at least `target` points, best first (ties keep
    /// keeps before boxes, each in index order).
    pub fn options(&self, roll: &Dice, rolls_left: u8, target: i64) -> Vec<OptionChance> {
        self.options_at(roll, rolls_left, target - i64::from(self.sheet.points))
    }

    /// Every legal option after rolling `roll` with `rolls_left` rolls left, with the turn's
    /// function at `x` (see `TurnDist::before_first_roll_at`), best first.
    pub fn options_at(&self, roll: &Dice, rolls_left: u8, x: i64) -> Vec<OptionChance> {
        let mut out: Vec<OptionChance> = self
            .option_laws(roll, rolls_left)
            .into_iter()
            .map(|(choice, law)| OptionChance {
                choice,
                p_target: law.at(x),
            })
            .collect();
        out.sort_by(|a, b| b.p_target.total_cmp(&a.p_target));
        out
    }

    /// Every legal option after rolling `roll` with `rolls_left` rolls left (keeps in index
    /// order, then boxes in box order), each with its whole function of the points still to come.
    pub(crate) fn option_laws(&self, roll: &Dice, rolls_left: u8) -> Vec<(Choice, OptionLaw<'_>)> {
        let lanes = self.turn.lanes;
        let lo = self.turn.lo;
        let mut out = Vec::new();
        let dice = self.turn.scoring.dice;
        let keeps = super::widget::keeps_for_rolls_left(&self.keeps, rolls_left);
        if let (Some(values), Some(r)) = (keeps, dice.roll_index(roll)) {
            for &k in &dice.proper_sub_keeps[r] {
                let k = usize::from(k);
                let law = OptionLaw {
                    values: &values[k * lanes..(k + 1) * lanes],
                    lo,
                    shift: 0,
                };
                out.push((Choice::Keep(dice.keeps[k]), law));
            }
        }
        let rules = self.sheet.rules;
        for &(b, next) in &self.turn.scoring.boxes {
            let Some(s) = rules.score(self.sheet.filled, self.sheet.yahtzee_50, roll, b) else {
                continue;
            };
            let (after, gained) = match next {
                Next::Lower(after) => (after, s.points),
                Next::Yahtzee { zero, fifty } => {
                    (if s.points == 50 { fifty } else { zero }, s.points)
                }
                Next::Upper { face, after } => after[(s.points / u32::from(face)) as usize],
            };
            let Some(&(_, k)) = self.turn.scoring.slot_of.iter().find(|(i, _)| *i == after) else {
                continue;
            };
            let law = OptionLaw {
                values: self.turn.successor_from(usize::from(k), self.turn.below),
                lo: lo - self.turn.below as i64,
                shift: i64::from(gained + s.extra),
            };
            out.push((Choice::Score(rules.boxes()[b]), law));
        }
        out
    }
}

/// One option's function of the points still to come in the turn (a distribution, or a
/// two-player value), read from the turn's windows: 1 before [`OptionLaw::first`], 0 after
/// [`OptionLaw::last`].
#[derive(Clone, Copy, Debug)]
pub struct OptionLaw<'a> {
    values: &'a [f32],
    lo: i64,
    shift: i64,
}

impl OptionLaw<'_> {
    /// The function at `x`.
    pub fn at(&self, x: i64) -> f64 {
        let i = x - self.shift - self.lo;
        if i < 0 {
            return 1.0;
        }
        self.values
            .get(i as usize)
            .map_or(0.0, |&p| f64::from(p).min(1.0))
    }

    /// The least `x` where it may be below 1.
    pub fn first(&self) -> i64 {
        self.lo + self.shift
    }

    /// The greatest `x` where it may be above 0.
    pub fn last(&self) -> i64 {
        self.lo + self.shift + self.values.len() as i64 - 1
    }
}

/// A distribution table being built, or built and held in memory: start and values per state.
#[derive(Clone, Debug, Default)]
pub struct DistTableData {
    /// Start of each state's distribution (`u32::MAX` while not computed).
    pub starts: Vec<u32>,
    /// Values of each state's distribution.
    pub values: Vec<Vec<u16>>,
    /// Each recorded state's [`Dist::mean`], kept for the build (its predecessors all read it).
    means: Vec<f64>,
}

impl DistTableData {
    /// A table of `len` states, none computed.
    pub fn new(len: usize) -> DistTableData {
        DistTableData {
            starts: vec![u32::MAX; len],
            values: vec![Vec::new(); len],
            means: vec![0.0; len],
        }
    }

    /// Whether the state has been computed.
    pub fn has(&self, index: usize) -> bool {
        self.starts.get(index).is_some_and(|&s| s != u32::MAX)
    }

    /// Records a state's distribution.
    pub fn set(&mut self, index: usize, start: u32, values: Vec<u16>) {
        self.starts[index] = start;
        self.values[index] = values;
        if let Some(mean) = self.means.get_mut(index) {
            *mean = Dist {
                start,
                values: &self.values[index],
            }
            .mean();
        }
    }
}

impl DistSource for DistTableData {
    fn dist(&self, index: usize) -> Dist<'_> {
        Dist {
            start: self.starts[index],
            values: &self.values[index],
        }
    }

    fn mean(&self, index: usize) -> f64 {
        match self.means.get(index) {
            Some(&mean) if self.has(index) => mean,
            _ => self.dist(index).mean(),
        }
    }
}

/// The states of a rule set grouped by number of filled boxes: `layers[f]` holds the table
/// indices of the states with `f` boxes filled, in index order.
pub fn layers(rules: RuleSet) -> Vec<Vec<usize>> {
    let space = StateSpace::new(rules);
    let up = space.pairs;
    let mut layers = vec![Vec::new(); rules.box_count() + 1];
    for lower in 0..space.lower_count() {
        let lower_filled = space.lower_boxes(lower).0.count_ones() as usize;
        for pair in 0..up.count() {
            let filled = lower_filled + up.mask[pair].count_ones() as usize;
            layers[filled].push(space.index(lower, pair));
        }
    }
    layers
}

/// Computes the states `indices` (all of one layer, their successors already in `table`) in
/// parallel; returns each one's stored start and values, in the order given.
pub(crate) fn solve_states(
    rules: RuleSet,
    table: &DistTableData,
    indices: &[usize],
) -> Vec<(u32, Vec<u16>)> {
    use rayon::prelude::*;
    let space = StateSpace::new(rules);
    let pairs = space.pairs.count();
    indices
        .par_iter()
        .map_init(Scratch::default, |scratch, &index| {
            let (lower, pair) = (index / pairs, index % pairs);
            if space.lower_boxes(lower).0 | u32::from(space.pairs.mask[pair]) == rules.full_mask() {
                return (1, Vec::new());
            }
            solve_state(space, table, lower, pair, scratch)
        })
        .collect()
}

/// States computed between two calls of the builder's `chunk_done` callback.
pub const CHUNK: usize = 4096;

/// What the builder tells its caller after each chunk of states.
pub trait BuildObserver {
    /// `indices` were just computed (their results are in `table`); `done` of `total` states
    /// are computed. Return `false` to stop the build there (it can be resumed later).
    fn chunk_done(
        &mut self,
        table: &DistTableData,
        indices: &[usize],
        done: u64,
        total: u64,
    ) -> bool;
}

/// Computes every state of `table` not computed yet with at least `min_filled` boxes filled,
/// layer by layer from the full sheet down, in chunks of [`CHUNK`] states. Returns `true` if
/// it finished, `false` if the observer stopped it. The result does not depend on the number
/// of threads, nor on where an earlier build was stopped.
pub fn build_dist(
    rules: RuleSet,
    table: &mut DistTableData,
    min_filled: usize,
    observer: &mut dyn BuildObserver,
) -> bool {
    let layers = layers(rules);
    let wanted = || layers.iter().skip(min_filled).flatten();
    let total = wanted().count() as u64;
    let mut done = wanted().filter(|&&i| table.has(i)).count() as u64;
    for layer in layers.iter().skip(min_filled).rev() {
        let todo: Vec<usize> = layer.iter().copied().filter(|&i| !table.has(i)).collect();
        for chunk in todo.chunks(CHUNK) {
            let solved = solve_states(rules, table, chunk);
            for (&index, (start, values)) in chunk.iter().zip(solved) {
                table.set(index, start, values);
            }
            done += chunk.len() as u64;
            if !observer.chunk_done(table, chunk, done, total) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod final_dist_tests {
    use super::*;

    #[test]
    fn final_dist_reads_the_points_to_come() {
        let values = [
            prob_code::encode_complement(0.0),
            prob_code::encode(0.5),
            prob_code::encode(0.0),
        ];
        let d = FinalDist::new(
            100,
            Dist {
                start: 2,
                values: &values,
            },
        );
        assert_eq!(d.first(), 101);
        assert_eq!(d.last(), 104);
        assert_eq!(d.at_least(101), 1.0);
        assert_eq!(d.at_least(102), 1.0);
        assert!((d.at_least(103) - 0.5).abs() < 1e-4);
        assert_eq!(d.at_least(105), 0.0);
        assert_eq!(d.target(0.9), 102);
        assert_eq!(d.target(0.5), 103);
        assert!((d.mean() - 102.5).abs() < 1e-4);
        let complete = FinalDist::new(
            250,
            Dist {
                start: 1,
                values: &[],
            },
        );
        assert_eq!((complete.first(), complete.last()), (250, 250));
        assert_eq!(complete.mean(), 250.0);
    }
}

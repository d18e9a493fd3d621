//! Maximal-probability score distributions (METHODS.md section 3): for every sheet state, the
//! largest probability, over all strategies, of scoring at least `x` more points, for every `x`.
//!
//! A distribution is held as a *window*: `P(x) = 1` below its start, the stored values inside,
//! `0` after them. The turn widget computes a state's distribution with one lane per point of a
//! window wide enough for every successor ([`LaneStore`] of `f32`): means of six and maxima are
//! pointwise, so the generic passes apply unchanged; only the last roll (scoring a box shifts
//! the successor's distribution by the points) is specific to distributions.
//!
//! Stored values are 16-bit fixed point (`q / 65535`), rounded to nearest, and trimmed where
//! they round to 1 (before the start) or 0 (after the end). Each state is computed from its
//! successors' stored values and then rounded once, and the widget's steps (shift, mean, max)
//! never widen an error, so a stored value is within `turns left * 2^-17` of the exact
//! probability (`1.2e-4` at worst for Yatzy's 15 turns), plus `f32` rounding (below `1e-6`).

use super::states::{upper_pairs, Next, StateSpace};
use super::widget::{keeps_from_rolls, rolls_from_keeps, solve_turn, LaneStore};
use crate::dice::{Dice, EMPTY_KEEP, FIRST_ROLL, ROLLS};
use crate::rules::{Choice, RuleSet, Sheet};

/// Stored probabilities are `q / SCALE` for `q` in `0..=SCALE`.
pub const SCALE: u16 = u16::MAX;

/// Bound on the error of one stored value from rounding it alone: half a unit.
pub const ROUNDING_ERROR: f64 = 0.5 / SCALE as f64;

/// Lanes are padded to a multiple of this (eight `f32` fill one AVX2 register).
const LANE_MULTIPLE: usize = 8;

/// A stored distribution of points still to come: `P(x) = 1` for `x < start`,
/// `values[x - start] / 65535` up to the end, then `0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dist<'a> {
    /// The least `x` with `P(x) < 1`.
    pub start: u32,
    /// `P(start)..=P(end)` in 16-bit fixed point.
    pub values: &'a [u16],
}

impl Dist<'_> {
    /// The largest probability of scoring at least `x` more points.
    pub fn at_least(&self, x: i64) -> f64 {
        let start = i64::from(self.start);
        if x < start {
            return 1.0;
        }
        usize::try_from(x - start)
            .ok()
            .and_then(|i| self.values.get(i))
            .map_or(0.0, |&q| f64::from(q) / f64::from(SCALE))
    }

    /// `sum over x >= 1 of P(x)`: the "mean" of the maximal probabilities (it exceeds the
    /// optimal expected score: no single strategy reaches every target's best probability).
    pub fn mean(&self) -> f64 {
        let sure = f64::from(self.start.max(1) - 1);
        let skipped = usize::from(self.start == 0);
        let stored: u64 = self
            .values
            .iter()
            .skip(skipped)
            .map(|&q| u64::from(q))
            .sum();
        sure + stored as f64 / f64::from(SCALE)
    }

    /// The largest `x` with `P(x) > 0` (`start - 1` when the values are empty).
    pub fn end(&self) -> i64 {
        i64::from(self.start) + self.values.len() as i64 - 1
    }
}

/// Anything holding a distribution per state index: a table being built or a mapped file.
pub trait DistSource: Sync {
    /// The distribution of the state with this table index.
    fn dist(&self, index: usize) -> Dist<'_>;
}

impl<T: DistSource + ?Sized> DistSource for &T {
    fn dist(&self, index: usize) -> Dist<'_> {
        (**self).dist(index)
    }
}

/// What a turn's last roll reads: for each successor state (by table index), a non-increasing
/// function of one integer (points still to come for distributions; the points difference for
/// two-player values) that is 1 before its start and 0 after its end.
pub trait Successors: Sync {
    /// The first point where the function of state `index` may be below 1 and the last where it
    /// may be above 0.
    fn bounds(&self, index: usize) -> (i64, i64);
    /// `out[i]` = the function of state `index` at `lo + i`.
    fn decode(&self, index: usize, lo: i64, out: &mut [f32]);
}

impl<T: DistSource + ?Sized> Successors for T {
    fn bounds(&self, index: usize) -> (i64, i64) {
        let d = self.dist(index);
        (i64::from(d.start), d.end())
    }

    fn decode(&self, index: usize, lo: i64, out: &mut [f32]) {
        let d = self.dist(index);
        for (i, o) in out.iter_mut().enumerate() {
            *o = d.at_least(lo + i as i64) as f32;
        }
    }
}

/// A distribution computed in a window: `P(lo + i) = values[i]` for `i < values.len()`,
/// `1` before, `0` after.
#[derive(Clone, Debug, PartialEq)]
pub struct Window {
    /// The window's first point.
    pub lo: i64,
    /// The probabilities.
    pub values: Vec<f32>,
}

impl Window {
    /// Rounds to 16-bit fixed point and trims the ends that round to 1 and to 0: the stored
    /// start and values.
    pub fn quantise(&self) -> (u32, Vec<u16>) {
        let q: Vec<u16> = self
            .values
            .iter()
            .map(|&p| {
                (f64::from(p) * f64::from(SCALE))
                    .round()
                    .clamp(0.0, f64::from(SCALE)) as u16
            })
            .collect();
        let first = q.iter().position(|&v| v < SCALE).unwrap_or(q.len());
        let last = q
            .iter()
            .rposition(|&v| v > 0)
            .map_or(first, |i| (i + 1).max(first));
        let start = (self.lo + first as i64).max(0) as u32;
        (start, q[first..last].to_vec())
    }
}

/// One option of scoring after the last roll: a successor (by its slot in the turn's list)
/// and the points the box adds.
#[derive(Clone, Copy, Debug)]
struct Shifted {
    successor: u8,
    points: u16,
}

/// The scoring options of one state's last roll, and its successors' distributions decoded
/// into the turn's window.
struct LastRoll {
    /// The window's first point and length (padded).
    lo: i64,
    lanes: usize,
    /// Decoded successors: `successors[k * lanes + i] = P_k(lo + i)`.
    successors: Vec<f32>,
    /// The best of the zero-point options (every free box can take a zero), shared by all rolls.
    floor: Vec<f32>,
    /// The options of each roll beyond the floor (all options for five of a kind).
    options: Vec<Vec<Shifted>>,
    /// Rolls whose options replace the floor instead of adding to it.
    no_floor: Vec<bool>,
    /// For each free box (box, successor slot by dice count or Yahtzee content): what the
    /// options of [`TurnDist::options`] need.
    boxes: Vec<(usize, Next)>,
    /// Successor slot of each successor state index used.
    slot_of: Vec<(usize, u8)>,
}

impl LastRoll {
    /// Gathers the options of state `(lower, pair)` and decodes its successors from `source`.
    fn new(space: StateSpace, source: &dyn Successors, lower: usize, pair: usize) -> LastRoll {
        let rules = space.rules;
        let up = upper_pairs();
        let (lower_filled, yahtzee_50) = space.lower_boxes(lower);
        let filled = lower_filled | u16::from(up.mask[pair]);
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
        let mut options = Vec::with_capacity(ROLLS);
        let mut no_floor = Vec::with_capacity(ROLLS);
        for (r, scoring) in scoring.iter().enumerate() {
            match scoring {
                Some(list) => {
                    let opts = list
                        .iter()
                        .filter_map(|&(b, points)| {
                            let next = successor_of_box(usize::from(b))?;
                            Some(option(next, u32::from(points), 0, &mut slot))
                        })
                        .collect();
                    options.push(opts);
                    no_floor.push(false);
                }
                None => {
                    let roll = Dice::roll(r);
                    let opts = boxes
                        .iter()
                        .filter_map(|&(b, next)| {
                            let s = rules.score(filled, yahtzee_50, &roll, b)?;
                            Some(option(next, s.points, s.extra, &mut slot))
                        })
                        .collect();
                    options.push(opts);
                    no_floor.push(true);
                }
            }
        }
        // The window: from the least successor start to the greatest end any option reaches.
        let bounds: Vec<(i64, i64)> = slot_of.iter().map(|&(i, _)| source.bounds(i)).collect();
        let lo = bounds.iter().map(|b| b.0).min().unwrap_or(1);
        let reach = |o: &Shifted| bounds[usize::from(o.successor)].1 + i64::from(o.points);
        let hi = options
            .iter()
            .flatten()
            .chain(&floor_options)
            .map(reach)
            .max()
            .unwrap_or(lo)
            .max(lo);
        let lanes = ((hi - lo + 1) as usize).div_ceil(LANE_MULTIPLE) * LANE_MULTIPLE;
        let mut successors = vec![0f32; bounds.len() * lanes];
        for (&(i, _), out) in slot_of.iter().zip(successors.chunks_exact_mut(lanes)) {
            source.decode(i, lo, out);
        }
        let mut turn = LastRoll {
            lo,
            lanes,
            successors,
            floor: vec![0f32; lanes],
            options,
            no_floor,
            boxes,
            slot_of,
        };
        let mut floor = vec![0f32; lanes];
        for o in &floor_options {
            turn.raise_shifted(&mut floor, *o);
        }
        turn.floor = floor;
        turn
    }

    /// `out[i] = max(out[i], P_successor(lo + i - points))`: the option's distribution seen
    /// from before the points are scored.
    #[inline(always)]
    fn raise_shifted(&self, out: &mut [f32], o: Shifted) {
        let shift = usize::from(o.points).min(out.len());
        let k = usize::from(o.successor);
        let succ = &self.successors[k * self.lanes..(k + 1) * self.lanes];
        out[..shift].fill(1.0);
        for (v, &s) in out[shift..].iter_mut().zip(succ) {
            *v = if s > *v { s } else { *v };
        }
    }

    /// Fills the roll slots of `store`: each roll's best box, pointwise.
    fn fill(&self, store: &mut LaneStore<f32>) {
        for r in 0..ROLLS {
            let out = store.slot_mut(FIRST_ROLL + r);
            if self.no_floor[r] {
                out.fill(0.0);
            } else {
                out.copy_from_slice(&self.floor);
            }
            for &o in &self.options[r] {
                self.raise_shifted(out, o);
            }
        }
    }
}

/// The distribution of the state `(lower, pair)` before its next turn, computed from its
/// successors' distributions in `source`; `store` is scratch space.
pub fn solve_state(
    space: StateSpace,
    source: &dyn Successors,
    lower: usize,
    pair: usize,
    store: &mut LaneStore<f32>,
) -> Window {
    let turn = LastRoll::new(space, source, lower, pair);
    store.resize(turn.lanes);
    fill_and_solve(&turn, store);
    Window {
        lo: turn.lo,
        values: store.slot(EMPTY_KEEP).to_vec(),
    }
}

/// The widget over a filled last roll, vectorised for the widest instructions this CPU has.
fn fill_and_solve(turn: &LastRoll, store: &mut LaneStore<f32>) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2, checked just above.
        return unsafe { fill_and_solve_avx2(turn, store) };
    }
    turn.fill(store);
    solve_turn(store);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn fill_and_solve_avx2(turn: &LastRoll, store: &mut LaneStore<f32>) {
    turn.fill(store);
    solve_turn(store);
}

/// Every option of a position valued by the largest probability of reaching a target, from
/// the distribution table: the turn's widget is run once and every decision of the turn is
/// read from it.
pub struct TurnDist {
    sheet: Sheet,
    turn: LastRoll,
    /// Keeps of fewer than five dice with one roll left, `lanes` values each.
    keep_one_left: Vec<f32>,
    /// Keeps of fewer than five dice with two rolls left.
    keep_two_left: Vec<f32>,
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
        if sheet.is_complete() {
            return None;
        }
        let space = StateSpace::new(sheet.rules);
        let pair = upper_pairs().pair(sheet.upper_mask(), sheet.capped_upper())?;
        let lower = space.lower_index(sheet.filled, sheet.yahtzee_50);
        let turn = LastRoll::new(space, source, lower, pair);
        let mut store = LaneStore::<f32>::new(turn.lanes);
        turn.fill(&mut store);
        let keeps = |store: &LaneStore<f32>| -> Vec<f32> {
            (0..FIRST_ROLL)
                .flat_map(|k| store.slot(k).to_vec())
                .collect()
        };
        keeps_from_rolls(&mut store);
        let keep_one_left = keeps(&store);
        rolls_from_keeps(&mut store);
        keeps_from_rolls(&mut store);
        let keep_two_left = keeps(&store);
        rolls_from_keeps(&mut store);
        super::widget::expectation_before_first_roll(&mut store);
        let before = store.slot(EMPTY_KEEP).to_vec();
        Some(TurnDist {
            sheet: *sheet,
            turn,
            keep_one_left,
            keep_two_left,
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
    pub fn before_first_roll_at(&self, x: i64) -> f64 {
        self.read(&self.before, x)
    }

    /// Every legal option after rolling `roll` with `rolls_left` rolls left (0..=2), with its
    /// largest probability of finishing with at least `target` points, best first (ties keep
    /// keeps before boxes, each in index order).
    pub fn options(&self, roll: &Dice, rolls_left: u8, target: i64) -> Vec<OptionChance> {
        self.options_at(roll, rolls_left, target - i64::from(self.sheet.points))
    }

    /// Every legal option after rolling `roll` with `rolls_left` rolls left, with the turn's
    /// function at `x` (see [`TurnDist::before_first_roll_at`]), best first.
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
    pub fn option_laws(&self, roll: &Dice, rolls_left: u8) -> Vec<(Choice, OptionLaw<'_>)> {
        let lanes = self.turn.lanes;
        let lo = self.turn.lo;
        let mut out = Vec::new();
        let keeps = match rolls_left {
            0 => None,
            1 => Some(&self.keep_one_left),
            _ => Some(&self.keep_two_left),
        };
        if let (Some(values), Some(r)) = (keeps, roll.roll_index()) {
            for &k in &crate::dice::tables().proper_sub_keeps[r] {
                let k = usize::from(k);
                let law = OptionLaw {
                    values: &values[k * lanes..(k + 1) * lanes],
                    lo,
                    shift: 0,
                };
                out.push((Choice::Keep(Dice::keep(k)), law));
            }
        }
        let rules = self.sheet.rules;
        for &(b, next) in &self.turn.boxes {
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
            let Some(&(_, k)) = self.turn.slot_of.iter().find(|(i, _)| *i == after) else {
                continue;
            };
            let k = usize::from(k);
            let law = OptionLaw {
                values: &self.turn.successors[k * lanes..(k + 1) * lanes],
                lo,
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
}

impl DistTableData {
    /// A table of `len` states, none computed.
    pub fn new(len: usize) -> DistTableData {
        DistTableData {
            starts: vec![u32::MAX; len],
            values: vec![Vec::new(); len],
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
    }
}

impl DistSource for DistTableData {
    fn dist(&self, index: usize) -> Dist<'_> {
        Dist {
            start: self.starts[index],
            values: &self.values[index],
        }
    }
}

/// The states of a rule set grouped by number of filled boxes: `layers[f]` holds the table
/// indices of the states with `f` boxes filled, in index order.
pub fn layers(rules: RuleSet) -> Vec<Vec<usize>> {
    let space = StateSpace::new(rules);
    let up = upper_pairs();
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
pub fn solve_states(
    rules: RuleSet,
    table: &DistTableData,
    indices: &[usize],
) -> Vec<(u32, Vec<u16>)> {
    use rayon::prelude::*;
    let space = StateSpace::new(rules);
    let pairs = upper_pairs().count();
    indices
        .par_iter()
        .map_init(
            || LaneStore::<f32>::new(0),
            |store, &index| {
                let (lower, pair) = (index / pairs, index % pairs);
                if space.lower_boxes(lower).0 | u16::from(upper_pairs().mask[pair])
                    == rules.full_mask()
                {
                    return (1, Vec::new());
                }
                solve_state(space, table, lower, pair, store).quantise()
            },
        )
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

//! The solitaire oracle: optimal expected final score of every sheet state, built backwards
//! layer by layer with the turn widget, and the values of every option of a position.
//!
//! Values exclude the points already on the sheet: `V(K, c)` is the expected number of points
//! still to come under optimal play, upper and extra bonuses included.

use super::simd::{fn_with_avx2, Lanes, Path, Scalar};
#[cfg(target_arch = "x86_64")]
use super::simd::{Avx2, Avx512};
use super::states::{BoxStep, StateSpace, UpperPairs};
use super::widget::{solve_turn, solve_turn_tile, LaneStore, SlotAccess};
use crate::dice::{Dice, DiceSpace, EMPTY_KEEP, FIRST_ROLL, KEEPS};
pub use crate::rules::Choice;
use crate::rules::{PerRuleSet, RuleSet, Sheet};
use rayon::prelude::*;
use std::sync::OnceLock;

/// What scoring in one free box leads to, for a group of states sharing their filled boxes.
#[derive(Clone, Copy, Debug)]
enum Successor {
    /// A lower box: the successors' values start at this offset of the vector arena.
    Lower { values: usize },
    /// The Yahtzee box where its content is tracked: successor values after scoring 0 or 50.
    Yahtzee { zero: usize, fifty: usize },
    /// An upper box: six vectors (0..=5 dice of the face), each the points, the upper bonus
    /// and the successor's value together.
    Upper { face: u8, values: usize },
}

/// The successors of every free box for a group of states with the same filled boxes
/// (one lane per upper pair).
#[derive(Clone)]
pub(crate) struct Moves {
    rules: RuleSet,
    dice: &'static DiceSpace,
    filled: u32,
    yahtzee_50: bool,
    lanes: usize,
    boxes: Vec<(usize, Successor)>,
    successor: Vec<Option<Successor>>,
    arena: Vec<f64>,
}

impl Moves {
    /// Bytes the successors hold on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.boxes.capacity() * std::mem::size_of::<(usize, Successor)>()
            + self.successor.capacity() * std::mem::size_of::<Option<Successor>>()
            + self.arena.capacity() * std::mem::size_of::<f64>()
    }

    /// The successors of the states `(lower, pair)` for every `pair` in `pairs`, read from `table`
    /// (which must hold every state with more boxes filled).
    pub fn new(space: StateSpace, table: &[f64], lower: usize, pairs: &[u16]) -> Moves {
        let rules = space.rules;
        let up = space.pairs;
        let upper_mask = pairs.first().map_or(0, |&p| up.mask[usize::from(p)]);
        let (lower_filled, yahtzee_50) = space.lower_boxes(lower);
        let filled = lower_filled | u32::from(upper_mask);
        let lanes = pairs.len();
        let dice = rules.dice_space();
        let mut moves = Moves {
            rules,
            dice,
            filled,
            yahtzee_50,
            lanes,
            boxes: Vec::new(),
            successor: vec![None; rules.box_count()],
            arena: Vec::new(),
        };
        if pairs.is_empty() {
            return moves;
        }
        let index = |lower: usize, p: &u16| space.index(lower, usize::from(*p));
        for b in (0..rules.box_count()).filter(|b| filled & (1 << b) == 0) {
            let arena = &mut moves.arena;
            let successor = match space.box_step(lower, b) {
                BoxStep::Upper(face) => {
                    // One vector per count of the face's dice (0 to all), one after the other.
                    let values = arena.len();
                    for n in 0..=dice.dice() as u8 {
                        push(
                            arena,
                            pairs.iter().map(|&p| {
                                let (after, points) = space.upper_step(usize::from(p), face, n);
                                f64::from(points) + table[space.index(lower, after)]
                            }),
                        );
                    }
                    Successor::Upper { face, values }
                }
                BoxStep::Yahtzee { zero, fifty } => Successor::Yahtzee {
                    zero: push(arena, pairs.iter().map(|p| 0.0 + table[index(zero, p)])),
                    fifty: push(arena, pairs.iter().map(|p| 0.0 + table[index(fifty, p)])),
                },
                BoxStep::Lower(after) => Successor::Lower {
                    values: push(arena, pairs.iter().map(|p| 0.0 + table[index(after, p)])),
                },
            };
            moves.boxes.push((b, successor));
            moves.successor[b] = Some(successor);
        }
        moves
    }

    /// The values, one per lane, of scoring `roll` in free box `b` with the given score, as the
    /// points added now plus the successor's values.
    fn scored(&self, successor: Successor, points: u32, extra: u32) -> (f64, &[f64]) {
        let (add, at) = self.scored_at(successor, points, extra);
        (add, &self.arena[at..at + self.lanes])
    }

    /// [`Moves::scored`] as the points added now and where the successor's values start in the
    /// arena.
    fn scored_at(&self, successor: Successor, points: u32, extra: u32) -> (f64, usize) {
        match successor {
            Successor::Lower { values } => (f64::from(points + extra), values),
            Successor::Yahtzee { zero, fifty } => {
                let at = if points == 50 { fifty } else { zero };
                (f64::from(points + extra), at)
            }
            Successor::Upper { face, values } => {
                let n = (points / u32::from(face)) as usize;
                (f64::from(extra), values + n * self.lanes)
            }
        }
    }

    /// Lists, into `plan`, what [`Moves::fill_last_roll`] compares for each roll, so that every
    /// tile of lanes reads the same list. It walks the boxes as `fill_last_roll` does, which
    /// keeps its own walk: building this list there too cost the single-state `eval` 18%
    /// (criterion `eval/verhoeff_position/2_rolls_left`, 3.64 against 4.28 µs). The test that
    /// builds every rule set both ways holds the two walks to the same bits.
    fn plan_last_roll(&self, plan: &mut LastRollPlan) {
        plan.floor.clear();
        plan.terms.clear();
        plan.start.clear();
        plan.from_floor.clear();
        for &(_, successor) in &self.boxes {
            plan.floor.push(self.scored_at(successor, 0, 0));
        }
        for (r, scoring) in scoring_boxes(self.rules).iter().enumerate() {
            plan.start.push(plan.terms.len());
            plan.from_floor.push(scoring.is_some());
            match scoring {
                Some(boxes) => {
                    for &(b, points) in boxes {
                        if let Some(successor) = self.successor[usize::from(b)] {
                            plan.terms
                                .push(self.scored_at(successor, u32::from(points), 0));
                        }
                    }
                }
                None => {
                    let roll = self.dice.rolls()[r];
                    for &(b, successor) in &self.boxes {
                        if let Some(s) = self.rules.score(self.filled, self.yahtzee_50, &roll, b) {
                            plan.terms
                                .push(self.scored_at(successor, s.points, s.extra));
                        }
                    }
                }
            }
        }
        plan.start.push(plan.terms.len());
    }

    /// [`Moves::fill_last_roll`] for the tile of lanes starting at `lane`, into the roll slots
    /// of `slots` (same operations per lane, maxima taken in registers).
    #[inline(always)]
    fn fill_last_roll_tile<V: Lanes>(
        &self,
        plan: &LastRollPlan,
        lane: usize,
        slots: &mut [V],
        first_roll: usize,
    ) {
        let term = |&(add, at): &(f64, usize)| V::splat(add).add(V::load(&self.arena[at + lane..]));
        let mut floor = V::splat(f64::NEG_INFINITY);
        for t in &plan.floor {
            floor = floor.larger(term(t));
        }
        let rolls = slots[first_roll..].iter_mut().zip(&plan.from_floor);
        for (r, (slot, &from_floor)) in rolls.enumerate() {
            let mut best = if from_floor {
                floor
            } else {
                V::splat(f64::NEG_INFINITY)
            };
            for t in &plan.terms[plan.start[r]..plan.start[r + 1]] {
                best = best.larger(term(t));
            }
            *slot = best;
        }
    }

    /// Value (lane `lane`) of scoring `roll` in each legal box, in box order.
    pub(crate) fn box_values(&self, roll: &Dice, lane: usize) -> Vec<(usize, f64)> {
        let mut out = Vec::with_capacity(self.boxes.len());
        self.for_each_box_value(roll, lane, |b, v| out.push((b, v)));
        out
    }

    /// Calls `each(box, value)` for every legal box of `roll` (lane `lane`), in box order.
    pub(crate) fn for_each_box_value(
        &self,
        roll: &Dice,
        lane: usize,
        mut each: impl FnMut(usize, f64),
    ) {
        for &(b, successor) in &self.boxes {
            if let Some(s) = self.rules.score(self.filled, self.yahtzee_50, roll, b) {
                let (add, values) = self.scored(successor, s.points, s.extra);
                each(b, add + values[lane]);
            }
        }
    }

    /// Fills the roll slots of `store` with the value of each roll after the last roll: the
    /// best legal box.
    ///
    /// Scores are never negative, so every free box's value at score 0 (`s + V >= V`) can be
    /// folded once into a floor shared by all rolls; each roll then only visits the boxes where
    /// it scores points. Five of a kind, where jokers restrict the boxes, takes the general path.
    #[inline(always)]
    pub(crate) fn fill_last_roll<S: SlotAccess>(&self, store: &mut S) {
        let mut floor = vec![f64::NEG_INFINITY; self.lanes];
        for &(_, successor) in &self.boxes {
            let (add, values) = self.scored(successor, 0, 0);
            raise_by(&mut floor, add, values);
        }
        let scoring = scoring_boxes(self.rules);
        let first_roll = self.dice.first_roll();
        for (r, scoring) in scoring.iter().enumerate() {
            let out = store.slot_mut(first_roll + r);
            match scoring {
                Some(boxes) => {
                    out.copy_from_slice(&floor);
                    for &(b, points) in boxes {
                        if let Some(successor) = self.successor[usize::from(b)] {
                            let (add, values) = self.scored(successor, u32::from(points), 0);
                            raise_by(out, add, values);
                        }
                    }
                }
                None => {
                    out.fill(f64::NEG_INFINITY);
                    let roll = self.dice.rolls()[r];
                    for &(b, successor) in &self.boxes {
                        if let Some(s) = self.rules.score(self.filled, self.yahtzee_50, &roll, b) {
                            let (add, values) = self.scored(successor, s.points, s.extra);
                            raise_by(out, add, values);
                        }
                    }
                }
            }
        }
    }
}

/// Appends `values` to `arena`; returns where they start.
fn push(arena: &mut Vec<f64>, values: impl Iterator<Item = f64>) -> usize {
    let at = arena.len();
    arena.extend(values);
    at
}

/// What the last roll of a group compares, as (points added now, start of the successor's
/// values in the arena): the same for every tile of the group's lanes.
#[derive(Debug, Default)]
struct LastRollPlan {
    /// Every free box at score 0: the floor that every roll but five of a kind starts from.
    floor: Vec<(f64, usize)>,
    /// The boxes of every roll: roll `r`'s are `terms[start[r]..start[r + 1]]`.
    terms: Vec<(f64, usize)>,
    start: Vec<usize>,
    /// False for five of a kind, which starts from nothing (jokers restrict its boxes).
    from_floor: Vec<bool>,
}

/// The values of the states `(lower, pair)` for `pair` in `pairs` (all of one upper mask), by
/// tiles of lanes held in vector registers on instruction set `path`; the same bits as
/// [`solve_group`].
fn solve_group_tiles(
    space: StateSpace,
    table: &[f64],
    lower: usize,
    pairs: &[u16],
    path: Path,
    plan: &mut LastRollPlan,
) -> Vec<f64> {
    let moves = Moves::new(space, table, lower, pairs);
    moves.plan_last_roll(plan);
    let mut out = Vec::with_capacity(pairs.len());
    let done = match path {
        // SAFETY: the path is only chosen when the CPU has its instructions.
        #[cfg(target_arch = "x86_64")]
        Path::Avx512 if path.available() => unsafe { tiles_avx512(&moves, plan, &mut out) },
        // SAFETY: as above.
        #[cfg(target_arch = "x86_64")]
        Path::Avx2 if path.available() => unsafe { tiles_avx2(&moves, plan, &mut out) },
        _ => 0,
    };
    tiles::<Scalar>(&moves, plan, done, &mut out);
    out
}

/// Solves the lanes of `moves` from `lane` on, [`Lanes::WIDTH`] at a time, appending their
/// values to `out`; returns the first lane left (fewer than a tile remain).
#[inline(always)]
fn tiles<V: Lanes>(moves: &Moves, plan: &LastRollPlan, lane: usize, out: &mut Vec<f64>) -> usize {
    // Five dice: the slots on the stack (462 vectors, in the first-level cache) and their count
    // and first roll constants, so that the kernel checks no slot index at run time; other
    // counts take their slots from the heap.
    let dice = moves.dice;
    if dice.keep_count() == KEEPS && dice.first_roll() == FIRST_ROLL {
        tiles_in::<V>(
            moves,
            plan,
            lane,
            out,
            &mut [V::splat(0.0); KEEPS],
            FIRST_ROLL,
        )
    } else {
        let mut slots = vec![V::splat(0.0); dice.keep_count()];
        tiles_in::<V>(moves, plan, lane, out, &mut slots, dice.first_roll())
    }
}

/// [`tiles`] with the widget's slots in `slots` (one per keep), the rolls from `first_roll`.
#[inline(always)]
fn tiles_in<V: Lanes>(
    moves: &Moves,
    plan: &LastRollPlan,
    mut lane: usize,
    out: &mut Vec<f64>,
    slots: &mut [V],
    first_roll: usize,
) -> usize {
    let mut values = [0.0f64; 8];
    let rolls = moves.rules.rolls_per_turn();
    while lane + V::WIDTH <= moves.lanes {
        moves.fill_last_roll_tile(plan, lane, slots, first_roll);
        solve_turn_tile(moves.dice, slots, first_roll, rolls).store(&mut values);
        out.extend_from_slice(&values[..V::WIDTH]);
        lane += V::WIDTH;
    }
    lane
}

/// [`tiles`] with AVX2 vectors.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn tiles_avx2(moves: &Moves, plan: &LastRollPlan, out: &mut Vec<f64>) -> usize {
    tiles::<Avx2>(moves, plan, 0, out)
}

/// [`tiles`] with AVX-512 vectors, then AVX2 vectors for the last four lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f")]
fn tiles_avx512(moves: &Moves, plan: &LastRollPlan, out: &mut Vec<f64>) -> usize {
    let lane = tiles::<Avx512>(moves, plan, 0, out);
    tiles::<Avx2>(moves, plan, lane, out)
}

/// `out[i] = max(out[i], add + values[i])`.
#[inline(always)]
fn raise_by(out: &mut [f64], add: f64, values: &[f64]) {
    for (o, &v) in out.iter_mut().zip(values) {
        let x = add + v;
        *o = if x > *o { x } else { *o };
    }
}

/// A roll's scoring boxes with their points (`None` for five of a kind): [`scoring_boxes`].
type RollScoring = Option<Vec<(u8, u8)>>;

/// For every roll of the rule set's dice that is not five of a kind, the boxes where it scores
/// points, with the points (no joker applies); `None` for five of a kind.
pub(crate) fn scoring_boxes(rules: RuleSet) -> &'static [RollScoring] {
    static TABLES: PerRuleSet<Vec<RollScoring>> = [const { OnceLock::new() }; RuleSet::ALL.len()];
    rules
        .once(&TABLES, || {
            rules
                .dice_space()
                .rolls()
                .iter()
                .map(|roll| {
                    roll.five_of_a_kind().is_none().then(|| {
                        (0..rules.box_count())
                            .map(|b| (b as u8, rules.box_points(b, roll) as u8))
                            .filter(|&(_, points)| points > 0)
                            .collect()
                    })
                })
                .collect()
        })
        .as_slice()
}

/// Lanes are padded to a multiple of this (repeating the last state) so the lane loops have
/// no scalar remainder.
const LANE_MULTIPLE: usize = 4;

/// How states are grouped into widget runs when building a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grouping {
    /// One run per (lower index, upper mask), one lane per upper pair, solved by tiles of
    /// lanes in vector registers of the given instruction set: the fast way.
    Tiles(Path),
    /// One run per (lower index, upper mask), one lane per upper pair, every lane of the run
    /// at once in memory (the builder before the tiles; kept as a reference).
    Lanes,
    /// One run per state: the plain way, kept as the benchmarks' baseline.
    OneStatePerRun,
}

/// Builds the whole expected-score table of a rule set: `table[space.index(lower, pair)]`.
/// Layers of equal filled count are solved in parallel; the result does not depend on the
/// number of threads. `progress` is called with the number of states solved so far and the
/// total (a run's work grows with its states, so states are the honest unit).
pub fn build_table(rules: RuleSet, progress: &(dyn Fn(u64, u64) + Sync)) -> Vec<f64> {
    build_table_with(rules, Grouping::Tiles(Path::detect()), progress)
}

/// One run of the widget: consecutive upper pairs of one mask, solved together.
struct Run {
    /// The first pair.
    first: usize,
    /// Number of pairs (states) the run solves.
    count: usize,
    /// The lanes: the pairs, padded to a multiple of [`LANE_MULTIPLE`] for [`Grouping::Lanes`].
    lanes: Vec<u16>,
}

impl Run {
    /// The runs that cover the pairs of an upper mask.
    fn of_mask(up: &UpperPairs, mask: usize, grouping: Grouping) -> Vec<Run> {
        let (first, end) = (up.offset[mask], up.offset[mask + 1]);
        let pairs: Vec<u16> = (first..end).map(|p| p as u16).collect();
        match grouping {
            Grouping::Tiles(_) | Grouping::Lanes => {
                let mut lanes = pairs.clone();
                let last = pairs.last().copied().unwrap_or(0);
                lanes.resize(pairs.len().div_ceil(LANE_MULTIPLE) * LANE_MULTIPLE, last);
                vec![Run {
                    first,
                    count: pairs.len(),
                    lanes,
                }]
            }
            Grouping::OneStatePerRun => pairs
                .iter()
                .map(|&p| Run {
                    first: usize::from(p),
                    count: 1,
                    lanes: vec![p],
                })
                .collect(),
        }
    }
}

/// [`build_table`] with a choice of grouping (both give the same bits).
pub fn build_table_with(
    rules: RuleSet,
    grouping: Grouping,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Vec<f64> {
    build_states_within(rules, grouping, 0, progress)
}

/// The table of a sub-game: the values of every state whose filled boxes include `filled`
/// (the states reachable from any sheet with those boxes filled), the same bits as
/// [`build_table`] gives them; every other entry is 0. With few boxes left open it takes a
/// fraction of a second where the whole table takes minutes (Maxi Yatzy), which is what the
/// checks against brute force and simulation on reduced games read.
pub fn build_subgame_table(
    rules: RuleSet,
    filled: u32,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Vec<f64> {
    build_states_within(rules, Grouping::Tiles(Path::detect()), filled, progress)
}

/// Builds the values of the states whose filled boxes include `within` (0: the whole table).
fn build_states_within(
    rules: RuleSet,
    grouping: Grouping,
    within: u32,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Vec<f64> {
    let space = StateSpace::new(rules);
    let mut table = vec![0.0f64; space.len()];
    solve_layers(
        space,
        grouping,
        within,
        &mut table,
        progress,
        || {
            let store = LaneStore::<f64>::new(rules.dice_space(), 0);
            (store, LastRollPlan::default())
        },
        |table, (store, plan), lower, lanes| match grouping {
            Grouping::Tiles(path) => solve_group_tiles(space, table, lower, lanes, path, plan),
            _ => solve_group_fast(space, table, lower, lanes, store),
        },
        |table, start, count, values| {
            table[start..start + count].copy_from_slice(&values[..count]);
        },
    );
    table
}

/// The layered build shared by the table builders: the states whose filled boxes include
/// `within` (0: every state), grouped into widget runs by `grouping`, solved layer by layer from
/// the fullest sheets back to the empty one. Within a layer, `solve(table, scratch, lower,
/// lanes)` values the run of states `(lower, pair)` for the pairs `lanes` (padded for the
/// lanes) in parallel, reading only states of later layers from `table`; then, in a fixed
/// order, `write(table, start, count, result)` stores each run's result, the run's states
/// being the `count` table indices from `start`. The results do not depend on the number of
/// threads. `progress` gets the states solved so far and the total.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_layers<T: Send, S>(
    space: StateSpace,
    grouping: Grouping,
    within: u32,
    table: &mut Vec<f64>,
    progress: &(dyn Fn(u64, u64) + Sync),
    scratch: impl Fn() -> S + Sync + Send,
    solve: impl Fn(&[f64], &mut S, usize, &[u16]) -> T + Sync + Send,
    write: impl Fn(&mut Vec<f64>, usize, usize, T),
) {
    let rules = space.rules;
    let runs_of_mask: Vec<Vec<Run>> = (0..64)
        .map(|mask| Run::of_mask(space.pairs, mask, grouping))
        .collect();
    // Runs by number of filled boxes.
    let mut layers: Vec<Vec<(usize, &Run)>> = vec![Vec::new(); rules.box_count() + 1];
    for lower in 0..space.lower_count() {
        let lower_boxes = space.lower_boxes(lower).0;
        let lower_filled = lower_boxes.count_ones() as usize;
        for (mask, runs) in runs_of_mask.iter().enumerate() {
            if (lower_boxes | mask as u32) & within != within {
                continue;
            }
            for run in runs {
                layers[lower_filled + mask.count_ones() as usize].push((lower, run));
            }
        }
    }
    let states = |layer: &[(usize, &Run)]| layer.iter().map(|(_, run)| run.count as u64).sum();
    let total: u64 = layers.iter().map(|l| states(l)).sum();
    let mut done: u64 = states(&layers[rules.box_count()]);
    for layer in layers[..rules.box_count()].iter().rev() {
        let read: &[f64] = table;
        let solved: Vec<T> = layer
            .par_iter()
            .map_init(&scratch, |s, &(lower, run)| {
                solve(read, s, lower, &run.lanes)
            })
            .collect();
        for (&(lower, run), values) in layer.iter().zip(solved) {
            write(table, space.index(lower, run.first), run.count, values);
        }
        done += states(layer);
        progress(done, total);
    }
}

fn_with_avx2!(
/// [`solve_group`] compiled for the widest vector instructions this CPU has (same results:
/// the code performs the same operations in the same order, only more lanes at a time).
fn solve_group_fast = solve_group(
    space: StateSpace, table: &[f64], lower: usize, pairs: &[u16], store: &mut LaneStore<f64>
) -> Vec<f64>);

/// Values of the states `(lower, pair)` for `pair` in `pairs` (all of one upper mask).
#[inline(always)]
pub fn solve_group(
    space: StateSpace,
    table: &[f64],
    lower: usize,
    pairs: &[u16],
    store: &mut LaneStore<f64>,
) -> Vec<f64> {
    store.fit(space.rules.dice_space(), pairs.len());
    Moves::new(space, table, lower, pairs).fill_last_roll(store);
    solve_turn(store, space.rules.rolls_per_turn());
    store.slot(EMPTY_KEEP).to_vec()
}

/// One option of a decision and its value.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionValue {
    /// What the player does.
    pub choice: Choice,
    /// Expected final score (points on the sheet included) with optimal play afterwards.
    pub value: f64,
}

/// What rating one decision needs: the best option and its value, the worst option's value,
/// and the value of the option taken (`None` if it is not a legal option).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct DecisionValues {
    /// Value of the best option.
    pub best: f64,
    /// The best option (the first listed among equals).
    pub best_choice: Choice,
    /// Value of the worst option.
    pub worst: f64,
    /// Value of the option taken.
    pub chosen: Option<f64>,
}

/// Expected final score of a sheet before its next turn (points so far included). On a
/// saved-rolls table (bank-major) this is the value with no rolls saved, bank 0's slice coming
/// first; see [`crate::solve::turn_oracle::sheet_value_saved`].
pub fn sheet_value(table: &[f64], sheet: &Sheet) -> Option<f64> {
    if sheet.is_complete() {
        return Some(f64::from(sheet.points));
    }
    let index = StateSpace::new(sheet.rules).index_of(sheet)?;
    Some(f64::from(sheet.points) + table.get(index)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{self, OUTCOMES, ROLLS};
    use crate::rules::{Category, UPPER_BOXES};
    use crate::solve::states::Next;
    use crate::solve::turn_oracle::{position_options, TurnOracle};

    /// P(five of a kind within three rolls, optimal keeps) = 2,783,176 / 6^10, the classic
    /// figure (derived by brute force in `solve::widget`'s tests).
    const P_YAHTZEE: f64 = 2_783_176.0 / 60_466_176.0;

    /// The sheet of `rules` with every box filled but `free` ([`Sheet::filled_but`]).
    fn only_free(rules: RuleSet, free: &[&str], points: u32) -> Sheet {
        let sheet = Sheet::filled_but(rules, free, points);
        assert_eq!(
            sheet.filled_count() as usize,
            rules.box_count() - free.len()
        );
        sheet
    }

    /// A table of zeros: right for every complete state, so exact for the turn of any sheet
    /// with one box free (whose successors are all complete).
    fn zeros(rules: RuleSet) -> Vec<f64> {
        vec![0.0; StateSpace::new(rules).len()]
    }

    /// The value of `sheet`'s state (points to come) by one run of the builder's group solver.
    fn solve_state(table: &[f64], sheet: &Sheet) -> f64 {
        let space = StateSpace::new(sheet.rules);
        let pair = space
            .pairs
            .pair(sheet.upper_mask(), sheet.capped_upper())
            .unwrap();
        let lower = space.lower_index(sheet.filled, sheet.yahtzee_50);
        let mut store = LaneStore::new(sheet.rules.dice_space(), 0);
        solve_group(space, table, lower, &[pair as u16], &mut store)[0]
    }

    /// `sum over first rolls of weight * best option value / 7776` for `sheet`.
    fn mean_best_option(table: &[f64], sheet: &Sheet) -> f64 {
        let oracle = TurnOracle::new(table, sheet).unwrap();
        let weights = &dice::tables().roll_weight;
        let sum: f64 = (0..ROLLS)
            .map(|r| {
                let options = oracle.options(&Dice::roll(r), 2);
                f64::from(weights[r]) * options[0].value
            })
            .sum();
        sum / f64::from(OUTCOMES)
    }

    fn roll(faces: &str) -> Dice {
        let faces: Vec<u8> = faces.bytes().map(|b| b - b'0').collect();
        Dice::from_faces(&faces).unwrap()
    }

    #[test]
    fn chance_alone_is_worth_its_points_plus_70_thirds() {
        // Each die is kept when it beats a reroll: 14/3 per die over three rolls (see
        // `solve::widget`'s tests), 70/3 for five. Five of a kind scores its sum too (no
        // Yahtzee 50 on the sheet, so no extra bonus).
        for rules in RuleSet::MAIN {
            let sheet = only_free(rules, &["C"], 200);
            let mut table = zeros(rules);
            let to_come = solve_state(&table, &sheet);
            assert!((to_come - 70.0 / 3.0).abs() < 1e-9, "{rules}: {to_come}");
            table[StateSpace::new(rules).index_of(&sheet).unwrap()] = to_come;
            let value = sheet_value(&table, &sheet).unwrap();
            assert!(
                (value - (200.0 + 70.0 / 3.0)).abs() < 1e-9,
                "{rules}: {value}"
            );
            // The best option of every first roll, averaged over the rolls, is that value.
            let mean = mean_best_option(&table, &sheet);
            assert!((mean - value).abs() < 1e-9, "{rules}: {mean} vs {value}");
        }
    }

    #[test]
    fn yahtzee_box_alone_is_worth_50_times_the_chance_of_a_yahtzee() {
        for rules in RuleSet::MAIN {
            let sheet = only_free(rules, &["Y"], 150);
            let table = zeros(rules);
            let to_come = solve_state(&table, &sheet);
            assert!(
                (to_come - 50.0 * P_YAHTZEE).abs() < 1e-9,
                "{rules}: {to_come}"
            );
            let mean = mean_best_option(&table, &sheet);
            assert!((mean - (150.0 + to_come)).abs() < 1e-9, "{rules}: {mean}");
        }
    }

    #[test]
    fn chance_options_keep_the_dice_that_beat_a_reroll() {
        // Rolling 12456 with only Chance free: with two rolls left keep what beats 17/4 (56):
        // 11 + 3 * 17/4 = 23.75; with one left keep what beats 7/2 (456): 15 + 2 * 7/2 = 22;
        // with none, score the sum, 18.
        let sheet = only_free(RuleSet::Yahtzee, &["C"], 200);
        let table = zeros(RuleSet::Yahtzee);
        let dice = roll("12456");
        let options = position_options(&table, &sheet, &dice, 2);
        // 31 proper sub-multisets of five different dice, and the box.
        assert_eq!(options.len(), 32);
        assert_eq!(options[0].choice, Choice::Keep(roll("56")));
        assert!((options[0].value - 223.75).abs() < 1e-9);
        let score = options
            .iter()
            .find(|o| o.choice == Choice::Score(Category::Chance))
            .unwrap();
        assert_eq!(score.value, 218.0);
        assert!(options.windows(2).all(|w| w[0].value >= w[1].value));

        let options = position_options(&table, &sheet, &dice, 1);
        assert_eq!(options[0].choice, Choice::Keep(roll("456")));
        assert!((options[0].value - 222.0).abs() < 1e-9);

        let options = position_options(&table, &sheet, &dice, 0);
        let expected = vec![OptionValue {
            choice: Choice::Score(Category::Chance),
            value: 218.0,
        }];
        assert_eq!(options, expected);
    }

    #[test]
    fn keep_value_is_the_listed_value_of_that_keep() {
        let sheet = only_free(RuleSet::Yatzy, &["C"], 120);
        let table = zeros(RuleSet::Yatzy);
        let oracle = TurnOracle::new(&table, &sheet).unwrap();
        let dice = roll("23356");
        for rolls_left in [1, 2] {
            for option in oracle.options(&dice, rolls_left) {
                if let Choice::Keep(keep) = option.choice {
                    assert_eq!(oracle.keep_value(&keep, rolls_left), Some(option.value));
                }
            }
        }
        // Keeping 6 with one reroll left: 6 + 4 * 7/2.
        let six = oracle.keep_value(&roll("6"), 1).unwrap();
        assert!((six - (120.0 + 20.0)).abs() < 1e-9);
        assert_eq!(oracle.keep_value(&roll("6"), 0), None);
        assert_eq!(oracle.keep_value(&roll("6"), 3), None);
    }

    #[test]
    fn decision_gives_the_best_worst_and_chosen_values_of_the_options() {
        // Two boxes free (3K and Y), the one-free layer solved into a table of zeros.
        let rules = RuleSet::Yahtzee;
        let space = StateSpace::new(rules);
        let sheet = only_free(rules, &["3K", "Y"], 180);
        let mut table = zeros(rules);
        for (b, next) in space.successors(
            space.lower_index(sheet.filled, sheet.yahtzee_50),
            space
                .pairs
                .pair(sheet.upper_mask(), sheet.capped_upper())
                .unwrap(),
        ) {
            assert!(b >= UPPER_BOXES);
            let afters = match next {
                Next::Lower(a) => vec![a],
                Next::Yahtzee { zero, fifty } => vec![zero, fifty],
                Next::Upper { .. } => unreachable!("no upper box free"),
            };
            for after in afters {
                let lower = after / space.pairs.count();
                let pair = after % space.pairs.count();
                table[after] = solve_group(
                    space,
                    &table,
                    lower,
                    &[pair as u16],
                    &mut LaneStore::new(rules.dice_space(), 0),
                )[0];
            }
        }
        let oracle = TurnOracle::new(&table, &sheet).unwrap();
        for (faces, rolls_left) in [("66666", 2), ("44412", 1), ("12345", 0), ("33366", 2)] {
            let dice = roll(faces);
            let options = oracle.options(&dice, rolls_left);
            for option in &options {
                let d = oracle.decision(&dice, rolls_left, option.choice).unwrap();
                assert_eq!(d.best, options[0].value, "{faces}");
                assert_eq!(d.best_choice, options[0].choice, "{faces}");
                assert_eq!(d.worst, options.last().unwrap().value, "{faces}");
                assert_eq!(d.chosen, Some(option.value), "{faces} {}", option.choice);
            }
            // A box already filled is not an option: nothing chosen, the rest the same.
            let d = oracle
                .decision(&dice, rolls_left, Choice::Score(Category::Chance))
                .unwrap();
            assert_eq!((d.chosen, d.best), (None, options[0].value));
        }
        // Five sixes with two rolls left: the Yahtzee now beats every keep.
        assert_eq!(
            oracle.options(&roll("66666"), 2)[0].choice,
            Choice::Score(Category::Yahtzee)
        );
    }

    #[test]
    fn complete_and_impossible_sheets() {
        // A complete sheet is worth its points; no table entry is read.
        let rules = RuleSet::YahtzeeKurnik;
        let codes: Vec<&str> = rules
            .boxes()
            .iter()
            .map(|c| {
                if *c == Category::Yahtzee {
                    "Y50"
                } else {
                    c.code()
                }
            })
            .collect();
        let complete = Sheet::from_codes(rules, &codes, 80, 301).unwrap();
        assert!(complete.is_complete());
        assert_eq!(sheet_value(&[], &complete), Some(301.0));
        // An upper total the filled upper boxes cannot make has no state.
        let impossible = Sheet {
            filled: 1 << 3,
            upper_total: 1,
            ..Sheet::empty(rules)
        };
        let table = zeros(rules);
        assert_eq!(sheet_value(&table, &impossible), None);
        assert!(TurnOracle::new(&table, &impossible).is_none());
        assert!(position_options(&table, &impossible, &roll("12345"), 2).is_empty());
    }
}

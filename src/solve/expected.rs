//! The solitaire oracle: optimal expected final score of every sheet state, built backwards
//! layer by layer with the turn widget, and the values of every option of a position.
//!
//! Values exclude the points already on the sheet: `V(K, c)` is the expected number of points
//! still to come under optimal play, upper and extra bonuses included.

use super::states::{upper_pairs, Next, StateSpace};
use super::widget::{
    keeps_from_rolls, rolls_from_keeps, solve_turn, LaneStore, SingleStore, SlotAccess,
};
use crate::dice::{Dice, EMPTY_KEEP, FIRST_ROLL, ROLLS};
pub use crate::rules::Choice;
use crate::rules::{RuleSet, Sheet};
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
pub struct Moves {
    rules: RuleSet,
    filled: u16,
    yahtzee_50: bool,
    lanes: usize,
    boxes: Vec<(usize, Successor)>,
    successor: [Option<Successor>; 15],
    arena: Vec<f64>,
}

impl Moves {
    /// The successors of the states `(lower, pair)` for every `pair` in `pairs`, read from `table`
    /// (which must hold every state with more boxes filled).
    pub fn new(space: StateSpace, table: &[f64], lower: usize, pairs: &[u16]) -> Moves {
        let rules = space.rules;
        let up = upper_pairs();
        let upper_mask = pairs.first().map_or(0, |&p| up.mask[usize::from(p)]);
        let (lower_filled, yahtzee_50) = space.lower_boxes(lower);
        let filled = lower_filled | u16::from(upper_mask);
        let lanes = pairs.len();
        let mut moves = Moves {
            rules,
            filled,
            yahtzee_50,
            lanes,
            boxes: Vec::new(),
            successor: [None; 15],
            arena: Vec::new(),
        };
        let nexts: Vec<Vec<(usize, Next)>> = pairs
            .iter()
            .map(|&p| space.successors(lower, usize::from(p)))
            .collect();
        let Some(first) = nexts.first() else {
            return moves;
        };
        for (i, &(b, step)) in first.iter().enumerate() {
            // The same box of every lane's state, as `select` picks it out.
            let mut push_lanes = |select: &dyn Fn(Next) -> (usize, u32)| {
                let at = moves.arena.len();
                for lane in &nexts {
                    let (after, points) = select(lane[i].1);
                    moves.arena.push(f64::from(points) + table[after]);
                }
                at
            };
            let successor = match step {
                Next::Upper { face, .. } => {
                    let mut values = None;
                    for n in 0..6 {
                        let at = push_lanes(&|next| match next {
                            Next::Upper { after, .. } => after[n],
                            _ => unreachable!("every lane has the same free boxes"),
                        });
                        values.get_or_insert(at);
                    }
                    let values = values.unwrap_or(0);
                    Successor::Upper { face, values }
                }
                Next::Yahtzee { .. } => {
                    let pick = |fifty: bool| {
                        move |next: Next| match next {
                            Next::Yahtzee { zero, fifty: f } => (if fifty { f } else { zero }, 0),
                            _ => unreachable!("every lane has the same free boxes"),
                        }
                    };
                    let zero = push_lanes(&pick(false));
                    let fifty = push_lanes(&pick(true));
                    Successor::Yahtzee { zero, fifty }
                }
                Next::Lower(_) => Successor::Lower {
                    values: push_lanes(&|next| match next {
                        Next::Lower(after) => (after, 0),
                        _ => unreachable!("every lane has the same free boxes"),
                    }),
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
        let l = self.lanes;
        match successor {
            Successor::Lower { values } => {
                (f64::from(points + extra), &self.arena[values..values + l])
            }
            Successor::Yahtzee { zero, fifty } => {
                let at = if points == 50 { fifty } else { zero };
                (f64::from(points + extra), &self.arena[at..at + l])
            }
            Successor::Upper { face, values } => {
                let n = (points / u32::from(face)) as usize;
                let at = values + n * l;
                (f64::from(extra), &self.arena[at..at + l])
            }
        }
    }

    /// Value (lane `lane`) of scoring `roll` in each legal box, in box order.
    pub fn box_values(&self, roll: &Dice, lane: usize) -> Vec<(usize, f64)> {
        let mut out = Vec::with_capacity(self.boxes.len());
        self.for_each_box_value(roll, lane, |b, v| out.push((b, v)));
        out
    }

    /// Calls `each(box, value)` for every legal box of `roll` (lane `lane`), in box order.
    pub fn for_each_box_value(&self, roll: &Dice, lane: usize, mut each: impl FnMut(usize, f64)) {
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
    pub fn fill_last_roll<S: SlotAccess>(&self, store: &mut S) {
        let mut floor = vec![f64::NEG_INFINITY; self.lanes];
        for &(_, successor) in &self.boxes {
            let (add, values) = self.scored(successor, 0, 0);
            raise_by(&mut floor, add, values);
        }
        let scoring = scoring_boxes(self.rules);
        for (r, scoring) in scoring.iter().enumerate() {
            let out = store.slot_mut(FIRST_ROLL + r);
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
                    let roll = Dice::roll(r);
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

/// `out[i] = max(out[i], add + values[i])`.
#[inline(always)]
fn raise_by(out: &mut [f64], add: f64, values: &[f64]) {
    for (o, &v) in out.iter_mut().zip(values) {
        let x = add + v;
        *o = if x > *o { x } else { *o };
    }
}

/// For every roll that is not five of a kind, the boxes where it scores points, with the
/// points (no joker applies); `None` for five of a kind.
pub(crate) fn scoring_boxes(rules: RuleSet) -> &'static [Option<Vec<(u8, u8)>>] {
    type ScoringBoxes = Vec<Option<Vec<(u8, u8)>>>;
    static TABLES: [OnceLock<ScoringBoxes>; 6] = [const { OnceLock::new() }; 6];
    let slot = RuleSet::ALL.iter().position(|&r| r == rules).unwrap_or(0);
    TABLES[slot].get_or_init(|| {
        (0..ROLLS)
            .map(|r| {
                let roll = Dice::roll(r);
                roll.five_of_a_kind().is_none().then(|| {
                    rules
                        .boxes()
                        .iter()
                        .enumerate()
                        .map(|(b, cat)| (b as u8, cat.base_score(rules.family(), &roll) as u8))
                        .filter(|&(_, points)| points > 0)
                        .collect()
                })
            })
            .collect()
    })
}

/// Lanes are padded to a multiple of this (repeating the last state) so the lane loops have
/// no scalar remainder.
const LANE_MULTIPLE: usize = 4;

/// How states are grouped into widget runs when building a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grouping {
    /// One run per (lower index, upper mask), one lane per upper pair: the fast way.
    Lanes,
    /// One run per state: the plain way, kept as the benchmarks' baseline.
    OneStatePerRun,
}

/// Builds the whole expected-score table of a rule set: `table[space.index(lower, pair)]`.
/// Layers of equal filled count are solved in parallel; the result does not depend on the
/// number of threads. `progress` is called with the number of runs finished so far and the total.
pub fn build_table(rules: RuleSet, progress: &(dyn Fn(u64, u64) + Sync)) -> Vec<f64> {
    build_table_with(rules, Grouping::Lanes, progress)
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
    fn of_mask(mask: usize, grouping: Grouping) -> Vec<Run> {
        let up = upper_pairs();
        let (first, end) = (up.offset[mask], up.offset[mask + 1]);
        let pairs: Vec<u16> = (first..end).map(|p| p as u16).collect();
        match grouping {
            Grouping::Lanes => {
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
    let space = StateSpace::new(rules);
    let runs_of_mask: Vec<Vec<Run>> = (0..64).map(|mask| Run::of_mask(mask, grouping)).collect();
    let mut table = vec![0.0f64; space.len()];
    // Runs by number of filled boxes.
    let mut layers: Vec<Vec<(usize, &Run)>> = vec![Vec::new(); rules.box_count() + 1];
    for lower in 0..space.lower_count() {
        let lower_filled = space.lower_boxes(lower).0.count_ones() as usize;
        for (mask, runs) in runs_of_mask.iter().enumerate() {
            for run in runs {
                layers[lower_filled + mask.count_ones() as usize].push((lower, run));
            }
        }
    }
    let total: u64 = layers.iter().map(|l| l.len() as u64).sum();
    let mut done = layers[rules.box_count()].len() as u64;
    for layer in layers[..rules.box_count()].iter().rev() {
        let solved: Vec<Vec<f64>> = layer
            .par_iter()
            .map_init(
                || LaneStore::<f64>::new(0),
                |store, &(lower, run)| solve_group_fast(space, &table, lower, &run.lanes, store),
            )
            .collect();
        for (&(lower, run), values) in layer.iter().zip(solved) {
            let start = space.index(lower, run.first);
            table[start..start + run.count].copy_from_slice(&values[..run.count]);
        }
        done += layer.len() as u64;
        progress(done, total);
    }
    table
}

/// [`solve_group`] compiled for the widest vector instructions this CPU has (same results:
/// the code performs the same operations in the same order, only more lanes at a time).
fn solve_group_fast(
    space: StateSpace,
    table: &[f64],
    lower: usize,
    pairs: &[u16],
    store: &mut LaneStore<f64>,
) -> Vec<f64> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2, checked just above.
        return unsafe { solve_group_avx2(space, table, lower, pairs, store) };
    }
    solve_group(space, table, lower, pairs, store)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn solve_group_avx2(
    space: StateSpace,
    table: &[f64],
    lower: usize,
    pairs: &[u16],
    store: &mut LaneStore<f64>,
) -> Vec<f64> {
    solve_group(space, table, lower, pairs, store)
}

/// Values of the states `(lower, pair)` for `pair` in `pairs` (all of one upper mask).
#[inline(always)]
pub fn solve_group(
    space: StateSpace,
    table: &[f64],
    lower: usize,
    pairs: &[u16],
    store: &mut LaneStore<f64>,
) -> Vec<f64> {
    store.resize(pairs.len());
    Moves::new(space, table, lower, pairs).fill_last_roll(store);
    solve_turn(store);
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
pub struct DecisionValues {
    /// Value of the best option.
    pub best: f64,
    /// The best option (the first listed among equals).
    pub best_choice: Choice,
    /// Value of the worst option.
    pub worst: f64,
    /// Value of the option taken.
    pub chosen: Option<f64>,
}

/// The values of every option of one turn of one sheet: the widget is run once, and every
/// decision of the turn (any roll, any rolls left) is then read from it.
pub struct TurnOracle {
    sheet: Sheet,
    moves: Moves,
    /// Values of the keeps of fewer than five dice with one roll left (after the second roll).
    keep_one_left: Vec<f64>,
    /// Values of the keeps of fewer than five dice with two rolls left (after the first roll).
    keep_two_left: Vec<f64>,
}

impl TurnOracle {
    /// Runs the widget for `sheet`'s next turn; `None` if the sheet is impossible.
    pub fn new(table: &[f64], sheet: &Sheet) -> Option<TurnOracle> {
        let space = StateSpace::new(sheet.rules);
        let pair = upper_pairs().pair(sheet.upper_mask(), sheet.capped_upper())?;
        let lower = space.lower_index(sheet.filled, sheet.yahtzee_50);
        let moves = Moves::new(space, table, lower, &[pair as u16]);
        let mut store = SingleStore::default();
        moves.fill_last_roll(&mut store);
        keeps_from_rolls(&mut store);
        let keep_one_left = store.values()[..FIRST_ROLL].to_vec();
        rolls_from_keeps(&mut store);
        keeps_from_rolls(&mut store);
        let keep_two_left = store.values()[..FIRST_ROLL].to_vec();
        Some(TurnOracle {
            sheet: *sheet,
            moves,
            keep_one_left,
            keep_two_left,
        })
    }

    /// Expected final score of keeping `keep` and rolling the other dice, with `rolls_left`
    /// rolls left before that reroll (1 or 2); the sheet's points included.
    pub fn keep_value(&self, keep: &Dice, rolls_left: u8) -> Option<f64> {
        let values = match rolls_left {
            1 => &self.keep_one_left,
            2 => &self.keep_two_left,
            _ => return None,
        };
        Some(f64::from(self.sheet.points) + values.get(keep.keep_index()?)?)
    }

    /// The best option, the worst option's value and the value of `choice` (if legal) after
    /// rolling `roll` with `rolls_left` rolls left, without listing the options: what rating a
    /// decision needs. Ties go to the option [`TurnOracle::options`] lists first.
    pub fn decision(&self, roll: &Dice, rolls_left: u8, choice: Choice) -> Option<DecisionValues> {
        let points = f64::from(self.sheet.points);
        let mut d = DecisionValues {
            best: f64::NEG_INFINITY,
            best_choice: choice,
            worst: f64::INFINITY,
            chosen: None,
        };
        let mut consider = |c: Choice, v: f64| {
            if v > d.best {
                d.best = v;
                d.best_choice = c;
            }
            d.worst = d.worst.min(v);
            if c == choice {
                d.chosen = Some(v);
            }
        };
        let keep_values = match rolls_left {
            0 => None,
            1 => Some(&self.keep_one_left),
            _ => Some(&self.keep_two_left),
        };
        if let Some(values) = keep_values {
            for &k in &crate::dice::tables().proper_sub_keeps[roll.roll_index()?] {
                let k = usize::from(k);
                consider(Choice::Keep(Dice::keep(k)), points + values[k]);
            }
        }
        let rules = self.sheet.rules;
        self.moves.for_each_box_value(roll, 0, |b, v| {
            consider(Choice::Score(rules.boxes()[b]), points + v)
        });
        d.best.is_finite().then_some(d)
    }

    /// Every legal option after rolling `roll` with `rolls_left` rolls left (0..=2), best
    /// first; ties keep keeps before boxes and each in index order. Values are expected final
    /// scores, the sheet's points included.
    pub fn options(&self, roll: &Dice, rolls_left: u8) -> Vec<OptionValue> {
        let points = f64::from(self.sheet.points);
        let mut options: Vec<OptionValue> = Vec::new();
        let keep_values = match rolls_left {
            0 => None,
            1 => Some(&self.keep_one_left),
            _ => Some(&self.keep_two_left),
        };
        if let (Some(values), Some(r)) = (keep_values, roll.roll_index()) {
            for &k in &crate::dice::tables().proper_sub_keeps[r] {
                let k = usize::from(k);
                options.push(OptionValue {
                    choice: Choice::Keep(Dice::keep(k)),
                    value: points + values[k],
                });
            }
        }
        let rules = self.sheet.rules;
        for (b, v) in self.moves.box_values(roll, 0) {
            options.push(OptionValue {
                choice: Choice::Score(rules.boxes()[b]),
                value: points + v,
            });
        }
        // Stable sort: equal values keep their listing order.
        options.sort_by(|a, b| b.value.total_cmp(&a.value));
        options
    }
}

/// Every legal option of a position (a sheet, a roll and the rolls left), best first; see
/// [`TurnOracle::options`]. `table` is the rule set's expected-score table.
pub fn position_options(
    table: &[f64],
    sheet: &Sheet,
    roll: &Dice,
    rolls_left: u8,
) -> Vec<OptionValue> {
    TurnOracle::new(table, sheet)
        .map(|t| t.options(roll, rolls_left))
        .unwrap_or_default()
}

/// Expected final score of a sheet before its next turn (points so far included).
pub fn sheet_value(table: &[f64], sheet: &Sheet) -> Option<f64> {
    if sheet.is_complete() {
        return Some(f64::from(sheet.points));
    }
    let index = StateSpace::new(sheet.rules).index_of(sheet)?;
    Some(f64::from(sheet.points) + table[index])
}

//! The exact endgame of a whole Jamb slip: the optimal expected final total of a slip with few
//! empty boxes (at most [`Endgame::MAX_EMPTY`] by default), by expectimax over every turn left
//! with each turn solved exactly by [`SlipTurn`], memoised on the tuple of the columns' reduced
//! states ([`ColumnKey`]).

use super::key::{key_of, pending_credit, step, ColumnKey, MiddleRule, FULL};
use super::turn::{tile_lanes, values_before, SlipTurn, TurnShape, ValuedTurn};
use super::{turn_column, turn_columns, turn_rolls, BoxPoints};
use crate::dice::Dice;
use crate::rules::jamb::{Cell, JambBox, JambRules, JambSheet, JambTurn, MAX_COLUMNS};
use crate::rules::Choice;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The reduced states of a slip's columns (unused columns full).
pub(crate) type SlipKeys = [ColumnKey; MAX_COLUMNS];

/// The keys of a slip's columns, the middle section counted by `middle`; `None` for values no
/// dice can give.
pub(crate) fn slip_keys(sheet: &JambSheet, middle: MiddleRule) -> Option<SlipKeys> {
    let full = ColumnKey {
        mask: FULL,
        upper: 0,
        mid: 0,
    };
    let mut keys = [full; MAX_COLUMNS];
    for (k, c) in keys.iter_mut().zip(sheet.columns()) {
        *k = key_of(c, middle)?;
    }
    Some(keys)
}

/// Points credited to a slip so far, the middle section counted by `middle`: its total plus
/// the pending middle credits.
pub(crate) fn credited(sheet: &JambSheet, middle: MiddleRule) -> i32 {
    let pending: i32 = sheet
        .columns()
        .iter()
        .map(|c| pending_credit(c, middle))
        .sum();
    sheet.total() + pending
}

/// The exact endgame solver, with its memo of solved states.
#[derive(Clone)]
pub struct Endgame {
    rules: JambRules,
    points: Arc<BoxPoints>,
    max_empty: usize,
    memo: HashMap<SlipKeys, f64, BuildFold>,
    /// Column states reachable from each column's state met, and whether counted whole (see
    /// [`Endgame::reachable`]).
    reach: HashMap<(usize, ColumnKey), (u64, bool), BuildFold>,
    /// The turn of each slip met, by its columns' filled masks (slips that fill the same
    /// boxes have the same turn).
    shapes: HashMap<SlipMasks, Arc<TurnShape>, BuildFold>,
}

/// The filled masks of a slip's columns (unused columns full).
type SlipMasks = [u16; MAX_COLUMNS];

/// A write's credit and the slip after it.
type Step = (i32, SlipKeys);

/// A slip to solve, with its turn.
type Unsolved = (SlipKeys, Arc<TurnShape>);

/// The memo's hasher: the keys are a few bytes of our own, no input from outside.
type BuildFold = foldhash::fast::FixedState;

/// Empty boxes of the columns `keys`.
fn empty_boxes(keys: &[ColumnKey]) -> usize {
    keys.iter()
        .map(|k| (!k.mask & FULL).count_ones() as usize)
        .sum()
}

/// The slips of `level` in the order they are solved in: slips that fill the same boxes
/// share their turn's shape, and a tile of `lanes` turns of one shape takes its best writes
/// in vectors; so the whole tiles of each shape come first, then what is left of each shape.
fn by_shape(mut level: Vec<Unsolved>, lanes: usize) -> Vec<Unsolved> {
    level.sort_by_key(|(keys, _)| keys.map(|k| k.mask));
    let mut ordered = Vec::with_capacity(level.len());
    let mut rest = Vec::new();
    for run in level.chunk_by(|a, b| Arc::ptr_eq(&a.1, &b.1)) {
        let whole = run.len() - run.len() % lanes.max(1);
        ordered.extend_from_slice(&run[..whole]);
        rest.extend_from_slice(&run[whole..]);
    }
    ordered.append(&mut rest);
    ordered
}

impl Endgame {
    /// Default limit of empty boxes (solving from 3 takes about 0.14 ms, from 6 about 0.7 ms).
    pub const MAX_EMPTY: usize = 3;

    /// The solver for slips of `rules` with at most [`Endgame::MAX_EMPTY`] empty boxes.
    pub fn new(rules: JambRules) -> Endgame {
        Endgame::with_limit(rules, Endgame::MAX_EMPTY)
    }

    /// The solver for slips of `rules` with at most `max_empty` empty boxes (the work about
    /// doubles per box: most writes lead to the same reduced state).
    pub fn with_limit(rules: JambRules, max_empty: usize) -> Endgame {
        Endgame::sharing(rules, Arc::new(BoxPoints::new(&rules)), max_empty)
    }

    /// [`Endgame::with_limit`] with the score table `points` of `rules`, shared with its other
    /// users (what it builds on first use is built once).
    pub(crate) fn sharing(rules: JambRules, points: Arc<BoxPoints>, max_empty: usize) -> Endgame {
        Endgame {
            rules,
            points,
            max_empty,
            memo: HashMap::default(),
            reach: HashMap::default(),
            shapes: HashMap::default(),
        }
    }

    /// The rules.
    pub fn rules(&self) -> &JambRules {
        &self.rules
    }

    /// Number of states in the memo.
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// Forgets the memo.
    pub fn clear(&mut self) {
        self.memo.clear();
    }

    /// The optimal expected credits still to come from `keys`.
    pub fn future(&mut self, keys: &SlipKeys) -> f64 {
        if self.is_full(keys) {
            return 0.0;
        }
        if let Some(&v) = self.memo.get(keys) {
            return v;
        }
        self.solve(std::slice::from_ref(keys));
        self.known_future(keys)
    }

    /// True when the slip `keys` is solved or its whole future has at most `budget` slips
    /// ([`Endgame::reachable`]): whether a turn from it may be solved exactly at that cost.
    pub(crate) fn within(&mut self, keys: &SlipKeys, budget: u64) -> bool {
        self.memo.contains_key(keys) || self.reachable(keys, budget) <= budget
    }

    /// The slips reachable from `keys` (itself and the full slip included), counted up to a
    /// little over `cap`: the product over the columns of the states each can reach, since the
    /// columns fill independently of each other. A pure function of `keys`; a solved slip's
    /// future lies within the future of the slip that was solved from.
    pub fn reachable(&mut self, keys: &SlipKeys, cap: u64) -> u64 {
        (0..self.rules.columns.len()).fold(1u64, |n, c| {
            n.saturating_mul(self.column_reach(c, keys[c], cap))
        })
    }

    /// The states column `c` can reach from `key` (itself included), counted whole or until
    /// the count passes `cap`.
    fn column_reach(&mut self, c: usize, key: ColumnKey, cap: u64) -> u64 {
        // A count stored whole, or one already over this cap, answers.
        if let Some(&(n, whole)) = self.reach.get(&(c, key)) {
            if whole || n > cap {
                return n;
            }
        }
        let kind = self.rules.columns[c];
        let middle = self.points.middle();
        let mut seen: HashSet<ColumnKey, BuildFold> = HashSet::default();
        seen.insert(key);
        let mut stack = vec![key];
        while seen.len() as u64 <= cap {
            let Some(k) = stack.pop() else {
                break;
            };
            let writable = turn_column(&self.rules, kind, k.mask).writable();
            for jbox in JambBox::ALL.into_iter().filter(|b| writable & b.bit() != 0) {
                for &p in self.points.values(jbox) {
                    if let Some((_, next)) = step(k, jbox, p, middle) {
                        if seen.insert(next) {
                            stack.push(next);
                        }
                    }
                }
            }
        }
        let whole = stack.is_empty();
        let n = seen.len() as u64;
        self.reach.insert((c, key), (n, whole));
        n
    }

    /// True when every column of `keys` is full.
    fn is_full(&self, keys: &SlipKeys) -> bool {
        keys[..self.rules.columns.len()]
            .iter()
            .all(ColumnKey::is_full)
    }

    /// The future of `keys` once solved: 0 for a full slip, else the memo's.
    fn known_future(&self, keys: &SlipKeys) -> f64 {
        if self.is_full(keys) {
            return 0.0;
        }
        debug_assert!(
            self.memo.contains_key(keys),
            "an endgame slip left unsolved"
        );
        self.memo.get(keys).copied().unwrap_or(f64::NEG_INFINITY)
    }

    /// The turn of the slip `keys` (built once per set of filled boxes).
    fn shape_of(&mut self, keys: &SlipKeys) -> Arc<TurnShape> {
        let columns = self.rules.columns.len();
        let mut masks: SlipMasks = [FULL; MAX_COLUMNS];
        for (m, k) in masks.iter_mut().zip(&keys[..columns]) {
            *m = k.mask;
        }
        if let Some(shape) = self.shapes.get(&masks) {
            return Arc::clone(shape);
        }
        let turns_left = masks[..columns]
            .iter()
            .map(|m| (!m & FULL).count_ones() as usize)
            .sum();
        let columns = turn_columns(&self.rules, &masks[..columns]);
        let rolls = turn_rolls(&self.rules, turns_left);
        let shape = Arc::new(TurnShape::new(&self.points, &columns, rolls));
        self.shapes.insert(masks, Arc::clone(&shape));
        shape
    }

    /// Calls `each` with every write of `shape` from `keys`, in the turn's order: the points
    /// it credits and the slip after it (`None` for a score no dice can give).
    fn for_each_step(
        points: &BoxPoints,
        keys: &SlipKeys,
        shape: &TurnShape,
        mut each: impl FnMut(Option<Step>),
    ) {
        shape.for_each_write(points, |cell, p| {
            let c = usize::from(cell.column);
            each(
                step(keys[c], cell.jbox, p, points.middle()).map(|(credit, next)| {
                    let mut after = *keys;
                    after[c] = next;
                    (credit, after)
                }),
            );
        });
    }

    /// The write values of the turn `shape` from `keys`, offset by `base`: each write's
    /// credit plus the (solved) future of the slip after it (looked up once for a row of
    /// writes to the same slip).
    fn write_values(&self, keys: &SlipKeys, shape: &TurnShape, base: f64) -> Vec<f64> {
        let mut out = Vec::with_capacity(shape.values_len());
        let mut last: Option<(SlipKeys, f64)> = None;
        Endgame::for_each_step(&self.points, keys, shape, |next| {
            out.push(match next {
                Some((credit, after)) => {
                    let future = match last {
                        Some((keys, f)) if keys == after => f,
                        _ => {
                            let f = self.known_future(&after);
                            last = Some((after, f));
                            f
                        }
                    };
                    base + f64::from(credit) + future
                }
                None => f64::NEG_INFINITY,
            })
        });
        out
    }

    /// Puts `keys` on `stack` the first time it is `seen`, unless it is full or solved.
    fn visit(
        &self,
        keys: &SlipKeys,
        seen: &mut HashSet<SlipKeys, BuildFold>,
        stack: &mut Vec<SlipKeys>,
    ) {
        if !self.is_full(keys) && !self.memo.contains_key(keys) && seen.insert(*keys) {
            stack.push(*keys);
        }
    }

    /// Solves every slip reachable from `roots` that the memo lacks, a level of empty boxes at a
    /// time from the fewest: the slips of one level are solved together
    /// ([`values_before`], several slips in the lanes of one widget run).
    pub(crate) fn solve(&mut self, roots: &[SlipKeys]) {
        let points = Arc::clone(&self.points);
        let mut seen: HashSet<SlipKeys, BuildFold> = HashSet::default();
        let mut stack: Vec<SlipKeys> = Vec::new();
        for keys in roots {
            self.visit(keys, &mut seen, &mut stack);
        }
        // The slips to solve by number of empty boxes, each with its turn.
        let mut levels: Vec<Vec<Unsolved>> = Vec::new();
        while let Some(keys) = stack.pop() {
            let shape = self.shape_of(&keys);
            // Writes of one box often lead to the same slip: look each up once in a row.
            let mut last = None;
            Endgame::for_each_step(&points, &keys, &shape, |next| {
                if let Some((_, after)) = next {
                    if last != Some(after) {
                        self.visit(&after, &mut seen, &mut stack);
                        last = Some(after);
                    }
                }
            });
            let empty = empty_boxes(&keys[..self.rules.columns.len()]);
            if levels.len() <= empty {
                levels.resize_with(empty + 1, Vec::new);
            }
            levels[empty].push((keys, shape));
        }
        let lanes = tile_lanes();
        for level in levels {
            let level = by_shape(level, lanes);
            let turns: Vec<ValuedTurn> = level
                .iter()
                .map(|(keys, shape)| (&**shape, self.write_values(keys, shape, 0.0)))
                .collect();
            let before = values_before(&points, &turns);
            drop(turns);
            for ((keys, _), v) in level.into_iter().zip(before) {
                self.memo.insert(keys, v);
            }
        }
    }

    /// The exact turn from `keys`, its values offset by `base` (the points credited so far).
    pub(crate) fn turn_of_keys(&mut self, keys: &SlipKeys, base: f64) -> SlipTurn {
        let shape = Arc::unwrap_or_clone(self.shape_of(keys));
        let mut after: Vec<SlipKeys> = Vec::new();
        Endgame::for_each_step(&self.points, keys, &shape, |next| {
            if let Some((_, slip)) = next {
                if after.last() != Some(&slip) {
                    after.push(slip);
                }
            }
        });
        self.solve(&after);
        let values = self.write_values(keys, &shape, base);
        SlipTurn::solved(&self.points, shape, values)
    }

    /// True when the solver takes `sheet` (few enough empty boxes, values dice can give).
    pub(crate) fn accepts(&self, sheet: &JambSheet) -> bool {
        *sheet.rules() == self.rules
            && sheet.turns_left() <= self.max_empty
            && slip_keys(sheet, self.points.middle()).is_some()
    }

    /// The optimal expected final total of `sheet` before its next turn; `None` when the
    /// solver does not take it (`Endgame::accepts`).
    pub fn value(&mut self, sheet: &JambSheet) -> Option<f64> {
        if !self.accepts(sheet) {
            return None;
        }
        let middle = self.points.middle();
        let keys = slip_keys(sheet, middle)?;
        Some(f64::from(credited(sheet, middle)) + self.future(&keys))
    }

    /// The exact turn of `sheet`, values in expected final totals; `None` when the solver does
    /// not take it or the slip is complete.
    pub fn turn(&mut self, sheet: &JambSheet) -> Option<SlipTurn> {
        if !self.accepts(sheet) || sheet.is_complete() {
            return None;
        }
        let middle = self.points.middle();
        let keys = slip_keys(sheet, middle)?;
        Some(self.turn_of_keys(&keys, f64::from(credited(sheet, middle))))
    }

    /// Every legal option after rolling `dice` as roll number `n` of `sheet`'s turn (without an
    /// announcement; roll 1 pure, later rolls reached by keeping some dice), with its exact
    /// value (expected final total), in `SlipTurn::for_each_option_at` order.
    pub fn options(&mut self, sheet: &JambSheet, dice: &Dice, n: u8) -> Vec<(Choice, f64)> {
        self.options_at(sheet, dice, JambTurn::at_roll(n))
    }

    /// Every legal option after rolling `dice` at `moment` of `sheet`'s turn, with its exact
    /// value (expected final total), in `SlipTurn::for_each_option_at` order.
    pub fn options_at(
        &mut self,
        sheet: &JambSheet,
        dice: &Dice,
        moment: JambTurn,
    ) -> Vec<(Choice, f64)> {
        match self.turn(sheet) {
            Some(turn) => turn.options_at(&self.points, moment, dice),
            None => Vec::new(),
        }
    }

    /// Every box that may be announced after a first roll of `dice` on `sheet`, with the exact
    /// value of announcing it (none without an Announce column).
    pub fn announcements(&mut self, sheet: &JambSheet, dice: &Dice) -> Vec<(Cell, f64)> {
        let mut out = Vec::new();
        if let Some(turn) = self.turn(sheet) {
            turn.for_each_announcement(dice, |cell, v| out.push((cell, v)));
        }
        out
    }

    /// The score table the solver uses.
    pub fn points(&self) -> &BoxPoints {
        &self.points
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::jamb::key::{key_of_lane, keys_of_mask};

    /// Keys of a jamb-6a slip with only `empty[c]` boxes empty in column `c`, each column at
    /// lane `lane` of its keys (modulo their number).
    fn slip(rules: &JambRules, empty: &[&[JambBox]], lane: usize) -> SlipKeys {
        let mut keys = [ColumnKey {
            mask: FULL,
            upper: 0,
            mid: 0,
        }; MAX_COLUMNS];
        for (c, boxes) in empty.iter().enumerate().take(rules.columns.len()) {
            let mask = boxes.iter().fold(FULL, |m, b| m & !b.bit());
            let lanes = keys_of_mask(mask, rules.middle);
            keys[c] = key_of_lane(mask, (lane * 7 + c) % lanes, rules.middle);
        }
        keys
    }

    /// The count of reachable slips is exact: solving a slip stores each reachable slip but
    /// the full one once, in Down, Up, Free and Announce columns, upper boxes, Max, Min and
    /// Ones among them; it is the same whatever was solved before, and counts stop a little
    /// past a cap.
    #[test]
    fn the_reachable_count_is_the_number_of_slips_the_solve_stores() {
        use JambBox::*;
        let rules = JambRules::JAMB_6A;
        let cases: [&[&[JambBox]]; 3] = [
            &[&[Jamb], &[Ones, Max], &[Sixes], &[Min, FourKind]],
            &[&[], &[Twos, Threes], &[Fours], &[Ones, Max, Min]],
            &[&[FullHouse, Jamb], &[], &[Ones], &[Fives, Sixes]],
        ];
        for (i, empty) in cases.iter().enumerate() {
            for lane in 0..3 {
                let keys = slip(&rules, empty, lane);
                let mut endgame = Endgame::with_limit(rules, 6);
                let counted = endgame.reachable(&keys, u64::MAX);
                endgame.future(&keys);
                assert_eq!(
                    counted,
                    endgame.memo_len() as u64 + 1,
                    "case {i} lane {lane}"
                );
                assert_eq!(endgame.reachable(&keys, u64::MAX), counted);
                let mut fresh = Endgame::with_limit(rules, 6);
                assert!(fresh.reachable(&keys, 10) > 10 || counted <= 10);
                assert_eq!(
                    fresh.reachable(&keys, u64::MAX),
                    counted,
                    "after a capped count"
                );
                assert!(
                    endgame.within(&keys, 1),
                    "a solved slip is within any budget"
                );
                assert!(fresh.within(&keys, counted));
                assert!(!fresh.within(&keys, counted - 1));
            }
        }
    }
}

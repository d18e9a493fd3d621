//! The exact turn of a whole Jamb slip over its three rolls, on top of any value of the slip
//! after the turn: given what writing each cell with each score is worth, [`SlipTurn`] runs the
//! turn widget once and then values every option of every decision of the turn.
//!
//! Writing is worth more on earlier rolls for the straight, and the Hand column takes only the
//! first roll's dice, so the value of writing a roll depends on the roll number: after each
//! pass of the widget the roll slots are raised to the value of writing on that roll number
//! (keeping all five dice and rolling none is also a legal option, worth the same dice one roll
//! later).

use super::BoxPoints;
use crate::dice::{Dice, EMPTY_KEEP};
use crate::rules::jamb::{Cell, ColumnKind, JambBox, MAX_ROLLS};
use crate::rules::Choice;
use crate::solve::widget::{
    expectation_before_first_roll, keeps_from_rolls, rolls_from_keeps, SingleStore, SlotAccess,
};

/// One cell that may be written during the turn.
#[derive(Clone, Copy, Debug)]
struct TurnCell {
    cell: Cell,
    /// Bit `n - 1` set when the cell takes dice of roll number `n`.
    rolls: u8,
    /// Offset of the cell's values (one per point class of its box) in `write_values`.
    offset: usize,
}

/// The values of every option of one turn of one slip (see the module documentation). Values
/// are whatever the write values were (expected final totals for the oracle and the endgame).
#[derive(Clone, Debug)]
pub struct SlipTurn {
    /// The dice of the rules (from [`BoxPoints::dice`]).
    dice: &'static crate::dice::DiceSpace,
    cells: Vec<TurnCell>,
    write_values: Vec<f64>,
    /// Whether a player may keep dice and roll again after roll 1 and after roll 2.
    may_reroll: [bool; 2],
    /// Values of the keeps smaller than a roll after roll 1 (two rolls left) and after
    /// roll 2 (one roll left): the keep's expected value for the next roll.
    keep_values: [Vec<f64>; 2],
    /// The value of each roll on roll numbers 1, 2 and 3 (best option).
    roll_values: [Vec<f64>; 3],
    /// The value before the first roll.
    before: f64,
}

impl SlipTurn {
    /// The turn of a slip whose columns are `columns` (kind, filled mask), with `value(cell,
    /// points)` the value of writing `points` in `cell` (called once per cell and score).
    pub fn new(
        points: &BoxPoints,
        columns: &[(ColumnKind, u16)],
        mut value: impl FnMut(Cell, i32) -> f64,
    ) -> SlipTurn {
        let mut cells = Vec::new();
        let mut write_values = Vec::new();
        for (c, &(kind, mask)) in columns.iter().enumerate() {
            let allowed: [u16; 3] = std::array::from_fn(|n| kind.allowed_boxes(mask, n as u8 + 1));
            for jbox in JambBox::ALL {
                let rolls = (0..3).fold(0u8, |acc, n| {
                    acc | u8::from(allowed[n] & jbox.bit() != 0) << n
                });
                if rolls == 0 {
                    continue;
                }
                let cell = Cell {
                    column: c as u8,
                    jbox,
                };
                cells.push(TurnCell {
                    cell,
                    rolls,
                    offset: write_values.len(),
                });
                write_values.extend(points.values(jbox).iter().map(|&p| value(cell, p)));
            }
        }
        let any_on = |n: u8| cells.iter().any(|c| c.rolls & (1 << (n - 1)) != 0);
        let may_reroll = [any_on(2), any_on(3)];
        let mut turn = SlipTurn {
            dice: points.dice(),
            cells,
            write_values,
            may_reroll,
            keep_values: [Vec::new(), Vec::new()],
            roll_values: [Vec::new(), Vec::new(), Vec::new()],
            before: f64::NEG_INFINITY,
        };
        turn.solve(points);
        turn
    }

    /// The value of writing roll `r` on roll number `n` in its best cell (minus infinity when
    /// no cell takes it).
    fn write_value(&self, points: &BoxPoints, n: u8, r: usize) -> f64 {
        let bit = 1 << (n - 1);
        self.cells
            .iter()
            .filter(|c| c.rolls & bit != 0)
            .map(|c| self.write_values[c.offset + points.class(c.cell.jbox, n, r)])
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// Runs the widget backwards from the third roll to the value before the first.
    fn solve(&mut self, points: &BoxPoints) {
        let dice = points.dice();
        let first_roll = dice.first_roll();
        let mut store = SingleStore::new(dice);
        let writes: [Vec<f64>; 3] = std::array::from_fn(|n| {
            (0..dice.roll_count())
                .map(|r| self.write_value(points, n as u8 + 1, r))
                .collect()
        });
        for (r, &w) in writes[2].iter().enumerate() {
            store.slot_mut(first_roll + r)[0] = w;
        }
        self.roll_values[2] = writes[2].clone();
        // Roll numbers 2 then 1: keep values from the next roll's values, then each roll's
        // value is the best of writing now and its best keep (keeping all five included).
        for n in [2usize, 1] {
            if self.may_reroll[n - 1] {
                keeps_from_rolls(&mut store);
                self.keep_values[n - 1] = store.values()[..first_roll].to_vec();
                for (r, &w) in writes[n - 1].iter().enumerate() {
                    let slot = &mut store.slot_mut(first_roll + r)[0];
                    *slot = slot.max(w);
                }
                rolls_from_keeps(&mut store);
            } else {
                for (r, &w) in writes[n - 1].iter().enumerate() {
                    store.slot_mut(first_roll + r)[0] = w;
                }
            }
            self.roll_values[n - 1] = store.values()[first_roll..].to_vec();
        }
        expectation_before_first_roll(&mut store);
        self.before = store.get(EMPTY_KEEP);
    }

    /// The value before the first roll of the turn.
    pub fn before_first_roll(&self) -> f64 {
        self.before
    }

    /// True when a player may keep dice and roll again after roll `n`.
    pub(crate) fn may_reroll(&self, n: u8) -> bool {
        (1..MAX_ROLLS).contains(&n) && self.may_reroll[usize::from(n - 1)]
    }

    /// The value of keeping `kept` after roll `n` (1 or 2) and rolling the other dice: the
    /// expected value of roll `n + 1`; `None` when no reroll is allowed or `kept` is not a keep.
    pub(crate) fn keep_value(&self, n: u8, kept: &Dice) -> Option<f64> {
        if !self.may_reroll(n) {
            return None;
        }
        let k = self.dice.keep_index(kept)?;
        match k.checked_sub(self.dice.first_roll()) {
            None => self.keep_values[usize::from(n - 1)].get(k).copied(),
            Some(r) => self.roll_values[usize::from(n)].get(r).copied(),
        }
    }

    /// The value of a roll of `dice` as roll number `n` (1..=3): its best option.
    #[cfg(test)]
    pub(crate) fn roll_value(&self, n: u8, dice: &Dice) -> Option<f64> {
        let r = self.dice.roll_index(dice)?;
        self.roll_values
            .get(usize::from(n).checked_sub(1)?)?
            .get(r)
            .copied()
    }

    /// Calls `each(choice, value)` for every legal option after rolling `dice` as roll number
    /// `n`: first each cell that takes the dice (column by column, top to bottom), then, while
    /// a reroll is allowed, every distinct keep of the dice (ascending keep index, keeping all
    /// five included).
    pub(crate) fn for_each_option(
        &self,
        points: &BoxPoints,
        n: u8,
        dice: &Dice,
        mut each: impl FnMut(Choice, f64),
    ) {
        let (Some(r), Some(bit)) = (
            self.dice.roll_index(dice),
            u32::from(n).checked_sub(1).and_then(|s| 1u8.checked_shl(s)),
        ) else {
            return;
        };
        for c in self.cells.iter().filter(|c| c.rolls & bit != 0) {
            let v = self.write_values[c.offset + points.class(c.cell.jbox, n, r)];
            each(Choice::Write(c.cell), v);
        }
        if self.may_reroll(n) {
            let keeps = &self.keep_values[usize::from(n - 1)];
            let next = &self.roll_values[usize::from(n)];
            for &k in &self.dice.proper_sub_keeps[r] {
                let k = usize::from(k);
                each(Choice::Keep(self.dice.keeps[k]), keeps[k]);
            }
            each(Choice::Keep(*dice), next[r]);
        }
    }

    /// Every legal option after rolling `dice` as roll number `n`, in the order of
    /// `SlipTurn::for_each_option`, with its value.
    pub fn options(&self, points: &BoxPoints, n: u8, dice: &Dice) -> Vec<(Choice, f64)> {
        let mut out = Vec::with_capacity(64);
        self.for_each_option(points, n, dice, |c, v| out.push((c, v)));
        out
    }

    /// The best option after rolling `dice` as roll number `n` (the first listed among equals)
    /// and its value.
    pub fn best(&self, points: &BoxPoints, n: u8, dice: &Dice) -> Option<(Choice, f64)> {
        let mut best: Option<(Choice, f64)> = None;
        self.for_each_option(points, n, dice, |c, v| {
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((c, v));
            }
        });
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::jamb::JambRules;
    use crate::solve::jamb::column::{ColumnSpace, ColumnTable};
    use crate::solve::jamb::key::{key_of_lane, keys_of_mask, step};

    /// The slip turn of a slip with a single open column, valued by that column's table, is
    /// the column table's own value: for a column that rerolls (Free) and for the Hand column
    /// (first roll only).
    #[test]
    fn a_one_column_slip_turn_is_the_column_tables_turn() {
        let rules = JambRules::JAMB_4;
        let points = BoxPoints::new(&rules);
        // Everything filled but Ones, Max, Straight and Jamb.
        let mask = crate::solve::jamb::key::FULL
            & !(JambBox::Ones.bit()
                | JambBox::Max.bit()
                | JambBox::Straight.bit()
                | JambBox::Jamb.bit());
        for kind in [ColumnKind::Free, ColumnKind::Hand] {
            let space = ColumnSpace::from_mask(kind, mask);
            let table = ColumnTable::build_space(&rules, space, &|_, _| {});
            for lane in (0..keys_of_mask(mask)).step_by(7) {
                let key = key_of_lane(mask, lane);
                let turn = SlipTurn::new(&points, &[(kind, mask)], |cell, p| {
                    let (credit, next) = step(key, cell.jbox, p).unwrap();
                    f64::from(credit) + table.value(next).unwrap_or(0.0)
                });
                let want = table.value(key).unwrap();
                let got = turn.before_first_roll();
                assert!(
                    (got - want).abs() < 1e-9,
                    "{kind:?} lane {lane}: {got} vs {want}"
                );
                assert_eq!(turn.may_reroll(1), kind != ColumnKind::Hand);
            }
        }
    }

    /// Keeping all five dice is worth the same dice on the next roll, and the best option of a
    /// roll is its roll value.
    #[test]
    fn keeping_everything_is_the_same_dice_one_roll_later() {
        let rules = JambRules::JAMB_5;
        let points = BoxPoints::new(&rules);
        let columns = [(ColumnKind::Free, 0u16), (ColumnKind::Down, 0u16)];
        let turn = SlipTurn::new(&points, &columns, |cell, p| {
            // Any values will do: points, and a bonus for the Free column's straight.
            let bonus = if cell.column == 0 && cell.jbox == JambBox::Straight {
                7.0
            } else {
                0.0
            };
            f64::from(p) + bonus
        });
        for r in (0..crate::dice::ROLLS).step_by(5) {
            let dice = Dice::roll(r);
            for n in 1..=2u8 {
                let all = turn.keep_value(n, &dice).unwrap();
                assert_eq!(Some(all), turn.roll_value(n + 1, &dice));
                let (_, best) = turn.best(&points, n, &dice).unwrap();
                assert_eq!(Some(best), turn.roll_value(n, &dice));
                assert!(best >= all);
            }
            assert_eq!(turn.keep_value(3, &dice), None, "no fourth roll");
        }
    }
}

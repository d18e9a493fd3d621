//! The oracle of one turn of a one-column game: every option of every decision of a sheet's
//! next turn, valued from the expected-score table (or, under the saved-rolls rule, the
//! bank-major saved-rolls table) with one run of the turn's widget.

use super::expected::{DecisionValues, Moves, OptionValue};
use super::saved_table::{turn_levels, Banks};
use super::states::StateSpace;
use super::widget::{keep_values_by_rolls_left, keeps_for_rolls_left, SingleStore};
use crate::dice::Dice;
use crate::rules::{Choice, Sheet};

/// The values of every option of one turn of one sheet: the widget is run once, and every
/// decision of the turn (any roll, any rolls left) is then read from it.
pub(crate) struct TurnOracle {
    sheet: Sheet,
    /// The successors of the sheet's state, by the bank a write leads to: under the saved-rolls
    /// rule, writing with `n` rolls left saves them (bank `min(n, cap)`); otherwise one entry.
    moves: Vec<Moves>,
    /// `keep_values[n - 1]`: the values of the keeps smaller than a roll with `n` rolls left
    /// (after the last roll but `n`), for `n` from 1 to the most rerolls the turn can have.
    keep_values: Vec<Vec<f64>>,
    /// Bytes the evaluation holds (its fields and what they hold on the heap).
    bytes: u64,
}

impl TurnOracle {
    /// Runs the widget for `sheet`'s next turn; `None` if the sheet is impossible. Under the
    /// saved-rolls rule `table` is the bank-major saved-rolls table, and the turn's levels
    /// serve any bank it starts with.
    pub fn new(table: &[f64], sheet: &Sheet) -> Option<TurnOracle> {
        if sheet.rules.saves_rolls() {
            let (moves, keep_values) = turn_levels(Banks::of(sheet.rules, table)?, sheet)?;
            return Some(TurnOracle::holding(*sheet, moves, keep_values));
        }
        let space = StateSpace::new(sheet.rules);
        let pair = space.pairs.pair(sheet.upper_mask(), sheet.capped_upper())?;
        let lower = space.lower_index(sheet.filled, sheet.yahtzee_50);
        let moves = Moves::new(space, table, lower, &[pair as u16]);
        let mut store = SingleStore::new(sheet.rules.dice_space());
        moves.fill_last_roll(&mut store);
        let keep_values = keep_values_by_rolls_left(&mut store, sheet.rules.rolls_per_turn());
        Some(TurnOracle::holding(*sheet, vec![moves], keep_values))
    }

    /// The evaluation of `sheet`'s turn from its successors and keep values, with its size.
    fn holding(sheet: Sheet, moves: Vec<Moves>, keep_values: Vec<Vec<f64>>) -> TurnOracle {
        let heap = moves.iter().map(Moves::heap_bytes).sum::<usize>()
            + moves.capacity() * std::mem::size_of::<Moves>()
            + keep_values
                .iter()
                .map(|v| v.capacity() * std::mem::size_of::<f64>())
                .sum::<usize>()
            + keep_values.capacity() * std::mem::size_of::<Vec<f64>>();
        TurnOracle {
            sheet,
            moves,
            keep_values,
            bytes: (heap + std::mem::size_of::<TurnOracle>()) as u64,
        }
    }

    /// Bytes the evaluation holds, its heap included (what the rating oracle's shared cache
    /// counts).
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The successors a write with `rolls_left` rolls left leads to.
    fn moves_with(&self, rolls_left: u8) -> &Moves {
        &self.moves[usize::from(rolls_left).min(self.moves.len() - 1)]
    }

    /// The values of the keeps with `rolls_left` rolls left (1 or more; more than the turn
    /// has reads the first reroll's).
    fn keeps_with(&self, rolls_left: u8) -> Option<&Vec<f64>> {
        keeps_for_rolls_left(&self.keep_values, rolls_left)
    }

    /// Expected final score of keeping `keep` and rolling the other dice, with `rolls_left`
    /// rolls left before that reroll (1 or 2); the sheet's points included.
    pub(crate) fn keep_value(&self, keep: &Dice, rolls_left: u8) -> Option<f64> {
        if usize::from(rolls_left) > self.keep_values.len() {
            return None;
        }
        let values = self.keeps_with(rolls_left)?;
        let dice = self.sheet.rules.dice_space();
        Some(f64::from(self.sheet.points) + values.get(dice.keep_index(keep)?)?)
    }

    /// The best option, the worst option's value and the value of `choice` (if legal) after
    /// rolling `roll` with `rolls_left` rolls left, without listing the options: what rating a
    /// decision needs. Ties go to the option [`TurnOracle::options`] lists first.
    pub fn decision(&self, roll: &Dice, rolls_left: u8, choice: Choice) -> Option<DecisionValues> {
        let points = f64::from(self.sheet.points);
        let rules = self.sheet.rules;
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
        if let Some(values) = self.keeps_with(rolls_left) {
            let dice = rules.dice_space();
            for &k in &dice.proper_sub_keeps[dice.roll_index(roll)?] {
                let k = usize::from(k);
                consider(Choice::Keep(dice.keeps[k]), points + values[k]);
            }
        }
        self.moves_with(rolls_left)
            .for_each_box_value(roll, 0, |b, v| {
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
        let dice = self.sheet.rules.dice_space();
        if let (Some(values), Some(r)) = (self.keeps_with(rolls_left), dice.roll_index(roll)) {
            for &k in &dice.proper_sub_keeps[r] {
                let k = usize::from(k);
                options.push(OptionValue {
                    choice: Choice::Keep(dice.keeps[k]),
                    value: points + values[k],
                });
            }
        }
        let rules = self.sheet.rules;
        for (b, v) in self.moves_with(rolls_left).box_values(roll, 0) {
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
/// `TurnOracle::options`. `table` is the rule set's expected-score table.
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

/// Expected final score of a sheet before its next turn, which starts with `saved` rolls saved
/// before it (points so far included). Under the saved-rolls rule `table` is the bank-major
/// saved-rolls table (a bank above its cap is read at the cap); other rule sets save nothing
/// and ignore `saved`.
pub fn sheet_value_saved(table: &[f64], sheet: &Sheet, saved: u8) -> Option<f64> {
    if sheet.is_complete() {
        return Some(f64::from(sheet.points));
    }
    let index = StateSpace::new(sheet.rules).index_of(sheet)?;
    let values = match sheet.rules.saves_rolls() {
        true => Banks::of(sheet.rules, table)?.slice(saved),
        false => table,
    };
    Some(f64::from(sheet.points) + values.get(index)?)
}

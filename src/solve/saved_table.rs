//! The whole table of a game with saved rolls (`maxi-yatzy-saved`): the optimal expected points
//! to come of every sheet state at every bank, built layer by layer like the plain table
//! (docs/methods.md, "Saved rolls").
//!
//! Within one turn, the value `W_t(R)` of holding roll `R` with `t` rerolls left does not
//! depend on the bank the turn started with: writing a box with `t` rerolls unused scores its
//! points and leads to the next state with bank `min(t, K)` (`K` the bank cap). So one widget
//! run per group of states computes the levels `t = 0, 1, ..., 2 + min(K, 2n)` (`n` boxes
//! filled) once, and the value of the state at bank `b` is the expectation over the first roll
//! of `W_{2 + b}`: `3 + min(K, 2n)` widget levels per state where the plain table needs three.
//!
//! Values are stored bank-major: one slice of [`StateSpace::len`] values per bank, indexed like
//! the plain table, so the plain successor code (`Moves`) reads a bank's slice unchanged.
//! With `K` at least twice the boxes less one (38 for Maxi Yatzy) the values are exact;
//! below, they are the values of a player whose bank never exceeds `K` (a lower bound).

use super::expected::{solve_layers, Grouping, Moves};
use super::simd::fn_with_avx2;
use super::states::StateSpace;
use super::widget::{
    expectation_before_first_roll, keeps_from_rolls, rolls_from_keeps, LaneStore, SingleStore,
    SlotAccess, TurnValues,
};
use crate::dice::EMPTY_KEEP;
use crate::rules::{RuleSet, Sheet};

/// The optimal values of every sheet state of a rule set at every bank up to a cap.
#[derive(Clone, Debug)]
pub struct SavedTable {
    rules: RuleSet,
    bank_cap: u8,
    /// The filled boxes every built state has (0: the whole table).
    within: u32,
    /// `values[b * len + index]`: points to come from state `index` at bank `b`.
    values: Vec<f64>,
}

/// The banks of a bank-major table: one slice of a state space's values per bank, the bank
/// read at `min(bank, cap)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Banks<'a> {
    values: &'a [f64],
    len: usize,
    cap: u8,
}

impl<'a> Banks<'a> {
    /// The banks of `values`, a bank-major table of `rules` (one or more whole slices of its
    /// state space, at most 256); `None` otherwise.
    pub(crate) fn of(rules: RuleSet, values: &'a [f64]) -> Option<Banks<'a>> {
        let len = StateSpace::new(rules).len();
        let slices = values.len().checked_div(len)?;
        let cap = u8::try_from(slices.checked_sub(1)?).ok()?;
        (slices * len == values.len()).then_some(Banks { values, len, cap })
    }

    /// The values of bank `min(bank, cap)`.
    pub(crate) fn slice(&self, bank: u8) -> &'a [f64] {
        let b = usize::from(bank.min(self.cap));
        &self.values[b * self.len..(b + 1) * self.len]
    }
}

/// Rerolls a turn brings: the rolls of a turn but the first.
pub(crate) fn rerolls_per_turn(rules: RuleSet) -> u8 {
    rules.rolls_per_turn().saturating_sub(1)
}

/// The largest bank a turn can start with after `filled` turns: the rerolls of every turn
/// played, at most `bank_cap`.
pub fn largest_bank(rules: RuleSet, filled: u32, bank_cap: u8) -> u8 {
    let reachable = u32::from(rerolls_per_turn(rules)) * filled;
    reachable.min(u32::from(bank_cap)) as u8
}

/// The bank cap that makes a rule set's table exact: the largest bank the last turn can start
/// with.
pub fn exact_bank_cap(rules: RuleSet) -> u8 {
    largest_bank(rules, rules.box_count().saturating_sub(1) as u32, u8::MAX)
}

/// Runs the levels of one turn for the states `(lower, pair)`, `pair` in `pairs` (one lane
/// each, all of one upper mask), with `top` rerolls at most: after level `t` (0 to `top`) the
/// roll slots of `store` hold `W_t`, the value of holding each roll with `t` rerolls left, and
/// `each(t, moves, store)` is called, `moves` being the successors at bank `min(t, cap)` (what
/// writing a box with `t` rerolls unused leads to). From level 1 on, the keep slots smaller
/// than a roll hold the expected value of each keep rerolled with `t - 1` rerolls left after
/// it. Values are monotone in `t` (more rerolls, a larger bank), so keeping every die needs no
/// slot: stopping is at least as good.
#[inline(always)]
pub(crate) fn run_levels<S: TurnValues + SlotAccess>(
    space: StateSpace,
    banks: Banks,
    lower: usize,
    pairs: &[u16],
    top: u8,
    store: &mut S,
    mut each: impl FnMut(u8, &Moves, &mut S),
) {
    let mut bank = 0;
    let mut moves = Moves::new(space, banks.slice(0), lower, pairs);
    for t in 0..=top {
        if t.min(banks.cap) != bank {
            bank = t.min(banks.cap);
            moves = Moves::new(space, banks.slice(bank), lower, pairs);
        }
        if t > 0 {
            keeps_from_rolls(store);
        }
        moves.fill_last_roll(store);
        if t > 0 {
            rolls_from_keeps(store);
        }
        each(t, &moves, store);
    }
}

/// The levels of the next turn of `sheet` (one lane, its own state), what an oracle reads
/// every decision of the turn from, whatever bank it starts with: the successors at each bank
/// from 0 to the largest the turn can write with (writing with `t` rerolls unused leads to bank
/// `min(t, cap)`), and for `t` from 1 to the most rerolls the turn can have, the value of each
/// keep rerolled with `t - 1` rerolls left after it. `None` for an impossible sheet.
pub(crate) fn turn_levels(banks: Banks, sheet: &Sheet) -> Option<(Vec<Moves>, Vec<Vec<f64>>)> {
    let rules = sheet.rules;
    let space = StateSpace::new(rules);
    let pair = [u16::try_from(space.pairs.pair(sheet.upper_mask(), sheet.capped_upper())?).ok()?];
    let lower = space.lower_index(sheet.filled, sheet.yahtzee_50);
    let top = rerolls_per_turn(rules) + largest_bank(rules, sheet.filled_count(), banks.cap);
    let mut store = SingleStore::new(rules.dice_space());
    // The keeps' values with `t + 1` rerolls left come from the rolls' at level `t` (the
    // level's own keep slots hold, once it is solved, the best keep within each).
    let mut keep_store = SingleStore::new(rules.dice_space());
    let first_roll = rules.dice_space().first_roll();
    let mut keeps = Vec::with_capacity(usize::from(top));
    let mut moves = Vec::new();
    run_levels(
        space,
        banks,
        lower,
        &pair,
        top,
        &mut store,
        |t, level_moves, store| {
            // Level t writes to bank min(t, cap): one successor set per bank up to the cap.
            if t <= banks.cap {
                moves.push(level_moves.clone());
            }
            if t < top {
                keep_store
                    .rolls_mut()
                    .copy_from_slice(&store.values()[first_roll..]);
                keeps_from_rolls(&mut keep_store);
                keeps.push(keep_store.values()[..first_roll].to_vec());
            }
        },
    );
    Some((moves, keeps))
}

/// The values of the states `(lower, pair)` for `pair` in `pairs` at every bank from 0 to
/// `banks_of_state` less one, bank-major (`banks_of_state` blocks of `pairs.len()` values).
#[inline(always)]
fn solve_saved_group(
    space: StateSpace,
    banks: Banks,
    lower: usize,
    pairs: &[u16],
    store: &mut LaneStore<f64>,
) -> Vec<f64> {
    let rules = space.rules;
    let base = rerolls_per_turn(rules);
    let upper_mask = pairs
        .first()
        .map_or(0, |&p| space.pairs.mask[usize::from(p)]);
    let filled = space.lower_boxes(lower).0.count_ones() + upper_mask.count_ones();
    let top = base + largest_bank(rules, filled, banks.cap);
    store.fit(rules.dice_space(), pairs.len());
    let mut out = Vec::with_capacity(pairs.len() * usize::from(top - base + 1));
    run_levels(space, banks, lower, pairs, top, store, |t, _, store| {
        if t >= base {
            expectation_before_first_roll(store);
            out.extend_from_slice(store.slot(EMPTY_KEEP));
        }
    });
    out
}

fn_with_avx2!(
/// [`solve_saved_group`] compiled for the widest vector instructions this CPU has (the same
/// operations in the same order, so the same bits).
fn solve_saved_group_fast = solve_saved_group(
    space: StateSpace, banks: Banks, lower: usize, pairs: &[u16], store: &mut LaneStore<f64>
) -> Vec<f64>);

/// Builds the saved-rolls table of `rules` with banks capped at `bank_cap`, for the states
/// whose filled boxes include `within` (0: the whole table; a sub-game's states otherwise, the
/// others left unbuilt). Layers are solved in parallel; the result does not depend on the
/// number of threads. `progress` gets the states solved so far and the total. Memory: `(bank_cap
/// + 1)` times the plain table (9.1 GB for Maxi Yatzy at the exact cap 38).
pub fn build_saved_table(
    rules: RuleSet,
    bank_cap: u8,
    within: u32,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> SavedTable {
    let space = StateSpace::new(rules);
    let len = space.len();
    let bank_count = usize::from(bank_cap) + 1;
    let mut values = vec![0.0f64; len * bank_count];
    solve_layers(
        space,
        Grouping::Lanes,
        within,
        &mut values,
        progress,
        || LaneStore::<f64>::new(rules.dice_space(), 0),
        |values, store, lower, lanes| {
            let banks = Banks {
                values,
                len,
                cap: bank_cap,
            };
            (
                lanes.len(),
                solve_saved_group_fast(space, banks, lower, lanes, store),
            )
        },
        |values, start, count, (lanes, solved)| {
            for (b, block) in solved.chunks_exact(lanes).enumerate() {
                let at = b * len + start;
                values[at..at + count].copy_from_slice(&block[..count]);
            }
        },
    );
    SavedTable {
        rules,
        bank_cap,
        within,
        values,
    }
}

impl SavedTable {
    /// A table from its parts (as read from a file): `values` must hold `bank_cap + 1` slices
    /// of the rule set's state space; `None` otherwise.
    pub fn from_values(rules: RuleSet, bank_cap: u8, values: Vec<f64>) -> Option<SavedTable> {
        let len = StateSpace::new(rules).len();
        (values.len() == len * (usize::from(bank_cap) + 1)).then_some(SavedTable {
            rules,
            bank_cap,
            within: 0,
            values,
        })
    }

    /// The rule set.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The bank cap: banks above it are valued as this bank (exact values need
    /// [`exact_bank_cap`]).
    pub fn bank_cap(&self) -> u8 {
        self.bank_cap
    }

    /// Whether the values are exact: the cap is at least the largest bank a game reaches.
    pub fn is_exact(&self) -> bool {
        self.bank_cap >= exact_bank_cap(self.rules)
    }

    /// Every value, bank-major (`bank_cap + 1` slices of [`StateSpace::len`] values).
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// Every value, bank-major, taken out of the table.
    pub fn into_values(self) -> Vec<f64> {
        self.values
    }

    /// The banks as the level code reads them.
    pub(crate) fn banks(&self) -> Banks<'_> {
        Banks {
            values: &self.values,
            len: self.values.len() / (usize::from(self.bank_cap) + 1),
            cap: self.bank_cap,
        }
    }

    /// Expected final score of `sheet` before its next turn, which starts with `bank` saved
    /// rolls (points so far included; a bank above the cap is valued at the cap). `None` for
    /// another rule set, an impossible sheet, a bank no game reaches with the sheet's turns
    /// played (more than two a turn), or a state outside the sub-game the table was built for.
    pub fn value(&self, sheet: &Sheet, bank: u32) -> Option<f64> {
        if sheet.rules != self.rules || sheet.filled & self.within != self.within {
            return None;
        }
        if bank > u32::from(rerolls_per_turn(self.rules)) * sheet.filled_count() {
            return None;
        }
        if sheet.is_complete() {
            return Some(f64::from(sheet.points));
        }
        let index = StateSpace::new(self.rules).index_of(sheet)?;
        let b = bank.min(u32::from(self.bank_cap)) as u8;
        Some(f64::from(sheet.points) + self.banks().slice(b)[index])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;
    use crate::rules::Choice;
    use crate::solve::expected::build_subgame_table;
    use crate::solve::saved::{SavedRollsSolver, SavedState};
    use crate::solve::turn_oracle::{sheet_value_saved, TurnOracle};

    const RULES: RuleSet = RuleSet::MaxiYatzySaved;

    /// The Maxi Yatzy sheet with the boxes of `open` (bits in sheet order) open and the given
    /// upper total.
    fn sheet(open: u32, upper_total: u32) -> Sheet {
        Sheet {
            rules: RULES,
            filled: RULES.full_mask() & !open,
            yahtzee_50: false,
            upper_total,
            points: 0,
        }
    }

    /// Sub-games of Maxi Yatzy: open boxes (sheet bits: 0-5 ones to sixes, 6 one pair, 7 two
    /// pairs, 8 three pairs, 9-11 three to five alike, 12-14 small, large, full straight, 15
    /// full house, 16 villa, 17 tower, 18 chance, 19 six alike) and an upper total of the
    /// filled upper boxes, near the bonus threshold (84) where the upper boxes matter.
    const SUBGAMES: &[(u32, u32)] = &[
        (1 << 5 | 1 << 19, 66),
        (1 << 4 | 1 << 16 | 1 << 19, 70),
        (1 << 3 | 1 << 5 | 1 << 14 | 1 << 17, 60),
        (1 << 0 | 1 << 8 | 1 << 12 | 1 << 18 | 1 << 19, 80),
    ];

    /// Every bank a sub-game's first turn can start with, in steps.
    fn banks_of(open: u32) -> Vec<u32> {
        let filled = RULES.box_count() as u32 - open.count_ones();
        let largest = 2 * filled;
        vec![0, 1, 3, largest / 2, largest]
    }

    #[test]
    fn the_table_equals_the_memo_solver_exact_and_capped() {
        for &(open, upper) in SUBGAMES {
            let s = sheet(open, upper);
            let filled = s.filled_count();
            for cap in [0u8, 2, 5, (2 * filled) as u8 + 2] {
                let table = build_saved_table(RULES, cap, s.filled, &|_, _| {});
                let mut memo = SavedRollsSolver::new(RULES.description(), cap).unwrap();
                for bank in banks_of(open) {
                    let from_table = table.value(&s, bank).unwrap();
                    let state = SavedState {
                        open,
                        upper,
                        bank: bank as u8,
                    };
                    let from_memo = memo.value(state);
                    assert!(
                        (from_table - from_memo).abs() < 1e-9,
                        "open {open:b} upper {upper} cap {cap} bank {bank}: \
                         table {from_table} memo {from_memo}"
                    );
                }
            }
        }
    }

    /// Every roll of six dice, one per class, with a few keeps of each.
    fn rolls_and_keeps() -> Vec<(Dice, Vec<Dice>)> {
        let dice = RULES.dice_space();
        dice.rolls()
            .iter()
            .step_by(37)
            .map(|roll| (*roll, roll.sub_multisets().into_iter().step_by(5).collect()))
            .collect()
    }

    #[test]
    fn the_turn_oracle_reads_every_option_as_the_memo_solver_values_it() {
        // A sub-game with two filled upper boxes' worth of banks, valued exactly (the cap
        // above its largest bank) and with a cap its banks exceed.
        let (open, upper) = SUBGAMES[2];
        let s = sheet(open, upper);
        let filled = s.filled_count();
        for cap in [3u8, (2 * filled) as u8] {
            let table = build_saved_table(RULES, cap, s.filled, &|_, _| {});
            let turn = TurnOracle::new(table.values(), &s).unwrap();
            let mut memo = SavedRollsSolver::new(RULES.description(), cap).unwrap();
            for bank in banks_of(open) {
                let state = SavedState {
                    open,
                    upper,
                    bank: bank as u8,
                };
                let memo_turn = memo.turn(state);
                // Before the turn: the table's value of the sheet at this bank.
                let before = sheet_value_saved(table.values(), &s, bank as u8).unwrap();
                assert!(
                    (before - memo.value(state)).abs() < 1e-9,
                    "cap {cap} bank {bank}"
                );
                // A bank above the cap is valued as the cap (as the memo solver does).
                for left in 0..=2 + cap.min(bank as u8) {
                    for (roll, keeps) in rolls_and_keeps() {
                        let options = turn.options(&roll, left);
                        let best = memo_turn.roll_value(&memo, &roll, left).unwrap();
                        let at = format!("cap {cap} bank {bank} left {left} roll {roll:?}");
                        assert!((options[0].value - best).abs() < 1e-9, "{at}: best");
                        for keep in keeps.iter().filter(|k| left > 0 && k.len() < 6) {
                            let ours = turn.keep_value(keep, left).unwrap();
                            let theirs = memo_turn.keep_value(&memo, keep, left).unwrap();
                            assert!((ours - theirs).abs() < 1e-9, "{at}: keep {keep:?}");
                        }
                        for b in (0..RULES.box_count()).filter(|b| open & (1 << b) != 0) {
                            let choice = Choice::Score(RULES.boxes()[b]);
                            let Some(ours) = options.iter().find(|o| o.choice == choice) else {
                                continue;
                            };
                            let theirs = memo.box_value(state, &roll, b, left).unwrap();
                            assert!((ours.value - theirs).abs() < 1e-9, "{at}: box {b}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn cap_zero_is_the_plain_table_to_the_bit() {
        let (open, upper) = SUBGAMES[3];
        let s = sheet(open, upper);
        let saved = build_saved_table(RULES, 0, s.filled, &|_, _| {});
        let plain = build_subgame_table(RuleSet::MaxiYatzy, s.filled, &|_, _| {});
        assert_eq!(saved.values().len(), plain.len());
        let differ = saved
            .values()
            .iter()
            .zip(&plain)
            .filter(|(a, b)| a.to_bits() != b.to_bits())
            .count();
        assert_eq!(differ, 0, "states whose values differ");
        assert!(plain.iter().filter(|&&v| v > 0.0).count() >= 16);
    }

    #[test]
    fn values_grow_with_the_bank_and_the_cap() {
        let (open, upper) = SUBGAMES[2];
        let s = sheet(open, upper);
        let small = build_saved_table(RULES, 3, s.filled, &|_, _| {});
        let exact = build_saved_table(RULES, 40, s.filled, &|_, _| {});
        assert!(exact.is_exact() && !small.is_exact());
        let mut last = 0.0;
        for bank in 0..=2 * s.filled_count() {
            let v = exact.value(&s, bank).unwrap();
            assert!(v >= last, "bank {bank}: {v} below {last}");
            assert!(v >= small.value(&s, bank).unwrap());
            last = v;
        }
        // Above the cap, a bank is valued at the cap; beyond what a game reaches, no value.
        assert_eq!(small.value(&s, 9), small.value(&s, 3));
        assert_eq!(exact.value(&s, 2 * s.filled_count() + 1), None);
        // Outside the sub-game, another rule set: no value.
        assert_eq!(exact.value(&sheet(open | 1, 0), 0), None);
        let plain = Sheet {
            rules: RuleSet::MaxiYatzy,
            ..s
        };
        assert_eq!(exact.value(&plain, 0), None);
    }

    #[test]
    fn the_same_bits_on_one_thread_and_several() {
        let (open, upper) = SUBGAMES[1];
        let s = sheet(open, upper);
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| build_saved_table(RULES, 6, s.filled, &|_, _| {}));
        let three = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap()
            .install(|| build_saved_table(RULES, 6, s.filled, &|_, _| {}));
        assert!(one
            .values()
            .iter()
            .zip(three.values())
            .all(|(a, b)| a.to_bits() == b.to_bits()));
    }

    #[test]
    fn the_exact_cap_of_maxi_yatzy_is_38() {
        assert_eq!(exact_bank_cap(RULES), 38);
        assert_eq!(largest_bank(RULES, 4, 38), 8);
        assert_eq!(largest_bank(RULES, 4, 5), 5);
    }
}

//! The generic turn widget (`solve::widget`) against a plain exhaustive expectimax, exactly.
//!
//! Reduced games (sheets with one or two boxes free) are solved twice with exact integer
//! arithmetic: once with `LaneStore<Exact>` and the widget passes, once by brute force over
//! dice positions and ordered outcomes, sharing nothing with the widget or with the dice
//! tables' `add_face` / `remove_one` relations. The two must agree to the last unit. The f64
//! expected-score tables are then checked against the exact values.
//!
//! Values are `i128` counts of `1 / SCALE` points. One turn divides by at most `6^15` (two
//! passes of five means of six, and the mean over the 7776 first rolls), so `6^30` keeps every
//! division of a two-turn game exact; `Exact` and [`exact_mean`] assert that it does.

use dicelens::dice::{Dice, EMPTY_KEEP, FIRST_ROLL, ROLLS};
use dicelens::rules::{RuleSet, Sheet};
use dicelens::solve::expected::{build_table, sheet_value};
use dicelens::solve::widget::{keeps_from_rolls, rolls_from_keeps, solve_turn, Exact, LaneStore};
use std::collections::hash_map::Entry;
use std::collections::HashMap;

/// One point, in exact units.
const SCALE: i128 = 6i128.pow(30);

/// Number of dice.
const DICE: usize = 5;

/// A reduced game: a sheet with one or two boxes free, and a label for messages.
struct Game {
    /// What the game exercises, with its free boxes.
    label: String,
    /// The sheet before the first of its remaining turns.
    sheet: Sheet,
}

/// The reduced games of a rule set: five with one box free and five with two, chosen to cover
/// the upper bonus, the Yahtzee box free or holding 0 or 50 (jokers, extra bonus), straights,
/// and Yatzy's pairs.
fn games(rules: RuleSet) -> Vec<Game> {
    // (label, free boxes, Yahtzee box holds 50, upper total)
    let specs: &[(&str, &[&str], bool, u32)] = if rules == RuleSet::Yatzy {
        &[
            ("fives cross 63 from 58", &["5"], false, 58),
            ("one pair", &["1P"], false, 40),
            ("two pairs", &["2P"], false, 40),
            ("small straight, bonus made", &["SS"], false, 70),
            ("Yatzy box", &["Y"], false, 30),
            ("both pairs", &["1P", "2P"], false, 40),
            ("both straights", &["SS", "LS"], false, 50),
            ("fives from 58 and Yatzy box", &["5", "Y"], false, 58),
            ("full house and fours from 50", &["FH", "4"], false, 50),
            ("three and four of a kind", &["3K", "4K"], false, 62),
        ]
    } else {
        &[
            ("fives cross 63 from 58, Y50", &["5"], true, 58),
            ("Yahtzee box", &["Y"], false, 40),
            ("large straight, Y50 (joker + extra)", &["LS"], true, 70),
            ("full house, Y0", &["FH"], false, 50),
            ("small straight, Y50", &["SS"], true, 30),
            ("full house and fours from 50, Y50", &["FH", "4"], true, 50),
            (
                "large straight and sixes from 45, Y0",
                &["LS", "6"],
                false,
                45,
            ),
            ("fives from 58 and Yahtzee box", &["5", "Y"], false, 58),
            ("both straights, Y50", &["SS", "LS"], true, 66),
            ("ones from 62 and Yahtzee box", &["1", "Y"], false, 62),
        ]
    };
    specs
        .iter()
        .map(|&(what, free, y50, upper)| Game {
            label: format!("{rules} {what} (free {}, upper {upper})", free.join("+")),
            sheet: crate::common::reduced(rules, free, y50, upper, 200),
        })
        .collect()
}

/// The memo key of a sheet: the sheet with its points set to 0, since the points already on
/// the sheet do not change the points still to come.
fn memo_key(sheet: &Sheet) -> Sheet {
    Sheet {
        points: 0,
        ..*sheet
    }
}

/// `sum / count`, asserting that the division is exact.
fn exact_mean(sum: i128, count: i128) -> i128 {
    assert_eq!(
        sum % count,
        0,
        "SCALE too small: {sum} / {count} is not exact"
    );
    sum / count
}

/// The value of scoring `roll` in box `b` of `sheet` (points gained now plus `future` of the
/// sheet that follows), or `None` if the box may not be used for this roll.
fn scored_value(
    sheet: &Sheet,
    roll: &Dice,
    b: usize,
    future: &mut dyn FnMut(&Sheet) -> i128,
) -> Option<i128> {
    let (next, gained) = sheet.after(roll, b)?;
    Some(i128::from(gained) * SCALE + future(&next))
}

/// Exact game values through the turn widget, memoised per sheet (points ignored).
#[derive(Default)]
struct WidgetSolver {
    /// Values of the sheets solved so far, by [`memo_key`].
    values: HashMap<Sheet, i128>,
}

impl WidgetSolver {
    /// Expected points still to come from `sheet` under optimal play, in exact units.
    fn sheet_value(&mut self, sheet: &Sheet) -> i128 {
        if sheet.is_complete() {
            return 0;
        }
        let key = memo_key(sheet);
        if let Some(&v) = self.values.get(&key) {
            return v;
        }
        let mut store = LaneStore::<Exact>::new(dicelens::dice::tables(), 1);
        self.fill(sheet, &mut store);
        solve_turn(&mut store, 3);
        let v = store.slot(EMPTY_KEEP)[0].0;
        self.values.insert(key, v);
        v
    }

    /// Writes into each roll slot of `store` the value of that roll after the last roll of a
    /// turn from `sheet`: the best legal box.
    fn fill(&mut self, sheet: &Sheet, store: &mut LaneStore<Exact>) {
        for r in 0..ROLLS {
            let roll = Dice::roll(r);
            let best = (0..sheet.rules.box_count())
                .filter_map(|b| scored_value(sheet, &roll, b, &mut |s| self.sheet_value(s)))
                .max()
                .unwrap_or_else(|| panic!("no legal box for {roll} on {}", sheet.filled_codes()));
            store.slot_mut(FIRST_ROLL + r)[0] = Exact(best);
        }
    }
}

/// Exact game values by plain expectimax over dice positions and ordered outcomes, memoised
/// per sheet (points ignored).
#[derive(Default)]
struct Brute {
    /// Values of the sheets solved so far, by [`memo_key`].
    values: HashMap<Sheet, i128>,
}

impl Brute {
    /// Expected points still to come from `sheet` under optimal play, in exact units.
    fn sheet_value(&mut self, sheet: &Sheet) -> i128 {
        if sheet.is_complete() {
            return 0;
        }
        let key = memo_key(sheet);
        if let Some(&v) = self.values.get(&key) {
            return v;
        }
        let v = self.turn(sheet).state_value();
        self.values.insert(key, v);
        v
    }

    /// The turn from `sheet`, with the value of every five dice after the last roll (best
    /// legal box) computed up front.
    fn turn(&mut self, sheet: &Sheet) -> BruteTurn {
        let mut last = HashMap::new();
        for index in 0..6usize.pow(DICE as u32) {
            let dice =
                crate::common::sorted_dice(&[], &crate::common::ordered_outcome(index, DICE));
            if let Entry::Vacant(slot) = last.entry(dice) {
                slot.insert(self.best_box(sheet, &dice));
            }
        }
        BruteTurn {
            last,
            values: HashMap::new(),
            means: HashMap::new(),
        }
    }

    /// The best value of scoring the five `dice` in a legal box of `sheet`.
    fn best_box(&mut self, sheet: &Sheet, dice: &[u8; DICE]) -> i128 {
        let roll = Dice::from_faces(dice).unwrap_or_else(|| panic!("bad dice {dice:?}"));
        let mut best = None;
        for b in 0..sheet.rules.box_count() {
            if let Some(v) = scored_value(sheet, &roll, b, &mut |s| self.sheet_value(s)) {
                best = best.max(Some(v));
            }
        }
        best.unwrap_or_else(|| panic!("no legal box for {roll} on {}", sheet.filled_codes()))
    }
}

/// One turn of brute-force expectimax from a fixed sheet.
struct BruteTurn {
    /// Value of each sorted five dice after the last roll.
    last: HashMap<[u8; DICE], i128>,
    /// `value(rolls_left, sorted dice)` for `rolls_left` 1 and 2.
    values: HashMap<(u8, [u8; DICE]), i128>,
    /// `keep_mean(rolls_left, sorted kept dice)`.
    means: HashMap<(u8, Vec<u8>), i128>,
}

impl BruteTurn {
    /// Value before the first roll: the mean over all 7776 ordered rolls of their value with
    /// two rolls left.
    fn state_value(&mut self) -> i128 {
        let count = 6usize.pow(DICE as u32);
        let sum: i128 = (0..count)
            .map(|index| {
                self.value(
                    2,
                    crate::common::sorted_dice(&[], &crate::common::ordered_outcome(index, DICE)),
                )
            })
            .sum();
        exact_mean(sum, count as i128)
    }

    /// Value of holding the sorted five `dice` with `rolls_left` rerolls still allowed: the
    /// best over all 32 subsets of dice positions to keep (keeping all five stops rolling).
    fn value(&mut self, rolls_left: u8, dice: [u8; DICE]) -> i128 {
        if rolls_left == 0 {
            return match self.last.get(&dice) {
                Some(&v) => v,
                None => panic!("dice {dice:?} missing from the last-roll values"),
            };
        }
        if let Some(&v) = self.values.get(&(rolls_left, dice)) {
            return v;
        }
        let mut best = i128::MIN;
        for subset in 0..1u32 << DICE {
            let kept: Vec<u8> = (0..DICE)
                .filter(|&i| subset & (1 << i) != 0)
                .map(|i| dice[i])
                .collect();
            best = best.max(self.keep_mean(rolls_left, &kept));
        }
        self.values.insert((rolls_left, dice), best);
        best
    }

    /// Value of keeping `kept` (any order) and rerolling the other dice, with `rolls_left`
    /// rolls left before this reroll: the exact mean over all `6^(5 - kept)` ordered outcomes
    /// of the value of the resulting five dice with `rolls_left - 1` rolls left.
    fn keep_mean(&mut self, rolls_left: u8, kept: &[u8]) -> i128 {
        assert!(rolls_left >= 1, "no reroll left");
        let mut key = kept.to_vec();
        key.sort_unstable();
        if let Some(&v) = self.means.get(&(rolls_left, key.clone())) {
            return v;
        }
        let rerolled = DICE - key.len();
        let count = 6usize.pow(rerolled as u32);
        let sum: i128 = (0..count)
            .map(|index| {
                let dice = crate::common::sorted_dice(
                    &key,
                    &crate::common::ordered_outcome(index, rerolled),
                );
                self.value(rolls_left - 1, dice)
            })
            .sum();
        let mean = exact_mean(sum, count as i128);
        self.means.insert((rolls_left, key), mean);
        mean
    }
}

/// The rule set with the given name (test setup).
fn rule_set(name: &str) -> RuleSet {
    name.parse()
        .unwrap_or_else(|e| panic!("rule set {name}: {e}"))
}

/// Solves every reduced game of the rule set both ways and asserts exact equality.
fn widget_equals_brute_force(name: &str) {
    let rules = rule_set(name);
    let games = games(rules);
    let free = |g: &Game| rules.box_count() - g.sheet.filled_count() as usize;
    assert!(games.iter().any(|g| free(g) == 1) && games.iter().any(|g| free(g) == 2));
    let mut widget = WidgetSolver::default();
    let mut brute = Brute::default();
    let mut mismatches = Vec::new();
    for game in &games {
        let w = widget.sheet_value(&game.sheet);
        let b = brute.sheet_value(&game.sheet);
        assert!(
            b > 0,
            "{}: brute-force value {b} is not positive",
            game.label
        );
        if w != b {
            mismatches.push(format!(
                "{}: widget {w} != brute {b} (difference {} units, {:e} points)",
                game.label,
                w - b,
                (w - b) as f64 / SCALE as f64
            ));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn widget_equals_brute_force_yahtzee() {
    widget_equals_brute_force("yahtzee");
}

#[test]
fn widget_equals_brute_force_yahtzee_free() {
    widget_equals_brute_force("yahtzee-free");
}

#[test]
fn widget_equals_brute_force_yahtzee_kurnik() {
    widget_equals_brute_force("yahtzee-kurnik");
}

#[test]
fn widget_equals_brute_force_yatzy() {
    widget_equals_brute_force("yatzy");
}

/// The rolls whose keeps are compared one by one in the decision test.
const DECISION_ROLLS: [[u8; DICE]; 6] = [
    [4, 4, 4, 4, 4],
    [4, 4, 4, 5, 6],
    [1, 2, 3, 4, 5],
    [2, 2, 3, 3, 3],
    [6, 6, 6, 6, 6],
    [1, 4, 4, 6, 6],
];

/// Asserts that, for every keep of every roll in [`DECISION_ROLLS`], the widget's keep slot
/// equals the brute-force mean for that kept multiset with `rolls_left` rolls left.
fn assert_keeps_agree(
    store: &LaneStore<Exact>,
    turn: &mut BruteTurn,
    rolls_left: u8,
    mismatches: &mut Vec<String>,
) {
    for faces in DECISION_ROLLS {
        let roll = Dice::from_faces(&faces).unwrap_or_else(|| panic!("bad roll {faces:?}"));
        for keep in roll.sub_multisets() {
            let Some(k) = keep.keep_index() else {
                panic!("keep {keep} of {roll} has no index");
            };
            let w = store.slot(k)[0].0;
            let b = turn.keep_mean(rolls_left, &keep.faces());
            if w != b {
                mismatches.push(format!(
                    "roll {roll}, keep {keep}, {rolls_left} rolls left: widget {w} != brute {b}"
                ));
            }
        }
    }
}

#[test]
fn widget_keep_values_equal_brute_force_means() {
    let rules = rule_set("yahtzee");
    let sheet = crate::common::reduced(rules, &["FH", "4"], true, 50, 200);
    let mut widget = WidgetSolver::default();
    let mut brute = Brute::default();
    let mut turn = brute.turn(&sheet);
    let mut store = LaneStore::<Exact>::new(dicelens::dice::tables(), 1);
    let mut mismatches = Vec::new();

    widget.fill(&sheet, &mut store);
    for faces in DECISION_ROLLS {
        let roll = Dice::from_faces(&faces).unwrap_or_else(|| panic!("bad roll {faces:?}"));
        let Some(r) = roll.roll_index() else {
            panic!("{roll} is not a roll");
        };
        let (w, b) = (store.slot(FIRST_ROLL + r)[0].0, turn.value(0, faces));
        if w != b {
            mismatches.push(format!("roll {roll}, scored now: widget {w} != brute {b}"));
        }
    }
    keeps_from_rolls(&mut store);
    assert_keeps_agree(&store, &mut turn, 1, &mut mismatches);

    rolls_from_keeps(&mut store);
    for faces in DECISION_ROLLS {
        let roll = Dice::from_faces(&faces).unwrap_or_else(|| panic!("bad roll {faces:?}"));
        let Some(r) = roll.roll_index() else {
            panic!("{roll} is not a roll");
        };
        let (w, b) = (store.slot(FIRST_ROLL + r)[0].0, turn.value(1, faces));
        if w != b {
            mismatches.push(format!("roll {roll}, 1 roll left: widget {w} != brute {b}"));
        }
    }
    keeps_from_rolls(&mut store);
    assert_keeps_agree(&store, &mut turn, 2, &mut mismatches);

    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    // The whole turn agrees too (the same sheet, through the memoised solvers).
    assert_eq!(widget.sheet_value(&sheet), turn.state_value());
}

/// Asserts that the f64 table of the rule set gives every reduced game's exact value to 1e-9.
fn f64_table_matches_exact(name: &str) {
    let rules = rule_set(name);
    let table = build_table(rules, &|_, _| {});
    let mut widget = WidgetSolver::default();
    let mut mismatches = Vec::new();
    for game in games(rules) {
        let exact = widget.sheet_value(&game.sheet) as f64 / SCALE as f64;
        let Some(total) = sheet_value(&table, &game.sheet) else {
            panic!("{}: sheet not in the table", game.label);
        };
        let table_value = total - f64::from(game.sheet.points);
        if (table_value - exact).abs() > 1e-9 {
            mismatches.push(format!(
                "{}: table {table_value} != exact {exact} (difference {:e})",
                game.label,
                table_value - exact
            ));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn f64_table_matches_exact_yahtzee() {
    f64_table_matches_exact("yahtzee");
}

#[test]
fn f64_table_matches_exact_yahtzee_free() {
    f64_table_matches_exact("yahtzee-free");
}

#[test]
fn f64_table_matches_exact_yahtzee_kurnik() {
    f64_table_matches_exact("yahtzee-kurnik");
}

#[test]
fn f64_table_matches_exact_yatzy() {
    f64_table_matches_exact("yatzy");
}

//! The strong heuristic Jamb oracle: the exact turn of the whole slip over its three rolls
//! ([`SlipTurn`]) on top of a value function of the slip after the turn built from the exact
//! one-column values ([`ColumnTable`]), with the exact endgame ([`Endgame`]) when few boxes are
//! left. See docs/jamb-oracle.md for the value functions measured.

use super::column::ColumnTable;
use super::endgame::{credited, slip_keys, Endgame, SlipKeys};
use super::features::{column_features, stage_terms, weight_count, Correction, FEATURES, STAGES};
use super::key::{step, ColumnKey};
use super::tables::JambTables;
use super::turn::SlipTurn;
use super::{turn_columns, turn_rolls, BoxPoints};
use crate::dice::Dice;
use crate::rules::jamb::{Cell, JambBox, JambRules, JambSheet, JambTurn, BOXES};
use crate::rules::play::JambPlayer;
use crate::rules::Choice;
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Empty boxes from which the strong oracle values slips exactly ([`Endgame`]): 6 keeps
/// rating above 350 games a second on one core (docs/jamb-oracle.md).
pub(crate) const STRONG_ENDGAME: usize = 6;

/// Most slips in the future of a slip that the strong oracle solves exactly
/// ([`ValueFunction::endgame_budget`]; docs/jamb-oracle.md §7).
pub(crate) const STRONG_ENDGAME_BUDGET: u64 = 5000;

/// The value function the oracle puts after the turn (see docs/jamb-oracle.md); the default
/// is the plain one ([`ValueFunction::plain`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueFunction {
    /// Factor of each column's exact one-column value, by column (missing: 1).
    pub scale: Vec<f64>,
    /// Exact endgame values when the slip after the turn has at most this many empty boxes
    /// (0: never).
    pub endgame: usize,
    /// The exact endgame only for slips whose whole future has at most this many slips
    /// ([`Endgame::reachable`]); the value function values the others (0: no limit).
    pub endgame_budget: u64,
    /// Weights fitted by self-play ([`fit`](super::fit)) replacing the scaled sum of one-column
    /// values.
    pub correction: Option<Arc<Correction>>,
    /// Further exact turns searched before the value function (0: none; each costs hundreds of
    /// times the time).
    pub lookahead: usize,
    /// Most slack used from the slack tables (0: the plain one-column values).
    pub slack: usize,
}

impl ValueFunction {
    /// The plain value function: the sum of the exact one-column values.
    pub fn plain() -> ValueFunction {
        ValueFunction::default()
    }

    /// The strong value function on `tables` (the measured choice, docs/jamb-oracle.md):
    /// the columns' slack values with the fitted weights, and the exact endgame once at most
    /// `STRONG_ENDGAME` boxes are left.
    pub fn strong(tables: &JambTables) -> ValueFunction {
        ValueFunction {
            slack: tables.slack_model().turns,
            correction: tables.correction(),
            endgame: STRONG_ENDGAME,
            endgame_budget: STRONG_ENDGAME_BUDGET,
            ..ValueFunction::default()
        }
    }

    /// A short description, for reports.
    pub fn describe(&self) -> String {
        let mut s = String::from("V(slip after the turn) = ");
        s.push_str(match (self.correction.is_some(), self.slack > 0) {
            (false, false) => "sum over columns of the exact one-column values",
            (false, true) => "sum over columns of the exact values of each column alone",
            (true, false) => {
                "regression fitted on self-play over the columns' exact one-column values, \
                 empty boxes, upper and middle state, by stage"
            }
            (true, true) => {
                "regression fitted on self-play over the columns' exact values alone, empty \
                 boxes, upper and middle state, by stage"
            }
        });
        if self.slack > 0 {
            s.push_str(&format!(
                " (each column valued as if it may let up to {} turns pass)",
                self.slack
            ));
        }
        if self.scale.iter().any(|&a| a != 1.0) {
            let scales: Vec<String> = self.scale.iter().map(|a| format!("{a}")).collect();
            s.push_str(&format!(", scaled by column ({})", scales.join(", ")));
        }
        if self.lookahead > 0 {
            s.push_str(&format!(", after {} further exact turn(s)", self.lookahead));
        }
        if self.endgame > 0 {
            s.push_str(&format!(
                "; exact endgame once at most {} boxes are left",
                self.endgame
            ));
            if self.endgame_budget > 0 {
                s.push_str(&format!(
                    " and the slip's future has at most {} slips",
                    self.endgame_budget
                ));
            }
        }
        s
    }
}

/// What the oracle memoises between the decisions of a game: the turn in hand (the three
/// decisions of one turn reuse one widget run) and the exact endgame's memo.
#[derive(Clone, Default)]
pub struct JambTurnCache {
    /// The oracle that filled the cache.
    oracle: u64,
    sheet: Option<JambSheet>,
    turn: Option<SlipTurn>,
    endgame: Option<Endgame>,
}

/// How the description of a Jamb oracle ([`JambOracle::describe`]) begins; the rule set's
/// name and `)` follow.
pub(crate) const DESCRIBED_AS: &str = "heuristic Jamb oracle (";

/// The strong heuristic Jamb oracle (see the module documentation).
#[derive(Clone, Debug)]
pub struct JambOracle {
    rules: JambRules,
    points: Arc<BoxPoints>,
    /// The table of each column of the slip.
    columns: Vec<Arc<ColumnTable>>,
    /// The slack tables of each column of the slip, slack 1, 2, ... (when built).
    slack: Vec<Vec<Arc<ColumnTable>>>,
    value: ValueFunction,
    /// Tells the caches of different oracles apart (clones share it: they value alike).
    id: u64,
}

/// A new oracle identity.
fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl JambOracle {
    /// The strong oracle ([`ValueFunction::strong`]) on tables built or loaded before.
    pub fn from_tables(tables: JambTables) -> JambOracle {
        let value = ValueFunction::strong(&tables);
        JambOracle::with_value(tables, value)
    }

    /// The oracle on `tables` with value function `value` (slack beyond the tables' is
    /// capped at theirs; fitted weights of another shape are ignored).
    pub fn with_value(tables: JambTables, mut value: ValueFunction) -> JambOracle {
        let rules = *tables.rules();
        let columns = rules
            .columns
            .iter()
            .filter_map(|&k| tables.shared_table(k))
            .collect();
        let slack: Vec<Vec<Arc<ColumnTable>>> = rules
            .columns
            .iter()
            .map(|&k| tables.slack_tables(k))
            .collect();
        let levels = slack.iter().map(Vec::len).min().unwrap_or(0);
        value.slack = value.slack.min(levels);
        if value
            .correction
            .as_ref()
            .is_some_and(|c| !c.fits(rules.columns.len()))
        {
            value.correction = None;
        }
        JambOracle {
            rules,
            points: Arc::new(BoxPoints::new(&rules)),
            columns,
            slack,
            value,
            id: next_id(),
        }
    }

    /// The rules.
    pub fn rules(&self) -> &JambRules {
        &self.rules
    }

    /// The same oracle (same tables) with value function `value`.
    pub fn with_value_function(&self, value: ValueFunction) -> JambOracle {
        JambOracle {
            value,
            id: next_id(),
            ..self.clone()
        }
    }

    /// The value function.
    pub fn value_function(&self) -> &ValueFunction {
        &self.value
    }

    /// Names the oracle and its value function (it is a heuristic oracle): `DESCRIBED_AS`,
    /// the rule set's name, `): ` and the rest.
    pub fn describe(&self) -> String {
        format!(
            "{DESCRIBED_AS}{}): exact turn over the three rolls, then {}",
            self.rules.name,
            self.value.describe()
        )
    }

    /// The exact one-column value of column `c` in state `key` (0 when full), with `left`
    /// turns left in the game (which sets the slack of the slack tables, when used).
    fn column_value(&self, c: usize, key: ColumnKey, left: usize) -> f64 {
        if key.is_full() {
            return 0.0;
        }
        let empty = (!key.mask & super::key::FULL).count_ones() as usize;
        let slack = left.saturating_sub(empty).min(self.value.slack);
        let table = match slack {
            0 => self.columns.get(c),
            s => self.slack.get(c).and_then(|levels| levels.get(s - 1)),
        };
        table.and_then(|t| t.value(key)).unwrap_or(0.0)
    }

    /// The heuristic future of column `c` in state `key` with `left` turns left, with stage
    /// terms `stage`.
    fn column_future(&self, c: usize, key: ColumnKey, left: usize, stage: &[f64; STAGES]) -> f64 {
        let v = self.column_value(c, key, left);
        match &self.value.correction {
            Some(w) => w.column_future(c, key, v, stage, self.points.middle()),
            None => self.value.scale.get(c).copied().unwrap_or(1.0) * v,
        }
    }

    /// The features of a slip for [`fit`](super::fit): for each column, feature and stage term,
    /// the feature times the stage term.
    pub fn features(&self, sheet: &JambSheet) -> Vec<f64> {
        let columns = self.rules.columns.len();
        let mut row = vec![0.0; weight_count(columns)];
        let Some(keys) = slip_keys(sheet, self.points.middle()) else {
            return row;
        };
        let stage = stage_terms(sheet.turns_left(), self.rules.turns());
        for c in 0..columns {
            let value = self.column_value(c, keys[c], sheet.turns_left());
            let x = column_features(keys[c], value, self.points.middle());
            for (f, &xf) in x.iter().enumerate() {
                for (s, &st) in stage.iter().enumerate() {
                    row[(c * FEATURES + f) * STAGES + s] = xf * st;
                }
            }
        }
        let counts = empty_counts(&keys[..columns]);
        for (b, &n) in counts.iter().enumerate() {
            for (s, &st) in stage.iter().enumerate() {
                row[(columns * FEATURES + b) * STAGES + s] = f64::from(n) * f64::from(n) * st;
            }
        }
        row
    }

    /// The slip part of the fitted future (0 without a fitted correction).
    fn slip_future(&self, counts: &[u8; BOXES], stage: &[f64; STAGES]) -> f64 {
        match &self.value.correction {
            Some(w) => w.slip_future(self.rules.columns.len(), counts, stage),
            None => 0.0,
        }
    }

    /// Empties `cache` if another oracle filled it (nothing in it would hold for this one).
    fn claim(&self, cache: &mut JambTurnCache) {
        if cache.oracle != self.id {
            *cache = JambTurnCache {
                oracle: self.id,
                ..JambTurnCache::default()
            };
        }
    }

    /// The turn of `sheet`, from the cache when it holds this slip's turn.
    fn turn<'c>(&self, sheet: &JambSheet, cache: &'c mut JambTurnCache) -> Option<&'c SlipTurn> {
        self.claim(cache);
        if cache.sheet.as_ref() != Some(sheet) || cache.turn.is_none() {
            let turn = self.solve_turn(sheet, cache)?;
            cache.turn = Some(turn);
            cache.sheet = Some(*sheet);
        }
        cache.turn.as_ref()
    }

    fn solve_turn(&self, sheet: &JambSheet, cache: &mut JambTurnCache) -> Option<SlipTurn> {
        if sheet.is_complete() || sheet.rules() != &self.rules {
            return None;
        }
        let middle = self.points.middle();
        let keys: SlipKeys = slip_keys(sheet, middle)?;
        let base = f64::from(credited(sheet, middle));
        let after_empty = sheet.turns_left() - 1;
        let endgame = if after_empty > 0 && after_empty <= self.value.endgame {
            let endgame = cache.endgame.get_or_insert_with(|| {
                Endgame::sharing(self.rules, Arc::clone(&self.points), self.value.endgame)
            });
            let budget = self.value.endgame_budget;
            (budget == 0 || endgame.within(&keys, budget)).then_some(endgame)
        } else {
            None
        };
        Some(self.turn_of_keys(
            &keys,
            base,
            sheet.turns_left(),
            endgame,
            self.value.lookahead,
        ))
    }

    /// The turn from the columns' `keys` (`turns_left` empty boxes, `base` points credited so
    /// far): the exact endgame's turn when given (its writes valued by the exact endgame), else
    /// writes valued by `plies` further exact turns and then the value function.
    fn turn_of_keys(
        &self,
        keys: &SlipKeys,
        base: f64,
        turns_left: usize,
        endgame: Option<&mut Endgame>,
        plies: usize,
    ) -> SlipTurn {
        if let Some(e) = endgame {
            return e.turn_of_keys(keys, base);
        }
        let columns = self.rules.columns.len();
        let after_empty = turns_left.saturating_sub(1);
        let stage = stage_terms(after_empty, self.rules.turns());
        let futures: Vec<f64> = (0..columns)
            .map(|c| self.column_future(c, keys[c], after_empty, &stage))
            .collect();
        let counts = empty_counts(&keys[..columns]);
        let slip_now = self.slip_future(&counts, &stage);
        // The slip part after writing box b: one column fewer with b empty.
        let slip_after: [f64; BOXES] = std::array::from_fn(|b| {
            let mut c = counts;
            c[b] = c[b].saturating_sub(1);
            self.slip_future(&c, &stage)
        });
        let total_future: f64 = futures.iter().sum::<f64>() + slip_now;
        let masks: Vec<u16> = keys[..columns].iter().map(|k| k.mask).collect();
        let shape = turn_columns(&self.rules, &masks);
        let rolls = turn_rolls(&self.rules, turns_left);
        // The writes of one cell come one after another, and most scores of a box lead to the
        // same column state: its future is computed once for them.
        let mut last: Option<(usize, ColumnKey, f64)> = None;
        SlipTurn::with_rolls(&self.points, &shape, rolls, |cell, p| {
            let c = usize::from(cell.column);
            let Some((credit, next)) = step(keys[c], cell.jbox, p, self.points.middle()) else {
                return f64::NEG_INFINITY;
            };
            let now = base + f64::from(credit);
            let mut after = *keys;
            after[c] = next;
            if plies > 0 && after_empty > 0 {
                return self
                    .turn_of_keys(&after, now, after_empty, None, plies - 1)
                    .before_first_roll();
            }
            let future = match last {
                Some((lc, lk, f)) if lc == c && lk == next => f,
                _ => {
                    let f = self.column_future(c, next, after_empty, &stage);
                    last = Some((c, next, f));
                    f
                }
            };
            now + total_future - futures[c] - slip_now + slip_after[cell.jbox.index()] + future
        })
    }

    /// Every legal option after rolling `dice` as roll number `roll_number` of `sheet`'s turn
    /// (without an announcement; roll 1 pure, later rolls reached by keeping some dice), with
    /// its value in expected final points of the slip: first each cell the dice may be
    /// written in (column by column, top to bottom), then, while the sheet may roll again,
    /// every distinct keep of the dice (ascending keep index; keeping all dice included).
    pub fn options(
        &self,
        sheet: &JambSheet,
        dice: &Dice,
        roll_number: u8,
        cache: &mut JambTurnCache,
    ) -> Vec<(Choice, f64)> {
        self.options_at(sheet, dice, JambTurn::at_roll(roll_number), cache)
    }

    /// Every legal option after rolling `dice` at `moment` of `sheet`'s turn, in the order of
    /// [`JambOracle::options`] (after an announcement, only the announced cell is written);
    /// the announcements of roll 1 are [`JambOracle::announcements`].
    pub fn options_at(
        &self,
        sheet: &JambSheet,
        dice: &Dice,
        moment: JambTurn,
        cache: &mut JambTurnCache,
    ) -> Vec<(Choice, f64)> {
        match self.turn(sheet, cache) {
            Some(turn) => turn.options_at(&self.points, moment, dice),
            None => Vec::new(),
        }
    }

    /// Every box that may be announced after a first roll of `dice` on `sheet`, with the value
    /// of announcing it (column by column, top to bottom; none without an Announce column).
    pub fn announcements(
        &self,
        sheet: &JambSheet,
        dice: &Dice,
        cache: &mut JambTurnCache,
    ) -> Vec<(Cell, f64)> {
        let mut out = Vec::new();
        if let Some(turn) = self.turn(sheet, cache) {
            turn.for_each_announcement(dice, |cell, v| out.push((cell, v)));
        }
        out
    }

    /// The best option at `moment` of the turn (the first listed among equals; announcements
    /// not included, see [`JambOracle::best_announcement`]) and its value.
    pub fn best_at(
        &self,
        sheet: &JambSheet,
        dice: &Dice,
        moment: JambTurn,
        cache: &mut JambTurnCache,
    ) -> Option<(Choice, f64)> {
        self.turn(sheet, cache)?.best_at(&self.points, moment, dice)
    }

    /// The best announcement after a first roll of `dice` (the first listed among equals) and
    /// its value; `None` without a box to announce.
    pub fn best_announcement(
        &self,
        sheet: &JambSheet,
        dice: &Dice,
        cache: &mut JambTurnCache,
    ) -> Option<(Cell, f64)> {
        self.turn(sheet, cache)?.best_announcement(dice)
    }

    /// The box the oracle announces after a first roll of `dice`: its best announcement when
    /// worth more than every other option of roll 1 (ties go to not announcing), with its value.
    pub fn announcement_to_make(
        &self,
        sheet: &JambSheet,
        dice: &Dice,
        cache: &mut JambTurnCache,
    ) -> Option<(Cell, f64)> {
        let (cell, value) = self.best_announcement(sheet, dice, cache)?;
        let best = self.best_at(sheet, dice, JambTurn::at_roll(1), cache);
        best.is_none_or(|(_, b)| value > b).then_some((cell, value))
    }

    /// The best option (the first listed among equals) and its value.
    pub fn best(
        &self,
        sheet: &JambSheet,
        dice: &Dice,
        roll_number: u8,
        cache: &mut JambTurnCache,
    ) -> Option<(Choice, f64)> {
        self.turn(sheet, cache)?
            .best(&self.points, roll_number, dice)
    }

    /// The value before roll `roll_number` of `sheet`'s turn (no announcement): before roll 1
    /// (`kept` `None`), or before a later roll with `kept` held (the value of that keep).
    /// `None` when there is no such moment (a complete slip, a reroll the rules refuse, a keep
    /// of more dice than the rules roll).
    pub fn before_roll(
        &self,
        sheet: &JambSheet,
        roll_number: u8,
        kept: Option<&Dice>,
        cache: &mut JambTurnCache,
    ) -> Option<f64> {
        self.before_roll_in(sheet, JambTurn::at_roll(roll_number), kept, cache)
    }

    /// The value before the roll of `moment` (its roll number and announcement): before roll 1
    /// (the announcement comes after it), or before a later roll with `kept` held after the
    /// roll before (nothing held when `None`): the value of that keep in the turn as announced.
    /// `None` when there is no such moment.
    pub fn before_roll_in(
        &self,
        sheet: &JambSheet,
        moment: JambTurn,
        kept: Option<&Dice>,
        cache: &mut JambTurnCache,
    ) -> Option<f64> {
        let turn = self.turn(sheet, cache)?;
        match moment.roll_number {
            0 => None,
            1 if kept.is_none_or(|k| k.is_empty()) => Some(turn.before_first_roll()),
            1 => None,
            n => {
                let before = JambTurn {
                    roll_number: n - 1,
                    pure: false,
                    ..moment
                };
                turn.keep_value_at(before, kept.unwrap_or(&Dice::default()))
            }
        }
    }

    /// The score table the oracle uses.
    pub fn points(&self) -> &BoxPoints {
        &self.points
    }
}

/// For each box, the number of columns among `keys` where it is empty.
fn empty_counts(keys: &[ColumnKey]) -> [u8; BOXES] {
    std::array::from_fn(|b| keys.iter().filter(|k| k.mask & (1 << b) == 0).count() as u8)
}

/// A simulated player that takes the oracle's best option (the first listed among equals).
pub struct OraclePlayer {
    oracle: Arc<JambOracle>,
    cache: JambTurnCache,
}

impl OraclePlayer {
    /// A player following `oracle`.
    pub fn new(oracle: Arc<JambOracle>) -> OraclePlayer {
        OraclePlayer {
            oracle,
            cache: JambTurnCache::default(),
        }
    }
}

impl JambPlayer for OraclePlayer {
    fn choose(
        &mut self,
        sheet: &JambSheet,
        dice: &Dice,
        roll_number: u8,
        rng: &mut ChaCha8Rng,
    ) -> Choice {
        self.choose_in(sheet, dice, JambTurn::at_roll(roll_number), rng)
    }

    fn choose_in(
        &mut self,
        sheet: &JambSheet,
        dice: &Dice,
        turn: JambTurn,
        _rng: &mut ChaCha8Rng,
    ) -> Choice {
        if let Some((choice, _)) = self.oracle.best_at(sheet, dice, turn, &mut self.cache) {
            return choice;
        }
        // No option: a complete or impossible slip; any legal cell (or none) will do.
        match sheet.legal_cells_in(turn).next() {
            Some(cell) => Choice::Write(cell),
            None => Choice::Keep(*dice),
        }
    }

    fn announce(
        &mut self,
        sheet: &JambSheet,
        dice: &Dice,
        _rng: &mut ChaCha8Rng,
    ) -> Option<JambBox> {
        let (cell, _) = self
            .oracle
            .announcement_to_make(sheet, dice, &mut self.cache)?;
        Some(cell.jbox)
    }
}

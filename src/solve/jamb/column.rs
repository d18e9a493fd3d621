//! The exact value of one Jamb column played alone: every remaining turn fills that column,
//! with the column's order of filling, and the player maximises the column's expected total.
//!
//! The states are the column's [`ColumnKey`]s with a reachable filled mask for its kind (prefixes
//! for Down and Up, a prefix and a suffix for Outer, an unbroken run through Max or Min for
//! Inner, any mask for Free and Hand). Tables are built backwards, one number of filled boxes
//! at a time, with the turn widget of [`crate::solve::widget`]: the keys of one mask are the
//! lanes of one widget run (in chunks), and the masks of one layer run in parallel.
//!
//! A value is the expected sum of the credits still to come ([`crate::solve::jamb::key`]):
//! [`ColumnTable::expected_total`] adds the column's total and its pending credit.

use super::key::{
    column_total, key_of, key_of_lane, keys_of_mask, lane_of_key, pending_credit, step, ColumnKey,
    MiddleRule, FULL,
};
use super::BoxPoints;
use crate::dice::EMPTY_KEEP;
use crate::rules::jamb::{
    AnnounceRule, ColumnKind, ColumnState, JambBox, JambRules, JambTurn, BOXES,
};
use crate::solve::simd::fn_with_avx2;
use crate::solve::widget::{
    expectation_before_first_roll, keeps_from_rolls, rolls_from_keeps, LaneStore,
};
use rayon::prelude::*;

/// Most lanes (keys) solved in one widget run: enough for the vector loops, few enough for the
/// run's 462 slots to stay in the cache.
const CHUNK: usize = 128;
/// Marks a mask the column cannot reach.
const UNREACHABLE: u32 = u32::MAX;

/// The reachable states of a column kind, and where each lies in a table.
#[derive(Clone, Debug)]
pub struct ColumnSpace {
    kind: ColumnKind,
    /// How the middle section counts (the keys of each mask depend on it).
    middle: MiddleRule,
    /// For an Announce column: whether its boxes take a pure hand (`None` for the others).
    announce: Option<bool>,
    /// For each filled mask, the boxes the column takes in a turn.
    allowed: Vec<u16>,
    /// Reachable masks, by number of filled boxes (index 0: none filled ... 13: full).
    layers: Vec<Vec<u16>>,
    /// For each of the 8192 masks: the table index of its first key, or [`UNREACHABLE`].
    offset: Vec<u32>,
    len: usize,
}

impl ColumnSpace {
    /// The states a `jamb-5` column of kind `kind` reaches from the empty column.
    pub fn new(kind: ColumnKind) -> ColumnSpace {
        ColumnSpace::from_mask(kind, 0)
    }

    /// The states a `jamb-5` column of kind `kind` reaches from filled mask `start` (tests use
    /// small spaces near the end of a column).
    pub fn from_mask(kind: ColumnKind, start: u16) -> ColumnSpace {
        ColumnSpace::of_rules(&JambRules::JAMB_5, kind, start)
    }

    /// The states a `jamb-5` column of kind `kind` reaches from filled mask `start`, its middle
    /// section counted by `middle`.
    pub fn with_middle(kind: ColumnKind, start: u16, middle: MiddleRule) -> ColumnSpace {
        let rules = JambRules {
            middle,
            ..JambRules::JAMB_5
        };
        ColumnSpace::of_rules(&rules, kind, start)
    }

    /// The states of an Announce column from filled mask `start`, the middle section counted
    /// by `middle`, its boxes taking a pure hand when `pure_hand` (see
    /// [`ColumnSpace::of_rules`]).
    pub fn announce(start: u16, middle: MiddleRule, pure_hand: bool) -> ColumnSpace {
        let rules = JambRules {
            middle,
            announce: if pure_hand {
                AnnounceRule::AnnouncedOrPureHand
            } else {
                AnnounceRule::AnnouncedOnly
            },
            ..JambRules::JAMB_5
        };
        ColumnSpace::of_rules(&rules, ColumnKind::Announce, start)
    }

    /// The states a column of kind `kind` under `rules` reaches from filled mask `start`: its
    /// order of filling (the rules' row order for Down and Up) and the keys of the rules'
    /// middle section. An Announce column takes its boxes in any order; its turn alone: after
    /// roll 1, write any empty box (a pure hand, when the rules allow it), or announce one and
    /// play the other rolls for it, or roll every die again (a roll of every die may be
    /// written in any empty box when the rules take pure hands).
    pub fn of_rules(rules: &JambRules, kind: ColumnKind, start: u16) -> ColumnSpace {
        let middle = rules.middle;
        let announce = (kind == ColumnKind::Announce)
            .then_some(rules.announce == AnnounceRule::AnnouncedOrPureHand);
        let allowed: Vec<u16> = (0..=FULL)
            .map(|mask| match announce {
                Some(_) => !mask & FULL,
                None => rules.allowed_boxes(kind, mask, JambTurn::at_roll(1)),
            })
            .collect();
        let mut layers = vec![Vec::new(); BOXES + 1];
        let mut seen = vec![false; usize::from(FULL) + 1];
        let start = start & FULL;
        seen[usize::from(start)] = true;
        layers[start.count_ones() as usize].push(start);
        for level in start.count_ones() as usize..BOXES {
            let mut next = Vec::new();
            for &mask in &layers[level] {
                for b in JambBox::ALL {
                    let m = mask | b.bit();
                    if allowed[usize::from(mask)] & b.bit() != 0 && !seen[usize::from(m)] {
                        seen[usize::from(m)] = true;
                        next.push(m);
                    }
                }
            }
            next.sort_unstable();
            layers[level + 1] = next;
        }
        let mut offset = vec![UNREACHABLE; usize::from(FULL) + 1];
        let mut len = 0usize;
        for layer in &layers {
            for &mask in layer {
                offset[usize::from(mask)] = len as u32;
                len += keys_of_mask(mask, middle);
            }
        }
        ColumnSpace {
            kind,
            middle,
            announce,
            allowed,
            layers,
            offset,
            len,
        }
    }

    /// The boxes the column takes in a turn from filled mask `mask`.
    fn allowed(&self, mask: u16) -> u16 {
        self.allowed.get(usize::from(mask)).copied().unwrap_or(0)
    }

    /// The column kind.
    pub fn kind(&self) -> ColumnKind {
        self.kind
    }

    /// For an Announce column, whether its boxes take a pure hand; `None` for the others.
    pub fn announce_rule(&self) -> Option<bool> {
        self.announce
    }

    /// How the middle section counts.
    pub fn middle(&self) -> MiddleRule {
        self.middle
    }

    /// Number of keys with filled boxes `mask`.
    pub(crate) fn keys_of_mask(&self, mask: u16) -> usize {
        keys_of_mask(mask, self.middle)
    }

    /// The key with filled boxes `mask` and lane `lane` (see [`key_of_lane`]).
    pub(crate) fn key_of_lane(&self, mask: u16, lane: usize) -> ColumnKey {
        key_of_lane(mask, lane, self.middle)
    }

    /// Number of states (keys) in the space.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the space holds no state (never for a built space).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of reachable filled masks.
    pub fn mask_count(&self) -> usize {
        self.layers.iter().map(Vec::len).sum()
    }

    /// The table index of `key`; `None` outside the space.
    pub fn index(&self, key: ColumnKey) -> Option<usize> {
        let base = *self.offset.get(usize::from(key.mask))?;
        if base == UNREACHABLE {
            return None;
        }
        let lane = lane_of_key(key, self.middle);
        (lane < self.keys_of_mask(key.mask)).then_some(base as usize + lane)
    }

    /// The reachable masks with `filled` boxes filled.
    pub fn layer(&self, filled: usize) -> &[u16] {
        self.layers.get(filled).map_or(&[], Vec::as_slice)
    }
}

/// The optimal expected future of every state of one column kind played alone.
#[derive(Clone, Debug)]
pub struct ColumnTable {
    space: ColumnSpace,
    values: Vec<f64>,
}

/// One widget run of a build: `lanes` keys of `mask`, from lane `first`.
#[derive(Clone, Copy, Debug)]
struct Run {
    mask: u16,
    first: usize,
    lanes: usize,
}

impl ColumnTable {
    /// Builds the table of a column of kind `kind` under `rules`' scoring. `progress` is called
    /// with the widget runs done so far and their total.
    pub fn build(
        rules: &JambRules,
        kind: ColumnKind,
        progress: &(dyn Fn(u64, u64) + Sync),
    ) -> ColumnTable {
        ColumnTable::build_space(rules, ColumnSpace::of_rules(rules, kind, 0), progress)
    }

    /// Builds the table of the states of `space`.
    pub fn build_space(
        rules: &JambRules,
        space: ColumnSpace,
        progress: &(dyn Fn(u64, u64) + Sync),
    ) -> ColumnTable {
        let mut levels = build_levels(rules, &space, Slack::NONE, progress);
        let values = levels.pop().unwrap_or_default();
        ColumnTable { space, values }
    }

    /// The tables of a column that may also let turns pass: table `s` (0..=`slack`) values a
    /// column that may skip `s` more turns than it has empty boxes, each skipped turn worth
    /// `skip_value` points (table 0 is [`ColumnTable::build`]'s).
    pub(crate) fn build_with_slack(
        rules: &JambRules,
        kind: ColumnKind,
        slack: Slack,
        progress: &(dyn Fn(u64, u64) + Sync),
    ) -> Vec<ColumnTable> {
        let space = ColumnSpace::of_rules(rules, kind, 0);
        build_levels(rules, &space, slack, progress)
            .into_iter()
            .map(|values| ColumnTable {
                space: space.clone(),
                values,
            })
            .collect()
    }

    /// Number of widget runs building the table of `space` takes (for progress reports).
    pub fn runs(space: &ColumnSpace) -> u64 {
        (0..BOXES)
            .flat_map(|f| space.layer(f))
            .map(|&mask| space.keys_of_mask(mask).div_ceil(CHUNK) as u64)
            .sum()
    }

    /// The same table with every value rounded to `f32` (as the slack tables are stored).
    pub(crate) fn rounded_to_f32(&self) -> ColumnTable {
        ColumnTable {
            space: self.space.clone(),
            values: self.values.iter().map(|&v| f64::from(v as f32)).collect(),
        }
    }

    /// The table's states.
    pub fn space(&self) -> &ColumnSpace {
        &self.space
    }

    /// The column kind.
    pub fn kind(&self) -> ColumnKind {
        self.space.kind
    }

    /// Every value, by table index.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// A table from its space and values (as [`ColumnTable::values`] gave them); `None` if
    /// the lengths differ.
    pub(crate) fn from_parts(space: ColumnSpace, values: Vec<f64>) -> Option<ColumnTable> {
        (values.len() == space.len()).then_some(ColumnTable { space, values })
    }

    /// Expected credits still to come from state `key` (0 for a full column); `None` outside
    /// the table.
    pub fn value(&self, key: ColumnKey) -> Option<f64> {
        self.space.index(key).map(|i| self.values[i])
    }

    /// Expected points still to come in `column` played alone, beyond its current total
    /// (pending middle credit included); `None` for a column outside the table.
    pub fn future(&self, column: &ColumnState) -> Option<f64> {
        let middle = self.space.middle;
        let key = key_of(column, middle)?;
        Some(f64::from(pending_credit(column, middle)) + self.value(key)?)
    }

    /// Expected final total of `column` played alone, optimally.
    pub fn expected_total(&self, column: &ColumnState) -> Option<f64> {
        let total = column_total(column, self.space.middle);
        Some(f64::from(total) + self.future(column)?)
    }
}

/// A column model that may let turns pass (see `ColumnTable::build_with_slack`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slack {
    /// Most turns the column may let pass (tables 0..=turns are built).
    pub turns: usize,
    /// Points for each turn let pass.
    pub skip_value: f64,
    /// The roll (1..=3) after which a turn may be let pass (3: after any roll).
    pub pass_after: u8,
}

impl Slack {
    /// No turn may pass: the plain one-column values.
    pub(crate) const NONE: Slack = Slack {
        turns: 0,
        skip_value: 0.0,
        pass_after: 3,
    };
}

/// The values of every state of `space` for slack 0..=`slack` (see
/// [`ColumnTable::build_with_slack`]).
fn build_levels(
    rules: &JambRules,
    space: &ColumnSpace,
    slack_model: Slack,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Vec<Vec<f64>> {
    let Slack {
        turns: slack,
        skip_value,
        pass_after,
    } = slack_model;
    let points = BoxPoints::new(rules);
    let mut values = vec![vec![0.0f64; space.len()]; slack + 1];
    let runs_of = |layer: &[u16]| -> Vec<Run> {
        layer
            .iter()
            .flat_map(|&mask| {
                let n = space.keys_of_mask(mask);
                (0..n).step_by(CHUNK).map(move |first| Run {
                    mask,
                    first,
                    lanes: CHUNK.min(n - first),
                })
            })
            .collect()
    };
    let layers: Vec<Vec<Run>> = (0..BOXES).map(|f| runs_of(space.layer(f))).collect();
    let total: u64 = layers.iter().map(|l| l.len() as u64).sum::<u64>() * (slack as u64 + 1);
    let mut done = 0u64;
    for layer in layers.iter().rev() {
        for s in 0..=slack {
            let (lower, rest) = values.split_at_mut(s);
            let below = lower.last();
            let table = &rest[0];
            let solved: Vec<Vec<f64>> = layer
                .par_iter()
                .map_init(
                    || Scratch::new(points.dice()),
                    |store, run| {
                        let floor = below.map(|b| {
                            let start = space
                                .index(space.key_of_lane(run.mask, run.first))
                                .unwrap_or(0);
                            b[start..start + run.lanes]
                                .iter()
                                .map(|v| v + skip_value)
                                .collect::<Vec<f64>>()
                        });
                        let pass = floor.as_deref().map(|f| (f, pass_after));
                        solve_run_fast(&points, space, table, *run, pass, store)
                    },
                )
                .collect();
            for (run, v) in layer.iter().zip(solved) {
                if let Some(start) = space.index(space.key_of_lane(run.mask, run.first)) {
                    rest[0][start..start + run.lanes].copy_from_slice(&v);
                }
            }
            done += layer.len() as u64;
            progress(done, total);
        }
    }
    values
}

/// The widget stores of one worker: the turn's, and for an Announce column the pure rolls'
/// and the announced box's.
struct Scratch {
    turn: LaneStore<f64>,
    pure: LaneStore<f64>,
    announced: LaneStore<f64>,
}

impl Scratch {
    fn new(dice: &'static crate::dice::DiceSpace) -> Scratch {
        Scratch {
            turn: LaneStore::new(dice, 0),
            pure: LaneStore::new(dice, 0),
            announced: LaneStore::new(dice, 0),
        }
    }
}

fn_with_avx2!(
/// [`solve_run`] compiled for AVX2 when the CPU has it (the same operations in the same order,
/// so the same results).
fn solve_run_fast = solve_run(
    points: &BoxPoints, space: &ColumnSpace, table: &[f64], run: Run,
    pass: Option<(&[f64], u8)>, store: &mut Scratch,
) -> Vec<f64>);

/// The values of writing each class of each allowed box, lane by lane: `arena[off + c * lanes
/// + lane]` for box at offset `off` and class `c`.
struct Writes {
    lanes: usize,
    boxes: Vec<(JambBox, usize)>,
    arena: Vec<f64>,
}

impl Writes {
    fn new(points: &BoxPoints, space: &ColumnSpace, table: &[f64], run: Run) -> Writes {
        let allowed = space.allowed(run.mask);
        let keys: Vec<ColumnKey> = (run.first..run.first + run.lanes)
            .map(|lane| space.key_of_lane(run.mask, lane))
            .collect();
        let mut boxes = Vec::new();
        let mut arena = Vec::new();
        for b in JambBox::ALL.into_iter().filter(|b| allowed & b.bit() != 0) {
            boxes.push((b, arena.len()));
            for &p in points.values(b) {
                arena.extend(keys.iter().map(|&key| {
                    step(key, b, p, space.middle)
                        .and_then(|(credit, next)| {
                            let future = if next.is_full() {
                                0.0
                            } else {
                                table[space.index(next)?]
                            };
                            Some(f64::from(credit) + future)
                        })
                        .unwrap_or(f64::NEG_INFINITY)
                }));
            }
        }
        Writes {
            lanes: run.lanes,
            boxes,
            arena,
        }
    }

    /// Raises the slots of `rolls` to the best box for dice of roll number `n` (after setting
    /// them to `fresh`, minus infinity or the value of letting the turn pass, when given).
    #[inline(always)]
    fn fill(
        &self,
        points: &BoxPoints,
        store: &mut LaneStore<f64>,
        n: u8,
        rolls: impl Iterator<Item = usize>,
        fresh: Option<Option<&[f64]>>,
    ) {
        let l = self.lanes;
        let first_roll = points.dice().first_roll();
        for r in rolls {
            let out = store.slot_mut(first_roll + r);
            match fresh {
                Some(Some(floor)) => out.copy_from_slice(floor),
                Some(None) => out.fill(f64::NEG_INFINITY),
                None => {}
            }
            for &(b, off) in &self.boxes {
                let c = points.class(b, n, r);
                let src = &self.arena[off + c * l..off + (c + 1) * l];
                for (o, &v) in out.iter_mut().zip(src) {
                    *o = if v > *o { v } else { *o };
                }
            }
        }
    }

    /// Raises every roll slot to the value of writing it on roll number `n` in the box at
    /// `boxes[i]` alone.
    #[inline(always)]
    fn fill_box(&self, points: &BoxPoints, store: &mut LaneStore<f64>, n: u8, i: usize) {
        let l = self.lanes;
        let (b, off) = self.boxes[i];
        let first_roll = points.dice().first_roll();
        for r in 0..points.dice().roll_count() {
            let c = points.class(b, n, r);
            let src = &self.arena[off + c * l..off + (c + 1) * l];
            for (o, &v) in store.slot_mut(first_roll + r).iter_mut().zip(src) {
                *o = if v > *o { v } else { *o };
            }
        }
    }
}

/// Sets every roll slot of `store` to minus infinity.
#[inline(always)]
fn clear_rolls(points: &BoxPoints, store: &mut LaneStore<f64>) {
    let first_roll = points.dice().first_roll();
    for r in 0..points.dice().roll_count() {
        store.slot_mut(first_roll + r).fill(f64::NEG_INFINITY);
    }
}

/// The values of the keys of one run of an Announce column (its turn alone: see
/// [`ColumnSpace::announce`]). The roll slots of `scratch.turn` hold the values of rolls reached
/// by keeping some dice (no box takes them: only letting the turn pass, when allowed); those
/// reached by rolling every die are worth the best box too when `pure_hand`, and the empty
/// keep's value is their mean. On roll 1 each empty box may be announced: a turn over that box
/// alone.
#[inline(always)]
fn solve_announce_run(
    points: &BoxPoints,
    writes: &Writes,
    pure_hand: bool,
    floor_at: &dyn Fn(u8, &mut LaneStore<f64>),
    scratch: &mut Scratch,
) -> Vec<f64> {
    let dice = points.dice();
    let first_roll = dice.first_roll();
    let lanes = writes.lanes;
    let all_rolls = || 0..dice.roll_count();
    // The best announcement of each first roll.
    let mut announce_best = vec![f64::NEG_INFINITY; dice.roll_count() * lanes];
    let announced = &mut scratch.announced;
    announced.fit(dice, lanes);
    for i in 0..writes.boxes.len() {
        clear_rolls(points, announced);
        writes.fill_box(points, announced, 3, i);
        for n in [2u8, 1] {
            keeps_from_rolls(announced);
            writes.fill_box(points, announced, n, i);
            rolls_from_keeps(announced);
        }
        for (r, best) in announce_best.chunks_exact_mut(lanes).enumerate() {
            for (o, &v) in best.iter_mut().zip(announced.slot(first_roll + r)) {
                *o = if v > *o { v } else { *o };
            }
        }
    }
    let (turn, pure) = (&mut scratch.turn, &mut scratch.pure);
    pure.fit(dice, lanes);
    clear_rolls(points, turn);
    floor_at(3, turn);
    for n in [2u8, 1] {
        // The mean of the next roll's values when every die is rolled.
        for r in all_rolls() {
            pure.slot_mut(first_roll + r)
                .copy_from_slice(turn.slot(first_roll + r));
        }
        if pure_hand {
            writes.fill(points, pure, n + 1, all_rolls(), None);
        }
        expectation_before_first_roll(pure);
        keeps_from_rolls(turn);
        turn.slot_mut(EMPTY_KEEP)
            .copy_from_slice(pure.slot(EMPTY_KEEP));
        floor_at(n, turn);
        rolls_from_keeps(turn);
    }
    // Roll 1 is a roll of every die, and the moment to announce.
    if pure_hand {
        writes.fill(points, turn, 1, all_rolls(), None);
    }
    for (r, best) in announce_best.chunks_exact(lanes).enumerate() {
        for (o, &v) in turn.slot_mut(first_roll + r).iter_mut().zip(best) {
            *o = if v > *o { v } else { *o };
        }
    }
    expectation_before_first_roll(turn);
    turn.slot(EMPTY_KEEP).to_vec()
}

/// The values of the keys of one run.
#[inline(always)]
fn solve_run(
    points: &BoxPoints,
    space: &ColumnSpace,
    table: &[f64],
    run: Run,
    pass: Option<(&[f64], u8)>,
    scratch: &mut Scratch,
) -> Vec<f64> {
    let dice = points.dice();
    scratch.turn.fit(dice, run.lanes);
    let writes = Writes::new(points, space, table, run);
    // Letting the turn pass after roll `at`: every roll slot raised to the floor.
    let floor_at = |at: u8, store: &mut LaneStore<f64>| {
        if let Some((floor, after)) = pass {
            if after == at {
                for r in 0..dice.roll_count() {
                    for (o, &f) in store.slot_mut(dice.first_roll() + r).iter_mut().zip(floor) {
                        *o = if f > *o { f } else { *o };
                    }
                }
            }
        }
    };
    if let Some(pure_hand) = space.announce {
        return solve_announce_run(points, &writes, pure_hand, &floor_at, scratch);
    }
    let store = &mut scratch.turn;
    if space.kind == ColumnKind::Hand {
        // One roll a turn: the Hand column takes only the first roll's dice.
        writes.fill(points, store, 1, 0..dice.roll_count(), Some(None));
        floor_at(1, store);
        floor_at(2, store);
        floor_at(3, store);
    } else {
        writes.fill(points, store, 3, 0..dice.roll_count(), Some(None));
        floor_at(3, store);
        for n in [2u8, 1] {
            keeps_from_rolls(store);
            // Writing now instead of keeping everything: better on the straights.
            let differ = points.differ_from_next(n).iter().copied();
            writes.fill(points, store, n, differ, None);
            floor_at(n, store);
            rolls_from_keeps(store);
        }
    }
    expectation_before_first_roll(store);
    store.slot(EMPTY_KEEP).to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::brute_force::sorted_rerolls;
    use crate::dice::Dice;
    use crate::rules::jamb::JambBox::*;
    use std::collections::HashMap;

    /// A column of `kind` played alone by plain expectimax over ordered dice outcomes, every
    /// subset of dice positions kept and every allowed box, memoised on the exact column
    /// (values and all): shares nothing with the widget, the keys or the dice tables.
    struct Brute {
        rules: JambRules,
        kind: ColumnKind,
        middle: MiddleRule,
        columns: HashMap<ColumnState, f64>,
    }

    /// One turn's memo: values of (roll number, sorted dice) and of (roll number, sorted keep).
    #[derive(Default)]
    struct TurnMemo {
        held: HashMap<(u8, [u8; 5]), f64>,
        kept: HashMap<(u8, Vec<u8>), f64>,
    }

    impl Brute {
        fn new(rules: JambRules, kind: ColumnKind, middle: MiddleRule) -> Brute {
            Brute {
                rules,
                kind,
                middle,
                columns: HashMap::new(),
            }
        }

        /// Expected final total of `column` played alone.
        fn total(&mut self, column: ColumnState) -> f64 {
            if column.is_complete() {
                return f64::from(final_total(&column, self.middle));
            }
            if let Some(&v) = self.columns.get(&column) {
                return v;
            }
            let mut memo = TurnMemo::default();
            let v = self.reroll(&mut memo, column, 0, &[]);
            self.columns.insert(column, v);
            v
        }

        /// Mean over the ordered outcomes of rolling the dice not in `kept`, which then show
        /// as roll number `n + 1`.
        fn reroll(&mut self, memo: &mut TurnMemo, column: ColumnState, n: u8, kept: &[u8]) -> f64 {
            let mut key = kept.to_vec();
            key.sort_unstable();
            if let Some(&v) = memo.kept.get(&(n, key.clone())) {
                return v;
            }
            let free = 5 - key.len();
            let count = 6usize.pow(free as u32);
            let sum: f64 = sorted_rerolls(&key, free)
                .map(|faces| self.decide(memo, column, n + 1, faces.try_into().unwrap()))
                .sum();
            let v = sum / count as f64;
            memo.kept.insert((n, key), v);
            v
        }

        /// Best of writing `dice` (roll number `n`) in an allowed box or keeping any subset of
        /// positions and rolling again.
        fn decide(
            &mut self,
            memo: &mut TurnMemo,
            column: ColumnState,
            n: u8,
            dice: [u8; 5],
        ) -> f64 {
            if let Some(&v) = memo.held.get(&(n, dice)) {
                return v;
            }
            let d = Dice::from_faces(&dice).unwrap();
            let allowed = self.kind.allowed_boxes(column.filled_mask(), n);
            let mut best = f64::NEG_INFINITY;
            for b in JambBox::ALL {
                if allowed & b.bit() != 0 {
                    let points = self.rules.points(b, &d, n).unwrap();
                    best = best.max(self.total(column.with(b, points).unwrap()));
                }
            }
            let hand = self.kind == ColumnKind::Hand;
            if n < 3 && !hand {
                for subset in 0..32u32 {
                    let kept: Vec<u8> = (0..5)
                        .filter(|i| subset & (1 << i) != 0)
                        .map(|i| dice[i])
                        .collect();
                    best = best.max(self.reroll(memo, column, n, &kept));
                }
            }
            memo.held.insert((n, dice), best);
            best
        }
    }

    /// A column with the given (box, points).
    fn column(values: &[(JambBox, i32)]) -> ColumnState {
        values
            .iter()
            .fold(ColumnState::default(), |c, &(b, p)| c.with(b, p).unwrap())
    }

    /// The column `base` and everything filled but `empty`, filled boxes not in `base` with 0
    /// points (Max and Min with 5 when not in `base`).
    fn all_but(base: &[(JambBox, i32)], empty: &[JambBox]) -> ColumnState {
        let mut c = column(base);
        for b in JambBox::ALL {
            if !empty.contains(&b) && !c.is_filled(b) {
                let p = if matches!(b, Max | Min) { 5 } else { 0 };
                c = c.with(b, p).unwrap();
            }
        }
        c
    }

    /// The total of a full column, by hand: a negative middle section counts 0 under
    /// [`MiddleRule::NeverNegative`].
    fn final_total(column: &ColumnState, middle: MiddleRule) -> i32 {
        let section = column.middle();
        match middle {
            MiddleRule::AsIs => column.total(),
            MiddleRule::NeverNegative => column.total() - section + section.max(0),
        }
    }

    /// Compares the table built from `start`'s mask with brute force at `start`.
    fn check(kind: ColumnKind, start: ColumnState) {
        check_with(kind, start, MiddleRule::AsIs);
    }

    /// Compares the table built from `start`'s mask with brute force at `start`, the middle
    /// section counted by `middle`.
    fn check_with(kind: ColumnKind, start: ColumnState, middle: MiddleRule) {
        let rules = JambRules::JAMB_5;
        let space = ColumnSpace::with_middle(kind, start.filled_mask(), middle);
        let table = ColumnTable::build_space(&rules, space, &|_, _| {});
        let want = Brute::new(rules, kind, middle).total(start);
        let got = table.expected_total(&start).unwrap();
        assert!(
            (got - want).abs() < 1e-9,
            "{kind:?} {start:?}: table {got} brute force {want}"
        );
    }

    #[test]
    fn down_last_four_boxes_match_brute_force() {
        let start = all_but(
            &[(Ones, 2), (Sixes, 24)],
            &[Straight, ThreeKind, FourKind, Jamb],
        );
        check(ColumnKind::Down, start);
    }

    #[test]
    fn up_last_three_with_bonus_and_middle_pending_match_brute_force() {
        // Upper sum 48 so far (needs 12 more from 1s, 2s and 3s), Max 27 and Min 9 written.
        let start = all_but(
            &[(Fours, 12), (Fives, 15), (Sixes, 18), (Max, 27), (Min, 9)],
            &[Ones, Twos, Threes],
        );
        check(ColumnKind::Up, start);
    }

    #[test]
    fn free_ones_max_min_match_brute_force() {
        let start = all_but(&[(Sixes, 30), (Fives, 25)], &[Ones, Max, Min]);
        check(ColumnKind::Free, start);
    }

    #[test]
    fn never_negative_middle_matches_brute_force() {
        // Ones, Max and Min left, and Max left with Min above most Max sums.
        let start = all_but(&[(Sixes, 30), (Fives, 25)], &[Ones, Max, Min]);
        check_with(ColumnKind::Free, start, MiddleRule::NeverNegative);
        let start = all_but(&[(Ones, 4), (Min, 24)], &[Max, Jamb]);
        check_with(ColumnKind::Free, start, MiddleRule::NeverNegative);
        let start = all_but(&[(Max, 12)], &[Ones, Min, Twos]);
        check_with(ColumnKind::Free, start, MiddleRule::NeverNegative);
    }

    /// An Announce column played alone by plain expectimax over ordered dice outcomes (its own
    /// reading of the turn: write any empty box with a roll of every die when `pure_hand`, or
    /// announce a box after roll 1 and write it at the end of the turn).
    struct AnnounceBrute {
        rules: JambRules,
        pure_hand: bool,
        middle: MiddleRule,
        columns: HashMap<ColumnState, f64>,
    }

    /// One turn's memo of the Announce brute force: (roll number, sorted dice or keep, pure,
    /// announced box).
    type AnnounceMemo = HashMap<(bool, u8, Vec<u8>, bool, Option<JambBox>), f64>;

    impl AnnounceBrute {
        fn total(&mut self, column: ColumnState) -> f64 {
            if column.is_complete() {
                return f64::from(final_total(&column, self.middle));
            }
            if let Some(&v) = self.columns.get(&column) {
                return v;
            }
            let v = self.reroll(&mut HashMap::new(), column, 0, &[], None);
            self.columns.insert(column, v);
            v
        }

        fn reroll(
            &mut self,
            memo: &mut AnnounceMemo,
            column: ColumnState,
            n: u8,
            kept: &[u8],
            announced: Option<JambBox>,
        ) -> f64 {
            let mut kept = kept.to_vec();
            kept.sort_unstable();
            let pure = kept.is_empty();
            let key = (false, n, kept.clone(), pure, announced);
            if let Some(&v) = memo.get(&key) {
                return v;
            }
            let free = 5 - kept.len();
            let count = 6usize.pow(free as u32);
            let sum: f64 = sorted_rerolls(&kept, free)
                .map(|faces| self.decide(memo, column, n + 1, &faces, pure, announced))
                .sum();
            let v = sum / count as f64;
            memo.insert(key, v);
            v
        }

        fn decide(
            &mut self,
            memo: &mut AnnounceMemo,
            column: ColumnState,
            n: u8,
            dice: &[u8],
            pure: bool,
            announced: Option<JambBox>,
        ) -> f64 {
            let key = (true, n, dice.to_vec(), pure, announced);
            if let Some(&v) = memo.get(&key) {
                return v;
            }
            let d = Dice::from_faces(dice).unwrap();
            let empty: Vec<JambBox> = JambBox::ALL
                .into_iter()
                .filter(|&b| !column.is_filled(b))
                .collect();
            let mut best = f64::NEG_INFINITY;
            let writable: Vec<JambBox> = match announced {
                Some(b) => vec![b],
                None if pure && self.pure_hand => empty.clone(),
                None => Vec::new(),
            };
            for b in writable {
                let points = self.rules.points(b, &d, n).unwrap();
                best = best.max(self.total(column.with(b, points).unwrap()));
            }
            if n == 1 && announced.is_none() {
                for &b in &empty {
                    best = best.max(self.decide(memo, column, 1, dice, true, Some(b)));
                }
            }
            if n < 3 {
                for subset in 0..32u32 {
                    let kept: Vec<u8> = (0..5)
                        .filter(|i| subset & (1 << i) != 0)
                        .map(|i| dice[i])
                        .collect();
                    best = best.max(self.reroll(memo, column, n, &kept, announced));
                }
            }
            memo.insert(key, best);
            best
        }
    }

    /// Compares the Announce column's table from `start`'s mask with its brute force.
    fn check_announce(start: ColumnState, middle: MiddleRule, pure_hand: bool) {
        let rules = JambRules::JAMB_5;
        let space = ColumnSpace::announce(start.filled_mask(), middle, pure_hand);
        let table = ColumnTable::build_space(&rules, space, &|_, _| {});
        let mut brute = AnnounceBrute {
            rules,
            pure_hand,
            middle,
            columns: HashMap::new(),
        };
        let want = brute.total(start);
        let got = table.expected_total(&start).unwrap();
        assert!(
            (got - want).abs() < 1e-9,
            "Announce {start:?}: table {got} brute force {want}"
        );
    }

    #[test]
    fn announce_column_alone_matches_brute_force() {
        let start = all_but(&[(Sixes, 24), (Fives, 20)], &[Straight, Jamb]);
        check_announce(start, MiddleRule::AsIs, true);
        check_announce(start, MiddleRule::AsIs, false);
        let start = all_but(&[(Fours, 16), (Fives, 25)], &[Ones, Max, Min]);
        check_announce(start, MiddleRule::NeverNegative, true);
        let start = all_but(&[(Max, 14)], &[Ones, Twos, Min]);
        check_announce(start, MiddleRule::NeverNegative, false);
    }

    #[test]
    fn free_straight_and_upper_with_bonus_match_brute_force() {
        let start = all_but(
            &[(Ones, 3), (Max, 26), (Min, 8), (Fours, 16), (Fives, 20)],
            &[Twos, Straight, Sixes],
        );
        check(ColumnKind::Free, start);
    }

    #[test]
    fn hand_one_roll_turns_match_brute_force() {
        let start = all_but(&[(Ones, 4), (Min, 7)], &[Max, Straight, Jamb]);
        check(ColumnKind::Hand, start);
        let start = all_but(&[(Max, 25)], &[Ones, Min, Sixes]);
        check(ColumnKind::Hand, start);
    }

    #[test]
    fn outer_middle_boxes_match_brute_force() {
        let start = all_but(&[(Ones, 5)], &[Max, Min, Straight]);
        check(ColumnKind::Outer, start);
    }

    #[test]
    fn inner_both_ends_match_brute_force() {
        // Twos, Ones at the top and Jamb at the bottom left: the run grows either way.
        let start = all_but(&[(Max, 28), (Min, 6), (Threes, 9)], &[Ones, Twos, Jamb]);
        check(ColumnKind::Inner, start);
    }

    #[test]
    fn reachable_masks_and_states_per_kind() {
        let masks: Vec<usize> = ColumnKind::ALL
            .iter()
            .map(|&k| ColumnSpace::new(k).mask_count())
            .collect();
        // Down, Up: 14 prefixes; Free, Hand: all; Outer: prefix + suffix, (14 * 15) / 2;
        // Outer: a prefix of p and a suffix of s boxes, p + s <= 13, the full column counted
        // once (105 - 13); Inner: the empty mask and the runs [a, b] through box 6 or 7
        // (7 * 7 + 6).
        assert_eq!(masks, [14, 14, 8192, 8192, 92, 56, 8192]);
    }

    #[test]
    fn a_full_column_is_worth_its_total() {
        let c = all_but(&[(Ones, 3), (Max, 20), (Min, 10)], &[]);
        let space = ColumnSpace::from_mask(ColumnKind::Free, c.filled_mask());
        let table = ColumnTable::build_space(&JambRules::JAMB_5, space, &|_, _| {});
        assert_eq!(table.expected_total(&c), Some(f64::from(c.total())));
        assert_eq!(c.total(), 3 + (20 - 10) * 3);
    }
}

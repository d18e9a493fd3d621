//! The exact turn of a whole Jamb slip over its rolls, on top of any value of the slip after
//! the turn: given what writing each cell with each score is worth, [`SlipTurn`] runs the turn
//! widget once and then values every option of every decision of the turn.
//!
//! Writing is worth more on earlier rolls for the straight, and the Hand column takes only the
//! first roll's dice, so the value of writing a roll depends on the roll number: after each
//! pass of the widget the roll slots are raised to the value of writing on that roll number
//! (keeping all dice and rolling none is also a legal option, worth the same dice one roll
//! later).
//!
//! A turn may have more than three rolls (the last turn of a game whose rules give it five).
//!
//! An Announce column ([`TurnColumn::announce`]) takes dice in two ways. Its boxes take a
//! *pure hand*: the dice of a roll of every die (roll 1, or a roll after keeping nothing).
//! And after roll 1 the player may announce one of its empty boxes: the rest of the turn then
//! plays for that box alone, written at the end of the turn. So each roll has two values: the
//! value of the dice reached by keeping some of them ("impure": no Announce box), and reached
//! by rerolling everything ("pure"); the empty keep's value is the mean of the pure values,
//! every other keep's the mean of the impure ones. Each announceable box is a turn of its own
//! over one cell (one more widget run), whose value after roll 1 is one more option of roll 1.

use super::BoxPoints;
use crate::dice::{Dice, DiceSpace, EMPTY_KEEP};
use crate::rules::jamb::{Cell, ColumnKind, JambBox, JambTurn, MAX_ROLLS};
use crate::rules::Choice;
#[cfg(target_arch = "x86_64")]
use crate::solve::simd::Avx2;
use crate::solve::simd::{Lanes, Scalar};
use crate::solve::widget::{
    expectation_before_first_roll, keeps_from_rolls_tile, rolls_from_keeps_tile, SingleStore,
};

mod closed;
pub(crate) use closed::ClosedForms;
use closed::LaneSolve;

/// Most rolls a turn may have (a game's last turn of five rolls).
pub const MAX_TURN_ROLLS: u8 = 5;

/// One column of a slip as a turn sees it: which of its empty boxes take the dice of each roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnColumn {
    /// The column's filled boxes.
    pub mask: u16,
    /// The boxes that take the dice of roll 1 (without an announcement).
    pub first_roll: u16,
    /// The boxes that take the dice of any later roll reached by keeping some dice (without
    /// an announcement).
    pub later_rolls: u16,
    /// True for an Announce column: after roll 1 the player may announce one of its empty
    /// boxes, then written at the end of the turn.
    pub announce: bool,
    /// True when the column's empty boxes take a pure hand (a roll of every die) on any roll.
    pub pure_hand: bool,
}

impl TurnColumn {
    /// A column of `kind` with filled boxes `mask` under the five-dice rules (`jamb-4`,
    /// `jamb-5`: the boxes in slip order, no Announce column).
    pub fn plain(kind: ColumnKind, mask: u16) -> TurnColumn {
        TurnColumn {
            mask,
            first_roll: kind.allowed_boxes(mask, 1),
            later_rolls: kind.allowed_boxes(mask, 2),
            announce: false,
            pure_hand: false,
        }
    }

    /// An Announce column with filled boxes `mask`: its empty boxes may be announced, and
    /// take a pure hand when `pure_hand`.
    pub fn announce(mask: u16, pure_hand: bool) -> TurnColumn {
        let empty = !mask & super::key::FULL;
        TurnColumn {
            mask,
            first_roll: if pure_hand { empty } else { 0 },
            later_rolls: 0,
            announce: true,
            pure_hand,
        }
    }

    /// The boxes that take the dice of roll number `n` reached by keeping some dice (roll 1:
    /// the first roll).
    fn allowed(&self, n: u8) -> u16 {
        if n <= 1 {
            self.first_roll
        } else {
            self.later_rolls
        }
    }

    /// The boxes a turn may write in some way (on some roll, with a pure hand, or announced).
    pub(crate) fn writable(&self) -> u16 {
        let any = if self.announce || self.pure_hand {
            self.empty()
        } else {
            0
        };
        self.first_roll | self.later_rolls | any
    }

    /// The empty boxes.
    fn empty(&self) -> u16 {
        !self.mask & super::key::FULL
    }
}

/// One cell that may be written during the turn.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TurnCell {
    cell: Cell,
    /// Bit `n - 1` set when the cell takes dice of roll number `n`.
    rolls: u8,
    /// True for an Announce cell: it takes only a pure hand.
    pure: bool,
    /// Offset of the cell's values (one per point class of its box) in `write_values`.
    offset: usize,
}

/// What one turn of one slip asks of the values after it, before any value is known: the
/// cells each roll may be written in, the boxes that may be announced, and where each cell's
/// values (one per point class of its box) lie in the turn's write values.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TurnShape {
    /// Rolls in the turn.
    rolls: u8,
    /// The cells that take the dice of some roll (announcements aside).
    cells: Vec<TurnCell>,
    /// The cells that may be announced after roll 1, each with the offset of its values.
    announceable: Vec<(Cell, usize)>,
    /// Every cell with values, with their offset, in the order of the write values.
    valued: Vec<(Cell, usize)>,
    /// Number of write values.
    values_len: usize,
    /// `may_reroll[n - 1]`: whether a player may keep dice and roll again after roll `n`.
    may_reroll: Vec<bool>,
    /// True when some cell takes a pure hand.
    any_pure: bool,
}

impl TurnShape {
    /// The turn of a slip whose columns are `columns`, of `rolls` rolls (1 to
    /// [`MAX_TURN_ROLLS`]).
    pub(crate) fn new(points: &BoxPoints, columns: &[TurnColumn], rolls: u8) -> TurnShape {
        let rolls = rolls.clamp(1, MAX_TURN_ROLLS);
        let mut cells = Vec::new();
        let mut announceable = Vec::new();
        let mut valued = Vec::new();
        let mut values_len = 0;
        for (c, column) in columns.iter().enumerate() {
            let allowed: Vec<u16> = (1..=rolls).map(|n| column.allowed(n)).collect();
            let pure_hand = if column.pure_hand { column.empty() } else { 0 };
            let announced = if column.announce && rolls > 1 {
                column.empty()
            } else {
                0
            };
            for jbox in JambBox::ALL {
                let taken = allowed
                    .iter()
                    .enumerate()
                    .fold(0u8, |acc, (n, &a)| acc | u8::from(a & jbox.bit() != 0) << n);
                let pure = pure_hand & jbox.bit() != 0;
                let announceable_box = announced & jbox.bit() != 0;
                if taken == 0 && !pure && !announceable_box {
                    continue;
                }
                let cell = Cell {
                    column: c as u8,
                    jbox,
                };
                let offset = values_len;
                values_len += points.values(jbox).len();
                valued.push((cell, offset));
                if announceable_box {
                    announceable.push((cell, offset));
                }
                if taken != 0 || pure {
                    cells.push(TurnCell {
                        cell,
                        rolls: if pure { u8::MAX } else { taken },
                        pure,
                        offset,
                    });
                }
            }
        }
        let any_pure = cells.iter().any(|c| c.pure);
        let may_reroll = (1..rolls)
            .map(|n| any_pure || cells.iter().any(|c| c.rolls & (1 << n) != 0))
            .collect();
        TurnShape {
            rolls,
            cells,
            announceable,
            valued,
            values_len,
            may_reroll,
            any_pure,
        }
    }

    /// Number of write values the turn takes (one per score of every cell it may write).
    pub(crate) fn values_len(&self) -> usize {
        self.values_len
    }

    /// Calls `each(cell, points)` for every score of every cell the turn may write (announced
    /// cells included), in the order of the write values.
    pub(crate) fn for_each_write(&self, points: &BoxPoints, mut each: impl FnMut(Cell, i32)) {
        for &(cell, _) in &self.valued {
            for &p in points.values(cell.jbox) {
                each(cell, p);
            }
        }
    }

    /// The write values of the turn: `value(cell, points)` for every write of
    /// [`TurnShape::for_each_write`], in its order.
    pub(crate) fn write_values(
        &self,
        points: &BoxPoints,
        mut value: impl FnMut(Cell, i32) -> f64,
    ) -> Vec<f64> {
        let mut out = Vec::with_capacity(self.values_len);
        self.for_each_write(points, |cell, p| out.push(value(cell, p)));
        out
    }

    /// The value of writing each roll (by roll index) on roll number `n` in its best cell
    /// among the Announce cells (`pure`) or the others (minus infinity when no cell takes it).
    /// The cells of one box share their scores: their values are maximised per score first.
    fn best_writes(&self, points: &BoxPoints, write_values: &[f64], n: u8, pure: bool) -> Vec<f64> {
        let bit = 1 << (n - 1);
        let mut out = vec![f64::NEG_INFINITY; points.dice().roll_count()];
        let mut best = Vec::new();
        for jbox in JambBox::ALL {
            let len = points.values(jbox).len();
            best.clear();
            best.resize(len, f64::NEG_INFINITY);
            let mut taken = false;
            for c in &self.cells {
                if c.cell.jbox == jbox && c.rolls & bit != 0 && c.pure == pure {
                    raise(&mut best, &write_values[c.offset..c.offset + len]);
                    taken = true;
                }
            }
            if taken {
                for (o, &k) in out.iter_mut().zip(points.classes(jbox, n)) {
                    *o = o.max(best[usize::from(k)]);
                }
            }
        }
        out
    }

    /// The cells taking the dice of roll number `n` (1 and up): the Announce cells when `pure`,
    /// else the others.
    fn cells_on(&self, n: u8, pure: bool) -> impl Iterator<Item = &TurnCell> + '_ {
        let bit = 1u8 << (n - 1);
        self.cells
            .iter()
            .filter(move |c| c.pure == pure && c.rolls & bit != 0)
    }

    /// True when the same cells (Announce cells when `pure`, else the others) take the dice
    /// of roll numbers `a` and `b`.
    fn same_cells(&self, a: u8, b: u8, pure: bool) -> bool {
        let (a, b) = (1u8 << (a - 1), 1u8 << (b - 1));
        self.cells
            .iter()
            .filter(|c| c.pure == pure)
            .all(|c| (c.rolls & a != 0) == (c.rolls & b != 0))
    }

    /// [`TurnShape::best_writes`] for every roll number of the turn, by roll number.
    fn writes_by_roll(
        &self,
        points: &BoxPoints,
        write_values: &[f64],
        pure: bool,
    ) -> Vec<Vec<f64>> {
        let mut by_roll: Vec<Vec<f64>> = Vec::with_capacity(usize::from(self.rolls));
        for n in 1..=self.rolls {
            let values = match by_roll.last() {
                // Every roll after the third scores as the third.
                Some(last) if n > MAX_ROLLS => last.clone(),
                // The same cells as on the roll before: only the rolls scoring differently
                // (the straights) change.
                Some(last) if self.same_cells(n - 1, n, pure) => {
                    let mut values = last.clone();
                    let bit = 1 << (n - 1);
                    for &r in points.differ_from_next(n - 1) {
                        values[r] = self
                            .cells
                            .iter()
                            .filter(|c| c.rolls & bit != 0 && c.pure == pure)
                            .map(|c| write_values[c.offset + points.class(c.cell.jbox, n, r)])
                            .fold(f64::NEG_INFINITY, f64::max);
                    }
                    values
                }
                _ => self.best_writes(points, write_values, n, pure),
            };
            by_roll.push(values);
        }
        by_roll
    }
}

/// The rest of the turn after announcing each announceable box: a turn over that single cell,
/// in closed form where its values allow ([`ClosedForms`]), the others solved together by the
/// widget with a lane per box.
#[derive(Clone, Debug, Default)]
struct Announcements {
    /// The announceable cells, by lane, with the offset of each cell's values in
    /// `write_values`.
    cells: Vec<(Cell, usize)>,
    /// How each lane is valued, by lane.
    solves: Vec<LaneSolve>,
    /// The values of the lanes valued by the widget, a lane each in lane order.
    runs: AnnouncedRuns,
    /// `runs`' lane of each lane valued by the widget.
    widget_lane: Vec<usize>,
    /// Rolls in the turn.
    rolls: u8,
}

impl Announcements {
    /// The announced turns of `shape` with write values `write_values`, every roll kept; the
    /// turn's own lane `own` runs in the same tiles as the announced turns the widget values
    /// (in vectors unless told otherwise).
    fn solve(
        points: &BoxPoints,
        shape: &TurnShape,
        write_values: &[f64],
        (own, vectors): (&mut OwnLane, bool),
    ) -> Announcements {
        let lanes: Vec<AnnounceLane> = shape
            .announceable
            .iter()
            .map(|&(cell, offset)| AnnounceLane {
                values: write_values,
                cell,
                offset,
            })
            .collect();
        let forms = points.closed_forms();
        let solves: Vec<LaneSolve> = lanes
            .iter()
            .map(|l| forms.solve_of(points, shape.rolls, l))
            .collect();
        let mut by_widget = Vec::new();
        let mut widget_lane = Vec::with_capacity(lanes.len());
        for (lane, solve) in lanes.iter().zip(&solves) {
            widget_lane.push(by_widget.len());
            if matches!(solve, LaneSolve::Widget) {
                by_widget.push(*lane);
            }
        }
        Announcements {
            cells: shape.announceable.clone(),
            solves,
            runs: announced_runs_with(points, shape.rolls, &by_widget, true, vectors, Some(own)),
            widget_lane,
            rolls: shape.rolls,
        }
    }

    /// The lane of the announced box `jbox`, `None` when it may not be announced.
    fn lane(&self, jbox: JambBox) -> Option<usize> {
        self.cells.iter().position(|(cell, _)| cell.jbox == jbox)
    }

    /// The value of keep `k` (smaller than a roll) after roll `n` in lane `lane`.
    fn keep(&self, dice: &DiceSpace, n: u8, lane: usize, k: usize) -> Option<f64> {
        if n == 0 || n >= self.rolls || k >= dice.first_roll() {
            return None;
        }
        match self.solves.get(lane)? {
            LaneSolve::Widget => self.runs.keep(n, k, self.widget_lane[lane]),
            closed => closed.keep(dice, self.rolls, n, k),
        }
    }

    /// The value of roll `r` on roll number `n` in lane `lane`.
    fn roll(&self, dice: &DiceSpace, n: u8, lane: usize, r: usize) -> Option<f64> {
        if n == 0 || n > self.rolls || r >= dice.roll_count() {
            return None;
        }
        match self.solves.get(lane)? {
            LaneSolve::Widget => self.runs.roll(n, r, self.widget_lane[lane]),
            closed => closed.roll(dice, self.rolls, n, r),
        }
    }

    /// Raises `best` (one value per roll) to every lane's value of announcing after roll 1
    /// (the closed lanes read from `forms`).
    fn raise_first_roll(&self, forms: &ClosedForms, best: &mut [f64]) {
        for (solve, &lane) in self.solves.iter().zip(&self.widget_lane) {
            match solve {
                LaneSolve::Widget => {
                    for (r, b) in best.iter_mut().enumerate() {
                        if let Some(v) = self.runs.roll(1, r, lane) {
                            *b = b.max(v);
                        }
                    }
                }
                closed => closed.raise_first_roll(forms, self.rolls, best),
            }
        }
    }
}

/// One announced turn to solve: the announced cell and its values (from `offset` in `values`,
/// the write values of its slip's turn).
#[derive(Clone, Copy)]
struct AnnounceLane<'a> {
    values: &'a [f64],
    cell: Cell,
    offset: usize,
}

/// The values of announced turns solved together, a lane each (after the turn's own lane when
/// it ran with them, padded to whole vectors).
#[derive(Clone, Debug, Default)]
struct AnnouncedRuns {
    /// Values per slot.
    lanes: usize,
    /// The lane of the first announced turn (1 after the turn's own lane, else 0).
    first_lane: usize,
    /// `keep_values[n - 1][k * lanes + first_lane + i]`: keep `k` (smaller than a roll) after
    /// roll `n` (1..rolls) in announced turn `i`; empty when only roll 1 was kept.
    keep_values: Vec<Vec<f64>>,
    /// `roll_values[n - 1][r * lanes + first_lane + i]`: roll `r`'s best option on roll number
    /// `n` (1..=rolls) in announced turn `i`; on roll 1 the value of announcing the box with
    /// those dice. Only roll 1's when only roll 1 was kept.
    roll_values: Vec<Vec<f64>>,
}

impl AnnouncedRuns {
    /// The value of keep `k` after roll `n` in lane `lane` (`None` when not kept).
    fn keep(&self, n: u8, k: usize, lane: usize) -> Option<f64> {
        self.slot(&self.keep_values, n, k, lane)
    }

    /// The value of roll `r` on roll number `n` in lane `lane` (`None` when not kept).
    fn roll(&self, n: u8, r: usize, lane: usize) -> Option<f64> {
        self.slot(&self.roll_values, n, r, lane)
    }

    /// Slot `slot` of lane `lane` on roll number `n` of `by_roll`.
    fn slot(&self, by_roll: &[Vec<f64>], n: u8, slot: usize, lane: usize) -> Option<f64> {
        let values = by_roll.get(usize::from(n).checked_sub(1)?)?;
        values
            .get(slot * self.lanes + self.first_lane + lane)
            .copied()
    }
}

/// The announced turns `lanes`, all of `rolls` rolls, in vectors as wide as this CPU has (the
/// same operations in the same order in every lane, so the same bits on every CPU): every
/// roll's values when `every_roll`, else roll 1's only.
fn announced_runs(
    points: &BoxPoints,
    rolls: u8,
    lanes: &[AnnounceLane],
    every_roll: bool,
) -> AnnouncedRuns {
    announced_runs_with(points, rolls, lanes, every_roll, true, None)
}

/// [`announced_runs`], in scalars unless `vectors` (tests compare both), with the turn's own
/// lane `own` in lane 0 of the first tile when given.
fn announced_runs_with(
    points: &BoxPoints,
    rolls: u8,
    lanes: &[AnnounceLane],
    every_roll: bool,
    vectors: bool,
    own: Option<&mut OwnLane>,
) -> AnnouncedRuns {
    if lanes.is_empty() && own.is_none() {
        return AnnouncedRuns::default();
    }
    // The own lane alone runs in scalars: a vector would only add empty lanes.
    #[cfg(target_arch = "x86_64")]
    if vectors && !lanes.is_empty() && std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has the AVX2 instructions (checked just above).
        return unsafe { announced_avx2(points, rolls, lanes, every_roll, own) };
    }
    announced_tiles::<Scalar>(points, rolls, lanes, every_roll, own)
}

/// [`announced_tiles`] with AVX2 vectors.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn announced_avx2(
    points: &BoxPoints,
    rolls: u8,
    lanes: &[AnnounceLane],
    every_roll: bool,
    own: Option<&mut OwnLane>,
) -> AnnouncedRuns {
    announced_tiles::<Avx2>(points, rolls, lanes, every_roll, own)
}

/// [`announced_runs`], [`Lanes::WIDTH`] turns at a time: the announced cell's values on the
/// last roll, then for each earlier roll the keeps' values (the mean of the next roll) and the
/// rolls' (the best of writing now and the keeps they contain). The turn's own lane `own`,
/// when given, takes lane 0 of the first tile and the announced turns the lanes after it: it
/// goes through the operations of the turn without announcement ([`OwnLane`]).
#[inline(always)]
fn announced_tiles<V: Lanes>(
    points: &BoxPoints,
    rolls: u8,
    cells: &[AnnounceLane],
    every_roll: bool,
    mut own: Option<&mut OwnLane>,
) -> AnnouncedRuns {
    let dice = points.dice();
    let first_roll = dice.first_roll();
    let roll_count = dice.roll_count();
    let own_lanes = usize::from(own.is_some());
    let lanes = (cells.len() + own_lanes).next_multiple_of(V::WIDTH);
    let kept = match (cells.len(), every_roll) {
        (0, _) => 0,
        (_, true) => usize::from(rolls),
        (_, false) => 1,
    };
    let mut keep_values = vec![vec![0.0; first_roll * lanes]; kept.saturating_sub(1)];
    let mut roll_values = vec![vec![0.0; roll_count * lanes]; kept];
    let mut slots = vec![V::splat(0.0); dice.keep_count()];
    let mut scratch = Vec::new();
    for tile in (0..lanes).step_by(V::WIDTH) {
        // The tile's own lane (the first tile's lane 0) and its announced cells after it.
        let mut tile_own = own.as_deref_mut().filter(|_| tile == 0);
        let first_cell = (tile + usize::from(tile_own.is_some())).saturating_sub(own_lanes);
        let tile_cells = &cells[first_cell..cells.len().min(tile + V::WIDTH - own_lanes)];
        let store = |slots: &[V], into: &mut Vec<f64>| store_tile(slots, into, lanes, tile);
        let own_writes = tile_own.as_deref().map(|o| o.plain);
        let writes_of = |n: u8| own_writes.map(|w| &w[usize::from(n - 1)][..]);
        let at_last = (rolls, false);
        write_rolls(
            points,
            writes_of(rolls),
            tile_cells,
            &mut slots,
            at_last,
            &mut scratch,
        );
        if let Some(last) = roll_values.get_mut(usize::from(rolls - 1)) {
            store(&slots[first_roll..], last);
        }
        if let Some(o) = tile_own.as_deref_mut() {
            o.record_rolls(rolls, &slots[first_roll..]);
        }
        for n in (1..rolls).rev() {
            keeps_from_rolls_tile(dice, &mut slots, first_roll);
            if let Some(o) = tile_own.as_deref_mut() {
                o.record_keeps(dice, n, &mut slots);
            }
            if let Some(keeps) = keep_values.get_mut(usize::from(n - 1)) {
                store(&slots[..first_roll], keeps);
            }
            write_rolls(
                points,
                writes_of(n),
                tile_cells,
                &mut slots,
                (n, true),
                &mut scratch,
            );
            rolls_from_keeps_tile(dice, &mut slots);
            if let Some(o) = tile_own.as_deref_mut() {
                o.stop_where_no_reroll(n, &mut slots[first_roll..]);
                o.record_rolls(n, &slots[first_roll..]);
            }
            if let Some(values) = roll_values.get_mut(usize::from(n - 1)) {
                store(&slots[first_roll..], values);
            }
        }
    }
    AnnouncedRuns {
        lanes,
        first_lane: own_lanes,
        keep_values,
        roll_values,
    }
}

/// Sets (`raise`: raises) the roll slots of a tile to the value of writing each roll on roll
/// number `n`: in lane 0 the own lane's best writes `own` (by roll index) when given, in the
/// lanes after it the tile's announced cells; lanes past the cells hold 0. `writes` is scratch
/// space.
#[inline(always)]
fn write_rolls<V: Lanes>(
    points: &BoxPoints,
    own: Option<&[f64]>,
    tile_cells: &[AnnounceLane],
    slots: &mut [V],
    (n, raise): (u8, bool),
    writes: &mut Vec<f64>,
) {
    let first_roll = points.dice().first_roll();
    let width = V::WIDTH;
    // Interleaved by lane first, lane by lane (a vector read right after its lanes' writes
    // waits).
    writes.clear();
    writes.resize(points.dice().roll_count() * width, 0.0);
    if let Some(own) = own {
        for (w, &x) in writes.iter_mut().step_by(width).zip(own) {
            *w = x;
        }
    }
    let skip = usize::from(own.is_some());
    for (lane, a) in tile_cells.iter().enumerate() {
        let values = &a.values[a.offset..];
        let lane_writes = writes[skip + lane..].iter_mut().step_by(width);
        for (w, &class) in lane_writes.zip(points.classes(a.cell.jbox, n)) {
            *w = values[usize::from(class)];
        }
    }
    for (slot, w) in slots[first_roll..]
        .iter_mut()
        .zip(writes.chunks_exact(width))
    {
        let w = V::load(w);
        *slot = if raise { slot.larger(w) } else { w };
    }
}

/// Stores a tile's slots into `into` (`lanes` values per slot, the tile's from lane `tile`).
#[inline(always)]
fn store_tile<V: Lanes>(slots: &[V], into: &mut [f64], lanes: usize, tile: usize) {
    for (i, v) in slots.iter().enumerate() {
        v.store(&mut into[i * lanes + tile..]);
    }
}

/// The turn without announcement, solved in lane 0 of the first tile of its announced turns'
/// run ([`announced_tiles`]): its best writes by roll number go in, the values of its keeps
/// and rolls by roll number come out ([`SlipTurn`]'s fields of the same names; roll 1's
/// before its announcements). Lane 0 goes through the operations of a turn alone, in the same
/// order: a pure next roll sets the empty keep, and a roll number with no reroll takes only
/// its writes.
struct OwnLane<'a> {
    /// Best writes outside the Announce cells, by roll number ([`TurnShape::writes_by_roll`]).
    plain: &'a [Vec<f64>],
    /// Best writes in the Announce cells, by roll number; empty without Announce cells.
    pure: &'a [Vec<f64>],
    /// `may_reroll[n - 1]`: a reroll is allowed after roll `n`.
    may_reroll: &'a [bool],
    keep_values: Vec<Vec<f64>>,
    roll_values: Vec<Vec<f64>>,
    pure_values: Vec<Vec<f64>>,
}

impl<'a> OwnLane<'a> {
    /// The own lane of a turn of `rolls` rolls with these best writes, nothing solved yet.
    fn new(
        plain: &'a [Vec<f64>],
        pure: &'a [Vec<f64>],
        may_reroll: &'a [bool],
        rolls: u8,
    ) -> OwnLane<'a> {
        let rolls = usize::from(rolls);
        OwnLane {
            plain,
            pure,
            may_reroll,
            keep_values: vec![Vec::new(); rolls - 1],
            roll_values: vec![Vec::new(); rolls],
            pure_values: match pure.is_empty() {
                true => Vec::new(),
                false => vec![Vec::new(); rolls],
            },
        }
    }

    /// Records lane 0 of `rolls` (the roll slots) as the values of roll number `n`, and the
    /// pure values they give.
    #[inline(always)]
    fn record_rolls<V: Lanes>(&mut self, n: u8, rolls: &[V]) {
        let n = usize::from(n);
        let values: Vec<f64> = rolls.iter().map(|&v| lane_zero(v)).collect();
        if let Some(pure) = self.pure.get(n - 1) {
            let best = values.iter().zip(pure).map(|(&v, &p)| v.max(p));
            self.pure_values[n - 1] = best.collect();
        }
        self.roll_values[n - 1] = values;
    }

    /// After the keeps of roll number `n` are computed: sets lane 0 of the empty keep to the
    /// mean of the next roll's pure values (with Announce cells), and records lane 0's keeps.
    #[inline(always)]
    fn record_keeps<V: Lanes>(&mut self, dice: &DiceSpace, n: u8, slots: &mut [V]) {
        let n = usize::from(n);
        if !self.may_reroll[n - 1] {
            return;
        }
        if let Some(next) = self.pure_values.get(n) {
            let mean = roll_mean(dice, next);
            slots[EMPTY_KEEP] = blend(V::splat(mean), slots[EMPTY_KEEP], &LANE_ZERO);
        }
        let keeps = &slots[..dice.first_roll()];
        self.keep_values[n - 1] = keeps.iter().map(|&v| lane_zero(v)).collect();
    }

    /// After roll number `n` without a reroll allowed: lane 0 of `rolls` (the roll slots)
    /// takes the writes alone.
    #[inline(always)]
    fn stop_where_no_reroll<V: Lanes>(&self, n: u8, rolls: &mut [V]) {
        let n = usize::from(n);
        if self.may_reroll[n - 1] {
            return;
        }
        for (slot, &w) in rolls.iter_mut().zip(&self.plain[n - 1]) {
            *slot = blend(V::splat(w), *slot, &LANE_ZERO);
        }
    }
}

/// Lane 0 of `v`.
#[inline(always)]
fn lane_zero<V: Lanes>(v: V) -> f64 {
    let mut lanes = [0.0f64; MAX_WIDTH];
    v.store(&mut lanes);
    lanes[0]
}

/// The lane mask of lane 0 alone ([`blend`]).
const LANE_ZERO: [bool; MAX_WIDTH] = {
    let mut take = [false; MAX_WIDTH];
    take[0] = true;
    take
};

/// The widest vector of lanes the tiles are given.
const MAX_WIDTH: usize = 8;

/// A turn to value before its first roll: its shape and its write values.
pub(crate) type ValuedTurn<'a> = (&'a TurnShape, Vec<f64>);

/// The value before the first roll of each of `turns` (each a shape with its write values):
/// the same bits as [`SlipTurn::solved`]'s [`SlipTurn::before_first_roll`], with
/// [`Lanes::WIDTH`] turns of as many rolls solved at a time (the exact endgame solves its
/// slips this way, a level of empty boxes at a time). Turns of one shape next to each other
/// share their tile's best writes, taken in vectors.
pub(crate) fn values_before(points: &BoxPoints, turns: &[ValuedTurn]) -> Vec<f64> {
    values_before_with(points, turns, true)
}

/// The turns one tile of [`values_before`] holds on this CPU: a tile of turns of one shape
/// takes its best writes in vectors.
pub(crate) fn tile_lanes() -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        return Avx2::WIDTH;
    }
    Scalar::WIDTH
}

/// [`values_before`], in scalars unless `vectors` (tests compare both).
fn values_before_with(points: &BoxPoints, turns: &[ValuedTurn], vectors: bool) -> Vec<f64> {
    let mut out = Vec::with_capacity(turns.len());
    for group in turns.chunk_by(|a, b| a.0.rolls == b.0.rolls) {
        let announced = best_announcements(points, group, vectors);
        #[cfg(target_arch = "x86_64")]
        if vectors && std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has the AVX2 instructions (checked just above).
            unsafe { befores_avx2(points, group, &announced, &mut out) };
            continue;
        }
        befores_tiles::<Scalar>(points, group, &announced, &mut out);
    }
    out
}

/// Roll 1's value of announcing in each of `turns` (all of the same rolls): the best
/// announcement of each first roll, empty for a turn without one. The lanes in closed form
/// ([`ClosedForms`]) are valued one by one, the others in one widget run.
fn best_announcements(points: &BoxPoints, turns: &[ValuedTurn], vectors: bool) -> Vec<Vec<f64>> {
    let Some(rolls) = turns.first().map(|t| t.0.rolls) else {
        return Vec::new();
    };
    let roll_count = points.dice().roll_count();
    let forms = points.closed_forms();
    let mut best: Vec<Vec<f64>> = Vec::with_capacity(turns.len());
    let mut by_widget: Vec<AnnounceLane> = Vec::new();
    let mut owners: Vec<usize> = Vec::new();
    for (t, (shape, values)) in turns.iter().enumerate() {
        let mut turn_best = Vec::new();
        if !shape.announceable.is_empty() {
            turn_best = vec![f64::NEG_INFINITY; roll_count];
        }
        for &(cell, offset) in &shape.announceable {
            let lane = AnnounceLane {
                values,
                cell,
                offset,
            };
            match forms.solve_of(points, rolls, &lane) {
                LaneSolve::Widget => {
                    by_widget.push(lane);
                    owners.push(t);
                }
                solve => solve.raise_first_roll(forms, rolls, &mut turn_best),
            }
        }
        best.push(turn_best);
    }
    let runs = announced_runs_with(points, rolls, &by_widget, false, vectors, None);
    if let Some(first) = runs.roll_values.first() {
        for (r, values) in first.chunks_exact(runs.lanes).enumerate() {
            for (&v, &t) in values.iter().zip(&owners) {
                best[t][r] = best[t][r].max(v);
            }
        }
    }
    best
}

/// [`befores_tiles`] with AVX2 vectors.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn befores_avx2(
    points: &BoxPoints,
    turns: &[ValuedTurn],
    announced: &[Vec<f64>],
    out: &mut Vec<f64>,
) {
    befores_tiles::<Avx2>(points, turns, announced, out)
}

/// True when `a` and `b` are the same turn shape.
fn same_shape(a: &TurnShape, b: &TurnShape) -> bool {
    std::ptr::eq(a, b) || a == b
}

/// The best writes of one tile of turns (of the same rolls), interleaved by lane: the value of
/// writing roll `r` on roll number `n` in lane `lane` at `((n - 1) * rolls + r) * width + lane`
/// (`rolls`: the dice's roll count), in the cells other than the Announce cells (`plain`) and
/// in the Announce cells (`pure`, minus infinity in lanes without them).
#[derive(Default)]
struct TileWrites {
    plain: Vec<f64>,
    pure: Vec<f64>,
    /// Some lane has Announce cells.
    any_pure: bool,
    /// The lanes with Announce cells.
    pure_lanes: [bool; MAX_WIDTH],
    /// `no_reroll[n - 1][lane]`: the lane's turn may not roll again after roll `n`.
    no_reroll: Vec<[bool; MAX_WIDTH]>,
    /// The lanes' write values, interleaved (`values[i * width + lane]`).
    values: Vec<f64>,
}

impl TileWrites {
    /// The best writes of `lanes` (turns of the same rolls, at most `V::WIDTH`): in vectors
    /// from the interleaved write values when the turns have one shape, else turn by turn.
    /// Both take the same maxima, so give the same bits.
    #[inline(always)]
    fn fill<V: Lanes>(&mut self, points: &BoxPoints, lanes: &[ValuedTurn]) {
        let width = V::WIDTH;
        let roll_count = points.dice().roll_count();
        let Some(&(shape, _)) = lanes.first() else {
            return;
        };
        let rolls = usize::from(shape.rolls);
        let len = rolls * roll_count * width;
        self.plain.clear();
        self.plain.resize(len, f64::NEG_INFINITY);
        self.pure.clear();
        self.any_pure = lanes.iter().any(|t| t.0.any_pure);
        if self.any_pure {
            self.pure.resize(len, f64::NEG_INFINITY);
        }
        self.pure_lanes = [false; MAX_WIDTH];
        self.no_reroll.clear();
        self.no_reroll.resize(rolls, [false; MAX_WIDTH]);
        for (lane, (turn, _)) in lanes.iter().enumerate() {
            self.pure_lanes[lane] = turn.any_pure;
            for (n, &may) in turn.may_reroll.iter().enumerate() {
                self.no_reroll[n][lane] = !may;
            }
        }
        if lanes.iter().all(|t| same_shape(t.0, shape)) {
            self.values.clear();
            self.values.resize(shape.values_len * width, 0.0);
            for (lane, (_, values)) in lanes.iter().enumerate() {
                for (i, &v) in values.iter().take(shape.values_len).enumerate() {
                    self.values[i * width + lane] = v;
                }
            }
            let into = (&mut self.plain[..], &mut self.pure[..], width, 0);
            best_writes_into::<V>(points, shape, &self.values, into);
            return;
        }
        for (lane, (turn, values)) in lanes.iter().enumerate() {
            let into = (&mut self.plain[..], &mut self.pure[..], width, lane);
            best_writes_into::<Scalar>(points, turn, values, into);
        }
    }

    /// Lanes of `writes` (plain or pure) for roll `r` on roll number `n`.
    #[inline(always)]
    fn at<V: Lanes>(writes: &[f64], roll_count: usize, n: usize, r: usize) -> V {
        V::load(&writes[((n - 1) * roll_count + r) * V::WIDTH..])
    }
}

/// Where [`best_writes_into`] stores: the plain and the pure writes of a tile
/// ([`TileWrites`]), its width, and the first lane written.
type WritesInto<'a> = (&'a mut [f64], &'a mut [f64], usize, usize);

/// Stores the best writes of `L::WIDTH` turns of shape `shape` (write values `values`,
/// interleaved by lane) into lanes `lane..lane + L::WIDTH` of a tile of `width` lanes: on every
/// roll number, in the cells other than the Announce cells (`plain`) and in the Announce
/// cells (`pure`, only when the shape has some). A roll number whose cells are the roll
/// before's takes the roll before's values but for the rolls scoring differently (the
/// straights; none after the third roll).
#[inline(always)]
fn best_writes_into<L: Lanes>(
    points: &BoxPoints,
    shape: &TurnShape,
    values: &[f64],
    (plain, pure, width, lane): WritesInto,
) {
    let roll_count = points.dice().roll_count();
    let block = roll_count * width;
    for n in 1..=shape.rolls {
        let at = usize::from(n - 1) * block + lane;
        for (is_pure, into) in [(false, &mut *plain), (true, &mut *pure)] {
            if is_pure && !shape.any_pure {
                continue;
            }
            let cells: Vec<(usize, &[u8])> = shape
                .cells_on(n, is_pure)
                .map(|c| (c.offset, points.classes(c.cell.jbox, n)))
                .collect();
            let best = |r: usize| -> L {
                cells.iter().fold(L::splat(f64::NEG_INFINITY), |w, c| {
                    let i = (c.0 + usize::from(c.1[r])) * L::WIDTH;
                    w.larger(L::load(&values[i..]))
                })
            };
            let changed: Option<&[usize]> = match n {
                1 => None,
                _ if !shape.same_cells(n - 1, n, is_pure) => None,
                _ if n - 1 < MAX_ROLLS => Some(points.differ_from_next(n - 1)),
                _ => Some(&[]),
            };
            match changed {
                Some(rolls) if L::WIDTH == width => {
                    into.copy_within(at - block..at, at);
                    for &r in rolls {
                        best(r).store(&mut into[at + r * width..]);
                    }
                }
                Some(rolls) => {
                    for r in 0..roll_count {
                        into[at + r * width] = into[at - block + r * width];
                    }
                    for &r in rolls {
                        best(r).store(&mut into[at + r * width..]);
                    }
                }
                None => {
                    for r in 0..roll_count {
                        best(r).store(&mut into[at + r * width..]);
                    }
                }
            }
        }
    }
}

/// `lanes` of `a` where `take[lane]`, else of `b`.
#[inline(always)]
fn blend<V: Lanes>(a: V, b: V, take: &[bool; MAX_WIDTH]) -> V {
    let (mut x, mut y) = ([0.0f64; MAX_WIDTH], [0.0f64; MAX_WIDTH]);
    a.store(&mut x);
    b.store(&mut y);
    for ((y, x), &t) in y.iter_mut().zip(x).zip(take) {
        if t {
            *y = x;
        }
    }
    V::load(&y)
}

/// Appends to `out` the value before the first roll of each of `turns` (all of the same
/// rolls; `announced[i]`: the best announcement's value of each first roll of turn `i`, empty
/// without one), [`Lanes::WIDTH`] turns at a time: the operations of [`SlipTurn::solve`] in
/// its order, lane by lane.
#[inline(always)]
fn befores_tiles<V: Lanes>(
    points: &BoxPoints,
    turns: &[ValuedTurn],
    announced: &[Vec<f64>],
    out: &mut Vec<f64>,
) {
    let dice = points.dice();
    let first_roll = dice.first_roll();
    let roll_count = dice.roll_count();
    let weights: Vec<V> = dice
        .roll_weights()
        .iter()
        .map(|&w| V::splat(f64::from(w)))
        .collect();
    let total = V::splat(f64::from(dice.outcomes_total()));
    let mut slots = vec![V::splat(0.0); dice.keep_count()];
    let mut writes = TileWrites::default();
    let mut announce: Vec<f64> = Vec::new();
    for (tile, lanes) in turns.chunks(V::WIDTH).enumerate() {
        let rolls = usize::from(lanes[0].0.rolls);
        writes.fill::<V>(points, lanes);
        let plain = |n: usize, r: usize| TileWrites::at::<V>(&writes.plain, roll_count, n, r);
        let pure = |n: usize, r: usize| TileWrites::at::<V>(&writes.pure, roll_count, n, r);
        let all_pure = writes.pure_lanes[..lanes.len()].iter().all(|&p| p);
        for r in 0..roll_count {
            slots[first_roll + r] = plain(rolls, r);
        }
        for n in (1..rolls).rev() {
            keeps_from_rolls_tile(dice, &mut slots, first_roll);
            if writes.any_pure {
                // A pure next roll: the empty keep is worth the mean of the next roll's pure
                // values (in the lanes with Announce cells).
                let mut acc = V::splat(0.0);
                for (r, w) in weights.iter().enumerate() {
                    let v = slots[first_roll + r].larger(pure(n + 1, r));
                    acc = acc.add(w.mul(v));
                }
                let mean = acc.div(total);
                slots[EMPTY_KEEP] = match all_pure {
                    true => mean,
                    false => blend(mean, slots[EMPTY_KEEP], &writes.pure_lanes),
                };
            }
            for r in 0..roll_count {
                let slot = &mut slots[first_roll + r];
                *slot = slot.larger(plain(n, r));
            }
            rolls_from_keeps_tile(dice, &mut slots);
            // A turn that may not roll again: its rolls are worth their writes.
            let stop = &writes.no_reroll[n - 1];
            if stop.iter().any(|&s| s) {
                for r in 0..roll_count {
                    let slot = &mut slots[first_roll + r];
                    *slot = blend(plain(n, r), *slot, stop);
                }
            }
        }
        // Roll 1 is a roll of every die, and the moment to announce.
        let announcing = &announced[tile * V::WIDTH..tile * V::WIDTH + lanes.len()];
        let any_announcing = announcing.iter().any(|a| !a.is_empty());
        if any_announcing {
            // Interleaved by lane first (a vector read right after its lanes' writes waits).
            announce.clear();
            announce.resize(roll_count * V::WIDTH, f64::NEG_INFINITY);
            for (lane, a) in announcing.iter().enumerate() {
                for (r, &x) in a.iter().enumerate().take(roll_count) {
                    announce[r * V::WIDTH + lane] = x;
                }
            }
        }
        let mut acc = V::splat(0.0);
        for (r, w) in weights.iter().enumerate() {
            let mut v = slots[first_roll + r];
            if writes.any_pure {
                v = v.larger(pure(1, r));
            }
            if any_announcing {
                v = v.larger(V::load(&announce[r * V::WIDTH..]));
            }
            acc = acc.add(w.mul(v));
        }
        let mut before = [0.0f64; MAX_WIDTH];
        acc.div(total).store(&mut before);
        out.extend_from_slice(&before[..lanes.len()]);
    }
}

/// The values of every option of one turn of one slip (see the module documentation). Values
/// are whatever the write values were (expected final totals for the oracle and the endgame).
#[derive(Clone, Debug)]
pub struct SlipTurn {
    /// The dice of the rules (from [`BoxPoints::dice`]).
    dice: &'static DiceSpace,
    /// The cells, rolls and announcements of the turn.
    shape: TurnShape,
    write_values: Vec<f64>,
    /// `keep_values[n - 1]`: the values of the keeps smaller than a roll after roll `n` (the
    /// keep's expected value for the next roll; the empty keep's with a pure next roll).
    keep_values: Vec<Vec<f64>>,
    /// `roll_values[n - 1]`: the value of each roll on roll number `n` reached by keeping some
    /// dice (best option without the Announce boxes); on roll 1 the value of the roll.
    roll_values: Vec<Vec<f64>>,
    /// The turns after announcing each announceable box.
    announced: Announcements,
    /// The value before the first roll.
    before: f64,
}

/// The mean of `values` (one per roll of `dice`) over a roll of every die.
fn roll_mean(dice: &DiceSpace, values: &[f64]) -> f64 {
    let sum: f64 = dice
        .roll_weights()
        .iter()
        .zip(values)
        .map(|(&w, &v)| f64::from(w) * v)
        .sum();
    sum / f64::from(dice.outcomes_total())
}

/// `into[i] = max(into[i], from[i])`.
fn raise(into: &mut [f64], from: &[f64]) {
    for (o, &f) in into.iter_mut().zip(from) {
        *o = o.max(f);
    }
}

impl SlipTurn {
    /// The turn of a slip whose columns are `columns` (kind, filled mask), three rolls, no
    /// Announce column, with `value(cell, points)` the value of writing `points` in `cell`
    /// (called once per cell and score).
    pub fn new(
        points: &BoxPoints,
        columns: &[(ColumnKind, u16)],
        value: impl FnMut(Cell, i32) -> f64,
    ) -> SlipTurn {
        let columns: Vec<TurnColumn> = columns
            .iter()
            .map(|&(kind, mask)| TurnColumn::plain(kind, mask))
            .collect();
        SlipTurn::with_rolls(points, &columns, MAX_ROLLS, value)
    }

    /// The turn of a slip whose columns are `columns`, of `rolls` rolls (1 to
    /// [`MAX_TURN_ROLLS`]), with `value(cell, points)` the value of writing `points` in `cell`
    /// (called once per cell and score).
    pub fn with_rolls(
        points: &BoxPoints,
        columns: &[TurnColumn],
        rolls: u8,
        value: impl FnMut(Cell, i32) -> f64,
    ) -> SlipTurn {
        let shape = TurnShape::new(points, columns, rolls);
        let write_values = shape.write_values(points, value);
        SlipTurn::solved(points, shape, write_values)
    }

    /// The turn of `shape` with write values `write_values` (see
    /// [`TurnShape::write_values`]), solved: the widget backwards from the last roll to the
    /// value before the first, the turn without announcement in the lane before its announced
    /// turns' ([`OwnLane`]).
    pub(crate) fn solved(points: &BoxPoints, shape: TurnShape, write_values: Vec<f64>) -> SlipTurn {
        SlipTurn::solved_with(points, shape, write_values, true)
    }

    /// [`SlipTurn::solved`], in scalars unless `vectors` (tests compare both).
    fn solved_with(
        points: &BoxPoints,
        shape: TurnShape,
        write_values: Vec<f64>,
        vectors: bool,
    ) -> SlipTurn {
        let plain = shape.writes_by_roll(points, &write_values, false);
        let pure = match shape.any_pure {
            true => shape.writes_by_roll(points, &write_values, true),
            false => Vec::new(),
        };
        let mut own = OwnLane::new(&plain, &pure, &shape.may_reroll, shape.rolls);
        let announced = Announcements::solve(points, &shape, &write_values, (&mut own, vectors));
        let OwnLane {
            keep_values,
            mut roll_values,
            pure_values,
            ..
        } = own;
        // Roll 1 is a roll of every die, and the moment to announce.
        if shape.any_pure || !announced.cells.is_empty() {
            let mut first = match pure_values.first() {
                Some(pure) => pure.clone(),
                None => roll_values[0].clone(),
            };
            announced.raise_first_roll(points.closed_forms(), &mut first);
            roll_values[0] = first;
        }
        let mut store = SingleStore::new(points.dice());
        store.rolls_mut().copy_from_slice(&roll_values[0]);
        expectation_before_first_roll(&mut store);
        SlipTurn {
            dice: points.dice(),
            before: store.get(EMPTY_KEEP),
            shape,
            write_values,
            keep_values,
            roll_values,
            announced,
        }
    }

    /// The value before the first roll of the turn.
    pub fn before_first_roll(&self) -> f64 {
        self.before
    }

    /// Rolls in the turn.
    pub fn rolls(&self) -> u8 {
        self.shape.rolls
    }

    /// True when a player may keep dice and roll again after roll `n` (without an
    /// announcement).
    pub(crate) fn may_reroll(&self, n: u8) -> bool {
        n >= 1 && self.shape.may_reroll.get(usize::from(n - 1)).copied() == Some(true)
    }

    /// The value of keeping `kept` after roll `n` and rolling the other dice: the expected
    /// value of roll `n + 1`; `None` when no reroll is allowed or `kept` is not a keep.
    #[cfg(test)]
    pub(crate) fn keep_value(&self, n: u8, kept: &Dice) -> Option<f64> {
        self.keep_value_at(JambTurn::at_roll(n), kept)
    }

    /// The value of keeping `kept` at `moment` (its roll number, announcement and pure hand)
    /// and rolling the other dice.
    pub fn keep_value_at(&self, moment: JambTurn, kept: &Dice) -> Option<f64> {
        let n = moment.roll_number;
        let k = self.dice.keep_index(kept)?;
        let r = k.checked_sub(self.dice.first_roll());
        match moment.announced {
            Some(jbox) => {
                let a = &self.announced;
                let lane = a.lane(jbox)?;
                if n == 0 || n >= self.shape.rolls {
                    return None;
                }
                match r {
                    None => a.keep(self.dice, n, lane, k),
                    Some(r) => a.roll(self.dice, n + 1, lane, r),
                }
            }
            None => {
                if !self.may_reroll(n) {
                    return None;
                }
                match r {
                    None => self.keep_values[usize::from(n - 1)].get(k).copied(),
                    Some(r) => self.roll_values[usize::from(n)].get(r).copied(),
                }
            }
        }
    }

    /// The value of a roll of `dice` as roll number `n` reached by keeping some dice (roll 1:
    /// the roll): its best option.
    #[cfg(test)]
    pub(crate) fn roll_value(&self, n: u8, dice: &Dice) -> Option<f64> {
        let r = self.dice.roll_index(dice)?;
        self.roll_values
            .get(usize::from(n).checked_sub(1)?)?
            .get(r)
            .copied()
    }

    /// Calls `each(choice, value)` for every legal option after rolling `dice` at `moment`:
    /// first each cell that takes the dice (column by column, top to bottom; after an
    /// announcement only the announced cell), then, while a reroll is allowed, every distinct
    /// keep of the dice (ascending keep index, keeping every die included). The announcements
    /// of roll 1 are listed by [`SlipTurn::for_each_announcement`].
    pub(crate) fn for_each_option_at(
        &self,
        points: &BoxPoints,
        moment: JambTurn,
        dice: &Dice,
        mut each: impl FnMut(Choice, f64),
    ) {
        let n = moment.roll_number;
        let (Some(r), true) = (
            self.dice.roll_index(dice),
            (1..=self.shape.rolls).contains(&n),
        ) else {
            return;
        };
        if let Some(jbox) = moment.announced {
            let a = &self.announced;
            let Some(lane) = a.lane(jbox) else {
                return;
            };
            let (cell, offset) = a.cells[lane];
            let v = self.write_values[offset + points.class(jbox, n, r)];
            each(Choice::Write(cell), v);
            if n >= self.shape.rolls {
                return;
            }
            for &k in &self.dice.proper_sub_keeps[r] {
                let k = usize::from(k);
                let v = a.keep(self.dice, n, lane, k).unwrap_or(f64::NEG_INFINITY);
                each(Choice::Keep(self.dice.keeps[k]), v);
            }
            let v = a
                .roll(self.dice, n + 1, lane, r)
                .unwrap_or(f64::NEG_INFINITY);
            each(Choice::Keep(*dice), v);
            return;
        }
        let bit = 1u8 << (n - 1);
        let pure = moment.pure || n == 1;
        for c in self.shape.cells.iter().filter(|c| c.rolls & bit != 0) {
            if c.pure && !pure {
                continue;
            }
            let v = self.write_values[c.offset + points.class(c.cell.jbox, n, r)];
            each(Choice::Write(c.cell), v);
        }
        if !self.may_reroll(n) {
            return;
        }
        let keeps = &self.keep_values[usize::from(n - 1)];
        for &k in &self.dice.proper_sub_keeps[r] {
            let k = usize::from(k);
            each(Choice::Keep(self.dice.keeps[k]), keeps[k]);
        }
        each(Choice::Keep(*dice), self.roll_values[usize::from(n)][r]);
    }

    /// Calls `each(cell, value)` for every box that may be announced after a first roll of
    /// `dice` (column by column, top to bottom), with the value of announcing it.
    pub fn for_each_announcement(&self, dice: &Dice, mut each: impl FnMut(Cell, f64)) {
        let Some(r) = self.dice.roll_index(dice) else {
            return;
        };
        let a = &self.announced;
        for (lane, &(cell, _)) in a.cells.iter().enumerate() {
            if let Some(v) = a.roll(self.dice, 1, lane, r) {
                each(cell, v);
            }
        }
    }

    /// Every legal option after rolling `dice` as roll number `n` without an announcement
    /// (roll 1 pure, later rolls reached by keeping some dice), in the order of
    /// `SlipTurn::for_each_option_at`, with its value.
    pub fn options(&self, points: &BoxPoints, n: u8, dice: &Dice) -> Vec<(Choice, f64)> {
        self.options_at(points, JambTurn::at_roll(n), dice)
    }

    /// Every legal option after rolling `dice` at `moment`, in the order of
    /// `SlipTurn::for_each_option_at`, with its value.
    pub fn options_at(
        &self,
        points: &BoxPoints,
        moment: JambTurn,
        dice: &Dice,
    ) -> Vec<(Choice, f64)> {
        let mut out = Vec::with_capacity(64);
        self.for_each_option_at(points, moment, dice, |c, v| out.push((c, v)));
        out
    }

    /// The best option after rolling `dice` as roll number `n` (the first listed among equals)
    /// and its value.
    pub fn best(&self, points: &BoxPoints, n: u8, dice: &Dice) -> Option<(Choice, f64)> {
        self.best_at(points, JambTurn::at_roll(n), dice)
    }

    /// The best option after rolling `dice` at `moment` (the first listed among equals) and
    /// its value; announcements not included (see [`SlipTurn::best_announcement`]).
    pub fn best_at(
        &self,
        points: &BoxPoints,
        moment: JambTurn,
        dice: &Dice,
    ) -> Option<(Choice, f64)> {
        let mut best: Option<(Choice, f64)> = None;
        self.for_each_option_at(points, moment, dice, |c, v| {
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((c, v));
            }
        });
        best
    }

    /// The best announcement after a first roll of `dice` (the first listed among equals)
    /// and its value; `None` without an announceable box.
    pub fn best_announcement(&self, dice: &Dice) -> Option<(Cell, f64)> {
        let mut best: Option<(Cell, f64)> = None;
        self.for_each_announcement(dice, |c, v| {
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
    use crate::solve::jamb::key::{key_of_lane, keys_of_mask, step, MiddleRule};

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
            for lane in (0..keys_of_mask(mask, MiddleRule::AsIs)).step_by(7) {
                let key = key_of_lane(mask, lane, MiddleRule::AsIs);
                let turn = SlipTurn::new(&points, &[(kind, mask)], |cell, p| {
                    let (credit, next) = step(key, cell.jbox, p, MiddleRule::AsIs).unwrap();
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

    /// Turns solved together, several in the lanes of one run ([`values_before`]), are each
    /// worth exactly (the same bits) what the turn solved alone says before its first roll, in
    /// vectors and in scalars: slips of every rule set with an Announce column (pure hands
    /// or not), five-roll last turns, a Hand column alone (no reroll), turns of different
    /// rolls mixed in one call, writes no dice can give (minus infinity), announced turns in
    /// closed form, and runs of turns of one shape (tiles of one shape and mixed tiles).
    #[test]
    fn turns_solved_together_are_worth_what_each_turn_alone_is() {
        use crate::solve::jamb::turn_columns;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(33);
        for rules in [JambRules::JAMB_6A, JambRules::YAMB_HR, JambRules::JAMB_4] {
            let points = BoxPoints::new(&rules);
            let full = crate::solve::jamb::key::FULL;
            let mut turns = Vec::new();
            for t in 0..23 {
                let masks: Vec<u16> = rules
                    .columns
                    .iter()
                    .enumerate()
                    .map(|(c, _)| match (t % 4, c) {
                        // Only the Hand column of jamb-4 open (its last column).
                        (0, c) if c + 1 < rules.columns.len() => full,
                        (1, _) => full & !(1 << rng.gen_range(0..13)),
                        _ => rng.gen_range(0..=full) | rng.gen_range(0..=full),
                    })
                    .collect();
                if masks.iter().all(|&m| m == full) {
                    continue;
                }
                let rolls = if t % 3 == 0 { 5 } else { 3 };
                let shape = TurnShape::new(&points, &turn_columns(&rules, &masks), rolls);
                // Runs of one shape: 5, 1, 9 or 2 turns (whole tiles of one shape, and tiles
                // that mix shapes).
                for copy in 0..[5, 1, 9, 2][t % 4] {
                    let values = shape.write_values(&points, |cell, p| match (t + copy) % 5 {
                        // Values whose announced turns take the closed forms: affine, and
                        // rising with the count (the upper boxes; the others by the widget).
                        4 => f64::from(p) + 7.0 * f64::from(cell.column),
                        3 => f64::from(p) * 1.5 + f64::from(cell.column),
                        _ if rng.gen_range(0..20) == 0 => f64::NEG_INFINITY,
                        _ => f64::from(p) + rng.gen_range(0.0..300.0),
                    });
                    turns.push((shape.clone(), values));
                }
            }
            let alone: Vec<f64> = turns
                .iter()
                .map(|(shape, values)| {
                    SlipTurn::solved(&points, shape.clone(), values.clone()).before_first_roll()
                })
                .collect();
            // A turn alone, its own lane beside its announced turns, has the same bits in
            // vectors and in scalars: every keep, roll and announced value.
            for (shape, values) in &turns {
                let solve = |vectors| {
                    SlipTurn::solved_with(&points, shape.clone(), values.clone(), vectors)
                };
                let (vector, scalar) = (solve(true), solve(false));
                assert!(!vector.roll_values[0].is_empty(), "{}", rules.name);
                assert_eq!(turn_bits(&vector), turn_bits(&scalar), "{}", rules.name);
            }
            // A turn whose only cell cannot take some roll is worth minus infinity.
            let finite = alone.iter().filter(|v| v.is_finite()).count();
            assert!(finite * 3 > alone.len() * 2, "{}", rules.name);
            let valued: Vec<ValuedTurn> = turns.iter().map(|(s, v)| (s, v.clone())).collect();
            for vectors in [true, false] {
                let together = values_before_with(&points, &valued, vectors);
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(
                    bits(&together),
                    bits(&alone),
                    "{} vectors {vectors}",
                    rules.name
                );
            }
        }
    }

    /// Every value a solved turn holds, as bits: the value before the first roll, the keeps'
    /// and the rolls' values by roll number, and the announced turns'.
    fn turn_bits(turn: &SlipTurn) -> Vec<u64> {
        let a = &turn.announced;
        let dice = turn.dice;
        let widget = a.solves.iter().filter(|s| matches!(s, LaneSolve::Widget));
        let mut announced = Vec::new();
        for lane in 0..widget.count() {
            for n in 1..=turn.rolls() {
                let rolls = (0..dice.roll_count()).map(|r| a.runs.roll(n, r, lane));
                let keeps = (0..dice.first_roll()).map(|k| a.runs.keep(n, k, lane));
                announced.extend(rolls.chain(keeps.take_while(|_| n < turn.rolls())));
            }
        }
        assert!(announced.iter().all(Option::is_some));
        std::iter::once(&vec![turn.before])
            .chain(&turn.keep_values)
            .chain(&turn.roll_values)
            .chain(&vec![announced.into_iter().flatten().collect()])
            .flatten()
            .map(|v| v.to_bits())
            .collect()
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

#[cfg(test)]
mod announce_tests {
    use super::*;
    use crate::dice::brute_force::rerolls;
    use crate::rules::jamb::{JambRules, BOXES};
    use std::collections::HashMap;

    /// A whole turn by plain expectimax over ordered dice outcomes and every subset of dice
    /// positions kept, with its own reading of the rules of the turn (pure hands, the
    /// announcement after roll 1, the number of rolls): shares nothing with the widget.
    struct BruteTurn<'a> {
        rules: JambRules,
        columns: &'a [TurnColumn],
        rolls: u8,
        value: &'a dyn Fn(Cell, i32) -> f64,
        decided: HashMap<(u8, Vec<u8>, bool, Option<Cell>), f64>,
        rerolled: HashMap<(u8, Vec<u8>, bool, Option<Cell>), f64>,
    }

    impl BruteTurn<'_> {
        fn dice_count(&self) -> usize {
            self.rules.description().dice_space().dice()
        }

        /// The value of writing `dice` of roll `n` in `cell`.
        fn write(&self, cell: Cell, dice: &[u8], n: u8) -> f64 {
            let d = Dice::from_faces(dice).unwrap();
            let p = self.rules.points(cell.jbox, &d, n.min(3)).unwrap();
            (self.value)(cell, p)
        }

        /// The cells that take roll `n`, with whether they need a pure hand.
        fn cells(&self, n: u8) -> Vec<(Cell, bool)> {
            let mut out = Vec::new();
            for (c, col) in self.columns.iter().enumerate() {
                for b in JambBox::ALL {
                    let cell = Cell {
                        column: c as u8,
                        jbox: b,
                    };
                    let empty = col.mask & b.bit() == 0;
                    let allowed = if n == 1 {
                        col.first_roll
                    } else {
                        col.later_rolls
                    };
                    if allowed & b.bit() != 0 {
                        out.push((cell, false));
                    } else if col.pure_hand && empty {
                        out.push((cell, true));
                    }
                }
            }
            out
        }

        /// The cells that may be announced after roll 1.
        fn announceable(&self) -> Vec<Cell> {
            let mut out = Vec::new();
            for (c, col) in self.columns.iter().enumerate() {
                for b in JambBox::ALL {
                    if col.announce && col.mask & b.bit() == 0 {
                        out.push(Cell {
                            column: c as u8,
                            jbox: b,
                        });
                    }
                }
            }
            out
        }

        fn before(&mut self) -> f64 {
            self.reroll(0, &[], None)
        }

        /// Mean over the ordered outcomes of rolling the dice not in `kept` as roll `n + 1`.
        fn reroll(&mut self, n: u8, kept: &[u8], announced: Option<Cell>) -> f64 {
            let mut kept = kept.to_vec();
            kept.sort_unstable();
            let pure = kept.is_empty();
            let key = (n, kept.clone(), pure, announced);
            if let Some(&v) = self.rerolled.get(&key) {
                return v;
            }
            let free = self.dice_count() - kept.len();
            let count = 6usize.pow(free as u32);
            let sum: f64 = rerolls(&kept, free)
                .map(|faces| self.decide(n + 1, &faces, pure, announced))
                .sum();
            let v = sum / count as f64;
            self.rerolled.insert(key, v);
            v
        }

        /// The best option after roll `n` showing `dice`.
        fn decide(&mut self, n: u8, dice: &[u8], pure: bool, announced: Option<Cell>) -> f64 {
            let mut dice = dice.to_vec();
            dice.sort_unstable();
            let key = (n, dice.clone(), pure, announced);
            if let Some(&v) = self.decided.get(&key) {
                return v;
            }
            let best = self
                .options(n, &dice, pure, announced)
                .into_iter()
                .fold(f64::NEG_INFINITY, |a, (_, v)| a.max(v));
            self.decided.insert(key, best);
            best
        }

        /// Every option after roll `n` showing `dice`: writes, announcements (as
        /// `Announce(cell)`), keeps.
        fn options(
            &mut self,
            n: u8,
            dice: &[u8],
            pure: bool,
            announced: Option<Cell>,
        ) -> Vec<(BruteOption, f64)> {
            let mut out = Vec::new();
            let cells = match announced {
                Some(a) => vec![(a, false)],
                None => self.cells(n),
            };
            for (cell, needs_pure) in cells {
                if !needs_pure || pure {
                    out.push((BruteOption::Write(cell), self.write(cell, dice, n)));
                }
            }
            if n == 1 && announced.is_none() && self.rolls > 1 {
                for cell in self.announceable() {
                    let v = self.decide(1, dice, true, Some(cell));
                    out.push((BruteOption::Announce(cell), v));
                }
            }
            // Roll again while some cell takes a later roll (a pure one included).
            let later = self.cells(n + 1);
            if n < self.rolls && (announced.is_some() || !later.is_empty()) {
                for subset in 0..1u32 << dice.len() {
                    let kept: Vec<u8> = (0..dice.len())
                        .filter(|i| subset & (1 << i) != 0)
                        .map(|i| dice[i])
                        .collect();
                    let v = self.reroll(n, &kept, announced);
                    let mut sorted = kept.clone();
                    sorted.sort_unstable();
                    out.push((BruteOption::Keep(sorted), v));
                }
            }
            out
        }
    }

    #[derive(Clone, Debug, PartialEq)]
    enum BruteOption {
        Write(Cell),
        Announce(Cell),
        Keep(Vec<u8>),
    }

    /// Some write values: the points scaled by column and box, the Announce column's favoured.
    fn value(cell: Cell, p: i32) -> f64 {
        let scale = 1.0 + 0.25 * f64::from(cell.column) + 0.05 * cell.jbox.index() as f64;
        f64::from(p) * scale - 3.0 * cell.jbox.index() as f64
    }

    /// Write values the announced turns take in closed form: the lower boxes but Max and Min
    /// their points plus a constant, the upper boxes rising with the count, with a bonus.
    fn closed_value(cell: Cell, p: i32) -> f64 {
        let b = cell.jbox.index();
        match b {
            0..=5 if p >= 3 * (b as i32 + 1) => f64::from(p) + 30.0,
            6 | 7 => f64::from(p) * 1.5,
            _ => f64::from(p) + 10.0 * f64::from(cell.column) - b as f64,
        }
    }

    /// Compares the widget turn with the brute force: before the turn, and every option of
    /// a few rolls at every moment.
    fn compare(columns: &[TurnColumn], rolls: u8) {
        compare_with(columns, rolls, &value);
    }

    /// [`compare`] with write values `value`.
    fn compare_with(columns: &[TurnColumn], rolls: u8, value: &dyn Fn(Cell, i32) -> f64) {
        let rules = JambRules::JAMB_5;
        let points = BoxPoints::new(&rules);
        let turn = SlipTurn::with_rolls(&points, columns, rolls, value);
        let mut brute = BruteTurn {
            rules,
            columns,
            rolls,
            value,
            decided: HashMap::new(),
            rerolled: HashMap::new(),
        };
        let want = brute.before();
        let got = turn.before_first_roll();
        assert!((got - want).abs() < 1e-9, "before: {got} vs {want}");
        let announceable = brute.announceable();
        for r in (0..points.dice().roll_count()).step_by(23) {
            let dice = points.dice().rolls()[r];
            let faces = dice.faces();
            let mut moments = Vec::new();
            for n in 1..=rolls {
                for pure in [false, true] {
                    moments.push(JambTurn {
                        roll_number: n,
                        pure: pure || n == 1,
                        announced: None,
                    });
                }
                for &a in &announceable {
                    moments.push(JambTurn {
                        roll_number: n,
                        pure: false,
                        announced: Some(a.jbox),
                    });
                }
            }
            for m in moments {
                let announced = m
                    .announced
                    .and_then(|b| announceable.iter().find(|c| c.jbox == b));
                let want = brute.options(m.roll_number, &faces, m.pure, announced.copied());
                let mut got: Vec<(BruteOption, f64)> = turn
                    .options_at(&points, m, &dice)
                    .into_iter()
                    .map(|(c, v)| match c {
                        Choice::Write(cell) => (BruteOption::Write(cell), v),
                        Choice::Keep(k) => (BruteOption::Keep(k.faces()), v),
                        Choice::Score(_) => unreachable!(),
                    })
                    .collect();
                if m.roll_number == 1 && m.announced.is_none() {
                    turn.for_each_announcement(&dice, |c, v| {
                        got.push((BruteOption::Announce(c), v))
                    });
                }
                for (option, v) in &want {
                    let found = got.iter().find(|(o, _)| o == option);
                    let Some((_, g)) = found else {
                        panic!("{m:?} {faces:?}: {option:?} missing");
                    };
                    assert!(
                        (g - v).abs() < 1e-9 || (g.is_infinite() && v.is_infinite()),
                        "{m:?} {faces:?} {option:?}: {g} vs {v}"
                    );
                }
                let distinct = |o: &[(BruteOption, f64)]| {
                    let mut d: Vec<String> = o.iter().map(|(x, _)| format!("{x:?}")).collect();
                    d.sort();
                    d.dedup();
                    d
                };
                assert_eq!(distinct(&got), distinct(&want), "{m:?} {faces:?}");
            }
        }
    }

    /// Mask of a column with only `empty` boxes empty.
    fn all_but(empty: &[JambBox]) -> u16 {
        let full = (1u16 << BOXES) - 1;
        empty.iter().fold(full, |m, b| m & !b.bit())
    }

    #[test]
    fn pure_hands_and_announcements_match_brute_force() {
        use JambBox::*;
        let columns = [
            TurnColumn::plain(ColumnKind::Down, all_but(&[FullHouse, FourKind, Jamb])),
            TurnColumn::announce(all_but(&[Straight, Jamb]), true),
        ];
        compare(&columns, 3);
    }

    #[test]
    fn only_announce_boxes_left_match_brute_force() {
        use JambBox::*;
        compare(
            &[TurnColumn::announce(all_but(&[Sixes, FourKind]), true)],
            3,
        );
        // Announced only (no pure hand), beside a Free column.
        let columns = [
            TurnColumn::plain(ColumnKind::Free, all_but(&[Twos, Jamb])),
            TurnColumn::announce(all_but(&[Sixes, FourKind]), false),
        ];
        compare(&columns, 3);
    }

    /// Announced turns in closed form (affine lower boxes, counted upper boxes) beside Max and
    /// Min by the widget, in three- and five-roll turns.
    #[test]
    fn announced_turns_in_closed_form_match_brute_force() {
        use JambBox::*;
        let column = TurnColumn::announce(all_but(&[Ones, Fours, Max, Straight, Jamb]), true);
        let points = BoxPoints::new(&JambRules::JAMB_5);
        let shape = TurnShape::new(&points, &[column], 3);
        let values = shape.write_values(&points, closed_value);
        let kinds: Vec<&str> = SlipTurn::solved(&points, shape.clone(), values.clone())
            .announced
            .solves
            .iter()
            .map(|s| match s {
                LaneSolve::Widget => "widget",
                LaneSolve::Affine { .. } => "affine",
                LaneSolve::Counted { .. } => "counted",
            })
            .collect();
        assert_eq!(kinds, ["counted", "counted", "widget", "affine", "affine"]);
        compare_with(&[column], 3, &closed_value);
        compare_with(
            &[TurnColumn::announce(all_but(&[Twos, FourKind]), false)],
            5,
            &closed_value,
        );
    }

    #[test]
    fn a_five_roll_turn_matches_brute_force() {
        use JambBox::*;
        compare(&[TurnColumn::plain(ColumnKind::Free, all_but(&[Jamb]))], 5);
        compare(&[TurnColumn::announce(all_but(&[FourKind]), true)], 5);
    }
}

//! The turn widget (docs/methods.md section 2): one turn of one player, computed backwards from the
//! values after the last roll to the value before the first, generic over the value type and
//! over the number of dice ([`DiceSpace`]).
//!
//! A [`TurnValues`] store holds one value per keep of its dice space (462 slots for five dice,
//! 924 for six). The keeps of full size are the rolls: a roll's slot holds the value of that
//! roll, a smaller keep's slot the value of keeping those dice. The widget alternates two passes
//! over the slots, once per reroll:
//! - [`keeps_from_rolls`]: `keep[Z] = mean over faces f of keep[Z + f]` for keeps smaller than
//!   a roll;
//! - [`rolls_from_keeps`]: `best[Z] = max(keep[Z], best[Z - z])`, so that a roll's slot holds
//!   the best keep it contains (keeping every die is "stop rolling").
//!
//! Any value type with a mean of six, a maximum and a weighted mean fits: scalar expected
//! scores (in lanes, one per state), exact rationals for tests, and later distributions.

use super::simd::Lanes as SimdLanes;
use crate::dice::{DiceSpace, EMPTY_KEEP};

/// Storage of one value per keep of a dice space, with the three operations the widget needs.
pub trait TurnValues {
    /// The dice space whose keeps the slots are.
    fn space(&self) -> &'static DiceSpace;
    /// `slot[dst] = (slot[src[0]] + ... + slot[src[5]]) / 6`; every `src` is greater than `dst`.
    fn set_mean_of_six(&mut self, dst: usize, src: &[u16; 6]);
    /// `slot[dst] = max(slot[dst], slot[src])`; `src` is less than `dst`.
    fn raise_to(&mut self, dst: usize, src: usize);
    /// `slot[dst] = sum over rolls r of weight[r] * slot[first roll + r] / 6^dice`.
    fn set_roll_expectation(&mut self, dst: usize);
}

/// From values of rolls to values of keeps: fills every keep smaller than a roll.
#[inline(always)]
pub fn keeps_from_rolls<V: TurnValues>(values: &mut V) {
    let space = values.space();
    for keep in (0..space.first_roll()).rev() {
        values.set_mean_of_six(keep, &space.add_face[keep]);
    }
}

/// From values of keeps to values of rolls: each slot becomes the best keep it contains.
#[inline(always)]
pub fn rolls_from_keeps<V: TurnValues>(values: &mut V) {
    for &(keep, smaller) in &values.space().raise_order {
        values.raise_to(usize::from(keep), usize::from(smaller));
    }
}

/// The value before the first roll, written into the empty keep's slot
/// ([`EMPTY_KEEP`]): the roll slots hold the values of rolls after the first roll.
#[inline(always)]
pub(crate) fn expectation_before_first_roll<V: TurnValues>(values: &mut V) {
    values.set_roll_expectation(EMPTY_KEEP);
}

/// A whole turn of `rolls` rolls (at least one): on entry the roll slots hold the values after
/// the last roll (best box); on return [`EMPTY_KEEP`] holds the value of the state before the
/// first roll.
#[inline(always)]
pub fn solve_turn<V: TurnValues>(values: &mut V, rolls: u8) {
    for _ in 1..rolls {
        keeps_from_rolls(values);
        rolls_from_keeps(values);
    }
    expectation_before_first_roll(values);
}

/// [`solve_turn`] for one tile of lanes held in vectors (`slots`: one vector per keep of
/// `space`, the rolls from `first_roll` on, which must be `space.first_roll()`): on entry the
/// roll slots hold the values after the last of `rolls` rolls; returns the value before the
/// first roll. Each lane goes through the same operations in the same order as in
/// [`solve_turn`] on a [`LaneStore<f64>`], so it gives the same bits; the maxima of a slot are
/// taken in registers and the slot is written once. Inlined where the slot count and the first
/// roll are constants (five dice: 462 and 210), the slot indices need no checks at run time.
#[inline(always)]
pub(crate) fn solve_turn_tile<V: SimdLanes>(
    space: &DiceSpace,
    slots: &mut [V],
    first_roll: usize,
    rolls: u8,
) -> V {
    for _ in 1..rolls {
        keeps_from_rolls_tile(space, slots, first_roll);
        rolls_from_keeps_tile(space, slots);
    }
    let mut sum = V::splat(0.0);
    for (&w, &slot) in space.roll_weight.iter().zip(&slots[first_roll..]) {
        sum = sum.add(V::splat(f64::from(w)).mul(slot));
    }
    sum.div(V::splat(f64::from(space.outcomes_total())))
}

/// [`keeps_from_rolls`] on one tile of lanes held in vectors (`slots` as in
/// [`solve_turn_tile`]): the same operations in the same order, so the same bits.
#[inline(always)]
pub(crate) fn keeps_from_rolls_tile<V: SimdLanes>(
    space: &DiceSpace,
    slots: &mut [V],
    first_roll: usize,
) {
    let sixth = V::splat(1.0 / 6.0);
    for keep in (0..first_roll).rev() {
        let v = space.add_face[keep].map(|k| slots[usize::from(k)]);
        slots[keep] = v[0]
            .add(v[1])
            .add(v[2].add(v[3]))
            .add(v[4].add(v[5]))
            .mul(sixth);
    }
}

/// [`rolls_from_keeps`] on one tile of lanes held in vectors: the maxima of a slot are taken
/// in registers and the slot is written once (maxima are exact, so the same bits).
#[inline(always)]
pub(crate) fn rolls_from_keeps_tile<V: SimdLanes>(space: &DiceSpace, slots: &mut [V]) {
    for keep in EMPTY_KEEP + 1..slots.len() {
        // Six reads whatever the keep (padded with the keep itself): no branch to mispredict.
        let v = space.remove_one_padded[keep].map(|s| slots[usize::from(s)]);
        let best = v[0].larger(v[1]).larger(v[2].larger(v[3]));
        slots[keep] = slots[keep].larger(best.larger(v[4].larger(v[5])));
    }
}

/// Runs the widget's rerolls on `store`, whose roll slots hold the values after the last of
/// `rolls` rolls: returns the values of the keeps smaller than a roll with 1, 2, ... `rolls - 1`
/// rolls left (the values every keep decision of a turn reads).
#[inline(always)]
pub(crate) fn keep_values_by_rolls_left(store: &mut SingleStore, rolls: u8) -> Vec<Vec<f64>> {
    let first_roll = store.space().first_roll();
    let mut out = Vec::with_capacity(usize::from(rolls));
    for left in 1..rolls {
        if left > 1 {
            rolls_from_keeps(store);
        }
        keeps_from_rolls(store);
        out.push(store.values()[..first_roll].to_vec());
    }
    out
}

/// Of per-reroll keep values listed by [`keep_values_by_rolls_left`] (with 1, 2, ... rolls
/// left), those a decision with `rolls_left` rolls left reads: none with no roll left, the
/// first reroll's with more rolls left than the list has.
pub(crate) fn keeps_for_rolls_left<T>(keep_values: &[T], rolls_left: u8) -> Option<&T> {
    let n = usize::from(rolls_left).min(keep_values.len());
    keep_values.get(n.checked_sub(1)?)
}

/// A number type usable in [`LaneStore`].
pub trait Lane: Copy + Send + Sync + 'static {
    /// The least value (identity of max).
    const LOWEST: Self;
    /// Mean of six values.
    fn mean_of_six(v: [Self; 6]) -> Self;
    /// The larger of two values.
    fn larger(self, other: Self) -> Self;
    /// Zero.
    const ZERO: Self;
    /// `acc + weight * value`.
    fn add_weighted(acc: Self, weight: u32, value: Self) -> Self;
    /// `acc / outcomes`: turns a sum of outcome counts times values into a mean (`outcomes`:
    /// the number of ordered outcomes of rolling every die, 7776 for five dice).
    fn per_outcome(acc: Self, outcomes: u32) -> Self;
}

/// [`Lane`] for a floating-point type (the same arithmetic for `f64` and `f32`).
macro_rules! float_lane {
    ($t:ty) => {
        impl Lane for $t {
            const LOWEST: $t = <$t>::NEG_INFINITY;
            #[inline(always)]
            fn mean_of_six(v: [$t; 6]) -> $t {
                ((v[0] + v[1]) + (v[2] + v[3]) + (v[4] + v[5])) * (1.0 / 6.0)
            }
            #[inline(always)]
            fn larger(self, other: $t) -> $t {
                if other > self {
                    other
                } else {
                    self
                }
            }
            const ZERO: $t = 0.0;
            #[inline(always)]
            fn add_weighted(acc: $t, weight: u32, value: $t) -> $t {
                acc + weight as $t * value
            }
            #[inline(always)]
            fn per_outcome(acc: $t, outcomes: u32) -> $t {
                acc / outcomes as $t
            }
        }
    };
}

float_lane!(f64);
float_lane!(f32);

/// An exact value: an integer count of `1 / scale` units for a scale that every division
/// performed divides (a power of 6 large enough for the turns computed). For tests that compare
/// the widget with brute force exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Exact(pub i128);

impl Lane for Exact {
    const LOWEST: Exact = Exact(i128::MIN);
    fn mean_of_six(v: [Exact; 6]) -> Exact {
        let sum: i128 = v.iter().map(|x| x.0).sum();
        assert_eq!(sum % 6, 0, "scale too small for an exact mean");
        Exact(sum / 6)
    }
    fn larger(self, other: Exact) -> Exact {
        self.max(other)
    }
    const ZERO: Exact = Exact(0);
    fn add_weighted(acc: Exact, weight: u32, value: Exact) -> Exact {
        Exact(acc.0 + i128::from(weight) * value.0)
    }
    fn per_outcome(acc: Exact, outcomes: u32) -> Exact {
        assert_eq!(
            acc.0 % i128::from(outcomes),
            0,
            "scale too small for an exact mean"
        );
        Exact(acc.0 / i128::from(outcomes))
    }
}

/// Scalar values for several states at once: each slot is `lanes` numbers, one per state, so
/// one pass of the widget solves a whole group of states (the compiler vectorises the lanes).
#[derive(Clone, Debug)]
pub struct LaneStore<T: Lane> {
    space: &'static DiceSpace,
    lanes: usize,
    data: Vec<T>,
}

impl<T: Lane> LaneStore<T> {
    /// A store of one slot per keep of `space`, of `lanes` values each.
    pub fn new(space: &'static DiceSpace, lanes: usize) -> LaneStore<T> {
        LaneStore {
            space,
            lanes,
            data: vec![T::LOWEST; space.keep_count() * lanes],
        }
    }

    /// Number of lanes per slot.
    pub fn lanes(&self) -> usize {
        self.lanes
    }

    /// Makes the store one of `space`'s keeps with `lanes` lanes (contents become
    /// unspecified): scratch stores are reused across turns.
    pub(crate) fn fit(&mut self, space: &'static DiceSpace, lanes: usize) {
        self.space = space;
        self.lanes = lanes;
        self.data.resize(space.keep_count() * lanes, T::LOWEST);
    }

    /// The values of one slot.
    pub fn slot(&self, keep: usize) -> &[T] {
        &self.data[keep * self.lanes..(keep + 1) * self.lanes]
    }

    /// The values of one slot, mutable.
    pub fn slot_mut(&mut self, keep: usize) -> &mut [T] {
        &mut self.data[keep * self.lanes..(keep + 1) * self.lanes]
    }
}

impl<T: Lane> TurnValues for LaneStore<T> {
    fn space(&self) -> &'static DiceSpace {
        self.space
    }

    #[inline(always)]
    fn set_mean_of_six(&mut self, dst: usize, src: &[u16; 6]) {
        let l = self.lanes;
        let (head, tail) = self.data.split_at_mut((dst + 1) * l);
        let out = &mut head[dst * l..];
        let base = (dst + 1) * l;
        let s = src.map(|k| &tail[usize::from(k) * l - base..][..l]);
        for (i, o) in out.iter_mut().enumerate() {
            *o = T::mean_of_six([s[0][i], s[1][i], s[2][i], s[3][i], s[4][i], s[5][i]]);
        }
    }

    #[inline(always)]
    fn raise_to(&mut self, dst: usize, src: usize) {
        let l = self.lanes;
        let (head, tail) = self.data.split_at_mut(dst * l);
        let from = &head[src * l..][..l];
        for (o, &f) in tail[..l].iter_mut().zip(from) {
            *o = o.larger(f);
        }
    }

    #[inline(always)]
    fn set_roll_expectation(&mut self, dst: usize) {
        let l = self.lanes;
        let space = self.space;
        let (head, rolls) = self.data.split_at_mut(space.first_roll() * l);
        let out = &mut head[dst * l..][..l];
        out.fill(T::ZERO);
        for (values, &w) in rolls.chunks_exact(l).zip(&space.roll_weight) {
            for (o, &v) in out.iter_mut().zip(values) {
                *o = T::add_weighted(*o, w, v);
            }
        }
        for o in out.iter_mut() {
            *o = T::per_outcome(*o, space.outcomes_total());
        }
    }
}

/// Mutable access to the values of one slot, whatever the store.
pub(crate) trait SlotAccess {
    /// The values (one per lane) of slot `keep`.
    fn slot_mut(&mut self, keep: usize) -> &mut [f64];
}

impl SlotAccess for LaneStore<f64> {
    fn slot_mut(&mut self, keep: usize) -> &mut [f64] {
        LaneStore::slot_mut(self, keep)
    }
}

/// Scalar values for one state: the same arithmetic as a one-lane [`LaneStore`] (so the same
/// bits), without the per-slot slicing that only pays off with many lanes.
#[derive(Clone, Debug)]
pub(crate) struct SingleStore {
    space: &'static DiceSpace,
    data: Vec<f64>,
}

impl SingleStore {
    /// A store of one value per keep of `space`.
    pub fn new(space: &'static DiceSpace) -> SingleStore {
        SingleStore {
            space,
            data: vec![f64::LOWEST; space.keep_count()],
        }
    }

    /// The value of a slot.
    pub fn get(&self, keep: usize) -> f64 {
        self.data[keep]
    }

    /// Every slot's value, by keep index.
    pub fn values(&self) -> &[f64] {
        &self.data
    }

    /// The roll slots' values, by roll index (minus infinity in a new store).
    pub fn rolls_mut(&mut self) -> &mut [f64] {
        &mut self.data[self.space.first_roll()..]
    }
}

impl SlotAccess for SingleStore {
    fn slot_mut(&mut self, keep: usize) -> &mut [f64] {
        std::slice::from_mut(&mut self.data[keep])
    }
}

impl TurnValues for SingleStore {
    fn space(&self) -> &'static DiceSpace {
        self.space
    }

    #[inline(always)]
    fn set_mean_of_six(&mut self, dst: usize, src: &[u16; 6]) {
        let d = &self.data;
        let v = src.map(|k| d[usize::from(k)]);
        self.data[dst] = f64::mean_of_six(v);
    }

    #[inline(always)]
    fn raise_to(&mut self, dst: usize, src: usize) {
        self.data[dst] = self.data[dst].larger(self.data[src]);
    }

    #[inline(always)]
    fn set_roll_expectation(&mut self, dst: usize) {
        let space = self.space;
        let mut acc = f64::ZERO;
        for (&w, &v) in space
            .roll_weight
            .iter()
            .zip(&self.data[space.first_roll()..])
        {
            acc = f64::add_weighted(acc, w, v);
        }
        self.data[dst] = f64::per_outcome(acc, space.outcomes_total());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::brute_force::sorted_rerolls;
    use crate::dice::{Dice, DiceSpace, MAX_DICE};
    use crate::dice::{EMPTY_KEEP, FIRST_ROLL, KEEPS, ROLLS};
    use std::collections::HashMap;

    fn five() -> &'static DiceSpace {
        crate::dice::tables()
    }

    /// One point in exact units for a turn of `dice` dice and `rolls` rolls: the turn divides by
    /// at most `6^(dice * rolls)` (a mean of six per die and reroll, then the mean over the
    /// `6^dice` first rolls).
    fn scale(dice: usize, rolls: u8) -> i128 {
        6i128.pow((dice * usize::from(rolls)) as u32)
    }

    /// A turn by plain expectimax over dice positions and ordered outcomes, sharing nothing
    /// with the widget or the dice spaces: `last` values the sorted dice after the last roll
    /// (in exact units); the result is the value before the first roll, in exact units.
    struct Brute<F: Fn(&[u8]) -> i128> {
        dice: usize,
        last: F,
        held: HashMap<(u8, Vec<u8>), i128>,
        kept: HashMap<(u8, Vec<u8>), i128>,
    }

    impl<F: Fn(&[u8]) -> i128> Brute<F> {
        fn turn(dice: usize, rolls: u8, last: F) -> i128 {
            let mut b = Brute {
                dice,
                last,
                held: HashMap::new(),
                kept: HashMap::new(),
            };
            b.keep_mean(rolls, &[])
        }

        /// Best over the subsets of positions to keep, with `left` rerolls allowed.
        fn hold(&mut self, left: u8, dice: Vec<u8>) -> i128 {
            if left == 0 {
                return (self.last)(&dice);
            }
            if let Some(&v) = self.held.get(&(left, dice.clone())) {
                return v;
            }
            let best = (0..1u32 << self.dice)
                .map(|subset| {
                    let kept: Vec<u8> = (0..self.dice)
                        .filter(|i| subset & (1 << i) != 0)
                        .map(|i| dice[i])
                        .collect();
                    self.keep_mean(left, &kept)
                })
                .max()
                .expect("at least one subset");
            self.held.insert((left, dice), best);
            best
        }

        /// Mean over the ordered outcomes of rerolling the dice not kept, asserting exactness.
        fn keep_mean(&mut self, left: u8, kept: &[u8]) -> i128 {
            let mut key = kept.to_vec();
            key.sort_unstable();
            if let Some(&v) = self.kept.get(&(left, key.clone())) {
                return v;
            }
            let n = self.dice - key.len();
            let count = 6usize.pow(n as u32);
            let sum: i128 = sorted_rerolls(&key, n)
                .map(|faces| self.hold(left - 1, faces))
                .sum();
            assert_eq!(sum % count as i128, 0, "inexact brute-force mean");
            let v = sum / count as i128;
            self.kept.insert((left, key), v);
            v
        }
    }

    /// The widget's value before the first roll, exactly, on `space` with `rolls` rolls, for
    /// roll values `last`.
    fn widget_turn(space: &'static DiceSpace, rolls: u8, last: impl Fn(&Dice) -> i128) -> i128 {
        let mut store = LaneStore::<Exact>::new(space, 1);
        for (r, roll) in space.rolls().iter().enumerate() {
            store.slot_mut(space.first_roll() + r)[0] = Exact(last(roll));
        }
        solve_turn(&mut store, rolls);
        store.slot(EMPTY_KEEP)[0].0
    }

    fn sorted_dice(faces: &[u8]) -> Dice {
        Dice::from_faces_up_to(faces, MAX_DICE).expect("at most six dice")
    }

    #[test]
    fn chance_turn_is_worth_70_thirds_exactly() {
        // Chance is a sum of independent dice: each die is kept when it beats the mean of a
        // reroll. One roll: 7/2; two: keep 4-6, (4+5+6)/6 + 3/6 * 7/2 = 17/4; three: keep
        // 5-6, (5+6)/6 + 4/6 * 17/4 = 14/3. Five dice: 70/3.
        let (mut per_die_num, mut per_die_den) = (7i128, 2i128);
        for _ in 0..2 {
            let sum: i128 = (1..=6).map(|f| (f * per_die_den).max(per_die_num)).sum();
            (per_die_num, per_die_den) = (sum, 6 * per_die_den);
        }
        assert_eq!(per_die_num * 3, 14 * per_die_den, "14/3 per die");
        let scale = scale(5, 3);
        let expected = 70 * scale / 3;
        let widget = widget_turn(five(), 3, |d| i128::from(d.sum()) * scale);
        let brute = Brute::turn(5, 3, |d| i128::from(sorted_dice(d).sum()) * scale);
        assert_eq!(widget, expected, "widget: {}", widget as f64 / scale as f64);
        assert_eq!(
            brute,
            expected,
            "brute force: {}",
            brute as f64 / scale as f64
        );
    }

    #[test]
    fn chance_on_every_number_of_dice_and_rolls_is_the_per_die_value_times_the_dice() {
        // Per die, with r rolls: v(1) = 7/2, v(r + 1) = mean over faces f of max(f, v(r)).
        for rolls in 1..=5u8 {
            let (mut num, mut den) = (7i128, 2i128);
            for _ in 1..rolls {
                let sum: i128 = (1..=6).map(|f| (f * den).max(num)).sum();
                (num, den) = (sum, 6 * den);
            }
            for dice in 1..=MAX_DICE {
                let scale = scale(dice, rolls);
                let space = DiceSpace::of(dice).unwrap();
                let widget = widget_turn(space, rolls, |d| i128::from(d.sum()) * scale);
                assert_eq!(
                    widget * den,
                    dice as i128 * num * scale,
                    "{dice} dice, {rolls} rolls"
                );
            }
        }
    }

    #[test]
    fn all_alike_on_every_number_of_dice_and_rolls_agrees_with_brute_force() {
        // The chance of all dice alike, kept optimally: the widget on each dice space against
        // plain expectimax over positions and ordered outcomes (the five-dice, three-roll case
        // is the published 2,783,176 / 6^10 below).
        for (dice, rolls) in [
            (1, 1),
            (2, 3),
            (3, 2),
            (4, 3),
            (5, 3),
            (5, 5),
            (6, 3),
            (6, 5),
        ] {
            let scale = scale(dice, rolls);
            let alike = |faces: &[u8]| i128::from(faces.iter().all(|&f| f == faces[0])) * scale;
            let space = DiceSpace::of(dice).unwrap();
            let widget = widget_turn(space, rolls, |d| alike(&d.faces()));
            let brute = Brute::turn(dice, rolls, alike);
            assert_eq!(widget, brute, "{dice} dice, {rolls} rolls");
            assert!(widget > 0 && widget <= scale, "{dice} dice, {rolls} rolls");
        }
    }

    #[test]
    fn yahtzee_turn_probability_is_the_published_2783176_over_6_to_the_10() {
        // P(five of a kind within three rolls, optimal keeps) = 2,783,176 / 6^10 ≈ 0.0460286
        // (the classic figure), and the brute force finds it too.
        let scale = scale(5, 3);
        let hit = |d: &Dice| i128::from(d.five_of_a_kind().is_some()) * scale;
        let widget = widget_turn(five(), 3, hit);
        let brute = Brute::turn(5, 3, |d| hit(&sorted_dice(d)));
        let published = 2_783_176 * scale / 6i128.pow(10);
        assert_eq!(brute, published, "brute force");
        assert_eq!(widget, published, "widget");
        assert!((widget as f64 / scale as f64 - 0.046_028_64).abs() < 1e-8);
    }

    #[test]
    fn the_tile_gives_the_lane_stores_bits_on_every_number_of_dice() {
        use crate::solve::simd::{Lanes, Scalar};
        for dice in 1..=MAX_DICE {
            let space = DiceSpace::of(dice).unwrap();
            let value = |d: &Dice| f64::from(d.count(6)) * 6.0 + f64::from(d.count(1) >= 2);
            let mut store = LaneStore::<f64>::new(space, 1);
            let mut slots = vec![Scalar::splat(0.0); space.keep_count()];
            for (r, roll) in space.rolls().iter().enumerate() {
                store.slot_mut(space.first_roll() + r)[0] = value(roll);
                slots[space.first_roll() + r] = Scalar::splat(value(roll));
            }
            solve_turn(&mut store, 3);
            let mut out = [0.0; 8];
            solve_turn_tile(space, &mut slots, space.first_roll(), 3).store(&mut out);
            assert_eq!(
                out[0].to_bits(),
                store.slot(EMPTY_KEEP)[0].to_bits(),
                "{dice} dice"
            );
        }
    }

    #[test]
    fn first_pass_values_a_keep_by_its_dice_plus_three_and_a_half_per_rerolled_die() {
        let mut store = SingleStore::new(five());
        for r in 0..ROLLS {
            store.slot_mut(FIRST_ROLL + r)[0] = f64::from(Dice::roll(r).sum());
        }
        keeps_from_rolls(&mut store);
        for k in 0..FIRST_ROLL {
            let keep = Dice::keep(k);
            let want = f64::from(keep.sum()) + 3.5 * (5 - keep.len()) as f64;
            assert!((store.get(k) - want).abs() < 1e-12, "keep {keep}");
        }
        // Each roll then holds its best keep: every die above 3.5 kept, the others rerolled.
        rolls_from_keeps(&mut store);
        for r in 0..ROLLS {
            let roll = Dice::roll(r);
            let want: f64 = roll.faces().iter().map(|&f| f64::from(f).max(3.5)).sum();
            assert!(
                (store.get(FIRST_ROLL + r) - want).abs() < 1e-12,
                "roll {roll}"
            );
        }
    }

    #[test]
    fn roll_expectation_weights_each_roll_by_its_orderings() {
        // Lane 0: the number of sixes (mean 5/6); lane 1: 1 for the straight 12345, shown
        // by 5! = 120 of the 7776 ordered outcomes. Values in units of 1/7776, so exact.
        let straight = Dice::from_faces(&[1, 2, 3, 4, 5]).unwrap();
        let mut store = LaneStore::<Exact>::new(five(), 2);
        for r in 0..ROLLS {
            let roll = Dice::roll(r);
            let slot = store.slot_mut(FIRST_ROLL + r);
            slot[0] = Exact(i128::from(roll.count(6)) * 7776);
            slot[1] = Exact(i128::from(roll == straight) * 7776);
        }
        expectation_before_first_roll(&mut store);
        assert_eq!(store.slot(EMPTY_KEEP), [Exact(7776 * 5 / 6), Exact(120)]);
    }

    #[test]
    fn lanes_are_independent_and_each_equals_a_single_store_bit_for_bit() {
        type Value = fn(&Dice) -> f64;
        let lanes: [Value; 3] = [
            |d| f64::from(d.sum()),
            |d| {
                if d.five_of_a_kind().is_some() {
                    50.0
                } else {
                    0.0
                }
            },
            |d| f64::from(d.count(6)) * 6.0 + f64::from(d.count(1) >= 2),
        ];
        let mut store = LaneStore::<f64>::new(five(), lanes.len());
        assert_eq!(store.lanes(), 3);
        for r in 0..ROLLS {
            let roll = Dice::roll(r);
            for (lane, value) in lanes.iter().enumerate() {
                store.slot_mut(FIRST_ROLL + r)[lane] = value(&roll);
            }
        }
        solve_turn(&mut store, 3);
        for (lane, value) in lanes.iter().enumerate() {
            let mut single = SingleStore::new(five());
            for r in 0..ROLLS {
                single.slot_mut(FIRST_ROLL + r)[0] = value(&Dice::roll(r));
            }
            solve_turn(&mut single, 3);
            for k in 0..KEEPS {
                assert_eq!(
                    store.slot(k)[lane].to_bits(),
                    single.get(k).to_bits(),
                    "lane {lane} slot {k}"
                );
            }
        }
        assert!((store.slot(EMPTY_KEEP)[0] - 70.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn f32_lanes_give_the_chance_value_to_rounding() {
        let mut store = LaneStore::<f32>::new(five(), 1);
        for r in 0..ROLLS {
            store.slot_mut(FIRST_ROLL + r)[0] = Dice::roll(r).sum() as f32;
        }
        solve_turn(&mut store, 3);
        assert!((f64::from(store.slot(EMPTY_KEEP)[0]) - 70.0 / 3.0).abs() < 1e-4);
    }

    #[test]
    #[should_panic(expected = "scale too small")]
    fn exact_lane_refuses_a_mean_it_cannot_take_exactly() {
        let one = Exact(1);
        Exact::mean_of_six([
            one,
            Exact::ZERO,
            Exact::ZERO,
            Exact::ZERO,
            Exact::ZERO,
            Exact::ZERO,
        ]);
    }
}

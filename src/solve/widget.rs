//! The turn widget (docs/methods.md section 2): one turn of one player, computed backwards from the
//! values after the last roll to the value before the first, generic over the value type.
//!
//! A [`TurnValues`] store holds one value per keep (462 slots). The 252 keeps of five dice are
//! the rolls: a roll's slot holds the value of that roll, a smaller keep's slot the value of
//! keeping those dice. The widget alternates two passes over the slots:
//! - [`keeps_from_rolls`]: `keep[Z] = mean over faces f of keep[Z + f]` for `|Z| < 5`;
//! - [`rolls_from_keeps`]: `best[Z] = max(keep[Z], best[Z - z])`, so that a roll's slot holds
//!   the best keep it contains (keeping all five is "stop rolling").
//!
//! Any value type with a mean of six, a maximum and a weighted mean fits: scalar expected
//! scores (in lanes, one per state), exact rationals for tests, and later distributions.

use crate::dice::{self, DiceTables, EMPTY_KEEP, FIRST_ROLL, KEEPS, OUTCOMES, ROLLS};

/// Storage of one value per keep, with the three operations the widget needs.
pub trait TurnValues {
    /// `slot[dst] = (slot[src[0]] + ... + slot[src[5]]) / 6`; every `src` is greater than `dst`.
    fn set_mean_of_six(&mut self, dst: usize, src: &[u16; 6]);
    /// `slot[dst] = max(slot[dst], slot[src])`; `src` is less than `dst`.
    fn raise_to(&mut self, dst: usize, src: usize);
    /// `slot[dst] = sum over rolls r of weight[r] * slot[FIRST_ROLL + r] / 7776`.
    fn set_roll_expectation(&mut self, dst: usize, weight: &[u32; ROLLS]);
}

/// From values of rolls to values of keeps: fills every keep of fewer than five dice.
#[inline(always)]
pub fn keeps_from_rolls<V: TurnValues>(values: &mut V) {
    let t = dice::tables();
    for keep in (0..FIRST_ROLL).rev() {
        values.set_mean_of_six(keep, &t.add_face[keep]);
    }
}

/// From values of keeps to values of rolls: each slot becomes the best keep it contains.
#[inline(always)]
pub fn rolls_from_keeps<V: TurnValues>(values: &mut V) {
    let t: &DiceTables = dice::tables();
    for &(keep, smaller) in &t.raise_order {
        values.raise_to(usize::from(keep), usize::from(smaller));
    }
}

/// The value before the first roll, written into the empty keep's slot
/// ([`EMPTY_KEEP`]): the roll slots hold the values of rolls with two rolls left.
#[inline(always)]
pub fn expectation_before_first_roll<V: TurnValues>(values: &mut V) {
    values.set_roll_expectation(EMPTY_KEEP, &dice::tables().roll_weight);
}

/// A whole turn: on entry the roll slots hold the values after the third roll (best box); on
/// return [`EMPTY_KEEP`] holds the value of the state before the first roll.
#[inline(always)]
pub fn solve_turn<V: TurnValues>(values: &mut V) {
    for _ in 0..2 {
        keeps_from_rolls(values);
        rolls_from_keeps(values);
    }
    expectation_before_first_roll(values);
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
    /// `acc / 7776`: turns a sum of outcome counts times values into a mean.
    fn per_outcome(acc: Self) -> Self;
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
            fn per_outcome(acc: $t) -> $t {
                acc / OUTCOMES as $t
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
    fn per_outcome(acc: Exact) -> Exact {
        assert_eq!(
            acc.0 % i128::from(OUTCOMES),
            0,
            "scale too small for an exact mean"
        );
        Exact(acc.0 / i128::from(OUTCOMES))
    }
}

/// Scalar values for several states at once: each slot is `lanes` numbers, one per state, so
/// one pass of the widget solves a whole group of states (the compiler vectorises the lanes).
#[derive(Clone, Debug)]
pub struct LaneStore<T: Lane> {
    lanes: usize,
    data: Vec<T>,
}

impl<T: Lane> LaneStore<T> {
    /// A store of 462 slots of `lanes` values each.
    pub fn new(lanes: usize) -> LaneStore<T> {
        LaneStore {
            lanes,
            data: vec![T::LOWEST; KEEPS * lanes],
        }
    }

    /// Number of lanes per slot.
    pub fn lanes(&self) -> usize {
        self.lanes
    }

    /// Changes the number of lanes (contents become unspecified).
    pub fn resize(&mut self, lanes: usize) {
        self.lanes = lanes;
        self.data.resize(KEEPS * lanes, T::LOWEST);
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
    fn set_roll_expectation(&mut self, dst: usize, weight: &[u32; ROLLS]) {
        let l = self.lanes;
        let (head, rolls) = self.data.split_at_mut(FIRST_ROLL * l);
        let out = &mut head[dst * l..][..l];
        out.fill(T::ZERO);
        for (values, &w) in rolls.chunks_exact(l).zip(weight) {
            for (o, &v) in out.iter_mut().zip(values) {
                *o = T::add_weighted(*o, w, v);
            }
        }
        for o in out.iter_mut() {
            *o = T::per_outcome(*o);
        }
    }
}

/// Mutable access to the values of one slot, whatever the store.
pub trait SlotAccess {
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
pub struct SingleStore {
    data: Vec<f64>,
}

impl Default for SingleStore {
    fn default() -> Self {
        SingleStore {
            data: vec![f64::LOWEST; KEEPS],
        }
    }
}

impl SingleStore {
    /// The value of a slot.
    pub fn get(&self, keep: usize) -> f64 {
        self.data[keep]
    }

    /// All 462 values, by keep index.
    pub fn values(&self) -> &[f64] {
        &self.data
    }
}

impl SlotAccess for SingleStore {
    fn slot_mut(&mut self, keep: usize) -> &mut [f64] {
        std::slice::from_mut(&mut self.data[keep])
    }
}

impl TurnValues for SingleStore {
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

    fn set_roll_expectation(&mut self, dst: usize, weight: &[u32; ROLLS]) {
        let mut acc = f64::ZERO;
        for (r, &w) in weight.iter().enumerate() {
            acc = f64::add_weighted(acc, w, self.data[FIRST_ROLL + r]);
        }
        self.data[dst] = f64::per_outcome(acc);
    }
}

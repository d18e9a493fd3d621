//! The reduced state of one Jamb column: everything its future points depend on, and nothing
//! else, so that equal keys have equal futures.
//!
//! A column's future depends on
//! - which boxes are filled (the mask),
//! - the upper sum, capped at 60, and only up to equivalence: two sums are equivalent when every
//!   total the empty upper boxes can still add takes both to 60 or neither (one representative,
//!   the smallest reachable sum, per class);
//! - the middle section's pending information while Max, Min and Ones are not all filled.
//!
//! The middle section `(Max - Min) x Ones` is credited in parts as soon as two of its three
//! factors are known, which keeps the pending information small:
//!
//! | filled of Ones, Max, Min | pending information | values | credited when the box is written |
//! |---|---|---|---|
//! | none | - | 1 | |
//! | Ones | `o` (its points, 0..=5) | 6 | |
//! | Max | `M` (5..=30) | 26 | |
//! | Min | `m` (5..=30) | 26 | |
//! | Max, Min | `d = M - m` (-25..=25) | 51 | writing Ones = o credits `o x d` |
//! | Ones, Max | `o` | 6 | writing Ones or Max credits `o x M`; writing Min credits `-o x m` |
//! | Ones, Min | `o` | 6 | writing Ones or Min credits `-o x m`; writing Max credits `o x M` |
//! | all three | - | 1 | |
//!
//! Where the rules count a negative middle section as 0 ([`MiddleRule::NeverNegative`]), the
//! section is not linear and cannot be credited in parts: with Ones and Max filled the key keeps
//! both `o` and `M` (6 x 26 values), with Ones and Min both `o` and `m`, and the whole section,
//! `o x max(M - m, 0)`, is credited when the last of the three is written.
//!
//! Upper boxes credit their points (and the bonus of 30 the moment the sum reaches 60), lower
//! boxes their points. The credits of a finished column add up to its total. While exactly Ones
//! and Max (or Ones and Min) are filled, one part of the middle is credited but not yet in
//! [`ColumnState::total`]: `pending_credit` is that part.

pub use crate::rules::jamb::MiddleRule;
use crate::rules::jamb::{ColumnState, JambBox, BOXES, UPPER_BONUS, UPPER_BONUS_THRESHOLD};
use crate::rules::upper_totals;
use std::sync::OnceLock;

/// Mask of a full column.
pub(crate) const FULL: u16 = (1 << BOXES) - 1;
/// Mask of the six upper boxes.
const UPPER: u16 = 0x3f;
/// Bit of the Ones box.
const ONES: u16 = 1;
/// Bit of the Max box.
const MAX: u16 = 1 << 6;
/// Bit of the Min box.
const MIN: u16 = 1 << 7;
/// Capped upper sums 0..=60.
const CAPS: usize = UPPER_BONUS_THRESHOLD as usize + 1;
/// Smallest sum of five dice (Max and Min always hold a sum of five dice).
const LEAST_SUM: i32 = 5;
/// Number of possible sums of five dice (5..=30).
const SUMS: u8 = 26;

/// The reduced state of one column (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ColumnKey {
    /// Filled boxes, bit `i` for box `i` of [`JambBox::ALL`].
    pub mask: u16,
    /// Class of the capped upper sum among the classes of the filled upper boxes (0-based).
    pub upper: u8,
    /// Index of the middle section's pending information (see `mid_count`).
    pub mid: u8,
}

impl ColumnKey {
    /// The key of the empty column.
    pub const EMPTY: ColumnKey = ColumnKey {
        mask: 0,
        upper: 0,
        mid: 0,
    };

    /// True when every box is filled.
    pub(crate) fn is_full(&self) -> bool {
        self.mask == FULL
    }
}

/// The classes of equivalent capped upper sums, for each of the 64 sets of filled upper boxes.
pub(crate) struct UpperClasses {
    /// Classes of upper mask `s` are `offset[s]..offset[s + 1]` of `rep`.
    offset: [usize; 65],
    /// The representative (smallest reachable) capped sum of each class.
    rep: Vec<u8>,
    /// `class_of[s * 61 + c]`: the class (within mask `s`) holding capped sum `c`, `u8::MAX` for
    /// a sum not reachable with `s`.
    class_of: Vec<u8>,
}

impl UpperClasses {
    fn build() -> UpperClasses {
        let threshold = UPPER_BONUS_THRESHOLD as u32;
        let mut offset = [0usize; 65];
        let mut rep = Vec::new();
        let mut class_of = vec![u8::MAX; 64 * CAPS];
        for s in 0..64u8 {
            offset[usize::from(s)] = rep.len();
            let reach = upper_totals(s);
            let addable = upper_totals(!s & 0x3f);
            // What a sum's future bonus depends on: the least addable total that takes it to
            // 60 (`None`: no future bonus, already earned or out of reach).
            let class = |c: u32| -> Option<u32> {
                if c >= threshold {
                    return None;
                }
                (threshold - c..=105).find(|&a| addable & (1u128 << a) != 0)
            };
            let mut keys: Vec<Option<u32>> = Vec::new();
            for c in 0..=threshold {
                let reachable = if c < threshold {
                    reach & (1u128 << c) != 0
                } else {
                    reach >> threshold != 0
                };
                if !reachable {
                    continue;
                }
                let key = class(c);
                let index = match keys.iter().position(|&k| k == key) {
                    Some(i) => i,
                    None => {
                        keys.push(key);
                        rep.push(c as u8);
                        keys.len() - 1
                    }
                };
                class_of[usize::from(s) * CAPS + c as usize] = index as u8;
            }
        }
        offset[64] = rep.len();
        UpperClasses {
            offset,
            rep,
            class_of,
        }
    }

    /// Number of classes of upper mask `s` (its low six bits).
    pub fn count(&self, s: u16) -> usize {
        let s = usize::from(s & UPPER);
        self.offset[s + 1] - self.offset[s]
    }

    /// The representative capped sum of class `class` of upper mask `s`.
    pub(crate) fn rep(&self, s: u16, class: u8) -> u8 {
        self.rep[self.offset[usize::from(s & UPPER)] + usize::from(class)]
    }

    /// The class of (capped) sum `sum` with upper mask `s`; `None` if not reachable.
    pub fn class(&self, s: u16, sum: i32) -> Option<u8> {
        let c = sum.clamp(0, UPPER_BONUS_THRESHOLD) as usize;
        let class = self.class_of[usize::from(s & UPPER) * CAPS + c];
        (class != u8::MAX).then_some(class)
    }
}

/// The shared upper-sum classes (the same for every rule set).
pub(crate) fn upper_classes() -> &'static UpperClasses {
    static CLASSES: OnceLock<UpperClasses> = OnceLock::new();
    CLASSES.get_or_init(UpperClasses::build)
}

/// Which of Ones, Max and Min are filled in `mask`: bit 0 Ones, bit 1 Max, bit 2 Min.
fn middle_filled(mask: u16) -> u8 {
    u8::from(mask & ONES != 0) | u8::from(mask & MAX != 0) << 1 | u8::from(mask & MIN != 0) << 2
}

/// What a key says about the upper sum and the middle section, for features of value
/// functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KeyInfo {
    /// The representative capped upper sum.
    pub upper_sum: i32,
    /// True while the bonus is neither earned nor out of reach.
    pub bonus_open: bool,
    /// The Ones box's points while the middle section is incomplete.
    pub pending_ones: Option<i32>,
    /// The Max box's points while Min and Ones are empty.
    pub pending_max: Option<i32>,
    /// The Min box's points while Max and Ones are empty.
    pub pending_min: Option<i32>,
    /// Max - Min while Ones is empty.
    pub pending_diff: Option<i32>,
}

/// What `key` says about its upper sum and middle section, under `middle`.
pub(crate) fn key_info(key: ColumnKey, middle: MiddleRule) -> KeyInfo {
    let classes = upper_classes();
    let upper_sum = i32::from(classes.rep(key.mask, key.upper));
    let addable: i32 = (0..6)
        .filter(|&i| key.mask & (1 << i) == 0)
        .map(|i| 5 * (i + 1))
        .sum();
    let bonus_open =
        upper_sum < UPPER_BONUS_THRESHOLD && upper_sum + addable >= UPPER_BONUS_THRESHOLD;
    let mid = i32::from(key.mid);
    let filled = middle_filled(key.mask);
    let sums = i32::from(SUMS);
    let pair = middle == MiddleRule::NeverNegative && matches!(filled, 0b011 | 0b101);
    let (ones, sum) = if pair {
        (mid / sums, Some(mid % sums + LEAST_SUM))
    } else {
        (mid, None)
    };
    KeyInfo {
        upper_sum,
        bonus_open,
        pending_ones: matches!(filled, 0b001 | 0b011 | 0b101).then_some(ones),
        pending_max: match filled {
            0b010 => Some(mid + LEAST_SUM),
            0b011 => sum,
            _ => None,
        },
        pending_min: match filled {
            0b100 => Some(mid + LEAST_SUM),
            0b101 => sum,
            _ => None,
        },
        pending_diff: (filled == 0b110).then_some(mid - (sums - 1)),
    }
}

/// Number of values of the middle section's pending information for a column with filled
/// boxes `mask` under `middle` (see the module documentation).
pub(crate) fn mid_count(mask: u16, middle: MiddleRule) -> usize {
    match middle_filled(mask) {
        0b000 | 0b111 => 1,
        0b011 | 0b101 if middle == MiddleRule::NeverNegative => 6 * usize::from(SUMS),
        0b001 | 0b011 | 0b101 => 6,
        0b010 | 0b100 => usize::from(SUMS),
        _ => 2 * usize::from(SUMS) - 1,
    }
}

/// Number of keys with filled boxes `mask` under `middle`: upper classes times middle values.
pub(crate) fn keys_of_mask(mask: u16, middle: MiddleRule) -> usize {
    upper_classes().count(mask) * mid_count(mask, middle)
}

/// The key with filled mask `mask` and lane `lane` under `middle` (upper class major, middle
/// value minor).
pub(crate) fn key_of_lane(mask: u16, lane: usize, middle: MiddleRule) -> ColumnKey {
    let mids = mid_count(mask, middle);
    ColumnKey {
        mask,
        upper: (lane / mids) as u8,
        mid: (lane % mids) as u8,
    }
}

/// The lane of `key` among the keys of its mask (inverse of [`key_of_lane`]).
pub(crate) fn lane_of_key(key: ColumnKey, middle: MiddleRule) -> usize {
    usize::from(key.upper) * mid_count(key.mask, middle) + usize::from(key.mid)
}

/// The key of a column under `middle`, and the part of the middle already credited but not
/// yet in its total ([`pending_credit`]); `None` for values no dice can give.
pub(crate) fn key_of(column: &ColumnState, middle: MiddleRule) -> Option<ColumnKey> {
    let mask = column.filled_mask();
    let upper = upper_classes().class(mask, column.upper_sum())?;
    let get = |b: JambBox| column.value(b).unwrap_or(0);
    let (ones, max, min) = (get(JambBox::Ones), get(JambBox::Max), get(JambBox::Min));
    let sum_index = |v: i32| -> Option<u8> {
        let i = v - LEAST_SUM;
        (0..i32::from(SUMS)).contains(&i).then_some(i as u8)
    };
    let ones_index = (0..=5).contains(&ones).then_some(ones as u8);
    let pair = |o: Option<u8>, s: Option<u8>| Some(o? * SUMS + s?);
    let mid = match middle_filled(mask) {
        0b000 | 0b111 => Some(0),
        0b011 if middle == MiddleRule::NeverNegative => pair(ones_index, sum_index(max)),
        0b101 if middle == MiddleRule::NeverNegative => pair(ones_index, sum_index(min)),
        0b001 | 0b011 | 0b101 => ones_index,
        0b010 => sum_index(max),
        0b100 => sum_index(min),
        _ => {
            let d = max - min + i32::from(SUMS) - 1;
            (0..2 * i32::from(SUMS) - 1).contains(&d).then_some(d as u8)
        }
    }?;
    Some(ColumnKey { mask, upper, mid })
}

/// The part of the middle section credited to a column (see the module documentation) but not
/// yet counted by [`ColumnState::total`]: `o x M` with Ones and Max filled and Min empty,
/// `-o x m` with Ones and Min filled and Max empty, 0 otherwise (and always 0 under
/// [`MiddleRule::NeverNegative`]).
pub(crate) fn pending_credit(column: &ColumnState, middle: MiddleRule) -> i32 {
    if middle == MiddleRule::NeverNegative {
        return 0;
    }
    let get = |b: JambBox| column.value(b).unwrap_or(0);
    match middle_filled(column.filled_mask()) {
        0b011 => get(JambBox::Ones) * get(JambBox::Max),
        0b101 => -get(JambBox::Ones) * get(JambBox::Min),
        _ => 0,
    }
}

/// Writing `points` in the empty box `b` of a column with key `key` under `middle`: the points
/// credited now and the next key. `None` if `b` is filled or the points are impossible.
pub fn step(
    key: ColumnKey,
    b: JambBox,
    points: i32,
    middle: MiddleRule,
) -> Option<(i32, ColumnKey)> {
    let bit = b.bit();
    if key.mask & bit != 0 {
        return None;
    }
    let mask = key.mask | bit;
    let classes = upper_classes();
    let mut credit = 0;
    let mut upper = key.upper;
    if b.upper_face().is_some() {
        let before = i32::from(classes.rep(key.mask, key.upper));
        let after = before + points;
        if before < UPPER_BONUS_THRESHOLD && after >= UPPER_BONUS_THRESHOLD {
            credit += UPPER_BONUS;
        }
        credit += points;
        upper = classes.class(mask, after)?;
    } else if b >= JambBox::Straight {
        credit += points;
    }
    let sums = i32::from(SUMS);
    let sum_index = |v: i32| -> Option<u8> {
        let i = v - LEAST_SUM;
        (0..sums).contains(&i).then_some(i as u8)
    };
    let mid_value = i32::from(key.mid);
    let before = middle_filled(key.mask);
    if middle == MiddleRule::NeverNegative
        && matches!(b, JambBox::Ones | JambBox::Max | JambBox::Min)
    {
        let (section, mid) = never_negative_step(before, mid_value, b, points)?;
        return Some((credit + section, ColumnKey { mask, upper, mid }));
    }
    let mid = match b {
        JambBox::Ones => {
            let o = points;
            let o_index = (0..=5).contains(&o).then_some(o as u8)?;
            match before {
                0b000 => o_index,
                0b010 => {
                    credit += o * (mid_value + LEAST_SUM);
                    o_index
                }
                0b100 => {
                    credit -= o * (mid_value + LEAST_SUM);
                    o_index
                }
                _ => {
                    credit += o * (mid_value - (sums - 1));
                    0
                }
            }
        }
        JambBox::Max => {
            let m = sum_index(points)?;
            match before {
                0b000 => m,
                0b001 => {
                    credit += mid_value * points;
                    key.mid
                }
                0b100 => {
                    // d = M - m, stored as d + 25.
                    (points - (mid_value + LEAST_SUM) + sums - 1) as u8
                }
                _ => {
                    credit += mid_value * points;
                    0
                }
            }
        }
        JambBox::Min => {
            let m = sum_index(points)?;
            match before {
                0b000 => m,
                0b001 => {
                    credit -= mid_value * points;
                    key.mid
                }
                0b010 => ((mid_value + LEAST_SUM) - points + sums - 1) as u8,
                _ => {
                    credit -= mid_value * points;
                    0
                }
            }
        }
        _ => key.mid,
    };
    Some((credit, ColumnKey { mask, upper, mid }))
}

/// The total of `column` with its middle section counted by `middle`.
pub(crate) fn column_total(column: &ColumnState, middle: MiddleRule) -> i32 {
    match middle {
        MiddleRule::AsIs => column.total(),
        MiddleRule::NeverNegative => column.total() - column.middle() + column.middle().max(0),
    }
}

/// Writing `points` in Ones, Max or Min under [`MiddleRule::NeverNegative`], with `before`
/// the filled of the three (bits as `middle_filled`) and `mid` the pending information: the
/// section credited (once all three are known) and the next pending information.
fn never_negative_step(before: u8, mid: i32, b: JambBox, points: i32) -> Option<(i32, u8)> {
    let sums = i32::from(SUMS);
    let sum_index = (LEAST_SUM..LEAST_SUM + sums)
        .contains(&points)
        .then_some(points - LEAST_SUM);
    let section = |o: i32, d: i32| o * d.max(0);
    let index = |v: i32| u8::try_from(v).ok();
    match (b, before) {
        (JambBox::Ones, _) if !(0..=5).contains(&points) => None,
        // Ones first: keep o.
        (JambBox::Ones, 0b000) => Some((0, index(points)?)),
        // Max or Min known: keep (o, M) or (o, m).
        (JambBox::Ones, 0b010 | 0b100) => Some((0, index(points * sums + mid)?)),
        // Max - Min known: the whole section.
        (JambBox::Ones, _) => Some((section(points, mid - (sums - 1)), 0)),
        (JambBox::Max | JambBox::Min, 0b000) => Some((0, index(sum_index?)?)),
        (JambBox::Max | JambBox::Min, 0b001) => Some((0, index(mid * sums + sum_index?)?)),
        // The other of Max and Min known: keep d = M - m, stored as d + 25.
        (JambBox::Max, 0b100) => Some((0, index(sum_index? - mid + sums - 1)?)),
        (JambBox::Min, 0b010) => Some((0, index(mid - sum_index? + sums - 1)?)),
        // Ones and the other known: the whole section.
        (JambBox::Max, _) => Some((section(mid / sums, points - (mid % sums + LEAST_SUM)), 0)),
        (JambBox::Min, _) => Some((section(mid / sums, (mid % sums + LEAST_SUM) - points), 0)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::jamb::JambBox::*;

    /// A column with the given (box, points).
    fn column(values: &[(JambBox, i32)]) -> ColumnState {
        values
            .iter()
            .fold(ColumnState::default(), |c, &(b, p)| c.with(b, p).unwrap())
    }

    #[test]
    fn credits_add_up_to_the_total_in_every_order() {
        // Every order of writing Ones, Max, Min (and a few upper boxes) gives credits summing
        // to the column's total, and the key after each write is the key of the column.
        let writes = [
            (Ones, 3),
            (Max, 27),
            (Min, 9),
            (Sixes, 24),
            (Fives, 20),
            (Fours, 16),
            (Straight, 56),
        ];
        let orders: [[usize; 7]; 4] = [
            [0, 1, 2, 3, 4, 5, 6],
            [2, 1, 0, 6, 5, 4, 3],
            [1, 0, 3, 2, 4, 5, 6],
            [6, 2, 0, 4, 1, 5, 3],
        ];
        for order in orders {
            let mut state = ColumnState::default();
            let mut key = key_of(&state, MiddleRule::AsIs).unwrap();
            let mut credited = 0;
            for &i in &order {
                let (b, p) = writes[i];
                let (c, next) = step(key, b, p, MiddleRule::AsIs).unwrap();
                credited += c;
                state = state.with(b, p).unwrap();
                key = next;
                assert_eq!(
                    key_of(&state, MiddleRule::AsIs),
                    Some(key),
                    "order {order:?} after {b}"
                );
                assert_eq!(
                    state.total() + pending_credit(&state, MiddleRule::AsIs),
                    credited
                );
            }
            // 3 + 24 + 20 + 16 = 63 upper, bonus 30, middle 18 * 3 = 54, straight 56.
            assert_eq!(credited, 63 + 30 + 54 + 56);
        }
    }

    #[test]
    fn upper_classes_merge_sums_with_the_same_future_bonus() {
        let classes = upper_classes();
        // Everything filled but Sixes: sums below 30 cannot reach 60 (one class with sums at or
        // above 60 and the hopeless ones), 30..=59 split by how many sixes they need (30..=35
        // need five, 36..=41 four, ...).
        let s = 0b011111;
        assert_eq!(classes.class(s, 12), classes.class(s, 60));
        assert_eq!(classes.class(s, 30), classes.class(s, 35));
        assert_ne!(classes.class(s, 35), classes.class(s, 36));
        assert_eq!(classes.class(s, 33).map(|c| classes.rep(s, c)), Some(30));
        assert_eq!(classes.count(s), 1 + 5);
        // Nothing filled: only the sum 0.
        assert_eq!(classes.count(0), 1);
        assert_eq!(classes.class(0, 3), None);
        let column = column(&[(Ones, 3), (Max, 27), (Min, 9)]);
        assert_eq!(pending_credit(&column, MiddleRule::AsIs), 0);
    }

    /// The column's total with a negative middle section counting 0, by hand.
    fn total_never_negative(state: &ColumnState) -> i32 {
        let get = |b: JambBox| state.value(b).unwrap_or(0);
        let section = (get(Max) - get(Min)) * get(Ones);
        let upper: i32 = JambBox::ALL[..6].iter().map(|&b| get(b)).sum();
        let bonus = if upper >= 60 { 30 } else { 0 };
        let lower: i32 = JambBox::ALL[8..].iter().map(|&b| get(b)).sum();
        let total = upper + bonus + section.max(0) + lower;
        assert_eq!(column_total(state, MiddleRule::NeverNegative), total);
        total
    }

    #[test]
    fn never_negative_credits_add_up_in_every_order() {
        // Every order of Ones, Max and Min (and two other boxes), with the section positive
        // and negative: the credits add up to the total with the section never below 0, and
        // each key is the column's key.
        let middle = MiddleRule::NeverNegative;
        for (max, min) in [(27, 9), (11, 24), (15, 15)] {
            let writes = [
                (Ones, 3),
                (Max, max),
                (Min, min),
                (Sixes, 24),
                (Straight, 56),
            ];
            let orders: [[usize; 5]; 6] = [
                [0, 1, 2, 3, 4],
                [0, 2, 1, 4, 3],
                [1, 0, 2, 3, 4],
                [1, 2, 0, 3, 4],
                [2, 0, 3, 1, 4],
                [2, 1, 4, 0, 3],
            ];
            for order in orders {
                let mut state = ColumnState::default();
                let mut key = key_of(&state, middle).unwrap();
                let mut credited = 0;
                for &i in &order {
                    let (b, p) = writes[i];
                    let (c, next) = step(key, b, p, middle).unwrap();
                    credited += c;
                    state = state.with(b, p).unwrap();
                    key = next;
                    assert_eq!(key_of(&state, middle), Some(key), "{order:?} after {b}");
                    assert!(key.mid < mid_count(key.mask, middle) as u8);
                    assert_eq!(pending_credit(&state, middle), 0);
                }
                assert_eq!(
                    credited,
                    total_never_negative(&state),
                    "{max} {min} {order:?}"
                );
                let section = 3 * (max - min).max(0);
                assert_eq!(credited, 24 + 56 + 3 + section);
            }
        }
        assert_eq!(mid_count(ONES | MAX, middle), 156);
        assert_eq!(mid_count(ONES | MAX, MiddleRule::AsIs), 6);
        let info = key_info(
            key_of(&column(&[(Ones, 4), (Min, 12)]), middle).unwrap(),
            middle,
        );
        assert_eq!((info.pending_ones, info.pending_min), (Some(4), Some(12)));
    }
}

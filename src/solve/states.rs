//! Indexing of sheet states `(K, c)` for the tables, with the thesis's reductions: only
//! reachable upper totals, and one representative per class of equivalent totals (two totals
//! are equivalent when every total the free upper boxes can add crosses 63 from both or from
//! neither).
//!
//! A state is a *lower index* (which lower boxes are filled and what the Yahtzee box holds) and an
//! *upper pair* (which upper boxes are filled, and the representative capped upper total).
//! Table index = `lower * pair_count + pair`; the pairs of one upper mask are contiguous.

use crate::dice::MAX_DICE;
use crate::rules::{upper_totals_with, PerRuleSet, RuleSet, Sheet, UPPER_BOXES};
use std::sync::OnceLock;

/// Sentinel for "no such pair" (an unreachable upper total).
pub(crate) const NO_PAIR: u16 = u16::MAX;

/// The reachable, non-equivalent (upper mask, capped upper total) pairs of one number of dice
/// and one bonus threshold.
pub struct UpperPairs {
    /// Dice a box may count (0 to `dice` of its face).
    dice: usize,
    /// The upper total that earns the bonus; totals are capped here.
    threshold: u32,
    /// Pairs of upper mask `S` are `offset[S]..offset[S + 1]`.
    pub offset: [usize; 65],
    /// Capped upper total (the representative) of each pair.
    pub total: Vec<u8>,
    /// Upper mask of each pair.
    pub mask: Vec<u8>,
    /// `index[S * (threshold + 1) + c]`: the pair of mask `S` whose class holds total `c`, or
    /// [`NO_PAIR`].
    index: Vec<u16>,
    /// `next[(pair * 6 + face - 1) * (dice + 1) + n]`: the pair after scoring `n` dice of a
    /// free `face`.
    next: Vec<u16>,
}

impl std::fmt::Debug for UpperPairs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UpperPairs")
            .field("dice", &self.dice)
            .field("threshold", &self.threshold)
            .field("count", &self.count())
            .finish_non_exhaustive()
    }
}

impl UpperPairs {
    /// Number of pairs (1,618 for five dice and a threshold of 63).
    pub fn count(&self) -> usize {
        self.total.len()
    }

    /// The pair of upper mask `mask` and capped total `c`, if `c` is reachable with `mask`.
    pub fn pair(&self, mask: u8, c: u32) -> Option<usize> {
        let c = c.min(self.threshold) as usize;
        let stride = self.threshold as usize + 1;
        let p = *self.index.get(usize::from(mask) * stride + c)?;
        (p != NO_PAIR).then_some(usize::from(p))
    }

    /// The pair reached from `pair` by scoring `n` dice of the free upper `face`.
    pub fn next(&self, pair: usize, face: u8, n: u8) -> usize {
        let at = (pair * 6 + usize::from(face - 1)) * (self.dice + 1) + usize::from(n);
        usize::from(self.next[at])
    }

    /// The upper bonus threshold the totals are capped at.
    pub fn threshold(&self) -> u32 {
        self.threshold
    }

    fn build(dice: usize, threshold: u32) -> UpperPairs {
        let stride = threshold as usize + 1;
        let most = 21 * dice as u32;
        let mut offset = [0usize; 65];
        let mut total = Vec::new();
        let mut mask_of = Vec::new();
        let mut index = vec![NO_PAIR; 64 * stride];
        for mask in 0..64u8 {
            offset[usize::from(mask)] = total.len();
            let reach = upper_totals_with(mask, dice);
            let addable = upper_totals_with(!mask & 0x3f, dice);
            // Class of c: the least addable total that crosses the threshold from c; `None`
            // when no future bonus is possible (already reached, or out of reach).
            let class = |c: u32| -> Option<u32> {
                if c >= threshold {
                    return None;
                }
                (threshold - c..=most).find(|&a| addable & (1u128 << a) != 0)
            };
            let reachable = |c: u32| {
                if c < threshold {
                    reach & (1u128 << c) != 0
                } else {
                    reach >> threshold != 0
                }
            };
            let mut reps: Vec<(Option<u32>, u16)> = Vec::new();
            for c in 0..=threshold {
                if !reachable(c) {
                    continue;
                }
                let key = class(c);
                let pair = match reps.iter().find(|(k, _)| *k == key) {
                    Some(&(_, p)) => p,
                    None => {
                        let p = total.len() as u16;
                        total.push(c as u8);
                        mask_of.push(mask);
                        reps.push((key, p));
                        p
                    }
                };
                index[usize::from(mask) * stride + c as usize] = pair;
            }
        }
        offset[64] = total.len();
        let mut next = vec![NO_PAIR; total.len() * 6 * (dice + 1)];
        for p in 0..total.len() {
            for face in 1..=6u8 {
                let bit = 1u8 << (face - 1);
                if mask_of[p] & bit != 0 {
                    continue;
                }
                for n in 0..=dice as u32 {
                    let c = (u32::from(total[p]) + n * u32::from(face)).min(threshold);
                    next[(p * 6 + usize::from(face - 1)) * (dice + 1) + n as usize] =
                        index[usize::from(mask_of[p] | bit) * stride + c as usize];
                }
            }
        }
        UpperPairs {
            dice,
            threshold,
            offset,
            total,
            mask: mask_of,
            index,
            next,
        }
    }

    /// The pairs of a rule set's dice and bonus threshold, shared: built on first use.
    pub fn of(rules: RuleSet) -> &'static UpperPairs {
        static PAIRS: PerRuleSet<UpperPairs> = [const { OnceLock::new() }; RuleSet::ALL.len()];
        let description = rules.description();
        rules.once(&PAIRS, || {
            UpperPairs::build(description.dice, description.upper_bonus.threshold)
        })
    }
}

/// The upper-pair tables of the five-dice rule sets with the bonus at 63 (identical for all
/// of today's rule sets; a state space reads its own rule set's, [`StateSpace::pairs`]).
pub fn upper_pairs() -> &'static UpperPairs {
    UpperPairs::of(RuleSet::Yahtzee)
}

/// How a rule set's states map to table indices.
#[derive(Clone, Copy, Debug)]
pub struct StateSpace {
    /// The rule set.
    pub rules: RuleSet,
    /// Its upper pairs.
    pub pairs: &'static UpperPairs,
}

impl StateSpace {
    /// The state space of a rule set.
    pub fn new(rules: RuleSet) -> StateSpace {
        StateSpace {
            rules,
            pairs: UpperPairs::of(rules),
        }
    }

    /// Number of lower boxes other than the Yahtzee box.
    fn plain_lower(&self) -> usize {
        self.rules.box_count() - UPPER_BOXES - 1
    }

    /// Number of states of the Yahtzee box: free, filled (and, where tracked, 0 or 50).
    fn yahtzee_states(&self) -> usize {
        if self.rules.tracks_yahtzee_50() {
            3
        } else {
            2
        }
    }

    /// Number of lower indices.
    pub fn lower_count(&self) -> usize {
        (1 << self.plain_lower()) * self.yahtzee_states()
    }

    /// Number of table entries.
    pub fn len(&self) -> usize {
        self.lower_count() * self.pairs.count()
    }

    /// True for an empty state space (never).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The lower boxes other than the Yahtzee box, each with its bit in a lower index.
    fn plain_lower_boxes(&self) -> impl Iterator<Item = (usize, usize)> {
        let y = self.rules.yahtzee_box();
        (UPPER_BOXES..self.rules.box_count())
            .filter(move |&b| b != y)
            .enumerate()
    }

    /// The lower index of a filled mask and Yahtzee-box content.
    pub fn lower_index(&self, filled: u32, yahtzee_50: bool) -> usize {
        let plain = usize::from(self.plain_bits()[(filled >> UPPER_BOXES) as usize]);
        let y_state = if filled & (1 << self.rules.yahtzee_box()) == 0 {
            0
        } else if yahtzee_50 && self.rules.tracks_yahtzee_50() {
            2
        } else {
            1
        };
        plain * self.yahtzee_states() + y_state
    }

    /// For each set of filled lower boxes (the sheet mask shifted past the upper boxes), the bits
    /// of its plain lower boxes (by [`StateSpace::plain_lower_boxes`]' numbering).
    fn plain_bits(&self) -> &'static [u16] {
        static TABLES: PerRuleSet<Vec<u16>> = [const { OnceLock::new() }; RuleSet::ALL.len()];
        self.rules
            .once(&TABLES, || {
                let lower = self.rules.box_count() - UPPER_BOXES;
                (0..1usize << lower)
                    .map(|mask| {
                        self.plain_lower_boxes()
                            .filter(|&(_, b)| mask << UPPER_BOXES & (1 << b) != 0)
                            .fold(0u16, |m, (bit, _)| m | 1 << bit)
                    })
                    .collect()
            })
            .as_slice()
    }

    /// The filled lower boxes (as a sheet mask) and Yahtzee-box content of a lower index.
    pub fn lower_boxes(&self, lower: usize) -> (u32, bool) {
        let plain = lower / self.yahtzee_states();
        let y_state = lower % self.yahtzee_states();
        let mut filled = self
            .plain_lower_boxes()
            .filter(|&(bit, _)| plain & (1 << bit) != 0)
            .fold(0u32, |m, (_, b)| m | 1 << b);
        if y_state > 0 {
            filled |= 1 << self.rules.yahtzee_box();
        }
        (filled, y_state == 2)
    }

    /// Table index of a lower index and an upper pair.
    pub fn index(&self, lower: usize, pair: usize) -> usize {
        lower * self.pairs.count() + pair
    }

    /// Table index of a sheet, or `None` if its upper total is impossible.
    pub fn index_of(&self, sheet: &Sheet) -> Option<usize> {
        let pair = self.pairs.pair(sheet.upper_mask(), sheet.capped_upper())?;
        Some(self.index(self.lower_index(sheet.filled, sheet.yahtzee_50), pair))
    }
}

/// What scoring one free box leads to from a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// A lower box: the state after it.
    Lower(usize),
    /// The Yahtzee box where its content is tracked: the states after scoring 0 and 50.
    Yahtzee {
        /// After scoring 0.
        zero: usize,
        /// After scoring 50.
        fifty: usize,
    },
    /// An upper box: for 0 to all dice of its face, the state after and the points gained
    /// (the dice and the upper bonus if it is reached).
    Upper {
        /// The box's face.
        face: u8,
        /// `(state, points)` by number of dice (entries past the rules' dice are unused).
        after: [(usize, u32); MAX_DICE + 1],
    },
}

/// What scoring one free box does to the lower index, the same for every upper pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoxStep {
    /// A lower box: the lower index after it.
    Lower(usize),
    /// The Yahtzee box where its content is tracked: the lower indices after scoring 0 and 50.
    Yahtzee {
        /// After scoring 0.
        zero: usize,
        /// After scoring 50.
        fifty: usize,
    },
    /// An upper box of this face: the lower index stays, the upper pair moves on
    /// (`StateSpace::upper_step`).
    Upper(u8),
}

impl StateSpace {
    /// What scoring free box `b` does to lower index `lower` (the one place that knows how a
    /// box moves a state on, with [`StateSpace::upper_step`]).
    pub(crate) fn box_step(&self, lower: usize, b: usize) -> BoxStep {
        let rules = self.rules;
        let (lower_filled, yahtzee_50) = self.lower_boxes(lower);
        let next = lower_filled | (1 << b);
        if b < UPPER_BOXES {
            BoxStep::Upper(b as u8 + 1)
        } else if b == rules.yahtzee_box() && rules.tracks_yahtzee_50() {
            BoxStep::Yahtzee {
                zero: self.lower_index(next, false),
                fifty: self.lower_index(next, true),
            }
        } else {
            BoxStep::Lower(self.lower_index(next, yahtzee_50))
        }
    }

    /// Scoring `n` dice of the free upper `face` from upper pair `pair`: the pair after and the
    /// points gained (the dice and the upper bonus if it is reached).
    pub(crate) fn upper_step(&self, pair: usize, face: u8, n: u8) -> (usize, u32) {
        let up = self.pairs;
        let c = u32::from(up.total[pair]);
        let dice = u32::from(face) * u32::from(n);
        let crosses = c < up.threshold && c + dice >= up.threshold;
        let bonus = if crosses { self.rules.upper_bonus() } else { 0 };
        (up.next(pair, face, n), dice + bonus)
    }

    /// The free boxes of the state `(lower, pair)` in box order, each with what scoring it
    /// leads to.
    pub(crate) fn successors(&self, lower: usize, pair: usize) -> Vec<(usize, Next)> {
        let (lower_filled, _) = self.lower_boxes(lower);
        let filled = lower_filled | u32::from(self.pairs.mask[pair]);
        let dice = self.pairs.dice;
        (0..self.rules.box_count())
            .filter(|b| filled & (1 << b) == 0)
            .map(|b| {
                let step = match self.box_step(lower, b) {
                    BoxStep::Upper(face) => Next::Upper {
                        face,
                        after: std::array::from_fn(|n| {
                            if n > dice {
                                return (usize::MAX, 0);
                            }
                            let (p, points) = self.upper_step(pair, face, n as u8);
                            (self.index(lower, p), points)
                        }),
                    },
                    BoxStep::Yahtzee { zero, fifty } => Next::Yahtzee {
                        zero: self.index(zero, pair),
                        fifty: self.index(fifty, pair),
                    },
                    BoxStep::Lower(after) => Next::Lower(self.index(after, pair)),
                };
                (b, step)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thesis_pair_count() {
        // docs/methods.md: 1,618 upper pairs; 1,618 * 3 * 2^6 = 310,656 Yahtzee states.
        assert_eq!(upper_pairs().count(), 1618);
        assert_eq!(StateSpace::new(RuleSet::Yahtzee).len(), 310_656);
    }

    #[test]
    fn lower_index_round_trips() {
        for rules in RuleSet::ALL {
            let space = StateSpace::new(rules);
            for lower in 0..space.lower_count() {
                let (filled, y50) = space.lower_boxes(lower);
                assert_eq!(space.lower_index(filled, y50), lower, "{rules}");
            }
        }
    }

    #[test]
    fn equivalent_totals_share_a_pair() {
        let pairs = upper_pairs();
        // With every upper box filled the total no longer matters.
        assert_eq!(pairs.offset[64] - pairs.offset[63], 1);
        // A bonus already won and a bonus out of reach are the same future.
        assert_eq!(pairs.pair(0x1f, 70), pairs.pair(0x1f, 5));
        assert_eq!(pairs.pair(0x3f, 10), pairs.pair(0x3f, 62));
        // With only sixes free, 39 and 40 both need four sixes; 44 needs four, 45 three.
        let m = 0x1f;
        assert_eq!(pairs.pair(m, 40), pairs.pair(m, 39));
        assert_ne!(pairs.pair(m, 45), pairs.pair(m, 44));
        assert_eq!(pairs.pair(2, 1), None, "twos cannot make 1");
    }

    /// Every upper total `mask` can make with up to `dice` dice a box, by enumerating the
    /// dice counts of its boxes (sharing nothing with the bit sets of the builder).
    fn totals_by_enumeration(mask: u8, dice: u32) -> Vec<u32> {
        let mut totals = vec![0u32];
        for face in (1..=6u32).filter(|f| mask & (1 << (f - 1)) != 0) {
            totals = totals
                .iter()
                .flat_map(|&t| (0..=dice).map(move |n| t + n * face))
                .collect();
        }
        totals.sort_unstable();
        totals.dedup();
        totals
    }

    #[test]
    fn pairs_of_any_dice_and_threshold_are_the_classes_of_future_bonuses() {
        // Five dice with the bonus at 63 (today's rule sets) and six dice with the bonus at 84
        // (Maxi Yatzy), four dice as a reduced game: a pair exists for every reachable capped
        // total, and two totals share one exactly when the same future totals earn the bonus.
        for (dice, threshold) in [(5u32, 63u32), (6, 84), (4, 42)] {
            let pairs = UpperPairs::build(dice as usize, threshold);
            for mask in 0..64u8 {
                let reach = totals_by_enumeration(mask, dice);
                let addable = totals_by_enumeration(!mask & 0x3f, dice);
                let future = |c: u32| -> Vec<bool> {
                    addable
                        .iter()
                        .map(|&a| c < threshold && c + a >= threshold)
                        .collect()
                };
                for c in 0..=threshold {
                    let reachable = reach.iter().any(|&t| t.min(threshold) == c);
                    let pair = pairs.pair(mask, c);
                    assert_eq!(pair.is_some(), reachable, "{dice} dice, mask {mask}, {c}");
                    let Some(pair) = pair else { continue };
                    assert_eq!(usize::from(pairs.mask[pair]), usize::from(mask));
                    for d in (0..c).filter(|&d| reach.iter().any(|&t| t.min(threshold) == d)) {
                        let same = pairs.pair(mask, d) == Some(pair);
                        assert_eq!(same, future(d) == future(c), "{dice} dice {mask} {c} {d}");
                    }
                    for face in (1..=6u8).filter(|f| mask & (1 << (f - 1)) == 0) {
                        for n in 0..=dice as u8 {
                            let after = (c + u32::from(n * face)).min(threshold);
                            let want = pairs.pair(mask | 1 << (face - 1), after);
                            assert_eq!(Some(pairs.next(pair, face, n)), want);
                        }
                    }
                }
            }
        }
        assert_eq!(UpperPairs::build(5, 63).count(), 1618);
    }
}

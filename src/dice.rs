//! Dice multisets: the 252 rolls of five dice, the 462 keeps of zero to five dice, their
//! indices, probabilities and containment; the same for any number of dice in a [`DiceSpace`]
//! built at run time.
//!
//! Keeps are numbered by size (all keeps of size 0, then size 1, ... then size 5) and, within a
//! size, in lexicographic order of their face counts. The 252 keeps of size 5 are the rolls: roll
//! number `r` is keep number [`FIRST_ROLL`]` + r`. Every table here is built once and shared.

use std::fmt;
use std::sync::OnceLock;

/// Number of faces of a die.
pub(crate) const FACES: usize = 6;
/// Number of dice in a roll.
pub const DICE: usize = 5;
/// Number of keeps (multisets of 0..=5 dice).
pub(crate) const KEEPS: usize = 462;
/// Number of rolls (multisets of exactly 5 dice).
pub const ROLLS: usize = 252;
/// Keep index of the first roll (the first keep of size 5).
pub const FIRST_ROLL: usize = KEEPS - ROLLS;
/// Keep index of the empty keep (reroll everything).
pub const EMPTY_KEEP: usize = 0;
/// Number of equally likely ordered outcomes of five dice: 6^5.
pub const OUTCOMES: u32 = 7776;

/// A multiset of dice as counts per face (`counts[0]` is the number of ones).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Dice {
    counts: [u8; FACES],
}

impl Dice {
    /// The multiset with the given number of dice of each face.
    pub(crate) const fn from_counts(counts: [u8; FACES]) -> Dice {
        Dice { counts }
    }

    /// The multiset of the given faces (1..=6); `None` if a face is out of range or there are
    /// more than five dice.
    pub fn from_faces(faces: &[u8]) -> Option<Dice> {
        Dice::from_faces_up_to(faces, DICE)
    }

    /// The multiset of the given faces (1..=6); `None` if a face is out of range or there are
    /// more than `most` dice (at most [`MAX_DICE`]).
    pub(crate) fn from_faces_up_to(faces: &[u8], most: usize) -> Option<Dice> {
        if faces.len() > most.min(MAX_DICE) {
            return None;
        }
        let mut counts = [0u8; FACES];
        for &f in faces {
            if !(1..=6).contains(&f) {
                return None;
            }
            counts[usize::from(f - 1)] += 1;
        }
        Some(Dice { counts })
    }

    /// Number of dice showing `face` (1..=6).
    pub fn count(&self, face: u8) -> u8 {
        self.counts[usize::from(face - 1)]
    }

    /// Counts per face, ones first.
    pub fn counts(&self) -> [u8; FACES] {
        self.counts
    }

    /// Number of dice.
    pub fn len(&self) -> usize {
        self.counts.iter().map(|&c| usize::from(c)).sum()
    }

    /// True for the empty multiset.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Sum of the faces.
    pub fn sum(&self) -> u32 {
        (1..=6u32)
            .zip(self.counts)
            .map(|(f, c)| f * u32::from(c))
            .sum()
    }

    /// The faces in ascending order.
    pub fn faces(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len());
        for (i, &c) in self.counts.iter().enumerate() {
            out.extend(std::iter::repeat_n(i as u8 + 1, usize::from(c)));
        }
        out
    }

    /// True when every die of `self` is also in `other` (multiset containment).
    pub(crate) fn is_subset_of(&self, other: &Dice) -> bool {
        self.counts.iter().zip(other.counts).all(|(&a, b)| a <= b)
    }

    /// The dice of `self` not in `sub`; `None` unless `sub` is contained in `self`.
    pub fn minus(&self, sub: &Dice) -> Option<Dice> {
        let mut counts = self.counts;
        for (c, s) in counts.iter_mut().zip(sub.counts) {
            *c = c.checked_sub(s)?;
        }
        Some(Dice { counts })
    }

    /// The face shown by all five dice, if the roll is five of a kind (five dice only).
    pub fn five_of_a_kind(&self) -> Option<u8> {
        self.counts
            .iter()
            .position(|&c| usize::from(c) == DICE)
            .map(|i| i as u8 + 1)
    }

    /// Index of this multiset among the 462 keeps; `None` for more than five dice.
    pub fn keep_index(&self) -> Option<usize> {
        if self.len() > DICE {
            return None;
        }
        let idx = tables().index_of[self.key()];
        Some(usize::from(idx))
    }

    /// Index of this five-dice multiset among the 252 rolls.
    pub fn roll_index(&self) -> Option<usize> {
        if self.len() != DICE {
            return None;
        }
        self.keep_index().map(|k| k - FIRST_ROLL)
    }

    /// The keep with the given index (0..462).
    pub fn keep(index: usize) -> Dice {
        tables().keeps[index]
    }

    /// The roll with the given index (0..252).
    pub fn roll(index: usize) -> Dice {
        tables().keeps[FIRST_ROLL + index]
    }

    /// Every distinct sub-multiset of `self`, itself and the empty one included, ascending by
    /// keep index.
    pub fn sub_multisets(&self) -> Vec<Dice> {
        let mut out = vec![Dice::default()];
        for face in 0..FACES {
            let mut next = Vec::with_capacity(out.len() * (usize::from(self.counts[face]) + 1));
            for base in &out {
                for n in 0..=self.counts[face] {
                    let mut d = *base;
                    d.counts[face] = n;
                    next.push(d);
                }
            }
            out = next;
        }
        out.sort_by_key(|d| d.keep_index());
        out
    }

    /// Mixed-radix key (base 6 per face) used by the five-dice index lookup.
    fn key(&self) -> usize {
        self.key_in_base(DICE + 1)
    }

    /// Mixed-radix key (`base` per face, more than the most dice of a face) used by the index
    /// lookups.
    fn key_in_base(&self, base: usize) -> usize {
        self.counts
            .iter()
            .rev()
            .fold(0usize, |acc, &c| acc * base + usize::from(c))
    }
}

impl fmt::Display for Dice {
    /// Faces in ascending order (`12344`), or `-` for no dice.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for face in self.faces() {
            write!(f, "{face}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Dice({self})")
    }
}

/// The shared five-dice space (built on first use): the keeps and rolls of the five-dice
/// games, which the five-dice helpers of [`Dice`] ([`Dice::roll`], [`Dice::keep_index`]) read.
/// Solvers read the space of their rules' dice instead ([`DiceSpace::of`]).
pub fn tables() -> &'static DiceSpace {
    DiceSpace::clamped(DICE)
}

fn factorial(n: usize) -> u32 {
    (1..=n as u32).product()
}

/// Number of orderings of a multiset (multinomial coefficient).
fn arrangements(d: &Dice) -> u32 {
    d.counts.iter().fold(factorial(d.len()), |acc, &c| {
        acc / factorial(usize::from(c))
    })
}

/// Most dice a [`DiceSpace`] is built for.
pub const MAX_DICE: usize = 6;

/// The rolls and keeps of any number of dice (up to [`MAX_DICE`]), computed at run time: their
/// indices, probabilities and containment, numbered as the five-dice tables are (keeps by size,
/// then in lexicographic order of their face counts; the rolls are the keeps of full size).
///
/// Every solver reads the space of its rules' dice ([`DiceSpace::of`]); [`tables`] is the
/// five-dice space.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceSpace {
    dice: usize,
    /// Keep index of the first roll (`size_start[dice]`).
    first_roll: usize,
    /// The keeps, by index.
    pub(crate) keeps: Vec<Dice>,
    /// First keep index of each size 0..=dice, plus the number of keeps at the end.
    pub(crate) size_start: Vec<usize>,
    /// For keeps smaller than a roll: the keep with one more die of each face.
    pub(crate) add_face: Vec<[u16; FACES]>,
    /// For each keep: the distinct keeps with one die fewer (one per face present).
    pub(crate) remove_one: Vec<Vec<u16>>,
    /// `remove_one` padded to one keep per face with the keep itself (whose maximum with
    /// itself changes nothing): a loop of fixed length, for the widget's vector tiles.
    pub(crate) remove_one_padded: Vec<[u16; FACES]>,
    /// Every `(keep, keep with one die fewer)` pair, keeps in ascending order: the order in
    /// which the widget raises each keep to the best keep it contains (a flat list, read
    /// front to back).
    pub(crate) raise_order: Vec<(u16, u16)>,
    /// For each roll: the keep indices of its proper sub-multisets (the empty keep included),
    /// ascending.
    pub(crate) proper_sub_keeps: Vec<Vec<u16>>,
    /// Number of ordered outcomes (out of `6^dice`) that give each roll from scratch.
    pub(crate) roll_weight: Vec<u32>,
    /// For each keep: the rolls it can lead to, with the number of ordered outcomes (out of
    /// `6^(dice - size)`) of rerolling the other dice that give each.
    pub(crate) outcomes: Vec<Vec<(u16, u32)>>,
    index_of: Vec<u16>,
}

impl DiceSpace {
    /// The space of `dice` dice (1 to [`MAX_DICE`]), shared: built on first use.
    pub fn of(dice: usize) -> Option<&'static DiceSpace> {
        (1..=MAX_DICE)
            .contains(&dice)
            .then(|| DiceSpace::clamped(dice))
    }

    /// The space of `dice` dice clamped to 1 to [`MAX_DICE`], shared: for the rules'
    /// descriptions, whose dice are in range (a unit test checks every rule set's).
    pub(crate) fn clamped(dice: usize) -> &'static DiceSpace {
        static SPACES: [OnceLock<DiceSpace>; MAX_DICE] = [const { OnceLock::new() }; MAX_DICE];
        let dice = dice.clamp(1, MAX_DICE);
        SPACES[dice - 1].get_or_init(|| DiceSpace::new(dice))
    }

    /// Builds the space of `dice` dice (at most [`MAX_DICE`]; more are clamped to it).
    pub fn new(dice: usize) -> DiceSpace {
        let dice = dice.min(MAX_DICE);
        let mut keeps = Vec::new();
        let mut size_start = Vec::with_capacity(dice + 2);
        for size in 0..=dice {
            size_start.push(keeps.len());
            let mut of_size = Vec::new();
            enumerate_counts(size, 0, [0; FACES], &mut of_size);
            of_size.sort();
            keeps.extend(of_size.into_iter().map(Dice::from_counts));
        }
        size_start.push(keeps.len());
        let first_roll = size_start[dice];

        let base = dice + 1;
        let mut index_of = vec![u16::MAX; base.pow(FACES as u32)];
        for (i, k) in keeps.iter().enumerate() {
            index_of[k.key_in_base(base)] = i as u16;
        }
        let lookup = |d: &Dice| index_of[d.key_in_base(base)];

        let add_face = keeps
            .iter()
            .map(|k| {
                let mut out = [u16::MAX; FACES];
                if k.len() < dice {
                    for (f, slot) in out.iter_mut().enumerate() {
                        let mut d = *k;
                        d.counts[f] += 1;
                        *slot = lookup(&d);
                    }
                }
                out
            })
            .collect();
        let remove_one: Vec<Vec<u16>> = keeps
            .iter()
            .map(|k| {
                (0..FACES)
                    .filter(|&f| k.counts[f] > 0)
                    .map(|f| {
                        let mut d = *k;
                        d.counts[f] -= 1;
                        lookup(&d)
                    })
                    .collect()
            })
            .collect();
        let rolls = &keeps[first_roll..];
        let roll_weight = rolls.iter().map(arrangements).collect();
        let outcomes = keeps
            .iter()
            .map(|k| {
                rolls
                    .iter()
                    .enumerate()
                    .filter_map(|(r, roll)| {
                        roll.minus(k).map(|rest| (r as u16, arrangements(&rest)))
                    })
                    .collect()
            })
            .collect();
        let proper_sub_keeps = rolls
            .iter()
            .map(|roll| {
                (0..first_roll)
                    .filter(|&k| keeps[k].is_subset_of(roll))
                    .map(|k| k as u16)
                    .collect()
            })
            .collect();
        let remove_one_padded = remove_one
            .iter()
            .enumerate()
            .map(|(keep, smaller)| {
                let mut padded = [keep as u16; FACES];
                for (p, &s) in padded.iter_mut().zip(smaller) {
                    *p = s;
                }
                padded
            })
            .collect();
        let raise_order = remove_one
            .iter()
            .enumerate()
            .flat_map(|(keep, smaller)| smaller.iter().map(move |&s| (keep as u16, s)))
            .collect();
        DiceSpace {
            dice,
            first_roll,
            keeps,
            size_start,
            add_face,
            remove_one,
            remove_one_padded,
            raise_order,
            proper_sub_keeps,
            roll_weight,
            outcomes,
            index_of,
        }
    }

    /// Number of dice in a roll.
    pub fn dice(&self) -> usize {
        self.dice
    }

    /// Number of keeps (multisets of 0 to [`DiceSpace::dice`] dice).
    pub fn keep_count(&self) -> usize {
        self.keeps.len()
    }

    /// Number of rolls (multisets of exactly [`DiceSpace::dice`] dice).
    pub fn roll_count(&self) -> usize {
        self.keeps.len() - self.first_roll()
    }

    /// Keep index of the first roll.
    #[inline(always)]
    pub fn first_roll(&self) -> usize {
        self.first_roll
    }

    /// The rolls, by roll index (the keeps of full size).
    pub fn rolls(&self) -> &[Dice] {
        &self.keeps[self.first_roll()..]
    }

    /// Number of equally likely ordered outcomes of rolling every die: `6^dice`.
    pub fn outcomes_total(&self) -> u32 {
        6u32.pow(self.dice as u32)
    }

    /// First keep index of each size 0..=dice, and the number of keeps at the end.
    pub fn size_starts(&self) -> &[usize] {
        &self.size_start
    }

    /// The keep with the given index.
    pub fn keep(&self, index: usize) -> Option<Dice> {
        self.keeps.get(index).copied()
    }

    /// The roll with the given index.
    pub fn roll(&self, index: usize) -> Option<Dice> {
        self.keeps
            .get(self.first_roll().checked_add(index)?)
            .copied()
    }

    /// Index of a multiset among the keeps; `None` for more dice than the space has.
    #[inline]
    pub fn keep_index(&self, dice: &Dice) -> Option<usize> {
        if dice.len() > self.dice {
            return None;
        }
        self.index_within(dice)
    }

    /// Index of a multiset among the rolls; `None` unless it has exactly the space's dice.
    #[inline]
    pub fn roll_index(&self, dice: &Dice) -> Option<usize> {
        if dice.len() != self.dice {
            return None;
        }
        Some(self.index_within(dice)? - self.first_roll())
    }

    /// The keep index of a multiset of at most the space's dice.
    #[inline(always)]
    fn index_within(&self, dice: &Dice) -> Option<usize> {
        let index = *self.index_of.get(dice.key_in_base(self.dice + 1))?;
        (index != u16::MAX).then_some(usize::from(index))
    }

    /// Number of ordered outcomes (out of [`DiceSpace::outcomes_total`]) that give roll `roll`
    /// from scratch.
    pub fn roll_weights(&self) -> &[u32] {
        &self.roll_weight
    }

    /// For keep `keep`: the rolls it can lead to, with the number of ordered outcomes (out of
    /// `6^(dice - size)`) of rerolling the other dice that give each.
    pub fn outcomes(&self, keep: usize) -> &[(u16, u32)] {
        self.outcomes.get(keep).map_or(&[], Vec::as_slice)
    }

    /// For keep `keep` smaller than a roll: the keep with one more die of each face.
    pub fn add_face(&self, keep: usize) -> Option<&[u16; FACES]> {
        self.add_face.get(keep)
    }

    /// For keep `keep`: the distinct keeps with one die fewer (one per face present).
    pub fn remove_one(&self, keep: usize) -> &[u16] {
        self.remove_one.get(keep).map_or(&[], Vec::as_slice)
    }

    /// For roll `roll`: the keep indices of its proper sub-multisets, ascending.
    pub fn proper_sub_keeps(&self, roll: usize) -> &[u16] {
        self.proper_sub_keeps.get(roll).map_or(&[], Vec::as_slice)
    }
}

fn enumerate_counts(left: usize, face: usize, cur: [u8; FACES], out: &mut Vec<[u8; FACES]>) {
    if face == FACES - 1 {
        let mut c = cur;
        c[face] = left as u8;
        out.push(c);
        return;
    }
    for n in 0..=left {
        let mut c = cur;
        c[face] = n as u8;
        enumerate_counts(left - n, face + 1, c, out);
    }
}

/// For the brute forces of the tests, which share nothing with the dice spaces.
#[cfg(test)]
pub(crate) mod brute_force {
    /// Every ordered outcome of rolling `n` dice, each as `kept` followed by the `n` faces
    /// rolled (not sorted): `6^n` outcomes of equal chance.
    pub(crate) fn rerolls(kept: &[u8], n: usize) -> impl Iterator<Item = Vec<u8>> + '_ {
        (0..6usize.pow(n as u32)).map(move |mut code| {
            let mut faces = kept.to_vec();
            for _ in 0..n {
                faces.push((code % 6) as u8 + 1);
                code /= 6;
            }
            faces
        })
    }

    /// [`rerolls`] with each outcome's faces sorted.
    pub(crate) fn sorted_rerolls(kept: &[u8], n: usize) -> impl Iterator<Item = Vec<u8>> + '_ {
        rerolls(kept, n).map(|mut faces| {
            faces.sort_unstable();
            faces
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_of_keeps_and_rolls() {
        let t = tables();
        assert_eq!(t.keeps.len(), KEEPS);
        assert_eq!(t.size_start, [0, 1, 7, 28, 84, 210, 462]);
        assert!(t.keeps[FIRST_ROLL..].iter().all(|k| k.len() == DICE));
        assert_eq!(t.roll_weight.iter().sum::<u32>(), OUTCOMES);
    }

    #[test]
    fn every_keep_outcomes_sum_to_one() {
        let t = tables();
        for (i, k) in t.keeps.iter().enumerate() {
            let total: u32 = t.outcomes[i].iter().map(|&(_, w)| w).sum();
            assert_eq!(total, 6u32.pow((DICE - k.len()) as u32), "keep {k}");
            for &(r, _) in &t.outcomes[i] {
                assert!(k.is_subset_of(&Dice::roll(usize::from(r))));
            }
        }
    }

    #[test]
    fn indices_round_trip() {
        for i in 0..KEEPS {
            assert_eq!(Dice::keep(i).keep_index(), Some(i));
        }
        let d = Dice::from_faces(&[4, 1, 3, 4, 2]).unwrap();
        assert_eq!(d.to_string(), "12344");
        assert_eq!(Dice::roll(d.roll_index().unwrap()), d);
        assert_eq!(Dice::from_faces(&[7]), None);
        assert_eq!(Dice::from_faces(&[1, 1, 1, 1, 1, 1]), None);
    }

    #[test]
    fn sub_multisets_are_distinct_and_contained() {
        let d = Dice::from_faces(&[1, 2, 3, 4, 4]).unwrap();
        let subs = d.sub_multisets();
        assert_eq!(subs.len(), 2 * 2 * 2 * 3);
        assert!(subs.iter().all(|s| s.is_subset_of(&d)));
        let yahtzee = Dice::from_faces(&[6; 5]).unwrap();
        assert_eq!(yahtzee.sub_multisets().len(), 6);
    }

    #[test]
    fn the_spaces_have_the_sizes_the_solvers_assume() {
        let five = DiceSpace::of(DICE).unwrap();
        assert!(std::ptr::eq(five, tables()), "one shared five-dice space");
        assert_eq!((five.keep_count(), five.roll_count()), (KEEPS, ROLLS));
        assert_eq!(
            (five.first_roll(), five.outcomes_total()),
            (FIRST_ROLL, OUTCOMES)
        );
        let largest = DiceSpace::of(MAX_DICE).unwrap();
        assert_eq!((largest.keep_count(), largest.roll_count()), (924, 462));
        for dice in 1..=MAX_DICE {
            let space = DiceSpace::of(dice).unwrap();
            assert_eq!(space.rolls().len(), space.roll_count());
            assert!(space.rolls().iter().all(|r| r.len() == dice));
            // The raise order lists every (keep, one die fewer) pair, keeps ascending.
            let pairs: Vec<(u16, u16)> = (0..space.keep_count())
                .flat_map(|k| space.remove_one(k).iter().map(move |&s| (k as u16, s)))
                .collect();
            assert_eq!(space.raise_order, pairs, "{dice} dice");
            for roll in 0..space.roll_count() {
                let subs = space.roll(roll).unwrap().sub_multisets().len();
                assert_eq!(space.proper_sub_keeps(roll).len(), subs - 1, "{dice} dice");
            }
        }
        for keep in 0..KEEPS {
            let dice = Dice::keep(keep);
            assert_eq!(five.keep_index(&dice), dice.keep_index());
        }
        for roll in 0..ROLLS {
            assert_eq!(five.roll(roll), Some(Dice::roll(roll)));
        }
    }

    #[test]
    fn six_dice_keeps_rolls_and_probabilities() {
        let space = DiceSpace::of(6).unwrap();
        assert_eq!(space.dice(), 6);
        // Multisets of 6 faces: C(11, 5) = 462 rolls, C(12, 6) = 924 keeps of 0 to 6 dice.
        assert_eq!((space.roll_count(), space.keep_count()), (462, 924));
        assert_eq!(space.size_starts(), [0, 1, 7, 28, 84, 210, 462, 924]);
        assert_eq!(space.roll_weights().iter().sum::<u32>(), 46_656);
        for keep in 0..space.keep_count() {
            let k = space.keep(keep).unwrap();
            assert_eq!(space.keep_index(&k), Some(keep));
            let total: u32 = space.outcomes(keep).iter().map(|&(_, w)| w).sum();
            assert_eq!(total, 6u32.pow((6 - k.len()) as u32), "keep {k}");
            for &(r, _) in space.outcomes(keep) {
                assert!(k.is_subset_of(&space.roll(usize::from(r)).unwrap()));
            }
        }
        let villa = Dice::from_faces_up_to(&[3, 3, 3, 6, 6, 6], 6).unwrap();
        let r = space.roll_index(&villa).unwrap();
        assert_eq!(space.roll(r), Some(villa));
        // 6! / (3! 3!) orderings; counts (3, 3) have 4 * 4 sub-multisets, 15 of them proper.
        assert_eq!(space.roll_weights()[r], 20);
        assert_eq!(space.proper_sub_keeps(r).len(), 15);
        assert_eq!(
            space.roll_index(&Dice::from_faces(&[1, 2, 3, 4, 5]).unwrap()),
            None
        );
        assert_eq!(
            Dice::from_faces(&[1, 1, 1, 1, 1, 1]),
            None,
            "five dice by default"
        );
        assert_eq!(Dice::from_faces_up_to(&[1; 7], 6), None);
        assert!(DiceSpace::of(0).is_none() && DiceSpace::of(MAX_DICE + 1).is_none());
    }
}

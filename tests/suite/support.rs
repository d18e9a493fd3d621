//! The support of a sheet's score distribution from the rules alone, for checking the
//! distribution tables (a test oracle, so here with the tests rather than in the library): the
//! most points still reachable (every roll as good as can be) and the most points a strategy
//! guarantees (every roll as bad as can be). Two integer dynamic programs over sheets, sharing
//! nothing with the distribution code or the turn widget: their own dice multisets, keeps and
//! rerolls, and [`Sheet::after`] for scoring.

use dicelens::dice::Dice;
use dicelens::rules::{Sheet, UPPER_BOXES, UPPER_THRESHOLD};
use std::collections::HashMap;

/// The dice multisets of one turn: keeps of up to five dice (462, by size), the last 252 of
/// which, five dice, are the rolls.
struct Multisets {
    /// The 252 rolls.
    rolls: Vec<Dice>,
    /// For each keep of fewer than five dice, the keep with one more die of each face.
    add: Vec<[usize; 6]>,
    /// For each keep, the keeps with one die fewer (one per distinct face).
    remove: Vec<Vec<usize>>,
}

/// Keeps of fewer than five dice: the rolls come after them.
const SMALL_KEEPS: usize = 210;

/// Face counts of sorted faces.
fn counts(faces: &[u8]) -> [u8; 6] {
    let mut c = [0u8; 6];
    for &f in faces {
        c[usize::from(f - 1)] += 1;
    }
    c
}

/// Every non-decreasing sequence of `len` faces from `from` up.
fn sequences(len: usize, from: u8, prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
    if prefix.len() == len {
        out.push(prefix.clone());
        return;
    }
    for f in from..=6 {
        prefix.push(f);
        sequences(len, f, prefix, out);
        prefix.pop();
    }
}

impl Multisets {
    fn new() -> Multisets {
        let mut keeps = Vec::new();
        for len in 0..=5 {
            sequences(len, 1, &mut Vec::new(), &mut keeps);
        }
        let index: HashMap<[u8; 6], usize> = keeps
            .iter()
            .enumerate()
            .map(|(i, k)| (counts(k), i))
            .collect();
        let with = |k: &[u8], change: &dyn Fn(&mut [u8; 6])| {
            let mut c = counts(k);
            change(&mut c);
            index[&c]
        };
        let add = keeps[..SMALL_KEEPS]
            .iter()
            .map(|k| std::array::from_fn(|f| with(k, &|c| c[f] += 1)))
            .collect();
        let remove = keeps
            .iter()
            .map(|k| {
                let mut faces = k.clone();
                faces.dedup();
                faces
                    .iter()
                    .map(|&f| with(k, &|c| c[usize::from(f - 1)] -= 1))
                    .collect()
            })
            .collect();
        let rolls = keeps[SMALL_KEEPS..]
            .iter()
            .filter_map(|f| Dice::from_faces(f))
            .collect();
        Multisets { rolls, add, remove }
    }

    /// The value of a turn whose rolls are chosen by an adversary: `last[r]` is the value after
    /// the last roll `r`; each reroll gives the worst completion of the keep (the worst of the
    /// keep with one more die, recursively), each roll is worth the best keep it contains (the
    /// best of itself and of itself with one die fewer, recursively), and the first roll is
    /// the worst.
    fn worst_case_turn(&self, last: &[u32]) -> u32 {
        let mut worst = vec![0u32; SMALL_KEEPS + last.len()];
        worst[SMALL_KEEPS..].copy_from_slice(last);
        let mut best = vec![0u32; worst.len()];
        for _ in 0..2 {
            for k in (0..SMALL_KEEPS).rev() {
                worst[k] = self.add[k].iter().map(|&n| worst[n]).min().unwrap_or(0);
            }
            for k in 0..best.len() {
                best[k] = self.remove[k]
                    .iter()
                    .map(|&s| best[s])
                    .fold(worst[k], u32::max);
            }
            worst[SMALL_KEEPS..].copy_from_slice(&best[SMALL_KEEPS..]);
        }
        worst[SMALL_KEEPS..].iter().copied().min().unwrap_or(0)
    }
}

/// Points still to come of a sheet: the most a strategy guarantees whatever the dice, and the
/// most any dice allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Support {
    /// The most points still to come that some strategy reaches with every roll of the dice
    /// (`P(at least this) = 1`, and `P(at least one more) < 1`).
    pub guaranteed: u32,
    /// The most points still to come that some rolls of the dice allow (`P > 0` up to it, 0
    /// beyond).
    pub greatest: u32,
}

/// Computes [`Support`] of sheets, remembering every sheet met (their points aside).
pub struct SupportSolver {
    dice: Multisets,
    known: HashMap<Sheet, Support>,
}

impl Default for SupportSolver {
    fn default() -> Self {
        SupportSolver {
            dice: Multisets::new(),
            known: HashMap::new(),
        }
    }
}

impl SupportSolver {
    /// Every sheet whose support has been computed (the points left at 0, the upper total
    /// capped), with it: after [`SupportSolver::support`] of an empty sheet, every sheet a
    /// game can reach.
    pub fn solved(&self) -> impl Iterator<Item = (&Sheet, &Support)> {
        self.known.iter()
    }

    /// The support of the points still to come of `sheet`.
    pub fn support(&mut self, sheet: &Sheet) -> Support {
        if sheet.is_complete() {
            return Support {
                guaranteed: 0,
                greatest: 0,
            };
        }
        // The upper total matters only while the bonus is still open: at most the threshold,
        // and 0 once the free upper boxes cannot reach it.
        let open: u32 = (0..UPPER_BOXES)
            .filter(|&b| sheet.filled & (1 << b) == 0)
            .map(|b| 5 * (b as u32 + 1))
            .sum();
        let upper = sheet.capped_upper();
        let key = Sheet {
            points: 0,
            upper_total: if upper + open < UPPER_THRESHOLD {
                0
            } else {
                upper
            },
            ..*sheet
        };
        if let Some(&s) = self.known.get(&key) {
            return s;
        }
        let mut worst_last = Vec::with_capacity(self.dice.rolls.len());
        let mut greatest = 0;
        // The few sheets each box leads to, with their support: looked up here rather than
        // in the map, once per roll and box.
        let mut reached: Vec<Vec<(Sheet, Support)>> = vec![Vec::new(); key.rules.box_count()];
        for r in 0..self.dice.rolls.len() {
            let roll = self.dice.rolls[r];
            let (mut worst, mut best) = (0, 0);
            for (b, seen) in reached.iter_mut().enumerate() {
                if let Some((next, gained)) = key.after(&roll, b) {
                    let next = Sheet { points: 0, ..next };
                    let s = match seen.iter().find(|(sheet, _)| *sheet == next) {
                        Some(&(_, s)) => s,
                        None => {
                            let s = self.support(&next);
                            seen.push((next, s));
                            s
                        }
                    };
                    worst = worst.max(gained + s.guaranteed);
                    best = best.max(gained + s.greatest);
                }
            }
            worst_last.push(worst);
            greatest = greatest.max(best);
        }
        let support = Support {
            guaranteed: self.dice.worst_case_turn(&worst_last),
            greatest,
        };
        self.known.insert(key, support);
        support
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dicelens::rules::RuleSet;

    #[test]
    fn one_box_sheets_have_their_obvious_support() {
        let rules = RuleSet::Yahtzee;
        let mut solver = SupportSolver::default();
        // Only chance free: 5 guaranteed (five ones at worst), 30 at best.
        let codes: Vec<String> = rules
            .boxes()
            .iter()
            .filter(|b| b.code() != "C")
            .map(|b| {
                if b.code() == "Y" {
                    "Y0".to_string()
                } else {
                    b.code().to_string()
                }
            })
            .collect();
        let sheet = Sheet::from_codes(rules, &codes, 63, 200).unwrap();
        assert_eq!(
            solver.support(&sheet),
            Support {
                guaranteed: 5,
                greatest: 30
            }
        );
        assert_eq!(solver.dice.rolls.len(), 252);
        assert_eq!(solver.dice.remove.len(), 462);
        // A roll of five distinct faces holds five keeps of one die fewer.
        let distinct = solver
            .dice
            .rolls
            .iter()
            .position(|r| r.faces() == [1, 2, 3, 4, 5]);
        let distinct = SMALL_KEEPS + distinct.unwrap();
        assert_eq!(solver.dice.remove[distinct].len(), 5);
    }
}

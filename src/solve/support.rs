//! The support of a sheet's score distribution from the rules alone, for checking the
//! distribution tables: the most points still reachable (every roll as good as can be) and the
//! most points a strategy guarantees (every roll as bad as can be). Two integer dynamic
//! programs over sheets, sharing nothing with the distribution code or the turn widget: their
//! own dice multisets, keeps and rerolls, and [`Sheet::after`] for scoring.

use crate::dice::Dice;
use crate::rules::Sheet;
use std::collections::HashMap;

/// The dice multisets of one turn: rolls of five dice and keeps of up to five, sorted faces.
struct Multisets {
    /// The 252 rolls.
    rolls: Vec<Dice>,
    /// For each of the 462 keeps, the rolls that contain it (its possible results after a
    /// reroll).
    completions: Vec<Vec<usize>>,
    /// For each roll, the keeps it contains (keeping all five is stopping).
    sub_keeps: Vec<Vec<usize>>,
}

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
        let mut roll_faces = Vec::new();
        sequences(5, 1, &mut Vec::new(), &mut roll_faces);
        let keep_counts: Vec<[u8; 6]> = keeps.iter().map(|k| counts(k)).collect();
        let roll_counts: Vec<[u8; 6]> = roll_faces.iter().map(|r| counts(r)).collect();
        let contains = |r: &[u8; 6], k: &[u8; 6]| r.iter().zip(k).all(|(a, b)| a >= b);
        let completions = keep_counts
            .iter()
            .map(|k| {
                (0..roll_counts.len())
                    .filter(|&r| contains(&roll_counts[r], k))
                    .collect()
            })
            .collect();
        let sub_keeps = roll_counts
            .iter()
            .map(|r| {
                (0..keep_counts.len())
                    .filter(|&k| contains(r, &keep_counts[k]))
                    .collect()
            })
            .collect();
        let rolls = roll_faces
            .iter()
            .filter_map(|f| Dice::from_faces(f))
            .collect();
        Multisets {
            rolls,
            completions,
            sub_keeps,
        }
    }

    /// The value of a turn whose rolls are chosen by an adversary: `last[r]` is the value after
    /// the last roll `r`; each reroll gives the worst completion of the keep, each keep is the
    /// best the roll contains, and the first roll is the worst.
    fn worst_case_turn(&self, last: &[u32]) -> u32 {
        let mut rolls = last.to_vec();
        for _ in 0..2 {
            let keeps: Vec<u32> = self
                .completions
                .iter()
                .map(|c| c.iter().map(|&r| rolls[r]).min().unwrap_or(0))
                .collect();
            rolls = self
                .sub_keeps
                .iter()
                .map(|s| s.iter().map(|&k| keeps[k]).max().unwrap_or(0))
                .collect();
        }
        rolls.into_iter().min().unwrap_or(0)
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
        let key = Sheet {
            points: 0,
            upper_total: sheet.capped_upper(),
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
    use crate::rules::RuleSet;

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
        assert_eq!(solver.dice.completions.len(), 462);
    }
}

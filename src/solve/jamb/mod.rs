//! Jamb values (docs/jamb-oracle.md): the exact value of one column played alone
//! (`column`), the exact endgame of a whole slip ([`endgame`]), the exact turn of a slip over
//! its three rolls on top of any value of the slip after the turn ([`turn`]), and the strong
//! heuristic oracle built from them ([`oracle`]).
//!
//! The oracle's value function reads its [`features`] and the [`tables`] (data); the tables are
//! built (`build`) by fitting the weights ([`fit`]) on games the oracle plays, so `build` and
//! `fit` sit above the oracle, `features` and `tables` below it.
//!
//! All of them share the reduced column state of [`key`] and the table of what each box scores
//! ([`BoxPoints`]).

pub(crate) mod build;
pub mod column;
pub mod endgame;
pub mod features;
pub mod fit;
pub mod key;
pub mod oracle;
pub mod selfplay;
pub mod tables;
pub mod turn;

use crate::dice::DiceSpace;
use crate::rules::jamb::{
    AnnounceRule, ColumnKind, JambBox, JambRules, JambTurn, BOXES, MAX_ROLLS,
};
use key::MiddleRule;
use std::sync::OnceLock;
use turn::{ClosedForms, TurnColumn};

/// What each box scores, by roll and roll number, as an index into the box's distinct scores
/// (a "point class"): the turn solvers value each (box, class) once and read it for every roll.
#[derive(Clone, Debug)]
pub struct BoxPoints {
    /// The dice of the rules, whose rolls the classes are listed by.
    dice: &'static DiceSpace,
    /// The distinct scores of each box, ascending.
    values: [Vec<i32>; BOXES],
    /// `class[b][n - 1][r]`: the class of roll `r` in box `b` on roll number `n`.
    class: Vec<[Vec<u8>; MAX_ROLLS as usize]>,
    /// For roll numbers 1 and 2: the rolls whose class in some box differs from their class on
    /// the next roll number (the straights).
    differ_from_next: [Vec<usize>; 2],
    /// How the rules count the middle section (the columns' keys depend on it).
    middle: MiddleRule,
    /// The announced turns in closed form, built on first use.
    closed: OnceLock<ClosedForms>,
}

impl BoxPoints {
    /// The table of `rules`' scoring.
    pub fn new(rules: &JambRules) -> BoxPoints {
        let dice = rules.description().dice_space();
        let rolls = dice.roll_count();
        let points = |b: JambBox, r: usize, n: u8| -> i32 {
            rules.points(b, &dice.rolls()[r], n).unwrap_or(0)
        };
        let values: [Vec<i32>; BOXES] = std::array::from_fn(|i| {
            let b = JambBox::ALL[i];
            let mut v: Vec<i32> = (1..=MAX_ROLLS)
                .flat_map(|n| (0..rolls).map(move |r| (r, n)))
                .map(|(r, n)| points(b, r, n))
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        });
        let class = (0..BOXES)
            .map(|i| {
                let b = JambBox::ALL[i];
                std::array::from_fn(|n| {
                    (0..rolls)
                        .map(|r| {
                            let p = points(b, r, n as u8 + 1);
                            values[i].iter().position(|&v| v == p).unwrap_or(0) as u8
                        })
                        .collect::<Vec<u8>>()
                })
            })
            .collect::<Vec<_>>();
        let differ_from_next = std::array::from_fn(|n| {
            (0..rolls)
                .filter(|&r| (0..BOXES).any(|b| class[b][n][r] != class[b][n + 1][r]))
                .collect()
        });
        BoxPoints {
            dice,
            values,
            class,
            differ_from_next,
            middle: rules.middle,
            closed: OnceLock::new(),
        }
    }

    /// What the announced turns in closed form read ([`ClosedForms`]), built on first use.
    pub(crate) fn closed_forms(&self) -> &ClosedForms {
        self.closed.get_or_init(|| ClosedForms::build(self))
    }

    /// How the rules count the middle section.
    pub fn middle(&self) -> MiddleRule {
        self.middle
    }

    /// The dice whose rolls the classes are listed by.
    pub fn dice(&self) -> &'static DiceSpace {
        self.dice
    }

    /// The distinct scores of box `b`, ascending.
    pub fn values(&self, b: JambBox) -> &[i32] {
        &self.values[b.index()]
    }

    /// The class of roll `r` (a roll index of [`BoxPoints::dice`]) in box `b` on roll number
    /// `n` (1 and up: a roll after the third, on a last turn of five rolls, scores as the
    /// third).
    pub fn class(&self, b: JambBox, n: u8, r: usize) -> usize {
        usize::from(self.classes(b, n)[r])
    }

    /// The classes of every roll in box `b` on roll number `n` (1 and up, as
    /// [`BoxPoints::class`]).
    pub fn classes(&self, b: JambBox, n: u8) -> &[u8] {
        let n = n.clamp(1, MAX_ROLLS);
        &self.class[b.index()][usize::from(n - 1)]
    }

    /// The rolls scoring differently somewhere on roll number `n` (1 or 2) than on `n + 1`.
    pub(crate) fn differ_from_next(&self, n: u8) -> &[usize] {
        &self.differ_from_next[usize::from(n - 1)]
    }
}

/// The columns of a slip of `rules` with filled masks `masks` (in the rules' column order), as
/// its turn sees them.
pub(crate) fn turn_columns(rules: &JambRules, masks: &[u16]) -> Vec<TurnColumn> {
    rules
        .columns
        .iter()
        .zip(masks)
        .map(|(&kind, &mask)| turn_column(rules, kind, mask))
        .collect()
}

/// A column of `kind` of a slip of `rules` with filled mask `mask`, as its turn sees it.
pub(crate) fn turn_column(rules: &JambRules, kind: ColumnKind, mask: u16) -> TurnColumn {
    match kind {
        ColumnKind::Announce => {
            let pure_hand = rules.announce == AnnounceRule::AnnouncedOrPureHand;
            TurnColumn::announce(mask, pure_hand)
        }
        _ => TurnColumn {
            mask,
            first_roll: rules.allowed_boxes(kind, mask, JambTurn::at_roll(1)),
            later_rolls: rules.allowed_boxes(kind, mask, JambTurn::at_roll(2)),
            announce: false,
            pure_hand: false,
        },
    }
}

/// Rolls in a turn of `rules` with `turns_left` empty boxes before it.
pub(crate) fn turn_rolls(rules: &JambRules, turns_left: usize) -> u8 {
    rules.rolls_in_turn(turns_left)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;

    #[test]
    fn only_the_straights_score_differently_on_rolls_one_two_three() {
        let t = BoxPoints::new(&JambRules::JAMB_5);
        for n in 1..=2 {
            let mut rolls: Vec<String> = t
                .differ_from_next(n)
                .iter()
                .map(|&r| Dice::roll(r).to_string())
                .collect();
            rolls.sort();
            assert_eq!(rolls, ["12345", "23456"]);
        }
        assert_eq!(t.values(JambBox::Straight), [0, 46, 56, 66]);
        assert_eq!(t.values(JambBox::Max).len(), 26);
        assert_eq!(t.values(JambBox::Ones), [0, 1, 2, 3, 4, 5]);
        let r = Dice::from_faces(&[2, 3, 4, 5, 6])
            .unwrap()
            .roll_index()
            .unwrap();
        let k = JambBox::Straight;
        assert_eq!(t.values(k)[t.class(k, 2, r)], 56);
    }
}

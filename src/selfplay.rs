//! Typical two-player positions from self-play (the quality experiment of docs/methods.md
//! section 4): two copies of one player play whole games, each decision drawn by softmax over
//! the player's option values at `TEMPERATURE` (option `i` with weight
//! `exp(100 * (v_i - max v))` for match-point values), and every decision met with at most a
//! given number of boxes free in all is collected. The same seed gives the same positions.

use crate::dice::Dice;
use crate::rules::play::{play_turn, DiceLaw, TurnEnd, TurnPlayer};
use crate::rules::{Choice, GameFamily, RuleSet, Sheet};
use crate::simulate::choose;
use crate::solve::expected::OptionValue;
use crate::solve::match_points::{MatchSearch, MatchTurn};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt;

/// Softmax temperature of the self-play's decisions, in the unit of the option values.
pub(crate) const TEMPERATURE: f64 = 0.01;

/// A two-player position: the mover's sheet, the other player's, the dice on the table and the
/// rolls left after them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TwoPlayerPosition {
    /// The sheet of the player to decide.
    pub mover: Sheet,
    /// The other player's sheet.
    pub other: Sheet,
    /// The dice on the table.
    pub roll: Dice,
    /// Rolls left after this one (0..=2).
    pub rolls_left: u8,
}

impl TwoPlayerPosition {
    /// Free boxes of both sheets together.
    pub(crate) fn free_boxes(&self) -> u32 {
        free_boxes(&self.mover, &self.other)
    }
}

/// Free boxes of two sheets of the same rule set together.
pub(crate) fn free_boxes(a: &Sheet, b: &Sheet) -> u32 {
    a.free_count() + b.free_count()
}

/// The player of a self-play: values every option of a decision, one turn at a time.
pub trait Player {
    /// A turn evaluated once; the options of each of its rolls are read from it.
    type Turn;

    /// The mover's turn against `other`; `None` if the player cannot value the position.
    fn turn(&self, mover: &Sheet, other: &Sheet) -> Option<Self::Turn>;

    /// Every legal option after `roll` with `rolls_left` rolls left, with its value (higher is
    /// better), in any order.
    fn options(
        &self,
        turn: &Self::Turn,
        mover: &Sheet,
        roll: &Dice,
        rolls_left: u8,
    ) -> Vec<(Choice, f64)>;
}

impl Player for MatchSearch<'_> {
    type Turn = MatchTurn;

    fn turn(&self, mover: &Sheet, other: &Sheet) -> Option<MatchTurn> {
        MatchSearch::turn(self, mover, std::slice::from_ref(other))
    }

    fn options(
        &self,
        turn: &MatchTurn,
        mover: &Sheet,
        roll: &Dice,
        rolls_left: u8,
    ) -> Vec<(Choice, f64)> {
        turn.options(self, mover, roll, rolls_left)
    }
}

/// Why self-play stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SelfPlayError {
    /// The player cannot value a position the game reached.
    Unvalued,
    /// A decision with no legal option.
    NoOption,
    /// The player chose a box the rule set does not have, or one that may not be used.
    IllegalBox,
}

impl fmt::Display for SelfPlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SelfPlayError::Unvalued => "self-play: a position the player cannot value",
            SelfPlayError::NoOption => "self-play: no option",
            SelfPlayError::IllegalBox => "self-play: illegal box",
        })
    }
}

impl std::error::Error for SelfPlayError {}

/// Plays games of `rules` between two copies of `player` (seeded by `seed`) until `count`
/// positions with at most `max_free` boxes free in all are collected: every decision of that
/// phase of each game, in the order played.
pub fn positions<P: Player>(
    rules: RuleSet,
    player: &P,
    count: usize,
    max_free: u32,
    seed: u64,
) -> Result<Vec<TwoPlayerPosition>, SelfPlayError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut sheets = [Sheet::empty(rules), Sheet::empty(rules)];
        let mut seat = 0;
        while !sheets[seat].is_complete() {
            let (mover, other) = (sheets[seat], sheets[1 - seat]);
            let turn = player.turn(&mover, &other).ok_or(SelfPlayError::Unvalued)?;
            let mut softmax = SoftmaxTurn {
                player,
                turn,
                other,
                max_free,
                wanted: count,
                out: &mut out,
            };
            let played = play_turn(&mut softmax, &mover, DiceLaw::Fair, &mut rng)?;
            let TurnEnd::Written {
                choice: Choice::Score(_),
                after,
                ..
            } = played.end
            else {
                return Err(SelfPlayError::IllegalBox);
            };
            sheets[seat] = after;
            seat = 1 - seat;
        }
    }
    Ok(out)
}

/// One self-play turn in the turn loop: collects the positions of the phase asked for, then
/// chooses by softmax over the player's option values at [`TEMPERATURE`].
struct SoftmaxTurn<'a, P: Player> {
    player: &'a P,
    turn: P::Turn,
    other: Sheet,
    max_free: u32,
    /// Positions wanted in all.
    wanted: usize,
    out: &'a mut Vec<TwoPlayerPosition>,
}

impl<P: Player> TurnPlayer<Sheet> for SoftmaxTurn<'_, P> {
    type Error = SelfPlayError;

    fn choose(
        &mut self,
        mover: &Sheet,
        roll: &Dice,
        roll_number: u8,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, SelfPlayError> {
        let rolls_left = mover.max_rolls() - roll_number;
        if free_boxes(mover, &self.other) <= self.max_free && self.out.len() < self.wanted {
            self.out.push(TwoPlayerPosition {
                mover: *mover,
                other: self.other,
                roll: *roll,
                rolls_left,
            });
        }
        let mut options: Vec<OptionValue> = self
            .player
            .options(&self.turn, mover, roll, rolls_left)
            .into_iter()
            .map(|(choice, value)| OptionValue { choice, value })
            .collect();
        if options.is_empty() {
            return Err(SelfPlayError::NoOption);
        }
        options.sort_by(|a, b| b.value.total_cmp(&a.value));
        let pick = options
            .get(choose(rng, &options, TEMPERATURE))
            .ok_or(SelfPlayError::NoOption)?;
        Ok(pick.choice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A player that values each box by the points it gets now and never keeps dice.
    struct Greedy;

    impl Player for Greedy {
        type Turn = ();

        fn turn(&self, _: &Sheet, _: &Sheet) -> Option<()> {
            Some(())
        }

        fn options(&self, _: &(), mover: &Sheet, roll: &Dice, _: u8) -> Vec<(Choice, f64)> {
            (0..mover.rules.box_count())
                .filter_map(|b| {
                    let scored = mover.score(roll, b)?;
                    Some((
                        Choice::Score(mover.rules.boxes()[b]),
                        f64::from(scored.points),
                    ))
                })
                .collect()
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_positions() {
        let rules = RuleSet::Yahtzee;
        let a = positions(rules, &Greedy, 50, 8, 7).unwrap();
        let b = positions(rules, &Greedy, 50, 8, 7).unwrap();
        let c = positions(rules, &Greedy, 50, 8, 8).unwrap();
        assert_eq!(a.len(), 50);
        assert_eq!(a, b);
        assert_ne!(a, c);
        for p in &a {
            assert!(p.free_boxes() <= 8);
            assert!(!p.mover.is_complete());
            assert!(p.mover.check().is_ok() && p.other.check().is_ok());
            let mover_filled = p.mover.filled_count();
            let other_filled = p.other.filled_count();
            assert!(other_filled == mover_filled || other_filled == mover_filled + 1);
        }
    }
}

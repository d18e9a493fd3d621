//! Games the oracle plays alone on any Jamb rule set, the turn as the rules state it
//! ([`JambTurn`]: six dice, pure hands, announcements, the last turn's extra rolls): for fitting
//! its weights ([`fit`](super::fit)) and measuring its strength. The dice fall fairly, drawn from
//! the game's generator; every write goes through the rules (`JambSheet::after_cell_in`), which
//! refuses an illegal one.
//!
//! The five-dice rule sets without an Announce column (`jamb-4`, `jamb-5`) are played through
//! the shared turn loop (`rules::play`) instead, whose draws their tables were fitted on.

use super::oracle::{JambOracle, JambTurnCache};
use crate::dice::{Dice, MAX_DICE};
use crate::rules::jamb::{JambRules, JambSheet, JambTurn};
use crate::rules::play::DiceLaw;
use crate::rules::Choice;
use rand_chacha::ChaCha8Rng;

/// One game the oracle played alone.
#[derive(Clone, Debug, PartialEq)]
pub struct OracleGame {
    /// The slip before each turn, in order.
    pub before_turns: Vec<JambSheet>,
    /// The complete slip.
    pub last: JambSheet,
    /// Turns in which the oracle announced a box.
    pub announcements: usize,
    /// Every decision the oracle took: the slip, the dice and where the turn stood.
    pub decisions: Vec<(JambSheet, Dice, JambTurn)>,
}

/// True when games of `rules` need this module's turn (more or fewer than five dice, an
/// Announce column, a last turn of more rolls); the others are played by `rules::play`.
pub fn needs_own_turn(rules: &JambRules) -> bool {
    rules.dice != 5 || rules.announce_column().is_some() || rules.most_rolls() != 3
}

/// Plays one game of the oracle's rules, taking its best option at every decision (the first
/// listed among equals; an announcement only when worth more than every other option,
/// [`JambOracle::announcement_to_make`]).
/// An error names the turn and the move the rules refused.
pub fn play_oracle_game(oracle: &JambOracle, rng: &mut ChaCha8Rng) -> Result<OracleGame, String> {
    let rules = *oracle.rules();
    let dice_count = usize::from(rules.dice);
    let mut sheet = JambSheet::new(rules);
    let mut cache = JambTurnCache::default();
    let mut before_turns = Vec::with_capacity(rules.turns());
    let mut announcements = 0;
    let mut decisions = Vec::with_capacity(3 * rules.turns());
    while !sheet.is_complete() {
        if before_turns.len() >= rules.turns() {
            return Err(format!("more turns than the {} boxes", rules.turns()));
        }
        let number = before_turns.len() + 1;
        before_turns.push(sheet);
        let mut faces: Vec<u8> = (0..dice_count).map(|_| DiceLaw::Fair.roll(rng)).collect();
        let mut turn = JambTurn::at_roll(1);
        loop {
            let dice = Dice::from_faces_up_to(&faces, MAX_DICE)
                .ok_or_else(|| format!("turn {number}: bad dice"))?;
            if turn.roll_number == 1 && turn.announced.is_none() {
                if let Some((cell, _)) = oracle.announcement_to_make(&sheet, &dice, &mut cache) {
                    if !sheet.may_announce(1, cell.jbox) {
                        return Err(format!("turn {number}: announcing {cell:?} refused"));
                    }
                    turn.announced = Some(cell.jbox);
                    announcements += 1;
                }
            }
            decisions.push((sheet, dice, turn));
            let best = oracle.best_at(&sheet, &dice, turn, &mut cache);
            let Some((choice, _)) = best else {
                return Err(format!("turn {number}: no option at {turn:?}"));
            };
            match choice {
                Choice::Write(cell) => {
                    sheet = sheet.after_cell_in(&dice, turn, cell).ok_or_else(|| {
                        format!("turn {number}: writing {cell:?} at {turn:?} refused")
                    })?;
                    break;
                }
                Choice::Keep(kept) => {
                    if !sheet.may_roll_again_in(turn) || kept.len() > dice_count {
                        return Err(format!("turn {number}: rolling again at {turn:?} refused"));
                    }
                    faces = kept.faces();
                    faces.extend((kept.len()..dice_count).map(|_| DiceLaw::Fair.roll(rng)));
                    turn = JambTurn {
                        roll_number: turn.roll_number + 1,
                        pure: kept.is_empty(),
                        announced: turn.announced,
                    };
                }
                Choice::Score(_) => return Err(format!("turn {number}: a one-column choice")),
            }
        }
    }
    Ok(OracleGame {
        before_turns,
        last: sheet,
        announcements,
        decisions,
    })
}

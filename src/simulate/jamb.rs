//! Jamb games played by simulated players: the turn loop (roll, keep, roll again, write a
//! cell) with every rule checked, for any [`JambPlayer`]. The published strategies live in
//! [`crate::simulate::jamb_strategies`]; the strong oracle plays through the same trait.

use crate::dice::Dice;
use crate::rules::jamb::{Cell, JambRules, JambSheet, MAX_ROLLS};
use crate::rules::Choice;
use crate::simulate::DiceLaw;
use rand_chacha::ChaCha8Rng;
use std::fmt;

/// A Jamb player: after each roll, keep dice and roll again or write the dice in a cell.
pub trait JambPlayer {
    /// What to do with `dice`, shown by roll `roll_number` (1 to 3) of a turn, on slip `sheet`:
    /// [`Choice::Keep`] (only while [`JambSheet::may_roll_again`]) or [`Choice::Write`] of a
    /// cell in [`JambSheet::legal_cells`]. `rng` is the game's generator, for players that
    /// draw at random.
    fn choose(
        &mut self,
        sheet: &JambSheet,
        dice: &Dice,
        roll_number: u8,
        rng: &mut ChaCha8Rng,
    ) -> Choice;
}

/// One turn as played: the rolls, the dice kept between them, the cell written and its points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedTurn {
    /// Seat of the player (0-based).
    pub seat: u8,
    /// The rolls as the dice lay (one to three).
    pub rolls: Vec<[u8; 5]>,
    /// The dice kept after each roll but the last.
    pub keeps: Vec<Dice>,
    /// The cell written.
    pub cell: Cell,
    /// The points written in it.
    pub points: i32,
}

/// A whole game: every turn in order and each player's final slip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// Every turn, players in seat order each round.
    pub turns: Vec<PlayedTurn>,
    /// The final slips, in seat order.
    pub finals: Vec<JambSheet>,
}

/// A move the rules refuse, with where it was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// Seat of the player.
    pub seat: u8,
    /// Turn index in the game.
    pub turn: usize,
    /// The roll the move followed.
    pub roll_number: u8,
    /// The move.
    pub choice: Choice,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "seat {} made an illegal move in turn {} after roll {}: {}",
            self.seat + 1,
            self.turn + 1,
            self.roll_number,
            self.choice
        )
    }
}

impl std::error::Error for IllegalMove {}

/// Plays one game of `rules` with `players` in seat order, dice falling by `dice` and drawn
/// from `rng`; the first illegal move ends it with an error.
pub fn play_game(
    rules: JambRules,
    players: &mut [&mut dyn JambPlayer],
    dice: DiceLaw,
    rng: &mut ChaCha8Rng,
) -> Result<PlayedGame, IllegalMove> {
    let mut sheets = vec![JambSheet::new(rules); players.len()];
    let mut turns = Vec::with_capacity(rules.turns() * players.len());
    for _round in 0..rules.turns() {
        for (seat, player) in players.iter_mut().enumerate() {
            let sheet = &mut sheets[seat];
            let turn = play_turn(&mut **player, sheet, seat as u8, turns.len(), dice, rng)?;
            turns.push(turn);
        }
    }
    Ok(PlayedGame {
        turns,
        finals: sheets,
    })
}

/// Plays one turn of `player` on `sheet` (updated in place).
fn play_turn(
    player: &mut dyn JambPlayer,
    sheet: &mut JambSheet,
    seat: u8,
    turn: usize,
    law: DiceLaw,
    rng: &mut ChaCha8Rng,
) -> Result<PlayedTurn, IllegalMove> {
    let mut shown: [u8; 5] = std::array::from_fn(|_| law.roll(rng));
    let mut rolls = vec![shown];
    let mut keeps = Vec::new();
    for roll_number in 1..=MAX_ROLLS {
        let dice = Dice::from_faces(&shown).unwrap_or_default();
        let choice = player.choose(sheet, &dice, roll_number, rng);
        let illegal = IllegalMove {
            seat,
            turn,
            roll_number,
            choice,
        };
        match choice {
            Choice::Keep(kept) if sheet.may_roll_again(roll_number) => {
                if !kept.is_subset_of(&dice) {
                    return Err(illegal);
                }
                let (_, next) = super::reroll(rng, law, &shown, &kept);
                shown = next;
                rolls.push(shown);
                keeps.push(kept);
            }
            Choice::Write(cell) => {
                let points = sheet.score_cell(&dice, roll_number, cell);
                let after = sheet.after_cell(&dice, roll_number, cell);
                let (Some(points), Some(after)) = (points, after) else {
                    return Err(illegal);
                };
                *sheet = after;
                return Ok(PlayedTurn {
                    seat,
                    rolls,
                    keeps,
                    cell,
                    points,
                });
            }
            _ => return Err(illegal),
        }
    }
    // Three rolls and no cell written: the last choice was a keep, refused above.
    Err(IllegalMove {
        seat,
        turn,
        roll_number: MAX_ROLLS,
        choice: Choice::Keep(Dice::default()),
    })
}

//! Both families behind one interface: [`GameFamily`] is what a sheet of any family answers
//! (the moves a roll allows, what a move scores and the sheet after, the end of the game),
//! implemented by the single-column [`Sheet`], the Jamb slip and [`PlayerSheet`]; [`GameRules`]
//! names a rule set of either family and [`PlayerSheet`] is a player's sheet of either, with what
//! the replay needs of them (the box a log names, what the roll scores there, the sheet after).
//! Replay, rating, aggregation, reports and the turn loop ([`super::play`]) go through these;
//! only the oracles and the scorecards look inside.

use super::jamb::{JambBox, JambRules, JambSheet, JambTurn};
use super::{Choice, RuleSet, Sheet, UnknownRuleSet};
use crate::dice::Dice;
use std::fmt;
use std::str::FromStr;

/// What a sheet of any game family answers, between turns: the moves a roll allows, what a
/// move scores and the sheet after, how far the game has gone. Written once per family (for
/// [`Sheet`] and [`JambSheet`]) and for [`PlayerSheet`], which holds either; the turn loop
/// (`super::play::play_turn`) and every consumer that does not need the concrete sheet use it.
pub trait GameFamily: Sized {
    /// Rolls this turn has at most (Jamb's `jamb-6a`: five on the game's last turn).
    fn max_rolls(&self) -> u8;

    /// Dice rolled.
    fn dice_count(&self) -> usize;

    /// True when box `b` of the Announce column may be announced after roll `roll_number`
    /// (only Jamb slips with that column; never in the other families).
    fn may_announce(&self, _roll_number: u8, _b: JambBox) -> bool {
        false
    }

    /// [`GameFamily::may_roll_again`] in the turn `turn` (its announcement and pure hand).
    fn may_roll_again_in(&self, turn: JambTurn) -> bool {
        self.may_roll_again(turn.roll_number)
    }

    /// True when, in the turn `turn`, a further roll must be of all the dice (nothing kept).
    fn next_roll_must_be_pure(&self, _turn: JambTurn) -> bool {
        false
    }

    /// [`GameFamily::box_choices`] in the turn `turn`.
    fn box_choices_in(&self, dice: &Dice, turn: JambTurn) -> Vec<Choice> {
        self.box_choices(dice, turn.roll_number)
    }

    /// [`GameFamily::play`] in the turn `turn`.
    fn play_in(&self, choice: Choice, dice: &Dice, turn: JambTurn) -> Option<(i32, Self)> {
        self.play(choice, dice, turn.roll_number)
    }

    /// Whether the dice of roll `roll_number` may be kept in part and the others rolled again.
    fn may_roll_again(&self, roll_number: u8) -> bool;

    /// Every box choice ([`Choice::Score`] or [`Choice::Write`]) that may take `dice` shown by
    /// roll `roll_number` now, in sheet order: the legal moves besides keeps.
    fn box_choices(&self, dice: &Dice, roll_number: u8) -> Vec<Choice>;

    /// Writes `dice` of roll `roll_number` as the box choice `choice` says: the points written
    /// in the box (bonuses excluded) and the sheet after; `None` for a keep or a box the dice
    /// may not go to now.
    fn play(&self, choice: Choice, dice: &Dice, roll_number: u8) -> Option<(i32, Self)>;

    /// Points so far, bonuses included (a Jamb middle section can be negative).
    fn total(&self) -> i64;

    /// Turns left in the game: the boxes still empty.
    fn turns_left(&self) -> u32;

    /// True when every box is filled: the game is over for this player.
    fn is_over(&self) -> bool {
        self.turns_left() == 0
    }

    /// Turns each player takes in a whole game: one per box.
    fn rounds(&self) -> usize;

    /// The code of the box a box choice names (`3K`, `D:MAX`); `None` for a keep or a choice
    /// of the other family.
    fn box_code(&self, choice: Choice) -> Option<String>;

    /// Upper-section total (in Jamb, of all columns together).
    fn upper_total(&self) -> u32;
}

impl GameFamily for Sheet {
    fn max_rolls(&self) -> u8 {
        let turn = self.filled_count() as usize;
        self.rules.description().rolls_in_turn(turn)
    }

    fn dice_count(&self) -> usize {
        self.rules.description().dice
    }

    fn may_roll_again(&self, roll_number: u8) -> bool {
        roll_number < self.max_rolls()
    }

    fn box_choices(&self, dice: &Dice, _roll_number: u8) -> Vec<Choice> {
        let boxes = self.rules.boxes();
        (0..self.rules.box_count())
            .filter(|&b| self.score(dice, b).is_some())
            .map(|b| Choice::Score(boxes[b]))
            .collect()
    }

    fn play(&self, choice: Choice, dice: &Dice, _roll_number: u8) -> Option<(i32, Sheet)> {
        let Choice::Score(category) = choice else {
            return None;
        };
        let b = self.rules.box_of(category)?;
        let points = self.score(dice, b)?.points;
        let (after, _) = self.after(dice, b)?;
        Some((i32::try_from(points).ok()?, after))
    }

    fn total(&self) -> i64 {
        i64::from(self.points)
    }

    fn turns_left(&self) -> u32 {
        self.free_count()
    }

    fn rounds(&self) -> usize {
        self.rules.box_count()
    }

    fn box_code(&self, choice: Choice) -> Option<String> {
        match choice {
            Choice::Score(c) => Some(c.code().to_string()),
            _ => None,
        }
    }

    fn upper_total(&self) -> u32 {
        self.upper_total
    }
}

impl GameFamily for JambSheet {
    fn max_rolls(&self) -> u8 {
        self.rolls_this_turn()
    }

    fn dice_count(&self) -> usize {
        usize::from(self.rules().dice)
    }

    fn may_announce(&self, roll_number: u8, b: JambBox) -> bool {
        JambSheet::may_announce(self, roll_number, b)
    }

    fn may_roll_again_in(&self, turn: JambTurn) -> bool {
        JambSheet::may_roll_again_in(self, turn)
    }

    fn next_roll_must_be_pure(&self, turn: JambTurn) -> bool {
        JambSheet::next_roll_must_be_pure(self, turn)
    }

    fn box_choices_in(&self, _dice: &Dice, turn: JambTurn) -> Vec<Choice> {
        self.legal_cells_in(turn).map(Choice::Write).collect()
    }

    fn play_in(&self, choice: Choice, dice: &Dice, turn: JambTurn) -> Option<(i32, JambSheet)> {
        let Choice::Write(cell) = choice else {
            return None;
        };
        let points = self.score_cell_in(dice, turn, cell)?;
        Some((points, self.after_cell_in(dice, turn, cell)?))
    }

    fn may_roll_again(&self, roll_number: u8) -> bool {
        JambSheet::may_roll_again(self, roll_number)
    }

    fn box_choices(&self, dice: &Dice, roll_number: u8) -> Vec<Choice> {
        self.box_choices_in(dice, JambTurn::at_roll(roll_number))
    }

    fn play(&self, choice: Choice, dice: &Dice, roll_number: u8) -> Option<(i32, JambSheet)> {
        self.play_in(choice, dice, JambTurn::at_roll(roll_number))
    }

    fn total(&self) -> i64 {
        i64::from(JambSheet::total(self))
    }

    fn turns_left(&self) -> u32 {
        JambSheet::turns_left(self) as u32
    }

    fn rounds(&self) -> usize {
        self.rules().turns()
    }

    fn box_code(&self, choice: Choice) -> Option<String> {
        match choice {
            Choice::Write(cell) => Some(self.cell_code(cell)),
            _ => None,
        }
    }

    fn upper_total(&self) -> u32 {
        self.columns().iter().map(|c| c.upper_sum() as u32).sum()
    }
}

/// Calls the same [`GameFamily`] method on the sheet a [`PlayerSheet`] holds.
macro_rules! on_sheet {
    ($sheet:expr, $s:ident => $call:expr) => {
        match $sheet {
            PlayerSheet::Yahtzee($s) => $call,
            PlayerSheet::Jamb($s) => $call,
        }
    };
}

impl GameFamily for PlayerSheet {
    fn max_rolls(&self) -> u8 {
        on_sheet!(self, s => GameFamily::max_rolls(s))
    }

    fn dice_count(&self) -> usize {
        on_sheet!(self, s => s.dice_count())
    }

    fn may_announce(&self, roll_number: u8, b: JambBox) -> bool {
        on_sheet!(self, s => GameFamily::may_announce(s, roll_number, b))
    }

    fn may_roll_again_in(&self, turn: JambTurn) -> bool {
        on_sheet!(self, s => GameFamily::may_roll_again_in(s, turn))
    }

    fn next_roll_must_be_pure(&self, turn: JambTurn) -> bool {
        on_sheet!(self, s => GameFamily::next_roll_must_be_pure(s, turn))
    }

    fn box_choices_in(&self, dice: &Dice, turn: JambTurn) -> Vec<Choice> {
        on_sheet!(self, s => s.box_choices_in(dice, turn))
    }

    fn play_in(&self, choice: Choice, dice: &Dice, turn: JambTurn) -> Option<(i32, PlayerSheet)> {
        match self {
            PlayerSheet::Yahtzee(s) => s
                .play_in(choice, dice, turn)
                .map(|(points, after)| (points, PlayerSheet::Yahtzee(after))),
            PlayerSheet::Jamb(s) => s
                .play_in(choice, dice, turn)
                .map(|(points, after)| (points, PlayerSheet::Jamb(after))),
        }
    }

    fn may_roll_again(&self, roll_number: u8) -> bool {
        on_sheet!(self, s => GameFamily::may_roll_again(s, roll_number))
    }

    fn box_choices(&self, dice: &Dice, roll_number: u8) -> Vec<Choice> {
        on_sheet!(self, s => s.box_choices(dice, roll_number))
    }

    fn play(&self, choice: Choice, dice: &Dice, roll_number: u8) -> Option<(i32, PlayerSheet)> {
        match self {
            PlayerSheet::Yahtzee(s) => s
                .play(choice, dice, roll_number)
                .map(|(points, after)| (points, PlayerSheet::Yahtzee(after))),
            PlayerSheet::Jamb(s) => s
                .play(choice, dice, roll_number)
                .map(|(points, after)| (points, PlayerSheet::Jamb(after))),
        }
    }

    fn total(&self) -> i64 {
        on_sheet!(self, s => GameFamily::total(s))
    }

    fn turns_left(&self) -> u32 {
        on_sheet!(self, s => GameFamily::turns_left(s))
    }

    fn rounds(&self) -> usize {
        on_sheet!(self, s => s.rounds())
    }

    fn box_code(&self, choice: Choice) -> Option<String> {
        on_sheet!(self, s => s.box_code(choice))
    }

    fn upper_total(&self) -> u32 {
        on_sheet!(self, s => GameFamily::upper_total(s))
    }
}

impl Choice {
    /// The dice a keep keeps; `None` for a box choice of either family ([`Choice::Score`] or
    /// [`Choice::Write`]: ask the sheet which box, [`GameFamily::box_code`], and how many
    /// points, [`GameFamily::play`]).
    pub fn kept(&self) -> Option<Dice> {
        match *self {
            Choice::Keep(dice) => Some(dice),
            Choice::Score(_) | Choice::Write(_) => None,
        }
    }
}

/// A rule set of either family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameRules {
    /// A single-column rule set (Yahtzee, Yatzy and their variants).
    Yahtzee(RuleSet),
    /// A Jamb rule set (several columns).
    Jamb(JambRules),
}

impl GameRules {
    /// Every named rule set of both families, Yahtzee's first.
    pub fn all() -> impl Iterator<Item = GameRules> {
        let yahtzee = RuleSet::ALL.into_iter().map(GameRules::Yahtzee);
        yahtzee.chain(JambRules::ALL.into_iter().map(GameRules::Jamb))
    }

    /// The name used by `--rules` and the YGN `Rules` tag.
    pub fn name(self) -> &'static str {
        match self {
            GameRules::Yahtzee(r) => r.name(),
            GameRules::Jamb(r) => r.name,
        }
    }

    /// Turns each player takes in a whole game: one per box.
    pub fn rounds(self) -> usize {
        match self {
            GameRules::Yahtzee(r) => r.box_count(),
            GameRules::Jamb(r) => r.turns(),
        }
    }

    /// Number of dice a roll has, from the rule set's description.
    pub fn dice(self) -> usize {
        match self {
            GameRules::Yahtzee(r) => r.description().dice,
            GameRules::Jamb(r) => r.description().dice,
        }
    }

    /// The single-column rule set, if it is one.
    pub fn yahtzee(self) -> Option<RuleSet> {
        match self {
            GameRules::Yahtzee(r) => Some(r),
            GameRules::Jamb(_) => None,
        }
    }

    /// The Jamb rule set, if it is one.
    pub fn jamb(self) -> Option<JambRules> {
        match self {
            GameRules::Jamb(r) => Some(r),
            GameRules::Yahtzee(_) => None,
        }
    }

    /// The box codes a log may write, for error messages.
    pub fn box_codes(self) -> String {
        match self {
            GameRules::Yahtzee(r) => r.box_codes(),
            GameRules::Jamb(r) => {
                let letters: String = r.columns.iter().map(|k| k.code()).collect();
                format!("a column {letters}, ':' and a box 1-6, MAX, MIN, K, T, F, P, J")
            }
        }
    }
}

impl fmt::Display for GameRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameRules {
    type Err = UnknownRuleSet;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameRules::all().find(|r| r.name() == s).ok_or_else(|| {
            UnknownRuleSet(
                s.to_string(),
                GameRules::all().map(GameRules::name).collect(),
            )
        })
    }
}

impl From<RuleSet> for GameRules {
    fn from(rules: RuleSet) -> GameRules {
        GameRules::Yahtzee(rules)
    }
}

/// A player's sheet of either family, between turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerSheet {
    /// A single-column sheet.
    Yahtzee(Sheet),
    /// A Jamb slip.
    Jamb(JambSheet),
}

/// A turn written on a sheet: the choice it was, the points in the box, what the turn added to
/// the total (bonuses and the middle section included) and the sheet after.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Written {
    /// The scoring choice ([`Choice::Score`] or [`Choice::Write`]).
    pub choice: Choice,
    /// Points written in the box (bonuses excluded).
    pub points: u32,
    /// The total after less the total before.
    pub gained: i64,
    /// The sheet after the turn.
    pub after: PlayerSheet,
}

/// Why a box a log names cannot take a turn's dice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The rule set has no box with this code; the codes it has.
    UnknownBox(String),
    /// The box is already filled.
    AlreadyFilled,
    /// A rule sends the dice elsewhere (a joker rule); where they may go.
    NotAllowed(String),
    /// The column's order does not allow this box yet; the boxes it allows.
    OutOfOrder(String),
    /// A Hand-column box written after the turn's first roll.
    HandAfterFirstRoll,
}

impl PlayerSheet {
    /// The empty sheet of a rule set.
    pub fn empty(rules: GameRules) -> PlayerSheet {
        match rules {
            GameRules::Yahtzee(r) => PlayerSheet::Yahtzee(Sheet::empty(r)),
            GameRules::Jamb(r) => PlayerSheet::Jamb(JambSheet::new(r)),
        }
    }

    /// The rule set the sheet is played under.
    pub fn rules(&self) -> GameRules {
        match self {
            PlayerSheet::Yahtzee(s) => GameRules::Yahtzee(s.rules),
            PlayerSheet::Jamb(s) => GameRules::Jamb(*s.rules()),
        }
    }

    /// Points so far, bonuses included (a Jamb middle section can be negative).
    pub fn points(&self) -> i64 {
        GameFamily::total(self)
    }

    /// The single-column sheet, if it is one.
    pub fn yahtzee(&self) -> Option<&Sheet> {
        match self {
            PlayerSheet::Yahtzee(s) => Some(s),
            PlayerSheet::Jamb(_) => None,
        }
    }

    /// The Jamb slip, if it is one.
    pub fn jamb(&self) -> Option<&JambSheet> {
        match self {
            PlayerSheet::Jamb(s) => Some(s),
            PlayerSheet::Yahtzee(_) => None,
        }
    }

    /// Boxes still empty.
    pub fn free_count(&self) -> u32 {
        GameFamily::turns_left(self)
    }

    /// True when every box is filled.
    pub fn is_complete(&self) -> bool {
        self.free_count() == 0
    }

    /// The filled boxes as codes, comma-separated (`-` for none): `1,3K,Y50` or `D:1,F:MAX`.
    pub fn filled_codes(&self) -> String {
        match self {
            PlayerSheet::Yahtzee(s) => s.filled_codes(),
            PlayerSheet::Jamb(s) => {
                let codes: Vec<String> = s.filled_cells().map(|c| s.cell_code(c)).collect();
                if codes.is_empty() {
                    "-".into()
                } else {
                    codes.join(",")
                }
            }
        }
    }

    /// The code of the box a scoring choice names (`3K`, `D:MAX`); `None` for a keep.
    pub fn code_of(&self, choice: Choice) -> Option<String> {
        self.box_code(choice)
    }

    /// Points `dice` of roll `roll_number` score in the box of a scoring choice, `None` for a
    /// keep or a box the dice may not go to.
    pub fn points_of(&self, choice: Choice, dice: &Dice, roll_number: u8) -> Option<u32> {
        match (self, choice) {
            (PlayerSheet::Yahtzee(s), Choice::Score(c)) => {
                let b = s.rules.box_of(c)?;
                s.score(dice, b).map(|scored| scored.points)
            }
            (PlayerSheet::Jamb(s), Choice::Write(cell)) => {
                let points = s.score_cell(dice, roll_number, cell)?;
                u32::try_from(points).ok()
            }
            _ => None,
        }
    }

    /// Writes `dice`, shown by roll `roll_number` of the turn, in the box a log names `code`;
    /// or why the rules refuse it.
    pub fn write(&self, code: &str, dice: &Dice, roll_number: u8) -> Result<Written, Refused> {
        match self {
            PlayerSheet::Yahtzee(s) => write_yahtzee(s, code, dice),
            PlayerSheet::Jamb(s) => write_jamb(s, code, dice, roll_number),
        }
    }
}

/// [`PlayerSheet::write`] on a single-column sheet.
fn write_yahtzee(sheet: &Sheet, code: &str, dice: &Dice) -> Result<Written, Refused> {
    let rules = sheet.rules;
    let (b, _) = rules
        .parse_box(code)
        .ok_or_else(|| Refused::UnknownBox(rules.box_codes()))?;
    if sheet.filled & (1 << b) != 0 {
        return Err(Refused::AlreadyFilled);
    }
    let refused = || {
        let allowed: Vec<&str> = (0..rules.box_count())
            .filter(|&o| sheet.score(dice, o).is_some())
            .map(|o| rules.boxes()[o].code())
            .collect();
        Refused::NotAllowed(allowed.join(" or "))
    };
    let scored = sheet.score(dice, b).ok_or_else(refused)?;
    let (after, gained) = sheet.after(dice, b).ok_or_else(refused)?;
    Ok(Written {
        choice: Choice::Score(rules.boxes()[b]),
        points: scored.points,
        gained: i64::from(gained),
        after: PlayerSheet::Yahtzee(after),
    })
}

/// [`PlayerSheet::write`] on a Jamb slip.
fn write_jamb(sheet: &JambSheet, code: &str, dice: &Dice, roll: u8) -> Result<Written, Refused> {
    let rules = GameRules::Jamb(*sheet.rules());
    let cell = sheet
        .parse_cell(code)
        .ok_or_else(|| Refused::UnknownBox(rules.box_codes()))?;
    let column = sheet.column(usize::from(cell.column));
    if column.is_some_and(|c| c.is_filled(cell.jbox)) {
        return Err(Refused::AlreadyFilled);
    }
    if !sheet.is_legal(roll, usize::from(cell.column), cell.jbox) {
        // The same box is legal with the first roll's dice only in a Hand column.
        if roll > 1 && sheet.is_legal(1, usize::from(cell.column), cell.jbox) {
            return Err(Refused::HandAfterFirstRoll);
        }
        let allowed: Vec<String> = sheet
            .legal_cells(roll)
            .filter(|c| c.column == cell.column)
            .map(|c| sheet.cell_code(c))
            .collect();
        return Err(Refused::OutOfOrder(allowed.join(" or ")));
    }
    let (Some(points), Some(after)) = (
        sheet.score_cell(dice, roll, cell),
        sheet.after_cell(dice, roll, cell),
    ) else {
        return Err(Refused::NotAllowed("five dice 1-6".into()));
    };
    Ok(Written {
        choice: Choice::Write(cell),
        points: u32::try_from(points).unwrap_or(0),
        gained: i64::from(after.total()) - i64::from(sheet.total()),
        after: PlayerSheet::Jamb(after),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::jamb::JambRules;

    /// A [`PlayerSheet`] answers as the sheet it holds, in both families, through a game of
    /// first-legal-box turns.
    #[test]
    fn a_player_sheet_answers_as_the_sheet_it_holds() {
        let roll = Dice::from_faces(&[1, 1, 1, 5, 5]).unwrap_or_default();
        let mut yahtzee = Sheet::empty(RuleSet::Yahtzee);
        let mut jamb = JambSheet::new(JambRules::JAMB_4);
        assert_eq!(GameFamily::rounds(&yahtzee), 13);
        assert_eq!(GameFamily::rounds(&jamb), 52);
        for turn in 0..52 {
            let (either, sheet) = match turn < 13 {
                true => (PlayerSheet::Yahtzee(yahtzee), None),
                false => (PlayerSheet::Jamb(jamb), Some(jamb)),
            };
            let choices = either.box_choices(&roll, 1);
            assert!(!choices.is_empty(), "turn {turn}");
            assert_eq!(either.turns_left(), either.free_count());
            assert_eq!(either.total(), either.points());
            let choice = choices[0];
            let (points, after) = either.play(choice, &roll, 1).unwrap();
            assert_eq!(points, either.points_of(choice, &roll, 1).unwrap() as i32);
            assert_eq!(either.play(Choice::Keep(roll), &roll, 1), None);
            assert!(either.box_code(choice).is_some());
            match (sheet, after) {
                (None, PlayerSheet::Yahtzee(next)) => {
                    assert_eq!(yahtzee.box_choices(&roll, 1), choices);
                    assert_eq!(GameFamily::upper_total(&next), next.upper_total);
                    yahtzee = next;
                }
                (Some(slip), PlayerSheet::Jamb(next)) => {
                    assert_eq!(slip.box_choices(&roll, 1), choices);
                    assert_eq!(slip.play(choice, &roll, 1), Some((points, next)));
                    jamb = next;
                }
                _ => panic!("turn {turn}: the sheet changed family"),
            }
        }
        assert!(PlayerSheet::Yahtzee(yahtzee).is_over());
        assert!(!PlayerSheet::Jamb(jamb).is_over());
        assert_eq!(Choice::Keep(roll).kept(), Some(roll));
    }
}

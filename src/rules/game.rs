//! Both families behind one interface: [`GameRules`] names a rule set of either family and
//! [`PlayerSheet`] is a player's sheet of either, with what the replay needs of them (the box a
//! log names, what the roll scores there, the sheet after). Replay, rating, aggregation and
//! reports go through these; only the oracles and the scorecards look inside.

use super::jamb::{JambRules, JambSheet};
use super::{Choice, RuleSet, Sheet, UnknownRuleSet};
use crate::dice::Dice;
use std::fmt;
use std::str::FromStr;

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
        match self {
            PlayerSheet::Yahtzee(s) => i64::from(s.points),
            PlayerSheet::Jamb(s) => i64::from(s.total()),
        }
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
        match self {
            PlayerSheet::Yahtzee(s) => s.free_count(),
            PlayerSheet::Jamb(s) => s.turns_left() as u32,
        }
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
        match (self, choice) {
            (_, Choice::Score(c)) => Some(c.code().to_string()),
            (PlayerSheet::Jamb(s), Choice::Write(cell)) => Some(s.cell_code(cell)),
            _ => None,
        }
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

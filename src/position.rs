//! A position written as flags (`--rules`, `--filled`, `--upper`, `--points`, `--state`,
//! `--roll`, `--rolls-left`, and the `--opponent-*` sheets), checked into a [`Position`]. Every
//! error names the flag whose value is wrong, so a command line or a form can point at it.

use crate::dice::Dice;
use crate::rules::jamb::JambSheet;
use crate::rules::{RuleSet, Sheet, SheetError};
use std::fmt;

/// A value of one flag that is not a possible position: the flag and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlagError {
    /// The flag, as written on a command line (`--filled`).
    pub flag: &'static str,
    /// What is wrong with its value (one line).
    pub message: String,
}

impl FlagError {
    /// An error about `flag`.
    pub fn new(flag: &'static str, message: impl fmt::Display) -> FlagError {
        FlagError {
            flag,
            message: message.to_string(),
        }
    }
}

impl fmt::Display for FlagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.flag, self.message)
    }
}

impl std::error::Error for FlagError {}

/// A position as written: each field the text of one flag, `None` when the flag is not given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionText {
    /// `--rules`: a rule set name (default `yahtzee`).
    pub rules: Option<String>,
    /// `--filled`: comma-separated box codes (`Y0`/`Y50` for the Yahtzee box), `-` for none.
    pub filled: Option<String>,
    /// `--upper`: the upper-section total so far (default 0).
    pub upper: Option<String>,
    /// `--points`: points so far, bonuses included (default: the least the sheet can hold).
    pub points: Option<String>,
    /// `--state`: the sheet in the thesis's notation (`2456TMDY0S,51,170`) or Verhoeff's
    /// (`_2__5_TF__LYC;15-`, with `--points`), instead of `--filled`/`--upper`.
    pub state: Option<String>,
    /// `--roll`: five dice in any order, optionally `;N` with the rolls left (`12344;2`).
    pub roll: Option<String>,
    /// `--rolls-left`: rolls left after the roll, 0 to 2 (default 2), more with saved rolls.
    pub rolls_left: Option<String>,
    /// `--saved`: rolls saved before this turn, which it may use on top of its own (only a
    /// rule set that saves rolls, `maxi-yatzy-saved`; default 0).
    pub saved: Option<String>,
}

/// A checked position: a sheet, and optionally the roll on the table and the rolls left.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    /// The player's sheet.
    pub sheet: Sheet,
    /// The dice on the table and how many rolls are left (0..=2, more with saved rolls), if
    /// a roll is given.
    pub roll: Option<(Dice, u8)>,
    /// Rolls saved before this turn (the saved-rolls rule; 0 without it).
    pub saved: u8,
}

/// A whole number given to `flag`.
pub fn parse_number(flag: &'static str, text: &str) -> Result<u32, FlagError> {
    text.trim()
        .parse()
        .map_err(|_| FlagError::new(flag, format!("expected a whole number, found '{text}'")))
}

/// A roll of `dice` dice (the game description's count: five today) written as digits in any
/// order, given to `flag`.
pub(crate) fn parse_roll(flag: &'static str, text: &str, dice: usize) -> Result<Dice, FlagError> {
    let text = text.trim();
    let mut faces = Vec::with_capacity(dice);
    for c in text.chars() {
        match c.to_digit(10) {
            Some(d @ 1..=6) => faces.push(d as u8),
            _ => {
                return Err(FlagError::new(
                    flag,
                    format!("'{text}' has '{c}', but dice show 1 to 6"),
                ))
            }
        }
    }
    if faces.len() != dice {
        return Err(FlagError::new(
            flag,
            format!("'{text}' has {} dice, expected {dice}", faces.len()),
        ));
    }
    Dice::from_faces_up_to(&faces, dice)
        .ok_or_else(|| FlagError::new(flag, format!("'{text}' is not a roll")))
}

impl Position {
    /// Checks a written position: the rule set, then the sheet (from `--state`, or from
    /// `--filled`/`--upper`/`--points`), then the roll.
    pub fn parse(text: &PositionText) -> Result<Position, FlagError> {
        let rules: RuleSet = match &text.rules {
            Some(r) => r.parse().map_err(|e| FlagError::new("--rules", e))?,
            None => RuleSet::Yahtzee,
        };
        let points = text
            .points
            .as_deref()
            .map(|p| parse_number("--points", p))
            .transpose()?;
        let sheet = match &text.state {
            Some(state) => sheet_from_state(rules, state, points, text)?,
            None => sheet_from_flags(
                rules,
                text.filled.as_deref(),
                text.upper.as_deref(),
                points,
                MOVER_FLAGS,
            )?,
        };
        let saved = parse_saved(&sheet, text.saved.as_deref())?;
        let roll = match &text.roll {
            None => {
                if text.rolls_left.is_some() {
                    return Err(FlagError::new("--rolls-left", "needs --roll"));
                }
                None
            }
            Some(roll) => Some(parse_roll_and_left(
                &sheet,
                roll,
                text.rolls_left.as_deref(),
                saved,
            )?),
        };
        Ok(Position { sheet, roll, saved })
    }
}

/// The rolls saved before the sheet's next turn (`--saved`, default 0): only under the
/// saved-rolls rule, and at most the two a turn each filled box's turn could leave.
fn parse_saved(sheet: &Sheet, saved: Option<&str>) -> Result<u8, FlagError> {
    let Some(text) = saved else {
        return Ok(0);
    };
    let n = parse_number("--saved", text)?;
    if !sheet.rules.saves_rolls() {
        return Err(FlagError::new(
            "--saved",
            format!("{} saves no rolls (maxi-yatzy-saved does)", sheet.rules),
        ));
    }
    let rerolls = u32::from(sheet.rules.rolls_per_turn().saturating_sub(1));
    let most = rerolls * sheet.filled_count();
    if n > most {
        return Err(FlagError::new(
            "--saved",
            format!(
                "{n} rolls saved; {} turns played can save at most {most}",
                sheet.filled_count()
            ),
        ));
    }
    u8::try_from(n).map_err(|_| FlagError::new("--saved", format!("{n} is too many")))
}

/// The sheet of `--state`, in the thesis's notation or (with a `;`) Verhoeff's.
fn sheet_from_state(
    rules: RuleSet,
    state: &str,
    points: Option<u32>,
    text: &PositionText,
) -> Result<Sheet, FlagError> {
    if text.filled.is_some() || text.upper.is_some() {
        return Err(FlagError::new(
            "--state",
            "give either --state or --filled/--upper, not both",
        ));
    }
    if state.contains(';') {
        let points = points.ok_or_else(|| {
            FlagError::new("--points", "Verhoeff's notation needs the points so far")
        })?;
        Sheet::from_verhoeff(rules, state, points).map_err(|e| {
            let flag = match e {
                SheetError::PointsTooLow { .. } | SheetError::PointsTooHigh { .. } => "--points",
                _ => "--state",
            };
            FlagError::new(flag, e)
        })
    } else {
        if points.is_some() {
            return Err(FlagError::new(
                "--points",
                "the thesis notation already gives the points",
            ));
        }
        Sheet::from_thesis(rules, state).map_err(|e| FlagError::new("--state", e))
    }
}

/// The roll of `--roll` (`12344` or `12344;2`) and the rolls left (`--rolls-left`, else the
/// roll's `;N`, else all the turn's rolls but one), on `sheet`, in a turn that may also use
/// `saved` rolls saved before it.
fn parse_roll_and_left(
    sheet: &Sheet,
    roll: &str,
    rolls_left: Option<&str>,
    saved: u8,
) -> Result<(Dice, u8), FlagError> {
    let description = sheet.rules.description();
    let (dice, left) = roll_and_left(
        roll,
        rolls_left,
        description.dice,
        description.rolls_per_turn.saturating_add(saved),
    )?;
    if sheet.is_complete() {
        return Err(FlagError::new(
            "--filled",
            "every box is filled: there is nothing to roll for",
        ));
    }
    Ok((dice, left))
}

/// The roll of `--roll` on a Jamb slip (`123445` or `123445;2`: as many dice as the rule set
/// rolls) and the rolls left after it (`--rolls-left`, else the roll's `;N`, else all the
/// turn's rolls but one): at most the rolls of the slip's next turn less one (the last turn of
/// a game may have more rolls than the others, five in `jamb-6a`).
pub fn jamb_roll(
    slip: &JambSheet,
    roll: &str,
    rolls_left: Option<&str>,
) -> Result<(Dice, u8), FlagError> {
    let description = slip.rules().description();
    let turn = description.turns().saturating_sub(slip.turns_left());
    let (dice, left) = roll_and_left(
        roll,
        rolls_left,
        description.dice,
        description.rolls_in_turn(turn),
    )?;
    if slip.is_complete() {
        return Err(FlagError::new(
            "--filled",
            "every box is filled: there is nothing to roll for",
        ));
    }
    Ok((dice, left))
}

/// `--roll` (`DICE` or `DICE;N`) of `dice` dice and the rolls left after it (`--rolls-left`,
/// else the roll's `;N`, else `turn_rolls - 1`) in a turn of `turn_rolls` rolls.
fn roll_and_left(
    roll: &str,
    rolls_left: Option<&str>,
    dice: usize,
    turn_rolls: u8,
) -> Result<(Dice, u8), FlagError> {
    let (dice_text, left_in_roll) = match roll.split_once(';') {
        Some((d, l)) => (d, Some(l)),
        None => (roll, None),
    };
    let dice = parse_roll("--roll", dice_text, dice)?;
    let most = u32::from(turn_rolls.saturating_sub(1));
    let left = match (rolls_left, left_in_roll) {
        (Some(l), _) => parse_number("--rolls-left", l)?,
        (None, Some(l)) => parse_number("--roll", l)?,
        (None, None) => most,
    };
    if left > most {
        return Err(FlagError::new(
            "--rolls-left",
            format!("{left} rolls left; this turn has at most {most} after its first roll"),
        ));
    }
    Ok((dice, left as u8))
}

/// Why an empty `--filled` (or `--opponent-filled`) is refused: it is more likely a value lost
/// on the way (an empty shell variable) than a sheet, which has its own spelling.
pub const EMPTY_FILLED: &str = "empty: write `-` for a sheet with no box filled";

/// The flags naming the filled boxes, the upper total and the points of one sheet.
struct SheetFlagNames {
    filled: &'static str,
    upper: &'static str,
    points: &'static str,
}

/// The mover's sheet flags.
const MOVER_FLAGS: SheetFlagNames = SheetFlagNames {
    filled: "--filled",
    upper: "--upper",
    points: "--points",
};

/// An opponent's sheet flags.
const OPPONENT_FLAGS: SheetFlagNames = SheetFlagNames {
    filled: "--opponent-filled",
    upper: "--opponent-upper",
    points: "--opponent-points",
};

/// A sheet from its filled boxes (codes, `-` for none), upper total and points (default: the
/// least the sheet can hold); errors name the flags of `names`.
fn sheet_from_flags(
    rules: RuleSet,
    filled: Option<&str>,
    upper: Option<&str>,
    points: Option<u32>,
    names: SheetFlagNames,
) -> Result<Sheet, FlagError> {
    let filled = filled.unwrap_or("-").trim();
    if filled.is_empty() {
        return Err(FlagError::new(names.filled, EMPTY_FILLED));
    }
    let codes: Vec<&str> = if filled == "-" {
        Vec::new()
    } else {
        filled.split(',').collect()
    };
    let upper = upper
        .map(|u| parse_number(names.upper, u))
        .transpose()?
        .unwrap_or(0);
    let mut sheet = Sheet::from_boxes(rules, &codes, upper).map_err(|e| {
        let flag = if matches!(e, SheetError::UpperUnreachable { .. }) {
            names.upper
        } else {
            names.filled
        };
        FlagError::new(flag, e)
    })?;
    if let Some(points) = points {
        sheet.points = points;
    }
    sheet.check().map_err(|e| FlagError::new(names.points, e))?;
    Ok(sheet)
}

/// The opponents' sheets as written: the repeated `--opponent-*` flags, one per opponent in
/// seat order after the mover.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpponentsText {
    /// `--opponent-filled`, one per opponent.
    pub filled: Vec<String>,
    /// `--opponent-upper`, one per opponent in the same order (default 0).
    pub upper: Vec<String>,
    /// `--opponent-points`, one per opponent in the same order (default: the least the sheet
    /// can hold).
    pub points: Vec<String>,
}

impl OpponentsText {
    /// The opponents' sheets, checked against the mover's: each has as many boxes filled as the
    /// mover (they play later in this round) or one more (they played earlier), those first.
    pub fn parse(&self, mover: &Sheet) -> Result<Vec<Sheet>, FlagError> {
        let n = self.filled.len();
        if self.upper.len() > n || self.points.len() > n {
            return Err(FlagError::new(
                "--opponent-filled",
                "give one --opponent-filled per opponent before their --opponent-upper/--opponent-points",
            ));
        }
        let mut sheets: Vec<Sheet> = Vec::with_capacity(n);
        for (i, filled) in self.filled.iter().enumerate() {
            let points = self
                .points
                .get(i)
                .map(|p| parse_number("--opponent-points", p))
                .transpose()?;
            let sheet = sheet_from_flags(
                mover.rules,
                Some(filled),
                self.upper.get(i).map(String::as_str),
                points,
                OPPONENT_FLAGS,
            )?;
            let (mine, theirs) = (mover.filled_count(), sheet.filled_count());
            let earlier = sheets.last().map_or(mine, Sheet::filled_count);
            if theirs != mine && theirs != mine + 1 || theirs < earlier {
                return Err(FlagError::new(
                    "--opponent-filled",
                    format!(
                        "opponent {} has {theirs} boxes filled; with the mover to move ({mine} filled), \
                         opponents in seat order have {mine} (to play this round) then {} (played)",
                        i + 1,
                        mine + 1
                    ),
                ));
            }
            sheets.push(sheet);
        }
        Ok(sheets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(fields: &[(&str, &str)]) -> PositionText {
        let mut t = PositionText::default();
        for &(name, value) in fields {
            let v = Some(value.to_string());
            match name {
                "rules" => t.rules = v,
                "filled" => t.filled = v,
                "upper" => t.upper = v,
                "points" => t.points = v,
                "state" => t.state = v,
                "roll" => t.roll = v,
                "rolls_left" => t.rolls_left = v,
                "saved" => t.saved = v,
                _ => unreachable!(),
            }
        }
        t
    }

    fn error(fields: &[(&str, &str)]) -> String {
        Position::parse(&text(fields)).unwrap_err().to_string()
    }

    #[test]
    fn saved_rolls_add_to_the_rolls_left_under_the_saved_rolls_rule_only() {
        let filled = "1,2,3,4";
        let p = Position::parse(&text(&[
            ("rules", "maxi-yatzy-saved"),
            ("filled", filled),
            ("upper", "10"),
            ("saved", "5"),
            ("roll", "123456"),
            ("rolls_left", "7"),
        ]))
        .unwrap();
        assert_eq!((p.saved, p.roll.map(|r| r.1)), (5, Some(7)));
        // Without a bank, the turn's own two rerolls.
        let p =
            Position::parse(&text(&[("rules", "maxi-yatzy-saved"), ("roll", "123456")])).unwrap();
        assert_eq!((p.saved, p.roll.map(|r| r.1)), (0, Some(2)));
        let refused = |fields: &[(&str, &str)]| Position::parse(&text(fields)).unwrap_err();
        // More rerolls than the bank gives; a bank the turns played cannot have saved; a rule
        // set that saves nothing.
        let e = refused(&[
            ("rules", "maxi-yatzy-saved"),
            ("filled", filled),
            ("saved", "5"),
            ("roll", "123456"),
            ("rolls_left", "8"),
        ]);
        assert_eq!(e.flag, "--rolls-left", "{e}");
        let e = refused(&[
            ("rules", "maxi-yatzy-saved"),
            ("filled", filled),
            ("saved", "9"),
        ]);
        assert_eq!(e.flag, "--saved");
        assert!(e.message.contains("at most 8"), "{e}");
        let e = refused(&[("rules", "maxi-yatzy"), ("saved", "0")]);
        assert_eq!(e.flag, "--saved");
        assert!(e.message.contains("saves no rolls"), "{e}");
    }

    #[test]
    fn a_position_from_flags() {
        let p = Position::parse(&text(&[
            ("filled", "1,2,3,Y50"),
            ("upper", "9"),
            ("roll", "12344;1"),
        ]))
        .unwrap();
        assert_eq!(p.sheet.filled_codes(), "1,2,3,Y50");
        assert_eq!(p.sheet.points, 59, "the least points by default");
        let (dice, left) = p.roll.unwrap();
        assert_eq!((dice.to_string().as_str(), left), ("12344", 1));
        let empty = Position::parse(&PositionText::default()).unwrap();
        assert_eq!(empty.sheet, Sheet::empty(RuleSet::Yahtzee));
        assert_eq!(empty.roll, None);
        let v = Position::parse(&text(&[
            ("rules", "yahtzee-free"),
            ("state", "_2__5_TF__LYC;15-"),
            ("points", "103"),
            ("roll", "12344"),
            ("rolls_left", "0"),
        ]))
        .unwrap();
        assert_eq!(v.sheet.upper_total, 48);
        assert_eq!(v.roll.map(|r| r.1), Some(0));
    }

    #[test]
    fn errors_name_the_flag() {
        assert_eq!(
            error(&[("roll", "12347")]),
            "--roll: '12347' has '7', but dice show 1 to 6"
        );
        assert_eq!(
            error(&[("filled", "1,1")]),
            "--filled: box 1 is filled twice"
        );
        assert!(error(&[("rules", "chess")]).starts_with("--rules: "));
        assert!(error(&[("filled", "1"), ("upper", "7")]).starts_with("--upper: "));
        assert!(error(&[("filled", "Y50"), ("points", "10")]).starts_with("--points: "));
        assert!(error(&[("rolls_left", "1")]).starts_with("--rolls-left: needs --roll"));
        assert!(error(&[("roll", "11111"), ("rolls_left", "3")]).starts_with("--rolls-left: "));
        assert!(error(&[("roll", "11111;x")]).starts_with("--roll: "));
        assert!(error(&[("state", "_2__5_TF__LYC;15-")]).starts_with("--points: "));
        assert!(error(&[("state", "2456TMDY0S,51,170"), ("filled", "1")]).starts_with("--state: "));
    }

    #[test]
    fn rolls_have_the_dice_count_of_the_game() {
        assert_eq!(
            error(&[("roll", "123456")]),
            "--roll: '123456' has 6 dice, expected 5"
        );
        assert_eq!(
            error(&[("roll", "1234")]),
            "--roll: '1234' has 4 dice, expected 5"
        );
        let six = parse_roll("--roll", "336366", 6).unwrap();
        assert_eq!((six.len(), six.to_string().as_str()), (6, "333666"));
        assert_eq!(
            parse_roll("--roll", "33636", 6).unwrap_err().to_string(),
            "--roll: '33636' has 5 dice, expected 6"
        );
        assert_eq!(parse_roll("--roll", "12345", 5).map(|d| d.len()), Ok(5));
    }

    #[test]
    fn a_jamb_roll_has_the_rule_sets_dice_and_its_turns_rolls() {
        use crate::rules::jamb::JambRules;
        let slip = JambSheet::new(JambRules::JAMB_5);
        let (dice, left) = jamb_roll(&slip, "54321", None).unwrap();
        assert_eq!((dice.to_string().as_str(), left), ("12345", 2));
        assert_eq!(jamb_roll(&slip, "12345;1", None).unwrap().1, 1);
        assert_eq!(jamb_roll(&slip, "12345;1", Some("0")).unwrap().1, 0);
        assert_eq!(
            jamb_roll(&slip, "123456", None).unwrap_err().to_string(),
            "--roll: '123456' has 6 dice, expected 5"
        );
        assert_eq!(
            jamb_roll(&slip, "12345", Some("3"))
                .unwrap_err()
                .to_string(),
            "--rolls-left: 3 rolls left; this turn has at most 2 after its first roll"
        );
    }

    #[test]
    fn opponents_are_checked_against_the_mover() {
        let mover = Position::parse(&text(&[("filled", "1,2,3"), ("upper", "9")]))
            .unwrap()
            .sheet;
        let opponents = |filled: &[&str]| OpponentsText {
            filled: filled.iter().map(|f| f.to_string()).collect(),
            ..OpponentsText::default()
        };
        assert_eq!(
            opponents(&["1,2,4", "1,2"]).parse(&mover).unwrap_err().flag,
            "--opponent-filled"
        );
        let e = opponents(&["1,2"]).parse(&mover).unwrap_err();
        assert!(
            e.message.starts_with("opponent 1 has 2 boxes filled"),
            "{e}"
        );
        let two = opponents(&["1,2,4", "1,2,3,4"]).parse(&mover).unwrap();
        assert_eq!(two.len(), 2);
        assert!(opponents(&["1,2,3,4", "1,2,4"]).parse(&mover).is_err());
        let bad_order = opponents(&["1,2,3,4", "1,2,4,5", "1,2,5"]);
        assert!(bad_order.parse(&mover).is_err());
    }
}

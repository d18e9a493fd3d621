//! One row type for a rated decision, [`DecisionRow`]: what `decisions.csv` writes, what a
//! player's worst-decisions list shows, and what a single game's report lists (everything about
//! the decision a reader needs without the game record at hand).

use crate::dice::Dice;
use crate::rate::{Class, Rated, Unit};
use crate::rules::jamb::Cell;
use crate::rules::{Choice, GameFamily, PlayerSheet};
use dicelens_parsers::GameRecord;
use serde::ser::{Serialize, SerializeStruct, Serializer};
use std::borrow::Cow;

/// A rated decision, made from its game and its rating ([`DecisionRow::new`]) without copying
/// anything (the game id and player name are borrowed from the game; [`DecisionRow::into_owned`]
/// keeps a row beyond it). Serialised as an object with the fields below, `sheet` given as
/// `state`, `filled`, `upper_total` and `points`, and dice and choices as text.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionRow<'a> {
    /// Game id.
    pub game: Cow<'a, str>,
    /// Index of the decision in the game's decisions (orders ties within a game).
    pub order: usize,
    /// The mover's name, if the game names the seat.
    pub player: Option<Cow<'a, str>>,
    /// The mover's seat, 0-based.
    pub seat: u8,
    /// Round, 1-based.
    pub round: u16,
    /// Which roll of the turn the decision follows (1-3; up to 5 on a five-roll last turn).
    pub roll: u8,
    /// Rolls left after that roll (0-2; up to 4 on a five-roll last turn).
    pub rolls_left: u8,
    /// The mover's sheet before the turn.
    pub sheet: PlayerSheet,
    /// The dice.
    pub dice: Dice,
    /// What the player did.
    pub choice: Choice,
    /// Jamb: the cell the player announced with this choice (roll 1 of an announced turn: the
    /// choice is "announce it, then `choice`"); `None` otherwise.
    pub announced: Option<Cell>,
    /// Its value.
    pub value: f64,
    /// The best option.
    pub best: Choice,
    /// Jamb: the cell the best option announces first (then `best` in the announced turn).
    pub best_announced: Option<Cell>,
    /// Its value.
    pub best_value: f64,
    /// `best_value - value` (never negative).
    pub loss: f64,
    /// Value after the roll minus value expected before it.
    pub luck: f64,
    /// Only one option, or all within 1e-9.
    pub forced: bool,
    /// Severity.
    pub class: Class,
    /// The unit of the values.
    pub unit: Unit,
}

impl<'a> DecisionRow<'a> {
    /// The row of `rated`, the decision at index `order` of `game`'s rated decisions.
    pub fn new(game: &'a GameRecord, order: usize, rated: &Rated) -> DecisionRow<'a> {
        let d = &rated.decision;
        DecisionRow {
            game: Cow::Borrowed(&game.provenance.game_id),
            order,
            player: game
                .players
                .get(usize::from(d.seat))
                .map(|p| Cow::Borrowed(p.as_str())),
            seat: d.seat,
            round: d.round,
            roll: d.roll_number,
            rolls_left: d.rolls_left(),
            sheet: d.sheet,
            dice: d.dice,
            choice: d.choice,
            announced: d.announced.filter(|_| d.roll_number == 1),
            value: rated.chosen,
            best: rated.best_choice,
            best_announced: rated.best_announced,
            best_value: rated.best,
            loss: rated.error,
            luck: rated.luck,
            forced: rated.forced,
            class: rated.class,
            unit: rated.unit,
        }
    }

    /// Every rated decision of a game, in order.
    pub(crate) fn of_game(
        game: &'a GameRecord,
        rated: &'a [Rated],
    ) -> impl Iterator<Item = DecisionRow<'a>> + 'a {
        rated
            .iter()
            .enumerate()
            .map(move |(order, r)| DecisionRow::new(game, order, r))
    }

    /// The same row, owning its text.
    pub fn into_owned(self) -> DecisionRow<'static> {
        DecisionRow {
            game: Cow::Owned(self.game.into_owned()),
            player: self.player.map(|p| Cow::Owned(p.into_owned())),
            ..self
        }
    }

    /// The sheet before the turn in Verhoeff's notation (`sheet_state`).
    pub fn state(&self) -> String {
        sheet_state(&self.sheet)
    }

    /// The mover's name, or `seat N` (1-based) if the game does not name the seat.
    pub(crate) fn player_name(&self) -> Cow<'_, str> {
        match &self.player {
            Some(name) => Cow::Borrowed(name),
            None => Cow::Owned(seat_name(usize::from(self.seat))),
        }
    }

    /// The choice as a table shows it: `keep 234`, `keep -`, or `score LS=40` with the points
    /// the box gets; after an announcement made with it, `@A:P ` first (`@A:P keep 66`).
    pub(crate) fn choice_text(&self) -> String {
        self.announcing(
            self.announced,
            choice_with_points(&self.sheet, &self.dice, self.roll, self.choice),
        )
    }

    /// True when the option taken is not the best one (another choice or announcement, and a
    /// loss beyond a tie of 1e-9).
    fn missed_best(&self) -> bool {
        (self.best != self.choice || self.best_announced != self.announced) && self.loss > 1e-9
    }

    /// The best option as a table shows it ([`DecisionRow::choice_text`]), when the choice is
    /// not one of the best (a tie within 1e-9 is one of the best).
    pub(crate) fn best_text(&self) -> Option<String> {
        self.missed_best().then(|| {
            self.announcing(
                self.best_announced,
                choice_with_points(&self.sheet, &self.dice, self.roll, self.best),
            )
        })
    }

    /// A choice of this decision as JSON names it: `keep 234`, `score 3K`, `score D:MAX`.
    pub(crate) fn choice_name(&self, choice: Choice) -> String {
        match self.sheet.code_of(choice) {
            Some(code) => format!("score {code}"),
            None => choice.to_string(),
        }
    }

    /// The option taken as JSON names it ([`DecisionRow::choice_name`]), after `@A:P ` when an
    /// announcement was made with it.
    pub(crate) fn chosen_name(&self) -> String {
        self.announcing(self.announced, self.choice_name(self.choice))
    }

    /// The best option as JSON names it ([`DecisionRow::chosen_name`]).
    pub(crate) fn best_name(&self) -> String {
        self.announcing(self.best_announced, self.choice_name(self.best))
    }

    /// The option taken as `decisions.csv` and the player's lists write it: `keep 66`,
    /// `write 3:P`, after `@A:P ` when an announcement was made with it.
    pub fn chosen_label(&self) -> String {
        self.announcing(self.announced, self.choice.to_string())
    }

    /// The best option as [`DecisionRow::chosen_label`] writes it.
    pub fn best_label(&self) -> String {
        self.announcing(self.best_announced, self.best.to_string())
    }

    /// `text` after `@CODE ` (the announced cell's code on the slip) when `announced`.
    fn announcing(&self, announced: Option<Cell>, text: String) -> String {
        match announced.and_then(|cell| self.sheet.code_of(Choice::Write(cell))) {
            Some(code) => format!("@{code} {text}"),
            None => text,
        }
    }

    /// Filled boxes before the turn (`Sheet::filled_codes`).
    pub fn filled(&self) -> String {
        self.sheet.filled_codes()
    }

    /// Upper-section total before the turn (in Jamb, of all columns together).
    pub fn upper_total(&self) -> u32 {
        self.sheet.upper_total()
    }

    /// Points before the turn.
    pub fn points(&self) -> i64 {
        self.sheet.points()
    }

    /// Worst first: loss descending, then game id, then order in the game.
    pub(crate) fn worst_first(a: &DecisionRow, b: &DecisionRow) -> std::cmp::Ordering {
        b.loss
            .total_cmp(&a.loss)
            .then_with(|| a.game.cmp(&b.game))
            .then(a.order.cmp(&b.order))
    }
}

impl Serialize for DecisionRow<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut row = s.serialize_struct("DecisionRow", 21)?;
        row.serialize_field("game", &self.game)?;
        row.serialize_field("order", &self.order)?;
        row.serialize_field("player", &self.player)?;
        row.serialize_field("seat", &self.seat)?;
        row.serialize_field("round", &self.round)?;
        row.serialize_field("roll", &self.roll)?;
        row.serialize_field("rolls_left", &self.rolls_left)?;
        row.serialize_field("state", &self.state())?;
        row.serialize_field("filled", &self.filled())?;
        row.serialize_field("upper_total", &self.upper_total())?;
        row.serialize_field("points", &self.points())?;
        row.serialize_field("dice", &self.dice.to_string())?;
        row.serialize_field("choice", &self.chosen_label())?;
        row.serialize_field("value", &self.value)?;
        row.serialize_field("best", &self.best_label())?;
        row.serialize_field("best_value", &self.best_value)?;
        row.serialize_field("loss", &self.loss)?;
        row.serialize_field("luck", &self.luck)?;
        row.serialize_field("forced", &self.forced)?;
        row.serialize_field("class", self.class.name())?;
        row.serialize_field("unit", self.unit.short())?;
        row.end()
    }
}

/// The sheet as Verhoeff writes it (`_2__5_TF__LYC;15-`: a mask over `123456TFHSLYC` with `_`
/// for a used box, the upper points still needed, `+` when the Yahtzee box holds 50); Yatzy
/// sheets, which his notation does not cover, as their filled box codes.
pub(crate) fn sheet_state(sheet: &PlayerSheet) -> String {
    match sheet {
        // A slip of 65 cells is too long for a table: each column's letter and filled boxes.
        PlayerSheet::Jamb(slip) => slip
            .rules()
            .columns
            .iter()
            .zip(slip.columns())
            .map(|(kind, column)| format!("{kind}{}", 13 - column.empty_count()))
            .collect::<Vec<_>>()
            .join(" "),
        PlayerSheet::Yahtzee(s) => s.verhoeff_state().unwrap_or_else(|| s.filled_codes()),
    }
}

/// `seat N`, the name of an unnamed seat (`seat` 0-based).
fn seat_name(seat: usize) -> String {
    format!("seat {}", seat + 1)
}

/// The name of `game`'s player at `seat`, or `seat N` if the game does not name it.
pub(crate) fn player_name(game: &GameRecord, seat: usize) -> Cow<'_, str> {
    match game.players.get(seat) {
        Some(name) => Cow::Borrowed(name),
        None => Cow::Owned(seat_name(seat)),
    }
}

/// A choice with the points a box gets: `score LS=40`, `score D:MAX=28`; keeps as
/// `keep 234`.
fn choice_with_points(sheet: &PlayerSheet, dice: &Dice, roll: u8, choice: Choice) -> String {
    let code = sheet.code_of(choice);
    match (code, sheet.points_of(choice, dice, roll)) {
        (Some(code), Some(points)) => format!("score {code}={points}"),
        _ => choice.to_string(),
    }
}

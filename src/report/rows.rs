//! One row type for a rated decision, [`DecisionRow`]: what `decisions.csv` writes, what a
//! player's worst-decisions list shows, and what a single game's report lists (everything about
//! the decision a reader needs without the game record at hand).

use crate::rate::{Class, Rated, Unit};
use crate::rules::{Family, Sheet, UPPER_THRESHOLD};
use dicelens_parsers::GameRecord;
use serde::Serialize;

/// A rated decision, made from its game and its rating ([`DecisionRow::new`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DecisionRow {
    /// Game id.
    pub game: String,
    /// Index of the decision in the game's decisions (orders ties within a game).
    pub order: usize,
    /// The mover's name, if the game names the seat.
    pub player: Option<String>,
    /// The mover's seat, 0-based.
    pub seat: u8,
    /// Round, 1-based.
    pub round: u16,
    /// Which roll of the turn the decision follows (1-3).
    pub roll: u8,
    /// Rolls left after that roll (0-2).
    pub rolls_left: u8,
    /// The sheet before the turn in Verhoeff's notation ([`sheet_state`]).
    pub state: String,
    /// Filled boxes before the turn ([`Sheet::filled_codes`]).
    pub filled: String,
    /// Upper-section total before the turn.
    pub upper_total: u32,
    /// Points before the turn.
    pub points: u32,
    /// The dice.
    pub dice: String,
    /// What the player did.
    pub choice: String,
    /// Its value.
    pub value: f64,
    /// The best option.
    pub best: String,
    /// Its value.
    pub best_value: f64,
    /// `best_value - value` (never negative).
    pub loss: f64,
    /// Value after the roll minus value expected before it.
    pub luck: f64,
    /// Only one option, or all within 1e-9.
    pub forced: bool,
    /// Severity.
    #[serde(serialize_with = "class_name")]
    pub class: Class,
    /// The unit of the values.
    #[serde(serialize_with = "unit_name")]
    pub unit: Unit,
}

/// A class by its name.
fn class_name<S: serde::Serializer>(class: &Class, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(class.name())
}

/// A unit by its short name.
fn unit_name<S: serde::Serializer>(unit: &Unit, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(unit.short())
}

impl DecisionRow {
    /// The row of `rated`, the decision at index `order` of `game`'s rated decisions.
    pub fn new(game: &GameRecord, order: usize, rated: &Rated) -> DecisionRow {
        let d = &rated.decision;
        DecisionRow {
            game: game.provenance.game_id.clone(),
            order,
            player: game.players.get(usize::from(d.seat)).cloned(),
            seat: d.seat,
            round: d.round,
            roll: d.roll_number,
            rolls_left: d.rolls_left(),
            state: sheet_state(&d.sheet),
            filled: d.sheet.filled_codes(),
            upper_total: d.sheet.upper_total,
            points: d.sheet.points,
            dice: d.dice.to_string(),
            choice: d.choice.to_string(),
            value: rated.chosen,
            best: rated.best_choice.to_string(),
            best_value: rated.best,
            loss: rated.error,
            luck: rated.luck,
            forced: rated.forced,
            class: rated.class,
            unit: rated.unit,
        }
    }

    /// Every rated decision of a game, in order.
    pub fn of_game<'a>(
        game: &'a GameRecord,
        rated: &'a [Rated],
    ) -> impl Iterator<Item = DecisionRow> + 'a {
        rated
            .iter()
            .enumerate()
            .map(move |(order, r)| DecisionRow::new(game, order, r))
    }

    /// Worst first: loss descending, then game id, then order in the game.
    pub fn worst_first(a: &DecisionRow, b: &DecisionRow) -> std::cmp::Ordering {
        b.loss
            .total_cmp(&a.loss)
            .then_with(|| a.game.cmp(&b.game))
            .then(a.order.cmp(&b.order))
    }
}

/// The sheet as Verhoeff writes it (`_2__5_TF__LYC;15-`: a mask over `123456TFHSLYC` with `_`
/// for a used box, the upper points still needed, `+` when the Yahtzee box holds 50); Yatzy
/// sheets, which his notation does not cover, as their filled box codes.
pub fn sheet_state(sheet: &Sheet) -> String {
    const LETTERS: &[u8; 13] = b"123456TFHSLYC";
    match sheet.rules.family() {
        Family::American => {
            let mask: String = LETTERS
                .iter()
                .enumerate()
                .map(|(b, &letter)| {
                    if sheet.filled & (1 << b) != 0 {
                        '_'
                    } else {
                        char::from(letter)
                    }
                })
                .collect();
            format!(
                "{mask};{:>2}{}",
                UPPER_THRESHOLD - sheet.capped_upper(),
                if sheet.yahtzee_50 { '+' } else { '-' }
            )
        }
        Family::Scandinavian => sheet.filled_codes(),
    }
}

//! The board's API as JSON: what the server answers and what it reads from requests. Every
//! type here is plain data; `super::board` and `super::sessions` fill them.

use serde::{Deserialize, Serialize};

/// One game the board can open, as the game list shows it.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    /// The opaque key of the game in URLs: its content hash (16 hex digits).
    pub id: String,
    /// The game id the log gives.
    pub game_id: String,
    /// Player names in seat order.
    pub players: Vec<String>,
    /// The rule set's name.
    pub rules: String,
    /// Final totals in seat order, when the replay reached the end.
    pub result: Option<Vec<i64>>,
    /// Where the game came from: the log's name, or `pasted`.
    pub source: String,
}

/// One box of a sheet as drawn: its code (as YGN writes it), its column (Jamb) and the
/// points written in it (`None` while free).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct BoxView {
    /// The box's code as the YGN notation writes it (`3K`, `Y`, `D:MAX`).
    pub code: String,
    /// The box's name within its column (`3K`, `MAX`).
    pub name: String,
    /// The column's letter (Jamb), empty for a single-column sheet.
    pub column: String,
    /// Points written in the box; `None` while the box is free.
    pub points: Option<i64>,
}

/// A player's sheet as drawn.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SheetView {
    /// The player's name.
    pub player: String,
    /// `column` (a single-column scorecard) or `jamb` (a slip of several columns).
    pub family: &'static str,
    /// The column letters of a Jamb slip, in order; empty for a single column.
    pub columns: Vec<String>,
    /// Every box, in sheet order (Jamb: column by column).
    pub boxes: Vec<BoxView>,
    /// The upper-section total so far.
    pub upper: i64,
    /// Bonuses so far (the total less the points in the boxes).
    pub bonus: i64,
    /// Points so far, bonuses included.
    pub total: i64,
    /// The sums of each column of a Jamb slip, in column order; empty for a single column.
    pub column_sums: Vec<ColumnSums>,
}

/// The sums of one column of a Jamb slip, as a slip writes them under its sections.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ColumnSums {
    /// Ones to sixes.
    pub upper: i64,
    /// The upper section's bonus.
    pub bonus: i64,
    /// The middle section: (max - min) times the ones.
    pub middle: i64,
    /// The lower section.
    pub lower: i64,
    /// The column's total.
    pub total: i64,
}

/// One option of a position with its value.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct OptionView {
    /// The option as `eval` writes it (`keep 66`, `keep -`, `score 3K`, `score D:MAX`).
    pub option: String,
    /// Its value in the position's unit.
    pub value: f64,
    /// The best option's value less its value.
    pub loss: f64,
    /// In games of several players, its expected final score (solitaire) beside the match
    /// points.
    pub solitaire: Option<f64>,
    /// True for the option the game (or the player) took.
    pub chosen: bool,
}

/// A position with every option valued.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Valued {
    /// `points` (expected final score) or `match points`.
    pub unit: &'static str,
    /// The options, best first.
    pub options: Vec<OptionView>,
    /// Why the position could not be valued, if it could not (the options are then empty).
    pub error: Option<String>,
}

/// One decision of a game as the board shows it.
#[derive(Clone, Debug, Serialize)]
pub struct DecisionView {
    /// Index of the decision in the game (0-based).
    pub index: usize,
    /// Decisions in the game.
    pub of: usize,
    /// The mover's seat (0-based).
    pub seat: usize,
    /// The round (1-based).
    pub round: u16,
    /// The roll of the turn the dice are (1-based).
    pub roll: u8,
    /// Rolls left after this one.
    pub rolls_left: u8,
    /// The dice on the table, ascending.
    pub dice: Vec<u8>,
    /// For each die, whether the option taken keeps it.
    pub kept: Vec<bool>,
    /// The option the player took.
    pub chosen: String,
    /// Every player's sheet before the turn.
    pub sheets: Vec<SheetView>,
    /// The options of the position, valued.
    pub valued: Valued,
}

/// The decisions of a game in brief, and the chart of the game.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// The game as listed.
    pub game: GameSummary,
    /// Every decision: seat, round, roll, dice and the option taken.
    pub decisions: Vec<DecisionBrief>,
    /// The chart's unit: `points` (the expected final score) or `match points` (the mover's
    /// winning chances).
    pub unit: &'static str,
    /// Why the game is not (wholly) rated, if it is not.
    pub note: Option<String>,
}

/// A decision in brief.
#[derive(Clone, Debug, Serialize)]
pub struct DecisionBrief {
    /// The mover's seat.
    pub seat: usize,
    /// The round.
    pub round: u16,
    /// The roll of the turn.
    pub roll: u8,
    /// The dice, ascending.
    pub dice: Vec<u8>,
    /// The option taken.
    pub chosen: String,
    /// The value of the option taken by the analysis's oracle (the chart's point), if rated.
    pub value: Option<f64>,
    /// Its loss against the best option, if rated.
    pub loss: Option<f64>,
}

/// A new play, entry or what-if session.
#[derive(Clone, Debug, Deserialize)]
pub struct NewSession {
    /// `play` (the server rolls), `entry` (the person enters the dice) or `whatif` (from a
    /// decision of a game, following `option`; not recorded).
    pub mode: String,
    /// The rule set (play and entry).
    #[serde(default)]
    pub rules: Option<String>,
    /// The players' names in seat order (play and entry).
    #[serde(default)]
    pub players: Vec<String>,
    /// Seats the oracle plays (play mode).
    #[serde(default)]
    pub oracle_seats: Vec<usize>,
    /// Whether the coach flags costly choices.
    #[serde(default)]
    pub coach: bool,
    /// The coach's threshold (default 0.2 points or 0.01 match points).
    #[serde(default)]
    pub threshold: Option<f64>,
    /// What-if: the game's key.
    #[serde(default)]
    pub game: Option<String>,
    /// What-if: the decision's index.
    #[serde(default)]
    pub decision: Option<usize>,
    /// What-if: the option followed.
    #[serde(default)]
    pub option: Option<String>,
}

/// A roll in a session: the dice entered (entry mode, or what-if), or none (the server rolls).
#[derive(Clone, Debug, Deserialize, Default)]
pub struct RollRequest {
    /// The dice, as digits: all the dice on the table after the roll, or only the dice rolled.
    #[serde(default)]
    pub dice: Option<String>,
}

/// A choice in a session: an option as the options list writes it.
#[derive(Clone, Debug, Deserialize)]
pub struct ChooseRequest {
    /// `keep 66`, `keep -`, `score 3K`, `score D:MAX`.
    pub option: String,
}

/// A choice the coach flags: it cost more than the threshold.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CoachFlag {
    /// The round.
    pub round: u16,
    /// The roll of the turn.
    pub roll: u8,
    /// The player.
    pub player: String,
    /// The option taken.
    pub chosen: String,
    /// What it cost.
    pub loss: f64,
    /// The best option.
    pub best: String,
    /// The unit of the loss.
    pub unit: &'static str,
}

/// A session's state as the board shows it.
#[derive(Clone, Debug, Serialize)]
pub struct SessionView {
    /// The session's key.
    pub id: String,
    /// `play`, `entry` or `whatif`.
    pub mode: &'static str,
    /// The rule set.
    pub rules: String,
    /// Player names in seat order.
    pub players: Vec<String>,
    /// Seats the oracle plays.
    pub oracle_seats: Vec<usize>,
    /// `roll` (dice to roll or enter), `choose` (an option to take) or `over`.
    pub phase: &'static str,
    /// The seat to move.
    pub seat: usize,
    /// The round (1-based).
    pub round: u16,
    /// The roll of the turn the dice are (0 before the first roll).
    pub roll: u8,
    /// Dice the next roll keeps (after a keep).
    pub kept: Vec<u8>,
    /// The dice on the table (empty before the first roll of a turn).
    pub dice: Vec<u8>,
    /// For each die on the table, whether it was kept from the roll before.
    pub dice_kept: Vec<bool>,
    /// Every player's sheet.
    pub sheets: Vec<SheetView>,
    /// The options of the dice on the table, valued (when the phase is `choose`).
    pub valued: Option<Valued>,
    /// Every choice the coach flagged so far, last last.
    pub flags: Vec<CoachFlag>,
    /// What the oracle's seats did since the last request, as lines.
    pub log: Vec<String>,
    /// The YGN file the game is recorded in (play and entry).
    pub record: Option<String>,
}

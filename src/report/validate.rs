//! The report of `dicelens validate` on one game: the legality verdict, every decision rated
//! (one row per roll, in the manner of Verhoeff's analysis table) and per-player totals, as
//! text for people ([`ValidateReport::text`]) and as one JSON object ([`ValidateReport::json`]).

use super::text::{table, Align};
use crate::dice::Dice;
use crate::rate::{Class, Rated, Thresholds};
use crate::replay::{Replayed, Violation};
use crate::rules::{Choice, Sheet};
use dicelens_parsers::{GameRecord, ParseError, Termination};
use serde::Serialize;
use std::fmt::Write;

/// A violation in the report.
#[derive(Clone, Debug, Serialize)]
pub struct ViolationRow {
    /// The rule broken (its short name).
    pub rule: &'static str,
    /// Line of the log.
    pub line: u32,
    /// Round, when known.
    pub round: Option<u16>,
    /// Player, when known.
    pub player: Option<String>,
    /// What the log says.
    pub says: String,
    /// What the rules give.
    pub rules_give: String,
    /// The whole message.
    pub message: String,
}

/// A syntax error in the report.
#[derive(Clone, Debug, Serialize)]
pub struct SyntaxRow {
    /// The file.
    pub file: String,
    /// Line of the error.
    pub line: u32,
    /// Column of the error.
    pub column: u32,
    /// The game's id, when read before the error.
    pub game_id: Option<String>,
    /// What the parser expected.
    pub expected: String,
    /// What it found.
    pub found: String,
    /// The whole message.
    pub message: String,
}

/// One rated decision of the report.
#[derive(Clone, Debug, Serialize)]
pub struct DecisionRow {
    /// Round (1-based).
    pub round: u16,
    /// The player's name (`seat N` when the game does not name the seat).
    pub player: String,
    /// Seat (0-based).
    pub seat: u8,
    /// Which roll of the turn (1 to 3).
    pub roll_number: u8,
    /// Rolls left after it.
    pub rolls_left: u8,
    /// The sheet in Verhoeff's notation (filled box codes for Yatzy).
    pub state: String,
    /// Upper total before the turn.
    pub upper: u32,
    /// Points before the turn.
    pub points: u32,
    /// The dice.
    pub dice: String,
    /// The choice made.
    pub choice: String,
    /// Its value.
    pub value: f64,
    /// The best option.
    pub best: String,
    /// Its value.
    pub best_value: f64,
    /// `best_value - value`.
    pub loss: f64,
    /// Luck of the roll.
    pub luck: f64,
    /// Whether the decision had one option only.
    pub forced: bool,
    /// Severity class.
    pub class: &'static str,
    /// The class's marker.
    pub marker: &'static str,
    /// The choice as the text table shows it (`score LS=40` with the box's points).
    #[serde(skip)]
    pub choice_text: String,
    /// The best option as the text table shows it, when the choice is not one of the best.
    #[serde(skip)]
    pub best_text: Option<String>,
}

/// Counts of decisions per class.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct ClassCounts {
    /// Fine decisions.
    pub fine: u64,
    /// Doubtful ones.
    pub doubtful: u64,
    /// Errors.
    pub error: u64,
    /// Blunders.
    pub blunder: u64,
}

impl ClassCounts {
    /// Counts one decision of `class`.
    pub fn add(&mut self, class: Class) {
        match class {
            Class::Fine => self.fine += 1,
            Class::Doubtful => self.doubtful += 1,
            Class::Error => self.error += 1,
            Class::Blunder => self.blunder += 1,
        }
    }
}

/// One player's totals over the rated decisions.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerTotals {
    /// The player's name.
    pub player: String,
    /// Seat (0-based).
    pub seat: usize,
    /// Decisions rated.
    pub decisions: u64,
    /// Of which forced.
    pub forced: u64,
    /// Sum of the losses.
    pub total_error: f64,
    /// Mean loss, when a decision was rated.
    pub error_per_decision: Option<f64>,
    /// Decisions per class.
    pub classes: ClassCounts,
    /// Sum of the luck.
    pub luck: f64,
    /// Points on the sheet: the final total, or where the replay stopped.
    pub points: Option<u32>,
    /// The game's `Result` for this player, when the log gives one.
    pub result: Option<u32>,
}

/// Severity thresholds of the report.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ThresholdsRow {
    /// Least loss of a doubtful decision.
    pub doubtful: f64,
    /// Least loss of an error.
    pub error: f64,
    /// Least loss of a blunder.
    pub blunder: f64,
}

impl From<Thresholds> for ThresholdsRow {
    fn from(t: Thresholds) -> ThresholdsRow {
        ThresholdsRow {
            doubtful: t.doubtful,
            error: t.error,
            blunder: t.blunder,
        }
    }
}

/// Everything `validate` reports about one game, in the order it is printed.
#[derive(Clone, Debug, Serialize)]
pub struct ValidateReport {
    /// The log file.
    pub file: String,
    /// Its format.
    pub format: String,
    /// The game's id.
    pub game: String,
    /// `legal` or `illegal`.
    pub verdict: &'static str,
    /// The first rule the game breaks.
    pub violation: Option<ViolationRow>,
    /// The syntax error that stops the game from parsing.
    pub syntax_error: Option<SyntaxRow>,
    /// The rule set's name, when known.
    pub rules: Option<String>,
    /// The players, in seat order.
    pub players: Vec<String>,
    /// How the game ended.
    pub termination: Option<&'static str>,
    /// Turns in the log.
    pub turns: usize,
    /// Whether every box of every player is filled.
    pub complete: bool,
    /// Whether `points` are final totals.
    pub points_final: bool,
    /// The oracle that rated the decisions.
    pub oracle: Option<String>,
    /// Unit of values and errors: `points`, or `match points` for games of several players
    /// rated in match points.
    pub unit: &'static str,
    /// Severity thresholds, in the unit.
    pub thresholds: ThresholdsRow,
    /// Decisions the replay produced (for an illegal game, those before the violation).
    pub decisions_replayed: usize,
    /// Why some or all of them are not rated, if so.
    pub not_rated: Option<String>,
    /// The rated decisions.
    pub decisions: Vec<DecisionRow>,
    /// Per-player totals, in seat order.
    pub totals: Vec<PlayerTotals>,
    /// The game's `Result` line.
    pub result: Option<Vec<u32>>,
    /// The verdict line's text about a violation (`{violation}`).
    #[serde(skip)]
    violation_text: Option<String>,
    /// How many turns a complete game has, when the rule set is known.
    #[serde(skip)]
    planned_turns: Option<usize>,
}

/// The id of a game that did not parse: its own when known, else `FILE:LINE`.
pub fn error_game_id(e: &ParseError) -> String {
    e.game_id
        .clone()
        .unwrap_or_else(|| format!("{}:{}", e.file, e.game_line))
}

/// A player's name, or `seat N` if the game does not name the seat.
fn player_name(game: &GameRecord, seat: usize) -> String {
    game.players
        .get(seat)
        .cloned()
        .unwrap_or_else(|| format!("seat {}", seat + 1))
}

/// A choice as printed: `keep 234`, `keep -`, or `score LS=40` with the points the box gets.
fn choice_text(sheet: &Sheet, dice: &Dice, choice: Choice) -> String {
    if let Choice::Score(category) = choice {
        let scored = sheet
            .rules
            .box_of(category)
            .and_then(|b| sheet.score(dice, b));
        if let Some(s) = scored {
            return format!("score {category}={}", s.points);
        }
    }
    choice.to_string()
}

/// The report's row of one rated decision of `game`.
pub fn decision_row(game: &GameRecord, r: &Rated) -> DecisionRow {
    let d = &r.decision;
    // The best option only when the choice is not one of the best (ties are fine).
    let different = r.best_choice != d.choice && r.error > 1e-9;
    DecisionRow {
        round: d.round,
        player: player_name(game, usize::from(d.seat)),
        seat: d.seat,
        roll_number: d.roll_number,
        rolls_left: d.rolls_left(),
        state: super::rows::sheet_state(&d.sheet),
        upper: d.sheet.upper_total,
        points: d.sheet.points,
        dice: d.dice.to_string(),
        choice: d.choice.to_string(),
        value: r.chosen,
        best: r.best_choice.to_string(),
        best_value: r.best,
        loss: r.error,
        luck: r.luck,
        forced: r.forced,
        class: r.class.name(),
        marker: r.class.marker(),
        choice_text: choice_text(&d.sheet, &d.dice, d.choice),
        best_text: different.then(|| choice_text(&d.sheet, &d.dice, r.best_choice)),
    }
}

/// Per-player totals, in seat order, summed in decision order.
fn totals(game: &GameRecord, replayed: &Replayed, rated: &[Rated]) -> Vec<PlayerTotals> {
    let seats = replayed.seats;
    // The sheets where the replay stopped: the final ones, or those before the turn that
    // broke a rule.
    let last_sheets = replayed
        .sheets
        .len()
        .checked_sub(seats)
        .filter(|_| seats > 0)
        .and_then(|start| replayed.sheets.get(start..));
    let mut out: Vec<PlayerTotals> = (0..seats)
        .map(|seat| PlayerTotals {
            player: player_name(game, seat),
            seat,
            decisions: 0,
            forced: 0,
            total_error: 0.0,
            error_per_decision: None,
            classes: ClassCounts::default(),
            luck: 0.0,
            points: last_sheets.and_then(|s| s.get(seat)).map(|s| s.points),
            result: game.result.as_ref().and_then(|r| r.get(seat).copied()),
        })
        .collect();
    for r in rated {
        if let Some(t) = out.get_mut(usize::from(r.decision.seat)) {
            t.decisions += 1;
            t.forced += u64::from(r.forced);
            t.total_error += r.error;
            t.luck += r.luck;
            t.classes.add(r.class);
        }
    }
    for t in &mut out {
        if t.decisions > 0 {
            t.error_per_decision = Some(t.total_error / t.decisions as f64);
        }
    }
    out
}

/// How a replayed game was rated: by which oracle, in which unit and with which thresholds,
/// and why some decisions were not.
#[derive(Clone, Debug)]
pub struct Rating {
    /// The oracle's description, if one rated the game.
    pub oracle: Option<String>,
    /// Whether values are in match points (else points).
    pub match_points: bool,
    /// The severity thresholds used.
    pub thresholds: Thresholds,
    /// Why some or all decisions are not rated, if so.
    pub not_rated: Option<String>,
}

impl ValidateReport {
    /// The report on a game that does not parse.
    pub fn syntax_error(file: &str, format: &str, e: &ParseError) -> ValidateReport {
        ValidateReport {
            game: error_game_id(e),
            verdict: "illegal",
            not_rated: Some("the game does not parse".into()),
            syntax_error: Some(SyntaxRow {
                file: e.file.clone(),
                line: e.line,
                column: e.column,
                game_id: e.game_id.clone(),
                expected: e.expected.clone(),
                found: e.found.clone(),
                message: e.to_string(),
            }),
            ..ValidateReport::empty(file, format)
        }
    }

    /// The report on a game that parses: its replay (up to `violation` if it breaks a rule),
    /// how it was rated and its rated decisions.
    pub fn game(
        file: &str,
        format: &str,
        game: &GameRecord,
        replayed: &Replayed,
        violation: Option<&Violation>,
        rating: Rating,
        rated: &[Rated],
    ) -> ValidateReport {
        ValidateReport {
            game: game.provenance.game_id.clone(),
            verdict: if violation.is_some() {
                "illegal"
            } else {
                "legal"
            },
            violation: violation.map(|v| ViolationRow {
                rule: v.rule.name(),
                line: v.line,
                round: v.round,
                player: v.player.clone(),
                says: v.says.clone(),
                rules_give: v.rules_give.clone(),
                message: v.to_string(),
            }),
            rules: replayed.rules.map(|r| r.name().to_string()),
            players: game.players.clone(),
            termination: Some(game.termination.as_str()),
            turns: game.turns.len(),
            complete: replayed.complete,
            points_final: violation.is_none(),
            oracle: rating.oracle,
            unit: if rating.match_points {
                "match points"
            } else {
                "points"
            },
            thresholds: rating.thresholds.into(),
            decisions_replayed: replayed.decisions.len(),
            not_rated: rating.not_rated,
            decisions: rated.iter().map(|r| decision_row(game, r)).collect(),
            totals: totals(game, replayed, rated),
            result: game.result.clone(),
            violation_text: violation.map(ToString::to_string),
            planned_turns: replayed
                .rules
                .map(|r| r.box_count() * replayed.seats.max(1)),
            ..ValidateReport::empty(file, format)
        }
    }

    /// A report with nothing known about the game yet.
    fn empty(file: &str, format: &str) -> ValidateReport {
        ValidateReport {
            file: file.to_string(),
            format: format.to_string(),
            game: String::new(),
            verdict: "legal",
            violation: None,
            syntax_error: None,
            rules: None,
            players: Vec::new(),
            termination: None,
            turns: 0,
            complete: false,
            points_final: false,
            oracle: None,
            unit: "points",
            thresholds: Thresholds::default().into(),
            decisions_replayed: 0,
            not_rated: None,
            decisions: Vec::new(),
            totals: Vec::new(),
            result: None,
            violation_text: None,
            planned_turns: None,
        }
    }

    /// Why the game is illegal, as the one-line message of a failed `validate`; `None` when it
    /// is legal.
    pub fn illegal(&self) -> Option<String> {
        if let Some(v) = &self.violation {
            return Some(format!(
                "game {} is illegal: {} (line {})",
                self.game, v.rule, v.line
            ));
        }
        self.syntax_error.as_ref().map(|e| {
            format!(
                "game {} is illegal: syntax error (line {}, column {})",
                self.game, e.line, e.column
            )
        })
    }

    /// The report as one pretty-printed JSON object, with a final newline.
    pub fn json(&self) -> Result<String, serde_json::Error> {
        Ok(serde_json::to_string_pretty(self)? + "\n")
    }

    /// The report for people: verdict, game, oracle; one line per rated roll; per-player
    /// totals.
    pub fn text(&self) -> String {
        let mut out = String::new();
        if let Some(e) = &self.syntax_error {
            let _ = writeln!(out, "verdict: ILLEGAL: syntax error: {}", e.message);
            let _ = writeln!(
                out,
                "game {}: {} ({}): not rated, the game does not parse",
                self.game, self.file, self.format
            );
            return out;
        }
        let termination = self.termination.unwrap_or(Termination::Normal.as_str());
        match &self.violation_text {
            Some(v) => {
                let _ = writeln!(out, "verdict: ILLEGAL: {v}");
            }
            None if !self.complete => {
                let _ = writeln!(
                    out,
                    "verdict: legal (unfinished: Termination {termination}, {} of {} turns played)",
                    self.turns,
                    self.planned_turns.map_or("?".into(), |p| p.to_string())
                );
            }
            None => out.push_str("verdict: legal\n"),
        }
        let _ = writeln!(
            out,
            "game {}: {} ({}), rules {}, players {}, {} turns{}",
            self.game,
            self.file,
            self.format,
            self.rules.as_deref().unwrap_or("unknown"),
            self.players.join(", "),
            self.turns,
            match (&self.violation_text, termination) {
                (Some(_), _) => String::new(),
                (None, t) if t == Termination::Normal.as_str() => ", complete".into(),
                (None, t) => format!(", ended early ({t})"),
            }
        );
        let t = &self.thresholds;
        if let Some(oracle) = &self.oracle {
            let _ = writeln!(
                out,
                "oracle: {oracle}; markers {} loss >= {}, {} >= {}, {} >= {}",
                Class::Doubtful.marker(),
                t.doubtful,
                Class::Error.marker(),
                t.error,
                Class::Blunder.marker(),
                t.blunder
            );
        }
        if self.violation_text.is_some() {
            let _ = match self.decisions_replayed {
                0 => writeln!(out, "decisions: none before the violation"),
                n => writeln!(
                    out,
                    "decisions: the {n} made before the violation are rated; points are where the replay stopped"
                ),
            };
        }
        if let Some(why) = &self.not_rated {
            let _ = writeln!(out, "not rated: {why}");
        }
        if self.decisions.is_empty() {
            return out;
        }
        out.push('\n');
        out.push_str(&self.decisions_table());
        out.push('\n');
        out.push_str(&self.totals_table());
        out
    }

    /// One line per rated roll.
    fn decisions_table(&self) -> String {
        let places = if self.unit == "points" { 4 } else { 6 };
        let rows: Vec<Vec<String>> = self
            .decisions
            .iter()
            .map(|d| {
                vec![
                    d.round.to_string(),
                    d.player.clone(),
                    d.state.clone(),
                    d.upper.to_string(),
                    d.points.to_string(),
                    format!("{};{}", d.dice, d.rolls_left),
                    d.choice_text.clone(),
                    format!("{:.places$}", d.value),
                    d.best_text.clone().unwrap_or_default(),
                    d.best_text
                        .as_ref()
                        .map(|_| format!("{:.places$}", d.best_value))
                        .unwrap_or_default(),
                    format!("{:.places$}", d.loss),
                    d.marker.to_string(),
                ]
            })
            .collect();
        use Align::{Left, Right};
        table(
            &[
                ("round", Right),
                ("player", Left),
                ("state", Left),
                ("upper", Right),
                ("points", Right),
                ("roll", Left),
                ("choice", Left),
                ("value", Right),
                ("best", Left),
                ("value", Right),
                ("loss", Right),
                ("", Left),
            ],
            &rows,
        )
    }

    /// One line per player.
    fn totals_table(&self) -> String {
        let rows: Vec<Vec<String>> = self
            .totals
            .iter()
            .map(|p| {
                vec![
                    p.player.clone(),
                    p.decisions.to_string(),
                    format!("{:.6}", p.total_error),
                    p.error_per_decision
                        .map_or("-".into(), |e| format!("{e:.6}")),
                    p.classes.fine.to_string(),
                    p.classes.doubtful.to_string(),
                    p.classes.error.to_string(),
                    p.classes.blunder.to_string(),
                    format!("{:.6}", p.luck),
                    p.points.map_or("-".into(), |x| x.to_string()),
                    p.result.map_or("-".into(), |x| x.to_string()),
                ]
            })
            .collect();
        use Align::{Left, Right};
        table(
            &[
                ("player", Left),
                ("decisions", Right),
                ("total error", Right),
                ("error/decision", Right),
                ("fine", Right),
                ("doubtful", Right),
                ("error", Right),
                ("blunder", Right),
                ("luck", Right),
                (
                    if self.points_final {
                        "points"
                    } else {
                        "points so far"
                    },
                    Right,
                ),
                ("Result", Right),
            ],
            &rows,
        )
    }
}

//! The report of `dicelens validate` on one game: the legality verdict, every decision rated
//! (one row per roll, in the manner of Verhoeff's analysis table) and per-player totals, as
//! text for people ([`ValidateReport::text`]) and as one JSON object ([`ValidateReport::json`]).

use super::text::{table, Align};
use crate::aggregate::ClassCounts;
use crate::evaluate::EVAL_EXACT_FREE;
use crate::rate::{Class, OracleSpec, Rated, Thresholds, Unit};
use crate::replay::{Replayed, Violation};
use crate::rows::{player_name, DecisionRow};
use crate::rules::jamb::JambSheet;
use crate::rules::{Choice, ExtraBonus, GameRules, PlayerSheet};
use crate::solve::match_points::Method;
use dicelens_parsers::LineNumber;
use dicelens_parsers::{GameRecord, ParseError, Termination};
use serde::ser::SerializeMap;
use serde::Serialize;
use std::borrow::Cow;
use std::fmt::Write;

/// A violation in the report.
#[derive(Clone, Debug, Serialize)]
pub struct ViolationRow {
    /// The rule broken (its short name).
    pub rule: &'static str,
    /// Line of the log.
    pub line: LineNumber,
    /// Round, when known.
    pub round: Option<u16>,
    /// Player, when known.
    pub player: Option<String>,
    /// What the log says.
    pub says: String,
    /// What the rules give.
    pub(crate) rules_give: String,
    /// The whole message.
    pub message: String,
}

/// A syntax error in the report.
#[derive(Clone, Debug, Serialize)]
pub struct SyntaxRow {
    /// The file.
    pub file: String,
    /// Line of the error.
    pub line: LineNumber,
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

/// A rated decision as the report's JSON writes it: a [`DecisionRow`] under the field names
/// `validate --json` has always used.
#[derive(Serialize)]
struct DecisionJson<'a> {
    round: u16,
    player: Cow<'a, str>,
    seat: u8,
    roll_number: u8,
    rolls_left: u8,
    state: String,
    upper: u32,
    points: i64,
    dice: String,
    choice: String,
    value: f64,
    best: String,
    best_value: f64,
    loss: f64,
    luck: f64,
    forced: bool,
    class: &'static str,
    marker: &'static str,
}

impl<'a> From<&'a DecisionRow<'a>> for DecisionJson<'a> {
    fn from(d: &'a DecisionRow<'a>) -> DecisionJson<'a> {
        DecisionJson {
            round: d.round,
            player: d.player_name(),
            seat: d.seat,
            roll_number: d.roll,
            rolls_left: d.rolls_left,
            state: d.state(),
            upper: d.upper_total(),
            points: d.points(),
            dice: d.dice.to_string(),
            choice: d.chosen_name(),
            value: d.value,
            best: d.best_name(),
            best_value: d.best_value,
            loss: d.loss,
            luck: d.luck,
            forced: d.forced,
            class: d.class.name(),
            marker: d.class.marker(),
        }
    }
}

/// The report's decisions as a JSON array of [`DecisionJson`].
fn decisions_json<S: serde::Serializer>(
    rows: &[DecisionRow<'static>],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_seq(rows.iter().map(DecisionJson::from))
}

/// Decisions per class as an object `{fine, doubtful, error, blunder}`.
fn classes_json<S: serde::Serializer>(counts: &ClassCounts, s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(ClassCounts::CLASSES.len()))?;
    for (class, count) in counts.iter() {
        map.serialize_entry(class.name(), &count)?;
    }
    map.end()
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
    pub(crate) error_per_decision: Option<f64>,
    /// Decisions per class (an object `{fine, doubtful, error, blunder}` in JSON).
    #[serde(serialize_with = "classes_json")]
    pub classes: ClassCounts,
    /// Sum of the luck.
    pub luck: f64,
    /// Points on the sheet: the final total, or where the replay stopped.
    pub points: Option<i64>,
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
    pub(crate) points_final: bool,
    /// The oracle that rated the decisions.
    pub oracle: Option<String>,
    /// Unit of values and errors: `points`, or `match points` for games of several players
    /// rated in match points.
    pub unit: &'static str,
    /// Severity thresholds, in the unit.
    pub thresholds: ThresholdsRow,
    /// Decisions the replay produced (for an illegal game, those before the violation).
    pub(crate) decisions_replayed: usize,
    /// Why some or all of them are not rated, if so.
    pub(crate) not_rated: Option<String>,
    /// The rated decisions.
    #[serde(serialize_with = "decisions_json")]
    pub decisions: Vec<DecisionRow<'static>>,
    /// Per-player totals, in seat order.
    pub totals: Vec<PlayerTotals>,
    /// The game's `Result` line.
    pub result: Option<Vec<u32>>,
    /// Every player's scorecard where the replay stopped, in seat order.
    pub scorecards: Vec<Scorecard>,
    /// The `dicelens eval` line of each rated decision, in the order of `decisions`.
    pub eval_lines: Vec<EvalLine>,
    /// The verdict line's text about a violation (`{violation}`).
    #[serde(skip)]
    violation_text: Option<String>,
    /// How many turns a complete game has, when the rule set is known.
    #[serde(skip)]
    planned_turns: Option<usize>,
    /// Every player's Jamb slip where the replay stopped, in seat order (empty for a game of
    /// another family; the game page draws them).
    #[serde(skip)]
    pub(crate) jamb_slips: Vec<JambSheet>,
    /// The boxes announced in the game, in turn order (only in games with an Announce column;
    /// left out of the JSON when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub announcements: Vec<Announcement>,
}

/// The id of a game that did not parse: its own when known, else `FILE:LINE`.
pub(crate) fn error_game_id(e: &ParseError) -> String {
    e.game_id
        .clone()
        .unwrap_or_else(|| format!("{}:{}", e.file, e.game_line))
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
            player: player_name(game, seat).into_owned(),
            seat,
            decisions: 0,
            forced: 0,
            total_error: 0.0,
            error_per_decision: None,
            classes: ClassCounts::default(),
            luck: 0.0,
            points: last_sheets
                .and_then(|s| s.get(seat))
                .map(PlayerSheet::points),
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

/// One box of a player's scorecard.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreBox {
    /// The box's YGN code (`1`, `3K`, `FH`, ...).
    pub code: &'static str,
    /// Points written in it (bonuses apart), once filled.
    pub points: Option<u32>,
    /// Round it was filled in.
    pub round: Option<u16>,
    /// Index in the report's decisions of the decision that filled it, when rated.
    pub decision: Option<usize>,
    /// That decision's class, when rated.
    #[serde(serialize_with = "class_name")]
    pub class: Option<Class>,
}

/// A class as its name (`null` when none).
fn class_name<S: serde::Serializer>(class: &Option<Class>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_some(&class.map(Class::name))
}

/// A player's scorecard as a site draws it: every box in sheet order with what it holds, the
/// upper total and bonus, the extra-Yahtzee bonuses and the grand total (where the replay
/// stopped, for a game that breaks a rule).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scorecard {
    /// The player's name.
    pub player: String,
    /// Seat (0-based).
    pub seat: usize,
    /// The boxes, in sheet order.
    pub boxes: Vec<ScoreBox>,
    /// Points in the upper boxes.
    pub upper_total: u32,
    /// The upper bonus earned (0 until the upper total reaches 63).
    pub upper_bonus: u32,
    /// Extra-Yahtzee bonuses earned, where the rule set has them.
    pub(crate) extra_bonus: Option<u32>,
    /// Points on the sheet, bonuses included.
    pub total: u32,
}

/// The `dicelens eval` command that values a decision's position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EvalLine {
    /// The command line.
    pub command: String,
    /// Whether eval values the position as the oracle that rated the game did (false where
    /// eval's search values positions exactly and that oracle did not, late in two-player
    /// games: there the values may differ slightly).
    pub same_values: bool,
}

/// A box announced right after the first roll of a turn (Jamb's Announce column), which the
/// turn must then fill.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Announcement {
    /// The announcer's seat (0-based).
    pub seat: usize,
    /// The round of the turn.
    pub round: u16,
    /// The cell announced, as logs write it (`A:P`).
    pub cell: String,
}

/// The boxes the game's turns announced after their first roll, in turn order.
fn announcements(game: &GameRecord) -> Vec<Announcement> {
    game.turns
        .iter()
        .filter_map(|turn| {
            turn.announced.as_ref().map(|cell| Announcement {
                seat: usize::from(turn.seat),
                round: turn.round,
                cell: cell.as_str().to_string(),
            })
        })
        .collect()
}

/// Every player's Jamb slip where the replay stopped, in seat order; empty for a game of
/// another family.
fn jamb_slips(replayed: &Replayed) -> Vec<JambSheet> {
    if replayed.sheets.len() < replayed.seats {
        return Vec::new();
    }
    replayed
        .finals()
        .iter()
        .map_while(|sheet| match sheet {
            PlayerSheet::Jamb(slip) => Some(*slip),
            PlayerSheet::Yahtzee(_) => None,
        })
        .collect()
}

/// Every player's scorecard where the replay stopped, in seat order. `rated` are the rated
/// decisions (their indices are the report's decision indices).
fn scorecards(game: &GameRecord, replayed: &Replayed, rated: &[Rated]) -> Vec<Scorecard> {
    // Jamb slips are shown by the per-roll table and the totals, not as one column of boxes.
    let Some(rules) = replayed.rules.and_then(GameRules::yahtzee) else {
        return Vec::new();
    };
    let seats = replayed.seats;
    let mut cards: Vec<Scorecard> = (0..seats)
        .map(|seat| Scorecard {
            player: player_name(game, seat).into_owned(),
            seat,
            boxes: rules
                .boxes()
                .iter()
                .map(|c| ScoreBox {
                    code: c.code(),
                    points: None,
                    round: None,
                    decision: None,
                    class: None,
                })
                .collect(),
            upper_total: 0,
            upper_bonus: 0,
            extra_bonus: (rules.extra_bonus() != ExtraBonus::Never).then_some(0),
            total: 0,
        })
        .collect();
    // A turn counts once the sheets after it are known (a turn that breaks a rule does not).
    let turns_done = (replayed.sheets.len() / seats.max(1)).saturating_sub(1);
    for (t, turn) in game.turns.iter().enumerate().take(turns_done) {
        let seat = usize::from(turn.seat);
        let (Some(before), Some(after), Some(&points), Some((b, _))) = (
            replayed
                .sheets
                .get(t * seats + seat)
                .and_then(PlayerSheet::yahtzee),
            replayed
                .sheets
                .get((t + 1) * seats + seat)
                .and_then(PlayerSheet::yahtzee),
            replayed.box_points.get(t),
            rules.parse_box(turn.category.as_str()),
        ) else {
            continue;
        };
        let Some(card) = cards.get_mut(seat) else {
            continue;
        };
        let decision = rated.iter().position(|r| {
            usize::from(r.decision.turn) == t && matches!(r.decision.choice, Choice::Score(_))
        });
        if let Some(cell) = card.boxes.get_mut(b) {
            cell.points = Some(points);
            cell.round = Some(turn.round);
            cell.decision = decision;
            cell.class = decision.and_then(|i| rated.get(i)).map(|r| r.class);
        }
        // The upper bonus this turn earned (the upper total only grows, in the upper boxes).
        let upper_bonus = after
            .upper_bonus_earned()
            .saturating_sub(before.upper_bonus_earned());
        let extra = after
            .points
            .saturating_sub(before.points + points + upper_bonus);
        if let Some(e) = card.extra_bonus.as_mut() {
            *e += extra;
        }
    }
    let last = replayed
        .sheets
        .len()
        .checked_sub(seats)
        .and_then(|start| replayed.sheets.get(start..));
    let last = last
        .unwrap_or_default()
        .iter()
        .filter_map(PlayerSheet::yahtzee);
    for (card, sheet) in cards.iter_mut().zip(last) {
        card.upper_total = sheet.upper_total;
        card.upper_bonus = sheet.upper_bonus_earned();
        card.total = sheet.points;
    }
    cards
}

/// The `dicelens eval` line of every rated decision, in order. Positions of games rated in
/// match points name the opponents' sheets before the turn and the method: `exact` where the
/// oracle valued the turn exactly, else its search.
fn eval_lines(replayed: &Replayed, rating: &Rating, rated: &[Rated]) -> Vec<EvalLine> {
    let seats = replayed.seats.max(1);
    rated
        .iter()
        .map(|r| {
            let d = &r.decision;
            let mut opponents: Vec<PlayerSheet> = Vec::new();
            if r.unit == Unit::MatchPoints {
                let t = usize::from(d.turn);
                if let Some(sheets) = replayed.sheets.get(t * seats..(t + 1) * seats) {
                    let s = usize::from(d.seat);
                    opponents.extend((1..seats).map(|k| sheets[(s + k) % seats]));
                }
            }
            let free: u32 = std::iter::once(&d.sheet)
                .chain(&opponents)
                .map(PlayerSheet::free_count)
                .sum();
            let spec = rating.spec;
            let (method, same_values) = match opponents.as_slice() {
                [] => (None, true),
                [_] if free <= spec.exact_free => (Some(Method::Exact), true),
                [_] => {
                    let depth = match spec.method {
                        Method::Emp(depth) | Method::DynW(depth) => u32::from(depth),
                        Method::Exact | Method::Solitaire => 0,
                    };
                    (Some(spec.method), free > EVAL_EXACT_FREE + depth)
                }
                _ => (Some(spec.method), true),
            };
            EvalLine {
                command: super::eval::command_line(
                    &d.sheet,
                    &d.dice,
                    d.rolls_left(),
                    &opponents,
                    method,
                ),
                same_values,
            }
        })
        .collect()
}

/// How a replayed game was rated: by which oracle, in which unit and with which thresholds,
/// and why some decisions were not.
#[derive(Clone, Debug)]
pub struct Rating {
    /// How the game was rated (what the `dicelens eval` lines of the game page reproduce).
    pub spec: OracleSpec,
    /// The oracle's description, if one rated the game.
    pub oracle: Option<String>,
    /// The unit of values and errors.
    pub unit: Unit,
    /// The severity thresholds used.
    pub thresholds: Thresholds,
    /// Why some or all decisions are not rated, if so.
    pub(crate) not_rated: Option<String>,
}

impl Rating {
    /// The rating of a game of `seats` players by `spec`, before an oracle is at hand: its
    /// unit, the default thresholds of that unit, no oracle yet and nothing left unrated.
    pub fn new(spec: OracleSpec, seats: usize) -> Rating {
        let unit = spec.unit(seats);
        Rating {
            spec,
            oracle: None,
            unit,
            thresholds: Thresholds::for_unit(unit),
            not_rated: None,
        }
    }
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
        let eval_lines = eval_lines(replayed, &rating, rated);
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
            unit: rating.unit.short(),
            thresholds: rating.thresholds.into(),
            decisions_replayed: replayed.decisions.len(),
            not_rated: rating.not_rated,
            decisions: DecisionRow::of_game(game, rated)
                .map(DecisionRow::into_owned)
                .collect(),
            totals: totals(game, replayed, rated),
            result: game.result.clone(),
            scorecards: scorecards(game, replayed, rated),
            eval_lines,
            violation_text: violation.map(ToString::to_string),
            planned_turns: replayed.rules.map(|r| r.rounds() * replayed.seats.max(1)),
            jamb_slips: jamb_slips(replayed),
            announcements: announcements(game),
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
            scorecards: Vec::new(),
            eval_lines: Vec::new(),
            violation_text: None,
            planned_turns: None,
            jamb_slips: Vec::new(),
            announcements: Vec::new(),
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

    /// The verdict as the report's first line gives it (after `verdict: `): `legal`, `legal
    /// (unfinished: ...)`, or `ILLEGAL: ` and the rule broken or the syntax error.
    pub(crate) fn verdict_text(&self) -> String {
        if let Some(e) = &self.syntax_error {
            return format!("ILLEGAL: syntax error: {}", e.message);
        }
        match &self.violation_text {
            Some(v) => format!("ILLEGAL: {v}"),
            None if !self.complete => format!(
                "legal (unfinished: Termination {}, {} of {} turns played)",
                self.termination.unwrap_or(Termination::Normal.as_str()),
                self.turns,
                self.planned_turns.map_or("?".into(), |p| p.to_string())
            ),
            None => "legal".into(),
        }
    }

    /// The report for people: verdict, game, oracle; one line per rated roll; per-player
    /// totals.
    pub fn text(&self) -> String {
        let mut out = format!("verdict: {}\n", self.verdict_text());
        if self.syntax_error.is_some() {
            let _ = writeln!(
                out,
                "game {}: {} ({}): not rated, the game does not parse",
                self.game, self.file, self.format
            );
            return out;
        }
        let termination = self.termination.unwrap_or(Termination::Normal.as_str());
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
        if !self.decisions.is_empty() {
            out.push_str(&self.legend());
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

    /// What the columns of the decisions table hold: the sheet's notation, the roll, and what
    /// the values are in.
    fn legend(&self) -> String {
        let verhoeff = self
            .decisions
            .first()
            .and_then(|d| d.sheet.yahtzee())
            .is_some_and(|sheet| sheet.verhoeff_state().is_some());
        let state = if verhoeff {
            "state: the mover's sheet before the turn in Verhoeff's notation: the boxes \
             123456TFHSLYC (1-6 the upper boxes, T three of a kind, F four of a kind, H full \
             house, S small straight, L large straight, Y Yahtzee, C chance), _ where filled; \
             after ';' the upper points still needed for the bonus, then + if the Yahtzee box \
             holds 50, - if not"
        } else {
            "state: the boxes filled on the mover's sheet before the turn (YGN codes)"
        };
        let rules = self
            .rules
            .as_deref()
            .and_then(|r| r.parse::<GameRules>().ok());
        let jamb = rules.and_then(GameRules::jamb).is_some();
        let state = if jamb {
            "state: the number of filled boxes of each column of the mover's slip before the \
             turn, after the column's letter (D down, U up, F free, H hand, O toward the middle, \
             I from the middle); choices name cells as column:box"
        } else {
            state
        };
        let values = if self.unit == Unit::MatchPoints.short() {
            "values: expected match points, the mover's expected share of the match (1 for a \
             win, 1/2 for a draw, 0 for a loss): a loss of 0.01 is one percent of winning \
             chances"
        } else if jamb {
            "values: the heuristic Jamb oracle's estimate of the mover's final points (not an \
             exact value: see the oracle line)"
        } else {
            "values: expected final points of the mover's sheet with best play from here on"
        };
        format!(
            "{state}\nupper, points: upper-section total and points before the turn; roll: the \
             dice;rolls left after them\n{values}\n"
        )
    }

    /// One line per rated roll.
    fn decisions_table(&self) -> String {
        let places = if self.unit == "points" { 4 } else { 6 };
        let rows: Vec<Vec<String>> = self
            .decisions
            .iter()
            .map(|d| {
                let best = d.best_text();
                vec![
                    d.round.to_string(),
                    d.player_name().into_owned(),
                    d.state(),
                    d.upper_total().to_string(),
                    d.points().to_string(),
                    format!("{};{}", d.dice, d.rolls_left),
                    d.choice_text(),
                    format!("{:.places$}", d.value),
                    best.clone().unwrap_or_default(),
                    best.as_ref()
                        .map(|_| format!("{:.places$}", d.best_value))
                        .unwrap_or_default(),
                    format!("{:.places$}", d.loss),
                    d.class.marker().to_string(),
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
                    p.classes[Class::Fine].to_string(),
                    p.classes[Class::Doubtful].to_string(),
                    p.classes[Class::Error].to_string(),
                    p.classes[Class::Blunder].to_string(),
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

//! Replay: a game record becomes a stream of decisions, while every rule of docs/formats/ygn.md's
//! "Validity" section is checked. An invalid game is reported with the first rule it breaks,
//! where, and what the log says against what the rules give.

use crate::dice::Dice;
use crate::rules::{Choice, RuleSet, Sheet};
use dicelens_parsers::{GameRecord, Termination, TurnRecord};
use std::fmt;

/// One decision: what a player did after one roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// Seat of the player (0-based).
    pub seat: u8,
    /// Round (1-based).
    pub round: u16,
    /// Index of the turn in the game's turns.
    pub turn: u16,
    /// Which roll of the turn this decision follows (1 to 3).
    pub roll_number: u8,
    /// The player's sheet before the turn.
    pub sheet: Sheet,
    /// The dice on the table.
    pub dice: Dice,
    /// What the player did: keep dice and roll again, or score a box.
    pub choice: Choice,
}

impl Decision {
    /// Rolls left after the roll this decision follows.
    pub fn rolls_left(&self) -> u8 {
        3 - self.roll_number
    }
}

/// The replay of one game: its decisions and every player's sheet before each turn.
#[derive(Clone, Debug, Default)]
pub struct Replayed {
    /// The rule set the game was played under.
    pub rules: Option<RuleSet>,
    /// Number of players.
    pub seats: usize,
    /// Every decision in order.
    pub decisions: Vec<Decision>,
    /// Every player's sheet before each turn, turn-major: `sheets[turn * seats + seat]`, then
    /// the final sheets after the last turn.
    pub sheets: Vec<Sheet>,
    /// Points written in the box of each turn (bonuses excluded), in turn order.
    pub box_points: Vec<u32>,
    /// True when every box of every player is filled.
    pub complete: bool,
}

impl Replayed {
    /// Every player's sheet before turn `turn` (`turn == turns` gives the final sheets).
    pub fn sheets_at(&self, turn: usize) -> &[Sheet] {
        &self.sheets[turn * self.seats..(turn + 1) * self.seats]
    }

    /// The final sheets, in seat order.
    pub fn finals(&self) -> &[Sheet] {
        &self.sheets[self.sheets.len() - self.seats..]
    }

    /// Fills each turn of `game` (the record this replay was made from) with what the replay
    /// knows: the mover's points before the turn (`total_before`) and the points written in
    /// the box (`points`), as Verhoeff's form needs them. Turns the replay did not reach are
    /// left as they are.
    pub fn annotate(&self, game: &mut GameRecord) {
        let seats = self.seats;
        for (turn, record) in game.turns.iter_mut().enumerate() {
            let before = self
                .sheets
                .get(turn * seats + usize::from(record.seat))
                .filter(|_| usize::from(record.seat) < seats);
            let (Some(sheet), Some(&points)) = (before, self.box_points.get(turn)) else {
                break;
            };
            record.total_before = Some(sheet.points);
            record.points = Some(points as u16);
        }
    }
}

/// The validity rules a game can break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Broken {
    /// The `Rules` tag names no known rule set.
    UnknownRules,
    /// No players, or too many for a sheet state.
    BadPlayers,
    /// A box code the rule set does not have.
    UnknownBox,
    /// A roll that is not five dice 1-6.
    BadDice,
    /// A keep holds dice the roll before it does not show.
    KeepNotInRoll,
    /// A roll does not show the dice kept before it.
    RollWithoutKeep,
    /// The box was filled in an earlier turn.
    BoxAlreadyFilled,
    /// The joker rule sends this roll to another box.
    BoxNotAllowed,
    /// The points written differ from what the rules give.
    WrongPoints,
    /// The total before the turn differs from the sheet's.
    WrongTotal,
    /// A turn by a player whose turn it is not.
    OutOfTurn,
    /// A round number out of order.
    RoundOutOfOrder,
    /// More turns than the sheets have boxes.
    TooManyTurns,
    /// A game marked normal with boxes left empty.
    MissingTurns,
    /// The `Result` tag differs from the computed totals.
    WrongResult,
}

impl Broken {
    /// Short name, used as the skip reason in summaries.
    pub fn name(self) -> &'static str {
        match self {
            Broken::UnknownRules => "unknown rule set",
            Broken::BadPlayers => "bad player list",
            Broken::UnknownBox => "unknown box",
            Broken::BadDice => "bad dice",
            Broken::KeepNotInRoll => "keep not in roll",
            Broken::RollWithoutKeep => "roll without the kept dice",
            Broken::BoxAlreadyFilled => "box filled twice",
            Broken::BoxNotAllowed => "box not allowed (joker rule)",
            Broken::WrongPoints => "wrong points",
            Broken::WrongTotal => "wrong total",
            Broken::OutOfTurn => "player out of turn",
            Broken::RoundOutOfOrder => "round out of order",
            Broken::TooManyTurns => "too many turns",
            Broken::MissingTurns => "missing turns",
            Broken::WrongResult => "wrong Result",
        }
    }
}

/// The first rule a game breaks: which, where, and the log against the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The rule broken.
    pub rule: Broken,
    /// Line in the log (the turn's line, or the game's first line).
    pub line: u32,
    /// Round, when the violation is in a turn.
    pub round: Option<u16>,
    /// Player, when the violation is in a turn.
    pub player: Option<String>,
    /// What the log says.
    pub says: String,
    /// What the rules give.
    pub rules_give: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}", self.line)?;
        if let Some(round) = self.round {
            write!(f, ", round {round}")?;
        }
        if let Some(player) = &self.player {
            write!(f, ", {player}")?;
        }
        write!(
            f,
            ": {}: the log says {}, the rules give {}",
            self.rule.name(),
            self.says,
            self.rules_give
        )
    }
}

/// Why a game is not rated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// It breaks a rule.
    Invalid(Violation),
    /// It did not finish (abandoned, timeout, resigned) and unfinished games are not wanted.
    Unfinished(Termination),
}

impl Skip {
    /// The reason as a short name, for summaries.
    pub fn reason(&self) -> String {
        match self {
            Skip::Invalid(v) => v.rule.name().to_string(),
            Skip::Unfinished(t) => format!("unfinished ({})", t.as_str()),
        }
    }
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::Invalid(v) => v.fmt(f),
            Skip::Unfinished(t) => write!(f, "unfinished game ({})", t.as_str()),
        }
    }
}

/// How to replay.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplayOptions {
    /// Replay games that ended early (abandoned, timeout, resigned) instead of skipping them.
    pub include_unfinished: bool,
}

/// Faces as digits, in the order given.
fn digits(faces: &[u8]) -> String {
    if faces.is_empty() {
        return "-".into();
    }
    faces.iter().map(|f| char::from(b'0' + f)).collect()
}

/// Replays `game` into `out` (reusing its buffers). On success `out` holds every decision and
/// sheet; otherwise the first reason the game cannot be rated.
pub fn replay(game: &GameRecord, options: ReplayOptions, out: &mut Replayed) -> Result<(), Skip> {
    out.decisions.clear();
    out.sheets.clear();
    out.box_points.clear();
    out.complete = false;
    let at_game = |rule, says: String, rules_give: String| {
        Skip::Invalid(Violation {
            rule,
            line: game.provenance.line,
            round: None,
            player: None,
            says,
            rules_give,
        })
    };
    let rules: RuleSet = game.rules.parse().map_err(|_| {
        at_game(
            Broken::UnknownRules,
            format!("Rules \"{}\"", game.rules),
            "one of yahtzee, yahtzee-free, yahtzee-kurnik, yatzy".into(),
        )
    })?;
    out.rules = Some(rules);
    let seats = game.players.len();
    if seats == 0 || seats > usize::from(u8::MAX) {
        return Err(at_game(
            Broken::BadPlayers,
            format!("{seats} players"),
            "1 to 255 players".into(),
        ));
    }
    out.seats = seats;
    let boxes = rules.box_count();
    let mut sheets = vec![Sheet::empty(rules); seats];
    for (index, turn) in game.turns.iter().enumerate() {
        out.sheets.extend_from_slice(&sheets);
        let seat = usize::from(turn.seat);
        let player = game.players.get(seat).cloned();
        let violation = |rule, says: String, rules_give: String| {
            Skip::Invalid(Violation {
                rule,
                line: turn.line,
                round: Some(turn.round),
                player: player.clone(),
                says,
                rules_give,
            })
        };
        if index >= seats * boxes {
            return Err(violation(
                Broken::TooManyTurns,
                format!("turn {} (round {})", index + 1, turn.round),
                format!("{boxes} rounds of {seats} turn(s)"),
            ));
        }
        let (round, expected_seat) = ((index / seats + 1) as u16, index % seats);
        if turn.round != round {
            return Err(violation(
                Broken::RoundOutOfOrder,
                format!("round {}", turn.round),
                format!("round {round} for turn {}", index + 1),
            ));
        }
        if seat != expected_seat {
            return Err(violation(
                Broken::OutOfTurn,
                format!("a turn by {}", player.as_deref().unwrap_or("?")),
                format!("{}'s turn", game.players[expected_seat]),
            ));
        }
        let sheet = sheets[seat];
        if let Some(total) = turn.total_before {
            if total != sheet.points {
                return Err(violation(
                    Broken::WrongTotal,
                    format!("{total} points before the turn"),
                    format!("{} points", sheet.points),
                ));
            }
        }
        let turn_index = index as u16;
        replay_turn(
            rules,
            turn,
            turn_index,
            sheet,
            &violation,
            &mut out.decisions,
        )?;
        let dice = last_roll(turn);
        let Some((b, _)) = rules.parse_box(turn.category.as_str()) else {
            // Checked by replay_turn; unreachable for a valid turn.
            return Err(violation(
                Broken::UnknownBox,
                turn.category.to_string(),
                rules.box_codes(),
            ));
        };
        out.box_points
            .push(sheet.score(&dice, b).map_or(0, |s| s.points));
        if let Some((next, _)) = sheet.after(&dice, b) {
            sheets[seat] = next;
        }
    }
    out.sheets.extend_from_slice(&sheets);
    out.complete = game.turns.len() == seats * boxes;
    if !out.complete {
        if game.termination == Termination::Normal {
            let last_line = game.turns.last().map_or(game.provenance.line, |t| t.line);
            return Err(Skip::Invalid(Violation {
                rule: Broken::MissingTurns,
                line: last_line,
                round: None,
                player: None,
                says: format!("{} turns and Termination normal", game.turns.len()),
                rules_give: format!(
                    "{} turns, or a Termination saying why the game ended",
                    seats * boxes
                ),
            }));
        }
        if !options.include_unfinished {
            return Err(Skip::Unfinished(game.termination));
        }
    }
    if let Some(result) = &game.result {
        let totals: Vec<u32> = sheets.iter().map(|s| s.points).collect();
        if out.complete && *result != totals {
            let show = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
            return Err(at_game(
                Broken::WrongResult,
                format!("Result \"{}\"", show(result)),
                format!("\"{}\"", show(&totals)),
            ));
        }
    }
    Ok(())
}

/// The dice of a turn's last roll.
fn last_roll(turn: &TurnRecord) -> Dice {
    turn.rolls()
        .last()
        .and_then(|r| Dice::from_faces(r))
        .unwrap_or_default()
}

/// Checks one turn and appends its decisions.
fn replay_turn(
    rules: RuleSet,
    turn: &TurnRecord,
    turn_index: u16,
    sheet: Sheet,
    violation: &dyn Fn(Broken, String, String) -> Skip,
    decisions: &mut Vec<Decision>,
) -> Result<(), Skip> {
    let rolls = turn.rolls();
    let keeps = turn.keeps();
    let mut previous: Option<Dice> = None;
    for (i, shown) in rolls.iter().enumerate() {
        let Some(dice) = Dice::from_faces(shown).filter(|d| d.len() == 5) else {
            return Err(violation(
                Broken::BadDice,
                digits(shown),
                "five dice 1-6".into(),
            ));
        };
        if let Some(kept) = previous {
            if !kept.is_subset_of(&dice) {
                return Err(violation(
                    Broken::RollWithoutKeep,
                    format!("roll {} = {} after keeping {}", i + 1, digits(shown), kept),
                    format!("a roll showing {kept}"),
                ));
            }
        }
        let roll_number = i as u8 + 1;
        let decision = |choice| Decision {
            seat: turn.seat,
            round: turn.round,
            turn: turn_index,
            roll_number,
            sheet,
            dice,
            choice,
        };
        if let Some(keep) = keeps.get(i) {
            let kept = Dice::from_faces(keep.faces()).filter(|k| k.is_subset_of(&dice));
            let kept = kept.ok_or_else(|| {
                violation(
                    Broken::KeepNotInRoll,
                    format!("k{} after {}", digits(keep.faces()), digits(shown)),
                    format!("a keep out of {dice}"),
                )
            })?;
            decisions.push(decision(Choice::Keep(kept)));
            previous = Some(kept);
        } else {
            let code = turn.category.as_str();
            let (b, _) = rules.parse_box(code).ok_or_else(|| {
                violation(
                    Broken::UnknownBox,
                    code.to_string(),
                    format!("a box of {rules}: {}", rules.box_codes()),
                )
            })?;
            let category = rules.boxes()[b];
            if sheet.filled & (1 << b) != 0 {
                return Err(violation(
                    Broken::BoxAlreadyFilled,
                    format!("{code} again"),
                    "a free box".into(),
                ));
            }
            let Some(scored) = sheet.score(&dice, b) else {
                let allowed: Vec<&str> = (0..rules.box_count())
                    .filter(|&o| sheet.score(&dice, o).is_some())
                    .map(|o| rules.boxes()[o].code())
                    .collect();
                return Err(violation(
                    Broken::BoxNotAllowed,
                    format!("{dice} in {code}"),
                    format!("{dice} must go to {}", allowed.join(" or ")),
                ));
            };
            if let Some(points) = turn.points {
                if u32::from(points) != scored.points {
                    return Err(violation(
                        Broken::WrongPoints,
                        format!("{code}={points} for {dice}"),
                        format!("{code}={}", scored.points),
                    ));
                }
            }
            decisions.push(decision(Choice::Score(category)));
        }
    }
    Ok(())
}

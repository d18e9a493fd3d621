//! Replay: a game record becomes a stream of decisions, while every rule of docs/formats/ygn.md's
//! "Validity" section is checked. An invalid game is reported with the first rule it breaks,
//! where, and what the log says against what the rules give.

use crate::dice::Dice;
use crate::rules::jamb::{AnnounceRule, Cell, JambTurn};
use crate::rules::{Choice, GameFamily, GameRules, PlayerSheet, Refused, Written};
use dicelens_parsers::{GameRecord, LineNumber, Roll, Termination, TurnRecord, MAX_PLAYERS};
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
    /// Which roll of the turn this decision follows (1 to the turn's rolls).
    pub roll_number: u8,
    /// Rolls saved before the turn, which the turn may use on top of its own (the
    /// saved-rolls rule of `maxi-yatzy-saved`; always 0 without it).
    pub saved: u8,
    /// The player's sheet before the turn.
    pub sheet: PlayerSheet,
    /// The dice on the table.
    pub dice: Dice,
    /// What the player did: keep dice and roll again, or score a box.
    pub choice: Choice,
    /// Jamb: the Announce column's cell announced after roll 1 of the turn (on every decision
    /// of an announced turn, roll 1's included: announcing is part of roll 1's choice); `None`
    /// without an announcement and in other games.
    pub announced: Option<Cell>,
    /// Jamb: the dice are a pure hand, a roll of every die (roll 1, or a roll after keeping
    /// nothing); `false` in other games.
    pub pure: bool,
}

impl Decision {
    /// Where the Jamb turn stands at this decision: its roll, announcement and pure hand.
    pub fn jamb_turn(&self) -> JambTurn {
        JambTurn {
            roll_number: self.roll_number,
            announced: self.announced.map(|c| c.jbox),
            pure: self.pure,
        }
    }

    /// Rolls left after the roll this decision follows (of the turn's rolls: three, five on
    /// the last turn of `jamb-6a`, and the rolls saved before the turn under the saved-rolls
    /// rule).
    pub fn rolls_left(&self) -> u8 {
        self.sheet
            .max_rolls()
            .saturating_add(self.saved)
            .saturating_sub(self.roll_number)
    }
}

/// The replay of one game: its decisions and every player's sheet before each turn.
#[derive(Clone, Debug, Default)]
pub struct Replayed {
    /// The rule set the game was played under.
    pub rules: Option<GameRules>,
    /// Number of players.
    pub seats: usize,
    /// Every decision in order.
    pub decisions: Vec<Decision>,
    /// Every player's sheet before each turn, turn-major: `sheets[turn * seats + seat]`, then
    /// the final sheets after the last turn.
    pub sheets: Vec<PlayerSheet>,
    /// Points written in the box of each turn (bonuses excluded), in turn order.
    pub box_points: Vec<u32>,
    /// True when every box of every player is filled.
    pub complete: bool,
}

impl Replayed {
    /// Every player's sheet before turn `turn` (`turn == turns` gives the final sheets).
    #[cfg(test)]
    pub(crate) fn sheets_at(&self, turn: usize) -> &[PlayerSheet] {
        &self.sheets[turn * self.seats..(turn + 1) * self.seats]
    }

    /// The final sheets, in seat order.
    pub fn finals(&self) -> &[PlayerSheet] {
        &self.sheets[self.sheets.len() - self.seats..]
    }

    /// Fills each turn of `game` (the record this replay was made from) with what the replay
    /// knows: the mover's points before the turn (`total_before`) and the points written in
    /// the box (`points`), as Verhoeff's form needs them. Turns the replay did not reach are
    /// left as they are.
    pub(crate) fn annotate(&self, game: &mut GameRecord) {
        let seats = self.seats;
        for (turn, record) in game.turns.iter_mut().enumerate() {
            let before = self
                .sheets
                .get(turn * seats + usize::from(record.seat))
                .filter(|_| usize::from(record.seat) < seats);
            let (Some(sheet), Some(&points)) = (before, self.box_points.get(turn)) else {
                break;
            };
            record.total_before = u32::try_from(sheet.points()).ok();
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
    /// A turn with no roll, or more than three.
    RollCount,
    /// A keep holds dice the roll before it does not show.
    KeepNotInRoll,
    /// A roll does not show the dice kept before it.
    RollWithoutKeep,
    /// A roll of another number of dice than the rule set rolls, or a keep of more.
    DiceCount,
    /// The box was filled in an earlier turn.
    BoxAlreadyFilled,
    /// The joker rule sends this roll to another box.
    BoxNotAllowed,
    /// Jamb: the column's order does not allow this box yet.
    ColumnOrder,
    /// Jamb: a Hand-column box written after the turn's first roll.
    HandAfterFirstRoll,
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
    /// An announcement the rules refuse: not of an empty box of the Announce column (or on a
    /// slip without one).
    BadAnnouncement,
    /// A turn that announced a box written elsewhere.
    AnnouncedElsewhere,
    /// An Announce-column box written with no announcement (and, in `jamb-6a`, without a pure
    /// hand).
    AnnounceUnannounced,
}

impl Broken {
    /// Every rule a replay checks.
    pub const ALL: [Broken; 22] = [
        Broken::UnknownRules,
        Broken::BadPlayers,
        Broken::UnknownBox,
        Broken::BadDice,
        Broken::RollCount,
        Broken::KeepNotInRoll,
        Broken::RollWithoutKeep,
        Broken::DiceCount,
        Broken::BoxAlreadyFilled,
        Broken::BoxNotAllowed,
        Broken::ColumnOrder,
        Broken::HandAfterFirstRoll,
        Broken::WrongPoints,
        Broken::WrongTotal,
        Broken::OutOfTurn,
        Broken::RoundOutOfOrder,
        Broken::TooManyTurns,
        Broken::MissingTurns,
        Broken::WrongResult,
        Broken::BadAnnouncement,
        Broken::AnnouncedElsewhere,
        Broken::AnnounceUnannounced,
    ];

    /// Short name, used as the skip reason in summaries.
    pub fn name(self) -> &'static str {
        match self {
            Broken::UnknownRules => "unknown rule set",
            Broken::BadPlayers => "bad player list",
            Broken::UnknownBox => "unknown box",
            Broken::BadDice => "bad dice",
            Broken::RollCount => "wrong number of rolls",
            Broken::KeepNotInRoll => "keep not in roll",
            Broken::RollWithoutKeep => "roll without the kept dice",
            Broken::DiceCount => "wrong number of dice",
            Broken::BoxAlreadyFilled => "box filled twice",
            Broken::BoxNotAllowed => "box not allowed (joker rule)",
            Broken::ColumnOrder => "box out of its column's order",
            Broken::HandAfterFirstRoll => "hand column after roll 1",
            Broken::WrongPoints => "wrong points",
            Broken::WrongTotal => "wrong total",
            Broken::OutOfTurn => "player out of turn",
            Broken::RoundOutOfOrder => "round out of order",
            Broken::TooManyTurns => "too many turns",
            Broken::MissingTurns => "missing turns",
            Broken::WrongResult => "wrong Result",
            Broken::BadAnnouncement => "announcement not allowed",
            Broken::AnnouncedElsewhere => "announced box not written",
            Broken::AnnounceUnannounced => "announce box without announcement",
        }
    }
}

/// The first rule a game breaks: which, where, and the log against the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The rule broken.
    pub rule: Broken,
    /// Line in the log (the turn's line, or the game's first line).
    pub line: LineNumber,
    /// Round, when the violation is in a turn.
    pub round: Option<u16>,
    /// Player, when the violation is in a turn.
    pub player: Option<String>,
    /// What the log says.
    pub says: String,
    /// What the rules give.
    pub(crate) rules_give: String,
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

/// A count of dice in words, as the replay's messages write it (`five dice 1-6`).
fn count_word(count: usize) -> String {
    match ["none", "one", "two", "three", "four", "five", "six"].get(count) {
        Some(word) => (*word).to_string(),
        None => count.to_string(),
    }
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
    let rules: GameRules = game.rules.parse().map_err(|_| {
        at_game(
            Broken::UnknownRules,
            format!("Rules \"{}\"", game.rules),
            format!(
                "one of {}",
                GameRules::all()
                    .map(GameRules::name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    })?;
    out.rules = Some(rules);
    let seats = game.players.len();
    if seats == 0 || seats > MAX_PLAYERS {
        return Err(at_game(
            Broken::BadPlayers,
            format!("{seats} players"),
            format!("1 to {MAX_PLAYERS} players"),
        ));
    }
    out.seats = seats;
    let boxes = rules.rounds();
    let dice_count = rules.dice();
    let mut sheets = vec![PlayerSheet::empty(rules); seats];
    let description = match rules {
        GameRules::Yahtzee(r) => *r.description(),
        GameRules::Jamb(r) => r.description(),
    };
    // Rolls each seat saved for later turns (the saved-rolls rule; always 0 without it).
    let mut saved = vec![0u32; seats];
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
            if i64::from(total) != sheet.points() {
                return Err(violation(
                    Broken::WrongTotal,
                    format!("{total} points before the turn"),
                    format!("{} points", sheet.points()),
                ));
            }
        }
        let turn_index = index as u16;
        let available = description.rolls_available(index / seats, saved[seat]);
        let written = replay_turn(
            turn,
            turn_index,
            (sheet, dice_count, available),
            &violation,
            &mut out.decisions,
        )?;
        saved[seat] = description.saved_after(available, turn.rolls().len() as u32);
        out.box_points.push(written.points);
        if let Some(earned) = turn
            .earned
            .filter(|&earned| i64::from(earned) != written.gained)
        {
            let code = turn.category.as_str();
            return Err(violation(
                Broken::WrongPoints,
                format!("{code}={earned} (with bonuses) for {}", last_roll(turn)),
                format!("{code}={} (with bonuses)", written.gained),
            ));
        }
        sheets[seat] = written.after;
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
        let totals: Vec<i64> = sheets.iter().map(PlayerSheet::points).collect();
        let logged: Vec<i64> = result.iter().map(|&r| i64::from(r)).collect();
        if out.complete && logged != totals {
            let show = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(" ");
            // Reported where the log states the result (its line), else at the game's start.
            let line = game.provenance.result_line.unwrap_or(game.provenance.line);
            return Err(Skip::Invalid(Violation {
                rule: Broken::WrongResult,
                line,
                round: None,
                player: None,
                says: format!("Result \"{}\"", show(&logged)),
                rules_give: format!("\"{}\"", show(&totals)),
            }));
        }
    }
    Ok(())
}

/// The dice of a turn's last roll (of a turn the replay checked).
fn last_roll(turn: &TurnRecord) -> Dice {
    turn.rolls()
        .last()
        .and_then(|roll| roll_dice(roll, roll.len()))
        .unwrap_or_default()
}

/// The one place a logged roll becomes the rules' dice: a roll of exactly `dice_count` dice
/// (the rule set's, checked here), every face 1-6; `None` otherwise.
fn roll_dice(roll: &Roll, dice_count: usize) -> Option<Dice> {
    if roll.len() != dice_count {
        return None;
    }
    Dice::from_faces_up_to(roll.faces(), dice_count)
}

/// Checks one turn, played on `sheet` with rolls of `dice_count` dice (the rule set's) and at
/// most `available` rolls (the turn's own and any saved before it), and appends its
/// decisions; returns what the turn wrote.
fn replay_turn(
    turn: &TurnRecord,
    turn_index: u16,
    (sheet, dice_count, available): (PlayerSheet, usize, u32),
    violation: &dyn Fn(Broken, String, String) -> Skip,
    decisions: &mut Vec<Decision>,
) -> Result<Written, Skip> {
    // Rolls saved before the turn: what it may roll beyond its own.
    let own_rolls = u32::from(sheet.max_rolls());
    let saved = u8::try_from(available.saturating_sub(own_rolls)).unwrap_or(u8::MAX);
    if !(1..=available).contains(&(turn.rolls().len() as u32)) {
        let own = match sheet.rules() {
            GameRules::Yahtzee(r) => u32::from(r.rolls_per_turn()),
            GameRules::Jamb(_) => available,
        };
        let last_turn = match sheet.jamb() {
            Some(s) if s.rules().last_turn_rolls > 3 => {
                format!(
                    " ({} on the game's last turn only)",
                    s.rules().last_turn_rolls
                )
            }
            _ => String::new(),
        };
        let allowed = if available > own {
            format!(
                "one to {available} rolls ({own} a turn and {} saved)",
                available - own
            )
        } else {
            format!("one to {} rolls{last_turn}", count_word(available as usize))
        };
        return Err(violation(
            Broken::RollCount,
            format!("{} rolls", turn.rolls().len()),
            allowed,
        ));
    }
    let announced = match turn.announced {
        Some(code) => Some(sheet.announcement(code.as_str()).map_err(|rules_give| {
            violation(
                Broken::BadAnnouncement,
                format!("@{} after roll 1", code.as_str()),
                rules_give,
            )
        })?),
        None => None,
    };
    // The announced box as a cell of the Announce column (an announcement is only accepted
    // on a slip with one).
    let announced_cell = announced.and_then(|jbox| {
        let column = u8::try_from(sheet.jamb()?.rules().announce_column()?).ok()?;
        Some(Cell { column, jbox })
    });
    let jamb = sheet.jamb().is_some();
    let rolls = turn.rolls();
    let keeps = turn.keeps();
    let mut previous: Option<Dice> = None;
    for (i, shown) in rolls.iter().enumerate() {
        if shown.len() != dice_count {
            return Err(violation(
                Broken::DiceCount,
                format!(
                    "roll {} = {} ({} dice)",
                    i + 1,
                    digits(shown.faces()),
                    shown.len()
                ),
                format!("{dice_count} dice"),
            ));
        }
        let Some(dice) = roll_dice(shown, dice_count) else {
            return Err(violation(
                Broken::BadDice,
                digits(shown.faces()),
                format!("{} dice 1-6", count_word(dice_count)),
            ));
        };
        if let Some(kept) = previous {
            if !kept.is_subset_of(&dice) {
                return Err(violation(
                    Broken::RollWithoutKeep,
                    format!(
                        "roll {} = {} after keeping {}",
                        i + 1,
                        digits(shown.faces()),
                        kept
                    ),
                    format!("a roll showing {kept}"),
                ));
            }
        }
        let roll_number = i as u8 + 1;
        // A pure hand: the turn's first roll, or a roll of all the dice (nothing kept).
        let pure = keeps
            .get(i.wrapping_sub(1))
            .is_none_or(|k| k.faces().is_empty());
        let decision = |choice| Decision {
            seat: turn.seat,
            round: turn.round,
            turn: turn_index,
            roll_number,
            saved,
            sheet,
            dice,
            choice,
            announced: announced_cell,
            pure: jamb && pure,
        };
        if let Some(keep) = keeps.get(i) {
            if keep.faces().len() > dice_count {
                return Err(violation(
                    Broken::DiceCount,
                    format!("k{} ({} dice)", digits(keep.faces()), keep.faces().len()),
                    format!("a keep of at most {dice_count} dice"),
                ));
            }
            let kept =
                Dice::from_faces_up_to(keep.faces(), dice_count).filter(|k| k.is_subset_of(&dice));
            let kept = kept.ok_or_else(|| {
                violation(
                    Broken::KeepNotInRoll,
                    format!("k{} after {}", digits(keep.faces()), digits(shown.faces())),
                    format!("a keep out of {dice}"),
                )
            })?;
            decisions.push(decision(Choice::Keep(kept)));
            previous = Some(kept);
        } else {
            let at = JambTurn {
                roll_number,
                announced,
                pure,
            };
            let written = write(&sheet, turn, &dice, at, violation)?;
            decisions.push(decision(written.choice));
            return Ok(written);
        }
    }
    // Every turn has 1 to 3 rolls and one more roll than keeps, so its last roll writes.
    Err(violation(
        Broken::RollCount,
        format!("{} rolls and {} keeps", rolls.len(), keeps.len()),
        "one roll more than keeps".into(),
    ))
}

/// Writes a turn's last roll in the box its log names, checking every rule of the box.
fn write(
    sheet: &PlayerSheet,
    turn: &TurnRecord,
    dice: &Dice,
    at: JambTurn,
    violation: &dyn Fn(Broken, String, String) -> Skip,
) -> Result<Written, Skip> {
    let code = turn.category.as_str();
    let rules = sheet.rules();
    let roll_number = at.roll_number;
    let written = sheet
        .write_in(code, dice, at)
        .map_err(|refused| match refused {
            Refused::UnknownBox(codes) => violation(
                Broken::UnknownBox,
                code.to_string(),
                format!("a box of {rules}: {codes}"),
            ),
            Refused::AlreadyFilled => violation(
                Broken::BoxAlreadyFilled,
                format!("{code} again"),
                "a free box".into(),
            ),
            Refused::NotAllowed(allowed) => violation(
                Broken::BoxNotAllowed,
                format!("{dice} in {code}"),
                format!("{dice} must go to {allowed}"),
            ),
            Refused::OutOfOrder(allowed) => violation(
                Broken::ColumnOrder,
                format!("{code} now"),
                format!("the column's next box: {allowed}"),
            ),
            Refused::HandAfterFirstRoll => violation(
                Broken::HandAfterFirstRoll,
                format!("{code} after roll {roll_number}"),
                "a Hand-column box only after roll 1".into(),
            ),
            Refused::AnnouncedElsewhere(announced) => violation(
                Broken::AnnouncedElsewhere,
                format!("{code} after announcing {announced}"),
                format!("{announced}, the box announced"),
            ),
            Refused::AnnounceUnannounced => violation(
                Broken::AnnounceUnannounced,
                format!("{code} after roll {roll_number}, not announced"),
                format!(
                    "an Announce box only when announced after roll 1{}",
                    match rules.jamb().map(|r| r.announce) {
                        Some(AnnounceRule::AnnouncedOrPureHand) =>
                            ", or with a pure hand (the last roll of all the dice)",
                        _ => "",
                    }
                ),
            ),
        })?;
    if let Some(points) = turn.points {
        if u32::from(points) != written.points {
            return Err(violation(
                Broken::WrongPoints,
                format!("{code}={points} for {dice}"),
                format!("{code}={}", written.points),
            ));
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::jamb::{JambBox, JambRules, JambSheet};
    use crate::rules::{Category, RuleSet, Sheet};
    use dicelens_parsers::{BoxCode, Format};
    use rand_chacha::ChaCha8Rng;

    /// A complete, legal two-player `yahtzee` game, scored by hand. ann fills ones to sixes
    /// with 4+6+9+12+15+18 = 64 (upper bonus 35 in round 6), then 3K 12, 4K 17, FH 25, SS 30,
    /// LS 40, Y 0, C 24: 247. bob scores Y 50 first (after `k-`), ones to sixes 2+4+6+8+10+12
    /// = 42 (no bonus), FH 25, SS 30, LS 40, 4K 6, 3K 10, C 9: 212. ann's first turn has three
    /// rolls, bob's two, every other turn one: 3 + 2 + 24 = 29 decisions. Turn `i` (0-based)
    /// is on line `6 + i`.
    const GAME: &str = "\
[Game \"unit-1\"]
[Rules \"yahtzee\"]
[Players \"ann, bob\"]
[Result \"247 212\"]

1. ann: 11123 k111 11145 k1114 11141 1=4
1. bob: 12345 k- 66666 Y=50
2. ann: 22234 2=6
2. bob: 11234 1=2
3. ann: 33345 3=9
3. bob: 22345 2=4
4. ann: 44456 4=12
4. bob: 33456 3=6
5. ann: 55561 5=15
5. bob: 44561 4=8
6. ann: 66612 6=18
6. bob: 55612 5=10
7. ann: 33312 3K=12
7. bob: 66123 6=12
8. ann: 44441 4K=17
8. bob: 11122 FH=25
9. ann: 22333 FH=25
9. bob: 12346 SS=30
10. ann: 12346 SS=30
10. bob: 12345 LS=40
11. ann: 23456 LS=40
11. bob: 11112 4K=6
12. ann: 12356 Y=0
12. bob: 22213 3K=10
13. ann: 66543 C=24
13. bob: 11223 C=9
";

    /// The one game of a YGN text.
    fn parse(text: &str) -> GameRecord {
        let mut games = Format::Ygn.games(text.as_bytes(), "unit.ygn");
        let game = games
            .next()
            .expect("a game")
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(games.next().is_none(), "one game only");
        game
    }

    /// [`GAME`] with `from` (which must occur exactly once) replaced by `to`.
    fn edited(from: &str, to: &str) -> GameRecord {
        assert_eq!(GAME.matches(from).count(), 1, "{from:?} is not unique");
        parse(&GAME.replacen(from, to, 1))
    }

    /// 1-based line of the line of [`GAME`] that starts with `prefix`.
    fn line_of(prefix: &str) -> LineNumber {
        let index = GAME
            .lines()
            .position(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no line starts with {prefix:?}"));
        index as LineNumber + 1
    }

    fn replayed(game: &GameRecord, options: ReplayOptions) -> Result<Replayed, Skip> {
        let mut out = Replayed::default();
        replay(game, options, &mut out).map(|()| out)
    }

    /// The violation `game` is skipped for (default options).
    fn violation(game: &GameRecord) -> Violation {
        match replayed(game, ReplayOptions::default()) {
            Err(Skip::Invalid(v)) => v,
            Err(other) => panic!("expected a violation, got {other}"),
            Ok(r) => panic!(
                "expected a violation, replayed {} decisions",
                r.decisions.len()
            ),
        }
    }

    fn dice(faces: &str) -> Dice {
        let faces: Vec<u8> = faces.bytes().map(|b| b - b'0').collect();
        Dice::from_faces(&faces).expect("dice")
    }

    #[test]
    fn a_legal_game_replays_into_every_decision_with_seat_round_and_roll() {
        let out = replayed(&parse(GAME), ReplayOptions::default()).unwrap();
        assert_eq!(out.rules, Some(RuleSet::Yahtzee.into()));
        assert_eq!(out.seats, 2);
        assert!(out.complete);
        assert_eq!(out.decisions.len(), 29);
        // ann's first turn: three rolls, two keeps, then the ones box.
        let empty = PlayerSheet::Yahtzee(Sheet::empty(RuleSet::Yahtzee));
        let first: Vec<_> = out.decisions[..3]
            .iter()
            .map(|d| {
                (
                    d.seat,
                    d.round,
                    d.turn,
                    d.roll_number,
                    d.rolls_left(),
                    d.dice,
                    d.choice,
                )
            })
            .collect();
        assert_eq!(
            first,
            [
                (0, 1, 0, 1, 2, dice("11123"), Choice::Keep(dice("111"))),
                (0, 1, 0, 2, 1, dice("11145"), Choice::Keep(dice("1114"))),
                (0, 1, 0, 3, 0, dice("11141"), Choice::Score(Category::Ones)),
            ]
        );
        assert!(out.decisions[..5].iter().all(|d| d.sheet == empty));
        // bob's first turn: keep nothing, then a Yahtzee.
        let bob = &out.decisions[3..5];
        assert_eq!(
            bob.iter()
                .map(|d| (d.seat, d.round, d.turn, d.roll_number, d.choice))
                .collect::<Vec<_>>(),
            [
                (1, 1, 1, 1, Choice::Keep(Dice::default())),
                (1, 1, 1, 2, Choice::Score(Category::Yahtzee)),
            ]
        );
        // bob's second turn starts from the sheet with the Yahtzee box holding 50.
        let bob2 = out.decisions[6];
        assert_eq!((bob2.seat, bob2.round, bob2.turn), (1, 2, 3));
        assert!(bob2.sheet.yahtzee().unwrap().yahtzee_50);
        assert_eq!(bob2.sheet.points(), 50);
        // ann in round 7: the upper section done, 64 points and the 35 bonus.
        let ann7 = out
            .decisions
            .iter()
            .find(|d| d.seat == 0 && d.round == 7)
            .unwrap();
        assert_eq!(
            (
                ann7.sheet.yahtzee().unwrap().upper_total,
                ann7.sheet.points()
            ),
            (64, 99)
        );
        assert_eq!(ann7.choice, Choice::Score(Category::ThreeKind));
        let last = out.decisions.last().unwrap();
        assert_eq!(
            (last.seat, last.round, last.turn, last.roll_number),
            (1, 13, 25, 1)
        );
        assert_eq!(last.choice, Choice::Score(Category::Chance));
        // One sheet per seat before each of the 26 turns, then the finals.
        assert_eq!(out.sheets.len(), 27 * 2);
        assert_eq!(out.sheets_at(0), [empty, empty]);
        assert_eq!(out.sheets_at(1)[0].points(), 4);
        assert_eq!(out.sheets_at(1)[1], empty);
        let finals: Vec<i64> = out.finals().iter().map(PlayerSheet::points).collect();
        assert_eq!(finals, [247, 212]);
        assert!(out.finals().iter().all(PlayerSheet::is_complete));
        assert_eq!(out.sheets_at(26), out.finals());
        // Box points in turn order, bonuses excluded.
        assert_eq!(out.box_points.len(), 26);
        assert_eq!(&out.box_points[..4], [4, 50, 6, 2]);
        assert_eq!(out.box_points.iter().sum::<u32>(), (247 - 35) + 212);
    }

    #[test]
    fn annotate_writes_totals_before_and_box_points() {
        // The log leaves ann's last points out; the replay knows them.
        let mut game = edited("13. ann: 66543 C=24", "13. ann: 66543 C");
        assert_eq!(game.turns[24].points, None);
        let out = replayed(&game, ReplayOptions::default()).unwrap();
        out.annotate(&mut game);
        let turn = |i: usize| (game.turns[i].total_before, game.turns[i].points);
        assert_eq!(turn(0), (Some(0), Some(4)));
        assert_eq!(turn(1), (Some(0), Some(50)));
        // bob before round 7: 50 + 2 + 4 + 6 + 8 + 10.
        assert_eq!(turn(13), (Some(80), Some(12)));
        // ann before round 13: 247 - 24.
        assert_eq!(turn(24), (Some(223), Some(24)));
    }

    #[test]
    fn annotate_leaves_turns_the_replay_did_not_reach() {
        // Turn 4 (ann, round 3) breaks a rule: turns 0-3 are annotated, turn 4 on are not.
        let mut game = edited("3. ann: 33345 3=9", "3. ann: 33345 3=8");
        let mut out = Replayed::default();
        assert!(replay(&game, ReplayOptions::default(), &mut out).is_err());
        out.annotate(&mut game);
        assert_eq!(game.turns[3].total_before, Some(50));
        assert_eq!(game.turns[4].total_before, None);
        assert_eq!(game.turns[4].points, Some(8), "the log's points stay");
        assert!(game.turns[5..].iter().all(|t| t.total_before.is_none()));
    }

    #[test]
    fn wrong_points_are_reported_with_line_round_player_and_both_values() {
        let v = violation(&edited("3. ann: 33345 3=9", "3. ann: 33345 3=8"));
        assert_eq!(v.rule, Broken::WrongPoints);
        assert_eq!(v.line, line_of("3. ann"));
        assert_eq!((v.round, v.player.as_deref()), (Some(3), Some("ann")));
        assert_eq!(
            (v.says.as_str(), v.rules_give.as_str()),
            ("3=8 for 33345", "3=9")
        );
        assert_eq!(
            v.to_string(),
            format!(
                "line {}, round 3, ann: wrong points: the log says 3=8 for 33345, the rules give 3=9",
                line_of("3. ann")
            )
        );
    }

    #[test]
    fn a_box_filled_twice_is_reported_before_its_points() {
        let v = violation(&edited("4. ann: 44456 4=12", "4. ann: 44456 3=0"));
        assert_eq!(
            (v.rule, v.line),
            (Broken::BoxAlreadyFilled, line_of("4. ann"))
        );
        assert_eq!((v.round, v.says.as_str()), (Some(4), "3 again"));
    }

    #[test]
    fn a_keep_of_dice_the_roll_does_not_show_is_reported() {
        let v = violation(&edited("11123 k111 11145", "11123 k1115 11145"));
        assert_eq!((v.rule, v.line), (Broken::KeepNotInRoll, line_of("1. ann")));
        assert_eq!((v.round, v.player.as_deref()), (Some(1), Some("ann")));
        assert_eq!(v.says, "k1115 after 11123");
    }

    #[test]
    fn a_roll_that_lost_a_kept_die_is_reported() {
        let v = violation(&edited("k111 11145", "k111 11245"));
        assert_eq!(
            (v.rule, v.line),
            (Broken::RollWithoutKeep, line_of("1. ann"))
        );
        assert_eq!(v.says, "roll 2 = 11245 after keeping 111");
        assert_eq!(v.rules_give, "a roll showing 111");
    }

    #[test]
    fn a_fourth_roll_is_refused_by_the_replay() {
        // YGN reads turns of more than three rolls (other rule sets have them); a five-dice
        // rule set's replay refuses a fourth.
        let text = GAME.replacen("k1114 11141 1=4", "k1114 11141 k1111 11111 1=5", 1);
        let v = violation(&parse(&text));
        assert_eq!((v.rule, v.line), (Broken::RollCount, 6));
        assert_eq!(v.says, "4 rolls");
    }

    #[test]
    fn a_turn_record_with_no_roll_or_more_than_three_is_reported() {
        // Readers never make such records; a program building its own must not get past the
        // replay with them.
        for count in [0, 4] {
            let mut game = parse(GAME);
            let first = game.turns[2].rolls()[0];
            let keeps = vec![dicelens_parsers::Keep::default(); count.max(1) - 1];
            game.turns[2]
                .set_rolls(&vec![first; count], &keeps)
                .unwrap();
            let v = violation(&game);
            assert_eq!((v.rule, v.line), (Broken::RollCount, line_of("2. ann")));
            assert_eq!(v.says, format!("{count} rolls"));
        }
    }

    #[test]
    fn a_roll_or_keep_of_another_dice_count_than_the_rule_sets_is_reported() {
        // A six-dice roll in a five-dice rule set: YGN reads it, the replay refuses it.
        let game = edited("2. ann: 22234 2=6", "2. ann: 222346 2=6");
        let v = violation(&game);
        assert_eq!((v.rule, v.line), (Broken::DiceCount, line_of("2. ann")));
        assert_eq!(
            (v.says.as_str(), v.rules_give.as_str()),
            ("roll 1 = 222346 (6 dice)", "5 dice")
        );
        // So is a roll of four dice, after a keep.
        let game = edited("1. bob: 12345 k- 66666", "1. bob: 12345 k- 6666");
        let v = violation(&game);
        assert_eq!((v.rule, v.line), (Broken::DiceCount, line_of("1. bob")));
        assert_eq!(v.says, "roll 2 = 6666 (4 dice)");
        // And a keep of six dice between two five-dice rolls.
        let mut game = parse(GAME);
        game.turns[0].keeps_mut()[0] = dicelens_parsers::Keep::new(&[1; 6]).unwrap();
        let v = violation(&game);
        assert_eq!((v.rule, v.line), (Broken::DiceCount, line_of("1. ann")));
        assert_eq!(
            (v.says.as_str(), v.rules_give.as_str()),
            ("k111111 (6 dice)", "a keep of at most 5 dice")
        );
        // Counted under its own name.
        let skip = replayed(&game, ReplayOptions::default()).unwrap_err();
        assert_eq!(skip.reason(), "wrong number of dice");
    }

    #[test]
    fn a_five_dice_roll_is_refused_where_the_description_rolls_six() {
        // No rule set rolls six dice yet: a test-only description of one that does.
        let six = crate::rules::description::GameDescription {
            dice: 6,
            ..*RuleSet::Yahtzee.description()
        };
        let game = parse(GAME);
        let turn = &game.turns[2];
        let sheet = PlayerSheet::empty(GameRules::Yahtzee(RuleSet::Yahtzee));
        let violation = |rule, says: String, rules_give: String| {
            Skip::Invalid(Violation {
                rule,
                line: turn.line,
                round: Some(turn.round),
                player: None,
                says,
                rules_give,
            })
        };
        let mut decisions = Vec::new();
        let outcome = replay_turn(turn, 2, (sheet, six.dice, 3), &violation, &mut decisions);
        let Err(Skip::Invalid(v)) = outcome else {
            panic!("{outcome:?}")
        };
        assert_eq!(v.rule, Broken::DiceCount);
        assert_eq!(
            (v.says.as_str(), v.rules_give.as_str()),
            ("roll 1 = 22234 (5 dice)", "6 dice")
        );
        assert!(decisions.is_empty());
        // The same turn under the five dice of the rule set's own description replays.
        let five = RuleSet::Yahtzee.description().dice;
        assert!(replay_turn(turn, 2, (sheet, five, 3), &violation, &mut decisions).is_ok());
        assert_eq!(decisions.len(), 1);
    }

    /// A one-player game of `rules` whose turns roll `rolls[i]` times (six dice, every keep
    /// empty), each scoring the next box of the sheet.
    fn maxi_game(rules: RuleSet, rolls: &[usize]) -> GameRecord {
        let mut game = parse(GAME);
        game.rules = rules.name().to_string();
        game.players.truncate(1);
        game.result = None;
        game.turns = rolls
            .iter()
            .enumerate()
            .map(|(i, &count)| {
                let code = BoxCode::parse(rules.boxes()[i].code()).unwrap();
                let mut turn = TurnRecord::new(i as u16 + 1, 0, code);
                let roll = Roll::new(&[1, 2, 3, 4, 5, 6]).unwrap();
                turn.set_rolls(&vec![roll; count], &[]).unwrap();
                turn
            })
            .collect();
        game
    }

    #[test]
    fn saved_rolls_make_longer_turns_legal_and_no_more() {
        // Saved rolls: one roll saves two, so five rolls are legal in turn 2, which saves
        // none; turn 3 saves none either, and four rolls in turn 4 are one too many.
        let saved = RuleSet::MaxiYatzySaved;
        let mut out = Replayed::default();
        let game = maxi_game(saved, &[1, 5, 3, 4]);
        let v = violation(&game);
        assert_eq!((v.rule, v.round), (Broken::RollCount, Some(4)));
        assert_eq!(
            (v.says.as_str(), v.rules_give.as_str()),
            ("4 rolls", "one to three rolls")
        );
        let game = maxi_game(saved, &[1, 5, 3, 2, 4, 1, 6]);
        let v = violation(&game);
        assert_eq!((v.rule, v.round), (Broken::RollCount, Some(7)));
        assert_eq!(
            (v.says.as_str(), v.rules_give.as_str()),
            ("6 rolls", "one to 5 rolls (3 a turn and 2 saved)")
        );
        // Turn 4 saves one, turn 5 uses it, turn 6 saves two: six rolls in turn 7 are one
        // too many. A game of 19 one-roll turns saves 2 x 19 for its last turn.
        let mut rolls = vec![1usize; 19];
        rolls.push(3 + 2 * 19);
        let opts = ReplayOptions::default();
        replay(&maxi_game(saved, &rolls), opts, &mut out).unwrap();
        assert_eq!(out.decisions.len(), 19 + 3 + 2 * 19);
        // Each decision knows the turn's bank: the last turn's first roll leaves 40 rolls
        // (2 of its own and 38 saved), its last none; the second turn's only roll leaves 4
        // (2 of its own and the 2 the first turn saved).
        let last_turn: Vec<&Decision> = out.decisions.iter().filter(|d| d.turn == 19).collect();
        assert_eq!(last_turn[0].saved, 38);
        assert_eq!(last_turn[0].rolls_left(), 40);
        assert_eq!(last_turn.last().map(|d| d.rolls_left()), Some(0));
        let second = out.decisions.iter().find(|d| d.turn == 1).unwrap();
        assert_eq!((second.saved, second.rolls_left()), (2, 4));
        rolls[19] += 1;
        let v = violation(&maxi_game(saved, &rolls));
        assert_eq!(
            (v.says.as_str(), v.rules_give.as_str()),
            ("42 rolls", "one to 41 rolls (3 a turn and 38 saved)")
        );
        // Without the rule the same long turn is refused, and so is a fourth roll.
        let v = violation(&maxi_game(RuleSet::MaxiYatzy, &[1, 5]));
        assert_eq!((v.rule, v.round), (Broken::RollCount, Some(2)));
        assert_eq!(v.rules_give, "one to three rolls");
    }

    #[test]
    fn dice_off_the_faces_are_reported() {
        let mut game = parse(GAME);
        game.turns[2].rolls_mut()[0] = [2, 2, 0, 3, 4].into();
        let v = violation(&game);
        assert_eq!((v.rule, v.line), (Broken::BadDice, line_of("2. ann")));
        assert_eq!(
            (v.says.as_str(), v.rules_give.as_str()),
            ("22034", "five dice 1-6")
        );
    }

    #[test]
    fn a_box_of_another_rule_set_is_unknown() {
        let v = violation(&edited("13. bob: 11223 C=9", "13. bob: 11223 2P=4"));
        assert_eq!((v.rule, v.line), (Broken::UnknownBox, line_of("13. bob")));
        assert_eq!(v.says, "2P");
    }

    #[test]
    fn turns_out_of_seat_order_are_reported() {
        let swapped = GAME.replacen(
            "1. ann: 11123 k111 11145 k1114 11141 1=4\n1. bob: 12345 k- 66666 Y=50\n",
            "1. bob: 12345 k- 66666 Y=50\n1. ann: 11123 k111 11145 k1114 11141 1=4\n",
            1,
        );
        let v = violation(&parse(&swapped));
        // bob's turn is now on ann's line 6.
        assert_eq!((v.rule, v.line), (Broken::OutOfTurn, 6));
        assert_eq!(v.player.as_deref(), Some("bob"));
        assert_eq!(
            (v.says.as_str(), v.rules_give.as_str()),
            ("a turn by bob", "ann's turn")
        );
    }

    #[test]
    fn a_round_number_out_of_order_is_reported() {
        let v = violation(&edited("2. bob: 11234 1=2", "3. bob: 11234 1=2"));
        assert_eq!(
            (v.rule, v.line),
            (Broken::RoundOutOfOrder, line_of("2. bob"))
        );
        assert_eq!(v.says, "round 3");
        assert_eq!(v.rules_give, "round 2 for turn 4");
    }

    #[test]
    fn a_wrong_total_before_the_turn_is_reported() {
        // Verhoeff's records give totals; ann has 4 points before her second turn.
        let mut game = parse(GAME);
        game.turns[2].total_before = Some(5);
        let v = violation(&game);
        assert_eq!((v.rule, v.line), (Broken::WrongTotal, line_of("2. ann")));
        assert_eq!(v.says, "5 points before the turn");
        assert_eq!(v.rules_give, "4 points");
        // The right total passes.
        game.turns[2].total_before = Some(4);
        assert!(replayed(&game, ReplayOptions::default()).is_ok());
    }

    #[test]
    fn game_level_violations_point_at_the_first_line() {
        let v = violation(&edited("[Rules \"yahtzee\"]", "[Rules \"poker\"]"));
        assert_eq!(
            (v.rule, v.line, v.round, v.player),
            (Broken::UnknownRules, 1, None, None)
        );
        assert_eq!(v.says, "Rules \"poker\"");

        // A wrong result is reported at its own line (the Result tag, line 4).
        let v = violation(&edited("[Result \"247 212\"]", "[Result \"247 213\"]"));
        assert_eq!((v.rule, v.line, v.round), (Broken::WrongResult, 4, None));
        assert_eq!(v.says, "Result \"247 213\"");
        assert_eq!(v.rules_give, "\"247 212\"");

        let mut game = parse(GAME);
        game.players.clear();
        let v = violation(&game);
        assert_eq!(
            (v.rule, v.line, v.says.as_str()),
            (Broken::BadPlayers, 1, "0 players")
        );
    }

    #[test]
    fn more_turns_than_boxes_are_reported() {
        let mut game = parse(GAME);
        let mut extra = game.turns[0].clone();
        extra.round = 14;
        extra.line = 40;
        game.turns.push(extra);
        let v = violation(&game);
        assert_eq!(
            (v.rule, v.line, v.round),
            (Broken::TooManyTurns, 40, Some(14))
        );
        assert_eq!(v.says, "turn 27 (round 14)");
        assert_eq!(v.rules_give, "13 rounds of 2 turn(s)");
    }

    #[test]
    fn a_normal_game_with_boxes_left_empty_is_missing_turns() {
        let v = violation(&edited("13. bob: 11223 C=9\n", ""));
        assert_eq!(v.rule, Broken::MissingTurns);
        // Reported at the last turn the log has.
        assert_eq!(v.line, line_of("13. ann"));
        assert_eq!(v.says, "25 turns and Termination normal");
        assert_eq!(
            v.rules_give,
            "26 turns, or a Termination saying why the game ended"
        );
    }

    #[test]
    fn unfinished_games_are_skipped_unless_asked_for() {
        for termination in ["abandoned", "timeout", "resigned"] {
            // The last three turns never happened; the Result tag stays as it was (it is only
            // checked against a complete game).
            let cut = GAME.replacen(
                "12. bob: 22213 3K=10\n13. ann: 66543 C=24\n13. bob: 11223 C=9\n",
                "",
                1,
            );
            let text = cut.replacen(
                "[Result",
                &format!("[Termination \"{termination}\"]\n[Result"),
                1,
            );
            let game = parse(&text);
            let expected = Termination::parse(termination).unwrap();
            assert_eq!(game.termination, expected);
            let skipped = replayed(&game, ReplayOptions::default()).unwrap_err();
            assert_eq!(skipped, Skip::Unfinished(expected));
            assert_eq!(skipped.reason(), format!("unfinished ({termination})"));
            assert_eq!(
                skipped.to_string(),
                format!("unfinished game ({termination})")
            );

            let wanted = ReplayOptions {
                include_unfinished: true,
            };
            let out = replayed(&game, wanted).unwrap();
            assert!(!out.complete);
            assert_eq!(out.decisions.len(), 29 - 3);
            assert_eq!(out.sheets.len(), (23 + 1) * 2);
            let finals: Vec<i64> = out.finals().iter().map(PlayerSheet::points).collect();
            assert_eq!(finals, [247 - 24, 212 - 10 - 9]);
        }
    }

    #[test]
    fn replaying_into_a_used_buffer_starts_afresh() {
        let good = parse(GAME);
        let bad = edited("3. ann: 33345 3=9", "3. ann: 33345 3=8");
        let mut out = Replayed::default();
        replay(&good, ReplayOptions::default(), &mut out).unwrap();
        let first = out.decisions.clone();
        assert!(replay(&bad, ReplayOptions::default(), &mut out).is_err());
        assert!(!out.complete);
        // Turn 4 fails on its only (scoring) decision: ann's 3 + bob's 2 + 2 before it.
        assert_eq!(out.decisions.len(), 3 + 2 + 1 + 1);
        replay(&good, ReplayOptions::default(), &mut out).unwrap();
        assert_eq!(out.decisions, first);
        assert_eq!(out.sheets.len(), 27 * 2);
        assert_eq!(out.box_points.len(), 26);
    }

    /// A jamb-6a player for the replay's tests: announces the first box it may every fourth
    /// turn, keeps the most frequent face after roll 1 and writes after roll 2 (or as soon as
    /// only a pure hand may follow), in the first legal cell.
    struct Announcer;

    impl crate::rules::play::JambPlayer for Announcer {
        fn choose(&mut self, _: &JambSheet, _: &Dice, _: u8, _: &mut ChaCha8Rng) -> Choice {
            Choice::Keep(Dice::default())
        }

        fn choose_in(
            &mut self,
            sheet: &JambSheet,
            dice: &Dice,
            turn: JambTurn,
            _: &mut ChaCha8Rng,
        ) -> Choice {
            if turn.roll_number < 2 && sheet.may_roll_again_in(turn) {
                let counts = dice.counts();
                let most = (0..6).max_by_key(|&f| counts[f]).unwrap_or(0);
                let mut keep = [0u8; 6];
                if !sheet.next_roll_must_be_pure(turn) {
                    keep[most] = counts[most];
                }
                return Choice::Keep(Dice::from_counts(keep));
            }
            match sheet.legal_cells_in(turn).next() {
                Some(cell) => Choice::Write(cell),
                None => Choice::Keep(Dice::default()),
            }
        }

        fn announce(&mut self, sheet: &JambSheet, _: &Dice, _: &mut ChaCha8Rng) -> Option<JambBox> {
            let open = sheet.announceable(1);
            let due = sheet.turns_left().is_multiple_of(4);
            JambBox::ALL
                .into_iter()
                .find(|b| due && open & b.bit() != 0)
        }
    }

    /// A legal one-player jamb-6a game played by [`Announcer`], written as YGN.
    fn jamb_6a_text() -> String {
        use crate::rules::play::{play_game, DiceLaw};
        use dicelens_parsers::{Keep, Roll};
        use rand::SeedableRng;
        let rules = JambRules::JAMB_6A;
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let played = play_game(rules, &mut [&mut Announcer], DiceLaw::Fair, &mut rng).unwrap();
        let slip = played.finals[0];
        let mut game = GameRecord {
            rules: rules.name.into(),
            players: vec!["ann".into()],
            result: Some(vec![u32::try_from(slip.total()).unwrap()]),
            ..GameRecord::default()
        };
        game.provenance.game_id = "j6a-1".into();
        for (i, turn) in played.turns.iter().enumerate() {
            let code = BoxCode::parse(&slip.cell_code(turn.cell)).unwrap();
            let mut record = TurnRecord::new(i as u16 + 1, 0, code);
            record.points = u16::try_from(turn.points).ok();
            let rolls: Vec<Roll> = turn.rolls.iter().map(|r| Roll::new(r).unwrap()).collect();
            let keeps: Vec<Keep> = (turn.keeps.iter())
                .map(|k| Keep::new(&k.faces()).unwrap())
                .collect();
            record.set_rolls(&rolls, &keeps).unwrap();
            record.announced = turn.announced.map(|_| code);
            game.turns.push(record);
        }
        let mut out = Vec::new();
        Format::Ygn.write_game(&game, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// The text's turn lines, as (index in the text's lines, line).
    fn turn_lines(text: &str) -> Vec<(usize, String)> {
        text.lines()
            .enumerate()
            .filter(|(_, l)| l.contains(". ann: "))
            .map(|(i, l)| (i, l.to_string()))
            .collect()
    }

    /// `text` with line `index` replaced by `line`.
    fn with_line(text: &str, index: usize, line: &str) -> String {
        let mut lines: Vec<&str> = text.lines().collect();
        lines[index] = line;
        lines.join("\n") + "\n"
    }

    /// The rule a jamb-6a text breaks.
    fn broken(text: &str) -> Violation {
        match replayed(&parse(text), ReplayOptions::default()) {
            Err(Skip::Invalid(v)) => v,
            other => panic!(
                "expected a violation, got {:?}",
                other.map(|r| r.decisions.len())
            ),
        }
    }

    #[test]
    fn a_legal_jamb_6a_game_with_announcements_replays_to_its_total() {
        let text = jamb_6a_text();
        let game = parse(&text);
        let replay = replayed(&game, ReplayOptions::default()).unwrap();
        assert!(replay.complete);
        let slip = *replay.finals()[0].jamb().unwrap();
        assert_eq!(game.result, Some(vec![slip.total() as u32]));
        let announced = game.turns.iter().filter(|t| t.announced.is_some()).count();
        assert!(announced >= 5, "{announced} announcements");
        let last = game.turns.last().unwrap();
        assert!(last.rolls().iter().all(|r| r.len() == 6));
        // The last turn may roll five times: rolled out, it replays.
        let (index, line) = turn_lines(&text).pop().unwrap();
        let code = line.rsplit(' ').next().unwrap().split('=').next().unwrap();
        let first = line.split(' ').nth(2).unwrap();
        let five = format!("52. ann: {first} k- {first} k- {first} k- {first} k- {first} {code}");
        let replay = replayed(
            &parse(&with_line(&text, index, &five)),
            ReplayOptions::default(),
        );
        // Points are not given on the edited line, and the Result may differ: only the rolls
        // count here.
        assert!(
            !matches!(replay, Err(Skip::Invalid(ref v)) if v.rule == Broken::RollCount),
            "{:?}",
            replay.err()
        );
        let six = five.replacen(" k- ", &format!(" k- {first} k- "), 1);
        assert_eq!(
            broken(&with_line(&text, index, &six)).rule,
            Broken::RollCount
        );
    }

    #[test]
    fn jamb_decisions_carry_the_announcement_and_the_pure_hand() {
        let text = jamb_6a_text();
        let game = parse(&text);
        let replay = replayed(&game, ReplayOptions::default()).unwrap();
        let mut announced_turns = 0;
        for (t, turn) in game.turns.iter().enumerate() {
            let decisions: Vec<&Decision> = replay
                .decisions
                .iter()
                .filter(|d| usize::from(d.turn) == t)
                .collect();
            assert_eq!(decisions.len(), turn.rolls().len());
            let slip = *decisions[0].sheet.jamb().unwrap();
            // Every decision of an announced turn names the Announce cell, roll 1's included.
            let cell = turn
                .announced
                .map(|code| slip.parse_cell(code.as_str()).unwrap());
            announced_turns += usize::from(cell.is_some());
            for (i, d) in decisions.iter().enumerate() {
                assert_eq!(d.announced, cell, "turn {t}");
                let pure = i == 0 || turn.keeps()[i - 1].faces().is_empty();
                assert_eq!(d.pure, pure, "turn {t} roll {}", i + 1);
                assert_eq!(d.jamb_turn().announced, cell.map(|c| c.jbox));
                assert_eq!(d.rolls_left(), slip.rolls_this_turn() - d.roll_number);
            }
        }
        assert!(announced_turns >= 5, "{announced_turns}");
        // Other games: no announcement, never pure.
        let log = include_str!("../fixtures/ygn/valid.ygn");
        let yahtzee = Format::Ygn
            .games(log.as_bytes(), "valid.ygn")
            .next()
            .expect("a game")
            .unwrap_or_else(|e| panic!("{e}"));
        let replay = replayed(&yahtzee, ReplayOptions::default()).unwrap();
        assert!(replay
            .decisions
            .iter()
            .all(|d| d.announced.is_none() && !d.pure));
    }

    #[test]
    fn four_rolls_before_the_last_turn_are_refused() {
        let text = jamb_6a_text();
        let (_, (index, line)) = announced_and_not(&text);
        let mut parts: Vec<&str> = line.split(' ').collect();
        // "N. ann: R1 kK R2 CELL": R1 rolled again twice after empty keeps.
        let first = parts[2].to_string();
        let extra = format!("{first} k- {first} k- {first}");
        parts[2] = &extra;
        let v = broken(&with_line(&text, index, &parts.join(" ")));
        assert_eq!(v.rule, Broken::RollCount);
        assert_eq!(v.says, "4 rolls");
        assert!(
            v.rules_give.contains("one to three rolls"),
            "{}",
            v.rules_give
        );
        assert!(
            v.rules_give.contains("5 on the game's last turn"),
            "{}",
            v.rules_give
        );
    }

    #[test]
    fn a_five_dice_roll_is_refused_in_jamb_6a() {
        let text = jamb_6a_text();
        let (index, line) = turn_lines(&text)[1].clone();
        let first = line.split(' ').nth(2).unwrap();
        let five = line.replacen(first, &first[..5], 1);
        assert_eq!(
            broken(&with_line(&text, index, &five)).rule,
            Broken::DiceCount
        );
    }

    /// The first turn line that announces, and one that does not.
    fn announced_and_not(text: &str) -> ((usize, String), (usize, String)) {
        let lines = turn_lines(text);
        let announced = lines
            .iter()
            .find(|(_, l)| l.contains(" @"))
            .unwrap()
            .clone();
        let plain = lines
            .iter()
            .find(|(_, l)| !l.contains(" @"))
            .unwrap()
            .clone();
        (announced, plain)
    }

    #[test]
    fn an_announcement_of_a_box_outside_the_announce_column_or_filled_is_refused() {
        let text = jamb_6a_text();
        let (_, (index, line)) = announced_and_not(&text);
        let first = line.split(' ').nth(2).unwrap();
        let outside = line.replacen(first, &format!("{first} @D:J"), 1);
        let v = broken(&with_line(&text, index, &outside));
        assert_eq!(
            (v.rule, v.says.as_str()),
            (Broken::BadAnnouncement, "@D:J after roll 1")
        );
        // A box announced and written in an earlier turn, announced again later.
        let lines = turn_lines(&text);
        let (first_index, first_line) = lines.iter().find(|(_, l)| l.contains(" @")).unwrap();
        let cell = first_line
            .split(" @")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let (later, later_line) = lines
            .iter()
            .find(|(i, l)| i > first_index && !l.contains(" @"))
            .unwrap();
        let roll = later_line.split(' ').nth(2).unwrap();
        let again = later_line.replacen(roll, &format!("{roll} @{cell}"), 1);
        let v = broken(&with_line(&text, *later, &again));
        assert_eq!(v.rule, Broken::BadAnnouncement);
        assert_eq!(v.rules_give, "an empty box of the Announce column");
        // No Announce column at all: the first turn's announcement is refused under jamb-5.
        assert!(turn_lines(&text)[0].1.contains(" @"));
        let v = broken(&text.replace("jamb-6a", "jamb-5"));
        assert_eq!(v.rule, Broken::BadAnnouncement);
        assert_eq!(
            v.rules_give,
            "no announcement: jamb-5 has no Announce column"
        );
    }

    #[test]
    fn an_announced_turn_written_elsewhere_is_refused() {
        let text = jamb_6a_text();
        let lines = turn_lines(&text);
        // A turn that wrote outside the Announce column, announcing an empty Announce box.
        let (index, line) = lines
            .iter()
            .find(|(_, l)| !l.contains(" @") && !l.contains(" A:"))
            .unwrap();
        let roll = line.split(' ').nth(2).unwrap();
        let announced = line.replacen(roll, &format!("{roll} @A:J"), 1);
        let v = broken(&with_line(&text, *index, &announced));
        assert_eq!(v.rule, Broken::AnnouncedElsewhere);
        assert!(v.says.ends_with("after announcing A:J"), "{}", v.says);
    }

    #[test]
    fn an_announce_box_needs_an_announcement_or_a_pure_hand() {
        let text = jamb_6a_text();
        let ((index, line), _) = announced_and_not(&text);
        // Announced with dice kept before the last roll: without the announcement, refused.
        assert!(line.contains(" k") && !line.contains(" k-"), "{line}");
        let at = line.split(" @").nth(1).unwrap().split(' ').next().unwrap();
        let unannounced = line.replacen(&format!(" @{at}"), "", 1);
        let v = broken(&with_line(&text, index, &unannounced));
        assert_eq!(v.rule, Broken::AnnounceUnannounced);
        assert!(v.rules_give.contains("pure hand"), "{}", v.rules_give);
        // The same turn with nothing kept before its last roll: a pure hand, legal (its points
        // and the Result are those of the same dice).
        let keep = unannounced.split(' ').find(|w| w.starts_with('k')).unwrap();
        let pure = unannounced.replacen(keep, "k-", 1);
        let replay = replayed(
            &parse(&with_line(&text, index, &pure)),
            ReplayOptions::default(),
        );
        assert!(replay.is_ok(), "{:?}", replay.err());
    }

    #[test]
    fn every_broken_rule_has_its_own_name() {
        let all = Broken::ALL;
        let names: std::collections::HashSet<&str> = all.iter().map(|b| b.name()).collect();
        assert_eq!(names.len(), all.len(), "summaries count skips by name");
        let skip = Skip::Invalid(violation(&edited("3. ann: 33345 3=9", "3. ann: 33345 3=8")));
        assert_eq!(skip.reason(), "wrong points");
    }

    /// Points earned with bonuses (as yatzy-solver logs give them) are checked against what
    /// the sheet gains: ann's sixes in round 6 bring her upper total to 64, so they earn
    /// 18 + 35.
    #[test]
    fn earned_points_include_the_bonuses() {
        let mut game = parse(GAME);
        let sixes = 10;
        assert_eq!(game.turns[sixes].category.as_str(), "6");
        game.turns[sixes].earned = Some(53);
        game.turns[1].earned = Some(50);
        assert!(replayed(&game, ReplayOptions::default()).is_ok());
        game.turns[sixes].earned = Some(18);
        let v = violation(&game);
        assert_eq!(
            (v.rule, v.line, v.round),
            (Broken::WrongPoints, game.turns[sixes].line, Some(6))
        );
        assert_eq!(v.says, "6=18 (with bonuses) for 12666");
        assert_eq!(v.rules_give, "6=53 (with bonuses)");
    }

    /// Five of a kind in the full house: joker points depend on the rule set.
    #[test]
    fn wrong_joker_points() {
        // yahtzee-kurnik: with the fours box filled, 44444 is a joker: FH scores 25, not 0.
        let mut game = GameRecord {
            players: vec!["ann".into()],
            rules: "yahtzee-kurnik".into(),
            termination: Termination::Abandoned,
            ..GameRecord::default()
        };
        let mut turn = dicelens_parsers::TurnRecord::new(1, 0, BoxCode::parse("4").unwrap());
        turn.set_first_roll([4, 4, 4, 1, 2].into());
        turn.points = Some(12);
        turn.line = 5;
        game.turns.push(turn.clone());
        turn.round = 2;
        turn.line = 6;
        turn.rolls_mut()[0] = [4, 4, 4, 4, 4].into();
        turn.category = BoxCode::parse("FH").unwrap();
        turn.points = Some(0);
        game.turns.push(turn);
        let mut out = Replayed::default();
        let options = ReplayOptions {
            include_unfinished: true,
        };
        match replay(&game, options, &mut out) {
            Err(Skip::Invalid(v)) => {
                assert_eq!((v.rule, v.line), (Broken::WrongPoints, 6));
                assert_eq!(v.rules_give, "FH=25");
            }
            other => panic!("{other:?}"),
        }
        // The same turn is right with 25, and under yahtzee-free (Yahtzee box free) it scores 0.
        game.turns[1].points = Some(25);
        assert!(replay(&game, options, &mut out).is_ok());
        game.rules = "yahtzee-free".into();
        assert!(
            matches!(replay(&game, options, &mut out), Err(Skip::Invalid(v)) if v.rules_give == "FH=0")
        );
        // Official rules, Yahtzee box filled: 44444 must go to the fours box when it is free.
        game.rules = "yahtzee".into();
        game.turns[0].category = BoxCode::parse("Y").unwrap();
        game.turns[0].points = Some(0);
        match replay(&game, options, &mut out) {
            Err(Skip::Invalid(v)) => {
                assert_eq!(v.rule, Broken::BoxNotAllowed);
                assert!(v.rules_give.contains("must go to 4"), "{}", v.rules_give);
            }
            other => panic!("{other:?}"),
        }
    }
}

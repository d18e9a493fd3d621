//! Games played on the board, held in memory: play mode (the server rolls the dice; the oracle
//! may play some seats; an optional coach flags costly choices), entry mode (a game played on
//! paper or with real dice: the person enters each roll) and what-if (a game followed from one
//! of its decisions along another option; not recorded). Play and entry games are written as
//! YGN after every turn, marked abandoned until every box is filled.

use super::api::{CoachFlag, SessionView, Valued};
use super::board::{kept_marks, mark_chosen, option_label, sheet_views, unit_name, value_options};
use crate::dice::Dice;
use crate::output::prepare_file;
use crate::pipeline::OracleRegistry;
use crate::rules::{Choice, PlayerSheet};
use crate::rules::{GameFamily, GameRules};
use crate::solve::match_points::Method;
use dicelens_parsers::{BoxCode, Format, GameRecord, Keep, Roll, Termination, TurnRecord};
use rand::Rng;
use std::path::PathBuf;

/// The coach's default threshold in points.
pub const COACH_POINTS: f64 = 0.2;
/// The coach's default threshold in match points.
pub const COACH_MATCH_POINTS: f64 = 0.01;
/// Most players a session seats.
const MOST_PLAYERS: usize = 8;

/// What a session is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The server rolls the dice.
    Play,
    /// The person enters the dice.
    Entry,
    /// A game followed from one of its decisions (dice rolled or entered); not recorded.
    WhatIf,
}

impl Mode {
    /// The mode's name in the API.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Play => "play",
            Mode::Entry => "entry",
            Mode::WhatIf => "whatif",
        }
    }
}

/// A game in progress on the board.
pub struct Session {
    id: String,
    mode: Mode,
    record: GameRecord,
    sheets: Vec<PlayerSheet>,
    box_points: Vec<u32>,
    oracle_seats: Vec<usize>,
    coach: Option<f64>,
    seat: usize,
    round: u16,
    /// The rolls of the turn in hand, faces in the order rolled.
    rolls: Vec<Vec<u8>>,
    /// The keeps of the turn in hand.
    keeps: Vec<Dice>,
    flags: Vec<CoachFlag>,
    log: Vec<String>,
    file: Option<PathBuf>,
}

/// A request a session refuses, and why (an HTTP 400 or 409).
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal(pub String);

impl<T: Into<String>> From<T> for Refusal {
    fn from(why: T) -> Refusal {
        Refusal(why.into())
    }
}

/// A player's name as the board accepts it: 1 to 40 letters, digits, `_`, `-` or `.`.
fn check_name(name: &str) -> Result<(), Refusal> {
    let ok = !name.is_empty()
        && name.len() <= 40
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if ok {
        Ok(())
    } else {
        Err(format!("player name '{name}': 1 to 40 letters, digits, '_', '-' or '.'").into())
    }
}

impl Session {
    /// A new game of `rules` for `players` (play or entry mode), recorded in `file` when given.
    pub fn new(
        id: String,
        mode: Mode,
        rules: &str,
        players: Vec<String>,
        oracle_seats: Vec<usize>,
        coach: Option<f64>,
        file: Option<PathBuf>,
    ) -> Result<Session, Refusal> {
        let rules: GameRules = rules.parse().map_err(|e| Refusal(format!("{e}")))?;
        if players.is_empty() || players.len() > MOST_PLAYERS {
            return Err(format!("1 to {MOST_PLAYERS} players").into());
        }
        for (i, name) in players.iter().enumerate() {
            check_name(name)?;
            if players[..i].contains(name) {
                return Err(format!("player name '{name}' given twice").into());
            }
        }
        if let Some(seat) = oracle_seats.iter().find(|&&s| s >= players.len()) {
            return Err(format!("oracle seat {seat}: the game has {} seats", players.len()).into());
        }
        if mode != Mode::Play && !oracle_seats.is_empty() {
            return Err("the oracle plays seats in play mode only".into());
        }
        let game_id = file
            .as_ref()
            .and_then(|f| f.file_stem())
            .map_or_else(|| id.clone(), |s| s.to_string_lossy().into_owned());
        let record = GameRecord {
            players: players.clone(),
            rules: rules.name().to_string(),
            provenance: dicelens_parsers::Provenance {
                game_id,
                ..Default::default()
            },
            ..GameRecord::default()
        };
        let mut session = Session {
            id,
            mode,
            record,
            sheets: vec![PlayerSheet::empty(rules); players.len()],
            box_points: Vec::new(),
            oracle_seats,
            coach,
            seat: 0,
            round: 1,
            rolls: Vec::new(),
            keeps: Vec::new(),
            flags: Vec::new(),
            log: Vec::new(),
            file,
        };
        let coach = coach.map(|t| session.default_threshold(t));
        session.coach = coach;
        Ok(session)
    }

    /// A what-if session: the position of a decision of `record` (replayed into `sheets`
    /// before turn `turn`, `box_points` of the turns before), the turn's rolls and keeps up to
    /// roll `roll_number`, then `option` followed.
    #[allow(clippy::too_many_arguments)]
    pub fn what_if(
        id: String,
        record: &GameRecord,
        turn: usize,
        roll_number: u8,
        sheets: Vec<PlayerSheet>,
        box_points: Vec<u32>,
        option: &str,
        registry: &mut OracleRegistry,
        method: Method,
    ) -> Result<Session, Refusal> {
        let Some(played) = record.turns.get(turn) else {
            return Err("no such turn".into());
        };
        let n = usize::from(roll_number);
        let mut game = record.clone();
        game.turns.truncate(turn);
        let mut session = Session {
            id,
            mode: Mode::WhatIf,
            record: game,
            sheets,
            box_points: box_points.into_iter().take(turn).collect(),
            oracle_seats: Vec::new(),
            coach: None,
            seat: usize::from(played.seat),
            round: played.round,
            rolls: played
                .rolls()
                .iter()
                .take(n)
                .map(|r| r.faces().to_vec())
                .collect(),
            keeps: played
                .keeps()
                .iter()
                .take(n.saturating_sub(1))
                .filter_map(|k| Dice::from_faces(k.faces()))
                .collect(),
            flags: Vec::new(),
            log: Vec::new(),
            file: None,
        };
        session.choose(option, registry, method)?;
        Ok(session)
    }

    /// `threshold`, or the unit's default when it is not positive.
    fn default_threshold(&self, threshold: f64) -> f64 {
        if threshold > 0.0 {
            threshold
        } else if unit_name(&self.sheets) == "match points" {
            COACH_MATCH_POINTS
        } else {
            COACH_POINTS
        }
    }

    /// The session's key.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// True when every box of every sheet is filled.
    fn over(&self) -> bool {
        self.sheets.iter().all(PlayerSheet::is_complete)
    }

    /// The dice on the table: the last roll of the turn, if a roll is waiting for a choice.
    fn dice(&self) -> Option<Dice> {
        if self.rolls.len() > self.keeps.len() {
            self.rolls.last().and_then(|r| Dice::from_faces(r))
        } else {
            None
        }
    }

    /// The roll number of the dice on the table.
    fn roll_number(&self) -> u8 {
        self.rolls.len() as u8
    }

    /// Rolls the dice: `entered` (all the dice on the table after the roll, or only the dice
    /// rolled), or random ones from `rng` (play and what-if modes).
    pub fn roll(&mut self, entered: Option<&str>, rng: &mut impl Rng) -> Result<(), Refusal> {
        if self.over() {
            return Err("the game is over".into());
        }
        if self.dice().is_some() {
            return Err("the dice are on the table: choose an option first".into());
        }
        let count = self.record_rules_dice();
        let kept = self.keeps.last().map(Dice::faces).unwrap_or_default();
        let faces = match entered {
            Some(text) => {
                let mut given = Vec::new();
                for c in text.chars().filter(|c| !c.is_whitespace() && *c != ',') {
                    match c.to_digit(10) {
                        Some(d @ 1..=6) => given.push(d as u8),
                        _ => return Err(format!("dice '{text}': digits 1 to 6").into()),
                    }
                }
                if given.len() == count {
                    let all = Dice::from_faces(&given).ok_or("dice 1 to 6")?;
                    let keep = Dice::from_faces(&kept).ok_or("dice 1 to 6")?;
                    if all.minus(&keep).is_none() {
                        return Err(
                            format!("dice '{text}' do not hold the kept dice {keep}").into()
                        );
                    }
                    given
                } else if given.len() + kept.len() == count {
                    kept.iter().copied().chain(given).collect()
                } else {
                    return Err(format!(
                        "dice '{text}': {count} dice, or the {} rolled",
                        count - kept.len()
                    )
                    .into());
                }
            }
            None if self.mode == Mode::Entry => {
                return Err("entry mode: enter the dice rolled".into());
            }
            None => {
                let fresh = (kept.len()..count).map(|_| rng.gen_range(1..=6u8));
                kept.iter().copied().chain(fresh).collect()
            }
        };
        self.rolls.push(faces);
        Ok(())
    }

    /// Dice of a roll of the session's rule set.
    fn record_rules_dice(&self) -> usize {
        self.sheets.first().map_or(5, |s| s.rules().dice())
    }

    /// Every option of the dice on the table, valued, the best first.
    pub fn valued(&self, registry: &mut OracleRegistry, method: Method) -> Option<Valued> {
        let dice = self.dice()?;
        let roll = self.roll_number();
        Some(value_options(
            registry,
            method,
            &self.sheets,
            self.seat,
            &dice,
            roll,
        ))
    }

    /// Takes `option` (`keep 66`, `keep -`, `score 3K`) for the dice on the table; the coach
    /// flags it when it costs more than its threshold. A game recorded is written after a box
    /// is filled.
    pub fn choose(
        &mut self,
        option: &str,
        registry: &mut OracleRegistry,
        method: Method,
    ) -> Result<(), Refusal> {
        let Some(dice) = self.dice() else {
            return Err("no dice on the table: roll first".into());
        };
        let roll_number = self.roll_number();
        let sheet = self.sheets[self.seat];
        let option = option.trim();
        let choice = if let Some(kept) = option.strip_prefix("keep ") {
            let faces: Vec<u8> = match kept.trim() {
                "-" => Vec::new(),
                digits => digits
                    .chars()
                    .map(|c| match c.to_digit(10) {
                        Some(d @ 1..=6) => Ok(d as u8),
                        _ => Err(Refusal(format!("keep '{digits}': digits 1 to 6 or '-'"))),
                    })
                    .collect::<Result<_, _>>()?,
            };
            let keep = Dice::from_faces(&faces).ok_or("keep: too many dice")?;
            if dice.minus(&keep).is_none() {
                return Err(format!("keep {keep}: not among the dice {dice}").into());
            }
            if !sheet.may_roll_again(roll_number) {
                return Err("no roll left: score a box".into());
            }
            Choice::Keep(keep)
        } else if let Some(code) = option.strip_prefix("score ") {
            sheet
                .write(code.trim(), &dice, roll_number)
                .map_err(|why| Refusal(format!("score {code}: {why:?}")))?
                .choice
        } else {
            return Err(format!("option '{option}': keep DICE, keep - or score BOX").into());
        };
        let label = option_label(&sheet, choice);
        if let Some(threshold) = self
            .coach
            .filter(|_| !self.oracle_seats.contains(&self.seat))
        {
            if let Some(valued) = self.valued(registry, method) {
                let valued = mark_chosen(valued, &label);
                let taken = valued.options.iter().find(|o| o.chosen);
                if let (Some(taken), Some(best)) = (taken, valued.options.first()) {
                    if taken.loss > threshold {
                        self.flags.push(CoachFlag {
                            round: self.round,
                            roll: roll_number,
                            player: self.player(self.seat),
                            chosen: label.clone(),
                            loss: taken.loss,
                            best: best.option.clone(),
                            unit: valued.unit,
                        });
                    }
                }
            }
        }
        match choice {
            Choice::Keep(keep) => self.keeps.push(keep),
            _ => self.score(code_of(&sheet, choice), &dice, roll_number)?,
        }
        Ok(())
    }

    /// The name of seat `seat`.
    fn player(&self, seat: usize) -> String {
        self.record.players.get(seat).cloned().unwrap_or_default()
    }

    /// Writes the dice in the box `code`, ends the turn, and writes the record.
    fn score(&mut self, code: String, dice: &Dice, roll_number: u8) -> Result<(), Refusal> {
        let written = self.sheets[self.seat]
            .write(&code, dice, roll_number)
            .map_err(|why| Refusal(format!("score {code}: {why:?}")))?;
        let category = BoxCode::parse(&code).ok_or("unknown box")?;
        let mut turn = TurnRecord::new(self.round, self.seat as u8, category);
        turn.points = u16::try_from(written.points).ok();
        let rolls = (self.rolls.iter().take(usize::from(roll_number)))
            .map(|faces| Roll::new(faces).ok_or("a roll of no dice"))
            .collect::<Result<Vec<Roll>, _>>()?;
        let keeps = (self.keeps.iter())
            .map(|keep| Keep::new(&keep.faces()).ok_or("a keep of too many dice"))
            .collect::<Result<Vec<Keep>, _>>()?;
        turn.set_rolls(&rolls, &keeps)
            .map_err(|too_many| Refusal(too_many.to_string()))?;
        self.record.turns.push(turn);
        self.box_points.push(written.points);
        self.sheets[self.seat] = written.after;
        self.rolls.clear();
        self.keeps.clear();
        self.seat += 1;
        if self.seat == self.sheets.len() {
            self.seat = 0;
            self.round += 1;
        }
        self.write_record()
    }

    /// Writes the game as YGN into its file (play and entry modes): unfinished games marked
    /// `abandoned`, finished ones with their result.
    fn write_record(&mut self) -> Result<(), Refusal> {
        let Some(file) = &self.file else {
            return Ok(());
        };
        let over = self.over();
        self.record.termination = if over {
            Termination::Normal
        } else {
            Termination::Abandoned
        };
        self.record.result = over.then(|| {
            self.sheets
                .iter()
                .map(|s| u32::try_from(s.points().max(0)).unwrap_or(0))
                .collect()
        });
        let mut text = Vec::new();
        Format::Ygn
            .write_game(&self.record, &mut text)
            .map_err(|e| Refusal(e.to_string()))?;
        prepare_file(file, &text)
            .and_then(|f| f.commit())
            .map_err(|e| Refusal(e.to_string()))
    }

    /// Plays the oracle's seats until a person is to move or the game is over, each roll drawn
    /// from `rng` and each option the best by `method`.
    pub fn play_oracle(
        &mut self,
        registry: &mut OracleRegistry,
        method: Method,
        rng: &mut impl Rng,
    ) -> Result<(), Refusal> {
        self.log.clear();
        while !self.over() && self.oracle_seats.contains(&self.seat) {
            if self.dice().is_none() {
                self.roll(None, rng)?;
            }
            let valued = self.valued(registry, method).ok_or("no dice")?;
            let Some(best) = valued.options.first() else {
                return Err(valued.error.unwrap_or_else(|| "no option".into()).into());
            };
            let line = format!(
                "{} (oracle), round {}: {} {}",
                self.player(self.seat),
                self.round,
                self.rolls.last().map(|r| faces_text(r)).unwrap_or_default(),
                best.option
            );
            self.log.push(line);
            let option = best.option.clone();
            self.choose(&option, registry, method)?;
        }
        Ok(())
    }

    /// The session as the board shows it.
    pub fn view(&self, registry: &mut OracleRegistry, method: Method) -> SessionView {
        let dice = self.dice();
        let kept = match dice {
            Some(_) => Vec::new(),
            None => self.keeps.last().map(Dice::faces).unwrap_or_default(),
        };
        SessionView {
            id: self.id.clone(),
            mode: self.mode.name(),
            rules: self.record.rules.clone(),
            players: self.record.players.clone(),
            oracle_seats: self.oracle_seats.clone(),
            phase: if self.over() {
                "over"
            } else if dice.is_some() {
                "choose"
            } else {
                "roll"
            },
            seat: self.seat,
            round: self.round,
            roll: self.roll_number(),
            kept,
            dice: dice.map(|d| d.faces()).unwrap_or_default(),
            dice_kept: self.kept_marks(),
            sheets: sheet_views(
                &self.record,
                self.record.turns.len(),
                &self.box_points,
                &self.sheets,
            ),
            valued: self.valued(registry, method),
            flags: self.flags.clone(),
            log: self.log.clone(),
            record: self.file.as_ref().map(|f| f.display().to_string()),
        }
    }

    /// For each die on the table, whether the keep of the last decision kept it (none: a
    /// fresh roll).
    pub fn kept_marks(&self) -> Vec<bool> {
        match (self.dice(), self.keeps.last()) {
            (Some(dice), Some(&keep)) if self.keeps.len() + 1 == self.rolls.len() => {
                kept_marks(&dice, Choice::Keep(keep))
            }
            (Some(dice), _) => vec![false; dice.len()],
            _ => Vec::new(),
        }
    }
}

/// The box code of a box choice on `sheet`.
fn code_of(sheet: &PlayerSheet, choice: Choice) -> String {
    sheet.code_of(choice).unwrap_or_default()
}

/// Faces as digits.
fn faces_text(faces: &[u8]) -> String {
    faces.iter().map(|f| char::from(b'0' + f)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn session(mode: Mode) -> Session {
        Session::new(
            "s".into(),
            mode,
            "yahtzee",
            vec!["ann".into()],
            Vec::new(),
            None,
            None,
        )
        .expect("a session")
    }

    #[test]
    fn names_and_seats_are_checked() {
        let bad = |players: Vec<&str>, oracle: Vec<usize>| {
            let players = players.into_iter().map(String::from).collect();
            Session::new(
                "s".into(),
                Mode::Play,
                "yahtzee",
                players,
                oracle,
                None,
                None,
            )
            .is_err()
        };
        assert!(bad(vec!["a b"], vec![]));
        assert!(bad(vec!["ann", "ann"], vec![]));
        assert!(bad(vec!["ann"], vec![1]));
        assert!(bad(vec![], vec![]));
        assert!(!bad(vec!["ann", "bob"], vec![1]));
        let unknown = Session::new(
            "s".into(),
            Mode::Play,
            "nope",
            vec!["a".into()],
            vec![],
            None,
            None,
        );
        assert!(unknown.is_err());
    }

    #[test]
    fn entered_dice_keep_the_kept_dice_and_refuse_others() {
        let mut s = session(Mode::Entry);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        assert!(s.roll(None, &mut rng).is_err(), "entry mode needs the dice");
        s.roll(Some("66123"), &mut rng).expect("five dice");
        s.keeps.push(Dice::from_faces(&[6, 6]).expect("keep"));
        assert!(
            s.roll(Some("12345"), &mut rng).is_err(),
            "the kept 66 are missing"
        );
        s.roll(Some("456"), &mut rng).expect("the three rolled");
        assert_eq!(s.rolls[1], [6, 6, 4, 5, 6]);
        assert_eq!(s.kept_marks(), [false, false, true, true, false]);
    }

    #[test]
    fn play_mode_rolls_keep_the_kept_dice() {
        let mut s = session(Mode::Play);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        s.roll(None, &mut rng).expect("a roll");
        let first = s.rolls[0].clone();
        assert_eq!(first.len(), 5);
        s.keeps.push(Dice::from_faces(&first[..2]).expect("keep"));
        s.roll(None, &mut rng).expect("a second roll");
        assert_eq!(s.rolls[1][..2], first[..2]);
        assert!(s.rolls[1].iter().all(|f| (1..=6).contains(f)));
    }
}

//! The game logs of the public solver precisit/yatzy-solver (MIT; `docs/formats/yatzy-solver.md`):
//! JSON lines, one game per line, its decisions in the solver's text notation ([`notation`]):
//!
//! ```text
//! {"variant":"yatzy-scandinavian","rng":1,"seed":1,"game":0,"score":189,"decisions":[{"situation":"dice 1 2 6 6 6 | rolls 2 | upper 0 | filled -","action":"keep 6 6 6","points":null}, ...]}
//! ```
//!
//! Every non-blank line is one game (so a reader over a byte range needs no look back). Turns
//! are rebuilt from the decisions: a situation with `rolls 2` opens a turn, the situation after
//! a `keep` shows the turn's next roll, and `score <id>` ends the turn, its `points` (bonuses
//! included) kept as [`crate::TurnRecord::earned`]. The format names no player: the player is
//! named after the file's stem, and the game id is `<stem>:<seed>-<game>`.
//!
//! The reader checks what the log says of itself: the JSON, the notation, that each situation
//! continues its turn, and that the state in each situation (`upper`, `filled`, the
//! five-of-a-kind field) is what the decisions before it made. The rules (keeps out of the
//! roll, boxes, points, missing rounds, the final score) are the replay's business.

pub mod notation;
pub mod variant;

use crate::cursor::{lossy, Cursor, ErrorSite, SourceLine};
use crate::{GameReader, GameRecord, Keep, ParseError, Roll, Termination, TurnRecord};
use notation::{Action, NotationError, Situation};
use serde::Deserialize;
use std::borrow::Cow;
use std::ops::Range;
use variant::{Family, Variant, FIVE_OF_A_KIND_FIELDS};

/// Whether a first line looks like a yatzy-solver game (a JSON object with its fields).
pub fn looks_like(first_line: &[u8]) -> bool {
    memchr::memmem::find(first_line, b"\"decisions\"").is_some()
        && memchr::memmem::find(first_line, b"\"variant\"").is_some()
}

/// One line of a log: a game.
#[derive(Deserialize)]
struct LoggedGame<'a> {
    #[serde(borrow)]
    variant: Cow<'a, str>,
    seed: u64,
    game: u64,
    score: u32,
    #[serde(borrow)]
    decisions: Vec<LoggedDecision<'a>>,
}

/// One decision of a game.
#[derive(Deserialize)]
struct LoggedDecision<'a> {
    #[serde(borrow)]
    situation: Cow<'a, str>,
    #[serde(borrow)]
    action: Cow<'a, str>,
    #[serde(default)]
    points: Option<u16>,
}

/// What names a game, read from a line whose game does not read (for the error's game id).
#[derive(Deserialize)]
struct GameNumbers {
    seed: u64,
    game: u64,
}

/// A reader of yatzy-solver game logs.
pub struct Reader<'a> {
    /// The next line to read, where the last game returned begins, where the range ends.
    lines: Cursor<'a>,
    file: &'a str,
    /// The player every game of the file is played by: the file's stem.
    player: String,
}

impl<'a> Reader<'a> {
    /// A reader over `content`, naming `file` in records and errors.
    pub fn new(content: &'a [u8], file: &'a str) -> Reader<'a> {
        Reader::with_range(content, file, 0..usize::MAX)
    }

    /// A reader of the games of `content` that begin in `range` (see
    /// [`crate::Format::range_reader`]): every non-blank line is a game, so it starts at the
    /// first line that begins in the range.
    pub fn with_range(content: &'a [u8], file: &'a str, range: Range<usize>) -> Reader<'a> {
        Reader::resuming(Cursor::for_range(content, range), file)
    }

    /// A reader of the games from the line `lines` stands at on.
    pub(crate) fn resuming(lines: Cursor<'a>, file: &'a str) -> Reader<'a> {
        Reader {
            lines,
            file,
            player: crate::player_from_file(file),
        }
    }

    /// Reads the game on `line` into `out`.
    fn read_line(&self, line: &SourceLine<'a>, out: &mut GameRecord) -> Result<(), ParseError> {
        let game: LoggedGame<'a> = serde_json::from_slice(line.text).map_err(|error| {
            let numbers = serde_json::from_slice::<GameNumbers>(line.text).ok();
            let game_id = numbers.map(|n| self.game_id(n.seed, n.game));
            let site = ErrorSite {
                file: self.file,
                game_id: game_id.as_deref(),
                game_line: line.number,
            };
            json_error(&error, line, &site)
        })?;
        let game_id = self.game_id(game.seed, game.game);
        let site = ErrorSite {
            file: self.file,
            game_id: Some(&game_id),
            game_line: line.number,
        };
        let at = Located { line, site: &site };
        let Some(variant) = variant::variant(&game.variant) else {
            let expected = "a variant: yatzy-scandinavian or american (or yahtzee), \
                            with any `+` switches";
            return Err(at.in_string(&game.variant, 0, expected, &game.variant));
        };
        let mut turns = TurnBuilder::new(&variant, at);
        for decision in &game.decisions {
            turns.take(decision, &mut out.turns)?;
        }
        turns.finish(game.decisions.last())?;
        out.players.push(self.player.clone());
        out.rules.push_str(&variant.rules);
        out.provenance.file.push_str(self.file);
        out.provenance.line = line.number;
        out.provenance.game_id = game_id;
        out.termination = Termination::Normal;
        out.result = Some(vec![game.score]);
        Ok(())
    }

    /// The id of game `game` of seed `seed` in this file: `<stem>:<seed>-<game>` (the stem
    /// keeps apart the games of two players logged on the same seeds).
    fn game_id(&self, seed: u64, game: u64) -> String {
        format!("{}:{seed}-{game}", self.player)
    }
}

impl GameReader for Reader<'_> {
    fn read_game(&mut self, out: &mut GameRecord) -> Option<Result<(), ParseError>> {
        out.clear();
        let mark = self.lines.mark();
        let line = self.lines.next_nonblank_line()?;
        if !self.lines.begins_in_range(&line) {
            self.lines.rewind(mark);
            return None;
        }
        self.lines.start_game(&line);
        let result = self.read_line(&line, out);
        if result.is_err() {
            out.clear();
        }
        Some(result)
    }

    fn consumed(&self) -> usize {
        self.lines.offset()
    }

    fn game_offset(&self) -> usize {
        self.lines.game_start()
    }
}

/// Where the errors of one game go: its line and its site.
#[derive(Clone, Copy)]
struct Located<'l> {
    line: &'l SourceLine<'l>,
    site: &'l ErrorSite<'l>,
}

impl Located<'_> {
    /// The byte offset in the line of the string `text` read from it, when serde borrowed it
    /// (it has no escapes, so its bytes are the line's); `None` for a string serde unescaped
    /// into memory of its own.
    fn borrowed_offset(&self, text: &str) -> Option<usize> {
        let line = self.line.text;
        (text.as_ptr() as usize)
            .checked_sub(line.as_ptr() as usize)
            .filter(|&offset| offset + text.len() <= line.len())
    }

    /// The byte offset in the line of byte `within` of the string `text` read from it: exact
    /// for a string without escapes; else the offset of the `decisions` key.
    fn offset_of(&self, text: &str, within: usize) -> usize {
        self.borrowed_offset(text)
            .map(|offset| offset + within)
            .or_else(|| memchr::memmem::find(self.line.text, b"\"decisions\""))
            .unwrap_or(0)
    }

    /// An error at byte `within` of the string `text` read from the line.
    fn in_string(
        &self,
        text: &str,
        within: usize,
        expected: impl Into<String>,
        found: &str,
    ) -> ParseError {
        let offset = self.offset_of(text, within);
        self.site.in_line(self.line, offset, expected, found)
    }

    /// An error where the notation in `text` does not read.
    fn notation(&self, text: &str, error: &NotationError) -> ParseError {
        let within = error.column.saturating_sub(1);
        let found = text.get(within..).unwrap_or_default();
        self.in_string(text, within, error.expected, found)
    }

    /// An error about the `points` of the decision whose situation is `situation`: at its
    /// `points` key when the line has one after the decision's opening brace, else at the
    /// situation.
    fn points(&self, situation: &str, expected: &str, found: &str) -> ParseError {
        let line = self.line.text;
        let start = self.offset_of(situation, 0);
        let object = memchr::memrchr(b'{', line.get(..start).unwrap_or_default()).unwrap_or(start);
        let key = line
            .get(object..)
            .and_then(|rest| memchr::memmem::find(rest, b"\"points\""))
            .map_or(start, |at| object + at);
        self.site.in_line(self.line, key, expected, found)
    }
}

/// Turns a serde_json error into a [`ParseError`] at serde's column (in characters; at the end
/// of the line for input that ends too soon).
fn json_error(
    error: &serde_json::Error,
    line: &SourceLine<'_>,
    site: &ErrorSite<'_>,
) -> ParseError {
    let (offset, message) = crate::jsonl::json_error_place(error, line);
    let found = lossy(line.text.get(offset..).unwrap_or_default());
    let expected = if error.is_data() {
        format!("a game of a yatzy-solver log ({message})")
    } else {
        format!("valid JSON ({message})")
    };
    site.in_line(line, offset, expected, &found)
}

/// A turn whose `score` has not come yet.
struct OpenTurn {
    record: TurnRecord,
    /// The rerolls left in the last situation.
    rerolls: u8,
    /// The last keep, as written (for messages).
    keep: String,
    /// The last keep's dice, kept before the next roll.
    kept: Keep,
}

/// Rebuilds the turns of one game from its decisions, checking each situation against the
/// decisions before it.
struct TurnBuilder<'l> {
    family: Family,
    /// The state has the five-of-a-kind field once that box is filled.
    five_of_a_kind_field: bool,
    at: Located<'l>,
    /// The categories scored so far (bit = index in score-card order).
    filled: u32,
    /// The upper total so far, from the dice scored in the upper boxes.
    upper: u32,
    /// What the five-of-a-kind box holds, once filled.
    five_of_a_kind: Option<u32>,
    /// The turn being read.
    open: Option<OpenTurn>,
}

impl<'l> TurnBuilder<'l> {
    fn new(variant: &Variant<'_>, at: Located<'l>) -> TurnBuilder<'l> {
        TurnBuilder {
            family: variant.family,
            five_of_a_kind_field: variant.five_of_a_kind_field,
            at,
            filled: 0,
            upper: 0,
            five_of_a_kind: None,
            open: None,
        }
    }

    /// Takes one decision; a `score` pushes the turn it ends onto `turns`.
    fn take(
        &mut self,
        decision: &LoggedDecision<'_>,
        turns: &mut Vec<TurnRecord>,
    ) -> Result<(), ParseError> {
        let text = &decision.situation;
        let situation: Situation = text.parse().map_err(|e| self.at.notation(text, &e))?;
        let field = |keyword: &str| text.find(keyword).unwrap_or(0);
        // How many dice the rule set rolls is the replay's business.
        let Some(dice) = Roll::new(&situation.dice) else {
            let found = format!("{} dice", situation.dice.len());
            return Err(self
                .at
                .in_string(text, field("dice"), "one to six dice", &found));
        };
        self.check_state(&situation, text)?;
        let mut turn = self.next_roll(&situation, dice, text, turns.len())?;
        let action_text = &decision.action;
        let action: Action = action_text
            .parse()
            .map_err(|e| self.at.notation(action_text, &e))?;
        match action {
            Action::Keep(kept) => {
                if situation.rerolls == 0 {
                    let expected = "score ID (no rerolls are left)";
                    return Err(self.at.in_string(action_text, 0, expected, action_text));
                }
                let Some(keep) = Keep::new(&kept) else {
                    let found = format!("{} dice", kept.len());
                    return Err(self
                        .at
                        .in_string(action_text, 0, "at most six dice", &found));
                };
                if let Some(points) = decision.points {
                    let expected = "`points`: null after a keep";
                    return Err(self.at.points(text, expected, &points.to_string()));
                }
                turn.kept = keep;
                turn.rerolls = situation.rerolls;
                turn.keep = action_text.to_string();
                self.open = Some(turn);
            }
            Action::Score(id) => {
                let Some(index) = self.family.index(&id) else {
                    let expected = format!("a category: {}", self.family.ids());
                    let within = action_text.find(id.as_str()).unwrap_or(0);
                    return Err(self.at.in_string(action_text, within, expected, &id));
                };
                let Some(points) = decision.points else {
                    let expected = "`points`: the points the category earned, a number";
                    return Err(self.at.points(text, expected, "null"));
                };
                turn.record.category = self.family.box_code(index);
                turn.record.earned = Some(points);
                turns.push(turn.record);
                self.scored(index, dice.faces());
            }
        }
        Ok(())
    }

    /// The turn with the roll `situation` shows: a new turn (`rolls 2`), or the open turn's
    /// next roll (one reroll fewer than its last situation).
    fn next_roll(
        &mut self,
        situation: &Situation,
        dice: Roll,
        text: &str,
        turns_so_far: usize,
    ) -> Result<OpenTurn, ParseError> {
        let within = text.find("rolls").unwrap_or(0);
        let found = format!("rolls {}", situation.rerolls);
        let Some(mut turn) = self.open.take() else {
            if situation.rerolls != 2 {
                let expected = "rolls 2 (a turn starts with its first roll)";
                return Err(self.at.in_string(text, within, expected, &found));
            }
            let Ok(round) = u16::try_from(turns_so_far + 1) else {
                let expected = "at most 65535 turns";
                return Err(self.at.in_string(text, 0, expected, "more"));
            };
            let mut record = TurnRecord {
                round,
                seat: 0,
                line: self.at.line.number,
                ..TurnRecord::default()
            };
            record.set_first_roll(dice);
            return Ok(OpenTurn {
                record,
                rerolls: 2,
                keep: String::new(),
                kept: Keep::default(),
            });
        };
        let rerolls = turn.rerolls.saturating_sub(1);
        if situation.rerolls != rerolls {
            let expected = format!(
                "rolls {rerolls} (the turn of round {} goes on after `{}`)",
                turn.record.round, turn.keep
            );
            return Err(self.at.in_string(text, within, expected, &found));
        }
        // The rerolls count down from 2, so a turn has at most three rolls, far below the limit.
        if let Err(too_many) = turn.record.push_roll(turn.kept, dice) {
            return Err(self
                .at
                .in_string(text, within, "a category", &too_many.to_string()));
        }
        Ok(turn)
    }

    /// Notes that the dice `dice` were scored in the category at `index`.
    fn scored(&mut self, index: usize, dice: &[u8]) {
        if self.filled & (1 << index) != 0 {
            return; // The replay reports the box filled twice.
        }
        self.filled |= 1 << index;
        if let Ok(face) = u8::try_from(index + 1) {
            if face <= 6 {
                let count = dice.iter().filter(|&&die| die == face).count() as u32;
                self.upper += u32::from(face) * count;
            }
        }
        if index == self.family.five_of_a_kind() {
            let same = dice.iter().all(|die| Some(die) == dice.first());
            self.five_of_a_kind = Some(if same { 50 } else { 0 });
        }
    }

    /// Checks the state of a situation (`upper`, `filled`, the five-of-a-kind field) against
    /// the decisions before it.
    fn check_state(&self, situation: &Situation, text: &str) -> Result<(), ParseError> {
        let at = |keyword: &str| text.find(keyword).unwrap_or(0);
        let mut filled = 0u32;
        for id in &situation.filled {
            let within = text.find(id.as_str()).unwrap_or(0);
            let Some(index) = self.family.index(id) else {
                let expected = format!("a category: {}", self.family.ids());
                return Err(self.at.in_string(text, within, expected, id));
            };
            if filled & (1 << index) != 0 {
                let expected = "each filled category once";
                return Err(self.at.in_string(text, within, expected, id));
            }
            filled |= 1 << index;
        }
        if filled != self.filled {
            let expected = format!(
                "filled {} (the categories scored before, in any order)",
                self.filled_ids()
            );
            let found = format!("filled {}", situation.filled.join(","));
            return Err(self.at.in_string(text, at("filled"), expected, &found));
        }
        if situation.upper != self.upper {
            let expected = format!("upper {} (the upper boxes scored before)", self.upper);
            let found = format!("upper {}", situation.upper);
            return Err(self.at.in_string(text, at("upper"), expected, &found));
        }
        self.check_five_of_a_kind(situation, text)
    }

    /// Checks the five-of-a-kind field: present, holding what that box holds, once the box is
    /// filled in a variant whose state has it; absent otherwise.
    fn check_five_of_a_kind(&self, situation: &Situation, text: &str) -> Result<(), ParseError> {
        let wanted = self.five_of_a_kind.filter(|_| self.five_of_a_kind_field);
        match (&situation.five_of_a_kind, wanted) {
            (None, None) => Ok(()),
            (None, Some(points)) => {
                // Variants without the Yahtzee bonus never have the field.
                let expected = format!("`| five_of_a_kind {points}` (what the filled box holds)");
                Err(self
                    .at
                    .in_string(text, text.len(), expected, "end of the situation"))
            }
            (Some((name, points)), wanted) => {
                let within = text.rfind(name.as_str()).unwrap_or(0);
                let found = format!("{name} {points}");
                if wanted.is_none() {
                    let expected = "nothing after `filled` (no five-of-a-kind box is filled)";
                    return Err(self.at.in_string(text, within, expected, &found));
                }
                if !FIVE_OF_A_KIND_FIELDS.contains(&name.as_str()) {
                    let expected = "five_of_a_kind (or yahtzee_box, yahtzee)";
                    return Err(self.at.in_string(text, within, expected, &found));
                }
                match wanted {
                    Some(wanted) if wanted != *points => {
                        let expected = format!("{name} {wanted} (what the filled box holds)");
                        Err(self.at.in_string(text, within, expected, &found))
                    }
                    _ => Ok(()),
                }
            }
        }
    }

    /// The ids of the categories scored so far, in score-card order (`-` for none).
    fn filled_ids(&self) -> String {
        let ids: Vec<&str> = (0..16)
            .filter(|&index| self.filled & (1 << index) != 0)
            .map(|index| self.family.id(index))
            .collect();
        if ids.is_empty() {
            "-".to_string()
        } else {
            ids.join(",")
        }
    }

    /// Checks that the last decision ended its turn.
    fn finish(&self, last: Option<&LoggedDecision<'_>>) -> Result<(), ParseError> {
        match (&self.open, last) {
            (Some(turn), Some(last)) => {
                let expected = format!(
                    "a decision after `{}` (the turn of round {} has no score)",
                    turn.keep, turn.record.round
                );
                let within = last.action.len();
                Err(self
                    .at
                    .in_string(&last.action, within, expected, "the end of the decisions"))
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests;

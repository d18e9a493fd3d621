//! The canonical game record: what every parser produces and everything downstream reads.
//!
//! Rolls and keeps of up to [`MAX_DICE`] dice are plain inline data, and a turn holds its
//! first three rolls inline (only a longer turn, up to [`MAX_ROLLS_PER_TURN`] rolls, spills to
//! the heap), so a reader that refills one record game after game (see [`GameRecord::clear`])
//! allocates only for names and tags.

use crate::LineNumber;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use std::fmt;

/// Most dice a roll or a keep holds: the largest games of the family roll six.
pub const MAX_DICE: usize = 6;

/// Zero to [`MAX_DICE`] faces in the order written, stored inline (plain data, no allocation).
/// The slots past `len` stay zero, so equal faces compare and hash equal.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
struct Faces {
    len: u8,
    faces: [u8; MAX_DICE],
}

impl Faces {
    /// The faces given; `None` for more than [`MAX_DICE`].
    #[inline]
    fn new(faces: &[u8]) -> Option<Faces> {
        if faces.len() > MAX_DICE {
            return None;
        }
        let mut stored = Faces {
            len: faces.len() as u8,
            faces: [0; MAX_DICE],
        };
        stored.faces[..faces.len()].copy_from_slice(faces);
        Some(stored)
    }

    /// The first `len` faces of `faces`, whose slots past `len` must be zero (as a reader's
    /// zeroed array filled from the start leaves them); `None` for more than [`MAX_DICE`].
    #[inline(always)]
    fn from_array(faces: [u8; MAX_DICE], len: usize) -> Option<Faces> {
        if len > MAX_DICE {
            return None;
        }
        debug_assert!(faces.iter().skip(len).all(|&face| face == 0));
        Some(Faces {
            len: len as u8,
            faces,
        })
    }

    /// Five faces, the common roll, without a slice copy.
    #[inline]
    fn five([a, b, c, d, e]: [u8; 5]) -> Faces {
        Faces {
            len: 5,
            faces: [a, b, c, d, e, 0],
        }
    }

    #[inline]
    fn as_slice(&self) -> &[u8] {
        &self.faces[..usize::from(self.len)]
    }

    /// Reads a JSON-style sequence of `least` to [`MAX_DICE`] faces.
    fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
        least: usize,
    ) -> Result<Faces, D::Error> {
        struct Visitor(usize);
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Faces;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a list of {} to {MAX_DICE} dice", self.0)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Faces, A::Error> {
                let mut faces = Faces::default();
                while let Some(face) = seq.next_element::<u8>()? {
                    let slot = faces
                        .faces
                        .get_mut(usize::from(faces.len))
                        .ok_or_else(|| serde::de::Error::invalid_length(MAX_DICE + 1, &self))?;
                    *slot = face;
                    faces.len += 1;
                }
                if usize::from(faces.len) < self.0 {
                    return Err(serde::de::Error::invalid_length(
                        usize::from(faces.len),
                        &self,
                    ));
                }
                Ok(faces)
            }
        }
        d.deserialize_seq(Visitor(least))
    }
}

/// The dice of one roll as shown: 1 to [`MAX_DICE`] faces (1-6 in a valid log; the replay
/// checks them and their count against the rule set), in the order the log gives them.
/// Cheap to copy; serialized as a list of faces (`[1,2,3,4,5]`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Roll(Faces);

impl Roll {
    /// A roll of the given faces; `None` for none or more than [`MAX_DICE`].
    #[inline]
    pub fn new(faces: &[u8]) -> Option<Roll> {
        Faces::new(faces).filter(|f| f.len > 0).map(Roll)
    }

    /// The faces, in the order written.
    #[inline]
    pub fn faces(&self) -> &[u8] {
        self.0.as_slice()
    }

    /// The first `len` faces of `faces` (zero past `len`): a reader's array, without a copy.
    #[inline(always)]
    pub(crate) fn from_array(faces: [u8; MAX_DICE], len: usize) -> Option<Roll> {
        Faces::from_array(faces, len)
            .filter(|f| f.len > 0)
            .map(Roll)
    }

    /// Number of dice.
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.0.len)
    }

    /// True for the empty roll (a slot past the rolls made).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.len == 0
    }
}

impl From<[u8; 5]> for Roll {
    /// Five dice, the roll of the five-dice games.
    #[inline]
    fn from(faces: [u8; 5]) -> Roll {
        Roll(Faces::five(faces))
    }
}

impl<const N: usize> PartialEq<[u8; N]> for Roll {
    fn eq(&self, other: &[u8; N]) -> bool {
        self.faces() == other
    }
}

impl fmt::Debug for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.faces()).finish()
    }
}

impl Serialize for Roll {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.faces().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Roll {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Faces::deserialize(d, 1).map(Roll)
    }
}

/// Dice kept between two rolls: 0 to [`MAX_DICE`] faces, in the order written. Serialized as
/// a list of faces.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Keep(Faces);

impl Keep {
    /// A keep of the given faces; `None` for more than [`MAX_DICE`].
    #[inline]
    pub fn new(faces: &[u8]) -> Option<Keep> {
        Faces::new(faces).map(Keep)
    }

    /// The kept faces, in the order written.
    #[inline]
    pub fn faces(&self) -> &[u8] {
        self.0.as_slice()
    }

    /// The first `len` faces of `faces` (zero past `len`): a reader's array, without a copy.
    #[inline(always)]
    pub(crate) fn from_array(faces: [u8; MAX_DICE], len: usize) -> Option<Keep> {
        Faces::from_array(faces, len).map(Keep)
    }
}

impl<const N: usize> PartialEq<[u8; N]> for Keep {
    fn eq(&self, other: &[u8; N]) -> bool {
        self.faces() == other
    }
}

impl fmt::Debug for Keep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Keep").field(&self.faces()).finish()
    }
}

impl Serialize for Keep {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.faces().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Keep {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Faces::deserialize(d, 0).map(Keep)
    }
}

/// A box code as written in logs, upper-cased: a single-column box (five-dice games `1`..`6`,
/// `1P`, `2P`, `3K`, `4K`, `FH`, `SS`, `LS`, `C`, `Y`; Maxi Yatzy adds `3P` three pairs, `5K`
/// five of a kind, `FS` full straight, `VI` villa, `TO` tower) or a Jamb cell, the column's
/// letter, `:` and the box (`D:1`, `F:MAX`, `A:J`; columns [`BoxCode::JAMB_COLUMNS`], boxes
/// [`BoxCode::JAMB_BOXES`]). Which codes a rule set has is the rules engine's business.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct BoxCode([u8; BoxCode::LONGEST]);

impl BoxCode {
    /// Bytes in the longest code (`F:MAX`).
    pub const LONGEST: usize = 5;

    /// Every single-column code YGN defines: the five-dice games' fifteen, then the five
    /// Maxi Yatzy adds (three pairs, five of a kind, full straight, villa, tower).
    pub const ALL: [&'static str; 20] = [
        "1", "2", "3", "4", "5", "6", "1P", "2P", "3K", "4K", "FH", "SS", "LS", "C", "Y", "3P",
        "5K", "FS", "VI", "TO",
    ];

    /// The letters of Jamb's column kinds: down, up, free, hand, outer (toward the middle),
    /// inner (from the middle), announce ("najava": the box named after the first roll).
    pub const JAMB_COLUMNS: &'static str = "DUFHOIA";

    /// The box codes of a Jamb column, top to bottom: ones to sixes, max, min, straight
    /// (kenta), three of a kind (triling), full house, four of a kind (poker), jamb.
    pub const JAMB_BOXES: [&'static str; 13] = [
        "1", "2", "3", "4", "5", "6", "MAX", "MIN", "K", "T", "F", "P", "J",
    ];

    /// The code for `text` (case-insensitive), if it is one.
    pub fn parse(text: &str) -> Option<BoxCode> {
        BoxCode::from_bytes(text.as_bytes())
    }

    /// The code written `bytes` (case-insensitive), if it is one; without building a string.
    #[inline]
    pub fn from_bytes(bytes: &[u8]) -> Option<BoxCode> {
        if bytes.is_empty() || bytes.len() > BoxCode::LONGEST {
            return None;
        }
        let mut code = [0u8; BoxCode::LONGEST];
        for (c, b) in code.iter_mut().zip(bytes) {
            *c = b.to_ascii_uppercase();
        }
        let known = match &code[..bytes.len()] {
            [a] => b"123456CY".contains(a),
            [a, b] => matches!(
                [*a, *b],
                [b'1', b'P']
                    | [b'2', b'P']
                    | [b'3', b'P']
                    | [b'3', b'K']
                    | [b'4', b'K']
                    | [b'5', b'K']
                    | [b'F', b'H']
                    | [b'S', b'S']
                    | [b'L', b'S']
                    | [b'F', b'S']
                    | [b'V', b'I']
                    | [b'T', b'O']
            ),
            [column, b':', jbox @ ..] => {
                BoxCode::JAMB_COLUMNS.as_bytes().contains(column)
                    && BoxCode::JAMB_BOXES.iter().any(|b| b.as_bytes() == jbox)
            }
            _ => false,
        };
        known.then_some(BoxCode(code))
    }

    /// The code as text.
    pub fn as_str(&self) -> &str {
        let len = self
            .0
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(BoxCode::LONGEST);
        std::str::from_utf8(&self.0[..len]).unwrap_or("?")
    }
}

impl fmt::Display for BoxCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for BoxCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BoxCode({})", self.as_str())
    }
}

impl Serialize for BoxCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for BoxCode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        BoxCode::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown box code '{text}'")))
    }
}

/// Most rolls one turn may hold. Five-dice games roll at most three times, six-dice Jamb's
/// last turn five times, and Maxi Yatzy with saved rolls spends rolls saved in earlier turns;
/// readers refuse a turn of more.
pub const MAX_ROLLS_PER_TURN: usize = 64;

/// A turn given more than [`MAX_ROLLS_PER_TURN`] rolls (see [`TurnRecord::set_rolls`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyRolls {
    /// How many rolls were given (the first one past the limit when pushed one at a time).
    pub rolls: usize,
}

impl fmt::Display for TooManyRolls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} rolls in one turn (at most {MAX_ROLLS_PER_TURN})",
            self.rolls
        )
    }
}

impl std::error::Error for TooManyRolls {}

/// The rolls of a turn: three inline (the common turn allocates nothing), more on the heap.
type TurnRolls = SmallVec<[Roll; 3]>;
/// The keeps between a turn's rolls: two inline.
type TurnKeeps = SmallVec<[Keep; 2]>;

/// One turn as logged.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// Round number as written (1-based).
    pub round: u16,
    /// Seat of the player (0-based index into [`GameRecord::players`]).
    pub seat: u8,
    /// The rolls made, 0 to [`MAX_ROLLS_PER_TURN`] (read through [`TurnRecord::rolls`]).
    pub(crate) rolls: TurnRolls,
    /// `keeps[i]`: the dice kept between roll `i` and roll `i + 1`; one fewer than the rolls.
    pub(crate) keeps: TurnKeeps,
    /// The box announced after the turn's first roll (a Jamb Announce column's "najava"),
    /// when the log gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub announced: Option<BoxCode>,
    /// The box scored.
    pub category: BoxCode,
    /// Points written in the box (bonuses excluded), when the log gives them.
    pub points: Option<u16>,
    /// Total on the player's sheet before this turn, bonuses included, when the log gives it
    /// (Verhoeff's records do).
    pub total_before: Option<u32>,
    /// Points the turn added to the player's total, bonuses included (box points, upper bonus,
    /// extra-Yahtzee bonus), when the log gives them (yatzy-solver logs do). The replay checks
    /// them against the sheet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub earned: Option<u16>,
    /// Line of the turn's (first) line in its file, 1-based.
    pub line: LineNumber,
}

impl TurnRecord {
    /// A turn of `seat` in `round` scoring `category`, with no rolls yet.
    pub fn new(round: u16, seat: u8, category: BoxCode) -> TurnRecord {
        TurnRecord {
            round,
            seat,
            category,
            ..TurnRecord::default()
        }
    }

    /// The rolls actually made, in order.
    #[inline]
    pub fn rolls(&self) -> &[Roll] {
        &self.rolls
    }

    /// The keeps actually made: `keeps()[i]` between `rolls()[i]` and `rolls()[i + 1]`, one
    /// fewer than the rolls (none for a turn without rolls).
    #[inline]
    pub fn keeps(&self) -> &[Keep] {
        &self.keeps
    }

    /// The rolls, to change in place (their number stays; [`TurnRecord::set_rolls`] changes it).
    #[inline]
    pub fn rolls_mut(&mut self) -> &mut [Roll] {
        &mut self.rolls
    }

    /// The keeps, to change in place (their number stays).
    #[inline]
    pub fn keeps_mut(&mut self) -> &mut [Keep] {
        &mut self.keeps
    }

    /// Replaces the turn's dice by `rolls` and the `keeps` between them
    /// (`keeps.len() + 1 == rolls.len()`; keeps past that are ignored and missing ones are
    /// empty). More than [`MAX_ROLLS_PER_TURN`] rolls are refused and leave the turn as it was.
    pub fn set_rolls(&mut self, rolls: &[Roll], keeps: &[Keep]) -> Result<(), TooManyRolls> {
        if rolls.len() > MAX_ROLLS_PER_TURN {
            return Err(TooManyRolls { rolls: rolls.len() });
        }
        self.rolls.clear();
        self.rolls.extend_from_slice(rolls);
        self.keeps.clear();
        let between = rolls.len().saturating_sub(1);
        self.keeps.extend(
            keeps
                .iter()
                .copied()
                .chain(std::iter::repeat(Keep::default()))
                .take(between),
        );
        Ok(())
    }

    /// Makes `roll` the turn's only roll (its first), dropping any others.
    #[inline]
    pub fn set_first_roll(&mut self, roll: Roll) {
        self.rolls.clear();
        self.keeps.clear();
        self.rolls.push(roll);
    }

    /// Adds a roll after the last one, `kept` being the dice kept before it (for a turn without
    /// rolls yet, `roll` becomes the first and `kept` is dropped). A roll past
    /// [`MAX_ROLLS_PER_TURN`] is refused and leaves the turn as it was.
    #[inline]
    pub fn push_roll(&mut self, kept: Keep, roll: Roll) -> Result<(), TooManyRolls> {
        if self.rolls.is_empty() {
            self.rolls.push(roll);
            return Ok(());
        }
        if self.rolls.len() >= MAX_ROLLS_PER_TURN {
            return Err(TooManyRolls {
                rolls: self.rolls.len() + 1,
            });
        }
        self.keeps.push(kept);
        self.rolls.push(roll);
        Ok(())
    }

    /// Drops the turn's rolls and keeps.
    #[inline]
    pub fn clear_rolls(&mut self) {
        self.rolls.clear();
        self.keeps.clear();
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Termination {
    /// Every box of every player filled.
    #[default]
    Normal,
    /// A player left.
    Abandoned,
    /// A player ran out of time.
    Timeout,
    /// A player resigned.
    Resigned,
}

impl Termination {
    /// The YGN spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Abandoned => "abandoned",
            Termination::Timeout => "timeout",
            Termination::Resigned => "resigned",
        }
    }

    /// Parses the YGN spelling.
    pub fn parse(text: &str) -> Option<Termination> {
        [
            Termination::Normal,
            Termination::Abandoned,
            Termination::Timeout,
            Termination::Resigned,
        ]
        .into_iter()
        .find(|t| t.as_str() == text)
    }
}

/// Where a game came from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// The file the game was read from.
    pub file: String,
    /// Line of the game's first line in that file (1-based).
    pub line: LineNumber,
    /// The game id (from the log, else `FILE:LINE`).
    pub game_id: String,
    /// Date `YYYY.MM.DD`, when the log gives it.
    pub date: Option<String>,
    /// Time `HH:MM:SS`, when the log gives it.
    pub time: Option<String>,
    /// Line of the game's stated result in that file (YGN's `Result` tag, JSONL's `end`
    /// event), when the log states one: where a result that differs from the sheets is
    /// reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_line: Option<LineNumber>,
}

/// Most players a game can have: every reader refuses more, and so does the replay (a seat
/// is a `u8` and the count fits one too).
pub const MAX_PLAYERS: usize = 255;

/// A game in canonical form.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Player names in seat order.
    pub players: Vec<String>,
    /// Rule-set name as given by the log (checked by the replay, not the parser).
    pub rules: String,
    /// Where the game came from.
    pub provenance: Provenance,
    /// The turns in log order.
    pub turns: Vec<TurnRecord>,
    /// How the game ended.
    pub termination: Termination,
    /// Final totals in seat order, when the log gives them.
    pub result: Option<Vec<u32>>,
    /// Every tag of the log in order, known ones included, as (name, value).
    pub tags: Vec<(String, String)>,
}

impl GameRecord {
    /// Empties the record, keeping the capacity of its turn list for the next game.
    pub fn clear(&mut self) {
        self.players.clear();
        self.rules.clear();
        self.provenance.file.clear();
        self.provenance.line = 0;
        self.provenance.game_id.clear();
        self.provenance.date = None;
        self.provenance.time = None;
        self.provenance.result_line = None;
        self.turns.clear();
        self.termination = Termination::Normal;
        self.result = None;
        self.tags.clear();
    }

    /// The standard tags derived from the record's fields, in YGN's order: `Game`, `Date`,
    /// `Time`, `Rules`, `Players`, `Result` (when known) and `Termination` (when not normal).
    /// Writers use these for records that carry no tags of their own.
    pub fn standard_tags(&self) -> Vec<(String, String)> {
        let mut tags = vec![("Game".to_string(), self.provenance.game_id.clone())];
        if let Some(date) = &self.provenance.date {
            tags.push(("Date".into(), date.clone()));
        }
        if let Some(time) = &self.provenance.time {
            tags.push(("Time".into(), time.clone()));
        }
        tags.push(("Rules".into(), self.rules.clone()));
        tags.push(("Players".into(), self.players.join(", ")));
        if let Some(result) = &self.result {
            let totals: Vec<String> = result.iter().map(u32::to_string).collect();
            tags.push(("Result".into(), totals.join(" ")));
        }
        if self.termination != Termination::Normal {
            tags.push(("Termination".into(), self.termination.as_str().into()));
        }
        tags
    }

    /// The tags to write: the record's own, or [`GameRecord::standard_tags`] if it has none.
    pub fn tags_to_write(&self) -> std::borrow::Cow<'_, [(String, String)]> {
        if self.tags.is_empty() {
            std::borrow::Cow::Owned(self.standard_tags())
        } else {
            std::borrow::Cow::Borrowed(&self.tags)
        }
    }

    /// The value of a tag, if present (the first one).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

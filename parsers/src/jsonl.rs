//! JSONL: one JSON event per line, for machine interchange and export
//! (`docs/formats/jsonl.md`).
//!
//! A game is a `game` event (rules, players, tags, provenance), then its turns as `roll`,
//! `keep` and `score` events, then an `end` event (termination, result), on consecutive lines:
//!
//! ```text
//! {"event":"game","game":"r3-187","rules":"yahtzee-kurnik","players":["simson11","kasia_k"],"tags":[]}
//! {"event":"roll","game":"r3-187","seat":0,"player":"simson11","round":1,"roll":1,"dice":[1,3,4,5,6]}
//! {"event":"keep","game":"r3-187","seat":0,"player":"simson11","round":1,"roll":1,"dice":[3,4,5,6]}
//! {"event":"roll","game":"r3-187","seat":0,"player":"simson11","round":1,"roll":2,"dice":[2,3,4,5,6]}
//! {"event":"score","game":"r3-187","seat":0,"player":"simson11","round":1,"box":"LS","points":40}
//! {"event":"end","game":"r3-187","termination":"abandoned"}
//! ```
//!
//! The reader checks each line's JSON and fields and the order of the events; the rules of the
//! game (containment of keeps, points, seat order) are the replay's business.
//!
//! Where a game starts is one local rule (`starts_game`), which the sequential reader (after
//! an error) and the reader over a byte range ([`Reader::with_range`]) both follow: a non-blank
//! line starts a game when it holds a `game` event, when the non-blank line before it holds an
//! `end` event, and when it is the first non-blank line of the content.

use crate::cursor::{lossy, Cursor, ErrorSite, SourceLine};
use crate::LineNumber;
use crate::{
    BoxCode, GameReader, GameRecord, Keep, ParseError, Roll, Termination, TurnRecord,
    MAX_ROLLS_PER_TURN,
};
use serde::de::{self, DeserializeOwned, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;
use std::io;
use std::ops::Range;

use crate::record::MAX_PLAYERS;

/// One line of the format. Written through serde; read by [`Event::decode`], which does not
/// buffer the line's values as serde's tagged enums and flattened fields do (17-23 times the
/// line's size for a long array).
#[derive(Debug, Serialize)]
#[serde(tag = "event", rename_all = "lowercase")]
enum Event<'a> {
    Game(GameStart),
    Roll(#[serde(borrow)] DiceEvent<'a>),
    Keep(#[serde(borrow)] DiceEvent<'a>),
    Score(#[serde(borrow)] ScoreEvent<'a>),
    End(#[serde(borrow)] GameEnd<'a>),
}

/// The event types, for naming them and for checking the `event` field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum EventType {
    Game,
    Roll,
    Keep,
    Score,
    End,
}

impl<'a> Event<'a> {
    /// The event on a line: its type first, then the fields of that type, each read straight
    /// into its place (fields the type does not have are skipped).
    fn decode(text: &'a [u8]) -> serde_json::Result<Event<'a>> {
        /// Finds the `event` member of an object (and refuses anything but an object).
        struct Tag;
        impl<'de> Visitor<'de> for Tag {
            type Value = EventType;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<EventType, A::Error> {
                let mut event = None;
                while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                    if key == "event" && event.is_none() {
                        event = Some(map.next_value()?);
                    } else {
                        map.next_value::<de::IgnoredAny>()?;
                    }
                }
                event.ok_or_else(|| de::Error::missing_field("event"))
            }
        }
        let event = match EventType::written_first(text) {
            Some(event) => event,
            None => {
                let mut tag = serde_json::Deserializer::from_slice(text);
                let event = tag.deserialize_map(Tag)?;
                tag.end()?;
                event
            }
        };
        Ok(match event {
            EventType::Game => Event::Game(serde_json::from_slice(text)?),
            EventType::Roll => Event::Roll(TurnEvent::decode(text)?),
            EventType::Keep => Event::Keep(TurnEvent::decode(text)?),
            EventType::Score => Event::Score(TurnEvent::decode(text)?),
            EventType::End => Event::End(serde_json::from_slice(text)?),
        })
    }

    fn event_type(&self) -> EventType {
        match self {
            Event::Game(_) => EventType::Game,
            Event::Roll(_) => EventType::Roll,
            Event::Keep(_) => EventType::Keep,
            Event::Score(_) => EventType::Score,
            Event::End(_) => EventType::End,
        }
    }
}

impl EventType {
    /// The type of a line that starts `{"event":"TYPE"` as dicelens writes it (the common case,
    /// told without reading the line; the rest of it is read by the event's own decoder).
    fn written_first(text: &[u8]) -> Option<EventType> {
        let rest = text.strip_prefix(b"{\"event\":\"")?;
        let name = &rest[..memchr::memchr(b'"', rest)?];
        Some(match name {
            b"game" => EventType::Game,
            b"roll" => EventType::Roll,
            b"keep" => EventType::Keep,
            b"score" => EventType::Score,
            b"end" => EventType::End,
            _ => return None,
        })
    }
}

impl fmt::Display for EventType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            EventType::Game => "game",
            EventType::Roll => "roll",
            EventType::Keep => "keep",
            EventType::Score => "score",
            EventType::End => "end",
        };
        write!(f, "a `{name}` event")
    }
}

/// `game`: opens a game.
#[derive(Debug, Serialize, Deserialize)]
struct GameStart {
    game: String,
    rules: String,
    #[serde(deserialize_with = "at_most::<_, _, MAX_PLAYERS>")]
    players: Vec<String>,
    #[serde(default, deserialize_with = "at_most::<_, _, MAX_TAGS>")]
    tags: Vec<(String, String)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time: Option<String>,
    /// Where the game was first read from (informational: not read back into records).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    /// The line of that file (informational).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    line: Option<LineNumber>,
}

/// `roll`, `keep` and `score`: what one player did in one turn.
#[derive(Debug, Serialize)]
struct TurnEvent<'a, Detail> {
    #[serde(flatten, borrow)]
    turn: TurnFields<'a>,
    #[serde(flatten)]
    detail: Detail,
}

/// The fields every turn event has: the game, the player and the round.
#[derive(Debug, Serialize, Deserialize)]
struct TurnFields<'a> {
    #[serde(borrow)]
    game: Cow<'a, str>,
    seat: u8,
    #[serde(borrow)]
    player: Cow<'a, str>,
    round: u16,
}

impl<'a, Detail: DeserializeOwned> TurnEvent<'a, Detail> {
    /// A turn event from its line: the player's fields, then the event's own, in two passes
    /// (serde's flattening would buffer every other field's value first).
    fn decode(text: &'a [u8]) -> serde_json::Result<TurnEvent<'a, Detail>> {
        Ok(TurnEvent {
            turn: serde_json::from_slice(text)?,
            detail: serde_json::from_slice(text)?,
        })
    }
}

/// Most tags a `game` event may carry.
const MAX_TAGS: usize = 1024;

/// A JSON array of at most `N` items, refused as soon as it holds more (so a huge array costs no
/// memory); `T` is the item.
struct AtMost<T, const N: usize>(Vec<T>);

impl<'de, T: Deserialize<'de>, const N: usize> Deserialize<'de> for AtMost<T, N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Items<T, const N: usize>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>, const N: usize> Visitor<'de> for Items<T, N> {
            type Value = AtMost<T, N>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "an array of at most {N} items")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    if items.len() == N {
                        return Err(de::Error::invalid_length(N + 1, &self));
                    }
                    items.push(item);
                }
                Ok(AtMost(items))
            }
        }
        d.deserialize_seq(Items(std::marker::PhantomData))
    }
}

/// Reads a field holding an array of at most `N` items.
fn at_most<'de, D: Deserializer<'de>, T: Deserialize<'de>, const N: usize>(
    d: D,
) -> Result<Vec<T>, D::Error> {
    AtMost::<T, N>::deserialize(d).map(|items| items.0)
}

/// Reads a field holding `null` or an array of at most `N` items.
fn optional_at_most<'de, D: Deserializer<'de>, T: Deserialize<'de>, const N: usize>(
    d: D,
) -> Result<Option<Vec<T>>, D::Error> {
    Option::<AtMost<T, N>>::deserialize(d).map(|items| items.map(|items| items.0))
}

/// `roll` (the dice on the table after roll `roll`) and `keep` (the dice kept after roll
/// `roll`, before the next one).
type DiceEvent<'a> = TurnEvent<'a, DiceDetail>;

/// `score`: the box the turn is scored in; ends the turn.
type ScoreEvent<'a> = TurnEvent<'a, ScoreDetail>;

/// The fields of `roll` and `keep` events beyond the player's.
#[derive(Debug, Serialize, Deserialize)]
struct DiceDetail {
    roll: u8,
    dice: Dice,
    /// The cell announced after the turn's first roll (Jamb's Announce column): on that roll's
    /// event only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    announce: Option<BoxCode>,
}

/// The fields of `score` events beyond the player's.
#[derive(Debug, Serialize, Deserialize)]
struct ScoreDetail {
    #[serde(rename = "box")]
    category: BoxCode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    points: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    total_before: Option<u32>,
}

/// `end`: closes a game.
#[derive(Debug, Serialize, Deserialize)]
struct GameEnd<'a> {
    #[serde(borrow)]
    game: Cow<'a, str>,
    termination: Termination,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "optional_at_most::<_, _, MAX_PLAYERS>"
    )]
    result: Option<Vec<u32>>,
}

/// Up to six dice, as a JSON array of numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
struct Dice(Keep);

/// Reader of JSONL events over a byte slice.
pub struct Reader<'a> {
    /// The next line to read, where the last game returned begins, where the range ends.
    lines: Cursor<'a>,
    file: &'a str,
    /// The last non-blank line read (`None` before the first): whether it holds an `end`
    /// event decides whether the next line starts a game.
    previous: Option<&'a [u8]>,
}

impl<'a> Reader<'a> {
    /// A reader over `content`, naming `file` in records and errors.
    pub fn new(content: &'a [u8], file: &'a str) -> Reader<'a> {
        Reader::starting_at(Cursor::new(content), file)
    }

    /// A reader of the games of `content` that begin in `range` (see
    /// [`crate::Format::range_reader`]), naming `file` in records and errors. It looks back from
    /// the range's first line to the non-blank line before it (which `starts_game` needs) and
    /// counts the lines before the range.
    pub fn with_range(content: &'a [u8], file: &'a str, range: Range<usize>) -> Reader<'a> {
        Reader::resuming(Cursor::for_range(content, range), file)
    }

    /// A reader of the games that begin at or after the line at `lines`, the lines before it
    /// looked back at as [`Reader::with_range`] does.
    pub(crate) fn resuming(lines: Cursor<'a>, file: &'a str) -> Reader<'a> {
        let mut reader = Reader::starting_at(lines, file);
        reader.skip_to_next_game();
        reader
    }

    /// Where the lines a reader resuming at `lines` looks back at begin: the non-blank line
    /// before it (see [`crate::Format::context_start`]).
    pub(crate) fn context_start(lines: &Cursor<'_>) -> usize {
        lines
            .lines_before()
            .find(|line| !is_blank(line.text))
            .map_or(lines.offset(), |line| line.start)
    }

    /// A reader whose first line is the one at `lines` (it does not skip to a game's start).
    fn starting_at(lines: Cursor<'a>, file: &'a str) -> Reader<'a> {
        Reader {
            lines,
            file,
            previous: lines
                .lines_before()
                .map(|line| line.text)
                .find(|text| !is_blank(text)),
        }
    }

    /// The next line that is not blank.
    fn next_event_line(&mut self) -> Option<SourceLine<'a>> {
        let line = self.lines.next_nonblank_line();
        if let Some(line) = &line {
            self.previous = Some(line.text);
        }
        line
    }

    /// Reads the game whose `game` event should be on `first` into `out`.
    fn read_from(&mut self, first: SourceLine<'a>, out: &mut GameRecord) -> Result<(), ParseError> {
        let outside = ErrorSite {
            file: self.file,
            game_id: None,
            game_line: first.number,
        };
        let start = match parse_event(&first, &outside)? {
            Event::Game(start) => start,
            other => {
                let found = other.event_type().to_string();
                return Err(field_error(
                    &outside,
                    &first,
                    "event",
                    "a `game` event",
                    &found,
                ));
            }
        };
        check_game_start(&start, &outside, &first)?;
        let game_id = start.game;
        out.players = start.players;
        out.rules = start.rules;
        out.tags = start.tags;
        out.provenance.file.push_str(self.file);
        out.provenance.line = first.number;
        out.provenance.game_id.clone_from(&game_id);
        out.provenance.date = start.date;
        out.provenance.time = start.time;

        let site = ErrorSite {
            file: self.file,
            game_id: Some(&game_id),
            game_line: first.number,
        };
        let mut turn: Option<OpenTurn> = None;
        loop {
            let mark = self.lines.mark();
            let Some(line) = self.next_event_line() else {
                let expected = "an `end` event (the game is not finished)";
                let (line, column) = self.lines.end_position();
                return Err(site.error(line, column, expected, "end of input"));
            };
            let event = parse_event(&line, &site)?;
            let context = EventContext {
                site: &site,
                line: &line,
                players: &out.players,
            };
            match &event {
                Event::Game(_) => {
                    // The next game starts here: read it again after this error.
                    self.lines.rewind(mark);
                    let expected = "an `end` event before the next game";
                    return Err(context.error("event", expected, &event.event_type().to_string()));
                }
                Event::Roll(roll) => take_roll(&mut turn, roll, &context)?,
                Event::Keep(keep) => take_keep(&mut turn, keep, &context)?,
                Event::Score(score) => out.turns.push(take_score(&mut turn, score, &context)?),
                Event::End(end) => {
                    check_end(&turn, end, &context)?;
                    out.termination = end.termination;
                    out.result.clone_from(&end.result);
                    if out.result.is_some() {
                        out.provenance.result_line = Some(line.number);
                    }
                    return Ok(());
                }
            }
        }
    }

    /// Skips to the next line that starts a game ([`starts_game`]), not consuming it.
    /// Whether the skipped lines held events (`None` if not), and then the game id of the
    /// first of them that names one.
    fn skip_to_next_game(&mut self) -> Option<Option<String>> {
        let mut events: Option<Option<String>> = None;
        // Each line is decoded once: its type says whether it starts a game, and whether the
        // line after it may.
        let mut previous = self.previous.map(event_type);
        loop {
            let mark = self.lines.mark();
            let Some(line) = self.lines.next_nonblank_line() else {
                return events;
            };
            let this = event_type(line.text);
            if starts_game(previous, this) {
                self.lines.rewind(mark);
                return events;
            }
            if this.is_some() && events.as_ref().is_none_or(Option::is_none) {
                let id = serde_json::from_slice::<GameField>(line.text).ok();
                events = Some(id.map(|field| field.game.into_owned()));
            }
            previous = Some(this);
            self.previous = Some(line.text);
        }
    }
}

/// Whether a non-blank line holding an event of type `this` (`None`: no valid event) starts a
/// game, after a non-blank line holding `previous` (`None` when it is the first of the
/// content): the rule shared by the sequential reader and the reader over a range. It starts
/// one when it holds a `game` event, or when the previous line is missing or holds an `end`
/// event (whatever the line holds then: an event that cannot start a game is that game's
/// error). A game that ends well ends at its `end` event, so the next line starts one; after
/// an error, the reader skips to the next line that starts one.
fn starts_game(previous: Option<Option<EventType>>, this: Option<EventType>) -> bool {
    previous.is_none_or(|previous| previous == Some(EventType::End))
        || this == Some(EventType::Game)
}

/// The type of the event a line holds, if it holds a valid one.
fn event_type(text: &[u8]) -> Option<EventType> {
    Event::decode(text).ok().map(|event| event.event_type())
}

/// The `game` field of an event line.
#[derive(Deserialize)]
struct GameField<'a> {
    #[serde(borrow)]
    game: Cow<'a, str>,
}

/// Whether a line is blank (white space only).
fn is_blank(text: &[u8]) -> bool {
    text.trim_ascii().is_empty()
}

impl GameReader for Reader<'_> {
    fn consumed(&self) -> usize {
        self.lines.offset()
    }

    fn game_offset(&self) -> usize {
        self.lines.game_start()
    }

    fn read_game(&mut self, out: &mut GameRecord) -> Option<Result<(), ParseError>> {
        out.clear();
        let mark = self.lines.mark();
        let first = self.next_event_line()?;
        if !self.lines.begins_in_range(&first) {
            self.lines.rewind(mark);
            return None;
        }
        self.lines.start_game(&first);
        let result = self.read_from(first, out).map_err(|error| {
            let rest = self.skip_to_next_game();
            match (error.game_id.is_some(), rest) {
                (true, _) => error,
                // The first line is no `game` event, but events follow: a broken game.
                (false, Some(id)) => ParseError {
                    game_id: id.or(error.game_id),
                    ..error
                },
                (false, None) => error.outside_games(),
            }
        });
        Some(result)
    }
}

/// Everything an error about one event needs: the game, the line and the players.
struct EventContext<'c> {
    site: &'c ErrorSite<'c>,
    line: &'c SourceLine<'c>,
    players: &'c [String],
}

impl EventContext<'_> {
    /// An error about field `key` of this event (at its column, else column 1).
    fn error(&self, key: &str, expected: impl Into<String>, found: &str) -> ParseError {
        field_error(self.site, self.line, key, expected, found)
    }

    /// Checks that an event's `game` is the open game's id.
    fn check_game(&self, game: &str) -> Result<(), ParseError> {
        let game_id = self.site.game_id.unwrap_or_default();
        if game == game_id {
            return Ok(());
        }
        let expected = format!(
            "game `{game_id}` (the game opened on line {})",
            self.site.game_line
        );
        Err(self.error("game", expected, game))
    }

    /// Checks the fields every turn event has: the game id, the seat and the player.
    fn check_actor<D>(&self, event: &TurnEvent<'_, D>) -> Result<(), ParseError> {
        let (seat, player) = (event.turn.seat, event.turn.player.as_ref());
        self.check_game(&event.turn.game)?;
        let Some(seated) = self.players.get(usize::from(seat)) else {
            let expected = format!(
                "a seat from 0 to {} (the game has {} players)",
                self.players.len().saturating_sub(1),
                self.players.len()
            );
            return Err(self.error("seat", expected, &seat.to_string()));
        };
        if seated != player {
            let found = match self.players.iter().position(|name| name == player) {
                Some(other) => format!("{player} (the player in seat {other})"),
                None => format!("{player} (not a player of this game)"),
            };
            return Err(self.error(
                "player",
                format!("{seated} (the player in seat {seat})"),
                &found,
            ));
        }
        Ok(())
    }

    /// Checks that a keep or score event belongs to the open turn.
    fn check_same_turn<D>(
        &self,
        turn: &TurnRecord,
        event: &TurnEvent<'_, D>,
    ) -> Result<(), ParseError> {
        let (seat, round) = (event.turn.seat, event.turn.round);
        if seat != turn.seat {
            let expected = format!(
                "seat {} (its turn of round {} is not finished)",
                turn.seat, turn.round
            );
            return Err(self.error("seat", expected, &seat.to_string()));
        }
        if round != turn.round {
            let expected = format!("round {} (the turn is not finished)", turn.round);
            return Err(self.error("round", expected, &round.to_string()));
        }
        Ok(())
    }

    /// The dice of a roll (one to six: how many the rule set rolls is the replay's business)
    /// or a keep (at most six), all 1-6.
    fn check_dice(&self, dice: &Dice, roll: bool) -> Result<(), ParseError> {
        let faces = dice.0.faces();
        let found = || format!("{faces:?}");
        if roll && faces.is_empty() {
            return Err(self.error("dice", "one to six dice", &found()));
        }
        if faces.iter().any(|face| !(1..=6).contains(face)) {
            return Err(self.error("dice", "dice 1-6", &found()));
        }
        Ok(())
    }
}

/// A turn whose score event has not come yet.
#[derive(Clone, Debug)]
struct OpenTurn {
    record: TurnRecord,
    /// The dice of the last event when it was a keep (so a roll must come next).
    kept: Option<Keep>,
}

fn take_roll(
    open: &mut Option<OpenTurn>,
    event: &DiceEvent<'_>,
    context: &EventContext<'_>,
) -> Result<(), ParseError> {
    context.check_actor(event)?;
    context.check_dice(&event.detail.dice, true)?;
    let dice = Roll::new(event.detail.dice.0.faces()).unwrap_or_default();
    match open {
        None => {
            if event.detail.roll != 1 {
                return Err(context.error(
                    "roll",
                    "roll 1 (a turn starts with its first roll)",
                    &event.detail.roll.to_string(),
                ));
            }
            if event.turn.round == 0 {
                return Err(context.error("round", "a round number from 1", "0"));
            }
            let mut record = TurnRecord {
                round: event.turn.round,
                seat: event.turn.seat,
                line: context.line.number,
                ..TurnRecord::default()
            };
            record.set_first_roll(dice);
            record.announced = event.detail.announce;
            *open = Some(OpenTurn { record, kept: None });
        }
        Some(OpenTurn {
            record,
            kept: kept @ Some(_),
        }) => {
            context.check_same_turn(record, event)?;
            let number = record.rolls().len() + 1;
            if let Some(announced) = event.detail.announce {
                let expected = "no `announce` (a turn announces on its first roll only)";
                return Err(context.error("announce", expected, announced.as_str()));
            }
            if usize::from(event.detail.roll) != number {
                return Err(context.error(
                    "roll",
                    format!("roll {number} (after keep {})", number - 1),
                    &event.detail.roll.to_string(),
                ));
            }
            if record.push_roll(kept.unwrap_or_default(), dice).is_err() {
                let expected = format!("at most {MAX_ROLLS_PER_TURN} rolls in a turn");
                return Err(context.error("roll", expected, &number.to_string()));
            }
            *kept = None;
        }
        Some(turn) => {
            let expected = format!(
                "a `keep` or `score` event after roll {} of round {}",
                turn.record.rolls().len(),
                turn.record.round
            );
            return Err(context.error("event", expected, &EventType::Roll.to_string()));
        }
    }
    Ok(())
}

/// The open turn, when its last event was a roll (so a keep or score may follow); else the
/// error for a `found` event there.
fn rolled_turn<'t>(
    open: &'t mut Option<OpenTurn>,
    found: EventType,
    context: &EventContext<'_>,
) -> Result<&'t mut OpenTurn, ParseError> {
    let found = found.to_string();
    match open {
        None => Err(context.error(
            "event",
            "a `roll` event (a turn starts with a roll)",
            &found,
        )),
        Some(turn) if turn.kept.is_some() => {
            Err(context.error("event", "a `roll` event after a keep", &found))
        }
        Some(turn) => Ok(turn),
    }
}

fn take_keep(
    open: &mut Option<OpenTurn>,
    event: &DiceEvent<'_>,
    context: &EventContext<'_>,
) -> Result<(), ParseError> {
    context.check_actor(event)?;
    let turn = rolled_turn(open, EventType::Keep, context)?;
    if turn.record.rolls().len() >= MAX_ROLLS_PER_TURN {
        let expected =
            format!("a `score` event after roll {MAX_ROLLS_PER_TURN} (the most a turn has)");
        return Err(context.error("event", expected, &EventType::Keep.to_string()));
    }
    context.check_same_turn(&turn.record, event)?;
    let number = turn.record.rolls().len();
    if usize::from(event.detail.roll) != number {
        return Err(context.error(
            "roll",
            format!("roll {number} (the keep follows roll {number})"),
            &event.detail.roll.to_string(),
        ));
    }
    context.check_dice(&event.detail.dice, false)?;
    if let Some(announced) = event.detail.announce {
        let expected = "no `announce` on a keep (it goes on the turn's first `roll` event)";
        return Err(context.error("announce", expected, announced.as_str()));
    }
    turn.kept = Some(event.detail.dice.0);
    Ok(())
}

fn take_score(
    open: &mut Option<OpenTurn>,
    event: &ScoreEvent<'_>,
    context: &EventContext<'_>,
) -> Result<TurnRecord, ParseError> {
    context.check_actor(event)?;
    let mut turn = std::mem::take(&mut rolled_turn(open, EventType::Score, context)?.record);
    context.check_same_turn(&turn, event)?;
    turn.category = event.detail.category;
    turn.points = event.detail.points;
    turn.total_before = event.detail.total_before;
    *open = None;
    Ok(turn)
}

fn check_end(
    open: &Option<OpenTurn>,
    event: &GameEnd<'_>,
    context: &EventContext<'_>,
) -> Result<(), ParseError> {
    context.check_game(&event.game)?;
    if let Some(turn) = open {
        let expected = format!(
            "the rest of the turn of seat {} in round {} (a `keep`, `roll` or `score` event)",
            turn.record.seat, turn.record.round
        );
        return Err(context.error("event", expected, &EventType::End.to_string()));
    }
    if let Some(result) = event
        .result
        .as_ref()
        .filter(|result| result.len() != context.players.len())
    {
        let expected = format!("{} totals, one per player", context.players.len());
        return Err(context.error("result", expected, &format!("{result:?}")));
    }
    Ok(())
}

/// Checks a `game` event's fields beyond their JSON types.
fn check_game_start(
    start: &GameStart,
    site: &ErrorSite<'_>,
    line: &SourceLine<'_>,
) -> Result<(), ParseError> {
    let error =
        |key: &str, expected: &str, found: &str| Err(field_error(site, line, key, expected, found));
    if start.game.is_empty() {
        return error("game", "a game id (not empty)", "\"\"");
    }
    if start.rules.is_empty() {
        return error("rules", "a rule set name (not empty)", "\"\"");
    }
    if start.players.is_empty() {
        return error(
            "players",
            "1 to 255 player names",
            &format!("{} names", start.players.len()),
        );
    }
    if start.players.iter().any(String::is_empty) {
        return error("players", "player names that are not empty", "\"\"");
    }
    if let Some(date) = start
        .date
        .as_deref()
        .filter(|date| !has_shape(date, "9999.99.99"))
    {
        return error("date", "a date YYYY.MM.DD", date);
    }
    if let Some(time) = start
        .time
        .as_deref()
        .filter(|time| !has_shape(time, "99:99:99"))
    {
        return error("time", "a time HH:MM:SS", time);
    }
    if let Some((tag, value, key, field)) = disagreeing_tag(start) {
        return error(
            "tags",
            &format!(
                "a `{tag}` tag that agrees with `{key}` {field:?} (the member is what the game \
                 is read, rated and converted by; leave the tag out or make it the same)"
            ),
            &format!("`{tag}` {value}"),
        );
    }
    Ok(())
}

/// The first tag of a `game` event that says otherwise than the member holding the same
/// thing (`Game` and `game`, `Rules` and `rules`, `Players` and `players` joined by `, `,
/// `Date` and `date`, `Time` and `time` when both are there), as (tag, its value, member, the
/// member's value). The members are authoritative: a game whose tags disagree is an error,
/// never read under one and written (with its tags) under the other.
fn disagreeing_tag(start: &GameStart) -> Option<(&str, &str, &'static str, String)> {
    start.tags.iter().find_map(|(tag, value)| {
        let (key, field) = match tag.as_str() {
            "Game" => ("game", start.game.clone()),
            "Rules" => ("rules", start.rules.clone()),
            "Players" => ("players", start.players.join(", ")),
            "Date" => ("date", start.date.clone()?),
            "Time" => ("time", start.time.clone()?),
            _ => return None,
        };
        (*value != field).then_some((tag.as_str(), value.as_str(), key, field))
    })
}

/// True when `text` has the shape of `pattern`, where `9` stands for any digit.
fn has_shape(text: &str, pattern: &str) -> bool {
    text.len() == pattern.len()
        && text.bytes().zip(pattern.bytes()).all(|(b, p)| {
            if p == b'9' {
                b.is_ascii_digit()
            } else {
                b == p
            }
        })
}

/// Parses one line into an event, or an error pointing at what is wrong in it.
fn parse_event<'a>(line: &SourceLine<'a>, site: &ErrorSite<'_>) -> Result<Event<'a>, ParseError> {
    Event::decode(line.text).map_err(|error| json_error(&error, line, site))
}

/// Where in `line` serde_json's `error` is (a byte offset) and what it says (without its own
/// "at line L column C"). serde_json's column is 1-based, in bytes; at the end of the line it
/// names the last byte, where the end of the line is meant.
pub(crate) fn json_error_place(
    error: &serde_json::Error,
    line: &SourceLine<'_>,
) -> (usize, String) {
    let text = error.to_string();
    let message = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(message, _)| message);
    let offset = match error.classify() {
        serde_json::error::Category::Eof => line.text.len(),
        _ => error.column().saturating_sub(1).min(line.text.len()),
    };
    (offset, message.to_string())
}

/// Turns a serde_json error into a [`ParseError`]: JSON syntax errors at serde's column; wrong
/// field types at the field (found by looking for the first field whose value does not fit);
/// missing fields at column 1.
fn json_error(
    error: &serde_json::Error,
    line: &SourceLine<'_>,
    site: &ErrorSite<'_>,
) -> ParseError {
    let (offset, message) = json_error_place(error, line);
    let message = message.as_str();
    if !error.is_data() {
        let found = lossy(line.text.get(offset..).unwrap_or_default());
        return site.in_line(line, offset, format!("valid JSON ({message})"), &found);
    }
    let members = members(line.text);
    let event_type = members
        .iter()
        .find(|member| member.key == b"event")
        .and_then(|member| serde_json::from_slice::<EventType>(member.value).ok());
    let misfit = members.iter().find_map(|member| {
        let (expected, fits) = field_shape(event_type, member.key)?;
        (!fits(member.value)).then_some((member, expected))
    });
    if let Some((member, expected)) = misfit {
        let expected = format!("`{}`: {expected}", lossy(member.key));
        return site.in_line(line, member.offset, expected, &lossy(member.value));
    }
    match message.strip_prefix("missing ") {
        Some(field) => site.error(line.number, 1, field, "an event without it"),
        None => site.error(
            line.number,
            1,
            "a JSON object with the fields of its event",
            message,
        ),
    }
}

/// What a field must hold (in words) and a check of its JSON value, for the fields of the given
/// event type (fields of other types are ignored, as the reader ignores them).
#[allow(clippy::type_complexity)]
fn field_shape(
    event_type: Option<EventType>,
    key: &[u8],
) -> Option<(&'static str, fn(&[u8]) -> bool)> {
    use EventType::{End, Game, Keep, Roll, Score};
    let shape: (&'static str, fn(&[u8]) -> bool) = match (event_type, key) {
        (_, b"event") => (
            "an event type: `game`, `roll`, `keep`, `score` or `end`",
            fits::<EventType>,
        ),
        (Some(_), b"game") => ("the game id, a string", fits::<String>),
        (Some(Game), b"rules") => ("the rule set, a string", fits::<String>),
        (Some(Game), b"players") => (
            // MAX_PLAYERS (255; the ygn reader asserts it).
            "the player names, an array of 1 to 255 strings",
            fits::<AtMost<String, MAX_PLAYERS>>,
        ),
        (Some(Game), b"tags") => (
            "an array of at most 1024 [name, value] string pairs",
            fits::<AtMost<(String, String), MAX_TAGS>>,
        ),
        (Some(Game), b"date" | b"time" | b"file") => ("a string or null", fits::<Option<String>>),
        (Some(Game), b"line") => ("a line number or null", fits::<Option<LineNumber>>),
        (Some(Roll | Keep | Score), b"seat") => ("the seat, a number 0-255", fits::<u8>),
        (Some(Roll | Keep | Score), b"player") => ("the player's name, a string", fits::<String>),
        (Some(Roll | Keep | Score), b"round") => ("the round, a number 1-65535", fits::<u16>),
        (Some(Roll | Keep), b"roll") => ("the roll number, 1-64", fits::<u8>),
        (Some(Roll | Keep), b"announce") => (
            "the announced cell, a box code such as A:P, or null",
            fits::<Option<BoxCode>>,
        ),
        (Some(Roll | Keep), b"dice") => ("an array of at most six dice", fits::<Dice>),
        (Some(Score), b"box") => (
            "a box code: 1-6, 1P, 2P, 3P, 3K, 4K, 5K, FH, VI, TO, SS, LS, FS, C, Y or a Jamb cell",
            fits::<BoxCode>,
        ),
        (Some(Score), b"points") => ("the points, a number 0-65535, or null", fits::<Option<u16>>),
        (Some(Score), b"total_before") => (
            "the total before the turn, a number, or null",
            fits::<Option<u32>>,
        ),
        (Some(End), b"termination") => (
            "`normal`, `abandoned`, `timeout` or `resigned`",
            fits::<Termination>,
        ),
        (Some(End), b"result") => (
            "the final totals, an array of numbers (one per player), or null",
            fits::<Option<AtMost<u32, MAX_PLAYERS>>>,
        ),
        _ => return None,
    };
    Some(shape)
}

fn fits<T: DeserializeOwned>(value: &[u8]) -> bool {
    serde_json::from_slice::<T>(value).is_ok()
}

/// An error about field `key` of the event on `line`, at the field's column (column 1 when the
/// line has no such field).
fn field_error(
    site: &ErrorSite<'_>,
    line: &SourceLine<'_>,
    key: &str,
    expected: impl Into<String>,
    found: &str,
) -> ParseError {
    let column = members(line.text)
        .iter()
        .find(|member| member.key == key.as_bytes())
        .map_or(1, |member| line.column(member.offset));
    site.error(line.number, column, expected, found)
}

/// A member of the top-level object of a line: its key as written (without quotes), the byte
/// offset of the key's opening quote and the value's text.
struct Member<'a> {
    key: &'a [u8],
    offset: usize,
    value: &'a [u8],
}

/// The members of the top-level JSON object on a line (a small scan that only tracks strings
/// and nesting; used for error positions).
fn members(text: &[u8]) -> Vec<Member<'_>> {
    let mut members = Vec::new();
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut key_start: Option<usize> = None;
    let mut key_end: Option<usize> = None;
    let mut value_start: Option<usize> = None;
    for (index, &byte) in text.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if byte == b'\\' {
                escaped = true;
            } else if byte == b'"' {
                in_string = false;
                if depth == 1 && key_start.is_some() && key_end.is_none() {
                    key_end = Some(index);
                }
            }
            continue;
        }
        match byte {
            b'"' => {
                in_string = true;
                if depth == 1 && key_start.is_none() {
                    key_start = Some(index);
                }
            }
            b':' if depth == 1 && value_start.is_none() => value_start = Some(index + 1),
            b',' | b'}' | b']' if depth == 1 => {
                if let (Some(start), Some(end), Some(value)) = (key_start, key_end, value_start) {
                    members.push(Member {
                        key: text.get(start + 1..end).unwrap_or_default(),
                        offset: start,
                        value: text.get(value..index).unwrap_or_default().trim_ascii(),
                    });
                }
                (key_start, key_end, value_start) = (None, None, None);
                if byte != b',' {
                    depth = 0;
                }
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    members
}

/// Writes one game as JSONL events: `game`, then per turn `roll`, `keep`, ..., `score`, then
/// `end`. The record's own tags are written as they are (none if it has none). Provenance file
/// and line are written as the informational `file` and `line` of the `game` event. A record
/// without game id, rules or players, with a seat that has no player, or with a turn of other
/// than 1 to 3 rolls gets an error of kind [`io::ErrorKind::InvalidInput`] and nothing is
/// written.
pub fn write_game(game: &GameRecord, out: &mut dyn io::Write) -> io::Result<()> {
    let id = game.provenance.game_id.as_str();
    let invalid = |message: String| {
        io::Error::new(io::ErrorKind::InvalidInput, format!("game {id}: {message}"))
    };
    if id.is_empty() || game.rules.is_empty() || game.players.is_empty() {
        return Err(invalid(
            "JSONL needs a game id, rules and players".to_string(),
        ));
    }
    let provenance = &game.provenance;
    let has_file = !provenance.file.is_empty();
    let mut buffer = Vec::new();
    push_event(
        &mut buffer,
        &Event::Game(GameStart {
            game: id.to_string(),
            rules: game.rules.clone(),
            players: game.players.clone(),
            tags: game.tags.clone(),
            date: provenance.date.clone(),
            time: provenance.time.clone(),
            file: has_file.then(|| provenance.file.clone()),
            line: (has_file && provenance.line > 0).then_some(provenance.line),
        }),
    )?;
    for turn in &game.turns {
        let player = game.players.get(usize::from(turn.seat)).ok_or_else(|| {
            invalid(format!(
                "round {}: seat {} has no player",
                turn.round, turn.seat
            ))
        })?;
        if !(1..=MAX_ROLLS_PER_TURN).contains(&turn.rolls().len()) {
            return Err(invalid(format!(
                "round {}: {} rolls (1 to {MAX_ROLLS_PER_TURN} expected)",
                turn.round,
                turn.rolls().len()
            )));
        }
        if turn.rolls().iter().any(Roll::is_empty) {
            return Err(invalid(format!(
                "round {}: a roll without dice",
                turn.round
            )));
        }
        let event = |detail| turn_event(id, player, turn, detail);
        let dice = |roll: u8, faces: &[u8]| DiceDetail {
            roll,
            dice: Dice(Keep::new(faces).unwrap_or_default()),
            announce: None,
        };
        for (roll, faces) in (1u8..).zip(turn.rolls()) {
            let mut rolled = dice(roll, faces.faces());
            if roll == 1 {
                rolled.announce = turn.announced;
            }
            push_event(&mut buffer, &Event::Roll(event(rolled)))?;
            if let Some(keep) = turn.keeps().get(usize::from(roll).saturating_sub(1)) {
                push_event(&mut buffer, &Event::Keep(event(dice(roll, keep.faces()))))?;
            }
        }
        let score = turn_event(
            id,
            player,
            turn,
            ScoreDetail {
                category: turn.category,
                points: turn.points,
                total_before: turn.total_before,
            },
        );
        push_event(&mut buffer, &Event::Score(score))?;
    }
    let end = GameEnd {
        game: Cow::Borrowed(id),
        termination: game.termination,
        result: game.result.clone(),
    };
    push_event(&mut buffer, &Event::End(end))?;
    out.write_all(&buffer)
}

/// An event of `turn`, played by `player` in game `id`.
fn turn_event<'a, D>(
    id: &'a str,
    player: &'a str,
    turn: &TurnRecord,
    detail: D,
) -> TurnEvent<'a, D> {
    TurnEvent {
        turn: TurnFields {
            game: Cow::Borrowed(id),
            seat: turn.seat,
            player: Cow::Borrowed(player),
            round: turn.round,
        },
        detail,
    }
}

fn push_event(buffer: &mut Vec<u8>, event: &Event<'_>) -> io::Result<()> {
    serde_json::to_writer(&mut *buffer, event)?;
    buffer.push(b'\n');
    Ok(())
}

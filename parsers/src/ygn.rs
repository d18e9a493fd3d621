//! YGN, the native game-log format (`docs/formats/ygn.md`): a streaming reader and a canonical
//! writer.
//!
//! The reader walks the content (all of it, or a piece of a stream) one line at a time with the
//! crate's line cursor (line ends are found a word at a time, then with memchr past 64 bytes);
//! each line that is read (not skipped) is checked to be UTF-8 once (ASCII quickly), and small
//! nom parsers over bytes take it apart. A turn fills a fixed-size [`TurnRecord`] without allocating; names
//! and tag values reuse the strings of the game read before, so a reused record allocates only
//! when a game has more or longer text than the one before.
//!
//! What the reader checks is the syntax and the header: dice are 1-6, a roll has one to six
//! (how many the rule set rolls is the replay's business), a keep one to six or `k-`, at most
//! three rolls, a known category code, a player of `Players`, the shapes
//! of the known tags. Whether a turn follows the rules (keeps contained in the rolls, round and
//! seat order, free boxes, points) is the replay's business.
//!
//! Where one game ends and the next begins is one local rule (`Delimiter`), which both the
//! sequential reader and the reader over a byte range ([`Reader::with_range`]) follow: a game
//! starts at a tag line that follows a turn line (blank lines and comments between them do not
//! count), at a `Game` tag in a header that already has one, and at the first tag line of the
//! content; before the first tag line, a turn line or a comment that is not UTF-8 starts a
//! "game" that is only an error. After an error the reader skips to the next line that starts a
//! game, so one broken game costs one error. Whether a line starts a game depends only on the
//! lines since the last turn line or `Game` tag before it, so a reader over a range finds its
//! first game by looking back that far, never at the whole content before it.
//!
//! Where docs/formats/ygn.md is silent, the reader is strict:
//! - lines may start and end with blanks; a lone `\r` (not before `\n`) is not a blank;
//! - a tag is `[Name "value"]`, one or more blanks between name and value, nothing else inside the
//!   brackets; `Game` must not be empty; a known tag given twice in a game is an error;
//! - player names must be distinct, and at most 256 (a seat is a `u8`);
//! - `Date` and `Time` must have valid months, days, hours, minutes and seconds; `Result` totals
//!   are `u32`s without leading zeros, one space apart (their count is the replay's business);
//! - numbers (round, points) have no leading zeros; a keep is a lower-case `k`; tokens of a turn
//!   line are separated by blanks (`LS{x}` is not a category and a comment);
//! - a `{comment}` runs to the end of its line, whose last non-blank character is `}`.

use crate::cursor::{lossy, Cursor, ErrorSite, SourceLine};
use crate::LineNumber;
use crate::{
    BoxCode, GameReader, GameRecord, Keep, ParseError, Roll, Termination, TurnRecord, MAX_DICE,
    MAX_ROLLS_PER_TURN,
};
use nom::bytes::complete::{take_while, take_while1, take_while_m_n};
use nom::character::complete::char;
use nom::error::ErrorKind;
use nom::{IResult, Parser};
use std::io;
use std::ops::{Range, RangeInclusive};

use crate::record::MAX_PLAYERS;

/// At most this many characters per player name.
const MAX_NAME_CHARS: usize = 64;

/// Characters a player name may not contain (besides white space).
const NAME_FORBIDDEN: &[char] = &[',', ':', '"', '[', ']', '{', '}', '%'];

/// Reader of YGN content: one game per [`GameReader::read_game`] call.
///
/// It streams over the slice it is given and never copies it; the position advances by at least
/// one line per call that returns a game or an error. After an error the record is left empty
/// and the next call reads the next game.
pub struct Reader<'a> {
    /// The next line to read, where the last game returned begins, where the range ends.
    lines: Cursor<'a>,
    /// The file named in records and errors.
    file: &'a str,
    /// Where the lines before `lines` leave the delimiting of games.
    delimiter: Delimiter,
    /// Strings of the previous game, to hold the names and tags of the next one.
    strings: Strings,
}

impl<'a> Reader<'a> {
    /// A reader over `content`, naming `file` in records and errors.
    pub fn new(content: &'a [u8], file: &'a str) -> Reader<'a> {
        Reader::with_range(content, file, 0..usize::MAX)
    }

    /// A reader of the games of `content` that begin in `range` (see
    /// [`crate::Format::range_reader`]), naming `file` in records and errors. It looks back from
    /// the range's first line to the last turn line or `Game` tag before it (the lines that
    /// decide whether a line starts a game) and counts the lines before the range.
    pub fn with_range(content: &'a [u8], file: &'a str, range: Range<usize>) -> Reader<'a> {
        Reader::resuming(Cursor::for_range(content, range), file)
    }

    /// A reader whose next line is the one at `lines`, the lines before it looked back at as
    /// [`Reader::with_range`] does.
    pub(crate) fn resuming(lines: Cursor<'a>, file: &'a str) -> Reader<'a> {
        Reader {
            lines,
            file,
            delimiter: Delimiter::before(&lines),
            strings: Strings::default(),
        }
    }

    /// The line at the current position, without consuming it; `None` at the end.
    fn peek(&self) -> Option<Line<'a>> {
        let source = self.lines.peek()?;
        let kind = kind_of(source.text);
        let (starts, after) = self.delimiter.step(kind, source.text);
        Some(Line {
            source,
            kind,
            starts,
            after,
        })
    }

    /// Consumes `line` (the one [`Reader::peek`] returned); after a blank line, the empty
    /// lines after it too (every caller passes blank lines over alike: they start no game and
    /// leave the delimiting as it is).
    fn advance(&mut self, line: &Line<'a>) {
        self.lines.advance(&line.source);
        self.delimiter = line.after;
        if line.kind == Kind::Blank {
            self.lines.skip_empty_lines();
        }
    }

    /// Reads one game into `out` (already cleared). `Ok(false)` at the end of the content (or of
    /// the range) before any game.
    fn game(&mut self, out: &mut GameRecord, game: &mut GameState) -> Result<bool, Failure> {
        // Before the first game, blank lines and comments do not start one.
        let first = loop {
            let Some(line) = self.peek().filter(|line| self.lines.begins_in_range(line)) else {
                return Ok(false);
            };
            if line.starts {
                break line;
            }
            self.advance(&line);
        };
        self.lines.start_game(&first);
        if first.kind != Kind::Tag {
            // A stray turn line, or a comment that is not UTF-8, before any game.
            self.advance(&first);
            let error = first
                .check_utf8()
                .err()
                .unwrap_or_else(|| Syntax::at(first.rest(), GAME_START));
            return Err(Failure::new(&first, error));
        }
        out.provenance.file.push_str(self.file);
        out.provenance.line = first.number;
        game.first_line = Some(first.number);
        while let Some(line) = self.peek() {
            if line.starts && line.number != first.number {
                break;
            }
            match line.kind {
                Kind::Blank => self.advance(&line),
                Kind::Comment => {
                    self.advance(&line);
                    line.check_utf8().map_err(|e| Failure::new(&line, e))?;
                }
                Kind::Tag => {
                    // In the header: a tag line after a turn line starts the next game.
                    self.advance(&line);
                    let fail = |e| Failure::new(&line, e);
                    let text = line.utf8().map_err(fail)?;
                    let (rest, name) = tag_name(line.text).map_err(|e| fail(e.into()))?;
                    game.header_tag(text, name, rest, out, &mut self.strings)
                        .map_err(fail)?;
                    if name == KnownTag::Result.name().as_bytes() {
                        out.provenance.result_line = Some(line.number);
                    }
                }
                Kind::Turn => {
                    if !game.in_body {
                        game.check_header(line.rest())
                            .map_err(|e| Failure::new(&line, e))?;
                        game.in_body = true;
                    }
                    self.advance(&line);
                    line.check_utf8().map_err(|e| Failure::new(&line, e))?;
                    let mut turn = TurnRecord {
                        line: line.number,
                        ..TurnRecord::default()
                    };
                    turn_line(line.text, &out.players, &mut turn)
                        .map_err(|e| Failure::new(&line, e))?;
                    out.turns.push(turn);
                }
            }
        }
        if !game.in_body {
            let found = match self.peek() {
                Some(line) => game
                    .check_header(line.rest())
                    .map_err(|e| Failure::new(&line, e)),
                None => game
                    .check_header(&[])
                    .map_err(|e| Failure::at_end(&self.lines, e)),
            };
            found?;
        }
        if out.provenance.game_id.is_empty() {
            out.provenance.game_id = default_game_id(self.file, first.number);
        }
        Ok(true)
    }

    /// After an error: skips to the start of the next game. Returns the id of the broken game's
    /// `Game` tag if one turns up in the skipped part of its header.
    fn skip_to_next_game(&mut self) -> Option<String> {
        let mut late_id = None;
        while let Some(line) = self.peek() {
            if line.starts {
                break;
            }
            let first_game_tag = self.delimiter == Delimiter::Header { game_tag: None }
                && matches!(line.after, Delimiter::Header { game_tag: Some(_) });
            if first_game_tag && line.kind == Kind::Tag {
                late_id = line
                    .utf8()
                    .ok()
                    .zip(tag_name(line.text).ok())
                    .and_then(|(text, (rest, _))| Some((text, tag_value(rest).ok()?.1)))
                    .map(|(text, value)| value.text(text, String::new()))
                    .filter(|id| !id.is_empty());
            }
            self.advance(&line);
        }
        late_id
    }
}

impl GameReader for Reader<'_> {
    fn consumed(&self) -> usize {
        self.lines.offset()
    }

    fn game_offset(&self) -> usize {
        self.lines.game_start()
    }

    fn read_game(&mut self, out: &mut GameRecord) -> Option<Result<(), ParseError>> {
        self.strings.recycle(out);
        out.clear();
        let mut game = GameState::default();
        match self.game(out, &mut game) {
            Ok(true) => Some(Ok(())),
            Ok(false) => None,
            Err(failure) => {
                let late_id = self.skip_to_next_game();
                let expected = failure.expected.describe(&out.players);
                let game_id = game.first_line.map(|first| {
                    if !out.provenance.game_id.is_empty() {
                        out.provenance.game_id.clone()
                    } else {
                        late_id.unwrap_or_else(|| default_game_id(self.file, first))
                    }
                });
                let site = ErrorSite {
                    file: self.file,
                    game_id: game_id.as_deref(),
                    game_line: game.first_line.unwrap_or(failure.line),
                };
                let error = site.error(failure.line, failure.column, expected, &failure.found);
                // Lines before the first tag line of the file are no game's.
                let error = Err(match game.first_line {
                    Some(_) => error,
                    None => error.outside_games(),
                });
                // What was read of the broken game is of no use: the record is left empty.
                self.strings.recycle(out);
                out.clear();
                Some(error)
            }
        }
    }
}

/// The rule that says which lines start a game, as a state: where the lines read so far leave
/// it. The sequential reader steps it line by line; a reader over a range rebuilds it from the
/// few lines before the range ([`Delimiter::before`]). Blank lines never start a game; a tag
/// line starts one after a turn line, before any game, and when it is a `Game` tag and the
/// header already has a `Game` tag of another value (a repeated copy of the same line is one
/// game, whose reader reports the second copy); a turn line starts one (that is only an error,
/// outside any game) before any game, as does a comment that is not UTF-8.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Delimiter {
    /// No game yet: only blank lines and valid comments so far.
    Start,
    /// In a header (tag lines since the last turn line); `game_tag`: once it has a `Game` tag,
    /// a hash of that tag's value.
    Header { game_tag: Option<u64> },
    /// After a turn line: a game's body (or what a stray line began).
    Body,
}

impl Delimiter {
    /// Whether the line `text` (of kind `kind`) starts a game, and the state after it.
    #[inline]
    fn step(self, kind: Kind, text: &[u8]) -> (bool, Delimiter) {
        match (kind, self) {
            (Kind::Blank, _) => (false, self),
            (Kind::Comment, Delimiter::Start) if std::str::from_utf8(text).is_err() => {
                (true, Delimiter::Body)
            }
            (Kind::Comment, _) => (false, self),
            (Kind::Turn, _) => (self == Delimiter::Start, Delimiter::Body),
            (Kind::Tag, Delimiter::Header { game_tag }) => match game_tag_value(text) {
                Some(value) => (
                    game_tag.is_some_and(|first| first != value),
                    Delimiter::Header {
                        game_tag: Some(value),
                    },
                ),
                None => (false, self),
            },
            (Kind::Tag, Delimiter::Start | Delimiter::Body) => (
                true,
                Delimiter::Header {
                    game_tag: game_tag_value(text),
                },
            ),
        }
    }

    /// The state after the lines before `lines`: found from the last turn line or `Game` tag
    /// before it, after which the state is the same whatever came earlier (else from the start
    /// of the content).
    fn before(lines: &Cursor<'_>) -> Delimiter {
        let mut state = Delimiter::Start;
        let mut from = lines.first_line();
        if let Some(line) = Delimiter::last_settling_line(lines) {
            state = Delimiter::Start.step(kind_of(line.text), line.text).1;
            from = lines.after(&line);
        }
        while let Some(line) = from.next_line().filter(|line| line.start < lines.offset()) {
            state = state.step(kind_of(line.text), line.text).1;
        }
        state
    }

    /// The last turn line or `Game` tag before `lines`: the state after it is the same
    /// whatever came before it.
    fn last_settling_line<'a>(lines: &Cursor<'a>) -> Option<SourceLine<'a>> {
        lines.lines_before().find(|line| {
            let kind = kind_of(line.text);
            kind == Kind::Turn || kind == Kind::Tag && is_game_tag(line.text)
        })
    }

    /// Where the lines [`Delimiter::before`] needs begin: the last turn line or `Game` tag
    /// before `lines`, else the start of the content.
    pub(crate) fn context_start(lines: &Cursor<'_>) -> usize {
        Delimiter::last_settling_line(lines).map_or(0, |line| line.start)
    }
}

/// Where the lines a reader resuming at `lines` looks back at begin (see
/// [`crate::Format::context_start`]).
pub(crate) fn context_start(lines: &Cursor<'_>) -> usize {
    Delimiter::context_start(lines)
}

/// Whether `line` (trimmed) is a whole tag line, `[Name "value"]`: what makes a log YGN.
pub(crate) fn looks_like(line: &[u8]) -> bool {
    tag_name(line).is_ok_and(|(rest, _)| tag_value(rest).is_ok())
}

/// Whether a tag line's name is `Game`.
fn is_game_tag(text: &[u8]) -> bool {
    matches!(tag_name(text), Ok((_, name)) if name == KnownTag::Game.name().as_bytes())
}

/// For a `Game` tag line, a hash of what follows its name (the value as written): two copies
/// of one line hash alike, so a repeated tag does not start a second game.
fn game_tag_value(text: &[u8]) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    let (rest, name) = tag_name(text).ok()?;
    (name == KnownTag::Game.name().as_bytes()).then(|| {
        let mut hasher = std::hash::DefaultHasher::new();
        rest.trim_ascii().hash(&mut hasher);
        hasher.finish()
    })
}

/// The id of a game without a `Game` tag: `FILE:LINE` of its first tag line.
fn default_game_id(file: &str, line: LineNumber) -> String {
    format!("{file}:{line}")
}

/// One line of the content, as the reader sees it.
struct Line<'a> {
    /// The line (its text, number and place).
    source: SourceLine<'a>,
    /// What the line is.
    kind: Kind,
    /// Whether the line starts a game (where the reader stands).
    starts: bool,
    /// Where the delimiting of games stands after the line.
    after: Delimiter,
}

/// What a line is, from its first non-blank byte.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// Nothing but spaces and tabs.
    Blank,
    /// `%` first.
    Comment,
    /// `[` first.
    Tag,
    /// Anything else: a turn line (or garbage, which the turn parser reports).
    Turn,
}

impl<'a> std::ops::Deref for Line<'a> {
    type Target = SourceLine<'a>;

    fn deref(&self) -> &SourceLine<'a> {
        &self.source
    }
}

impl<'a> Line<'a> {
    /// Byte offset of the first non-blank byte (the length for a blank line).
    fn indent(&self) -> usize {
        self.text.iter().take_while(|&&b| is_blank(b)).count()
    }

    /// The text from the first non-blank byte on.
    fn rest(&self) -> &'a [u8] {
        self.text.get(self.indent()..).unwrap_or_default()
    }

    /// Checks that the line is UTF-8 (quickly when it is ASCII, as most lines are).
    fn check_utf8(&self) -> Result<(), Syntax<'a>> {
        if self.text.is_ascii() {
            return Ok(());
        }
        self.utf8().map(|_| ())
    }

    /// The line as text, if it is UTF-8; the error points at the first bad byte.
    fn utf8(&self) -> Result<&'a str, Syntax<'a>> {
        match std::str::from_utf8(self.text) {
            Ok(text) => Ok(text),
            Err(e) => Err(Syntax {
                at: self.text.get(e.valid_up_to()..).unwrap_or_default(),
                expected: Expected::Text("valid UTF-8"),
            }),
        }
    }
}

/// What a line (its text without the line end) is, from its first non-blank byte.
#[inline]
fn kind_of(text: &[u8]) -> Kind {
    match text.iter().find(|&&b| !is_blank(b)) {
        None => Kind::Blank,
        Some(b'%') => Kind::Comment,
        Some(b'[') => Kind::Tag,
        Some(_) => Kind::Turn,
    }
}

/// An error located in its line, before the game it belongs to is known to the message.
struct Failure {
    line: LineNumber,
    column: u32,
    expected: Expected,
    found: String,
}

impl Failure {
    /// The error `syntax` in `line`.
    fn new(line: &Line<'_>, syntax: Syntax<'_>) -> Failure {
        let offset = line.text.len().saturating_sub(syntax.at.len());
        Failure {
            line: line.number,
            column: line.column(offset),
            expected: syntax.expected,
            found: found(syntax.at),
        }
    }

    /// The error `syntax` at the end of the content (where `lines` stands).
    fn at_end(lines: &Cursor<'_>, syntax: Syntax<'_>) -> Failure {
        let (line, column) = lines.end_position();
        Failure {
            line,
            column,
            expected: syntax.expected,
            found: "end of file".to_string(),
        }
    }
}

/// The text at an error, as much as its excerpt ([`ParseError::excerpt`]) shows.
fn found(at: &[u8]) -> String {
    // 41 characters take at most 164 bytes: enough for the excerpt to decide on its ellipsis.
    let head = at.get(..164).unwrap_or(at);
    lossy(head).into_owned()
}

/// What the header of the game being read has given so far.
#[derive(Default)]
struct GameState {
    /// Line of the game's first tag line, once it is found.
    first_line: Option<LineNumber>,
    /// The known tags seen (bits of [`KnownTag::bit`]).
    seen: u8,
    /// Whether a turn line has been read (the header is complete).
    in_body: bool,
}

impl GameState {
    /// Reads the tag line `line`, whose name `name` is parsed and `rest` follows, into `out`.
    fn header_tag<'a>(
        &mut self,
        line: &'a str,
        name: &'a [u8],
        rest: &'a [u8],
        out: &mut GameRecord,
        strings: &mut Strings,
    ) -> Result<(), Syntax<'a>> {
        let (_, value) = tag_value(rest)?;
        let text = value.text(line, strings.take(""));
        let name_at = line
            .as_bytes()
            .get(line.len().saturating_sub(rest.len() + name.len())..);
        let name_at = name_at.unwrap_or_default();
        let name = part_of(line, name_at, name.len());
        if let Some(tag) = KnownTag::of(name) {
            if self.seen & tag.bit() != 0 {
                return Err(Syntax {
                    at: name_at,
                    expected: Expected::Duplicate(tag),
                });
            }
            self.seen |= tag.bit();
            apply_tag(tag, &text, out, strings).map_err(|(offset, expected)| Syntax {
                at: value.at(offset),
                expected,
            })?;
        }
        out.tags.push((strings.take(name), text));
        Ok(())
    }

    /// Checks that the header has every required tag; `at` is where it ended.
    fn check_header<'a>(&self, at: &'a [u8]) -> Result<(), Syntax<'a>> {
        let missing = REQUIRED.iter().fold(0, |bits, tag| bits | tag.bit()) & !self.seen;
        if missing == 0 {
            Ok(())
        } else {
            Err(Syntax {
                at,
                expected: Expected::Missing(missing),
            })
        }
    }
}

/// The tags the reader understands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum KnownTag {
    Game,
    Rules,
    Players,
    Date,
    Time,
    Result,
    Termination,
}

/// The tags every game must have.
const REQUIRED: [KnownTag; 2] = [KnownTag::Rules, KnownTag::Players];

impl KnownTag {
    /// Every known tag.
    const ALL: [KnownTag; 7] = [
        KnownTag::Game,
        KnownTag::Rules,
        KnownTag::Players,
        KnownTag::Date,
        KnownTag::Time,
        KnownTag::Result,
        KnownTag::Termination,
    ];

    /// The tag's name.
    fn name(self) -> &'static str {
        match self {
            KnownTag::Game => "Game",
            KnownTag::Rules => "Rules",
            KnownTag::Players => "Players",
            KnownTag::Date => "Date",
            KnownTag::Time => "Time",
            KnownTag::Result => "Result",
            KnownTag::Termination => "Termination",
        }
    }

    /// The known tag called `name`, if any.
    fn of(name: &str) -> Option<KnownTag> {
        KnownTag::ALL.into_iter().find(|tag| tag.name() == name)
    }

    /// The tag's bit in a set of tags.
    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// Checks the value of a known tag and stores it in `out`. An error gives the byte offset in the
/// (unescaped) value and what was expected there.
fn apply_tag(
    tag: KnownTag,
    value: &str,
    out: &mut GameRecord,
    strings: &mut Strings,
) -> Result<(), (usize, Expected)> {
    match tag {
        KnownTag::Game if value.is_empty() => return Err((0, Expected::Text("a game id"))),
        KnownTag::Game => out.provenance.game_id.push_str(value),
        KnownTag::Rules => out.rules.push_str(value),
        KnownTag::Players => parse_players(value, &mut out.players, strings)?,
        KnownTag::Date => {
            check_shape(
                value,
                b"dddd.dd.dd",
                &[(5, 1, 12), (8, 1, 31)],
                "a date YYYY.MM.DD",
            )?;
            out.provenance.date = Some(strings.take(value));
        }
        KnownTag::Time => {
            check_shape(
                value,
                b"dd:dd:dd",
                &[(0, 0, 23), (3, 0, 59), (6, 0, 59)],
                "a time HH:MM:SS",
            )?;
            out.provenance.time = Some(strings.take(value));
        }
        KnownTag::Result => out.result = Some(parse_totals(value)?),
        KnownTag::Termination => {
            out.termination = Termination::parse(value).ok_or((0, Expected::Text(TERMINATION)))?;
        }
    }
    Ok(())
}

/// Splits a `Players` value on `, ` into checked, distinct names.
fn parse_players(
    value: &str,
    players: &mut Vec<String>,
    strings: &mut Strings,
) -> Result<(), (usize, Expected)> {
    let mut offset = 0;
    for name in value.split(", ") {
        check_player_name(name).map_err(|(at, expected)| (offset + at, expected))?;
        const _: () = assert!(MAX_PLAYERS == 255, "the message below names the limit");
        if players.len() == MAX_PLAYERS {
            return Err((offset, Expected::Text("at most 255 players")));
        }
        if players.iter().any(|p| p == name) {
            return Err((offset, Expected::Text("distinct player names")));
        }
        players.push(strings.take(name));
        offset += name.len() + 2;
    }
    Ok(())
}

/// Checks one player name: 1 to 64 characters, no white space, none of `, : " [ ] { } %`.
fn check_player_name(name: &str) -> Result<(), (usize, Expected)> {
    const NAME: &str =
        "a player name: 1 to 64 characters, no white space and none of , : \" [ ] { } %";
    if name.is_empty() {
        return Err((0, Expected::Text(NAME)));
    }
    for (count, (at, c)) in name.char_indices().enumerate() {
        if count == MAX_NAME_CHARS || c.is_whitespace() || NAME_FORBIDDEN.contains(&c) {
            return Err((at, Expected::Text(NAME)));
        }
    }
    Ok(())
}

/// Checks that `value` has the shape `pattern` (`d` a digit, anything else itself) and that each
/// two-digit field `(offset, min, max)` is in range.
fn check_shape(
    value: &str,
    pattern: &[u8],
    fields: &[(usize, u8, u8)],
    expected: &'static str,
) -> Result<(), (usize, Expected)> {
    let bytes = value.as_bytes();
    let fail = |at: usize| Err((at, Expected::Text(expected)));
    for (at, &want) in pattern.iter().enumerate() {
        match bytes.get(at) {
            Some(b) if want == b'd' && b.is_ascii_digit() || *b == want && want != b'd' => {}
            _ => return fail(at),
        }
    }
    if bytes.len() > pattern.len() {
        return fail(pattern.len());
    }
    for &(at, min, max) in fields {
        let field = bytes.get(at..at + 2).unwrap_or_default();
        let number = field.iter().fold(0u8, |n, d| n * 10 + (d - b'0'));
        if !(min..=max).contains(&number) {
            return fail(at);
        }
    }
    Ok(())
}

/// Parses the `Result` totals: unsigned numbers separated by single spaces.
fn parse_totals(value: &str) -> Result<Vec<u32>, (usize, Expected)> {
    let mut offset = 0;
    value
        .split(' ')
        .map(|total| {
            let at = offset;
            offset += total.len() + 1;
            let bytes = total.as_bytes();
            let leading_zero = bytes.len() > 1 && bytes.first() == Some(&b'0');
            match total.parse::<u32>() {
                Ok(n) if !leading_zero && bytes.iter().all(u8::is_ascii_digit) => Ok(n),
                _ => Err((at, Expected::Text(TOTALS))),
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Line grammar: nom parsers over the bytes of one line.

/// A syntax error inside one line: the rest of the line from where it is, and what the grammar
/// allows there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Syntax<'a> {
    at: &'a [u8],
    expected: Expected,
}

impl<'a> Syntax<'a> {
    /// The error at `at`, expecting `expected`.
    fn at(at: &'a [u8], expected: &'static str) -> Syntax<'a> {
        Syntax {
            at,
            expected: Expected::Text(expected),
        }
    }
}

impl<'a> nom::error::ParseError<&'a [u8]> for Syntax<'a> {
    fn from_error_kind(input: &'a [u8], _kind: ErrorKind) -> Self {
        Syntax::at(input, "valid YGN")
    }

    fn append(_input: &'a [u8], _kind: ErrorKind, other: Self) -> Self {
        other
    }
}

impl<'a> From<nom::Err<Syntax<'a>>> for Syntax<'a> {
    fn from(err: nom::Err<Syntax<'a>>) -> Self {
        match err {
            nom::Err::Error(e) | nom::Err::Failure(e) => e,
            nom::Err::Incomplete(_) => Syntax::at(&[], "a complete line"),
        }
    }
}

/// What the grammar allows where an error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expected {
    /// Said in so many words.
    Text(&'static str),
    /// A player of the game's `Players` tag.
    Player,
    /// A known tag given twice.
    Duplicate(KnownTag),
    /// Required tags missing (bits of [`KnownTag::bit`]).
    Missing(u8),
}

impl Expected {
    /// The words for the message; `players` are the game's players.
    fn describe(self, players: &[String]) -> String {
        match self {
            Expected::Text(text) => text.to_string(),
            Expected::Player => {
                let mut list = players.join(", ");
                if let Some((cut, _)) = list.char_indices().nth(60) {
                    list.truncate(cut);
                    list.push('…');
                }
                format!("a player in Players ({list})")
            }
            Expected::Duplicate(tag) => format!("one `{}` tag per game", tag.name()),
            Expected::Missing(bits) => {
                let names: Vec<String> = KnownTag::ALL
                    .into_iter()
                    .filter(|tag| bits & tag.bit() != 0)
                    .map(|tag| format!("`{}`", tag.name()))
                    .collect();
                let what = match names.len() {
                    1 => format!("a {} tag", names.join("")),
                    _ => format!("{} tags", names.join(" and ")),
                };
                format!("{what} in the game's header")
            }
        }
    }
}

/// The result of the line parsers.
type PResult<'a, O> = IResult<&'a [u8], O, Syntax<'a>>;

const GAME_START: &str = "a tag line `[Name \"value\"]` starting a game";
const TAG_NAME: &str = "a tag name (ASCII letters and digits)";
/// What may stand where a category is: the words of three messages.
macro_rules! category_code {
    () => {
        "a category code (1-6, 1P, 2P, 3P, 3K, 4K, 5K, FH, VI, TO, SS, LS, FS, C, Y, or a Jamb cell such as D:1, F:MAX, A:J)"
    };
}
const CATEGORY: &str = category_code!();
const KEEP_OR_CATEGORY: &str = concat!(
    "a keep (`k` and the dice kept, or `k-`) or ",
    category_code!()
);
/// The words after a turn's last possible roll; the number is [`MAX_ROLLS_PER_TURN`] (a test
/// checks they agree).
const TOO_MANY_ROLLS: &str = concat!(category_code!(), ": a turn has at most 64 rolls");
const ANNOUNCEMENT: &str = "an announced cell after `@` (a box code such as A:P)";
const ANNOUNCED_TWICE: &str =
    "a keep or a category code: a turn announces once (`@` right after the first roll)";
const LATE_ANNOUNCEMENT: &str =
    "a keep or a category code: an announcement (`@`) stands right after the first roll";
const ROLL: &str = "a roll (one to six dice 1-6)";
const TOTALS: &str =
    "final totals: numbers 0-4294967295 without leading zeros, one space between them";
const TERMINATION: &str = "a termination: normal, abandoned, timeout or resigned";
const DIE: &str = "a die 1-6";

/// `parser`, its error (wherever it is) saying `expected`.
fn expect<'a, O>(
    expected: &'static str,
    mut parser: impl Parser<&'a [u8], O, Syntax<'a>>,
) -> impl FnMut(&'a [u8]) -> PResult<'a, O> {
    move |input| {
        parser
            .parse(input)
            .map_err(|e| e.map(|e| Syntax::at(e.at, expected)))
    }
}

/// Fails at `at`, expecting `expected`.
fn fail<'a, O>(at: &'a [u8], expected: &'static str) -> PResult<'a, O> {
    Err(nom::Err::Error(Syntax::at(at, expected)))
}

/// A space or a tab: what separates tokens.
fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// Skips spaces and tabs.
fn blanks0(input: &[u8]) -> PResult<'_, &[u8]> {
    take_while(is_blank)(input)
}

/// One or more spaces or tabs, else an error expecting `expected`.
fn blanks1<'a>(expected: &'static str) -> impl FnMut(&'a [u8]) -> PResult<'a, &'a [u8]> {
    expect(expected, take_while1(is_blank))
}

/// Checks that a token ends here (a blank or the end of the line).
#[inline]
fn token_end<'a>(input: &'a [u8], expected: &'static str) -> PResult<'a, ()> {
    match input.first() {
        None => Ok((input, ())),
        Some(&b) if is_blank(b) => Ok((input, ())),
        Some(_) => fail(input, expected),
    }
}

/// The value of a decimal number of at most 9 digits.
fn decimal(digits: &[u8]) -> u32 {
    digits.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0'))
}

/// An unsigned number in `range`, of at most `max_digits` digits, without leading zeros.
fn number<'a>(
    max_digits: usize,
    range: RangeInclusive<u32>,
    expected: &'static str,
) -> impl FnMut(&'a [u8]) -> PResult<'a, u32> {
    move |input| {
        let (rest, digits) = expect(
            expected,
            take_while_m_n(1, max_digits + 1, |b: u8| b.is_ascii_digit()),
        )(input)?;
        let value = decimal(digits);
        let leading_zero = digits.len() > 1 && digits.first() == Some(&b'0');
        if digits.len() > max_digits || leading_zero || !range.contains(&value) {
            return fail(input, expected);
        }
        Ok((rest, value))
    }
}

/// `[` and the tag name, after optional blanks.
fn tag_name(line: &[u8]) -> PResult<'_, &[u8]> {
    let (rest, _) = blanks0(line)?;
    let (rest, _) = expect("`[` starting a tag", char('['))(rest)?;
    expect(TAG_NAME, take_while1(|b: u8| b.is_ascii_alphanumeric()))(rest)
}

/// The `len` bytes of `line` from where its suffix `from` starts, as text (empty if that is not
/// a part of `line` on character boundaries, which the parsers never ask for).
fn part_of<'a>(line: &'a str, from: &[u8], len: usize) -> &'a str {
    let start = line.len().saturating_sub(from.len());
    line.get(start..start + len).unwrap_or_default()
}

/// Strings of a game read before, kept to hold the text of the next one without allocating.
#[derive(Default)]
struct Strings(Vec<String>);

impl Strings {
    /// Takes back the strings of `game` (which is about to be cleared).
    fn recycle(&mut self, game: &mut GameRecord) {
        for (name, value) in game.tags.drain(..) {
            self.0.push(name);
            self.0.push(value);
        }
        self.0.append(&mut game.players);
        self.0.extend(game.provenance.date.take());
        self.0.extend(game.provenance.time.take());
    }

    /// A string holding `text`.
    fn take(&mut self, text: &str) -> String {
        let mut string = self.0.pop().unwrap_or_default();
        string.clear();
        string.push_str(text);
        string
    }
}

/// A tag value as written between its quotes.
struct QuotedValue<'a> {
    /// The line from the value's first byte on.
    tail: &'a [u8],
    /// The bytes between the quotes, escapes included.
    raw: &'a [u8],
    /// Whether `raw` has escapes.
    escaped: bool,
}

impl<'a> QuotedValue<'a> {
    /// The value, escapes resolved, written into `value` (emptied first); `line` is the line
    /// the value is in, as text.
    fn text(&self, line: &str, mut value: String) -> String {
        let text = part_of(line, self.tail, self.raw.len());
        value.clear();
        if !self.escaped {
            value.push_str(text);
            return value;
        }
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            value.push(if c == '\\' {
                chars.next().unwrap_or(c)
            } else {
                c
            });
        }
        value
    }

    /// The line from the byte at `offset` in the unescaped value on.
    fn at(&self, offset: usize) -> &'a [u8] {
        let mut raw = offset;
        if self.escaped {
            raw = 0;
            for _ in 0..offset {
                raw += if self.raw.get(raw) == Some(&b'\\') {
                    2
                } else {
                    1
                };
            }
        }
        self.tail.get(raw..).unwrap_or_default()
    }
}

/// The rest of a tag line after its name: blanks, the quoted value, `]`, optional blanks.
fn tag_value(input: &[u8]) -> PResult<'_, QuotedValue<'_>> {
    let (rest, _) = blanks1("a space between the tag name and its value")(input)?;
    let (rest, _) = expect("the tag value in quotes (`\"`)", char('"'))(rest)?;
    let (rest, value) = quoted(rest)?;
    let (rest, _) = expect("`]` closing the tag", char(']'))(rest)?;
    let (rest, _) = blanks0(rest)?;
    if !rest.is_empty() {
        return fail(rest, "the end of the line after the tag");
    }
    Ok((rest, value))
}

/// The inside of a quoted value and its closing quote; `\"` and `\\` are the only escapes.
fn quoted(input: &[u8]) -> PResult<'_, QuotedValue<'_>> {
    let mut escaped = false;
    let mut at = 0;
    loop {
        let rest = input.get(at..).unwrap_or_default();
        let Some(stop) = rest.iter().position(|&b| b == b'"' || b == b'\\') else {
            return fail(
                input.get(input.len()..).unwrap_or_default(),
                "`\"` closing the tag value",
            );
        };
        at += stop;
        match (input.get(at), input.get(at + 1)) {
            (Some(b'"'), _) => {
                let raw = input.get(..at).unwrap_or_default();
                let rest = input.get(at + 1..).unwrap_or_default();
                return Ok((
                    rest,
                    QuotedValue {
                        tail: input,
                        raw,
                        escaped,
                    },
                ));
            }
            (_, Some(b'"' | b'\\')) => {
                escaped = true;
                at += 2;
            }
            _ => {
                let at = input.get(at..).unwrap_or_default();
                return fail(at, "`\\\"` or `\\\\` (an escaped quote or backslash)");
            }
        }
    }
}

/// Parses a turn line into `turn` (whose `line` is set): round, seat, rolls and keeps, category,
/// points; the comment is dropped.
fn turn_line<'a>(
    line: &'a [u8],
    players: &[String],
    turn: &mut TurnRecord,
) -> Result<(), Syntax<'a>> {
    let (rest, _) = blanks0(line)?;
    let (rest, round) = number(2, 1..=99, "a round number 1-99")(rest)?;
    let (rest, _) = expect("`.` after the round number", char('.'))(rest)?;
    let (rest, _) = blanks1("a space after the round number")(rest)?;
    let (rest, seat) = seat(rest, players)?;
    let (rest, _) = expect("`:` after the player's name", char(':'))(rest)?;
    let (rest, _) = blanks1("a space after the player's name")(rest)?;
    let (mut rest, first) = roll(rest)?;
    turn.round = round as u16;
    turn.seat = seat;
    turn.set_first_roll(first);
    turn.announced = None;
    // The announcement, if any, stands right after the first roll.
    let (next, _) = blanks0(rest)?;
    if next.first() == Some(&b'@') {
        let (next, announced) = announcement(next)?;
        turn.announced = Some(announced);
        rest = next;
    }
    // Each further roll comes after a keep: `keeps()[n - 1]` before `rolls()[n]`.
    loop {
        let (next, _) = blanks0(rest)?;
        rest = next;
        match next.first() {
            Some(b'k') if turn.rolls().len() >= MAX_ROLLS_PER_TURN => {
                return Err(Syntax::at(next, TOO_MANY_ROLLS));
            }
            Some(b'k') => {}
            Some(b'@') if turn.announced.is_some() => {
                return Err(Syntax::at(next, ANNOUNCED_TWICE));
            }
            Some(b'@') => return Err(Syntax::at(next, LATE_ANNOUNCEMENT)),
            _ => break,
        }
        let (next, kept) = keep(next)?;
        let (next, _) = blanks0(next)?;
        let (next, dice) = roll(next)?;
        if turn.push_roll(kept, dice).is_err() {
            return Err(Syntax::at(rest, TOO_MANY_ROLLS));
        }
        rest = next;
    }
    let (rest, _) = blanks0(rest)?;
    let expected = if turn.rolls().len() >= MAX_ROLLS_PER_TURN {
        CATEGORY
    } else {
        KEEP_OR_CATEGORY
    };
    let (rest, (category, points)) = category(rest, expected)?;
    turn.category = category;
    turn.points = points;
    let (rest, _) = blanks0(rest)?;
    comment_or_end(rest)
}

/// The player's name, as a seat of `players`.
#[inline]
fn seat<'a>(input: &'a [u8], players: &[String]) -> PResult<'a, u8> {
    // No name has a `:`, so the player is the one whose name the `:` follows.
    for (seat, player) in players.iter().enumerate() {
        let name = player.as_bytes();
        let written = input
            .get(..name.len())
            .filter(|_| input.get(name.len()) == Some(&b':'));
        if let (Some(written), Ok(seat)) = (written, u8::try_from(seat)) {
            if same_bytes(written, name) {
                return Ok((input.get(name.len()..).unwrap_or_default(), seat));
            }
        }
    }
    expect(
        "a player's name",
        take_while1(|b: u8| !is_blank(b) && b != b':'),
    )(input)?;
    Err(nom::Err::Error(Syntax {
        at: input,
        expected: Expected::Player,
    }))
}

/// Whether `a` and `b` are equal: a plain loop, faster than `memcmp` for names this short.
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// A run of up to `max` dice 1-6 (a digit beyond `max` is an error expecting `too_many`).
/// Returns the faces and how many there are.
#[inline(always)]
fn dice<'a>(
    input: &'a [u8],
    max: usize,
    too_many: &'static str,
) -> PResult<'a, ([u8; MAX_DICE], usize)> {
    let mut faces = [0u8; MAX_DICE];
    let mut count = 0;
    for (at, &b) in input.iter().enumerate() {
        if !b.is_ascii_digit() {
            break;
        }
        let here = input.get(at..).unwrap_or_default();
        match faces.get_mut(count) {
            _ if count == max => return fail(here, too_many),
            Some(face) if (b'1'..=b'6').contains(&b) => *face = b - b'0',
            _ => return fail(here, DIE),
        }
        count += 1;
    }
    Ok((input.get(count..).unwrap_or_default(), (faces, count)))
}

/// A roll: one to six dice 1-6.
#[inline]
fn roll(input: &[u8]) -> PResult<'_, Roll> {
    // The common case in one go: five dice and the end of the token.
    if let (Some(&[a, b, c, d, e]), next) = (input.get(..5), input.get(5)) {
        let faces = [a, b, c, d, e].map(|face| face.wrapping_sub(b'0'));
        if faces.iter().all(|face| (1..=6).contains(face)) && next.is_none_or(|&b| is_blank(b)) {
            return Ok((input.get(5..).unwrap_or_default(), Roll::from(faces)));
        }
    }
    let (rest, (faces, count)) = dice(input, MAX_DICE, "at most six dice, then a space")?;
    let Some(roll) = Roll::from_array(faces, count) else {
        return fail(input, ROLL);
    };
    let (rest, _) = token_end(rest, "a space after the dice")?;
    Ok((rest, roll))
}

/// A keep: `k-` or `k` and one to six dice 1-6.
#[inline]
fn keep(input: &[u8]) -> PResult<'_, Keep> {
    let (rest, _) = char('k')(input)?;
    if let Some(rest) = rest.strip_prefix(b"-") {
        let (rest, _) = token_end(rest, "a space after `k-`")?;
        return Ok((rest, Keep::default()));
    }
    let (after, (faces, count)) = dice(rest, MAX_DICE, "at most six kept dice")?;
    let kept = Keep::from_array(faces, count).filter(|_| count > 0);
    let Some(kept) = kept else {
        return fail(rest, "the kept dice 1-6 after `k`, or `k-` to keep none");
    };
    let (after, _) = token_end(after, "a space after the kept dice")?;
    Ok((after, kept))
}

/// The category code and the optional `=POINTS`.
#[inline]
fn category<'a>(input: &'a [u8], expected: &'static str) -> PResult<'a, (BoxCode, Option<u16>)> {
    // A code has one to five bytes, then `=`, a blank or the end of the line.
    let ends_code = |b: &u8| is_blank(*b) || *b == b'=';
    let len = input
        .iter()
        .take(BoxCode::LONGEST + 1)
        .position(ends_code)
        .unwrap_or(input.len().min(BoxCode::LONGEST + 1));
    let Some(category) = input.get(..len).and_then(BoxCode::from_bytes) else {
        return fail(input, expected);
    };
    let rest = input.get(len..).unwrap_or_default();
    let Some(rest) = rest.strip_prefix(b"=") else {
        return Ok((rest, (category, None)));
    };
    let (rest, points) = number(5, 0..=u32::from(u16::MAX), "points 0-65535 after `=`")(rest)?;
    let (rest, _) = token_end(rest, "a space after the points")?;
    Ok((rest, (category, u16::try_from(points).ok())))
}

/// An announcement: `@` and the announced box code, ended by a blank or the end of the line.
fn announcement(input: &[u8]) -> PResult<'_, BoxCode> {
    let (rest, _) = expect("`@`", char('@'))(input)?;
    let len = rest.iter().position(|&b| is_blank(b)).unwrap_or(rest.len());
    match rest.get(..len).and_then(BoxCode::from_bytes) {
        Some(code) => Ok((rest.get(len..).unwrap_or_default(), code)),
        None => fail(rest, ANNOUNCEMENT),
    }
}

/// The end of a turn line: nothing, or a `{comment}` running to the end.
#[inline]
fn comment_or_end(input: &[u8]) -> Result<(), Syntax<'_>> {
    match input.first() {
        None => Ok(()),
        Some(b'{') => {
            let end = input
                .iter()
                .rposition(|&b| !is_blank(b))
                .map_or(0, |last| last + 1);
            if end >= 2 && input.get(end - 1) == Some(&b'}') {
                Ok(())
            } else {
                Err(Syntax::at(
                    input.get(input.len()..).unwrap_or_default(),
                    "`}` closing the comment",
                ))
            }
        }
        Some(_) => Err(Syntax::at(
            input,
            "a comment `{...}` or the end of the line",
        )),
    }
}

// ---------------------------------------------------------------------------------------------
// Writer.

/// Writes one game in canonical YGN: every tag of [`GameRecord::tags_to_write`] as
/// `[Name "value"]` (`\` and `"` escaped), one turn line per turn
/// (`ROUND. NAME: ROLL [kKEEP ROLL]... CODE[=POINTS]`, dice in the record's order, `k-` for an
/// empty keep), then a blank line.
///
/// Reading the output back gives an equal record, but for where it was read (see
/// [`strip_location`]). A record that YGN cannot hold is refused with
/// [`io::ErrorKind::InvalidInput`] and nothing written: a tag name that is not ASCII letters and
/// digits, a line break in a value, a known tag given twice or with a value the reader rejects,
/// no `Rules` or `Players` tag, or a turn with a round outside 1-99, a seat outside `Players`,
/// other than one to three rolls, a die outside 1-6 or an unknown category code.
pub fn write_game(game: &GameRecord, out: &mut dyn io::Write) -> io::Result<()> {
    let tags = game.tags_to_write();
    let mut header = GameRecord::default();
    let mut state = GameState::default();
    let mut buf = Vec::with_capacity(48 * (tags.len() + game.turns.len() + 1));
    let refuse = |what: String| {
        let id = &game.provenance.game_id;
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("game {id} cannot be written as YGN: {what}"),
        )
    };
    for (name, value) in tags.iter() {
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(refuse(format!(
                "tag name {name:?} is not ASCII letters and digits"
            )));
        }
        if value.contains('\n') {
            return Err(refuse(format!("tag {name} has a line break")));
        }
        if let Some(tag) = KnownTag::of(name) {
            if state.seen & tag.bit() != 0 {
                return Err(refuse(format!("tag {name} appears twice")));
            }
            state.seen |= tag.bit();
            apply_tag(tag, value, &mut header, &mut Strings::default()).map_err(
                |(_, expected)| {
                    refuse(format!(
                        "tag {name} {value:?}: expected {}",
                        expected.describe(&[])
                    ))
                },
            )?;
        }
        write_tag(&mut buf, name, value);
    }
    state
        .check_header(&[])
        .map_err(|e| refuse(format!("expected {}", e.expected.describe(&[]))))?;
    for turn in &game.turns {
        write_turn(&mut buf, turn, &header.players).map_err(|what| refuse(what.to_string()))?;
    }
    buf.push(b'\n');
    out.write_all(&buf)
}

/// Appends `[name "value"]` and a line end, escaping `\` and `"`.
fn write_tag(buf: &mut Vec<u8>, name: &str, value: &str) {
    buf.push(b'[');
    buf.extend_from_slice(name.as_bytes());
    buf.extend_from_slice(b" \"");
    for &b in value.as_bytes() {
        if b == b'"' || b == b'\\' {
            buf.push(b'\\');
        }
        buf.push(b);
    }
    buf.extend_from_slice(b"\"]\n");
}

/// Appends one turn line; an error says what YGN cannot hold.
fn write_turn(
    buf: &mut Vec<u8>,
    turn: &TurnRecord,
    players: &[String],
) -> Result<(), &'static str> {
    if !(1..=99).contains(&turn.round) {
        return Err("a round outside 1-99");
    }
    let name = players
        .get(usize::from(turn.seat))
        .ok_or("a seat outside Players")?;
    if !(1..=MAX_ROLLS_PER_TURN).contains(&turn.rolls().len()) {
        return Err("a turn without one to 64 rolls");
    }
    if BoxCode::parse(turn.category.as_str()) != Some(turn.category) {
        return Err("an unknown category code");
    }
    if let Some(announced) = turn.announced {
        if BoxCode::parse(announced.as_str()) != Some(announced) {
            return Err("an unknown announced code");
        }
    }
    push_decimal(buf, u32::from(turn.round));
    buf.extend_from_slice(b". ");
    buf.extend_from_slice(name.as_bytes());
    buf.push(b':');
    for (n, roll) in turn.rolls().iter().enumerate() {
        if let Some(kept) = n.checked_sub(1).and_then(|k| turn.keeps().get(k)) {
            buf.extend_from_slice(b" k");
            if kept.faces().is_empty() {
                buf.push(b'-');
            }
            push_dice(buf, kept.faces())?;
        }
        if roll.is_empty() {
            return Err("a roll without dice");
        }
        buf.push(b' ');
        push_dice(buf, roll.faces())?;
        if let (0, Some(announced)) = (n, turn.announced) {
            buf.extend_from_slice(b" @");
            buf.extend_from_slice(announced.as_str().as_bytes());
        }
    }
    buf.push(b' ');
    buf.extend_from_slice(turn.category.as_str().as_bytes());
    if let Some(points) = turn.points {
        buf.push(b'=');
        push_decimal(buf, u32::from(points));
    }
    buf.push(b'\n');
    Ok(())
}

/// Appends dice as digits; an error if one is not 1-6.
fn push_dice(buf: &mut Vec<u8>, faces: &[u8]) -> Result<(), &'static str> {
    for &face in faces {
        if !(1..=6).contains(&face) {
            return Err("a die outside 1-6");
        }
        buf.push(b'0' + face);
    }
    Ok(())
}

/// Appends `n` in decimal.
fn push_decimal(buf: &mut Vec<u8>, n: u32) {
    if n >= 10 {
        push_decimal(buf, n / 10);
    }
    buf.push(b'0' + (n % 10) as u8);
}

/// Clears what depends on where a game was read, so that the same game read from two places
/// compares equal: the provenance's file and line, each turn's line, and the game id when it was
/// made from them (no `Game` tag).
pub fn strip_location(game: &mut GameRecord) {
    if game.tag(KnownTag::Game.name()).is_none() {
        game.provenance.game_id.clear();
    }
    game.provenance.file.clear();
    game.provenance.line = 0;
    game.provenance.result_line = None;
    for turn in &mut game.turns {
        turn.line = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::time::{Duration, Instant};

    /// Every outcome of reading `content` as the file `t.ygn`, checking that each call moves on.
    fn read_all(content: &[u8]) -> Vec<Result<GameRecord, ParseError>> {
        let mut reader = Reader::new(content, "t.ygn");
        let mut game = GameRecord::default();
        let mut outcomes = Vec::new();
        let mut offset = reader.consumed();
        while let Some(outcome) = reader.read_game(&mut game) {
            assert!(
                reader.consumed() > offset,
                "a call that returns something moves on"
            );
            offset = reader.consumed();
            if outcome.is_err() {
                assert_eq!(
                    game,
                    GameRecord::default(),
                    "a broken game leaves the record empty"
                );
            }
            outcomes.push(outcome.map(|()| game.clone()));
        }
        assert_eq!(
            reader.consumed(),
            content.len(),
            "the reader reads to the end"
        );
        outcomes
    }

    /// The games of `content`, which must all parse.
    fn games(content: &str) -> Vec<GameRecord> {
        read_all(content.as_bytes())
            .into_iter()
            .map(|outcome| outcome.unwrap_or_else(|e| panic!("unexpected error: {e}")))
            .collect()
    }

    /// The errors among the outcomes of `content`.
    fn errors(content: &[u8]) -> Vec<ParseError> {
        read_all(content)
            .into_iter()
            .filter_map(Result::err)
            .collect()
    }

    /// The header of the games of these tests.
    const HEAD: &str = "[Game \"g1\"]\n[Rules \"yahtzee\"]\n[Players \"ann, bob\"]\n";

    /// The one error of a game with header [`HEAD`] and the turn line `turn` (line 4).
    fn turn_error(turn: &str) -> ParseError {
        let errors = errors(format!("{HEAD}{turn}\n").as_bytes());
        assert_eq!(errors.len(), 1, "one error for {turn:?}");
        errors.into_iter().next().unwrap_or_else(|| unreachable!())
    }

    fn code(text: &str) -> BoxCode {
        BoxCode::parse(text).unwrap_or_else(|| panic!("{text} is a category code"))
    }

    #[test]
    fn reads_the_spec_example_into_every_field() {
        let text = "% two games from one room\n[Game \"r3-000187\"]\n[Site \"example.org\"]\n\
            [Date \"2007.03.14\"]\n[Time \"21:04:55\"]\n[Rules \"yahtzee-kurnik\"]\n\
            [Players \"simson11, kasia_k\"]\n[Result \"201 188\"]\n[Termination \"timeout\"]\n\n\
            1. simson11: 13456 k3456 23456 LS=40\n\
            1. kasia_k: 52216 k22 22234 k222 26222 3K=14\n\
            2. simson11: 61666 k666 66636 k6666 66666 Y\n";
        let games = games(text);
        assert_eq!(games.len(), 1);
        let game = &games[0];
        assert_eq!(game.players, ["simson11", "kasia_k"]);
        assert_eq!(game.rules, "yahtzee-kurnik");
        assert_eq!(game.provenance.file, "t.ygn");
        assert_eq!(game.provenance.line, 2);
        assert_eq!(game.provenance.game_id, "r3-000187");
        assert_eq!(game.provenance.date.as_deref(), Some("2007.03.14"));
        assert_eq!(game.provenance.time.as_deref(), Some("21:04:55"));
        assert_eq!(game.result, Some(vec![201, 188]));
        assert_eq!(game.termination, Termination::Timeout);
        let names: Vec<&str> = game.tags.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Game",
                "Site",
                "Date",
                "Time",
                "Rules",
                "Players",
                "Result",
                "Termination"
            ]
        );
        assert_eq!(game.tag("Site"), Some("example.org"));
        let mut second = TurnRecord::new(1, 1, code("3K"));
        second
            .set_rolls(
                &[
                    [5, 2, 2, 1, 6].into(),
                    [2, 2, 2, 3, 4].into(),
                    [2, 6, 2, 2, 2].into(),
                ],
                &[
                    Keep::new(&[2, 2]).unwrap_or_default(),
                    Keep::new(&[2, 2, 2]).unwrap_or_default(),
                ],
            )
            .unwrap();
        second.points = Some(14);
        second.line = 12;
        assert_eq!(game.turns.len(), 3);
        assert_eq!(game.turns[1], second);
        assert_eq!((game.turns[0].seat, game.turns[0].rolls().len()), (0, 2));
        assert_eq!((game.turns[2].round, game.turns[2].points), (2, None));
        assert_eq!(game.turns[2].category, code("Y"));
    }

    #[test]
    fn turn_lines_take_blanks_tabs_comments_and_any_case() {
        let text = format!(
            "{HEAD}  1.\tann:  12345\tk-  12345   ss=30   {{to the end: k C }}  \n\
             1. bob: 66666 y=50\n2. ann: 11111 k11111 11111 c\n99. bob: 12345 k5 65432 4 {{}}\n"
        );
        let turns = &games(&text)[0].turns;
        assert_eq!(turns.len(), 4);
        assert_eq!(turns[0].keeps(), [Keep::default()]);
        assert_eq!((turns[0].category, turns[0].points), (code("SS"), Some(30)));
        assert_eq!((turns[1].rolls().len(), turns[1].category), (1, code("Y")));
        assert_eq!(turns[2].keeps()[0].faces(), [1, 1, 1, 1, 1]);
        assert_eq!((turns[2].category, turns[2].points), (code("C"), None));
        assert_eq!((turns[3].round, turns[3].seat), (99, 1));
        assert_eq!(turns[3].rolls()[1], [6, 5, 4, 3, 2]);
    }

    #[test]
    fn rolls_have_as_many_dice_as_the_line_writes_one_to_six() {
        // How many dice the rule set rolls is the replay's business.
        let text = format!(
            "{HEAD}1. ann: 123456 k661 661234 k123456 654321 C\n1. bob: 4 k4 4 1\n\
             2. ann: 1234 k- 5566 3\n"
        );
        let turns = &games(&text)[0].turns;
        assert_eq!(turns.len(), 3);
        assert_eq!(
            turns[0].rolls(),
            [[1, 2, 3, 4, 5, 6], [6, 6, 1, 2, 3, 4], [6, 5, 4, 3, 2, 1]]
        );
        assert_eq!(turns[0].keeps()[0], [6, 6, 1]);
        assert_eq!(turns[0].keeps()[1], [1, 2, 3, 4, 5, 6]);
        assert_eq!(turns[1].rolls(), [[4], [4]]);
        assert_eq!(turns[1].keeps(), [[4]]);
        assert_eq!(turns[2].rolls(), [[1, 2, 3, 4], [5, 5, 6, 6]]);
    }

    #[test]
    fn an_announcement_after_the_first_roll_is_read_and_written_back() {
        let text = format!(
            "{HEAD}1. ann: 662134 @A:P k66 666134 k666 666636 A:P=74\n\
             1. bob: 123456\t@a:j  k- 111111 A:J {{pure luck}}\n2. ann: 12345 @A:K A:K\n"
        );
        let game = &games(&text)[0];
        let announced: Vec<Option<&str>> = (game.turns.iter())
            .map(|turn| turn.announced.as_ref().map(BoxCode::as_str))
            .collect();
        assert_eq!(announced, [Some("A:P"), Some("A:J"), Some("A:K")]);
        assert_eq!(game.turns[0].rolls().len(), 3);
        assert_eq!(game.turns[1].keeps(), [Keep::default()]);
        assert_eq!(game.turns[2].rolls(), [[1, 2, 3, 4, 5]]);
        let mut written = Vec::new();
        write_game(game, &mut written).unwrap();
        let written = String::from_utf8(written).unwrap();
        assert!(
            written.contains("1. ann: 662134 @A:P k66 666134 k666 666636 A:P=74\n"),
            "{written}"
        );
        assert!(
            written.contains("1. bob: 123456 @A:J k- 111111 A:J\n"),
            "{written}"
        );
        assert!(written.contains("2. ann: 12345 @A:K A:K\n"), "{written}");
        assert_eq!(&games(&written)[0].turns, &game.turns);
    }

    #[test]
    fn a_turn_line_holds_up_to_the_most_rolls_and_no_more() {
        assert!(TOO_MANY_ROLLS.contains(&format!("at most {MAX_ROLLS_PER_TURN} rolls")));
        let line = |rolls: usize| {
            let mut line = "1. ann: 123456".to_string();
            for n in 1..rolls {
                line.push_str(if n % 2 == 0 {
                    " k1 123456"
                } else {
                    " k- 654321"
                });
            }
            line + " C"
        };
        let game = &games(&format!("{HEAD}{}\n", line(MAX_ROLLS_PER_TURN)))[0];
        let turn = &game.turns[0];
        assert_eq!(turn.rolls().len(), MAX_ROLLS_PER_TURN);
        assert_eq!(turn.keeps().len(), MAX_ROLLS_PER_TURN - 1);
        assert_eq!(
            (turn.keeps()[0].faces(), turn.keeps()[1].faces()),
            (&[][..], &[1][..])
        );
        assert_eq!(turn.rolls()[MAX_ROLLS_PER_TURN - 1], [6, 5, 4, 3, 2, 1]);
        let mut written = Vec::new();
        write_game(game, &mut written).unwrap();
        assert_eq!(
            &games(std::str::from_utf8(&written).unwrap())[0].turns,
            &game.turns
        );
        // One more roll: an error at the keep before it.
        let too_long = line(MAX_ROLLS_PER_TURN + 1);
        let error = turn_error(&too_long);
        let keep_at = too_long.rfind(" k").unwrap() + 2;
        assert_eq!(
            (
                error.column as usize,
                error.expected.as_str(),
                error.found.as_str()
            ),
            (keep_at, TOO_MANY_ROLLS, "k1 123456 C")
        );
    }

    #[test]
    fn turn_line_errors_name_the_column_what_is_allowed_and_what_is_there() {
        // (turn line, column, expected, found)
        let cases: &[(&str, u32, &str, &str)] = &[
            ("1. ann: 12745 C", 11, "a die 1-6", "745 C"),
            ("1. ann: 12340 C", 13, "a die 1-6", "0 C"),
            (
                "1. ann: 1234561 C",
                15,
                "at most six dice, then a space",
                "1 C",
            ),
            ("1. ann: 1234C", 13, "a space after the dice", "C"),
            ("1. ann: 12345C", 14, "a space after the dice", "C"),
            ("1. ann: 123456C", 15, "a space after the dice", "C"),
            ("1. ann: C", 9, ROLL, "C"),
            ("1. ann: 0 C", 9, DIE, "0 C"),
            (
                "1. ann: 12345 k 12345 C",
                16,
                "the kept dice 1-6 after `k`, or `k-` to keep none",
                " 12345 C",
            ),
            (
                "1. ann: 12345 k1234561 12345 C",
                22,
                "at most six kept dice",
                "1 12345 C",
            ),
            ("1. ann: 12345 k17 12345 C", 17, "a die 1-6", "7 12345 C"),
            (
                "1. ann: 12345 k-1 12345 C",
                17,
                "a space after `k-`",
                "1 12345 C",
            ),
            ("1. ann: 12345 k12 C", 19, ROLL, "C"),
            ("1. ann: 12345 k12", 18, ROLL, "end of line"),
            (
                "1. ann: 12345 k1 12345 k1 12345 12345",
                33,
                KEEP_OR_CATEGORY,
                "12345",
            ),
            ("1. ann: 12345 6K", 15, KEEP_OR_CATEGORY, "6K"),
            // Announcements: right after the first roll, once, naming a box code.
            (
                "1. ann: 662134 @A:P @A:J k66 666134 A:P",
                21,
                ANNOUNCED_TWICE,
                "@A:J k66 666134 A:P",
            ),
            (
                "1. ann: 662134 k66 666134 @A:P A:P",
                27,
                LATE_ANNOUNCEMENT,
                "@A:P A:P",
            ),
            (
                "1. ann: 662134 @A:P k66 666134 @A:J A:P",
                32,
                ANNOUNCED_TWICE,
                "@A:J A:P",
            ),
            ("1. ann: 662134 @A:X A:P", 17, ANNOUNCEMENT, "A:X A:P"),
            ("1. ann: 662134 @ A:P", 17, ANNOUNCEMENT, " A:P"),
            ("1. ann: 662134 @", 17, ANNOUNCEMENT, "end of line"),
            ("1. ann: 662134 @A:P", 20, KEEP_OR_CATEGORY, "end of line"),
            (
                "1. ann: 1234567 C",
                15,
                "at most six dice, then a space",
                "7 C",
            ),
            ("1. ann: 12345", 14, KEEP_OR_CATEGORY, "end of line"),
            (
                "1. ann: 12345 C=",
                17,
                "points 0-65535 after `=`",
                "end of line",
            ),
            (
                "1. ann: 12345 C=65536",
                17,
                "points 0-65535 after `=`",
                "65536",
            ),
            ("1. ann: 12345 C=015", 17, "points 0-65535 after `=`", "015"),
            ("1. ann: 12345 C=15x", 19, "a space after the points", "x"),
            (
                "1. ann: 12345 C x",
                17,
                "a comment `{...}` or the end of the line",
                "x",
            ),
            (
                "1. ann: 12345 C {open",
                22,
                "`}` closing the comment",
                "end of line",
            ),
            (
                "1. carl: 12345 C",
                4,
                "a player in Players (ann, bob)",
                "carl: 12345 C",
            ),
            (
                "1. ann : 12345 C",
                4,
                "a player in Players (ann, bob)",
                "ann : 12345 C",
            ),
            (
                "1. ann:12345 C",
                8,
                "a space after the player's name",
                "12345 C",
            ),
            (
                "1.ann: 12345 C",
                3,
                "a space after the round number",
                "ann: 12345 C",
            ),
            (
                "1 ann: 12345 C",
                2,
                "`.` after the round number",
                " ann: 12345 C",
            ),
            (
                "0. ann: 12345 C",
                1,
                "a round number 1-99",
                "0. ann: 12345 C",
            ),
            (
                "100. ann: 12345 C",
                1,
                "a round number 1-99",
                "100. ann: 12345 C",
            ),
            (
                "01. ann: 12345 C",
                1,
                "a round number 1-99",
                "01. ann: 12345 C",
            ),
            (
                "x. ann: 12345 C",
                1,
                "a round number 1-99",
                "x. ann: 12345 C",
            ),
            (
                "  é. ann: 12345 C",
                3,
                "a round number 1-99",
                "é. ann: 12345 C",
            ),
        ];
        for &(turn, column, expected, found) in cases {
            let error = turn_error(turn);
            let want = (4, column, expected, found, Some("g1"), 1);
            let got = (
                error.line,
                error.column,
                error.expected.as_str(),
                error.found.as_str(),
                error.game_id.as_deref(),
                error.game_line,
            );
            assert_eq!(got, want, "{turn:?}");
            assert_eq!(error.file, "t.ygn");
        }
    }

    #[test]
    fn header_errors_name_the_column_what_is_allowed_and_what_is_there() {
        // (header line, column, expected, found): each replaces the `Players` line of HEAD
        let name = "a player name: 1 to 64 characters, no white space and none of , : \" [ ] { } %";
        let long = "x".repeat(65);
        let long_players = format!("[Players \"ann, {long}\"]");
        let many: Vec<String> = (0..=MAX_PLAYERS).map(|n| format!("p{n}")).collect();
        let many_players = format!("[Players \"{}\"]", many.join(", "));
        let cases: &[(&str, u32, &str, &str)] = &[
            ("[Players \"ann,bob\"]", 14, name, ",bob\\\"]"),
            ("[Players \"ann,  bob\"]", 16, name, " bob\\\"]"),
            ("[Players \"ann, \"]", 16, name, "\\\"]"),
            ("[Players \"\"]", 11, name, "\\\"]"),
            ("[Players \"a\\\\b, c:d\"]", 18, name, ":d\\\"]"),
            (
                "[Players \"ann, ann\"]",
                16,
                "distinct player names",
                "ann\\\"]",
            ),
            (&long_players, 80, name, "x\\\"]"),
            (&many_players, 1431, "at most 255 players", "p255\\\"]"),
            (
                "[Players ann]",
                10,
                "the tag value in quotes (`\"`)",
                "ann]",
            ),
            (
                "[Players\"ann\"]",
                9,
                "a space between the tag name and its value",
                "\\\"ann\\\"]",
            ),
            ("[ Players \"ann\"]", 2, TAG_NAME, " Players \\\"ann\\\"]"),
            ("[Players \"ann\" ]", 15, "`]` closing the tag", " ]"),
            (
                "[Players \"ann\"] x",
                17,
                "the end of the line after the tag",
                "x",
            ),
            (
                "[Players \"ann",
                14,
                "`\"` closing the tag value",
                "end of line",
            ),
            (
                "[Players \"a\\nn\"]",
                12,
                "`\\\"` or `\\\\` (an escaped quote or backslash)",
                "\\\\nn\\\"]",
            ),
            (
                "[Rules \"yatzy\"]",
                2,
                "one `Rules` tag per game",
                "Rules \\\"yatzy\\\"]",
            ),
            ("[Date \"2007.3.14\"]", 14, "a date YYYY.MM.DD", ".14\\\"]"),
            (
                "[Date \"2007.13.14\"]",
                13,
                "a date YYYY.MM.DD",
                "13.14\\\"]",
            ),
            ("[Date \"2007.03.14 \"]", 18, "a date YYYY.MM.DD", " \\\"]"),
            ("[Time \"24:00:00\"]", 8, "a time HH:MM:SS", "24:00:00\\\"]"),
            ("[Time \"23:60:00\"]", 11, "a time HH:MM:SS", "60:00\\\"]"),
            ("[Result \"12  13\"]", 13, TOTALS, " 13\\\"]"),
            ("[Result \"012\"]", 10, TOTALS, "012\\\"]"),
            ("[Result \"4294967296\"]", 10, TOTALS, "4294967296\\\"]"),
            ("[Result \"+1\"]", 10, TOTALS, "+1\\\"]"),
            ("[Termination \"Normal\"]", 15, TERMINATION, "Normal\\\"]"),
        ];
        for &(line, column, expected, found) in cases {
            let text = format!("[Game \"g1\"]\n[Rules \"yahtzee\"]\n{line}\n1. ann: 12345 C\n");
            let errors = errors(text.as_bytes());
            assert_eq!(errors.len(), 1, "{line:?}");
            let error = &errors[0];
            let got = (
                error.line,
                error.column,
                error.expected.as_str(),
                error.found.as_str(),
            );
            assert_eq!(got, (3, column, expected, found), "{line:?}");
            assert_eq!((error.game_id.as_deref(), error.game_line), (Some("g1"), 1));
        }
    }

    #[test]
    fn a_game_without_rules_or_players_is_an_error_where_its_header_ends() {
        let text = "[Game \"a\"]\n[Players \"ann\"]\n\n1. ann: 12345 C\n\
            [Game \"b\"]\n[Rules \"yatzy\"]\n[Game \"c\"]\n[Rules \"yatzy\"]\n[Players \"ann\"]\n\
            [Game \"d\"]";
        let outcomes = read_all(text.as_bytes());
        let summary: Vec<_> = outcomes
            .iter()
            .map(|outcome| match outcome {
                Ok(game) => (
                    game.provenance.game_id.clone(),
                    0,
                    0,
                    String::new(),
                    String::new(),
                ),
                Err(e) => (
                    e.game_id.clone().unwrap_or_default(),
                    e.line,
                    e.column,
                    e.expected.clone(),
                    e.found.clone(),
                ),
            })
            .collect();
        let missing = |what: &str| format!("{what} in the game's header");
        assert_eq!(
            summary,
            [
                (
                    "a".into(),
                    4,
                    1,
                    missing("a `Rules` tag"),
                    "1. ann: 12345 C".into()
                ),
                (
                    "b".into(),
                    7,
                    1,
                    missing("a `Players` tag"),
                    "[Game \\\"c\\\"]".into()
                ),
                ("c".into(), 0, 0, String::new(), String::new()),
                (
                    "d".into(),
                    10,
                    11,
                    missing("`Rules` and `Players` tags"),
                    "end of file".into()
                ),
            ]
        );
        let at_end = errors(b"[Game \"e\"]\n");
        assert_eq!((at_end[0].line, at_end[0].column), (2, 1));
    }

    #[test]
    fn games_end_at_a_tag_after_a_turn_or_at_a_second_game_tag() {
        let text = "[Rules \"yatzy\"]\n[Players \"ann\"]\n1. ann: 12345 C\n% comment\n\n\
            [Game \"w\"]\n[Rules \"yahtzee\"]\n[Players \"bob\"]\n\n\
            [Game \"x\"]\n[Rules \"yatzy\"]\n[Players \"ann\"]\n[Game \"y\"]\n[Rules \"yatzy\"]\n\
            [Players \"ann\"]\n1. ann: 12345 C\n2. ann: 12345 1\n";
        let games = games(text);
        let ids: Vec<(&str, LineNumber, usize)> = games
            .iter()
            .map(|g| {
                (
                    g.provenance.game_id.as_str(),
                    g.provenance.line,
                    g.turns.len(),
                )
            })
            .collect();
        assert_eq!(
            ids,
            [("t.ygn:1", 1, 1), ("w", 6, 0), ("x", 10, 0), ("y", 13, 2)]
        );
        assert_eq!(games[1].players, ["bob"]);
        assert_eq!(games[1].turns, []);
    }

    #[test]
    fn after_an_error_the_reader_goes_on_at_the_next_game() {
        let text = "1. ann: 12345 C\n2. ann: 12345 C\n\
            [Game \"a\"]\n[Rules \"yatzy\"]\n[Players \"ann\"]\n1. ann: 12347 C\n2. ann: 12345 C\n\
            [Rules \"yatzy\"]\n[Players \"ann\"]\n1. ann: 12345 C\n\
            [Date \"bad\"]\n[Rules \"yatzy\"]\n[Game \"late\"]\n[Players \"ann\"]\n1. ann: 12345 C\n\
            [Rules \"yatzy\"]\n[Players \"ann\"]\n[Game \"third\"]\n[Game \"fourth\"]\n\
            [Players \"x\"]\n[Rules \"x\"]\n";
        let outcomes: Vec<_> = read_all(text.as_bytes())
            .into_iter()
            .map(|outcome| match outcome {
                Ok(game) => format!(
                    "game {} from line {}",
                    game.provenance.game_id, game.provenance.line
                ),
                Err(e) => format!(
                    "error {}:{} in {:?} from line {}",
                    e.line, e.column, e.game_id, e.game_line
                ),
            })
            .collect();
        assert_eq!(
            outcomes,
            [
                "error 1:1 in None from line 1",
                "error 6:13 in Some(\"a\") from line 3",
                "game t.ygn:8 from line 8",
                "error 11:8 in Some(\"late\") from line 11",
                "game third from line 16",
                "game fourth from line 19",
            ]
        );
    }

    #[test]
    fn invalid_utf8_is_reported_at_the_character_column_of_the_bad_byte() {
        let text = b"[Game \"g\"]\n[Rules \"y\"]\n[Players \"\xc3\xa9t\xc3\xa9, b\xffob\"]\n1. b: 12345 C\n\
            [Game \"h\"]\n[Rules \"y\"]\n[Players \"ann\"]\n% caf\xc3\xa9 \xe2\x82\n1. ann: 12345 C {\xc3}\n";
        let errors = errors(text);
        let got: Vec<_> = errors
            .iter()
            .map(|e| {
                (
                    e.line,
                    e.column,
                    e.expected.as_str(),
                    e.found.as_str(),
                    e.game_id.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (3, 17, "valid UTF-8", "\u{fffd}ob\\\"]", Some("g")),
                (8, 8, "valid UTF-8", "\u{fffd}", Some("h")),
            ]
        );
    }

    #[test]
    fn byte_order_mark_crlf_and_blank_lines_change_nothing() {
        let plain =
            format!("\n% c\n{HEAD}\n1. ann: 12345 k12 12345 C=15 {{x}}\n\n1. bob: 12345 1\n");
        let crlf = format!("\u{feff}{}", plain.replace('\n', "\r\n"));
        let (plain, crlf) = (games(&plain), games(&crlf));
        assert_eq!(plain, crlf);
        assert_eq!(plain[0].turns.len(), 2);
        assert_eq!(plain[0].provenance.line, 3);
        let error = turn_error("1. ann: 12345 C\r\r");
        assert_eq!((error.column, error.found.as_str()), (15, "C\\r"));
        let bom_error = errors(b"\xef\xbb\xbf1. ann: 12345 C\n");
        assert_eq!((bom_error[0].line, bom_error[0].column), (1, 1));
    }

    #[test]
    fn empty_blank_and_comment_only_inputs_have_no_games() {
        for text in ["", "\n", "\u{feff}", "  \t\r\n\n", "% only a comment\n%\n"] {
            assert!(read_all(text.as_bytes()).is_empty(), "{text:?}");
        }
    }

    #[test]
    fn a_truncated_file_yields_its_games_unless_its_last_line_is_cut_in_a_token() {
        let full = format!("{HEAD}1. ann: 12345 k12 12346 C=16\n1. bob: 12345 1=1\n");
        let cut_at_line_end = full.trim_end_matches("1. bob: 12345 1=1\n");
        assert_eq!(games(cut_at_line_end)[0].turns.len(), 1);
        assert_eq!(games(full.trim_end())[0].turns.len(), 2);
        for (cut, column, expected) in [
            (4, 4, "a player in Players (ann, bob)"),
            (12, 13, KEEP_OR_CATEGORY),
            (18, 19, ROLL),
        ] {
            let text = &full[..full.find("1. ann").unwrap_or_default() + cut];
            let errors = errors(text.as_bytes());
            let got = (
                errors[0].line,
                errors[0].column,
                errors[0].expected.as_str(),
            );
            assert_eq!(got, (4, column, expected), "{text:?}");
        }
    }

    #[test]
    fn ten_megabyte_lines_are_read_in_linear_time() {
        const MB10: usize = 10 << 20;
        let started = Instant::now();
        let long_value = format!(
            "[Game \"g\"]\n[Site \"{}\"]\n[Rules \"y\"]\n[Players \"a\"]\n",
            "s".repeat(MB10)
        );
        let game = &games(&long_value)[0];
        assert_eq!(game.tag("Site").map(str::len), Some(MB10));
        let long_comment = format!("{HEAD}1. ann: 12345 C {{{}}}\n", "c ".repeat(MB10 / 2));
        assert_eq!(games(&long_comment)[0].turns.len(), 1);
        let cases = [
            (
                format!("1. ann: {}", "1".repeat(MB10)),
                15,
                "at most six dice, then a space",
            ),
            (
                format!("1. ann: 12345 k{}", "1".repeat(MB10)),
                22,
                "at most six kept dice",
            ),
            (
                format!("1. {}: 12345 C", "a".repeat(MB10)),
                4,
                "a player in Players (ann, bob)",
            ),
            (
                format!("{}. ann: 12345 C", "1".repeat(MB10)),
                1,
                "a round number 1-99",
            ),
            (
                format!("1. ann: 12345 C {{{}", "c".repeat(MB10)),
                MB10 as u32 + 18,
                "`}` closing the comment",
            ),
            (
                format!("1. ann: 12345 C {}", "x".repeat(MB10)),
                17,
                "a comment `{...}` or the end of the line",
            ),
        ];
        for (turn, column, expected) in &cases {
            let error = turn_error(turn);
            assert_eq!(
                (error.column, error.expected.as_str()),
                (*column, *expected)
            );
            assert!(error.found.chars().count() <= 41, "the excerpt is short");
        }
        let many_players = format!("[Rules \"y\"]\n[Players \"{}a\"]\n", "a, ".repeat(MB10 / 3));
        assert_eq!(
            errors(many_players.as_bytes())[0].expected,
            "distinct player names"
        );
        let garbage = format!("[{}\n", "\u{e9}".repeat(MB10 / 2));
        assert_eq!(errors(garbage.as_bytes())[0].expected, TAG_NAME);
        // Each case reads or rejects about 10 MB; quadratic work would take minutes.
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "took {:?}",
            started.elapsed()
        );
    }

    /// A game exercising every part of the writer, as the writer writes it.
    const SAMPLE: &str = "[Game \"q\\\"uote\\\\d\"]\n[Event \"a \\\"b\\\" \\\\ c\"]\n\
        [Date \"2001.02.03\"]\n[Time \"04:05:06\"]\n[Rules \"yatzy\"]\n[Players \"ann, b\\\\ob\"]\n\
        [Result \"0 374\"]\n[Termination \"abandoned\"]\n\
        1. ann: 65432 k- 11111 k11111 11111 Y=50\n1. b\\ob: 12345 2P\n2. ann: 12346 k64 66664 4K=24\n\n";

    /// [`SAMPLE`], read from a copy with lower-case codes.
    fn sample_game() -> GameRecord {
        games(&SAMPLE.replace(" 2P", " 2p").replace(" 4K", " 4k")).remove(0)
    }

    #[test]
    fn write_game_writes_canonical_ygn_that_reads_back_equal() {
        let game = sample_game();
        let mut written = Vec::new();
        write_game(&game, &mut written).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(String::from_utf8_lossy(&written), SAMPLE);
        let mut again = games(SAMPLE).remove(0);
        assert_eq!(again.provenance.game_id, "q\"uote\\d");
        let mut original = game.clone();
        strip_location(&mut again);
        strip_location(&mut original);
        assert_eq!(again, original);
    }

    #[test]
    fn write_game_writes_standard_tags_for_a_record_without_tags() {
        let mut game = sample_game();
        game.tags.clear();
        let mut written = Vec::new();
        write_game(&game, &mut written).unwrap_or_else(|e| panic!("{e}"));
        let text = String::from_utf8_lossy(&written);
        assert!(
            text.starts_with("[Game \"q\\\"uote\\\\d\"]\n[Date \"2001.02.03\"]\n"),
            "{text}"
        );
        let read = games(&text).remove(0);
        assert_eq!(
            (read.players, read.result, read.termination),
            (game.players, game.result, game.termination)
        );
    }

    #[test]
    fn write_game_refuses_what_ygn_cannot_hold() {
        type Spoiler = fn(&mut GameRecord);
        let spoilers: &[(&str, Spoiler)] = &[
            ("tag name", |g| g.tags.push(("Bad name".into(), "x".into()))),
            ("line break", |g| {
                g.tags.push(("Note".into(), "a\nb".into()))
            }),
            ("appears twice", |g| {
                g.tags.push(("Game".into(), "again".into()))
            }),
            ("expected a date", |g| g.tags[2].1 = "2001-02-03".into()),
            ("`Rules` tag", |g| {
                g.tags.retain(|(name, _)| name != "Rules")
            }),
            ("round", |g| g.turns[0].round = 100),
            ("seat", |g| g.turns[0].seat = 2),
            ("rolls", |g| g.turns[0].clear_rolls()),
            ("die", |g| {
                g.turns[0].rolls_mut()[2] = [1, 2, 3, 4, 7].into()
            }),
            ("a roll without dice", |g| {
                g.turns[0].rolls_mut()[1] = Roll::default()
            }),
            ("die", |g| {
                g.turns[0].keeps_mut()[1] = Keep::new(&[0]).unwrap_or_default()
            }),
            ("category", |g| g.turns[0].category = BoxCode::default()),
        ];
        for (what, spoil) in spoilers {
            let mut game = sample_game();
            spoil(&mut game);
            let mut written = Vec::new();
            let error = write_game(&game, &mut written).err();
            let message = error.as_ref().map(ToString::to_string).unwrap_or_default();
            assert_eq!(
                error.map(|e| e.kind()),
                Some(io::ErrorKind::InvalidInput),
                "{what}"
            );
            assert!(message.contains(what), "{what}: {message}");
            assert!(written.is_empty(), "nothing written for {what}");
        }
    }

    /// A player name: no white space or `, : " [ ] { } %`, but `\` and other letters.
    fn name() -> impl Strategy<Value = String> {
        "[a-zA-Z0-9_.\\\\é漢-]{1,12}"
    }

    /// A tag value: any printable text (quotes and backslashes included).
    fn value() -> impl Strategy<Value = String> {
        "\\PC{0,24}"
    }

    prop_compose! {
        fn turn(players: usize)(
            round in 1u16..=99,
            seat in 0..players,
            // Mostly up to three rolls, sometimes a long turn up to the limit.
            roll_count in prop_oneof![4 => 1usize..=3, 1 => 4usize..=MAX_ROLLS_PER_TURN],
            rolls in proptest::collection::vec(
                proptest::collection::vec(1u8..=6, 1..=MAX_DICE),
                MAX_ROLLS_PER_TURN,
            ),
            keeps in proptest::collection::vec(
                proptest::collection::vec(1u8..=6, 0..=MAX_DICE),
                MAX_ROLLS_PER_TURN - 1,
            ),
            category in proptest::sample::select(BoxCode::ALL.to_vec()),
            announced in proptest::option::of(announced_code()),
            points in proptest::option::of(any::<u16>()),
        ) -> TurnRecord {
            let mut turn = TurnRecord::new(round, seat as u8, code(category));
            turn.points = points;
            turn.announced = announced;
            let rolls: Vec<Roll> = (rolls.iter().take(roll_count))
                .map(|roll| Roll::new(roll).unwrap_or_default())
                .collect();
            let keeps: Vec<Keep> = (keeps.iter().take(roll_count - 1))
                .map(|kept| Keep::new(kept).unwrap_or_default())
                .collect();
            turn.set_rolls(&rolls, &keeps).unwrap();
            turn
        }
    }

    /// A cell that may be announced: any box code (the rules decide which ones are
    /// announceable), Jamb cells of the Announce column most often.
    fn announced_code() -> impl Strategy<Value = BoxCode> {
        let jamb = proptest::sample::select(BoxCode::JAMB_BOXES.to_vec())
            .prop_map(|jbox| code(&format!("A:{jbox}")));
        let single = proptest::sample::select(BoxCode::ALL.to_vec()).prop_map(code);
        prop_oneof![3 => jamb, 1 => single]
    }

    prop_compose! {
        fn record()(players in proptest::collection::btree_set(name(), 1..4))(
            turns in proptest::collection::vec(turn(players.len()), 0..30),
            players in Just(players.into_iter().collect::<Vec<_>>()),
            id in proptest::option::of("\\PC{1,16}"),
            rules in value(),
            date in proptest::option::of((0u32..10_000, 1u32..=12, 1u32..=31)),
            time in proptest::option::of((0u32..24, 0u32..60, 0u32..60)),
            result in proptest::option::of(proptest::collection::vec(any::<u32>(), 1..4)),
            termination in proptest::option::of(0usize..4),
            extra in proptest::collection::vec(("[A-Z][a-z0-9]{0,8}X", value()), 0..3),
        ) -> GameRecord {
            let mut game = GameRecord { players, rules, turns, ..GameRecord::default() };
            let mut tags = Vec::new();
            if let Some(id) = id {
                game.provenance.game_id = id.clone();
                tags.push(("Game".to_string(), id));
            }
            tags.extend(extra);
            if let Some((y, m, d)) = date {
                let date = format!("{y:04}.{m:02}.{d:02}");
                game.provenance.date = Some(date.clone());
                tags.push(("Date".into(), date));
            }
            if let Some((h, m, s)) = time {
                let time = format!("{h:02}:{m:02}:{s:02}");
                game.provenance.time = Some(time.clone());
                tags.push(("Time".into(), time));
            }
            tags.push(("Rules".into(), game.rules.clone()));
            tags.push(("Players".into(), game.players.join(", ")));
            if let Some(result) = result {
                let totals: Vec<String> = result.iter().map(u32::to_string).collect();
                tags.push(("Result".into(), totals.join(" ")));
                game.result = Some(result);
            }
            if let Some(n) = termination {
                let all = [Termination::Normal, Termination::Abandoned, Termination::Timeout, Termination::Resigned];
                game.termination = all[n];
                tags.push(("Termination".into(), all[n].as_str().into()));
            }
            game.tags = tags;
            game
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn written_games_read_back_equal(game in record()) {
            let mut written = Vec::new();
            write_game(&game, &mut written).unwrap_or_else(|e| panic!("{e}"));
            let mut read = read_all(&written);
            prop_assert_eq!(read.len(), 1);
            let mut again = read.remove(0).unwrap_or_else(|e| panic!("{e}"));
            let mut rewritten = Vec::new();
            write_game(&again, &mut rewritten).unwrap_or_else(|e| panic!("{e}"));
            prop_assert_eq!(&rewritten, &written);
            strip_location(&mut again);
            prop_assert_eq!(again, game);
        }

        #[test]
        fn any_input_is_read_to_the_end_and_what_parses_writes_back(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "[Game \"a\"]\n", "[Rules \"yatzy\"]\n", "[Players \"a, b\"]\n", "[Date \"2001.02.03\"]\n",
                "1. a: 12345 C=15\n", "2. b: 12345 k12 21345 ", "k- ", "66666 ", "LS", "=7", "{c}",
                "\n", "\r\n", "\r", " ", "\t", "%", "[", "]", "\"", "\\", "\u{feff}", "\u{e9}", "\u{ff}",
                "1", "7", ":", ".", "a",
            ]), 0..60),
            raw in proptest::collection::vec(any::<u8>(), 0..8),
        ) {
            let mut content = pieces.concat().into_bytes();
            content.extend(raw);
            for outcome in read_all(&content) {
                let Ok(game) = outcome else { continue };
                let mut written = Vec::new();
                write_game(&game, &mut written).unwrap_or_else(|e| panic!("{e}"));
                let mut read = read_all(&written);
                prop_assert_eq!(read.len(), 1);
                let mut again = read.remove(0).unwrap_or_else(|e| panic!("{e}"));
                let mut game = game;
                strip_location(&mut again);
                strip_location(&mut game);
                prop_assert_eq!(again, game);
            }
        }
    }
}

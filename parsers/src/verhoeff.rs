//! Tom Verhoeff's solitaire Yahtzee records (`docs/formats/verhoeff.md`): the analysis table of
//! his Yahtzee Proficiency Test and the input form of his YahtzeeTrainer.
//!
//! The reader takes both forms, the writer writes the input form. Where a game starts and ends,
//! and how the columns map to [`GameRecord`]s: `docs/formats/verhoeff.md`. In short: one game is
//! the turns from one sheet state to the full sheet (or to a blank line, a table header or a
//! line that shows an empty sheet again); the rules are always `yahtzee-free`, the one player is
//! named after the file, and the game id is `FILE:LINE` of the game's first line.
//!
//! Where a game starts is one rule (`Delimiter`), followed by the sequential reader and by the
//! reader over a byte range ([`Reader::with_range`]) alike. It depends on the lines since the
//! last table header (whether they are a table, its trailer or input-form turns) and, in the
//! input form, on the last three lines only, so a reader over a range finds its first game
//! without reading the content before it.

use crate::cursor::{lossy, Cursor, ErrorSite, SourceLine};
use crate::LineNumber;
use crate::{
    BoxCode, GameReader, GameRecord, Keep, ParseError, Roll, Termination, TurnRecord, MAX_DICE,
};
use std::fmt::Write as _;
use std::io;
use std::ops::Range;

/// The rule set of every Verhoeff record (Verhoeff plays with the free-choice joker).
pub const RULES: &str = "yahtzee-free";

/// Number of boxes on the sheet.
const BOX_COUNT: usize = 13;
/// The box letters of a state mask, in mask order.
const BOX_LETTERS: &[u8; BOX_COUNT] = b"123456TFHSLYC";
/// The YGN code of each box, in mask order.
const BOX_CODES: [&str; BOX_COUNT] = [
    "1", "2", "3", "4", "5", "6", "3K", "4K", "FH", "SS", "LS", "Y", "C",
];
/// Mask index of the Yahtzee box.
const YAHTZEE_BOX: usize = 11;
/// Number of upper boxes (they come first in the mask).
const UPPER_BOXES: usize = 6;
/// Upper points that earn the bonus.
const UPPER_BONUS_TARGET: u16 = 63;
/// Points a Yahtzee scores in the Yahtzee box.
const YAHTZEE_POINTS: u16 = 50;
/// The first column title of a table header, after its `#`.
const TABLE_HEADER_TITLE: &[u8] = b"Game State";
/// The start of the state column of a turn on an empty sheet.
const EMPTY_SHEET_STATE: &[u8] = b"123456TFHSLYC;";

/// Reader of Verhoeff records (both forms) over a byte slice.
pub struct Reader<'a> {
    /// The next line to read, where the last game returned begins, where the range ends.
    lines: Cursor<'a>,
    file: &'a str,
    /// The file's name without its directories: game ids are made of it (so they do not
    /// depend on the path the file was given by).
    id_name: &'a str,
    player: String,
    /// Where the lines read so far leave the delimiting of games.
    delimiter: Delimiter,
}

/// Where the reader is in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Outside tables: input-form turn lines and blank lines.
    Input,
    /// Right after a table header (and its rulers), before the table's first turn line.
    TableHead,
    /// In the body of an analysis table.
    Table,
    /// After a table's body: the summary and score card, skipped up to the next table header
    /// or input-form state column.
    Trailer,
}

/// The two syntaxes of turn lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// The analysis table.
    Table,
    /// YahtzeeTrainer's input form.
    Input,
}

impl Mode {
    /// The syntax of turn lines in this mode.
    fn form(self) -> Form {
        match self {
            Mode::TableHead | Mode::Table => Form::Table,
            Mode::Input | Mode::Trailer => Form::Input,
        }
    }
}

/// What a line is, judged from its first token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineKind {
    Blank,
    Header,
    Ruler,
    Turn,
    Other,
}

/// The rule that says which lines start a game, as a state: where the lines read so far leave
/// it. The sequential reader steps it line by line; a reader over a range rebuilds it from the
/// lines before the range ([`Delimiter::before`]).
///
/// A game is open from its first line until a line closes it: a score that fills the last open
/// box of the turn's state, a blank line, a table header, or, in a table, any line that is not
/// a table turn line (which starts the trailer). A turn line starts a game when none is open, or
/// when its state is the empty sheet. Outside tables, a line that is neither a turn line, a
/// header nor blank is an error: it starts one (that is only the error) when no game is open,
/// and leaves a game open after it, so the turn lines after it up to the next blank line belong
/// to that error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Delimiter {
    /// How lines are read here.
    mode: Mode,
    /// Whether a game (or a stray line's error) is open.
    open: bool,
    /// The turn being read: the open boxes of its first line's state and how many of its lines
    /// were read (1 to 3).
    turn: Option<(OpenBoxes, u8)>,
}

/// One line as the delimiter sees it.
struct Step {
    /// What the line is.
    kind: LineKind,
    /// The mode the line is read in.
    mode: Mode,
    /// Whether the line starts a game.
    starts: bool,
    /// The delimiter after the line.
    after: Delimiter,
    /// A turn line, parsed (in the form of its mode).
    parsed: Option<Result<TurnLine, LineError>>,
}

impl Delimiter {
    /// The state at the start of the content.
    const START: Delimiter = Delimiter {
        mode: Mode::Input,
        open: false,
        turn: None,
    };

    /// The state after a line that closes whatever was open, in `mode`.
    fn closed(mode: Mode) -> Delimiter {
        Delimiter {
            mode,
            open: false,
            turn: None,
        }
    }

    /// What the line `text` is, whether it starts a game, and the state after it.
    fn step(self, text: &[u8]) -> Step {
        let trimmed = text.trim_ascii();
        let step = |kind, mode, starts, after| Step {
            kind,
            mode,
            starts,
            after,
            parsed: None,
        };
        if trimmed.is_empty() {
            let after = match self.mode {
                Mode::TableHead | Mode::Table => Mode::Trailer,
                mode => mode,
            };
            return step(LineKind::Blank, self.mode, false, Delimiter::closed(after));
        }
        if is_table_header(trimmed) {
            let after = Delimiter::closed(Mode::TableHead);
            return step(LineKind::Header, self.mode, false, after);
        }
        let mode = match self.mode {
            Mode::Trailer if starts_with_state(trimmed) => Mode::Input,
            mode => mode,
        };
        let kind = classify(text, mode);
        match (kind, mode) {
            (LineKind::Turn, Mode::Input | Mode::TableHead | Mode::Table) => {
                let form = mode.form();
                let parsed = parse_turn_line(text, form);
                let starts = !self.open || opens_empty_sheet(text, form);
                let turn = match &parsed {
                    Ok(line) if line.is_first_line(form) => {
                        line.state.map(|(state, _)| (state.open, 1))
                    }
                    Ok(_) if !starts => self
                        .turn
                        .and_then(|(open, lines)| (lines < 3).then_some((open, lines + 1))),
                    _ => None,
                };
                let scored = match &parsed {
                    Ok(line) => match line.choice {
                        Choice::Score { box_index, .. } => Some(box_index),
                        Choice::Keep(_) => None,
                    },
                    Err(_) => None,
                };
                let fills = scored
                    .zip(turn)
                    .is_some_and(|(scored, (open, _))| open == OpenBoxes::NONE.with(scored));
                let after = Delimiter {
                    mode: if mode == Mode::TableHead {
                        Mode::Table
                    } else {
                        mode
                    },
                    open: !fills,
                    turn: turn.filter(|_| scored.is_none()),
                };
                Step {
                    parsed: Some(parsed),
                    ..step(kind, mode, starts, after)
                }
            }
            (LineKind::Ruler, Mode::TableHead) => step(kind, mode, false, self),
            (_, Mode::TableHead | Mode::Table | Mode::Trailer) => {
                step(kind, mode, false, Delimiter::closed(Mode::Trailer))
            }
            (_, Mode::Input) => {
                let after = Delimiter {
                    mode,
                    open: true,
                    turn: None,
                };
                step(kind, mode, !self.open, after)
            }
        }
    }

    /// The state after the lines before `lines`. Found from the last table header before it
    /// (after which the state is known), else from the start of the content; and once in the
    /// input form (which lasts up to the next header), from the three lines before `lines`
    /// only: whatever the state before them, it is the same after them.
    fn before(lines: &Cursor<'_>) -> Delimiter {
        let header = Delimiter::last_header(lines);
        let (mut state, mut from) = match header {
            Some(header) => (Delimiter::closed(Mode::TableHead), lines.after(&header)),
            None => (Delimiter::START, lines.first_line()),
        };
        while from.offset() < lines.offset() {
            if state.mode == Mode::Input {
                if let Some(back) = lines.lines_before().take(3).last() {
                    if back.start > from.offset() {
                        from = lines.at(&back);
                    }
                }
            }
            let Some(line) = from.next_line() else {
                break;
            };
            state = state.step(line.text).after;
        }
        state
    }
}

impl Delimiter {
    /// The last table header before `lines`.
    fn last_header<'a>(lines: &Cursor<'a>) -> Option<SourceLine<'a>> {
        lines.last_line_before(TABLE_HEADER_TITLE, |text| {
            is_table_header(text.trim_ascii())
        })
    }

    /// Where the lines [`Delimiter::before`] needs begin: the last table header before
    /// `lines`; without one (the input form only, before), the three lines before it.
    pub(crate) fn context_start(lines: &Cursor<'_>) -> usize {
        match Delimiter::last_header(lines) {
            Some(header) => header.start,
            None => lines
                .lines_before()
                .take(3)
                .last()
                .map_or(lines.offset(), |line| line.start),
        }
    }
}

/// The name of the file at `path` without its directories (`logs/2024/game1.txt` is
/// `game1.txt`); `path` itself if it has no file name (`<stdin>`).
fn file_name(path: &str) -> &str {
    std::path::Path::new(path)
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or(path)
}

impl<'a> Reader<'a> {
    /// A reader over `content`, naming `file` in records and errors. The player is named after
    /// the file's stem (`fixtures/verhoeff/game1.txt` plays as `game1`).
    pub fn new(content: &'a [u8], file: &'a str) -> Reader<'a> {
        Reader::with_range(content, file, 0..usize::MAX)
    }

    /// A reader of the games of `content` that begin in `range` (see
    /// [`crate::Format::range_reader`]), naming `file` in records and errors. It looks back
    /// from the range's first line to the last table header before it (or to the three lines
    /// before it once those are input-form lines) and counts the lines before the range.
    pub fn with_range(content: &'a [u8], file: &'a str, range: Range<usize>) -> Reader<'a> {
        Reader::resuming(Cursor::for_range(content, range), file)
    }

    /// A reader whose next line is the one at `lines`, the lines before it looked back at as
    /// [`Reader::with_range`] does.
    pub(crate) fn resuming(lines: Cursor<'a>, file: &'a str) -> Reader<'a> {
        Reader {
            lines,
            id_name: file_name(file),
            file,
            player: crate::player_from_file(file),
            delimiter: Delimiter::before(&lines),
        }
    }

    /// Reads the lines up to the next one that starts a game (the rest of the game before:
    /// headers, rulers, blank lines, a table's trailer; after an error, the rest of the broken
    /// game) and returns it, consumed, with what the delimiter made of it. `None` at the end of
    /// the input or of the range.
    fn next_game_start(&mut self) -> Option<(SourceLine<'a>, Step)> {
        loop {
            let line = self
                .lines
                .peek()
                .filter(|line| self.lines.begins_in_range(line))?;
            self.lines.advance(&line);
            let step = self.delimiter.step(line.text);
            self.delimiter = step.after;
            if step.starts {
                return Some((line, step));
            }
        }
    }

    /// Reads the game that starts at `first` (read as `step`) into `out`, up to its end.
    fn read_turns(
        &mut self,
        first: SourceLine<'a>,
        step: Step,
        out: &mut GameRecord,
    ) -> Result<(), ParseError> {
        let form = step.mode.form();
        let game_id = format!("{}:{}", self.id_name, first.number);
        let site = ErrorSite {
            file: self.file,
            game_id: Some(&game_id),
            game_line: first.number,
        };
        let mut game = GameAssembly {
            form,
            next_open: None,
            turn: None,
        };
        let (mut line, mut parsed) = (first, step.parsed);
        loop {
            let at_line = |e: LineError| e.at(&site, &line);
            let turn_line = parsed
                .unwrap_or_else(|| parse_turn_line(line.text, form))
                .map_err(at_line)?;
            game.take(&turn_line, line.number, &mut out.turns)
                .map_err(at_line)?;
            if !self.delimiter.open {
                // The score filled the sheet.
                break;
            }
            let mark = self.lines.mark();
            let Some(next) = self.lines.next_line() else {
                game.check_turn_finished(&site, self.lines.end_position(), "end of input")?;
                break;
            };
            let step = self.delimiter.step(next.text);
            if step.starts {
                // The line is read again, as the start of the next game.
                self.lines.rewind(mark);
            } else {
                self.delimiter = step.after;
                match (step.kind, step.mode) {
                    (LineKind::Turn, _) => {
                        (line, parsed) = (next, step.parsed);
                        continue;
                    }
                    (LineKind::Ruler | LineKind::Other, Mode::Input) => {
                        return Err(stray_line_error(&site, &next));
                    }
                    _ => {}
                }
            }
            game.check_turn_finished(&site, (next.number, 1), describe_line(&next))?;
            break;
        }
        out.players.push(self.player.clone());
        out.rules.push_str(RULES);
        out.provenance.file.push_str(self.file);
        out.provenance.line = first.number;
        out.provenance.game_id = game_id;
        out.termination = if out.turns.len() == BOX_COUNT {
            Termination::Normal
        } else {
            Termination::Abandoned
        };
        out.tags = out.standard_tags();
        Ok(())
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
        out.clear();
        let (first, step) = self.next_game_start()?;
        self.lines.start_game(&first);
        if step.kind == LineKind::Turn {
            return Some(self.read_turns(first, step, out));
        }
        let site = ErrorSite {
            file: self.file,
            game_id: None,
            game_line: first.number,
        };
        let error = stray_line_error(&site, &first);
        Some(Err(if self.skip_stray_lines() {
            error
        } else {
            error.outside_games()
        }))
    }
}

impl Reader<'_> {
    /// After a stray line: reads the lines that belong to its error (up to the next line that
    /// starts a game, as [`Reader::next_game_start`] would pass them over) and says whether
    /// they hold a turn line, which makes the error a broken game's rather than damage outside
    /// games. Reading them here makes them part of the error (a stream reader reads it again
    /// when they run to the end of what it has).
    fn skip_stray_lines(&mut self) -> bool {
        let mut turns = false;
        while let Some(line) = self.lines.peek() {
            let step = self.delimiter.step(line.text);
            if step.starts {
                break;
            }
            turns |= step.kind == LineKind::Turn;
            self.lines.advance(&line);
            self.delimiter = step.after;
        }
        turns
    }
}

/// Where the lines a reader resuming at `lines` looks back at begin (see
/// [`crate::Format::context_start`]).
pub(crate) fn context_start(lines: &Cursor<'_>) -> usize {
    Delimiter::context_start(lines)
}

/// The error for a line that is neither a turn line, a table header nor blank, outside tables.
fn stray_line_error(site: &ErrorSite<'_>, line: &SourceLine<'_>) -> ParseError {
    let offset = line.text.iter().position(|&b| !is_blank(b)).unwrap_or(0);
    site.in_line(
        line,
        offset,
        "a turn line (a state column such as `123456TFHSLYC; 63 false 0`, or `;` on a turn's \
         later lines), a table header or a blank line",
        &lossy(line.text.trim_ascii()),
    )
}

/// How an error names the line that ended a game early.
fn describe_line(line: &SourceLine<'_>) -> &'static str {
    match line.text.trim_ascii() {
        [] => "a blank line",
        text if is_table_header(text) => "a table header",
        _ => "a new game",
    }
}

/// True when a line looks like the start of Verhoeff content: the analysis table's header
/// (` # Game State ...`) or a line whose first token is a 13-character state mask over
/// `123456TFHSLYC` (`_` for a used box) followed by `;`.
pub fn looks_like(line: &[u8]) -> bool {
    let trimmed = line.trim_ascii();
    is_table_header(trimmed) || starts_with_state(trimmed)
}

fn is_table_header(trimmed: &[u8]) -> bool {
    trimmed
        .strip_prefix(b"#")
        .is_some_and(|rest| rest.trim_ascii_start().starts_with(TABLE_HEADER_TITLE))
}

fn starts_with_state(trimmed: &[u8]) -> bool {
    trimmed.len() > BOX_COUNT
        && trimmed
            .iter()
            .zip(BOX_LETTERS)
            .all(|(&b, &letter)| b == letter || b == b'_')
        && trimmed.get(BOX_COUNT) == Some(&b';')
}

/// True when a token starts with 13 characters of the mask alphabet (in any order): a state
/// column, possibly malformed.
fn starts_like_mask(token: &[u8]) -> bool {
    token
        .get(..BOX_COUNT)
        .is_some_and(|start| start.iter().all(|b| *b == b'_' || BOX_LETTERS.contains(b)))
}

fn is_blank(byte: u8) -> bool {
    byte == b' ' || byte == b'\t'
}

fn is_digits(token: &[u8]) -> bool {
    !token.is_empty() && token.iter().all(u8::is_ascii_digit)
}

/// The blank-separated tokens of a line.
fn tokens(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    text.split(|&b| is_blank(b))
        .filter(|token| !token.is_empty())
}

/// Classifies a line by its first token, as `mode` reads it.
fn classify(text: &[u8], mode: Mode) -> LineKind {
    let trimmed = text.trim_ascii();
    let Some(first) = tokens(trimmed).next() else {
        return LineKind::Blank;
    };
    if is_table_header(trimmed) {
        return LineKind::Header;
    }
    let is_turn = match mode {
        Mode::TableHead | Mode::Table => first.contains(&b';') || is_digits(first),
        Mode::Input => first.contains(&b';') || starts_like_mask(first),
        Mode::Trailer => starts_with_state(trimmed),
    };
    if is_turn {
        LineKind::Turn
    } else if trimmed.starts_with(b"--") && trimmed.iter().all(|&b| b == b'-' || is_blank(b)) {
        LineKind::Ruler
    } else {
        LineKind::Other
    }
}

/// True for a turn's first line whose state shows an empty sheet (it starts a new game).
fn opens_empty_sheet(text: &[u8], form: Form) -> bool {
    let mut columns = tokens(text);
    if form == Form::Table && !columns.next().is_some_and(is_digits) {
        return false;
    }
    columns
        .next()
        .is_some_and(|state| state.starts_with(EMPTY_SHEET_STATE))
}

/// The boxes still open on the sheet, one bit per box in mask order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OpenBoxes(u16);

impl OpenBoxes {
    const ALL: OpenBoxes = OpenBoxes((1 << BOX_COUNT) - 1);
    const NONE: OpenBoxes = OpenBoxes(0);

    fn contains(self, index: usize) -> bool {
        index < BOX_COUNT && self.0 >> index & 1 == 1
    }

    fn with(self, index: usize) -> OpenBoxes {
        OpenBoxes(self.0 | 1 << (index % BOX_COUNT))
    }

    fn without(self, index: usize) -> OpenBoxes {
        OpenBoxes(self.0 & !(1 << (index % BOX_COUNT)))
    }

    fn count(self) -> u16 {
        // At most 13 bits are set.
        self.0.count_ones() as u16
    }

    /// The mask as Verhoeff writes it: the letter of each open box, `_` for a used one.
    fn mask(self) -> String {
        let letter = |(index, &letter): (usize, &u8)| {
            if self.contains(index) {
                char::from(letter)
            } else {
                '_'
            }
        };
        BOX_LETTERS.iter().enumerate().map(letter).collect()
    }
}

/// The state column of a turn's line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SheetState {
    open: OpenBoxes,
    upper_needed: u16,
    yahtzee_holds_50: bool,
    total: u32,
}

impl SheetState {
    /// The state as the table writes it (`_2__5_TF__LYC;15- 103`).
    fn describe(&self) -> String {
        let flag = if self.yahtzee_holds_50 { '+' } else { '-' };
        format!(
            "{};{:>2}{flag} {}",
            self.open.mask(),
            self.upper_needed,
            self.total
        )
    }
}

/// A choice of one line: dice kept for the next roll, or a box scored.
#[derive(Clone, Copy, Debug)]
enum Choice {
    Keep(Keep),
    Score {
        box_index: usize,
        points: Option<u16>,
    },
}

/// One turn line, parsed. Offsets are byte offsets into the line, for errors.
#[derive(Clone, Copy, Debug)]
struct TurnLine {
    /// Offset of the first non-blank byte.
    start: usize,
    /// The table's `#` column, when present.
    turn_number: Option<(u16, usize)>,
    /// The state column, when present.
    state: Option<(SheetState, usize)>,
    dice: Roll,
    rolls_left: u8,
    rolls_left_offset: usize,
    choice: Choice,
    choice_offset: usize,
}

impl TurnLine {
    /// Whether the line is a turn's first line: it has the table's turn number, or the input
    /// form's state column.
    fn is_first_line(&self, form: Form) -> bool {
        match form {
            Form::Table => self.turn_number.is_some(),
            Form::Input => self.state.is_some(),
        }
    }
}

/// A syntax error within one line: where (byte offset), what was expected, what is there.
#[derive(Clone, Debug)]
struct LineError {
    offset: usize,
    expected: String,
    found: String,
}

impl LineError {
    /// Expected `expected` at `offset`; found the token that starts there.
    fn token(text: &[u8], offset: usize, expected: impl Into<String>) -> LineError {
        let rest = text.get(offset..).unwrap_or_default();
        let token = rest.split(|&b| is_blank(b)).next().unwrap_or_default();
        LineError {
            offset,
            expected: expected.into(),
            found: lossy(token).into_owned(),
        }
    }

    /// Expected `expected` at `offset`; found the character there.
    fn character(text: &[u8], offset: usize, expected: impl Into<String>) -> LineError {
        let rest = lossy(text.get(offset..).unwrap_or_default())
            .chars()
            .take(1)
            .collect();
        LineError {
            offset,
            expected: expected.into(),
            found: rest,
        }
    }

    /// The error as a [`ParseError`] of `line`.
    fn at(self, site: &ErrorSite<'_>, line: &SourceLine<'_>) -> ParseError {
        site.in_line(line, self.offset, self.expected, &self.found)
    }
}

/// A cursor over one line's bytes.
#[derive(Clone, Copy, Debug)]
struct Scanner<'a> {
    text: &'a [u8],
    pos: usize,
}

impl<'a> Scanner<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    /// Skips blanks; returns the offset reached.
    fn skip_blanks(&mut self) -> usize {
        while self.peek().is_some_and(is_blank) {
            self.pos += 1;
        }
        self.pos
    }

    fn eat(&mut self, byte: u8) -> bool {
        let found = self.peek() == Some(byte);
        if found {
            self.pos += 1;
        }
        found
    }

    fn take_while(&mut self, keep: impl Fn(u8) -> bool) -> &'a [u8] {
        let start = self.pos;
        while self.peek().is_some_and(&keep) {
            self.pos += 1;
        }
        self.text.get(start..self.pos).unwrap_or_default()
    }

    /// The next blank-separated token and its offset.
    fn token(&mut self) -> (usize, &'a [u8]) {
        let start = self.skip_blanks();
        (start, self.take_while(|b| !is_blank(b)))
    }

    fn peek_token(&self) -> &'a [u8] {
        let mut copy = *self;
        copy.token().1
    }

    fn at_token_end(&self) -> bool {
        self.peek().is_none_or(is_blank)
    }

    /// An error unless the current token ends here (at a blank or the end of the line).
    fn expect_token_end(&self, expected: &str) -> Result<(), LineError> {
        if self.at_token_end() {
            Ok(())
        } else {
            Err(LineError::character(self.text, self.pos, expected))
        }
    }

    fn at_end(&mut self) -> bool {
        self.skip_blanks();
        self.peek().is_none()
    }

    fn expect_end(&mut self, after: &str) -> Result<(), LineError> {
        if self.at_end() {
            Ok(())
        } else {
            Err(LineError::token(
                self.text,
                self.pos,
                format!("the end of the line after {after}"),
            ))
        }
    }

    /// A whole token of digits as a number of type `T`.
    fn number<T: std::str::FromStr>(&mut self, expected: &str) -> Result<(T, usize), LineError> {
        let start = self.skip_blanks();
        let digits = self.take_while(|b| b.is_ascii_digit());
        parse_digits(digits)
            .filter(|_| self.at_token_end())
            .map(|value| (value, start))
            .ok_or_else(|| LineError::token(self.text, start, expected))
    }

    /// A decimal number (`243.10`, `38`): checked, not kept.
    fn decimal(&mut self, expected: &str) -> Result<(), LineError> {
        let start = self.skip_blanks();
        let whole = self.take_while(|b| b.is_ascii_digit());
        let fraction_ok = !self.eat(b'.') || !self.take_while(|b| b.is_ascii_digit()).is_empty();
        if !whole.is_empty() && fraction_ok && self.at_token_end() {
            Ok(())
        } else {
            Err(LineError::token(self.text, start, expected))
        }
    }
}

fn parse_digits<T: std::str::FromStr>(digits: &[u8]) -> Option<T> {
    std::str::from_utf8(digits)
        .ok()
        .filter(|d| !d.is_empty())?
        .parse()
        .ok()
}

/// Parses one turn line of the given form.
fn parse_turn_line(text: &[u8], form: Form) -> Result<TurnLine, LineError> {
    let mut s = Scanner { text, pos: 0 };
    let start = s.skip_blanks();
    let (turn_number, state) = match form {
        Form::Table => {
            let turn_number = if is_digits(s.peek_token()) {
                Some(s.number::<u16>("the turn number (1-13)")?)
            } else {
                None
            };
            let before_semicolon = s
                .peek_token()
                .split(|&b| b == b';')
                .next()
                .unwrap_or_default();
            let has_state = turn_number.is_some() || !is_digits(before_semicolon);
            (
                turn_number,
                if has_state {
                    Some(parse_state(&mut s, form)?)
                } else {
                    None
                },
            )
        }
        Form::Input => {
            let state = if s.eat(b';') {
                None
            } else {
                Some(parse_state(&mut s, form)?)
            };
            (None, state)
        }
    };
    let (dice, rolls_left, rolls_left_offset) = parse_roll(&mut s)?;
    let (choice, choice_offset) = parse_choice(&mut s, form, dice.len())?;
    match form {
        Form::Table => skip_analysis_columns(&mut s, dice.len())?,
        Form::Input => s.expect_end("the choice")?,
    }
    Ok(TurnLine {
        start,
        turn_number,
        state,
        dice,
        rolls_left,
        rolls_left_offset,
        choice,
        choice_offset,
    })
}

/// The state column: mask, `;`, upper points needed, the Yahtzee flag (`+`/`-` right after the
/// points in the table, `true`/`false` in the input form) and the total so far.
fn parse_state(s: &mut Scanner<'_>, form: Form) -> Result<(SheetState, usize), LineError> {
    let start = s.skip_blanks();
    let mut open = OpenBoxes::NONE;
    for (index, &letter) in BOX_LETTERS.iter().enumerate() {
        match s.peek() {
            Some(b) if b == letter => open = open.with(index),
            Some(b'_') => {}
            _ => {
                let expected = format!(
                    "`{}` or `_` (box {} of the state mask 123456TFHSLYC)",
                    char::from(letter),
                    index + 1
                );
                return Err(LineError::character(s.text, s.pos, expected));
            }
        }
        s.pos += 1;
    }
    if !s.eat(b';') {
        return Err(LineError::character(
            s.text,
            s.pos,
            "`;` after the 13-character state mask",
        ));
    }
    let needed_offset = s.skip_blanks();
    let upper_needed = parse_digits(s.take_while(|b| b.is_ascii_digit()))
        .filter(|&needed| needed <= UPPER_BONUS_TARGET)
        .ok_or_else(|| {
            LineError::token(
                s.text,
                needed_offset,
                "the upper points still needed (0-63)",
            )
        })?;
    let yahtzee_holds_50 = match form {
        Form::Table => {
            let flag_offset = s.pos;
            let flag = match s.peek() {
                Some(b'+') => true,
                Some(b'-') => false,
                _ => {
                    let expected = "`+` or `-` (whether the Yahtzee box holds 50) right after \
                                    the points needed";
                    return Err(LineError::character(s.text, flag_offset, expected));
                }
            };
            s.pos += 1;
            s.expect_token_end("a blank after the state")?;
            flag
        }
        Form::Input => {
            s.expect_token_end("a blank after the points needed")?;
            match s.token() {
                (_, b"true") => true,
                (_, b"false") => false,
                (offset, _) => {
                    let expected = "`true` or `false` (whether the Yahtzee box holds 50)";
                    return Err(LineError::token(s.text, offset, expected));
                }
            }
        }
    };
    let (total, _) = s.number("the total so far (a whole number)")?;
    Ok((
        SheetState {
            open,
            upper_needed,
            yahtzee_holds_50,
            total,
        },
        start,
    ))
}

/// The roll column `12344;2`: one to six dice (how many the rule set rolls is the replay's
/// business), `;`, rolls left. Returns the dice, the rolls left and the offset of the rolls
/// left.
fn parse_roll(s: &mut Scanner<'_>) -> Result<(Roll, u8, usize), LineError> {
    let start = s.skip_blanks();
    let digits = s.take_while(|b| b.is_ascii_digit());
    let mut faces = [0u8; MAX_DICE];
    if digits.is_empty() || digits.len() > faces.len() {
        let expected = "the roll: one to six dice 1-6, `;` and the rolls left (such as `12344;2`)";
        return Err(LineError::token(s.text, start, expected));
    }
    for (offset, (die, &digit)) in (start..).zip(faces.iter_mut().zip(digits)) {
        *die = face(digit).ok_or_else(|| LineError::character(s.text, offset, "a die 1-6"))?;
    }
    let dice = faces
        .get(..digits.len())
        .and_then(Roll::new)
        .unwrap_or_default();
    if !s.eat(b';') {
        return Err(LineError::character(
            s.text,
            s.pos,
            "`;` and the rolls left after the dice",
        ));
    }
    let left_offset = s.pos;
    let rolls_left = match s.peek() {
        Some(digit @ b'0'..=b'2') => digit - b'0',
        _ => {
            return Err(LineError::character(
                s.text,
                left_offset,
                "the rolls left: 2, 1 or 0",
            ))
        }
    };
    s.pos += 1;
    s.expect_token_end("a blank after the roll")?;
    Ok((dice, rolls_left, left_offset))
}

/// The face of a die digit `1`-`6`.
fn face(digit: u8) -> Option<u8> {
    (b'1'..=b'6').contains(&digit).then(|| digit - b'0')
}

/// The choice column after a roll of `dice` dice: in the table `1234_` or `T  25`, in the input
/// form `k1234_` or `sT  25` (points optional there). Returns the choice and its offset.
fn parse_choice(
    s: &mut Scanner<'_>,
    form: Form,
    dice: usize,
) -> Result<(Choice, usize), LineError> {
    let (offset, token) = s.token();
    let choice = match (form, token) {
        (Form::Table, [_]) => parse_score(s, token, offset, true)?,
        (Form::Table, kept) if kept.len() == dice => {
            Choice::Keep(parse_keep(s.text, kept, offset, dice)?)
        }
        (Form::Input, [b'k', kept @ ..]) => {
            Choice::Keep(parse_keep(s.text, kept, offset + 1, dice)?)
        }
        (Form::Input, [b's', letter @ ..]) => parse_score(s, letter, offset + 1, false)?,
        (Form::Table, _) => {
            let expected = format!(
                "the choice: kept dice padded with `_` to {} characters (`1234_`), or a box \
                 letter and its points (`T  25`)",
                count_word(dice)
            );
            return Err(LineError::token(s.text, offset, expected));
        }
        (Form::Input, _) => {
            let expected = "the choice: `k` and the kept dice padded with `_` (`k66___`), or `s` \
                            and a box letter (`sT  25`)";
            return Err(LineError::token(s.text, offset, expected));
        }
    };
    Ok((choice, offset))
}

/// Kept dice: digits 1-6 padded with `_` to as many characters as the roll has dice (`dice`).
fn parse_keep(text: &[u8], kept: &[u8], offset: usize, dice: usize) -> Result<Keep, LineError> {
    if kept.len() != dice {
        let expected = format!(
            "{} characters: the kept dice, then `_` padding (such as `66___`)",
            count_word(dice)
        );
        return Err(LineError::token(text, offset, expected));
    }
    let count = kept.iter().take_while(|b| b.is_ascii_digit()).count();
    let mut faces = [0u8; MAX_DICE];
    for (position, (&byte, slot)) in (offset..).zip(kept.iter().zip(faces.iter_mut())) {
        if position - offset < count {
            *slot = face(byte).ok_or_else(|| LineError::character(text, position, "a die 1-6"))?;
        } else if byte != b'_' {
            let expected = "`_` (padding after the kept dice)";
            return Err(LineError::character(text, position, expected));
        }
    }
    faces
        .get(..count)
        .and_then(Keep::new)
        .ok_or_else(|| LineError::token(text, offset, "at most six kept dice"))
}

/// A count of dice in words, as messages write it (`five`).
fn count_word(count: usize) -> &'static str {
    ["none", "one", "two", "three", "four", "five", "six"]
        .get(count)
        .copied()
        .unwrap_or("more than six")
}

/// A box letter, then its points (required in the table, optional in the input form).
fn parse_score(
    s: &mut Scanner<'_>,
    letter: &[u8],
    offset: usize,
    points_required: bool,
) -> Result<Choice, LineError> {
    let box_index = match letter {
        [letter] => BOX_LETTERS.iter().position(|b| b == letter),
        _ => None,
    }
    .ok_or_else(|| LineError::token(s.text, offset, "a box letter: one of 123456TFHSLYC"))?;
    let points = if points_required || !s.at_end() {
        Some(s.number::<u16>("the points scored (a whole number)")?.0)
    } else {
        None
    };
    Ok(Choice::Score { box_index, points })
}

/// The table's analysis columns: Expect and SD, then optionally OSYP's choice, its Expect and
/// SD, Delta and a marker. Only their syntax is checked.
fn skip_analysis_columns(s: &mut Scanner<'_>, dice: usize) -> Result<(), LineError> {
    s.decimal("the expected final score of the choice (Expect, such as 243.10)")?;
    s.number::<u32>("its standard deviation (SD, a whole number)")?;
    if s.at_end() {
        return Ok(());
    }
    parse_choice(s, Form::Table, dice)?;
    s.decimal("the expected final score of the optimal choice (such as 243.41)")?;
    s.number::<u32>("its standard deviation (a whole number)")?;
    s.decimal("the loss against the optimal choice (Delta, such as 0.31)")?;
    if !s.at_end() {
        let (offset, marker) = s.token();
        if !matches!(marker, b"<>" | b"*" | b"**" | b"***") {
            let expected = "a Delta marker (`<>`, `*`, `**` or `***`) or the end of the line";
            return Err(LineError::token(s.text, offset, expected));
        }
    }
    s.expect_end("the Delta marker")
}

/// Assembles the turns of one game from its lines and checks their sequence.
struct GameAssembly {
    form: Form,
    /// The open boxes the next turn's state must show (`None` before the first turn).
    next_open: Option<OpenBoxes>,
    /// The turn being read, with its state.
    turn: Option<(TurnRecord, SheetState, Keep)>,
}

impl GameAssembly {
    /// Takes one turn line: a turn's first line or a continuation, then its choice.
    fn take(
        &mut self,
        line: &TurnLine,
        line_number: LineNumber,
        turns: &mut Vec<TurnRecord>,
    ) -> Result<(), LineError> {
        if line.is_first_line(self.form) {
            self.start_turn(line, line_number)?;
        } else {
            self.continue_turn(line)?;
        }
        self.apply_choice(line, turns)
    }

    fn start_turn(&mut self, line: &TurnLine, line_number: LineNumber) -> Result<(), LineError> {
        if let Some((turn, _, _)) = &self.turn {
            return Err(LineError {
                offset: line.start,
                expected: continuation_expected(turn),
                found: "the first line of a new turn".to_string(),
            });
        }
        let Some((state, state_offset)) = line.state else {
            return Err(LineError {
                offset: line.start,
                expected: "the turn's state column".to_string(),
                found: "none".to_string(),
            });
        };
        if let Some(expected) = self.next_open.filter(|&open| open != state.open) {
            return Err(LineError {
                offset: state_offset,
                expected: format!(
                    "the mask {} (the boxes the turns before left open)",
                    expected.mask()
                ),
                found: state.open.mask(),
            });
        }
        let open_boxes = state.open.count();
        if open_boxes == 0 {
            return Err(LineError {
                offset: state_offset,
                expected: "a state with an open box".to_string(),
                found: state.open.mask(),
            });
        }
        let round = BOX_COUNT as u16 + 1 - open_boxes;
        if let Some((number, offset)) = line.turn_number.filter(|&(number, _)| number != round) {
            return Err(LineError {
                offset,
                expected: format!("turn number {round} (the state has {open_boxes} open boxes)"),
                found: number.to_string(),
            });
        }
        check_rolls_left(line, 2, 1)?;
        let mut turn = TurnRecord {
            round,
            seat: 0,
            total_before: Some(state.total),
            line: line_number,
            ..TurnRecord::default()
        };
        turn.set_first_roll(line.dice);
        self.turn = Some((turn, state, Keep::default()));
        Ok(())
    }

    fn continue_turn(&mut self, line: &TurnLine) -> Result<(), LineError> {
        let Some((turn, turn_state, kept)) = &mut self.turn else {
            let expected = match self.form {
                Form::Table => "a turn's first line (its turn number, state and total)",
                Form::Input => "a turn's first line (its state column)",
            };
            return Err(LineError {
                offset: line.start,
                expected: expected.to_string(),
                found: "a continuation line".to_string(),
            });
        };
        if let Some((state, offset)) = line.state.filter(|(state, _)| state != turn_state) {
            return Err(LineError {
                offset,
                expected: format!(
                    "the state of the turn's first line, {}",
                    turn_state.describe()
                ),
                found: state.describe(),
            });
        }
        let roll_number = u8::try_from(turn.rolls().len() + 1).unwrap_or(u8::MAX);
        check_rolls_left(line, 3u8.saturating_sub(roll_number), roll_number)?;
        // At most three rolls pass the rolls-left check, far below the limit.
        turn.push_roll(*kept, line.dice)
            .map_err(|too_many| LineError {
                offset: line.start,
                expected: "a box scored".to_string(),
                found: too_many.to_string(),
            })?;
        Ok(())
    }

    fn apply_choice(
        &mut self,
        line: &TurnLine,
        turns: &mut Vec<TurnRecord>,
    ) -> Result<(), LineError> {
        let Some((turn, state, kept)) = &mut self.turn else {
            return Ok(());
        };
        match line.choice {
            Choice::Keep(keep) => match turn.rolls().len() {
                1..=2 if line.rolls_left > 0 => *kept = keep,
                _ => {
                    return Err(LineError {
                        offset: line.choice_offset,
                        expected: "a box scored: no rolls are left".to_string(),
                        found: "kept dice".to_string(),
                    })
                }
            },
            Choice::Score { box_index, points } => {
                if !state.open.contains(box_index) {
                    return Err(LineError {
                        offset: line.choice_offset,
                        expected: format!("an open box of the state {}", state.open.mask()),
                        found: format!("box {} (already used)", box_letter(box_index)),
                    });
                }
                turn.category = box_code(box_index);
                turn.points = points;
                turns.push(std::mem::take(turn));
                self.next_open = Some(state.open.without(box_index));
                self.turn = None;
            }
        }
        Ok(())
    }

    /// At the end of the game (at `(line, column)`, where `found` is): an error if a turn is
    /// unfinished.
    fn check_turn_finished(
        &self,
        site: &ErrorSite<'_>,
        (line, column): (LineNumber, u32),
        found: &str,
    ) -> Result<(), ParseError> {
        match &self.turn {
            Some((turn, _, _)) => Err(site.error(line, column, continuation_expected(turn), found)),
            None => Ok(()),
        }
    }
}

/// What must follow a turn whose last line kept dice.
fn continuation_expected(turn: &TurnRecord) -> String {
    let made = turn.rolls().len();
    let left = 2usize.saturating_sub(made);
    format!(
        "the next line of turn {} (roll {}, rolls left {left})",
        turn.round,
        made + 1
    )
}

fn check_rolls_left(line: &TurnLine, expected: u8, roll_number: u8) -> Result<(), LineError> {
    if line.rolls_left == expected {
        return Ok(());
    }
    Err(LineError {
        offset: line.rolls_left_offset,
        expected: format!("rolls left {expected} (roll {roll_number} of the turn)"),
        found: line.rolls_left.to_string(),
    })
}

/// The letter of a box by mask index.
fn box_letter(index: usize) -> char {
    BOX_LETTERS
        .get(index)
        .map_or('?', |&letter| char::from(letter))
}

/// The YGN code of a box by mask index.
fn box_code(index: usize) -> BoxCode {
    BOX_CODES
        .get(index)
        .and_then(|code| BoxCode::parse(code))
        .unwrap_or_default()
}

/// Writes one game in the input form (YahtzeeTrainer's). The game needs one player, turns that
/// count rounds from 1 in seat 0, and every turn's points and `total_before`; boxes must be
/// Verhoeff's (no `1P`/`2P`). Otherwise nothing is written and the error is of kind
/// [`io::ErrorKind::InvalidInput`]. Dice are written sorted; termination, result and tags are
/// not written (a reader derives them).
pub fn write_game(game: &GameRecord, out: &mut dyn io::Write) -> io::Result<()> {
    let text = input_form(game).map_err(|message| {
        let id = &game.provenance.game_id;
        io::Error::new(io::ErrorKind::InvalidInput, format!("game {id}: {message}"))
    })?;
    out.write_all(text.as_bytes())
}

/// The input form of a game, or what keeps it from being written.
fn input_form(game: &GameRecord) -> Result<String, String> {
    if game.players.len() != 1 {
        return Err(format!(
            "Verhoeff's records are solitaire, this game has {} players",
            game.players.len()
        ));
    }
    if game.turns.is_empty() {
        return Err("a Verhoeff record needs at least one turn".to_string());
    }
    let mut text = String::new();
    let mut open = OpenBoxes::ALL;
    let mut upper_needed = UPPER_BONUS_TARGET;
    let mut yahtzee_holds_50 = false;
    for (round, turn) in (1u16..).zip(&game.turns) {
        let at = |what: &str| format!("turn {round}: {what}");
        if turn.seat != 0 {
            return Err(at(&format!(
                "seat {} (the input form has seat 0 only)",
                turn.seat
            )));
        }
        if turn.round != round {
            return Err(at(&format!(
                "round {} (the input form counts rounds from 1)",
                turn.round
            )));
        }
        let points = turn
            .points
            .ok_or_else(|| at("no points (the input form needs them)"))?;
        let total = turn
            .total_before
            .ok_or_else(|| at("no total before the turn (the input form needs it)"))?;
        let box_index = BOX_CODES
            .iter()
            .position(|&code| code == turn.category.as_str())
            .ok_or_else(|| at(&format!("box {} is not one of Verhoeff's", turn.category)))?;
        if !open.contains(box_index) {
            return Err(at(&format!("box {} scored a second time", turn.category)));
        }
        if !(1..=3).contains(&turn.rolls().len()) {
            return Err(at(&format!(
                "{} rolls (1 to 3 expected)",
                turn.rolls().len()
            )));
        }
        if let Some(announced) = turn.announced {
            return Err(at(&format!(
                "an announcement ({announced}; Verhoeff's form has none)"
            )));
        }
        let state = SheetState {
            open,
            upper_needed,
            yahtzee_holds_50,
            total,
        };
        for (index, dice) in turn.rolls().iter().enumerate() {
            let rolls_left = 2usize.saturating_sub(index);
            let choice = match turn.keeps().get(index) {
                Some(keep) => format!(
                    "k{:_<width$}",
                    sorted_digits(keep.faces()).map_err(|e| at(&e))?,
                    width = dice.len()
                ),
                None => format!("s{} {points:>3}", box_letter(box_index)),
            };
            if dice.is_empty() {
                return Err(at("a roll without dice"));
            }
            let dice = sorted_digits(dice.faces()).map_err(|e| at(&e))?;
            if index == 0 {
                let flag = if state.yahtzee_holds_50 {
                    "true"
                } else {
                    "false"
                };
                let mask = state.open.mask();
                let _ = write!(
                    text,
                    "{mask:>19};{:>3} {flag:>5} {total:>4}",
                    state.upper_needed
                );
            } else {
                let _ = write!(text, "{:>20}{:14}", ";", "");
            }
            let _ = writeln!(text, "  {dice};{rolls_left}   {choice}");
        }
        open = open.without(box_index);
        if box_index < UPPER_BOXES {
            upper_needed = upper_needed.saturating_sub(points);
        }
        yahtzee_holds_50 |= box_index == YAHTZEE_BOX && points == YAHTZEE_POINTS;
    }
    Ok(text)
}

/// Dice as sorted digits, or an error naming a face outside 1-6.
fn sorted_digits(faces: &[u8]) -> Result<String, String> {
    let mut sorted = faces.to_vec();
    sorted.sort_unstable();
    sorted
        .iter()
        .map(|&f| {
            if (1..=6).contains(&f) {
                Ok(char::from(b'0' + f))
            } else {
                Err(format!("die {f} (1-6 expected)"))
            }
        })
        .collect()
}

//! CSV/TSV turn tables, as a site database exports them (`docs/formats/csv.md`).
//!
//! A table has a header line naming its columns, then one row per turn (`roll1`, `keep1`,
//! `roll2`, `keep2`, `roll3`, `box`, ...) or one row per roll (`roll`, `dice`, `keep`, with
//! `box` on the turn's last roll):
//!
//! ```text
//! game,date,rules,seat,player,round,roll1,keep1,roll2,keep2,roll3,box,points
//! r3-187,2007-03-14,yahtzee,0,simson11,1,13456,3456,23456,,,LS,40
//! r3-187,2007-03-14,yahtzee,1,kasia_k,1,52216,22,22234,222,26222,3K,14
//! ```
//!
//! The rows of a game may lie anywhere in the table: the reader groups them by the `game`
//! column and orders each game's turns by round and seat. To keep memory bounded, a game is
//! given out once [`CsvOptions::window_rows`] rows have been read since its first row (all of
//! its rows must lie in that window), or at the end of the input; games come out in the order
//! of their first rows, so [`GameReader::game_offset`] grows.
//!
//! The reader checks the syntax of each field (one to six dice 1-6, keeps of digits, known box
//! codes, numbers) and that a game's rows agree with each other (rules, date, player of a
//! seat, no row given twice); the rules of the game (keeps contained in rolls, boxes, points,
//! missing rounds) are the replay's business.
//!
//! The csv crate's record positions count blank lines and carriage returns loosely, so the
//! reader drives `csv_core` over its own buffer and keeps exact byte offsets and line numbers.

use crate::{
    BoxCode, GameReader, GameRecord, Keep, LineNumber, ParseError, Roll, Termination, TurnRecord,
    MAX_DICE, MAX_ROLLS_PER_TURN,
};
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};
use std::io::{self, Read};
use std::ops::Range;

/// What a per-roll row's roll number may be.
const ROLL_NUMBER: &str = "a roll number 1-64";

/// Rows a game's rows may span by default ([`CsvOptions::window_rows`]).
pub const DEFAULT_WINDOW_ROWS: usize = 1_000_000;

/// The header [`write_header`] writes: the documented default column names, in this order.
pub const WRITTEN_HEADER: &str = "game,date,time,rules,seat,player,round,roll1,keep1,roll2,keep2,\
roll3,box,points,termination,announce,more";

use crate::record::MAX_PLAYERS;

/// Bytes read from a stream at a time.
const CHUNK: usize = 64 * 1024;

/// How a CSV table is read: which header names the columns have (`--columns name=header,...`)
/// and how far apart the rows of one game may be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsvOptions {
    /// Header names of the table for the columns this reader knows, as (column, header); the
    /// columns not named here have their default names.
    pub columns: Vec<(String, String)>,
    /// How many rows, counted from a game's first row, may hold rows of that game: the game is
    /// given out once that many rows have been read (at most this many rows are held in
    /// memory). A row of a game after its window is an error of its own.
    pub window_rows: usize,
}

impl Default for CsvOptions {
    fn default() -> CsvOptions {
        CsvOptions {
            columns: Vec::new(),
            window_rows: DEFAULT_WINDOW_ROWS,
        }
    }
}

/// The columns the reader knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    Game,
    Date,
    Time,
    Rules,
    Seat,
    Player,
    Round,
    Roll1,
    Keep1,
    Roll2,
    Keep2,
    Roll3,
    Roll,
    Dice,
    Keep,
    Box,
    Points,
    Termination,
    Announce,
    More,
}

/// Every column with its default header name, in the order of the documentation.
const COLUMNS: [(Column, &str); 20] = [
    (Column::Game, "game"),
    (Column::Date, "date"),
    (Column::Time, "time"),
    (Column::Rules, "rules"),
    (Column::Seat, "seat"),
    (Column::Player, "player"),
    (Column::Round, "round"),
    (Column::Roll1, "roll1"),
    (Column::Keep1, "keep1"),
    (Column::Roll2, "roll2"),
    (Column::Keep2, "keep2"),
    (Column::Roll3, "roll3"),
    (Column::Roll, "roll"),
    (Column::Dice, "dice"),
    (Column::Keep, "keep"),
    (Column::Box, "box"),
    (Column::Points, "points"),
    (Column::Termination, "termination"),
    (Column::Announce, "announce"),
    (Column::More, "more"),
];

/// The columns both layouts need.
const REQUIRED: [Column; 5] = [
    Column::Game,
    Column::Rules,
    Column::Player,
    Column::Round,
    Column::Box,
];

impl Column {
    /// The default header name.
    fn name(self) -> &'static str {
        COLUMNS
            .iter()
            .find(|(column, _)| *column == self)
            .map_or("?", |(_, name)| name)
    }

    /// The column's slot in [`Layout::index`].
    fn slot(self) -> usize {
        self as usize
    }
}

/// Parses `--columns name=header,...`: each known column name (`game`, `rules`, `roll1`, ...)
/// with the header text the table uses for it. Names must be known and given once; header
/// texts must not be empty (they cannot hold a comma).
pub fn parse_columns(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut columns: Vec<(String, String)> = Vec::new();
    for pair in text.split(',') {
        let (name, header) = pair
            .split_once('=')
            .map(|(n, h)| (n.trim().to_ascii_lowercase(), h.trim().to_string()))
            .ok_or_else(|| format!("--columns: expected name=header, found '{}'", pair.trim()))?;
        if !COLUMNS.iter().any(|(_, known)| *known == name) {
            let known: Vec<&str> = COLUMNS.iter().map(|(_, known)| *known).collect();
            return Err(format!(
                "--columns: unknown column '{name}' (known: {})",
                known.join(", ")
            ));
        }
        if header.is_empty() {
            return Err(format!("--columns: no header name for column '{name}'"));
        }
        if columns.iter().any(|(given, _)| *given == name) {
            return Err(format!("--columns: column '{name}' mapped twice"));
        }
        columns.push((name, header));
    }
    Ok(columns)
}

/// The delimiter of a table, from its header line: whichever of `,` `;` tab `|` occurs most
/// outside double quotes (a comma when none does, or on a tie with it).
fn sniff_delimiter(header: &[u8]) -> u8 {
    let candidates = [b',', b';', b'\t', b'|'];
    let mut counts = [0usize; 4];
    let mut quoted = false;
    for &byte in header {
        if byte == b'"' {
            quoted = !quoted;
        } else if !quoted {
            if let Some(at) = candidates.iter().position(|&c| c == byte) {
                if let Some(count) = counts.get_mut(at) {
                    *count += 1;
                }
            }
        }
    }
    let mut best = (b',', 0);
    for (&candidate, &count) in candidates.iter().zip(&counts) {
        if count > best.1 {
            best = (candidate, count);
        }
    }
    best.0
}

/// The names of a header line, split at `delimiter`, each trimmed, without surrounding quotes.
fn header_names(header: &[u8], delimiter: u8) -> impl Iterator<Item = &[u8]> {
    header.split(move |&b| b == delimiter).map(|name| {
        let name = name.trim_ascii();
        let unquoted = name.strip_prefix(b"\"").and_then(|n| n.strip_suffix(b"\""));
        unquoted.unwrap_or(name).trim_ascii()
    })
}

/// Whether a first line looks like the header of a turn table: split at its sniffed delimiter,
/// it names (case-insensitively) the columns `game`, `round` and `box`, or it is the header
/// dicelens writes with one name damaged (the reader reports it and reads on). Tables whose
/// columns have other names are read with `--format csv --columns ...`.
pub fn looks_like(first_line: &[u8]) -> bool {
    let line = first_line
        .strip_prefix(crate::cursor::BOM)
        .unwrap_or(first_line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let delimiter = sniff_delimiter(line);
    let has = |wanted: &str| {
        header_names(line, delimiter).any(|name| name.eq_ignore_ascii_case(wanted.as_bytes()))
    };
    let names = || {
        header_names(line, delimiter)
            .map(|name| String::from_utf8_lossy(name).into_owned())
            .collect::<Vec<_>>()
    };
    has("game") && has("round") && has("box") || damaged_written_header(&names()).is_some()
}

/// Where each known column is in the table's records, and which layout the table has.
#[derive(Clone, Debug)]
struct Layout {
    /// Field index of each column (by [`Column::slot`]), `None` when the table lacks it.
    index: [Option<usize>; COLUMNS.len()],
    /// One row per roll (`roll`, `dice`, `keep`) rather than one per turn.
    per_roll: bool,
    /// Fields in the header: every row must have as many.
    fields: usize,
}

impl Layout {
    /// The layout of a header record, or the error for a header that lacks a required column.
    fn of_header(names: &[String], options: &CsvOptions) -> Result<Layout, String> {
        let header_of = |column: Column| -> String {
            options
                .columns
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(column.name()))
                .map_or_else(|| column.name().to_string(), |(_, header)| header.clone())
        };
        let mut index = [None; COLUMNS.len()];
        for (column, _) in COLUMNS {
            let header = header_of(column);
            let header = header.trim();
            if let Some(slot) = index.get_mut(column.slot()) {
                *slot = names
                    .iter()
                    .position(|name| name.trim().eq_ignore_ascii_case(header));
            }
        }
        let has = |column: Column| index.get(column.slot()).copied().flatten().is_some();
        let per_roll = !has(Column::Roll1) && has(Column::Roll) && has(Column::Dice);
        let mut missing: Vec<String> = REQUIRED
            .iter()
            .filter(|&&column| !has(column))
            .map(|&column| header_of(column))
            .collect();
        if !per_roll && !has(Column::Roll1) {
            missing.push(header_of(Column::Roll1));
        }
        if missing.is_empty() {
            return Ok(Layout {
                index,
                per_roll,
                fields: names.len(),
            });
        }
        Err(format!(
            "a header naming the columns {}, {}, {}, {}, {} and {} (or {} and {}) \
             (--columns maps other names); missing: {}",
            header_of(Column::Game),
            header_of(Column::Rules),
            header_of(Column::Player),
            header_of(Column::Round),
            header_of(Column::Box),
            header_of(Column::Roll1),
            header_of(Column::Roll),
            header_of(Column::Dice),
            missing.join(", ")
        ))
    }

    /// The field index of `column`, if the table has it.
    fn get(&self, column: Column) -> Option<usize> {
        self.index.get(column.slot()).copied().flatten()
    }
}

/// The header dicelens writes, or wrote before its optional trailing columns (`announce`,
/// `more`) were added, with `len` names; `None` for another length.
fn written_header_of_len(len: usize) -> Option<Vec<&'static str>> {
    const OPTIONAL_TRAILING: usize = 2;
    let written: Vec<&str> = WRITTEN_HEADER.split(',').collect();
    let shorter = written.len() - OPTIONAL_TRAILING;
    (len == written.len() || len == shorter).then(|| written[..len].to_vec())
}

/// For a header that has as many names as [`WRITTEN_HEADER`] (or as it had before its
/// optional trailing columns) and differs from it (ignoring case) in one name only: the index
/// of that name (damage to the header dicelens writes).
fn damaged_written_header(names: &[String]) -> Option<usize> {
    let written = written_header_of_len(names.len())?;
    let mut differing = (0..names.len()).filter(|&i| {
        names
            .get(i)
            .zip(written.get(i))
            .is_none_or(|(name, want)| !name.trim().eq_ignore_ascii_case(want))
    });
    let first = differing.next()?;
    differing.next().is_none().then_some(first)
}

/// Where the reader takes its bytes from: the whole content, or a stream read in chunks.
enum Source<'a> {
    /// The content, all of it at hand.
    Slice(&'a [u8]),
    /// A stream and the bytes of it read but not yet used (`buffer[start..]`).
    Stream {
        input: Box<dyn Read + Send + 'a>,
        buffer: Vec<u8>,
        start: usize,
        ended: bool,
    },
}

impl Source<'_> {
    /// The bytes at hand from `offset` (the reader's position) on; empty only at the end of
    /// the input. A stream is read on when nothing is at hand.
    fn available(&mut self, offset: usize) -> io::Result<&[u8]> {
        match self {
            Source::Slice(content) => Ok(content.get(offset..).unwrap_or_default()),
            Source::Stream {
                input,
                buffer,
                start,
                ended,
            } => {
                if *start >= buffer.len() && !*ended {
                    buffer.clear();
                    *start = 0;
                    fill(input, buffer, CHUNK, ended)?;
                }
                Ok(buffer.get(*start..).unwrap_or_default())
            }
        }
    }

    /// The bytes at hand up to and including the next line feed, reading a stream on until it
    /// holds one (or ends).
    fn line_ahead(&mut self, offset: usize) -> io::Result<&[u8]> {
        let at_hand = self.lines_ahead(offset, 1, usize::MAX)?;
        let end = memchr::memchr(b'\n', at_hand).map_or(at_hand.len(), |newline| newline + 1);
        Ok(at_hand.get(..end).unwrap_or_default())
    }

    /// The bytes at hand from `offset` on, holding at least `lines` whole lines (or all that is
    /// left of the input, or what a stream gives before `limit` bytes are at hand).
    fn lines_ahead(&mut self, offset: usize, lines: usize, limit: usize) -> io::Result<&[u8]> {
        if let Source::Stream {
            input,
            buffer,
            start,
            ended,
        } = self
        {
            loop {
                let at_hand = buffer.get(*start..).unwrap_or_default();
                if *ended
                    || at_hand.len() >= limit
                    || memchr::memchr_iter(b'\n', at_hand)
                        .nth(lines.saturating_sub(1))
                        .is_some()
                {
                    break;
                }
                fill(input, buffer, CHUNK, ended)?;
            }
        }
        self.available(offset)
    }

    /// Marks `count` bytes at hand as used.
    fn consume(&mut self, count: usize) {
        if let Source::Stream { start, .. } = self {
            *start += count;
        }
    }
}

/// Appends up to `chunk` bytes of `input` to `buffer`; sets `ended` at the end of the input.
fn fill(
    input: &mut Box<dyn Read + Send + '_>,
    buffer: &mut Vec<u8>,
    chunk: usize,
    ended: &mut bool,
) -> io::Result<()> {
    let old = buffer.len();
    buffer.resize(old + chunk, 0);
    let read = loop {
        match input.read(buffer.get_mut(old..).unwrap_or_default()) {
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => {
                buffer.truncate(old);
                *ended = true;
                return Err(error);
            }
            Ok(read) => break read,
        }
    };
    buffer.truncate(old + read);
    if read == 0 {
        *ended = true;
    }
    Ok(())
}

/// One record of the table: its fields (unquoted, as csv_core gives them), where it starts.
#[derive(Default)]
struct Record {
    /// The fields' bytes, one after the other.
    bytes: Vec<u8>,
    /// The end of each field in `bytes`.
    ends: Vec<usize>,
    /// Fields in the record.
    len: usize,
    /// Line of its first byte, 1-based.
    line: LineNumber,
    /// Byte offset of its first byte in the input.
    offset: usize,
    /// Whether its fields are all ASCII (so columns are byte counts).
    ascii: bool,
    /// Whether its last field opens a quote that the record's lines do not close: the record
    /// was cut before the next line that reads as a row of the table ([`unclosed_lines`]).
    unclosed: bool,
}

impl Record {
    /// Field `index`, untrimmed.
    fn raw(&self, index: usize) -> Option<&[u8]> {
        if index >= self.len {
            return None;
        }
        let start = match index {
            0 => 0,
            _ => *self.ends.get(index - 1)?,
        };
        self.bytes.get(start..*self.ends.get(index)?)
    }

    /// The fields, untrimmed.
    fn fields(&self) -> impl Iterator<Item = &[u8]> {
        (0..self.len).map(|index| self.raw(index).unwrap_or_default())
    }

    /// The 1-based character column where field `index` starts in the record's line, counting
    /// the fields before it and their delimiters (a quoted field before it counts without its
    /// quotes, a field after a line break inside quotes from the record's first line).
    fn column(&self, index: usize) -> u32 {
        if self.ascii {
            // Every byte a character: the bytes of the fields before, and their delimiters.
            let bytes = match index.min(self.len) {
                0 => 0,
                at => self.ends.get(at - 1).copied().unwrap_or(0),
            };
            return u32::try_from(bytes + index + 1).unwrap_or(u32::MAX);
        }
        let before: usize = self
            .fields()
            .take(index)
            .map(|field| characters(field) + 1)
            .sum();
        u32::try_from(before + 1).unwrap_or(u32::MAX)
    }

    /// Whether the record is a blank line (one field of white space only).
    fn is_blank(&self) -> bool {
        self.len <= 1 && self.raw(0).unwrap_or_default().trim_ascii().is_empty()
    }
}

/// Lines [`Reader::cut_unclosed_quote`] looks ahead for a row at most (and bytes of a stream).
const RESYNC_LINES: usize = 64;
const RESYNC_BYTES: usize = 1 << 20;

/// The first line of `bytes`, without its line end.
fn line_of(bytes: &[u8]) -> &[u8] {
    let line = memchr::memchr(b'\n', bytes).map_or(bytes, |at| bytes.get(..at).unwrap_or(bytes));
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// Reads `line` as CSV with `delimiter`, from a record's start (or, when `open`, inside a
/// quoted field): whether it leaves a quoted field open at its end, and how many fields it has.
fn quote_state(line: &[u8], delimiter: u8, open: bool) -> (bool, usize) {
    // As csv_core reads: a quote opens a field only at its start; inside quotes, a quote
    // closes it unless another follows (an escaped quote).
    let (mut quoted, mut at_start, mut closed, mut fields) = (open, !open, false, 1);
    for &b in line {
        if quoted {
            if b == b'"' {
                quoted = false;
                closed = true;
            }
            continue;
        }
        if b == b'"' && closed {
            quoted = true;
            closed = false;
        } else if b == delimiter {
            fields += 1;
            at_start = true;
            closed = false;
        } else if b == b'"' && at_start {
            quoted = true;
            at_start = false;
        } else {
            at_start = false;
            closed = false;
        }
    }
    (quoted, fields)
}

/// For lines whose first opens a quote it does not close: where the first later line begins
/// that reads on its own as a row of a table of `fields` fields (its quotes closed, as many
/// fields), and the line feeds before it, unless the lines read as one record of `fields`
/// fields (a field in quotes over several lines). `None` when no such line is in `bytes`, or
/// the quote closes into a whole record.
fn unclosed_lines(bytes: &[u8], delimiter: u8, fields: usize) -> Option<(usize, usize)> {
    let first = line_of(bytes);
    let (mut open, mut total) = quote_state(first, delimiter, false);
    let mut at = memchr::memchr(b'\n', bytes)? + 1;
    let (mut feeds, mut row) = (1, None);
    while open && at < bytes.len() {
        let rest = bytes.get(at..).unwrap_or_default();
        let line = line_of(rest);
        let (alone_open, alone_fields) = quote_state(line, delimiter, false);
        if row.is_none() && !line.trim_ascii().is_empty() && !alone_open && alone_fields == fields {
            row = Some((at, feeds));
        }
        let (still_open, more) = quote_state(line, delimiter, true);
        (open, total) = (still_open, total + more - 1);
        let Some(end) = memchr::memchr(b'\n', rest) else {
            break;
        };
        at += end + 1;
        feeds += 1;
    }
    if !open && total == fields {
        return None;
    }
    row
}

/// Reads `text` (one record's bytes, without a line end, as from its start) into `record`'s
/// fields, a quote left open ending at the end of `text`.
fn read_alone(text: &[u8], delimiter: u8, record: &mut Record) {
    let mut core = csv_core::ReaderBuilder::new().delimiter(delimiter).build();
    record.bytes.resize(text.len().max(1), 0);
    record.ends.resize(text.len() + 2, 0);
    let (mut input, mut written, mut ended) = (text, 0, 0);
    loop {
        let (result, read, out, ends) = core.read_record(
            input,
            record.bytes.get_mut(written..).unwrap_or_default(),
            record.ends.get_mut(ended..).unwrap_or_default(),
        );
        input = input.get(read..).unwrap_or_default();
        written += out;
        ended += ends;
        match result {
            csv_core::ReadRecordResult::InputEmpty => {}
            csv_core::ReadRecordResult::OutputFull | csv_core::ReadRecordResult::OutputEndsFull => {
                // Sized for the whole text above; cannot happen, but never loops.
                break;
            }
            csv_core::ReadRecordResult::Record | csv_core::ReadRecordResult::End => break,
        }
    }
    record.len = ended;
    let used = record.ends.get(..ended).and_then(|ends| ends.last());
    let bytes = record.bytes.get(..used.copied().unwrap_or(0));
    record.ascii = bytes.unwrap_or_default().is_ascii();
}

/// Characters in `bytes` (UTF-8 lead bytes; invalid bytes count one each).
fn characters(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b & 0xc0) != 0x80).count()
}

/// One data row, checked, waiting for the rest of its game.
#[derive(Clone, Debug)]
struct Row {
    /// The turn (per-turn layout) or, without its dice, the turn of the roll (per-roll
    /// layout). `seat` is the seat when the table has a seat column, else the player's index in
    /// the game's players by first appearance; `line` is the row's line.
    turn: TurnRecord,
    /// Per-roll layout: the roll's number (1-based), its dice and the keep after it.
    roll_number: u8,
    dice: Roll,
    kept: Keep,
    /// Whether the row names a box (always in the per-turn layout).
    scores: bool,
    /// Columns of the row's round (per-roll: roll) field and box field, for errors found once
    /// the game's rows are all read.
    key_column: u32,
    box_column: u32,
    /// Column of the row's seat field (1 without a seat column).
    seat_column: u32,
}

/// The rows of one game read so far, and what they agree on.
struct Group {
    /// The id as written (the key of [`Reader::open`]) and as text.
    id_bytes: Box<[u8]>,
    id: String,
    /// Line and byte offset of the first row, and its number among the data rows.
    first_line: LineNumber,
    offset: usize,
    first_row: u64,
    /// What the rows agree on: rules, date, time and termination.
    agreed: [Agreed; 4],
    /// Names by seat (seat column) or by first appearance (no seat column).
    names: Vec<Option<String>>,
    /// The line of each name's first row.
    name_lines: Vec<LineNumber>,
    rows: Vec<Row>,
    /// The first error found reading the rows, in file order.
    error: Option<ParseError>,
}

/// A game or an error waiting to be given out, in the order of their first rows.
enum Pending {
    Game(Box<Group>),
    /// An error of a row whose game is unknown (or of the header).
    Error {
        offset: usize,
        first_row: u64,
        error: ParseError,
    },
}

impl Pending {
    fn offset(&self) -> usize {
        match self {
            Pending::Game(group) => group.offset,
            Pending::Error { offset, .. } => *offset,
        }
    }

    fn first_row(&self) -> u64 {
        match self {
            Pending::Game(group) => group.first_row,
            Pending::Error { first_row, .. } => *first_row,
        }
    }
}

/// A problem with one field of a row: where and what.
struct Problem {
    line: LineNumber,
    column: u32,
    expected: String,
    found: String,
}

impl Problem {
    /// The problem as the error of game `id` whose first row is on `game_line`.
    fn in_game(self, file: &str, id: Option<&str>, game_line: LineNumber) -> ParseError {
        ParseError {
            file: file.to_string(),
            line: self.line,
            column: self.column,
            game_id: id.map(str::to_string),
            game_line,
            expected: self.expected,
            found: self.found,
            outside_games: false,
        }
    }
}

/// A reader of a CSV turn table.
pub struct Reader<'a> {
    source: Source<'a>,
    file: &'a str,
    options: CsvOptions,
    /// Only games whose first row's offset lies here are given out.
    range: Range<usize>,
    /// The table's layout, once the header is read.
    layout: Option<Layout>,
    /// Whether the header has been looked for.
    started: bool,
    /// Whether the input is read to its end (or cannot be read further).
    ended: bool,
    core: csv_core::Reader,
    /// The table's field delimiter, once the header is read.
    delimiter: u8,
    record: Record,
    /// Byte offset and line number (1-based) of the next byte to read.
    offset: usize,
    line: LineNumber,
    /// Data rows read so far.
    rows: u64,
    /// The pending groups by game id, as their number in the order of first rows.
    open: HashMap<Box<[u8]>, u64>,
    /// Games and errors waiting to be given out; the first is number `first_pending`.
    pending: VecDeque<Pending>,
    first_pending: u64,
    /// The games given out: a 64-bit hash of the id, and the line of the game's first row.
    given_out: HashMap<u64, LineNumber>,
    /// Where the last outcome given out begins.
    last_offset: usize,
}

impl<'a> Reader<'a> {
    /// A reader of the games of `content` whose first row lies in `range` (byte offsets from
    /// the start of `content`): it reads the whole table (a game's rows may lie anywhere) and
    /// gives out only those games, and the errors of rows whose game is unknown that lie in
    /// the range. Adjacent ranges together give every outcome of the whole table once.
    pub fn with_range(
        content: &'a [u8],
        file: &'a str,
        range: Range<usize>,
        options: &CsvOptions,
    ) -> Reader<'a> {
        Reader::new(Source::Slice(content), file, range, options)
    }

    /// A reader of every game of a table read from `input` (standard input, a decompressed
    /// file), naming `file` in records and errors.
    pub fn from_read(
        input: Box<dyn Read + Send + 'a>,
        file: &'a str,
        options: &CsvOptions,
    ) -> Reader<'a> {
        Reader::from_read_in_range(input, file, 0..usize::MAX, options)
    }

    /// A reader of the games of a table read from `input` whose first row lies in `range`
    /// (byte offsets from the start of the stream), as [`Reader::with_range`] gives them.
    pub fn from_read_in_range(
        input: Box<dyn Read + Send + 'a>,
        file: &'a str,
        range: Range<usize>,
        options: &CsvOptions,
    ) -> Reader<'a> {
        let source = Source::Stream {
            input,
            buffer: Vec::new(),
            start: 0,
            ended: false,
        };
        Reader::new(source, file, range, options)
    }

    fn new(source: Source<'a>, file: &'a str, range: Range<usize>, options: &CsvOptions) -> Self {
        Reader {
            source,
            file,
            options: options.clone(),
            range,
            layout: None,
            started: false,
            ended: false,
            core: csv_core::Reader::new(),
            delimiter: b',',
            record: Record::default(),
            offset: 0,
            line: 1,
            rows: 0,
            open: HashMap::new(),
            pending: VecDeque::new(),
            first_pending: 0,
            given_out: HashMap::new(),
            last_offset: 0,
        }
    }

    /// Moves past `count` bytes at hand that hold `lines` line feeds.
    fn advance(&mut self, count: usize, lines: usize) {
        self.source.consume(count);
        self.offset += count;
        self.line = self
            .line
            .saturating_add(LineNumber::try_from(lines).unwrap_or(LineNumber::MAX));
    }

    /// Skips line ends (blank lines between records). Returns whether input is left.
    fn skip_line_ends(&mut self) -> io::Result<bool> {
        loop {
            let at_hand = self.source.available(self.offset)?;
            if at_hand.is_empty() {
                return Ok(false);
            }
            let skipped = at_hand
                .iter()
                .position(|&b| b != b'\n' && b != b'\r')
                .unwrap_or(at_hand.len());
            let lines =
                memchr::memchr_iter(b'\n', at_hand.get(..skipped).unwrap_or_default()).count();
            let rest = at_hand.len() - skipped;
            self.advance(skipped, lines);
            if rest > 0 {
                return Ok(true);
            }
        }
    }

    /// Skips the byte-order mark and the blank and `%` lines before the header, and returns
    /// the header line (with its line end), or `None` when the input has no header.
    fn header_line(&mut self) -> io::Result<Option<Vec<u8>>> {
        let start = self.source.line_ahead(0)?;
        if start.starts_with(crate::cursor::BOM) {
            self.advance(crate::cursor::BOM.len(), 0);
        }
        loop {
            if !self.skip_line_ends()? {
                return Ok(None);
            }
            let line = self.source.line_ahead(self.offset)?.to_vec();
            if line.trim_ascii().is_empty() || line.starts_with(b"%") {
                let feeds = usize::from(line.ends_with(b"\n"));
                self.advance(line.len(), feeds);
                continue;
            }
            return Ok(Some(line));
        }
    }

    /// Reads the next record into `self.record`; `false` at the end of the input.
    fn next_record(&mut self) -> io::Result<bool> {
        if !self.skip_line_ends()? {
            return Ok(false);
        }
        if let Some(fields) = self.layout.as_ref().map(|layout| layout.fields) {
            if self.cut_unclosed_quote(fields)? {
                return Ok(true);
            }
        }
        let record = &mut self.record;
        record.line = self.line;
        record.offset = self.offset;
        record.len = 0;
        record.unclosed = false;
        if record.bytes.len() < 256 {
            record.bytes.resize(256, 0);
        }
        if record.ends.len() < 32 {
            record.ends.resize(32, 0);
        }
        let (mut written, mut ended) = (0, 0);
        loop {
            let at_hand = self.source.available(self.offset)?;
            let lines_before = self.core.line();
            let (result, read, out, ends) = self.core.read_record(
                at_hand,
                self.record.bytes.get_mut(written..).unwrap_or_default(),
                self.record.ends.get_mut(ended..).unwrap_or_default(),
            );
            // csv_core counts the line feeds it reads.
            let lines = self.core.line().saturating_sub(lines_before);
            self.advance(read, usize::try_from(lines).unwrap_or(usize::MAX));
            written += out;
            ended += ends;
            match result {
                csv_core::ReadRecordResult::InputEmpty => {}
                csv_core::ReadRecordResult::OutputFull => {
                    let len = self.record.bytes.len();
                    self.record.bytes.resize(len * 2, 0);
                }
                csv_core::ReadRecordResult::OutputEndsFull => {
                    let len = self.record.ends.len();
                    self.record.ends.resize(len * 2, 0);
                }
                csv_core::ReadRecordResult::Record => {
                    self.record.len = ended;
                    let used = self.record.ends.get(..ended).and_then(|ends| ends.last());
                    let bytes = self.record.bytes.get(..used.copied().unwrap_or(0));
                    self.record.ascii = bytes.unwrap_or_default().is_ascii();
                    return Ok(true);
                }
                csv_core::ReadRecordResult::End => return Ok(false),
            }
        }
    }

    /// Resynchronisation after a stray quote: when the line at hand opens a quoted field it
    /// does not close, and a later line, before one that closes it, reads on its own as a row of
    /// the table (`fields` fields, its quotes closed), the quote is taken to be damage, not a
    /// field over several lines: the lines before that row are read as one record of their own
    /// (marked [`Record::unclosed`], an error of its game) and reading goes on at the row. So a
    /// stray quote costs the game it is in, never the rows after it. Returns whether it cut.
    fn cut_unclosed_quote(&mut self, fields: usize) -> io::Result<bool> {
        let delimiter = self.delimiter;
        let at_hand = self.source.lines_ahead(self.offset, 2, RESYNC_BYTES)?;
        let line = line_of(at_hand);
        if line.is_empty() || !quote_state(line, delimiter, false).0 {
            return Ok(false);
        }
        let at_hand = self
            .source
            .lines_ahead(self.offset, RESYNC_LINES, RESYNC_BYTES)?;
        let Some((cut, lines)) = unclosed_lines(at_hand, delimiter, fields) else {
            return Ok(false);
        };
        let damaged = at_hand.get(..cut).unwrap_or_default();
        let text = damaged.strip_suffix(b"\n").unwrap_or(damaged);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        let record = &mut self.record;
        record.line = self.line;
        record.offset = self.offset;
        read_alone(text, delimiter, record);
        record.unclosed = true;
        self.advance(cut, lines);
        Ok(true)
    }

    /// Reads the header: sets up the layout, or queues the header's error and ends.
    fn read_header(&mut self) -> io::Result<()> {
        self.started = true;
        let Some(line) = self.header_line()? else {
            self.ended = true;
            return Ok(());
        };
        let delimiter = sniff_delimiter(&line);
        self.delimiter = delimiter;
        self.core = csv_core::ReaderBuilder::new().delimiter(delimiter).build();
        if !self.next_record()? {
            self.ended = true;
            return Ok(());
        }
        let names: Vec<String> = self
            .record
            .fields()
            .map(|name| String::from_utf8_lossy(name).trim().to_string())
            .collect();
        match Layout::of_header(&names, &self.options) {
            Ok(layout) => self.layout = Some(layout),
            Err(expected) if let Some(damaged) = damaged_written_header(&names) => {
                // The header dicelens writes, one name damaged: read on with its columns.
                let written: Vec<String> = written_header_of_len(names.len())
                    .unwrap_or_default()
                    .into_iter()
                    .map(String::from)
                    .collect();
                if let Ok(layout) = Layout::of_header(&written, &CsvOptions::default()) {
                    self.layout = Some(layout);
                }
                let problem = Problem {
                    line: self.record.line,
                    column: 1,
                    expected: format!(
                        "{expected}; read as the documented header ({}), whose field {} it \
                         differs in only",
                        written.join(","),
                        damaged + 1
                    ),
                    found: ParseError::excerpt(&names.join(", ")),
                };
                let error = problem.in_game(self.file, None, self.record.line);
                self.pending.push_back(Pending::Error {
                    offset: self.record.offset,
                    first_row: self.rows,
                    error: error.outside_games(),
                });
            }
            Err(expected) => {
                let problem = Problem {
                    line: self.record.line,
                    column: 1,
                    expected,
                    found: ParseError::excerpt(&names.join(", ")),
                };
                self.queue_error(problem);
                self.ended = true;
            }
        }
        Ok(())
    }

    /// Queues the error of a row whose game is unknown (at the current record).
    fn queue_error(&mut self, problem: Problem) {
        let game_line = problem.line;
        let error = problem.in_game(self.file, None, game_line);
        self.pending.push_back(Pending::Error {
            offset: self.record.offset,
            first_row: self.rows,
            error,
        });
    }

    /// Queues an error for a read failure of the input at the current position, and ends.
    fn fail_input(&mut self, error: &io::Error) {
        self.record.offset = self.offset;
        let problem = Problem {
            line: self.line,
            column: 1,
            expected: "readable input".to_string(),
            found: ParseError::excerpt(&error.to_string()),
        };
        self.queue_error(problem);
        self.ended = true;
    }

    /// Reads one more row (or the header) into the pending games.
    fn read_more(&mut self) {
        let outcome = if self.ended {
            return;
        } else if !self.started {
            self.read_header()
        } else {
            self.next_record().map(|more| {
                if !more {
                    self.ended = true;
                } else if !self.record.is_blank() {
                    self.take_row();
                }
            })
        };
        if let Err(error) = outcome {
            self.fail_input(&error);
        }
    }

    /// Files the current record under its game.
    fn take_row(&mut self) {
        let Some(layout) = self.layout.take() else {
            return;
        };
        self.take_row_of(&layout);
        self.layout = Some(layout);
    }

    /// [`Reader::take_row`] with the table's layout.
    fn take_row_of(&mut self, layout: &Layout) {
        let row_number = self.rows;
        self.rows += 1;
        let record = &self.record;
        let game_index = layout.get(Column::Game).unwrap_or(0);
        if record.unclosed && game_index + 1 >= record.len {
            // The quote opens the game id (or a field before it): the row's game is unknown.
            let problem = unclosed_problem(record);
            self.queue_error(problem);
            return;
        }
        let id_bytes = record.raw(game_index).unwrap_or_default().trim_ascii();
        if id_bytes.is_empty() {
            let (column, found) = match record.raw(game_index) {
                Some(_) => (record.column(game_index), "an empty field".to_string()),
                None => (1, format!("{} fields", record.len)),
            };
            let problem = Problem {
                line: record.line,
                column,
                expected: "a game id".to_string(),
                found,
            };
            self.queue_error(problem);
            return;
        }
        let seq = match self.open.get(id_bytes) {
            Some(&seq) => seq,
            None => {
                let id: Box<[u8]> = id_bytes.into();
                self.open_group(id, layout, row_number)
            }
        };
        let record = &self.record;
        let Some(Pending::Game(group)) = seq
            .checked_sub(self.first_pending)
            .and_then(|at| usize::try_from(at).ok())
            .and_then(|at| self.pending.get_mut(at))
        else {
            return;
        };
        if group.error.is_some() {
            return;
        }
        if let Err(problem) = add_row(group, record, layout) {
            group.error = Some(problem.in_game(self.file, Some(&group.id), group.first_line));
        }
    }

    /// Opens the group of game `id` at the current record; returns its number.
    fn open_group(&mut self, id: Box<[u8]>, layout: &Layout, row_number: u64) -> u64 {
        let record = &self.record;
        let mut group = Box::new(Group {
            id: String::from_utf8_lossy(&id).into_owned(),
            id_bytes: id,
            first_line: record.line,
            offset: record.offset,
            first_row: row_number,
            agreed: Default::default(),
            names: Vec::new(),
            name_lines: Vec::new(),
            rows: Vec::new(),
            error: None,
        });
        let game_column = record.column(layout.get(Column::Game).unwrap_or(0));
        if std::str::from_utf8(&group.id_bytes).is_err() {
            let problem = Problem {
                line: record.line,
                column: game_column,
                expected: "a game id in UTF-8".to_string(),
                found: ParseError::excerpt(&group.id),
            };
            group.error = Some(problem.in_game(self.file, Some(&group.id), record.line));
        } else if let Some(&earlier) = self.given_out.get(&id_hash(&group.id_bytes)) {
            let window = self.options.window_rows.max(1);
            let problem = Problem {
                line: record.line,
                column: game_column,
                expected: format!(
                    "the rows of game {} within {window} rows of its first row (line {earlier}; \
                     sort the export by game)",
                    group.id
                ),
                found: format!("a row {window} or more rows after it"),
            };
            group.error = Some(problem.in_game(self.file, Some(&group.id), record.line));
        }
        let seq = self.first_pending + self.pending.len() as u64;
        self.open.insert(group.id_bytes.clone(), seq);
        self.pending.push_back(Pending::Game(group));
        seq
    }

    /// Takes the first pending outcome out, if its window has passed (or the input is read).
    fn take_ready(&mut self) -> Option<Pending> {
        let front = self.pending.front()?;
        let window = self.options.window_rows.max(1) as u64;
        let ready = self.ended || self.rows.saturating_sub(front.first_row()) >= window;
        if !ready {
            return None;
        }
        let pending = self.pending.pop_front()?;
        self.first_pending += 1;
        if let Pending::Game(group) = &pending {
            self.open.remove(group.id_bytes.as_ref());
            self.given_out
                .insert(id_hash(&group.id_bytes), group.first_line);
        }
        Some(pending)
    }

    /// Whether no outcome the range holds can come any more.
    fn range_done(&self) -> bool {
        match self.pending.front() {
            Some(front) => front.offset() >= self.range.end,
            None => self.offset >= self.range.end || self.ended,
        }
    }
}

/// The 64-bit hash a given-out game id is remembered by (the same in every run).
fn id_hash(id: &[u8]) -> u64 {
    // `DefaultHasher::new` hashes alike in every run (unlike a `RandomState`'s hashers).
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    id.hash(&mut hasher);
    hasher.finish()
}

impl GameReader for Reader<'_> {
    fn read_game(&mut self, out: &mut GameRecord) -> Option<Result<(), ParseError>> {
        out.clear();
        loop {
            if self.range_done() {
                return None;
            }
            let Some(pending) = self.take_ready() else {
                self.read_more();
                continue;
            };
            let offset = pending.offset();
            if !self.range.contains(&offset) {
                continue;
            }
            self.last_offset = offset;
            return Some(match pending {
                Pending::Error { error, .. } => Err(error),
                Pending::Game(group) => match &self.layout {
                    Some(layout) => finish_game(*group, self.file, layout, out),
                    None => Ok(()),
                },
            });
        }
    }

    fn consumed(&self) -> usize {
        self.offset
    }

    fn game_offset(&self) -> usize {
        self.last_offset
    }
}

/// The fields of one data row, trimmed, with where they are.
struct Fields<'r> {
    record: &'r Record,
    layout: &'r Layout,
}

impl<'r> Fields<'r> {
    /// The field of `column`, trimmed; empty when the table has no such column.
    fn get(&self, column: Column) -> &'r [u8] {
        self.layout
            .get(column)
            .and_then(|index| self.record.raw(index))
            .unwrap_or_default()
            .trim_ascii()
    }

    /// The column (in characters) of the field of `column`, after its leading spaces.
    fn column(&self, column: Column) -> u32 {
        let Some(index) = self.layout.get(column) else {
            return 1;
        };
        let raw = self.record.raw(index).unwrap_or_default();
        let leading = raw.len() - raw.trim_ascii_start().len();
        self.record
            .column(index)
            .saturating_add(u32::try_from(leading).unwrap_or(0))
    }

    /// A problem with the field of `column`.
    fn problem(&self, column: Column, expected: impl Into<String>, found: &[u8]) -> Problem {
        self.problem_at(self.column(column), expected, found)
    }

    /// A problem at `column` of the row.
    fn problem_at(&self, column: u32, expected: impl Into<String>, found: &[u8]) -> Problem {
        let found = if found.is_empty() {
            "an empty field".to_string()
        } else {
            ParseError::excerpt(&String::from_utf8_lossy(found))
        };
        Problem {
            line: self.record.line,
            column,
            expected: expected.into(),
            found,
        }
    }

    /// The text of a field that must not be empty, in UTF-8.
    fn text(&self, column: Column, what: &str) -> Result<&'r str, Problem> {
        let field = self.get(column);
        match std::str::from_utf8(field) {
            Ok(text) if !text.is_empty() => Ok(text),
            _ => Err(self.problem(column, format!("{what} (UTF-8 text)"), field)),
        }
    }

    /// A whole number field (digits only) of at most `max`; `None` when empty.
    fn number(&self, column: Column, what: &str, max: u32) -> Result<Option<u32>, Problem> {
        let field = self.get(column);
        if field.is_empty() {
            return Ok(None);
        }
        let mut value: u32 = 0;
        for &byte in field {
            let digit = byte.wrapping_sub(b'0');
            if digit > 9 {
                return Err(self.problem(column, what, field));
            }
            value = value.saturating_mul(10).saturating_add(u32::from(digit));
        }
        if value > max {
            return Err(self.problem(column, what, field));
        }
        Ok(Some(value))
    }

    /// Dice of a field: digits 1-6, optionally separated by single spaces; one to
    /// [`MAX_DICE`] of them for a roll, else none to [`MAX_DICE`] (an empty field gives no dice).
    fn dice(&self, column: Column, roll: bool) -> Result<Keep, Problem> {
        let field = self.get(column);
        let what = || match roll {
            true => "one to six dice 1-6 (like 35561)",
            false => "up to six dice 1-6 (like 355), or nothing",
        };
        let mut faces = [0u8; MAX_DICE];
        let mut len = 0;
        let mut after_space = false;
        for (at, &byte) in field.iter().enumerate() {
            if byte == b' ' && !after_space && len > 0 {
                after_space = true;
                continue;
            }
            after_space = false;
            if !(b'1'..=b'6').contains(&byte) {
                let at_column = self
                    .column(column)
                    .saturating_add(u32::try_from(at).unwrap_or(0));
                let rest = field.get(at..).unwrap_or_default();
                let expected = if byte.is_ascii_digit() {
                    "a die 1-6"
                } else {
                    what()
                };
                return Err(self.problem_at(at_column, expected, rest));
            }
            let Some(slot) = faces.get_mut(len) else {
                return Err(self.problem(column, what(), field));
            };
            *slot = byte - b'0';
            len += 1;
        }
        if after_space || (roll && len == 0) {
            return Err(self.problem(column, what(), field));
        }
        Keep::new(faces.get(..len).unwrap_or_default())
            .ok_or_else(|| self.problem(column, what(), field))
    }

    /// The one to six dice of a roll field.
    fn roll(&self, column: Column) -> Result<Roll, Problem> {
        // The common case in one go: five digits.
        if let Ok(digits) = <[u8; 5]>::try_from(self.get(column)) {
            if digits.iter().all(|digit| (b'1'..=b'6').contains(digit)) {
                return Ok(Roll::from(digits.map(|digit| digit - b'0')));
            }
        }
        let dice = self.dice(column, true)?;
        Roll::new(dice.faces()).ok_or_else(|| {
            self.problem(column, "one to six dice 1-6 (like 35561)", self.get(column))
        })
    }

    /// A box code field.
    fn category(&self, column: Column) -> Result<BoxCode, Problem> {
        let field = self.get(column);
        BoxCode::from_bytes(field).ok_or_else(|| {
            let expected = "a box code: 1-6, 1P, 2P, 3P, 3K, 4K, 5K, FH, VI, TO, SS, LS, FS, C \
                            or Y, or a Jamb cell such as D:1, F:MAX or A:J";
            self.problem(column, expected, field)
        })
    }

    /// The `announce` field: the cell announced after the turn's first roll, if given.
    fn announced(&self) -> Result<Option<BoxCode>, Problem> {
        let field = self.get(Column::Announce);
        if field.is_empty() {
            return Ok(None);
        }
        BoxCode::from_bytes(field).map(Some).ok_or_else(|| {
            let expected = "the announced cell, a box code such as A:P, or nothing";
            self.problem(Column::Announce, expected, field)
        })
    }

    /// Adds to `turn` (which has its three rolls) the keeps and rolls of the `more` field:
    /// `k` and the dice kept (or `k-`), then the roll, pair after pair, separated by blanks.
    fn more_rolls(&self, turn: &mut TurnRecord) -> Result<(), Problem> {
        let field = self.get(Column::More);
        let start = self.column(Column::More);
        let at = |offset: usize| start.saturating_add(u32::try_from(offset).unwrap_or(u32::MAX));
        let mut tokens = tokens(field);
        while let Some((offset, keep)) = tokens.next() {
            let rest = field.get(offset..).unwrap_or_default();
            let kept = match keep {
                b"k-" => Some(Keep::default()),
                [b'k', dice @ ..] if !dice.is_empty() => dice_of(dice).and_then(|d| Keep::new(&d)),
                _ => None,
            };
            let Some(kept) = kept else {
                let expected = "a keep: `k` and up to six dice 1-6, or `k-`";
                return Err(self.problem_at(at(offset), expected, rest));
            };
            let Some((offset, roll)) = tokens.next() else {
                let expected = "a roll after the keep (one to six dice 1-6)";
                return Err(self.problem_at(at(field.len()), expected, b""));
            };
            let rest = field.get(offset..).unwrap_or_default();
            let Some(roll) = dice_of(roll).and_then(|d| Roll::new(&d)) else {
                return Err(self.problem_at(at(offset), "a roll: one to six dice 1-6", rest));
            };
            if turn.push_roll(kept, roll).is_err() {
                let expected = format!("at most {MAX_ROLLS_PER_TURN} rolls in a turn");
                return Err(self.problem_at(at(offset), expected, rest));
            }
        }
        Ok(())
    }

    /// The date field as `YYYY.MM.DD` (written `YYYY-MM-DD` or `YYYY.MM.DD`), if given.
    fn date(&self) -> Result<Option<String>, Problem> {
        let field = self.get(Column::Date);
        if field.is_empty() {
            return Ok(None);
        }
        let fits = field.len() == 10
            && field.iter().enumerate().all(|(at, &b)| match at {
                4 | 7 => b == b'-' || b == b'.',
                _ => b.is_ascii_digit(),
            })
            && field.get(4) == field.get(7);
        if !fits {
            return Err(self.problem(Column::Date, "a date YYYY-MM-DD", field));
        }
        let date: String = field
            .iter()
            .map(|&b| if b == b'-' { '.' } else { char::from(b) })
            .collect();
        Ok(Some(date))
    }

    /// The time field `HH:MM:SS`, if given.
    fn time(&self) -> Result<Option<String>, Problem> {
        let field = self.get(Column::Time);
        if field.is_empty() {
            return Ok(None);
        }
        let fits = field.len() == 8
            && field.iter().enumerate().all(|(at, &b)| match at {
                2 | 5 => b == b':',
                _ => b.is_ascii_digit(),
            });
        match std::str::from_utf8(field) {
            Ok(time) if fits => Ok(Some(time.to_string())),
            _ => Err(self.problem(Column::Time, "a time HH:MM:SS", field)),
        }
    }

    /// The termination field, if given.
    fn termination(&self) -> Result<Option<Termination>, Problem> {
        let field = self.get(Column::Termination);
        if field.is_empty() {
            return Ok(None);
        }
        std::str::from_utf8(field)
            .ok()
            .and_then(|text| Termination::parse(&text.to_ascii_lowercase()))
            .map(Some)
            .ok_or_else(|| {
                let expected = "a termination: normal, abandoned, timeout or resigned";
                self.problem(Column::Termination, expected, field)
            })
    }
}

/// The problem of a record with another number of fields than the header: at the first field
/// too many, just after the end of a short record, or at the start of a quoted field that runs
/// over several lines (a quote not closed: it takes in the lines after it).
fn field_count_problem(record: &Record, fields: usize) -> Problem {
    let expected = format!("{fields} fields, as the header has");
    let runaway = record
        .fields()
        .enumerate()
        .find(|(_, field)| field.contains(&b'\n'));
    let (column, found) = match runaway {
        Some((index, field)) => {
            let lines = memchr::memchr_iter(b'\n', field).count() + 1;
            let found = format!(
                "{} fields (a quoted field runs over {lines} lines)",
                record.len
            );
            (record.column(index), found)
        }
        None if record.len < fields => (
            record.column(record.len).saturating_sub(1),
            format!("{} fields", record.len),
        ),
        None => (record.column(fields), format!("{} fields", record.len)),
    };
    Problem {
        line: record.line,
        column,
        expected,
        found,
    }
}

/// The problem of a record cut at a quote never closed ([`Reader::cut_unclosed_quote`]).
fn unclosed_problem(record: &Record) -> Problem {
    let last = record.len.saturating_sub(1);
    Problem {
        line: record.line,
        column: record.column(last),
        expected: "a quote closed in its line".to_string(),
        found: format!(
            "a quote never closed (field {}; the row is cut before the next line that reads \
             as a row of the table)",
            last + 1
        ),
    }
}

/// Checks one row of `group` and adds it.
fn add_row(group: &mut Group, record: &Record, layout: &Layout) -> Result<(), Problem> {
    let fields = Fields { record, layout };
    if record.unclosed {
        return Err(unclosed_problem(record));
    }
    if record.len != layout.fields {
        return Err(field_count_problem(record, layout.fields));
    }
    let [rules, date, time, termination] = &mut group.agreed;
    agree(&fields, Column::Rules, rules, |f| {
        f.text(Column::Rules, "a rule set name")
            .map(|t| Some(t.to_string()))
    })?;
    agree(&fields, Column::Date, date, |f| f.date())?;
    agree(&fields, Column::Time, time, |f| f.time())?;
    agree(&fields, Column::Termination, termination, |f| {
        Ok(f.termination()?.map(|t| t.as_str().to_string()))
    })?;
    let player_raw = fields.get(Column::Player);
    let known = |name: &Option<String>| name.as_deref().map(str::as_bytes) == Some(player_raw);
    let seat = match layout.get(Column::Seat) {
        Some(_) => {
            let seat = fields.number(Column::Seat, "a seat number 0-255", 255)?;
            let seat =
                seat.ok_or_else(|| fields.problem(Column::Seat, "a seat number 0-255", b""))?;
            let seat = usize::try_from(seat).unwrap_or(0);
            if group.names.len() <= seat {
                group.names.resize(seat + 1, None);
                group.name_lines.resize(seat + 1, 0);
            }
            match group.names.get(seat) {
                Some(name) if known(name) => {}
                Some(Some(name)) => {
                    let player = fields.text(Column::Player, "a player name")?;
                    let line = group.name_lines.get(seat).copied().unwrap_or(0);
                    let expected = format!("player {name} (seat {seat} on line {line})");
                    return Err(fields.problem(Column::Player, expected, player.as_bytes()));
                }
                _ => {
                    let player = fields.text(Column::Player, "a player name")?;
                    if let (Some(slot), Some(line)) =
                        (group.names.get_mut(seat), group.name_lines.get_mut(seat))
                    {
                        *slot = Some(player.to_string());
                        *line = record.line;
                    }
                }
            }
            seat
        }
        None => match group.names.iter().position(known) {
            Some(index) => index,
            None if group.names.len() >= MAX_PLAYERS => {
                let expected = format!("at most {MAX_PLAYERS} players in a game");
                return Err(fields.problem(Column::Player, expected, player_raw));
            }
            None => {
                let player = fields.text(Column::Player, "a player name")?;
                group.names.push(Some(player.to_string()));
                group.name_lines.push(record.line);
                group.names.len() - 1
            }
        },
    };
    let round = fields
        .number(Column::Round, "a round number 1-65535", 65535)?
        .filter(|&round| round > 0)
        .ok_or_else(|| {
            fields.problem(
                Column::Round,
                "a round number 1-65535",
                fields.get(Column::Round),
            )
        })?;
    let mut turn = TurnRecord {
        round: u16::try_from(round).unwrap_or(0),
        seat: u8::try_from(seat).unwrap_or(u8::MAX),
        line: record.line,
        ..TurnRecord::default()
    };
    let box_field = fields.get(Column::Box);
    let scores = !box_field.is_empty();
    if scores || !layout.per_roll {
        turn.category = fields.category(Column::Box)?;
    }
    if let Some(points) = fields.number(Column::Points, "points 0-65535 (or nothing)", 65535)? {
        if !scores {
            let expected = "no points (they go on the row that names the box)";
            return Err(fields.problem(Column::Points, expected, fields.get(Column::Points)));
        }
        turn.points = u16::try_from(points).ok();
    }
    let key_column;
    let (mut roll_number, mut dice, mut kept) = (0, Roll::default(), Keep::default());
    if layout.per_roll {
        key_column = fields.column(Column::Roll);
        let roll = fields
            .number(Column::Roll, ROLL_NUMBER, MAX_ROLLS_PER_TURN as u32)?
            .filter(|&roll| roll > 0)
            .ok_or_else(|| fields.problem(Column::Roll, ROLL_NUMBER, fields.get(Column::Roll)))?;
        roll_number = u8::try_from(roll).unwrap_or(0);
        dice = fields.roll(Column::Dice)?;
        kept = fields.dice(Column::Keep, false)?;
        if scores && !fields.get(Column::Keep).is_empty() {
            let expected = "no keep on the row that scores the turn (no roll follows it)";
            return Err(fields.problem(Column::Keep, expected, fields.get(Column::Keep)));
        }
    } else {
        key_column = fields.column(Column::Round);
        read_turn_dice(&fields, &mut turn)?;
        if !fields.get(Column::More).is_empty() {
            if turn.rolls().len() < 3 {
                let expected = "no more rolls (there is no roll3)";
                return Err(fields.problem(Column::More, expected, fields.get(Column::More)));
            }
            fields.more_rolls(&mut turn)?;
        }
    }
    turn.announced = fields.announced()?;
    if turn.announced.is_some() && layout.per_roll && roll_number != 1 {
        let expected = "no announcement (it goes on the row of roll 1)";
        return Err(fields.problem(Column::Announce, expected, fields.get(Column::Announce)));
    }
    group.rows.push(Row {
        turn,
        roll_number,
        dice,
        kept,
        scores,
        key_column,
        box_column: fields.column(Column::Box),
        seat_column: fields.column(Column::Seat),
    });
    Ok(())
}

/// A value every row of a game must agree on (when it gives one): the field as first written,
/// its value and the line that gave it.
#[derive(Default)]
struct Agreed {
    raw: Vec<u8>,
    value: Option<String>,
    line: LineNumber,
}

/// Checks that the row's field of `column` (read by `parse`, `None` when not given) agrees with
/// what an earlier row of the game gave, or records it. A field written as the first one was is
/// not read again.
fn agree(
    fields: &Fields<'_>,
    column: Column,
    slot: &mut Agreed,
    parse: impl for<'f> Fn(&'f Fields<'_>) -> Result<Option<String>, Problem>,
) -> Result<(), Problem> {
    let raw = fields.get(column);
    if slot.value.is_some() && slot.raw == raw {
        return Ok(());
    }
    let Some(value) = parse(fields)? else {
        return Ok(());
    };
    match &slot.value {
        Some(given) if *given == value => Ok(()),
        Some(given) => {
            let expected = format!("{} {given} (as on line {})", column.name(), slot.line);
            Err(fields.problem(column, expected, raw))
        }
        None => {
            slot.raw.clear();
            slot.raw.extend_from_slice(raw);
            slot.value = Some(value);
            slot.line = fields.record.line;
            Ok(())
        }
    }
}

/// Reads the rolls and keeps of a per-turn row: `roll1`, then `keep1` and `roll2`, then `keep2`
/// and `roll3`; a keep is followed by a roll.
fn read_turn_dice(fields: &Fields<'_>, turn: &mut TurnRecord) -> Result<(), Problem> {
    let rolls = [Column::Roll1, Column::Roll2, Column::Roll3];
    let keeps = [Column::Keep1, Column::Keep2];
    turn.set_first_roll(fields.roll(Column::Roll1)?);
    for n in 1..3 {
        let (Some(&keep_column), Some(&roll_column)) = (keeps.get(n - 1), rolls.get(n)) else {
            break;
        };
        let keep = fields.dice(keep_column, false)?;
        if fields.get(roll_column).is_empty() {
            if !fields.get(keep_column).is_empty() {
                let expected = format!("{} (a keep is followed by a roll)", roll_column.name());
                return Err(fields.problem(roll_column, expected, b""));
            }
            // Nothing may follow a roll that is not made.
            for later in rolls.iter().skip(n + 1).chain(keeps.iter().skip(n)) {
                if !fields.get(*later).is_empty() {
                    let expected =
                        format!("no {} (there is no {})", later.name(), roll_column.name());
                    return Err(fields.problem(*later, expected, fields.get(*later)));
                }
            }
            break;
        }
        let roll = fields.roll(roll_column)?;
        if turn.push_roll(keep, roll).is_err() {
            let expected = format!("at most {MAX_ROLLS_PER_TURN} rolls");
            return Err(fields.problem(roll_column, expected, fields.get(roll_column)));
        }
    }
    Ok(())
}

/// The blank-separated tokens of `field`, each with its byte offset.
fn tokens(field: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let rest = field.get(at..)?;
        let start = at + rest.iter().position(|b| !b.is_ascii_whitespace())?;
        let token = field.get(start..).unwrap_or_default();
        let len = token
            .iter()
            .position(u8::is_ascii_whitespace)
            .unwrap_or(token.len());
        at = start + len;
        Some((start, token.get(..len).unwrap_or_default()))
    })
}

/// The faces of a run of digits 1-6, if it is one (at most [`MAX_DICE`]).
fn dice_of(digits: &[u8]) -> Option<Vec<u8>> {
    let fits = digits.len() <= MAX_DICE && digits.iter().all(|d| (b'1'..=b'6').contains(d));
    fits.then(|| digits.iter().map(|d| d - b'0').collect())
}

/// Puts a game's rows in order, checks what needs all of them, and fills `out`.
fn finish_game(
    mut group: Group,
    file: &str,
    layout: &Layout,
    out: &mut GameRecord,
) -> Result<(), ParseError> {
    let id = group.id.clone();
    let game_line = group.first_line;
    let error = |problem: Problem| problem.in_game(file, Some(&id), game_line);
    let seats = seat_order(&group, layout.get(Column::Seat).is_some());
    for row in &mut group.rows {
        if let Some(&seat) = seats.get(usize::from(row.turn.seat)) {
            row.turn.seat = seat;
        }
    }
    let per_roll = layout.per_roll;
    // A stable sort keeps rows of equal keys in file order.
    group.rows.sort_by_key(|row| row_key(row, per_roll));
    let duplicate = duplicate_row(&group.rows, per_roll).map(error);
    let earliest = match (group.error.take(), duplicate) {
        (Some(a), Some(b)) if (b.line, b.column) < (a.line, a.column) => Some(b),
        (a, b) => a.or(b),
    };
    if let Some(earliest) = earliest {
        return Err(earliest);
    }
    let mut players = vec![String::new(); group.names.len()];
    for (index, name) in group.names.iter_mut().enumerate() {
        let seat = seats.get(index).copied().map_or(index, usize::from);
        match (name.take(), players.get_mut(seat)) {
            (Some(name), Some(slot)) => *slot = name,
            _ => {
                let next = group
                    .rows
                    .iter()
                    .find(|row| usize::from(row.turn.seat) > seat)
                    .map_or((game_line, 1), |row| (row.turn.line, row.seat_column));
                return Err(error(Problem {
                    line: next.0,
                    column: next.1,
                    expected: format!("a row of seat {seat} before seat {}", seat + 1),
                    found: format!("no row of seat {seat} (seats are numbered from 0)"),
                }));
            }
        }
    }
    if per_roll {
        join_rolls(&group.rows, &mut out.turns).map_err(error)?;
    } else {
        out.turns.extend(group.rows.into_iter().map(|row| row.turn));
    }
    out.players = players;
    let [rules, date, time, termination] = group.agreed;
    out.rules = rules.value.unwrap_or_default();
    out.provenance.file.push_str(file);
    out.provenance.line = game_line;
    out.provenance.game_id = id;
    out.provenance.date = date.value;
    out.provenance.time = time.value;
    out.termination = termination
        .value
        .as_deref()
        .and_then(Termination::parse)
        .unwrap_or_default();
    Ok(())
}

/// What orders a game's rows: round, seat and (per-roll layout) roll.
fn row_key(row: &Row, per_roll: bool) -> (u16, u8, u8) {
    let roll = if per_roll { row.roll_number } else { 0 };
    (row.turn.round, row.turn.seat, roll)
}

/// The seat of each player of a group (by the index its rows hold): with a seat column, the
/// seat itself; without one, the players seated in the order they first appear in the game's
/// lowest round, then in the rounds after it.
fn seat_order(group: &Group, seated: bool) -> Vec<u8> {
    let count = group.names.len();
    if seated {
        return (0..count)
            .map(|seat| u8::try_from(seat).unwrap_or(u8::MAX))
            .collect();
    }
    let mut order: Vec<&Row> = group.rows.iter().collect();
    order.sort_by_key(|row| row.turn.round);
    let mut seats: Vec<Option<u8>> = vec![None; count];
    let mut next: u8 = 0;
    for row in order {
        if let Some(seat @ None) = seats.get_mut(usize::from(row.turn.seat)) {
            *seat = Some(next);
            next = next.saturating_add(1);
        }
    }
    seats
        .into_iter()
        .map(|seat| seat.unwrap_or(u8::MAX))
        .collect()
}

/// The problem of the first row (in file order) that repeats an earlier row's round and seat
/// (and roll) in rows sorted by [`row_key`].
fn duplicate_row(rows: &[Row], per_roll: bool) -> Option<Problem> {
    rows.windows(2)
        .filter_map(|pair| match pair {
            [first, again] if row_key(first, per_roll) == row_key(again, per_roll) => {
                Some((first, again))
            }
            _ => None,
        })
        .min_by_key(|(_, again)| again.turn.line)
        .map(|(first, again)| {
            let (turn, roll) = (&again.turn, again.roll_number);
            let (expected, what) = if per_roll {
                (
                    "one row per round, seat and roll",
                    format!("round {} seat {} roll {roll}", turn.round, turn.seat),
                )
            } else {
                (
                    "one row per round and seat",
                    format!("round {} seat {}", turn.round, turn.seat),
                )
            };
            Problem {
                line: turn.line,
                column: again.key_column,
                expected: expected.to_string(),
                found: format!("{what} given twice (first at line {})", first.turn.line),
            }
        })
}

/// Joins the roll rows of each turn (sorted by [`row_key`]) into turns: rolls numbered from 1,
/// the last one naming the box, the ones before it not.
fn join_rolls(rows: &[Row], turns: &mut Vec<TurnRecord>) -> Result<(), Problem> {
    let same_turn = |a: &Row, b: &Row| (a.turn.round, a.turn.seat) == (b.turn.round, b.turn.seat);
    for rolls in rows.chunk_by(|a, b| same_turn(a, b)) {
        let Some(last) = rolls.last() else {
            continue;
        };
        let mut turn = TurnRecord {
            round: last.turn.round,
            seat: last.turn.seat,
            category: last.turn.category,
            points: last.turn.points,
            announced: rolls.first().and_then(|row| row.turn.announced),
            line: rolls.first().map_or(last.turn.line, |row| row.turn.line),
            ..TurnRecord::default()
        };
        for (at, row) in rolls.iter().enumerate() {
            let number = u8::try_from(at + 1).unwrap_or(u8::MAX);
            let where_ = || format!("round {} seat {}", turn.round, turn.seat);
            if row.roll_number != number {
                return Err(Problem {
                    line: row.turn.line,
                    column: row.key_column,
                    expected: format!("roll {number} of {} (rolls count 1, 2, 3, ...)", where_()),
                    found: format!("roll {}", row.roll_number),
                });
            }
            let is_last = at + 1 == rolls.len();
            if row.scores != is_last {
                let (expected, found) = if is_last {
                    (
                        "a box on the turn's last roll",
                        "an empty field".to_string(),
                    )
                } else {
                    (
                        "no box before the turn's last roll",
                        format!("{} (roll {} follows)", row.turn.category, number + 1),
                    )
                };
                return Err(Problem {
                    line: row.turn.line,
                    column: row.box_column,
                    expected: expected.to_string(),
                    found,
                });
            }
            let kept_before = at
                .checked_sub(1)
                .and_then(|before| rolls.get(before))
                .map_or_else(Keep::default, |before| before.kept);
            if turn.push_roll(kept_before, row.dice).is_err() {
                return Err(Problem {
                    line: row.turn.line,
                    column: row.key_column,
                    expected: format!("at most {MAX_ROLLS_PER_TURN} rolls in a turn"),
                    found: format!("roll {number}"),
                });
            }
        }
        turns.push(turn);
    }
    Ok(())
}

/// Writes the header line: the documented default column names ([`WRITTEN_HEADER`]).
pub fn write_header(out: &mut dyn io::Write) -> io::Result<()> {
    out.write_all(WRITTEN_HEADER.as_bytes())?;
    out.write_all(b"\n")
}

/// Writes one game's rows under [`write_header`]'s header: one row per turn in the record's
/// order, dice as digits in the recorded order, the date as `YYYY-MM-DD`, the termination on
/// every row; fields quoted where needed. A record the table cannot hold gets an error of kind
/// [`io::ErrorKind::InvalidInput`] and nothing is written: no game id, rules or players, text
/// with white space around it (the reader trims fields), no turns, a seat without a player or
/// without a turn, a turn of other than 1 to 64 rolls, round 0, a die outside 1-6, a round and
/// seat given twice, a date not `YYYY.MM.DD` or a time not `HH:MM:SS`. `total_before`, the
/// result and tags are not written.
pub fn write_game(game: &GameRecord, out: &mut dyn io::Write) -> io::Result<()> {
    let id = game.provenance.game_id.as_str();
    let invalid = |message: String| {
        io::Error::new(io::ErrorKind::InvalidInput, format!("game {id}: {message}"))
    };
    check_writable(game).map_err(invalid)?;
    let date = game
        .provenance
        .date
        .as_deref()
        .map(|date| date.replace('.', "-"))
        .unwrap_or_default();
    let time = game.provenance.time.as_deref().unwrap_or_default();
    let termination = game.termination.as_str();
    let mut writer = ::csv::WriterBuilder::new()
        .has_headers(false)
        .terminator(::csv::Terminator::Any(b'\n'))
        .from_writer(Vec::with_capacity(64 * game.turns.len()));
    let mut numbers = itoa_buffers();
    for turn in &game.turns {
        let player = game
            .players
            .get(usize::from(turn.seat))
            .map_or("", String::as_str);
        let dice = DiceText::of(turn);
        let more = more_text(turn);
        let [seat, round, points] = &mut numbers;
        let fields: [&[u8]; 17] = [
            id.as_bytes(),
            date.as_bytes(),
            time.as_bytes(),
            game.rules.as_bytes(),
            format_number(seat, u32::from(turn.seat)),
            player.as_bytes(),
            format_number(round, u32::from(turn.round)),
            dice.roll(0),
            dice.keep(0),
            dice.roll(1),
            dice.keep(1),
            dice.roll(2),
            turn.category.as_str().as_bytes(),
            match turn.points {
                Some(value) => format_number(points, u32::from(value)),
                None => b"",
            },
            termination.as_bytes(),
            turn.announced
                .as_ref()
                .map_or(&b""[..], |cell| cell.as_str().as_bytes()),
            more.as_bytes(),
        ];
        writer.write_record(fields).map_err(io::Error::other)?;
    }
    let text = writer
        .into_inner()
        .map_err(|e| io::Error::other(e.to_string()))?;
    out.write_all(&text)
}

/// Three small buffers for numbers written as text.
fn itoa_buffers() -> [[u8; 10]; 3] {
    [[0; 10]; 3]
}

/// `value` in decimal, in `buffer`.
fn format_number(buffer: &mut [u8; 10], value: u32) -> &[u8] {
    let mut at = buffer.len();
    let mut rest = value;
    loop {
        at -= 1;
        if let Some(slot) = buffer.get_mut(at) {
            *slot = b'0' + (rest % 10) as u8;
        }
        rest /= 10;
        if rest == 0 || at == 0 {
            break;
        }
    }
    buffer.get(at..).unwrap_or_default()
}

/// Dice as digits: the text and how many there are.
type Digits = ([u8; MAX_DICE], usize);

/// The dice of a turn as digit strings: its rolls made and the keeps between them.
struct DiceText {
    rolls: [Digits; 3],
    keeps: [Digits; 2],
    roll_count: usize,
}

impl DiceText {
    fn of(turn: &TurnRecord) -> DiceText {
        let digits = |faces: &[u8]| {
            let mut text = [0u8; MAX_DICE];
            for (slot, face) in text.iter_mut().zip(faces) {
                *slot = b'0' + face;
            }
            (text, faces.len().min(MAX_DICE))
        };
        let mut text = DiceText {
            rolls: [([0; MAX_DICE], 0); 3],
            keeps: [([0; MAX_DICE], 0); 2],
            roll_count: turn.rolls().len(),
        };
        for (slot, roll) in text.rolls.iter_mut().zip(turn.rolls()) {
            *slot = digits(roll.faces());
        }
        for (slot, keep) in text.keeps.iter_mut().zip(turn.keeps()) {
            *slot = digits(keep.faces());
        }
        text
    }

    /// Roll `n` (0-based), empty when not made.
    fn roll(&self, n: usize) -> &[u8] {
        match self.rolls.get(n) {
            Some((roll, len)) if n < self.roll_count => roll.get(..*len).unwrap_or_default(),
            _ => b"",
        }
    }

    /// The keep after roll `n` (0-based), empty when no roll follows.
    fn keep(&self, n: usize) -> &[u8] {
        match self.keeps.get(n) {
            Some((keep, len)) if n + 1 < self.roll_count => keep.get(..*len).unwrap_or_default(),
            _ => b"",
        }
    }
}

/// The `more` field of a turn: the keeps and rolls after its third roll (`k` and the dice kept,
/// or `k-`, then the roll), separated by spaces; empty for a turn of at most three rolls.
fn more_text(turn: &TurnRecord) -> String {
    let mut text = String::new();
    let later = turn.keeps().iter().zip(turn.rolls().iter().skip(1)).skip(2);
    for (kept, roll) in later {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push('k');
        if kept.faces().is_empty() {
            text.push('-');
        }
        text.extend(kept.faces().iter().map(|face| char::from(b'0' + face)));
        text.push(' ');
        text.extend(roll.faces().iter().map(|face| char::from(b'0' + face)));
    }
    text
}

/// Why a record cannot be written as table rows, if it cannot.
fn check_writable(game: &GameRecord) -> Result<(), String> {
    // As the reader trims fields: ASCII white space (not a vertical tab, say).
    let trimmed = |text: &str| !text.is_empty() && text.as_bytes().trim_ascii() == text.as_bytes();
    if !trimmed(&game.provenance.game_id) || !trimmed(&game.rules) {
        return Err("a CSV table needs a game id and rules, without white space around".into());
    }
    if game.players.is_empty() || !game.players.iter().all(|name| trimmed(name)) {
        return Err("a CSV table needs players with names without white space around".into());
    }
    if game.players.len() > MAX_PLAYERS {
        return Err(format!("more than {MAX_PLAYERS} players"));
    }
    if game.turns.is_empty() {
        return Err("a game without turns has no rows".into());
    }
    let date_fits = |date: &str| {
        date.len() == 10
            && date.bytes().enumerate().all(|(at, b)| match at {
                4 | 7 => b == b'.',
                _ => b.is_ascii_digit(),
            })
    };
    if let Some(date) = game.provenance.date.as_deref().filter(|d| !date_fits(d)) {
        return Err(format!("date {date} is not YYYY.MM.DD"));
    }
    let time_fits = |time: &str| {
        time.len() == 8
            && time.bytes().enumerate().all(|(at, b)| match at {
                2 | 5 => b == b':',
                _ => b.is_ascii_digit(),
            })
    };
    if let Some(time) = game.provenance.time.as_deref().filter(|t| !time_fits(t)) {
        return Err(format!("time {time} is not HH:MM:SS"));
    }
    let mut seen: Vec<(u16, u8)> = Vec::with_capacity(game.turns.len());
    for turn in &game.turns {
        let at = format!("round {} seat {}", turn.round, turn.seat);
        if usize::from(turn.seat) >= game.players.len() {
            return Err(format!("{at}: the seat has no player"));
        }
        if turn.round == 0 || !(1..=MAX_ROLLS_PER_TURN).contains(&turn.rolls().len()) {
            return Err(format!(
                "{at}: round 0, or not 1 to {MAX_ROLLS_PER_TURN} rolls"
            ));
        }
        if turn.rolls().iter().any(Roll::is_empty) {
            return Err(format!("{at}: a roll without dice"));
        }
        let faces_fit = turn
            .rolls()
            .iter()
            .flat_map(Roll::faces)
            .all(|face| (1..=6).contains(face))
            && turn
                .keeps()
                .iter()
                .flat_map(Keep::faces)
                .all(|face| (1..=6).contains(face));
        if !faces_fit {
            return Err(format!("{at}: a die outside 1-6"));
        }
        seen.push((turn.round, turn.seat));
    }
    seen.sort_unstable();
    if let Some(pair) = seen.windows(2).find(|pair| pair.first() == pair.get(1)) {
        let (round, seat) = pair.first().copied().unwrap_or_default();
        return Err(format!("round {round} seat {seat} given twice"));
    }
    let seated = |seat: usize| seen.iter().any(|&(_, s)| usize::from(s) == seat);
    if let Some(seat) = (0..game.players.len()).find(|&seat| !seated(seat)) {
        return Err(format!(
            "seat {seat} has no turn (a table has no row for it)"
        ));
    }
    Ok(())
}

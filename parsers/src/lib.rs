//! Game-log formats of dicelens and the canonical game record they produce.
//!
//! Only this crate knows text formats. Every reader turns its input into [`GameRecord`]s, one
//! game at a time, and every writer turns records back into text; everything downstream reads
//! only records. Formats: YGN (the native format, [`ygn`]), Verhoeff's records ([`verhoeff`])
//! and JSONL events ([`jsonl`]).
//!
//! Readers stream: they take the content (all of it, or a piece of a stream: see [`stream`]) and
//! read one game per call, so a corpus of any size is read in constant memory. A reader can also be opened
//! over a byte range of its content ([`Format::range_reader`]), as a Hadoop input split is read:
//! it reads the games that begin in the range, finding the first one by the same rule the
//! sequential reader uses to tell where one game ends and the next begins, so adjacent ranges
//! read every game of the content exactly once, each exactly as a read of the whole content
//! gives it (same records, same errors, same line numbers).
//!
//! # Reading games
//!
//! [`Format::games`] (or [`GameReader::games`] on any reader) gives the games of a content as
//! an iterator: each item is a game, or the syntax error that stood in for one, after which
//! reading goes on at the next game. [`read_games`] recognises the format first.
//!
//! ```
//! use dicelens_parsers::{Format, GameReader, GameRecord, ParseError};
//!
//! let log = "\
//! % two games; the second has a 7 on a die
//! [Game \"demo-1\"]
//! [Rules \"yahtzee\"]
//! [Players \"ann, bob\"]
//!
//! 1. ann: 13456 k3456 23456 LS=40
//! 1. bob: 52216 k22 22234 k222 26222 3K=14
//!
//! [Game \"demo-2\"]
//! [Rules \"yahtzee\"]
//! [Players \"ann\"]
//!
//! 1. ann: 12745 C
//! ";
//! let mut games = Format::Ygn.games(log.as_bytes(), "demo.ygn");
//!
//! let game = games.next().expect("a first game")?;
//! assert_eq!(game.provenance.game_id, "demo-1");
//! assert_eq!(game.players, ["ann", "bob"]);
//! let turn = &game.turns[1];
//! assert_eq!((turn.round, turn.seat, turn.rolls().len()), (1, 1, 3));
//! assert_eq!((turn.category.as_str(), turn.points), ("3K", Some(14)));
//!
//! let error = games.next().expect("a second game").unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     "demo.ygn:13:11: game demo-2: expected a die 1-6, found 745 C"
//! );
//! assert!(games.next().is_none());
//!
//! // The same games, the format recognised from the content.
//! let ids: Vec<String> = dicelens_parsers::read_games(log.as_bytes(), "demo.ygn")
//!     .expect("a known format")
//!     .map(|game| game.map_or_else(|e| e.to_string(), |g| g.provenance.game_id))
//!     .collect();
//! assert_eq!(ids.len(), 2);
//!
//! // Without the iterator, one record is refilled game after game (fewer allocations).
//! let mut reader = Format::Ygn.reader(log.as_bytes(), "demo.ygn");
//! let mut record = GameRecord::default();
//! let mut turns = 0;
//! while let Some(outcome) = reader.read_game(&mut record) {
//!     if outcome.is_ok() {
//!         turns += record.turns.len();
//!     }
//! }
//! assert_eq!(turns, 2);
//! # Ok::<(), ParseError>(())
//! ```

// Every public item says what it is: a build fails on one without a doc comment.
#![deny(missing_docs)]
pub mod csv;
mod cursor;
pub mod error;
pub mod jsonl;
pub mod record;
pub mod stream;
pub mod verhoeff;
pub mod yatzy_solver;
pub mod ygn;

pub use error::{LineNumber, ParseError};
pub use record::{
    BoxCode, GameRecord, Keep, Provenance, Roll, Termination, TooManyRolls, TurnRecord, MAX_DICE,
    MAX_PLAYERS, MAX_ROLLS_PER_TURN,
};

use cursor::Cursor;
use std::fmt;
use std::io;
use std::ops::Range;
use std::path::Path;
use std::str::FromStr;

/// How readers are set up beyond the format: what the formats that need settings are given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// How CSV turn tables name their columns, and how far apart a game's rows may be.
    pub csv: csv::CsvOptions,
}

/// The player's name for formats that name none (Verhoeff's records, yatzy-solver logs): the
/// file's stem, after any `.gz` or `.zst` ending (`logs/ala004.jsonl.gz` plays as `ala004`);
/// `player` if it has none.
pub(crate) fn player_from_file(file: &str) -> String {
    let path = Path::new(file);
    let path = match path.extension().and_then(|e| e.to_str()) {
        Some("gz" | "zst") => path.file_stem().map(Path::new).unwrap_or(path),
        _ => path,
    };
    path.file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .filter(|stem| !stem.is_empty())
        .unwrap_or_else(|| "player".to_string())
}

/// A source of games: reads the next game of its input into a record.
pub trait GameReader {
    /// Reads the next game into `out` (cleared first). `None` at the end of the input (or, for
    /// a reader over a range, once the next game begins at or after the range's end). After a
    /// syntax error, the reader skips to the start of the next game, so the caller can go on.
    fn read_game(&mut self, out: &mut GameRecord) -> Option<Result<(), ParseError>>;

    /// Bytes of the input the reader is done with: later games are read from this offset on
    /// (so a caller may release the memory before it).
    fn consumed(&self) -> usize;

    /// Where the game (or syntax error) that the last [`GameReader::read_game`] returned
    /// begins: the byte offset, from the start of the content, of its first line (the line
    /// the format's rule says starts a game; blank lines and comments before it are not part
    /// of it). Offsets grow from game to game; a reader over a range returns exactly the games
    /// whose offset lies in the range. 0 before the first game.
    fn game_offset(&self) -> usize;

    /// The games of this reader as an iterator: [`GameReader::read_game`] into a new record
    /// per item.
    fn games(self) -> Games<Self>
    where
        Self: Sized,
    {
        Games { reader: self }
    }
}

/// A boxed reader (such as [`Format::reader`] gives) reads as the reader in it.
impl<R: GameReader + ?Sized> GameReader for Box<R> {
    fn read_game(&mut self, out: &mut GameRecord) -> Option<Result<(), ParseError>> {
        (**self).read_game(out)
    }

    fn consumed(&self) -> usize {
        (**self).consumed()
    }

    fn game_offset(&self) -> usize {
        (**self).game_offset()
    }
}

/// The games of a reader as an iterator ([`GameReader::games`], [`Format::games`],
/// [`read_games`]): each item is a game, or a syntax error after which the reader goes on at
/// the next game, exactly as [`GameReader::read_game`] returns them.
#[derive(Debug)]
pub struct Games<R> {
    reader: R,
}

impl<R: GameReader> Games<R> {
    /// The reader: its [`GameReader::game_offset`] is where the last item begins.
    pub fn reader(&self) -> &R {
        &self.reader
    }

    /// The reader back, to go on reading with it.
    pub fn into_reader(self) -> R {
        self.reader
    }
}

impl<R: GameReader> Iterator for Games<R> {
    type Item = Result<GameRecord, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut game = GameRecord::default();
        let outcome = self.reader.read_game(&mut game)?;
        Some(outcome.map(|()| game))
    }
}

/// The games of `content` in the format [`Format::detect`] recognises, naming `file` in records
/// and errors; `None` when no format fits (as for content without any game line).
pub fn read_games<'a>(
    content: &'a [u8],
    file: &'a str,
) -> Option<Games<Box<dyn GameReader + Send + 'a>>> {
    Some(Format::detect(content)?.games(content, file))
}

/// Whether `text` is one JSON object (or the start of one, when `cut` says the input may have
/// ended inside it).
fn is_json_object(text: &[u8], cut: bool) -> bool {
    match serde_json::from_slice::<serde::de::IgnoredAny>(text) {
        Ok(_) => true,
        Err(e) => cut && e.is_eof(),
    }
}

/// The log formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// YGN (`docs/formats/ygn.md`).
    Ygn,
    /// Verhoeff's analysis table or YahtzeeTrainer input form.
    Verhoeff,
    /// One JSON event per line (`docs/formats/jsonl.md`).
    Jsonl,
    /// A table of turns (or rolls) as a site database exports it (`docs/formats/csv.md`).
    Csv,
    /// The game logs of the public solver precisit/yatzy-solver (`docs/formats/yatzy-solver.md`).
    YatzySolver,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 5] = [
        Format::Ygn,
        Format::Verhoeff,
        Format::Jsonl,
        Format::Csv,
        Format::YatzySolver,
    ];

    /// The formats a game can be written in (`convert --to`, `simulate --format`): every
    /// format but yatzy-solver's logs, which are read, not written.
    pub const WRITTEN: [Format; 4] = [Format::Ygn, Format::Verhoeff, Format::Jsonl, Format::Csv];

    /// Whether games can be written in this format ([`Format::WRITTEN`]).
    pub fn is_written(self) -> bool {
        Format::WRITTEN.contains(&self)
    }

    /// The names of `formats` as a sentence lists them: `ygn, jsonl or csv`.
    pub fn list(formats: &[Format]) -> String {
        let names: Vec<&str> = formats.iter().map(|f| f.name()).collect();
        match names.split_last() {
            None => String::new(),
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        }
    }

    /// Reads the name of a format games are written in (`convert --to`, `simulate
    /// --format`): an error that says why for `auto` (which only applies to input), for a
    /// format that is read and not written, and for an unknown name, listing the formats
    /// that are written.
    pub fn parse_written(name: &str) -> Result<Format, String> {
        let written = Format::list(&Format::WRITTEN);
        if name == "auto" {
            return Err(format!(
                "auto only applies to input (the format of each file read is recognised); \
                 name the output format: {written}"
            ));
        }
        match Format::ALL.into_iter().find(|f| f.name() == name) {
            Some(format) if format.is_written() => Ok(format),
            Some(format) => Err(format!(
                "{format} logs are read, not written (expected {written})"
            )),
            None => Err(format!("unknown format '{name}' (expected {written})")),
        }
    }

    /// The name used by `--format`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Ygn => "ygn",
            Format::Verhoeff => "verhoeff",
            Format::Jsonl => "jsonl",
            Format::Csv => "csv",
            Format::YatzySolver => "yatzy-solver",
        }
    }

    /// Recognises the format from the first line of the content that one of the formats
    /// accepts as it stands, so a damaged line at the start (which the reader then reports)
    /// does not hide the games after it: a whole JSON object (a yatzy-solver log when it holds
    /// that solver's fields, else JSONL), a whole YGN tag line, a Verhoeff table header or
    /// state column; a CSV header only as the first line (it names the columns). Blank lines
    /// and `%` comments are passed over; the first [`Format::DETECT_LINES`] other lines are
    /// looked at whatever their length (a damaged first line longer than the window hides
    /// nothing), and after them those that begin in the first [`Format::DETECT_WINDOW`] bytes.
    /// `None` if nothing fits.
    pub fn detect(content: &[u8]) -> Option<Format> {
        let mut candidates = Format::candidates(content)
            .enumerate()
            .take_while(|(index, line)| {
                *index < Format::DETECT_LINES || line.start < Format::DETECT_WINDOW
            })
            .map(|(_, line)| (line.text.trim_ascii(), line.end >= content.len()));
        let (first, _) = candidates.next()?;
        if csv::looks_like(first) {
            return Some(Format::Csv);
        }
        std::iter::once((first, false))
            .chain(candidates)
            .find_map(|(text, last)| Format::of_line(text, last))
    }

    /// How many bytes from the start of the content [`Format::detect`] looks at lines in.
    pub const DETECT_WINDOW: usize = 64 * 1024;

    /// How many lines (not blank, not comments) [`Format::detect`] looks at whatever their
    /// length.
    pub const DETECT_LINES: usize = 8;

    /// The most bytes of a content's start that are read to recognise its format
    /// ([`Format::detect_needs_more`]).
    pub const DETECT_MAX: usize = 16 << 20;

    /// The lines of `content` that [`Format::detect`] may look at: not blank, not comments.
    fn candidates(content: &[u8]) -> impl Iterator<Item = cursor::SourceLine<'_>> {
        let mut lines = Cursor::new(content);
        std::iter::from_fn(move || lines.next_line()).filter(|line| {
            let text = line.text.trim_ascii();
            !text.is_empty() && !text.starts_with(b"%")
        })
    }

    /// Whether [`Format::detect`] may recognise more of a content than its first bytes `head`
    /// show (`whole`: `head` is all of it): it recognises nothing in them, they hold fewer than
    /// [`Format::DETECT_LINES`] whole lines it looks at, and fewer than
    /// [`Format::DETECT_MAX`] bytes. A reader of a stream's head reads on while this holds.
    pub fn detect_needs_more(head: &[u8], whole: bool) -> bool {
        !whole
            && head.len() < Format::DETECT_MAX
            && Format::detect(head).is_none()
            && Format::candidates(head)
                .filter(|line| line.end < head.len() || head.ends_with(b"\n"))
                .take(Format::DETECT_LINES)
                .count()
                < Format::DETECT_LINES
    }

    /// The format a line (trimmed, not blank) shows as it stands; `last`: the line is the last
    /// of the content, which may have cut it (a JSON object whose input ends early counts).
    fn of_line(text: &[u8], last: bool) -> Option<Format> {
        match text.first()? {
            b'{' if !is_json_object(text, last) => None,
            b'{' if yatzy_solver::looks_like(text) => Some(Format::YatzySolver),
            b'{' => Some(Format::Jsonl),
            b'[' => ygn::looks_like(text).then_some(Format::Ygn),
            _ => verhoeff::looks_like(text).then_some(Format::Verhoeff),
        }
    }

    /// A reader of this format over `content`, naming `file` in records and errors (with the
    /// default [`ReadOptions`]).
    pub fn reader<'a>(self, content: &'a [u8], file: &'a str) -> Box<dyn GameReader + Send + 'a> {
        self.reader_with(content, file, &ReadOptions::default())
    }

    /// A reader of this format over `content`, naming `file` in records and errors, set up as
    /// `options` say.
    pub fn reader_with<'a>(
        self,
        content: &'a [u8],
        file: &'a str,
        options: &ReadOptions,
    ) -> Box<dyn GameReader + Send + 'a> {
        self.range_reader_with(content, file, 0..usize::MAX, options)
    }

    /// The games of `content` in this format, naming `file` in records and errors: the
    /// [`Format::reader`] as an iterator.
    pub fn games<'a>(
        self,
        content: &'a [u8],
        file: &'a str,
    ) -> Games<Box<dyn GameReader + Send + 'a>> {
        self.reader(content, file).games()
    }

    /// A reader of the games of `content` that begin in `range` (byte offsets from the start
    /// of `content`; the end may lie past it), naming `file` in records and errors.
    ///
    /// The content is the whole file, not only the range: the reader counts the lines before
    /// the range (so line numbers are those of the file), looks at the few lines before it that
    /// the format's rule for where a game starts needs, finds the first game that begins at or
    /// after `range.start`, and reads games until the next one begins at or after `range.end`
    /// (reading past the end to finish the last game). Whatever the cut points, the readers of
    /// adjacent ranges `0..a`, `a..b`, `b..len` together return every game and syntax error of
    /// [`Format::reader`] over the whole content exactly once, each equal to it.
    ///
    /// A CSV table's rows of one game may lie anywhere in the file, so its reader over a range
    /// reads the whole table and returns the games whose first row lies in the range.
    pub fn range_reader<'a>(
        self,
        content: &'a [u8],
        file: &'a str,
        range: Range<usize>,
    ) -> Box<dyn GameReader + Send + 'a> {
        self.range_reader_with(content, file, range, &ReadOptions::default())
    }

    /// [`Format::range_reader`] set up as `options` say.
    pub fn range_reader_with<'a>(
        self,
        content: &'a [u8],
        file: &'a str,
        range: Range<usize>,
        options: &ReadOptions,
    ) -> Box<dyn GameReader + Send + 'a> {
        match self {
            Format::Ygn => Box::new(ygn::Reader::with_range(content, file, range)),
            Format::Verhoeff => Box::new(verhoeff::Reader::with_range(content, file, range)),
            Format::Jsonl => Box::new(jsonl::Reader::with_range(content, file, range)),
            Format::Csv => Box::new(csv::Reader::with_range(content, file, range, &options.csv)),
            Format::YatzySolver => Box::new(yatzy_solver::Reader::with_range(content, file, range)),
        }
    }

    /// Where the lines begin that a reader resuming at `lines` (see [`Format::resuming`])
    /// looks back at to know whether a line starts a game: a stream reader keeps them.
    pub(crate) fn context_start(self, lines: &Cursor<'_>) -> usize {
        match self {
            Format::Ygn => ygn::context_start(lines),
            Format::Verhoeff => verhoeff::context_start(lines),
            Format::Jsonl => jsonl::Reader::context_start(lines),
            Format::YatzySolver | Format::Csv => lines.offset(),
        }
    }

    /// A reader of the line formats resuming at the line `lines` stands at (the stream
    /// readers' way of reading a long input piece by piece); `None` for CSV, whose games are
    /// not made of adjacent lines.
    pub(crate) fn resuming<'a>(
        self,
        lines: Cursor<'a>,
        file: &'a str,
    ) -> Option<Box<dyn GameReader + Send + 'a>> {
        Some(match self {
            Format::Ygn => Box::new(ygn::Reader::resuming(lines, file)),
            Format::Verhoeff => Box::new(verhoeff::Reader::resuming(lines, file)),
            Format::Jsonl => Box::new(jsonl::Reader::resuming(lines, file)),
            Format::YatzySolver => Box::new(yatzy_solver::Reader::resuming(lines, file)),
            Format::Csv => return None,
        })
    }

    /// Writes what comes before the first game (CSV's header line; nothing for the others).
    pub fn write_start(self, out: &mut dyn io::Write) -> io::Result<()> {
        match self {
            Format::Csv => csv::write_header(out),
            Format::Ygn | Format::Verhoeff | Format::Jsonl | Format::YatzySolver => Ok(()),
        }
    }

    /// The one rule set that every record written in this format is read back as, when the
    /// format cannot state another: Verhoeff's input form states no rules, and is read as
    /// [`verhoeff::RULES`] (`yahtzee-free`). `None` for formats whose records name their rule
    /// set. A writer of another rule set's games skips them (`convert` counts them).
    pub fn only_rules(self) -> Option<&'static str> {
        match self {
            Format::Verhoeff => Some(verhoeff::RULES),
            Format::Ygn | Format::Jsonl | Format::Csv | Format::YatzySolver => None,
        }
    }

    /// Writes one game in this format (after [`Format::write_start`]). Verhoeff's format needs
    /// every turn's points and `total_before`, and one player. yatzy-solver logs are read, not
    /// written: writing one is an error of kind `Unsupported`.
    pub fn write_game(self, game: &GameRecord, out: &mut dyn io::Write) -> io::Result<()> {
        match self {
            Format::Ygn => ygn::write_game(game, out),
            Format::Verhoeff => verhoeff::write_game(game, out),
            Format::Jsonl => jsonl::write_game(game, out),
            Format::Csv => csv::write_game(game, out),
            Format::YatzySolver => Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "yatzy-solver logs are read, not written",
            )),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown format '{s}' (expected {})",
                    Format::list(&Format::ALL)
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An output format is one that is written: `auto` and yatzy-solver are refused with
    /// their reasons, an unknown name lists only the written formats.
    #[test]
    fn written_formats_are_parsed_with_reasons() {
        for format in Format::WRITTEN {
            assert_eq!(Format::parse_written(format.name()), Ok(format));
        }
        let auto = Format::parse_written("auto").unwrap_err();
        assert!(auto.contains("only applies to input"), "{auto}");
        let solver = Format::parse_written("yatzy-solver").unwrap_err();
        assert!(solver.contains("read, not written"), "{solver}");
        let unknown = Format::parse_written("pdf").unwrap_err();
        assert!(
            unknown.contains("(expected ygn, verhoeff, jsonl or csv)"),
            "{unknown}"
        );
        for error in [auto, solver] {
            assert!(
                error.ends_with("ygn, verhoeff, jsonl or csv)")
                    || error.ends_with("ygn, verhoeff, jsonl or csv"),
                "{error}"
            );
            assert!(
                !error.contains("yatzy-solver,") && !error.contains("or yatzy-solver"),
                "{error}"
            );
        }
        assert_eq!(Format::list(&[Format::Ygn]), "ygn");
        assert_eq!(Format::list(&[]), "");
    }

    /// Line numbers past `u32::MAX`: a reader that resumes (as a stream's does) at line
    /// 4,294,967,295 + 10 numbers games, turns and errors from there, so games far into a
    /// huge log keep distinct places and default ids.
    #[test]
    fn line_numbers_go_past_32_bits() {
        let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/");
        let cases = [
            (Format::Ygn, "ygn/valid.ygn"),
            (Format::Ygn, "ygn/bad_die.ygn"),
            (Format::Jsonl, "jsonl/two_games.jsonl"),
            (Format::Jsonl, "jsonl/invalid_json.jsonl"),
            (Format::Verhoeff, "verhoeff/table_game.txt"),
            (Format::YatzySolver, "yatzy-solver/american.jsonl"),
        ];
        let shift = LineNumber::from(u32::MAX) + 9;
        for (format, name) in cases {
            let content = std::fs::read(format!("{fixtures}{name}")).expect("fixture");
            let places = |games: Vec<Result<GameRecord, ParseError>>| -> Vec<_> {
                games
                    .into_iter()
                    .map(|game| match game {
                        Ok(g) => (g.provenance.line, g.turns.iter().map(|t| t.line).collect()),
                        Err(e) => (e.line, vec![e.game_line]),
                    })
                    .collect::<Vec<(LineNumber, Vec<LineNumber>)>>()
            };
            let whole = places(format.games(&content, name).collect());
            let resumed = format
                .resuming(Cursor::resume(&content, 0, shift + 1, true), name)
                .expect("a line format");
            let far = places(resumed.games().collect());
            assert!(!whole.is_empty(), "{name}");
            let moved: Vec<_> = whole
                .iter()
                .map(|(line, lines)| (line + shift, lines.iter().map(|l| l + shift).collect()))
                .collect();
            assert_eq!(far, moved, "{name}");
            assert!(far
                .iter()
                .all(|(line, _)| *line > LineNumber::from(u32::MAX)));
        }
    }
}

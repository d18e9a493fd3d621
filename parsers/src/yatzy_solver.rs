//! Game logs of the public solver precisit/yatzy-solver (JSON lines, one game per line, its
//! decisions in the solver's text notation). Work in progress (issue 12): the notation is read
//! by [`notation`]; the game reader comes next.

pub mod notation;

use crate::cursor::Cursor;
use crate::{GameReader, GameRecord, ParseError};
use std::ops::Range;

/// Whether a first line looks like a yatzy-solver game (a JSON object with its fields).
pub fn looks_like(first_line: &[u8]) -> bool {
    memchr::memmem::find(first_line, b"\"decisions\"").is_some()
        && memchr::memmem::find(first_line, b"\"variant\"").is_some()
}

/// A reader of yatzy-solver game logs.
pub struct Reader<'a> {
    lines: Cursor<'a>,
    _file: &'a str,
}

impl<'a> Reader<'a> {
    /// A reader over `content`.
    pub fn new(content: &'a [u8], file: &'a str) -> Reader<'a> {
        Reader::with_range(content, file, 0..usize::MAX)
    }

    /// A reader of the games of `content` that begin in `range`.
    pub fn with_range(content: &'a [u8], file: &'a str, range: Range<usize>) -> Reader<'a> {
        Reader::resuming(Cursor::for_range(content, range), file)
    }

    /// A reader of the games from the line `lines` stands at on.
    pub(crate) fn resuming(lines: Cursor<'a>, file: &'a str) -> Reader<'a> {
        Reader { lines, _file: file }
    }
}

impl GameReader for Reader<'_> {
    fn read_game(&mut self, _out: &mut GameRecord) -> Option<Result<(), ParseError>> {
        None
    }

    fn consumed(&self) -> usize {
        self.lines.offset()
    }

    fn game_offset(&self) -> usize {
        self.lines.game_start()
    }
}

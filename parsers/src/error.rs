//! Errors of the parsers: where (file, line, column, game) and what was expected against what
//! was found.

use std::fmt;

/// A line number in a log, 1-based. 64 bits: a log may hold more than 4,294,967,295 lines.
pub type LineNumber = u64;

/// A syntax error in a log. The reader that reports it resynchronises at the next game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The file (as given to the reader).
    pub file: String,
    /// Line, 1-based.
    pub line: LineNumber,
    /// Column (in characters), 1-based.
    pub column: u32,
    /// The game the error is in, when known (its id, else `FILE:LINE` of its first line).
    pub game_id: Option<String>,
    /// Line of the first line of the game that was skipped because of the error.
    pub game_line: LineNumber,
    /// What the format allows there.
    pub expected: String,
    /// What the log has there (shortened).
    pub found: String,
    /// The error is in lines that belong to no game (damage before a format's first game, or
    /// between games): no game was lost with it, so counts of games leave it out.
    pub outside_games: bool,
}

impl ParseError {
    /// This error, marked as lying in lines that belong to no game.
    pub(crate) fn outside_games(self) -> ParseError {
        ParseError {
            outside_games: true,
            game_id: None,
            ..self
        }
    }

    /// Shortens `text` for messages: at most 40 characters, control characters escaped.
    pub fn excerpt(text: &str) -> String {
        let mut out: String = text.chars().take(40).flat_map(char::escape_debug).collect();
        if text.chars().count() > 40 {
            out.push('…');
        }
        if out.is_empty() {
            out.push_str("end of line");
        }
        out
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        if self.outside_games {
            f.write_str("not part of any game: ")?;
        } else if let Some(id) = &self.game_id {
            write!(f, "game {id}: ")?;
        }
        write!(f, "expected {}, found {}", self.expected, self.found)
    }
}

impl std::error::Error for ParseError {}

//! Game-log formats of dicelens and the canonical game record they produce.
//!
//! Only this crate knows text formats. Every reader turns its input into [`GameRecord`]s, one
//! game at a time, and every writer turns records back into text; everything downstream reads
//! only records. Formats: YGN (the native format, [`ygn`]), Verhoeff's records ([`verhoeff`])
//! and JSONL events ([`jsonl`]).
//!
//! Readers stream: they take the whole content (usually a memory-mapped file) and read one game
//! per call, so a corpus of any size is read in constant memory. A reader can also be opened
//! over a byte range of its content ([`Format::range_reader`]), as a Hadoop input split is read:
//! it reads the games that begin in the range, finding the first one by the same rule the
//! sequential reader uses to tell where one game ends and the next begins, so adjacent ranges
//! read every game of the content exactly once, each exactly as a read of the whole content
//! gives it (same records, same errors, same line numbers).

pub mod error;
pub mod jsonl;
pub mod record;
pub mod verhoeff;
pub mod ygn;

pub use error::ParseError;
pub use record::{BoxCode, GameRecord, Keep, Provenance, Roll, Termination, TurnRecord};

use std::fmt;
use std::io;
use std::ops::Range;
use std::str::FromStr;

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
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 3] = [Format::Ygn, Format::Verhoeff, Format::Jsonl];

    /// The name used by `--format`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Ygn => "ygn",
            Format::Verhoeff => "verhoeff",
            Format::Jsonl => "jsonl",
        }
    }

    /// Recognises the format from the start of the content: JSON objects are JSONL, tag
    /// lines are YGN, Verhoeff masks or table headers are Verhoeff. `None` if nothing fits.
    pub fn detect(content: &[u8]) -> Option<Format> {
        let text = content.strip_prefix(b"\xef\xbb\xbf").unwrap_or(content);
        let first = text
            .split(|&b| b == b'\n')
            .map(|l| l.trim_ascii())
            .find(|l| !l.is_empty() && !l.starts_with(b"%"))?;
        match first.first()? {
            b'{' => Some(Format::Jsonl),
            b'[' => Some(Format::Ygn),
            _ if verhoeff::looks_like(first) => Some(Format::Verhoeff),
            _ => None,
        }
    }

    /// A reader of this format over `content`, naming `file` in records and errors.
    pub fn reader<'a>(self, content: &'a [u8], file: &'a str) -> Box<dyn GameReader + Send + 'a> {
        match self {
            Format::Ygn => Box::new(ygn::Reader::new(content, file)),
            Format::Verhoeff => Box::new(verhoeff::Reader::new(content, file)),
            Format::Jsonl => Box::new(jsonl::Reader::new(content, file)),
        }
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
    pub fn range_reader<'a>(
        self,
        content: &'a [u8],
        file: &'a str,
        range: Range<usize>,
    ) -> Box<dyn GameReader + Send + 'a> {
        match self {
            Format::Ygn => Box::new(ygn::Reader::with_range(content, file, range)),
            Format::Verhoeff => Box::new(verhoeff::Reader::with_range(content, file, range)),
            Format::Jsonl => Box::new(jsonl::Reader::with_range(content, file, range)),
        }
    }

    /// Writes one game in this format. Verhoeff's format needs every turn's points and
    /// `total_before`, and one player.
    pub fn write_game(self, game: &GameRecord, out: &mut dyn io::Write) -> io::Result<()> {
        match self {
            Format::Ygn => ygn::write_game(game, out),
            Format::Verhoeff => verhoeff::write_game(game, out),
            Format::Jsonl => jsonl::write_game(game, out),
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
            .ok_or_else(|| format!("unknown format '{s}' (expected auto, ygn, verhoeff or jsonl)"))
    }
}

/// The UTF-8 byte-order mark, skipped at the start of the content by every reader.
pub(crate) const BOM: &[u8] = b"\xef\xbb\xbf";

/// Where the first line of `content` starts: after its byte-order mark, if any.
pub(crate) fn first_line_start(content: &[u8]) -> usize {
    if content.starts_with(BOM) {
        BOM.len()
    } else {
        0
    }
}

/// The number of line feeds in `bytes` (memchr's count: tens of GB/s).
pub(crate) fn count_lines(bytes: &[u8]) -> u32 {
    u32::try_from(memchr::memchr_iter(b'\n', bytes).count()).unwrap_or(u32::MAX)
}

/// Where the first line that starts at or after `offset` starts (`content.len()` if none does):
/// `offset` itself when a line starts there, else just after the next line feed.
pub(crate) fn line_start_from(content: &[u8], offset: usize) -> usize {
    let first = first_line_start(content);
    let offset = offset.min(content.len());
    if offset <= first {
        return first;
    }
    if content.get(offset - 1) == Some(&b'\n') {
        return offset;
    }
    let rest = content.get(offset..).unwrap_or_default();
    memchr::memchr(b'\n', rest).map_or(content.len(), |at| offset + at + 1)
}

/// Where the line before the one starting at `start` starts, `None` if `start` is the first
/// line (or before it).
pub(crate) fn previous_line_start(content: &[u8], start: usize) -> Option<usize> {
    let first = first_line_start(content);
    if start <= first {
        return None;
    }
    // `start - 1` is the line feed ending the previous line.
    let before = content.get(first..start - 1).unwrap_or_default();
    Some(memchr::memrchr(b'\n', before).map_or(first, |at| first + at + 1))
}

/// The text of the line starting at `start`: up to its line feed, a `\r` before it removed;
/// and where the next line starts.
pub(crate) fn line_at(content: &[u8], start: usize) -> (&[u8], usize) {
    let rest = content.get(start..).unwrap_or_default();
    let (text, next) = match memchr::memchr(b'\n', rest) {
        Some(at) => (rest.get(..at).unwrap_or_default(), start + at + 1),
        None => (rest, content.len()),
    };
    (text.strip_suffix(b"\r").unwrap_or(text), next)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_found_from_any_offset() {
        // Lines start at 3 (after the byte-order mark), 7 and 8; the content has 10 bytes.
        let content = b"\xef\xbb\xbfab\r\n\ncd";
        let starts: Vec<usize> = [0, 2, 3, 4, 7, 8, 9, 10, 99]
            .map(|offset| line_start_from(content, offset))
            .to_vec();
        assert_eq!(starts, [3, 3, 3, 7, 7, 8, 10, 10, 10]);
        assert_eq!(previous_line_start(content, 3), None);
        assert_eq!(previous_line_start(content, 7), Some(3));
        assert_eq!(previous_line_start(content, 8), Some(7));
        assert_eq!(line_at(content, 3), (&b"ab"[..], 7));
        assert_eq!(line_at(content, 7), (&b""[..], 8));
        assert_eq!(line_at(content, 8), (&b"cd"[..], 10));
        assert_eq!(count_lines(content), 2);
        assert_eq!(line_start_from(b"", 5), 0, "an offset past empty content");
        assert_eq!(line_start_from(b"\xef\xbb\xbf", 9), 3);
    }
}

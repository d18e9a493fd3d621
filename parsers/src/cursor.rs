//! The line cursor every reader of this crate walks its content with, and where errors are put.
//!
//! A [`Cursor`] stands at the start of a line of the content: it knows that line's byte offset
//! and number, reads it ([`Cursor::peek`], [`Cursor::next_line`]), looks back at the lines
//! before it (which the formats' rules for where a game starts need, [`Cursor::lines_before`]),
//! and says where the content ends as errors report it ([`Cursor::end_position`]). It also
//! keeps what every reader's [`crate::GameReader`] reports of its position: where the last game
//! it returned begins ([`Cursor::game_start`]) and, for a reader over a byte range, where games
//! stop being read ([`Cursor::begins_in_range`]).
//!
//! The rules of every format: a UTF-8 byte-order mark at the start of the content is skipped,
//! lines end at `\n` and a `\r` that ends a line is not part of it, lines are numbered from 1,
//! and a column is the 1-based count of characters up to a byte of the line ([`column()`]). An
//! [`ErrorSite`] turns a line, column, expectation and finding into the [`ParseError`] of one
//! game.

use crate::{LineNumber, ParseError};
use std::borrow::Cow;
use std::ops::Range;

/// The UTF-8 byte-order mark, skipped at the start of the content by every reader.
pub(crate) const BOM: &[u8] = b"\xef\xbb\xbf";

/// One line of the content, without its line end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SourceLine<'a> {
    /// Line number, 1-based.
    pub(crate) number: LineNumber,
    /// The line's bytes, without `\n` or `\r\n`.
    pub(crate) text: &'a [u8],
    /// Byte offset of the line's first byte in the content.
    pub(crate) start: usize,
    /// Byte offset of the next line (the content's length for the last line).
    pub(crate) end: usize,
}

impl SourceLine<'_> {
    /// The 1-based column, in characters, of the byte at `offset` in the line.
    pub(crate) fn column(&self, offset: usize) -> u32 {
        column(self.text, offset)
    }
}

/// A position of a [`Cursor`] to go back to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    pos: usize,
    line: LineNumber,
}

/// Walks the lines of a byte slice without copying it: the offset where the next line starts
/// and that line's number; where the game being read begins, and where the reader's range ends.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cursor<'a> {
    /// The whole content (the byte-order mark, if any, included).
    content: &'a [u8],
    /// Byte offset of the next line.
    pos: usize,
    /// Number (1-based) of the line at `pos`.
    line: LineNumber,
    /// Byte offset of the first line of the last game (or error) the reader returned.
    game_start: usize,
    /// Games that begin at or after this offset are not read (the end of the range).
    end: usize,
    /// Where the content's first line starts: after the byte-order mark of content that is a
    /// whole input; 0 for a piece of a stream after its start.
    first: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the first line of `content` (after its byte-order mark).
    pub(crate) fn new(content: &'a [u8]) -> Cursor<'a> {
        let first = first_line_start(content);
        Cursor {
            content,
            pos: first,
            line: 1,
            game_start: 0,
            end: usize::MAX,
            first,
        }
    }

    /// A cursor for the games that begin in `range` (see [`crate::Format::range_reader`]): at
    /// the first line that starts at or after `range.start` (the end of the content if none
    /// does), the lines before it counted.
    pub(crate) fn for_range(content: &'a [u8], range: Range<usize>) -> Cursor<'a> {
        let mut cursor = Cursor::new(content);
        cursor.end = range.end;
        let start = line_start_from(content, range.start);
        if start > cursor.pos {
            cursor.line = count_lines(content.get(..start).unwrap_or_default()).saturating_add(1);
            cursor.pos = start;
        }
        cursor
    }

    /// A cursor over `content` resuming at `pos` (the start of a line), which is line `line`
    /// of a longer input whose earlier part `content` holds only in part (the stream readers of
    /// [`crate::stream`] keep the previous game as the lines before `pos`).
    /// `content` begins at the start of the input when `at_start` (its byte-order mark, if
    /// any, is skipped), else somewhere after it (a byte-order mark there is part of a line).
    pub(crate) fn resume(
        content: &'a [u8],
        pos: usize,
        line: LineNumber,
        at_start: bool,
    ) -> Cursor<'a> {
        let first = if at_start {
            first_line_start(content)
        } else {
            0
        };
        Cursor {
            content,
            pos: pos.clamp(first, content.len()),
            line,
            game_start: 0,
            end: usize::MAX,
            first,
        }
    }

    /// A cursor at the first line of the content (after the byte-order mark of a whole
    /// input), to go over the lines before this one; its line numbers count from 1 there.
    pub(crate) fn first_line(&self) -> Cursor<'a> {
        Cursor {
            pos: self.first,
            line: 1,
            ..*self
        }
    }

    /// Byte offset of the next line: the bytes before it (a byte-order mark included) are read.
    pub(crate) fn offset(&self) -> usize {
        self.pos
    }

    /// Whether a game that begins at `line` is the reader's to read: it begins before the end
    /// of the range.
    pub(crate) fn begins_in_range(&self, line: &SourceLine<'_>) -> bool {
        line.start < self.end
    }

    /// Notes that the game (or error) the reader returns next begins at `line`.
    pub(crate) fn start_game(&mut self, line: &SourceLine<'_>) {
        self.game_start = line.start;
    }

    /// Byte offset of the first line of the last game (or error) the reader returned, 0 before
    /// the first ([`crate::GameReader::game_offset`]).
    pub(crate) fn game_start(&self) -> usize {
        self.game_start
    }

    /// The next line, without moving on; `None` at the end of the content.
    #[inline]
    pub(crate) fn peek(&self) -> Option<SourceLine<'a>> {
        let rest = self
            .content
            .get(self.pos..)
            .filter(|rest| !rest.is_empty())?;
        let (len, next) = match find_newline(rest) {
            Some(newline) => (newline, newline + 1),
            None => (rest.len(), rest.len()),
        };
        let text = rest.get(..len).unwrap_or(rest);
        Some(SourceLine {
            number: self.line,
            text: text.strip_suffix(b"\r").unwrap_or(text),
            start: self.pos,
            end: self.pos + next,
        })
    }

    /// Moves past `line` (one that [`Cursor::peek`] returned).
    #[inline]
    pub(crate) fn advance(&mut self, line: &SourceLine<'a>) {
        self.pos = line.end;
        self.line = line.number.saturating_add(1);
    }

    /// The next line, moving past it; `None` at the end of the content.
    #[inline]
    pub(crate) fn next_line(&mut self) -> Option<SourceLine<'a>> {
        let line = self.peek()?;
        self.advance(&line);
        Some(line)
    }

    /// Moves past the empty lines at the cursor (`\n` or `\r\n` alone), many bytes at a time: a
    /// run of them costs about as much as copying it, not a line's work per line. Callers do
    /// this only where every one of those lines would be passed over alike, one at a time.
    pub(crate) fn skip_empty_lines(&mut self) {
        const FEEDS: &[u8; 8] = b"\n\n\n\n\n\n\n\n";
        let rest = self.content.get(self.pos..).unwrap_or_default();
        let (mut at, mut lines) = (0usize, 0u64);
        loop {
            if rest.get(at..at + 8) == Some(&FEEDS[..]) {
                (at, lines) = (at + 8, lines + 8);
                continue;
            }
            match rest.get(at) {
                Some(b'\n') => (at, lines) = (at + 1, lines + 1),
                Some(b'\r') if rest.get(at + 1) == Some(&b'\n') => {
                    (at, lines) = (at + 2, lines + 1)
                }
                _ => break,
            }
        }
        self.pos += at;
        self.line = self.line.saturating_add(lines);
    }

    /// The next line that is not blank (white space only), moving past it and the blank lines
    /// before it; `None` at the end of the content.
    pub(crate) fn next_nonblank_line(&mut self) -> Option<SourceLine<'a>> {
        loop {
            self.skip_empty_lines();
            let line = self.next_line()?;
            if !line.text.trim_ascii().is_empty() {
                return Some(line);
            }
        }
    }

    /// The current position, to [`Cursor::rewind`] to.
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            pos: self.pos,
            line: self.line,
        }
    }

    /// Goes back to `mark`, so the lines after it are read again.
    pub(crate) fn rewind(&mut self, mark: Mark) {
        self.pos = mark.pos;
        self.line = mark.line;
    }

    /// A cursor at the line after `line` (a line of the same content).
    pub(crate) fn after(&self, line: &SourceLine<'a>) -> Cursor<'a> {
        Cursor {
            pos: line.end,
            line: line.number.saturating_add(1),
            ..*self
        }
    }

    /// A cursor at `line` itself (a line of the same content), to read it again.
    pub(crate) fn at(&self, line: &SourceLine<'a>) -> Cursor<'a> {
        Cursor {
            pos: line.start,
            line: line.number,
            ..*self
        }
    }

    /// The lines before the cursor, the nearest first, back to the first line of the content.
    pub(crate) fn lines_before(&self) -> impl Iterator<Item = SourceLine<'a>> + 'a {
        let (content, first) = (self.content, self.first);
        let (mut at, mut number) = (self.pos, self.line);
        std::iter::from_fn(move || {
            let start = previous_line_start(content, first, at)?;
            number = number.saturating_sub(1);
            let (text, end) = line_at(content, start);
            at = start;
            Some(SourceLine {
                number,
                text,
                start,
                end,
            })
        })
    }

    /// The last line before the cursor that holds `needle` and whose text `accept`s, found by
    /// searching the bytes for `needle` backwards (not line by line).
    pub(crate) fn last_line_before(
        &self,
        needle: &[u8],
        accept: impl Fn(&[u8]) -> bool,
    ) -> Option<SourceLine<'a>> {
        let first = self.first;
        let mut end = self.pos;
        loop {
            let before = self.content.get(first..end)?;
            let at = first + memchr::memmem::rfind(before, needle)?;
            let start = self
                .content
                .get(first..at)
                .and_then(|head| memchr::memrchr(b'\n', head))
                .map_or(first, |newline| first + newline + 1);
            let (text, next) = line_at(self.content, start);
            if accept(text) {
                // The lines from `start` up to the cursor: `start`'s and one after each line
                // feed before the cursor's own line.
                let feeds = self.content.get(start..self.pos.saturating_sub(1));
                let lines = count_lines(feeds.unwrap_or_default()).saturating_add(1);
                return Some(SourceLine {
                    number: self.line.saturating_sub(lines),
                    text,
                    start,
                    end: next,
                });
            }
            end = at;
        }
    }

    /// Where errors place the end of the content (call it there): the line and column just
    /// after its last character, which is column 1 of the line after it when the content ends
    /// with a line end.
    pub(crate) fn end_position(&self) -> (LineNumber, u32) {
        let text = self.content.get(self.first..).unwrap_or_default();
        let last_start = memchr::memrchr(b'\n', text).map_or(0, |newline| newline + 1);
        match text.get(last_start..).filter(|last| !last.is_empty()) {
            Some(last) => {
                let last = last.strip_suffix(b"\r").unwrap_or(last);
                (self.line.saturating_sub(1).max(1), column(last, last.len()))
            }
            None => (self.line, 1),
        }
    }
}

/// What every error of one game shares: the file and the game.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ErrorSite<'a> {
    /// The file as given to the reader.
    pub(crate) file: &'a str,
    /// The game's id, when known.
    pub(crate) game_id: Option<&'a str>,
    /// The game's first line (the line of the error when no game is known).
    pub(crate) game_line: LineNumber,
}

impl ErrorSite<'_> {
    /// An error at `line`, `column`: expected `expected`, found `found` (shortened here by
    /// [`ParseError::excerpt`]).
    pub(crate) fn error(
        &self,
        line: LineNumber,
        column: u32,
        expected: impl Into<String>,
        found: &str,
    ) -> ParseError {
        ParseError {
            file: self.file.to_string(),
            line,
            column,
            game_id: self.game_id.map(str::to_string),
            game_line: self.game_line,
            expected: expected.into(),
            found: ParseError::excerpt(found),
            outside_games: false,
        }
    }

    /// An error at the byte `offset` of `line`: expected `expected`, found `found`.
    pub(crate) fn in_line(
        &self,
        line: &SourceLine<'_>,
        offset: usize,
        expected: impl Into<String>,
        found: &str,
    ) -> ParseError {
        self.error(line.number, line.column(offset), expected, found)
    }
}

/// The 1-based column, in characters, of `byte_offset` in `text` (the bytes that start a
/// character before it, plus one; past the end, the column after the last character).
pub(crate) fn column(text: &[u8], byte_offset: usize) -> u32 {
    let prefix = text.get(..byte_offset).unwrap_or(text);
    let chars = prefix.iter().filter(|&&b| b & 0xC0 != 0x80).count();
    u32::try_from(chars).unwrap_or(u32::MAX).saturating_add(1)
}

/// `bytes` as text, invalid UTF-8 replaced.
pub(crate) fn lossy(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

/// Where the first line of `content` starts: after its byte-order mark, if any.
pub(crate) fn first_line_start(content: &[u8]) -> usize {
    if content.starts_with(BOM) {
        BOM.len()
    } else {
        0
    }
}

/// The number of line feeds in `bytes` (memchr's count: tens of GB/s).
fn count_lines(bytes: &[u8]) -> LineNumber {
    LineNumber::try_from(memchr::memchr_iter(b'\n', bytes).count()).unwrap_or(LineNumber::MAX)
}

/// Where the first line that starts at or after `offset` starts (`content.len()` if none does):
/// `offset` itself when a line starts there, else just after the next line feed.
fn line_start_from(content: &[u8], offset: usize) -> usize {
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
fn previous_line_start(content: &[u8], first: usize, start: usize) -> Option<usize> {
    if start <= first {
        return None;
    }
    // `start - 1` is the line feed ending the previous line.
    let before = content.get(first..start - 1).unwrap_or_default();
    Some(memchr::memrchr(b'\n', before).map_or(first, |at| first + at + 1))
}

/// The text of the line starting at `start`: up to its line feed, a `\r` before it removed;
/// and where the next line starts.
fn line_at(content: &[u8], start: usize) -> (&[u8], usize) {
    let rest = content.get(start..).unwrap_or_default();
    let (text, next) = match memchr::memchr(b'\n', rest) {
        Some(at) => (rest.get(..at).unwrap_or_default(), start + at + 1),
        None => (rest, content.len()),
    };
    (text.strip_suffix(b"\r").unwrap_or(text), next)
}

/// Where the first `\n` of `bytes` is. Most lines are short: the first 64 bytes are scanned a
/// word at a time (a call to memchr costs more than it saves there), the rest with memchr.
#[inline]
fn find_newline(bytes: &[u8]) -> Option<usize> {
    const NEWLINES: u64 = 0x0a0a_0a0a_0a0a_0a0a;
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let head = bytes.get(..64).unwrap_or(bytes);
    let mut words = head.chunks_exact(8);
    let mut base = 0;
    for word in &mut words {
        let word = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
        // A zero byte of `x` is a newline; the lowest flagged byte is exactly the first one.
        let x = word ^ NEWLINES;
        let found = x.wrapping_sub(ONES) & !x & HIGH;
        if found != 0 {
            return Some(base + found.trailing_zeros() as usize / 8);
        }
        base += 8;
    }
    if bytes.len() <= head.len() {
        let tail = words.remainder().iter().position(|&b| b == b'\n');
        return tail.map(|at| base + at);
    }
    let rest = bytes.get(head.len()..).unwrap_or_default();
    memchr::memchr(b'\n', rest).map(|at| head.len() + at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Lines start at 3 (after the byte-order mark), 7 and 8; the content has 10 bytes.
    const CONTENT: &[u8] = b"\xef\xbb\xbfab\r\n\ncd";

    fn line(
        number: LineNumber,
        text: &'static [u8],
        start: usize,
        end: usize,
    ) -> SourceLine<'static> {
        SourceLine {
            number,
            text,
            start,
            end,
        }
    }

    #[test]
    fn lines_are_found_from_any_offset() {
        let starts: Vec<(usize, LineNumber)> = [0, 2, 3, 4, 7, 8, 9, 10, 99]
            .map(|offset| {
                let cursor = Cursor::for_range(CONTENT, offset..offset);
                (cursor.offset(), cursor.line)
            })
            .to_vec();
        let want = [
            (3, 1),
            (3, 1),
            (3, 1),
            (7, 2),
            (7, 2),
            (8, 3),
            (10, 3),
            (10, 3),
            (10, 3),
        ];
        assert_eq!(starts, want);
        assert_eq!(
            Cursor::for_range(b"", 5..9).offset(),
            0,
            "past empty content"
        );
        assert_eq!(Cursor::for_range(b"\xef\xbb\xbf", 9..9).offset(), 3);
        assert_eq!(count_lines(CONTENT), 2);
    }

    #[test]
    fn lines_are_read_forward_and_back() {
        let mut cursor = Cursor::new(CONTENT);
        let lines = [
            line(1, b"ab", 3, 7),
            line(2, b"", 7, 8),
            line(3, b"cd", 8, 10),
        ];
        let read: Vec<SourceLine<'_>> = std::iter::from_fn(|| cursor.next_line()).collect();
        assert_eq!(read, lines);
        assert_eq!((cursor.offset(), cursor.line), (10, 4));
        let mut back: Vec<SourceLine<'_>> = cursor.lines_before().collect();
        back.reverse();
        assert_eq!(back, lines, "back from the end, without a final line end");
        let middle = Cursor::for_range(CONTENT, 8..9);
        assert!(middle.begins_in_range(&lines[2]) && !middle.begins_in_range(&line(4, b"", 9, 9)));
        assert_eq!(
            middle.lines_before().collect::<Vec<_>>(),
            [lines[1], lines[0]]
        );
        assert_eq!(middle.after(&lines[0]).peek(), Some(lines[1]));
        assert_eq!(middle.at(&lines[0]).peek(), Some(lines[0]));
        assert_eq!(Cursor::new(CONTENT).lines_before().count(), 0);
        let found = cursor.last_line_before(b"b", |text| text == b"ab");
        assert_eq!(found, Some(lines[0]));
        assert_eq!(cursor.last_line_before(b"b", |_| false), None);
    }

    #[test]
    fn a_mark_rewinds_the_cursor() {
        let mut cursor = Cursor::new(CONTENT);
        let mark = cursor.mark();
        cursor.next_line();
        cursor.next_line();
        cursor.rewind(mark);
        assert_eq!(cursor.next_line().map(|line| line.number), Some(1));
    }

    #[test]
    fn the_end_is_after_the_last_character() {
        let at_end = |content: &'static [u8]| {
            let mut cursor = Cursor::new(content);
            while cursor.next_line().is_some() {}
            cursor.end_position()
        };
        assert_eq!(at_end(CONTENT), (3, 3));
        assert_eq!(at_end(b"ab\n"), (2, 1));
        assert_eq!(
            at_end(b"ab\r\n\xc3\xa9x\r"),
            (2, 3),
            "a final `\\r` is dropped"
        );
        assert_eq!(at_end(b""), (1, 1));
        assert_eq!(at_end(BOM), (1, 1));
    }

    #[test]
    fn columns_count_characters() {
        let text = "aé€😀b".as_bytes();
        let columns: Vec<u32> = [0, 1, 3, 6, 10, 11, 99].map(|at| column(text, at)).to_vec();
        assert_eq!(columns, [1, 2, 3, 4, 5, 6, 6]);
        let site = ErrorSite {
            file: "f",
            game_id: Some("g"),
            game_line: 2,
        };
        let error = site.in_line(&line(3, text, 0, 11), 10, "x", "y\n");
        assert_eq!(error.to_string(), "f:3:5: game g: expected x, found y\\n");
        assert_eq!(error.game_line, 2);
    }

    proptest! {
        #[test]
        fn find_newline_finds_the_first_line_feed(
            bytes in proptest::collection::vec(
                proptest::sample::select(vec![b'\n', b'\r', b'a', 0x8a, 0x0b, 0]),
                0..200,
            ),
        ) {
            prop_assert_eq!(find_newline(&bytes), bytes.iter().position(|&b| b == b'\n'));
        }
    }
}

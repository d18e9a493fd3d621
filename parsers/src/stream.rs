//! Reading games from a stream: standard input, a pipe, a gzip or zstd file decompressed on the
//! fly, or any other [`Read`], in bounded memory.
//!
//! [`Input::new`] looks at the first bytes of a stream: gzip (`1f 8b`) and zstd (`28 b5 2f fd`)
//! are recognised by content, not by name, and decompressed as they are read (on a thread of
//! their own, so decompression and parsing overlap: [`ReadAhead`]). It keeps the first
//! [`Input::HEAD`] bytes of what the stream holds, for [`crate::Format::detect`].
//! [`crate::Format::stream_reader`] then reads the games.
//!
//! The stream reader of the line formats ([`StreamReader`]) reads the stream a piece at a time
//! (about [`PIECE`] bytes, whole lines) and hands each piece to the format's own reader,
//! resuming where the last piece's games ended, with the previous game kept before it as the
//! lines the format's rule for where a game starts may look back at. A game that runs to the
//! end of a piece might go on in the next, so it is read again once more of the stream is in:
//! every game is read exactly as a read of the whole content would read it (same records, same
//! errors, same line numbers; offsets count the bytes of the decompressed stream). Memory holds
//! a piece, the previous game and the game being read; a game (or run of lines without one)
//! longer than [`MAX_PENDING`] is cut there, read as if the stream ended, and reading goes on
//! after it as at the start of a stream (the rest of a cut game is read as lines outside any
//! game: an error, counted as a skipped item, where they are not blank or comments).
//!
//! The work is linear in the stream's length, however long its games or its runs of blank
//! and comment lines: a game that may go on in bytes still to come is parsed again only once
//! as many bytes again have come in (a run of blank lines 64 MiB long costs a few times 64 MiB
//! of parsing, not 64 MiB per piece), and [`StreamReader::work`] counts it. The YGN, JSONL and
//! yatzy-solver readers pass runs of empty lines many bytes at a time, so a decompression bomb
//! of line feeds is read about as fast as it is decompressed.
//!
//! [`Format::range_stream_reader`] reads only the games that begin in a byte range of a stream
//! read from its start, exactly those [`Format::range_reader`] gives over the whole content:
//! the stream before the range is scanned for its line count but not parsed (the lines the
//! format looks back at kept as above), and reading stops once a game begins after the range.
//!
//! A stream that fails part way (a truncated or damaged compressed file, a read error) ends
//! with one more [`ParseError`]: where the data stopped, the game it stopped in, and why; the
//! games before it are read as usual. CSV tables are not made of adjacent lines: their reader
//! reads the stream itself ([`crate::csv::Reader::from_read`]).

use crate::cursor::Cursor;
use crate::LineNumber;
use crate::{Format, GameReader, GameRecord, ParseError, ReadOptions};
use std::collections::VecDeque;
use std::io::{self, Read};
use std::ops::Range;
use std::sync::mpsc;

/// Bytes of the stream read before a piece is parsed.
pub const PIECE: usize = 1 << 20;

/// The longest stretch of the stream kept waiting for the end of one game.
pub const MAX_PENDING: usize = 64 << 20;

/// How a stream is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Not compressed.
    None,
    /// gzip (one or more members, as `zcat` reads them).
    Gzip,
    /// Zstandard (one or more frames).
    Zstd,
}

impl Compression {
    /// The compression the first bytes of a stream show (at least four are needed to tell).
    pub fn detect(head: &[u8]) -> Compression {
        if head.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Compression::Zstd
        } else {
            Compression::None
        }
    }

    /// The name used in messages: `gzip`, `zstd`, or `plain`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "plain",
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
        }
    }
}

/// A stream opened for reading games: decompressed if it is compressed, with its first bytes
/// at hand to recognise the format.
pub struct Input {
    compression: Compression,
    head: Vec<u8>,
    rest: Box<dyn Read + Send>,
}

impl Input {
    /// Bytes of (decompressed) content kept to recognise the format (more, up to
    /// [`crate::Format::DETECT_MAX`], while [`crate::Format::detect_needs_more`] says so).
    pub const HEAD: usize = 64 << 10;

    /// Opens `raw`: recognises its compression, starts decompressing it on a thread of its
    /// own, and reads its first [`Input::HEAD`] bytes. An error here (such as a compressed
    /// stream that is not one) means no game can be read from it.
    pub fn new(raw: impl Read + Send + 'static) -> io::Result<Input> {
        let mut raw = raw;
        let magic = read_up_to(&mut raw, 4)?;
        let compression = Compression::detect(&magic);
        let raw = io::Cursor::new(magic).chain(raw);
        let decoded: Box<dyn Read + Send> = match compression {
            Compression::None => Box::new(raw),
            Compression::Gzip => Box::new(Decoded {
                inner: flate2::read::MultiGzDecoder::new(raw),
                compression,
            }),
            Compression::Zstd => Box::new(Decoded {
                inner: zstd::stream::read::Decoder::new(raw)?,
                compression,
            }),
        };
        let mut rest: Box<dyn Read + Send> = Box::new(ReadAhead::new(decoded));
        let mut head = Vec::with_capacity(Input::HEAD);
        let mut want = Input::HEAD;
        loop {
            let before = head.len();
            let goal = want.saturating_sub(before) as u64;
            if let Err(e) = (&mut rest).take(goal).read_to_end(&mut head) {
                if head.is_empty() {
                    return Err(io::Error::new(e.kind(), format!("not a valid {e}")));
                }
                // The stream fails after some content: its games are read, then the failure.
                rest = Box::new(Failed(Some(e)));
                break;
            }
            // More than the first bytes only while the format cannot be told from them (a
            // damaged first line longer than them must not hide the lines after it).
            let whole = head.len() < want;
            if !crate::Format::detect_needs_more(&head, whole) {
                break;
            }
            want = want.saturating_mul(2).min(crate::Format::DETECT_MAX);
        }
        Ok(Input {
            compression,
            head,
            rest,
        })
    }

    /// How the stream is compressed.
    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// The first bytes of the content (decompressed): [`Input::HEAD`] of them, or more where
    /// the format cannot be told from those.
    pub fn head(&self) -> &[u8] {
        &self.head
    }

    /// The whole content, from its first byte.
    pub fn into_read(self) -> Box<dyn Read + Send> {
        Box::new(io::Cursor::new(self.head).chain(self.rest))
    }
}

/// A decompressor whose errors say which compression they are of.
struct Decoded<R> {
    inner: R,
    compression: Compression,
}

impl<R: Read> Read for Decoded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            io::Error::new(e.kind(), format!("{} stream: {e}", self.compression.name()))
        })
    }
}

/// A source that has failed: its error, once.
struct Failed(Option<io::Error>);

impl Read for Failed {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        self.0.take().map_or(Ok(0), Err)
    }
}

/// Reads up to `limit` bytes (fewer only at the end of the stream).
fn read_up_to(read: &mut dyn Read, limit: usize) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(limit.min(Input::HEAD));
    read.take(limit as u64).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// A reader that reads its source on a thread of its own, a few blocks ahead of the caller
/// (so that decompression runs beside parsing). The bytes come in the source's order; an
/// error of the source is returned once, after the bytes read before it.
pub struct ReadAhead {
    blocks: mpsc::Receiver<io::Result<Vec<u8>>>,
    block: Vec<u8>,
    at: usize,
    done: bool,
}

impl ReadAhead {
    /// Bytes per block.
    const BLOCK: usize = 256 << 10;
    /// Blocks read ahead at most.
    const AHEAD: usize = 8;

    /// Starts reading `source` ahead.
    pub fn new(source: impl Read + Send + 'static) -> ReadAhead {
        let (send, blocks) = mpsc::sync_channel(ReadAhead::AHEAD);
        std::thread::spawn(move || {
            let mut source = source;
            loop {
                let mut block = Vec::with_capacity(ReadAhead::BLOCK);
                let read = (&mut source)
                    .take(ReadAhead::BLOCK as u64)
                    .read_to_end(&mut block);
                let full = block.len() == ReadAhead::BLOCK;
                if !block.is_empty() && send.send(Ok(block)).is_err() {
                    break;
                }
                match read {
                    Err(e) => {
                        let _ = send.send(Err(e));
                        break;
                    }
                    Ok(_) if !full => break,
                    Ok(_) => {}
                }
            }
        });
        ReadAhead {
            blocks,
            block: Vec::new(),
            at: 0,
            done: false,
        }
    }
}

impl Read for ReadAhead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.block.len() {
            if self.done {
                return Ok(0);
            }
            match self.blocks.recv() {
                Ok(Ok(block)) => {
                    self.block = block;
                    self.at = 0;
                }
                Ok(Err(e)) => {
                    self.done = true;
                    return Err(e);
                }
                Err(mpsc::RecvError) => {
                    self.done = true;
                    return Ok(0);
                }
            }
        }
        let rest = self.block.get(self.at..).unwrap_or_default();
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.at += n;
        Ok(n)
    }
}

impl Format {
    /// A reader of the games of the stream `input` in this format, naming `file` in records
    /// and errors (see the [module](crate::stream) documentation).
    pub fn stream_reader<'a>(
        self,
        input: Box<dyn Read + Send + 'a>,
        file: &'a str,
        options: &ReadOptions,
    ) -> Box<dyn GameReader + Send + 'a> {
        self.range_stream_reader(input, file, 0..usize::MAX, options)
    }

    /// A reader of the games of the stream `input` (read from its first byte) that begin in
    /// `range`, exactly those a [`Format::range_reader`] over the whole content gives: the
    /// stream before the range is read but not parsed (its lines only counted, and the lines
    /// before the range that the format's rule for where a game starts looks back at kept), and
    /// reading stops once a game begins at or after the range's end. A CSV table's reader reads
    /// the whole table, as over a range of content.
    pub fn range_stream_reader<'a>(
        self,
        input: Box<dyn Read + Send + 'a>,
        file: &'a str,
        range: Range<usize>,
        options: &ReadOptions,
    ) -> Box<dyn GameReader + Send + 'a> {
        match self {
            Format::Csv => Box::new(crate::csv::Reader::from_read_in_range(
                input,
                file,
                range,
                &options.csv,
            )),
            _ => Box::new(StreamReader::new(self, input, file).in_range(range)),
        }
    }
}

/// A reader of a line format over a stream (see the [module](crate::stream) documentation).
pub struct StreamReader<'a> {
    format: Format,
    file: &'a str,
    source: Box<dyn Read + Send + 'a>,
    /// Bytes of the stream from offset `base` on.
    buf: Vec<u8>,
    base: usize,
    /// Where reading resumes in `buf` (a game's start, or the start of the stream), and that
    /// line's number; `skip`: how many games read from there were returned already (0 or 1).
    next: usize,
    line: LineNumber,
    skip: usize,
    /// Where the last game read begins in `buf`: kept as the lines before `next`.
    keep_from: usize,
    /// The source is read to its end, or failed (`failure`).
    eof: bool,
    failure: Option<io::Error>,
    /// Everything in is parsed, the source read to its end.
    done: bool,
    /// Games read and not yet returned, with their offsets.
    ready: VecDeque<(Result<GameRecord, ParseError>, usize)>,
    /// Records given back by the caller, to read games into again (fewer allocations).
    spare: Vec<GameRecord>,
    game_offset: usize,
    piece: usize,
    max_pending: usize,
    /// Only games that begin here are returned (see [`StreamReader::in_range`]).
    range: Range<usize>,
    /// Whether `next` has reached the first line at or after the range's start (before it,
    /// the stream is read but not parsed).
    in_range: bool,
    /// A game was cut at `next` for its length: the lines before `next` are not kept.
    cut_at_next: bool,
    /// Bytes the format's readers were handed, all parses together (see [`StreamReader::work`]).
    work: u64,
}

impl<'a> StreamReader<'a> {
    /// A reader of the games of `source` in `format` (a line format: CSV has a reader of its
    /// own, and gives nothing here), naming `file` in records and errors.
    pub fn new(format: Format, source: Box<dyn Read + Send + 'a>, file: &'a str) -> Self {
        StreamReader::with_sizes(format, source, file, PIECE, MAX_PENDING)
    }

    /// A reader that parses pieces of `piece` bytes and cuts a game at `max_pending` bytes,
    /// instead of [`PIECE`] and [`MAX_PENDING`] (for tests: small sizes make every game cross
    /// piece boundaries).
    pub fn with_sizes(
        format: Format,
        source: Box<dyn Read + Send + 'a>,
        file: &'a str,
        piece: usize,
        max_pending: usize,
    ) -> Self {
        StreamReader {
            format,
            file,
            source,
            buf: Vec::new(),
            base: 0,
            next: 0,
            line: 1,
            skip: 0,
            keep_from: 0,
            eof: false,
            failure: None,
            done: false,
            ready: VecDeque::new(),
            spare: Vec::new(),
            game_offset: 0,
            piece: piece.max(1),
            max_pending: max_pending.max(1),
            range: 0..usize::MAX,
            in_range: true,
            cut_at_next: false,
            work: 0,
        }
    }

    /// The bytes the format's readers were handed so far, every parse and every look back for
    /// the lines before a game's start counted: a measure of the reader's work. It grows
    /// linearly with the stream (a few times its length at most, whatever its games and runs of
    /// blank lines), never with the square of a game's length.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// The same reader for the games that begin in `range` only (byte offsets from the start
    /// of the stream; see [`Format::range_stream_reader`]).
    pub fn in_range(mut self, range: Range<usize>) -> Self {
        self.in_range = range.start == 0;
        self.range = range;
        self
    }

    /// Before the range: moves `next` over the lines read so far, up to the first line that
    /// starts at or after the range's start once that line's start is in (or the stream has
    /// ended), counting them. Nothing is parsed; the lines before `next` are kept as
    /// [`StreamReader::fill`] keeps them before a game's start.
    fn pass_lines_before_range(&mut self) {
        let target = self.range_first_line();
        let to = target
            .unwrap_or_else(|| self.complete_lines())
            .max(self.next);
        let passed = self.buf.get(self.next..to).unwrap_or_default();
        self.line = self
            .line
            .saturating_add(memchr::memchr_iter(b'\n', passed).count() as LineNumber);
        (self.next, self.skip, self.keep_from) = (to, 0, to);
        self.in_range = target.is_some();
    }

    /// Where the bytes in end that surely hold whole lines: after the last line feed, or all
    /// of them once the stream has ended.
    fn complete_lines(&self) -> usize {
        if self.eof {
            self.buf.len()
        } else {
            memchr::memrchr(b'\n', &self.buf).map_or(0, |newline| newline + 1)
        }
    }

    /// Where the first line that starts at or after the range's start starts in `buf`, as
    /// [`Format::range_reader`] finds it (the first line, after a byte-order mark, for a start
    /// within that mark); `None` while the bytes in cannot tell yet.
    fn range_first_line(&self) -> Option<usize> {
        let complete = self.complete_lines();
        let start = self.range.start.saturating_sub(self.base);
        let first = if self.base == 0 {
            crate::cursor::first_line_start(&self.buf)
        } else {
            0
        };
        if start <= first {
            return Some(first);
        }
        if start <= complete && self.buf.get(start - 1) == Some(&b'\n') {
            return Some(start);
        }
        let rest = self.buf.get(start..complete).unwrap_or_default();
        match memchr::memchr(b'\n', rest) {
            Some(at) => Some(start + at + 1),
            None if self.eof => Some(self.buf.len()),
            None => None,
        }
    }

    /// Reads more of the source: a piece, or as many bytes as wait for a game's end if that is
    /// more (so a game that goes on over many pieces is parsed again only each time its bytes
    /// have doubled: the work stays linear in its length), or to the source's end (or its
    /// failure). The bytes before the lines a reader resuming at `next` needs are let go first
    /// (all but `max_pending` of them at most are kept; none after a game cut for its length).
    fn fill(&mut self) {
        let keep = if self.cut_at_next {
            self.next
        } else {
            let resume = Cursor::resume(&self.buf, self.next, self.line, self.base == 0);
            self.work = self.work.saturating_add(self.next as u64);
            let context = self.format.context_start(&resume);
            context
                .min(self.keep_from)
                .max(self.next.saturating_sub(self.max_pending))
        };
        if keep > 0 {
            self.buf.drain(..keep);
            self.base += keep;
            self.next -= keep;
            self.keep_from = self.keep_from.saturating_sub(keep);
        }
        let pending = self.buf.len() - self.next;
        let room = self.max_pending.saturating_sub(pending).saturating_add(1);
        let goal = self.buf.len() + pending.min(room).max(self.piece);
        while self.buf.len() < goal && !self.eof {
            let want = (goal - self.buf.len()) as u64;
            match (&mut self.source).take(want).read_to_end(&mut self.buf) {
                Ok(0) => self.eof = true,
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.failure = Some(e);
                    self.eof = true;
                }
            }
        }
    }

    /// Parses the games of the bytes in (after a [`StreamReader::fill`]), from `next` on, into
    /// `ready`: those that surely end within them, or all of them once the source is read to
    /// its end (or once the bytes waiting for a game's end exceed the limit). A stream that failed ends with its failure,
    /// in place of the game it cut.
    ///
    /// Reading resumes at a game's start (the first line of the game the whole read gives
    /// there, with the game before it kept as the lines to look back at), never in between:
    /// a reader may still have the end of the game it returned to skip. So `next` is the start
    /// of the last game returned, and `skip` says it is not returned again.
    fn parse(&mut self) {
        let forced = !self.eof && self.buf.len() - self.next > self.max_pending;
        let all = self.eof || forced;
        let complete = if forced {
            self.buf.len()
        } else {
            self.complete_lines()
        };
        let content = self.buf.get(..complete).unwrap_or_default();
        self.work = self.work.saturating_add(complete as u64);
        let mut reader = (self.next < complete)
            .then(|| {
                self.format.resuming(
                    Cursor::resume(content, self.next, self.line, self.base == 0),
                    self.file,
                )
            })
            .flatten();
        let mut skip = self.skip;
        let (mut last, mut cut) = (None, None);
        while let Some(reader) = reader.as_mut() {
            let mut game = self.spare.pop().unwrap_or_default();
            let Some(outcome) = reader.read_game(&mut game) else {
                self.spare.push(game);
                break;
            };
            if skip > 0 {
                skip -= 1;
                self.spare.push(game);
                continue;
            }
            let outcome = match outcome {
                Ok(()) => Ok(game),
                Err(e) => {
                    self.spare.push(game);
                    Err(e)
                }
            };
            let start = reader.game_offset();
            if reader.consumed() >= complete && (!all || self.failure.is_some()) {
                // The game may go on in bytes still to come (or that never came): read it
                // again then, or report the failure in its place.
                cut = Some((outcome, start));
                break;
            }
            last = Some(start);
            self.ready.push_back((outcome, self.base + start));
        }
        let (next, skip) = match (&cut, last) {
            _ if forced => (complete, 0),
            (Some((_, start)), _) => (*start, 0),
            (None, Some(start)) => (start, 1),
            (None, None) => (self.next, self.skip),
        };
        if next > self.next {
            let passed = content.get(self.next..next).unwrap_or_default();
            self.line = self
                .line
                .saturating_add(memchr::memchr_iter(b'\n', passed).count() as LineNumber);
            self.keep_from = self.next;
        }
        (self.next, self.skip) = (next, skip);
        // After a cut, reading goes on as at the start of a stream: what came before is let go.
        self.cut_at_next = forced;
        if !self.eof {
            return;
        }
        self.done = true;
        if let Some(failure) = self.failure.take() {
            let error = self.failure_error(&failure, cut.as_ref().map(|(outcome, _)| outcome));
            let offset = cut.map_or(self.buf.len(), |(_, at)| at);
            self.ready.push_back((Err(error), self.base + offset));
        }
    }

    /// The error that ends a stream that failed: at the end of its data, in the game it cut
    /// (as far as that game was read).
    fn failure_error(
        &self,
        failure: &io::Error,
        cut: Option<&Result<GameRecord, ParseError>>,
    ) -> ParseError {
        let (game_id, game_line) = match cut {
            Some(Ok(game)) => (Some(game.provenance.game_id.clone()), game.provenance.line),
            Some(Err(e)) => (e.game_id.clone(), e.game_line),
            None => (None, 0),
        };
        let rest = self.buf.get(self.next..).unwrap_or_default();
        let line = self
            .line
            .saturating_add(memchr::memchr_iter(b'\n', rest).count() as LineNumber);
        let last = rest.rsplit(|&b| b == b'\n').next().unwrap_or_default();
        ParseError {
            file: self.file.to_string(),
            line,
            column: crate::cursor::column(last, last.len()),
            game_id,
            game_line: if game_line == 0 { line } else { game_line },
            expected: "the rest of the input".to_string(),
            found: format!("a read error: {failure}"),
            outside_games: false,
        }
    }
}

impl GameReader for StreamReader<'_> {
    fn read_game(&mut self, out: &mut GameRecord) -> Option<Result<(), ParseError>> {
        loop {
            if let Some((outcome, offset)) = self.ready.pop_front() {
                if offset >= self.range.end {
                    // Games begin in order: no later one is in the range.
                    self.ready.clear();
                    self.done = true;
                    return None;
                }
                self.game_offset = offset;
                return Some(outcome.map(|mut game| {
                    std::mem::swap(out, &mut game);
                    self.spare.push(game);
                }));
            }
            if self.done {
                return None;
            }
            // Bytes are parsed once after each fill: what a parse left (a game that may go
            // on) waits for more.
            self.fill();
            if !self.in_range {
                self.pass_lines_before_range();
                if !self.in_range {
                    continue;
                }
            }
            self.parse();
        }
    }

    fn consumed(&self) -> usize {
        self.base + self.next
    }

    fn game_offset(&self) -> usize {
        self.game_offset
    }
}

//! Fuzzes the stream reader: arbitrary bytes, read as a stream in pieces of a size the first
//! byte chooses (1 to 256 bytes) in a line format the second byte chooses, give exactly the
//! games and errors, with their offsets, of a read of the whole content; the games that begin
//! in a byte range the third and fourth bytes choose, read from the stream (as a regular file
//! is read), are exactly those a range reader over the whole content gives; a stream cut short
//! where the third byte says (a file truncated while it is read) ends with an error, never a
//! panic; and the same bytes behind the gzip or zstd magic numbers never panic the
//! decompressing input.
//!
//! Seeds for the inputs of issue 13 (ranges of regular files, a file cut short, an empty
//! input, a `/proc` file): `fuzz/seeds/stream`, whose files begin with the four control bytes.
//! `cargo fuzz run stream fuzz/corpus/stream fuzz/seeds/stream -- -detect_leaks=0`
//!
//! Run it with `-detect_leaks=0`: each compressed input starts a read-ahead thread, and glibc's
//! registration of that thread's exit handlers (32 bytes) is reported as a leak otherwise.

#![no_main]

use dicelens_parsers::stream::{Input, StreamReader};
use dicelens_parsers::{Format, GameReader, GameRecord, ParseError};
use libfuzzer_sys::fuzz_target;

/// The line formats, which the stream reader reads.
const FORMATS: [Format; 4] = [
    Format::Ygn,
    Format::Verhoeff,
    Format::Jsonl,
    Format::YatzySolver,
];

/// Every outcome of `reader` with its offset.
fn outcomes(reader: &mut dyn GameReader) -> Vec<(usize, Result<GameRecord, ParseError>)> {
    let mut out = Vec::new();
    let mut game = GameRecord::default();
    while let Some(result) = reader.read_game(&mut game) {
        out.push((reader.game_offset(), result.map(|()| game.clone())));
    }
    out
}

/// A source that gives the first `left` bytes of its content, then fails (as a file cut short
/// under a read does).
struct CutShort {
    content: std::io::Cursor<Vec<u8>>,
    left: usize,
}

impl std::io::Read for CutShort {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            return Err(std::io::Error::other("changed while being read"));
        }
        let n = buf.len().min(self.left);
        let n = self.content.read(&mut buf[..n])?;
        self.left -= n;
        Ok(n)
    }
}

fuzz_target!(|data: &[u8]| {
    let [piece, format, start, end, content @ ..] = data else {
        return;
    };
    let format = FORMATS[usize::from(*format) % FORMATS.len()];
    let whole = outcomes(&mut format.reader(content, "fuzz"));
    let source = Box::new(std::io::Cursor::new(content.to_vec()));
    let piece = 1 + usize::from(*piece);
    let mut streamed = StreamReader::with_sizes(format, source, "fuzz", piece, usize::MAX);
    assert_eq!(outcomes(&mut streamed), whole, "{format} in pieces of {piece}");
    // A byte range, anywhere in the content or past its end.
    let at = |byte: u8| usize::from(byte) * (content.len() + 2) / 255;
    let range = at(*start).min(at(*end))..at(*start).max(at(*end));
    let source = Box::new(std::io::Cursor::new(content.to_vec()));
    let mut in_range = StreamReader::with_sizes(format, source, "fuzz", piece, usize::MAX)
        .in_range(range.clone());
    let want = outcomes(&mut format.range_reader(content, "fuzz", range.clone()));
    assert_eq!(outcomes(&mut in_range), want, "{format} {range:?} in pieces of {piece}");
    // Cut short: the games before the cut, then an error; no panic.
    let source = Box::new(CutShort {
        content: std::io::Cursor::new(content.to_vec()),
        left: at(*start).min(content.len()),
    });
    let cut = outcomes(&mut StreamReader::with_sizes(format, source, "fuzz", piece, usize::MAX));
    assert!(cut.last().is_some_and(|(_, outcome)| outcome.is_err()));
    for magic in [&[0x1f, 0x8b][..], &[0x28, 0xb5, 0x2f, 0xfd][..]] {
        let bytes = [magic, content].concat();
        if let Ok(input) = Input::new(std::io::Cursor::new(bytes)) {
            let mut reader = format.stream_reader(input.into_read(), "fuzz", &Default::default());
            outcomes(&mut reader);
        }
    }
});

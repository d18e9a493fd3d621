//! Fuzzes the stream reader: arbitrary bytes, read as a stream in pieces of a size the first
//! byte chooses (1 to 256 bytes) in a line format the second byte chooses, give exactly the
//! games and errors, with their offsets, of a read of the whole content; and the same bytes
//! behind the gzip or zstd magic numbers never panic the decompressing input.
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

fuzz_target!(|data: &[u8]| {
    let [piece, format, content @ ..] = data else {
        return;
    };
    let format = FORMATS[usize::from(*format) % FORMATS.len()];
    let whole = outcomes(&mut format.reader(content, "fuzz"));
    let source = Box::new(std::io::Cursor::new(content.to_vec()));
    let piece = 1 + usize::from(*piece);
    let mut streamed = StreamReader::with_sizes(format, source, "fuzz", piece, usize::MAX);
    assert_eq!(outcomes(&mut streamed), whole, "{format} in pieces of {piece}");
    for magic in [&[0x1f, 0x8b][..], &[0x28, 0xb5, 0x2f, 0xfd][..]] {
        let bytes = [magic, content].concat();
        if let Ok(input) = Input::new(std::io::Cursor::new(bytes)) {
            let mut reader = format.stream_reader(input.into_read(), "fuzz", &Default::default());
            outcomes(&mut reader);
        }
    }
});

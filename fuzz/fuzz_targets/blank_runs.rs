//! Fuzzes the stream reader's work on long runs of blank and comment lines (issue 30, item 7):
//! arbitrary bytes in a line format the first byte chooses, with a run of 64 KiB to 1 MiB of
//! blank lines (or `%` comments, or blank lines with spaces and `\r`; the second byte chooses)
//! put in where the third and fourth bytes say, read as a stream in pieces of 1 to 4 KiB (the
//! fifth byte), games cut at 64 KiB or never (the sixth): the reader's work (the bytes handed
//! to the format's readers, [`StreamReader::work`]) stays linear in the input's length, a
//! bound on time that does not depend on the machine. Quadratic work would be about
//! `run / piece / 2` times the run: 16 to 500 times.
//! `cargo fuzz run blank_runs`

#![no_main]

use dicelens_parsers::stream::StreamReader;
use dicelens_parsers::{Format, GameReader, GameRecord};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [format, choice, at_high, at_low, piece, limit, rest @ ..] = data else {
        return;
    };
    // The line formats: those the stream reader reads.
    let formats: Vec<Format> = Format::ALL
        .into_iter()
        .filter(|f| *f != Format::Csv)
        .collect();
    let format = formats[usize::from(*format) % formats.len()];
    let filler: &[u8] = match choice % 3 {
        0 => b"\n",
        1 => b"% a comment line\n",
        _ => b" \t\r\n",
    };
    let run_len = (64 << 10) << (choice / 3 % 5);
    let run = filler.repeat(run_len / filler.len());
    let at = (usize::from(*at_high) << 8 | usize::from(*at_low)) % (rest.len() + 1);
    let content = [&rest[..at], &run[..], &rest[at..]].concat();
    let piece = (usize::from(*piece) % 4 + 1) << 10;
    let max_pending = if limit % 2 == 0 { usize::MAX } else { 64 << 10 };
    let source = Box::new(std::io::Cursor::new(content));
    let mut reader = StreamReader::with_sizes(format, source, "fuzz", piece, max_pending);
    let mut game = GameRecord::default();
    let mut items = 0usize;
    while reader.read_game(&mut game).is_some() {
        items += 1;
    }
    let n = (rest.len() + run.len()) as u64;
    let work = reader.work();
    assert!(
        work <= 8 * n + 16 * (piece as u64),
        "{format} with {} bytes ({} of them a run of {filler:?}), pieces of {piece}, limit \
         {max_pending}: work {work} ({items} items)",
        n,
        run.len(),
    );
});

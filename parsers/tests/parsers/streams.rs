//! Reading from streams (`dicelens_parsers::stream`): a line format read piece by piece gives
//! exactly what a read of the whole content gives (games, errors, lines, offsets), whatever the
//! piece size; gzip and zstd are recognised by content; a stream that fails ends with an error
//! in place of the game it cut; the compressed fixtures give their `EXPECTED.csv`.

use crate::common::expected::{assert_outcomes, expected_outcomes};
use crate::common::{all_fixtures, fixture, fixture_dir};
use crate::ranges::{content, outcomes, Outcome};
use dicelens_parsers::stream::{Compression, Input, StreamReader};
use dicelens_parsers::{Format, GameReader, ParseError, ReadOptions};
use proptest::prelude::*;
use std::io::{self, Read, Write};

/// Every outcome of a stream reader over `content` with pieces of `piece` bytes.
fn streamed(format: Format, content: &[u8], piece: usize, max_pending: usize) -> Vec<Outcome> {
    let source = Box::new(io::Cursor::new(content.to_vec()));
    let reader = StreamReader::with_sizes(format, source, "t", piece, max_pending);
    outcomes(Box::new(reader))
}

/// The line formats: those the stream reader reads.
const LINE_FORMATS: [Format; 4] = [
    Format::Ygn,
    Format::Jsonl,
    Format::Verhoeff,
    Format::YatzySolver,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn ygn_streamed_in_pieces_reads_as_a_whole(content in content(Format::Ygn), piece in 1usize..300) {
        prop_assert_eq!(streamed(Format::Ygn, &content, piece, usize::MAX), outcomes(Format::Ygn.reader(&content, "t")));
    }

    #[test]
    fn jsonl_streamed_in_pieces_reads_as_a_whole(content in content(Format::Jsonl), piece in 1usize..300) {
        prop_assert_eq!(streamed(Format::Jsonl, &content, piece, usize::MAX), outcomes(Format::Jsonl.reader(&content, "t")));
    }

    #[test]
    fn verhoeff_streamed_in_pieces_reads_as_a_whole(content in content(Format::Verhoeff), piece in 1usize..300) {
        prop_assert_eq!(streamed(Format::Verhoeff, &content, piece, usize::MAX), outcomes(Format::Verhoeff.reader(&content, "t")), "{:?} {}", String::from_utf8_lossy(&content), piece);
    }

    #[test]
    fn yatzy_solver_streamed_in_pieces_reads_as_a_whole(content in content(Format::YatzySolver), piece in 1usize..300) {
        prop_assert_eq!(streamed(Format::YatzySolver, &content, piece, usize::MAX), outcomes(Format::YatzySolver.reader(&content, "t")));
    }

    /// With a tiny limit on a game's length games are cut, but reading goes on to the end:
    /// no panic, offsets grow (checked by `outcomes`), nothing read twice. Each cut gives the
    /// cut game and at most one more item: the rest of it, read as at the start of a stream.
    #[test]
    fn games_longer_than_the_limit_are_cut_and_reading_goes_on(
        content in content(Format::Ygn),
        piece in 1usize..50,
        limit in 1usize..200,
    ) {
        let read = streamed(Format::Ygn, &content, piece, limit);
        let whole = outcomes(Format::Ygn.reader(&content, "t"));
        prop_assert!(read.len() <= whole.len() + 2 * (content.len() / limit.max(1) + 1));
    }
}

#[test]
fn every_fixture_of_a_line_format_streamed_in_pieces_reads_as_a_whole() {
    for (format, name, content) in all_fixtures() {
        if !LINE_FORMATS.contains(&format) {
            continue;
        }
        let whole = outcomes(format.reader(&content, "t"));
        for piece in [1, 2, 3, 7, 64, 1000, 1 << 20] {
            assert_eq!(
                streamed(format, &content, piece, usize::MAX),
                whole,
                "{name} in pieces of {piece} bytes"
            );
        }
    }
}

/// A source that gives the bytes of `content` up to `fail_at`, then an error.
struct FailingSource {
    content: io::Cursor<Vec<u8>>,
    left: usize,
}

impl Read for FailingSource {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            return Err(io::Error::other("the disk went away"));
        }
        let n = buf.len().min(self.left);
        let n = self.content.read(&mut buf[..n])?;
        self.left -= n;
        Ok(n)
    }
}

#[test]
fn a_stream_that_fails_ends_with_an_error_in_place_of_the_game_it_cut() {
    let (_, content) = fixture("ygn", "valid.ygn");
    let whole = outcomes(Format::Ygn.reader(&content, "t"));
    assert_eq!(whole.len(), 3);
    let (second, third) = (whole[1].0, whole[2].0);
    // Cut inside the second game: the first is read, the second is replaced by the failure.
    for fail_at in [second + 1, second + 40, third - 1] {
        for piece in [5, 1 << 20] {
            let source = FailingSource {
                content: io::Cursor::new(content.clone()),
                left: fail_at,
            };
            let reader =
                StreamReader::with_sizes(Format::Ygn, Box::new(source), "t", piece, 1 << 20);
            let read = outcomes(Box::new(reader));
            assert_eq!(read.len(), 2, "cut at {fail_at}: {read:#?}");
            assert_eq!(read[0], whole[0]);
            let (offset, Err(error)) = &read[1] else {
                panic!("cut at {fail_at}: {:?}", read[1])
            };
            assert_eq!(*offset, second);
            let before = &content[..fail_at];
            let line = before.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
            assert_eq!((error.line, error.game_line), (line, 40), "{error}");
            // Cut in its `Game` tag, the game is known by its place only.
            let id = if fail_at == second + 1 {
                "t:40"
            } else {
                "valid-2"
            };
            assert_eq!(error.game_id.as_deref(), Some(id), "{error}");
            assert_eq!(error.expected, "the rest of the input");
            assert_eq!(error.found, "a read error: the disk went away");
        }
    }
    // Cut between games (after the first game's last line): whether the first game was
    // whole cannot be told, so the failure stands in its place.
    let source = FailingSource {
        content: io::Cursor::new(content.clone()),
        left: second,
    };
    let read = outcomes(Box::new(StreamReader::new(
        Format::Ygn,
        Box::new(source),
        "t",
    )));
    assert!(
        matches!(&read[..], [(at, Err(e))] if *at == whole[0].0 && e.game_id.as_deref() == Some("valid-1")),
        "{read:#?}"
    );
}

#[test]
fn a_range_of_a_stream_that_fails_before_the_range_ends_with_the_failure() {
    let (_, content) = fixture("ygn", "valid.ygn");
    let whole = outcomes(Format::Ygn.reader(&content, "t"));
    let (second, third) = (whole[1].0, whole[2].0);
    let read = |fail_at: usize, range: std::ops::Range<usize>| {
        let source = FailingSource {
            content: io::Cursor::new(content.clone()),
            left: fail_at,
        };
        let reader = StreamReader::with_sizes(Format::Ygn, Box::new(source), "t", 16, 1 << 20);
        outcomes(Box::new(reader.in_range(range)))
    };
    // Failing before the range starts: the range's games are not there, and the read says why
    // (it does not end quietly with no game).
    let failed = read(second - 5, third..content.len());
    assert!(
        matches!(&failed[..], [(_, Err(e))] if e.found == "a read error: the disk went away"),
        "{failed:#?}"
    );
    // Failing after the range's last game: the range reads as a whole.
    assert_eq!(read(third + 3, 0..second), whole[..1]);
    assert_eq!(read(content.len(), second..third), whole[1..2]);
}

/// `content` compressed as `compression` says.
fn compress(content: &[u8], compression: Compression) -> Vec<u8> {
    match compression {
        Compression::None => content.to_vec(),
        Compression::Gzip => {
            let mut encoder =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            encoder.write_all(content).unwrap();
            encoder.finish().unwrap()
        }
        Compression::Zstd => zstd::encode_all(content, 3).unwrap(),
    }
}

/// The outcomes of reading `bytes` as a file would be read: its compression recognised, then
/// its format (unless given), then its games streamed.
fn read_input(bytes: Vec<u8>, file: &str, format: Option<Format>) -> io::Result<Vec<Outcome>> {
    let input = Input::new(io::Cursor::new(bytes))?;
    let format = format
        .or_else(|| Format::detect(input.head()))
        .expect("a format");
    let reader = format.stream_reader(input.into_read(), file, &ReadOptions::default());
    Ok(outcomes(reader))
}

#[test]
fn compressed_content_reads_as_the_plain_content() {
    for (format, name, content) in all_fixtures() {
        if !LINE_FORMATS.contains(&format) {
            continue;
        }
        let whole = outcomes(format.reader(&content, "t"));
        for compression in [Compression::None, Compression::Gzip, Compression::Zstd] {
            let bytes = compress(&content, compression);
            let input = Input::new(io::Cursor::new(bytes.clone())).unwrap();
            assert_eq!(input.compression(), compression, "{name}");
            assert_eq!(input.head(), &content[..content.len().min(Input::HEAD)]);
            let read = read_input(bytes, "t", Some(format)).unwrap();
            assert_eq!(read, whole, "{name}, {compression:?}");
        }
    }
}

#[test]
fn concatenated_gzip_members_and_zstd_frames_read_as_one_stream() {
    let (_, valid) = fixture("ygn", "valid.ygn");
    let (_, bad) = fixture("ygn", "bad_die.ygn");
    let joined = [valid.clone(), bad.clone()].concat();
    let whole = outcomes(Format::Ygn.reader(&joined, "t"));
    for compression in [Compression::Gzip, Compression::Zstd] {
        let bytes = [compress(&valid, compression), compress(&bad, compression)].concat();
        assert_eq!(
            read_input(bytes, "t", None).unwrap(),
            whole,
            "{compression:?}"
        );
    }
}

#[test]
fn a_large_stream_is_read_in_pieces_with_every_game() {
    // More than a few pieces and read-ahead blocks of data, so that games cross piece bounds.
    let (_, valid) = fixture("ygn", "valid.ygn");
    let text = String::from_utf8(valid).unwrap();
    let mut big = String::new();
    for n in 0..3000 {
        big.push_str(&text.replace("valid-", &format!("copy{n}-")));
    }
    let whole = outcomes(Format::Ygn.reader(big.as_bytes(), "t"));
    // Two games and a broken one (without a `Game` tag) a copy.
    assert_eq!(whole.len(), 9000);
    for compression in [Compression::None, Compression::Gzip, Compression::Zstd] {
        let read = read_input(compress(big.as_bytes(), compression), "t", None).unwrap();
        assert!(read == whole, "{compression:?}");
    }
}

/// The compressed fixtures that read (`fixtures/compressed/EXPECTED.csv`) give exactly their
/// listed games and errors; the two that are garbage cannot be opened, and say why.
#[test]
fn compressed_fixtures_give_their_expected_outcomes() {
    let expected = expected_outcomes("compressed");
    for (name, outcomes) in &expected {
        let (path, bytes) = fixture("compressed", name);
        let read = read_input(bytes, name, None).unwrap_or_else(|e| panic!("{path}: {e}"));
        let read: Vec<Result<_, ParseError>> = read.into_iter().map(|(_, o)| o).collect();
        assert_outcomes(name, &read, outcomes);
    }
    for (name, why) in [
        ("garbage.gz", "not a valid gzip stream: invalid gzip header"),
        ("garbage.zst", "not a valid zstd stream: "),
    ] {
        let (path, bytes) = fixture("compressed", name);
        let error = Input::new(io::Cursor::new(bytes)).err();
        let error = error.unwrap_or_else(|| panic!("{path} opens"));
        assert!(error.to_string().starts_with(why), "{path}: {error}");
    }
    let mut listed: Vec<&str> = expected.keys().map(String::as_str).collect();
    listed.extend(["garbage.gz", "garbage.zst"]);
    listed.sort_unstable();
    let mut files: Vec<String> = std::fs::read_dir(fixture_dir("compressed"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| !name.starts_with("EXPECTED."))
        .collect();
    files.sort();
    assert_eq!(listed, files, "every compressed fixture is checked");
}

#[test]
fn compression_is_recognised_by_content_not_by_name() {
    assert_eq!(Compression::detect(&[0x1f, 0x8b, 8, 0]), Compression::Gzip);
    assert_eq!(
        Compression::detect(&[0x28, 0xb5, 0x2f, 0xfd]),
        Compression::Zstd
    );
    assert_eq!(Compression::detect(b"[Game"), Compression::None);
    assert_eq!(Compression::detect(&[0x1f]), Compression::None);
    // A gzip file named .txt is decompressed; a plain file named .gz is read as it is.
    let (_, valid) = fixture("ygn", "valid.ygn");
    let whole = outcomes(Format::Ygn.reader(&valid, "t.gz"));
    assert_eq!(read_input(valid.clone(), "t.gz", None).unwrap(), whole);
}

/// The work of a stream reader over `content` (bytes its format's readers were handed), after
/// checking that it reads what a read of the whole content does; pieces of `piece` bytes, games
/// cut at `max_pending`.
fn work_of(format: Format, content: &[u8], piece: usize, max_pending: usize) -> u64 {
    let source = Box::new(io::Cursor::new(content.to_vec()));
    let mut reader = StreamReader::with_sizes(format, source, "t", piece, max_pending);
    let mut game = dicelens_parsers::GameRecord::default();
    let mut read = 0;
    while reader.read_game(&mut game).is_some() {
        read += 1;
    }
    if max_pending == usize::MAX {
        assert_eq!(read, outcomes(format.reader(content, "t")).len());
    }
    reader.work()
}

/// Issue 30, item 7: a run of blank lines (or comment lines) between two games costs work
/// linear in its length in every line format, not quadratic: the reader's work (bytes handed
/// to the format's readers, counted by the reader) stays within a few times the content's
/// length at 1 MiB and 4 MiB read in pieces of 16 KiB (quadratic work would be about 30 and
/// 120 times the length), whether games may be as long as they are or are cut at 256 KiB
/// (reading goes on after the cut).
#[test]
fn runs_of_blank_or_comment_lines_cost_linear_work() {
    let cases = [
        (Format::Ygn, "ygn", "valid.ygn", &b"\n"[..]),
        (Format::Ygn, "ygn", "valid.ygn", &b"% a comment\n"[..]),
        (Format::Jsonl, "jsonl", "two_games.jsonl", &b"\n"[..]),
        (Format::Jsonl, "jsonl", "two_games.jsonl", &b"  \r\n"[..]),
        (Format::Verhoeff, "verhoeff", "table_game.txt", &b"\n"[..]),
        (
            Format::YatzySolver,
            "yatzy-solver",
            "american.jsonl",
            &b"\n"[..],
        ),
    ];
    for (format, dir, name, filler) in cases {
        let (_, fixture) = fixture(dir, name);
        let whole = outcomes(format.reader(&fixture, "t"));
        // Between the first game and the next (or after the only one).
        let at = whole.get(1).map_or(fixture.len(), |(offset, _)| *offset);
        for mib in [1usize, 4] {
            let run = filler.repeat((mib << 20) / filler.len());
            let content = [&fixture[..at], &run, &fixture[at..]].concat();
            let n = content.len() as u64;
            for max_pending in [usize::MAX, 256 << 10] {
                let work = work_of(format, &content, 16 << 10, max_pending);
                assert!(
                    work <= 4 * n,
                    "{name} with {mib} MiB of {filler:?}, limit {max_pending}: work {work} for \
                     {n} bytes"
                );
            }
        }
    }
}

/// Issue 30, item 12: a damaged first line longer than the 64 KiB the format is first looked
/// for in hides nothing: the format is recognised from the lines after it (in a stream's head,
/// read on as far as needed), the damaged line is one error and the games after it are read.
#[test]
fn a_damaged_first_line_longer_than_the_window_hides_nothing() {
    let (_, games) = fixture("jsonl", "two_games.jsonl");
    let whole = outcomes(Format::Jsonl.reader(&games, "t"));
    let damaged = [
        b"{\"type\": \"game\", \"id\": \"",
        &b"x".repeat(200 << 10)[..],
        b"\n",
    ]
    .concat();
    let content = [&damaged[..], &games[..]].concat();
    assert_eq!(Format::detect(&content), Some(Format::Jsonl));
    for compression in [Compression::None, Compression::Gzip] {
        let read = read_input(compress(&content, compression), "t", None).expect("a format");
        assert_eq!(read.len(), whole.len() + 1, "{compression:?}: {read:#?}");
        assert!(read[0].1.is_err(), "{compression:?}: {:?}", read[0]);
        let ids = |outcomes: &[Outcome]| -> Vec<String> {
            outcomes
                .iter()
                .map(|(_, game)| game.as_ref().expect("a game").provenance.game_id.clone())
                .collect()
        };
        assert_eq!(ids(&read[1..]), ids(&whole), "{compression:?}");
    }
    // A head of the first 64 KiB alone cannot tell; the reader of a stream's head reads on.
    assert!(Format::detect_needs_more(&content[..64 << 10], false));
    assert!(!Format::detect_needs_more(&content, true));
}

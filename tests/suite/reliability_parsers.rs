//! Damage in the logs costs no more than the games it is in, and reading stays linear (issue
//! 30, items 7, 8, 9 and 12 (JSONL's first line)): a stray quote in a 30-game CSV table is one
//! skipped game and the other 29 are rated; a JSONL game whose `Rules` tag disagrees with its
//! `rules` member is skipped, with both values, by `analyze` and `convert` alike; a damaged first
//! JSONL line longer than 64 KiB hides nothing; a gzip file of two games around 64 MiB of blank
//! lines is read through the binary well within 20 s. Commands run under a time limit
//! ([`run_within`]).

use crate::common::{run_within, solitaire_analyze, text, StdinFrom};
use dicelens::corpus::{CorpusReader, SkipReason, Summary};
use dicelens::replay::ReplayOptions;
use dicelens::rules::RuleSet;
use dicelens_parsers::Format;
use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

/// The longest any command here may take (they take a few seconds at most).
const LIMIT: Duration = Duration::from_secs(120);

/// Writes `games` one-seat yahtzee games (seed `seed`) in `format` to `path`.
fn write_log(path: &Path, format: Format, games: usize, seed: u64) {
    crate::reliability_inputs::write_log_in(path, format, RuleSet::Yahtzee, games, seed);
}

/// Reads `path` as `analyze` and `convert` do, returning the summary.
fn read(path: &Path) -> Summary {
    let mut reader = CorpusReader::new(ReplayOptions::default());
    reader.read_path(path, None, |_, _| {});
    reader.summary
}

/// Runs the binary with `args`, within [`LIMIT`].
fn run(args: &[&str]) -> Output {
    run_limited(args, LIMIT)
}

/// Runs the binary with `args`, within `limit`.
fn run_limited(args: &[&str], limit: Duration) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dicelens"));
    command
        .args(args)
        .env("DICELENS_TABLES", crate::common::tables_dir())
        .env("RAYON_NUM_THREADS", "2");
    run_within(&mut command, StdinFrom::Nothing, limit)
}

/// Runs `analyze` on `path` (its outputs under `dir`) and checks that it succeeds with the
/// summary line `summary` ("N games read, N used, N skipped").
fn analyze_says(path: &Path, dir: &Path, summary: &str) {
    let out_dir = dir.join("out");
    let output = run(&solitaire_analyze(
        path.to_str().unwrap(),
        out_dir.to_str().unwrap(),
    ));
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains(summary), "{stderr}");
}

/// Item 8: one stray `"` opening a field of a 30-game CSV costs that game only: 30 games
/// read, 29 rated, 1 skipped as a syntax error naming the file, the line and the quote.
#[test]
fn a_stray_quote_in_a_30_game_csv_costs_only_its_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.csv");
    write_log(&path, Format::Csv, 30, 30);
    let intact = read(&path);
    assert_eq!(
        (intact.games_read, intact.games_used),
        (30, 30),
        "{}",
        intact.report()
    );
    let content = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = content.lines().map(String::from).collect();
    // A row of about the eighth game: its player field opened by a stray quote.
    let target = lines.len() / 4;
    let mut fields: Vec<String> = lines[target].split(',').map(String::from).collect();
    fields[5].insert(0, '"');
    lines[target] = fields.join(",");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let summary = read(&path);
    let report = summary.report();
    assert_eq!(
        (
            summary.games_read,
            summary.games_used,
            summary.skipped_count()
        ),
        (30, 29, 1),
        "{report}"
    );
    let place = &summary.skipped[&SkipReason::SyntaxError][0];
    assert_eq!(place.line, target as u64 + 1, "{report}");
    assert!(place.file.ends_with("games.csv"), "{report}");
    assert!(place.detail.contains("never closed"), "{report}");
    // The binary rates the 29 others.
    analyze_says(&path, dir.path(), "30 games read, 29 used, 1 skipped");
}

/// Item 9: a JSONL game whose `Rules` tag disagrees with its `rules` member is skipped by
/// `analyze` and by `convert`, with the line and both values; the other games are rated and
/// converted.
#[test]
fn a_jsonl_rules_tag_that_disagrees_is_skipped_by_analyze_and_convert() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.jsonl");
    write_log(&path, Format::Jsonl, 3, 9);
    let content = std::fs::read_to_string(&path).unwrap();
    let first_game = content
        .lines()
        .position(|line| line.contains("\"event\":\"game\""))
        .unwrap();
    let damaged: Vec<String> = content
        .lines()
        .enumerate()
        .map(|(index, line)| match index == first_game {
            true if line.contains("\"tags\":[]") => {
                line.replacen("\"tags\":[]", "\"tags\":[[\"Rules\",\"yatzy\"]]", 1)
            }
            true => line.replacen("\"tags\":[", "\"tags\":[[\"Rules\",\"yatzy\"],", 1),
            false => line.to_string(),
        })
        .collect();
    assert_ne!(damaged.join("\n") + "\n", content, "the tag was put in");
    std::fs::write(&path, damaged.join("\n") + "\n").unwrap();
    let summary = read(&path);
    let report = summary.report();
    assert_eq!((summary.games_read, summary.games_used), (3, 2), "{report}");
    let place = &summary.skipped[&SkipReason::SyntaxError][0];
    assert_eq!(place.line, first_game as u64 + 1, "{report}");
    assert!(
        place.detail.contains("`Rules` yatzy") && place.detail.contains("\"yahtzee\""),
        "{report}"
    );
    let path_text = path.to_str().unwrap();
    analyze_says(&path, dir.path(), "3 games read, 2 used, 1 skipped");
    let converted_path = dir.path().join("games.ygn");
    let converted = run(&[
        "convert",
        path_text,
        "--to",
        "ygn",
        "--out",
        converted_path.to_str().unwrap(),
    ]);
    let stderr = text(&converted.stderr);
    assert!(converted.status.success(), "{stderr}");
    assert!(
        stderr.contains("3 games read, 2 used, 1 skipped"),
        "{stderr}"
    );
    let ygn = std::fs::read_to_string(&converted_path).unwrap();
    assert_eq!(ygn.matches("[Rules \"yahtzee\"]").count(), 2, "{ygn}");
    assert!(!ygn.contains("yatzy"), "{ygn}");
}

/// Item 12 (JSONL): a damaged first line longer than 64 KiB hides nothing: the file is
/// recognised, the line is one skipped item, and the games after it are rated.
#[test]
fn a_damaged_jsonl_first_line_longer_than_64_kib_hides_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.jsonl");
    write_log(&path, Format::Jsonl, 3, 12);
    let content = std::fs::read(&path).unwrap();
    let long = [
        b"{\"event\":\"game\",\"game\":\"",
        &b"x".repeat(100 << 10)[..],
        b"\n",
    ]
    .concat();
    std::fs::write(&path, [&long[..], &content[..]].concat()).unwrap();
    let summary = read(&path);
    let report = summary.report();
    assert!(summary.files_skipped.is_empty(), "{report}");
    assert_eq!((summary.games_read, summary.games_used), (3, 3), "{report}");
    assert_eq!(summary.count(&SkipReason::DamagedLines), 1, "{report}");
    analyze_says(&path, dir.path(), "3 games read, 3 used, 0 skipped");
}

/// Item 7: two games around 64 MiB of blank lines, gzip-compressed (a small file that
/// decompresses large), are read and rated through the binary well within 20 s (it takes a
/// fraction of a second; quadratic reading took 45 s). The linear work itself is checked by
/// count in the parsers' tests (`runs_of_blank_or_comment_lines_cost_linear_work`).
#[test]
fn a_gzip_file_of_blank_lines_between_two_games_is_read() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("two.ygn");
    write_log(&log, Format::Ygn, 2, 7);
    let content = std::fs::read_to_string(&log).unwrap();
    let second = content.match_indices("[Game ").nth(1).unwrap().0;
    let path = dir.path().join("two.ygn.gz");
    let mut encoder = flate2::write::GzEncoder::new(
        std::fs::File::create(&path).unwrap(),
        flate2::Compression::default(),
    );
    encoder.write_all(&content.as_bytes()[..second]).unwrap();
    encoder.write_all(&vec![b'\n'; 64 << 20]).unwrap();
    encoder.write_all(&content.as_bytes()[second..]).unwrap();
    encoder.finish().unwrap();
    let out_dir = dir.path().join("out");
    let args = solitaire_analyze(path.to_str().unwrap(), out_dir.to_str().unwrap());
    let output = run_limited(&args, Duration::from_secs(20));
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("2 games read, 2 used, 0 skipped"),
        "{stderr}"
    );
}

//! Damaged logs: a format is recognised past a damaged first line, every intact game is
//! rated, the damage is reported where it is, and lines that belong to no game are never
//! counted as games; a repeated `Game` tag is one game with one error, judged alike by
//! `analyze` and `validate`.

use crate::common::run;
use dicelens::corpus::{CorpusReader, SkipReason, Summary};
use dicelens::replay::ReplayOptions;
use dicelens_parsers::Format;
use std::path::{Path, PathBuf};

/// A file in the fixtures.
fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

/// Reads `path` (format recognised, or `format`), returning the summary and the ids used.
fn read(path: &Path, format: Option<Format>) -> (Summary, Vec<String>) {
    let mut reader = CorpusReader::new(ReplayOptions::default());
    let mut used = Vec::new();
    reader.read_path(path, format, |game, _| {
        used.push(game.provenance.game_id.clone())
    });
    (reader.summary, used)
}

/// `content` with the first character of its first line that is not blank nor a comment
/// replaced by `X`; and that line's number.
fn damage_first_line(content: &str) -> (String, u64) {
    let mut number = 0;
    let mut done = false;
    let lines: Vec<String> = content
        .lines()
        .enumerate()
        .map(|(index, line)| {
            let trimmed = line.trim_start();
            if done || trimmed.is_empty() || trimmed.starts_with('%') {
                return line.to_string();
            }
            done = true;
            number = index as u64 + 1;
            let at = line.len() - trimmed.len();
            let rest: String = trimmed.chars().skip(1).collect();
            format!("{}X{rest}", &line[..at])
        })
        .collect();
    (lines.join("\n") + "\n", number)
}

/// The skipped places (any reason) on line `line`.
fn reported_at(summary: &Summary, line: u64) -> Vec<(String, String)> {
    summary
        .skipped
        .iter()
        .flat_map(|(reason, places)| places.iter().map(move |place| (reason, place)))
        .filter(|(_, place)| place.line == line)
        .map(|(reason, place)| (reason.to_string(), place.detail.clone()))
        .collect()
}

#[test]
fn a_damaged_first_line_costs_at_most_its_own_game_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let three_input_games = std::fs::read_to_string(fixture("verhoeff/input_game.txt")).unwrap();
    let verhoeff = [three_input_games.as_str(); 3].join("\n");
    let cases: Vec<(&str, String, Format)> = vec![
        (
            "ygn.ygn",
            std::fs::read_to_string(fixture("ygn/valid.ygn")).unwrap(),
            Format::Ygn,
        ),
        (
            "jsonl.jsonl",
            std::fs::read_to_string(fixture("jsonl/two_games.jsonl")).unwrap(),
            Format::Jsonl,
        ),
        ("verhoeff.txt", verhoeff, Format::Verhoeff),
        (
            "csv.csv",
            std::fs::read_to_string(fixture("csv/valid.csv")).unwrap(),
            Format::Csv,
        ),
        (
            "solver.jsonl",
            std::fs::read_to_string(fixture("yatzy-solver/american.jsonl")).unwrap(),
            Format::YatzySolver,
        ),
    ];
    for (name, intact, format) in cases {
        // The same path before and after the damage: ids made of path and line compare.
        let path = dir.path().join(name);
        std::fs::write(&path, &intact).unwrap();
        let (before, used_before) = read(&path, None);
        assert!(before.files_skipped.is_empty(), "{name}: {before:?}");
        assert!(!used_before.is_empty(), "{name}");

        let (damaged, line) = damage_first_line(&intact);
        std::fs::write(&path, damaged).unwrap();
        for forced in [None, Some(format)] {
            let (after, used) = read(&path, forced);
            let context = format!("{name} ({forced:?}): {}", after.report());
            assert!(after.files_skipped.is_empty(), "{context}");
            // No phantom game: the damage is a game's own, or no game's.
            assert!(after.games_read <= before.games_read, "{context}");
            assert!(used.len() + 1 >= used_before.len(), "{context}");
            let intact_ids = used.iter().filter(|id| used_before.contains(id)).count();
            assert!(intact_ids + 1 >= used_before.len(), "{context}");
            // The damage is reported at its line, as a broken game or as lines of no game.
            let places = reported_at(&after, line);
            assert_eq!(places.len(), 1, "{context}: {places:?}");
            let (reason, detail) = &places[0];
            assert!(
                reason == "syntax error" || reason == "damaged lines outside games",
                "{context}: {reason}"
            );
            assert!(
                detail.contains(&format!("{name}:{line}:")),
                "{context}: {detail}"
            );
            let outside = after.count(&SkipReason::DamagedLines) as u64;
            assert_eq!(
                after.games_read,
                after.games_used + after.skipped_count(),
                "{context}: damaged lines outside games ({outside}) are not games"
            );
        }
    }
}

#[test]
fn a_stray_line_before_the_first_game_is_no_game() {
    let dir = tempfile::tempdir().unwrap();
    let valid = std::fs::read_to_string(fixture("ygn/valid.ygn")).unwrap();
    let path = dir.path().join("stray.ygn");
    std::fs::write(&path, format!("some words a mail client added\n\n{valid}")).unwrap();
    let (intact, _) = read(&fixture("ygn/valid.ygn"), None);
    let (summary, _) = read(&path, Some(Format::Ygn));
    assert_eq!(
        summary.games_read,
        intact.games_read,
        "{}",
        summary.report()
    );
    assert_eq!(summary.games_used, intact.games_used);
    assert_eq!(summary.count(&SkipReason::DamagedLines), 1);
    let place = &summary.skipped[&SkipReason::DamagedLines][0];
    assert_eq!((place.line, place.game_id.as_deref()), (1, None));
    assert!(
        place.detail.contains("not part of any game"),
        "{}",
        place.detail
    );
}

/// The three games of `ygn/valid.ygn` with the `Game` tag of the second (one player) twice.
fn repeated_game_tag(dir: &Path) -> PathBuf {
    let valid = std::fs::read_to_string(fixture("ygn/valid.ygn")).unwrap();
    let path = dir.join("repeated.ygn");
    std::fs::write(
        &path,
        valid.replacen(
            "[Game \"valid-2\"]\n",
            "[Game \"valid-2\"]\n[Game \"valid-2\"]\n",
            1,
        ),
    )
    .unwrap();
    path
}

#[test]
fn a_repeated_game_tag_is_one_game_with_one_error_at_the_second_copy() {
    let dir = tempfile::tempdir().unwrap();
    let path = repeated_game_tag(dir.path());
    let second = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .enumerate()
        .filter(|(_, line)| *line == "[Game \"valid-2\"]")
        .map(|(index, _)| index as u64 + 1)
        .nth(1)
        .unwrap();
    let (summary, used) = read(&path, None);
    assert_eq!(summary.games_read, 3, "{}", summary.report());
    assert_eq!(summary.skipped_count(), 1, "{}", summary.report());
    let errors = &summary.skipped[&SkipReason::SyntaxError];
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].line, second);
    assert_eq!(errors[0].game_id.as_deref(), Some("valid-2"));
    assert!(!used.contains(&"valid-2".to_string()));

    // validate judges the same game the same way: illegal, for the same error, at that line.
    let path_text = path.to_str().unwrap();
    let output = run(&["validate", path_text, "--game", "valid-2"], 1);
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("ILLEGAL"), "{stdout}");
    assert!(
        stdout.contains(&format!("repeated.ygn:{second}:")),
        "{stdout}"
    );
}

#[test]
fn validate_takes_the_game_analyze_rates_when_a_broken_copy_shares_its_id() {
    let dir = tempfile::tempdir().unwrap();
    let valid = std::fs::read_to_string(fixture("ygn/valid.ygn")).unwrap();
    // A broken copy of game valid-2 (a die of 7 in its first turn) before the real one.
    let start = valid.find("[Game \"valid-2\"]").unwrap();
    let broken = valid[start..].replacen(": ", ": 7", 1);
    let path = dir.path().join("copies.ygn");
    std::fs::write(&path, format!("{broken}\n{valid}")).unwrap();
    let (summary, used) = read(&path, None);
    assert!(
        used.contains(&"valid-2".to_string()),
        "{}",
        summary.report()
    );
    assert_eq!(summary.count(&SkipReason::SyntaxError), 1);

    let output = run(
        &["validate", path.to_str().unwrap(), "--game", "valid-2"],
        1,
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(!stdout.contains("ILLEGAL"), "{stdout}");
}

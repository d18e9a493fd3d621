//! `convert`: games from any format (compressed or not, files, directories or standard input)
//! written in another. [`convert`] reads every game that replays, writes it in the format asked
//! for, and counts the games it skips by reason (a game of a rule set the output format cannot
//! state among them).

use crate::corpus::{CorpusReader, InputFormat, Location, SkipReason, Summary};
use crate::replay::ReplayOptions;
use dicelens_parsers::{Format, GameRecord, ReadOptions};
use std::fmt;
use std::io::Write;
use std::path::PathBuf;

/// What [`convert`] reads.
pub struct ConvertRequest<'a> {
    /// Log files (any input format), directories of them, or `-` for standard input.
    pub files: &'a [PathBuf],
    /// Their format (`Auto`: recognised per file).
    pub format: InputFormat,
    /// How the files are read.
    pub read_options: &'a ReadOptions,
    /// Convert games that ended early (abandoned, timeout, resigned) too.
    pub include_unfinished: bool,
    /// The output format.
    pub to: Format,
}

/// Why a conversion stopped.
#[derive(Debug)]
pub enum ConvertError {
    /// The output format is read, never written (`yatzy-solver`).
    NotWritten(Format),
    /// The games cannot be written to the output.
    Write(std::io::Error),
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConvertError::NotWritten(format) => write!(
                f,
                "{format} logs are read, not written (ygn, jsonl, csv or verhoeff)"
            ),
            ConvertError::Write(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ConvertError {}

/// Converts every game of the request's files that replays (unfinished ones only when asked)
/// to its output format, written to `out` (its start first, then the games in read order;
/// flushed at the end). Returns what was read: games used, and the others counted by reason
/// with their locations, a game of a rule set the output format cannot state counted as
/// [`SkipReason::OtherRuleSet`]. A write error stops the run.
pub fn convert(request: &ConvertRequest, out: &mut dyn Write) -> Result<Summary, ConvertError> {
    let to = request.to;
    if to == Format::YatzySolver {
        return Err(ConvertError::NotWritten(to));
    }
    let mut reader = CorpusReader::for_options(
        ReplayOptions {
            include_unfinished: request.include_unfinished,
        },
        request.read_options,
    );
    let mut write_error = to.write_start(&mut *out).err();
    for path in request.files {
        // Games of a rule set the output format cannot state: skipped, counted below.
        let mut unstated: Vec<Location> = Vec::new();
        reader.read_path(path, request.format.fixed(), |game, replayed| {
            if write_error.is_some() {
                return;
            }
            if let Some(only) = to.only_rules() {
                let rules = replayed.rules.map_or("unknown", |r| r.name());
                if rules != only {
                    unstated.push(Location {
                        file: game.provenance.file.clone(),
                        line: game.provenance.line,
                        game_id: Some(game.provenance.game_id.clone()),
                        detail: format!(
                            "a {rules} game: {to} records state only {only} games (it would be \
                             read back as one)"
                        ),
                    });
                    return;
                }
            }
            // Verhoeff's form needs each turn's points and running total, and a CSV table
            // gives each turn's points; other formats get the record as it was read.
            let written = if matches!(to, Format::Verhoeff | Format::Csv) {
                let mut annotated: GameRecord = game.clone();
                replayed.annotate(&mut annotated);
                to.write_game(&annotated, &mut *out)
            } else {
                to.write_game(game, &mut *out)
            };
            if let Err(e) = written {
                write_error = Some(e);
            }
        });
        for location in unstated {
            reader.summary.games_used = reader.summary.games_used.saturating_sub(1);
            reader.summary.skip(SkipReason::OtherRuleSet, location);
        }
    }
    match write_error.or_else(|| out.flush().err()) {
        Some(e) => Err(ConvertError::Write(e)),
        None => Ok(reader.summary),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two unfinished yahtzee games of one player.
    const LOG: &str = "[Game \"g1\"]\n[Rules \"yahtzee\"]\n[Players \"ann\"]\n[Termination \"abandoned\"]\n\n1. ann: 13456 k3456 23456 LS=40\n\n[Game \"g2\"]\n[Rules \"yahtzee\"]\n[Players \"ann\"]\n[Termination \"abandoned\"]\n\n1. ann: 13456 k3456 23456 LS=40\n";

    /// Converts [`LOG`] (written to a file of its own) to `to`; the summary and the output.
    fn run(to: Format, include_unfinished: bool) -> (Result<Summary, ConvertError>, String) {
        let dir = std::env::temp_dir().join(format!(
            "dicelens-convert-{}-{to}-{include_unfinished}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let log = dir.join("two.ygn");
        std::fs::write(&log, LOG).expect("write log");
        let files = vec![log];
        let read_options = ReadOptions::default();
        let request = ConvertRequest {
            files: &files,
            format: InputFormat::Auto,
            read_options: &read_options,
            include_unfinished,
            to,
        };
        let mut out = Vec::new();
        let result = convert(&request, &mut out);
        let _ = std::fs::remove_dir_all(&dir);
        (result, String::from_utf8_lossy(&out).into_owned())
    }

    #[test]
    fn every_game_that_replays_is_written() {
        let (summary, out) = run(Format::Jsonl, true);
        let summary = summary.expect("converted");
        assert_eq!((summary.games_read, summary.games_used), (2, 2));
        assert!(out.contains("g1") && out.contains("g2"), "{out}");
    }

    #[test]
    fn unfinished_games_are_skipped_unless_asked_for() {
        let (summary, out) = run(Format::Ygn, false);
        let summary = summary.expect("converted");
        assert_eq!(summary.games_used, 0);
        assert_eq!(summary.skipped_count(), 2);
        assert!(!out.contains("g1"), "{out}");
    }

    #[test]
    fn games_of_a_rule_set_the_format_cannot_state_are_counted_not_written() {
        let (summary, out) = run(Format::Verhoeff, true);
        let summary = summary.expect("converted");
        assert_eq!(summary.games_used, 0);
        assert_eq!(summary.count(&SkipReason::OtherRuleSet), 2);
        assert!(!out.contains("40"), "{out}");
    }

    #[test]
    fn a_format_that_is_only_read_is_refused() {
        let (result, out) = run(Format::YatzySolver, true);
        assert!(matches!(
            result,
            Err(ConvertError::NotWritten(Format::YatzySolver))
        ));
        assert!(out.is_empty());
    }
}

//! `dicelens convert`: games from any format to YGN, JSONL or Verhoeff's input form.

use super::{notice, CliError};
use dicelens::corpus::CorpusReader;
use dicelens::replay::ReplayOptions;
use dicelens_parsers::{Format, GameRecord};
use std::io::{BufWriter, Write};
use std::path::PathBuf;

/// The flags of `dicelens convert`.
#[derive(Clone, Debug)]
pub struct ConvertArgs {
    /// Input files.
    pub files: Vec<PathBuf>,
    /// Input format (`auto` recognises it per file).
    pub from: String,
    /// Output format.
    pub to: String,
    /// Output file (default: stdout).
    pub out: Option<PathBuf>,
    /// Convert games that ended early (abandoned, timeout, resigned) too.
    pub include_unfinished: bool,
}

/// Parses `--format`: `auto` or a format name.
pub fn input_format(flag: &str, text: &str) -> Result<Option<Format>, CliError> {
    if text == "auto" {
        return Ok(None);
    }
    text.parse().map(Some).map_err(|e| CliError::flag(flag, e))
}

/// Runs `dicelens convert`. Every game that replays is converted (unfinished ones only with
/// `--include-unfinished`); the others are counted on stderr with their reasons and locations.
pub fn run(args: &ConvertArgs) -> Result<(), CliError> {
    let from = input_format("--format", &args.from)?;
    let to: Format = args.to.parse().map_err(|e| CliError::flag("--to", e))?;
    let mut sink: Box<dyn Write> = match &args.out {
        Some(path) => Box::new(BufWriter::new(std::fs::File::create(path).map_err(
            |e| CliError::failure(format!("cannot write {}: {e}", path.display())),
        )?)),
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
    };
    let mut reader = CorpusReader::new(ReplayOptions {
        include_unfinished: args.include_unfinished,
    });
    let mut write_error = None;
    for path in &args.files {
        reader.read_path(path, from, |game, replayed| {
            if write_error.is_some() {
                return;
            }
            let mut annotated: GameRecord = game.clone();
            // Verhoeff's form needs each turn's points and running total; other formats get
            // the record as it was read.
            let turns = if to == Format::Verhoeff {
                annotated.turns.as_mut_slice()
            } else {
                &mut []
            };
            for (turn, record) in turns.iter_mut().enumerate() {
                record.total_before =
                    Some(replayed.sheets_at(turn)[usize::from(record.seat)].points);
                record.points = Some(replayed.box_points[turn] as u16);
            }
            if let Err(e) = to.write_game(&annotated, &mut sink) {
                write_error = Some(e);
            }
        });
    }
    if let Some(e) = write_error.or_else(|| sink.flush().err()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(CliError::failure(format!(
                "cannot write the converted games: {e}"
            )));
        }
    }
    notice(&format!(
        "converted to {to}: {}",
        reader.summary.report().trim_end()
    ));
    Ok(())
}

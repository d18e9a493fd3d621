//! `dicelens convert`: games from any format (compressed or not, files, directories or standard
//! input) to YGN, JSONL, CSV or Verhoeff's input form.

use super::flags::{FormatFlag, StrictFlag};
use super::{notice, CliError, Required};
use dicelens::corpus::{CorpusReader, Location, SkipReason};
use dicelens::output::{Finished, PendingFile};
use dicelens::replay::ReplayOptions;
use dicelens_parsers::{Format, GameRecord};
use std::io::{BufWriter, Write};
use std::path::PathBuf;

/// The flags of `dicelens convert`.
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// Log files to convert (any input format), directories of them, or `-` for standard input.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    format: FormatFlag,
    /// Output format: ygn, jsonl, csv or verhoeff.
    #[arg(long)]
    to: Format,
    /// Output file (default: stdout), replaced only once every game is written.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Convert games that ended early (abandoned, timeout, resigned) too.
    #[arg(long)]
    include_unfinished: bool,
    #[command(flatten)]
    strict: StrictFlag,
}

/// Runs `dicelens convert`. Every game that replays is converted (unfinished ones only with
/// `--include-unfinished`); the others are counted on stderr with their reasons and locations.
/// `--out` is replaced only when every game is written and some game was converted.
pub fn run(args: Args) -> Result<(), CliError> {
    let to = args.to;
    if to == Format::YatzySolver {
        return Err(CliError::flag(
            "--to",
            "yatzy-solver logs are read, not written (ygn, jsonl, csv or verhoeff)",
        ));
    }
    let files = args.format.paths(&args.files)?;
    let required = Required {
        files: Some(files.len()),
        strict: args.strict.strict,
        allow_empty: false,
        verb: "converted",
    };
    let mut reader = CorpusReader::for_options(
        ReplayOptions {
            include_unfinished: args.include_unfinished,
        },
        &args.format.read_options()?,
    );
    let mut file = match &args.out {
        Some(path) => Some(PendingFile::create(path).map_err(CliError::failure)?),
        None => None,
    };
    let mut sink: Box<dyn Write + '_> = match file.as_mut() {
        Some(file) => Box::new(file),
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
    };
    let mut write_error = to.write_start(&mut sink).err();
    for path in &files {
        // Games of a rule set the output format cannot state: skipped, counted below.
        let mut unstated: Vec<Location> = Vec::new();
        reader.read_path(path, args.format.format.fixed(), |game, replayed| {
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
                to.write_game(&annotated, &mut sink)
            } else {
                to.write_game(game, &mut sink)
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
    let write_error = write_error.or_else(|| sink.flush().err());
    drop(sink);
    if let Some(e) = write_error {
        if let Some(path) = &args.out {
            return Err(CliError::failure(format!(
                "cannot write {}: {e}",
                path.display()
            )));
        }
        // The converted games are the product: a reader gone before the end has not got
        // them all.
        return Err(CliError::failure(
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                "cannot write the converted games: stdout was closed before every game was \
             written (the output is incomplete)"
                    .to_string()
            } else {
                format!("cannot write the converted games: {e}")
            },
        ));
    }
    notice(&format!(
        "converted to {to}: {}",
        reader.summary.report().trim_end()
    ));
    required
        .check(&reader.summary)
        .map_err(|e| match &args.out {
            Some(path) => CliError::failure(format!("{e}; nothing written to {}", path.display())),
            None => e.into(),
        })?;
    if let Some(file) = file {
        file.finish()
            .and_then(Finished::commit)
            .map_err(CliError::failure)?;
    }
    Ok(())
}

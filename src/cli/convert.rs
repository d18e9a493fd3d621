//! `dicelens convert`: games from any format (compressed or not, files, directories or standard
//! input) to YGN, JSONL, CSV or Verhoeff's input form (`dicelens::workflow::convert`).

use super::flags::{log_files_help, output_format_help, FormatFlag, StrictFlag};
use super::{notice, wrote, CliError, Required};
use dicelens::output::{Finished, PendingFile};
use dicelens::workflow::convert::{convert, ConvertError, ConvertRequest};
use dicelens_parsers::Format;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

/// The flags of `dicelens convert`.
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// Log files to convert, directories of them, or `-` for standard input.
    #[arg(required = true, help = log_files_help())]
    files: Vec<PathBuf>,
    #[command(flatten)]
    format: FormatFlag,
    /// The format the games are written in.
    #[arg(long, value_name = "FORMAT", value_parser = Format::parse_written, help = output_format_help())]
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
    let files = args.format.paths(&args.files)?;
    let required = Required {
        files: Some(files.len()),
        strict: args.strict.strict,
        allow_empty: false,
        verb: "converted",
    };
    let read_options = args.format.read_options()?;
    let request = ConvertRequest {
        files: &files,
        format: args.format.read.format,
        read_options: &read_options,
        include_unfinished: args.include_unfinished,
        to,
    };
    let mut file = match &args.out {
        Some(path) => Some(PendingFile::create(path).map_err(CliError::failure)?),
        None => None,
    };
    let mut sink: Box<dyn Write + '_> = match file.as_mut() {
        Some(file) => Box::new(file),
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
    };
    let converted = convert(&request, &mut sink);
    drop(sink);
    let summary = match converted {
        Ok(summary) => summary,
        Err(ConvertError::Write(e)) => {
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
        Err(e) => return Err(CliError::flag("--to", e)),
    };
    notice(&format!(
        "converted to {to}: {}",
        summary.report().trim_end()
    ));
    required.check(&summary).map_err(|e| match &args.out {
        Some(path) => CliError::failure(format!("{e}; nothing written to {}", path.display())),
        None => e.into(),
    })?;
    if let (Some(file), Some(path)) = (file, &args.out) {
        file.finish()
            .and_then(Finished::commit)
            .map_err(CliError::failure)?;
        wrote("converted games", path);
    }
    Ok(())
}

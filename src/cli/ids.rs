//! Partitions of a corpus: `dicelens ids` (the game ids of a partition, as CSV), and what
//! `analyze` needs to rate one partition as the whole corpus would: `--byte-range START:END`
//! and `--seen-ids FILE` (the ids `ids` printed for the partitions before it).

use super::flags::LogFiles;
use super::progress::TERMINAL;
use super::CliError;
use dicelens::report::ids::IdsCsv;
pub use dicelens::report::ids::ID_COLUMN;
use dicelens::workflow::ids::{game_ids, IdsError};
use std::path::Path;

/// `dicelens ids` flags.
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    #[command(flatten)]
    pub logs: LogFiles,
    #[command(flatten)]
    pub format: super::flags::FormatFlag,
}

/// Reads `--seen-ids FILE`: CSV with the one column `game_id` (what `ids` prints), one id per
/// row, each handed to `each` (as it is read: the ids need not all be in memory). An error names
/// the file, the line and what was expected there.
pub fn read_seen_ids(path: &Path, mut each: impl FnMut(&str)) -> Result<(), CliError> {
    let flag = "--seen-ids";
    let name = path.display();
    let file = dicelens::files::open_input(path)
        .map_err(|e| CliError::flag(flag, format!("cannot read {name}: {e}")))?
        .into_read();
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(std::io::BufReader::new(file));
    let mut record = csv::StringRecord::new();
    let mut header = true;
    loop {
        let read = reader.read_record(&mut record).map_err(|e| {
            let line = e.position().map_or(0, csv::Position::line);
            CliError::flag(flag, format!("{name}:{line}: expected CSV text: {e}"))
        })?;
        if !read {
            break;
        }
        let line = record.position().map_or(0, csv::Position::line);
        let found = || {
            let fields: Vec<&str> = record.iter().collect();
            format!("{} fields {fields:?}", fields.len())
        };
        match (header, record.len(), record.get(0)) {
            (true, 1, Some(ID_COLUMN)) => header = false,
            (true, ..) => {
                return Err(CliError::flag(
                    flag,
                    format!(
                        "{name}:{line}: expected the header `{ID_COLUMN}` (the CSV `dicelens ids` \
                         prints), found {}",
                        found()
                    ),
                ))
            }
            (false, 1, Some(id)) => each(id),
            (false, ..) => {
                return Err(CliError::flag(
                    flag,
                    format!(
                        "{name}:{line}: expected one field (a game id), found {}",
                        found()
                    ),
                ))
            }
        }
    }
    if header {
        return Err(CliError::flag(
            flag,
            format!("{name}:1: expected the header `{ID_COLUMN}`, found an empty file"),
        ));
    }
    Ok(())
}

/// Runs `dicelens ids`: prints, as CSV with the header `game_id`, the id of every game of the
/// files (or of the byte range of the one file) that parses, in read order ([`game_ids`],
/// written by [`IdsCsv`]). A file that cannot be read is reported on stderr; one that changes
/// while it is read fails the run (its later ids would be missing).
pub fn run(args: Args) -> Result<(), CliError> {
    let options = args.format.read_options()?;
    let range = args.logs.range()?;
    let stdout = std::io::stdout().lock();
    let mut csv = IdsCsv::new(std::io::BufWriter::new(stdout));
    let files = args.format.paths(&args.logs.files)?;
    let read = game_ids(
        &files,
        args.format.read.format,
        &options,
        range,
        |id| csv.id(id),
        &TERMINAL,
    );
    if let Err(e) = read {
        if matches!(e, IdsError::Changed(_)) {
            csv.flush_quietly();
        }
        return Err(CliError::failure(e));
    }
    // The ids are the product (`--seen-ids` of the next partition): a reader gone before the
    // end has not got them all.
    match csv.finish() {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(CliError::failure(
            "cannot write to stdout: it was closed before every id was written (the list is \
             incomplete)",
        )),
        Err(e) => Err(CliError::failure(format!("cannot write to stdout: {e}"))),
        Ok(()) => Ok(()),
    }
}

//! `dicelens analyze`: rate every decision of a corpus ([`dicelens::pipeline::Analyzer`]) and
//! write the leaderboard, per-player and per-turn statistics, the summary, and the mergeable
//! aggregates ([`dicelens::report`]).

use super::flags::{FormatFlag, GameFilter, LogFiles, OracleFlag, StrictFlag, TablesFlag};
pub(crate) use super::progress::Bar;
use super::{notice, print_stdout, wrote, CliError, Required};
use dicelens::output::OutputDir;
use dicelens::pipeline::{Analyzer, Options, Progress};
use dicelens::report::{self, AnalysisFiles, WriteError};
use dicelens::workflow::analyze::{analyze_with_pages, AnalyzeRequest};
use std::path::{Path, PathBuf};

/// `dicelens analyze` flags.
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    #[command(flatten)]
    pub logs: LogFiles,
    /// Count the game ids of this CSV (what `dicelens ids` prints) as seen before: games with
    /// those ids are skipped as duplicates, as in one run over the partitions before this one.
    #[arg(long, value_name = "FILE")]
    pub seen_ids: Option<PathBuf>,
    /// Least games for a player to be on the leaderboard.
    #[arg(long, default_value_t = 500, value_parser = super::flags::parse_min_games)]
    pub min_games: u64,
    #[command(flatten)]
    pub filter: GameFilter,
    #[command(flatten)]
    pub format: FormatFlag,
    /// Output directory: a new or empty one, or one dicelens wrote (whose files of an earlier
    /// run are replaced, or removed when this run does not write them).
    #[arg(long, default_value = "analysis")]
    pub out: PathBuf,
    #[command(flatten)]
    pub leaderboard: LeaderboardFlags,
    /// Also write decisions.csv, one row per decision.
    #[arg(long)]
    pub decisions: bool,
    #[command(flatten)]
    pub strict: StrictFlag,
    /// Write the outputs and succeed even if no file could be read or no game was rated: the
    /// run is one partition of a corpus, which `merge --partitions` judges as a whole (implied
    /// by --byte-range).
    #[arg(long)]
    pub allow_empty: bool,
    #[command(flatten)]
    pub tables: TablesFlag,
    #[command(flatten)]
    pub oracle: OracleFlag,
}

/// How the leaderboard is printed (`analyze`, `merge`).
#[derive(clap::Args, Clone, Debug)]
pub struct LeaderboardFlags {
    /// Leaderboard lines printed.
    #[arg(long, default_value_t = 20)]
    pub top: usize,
    /// Print the leaderboard as JSON.
    #[arg(long)]
    pub json: bool,
}

/// A file that could not be written, as a failure.
pub(crate) fn cannot_write(e: WriteError) -> CliError {
    CliError::failure(e)
}

/// Opens the output directory of a run (`--out`): created if needed, refused if dicelens did not
/// write it and it is not empty.
pub(crate) fn open_out(dir: &Path) -> Result<OutputDir, CliError> {
    OutputDir::open(dir).map_err(CliError::failure)
}

/// Runs `dicelens analyze`: one call ([`analyze_with_pages`]), then the outputs written
/// ([`write_outputs`]).
pub fn run(args: Args) -> Result<(), CliError> {
    let bar = Bar::new();
    let range = args.logs.range()?;
    let files = args.format.paths(&args.logs.files)?;
    let required = Required {
        files: Some(files.len()),
        strict: args.strict.strict,
        allow_empty: args.allow_empty || range.is_some(),
        verb: "rated",
    };
    let mut analyzer = Analyzer::new(Options {
        oracle: args.oracle.oracle,
        tables: args.tables.tables.clone(),
        ..args.filter.reading(&args.format, range)?
    });
    if let Some(path) = &args.seen_ids {
        super::ids::read_seen_ids(path, |id| analyzer.mark_seen(id))?;
    }
    let mut out = open_out(&args.out)?;
    let request = AnalyzeRequest {
        files,
        min_games: args.min_games,
        top: args.leaderboard.top,
        decisions: args.decisions,
    };
    let run = analyze_with_pages(analyzer, &request, &mut out, &bar).map_err(CliError::failure)?;
    let written = write_outputs(out, &run.files(), args.leaderboard.json, &required);
    bar.phase_done("reports");
    written
}

/// Reports the summary on stderr; if the run has what `required` asks, writes every output
/// file of the analysis into `out`, prints the leaderboard on stdout and then puts the files in
/// place (shared by `analyze` and `merge`). Otherwise nothing is written. A leaderboard that
/// cannot be printed (stdout a full disk; a reader gone is not an error) fails the run before
/// the outputs are put in place: the exit code and the outputs agree.
pub(crate) fn write_outputs(
    mut out: OutputDir,
    files: &AnalysisFiles,
    json: bool,
    required: &Required,
) -> Result<(), CliError> {
    notice(files.summary.report().trim_end());
    required.check(files.summary).map_err(|e| {
        CliError::failure(format!("{e}; nothing written to {}", out.path().display()))
    })?;
    report::write_analysis(&mut out, files).map_err(cannot_write)?;
    let boards = files.leaderboards();
    let oracle = files.oracle();
    print_stdout(&if json {
        report::leaderboard_json(&boards, files.top, &oracle, files.min_games)
    } else {
        report::leaderboard_text(&boards, files.top, &oracle, files.min_games)
    })
    .map_err(|e| CliError::failure(format!("{e}; nothing written to {}", out.path().display())))?;
    let dir = out.path().to_path_buf();
    out.commit().map_err(cannot_write)?;
    wrote("reports", &dir);
    Ok(())
}

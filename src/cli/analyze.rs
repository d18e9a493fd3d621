//! `dicelens analyze`: rate every decision of a corpus ([`dicelens::pipeline::Analyzer`]) and
//! write the leaderboard, per-player and per-turn statistics, the summary, and the mergeable
//! aggregates ([`dicelens::report`]).

use super::flags::{FormatFlag, GameFilter, LogFiles, OracleFlag, StrictFlag, TablesFlag};
pub(crate) use super::progress::Bar;
use super::{notice, print_stdout, CliError, Required};
use dicelens::output::OutputDir;
use dicelens::pipeline::{rate_games_with_ids, Analyzer, Options};
use dicelens::rate::Unit;
use dicelens::report::csv::RowFiles;
use dicelens::report::{self, AnalysisFiles, WriteError};
use dicelens::store::summary::SummaryFile;
use dicelens::worst::WorstDecisions;
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
    #[arg(long, default_value_t = 500)]
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

/// Runs `dicelens analyze`.
pub fn run(args: Args) -> Result<(), CliError> {
    let mut phases = super::progress::Phases::start();
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
    let options = analyzer.options().clone();
    let mut out = open_out(&args.out)?;
    let rows = RowFiles::create(&out, args.decisions).map_err(cannot_write)?;
    let mut sink = (rows, WorstDecisions::of_everyone());
    let mut analysis = analyzer
        .run(&files, &mut sink, &Bar::new())
        .map_err(CliError::failure)?;
    phases.done("read, replay and rate");
    let (rows, worst) = sink;
    if analysis.mixes_units() {
        notice(&format!(
            "note: {} one-player games are rated in expected points and {} games of several \
             players in expected match points: each unit gets its own leaderboard and charts",
            analysis.aggregates.games_in(Unit::Points),
            analysis.aggregates.games_in(Unit::MatchPoints)
        ));
    }
    rows.finish(&mut out).map_err(cannot_write)?;
    phases.done("rows");
    // The games of the worst decisions of the players on the leaderboard, read again and
    // rated, each on its page.
    let boards = report::leaderboards(&analysis.aggregates, args.min_games);
    let linked = report::linked_games(&boards, &worst);
    drop(boards);
    let logs = std::mem::take(&mut analysis.logs);
    let again = rate_games_with_ids(&logs, &options, &linked, &mut analysis.tables, &Bar::new())
        .map_err(CliError::failure)?;
    report_missed(&again.missed);
    phases.done("linked games read and rated again");
    let game_pages =
        report::write_game_pages(&mut out, &again.games, &analysis.oracle).map_err(cannot_write)?;
    phases.done("game pages");
    // Freeing tens of thousands of cached turn evaluations takes a noticeable part of a
    // short run; let another thread do it (or the process's exit).
    let tables = std::mem::replace(
        &mut analysis.tables,
        dicelens::pipeline::Tables::new(args.tables.tables.as_deref(), analysis.spec),
    );
    std::thread::spawn(move || drop(tables));
    let summary_file = SummaryFile::of_analysis(&analysis);
    let mut files = AnalysisFiles::of_analysis(
        &analysis,
        &summary_file,
        args.min_games,
        args.leaderboard.top,
    );
    files.worst = Some(&worst);
    files.game_pages = Some(&game_pages);
    let written = write_outputs(out, &files, args.leaderboard.json, &required);
    phases.done("reports");
    written
}

/// Lines of [`report_missed`] shown; the rest are counted.
const MISSED_SHOWN: usize = 10;

/// Reports on stderr the logs and games that were not read again for the game pages (a stream,
/// a log changed since it was read, a game changed), the first [`MISSED_SHOWN`] by name.
fn report_missed(missed: &[String]) {
    for line in missed.iter().take(MISSED_SHOWN) {
        notice(&format!("game pages: {line}"));
    }
    if missed.len() > MISSED_SHOWN {
        notice(&format!(
            "game pages: and {} more such notes",
            missed.len() - MISSED_SHOWN
        ));
    }
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
    let oracle = &files.summary_file.oracle;
    print_stdout(&if json {
        report::leaderboard_json(&boards, files.top, oracle, files.min_games)
    } else {
        report::leaderboard_text(&boards, files.top, oracle, files.min_games)
    })
    .map_err(|e| CliError::failure(format!("{e}; nothing written to {}", out.path().display())))?;
    out.commit().map_err(cannot_write)
}

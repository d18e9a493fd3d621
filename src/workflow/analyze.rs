//! `analyze` with its pages: the whole of what `dicelens analyze --out DIR` writes. The corpus
//! is read, replayed and rated once (rows streamed to `decisions.csv` and `games.csv`, the
//! worst decisions of every player kept); the games of the worst decisions of the players on
//! the leaderboard are read again and rated, each written on its page in `games/`; what is
//! left (the leaderboard, the statistics, the summary, the player pages) is written by
//! [`AnalyzeRun::files`] and [`crate::report::write_analysis`].

use crate::corpus::Summary;
use crate::output::OutputDir;
use crate::pipeline::Progress;
use crate::pipeline::{rate_games_with_ids, Analysis, AnalyzeError, Analyzer, OracleRegistry};
use crate::rate::Unit;
use crate::report::csv::RowFiles;
use crate::report::{self, AnalysisFiles, WriteError};
use crate::store::summary::SummaryFile;
use crate::tables::TableError;
use crate::worst::WorstDecisions;
use std::collections::BTreeSet;
use std::fmt;
use std::path::PathBuf;

/// Lines about the games not read again that are given as notices; the rest are counted.
const MISSED_SHOWN: usize = 10;

/// What an analysis with its pages is asked for, besides the corpus and the reading options
/// (those are the [`Analyzer`]'s).
#[derive(Clone, Debug)]
pub struct AnalyzeRequest {
    /// The log files.
    pub files: Vec<PathBuf>,
    /// Least games for a player to be on the leaderboard (whose worst decisions get pages).
    pub min_games: u64,
    /// Leaderboard lines printed (the HTML report lists every ranked player).
    pub top: usize,
    /// Also write `decisions.csv`, one row per decision.
    pub decisions: bool,
}

/// An analysis with its pages: the rows and the game pages are written into the output
/// directory already; [`AnalyzeRun::files`] gives the rest of its files.
pub struct AnalyzeRun {
    /// The analysis (its aggregates, summary, oracle).
    pub analysis: Analysis,
    /// `summary.json`.
    pub summary_file: SummaryFile,
    /// The worst decisions of every player.
    pub worst: WorstDecisions,
    /// The ids of the games whose pages are written in `games/`.
    pub game_pages: BTreeSet<String>,
    /// One line for each log or game not read again for the game pages (a stream, a log
    /// changed since it was read, a game changed).
    pub missed: Vec<String>,
    /// Least games for the leaderboard.
    pub min_games: u64,
    /// Leaderboard lines printed.
    pub top: usize,
}

impl AnalyzeRun {
    /// The output files of the run that are not written yet, for
    /// [`crate::report::write_analysis`].
    pub fn files(&self) -> AnalysisFiles<'_> {
        let mut files = AnalysisFiles::of_analysis(
            &self.analysis,
            &self.summary_file,
            self.min_games,
            self.top,
        );
        files.worst = Some(&self.worst);
        files.game_pages = Some(&self.game_pages);
        files
    }

    /// Games read, used and skipped.
    pub fn summary(&self) -> &Summary {
        &self.analysis.summary
    }
}

/// Why an analysis with its pages stopped.
#[derive(Debug)]
pub enum AnalyzeRunError {
    /// The analysis stopped.
    Analyze(AnalyzeError),
    /// A table the games read again need cannot be used or built.
    Table(TableError),
    /// An output file cannot be written.
    Write(WriteError),
}

impl fmt::Display for AnalyzeRunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalyzeRunError::Analyze(e) => e.fmt(f),
            AnalyzeRunError::Table(e) => e.fmt(f),
            AnalyzeRunError::Write(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AnalyzeRunError {}

impl From<WriteError> for AnalyzeRunError {
    fn from(e: WriteError) -> Self {
        AnalyzeRunError::Write(e)
    }
}

/// Runs `analyzer` over the request's files, writing the rows and the game pages into `out`
/// (not committed: the caller writes the rest of the files, [`AnalyzeRun::files`], and commits
/// them together). Notices (the units mixed, the games not read again) and the phases of the
/// run go to `progress`.
pub fn analyze_with_pages(
    analyzer: Analyzer,
    request: &AnalyzeRequest,
    out: &mut OutputDir,
    progress: &dyn Progress,
) -> Result<AnalyzeRun, AnalyzeRunError> {
    let options = analyzer.options().clone();
    let rows = RowFiles::create(out, request.decisions)?;
    let mut sink = (rows, WorstDecisions::of_everyone());
    let mut analysis = analyzer
        .run(&request.files, &mut sink, progress)
        .map_err(AnalyzeRunError::Analyze)?;
    progress.phase_done("read, replay and rate");
    let (rows, worst) = sink;
    if analysis.mixes_units() {
        progress.notice(&format!(
            "note: {} one-player games are rated in expected points and {} games of several \
             players in expected match points: each unit gets its own leaderboard and charts",
            analysis.aggregates.games_in(Unit::Points),
            analysis.aggregates.games_in(Unit::MatchPoints)
        ));
    }
    rows.finish(out)?;
    progress.phase_done("rows");
    // The games of the worst decisions of the players on the leaderboard, read again and
    // rated, each on its page.
    let boards = crate::ranking::leaderboards(&analysis.aggregates, request.min_games);
    let linked = report::linked_games(&boards, &worst);
    drop(boards);
    let logs = std::mem::take(&mut analysis.logs);
    let again = rate_games_with_ids(&logs, &options, &linked, &mut analysis.tables, progress)
        .map_err(AnalyzeRunError::Table)?;
    for line in missed_notices(&again.missed) {
        progress.notice(&line);
    }
    progress.phase_done("linked games read and rated again");
    let game_pages = report::write_game_pages(out, &again.games, &analysis.oracle)?;
    progress.phase_done("game pages");
    // Freeing tens of thousands of cached turn evaluations takes a noticeable part of a
    // short run; let another thread do it (or the process's exit).
    let tables = std::mem::replace(
        &mut analysis.tables,
        OracleRegistry::new(options.tables.as_deref(), analysis.spec),
    );
    std::thread::spawn(move || drop(tables));
    let summary_file = SummaryFile::of_analysis(&analysis);
    Ok(AnalyzeRun {
        analysis,
        summary_file,
        worst,
        game_pages,
        missed: again.missed,
        min_games: request.min_games,
        top: request.top,
    })
}

/// The notices about the logs and games not read again for the game pages, the first
/// [`MISSED_SHOWN`] by name, the rest counted.
fn missed_notices(missed: &[String]) -> Vec<String> {
    let mut lines: Vec<String> = missed
        .iter()
        .take(MISSED_SHOWN)
        .map(|line| format!("game pages: {line}"))
        .collect();
    if missed.len() > MISSED_SHOWN {
        lines.push(format!(
            "game pages: and {} more such notes",
            missed.len() - MISSED_SHOWN
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missed_notices_name_ten_and_count_the_rest() {
        let missed: Vec<String> = (0..12).map(|i| format!("log {i}")).collect();
        let lines = missed_notices(&missed);
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], "game pages: log 0");
        assert_eq!(lines[10], "game pages: and 2 more such notes");
        assert!(missed_notices(&missed[..3]).len() == 3);
    }
}
